"""The emitting pass: the compiler's tree to Python `ast` nodes, and the modules around them.

Every name in the generated code is one the compiler makes up or a fixed one (the hook's
parameters, the runtime table), every constant an integer, a boolean or None; fixed sets of
pips live in the namespace as `_K0`, `_K1`... Each module is checked against the whitelist
(`safety.check_module`) before it is compiled, and its text (`ast.unparse`, written when first
asked for) is registered with `linecache` under a made-up file name, so that an error inside
generated code shows its line.

A hook is `hook(b, a, x, d1, d2, rolls, ctx)`. Its batch forms:

- forbid rules: `filter_paths(b, cands, d1, d2, rolls)`, the (path, end board) pairs of one
  roll the rule does not forbid, in order, the parts that read only `b` computed once at the top
  and the landings of a path asked once per path (written out for a two-step path);
- prefer rules and per-play scores: `each(b, plays, d1, d2, rolls, ctx)`, its value for each play;
- the roll's scoring rules together: `roll_function(rules)`, one function writing out every
  rule's expression in turn (`RuleSet.roll_items`).
"""
from __future__ import annotations

import ast
import itertools
import linecache
from dataclasses import dataclass, field
from typing import Any, Callable

from interpreter.dsl import core as C
from interpreter.dsl.core import INT, SET, Expr
from interpreter.dsl.safety import check_module
from interpreter.dsl.vocabulary import FUNCTIONS
from interpreter.threadsafe import compile_tree


_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


#: the roll context's fields read through `ctx.points`
_POINTS = {"my_points": 0, "their_points": 1}


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


