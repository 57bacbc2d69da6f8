"""The scoring ladders a variant file may name in `[ladder] kind = ...`: for each kind, the
pydantic model that validates the rest of its `[ladder]` table and the ladder class that plays it
in the turn loop (interpreter/engine/game.py, protocol in scoring/protocol.py). One table, so the
two can never disagree; `LADDER_MODELS` is its model column.
"""
from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.scoring.combine import CombineLadder, CombinePlay
from interpreter.scoring.cube import CubeLadder, CubePlay
from interpreter.scoring.ecrire import EcrireLadder, EcrirePlay
from interpreter.scoring.holes import HolesLadder, HolesPlay
from interpreter.scoring.protocol import Ladder
from interpreter.scoring.rotation import RotationLadder, RotationPlay
from interpreter.scoring.twelve import ContinuousLadder, ContinuousPlay


class GameLadder(BaseModel):
    """One game played to its end; it is worth the highest `value` rule that holds (else 1)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["game"] = Field("game", description="one game, scored by the value rules")


#: kind → (model of its `[ladder]` table, ladder class of the turn loop)
LADDERS: dict[str, tuple[type[BaseModel], type[Ladder]]] = {
    "game": (GameLadder, Ladder),
    "holes": (HolesLadder, HolesPlay),        # points → holes → a game of 12 holes (triktrak)
    "ecrire": (EcrireLadder, EcrirePlay),     # points → holes → marks → the partie à écrire
    "combine": (CombineLadder, CombinePlay),  # à écrire and the 12-hole honours game, the pool
    "continuous": (ContinuousLadder, ContinuousPlay),   # points → game value → continuous match
    "cube": (CubeLadder, CubePlay),           # game value × the doubling cube; money or a match
    "rotation": (RotationLadder, RotationPlay),  # games of several variant files in turn (tavli)
}

class _Models(MutableMapping[str, type[BaseModel]]):
    """The model column of `LADDERS`, read at each use: a ladder added to the table is known
    to the schema at once. A model set here alone is played by the class its kind had, else
    as one game (`Ladder`)."""

    def __getitem__(self, kind: str) -> type[BaseModel]:
        return LADDERS[kind][0]

    def __setitem__(self, kind: str, model: type[BaseModel]) -> None:
        LADDERS[kind] = (model, LADDERS[kind][1] if kind in LADDERS else Ladder)

    def __delitem__(self, kind: str) -> None:
        del LADDERS[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(LADDERS)

    def __len__(self) -> int:
        return len(LADDERS)


LADDER_MODELS: MutableMapping[str, type[BaseModel]] = _Models()


def ladder_class(of: Any) -> type[Ladder]:
    """The ladder class of a kind: `of` is a kind name, a `[ladder]` model or table (its
    `kind`), a ladder's state as plain data (its "kind"), or None (one game). What the program
    asks of a kind outside the turn loop, it asks of this class (scoring/protocol.py)."""
    if isinstance(of, dict):
        kind = of.get("kind")
    elif isinstance(of, str) or of is None:
        kind = of
    else:
        kind = getattr(of, "kind", None)
    entry = LADDERS.get(kind) if isinstance(kind, str) else None
    return entry[1] if entry is not None else Ladder


def ladder_for(variant: Any, game: Any) -> Ladder:
    """The ladder that plays `variant`'s `[ladder]` in `game`."""
    model = variant.ladder if variant.ladder is not None else GameLadder()
    kind = getattr(model, "kind", "game")
    return LADDERS[kind][1](model, game)
