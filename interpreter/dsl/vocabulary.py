"""The built-in vocabulary of the rule language: every name a snippet may use without declaring
it, with its type, where it may be used, its bounds and cost, and how it is emitted.

Adding a name
-------------

*A value* (`total`, `rolls`): one entry of `VALUES`, whose `make` builds the compiler's tree for
it from the hook's parameters (`core.Param`), the roll context (`core.CtxField`), constants
(`core.Const`) and the arithmetic nodes of `core`::

    "farthest_die": Value(INT, lambda env: IfExp(Cmp(">", die(1), die(2), type=BOOL), die(1),
                                                 die(2), type=INT), DICE_CONTEXTS,
                          "the higher number"),

Its bounds and cost follow from the tree. A constant of the board (`bar`, `off`):
`Value(INT, lambda env: Const(25), None, "...")`.

*A function* (`mine(p)`, `landings(path)`): a helper in `interpreter/dsl/runtime.py` (added to
its `RUNTIME` table, which is also the list of what generated code may call) and one entry of
`FUNCTIONS`::

    "covered": Function((INT,), BOOL, "an opposing checker stands alone behind p",
                        runtime="_covered", position=True),

`position=True` makes it read a position: `covered(p)` reads the hook's own one and
`after.covered(p)`, `pl.covered(p)` another; the helper is called as `_covered(board, p)`. Give
`bounds` for a number or a set (without, a number is taken as anything within ±MAX_VALUE,
which no arithmetic or range can then use), `cost` when a call does more than constant work,
and, when speed matters, `emit` (a faster inline form, see `_emit_count`), `compare` and `fold`
(the value when the arguments are constants). `tests/test_dsl_compiler.py` adds a value and a
function this way. A function that is a formula of the core nodes chosen by the variant
(`their_pip(p)`, by the route) gives `expand`: the checker writes the formula in place of the
call, or keeps the call where the formula would compute an argument twice.

*A field* of a step or a play (`s.from`, `pl.paths`): one entry of `FIELDS`.

The names of `BUILTIN_NAMES` cannot be redefined by a file (`dsl-shadow`); those of `YIELDING`,
added later, give way to a file's own name.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, cast

from interpreter.dsl.core import (BOOL, CHOICE, END, FORBID, INT, LIST_INT, LIST_PATH, LIST_PLAY,
                                  MOVE, PATH, PLAY, ROLL, SET, STATE, STEP, Arith, Call, Cmp,
                                  And, Const, CtxField, Dice, Expr, Flag, IfExp, Item, Or, Param)
from interpreter.dsl.info import Info
from interpreter.dsl.limits import ASSUMED_STEPS, POINTS_CAP, ROLLS_CAP, SETUP_CAP
from interpreter.dsl.syntax import SnippetError

if TYPE_CHECKING:
    from interpreter.dsl.info import Info
    from interpreter.dsl.emit import Emitter


@dataclass(frozen=True)
class Env:
    """What the vocabulary may read of the variant: its number of checkers and its board's
    layout (`kernel.board.Geometry`): the route ("opposite" or "same"), whether a landing pins
    (`hit = "pin"`), whether checkers wait off the board to enter."""
    checkers: int = 15
    route: str = "opposite"
    pins: bool = False
    pool: bool = False
    #: the most distinct plays of one throw (`plays`), bounded from the variant (dsl/runs.py)
    plays: int = 1000
    #: the movement switches `can_move` reads: block, home_top, off_pip, whether bearing off
    #: needs every checker home, whether a pinned checker at home counts as home
    moves: tuple[int, int, int, int, int] = (2, 6, 0, 1, 0)
    #: why `can_move` cannot answer for the variant's switches (empty: it can)
    no_can_move: str = ""
    #: the length of each side's route (`[board] points`)
    points: int = 24
    #: the limit of men a point (`[movement] limit`; 0: none) and its pips as a mask
    limit: int = 0
    limited: int = 0


#: any collection (a region, a set, a list, a path): the argument of `size`
COLLECTION = "collection"
#: the contexts where the dice are known: the rules of a roll (scoring, forbid, prefer); an end
#: or value rule judges the position only (its hooks are called without the dice)
DICE_CONTEXTS = frozenset({ROLL, CHOICE, FORBID, MOVE})
#: the pip of the checkers waiting off the board to enter (`mine(unentered)`, a step's `from`)
UNENTERED = 29



def die(n: int) -> Param:
    """The hook's parameter `d1` or `d2` (a new node each time: nodes carry their position)."""
    return Param(name=f"d{n}", type=INT)