class Emitter:
    """Turns one hook's tree into a Python expression. `constants` (shared by the compiler's
    hooks) names each fixed set; `landings_local` writes `landings(path)` as `_lx`, which the
    forbid batch form computes once per path."""

    def __init__(self, namespace: dict[str, Any], constants: dict[frozenset, str],
                 bounds: Callable[[Expr], Any], landings_local: bool = False):
        self.namespace = namespace
        self.constants = constants
        #: the bounds of a part (bounds.Bounds: computed for the parts the optimiser made)
        self.bounds = bounds
        self.landings_local = landings_local
        self.used_landings = False

    def info(self, node: Expr) -> Any:
        return node.info if node.info is not None else self.bounds(node)

    # -- helpers (also for vocabulary.emit functions) ---------------------------------------------

    @staticmethod
    def const(value: int | bool | None) -> ast.Constant:
        return ast.Constant(value)

    @staticmethod
    def name(name: str) -> ast.Name:
        return _load(name)

    @staticmethod
    def sub(value: ast.expr, index: ast.expr) -> ast.Subscript:
        return ast.Subscript(value, index, ast.Load())

    @staticmethod
    def call(fn: str, args: list[ast.expr], keywords: list[ast.keyword] | None = None) -> ast.Call:
        return ast.Call(_load(fn), args, keywords or [])

    @staticmethod
    def dup(node: ast.expr) -> ast.expr:
        """A copy of a leaf (a name or a constant), to read it twice."""
        if isinstance(node, ast.Name):
            return _load(node.id)
        if isinstance(node, ast.Constant):
            return ast.Constant(node.value)
        raise AssertionError("only a leaf is written twice")

    @staticmethod
    def is_simple(node: Expr) -> bool:
        """Whether writing the node twice costs nothing (a name, a constant, a field of one)."""
        while isinstance(node, C.Item):
            node = node.base
        return isinstance(node, (C.Param, C.Local, C.Hoisted)) or (
            isinstance(node, C.Const) and node.type != SET)

    def on_board(self, node: Expr) -> bool:
        """A leaf number that is always a point of the board (1..24): it indexes the board."""
        if isinstance(node, C.Const):
            return node.type == INT and 1 <= node.value <= 24
        if not isinstance(node, (C.Local, C.Param, C.Hoisted)):
            return False
        info = self.info(node)
        return info.exact and 1 <= info.lo and info.hi <= 24

    def constant_set(self, value: frozenset) -> ast.Name:
        name = self.constants.get(value)
        if name is None:
            name = f"_K{len(self.constants)}"
            self.constants[value] = name
            self.namespace[name] = frozenset(value)
        return _load(name)

    # -- expressions ------------------------------------------------------------------------------

    def expr(self, node: Expr) -> ast.expr:
        return _EMITTERS[type(node)](self, node)

    def _e_Const(self, node: C.Const) -> ast.expr:
        if node.type == SET:
            return self.constant_set(node.value)
        if type(node.value) not in (int, bool):
            raise AssertionError("strings are folded before code is emitted")
        return ast.Constant(node.value)

    def _e_Param(self, node: C.Param) -> ast.expr:
        return _load(node.name)

    def _e_CtxField(self, node: C.CtxField) -> ast.expr:
        side = _POINTS.get(node.name)
        if side is not None:
            # the ladder's points, when the caller gives them (an end rule's context may be None)
            points = ast.Subscript(ast.Attribute(_load("ctx"), "points", ast.Load()),
                                   ast.Constant(side), ast.Load())
            return ast.IfExp(_load("ctx"), points, ast.Constant(0))
        return ast.Attribute(_load("ctx"), node.name, ast.Load())

    def _e_Local(self, node: C.Local) -> ast.expr:
        return _load(f"_v{node.id}")

    def _e_Hoisted(self, node: C.Hoisted) -> ast.expr:
        return _load(f"_h{node.index}")

    def _e_Cached(self, node: C.Cached) -> ast.expr:
        name = f"_c{node.index}"
        return ast.IfExp(ast.Compare(_load(name), [ast.IsNot()], [ast.Constant(None)]),
                         _load(name), ast.NamedExpr(_store(name), self.expr(node.part)))

    def _e_Item(self, node: C.Item) -> ast.expr:
        return self.sub(self.expr(node.base), ast.Constant(node.index))

    def _e_Flag(self, node: C.Flag) -> ast.expr:
        bits = ast.BinOp(self.sub(self.expr(node.base), ast.Constant(4)), ast.BitAnd(),
                         ast.Constant(node.bit))
        return ast.Compare(bits, [ast.NotEq()], [ast.Constant(0)])

    _ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod}

    def _e_Arith(self, node: C.Arith) -> ast.expr:
        left, right = self.expr(node.left), self.expr(node.right)
        if node.op in ("//", "%") and not (isinstance(node.right, C.Const) and node.right.value):
            # dividing by 0 gives 0
            return self.call("_div" if node.op == "//" else "_mod", [left, right])
        return ast.BinOp(left, self._ARITH[node.op](), right)

    def _e_Neg(self, node: C.Neg) -> ast.expr:
        return ast.UnaryOp(ast.USub(), self.expr(node.operand))

    _CMP = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}

    def compare_op(self, op: str) -> ast.cmpop:
        return self._CMP[op]()

    def _e_Cmp(self, node: C.Cmp) -> ast.expr:
        left, right, op = node.left, node.right, node.op
        if isinstance(left, C.Const) and isinstance(right, C.Call):
            left, right, op = right, left, _MIRROR[op]
        if isinstance(left, C.Call) and isinstance(right, C.Const) and right.type == INT:
            compare = FUNCTIONS[left.fn].compare
            if compare is not None:
                out = compare(self, left, op, right.value)
                if out is not None:
                    return out
        return ast.Compare(self.expr(node.left), [self._CMP[node.op]()], [self.expr(node.right)])

    def _chain(self, node: Expr, kind: type) -> list[Expr]:
        """The operands of a run of `and` (or `or`) nodes, in order."""
        out: list[Expr] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, kind):
                stack.append(n.right)  # type: ignore[attr-defined]
                stack.append(n.left)  # type: ignore[attr-defined]
            else:
                out.append(n)
        return out

    def _e_And(self, node: C.And) -> ast.expr:
        return ast.BoolOp(ast.And(), [self.expr(n) for n in self._chain(node, C.And)])

    def _e_Or(self, node: C.Or) -> ast.expr:
        return ast.BoolOp(ast.Or(), [self.expr(n) for n in self._chain(node, C.Or)])

    def _e_Not(self, node: C.Not) -> ast.expr:
        return ast.UnaryOp(ast.Not(), self.expr(node.operand))

    def _e_IfExp(self, node: C.IfExp) -> ast.expr:
        return ast.IfExp(self.expr(node.cond), self.expr(node.then), self.expr(node.other))

    def _clipped(self, node: C.Range) -> bool:
        return not (self.info(node.lo).exact and self.info(node.hi).exact)

    def _e_Member(self, node: C.Member) -> ast.expr:
        coll = node.coll
        if isinstance(coll, C.Range) and not self._clipped(coll):
            return ast.Compare(self.expr(coll.lo), [ast.LtE(), ast.LtE()],
                               [self.expr(node.item), self.expr(coll.hi)])
        return ast.Compare(self.expr(node.item), [ast.In()], [self.expr(coll)])

    def _e_Range(self, node: C.Range) -> ast.expr:
        lo, hi = self.expr(node.lo), self.expr(node.hi)
        if self._clipped(node):
            info = self.info(node)
            return self.call("_span", [lo, hi, ast.Constant(info.lo), ast.Constant(info.hi)])
        if isinstance(node.hi, C.Const):
            end: ast.expr = ast.Constant(node.hi.value + 1)
        else:
            end = ast.BinOp(hi, ast.Add(), ast.Constant(1))
        return self.call("range", [lo, end])

    def _e_SetOf(self, node: C.SetOf) -> ast.expr:
        return self.call("frozenset", [ast.Tuple([self.expr(i) for i in node.items], ast.Load())])

    def _e_Dice(self, node: C.Dice) -> ast.expr:
        both = ast.Tuple([_load("d1"), _load("d2")], ast.Load())
        if not node.distinct:
            return both
        return ast.IfExp(ast.Compare(_load("d1"), [ast.Eq()], [_load("d2")]),
                         ast.Tuple([_load("d1")], ast.Load()), both)

    def _e_Call(self, node: C.Call) -> ast.expr:
        fn = FUNCTIONS[node.fn]
        if (self.landings_local and node.fn == "landings" and isinstance(node.args[0], C.Param)
                and node.args[0].name == "x"):
            self.used_landings = True
            return _load("_lx")
        if fn.emit is not None:
            out = fn.emit(self, node)
            if out is not None:
                return out
        assert fn.runtime is not None, f"no way to emit {node.fn}"
        return self.call(fn.runtime, [self.expr(a) for a in node.args])

    def _e_Intersects(self, node: C.Intersects) -> ast.expr:
        test = ast.Call(ast.Attribute(self.constant_set(node.region.value), "isdisjoint",
                                      ast.Load()), [self.expr(node.coll)], [])
        return ast.UnaryOp(ast.Not(), test)

    def _e_Agg(self, node: C.Agg) -> ast.expr:
        var = f"_v{node.binder.id}"
        coll = self.expr(node.coll)
        kind = node.kind
        assert node.body is not None
        if kind == "count" and node.where is None:
            return self.call("len", [coll])
        ifs = [] if node.where is None else [self.expr(node.where)]
        body = self.expr(node.body)

        def gen(elt: ast.expr) -> ast.GeneratorExp:
            return ast.GeneratorExp(elt, [ast.comprehension(_store(var), coll, ifs, 0)])

        if kind in ("count", "sum"):
            return self.call("sum", [gen(body)])
        if kind in ("any", "all"):
            return self.call(kind, [gen(body)])
        if kind in ("max", "min"):
            return self.call(kind, [gen(body)], [ast.keyword("default", ast.Constant(0))])
        # union
        if node.body.type == INT:
            return self.call("frozenset", [gen(body)])
        return self.call("_union", [gen(body)])


