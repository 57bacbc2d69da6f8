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



class Where:
    """A position in a snippet: the key path of the snippet and a line, column and length."""

    __slots__ = ("key_path", "line", "col", "length")

    def __init__(self, key_path: tuple[str, ...] = (), line: int = 1, col: int = 1,
                 length: int = 1) -> None:
        self.key_path = key_path
        self.line = line
        self.col = col
        self.length = length

    def __repr__(self) -> str:
        return f"Where({self.key_path!r}, {self.line}, {self.col}, {self.length})"


NOWHERE = Where()


class Expr:
    """A node: its type, where it was written (`at`), where that is in the rule's own snippet
    (`site`), what the bounds pass found of it (`info`), its size once measured."""

    __slots__ = ("type", "at", "site", "info", "_size", "_aggregate")
    type: str
    at: Where
    site: Where
    info: Any
    _size: int | None
    _aggregate: bool

    def kids(self) -> tuple[Expr, ...]:
        return ()

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self).__slots__)
        return f"{type(self).__name__}({fields}, type={self.type!r})"

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
        size, aggregate = 1, type(self) is Agg
        for k in self.kids():
            if k._size is None:
                break
            size += k._size
            aggregate = aggregate or k._aggregate
        else:
            self._size, self._aggregate = size, aggregate
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
        node._measure()         # its parts are measured already, mostly: a few additions
        return node


class Const(Expr):
    """A value known when the file is loaded: int, bool, str (an option or a literal) or a
    frozenset of ints."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.value = value
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class Param(Expr):
    """A parameter of the hook: b, a, x, d1, d2, rolls."""

    __slots__ = ("name",)

    def __init__(self, name: str = "b", *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.name = name
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class CtxField(Expr):
    """`ctx.plays`, `ctx.unplayed`, `ctx.setup` of the roll context."""

    __slots__ = ("name",)

    def __init__(self, name: str = "plays", *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.name = name
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class Local(Expr):
    """The variable an aggregate binds; `id` is the compiler's number for it."""

    __slots__ = ("id",)

    def __init__(self, id: int = 0, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.id = id
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class Hoisted(Expr):
    """A part computed once per roll (the `index`-th one of its hook)."""

    __slots__ = ("index",)

    def __init__(self, index: int = 0, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.index = index
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class Cached(Expr):
    """A part of an aggregate's body that reads none of the aggregate variables around it:
    computed the first time the hook needs it, then kept for the rest of the call (`_c<index>`,
    an index unique within the compiler)."""

    __slots__ = ("index", "part")

    def __init__(self, index: int, part: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.index = index
        self.part = part
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.part,)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Cached(self.index, kids[0]))


class Item(Expr):
    """`base[index]`: a field of a step (from, to, die, hit) or of a play (position, paths)."""

    __slots__ = ("base", "index",)

    def __init__(self, base: Expr, index: int, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.base = base
        self.index = index
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.base,)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Item(kids[0], self.index))  # type: ignore[arg-type]


class Flag(Expr):
    """`base[4] & bit != 0`: a flag of a step."""

    __slots__ = ("base", "bit",)

    def __init__(self, base: Expr, bit: int, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.base = base
        self.bit = bit
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.base,)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Flag(kids[0], self.bit))  # type: ignore[arg-type]


class Arith(Expr):
    """`left op right`, op one of + - * // %."""

    __slots__ = ("op", "left", "right",)

    def __init__(self, op: str, left: Expr, right: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Arith(self.op, kids[0], kids[1]))  # type: ignore[arg-type]


class Neg(Expr):
    __slots__ = ("operand",)

    def __init__(self, operand: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.operand = operand
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.operand,)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Neg(kids[0]))  # type: ignore[arg-type]


class Cmp(Expr):
    """A comparison of two numbers or two conditions; of two strings while `op` is == or !=
    (string comparisons are decided by the folding pass)."""

    __slots__ = ("op", "left", "right",)

    def __init__(self, op: str, left: Expr, right: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Cmp(self.op, kids[0], kids[1]))  # type: ignore[arg-type]


