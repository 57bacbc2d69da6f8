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
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (the test extra has it)")

from interpreter.draw import CHROMIUM_ARGS, chromium_path  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine "
                                "(apt-get install chromium; .ci/run does)")
DOC_SHOTS = os.environ.get("TABLIER_DOC_SHOTS") == "1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> str:
    port = _free_port()
    config = uvicorn.Config(create_app(port=port, request_seconds=60), host="127.0.0.1",
                            port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


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


def idle(pg) -> None:
    pg.wait_for_selector('body[data-busy="0"]')


def start(pg, server: str, variant: str, seed: int, options: str = "") -> None:
    pg.goto(server + "/")
    pg.select_option("#variant", variant)
    pg.select_option("#white", "human")
    pg.select_option("#black", "greedy")
    pg.fill("#seed", str(seed))
    if options:
        pg.fill("#set", options)
    pg.click("#start")
    pg.wait_for_url("**/game/**")
    idle(pg)


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
