"""The helpers that the compiled rule code (`rules_emit.py`) calls, compiled by numba.

They mirror `interpreter/dsl/runtime.py` on the flat int64 board of the kernel's layout
(`kernel/board.py`: indexes 0..27, and 28..30 where a variant pins or keeps checkers off the
board) and never fail on board input: a pip outside the board holds nothing.

A set of pips is an int64 bit mask, bit v for the number v (0 <= v <= MAX_BIT): the emitter
uses one only where the compiler's bounds put every number of the set in that span. A path is a
2-D int64 array of steps, one row each (src, dst, die[, hit, flags]), and its length.
"""
from __future__ import annotations

import numpy as np

# the plays of a throw under the trictrac family's switches, which `throws_emit.py` calls as
# `rt.corner_full` and so on
# (rt_corner points numba's cache at the checked folder before it imports numba)
from interpreter.native.rt_corner import (  # noqa: F401
    copy_candidate, corner_full, corner_single, group_plays, prefer_higher)
from numba import njit

#: the highest number a bit mask holds
MAX_BIT = 62


@njit(cache=True)
def mine(b, p):
    if 1 <= p <= 24:
        x = b[p]
        return x if x > 0 else 0
    if p == 0:
        return b[0]
    if p == 25:
        return b[25]
    if p == 29 and b.shape[0] > 30:
        return b[29]
    return 0


@njit(cache=True)
def theirs(b, p):
    if 1 <= p <= 24:
        x = b[p]
        return -x if x < 0 else 0
    if p == 0:
        return b[27]
    if p == 25:
        return b[26]
    if p == 29 and b.shape[0] > 30:
        return b[30]
    return 0


@njit(cache=True)
def pos(x):
    """The mover's count of a board cell."""
    return x if x > 0 else 0


@njit(cache=True)
def neg(x):
    """The opponent's count of a board cell."""
    return -x if x < 0 else 0


@njit(cache=True)
def mine_pinned(b, p):
    if 1 <= p <= 24 and b.shape[0] > 28 and (b[28] >> p) & 1 and b[p] < 0:
        return 1
    return 0


@njit(cache=True)
def theirs_pinned(b, p):
    if 1 <= p <= 24 and b.shape[0] > 28 and (b[28] >> p) & 1 and b[p] > 0:
        return 1
    return 0


@njit(cache=True)
def their_same(p):
    return p + 12 if p <= 12 else p - 12


@njit(cache=True)
def empty(b, p):
    if 1 <= p <= 24:
        return b[p] == 0
    return False


@njit(cache=True)
def full(b, m):
    """Every pip of the mask is a point holding two or more of the mover's checkers."""
    for p in range(MAX_BIT + 1):
        if (m >> p) & 1:
            if not (1 <= p <= 24 and b[p] >= 2):
                return False
    return True


@njit(cache=True)
def div(a, b):
    return a // b if b != 0 else 0


@njit(cache=True)
def mod(a, b):
    return a % b if b != 0 else 0


@njit(cache=True)
def bit(v):
    """The mask of the one number v (nothing outside 0..MAX_BIT)."""
    if 0 <= v <= MAX_BIT:
        return 1 << v
    return 0


@njit(cache=True)
def has(m, v):
    if 0 <= v <= MAX_BIT:
        return (m >> v) & 1 != 0
    return False


@njit(cache=True)
def span(lo, hi, first, last):
    """The mask of lo..hi clipped to first..last (the bounds the compiler proved for it)."""
    lo = max(lo, first, 0)
    hi = min(hi, last, MAX_BIT)
    m = 0
    for v in range(lo, hi + 1):
        m |= 1 << v
    return m


@njit(cache=True)
def count(m):
    """How many numbers a mask holds."""
    n = 0
    for v in range(MAX_BIT + 1):
        if (m >> v) & 1:
            n += 1
    return n


@njit(cache=True)
def landings(x, n):
    """The pips where a checker of the path comes to rest (a step not continued by the next)."""
    m = 0
    for i in range(n):
        if i + 1 == n or x[i + 1, 0] != x[i, 1]:
            m |= bit(x[i, 1])
    return m


@njit(cache=True)
def rests(x, n):
    """The pips a checker passes through within one play (a step continued by the next)."""
    m = 0
    for i in range(n - 1):
        if x[i + 1, 0] == x[i, 1]:
            m |= bit(x[i, 1])
    return m


@njit(cache=True)
def arrivals(x, n, h):
    """Where the checkers that end the path on pip h started from, following rests."""
    m = 0
    for i in range(n):
        if x[i, 1] != h or (i + 1 < n and x[i + 1, 0] == h):
            continue
        origin = x[i, 0]
        j = i
        while j > 0 and x[j - 1, 1] == origin:
            j -= 1
            origin = x[j, 0]
        m |= bit(origin)
    return m


@njit(cache=True)
def can_move(b, side, same, pinning, pool, block, home_top, off_pip, all_home, pinned_home):
    """`can_move()` / `opponent_can_move()` as `dsl/runtime.py` reads them: whether `side`
    (0: the mover, 1: the opponent) has a single move with some number 1..6, the file's
    forbid rules aside."""
    pins = b[28] if pinning and b.shape[0] > 28 else 0
    v = np.zeros(25, np.int64)
    mask = 0
    if side == 0:
        for p in range(25):
            v[p] = b[p]
        bar = b[25]
        mask = pins
    else:
        for p in range(1, 25):
            if same == 2:
                q = p
            elif same:
                q = p + 12 if p <= 12 else p - 12
            else:
                q = 25 - p
            v[q] = -b[p]
            if (pins >> p) & 1:
                mask |= 1 << q
        bar = b[26]
    waiting = pool != 0 and b.shape[0] > 30 and b[29 + side] > 0
    if bar > 0 or waiting:
        for d in range(1, 7):
            x = v[25 - d]
            if x >= 0 or (-x < block and not (mask >> (25 - d)) & 1):
                return True
        if bar > 0:
            return False
    for p in range(off_pip + 2, 25):
        if v[p] <= 0:
            continue
        for q in range(p - 1, max(off_pip, p - 7), -1):
            x = v[q]
            if x >= 0 or (-x < block and not (mask >> q) & 1):
                return True
    if waiting or all_home == 2:
        return False
    has_pinned = False
    pinned_above = False
    for p in range(1, 25):
        if v[p] < 0 and (mask >> p) & 1:
            has_pinned = True
            if p > home_top:
                pinned_above = True
    if has_pinned and not pinned_home:
        return False
    if all_home:
        if pinned_above:
            return False
        for p in range(home_top + 1, 25):
            if v[p] > 0:
                return False
    for p in range(off_pip + 1, min(off_pip + 7, 25)):
        if v[p] > 0:
            return True
    return False
