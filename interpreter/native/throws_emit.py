"""What a throw brings, compiled: the legal plays of a throw and the roll's scoring rules in one
numba module, for the bots of the scoring games (the trictrac family).

A searching bot values a position of a scoring game by the points each side can expect from its
next throw (`players/heuristic.py`, `throw_points`): for each of the 21 throws, the legal plays
and the scoring rules read over them. On the Python path that is the generated generator and
the compiled-to-Python rules, some 150 µs a throw. Here the module of the variant's compiled
rules (`rules_emit.py`) gains two functions written from the file's rule ids and values:

- `throw_plays(b, d1, d2, rolls, cb, cp, cn, pb, ps, pp, pn) -> (plays, unplayed)`: the
  candidates of the switches' generator (`rt_corner.py`), the file's forbid rules asked of them
  in order through their batch forms, the single-number fallback when no candidate playing both
  numbers survives (the higher number preferred), gathered into the plays arrays `pb, ps, pp,
  pn` (`rules_emit.py`); the same plays as `MoveGenerator.plays`, and how many numbers cannot be
  played;
- `throw_points(b, rolls, setup, dice, cb, cp, cn, pb, ps, pp, pn) -> int`: over the throws of
  `dice` (rows of d1, d2, weight), the weight times the points the roll's scoring rules give the
  mover less those they give his opponent; the caller divides by the total weight.

`throw_points` makes a throw's plays only where a rule must see them: a throw first asks
whether some play is legal (`throw_cands`, the first `FEW` candidates, then all), then
`throw_probe`, the rules read from the position, each rule that reads the plays through its
probe (`_probe`: its own function, every loop over the plays made the answer `NEED`, or left out
where no play of the throw could satisfy it); only on `NEED` are the plays made and every rule
read over them. A forbid rule is asked in its two parts (`rules_emit.NativeFn.hoisted`), the
parts that read only the position once per position.

`covers(variant)` says whether the variant's switches are those `rt_corner.py` generates for and
every rule the throw reads compiled; otherwise the Python path serves, unchanged. As in
`rules_emit.py` no text of the file reaches the code: the rules are called by the names that
module made up and the points are integer constants.
"""
from __future__ import annotations

import ast
import dataclasses
import os
from typing import Any

from interpreter.kernel.rules import MoveRules
from interpreter.native.modules import per_variant
from interpreter.native.rules_emit import NativeRules, emit_rules, _folder, load_module

_BUFS = "i8[:,::1], i8[:,:,::1], i8[::1], i8[:,::1], i8[::1], i8[:,:,::1], i8[::1]"
#: the functions a caller runs, with their signatures (`library.py`)
EXPORTS = (("throw_plays", f"UniTuple(i8, 2)(i8[::1], i8, i8, i8, {_BUFS})"),
           ("throw_points", f"i8(i8[::1], i8, i8, i8[:,::1], {_BUFS})"),
           ("throw_points_many", f"i8[::1](i8[:,::1], i8[::1], i8[::1], i8[:,::1], {_BUFS})"))

#: how many candidates are made first where only whether some play is legal matters
FEW = 4

#: the most candidates of a throw: 24 sources for each number of each order and the corner
#: taken par puissance two ways (15 checkers leave fewer)
CAP = 2 * 24 * 24 + 2

#: the switches the compiled generator plays (`rt_corner.py`); the corners are read from the
#: rules (any pips with the opponent's one a rest)
_SWITCHES = dict(
    doublet_moves=2, block=1, route="opposite", hit="none", enter="none", start_pip=24,
    pool=False, bear_off="all_home", home_top=6, off_pip=0, exact_exit="optional",
    over_exit="farthest", excedant_filter="fewest", retour_conserve_exit="farthest_checker",
    max_dice=True, higher_number=True, opp_corner_rest=True, coin_swap="allow",
    puissance_needs="both_coins_empty", no_landing=(), state=())


def switches_covered(rules: MoveRules) -> bool:
    """Whether `rt_corner.py` generates the plays of these movement switches."""
    if rules.own_corner is None or rules.opp_corner is None or rules.walk_only:
        return False
    if not (13 <= rules.own_corner <= 24 and 1 <= rules.opp_corner <= 12):
        return False
    return all(getattr(rules, k) == v for k, v in _SWITCHES.items())


