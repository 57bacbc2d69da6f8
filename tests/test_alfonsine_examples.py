"""The worked examples of the Alfonsine games, Verquere and the rest of tables-family part 3,
each by its name, through `tablier moves` (`analysis.legal_results`) on the shipped files: the
number of results the rules give, what the example singles out (a win or a loss in the middle of
a throw, numbers passed on, another throw), and the whole set of result lines against the plain
second implementation (tests/reference_tables4.py, whose own tests check each example's full
list as the rules state it)."""
from __future__ import annotations

import json
from typing import Any

import pytest

import reference_tables4 as ref
from interpreter.analysis import legal_results
from interpreter.errors import PositionError
from interpreter.variant.build import load_variant
from test_alfonsine_reference import canonical, reference_lines

#: name → (game, mover's men, opponent's men, other counts, dice, options, results)
EXAMPLES: dict[str, tuple[str, dict, dict, dict, tuple, dict, int]] = {
    "QT1": ("quinze-tablas", {20: 1, 17: 2}, {16: 1, 13: 2}, {}, (4, 3, 1), {}, 10),
    "QT2": ("quinze-tablas", {3: 1, 2: 1}, {20: 14, 5: 1}, {}, (3, 2, 1), {}, 1),
    "QT3": ("quinze-tablas", {10: 1, 2: 1}, {20: 15}, {}, (6, 5, 2), {}, 4),
    "DC1": ("doze-canes", {}, {}, {"goal": (1, 6)}, (5, 3), {}, 2),
    "DC2": ("doze-canes", {9: 1, 6: 2, 5: 2, 4: 2, 3: 1, 2: 2, 1: 2}, {20: 6, 19: 6},
            {"goal": (1, 6)}, (6, 5), {}, 2),
    "DC3": ("doze-canes", {13: 1}, {20: 6, 10: 1}, {"goal": (1, 6)}, (3, 2), {}, 5),
    "SD1": ("seys-dos-e-as", {18: 8, 14: 4, 13: 3}, {17: 5, 16: 5, 15: 5}, {}, (6, 2, 1), {},
            24),
    "SD2": ("seys-dos-e-as", {17: 5, 16: 5, 15: 5}, {18: 8, 14: 4, 13: 3}, {}, (6, 2, 1), {},
            11),
    "SD3": ("seys-dos-e-as", {4: 2, 2: 1}, {17: 12, 3: 1, 1: 2}, {}, (2, 1, 1), {}, 3),
    "CQ1": ("cab-e-quinal", {19: 15}, {20: 15}, {"starts": (19, 20)}, (6, 5, 1), {}, 5),
    "CQ2": ("cab-e-quinal", {20: 15}, {19: 15}, {"starts": (20, 19)}, (6, 5, 1), {}, 3),
    "CQ3": ("cab-e-quinal", {9: 1, 6: 1}, {19: 12, 7: 1, 2: 2}, {"starts": (20, 19)},
            (2, 1, 1), {}, 4),
    "CQ4": ("cab-e-quinal", {19: 1, 9: 1, 6: 1}, {18: 12, 7: 1, 2: 2}, {"starts": (20, 19)},
            (2, 1, 1), {}, 11),
    "TT1": ("todas-tablas", {13: 1, 6: 1}, {10: 1, 3: 2}, {}, (3, 2), {}, 4),
    "TT2": ("todas-tablas", {13: 1, 2: 1, 1: 1}, {20: 14, 10: 1}, {}, (3, 1), {}, 4),
    "TT3": ("todas-tablas", {11: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {20: 14, 7: 1}, {},
            (4, 4), {}, 6),
    "ME1": ("medio-emperador", {12: 15}, {1: 15}, {}, (6, 5, 4), {}, 3),
    "ME2": ("medio-emperador", {5: 1, 4: 1}, {12: 13, 3: 1, 1: 1}, {}, (2, 1, 1), {}, 4),
    "ME3": ("medio-emperador", {12: 15}, {1: 15}, {}, (6, 5), {"me_dice": 2}, 1),
    "PE1": ("pareia-de-entrada", {}, {}, {}, (3, 3, 3), {}, 3),
    "PE2": ("pareia-de-entrada", {}, {21: 1}, {}, (4, 2, 1), {}, 8),
    "PE3": ("pareia-de-entrada", {5: 1, 3: 1}, {24: 11, 2: 2, 1: 2}, {"w_off": 13},
            (2, 2, 2), {}, 1),
    "FA1": ("fallas", {18: 13, 13: 2}, {12: 2, 7: 13}, {}, (6, 5, 1), {}, 5),
    "FA2": ("fallas", {12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {21: 6, 20: 6, 6: 1, 3: 2}, {},
            (1, 1, 1), {}, 41),
    "FA3": ("fallas", {15: 1}, {14: 2, 13: 2, 12: 2, 11: 2, 10: 2, 9: 2, 3: 3}, {}, (3, 2, 1),
            {}, 1),
    "LQ1": ("laquet", {24: 14, 1: 1}, {23: 3, 22: 3, 21: 3, 20: 3, 19: 2, 12: 1}, {}, (6, 5),
            {}, 1),
    "LQ2": ("laquet", {24: 14, 1: 1}, {23: 3, 22: 3, 21: 3, 20: 3, 19: 2, 12: 1}, {}, (5, 4),
            {}, 1),
    "LQ2-passed": ("laquet", {23: 3, 22: 3, 21: 3, 20: 3, 19: 2, 12: 1}, {24: 14, 1: 1},
                   {"passed": (5, 4)}, (), {}, 53),
    "LQ3": ("laquet", {6: 1, 2: 1}, {5: 1, 4: 1, 3: 1, 1: 12}, {}, (6, 1), {}, 1),
    "LQ3-passed": ("laquet", {5: 1, 4: 1, 3: 1, 1: 12}, {6: 1, 2: 1}, {"passed": (1,)}, (), {},
                   4),
    "DB1": ("doblet", {p: 2 for p in range(19, 25)}, {p: 2 for p in range(1, 7)},
            {"stacked": (range(19, 25), range(1, 7))}, (6, 2, 1), {}, 1),
    "DB2": ("doblet", {p: 2 for p in range(19, 25)}, {p: 2 for p in range(1, 7)},
            {"stacked": ({21}, {4, 5})}, (4, 4, 5), {}, 1),
    "DB2-passed": ("doblet", {p: 2 for p in range(19, 25)}, {p: 2 for p in range(1, 7)},
                   {"stacked": ({20, 21}, ()), "passed": (5, 4)}, (), {}, 4),
    "DB3": ("doblet", {5: 1, 2: 1}, {19: 1, 21: 1}, {}, (6, 4, 3), {}, 2),
    "DB3-passed-6-4": ("doblet", {6: 1, 4: 1}, {20: 1, 23: 1}, {"passed": (6, 4)}, (), {}, 4),
    "DB3-passed-6-3": ("doblet", {6: 1, 4: 1}, {23: 2}, {"passed": (6, 3)}, (), {}, 2),
    "BB1": ("buffa-de-baldrac", {}, {}, {}, (6, 5, 1), {}, 1),
    "BB2": ("buffa-de-baldrac", {24: 2, 22: 1}, {1: 15}, {}, (2, 2, 2), {}, 1),
    "BB3": ("buffa-de-baldrac", {4: 1}, {22: 2, 21: 2, 20: 2, 19: 2, 1: 7},
            {"w_bar": 1, "w_off": 13}, (6, 3, 1), {}, 1),
    "BB4": ("buffa-de-baldrac", {6: 1, 3: 1}, {20: 15}, {"w_off": 13}, (5, 4, 2), {}, 3),
    "XS1": ("xii-scripta", {}, {}, {}, (6, 5, 1), {}, 5),
    "XS2": ("xii-scripta", {33: 1}, {31: 1, 29: 2, 20: 5}, {}, (2, 2, 4), {}, 6),
    "XS3": ("xii-scripta", {7: 1, 3: 1}, {15: 14}, {"w_off": 13, "b_off": 1}, (6, 4, 3), {}, 2),
    "XS3-higher": ("xii-scripta", {7: 1, 3: 1}, {15: 14}, {"w_off": 13, "b_off": 1}, (6, 4, 3),
                   {"xs_bear_off": "higher"}, 1),
    "VQ1": ("verquere", {24: 15}, {12: 15}, {}, (6, 5), {}, 2),
    "VQ2": ("verquere", {24: 15}, {12: 15}, {}, (6, 6), {}, 1),
    "VQ3": ("verquere", {24: 15}, {12: 15}, {}, (3, 3), {}, 1),
    "VQ4": ("verquere", {24: 13, 20: 1}, {12: 13, 22: 1, 13: 1}, {}, (2, 1), {}, 6),
    "VQ5": ("verquere", {20: 1, 6: 2, 5: 3, 4: 3, 3: 3, 2: 2}, {23: 1, 21: 2, 12: 10, 10: 2},
            {"w_bar": 1}, (4, 3), {}, 4),
}


def lines(name: str) -> tuple[list[dict[str, Any]], set[str]]:
    game, w, b, kw, dice, opts, _count = EXAMPLES[name]
    pos = ref.Pos.of(game, w, b, **kw)
    obj = ref.to_json(game, pos)
    if dice:
        obj["dice"] = list(dice)
    variant = load_variant(game, [f"{k}={json.dumps(v)}" for k, v in opts.items()])
    got = legal_results(variant, obj)["results"]
    want, _ = reference_lines(game, opts, pos, dice)
    return got, want


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_worked_example(name):
    got, want = lines(name)
    assert len(got) == EXAMPLES[name][-1]
    assert {canonical(line) for line in got} == want


def test_QT2_the_last_man_off_wins_with_a_number_left():
    got, _ = lines("QT2")
    assert got[0]["game_over"] == {"winner": "mover", "points": 1}


def test_DC2_the_goal_filled_in_the_middle_of_the_throw_wins():
    got, _ = lines("DC2")
    wins = [line for line in got if "game_over" in line]
    assert len(wins) == 1 and wins[0]["points"][:6] == [2, 2, 2, 2, 2, 2]


def test_FA2_one_order_of_the_moves_leaves_the_hit_man_nowhere():
    got, _ = lines("FA2")
    wins = [line for line in got if "game_over" in line]
    assert len(wins) == 1 and wins[0]["bar"] == [0, 1]


def test_FA3_a_throw_with_no_move_loses():
    got, _ = lines("FA3")
    assert got[0]["game_over"] == {"winner": "opponent", "points": 1}


def test_LQ2_both_numbers_pass_and_the_opponent_may_decline():
    got, _ = lines("LQ2")
    assert got[0]["next"] == "passed" and got[0]["passed"] == [5, 4]
    passed, _ = lines("LQ2-passed")
    assert all(line["next"] == "throw" for line in passed)
    start = ref.to_json("laquet", ref.Pos.of("laquet", *EXAMPLES["LQ2-passed"][1:3]))
    assert any(line["points"] == start["points"] for line in passed)


def test_DB1_the_opening_unstacks_three_pairs_and_passes_nothing():
    (line,), _ = lines("DB1")
    assert line["state"]["stacked"] == {"mine": [20, 21, 22], "theirs": [1, 2, 3, 4, 5, 6]}
    assert line["next"] == "end" and line["points"][18:] == [2] * 6


def test_DB2_a_throw_begun_unstacking_stays_so_and_passes_what_it_cannot_use():
    (line,), _ = lines("DB2")
    assert line["state"]["stacked"]["mine"] == [] and line["passed"] == [5, 4]
    passed, _ = lines("DB2-passed")
    assert sorted(tuple(line.get("state", {}).get("stacked", {}).get("mine", []))
                  for line in passed) == [(), (20,), (20, 21), (21,)]
    assert all(line["next"] == "throw" for line in passed)
    # with the race begun once the last pair is unstacked, the 4 and the 5 move men instead
    got, _ = lines_with("DB2", {"db_stage_switch": "per_move"})
    assert all(line["next"] == "end" and line["state"]["stacked"]["mine"] == [] for line in got)
    assert len(got) > 1


def test_DB3_bearing_off_one_number_played_the_others_pass():
    got, _ = lines("DB3")
    assert sorted(line["passed"] for line in got) == [[6, 3], [6, 4]]
    both, _ = lines("DB3-passed-6-4")
    assert sum(1 for line in both if "game_over" in line) == 1
    assert len(lines("DB3-passed-6-3")[0]) == 2
    # `db_passed = "lost"`: nothing passes
    lost, _ = lines_with("DB3", {"db_passed": "lost"})
    assert {line["next"] for line in lost} == {"end"}


def lines_with(name: str, opts: dict[str, Any]) -> tuple[list[dict[str, Any]], set[str]]:
    """`lines` of a worked example under other options, checked against the reference."""
    game, w, b, kw, dice, _opts, _count = EXAMPLES[name]
    pos = ref.Pos.of(game, w, b, **kw)
    obj = ref.to_json(game, pos)
    obj["dice"] = list(dice)
    variant = load_variant(game, [f"{k}={json.dumps(v)}" for k, v in opts.items()])
    got = legal_results(variant, obj)["results"]
    want, _ = reference_lines(game, opts, pos, dice)
    assert {canonical(line) for line in got} == want
    return got, want


def test_PE1_a_triplet_played_in_full_throws_again():
    got, _ = lines("PE1")
    assert {line["next"] for line in got} == {"again"}
    assert {line["next"] for line in lines("PE3")[0]} == {"end"}


def test_a_goal_must_be_a_quarter():
    variant = load_variant("doze-canes")
    obj = {"points": [0] * 24, "bar": [0, 0], "off": [0, 0], "dice": [3, 2],
           "state": {"goal": [2, 7]}}
    with pytest.raises(PositionError, match="goal"):
        legal_results(variant, obj)


def test_can_move_reads_the_limit_of_men_a_point():
    """Men on pips 1..8, one each, none home to bear off: with one man a point (`limit = 1`)
    every landing is a point of their own already full, so the side cannot move; without the
    limit it can (the rule language's `can_move()`, docs/dsl.md)."""
    from interpreter.dsl.runtime import can_move

    b = [0] * 31
    for p in range(1, 9):
        b[p] = 1
    b[24] = -1
    args = (0, 0, 0, 0, 2, 6, 0, 1, 0)
    assert can_move(tuple(b), *args)
    assert not can_move(tuple(b), *args, 24, 1, sum(1 << p for p in range(1, 25)))
    # the limit on the first half only (Verquere's 13..23) leaves these men free
    assert can_move(tuple(b), *args, 24, 1, sum(1 << p for p in range(13, 24)))
