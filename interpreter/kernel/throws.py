"""What follows a throw once it is played: the end of the turn, another throw, or a stage of a
roll event (acey-deucey's 1-2: a doublet the player names, its complement, another throw).

The kernel says which stage comes next from the dice switches and how much of the throw was
played; choosing the doublet is the player's decision, made through the engine. Stages are
named as in the position JSON: a position at the named doublet's step carries
`"state": {"stage": "doublet"}` (its complement: "complement"), and `tablier moves` reports what
follows a position as "next": "doublet", "complement", "reroll" (the same player throws again) or
"end".

>>> t = ThrowRules(bonus_throw=(1, 2), bonus=("chosen_doublet", "throw_again"))
>>> t.next(None, 2, 1, unplayed=0), t.next(None, 2, 1, unplayed=1)
('doublet', 'end')
>>> t.next("doublet", 6, 6, unplayed=0), t.next("doublet", 6, 6, unplayed=1)
('reroll', 'end')
>>> ThrowRules(doublet_rethrow=True).next(None, 3, 3, unplayed=4)
'reroll'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

#: a stage of `dice.bonus` → the name of its position stage (None: a throw of the dice)
STAGE_OF = {"chosen_doublet": "doublet", "complement_doublet": "complement",
            "throw_again": "reroll"}
STAGES = ("doublet", "complement")


@dataclass(frozen=True)
class StageRule:
    """A `[turn.stages.ID]` rule of the variant file: after a throw or a stage that `when`
    holds of (a rule-language condition, asked with the dice just played, the throw number and
    what of them was left unplayed), played in full, a stage follows: the doublet `next` (a
    number outside 1..6, or no `next`: none; the same player, not a throw of its own); the
    numbers such a throw or stage leaves unplayed go to the opponent where `to_opponent` holds
    (he plays them, then the stages after them, before his own throw; `numbers_left`), else
    they are lost; once no stage follows one played in full, the same player throws again
    where `again` holds. They are compiled hooks `(before, None, None, d1, d2, rolls, ctx)`."""

    id: str
    when: Callable[..., Any]
    next: Callable[..., Any] | None
    to_opponent: Callable[..., Any] | None = None
    #: the same player throws again after the governed throw, its stages all played in full,
    #: where this holds (None: never)
    again: Callable[..., Any] | None = None
    #: the numbers passed to the opponent are his to play or decline, any of them, in any order
    optional: bool = False
    #: `again` is asked of a throw played only in part too (not only of one played in full)
    again_partial: bool = False
    #: the numbers passed on are the opponent's whole turn: he plays them and does not throw
    instead_of_throw: bool = False
    #: what the numbers passed on may do: "any" (move as a throw's numbers do) or "bear_off"
    #: (only unstack a pair or bear a checker off by the exact number, Doblet)
    moves: str = "any"


def numbers_left(d1: int, d2: int, unplayed: int, path: Any = ()) -> tuple[int, int, int]:
    """What a throw or stage of (d1, d2) leaves unplayed, when `unplayed` of its single moves
    could not be played and `path` is the play made: the dice of the stage that plays them and
    its number of moves. A doublet's rest is that many moves of its number; of two different
    numbers, both (the higher first, played as a throw of its own) or the one the play did not
    use.

    >>> numbers_left(3, 3, 2), numbers_left(2, 6, 2), numbers_left(6, 5, 1, [(7, 1, 6, 0, 0)])
    ((3, 3, 2), (6, 2, 2), (5, 5, 1))
    """
    if d1 == d2:
        return d1, d1, unplayed
    if unplayed >= 2 or not path:
        return max(d1, d2), min(d1, d2), 2
    left = d2 if path[0][2] == d1 else d1
    return left, left, 1


def passed_third(passed: tuple) -> int:
    """The third of three numbers passed on (a throw of three, Doblet), as the turn loop holds
    them (`(rule, moves, numbers)`); 0 when fewer were passed."""
    numbers: tuple = passed[2] if len(passed) > 2 else ()
    return int(numbers[2]) if len(numbers) == 3 else 0


@dataclass(frozen=True)
class ThrowRules:
    #: a doublet thrown gives another throw, even when it could not all be played
    doublet_rethrow: bool = False
    #: the throw that starts a roll event, as (low, high); None: no event
    bonus_throw: tuple[int, int] | None = None
    #: the event's stages after the throw, each only when the previous was played in full
    bonus: tuple[str, ...] = ()
    #: the stage rules of `[turn.stages]`, in order (the first whose `when` holds governs)
    stages: tuple[StageRule, ...] = ()

    def stage_rule(self, b: Any, d1: int, d2: int, rolls: int, ctx: Any) -> StageRule | None:
        """The stage rule governing the throw or stage (d1, d2) just played from `b`."""
        for rule in self.stages:
            if rule.when(b, None, None, d1, d2, rolls, ctx):
                return rule
        return None

    def is_bonus_throw(self, d1: int, d2: int) -> bool:
        return self.bonus_throw is not None and (min(d1, d2), max(d1, d2)) == self.bonus_throw

    def next(self, stage: str | None, d1: int, d2: int, unplayed: int) -> str:
        """What follows a play of (d1, d2) at `stage` (None: thrown dice) that left `unplayed`
        numbers unplayed: "doublet", "complement", "reroll" or "end"."""
        if stage is None:
            if self.is_bonus_throw(d1, d2):
                return STAGE_OF[self.bonus[0]] if unplayed == 0 and self.bonus else "end"
            return "reroll" if self.doublet_rethrow and d1 == d2 else "end"
        here = {"doublet": "chosen_doublet", "complement": "complement_doublet"}[stage]
        if unplayed or here not in self.bonus:
            return "end"
        i = self.bonus.index(here)
        return STAGE_OF[self.bonus[i + 1]] if i + 1 < len(self.bonus) else "end"

    def stage_dice(self, stage: str, named: int) -> tuple[int, int]:
        """The dice of a stage, given the doublet the player named."""
        d = named if stage == "doublet" else 7 - named
        return d, d