@dataclass(frozen=True)
class Value:
    type: str
    make: Callable[[Env], Expr]
    contexts: frozenset[str] | None
    doc: str


@dataclass(frozen=True)
class Function:
    params: tuple[str, ...]
    result: str
    doc: str
    #: the helper of runtime.RUNTIME called in the general case (None: `emit` always answers)
    runtime: str | None = None
    #: reads a position: callable bare (the hook's position) or after a dot
    position: bool = False
    contexts: frozenset[str] | None = None
    #: bounds of the result from the arguments' bounds (ints: values; sets: elements and size)
    bounds: Callable[[list[Info], Env], Info] | None = None
    #: work of one call besides its arguments, from the arguments' bounds
    cost: Callable[[list[Info]], int] | int = 1
    #: the value of a call with constant arguments (None: not known)
    fold: Callable[[Call], Expr | None] | None = None
    #: a faster Python form than the helper call (None: the helper call)
    emit: Callable[[Emitter, Call], ast.expr | None] | None = None
    #: a faster form of `call op k` for a fixed number k (None: the call, then the comparison)
    compare: Callable[[Emitter, Call, str, int], ast.expr | None] | None = None
    #: the call written with the compiler's own nodes, from the variant (`Env`) and the
    #: arguments' trees: the checker puts this in place of the call (None: the call is kept)
    expand: Callable[[Env, list[Expr]], Expr | None] | None = None


@dataclass(frozen=True)
class Field:
    type: str
    make: Callable[[Expr], Expr]
    #: bounds of a number field (what `core.Item` reads)
    bounds: Callable[[Env], tuple[int, int]] | None = None


# -- values ----------------------------------------------------------------------------------------

def _p(name: str, type_: str) -> Callable[[Env], Expr]:
    return lambda env: Param(name=name, type=type_)


def _high(env: Env) -> Expr:
    return IfExp(Cmp(">", die(1), die(2), type=BOOL), die(1), die(2), type=INT)


def _low(env: Env) -> Expr:
    return IfExp(Cmp(">", die(1), die(2), type=BOOL), die(2), die(1), type=INT)


