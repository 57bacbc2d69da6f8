"""Plays in pip from/to notation, as gnubg writes and reads them: `24/18 13/11*`.

Pips are the mover's (kernel/board.py): bar = 25, off = 0; a checker entering from off the
board (acey-deucey's unentered checkers, source 29) is written `in/20`; the unstacking of the
mover's pair on pip 19 (`[board] stacked`, Doblet), a step from 19 to 19 that moves nothing,
`19u`. `move_text` writes a path of
steps, `parse_move` reads a text back into steps, `expand_steps` splits steps written over several
dice, and `read_play` finds the one legal play a text names among the plays of a position.

`read_steps` is the one parser of play texts: gnubg's (here) and every notation of `--notation`
(interpreter/notation.py) call it with their tokens, their point names and their limits (a
`Reading`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.errors import RecordError
from interpreter.kernel.board import POOL as UNENTERED   # a step entering from off the board

Step = tuple[int, int]


@dataclass(frozen=True)
class Reading:
    """What one notation says of its play texts, for `read_steps` (the one parser of plays):
    the error it raises, the pip a point token names (`point`, raising `error` with the reason),
    how a pip is written back in messages, and its limits."""

    error: type[Exception]
    point: Callable[[str], int]
    label: Callable[[int], str] = str
    #: the repeat counts `(n)` accepted (None: no upper bound) and the message for the others
    repeats: tuple[int, int | None] = (2, None)
    repeat_message: str = "a repeat count must be 2 or more"
    #: the pips a step may not end on, and why
    no_destination: tuple[int, ...] = (25,)
    no_destination_message: str = "a checker cannot move to the bar"
    backwards: Callable[[int, int], str] = lambda a, b: f"{a}/{b} does not move toward home"
    max_steps: int = 4
    steps_message: Callable[[int], str] = lambda n: f"{n} moves (at most 4)"
    #: the numbers the words name: the bar and the checkers waiting to enter (a board of 36
    #: points, where 25 and 29 are pips, names them 37 and 38)
    bar: int = 25
    unentered: int = UNENTERED


def read_steps(text: str, scan: str, pattern: re.Pattern[str], reading: Reading,
               hits: list[int] | None = None) -> list[Step]:
    """The (from, to) pip steps of a play text in the order written: chains are split (`8/2/1`
    is 8/2 then 2/1), `(n)` repeats the preceding move n times in all, `*` marks a hit (the
    pips marked are appended to `hits` when it is given) and `,` separates. `scan` is the text
    as read (`text` as messages quote it); `pattern` matches one token, with the groups
    `point`, `bar`, `off`, `unentered`, `slash`, `hit`, `rep` and `sep` (and `unstack`, a
    `u` after a point: the pair stacked there unstacked, the step (p, p)). Raises
    `reading.error` quoting the text."""
    error = reading.error
    where = f"unreadable play {text!r}"
    chains: list[list[int]] = []
    #: the chains that are one unstacking each (`19u`)
    unstacked: set[int] = set()
    linked = False       # a '/' waits for its point
    pos = 0
    while pos < len(scan):
        m = pattern.match(scan, pos)
        if not m or m.end() == pos:
            raise error(f"{where}: unexpected {scan[pos]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind == "sep":
            if linked:
                raise error(f"{where}: a '/' is not followed by a point")
            continue
        if kind in ("point", "bar", "off", "unentered"):
            if kind == "point":
                try:
                    point = reading.point(m.group("point"))
                except error as exc:
                    raise error(f"{where}: {exc}") from None
            else:
                point = {"bar": reading.bar, "off": 0, "unentered": reading.unentered}[kind]
            if linked:
                chains[-1].append(point)
                linked = False
            else:
                chains.append([point])
        elif kind == "slash":
            if not chains or linked:
                raise error(f"{where}: a '/' must follow a point")
            linked = True
        elif kind == "unstack":
            if not chains or linked or len(chains[-1]) != 1 or len(chains) - 1 in unstacked \
                    or not 1 <= chains[-1][0] <= 24:
                raise error(f"{where}: a 'u' (a pair unstacked) must follow a point alone")
            chains[-1].append(chains[-1][0])
            unstacked.add(len(chains) - 1)
        elif kind == "hit":
            if not chains or linked:
                raise error(f"{where}: a '*' must follow a point")
            if hits is not None:
                hits.append(chains[-1][-1])
        else:  # "(n)": the whole preceding move, n times in all
            n = int(m.group("rep"))
            if not chains or linked or len(chains[-1]) < 2:
                raise error(f"{where}: '({n})' must follow a move")
            lo, hi = reading.repeats
            if n < lo or (hi is not None and n > hi):
                raise error(f"{where}: {reading.repeat_message}")
            if len(chains) - 1 in unstacked:
                raise error(f"{where}: '({n})' cannot repeat an unstacking")
            chains += [list(chains[-1]) for _ in range(n - 1)]
    if linked:
        raise error(f"{where}: it ends with '/'")
    steps: list[Step] = []
    for k, chain in enumerate(chains):
        if k in unstacked:
            steps.append((chain[0], chain[0]))
            continue
        if len(chain) < 2:
            raise error(f"{where}: {reading.label(chain[0])} has no destination (points are "
                        f"separated by '/')")
        for a, b in zip(chain, chain[1:]):
            if a == 0:
                raise error(f"{where}: a checker cannot move from off the board")
            if b in reading.no_destination:
                raise error(f"{where}: {reading.no_destination_message}")
            if b >= a:
                raise error(f"{where}: {reading.backwards(a, b)}")
            steps.append((a, b))
    if len(steps) > reading.max_steps:
        raise error(f"{where}: {reading.steps_message(len(steps))}")
    return steps


#: a play as gnubg writes it in `.mat` files
_MOVE_TOKEN = re.compile(
    r"(?P<point>[0-9]{1,3})|(?P<bar>b(?:ar?)?)|(?P<off>o(?:ff?)?|-)|(?P<unentered>in)|(?P<slash>/)"
    r"|(?P<hit>\*)|(?P<unstack>u)"
    r"|\((?P<rep>[0-9]{1,3})\)|(?P<sep>[\s,]+)",
    re.IGNORECASE | re.ASCII)


def _gnubg_point(token: str) -> int:
    point = int(token)
    if point > 25:
        raise RecordError(f"there is no point {point}")
    return point


_GNUBG = Reading(RecordError, _gnubg_point, no_destination=(25, UNENTERED),
                 no_destination_message="a checker cannot move to the bar or off the board")


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
    >>> parse_move("24u 19u")
    [(24, 24), (19, 19)]
    >>> parse_move("")
    []
    """
    if not isinstance(text, str):
        raise RecordError(f"a play must be a string, not {text!r}")
    return read_steps(text, text, _MOVE_TOKEN, _GNUBG)


