"""Checking rule snippets and compiling them to Python functions.

A snippet goes through these passes, each a module of its own:

1. parse (`parser.py`): lark's LALR parser, then a transformer to typed syntax nodes;
2. check (`check.py`): names, arity, types and the context each kind of rule allows, with the
   file's definitions expanded where they are used (a definition is checked with the types of
   its arguments);
3. fold (`fold.py`): options and constants decided, strings compared once and for all;
4. bounds and cost (`bounds.py`): every number and collection bounded, ranges and numbers over
   the limits refused, the hook's worst case in one roll priced against the budget;
5. optimise (`optimize.py`): set operations, aggregates written out within a size budget, the
   parts that read only the position before the roll hoisted (forbid and prefer rules);
6. emit (`emit.py`): Python `ast` nodes with names the compiler makes up, checked against a
   whitelist (`safety.py`), compiled.

Steps 1-4 are `Compiler.compile_expr` (what `tablier validate` needs), 5-6 `Compiler.function`.
Each hook becomes one function, compiled once per variant load:

    hook(b, a, x, d1, d2, rolls, ctx)

`b` the hook's position (28-int board tuple), `a` the board after the play (play hooks), `x` the
path or play under examination, `d1, d2` the dice, `rolls` the mover's throw number, `ctx` a
`RollContext` (legal plays and unplayed numbers, computed on demand).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from typing import Any, Callable

from interpreter.dsl import core as C
from interpreter.dsl import syntax as S
from interpreter.dsl.bounds import Bounds, Cost, Reads
from interpreter.dsl.check import Checker, Definition, Symbols, parse_definition_key, words
from interpreter.dsl.core import (ANY_TYPE, BOOL, CHOICE, CONTEXT_WORDS, END, FORBID, INT, LIST_INT,
                                  LIST_PATH, LIST_PLAY, MOVE, PATH, PLAY, ROLL, SET, STATE, STEP,
                                  STR, TYPE_WORDS, Expr)
from interpreter.dsl.emit import Emitted, build_hook
from interpreter.dsl.fold import Folder
from interpreter.dsl.limits import COST_BUDGET, MAX_DEPTH
from interpreter.dsl.optimize import Optimizer, cache_invariants, hoist
from interpreter.dsl.parser import parse
from interpreter.dsl.runs import Runs, runs_of
from interpreter.dsl.runtime import BUILTINS, RUNTIME
from interpreter.dsl.syntax import SnippetError
from interpreter.dsl.vocabulary import BUILTIN_NAMES, Env



def runs_in(runs: Runs, context: str) -> int:
    """How many times a hook of `context` runs in one throw (interpreter/dsl/runs.py): once per
    candidate path (forbid), single move (forbid on each move), play (prefer, a score on the
    play), board a bot judges (end and value rules), throw a bot's search plays (a score on
    the throw)."""
    if context == FORBID:
        return runs.paths
    if context == MOVE:
        return runs.moves
    if context == CHOICE:
        return runs.plays
    if context == END:
        return runs.boards
    return runs.throws


@dataclass
class Value:
    """A checked snippet: its type, its folded tree, and what the compiler learnt of it."""

    type: str
    tree: Expr
    context: str
    key_path: tuple[str, ...]
    text: str
    #: the definitions it expands (their `[define]` keys) and the regions it names
    uses: tuple[str, ...]
    regions: tuple[str, ...]
    #: the cost model's worst case in one roll, and how many times per roll it runs
    cost: int
    candidates: int

    @property
    def is_const(self) -> bool:
        return isinstance(self.tree, C.Const)

    @property
    def const(self) -> Any:
        return self.tree.value if isinstance(self.tree, C.Const) else None


@dataclass
class HookInfo(Value):
    """What `tablier explain` shows of a compiled hook (attached to it as `__dsl__`): the
    checked snippet, the compiler's number for the hook and the code emitted for it."""

    index: int
    emitted: Emitted

    @property
    def source(self) -> str:
        return self.emitted.source


