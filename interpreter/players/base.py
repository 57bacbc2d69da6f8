"""The `Player` protocol: whatever answers decisions — bots, a person at the terminal or in the
browser, the replay of a record — implements it.

A player answers each `Decision` (interpreter/engine/contract.py) it is asked with the index of
one of `decision.choices` (or a word of a word decision, or a play's text in pip notation). It
declares what it can do in `capabilities`, never through its name:

- "doubles": the player may ever offer the cube (and beaver or raccoon); a player without it is
  not asked "double" and is not offered instant redoubles, so games between such players run
  without any cube question.

`replayed(decision, index)` (optional) is told each of its decisions of a record being replayed
before play resumes, so that a player whose answers depend on its own state (the random bot's
generator) carries on exactly as if the game had not stopped.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

DOUBLES = "doubles"


@runtime_checkable
class Player(Protocol):
    kind: str
    capabilities: frozenset[str]

    def answer(self, decision: Any) -> int | str:
        """The index of the chosen answer among `decision.choices` (or its word or text)."""
        ...


def doubles(player: Any) -> bool:
    """Whether `player` ever doubles (its declared capability)."""
    return DOUBLES in getattr(player, "capabilities", frozenset())


def capabilities_of(players: Any) -> tuple[bool, bool]:
    """The game's `doubles` argument for two players."""
    return doubles(players[0]), doubles(players[1])
