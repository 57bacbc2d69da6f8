"""The scoring ladders a variant file may name in `[ladder] kind = ...`, each with the pydantic
model that validates the rest of its `[ladder]` table."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.scoring.combine import CombineLadder
from interpreter.scoring.cube import CubeLadder
from interpreter.scoring.ecrire import EcrireLadder
from interpreter.scoring.holes import HolesLadder
from interpreter.scoring.twelve import ContinuousLadder


class GameLadder(BaseModel):
    """One game played to its end; it is worth the highest `value` rule that holds (else 1)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["game"] = Field("game", description="one game, scored by the value rules")


LADDER_MODELS: dict[str, type[BaseModel]] = {
    "game": GameLadder,
    "holes": HolesLadder,      # points → holes → a game of 12 holes (triktrak, the 12-hole game)
    "ecrire": EcrireLadder,    # points → holes → marks → the partie à écrire
    "combine": CombineLadder,  # à écrire and the 12-hole honours game at once, with the pool
    "continuous": ContinuousLadder,   # points → game value → continuous match (12-point Tric-Trac)
    "cube": CubeLadder,        # game value × the doubling cube; money play or a match (backgammon)
}
