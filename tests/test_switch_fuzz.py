"""`tablier validate` means playable: the switch fuzzer (tests/switch_fuzz.py) sets every switch,
ladder key, option and rule of each shipped variant to each allowed value and boundary integer,
alone and in combinations; whatever the checks accept plays random games without an exception,
with checkers conserved, and answers `moves`. The default suite runs a sample, `-m slow` all."""
from __future__ import annotations

import random

import pytest

import switch_fuzz as fuzz

#: the combinations docs/security.md lists as found unplayable, each refused now
REFUSED = [
    ("backgammon", ["movement.off_pip=13"]),
    ("backgammon", ["movement.off_pip=6"]),
    ("backgammon", ['movement.enter="none"']),
    ("backgammon", ['movement.hit="start"']),
    ("backgammon", ["board.checkers=2", "board.start={ 12 = 1, 13 = 1 }"]),
    ("backgammon", ["board.checkers=15", "board.start={ 24 = 14, 1 = 1 }"]),
    ("backgammon", ["rules.borne-off.enabled=false"]),
    ("backgammon", ['ladder={ kind = "holes" }']),
    ("triktrak", ['ladder={ kind = "game" }']),
    ("triktrak", ["ladder.holes_to_win=0"]),
    ("trictrac-ecrire", ['options.sortie_obligation="optional"']),
    ("trictrac-combine", ['options.sortie_obligation="optional"']),
    ("tric-trac-12", ["movement.off_pip=0"]),
    ("tric-trac-12", ['movement.hit="bar"']),
    ("tric-trac-12", ["movement.start_pip=20"]),
    ("tric-trac-12", ["movement.own_corner=1"]),
    ("tric-trac-12", ["movement.opp_corner=13"]),
]


@pytest.mark.parametrize("variant,overrides", REFUSED, ids=lambda x: " ".join(x)
                         if isinstance(x, list) else x)
def test_unplayable_combinations_are_refused(variant, overrides):
    outcome = fuzz.try_overrides(variant, overrides)
    assert not outcome.accepted and outcome.failure is None, outcome.failure
    assert "unplayable" in outcome.codes or "bad-value" in outcome.codes, outcome.codes


def _assert_all_well(outcomes: list[fuzz.Outcome]) -> None:
    failures = [f"{o.variant} {' '.join(o.overrides)}: {o.failure.strip().splitlines()[-1]}"
                for o in outcomes if o.failure]
    assert not failures, "\n".join(failures)


def test_a_sample_of_single_settings_plays():
    cases = list(fuzz.single_settings())
    sample = random.Random(20261201).sample(cases, 20)   # every one under slow
    outcomes = fuzz.run(iter(sample), games=1, max_turns=120)
    _assert_all_well(outcomes)
    assert any(o.accepted for o in outcomes) and any(not o.accepted for o in outcomes)


def test_a_sample_of_combinations_plays():
    _assert_all_well(fuzz.run(fuzz.combinations(3, seed=5), games=1, max_turns=120))


@pytest.mark.slow
def test_every_single_setting_plays():
    _assert_all_well(fuzz.run(fuzz.single_settings()))


@pytest.mark.slow
def test_random_combinations_play():
    _assert_all_well(fuzz.run(fuzz.combinations(100, seed=1)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["backgammon", "tric-trac-12", "triktrak"])
def test_the_movement_grid_plays(variant):
    _assert_all_well(fuzz.run(fuzz.movement_grid(variant)))
