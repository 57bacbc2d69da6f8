"""The folding pass: what the file alone decides is computed when it is loaded.

Arithmetic and comparisons of constants, `and`/`or`/`not`/`if` with a constant side, fixed
ranges and sets (each range checked against the range limits before it is made), membership in
fixed sets, the vocabulary's own folds (`mine(30)` is 0), aggregates over nothing. Options are
already constants (the checker resolved them), so a rule switched off by an option folds to
`false`.

Strings exist only to be compared with options. They are replaced by small integer codes
(one per distinct string of the hook), so a comparison of strings becomes one of numbers and
no string ever reaches the generated code: `(if c then 'a' else 'b') == 'a'` is decided per
branch like any comparison of numbers.
"""
from __future__ import annotations

from typing import Any, Callable

from interpreter.dsl import core as C
from interpreter.dsl.core import BOOL, INT, SET, STR, Expr
from interpreter.dsl.limits import MAX_RANGE_VALUES, MAX_VALUE, RANGE_MAX, RANGE_MIN
from interpreter.dsl.syntax import SnippetError
from interpreter.dsl.vocabulary import FUNCTIONS

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}

_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0,
}

#: nodes that never fold further
_LEAVES = frozenset({C.Param, C.CtxField, C.Local, C.Hoisted, C.Dice})

#: what an aggregate over nothing gives
EMPTY_AGGREGATE = {"count": 0, "sum": 0, "max": 0, "min": 0, "any": False, "all": True,
                   "union": frozenset()}


def error(node: Expr, code: str, message: str) -> SnippetError:
    w = node.at
    return SnippetError(code, message, w.line, w.col, w.length, w.key_path)


def range_limit_error(node: Expr, lo: int, hi: int, fixed: bool) -> SnippetError:
    what = f"the range {lo}..{hi}" if fixed else f"this range (its bounds reach {lo}..{hi})"
    n = hi - lo + 1
    why = (f"holds {n:,} numbers" if n > MAX_RANGE_VALUES else
           f"goes beyond {RANGE_MIN}..{RANGE_MAX}")
    return error(node, "dsl-limit", f"{what} {why}: a range holds at most "
                 f"{MAX_RANGE_VALUES} numbers, within {RANGE_MIN}..{RANGE_MAX}")


def check_range(node: Expr, lo: int, hi: int, fixed: bool) -> None:
    if hi < lo:
        return
    if hi - lo + 1 > MAX_RANGE_VALUES or lo < RANGE_MIN or hi > RANGE_MAX:
        raise range_limit_error(node, lo, hi, fixed)


