"""The syntax trees of simple one-line snippets, read without the LALR parser.

lark's parser (larkparser.py) costs a few hundred microseconds a snippet: a file of tens of
thousands of definitions would take seconds for that alone. Most snippets are arithmetic and
comparisons of numbers, names and calls (`mine(6) + 2 > theirs(off)`): `quick_parse` reads
those by recursive descent into the very trees, positions included, that larkparser gives
(tests/test_dsl_compiler.py compares the two on random snippets). Anything else (an aggregate,
a range, a set, a string, a method, `if`, `in`, a comment, several lines, a fault) gives None,
and the snippet goes to lark, which also words every syntax error.
"""
from __future__ import annotations

import re

from interpreter.dsl import syntax as S
from interpreter.dsl.limits import MAX_DEPTH, MAX_LITERAL

_TOKEN = re.compile(r"[ \t]*(?:([0-9]+)|([a-z_][a-z0-9_]*)|(==|!=|<=|>=|//|[<>+\-*%(),]))")
_ALLOWED = re.compile(r"[a-z0-9_ \t()+\-*/%<>=!,]*")
#: words that make a snippet one the quick reader leaves to the parser
_OTHER_WORDS = frozenset({"if", "then", "else", "in", "count", "sum", "any", "all", "max", "min",
                          "union", "where"})
_COMPARE = frozenset({"==", "!=", "<=", ">=", "<", ">"})


class _Unsure(Exception):
    """Not a snippet this reader reads: the parser's to read."""


def quick_parse(text: str) -> S.Syntax | None:
    """The tree of an expression snippet (start `expr_start`), or None (see the module)."""
    if len(text) > 400 or not _ALLOWED.fullmatch(text):
        return None
    tokens: list[tuple[str, str, int, int]] = []     # (kind, text, first col, last col + 1)
    at = 0
    n = len(text)
    while at < n:
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            if text[at:].strip(" \t") == "":
                break
            return None
        if m.group(1) is not None:
            kind, tok, start = "int", m.group(1), m.start(1)
        elif m.group(2) is not None:
            tok, start = m.group(2), m.start(2)
            if tok in _OTHER_WORDS:
                return None
            kind = tok if tok in ("and", "or", "not", "true", "false") else "name"
        else:
            kind, tok, start = m.group(3), m.group(3), m.start(3)
        tokens.append((kind, tok, start + 1, start + 1 + len(tok)))
        at = m.end()
    if not tokens:
        return None
    try:
        reader = _Reader(tokens)
        node, _s, _e = reader.expr(0)
        if reader.i != len(tokens) or _depth(node) > _MAX_NESTING:
            return None     # the parser measures the nesting and refuses what is too deep
        return node
    except (_Unsure, IndexError, RecursionError):
        return None


#: trees nested deeper than this go to the parser, which measures them against MAX_DEPTH
_MAX_NESTING = MAX_DEPTH - 10


def _depth(node: S.Syntax) -> int:
    """How deep a tree of this reader nests (without recursing)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, list):
            stack.extend((x, depth) for x in item)
        elif isinstance(item, S.Syntax):
            deepest = max(deepest, depth)
            stack.extend((getattr(item, k), depth + 1) for k in type(item).__slots__)
    return deepest


def _pos(start: int, end: int) -> S.Pos:
    return S.Pos(1, start, max(1, end - start))


class _Reader:
    def __init__(self, tokens: list[tuple[str, str, int, int]]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> str | None:
        return self.t[self.i][0] if self.i < len(self.t) else None

    def take(self, kind: str) -> tuple[str, str, int, int]:
        tok = self.t[self.i]
        if tok[0] != kind:
            raise _Unsure
        self.i += 1
        return tok

    # each returns (node, first column, column after the last)

    def expr(self, depth: int) -> tuple[S.Syntax, int, int]:
        if depth > _MAX_NESTING:
            raise _Unsure       # the parser measures the nesting and refuses it
        left, s, e = self.and_(depth)
        while self.peek() == "or":
            self.i += 1
            right, _s, e = self.and_(depth)
            left = S.Or(left, right, pos=_pos(s, e))
        return left, s, e

    def and_(self, depth: int) -> tuple[S.Syntax, int, int]:
        left, s, e = self.not_(depth)
        while self.peek() == "and":
            self.i += 1
            right, _s, e = self.not_(depth)
            left = S.And(left, right, pos=_pos(s, e))
        return left, s, e

    def not_(self, depth: int) -> tuple[S.Syntax, int, int]:
        if depth > _MAX_NESTING:
            raise _Unsure
        if self.peek() == "not":
            s = self.t[self.i][2]
            self.i += 1
            operand, _s, e = self.not_(depth + 1)
            return S.Not(operand, pos=_pos(s, e)), s, e
        return self.comparison(depth)

    def comparison(self, depth: int) -> tuple[S.Syntax, int, int]:
        left, s, e = self.additive(depth)
        kind = self.peek()
        if kind in _COMPARE:
            self.i += 1
            right, _s, e = self.additive(depth)
            if self.peek() in _COMPARE:
                raise _Unsure       # a chained comparison: the parser says why not
            return S.Compare(kind, left, right, pos=_pos(s, e)), s, e
        return left, s, e

    def additive(self, depth: int) -> tuple[S.Syntax, int, int]:
        left, s, e = self.term(depth)
        while self.peek() in ("+", "-"):
            op = self.t[self.i][1]
            self.i += 1
            right, _s, e = self.term(depth)
            left = S.BinOp(op, left, right, pos=_pos(s, e))
        return left, s, e

    def term(self, depth: int) -> tuple[S.Syntax, int, int]:
        left, s, e = self.unary(depth)
        while self.peek() in ("*", "//", "%"):
            op = self.t[self.i][1]
            self.i += 1
            right, _s, e = self.unary(depth)
            left = S.BinOp(op, left, right, pos=_pos(s, e))
        return left, s, e

    def unary(self, depth: int) -> tuple[S.Syntax, int, int]:
        if depth > _MAX_NESTING:
            raise _Unsure
        if self.peek() == "-":
            s = self.t[self.i][2]
            self.i += 1
            operand, _s, e = self.unary(depth + 1)
            return S.Neg(operand, pos=_pos(s, e)), s, e
        return self.atom(depth)

    def atom(self, depth: int) -> tuple[S.Syntax, int, int]:
        kind, tok, s, e = self.t[self.i]
        if kind == "int":
            self.i += 1
            digits = tok.lstrip("0") or "0"
            if len(digits) > len(str(MAX_LITERAL)) or int(digits) > MAX_LITERAL:
                raise _Unsure       # the parser words the limit
            return S.Num(int(digits), pos=_pos(s, e)), s, e
        if kind in ("true", "false"):
            self.i += 1
            return S.Bool(kind == "true", pos=_pos(s, e)), s, e
        if kind == "name":
            self.i += 1
            if self.peek() != "(":
                return S.Name(tok, pos=_pos(s, e)), s, e
            self.i += 1
            args: list[S.Syntax] = []
            if self.peek() != ")":
                while True:
                    arg, _s, _e = self.expr(depth + 1)
                    args.append(arg)
                    if self.peek() != ",":
                        break
                    self.i += 1
            close = self.take(")")
            return S.Call(tok, args, pos=_pos(s, e)), s, close[3]
        if kind == "(":
            self.i += 1
            node, ns, ne = self.expr(depth + 1)
            close = self.take(")")
            return node, s, close[3]
        raise _Unsure
