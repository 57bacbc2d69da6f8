"""Copies of a game for players that look ahead: the turn loop itself plays every line a search
explores, so no bot carries a second copy of the rules.

A game whose `branching` is on (`Game.run` turns it on when a player declares the "branching"
capability; `enable(game)` does it for other drivers) keeps, at the start of each throw, a
checkpoint of its state — the board, who is on roll, the throw counters and a copy of the
ladder — and the answers given since. A copy of the game at any of its decisions is then made by
starting a copy from the checkpoint and giving it the same throw and the same answers.

A search stands on `Node`s:

- `root(decision)`: the live game at one of its decisions (it is never changed);
- `answer(node, a)`: a copy after answering the node's decision with `a`, run on to its next
  decision, or to the end of the throw (the next throw's start), or to the end of the play;
- `throw(node, d1, d2)`: from the start of a throw, a copy that throws d1-d2 and runs on the
  same way;
- `playout(node, players)`: a copy played out to the end (a rollout), its dice drawn from the
  node's random generator.

A node's `how` is "decision" (waiting at `decision`), "throw" (between two throws; `opening` is
set when the next throw is a new game's opening throw, whose dice are already drawn) or "end".
Copies keep no record and never touch the live game. Copies may look ahead without the cube
(`cube=False`): the player on roll is then not asked to double in them.
"""
from __future__ import annotations

import random
from itertools import permutations
from typing import TYPE_CHECKING, Any, Sequence, cast

from pydantic import BaseModel

from interpreter.engine.contract import Decision, dice_index
from interpreter.errors import TablierError

if TYPE_CHECKING:
    from interpreter.engine.game import Game

__all__ = ["Node", "root", "answer", "throw", "playout", "enable", "branchable", "DICE", "DICE3",
           "NotBranchable"]

#: the 21 distinct throws with their weight out of 36
DICE: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))
#: the 56 distinct throws of three dice (`[dice] count = 3`) with their weight out of 216
DICE3: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, len(set(permutations((a, b, c)))))
    for a in range(1, 7) for b in range(a, 7) for c in range(b, 7))


class NotBranchable(TablierError):
    """A decision of a game that keeps no checkpoints (its `branching` was off at the start of
    the throw)."""


class _Nobody:
    """Where a checkpoint's copy of the ladder points instead of a game."""


_NOBODY = _Nobody()
_ATOMIC = (int, float, str, bool, type(None), bytes, frozenset, range)


def _clone(x: Any, memo: dict[int, Any]) -> Any:
    """A copy of a ladder's state: lists, dicts, sets and the objects of the ladder modules are
    copied; numbers, strings, pydantic models (the variant's parameters), the variant and
    functions are shared. `memo` maps objects already copied (and the old game to the new)."""
    t = type(x)
    if t in _ATOMIC:
        return x
    i = id(x)
    got = memo.get(i)
    if got is not None:
        return got
    if t is list:
        out: Any = []
        memo[i] = out
        out.extend(_clone(e, memo) for e in x)
        return out
    if t is dict:
        out = {}
        memo[i] = out
        for k, v in x.items():
            out[k] = _clone(v, memo)
        return out
    if t is tuple:
        out = tuple(_clone(e, memo) for e in x)
        memo[i] = out
        return out
    if t is set:
        out = set(x)
        memo[i] = out
        return out
    if isinstance(x, BaseModel) or not t.__module__.startswith("interpreter.scoring"):
        return x
    out = object.__new__(t)
    memo[i] = out
    d = getattr(x, "__dict__", None)
    if d is not None:
        nd = out.__dict__
        for k, v in d.items():
            nd[k] = _clone(v, memo)
    for cls in t.__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            if name != "__dict__" and hasattr(x, name):
                object.__setattr__(out, name, _clone(getattr(x, name), memo))
    return out


