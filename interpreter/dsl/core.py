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
from operator import attrgetter
from typing import Any, Callable, ClassVar, Iterator, TypeVar, dataclass_transform

INT, BOOL, STR, SET, STATE, PLAY, PATH, STEP = (
    "int", "bool", "str", "set", "state", "play", "path", "step")
LIST_INT, LIST_PLAY, LIST_PATH = "list[int]", "list[play]", "list[path]"
#: the type of an element of each collection type
ELEMENT = {SET: INT, LIST_INT: INT, LIST_PLAY: PLAY, LIST_PATH: PATH, PATH: STEP}
#: every type a snippet can have (a definition may give any of them)
ANY_TYPE = (INT, BOOL, STR, SET, STATE, PLAY, PATH, STEP, LIST_INT, LIST_PLAY, LIST_PATH)
TYPE_WORDS = {INT: "a number", BOOL: "a condition", STR: "a string", SET: "a set of points",
              STATE: "a position", PLAY: "a play", PATH: "a path (steps of a play)",
              STEP: "a step", LIST_INT: "a list of numbers", LIST_PLAY: "a list of plays",
              LIST_PATH: "a list of paths"}

#: the hook contexts; each rule kind is compiled in one of them (MOVE: a forbid rule asked of
#: each single move, `on = "move"`)
ROLL, FORBID, CHOICE, END, MOVE = "roll", "forbid", "choice", "end", "move"
CONTEXT_WORDS = {ROLL: "a roll's scoring rule", FORBID: "a forbid rule",
                 CHOICE: "a prefer rule or a per-play score", END: "an end or value rule",
                 MOVE: "a forbid rule on each move"}



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


@dataclass(slots=True, eq=False, repr=False)
class Expr:
    """A node: its type, where it was written (`at`), where that is in the rule's own snippet
    (`site`), what the bounds pass found of it (`info`), its size once measured.

    Each node class is a dataclass made by `node(...)`, its fields in the order its constructor
    takes them, naming the fields that hold parts of the tree."""

    type: str = field(default=INT, kw_only=True)
    at: Where = field(default=NOWHERE, kw_only=True)
    site: Where = field(default=NOWHERE, kw_only=True)
    info: Any = field(default=None, kw_only=True)
    _size: int | None = field(default=None, init=False)
    _aggregate: bool = field(default=False, init=False)
    _kids: ClassVar[tuple[str, ...]] = ()

    def kids(self) -> tuple[Expr, ...]:
        """The parts of the tree under this node, in the order `with_kids` takes them."""
        out: list[Expr] = []
        for name in self._kids:
            part = getattr(self, name)
            if isinstance(part, tuple):
                out.extend(part)
            elif part is not None:
                out.append(part)
        return tuple(out)

    def with_kids(self, kids: list[Expr]) -> Expr:
        """The same node over new parts, given in the order `kids()` gives them (a tuple field
        takes all the parts left)."""
        if not self._kids:
            return self
        it = iter(kids)
        values = []
        for name in self.__slots__:
            part = getattr(self, name)
            if name in self._kids and part is not None:
                part = tuple(it) if isinstance(part, tuple) else next(it)
            values.append(part)
        return self._copy(type(self)(*values))

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



_Node = TypeVar("_Node", bound=type)


@dataclass_transform(eq_default=False, field_specifiers=(field,))
def node(*kids: str, loose: bool = False) -> Callable[[_Node], _Node]:
    """Make a node class: a dataclass whose fields `kids` hold its parts. Unless `loose` (a part
    may be None, or a tuple of nodes), each of them is one node, and `kids()` and `with_kids()`
    are made for the class: trees are walked and rebuilt often while a file loads."""

    def make(cls: Any) -> Any:
        cls = dataclass(slots=True, eq=False, repr=False)(cls)
        cls._kids = kids
        if not kids:
            cls.kids = lambda self: ()
            cls.with_kids = lambda self, parts: self
        elif not loose:
            get = attrgetter(*kids)
            fields = cls.__slots__
            places = tuple(fields.index(k) for k in kids)
            if len(kids) == 1:
                cls.kids = lambda self: (get(self),)
            else:
                cls.kids = lambda self: get(self)

            lead = fields[: len(fields) - len(kids)]
            if fields[len(lead):] != kids:
                def with_kids(self: Expr, parts: list[Expr]) -> Expr:
                    values = [getattr(self, f) for f in fields]
                    for i, part in zip(places, parts):
                        values[i] = part
                    return self._copy(cls(*values))
            elif not lead:      # every field a part
                def with_kids(self: Expr, parts: list[Expr]) -> Expr:
                    return self._copy(cls(*parts))
            elif len(lead) == 1:  # one other field first (an operator, an index), then the parts
                first = attrgetter(lead[0])

                def with_kids(self: Expr, parts: list[Expr]) -> Expr:
                    return self._copy(cls(first(self), *parts))
            else:
                def with_kids(self: Expr, parts: list[Expr]) -> Expr:
                    return self._copy(cls(*[getattr(self, f) for f in lead], *parts))

            cls.with_kids = with_kids
        return cls

    return make


