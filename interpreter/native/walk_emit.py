"""The numba source of the compiled `results()` for the pinning and same-route games and those
with checkers off the board (Plakoto, Tapa, Gul Bara, acey-deucey...): the rule sets whose
`results()` in Python is the boards of `plays()` (kernel/_fastplays.py, or the generic walk
`MoveGenerator._walk_plays` when no complete play survives), without rule hooks or corners.

The function walks the tree of the generic walk (`_dfs` and `_steps` of kernel/movegen.py) in
its order: the same sources at each node (the bar when it must enter first, the unentered
checkers, then the occupied pips from 24 down), the same steps (blocks, hits to the bar or
among the unentered, pins, bearing off exactly or by a higher number from the farthest
checker), each sequence recorded when it is reached, by how many numbers it plays. The answer
is the Python one: the distinct boards of the complete plays in the order they are found; else
those of the most numbers played, the higher number's when only one can be played; else the
board itself.

Only integers and checked choices derived from `MoveRules` reach the source.
"""
from __future__ import annotations

from interpreter.kernel._source import checked_choice, checked_int
from interpreter.kernel.board import POOL
from interpreter.kernel.rules import MoveRules
from interpreter.native.gen_emit import CATS

PINNED = 8
ACROSS = 16
TO_BAR = 32


def covers(rules: MoveRules) -> bool:
    """Whether the compiled walk serves these switches."""
    from interpreter.kernel._fastplays import fast_plays_applies

    r = rules
    layout = r.geometry
    return (fast_plays_applies(r) and r.own_corner is None and r.opp_corner is None
            and not r.no_landing and r.enter in ("bar", "none") and r.hit != "start"
            and r.excedant_filter == "none" and r.retour_conserve_exit == "farthest_checker"
            and r.exact_exit == "optional" and r.puissance_needs == "off"
            and r.doublet_moves < CATS and not (layout.pins and layout.pool)
            and (not layout.pool or r.unentered_move_on))


class _P:
    def __init__(self, r: MoveRules) -> None:
        self.DM = checked_int("doublet_moves", r.doublet_moves, 1, CATS - 1)
        self.BLOCK = checked_int("block", r.block, 1, 15)
        self.HIT = checked_choice("hit", r.hit, ("bar", "none", "pin", "unentered", "start"))
        self.PINS = self.HIT == "pin"
        self.POOL = bool(r.geometry.pool)
        self.UFIRST = bool(r.unentered_first)
        self.BAR = checked_choice("enter", r.enter, ("bar", "none")) == "bar"
        self.FIRST = bool(r.enter_first)
        bear = checked_choice("bear_off", r.bear_off, ("all_home", "anywhere", "none"))
        self.ALLHOME = bear == "all_home"
        #: no checker is ever borne off
        self.NOBEAR = bear == "none"
        self.HOME = checked_int("home_top", r.home_top, 1, 24)
        self.OFFP = checked_int("off_pip", r.off_pip, 0, 12)
        over = checked_choice("over_exit", r.over_exit, ("farthest", "any", "none"))
        self.ANY = over == "any"
        #: only an exact number bears a checker off
        self.EXACT = over == "none"
        self.PINOFF = checked_choice("pinned_bear_off", r.pinned_bear_off,
                                     ("forbidden", "allowed")) == "allowed"
        self.HIGHER = bool(r.higher_number)
        #: where an unentered checker enters: the pip `ENTRY - d`
        self.ENTRY = checked_int("entry_pip", r.entry_pip, 7, 25)
        #: hits to the opponent's start, the mover's pip OS (to his bar when the mover holds it,
        #: with `held_start = "bar"`; else refused)
        self.OS = checked_int("their start", r.geometry.their_pip(r.start_pip), 1, 24) \
            if self.HIT == "start" else 0
        self.HELD_BAR = self.HIT == "start" and checked_choice(
            "held_start", r.held_start, ("refused", "bar")) == "bar"
        #: the pips whose landings hit the opponent's checkers across the board, as a bit mask
        self.ACROSS = 0
        if r.hit_across:
            for q in range(1, 25):
                if q not in r.across_safe:
                    self.ACROSS |= 1 << q
        self.SEND = {"bar": 26, "unentered": 30}.get(self.HIT, 26)


