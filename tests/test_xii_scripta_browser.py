"""XII scripta's board of three rows of twelve in a real browser (Debian's Chromium, headless,
driven by Playwright, against `tablier serve`'s application run by uvicorn), on a desktop's
screen and a phone's: the 36 points drawn and labelled, the route shown, men entered and moved
by clicks, each tapped point visible, enabled and inside the window, the log in pips 1..36.

Skipped, saying why, when Playwright or Chromium is missing (`.ci/run` installs Chromium).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (the test extra has it)")

from interpreter.draw import chromium_path  # noqa: E402
from web_harness import idle, inside, start  # noqa: E402

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine "
                                "(apt-get install chromium; .ci/run does)")


def _tap(pg: Any, locator: Any, size: dict) -> None:
    locator.scroll_into_view_if_needed()
    assert locator.is_visible() and locator.is_enabled()
    assert inside(locator.bounding_box(), size), locator.bounding_box()
    locator.click()
    idle(pg)
    assert not pg.locator("#error").text_content(), pg.locator("#error").text_content()


def _play_by_clicks(pg: Any, size: dict) -> list[str]:
    """The first checker that can move, then its first destination, until the play is
    complete; then Play. The steps shown as they were entered."""
    shown = []
    for _ in range(6):
        if pg.locator("#confirm").is_enabled():
            break
        if not pg.locator("#board .target").count():
            _tap(pg, pg.locator("#board .movable .hit").first, size)
        _tap(pg, pg.locator("#board .target .hit").first, size)
        shown.append(pg.locator("#entered").text_content())
    assert pg.locator("#confirm").is_enabled()
    pg.click("#confirm")
    idle(pg)
    return shown


def test_the_three_rows_are_drawn_labelled_and_played_by_clicks(screen, server: str,
                                                                tmp_path: Path) -> None:
    pg, size, form = screen
    start(pg, server, "xii-scripta", 3)
    assert pg.locator("#board g.point").count() == 36
    labels = sorted(int(pg.locator("#board text.label").nth(k).text_content())
                    for k in range(pg.locator("#board text.label").count()))
    assert labels == list(range(1, 37))
    # the middle row's fields between the outer rows' points, and the way the men run
    assert pg.locator("#board rect.field").count() == 12
    assert pg.locator("#board g.route text.route-arrow").count() == 3
    caption = "route: middle row 36–25" if form == "phone" else \
        "route: enter on the middle row, 36 to 25"
    assert caption in pg.locator("#board svg").text_content()
    assert pg.locator("#board .die").count() == 3
    pg.screenshot(path=str(tmp_path / f"xii-scripta-start-{form}.png"), full_page=True)
    # a man waiting off the board is tapped, then a point of the middle row
    first = _play_by_clicks(pg, size)
    assert re.match(r"in/3[1-6]", first[0]), first
    for step in first:
        a, b = step.split(" ")[-1].split("/")
        assert (a == "in" or 1 <= int(a) <= 36) and 1 <= int(b) <= 36
    log = pg.locator("#log").text_content()
    assert re.search(r"white \d-\d-\d in/(2[5-9]|3[0-6])\b", log), log
    assert not re.search(r"\b(3[7-9]|4[0-9])/", log), log
    # the opponent has played: the person is asked again, on the same three rows
    assert pg.locator("#board g.point").count() == 36
    second = _play_by_clicks(pg, size)
    assert second
    pg.screenshot(path=str(tmp_path / f"xii-scripta-played-{form}.png"), full_page=True)
    log = pg.locator("#log").text_content()
    assert not re.search(r"\b(3[7-9]|4[0-9])/", log), log
