"""The web board in a real browser: Debian's Chromium, headless, driven by Playwright, against
`tablier serve`'s application run by uvicorn on a free port of this machine.

A whole backgammon game and a whole partie of Triktrak (to two holes instead of twelve, by the
page's options, `ladder.holes_to_win=2`) are played by clicks against a bot; a saved game is
resumed in the page; an à écrire sheet of two marks is entered with buttons, a refused event in
the middle; the game page on a phone's screen shows the whole board. Screenshots are kept in
pytest's tmp folder; with `TABLIER_DOC_SHOTS=1` the ones of docs/play.md are written to docs/img/.

Skipped, saying why, when Playwright or Chromium is missing (`.ci/run` installs Chromium).
"""
from __future__ import annotations

import os
import re
import time
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
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine "
                                "(apt-get install chromium; .ci/run does)")
DOC_SHOTS = os.environ.get("TABLIER_DOC_SHOTS") == "1"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(10000)
    yield pg
    context.close()
    assert not errors, errors


def shot(pg, tmp_path: Path, name: str, doc: str | None = None) -> Path:
    path = tmp_path / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    if DOC_SHOTS and doc:
        (ROOT / "docs" / "img").mkdir(exist_ok=True)
        pg.screenshot(path=str(ROOT / "docs" / "img" / doc), full_page=True)
    return path


def play_one(pg) -> bool:
    """Answer the question on the page by clicks: a play checker by checker (the first movable
    checker, then its first highlighted destination), or a decision's first button. False once
    the game is over."""
    idle(pg)
    if pg.locator("#result").count():
        return False
    if pg.locator("#confirm").count():
        for _ in range(8):
            if pg.locator("#confirm").is_enabled():
                break
            if not pg.locator(".target").count():     # a checker picked for him already
                pg.locator(".movable .hit").first.click()
                idle(pg)
            pg.locator(".target .hit").first.click()
            idle(pg)
        assert pg.locator("#confirm").is_enabled()
        pg.click("#confirm")
    else:
        buttons = pg.locator("button.answer")
        assert buttons.count() >= 1
        # "roll", "take", "stay": the first word of a decision holds when in doubt
        buttons.first.click()
    return True


def play_out(pg, limit: int = 400) -> int:
    n = 0
    while play_one(pg):
        n += 1
        assert n < limit, "the game did not end"
        assert not pg.locator("#error").text_content(), pg.locator("#error").text_content()
    return n


def test_a_backgammon_game_by_clicks_for_four_turns(page, server: str, tmp_path: Path) -> None:
    """The first turns of the game below (the whole game is played under the slow marker)."""
    _backgammon_by_clicks(page, tmp_path, server, whole=False)


@pytest.mark.slow
def test_a_whole_backgammon_game_by_clicks(page, server: str, tmp_path: Path) -> None:
    _backgammon_by_clicks(page, tmp_path, server, whole=True)


def _backgammon_by_clicks(page, tmp_path: Path, server: str, whole: bool) -> None:
    start(page, server, "backgammon", 7)
    shot(page, tmp_path, "backgammon-start")
    # a checker clicked shows its destinations; undo takes a step back
    idle(page)
    if page.locator("button.answer").count():
        page.click("button[data-answer=roll]")
        idle(page)
    page.locator(".movable .hit").first.click()
    idle(page)
    assert page.locator(".target").count() >= 1
    page.locator(".target .hit").first.click()
    idle(page)
    assert page.locator("#entered").text_content() != "—"
    shot(page, tmp_path, "backgammon-entering", "board-desktop.png")
    page.click("#undo")
    idle(page)
    assert page.locator("#entered").text_content() == "—"
    if not whole:
        for _ in range(4):
            assert play_one(page)
            assert not page.locator("#error").text_content()
        return
    turns = play_out(page)
    assert turns > 10
    assert "wins" in page.locator("#result").text_content()
    assert "wins" in page.locator("#log").text_content()
    shot(page, tmp_path, "backgammon-end")


@pytest.mark.slow
def test_a_whole_triktrak_partie_by_clicks(page, server: str, tmp_path: Path) -> None:
    start(page, server, "triktrak", 3, "ladder.holes_to_win=2")
    shot(page, tmp_path, "triktrak-start", "board-trictrac.png")
    play_out(page, limit=600)
    assert "wins" in page.locator("#result").text_content()
    assert "holes" in page.locator("#score").text_content()


