"""Long checks, run with `pytest -m slow`: many games of every variant, and process parallelism
on a larger run. Each asserts properties that must hold for every game, not figures."""
from __future__ import annotations

import pytest

from interpreter.sim import play_game, simulate
from interpreter.variant.build import load_variant

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("variant_id,games", [("backgammon", 2000), ("triktrak", 300),
                                              ("trictrac-ecrire", 20), ("tric-trac-12", 40)])
def test_every_game_of_a_long_run_ends(variant_id, games):
    variant = load_variant(variant_id)
    for i in range(games):
        result = play_game(variant, 11, i, "greedy" if i % 2 else "random", "random")
        assert result.finished, (variant_id, i)


def test_parallel_runs_match_serial_runs_on_a_large_run():
    variant = load_variant("triktrak")
    one = simulate(variant, "triktrak", [], 200, 5, jobs=1)
    two = simulate(variant, "triktrak", [], 200, 5, jobs=2)
    for key in ("wins", "values", "mean_turns", "rule_firings"):
        assert one[key] == two[key]


def test_backgammon_values_over_many_games():
    variant = load_variant("backgammon")
    summary = simulate(variant, "backgammon", [], 3000, 17)
    assert summary["unfinished"] == 0
    assert set(summary["values"]) <= {"single", "gammon", "backgammon"}
    # random play gammons often; every kind of result occurs in a run this long
    assert all(summary[f"{k}_rate"] > 0 for k in ("single", "gammon", "backgammon"))
