"""The 12-point Tric-Trac on constructed positions: the exact set of legal plays for each
movement rule of rules/tric-trac-12.md, and the points of plays (`tablier moves` / `score`).

Positions are written from the mover's side, in his pips: his Start is pip 24, his own corner
pip 13, the opponent's corner pip 12, Home pip 1 (counts as off). `theirs` is the opponent's men
in the mover's pips; the opponent's Start is the mover's pip 1. Men not placed are off.
"""
from __future__ import annotations

import io
import json
from functools import cache

import pytest

from interpreter.analysis import legal_results, roll_score
from interpreter.cli import main
from interpreter.errors import PositionError
from interpreter.variant.build import load_variant

N = 15


@cache
def variant(*overrides: str):
    return load_variant("tric-trac-12", overrides)


def pos(mine: dict[int, int], theirs: dict[int, int] | None = None, dice=(1, 2), **extra) -> dict:
    """A position object (INTERFACES.md): men not placed are off."""
    theirs = {1: N} if theirs is None else theirs
    points = [0] * 24
    for p, n in mine.items():
        points[p - 1] += n
    for p, n in theirs.items():
        assert points[p - 1] == 0, p
        points[p - 1] -= n
    obj = {"points": points, "bar": [0, 0],
           "off": [N - sum(mine.values()), N - sum(theirs.values())], "dice": list(dice)}
    obj.update(extra)
    return obj


def key(mine: dict[int, int], theirs: dict[int, int] | None = None) -> tuple:
    """The comparable form of an end position (mover's and opponent's men, both off counts)."""
    p = pos(mine, theirs)
    return tuple(p["points"]) + tuple(p["off"])


def results(obj: dict, *overrides: str) -> dict[tuple, dict]:
    out = legal_results(variant(*overrides), obj)
    assert out["count"] == len(out["results"])
    rows = {tuple(r["points"]) + tuple(r["off"]): r for r in out["results"]}
    assert len(rows) == out["count"], "results must be distinct"
    return rows


def plays(obj: dict, *overrides: str) -> set[tuple]:
    return set(results(obj, *overrides))


def points_of(obj: dict, mine: dict[int, int], theirs: dict[int, int] | None = None,
              *overrides: str) -> tuple[int, int]:
    row = results(obj, *overrides)[key(mine, theirs)]
    return row["score"]["mover"], row["score"]["opponent"]


START = {24: N}

# -- the start and entering -------------------------------------------------------------------


def test_opening_enters_two_men_or_one_in_two_stages() -> None:
    """Seed example: 5-4 enters men on points 5 and 6, or one man on point 10."""
    assert plays(pos(START, dice=(5, 4))) == {key({24: 13, 20: 1, 19: 1}), key({24: 14, 15: 1})}


def test_doublet_gives_two_moves_of_its_number() -> None:
    """Not four: 3-3 enters two men on 21, or one on 18."""
    assert plays(pos(START, dice=(3, 3))) == {key({24: 13, 21: 2}), key({24: 14, 18: 1})}


def test_men_on_the_start_enter_before_any_other_man_moves() -> None:
    """The men on 19 and 20 stay while the Start holds men; a move may carry on the man just
    entered."""
    b = {24: 13, 20: 1, 19: 1}
    assert plays(pos(b, dice=(6, 1))) == {
        key({24: 11, 23: 1, 20: 1, 19: 1, 18: 1}),
        key({24: 12, 20: 1, 19: 1, 17: 1}),
    }


def test_once_the_start_is_empty_the_other_number_moves_any_man() -> None:
    assert plays(pos({24: 1, 10: 1}, dice=(5, 2))) == {
        key({17: 1, 10: 1}), key({19: 1, 8: 1}), key({22: 1, 5: 1})}


def test_entering_blocked_by_made_points_loses_the_throw() -> None:
    """Both entering points are made: nothing moves (the man on 10 must wait)."""
    obj = pos({24: 1, 10: 1}, {19: 2, 22: 2, 1: 11}, dice=(5, 2))
    rows = results(obj)
    assert set(rows) == {key({24: 1, 10: 1}, {19: 2, 22: 2, 1: 11})}
    assert next(iter(rows.values()))["score"] == {"mover": 0, "opponent": 0}


