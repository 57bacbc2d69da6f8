"""The numba source of the compiled `results()`: the distinct end boards of a throw, for the
movement switches of the backgammon family (the rule sets `kernel._fastgen` serves: no corners,
no rule hooks, bar entering and hitting, maximal dice, optional exact bearing off).

The function walks exactly the tree of `kernel._fastgen`'s generated Python in the same order
(the same sources at each level, the same doublet candidates, the same "quick" second order,
the same plays of fewer numbers kept at dead ends), so its boards come out in the same order;
what changes is the machine: a flat int64 board changed in place and restored, and duplicate
boards found by a 64-bit hash of the board checked against the stored rows.

Only integers and checked choices derived from `MoveRules` reach the source (through
`kernel._source.checked_int` / `checked_choice`), never text of a variant file.

The compiled function is `results(b, d1, d2, W)`: `b` the board (int64, the kernel's layout),
`W` the work space (`workspace_size()` int64s, made once per generator). It returns
`cat * 2**20 + n`: the rows of category `cat` (0 the complete plays, 1.. the plays of fewer
numbers) are the answer, `n` of them, at `rows_offset(cat)` in `W`; `-1` means "the board
itself" (nothing can be played) and `-2` that the work space was too small (the caller asks
the Python generator).
"""
from __future__ import annotations

from interpreter.kernel._source import checked_choice, checked_int
from interpreter.kernel.rules import MoveRules

#: rows a category of results may hold (more: the Python generator answers)
CAP = 2048
#: slots of a category's hash table (a power of two, twice CAP)
TSIZE = 4096
#: categories: complete plays, then plays of fewer numbers (the higher and the lower number
#: for two numbers, each count of moves for a doublet)
CATS = 8
SHIFT = 1 << 20


def covers(rules: MoveRules) -> bool:
    """Whether the compiled `results()` serves these switches (as `fast_path_applies`)."""
    from interpreter.kernel.movegen import fast_path_applies

    return fast_path_applies(rules) and rules.geometry.size == 28 and rules.doublet_moves < CATS


class _P:
    def __init__(self, r: MoveRules) -> None:
        self.DM = checked_int("doublet_moves", r.doublet_moves, 1, CATS - 1)
        self.BLOCK = checked_int("block", r.block, 1, 15)
        self.HOME = checked_int("home_top", r.home_top, 1, 24)
        self.OFFP = checked_int("off_pip", r.off_pip, 0, 12)
        self.ALLHOME = checked_choice("bear_off", r.bear_off, ("all_home", "anywhere")) \
            == "all_home"
        self.FARTHEST = checked_choice("over_exit", r.over_exit, ("farthest", "any")) \
            == "farthest"
        self.HIGHER = bool(r.higher_number)
        self.SIZE = 28


def layout(size: int) -> dict[str, int]:
    """Offsets of the parts of the work space (int64 words)."""
    off: dict[str, int] = {}
    pos = 0
    for name, words in (("gen", 1), ("counts", CATS), ("rows", CATS * CAP * size),
                        ("keys", CATS * CAP), ("table", CATS * TSIZE), ("stamp", CATS * TSIZE),
                        ("src", 8 * 256), ("cand", 32), ("pos", 32)):
        off[name] = pos
        pos += words
    off["total"] = pos
    return off


def workspace_size(size: int = 28) -> int:
    return layout(size)["total"]


def rows_offset(cat: int, size: int = 28) -> int:
    return layout(size)["rows"] + cat * CAP * size


