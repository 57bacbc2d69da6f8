"""Transformations of the compiler's tree that make the generated code fast, each a function from
a tree to a new one:

- `Optimizer`: `any(p in c: p in R)`, R fixed, becomes one set operation (`Intersects`);
  aggregates over the dice are written out for d1 and d2; aggregates over a small fixed set of
  pips (count, sum, any, all) are written out term by term, each term folded with its pip known
  (`theirs(3)` reads `b[3]`, a range ending at a fixed pip becomes fixed in turn). Writing out
  happens only within a size budget (per aggregate and per hook), else the loop stays, so
  generated code stays linear in the expanded rule.
- `hoist`: in a forbid or prefer rule (run once per candidate path or play), the parts that read
  only the position before the roll are taken out, to be computed once per roll;
- `cache_invariants`: in the other rules (one call per roll or per play), a part of an
  aggregate's body that reads none of the aggregate variables around it is computed the first
  time it is needed and kept for the rest of the call, instead of once per item.
"""
from __future__ import annotations

from typing import Callable

from interpreter.dsl import core as C
from interpreter.dsl.bounds import Cost, Reads
from interpreter.dsl.core import BOOL, INT, SET, Expr
from interpreter.dsl.fold import Folder
from interpreter.dsl.limits import HOOK_UNROLL_BUDGET, MAX_UNROLL_ITEMS, MAX_UNROLL_NODES
from interpreter.dsl.syntax import SnippetError

_WRITTEN_OUT = frozenset({"count", "sum", "any", "all"})


def substitute(node: Expr, binder: C.Local, value: Expr, reads: Reads,
               memo: dict[int, Expr] | None = None) -> Expr:
    """The tree with `value` in place of the aggregate variable `binder`."""
    memo = {} if memo is None else memo
    if node is binder:
        return value
    if binder.id not in reads(node):
        return node
    done = memo.get(id(node))
    if done is not None:
        return done
    out = node.with_kids([substitute(k, binder, value, reads, memo) for k in node.kids()])
    memo[id(node)] = out
    return out