class Folder:
    """Folds trees; `strings` numbers the strings of the hook (shared by its snippets)."""

    def __init__(self, strings: dict[str, int] | None = None):
        self.strings: dict[str, int] = {} if strings is None else strings
        self._memo: dict[int, Expr] = {}
        self._keep: list[Expr] = []       # the folded nodes, so their ids stay theirs

    def __call__(self, node: Expr) -> Expr:
        kind = type(node)
        if kind in _LEAVES or (kind is C.Const and node.type != STR):
            return node
        done = self._memo.get(id(node))
        if done is not None:
            return done
        out = self._fold(node)
        self._memo[id(node)] = out
        self._keep.append(node)
        return out

    # -- helpers ----------------------------------------------------------------------------------

    @staticmethod
    def _const(type_: str, value: Any, like: Expr) -> C.Const:
        return C.const(type_, value, like)

    def _int(self, value: int, like: Expr) -> C.Const:
        if not -MAX_VALUE <= value <= MAX_VALUE:
            raise error(like, "dsl-limit", f"this number is {value:,} once the file's constants "
                        f"are computed; a rule computes within ±{MAX_VALUE:,}")
        return self._const(INT, value, like)

    def _rebuild(self, node: Expr) -> Expr:
        kids = node.kids()
        if not kids:
            return node
        new = [self(k) for k in kids]
        if all(a is b for a, b in zip(new, kids)):
            return node
        return node.with_kids(new)

    # -- the pass ---------------------------------------------------------------------------------

    def _fold(self, node: Expr) -> Expr:
        if isinstance(node, C.Const):
            if node.type == STR:
                code = self.strings.setdefault(node.value, len(self.strings))
                return self._const(INT, code, node)
            return node
        method = _FOLDS.get(type(node))
        if method is None:
            return self._rebuild(node)
        return method(self, node)

    def _f_Arith(self, node: C.Arith) -> Expr:
        left, right = self(node.left), self(node.right)
        if isinstance(left, C.Const) and isinstance(right, C.Const):
            return self._int(_ARITH[node.op](left.value, right.value), node)
        return node if (left, right) == (node.left, node.right) else node.with_kids([left, right])

    def _f_Neg(self, node: C.Neg) -> Expr:
        v = self(node.operand)
        if isinstance(v, C.Const):
            return self._int(-v.value, node)
        return node if v is node.operand else node.with_kids([v])

    def _f_Cmp(self, node: C.Cmp) -> Expr:
        left, right = self(node.left), self(node.right)
        if isinstance(left, C.Const) and isinstance(right, C.Const):
            return self._const(BOOL, _COMPARE[node.op](left.value, right.value), node)
        if left is node.left and right is node.right:
            return node
        out = node.with_kids([left, right])
        return out

    def _f_And(self, node: C.And) -> Expr:
        left = self(node.left)
        right = self(node.right)
        if isinstance(left, C.Const):
            return right if left.value else left
        if isinstance(right, C.Const):
            # `x and true` is x; `x and false` is false (x has no effect)
            return left if right.value else right
        return node if (left, right) == (node.left, node.right) else node.with_kids([left, right])

    def _f_Or(self, node: C.Or) -> Expr:
        left = self(node.left)
        right = self(node.right)
        if isinstance(left, C.Const):
            return left if left.value else right
        if isinstance(right, C.Const):
            return right if right.value else left
        return node if (left, right) == (node.left, node.right) else node.with_kids([left, right])

    def _f_Not(self, node: C.Not) -> Expr:
        v = self(node.operand)
        if isinstance(v, C.Const):
            return self._const(BOOL, not v.value, node)
        if isinstance(v, C.Not):
            return v.operand
        return node if v is node.operand else node.with_kids([v])

    def _f_IfExp(self, node: C.IfExp) -> Expr:
        cond = self(node.cond)
        if isinstance(cond, C.Const):
            return self(node.then if cond.value else node.other)
        then, other = self(node.then), self(node.other)
        if isinstance(then, C.Const) and isinstance(other, C.Const) and then.value == other.value \
                and then.type == other.type:
            return then
        if node.type == BOOL and isinstance(then, C.Const) and isinstance(other, C.Const):
            # `if c then true else false` is c
            return cond if then.value else C.Not(cond, type=BOOL, at=node.at, site=node.site)
        out = node.with_kids([cond, then, other])
        if node.type == STR:
            out.type = INT
        return out

    def _f_Member(self, node: C.Member) -> Expr:
        item, coll = self(node.item), self(node.coll)
        if isinstance(coll, C.Const):
            if not coll.value:
                return self._const(BOOL, False, node)
            if isinstance(item, C.Const):
                return self._const(BOOL, item.value in coll.value, node)
        return node if (item, coll) == (node.item, node.coll) else node.with_kids([item, coll])

    def _f_Range(self, node: C.Range) -> Expr:
        lo, hi = self(node.lo), self(node.hi)
        if isinstance(lo, C.Const) and isinstance(hi, C.Const):
            check_range(node, lo.value, hi.value, fixed=True)
            return self._const(SET, frozenset(range(lo.value, hi.value + 1)), node)
        return node if (lo, hi) == (node.lo, node.hi) else node.with_kids([lo, hi])

    def _f_SetOf(self, node: C.SetOf) -> Expr:
        items = [self(i) for i in node.items]
        if all(isinstance(i, C.Const) for i in items):
            values = frozenset(i.value for i in items)  # type: ignore[attr-defined]
            return self._const(SET, values, node)
        return node.with_kids(items)

    def _f_Call(self, node: C.Call) -> Expr:
        out = self._rebuild(node)
        assert isinstance(out, C.Call)
        fold = FUNCTIONS[out.fn].fold
        if fold is not None:
            value = fold(out)
            if value is not None:
                value.at, value.site = node.at, node.site
                if isinstance(value, C.Const) and value.type == INT:
                    return self._int(value.value, node)
                return value
        return out

    def _f_Agg(self, node: C.Agg) -> Expr:
        coll = self(node.coll)
        if isinstance(coll, C.Const) and not coll.value:
            value = EMPTY_AGGREGATE[node.kind]
            type_ = {bool: BOOL, int: INT}.get(type(value), SET)
            return self._const(type_, value, node)
        return self._rebuild(node)


_FOLDS: dict[type, Callable[[Folder, Any], Expr]] = {
    getattr(C, name[3:]): fn for name, fn in vars(Folder).items() if name.startswith("_f_")}


def fold(node: Expr, strings: dict[str, int] | None = None) -> Expr:
    return Folder(strings)(node)
