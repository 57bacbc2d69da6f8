"""The suite's run-wide settings: a run that selects the slow tests runs the scaled checks whole
(tests/budget.py); each test process keeps few malloc arenas, and starts no background
compiles (below)."""
from __future__ import annotations

import ctypes
import ctypes.util
import os

import pytest

#: glibc's mallopt parameter for the most malloc arenas a process makes
M_ARENA_MAX = -8


def _few_arenas() -> None:
    """Each thread that allocates may give a process a malloc arena of its own, 64 MB of
    address space reserved: after the web board's tests (24 requests at once) a test process
    holds some 1.5 GB of it. The hostile catalogue's fork mode (tests/hostile.py) runs a command
    in a child of the test process under a 1.5 GB address-space limit, which the child would
    inherit used up; two arenas keep the test process near what it really uses."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt(M_ARENA_MAX, 2)
    except (OSError, AttributeError):     # not glibc: nothing to set
        pass


_few_arenas()

# a run that would gain from compiled code the cache lacks starts a background process to
# compile it (interpreter/native/prepare.py); the suite's many short runs must not leave such
# processes behind: they use only what is in the cache (tests/test_prepare.py runs the
# background path itself)
os.environ.setdefault("TABLIER_PREPARE", "never")
# the compiled code is compared with the Python path through numba's own modules (compiled
# on first use and cached); tests/test_library.py makes and loads the libraries themselves
os.environ.setdefault("TABLIER_LIBRARY", "0")


def pytest_configure(config: pytest.Config) -> None:
    marks = str(config.getoption("markexpr", "") or "")
    if "slow" in marks and "not slow" not in marks.replace("slow or not slow", ""):
        os.environ["TABLIER_FULL_TESTS"] = "1"


# -- the browser tests' fixtures (tests/*_browser.py; each module skips itself without
# Playwright or Chromium) ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    """`tablier serve`'s application run by uvicorn for one module: its address."""
    from web_harness import live_server

    yield from live_server()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, driven by Playwright, for one module."""
    from interpreter.draw import chromium_path
    from web_harness import headless_chromium

    path = chromium_path()
    assert path is not None
    yield from headless_chromium(path)


@pytest.fixture(params=("desktop", "phone"))
def screen(request, browser):
    """A page on a desktop's screen or a phone's (`web_harness.SCREENS`; touch, as a phone is
    held)."""
    from web_harness import screen_page

    yield from screen_page(browser, request.param)