#: the helpers every generated module holds (static text: no variant reaches it)
HELPERS = '''
@njit(cache=True)
def _hash(L):
    h = np.uint64(1469598103934665603)
    for i in range(SIZE):
        h = (h ^ np.uint64(L[i] + 64)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _add(W, cat, L):
    """Add the live board L to category cat unless it is there; False when the category is
    full."""
    h = _hash(L)
    gen = W[OFF_GEN]
    mask = TSIZE - 1
    slot = np.int64(h & np.uint64(mask))
    tbase = OFF_TABLE + cat * TSIZE
    sbase = OFF_STAMP + cat * TSIZE
    kbase = OFF_KEYS + cat * CAP
    rbase = OFF_ROWS + cat * CAP * SIZE
    hk = np.int64(h >> np.uint64(1))
    while W[sbase + slot] == gen:
        j = W[tbase + slot]
        if W[kbase + j] == hk:
            r = rbase + j * SIZE
            same = True
            for i in range(SIZE):
                if W[r + i] != L[i]:
                    same = False
                    break
            if same:
                return True
        slot = (slot + 1) & mask
    n = W[OFF_COUNTS + cat]
    if n >= CAP:
        return False
    W[sbase + slot] = gen
    W[tbase + slot] = n
    W[kbase + n] = hk
    r = rbase + n * SIZE
    for i in range(SIZE):
        W[r + i] = L[i]
    W[OFF_COUNTS + cat] = n + 1
    return True


@njit(cache=True)
def _has(W, cat, L):
    h = _hash(L)
    gen = W[OFF_GEN]
    mask = TSIZE - 1
    slot = np.int64(h & np.uint64(mask))
    tbase = OFF_TABLE + cat * TSIZE
    sbase = OFF_STAMP + cat * TSIZE
    kbase = OFF_KEYS + cat * CAP
    rbase = OFF_ROWS + cat * CAP * SIZE
    hk = np.int64(h >> np.uint64(1))
    while W[sbase + slot] == gen:
        j = W[tbase + slot]
        if W[kbase + j] == hk:
            r = rbase + j * SIZE
            same = True
            for i in range(SIZE):
                if W[r + i] != L[i]:
                    same = False
                    break
            if same:
                return True
        slot = (slot + 1) & mask
    return False
'''


class _E:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def constants(size: int) -> str:
    off = layout(size)
    out = [f"SIZE = {size}", f"CAP = {CAP}", f"TSIZE = {TSIZE}", f"SHIFT = {SHIFT}",
           f"CATS = {CATS}"]
    for name in ("gen", "counts", "rows", "keys", "table", "stamp", "src", "cand", "pos"):
        out.append(f"OFF_{name.upper()} = {off[name]}")
    return "\n".join(out) + "\n"


def results_source(rules: MoveRules) -> str:
    """The numba source of `results(b, d1, d2, W)` for these switches (no imports, no
    helpers: `module_source` puts them around it)."""
    p = _P(rules)
    e = _E()
    e(0, "@njit(cache=True)")
    e(0, "def results(b, d1, d2, W):")
    e(1, "W[OFF_GEN] += 1")
    e(1, "for c in range(CATS):")
    e(2, "W[OFF_COUNTS + c] = 0")
    e(1, "L = b.copy()")
    # P: the occupied pips, highest first (what the Python list R24 filter gives)
    e(1, "P = np.empty(26, np.int64)")
    e(1, "nP = 0")
    e(1, "NT = L[0] + L[25]")
    e(1, "far = L[25]")
    e(1, "for p in range(24, 0, -1):")
    e(2, "if L[p] > 0:")
    e(3, "P[nP] = p")
    e(3, "nP += 1")
    e(3, "NT += L[p]")
    if p.ALLHOME:
        e(3, f"if p > {p.HOME}:")
        e(4, "far += L[p]")
    e(1, "if d1 != d2:")
    _simple(e, 2, p)
    e(1, "else:")
    _doublet(e, 2, p)
    e(1, "return -1")
    return "\n".join(e.lines) + "\n"


def _move(e: _E, n: int, p: _P, lvl: int, die: str) -> None:
    """The legality of s{lvl} moved by `die`: sets t{lvl}, v{lvl} or continues (the body of a
    loop over sources)."""
    s, t, v = f"s{lvl}", f"t{lvl}", f"v{lvl}"
    farv = f"far{lvl - 1}" if lvl > 1 else "far"
    e(n, f"{t} = {s} - {die}")
    e(n, f"if {t} > {p.OFFP}:")
    e(n + 1, f"{v} = L[{t}]")
    e(n + 1, f"if {v} <= {-p.BLOCK}:")
    e(n + 2, "continue")
    e(n, "else:")
    if p.ALLHOME:
        e(n + 1, f"if {farv}:")
        e(n + 2, "continue")
    if p.FARTHEST:
        top = p.HOME if p.ALLHOME else 24
        e(n + 1, f"if {t} < {p.OFFP}:")
        e(n + 2, "above = False")
        e(n + 2, f"for q in range({top}, {s}, -1):")
        e(n + 3, "if L[q] > 0:")
        e(n + 4, "above = True")
        e(n + 4, "break")
        e(n + 2, "if above:")
        e(n + 3, "continue")
    e(n + 1, f"{t} = 0")
    e(n + 1, f"{v} = L[0]")


