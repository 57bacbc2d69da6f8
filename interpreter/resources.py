"""Where the grammar and the built-in variant files are, installed or in a checkout.

A wheel carries them inside the package (`interpreter/grammar`, `interpreter/variants`, see
`pyproject.toml`); a checkout has them at the top of the repository. Both resolve here, so
`extends = "backgammon"` means the same file either way.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the {name}/ folder is missing from the installation ({_PACKAGE})")


@cache
def grammar_dir() -> Path:
    return _find("grammar")


@cache
def variants_dir() -> Path:
    return _find("variants")


def builtin_variant_path(variant_id: str) -> Path | None:
    """The file of a built-in variant id, or None when there is no such id (a name that is not
    written like an id, lowercase words joined by '-', is none)."""
    if not (isinstance(variant_id, str) and len(variant_id) <= 64
            and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", variant_id)):
        return None
    path = variants_dir() / f"{variant_id}.toml"
    return path if path.is_file() else None