VALUES: dict[str, Value] = {
    "before": Value(STATE, _p("b", STATE), None, "the position before the roll is played"),
    "after": Value(STATE, _p("a", STATE), frozenset({FORBID, CHOICE, MOVE}),
                   "the position the path or play under examination leads to (for a rule on "
                   "each move: the position after that move)"),
    "path": Value(PATH, _p("x", PATH), frozenset({FORBID, MOVE}),
                  "the path under examination (for a rule on each move: the path so far, that "
                  "move included)"),
    "step": Value(STEP, lambda env: Item(Param(name="x", type=PATH), -1, type=STEP),
                  frozenset({MOVE}), "the single move under examination (a rule on each move)"),
    "play": Value(PLAY, _p("x", PLAY), frozenset({CHOICE}), "the play under examination"),
    "plays": Value(LIST_PLAY, lambda env: CtxField(name="plays", type=LIST_PLAY),
                   frozenset({ROLL}), "the complete legal plays of the roll"),
    "unplayed": Value(INT, lambda env: CtxField(name="unplayed", type=INT), frozenset({ROLL}),
                      "how many of the roll's numbers cannot be played"),
    "d3": Value(INT, lambda env: CtxField(name="d3", type=INT), frozenset({ROLL}),
                "the third die of a throw of three dice (0 in a throw of two)"),
    "triplet": Value(BOOL, lambda env: And(Cmp("==", die(1), die(2), type=BOOL),
                                           Cmp("==", die(2), CtxField(name="d3", type=INT),
                                               type=BOOL), type=BOOL),
                     frozenset({ROLL}), "all three dice of a throw of three show the same number"),
    "all_equal": Value(BOOL, lambda env: And(
        Cmp("==", die(1), die(2), type=BOOL),
        Or(Cmp("==", CtxField(name="d3", type=INT), Const(0, type=INT), type=BOOL),
           Cmp("==", die(2), CtxField(name="d3", type=INT), type=BOOL), type=BOOL), type=BOOL),
        frozenset({ROLL}), "every die of the throw shows the same number (a doublet of two "
        "dice, a triplet of three)"),
    "any_pair": Value(BOOL, lambda env: Or(
        Cmp("==", die(1), die(2), type=BOOL),
        Or(Cmp("==", die(1), CtxField(name="d3", type=INT), type=BOOL),
           Cmp("==", die(2), CtxField(name="d3", type=INT), type=BOOL), type=BOOL), type=BOOL),
        frozenset({ROLL}), "two dice of the throw (or all of them) show the same number"),
    "unstacking": Value(
        BOOL, lambda env: CtxField(name="unstacking", type=BOOL), frozenset({ROLL}),
        "the numbers the play left were left while unstacking (`board.stacked`: a pair of the "
        "mover's was stacked when the throw began, or with `movement.unstack = \"per_move\"` "
        "is still stacked after the play); asked of the play made"),
    "home_after": Value(
        BOOL, lambda env: CtxField(name="home_after", type=BOOL), frozenset({ROLL}),
        "after the play made, every checker of the mover not borne off stands on pips "
        "1..`home_top`, none on the bar or waiting to enter"),
    "setup": Value(INT, lambda env: CtxField(name="setup", type=INT), frozenset({ROLL}),
                   "how many times the men have been set up in this game"),
    "my_points": Value(INT, lambda env: CtxField(name="my_points", type=INT), frozenset({END}),
                       "the ladder's points of the side the position is seen by (0 if none)"),
    "their_points": Value(INT, lambda env: CtxField(name="their_points", type=INT),
                          frozenset({END}), "the ladder's points of the other side (0 if none)"),
    "dice": Value(LIST_INT, lambda env: Dice(False, type=LIST_INT), DICE_CONTEXTS,
                  "the two numbers as thrown"),
    "numbers": Value(LIST_INT, lambda env: Dice(True, type=LIST_INT), DICE_CONTEXTS,
                     "the distinct numbers of the roll"),
    "doublet": Value(BOOL, lambda env: Cmp("==", die(1), die(2), type=BOOL), DICE_CONTEXTS,
                     "both dice equal"),
    "total": Value(INT, lambda env: Arith("+", die(1), die(2), type=INT), DICE_CONTEXTS,
                   "the sum of the dice"),
    "high": Value(INT, _high, DICE_CONTEXTS, "the higher number"),
    "low": Value(INT, _low, DICE_CONTEXTS, "the lower number"),
    "rolls": Value(INT, _p("rolls", INT), DICE_CONTEXTS,
                   "the mover's throw number since the men were last set up"),
    "bar": Value(INT, lambda env: Const(25, type=INT), None, "the bar, pip 25"),
    "off": Value(INT, lambda env: Const(0, type=INT), None, "borne off, pip 0"),
    "unentered": Value(INT, lambda env: Const(UNENTERED, type=INT), None,
                       "the checkers waiting off the board to enter, pip 29"),
    "checkers": Value(INT, lambda env: Const(env.checkers, type=INT), None,
                      "checkers per side"),
}

#: the names that read the dice as the hook's `d1` and `d2`, the two dice of a throw of two:
#: refused in a variant whose throw has three dice (`[turn] count = 3`), where they would
#: see two of the three (the check is `Checker._x_Name` in check.py; a name made to read all
#: three dice is simply left out of this set)
TWO_DICE_NAMES = frozenset({"dice", "numbers", "doublet", "total", "high", "low"})

#: bounds of the hook's parameters and of the roll context's numbers (`exact` False: assumed)
PARAM_BOUNDS: dict[str, tuple[int, int, bool]] = {
    "d1": (1, 6, True), "d2": (1, 6, True), "rolls": (0, ROLLS_CAP, False),
    "unplayed": (0, 4, True), "setup": (1, SETUP_CAP, False), "d3": (0, 6, True),
    "unstacking": (0, 1, True), "home_after": (0, 1, True),
    "my_points": (0, POINTS_CAP, False), "their_points": (0, POINTS_CAP, False),
}


# -- functions -------------------------------------------------------------------------------------

def _board_index(name: str, p: int) -> int | None:
    """The board tuple's index holding `name(p)` for the pips off the points (bar, off)."""
    return {("mine", 0): 0, ("mine", 25): 25, ("theirs", 0): 27, ("theirs", 25): 26}.get((name, p))


