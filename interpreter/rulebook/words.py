"""The words of keys and values, read from the schema and the ladder models.

Nothing here knows a key by name: a switch is described by its `Field(description=...)` and,
when the schema gives them, by the sentences of `says(...)` for each value (see
`interpreter.variant.schema.says`). A key added to the schema appears in the rulebook and the
diff with its description, and with its sentences as soon as it has them.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from interpreter.variant.schema import choice_key


def toml_value(value: Any) -> str:
    """A value as a variant file writes it: `"twice"`, `true`, `3`, `[12, 13]`; absent: `none`."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def _extra(info: FieldInfo) -> dict[str, Any]:
    extra = info.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _value_key(value: Any) -> str:
    if value is None or value == [] or value == ():
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return choice_key(value)


def says(info: FieldInfo, value: Any) -> str | None:
    """The schema's sentence for `value` of a switch, or None when it has none."""
    sentences = _extra(info).get("says")
    if not isinstance(sentences, dict):
        return None
    key = _value_key(value)
    text = sentences.get(key)
    if text is None and key != "none":
        text = sentences.get("any")
    if not isinstance(text, str):
        return None
    shown = ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else key
    return text.replace("{value}", shown)


def effect(info: FieldInfo, value: Any) -> str:
    """A sentence stating what `value` does: the schema's sentence for it, or else the key's
    description with the value."""
    sentence = says(info, value)
    if sentence is not None:
        return sentence
    description = info.description or "no description in the schema"
    return description[:1].upper() + description[1:] + "."


def applies(info: FieldInfo, table: BaseModel) -> tuple[bool, str]:
    """Whether the switch has an effect given the other switches of its table, and if not, why
    (in words naming the switch it depends on)."""
    condition = _extra(info).get("applies_if")
    if not isinstance(condition, dict):
        return True, ""
    for key, wanted in condition.items():
        current = getattr(table, key, None)
        if wanted == "set":
            # an empty list sets nothing either, nor a count of 0 (`limit = 0`: no limit)
            if current is None or current == [] or (
                    type(current) is int and current == 0):
                return False, f"used only when {code_key(key)} is set"
        elif isinstance(wanted, list) and current not in wanted:
            shown = " or ".join(toml_value(w) for w in wanted)
            return False, f"used only when {code_key(key)} is {shown}"
    return True, ""


def code_key(key: str) -> str:
    return f"`{key}`"