def move_text(steps: Iterable[Sequence[int]], board: Sequence[int] | None = None) -> str:
    """A play as gnubg writes it in ``.mat`` files: ``from/to`` steps in the order given, bar as
    25 and off as 0, single spaces between them.

    With `board` (the 28-int board of :mod:`interpreter.kernel.board` before the play, seen from
    the mover) a ``*`` follows each destination that held an opponent checker at the start of the
    play, once per point, as gnubg marks hits.

    >>> move_text([(13, 7), (7, 1)])
    '13/7 7/1'
    >>> move_text([(24, 24), (19, 19)])
    '24u 19u'
    >>> move_text([(25, 22), (6, 4)], board=(0,) + (0,) * 21 + (-1,) + (0,) * 5)
    '25/22* 6/4'
    """
    parts: list[str] = []
    marked: set[int] = set()
    for step in steps:
        a, b = int(step[0]), int(step[1])
        if not ((1 <= a <= 25 or a == UNENTERED) and 0 <= b <= 24):
            raise RecordError(f"no such step {a}/{b} (from 1-25, to 0-24)")
        if a == b:
            # a step that moves nothing: the pair stacked on a unstacked
            parts.append(f"{a}u")
            continue
        text = f"{'in' if a == UNENTERED else a}/{b}"
        if board is not None and 1 <= b <= 24 and board[b] < 0 and b not in marked:
            text += "*"
            marked.add(b)
        parts.append(text)
    return " ".join(parts)


