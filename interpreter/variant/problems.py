"""Problems found in a variant document, before they are given a file position, and the wording
of pydantic's errors in the terms of the file format.

A `Problem` (interpreter/errors.py, below the ladders that report some) names the key it is
about (a dotted path in the merged document) and whether the caret goes under the key, under its
value, or (for a missing key) under the table that lacks it; `interpreter.variant.loader` knows
which file set each key and turns problems into `Diagnostic`s.
"""
from __future__ import annotations

import difflib
import re
import types
import typing
from datetime import date, datetime, time
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from interpreter.errors import KeyPath, Problem, Where

__all__ = ["KeyPath", "Problem", "Where"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# -- how keys and values are written in messages ---------------------------------------------------

def key_str(path: KeyPath) -> str:
    """A key path as it would be written in TOML: `rules.gammon.value`, `variant.sources[1]`.

    >>> key_str(("define", "blot(p)"))
    'define."blot(p)"'
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = part if _BARE_KEY.match(part) else '"' + part.replace('"', '\\"') + '"'
        out += ("." if out else "") + text
    return out


def table_str(path: KeyPath) -> str:
    """Where a key lives, for "unknown key ... in ___"."""
    return "the top level" if not path else f"`[{key_str(path)}]`"


def toml_repr(value: Any) -> str:
    """A value as TOML writes it, shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return str(value)


def found_str(value: Any) -> str:
    """What was found instead, e.g. `the string "2"`."""
    if isinstance(value, bool):
        return toml_repr(value)
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the float {value!r}"
    if isinstance(value, str):
        return f"the string {toml_repr(value)}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (datetime, date, time)):
        return f"the date {value}"
    return repr(value)


def type_name(value: Any) -> str:
    """The TOML type of a value, with its article."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date"


def closest(word: str, candidates: typing.Iterable[str]) -> str | None:
    """The candidate closest to `word`, if one is close enough to be a likely typo."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, candidates: typing.Iterable[str]) -> str:
    """`; did you mean `x`?` when a candidate is close to `word`, else ''."""
    match = closest(word, candidates)
    return f"; did you mean `{match}`?" if match else ""


def choices_str(choices: typing.Sequence[Any]) -> str:
    return ", ".join(toml_repr(c) for c in choices)


# -- the schema, walked by key path ----------------------------------------------------------------

def _strip(annotation: Any) -> Any:
    """Remove Optional[...] and Annotated[...] around a type."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def schema_at(root: Any, path: KeyPath) -> Any:
    """The type that describes the value at `path` under the model `root` (None if unknown)."""
    current = _strip(root)
    for part in path:
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return None
            current = _strip(field.annotation)
        elif typing.get_origin(current) is dict:
            current = _strip(typing.get_args(current)[1])
        elif typing.get_origin(current) is list:
            current = _strip(typing.get_args(current)[0])
        else:
            return None
    return current


def literal_choices(root: Any, path: KeyPath) -> tuple[Any, ...] | None:
    annotation = schema_at(root, path)
    if typing.get_origin(annotation) is Literal:
        return typing.get_args(annotation)
    return None


# -- pydantic errors in the file format's words ----------------------------------------------------

_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "list_type": "an array",
    "tuple_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}
_SNIPPET_KEYS = frozenset({"when", "ways", "value", "minimize", "maximize"})


def problems_from_validation(error: ValidationError, root: type[BaseModel],
                             prefix: KeyPath = ()) -> list[Problem]:
    """Word every error of a pydantic validation of `root` (whose data sits at `prefix` in the
    document) as a Problem."""
    out: list[Problem] = []
    for err in error.errors():
        loc = tuple(err["loc"])
        path = prefix + loc
        kind = err["type"]
        value = err.get("input")
        name = key_str(path)
        if kind == "extra_forbidden":
            parent = schema_at(root, loc[:-1])
            fields = list(parent.model_fields) if isinstance(parent, type) and \
                issubclass(parent, BaseModel) else []
            hint = did_you_mean(str(loc[-1]), fields)
            if not hint and fields and len(fields) <= 10:
                hint = "; expected one of " + ", ".join(f"`{f}`" for f in fields)
            out.append(Problem(path, "unknown-key",
                               f"unknown key `{loc[-1]}` in {table_str(path[:-1])}{hint}", "key"))
        elif kind == "missing":
            out.append(Problem(path, "missing-key",
                               f"missing key `{loc[-1]}` in {table_str(path[:-1])}", "missing"))
        elif kind == "literal_error":
            choices = literal_choices(root, loc) or ()
            hint = did_you_mean(value, [str(c) for c in choices]) if isinstance(value, str) else ""
            hint = hint.replace("`", '"') if hint else ""
            out.append(Problem(path, "bad-choice",
                               f"`{name}` must be one of {choices_str(choices)}; found "
                               f"{found_str(value)}{hint}"))
        elif kind in _EXPECTED:
            expected = _EXPECTED[kind]
            if loc and loc[-1] in _SNIPPET_KEYS and kind == "string_type" and len(path) == 3 \
                    and path[0] == "rules":
                example = toml_repr(str(value)) if loc[-1] == "value" and \
                    isinstance(value, (int, float)) and not isinstance(value, bool) else '"..."'
                message = (f"field `{name}` must be a string of rule-language text, e.g. "
                           f"`{loc[-1]} = {example}`; found {found_str(value)}")
            else:
                message = f"field `{name}` must be {expected}; found {found_str(value)}"
            out.append(Problem(path, "bad-type", message))
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            ctx = err.get("ctx", {})
            bound = {"greater_than_equal": f"at least {ctx.get('ge')}",
                     "greater_than": f"more than {ctx.get('gt')}",
                     "less_than_equal": f"at most {ctx.get('le')}",
                     "less_than": f"less than {ctx.get('lt')}"}[kind]
            out.append(Problem(path, "bad-value",
                               f"`{name}` must be {bound}; found {toml_repr(value)}"))
        elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
            out.append(Problem(path, "bad-value", f"`{name}`: {_lower(err['msg'])}"))
        elif kind.startswith("tablier:"):
            out.append(Problem(path, kind.removeprefix("tablier:"), err["msg"]))
        else:
            out.append(Problem(path, "bad-value", f"`{name}`: {_lower(err['msg'])}"))
    return out


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]