@node()
class Const(Expr):
    """A value known when the file is loaded: int, bool, str (an option or a literal) or a
    frozenset of ints."""

    value: Any = None


@node()
class Param(Expr):
    """A parameter of the hook: b, a, x, d1, d2, rolls."""

    name: str = "b"


@node()
class CtxField(Expr):
    """`ctx.plays`, `ctx.unplayed`, `ctx.setup` of the roll context."""

    name: str = "plays"


@node()
class Local(Expr):
    """The variable an aggregate binds; `id` is the compiler's number for it."""

    id: int = 0


@node()
class Hoisted(Expr):
    """A part computed once per roll (the `index`-th one of its hook)."""

    index: int = 0


@node("part")
class Cached(Expr):
    """A part of an aggregate's body that reads none of the aggregate variables around it:
    computed the first time the hook needs it, then kept for the rest of the call (`_c<index>`,
    an index unique within the compiler)."""

    index: int
    part: Expr


@node("base")
class Item(Expr):
    """`base[index]`: a field of a step (from, to, die, hit) or of a play (position, paths)."""

    base: Expr
    index: int


@node("base")
class Flag(Expr):
    """`base[4] & bit != 0`: a flag of a step."""

    base: Expr
    bit: int


@node("left", "right")
class Arith(Expr):
    """`left op right`, op one of + - * // %."""

    op: str
    left: Expr
    right: Expr


@node("operand")
class Neg(Expr):
    operand: Expr


@node("left", "right")
class Cmp(Expr):
    """A comparison of two numbers or two conditions; of two strings while `op` is == or !=
    (string comparisons are decided by the folding pass)."""

    op: str
    left: Expr
    right: Expr


@node("left", "right")
class And(Expr):
    left: Expr
    right: Expr


@node("left", "right")
class Or(Expr):
    left: Expr
    right: Expr


@node("operand")
class Not(Expr):
    operand: Expr


@node("cond", "then", "other")
class IfExp(Expr):
    cond: Expr
    then: Expr
    other: Expr


@node("item", "coll")
class Member(Expr):
    item: Expr
    coll: Expr


@node("lo", "hi")
class Range(Expr):
    """`lo..hi`, a set of numbers."""

    lo: Expr
    hi: Expr


@node("items", loose=True)
class SetOf(Expr):
    """`{a, b, ...}`"""

    items: tuple[Expr, ...] = ()


@node()
class Dice(Expr):
    """The roll's numbers: `dice` (both, as thrown) or `numbers` (`distinct`: one of a doublet)."""

    distinct: bool = False


@node("args", loose=True)
class Call(Expr):
    """A function of the vocabulary (`vocabulary.FUNCTIONS`); a position function's first
    argument is the position it reads."""

    fn: str = ""
    args: tuple[Expr, ...] = ()


@node("binder", "coll", "where", "body", loose=True)
class Agg(Expr):
    """`kind(binder in coll where cond: body)`: count, sum, any, all, max, min, union."""

    kind: str
    binder: Local
    coll: Expr
    where: Expr | None
    body: Expr | None


@node("region", "coll")
class Intersects(Expr):
    """`not R.isdisjoint(coll)`, R a fixed set: `any(p in coll: p in R)` in one set operation."""

    region: Const
    coll: Expr


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