def covers(variant: Any) -> bool:
    """Whether the throws of `variant` can be valued by compiled code: its switches covered, its
    forbid rules all end-of-play rules that are never waived, no per-move rule, and points only
    on the roll (a score on the play chosen is left to the Python path)."""
    gen = variant.generator
    rules = variant.rules
    if not switches_covered(gen.rules) or gen.moves or getattr(rules, "forbid_move", ()):
        return False
    if getattr(gen, "_waivable", False) or rules.score_play or not rules.score_roll:
        return False
    return len(gen.forbid) == len(rules.forbid)


@per_variant
def emit_throws(variant: Any) -> tuple[NativeRules, tuple[str, ...]] | None:
    """The variant's compiled rules with the two throw functions, and the names of the
    functions a caller runs; None when the variant is not covered or a rule they read did not
    compile. Written once per variant; its text is checked where it is compiled
    (`rules_emit.load_module`)."""
    if not covers(variant):
        return None
    nr = emit_rules(variant)
    if nr is None or nr.roll is None:
        return None
    forbids: list[Any] = []
    for rule_id, _fn in variant.rules.forbid:
        fn = nr.functions.get(rule_id)
        if fn is None or fn.batch is None:
            return None
        forbids.append(fn)
    r = variant.generator.rules
    C, O = r.own_corner, r.opp_corner
    # each forbid rule's values read once per position, at its offset in `hv`
    at = [sum(f.hoisted for f in forbids[:k]) for k in range(len(forbids))]
    size = max(1, sum(f.hoisted for f in forbids))
    pre = [f"    {f.name}_pre(b, hv[{o}:])" for f, o in zip(forbids, at)]
    barred = " or ".join(f"{f.name}_each(b, hv[{o}:], cb[_k0], cp[_k0], cn[_k0], d1, d2, rolls)"
                         for f, o in zip(forbids, at)) or "False"
    keep = ["    _t0 = np.int64(0)",
            "    for _k0 in range(_v0):",
            f"        if not ({barred}):",
            "            if _t0 != _k0:",
            "                rt.copy_candidate(cb, cp, cn, _k0, _t0)",
            "            _t0 += 1",
            "    _v0 = _t0"]
    lines = ["", "", "@njit(cache=True)",
             "def throw_cands(b, d1, d2, rolls, cb, cp, cn, hv, full):",
             "    if not full:",
             "        # whether any candidate is legal: the first few, then all",
             f"        _v0 = rt.corner_full(b, d1, d2, {C}, {O}, cb, cp, cn, {FEW})",
             "        for _k0 in range(_v0):",
             f"            if not ({barred}):",
             "                return (_v0, 0)",
             f"        full = _v0 == {FEW}",
             "        _v0 = np.int64(0)",
             "    if full:",
             f"        _v0 = rt.corner_full(b, d1, d2, {C}, {O}, cb, cp, cn, cb.shape[0])"]
    lines += ["    " + k for k in keep]
    lines += ["    unplayed = np.int64(0)",
              "    if _v0 == 0:",
              f"        _v0 = rt.corner_single(b, d1, d2, {C}, {O}, cb, cp, cn)"]
    lines += ["    " + k for k in keep]
    lines += ["        _v0 = rt.prefer_higher(cb, cp, cn, _v0, d1, d2)",
              "        unplayed = 1 if _v0 > 0 else 2",
              "    return (_v0, unplayed)",
              "", "",
              "@njit(cache=True)",
              "def throw_plays(b, d1, d2, rolls, cb, cp, cn, pb, ps, pp, pn):",
              f"    hv = np.zeros({size}, np.int64)"] + pre + [
              "    _v0, unplayed = throw_cands(b, d1, d2, rolls, cb, cp, cn, hv, True)",
              "    plays = rt.group_plays(b, cb, cp, cn, _v0, pb, ps, pp, pn)",
              "    return (plays, unplayed)"]
    # the most checkers a play of a throw moves: two (the switches covered play a doublet
    # twice; the corner taken par puissance moves two)
    probes = _probes(nr, max(2, r.doublet_moves))
    if probes is not None:
        lines += ["", ""] + probes
    lines += ["", "",
              "@njit(cache=True)",
              "def throw_points(b, rolls, setup, dice, cb, cp, cn, pb, ps, pp, pn):",
              f"    hv = np.zeros({size}, np.int64)"] + pre + [
              "    points = 0",
              "    for _k1 in range(dice.shape[0]):",
              "        d1 = dice[_k1, 0]",
              "        d2 = dice[_k1, 1]"]
    if probes is not None:
        # whether some play is legal, then the rules that need no plays; the plays made
        # only where a rule must see them
        lines += ["        _v0, unplayed = throw_cands(b, d1, d2, rolls, cb, cp, cn, hv, False)",
                  "        _v1 = throw_probe(b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn)",
                  f"        if _v1 == ({NEED}):",
                  "            _v0, unplayed = throw_cands(b, d1, d2, rolls, cb, cp, cn, hv, True)"]
    else:
        lines += ["        _v0, unplayed = throw_cands(b, d1, d2, rolls, cb, cp, cn, hv, True)",
                  "        if True:"]
    lines += ["            plays = rt.group_plays(b, cb, cp, cn, _v0, pb, ps, pp, pn)",
              "            paths = ps[plays]",
              "            ways = roll_ways(b, d1, d2, rolls, setup, unplayed, pb[:plays], "
              "ps[:plays + 1], pp[:paths], pn[:paths])",
              "            _v1 = 0",
              "            if d1 == d2:"]
    for k, (_id, to, simple, doublet) in enumerate(nr.roll_rules):
        sign = "+" if to == "mover" else "-"
        lines.append(f"                _v1 {sign}= ways[{k}] * {int(doublet)}")
    lines.append("            else:")
    for k, (_id, to, simple, doublet) in enumerate(nr.roll_rules):
        sign = "+" if to == "mover" else "-"
        lines.append(f"                _v1 {sign}= ways[{k}] * {int(simple)}")
    lines += ["        points += dice[_k1, 2] * _v1",
              "    return points",
              "", "",
              "@njit(cache=True)",
              "def throw_points_many(bs, rs, ss, dice, cb, cp, cn, pb, ps, pp, pn):",
              "    out = np.zeros(bs.shape[0], np.int64)",
              "    for _k1 in range(bs.shape[0]):",
              "        out[_k1] = throw_points(bs[_k1], rs[_k1], ss[_k1], dice, "
              "cb, cp, cn, pb, ps, pp, pn)",
              "    return out", ""]
    source = nr.source + "\n".join(lines)
    return dataclasses.replace(nr, source=source), ("throw_plays", "throw_points",
                                                    "throw_points_many")


