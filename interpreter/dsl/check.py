"""The checking pass: from a snippet's syntax tree to the compiler's typed tree.

Every name is resolved (the hook's own names, the vocabulary, the file's regions, options and
definitions), every call's arity and every type checked, and each name checked against the kind
of rule it is used in. Definitions are expanded where they are used: a definition's parameters
take the types of its arguments, so its body is checked at each use, with the arguments'
trees in place of its parameters. Errors carry the snippet's position; an error inside a
definition points into the definition.

Expansion is bounded: the parts built for one rule are counted (MAX_NODES), so a definition
that doubles at every level is refused before it is written out.
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass, field
from typing import Any, cast

from interpreter.dsl import core as C
from interpreter.dsl import syntax as S
from interpreter.dsl.core import (BOOL, CONTEXT_WORDS, ELEMENT, INT, LIST_INT, PLAY, SET, STATE,
                                  STR, TYPE_WORDS, Expr, Where)
from interpreter.dsl.limits import (MAX_AGGREGATE_NESTING, MAX_EXPANDED_DEPTH, MAX_LITERAL,
                                   MAX_NODES)
from interpreter.dsl.parser import parse
from interpreter.dsl.syntax import SnippetError
from interpreter.dsl.vocabulary import (AGGREGATES, BUILTIN_NAMES, COLLECTION, FIELDS, FUNCTIONS,
                                        YIELDING,
                                        TWO_DICE_NAMES, VALUES, Env)

_PARAM_WORDS = {**TYPE_WORDS, COLLECTION: "a region, a set or a list"}


@dataclass
class Definition:
    name: str
    params: list[str]
    body_text: str
    key: str
    body: S.Syntax | None = None
    error: SnippetError | None = None
    #: the error is this definition's own, not that of a definition it uses
    root_error: bool = True


@dataclass
class Symbols:
    """What a variant file declares for its snippets: regions, definitions, options, constants."""

    regions: dict[str, frozenset[int]] = field(default_factory=dict)
    definitions: dict[str, Definition] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    option_choices: dict[str, list[Any]] = field(default_factory=dict)
    checkers: int = 15
    #: the board's layout the rules read (kernel.board.Geometry): the route, pins, checkers
    #: waiting off the board
    route: str = "opposite"
    pins: bool = False
    pool: bool = False
    #: how many times a doublet is played (the cost model bounds the paths and plays by it)
    doublet_moves: int = 4
    #: the dice of a throw (`[turn] count`): 2, or 3
    dice: int = 2
    #: the named state of `[turn.state]`: name → (the board slot of the mover's value, whether
    #: it is true/false)
    state: dict[str, tuple[int, bool]] = field(default_factory=dict)
    #: the movement switches `can_move` reads (vocabulary.Env.moves)
    moves: tuple[int, int, int, int, int] = (2, 6, 0, 1, 0)
    #: why `can_move` cannot answer for these switches (empty: it can)
    no_can_move: str = ""
    #: the length of each side's route (`[board] points`)
    points: int = 24
    #: the limit of men a point `can_move` reads (`[movement] limit`; 0: none) and the pips it
    #: applies to, as a mask (bit p: pip p)
    limit: int = 0
    limited: int = 0


@dataclass
class _State:
    context: str
    key_path: tuple[str, ...]
    #: the definitions being expanded, outermost first
    expanding: tuple[str, ...] = ()
    #: inside a definition: where its outermost use stands in the rule's own snippet
    site: Where | None = None
    aggregates: int = 0


def words(types: tuple[str, ...], sep: str = " or ") -> str:
    return sep.join(_PARAM_WORDS.get(t, t) for t in types)


class Checker:
    """Checks the snippets of one hook and builds their typed trees."""

    def __init__(self, symbols: Symbols, env: Env, binders: itertools.count):
        self.symbols = symbols
        self.env = env
        self._binders = binders
        #: syntax nodes visited for the current hook, definitions' bodies at each use included
        self.nodes = 0
        #: how deep the checker is in the expanded rule
        self.depth = 0
        #: the definitions (their `[define]` keys) and the regions the hook uses
        self.uses: list[str] = []
        self.regions_used: list[str] = []

    # -- entry point ------------------------------------------------------------------------------

    def check(self, node: S.Syntax, context: str, key_path: tuple[str, ...]) -> Expr:
        self.nodes = 0
        self.depth = 0
        self.uses = []
        self.regions_used = []
        return self.expr(node, {}, _State(context, key_path))

    # -- helpers ----------------------------------------------------------------------------------

    @staticmethod
    def _where(node: S.Syntax, st: _State) -> Where:
        p = node.pos
        return Where(st.key_path, p.line, p.col, p.length)

    def _err(self, node: S.Syntax, st: _State, code: str, message: str) -> SnippetError:
        p = node.pos
        return SnippetError(code, message, p.line, p.col, p.length, st.key_path)

    def _mk(self, node: Expr, syn: S.Syntax, st: _State) -> Expr:
        """Give a new node its positions and count it against the rule's size."""
        at = self._where(syn, st)
        node.at = at
        node.site = st.site or at
        if node.size > MAX_NODES:
            raise self._too_large(syn, st)
        return node

    def _stamp(self, node: Expr, syn: S.Syntax, st: _State) -> Expr:
        """Positions for a tree the vocabulary made (every node of it is new)."""
        at = self._where(syn, st)
        for n in C.walk(node):
            if n.at is C.NOWHERE:
                n.at, n.site = at, st.site or at
        return node

    def _too_large(self, syn: S.Syntax, st: _State) -> SnippetError:
        return self._err(syn, st, "dsl-limit", f"the rule is too large once its definitions are "
                         f"expanded (more than {MAX_NODES} parts)")

    def _int(self, node: S.Syntax, scope, st: _State, what: str) -> Expr:
        v = self.expr(node, scope, st)
        if v.type != INT:
            raise self._err(node, st, "dsl-type", f"{what} needs a number here, not "
                            f"{TYPE_WORDS[v.type]}")
        return v

    def _bool(self, node: S.Syntax, scope, st: _State, what: str) -> Expr:
        v = self.expr(node, scope, st)
        if v.type != BOOL:
            raise self._err(node, st, "dsl-type", f"`{what}` needs a condition, not "
                            f"{TYPE_WORDS[v.type]}")
        return v

    # -- expressions ------------------------------------------------------------------------------

    def expr(self, node: S.Syntax, scope: dict[str, Expr], st: _State) -> Expr:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self._too_large(node, st)
        if self.depth >= MAX_EXPANDED_DEPTH:
            raise self._err(node, st, "dsl-limit", f"the rule nests deeper than "
                            f"{MAX_EXPANDED_DEPTH} levels once its definitions are expanded")
        self.depth += 1
        try:
            return _CHECKS[type(node)](self, node, scope, st)
        finally:
            self.depth -= 1

    def _x_Num(self, node: S.Num, scope, st) -> Expr:
        return self._mk(C.Const(node.value, type=INT), node, st)

    def _x_Bool(self, node: S.Bool, scope, st) -> Expr:
        return self._mk(C.Const(node.value, type=BOOL), node, st)

    def _x_Str(self, node: S.Str, scope, st) -> Expr:
        return self._mk(C.Const(node.value, type=STR), node, st)

    def _x_Name(self, node: S.Name, scope, st) -> Expr:
        name = node.id
        if name in scope:
            return scope[name]
        value = VALUES.get(name)
        if value is not None and name in YIELDING and (
                name in self.symbols.regions or name in self.symbols.definitions
                or name in self.symbols.state):
            value = None        # the file's own name (vocabulary.YIELDING)
        if value is not None:
            if value.contexts is not None and st.context not in value.contexts:
                raise self._err(node, st, "dsl-context", f"`{name}` is not available in "
                                f"{CONTEXT_WORDS[st.context]}")
            if name in TWO_DICE_NAMES and self.symbols.dice == 3:
                # it would read two of the three dice, silently (vocabulary.TWO_DICE_NAMES)
                raise self._err(node, st, "dsl-context", f"`{name}` reads two dice, and a throw "
                                f"of this variant has three (`[turn] count = 3`): it would see "
                                f"only two of them, so it is not available here")
            return self._stamp(value.make(self.env), node, st)
        if name in self.symbols.regions:
            if name not in self.regions_used:
                self.regions_used.append(name)
            return self._mk(C.Const(self.symbols.regions[name], type=SET), node, st)
        if name in self.symbols.definitions:
            return self._inline(node, name, [], scope, st)
        held = self.symbols.state.get(name)
        if held is not None:
            # the mover's value of a named state, in its slot of the hook's own position
            slot, flag = held
            return self._mk(C.Item(self._stamp(C.Param(name="b", type=STATE), node, st), slot,
                                   type=BOOL if flag else INT), node, st)
        if name in FUNCTIONS:
            raise self._err(node, st, "dsl-arity", f"`{name}` is a function: write {name}(...)")
        raise self._err(node, st, "dsl-unknown-name", self._unknown(name, scope))

    def _unknown(self, name: str, scope: dict[str, Expr]) -> str:
        known = [*scope, *VALUES, *self.symbols.regions, *self.symbols.definitions,
                 *self.symbols.state]
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        return f"unknown name `{name}`{hint}"

    def _x_Call(self, node: S.Call, scope, st) -> Expr:
        name, arg_nodes = node.name, node.args
        if name in scope:
            raise self._err(node, st, "dsl-arity", f"`{name}` is a value, not a function")
        if name in self.symbols.definitions:
            return self._inline(node, name, arg_nodes, scope, st)
        fn = FUNCTIONS.get(name)
        if fn is not None:
            if fn.contexts is not None and st.context not in fn.contexts:
                raise self._err(node, st, "dsl-context", f"`{name}` is not available in "
                                f"{CONTEXT_WORDS[st.context]}")
            receiver = None
            if fn.position:
                receiver = self._stamp(C.Param(name="b", type=STATE), node, st)
            return self._call(node, name, arg_nodes, receiver, scope, st)
        if name in AGGREGATES:
            raise self._err(node, st, "dsl-syntax", f"`{name}` takes a binder: "
                            f"{name}(p in region ...)")
        raise self._err(node, st, "dsl-unknown-name",
                        self._unknown(name, scope).replace("name", "function", 1))

    def _call(self, node: S.Syntax, name: str, arg_nodes: list[S.Syntax], receiver: Expr | None,
              scope, st) -> Expr:
        fn = FUNCTIONS[name]
        params = fn.params
        if len(arg_nodes) != len(params):
            raise self._err(node, st, "dsl-arity", f"`{name}` takes {len(params)} argument"
                            f"{'s' if len(params) != 1 else ''} ({words(params, ' and ')}), "
                            f"not {len(arg_nodes)}")
        args: list[Expr] = []
        for arg, want in zip(arg_nodes, params):
            value = self.expr(arg, scope, st)
            if want == COLLECTION:
                if value.type not in ELEMENT:
                    raise self._err(arg, st, "dsl-type", f"`{name}` counts a region, a set or a "
                                    f"list, not {TYPE_WORDS[value.type]}")
            elif value.type != want:
                raise self._err(arg, st, "dsl-type", f"argument of `{name}` must be "
                                f"{TYPE_WORDS[want]}, not {TYPE_WORDS[value.type]}")
            args.append(value)
        if receiver is not None:
            if receiver.type == PLAY:
                receiver = self._mk(C.Item(receiver, 0, type=STATE), node, st)
            args.insert(0, receiver)
        if name in ("can_move", "opponent_can_move") and self.env.no_can_move:
            raise self._err(node, st, "dsl-context", f"`{name}()` is not available in this "
                            f"variant: {self.env.no_can_move}")
        if fn.expand is not None:
            # a formula of the variant's layout: its nodes in place of the call
            formula = fn.expand(self.env, args)
            if formula is not None:
                return self._mk(self._stamp(formula, node, st), node, st)
        return self._mk(C.Call(name, tuple(args), type=fn.result), node, st)

    def _x_Method(self, node: S.Method, scope, st) -> Expr:
        receiver = self.expr(node.recv, scope, st)
        name = node.name
        if receiver.type not in (STATE, PLAY):
            raise self._err(node, st, "dsl-type", f"`.{name}(...)` needs a position or a play "
                            f"before the dot, not {TYPE_WORDS[receiver.type]}")
        fn = FUNCTIONS.get(name)
        if fn is None or not fn.position:
            have = ", ".join(sorted(n for n, f in FUNCTIONS.items() if f.position))
            raise self._err(node, st, "dsl-unknown-name", f"a position has no function "
                            f"`{name}`; it has {have}")
        return self._call(node, name, node.args, receiver, scope, st)

    def _x_Attr(self, node: S.Attr, scope, st) -> Expr:
        recv, name = node.recv, node.name
        if isinstance(recv, S.Name) and recv.id == "options" and "options" not in scope:
            return self._option(node, name, st)
        receiver = self.expr(recv, scope, st)
        table = FIELDS.get(receiver.type)
        if table is None or name not in table:
            have = ", ".join(sorted(table)) if table else "no fields"
            raise self._err(node, st, "dsl-unknown-name", f"{TYPE_WORDS[receiver.type]} has no "
                            f"field `{name}` ({have})")
        return self._stamp(table[name].make(receiver), node, st)

    def _option(self, node: S.Syntax, name: str, st: _State) -> Expr:
        options = self.symbols.options
        if name not in options:
            close = difflib.get_close_matches(name, list(options), n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise self._err(node, st, "dsl-unknown-name", f"the file declares no option "
                            f"`{name}`{hint}")
        value = options[name]
        if isinstance(value, bool):
            return self._mk(C.Const(value, type=BOOL), node, st)
        if isinstance(value, int):
            if abs(value) > MAX_LITERAL:
                raise self._err(node, st, "dsl-limit", f"option `{name}` is {value}; a snippet "
                                f"reads numbers of at most {MAX_LITERAL:,}")
            return self._mk(C.Const(value, type=INT), node, st)
        if not isinstance(value, str):
            raise self._err(node, st, "dsl-type", f"option `{name}` holds "
                            f"{type(value).__name__} values, which a snippet cannot read")
        return self._mk(C.Const(value, type=STR), node, st)

    def _inline(self, node: S.Syntax, name: str, arg_nodes: list[S.Syntax], scope, st) -> Expr:
        d = self.symbols.definitions[name]
        if d.error is not None:
            raise d.error
        if len(arg_nodes) != len(d.params):
            raise self._err(node, st, "dsl-arity", f"`{name}` takes {len(d.params)} argument"
                            f"{'s' if len(d.params) != 1 else ''}, not {len(arg_nodes)}")
        if name in st.expanding:
            raise self._err(node, st, "dsl-recursion", f"`{name}` is defined in terms of itself "
                            f"({' → '.join([*st.expanding, name])})")
        args = [self.expr(a, scope, st) for a in arg_nodes]
        if d.key not in self.uses:
            self.uses.append(d.key)
        inner = _State(st.context, ("define", d.key), st.expanding + (name,),
                       st.site or self._where(node, st), st.aggregates)
        assert d.body is not None
        value = self.expr(d.body, dict(zip(d.params, args)), inner)
        if value.size > MAX_NODES:
            raise self._too_large(node, st)
        return value

    def _x_Aggregate(self, node: S.Aggregate, scope, st) -> Expr:
        agg = node.agg
        if st.aggregates >= MAX_AGGREGATE_NESTING:
            raise self._err(node, st, "dsl-limit", f"aggregates nest at most "
                            f"{MAX_AGGREGATE_NESTING} deep")
        coll = self.expr(node.coll, scope, st)
        if coll.type not in ELEMENT:
            raise self._err(node.coll, st, "dsl-type", f"`{agg}` runs over a region, a range or "
                            f"a list, not {TYPE_WORDS[coll.type]}")
        elem = ELEMENT[coll.type]
        binder = self._mk(C.Local(next(self._binders), type=elem), node, st)
        inner = dict(scope)
        inner[node.var] = binder
        st.aggregates += 1
        try:
            where = None
            if node.where is not None:
                where = self.expr(node.where, inner, st)
                if where.type != BOOL:
                    raise self._err(node.where, st, "dsl-type", f"`where` needs a condition, not "
                                    f"{TYPE_WORDS[where.type]}")
            body = None if node.body is None else self.expr(node.body, inner, st)
        finally:
            st.aggregates -= 1
        result, body = self._aggregate_shape(node, agg, elem, binder, where, body, st)
        agg_node = C.Agg(agg, binder, coll, where, body, type=result)  # type: ignore[arg-type]
        return self._mk(agg_node, node, st)

    def _aggregate_shape(self, node: S.Aggregate, agg: str, elem: str, binder: Expr,
                         where: Expr | None, body: Expr | None, st) -> tuple[str, Expr]:
        """The aggregate's type, and its body made explicit (`sum(p in r)` sums p)."""
        body_node = cast(S.Syntax, node.body)   # read only where `body` (its checked form) is
        if agg == "count":
            if body is not None:
                raise self._err(body_node, st, "dsl-syntax", "`count` counts what `where` keeps; "
                                "it has no `:` part")
            return INT, self._mk(C.Const(1, type=INT), node, st)
        if agg == "union":
            if body is None:
                if elem != INT:
                    raise self._err(node, st, "dsl-type", "`union` without `:` collects numbers")
                return SET, binder
            if body.type not in (INT, SET):
                raise self._err(body_node, st, "dsl-type", "`union` collects numbers or sets")
            return SET, body
        if agg in ("any", "all"):
            if body is None:
                if where is None or agg == "all":
                    raise self._err(node, st, "dsl-syntax", f"`{agg}` needs a condition after `:`")
                return BOOL, self._mk(C.Const(True, type=BOOL), node, st)
            if body.type != BOOL:
                raise self._err(body_node, st, "dsl-type", f"`{agg}` needs a condition after "
                                f"`:`, not {TYPE_WORDS[body.type]}")
            return BOOL, body
        # sum, max, min
        if body is None:
            if elem != INT:
                raise self._err(node, st, "dsl-syntax", f"`{agg}` needs a number after `:`")
            return INT, binder
        if body.type != INT:
            raise self._err(body_node, st, "dsl-type", f"`{agg}` needs a number after `:`, not "
                            f"{TYPE_WORDS[body.type]}")
        return INT, body

    def _x_SetLit(self, node: S.SetLit, scope, st) -> Expr:
        items = []
        for a in node.items:
            v = self.expr(a, scope, st)
            if v.type != INT:
                raise self._err(a, st, "dsl-type", f"a set holds numbers, not {TYPE_WORDS[v.type]}")
            items.append(v)
        return self._mk(C.SetOf(tuple(items), type=SET), node, st)

    def _x_Range(self, node: S.Range, scope, st) -> Expr:
        lo = self._int(node.lo, scope, st, "a range")
        hi = self._int(node.hi, scope, st, "a range")
        return self._mk(C.Range(lo, hi, type=SET), node, st)

    def _x_Member(self, node: S.Member, scope, st) -> Expr:
        item = self._int(node.item, scope, st, "`in`")
        coll = self.expr(node.coll, scope, st)
        if coll.type not in (SET, LIST_INT):
            raise self._err(node.coll, st, "dsl-type", f"`in` looks in a region, a range or a "
                            f"set, not {TYPE_WORDS[coll.type]}")
        return self._mk(C.Member(item, coll, type=BOOL), node, st)

    def _x_BinOp(self, node: S.BinOp, scope, st) -> Expr:
        left = self._int(node.left, scope, st, f"`{node.op}`")
        right = self._int(node.right, scope, st, f"`{node.op}`")
        return self._mk(C.Arith(node.op, left, right, type=INT), node, st)

    def _x_Neg(self, node: S.Neg, scope, st) -> Expr:
        v = self._int(node.operand, scope, st, "`-`")
        return self._mk(C.Neg(v, type=INT), node, st)

    def _x_Compare(self, node: S.Compare, scope, st) -> Expr:
        op = node.op
        left = self.expr(node.left, scope, st)
        right = self.expr(node.right, scope, st)
        if STR in (left.type, right.type):
            self._compare_strings(node, left, right, st)
        elif left.type != right.type or left.type not in (INT, BOOL) or (
                left.type == BOOL and op not in ("==", "!=")):
            raise self._err(node, st, "dsl-type", f"cannot compare {TYPE_WORDS[left.type]} with "
                            f"{TYPE_WORDS[right.type]} using `{op}`")
        return self._mk(C.Cmp(op, left, right, type=BOOL), node, st)

    def _compare_strings(self, node: S.Compare, left: Expr, right: Expr, st) -> None:
        if left.type != STR or right.type != STR or node.op not in ("==", "!="):
            raise self._err(node, st, "dsl-type", "a string can only be compared (== or !=) with "
                            "an option such as options.exact_exit")
        # an option on one side and a literal on the other: the literal must be one of its choices
        for option_node, literal_node, literal in ((node.left, node.right, right),
                                                   (node.right, node.left, left)):
            choices = self._choices_of(option_node)
            value = getattr(literal, "value", None)
            if isinstance(literal_node, S.Str) and choices and value not in choices:
                raise self._err(literal_node, st, "dsl-option",
                                f"{value!r} is not a choice of this option (choices: "
                                f"{', '.join(repr(c) for c in choices)})")

    def _choices_of(self, node: S.Syntax) -> list[Any]:
        if isinstance(node, S.Attr) and isinstance(node.recv, S.Name) and node.recv.id == "options":
            return list(self.symbols.option_choices.get(node.name, []))
        return []

    def _x_And(self, node: S.And, scope, st) -> Expr:
        left = self._bool(node.left, scope, st, "and")
        right = self._bool(node.right, scope, st, "and")
        return self._mk(C.And(left, right, type=BOOL), node, st)

    def _x_Or(self, node: S.Or, scope, st) -> Expr:
        left = self._bool(node.left, scope, st, "or")
        right = self._bool(node.right, scope, st, "or")
        return self._mk(C.Or(left, right, type=BOOL), node, st)

    def _x_Not(self, node: S.Not, scope, st) -> Expr:
        v = self._bool(node.operand, scope, st, "not")
        return self._mk(C.Not(v, type=BOOL), node, st)

    def _x_If(self, node: S.If, scope, st) -> Expr:
        cond = self._bool(node.cond, scope, st, "if")
        then = self.expr(node.then, scope, st)
        other = self.expr(node.other, scope, st)
        if then.type != other.type:
            raise self._err(node, st, "dsl-type", f"both branches of `if` must give the same kind "
                            f"of value ({TYPE_WORDS[then.type]} / {TYPE_WORDS[other.type]})")
        return self._mk(C.IfExp(cond, then, other, type=then.type), node, st)

    def _x_Region(self, node, scope, st) -> Expr:  # pragma: no cover - regions use check_region
        raise AssertionError("a region is checked by its parts")

    _x_DefineHead = _x_Region


_CHECKS = {getattr(S, name[3:]): fn for name, fn in vars(Checker).items() if name.startswith("_x_")}


# -- the size and depth of definitions, before any is expanded -------------------------------------

def _children(node: S.Syntax) -> list[S.Syntax]:
    """The parts of a node the checker visits (an option's `options` is not one)."""
    if isinstance(node, S.Attr) and isinstance(node.recv, S.Name) and node.recv.id == "options":
        return []
    out: list[S.Syntax] = []
    for name in type(node).__slots__:
        value = getattr(node, name)
        if isinstance(value, S.Syntax):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, S.Syntax))
    return out


