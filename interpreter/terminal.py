"""The board and the score in the terminal: what `tablier draw` prints and what a person at the
board sees before each decision (players/human.py).

Everything is built as rich `Text` (styled spans over plain text): printed through a rich
`Console` it is in colour where the terminal has colour, and plain when the output is not a
terminal or `NO_COLOR` is set; `.plain` is the same text without styles (tests, pipes).

The board is drawn from the side of the player on roll, as the position JSON holds it, and laid
out as the web board lays it out (`rows_of`): backgammon as gnubg draws it, his pips 13..24
above and 12..1 below, his home board at the lower right; the trictrac family and the 12-point
Tric-Trac as their boards are, his own row below from his talon at the left to his coin de
repos at the right, the opponent's row above, both talons at the left; a route of 12 points as
one half of the board (his pips 12..7 below, 1..6 above), one of 18 as three quarters, the
fourth "(not used)"; the 36 points of XII scripta as three rows of twelve, his far row 13..24
above, the shared middle row 36..25 (where both enter) between, his near row 12..1 below, an
arrow at the end of each row saying which way his men run. `X` are white's
checkers and `O` black's, with their count; the points are named in the chosen notation. A
pinned checker (Plakoto) is the small letter after the stack that pins it (`X1o`: one of
white's pins one of black's); checkers waiting off the board to enter (acey-deucey) are counted
under the board (`waiting X7 O11`), and so are both sides' pips where the variant is a race
to bear off (`pips X167 O167`). A pair of men still stacked one on the other (Doblet) is
marked `=` after its count (`X2=`), and the pairs each side still has stacked are counted under
the board.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import Any, Sequence, TextIO

from rich.console import Console
from rich.text import Text

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, OPP_POOL, PINS, POOL, their_pip
from interpreter.notation import Notation, chosen
from interpreter.scoring.registry import ladder_class

SIDES = ("white", "black")
MARKS = ("X", "O")
STYLES = {"X": "bold bright_white", "O": "bold red", "label": "cyan", "named": "bold green",
          "title": "bold", "score": "yellow", "rule": "green", "dim": "dim",
          "moved": "reverse"}
CELL = 4


def console_for(stream: TextIO | None = None) -> Console:
    """A console on `stream` (stdout): colour only on a terminal without `NO_COLOR`."""
    stream = stream if stream is not None else sys.stdout
    colour = bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ
    return Console(file=stream, force_terminal=colour, no_color=not colour,
                   color_system="auto" if colour else None, highlight=False, soft_wrap=True,
                   emoji=False, markup=False)


def terminal_width() -> int:
    """The columns of the terminal (`COLUMNS`, else the terminal's own width, else 80), never
    fewer than 40: what every line printed for a person at the board fits in."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


#: a numbered line of the log or of `list` (`  12. white 5-4 ...`): its continuation lines
#: are indented under the text after the number
_NUMBERED = re.compile(r"^\s*\d+\.\s+")


def fit(text: str, width: int | None = None) -> list[str]:
    """`text` (one line) wrapped by words to `width` columns (the terminal's): no word is cut,
    and a continued line is indented under the text it continues."""
    width = terminal_width() if width is None else width
    if len(text) <= width:
        return [text]
    m = _NUMBERED.match(text)
    lead = len(text) - len(text.lstrip(" "))
    indent = " " * (len(m.group(0)) if m else lead + 2)
    if len(indent) > width // 2:
        indent = "  "
    return textwrap.wrap(text, width=width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True) or [text]


def fit_items(head: str, items: list[str], width: int | None = None, sep: str = " · ",
              indent: str = "  ") -> list[str]:
    """`head` then `items` joined by `sep`, broken into lines of `width` columns between items
    (an item is never split, unless it is alone wider than a line)."""
    width = terminal_width() if width is None else width
    lines: list[str] = []
    cur = head
    mark = sep.strip()                  # ends a line broken between two items
    for i, item in enumerate(items):
        piece = (sep if i else " ") + item if cur else item
        room = len(mark) + 1 if i < len(items) - 1 else 0
        if cur.strip() and len(cur) + len(piece) + room > width:
            lines.append(cur + (" " + mark if i else ""))
            cur = indent + item
        else:
            cur += piece
    lines.append(cur)
    out: list[str] = []
    for line in lines:
        out += fit(line, width)
    return out


def _cell(x: int, mover: int, changed: bool = False, pinned: bool = False,
          stacked: bool = False) -> Text:
    """The checkers on one point: `X3` (three of white's), `O2`, or `.`; `X1o` when the stack
    pins one of the other side's checkers; `X2=` when they are a pair still stacked."""
    if x == 0:
        return Text(".".rjust(CELL), style=STYLES["dim"])
    owner = mover if x > 0 else 1 - mover
    mark = MARKS[owner]
    style = STYLES[mark] + (" " + STYLES["moved"] if changed else "")
    text = f"{mark}{abs(x)}" + (MARKS[1 - owner].lower() if pinned else "") \
        + ("=" if stacked else "")
    return Text(" " * (CELL - len(text)) + text, style=style)


def _label(notation: Notation, pip: int, side: int) -> Text:
    label = notation.label(pip, side)
    named = notation.point_name(pip) is not None
    return Text(label.rjust(CELL), style=STYLES["named" if named else "label"])


def has_bar(variant: Any) -> bool:
    return getattr(variant.move_rules, "enter", "bar") == "bar"


def races(variant: Any) -> bool:
    """Whether the variant is a race to bear off (its throws and plays score nothing: the
    backgammon family, plakoto, long nardy, acey-deucey), where players count their pips."""
    rules = variant.rules
    return not rules.score_roll and not rules.score_play


def pip_counts(variant: Any, board: Any) -> tuple[int, int]:
    """The pips each side still has to travel to bear all his men off, (the mover's, the
    opponent's), on the mover's board: a man on the bar or waiting to enter counts 25, a pinned
    man where he stands."""
    route = variant.geometry.route
    # a route of 12 or 18 points: a man off the board is one pip before its first point
    n = getattr(variant.geometry, "points", 24)
    me = (n + 1) * board[BAR]
    them = (n + 1) * board[OPP_BAR]
    pins = board[PINS] if len(board) > PINS else 0
    slots = variant.geometry.slots if n > 24 else range(n + 1)
    for p in range(1, n + 1):
        x = board[slots[p]]
        if x > 0:
            me += x * p
            if pins >> p & 1:
                them += their_pip(route, p, n)
        elif x < 0:
            them += -x * their_pip(route, p, n)
            if pins >> p & 1:
                me += p
    if len(board) > OPP_POOL:
        me += (n + 1) * board[POOL]
        them += (n + 1) * board[OPP_POOL]
    return me, them


def draw_board(variant: Any, board: Any, side: int, notation: Notation,
               before: Any = None, final: bool = False, on_roll: int | None = None,
               width: int | None = None, legend: bool = True, choices: bool = True) -> Text:
    """The board `board` (seen by the player on roll, `side`: 0 white, 1 black) with its points
    named in `notation`; points that differ from `before` (a play being entered) are shown
    reversed. Where the variant is a race the pip counts are shown below. `final`: the board
    at the end of the game, seen by `side` (nobody is on roll); `on_roll`: the player on roll
    when he is not `side` (the opponent doubling before his throw). The lines under the board
    are broken between their parts to fit `width` columns (the terminal's); `legend`: the
    names of the points are written under it; `choices`: the choices made before the game
    (`[turn.choose]`, the goal quarter of Doze canes) are said under it, by their labels in
    the pips of `side` (False while they are still to be made)."""
    width = terminal_width() if width is None else width
    out = Text()
    # the pairs still stacked (`[board] stacked`, Doblet), either side's, on the mover's pips
    mine, theirs = variant.geometry.stacked(board) if getattr(
        variant.geometry, "stacks", False) else ([], [])
    stacks = set(mine) | set(theirs)
    geometry = variant.geometry
    wide = getattr(geometry, "wide", False)
    if wide and not notation.wide:
        from interpreter.notation import notation_for
        notation = notation_for(variant)
    slot = geometry.slots if wide else range(25)

    def row(pips: Sequence[int | None], cells: bool) -> None:
        for i, p in enumerate(pips):
            if p is None:
                # the quarter a route of 18 points leaves unused, said once on its row
                if cells:
                    out.append(" |  (not used)", style=STYLES["dim"])
                break
            if i == 6:
                out.append(" |", style=STYLES["dim"])
            if cells:
                s = slot[p]
                changed = before is not None and before[s] != board[s]
                pinned = not wide and len(board) > 28 and bool(board[28] >> p & 1)
                out.append_text(_cell(board[s], side, changed, pinned, p in stacks))
            else:
                out.append_text(_label(notation, p, side))
        if wide and not cells:
            # which way the mover's men run along the row: the route read from the labels
            first, last = pips[0], pips[-1]
            out.append("  " + ("→" if (first or 0) > (last or 0) else "←"),
                       style=STYLES["dim"])
        out.append("\n")

    top, bottom = rows_of(variant)
    row(top, False)
    row(top, True)
    if wide:
        middle = range(36, 24, -1)
        out.append("\n")
        row(middle, False)
        row(middle, True)
        out.append("\n")
    row(bottom, True)
    row(bottom, False)
    mover, other = MARKS[side], MARKS[1 - side]
    parts = []
    if has_bar(variant):
        parts.append(f"bar {mover}{board[BAR]} {other}{board[OPP_BAR]}")
    parts.append(f"off {mover}{board[OFF]} {other}{board[OPP_OFF]}")
    if len(board) > 30 and (board[29] or board[30]):
        parts.append(f"waiting {mover}{board[29]} {other}{board[30]}")
    if stacks:
        parts.append(f"stacked pairs: {mover}{len(mine)} {other}{len(theirs)} (marked =)")
    if choices:
        for rule, label, _pips in chosen(variant, board):
            parts.append(f"{rule.title}: {label}")
    if races(variant):
        mine, theirs = pip_counts(variant, board)
        parts.append(f"pips {mover}{mine} {other}{theirs}")
    who = f"seen by {SIDES[side]}" if final else f"{SIDES[side]} on roll" \
        if on_roll in (None, side) else f"seen by {SIDES[side]}, {SIDES[on_roll]} on roll"
    first = getattr(variant.geometry, "points", 24)
    if wide:
        parts.append(f"({MARKS[0]} white, {MARKS[1]} black; {who}, entering on the middle row "
                     f"and moving from {notation.label(first, side)} along it, then from "
                     f"{notation.label(24, side)} along the far row and from "
                     f"{notation.label(12, side)} along the near row towards "
                     f"{notation.label(1, side)})")
    else:
        parts.append(f"({MARKS[0]} white, {MARKS[1]} black; {who}, moving from "
                     f"{notation.label(first, side)} towards {notation.label(1, side)})")
    # the parts on one line while they fit, else as many lines as they need
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) > width:
            lines.append(part)
        else:
            lines[-1] += "   " + part
    for line in lines:
        for piece in fit(line, width):
            out.append(piece + "\n", style=STYLES["dim"])
    for line in named_points_lines(notation, side, width) if legend else ():
        out.append(line + "\n", style=STYLES["dim"])
    return out


