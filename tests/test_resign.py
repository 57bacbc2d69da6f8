"""Resigning (engine/contract.py `Resign`): what each ladder scores for it, the backgammon
offer accepted or declined, and the record of a resignation replayed."""
from __future__ import annotations

import pytest

from interpreter.engine.contract import IllegalAnswer, Resign
from interpreter.engine.events import ResignDeclined, Resigned
from interpreter.engine.game import Game
from interpreter.engine.record import record_of, replay
from interpreter.players.bots import GreedyBot
from interpreter.variant.build import load_variant

CASES = {
    "backgammon": [],
    "triktrak": [],
    "trictrac-ecrire": ["ladder.min_marks=4", "ladder.marks=4"],
    "trictrac-combine": ["ladder.min_marks=4", "ladder.marks=4"],
    "tric-trac-12": ["ladder.match_games=3"],
}


def _to_white_decision(game: Game, after: int = 6):
    """Play greedy moves until white's `after`-th decision; return (generator, decision)."""
    bots = [GreedyBot(1), GreedyBot(2)]
    gen = game.play()
    d = next(gen)
    seen = 0
    while True:
        if d.player == 0:
            seen += 1
            if seen >= after and d.kind != "resign":
                return gen, d
        d = gen.send(bots[d.player].answer(d))


@pytest.mark.parametrize("variant_id", sorted(CASES))
def test_a_resignation_ends_the_play_won_by_the_opponent_and_replays(variant_id: str) -> None:
    v = load_variant(variant_id, CASES[variant_id])
    g = Game(v, "r/0", resigns=True)
    gen, d = _to_white_decision(g)
    level = g.ladder.resign_levels[0]
    try:
        d = gen.send(Resign(level))
        if d.kind == "resign":                  # backgammon: the opponent's consent
            d = gen.send("accept")
        # a match goes on with its next game; play it out
        bots = [GreedyBot(1), GreedyBot(2)]
        while True:
            d = gen.send(bots[d.player].answer(d))
    except StopIteration as stop:
        result = stop.value
    assert result.finished
    assert Resigned(0, level) in g.log
    if variant_id not in ("backgammon",):
        assert result.winner == 1
    again = replay(record_of(g, "r", ("human", "greedy")), v)
    assert again.result is not None and again.result.winner == result.winner
    assert again.result.value == result.value


def test_a_declined_resignation_asks_the_same_decision_again() -> None:
    v = load_variant("backgammon")
    g = Game(v, "d/0", resigns=True)
    gen, d = _to_white_decision(g, after=2)
    kind = d.kind
    offer = gen.send(Resign("single"))
    assert offer.kind == "resign" and offer.player == 1 and offer.view.resign_offer == "single"
    again = gen.send("decline")
    assert (again.kind, again.player) == (kind, 0)
    assert ResignDeclined(1, "single") in g.log


def test_a_backgammon_resignation_is_worth_the_cube_times_its_level() -> None:
    v = load_variant("backgammon")
    g = Game(v, "c/0", resigns=True)
    gen, d = _to_white_decision(g, after=3)
    d = gen.send(Resign("gammon"))
    with pytest.raises(StopIteration) as stop:
        gen.send("accept")
    result = stop.value.value
    assert result.winner == 1
    assert result.value == 2 * g.ladder.cube.value
    assert result.extra["games"][0]["result"] == "gammon"


def test_a_level_the_ladder_does_not_have_is_refused() -> None:
    v = load_variant("triktrak")
    g = Game(v, "l/0", resigns=True)
    gen, d = _to_white_decision(g, after=1)
    with pytest.raises(IllegalAnswer, match="a resignation here is one of 'game'"):
        gen.send(Resign("gammon"))


def test_a_game_between_bots_cannot_be_resigned() -> None:
    v = load_variant("backgammon")
    g = Game(v, "b/0")
    gen = g.play()
    d = next(gen)
    with pytest.raises(IllegalAnswer, match="cannot be resigned"):
        gen.send(Resign("single"))