def _apply(e: _E, n: int, p: _P, lvl: int) -> None:
    s, t, v = f"s{lvl}", f"t{lvl}", f"v{lvl}"
    e(n, f"L[{s}] -= 1")
    e(n, f"if {v} < 0:")
    e(n + 1, f"L[{t}] = 1")
    e(n + 1, f"L[26] -= {v}")
    e(n, "else:")
    e(n + 1, f"L[{t}] = {v} + 1")
    if p.ALLHOME:
        farv = f"far{lvl - 1}" if lvl > 1 else "far"
        e(n, f"far{lvl} = {farv} - 1 if {s} > {p.HOME} and {p.HOME} >= {t} else {farv}")


def _undo(e: _E, n: int, lvl: int) -> None:
    s, t, v = f"s{lvl}", f"t{lvl}", f"v{lvl}"
    e(n, f"L[{s}] += 1")
    e(n, f"L[{t}] = {v}")
    e(n, f"if {v} < 0:")
    e(n + 1, f"L[26] += {v}")


def _overflow(e: _E, n: int, call: str) -> None:
    e(n, f"if not {call}:")
    e(n + 1, "return -2")


def _simple(e: _E, n: int, p: _P) -> None:
    """Two numbers: both orders; a play of one number kept (category 1 the higher, 2 the
    lower) only at a dead end while no complete play is known."""
    e(n, "dh = d1 if d1 > d2 else d2")
    e(n, "quick = L[25] == 0 and far >= 2" if p.ALLHOME else "quick = False")
    e(n, "S1 = OFF_SRC")
    e(n, "S2 = OFF_SRC + 32")
    e(n, "for order in range(2):")
    m = n + 1
    e(m, "x = d1 if order == 0 else d2")
    e(m, "y = d2 if order == 0 else d1")
    e(m, "one = 1 if x == dh else 2")
    e(m, "if L[25] > 0:")
    e(m + 1, "W[S1] = 25")
    e(m + 1, "n1 = 1")
    e(m, "else:")
    e(m + 1, "for i in range(nP):")
    e(m + 2, "W[S1 + i] = P[i]")
    e(m + 1, "n1 = nP")
    e(m, "for i1 in range(n1):")
    k = m + 1
    e(k, "s1 = W[S1 + i1]")
    _move(e, k, p, 1, "x")
    _apply(e, k, p, 1)
    e(k, "if t1 == 0 and L[0] == NT:")
    _overflow(e, k + 1, "_add(W, 0, L)")
    e(k, "else:")
    j = k + 1
    e(j, "g = 0")
    # the second level's sources, as the Python generator's list
    e(j, "if L[25] > 0:")
    e(j + 1, "W[S2] = 25")
    e(j + 1, "n2 = 1")
    e(j, "elif quick and x == d2:")
    e(j + 1, "W[S2] = t1")
    e(j + 1, "n2 = 1")
    e(j, "else:")
    e(j + 1, "for i in range(nP):")
    e(j + 2, "W[S2 + i] = P[i]")
    e(j + 1, "n2 = nP")
    e(j + 1, "if t1 != 0 and L[t1] == 1:")
    e(j + 2, "W[S2 + nP] = t1")
    e(j + 2, "n2 = nP + 1")
    e(j, "for i2 in range(n2):")
    q = j + 1
    e(q, "s2 = W[S2 + i2]")
    e(q, "if L[s2] <= 0:")
    e(q + 1, "continue")
    _move(e, q, p, 2, "y")
    e(q, "g = 1")
    _apply(e, q, p, 2)
    _overflow(e, q, "_add(W, 0, L)")
    _undo(e, q, 2)
    e(j, "if g == 0 and W[OFF_COUNTS] == 0 and not _has(W, one, L):")
    _overflow(e, j + 1, "_add(W, one, L)")
    _undo(e, k, 1)
    e(n, "if W[OFF_COUNTS] > 0:")
    e(n + 1, "return W[OFF_COUNTS]")
    if p.HIGHER:
        e(n, "if W[OFF_COUNTS + 1] > 0:")
        e(n + 1, "return SHIFT + W[OFF_COUNTS + 1]")
        e(n, "if W[OFF_COUNTS + 2] > 0:")
        e(n + 1, "return 2 * SHIFT + W[OFF_COUNTS + 2]")
    else:
        # the plays of either number, the higher's first (a dict updated with the lower's)
        e(n, "if W[OFF_COUNTS + 1] > 0 or W[OFF_COUNTS + 2] > 0:")
        e(n + 1, "R = OFF_ROWS + 2 * CAP * SIZE")
        e(n + 1, "for j in range(W[OFF_COUNTS + 2]):")
        e(n + 2, "for i in range(SIZE):")
        e(n + 3, "L[i] = W[R + j * SIZE + i]")
        _overflow(e, n + 2, "_add(W, 1, L)")
        e(n + 1, "return SHIFT + W[OFF_COUNTS + 1]")


