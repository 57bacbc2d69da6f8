"""The compiled `results()` of the games the other compiled generators leave out: the generic
walk of `MoveGenerator._walk_plays` with the variant's `forbid` rules called inside the compiled
code (Fevga, Long Nardy, Jacquet: the first runner or courier, the head, the primes and blocks;
Tourne-case: the order of the men), and with the switches only that walk serves (the lower
number alone, three dice, entering on the own side, no bearing off or only by the exact number,
hits across the board or to the start, the shared route: Tourne-case, Tabula, Emperador).

The single moves are those of `walk_emit.py` (`helpers_source`, which writes them for these
switches too); the walk keeps each sequence's path as an array of steps (src, dst, die, hit,
flags) and asks the rules as `_walk_plays` asks them, by the functions the rule compiler's numba
back end made of them (`rules_emit.py`), joined with the walk in one module:

- a rule on each move (`on = "move"`) is asked of every single move before it is made part of a
  sequence: the position before that move, the position after it and the path so far; a move it
  forbids is undone and not followed;
- the end-of-play rules judge each sequence reached (the complete ones and the shorter ones)
  by the position before the throw, the position it ends on and its path. Each sequence is
  kept once per (end board, mask) in its category (how many numbers it plays), the mask saying
  which rules forbid it: bit 0 those never waived, one bit for each waivable rule. When no rule
  reads the path, a board seen already in its category is not judged again.

The orders of the dice are those of `_explore`: both orders of two numbers, a doublet's moves in
one order, the lower number alone, or the distinct orders of three dice; with three dice and no
rule each (board, numbers left) is walked once, as `some_plays` walks it (what follows a board
met again is known: the answer is the same).

After the walk, `_choose` decides the waivers for the throw from the kept masks in the order
of the rules ("unavoidable": no sequence, the empty one included, satisfies the rule;
"fewer_numbers": obeying it plays fewer numbers than breaking it), then applies the maximal-dice
rule and the higher-number rule to the sequences every active rule allows, and gathers their
distinct boards in the order they were first found: the boards of `plays()`, in its order.
Where the file's updates of the named state read the play's path (Emperador's hits while a
block stands), each kept row also holds the first path that reached it: `some_plays` then
answers with one way to each board, the first that `_walk_plays` finds.

Only integers and checked choices derived from `MoveRules`, and the rule functions' names that
`rules_emit.py` made up (`rule_<n>`, checked here again), reach the source; the rules' own code
is that module's, checked against its whitelist (`rules_emit.check_source`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from interpreter.kernel._source import checked_choice, checked_int
from interpreter.native import gen_emit, walk_emit
from interpreter.native.gen_emit import CATS, SHIFT

#: the category the answer is gathered in (the walk uses 0 .. doublet_moves - 1)
OUT = CATS - 1
#: the most waivable rules a throw's mask holds (bit 0 is every rule never waived)
MAX_WAIVABLE = 30
#: the deepest path (a doublet's single moves)
MAX_STEPS = OUT - 1
#: the categories of the boards walked after the first and the second of three dice, with the
#: numbers left (`_seen`: only where no rule is asked, so no mask is read there)
PRUNED = 3
WAIVES = ("never", "unavoidable", "fewer_numbers")
_NAME = re.compile(r"rule_\d{1,5}")


@dataclass(frozen=True)
class Hooked:
    """What the emitter needs of a variant: its switches, the compiled rules' source, and each
    forbid rule as (function name, waive mode, reads the path) and each rule on a move as its
    function name, in the generator's order."""

    rules: Any
    rules_source: str
    rules_digest: str
    forbid: tuple[tuple[str, str, bool], ...]
    moves: tuple[str, ...]
    #: keep each end board's first path (for `some_plays`: the file's updates of the named
    #: state read the path of the play made)
    paths: bool = False

    @property
    def depth(self) -> int:
        """The most single moves of a sequence: the length of the paths kept."""
        r = self.rules
        return 3 if r.dice == 3 else 1 if r.numbers == "lower" else max(2, r.doublet_moves)

    @property
    def row(self) -> int:
        """The words of a kept row: the board, its mask, and with paths the number of steps
        and the steps, each as one number (`step_of` reads it)."""
        size = self.rules.geometry.size
        return size + 2 + self.depth if self.paths else size + 1