def test_entering_hits_a_blot_back_to_its_start() -> None:
    """A hit man goes to its owner's Start (the mover's pip 1) and is worth a point."""
    obj = pos({24: 1, 10: 1}, {19: 1, 1: 14}, dice=(5, 2))
    rows = results(obj)
    assert set(rows) == {
        key({17: 1, 10: 1}, {1: 15}), key({19: 1, 8: 1}, {1: 15}),
        key({17: 1, 10: 1}, {19: 1, 1: 14}), key({22: 1, 5: 1}, {19: 1, 1: 14})}
    assert rows[key({17: 1, 10: 1}, {1: 15})]["score"] == {"mover": 1, "opponent": 0}
    assert rows[key({22: 1, 5: 1}, {19: 1, 1: 14})]["score"] == {"mover": 0, "opponent": 0}


def test_no_bearing_off_while_men_wait_on_the_start() -> None:
    """The man on 3 could leave with the 2, but two men are still on the Start."""
    assert plays(pos({24: 2, 3: 1}, dice=(6, 2))) == {
        key({22: 1, 18: 1, 3: 1}),
        key({24: 1, 16: 1, 3: 1})}


# -- blocks and hits --------------------------------------------------------------------------


def test_a_made_point_blocks_and_the_other_number_is_lost() -> None:
    """17 and 15 are made: only the 2 can be played (20-18); the 3 is lost."""
    assert plays(pos({20: 1}, {17: 2, 15: 2, 1: 11}, dice=(3, 2))) == {
        key({18: 1}, {17: 2, 15: 2, 1: 11})}


def test_a_two_stage_move_needs_an_open_intermediate_point() -> None:
    """20-17 is closed, so the man goes 20-18-15 only."""
    assert plays(pos({20: 1}, {17: 2, 1: 13}, dice=(3, 2))) == {key({15: 1}, {17: 2, 1: 13})}


def test_a_blot_on_the_intermediate_point_is_hit() -> None:
    """20-17-15 hits on 17 and on 15 (2 points); 20-18-15 hits only on 15 (1 point)."""
    obj = pos({20: 1}, {17: 1, 15: 1, 1: 13}, dice=(3, 2))
    rows = results(obj)
    assert set(rows) == {key({15: 1}, {1: 15}), key({15: 1}, {17: 1, 1: 14})}
    assert rows[key({15: 1}, {1: 15})]["score"]["mover"] == 2
    assert rows[key({15: 1}, {17: 1, 1: 14})]["score"]["mover"] == 1


# -- the corners ------------------------------------------------------------------------------


def test_no_move_ends_on_the_opponent_corner_even_empty() -> None:
    """16-12 is never played; 16-15-11 is."""
    assert plays(pos({20: 1, 16: 1}, dice=(4, 1))) == {key({16: 1, 15: 1}), key({20: 1, 11: 1})}


def test_no_two_stage_move_passes_through_the_opponent_corner() -> None:
    """17-12-10 would rest on the empty opponent's corner (17-15 is closed): no play at all.
    The switch `opp_corner_rest` (true in trictrac) allows the rest."""
    obj = pos({17: 1}, {15: 2, 1: 13}, dice=(5, 2))
    assert plays(obj) == {key({17: 1}, {15: 2, 1: 13})}
    assert plays(obj, "movement.opp_corner_rest=true") == {key({10: 1}, {15: 2, 1: 13})}


def test_a_single_man_never_takes_the_own_corner() -> None:
    """17-13 alone would leave one man on the corner, 17-16-12 ends on the opponent's: only the
    ace is played."""
    assert plays(pos({17: 1}, dice=(4, 1))) == {key({16: 1})}


def test_the_own_corner_is_made_by_two_men_in_one_throw() -> None:
    """Seed example (4-2, from points 10 and 8 = pips 17 and 15); a man may also rest on the
    empty corner on the way."""
    assert plays(pos({20: 1, 17: 1, 15: 1}, dice=(4, 2))) == {
        key({20: 1, 13: 2}), key({20: 1, 15: 1, 11: 1}), key({20: 1, 17: 1, 9: 1}),
        key({18: 1, 17: 1, 11: 1}), key({17: 1, 15: 1, 14: 1}), key({16: 1, 15: 2})}


def test_the_last_two_men_leave_the_corner_together() -> None:
    assert plays(pos({20: 1, 13: 2}, dice=(3, 1))) == {key({16: 1, 13: 2})}
    assert plays(pos({20: 1, 13: 2}, dice=(3, 3))) == {key({20: 1, 10: 2}), key({14: 1, 13: 2})}


def test_men_leave_a_corner_of_three_singly() -> None:
    assert plays(pos({20: 1, 13: 3}, dice=(3, 1))) == {
        key({19: 1, 13: 2, 10: 1}), key({20: 1, 13: 2, 9: 1}), key({16: 1, 13: 3})}


