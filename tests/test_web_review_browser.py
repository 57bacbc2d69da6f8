"""The hint list, the review of a game over, the phone's tap targets and the pegs and jetons of
the trictrac family, in a real browser: Debian's Chromium, headless, driven by Playwright,
against `tablier serve`'s application run by uvicorn on a free port of this machine.

Screenshots (desktop and 390×844) of the hint panel, the review and a Triktrak board with its
pegs and jetons are kept in pytest's tmp folder; with `TABLIER_DOC_SHOTS=1` the ones of
docs/play.md are written to docs/img/. Skipped, saying why, when Playwright or Chromium is
missing.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (the test extra has it)")

from interpreter.draw import chromium_path  # noqa: E402
from web_harness import idle, start  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = chromium_path()
DOC_SHOTS = os.environ.get("TABLIER_DOC_SHOTS") == "1"
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine "
                                "(apt-get install chromium; .ci/run does)")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


class Screen:
    """A browser context of one size, its page, and the errors its scripts raised."""

    def __init__(self, browser, phone: bool):
        opts = dict(viewport=PHONE, is_mobile=True, has_touch=True,
                    device_scale_factor=2) if phone else dict(viewport=DESKTOP)
        self.context = browser.new_context(**opts)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(20000)
        self.phone = phone

    def press(self, locator) -> None:
        if self.phone:
            locator.tap()
        else:
            locator.click()

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture(params=["desktop", "phone"])
def screen(browser, request):
    s = Screen(browser, request.param == "phone")
    yield s
    s.close()


def to_play(s: Screen) -> None:
    """Roll at the cube's question, until a play is asked."""
    pg = s.page
    while pg.locator('button[data-answer="roll"]').count():
        s.press(pg.locator('button[data-answer="roll"]'))
        idle(pg)


def play_one(s: Screen) -> bool:
    """Answer the question by taps or clicks: a play checker by checker (the first checker
    that can move, then its first destination), or a decision's first button. False once the
    game is over."""
    pg = s.page
    idle(pg)
    if pg.locator("#result").count():
        return False
    if pg.locator("#confirm").count():
        for _ in range(8):
            if pg.locator("#confirm").is_enabled():
                break
            if not pg.locator("#board .target").count():
                s.press(pg.locator("#board .movable .hit").first)
                idle(pg)
            s.press(pg.locator("#board .target .hit").first)
            idle(pg)
        s.press(pg.locator("#confirm"))
    else:
        s.press(pg.locator("button.answer").first)
    return True


def shot(pg, tmp_path: Path, name: str, doc: str | None = None) -> Path:
    path = tmp_path / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    if DOC_SHOTS and doc:
        pg.screenshot(path=str(ROOT / "docs" / "img" / doc), full_page=False)
    return path


# -- the hint's list -----------------------------------------------------------------------------

def test_the_hint_lists_the_best_plays_and_one_tapped_is_set_on_the_board(
        screen: Screen, server: str, tmp_path: Path) -> None:
    pg = screen.page
    start(pg, server, "backgammon", 1)
    to_play(screen)
    screen.press(pg.locator("#hint-button"))
    pg.wait_for_selector("#hint-list")
    idle(pg)
    rows = pg.locator("#hint-list button.candidate")
    assert rows.count() == 5
    texts = [rows.nth(i).text_content() for i in range(5)]
    values = [float(rows.nth(i).locator(".cand-value").text_content().replace("\u2212", "-"))
              for i in range(5)]
    assert values == sorted(values, reverse=True)
    assert rows.nth(0).locator(".cand-error").text_content() == "best"
    for i in range(1, 5):
        error = rows.nth(i).locator(".cand-error").text_content()
        assert error.startswith("\u2212") and float(error[1:]) == pytest.approx(
            values[0] - values[i], abs=0.0011)
    assert "valued in points" in pg.locator("#hint-list").text_content()
    # the hint itself is the first
    assert pg.locator("#hint").text_content() == \
        "hint: " + rows.nth(0).locator(".cand-play").text_content()
    for i in range(5):
        box = rows.nth(i).bounding_box()
        assert box["height"] >= 40 and box["x"] + box["width"] <= pg.viewport_size["width"]
    shot(pg, tmp_path, f"hint-five-{'phone' if screen.phone else 'desktop'}",
         None if screen.phone else "board-hint.png")
    # up to ten on demand
    more = pg.locator("#hint-more")
    if more.count():
        screen.press(more)
        assert 5 < pg.locator("#hint-list button.candidate").count() <= 10
    shot(pg, tmp_path, f"hint-{'phone' if screen.phone else 'desktop'}")
    # a tap sets the second best on the board: Play confirms it
    second = pg.locator("#hint-list button.candidate").nth(1)
    label = second.locator(".cand-play").text_content()
    screen.press(second)
    idle(pg)
    assert pg.locator("#confirm").is_enabled()
    assert pg.locator("#confirm").text_content() == f"Play {label}"
    assert texts[1].startswith(label)
    screen.press(pg.locator("#confirm"))
    idle(pg)
    log = pg.locator("#log").text_content()
    assert label in log


