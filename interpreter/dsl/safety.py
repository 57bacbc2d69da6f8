"""The whitelist every generated module passes before it is compiled.

The emitter builds Python `ast` trees from the compiler's own tree, where file text cannot
appear; this check makes that a property of the generated code rather than of the emitter:

- only the node types expression hooks need (no imports, no lambdas, no classes, no `with`,
  no `global`, no starred or keyword arguments but `default=`, no slices);
- no string, bytes or float constants at all (strings are decided when the file is loaded),
  integers within ±MAX_VALUE;
- names only of three kinds: the hook parameters and the few locals the batch forms use; names
  the compiler makes up, matching fixed patterns (`hook_12`, `_v3`, `_h0`, `_K2`...); the
  runtime table (`runtime.RUNTIME`) and a handful of builtins;
- calls only of the runtime table, those builtins, and two methods (`frozenset.isdisjoint` on
  a constant set, `list.append` of the batch form's output list); attributes only those two and
  the roll context's `plays`, `unplayed`, `setup`, `d3`, `unstacking`, `home_after`.

`check_module(tree, namespace)` raises `UnsafeCode` naming the first offending node.
"""
from __future__ import annotations

import ast
import re

from interpreter.dsl.limits import MAX_VALUE
from interpreter.dsl.runtime import BUILTINS, RUNTIME


class UnsafeCode(Exception):
    """Generated code outside the whitelist: a defect of the compiler, never of a file."""


#: the hook parameters and the locals of the batch forms
PARAMETERS = frozenset({"b", "a", "x", "d1", "d2", "rolls", "ctx", "cands", "plays"})
LOCALS = frozenset({"_cb", "out", "keep", "c", "_s", "_u", "_lx", "w", "dbl"})
#: names the compiler makes up: functions, aggregate variables, hoisted parts, constants
MADE_UP = re.compile(r"(hook|filter|each|_make)_\d{1,6}|roll_items|_[vhc]\d{1,6}|_K\d{1,6}"
                     r"|_R[A-Z]\d{1,6}")
#: the names a generated module reads from its namespace rather than binds
NAMESPACE_NAMES = re.compile(r"_K\d{1,6}|_R[A-Z]\d{1,6}")
_CALLABLE_MADE = re.compile(r"_make_\d{1,6}")
_CTX_FIELDS = frozenset({"plays", "unplayed", "setup", "points", "d3", "unstacking",
                         "home_after"})

def _callable(name: str) -> bool:
    # the runtime table is read when checking, so that a helper added to it is callable
    return (name in RUNTIME or name in BUILTINS or name == "keep"
            or _CALLABLE_MADE.fullmatch(name) is not None)


def _name_ok(name: str) -> bool:
    return (name in PARAMETERS or name in LOCALS or name in RUNTIME or name in BUILTINS
            or MADE_UP.fullmatch(name) is not None)


def _refuse(node: ast.AST, why: str) -> UnsafeCode:
    return UnsafeCode(f"{why}: {ast.dump(node)[:200]}")


def _attribute_ok(node: ast.Attribute) -> bool:
    if not isinstance(node.value, ast.Name) or not isinstance(node.ctx, ast.Load):
        return False
    owner, attr = node.value.id, node.attr
    return ((owner == "ctx" and attr in _CTX_FIELDS)
            or (NAMESPACE_NAMES.fullmatch(owner) is not None and owner.startswith("_K")
                and attr == "isdisjoint")
            or (owner == "out" and attr == "append"))


def check_module(tree: ast.Module, namespace: dict) -> None:
    """Raise UnsafeCode unless every node of `tree` is on the whitelist.

    The same walk gives every node the line `ast.unparse` writes it on (each statement on a
    line of its own, a blank line before each `def` but the first), so that the module can be
    compiled from this tree and a traceback through it shows the right line of its text."""
    if not isinstance(tree, ast.Module) or tree.type_ignores:
        raise _refuse(tree, "not a plain module")
    _Walk(namespace).statements(tree.body)


