"""The rule compiler's second back end: a variant's hot-path rules as numba code over flat arrays.

`emit_rules(variant)` writes, from the same checked and folded trees the Python back end emits
(`interpreter/dsl/emit.py`, read from each hook's `__dsl__`), one module of functions that numba
compiles to machine code; `load_native_rules(nr)` writes that module under the user's cache
(`~/.cache/tablier/native/<hash of the source and the code version>/`) and imports it, so that
numba's own cache (`@njit(cache=True)`) spares a second process the compile. The Python hooks
stay the reference: every function here gives what its hook gives (tests/test_native_rules.py).

What the generated module holds, and how its functions are called
----------------------------------------------------------------

Boards are int64 1-D arrays in the kernel's layout (`kernel/board.py`, 28 cells, or 29-31 where
a variant pins or keeps checkers off the board). A path is an int64 2-D array of steps, a row
each: (src, dst, die), and (hit, flags) after them when the function's `path_cols` is 5, with
its length (the array may have more rows). The plays of a roll (what `plays`, `unplayed` and
the scores on a play read) are four arrays:

- `pb` int64 (plays, cells): the end board of each play;
- `ps` int64 (plays + 1): play i's paths are `pp[ps[i]:ps[i + 1]]`;
- `pp` int64 (paths, steps, cols) and `pn` int64 (paths): each path's steps and length.

A function whose `reads_plays` is false never reads them (empty arrays will do). The arguments
of each kind of hook (`NativeFn.args`):

================  =====================================================  ======================
kind              arguments                                              result
================  =====================================================  ======================
forbid, move      b, a, x, xn, d1, d2, rolls                             bool (True: forbidden)
score (roll)      b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn      int (ways) or bool
score (play),     b, i, d1, d2, rolls, pb, ps, pp, pn (play i)           int or bool
prefer
end               b, mp, tp (the ladder's points, 0 when none)           bool
feature           b, mp, tp                                              int or bool
value             b, mp, tp                                              (holds, value)
stage             b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn      (holds, next,
                                                                         to_opponent, again)
================  =====================================================  ======================

A stage rule of the turn (`[turn.stages.ID]`, keyed `stage/ID`) gives its `to_opponent` and
`again` as 1 or 0, -1 where it has no such key, and all but `holds` only when it holds
(`(False, 0, -1, -1)` otherwise).

and their batch forms (`NativeFn.batch`): a forbid rule over a roll's candidates,
`(b, ends, pp, pn, d1, d2, rolls) -> bool[:]` (candidate k: end board `ends[k]`, path `pp[k]`
of length `pn[k]`), the parts that read only `b` computed once; a prefer rule or score on the
play over all the plays, `(b, d1, d2, rolls, pb, ps, pp, pn) -> int64[:] or bool[:]`. Four
functions gather rules: `roll_ways` (the roll's scoring rules, their ways in the order of
`NativeRules.roll_rules`), `game_over` (the index of the first end rule that holds, -1 when
none; `NativeRules.end_rules`), `game_value` ((the highest value that holds, at least 1, and
the index of its rule or -1); `NativeRules.value_rules`) and `features` (the file's own bot
features, `(b, mp, tp) -> int64[:]`; `NativeRules.feature_names`).

Safety
------

As in the Python back end (`dsl/safety.py`), no text of the file reaches the generated code:
every name in it is one this module makes up (`rule_3`, `_t12`, `_v4`...) or a fixed one
(the arguments above, `rt`, `np`, `njit`, `range`, `min`, `max`, `abs`), every constant an
integer or a boolean (options and strings are decided by the folding pass before this one
reads the tree), and every loop runs over a range, a fixed tuple of pips or an argument's
length. The module is parsed and checked against that whitelist before it is returned
(`check_source`). Rule ids, which come from the file, are only keys of Python dicts.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import itertools
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from interpreter.dsl import NEVER, hook_info
from interpreter.dsl import core as C
from interpreter.dsl.bounds import Cost, Reads
from interpreter.dsl.core import (BOOL, CHOICE, END, FORBID, INT, LIST_INT, MOVE, PATH, PLAY,
                                  ROLL, SET, Expr)
from interpreter.dsl.optimize import hoist
from interpreter.dsl.vocabulary import UNENTERED
from interpreter.native.modules import import_text, native_folder, per_variant

#: bumped whenever what this module emits, or interpreter/native/rt.py, changes
CODE_VERSION = "1"
#: the highest number a set's bit mask holds (rt.MAX_BIT)
MAX_BIT = 62

FORBID_ARGS = ("b", "a", "x", "xn", "d1", "d2", "rolls")
FORBID_BATCH_ARGS = ("b", "ends", "pp", "pn", "d1", "d2", "rolls")
ROLL_ARGS = ("b", "d1", "d2", "rolls", "setup", "unplayed", "pb", "ps", "pp", "pn")
CHOICE_ARGS = ("b", "i", "d1", "d2", "rolls", "pb", "ps", "pp", "pn")
CHOICE_BATCH_ARGS = ("b", "d1", "d2", "rolls", "pb", "ps", "pp", "pn")
END_ARGS = ("b", "mp", "tp")
#: the names of the throws' functions (`throws_emit.py`): theirs, their arguments' and locals'
THROWS_NAMES = ("throw_plays", "throw_points", "throw_points_many", "throw_cands",
                "throw_probe", "bs", "rs", "ss", "dice", "hv", "full",
                "cb", "cp", "cn", "plays", "paths", "ways", "points")
_ARGS = {FORBID: FORBID_ARGS, MOVE: FORBID_ARGS, ROLL: ROLL_ARGS, CHOICE: CHOICE_ARGS,
         END: END_ARGS}


class Unsupported(Exception):
    """A part of a rule this back end does not compile (the rule stays on the Python path)."""


@dataclass(frozen=True)
class NativeFn:
    """One compiled hook: its function's name in `NativeRules.source`, the kind of hook
    ("forbid", "move", "score", "play", "prefer", "end", "value", "stage", "feature"), its
    arguments and result (see the module's docstring), whether it reads the roll's plays, how
    many columns of a path's rows it reads (3: src, dst, die; 5: hit and flags too: a caller
    must then pass rows of 5), its batch form if any, and what the Python rule says beside its
    hook (`mode`: a score's side "mover"/"opponent", a prefer rule's "keep"/"min"/"max", an end
    rule's winner)."""

    name: str
    kind: str
    args: tuple[str, ...]
    returns: str
    reads_plays: bool = False
    path_cols: int = 3
    batch: str | None = None
    batch_args: tuple[str, ...] = ()
    mode: str | None = None
    #: a forbid rule (one with a batch form) also comes in two parts, for a caller asking many
    #: throws of one position: `<name>_pre(b, hv)` writes the `hoisted` parts that read only
    #: the position into `hv` (a bool as 1 or 0), `<name>_each(b, hv, a, x, xn, d1, d2, rolls)`
    #: answers for one candidate from them
    hoisted: int = 0


@dataclass(frozen=True)
class NativeRules:
    """A variant's hot-path rules as one numba module (see the module's docstring)."""

    source: str
    functions: dict[str, NativeFn]
    #: the rules left to the Python path, with the reason
    unsupported: dict[str, str] = field(default_factory=dict)
    #: `roll_ways`: the roll's scoring rules, each (id, to, simple, doublet), in its order
    roll: NativeFn | None = None
    roll_rules: tuple[tuple[str, str, int, int], ...] = ()
    #: `game_over`: the end rules, each (id, winner), in order
    over: NativeFn | None = None
    end_rules: tuple[tuple[str, str], ...] = ()
    #: `game_value`: the value rules' ids, in order
    value: NativeFn | None = None
    value_rules: tuple[str, ...] = ()
    #: `features`: the values of the file's own bot features (`[bot] features`, each also
    #: `feature/<name>`), a bool as 1 or 0, in the order of `feature_names`
    features: NativeFn | None = None
    feature_names: tuple[str, ...] = ()

    @property
    def digest(self) -> str:
        """The hash naming the module's cache folder: of its text, of this back end's version
        and of the helpers' text (numba's cache checks a module's own file only, and the code
        it keeps has the helpers compiled in)."""
        text = "\0".join((CODE_VERSION, _rt_text(), self.source))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


@functools.cache
def _rt_text() -> str:
    """The text of the helpers the emitted code calls (`rt.py`, `rt_corner.py`), read beside
    this file without importing them (they import numba)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in ("rt.py", "rt_corner.py"):
        with open(os.path.join(here, name), encoding="utf-8") as f:
            out.append(f.read())
    return "\0".join(out)


# -- how the emitted code names what it reads ------------------------------------------------------

@dataclass(frozen=True)
class _State:
    """A position: a 1-D board `arr`, or row `row` of the 2-D array `arr`."""
    arr: str
    row: str | None = None

    def cell(self, index: str | int) -> str:
        return f"{self.arr}[{index}]" if self.row is None else f"{self.arr}[{self.row}, {index}]"

    def view(self) -> str:
        return self.arr if self.row is None else f"{self.arr}[{self.row}]"


@dataclass(frozen=True)
class _Path:
    arr: str
    n: str


@dataclass(frozen=True)
class _Step:
    path: _Path
    row: str


@dataclass(frozen=True)
class _Play:
    index: str


@dataclass(frozen=True)
class _Paths:
    lo: str
    hi: str


@dataclass(frozen=True)
class _Plays:
    pass


@dataclass(frozen=True)
class _Dice:
    distinct: bool


@dataclass(frozen=True)
class _Span:
    """lo..hi, both ends included (already clipped to the compiler's bounds)."""
    lo: str
    hi: str


@dataclass(frozen=True)
class _Pips:
    values: tuple[int, ...]


@dataclass(frozen=True)
class _Mask:
    mask: str
    lo: int
    hi: int


_Coll = _Span | _Pips | _Mask | _Dice | _Plays | _Paths | _Path
_SCALAR = (INT, BOOL, SET)


def _mask_of(values: Any) -> int:
    m = 0
    for v in values:
        m |= 1 << v
    return m


def _chain(node: Expr, kind: type) -> list[Expr]:
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


class _Body:
    """The statements of one function, built from one hook's tree."""

    def __init__(self, context: str, temps: Iterator[int], depth: int = 1):
        self.context = context
        self.lines: list[tuple[int, str]] = []
        self.depth = depth
        self._temps = temps
        self.binders: dict[int, Any] = {}
        #: parts already computed in the current block, by node id
        self.cache: dict[int, str] = {}
        self.hoisted: dict[int, str] = {}
        self.hoisted_sets: dict[int, tuple[int, int]] = {}
        self.reads = Reads()
        self.reads_plays = False
        self.path_cols = 3

    # -- plumbing ---------------------------------------------------------------------------------

    def tmp(self, prefix: str = "_t") -> str:
        return f"{prefix}{next(self._temps)}"

    def emit(self, line: str, extra: int = 0) -> None:
        self.lines.append((self.depth + extra, line))

    def captured(self, fn: Callable[[], str], extra: int = 1) -> tuple[str, list[tuple[int, str]]]:
        """What `fn` returns and the statements it emitted, written `extra` levels deeper."""
        saved, depth = self.lines, self.depth
        self.lines, self.depth = [], depth + extra
        try:
            out = fn()
            return out, self.lines
        finally:
            self.lines, self.depth = saved, depth

    def leaf(self, text: str) -> str:
        """A value read more than once: a name or a number as is, else a temporary."""
        if re.fullmatch(r"-?\w+", text):
            return text
        t = self.tmp()
        self.emit(f"{t} = {text}")
        return t

    @staticmethod
    def info(node: Expr) -> Any:
        if node.info is None:
            raise Unsupported("a part without bounds")
        return node.info

    # -- values -----------------------------------------------------------------------------------

    def scalar(self, node: Expr) -> str:
        """A number, a condition, or a set as its bit mask."""
        done = self.cache.get(id(node))
        if done is not None:
            return done
        if node.type not in _SCALAR:
            raise Unsupported(f"a value of type {node.type} where a number is read")
        fn = getattr(self, f"_s_{type(node).__name__}", None)
        if fn is None:
            raise Unsupported(f"{type(node).__name__} as a value")
        return fn(node)

    def _s_Const(self, node: C.Const) -> str:
        v = node.value
        if node.type == SET:
            if v and (min(v) < 0 or max(v) > MAX_BIT):
                raise Unsupported("a set of numbers outside 0..62")
            return str(_mask_of(v))
        if type(v) is bool:
            return "True" if v else "False"
        if type(v) is int:
            return str(v) if v >= 0 else f"({v})"
        raise Unsupported("a string left after folding")

    def _s_Param(self, node: C.Param) -> str:
        if node.name in ("d1", "d2", "rolls"):
            return node.name
        raise Unsupported(f"parameter {node.type} as a number")

    def _s_CtxField(self, node: C.CtxField) -> str:
        names = {"unplayed": "unplayed", "setup": "setup", "my_points": "mp",
                 "their_points": "tp"}
        if node.name not in names:
            raise Unsupported(f"the roll's {node.name} as a number")
        if node.name == "unplayed":
            self.reads_plays = True
        return names[node.name]

    def _s_Local(self, node: C.Local) -> str:
        b = self.binders.get(node.id)
        if not isinstance(b, str):
            raise Unsupported("an aggregate variable that is not a number")
        return b

    def _s_Hoisted(self, node: C.Hoisted) -> str:
        return self.hoisted[node.index]

    def _s_Item(self, node: C.Item) -> str:
        step = self.ref(node.base)
        if isinstance(step, _State):
            # a value of the named state (`[turn.state]`), in its slot of the position
            return step.cell(node.index)
        if not isinstance(step, _Step) or not 0 <= node.index <= 3:
            raise Unsupported("a field of a play as a number")
        if node.index == 3:
            self.path_cols = 5
        return f"{step.path.arr}[{step.row}, {node.index}]"

    def _s_Flag(self, node: C.Flag) -> str:
        step = self.ref(node.base)
        if not isinstance(step, _Step):
            raise Unsupported("a flag of something else than a step")
        self.path_cols = 5
        return f"(({step.path.arr}[{step.row}, 4] & {node.bit}) != 0)"

    _OPS = {"+": "+", "-": "-", "*": "*"}

    def _s_Arith(self, node: C.Arith) -> str:
        left, right = self.scalar(node.left), self.scalar(node.right)
        if node.op in self._OPS:
            return f"({left} {self._OPS[node.op]} {right})"
        return f"rt.{'div' if node.op == '//' else 'mod'}({left}, {right})"

    def _s_Neg(self, node: C.Neg) -> str:
        return f"(-{self.scalar(node.operand)})"

    def _s_Not(self, node: C.Not) -> str:
        return f"(not {self.scalar(node.operand)})"

    def _s_Cmp(self, node: C.Cmp) -> str:
        if node.left.type not in (INT, BOOL):
            raise Unsupported("a comparison of strings left after folding")
        return f"({self.scalar(node.left)} {node.op} {self.scalar(node.right)})"

    def _s_And(self, node: C.And) -> str:
        return self._logic(_chain(node, C.And), "and")

    def _s_Or(self, node: C.Or) -> str:
        return self._logic(_chain(node, C.Or), "or")

    def _logic(self, parts: list[Expr], op: str) -> str:
        """`a and b and c`, the parts that need statements of their own written after a test of
        what came before (so that nothing is computed that Python's `and` would not)."""
        first = [self.scalar(parts[0])]
        result: str | None = None
        for part in parts[1:]:
            value, stmts = self.captured(lambda p=part: self.scalar(p))  # type: ignore[misc]
            if result is None and not stmts:
                first.append(value)
                continue
            if result is None:
                result = self.tmp()
                self.emit(f"{result} = ({f' {op} '.join(first)})")
            self.emit(f"if {result}:" if op == "and" else f"if not {result}:")
            self.lines.extend(stmts)
            self.emit(f"{result} = {value}", 1)
        return result if result is not None else f"({f' {op} '.join(first)})"

    def _s_IfExp(self, node: C.IfExp) -> str:
        cond = self.scalar(node.cond)
        then, s1 = self.captured(lambda: self.scalar(node.then))
        other, s2 = self.captured(lambda: self.scalar(node.other))
        if not s1 and not s2:
            return f"({then} if {cond} else {other})"
        t = self.tmp()
        self.emit(f"if {cond}:")
        self.lines.extend(s1)
        self.emit(f"{t} = {then}", 1)
        self.emit("else:")
        self.lines.extend(s2)
        self.emit(f"{t} = {other}", 1)
        return t

    def _s_Member(self, node: C.Member) -> str:
        coll = self.coll(node.coll)
        item = self.leaf(self.scalar(node.item))
        if isinstance(coll, _Span):
            return f"({coll.lo} <= {item} and {item} <= {coll.hi})"
        if isinstance(coll, _Pips):
            if not coll.values:
                return "False"
            if min(coll.values) >= 0 and max(coll.values) <= MAX_BIT:
                return f"rt.has({_mask_of(coll.values)}, {item})"
            return "(" + " or ".join(f"{item} == {v}" for v in coll.values) + ")"
        if isinstance(coll, _Mask):
            return f"rt.has({coll.mask}, {item})"
        if isinstance(coll, _Dice):
            return f"({item} == d1 or {item} == d2)"
        raise Unsupported("membership in a list that is not of numbers")

    def _set_bounds(self, node: Expr) -> tuple[int, int]:
        """The numbers a set may hold, proven for every input (raise when they may leave the
        span of a bit mask)."""
        lo, hi = self._elements(node)
        if hi < lo:
            return 0, -1
        if lo < 0 or hi > MAX_BIT:
            raise Unsupported("a set whose numbers may lie outside 0..62")
        return lo, hi

    def _elements(self, node: Expr) -> tuple[int, int]:
        if isinstance(node, C.Const):
            return (min(node.value), max(node.value)) if node.value else (0, -1)
        if isinstance(node, C.Call) and node.fn in ("landings", "rests", "arrivals"):
            return 0, UNENTERED
        if isinstance(node, C.Hoisted):
            return self.hoisted_sets[node.index]
        if isinstance(node, C.Agg) and node.kind == "union" and node.body is not None:
            return self._elements(node.body) if node.body.type == SET \
                else self._exact(node.body)
        if isinstance(node, C.IfExp):
            (a, b), (c, d) = self._elements(node.then), self._elements(node.other)
            return min(a, c), max(b, d)
        if isinstance(node, C.SetOf):
            if not node.items:
                return 0, -1
            spans = [self._exact(i) for i in node.items]
            return min(s[0] for s in spans), max(s[1] for s in spans)
        if isinstance(node, C.Range):
            info = self.info(node)     # a range is clipped to its bounds when it runs
            return info.lo, info.hi
        return self._exact(node)

    def _exact(self, node: Expr) -> tuple[int, int]:
        info = self.info(node)
        if not info.exact:
            raise Unsupported("a set whose numbers are bounded only under assumptions")
        return info.lo, info.hi

    def _s_Range(self, node: C.Range) -> str:
        info = self.info(node)
        lo, hi = self.scalar(node.lo), self.scalar(node.hi)
        if info.lo < 0 or info.hi > MAX_BIT:
            raise Unsupported("a range reaching outside 0..62 used as a set")
        return f"rt.span({lo}, {hi}, {info.lo}, {info.hi})"

    def _s_SetOf(self, node: C.SetOf) -> str:
        if not node.items:
            return "0"
        self._set_bounds(node)
        return "(" + " | ".join(f"rt.bit({self.scalar(i)})" for i in node.items) + ")"

    def _s_Call(self, node: C.Call) -> str:
        fn, args = node.fn, node.args
        if fn in ("mine", "theirs"):
            state = self.state(args[0])
            p = args[1]
            if isinstance(p, C.Const):
                v = p.value
                if 1 <= v <= 24:
                    return f"rt.{'pos' if fn == 'mine' else 'neg'}({state.cell(v)})"
                special = {("mine", 0): 0, ("mine", 25): 25, ("theirs", 0): 27,
                           ("theirs", 25): 26}.get((fn, v))
                if special is not None:
                    return state.cell(special)
                if v != UNENTERED:
                    return "0"
            elif self._on_board(p):
                return f"rt.{'pos' if fn == 'mine' else 'neg'}({state.cell(self.scalar(p))})"
            return f"rt.{fn}({state.view()}, {self.scalar(p)})"
        if fn == "empty":
            state = self.state(args[0])
            p = args[1]
            if (isinstance(p, C.Const) and 1 <= p.value <= 24) or self._on_board(p):
                return f"({state.cell(self.scalar(p))} == 0)"
            return f"rt.empty({state.view()}, {self.scalar(p)})"
        if fn == "full":
            state = self.state(args[0])
            region = args[1]
            if isinstance(region, C.Const):
                pips = sorted(region.value)
                if pips and all(1 <= p <= 24 for p in pips):
                    return "(" + " and ".join(f"{state.cell(p)} >= 2" for p in pips) + ")"
            return f"rt.full({state.view()}, {self.scalar(region)})"
        if fn in ("mine_pinned", "theirs_pinned"):
            return f"rt.{fn}({self.state(args[0]).view()}, {self.scalar(args[1])})"
        if fn == "their_pip":
            return f"rt.their_same({self.scalar(args[0])})"
        if fn in ("landings", "rests", "arrivals"):
            path = self.ref(args[0])
            if not isinstance(path, _Path):
                raise Unsupported(f"{fn} of something else than a path")
            extra = f", {self.scalar(args[1])}" if fn == "arrivals" else ""
            return f"rt.{fn}({path.arr}, {path.n}{extra})"
        if fn in ("can_move", "opponent_can_move"):
            values = [c.value for c in args[1:] if isinstance(c, C.Const)]
            if len(values) != len(args) - 1 or any(type(v) is not int for v in values):
                raise Unsupported(f"{fn} with switches that are not numbers")
            switches = ", ".join(str(v) for v in values)
            return f"rt.can_move({self.state(args[0]).view()}, {switches})"
        if fn == "abs":
            return f"abs({self.scalar(args[0])})"
        if fn == "size":
            return self._size(args[0])
        raise Unsupported(f"the built-in function {fn}")

    def _size(self, node: Expr) -> str:
        if node.type == PATH:
            path = self.ref(node)
            assert isinstance(path, _Path)
            return path.n
        coll = self.coll(node)
        if isinstance(coll, _Span):
            return f"max(0, {coll.hi} - {coll.lo} + 1)"
        if isinstance(coll, _Pips):
            return str(len(set(coll.values)))
        if isinstance(coll, _Mask):
            return f"rt.count({coll.mask})"
        if isinstance(coll, _Dice):
            return "(1 if d1 == d2 else 2)" if coll.distinct else "2"
        if isinstance(coll, _Plays):
            return "pb.shape[0]"
        if isinstance(coll, _Paths):
            return f"({coll.hi} - {coll.lo})"
        raise Unsupported("the size of this collection")

    def _on_board(self, node: Expr) -> bool:
        if not isinstance(node, (C.Local, C.Param, C.Hoisted)):
            return False
        info = node.info
        return info is not None and info.exact and 1 <= info.lo and info.hi <= 24

    # -- positions, paths, plays ------------------------------------------------------------------

    def state(self, node: Expr) -> _State:
        out = self.ref(node)
        if not isinstance(out, _State):
            raise Unsupported("a position that is not a board")
        return out

    def ref(self, node: Expr) -> Any:
        """What a part that is not a number stands for in the emitted code."""
        if isinstance(node, C.Param):
            if node.name == "b":
                return _State("b")
            if node.name == "a":
                return _State("pb", "i") if self.context == CHOICE else _State("a")
            if node.name == "x":
                if node.type == PATH:
                    return _Path("x", "xn")
                if node.type == PLAY:
                    self.reads_plays = True
                    return _Play("i")
            raise Unsupported(f"the parameter {node.name}")
        if isinstance(node, C.Local):
            found = self.binders.get(node.id)
            if found is None or isinstance(found, str):
                raise Unsupported("an aggregate variable out of place")
            return found
        if isinstance(node, C.Item):
            base = self.ref(node.base)
            if isinstance(base, _Play):
                if node.index == 0:
                    return _State("pb", base.index)
                return _Paths(f"ps[{base.index}]", f"ps[{base.index} + 1]")
            if isinstance(base, _Path) and node.index == -1:
                return _Step(base, f"({base.n} - 1)")
            raise Unsupported("a field out of place")
        if isinstance(node, C.CtxField) and node.name == "plays":
            self.reads_plays = True
            return _Plays()
        raise Unsupported(f"{type(node).__name__} as a position, path or play")

    def coll(self, node: Expr) -> _Coll:
        """A collection an aggregate runs over (or `in` looks into)."""
        if isinstance(node, C.Range):
            info = self.info(node)
            lo, hi = self.scalar(node.lo), self.scalar(node.hi)
            lo_info, hi_info = self.info(node.lo), self.info(node.hi)
            if not (lo_info.exact and lo_info.lo >= info.lo):
                lo = f"max({lo}, {info.lo})"
            if not (hi_info.exact and hi_info.hi <= info.hi):
                hi = f"min({hi}, {info.hi})"
            return _Span(self.leaf(lo), self.leaf(hi))
        if isinstance(node, C.Const) and node.type == SET:
            return _Pips(tuple(sorted(node.value)))
        if isinstance(node, C.Dice):
            return _Dice(node.distinct)
        if node.type == SET:
            first, last = self._set_bounds(node)
            return _Mask(self.leaf(self.scalar(node)), first, last)
        if node.type == LIST_INT:
            raise Unsupported("a list of numbers other than the dice")
        out = self.ref(node)
        if isinstance(out, (_Plays, _Paths, _Path)):
            return out
        raise Unsupported("a collection out of place")

    # -- aggregates -------------------------------------------------------------------------------

    def _invariants(self, node: C.Agg) -> list[Expr]:
        """The parts of an aggregate's condition and body with an aggregate inside that read
        neither its variable nor one bound inside it: computed once, before the loop."""
        out: list[Expr] = []
        inner: set[int] = set()
        for n in C.walk(node):
            if isinstance(n, C.Agg):
                inner.add(n.binder.id)
        stack = [k for k in (node.where, node.body) if k is not None]
        while stack:
            n = stack.pop()
            if (n.has_aggregate and n.type in _SCALAR
                    and not any(isinstance(r, int) and r in inner for r in self.reads(n))):
                out.append(n)
                continue
            stack.extend(n.kids())
        return out

    def _s_Agg(self, node: C.Agg) -> str:
        kind = node.kind
        assert node.body is not None
        coll = self.coll(node.coll)
        saved_cache = dict(self.cache)
        for part in self._invariants(node):
            if id(part) not in self.cache:
                self.cache[id(part)] = self.leaf(self.scalar(part))
        t = self.tmp()
        seen = None
        init = {"count": "0", "sum": "0", "any": "False", "all": "True", "max": "0", "min": "0",
                "union": "0"}[kind]
        self.emit(f"{t} = {init}")
        if kind in ("max", "min"):
            seen = self.tmp()
            self.emit(f"{seen} = False")
        if kind == "union":
            self._set_bounds(node)
        if isinstance(coll, _Pips) and not coll.values:
            self.cache = saved_cache
            return t
        masked = self._masked_test(node, coll)
        if masked is not None:
            # whether some (or every) member of a set lies in another: one test of their bits
            self.emit(f"{t} = {masked}")
            self.cache = saved_cache
            return t
        opened = self._loop(node.binder, coll)
        self.depth += opened
        try:
            if node.where is not None:
                cond = self.scalar(node.where)
                self.emit(f"if {cond}:")
                self.depth += 1
                opened += 1
            if kind == "count":
                self.emit(f"{t} += 1")
            else:
                body = self.scalar(node.body)
                if kind == "sum":
                    self.emit(f"{t} += {body}")
                elif kind == "any":
                    self.emit(f"if {body}:")
                    self.emit(f"{t} = True", 1)
                    self.emit("break", 1)
                elif kind == "all":
                    self.emit(f"if not {body}:")
                    self.emit(f"{t} = False", 1)
                    self.emit("break", 1)
                elif kind in ("max", "min"):
                    v = self.leaf(body)
                    better = ">" if kind == "max" else "<"
                    self.emit(f"if not {seen} or {v} {better} {t}:")
                    self.emit(f"{t} = {v}", 1)
                    self.emit(f"{seen} = True", 1)
                elif node.body.type == INT:
                    self.emit(f"{t} |= rt.bit({body})")
                else:
                    self.emit(f"{t} |= {body}")
        finally:
            self.depth -= opened
            self.binders.pop(node.binder.id, None)
        self.cache = saved_cache
        return t

    def _masked_test(self, node: C.Agg, coll: _Coll) -> str | None:
        """`any`/`all` over a set of its members' membership of another set of pips (`exists
        x in landings: x in [7..12]`), as one test of the two masks' bits within the first
        set's bounds; None for any other aggregate."""
        body = node.body
        if node.kind not in ("any", "all") or node.where is not None or \
                not isinstance(coll, _Mask) or not isinstance(body, C.Member) or \
                not isinstance(body.item, C.Local) or body.item.id != node.binder.id:
            return None
        if not (isinstance(coll.lo, int) and isinstance(coll.hi, int)
                and 0 <= coll.lo <= coll.hi <= MAX_BIT):
            return None
        inner = self.coll(body.coll)
        if isinstance(inner, _Pips):
            if not all(0 <= v <= MAX_BIT for v in inner.values):
                return None
            other = str(_mask_of(inner.values))
        elif isinstance(inner, _Mask):
            other = inner.mask
        else:
            return None
        span = _mask_of(range(coll.lo, coll.hi + 1))
        if node.kind == "any":
            return f"(({coll.mask}) & ({other}) & {span}) != 0"
        return f"(({coll.mask}) & ~({other}) & {span}) == 0"

    def _loop(self, binder: C.Local, coll: _Coll) -> int:
        """Open the loop over `coll`, binding `binder`; the levels of nesting it opened."""
        v = f"_v{binder.id}"
        if isinstance(coll, _Span):
            self.emit(f"for {v} in range({coll.lo}, {coll.hi} + 1):")
            self.binders[binder.id] = v
            return 1
        if isinstance(coll, _Pips):
            items = ", ".join(str(p) for p in coll.values)
            self.emit(f"for {v} in ({items},):")
            self.binders[binder.id] = v
            return 1
        if isinstance(coll, _Mask):
            self.emit(f"for {v} in range({coll.lo}, {coll.hi} + 1):")
            self.emit(f"if ({coll.mask} >> {v}) & 1:", 1)
            self.binders[binder.id] = v
            return 2
        if isinstance(coll, _Dice):
            k = self.tmp("_k")
            n = "(1 if d1 == d2 else 2)" if coll.distinct else "2"
            self.emit(f"for {k} in range({n}):")
            self.emit(f"{v} = d1 if {k} == 0 else d2", 1)
            self.binders[binder.id] = v
            return 1
        if isinstance(coll, _Plays):
            self.emit(f"for {v} in range(pb.shape[0]):")
            self.binders[binder.id] = _Play(v)
            return 1
        if isinstance(coll, _Paths):
            self.emit(f"for {v} in range({coll.lo}, {coll.hi}):")
            self.binders[binder.id] = _Path(f"pp[{v}]", f"pn[{v}]")
            return 1
        if isinstance(coll, _Path):
            self.emit(f"for {v} in range({coll.n}):")
            self.binders[binder.id] = _Step(coll, v)
            return 1
        raise Unsupported("a loop over this collection")


# -- functions and the module ----------------------------------------------------------------------

def _text(lines: list[tuple[int, str]]) -> list[str]:
    return ["    " * d + t for d, t in lines]


def _header(name: str, args: tuple[str, ...]) -> list[str]:
    return ["", "", "@njit(cache=True)", f"def {name}({', '.join(args)}):"]


class _Module:
    def __init__(self) -> None:
        self.parts: list[str] = ["import numpy as np", "from numba import njit",
                                 "from interpreter.native import rt"]
        self.temps = itertools.count()
        self.names = itertools.count()

    def name(self) -> str:
        return f"rule_{next(self.names)}"

    def add(self, lines: list[str]) -> None:
        self.parts.extend(lines)

    def hook(self, tree: Expr | None, context: str, kind: str, mode: str | None = None
             ) -> NativeFn:
        """A hook's function (and its batch form for forbid and choice rules); `tree` None: a
        rule the file's options switch off."""
        name = self.name()
        args = _ARGS[context]
        body = _Body(context, self.temps)
        if tree is None:
            value, rtype = "False", "bool"
        else:
            value = body.scalar(tree)
            rtype = "bool" if tree.type == BOOL else "int"
        body.emit(f"return {value}")
        self.add(_header(name, args) + _text(body.lines))
        batch = None
        batch_args: tuple[str, ...] = ()
        hoisted = 0
        if tree is not None and context in (FORBID, CHOICE):
            batch = f"{name}_many"
            batch_args = FORBID_BATCH_ARGS if context == FORBID else CHOICE_BATCH_ARGS
            self.add(_header(batch, batch_args) + self._batch(tree, context, rtype))
            if context == FORBID:
                hoisted = self._split(name, tree)
        return NativeFn(name, kind, args, rtype, body.reads_plays, body.path_cols, batch,
                        batch_args, mode, hoisted=hoisted)

    def _split(self, name: str, tree: Expr) -> int:
        """A forbid rule's two parts (`NativeFn.hoisted`); how many values the first writes."""
        tree, parts = hoist(tree, Cost())
        pre = _Body(FORBID, self.temps)
        each = _Body(FORBID, self.temps)
        for k, part in enumerate(parts):
            if part.type not in _SCALAR:
                raise Unsupported("a part computed once that is not a number")
            if part.type == SET:
                pre.hoisted_sets[k] = each.hoisted_sets[k] = pre._set_bounds(part)
            value = pre.scalar(part)
            if part.type == BOOL:
                pre.emit(f"hv[{k}] = 1 if {value} else 0")
                each.hoisted[k] = f"(hv[{k}] != 0)"
            else:
                pre.emit(f"hv[{k}] = {value}")
                each.hoisted[k] = f"hv[{k}]"
        pre.emit("return 0")
        self.add(_header(f"{name}_pre", ("b", "hv")) + _text(pre.lines))
        each.emit(f"return {each.scalar(tree)}")
        self.add(_header(f"{name}_each", ("b", "hv", *FORBID_ARGS[1:]))
                 + _text(each.lines))
        return len(parts)

    def _batch(self, tree: Expr, context: str, rtype: str) -> list[str]:
        """A forbid rule's batch form over a roll's candidates, or a choice rule's over all
        the plays, its parts that read only the position computed once."""
        body = _Body(context, self.temps)
        tree, parts = hoist(tree, Cost())
        for k, part in enumerate(parts):
            if part.type not in _SCALAR:
                raise Unsupported("a part computed once that is not a number")
            if part.type == SET:
                body.hoisted_sets[k] = body._set_bounds(part)
            body.hoisted[k] = body.leaf(body.scalar(part))
        dtype = "np.bool_" if rtype == "bool" else "np.int64"
        if context == FORBID:
            body.emit(f"out = np.zeros(ends.shape[0], {dtype})")
            body.emit("for _c in range(ends.shape[0]):")
            body.depth += 1
            body.emit("a = ends[_c]")
            body.emit("x = pp[_c]")
            body.emit("xn = pn[_c]")
            body.emit(f"out[_c] = {body.scalar(tree)}")
        else:
            body.emit(f"out = np.zeros(pb.shape[0], {dtype})")
            body.emit("for i in range(pb.shape[0]):")
            body.depth += 1
            body.emit(f"out[i] = {body.scalar(tree)}")
        body.depth -= 1
        body.emit("return out")
        return _text(body.lines)

    def value_rule(self, when: Expr | None, value: Expr) -> NativeFn:
        name = self.name()
        body = _Body(END, self.temps)
        if when is None:
            body.emit("return (False, 0)")
        else:
            w = body.scalar(when)
            body.emit(f"if not {w}:")
            body.emit("return (False, 0)", 1)
            body.emit(f"return (True, {body.scalar(value)})")
        self.add(_header(name, END_ARGS) + _text(body.lines))
        return NativeFn(name, "value", END_ARGS, "tuple[bool, int]")

    def stage_rule(self, when: Expr, after: Expr, to_opponent: Expr | None,
                   again: Expr | None) -> NativeFn:
        """A `[turn.stages]` rule: (when, next, to_opponent, again), the last two 1 or 0, or -1
        where the rule has no such key; all but `when` computed only when it holds."""
        name = self.name()
        body = _Body(ROLL, self.temps)
        body.emit(f"if not {body.scalar(when)}:")
        body.emit("return (False, 0, -1, -1)", 1)
        parts = [body.leaf(body.scalar(after))]
        for part in (to_opponent, again):
            parts.append("-1" if part is None else body.leaf(f"(1 if {body.scalar(part)} else 0)"))
        body.emit(f"return (True, {', '.join(parts)})")
        self.add(_header(name, ROLL_ARGS) + _text(body.lines))
        return NativeFn(name, "stage", ROLL_ARGS, "tuple[bool, int, int, int]",
                        body.reads_plays, body.path_cols)


def _tree(fn: Any) -> Expr | None:
    """The checked, folded tree of a compiled hook (None: a hook the options switch off)."""
    if fn is NEVER:
        return None
    info = hook_info(fn)
    if info is None:
        raise Unsupported("a hook the rule compiler did not make")
    return info.tree


@per_variant
def emit_rules(variant: Any) -> NativeRules | None:
    """The variant's hot-path rules as a numba module, or None when it has no rule to compile.
    A rule this back end cannot compile is left out and named in `unsupported`, with why.
    Written and checked once per variant (the playout, the walk and the throws read it)."""
    rules = variant.rules
    mod = _Module()
    functions: dict[str, NativeFn] = {}
    unsupported: dict[str, str] = {}

    def one(rule_id: str, hook: Any, context: str, kind: str, mode: str | None = None,
            value: Any = None) -> None:
        # a rule that fails leaves no half-written function: the module's text is kept only
        # when the whole rule compiled
        mark = len(mod.parts)
        try:
            if kind == "value":
                tree = _tree(value)
                if tree is None:
                    raise Unsupported("a value switched off")
                functions[rule_id] = mod.value_rule(_tree(hook), tree)
            else:
                functions[rule_id] = mod.hook(_tree(hook), context, kind, mode)
        except Unsupported as err:
            del mod.parts[mark:]
            unsupported[rule_id] = str(err)

    for r in rules.score_roll:
        one(r.id, r.fn, ROLL, "score", r.to)
    for r in rules.score_play:
        one(r.id, r.fn, CHOICE, "play", r.to)
    for rule_id, fn in rules.forbid:
        one(rule_id, fn, FORBID, "forbid")
    for rule_id, fn in getattr(rules, "forbid_move", ()):
        one(rule_id, fn, MOVE, "move")
    for rule_id, mode, fn in rules.prefer:
        one(rule_id, fn, CHOICE, "prefer", mode)
    for rule_id, winner, fn in rules.end:
        one(rule_id, fn, END, "end", winner)
    for rule_id, when, value in rules.value:
        one(rule_id, when, END, "value", value=value)
    for stage_id, when, after, to_opponent, again in getattr(rules, "stages", ()):
        key = f"stage/{stage_id}"
        mark = len(mod.parts)
        try:
            trees = [_tree(h) if h is not None else None for h in (when, after, to_opponent,
                                                                   again)]
            if trees[0] is None or trees[1] is None:
                raise Unsupported("a stage rule without its condition or its next stage")
            functions[key] = mod.stage_rule(trees[0], trees[1], trees[2], trees[3])
        except Unsupported as err:
            del mod.parts[mark:]
            unsupported[key] = str(err)
    for name, fn in getattr(rules, "bot_features", ()):
        one(f"feature/{name}", fn, END, "feature")
    if not functions:
        return None
    roll = over = value_fn = None
    roll_rules: tuple[tuple[str, str, int, int], ...] = ()
    end_rules: tuple[tuple[str, str], ...] = ()
    value_rules: tuple[str, ...] = ()
    if rules.score_roll and all(r.id in functions for r in rules.score_roll):
        roll_rules = tuple((r.id, r.to, r.simple, r.doublet) for r in rules.score_roll)
        roll = _gather_roll(mod, [functions[r.id] for r in rules.score_roll])
    if rules.end and all(i in functions for i, _w, _f in rules.end):
        end_rules = tuple((i, w) for i, w, _f in rules.end)
        over = _gather_end(mod, [functions[i] for i, _w, _f in rules.end])
    if rules.value and all(i in functions for i, _w, _v in rules.value):
        value_rules = tuple(i for i, _w, _v in rules.value)
        value_fn = _gather_value(mod, [functions[i] for i in value_rules])
    features = None
    feature_names: tuple[str, ...] = ()
    own = [f"feature/{name}" for name, _fn in getattr(rules, "bot_features", ())]
    if own and all(key in functions for key in own):
        feature_names = tuple(name for name, _fn in rules.bot_features)
        features = _gather_features(mod, [functions[key] for key in own])
    source = "\n".join(mod.parts) + "\n"
    check_source(source)
    return NativeRules(source, functions, unsupported, roll, roll_rules, over, end_rules,
                       value_fn, value_rules, features, feature_names)


def _gather_roll(mod: _Module, fns: list[NativeFn]) -> NativeFn:
    args = ", ".join(ROLL_ARGS)
    lines = _header("roll_ways", ROLL_ARGS) + [f"    out = np.zeros({len(fns)}, np.int64)"]
    for k, fn in enumerate(fns):
        call = f"{fn.name}({args})"
        if fn.returns == "bool":
            call = f"1 if {call} else 0"
        lines.append(f"    out[{k}] = {call}")
    lines.append("    return out")
    mod.add(lines)
    return NativeFn("roll_ways", "roll", ROLL_ARGS, "int64[:]", any(f.reads_plays for f in fns),
                    max(f.path_cols for f in fns))


def _gather_features(mod: _Module, fns: list[NativeFn]) -> NativeFn:
    lines = _header("features", END_ARGS) + [f"    out = np.zeros({len(fns)}, np.int64)"]
    for k, fn in enumerate(fns):
        call = f"{fn.name}(b, mp, tp)"
        if fn.returns == "bool":
            call = f"1 if {call} else 0"
        lines.append(f"    out[{k}] = {call}")
    lines.append("    return out")
    mod.add(lines)
    return NativeFn("features", "features", END_ARGS, "int64[:]")


def _gather_end(mod: _Module, fns: list[NativeFn]) -> NativeFn:
    lines = _header("game_over", END_ARGS)
    for k, fn in enumerate(fns):
        lines += [f"    if {fn.name}(b, mp, tp):", f"        return {k}"]
    lines.append("    return -1")
    mod.add(lines)
    return NativeFn("game_over", "over", END_ARGS, "int")


def _gather_value(mod: _Module, fns: list[NativeFn]) -> NativeFn:
    lines = _header("game_value", END_ARGS) + ["    best = 1", "    which = -1"]
    for k, fn in enumerate(fns):
        lines += [f"    h, v = {fn.name}(b, mp, tp)", "    if h and v > best:",
                  "        best = v", f"        which = {k}"]
    lines.append("    return (best, which)")
    mod.add(lines)
    return NativeFn("game_value", "value_all", END_ARGS, "tuple[int, int]")


# -- the whitelist ---------------------------------------------------------------------------------

class UnsafeSource(Exception):
    """Generated code outside the whitelist: a defect of this back end, never of a file."""


_FIXED_NAMES = frozenset({*FORBID_ARGS, *FORBID_BATCH_ARGS, *ROLL_ARGS, *CHOICE_ARGS, *END_ARGS,
                          "np", "njit", "rt", "range", "min", "max", "abs", "out", "best",
                          "which", "h", "v", "_c", "roll_ways", "game_over", "game_value",
                          "features", *THROWS_NAMES})
_MADE_NAMES = re.compile(r"_[tvk]\d{1,7}|rule_\d{1,5}(_many|_probe|_pre|_each)?")
_RT_NAMES = frozenset({"mine", "theirs", "pos", "neg", "mine_pinned", "theirs_pinned",
                       "their_same", "empty", "full", "div", "mod", "bit", "has", "span", "count",
                       "landings", "rests", "arrivals", "can_move", "corner_full",
                       "corner_single", "prefer_higher", "group_plays", "copy_candidate"})
_NP_NAMES = frozenset({"zeros", "int64", "bool_"})
_NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
          ast.AugAssign, ast.If, ast.For, ast.Break, ast.Expr, ast.Name, ast.Load, ast.Store,
          ast.Constant, ast.Call, ast.keyword, ast.Attribute, ast.Subscript, ast.Tuple,
          ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Import, ast.ImportFrom,
          ast.alias, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Slice)


def check_source(source: str) -> None:
    """Raise UnsafeSource unless the module is made only of what this back end writes: the
    three imports, `@njit(cache=True)` functions of made-up names over the fixed arguments,
    integer and boolean constants, names of the whitelist, loops over ranges and fixed tuples."""
    from interpreter.threadsafe import parse_python

    tree = parse_python(source)
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    shown = [ast.unparse(n) for n in imports]
    if shown != ["import numpy as np", "from numba import njit",
                 "from interpreter.native import rt"]:
        raise UnsafeSource(f"imports {shown}")
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise UnsafeSource(f"{type(node).__name__} is not generated")
        if isinstance(node, ast.Constant) and type(node.value) not in (int, bool):
            raise UnsafeSource(f"constant {node.value!r}")
        if isinstance(node, ast.Name) and not (node.id in _FIXED_NAMES
                                               or _MADE_NAMES.fullmatch(node.id)):
            raise UnsafeSource(f"name {node.id!r}")
        if isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if not ((owner == "rt" and node.attr in _RT_NAMES)
                    or (owner == "np" and node.attr in _NP_NAMES) or node.attr == "shape"):
                raise UnsafeSource(f"attribute {node.attr!r}")
        if isinstance(node, ast.keyword) and node.arg != "cache":
            raise UnsafeSource(f"keyword {node.arg!r}")
        if isinstance(node, ast.FunctionDef):
            if not (_MADE_NAMES.fullmatch(node.name) or node.name in _FIXED_NAMES):
                raise UnsafeSource(f"function {node.name!r}")
            if [ast.unparse(d) for d in node.decorator_list] != ["njit(cache=True)"]:
                raise UnsafeSource(f"decorators of {node.name}")
            if any(a.arg not in _FIXED_NAMES for a in node.args.args):
                raise UnsafeSource(f"arguments of {node.name}")
        if isinstance(node, ast.For):
            it = node.iter
            if not (isinstance(it, ast.Tuple)
                    or (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                        and it.func.id == "range")):
                raise UnsafeSource("a loop over something else than a range or a tuple")


# -- loading ---------------------------------------------------------------------------------------

_loaded: dict[str, Any] = {}


def _folder(digest: str) -> str:
    return native_folder(digest)


def load_module(nr: NativeRules) -> Any:
    """The imported module of `nr.source`, written once under the cache folder named by its
    hash (`modules.native_folder`); numba keeps each function's machine code in its own cache
    (`native/numba_cache.py`)."""
    digest = nr.digest
    mod = _loaded.get(digest)
    if mod is not None:
        return mod
    check_source(nr.source)
    name = f"tablier_rules_{digest}"
    path = os.path.join(_folder(digest), name + ".py")
    mod = import_text(name, path, nr.source)
    _loaded[digest] = mod
    return mod


def load_native_rules(nr: NativeRules) -> dict[str, Callable[..., Any]]:
    """The compiled functions of `nr` by rule id (`NativeRules.functions`, the stage rules as
    `stage/<id>`, the bot features as `feature/<name>`), their batch forms as `<id>/many`, and
    the gathering functions as `_roll`, `_over`, `_value` and `_features` (a rule id has no `_`
    or `/`). Each compiles on its first call, or loads from numba's disk cache."""
    mod = load_module(nr)
    out: dict[str, Callable[..., Any]] = {}
    for rule_id, fn in nr.functions.items():
        out[rule_id] = getattr(mod, fn.name)
        if fn.batch is not None:
            out[f"{rule_id}/many"] = getattr(mod, fn.batch)
    for key, gathered in (("_roll", nr.roll), ("_over", nr.over), ("_value", nr.value),
                          ("_features", nr.features)):
        if gathered is not None:
            out[key] = getattr(mod, gathered.name)
    return out


# -- the arrays of Python values -------------------------------------------------------------------

def pack_path(path: Any, cols: int = 5) -> Any:
    """A path (a sequence of `kernel.movegen.Step`s or 5-tuples) as the (steps, cols) array the
    compiled functions read (at least one row, so that an empty path has an array too)."""
    import numpy as np

    out = np.zeros((max(1, len(path)), cols), np.int64)
    for j, st in enumerate(path):
        out[j] = tuple(st)[:cols]
    return out


def pack_plays(plays: Any, cells: int, cols: int = 5) -> tuple[Any, Any, Any, Any]:
    """The plays of a roll (`kernel.movegen.Play`s) as the arrays `pb, ps, pp, pn` the compiled
    functions read; `cells` the length of a board. (Made with one array of all the numbers, cut
    up: numpy's cost is per array made, far more than per number.)"""
    import numpy as np

    n = len(plays)
    counts = [len(pl.paths) for pl in plays]
    lengths = [len(p) for pl in plays for p in pl.paths]
    steps = max(lengths, default=0) or 1
    flat: list[int] = []
    for pl in plays:
        flat.extend(pl.board)
    pad = [0] * cols
    for pl in plays:
        for p in pl.paths:
            for st in p:
                flat.extend(st[:cols])
            flat.extend(pad * (steps - len(p)))
    offsets = [0]
    for c in counts:
        offsets.append(offsets[-1] + c)
    flat.extend(offsets)
    flat.extend(lengths)
    data = np.array(flat, np.int64)
    at = n * cells
    pb = data[:at].reshape(n, cells)
    npaths = len(lengths)
    pp = data[at:at + npaths * steps * cols].reshape(npaths, steps, cols)
    at += npaths * steps * cols
    ps = data[at:at + n + 1]
    pn = data[at + n + 1:]
    return pb, ps, pp, pn