def rows_of(variant: Any) -> tuple[Sequence[int | None], Sequence[int | None]]:
    """The pips of the upper and the lower row, left to right, as the web board lays them out
    (interpreter/svg.py): backgammon as gnubg, the player's pips 13..24 above and 12..1 below,
    his home board at the lower right; a board with coins (the trictrac family, the 12-point
    Tric-Trac) with the player's own row below, from his talon (Start) at the left to his coin
    at the right, and the opponent's row above, from his talon at the left. A route of 12
    points is one half of the board: the player's pips 12..7 below, 1..6 above (pip 1 across
    from pip 12); a route of 18 points is the first three quarters of backgammon's, its pips
    7..18 above and 6..1 below, the last quarter (None) unused. A board of 36 points draws its
    outer rows as backgammon's, its middle row (pips 36..25, left to right) between them."""
    points = getattr(variant.geometry, "points", 24)
    if points == 12:
        return range(1, 7), range(12, 6, -1)
    if points == 18:
        return range(7, 19), [*range(6, 0, -1), *[None] * 6]
    mr = variant.move_rules
    if mr.own_corner is not None or mr.opp_corner is not None:
        return range(1, 13), range(24, 12, -1)
    return range(13, 25), range(12, 0, -1)


def _named_items(notation: Notation, side: int) -> list[str]:
    return [f"{name} {notation.label(pip, side)}, "
            f"{notation.label(their_pip(notation.route, pip), side)}"
            for pip, name in sorted(notation.names.items(), reverse=True)]