def helpers_source(rules: MoveRules) -> str:
    """`_steps`, `_apply`, `_undo`, `_remaining` for these switches."""
    p = _P(rules)
    top = p.HOME if p.ALLHOME else 24
    out = ["@njit(cache=True)", "def _remaining(L):", "    n = L[25]",
           "    for q in range(1, 25):", "        if L[q] > 0:", "            n += L[q]"]
    if p.POOL:
        out.append(f"    n += L[{POOL}]")
    if p.PINS:
        out += ["    for q in range(1, 25):",
                "        if L[q] < 0 and (L[28] >> q) & 1:", "            n += 1"]
    out += ["    return n", "", ""]
    # may the mover bear off on L
    out += ["@njit(cache=True, inline='always')", "def _may_bear(L):"]
    if p.NOBEAR:
        out += ["    return False"]
    out += ["    if L[25] > 0:", "        return False"]
    if p.POOL:
        out += [f"    if L[{POOL}] > 0:", "        return False"]
    if p.PINS:
        out += ["    if L[28]:", "        far = 0",
                "        for q in range(1, 25):",
                "            if L[q] < 0 and (L[28] >> q) & 1:", "                far = q"]
        cond = "far > 0" if not p.PINOFF else (f"far > {top}" if p.ALLHOME else "False")
        out += [f"        if {cond}:", "            return False"]
    if p.ALLHOME:
        out += [f"    for q in range({top + 1}, 25):", "        if L[q] > 0:",
                "            return False"]
    out += ["    return True", "", ""]
    # a checker of the mover above s (a pinned one included)
    out += ["@njit(cache=True, inline='always')", "def _held_above(L, s):",
            "    for q in range(s + 1, 25):", "        if L[q] > 0:", "            return True"]
    if p.PINS:
        out += ["        if L[q] < 0 and (L[28] >> q) & 1:", "            return True"]
    out += ["    return False", "", ""]
    # the steps of d on L: (s, t, h, fl) rows from W[base]
    out += ["@njit(cache=True)", "def _steps(L, d, W, base):", "    n = 0",
            "    srcs = np.empty(27, np.int64)", "    m = 0"]
    pool = f"L[{POOL}] > 0" if p.POOL else "False"
    first = []
    if p.BAR and p.FIRST:
        first.append(("L[25] > 0", ["srcs[0] = 25", "m = 1"]))
    if p.POOL and p.UFIRST:
        first.append((pool, [f"srcs[0] = {POOL}", "m = 1"]))
    general = []
    if p.BAR and not p.FIRST:
        general += ["if L[25] > 0:", "    srcs[m] = 25", "    m += 1"]
    if p.POOL:
        general += [f"if {pool}:", f"    srcs[m] = {POOL}", "    m += 1"]
    general += ["for q in range(24, 0, -1):", "    if L[q] > 0:", "        srcs[m] = q",
                "        m += 1"]
    if first:
        for i, (cond, body) in enumerate(first):
            out.append(f"    {'if' if i == 0 else 'elif'} {cond}:")
            out += [f"        {x}" for x in body]
        out.append("    else:")
        out += [f"        {x}" for x in general]
    else:
        out += [f"    {x}" for x in general]
    out += ["    bear = -1", "    for i in range(m):", "        s = srcs[i]"]
    if p.POOL:
        out += [f"        t = {p.ENTRY} - d if s == {POOL} else s - d"]
    else:
        out += ["        t = s - d"]
    out += [f"        if t > {p.OFFP}:", "            v = L[t]", "            if v >= 0:"]
    if p.ACROSS:
        out += [f"                if ({p.ACROSS} >> t) & 1 and L[25 - t] < 0:",
                "                    h = -L[25 - t]", f"                    fl = {ACROSS}",
                "                else:", "                    h = 0", "                    fl = 0"]
    else:
        out += ["                h = 0", "                fl = 0"]
    if p.PINS:
        out += ["            elif v == -1 and not (L[28] >> t) & 1:", "                h = 1",
                f"                fl = {PINNED}"]
    elif p.HIT == "start":
        # never onto a start the mover holds, nor a hit on that very start: refused, or the
        # checker hit goes to the bar
        out += [f"            elif -v < {p.BLOCK}:", "                h = -v",
                "                fl = 0", f"                if L[{p.OS}] > 0 or t == {p.OS}:"]
        out += [f"                    fl = {TO_BAR}"] if p.HELD_BAR else \
            ["                    continue"]
    elif p.HIT != "none":
        out += [f"            elif -v < {p.BLOCK}:", "                h = -v",
                "                fl = 0"]
    out += ["            else:", "                continue"]
    out += ["        else:"]
    if p.NOBEAR:
        out += ["            continue"]
    out += [f"            if s == 25 or s == {POOL}:", "                continue",
            "            if bear < 0:", "                bear = 1 if _may_bear(L) else 0",
            "            if bear == 0:", "                continue", "            h = 0",
            f"            if t == {p.OFFP}:", "                fl = 0"]
    if p.ANY:
        out += ["            else:", "                fl = 1"]
    elif p.EXACT:
        out += ["            else:", "                continue"]
    else:
        out += ["            elif not _held_above(L, s):", "                fl = 1",
                "            else:", "                continue"]
    out += ["            t = 0", "        r = base + 4 * n", "        W[r] = s",
            "        W[r + 1] = t", "        W[r + 2] = h", "        W[r + 3] = fl",
            "        n += 1", "    return n", "", ""]
    # apply and undo one step (returns whether a pinned checker was released)
    out += ["@njit(cache=True, inline='always')", "def _apply(L, s, t, h, fl):",
            "    L[s] -= 1", "    rel = False"]
    if p.PINS:
        out += ["    if L[s] == 0 and (L[28] >> s) & 1:", "        L[28] ^= 1 << s",
                "        L[s] = -1", "        rel = True"]
    out += ["    if t == 0:", "        L[0] += 1"]
    if p.PINS:
        out += [f"    elif fl & {PINNED}:", "        L[t] = 1", "        L[28] |= 1 << t"]
    out += ["    else:", "        if h:"] + _hit(p, "+", 12) + [
            "        L[t] += 1", "    return rel", "", ""]
    out += ["@njit(cache=True, inline='always')", "def _undo(L, s, t, h, fl, rel):",
            "    if t == 0:", "        L[0] -= 1"]
    if p.PINS:
        out += [f"    elif fl & {PINNED}:", "        L[t] = -1", "        L[28] ^= 1 << t"]
    out += ["    else:", "        L[t] -= 1", "        if h:"] + _hit(p, "-", 12) + [
            "    if rel:", "        L[s] = 0",
            "        L[28] |= 1 << s", "    L[s] += 1"]
    return "\n".join(out) + "\n"