def hook_info(fn: Any) -> HookInfo | None:
    info = getattr(fn, "__dsl__", None)
    return info if isinstance(info, HookInfo) else None


def reads_path(fn: Any) -> bool:
    """Whether a hook may read the path (or the play) under examination: false only for a hook
    of the compiler whose checked tree never reads it, true for any other function."""
    info = hook_info(fn)
    if info is None or info.tree is None:
        return True
    return "x" in Reads()(info.tree)


class Compiler:
    """Checks and compiles the snippets of one variant file against its symbols."""

    def __init__(self, symbols: Symbols, unroll: bool = True):
        self.symbols = symbols
        #: write out aggregates over small fixed sets of pips (False: always loops)
        self.unroll = unroll
        #: how many times each kind of hook runs in one throw, bounded from the variant
        self.runs = runs_of(symbols.checkers, symbols.doublet_moves, symbols.dice)
        self.env = Env(checkers=symbols.checkers, route=symbols.route, pins=symbols.pins,
                       pool=symbols.pool, plays=self.runs.plays, moves=symbols.moves,
                       no_can_move=symbols.no_can_move, points=symbols.points,
                       limit=symbols.limit, limited=symbols.limited)
        #: the globals of every hook of this compiler: the runtime table and the fixed sets
        self.namespace: dict[str, Any] = {**RUNTIME, "__builtins__": dict(BUILTINS)}
        self.constants: dict[frozenset, str] = {}
        self.strings: dict[str, int] = {}
        self._binders = itertools.count()
        self._hooks = itertools.count()
        self._caches = itertools.count()
        self._checker = Checker(symbols, self.env, self._binders)

    # -- checking (passes 1-4) --------------------------------------------------------------------

    def compile_expr(self, text: str, context: str, want: str | tuple[str, ...],
                     key_path: tuple[str, ...], candidates: int | None = None) -> Value:
        """Check a snippet, fold it and price it; raise SnippetError at the first problem.
        `candidates`: how many times the hook runs in one throw (default: by context, bounded
        from the variant by `runs_in`; 0: checked only, not priced)."""
        try:
            node = parse(text)
        except SnippetError as err:
            raise err.at(key_path) from None
        runs = runs_in(self.runs, context) if candidates is None else candidates
        try:
            tree = self._checker.check(node, context, key_path)
            uses = tuple(self._checker.uses)
            regions = tuple(self._checker.regions_used)
            wants = (want,) if isinstance(want, str) else want
            if tree.type not in wants:
                raise node.error("dsl-type", f"this snippet must give {words(wants)}, but it "
                                 f"gives {TYPE_WORDS[tree.type]}").at(key_path)
            kind = tree.type
            tree = Folder(self.strings)(tree)
            Bounds(self.env)(tree)
            # only a forbid or prefer rule runs many times on one position (optimize.hoist); a
            # rule on each move, on each board or on each throw reads a position of its own
            # each time: nothing of it is computed once for all its runs
            cost = Cost().per_roll(tree, runs, hoisting=context in (FORBID, CHOICE)) \
                if runs else 0
            if cost > COST_BUDGET:
                raise self._over_budget(tree, cost, runs, context)
        except SnippetError as err:
            raise (err if err.key_path else err.at(key_path)) from None
        return Value(kind, tree, context, key_path, text, uses, regions, cost, runs)

    @staticmethod
    def _over_budget(tree: Expr, cost: int, runs: int, context: str) -> SnippetError:
        where = Cost().costliest_aggregate(tree).site
        return SnippetError("cost", f"this rule may take {cost:,} steps in one throw"
                                    f"{per_run(context, runs)}, "
                            f"over the budget of {COST_BUDGET:,} for the whole file: make what its "
                            f"aggregates run over smaller", where.line, where.col, where.length,
                            where.key_path)

    def region(self, text: str, key_path: tuple[str, ...]) -> frozenset[int]:
        """The pips of a `[regions]` value."""
        try:
            node = parse(text, "region_start")
        except SnippetError as err:
            raise err.at(key_path) from None
        assert isinstance(node, S.Region)
        points: set[int] = set()
        bad: list[int] = []
        for part in node.parts:
            if (isinstance(part, S.Range) and isinstance(part.lo, S.Num)
                    and isinstance(part.hi, S.Num)):
                lo, hi = part.lo.value, part.hi.value
                if lo <= hi and (lo < 0 or hi > 25):
                    # not on the board: reported without making the range
                    bad.append(lo if lo < 0 else max(lo, 26))
                    continue
                if lo <= hi:     # fixed pips on the board: nothing to check or fold
                    points.update(range(lo, hi + 1))
                    continue
            try:
                value = Folder(self.strings)(self._checker.check(part, END, key_path))
            except SnippetError as err:
                raise (err if err.key_path else err.at(key_path)) from None
            if isinstance(value, C.Const) and value.type == INT:
                points.add(value.value)
            elif isinstance(value, C.Const) and value.type == SET:
                points.update(value.value)
            else:
                raise part.error("dsl-type", "a region is made of fixed pips and ranges such as "
                                 "1..6").at(key_path)
        bad += [p for p in points if not 0 <= p <= 25]
        if bad:
            raise node.error("dsl-range", f"pip {min(bad)} is not on the board (pips 1..24, "
                             f"bar 25, off 0)").at(key_path)
        return frozenset(points)

    # -- compiling (passes 5-6) -------------------------------------------------------------------

    def function(self, value: Value, label: str | None = None) -> Callable[..., Any]:
        """Compile a checked snippet into a hook function (with its batch form for forbid and
        prefer rules). `label` is accepted for callers that name their hooks; the generated
        code never uses it."""
        tree = Optimizer(self.unroll, self.strings)(value.tree)
        # the parts the optimiser made are bounded when a later pass asks
        bounds = Bounds(self.env)
        hoisted: list[Expr] = []
        caches: list[int] = []
        batch = None
        if value.context in (FORBID, CHOICE):
            tree, hoisted = hoist(tree, Cost(bounds))
            batch = "filter" if value.context == FORBID else "each"
        else:
            tree, caches = cache_invariants(tree, Cost(bounds), lambda: next(self._caches))
        index = next(self._hooks)
        emitted = build_hook(index, tree, hoisted, batch, self.namespace, self.constants, bounds,
                             caches)
        fn = emitted.fn
        info = HookInfo(**{f.name: getattr(value, f.name) for f in fields(Value)},
                        index=index, emitted=emitted)
        fn.__dsl__ = info  # type: ignore[attr-defined]
        if emitted.batch is not None:
            setattr(fn, "filter_paths" if batch == "filter" else "each", emitted.batch)
        return fn


