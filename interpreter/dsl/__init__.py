"""The rule language: snippets in variant files, checked at load time and compiled once.

`compile_document(model)` turns a validated variant model into a `RuleSet` of Python functions;
`check_document(model)` reports every snippet problem (for `tablier validate`).
"""
from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Callable

from interpreter.dsl.check import measure_definitions
from interpreter.dsl.compiler import (ANY_TYPE, BOOL, CHOICE, END, FORBID, INT, MOVE, ROLL,
                                      Compiler, HookInfo, Symbols, hook_info,
                                      parse_definition_key, per_run, reads_path, roll_info)
from interpreter.dsl.emit import roll_function
from interpreter.dsl.bounds import Cost
from interpreter.dsl.limits import COST_BUDGET
from interpreter.dsl.parser import flush
from interpreter.dsl.syntax import SnippetError
from interpreter.dsl.runtime import RollContext
from interpreter.dsl.vocabulary import BUILTIN_NAMES

__all__ = ["RuleSet", "ScoreRule", "points_by_side", "check_document", "compile_document",
           "SnippetError", "RollContext", "HookInfo", "hook_info", "reads_path", "source_of"]

Hook = Callable[..., Any]


def points_by_side(items: list[tuple[str, str, int, int]]) -> tuple[int, int]:
    """The points of scoring items (rule, to, points, ways) for the mover and the opponent."""
    mine = theirs = 0
    for _r, to, p, _w in items:
        if to == "mover":
            mine += p
        else:
            theirs += p
    return mine, theirs


def NEVER(*_args: Any) -> bool:
    """The hook of a rule whose condition the file's options make always false."""
    return False


@dataclass(frozen=True)
class ScoreRule:
    """A scoring item: `fn` gives the number of ways (or 1/0 for a `when` rule)."""

    id: str
    to: str            # "mover" | "opponent"
    simple: int
    doublet: int
    fn: Hook


@dataclass
class RuleSet:
    """The compiled hooks of one variant, in the order the engine consults them (docs/dsl.md)."""

    score_roll: list[ScoreRule] = field(default_factory=list)
    score_play: list[ScoreRule] = field(default_factory=list)
    forbid: list[tuple[str, Hook]] = field(default_factory=list)
    #: forbid rules asked of each single move (`on = "move"`), in order
    forbid_move: list[tuple[str, Hook]] = field(default_factory=list)
    prefer: list[tuple[str, str, Hook]] = field(default_factory=list)   # (id, keep|min|max, fn)
    end: list[tuple[str, str, Hook]] = field(default_factory=list)      # (id, winner, fn)
    #: end rules judged after each single move too (`on = "move"`): their ids, the hooks
    #: being those of `end` (the generator ends a play where one holds)
    end_move: list[tuple[str, str, Hook]] = field(default_factory=list)
    #: end rules on the throw (`on = "throw"`): (id, winner, hook), each asked like a stage
    #: rule, `hook(before, None, None, d1, d2, rolls, ctx)`, before the play
    end_throw: list[tuple[str, str, Hook]] = field(default_factory=list)
    value: list[tuple[str, Hook, Hook]] = field(default_factory=list)   # (id, when, value)
    #: `[bot] features`: (name, hook) read like a value rule on a board seen by one side
    bot_features: list[tuple[str, Hook]] = field(default_factory=list)
    regions: dict[str, frozenset[int]] = field(default_factory=dict)
    #: `[turn.stages]`: (id, when, next or None, to_opponent or None, again or None), in order
    stages: list[tuple[str, Hook, Hook | None, Hook | None, Hook | None]] = field(
        default_factory=list)
    #: `[turn.update]`: (state name, board slot of the mover's value, true/false, hook), in the
    #: order of `[turn.state]`; each hook is asked like a forbid rule of the play chosen
    updates: list[tuple[str, int, bool, Hook]] = field(default_factory=list)
    #: the cost model's price of one throw of this file: every hook's cost times its runs
    #: (interpreter/dsl/runs.py), summed; and the dearest hook's (key path, cost)
    cost: int = 0
    dearest: tuple[tuple[str, ...], int] = ((), 0)

    # -- what the engine calls ------------------------------------------------------------------

    #: the roll's scoring rules written out in one function, and the list it was made from
    _roll_fn: Hook | None = field(default=None, init=False, repr=False, compare=False)
    _roll_from: tuple = field(default=(), init=False, repr=False, compare=False)

    def roll_items(self, b, d1: int, d2: int, rolls: int, ctx: RollContext
                   ) -> list[tuple[str, str, int, int]]:
        """The scoring items of a roll, from the position before the move: (rule, to, points,
        ways)."""
        score_roll = tuple(self.score_roll)
        if self._roll_from != score_roll:
            self._roll_fn = _roll_function(self.score_roll)
            self._roll_from = score_roll
        if self._roll_fn is not None:
            return self._roll_fn(b, d1, d2, rolls, ctx)
        out = []
        doublet = d1 == d2
        for r in self.score_roll:
            ways = int(r.fn(b, None, None, d1, d2, rolls, ctx))
            if ways:
                out.append((r.id, r.to, ways * (r.doublet if doublet else r.simple), ways))
        return out

    def play_items(self, b, play, d1: int, d2: int, rolls: int, ctx
                   ) -> list[tuple[str, str, int, int]]:
        """The scoring items that depend on the play chosen (rule, to, points, ways)."""
        out = []
        doublet = d1 == d2
        for r in self.score_play:
            ways = int(r.fn(b, play[0], play, d1, d2, rolls, ctx))
            if ways:
                out.append((r.id, r.to, ways * (r.doublet if doublet else r.simple), ways))
        return out

    def prefer_plays(self, b, plays: list, d1: int, d2: int, rolls: int, ctx) -> list:
        """Apply the play preferences (obligations) in order; each narrows the legal plays."""
        for _id, mode, fn in self.prefer:
            if len(plays) <= 1:
                break
            each = getattr(fn, "each", None)     # the compiled hook for all the plays at once
            if each is not None:
                values = each(b, plays, d1, d2, rolls, ctx)
            else:
                values = [fn(b, p[0], p, d1, d2, rolls, ctx) for p in plays]
            if mode == "keep":
                kept = [p for p, v in zip(plays, values) if v]
                if kept:
                    plays = kept
            else:
                best = min(values) if mode == "min" else max(values)
                plays = [p for p, s in zip(plays, values) if s == best]
        return plays

    def game_over(self, b) -> str | None:
        """After a play (board still seen by its player): "mover", "opponent", "none" (a tie:
        the game ends without a winner) or None."""
        for _id, winner, fn in self.end:
            if fn(b):
                return winner
        return None

    def game_value(self, b) -> int:
        """The value of a finished game, seen by its winner: the highest value rule that holds."""
        best = 1
        for _id, when, value in self.value:
            if when(b):
                v = int(value(b))
                if v > best:
                    best = v
        return best