def _doublet(e: _E, n: int, p: _P) -> None:
    DM = p.DM
    e(n, "d = d1")
    e(n, "CD = OFF_CAND")
    e(n, "for i in range(26):")
    e(n + 1, "W[CD + i] = 0")
    e(n, f"nob = far >= {DM}" if p.ALLHOME else "nob = False")
    e(n, "for ip in range(nP + 1):")
    e(n + 1, "if ip < nP:")
    e(n + 2, "p = P[ip]")
    e(n + 1, "elif L[25] > 0:")
    e(n + 2, "p = 25")
    e(n + 1, "else:")
    e(n + 2, "break")
    e(n + 1, f"for i in range({DM}):")
    e(n + 2, f"if p <= {p.OFFP}:")
    e(n + 3, "break")
    e(n + 2, "q = p - d")
    e(n + 2, f"if q > {p.OFFP}:")
    e(n + 3, f"if L[q] <= {-p.BLOCK}:")
    e(n + 4, "break")
    e(n + 2, "elif nob:")
    e(n + 3, "break")
    e(n + 2, "W[CD + p] = 1")
    e(n + 2, "p = q")
    # C: the candidates, highest first (the bar left out); PS[c]: c's place in C
    e(n, "C = np.empty(25, np.int64)")
    e(n, "PS = np.zeros(26, np.int64)")
    e(n, "nC = 0")
    e(n, "for c in range(24, 0, -1):")
    e(n + 1, "if W[CD + c] == 1:")
    e(n + 2, "C[nC] = c")
    e(n + 2, "PS[c] = nC")
    e(n + 2, "nC += 1")

    def level(n: int, lvl: int) -> None:
        S = f"S{lvl}"
        e(n, f"{S} = OFF_SRC + {32 * (lvl - 1)}")
        e(n, "if L[25] > 0:")
        e(n + 1, f"W[{S}] = 25")
        e(n + 1, f"n{lvl} = 1")
        e(n, "else:")
        lo = "0" if lvl == 1 else f"(0 if s{lvl - 1} == 25 else PS[s{lvl - 1}])"
        e(n + 1, f"j0 = {lo}")
        e(n + 1, "for i in range(j0, nC):")
        e(n + 2, f"W[{S} + i - j0] = C[i]")
        e(n + 1, f"n{lvl} = nC - j0")
        e(n, f"for i{lvl} in range(n{lvl}):")
        m = n + 1
        e(m, f"s{lvl} = W[{S} + i{lvl}]")
        e(m, f"if L[s{lvl}] <= 0:")
        e(m + 1, "continue")
        _move(e, m, p, lvl, "d")
        e(m, f"g{lvl} = 1")
        _apply(e, m, p, lvl)
        if lvl == DM:
            _overflow(e, m, "_add(W, 0, L)")
        else:
            e(m, f"if t{lvl} == 0 and L[0] == NT:")
            _overflow(e, m + 1, "_add(W, 0, L)")
            e(m, "else:")
            e(m + 1, f"g{lvl + 1} = 0")
            level(m + 1, lvl + 1)
            e(m + 1, f"if g{lvl + 1} == 0 and W[OFF_COUNTS] == 0 and not _has(W, {lvl}, L):")
            _overflow(e, m + 2, f"_add(W, {lvl}, L)")
        _undo(e, m, lvl)

    e(n, "g1 = 0")
    level(n, 1)
    e(n, "if W[OFF_COUNTS] > 0:")
    e(n + 1, "return W[OFF_COUNTS]")
    for i in range(DM - 1, 0, -1):
        e(n, f"if W[OFF_COUNTS + {i}] > 0:")
        e(n + 1, f"return {i} * SHIFT + W[OFF_COUNTS + {i}]")