def test_par_puissance_when_the_opponent_corner_could_be_reached() -> None:
    """Men on 17 and 15 with 5-3 could both reach the empty opponent's corner: they may take
    the own corner instead, one pip short each. Not while the opponent holds his corner."""
    assert plays(pos({17: 1, 15: 1}, dice=(5, 3))) == {
        key({13: 2}), key({17: 1, 7: 1}), key({14: 1, 10: 1}), key({15: 1, 9: 1})}
    theirs = {12: 2, 1: 13}
    assert plays(pos({17: 1, 15: 1}, theirs, dice=(5, 3))) == {
        key({17: 1, 7: 1}, theirs), key({14: 1, 10: 1}, theirs), key({15: 1, 9: 1}, theirs)}


def test_no_par_puissance_when_two_men_can_take_the_corner_directly() -> None:
    """18-13 and 16-13 take the corner directly, so 17 and 15 may not take it by privilege."""
    theirs = {14: 2, 11: 2, 10: 2, 1: 9}
    assert plays(pos({18: 1, 17: 1, 16: 1, 15: 1}, theirs, dice=(5, 3))) == {
        key({17: 1, 15: 1, 13: 2}, theirs), key({18: 1, 17: 1, 15: 1, 8: 1}, theirs)}


def test_no_par_puissance_while_men_wait_on_the_start() -> None:
    assert plays(pos({24: 1, 17: 1, 15: 1}, dice=(5, 3))) == {
        key({17: 1, 16: 1, 15: 1}), key({19: 1, 15: 1, 14: 1}), key({21: 1, 17: 1, 10: 1})}


# -- bearing off ------------------------------------------------------------------------------


def test_home_counts_as_off() -> None:
    """A man on pip 2 leaves with any number; a man on pip 3 with a 2 or more."""
    assert plays(pos({10: 1, 2: 1}, dice=(3, 1))) == {
        key({7: 1}), key({9: 1}), key({6: 1, 2: 1})}
    assert plays(pos({4: 1, 3: 1}, dice=(2, 1))) == {key({3: 1}), key({4: 1}), key({2: 2})}


def test_a_higher_number_bears_off_any_man() -> None:
    """The 6 or the 5 bears the man on 3 off though a man stands on 8."""
    rows = results(pos({8: 1, 3: 1}, dice=(6, 5)))
    assert set(rows) == {key({3: 1}), key({2: 1})}
    assert all(r["score"] == {"mover": 1, "opponent": 0} for r in rows.values())


def test_bearing_off_from_anywhere_or_from_the_last_quarter() -> None:
    """DEFAULT `bear_off_requires = "none"`; `bear_off = "all_home"` is "last_quarter"."""
    obj = pos({9: 1, 3: 1}, dice=(2, 1))
    assert plays(obj) == {key({8: 1}), key({9: 1}), key({6: 1, 3: 1}), key({7: 1, 2: 1})}
    assert plays(obj, 'movement.bear_off="all_home"') == {key({6: 1, 3: 1}), key({7: 1, 2: 1})}


def test_the_last_man_borne_off_completes_the_throw() -> None:
    rows = results(pos({4: 1}, dice=(2, 1)))
    assert set(rows) == {key({})}
    assert rows[key({})]["score"]["mover"] == 1


# -- the dice ---------------------------------------------------------------------------------


def test_either_number_when_only_one_can_be_played() -> None:
    """9 is closed: 20-14 or 20-15, not both. DEFAULT `single_number = "either"`; the
    backgammon rule (`higher_number = true`) keeps the 6."""
    theirs = {9: 2, 1: 13}
    obj = pos({20: 1}, theirs, dice=(6, 5))
    assert plays(obj) == {key({14: 1}, theirs), key({15: 1}, theirs)}
    assert plays(obj, "movement.higher_number=true") == {key({14: 1}, theirs)}


def test_a_doublet_moving_onto_the_opponent_corner_plays_once() -> None:
    assert plays(pos({20: 1}, dice=(4, 4))) == {key({16: 1})}
    assert plays(pos({20: 1}, dice=(3, 3))) == {key({14: 1})}


# -- points -----------------------------------------------------------------------------------

PRIME = {p: 2 for p in range(13, 19)}          # the side prime: own corner and points 7-11
THEIR_PRIME = {p: 2 for p in range(7, 13)}     # the opponent's, seen from the mover


def test_completing_the_side_prime_scores_two() -> None:
    """18 holds one man: 20-18 completes the prime (2 points), 22-20-19 does not."""
    mine = {**PRIME, 18: 1, 20: 1, 22: 1}
    obj = pos(mine, dice=(2, 1))
    assert points_of(obj, {**PRIME, 21: 1}) == (2, 0)
    assert points_of(obj, {**PRIME, 18: 1, 20: 1, 19: 1}) == (0, 0)


