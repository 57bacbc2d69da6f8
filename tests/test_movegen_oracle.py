"""Backgammon legal plays against the reference engines (oracles/README.md): every one of the
1,015 positions of `backgammon-moves.jsonl` (OpenSpiel 2.0.2, confirmed by GNU Backgammon 1.07)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.kernel.board import from_json, sort_key
from interpreter.kernel.movegen import MoveGenerator
from interpreter.kernel.rules import MoveRules

DATA = Path(__file__).parent / "data" / "backgammon-moves.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
GEN = MoveGenerator(MoveRules(checkers=15))


def _case(row: dict) -> tuple:
    pos = row["position"]
    b = from_json(pos, checkers=15)
    d1, d2 = pos["dice"]
    expected = sorted((from_json(r) for r in row["results"]), key=sort_key)
    return b, d1, d2, expected


def test_file_is_complete() -> None:
    assert len(ROWS) == 1015
    assert all(row["count"] == len(row["results"]) for row in ROWS)


def test_known_counts_from_the_start() -> None:
    start = from_json(ROWS[0]["position"])
    assert [len(GEN.results(start, a, b)) for a, b in ((3, 1), (6, 6), (5, 2), (1, 1))] == [
        16, 11, 8, 42]


@pytest.mark.parametrize("chunk", range(5))
def test_results_match_the_oracle(chunk: int) -> None:
    failures = []
    for i in range(chunk, len(ROWS), 5):
        b, d1, d2, expected = _case(ROWS[i])
        got = sorted(GEN.results(b, d1, d2), key=sort_key)
        if got != expected:
            failures.append((i, ROWS[i]["position"].get("id"), len(got), len(expected)))
    assert not failures, f"line, id, got, expected: {failures[:10]}"


@pytest.mark.parametrize("chunk", range(5))
def test_plays_give_the_same_boards(chunk: int) -> None:
    failures = []
    for i in range(chunk, len(ROWS), 5):
        b, d1, d2, expected = _case(ROWS[i])
        plays, unplayed = GEN.plays(b, d1, d2)
        boards = sorted((p.board for p in plays), key=sort_key)
        if boards != expected or not all(p.paths for p in plays):
            failures.append((i, ROWS[i]["position"].get("id")))
        elif unplayed and len(plays) != 1 and unplayed == (4 if d1 == d2 else 2):
            failures.append((i, "unplayed"))
    assert not failures, failures[:10]


# -- trictrac: the kernel under the forbidden-jan filter and the obligations ----------------------
#
# The trictrac oracle counts apply the whole of trictrac.md §3.9: the kernel's switches, the
# forbidden jans (§3.6, a `forbid` filter of the variant file) and the obligations to fill, to
# conserve and to bear everything off (§3.8, preferences of the variant file). Written here in
# plain Python as a stand-in for those rules, they check the kernel's part: corners, rests,
# par puissance, the excédant filter and the maximal dice under a filter.

TRICTRAC = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13,
                     opp_corner=12, puissance_needs="both_coins_empty", bear_off="all_home",
                     home_top=6, excedant_filter="fewest")
JANS = (range(19, 25), range(13, 19), range(1, 7))   # petit jan, grand jan, jan de retour


def _forbidden_jans(before: tuple) -> tuple[bool, bool]:
    """Whether the opponent can still fill his petit jan (pips 1..6) and his grand jan (7..12):
    for every k, at least 2k of his checkers on his first k points of that jan or behind them."""
    behind = [0] * 25
    for p in range(1, 25):
        behind[p] = behind[p - 1] + max(0, -before[p])
    return (all(behind[k] >= 2 * k for k in range(1, 7)),
            all(behind[6 + k] >= 2 * k for k in range(1, 7)))


def _forbidden_jan_hook(before: tuple, board: tuple, path: tuple) -> bool:
    petit, grand = _forbidden_jans(before)
    for i, st in enumerate(path):
        if 1 <= st.dst <= 6 and petit:
            return True
        if 7 <= st.dst <= 12 and grand:
            # only a rest on the way into an open jan de retour
            nxt = path[i + 1] if i + 1 < len(path) else None
            if nxt is None or nxt.src != st.dst or nxt.dst > 6 or petit:
                return True
    return False


def _obliged(b: tuple, boards: list) -> list:
    def full(x: tuple, jan: range) -> bool:
        return all(x[p] >= 2 for p in jan)

    fills = [x for x in boards if any(full(x, j) and not full(b, j) for j in JANS)]
    if fills:
        boards = fills
    else:
        for j in JANS:
            if full(b, j):
                boards = [x for x in boards if full(x, j)] or boards
    return [x for x in boards if x[0] == 15] or boards


@pytest.mark.parametrize("name", ["trictrac-rolls.jsonl", "trictrac-rolls-hard.jsonl"])
def test_trictrac_counts(name: str) -> None:
    path = DATA.parent / name
    if not path.exists():
        pytest.skip(f"copy oracles/{name} to tests/data to run this check")
    gen = MoveGenerator(TRICTRAC, (_forbidden_jan_hook,))
    failures = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        b = from_json(row["position"])
        d1, d2 = row["position"]["dice"]
        plays, unplayed = gen.plays(b, d1, d2)
        boards = [p.board for p in plays]
        if plays[0].paths != ((),):
            boards = _obliged(b, boards)
        if len(boards) != row["count"]:
            failures.append((row["position"], row["count"], len(boards)))
    assert not failures, failures[:5]
