"""Parsing rule-language snippets into small position-carrying trees.

The grammar is `grammar/rules.lark` (LALR). The parser is built once per process; a snippet is
parsed into `Node`s, the language's own tree, which the checker and the code generator walk.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from interpreter.resources import grammar_dir

#: limits that keep an untrusted rule file's work bounded
MAX_SNIPPET_CHARS = 4000
MAX_DEPTH = 40


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
class Node:
    """One node of a snippet's tree: `kind` names the construct, `args` its parts."""

    kind: str
    args: list[Any]
    line: int = 1
    col: int = 1
    length: int = 1
    type: str | None = field(default=None)

    def error(self, code: str, message: str) -> SnippetError:
        return SnippetError(code, message, self.line, self.col, self.length)


_KIND_NAMES = {
    "expr_start": "a condition or a number",
    "region_start": "a region such as 1..6 or 7..12, 13",
    "define_start": "a definition name such as blot or blot(p)",
}

_TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string", "COMPARE": "a comparison",
    "ADD_OP": "+ or -", "MUL_OP": "*, // or %", "LPAR": "(", "RPAR": ")", "COMMA": ",",
    "COLON": ":", "DOT": ".", "LBRACE": "{", "RBRACE": "}", "MINUS": "-", "$END": "the end",
}


@cache
def _parser() -> Lark:
    text = (grammar_dir() / "rules.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", start=list(_KIND_NAMES), propagate_positions=True,
                maybe_placeholders=True)


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, t.strip('"').lower()) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def parse(text: str, start: str = "expr_start") -> Node:
    """Parse one snippet; raise SnippetError with the position of the fault.

    >>> parse("mine(off) == checkers").kind
    'compare'
    """
    if len(text) > MAX_SNIPPET_CHARS:
        raise SnippetError("dsl-limit", f"a snippet may have at most {MAX_SNIPPET_CHARS} "
                           f"characters; this one has {len(text)}")
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, start) from None
    return _convert(tree, 0)


def _syntax_error(exc: UnexpectedInput, text: str, start: str) -> SnippetError:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken)
                                          and exc.token.type == "$END"):
        lines = text.split("\n") or [""]
        line = len(lines)
        col = len(lines[-1]) + 1
        expected = getattr(exc, "expected", None) or getattr(exc, "accepts", set())
        return SnippetError("dsl-syntax", f"the snippet ends too early; expected "
                            f"{_describe_expected(set(expected))}", line, col)
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        return SnippetError("dsl-syntax", f"unexpected character {char!r} in "
                            f"{_KIND_NAMES[start]}", line, col)
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    expected = exc.accepts or exc.expected
    return SnippetError("dsl-syntax", f"unexpected {str(tok)!r}; expected "
                        f"{_describe_expected(set(expected))}", line, col, max(1, len(str(tok))))


def _pos(item: Tree | Token) -> tuple[int, int, int]:
    if isinstance(item, Token):
        return item.line or 1, item.column or 1, max(1, len(str(item)))
    meta = item.meta
    if getattr(meta, "empty", True):
        return 1, 1, 1
    length = (meta.end_column - meta.column) if meta.end_line == meta.line else 1
    return meta.line, meta.column, max(1, length)


def _convert(item: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        line, col, _ = _pos(item) if isinstance(item, (Tree, Token)) else (1, 1, 1)
        raise SnippetError("dsl-limit", f"the snippet nests deeper than {MAX_DEPTH} levels",
                           line, col)
    if item is None:
        return None
    if isinstance(item, Token):
        return str(item)
    line, col, length = _pos(item)
    kind = str(item.data)
    children = item.children
    if kind in ("expr_start",):
        return _convert(children[0], depth + 1)
    if kind == "region_start":
        return Node("region", [_convert(c, depth + 1) for c in children], line, col, length)
    if kind == "define_start":
        return Node("define_head", [str(c) for c in children if c is not None], line, col, length)
    if kind == "number":
        return Node("number", [int(children[0])], line, col, length)
    if kind == "string":
        return Node("string", [str(children[0])[1:-1]], line, col, length)
    if kind in ("true", "false"):
        return Node("bool", [kind == "true"], line, col, length)
    if kind == "name":
        return Node("name", [str(children[0])], line, col, length)
    if kind in ("call", "method"):
        args_tree = children[-1]
        args = [] if args_tree is None else [_convert(c, depth + 1) for c in args_tree.children]
        if kind == "call":
            nline, ncol, nlen = _pos(children[0])
            return Node("call", [str(children[0]), args], nline, ncol, nlen)
        return Node("method", [_convert(children[0], depth + 1), str(children[1]), args],
                    line, col, length)
    if kind == "attr":
        return Node("attr", [_convert(children[0], depth + 1), str(children[1])], line, col, length)
    if kind == "aggregate":
        agg, var, coll, where, body = children
        agg_name = str(agg.children[0])
        return Node("aggregate", [agg_name, str(var), _convert(coll, depth + 1),
                                  None if where is None else _convert(where.children[0], depth + 1),
                                  None if body is None else _convert(body.children[0], depth + 1)],
                    line, col, length)
    if kind == "set_literal":
        args_tree = children[0]
        args = [] if args_tree is None else [_convert(c, depth + 1) for c in args_tree.children]
        return Node("set", args, line, col, length)
    if kind in ("binop", "compare"):
        left, op, right = children
        return Node(kind, [str(op), _convert(left, depth + 1), _convert(right, depth + 1)],
                    line, col, length)
    if kind in ("and_op", "or_op", "member", "range"):
        return Node(kind, [_convert(c, depth + 1) for c in children], line, col, length)
    if kind in ("not_op", "neg"):
        return Node(kind, [_convert(children[0], depth + 1)], line, col, length)
    if kind == "if_expr":
        return Node("if", [_convert(c, depth + 1) for c in children], line, col, length)
    raise AssertionError(f"unhandled grammar rule {kind}")  # pragma: no cover
