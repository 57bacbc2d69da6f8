"""The multi-player pools of trictrac (rules/match-scoring.md §5): the filling pool, where the
losers feed the pot until one player beats everyone in a row, and the draining pool, where each
match is paid out of a fixed pot by the holes won until the pot is empty.

Players are indices into the drawn order. Money is kept exactly (`Fraction`); the sheet prints
whole amounts as integers. An event that does not fit the order of play raises `RecordError`.

    >>> f = Filling(("Charlie", "Erin", "Daniel", "Alice", "Bob"), ante=200)
    >>> f.match(0, 1); f.pot, f.queue        # Charlie beats Erin, who antes again
    (1200, [2, 3, 4, 1])
    >>> d = Draining(("Bob", "Charlie", "Alice", "Daniel"), ante=250)
    >>> d.match(0, 1, (10, 4), lurch=False)  # 6 net holes: 30 % of the 1000
    Fraction(300, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from interpreter.errors import RecordError

#: holes a draining-pool match needs before the winner may go (§5.2 rule 3)
MIN_HOLES = 6
#: the share of the total paid for each net hole in a draining pool (§5.2 rule 2)
PER_HOLE = Fraction(5, 100)


class PoolRules(BaseModel):
    """House rules of the multi-player pools (match-scoring §8 M-A14, M-A16); a pool record
    sets them in its `[options]`."""

    model_config = ConfigDict(extra="forbid")
    filling_pool_reante: Literal["on_loss", "on_reentry"] = Field(
        "on_loss",
        description="a beaten player antes again at once (`on_loss`, the final loser "
                    "too) or only when he comes back to play (`on_reentry`)")
    filling_pool_streak: Literal["seat_defences", "distinct_incl_challenge"] = Field(
        "seat_defences",
        description="the filling pool is won by n−1 wins in a row as seat-holder, the "
                    "win that takes the seat not counted (`seat_defences`), or by n−1 wins in a "
                    "row counting it (`distinct_incl_challenge`)")
    draining_doubling: bool = Field(
        True,
        description="whether the lurch doubling is agreed; without it a match "
                    "marked `lurch` is paid simple")
    draining_lurch: Literal["any_run", "twelve_holes"] = Field(
        "any_run",
        description="the doubling is for any uninterrupted run (`any_run`) or only for a "
                    "run of twelve holes or more (`twelve_holes`)")


class Filling:
    """A filling pool (§5.1): the seat-holder plays the first in the queue; the loser antes again
    and goes to the end of the queue; n−1 wins in a row take the pot."""

    def __init__(self, players: tuple[str, ...], ante: int, rules: PoolRules | None = None):
        if len(players) < 3:
            raise RecordError(f"a pool needs at least three players, got {len(players)}")
        self.names = players
        self.ante = ante
        self.rules = rules or PoolRules()
        n = len(players)
        self.net = [-ante] * n
        self.pot = ante * n
        self.seat = 0
        self.queue = list(range(1, n))
        self.streak = 0
        self.owes = [False] * n         # on_reentry: a re-ante due at the next match
        self.winner: int | None = None
        self.matches: list[tuple[int, int]] = []

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def match(self, winner: int, loser: int) -> None:
        if self.finished:
            raise RecordError(f"the pool is over: {self.names[cast(int, self.winner)]} has taken "
                              "the pot")
        seat, challenger = self.seat, self.queue[0]
        if {winner, loser} != {seat, challenger}:
            raise RecordError(f"the next match is {self.names[seat]} (seat) against "
                              f"{self.names[challenger]} (first in the queue), not "
                              f"{self.names[winner]} against {self.names[loser]}")
        rules = self.rules
        for p in (seat, challenger):    # a beaten player antes again as he comes back
            if self.owes[p]:
                self._ante(p)
                self.owes[p] = False
        self.matches.append((winner, loser))
        self.queue.pop(0)
        self.queue.append(loser)
        if winner == seat:
            self.streak += 1
        else:
            self.seat = winner
            self.streak = 1 if rules.filling_pool_streak == "distinct_incl_challenge" else 0
        if rules.filling_pool_reante == "on_loss":
            self._ante(loser)
        else:
            self.owes[loser] = True
        if self.streak == len(self.names) - 1:
            self.winner = winner
            self.net[winner] += self.pot

    def _ante(self, p: int) -> None:
        self.net[p] -= self.ante
        self.pot += self.ante


@dataclass(frozen=True)
class DrainingMatch:
    winner: int
    loser: int
    holes: tuple[int, int]       # (winner's, loser's)
    lurch: bool
    paid: Fraction


class Draining:
    """A draining pool (§5.2): a fixed total T; each match pays (m·h_W − h_L) × 5 % of T out of
    the pool, capped at what is left; the loser stays and the next player in the order comes
    in."""

    def __init__(self, players: tuple[str, ...], ante: int, rules: PoolRules | None = None):
        if len(players) < 3:
            raise RecordError(f"a pool needs at least three players, got {len(players)}")
        self.names = players
        self.rules = rules or PoolRules()
        n = len(players)
        self.total = ante * n
        self.pool = Fraction(self.total)
        self.net = [Fraction(-ante)] * n
        self.pair = (0, 1)               # who plays the next match
        self.next_in = 2 % n
        self.matches: list[DrainingMatch] = []

    @property
    def finished(self) -> bool:
        return self.pool == 0

    def match(self, winner: int, loser: int, holes: tuple[int, int], lurch: bool) -> Fraction:
        if self.finished:
            raise RecordError("the pool is empty: the game is over")
        if {winner, loser} != set(self.pair):
            a, b = self.pair
            raise RecordError(f"the next match is {self.names[a]} against {self.names[b]}, not "
                              f"{self.names[winner]} against {self.names[loser]}")
        h_w, h_l = holes
        if h_w < MIN_HOLES:
            raise RecordError(f"a match is won by going with {MIN_HOLES} holes or more; the "
                              f"winner has {h_w}")
        if h_w <= h_l:
            raise RecordError(f"the winner (written first) must have more holes than the loser, "
                              f"got {h_w} and {h_l}")
        doubled = lurch and self.rules.draining_doubling and (
            self.rules.draining_lurch == "any_run" or h_w >= 12)
        m = 2 if doubled else 1
        paid = min(self.pool, (m * h_w - h_l) * PER_HOLE * self.total)
        self.pool -= paid
        self.net[winner] += paid
        self.matches.append(DrainingMatch(winner, loser, (h_w, h_l), lurch, paid))
        # the loser stays, the winner leaves, the next in the cyclic order comes in (M-A17)
        n = len(self.names)
        entrant = self.next_in
        if entrant == loser:
            entrant = (entrant + 1) % n
        self.pair = (loser, entrant)
        self.next_in = (entrant + 1) % n
        return paid
