"""Helpers that generated rule code may call, and the lazy per-roll context.

Generated code inlines what it can (counts on fixed pips, dice); these cover the general cases.
They never raise on board input: a pip outside the board simply holds nothing.

`RUNTIME` is the table of what generated code may call by name (with `BUILTINS`); the whitelist
(`safety.py`) refuses a call of anything else. A new helper for the vocabulary goes here and in
`RUNTIME` (see `vocabulary.py`).
"""
from __future__ import annotations

from typing import Any, Callable


def mine(b: tuple[int, ...], p: int) -> int:
    if 1 <= p <= 24:
        x = b[p]
        return x if x > 0 else 0
    if p == 0:
        return b[0]
    if p == 25:
        return b[25]
    if p == 29 and len(b) > 30:
        return b[29]          # waiting off the board to enter (the board has the cells)
    return 0


def theirs(b: tuple[int, ...], p: int) -> int:
    if 1 <= p <= 24:
        x = b[p]
        return -x if x < 0 else 0
    if p == 0:
        return b[27]
    if p == 25:
        return b[26]
    if p == 29 and len(b) > 30:
        return b[30]
    return 0


def mine_pinned(b: tuple[int, ...], p: int) -> int:
    """1 when a checker of the mover lies pinned on pip p (under opposing checkers): the pins
    are the bits of cell 28, a pinned point's count is the pinner's."""
    return 1 if 1 <= p <= 24 and len(b) > 28 and b[28] >> p & 1 and b[p] < 0 else 0


def their_same(p: int) -> int:
    """The opponent's own number of the mover's pip p when both sides run the same way round
    (the route of Long Nardy and Fevga: his start, pip 24, is the mover's 12)."""
    return p + 12 if p <= 12 else p - 12


def theirs_pinned(b: tuple[int, ...], p: int) -> int:
    """1 when an opposing checker lies pinned on pip p (under the mover's checkers)."""
    return 1 if 1 <= p <= 24 and len(b) > 28 and b[28] >> p & 1 and b[p] > 0 else 0


def empty(b: tuple[int, ...], p: int) -> bool:
    return b[p] == 0 if 1 <= p <= 24 else False


def full(b: tuple[int, ...], region: Any) -> bool:
    """Every pip of the region is a point holding two or more of the mover's checkers."""
    for p in region:
        if not (1 <= p <= 24 and b[p] >= 2):
            return False
    return True


def span(lo: int, hi: int, first: int, last: int) -> range:
    """lo..hi clipped to first..last, the bounds the compiler proved for it under its
    assumptions (at most limits.MAX_RANGE_VALUES numbers): a range whose bounds come from the
    throw counters stays bounded even past them."""
    return range(max(lo, first), min(hi, last) + 1)


def div(a: int, b: int) -> int:
    return a // b if b else 0


def mod(a: int, b: int) -> int:
    return a % b if b else 0


_last_landings: list = [None, frozenset()]


def landings(path: tuple) -> frozenset[int]:
    """Pips where a checker of the path comes to rest (a step not continued by the next one).

    A rule often asks this twice of the same path: the last answer is kept."""
    last = _last_landings
    if path is last[0]:
        return last[1]
    n = len(path)
    if n == 2:
        s, u = path
        out = frozenset((u[1],)) if u[0] == s[1] else frozenset((s[1], u[1]))
    elif n == 1:
        out = frozenset((path[0][1],))
    else:
        out = frozenset(s[1] for i, s in enumerate(path) if i + 1 == n or path[i + 1][0] != s[1])
    last[0] = path
    last[1] = out
    return out


def rests(path: tuple) -> frozenset[int]:
    """Pips a checker passes through within one play (a step continued by the next one)."""
    return frozenset(s[1] for i, s in enumerate(path[:-1]) if path[i + 1][0] == s[1])


def arrivals(path: tuple, h: int) -> frozenset[int]:
    """Where the checkers that end the path on pip h started from, following rests."""
    out = set()
    n = len(path)
    for i, s in enumerate(path):
        if s[1] != h or (i + 1 < n and path[i + 1][0] == h):
            continue
        origin = s[0]
        j = i
        while j > 0 and path[j - 1][1] == origin:
            j -= 1
            origin = path[j][0]
        out.add(origin)
    return frozenset(out)


def union(parts: Any) -> frozenset[int]:
    out: set[int] = set()
    for part in parts:
        if isinstance(part, int):
            out.add(part)
        else:
            out.update(part)
    return frozenset(out)


