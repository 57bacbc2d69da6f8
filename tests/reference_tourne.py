"""A second, plain implementation of Tourne-case's legal plays, written from the rules alone and
never importing the interpreter: each side's men as the points of his own lane (1..12, counted
from where his men enter; 0 for a man not yet entered), the opponent's likewise on his own lane,
point k of one side directly across the board from point k of the other.

    >>> start = Lanes((), ())
    >>> sorted(p.mine for p in plays(start, 5, 2, "lower"))
    [(2,)]
    >>> sorted(p.mine for p in plays(start, 5, 2, "both"))
    [(2, 5), (7,)]
    >>> tc2 = Lanes((1, 3), (4, 6))
    >>> sorted((p.mine, p.theirs) for p in plays(tc2, 4, 1, "lower"))
    [((1, 4), (6,)), ((2, 3), (4, 6))]
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

MEN = 3
CORNER = 12


class Lanes(NamedTuple):
    """The men on the board of the side to play (`mine`) and of the other (`theirs`), each a
    sorted tuple of his own lane's points; the men missing from three are unentered."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    def unentered(self) -> tuple[int, int]:
        return MEN - len(self.mine), MEN - len(self.theirs)

    def turned(self) -> "Lanes":
        """The same position for the other side to play."""
        return Lanes(self.theirs, self.mine)

    def won(self) -> bool:
        """Whether the side of `mine` has all three men in his rest corner."""
        return self.mine.count(CORNER) == MEN


def moves(pos: Lanes, d: int) -> Iterator[Lanes]:
    """Every single move of the number `d` by the side to play: a man enters on point d or moves
    from k to k + d, never past the rest corner, never passing or joining one of his own (but in
    the rest corner), hitting the opposing man across from where it lands (not from the rest
    corner)."""
    mine = list(pos.mine)
    starts = sorted(set(mine))
    if len(mine) < MEN:
        starts = [0] + starts
    for k in starts:
        if k == CORNER:
            continue
        to = k + d
        if to > CORNER:
            continue
        # the points passed and the point landed on, but the rest corner, hold none of his
        if any(k < q <= min(to, CORNER - 1) for q in mine):
            continue
        new = list(mine)
        if k:
            new.remove(k)
        new.append(to)
        theirs = list(pos.theirs)
        if to < CORNER and to in theirs:
            theirs.remove(to)          # back off the board, unentered
        yield Lanes(tuple(sorted(new)), tuple(sorted(theirs)))


def plays(pos: Lanes, d1: int, d2: int, dice: str = "lower") -> set[Lanes]:
    """The positions the legal plays of the throw d1-d2 lead to. `dice`: "lower", the lower
    number alone, once; "both", both numbers in either order (a man using both rests on the
    point the first reaches), a doublet once, as many numbers as possible and no preference
    between them. When nothing can be played, the position itself."""
    if dice == "lower" or d1 == d2:
        out = set(moves(pos, min(d1, d2)))
        return out or {pos}
    full: set[Lanes] = set()
    for a, b in ((d1, d2), (d2, d1)):
        for mid in moves(pos, a):
            full.update(moves(mid, b))
    if full:
        return full
    one = set(moves(pos, d1)) | set(moves(pos, d2))
    return one or {pos}


# -- the kernel's board, read without the interpreter -------------------------------------------

def from_board(b: tuple[int, ...]) -> Lanes:
    """A board of the kernel's layout seen from the side to play: his point k is his pip 13 - k
    (pips 1..12), the opponent's point k the mover's pip 12 + k (pips 13..24)."""
    mine: list[int] = []
    theirs: list[int] = []
    for p in range(1, 13):
        assert b[p] >= 0, f"an opposing man on the mover's lane, pip {p}"
        mine += [13 - p] * b[p]
    for p in range(13, 25):
        assert b[p] <= 0, f"a man of the mover's on the opponent's lane, pip {p}"
        theirs += [p - 12] * -b[p]
    return Lanes(tuple(sorted(mine)), tuple(sorted(theirs)))


def from_json(obj: dict) -> Lanes:
    """A position JSON's `points` (the mover's pips)."""
    return from_board((0, *obj["points"]))