def _uses(d: Definition, symbols: Symbols) -> tuple[int, list[tuple[str, int]]]:
    """The syntax nodes of a definition's body and the definitions it calls, each with the level
    of the call (the body's root is level 0); a parameter or an aggregate variable hides a
    definition of the same name."""
    assert d.body is not None
    nodes = 0
    calls: list[tuple[str, int]] = []
    stack: list[tuple[S.Syntax, int, frozenset[str]]] = [(d.body, 0, frozenset(d.params))]
    while stack:
        node, level, hidden = stack.pop()
        nodes += 1
        name = node.id if isinstance(node, S.Name) else node.name if isinstance(node, S.Call) \
            else None
        if name is not None and name not in hidden and name in symbols.definitions:
            calls.append((name, level))
        inner = hidden | {node.var} if isinstance(node, S.Aggregate) else hidden
        for child in _children(node):
            # an aggregate's variable is bound in its condition and body, not in its collection
            scope = hidden if isinstance(node, S.Aggregate) and child is node.coll else inner
            stack.append((child, level + 1, scope))
    return nodes, calls


def measure_definitions(symbols: Symbols) -> None:
    """Refuse, before expanding anything, the definitions whose expansion visits more than
    MAX_NODES parts or nests deeper than MAX_EXPANDED_DEPTH levels: such a definition gets an
    error (`Definition.error`), which any use of it raises at once. The checker counts both as
    it expands, and these counts are the same; here they are found for every definition in one
    pass over the definitions, so that a file of definitions doubling at every level, or
    chained a thousand deep, is refused without expanding any of them."""
    table = {n: d for n, d in symbols.definitions.items() if d.error is None and d.body}
    facts = {n: _uses(d, symbols) for n, d in table.items()}
    size: dict[str, int] = {}
    depth: dict[str, int] = {}
    cap_size, cap_depth = MAX_NODES + 1, MAX_EXPANDED_DEPTH + 1
    for root in table:
        stack = [(root, False)]
        visiting: set[str] = set()
        while stack:
            name, ready = stack.pop()
            if name in size:
                continue
            callees = [c for c, _l in facts[name][1] if c in table]
            if not ready:
                if name in visiting:       # a cycle: the checker reports the recursion
                    continue
                visiting.add(name)
                stack.append((name, True))
                stack.extend((c, False) for c in callees if c not in size)
                continue
            nodes, calls = facts[name]
            total, deepest = nodes, 0
            for callee, level in calls:
                total += size.get(callee, 0)
                deepest = max(deepest, level + 1 + depth.get(callee, 0))
            deepest = max(deepest, _height(table[name].body))
            size[name] = min(total, cap_size)
            depth[name] = min(deepest, cap_depth)
    for name, d in table.items():
        key_path = ("define", d.key)
        p = d.body.pos  # type: ignore[union-attr]
        if size[name] > MAX_NODES:
            d.error = SnippetError("dsl-limit", f"`{name}` is too large once the definitions it "
                                   f"uses are expanded (more than {MAX_NODES:,} parts)",
                                   p.line, p.col, p.length, key_path)
        elif depth[name] >= MAX_EXPANDED_DEPTH - 1:    # checked alone, it starts a level down
            d.error = SnippetError("dsl-limit", f"`{name}` nests deeper than "
                                   f"{MAX_EXPANDED_DEPTH} levels once the definitions it uses "
                                   f"are expanded", p.line, p.col, p.length, key_path)
        d.root_error = d.error is not None and not any(
            c in table and table[c].error is not None for c, _l in facts[name][1])


def _height(node: S.Syntax | None) -> int:
    best = 0
    stack = [(node, 0)] if node is not None else []
    while stack:
        n, level = stack.pop()
        best = max(best, level)
        stack.extend((c, level + 1) for c in _children(n))
    return best


def parse_definition_key(key: str, body: str) -> Definition:
    """`[define]` keys are `name` or `name(p, q)`; the value is the body."""
    try:
        head = parse(key, "define_start")
    except SnippetError as err:
        raise err.at(("define", key)) from None
    assert isinstance(head, S.DefineHead)
    name, params = head.name, head.params
    if len(set(params)) != len(params):
        raise SnippetError("dsl-syntax", f"`{key}` names a parameter twice",
                           key_path=("define", key))
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
