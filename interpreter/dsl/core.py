"""The compiler's own tree: typed, names resolved, definitions expanded.

The checker (`check.py`) builds it from the syntax tree; folding, bounds, costing, unrolling and
hoisting are functions from these trees to new ones; `emit.py` turns the last one into Python
`ast` nodes. Nothing here holds text of the file except option values and string literals
(`Const` of type STR), which the folding pass decides and removes before anything is emitted.

Each node knows its type, where it was written (`at`, the snippet or definition that holds it,
for errors) and where that is in the rule's own snippet (`site`: a node expanded from a
definition reports there as the call of the definition), and its expanded size.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

INT, BOOL, STR, SET, STATE, PLAY, PATH, STEP = "int", "bool", "str", "set", "state", "play", "path", "step"
LIST_INT, LIST_PLAY, LIST_PATH = "list[int]", "list[play]", "list[path]"
#: the type of an element of each collection type
ELEMENT = {SET: INT, LIST_INT: INT, LIST_PLAY: PLAY, LIST_PATH: PATH, PATH: STEP}
#: every type a snippet can have (a definition may give any of them)
ANY_TYPE = (INT, BOOL, STR, SET, STATE, PLAY, PATH, STEP, LIST_INT, LIST_PLAY, LIST_PATH)
TYPE_WORDS = {INT: "a number", BOOL: "a condition", STR: "a string", SET: "a set of points",
              STATE: "a position", PLAY: "a play", PATH: "a path (steps of a play)",
              STEP: "a step", LIST_INT: "a list of numbers", LIST_PLAY: "a list of plays",
              LIST_PATH: "a list of paths"}

#: the hook contexts; each rule kind is compiled in one of them
ROLL, FORBID, CHOICE, END = "roll", "forbid", "choice", "end"
CONTEXT_WORDS = {ROLL: "a roll's scoring rule", FORBID: "a forbid rule",
                 CHOICE: "a prefer rule or a per-play score", END: "an end or value rule"}

#: the hook's parameters: hook(b, a, x, d1, d2, rolls, ctx)
PARAM_TYPES = {"b": STATE, "a": STATE, "x": None, "d1": INT, "d2": INT, "rolls": INT}


@dataclass(frozen=True, slots=True)
class Where:
    key_path: tuple[str, ...] = ()
    line: int = 1
    col: int = 1
    length: int = 1


NOWHERE = Where()


@dataclass(eq=False)
class Expr:
    type: str = field(kw_only=True, default=INT)
    at: Where = field(kw_only=True, default=NOWHERE)
    site: Where = field(kw_only=True, default=NOWHERE)
    #: what the bounds pass found (bounds.Info), for the passes after it
    info: Any = field(kw_only=True, default=None, repr=False)
    _size: int | None = field(kw_only=True, default=None, repr=False)
    _aggregate: bool = field(kw_only=True, default=False, repr=False)

    def kids(self) -> tuple[Expr, ...]:
        return ()

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self

    @property
    def size(self) -> int:
        """Parts of the tree written out (a shared subtree counted at each of its places)."""
        if self._size is None:
            self._measure()
        return self._size  # type: ignore[return-value]

    @property
    def has_aggregate(self) -> bool:
        if self._size is None:
            self._measure()
        return self._aggregate

    def _measure(self) -> None:
        kids = self.kids()
        if all(k._size is not None for k in kids):
            self._size = 1 + sum(k._size for k in kids)  # type: ignore[misc]
            self._aggregate = type(self) is Agg or any(k._aggregate for k in kids)
            return
        # children first, without recursion: a tree built by a pass may be deep
        stack = [self]
        while stack:
            n = stack[-1]
            pending = [k for k in n.kids() if k._size is None]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            if n._size is None:
                kids = n.kids()
                n._size = 1 + sum(k._size for k in kids)  # type: ignore[misc]
                n._aggregate = type(n) is Agg or any(k._aggregate for k in kids)

    def _copy(self, node: Expr) -> Expr:
        node.type, node.at, node.site = self.type, self.at, self.site
        return node


@dataclass(eq=False)
class Const(Expr):
    """A value known when the file is loaded: int, bool, str (an option or a literal) or a
    frozenset of ints."""
    value: Any = None


@dataclass(eq=False)
class Param(Expr):
    """A parameter of the hook: b, a, x, d1, d2, rolls."""
    name: str = "b"


@dataclass(eq=False)
class CtxField(Expr):
    """`ctx.plays`, `ctx.unplayed`, `ctx.setup` of the roll context."""
    name: str = "plays"


@dataclass(eq=False)
class Local(Expr):
    """The variable an aggregate binds; `id` is the compiler's number for it."""
    id: int = 0


@dataclass(eq=False)
class Hoisted(Expr):
    """A part computed once per roll (the `index`-th one of its hook)."""
    index: int = 0


