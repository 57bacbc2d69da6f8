"""The generated `results()` of the backgammon family (no corners, no hooks, bar entering and
hitting, maximal dice, optional exact bearing off).

`compiled_results(rules)` writes the Python source of one function specialised for the switches
(block size, doublet moves, home board, bearing-off pip and rules, higher-number rule), compiles it
once and caches it per `MoveRules`. Only integers and choices already checked against their
literal sets reach the source.

How the generated function works, and why it is fast:

- the board is a list changed in place and restored (apply/undo), with the moves of each level
  written out inline, one nested loop per number of the roll, instead of calls per step;
- a doublet's moves are generated in one order only: each later move starts from the same point
  as the previous one or a lower one. Any legal sequence of equal numbers can be reordered so, with
  the same end board, because a move never needs a checker that a lower move brings;
- each end board has an integer key, the sum over its moves of precomputed numbers (the change of
  each count of indices 0..25, one signed digit per index; index 26 follows from the points),
  so duplicates are found without building the board; the board tuple is built only for a new
  key;
- closed points stay closed during a roll, so a doublet's candidate sources leave out the points
  whose move lands on one, and with two or more checkers outside the home board the second order
  of a roll of two numbers only carries on the checker moved first (see `_emit_simple`);
- plays that use fewer numbers are recorded only at a dead end (a node with no further move), so
  most of the time they are never built at all.
"""
from __future__ import annotations

from typing import Any, Callable

from interpreter.kernel._source import checked_choice, checked_int, compiled
from interpreter.kernel.rules import MoveRules

Board = tuple[int, ...]
ResultsFn = Callable[[Board, int, int], list[Board]]

_CACHE: dict[MoveRules, ResultsFn] = {}


def compiled_results(rules: MoveRules) -> ResultsFn:
    return compiled(_CACHE, rules, lambda: results_source(rules),
                    f"<tablier results {_params(rules)}>", "results")


def _params(rules: MoveRules) -> dict:
    return {
        "DM": checked_int("doublet_moves", rules.doublet_moves, 1, 8),
        "BLOCK": checked_int("block", rules.block, 1, 15),
        "HOME": checked_int("home_top", rules.home_top, 1, 24),
        "OFFP": checked_int("off_pip", rules.off_pip, 0, 12),
        "ALLHOME": checked_choice("bear_off", rules.bear_off,
                                  ("all_home", "anywhere")) == "all_home",
        "FARTHEST": checked_choice("over_exit", rules.over_exit, ("farthest", "any")) == "farthest",
        "HIGHER": bool(rules.higher_number),
    }


class _Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def results_source(rules: MoveRules) -> str:
    """The Python source of `results(b, d1, d2)` for these switches."""
    p = _params(rules)
    DM, BLOCK, HOME, OFFP = p["DM"], p["BLOCK"], p["HOME"], p["OFFP"]
    ALLHOME, FARTHEST, HIGHER = p["ALLHOME"], p["FARTHEST"], p["HIGHER"]
    # one signed digit per index 0..25 of the board; a digit stays in -DM..DM+BLOCK-1 (DM
    # departures, or DM arrivals and the opponent checkers hit), so a base above 2*DM+BLOCK makes
    # the key of a board unique
    bits = max(4, (2 * DM + BLOCK).bit_length())
    top = HOME if ALLHOME else 24
    e = _Emitter()
    e(0, f"W = {tuple(1 << (bits * i) for i in range(26))!r}")
    # MK[d][s]: the key of moving a checker from s with the number d (to 0 when borne off)
    mk = tuple(tuple((1 << (bits * (s - d if s - d > OFFP else 0))) - (1 << (bits * s))
                     for s in range(26)) for d in range(7))
    e(0, f"MK = {mk!r}")
    e(0, "R24 = tuple(range(24, 0, -1))")
    e(0, "BAR = (25,)")
    # pips above s that must be empty for an excédant bear-off from s
    e(0, f"ABOVE = {tuple(tuple(range(top, s, -1)) for s in range(25))!r}")
    e(0, "")
    e(0, "def results(b, d1, d2):")
    e(1, "L = list(b)")
    e(1, "P = [p for p in R24 if L[p] > 0]")
    e(1, "NT = L[0] + L[25] + sum([L[p] for p in P])")
    if ALLHOME:
        e(1, f"far = L[25] + sum([L[p] for p in P if p > {HOME}])")
    e(1, "full = {}")
    e(1, "if d1 != d2:")
    _emit_simple(e, 2, BLOCK, HOME, OFFP, ALLHOME, FARTHEST, HIGHER)
    e(1, "else:")
    _emit_doublet(e, 2, DM, BLOCK, HOME, OFFP, ALLHOME, FARTHEST)
    e(1, "return [b]")
    return "\n".join(e.lines) + "\n"


