"""The legal plays of a throw under the trictrac family's movement switches, compiled by numba.

The switches (`kernel/rules.py`) these functions give the plays of are those of `covers()` in
`throws_emit.py`: two numbers a throw, a doublet played twice, no hitting (any opposing checker
closes a point), both numbers if possible and else the higher, bearing off once every checker
is home (pips 1..6) with a higher number only from the farthest checker (an excédant), the
fewest excédants, the opponent's corner a rest only, the own corner never left with one
checker, and the corner taken par puissance while both corners are empty. They give the same
candidates in the same order as the generated Python generator of those switches
(`kernel/_fastplays.py`), and its fallback `MoveGenerator._walk_plays` for a throw of which only
one number can be played.

The candidates of a throw are written into three arrays: `cb` (candidates, cells) the end
boards, `cp` (candidates, 2, 5) the steps (src, dst, die, hit, flags) and `cn` the number of
steps; a function returns how many it wrote. The file's forbid rules are asked of them by the
generated code in between (`throws_emit.py`), and `group_plays` gathers the survivors into the
plays a roll's scoring rules read: `pb`, `ps`, `pp`, `pn` as `rules_emit.py` describes them.
"""
from __future__ import annotations

import numpy as np

from interpreter.native.numba_cache import prepare_numba

prepare_numba()     # numba's cache in the checked folder, before numba is imported
from numba import njit  # noqa: E402

#: the flags of a step (kernel/movegen.py)
EXCEDANT = 1
PUISSANCE = 2
SURPLUS = 4
#: the home board's top pip
HOME = 6


@njit(cache=True)
def _outside(L):
    """The mover's checkers outside his home board (on the bar or above pip 6)."""
    n = L[25]
    for q in range(HOME + 1, 25):
        if L[q] > 0:
            n += L[q]
    return n


@njit(cache=True)
def _step(L, s, d):
    """The single move of the number d from pip s on L: (dst, flags), dst -1 when it cannot
    be made (a closed point, or bearing off not allowed)."""
    t = s - d
    if t > 0:
        if L[t] < 0:
            return -1, 0
        return t, 0
    if _outside(L) > 0:
        return -1, 0
    if t == 0:
        return 0, 0
    for q in range(s + 1, HOME + 1):
        if L[q] > 0:
            return -1, 0
    return 0, EXCEDANT


@njit(cache=True)
def _put(cb, cp, cn, n, L, k, s1, t1, x, f1, s2, t2, y, f2):
    """Write candidate n: board L and k steps."""
    for c in range(L.shape[0]):
        cb[n, c] = L[c]
    cp[n, 0, 0] = s1
    cp[n, 0, 1] = t1
    cp[n, 0, 2] = x
    cp[n, 0, 3] = 0
    cp[n, 0, 4] = f1
    if k == 2:
        cp[n, 1, 0] = s2
        cp[n, 1, 1] = t2
        cp[n, 1, 2] = y
        cp[n, 1, 3] = 0
        cp[n, 1, 4] = f2
    cn[n] = k


@njit(cache=True)
def _order(L, x, y, C, O, cb, cp, cn, n, limit):
    """The two-number candidates playing x then y, from candidate n on, until there are
    `limit`; the new count (L as it was)."""
    # (numbers as int64, not literals: numba compiles a function once per literal argument)
    one, two, nil = np.int64(1), np.int64(2), np.int64(0)
    total = 0
    for p in range(1, 25):
        if L[p] > 0:
            total += L[p]
    total += L[0] + L[25]
    for s1 in range(24, 0, -1):
        if L[s1] <= 0:
            continue
        t1, f1 = _step(L, s1, x)
        if t1 < 0:
            continue
        L[s1] -= 1
        L[t1] += 1
        if t1 == 0 and L[0] == total:
            if L[C] != 1:
                _put(cb, cp, cn, n, L, one, s1, t1, x, f1, nil, nil, nil, nil)
                n += 1
        else:
            for s2 in range(24, 0, -1):
                if n >= limit:
                    break
                if L[s2] <= 0:
                    continue
                if t1 == O and s2 != t1:
                    continue        # a checker resting on the corner goes straight on
                t2, f2 = _step(L, s2, y)
                if t2 < 0 or t2 == O:
                    continue
                L[s2] -= 1
                L[t2] += 1
                if L[C] != 1:
                    _put(cb, cp, cn, n, L, two, s1, t1, x, f1, s2, t2, y, f2)
                    n += 1
                L[s2] += 1
                L[t2] -= 1
        L[s1] += 1
        L[t1] -= 1
        if n >= limit:
            break
    return n


@njit(cache=True)
def corner_full(b, d1, d2, C, O, cb, cp, cn, limit):
    """The candidates playing both numbers (or bearing off the last checker), with the corner
    taken par puissance, in order; how many. At most `limit` are written: the first ones,
    for a caller who asks whether any is legal."""
    L = b.copy()
    n = _order(L, d1, d2, C, O, cb, cp, cn, np.int64(0), limit)
    if d1 != d2 and n < limit:
        n = _order(L, d2, d1, C, O, cb, cp, cn, n, limit)
    if n >= limit:
        return n
    # par puissance: both corners empty, no checker waiting, and the own corner not takeable
    # directly with this throw
    if b[C] != 0 or b[O] != 0 or b[25] > 0:
        return n
    a = O + d1
    c = O + d2
    if a > 24 or c > 24:
        return n
    if d1 == d2:
        if b[a] < 2:
            return n
    elif b[a] < 1 or b[c] < 1:
        return n
    ea = C + d1
    ec = C + d2
    if ea <= 24 and ec <= 24:
        if d1 == d2:
            if b[ea] >= 2:
                return n
        elif b[ea] >= 1 and b[ec] >= 1:
            return n
    L[a] -= 1
    L[c] -= 1
    L[C] += 2
    two = np.int64(2)
    corner = np.int64(C)
    flag = np.int64(PUISSANCE)
    _put(cb, cp, cn, n, L, two, a, corner, d1, flag, c, corner, d2, flag)
    n += 1
    if d1 != d2:
        _put(cb, cp, cn, n, L, two, c, corner, d2, flag, a, corner, d1, flag)
        n += 1
    return n