def switches_covered(r: Any) -> bool:
    """Whether the walk below serves these movement switches: those of `walk_emit.py` (no
    corners, no entering from a start, the maximal-dice rule, optional exact bearing off) and
    the ones only the generic walk serves: the lower number alone, three dice, entering
    elsewhere than as from the bar, no bearing off or only by the exact number, hits to the
    start (refused or to the bar when it is held) and across the board, the shared route."""
    layout = r.geometry
    return (r.max_dice and r.own_corner is None and r.opp_corner is None and not r.no_landing
            and r.enter in ("bar", "none") and r.hit in ("bar", "none", "pin", "unentered",
                                                         "start")
            and r.excedant_filter == "none" and r.retour_conserve_exit == "farthest_checker"
            and r.exact_exit == "optional" and r.puissance_needs == "off"
            and r.numbers in ("both", "lower") and r.dice in (2, 3)
            and not (r.dice == 3 and r.numbers != "both")
            and 1 <= r.doublet_moves <= MAX_STEPS and 7 <= r.entry_pip <= 25
            and not (layout.pins and (layout.pool or r.hit_across or r.bear_off == "none"
                                      or r.over_exit == "none"))
            and (not layout.pool or r.unentered_move_on))


def hooked(variant: Any) -> Hooked | None:
    """The variant's rules as the compiled walk calls them; None when its switches or rules are
    not covered, or another compiled generator serves it (the switches of `gen_emit.py` or
    `walk_emit.py` without rules). Covered: the switches of `switches_covered`, and every
    forbid rule made by the rule compiler and compiled by its numba back end, the generator's
    rules those of the file."""
    gen = variant.generator
    r = gen.rules
    if not switches_covered(r):
        return None
    from interpreter.dsl import reads_path

    rules = variant.rules
    paths = any(reads_path(fn) for _name, _slot, _flag, fn in getattr(rules, "updates", ()))
    if not (gen.forbid or gen.moves):
        if (gen_emit.covers(r) or walk_emit.covers(r)) and not paths:
            return None
        return Hooked(r, "", "", (), (), paths)
    forbid = tuple(fn for _id, fn in rules.forbid)
    moves = tuple(fn for _id, fn in getattr(rules, "forbid_move", ()))
    if len(forbid) != len(gen.forbid) or any(a is not b for a, b in zip(forbid, gen.forbid)):
        return None
    if len(moves) != len(gen.moves) or any(a is not b for a, b in zip(moves, gen.moves)):
        return None
    waive = tuple(getattr(f, "waive", "never") or "never" for f in forbid)
    if any(w not in WAIVES for w in waive) or sum(w != "never" for w in waive) > MAX_WAIVABLE:
        return None
    from interpreter.native.rules_emit import emit_rules

    nr = emit_rules(variant)
    if nr is None:
        return None
    names = []
    for rule_id, _fn in list(rules.forbid) + list(getattr(rules, "forbid_move", ())):
        got = nr.functions.get(rule_id)
        if got is None or got.kind not in ("forbid", "move") or not _NAME.fullmatch(got.name):
            return None
        names.append(got.name)
    k = len(forbid)
    return Hooked(r, nr.source, nr.digest,
                  tuple((names[i], waive[i], reads_path(forbid[i])) for i in range(k)),
                  tuple(names[k:]), paths)


def covers(variant: Any) -> bool:
    """Whether the compiled walk of this module serves the variant (`hooked`)."""
    return hooked(variant) is not None


def constants(h: Hooked) -> str:
    """The sizes and work-space offsets: rows of `h.row` words (a board, its mask, and its
    first path when `h.paths`); OFF_BEST the word where the walk leaves how many numbers the
    answer plays."""
    size = h.rules.geometry.size
    off = gen_emit.layout(h.row)
    out = [f"BOARD = {size}", f"ROW = {h.row}", f"PATHS = {1 if h.paths else 0}",
           f"CAP = {gen_emit.CAP}", f"TSIZE = {gen_emit.TSIZE}", f"SHIFT = {SHIFT}",
           f"CATS = {CATS}", f"OUT = {OUT}", f"OFF_BEST = {off['cand']}"]
    for name in ("gen", "counts", "rows", "keys", "table", "stamp", "src"):
        out.append(f"OFF_{name.upper()} = {off[name]}")
    return "\n".join(out) + "\n"


