"""The turn as a phase machine, for one game.

Each turn: roll → the roll's scoring items (from the position before the move) → the player
chooses among the complete legal plays (the variant's preferences applied) → the play's own
scoring items → end of game? → the board turns to the other player. Doublets that give another
throw keep the same player on roll. The engine consults the variant's hooks in this order; it
knows nothing of any particular game.

The board is always held from the mover's point of view (kernel/board.py); `mover` says who that
is (0 = white, 1 = black).
"""
from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Protocol

from interpreter.dsl import RollContext, points_by_side
from interpreter.kernel.board import Board, flip

WHITE, BLACK = 0, 1

#: the runner of each ladder kind ("module:function", called with the Game): what one `play`
#: is — a single game, a partie of holes, a match — is the ladder's to say
RUNNERS: dict[str, str] = {
    "game": "interpreter.engine.game:run_single",
    "holes": "interpreter.engine.game:run_holes",
    "continuous": "interpreter.engine.twelve:run_continuous",
    "ecrire": "interpreter.engine.ecrire:run_ecrire",
    "combine": "interpreter.engine.combine:run_combine",
    "cube": "interpreter.engine.cube:run_cube",
}
SIDE_NAMES = ("white", "black")


class Player(Protocol):
    """Every decision a player makes goes through these two methods."""

    def choose(self, game: Game, results: list[Board]) -> int:
        """The index of the chosen end position among `results` (all legal, distinct)."""

    def decide(self, game: Game, question: str, choices: tuple[str, ...]) -> str:
        """One of `choices` for a yes/no-style decision (go or stay, double, take, …)."""


@dataclass
class Turn:
    player: int
    dice: tuple[int, int]
    board: Board                    # the position after the play, seen by `player`
    items: list[tuple[str, str, int, int]] = field(default_factory=list)
    decision: str | None = None     # "go" / "stay" where the player had the choice


@dataclass
class GameResult:
    finished: bool
    winner: int | None
    value: int
    turns: int
    points: list[int]
    fired: dict[str, int]
    record: list[Turn]
    #: what a ladder adds to the summary (holes, marks, match scores, cube…)
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self, variant_id: str) -> dict[str, Any]:
        out = {"variant": variant_id, "finished": self.finished,
               "winner": None if self.winner is None else SIDE_NAMES[self.winner],
               "score": {"white": self.points[0], "black": self.points[1]},
               "value": self.value, "turns": self.turns}
        out.update(self.extra)
        return out


