"""Parsing rule-language snippets into syntax trees (`interpreter.dsl.syntax`).

`parse(text, start)` gives the tree of a snippet. Syntax trees are never changed once made,
so each distinct snippet is parsed once per process, and the trees of the snippets parsed
lately are also kept in the user's cache (`interpreter/usercache.py`), so that a short command
loading a built-in variant needs neither lark nor its tables: the lark parser (`larkparser.py`) is
imported only for a snippet seen nowhere before.

The cache holds JSON, read back node by node against the syntax's own shapes (names as the
grammar writes them, numbers within the literal limit, positions, nesting within the depth
limit); anything else and the whole file is ignored. A tree read from it is the tree the
parser would give, and is checked and compiled like any other.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Callable

from interpreter.dsl import syntax as S
from interpreter.usercache import cache_dir, prune, read_private, write_private
from interpreter.dsl.limits import MAX_DEPTH, MAX_LITERAL, MAX_SNIPPET_CHARS
from interpreter.dsl.syntax import SnippetError

__all__ = ["parse", "flush", "SnippetError", "MAX_DEPTH", "MAX_SNIPPET_CHARS"]

_STARTS = ("expr_start", "region_start", "define_start")

_parsed: dict[tuple[str, str], S.Syntax] = {}

#: a snippet that is one name (a definition's key, a rule naming a definition), one range of
#: pips (a region) or simple arithmetic (quickparse.py): read without the parser, the same
#: tree it would give, so that a file of tens of thousands of definitions or regions loads in
#: linear time at a small cost each
_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_RANGE = re.compile(r"([0-9]{1,7})\.\.([0-9]{1,7})")
_WORDS = frozenset({"all", "and", "any", "count", "else", "false", "if", "in", "max", "min", "not",
                    "or", "sum", "then", "true", "union", "where"})


def _plain(text: str, start: str) -> S.Syntax | None:
    if start != "region_start":
        if _NAME.fullmatch(text) and text not in _WORDS:
            pos = S.Pos(1, 1, len(text))
            return S.Name(text, pos=pos) if start == "expr_start" else S.DefineHead(text, [],
                                                                                   pos=pos)
        if start == "expr_start":
            from interpreter.dsl.quickparse import quick_parse
            return quick_parse(text)
        return None
    m = _RANGE.fullmatch(text)
    if m is None:
        return None
    lo, hi = m.group(1), m.group(2)
    if int(lo) > MAX_LITERAL or int(hi) > MAX_LITERAL:
        return None     # the parser says why
    whole = S.Pos(1, 1, len(text))
    return S.Region([S.Range(S.Num(int(lo), pos=S.Pos(1, 1, len(lo))),
                             S.Num(int(hi), pos=S.Pos(1, len(lo) + 3, len(hi))), pos=whole)],
                    pos=whole)
_MAX_PARSED = 20_000


def parse(text: str, start: str = "expr_start") -> S.Syntax:
    """Parse one snippet into its syntax tree; raise SnippetError with the position of the fault.

    >>> type(parse("mine(off) == checkers")).__name__
    'Compare'
    """
    key = (text, start)
    tree = _parsed.get(key)
    if tree is not None:
        return tree
    if len(text) > MAX_SNIPPET_CHARS:
        raise SnippetError("dsl-limit", f"a snippet may have at most {MAX_SNIPPET_CHARS} "
                           f"characters; this one has {len(text)}")
    tree = _plain(text, start)
    if tree is None:
        tree = _disk.get(key)
    if tree is None:
        from interpreter.dsl.larkparser import parse_syntax

        tree = parse_syntax(text, start)
        _disk.add(key, tree)
    if len(_parsed) >= _MAX_PARSED:
        _parsed.clear()
    _parsed[key] = tree
    return tree


def flush() -> None:
    """Write the snippets parsed by this process into the user's cache (if any is new)."""
    _disk.save()


def _parser() -> Any:
    """The lark parser (built, or loaded from the cache, once per process)."""
    from interpreter.dsl.larkparser import lark_parser

    return lark_parser()


# -- syntax trees as JSON --------------------------------------------------------------------------

#: the fields of each node kind: "node", "node?" (or null), "nodes", "str", "name", "names",
#: "int", "bool", "op", "agg"
_SHAPES: dict[str, tuple[type, tuple[str, ...]]] = {
    "Num": (S.Num, ("int",)), "Bool": (S.Bool, ("bool",)), "Str": (S.Str, ("str",)),
    "Name": (S.Name, ("name",)), "Call": (S.Call, ("name", "nodes")),
    "Method": (S.Method, ("node", "name", "nodes")), "Attr": (S.Attr, ("node", "name")),
    "Aggregate": (S.Aggregate, ("agg", "name", "node", "node?", "node?")),
    "SetLit": (S.SetLit, ("nodes",)), "Range": (S.Range, ("node", "node")),
    "BinOp": (S.BinOp, ("op", "node", "node")), "Compare": (S.Compare, ("op", "node", "node")),
    "And": (S.And, ("node", "node")), "Or": (S.Or, ("node", "node")),
    "Not": (S.Not, ("node",)), "Neg": (S.Neg, ("node",)),
    "Member": (S.Member, ("node", "node")), "If": (S.If, ("node", "node", "node")),
    "Region": (S.Region, ("nodes",)), "DefineHead": (S.DefineHead, ("name", "names")),
}
_KIND_OF = {cls: kind for kind, (cls, _f) in _SHAPES.items()}
_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_OPS = frozenset({"+", "-", "*", "//", "%", "==", "!=", "<=", ">=", "<", ">"})
_AGGS = frozenset({"count", "sum", "any", "all", "max", "min", "union"})


