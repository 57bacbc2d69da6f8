"""The five games of the wider family played by the engine from their files: every game ends,
worth what its value rules say, and the boards it goes through keep each side's fifteen
checkers (the variant's geometry turns the board: same-direction routes, pins, checkers off the
board)."""
from __future__ import annotations

import pytest

from interpreter.sim import play_game
from interpreter.variant.build import load_variant

VALUES = {"long-nardy": {1, 2}, "fevga": {1, 2}, "plakoto": {1, 2}, "portes": {1, 2},
          "acey-deucey": {1, 2, 3}}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_games_end_with_their_value(name: str) -> None:
    v = load_variant(name)
    seen = set()
    for i in range(12):
        result = play_game(v, 9, i, "random", "greedy" if i % 2 else "random", keep_record=True)
        assert result.finished, (name, i)
        seen.add(result.value)
        geometry = v.geometry
        for entry in result.log:
            if entry[0] == "throw":
                assert geometry.counts(entry[4]) == (15, 15), (name, i, entry)
    assert seen <= VALUES[name]


def test_the_mothers_end_games_in_play() -> None:
    # among random games some end by the mother rule, worth 2 before anyone bears off, and some
    # with both mothers pinned (a tie, which the engine has yet to score as a game without a
    # winner)
    v = load_variant("plakoto")
    fired: set[str] = set()
    for i in range(60):
        fired |= set(play_game(v, 4, i).fired)
    assert {"mother", "mother-value", "both-mothers", "borne-off"} <= fired
