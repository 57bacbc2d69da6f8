"""The generated `plays()`: every complete legal play with all its step sequences, for every
rule set with the maximal-dice rule, including what the backgammon fast path (`_fastgen`) does
not cover: corners, rests on the opponent's corner, one checker blocking, no hitting or hits to
the start, entering from the start, excédant and surplus bear-offs, `forbid` hooks.

`compiled_plays(rules)` writes the Python source of a factory specialised for the switches,
compiles it once and caches it per `MoveRules`; each `MoveGenerator` calls the factory with its
own hooks. Only integers, pip sets of integers and choices already checked against their literal
sets reach the source.

The generated function answers exactly what the generic walk of `MoveGenerator._walk_plays`
answers, in the same order (plays in the order their boards are first found, paths in the order
they are found), for the common case: some sequence playing every number of the roll survives
the end-of-play checks. It walks the same tree in the same order, but

- one nested loop per number of the roll is written out inline, the board is a list changed in
  place and restored, and the sources of a level are the occupied pips of the level above (a
  sorted list, with the arrival pip inserted when it becomes occupied) instead of a scan of the
  board at every node;
- a step is a `Step` taken from a table built once (only hits and surplus bear-offs make one),
  so a path costs one small tuple;
- only complete sequences are kept; the end-of-play checks of the own corner are made on the
  live board, and the `forbid` hooks see each surviving path once, in one call per hook and roll
  (the rule compiler's batch form `filter_paths`).

When no complete sequence survives (a number cannot be played, or the end checks reject every
complete one), the function hands the roll to the generic walk, which then answers for the
shorter plays, the higher-number rule and the rest.
"""
from __future__ import annotations

from typing import Callable

from interpreter.kernel._source import checked_choice, checked_int, compiled
from interpreter.kernel.rules import MoveRules

Factory = Callable[..., Callable]

_CACHE: dict[tuple[MoveRules, bool], Factory] = {}

EXCEDANT = 1
SURPLUS = 4
PINNED = 8


def fast_plays_applies(rules: MoveRules) -> bool:
    """Whether the generated `plays()` serves these switches (every `max_dice` rule set; pins
    and checkers off the board without corners, and not both at once)."""
    if not (rules.max_dice and rules.enter in ("bar", "start", "none")
            and rules.hit in ("bar", "start", "none", "pin", "unentered")) or rules.walk_only:
        return False
    layout = rules.geometry
    if layout.pins or layout.pool:
        plain = (rules.own_corner is None and rules.opp_corner is None and not rules.no_landing
                 and rules.retour_conserve_exit == "farthest_checker" and rules.enter != "start")
        return plain and not (layout.pins and layout.pool) and (
            not layout.pool or rules.unentered_move_on)
    return True


def compiled_plays(rules: MoveRules, moves: bool = False) -> Factory:
    """The factory `make(gen, filters, Step, Play, moves)` of the generated
    `plays(b, d1, d2, rolls)`; `moves`: whether per-move hooks are asked at each step."""
    return compiled(_CACHE, (rules, moves), lambda: plays_source(rules, moves),
                    "<tablier plays>", "make")


def _pip_or_none(name: str, v: object) -> int | None:
    return None if v is None else checked_int(name, v, 0, 25)


