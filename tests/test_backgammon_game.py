"""Backgammon end to end: games, seeds, house rules as data, and game-level properties."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.bench import positions_of
from interpreter.kernel.board import counts, from_json, to_json
from interpreter.sim import play_game, simulate
from interpreter.variant.build import load_variant


@pytest.fixture(scope="module")
def backgammon():
    return load_variant("backgammon")


def test_one_game_ends_with_a_value(backgammon):
    result = play_game(backgammon, 1, 0)
    assert result.finished and result.winner in (0, 1) and result.value in (1, 2, 3)
    assert result.points[result.winner] == result.value


def test_same_seed_same_game_move_for_move(backgammon):
    a = play_game(backgammon, 42, 3, "greedy", "random", keep_record=True)
    b = play_game(backgammon, 42, 3, "greedy", "random", keep_record=True)
    assert [(t.dice, t.board) for t in a.record] == [(t.dice, t.board) for t in b.record]
    c = play_game(backgammon, 43, 3, "greedy", "random", keep_record=True)
    assert [t.dice for t in a.record] != [t.dice for t in c.record]


def test_jobs_do_not_change_the_results(backgammon):
    one = simulate(backgammon, "backgammon", [], 24, 7, jobs=1)
    two = simulate(backgammon, "backgammon", [], 24, 7, jobs=2)
    for key in ("wins", "values", "mean_turns"):
        assert one[key] == two[key]


def test_greedy_beats_random_most_of_the_time(backgammon):
    summary = simulate(backgammon, "backgammon", [], 40, 3, white="greedy", black="random")
    assert summary["wins"]["white"] >= 28


def test_doublets_played_twice_with_set(backgammon):
    """`--set dice.doublets="twice"`: the legal plays of a doublet change."""
    pos = {"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
           "bar": [0, 0], "off": [0, 0]}
    twice = load_variant("backgammon", ['dice.doublets="twice"'])
    b = from_json(pos, 15)
    four = set(backgammon.generator.results(b, 6, 6))
    two = set(twice.generator.results(b, 6, 6))
    assert len(four) == 11                      # the known count of an opening 6-6
    assert four != two
    moved = lambda new: sum(abs(x - y) for x, y in zip(b[1:25], new[1:25])) // 2 * 6  # noqa: E731
    assert {moved(r) for r in two} == {12}
    assert {moved(r) for r in four} == {24}


HYPERGAMMON = """
extends = "backgammon"
[variant]
id = "hypergammon"
name = "Hypergammon"
[board]
checkers = 3
start = { 24 = 1, 23 = 1, 22 = 1 }
"""


def test_hypergammon_file_plays_to_its_end(tmp_path: Path):
    path = tmp_path / "hypergammon.toml"
    path.write_text(HYPERGAMMON, encoding="utf-8")
    hyper = load_variant(path)
    assert hyper.checkers == 3
    assert counts(hyper.start) == (3, 3)
    result = play_game(hyper, 1, 0, keep_record=True)
    assert result.finished
    last = result.record[-1]
    assert last.board[0] == 3


def test_no_gammons_house_rule():
    plain = load_variant("backgammon", ["rules.gammon.enabled=false",
                                        "rules.backgammon.enabled=false"])
    assert {play_game(plain, 9, i).value for i in range(30)} == {1}


@settings(max_examples=scaled(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), white=st.sampled_from(["random", "greedy"]))
def test_every_game_ends_and_every_play_was_legal(backgammon, seed, white):
    result = play_game(backgammon, seed, 0, white, "random", keep_record=True)
    assert result.finished
    for (b, d1, d2), turn in zip(positions_of(backgammon, result), result.record):
        assert counts(b) == (15, 15)
        assert counts(turn.board) == (15, 15)
        assert turn.board in backgammon.generator.results(b, d1, d2)
        assert from_json(to_json(turn.board)) == turn.board
