"""Bots: `random` (uniform over the legal answers) and `greedy` (one-ply: the play with the best
immediate points, then the best `evaluate` score; each ladder's decisions by players/policy.py).
Both are deterministic given their seed, and judge only from the `Decision` and its view.
"""
from __future__ import annotations

import random
from typing import Any

from interpreter.players.base import DOUBLES
from interpreter.players.policy import advise, evaluate  # noqa: F401  (evaluate: re-exported)


class RandomBot:
    """Picks uniformly among the legal answers; never doubles (so it is never asked to, nor
    offered a beaver), and takes or passes at random."""

    kind = "random"
    capabilities: frozenset[str] = frozenset()

    def __init__(self, seed: Any):
        self.rng = random.Random(f"{seed}")
        self._random = self.rng.random

    def answer(self, decision: Any) -> int:
        return int(self._random() * len(decision.choices))

    def replayed(self, decision: Any, index: int) -> None:
        """A decision of a replayed record: draw what answering it drew."""
        self._random()


class GreedyBot:
    """Takes the play with the best immediate points, then the best `evaluate` score; answers
    the ladders' questions as players/policy.py says; doubles by the cube policy."""

    kind = "greedy"
    capabilities: frozenset[str] = frozenset({DOUBLES})

    def __init__(self, seed: Any):
        self.rng = random.Random(f"{seed}")

    def answer(self, decision: Any) -> int | str:
        if not decision.is_play:
            answer = advise(decision)
            return answer if answer in decision.choices else 0
        view = decision.view
        variant = view.variant
        scored = bool(variant.rules.score_play)
        best, best_i = None, 0
        for i, b in enumerate(decision.choices):
            value = evaluate(variant, b)
            if scored:
                value += 10.0 * view.play_points(i)
            if best is None or value > best:
                best, best_i = value, i
        return best_i

    def replayed(self, decision: Any, index: int) -> None:
        """Nothing to restore: the greedy bot keeps no state between decisions."""


BOTS = {"random": RandomBot, "greedy": GreedyBot}