class _P:
    """The switches as the source needs them, each checked."""

    #: whether the source makes the moves too (`plays_source` sets it)
    MOVES: bool

    def __init__(self, r: MoveRules) -> None:
        self.DM = checked_int("doublet_moves", r.doublet_moves, 1, 8)
        self.BLOCK = checked_int("block", r.block, 1, 15)
        self.HIT = checked_choice("hit", r.hit, ("bar", "start", "none", "pin", "unentered"))
        #: pins (slot 28) and checkers waiting off the board (slots 29, 30)
        self.PIN = self.HIT == "pin"
        self.POOL = bool(r.geometry.pool)
        self.UFIRST = bool(r.unentered_first)
        self.PINOFF = checked_choice("pinned_bear_off", r.pinned_bear_off,
                                     ("forbidden", "allowed")) == "allowed"
        self.ENTER = checked_choice("enter", r.enter, ("bar", "start", "none"))
        self.S = checked_int("start_pip", r.start_pip, 1, 24)
        self.FIRST = bool(r.enter_first)
        self.ALLHOME = checked_choice("bear_off", r.bear_off,
                                      ("all_home", "anywhere")) == "all_home"
        self.HOME = checked_int("home_top", r.home_top, 1, 24)
        self.OFFP = checked_int("off_pip", r.off_pip, 0, 12)
        self.COMPULSORY = checked_choice("exact_exit", r.exact_exit,
                                  ("optional", "compulsory")) == "compulsory"
        self.OVER_ANY = checked_choice("over_exit", r.over_exit, ("farthest", "any")) == "any"
        self.EXC = checked_choice("excedant_filter", r.excedant_filter,
                           ("none", "fewest", "zero_if_possible")) != "none"
        self.SURPLUS = checked_choice("retour_conserve_exit", r.retour_conserve_exit,
                               ("farthest_checker", "farthest_surplus_point")) \
            == "farthest_surplus_point"
        self.C = _pip_or_none("own_corner", r.own_corner)
        O = _pip_or_none("opp_corner", r.opp_corner)
        self.SWAP = self.C is not None and checked_choice("coin_swap", r.coin_swap,
                                                   ("allow", "forbid")) == "forbid"
        self.PUIS = checked_choice("puissance_needs", r.puissance_needs,
                            ("off", "both_coins_empty", "own_coin_empty")) != "off" \
            and self.C is not None and O is not None
        corner = (O,) if O is not None else ()
        no_landing = tuple(checked_int("no_landing", p, -99, 99) for p in r.no_landing)
        rest = corner if r.opp_corner_rest else ()
        self.REST = frozenset(p for p in rest + no_landing if 1 <= p <= 24)
        self.CLOSED = frozenset(p for p in corner if not r.opp_corner_rest and 1 <= p <= 24)
        self.SPECIAL = self.REST | self.CLOSED
        #: where hit checkers go: the opponent's bar, his unentered checkers, or his start seen
        #: from the mover
        self.SEND = {"bar": 26, "unentered": 30}.get(self.HIT) or r.geometry.their_pip(self.S)
        #: whether hitting adds to the SEND slot (a count) or subtracts (opponent checkers on a pip)
        self.ADD = self.HIT in ("bar", "unentered")