#: the rows of a category (a board, its mask and, with PATHS, the first path that reached it),
#: found by a hash of the board; the waivers' and the answer's reading of them (static text)
ROWS = '''
@njit(cache=True, inline='always')
def _hash(L):
    h = np.uint64(1469598103934665603)
    for i in range(BOARD):
        h = (h ^ np.uint64(L[i] + 64)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _find(W, cat, L, m):
    # The row of board L with mask m (any mask when m < 0) in category cat, or -1.
    h = _hash(L)
    gen = W[OFF_GEN]
    mask = TSIZE - 1
    slot = np.int64(h & np.uint64(mask))
    tbase = OFF_TABLE + cat * TSIZE
    sbase = OFF_STAMP + cat * TSIZE
    kbase = OFF_KEYS + cat * CAP
    rbase = OFF_ROWS + cat * CAP * ROW
    hk = np.int64(h >> np.uint64(1))
    while W[sbase + slot] == gen:
        j = W[tbase + slot]
        if W[kbase + j] == hk:
            r = rbase + j * ROW
            same = m < 0 or W[r + BOARD] == m
            if same:
                for i in range(BOARD):
                    if W[r + i] != L[i]:
                        same = False
                        break
            if same:
                return j
        slot = (slot + 1) & mask
    return -1


@njit(cache=True)
def _put(W, cat, L, m):
    # Add board L with mask m to category cat (not there yet): the offset of its row in W, or
    # -1 when the category is full.
    n = W[OFF_COUNTS + cat]
    if n >= CAP:
        return -1
    h = _hash(L)
    gen = W[OFF_GEN]
    mask = TSIZE - 1
    slot = np.int64(h & np.uint64(mask))
    sbase = OFF_STAMP + cat * TSIZE
    while W[sbase + slot] == gen:
        slot = (slot + 1) & mask
    W[sbase + slot] = gen
    W[OFF_TABLE + cat * TSIZE + slot] = n
    W[OFF_KEYS + cat * CAP + n] = np.int64(h >> np.uint64(1))
    r = OFF_ROWS + cat * CAP * ROW + n * ROW
    for i in range(BOARD):
        W[r + i] = L[i]
    W[r + BOARD] = m
    W[OFF_COUNTS + cat] = n + 1
    return r


@njit(cache=True, inline='always')
def _keep_path(W, r, X, k):
    # The k steps of X kept in the row at r (with PATHS), each as one number
    W[r + BOARD + 1] = k
    for j in range(k):
        W[r + BOARD + 2 + j] = (X[j, 0] | (X[j, 1] << 5) | (X[j, 2] << 10) | (X[j, 3] << 13)
                                | (X[j, 4] << 17))


@njit(cache=True)
def _any(W, cat, A):
    # Whether a row of category cat is allowed by the active rules A.
    base = OFF_ROWS + cat * CAP * ROW + BOARD
    for j in range(W[OFF_COUNTS + cat]):
        if (W[base + j * ROW] & A) == 0:
            return True
    return False


@njit(cache=True)
def _out(W, c1, c2, A, T):
    # The distinct boards of the rows of c1, then of c2 (when >= 0), allowed by A, gathered in
    # category OUT: OUT * SHIFT + their count, or -2 when it is full.
    for c in (c1, c2):
        if c < 0:
            continue
        base = OFF_ROWS + c * CAP * ROW
        for j in range(W[OFF_COUNTS + c]):
            r = base + j * ROW
            if (W[r + BOARD] & A) != 0:
                continue
            for i in range(BOARD):
                T[i] = W[r + i]
            if _find(W, OUT, T, -1) < 0:
                q = _put(W, OUT, T, 0)
                if q < 0:
                    return -2
                if PATHS:
                    for i in range(BOARD + 1, ROW):
                        W[q + i] = W[r + i]
    return OUT * SHIFT + W[OFF_COUNTS + OUT]


@njit(cache=True)
def _unmet(W, bit):
    # Whether no kept sequence satisfies the rule of `bit` (every row has it set).
    for c in range(OUT):
        base = OFF_ROWS + c * CAP * ROW + BOARD
        for j in range(W[OFF_COUNTS + c]):
            if (W[base + j * ROW] & bit) == 0:
                return False
    return True


@njit(cache=True)
def _seen(W, cat, L, code):
    # Whether board L with the numbers left `code` was walked already in this throw (kept in
    # category cat; when it is full, nothing more is pruned)
    if _find(W, cat, L, code) >= 0:
        return True
    _put(W, cat, L, code)
    return False


@njit(cache=True)
def _orders(d1, d2, d3, O):
    # The distinct orders of three dice, in increasing order (each as x * 64 + y * 8 + z),
    # written into O; how many there are
    K = np.empty(6, np.int64)
    K[0] = d1 * 64 + d2 * 8 + d3
    K[1] = d1 * 64 + d3 * 8 + d2
    K[2] = d2 * 64 + d1 * 8 + d3
    K[3] = d2 * 64 + d3 * 8 + d1
    K[4] = d3 * 64 + d1 * 8 + d2
    K[5] = d3 * 64 + d2 * 8 + d1
    K.sort()
    n = 0
    for i in range(6):
        if n == 0 or K[i] != O[n - 1]:
            O[n] = K[i]
            n += 1
    return n


@njit(cache=True)
def _best(W, A, two, total):
    # The most numbers a sequence allowed by A plays (0: none).
    if _any(W, 0, A):
        return total
    if two:
        return 1 if _any(W, 1, A) or _any(W, 2, A) else 0
    for n in range(total - 1, 0, -1):
        if _any(W, n, A):
            return n
    return 0
'''