def test_a_game_of_two_bots_plays_turn_by_turn_to_its_end(page, server: str) -> None:
    """Each request plays one bot turn: the page asks again while a bot is to move, and the
    moves come one by one until the end."""
    page.goto(server + "/")
    page.select_option("#variant", "hypergammon")
    page.select_option("#white", "random")
    page.select_option("#black", "random")
    page.fill("#seed", "5")
    seen = []
    page.on("response", lambda r: seen.append(r.url) if r.request.method == "GET"
            and "/api/games/" in r.url else None)
    page.click("#start")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#result", timeout=60000)
    assert "wins" in page.locator("#result").text_content()
    turns = page.locator("#log").text_content().count("\n")
    assert len(seen) > 10 and turns > 10


def test_a_typed_play_and_a_refused_one(page, server: str) -> None:
    start(page, server, "backgammon", 11)
    if page.locator("button.answer").count():
        page.click("button[data-answer=roll]")
        idle(page)
    page.fill("#typed-play", "24/1")
    page.click("#typed-send")
    page.wait_for_selector("#error:not(:empty)")
    assert "not a legal play" in page.locator("#error").text_content()
    log = page.locator("#log").text_content()
    page.click("#hint-button")
    page.wait_for_selector("#hint")
    hint = page.locator("#hint").text_content().removeprefix("hint: ")
    # and why: the strongest bot's value, the second best and by how much
    assert "more than the next best" in page.locator("#hint-reason").text_content()
    page.fill("#typed-play", hint)
    page.click("#typed-send")
    page.wait_for_function("document.querySelector('#log').textContent.length > %d" % len(log))
    assert hint in page.locator("#log").text_content()


def test_a_saved_game_resumed_in_the_page(page, server: str, tmp_path: Path) -> None:
    start(page, server, "trictrac-ecrire", 5)
    for _ in range(6):
        play_one(page)
    idle(page)
    log = page.locator("#log").text_content()
    with page.expect_download() as info:
        page.click("#save")
    saved = tmp_path / "saved.toml"
    info.value.save_as(saved)
    page.goto(server + "/")
    page.set_input_files("#resume-file", str(saved))
    page.wait_for_function("document.querySelector('#resume-text').value.length > 0")
    page.click("#resume")
    page.wait_for_url("**/game/**")
    idle(page)
    assert page.locator("#log").text_content() == log
    # an edited save is refused, naming the fault
    page.goto(server + "/")
    page.fill("#resume-text", saved.read_text(encoding="utf-8").replace("seed = 5", "seed = 6"))
    page.click("#resume")
    page.wait_for_selector("#resume-error:not(:empty)")
    assert "record entry" in page.locator("#resume-error").text_content()


def test_an_ecrire_sheet_of_two_marks_entered_with_buttons(page, server: str,
                                                            tmp_path: Path) -> None:
    page.goto(server + "/sheet")
    page.select_option("#sheet-variant", "trictrac-ecrire")
    page.click("#sheet-start")
    page.wait_for_selector("#sides .side")
    idle(page)

    def press(player: str, label: str, on_other: bool = False) -> None:
        side = page.locator(f'.side[data-player="{player}"]')
        if on_other:
            side.locator(".on-other").check()
        side.locator(f'button:text-is("{label}")').click()
        idle(page)

    press("Alice", "+2")
    press("Alice", "+4")
    press("Bob", "+1", on_other=True)      # Bob's hole on Alice's throw
    press("Alice", "go")                   # refused: the go must follow her own holes
    assert "go" in page.locator("#sheet-error").text_content()
    assert page.locator("#events li").count() == 3     # nothing entered before it is lost
    press("Alice", "+1")
    press("Alice", "go")                   # 7-1: Alice wins mark 1
    assert page.locator("#sheet-error").text_content() == ""
    press("Bob", "+3")
    press("Bob", "+3")
    press("Bob", "refait")                 # refused: 0-6 is no refait
    assert "not a refait" in page.locator("#sheet-error").text_content()
    press("Bob", "go")                     # Bob wins mark 2
    text = page.locator("#sheet-text").text_content()
    assert "   1  Alice" in text and "   2  Bob" in text
    assert "lost marks: Alice 1, Bob 1" in text
    shot(page, tmp_path, "sheet", "sheet.png")
    with page.expect_download() as info:
        page.click("#sheet-download")
    record = tmp_path / "record.toml"
    info.value.save_as(record)
    from interpreter.cli import main
    assert main(["sheet", str(record)]) == 0     # tablier sheet reads the record