def _hit(p: _P, sign: str, indent: int) -> list[str]:
    """The lines that put back (`sign` "+") or take away ("-") h opposing checkers hit by the
    step (s, t, h, fl): off the landing pip, or the pip across it, and where they are sent."""
    other = "-" if sign == "+" else "+"
    pad = " " * indent
    if p.ACROSS:
        out = [f"{pad}if fl & {ACROSS}:", f"{pad}    L[25 - t] {sign}= h", f"{pad}else:",
               f"{pad}    L[t] {sign}= h"]
    else:
        out = [f"{pad}L[t] {sign}= h"]
    if p.HIT == "start":
        # the opponent's checkers on his start are negative counts
        if p.HELD_BAR:
            out += [f"{pad}if fl & {TO_BAR}:", f"{pad}    L[26] {sign}= h", f"{pad}else:",
                    f"{pad}    L[{p.OS}] {other}= h"]
        else:
            out += [f"{pad}L[{p.OS}] {other}= h"]
    else:
        out += [f"{pad}L[{p.SEND}] {sign}= h"]
    return out


def results_source(rules: MoveRules) -> str:
    """`results(b, d1, d2, W)` (the protocol of gen_emit: category * SHIFT + count, -1 the
    board itself, -2 too many results)."""
    p = _P(rules)
    e: list[str] = []

    def w(depth: int, text: str) -> None:
        e.append("    " * depth + text)

    w(0, "@njit(cache=True)")
    w(0, "def results(b, d1, d2, W):")
    w(1, "W[OFF_GEN] += 1")
    w(1, "for c in range(CATS):")
    w(2, "W[OFF_COUNTS + c] = 0")
    w(1, "L = b.copy()")
    w(1, "NT = _remaining(L) + L[0]")

    def level(n: int, k: int, total: int, die: str, cat_of_partial: str) -> None:
        base = f"OFF_SRC + {4 * 64 * (k - 1)}"
        w(n, f"n{k} = _steps(L, {die}, W, {base})")
        w(n, f"for i{k} in range(n{k}):")
        m = n + 1
        w(m, f"r = {base} + 4 * i{k}")
        w(m, f"s{k} = W[r]")
        w(m, f"t{k} = W[r + 1]")
        w(m, f"h{k} = W[r + 2]")
        w(m, f"f{k} = W[r + 3]")
        w(m, f"rel{k} = _apply(L, s{k}, t{k}, h{k}, f{k})")
        if k == total:
            w(m, "if not _add(W, 0, L):")
            w(m + 1, "return -2")
        else:
            w(m, f"if t{k} == 0 and L[0] == NT:")
            w(m + 1, "if not _add(W, 0, L):")
            w(m + 2, "return -2")
            w(m, "else:")
            w(m + 1, f"if not _add(W, {cat_of_partial}, L):")
            w(m + 2, "return -2")
            nxt = "y" if total == 2 and die == "x" else die
            level(m + 1, k + 1, total, nxt, str(k + 1))
        w(m, f"_undo(L, s{k}, t{k}, h{k}, f{k}, rel{k})")

    w(1, "if d1 != d2:")
    w(2, "for order in range(2):")
    w(3, "x = d1 if order == 0 else d2")
    w(3, "y = d2 if order == 0 else d1")
    level(3, 1, 2, "x", "1 + order")
    w(2, "if W[OFF_COUNTS] > 0:")
    w(3, "return W[OFF_COUNTS]")
    w(2, "hi = 1 if d1 > d2 else 2")
    if p.HIGHER:
        w(2, "if W[OFF_COUNTS + hi] > 0:")
        w(3, "return hi * SHIFT + W[OFF_COUNTS + hi]")
    # the plays of either number, in the order found (the first order's, then the second's)
    w(2, "if W[OFF_COUNTS + 1] > 0 or W[OFF_COUNTS + 2] > 0:")
    w(3, "R = OFF_ROWS + 2 * CAP * SIZE")
    w(3, "for j in range(W[OFF_COUNTS + 2]):")
    w(4, "for i in range(SIZE):")
    w(5, "L[i] = W[R + j * SIZE + i]")
    w(4, "if not _add(W, 1, L):")
    w(5, "return -2")
    w(3, "return SHIFT + W[OFF_COUNTS + 1]")
    w(2, "return -1")
    w(1, "d = d1")
    level(1, 1, p.DM, "d", "1")
    w(1, "if W[OFF_COUNTS] > 0:")
    w(2, "return W[OFF_COUNTS]")
    for i in range(p.DM - 1, 0, -1):
        w(1, f"if W[OFF_COUNTS + {i}] > 0:")
        w(2, f"return {i} * SHIFT + W[OFF_COUNTS + {i}]")
    w(1, "return -1")
    return "\n".join(e) + "\n"