class And(Expr):
    __slots__ = ("left", "right",)

    def __init__(self, left: Expr, right: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.left = left
        self.right = right
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(And(kids[0], kids[1]))  # type: ignore[arg-type]


class Or(Expr):
    __slots__ = ("left", "right",)

    def __init__(self, left: Expr, right: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.left = left
        self.right = right
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Or(kids[0], kids[1]))  # type: ignore[arg-type]


class Not(Expr):
    __slots__ = ("operand",)

    def __init__(self, operand: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.operand = operand
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.operand,)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Not(kids[0]))  # type: ignore[arg-type]


class IfExp(Expr):
    __slots__ = ("cond", "then", "other",)

    def __init__(self, cond: Expr, then: Expr, other: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.cond = cond
        self.then = then
        self.other = other
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.cond, self.then, self.other)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(IfExp(kids[0], kids[1], kids[2]))  # type: ignore[arg-type]


class Member(Expr):
    __slots__ = ("item", "coll",)

    def __init__(self, item: Expr, coll: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.item = item
        self.coll = coll
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.item, self.coll)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Member(kids[0], kids[1]))  # type: ignore[arg-type]


class Range(Expr):
    """`lo..hi`, a set of numbers."""

    __slots__ = ("lo", "hi",)

    def __init__(self, lo: Expr, hi: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.lo = lo
        self.hi = hi
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.lo, self.hi)

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Range(kids[0], kids[1]))  # type: ignore[arg-type]


class SetOf(Expr):
    """`{a, b, ...}`"""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Expr, ...] = (), *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.items = items
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return self.items

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(SetOf(tuple(kids)))  # type: ignore[arg-type]


class Dice(Expr):
    """The roll's numbers: `dice` (both, as thrown) or `numbers` (`distinct`: one of a doublet)."""

    __slots__ = ("distinct",)

    def __init__(self, distinct: bool = False, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.distinct = distinct
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False


class Call(Expr):
    """A function of the vocabulary (`vocabulary.FUNCTIONS`); a position function's first
    argument is the position it reads."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: str = "", args: tuple[Expr, ...] = (), *, type: str = INT,
                 at: Where = NOWHERE, site: Where = NOWHERE, info: Any = None) -> None:
        self.fn = fn
        self.args = args
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return self.args

    def with_kids(self, kids: list[Expr]) -> Expr:
        return self._copy(Call(self.fn, tuple(kids)))


class Agg(Expr):
    """`kind(binder in coll where cond: body)`: count, sum, any, all, max, min, union."""

    __slots__ = ("kind", "binder", "coll", "where", "body",)

    def __init__(self, kind: str, binder: Local, coll: Expr, where: Expr | None,
                 body: Expr | None, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.kind = kind
        self.binder = binder
        self.coll = coll
        self.where = where
        self.body = body
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return tuple(k for k in (self.binder, self.coll, self.where, self.body)
                     if k is not None)

    def with_kids(self, kids: list[Expr]) -> Expr:
        it = iter(kids)
        binder, coll = next(it), next(it)
        where = next(it) if self.where is not None else None
        body = next(it) if self.body is not None else None
        return self._copy(Agg(self.kind, binder, coll, where, body))  # type: ignore[arg-type]


class Intersects(Expr):
    """`not R.isdisjoint(coll)`, R a fixed set: `any(p in coll: p in R)` in one set operation."""

    __slots__ = ("region", "coll",)

    def __init__(self, region: Const, coll: Expr, *, type: str = INT, at: Where = NOWHERE,
                 site: Where = NOWHERE, info: Any = None) -> None:
        self.region = region
        self.coll = coll
        self.type, self.at, self.site, self.info = type, at, site, info
        self._size = None
        self._aggregate = False

    def kids(self) -> tuple[Expr, ...]:
        return (self.region, self.coll)

    def with_kids(self, kids: list[Expr]) -> Expr:
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

