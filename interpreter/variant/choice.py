"""How a value of an option is written as a key (`[option_sets]`, `option_descriptions`).

Apart from the schema so that building a variant from its checked parts (interpreter/variant/
build.py, and the stored built variants of interpreter/variant/stored.py) does not load the
pydantic models."""
from __future__ import annotations

from typing import Any


def choice_key(value: Any) -> str:
    """How a value of an option is written as a key of `option_descriptions.<option>.choices`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
