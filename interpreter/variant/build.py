"""From a validated variant document to the runtime `Variant`: movement switches, compiled rule
hooks, the starting board and the ladder parameters. Built once per load; nothing here runs in
the game loop.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

from interpreter.dsl import RuleSet, SnippetError, compile_document
from interpreter.errors import VariantError
from interpreter.kernel.board import Board, from_start
from interpreter.kernel.movegen import MoveGenerator
from interpreter.kernel.rules import MoveRules

_DOUBLET_MOVES = {"four": 4, "twice": 2, "twice_and_throw_again": 2}
_MOVEMENT_FIELDS = tuple(f for f in MoveRules.__dataclass_fields__ if f not in ("checkers", "doublet_moves"))


@dataclass
class Variant:
    """A loaded variant, ready to play."""

    id: str
    name: str
    model: Any
    path: Path
    move_rules: MoveRules
    rules: RuleSet
    start: Board
    doublet_rethrow: bool
    opening: str
    ladder: Any

    @property
    def checkers(self) -> int:
        return self.move_rules.checkers

    @property
    def abstract(self) -> bool:
        return bool(getattr(self.model.variant, "abstract", False))

    @cached_property
    def generator(self) -> MoveGenerator:
        forbid = [fn for _id, fn in self.rules.forbid]
        return MoveGenerator(self.move_rules, forbid)

    @property
    def has_roll_hooks(self) -> bool:
        """Whether a roll needs more than the distinct end positions (scores or preferences)."""
        r = self.rules
        return bool(r.score_roll or r.score_play or r.prefer)

    def option(self, key: str, default: Any = None) -> Any:
        return (getattr(self.model, "options", None) or {}).get(key, default)


def move_rules_of(model: Any) -> MoveRules:
    movement = getattr(model, "movement", None)
    values: dict[str, Any] = {}
    if movement is not None:
        for name in _MOVEMENT_FIELDS:
            value = getattr(movement, name, None)
            if value is not None:
                values[name] = tuple(value) if name == "no_landing" else value
    dice = getattr(model, "dice", None)
    doublets = getattr(dice, "doublets", None) or "four"
    return MoveRules(checkers=model.board.checkers, doublet_moves=_DOUBLET_MOVES[doublets], **values)


def build_variant(doc: Any) -> Variant:
    """Compile a loaded document (interpreter.variant.loader.VariantDoc) into a Variant."""
    from interpreter.variant.loader import snippet_diagnostic

    model = doc.model
    try:
        rules = compile_document(model)
    except SnippetError as err:
        raise VariantError([snippet_diagnostic(doc, err)]) from None
    start = from_start({int(k): v for k, v in model.board.start.items()})
    dice = getattr(model, "dice", None)
    return Variant(
        id=model.variant.id, name=model.variant.name, model=model, path=doc.path,
        move_rules=move_rules_of(model), rules=rules, start=start,
        doublet_rethrow=(getattr(dice, "doublets", "four") == "twice_and_throw_again"),
        opening=getattr(dice, "opening_roll", None) or "one_die_each",
        ladder=model.ladder)


def load_variant(ref: str | Path, overrides: Sequence[str] = ()) -> Variant:
    """Load a built-in id or a path, apply `--set` overrides, and compile it."""
    from interpreter.variant.loader import load_document

    return build_variant(load_document(ref, overrides, check_rules=False))