def test_a_standing_side_prime_scores_two_per_throw_and_a_broken_one_nothing() -> None:
    obj = pos({**PRIME, 20: 1, 19: 1}, dice=(2, 1))
    rows = results(obj)
    stands = {k: all(k[p - 1] >= 2 for p in range(13, 19)) for k in rows}
    assert any(stands.values()) and not all(stands.values())
    for k, row in rows.items():
        assert row["score"] == {"mover": 2 if stands[k] else 0, "opponent": 0}
    assert points_of(obj, {**PRIME, 18: 4}) == (2, 0)              # 20-18, 19-18
    assert points_of(obj, {**PRIME, 18: 0, 17: 3, 16: 3, 20: 1, 19: 1}) == (0, 0)


def test_the_side_prime_scores_after_a_throw_with_no_legal_play() -> None:
    """Both primes stand and 6-6 cannot be played: the mover scores 2; the opponent scores
    his too only under `prime_scores_on = "every_throw"`."""
    obj = pos(PRIME, THEIR_PRIME, dice=(6, 6))
    rows = results(obj)
    assert set(rows) == {key(PRIME, THEIR_PRIME)}
    assert rows[key(PRIME, THEIR_PRIME)]["score"] == {"mover": 2, "opponent": 0}
    every = results(obj, 'options.prime_scores_on="every_throw"')
    assert every[key(PRIME, THEIR_PRIME)]["score"] == {"mover": 2, "opponent": 2}


def test_t5_a_hit_a_man_borne_off_and_the_standing_prime_score_four() -> None:
    """match-scoring §6.1 T5: one throw scores 1 + 1 + 2."""
    mine = {**PRIME, 10: 1, 3: 1}
    theirs = {8: 1, 1: 14}
    obj = pos(mine, theirs, dice=(3, 2))
    after = {**PRIME, 8: 1}
    assert points_of(obj, after, {1: 15}) == (4, 0)
    score = roll_score(variant(), {**obj, "result": pos(after, {1: 15})})
    assert (score["mover"], score["opponent"]) == (4, 0)
    assert {i["rule"]: i["points"] for i in score["items"]} == {
        "hit": 1, "borne-off": 1, "side-prime": 2}


def test_score_needs_the_play() -> None:
    with pytest.raises(PositionError, match="result"):
        roll_score(variant(), pos(START, dice=(5, 4)))
    with pytest.raises(PositionError, match="legal play"):
        roll_score(variant(), {**pos(START, dice=(5, 4)), "result": pos({24: 14, 14: 1})})


def test_extra_throw_state_is_read_and_changes_nothing_on_the_board() -> None:
    obj = pos(START, dice=(3, 3))
    assert results({**obj, "state": {"extra_throw": True}}) == results(obj)


# -- the command line -------------------------------------------------------------------------


def _run(argv: list[str], stdin: str, monkeypatch, capsys) -> tuple[int, list[dict]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines()]


def test_cli_moves_and_score(monkeypatch, capsys) -> None:
    obj = pos(START, dice=(5, 4))
    code, lines = _run(["moves", "tric-trac-12"], json.dumps(obj) + "\n", monkeypatch, capsys)
    assert code == 0 and lines[0]["count"] == 2
    assert all(r["score"] == {"mover": 0, "opponent": 0} for r in lines[0]["results"])
    first = lines[0]["results"][0]
    query = {**obj, "result": {k: first[k] for k in ("points", "bar", "off")}}
    code, lines = _run(["score", "tric-trac-12"], json.dumps(query) + "\n" + json.dumps(obj) + "\n",
                       monkeypatch, capsys)
    assert code == 1
    assert lines[0] == {"mover": 0, "opponent": 0, "items": []}
    assert "error" in lines[1]


def test_single_plays_of_a_number_left_over() -> None:
    """The kernel's plays of one number alone (the entering move after a restack)."""
    from interpreter.kernel.board import from_json
    gen = variant().generator
    b = from_json(pos(START, {19: 2, 23: 1, 1: 12}))
    [hit] = gen.single_plays(b, 1)
    assert hit.board == from_json(pos({24: 14, 23: 1}, {19: 2, 1: 13}))
    assert [tuple(s) for s in hit.paths[0]] == [(24, 23, 1, 1, 0)]
    [blocked] = gen.single_plays(b, 5)
    assert blocked.board == b and blocked.paths == ((),)