class _Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def plays_source(rules: MoveRules, moves: bool = False) -> str:
    """The Python source of `make(gen, filters, Step, Play, moves)` for these switches."""
    p = _P(rules)
    p.MOVES = moves
    e = _Emitter()
    e(0, "from bisect import insort")
    e(0, "")
    e(0, "def make(gen, filters, Step, Play, moves):")
    e(1, "walk = gen._walk_plays")
    e(1, "new = tuple.__new__")
    e(1, "PIPS = tuple(range(1, 25))")
    if p.ENTER == "bar":
        e(1, "BAR = (25,)")
    # ST[d][s]: the step of a checker on s moved by d (borne off, exactly, when s - d is at or
    # below the bearing-off pip); SX[d][s]: the excédant bear-off of s by d
    e(1, f"ST = tuple(tuple(Step(s, s - d if s - d > {p.OFFP} else 0, d, 0, 0) "
         f"for s in range(26)) for d in range(7))")
    e(1, f"SX = tuple(tuple(Step(s, 0, d, 0, {EXCEDANT}) for s in range(26)) for d in range(7))")
    if p.POOL:
        # entering from off the board (source 29) lands where a bar checker does
        e(1, "ST = tuple(row + (None, None, None, Step(29, 25 - d, d, 0, 0)) "
             "for d, row in enumerate(ST))")
    if p.PIN:
        # PN[d][s]: the step of a checker landing from s on a lone opposing checker, pinning it
        e(1, f"PN = tuple(tuple(Step(s, s - d, d, 1, {PINNED}) for s in range(26)) "
             f"for d in range(7))")
    if p.SPECIAL:
        e(1, f"SPECIAL = frozenset({tuple(sorted(p.SPECIAL))!r})")
    if p.REST:
        e(1, f"REST = frozenset({tuple(sorted(p.REST))!r})")
    if p.CLOSED:
        e(1, f"CLOSED = frozenset({tuple(sorted(p.CLOSED))!r})")
    if p.PUIS:
        e(1, "puissance = gen._puissance")
    if p.EXC:
        e(1, "excedant = gen._excedant")
    if p.SURPLUS:
        e(1, "surplus_exit = gen._surplus_exit")
    if p.SWAP:
        e(1, "from interpreter.kernel.movegen import _is_swap")
    e(1, "")
    e(1, "def plays(b, d1, d2, rolls=1):")
    n = 2
    e(n, "L = list(b)")
    e(n, "P0 = [q for q in PIPS if L[q] > 0]")
    e(n, "NT = L[0] + L[25] + sum([L[q] for q in P0])")
    if p.POOL:
        e(n, "NT += L[29]")
    if p.PIN:
        # the mover's pinned checkers: they count as his, never move this turn, and (unless
        # `pinned_bear_off` allows it) keep him from bearing off
        e(n, "pw = [q for q in PIPS if L[28] >> q & 1 and L[q] < 0] if L[28] else ()")
        e(n, "NT += len(pw)")
        if p.PINOFF:
            e(n, f"pb = sum(1 for q in pw if q > {p.HOME})")
        else:
            e(n, "pb = len(pw)")
    if p.ALLHOME:
        e(n, f"far0 = L[25] + sum([L[q] for q in P0 if q > {p.HOME}])")
        if p.POOL:
            e(n, "far0 += L[29]")
        if p.PIN:
            e(n, "far0 += pb")
    e(n, "full = []")
    if p.EXC:
        e(n, "ax = 0")
    if p.C is not None and p.SWAP:
        e(n, f"held = b[{p.C}] == 2")
    e(n, "if d1 != d2:")
    e(n + 1, "for x, y in ((d1, d2), (d2, d1)):")
    _walk(e, n + 2, p, ("x", "y"))
    e(n + 1, "total = 2")
    e(n, "else:")
    if p.DM == 2:
        e(n + 1, "x = y = d1")
        _walk(e, n + 1, p, ("x", "y"))
    else:
        e(n + 1, "x = d1")
        _walk(e, n + 1, p, ("x",) * p.DM)
    e(n + 1, f"total = {p.DM}")
    if p.PUIS:
        # the plays par puissance are complete plays of two numbers, listed after the others
        e(n, f"if total <= 2 and b[{p.C}] == 0:")      # the own corner empty: else no play
        e(n + 1, "pu = puissance(b, d1, d2)")
        e(n + 1, "if pu:")
        e(n + 2, "for path, bd in pu:")
        cond = f"bd[{p.C}] != 1"
        if p.SWAP:
            cond += f" and not (held and _is_swap({p.C}, path))"
        e(n + 3, f"if {cond}:")
        e(n + 4, "full.append((tuple(map(Step._make, path)), bd))")
    e(n, "for flt in filters:")
    e(n + 1, "if not full: break")
    e(n + 1, "full = flt(b, full, d1, d2, rolls)")
    e(n, "if not full:")
    e(n + 1, "return walk(b, d1, d2, rolls)")
    if p.EXC:
        e(n, "if ax:")
        e(n + 1, "full = excedant(full)")
    e(n, "groups = {}")
    e(n, "for path, bd in full:")
    e(n + 1, "g = groups.get(bd)")
    e(n + 1, "if g is None:")
    e(n + 2, "groups[bd] = [path]")
    e(n + 1, "else:")
    e(n + 2, "g.append(path)")
    e(n, "return [new(Play, (bd, tuple(ps))) for bd, ps in groups.items()], 0")
    e(1, "return plays")
    return "\n".join(e.lines) + "\n"