def _roll_function(rules: list[ScoreRule]) -> Hook | None:
    """The roll's scoring rules as one function `(b, d1, d2, rolls, ctx) -> items`, each rule's
    compiled expression written out in turn (what `roll_items` computes, without a call and a
    loop step per rule). None when a rule has no compiled expression to write out (a hook made
    some other way) or the rules come from different compilations."""
    return roll_function(rules, roll_info)


def source_of(fn: Hook) -> str | None:
    """The Python the rule compiler generated for a hook (its batch form included)."""
    info = hook_info(fn)
    return None if info is None else info.source


def _symbols(model: Any, errors: list[SnippetError], compiler_for_regions: Compiler) -> Symbols:
    symbols = compiler_for_regions.symbols
    for name, text in (getattr(model, "regions", None) or {}).items():
        try:
            symbols.regions[name] = compiler_for_regions.region(text, ("regions", name))
        except SnippetError as err:
            errors.append(err)
    for key, text in (getattr(model, "define", None) or {}).items():
        try:
            d = parse_definition_key(key, text)
        except SnippetError as err:
            errors.append(err)
            continue
        if d.name in symbols.definitions or d.name in symbols.regions:
            errors.append(SnippetError("dsl-duplicate", f"`{d.name}` is defined twice",
                                       key_path=("define", key)))
            continue
        if d.error is not None:
            errors.append(d.error)
        symbols.definitions[d.name] = d
    parsed = {n for n, d in symbols.definitions.items() if d.error is None}
    measure_definitions(symbols)
    # a definition too large or too deep is reported where it crosses the limit
    errors += [d.error for n, d in symbols.definitions.items()
               if n in parsed and d.error is not None and d.root_error]
    return symbols


def _build(model: Any, emit: bool = True) -> tuple[RuleSet, list[SnippetError]]:
    """The rule set and every snippet problem; with `emit` False the snippets are only checked
    (what `tablier validate` needs), the rule set holding no hooks."""
    # compiling makes many short-lived trees and no cycles worth collecting meanwhile
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build_rules(model, emit)
    finally:
        if collecting:
            gc.enable()
        flush()      # the snippets parsed for the first time, for the next process


