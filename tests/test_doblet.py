"""Doblet's structures beyond its worked examples (tests/test_alfonsine_examples.py) and its
agreement with the reference (tests/test_alfonsine_reference.py): the pairs stacked at the start
carried in the board and its JSON, the diagnostics of the new keys with their carets, plays that
unstack written and read back, the stacked pairs drawn, the passed numbers offered in a game
only to unstack or to bear off, and the variant left to the Python path and to its file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game_harness import each_decision_answered_last
from interpreter.analysis import legal_results
from interpreter.engine.game import Game
from interpreter.errors import PositionError
from interpreter.kernel.notation import move_text, parse_move, read_play
from interpreter.native import python_only
from interpreter.notation import PIPS
from interpreter.variant.build import load_variant, validate_paths
from interpreter.variant.stored import _NotStorable, describe

START = [-2] * 6 + [0] * 12 + [2] * 6


@pytest.fixture(scope="module")
def doblet():
    return load_variant("doblet")


def test_the_start_stacks_every_pair_of_both_sides(doblet):
    layout = doblet.geometry
    start = doblet.start_of(0)
    assert layout.stacked(start) == (list(range(19, 25)), list(range(1, 7)))
    assert layout.to_json(start)["state"]["stacked"] == {"mine": list(range(19, 25)),
                                                         "theirs": list(range(1, 7))}
    # turning the board swaps the two masks: each side's own pips stay his
    assert layout.stacked(doblet.flip(start)) == (list(range(19, 25)), list(range(1, 7)))


def test_a_position_reads_and_writes_its_stacked_pairs(doblet):
    obj = {"points": START, "state": {"stacked": {"mine": [21], "theirs": [4, 5]}},
           "dice": [4, 1, 2]}
    lines = legal_results(doblet, obj)["results"]
    # the 4 finds the pair on 21 and unstacks it; the 1 and 2 find theirs unstacked and pass
    assert [(line["state"]["stacked"], line["passed"]) for line in lines] == [
        ({"mine": [], "theirs": [4, 5]}, [2, 1])]
    b = doblet.geometry.from_json(obj, doblet.checkers)
    flipped = doblet.geometry.to_json(doblet.flip(b))
    assert flipped["state"]["stacked"] == {"mine": [20, 21], "theirs": [4]}


@pytest.mark.parametrize("stacked,needle", [
    ({"mine": [18]}, "stacked on pip 18 needs two"),
    ({"theirs": [24]}, "stacked on pip 24 needs two"),
    ({"mine": [21, 21]}, "listed twice"),
    ({"mine": [0]}, "list of pips 1..24"),
    ({"mine": 21}, "list of pips"),
    ({"ours": [21]}, "'mine' and 'theirs'"),
])
def test_a_stacked_pair_the_board_cannot_hold_is_refused(doblet, stacked, needle):
    obj = {"points": START, "state": {"stacked": stacked}, "dice": [1, 2, 3]}
    with pytest.raises(PositionError, match=needle):
        legal_results(doblet, obj)


def test_stacked_pairs_are_refused_where_the_variant_has_none():
    obj = {"points": START, "state": {"stacked": {"mine": [21]}}, "dice": [1, 2, 3]}
    with pytest.raises(PositionError, match="no stacked pairs"):
        legal_results(load_variant("quinze-tablas"), obj)


BASE = '''[variant]
id = "probe"
name = "Probe"

[board]
checkers = 4
start = { 24 = 2, 23 = 2 }
unplaced = "off"
'''
TAIL = '''
[rules.borne-off]
name = "All men borne off"
kind = "end"
when = "mine(off) == checkers"

[ladder]
kind = "game"
'''


def diagnostics(tmp_path: Path, text: str) -> list:
    path = tmp_path / "probe.toml"
    path.write_text(BASE + text + TAIL, encoding="utf-8")
    return validate_paths([path])


def test_a_pair_stacked_where_the_start_has_no_two_men(tmp_path: Path) -> None:
    [d] = diagnostics(tmp_path, "stacked = [24, 22]\n")
    assert d.code == "unplayable" and "pip 22 needs two checkers" in d.message
    assert d.render().splitlines()[1:] == ["  stacked = [24, 22]", "                 ^^"]
    [d] = diagnostics(tmp_path, "stacked = [24, 24]\n")
    assert d.code == "bad-value" and "listed twice" in d.message
    assert diagnostics(tmp_path, "stacked = [24, 23]\n") == []


def test_unstack_without_stacked_pairs(tmp_path: Path) -> None:
    [d] = diagnostics(tmp_path, '\n[movement]\nunstack = "per_move"\n')
    assert d.code == "bad-value" and "board.stacked" in d.message
    assert d.render().splitlines()[1:] == ['  unstack = "per_move"', "  ^^^^^^^"]


def test_passed_numbers_that_may_only_bear_off_need_an_optional_stage(tmp_path: Path) -> None:
    stage = ('\n[turn.stages.passed]\nname = "Passed"\nwhen = "unplayed > 0"\n'
             'to_opponent = "unstacking or home_after"\nmoves = "bear_off"\n')
    [d] = diagnostics(tmp_path, "stacked = [24, 23]\n" + stage)
    assert d.code == "bad-value" and "optional = true" in d.message
    assert d.render().splitlines()[1:] == ['  moves = "bear_off"', "  ^^^^^"]
    assert diagnostics(tmp_path, "stacked = [24, 23]\n" + stage + "optional = true\n") == []


def test_three_dice_pass_numbers_only_as_numbers_the_opponent_may_decline(tmp_path: Path) -> None:
    stage = ('\n[turn]\ncount = 3\n\n[turn.stages.passed]\nname = "Passed"\n'
             'when = "unplayed > 0"\nto_opponent = "unstacking"\n')
    [d] = diagnostics(tmp_path, "stacked = [24, 23]\n" + stage)
    assert d.code == "bad-value" and "`to_opponent`" in d.message
    assert diagnostics(tmp_path, "stacked = [24, 23]\n" + stage + "optional = true\n") == []


def test_a_play_that_unstacks_is_written_and_read_back(doblet):
    assert parse_move("24u 19u") == [(24, 24), (19, 19)]
    assert move_text([(24, 24), (19, 19)]) == "24u 19u"
    assert PIPS.parse("21u 23u") == [(21, 21), (23, 23)]
    assert PIPS.written([(21, 21, False), (23, 23, False)]) == "21u 23u"
    assert PIPS.log_text("21u 23u") == "21u 23u"
    b = doblet.start_of(0)
    plays = doblet.generator.some_plays(b, 6, 2, 1, 1)[0]
    play = read_play("19u 23u 24u", plays, b, (6, 2, 1))
    assert doblet.geometry.stacked(play.board)[0] == [20, 21, 22]
    # the order written does not matter, and an unstacking is not a move backwards
    assert read_play("24u 23u 19u", plays, b, (6, 2, 1)) is play
    for bad in ("u", "19/18u", "19uu", "19u(2)"):
        with pytest.raises(Exception, match="unreadable play"):
            parse_move(bad)


def test_the_boards_show_a_pair_still_stacked(doblet):
    from interpreter.svg import Geometry as Picture
    from interpreter.svg import board_svg
    from interpreter.terminal import draw_board

    b = doblet.geometry.from_json({"points": START, "state": {"stacked": {"mine": [21],
                                                                          "theirs": [4]}}},
                                  doblet.checkers)
    text = draw_board(doblet, b, 0, PIPS, width=100).plain
    assert " X2=" in text and " O2=" in text and "stacked pairs: X1 O1" in text
    svg = board_svg(b, Picture.from_variant(doblet))
    assert svg.count('class="stacked"') == 2 and "doubled outline" in svg
    assert "still stacked" in svg


def test_passed_numbers_in_a_game_only_unstack_or_bear_off(doblet):
    """In whole games, every stage of passed numbers offers the position unchanged, and its
    other choices differ from it only by pairs unstacked or men borne off."""
    seen = 0
    for seed in range(3):
        g = Game(doblet, seed)
        for d in each_decision_answered_last(g):
            if d.kind == "play" and g._plays_fixed:
                base = g.choice_base
                assert base in d.choices
                for c in d.choices:
                    moved = [p for p in range(1, 25) if c[p] != base[p]]
                    assert all(c[p] < base[p] and c[p] >= 0 for p in moved), (base, c)
                    assert c[0] - base[0] == sum(base[p] - c[p] for p in moved)
                seen += 1
    assert seen > 0


def test_doblet_is_read_from_its_file_and_played_on_the_python_path(doblet):
    assert python_only(doblet) == "pairs stacked at the start"
    with pytest.raises(_NotStorable):
        describe(doblet)
    in_place = load_variant("doblet", ['db_after_unstack="bear_off_in_place"'])
    assert in_place.move_rules.bear_off == "in_place"
    assert json.dumps(in_place.geometry.to_json(in_place.start_of(0))["state"])


def test_three_numbers_pass_and_no_more(doblet):
    obj = {"points": START, "state": {"stacked": {"mine": [21, 22]}, "passed": [4, 3, 4]}}
    lines = legal_results(doblet, obj)["results"]
    # each of the 4 and the 3 may unstack its pair, or not; the second 4 fits nothing
    assert len(lines) == 4 and {line["next"] for line in lines} == {"throw"}
    obj["state"]["passed"] = [4, 4, 4, 4]
    with pytest.raises(PositionError, match="one, two or three numbers"):
        legal_results(doblet, obj)


def test_the_benchmark_times_doblets_throws_of_three_dice() -> None:
    """`tablier bench doblet` times the generator over the throws of three dice of random
    games; the stages' throws of two (the stacked pairs, played by their own rules) are left
    out, where they had stopped the benchmark."""
    from interpreter.bench import positions_of
    from interpreter.sim import play_game

    v = load_variant("doblet")
    positions = positions_of(v, play_game(v, 1, 10_000, keep_record=True))
    assert positions and all(len(p) == 4 and p[3] for p in positions)
    for b, d1, d2, d3 in positions[:20]:
        assert v.generator.plays(b, d1, d2, 1, d3)[0]
