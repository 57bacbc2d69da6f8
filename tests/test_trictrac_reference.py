"""Trictrac's legal plays against a second, deliberately plain implementation of the movement
rules of rules/trictrac.md §3 (the algorithm of §3.9 written out step by step), on positions from
random parties of the Dutch Triktrak — relevés, sorties and all — rather than the oracle files
(the plain version also gives every count of those files).

Pips are the mover's (talon 24, own coin 13, opponent's coin 12); M = 25 - pip."""
from __future__ import annotations

import pytest

from interpreter.analysis import legal_results
from interpreter.bench import positions_of
from interpreter.kernel.board import to_json
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

COIN, THEIR_COIN = 13, 12


def can_fill(b: tuple, first: int, last: int) -> bool:
    """The opponent can still fill his jan on the mover's pips first..last (§3.6)."""
    return all(sum(-b[p] for p in range(1, q + 1) if b[p] < 0) >= 2 * (q - first + 1)
               for q in range(first, last + 1))


def full(b: tuple, lo: int, hi: int) -> bool:
    return all(b[p] >= 2 for p in range(lo, hi + 1))


def step(b: tuple, s: int, d: int):
    """The board after moving one checker from s by d, or None; with its kind (land / off)."""
    if b[s] <= 0:
        return None
    t = s - d
    L = list(b)
    if t >= 1:
        if b[t] < 0:                                  # a single opposing checker blocks
            return None
        if t == THEIR_COIN and b[t] != 0:
            return None
        L[s] -= 1
        L[t] += 1
        return tuple(L), t
    if any(b[p] > 0 for p in range(7, 25)):           # bearing off: all in the jan de retour
        return None
    if t < 0 and any(b[p] > 0 for p in range(s + 1, 7)):
        return None                                   # a higher number: the farthest only
    L[s] -= 1
    L[0] += 1
    return tuple(L), 0


def sequences(b: tuple, dice: tuple[int, ...]):
    """(end board, steps) of every sequence playing the numbers in this order."""
    out = []

    def walk(board, i, steps):
        if i == len(dice):
            out.append((board, steps))
            return
        for s in range(1, 25):
            moved = step(board, s, dice[i])
            if moved is not None:
                walk(moved[0], i + 1, steps + ((s, moved[1], dice[i]),))
    walk(b, 0, ())
    return out


def legal_end(before: tuple, board: tuple, steps: tuple) -> bool:
    if board[COIN] == 1:
        return False
    landings = [t for i, (_s, t, _d) in enumerate(steps)
                if not (i + 1 < len(steps) and steps[i + 1][0] == t)]
    if THEIR_COIN in landings:
        return False
    for t in landings:
        if 7 <= t <= 12 and can_fill(before, 7, 12):
            return False
        if 1 <= t <= 6 and can_fill(before, 1, 6):
            return False
    return True


def excedants(before: tuple, steps: tuple) -> int:
    return sum(1 for s, t, d in steps if t == 0 and d > s)


def reference_count(b: tuple, d1: int, d2: int) -> int:
    orders = [(d1, d1)] if d1 == d2 else [(d1, d2), (d2, d1)]
    plays = [(nb, st) for o in orders for nb, st in sequences(b, o) if legal_end(b, nb, st)]
    a, c = max(d1, d2), min(d1, d2)
    # par puissance (§3.4): both coins empty, men that could reach the opponent's coin, and the
    # coin cannot be taken directly
    def men(p: int, n: int) -> bool:
        return b[p] >= n
    effect = men(13 + d1, 2) if d1 == d2 else (men(13 + d1, 1) and men(13 + d2, 1))
    power = men(12 + d1, 2) if d1 == d2 else (men(12 + d1, 1) and men(12 + d2, 1))
    if b[COIN] == 0 and b[THEIR_COIN] == 0 and power and not effect:
        L = list(b)
        L[12 + d1] -= 1
        L[12 + d2] -= 1
        L[COIN] += 2
        plays.append((tuple(L), ((12 + d1, COIN, d1), (12 + d2, COIN, d2))))
    # a sequence that bore the last checker off with its first number is complete
    done = [(nb, st) for o in orders for nb, st in sequences(b, o[:1])
            if nb[0] == 15 and legal_end(b, nb, st)]
    if not plays:
        plays = done
    if not plays:
        for d in (a, c):
            singles = [(nb, st) for nb, st in sequences(b, (d,)) if legal_end(b, nb, st)]
            if singles:
                plays = singles
                break
    if not plays:
        return 1
    if any(t == 0 for _nb, st in plays for _s, t, _d in st):
        fewest = min(excedants(b, st) for _nb, st in plays)
        plays = [(nb, st) for nb, st in plays if excedants(b, st) == fewest]
    boards = {nb for nb, _st in plays}
    jans = ((19, 24), (13, 18), (1, 6))
    fills = {nb for nb in boards if any(full(nb, lo, hi) and not full(b, lo, hi) for lo, hi in jans)}
    keeps = {nb for nb in boards if any(full(b, lo, hi) and full(nb, lo, hi) for lo, hi in jans)}
    if fills:
        boards = fills
    elif keeps:
        boards = keeps
    sortie = {nb for nb in boards if nb[0] == 15}
    return len(sortie or boards)


@pytest.fixture(scope="module")
def positions():
    v = load_variant("triktrak")
    out = []
    kinds = (("random", "random"), ("greedy", "random"), ("greedy", "greedy"))
    for i in range(12):
        white, black = kinds[i % 3]
        out += positions_of(v, play_game(v, 77, i, white, black, keep_record=True))
    return v, out


def test_counts_of_random_parties_agree_with_the_plain_rules(positions):
    v, rows = positions
    assert len(rows) > 1000
    # the sample reaches the jan de retour and bearing off, not only the opening
    assert any(all(b[p] <= 0 for p in range(7, 25)) for b, _d1, _d2 in rows)
    for b, d1, d2 in rows:
        got = legal_results(v, {**to_json(b), "dice": [d1, d2]})["count"]
        assert got == reference_count(b, d1, d2), (b, d1, d2)


def test_the_plain_rules_give_every_count_of_the_reference_files():
    import json
    from pathlib import Path

    from interpreter.kernel.board import from_json

    data = Path(__file__).parent / "data"
    for name in ("trictrac-rolls.jsonl", "trictrac-rolls-hard.jsonl"):
        for line in (data / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            p = row["position"]
            assert reference_count(from_json(p), *p["dice"]) == row["count"], p
