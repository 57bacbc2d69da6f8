"""The bounds of a rule's part (`Info`), below both the interval analysis (dsl/bounds.py) and
the bound rules of the built-in functions (dsl/vocabulary.py), which bounds.py reads."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Info:
    """Numbers: `lo..hi`. Collections: their items' bounds `lo..hi` and the most items `size`.
    `exact`: the bounds hold for every input, not only under the cost model's assumptions."""

    lo: int = 0
    hi: int = 0
    size: int = 0
    exact: bool = True
