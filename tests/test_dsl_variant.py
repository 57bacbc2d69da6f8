"""The rule language can say what the later variants need: a test variant written only in the
language (tests/data/dsl/test-variant.toml) scores a hit with its ways and a full region, forbids
plays with a filter, and ends the game with a value, each checked on constructed positions."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.analysis import legal_results, roll_score
from interpreter.kernel.board import from_json
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

FILE = Path(__file__).resolve().parent / "data" / "dsl" / "test-variant.toml"


@pytest.fixture(scope="module")
def variant():
    return load_variant(FILE)


def position(mine: dict[int, int], theirs: dict[int, int], dice=(3, 1), off=(0, 0), bar=(0, 0)):
    points = [0] * 24
    for p, n in mine.items():
        points[p - 1] += n
    for p, n in theirs.items():
        points[p - 1] -= n
    return {"points": points, "bar": list(bar), "off": list(off), "dice": list(dice)}


def test_hit_counted_with_its_ways(variant):
    # blot on 10: the 3 from 13, the 1 from 11, and the sum from 14 through 11 or 13
    pos = position({13: 2, 11: 2, 14: 1, 6: 5, 8: 5}, {10: 1, 1: 14})
    score = roll_score(variant, pos)
    assert score["items"] == [{"rule": "hits-counted", "to": "mover", "points": 6, "ways": 3}]
    # only the sum reaches the blot, and both rests (13 and 11) hold two opposing checkers
    closed = position({14: 1, 6: 7, 8: 7}, {10: 1, 13: 2, 11: 2, 1: 10})
    assert roll_score(variant, closed)["items"] == []
    one_open = position({14: 1, 6: 7, 8: 7}, {10: 1, 13: 2, 1: 12})
    assert roll_score(variant, one_open)["items"][0]["ways"] == 1


def test_hit_on_a_doublet_uses_the_doublet_value(variant):
    pos = position({12: 1, 6: 14}, {10: 1, 1: 14}, dice=(2, 2))
    (item,) = roll_score(variant, pos)["items"]
    assert (item["ways"], item["points"]) == (1, 3)


def test_region_full(variant):
    full = position({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}, {24: 15}, dice=(6, 5))
    assert roll_score(variant, full)["mover"] == 5
    gap = position({1: 2, 2: 2, 3: 2, 4: 1, 5: 3, 6: 5}, {24: 15}, dice=(6, 5))
    assert roll_score(variant, gap)["mover"] == 0


def test_play_filter(variant):
    # 6 on pip 6 already: the 1 from 7 would make seven there and is forbidden
    pos = position({7: 1, 6: 6, 13: 8}, {24: 15}, dice=(1, 2))
    boards = {tuple(r["points"]) for r in legal_results(variant, pos)["results"]}
    assert all(b[5] <= 6 for b in boards)
    unfiltered = load_variant(FILE, ["rules.no-stacking-six.enabled=false"])
    boards2 = {tuple(r["points"]) for r in legal_results(unfiltered, pos)["results"]}
    assert any(b[5] == 7 for b in boards2) and boards < boards2


def test_end_condition_and_value(variant):
    b = from_json(position({1: 2, 2: 2, 3: 2, 4: 4}, {24: 15}, off=(5, 0)), 15)
    assert variant.rules.game_over(b) == "mover"
    assert variant.rules.game_value(b) == 2 + 4     # four home points made
    b2 = from_json(position({1: 6, 2: 5}, {24: 15}, off=(4, 0)), 15)
    assert variant.rules.game_over(b2) is None


def test_the_test_variant_plays_to_its_end(variant):
    result = play_game(variant, 5, 0, keep_record=True)
    assert result.finished
    assert 5 <= result.record[-1].board[0] < 15      # ended by the rule, not by bearing all off
    assert sum(result.fired.get("hits-counted", [0, 0])) > 0      # firings by side