def _record_source(h: Hooked) -> str:
    """`_record(b, L, X, k, d1, d2, rolls, W, cat)`: keep the sequence of k steps X ending on L
    in category cat with its mask; False when the category is full."""
    fixed = [name for name, mode, _p in h.forbid if mode == "never"]
    waivable = [name for name, mode, _p in h.forbid if mode != "never"]
    path = any(p for _n, _m, p in h.forbid)
    call = "(b, L, X, k, d1, d2, rolls)"
    out = ["@njit(cache=True)", "def _record(b, L, X, k, d1, d2, rolls, W, cat):"]
    if not path:
        # the rules read no path: a board's mask is the same however it is reached
        out += ["    if _find(W, cat, L, -1) >= 0:", "        return True"]
    out.append("    m = 0")
    if fixed:
        out += ["    if " + " or ".join(f"{name}{call}" for name in fixed) + ":",
                "        m = 1"]
    for j, name in enumerate(waivable):
        out += [f"    if {name}{call}:", f"        m |= {1 << (j + 1)}"]
    if path:
        out += ["    if _find(W, cat, L, m) >= 0:", "        return True"]
    if h.paths:
        out += ["    r = _put(W, cat, L, m)", "    if r < 0:", "        return False",
                "    _keep_path(W, r, X, k)", "    return True"]
    else:
        out += ["    return _put(W, cat, L, m) >= 0"]
    return "\n".join(out) + "\n"


def _moved_source(h: Hooked) -> str:
    """`_moved(B, L, X, k, d1, d2, rolls)`: whether a rule on each move forbids the k-th step
    of X, from B to L."""
    call = "(B, L, X, k, d1, d2, rolls)"
    return "\n".join(["@njit(cache=True, inline='always')",
                      "def _moved(B, L, X, k, d1, d2, rolls):",
                      "    return " + " or ".join(f"{name}{call}" for name in h.moves)]) + "\n"