def test_the_game_page_on_a_phone_shows_the_whole_board(browser, server: str,
                                                        tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    pg = context.new_page()
    try:
        start(pg, server, "backgammon", 7)
        box = pg.locator("#board svg").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5
        assert box["height"] > 200
        controls = pg.locator("#question").bounding_box()
        assert controls["y"] >= box["y"] + box["height"] - 1      # controls below the board
        for b in pg.locator("#question button").all():
            assert b.bounding_box()["height"] >= 44               # large enough to touch
        pg.screenshot(path=str(tmp_path / "phone.png"), full_page=False)
        if DOC_SHOTS:
            pg.screenshot(path=str(ROOT / "docs" / "img" / "board-phone.png"), full_page=False)
    finally:
        context.close()


def _inside(box: dict, width: float, height: float) -> bool:
    return box is not None and box["x"] >= -0.5 and box["y"] >= -0.5 and \
        box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5


def test_the_typed_play_is_hidden_at_a_decision_and_a_disabled_button_looks_it(page,
                                                                               server: str):
    start(page, server, "backgammon", 7)
    # the first question of the person is the cube's: no typed play there
    assert page.locator("button[data-answer=roll]").is_visible()
    assert not page.locator("#typed").is_visible()
    assert not page.locator("#typed-play").is_visible()
    page.click("button[data-answer=roll]")
    idle(page)
    # a play: the typed box is there, the Play button disabled until a play is entered
    assert page.locator("#typed-play").is_visible()
    confirm = page.locator("#confirm")
    assert confirm.is_disabled()
    grey = confirm.evaluate("b => getComputedStyle(b).backgroundColor")
    hint_bg = page.locator("#hint-button").evaluate("b => getComputedStyle(b).backgroundColor")
    assert grey != hint_bg and grey != "rgb(63, 163, 77)"      # neither active nor green


def test_triktrak_in_guitons_notation_on_the_page(page, server: str) -> None:
    page.goto(server + "/")
    page.select_option("#variant", "triktrak")
    page.select_option("#notation", "guiton")
    page.select_option("#white", "human")
    page.select_option("#black", "greedy")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_url("**/game/**")
    idle(page)
    labels = page.locator("#board text.label").all_text_contents()
    assert "T" in labels and "11'" in labels
    log = page.locator("#log").text_content()
    assert "T/1 T/4" in log and "24/" not in log
    page.locator(".movable .hit").first.click()
    idle(page)
    page.locator(".target .hit").first.click()
    idle(page)
    assert page.locator("#entered").text_content().startswith("T/")
    # the running score in words under the board, with the holes
    assert "holes" in page.locator("#status").text_content()


def test_acey_deucey_waiting_men_are_labelled_and_entered_by_a_click(page, server: str) -> None:
    start(page, server, "acey-deucey", 3)
    waiting = page.locator("#board g.unentered.movable")
    assert waiting.count() == 1 and waiting.is_visible()
    assert "to enter" in page.locator("#board").text_content()
    page.locator("#board g.unentered.movable .hit").click()
    idle(page)
    assert page.locator(".target").count() >= 1
    page.locator(".target .hit").first.click()
    idle(page)
    assert page.locator("#entered").text_content().startswith("in/")
    assert "29" not in page.locator("#entered").text_content()


def _three_dice_by_clicks(page, server: str, tmp_path: Path, variant: str, seed: int,
                          whole: bool) -> None:
    """A game of three dice by clicks: the three dice drawn inside the board, each throw's
    three numbers in the heading and the log, a play of three moves confirmed."""
    start(page, server, variant, seed)
    dice = page.locator("#board .die")
    assert dice.count() == 3
    board = page.locator("#board svg").bounding_box()
    for k in range(3):
        box = dice.nth(k).bounding_box()
        assert box is not None and dice.nth(k).is_visible()
        assert board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
    heading = page.locator("h3").first.text_content()
    assert re.search(r"to play \d-\d-\d", heading), heading
    shot(page, tmp_path, f"{variant}-start")
    if not whole:
        for _ in range(3):
            assert play_one(page)
            assert not page.locator("#error").text_content()
        assert re.search(r"\d-\d-\d", page.locator("#log").text_content())
        return
    play_out(page, limit=500)
    assert "wins" in page.locator("#result").text_content() or \
        "drawn" in page.locator("#result").text_content()
    shot(page, tmp_path, f"{variant}-end")


@pytest.mark.parametrize("variant,seed", [("tabula", 4), ("emperador", 5)])
def test_three_dice_drawn_and_played_by_clicks(page, server: str, tmp_path: Path,
                                               variant: str, seed: int) -> None:
    _three_dice_by_clicks(page, server, tmp_path, variant, seed, whole=False)


@pytest.mark.slow
@pytest.mark.parametrize("variant,seed", [("tabula", 4), ("emperador", 5)])
def test_a_whole_three_dice_game_by_clicks(page, server: str, tmp_path: Path,
                                           variant: str, seed: int) -> None:
    _three_dice_by_clicks(page, server, tmp_path, variant, seed, whole=True)


@pytest.mark.parametrize("variant,seed", [("backgammon", 7), ("triktrak", 3)])
def test_on_a_phone_the_board_dice_score_and_destinations_need_no_scrolling(
        browser, server: str, tmp_path: Path, variant: str, seed: int) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    pg = context.new_page()
    try:
        start(pg, server, variant, seed)
        if pg.locator("button.answer").count():
            pg.click("button.answer >> nth=0")
            idle(pg)
        pg.locator(".movable .hit").first.click()
        idle(pg)
        for what in ("#board svg", "#board .die", "#board .target", "#status"):
            box = pg.locator(what).first.bounding_box()
            assert _inside(box, 390, 844), (what, box)
        status = pg.locator("#status").text_content()
        assert ("cube" in status) if variant == "backgammon" else ("holes" in status)
        assert pg.locator("#confirm").is_visible()
        assert _inside(pg.locator("#confirm").bounding_box(), 390, 844)
        pg.screenshot(path=str(tmp_path / f"phone-{variant}.png"), full_page=False)
    finally:
        context.close()


def test_the_sheet_keeps_a_two_mark_partie_and_shows_the_holes(page, server: str) -> None:
    page.goto(server + "/sheet")
    page.select_option("#sheet-variant", "trictrac-ecrire")
    page.fill("#marks", "2")
    page.click("#sheet-start")
    page.wait_for_selector("#sides .side")
    idle(page)
    assert page.locator("#sheet-error").text_content() == ""

    def press(player: str, label: str) -> None:
        page.locator(f'.side[data-player="{player}"]').locator(
            f'button:text-is("{label}")').click()
        idle(page)

    press("Alice", "+4")
    press("Alice", "+2")
    press("Bob", "+3")
    press("Bob", "+3")
    alice = page.locator('.side[data-player="Alice"] .score').text_content()
    assert "6 holes" in alice and "mark 1 of 2" in alice
    press("Alice", "refait")          # pressed in either box: Bob made the hole, he calls it
    assert page.locator("#sheet-error").text_content() == ""
    assert "refait" in page.locator("#sheet-text").text_content()
    assert "0 holes" in page.locator('.side[data-player="Bob"] .score').text_content()


@pytest.mark.parametrize("variant,has,lacks", [
    ("triktrak", ["+12", "go"], ["refait", "banner", "suspend honours"]),
    ("trictrac-combine", ["+4", "refait", "suspend honours"], ["+12"]),
])
def test_the_sheet_buttons_follow_the_form_of_the_ladders_sheet(page, server: str, variant: str,
                                                                has: list, lacks: list) -> None:
    """A game of holes is kept in points (`+12`, no marks), combiné with its suspensions."""
    page.goto(server + "/sheet")
    page.select_option("#sheet-variant", variant)
    assert page.locator("#marks").is_hidden() == (variant == "triktrak")
    page.click("#sheet-start")
    page.wait_for_selector("#sides .side")
    idle(page)
    alice = page.locator('.side[data-player="Alice"]')
    for label in has:
        assert alice.locator(f'button:text-is("{label}")').count() == 1, label
    for label in lacks:
        assert alice.locator(f'button:text-is("{label}")').count() == 0, label
    alice.locator('button:text-is("+4")').click()
    idle(page)
    score = alice.locator(".score").text_content()
    assert ("4 points" in score) if variant == "triktrak" else ("mark 1 of" in score)


# -- two people, each at a browser of his own -----------------------------------------------------

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
#: the page's whole view as the STATE gives it: who is on roll, the dice, the score, the log
VIEW_JS = "() => document.querySelector('#status').textContent + '\\n' + " \
          "document.querySelector('#log').textContent"


class Seat:
    """One person's browser (a context of its own) on a page of the game."""

    def __init__(self, browser, url: str, phone: bool = False, quiet: bool = False):
        opts = dict(viewport=PHONE, is_mobile=True, has_touch=True,
                    device_scale_factor=2) if phone else dict(viewport=DESKTOP)
        self.context = browser.new_context(accept_downloads=True, **opts)
        if quiet:
            # an event stream that never says anything (nor fails): the page hears no change
            self.context.add_init_script("window.EventSource = class { constructor() "
                                         "{ this.readyState = 0; } close() {} };")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(10000)
        self.phone = phone
        self.size = PHONE if phone else DESKTOP
        self.page.goto(url)
        if "/game/" in url:
            idle(self.page)

    def view(self) -> str:
        return self.page.evaluate(VIEW_JS)

    def usable(self, locator) -> str:
        """A control a player uses: visible, enabled, labelled and inside the viewport (the
        page scrolled to it as a person would); its label."""
        locator.scroll_into_view_if_needed()
        assert locator.is_visible() and locator.is_enabled()
        text = (locator.text_content() or "").strip()
        assert text, "a control without a label"
        assert _inside(locator.bounding_box(), self.size["width"], self.size["height"]), text
        return text

    def press(self, locator) -> None:
        if self.phone:
            locator.tap()
        else:
            locator.click()

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def _no_controls(seat: Seat) -> None:
    """A page that does not answer now: no button to answer, no typed play, no checker to
    choose."""
    pg = seat.page
    assert pg.locator("#question button").count() == 0
    assert not pg.locator("#typed").is_visible()
    assert pg.locator("#board .movable, #board .target").count() == 0


def _asked(seats: dict[str, Seat], timeout: float = 5.0) -> str | None:
    """The side whose page shows the controls of the question (None once the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for side in ("white", "black"):
            pg = seats[side].page
            if pg.locator("#result").count():
                return None
            if pg.get_attribute("body", "data-busy") == "0" and \
                    pg.locator("#question button.answer, #confirm").count():
                return side
        time.sleep(0.05)
    raise AssertionError("no page shows the question")


def _enter_play(seat: Seat, typed: bool) -> str:
    """A whole play entered as a person does: typed from the hint, or checker by checker; the
    play confirmed. The play's label."""
    pg = seat.page
    if typed:
        seat.press(pg.locator("#hint-button"))
        pg.wait_for_selector("#hint")
        hint = pg.locator("#hint").text_content().removeprefix("hint: ")
        box = pg.locator("#typed-play")
        assert box.get_attribute("placeholder") == "from/to from/to"
        box.fill(hint)
        seat.usable(pg.locator("#typed-send"))
        seat.press(pg.locator("#typed-send"))
        return hint
    for _ in range(8):
        if pg.locator("#confirm").is_enabled():
            break
        if not pg.locator("#board .target").count():
            checker = pg.locator("#board .movable .hit").first
            box = checker.bounding_box()
            assert box["height"] >= 40, box          # large enough for a finger
            seat.press(checker)
            idle(pg)
        target = pg.locator("#board .target .hit").first
        assert target.bounding_box()["height"] >= 40
        seat.press(target)
        idle(pg)
    label = seat.usable(pg.locator("#confirm"))
    assert label.startswith("Play ")
    seat.press(pg.locator("#confirm"))
    return label


def _two_seats(browser, server: str, tmp_path: Path, options: str, seed: int,
               cube: bool) -> int:
    """A game of hypergammon made on the start page by one person, who keeps White's seat on
    his desktop and sends Black's link to a friend on a phone; a third person watches. Each
    plays by clicks (and now and then a typed play); after each answer the two other pages show
    it within 2 s. With `cube`, White doubles at his third turn and Black passes: the game
    ends. The number of answers given."""
    maker = Seat(browser, server + "/")
    pg = maker.page
    start(pg, server, "hypergammon", seed, options, black="human")
    assert pg.locator("#seat").text_content() == "You play both sides, on this screen"
    assert pg.locator("#links").is_visible() and pg.locator("#links[open]").count()
    links = {who: pg.locator(f"#link-{who}").input_value() for who in ("white", "black",
                                                                       "watch")}
    assert "?seat=" in links["white"] and "?seat=" in links["black"]
    assert "?" not in links["watch"] and links["white"] != links["black"]
    for who in ("white", "black", "watch"):
        maker.usable(pg.locator(f'button[data-copies="link-{who}"]'))
    shot(pg, tmp_path, "seats-maker", "board-seats.png")
    maker.close()
    seats = {"white": Seat(browser, links["white"]),
             "black": Seat(browser, links["black"], phone=True),
             "watch": Seat(browser, links["watch"])}
    try:
        assert seats["white"].page.locator("#seat").text_content() == "You play white"
        assert seats["black"].page.locator("#seat").text_content() == "You play black"
        watch = seats["watch"].page
        assert watch.locator("#seat").is_visible()
        assert "Watching" in watch.locator("#seat").text_content()
        assert not watch.locator("#save").is_visible() and not watch.locator("#links").is_visible()
        turns = {"white": 0, "black": 0}
        answers = 0
        shots = False
        while True:
            side = _asked(seats)
            if side is None:
                break
            me = seats[side]
            other = seats["black" if side == "white" else "white"]
            for idle_seat in (other, seats["watch"]):
                _no_controls(idle_seat)
            assert other.page.locator("#waiting").text_content() == f"Waiting for {side}…"
            heading = watch.locator("#asked").text_content()
            pg = me.page
            if pg.locator("#confirm").count():
                assert pg.locator("#asked").text_content().startswith(
                    f"{side.capitalize()}, your turn to play ")
                assert heading.startswith(f"{side.capitalize()} to play ")
                if not shots and turns[side] >= 1 and side == "black":
                    shot(seats["white"].page, tmp_path, "seats-white-waiting")
                    seats["black"].page.screenshot(path=str(tmp_path / "seats-black-phone.png"))
                    shot(watch, tmp_path, "seats-watching")
                    shots = True
                _enter_play(me, typed=side == "black" and turns[side] % 3 == 1)
                turns[side] += 1
            else:
                q = pg.locator("#asked").text_content()
                buttons = {b.get_attribute("data-answer"): me.usable(b)
                           for b in pg.locator("button.answer").all()}
                if "roll" in buttons:
                    assert q == f"{side.capitalize()}, your turn: double to 2, or roll?", q
                    assert heading == f"{side.capitalize()}'s turn: double to 2, or roll?"
                    assert buttons == {"roll": "Roll", "double": "Double to 2"}
                    word = "double" if cube and side == "white" and turns["white"] >= 2 \
                        else "roll"
                    if word == "double":
                        me.page.screenshot(path=str(tmp_path / f"seats-{side}-double.png"))
                else:
                    me.page.screenshot(path=str(tmp_path / f"seats-{side}-take.png"))
                    assert q == "White doubles to 2: take or pass?", q
                    assert buttons["take"].startswith("Take") and \
                        buttons["pass"] == "Pass (lose 1)"
                    word = "pass"
                me.press(pg.locator(f'button[data-answer="{word}"]'))
            idle(pg)
            # the play is made (its page shows it): the two other pages show it within 2 s
            made = time.monotonic()
            assert not pg.locator("#error").text_content(), pg.locator("#error").text_content()
            answers += 1
            want = me.view()
            for seen in (other, seats["watch"]):
                left = max(0.05, 2.0 - (time.monotonic() - made))
                seen.page.wait_for_function(f"w => ({VIEW_JS})() === w", arg=want,
                                            timeout=left * 1000)
            assert time.monotonic() - made < 2.0
            assert answers < 400, "the game did not end"
        for seat in seats.values():
            seat.page.wait_for_selector("#result", timeout=2000)
            assert "wins" in seat.page.locator("#result").text_content()
        assert shots
        return answers
    finally:
        for seat in seats.values():
            seat.close()


def test_two_people_on_two_browsers_play_a_game_of_hypergammon(browser, server: str,
                                                               tmp_path: Path) -> None:
    """White doubles at his third turn and Black passes: a whole game in a dozen answers."""
    answers = _two_seats(browser, server, tmp_path, "", 4, cube=True)
    assert answers >= 8


@pytest.mark.slow
def test_two_people_play_hypergammon_to_the_last_checker(browser, server: str,
                                                         tmp_path: Path) -> None:
    """Without the cube, every throw played by clicks and typed plays to the bear-off."""
    answers = _two_seats(browser, server, tmp_path, "ladder.doubling=false", 6, cube=False)
    assert answers >= 12


def test_a_watcher_cannot_play_and_a_stale_page_is_told(browser, server: str) -> None:
    made = httpx_post(server, {"variant": "hypergammon", "white": "human", "black": "human",
                               "seed": 4})
    gid, seats = made["id"], made["seats"]
    both = f"{server}/game/{gid}?seat={seats['white']}&seat={seats['black']}"
    watcher = Seat(browser, f"{server}/game/{gid}")
    first = Seat(browser, both)
    # the same seats in a page that hears nothing more (a laptop that slept): stale
    second = Seat(browser, both, quiet=True)
    try:
        pg = watcher.page
        pg.locator("#board .hit").first.click()       # nothing to choose
        assert pg.locator("#board .picked").count() == 0
        _no_controls(watcher)
        old = second.page.evaluate("() => state.question.plays[0].label")
        _enter_play(first, typed=False)
        idle(first.page)
        watcher.page.wait_for_function(f"w => ({VIEW_JS})() === w", arg=first.view(),
                                       timeout=2000)
        assert second.view() != first.view()
        second.page.fill("#typed-play", old)
        second.page.click("#typed-send")
        second.page.wait_for_selector("#error:not(:empty)")
        error = second.page.locator("#error").text_content()
        assert error.startswith("the board has changed since your page showed it"), error
        assert "nothing was played" in error and "is not an answer" not in error
        # ...and shows the board as it is
        assert second.view() == first.view()
        assert second.page.locator("#asked").text_content() == \
            first.page.locator("#asked").text_content()
    finally:
        for s in (watcher, first, second):
            s.close()


def httpx_post(server: str, body: dict) -> dict:
    import httpx

    r = httpx.post(server + "/api/games", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def test_phone_targets_take_a_finger_beside_them(browser, server: str) -> None:
    """At 390×844 a point is narrower than a finger: a tap up to 20 px beside a checker that
    can move, or a highlighted point, chooses it (when nothing else that can be chosen is
    nearer); every clickable area is at least 40 px high."""
    seat = Seat(browser, server + "/", phone=True)
    try:
        pg = seat.page
        start(pg, server, "backgammon", 7)
        if pg.locator("button.answer").count():
            pg.tap('button[data-answer="roll"]')
            idle(pg)
        hits = pg.locator("#board rect.hit").all()
        assert hits and all(h.bounding_box()["height"] >= 40 for h in hits)
        movable = {int(g.get_attribute("data-pip")): g.locator(".hit").bounding_box()
                   for g in pg.locator("#board .movable").all()}
        # the narrow form (a phone held upright) stacks the points down the screen: beside a
        # point is above or below it there
        narrow = pg.locator("#board svg.narrow").count() == 1
        board = pg.locator("#board svg").bounding_box()
        pip, box = _lonely(movable, narrow)
        # beside it, over a point or the frame that cannot be chosen
        pg.touchscreen.tap(*_beside(box, board, narrow, before=True))
        idle(pg)
        assert pg.locator(f'#board .picked[data-pip="{pip}"]').count() == 1
        targets = {int(g.get_attribute("data-pip")): g.locator(".hit").bounding_box()
                   for g in pg.locator("#board .target").all()}
        assert all(b["height"] >= 40 for b in targets.values())
        pip, box = _lonely(targets, narrow)
        before = pg.locator("#entered").text_content()
        pg.touchscreen.tap(*_beside(box, board, narrow, before=False))
        idle(pg)
        assert pg.locator("#entered").text_content() != before
    finally:
        seat.close()


def _lonely(boxes: dict[int, dict], narrow: bool = False) -> tuple[int, dict]:
    """A pip whose area has no other choosable area within 40 px on either side (above and
    below it in the narrow form, where the points are stacked down the screen)."""
    along, across, size = ("y", "x", "width") if narrow else ("x", "y", "height")
    for pip, box in boxes.items():
        if all(abs(b[along] - box[along]) > 40 or b[across] >= box[across] + box[size]
               or box[across] >= b[across] + b[size]
               for p, b in boxes.items() if p != pip):
            return pip, box
    raise AssertionError(f"every choosable point has a neighbour: {sorted(boxes)}")


def _beside(box: dict, board: dict, narrow: bool, before: bool) -> tuple[float, float]:
    """A spot 12 px beside `box` on the board: before it (left, or above in the narrow form)
    or after it, on the other side where the board ends there."""
    if not narrow:
        return (box["x"] - 12 if before else box["x"] + box["width"] + 12,
                box["y"] + box["height"] / 2)
    above, below = box["y"] - 12, box["y"] + box["height"] + 12
    if before and above < board["y"] or not before and below > board["y"] + board["height"]:
        before = not before
    return box["x"] + box["width"] / 2, above if before else below


def _marked(seat: Seat, side: str) -> dict:
    """What the board on `seat`'s page marks on its rails: each colour's holes (its peg) and
    points (its jeton, 0 without one); the page's own side is the near rail's ("mover")."""
    other = "black" if side == "white" else "white"
    colour = {"mover": side, "opponent": other}
    out = {"holes": {}, "points": {"white": 0, "black": 0}}
    for el in seat.page.locator("#board .peg").all():
        out["holes"][colour[el.get_attribute("data-side")]] = int(el.get_attribute("data-holes"))
    for el in seat.page.locator("#board .jeton").all():
        out["points"][colour[el.get_attribute("data-side")]] = int(el.get_attribute("data-points"))
    return out


@pytest.mark.slow
def test_two_people_play_triktrak_and_both_pages_keep_the_score(browser, server: str,
                                                                 tmp_path: Path) -> None:
    """Triktrak between two seat pages, White on a desktop and Black on a phone: after each
    answer the other page shows it within 2 s, and on both pages the score box and the pegs
    and jetons on the rails say the score of the STATE, until a hole is won."""
    made = httpx_post(server, {"variant": "triktrak", "white": "human", "black": "human",
                               "seed": 5})
    seats = {"white": Seat(browser, made["links"]["white"]),
             "black": Seat(browser, made["links"]["black"], phone=True)}
    try:
        jetons_seen = False
        for answers in range(1, 61):
            side = _asked(seats)
            assert side is not None
            me, other = seats[side], seats["black" if side == "white" else "white"]
            if me.page.locator("#confirm").count():
                _enter_play(me, typed=answers % 4 == 0)
            else:
                me.press(me.page.locator("button.answer").first)
            idle(me.page)
            assert not me.page.locator("#error").text_content()
            made_at = time.monotonic()
            other.page.wait_for_function(f"w => ({VIEW_JS})() === w", arg=me.view(),
                                         timeout=2000)
            assert time.monotonic() - made_at < 2.0
            state = me.page.evaluate("() => state")
            sides = state["score"]["sides"]
            want = {"holes": {"white": sides["holes"][0], "black": sides["holes"][1]},
                    "points": {"white": sides["points"][0], "black": sides["points"][1]}}
            for name, seat in seats.items():
                assert _marked(seat, name) == want, (name, answers)
                # the score box in words, each page naming its own side first
                points, holes = seat.page.locator("#score").text_content().split("holes: ")
                for colour, i in (("white", 0), ("black", 1)):
                    assert re.search(rf"\b{colour} {sides['points'][i]}\b", points), points
                    assert re.search(rf"\b{colour} {sides['holes'][i]}\b", holes), holes
            jetons_seen |= any(sides["points"])
            if jetons_seen and any(sides["holes"]):
                break
        else:
            raise AssertionError("no hole was won in 60 answers")
        shot(seats["white"].page, tmp_path, "triktrak-seats-white")
        shot(seats["black"].page, tmp_path, "triktrak-seats-black-phone")
    finally:
        for seat in seats.values():
            seat.close()


@pytest.mark.parametrize("variant,seed,dice", [("backgammon", 20, "4-2"),
                                               ("triktrak", 3, "3-2")])
def test_on_a_phone_the_narrow_board_gives_every_point_and_checker_a_finger(
        browser, server: str, tmp_path: Path, variant: str, seed: int, dice: str) -> None:
    """At 390×844 the page shows the board's narrow form (turned a quarter turn, points
    stacked down the screen): every point and every checker that can move is at least 40 px
    in its smaller dimension and inside the screen, and a tap on a checker then on a
    highlighted point enters the step."""
    seat = Seat(browser, server + "/", phone=True)
    try:
        pg = seat.page
        start(pg, server, variant, seed)
        if pg.locator("button.answer").count():
            pg.tap("button.answer >> nth=0")
            idle(pg)
        assert pg.locator("#board svg.narrow").count() == 1
        assert f"white on roll, {dice}" in pg.locator("#status").text_content()
        points = pg.locator("#board .point rect.hit").all()
        assert len(points) == 24
        sizes = []
        for hit in points + pg.locator("#board .movable circle.checker").all():
            box = hit.bounding_box()
            sizes.append(min(box["width"], box["height"]))
            assert _inside(box, 390, 844), box
        assert pg.locator("#board .movable circle.checker").count()
        assert min(sizes) >= 40, sorted(sizes)[:3]
        # the checker's middle (its point's area lies over it and takes the tap)
        box = pg.locator("#board .movable circle.checker").last.bounding_box()
        pg.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        idle(pg)
        assert pg.locator("#board .picked").count() == 1
        target = pg.locator("#board .target .hit").first
        box = target.bounding_box()
        assert min(box["width"], box["height"]) >= 40 and _inside(box, 390, 844)
        pg.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        idle(pg)
        assert pg.locator("#entered").text_content() not in ("", "—")
        pg.screenshot(path=str(tmp_path / f"narrow-{variant}.png"), full_page=False)
        if os.environ.get("TABLIER_PHONE_SHOTS"):
            pg.screenshot(path=os.path.join(os.environ["TABLIER_PHONE_SHOTS"],
                                            f"narrow-{variant}.png"), full_page=False)
    finally:
        seat.close()