def balanced(parts: list[Expr], make: Callable[[Expr, Expr], Expr]) -> Expr:
    """parts joined two by two, so a long sum or `or` nests only log2(n) deep."""
    while len(parts) > 1:
        parts = [make(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


class Optimizer:
    def __init__(self, unroll: bool, strings: dict[str, int]):
        #: write out aggregates over fixed sets (False: loops, for comparison)
        self.unroll = unroll
        self.budget = HOOK_UNROLL_BUDGET
        self.reads = Reads()
        self.fold = Folder(strings)
        self._memo: dict[int, Expr] = {}
        self._keep: list[Expr] = []

    def __call__(self, node: Expr) -> Expr:
        if not node.has_aggregate:
            return node         # nothing to write out or to turn into a set operation
        done = self._memo.get(id(node))
        if done is not None:
            return done
        if isinstance(node, C.Agg):
            out = self._aggregate(node)
        else:
            kids = node.kids()
            new = [self(k) for k in kids]
            out = node if all(a is b for a, b in zip(new, kids)) else node.with_kids(new)
        self._memo[id(node)] = out
        self._keep.append(node)
        return out

    # -- helpers ----------------------------------------------------------------------------------

    def _at(self, node: Expr, like: Expr) -> Expr:
        node.at, node.site = like.at, like.site
        return node

    def _true(self, like: Expr) -> Expr:
        return C.const(BOOL, True, like)

    def _term(self, tree: Expr | None, binder: C.Local, value: Expr) -> Expr | None:
        """An optimised part with `value` for the aggregate's variable, folded; what became
        fixed by it (a range `1..q` with q known) is optimised in turn."""
        if tree is None:
            return None
        return self(self.fold(substitute(self(tree), binder, value, self.reads)))

    def _within_budget(self, node: C.Agg, result: Expr, saved: int) -> bool:
        growth = result.size - node.size
        if result.size > MAX_UNROLL_NODES or growth > self.budget:
            self.budget = saved
            return False
        self.budget -= max(0, growth)
        return True

    # -- aggregates -------------------------------------------------------------------------------

    def _aggregate(self, node: C.Agg) -> Expr:
        coll = self(node.coll)
        if isinstance(coll, C.Dice) and node.kind in _WRITTEN_OUT:
            out = self._over_dice(node, coll)
            if out is not None:
                return out
        body = node.body
        if (node.kind == "any" and node.where is None and isinstance(body, C.Member)
                and body.item is node.binder and isinstance(body.coll, C.Const)
                and not isinstance(coll, C.Const)):
            # any(p in c: p in R), R fixed: one set operation instead of a loop
            return self._at(C.Intersects(body.coll, coll, type=BOOL), node)
        if (self.unroll and node.kind in _WRITTEN_OUT and isinstance(coll, C.Const)
                and coll.type == SET and 0 < len(coll.value) <= MAX_UNROLL_ITEMS
                and node.size * len(coll.value) <= MAX_UNROLL_NODES):
            out = self._over_pips(node, coll)
            if out is not None:
                return out
        where = None if node.where is None else self(node.where)
        new_body = None if node.body is None else self(node.body)
        return node.with_kids([k for k in (node.binder, coll, where, new_body) if k is not None])

    def _over_pips(self, node: C.Agg, coll: C.Const) -> Expr | None:
        """The aggregate written out, one term per pip."""
        saved = self.budget
        terms: list[tuple[Expr | None, Expr]] = []
        try:
            for p in sorted(coll.value):
                pip = C.const(INT, p, node)
                where = self._term(node.where, node.binder, pip)
                if isinstance(where, C.Const):
                    if not where.value:
                        continue
                    where = None
                body = self._term(node.body, node.binder, pip)
                assert body is not None
                terms.append((where, body))
            result = self.fold(self._combine(node, terms))
        except SnippetError:      # a term the file cannot have (full(24..25)): keep the loop
            self.budget = saved
            return None
        return result if self._within_budget(node, result, saved) else None

    def _combine(self, node: C.Agg, terms: list[tuple[Expr | None, Expr]]) -> Expr:
        kind = node.kind
        mk = lambda n: self._at(n, node)  # noqa: E731
        zero = C.const(INT, 0, node)
        if kind in ("count", "sum"):
            total = 0
            parts: list[Expr] = []
            for where, body in terms:
                if where is None and isinstance(body, C.Const):
                    total += body.value
                elif where is None:
                    parts.append(body)
                else:
                    parts.append(mk(C.IfExp(where, body, zero, type=INT)))
            if total or not parts:
                parts.insert(0, C.const(INT, total, node))
            return balanced(parts, lambda a, b: mk(C.Arith("+", a, b, type=INT)))
        parts = []
        if kind == "any":
            for where, body in terms:
                if isinstance(body, C.Const):
                    if not body.value:
                        continue
                    if where is None:
                        return C.const(BOOL, True, node)
                    parts.append(where)
                else:
                    parts.append(body if where is None else mk(C.And(where, body, type=BOOL)))
            if not parts:
                return C.const(BOOL, False, node)
            return balanced(parts, lambda a, b: mk(C.Or(a, b, type=BOOL)))
        for where, body in terms:      # all
            if isinstance(body, C.Const):
                if body.value:
                    continue
                if where is None:
                    return C.const(BOOL, False, node)
                parts.append(mk(C.Not(where, type=BOOL)))
            else:
                parts.append(body if where is None
                             else mk(C.Or(mk(C.Not(where, type=BOOL)), body, type=BOOL)))
        if not parts:
            return C.const(BOOL, True, node)
        return balanced(parts, lambda a, b: mk(C.And(a, b, type=BOOL)))

    def _over_dice(self, node: C.Agg, dice: C.Dice) -> Expr | None:
        """An aggregate over the dice (`numbers`, `dice`) written out for d1 and d2: the
        collection has at most two items, and a loop would cost more than the work."""
        saved = self.budget
        mk = lambda n: self._at(n, node)  # noqa: E731
        d = [mk(C.Param(name=f"d{i}", type=INT)) for i in (1, 2)]
        (w1, b1), (w2, b2) = [(self._term(node.where, node.binder, di) or self._true(node),
                               self._term(node.body, node.binder, di)) for di in d]
        assert b1 is not None and b2 is not None
        if dice.distinct:
            # the second number counts unless the roll is a doublet (then there is only one)
            d1, d2 = (mk(C.Param(name=f"d{i}", type=INT)) for i in (1, 2))
            w2 = mk(C.And(mk(C.Cmp("!=", d1, d2, type=BOOL)), w2, type=BOOL))
        zero = C.const(INT, 0, node)
        kind = node.kind
        if kind in ("count", "sum"):
            out: Expr = mk(C.Arith("+", mk(C.IfExp(w1, b1, zero, type=INT)),
                                   mk(C.IfExp(w2, b2, C.const(INT, 0, node), type=INT)),
                                   type=INT))
        elif kind == "any":
            out = mk(C.Or(mk(C.And(w1, b1, type=BOOL)), mk(C.And(w2, b2, type=BOOL)), type=BOOL))
        else:   # all: every number where the condition holds passes
            out = mk(C.And(mk(C.Or(mk(C.Not(w1, type=BOOL)), b1, type=BOOL)),
                           mk(C.Or(mk(C.Not(w2, type=BOOL)), b2, type=BOOL)), type=BOOL))
        result = self.fold(out)
        return result if self._within_budget(node, result, saved) else None


def hoist(root: Expr, cost: Cost) -> tuple[Expr, list[Expr]]:
    """The tree with its parts that read only the position before the roll replaced by
    `Hoisted` references, and those parts in order (a shared part once)."""
    hoisted: list[Expr] = []
    memo: dict[int, Expr] = {}

    def visit(n: Expr) -> Expr:
        done = memo.get(id(n))
        if done is not None:
            return done
        if cost.hoisted(n):
            out: Expr = C.Hoisted(len(hoisted), type=n.type, at=n.at, site=n.site, info=n.info)
            hoisted.append(n)
        else:
            kids = n.kids()
            new = [visit(k) for k in kids]
            out = n if all(a is b for a, b in zip(new, kids)) else n.with_kids(new)
        memo[id(n)] = out
        return out

    return visit(root), hoisted


def cache_invariants(root: Expr, cost: Cost, indexes: Callable[[], int]) -> tuple[Expr, list[int]]:
    """The tree with the parts that `Cost.cached` picks (inside an aggregate's body or
    condition, never inside what an aggregate runs over) wrapped in `Cached`, and the indexes
    used. `indexes` gives fresh indexes (unique within the compiler)."""
    used: list[int] = []
    memo: dict[tuple[int, bool, bool], Expr] = {}

    def visit(n: Expr, inside: bool, in_coll: bool) -> Expr:
        key = (id(n), inside, in_coll)
        done = memo.get(key)
        if done is not None:
            return done
        if inside and not in_coll and cost.cached(n):
            out: Expr = C.Cached(indexes(), n, type=n.type, at=n.at, site=n.site, info=n.info)
            used.append(out.index)  # type: ignore[attr-defined]
        elif isinstance(n, C.Agg):
            coll = visit(n.coll, inside, True)
            where = None if n.where is None else visit(n.where, True, in_coll)
            body = None if n.body is None else visit(n.body, True, in_coll)
            same = coll is n.coll and where is n.where and body is n.body
            out = n if same else n.with_kids(
                [k for k in (n.binder, coll, where, body) if k is not None])
        else:
            kids = n.kids()
            new = [visit(k, inside, in_coll) for k in kids]
            out = n if all(a is b for a, b in zip(new, kids)) else n.with_kids(new)
        memo[key] = out
        return out

    return visit(root, False, False), used
