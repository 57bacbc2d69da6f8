"""The syntax tree of a snippet: what the parser gives, before any name is resolved.

Each node records where it stands in its snippet (1-based line and column, and a length for
the caret), so that every later problem can be shown under the text that caused it. Nodes are
plain classes with slots (they are made by the thousand, and a short command imports this
module), never changed once made.
"""
from __future__ import annotations


class Pos:
    __slots__ = ("line", "col", "length")

    def __init__(self, line: int = 1, col: int = 1, length: int = 1) -> None:
        self.line = line
        self.col = col
        self.length = length

    def __repr__(self) -> str:
        return f"Pos({self.line}, {self.col}, {self.length})"


_START = Pos()


class SnippetError(Exception):
    """A problem inside one snippet, at a 1-based line and column of the snippet's text.

    `key_path` names the TOML key holding the snippet (filled in by the caller that knows it).
    """

    def __init__(self, code: str, message: str, line: int = 1, col: int = 1, length: int = 1,
                 key_path: tuple[str, ...] = ()) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col
        self.length = length
        self.key_path = tuple(key_path)

    def at(self, key_path: tuple[str, ...]) -> SnippetError:
        return SnippetError(self.code, self.message, self.line, self.col, self.length, key_path)

    def __str__(self) -> str:
        where = ".".join(self.key_path) or "snippet"
        return f"{where}:{self.line}:{self.col}: {self.message}"

    def __repr__(self) -> str:
        return (f"SnippetError({self.code!r}, {self.message!r}, {self.line}, {self.col}, "
                f"{self.length}, {self.key_path!r})")


class Syntax:
    __slots__ = ("pos",)
    pos: Pos

    def error(self, code: str, message: str) -> SnippetError:
        return SnippetError(code, message, self.pos.line, self.pos.col, self.pos.length)

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self).__slots__)
        return f"{type(self).__name__}({fields})"


class Num(Syntax):
    __slots__ = ("value",)

    def __init__(self, value: int, *, pos: Pos = _START) -> None:
        self.value = value
        self.pos = pos


class Bool(Syntax):
    __slots__ = ("value",)

    def __init__(self, value: bool, *, pos: Pos = _START) -> None:
        self.value = value
        self.pos = pos


class Str(Syntax):
    __slots__ = ("value",)

    def __init__(self, value: str, *, pos: Pos = _START) -> None:
        self.value = value
        self.pos = pos


class Name(Syntax):
    __slots__ = ("id",)

    def __init__(self, id: str, *, pos: Pos = _START) -> None:
        self.id = id
        self.pos = pos


class Call(Syntax):
    """`f(args)`; `pos` is the function's name."""

    __slots__ = ("name", "args",)

    def __init__(self, name: str, args: list[Syntax], *, pos: Pos = _START) -> None:
        self.name = name
        self.args = args
        self.pos = pos


class Method(Syntax):
    """`recv.f(args)`"""

    __slots__ = ("recv", "name", "args",)

    def __init__(self, recv: Syntax, name: str, args: list[Syntax], *, pos: Pos = _START) -> None:
        self.recv = recv
        self.name = name
        self.args = args
        self.pos = pos


class Attr(Syntax):
    """`recv.name`"""

    __slots__ = ("recv", "name",)

    def __init__(self, recv: Syntax, name: str, *, pos: Pos = _START) -> None:
        self.recv = recv
        self.name = name
        self.pos = pos


class Aggregate(Syntax):
    """`agg(var in coll where cond: body)`"""

    __slots__ = ("agg", "var", "coll", "where", "body",)

    def __init__(self, agg: str, var: str, coll: Syntax, where: Syntax | None,
                 body: Syntax | None, *, pos: Pos = _START) -> None:
        self.agg = agg
        self.var = var
        self.coll = coll
        self.where = where
        self.body = body
        self.pos = pos


class SetLit(Syntax):
    __slots__ = ("items",)

    def __init__(self, items: list[Syntax], *, pos: Pos = _START) -> None:
        self.items = items
        self.pos = pos


class Range(Syntax):
    __slots__ = ("lo", "hi",)

    def __init__(self, lo: Syntax, hi: Syntax, *, pos: Pos = _START) -> None:
        self.lo = lo
        self.hi = hi
        self.pos = pos


class BinOp(Syntax):
    __slots__ = ("op", "left", "right",)

    def __init__(self, op: str, left: Syntax, right: Syntax, *, pos: Pos = _START) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.pos = pos


class Compare(Syntax):
    __slots__ = ("op", "left", "right",)

    def __init__(self, op: str, left: Syntax, right: Syntax, *, pos: Pos = _START) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.pos = pos


class And(Syntax):
    __slots__ = ("left", "right",)

    def __init__(self, left: Syntax, right: Syntax, *, pos: Pos = _START) -> None:
        self.left = left
        self.right = right
        self.pos = pos


class Or(Syntax):
    __slots__ = ("left", "right",)

    def __init__(self, left: Syntax, right: Syntax, *, pos: Pos = _START) -> None:
        self.left = left
        self.right = right
        self.pos = pos


class Not(Syntax):
    __slots__ = ("operand",)

    def __init__(self, operand: Syntax, *, pos: Pos = _START) -> None:
        self.operand = operand
        self.pos = pos


class Neg(Syntax):
    __slots__ = ("operand",)

    def __init__(self, operand: Syntax, *, pos: Pos = _START) -> None:
        self.operand = operand
        self.pos = pos


class Member(Syntax):
    __slots__ = ("item", "coll",)

    def __init__(self, item: Syntax, coll: Syntax, *, pos: Pos = _START) -> None:
        self.item = item
        self.coll = coll
        self.pos = pos


class If(Syntax):
    __slots__ = ("cond", "then", "other",)

    def __init__(self, cond: Syntax, then: Syntax, other: Syntax, *, pos: Pos = _START) -> None:
        self.cond = cond
        self.then = then
        self.other = other
        self.pos = pos


class Region(Syntax):
    """A `[regions]` value: pips and ranges separated by commas."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Syntax], *, pos: Pos = _START) -> None:
        self.parts = parts
        self.pos = pos


class DefineHead(Syntax):
    """A `[define]` key: a name and its parameters."""

    __slots__ = ("name", "params",)

    def __init__(self, name: str, params: list[str], *, pos: Pos = _START) -> None:
        self.name = name
        self.params = params
        self.pos = pos