_EMITTERS = {getattr(C, name[3:]): fn for name, fn in vars(Emitter).items()
             if name.startswith("_e_")}


# -- modules ---------------------------------------------------------------------------------------

_HOOK_PARAMS: list[tuple[str, Any]] = [("b", ...), ("a", None), ("x", None), ("d1", 0),
                                       ("d2", 0), ("rolls", 0), ("ctx", None)]
_EACH_PARAMS: list[tuple[str, Any]] = [("b", ...), ("plays", ...), ("d1", 0), ("d2", 0),
                                       ("rolls", 0), ("ctx", None)]
_FILTER_PARAMS: list[tuple[str, Any]] = [("b", ...), ("cands", ...), ("d1", 0), ("d2", 0),
                                         ("rolls", 0)]


def _arguments(params: list[tuple[str, Any]]) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n, _d in params], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None,
                         defaults=[ast.Constant(d) for _n, d in params if d is not ...])


def _def(name: str, params: list[tuple[str, Any]], body: list[ast.stmt]) -> ast.FunctionDef:
    return ast.FunctionDef(name, _arguments(params), body, [], None)


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([_store(name)], value)


def _landings_prelude() -> ast.If:
    """`_lx`, the landings of the path `x`: written out for a path of two steps (what the
    runtime's `landings` computes), the runtime's `landings` otherwise."""
    s1 = ast.Subscript(_load("_s"), ast.Constant(1), ast.Load())
    u0 = ast.Subscript(_load("_u"), ast.Constant(0), ast.Load())
    u1 = ast.Subscript(_load("_u"), ast.Constant(1), ast.Load())

    def fs(*items: ast.expr) -> ast.Call:
        return ast.Call(_load("frozenset"), [ast.Tuple(list(items), ast.Load())], [])

    two = ast.IfExp(ast.Compare(u0, [ast.Eq()], [s1]), fs(u1),
                    fs(ast.Subscript(_load("_s"), ast.Constant(1), ast.Load()),
                       ast.Subscript(_load("_u"), ast.Constant(1), ast.Load())))
    return ast.If(ast.Compare(ast.Call(_load("len"), [_load("x")], []), [ast.Eq()],
                              [ast.Constant(2)]),
                  [ast.Assign([ast.Tuple([_store("_s"), _store("_u")], ast.Store())], _load("x")),
                   _assign("_lx", two)],
                  [_assign("_lx", ast.Call(_load("_landings"), [_load("x")], []))])


