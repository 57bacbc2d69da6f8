"""Plays in pip from/to notation, as gnubg writes and reads them: `24/18 13/11*`.

Pips are the mover's (kernel/board.py): bar = 25, off = 0; a checker entering from off the board
(acey-deucey's unentered checkers, source 29) is written `in/20`. `move_text` writes a path of
steps, `parse_move` reads a text back into steps, `expand_steps` splits steps written over several
dice, and `read_play` finds the one legal play a text names among the plays of a position.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from interpreter.errors import RecordError
from interpreter.kernel.board import POOL as UNENTERED   # a step entering from off the board

Step = tuple[int, int]



_MOVE_TOKEN = re.compile(
    r"(?P<num>[0-9]{1,3})|(?P<bar>b(?:ar?)?)|(?P<off>o(?:ff?)?|-)|(?P<enter>in)|(?P<slash>/)"
    r"|(?P<hit>\*)"
    r"|\((?P<rep>[0-9]{1,3})\)|(?P<sep>[\s,]+)",
    re.IGNORECASE | re.ASCII)


def _parse_play(text: str) -> tuple[list[Step], set[int]]:
    """Steps and hit-marked points of a play text; RecordError for anything gnubg refuses."""
    chains: list[list[int]] = []
    hits: set[int] = set()
    linked = False       # a '/' waits for its point
    pos = 0
    while pos < len(text):
        m = _MOVE_TOKEN.match(text, pos)
        if not m:
            raise RecordError(f"unreadable play {text!r}: unexpected {text[pos]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind == "sep":
            if linked:
                raise RecordError(f"unreadable play {text!r}: a '/' is not followed by a point")
            continue
        if kind in ("num", "bar", "off", "enter"):
            if kind == "num":
                point = int(m.group("num"))
                if point > 25:
                    raise RecordError(f"unreadable play {text!r}: there is no point {point}")
            else:
                point = {"bar": 25, "off": 0, "enter": UNENTERED}[kind]
            if linked:
                chains[-1].append(point)
                linked = False
            else:
                chains.append([point])
        elif kind == "slash":
            if not chains or linked:
                raise RecordError(f"unreadable play {text!r}: a '/' must follow a point")
            linked = True
        elif kind == "hit":
            if not chains or linked:
                raise RecordError(f"unreadable play {text!r}: a '*' must follow a point")
            hits.add(chains[-1][-1])
        else:  # "(n)": the whole preceding move, n times in all
            n = int(m.group("rep"))
            if not chains or linked or len(chains[-1]) < 2:
                raise RecordError(f"unreadable play {text!r}: '({n})' must follow a move")
            if n < 2:
                raise RecordError(f"unreadable play {text!r}: a repeat count must be 2 or more")
            chains += [list(chains[-1]) for _ in range(n - 1)]
    if linked:
        raise RecordError(f"unreadable play {text!r}: it ends with '/'")
    steps: list[Step] = []
    for chain in chains:
        if len(chain) < 2:
            raise RecordError(f"unreadable play {text!r}: {chain[0]} has no destination "
                              f"(points are separated by '/')")
        for a, b in zip(chain, chain[1:]):
            if a == 0:
                raise RecordError(f"unreadable play {text!r}: a checker cannot move from off "
                                  f"the board")
            if b in (25, UNENTERED):
                raise RecordError(f"unreadable play {text!r}: a checker cannot move to the bar "
                                  f"or off the board")
            if b >= a:
                raise RecordError(f"unreadable play {text!r}: {a}/{b} does not move toward "
                                  f"home")
            steps.append((a, b))
    if len(steps) > 4:
        raise RecordError(f"unreadable play {text!r}: {len(steps)} moves (at most 4)")
    return steps, hits


def parse_move(text: str) -> list[Step]:
    """The ``(from, to)`` steps of a play written in a ``.mat`` file, in the mover's pip numbering.

    Accepted as gnubg accepts them: numbers 0-25, ``bar``/``b`` (25) and ``off``/``o``/``-`` (0)
    (and ``in`` for a checker entering from off the board, 29)
    in any case, chains (``13/7*/1`` is 13/7 then 7/1), ``(n)`` repeating the preceding move n
    times in all, ``*`` hit marks and ``,`` separators (ignored), at most four steps. A step
    written over both dice (``10/5`` for 4-1) is returned as written; see :func:`expand_steps`.
    Raises RecordError quoting the text.

    >>> parse_move("25/24*(2) 6/off")
    [(25, 24), (25, 24), (6, 0)]
    >>> parse_move("")
    []
    """
    if not isinstance(text, str):
        raise RecordError(f"a play must be a string, not {text!r}")
    return _parse_play(text)[0]


def move_text(steps: Iterable[Sequence[int]], board: Sequence[int] | None = None) -> str:
    """A play as gnubg writes it in ``.mat`` files: ``from/to`` steps in the order given, bar as
    25 and off as 0, single spaces between them.

    With `board` (the 28-int board of :mod:`interpreter.kernel.board` before the play, seen from
    the mover) a ``*`` follows each destination that held an opponent checker at the start of the
    play, once per point, as gnubg marks hits.

    >>> move_text([(13, 7), (7, 1)])
    '13/7 7/1'
    >>> move_text([(25, 22), (6, 4)], board=(0,) + (0,) * 21 + (-1,) + (0,) * 5)
    '25/22* 6/4'
    """
    parts: list[str] = []
    marked: set[int] = set()
    for step in steps:
        a, b = int(step[0]), int(step[1])
        if not ((1 <= a <= 25 or a == UNENTERED) and 0 <= b <= 24):
            raise RecordError(f"no such step {a}/{b} (from 1-25, to 0-24)")
        text = f"{'in' if a == UNENTERED else a}/{b}"
        if board is not None and 1 <= b <= 24 and board[b] < 0 and b not in marked:
            text += "*"
            marked.add(b)
        parts.append(text)
    return " ".join(parts)


def expand_steps(steps: Sequence[Step], dice: tuple[int, int],
                 board: Sequence[int] | None = None) -> list[Step]:
    """Split steps written over several dice into single-die steps, as gnubg does on import.

    With a doublet, a step of k dice (``23/5`` for 6-6) becomes k steps; a bear-off step is cut
    the same way, its last part taking the checker off. With two different dice, a lone step
    over both (``10/5`` for 4-1) is split trying the first-written die first; with `board` (the
    mover's board before the play) the intermediate point must hold no opponent checker. Steps
    that fit no such pattern are returned unchanged: the rules decide whether they are legal.

    >>> expand_steps([(23, 5)], (6, 6))
    [(23, 17), (17, 11), (11, 5)]
    >>> expand_steps([(10, 5)], (4, 1))
    [(10, 6), (6, 5)]
    """
    d1, d2 = dice
    if d1 == d2:
        out: list[Step] = []
        for a, b in steps:
            dist = a - b
            if dist > d1 and (dist % d1 == 0 or b == 0):
                while a - b > d1:
                    out.append((a, a - d1))
                    a -= d1
            out.append((a, b))
        return out
    if len(steps) == 1 and steps[0][0] - steps[0][1] == d1 + d2:
        a, b = steps[0]
        for first, second in ((d1, d2), (d2, d1)):
            mid = a - first
            if board is None or board[mid] >= 0:
                return [(a, mid), (mid, b)]
    return list(steps)


def play_text(before: Sequence[int], path: Sequence[Any]) -> str:
    """The text of a play from `before` (the mover's view) along `path` (kernel steps, whose
    first two fields are from and to); `-` for a play that moves nothing."""
    if not path:
        return "-"
    return move_text([(s[0], s[1]) for s in path], board=before)


def write_play(plays: Sequence[Any], before: Sequence[int], after: Sequence[int]) -> str:
    """The text of the legal play among `plays` (kernel `Play`s) that ends on `after`."""
    if tuple(before) == tuple(after):
        return "-"
    for play in plays:
        if play.board == after:
            return play_text(before, play.paths[0])
    raise RecordError("no legal play reaches the position to write")


def read_play(text: str, plays: Sequence[Any], before: Sequence[int],
              dice: tuple[int, int]) -> Any:
    """The one legal play (of `plays`) that the text names, as gnubg reads plays: the steps,
    expanded over the dice, must be those of one of its paths. RecordError names the text and
    why it names no legal play."""
    text = text.strip()
    if text in ("-", ""):
        found = [p for p in plays if not p.paths or not p.paths[0]]
        if found:
            return found[0]
        raise RecordError(f"{text or '-'!r} plays nothing, but a play is possible")
    written = parse_move(text)
    found = []
    # the steps as written first (a board whose off is reached short of pip 0 writes `7/0`
    # for one number), then split over the dice as gnubg splits `23/5` for 6-6
    for steps in (written, expand_steps(written, dice, before)):
        want = Counter(steps)
        found = [p for p in plays
                 if any(path and Counter((s[0], s[1]) for s in path) == want
                        for path in p.paths)]
        if found:
            break
    if len(found) == 1:
        return found[0]
    if not found:
        raise RecordError(f"{text!r} is not a legal play with {dice[0]}-{dice[1]}")
    raise RecordError(f"{text!r} names {len(found)} different legal plays")
