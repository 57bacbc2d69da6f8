"""Bounds and cost, decided when the file is loaded.

`Bounds` is an interval analysis of the compiler's tree: every number gets the least and the
most it can be (the dice 1..6, `mine(p)` 0..checkers, arithmetic propagated), every collection
the most items it can hold and the bounds of its items. It refuses a number that could leave
±MAX_VALUE and a range whose bounds could make it hold more than MAX_RANGE_VALUES numbers or
leave RANGE_MIN..RANGE_MAX. Bounds that rest on an assumption (`rolls`, the number of plays)
are marked inexact: a range built on them is clipped to its bounds when it runs.

`cost` prices one evaluation of a tree: a part evaluated once counts 1, an aggregate counts its
collection's largest size times its body. `hook_cost` gives a hook's worst case in one roll:
for a forbid or prefer rule, run once per candidate path or play, what reads only the position
before the roll is counted once (the hoisting pass computes it once per roll) and the rest once
per candidate.
"""
from __future__ import annotations

from interpreter.bounded import STATE_MAX, STATE_MIN
from interpreter.dsl import core as C
from interpreter.dsl.core import BOOL, INT, LIST_INT, PATH, SET, STR, Expr
from interpreter.dsl.fold import check_range, error
from interpreter.dsl.info import Info
from interpreter.dsl.limits import (ASSUMED_PATHS, ASSUMED_STEPS, MAX_VALUE, RANGE_MAX,
                                    RANGE_MIN)
from interpreter.dsl.vocabulary import FUNCTIONS, ITEM_BOUNDS, PARAM_BOUNDS, Env

#: what one call of a hook costs beside its parts, in steps: measured, a call of a hook of a few
#: steps takes as long as twenty steps of a larger one (docs/dsl.md, "Limits")
CALL_COST = 20

#: a part that reads only the position before the roll and costs at least this much is computed
#: once per roll in a forbid or prefer rule
HOIST_MIN = 6


BOOL_INFO = Info(0, 1)
NOTHING = Info()
UNBOUNDED = Info(-MAX_VALUE, MAX_VALUE, exact=False)


def _union(a: Info, b: Info) -> Info:
    return Info(min(a.lo, b.lo), max(a.hi, b.hi), max(a.size, b.size), a.exact and b.exact)


