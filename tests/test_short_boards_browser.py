"""The shorter boards and the choice before a game in a real browser (Debian's Chromium,
headless, driven by Playwright, against `tablier serve`'s application run by uvicorn), on a
desktop's screen and a phone's: Doze canes's goal quarter chosen with labelled buttons, plays
made by clicks on Medio emperador's half board and Seys dos e as's three quarters.

Skipped, saying why, when Playwright or Chromium is missing (`.ci/run` installs Chromium).
"""
from __future__ import annotations

import re
from pathlib import Path

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


def test_the_goal_quarter_is_chosen_with_labelled_buttons(screen, server: str,
                                                          tmp_path: Path) -> None:
    pg, size, form = screen
    start(pg, server, "doze-canes", 2)
    assert pg.locator("#asked").text_content() == \
        "White, choose the goal quarter before the first throw"
    assert "goal of both sides" in pg.locator("#described").text_content()
    assert pg.locator("#typed").is_hidden()
    buttons = pg.locator("#question button.answer")
    assert [buttons.nth(k).text_content() for k in range(buttons.count())] == \
        ["19-24", "13-18", "7-12", "1-6"]
    for k in range(buttons.count()):
        b = buttons.nth(k)
        assert b.is_visible() and b.is_enabled()
        # in the window as it is shown, without the person scrolling
        assert inside(b.bounding_box(), size), (form, k, b.bounding_box())
    pg.screenshot(path=str(tmp_path / f"doze-canes-choose-{form}.png"))
    assert pg.locator("#board text.name").count() == 0        # no goal before the choice
    pg.click("#question button[data-answer='13-18']")
    idle(pg)
    assert "white chooses the goal quarter: 13-18 (white's pips)" in \
        pg.locator("#log").text_content()
    names = [pg.locator("#board text.name").nth(k).text_content()
             for k in range(pg.locator("#board text.name").count())]
    assert names == ["goal"] * 6
    assert re.match(r"White, your turn to play \d-\d", pg.locator("#asked").text_content())
    pg.screenshot(path=str(tmp_path / f"doze-canes-chosen-{form}.png"))


def _play_by_clicks(pg, size: dict) -> None:
    """The first checker that can move, then its first destination, until the play is
    complete, each tapped point inside the window; then Play."""
    for _ in range(6):
        if pg.locator("#confirm").is_enabled():
            break
        if not pg.locator("#board .target").count():
            checker = pg.locator("#board .movable .hit").first
            checker.scroll_into_view_if_needed()
            assert inside(checker.bounding_box(), size)
            checker.click()
            idle(pg)
        target = pg.locator("#board .target .hit").first
        target.scroll_into_view_if_needed()
        assert inside(target.bounding_box(), size)
        target.click()
        idle(pg)
        assert not pg.locator("#error").text_content(), pg.locator("#error").text_content()
    assert pg.locator("#confirm").is_enabled()
    pg.click("#confirm")
    idle(pg)


def test_a_play_by_clicks_on_medio_emperadors_half_board(screen, server: str,
                                                          tmp_path: Path) -> None:
    pg, size, form = screen
    start(pg, server, "medio-emperador", 3)
    board = pg.locator("#board svg")
    assert pg.locator("#board g.point").count() == 12
    labels = sorted(int(pg.locator("#board text.label").nth(k).text_content())
                    for k in range(pg.locator("#board text.label").count()))
    assert labels == list(range(1, 13))
    # the whole half board in the window: its height too, on a desktop's screen
    assert inside(board.bounding_box(), size), board.bounding_box()
    assert pg.locator("#board .die").count() == 3
    # one step: its checker moves, and the number it used is greyed
    pg.locator("#board .movable .hit").first.click()
    idle(pg)
    assert pg.locator("#board .target").count() >= 1
    pg.locator("#board .target .hit").first.click()
    idle(pg)
    step = pg.locator("#entered").text_content()
    a, b = (int(x) for x in re.match(r"(\d+)/(\d+)", step).groups())
    assert 1 <= b < a <= 12
    used = pg.locator("#board .die.used")
    assert used.count() == 1 and used.get_attribute("data-die") == str(a - b)
    pg.screenshot(path=str(tmp_path / f"medio-emperador-step-{form}.png"))
    _play_by_clicks(pg, size)
    log = pg.locator("#log").text_content()
    assert re.search(r"2\. white \d-\d-\d 12/", log), log
    assert not re.search(r"\b(1[3-9]|2[0-4])/", log)
    # the opponent has played: the person is asked again, on the same half board
    assert pg.locator("#board g.point").count() == 12


def test_a_play_by_clicks_on_seys_dos_e_as_three_quarters(screen, server: str) -> None:
    pg, size, form = screen
    start(pg, server, "seys-dos-e-as", 4)
    assert pg.locator("#board g.point").count() == 18
    unused = pg.locator("#board g.unused")
    assert unused.count() == 1 and "not used" in unused.text_content()
    assert unused.locator("[data-pip]").count() == 0          # nothing there to tap
    _play_by_clicks(pg, size)
    assert re.search(r"white \d-\d-\d 1[0-8]/", pg.locator("#log").text_content())
