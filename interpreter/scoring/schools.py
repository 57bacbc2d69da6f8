"""Schools (école par trop, par moins): the players mark their own points, and a wrong count can
be taken by the opponent, who marks the difference for himself (docs/variants/trictrac.md).

Off unless the variant's option `schools = "on"` (the trictrac base declares it). Then each time
a player gains points — on his own throw or the opponent's — he is asked how many he marks (a
"mark" decision: choice i marks i points; a bot marks what is due). A count that is not what the
throw gives is put to the opponent (a "school" decision: pass or school). Sent to school, the
marker marks the lesser of his count and what is due (par moins: what he marked; par trop: the
excess is taken off) and the opponent marks the difference; schools are marked last in the
throw, after every other point of it, and never give the right to go. Not sent to school, the
count stands as marked.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine.events import Marked, Schooled
from interpreter.scoring.protocol import Gen

#: how far above what is due a claim may go
CLAIM_SPAN = 24
SCHOOL_CHOICES = ("pass", "school")


class Schools:
    """The marking by the players themselves, for a ladder of points and holes; the ladder
    calls `claimed(player, n)` (a generator: the points the player marks now) where it would
    mark n points, and `schools_last()` (a generator) once the throw's other points are marked.
    `school_mark(side, n)` is the ladder's own marking of school points (never a right to go)."""

    game: Any

    def init_schools(self) -> None:
        self.schools_on = self.game.variant.option("schools", "off") == "on"
        self._schools: list[tuple[int, int, int, str]] = []
        #: what a "mark" decision would mark if right; who erred, his count, what was due
        self.mark_due: int | None = None
        self.school_pending: tuple[int, int, int] | None = None

    def claimed(self, player: int, n: int) -> Gen:
        if not self.schools_on or n <= 0:
            return n
        g = self.game
        self.mark_due = n
        try:
            d = g.ask("mark", player, tuple(str(k) for k in range(n + CLAIM_SPAN + 1)))
            count = g.answered(d, (yield d))
        finally:
            self.mark_due = None
        g.event(Marked, player, count, n)
        if count == n:
            return n
        self.school_pending = (player, count, n)
        try:
            d = g.ask("school", 1 - player, SCHOOL_CHOICES)
            taken = g.answered(d, (yield d)) == 1
        finally:
            self.school_pending = None
        if not taken:
            return count
        self._schools.append((1 - player, abs(count - n), player,
                              "trop" if count > n else "moins"))
        return min(count, n)

    def schools_last(self) -> Gen:
        schools, self._schools = self._schools, []
        for side, pts, erring, how in schools:
            if self.finished:                           # type: ignore[attr-defined]
                break
            self.game.event(Schooled, side, pts, erring, how)
            yield from self.school_mark(side, pts)

    def school_mark(self, side: int, n: int) -> Gen:
        raise NotImplementedError
        yield

    def school_state(self) -> dict[str, Any]:
        return {"mark_due": self.mark_due, "schools": self.schools_on}
