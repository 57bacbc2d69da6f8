"""The playout metrics of one play: who leads, how decisive, how dramatic, how much of the board.

A game started with `Game(metrics=True)` (`simulate --metrics`, `compare --metrics`) keeps a
`Tracker`: the turn loop (engine/game.py) calls it at the top of each pass of its loop (a throw
has been played since the last call), where an end rule holds, where a new game of the play
begins and when the play is over. It keeps sums of small integers only, never the series of
positions, so a game costs O(1) memory more, and `summary()` is plain data for the game's line
(docs/compare.md, "Playout metrics", gives the definitions and their sources).

**The lead.** A variant whose rules score nothing (`races`: the backgammon family, plakoto,
long nardy…) is a race to bear off: white's lead is black's pip count minus white's (the pips
each side has still to travel to bear all his men off; a man on the bar or waiting to enter
counts 25), taken after each *round*, when the side that threw first in the game is about to
throw again (both have then thrown as often: the lead after every single throw would favour
whoever has just thrown by a throw's worth of pips); and after the game's last throw. Its
scale is the pips a side has to travel from the start. A variant whose rules score (the
trictrac family) is measured after every throw: where its ladder is a game of holes (its score
sheet is one of points and holes: the Dutch triktrak, the 12-hole trictrac), by the score as
the ladder counts it, each side's holes times the points of a hole plus his points (`holes`);
elsewhere (the partie à écrire, the combined game, the 12-point match) by the points the rules
gave (`Game.scored`, as `lead_changes` has always counted them: `points`). Its scale is the
points of a hole (`[ladder] points_per_hole`) or of a game (`target`). The kind is read from
the file in play (its rules and its ladder), never from a variant's id.

**The units.** A race's metrics are taken game by game (a match or a rotation plays several),
each game with its own winner, the one its end rule names; a game that ends otherwise before
the play does (a double passed in a match, a resignation) is counted as one without a winner. A
scoring variant's play is one unit whatever its ladder (a partie of holes or marks, a match of
12-point games), won by the play's winner.

**Per unit**, from the eventual winner's lead after each sample (n samples):
- decisiveness: the samples after the one from which the winner led for good (strictly ahead
  at it and at every one after it), over n;
- drama: the winner's deficit (0 where he was not behind) summed over the samples, over n times
  the scale; its largest deficit, over the scale; the samples where he was behind, over n;
- lead changes: the times the side strictly ahead changed (a level score keeps the last);
- stability: the variance of white's lead over the samples (the same as black's), over the
  scale squared;
- coverage: the points (of 24) that held a checker at some time, from the start position on
  (checked after every throw), and those white's, and black's, checkers ever stood on.
Over a play of several units the numerators and denominators add up.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.kernel.board import BAR, OPP_BAR, OPP_POOL, PINS, POOL, their_pip

if TYPE_CHECKING:
    from interpreter.engine.game import Game

#: bit p for pip p (the masks of covered points; a board of 36 points has pips up to 36)
_BITS = tuple(1 << p for p in range(37))
#: the points of every board
POINTS = 24
#: the lead of a game of holes: each side's holes times the points of a hole, plus his points
_BY_HOLES = "holes"


def races(variant: Any) -> bool:
    """Whether the variant is a race to bear off: its throws and plays score nothing."""
    rules = variant.rules
    return not rules.score_roll and not rules.score_play


def scan(b: Any, tp: tuple[int, ...], slots: tuple[int, ...] = ()
         ) -> tuple[int, int, int, int]:
    """(the mover's pips, the opponent's, the mover's points as a mask, the opponent's) of board
    `b` seen by the mover; `tp` is the opponent's own pip of each of the mover's pips (the
    route's). A man on the bar or waiting to enter counts 25 pips, a pinned man where he
    stands (he holds the point too). `slots`: the slot of each pip of a board of 36 points
    (its middle row, pips 25..36, shared the same way; a man off the board counts 37)."""
    if slots:
        return _scan_wide(b, tp, slots)
    me = 25 * b[BAR]
    them = 25 * b[OPP_BAR]
    mine = theirs = 0
    bits = _BITS
    for p in range(1, 25):
        x = b[p]
        if x:
            if x > 0:
                me += x * p
                mine |= bits[p]
            else:
                them -= x * tp[p]
                theirs |= bits[p]
    if len(b) > PINS:
        pins = b[PINS]
        if pins:
            for p in range(1, 25):
                if pins >> p & 1:
                    if b[p] > 0:            # the opponent's man, pinned under the mover's
                        them += tp[p]
                        theirs |= bits[p]
                    else:
                        me += p
                        mine |= bits[p]
        if len(b) > OPP_POOL:
            me += 25 * b[POOL]
            them += 25 * b[OPP_POOL]
    return me, them, mine, theirs


def _scan_wide(b: Any, tp: tuple[int, ...], slots: tuple[int, ...]
               ) -> tuple[int, int, int, int]:
    entry = len(slots)
    me = entry * (b[BAR] + b[POOL])
    them = entry * (b[OPP_BAR] + b[OPP_POOL])
    mine = theirs = 0
    for p in range(1, entry):
        x = b[slots[p]]
        if x > 0:
            me += x * p
            mine |= _BITS[p]
        elif x < 0:
            them -= x * tp[p]
            theirs |= _BITS[p]
    return me, them, mine, theirs


def lead_by(variant: Any, ladder_cls: Any) -> str:
    """What the lead of the variant's games is measured in (`ladder_cls`: its ladder's class):
    "pips" (a race), "holes" (a ladder whose score sheet is one of points and holes, its state
    each side's holes and points) or "points" (the points the rules gave)."""
    if races(variant):
        return "pips"
    return _BY_HOLES if getattr(ladder_cls, "sheet", None) == "points" else "points"


class _Unit:
    """The sums of one unit (a game of a race, or a scoring play) while it is played."""

    __slots__ = ("by", "pips", "holes", "scale", "first", "tp", "to_white", "n", "sx", "sxx",
                 "leader", "changes", "not_ahead", "deficit", "behind", "worst", "white",
                 "black", "slots", "points")

    def __init__(self, by: str, scale: int, first: int, tp: tuple[int, ...],
                 to_white: Any, slots: tuple[int, ...] = ()):
        #: the slot of each pip on a board of 36 points (else empty) and the board's points
        self.slots = slots
        self.points = len(slots) - 1 if slots else POINTS
        #: what the lead is measured in: "pips", "holes" (the ladder's holes and points) or
        #: "points" (the points the rules gave)
        self.by = by
        self.pips = by == "pips"
        #: the lead is the ladder's standing of holes and points
        self.holes = by == _BY_HOLES
        self.scale = scale
        self.first = first
        self.tp = tp
        #: a mask of black's pips (seen by black) as white's (the route's mirror)
        self.to_white = to_white
        self.n = self.sx = self.sxx = 0
        self.leader = -1
        self.changes = 0
        #: the last sample after which each side was not strictly ahead (0: none)
        self.not_ahead = [0, 0]
        #: each side's deficits summed, samples behind, largest deficit
        self.deficit = [0, 0]
        self.behind = [0, 0]
        self.worst = [0, 0]
        #: the points each side's men stood on (white's numbering)
        self.white = self.black = 0


#: the play's sums (the keys of `summary()["lead"]` and `["board"]`)
_TOTALS = ("units", "samples", "decided", "settled", "settled_units", "changes", "behind",
           "deficit", "worst", "behind_units", "scaled", "scale_units", "spread", "spread_scale",
           "points", "covered", "white", "black")
#: the keys of `summary()["board"]` (the rest are the lead's)
_BOARD = ("points", "covered", "white", "black")


class Tracker:
    """The playout metrics of the play of `game` (see the module docstring). Only the game
    that made it feeds it: a copy of the game (a search's look-ahead) shares the attribute but
    not the identity, and is left out."""

    __slots__ = ("game", "unit", "seen", "sampled", "by", "scale", "totals")

    def __init__(self, game: Game):
        self.game = game
        self.unit: _Unit | None = None
        #: the game's throw count when it was last looked at, and when the lead was last taken
        self.seen = 0
        self.sampled = 0
        #: what the last unit's lead was measured in, and its scale
        self.by = "pips"
        self.scale = 1
        self.totals = dict.fromkeys(_TOTALS, 0)

    # -- what the turn loop calls -------------------------------------------------------------

    def look(self, opening: bool) -> None:
        """At the top of the turn loop: a unit begins (the start position), or a throw has been
        played since the last look; `opening`: the next throw's dice are set (a stage of the
        same throw, numbers passed on), so the round is not over."""
        g = self.game
        u = self.unit
        if u is None:
            self._open()
            return
        turns = g.turns
        if turns == self.seen:
            return
        self.seen = turns
        if u.pips:
            self._step(u, g.board, g.mover,
                       g.mover == u.first and not g.extra and not opening)
        else:
            self._step(u, g.board, g.mover, True)

    def ended(self, winner: int | None, board: Any, mover: int) -> None:
        """An end rule holds on `board` (seen by `mover`): a race's game is over, won by
        `winner` (None: a tie)."""
        u = self.unit
        if u is not None and u.pips:
            self._last(u, board, mover)
            self._close(u, winner)

    def new_game(self) -> None:
        """A new game of the play begins: a race's game still open ended otherwise than by an
        end rule (a double passed, a resignation), without a winner here."""
        u = self.unit
        if u is not None and u.pips:
            g = self.game
            self._last(u, g.board, g.mover)
            self._close(u, None)

    def finish(self, winner: int | None) -> None:
        """The play is over (or stopped by the turn limit): the open unit is won by the play's
        winner."""
        u = self.unit
        if u is not None:
            g = self.game
            self._last(u, g.board, g.mover)
            self._close(u, winner)

    # -- the sums -------------------------------------------------------------------------------

    def _open(self) -> None:
        g = self.game
        v = g.variant
        route = v.geometry.route
        slots: tuple[int, ...] = tuple(v.geometry.slots) if v.geometry.wide else ()
        tp = tuple(their_pip(route, p, v.geometry.points) for p in range(len(slots) or 25))
        by = lead_by(v, type(g.ladder))
        if by == "pips":
            scale = scan(v.start, tp, slots)[0]
        else:
            model = v.ladder
            scale = getattr(model, "points_per_hole", None) or getattr(model, "target", None) \
                or 1
        u = self.unit = _Unit(by, max(1, int(scale)), g.mover, tp, v.geometry.map_pins, slots)
        self.by = by
        self.scale = u.scale
        self.seen = self.sampled = g.turns
        self._cover(u, g.board, g.mover)

    def _cover(self, u: _Unit, b: Any, mover: int) -> tuple[int, int]:
        """The points the men of `b` stand on, added to the unit's; (mover's pips, opponent's)."""
        me, them, mine, theirs = scan(b, u.tp, u.slots)
        if mover == 0:
            u.white |= mine
            u.black |= theirs
        else:
            u.white |= u.to_white(theirs)
            u.black |= u.to_white(mine)
        return me, them

    def _step(self, u: _Unit, b: Any, mover: int, sample: bool) -> None:
        me, them = self._cover(u, b, mover)
        if not sample:
            return
        self.sampled = self.game.turns
        if u.pips:
            lead = them - me if mover == 0 else me - them
        elif u.holes:
            s = self.game.ladder.sides()
            holes, points = s["holes"], s["points"]
            lead = (holes[0] - holes[1]) * u.scale + points[0] - points[1]
        else:
            scored = self.game.scored
            lead = scored[0] - scored[1]
        u.n += 1
        n = u.n
        u.sx += lead
        u.sxx += lead * lead
        if lead > 0:
            ahead = 0
            u.not_ahead[1] = n
            u.deficit[1] += lead
            u.behind[1] += 1
            if lead > u.worst[1]:
                u.worst[1] = lead
        elif lead < 0:
            ahead = 1
            u.not_ahead[0] = n
            u.deficit[0] -= lead
            u.behind[0] += 1
            if -lead > u.worst[0]:
                u.worst[0] = -lead
        else:
            ahead = u.leader
            u.not_ahead[0] = u.not_ahead[1] = n
        if ahead != u.leader:
            if u.leader >= 0:
                u.changes += 1
            u.leader = ahead

    def _last(self, u: _Unit, b: Any, mover: int) -> None:
        """The position after the unit's last throw, sampled whatever the round (unless it
        was, or no throw was played since the unit began)."""
        g = self.game
        if g.turns != self.sampled:
            self.seen = g.turns
            self._step(u, b, mover, True)

    def _close(self, u: _Unit, winner: int | None) -> None:
        t = self.totals
        n, scale = u.n, u.scale
        t["units"] += 1
        t["samples"] += n
        t["changes"] += u.changes
        t["spread"] += n * u.sxx - u.sx * u.sx
        t["spread_scale"] += n * n * scale * scale
        t["points"] += u.points
        t["covered"] += (u.white | u.black).bit_count()
        t["white"] += u.white.bit_count()
        t["black"] += u.black.bit_count()
        if winner is not None and n:
            w = winner
            t["decided"] += n
            settled = max(0, n - u.not_ahead[w] - 1)
            t["settled"] += settled
            t["settled_units"] += settled > 0
            t["behind"] += u.behind[w]
            t["deficit"] += u.deficit[w]
            t["worst"] += u.worst[w]
            t["behind_units"] += u.behind[w] > 0
            t["scaled"] += n * scale
            t["scale_units"] += scale
        self.unit = None

    # -- the line -------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The keys the play adds to its `--games-out` line: each metric of the play (None
        where it has no value: no decided game, no sample) and the integer sums it is made of,
        from which every figure over many games is recomputed exactly (docs/compare.md)."""
        t = self.totals

        def share(y: str, x: str) -> float | None:
            return round(t[y] / t[x], 6) if t[x] else None

        return {
            "decisiveness": share("settled", "decided"),
            "winner_behind": share("behind", "decided"),
            "drama": share("deficit", "scaled"),
            "drama_max": share("worst", "scale_units"),
            "stability": share("spread", "spread_scale"),
            "coverage": share("covered", "points"),
            "coverage_white": share("white", "points"),
            "coverage_black": share("black", "points"),
            "lead": {"by": self.by, "scale": self.scale,
                     **{k: t[k] for k in _TOTALS if k not in _BOARD}},
            "board": {k: t[k] for k in _BOARD},
        }

    @property
    def by_pips(self) -> bool:
        """Whether the play's lead was measured in pips (its lead changes are the tracker's)."""
        return self.by == "pips"

    @property
    def changes(self) -> int:
        return self.totals["changes"]