#: what a probe returns where the throw's plays must be made before the rule can be read
NEED = -(1 << 62)

_PLAYS = frozenset({"pb", "ps", "pp", "pn"})


def _probe(source: str, name: str, most: int) -> list[str] | None:
    """The lines of `name`'s probe: the rule's function without the plays' arguments, each
    loop over the roll's plays replaced by `return NEED` (what follows it in its block left
    out). Where no such loop is reached the probe returns what the rule does, which then does
    not depend on the plays. A loop that only looks at the plays leaving given numbers of the
    mover's checkers on given points (`pl.full(j)`, `pl.mine(off) == checkers`) is left out
    where the position is further from that than `most` checkers (the most a throw's play
    moves): no play can then satisfy it, and the loop does nothing. None where the function
    reads the plays otherwise."""
    at = source.index(f"\ndef {name}(") + 1
    end = source.find("\n\n\n", at)
    fn = ast.parse(source[at:end if end >= 0 else len(source)]).body[0]
    assert isinstance(fn, ast.FunctionDef)
    fn.name = f"{name}_probe"
    fn.args.args = [a for a in fn.args.args if a.arg not in _PLAYS]
    fn.decorator_list = []
    fn.body = _cut(fn.body, most)
    ast.fix_missing_locations(fn)
    if any(isinstance(n, ast.Name) and n.id in _PLAYS for n in ast.walk(fn)):
        return None
    return ["@njit(cache=True)"] + ast.unparse(fn).split("\n")


