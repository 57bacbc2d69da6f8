"""The live runner of trictrac combiné (`[ladder] kind = "combine"`).

Live play of combiné is not built: the score of a combiné partie is kept with `tablier sheet`
(interpreter/scoring/combine.py, interpreter/io/sheet.py). `tablier play` on a combiné variant
stops with a clear message (exit code 1) instead of playing a partie whose honours games,
suspensions and pool would not be scored.
"""
from __future__ import annotations

from typing import Any

from interpreter.errors import TablierError


def run_combine(game: Any) -> Any:
    raise TablierError(f"live play is not available for trictrac combiné "
                       f"({game.variant.id if hasattr(game.variant, 'id') else 'combine'}): "
                       f"keep its score with `tablier sheet RECORD.toml` "
                       f"(docs/variants/trictrac-combine.md), or play `trictrac-ecrire`")