def _choose_source(h: Hooked, higher: bool) -> str:
    """`_choose(b, d1, d2, rolls, W, X, total, two)`: the waivers, then the answer (the protocol
    of gen_emit: category * SHIFT + count, -1 the board itself, -2 a category full); `two`:
    the plays of one number are kept by the order of the two dice (categories 1 and 2), else
    category n holds the plays of n numbers."""
    waivable = [(name, mode) for name, mode, _p in h.forbid if mode != "never"]
    full = (1 << (len(waivable) + 1)) - 1
    out = ["@njit(cache=True)", "def _choose(b, d1, d2, rolls, W, X, total, two):",
           f"    A = {full}"]
    for j, (name, mode) in enumerate(waivable):
        bit = 1 << (j + 1)
        if mode == "unavoidable":
            out += [f"    if {name}(b, b, X, 0, d1, d2, rolls) and _unmet(W, {bit}):",
                    f"        A &= {full ^ bit}"]
        else:
            out += [f"    if _best(W, A & {full ^ bit}, two, total) > _best(W, A, two, total):",
                    f"        A &= {full ^ bit}"]
    out += ["    T = np.empty(BOARD, np.int64)",
            "    W[OFF_BEST] = total",
            "    if _any(W, 0, A):",
            "        return _out(W, 0, -1, A, T)",
            "    if two:",
            "        W[OFF_BEST] = 1"]
    if higher:
        out += ["        hi = 1 if d1 > d2 else 2",
                "        if _any(W, hi, A):",
                "            return _out(W, hi, -1, A, T)"]
    out += ["        if _any(W, 1, A) or _any(W, 2, A):",
            "            return _out(W, 1, 2, A, T)",
            "        W[OFF_BEST] = 0",
            "        return -1",
            "    for n in range(total - 1, 0, -1):",
            "        if _any(W, n, A):",
            "            W[OFF_BEST] = n",
            "            return _out(W, n, -1, A, T)",
            "    W[OFF_BEST] = 0",
            "    return -1"]
    return "\n".join(out) + "\n"