# -- the review ----------------------------------------------------------------------------------

def test_a_short_game_finished_then_reviewed_in_the_page(screen: Screen, server: str,
                                                         tmp_path: Path) -> None:
    pg = screen.page
    start(pg, server, "hypergammon", 3, options="ladder.doubling=false")
    assert not pg.locator("#review-button").count()     # no review while the game is on
    n = 0
    while play_one(screen):
        n += 1
        assert n < 200, "the game did not end"
        assert not pg.locator("#error").text_content(), pg.locator("#error").text_content()
    assert "wins" in pg.locator("#result").text_content()
    button = pg.locator("#review-button")
    assert button.is_visible() and button.text_content() == "Review this game"
    screen.press(button)
    pg.wait_for_selector("#review-totals")
    idle(pg)
    table = pg.locator("#review-totals")
    heads = [h.text_content() for h in table.locator("tr").first.locator("th").all()]
    assert heads == ["", "white (human)", "black (greedy)"]
    rows = {r.locator("th").text_content(): [c.text_content() for c in r.locator("td").all()]
            for r in table.locator("tr").all()[1:]}
    assert set(rows) == {"Decisions", "Mean error", "Best answer", "Doubtful", "Bad",
                         "Very bad", "Luck"}
    assert all(int(x) >= 1 for x in rows["Decisions"])
    assert all(re.fullmatch(r"\d+ %", x) for x in rows["Best answer"])
    marked = sum(int(x) for k in ("Doubtful", "Bad", "Very bad") for x in rows[k])
    errors = pg.locator("#review-errors li")
    assert errors.count() == marked
    if marked:
        first = errors.first.text_content()
        assert "played " in first and "best " in first
        assert re.search(r"turn \d+ · (white|black)", first)
    assert "By search:" in pg.locator("#review").text_content()
    # readable where it is: inside the screen's width
    for loc in (table, pg.locator("#review")):
        box = loc.bounding_box()
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= pg.viewport_size["width"] + 0.5
    pg.locator("#review").scroll_into_view_if_needed()
    shot(pg, tmp_path, f"review-{'phone' if screen.phone else 'desktop'}",
         "board-review-phone.png" if screen.phone else None)


# -- the phone's tap targets ---------------------------------------------------------------------

#: each point a tap may choose now: the width and height on the screen of its area (its own
#: and the areas beside it that choose it), and its own width
TARGETS_JS = """() => {
  const out = {};
  const pips = new Set([...document.querySelectorAll(
    '#board .movable[data-pip], #board .target[data-pip]')].map(g => g.getAttribute('data-pip')));
  for (const p of pips) {
    const hit = document.querySelector(`#board rect.hit[data-pip="${p}"]`).getBoundingClientRect();
    const all = [hit, ...[...document.querySelectorAll(`#board rect.zone[data-pip="${p}"]`)]
      .map(r => r.getBoundingClientRect())];
    const left = Math.min(...all.map(r => r.left)), right = Math.max(...all.map(r => r.right));
    out[p] = {width: right - left, height: hit.height, own: Math.min(hit.width, hit.height)};
  }
  return out;
}"""


def test_on_a_phone_the_points_to_tap_are_40_px_wide(browser, server: str,
                                                     tmp_path: Path) -> None:
    """On a 390 px screen the board's narrow form gives each point 40 px on its own (the wide
    form's 25): the checkers to pick, then the destinations of the one picked, each get an
    area of at least 40×40 px, and a tap on a neighbour that cannot be chosen chooses the
    nearest that can (backgammon's opening 4-2)."""
    s = Screen(browser, phone=True)
    try:
        pg = s.page
        start(pg, server, "backgammon", 1)
        to_play(s)
        assert pg.evaluate("() => state.dice") == [4, 2]
        sources = pg.evaluate(TARGETS_JS)
        assert set(sources) == {"24", "13", "8", "6"}
        for pip, box in sources.items():
            assert box["own"] >= 40                         # a point is a finger wide
            assert min(box["width"], box["height"]) >= 40, (pip, box)
        # the checker on 8 picked: its destinations 6 and 4
        s.press(pg.locator('#board .movable[data-pip="8"] .hit'))
        idle(pg)
        got = pg.evaluate(TARGETS_JS)
        targets = [g.get_attribute("data-pip") for g in pg.locator("#board .target").all()]
        assert set(targets) == {"6", "4"}
        for pip in targets:
            assert min(got[pip]["width"], got[pip]["height"]) >= 40, (pip, got[pip])
        # a tap on the neighbour 3, which cannot be chosen, chooses 4 beside it
        pg.screenshot(path=str(tmp_path / "phone-targets.png"))
        hit3 = pg.locator('#board .point[data-pip="3"] rect.hit').bounding_box()
        pg.touchscreen.tap(hit3["x"] + hit3["width"] * 0.8, hit3["y"] + hit3["height"] / 2)
        idle(pg)
        assert pg.locator("#entered").text_content() == "8/4"
    finally:
        s.close()