class _State:
    """The state of a game at the start of a throw."""
    board: Any
    mover: int
    first: int
    rolls: tuple
    setup: Any
    turns: int
    dice: tuple[int, ...]
    pending: Any
    extra: bool
    scored: tuple
    leader: Any
    lead_changes: int
    ladder: Any
    owner: Any
    opening: bool
    d1: int
    d2: int
    passed: tuple | None
    #: the game's choices before its first throw are still to be made (`[turn.choose]`)
    choose_due: bool

    __slots__ = ("board", "mover", "first", "rolls", "setup", "turns", "dice", "pending",
                 "extra", "scored", "leader", "lead_changes", "ladder", "owner", "opening", "d1",
                 "d2", "passed", "choose_due")


def _state(game: Game, opening: bool, d1: int, d2: int, copy: bool = True,
           passed: tuple | None = None) -> _State:
    """The state of `game` now; its ladder copied (a checkpoint), or the game's own when the
    game is a copy that stands between throws for good (`copy=False`)."""
    s = _State()
    s.board, s.mover, s.first = game.board, game.mover, game.first
    s.rolls, s.setup, s.turns = tuple(game.rolls), game.setup, game.turns
    s.dice, s.pending, s.extra = game.dice, game.pending, game.extra
    s.scored, s.leader, s.lead_changes = tuple(game.scored), game._leader, game.lead_changes
    if copy:
        s.ladder, s.owner = _clone(game.ladder, {id(game): _NOBODY}), _NOBODY
    else:
        s.ladder, s.owner = game.ladder, game
    s.opening, s.d1, s.d2 = opening, d1, d2
    s.passed = passed
    s.choose_due = game._choose_due
    return s


def checkpoint(game: Game, opening: bool, d1: int, d2: int,
               passed: tuple | None = None) -> _State:
    """The checkpoint of `game` at the start of a throw (the turn loop calls it when the game's
    `branching` is on). A copy that starts from a checkpoint reuses it."""
    given = game._cp_next
    if given is not None:
        game._cp_next = None
        return given
    return _state(game, opening, d1, d2, passed=passed)


def _copy(game: Game, s: _State, rng: random.Random, cube: bool) -> Game:
    c = object.__new__(type(game))
    # every attribute of the game first (what the loop and the views read), then the state of
    # the checkpoint and the copy's own
    c.__dict__.update(game.__dict__)
    c.keep_record = False
    c.resigns = False
    c.board, c.mover, c.first = s.board, s.mover, s.first
    c.rolls, c.setup, c.turns = list(s.rolls), s.setup, s.turns
    c.dice, c.pending, c.extra = s.dice, s.pending, s.extra
    c._choose_due = s.choose_due
    c.fired = {}
    # the copy's own tallies: the game's are never touched by a search's look-ahead
    c.rule_points = {}
    c.play_counts = [0, 0, 0]
    c.scored = list(s.scored)
    c._leader, c.lead_changes = s.leader, s.lead_changes
    c.record, c.log = [], []
    c.choice_base = s.board
    c._choice_plays = []
    c._choice_items = None
    c.ladder = _clone(s.ladder, {id(s.owner): c})
    c.result = None
    c.offers = game.offers and cube
    c.branching = True
    c._cp = None
    c._answers = []
    c._cp_next = s
    c.between = None
    c.ask_dice = True
    c.dice_rng = rng
    return c


class Node:
    """A point of a game where a search stands (see the module docstring)."""

    __slots__ = ("game", "gen", "decision", "how", "rng", "cube", "live")

    def __init__(self, game: Game, gen: Any, decision: Decision | None, how: str,
                 rng: random.Random, cube: bool, live: bool = False):
        self.game = game
        self.gen = gen
        self.decision = decision
        self.how = how
        self.rng = rng
        self.cube = cube
        self.live = live

    @property
    def mover(self) -> int:
        """Who throws next (between throws) or is on roll."""
        return self.game.mover

    @property
    def opening(self) -> bool:
        """Between throws: whether the next throw is a new game's opening throw."""
        b = self.game.between
        return bool(b and b[0])

    @property
    def finished(self) -> bool:
        return self.how == "end"

    def __repr__(self) -> str:
        return f"Node({self.how!r}, {self.decision!r})"


def enable(game: Game) -> None:
    """Keep checkpoints from the next throw on (a driver other than `Game.run`)."""
    game.branching = True


