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

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from interpreter.dsl import RollContext
from interpreter.kernel.board import Board, flip

WHITE, BLACK = 0, 1
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


@dataclass
class GameResult:
    finished: bool
    winner: int | None
    value: int
    turns: int
    points: list[int]
    fired: dict[str, int]
    record: list[Turn]

    def summary(self, variant_id: str) -> dict[str, Any]:
        return {"variant": variant_id, "finished": self.finished,
                "winner": None if self.winner is None else SIDE_NAMES[self.winner],
                "score": {"white": self.points[0], "black": self.points[1]},
                "value": self.value, "turns": self.turns}


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
    """One game of a variant between two players; `run()` plays it to the end."""

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
        self.points = [0, 0]
        self.turns = 0
        self.fired: dict[str, int] = {}
        self.record: list[Turn] = []
        self.dice: tuple[int, int] = (0, 0)

    # -- helpers for players --------------------------------------------------------------------

    def roll_context(self, b: Board, d1: int, d2: int) -> RollContext:
        gen = self.variant.generator
        return RollContext(lambda: gen.plays(b, d1, d2))

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> GameResult:
        v = self.variant
        rules = v.rules
        gen = v.generator
        rng = self.dice_rng.random
        rethrow = v.doublet_rethrow
        hooks = v.has_roll_hooks
        game_over = rules.game_over
        players = self.players
        mover, d1, d2 = opening_roll(self.dice_rng, v.opening)
        if mover == BLACK:
            self.board = flip(self.board)
        self.mover = mover
        b = self.board
        winner = None
        while self.turns < self.max_turns:
            self.turns += 1
            self.rolls[mover] += 1
            self.dice = (d1, d2)
            if hooks:
                b, items = self._turn_with_hooks(b, d1, d2)
            else:
                results = gen.results(b, d1, d2)
                b = results[players[mover].choose(self, results) if len(results) > 1 else 0]
                items = []
            if self.keep_record:
                self.record.append(Turn(mover, (d1, d2), b, items))
            ended = game_over(b)
            if ended is not None:
                winner = mover if ended == "mover" else 1 - mover
                seen = b if winner == mover else flip(b)
                value = rules.game_value(seen)
                self.points[winner] += value
                self.board = b
                self.mover = mover
                return GameResult(True, winner, value, self.turns, self.points, self.fired,
                                  self.record)
            if not (rethrow and d1 == d2):
                b = flip(b)
                mover = 1 - mover
            self.board = b
            self.mover = mover
            d1 = int(rng() * 6) + 1
            d2 = int(rng() * 6) + 1
        return GameResult(False, None, 0, self.turns, self.points, self.fired, self.record)

    def _turn_with_hooks(self, b: Board, d1: int, d2: int) -> tuple[Board, list]:
        v = self.variant
        rules = v.rules
        rolls = self.rolls[self.mover]
        ctx = self.roll_context(b, d1, d2)
        items = rules.roll_items(b, d1, d2, rolls, ctx)
        plays = rules.prefer_plays(b, ctx.plays, d1, d2, rolls, ctx) if ctx.plays else []
        if not plays:
            new_b = b
            chosen = None
        else:
            boards = [p[0] for p in plays]
            i = self.players[self.mover].choose(self, boards) if len(boards) > 1 else 0
            chosen = plays[i]
            new_b = chosen[0]
        if chosen is not None and rules.score_play:
            items = items + rules.play_items(b, chosen, d1, d2, rolls, ctx)
        for rule_id, to, pts, _ways in items:
            self.fired[rule_id] = self.fired.get(rule_id, 0) + 1
            side = self.mover if to == "mover" else 1 - self.mover
            self.points[side] += pts
        return new_b, items
