"""Backgammon's legal plays against a second, deliberately plain implementation of the rules
(rules/backgammon.md), written here from the rule text alone: every order of the dice, every
checker, the maximal-dice and higher-number rules applied at the end. Positions come from random
play and from random bear-off races, so they are not the oracle file's."""
from __future__ import annotations

import random

import pytest

from interpreter.bench import positions_of
from interpreter.kernel.board import from_start
from interpreter.sim import play_game
from interpreter.variant.build import load_variant


def _moves(b: tuple, d: int):
    """Every single move of the number d: (board after)."""
    out = []
    if b[25]:
        t = 25 - d
        if b[t] >= -1:
            out.append(_move(b, 25, t))
        return out
    all_home = all(b[p] <= 0 for p in range(7, 25))
    for s in range(1, 25):
        if b[s] <= 0:
            continue
        t = s - d
        if t >= 1:
            if b[t] >= -1:
                out.append(_move(b, s, t))
        elif all_home and (t == 0 or all(b[p] <= 0 for p in range(s + 1, 7))):
            out.append(_move(b, s, 0))
    return out


def _move(b: tuple, s: int, t: int) -> tuple:
    L = list(b)
    L[s] -= 1
    if t == 0:
        L[0] += 1
    else:
        if L[t] == -1:
            L[t] = 0
            L[26] += 1
        L[t] += 1
    return tuple(L)


def reference_results(b: tuple, d1: int, d2: int) -> set:
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    plays: list[tuple[int, tuple, tuple]] = []        # (numbers played, first number, board)

    def walk(board, seq, used):
        nexts = _moves(board, seq[len(used)]) if len(used) < len(seq) else []
        if not nexts or board[0] == 15:
            n = len(seq) if board[0] == 15 else len(used)
            plays.append((n, used[:1], board))
            return
        for nb in nexts:
            walk(nb, seq, used + (seq[len(used)],))

    for seq in orders:
        walk(b, seq, ())
    best = max(n for n, _f, _b in plays)
    kept = [(f, nb) for n, f, nb in plays if n == best]
    if best == 1 and d1 != d2:
        higher = [(f, nb) for f, nb in kept if f == (max(d1, d2),)]
        kept = higher or kept
    return {nb for _f, nb in kept}


def _race(rng: random.Random) -> tuple:
    """A random bear-off race: the mover's 15 on pips 1..8, the opponent's on his side."""
    L = [0] * 28
    for _ in range(15):
        if rng.random() < 0.3:
            L[0] += 1
        else:
            L[rng.randint(1, 8)] += 1
    for _ in range(15):
        p = rng.randint(13, 24)
        if L[p] == 0 or L[p] < 0:
            L[p] -= 1
        else:
            L[27] += 1
    return tuple(L)


@pytest.fixture(scope="module")
def backgammon():
    return load_variant("backgammon")


def test_random_play_positions_agree_with_the_plain_rules(backgammon):
    positions = []
    for i in range(12):
        positions += positions_of(backgammon, play_game(backgammon, 321, i, keep_record=True))
    for b, d1, d2 in positions:
        assert set(backgammon.generator.results(b, d1, d2)) == reference_results(b, d1, d2), \
            (b, d1, d2)


def test_bear_off_races_agree_with_the_plain_rules(backgammon):
    rng = random.Random(5)
    for _ in range(1500):
        b = _race(rng)
        if b[0] == 15:
            continue
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        assert set(backgammon.generator.results(b, d1, d2)) == reference_results(b, d1, d2), \
            (b, d1, d2)


def test_the_plain_rules_know_the_opening_counts():
    start = from_start({24: 2, 13: 5, 8: 3, 6: 5})
    assert [len(reference_results(start, *d)) for d in ((3, 1), (6, 6), (5, 2), (1, 1))] == \
        [16, 11, 8, 42]