def _build_rules(model: Any, emit: bool) -> tuple[RuleSet, list[SnippetError]]:
    errors: list[SnippetError] = []
    board = getattr(model, "board", None)
    movement = getattr(model, "movement", None)
    hit = getattr(movement, "hit", "bar")
    symbols = Symbols(options=dict(getattr(model, "options", None) or {}),
                      option_choices=dict(getattr(model, "option_choices", None) or {}),
                      checkers=getattr(board, "checkers", None) or 15,
                      route=getattr(movement, "route", "opposite") or "opposite",
                      pins=hit == "pin",
                      pool=bool(getattr(board, "unentered", 0)) or hit == "unentered",
                      doublet_moves=_doublet_moves(model),
                      dice=int(getattr(getattr(model, "dice", None), "count", None) or 2),
                      moves=_moves_of(movement),
                      no_can_move=_no_can_move(movement, getattr(board, "points", None)),
                      points=int(getattr(board, "points", None) or 24),
                      limit=int(getattr(movement, "limit", 0) or 0),
                      limited=_mask(getattr(movement, "limit_pips", None) or range(1, 25)))
    compiler = Compiler(symbols)
    _symbols(model, errors, compiler)
    _state_symbols(model, symbols, errors)
    rules = RuleSet(regions=dict(symbols.regions))
    reported = {(e.key_path, e.line, e.col, e.code) for e in errors}
    #: (cost in one throw, key path, tree) of every snippet priced, for the file's total
    priced: list[tuple[int, tuple[str, ...], Any, str, int]] = []

    def compile_one(rule_id: str, key: str, text: Any, context: str, want: tuple[str, ...],
                    runs: int | None = None, table: tuple[str, ...] = ("rules",)
                    ) -> Hook | None:
        if text is None:
            return None         # a missing snippet is the schema's to report
        if isinstance(text, int) and not isinstance(text, bool):
            text = str(text)
        if not isinstance(text, str):
            return None         # the schema reports it
        try:
            # the rule's id is data: it names the snippet in diagnostics, never generated code
            value = compiler.compile_expr(text, context, want, table + (rule_id, key), runs)
            priced.append((value.cost, value.key_path, value.tree, value.context,
                           value.candidates))
            if key in ("when", "ways") and value.is_const and not value.const:
                return NEVER        # switched off by the file's options: no hook at all
            return compiler.function(value) if emit else NEVER
        except SnippetError as err:
            err = err if err.key_path else err.at(table + (rule_id, key))
            mark = (err.key_path, err.line, err.col, err.code)
            if mark not in reported:
                reported.add(mark)
                errors.append(err)
            return None

    ordered = sorted((getattr(model, "rules", None) or {}).items(),
                     key=lambda kv: (getattr(kv[1], "order", None) or 0))
    for rule_id, r in ordered:
        if not getattr(r, "enabled", True):
            continue
        kind = r.kind
        if kind == "score":
            on_play = getattr(r, "on", "roll") == "play"
            context = CHOICE if on_play else ROLL
            # a score on the play runs on each play a player or `moves` weighs (runs_in)
            if getattr(r, "ways", None) is not None:
                fn = compile_one(rule_id, "ways", r.ways, context, (INT,))
            elif getattr(r, "when", None) is not None:
                fn = compile_one(rule_id, "when", r.when, context, (BOOL,))
            else:
                fn = compile_one(rule_id, "value", "1", context, (INT,))
            value = getattr(r, "value", None)
            simple = getattr(r, "simple", None)
            doublet = getattr(r, "doublet", None)
            if simple is None and value is not None:
                simple = int(value)
            if simple is None:
                simple = 1
            if doublet is None:
                doublet = simple
            if fn is not None and fn is not NEVER:
                rule = ScoreRule(rule_id, getattr(r, "to", None) or "mover", simple, doublet, fn)
                (rules.score_play if on_play else rules.score_roll).append(rule)
        elif kind == "forbid":
            on_move = getattr(r, "on", None) == "move"
            fn = compile_one(rule_id, "when", r.when, MOVE if on_move else FORBID, (BOOL,))
            if fn is not None and fn is not NEVER:
                # when a roll may waive the rule (the kernel reads it)
                fn.waive = getattr(r, "waive", None) or "never"  # type: ignore[attr-defined]
                (rules.forbid_move if on_move else rules.forbid).append((rule_id, fn))
        elif kind == "prefer":
            for key, mode, want in (("when", "keep", BOOL), ("minimize", "min", INT),
                                    ("maximize", "max", INT)):
                text = getattr(r, key, None)
                if text is not None:
                    fn = compile_one(rule_id, key, text, CHOICE, (want,))
                    if fn is not None:
                        rules.prefer.append((rule_id, mode, fn))
                    break
        elif kind == "end":
            on = getattr(r, "on", None)
            winner = getattr(r, "winner", None) or "mover"
            if on == "throw":
                fn = compile_one(rule_id, "when", r.when, ROLL, (BOOL,))
                if fn is not None and fn is not NEVER:
                    rules.end_throw.append((rule_id, winner, fn))
                continue
            fn = compile_one(rule_id, "when", r.when, END, (BOOL,))
            if fn is not None and fn is not NEVER:
                # (a rule that can never hold under the options in effect is left out: the
                # turn loop keeps its one-rule fast path)
                rules.end.append((rule_id, winner, fn))
                if on == "move":
                    rules.end_move.append((rule_id, winner, fn))
        elif kind == "value":
            when = compile_one(rule_id, "when", r.when, END, (BOOL,))
            value = compile_one(rule_id, "value", r.value, END, (INT,))
            if when is not None and value is not None:
                rules.value.append((rule_id, when, value))
    # the stage rules of the turn (`[turn.stages]`): asked once after a throw or stage
    stages_table = ("turn", "stages")
    for stage_id, st in (getattr(getattr(model, "turn", None), "stages", None) or {}).items():
        if not getattr(st, "enabled", True):
            continue
        when = compile_one(stage_id, "when", st.when, ROLL, (BOOL,), 1, stages_table)
        # no `next`: no stage follows (the rule passes numbers on, or gives another throw)
        after = None
        if getattr(st, "next", None) is not None:
            after = compile_one(stage_id, "next", st.next, ROLL, (INT,), 1, stages_table)
            if after is None:
                continue
        to_opponent = None
        if getattr(st, "to_opponent", None) is not None:
            to_opponent = compile_one(stage_id, "to_opponent", st.to_opponent, ROLL, (BOOL,), 1,
                                      stages_table)
        again = None
        if getattr(st, "again", None) is not None:
            again = compile_one(stage_id, "again", st.again, ROLL, (BOOL,), 1, stages_table)
        if when is not None and when is not NEVER:
            rules.stages.append((stage_id, when, after, to_opponent, again))
    # the named state's updates (`[turn.update]`): asked once after each play
    turn = getattr(model, "turn", None)
    updates = getattr(turn, "update", None) or {}
    for name, up in updates.items():
        held = symbols.state.get(name)
        if held is None:
            if name not in (getattr(turn, "state", None) or {}):
                errors.append(SnippetError(
                    "dsl-unknown-name", f"`[turn.update.{name}]` updates a state that "
                    f"`[turn.state]` does not declare", key_path=("turn", "update", name)))
            continue
        slot, flag = held
        fn = compile_one(name, "value", up.value, FORBID, (BOOL,) if flag else (INT,), 1,
                         ("turn", "update"))
        if fn is not None:
            rules.updates.append((name, slot, flag, fn))
    # the search player's features of the file's own (`[bot] features`): board snippets
    # checked, priced and emitted like the value rules they read like
    bot = getattr(model, "bot", None)
    for name, text in (getattr(bot, "features", None) or {}).items():
        try:
            # it runs on each board a decision's search judges, seen by each side: twice a
            # board, none shared
            value = compiler.compile_expr(text, END, (INT, BOOL), ("bot", "features", name),
                                          2 * compiler.runs.boards)
            priced.append((value.cost, value.key_path, value.tree, value.context,
                           value.candidates))
            if emit:
                rules.bot_features.append((name, compiler.function(value)))
        except SnippetError as err:
            err = err if err.key_path else err.at(("bot", "features", name))
            mark = (err.key_path, err.line, err.col, err.code)
            if mark not in reported:
                reported.add(mark)
                errors.append(err)
    _check_plain_definitions(compiler, errors, reported)
    rules.cost = sum(p[0] for p in priced)
    if priced:
        top = max(priced, key=lambda p: p[0])
        rules.dearest = (top[1], top[0])
        if rules.cost > COST_BUDGET and not any(e.code == "cost" for e in errors):
            errors.append(_file_over_budget(rules.cost, top))
    return rules, errors