@njit(cache=True)
def corner_single(b, d1, d2, C, O, cb, cp, cn):
    """The candidates playing one number only (the first number of either order, not ending on
    the opponent's corner); how many."""
    one, nil = np.int64(1), np.int64(0)
    L = b.copy()
    total = 0
    for p in range(1, 25):
        if L[p] > 0:
            total += L[p]
    total += L[0] + L[25]
    n = nil
    for k in range(1 if d1 == d2 else 2):
        x = d1 if k == 0 else d2
        for s in range(24, 0, -1):
            if L[s] <= 0:
                continue
            t, f = _step(L, s, x)
            if t < 0 or t == O:
                continue
            L[s] -= 1
            L[t] += 1
            # bearing off the last checker plays the whole throw: a full candidate, not this
            if L[C] != 1 and not (t == 0 and L[0] == total):
                _put(cb, cp, cn, n, L, one, s, t, x, f, nil, nil, nil, nil)
                n += 1
            L[s] += 1
            L[t] -= 1
    return n


@njit(cache=True)
def copy_candidate(cb, cp, cn, i, j):
    """Candidate i written over candidate j."""
    for c in range(cb.shape[1]):
        cb[j, c] = cb[i, c]
    for k in range(2):
        for c in range(5):
            cp[j, k, c] = cp[i, k, c]
    cn[j] = cn[i]


@njit(cache=True)
def prefer_higher(cb, cp, cn, n, d1, d2):
    """Of single-number candidates of two different numbers, those of the higher, if any."""
    if d1 == d2:
        return n
    hi = max(d1, d2)
    m = np.int64(0)
    for i in range(n):
        if cp[i, 0, 2] == hi:
            if m != i:
                copy_candidate(cb, cp, cn, i, m)
            m += 1
    return m if m > 0 else n


@njit(cache=True)
def _excedants(cp, cn, i):
    e = 0
    for k in range(cn[i]):
        if cp[i, k, 4] & (EXCEDANT | SURPLUS) == EXCEDANT:
            e += 1
    return e


@njit(cache=True)
def _same(cb, i, j):
    for c in range(cb.shape[1]):
        if cb[i, c] != cb[j, c]:
            return False
    return True


@njit(cache=True)
def _key(cp, cn, i):
    """A hash of candidate i's end board read from its steps: the board is the throw's start
    with one checker taken from each step's source and put on its destination, so two
    candidates of one throw with the same steps as a multiset end on the same board (equal
    keys are checked cell by cell)."""
    h = 0
    for k in range(cn[i]):
        h += (1 << ((2 * cp[i, k, 1]) & 63)) - (1 << ((2 * cp[i, k, 0]) & 63))
    return h


@njit(cache=True)
def group_plays(b, cb, cp, cn, n, pb, ps, pp, pn):
    """The plays of the candidates with the fewest excédants: each distinct end board once, in
    order of first appearance, with its paths in order; a single play of no move when n is 0.
    Returns the number of plays (their paths are `pp[:ps[plays]]`)."""
    if n == 0:
        for c in range(b.shape[0]):
            pb[0, c] = b[c]
        ps[0] = 0
        ps[1] = 1
        pn[0] = 0
        return 1
    # per candidate: its excédants, then its play (-1 when not kept); per play: its first
    # candidate, its key and (one further) its number of paths
    work = np.empty(4 * n + 1, np.int64)
    owner = work[:n]
    first = work[n:2 * n]
    key = work[2 * n:3 * n]
    count = work[3 * n:]
    low = 99
    for i in range(n):
        e = _excedants(cp, cn, i)
        owner[i] = e
        if e < low:
            low = e
    count[0] = 0
    plays = 0
    for i in range(n):
        if owner[i] != low:
            owner[i] = -1
            continue
        h = _key(cp, cn, i)
        owner[i] = -1
        for j in range(plays):
            if key[j] == h and _same(cb, first[j], i):
                owner[i] = j
                break
        if owner[i] < 0:
            first[plays] = i
            key[plays] = h
            owner[i] = plays
            plays += 1
            count[plays] = 0
        count[owner[i] + 1] += 1
    for j in range(plays):
        f = first[j]
        for c in range(cb.shape[1]):
            pb[j, c] = cb[f, c]
        count[j + 1] += count[j]
        ps[j] = count[j]
    ps[plays] = count[plays]
    # the paths, play by play, each play's in the candidates' order
    for i in range(n):
        j = owner[i]
        if j < 0:
            continue
        at = count[j]
        count[j] += 1
        for k in range(2):
            for c in range(5):
                pp[at, k, c] = cp[i, k, c]
        pn[at] = cn[i]
    return plays
