"""Driving a game's turn loop (`Game.play()`, the `Decision` protocol) from a test that looks at
every decision as it is asked."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def each_decision_answered_last(game: Any) -> Iterator[Any]:
    """Every decision of `game`'s play in turn, to its end; once the caller has looked at one
    (the game as it stands when it is asked), it is answered with its last choice."""
    play = game.play()
    try:
        d = next(play)
        while True:
            yield d
            d = play.send(len(d.choices) - 1)
    except StopIteration:
        return