class _Damaged(Exception):
    pass


def _encode(node: S.Syntax) -> list:
    kind = _KIND_OF[type(node)]
    p = node.pos
    out: list = [kind, p.line, p.col, p.length]
    for name, shape in zip(type(node).__slots__, _SHAPES[kind][1]):
        value = getattr(node, name)
        if shape in ("node", "node?"):
            out.append(None if value is None else _encode(value))
        elif shape == "nodes":
            out.append([_encode(v) for v in value])
        else:
            out.append(list(value) if shape == "names" else value)
    return out


def _decode(data: Any, depth: int = 0) -> S.Syntax:
    if depth > MAX_DEPTH + 2 or type(data) is not list or len(data) < 4:
        raise _Damaged
    kind, line, col, length, *fields = data
    shape = _SHAPES.get(kind) if type(kind) is str else None
    if shape is None or not all(type(v) is int and v >= 1 for v in (line, col, length)):
        raise _Damaged
    cls, kinds = shape
    if len(fields) != len(kinds):
        raise _Damaged
    values = []
    for value, k in zip(fields, kinds):
        if k == "node" or (k == "node?" and value is not None):
            value = _decode(value, depth + 1)
        elif k == "nodes":
            if type(value) is not list:
                raise _Damaged
            value = [_decode(v, depth + 1) for v in value]
        elif k == "names":
            if type(value) is not list or not all(_is_name(v) for v in value):
                raise _Damaged
        elif not _CHECK[k](value):
            raise _Damaged
        values.append(value)
    return cls(*values, pos=S.Pos(line, col, length))


def _is_name(v: Any) -> bool:
    return type(v) is str and _NAME.fullmatch(v) is not None


_CHECK: dict[str, Callable[[Any], bool]] = {
    "node?": lambda v: v is None,
    "int": lambda v: type(v) is int and 0 <= v <= MAX_LITERAL,
    "bool": lambda v: type(v) is bool,
    "str": lambda v: type(v) is str and "\n" not in v and len(v) <= MAX_SNIPPET_CHARS,
    "name": _is_name,
    "op": lambda v: v in _OPS,
    "agg": lambda v: v in _AGGS,
}


class _DiskCache:
    """The syntax trees of recently parsed snippets, in the user's cache directory."""

    #: how many snippets the file keeps (the most recent ones)
    MAX_ENTRIES = 800

    def __init__(self) -> None:
        self._loaded = False
        self._path: str | None = None
        self._key = ""
        #: (text, start) → encoded tree, oldest first
        self._entries: dict[tuple[str, str], Any] = {}
        self._new = False

    def _load(self) -> None:
        self._loaded = True
        folder = cache_dir()
        if folder is None:
            return
        try:
            self._key = _format_key()
        except OSError:
            return
        self._path = os.path.join(folder, f"snippets-{self._key[:24]}.json")
        data = read_private(self._path)
        if data is None:
            return
        try:
            doc = json.loads(data)
            if doc.get("key") != self._key:
                return
            entries = {}
            for text, start, tree in doc["snippets"]:
                if start not in _STARTS or type(text) is not str:
                    return
                entries[(text, start)] = tree
            self._entries = entries
        except (ValueError, TypeError, KeyError, AttributeError):
            self._entries = {}

    def get(self, key: tuple[str, str]) -> S.Syntax | None:
        if not self._loaded:
            self._load()
        data = self._entries.get(key)
        if data is None:
            return None
        try:
            return _decode(data)
        except (_Damaged, TypeError, ValueError):
            self._entries = {}       # a damaged file is replaced by the next save
            self._new = True
            return None

    def add(self, key: tuple[str, str], tree: S.Syntax) -> None:
        if self._path is None:
            return
        self._entries.pop(key, None)
        self._entries[key] = _encode(tree)
        while len(self._entries) > self.MAX_ENTRIES:
            del self._entries[next(iter(self._entries))]
        self._new = True

    def save(self) -> None:
        if not self._new or self._path is None:
            return
        self._new = False
        doc = {"key": self._key,
               "snippets": [[text, start, tree] for (text, start), tree in self._entries.items()]}
        first = not os.path.exists(self._path)
        write_private(self._path, json.dumps(doc, separators=(",", ":")))
        if first:
            prune(self._path, "snippets-")


def _format_key() -> str:
    """What the trees depend on: the grammar, and this module's and the parser's code."""
    here = Path(__file__).resolve().parent
    from interpreter.resources import grammar_dir

    h = hashlib.sha256()
    for path in (grammar_dir() / "rules.lark", here / "larkparser.py", here / "syntax.py",
                 Path(__file__)):
        h.update(path.read_bytes())
    return h.hexdigest()


_disk = _DiskCache()