@dataclass
class Emitted:
    """A hook's generated module and what was made from it."""

    index: int
    module: ast.Module
    filename: str
    fn: Callable[..., Any]
    #: the expression the hook returns, when it hoists nothing (for `roll_function`)
    expr: ast.expr | None
    batch: Callable[..., Any] | None = None
    batch_name: str | None = None
    namespace: dict[str, Any] = field(default_factory=dict)
    #: the indexes of its parts computed once per call (`_c<i>`, reset at each call)
    caches: list[int] = field(default_factory=list)

    @property
    def source(self) -> str:
        """The module's text, as registered with linecache."""
        return "".join(linecache.getlines(self.filename)) or ast.unparse(self.module) + "\n"


def _caches_reset(caches: list[int]) -> list[ast.stmt]:
    if not caches:
        return []
    return [ast.Assign([_store(f"_c{i}") for i in caches], ast.Constant(None))]


def build_hook(index: int, root: Expr, hoisted: list[Expr], batch: str | None,
               namespace: dict[str, Any], constants: dict[frozenset, str],
               bounds: Callable[[Expr], Any], caches: list[int] | None = None) -> Emitted:
    """The module of one hook: the hook, and its batch form (`"filter"`, `"each"` or None).
    `caches`: the indexes of its `Cached` parts (a hook with hoisted parts has none)."""
    caches = caches or []
    name = f"hook_{index}"
    em = Emitter(namespace, constants, bounds)
    expr = em.expr(root)
    hoists = [(f"_h{i}", h) for i, h in enumerate(hoisted)]
    body: list[ast.stmt]
    if hoists:
        inner = _def(name, _HOOK_PARAMS, [
            ast.Nonlocal(["_cb", *(h for h, _n in hoists)]),
            ast.If(ast.Compare(_load("b"), [ast.IsNot()], [_load("_cb")]),
                   [*(_assign(h, em.expr(n)) for h, n in hoists), _assign("_cb", _load("b"))],
                   []),
            ast.Return(expr)])
        maker = f"_make_{index}"
        body = [_def(maker, [], [
                    ast.Assign([_store("_cb"), *(_store(h) for h, _n in hoists)],
                               ast.Constant(None)),
                    inner,
                    ast.Return(_load(name))]),
                _assign(name, ast.Call(_load(maker), [], []))]
    else:
        body = [_def(name, _HOOK_PARAMS, [*_caches_reset(caches), ast.Return(expr)])]
    batch_name = None
    if batch == "filter":
        batch_name = f"filter_{index}"
        bem = Emitter(namespace, constants, bounds, landings_local=True)
        test = bem.expr(root)
        loop: list[ast.stmt] = [ast.Assign([ast.Tuple([_store("x"), _store("a")], ast.Store())],
                                           _load("c"))]
        if bem.used_landings:
            loop.append(_landings_prelude())
        loop.append(ast.If(ast.UnaryOp(ast.Not(), test),
                           [ast.Expr(ast.Call(_load("keep"), [_load("c")], []))], []))
        body.append(_def(batch_name, _FILTER_PARAMS, [
            *(_assign(h, bem.expr(n)) for h, n in hoists),
            _assign("out", ast.List([], ast.Load())),
            _assign("keep", ast.Attribute(_load("out"), "append", ast.Load())),
            ast.For(_store("c"), _load("cands"), loop, []),
            ast.Return(_load("out"))]))
    elif batch == "each":
        batch_name = f"each_{index}"
        bem = Emitter(namespace, constants, bounds)
        value = bem.expr(root)
        comp = ast.ListComp(value, [
            ast.comprehension(_store("x"), _load("plays"), [], 0),
            ast.comprehension(_store("a"), ast.Tuple([ast.Subscript(_load("x"), ast.Constant(0),
                                                                    ast.Load())], ast.Load()),
                              [], 0)])
        body.append(_def(batch_name, _EACH_PARAMS, [
            *(_assign(h, bem.expr(n)) for h, n in hoists), ast.Return(comp)]))
    module = ast.Module(body, [])
    filename = run(module, name, namespace)
    return Emitted(index, module, filename, namespace[name], None if hoists else expr,
                   namespace[batch_name] if batch_name else None, batch_name, namespace,
                   caches)


