"""Bots: `random` (uniform over the distinct legal results) and `greedy` (one-ply, a simple
variant-independent evaluation of the resulting position). Both are deterministic given their seed.
"""
from __future__ import annotations

import random
from typing import Any

from interpreter.kernel.board import BAR, OFF, OPP_BAR, Board


class RandomBot:
    """Picks uniformly among the distinct legal results; decides at random."""

    name = "random"

    def __init__(self, seed: Any):
        self.rng = random.Random(f"{seed}")
        self._random = self.rng.random

    def choose(self, game: Any, results: list[Board]) -> int:
        return int(self._random() * len(results))

    def decide(self, game: Any, question: str, choices: tuple[str, ...]) -> str:
        return choices[int(self._random() * len(choices))]


def evaluate(variant: Any, b: Board) -> float:
    """A rough value of a position for the player who has just moved (higher is better).

    Race (pips still to travel), checkers off, points made, and, where hits exist, blots the
    opponent could hit and opponent checkers sent back. Generic over the variants: it reads only
    the board and the movement switches.
    """
    rules = variant.move_rules
    hits = rules.hit != "none"
    my_pips = their_pips = 0
    made = blots = 0
    for p in range(1, 25):
        x = b[p]
        if x > 0:
            my_pips += p * x
            if x >= 2:
                made += 1
            elif hits:
                # a blot is in danger when an opponent checker stands behind it within reach
                for q in range(max(1, p - 12), p):
                    if b[q] < 0:
                        blots += 1 + (p > 12)
                        break
        elif x < 0:
            their_pips += (25 - p) * -x
    my_pips += 25 * b[BAR]
    their_pips += 25 * b[OPP_BAR]
    return (their_pips - my_pips) * 0.1 + b[OFF] * 2.0 + made * 1.0 - blots * 1.5 \
        + b[OPP_BAR] * 3.0


class GreedyBot:
    """Takes the play with the best immediate points, then the best `evaluate` score."""

    name = "greedy"

    def __init__(self, seed: Any):
        self.rng = random.Random(f"{seed}")

    def choose(self, game: Any, results: list[Board]) -> int:
        variant = game.variant
        best, best_i = None, 0
        score_of = getattr(game, "play_points", None)
        for i, b in enumerate(results):
            value = evaluate(variant, b)
            if score_of is not None:
                value += 10.0 * score_of(i)
            if best is None or value > best:
                best, best_i = value, i
        return best_i

    def decide(self, game: Any, question: str, choices: tuple[str, ...]) -> str:
        advice = getattr(game, "advice", None)
        if advice is not None:
            answer = advice(question)
            if answer in choices:
                return answer
        return choices[0]


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_player(kind: str, seed: Any) -> Any:
    try:
        return BOTS[kind](seed)
    except KeyError:
        from interpreter.errors import TablierError
        raise TablierError(f"unknown player kind {kind!r}; choose one of "
                           f"{', '.join(sorted(BOTS))}") from None