def _no_bear(p: _P, k: int) -> str:
    """The condition that the mover may not bear off at level k (before its move)."""
    if p.ALLHOME:
        cond = f"far{k - 1}"       # counts the bar too (pip 25 is above the home board)
        if p.ENTER == "start" and p.S <= p.HOME:
            cond += f" or L[{p.S}] > 0"
        return cond
    cond = "L[25] > 0"
    if p.ENTER == "start":
        cond += f" or L[{p.S}] > 0"
    if p.POOL:
        cond += " or L[29] > 0"
    if p.PIN:
        cond += " or pb"
    return cond


def _walk(e: _Emitter, n: int, p: _P, dice: tuple[str, ...]) -> None:
    """The nested levels of one order of the numbers (`dice`: the variable of each level)."""
    N = len(dice)
    for k, d in enumerate(dice, 1):
        # the steps of each level's number: R (moves, exact bear-offs), X (excédant bear-offs)
        e(n, f"R{k} = ST[{d}]")
        e(n, f"X{k} = SX[{d}]")
    if p.ENTER == "start":
        e(n, "c0 = ()")
    _level(e, n, p, 1, N, dice)


def _level(e: _Emitter, n: int, p: _P, k: int, N: int, dice: tuple[str, ...]) -> None:
    d = dice[k - 1]
    last = k == N
    s, t, v = f"s{k}", f"t{k}", f"v{k}"
    prev = f"P{k - 1}"
    # -- the sources of this level, in the order of the generic walk --------------------------
    general = f"reversed({prev})"
    if p.ENTER == "bar" and not p.FIRST:
        general = f"([25] + {prev}[::-1] if L[25] > 0 else reversed({prev}))"
    if p.POOL and not p.UFIRST:
        # the walk's order: the bar (when it need not come first), the unentered, the pips
        bar = "([25] if L[25] > 0 else []) + " if p.ENTER == "bar" and not p.FIRST else ""
        general = (f"({bar}([29] if L[29] > 0 else []) + {prev}[::-1] "
                   f"if L[25] > 0 or L[29] > 0 else reversed({prev}))")
    branches: list[tuple[str, str]] = []
    if p.REST and k > 1:
        mt = f"t{k - 1}"
        if p.ENTER == "bar" and p.FIRST:
            expr = f"(() if L[25] > 0 else ({mt},))"
        elif p.ENTER == "start" and p.FIRST:
            expr = f"(({mt},) if L[{p.S}] <= 0 or {mt} == {p.S} or {mt} in c{k - 1} else ())"
        else:
            expr = f"({mt},)"
        branches.append((f"m{k - 1}", expr))
    if p.ENTER == "bar" and p.FIRST:
        branches.append(("L[25] > 0", "BAR"))
        if p.POOL and p.UFIRST:
            branches.append(("L[29] > 0", "(29,)"))
    elif p.ENTER == "start" and p.FIRST:
        carried = f"c{k - 1}"
        branches.append((f"L[{p.S}] > 0",
                         f"({p.S},) + tuple(sorted({{c for c in {carried} if c != {p.S} "
                         f"and L[c] > 0}}, reverse=True))" if k > 1 else f"({p.S},)"))
    src = f"S{k}"
    if branches:
        for i, (cond, expr) in enumerate(branches):
            e(n, f"{'if' if i == 0 else 'elif'} {cond}:")
            e(n + 1, f"{src} = {expr}")
        e(n, "else:")
        e(n + 1, f"{src} = {general}")
    else:
        e(n, f"{src} = {general}")
    nb = _no_bear(p, k)
    if p.COMPULSORY:
        # a number that bears a checker off exactly must do so: then it is the only step
        e(n, f"q = {p.OFFP} + {d}")
        must = f" and (not m{k - 1} or q == t{k - 1})" if p.REST and k > 1 else ""
        e(n, f"if q <= 24 and L[q] > 0 and not ({nb}){must}:")
        e(n + 1, f"{src} = (q,)")
        if p.SURPLUS:
            e(n + 1, f"sx{k} = None")
            e(n, "else:")
        nn = n + 1
    else:
        nn = n
    if p.SURPLUS:
        # the surplus bear-off of a full home board comes after the other steps (never for a
        # checker that must go on from a rest)
        cond = f"m{k - 1}" if p.REST and k > 1 else "False"
        e(nn, f"sx{k} = None if {cond} else surplus_exit(L, {d})")
        e(nn, f"if sx{k} is not None:")
        e(nn + 1, f"q = sx{k}[0]")
        if p.OVER_ANY:
            e(nn + 1, "dup = True")
        else:
            e(nn + 1, "dup = all(L[i] <= 0 for i in range(q + 1, 25))")
        e(nn + 1, f"if not dup: {src} = list({src}) + [-1]")
    e(n, f"for {s} in {src}:")
    n += 1
    body = n
    if p.SURPLUS:
        e(n, f"if {s} < 0:")
        e(n + 1, f"{s} = sx{k}[0]")
        e(n + 1, f"{t} = 0")
        e(n + 1, f"{v} = L[0]")
        if p.HIT != "none":
            e(n + 1, f"h{k} = 0")
        e(n + 1, f"st{k} = Step({s}, 0, {d}, 0, {EXCEDANT | SURPLUS})")
        e(n, "else:")
        n += 1
    if k > 1:
        e(n, f"if L[{s}] <= 0: continue")
    if p.POOL:
        e(n, f"{t} = {s} - {d} if {s} != 29 else 25 - {d}")
    else:
        e(n, f"{t} = {s} - {d}")
    e(n, f"if {t} > {p.OFFP}:")
    e(n + 1, f"{v} = L[{t}]")
    e(n + 1, f"if {v} >= 0:")
    if p.SPECIAL:
        if last:
            e(n + 2, f"if {t} in SPECIAL: continue")
        elif p.CLOSED:
            e(n + 2, f"if {t} in CLOSED: continue")
    if p.HIT != "none":
        e(n + 2, f"h{k} = 0")
    e(n + 2, f"st{k} = R{k}[{s}]")
    if p.PIN:
        # a lone free opposing checker is pinned; a point where one of the mover's lies pinned
        # is closed
        e(n + 1, f"elif {v} == -1 and not L[28] >> {t} & 1:")
        e(n + 2, f"h{k} = 1")
        e(n + 2, f"st{k} = PN[{d}][{s}]")
    elif p.HIT != "none":
        hit_cond = f"-{v} < {p.BLOCK}"
        if p.SPECIAL:
            hit_cond += f" and {t} not in SPECIAL"
        if p.HIT == "start":
            # never onto a start the mover holds, nor a hit on that very start
            hit_cond += f" and L[{p.SEND}] <= 0 and {t} != {p.SEND}"
        e(n + 1, f"elif {hit_cond}:")
        e(n + 2, f"h{k} = -{v}")
        e(n + 2, f"st{k} = Step({s}, {t}, {d}, h{k}, 0)")
    e(n + 1, "else:")
    e(n + 2, "continue")
    e(n, "else:")
    if p.ENTER == "bar":
        e(n + 1, f"if {s} == 25: continue")
    e(n + 1, f"if {nb}: continue")
    e(n + 1, f"if {t} == {p.OFFP}:")
    e(n + 2, f"st{k} = R{k}[{s}]")
    e(n + 1, "else:")
    if not p.OVER_ANY:
        top = p.HOME if p.ALLHOME else 24
        e(n + 2, f"for q in range({s} + 1, {top + 1}):")
        if p.PIN and p.PINOFF:
            e(n + 3, "if L[q] > 0 or (L[q] < 0 and L[28] >> q & 1): break")
        else:
            e(n + 3, "if L[q] > 0: break")
        e(n + 2, "else:")
        e(n + 3, "q = 0")
        e(n + 2, "if q: continue")
    e(n + 2, f"st{k} = X{k}[{s}]")
    if p.EXC:
        e(n + 2, "ax = 1")
    e(n + 1, f"{t} = 0")
    e(n + 1, f"{v} = L[0]")
    if p.HIT != "none":
        e(n + 1, f"h{k} = 0")
    n = body
    # -- apply -------------------------------------------------------------------------------
    if p.MOVES:
        e(n, f"B{k} = tuple(L)")
    e(n, f"L[{s}] -= 1")
    if p.PIN:
        # the last pinner leaving frees the checker under it
        e(n, f"if L[{s}] == 0 and L[28] >> {s} & 1:")
        e(n + 1, f"L[28] ^= 1 << {s}")
        e(n + 1, f"L[{s}] = -1")
        e(n + 1, f"r{k} = 1")
        e(n, "else:")
        e(n + 1, f"r{k} = 0")
        e(n, f"if h{k}:")
        e(n + 1, f"L[{t}] = 1")
        e(n + 1, f"L[28] |= 1 << {t}")
        e(n, "else:")
        e(n + 1, f"L[{t}] = {v} + 1")
    elif p.HIT != "none":
        e(n, f"L[{t}] = {v} + 1 + h{k}")
        e(n, f"if h{k}: L[{p.SEND}] {'+' if p.ADD else '-'}= h{k}")
    else:
        e(n, f"L[{t}] = {v} + 1")
    path = "(" + ", ".join(f"st{i}" for i in range(1, k + 1)) + ("," if k == 1 else "") + ")"
    undo_at = n
    if p.MOVES:
        # the per-move hooks see the position before and after this move and the path so far;
        # a move they forbid is undone and not followed
        e(n, f"A{k} = tuple(L)")
        e(n, "for mv in moves:")
        e(n + 1, f"if mv(B{k}, A{k}, {path}, d1, d2, rolls): break")
        e(n, "else:")
        n += 1
    record_cond = f"L[{p.C}] != 1" if p.C is not None else ""
    if p.SWAP:
        record_cond = f"{record_cond} and not (held and _is_swap({p.C}, {path}))"

    def record(n: int) -> None:
        if record_cond:
            e(n, f"if {record_cond}:")
            e(n + 1, f"full.append(({path}, tuple(L)))")
        else:
            e(n, f"full.append(({path}, tuple(L)))")

    if last:
        record(n)
    else:
        e(n, f"if {t} == 0 and L[0] == NT:")
        record(n + 1)
        e(n, "else:")
        m = n + 1
        # what the next level needs: the rest, the sources, the checkers entered, the far count
        if p.REST:
            e(m, f"m{k} = {t} in REST")
        e(m, f"if {t} and {v} <= 0{'' if k == 1 else f' and {t} not in {prev}'}:")
        e(m + 1, f"P{k} = {prev}[:]")
        e(m + 1, f"insort(P{k}, {t})")
        e(m, "else:")
        e(m + 1, f"P{k} = {prev}")
        if p.ENTER == "start":
            c0 = f"c{k - 1}"
            e(m, f"if {s} == {p.S}:")
            e(m + 1, f"c{k} = {c0} + ({t},)")
            e(m, f"elif {s} in {c0}:")
            e(m + 1, f"i = {c0}.index({s})")
            e(m + 1, f"c{k} = {c0}[:i] + ({t},) + {c0}[i + 1:]")
            e(m, "else:")
            e(m + 1, f"c{k} = {c0}")
        if p.ALLHOME:
            e(m, f"far{k} = far{k - 1} - 1 if {s} > {p.HOME} >= {t} else far{k - 1}")
        _level(e, m, p, k + 1, N, dice)
    # -- undo --------------------------------------------------------------------------------
    n = undo_at
    if p.PIN:
        e(n, f"if r{k}:")
        e(n + 1, f"L[{s}] = 1")
        e(n + 1, f"L[28] |= 1 << {s}")
        e(n, "else:")
        e(n + 1, f"L[{s}] += 1")
        e(n, f"if h{k}: L[28] ^= 1 << {t}")
    else:
        e(n, f"L[{s}] += 1")
        if p.HIT != "none":
            e(n, f"if h{k}: L[{p.SEND}] {'-' if p.ADD else '+'}= h{k}")
    e(n, f"L[{t}] = {v}")
