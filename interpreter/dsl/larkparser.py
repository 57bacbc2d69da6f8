"""The lark side of parsing: the LALR parser of `grammar/rules.lark`, and the transformer from
lark's tree to the typed syntax nodes (`interpreter.dsl.syntax`).

Building the LALR tables takes most of a short command's time, so the built parser is kept in
the user's cache (`interpreter/usercache.py`) and loaded from there by later processes. Lark's
own `cache=` option is not used: it writes a pickle (by default in the shared temporary
directory, where another user could replace it, and unpickling runs code). Here the tables are
written as JSON, in a file named after the grammar's hash, lark's version and Python's.

This module is imported only when a snippet must really be parsed (`parser.py` keeps the trees
of the snippets parsed before).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer, Tree, v_args
import lark
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)
from lark.grammar import Rule
from lark.lexer import TerminalDef

from interpreter.dsl import syntax as S
from interpreter.usercache import cache_dir, prune, read_private, write_private
from interpreter.dsl.limits import MAX_DEPTH, MAX_LITERAL
from interpreter.dsl.syntax import Pos, SnippetError
from interpreter.resources import grammar_dir

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

_OPTIONS: dict[str, Any] = {"parser": "lalr", "start": list(_KIND_NAMES),
                            "propagate_positions": True, "maybe_placeholders": True}


# -- the parser, built once per installation -------------------------------------------------------

_TAG_TUPLE, _TAG_DICT = "\x01t", "\x01d"


def _encode(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {_TAG_DICT: [[_encode(k), _encode(v)] for k, v in obj.items()]}
    if isinstance(obj, tuple):
        return {_TAG_TUPLE: [_encode(v) for v in obj]}
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float)):
        return obj
    raise TypeError(f"cannot keep {type(obj).__name__} in the parser cache")


def _decode_hook(obj: dict) -> Any:
    if len(obj) == 1:
        if _TAG_DICT in obj:
            return {k: v for k, v in obj[_TAG_DICT]}
        if _TAG_TUPLE in obj:
            return tuple(obj[_TAG_TUPLE])
    raise ValueError("not a parser cache")


def grammar_text() -> str:
    return (grammar_dir() / "rules.lark").read_text(encoding="utf-8")


def _cache_key(grammar: str) -> str:
    material = "\n".join([grammar, json.dumps(_OPTIONS, sort_keys=True), lark.__version__,
                          "%d.%d" % sys.version_info[:2]])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:40]


def _load_cached(path: Any, key: str) -> Lark | None:
    data = read_private(path)
    if data is None:
        return None
    try:
        head, _, body = data.partition(b"\n")
        if head.decode("ascii") != key:
            return None
        return Lark.load(json.loads(body, object_hook=_decode_hook))
    except Exception:          # a damaged cache is rebuilt, whatever is wrong with it
        return None


def _store_cached(path: Any, key: str, parser: Lark) -> None:
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        body = json.dumps(_encode({"data": data, "memo": memo}), separators=(",", ":"))
    except Exception:
        return
    write_private(path, key + "\n" + body)
    prune(path, "rules-parser-")


@cache
def lark_parser() -> Lark:
    text = grammar_text()
    folder = cache_dir()
    if folder is None:
        return Lark(text, **_OPTIONS)
    key = _cache_key(text)
    path = os.path.join(folder, f"rules-parser-{key}.json")
    parser = _load_cached(path, key)
    if parser is None:
        parser = Lark(text, **_OPTIONS)
        _store_cached(path, key, parser)
    return parser


# -- parsing ---------------------------------------------------------------------------------------

def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, t.strip('"').lower()) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def parse_syntax(text: str, start: str) -> S.Syntax:
    """Parse one snippet (of at most MAX_SNIPPET_CHARS characters) into its syntax tree; raise
    SnippetError with the position of the fault."""
    try:
        tree = lark_parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, start) from None
    _check_depth(tree)
    try:
        return _TO_SYNTAX.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, SnippetError):
            raise exc.orig_exc from None
        raise


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
                            f"{_describe_expected(set(expected or ()))}", line, col)
    if isinstance(exc, UnexpectedCharacters):
        pos = cast(int, exc.pos_in_stream)
        char = text[pos] if pos < len(text) else "?"
        return SnippetError("dsl-syntax", f"unexpected character {char!r} in "
                            f"{_KIND_NAMES[start]}", line, col)
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    expected = exc.accepts or exc.expected
    return SnippetError("dsl-syntax", f"unexpected {str(tok)!r}; expected "
                        f"{_describe_expected(set(expected))}", line, col, max(1, len(str(tok))))


def _pos(item: Tree | Token | Any) -> Pos:
    if isinstance(item, Token):
        return Pos(item.line or 1, item.column or 1, max(1, len(str(item))))
    meta: Any = getattr(item, "meta", item)
    if getattr(meta, "empty", True):
        return Pos()
    length = (meta.end_column - meta.column) if meta.end_line == meta.line else 1
    return Pos(meta.line, meta.column, max(1, length))


#: grammar rules that only group parts of their parent: they add no level of nesting
_WRAPPERS = frozenset({"args", "where", "body", "agg"})


def _check_depth(tree: Tree) -> None:
    """Refuse a tree nested deeper than MAX_DEPTH levels, without recursing."""
    stack: list[tuple[Any, int]] = [(tree, 0)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, Tree):
            continue
        if depth > MAX_DEPTH:
            p = _pos(item)
            raise SnippetError("dsl-limit", f"the snippet nests deeper than {MAX_DEPTH} levels",
                               p.line, p.col)
        inner = depth if item.data in _WRAPPERS else depth + 1
        stack.extend((child, inner) for child in item.children)


@v_args(meta=True)
class _ToSyntax(Transformer):
    """lark's tree → syntax nodes. Each method gets the rule's position and its children."""

    def expr_start(self, meta, ch):
        return ch[0]

    def region_start(self, meta, ch):
        return S.Region(list(ch), pos=_pos(meta))

    def define_start(self, meta, ch):
        name, *params = [str(c) for c in ch if c is not None]
        return S.DefineHead(name, params, pos=_pos(meta))

    def number(self, meta, ch):
        token = ch[0]
        digits = str(token).lstrip("0") or "0"
        if len(digits) > len(str(MAX_LITERAL)) or int(digits) > MAX_LITERAL:
            shown = digits if len(digits) <= 20 else digits[:12] + f"… ({len(digits)} digits)"
            raise SnippetError("dsl-limit", f"the number {shown} is too large: numbers in a "
                               f"snippet are at most {MAX_LITERAL:,}", *_pos_args(token))
        return S.Num(int(digits), pos=_pos(meta))

    def string(self, meta, ch):
        return S.Str(str(ch[0])[1:-1], pos=_pos(meta))

    def true(self, meta, ch):
        return S.Bool(True, pos=_pos(meta))

    def false(self, meta, ch):
        return S.Bool(False, pos=_pos(meta))

    def name(self, meta, ch):
        return S.Name(str(ch[0]), pos=_pos(meta))

    def args(self, meta, ch):
        return list(ch)

    def where(self, meta, ch):
        return ch[0]

    def body(self, meta, ch):
        return ch[0]

    def agg(self, meta, ch):
        return str(ch[0])

    def call(self, meta, ch):
        name, args = ch
        return S.Call(str(name), args or [], pos=_pos(name))

    def method(self, meta, ch):
        recv, name, args = ch
        return S.Method(recv, str(name), args or [], pos=_pos(meta))

    def attr(self, meta, ch):
        recv, name = ch
        return S.Attr(recv, str(name), pos=_pos(meta))

    def aggregate(self, meta, ch):
        agg, var, coll, where, body = ch
        return S.Aggregate(agg, str(var), coll, where, body, pos=_pos(meta))

    def set_literal(self, meta, ch):
        return S.SetLit(ch[0] or [], pos=_pos(meta))

    def range(self, meta, ch):
        return S.Range(ch[0], ch[1], pos=_pos(meta))

    def binop(self, meta, ch):
        left, op, right = ch
        return S.BinOp(str(op), left, right, pos=_pos(meta))

    def compare(self, meta, ch):
        left, op, right = ch
        return S.Compare(str(op), left, right, pos=_pos(meta))

    def and_op(self, meta, ch):
        return S.And(ch[0], ch[1], pos=_pos(meta))

    def or_op(self, meta, ch):
        return S.Or(ch[0], ch[1], pos=_pos(meta))

    def not_op(self, meta, ch):
        return S.Not(ch[0], pos=_pos(meta))

    def neg(self, meta, ch):
        return S.Neg(ch[0], pos=_pos(meta))

    def member(self, meta, ch):
        return S.Member(ch[0], ch[1], pos=_pos(meta))

    def if_expr(self, meta, ch):
        return S.If(ch[0], ch[1], ch[2], pos=_pos(meta))

    def __default__(self, data, children, meta):  # pragma: no cover - every rule is handled
        raise AssertionError(f"unhandled grammar rule {data}")


_TO_SYNTAX = _ToSyntax(visit_tokens=False)


def _pos_args(token: Token) -> tuple[int, int, int]:
    p = _pos(token)
    return p.line, p.col, p.length