@dataclass(eq=False)
class Item(Expr):
    """`base[index]`: a field of a step (from, to, die, hit) or of a play (position, paths)."""
    base: Expr = None  # type: ignore[assignment]
    index: int = 0

    def kids(self):
        return (self.base,)

    def with_kids(self, kids):
        return self._copy(Item(kids[0], self.index))


@dataclass(eq=False)
class Flag(Expr):
    """`base[4] & bit != 0`: a flag of a step."""
    base: Expr = None  # type: ignore[assignment]
    bit: int = 1

    def kids(self):
        return (self.base,)

    def with_kids(self, kids):
        return self._copy(Flag(kids[0], self.bit))


@dataclass(eq=False)
class Arith(Expr):
    op: str = "+"           # + - * // %
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.left, self.right)

    def with_kids(self, kids):
        return self._copy(Arith(self.op, kids[0], kids[1]))


@dataclass(eq=False)
class Neg(Expr):
    operand: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.operand,)

    def with_kids(self, kids):
        return self._copy(Neg(kids[0]))


@dataclass(eq=False)
class Cmp(Expr):
    """A comparison of two numbers or two conditions; of two strings while `op` is == or !=
    (string comparisons are decided by the folding pass)."""
    op: str = "=="
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.left, self.right)

    def with_kids(self, kids):
        return self._copy(Cmp(self.op, kids[0], kids[1]))


@dataclass(eq=False)
class And(Expr):
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.left, self.right)

    def with_kids(self, kids):
        return self._copy(And(kids[0], kids[1]))


@dataclass(eq=False)
class Or(Expr):
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.left, self.right)

    def with_kids(self, kids):
        return self._copy(Or(kids[0], kids[1]))


@dataclass(eq=False)
class Not(Expr):
    operand: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.operand,)

    def with_kids(self, kids):
        return self._copy(Not(kids[0]))


@dataclass(eq=False)
class IfExp(Expr):
    cond: Expr = None  # type: ignore[assignment]
    then: Expr = None  # type: ignore[assignment]
    other: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.cond, self.then, self.other)

    def with_kids(self, kids):
        return self._copy(IfExp(kids[0], kids[1], kids[2]))


@dataclass(eq=False)
class Member(Expr):
    item: Expr = None  # type: ignore[assignment]
    coll: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.item, self.coll)

    def with_kids(self, kids):
        return self._copy(Member(kids[0], kids[1]))


@dataclass(eq=False)
class Range(Expr):
    """`lo..hi`, a set of numbers."""
    lo: Expr = None  # type: ignore[assignment]
    hi: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.lo, self.hi)

    def with_kids(self, kids):
        return self._copy(Range(kids[0], kids[1]))


@dataclass(eq=False)
class SetOf(Expr):
    """`{a, b, ...}`"""
    items: tuple[Expr, ...] = ()

    def kids(self):
        return self.items

    def with_kids(self, kids):
        return self._copy(SetOf(tuple(kids)))


@dataclass(eq=False)
class Dice(Expr):
    """The roll's numbers: `dice` (both, as thrown) or `numbers` (`distinct`: one of a doublet)."""
    distinct: bool = False


@dataclass(eq=False)
class Call(Expr):
    """A function of the vocabulary (`vocabulary.FUNCTIONS`); a position function's first
    argument is the position it reads."""
    fn: str = ""
    args: tuple[Expr, ...] = ()

    def kids(self):
        return self.args

    def with_kids(self, kids):
        return self._copy(Call(self.fn, tuple(kids)))


@dataclass(eq=False)
class Agg(Expr):
    """`kind(binder in coll where cond: body)`: count, sum, any, all, max, min, union."""
    kind: str = "count"
    binder: Local = None  # type: ignore[assignment]
    coll: Expr = None  # type: ignore[assignment]
    where: Expr | None = None
    body: Expr | None = None

    def kids(self):
        return tuple(k for k in (self.binder, self.coll, self.where, self.body) if k is not None)

    def with_kids(self, kids):
        it = iter(kids)
        binder, coll = next(it), next(it)
        where = next(it) if self.where is not None else None
        body = next(it) if self.body is not None else None
        return self._copy(Agg(self.kind, binder, coll, where, body))  # type: ignore[arg-type]


@dataclass(eq=False)
class Intersects(Expr):
    """`not R.isdisjoint(coll)`, R a fixed set: `any(p in coll: p in R)` in one set operation."""
    region: Const = None  # type: ignore[assignment]
    coll: Expr = None  # type: ignore[assignment]

    def kids(self):
        return (self.region, self.coll)

    def with_kids(self, kids):
        return self._copy(Intersects(kids[0], kids[1]))  # type: ignore[arg-type]


def walk(node: Expr) -> Iterator[Expr]:
    """Every node of a tree (a shared subtree once), without recursion."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        stack.extend(n.kids())


def const(type_: str, value: Any, like: Expr | None = None) -> Const:
    node = Const(value, type=type_)
    if like is not None:
        node.at, node.site = like.at, like.site
    return node


def is_const(node: Expr) -> bool:
    return isinstance(node, Const)