def results_source(h: Hooked) -> str:
    """`results(b, d1, d2, d3, rolls, W)`: the walk of `MoveGenerator._walk_plays` (the orders
    of the dice, the levels of the walk as in `walk_emit.results_source`) with a path, the
    rules on each move asked at each step and every sequence reached kept with its mask; with
    three dice and no rule, each (board, numbers left) walked once, as `some_plays` walks it."""
    r = h.rules
    dm = checked_int("doublet_moves", r.doublet_moves, 1, MAX_STEPS)
    three = checked_int("dice", r.dice, 2, 3) == 3
    lower = checked_choice("numbers", r.numbers, ("both", "lower")) == "lower"
    higher = bool(r.higher_number)
    moves = bool(h.moves)
    prune = three and not h.forbid and not h.moves
    e: list[str] = []

    def w(depth: int, text: str) -> None:
        e.append("    " * depth + text)

    w(0, "@njit(cache=True)")
    w(0, "def results(b, d1, d2, d3, rolls, W):")
    w(1, "W[OFF_GEN] += 1")
    w(1, "for c in range(CATS):")
    w(2, "W[OFF_COUNTS + c] = 0")
    w(1, "L = b.copy()")
    w(1, f"X = np.zeros(({MAX_STEPS}, 5), np.int64)")
    if moves:
        w(1, f"B = np.empty(({MAX_STEPS}, BOARD), np.int64)")
    w(1, "NT = _remaining(L) + L[0]")

    def level(n: int, k: int, dice: tuple[str, ...], cat_of_partial: str) -> None:
        total = len(dice)
        die = dice[k - 1]
        base = f"OFF_SRC + {4 * 64 * (k - 1)}"
        w(n, f"n{k} = _steps(L, {die}, W, {base})")
        w(n, f"for i{k} in range(n{k}):")
        m = n + 1
        w(m, f"r = {base} + 4 * i{k}")
        w(m, f"s{k} = W[r]")
        w(m, f"t{k} = W[r + 1]")
        w(m, f"h{k} = W[r + 2]")
        w(m, f"f{k} = W[r + 3]")
        if moves:
            w(m, "for c in range(BOARD):")
            w(m + 1, f"B[{k - 1}, c] = L[c]")
        w(m, f"rel{k} = _apply(L, s{k}, t{k}, h{k}, f{k})")
        for col, val in enumerate((f"s{k}", f"t{k}", die, f"h{k}", f"f{k}")):
            w(m, f"X[{k - 1}, {col}] = {val}")
        body = m
        if moves:
            w(m, f"if not _moved(B[{k - 1}], L, X, {k}, d1, d2, rolls):")
            body = m + 1
        if k == total:
            w(body, f"if not _record(b, L, X, {k}, d1, d2, rolls, W, 0):")
            w(body + 1, "return -2")
        else:
            w(body, f"if t{k} == 0 and L[0] == NT:")
            w(body + 1, f"if not _record(b, L, X, {k}, d1, d2, rolls, W, 0):")
            w(body + 2, "return -2")
            if prune:
                # a board reached before with the same numbers left: what follows is known
                code = " + ".join(f"{d} * {8 ** i}" for i, d in enumerate(reversed(dice[k:])))
                w(body, f"elif not _seen(W, {PRUNED + k - 1}, L, {code}):")
            else:
                w(body, "else:")
            w(body + 1, f"if not _record(b, L, X, {k}, d1, d2, rolls, W, {cat_of_partial}):")
            w(body + 2, "return -2")
            level(body + 1, k + 1, dice, str(k + 1))
        w(m, f"_undo(L, s{k}, t{k}, h{k}, f{k}, rel{k})")

    if three:
        w(1, "O = np.empty(6, np.int64)")
        w(1, "for oi in range(_orders(d1, d2, d3, O)):")
        w(2, "x = O[oi] // 64")
        w(2, "y = (O[oi] // 8) % 8")
        w(2, "z = O[oi] % 8")
        level(2, 1, ("x", "y", "z"), "1")
        w(1, "return _choose(b, d1, d2, rolls, W, X, 3, False)")
    elif lower:
        w(1, "d = min(d1, d2)")
        level(1, 1, ("d",), "1")
        w(1, "return _choose(b, d1, d2, rolls, W, X, 1, False)")
    else:
        w(1, "if d1 != d2:")
        w(2, "for order in range(2):")
        w(3, "x = d1 if order == 0 else d2")
        w(3, "y = d2 if order == 0 else d1")
        level(3, 1, ("x", "y"), "1 + order")
        w(2, "return _choose(b, d1, d2, rolls, W, X, 2, True)")
        w(1, "d = d1")
        level(1, 1, ("d",) * dm, "1")
        w(1, f"return _choose(b, d1, d2, rolls, W, X, {dm}, False)")
    return ("\n\n".join([_record_source(h)] + ([_moved_source(h)] if moves else [])
                        + [_choose_source(h, higher)]) + "\n\n" + "\n".join(e) + "\n")


def module_source(h: Hooked) -> str:
    """The whole module: the compiled rules (`rules_emit.py`'s module, checked there), the
    walk's helpers and the walk."""
    return ((h.rules_source + "\n\n" if h.rules_source else "") + constants(h) + ROWS
            + "\n\n" + walk_emit.helpers_source(h.rules) + "\n\n" + results_source(h))


def salt(h: Hooked) -> str:
    """What the module's cache name depends on beside its text: the rules' digest, which
    covers the runtime helpers they call (numba checks the module's own file only)."""
    return h.rules_digest


def step_of(key: int) -> tuple[int, int, int, int, int]:
    """The step (src, dst, die, hit, flags) a kept path's number stands for."""
    return key & 31, (key >> 5) & 31, (key >> 10) & 7, (key >> 13) & 15, key >> 17


def rows_view(work: Any, h: Hooked) -> Any:
    """The rows of category OUT in the work space, as (CAP, h.row)."""
    row = h.row
    start = gen_emit.layout(row)["rows"] + OUT * gen_emit.CAP * row
    return work[start:start + gen_emit.CAP * row].reshape(gen_emit.CAP, row)


def best_offset(h: Hooked) -> int:
    """Where the walk leaves how many numbers its answer plays."""
    return gen_emit.layout(h.row)["cand"]


def workspace_size(h: Hooked) -> int:
    return gen_emit.workspace_size(h.row)