class Bounds:
    """Computes (and records in `node.info`) the bounds of every node of a tree."""

    def __init__(self, env: Env):
        self.env = env
        self._memo: dict[int, Info] = {}
        self._keep: list[Expr] = []

    def __call__(self, node: Expr) -> Info:
        done = self._memo.get(id(node))
        if done is not None:
            return done
        info = self._bounds(node)
        if node.type == INT and (info.lo < -MAX_VALUE or info.hi > MAX_VALUE):
            reach = info.hi if info.hi > MAX_VALUE else info.lo
            raise error(node, "dsl-limit", f"this number can reach {reach:,}; a rule computes "
                        f"within ±{MAX_VALUE:,}")
        node.info = info
        self._memo[id(node)] = info
        self._keep.append(node)
        return info

    def _bounds(self, node: Expr) -> Info:
        return _BOUNDS[type(node)](self, node)

    def _b_Const(self, node: C.Const) -> Info:
        if node.type == SET:
            v = node.value
            return Info(min(v), max(v), len(v)) if v else Info(0, -1, 0)
        if node.type == STR:
            return NOTHING
        return Info(int(node.value), int(node.value))

    def _b_Param(self, node: C.Param) -> Info:
        if node.name in PARAM_BOUNDS:
            lo, hi, exact = PARAM_BOUNDS[node.name]
            return Info(lo, hi, exact=exact)
        if node.type == PATH:
            return Info(0, 25, ASSUMED_STEPS)
        return NOTHING

    def _b_CtxField(self, node: C.CtxField) -> Info:
        if node.name == "plays":
            return Info(size=self.env.plays, exact=False)
        lo, hi, exact = PARAM_BOUNDS[node.name]
        return Info(lo, hi, exact=exact)

    def _b_Local(self, node: C.Local) -> Info:
        # what its aggregate found, or (outside its aggregate) nothing known
        if node.info is not None:
            return node.info
        return UNBOUNDED if node.type == INT else NOTHING

    def _b_Hoisted(self, node: C.Hoisted) -> Info:
        return node.info or NOTHING

    def _b_Cached(self, node: C.Cached) -> Info:
        return self(node.part)

    def _b_Item(self, node: C.Item) -> Info:
        self(node.base)
        bounds = ITEM_BOUNDS.get((node.base.type, node.index))
        if bounds is not None:
            lo, hi = bounds(self.env)
            return Info(lo, hi)
        if node.type == C.LIST_PATH:
            return Info(size=ASSUMED_PATHS, exact=False)
        if node.type == INT and node.base.type == C.STATE:
            # a count of the named state (`[turn.state]`), kept within its bounds
            return Info(STATE_MIN, STATE_MAX, exact=False)
        return NOTHING

    def _b_Flag(self, node: C.Flag) -> Info:
        self(node.base)
        return BOOL_INFO

    def _b_Arith(self, node: C.Arith) -> Info:
        a, b = self(node.left), self(node.right)
        exact = a.exact and b.exact
        op = node.op
        if op == "+":
            return Info(a.lo + b.lo, a.hi + b.hi, exact=exact)
        if op == "-":
            return Info(a.lo - b.hi, a.hi - b.lo, exact=exact)
        if op == "*":
            corners = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
            return Info(min(corners), max(corners), exact=exact)
        if op == "//":
            if b.lo <= 0 <= b.hi:      # a divisor that may be 0 (which gives 0) or ±1
                m = max(abs(a.lo), abs(a.hi))
                return Info(-m, m, exact=exact)
            corners = (a.lo // b.lo, a.lo // b.hi, a.hi // b.lo, a.hi // b.hi)
            return Info(min(corners), max(corners), exact=exact)
        # %: the sign of the divisor, less than it in size; 0 for a divisor 0
        return Info(min(0, b.lo + 1), max(0, b.hi - 1), exact=exact)

    def _b_Neg(self, node: C.Neg) -> Info:
        a = self(node.operand)
        return Info(-a.hi, -a.lo, exact=a.exact)

    def _kids_bool(self, node: Expr) -> Info:
        for k in node.kids():
            self(k)
        return BOOL_INFO

    _b_Cmp = _b_And = _b_Or = _b_Not = _b_Member = _b_Intersects = _kids_bool

    def _b_IfExp(self, node: C.IfExp) -> Info:
        self(node.cond)
        then, other = self(node.then), self(node.other)
        if node.type == BOOL:
            return BOOL_INFO
        return _union(then, other)

    def _b_Range(self, node: C.Range) -> Info:
        lo, hi = self(node.lo), self(node.hi)
        first, last = lo.lo, hi.hi
        check_range(node, first, last, fixed=False)
        # a range with inexact bounds is clipped to first..last when it runs: its items are
        # always within them
        return Info(first, last, max(0, last - first + 1))

    def _b_SetOf(self, node: C.SetOf) -> Info:
        infos = [self(i) for i in node.items]
        if not infos:
            return Info(0, -1, 0)
        return Info(min(i.lo for i in infos), max(i.hi for i in infos), len(infos),
                    all(i.exact for i in infos))

    def _b_Dice(self, node: C.Dice) -> Info:
        return Info(1, 6, 2)

    def _b_Call(self, node: C.Call) -> Info:
        infos = [self(a) for a in node.args]
        fn = FUNCTIONS[node.fn]
        if fn.bounds is not None:
            return fn.bounds(infos, self.env)
        if node.type == BOOL:
            return BOOL_INFO
        if node.type == SET:
            return Info(RANGE_MIN, RANGE_MAX, RANGE_MAX - RANGE_MIN + 1, exact=False)
        return UNBOUNDED if node.type == INT else NOTHING

    def _b_Agg(self, node: C.Agg) -> Info:
        coll = self(node.coll)
        elem = node.binder.type
        if node.coll.type in (SET, LIST_INT):
            item = Info(coll.lo, coll.hi, exact=coll.exact)
        elif elem == PATH:
            item = Info(0, 25, ASSUMED_STEPS)
        else:
            item = NOTHING
        node.binder.info = item
        self._memo[id(node.binder)] = item
        self._keep.append(node.binder)
        if node.where is not None:
            self(node.where)
        body = self(node.body) if node.body is not None else item
        n = coll.size
        exact = coll.exact and body.exact
        kind = node.kind
        if kind == "count":
            return Info(0, n, exact=coll.exact)
        if kind == "sum":
            return Info(n * min(body.lo, 0), n * max(body.hi, 0), exact=exact)
        if kind in ("max", "min"):
            return Info(min(body.lo, 0), max(body.hi, 0), exact=exact)
        if kind in ("any", "all"):
            return BOOL_INFO
        # union: the items of the bodies
        assert node.body is not None
        per = 1 if node.body.type == INT else body.size
        width = max(0, body.hi - body.lo + 1)
        return Info(body.lo, body.hi, min(n * per, width), exact)


_BOUNDS = {getattr(C, name[3:]): fn for name, fn in vars(Bounds).items() if name.startswith("_b_")}


# -- what a part reads -----------------------------------------------------------------------------

class Reads:
    """The hook parameters (and aggregate variables not bound inside) each part reads."""

    def __init__(self) -> None:
        self._memo: dict[int, frozenset] = {}
        self._keep: list[Expr] = []

    def __call__(self, node: Expr) -> frozenset:
        done = self._memo.get(id(node))
        if done is not None:
            return done
        if isinstance(node, C.Param):
            out: frozenset = frozenset((node.name,))
        elif isinstance(node, C.CtxField):
            out = frozenset(("ctx",))
        elif isinstance(node, C.Local):
            out = frozenset((node.id,))
        elif isinstance(node, C.Dice):
            out = frozenset(("d1", "d2"))
        elif isinstance(node, C.Hoisted):
            out = frozenset(("b",))
        elif isinstance(node, C.Agg):
            inner = frozenset().union(*(self(k) for k in (node.where, node.body) if k is not None))
            out = self(node.coll) | (inner - {node.binder.id})
        else:
            out = frozenset().union(*(self(k) for k in node.kids()))
        self._memo[id(node)] = out
        self._keep.append(node)
        return out

    def before_only(self, node: Expr) -> bool:
        """Reads nothing but the position before the roll (and constants)."""
        return self(node) <= {"b"}


# -- cost ------------------------------------------------------------------------------------------

class Cost:
    """The cost model: one evaluation of each part (after `Bounds` has annotated the tree)."""

    def __init__(self, bounds: Bounds | None = None) -> None:
        self._memo: dict[int, int] = {}
        self._keep: list[Expr] = []
        self.reads = Reads()
        #: bounds of the parts a later pass made (None: the tree is annotated already)
        self._bounds = bounds

    def info(self, node: Expr) -> Info:
        if node.info is not None:
            return node.info
        return self._bounds(node) if self._bounds is not None else NOTHING

    def _size(self, agg: C.Agg) -> int:
        return self.info(agg.coll).size

    def __call__(self, node: Expr) -> int:
        done = self._memo.get(id(node))
        if done is not None:
            return done
        out = self._cost(node)
        self._memo[id(node)] = out
        self._keep.append(node)
        return out

    def _cost(self, node: Expr) -> int:
        if isinstance(node, C.Agg):
            inner = 1 + sum(self(k) for k in (node.where, node.body) if k is not None)
            return self(node.coll) + self._size(node) * inner
        if isinstance(node, C.IfExp):
            return 1 + self(node.cond) + max(self(node.then), self(node.other))
        if isinstance(node, C.Call):
            fn = FUNCTIONS[node.fn]
            own = fn.cost([self.info(a) for a in node.args]) if callable(fn.cost) else fn.cost
            return own + sum(self(a) for a in node.args)
        return 1 + sum(self(k) for k in node.kids())

    def hoisted(self, node: Expr) -> bool:
        """Whether a per-candidate hook computes this part once per roll (see optimize.hoist)."""
        return (not isinstance(node, C.Const) and self.reads.before_only(node)
                and self(node) >= HOIST_MIN)

    def split(self, node: Expr) -> tuple[int, int]:
        """(once per roll, once per candidate) of a part of a per-candidate hook."""
        if self.hoisted(node):
            return self(node), 0
        if isinstance(node, C.Agg):
            size = self._size(node)
            once, each = self.split(node.coll)
            inner = 1
            for k in (node.where, node.body):
                if k is not None:
                    o, e = self.split(k)
                    once += o
                    inner += e
            return once, each + size * inner
        parts = [self.split(k) for k in node.kids()]
        return self._combined(node, parts)

    def _combined(self, node: Expr, parts: list[tuple[int, int]]) -> tuple[int, int]:
        """(once, per evaluation) of a node that is not an aggregate, from those of its parts:
        an `if` costs its condition and the dearer branch, a call its own cost and its
        arguments', any other node one step and its parts."""
        once = sum(o for o, _e in parts)
        if isinstance(node, C.IfExp):
            c, t, f = parts
            return once, 1 + c[1] + max(t[1], f[1])
        if isinstance(node, C.Call):
            fn = FUNCTIONS[node.fn]
            own = fn.cost([self.info(a) for a in node.args]) if callable(fn.cost) else fn.cost
            return once, own + sum(e for _o, e in parts)
        return once, 1 + sum(e for _o, e in parts)

    def cached(self, node: Expr) -> bool:
        """Whether a part inside an aggregate's body is computed once per call of a single-call
        hook (see optimize.cache_invariants): it reads no aggregate variable."""
        return (not isinstance(node, (C.Const, C.Cached))
                and not any(type(r) is int for r in self.reads(node)) and self(node) >= HOIST_MIN)

    def split_invariants(self, node: Expr, inside: bool = False,
                         in_coll: bool = False) -> tuple[int, int]:
        """(once per call, per evaluation) of a part of a single-call hook, its parts that read
        no variable of the aggregates around them counted once."""
        if isinstance(node, C.Cached) or (inside and not in_coll and self.cached(node)):
            part = node.part if isinstance(node, C.Cached) else node
            return self(part), 1
        if isinstance(node, C.Agg):
            once, each = self.split_invariants(node.coll, inside, True)
            inner = 1
            for k in (node.where, node.body):
                if k is not None:
                    o, e = self.split_invariants(k, True, in_coll)
                    once += o
                    inner += e
            return once, each + self._size(node) * inner
        parts = [self.split_invariants(k, inside, in_coll) for k in node.kids()]
        return self._combined(node, parts)

    def per_roll(self, node: Expr, candidates: int, hoisting: bool = True) -> int:
        """The hook's worst case in one throw, run on `candidates` paths, plays or boards (1:
        once), each call counted `CALL_COST` more (what calling a hook costs beside its parts);
        `hoisting` False: a hook run many times whose position changes at each call (a rule on
        each move, an end rule or a feature on each board), nothing of it computed once per
        throw."""
        if candidates <= 1 or not hoisting:
            once, each = self.split_invariants(node)
            return max(1, candidates) * (once + each + CALL_COST)
        once, each = self.split(node)
        return once + candidates * (each + CALL_COST)

    def costliest_aggregate(self, node: Expr) -> Expr:
        """The outermost aggregate on the way to the dearest part (the root without one)."""
        n = node
        while not isinstance(n, C.Agg):
            kids = n.kids()
            if not kids:
                return node
            n = max(kids, key=self)
        return n