def _emit_move(e: _Emitter, n: int, lvl: int, die: str, srcloop: str, guard_occupied: bool,
               BLOCK: int, HOME: int, OFFP: int, ALLHOME: bool, FARTHEST: bool) -> int:
    """Emit the loop over sources of level `lvl` and the legality test of its move; returns the
    indentation of the body, where s{lvl} -> t{lvl} is legal (not yet applied) and v{lvl} holds
    the old count of the destination (L[0] when bearing off)."""
    s, t, v = f"s{lvl}", f"t{lvl}", f"v{lvl}"
    farv = f"far{lvl - 1}" if lvl > 1 else "far"
    e(n, f"for {srcloop}:")
    n += 1
    if guard_occupied:
        e(n, f"if L[{s}] <= 0: continue")
    e(n, f"{t} = {s} - {die}")
    e(n, f"if {t} > {OFFP}:")
    e(n + 1, f"{v} = L[{t}]")
    e(n + 1, f"if {v} <= {-BLOCK}: continue")
    e(n, "else:")
    if ALLHOME:
        e(n + 1, f"if {farv}: continue")
    if FARTHEST:
        e(n + 1, f"if {t} < {OFFP}:")
        e(n + 2, f"for q in ABOVE[{s}]:")
        e(n + 3, "if L[q] > 0: break")
        e(n + 2, "else:")
        e(n + 3, "q = 0")
        e(n + 2, "if q: continue")
    e(n + 1, f"{t} = 0")
    e(n + 1, f"{v} = L[0]")
    return n


def _emit_apply(e: _Emitter, n: int, lvl: int, kprev: str, mk: str, HOME: int,
                ALLHOME: bool) -> None:
    s, t, v, k = f"s{lvl}", f"t{lvl}", f"v{lvl}", f"k{lvl}"
    e(n, f"L[{s}] -= 1")
    e(n, f"if {v} < 0:")
    e(n + 1, f"L[{t}] = 1")
    e(n + 1, f"L[26] -= {v}")
    e(n + 1, f"{k} = {kprev}{mk}[{s}] - {v} * W[{t}]")
    e(n, "else:")
    e(n + 1, f"L[{t}] = {v} + 1")
    e(n + 1, f"{k} = {kprev}{mk}[{s}]")
    if ALLHOME:
        farv = f"far{lvl - 1}" if lvl > 1 else "far"
        e(n, f"far{lvl} = {farv} - 1 if {s} > {HOME} >= {t} else {farv}")


def _emit_undo(e: _Emitter, n: int, lvl: int) -> None:
    s, t, v = f"s{lvl}", f"t{lvl}", f"v{lvl}"
    e(n, f"L[{s}] += 1")
    e(n, f"L[{t}] = {v}")
    e(n, f"if {v} < 0: L[26] += {v}")


def _emit_leaf(e: _Emitter, n: int, lvl: int, kprev: str, mk: str, flag: str | None) -> None:
    """The last move of a play: its key, and the board only when the key is new."""
    s, t, v, k = f"s{lvl}", f"t{lvl}", f"v{lvl}", f"k{lvl}"
    if flag:
        e(n, f"{flag} = 1")
    e(n, f"if {v} < 0:")
    e(n + 1, f"{k} = {kprev} + {mk}[{s}] - {v} * W[{t}]")
    e(n + 1, f"if {k} not in full:")
    e(n + 2, f"L[{s}] -= 1")
    e(n + 2, f"L[{t}] = 1")
    e(n + 2, f"L[26] -= {v}")
    e(n + 2, f"full[{k}] = tuple(L)")
    e(n + 2, f"L[26] += {v}")
    e(n + 2, f"L[{s}] += 1")
    e(n + 2, f"L[{t}] = {v}")
    e(n, "else:")
    e(n + 1, f"{k} = {kprev} + {mk}[{s}]")
    e(n + 1, f"if {k} not in full:")
    e(n + 2, f"L[{s}] -= 1")
    e(n + 2, f"L[{t}] = {v} + 1")
    e(n + 2, f"full[{k}] = tuple(L)")
    e(n + 2, f"L[{s}] += 1")
    e(n + 2, f"L[{t}] = {v}")