def _state_symbols(model: Any, symbols: Symbols, errors: list[SnippetError]) -> None:
    """The names of `[turn.state]`, each with the board slot of the mover's value (from slot
    31, kernel.board.Geometry); a name the language or the file already uses is refused."""
    declared = getattr(getattr(model, "turn", None), "state", None) or {}
    # (kernel.board.Geometry.state_base: the state's slots come after slot 30)
    base = 31
    for i, (name, initial) in enumerate(declared.items()):
        where = ("turn", "state", name)
        if name in BUILTIN_NAMES or name == "options":
            errors.append(SnippetError("dsl-shadow", f"`{name}` is a built-in name of the rule "
                                       f"language and cannot name a state", key_path=where))
        elif name in symbols.regions or name in symbols.definitions:
            errors.append(SnippetError("dsl-duplicate", f"`{name}` is already a region or a "
                                       f"definition of the file", key_path=where))
        else:
            symbols.state[name] = (base + i, isinstance(initial, bool))


def _mask(pips: Any) -> int:
    """A set of pips as a mask, bit p for pip p."""
    out = 0
    for p in pips:
        out |= 1 << int(p)
    return out


def _moves_of(movement: Any) -> tuple[int, int, int, int, int]:
    """What `can_move` reads of the `[movement]` switches (vocabulary.Env.moves)."""
    def get(key: str, default: Any) -> Any:
        value = getattr(movement, key, None)
        return default if value is None else value
    return (int(get("block", 2)), int(get("home_top", 6)), int(get("off_pip", 0)),
            {"all_home": 1, "none": 2}.get(get("bear_off", "all_home"), 0),
            int(get("pinned_bear_off", "forbidden") == "allowed"))


