"""The one board representation shared by every variant.

A board is a tuple of 28 ints seen from the player on roll (the *mover*):

====== =====================================================
index  meaning
====== =====================================================
0      the mover's checkers borne off (>= 0)
1..24  pip p: mover's checkers (> 0) or opponent's (< 0)
25     the mover's bar (>= 0)
26     the opponent's bar (>= 0)
27     the opponent's checkers borne off (>= 0)
====== =====================================================

Pip numbering is the mover's distance to bearing off (spec/INTERFACES.md): pip 24 is the first
point of his route, pip 1 the last. The opponent's pip p is the mover's pip 25 - p.

>>> b = from_json({"points": [0]*23 + [2], "bar": [0, 1], "off": [13, 14]})
>>> flip(flip(b)) == b
True
>>> to_json(flip(b))["bar"]
[1, 0]
"""
from __future__ import annotations

from typing import Any

from interpreter.bounded import shown
from interpreter.errors import PositionError

OFF = 0
BAR = 25
OPP_BAR = 26
OPP_OFF = 27
SIZE = 28
PIPS = range(1, 25)

Board = tuple[int, ...]
#: the most checkers a count of a position may give (a variant has at most 60 a side)
MAX_COUNT = 60


def flip(b: Board) -> Board:
    """The same board seen from the other player."""
    return (b[27], -b[24], -b[23], -b[22], -b[21], -b[20], -b[19], -b[18], -b[17], -b[16],
            -b[15], -b[14], -b[13], -b[12], -b[11], -b[10], -b[9], -b[8], -b[7], -b[6], -b[5],
            -b[4], -b[3], -b[2], -b[1], b[26], b[25], b[0])


def from_start(start: dict[int, int]) -> Board:
    """Both players with the same starting layout (a pip → count mapping from each one's view)."""
    b = [0] * SIZE
    for pip, n in start.items():
        b[pip] += n
        b[25 - pip] -= n
    return tuple(b)


def counts(b: Board) -> tuple[int, int]:
    """Checkers of (mover, opponent) on the board, on the bar and off."""
    mine = b[OFF] + b[BAR] + sum(x for x in b[1:25] if x > 0)
    theirs = b[OPP_OFF] + b[OPP_BAR] - sum(x for x in b[1:25] if x < 0)
    return mine, theirs


def from_json(obj: Any, checkers: int | None = None) -> Board:
    """Read the points/bar/off part of a position JSON object (INTERFACES.md).

    Raises PositionError naming the fault. With `checkers`, both sides must total that many.
    """
    if not isinstance(obj, dict):
        raise PositionError(f"a position must be a JSON object, not {shown(obj)}")
    points = obj.get("points")
    bar = obj.get("bar", [0, 0])
    off = obj.get("off", [0, 0])
    # counts are range-checked before any arithmetic: a position comes from a stranger
    if not (isinstance(points, list) and len(points) == 24
            and all(isinstance(x, int) and not isinstance(x, bool) and -MAX_COUNT <= x <= MAX_COUNT
                    for x in points)):
        raise PositionError(f"'points' must be a list of 24 integers from {-MAX_COUNT} to "
                            f"{MAX_COUNT}, not {shown(points)}")
    for name, pair in (("bar", bar), ("off", off)):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_COUNT
                        for x in pair)):
            raise PositionError(f"'{name}' must be two integers from 0 to {MAX_COUNT}, not "
                                f"{shown(pair)}")
    b = (off[0], *points, bar[0], bar[1], off[1])
    if checkers is not None:
        mine, theirs = counts(b)
        if (mine, theirs) != (checkers, checkers):
            raise PositionError(
                f"each side must have {checkers} checkers on the board, on the bar and off; "
                f"this position has {mine} for the mover and {theirs} for the opponent")
    return b


def to_json(b: Board) -> dict[str, list[int]]:
    return {"points": list(b[1:25]), "bar": [b[BAR], b[OPP_BAR]], "off": [b[OFF], b[OPP_OFF]]}


def sort_key(b: Board) -> tuple[int, ...]:
    """The order of INTERFACES.md: points, then bar, then off."""
    return (*b[1:25], b[BAR], b[OPP_BAR], b[OFF], b[OPP_OFF])