def _cut(body: list[ast.stmt], most: int) -> list[ast.stmt]:
    """`body` with its loops over the plays made probes' answers (`_probe`), and nothing
    after a `return`."""
    out: list[ast.stmt] = []
    for st in body:
        if isinstance(st, ast.For) and ast.unparse(st.iter) == "range(pb.shape[0])":
            need = ast.Return(ast.Constant(NEED))
            far = _too_far(st, most)
            if far is None:
                out.append(need)
                break
            out.append(ast.If(test=ast.UnaryOp(ast.Not(), far), body=[need], orelse=[]))
            continue
        for field in ("body", "orelse"):
            inner = getattr(st, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(st, field, _cut(inner, most) or [ast.Pass()])
        out.append(st)
        if isinstance(st, ast.Return):
            break
    return out


def _too_far(loop: ast.For, most: int) -> ast.expr | None:
    """Where the loop's body is a single `if` (no `else`) whose test is a conjunction of
    `pb[v, P] >= K` or `pb[v, P] == K` (K > 0): the test that the position is more than `most`
    arrivals of the mover's checkers from every such count (a play leaves on P at most the
    checkers of the mover there before and those it brings); else None."""
    if len(loop.body) != 1 or not isinstance(loop.body[0], ast.If) or loop.body[0].orelse:
        return None
    test = loop.body[0].test
    terms = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) \
        else [test]
    var = loop.target.id if isinstance(loop.target, ast.Name) else None
    short: list[str] = []
    for t in terms:
        if not (isinstance(t, ast.Compare) and len(t.ops) == 1
                and isinstance(t.ops[0], (ast.GtE, ast.Eq))
                and isinstance(t.comparators[0], ast.Constant)
                and type(t.comparators[0].value) is int and t.comparators[0].value > 0
                and isinstance(t.left, ast.Subscript)
                and isinstance(t.left.value, ast.Name) and t.left.value.id == "pb"
                and isinstance(t.left.slice, ast.Tuple) and len(t.left.slice.elts) == 2
                and isinstance(t.left.slice.elts[0], ast.Name)
                and t.left.slice.elts[0].id == var
                and isinstance(t.left.slice.elts[1], ast.Constant)
                and type(t.left.slice.elts[1].value) is int):
            return None
        pip, k = t.left.slice.elts[1].value, t.comparators[0].value
        short.append(f"max(0, {k} - max(b[{pip}], 0))")
    if not short:
        return None
    return ast.parse(f"({' + '.join(short)}) > {most}", mode="eval").body


def _probes(nr: NativeRules, most: int) -> list[str] | None:
    """`throw_probe(b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn)`: the points of the
    roll's scoring rules (the mover's less his opponent's) read without the plays, or NEED
    where some rule must see them; with the probes of the rules that read them first. None
    where a rule reads the plays in a way its probe cannot stand in for; `most`: the most
    checkers a play moves."""
    lines: list[str] = []
    calls: list[str] = []
    rest: list[str] = []
    args = "b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn"
    for k, (rule_id, to, simple, doublet) in enumerate(nr.roll_rules):
        fn = nr.functions[rule_id]
        sign = "+" if to == "mover" else "-"
        worth = f"({int(doublet)} if d1 == d2 else {int(simple)})"
        if fn.reads_plays:
            probe = _probe(nr.source, fn.name, most)
            if probe is None:
                return None
            lines += probe + ["", ""]
            calls += [f"    _t{k} = {fn.name}_probe(b, d1, d2, rolls, setup, unplayed)",
                      f"    if _t{k} == ({NEED}):", f"        return ({NEED})",
                      f"    _v1 {sign}= _t{k} * {worth}"]
        else:
            call = f"{fn.name}({args})"
            if fn.returns == "bool":
                call = f"(1 if {call} else 0)"
            rest.append(f"    _v1 {sign}= {call} * {worth}")
    return lines + ["@njit(cache=True)", f"def throw_probe({args}):", "    _v1 = 0"] + calls + \
        rest + ["    return _v1"]


def is_cached(nr: NativeRules, functions: tuple[str, ...]) -> bool:
    """Whether numba's machine code of `functions` of this module is in the cache already."""
    from interpreter.native.numba_cache import index_folder

    name = f"tablier_rules_{nr.digest}"
    folder = index_folder(os.path.join(_folder(nr.digest), name + ".py"))
    try:
        found = os.listdir(folder)
    except OSError:
        return False
    return all(any(f.startswith(f"{name}.{fn}-") and f.endswith(".nbi") for f in found)
               for fn in functions)