def _fold_count(node: Call) -> Expr | None:
    p = node.args[1]
    if (isinstance(p, Const) and not 1 <= p.value <= 24 and p.value != UNENTERED
            and _board_index(node.fn, p.value) is None):
        return Const(0, type=INT)
    return None


def _fold_pinned(node: Call) -> Expr | None:
    p = node.args[1]
    if isinstance(p, Const) and not 1 <= p.value <= 24:
        return Const(0, type=INT)
    return None


def _fold_empty(node: Call) -> Expr | None:
    p = node.args[1]
    if isinstance(p, Const) and not 1 <= p.value <= 24:
        return Const(False, type=BOOL)
    return None


def _fold_full(node: Call) -> Expr | None:
    region = node.args[1]
    if isinstance(region, Const):
        pips = region.value
        if not pips or any(not 1 <= p <= 24 for p in pips):
            raise _error(region, "dsl-range", "`full` takes a region of board pips")
    return None


def _fold_abs(node: Call) -> Expr | None:
    x = node.args[0]
    return Const(abs(x.value), type=INT) if isinstance(x, Const) else None


def _fold_size(node: Call) -> Expr | None:
    x = node.args[0]
    return Const(len(x.value), type=INT) if isinstance(x, Const) else None


def _error(node: Expr, code: str, message: str) -> SnippetError:
    w = node.at
    return SnippetError(code, message, w.line, w.col, w.length, w.key_path)


def _emit_count(e: Emitter, node: Call) -> ast.expr | None:
    """mine(p) / theirs(p) on a fixed pip or a pip variable known to be on the board: the board
    read inline (`b[p] if b[p] > 0 else 0`), no call."""
    state, p = node.args
    if not e.is_simple(state):
        return None
    s = e.expr(state)
    if isinstance(p, Const):
        if p.value == UNENTERED:
            # the runtime's helper: those cells exist only where checkers wait off the board
            return None
        index = p.value if 1 <= p.value <= 24 else _board_index(node.fn, p.value)
        if index is None:
            return e.const(0)
        if not 1 <= index <= 24:
            return e.sub(s, e.const(index))
        i: ast.expr = e.const(index)
    elif e.on_board(p):
        i = e.expr(p)
    else:
        return None
    cell = e.sub(s, i)
    if node.fn == "mine":
        return ast.IfExp(ast.Compare(cell, [ast.Gt()], [e.const(0)]),
                         e.sub(e.expr(state), e.dup(i)), e.const(0))
    return ast.IfExp(ast.Compare(cell, [ast.Lt()], [e.const(0)]),
                     ast.UnaryOp(ast.USub(), e.sub(e.expr(state), e.dup(i))), e.const(0))


_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _compare_count(e: Emitter, node: Call, op: str, k: int) -> ast.expr | None:
    """`mine(p) op k` on a point of the board as one comparison of the board's cell x: mine(p)
    is max(x, 0) and theirs(p) max(-x, 0), so `mine(p) >= 2` is `x >= 2`, `theirs(p) == 1` is
    `x == -1`, `mine(p) == 0` is `x <= 0`."""
    state, p = node.args
    if not e.is_simple(state) or not e.on_board(p):
        return None
    if node.fn == "theirs":        # theirs(p) op k  is  -x op k  is  x op' -k
        op, k, sign = _MIRROR[op], -k, -1
    else:
        sign = 1
    # now: max(sign * x, 0) compared as `x op k` once k is on the side of the checkers counted
    if k * sign > 0:
        test: tuple[str, int] | bool = (op, k)
    elif k == 0:
        # mine(p) == 0 is x <= 0; != 0 and > 0 are x > 0; >= 0 always; < 0 never (mirrored for
        # theirs)
        counted = ">" if sign > 0 else "<"
        uncounted = "<=" if sign > 0 else ">="
        if sign < 0:
            op = _MIRROR[op]
        test = cast("tuple[str, int] | bool",
                    {"==": (uncounted, 0), "!=": (counted, 0), ">": (counted, 0),
                     "<=": (uncounted, 0), ">=": True, "<": False}[op])
    else:
        return None            # a count compared with a negative number: left to the call
    if isinstance(test, bool):
        return e.const(test)
    cmp_op, value = test
    return ast.Compare(e.sub(e.expr(state), e.expr(p)), [e.compare_op(cmp_op)], [e.const(value)])


