"""Checking rule snippets and compiling them to Python functions.

One pass over a snippet's tree resolves every name, checks arity and types and the hook's
context, inlines the file's definitions, folds options and constant regions, and emits a Python
expression. Only names this module chooses and integers reach the generated source: text from a
rule file is never executed. Each hook becomes one function, compiled once per variant load:

    hook(b, a, x, d1, d2, rolls, ctx)

`b` the hook's position (28-int board tuple), `a` the board after the play (play hooks), `x` the
path or play under examination, `d1, d2` the dice, `rolls` the mover's throw number, `ctx` a
`RollContext` (legal plays and unplayed numbers, computed on demand).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from interpreter.dsl.parser import MAX_DEPTH, Node, SnippetError, parse
from interpreter.dsl.runtime import NAMESPACE

INT, BOOL, STR, SET, STATE, PLAY, PATH, STEP = "int", "bool", "str", "set", "state", "play", "path", "step"
LIST_INT, LIST_PLAY, LIST_PATH = "list[int]", "list[play]", "list[path]"
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

MAX_NODES = 20000          # after definitions are inlined
MAX_AGGREGATE_NESTING = 5
MAX_SOURCE_CHARS = 400_000
#: aggregates over a fixed set of at most this many pips are written out term by term, when
#: the terms stay within these bounds (parts checked, characters of code)
MAX_UNROLL_ITEMS = 24
MAX_UNROLL_NODES = 2000
MAX_UNROLL_CHARS = 20_000
_UNROLLABLE = frozenset({"count", "sum", "any", "all"})


@dataclass(frozen=True)
class Value:
    type: str
    code: str
    const: Any = None          # a Python constant when known at compile time (int/bool/str/frozenset)
    on_board: bool = False     # an int known to be a board pip (1..24): indexes the board directly

    @property
    def is_const(self) -> bool:
        return self.const is not None


def _const(type_: str, value: Any) -> Value:
    if type_ == SET:
        return Value(SET, "", frozenset(value))
    return Value(type_, repr(value), value)


_DICE = frozenset({ROLL, CHOICE, END})
# name → (type, code, contexts where available); None = everywhere
_NAMES: dict[str, tuple[str, str, frozenset[str] | None]] = {
    "before": (STATE, "b", None),
    "after": (STATE, "a", frozenset({FORBID, CHOICE})),
    "path": (PATH, "x", frozenset({FORBID})),
    "play": (PLAY, "x", frozenset({CHOICE})),
    "plays": (LIST_PLAY, "ctx.plays", frozenset({ROLL})),
    "unplayed": (INT, "ctx.unplayed", frozenset({ROLL})),
    "setup": (INT, "ctx.setup", frozenset({ROLL})),
    "dice": (LIST_INT, "(d1, d2)", _DICE),
    "numbers": (LIST_INT, "((d1,) if d1 == d2 else (d1, d2))", _DICE),
    "doublet": (BOOL, "(d1 == d2)", _DICE),
    "total": (INT, "(d1 + d2)", _DICE),
    "high": (INT, "(d1 if d1 > d2 else d2)", _DICE),
    "low": (INT, "(d2 if d1 > d2 else d1)", _DICE),
    "rolls": (INT, "rolls", _DICE),
    # the ladder's points of the side the board is seen by and of the other (end, value rules)
    "my_points": (INT, "(ctx.points[0] if ctx else 0)", frozenset({END})),
    "their_points": (INT, "(ctx.points[1] if ctx else 0)", frozenset({END})),
}
_CONST_NAMES = {"bar": 25, "off": 0}

# position functions: name → (argument types, result type); they read a position, the hook's
# own (`mine(p)`) or another one (`after.mine(p)`, `pl.mine(p)` for a play's end position)
_POSITION_FUNCS: dict[str, tuple[tuple[str, ...], str]] = {
    "mine": ((INT,), INT),
    "theirs": ((INT,), INT),
    "empty": ((INT,), BOOL),
    "full": ((SET,), BOOL),
}
# other functions: name → (argument types, result type)
_FUNCS: dict[str, tuple[tuple[str, ...], str]] = {
    "landings": ((PATH,), SET),
    "rests": ((PATH,), SET),
    "arrivals": ((PATH, INT), SET),
    "size": ((SET,), INT),
    "abs": ((INT,), INT),
}
_STEP_ATTRS = {"from": (INT, "[0]"), "to": (INT, "[1]"), "die": (INT, "[2]"), "hit": (INT, "[3]"),
               "off": (BOOL, "[1] == 0"), "excedant": (BOOL, "[4] & 1 != 0"),
               "puissance": (BOOL, "[4] & 2 != 0")}
_PLAY_ATTRS = {"paths": (LIST_PATH, "[1]"), "position": (STATE, "[0]")}

BUILTIN_NAMES = sorted({*_NAMES, *_CONST_NAMES, *_POSITION_FUNCS, *_FUNCS, "checkers", "options",
                        "count", "sum", "any", "all", "max", "min", "union"})


@dataclass
class Definition:
    name: str
    params: list[str]
    body_text: str
    key: str
    body: Node | None = None
    error: SnippetError | None = None


@dataclass
class Symbols:
    """What a variant file declares for its snippets: regions, definitions, options, constants."""

    regions: dict[str, frozenset[int]] = field(default_factory=dict)
    definitions: dict[str, Definition] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    option_choices: dict[str, list[Any]] = field(default_factory=dict)
    checkers: int = 15


class Compiler:
    """Checks and compiles the snippets of one variant file against its symbols."""

    def __init__(self, symbols: Symbols, unroll: bool = True):
        self.symbols = symbols
        #: write out aggregates over small fixed sets of pips (False: always loops)
        self.unroll = unroll
        self._gensym = itertools.count()
        self.constants: dict[str, Any] = {}
        self._const_names: dict[Any, str] = {}
        # per-hook: sub-expressions of a forbid/prefer rule that read only the position before
        # the roll, computed once per roll instead of once per play
        self._hoisted: list[tuple[str, str]] | None = None
        self._context: str | None = None
        # aggregates over small fixed sets are written out (`_unrolled_set`) while `_unroll_on`
        # holds; `_wrote_out` records that a snippet's code has some
        self._unroll_on = unroll
        self._wrote_out = False

    # -- entry points -------------------------------------------------------------------------

    def compile_expr(self, text: str, context: str, want: str | tuple[str, ...],
                     key_path: tuple[str, ...]) -> Value:
        """Check a snippet and return its Value (type and Python expression)."""
        try:
            node = parse(text)
        except SnippetError as err:
            raise err.at(key_path) from None
        self._context = context
        self._unroll_on, self._wrote_out = self.unroll, False
        try:
            value = self._compile_node(node, context, key_path)
            if self._wrote_out and self._hook_chars(value) > MAX_SOURCE_CHARS // 2:
                # written out, the hook would approach the size limit: keep the loops, so that a
                # rule is accepted or refused exactly as without writing out
                self._unroll_on = False
                value = self._compile_node(node, context, key_path)
        except SnippetError as err:
            raise (err if err.key_path else err.at(key_path)) from None
        finally:
            self._unroll_on = self.unroll
        wants = (want,) if isinstance(want, str) else want
        if value.type not in wants:
            raise node.error("dsl-type", f"this snippet must give {_words(wants)}, but it gives "
                             f"{TYPE_WORDS[value.type]}").at(key_path)
        return value

    def _compile_node(self, node: Node, context: str, key_path: tuple[str, ...]) -> Value:
        self._hoisted = [] if context in (FORBID, CHOICE) else None
        return self._expr(node, {}, _State(context, key_path))

    def _hook_chars(self, value: Value) -> int:
        return len(value.code) + sum(len(c) for _h, c in self._hoisted or ())

    def function(self, value: Value, name: str) -> Callable[..., Any]:
        """Compile a checked Value into a hook function."""
        code = self._materialise(value)
        hoisted, self._hoisted = self._hoisted or [], None
        if hoisted:
            names = ", ".join(h for h, _ in hoisted)
            body = "".join(f"            {h} = {c}\n" for h, c in hoisted)
            source = (f"def _make():\n"
                      f"    _cb = {' = '.join(h for h, _ in hoisted)} = None\n"
                      f"    def {name}(b, a=None, x=None, d1=0, d2=0, rolls=0, ctx=None):\n"
                      f"        nonlocal _cb, {names}\n"
                      f"        if b is not _cb:\n{body}"
                      f"            _cb = b\n"
                      f"        return {code}\n"
                      f"    return {name}\n"
                      f"{name} = _make()\n")
        else:
            source = (f"def {name}(b, a=None, x=None, d1=0, d2=0, rolls=0, ctx=None):\n"
                      f"    return {code}\n")
        if len(source) > MAX_SOURCE_CHARS:
            raise SnippetError("dsl-limit", "the rule is too large once its definitions are "
                               "expanded; split it into smaller rules")
        batch = self._batch_source(name, code, hoisted)
        if batch is not None:
            source += "\n" + batch[1]
        namespace = dict(NAMESPACE)
        namespace.update(self.constants)
        exec(compile(source, f"<rule {name}>", "exec"), namespace)  # noqa: S102 - generated source
        fn = namespace[name]
        fn.__source__ = source  # type: ignore[attr-defined]
        if not hoisted:
            # what a caller may write out inline for several hooks at once (RuleSet.roll_items)
            fn.__expr__ = code  # type: ignore[attr-defined]
            fn.__expr_type__ = value.type  # type: ignore[attr-defined]
        if batch is not None:
            setattr(fn, batch[0], namespace[f"{name}_{batch[0]}"])
        return fn

    def _batch_source(self, name: str, code: str,
                      hoisted: list[tuple[str, str]]) -> tuple[str, str] | None:
        """The same hook for all the candidates of one roll at once, with the parts that read
        only the position before the roll computed once at the top:

        - a forbid rule gets `filter_paths(b, cands)`: of the (path, end board) pairs, those the
          rule does not forbid, in their order;
        - a prefer rule or a per-play score gets `each(b, plays, d1, d2, rolls, ctx)`: its value
          for each play, in order.
        """
        context = self._context
        names = set(_IDENT.findall(code)).union(*(_IDENT.findall(c) for _h, c in hoisted))
        top = "".join(f"    {h} = {c}\n" for h, c in hoisted)
        if context == FORBID and not names & {"d1", "d2", "rolls", "ctx"}:
            per_path = ""
            if "_landings(x)" in code:
                # the landings of a path, asked once for all the tests that read them, and
                # written out for a path of two steps (the runtime's `landings`, inline)
                per_path = ("        if len(x) == 2:\n"
                            "            _s, _u = x\n"
                            "            _lx = frozenset((_u[1],)) if _u[0] == _s[1] else "
                            "frozenset((_s[1], _u[1]))\n"
                            "        else:\n"
                            "            _lx = _landings(x)\n")
                code = code.replace("_landings(x)", "_lx")
            return "filter_paths", (f"def {name}_filter_paths(b, cands):\n{top}"
                                    f"    out = []\n"
                                    f"    keep = out.append\n"
                                    f"    for c in cands:\n"
                                    f"        x, a = c\n{per_path}"
                                    f"        if not {code}:\n"
                                    f"            keep(c)\n"
                                    f"    return out\n")
        if context == CHOICE:
            return "each", (f"def {name}_each(b, plays, d1=0, d2=0, rolls=0, ctx=None):\n{top}"
                            f"    return [{code} for x in plays for a in (x[0],)]\n")
        return None

    def region(self, text: str, key_path: tuple[str, ...]) -> frozenset[int]:
        try:
            node = parse(text, "region_start")
        except SnippetError as err:
            raise err.at(key_path) from None
        state = _State(END, key_path)
        points: set[int] = set()
        for part in node.args:
            try:
                value = self._expr(part, {}, state)
            except SnippetError as err:
                raise (err if err.key_path else err.at(key_path)) from None
            if value.type == INT and value.is_const:
                points.add(value.const)
            elif value.type == SET and value.is_const:
                points.update(value.const)
            else:
                raise part.error("dsl-type", "a region is made of fixed pips and ranges such as "
                                 "1..6").at(key_path)
        bad = sorted(p for p in points if not 0 <= p <= 25)
        if bad:
            raise node.error("dsl-range", f"pip {bad[0]} is not on the board (pips 1..24, "
                             f"bar 25, off 0)").at(key_path)
        return frozenset(points)

    # -- expressions ----------------------------------------------------------------------------

    def _expr(self, node: Node, scope: dict[str, Value], st: _State) -> Value:
        st.nodes += 1
        if st.nodes > MAX_NODES:
            raise node.error("dsl-limit", f"the rule is too large once its definitions are "
                             f"expanded (more than {MAX_NODES} parts)")
        method = getattr(self, "_x_" + node.kind)
        return method(node, scope, st)

    def _x_number(self, node: Node, scope, st) -> Value:
        return _const(INT, node.args[0])

    def _x_bool(self, node: Node, scope, st) -> Value:
        return _const(BOOL, node.args[0])

    def _x_string(self, node: Node, scope, st) -> Value:
        return Value(STR, "", node.args[0])

    def _x_name(self, node: Node, scope, st) -> Value:
        name = node.args[0]
        if name in scope:
            return scope[name]
        if name in _NAMES:
            type_, code, contexts = _NAMES[name]
            if contexts is not None and st.context not in contexts:
                raise node.error("dsl-context", f"`{name}` is not available in "
                                 f"{CONTEXT_WORDS[st.context]}")
            return Value(type_, code)
        if name in _CONST_NAMES:
            return _const(INT, _CONST_NAMES[name])
        if name == "checkers":
            return _const(INT, self.symbols.checkers)
        if name in self.symbols.regions:
            return _const(SET, self.symbols.regions[name])
        if name in self.symbols.definitions:
            return self._inline(node, name, [], scope, st)
        if name in _POSITION_FUNCS or name in _FUNCS:
            raise node.error("dsl-arity", f"`{name}` is a function: write {name}(...)")
        raise node.error("dsl-unknown-name", self._unknown(name, scope))

    def _unknown(self, name: str, scope: dict[str, Value]) -> str:
        import difflib
        known = [*scope, *_NAMES, *_CONST_NAMES, "checkers", *self.symbols.regions,
                 *self.symbols.definitions]
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        return f"unknown name `{name}`{hint}"

    def _x_call(self, node: Node, scope, st) -> Value:
        name, arg_nodes = node.args
        if name in scope:
            raise node.error("dsl-arity", f"`{name}` is a value, not a function")
        if name in self.symbols.definitions:
            return self._inline(node, name, arg_nodes, scope, st)
        if name in _POSITION_FUNCS:
            return self._position_call(node, name, arg_nodes, Value(STATE, "b"), scope, st)
        if name == "size" and len(arg_nodes) == 1:
            arg = self._expr(arg_nodes[0], scope, st)
            if arg.type not in ELEMENT:
                raise arg_nodes[0].error("dsl-type", f"`size` counts a region, a set or a list, "
                                         f"not {TYPE_WORDS[arg.type]}")
            return self._emit_func("size", [arg], INT)
        if name in _FUNCS:
            params, result = _FUNCS[name]
            args = self._args(node, name, params, arg_nodes, scope, st)
            return self._emit_func(name, args, result)
        if name in ("count", "sum", "any", "all", "max", "min", "union"):
            raise node.error("dsl-syntax", f"`{name}` takes a binder: {name}(p in region ...)")
        raise node.error("dsl-unknown-name", self._unknown(name, scope).replace("name", "function", 1))

    def _args(self, node: Node, name: str, params: tuple[str, ...], arg_nodes: list[Node],
              scope, st) -> list[Value]:
        if len(arg_nodes) != len(params):
            raise node.error("dsl-arity", f"`{name}` takes {len(params)} argument"
                             f"{'s' if len(params) != 1 else ''} ({_words(params, ' and ')}), "
                             f"not {len(arg_nodes)}")
        values = []
        for arg, want in zip(arg_nodes, params):
            value = self._expr(arg, scope, st)
            if value.type != want:
                raise arg.error("dsl-type", f"argument of `{name}` must be {TYPE_WORDS[want]}, "
                                f"not {TYPE_WORDS[value.type]}")
            values.append(value)
        return values

    def _position_call(self, node: Node, name: str, arg_nodes: list[Node], receiver: Value,
                       scope, st) -> Value:
        params, result = _POSITION_FUNCS[name]
        (arg,) = self._args(node, name, params, arg_nodes, scope, st)
        if receiver.type == PLAY:
            receiver = Value(STATE, f"{receiver.code}[0]")
        s = receiver.code
        if name == "full":
            if arg.is_const:
                pips = sorted(p for p in arg.const if 1 <= p <= 24)
                if not pips or len(pips) != len(arg.const):
                    raise arg_nodes[0].error("dsl-range", "`full` takes a region of board pips")
                return Value(BOOL, "(" + " and ".join(f"{s}[{p}] >= 2" for p in pips) + ")")
            return Value(BOOL, f"all({s}[_p] >= 2 for _p in {self._materialise(arg)})")
        if arg.is_const:
            p = arg.const
            if name == "empty":
                return Value(BOOL, f"({s}[{p}] == 0)" if 1 <= p <= 24 else "False")
            if 1 <= p <= 24:
                sign = ">" if name == "mine" else "<"
                neg = "" if name == "mine" else "-"
                return Value(INT, f"({neg}{s}[{p}] if {s}[{p}] {sign} 0 else 0)")
            index = {("mine", 0): 0, ("mine", 25): 25, ("theirs", 0): 27, ("theirs", 25): 26}
            if (name, p) in index:
                return Value(INT, f"{s}[{index[name, p]}]")
            return _const(INT, 0)
        if arg.on_board:
            p = arg.code
            if name == "empty":
                return Value(BOOL, f"({s}[{p}] == 0)")
            sign, neg = (">", "") if name == "mine" else ("<", "-")
            return Value(INT, f"({neg}{s}[{p}] if {s}[{p}] {sign} 0 else 0)")
        return Value(result, f"_{name}({s}, {arg.code})")

    def _x_method(self, node: Node, scope, st) -> Value:
        recv_node, name, arg_nodes = node.args
        receiver = self._expr(recv_node, scope, st)
        if receiver.type not in (STATE, PLAY):
            raise node.error("dsl-type", f"`.{name}(...)` needs a position or a play before the "
                             f"dot, not {TYPE_WORDS[receiver.type]}")
        if name not in _POSITION_FUNCS:
            raise node.error("dsl-unknown-name", f"a position has no function `{name}`; it has "
                             f"{', '.join(sorted(_POSITION_FUNCS))}")
        return self._position_call(node, name, arg_nodes, receiver, scope, st)

    def _x_attr(self, node: Node, scope, st) -> Value:
        recv_node, name = node.args
        if recv_node.kind == "name" and recv_node.args[0] == "options" and "options" not in scope:
            return self._option(node, name)
        receiver = self._expr(recv_node, scope, st)
        table = {STEP: _STEP_ATTRS, PLAY: _PLAY_ATTRS}.get(receiver.type)
        if table is None or name not in table:
            have = ", ".join(sorted(table)) if table else "no fields"
            raise node.error("dsl-unknown-name", f"{TYPE_WORDS[receiver.type]} has no field "
                             f"`{name}` ({have})")
        type_, suffix = table[name]
        return Value(type_, f"({receiver.code}{suffix})")

    def _option(self, node: Node, name: str) -> Value:
        if name not in self.symbols.options:
            import difflib
            close = difflib.get_close_matches(name, list(self.symbols.options), n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise node.error("dsl-unknown-name", f"the file declares no option `{name}`{hint}")
        value = self.symbols.options[name]
        if isinstance(value, bool):
            return _const(BOOL, value)
        if isinstance(value, int):
            return _const(INT, value)
        return Value(STR, "", value)

    def _inline(self, node: Node, name: str, arg_nodes: list[Node], scope, st) -> Value:
        d = self.symbols.definitions[name]
        if d.error is not None:
            raise d.error
        if len(arg_nodes) != len(d.params):
            raise node.error("dsl-arity", f"`{name}` takes {len(d.params)} argument"
                             f"{'s' if len(d.params) != 1 else ''}, not {len(arg_nodes)}")
        if name in st.expanding:
            raise node.error("dsl-recursion", f"`{name}` is defined in terms of itself "
                             f"({' → '.join([*st.expanding, name])})")
        args = [self._expr(a, scope, st) for a in arg_nodes]
        inner = _State(st.context, ("define", d.key), st.expanding + (name,), st.nodes,
                       st.aggregates)
        try:
            value = self._expr(d.body, dict(zip(d.params, args)), inner)  # type: ignore[arg-type]
        except SnippetError as err:
            if err.key_path:
                raise
            raise err.at(("define", d.key)) from None
        st.nodes = inner.nodes
        return value

    def _x_aggregate(self, node: Node, scope, st) -> Value:
        agg, var, coll_node, where_node, body_node = node.args
        if st.aggregates >= MAX_AGGREGATE_NESTING:
            raise node.error("dsl-limit", f"aggregates nest at most {MAX_AGGREGATE_NESTING} deep")
        coll = self._expr(coll_node, scope, st)
        if coll.type not in ELEMENT:
            raise coll_node.error("dsl-type", f"`{agg}` runs over a region, a range or a list, "
                                  f"not {TYPE_WORDS[coll.type]}")
        elem = ELEMENT[coll.type]
        if coll.code in _DICE_CODES:
            return self._unrolled(node, scope, st, _DICE_CODES[coll.code])
        if (self._unroll_on and agg in _UNROLLABLE and coll.is_const and coll.type == SET
                and 0 < len(coll.const) <= MAX_UNROLL_ITEMS):
            return self._unrolled_set(node, scope, st, coll, elem)
        return self._aggregate_loop(node, scope, st, coll, elem)

    def _aggregate_loop(self, node: Node, scope, st, coll: Value, elem: str) -> Value:
        """An aggregate as one Python loop (a generator expression) over its collection."""
        agg, var, _coll_node, where_node, body_node = node.args
        binder = f"_v{next(self._gensym)}"
        inner = dict(scope)
        on_board = coll.on_board or (coll.is_const and coll.type == SET
                                     and all(1 <= p <= 24 for p in coll.const))
        inner[var] = Value(elem, binder, on_board=on_board)
        st.aggregates += 1
        where = None
        if where_node is not None:
            where = self._expr(where_node, inner, st)
            if where.type != BOOL:
                raise where_node.error("dsl-type", f"`where` needs a condition, not "
                                       f"{TYPE_WORDS[where.type]}")
        body = None if body_node is None else self._expr(body_node, inner, st)
        st.aggregates -= 1
        source = self._materialise(coll)
        if (agg == "any" and where is None and body_node is not None
                and body_node.kind == "member" and body_node.args[0].kind == "name"
                and body_node.args[0].args[0] == var):
            region = self._expr(body_node.args[1], scope, st)
            if region.is_const and region.type == SET:
                # any(p in c: p in R), R fixed: one set operation instead of a loop
                return self._hoist(Value(BOOL, f"(not {self._materialise(region)}.isdisjoint("
                                               f"{source}))"))
        cond = "" if where is None else f" if {self._materialise(where)}"
        loop = f"for {binder} in {source}{cond}"
        return self._hoist(self._aggregate_value(agg, node, body_node, elem, binder, loop, body,
                                                 where))

    def _unrolled_set(self, node: Node, scope, st, coll: Value, elem: str) -> Value:
        """An aggregate over a small fixed set of pips written out, one term per pip, each
        folded with its pip known (`theirs(3)` reads `b[3]`, a range ending at a fixed pip is
        fixed in turn). The loop form is compiled first, so a snippet is checked, and its size
        counted, exactly as without this; the written-out form is kept when it stays small."""
        saved = self._hoisted
        self._hoisted = None if saved is None else []
        before = st.nodes
        try:
            loop = self._aggregate_loop(node, scope, st, coll, elem)
        finally:
            self._hoisted = saved
        after = st.nodes
        if (after - before) * len(coll.const) <= MAX_UNROLL_NODES:
            # first with nothing hoisted inside: when the whole aggregate reads only the position
            # before the roll it is computed once per roll as one expression, which stops at its
            # first deciding term; otherwise again with its position parts hoisted
            self._hoisted = None
            try:
                value: Value | None = self._unroll_terms(node, scope, st, coll.const)
            except SnippetError:
                value = None
            finally:
                self._hoisted = saved
            if saved is not None and value is not None and not self._hoistable(value):
                mark = len(saved)
                try:
                    value = self._unroll_terms(node, scope, st, coll.const)
                except SnippetError:
                    value = None
                if value is None or len(value.code) > MAX_UNROLL_CHARS:
                    del saved[mark:]
            if value is not None and len(value.code) <= MAX_UNROLL_CHARS:
                self._wrote_out = True
                return self._hoist(value)
        if saved is None:
            return loop
        # compiled again as a loop, this time with its parts computed once per roll
        st.nodes = before
        loop = self._aggregate_loop(node, scope, st, coll, elem)
        st.nodes = after
        return loop

    def _unroll_terms(self, node: Node, scope, st, pips: frozenset[int]) -> Value:
        agg, var, _coll, where_node, body_node = node.args
        state = _State(st.context, st.key_path, st.expanding, 0, st.aggregates + 1)
        terms: list[tuple[str | None, Value | None, int]] = []
        for p in sorted(pips):
            inner = dict(scope)
            inner[var] = _const(INT, p)
            cond = None
            if where_node is not None:
                where = self._expr(where_node, inner, state)
                if where.is_const:
                    if not where.const:
                        continue
                else:
                    cond = f"({where.code})"
            body = None if body_node is None else self._expr(body_node, inner, state)
            terms.append((cond, body, p))
        if agg == "count":
            n = sum(1 for cond, _b, _p in terms if cond is None)
            parts = [f"(1 if {cond} else 0)" for cond, _b, _p in terms if cond is not None]
            if not parts:
                return _const(INT, n)
            return Value(INT, "(" + " + ".join(([str(n)] if n else []) + parts) + ")")
        if agg == "sum":
            total = 0
            parts = []
            for cond, body, p in terms:
                body = _const(INT, p) if body is None else body
                if cond is None and body.is_const:
                    total += body.const
                elif cond is None:
                    parts.append(f"({body.code})")
                else:
                    parts.append(f"(({body.code}) if {cond} else 0)")
            if not parts:
                return _const(INT, total)
            return Value(INT, "(" + " + ".join(([str(total)] if total else []) + parts) + ")")
        parts = []
        if agg == "any":
            for cond, body, _p in terms:
                if body is None or body.is_const:
                    if body is not None and not body.const:
                        continue
                    if cond is None:
                        return _const(BOOL, True)
                    parts.append(cond)
                else:
                    parts.append(f"({body.code})" if cond is None
                                 else f"({cond} and ({body.code}))")
            if not parts:
                return _const(BOOL, False)
            return Value(BOOL, "(" + " or ".join(parts) + ")")
        # all
        for cond, body, _p in terms:
            assert body is not None
            if body.is_const:
                if body.const:
                    continue
                if cond is None:
                    return _const(BOOL, False)
                parts.append(f"(not {cond})")
            else:
                parts.append(f"({body.code})" if cond is None
                             else f"(not {cond} or ({body.code}))")
        if not parts:
            return _const(BOOL, True)
        return Value(BOOL, "(" + " and ".join(parts) + ")")

    def _unrolled(self, node: Node, scope, st, distinct: bool) -> Value:
        """An aggregate over the dice (`numbers`, `dice`) written out for d1 and d2: the
        collection has at most two items, and a loop would cost more than the work."""
        agg, var, _coll, where_node, body_node = node.args
        parts = []
        st.aggregates += 1
        for die in ("d1", "d2"):
            inner = dict(scope)
            inner[var] = Value(INT, die)
            where = None if where_node is None else self._expr(where_node, inner, st)
            if where is not None and where.type != BOOL:
                raise where_node.error("dsl-type", f"`where` needs a condition, not "
                                       f"{TYPE_WORDS[where.type]}")
            body = None if body_node is None else self._expr(body_node, inner, st)
            parts.append((where, body))
        st.aggregates -= 1
        (w1, b1), (w2, b2) = parts
        # the second number counts unless `numbers` of a doublet (then there is only one)
        second = "(d1 != d2) and " if distinct else ""
        cond = lambda w: "True" if w is None else self._materialise(w)  # noqa: E731
        if agg == "count":
            if body_node is not None:
                raise body_node.error("dsl-syntax", "`count` counts what `where` keeps; it has "
                                      "no `:` part")
            return Value(INT, f"((1 if {cond(w1)} else 0) + (1 if {second}{cond(w2)} else 0))")
        if agg in ("any", "all"):
            if b1 is None:
                if w1 is None or agg == "all":
                    raise node.error("dsl-syntax", f"`{agg}` needs a condition after `:`")
                b1 = b2 = Value(BOOL, "True")
            if b1.type != BOOL:
                raise body_node.error("dsl-type", f"`{agg}` needs a condition after `:`, not "
                                      f"{TYPE_WORDS[b1.type]}")
            if agg == "any":
                return Value(BOOL, f"(({cond(w1)} and {b1.code}) or ({second}{cond(w2)} and "
                                   f"{b2.code}))")
            skip = "(d1 == d2) or " if distinct else ""
            return Value(BOOL, f"((not {cond(w1)} or {b1.code}) and ({skip}not {cond(w2)} or "
                               f"{b2.code}))")
        if b1 is None:
            b1, b2 = Value(INT, "d1"), Value(INT, "d2")
        if agg == "union":
            if b1.type not in (INT, SET):
                raise body_node.error("dsl-type", "`union` collects numbers or sets")
            one = lambda b: f"({self._materialise(b)},)" if b.type == INT else self._materialise(b)  # noqa: E731
            return Value(SET, f"_union(({one(b1)} if {cond(w1)} else (), {one(b2)} if "
                              f"{second}{cond(w2)} else ()))")
        if b1.type != INT:
            raise body_node.error("dsl-type", f"`{agg}` needs a number after `:`, not "
                                  f"{TYPE_WORDS[b1.type]}")
        if agg == "sum":
            return Value(INT, f"(({b1.code} if {cond(w1)} else 0) + ({b2.code} if "
                              f"{second}{cond(w2)} else 0))")
        return Value(INT, f"{agg}(([{b1.code}] if {cond(w1)} else []) + ([{b2.code}] if "
                          f"{second}{cond(w2)} else []), default=0)")

    def _hoist(self, value: Value) -> Value:
        """In a per-play rule, compute once per roll what depends only on the position before."""
        if self._hoisted is None or value.is_const or not self._hoistable(value):
            return value
        name = f"_h{len(self._hoisted)}"
        self._hoisted.append((name, value.code))
        return Value(value.type, name)

    @staticmethod
    def _hoistable(value: Value) -> bool:
        """Whether the value reads only the position before the roll (and constants)."""
        names = set(_IDENT.findall(value.code))
        bound = set(_BOUND.findall(value.code))
        return not (names & _PER_PLAY or any(n.startswith("_v") and n not in bound
                                             for n in names))

    def _aggregate_value(self, agg, node, body_node, elem, binder, loop, body, where) -> Value:
        if agg == "count":
            if body is not None:
                raise body_node.error("dsl-syntax", "`count` counts what `where` keeps; it has "
                                      "no `:` part")
            return Value(INT, f"sum(1 {loop})")
        if agg == "union":
            if body is None:
                if elem != INT:
                    raise node.error("dsl-type", "`union` without `:` collects numbers")
                return Value(SET, f"frozenset({binder} {loop})")
            if body.type not in (INT, SET):
                raise body_node.error("dsl-type", "`union` collects numbers or sets")
            return Value(SET, f"_union({self._materialise(body)} {loop})")
        if agg in ("any", "all"):
            if body is None:
                if where is None or agg == "all":
                    raise node.error("dsl-syntax", f"`{agg}` needs a condition after `:`")
                return Value(BOOL, f"any(True {loop})")
            if body.type != BOOL:
                raise body_node.error("dsl-type", f"`{agg}` needs a condition after `:`, not "
                                      f"{TYPE_WORDS[body.type]}")
            return Value(BOOL, f"{agg}({self._materialise(body)} {loop})")
        # sum, max, min
        if body is None:
            if elem != INT:
                raise node.error("dsl-syntax", f"`{agg}` needs a number after `:`")
            body = Value(INT, binder)
        if body.type != INT:
            raise body_node.error("dsl-type", f"`{agg}` needs a number after `:`, not "
                                  f"{TYPE_WORDS[body.type]}")
        if agg == "sum":
            return Value(INT, f"sum({self._materialise(body)} {loop})")
        return Value(INT, f"{agg}(({self._materialise(body)} {loop}), default=0)")

    def _x_set(self, node: Node, scope, st) -> Value:
        values = [self._expr(a, scope, st) for a in node.args]
        for v, a in zip(values, node.args):
            if v.type != INT:
                raise a.error("dsl-type", f"a set holds numbers, not {TYPE_WORDS[v.type]}")
        if all(v.is_const for v in values):
            return _const(SET, {v.const for v in values})
        return Value(SET, "frozenset((" + "".join(f"{v.code}, " for v in values) + "))")

    def _x_range(self, node: Node, scope, st) -> Value:
        lo, hi = (self._int(a, scope, st, "a range") for a in node.args)
        if lo.is_const and hi.is_const:
            return _const(SET, range(lo.const, hi.const + 1))
        # a range between two board pips holds only board pips: its binders index the board
        on_board = all(v.on_board or (v.is_const and 1 <= v.const <= 24) for v in (lo, hi))
        return Value(SET, f"range({lo.code}, {hi.code} + 1)", on_board=on_board)

    def _int(self, node: Node, scope, st, what: str) -> Value:
        v = self._expr(node, scope, st)
        if v.type != INT:
            raise node.error("dsl-type", f"{what} needs a number here, not {TYPE_WORDS[v.type]}")
        return v

    def _bool(self, node: Node, scope, st, what: str) -> Value:
        v = self._expr(node, scope, st)
        if v.type != BOOL:
            raise node.error("dsl-type", f"`{what}` needs a condition, not {TYPE_WORDS[v.type]}")
        return v

    def _x_member(self, node: Node, scope, st) -> Value:
        item = self._int(node.args[0], scope, st, "`in`")
        coll = self._expr(node.args[1], scope, st)
        if coll.type not in (SET, LIST_INT):
            raise node.args[1].error("dsl-type", f"`in` looks in a region, a range or a set, not "
                                     f"{TYPE_WORDS[coll.type]}")
        if item.is_const and coll.is_const:
            return _const(BOOL, item.const in coll.const)
        return Value(BOOL, f"({item.code} in {self._materialise(coll)})")

    def _x_binop(self, node: Node, scope, st) -> Value:
        op, left_node, right_node = node.args
        left = self._int(left_node, scope, st, f"`{op}`")
        right = self._int(right_node, scope, st, f"`{op}`")
        if left.is_const and right.is_const:
            a, b = left.const, right.const
            value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                     "//": lambda: a // b if b else 0, "%": lambda: a % b if b else 0}[op]()
            return _const(INT, value)
        if op == "//":
            return Value(INT, f"_div({left.code}, {right.code})")
        if op == "%":
            return Value(INT, f"_mod({left.code}, {right.code})")
        return Value(INT, f"({left.code} {op} {right.code})")

    def _x_neg(self, node: Node, scope, st) -> Value:
        v = self._int(node.args[0], scope, st, "`-`")
        return _const(INT, -v.const) if v.is_const else Value(INT, f"(-{v.code})")

    def _x_compare(self, node: Node, scope, st) -> Value:
        op, left_node, right_node = node.args
        left = self._expr(left_node, scope, st)
        right = self._expr(right_node, scope, st)
        if STR in (left.type, right.type):
            return self._compare_option(node, op, left, right, left_node, right_node)
        if left.type != right.type or left.type not in (INT, BOOL) or (
                left.type == BOOL and op not in ("==", "!=")):
            raise node.error("dsl-type", f"cannot compare {TYPE_WORDS[left.type]} with "
                             f"{TYPE_WORDS[right.type]} using `{op}`")
        if left.is_const and right.is_const:
            return _const(BOOL, _COMPARE[op](left.const, right.const))
        return Value(BOOL, f"({left.code} {op} {right.code})")

    def _compare_option(self, node, op, left, right, left_node, right_node) -> Value:
        if left.type != STR or right.type != STR or op not in ("==", "!="):
            raise node.error("dsl-type", "a string can only be compared (== or !=) with an "
                             "option such as options.exact_exit")
        # an option on one side and a literal on the other: the literal must be one of its choices
        for option_node, literal_node, literal in ((left_node, right_node, right),
                                                   (right_node, left_node, left)):
            choices = self._choices_of(option_node)
            if literal_node.kind == "string" and choices and literal.const not in choices:
                raise literal_node.error(
                    "dsl-option", f"{literal.const!r} is not a choice of this option (choices: "
                    f"{', '.join(repr(c) for c in choices)})")
        return _const(BOOL, _COMPARE[op](left.const, right.const))

    def _choices_of(self, node: Node) -> list[Any]:
        if node.kind == "attr" and node.args[0].kind == "name" and node.args[0].args[0] == "options":
            return list(self.symbols.option_choices.get(node.args[1], []))
        return []

    def _x_and_op(self, node: Node, scope, st) -> Value:
        return self._logic(node, "and", scope, st)

    def _x_or_op(self, node: Node, scope, st) -> Value:
        return self._logic(node, "or", scope, st)

    def _logic(self, node: Node, op: str, scope, st) -> Value:
        left = self._bool(node.args[0], scope, st, op)
        if left.is_const and left.const == (op == "or"):
            # the right side is still checked, but nothing of it is kept or computed
            saved, self._hoisted = self._hoisted, None if self._hoisted is None else []
            self._bool(node.args[1], scope, st, op)
            self._hoisted = saved
            return left
        right = self._bool(node.args[1], scope, st, op)
        if left.is_const:
            if left.const == (op == "or"):
                return left
            return right
        if right.is_const and right.const == (op == "and"):
            return left
        if right.is_const:          # `x and false` / `x or true`
            return right
        return Value(BOOL, f"({left.code} {op} {right.code})")

    def _x_not_op(self, node: Node, scope, st) -> Value:
        v = self._bool(node.args[0], scope, st, "not")
        return _const(BOOL, not v.const) if v.is_const else Value(BOOL, f"(not {v.code})")

    def _x_if(self, node: Node, scope, st) -> Value:
        cond = self._bool(node.args[0], scope, st, "if")
        then = self._expr(node.args[1], scope, st)
        other = self._expr(node.args[2], scope, st)
        if then.type != other.type:
            raise node.error("dsl-type", f"both branches of `if` must give the same kind of "
                             f"value ({TYPE_WORDS[then.type]} / {TYPE_WORDS[other.type]})")
        if cond.is_const:
            return then if cond.const else other
        return Value(then.type, f"({self._materialise(then)} if {cond.code} else "
                                f"{self._materialise(other)})")

    # -- constants ------------------------------------------------------------------------------

    def _materialise(self, value: Value) -> str:
        if value.type == SET and value.is_const:
            key = value.const
            if key not in self._const_names:
                name = f"_K{len(self._const_names)}"
                self._const_names[key] = name
                self.constants[name] = frozenset(key)
            return self._const_names[key]
        if value.type == STR:
            raise AssertionError("strings are folded before code is emitted")  # pragma: no cover
        return value.code

    def _emit_func(self, name: str, args: list[Value], result: str) -> Value:
        codes = [self._materialise(a) for a in args]
        if name == "size":
            if args[0].is_const:
                return _const(INT, len(args[0].const))
            return Value(INT, f"len({codes[0]})")
        if name == "abs":
            return Value(INT, f"({codes[0]} if {codes[0]} >= 0 else -{codes[0]})")
        return Value(result, f"_{name}({', '.join(codes)})")


#: the code of `numbers` and `dice`, and whether the collection drops the second of a doublet
_DICE_CODES = {"((d1,) if d1 == d2 else (d1, d2))": True, "(d1, d2)": False}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BOUND = re.compile(r"for (_[a-z]\d*) in")
_PER_PLAY = {"a", "x", "d1", "d2", "rolls", "ctx"}

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


@dataclass
class _State:
    context: str
    key_path: tuple[str, ...]
    expanding: tuple[str, ...] = ()
    nodes: int = 0
    aggregates: int = 0


def _words(types: tuple[str, ...], sep: str = " or ") -> str:
    return sep.join(TYPE_WORDS.get(t, t) for t in types)


def parse_definition_key(key: str, body: str) -> Definition:
    """`[define]` keys are `name` or `name(p, q)`; the value is the body."""
    try:
        head = parse(key, "define_start")
    except SnippetError as err:
        raise err.at(("define", key)) from None
    name, *params = head.args
    if len(set(params)) != len(params):
        raise SnippetError("dsl-syntax", f"`{key}` names a parameter twice", key_path=("define", key))
    clash = name if name in BUILTIN_NAMES else next((p for p in params if p in BUILTIN_NAMES), None)
    if clash:
        raise SnippetError("dsl-shadow", f"`{clash}` is a built-in name of the rule language and "
                           f"cannot be redefined", key_path=("define", key))
    d = Definition(name, params, body, key)
    try:
        d.body = parse(body)
    except SnippetError as err:
        d.error = err.at(("define", key))
    return d


__all__ = ["Compiler", "Symbols", "Definition", "SnippetError", "parse_definition_key",
           "ROLL", "FORBID", "CHOICE", "END", "INT", "BOOL", "MAX_DEPTH"]
