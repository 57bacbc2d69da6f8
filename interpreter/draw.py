"""`tablier draw POSITION.json [--svg FILE | --png FILE]`: one position as the terminal board, as
SVG (interpreter/svg.py, the web board's renderer) or as PNG.

PNG is the SVG rendered by headless Chromium through Playwright (the `web` extra's browser
driver, with Debian's `/usr/bin/chromium` or any Chromium Playwright finds): the picture is the
one the web board shows, pixel for pixel, with no second renderer to keep in step.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from interpreter.bounded import MAX_FILE_BYTES, parse_json, read_json
from interpreter.errors import TablierError
from interpreter.notation import cli_notation

#: where Debian installs Chromium; `TABLIER_CHROMIUM` names another
CHROMIUM = "/usr/bin/chromium"
#: Chromium's switches for a headless run on a machine without network or display
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    """The Chromium executable to drive: `$TABLIER_CHROMIUM`, Debian's, or one on the PATH."""
    for candidate in (os.environ.get("TABLIER_CHROMIUM"), CHROMIUM):
        if candidate and Path(candidate).is_file():
            return candidate
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def read_position_arg(source: str | None) -> dict:
    """The position JSON of a file, or of stdin (no file, or `-`), within bounds."""
    if source in (None, "-"):
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise TablierError("the position on stdin is larger than 1 MiB")
        obj = parse_json(text.strip() or "null", limit=MAX_FILE_BYTES)
    else:
        obj = read_json(source)
    if not isinstance(obj, dict):
        raise TablierError("a position is a JSON object: {\"points\": [...], \"bar\", \"off\", "
                           "\"dice\"}")
    return obj


def draw_svg(variant: Any, obj: dict, *, side: str = "mover", mirror: bool = False,
             labels: dict[int, str] | None = None) -> str:
    """The SVG of a position object of `variant` (seen by the mover), drawn from the mover's
    side or the opponent's."""
    from interpreter.analysis import read_position
    from interpreter.svg import position_svg

    pos = read_position(variant, obj, need_dice=False)
    dice = ((pos.d1, pos.d2, pos.d3) if pos.d3 else (pos.d1, pos.d2)) if pos.d1 else None
    return position_svg(variant, pos.board, dice=dice, mover=0,
                        side=0 if side == "mover" else 1, mirror=mirror, labels=labels,
                        marking=marking_arg(variant, obj))


#: the keys of a position's `state.score`: [mover, opponent] pairs
SCORE_KEYS = ("points", "holes", "mark_holes", "honours_holes", "games", "bredouille",
              "banner", "necktie")


def marking_arg(variant: Any, obj: dict) -> Any:
    """The holes and points a position's `state.score` gives ([mover, opponent] pairs of
    `points`, `holes`, and where the ladder has them `mark_holes`, `honours_holes`, `games`,
    `bredouille`, `banner`, `necktie`), drawn on the frame of the trictrac family's boards;
    none given, the pegs at the start and no jeton. None for the other ladders."""
    from interpreter.errors import PositionError
    from interpreter.svg import marking_of

    from interpreter.scoring.registry import ladder_class

    model = getattr(variant, "ladder", None)
    pegs = ladder_class(model).peg_key
    if pegs is None:
        return None
    state = obj.get("state")
    score = state.get("score") if isinstance(state, dict) else None
    if score is None:
        return marking_of({"points": [0, 0], pegs: [0, 0]})
    if not isinstance(score, dict):
        raise PositionError("'state.score' is an object of [mover, opponent] pairs: "
                           "{\"points\": [4, 0], \"holes\": [2, 1]}")
    for key, value in score.items():
        if key not in SCORE_KEYS:
            raise PositionError(f"'state.score': unknown key {str(key)[:40]!r} (the keys are "
                               f"{', '.join(SCORE_KEYS)})")
        flag = key in ("bredouille", "banner", "necktie")
        if not (isinstance(value, list) and len(value) == 2 and all(
                isinstance(x, bool) if flag else
                (isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 999)
                for x in value)):
            raise PositionError(f"'state.score.{key}' must be a [mover, opponent] pair of "
                               + ("true or false" if flag else "whole numbers from 0 to 999"))
    sides = {"points": [0, 0], pegs: [0, 0], **score}
    return marking_of(sides)


def svg_to_png(svg: str, path: str, width: int = 900) -> None:
    """Render SVG text to a PNG file with headless Chromium."""
    exe = chromium_path()
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise TablierError("--png needs Playwright: pip install 'tablier[web]' (and Chromium: "
                           "apt-get install chromium)") from None
    html = (f"<!doctype html><html><body style='margin:0;background:#fff'>"
            f"<div id='b' style='width:{width}px'>{svg}</div></body></html>")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": width, "height": 800})
                page.set_content(html)
                png = page.locator("svg").first.screenshot()
            finally:
                browser.close()
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "failed"
        raise TablierError(f"--png: headless Chromium could not render the board ({first}); "
                           f"install it with apt-get install chromium, or write --svg") from None
    from interpreter.outputs import write_output
    write_output(path, png)


def on_roll_of(obj: dict) -> int:
    """The side on roll of a position: `"on_roll"` (or `"state": {"on_roll": ...}`), "white"
    unless it says "black" (for the notations that name points by colour)."""
    state = obj.get("state")
    if not isinstance(state, dict):
        state = {}
    on_roll = obj.get("on_roll", state.get("on_roll", "white"))
    if on_roll not in ("white", "black"):
        raise TablierError(f"'on_roll' must be \"white\" or \"black\", not "
                           f"{str(on_roll)[:40]!r}")
    return 0 if on_roll == "white" else 1


def draw_terminal(variant: Any, obj: dict, notation: Any, on_roll: int = 0,
                  side: str = "mover") -> None:
    """The terminal board of a position (interpreter/terminal.py, as a person at the board sees
    it), its points named in `notation`; `side` "opponent" draws it from the other side."""
    from interpreter.analysis import read_position
    from interpreter.terminal import console_for, draw_board

    pos = read_position(variant, obj, need_dice=False)
    board, seen = pos.board, on_roll
    if side != "mover":
        board, seen = variant.flip(board), 1 - on_roll
    console_for(sys.stdout).print(draw_board(variant, board, seen, notation), end="")


def run(args: Any) -> int:
    from interpreter.variant.build import load_variant

    obj = read_position_arg(args.position)
    ref = args.variant
    if ref is None:
        from interpreter.variant.loader import record_variant

        # a position names its variant as a record does: a built-in id or a `.toml` file
        ref = record_variant(obj["variant"]) if "variant" in obj else "backgammon"
    variant = load_variant(ref, args.overrides)
    notation = cli_notation(variant, getattr(args, "notation", None))
    on_roll = on_roll_of(obj)
    if args.svg is None and args.png is None:
        draw_terminal(variant, obj, notation, on_roll, args.side)
        return 0
    seen = on_roll if args.side == "mover" else 1 - on_roll
    labels = None if notation.name == "pips" else \
        {p: notation.label(p, seen) for p in range(1, variant.geometry.points + 1)}
    svg = draw_svg(variant, obj, side=args.side, mirror=args.mirror, labels=labels)
    if args.svg is not None:
        if args.svg == "-":
            sys.stdout.write(svg + "\n")
        else:
            from interpreter.outputs import write_output
            write_output(args.svg, svg + "\n")
    if args.png is not None:
        from interpreter.outputs import output_fault
        fault = output_fault(args.png)
        if fault is not None:
            raise TablierError(fault)
        svg_to_png(svg, args.png)
    return 0