def _emit_simple(e: _Emitter, n: int, BLOCK: int, HOME: int, OFFP: int, ALLHOME: bool,
                 FARTHEST: bool, HIGHER: bool) -> None:
    """Two different numbers: both orders, two nested levels. Plays of one number are kept
    apart by which number was played (for the higher-number rule)."""
    e(n, "one_hi = {}")
    e(n, "one_lo = {}")
    e(n, "dh = d1 if d1 > d2 else d2")
    # With nothing on the bar and at least two checkers outside the home board, no checker can be
    # borne off during this roll; then a play of y before x by two different checkers is also
    # legal as x before y, so the second order need only carry on the checker moved first.
    if ALLHOME:
        e(n, "quick = not L[25] and far >= 2")
    else:
        e(n, "quick = False")
    e(n, "for x, y in ((d1, d2), (d2, d1)):")
    n += 1
    e(n, "one = one_hi if x == dh else one_lo")
    e(n, "mkx = MK[x]")
    e(n, "mky = MK[y]")
    common: dict[str, Any] = dict(BLOCK=BLOCK, HOME=HOME, OFFP=OFFP, ALLHOME=ALLHOME,
                                  FARTHEST=FARTHEST)
    m = _emit_move(e, n, 1, "x", "s1 in (BAR if L[25] else P)", False, **common)
    _emit_apply(e, m, 1, "", "mkx", HOME, ALLHOME)
    e(m, "if t1 == 0 and L[0] == NT:")
    e(m + 1, "if k1 not in full: full[k1] = tuple(L)")
    e(m, "else:")
    mm = m + 1
    e(mm, "g = 0")
    src2 = ("s2 in (BAR if L[25] else ((t1,) if quick and x == d2 else "
            "(P + [t1] if t1 and L[t1] == 1 else P)))")
    m2 = _emit_move(e, mm, 2, "y", src2, True, **common)
    _emit_leaf(e, m2, 2, "k1", "mky", "g")
    e(mm, "if not g and not full and k1 not in one:")
    e(mm + 1, "one[k1] = tuple(L)")
    _emit_undo(e, m, 1)
    n -= 1
    e(n, "if full: return list(full.values())")
    if HIGHER:
        e(n, "if one_hi: return list(one_hi.values())")
        e(n, "if one_lo: return list(one_lo.values())")
    else:
        e(n, "if one_hi or one_lo:")
        e(n + 1, "one_hi.update(one_lo)")
        e(n + 1, "return list(one_hi.values())")


def _emit_doublet(e: _Emitter, n: int, DM: int, BLOCK: int, HOME: int, OFFP: int,
                  ALLHOME: bool, FARTHEST: bool) -> None:
    """A doublet: DM nested levels, each move from the same point as the previous one or lower.
    The candidate sources are the occupied points and the points their checkers can reach."""
    e(n, "d = d1")
    e(n, "mkd = MK[d]")
    e(n, "cs = set()")
    # a point whose move lands on a closed point is never a source: blocks do not open in a roll
    # and, when at least DM checkers are outside the home board, no move bears off this roll
    e(n, f"nob = far >= {DM}" if ALLHOME else "nob = False")
    e(n, "for p in (P + [25] if L[25] else P):")
    e(n + 1, f"for i in range({DM}):")
    e(n + 2, f"if p <= {OFFP}: break")
    e(n + 2, "q = p - d")
    e(n + 2, f"if q > {OFFP}:")
    e(n + 3, f"if L[q] <= {-BLOCK}: break")
    e(n + 2, "elif nob: break")
    e(n + 2, "cs.add(p)")
    e(n + 2, "p = q")
    e(n, "cs.discard(25)")
    # TS[p]: the candidates at or below p, highest first (TS[25]: all of them)
    e(n, "C = sorted(cs, reverse=True)")
    e(n, "TS = [()] * 26")
    e(n, "TS[25] = C")
    e(n, "for i, c in enumerate(C):")
    e(n + 1, "TS[c] = C[i:]")
    for i in range(1, DM):
        e(n, f"part{i} = {{}}")
    common: dict[str, Any] = dict(BLOCK=BLOCK, HOME=HOME, OFFP=OFFP, ALLHOME=ALLHOME,
                                  FARTHEST=FARTHEST)

    def level(n: int, lvl: int) -> None:
        loop = f"s{lvl} in (BAR if L[25] else {'C' if lvl == 1 else f'TS[s{lvl - 1}]'})"
        kprev = "" if lvl == 1 else f"k{lvl - 1}"
        if lvl == DM:
            m = _emit_move(e, n, lvl, "d", loop, True, **common)
            _emit_leaf(e, m, lvl, kprev if kprev else "0", "mkd", f"g{lvl}")
            return
        m = _emit_move(e, n, lvl, "d", loop, True, **common)
        e(m, f"g{lvl} = 1")
        _emit_apply(e, m, lvl, f"{kprev} + " if kprev else "", "mkd", HOME, ALLHOME)
        e(m, f"if t{lvl} == 0 and L[0] == NT:")
        e(m + 1, f"if k{lvl} not in full: full[k{lvl}] = tuple(L)")
        e(m, "else:")
        e(m + 1, f"g{lvl + 1} = 0")
        level(m + 1, lvl + 1)
        e(m + 1, f"if not g{lvl + 1} and not full and k{lvl} not in part{lvl}:")
        e(m + 2, f"part{lvl}[k{lvl}] = tuple(L)")
        _emit_undo(e, m, lvl)

    e(n, "g1 = 0")
    level(n, 1)
    e(n, "if full: return list(full.values())")
    for i in range(DM - 1, 0, -1):
        e(n, f"if part{i}: return list(part{i}.values())")