class NativeThrows:
    """The compiled throws of one variant, with their work space: `points(b, rolls, setup,
    dice)` (the weighted sum `throw_points` gives) and `plays(b, d1, d2, rolls)` (the plays as
    the Python generator gives them, for checking)."""

    def __init__(self, variant: Any, nr: NativeRules | None, lib: Any = None) -> None:
        import numpy as np

        if lib is None:
            if nr is None:
                raise ValueError("the throws' library or their rules are needed")
            lib = load_module(nr)
        mod = lib
        self._points = mod.throw_points
        self._many = mod.throw_points_many
        self._plays = mod.throw_plays
        cells = len(variant.start)
        self.cells = cells
        self.cb = np.zeros((CAP, cells), np.int64)
        self.cp = np.zeros((CAP, 2, 5), np.int64)
        self.cn = np.zeros(CAP, np.int64)
        self.pb = np.zeros((CAP, cells), np.int64)
        self.ps = np.zeros(CAP + 1, np.int64)
        self.pp = np.zeros((CAP, 2, 5), np.int64)
        self.pn = np.zeros(CAP, np.int64)
        self.board = np.zeros(cells, np.int64)
        self._dice: dict[tuple, Any] = {}
        self._weight: dict[tuple, int] = {}

    def points(self, b: tuple, rolls: int, setup: int, dice: tuple) -> int:
        """Over the throws `dice` ((d1, d2, weight), ...): the weight times the points (the
        mover's less his opponent's) of each throw's scoring rules, summed."""
        arr = self._dice.get(dice)
        if arr is None:
            import numpy as np

            arr = self._dice[dice] = np.array(dice, np.int64).reshape(len(dice), 3)
        board = self.board
        board[:] = b
        return self._points(board, rolls, setup, arr, self.cb, self.cp, self.cn, self.pb,
                            self.ps, self.pp, self.pn)

    def mean_points(self, b: tuple, rolls: int, setup: int, dice: tuple) -> float:
        """`points` divided by the throws' total weight: the points to expect."""
        weight = self._weight.get(dice)
        if weight is None:
            weight = self._weight[dice] = sum(w for _a, _b, w in dice)
        return int(self.points(b, rolls, setup, dice)) / weight

    def mean_points_many(self, keys: list[tuple], dice: tuple) -> list[float]:
        """`mean_points` of each (board, rolls, setup, ...) of `keys`, in one call."""
        weight = self._weight.get(dice)
        if weight is None:
            weight = self._weight[dice] = sum(w for _a, _b, w in dice)
        return [x / weight for x in self.points_many(keys, dice)]

    def points_many(self, keys: list[tuple], dice: tuple) -> list[int]:
        """`points` of each (board, rolls, setup, ...) of `keys`, in one call."""
        import numpy as np

        arr = self._dice.get(dice)
        if arr is None:
            arr = self._dice[dice] = np.array(dice, np.int64).reshape(len(dice), 3)
        flat = []
        for key in keys:
            flat.extend(key[0])
        bs = np.array(flat, np.int64).reshape(len(keys), self.cells)
        rs = np.array([key[1] for key in keys], np.int64)
        ss = np.array([key[2] for key in keys], np.int64)
        got = self._many(bs, rs, ss, arr, self.cb, self.cp, self.cn, self.pb, self.ps,
                         self.pp, self.pn)
        return list(got.tolist())

    def plays(self, b: tuple, d1: int, d2: int, rolls: int = 1
              ) -> tuple[list[tuple[tuple[int, ...], list[tuple[tuple[int, ...], ...]]]], int]:
        """The plays of a throw: (end board, [path as steps (src, dst, die, hit, flags)]) in
        order, and how many numbers cannot be played."""
        board = self.board
        board[:] = b
        n, unplayed = self._plays(board, d1, d2, rolls, self.cb, self.cp, self.cn, self.pb,
                                  self.ps, self.pp, self.pn)
        out = []
        for j in range(n):
            paths = []
            for k in range(self.ps[j], self.ps[j + 1]):
                steps = self.pp[k][:self.pn[k]].tolist()
                paths.append(tuple(tuple(s) for s in steps))
            out.append((tuple(self.pb[j].tolist()), paths))
        return out, int(unplayed)
