"""How much of a long check the suite runs.

The default run (`pytest`, which deselects `slow`) runs a fifth of the examples of the property
tests and of the games of the many-game checks that use `scaled`; a run that selects the slow
tests (`pytest -m slow`, `pytest -m "slow or not slow"`), or `TABLIER_FULL_TESTS=1`, runs them
whole (tests/conftest.py tells which run this is).
"""
from __future__ import annotations

import os


def full() -> bool:
    return os.environ.get("TABLIER_FULL_TESTS") == "1"


def scaled(n: int, least: int = 5) -> int:
    """`n` in a full run; else a fifth of it, at least `least` (and never more than `n`)."""
    return n if full() else min(n, max(least, n // 5))