def _no_can_move(movement: Any, points: int | None = None) -> str:
    """Why `can_move` cannot answer under the `[movement]` switches: it enters as from the bar,
    and reads boards of at most 24 points (empty: it can answer)."""
    if points is not None and points > 24:
        return (f"it reads the points of boards of 24 points or fewer, not the {points} of "
                f"this one")
    entry = getattr(movement, "entry_pip", None)
    if entry is not None and entry != 25:
        return "it enters checkers as from the bar, on pip 25 − d, not `entry_pip` − d"
    return ""


def _doublet_moves(model: Any) -> int:
    doublets = getattr(getattr(model, "dice", None), "doublets", None) or "four"
    return 2 if str(doublets).startswith("twice") else 4


def _file_over_budget(total: int, top: tuple) -> SnippetError:
    """`error[cost]` at the dearest rule of a file whose throw costs more than the budget."""
    cost, key_path, tree, context, runs = top
    where = Cost().costliest_aggregate(tree).site
    return SnippetError("cost", f"the rules of this file may take {total:,} steps in one throw, "
                        f"over the budget of {COST_BUDGET:,}; the dearest is this one, "
                        f"{cost:,} steps{per_run(context, runs)}: make what its aggregates run "
                        f"over smaller, or the file's rules fewer", where.line, where.col,
                        where.length, where.key_path or key_path)


def _check_plain_definitions(compiler: Compiler, errors: list[SnippetError],
                             reported: set) -> None:
    """A definition without parameters is checked even when no rule uses it yet: it must make
    sense in at least one kind of rule (its parameters' types are known only where it is used)."""
    #: bodies found to make sense: another definition of the same text makes the same sense
    sound: set[str] = set()
    for d in compiler.symbols.definitions.values():
        if d.params or d.error is not None or d.body_text in sound:
            continue
        first: SnippetError | None = None
        for context in (ROLL, END, FORBID, CHOICE, MOVE):
            try:
                # checked, not priced: what it costs is priced where a rule uses it
                compiler.compile_expr(d.name, context, ANY_TYPE, ("define", d.key), 0)
                first = None
                sound.add(d.body_text)
                break
            except SnippetError as err:
                first = first or err
                if err.code != "dsl-context":
                    break           # the same in every kind of rule
        if first is not None:
            mark = (first.key_path, first.line, first.col, first.code)
            if mark not in reported:
                reported.add(mark)
                errors.append(first)


def check_document(model: Any) -> list[SnippetError]:
    """Every problem in the snippets of a validated variant model (empty when all is well)."""
    return _build(model, emit=False)[1]


def compile_document(model: Any) -> RuleSet:
    """Compile a validated variant model's snippets; raise the first SnippetError if any."""
    rules, errors = _build(model)
    if errors:
        raise errors[0]
    return rules