def opening_roll(rng: random.Random, mode: str) -> tuple[int, int, int]:
    """Who plays first and with which dice: (player, d1, d2)."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a == b:
            continue
        first = WHITE if a > b else BLACK
        if mode == "one_die_each":
            return first, max(a, b), min(a, b)
        if mode == "winner_throws_two":
            return first, rng.randint(1, 6), rng.randint(1, 6)
        # nearer_high_die: one throw of both dice; the player nearer the higher die plays it
        return rng.randrange(2), max(a, b), min(a, b)


class Game:
    """One game of a variant between two players; `run()` plays it to the end.

    The variant's `[ladder]` says what a game is: `game` ends when an `end` rule holds and is
    worth its `value` rules; `holes` marks each roll's points into holes (points, bredouille,
    staying or going, relevés) and ends at the ladder's number of holes.
    """

    def __init__(self, variant: Any, players: tuple[Player, Player], seed: Any,
                 max_turns: int = 20000, keep_record: bool = True):
        self.variant = variant
        self.players = players
        self.dice_rng = random.Random(f"{seed}:dice")
        self.max_turns = max_turns
        self.keep_record = keep_record
        self.board: Board = variant.start
        self.mover = WHITE
        self.rolls = [0, 0]
        self.setup = 1
        self.points = [0, 0]
        self.turns = 0
        self.fired: dict[str, int] = {}
        self.record: list[Turn] = []
        self.dice: tuple[int, int] = (0, 0)
        self.holes = None
        if getattr(variant.ladder, "kind", "game") == "holes":
            from interpreter.scoring.holes import Holes
            self.holes = Holes(variant.ladder, names=SIDE_NAMES)
        self._pending: tuple[int, int] = (0, 0)     # points of the roll: roller, opponent

    # -- helpers for players --------------------------------------------------------------------

    def roll_context(self, b: Board, d1: int, d2: int) -> RollContext:
        return RollContext(partial(self.variant.generator.plays, b, d1, d2), setup=self.setup)

    def advice(self, question: str) -> str:
        """A sensible answer for bots: go when the opponent's gains from this roll would give
        him a hole, or when the position is worse than his; otherwise stay."""
        if question == "go" and self.holes is not None:
            mine, theirs = self._pending
            other = 1 - self.mover
            if theirs and self.holes.points[other] + theirs >= self.variant.ladder.points_per_hole:
                return "go"
            from interpreter.players.bots import evaluate
            b = self.board
            worse = evaluate(self.variant, b) < evaluate(self.variant, flip(b))
            return "go" if worse else "stay"
        return "stay"

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> GameResult:
        """Play the game (or the match, if the ladder makes one) with the ladder's runner."""
        kind = getattr(self.variant.ladder, "kind", "game")
        module, _, name = RUNNERS[kind].partition(":")
        runner = getattr(importlib.import_module(module), name)
        return runner(self)

    def start(self) -> tuple[int, int]:
        """The opening throw: sets who is on roll (and turns the board to him); returns the dice."""
        mover, d1, d2 = opening_roll(self.dice_rng, self.variant.opening)
        if mover == BLACK:
            self.board = flip(self.board)
        self.mover = mover
        return d1, d2

    def _next_dice(self) -> tuple[int, int]:
        rng = self.dice_rng.random
        return int(rng() * 6) + 1, int(rng() * 6) + 1

    def _result(self, finished: bool, winner: int | None, value: int) -> GameResult:
        return GameResult(finished, winner, value, self.turns, self.points, self.fired,
                          self.record)

    def _run_single(self) -> GameResult:
        d1, d2 = self.start()
        out = self.play_out(d1, d2)
        if out is None:
            return self._result(False, None, 0)
        _how, winner, value = out
        self.points[winner] += value
        return self._result(True, winner, value)

    def play_out(self, d1: int, d2: int, between: Callable[[Board, int], Any] | None = None,
                 on_roll: Callable[[int, tuple[int, int], Board, Board], None] | None = None
                 ) -> tuple | None:
        """Play one game from `self.board` (seen by `self.mover`) with the first dice (d1, d2).

        Returns ("play", winner, value) when an end rule holds after a play, or what
        `between(board, mover)` returns when it returns something (it is asked before every roll
        but the first: the cube's offers), or None when `max_turns` stops the game. With a record
        kept, `on_roll(mover, dice, before, after)` hears of every roll.
        """
        v = self.variant
        rules = v.rules
        gen = v.generator
        rng = self.dice_rng.random
        rethrow = v.doublet_rethrow
        hooks = v.has_roll_hooks
        game_over = rules.game_over
        players = self.players
        keep = self.keep_record
        mover = self.mover
        b = self.board
        while self.turns < self.max_turns:
            self.turns += 1
            self.rolls[mover] += 1
            self.dice = (d1, d2)
            if hooks:
                after, items = self._play_roll(b, d1, d2)
                self._score(items)
            else:
                results = gen.results(b, d1, d2)
                after = results[players[mover].choose(self, results) if len(results) > 1 else 0]
                items = []
            if keep:
                self.record.append(Turn(mover, (d1, d2), after, items))
                if on_roll is not None:
                    on_roll(mover, (d1, d2), b, after)
            b = after
            ended = game_over(b)
            if ended is not None:
                winner = mover if ended == "mover" else 1 - mover
                self.board = b
                self.mover = mover
                return "play", winner, int(rules.game_value(b if winner == mover else flip(b)))
            if not (rethrow and d1 == d2):
                b = flip(b)
                mover = 1 - mover
            self.board = b
            self.mover = mover
            if between is not None:
                out = between(b, mover)
                if out is not None:
                    return out
            d1 = int(rng() * 6) + 1
            d2 = int(rng() * 6) + 1
        return None

    def _play_roll(self, b: Board, d1: int, d2: int, items: list | None = None,
                   ctx: RollContext | None = None) -> tuple[Board, list]:
        """Score the roll (unless `items` are given), choose a play; the play's own items added."""
        rules = self.variant.rules
        rolls = self.rolls[self.mover]
        if ctx is None:
            ctx = self.roll_context(b, d1, d2)
        if items is None:
            items = rules.roll_items(b, d1, d2, rolls, ctx)
        if not (rules.prefer or rules.score_play):
            # the end positions are all a player needs: the fast generator gives them
            results = self.variant.generator.results(b, d1, d2)
            self.board = b
            i = self.players[self.mover].choose(self, results) if len(results) > 1 else 0
            return results[i], items
        plays = rules.prefer_plays(b, ctx.plays, d1, d2, rolls, ctx) if ctx.plays else []
        if not plays:
            return b, items
        self.board = b
        if len(plays) > 1:
            i = self.players[self.mover].choose(self, [p[0] for p in plays])
        else:
            i = 0
        chosen = plays[i]
        if rules.score_play:
            items = items + rules.play_items(b, chosen, d1, d2, rolls, ctx)
        return chosen[0], items

    def begin_turn(self, mover: int, b: Board, d1: int, d2: int) -> None:
        """A throw begins: count it (the game's turns, the mover's throws) and show it."""
        self.turns += 1
        self.rolls[mover] += 1
        self.dice = (d1, d2)
        self.mover = mover
        self.board = b

    def count_fired(self, items: list) -> None:
        """How often each scoring rule fired, for `simulate`."""
        for rule_id, _to, _pts, _ways in items:
            self.fired[rule_id] = self.fired.get(rule_id, 0) + 1

    def _score(self, items: list) -> None:
        self.count_fired(items)
        for _rule_id, to, pts, _ways in items:
            side = self.mover if to == "mover" else 1 - self.mover
            self.points[side] += pts

    def _releve(self) -> Board:
        """The men are set up again (after a go or a sortie); the throw count starts afresh."""
        self.rolls = [0, 0]
        self.setup += 1
        return self.variant.start

    def _run_holes(self) -> GameResult:
        d1, d2 = self.start()
        v = self.variant
        rules = v.rules
        holes = self.holes
        checkers = v.checkers
        mover = self.mover
        b = self.board
        while self.turns < self.max_turns:
            self.begin_turn(mover, b, d1, d2)
            ctx = self.roll_context(b, d1, d2)
            items = rules.roll_items(b, d1, d2, self.rolls[mover], ctx)
            self._score(items)
            mine, theirs = points_by_side(items)
            self._pending = (mine, theirs)
            decision = None
            may_go = False
            if mine:
                _won, may_go = holes.mark(mover, mine, True)
            if holes.finished:
                self._record(mover, d1, d2, b, items, None)
                break
            if may_go:
                decision = self.players[mover].decide(self, "go", ("stay", "go"))
            if decision == "go":
                holes.go(mover)
                b = self._releve()
                self._record(mover, d1, d2, b, items, "go")
            else:
                before = len(items)
                b, items = self._play_roll(b, d1, d2, items, ctx)
                if len(items) > before:     # points of the play itself, marked after it
                    extra = items[before:]
                    self._score(extra)
                    more, also = points_by_side(extra)
                    theirs += also
                    if more:
                        holes.mark(mover, more, True)
                if theirs and not holes.finished:
                    holes.mark(1 - mover, theirs, False)
                if self.keep_record:
                    self._record(mover, d1, d2, b, items, decision)
                if holes.finished:
                    break
                if b[0] == checkers:
                    holes.reset_men()
                    b = self._releve()
                else:
                    b = flip(b)
                    mover = 1 - mover
            self.mover = mover
            d1, d2 = self._next_dice()
        self.board = b
        self.points = list(holes.holes)
        if not holes.finished:
            return self._result(False, None, 0)
        return self._result(True, holes.winner, holes.multiplier())


    def _record(self, mover, d1, d2, b, items, decision) -> None:
        if self.keep_record:
            self.record.append(Turn(mover, (d1, d2), b, items, decision))


def run_single(game: Game) -> GameResult:
    return game._run_single()


def run_holes(game: Game) -> GameResult:
    return game._run_holes()
