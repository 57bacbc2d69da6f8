"""The five games of the wider family played by the engine from their files: every game ends,
worth what its value rules say, and the boards it goes through keep each side's fifteen
checkers (the variant's geometry turns the board: same-direction routes, pins, checkers off the
board)."""
from __future__ import annotations

import pytest

from budget import full, scaled

from interpreter.engine.events import Decided, Thrown
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

VALUES = {"long-nardy": {1, 2}, "fevga": {1, 2}, "plakoto": {1, 2}, "portes": {1, 2},
          "acey-deucey": {1, 2, 3}}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_games_end_with_their_value(name: str) -> None:
    v = load_variant(name)
    seen = set()
    # its games are the longest (a fifth of them, at least a few, in the default run)
    for i in range(scaled(6, 3) if name == "acey-deucey" else scaled(12, 4)):
        result = play_game(v, 9, i, "random", "greedy" if i % 2 else "random", keep_record=True)
        assert result.finished, (name, i)
        seen.add(result.value)
        geometry = v.geometry
        for entry in result.log:
            if isinstance(entry, Thrown):
                assert geometry.counts(entry.board) == (15, 15), (name, i, entry)
    assert seen <= VALUES[name]


def test_the_mothers_end_games_in_play() -> None:
    # among random games some end by the mother rule, worth 2 before anyone bears off, and some
    # with both mothers pinned: a tie, a game without a winner worth nothing
    v = load_variant("plakoto")
    fired: set[str] = set()
    wanted = {"mother", "mother-value", "both-mothers", "borne-off"}
    for i in range(60):
        result = play_game(v, 4, i)
        fired |= set(result.fired)
        if "both-mothers" in result.fired:
            assert result.finished and result.winner is None and result.value == 0
        if wanted <= fired and not full():
            break           # the full run plays all sixty
    assert wanted <= fired


def test_acey_deucey_a_1_2_names_a_doublet_plays_it_and_throws_again() -> None:
    """The 1-2 played in full is a "doublet" decision of the engine's contract: the player names
    a doublet (here always 5), plays it as a throw of 5-5, and, having played all of it, throws
    again; a record with such events replays to the same end."""
    from interpreter.engine.game import Game
    from interpreter.engine.record import Record, replay

    v = load_variant("acey-deucey")
    events = 0
    for seed in range(6):
        game = Game(v, f"{seed}/0", max_turns=400)
        gen = game.play()
        asked = 0
        try:
            d = next(gen)
            while True:
                if d.kind == "doublet":
                    assert tuple(d.choices) == ("1", "2", "3", "4", "5", "6")
                    assert sorted(d.view.dice) == [1, 2]
                    asked += 1
                    d = gen.send("5")
                else:
                    d = gen.send(0)
        except StopIteration:
            pass
        throws = [e for e in game.log if isinstance(e, Thrown)]
        for k, e in enumerate(game.log):
            if not (isinstance(e, Decided) and e.kind == "doublet"):
                continue
            events += 1
            side = e.side
            assert e.answer == "5"
            # the last throw before it was a 1-2 of the same side, played in full
            before = [t for t in game.log[:k] if isinstance(t, Thrown)][-1]
            assert before.side == side and sorted((before.d1, before.d2)) == [1, 2]
            assert v.generator.plays(before.board, before.d1, before.d2)[1] == 0
            # the next is 5-5 by the same side; all of it played, the same side throws again
            stage = next(t for t in game.log[k:] if isinstance(t, Thrown))
            assert (stage.side, stage.d1, stage.d2) == (side, 5, 5)
            n = next(j for j, t in enumerate(throws) if t is stage)
            if n + 1 < len(throws):
                again = v.generator.plays(stage.board, 5, 5)[1] == 0
                assert (throws[n + 1].side == side) == again
        assert asked == sum(1 for e in game.record
                            if isinstance(e, Decided) and e.kind == "doublet")
        if asked:
            rec = Record("acey-deucey", seed, ("random", "random"), entries=list(game.record))
            assert replay(rec, v).game.record == game.record
    assert events >= 2
