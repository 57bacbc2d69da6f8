"""The scoring ladders a variant file may name in `[ladder] kind = ...`: for each kind, the
pydantic model that validates the rest of its `[ladder]` table and the ladder class that plays it
in the turn loop (interpreter/engine/game.py, protocol in scoring/protocol.py). One table, so the
two can never disagree; `LADDER_MODELS` is its model column.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.scoring.protocol import Ladder


class GameLadder(BaseModel):
    """One game played to its end; it is worth the highest `value` rule that holds (else 1)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["game"] = Field("game", description="one game, scored by the value rules")


Entry = tuple[type[BaseModel], type[Ladder]]


class _Table(MutableMapping[str, Entry]):
    """kind → (model of its `[ladder]` table, ladder class of the turn loop). The built-in
    kinds are named here by module and class names and imported when a kind is first asked
    for: a backgammon run never loads the trictrac family's ladders. A kind set here (a new
    ladder, docs/architecture.md) is kept as given."""

    def __init__(self, entries: dict[str, Entry | tuple[str, str, str]]):
        self._got: dict[str, Entry] = {}
        self._where: dict[str, tuple[str, str, str]] = {}
        self._kinds: list[str] = []
        for kind, entry in entries.items():
            self._kinds.append(kind)
            if isinstance(entry[0], str):
                self._where[kind] = entry
            else:
                self._got[kind] = entry

    def __getitem__(self, kind: str) -> Entry:
        got = self._got.get(kind)
        if got is None:
            where = self._where.get(kind)
            if where is None:
                raise KeyError(kind)
            module = importlib.import_module(where[0])
            got = self._got[kind] = (getattr(module, where[1]), getattr(module, where[2]))
        return got

    def __setitem__(self, kind: str, entry: Entry) -> None:
        if kind not in self._kinds:
            self._kinds.append(kind)
        self._where.pop(kind, None)
        self._got[kind] = entry

    def __delitem__(self, kind: str) -> None:
        if kind not in self._kinds:
            raise KeyError(kind)
        self._kinds.remove(kind)
        self._where.pop(kind, None)
        self._got.pop(kind, None)

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._kinds))

    def __len__(self) -> int:
        return len(self._kinds)


#: kind → (model of its `[ladder]` table, ladder class of the turn loop)
LADDERS: MutableMapping[str, Entry] = _Table({
    "game": (GameLadder, Ladder),
    # points → holes → a game of 12 holes (triktrak)
    "holes": ("interpreter.scoring.holes", "HolesLadder", "HolesPlay"),
    # points → holes → marks → the partie à écrire
    "ecrire": ("interpreter.scoring.ecrire", "EcrireLadder", "EcrirePlay"),
    # à écrire and the 12-hole honours game, the pool
    "combine": ("interpreter.scoring.combine", "CombineLadder", "CombinePlay"),
    # points → game value → continuous match
    "continuous": ("interpreter.scoring.twelve", "ContinuousLadder", "ContinuousPlay"),
    # game value × the doubling cube; money or a match
    "cube": ("interpreter.scoring.cube", "CubeLadder", "CubePlay"),
    # games of several variant files in turn (tavli)
    "rotation": ("interpreter.scoring.rotation", "RotationLadder", "RotationPlay"),
})

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
