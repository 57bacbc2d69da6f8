"""The syntax tree of a snippet: what the parser gives, before any name is resolved.

Each node records where it stands in its snippet (1-based line and column, and a length for
the caret), so that every later problem can be shown under the text that caused it.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Pos:
    line: int = 1
    col: int = 1
    length: int = 1


@dataclass(eq=False)
class SnippetError(Exception):
    """A problem inside one snippet, at a 1-based line and column of the snippet's text.

    `key_path` names the TOML key holding the snippet (filled in by the caller that knows it).
    """

    code: str
    message: str
    line: int = 1
    col: int = 1
    length: int = 1
    key_path: tuple[str, ...] = ()

    def at(self, key_path: tuple[str, ...]) -> SnippetError:
        return SnippetError(self.code, self.message, self.line, self.col, self.length, key_path)

    def __str__(self) -> str:
        where = ".".join(self.key_path) or "snippet"
        return f"{where}:{self.line}:{self.col}: {self.message}"


@dataclass(eq=False)
class Syntax:
    pos: Pos = field(kw_only=True, default=Pos())

    def error(self, code: str, message: str) -> SnippetError:
        return SnippetError(code, message, self.pos.line, self.pos.col, self.pos.length)


@dataclass(eq=False)
class Num(Syntax):
    value: int


@dataclass(eq=False)
class Bool(Syntax):
    value: bool


@dataclass(eq=False)
class Str(Syntax):
    value: str


@dataclass(eq=False)
class Name(Syntax):
    id: str


@dataclass(eq=False)
class Call(Syntax):
    """`f(args)`; `pos` is the function's name."""
    name: str
    args: list[Syntax]


@dataclass(eq=False)
class Method(Syntax):
    """`recv.f(args)`"""
    recv: Syntax
    name: str
    args: list[Syntax]


@dataclass(eq=False)
class Attr(Syntax):
    """`recv.name`"""
    recv: Syntax
    name: str


@dataclass(eq=False)
class Aggregate(Syntax):
    """`agg(var in coll where cond: body)`"""
    agg: str
    var: str
    coll: Syntax
    where: Syntax | None
    body: Syntax | None


@dataclass(eq=False)
class SetLit(Syntax):
    items: list[Syntax]


@dataclass(eq=False)
class Range(Syntax):
    lo: Syntax
    hi: Syntax


@dataclass(eq=False)
class BinOp(Syntax):
    op: str
    left: Syntax
    right: Syntax


@dataclass(eq=False)
class Compare(Syntax):
    op: str
    left: Syntax
    right: Syntax


@dataclass(eq=False)
class And(Syntax):
    left: Syntax
    right: Syntax


@dataclass(eq=False)
class Or(Syntax):
    left: Syntax
    right: Syntax


@dataclass(eq=False)
class Not(Syntax):
    operand: Syntax


@dataclass(eq=False)
class Neg(Syntax):
    operand: Syntax


@dataclass(eq=False)
class Member(Syntax):
    item: Syntax
    coll: Syntax


@dataclass(eq=False)
class If(Syntax):
    cond: Syntax
    then: Syntax
    other: Syntax


@dataclass(eq=False)
class Region(Syntax):
    """A `[regions]` value: pips and ranges separated by commas."""
    parts: list[Syntax]


@dataclass(eq=False)
class DefineHead(Syntax):
    """A `[define]` key: a name and its parameters."""
    name: str
    params: list[str]