def test_the_desktop_board_has_no_areas_beyond_its_points(browser, server: str) -> None:
    s = Screen(browser, phone=False)
    try:
        pg = s.page
        start(pg, server, "backgammon", 1)
        to_play(s)
        s.press(pg.locator('#board .movable[data-pip="8"] .hit'))
        idle(pg)
        assert pg.locator("#board rect.zone").count() == 0
        for box in pg.evaluate(TARGETS_JS).values():
            assert box["width"] == pytest.approx(box["own"]) and box["own"] >= 44
    finally:
        s.close()


# -- pegs and jetons -----------------------------------------------------------------------------

def test_a_triktrak_board_shows_the_holes_with_pegs_and_the_points_with_jetons(
        screen: Screen, server: str, tmp_path: Path) -> None:
    pg = screen.page
    start(pg, server, "triktrak", 6)
    n = 0
    while True:
        sides = pg.evaluate("() => state.score.sides")
        if max(sides["points"]) and max(sides["holes"]) or n >= 60:
            break
        assert play_one(screen)
        n += 1
        idle(pg)
    assert max(sides["points"]) and max(sides["holes"]), sides
    view = pg.evaluate("() => state.view")
    other = "black" if view == "white" else "white"
    names = ("white", "black")
    mine, theirs = (names.index(view), names.index(other))
    pegs = {g.get_attribute("data-side"): int(g.get_attribute("data-holes"))
            for g in pg.locator("#board .peg").all()}
    assert pegs == {"mover": sides["holes"][mine], "opponent": sides["holes"][theirs]}
    jetons = {}
    for j in pg.locator("#board circle.jeton").all():
        jetons.setdefault(j.get_attribute("data-side"), int(j.get_attribute("data-points")))
    want = {side: sides["points"][i] for side, i in (("mover", mine), ("opponent", theirs))
            if sides["points"][i]}
    assert jetons == want
    # the viewer's peg below his row, the opponent's above the far row, both inside the board
    board = pg.locator("#board svg").bounding_box()
    for side in ("mover", "opponent"):
        box = pg.locator(f'#board .peg[data-side="{side}"]').first.bounding_box()
        assert board["y"] <= box["y"] and box["y"] + box["height"] <= board["y"] + board["height"]
        assert box["width"] >= (5 if screen.phone else 10)     # a peg a player can see
    shot(pg, tmp_path, f"triktrak-marks-{'phone' if screen.phone else 'desktop'}",
         None if screen.phone else "board-pegs.png")


# -- a dead cube ---------------------------------------------------------------------------------

def test_a_dead_cube_is_not_offered_and_the_page_says_why(browser, server: str) -> None:
    """A match to 3: White doubles, Black takes and redoubles to 4, White takes; at White's
    next throw the cube is dead for him (3 away with it at 4): his page asks no double, and
    says why above the play."""
    import httpx

    made = httpx.post(server + "/api/games", json={
        "variant": "hypergammon", "white": "human", "black": "human", "seed": 5,
        "set": {"ladder.match_length": 3}}, timeout=60).json()
    gid, seats = made["id"], made["seats"]
    state = made["state"]
    doubled = set()
    for _ in range(40):
        if state["cube_note"]:
            break
        q = state["question"]
        word = q["choices"][0]
        if q["decision"] == "double":
            word = "roll" if q["player"] in doubled else "double"
            doubled.add(q["player"])
        elif q["decision"] == "take":
            word = "take"
        state = httpx.post(f"{server}/api/games/{gid}/answer", timeout=60,
                           json={"answer": word, "seat": seats[q["player"]]}).json()
    assert state["cube_note"] and state["question"]["decision"] == "play"
    s = Screen(browser, phone=False)
    try:
        s.page.goto(f"{server}/game/{gid}?seat={seats['white']}")
        idle(s.page)
        assert s.page.locator("#cube-note").text_content() == \
            "(no cube offered to white: 3 points away with the cube at 4: any game won wins " \
            "the match)"
        assert not s.page.locator('button[data-answer="double"]').count()
        assert s.page.locator("#confirm").count()
    finally:
        s.close()