def _emit_empty(e: Emitter, node: Call) -> ast.expr | None:
    state, p = node.args
    if not e.is_simple(state) or not (isinstance(p, Const) or e.on_board(p)):
        return None
    return ast.Compare(e.sub(e.expr(state), e.expr(p)), [ast.Eq()], [e.const(0)])


def _emit_full(e: Emitter, node: Call) -> ast.expr | None:
    state, region = node.args
    if not isinstance(region, Const) or not e.is_simple(state):
        return None
    tests: list[ast.expr] = [
        ast.Compare(e.sub(e.expr(state), e.const(p)), [ast.GtE()], [e.const(2)])
        for p in sorted(region.value)]
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


def _emit_size(e: Emitter, node: Call) -> ast.expr:
    return e.call("len", [e.expr(node.args[0])])


def _emit_abs(e: Emitter, node: Call) -> ast.expr:
    return e.call("abs", [e.expr(node.args[0])])


def _checkers(args: list[Info], env: Env) -> Info:
    return Info(0, env.checkers)


def _pips_of_path(args: list[Info], env: Env) -> Info:
    return Info(0, 25, size=ASSUMED_STEPS)


def _size_bounds(args: list[Info], env: Env) -> Info:
    return Info(0, args[0].size, exact=args[0].exact)


def _flag_bounds(args: list[Info], env: Env) -> Info:
    return Info(0, 1 if env.pins else 0)


def _pip_bounds(args: list[Info], env: Env) -> Info:
    x = args[0]
    if x.exact and 1 <= x.lo and x.hi <= 24:
        return Info(1, 24)
    return Info(-x.hi - 25, x.hi + 25) if env.route == "opposite" else Info(x.lo - 12, x.hi + 12)


def _expand_their_pip(env: Env, args: list[Expr]) -> Expr | None:
    """`their_pip(p)`: the opponent's own number of the mover's pip p, by the route: 25 - p when
    the sides run opposite ways; when both run the same way round, p + 12 or p - 12, the call of
    the runtime's `_their_same` (None: the call is kept, so that p is computed once)."""
    p = args[0]
    if env.route == "opposite":
        return Arith("-", Const(25, type=INT), p, type=INT)
    return None


def _fold_their_same(node: Call) -> Expr | None:
    # a call is kept only for the same route (see _expand_their_pip)
    p = node.args[0]
    if isinstance(p, Const):
        return Const(p.value + 12 if p.value <= 12 else p.value - 12, type=INT)
    return None


def _abs_bounds(args: list[Info], env: Env) -> Info:
    x = args[0]
    lo = 0 if x.lo <= 0 <= x.hi else min(abs(x.lo), abs(x.hi))
    return Info(lo, max(abs(x.lo), abs(x.hi)), exact=x.exact)


#: the steps of one `can_move`: each point tried with each number, and the home count
_CAN_MOVE_COST = 24 * 6 + 3 * 24


def _expand_can_move(env: Env, args: list[Expr], side: int) -> Expr:
    """`can_move()` as the runtime's call with the variant's switches written in."""
    block, home_top, off_pip, all_home, pinned_home = env.moves
    route = {"same": 1, "shared": 2}.get(env.route, 0)
    consts: tuple[int, ...] = (side, route, int(env.pins), int(env.pool), block, home_top,
                               off_pip, all_home, pinned_home)
    if env.points != 24 or env.limit:
        consts += (env.points,)
    if env.limit:
        consts += (env.limit, env.limited)
    return Call("can_move" if side == 0 else "opponent_can_move",
                (args[0], *(Const(c, type=INT) for c in consts)), type=BOOL)