class RollContext:
    """What a roll's rules may ask beyond the board and dice, computed only when asked.

    `plays_fn()` returns `(plays, unplayed)` from the kernel: the complete legal plays before the
    play preferences, and how many numbers cannot be played.
    """

    __slots__ = ("_plays_fn", "_plays", "_unplayed", "state", "setup", "d3", "unstacking",
                 "home_after", "_unplayed_fn", "_counted")

    def __init__(self, plays_fn: Callable[[], tuple[list, int]], state: dict | None = None,
                 setup: int = 1, d3: int = 0,
                 unplayed_fn: Callable[[], tuple[list, int]] | None = None):
        self._plays_fn = plays_fn
        self._plays: list | None = None
        self._unplayed = 0
        #: a cheaper way to the same count of numbers left (`some_plays`: one way to each end
        #: position), asked when `unplayed` is read before `plays`
        self._unplayed_fn = unplayed_fn
        self._counted = False
        #: what a stage rule reads of the play made (`MoveGenerator.play_facts`), set by the
        #: caller before it asks the rule of that play: its numbers left while unstacking, and
        #: the mover's checkers all in his last quarter after it
        self.unstacking = False
        self.home_after = False
        #: the third die of a throw of three (0: a throw of two)
        self.d3 = d3
        self.state = state or {}
        #: how many times the men have been set up in this game (1 until the first relevé)
        self.setup = setup

    def _load(self) -> None:
        self._plays, self._unplayed = self._plays_fn()

    @property
    def plays(self) -> list:
        if self._plays is None:
            self._load()
        return self._plays  # type: ignore[return-value]

    @property
    def unplayed(self) -> int:
        if self._plays is None:
            if self._unplayed_fn is None:
                self._load()
            elif not self._counted:
                self._unplayed = self._unplayed_fn()[1]
                self._counted = True
        return self._unplayed


def can_move(b: tuple, side: int, same: int, pinning: int, pool: int, block: int,
             home_top: int, off_pip: int, all_home: int, pinned_home: int,
             points: int = 24, limit: int = 0, limited: int = 0) -> bool:
    """Whether `side` (0: the mover, 1: the opponent) has a single move with some number 1..6
    on board `b` under the movement switches given (the route, `block`, pins, bar entry,
    bearing off), the file's forbid rules aside: a free checker that a number takes to a
    point open to it or off the board, or one on the bar or unentered that a number enters.
    `same`: the route, 0 opposite, 1 the same way round, 2 shared; `points`: its length (a
    checker enters from the bar with d on pip points + 1 - d); `limit`: the most men of a side
    a point of the mask `limited` may hold (0: no limit)."""
    pins = b[28] if pinning else 0
    top = points + 1
    # the side's own view: v[q] > 0 its free checkers on its pip q, < 0 the other side's
    v: Any
    if side == 0:
        v = b
        bar = b[25]
        mask = pins
    else:
        v = [0] * 25
        mask = 0
        for p in range(1, top):
            q = p if same == 2 else (p + 12 if p <= 12 else p - 12) if same else top - p
            v[q] = -b[p]
            if pins >> p & 1:
                mask |= 1 << q
        bar = b[26]
    waiting = pool and b[29 + side] > 0
    if bar > 0 or waiting:
        for d in range(1, 7):
            if top - d < 1:
                break
            x = v[top - d]
            if limit and x >= limit and limited >> (top - d) & 1:
                continue
            # a lone opposing checker may be landed on, unless it sits on a pinned one of ours
            if x >= 0 or (-x < block and not mask >> (top - d) & 1):
                return True
        if bar > 0:
            return False
    for p in range(off_pip + 2, top):
        if v[p] <= 0:
            continue
        for q in range(p - 1, max(off_pip, p - 7), -1):
            x = v[q]
            if limit and x >= limit and limited >> q & 1:
                continue
            if x >= 0 or (-x < block and not mask >> q & 1):
                return True
    # no move on the board: bearing off, by the exact number of a free checker near the end
    if waiting or all_home == 2:
        # (all_home 2: nothing is ever borne off)
        return False
    own_pinned = [p for p in range(1, 25) if v[p] < 0 and mask >> p & 1]
    if own_pinned and not pinned_home:
        return False
    if all_home and (any(v[p] > 0 for p in range(home_top + 1, 25))
                     or any(p > home_top for p in own_pinned)):
        return False
    return any(v[p] > 0 for p in range(off_pip + 1, min(off_pip + 7, 25)))


#: the helpers generated code may call, by the name it calls them
RUNTIME: dict[str, Callable[..., Any]] = {
    "_mine": mine, "_theirs": theirs, "_mine_pinned": mine_pinned,
    "_theirs_pinned": theirs_pinned, "_their_same": their_same, "_empty": empty, "_full": full,
    "_div": div, "_mod": mod,
    "_landings": landings, "_rests": rests, "_arrivals": arrivals, "_union": union,
    "_span": span, "_can_move": can_move,
}
#: the builtins generated code may call (nothing else of Python's builtins is reachable)
BUILTINS: dict[str, Any] = {"sum": sum, "any": any, "all": all, "max": max, "min": min,
                            "len": len, "range": range, "frozenset": frozenset, "abs": abs}

NAMESPACE: dict[str, Any] = {**RUNTIME, "__builtins__": dict(BUILTINS)}