def named_points_lines(notation: Notation, side: int, width: int | None = None) -> list[str]:
    """The point names beside their labels, the player on roll's point then the opponent's
    (`talon T, T' · coin de repos 11, 11'`), broken between two names to fit `width` columns
    (none: the notation names no point)."""
    if not notation.names:
        return []
    return fit_items(f"named points ({SIDES[side]}'s, {SIDES[1 - side]}'s):",
                     _named_items(notation, side), width)


# -- the score --------------------------------------------------------------------------------

def ladder_lines(state: dict, names: tuple[str, str] = ("you", "opponent")) -> list[str]:
    """The running score of every ladder from a decision's `view.ladder` (seen by the player
    asked; `names` are his and his opponent's), in the ladder's words."""
    return ladder_class(state).state_lines(state, names)


def score_lines(variant: Any, items: list, side: int, names: tuple[str, str]) -> list[str]:
    """What a throw scores rule by rule: `Jan de mézéas, 4 points to you (2 ways)`. `items` are
    (rule id, "mover" | "opponent", points, ways) of the throw of `side`; `names` (his, the
    other's)."""
    rules = variant.model.rules
    out = []
    for rule_id, to, pts, ways in items:
        rule = rules.get(rule_id)
        name = rule.name if rule is not None else rule_id
        who = names[0] if to == "mover" else names[1]
        out.append(f"{name}, {pts} point{'s' if pts != 1 else ''} to {who}"
                   + (f" ({ways} ways)" if ways > 1 else ""))
    return out