def expand_steps(steps: Sequence[Step], dice: tuple[int, ...],
                 board: Sequence[int] | None = None, unentered: int = UNENTERED) -> list[Step]:
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

    With three dice (Tabula, Emperador) a step over two or all three of them is split the
    same way, the dice tried in the order written:

    >>> expand_steps([(24, 12)], (6, 5, 1))
    [(24, 18), (18, 13), (13, 12)]
    """
    if len(dice) == 3:
        return _expand3(steps, dice, board, unentered)
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


def _expand3(steps: Sequence[Step], dice: tuple[int, ...],
             board: Sequence[int] | None, unentered: int = UNENTERED) -> list[Step]:
    """`expand_steps` for a throw of three dice: each step whose distance is no die left but
    the sum of two or three of them is split over the first order whose intermediate points
    hold no opponent checker; the steps as written when they cannot all be matched so.
    `unentered`: the number of a man waiting off the board (none, -1, on a board of 36 points,
    where 29 is a pip)."""
    left = list(dice)
    out: list[Step] = []
    for a, b in steps:
        # a man waiting off the board enters as from the bar
        if (25 if a == unentered else a) - b in left:
            left.remove((25 if a == unentered else a) - b)
            out.append((a, b))
            continue
        higher = sorted(d for d in left if d > a) if b == 0 else []
        if higher:
            left.remove(higher[0])
            out.append((a, b))
            continue
        split = _split(a, b, left, board, unentered)
        if split is None:
            return list(steps)
        parts, used = split
        for d in used:
            left.remove(d)
        out.extend(parts)
    return out


def _split(a: int, b: int, left: list[int], board: Sequence[int] | None,
           unentered: int = UNENTERED) -> tuple[list[Step], list[int]] | None:
    """The steps of one checker from `a` to `b` over two or three of the dice `left` (each
    intermediate point free of opponent checkers, a bear-off's last die possibly higher than
    needed) and the dice they use, or None."""
    n = len(left)
    start = 25 if a == unentered else a
    orders: list[tuple[int, ...]] = [(i, j) for i in range(n) for j in range(n) if i != j]
    orders += [(i, j, k) for i in range(n) for j in range(n) for k in range(n)
               if len({i, j, k}) == 3]
    for order in orders:
        ds = [left[i] for i in order]
        if sum(ds) != start - b and not (b == 0 and sum(ds[:-1]) < start < sum(ds)):
            continue
        pts = [start]
        for d in ds[:-1]:
            pts.append(pts[-1] - d)
        if any(p <= 0 or (board is not None and board[p] < 0) for p in pts[1:]):
            continue
        return [(a, pts[1])] + [(pts[k], pts[k + 1]) for k in range(1, len(pts) - 1)] \
            + [(pts[-1], b)], ds
    return None


def play_text(before: Sequence[int], path: Sequence[Any], geometry: Any = None) -> str:
    """The text of a play from `before` (the mover's view) along `path` (kernel steps, whose
    first two fields are from and to); `-` for a play that moves nothing. On a board of 36
    points (`geometry.wide`) the steps' slots are written as pips 1..36, the bar as `bar` and
    a checker entering from off the board as `in`: `bar/34 in/35 33/31* 7/0`."""
    if not path:
        return "-"
    if geometry is not None and geometry.wide:
        return wide_text(before, path, geometry)
    return move_text([(s[0], s[1]) for s in path], board=before)


# -- the 36-point board (XII scripta) -------------------------------------------------------------

def wide_text(before: Sequence[int], path: Sequence[Any], geometry: Any) -> str:
    """`play_text` on a board of 36 points: each step from/to in pips, one step a move in the
    order played, `*` after a landing that held a lone opposing checker at the start of the
    play (once per point)."""
    parts: list[str] = []
    marked: set[int] = set()
    bar, unentered = geometry.points + 1, geometry.points + 2
    for st in path:
        a, b = geometry.code(int(st[0])), geometry.code(int(st[1]))
        text = f"{'bar' if a == bar else 'in' if a == unentered else a}/{b}"
        if b and before[int(st[1])] < 0 and b not in marked:
            text += "*"
            marked.add(b)
        parts.append(text)
    return " ".join(parts)


WIDE_TOKEN = re.compile(
    r"(?P<point>[0-9]{1,2})|(?P<bar>bar\b|b(?=[/\s*(,]|$))|(?P<off>off\b|o(?=[/\s*(,]|$)|-)"
    r"|(?P<unentered>in\b)|(?P<slash>/)|(?P<hit>\*)|\((?P<rep>[0-9]{1,2})\)|(?P<sep>[\s,]+)",
    re.IGNORECASE | re.ASCII)


def wide_reading(points: int, error: type[Exception] = RecordError,
                 label: Callable[[int], str] | None = None) -> Reading:
    """How plays on a board of `points` (36) points are read: pips 1..points, `bar` and `in`
    for the two ways in (numbered points + 1 and points + 2), `off` or 0."""
    bar, unentered = points + 1, points + 2

    def point(token: str) -> int:
        pip = int(token)
        if pip > points:
            raise error(f"there is no point {pip}: the route of this board has {points} points")
        return pip

    def named(p: int) -> str:
        return "bar" if p == bar else "in" if p == unentered else "off" if p == 0 else str(p)

    return Reading(error, point, label or named, repeats=(2, 3),
                   repeat_message="a repeat count is 2 or 3", no_destination=(bar, unentered),
                   no_destination_message="a checker cannot move to the bar or off the board",
                   max_steps=8, steps_message=lambda n: f"{n} moves", bar=bar,
                   unentered=unentered)


def parse_wide(text: str, points: int = 36) -> list[Step]:
    """The (from, to) steps of a play on a board of `points` points as written (pips; the bar
    and the checkers waiting to enter as points + 1 and points + 2).

    >>> parse_wide("bar/34 in/35 33/31*/27 7/off")
    [(37, 34), (38, 35), (33, 31), (31, 27), (7, 0)]
    """
    if not isinstance(text, str):
        raise RecordError(f"a play must be a string, not {text!r}")
    return read_steps(text, text, WIDE_TOKEN, wide_reading(points))


def _read_wide(text: str, plays: Sequence[Any], before: Sequence[int], dice: tuple[int, ...],
               geometry: Any) -> Any:
    """`read_play` on a board of 36 points: the steps as written, or each checker from where
    it started to where it stopped (and where it hit), name one legal play."""
    written = parse_wide(text, geometry.points)
    code = geometry.code

    def coded(path: Sequence[Any]) -> list[Step]:
        return [(code(s[0]), code(s[1])) for s in path]

    def at(p: int) -> int:
        return before[geometry.slot(p)] if 1 <= p <= geometry.points else 0

    want = Counter(written)
    found = [p for p in plays if any(path and Counter(coded(path)) == want for path in p.paths)]
    if not found:
        for exact in (True, False):
            does = checker_moves(written, before, exact, at)
            found = [p for p in plays if p.paths and p.paths[0] and checker_moves(
                coded(p.paths[0]), before, exact, at) == does]
            if found:
                break
    if len(found) > 1:
        ordered = [p for p in found if any(coded(path) == written for path in p.paths)]
        if len(ordered) == 1:
            return ordered[0]
    return _the_one(found, text, dice)


def _the_one(found: Sequence[Any], text: str, dice: tuple[int, ...]) -> Any:
    """The one legal play `text` names among `found`, or the error saying why there is none."""
    if len(found) == 1:
        return found[0]
    if not found:
        raise RecordError(f"{text!r} is not a legal play with {'-'.join(map(str, dice))}")
    raise RecordError(f"{text!r} names {len(found)} different legal plays")


def write_play(plays: Sequence[Any], before: Sequence[int], after: Sequence[int]) -> str:
    """The text of the legal play among `plays` (kernel `Play`s) that ends on `after`."""
    if tuple(before) == tuple(after):
        return "-"
    for play in plays:
        if play.board == after:
            return play_text(before, play.paths[0])
    raise RecordError("no legal play reaches the position to write")


def join_moves(moves: Sequence[tuple[int, int, bool]]) -> list[list[tuple[int, bool]]]:
    """The moves `(from, to, hit)` of a play joined checker by checker: a move that starts
    where another ended (not off the board) continues it, in whatever order they were played.
    Each chain is `[(start, False), (point, hit), ...]`."""
    chains = [[(a, False), (b, hit)] for a, b, hit in moves]
    joined = True
    while joined:
        joined = False
        for i, x in enumerate(chains):
            end = x[-1][0]
            if end == 0:
                continue
            j = next((j for j, y in enumerate(chains) if j != i and y[0][0] == end), None)
            if j is not None:
                x.extend(chains[j][1:])
                del chains[j]
                joined = True
                break
    return chains


def checker_moves(pairs: Iterable[tuple[int, int]], before: Sequence[int],
                  exact: bool = True, at: Callable[[int], int] | None = None) -> tuple:
    """What a play does to the board, however it is written (`24/15` or `24/18 18/15`, whichever
    checker is taken to move on): the points checkers leave and reach, net of those a checker
    passes through, and (with `exact`) the points where it hit, an opponent's checker standing
    there at the start of the play (`at(p)`: what pip p held, where the board's slots are not
    its pips)."""
    pairs = [(int(a), int(b)) for a, b in pairs]
    left = Counter(a for a, _ in pairs)
    reached = Counter(b for _, b in pairs)
    through = left & reached
    if at is not None:
        hits = sorted({b for _, b in pairs if at(b) < 0}) if exact else []
    else:
        hits = sorted({b for _, b in pairs if 1 <= b <= 24 and before[b] < 0}) if exact else []
    return (tuple(sorted((left - through).elements())),
            tuple(sorted((reached - through).elements())), tuple(hits))


def _split_on(written: Sequence[Step], dice: tuple[int, ...], before: Sequence[int],
              points: int) -> list[Step]:
    """`expand_steps` on a route of `points` points: a checker on the bar (25) enters on pip
    points + 1 - d, so its steps are split from there."""
    if points == 24:
        return expand_steps(written, dice, before)
    top = points + 1
    steps = [(top if a == 25 else a, b) for a, b in written]
    return [(25 if a == top else a, b) for a, b in expand_steps(steps, dice, before)]


def read_play(text: str, plays: Sequence[Any], before: Sequence[int],
              dice: tuple[int, ...], points: int = 24, geometry: Any = None) -> Any:
    """The one legal play (of `plays`) that the text names, as gnubg reads plays: the steps,
    expanded over the dice, must be those of one of its paths. RecordError names the text and
    why it names no legal play. On a board of 36 points (`geometry.wide`) the text is read in
    its pips 1..36 (`wide_text`)."""
    text = text.strip()
    if text in ("-", ""):
        found = [p for p in plays if not p.paths or not p.paths[0]]
        if found:
            return found[0]
        raise RecordError(f"{text or '-'!r} plays nothing, but a play is possible")
    if geometry is not None and geometry.wide:
        return _read_wide(text, plays, before, dice, geometry)
    written = parse_move(text)
    found = []
    # the steps as written first (a board whose off is reached short of pip 0 writes `7/0`
    # for one number), then split over the dice as gnubg splits `23/5` for 6-6
    for steps in (written, _split_on(written, dice, before, points)):
        want = Counter(steps)
        found = [p for p in plays
                 if any(path and Counter((s[0], s[1]) for s in path) == want
                        for path in p.paths)]
        if found:
            break
    if not found:
        # as players write a play: each checker from where it started to where it stopped,
        # the points on the way where it hit (`24/15`, `13/7*/5*`), by whatever numbers; then
        # start and stop alone, where that names one play (`13/5` for `13/7*/5`)
        # (the ways of one play to its board all leave and reach the same points and hit the
        # same blots: its first way says what it does)
        for exact in (True, False):
            does = checker_moves(written, before, exact)
            found = [p for p in plays if p.paths and p.paths[0] and checker_moves(
                [(s[0], s[1]) for s in p.paths[0]], before, exact) == does]
            if found:
                break
    if len(found) > 1:
        # where the order of the moves changes the play (a hit man placed on the first free
        # point of a list: Todas tablas), the moves in the order written name it
        for steps in (written, _split_on(written, dice, before, points)):
            ordered = [p for p in found
                       if any([(s[0], s[1]) for s in path] == list(steps) for path in p.paths)]
            if len(ordered) == 1:
                return ordered[0]
    return _the_one(found, text, dice)