def branchable(decision: Decision) -> bool:
    """Whether copies of the game can be made at this decision."""
    g = decision.game
    return g.branching and g._cp is not None


def root(decision: Decision, rng: random.Random | None = None, cube: bool = True) -> Node:
    """The live game at `decision`, as the root of a search."""
    if not branchable(decision):
        raise NotBranchable("this game keeps no checkpoints for copies (turn `branching` on "
                            "before the throw)")
    return Node(decision.game, None, decision, "decision",
                rng if rng is not None else random.Random(0), cube, live=True)


def _advance(c: Game, gen: Any, answers: Sequence[int], rng: random.Random,
             cube: bool) -> Node:
    """Start the copy's loop and send it `answers` in turn: the node where it then stands."""
    try:
        d = next(gen)
        for a in answers:
            d = gen.send(a)
    except StopIteration as stop:
        return Node(c, None, None, "throw" if stop.value == "limit" else "end", rng, cube)
    return Node(c, gen, d, "dice" if d.kind == "dice" else "decision", rng, cube)


def answer(node: Node, a: int) -> Node:
    """A copy of the node's game after answering its decision with choice index `a` (at a
    "dice" node: the throw `DICE36[a]`; `throw` takes the dice themselves)."""
    if node.how not in ("decision", "dice"):
        raise ValueError(f"answer() needs a node at a decision, not {node.how!r}")
    g = node.game
    s = g._cp
    c = _copy(g, s, node.rng, node.cube)
    gen = c._throws(s.d1, s.d2, s.opening, s.turns + 1, s.passed)
    return _advance(c, gen, [*g._answers, a], node.rng, node.cube)


def start(node: Node) -> Node:
    """From between two throws, a copy run to the next throw's first question: its cube
    questions (with `cube`), or its dice (a "dice" node), or for a new game's opening throw its
    first decision."""
    if node.how != "throw":
        raise ValueError(f"start() needs a node between two throws, not {node.how!r}")
    g = node.game
    opening, o1, o2 = g.between or (False, 0, 0)
    s = _state(g, opening, o1, o2, copy=False, passed=g.between_passed)
    c = _copy(g, s, node.rng, node.cube)
    gen = c._throws(o1, o2, opening, s.turns + 1, s.passed)
    return _advance(c, gen, [], node.rng, node.cube)


def throw(node: Node, d1: int, d2: int, d3: int = 0) -> Node:
    """From a "dice" node (or between two throws, where the cube is not offered), a copy that
    throws d1-d2 (d1-d2-d3 in a three-dice variant) and runs on to its next decision, the end
    of the throw or the end."""
    if node.how == "throw":
        node = start(node)
        if node.how != "dice":
            return node
    if node.how != "dice":
        raise ValueError(f"throw() needs a node before a throw, not {node.how!r}")
    g = node.game
    if d3 and g.variant.fixed_third(g.board):
        d3 = 0                  # the third die is fixed: the throw is the two thrown
    return answer(node, dice_index(d1, d2, d3))


def playout(node: Node, players: Sequence[Any], max_turns: int = 2000) -> Game:
    """The node's game played out by `players` (a rollout) on a copy: the copy, finished or
    stopped after `max_turns` more throws. Dice come from the node's random generator."""
    if node.how == "end":
        return node.game
    if node.how == "throw":
        node = start(node)
        if node.how in ("end", "throw"):
            return node.game
    if node.how == "decision":
        d = cast(Decision, node.decision)
        first = d.index(players[d.player].answer(d))
    else:
        first = int(node.rng.random() * len(cast(Decision, node.decision).choices))
    g = node.game
    s = g._cp
    c = _copy(g, s, node.rng, True)
    gen = c._throws(s.d1, s.d2, s.opening, s.turns + max_turns, s.passed)
    answer_of = (players[0].answer, players[1].answer)
    random_ = node.rng.random
    try:
        d = next(gen)
        for a in [*g._answers, first]:
            d = gen.send(a)
        c.branching = False
        c.ask_dice = False
        while True:
            if d.kind == "dice":
                d = gen.send(int(random_() * len(d.choices)))
            else:
                d = gen.send(answer_of[d.player](d))
    except StopIteration:
        pass
    return c