FUNCTIONS: dict[str, Function] = {
    "mine": Function((INT,), INT, "the mover's checkers on pip p", runtime="_mine",
                     position=True, bounds=_checkers, fold=_fold_count, emit=_emit_count,
                     compare=_compare_count),
    "theirs": Function((INT,), INT, "the opponent's checkers on the mover's pip p",
                       runtime="_theirs", position=True, bounds=_checkers, fold=_fold_count,
                       emit=_emit_count, compare=_compare_count),
    "empty": Function((INT,), BOOL, "no checker of either side on pip p", runtime="_empty",
                      position=True, fold=_fold_empty, emit=_emit_empty),
    "full": Function((SET,), BOOL, "every pip of the region holds two or more of the mover's "
                     "checkers", runtime="_full", position=True,
                     cost=lambda args: max(1, args[1].size), fold=_fold_full, emit=_emit_full),
    "landings": Function((PATH,), SET, "the pips where checkers of the path come to rest",
                         runtime="_landings", bounds=_pips_of_path, cost=ASSUMED_STEPS),
    "rests": Function((PATH,), SET, "the pips a checker passes through", runtime="_rests",
                      bounds=_pips_of_path, cost=ASSUMED_STEPS),
    "arrivals": Function((PATH, INT), SET, "where the checkers that end the path on pip h "
                         "started from", runtime="_arrivals", bounds=_pips_of_path,
                         cost=2 * ASSUMED_STEPS),
    "size": Function((COLLECTION,), INT, "how many items a collection has", bounds=_size_bounds,
                     fold=_fold_size, emit=_emit_size),
    "abs": Function((INT,), INT, "the distance of x from 0", bounds=_abs_bounds, fold=_fold_abs,
                    emit=_emit_abs),
    "mine_pinned": Function((INT,), INT, "1 when a checker of the mover lies pinned on pip p "
                            "(under opposing checkers), else 0", runtime="_mine_pinned",
                            position=True, bounds=_flag_bounds, cost=1, fold=_fold_pinned),
    "theirs_pinned": Function((INT,), INT, "1 when an opposing checker lies pinned on pip p "
                              "(under the mover's checkers), else 0", runtime="_theirs_pinned",
                              position=True, bounds=_flag_bounds, cost=1, fold=_fold_pinned),
    "can_move": Function((), BOOL, "the side on roll has a single move with some number "
                         "1..6 (the movement switches, not the file's forbid rules)",
                         runtime="_can_move", position=True, cost=_CAN_MOVE_COST,
                         expand=lambda env, args: _expand_can_move(env, args, 0)),
    "opponent_can_move": Function((), BOOL, "the other side would have a single move with some "
                              "number 1..6 were it on roll", runtime="_can_move",
                              position=True, cost=_CAN_MOVE_COST,
                              expand=lambda env, args: _expand_can_move(env, args, 1)),
    "their_pip": Function((INT,), INT, "the opponent's own number of the mover's pip p (by the "
                          "variant's route)", runtime="_their_same", bounds=_pip_bounds, cost=1,
                          fold=_fold_their_same, expand=_expand_their_pip),
}


# -- fields ----------------------------------------------------------------------------------------

def _item(index: int, type_: str) -> Callable[[Expr], Expr]:
    return lambda base: Item(base, index, type=type_)


FIELDS: dict[str, dict[str, Field]] = {
    STEP: {
        "from": Field(INT, _item(0, INT), lambda env: (0, UNENTERED if env.pool else 25)),
        "to": Field(INT, _item(1, INT), lambda env: (0, 25)),
        "die": Field(INT, _item(2, INT), lambda env: (1, 6)),
        "hit": Field(INT, _item(3, INT), lambda env: (0, env.checkers)),
        "off": Field(BOOL, lambda s: Cmp("==", Item(s, 1, type=INT), Const(0, type=INT),
                                         type=BOOL)),
        "excedant": Field(BOOL, lambda s: Flag(s, 1, type=BOOL)),
        "puissance": Field(BOOL, lambda s: Flag(s, 2, type=BOOL)),
        "pin": Field(BOOL, lambda s: Flag(s, 8, type=BOOL)),
    },
    PLAY: {
        "paths": Field(LIST_PATH, _item(1, LIST_PATH)),
        "position": Field(STATE, _item(0, STATE)),
    },
}

#: bounds of the number fields, by (receiver type, index of the tuple field they read)
ITEM_BOUNDS: dict[tuple[str, int], Callable[[Env], tuple[int, int]]] = {
    (t, f.make(Param()).index): f.bounds  # type: ignore[attr-defined]
    for t, fields in FIELDS.items() for f in fields.values() if f.bounds is not None}

AGGREGATES = ("count", "sum", "any", "all", "max", "min", "union")

#: names the language gained after files were written with names of their own: a file's
#: definition, region or named state of the same name is not refused (`dsl-shadow`) but takes
#: their place in that file, so that the file reads as it did
YIELDING = frozenset({"d3", "triplet", "all_equal", "any_pair", "unstacking", "home_after"})
BUILTIN_NAMES = sorted({*VALUES, *FUNCTIONS, "options", *AGGREGATES} - YIELDING)