# -- compiling a module ----------------------------------------------------------------------------

def run(module: ast.Module, name: str, namespace: dict[str, Any]) -> str:
    """Check a generated module (which also numbers its lines), compile it and run it in
    `namespace`; register its text with linecache (written only if asked for) and return the
    made-up file name it is compiled under."""
    check_module(module, namespace)
    filename = f"/<tablier>/{name}.py"     # no such file: linecache asks the entry below
    code = compile_tree(module, filename, "exec")
    linecache.cache[filename] = (lambda: ast.unparse(module) + "\n",)
    exec(code, namespace)  # noqa: S102 - a whitelisted tree the compiler built
    return filename


# -- the roll's scoring rules in one function ------------------------------------------------------

_roll_functions = itertools.count()


def roll_function(rules: list[Any], info_of: Callable[[Any], tuple[ast.expr, dict, str, list[int]]
                                                     | None]) -> Callable | None:
    """The roll's scoring rules (`ScoreRule`s) as one function `(b, d1, d2, rolls, ctx) ->
    items`, each rule's expression written out in turn. `info_of(hook)` gives a compiled hook's
    (expression, namespace, type, cache indexes), or None for a hook that is not one (or hoists
    parts); then, or when the rules come from different compilations, None."""
    if not rules:
        return None
    infos = [info_of(r.fn) for r in rules]
    if any(i is None for i in infos):
        return None
    shared = infos[0][1]  # type: ignore[index]
    if any(i[1] is not shared for i in infos):  # type: ignore[index]
        return None
    namespace = dict(shared)
    body: list[ast.stmt] = [
        *_caches_reset([c for i in infos for c in i[3]]),  # type: ignore[index]
        ast.Assign([_store("a"), _store("x")], ast.Constant(None)),
        _assign("out", ast.List([], ast.Load())),
        _assign("dbl", ast.Compare(_load("d1"), [ast.Eq()], [_load("d2")])),
    ]
    def append(value: ast.expr) -> ast.Expr:
        return ast.Expr(ast.Call(ast.Attribute(_load("out"), "append", ast.Load()), [value], []))

    for i, (r, info) in enumerate(zip(rules, infos)):
        assert info is not None
        expr, _namespace, type_, _caches = info
        if type_ == C.BOOL:
            # a `when` rule: one way when it holds
            namespace[f"_RI{i}"] = (r.id, r.to, r.doublet, 1)
            namespace[f"_RJ{i}"] = (r.id, r.to, r.simple, 1)
            body.append(ast.If(expr, [append(ast.IfExp(_load("dbl"), _load(f"_RI{i}"),
                                                            _load(f"_RJ{i}")))], []))
        else:
            namespace[f"_RN{i}"] = r.id
            namespace[f"_RT{i}"] = r.to
            namespace[f"_RD{i}"] = r.doublet
            namespace[f"_RS{i}"] = r.simple
            points = ast.BinOp(_load("w"), ast.Mult(),
                               ast.IfExp(_load("dbl"), _load(f"_RD{i}"), _load(f"_RS{i}")))
            body.append(_assign("w", expr))
            body.append(ast.If(_load("w"), [append(ast.Tuple(
                [_load(f"_RN{i}"), _load(f"_RT{i}"), points, _load("w")], ast.Load()))], []))
    body.append(ast.Return(_load("out")))
    module = ast.Module([ast.FunctionDef("roll_items", ast.arguments(
        posonlyargs=[], args=[ast.arg(n) for n in ("b", "d1", "d2", "rolls", "ctx")],
        vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]), body, [], None)], [])
    run(module, f"roll_items_{next(_roll_functions)}", namespace)
    return namespace["roll_items"]
