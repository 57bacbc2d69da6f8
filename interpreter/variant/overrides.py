"""`--set KEY=VALUE`: reading one override against a merged variant document.

KEY is a dotted TOML key of the document (`dice.doublets`, `rules.gammon.value`,
`options.lurch_rates`); a bare KEY that names an option the variant declares means
`options.KEY`. VALUE is a TOML value (`'"twice"'`, `false`, `3`). The key must exist in the
schema, and rules, regions, definitions and options must already exist in the document (a typo
must not add a new, unused rule); the value's type is checked by the schema once every override
is applied, except for options, whose type is the type of their declared value.

    >>> o, errors = parse_override('rules.gammon.enabled=false', {"rules": {"gammon": {}}})
    >>> o.path, o.value, errors
    (('rules', 'gammon', 'enabled'), False, [])

The whole argument `KEY=VALUE` is itself a line of TOML, which is how diagnostics find columns
in it.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from interpreter.bounded import toml_fault
from interpreter.scoring.registry import LADDER_MODELS
from interpreter.variant.locate import parse_key
from interpreter.variant.problems import (
    KeyPath,
    closest,
    did_you_mean,
    found_str,
    key_str,
    type_name,
)
from interpreter.variant.schema import (
    Board,
    Dice,
    Movement,
    OptionDescription,
    Rule,
    VariantInfo,
    VariantModel,
)

#: file directives, not settings
_NOT_SETTABLE = ("extends", "remove_rules", "remove_options")
#: the keys of the throw written under `[turn]` (their older table, `[dice]`, holds them once
#: the files are read: interpreter/variant/loader.py)
TURN_DICE_KEYS = ("count", "doublets", "numbers", "opening_roll", "extra_throw", "bonus_throw",
                  "bonus", "fixed_die")

_SUBTABLES = {"variant": VariantInfo, "board": Board, "dice": Dice, "movement": Movement}


@dataclass(frozen=True)
class Override:
    """One parsed `--set` argument."""

    arg: str
    #: the key as written in the argument, and the key it means in the document (they differ for
    #: a bare option name)
    written: KeyPath
    path: KeyPath
    value: Any


@dataclass(frozen=True)
class OverrideError:
    """A fault in an argument, at a 1-based column of it."""

    col: int
    length: int
    code: str
    message: str


def split_override(arg: str) -> int | None:
    """The index of the `=` that separates KEY from VALUE (quotes in KEY respected), or None."""
    quote = ""
    for i, ch in enumerate(arg):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "=":
            return i
    return None


def parse_override(arg: str, data: dict[str, Any]) -> tuple[Override | None, list[OverrideError]]:
    """Read `KEY=VALUE` against the merged document `data`."""
    eq = split_override(arg)
    if eq is None:
        return None, [OverrideError(1, max(1, len(arg)), "bad-override",
                                    f"`--set` takes KEY=VALUE, e.g. `--set dice.doublets="
                                    f"'\"twice\"'`; found `{arg}`")]
    key_text, value_text = arg[:eq], arg[eq + 1 :]
    parts = parse_key(key_text)
    if not parts:
        return None, [OverrideError(1, max(1, len(key_text)), "bad-override",
                                    f"`{key_text.strip()}` is not a TOML key (dotted names such "
                                    f"as `dice.doublets`)")]
    written: KeyPath = tuple(name for name, _, _ in parts)
    value_col = eq + 2 + (len(value_text) - len(value_text.lstrip()))
    fault = toml_fault("v = " + value_text)
    if fault is not None:
        _line, col, message = fault
        return None, [OverrideError(max(1, eq + col - 2), 1, "limit",
                                    f"the value of `--set {key_str(written)}`: {message}")]
    try:
        parsed = tomllib.loads("v = " + value_text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        parsed = None
    if parsed is None or list(parsed) != ["v"]:
        shown = value_text.strip()
        example = shown if re.fullmatch(r"[\w .,:()-]+", shown) else "..."
        return None, [OverrideError(value_col, max(1, len(shown)), "bad-override",
                                    f"the value of `--set {key_str(written)}` is not a TOML "
                                    f"value; a string needs quotes, e.g. `--set "
                                    f"{key_str(written)}='\"{example}\"'`")]
    value = parsed["v"]
    path = written
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    assert isinstance(options, dict)
    if len(path) == 1 and path[0] in options and path[0] not in VariantModel.model_fields:
        path = ("options", path[0])
    if len(path) == 2 and path[0] == "turn" and path[1] in TURN_DICE_KEYS:
        # the throw's keys under `[turn]`, held in `[dice]` (their older table)
        path = ("dice", path[1])
    key_fault = _check_key(path, written, data)
    if key_fault is not None:
        index, code, message = key_fault
        index = min(index - (len(path) - len(written)), len(parts) - 1)
        _, start, end = parts[max(index, 0)]
        return None, [OverrideError(start + 1, end - start, code, message)]
    if path[0] == "options" and len(path) == 2:
        declared = options[path[1]]
        if type(declared) is not type(value):
            return None, [OverrideError(value_col, max(1, len(value_text.strip())), "bad-type",
                                        f"option `{path[1]}` must be {type_name(declared)}; "
                                        f"found {found_str(value)}")]
    return Override(arg, written, path, value), []


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _check_key(path: KeyPath, written: KeyPath, data: dict[str, Any]) -> \
        tuple[int, str, str] | None:
    """(index of the faulty part, code, message) when `path` names nothing settable."""
    head = str(path[0])
    settable = [f for f in VariantModel.model_fields if f not in _NOT_SETTABLE]
    if head in _NOT_SETTABLE:
        return 0, "bad-override", (f"`{head}` cannot be changed with --set; write a file that "
                                   f"extends this one instead")
    if head not in settable:
        hint = did_you_mean(head, settable + list(_table(data, "options")))
        return 0, "unknown-key", f"unknown key `{key_str(written)}` for --set{hint}"
    if len(path) == 1:
        return None

    def unknown(index: int, candidates: list[str], what: str = "key") -> tuple[int, str, str]:
        match = closest(str(path[index]), candidates)
        hint = f"; did you mean `{key_str(path[:index] + (match,))}`?" if match else ""
        return index, "unknown-key", f"unknown {what} `{key_str(path)}` for --set{hint}"

    def too_deep(index: int) -> tuple[int, str, str]:
        return index, "unknown-key", (f"unknown key `{key_str(path)}` for --set: "
                                      f"`{key_str(path[:index])}` is not a table")

    second = str(path[1])
    if head == "turn" and len(path) == 2 and second not in ("stages", "state", "update",
                                                             "choose"):
        # (its dice keys were mapped to `dice` already: what is left is unknown)
        return unknown(1, [*TURN_DICE_KEYS, "stages", "state", "update", "choose"])
    if head in _SUBTABLES:
        fields = list(cast("type[BaseModel]", _SUBTABLES[head]).model_fields)
        if second not in fields:
            return unknown(1, fields)
        limit = 3 if (head, second) == ("board", "start") else 2
        return too_deep(limit) if len(path) > limit else None
    if head in ("regions", "define", "options", "rules"):
        existing = list(_table(data, head))
        what = {"regions": "region", "define": "definition", "options": "option",
                "rules": "rule"}[head]
        if second not in existing:
            return unknown(1, existing, what)
        if head != "rules":
            return too_deep(2) if len(path) > 2 else None
        if len(path) == 2:
            return None
        fields = list(Rule.model_fields)
        if str(path[2]) not in fields:
            return unknown(2, fields)
        return too_deep(3) if len(path) > 3 else None
    if head == "option_choices":
        options = list(_table(data, "options"))
        if second not in options:
            return unknown(1, options, "option")
        return too_deep(2) if len(path) > 2 else None
    if head == "option_descriptions":
        options = list(_table(data, "options"))
        if second not in options:
            return unknown(1, options, "option")
        if len(path) == 2:
            return None
        fields = list(OptionDescription.model_fields)
        if str(path[2]) not in fields:
            return unknown(2, fields)
        limit = 4 if path[2] == "choices" else 3
        return too_deep(limit) if len(path) > limit else None
    if head == "ladder":
        kind = _table(data, "ladder").get("kind")
        model = LADDER_MODELS.get(kind) if isinstance(kind, str) else None
        fields = list(model.model_fields) if model is not None else ["kind"]
        if second not in fields:
            return unknown(1, fields)
        return too_deep(2) if len(path) > 2 else None
    return None
