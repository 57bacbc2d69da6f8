"""The suite's run-wide settings: a run that selects the slow tests runs the scaled checks whole
(tests/budget.py)."""
from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    marks = str(config.getoption("markexpr", "") or "")
    if "slow" in marks and "not slow" not in marks.replace("slow or not slow", ""):
        os.environ["TABLIER_FULL_TESTS"] = "1"