class _Walk:
    def __init__(self, namespace: dict):
        self.namespace = namespace
        self.line = 1
        self.first = True

    def statements(self, body: list) -> None:
        for s in body:
            kind = type(s)
            if kind is ast.FunctionDef:
                if not self.first:
                    self.line += 1
                self._function(s)
            self.first = False
            line = self.line
            s.lineno = s.end_lineno = line
            s.col_offset = s.end_col_offset = 0
            self.line += 1
            if kind is ast.FunctionDef:
                self.statements(s.body)
            elif kind is ast.Return:
                if s.value is not None:
                    self.expr(s.value, line)
            elif kind is ast.Assign:
                for t in s.targets:
                    self.expr(t, line)
                self.expr(s.value, line)
            elif kind is ast.If:
                self.expr(s.test, line)
                self.statements(s.body)
                if s.orelse:
                    if len(s.orelse) == 1 and type(s.orelse[0]) is ast.If:
                        raise _refuse(s, "elif is not generated")
                    self.line += 1          # `else:`
                    self.statements(s.orelse)
            elif kind is ast.For:
                if s.orelse or s.type_comment:
                    raise _refuse(s, "for-else is not generated")
                self.expr(s.target, line)
                self.expr(s.iter, line)
                self.statements(s.body)
            elif kind is ast.Expr:
                self.expr(s.value, line)
            elif kind is ast.Nonlocal:
                for name in s.names:
                    if name not in LOCALS and not MADE_UP.fullmatch(name):
                        raise _refuse(s, f"nonlocal {name!r} not allowed")
            else:
                raise _refuse(s, f"statement {kind.__name__} is not allowed")

    def _function(self, node: ast.FunctionDef) -> None:
        if (node.decorator_list or node.returns is not None or node.type_comment
                or MADE_UP.fullmatch(node.name) is None):
            raise _refuse(node, "function definition not allowed")
        args = node.args
        if (type(args) is not ast.arguments or args.posonlyargs or args.vararg
                or args.kwonlyargs or args.kwarg or args.kw_defaults):
            raise _refuse(node, "function arguments not allowed")
        for a in args.args:
            if type(a) is not ast.arg or a.arg not in PARAMETERS or a.annotation is not None \
                    or a.type_comment:
                raise _refuse(node, "parameter not allowed")
            a.lineno = a.end_lineno = self.line
            a.col_offset = a.end_col_offset = 0
        for d in args.defaults:
            if type(d) is not ast.Constant or d.value not in (None, 0):
                raise _refuse(node, "argument default not allowed")
            d.lineno = d.end_lineno = self.line
            d.col_offset = d.end_col_offset = 0

    def expr(self, root: ast.AST, line: int) -> None:
        stack = [root]
        pop, push = stack.pop, stack.append
        namespace = self.namespace
        while stack:
            n = pop()
            kind = type(n)
            if kind not in _EXPRESSIONS:
                raise _refuse(n, f"node type {kind.__name__} is not allowed")
            n.lineno = line  # type: ignore[attr-defined]
            n.col_offset = 0  # type: ignore[attr-defined]
            if kind is ast.Name:
                name = n.id  # type: ignore[attr-defined]
                if not _name_ok(name):
                    raise _refuse(n, f"name {name!r} is not allowed")
                ctx = type(n.ctx)  # type: ignore[attr-defined]
                if ctx is ast.Store:
                    if name in RUNTIME or name in BUILTINS or NAMESPACE_NAMES.fullmatch(name):
                        raise _refuse(n, f"name {name!r} cannot be assigned")
                elif ctx is not ast.Load:
                    raise _refuse(n, "name context not allowed")
                if NAMESPACE_NAMES.fullmatch(name) and name not in namespace:
                    raise _refuse(n, f"name {name!r} is not in the namespace")
            elif kind is ast.Constant:
                v = n.value  # type: ignore[attr-defined]
                small = type(v) is int and -MAX_VALUE <= v <= MAX_VALUE
                if not (v is None or type(v) is bool or small) or n.kind:  # type: ignore
                    raise _refuse(n, "only small integer constants are allowed")
            elif kind is ast.BinOp:
                if type(n.op) not in _BINOPS:  # type: ignore[attr-defined]
                    raise _refuse(n, "operator not allowed")
                push(n.left)  # type: ignore[attr-defined]
                push(n.right)  # type: ignore[attr-defined]
            elif kind is ast.Compare:
                if any(type(op) not in _COMPARE_OPS for op in n.ops):  # type: ignore[attr-defined]
                    raise _refuse(n, "comparison not allowed")
                push(n.left)  # type: ignore[attr-defined]
                stack.extend(n.comparators)  # type: ignore[attr-defined]
            elif kind is ast.BoolOp:
                if type(n.op) not in (ast.And, ast.Or):  # type: ignore[attr-defined]
                    raise _refuse(n, "operator not allowed")
                stack.extend(n.values)  # type: ignore[attr-defined]
            elif kind is ast.UnaryOp:
                if type(n.op) not in (ast.Not, ast.USub):  # type: ignore[attr-defined]
                    raise _refuse(n, "operator not allowed")
                push(n.operand)  # type: ignore[attr-defined]
            elif kind is ast.IfExp:
                push(n.test)  # type: ignore[attr-defined]
                push(n.body)  # type: ignore[attr-defined]
                push(n.orelse)  # type: ignore[attr-defined]
            elif kind is ast.Subscript:
                if type(n.ctx) is not ast.Load:  # type: ignore[attr-defined]
                    raise _refuse(n, "subscript assignment not allowed")
                push(n.value)  # type: ignore[attr-defined]
                push(n.slice)  # type: ignore[attr-defined]
            elif kind is ast.Call:
                func = n.func  # type: ignore[attr-defined]
                if type(func) is ast.Name:
                    if not _callable(func.id):
                        raise _refuse(n, f"call of {func.id!r} is not allowed")
                elif not (type(func) is ast.Attribute and _attribute_ok(func)
                          and func.attr in ("isdisjoint", "append")):
                    raise _refuse(n, "call not allowed")
                push(func)
                stack.extend(n.args)  # type: ignore[attr-defined]
                for kw in n.keywords:  # type: ignore[attr-defined]
                    if type(kw) is not ast.keyword or kw.arg != "default":
                        raise _refuse(n, "keyword argument not allowed")
                    kw.lineno = line
                    kw.col_offset = 0
                    push(kw.value)
            elif kind is ast.Attribute:
                if not _attribute_ok(n):  # type: ignore[arg-type]
                    raise _refuse(n, "attribute not allowed")
                push(n.value)  # type: ignore[attr-defined]
            elif kind is ast.NamedExpr:
                target = n.target  # type: ignore[attr-defined]
                if type(target) is not ast.Name or _CACHED.fullmatch(target.id) is None:
                    raise _refuse(n, "assignment expression not allowed")
                push(target)
                push(n.value)  # type: ignore[attr-defined]
            elif kind is ast.Tuple or kind is ast.List:
                stack.extend(n.elts)  # type: ignore[attr-defined]
            else:       # ListComp, GeneratorExp
                push(n.elt)  # type: ignore[attr-defined]
                for comp in n.generators:  # type: ignore[attr-defined]
                    if type(comp) is not ast.comprehension or comp.is_async:
                        raise _refuse(n, "comprehension not allowed")
                    push(comp.target)
                    push(comp.iter)
                    stack.extend(comp.ifs)


_EXPRESSIONS = frozenset({ast.Name, ast.Constant, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Compare,
                          ast.IfExp, ast.Call, ast.Attribute, ast.Subscript, ast.Tuple, ast.List,
                          ast.ListComp, ast.GeneratorExp, ast.NamedExpr})
#: the only names an assignment expression may bind: the parts a hook keeps within a call
_CACHED = re.compile(r"_c\d{1,6}")
_BINOPS = frozenset({ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd})
_COMPARE_OPS = frozenset({ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
                          ast.Is, ast.IsNot})