def per_run(context: str, runs: int) -> str:
    """` (it runs once per path, up to N a throw)`: what a cost diagnostic says of the runs."""
    if runs <= 1:
        return ""
    unit = {FORBID: "path", MOVE: "single move", CHOICE: "play",
            END: "board a bot judges", ROLL: "throw a bot's search plays"}.get(context, "call")
    return f" (it runs once per {unit}, up to {runs:,} a throw)"


def roll_info(fn: Any) -> tuple[Any, dict, str, list[int]] | None:
    """What `emit.roll_function` writes out of a roll hook: (expression, namespace, type, the
    indexes of its parts kept within a call)."""
    info = hook_info(fn)
    if info is None or info.emitted.expr is None:
        return None
    return info.emitted.expr, info.emitted.namespace, info.type, info.emitted.caches


__all__ = ["Compiler", "Symbols", "Definition", "SnippetError", "Value", "HookInfo", "hook_info",
           "parse_definition_key", "BUILTIN_NAMES", "CONTEXT_WORDS", "TYPE_WORDS", "ANY_TYPE",
           "ROLL", "FORBID", "CHOICE", "END", "MOVE", "INT", "BOOL", "STR", "SET", "STATE", "PLAY",
           "PATH", "STEP", "LIST_INT", "LIST_PLAY", "LIST_PATH", "MAX_DEPTH"]
