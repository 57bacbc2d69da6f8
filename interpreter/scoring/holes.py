"""Points → holes: the trictrac marking of points, holes, bredouille and going
(rules/trictrac.md §5, §6; the Dutch Triktrak's trous and match, rules/match-scoring.md §6.2).

`Holes` is the state machine the live game calls once or twice per roll (the roller's gains, then
the opponent's), so it holds plain ints and lists; its parameters are the `HolesLadder` model, the
`[ladder]` table of a variant with `kind = "holes"`.

    >>> h = Holes(HolesLadder())
    >>> h.mark(0, 4, own_roll=True)         # Alice marks 4 from her own roll
    (0, False)
    >>> h.mark(1, 2, own_roll=False)        # Bob 2 from Alice's roll: Alice loses her bredouille
    (0, False)
    >>> h.mark(0, 10, own_roll=True)        # 14 points: one single hole, 2 left over, may go
    (1, True)
    >>> h.go(0); h.points, h.holes
    ([0, 0], [1, 0])
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.errors import RecordError


class HoleMarking(BaseModel):
    """How points are marked into holes (trictrac.md §5): shared by every ladder built on holes."""

    model_config = ConfigDict(extra="forbid")
    points_per_hole: int = Field(
        12, ge=1, description="points that make one hole (trou)")
    second_marker_bredouille: Literal["allowed", "never"] = Field(
        "allowed",
        description="the second player to mark in a hole-cycle can win the hole double "
                    "(`allowed`, the treatises) or only the first marker can (`never`)")
    sortie_bredouille: Literal["keep", "reset"] = Field(
        "keep",
        description="at the relevé after a sortie both players keep their points and "
                    "bredouille (`keep`) or keep the points but start the bredouille afresh "
                    "(`reset`)")


class HolesLadder(HoleMarking):
    """Points make holes, holes win the game (the 12-hole game, the Dutch Triktrak's match)."""

    kind: Literal["holes"] = Field("holes", description="points → holes → a game of N holes")
    holes_to_win: int = Field(
        12, ge=0,
        description="holes that win the game; 0: no end, "
                    "as under the marks of the partie à écrire")
    last_hole: Literal["any_roll", "own_roll"] = Field(
        "any_roll",
        description="the winning hole may come from either roll (`any_roll`) or must be "
                    "won on the winner's own roll (`own_roll`, as in the partie à écrire)")
    match_lurch: Literal["off", "grande_bredouille", "mal_xx", "honours"] = Field(
        "off",
        description="stake multiplier of a won game: `off` ×1; "
                    "`grande_bredouille` ×2 when the winner's holes were all consecutive; "
                    "`mal_xx` (Malfilâtre, art. XX) ×4 loser without a hole, ×3 grande "
                    "bredouille won second, ×2 loser below 6, else ×1; `honours` ×4 quadruple, "
                    "×3 treble, ×2 loser at most 6, else ×1")


class Holes:
    """The marking of two players, 0 and 1, as plain ints (trictrac.md §5.2 state machine).

    `points[p]` is 0..points_per_hole-1 after every marking, `holes[p]` never decreases,
    `bred[p]` is true while p can still win the current hole double. `can_go` is the player who
    may go right now (-1: nobody): the one who has just won a hole on his own roll. `interrupted[p]`
    records that the opponent won a hole after p's first hole (the grande bredouille of §6).
    """

    __slots__ = ("ladder", "names", "points", "holes", "bred", "can_go", "interrupted", "winner",
                 "_pph", "_to_win", "_never", "_own_last", "_keep_on_sortie")

    def __init__(self, ladder: HolesLadder | None = None,
                 names: tuple[str, str] = ("player 0", "player 1")):
        ladder = ladder or HolesLadder()
        self.ladder = ladder
        self.names = names              # for the messages of errors only
        self._pph = ladder.points_per_hole
        self._to_win = ladder.holes_to_win
        self._never = ladder.second_marker_bredouille == "never"
        self._own_last = ladder.last_hole == "own_roll"
        self._keep_on_sortie = ladder.sortie_bredouille == "keep"
        self.points = [0, 0]
        self.holes = [0, 0]
        self.bred = [True, True]
        self.can_go = -1
        self.interrupted = [False, False]
        self.winner = -1

    @property
    def finished(self) -> bool:
        return self.winner >= 0

    def mark(self, player: int, n: int, own_roll: bool) -> tuple[int, bool]:
        """`player` marks `n` > 0 points, from his own roll or the opponent's.

        Returns the holes won (a bredouille hole counts 2) and whether the player may now go:
        only after a hole won on his own roll, and not once the game is over. Marking leftover
        points means staying, so any marking ends an earlier right to go.
        """
        if self.winner >= 0:
            raise RecordError(f"the game is over: {self.names[self.winner]} has won it")
        if n <= 0:
            raise RecordError(f"points to mark must be positive, got {n}")
        other = 1 - player
        points = self.points
        bred = self.bred
        # the marker's points interrupt the other's series (§5.2); under `never` any marking
        # by the first marker leaves the second without bredouille (T-A1)
        if points[other] > 0 or self._never:
            bred[other] = False
        total = points[player] + n
        self.can_go = -1
        if total < self._pph:
            points[player] = total
            return 0, False
        k = total // self._pph
        won = (2 if bred[player] else 1) + 2 * (k - 1)   # only the first hole can lose bredouille
        holes = self.holes
        holes[player] += won
        points[player] = total - k * self._pph
        bred[player] = True
        points[other] = 0
        # the remainder starts a fresh series: under `never` its owner is the first marker
        bred[other] = not (self._never and points[player] > 0)
        if holes[other] > 0:
            self.interrupted[other] = True
        to_win = self._to_win
        if to_win and holes[player] >= to_win and (own_roll or not self._own_last):
            self.winner = player
            return won, False
        if own_roll:
            self.can_go = player
            return won, True
        return won, False

    def go(self, player: int) -> None:
        """`player` goes (s'en aller): holes are kept, both players' points and bredouille start
        afresh, the men are reset (§5.3). Only right after a hole won on his own roll."""
        if self.winner >= 0:
            raise RecordError(f"the game is over: {self.names[self.winner]} has won it")
        if self.can_go != player:
            raise RecordError(f"{self.names[player]} may go only directly after winning a hole "
                              f"on {self.names[player]}'s own roll")
        self.points[0] = self.points[1] = 0
        self.bred[0] = self.bred[1] = True
        self.can_go = -1

    def reset_men(self) -> None:
        """The relevé after a sortie (§5.5): points are kept, and bredouille too unless
        `sortie_bredouille = "reset"` (both players may then win the current hole double)."""
        if self.winner >= 0:
            raise RecordError(f"the game is over: {self.names[self.winner]} has won it")
        self.can_go = -1
        if not self._keep_on_sortie:
            self.bred[0] = self.bred[1] = True

    def multiplier(self) -> int:
        """The stake multiplier of the finished game under `match_lurch` (1 while unfinished)."""
        if self.winner < 0:
            return 1
        w = self.winner
        loser_holes = self.holes[1 - w]
        run = not self.interrupted[w]          # all the winner's holes in one run
        rule = self.ladder.match_lurch
        if rule == "grande_bredouille":
            return 2 if run else 1
        if rule == "mal_xx":
            if loser_holes == 0:
                return 4
            if run:
                return 3
            return 2 if loser_holes < 6 else 1
        if rule == "honours":
            if loser_holes == 0:
                return 4
            if run:
                return 3
            return 2 if loser_holes <= 6 else 1
        return 1


# -- the live game of holes (the turn loop's ladder for `kind = "holes"`) ------------------------

from interpreter.engine.events import Hole  # noqa: E402
from interpreter.scoring.protocol import (  # noqa: E402
    END, ON, GameResult, Gen, Ladder, Next, Worth, pair_text, pair_words, side_view)
from interpreter.errors import Problem  # noqa: E402


def holes_state(holes: Holes, player: int) -> dict:
    """The marking of `holes` as plain data, seen by `player`."""
    return {"points": side_view(holes.points, player), "holes": side_view(holes.holes, player),
            "bredouille": side_view(holes.bred, player),
            "points_per_hole": holes.ladder.points_per_hole,
            "can_go": holes.can_go == player}


def holes_sides(holes: Holes) -> dict:
    return {"points": list(holes.points), "holes": list(holes.holes),
            "bredouille": list(holes.bred)}


def points_words(state: dict, names: tuple[str, str]) -> str:
    """The points of a state seen by a player, with who can still win the hole bredouille."""
    pts, bred = state.get("points", {}), state.get("bredouille", {})

    def p(who: str) -> str:
        return f"{pts.get(who)}" + (" (bredouille)" if bred.get(who) else "")
    return f"points: {names[0]} {p('me')}, {names[1]} {p('opponent')}"


def points_text(state: dict) -> str:
    """The points of a `sides()` state in a few words: `points 4b-2` ("b": the side can still
    win the current hole bredouille, double)."""
    bred = state.get("bredouille", [False, False])
    pts = state.get("points", [0, 0])
    return f"points {pts[0]}{'b' if bred[0] else ''}-{pts[1]}{'b' if bred[1] else ''}"


def score_line(summary: dict, unit: str) -> str:
    """The score line under a played game's log."""
    score = summary.get("score", {})
    return f"score: white {score.get('white')}, black {score.get('black')} {unit}"


class PointsLadder(Ladder):
    """What the ladders that count each throw's points towards holes (or game values) answer
    alike: a bot weighs the chance of winning the partie, and the variant needs `score` rules."""

    @classmethod
    def game_value_names(cls, model: Any, names: dict[str, str]) -> frozenset[str] | None:
        """Holes, marks and jetons: not the names of value rules."""
        return None

    points_unit: str | None = "holes"
    learns_values = False
    ended_by_rules = False
    counted_in_points = True

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "partie-winning chances (2 P - 1)"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        return Worth(chance=True)

    @classmethod
    def summary_line(cls, summary: dict) -> str | None:
        return score_line(summary, "points")


from interpreter.scoring.schools import Schools  # noqa: E402


class HolesPlay(Schools, PointsLadder):
    """Each throw's points marked into holes: the roller's before his play, then the play's own
    and the opponent's; after a hole on his own throw the roller may go (a relevé, and he throws
    again); the game ends at the ladder's number of holes."""

    #: a board marks this ladder's holes with pegs (and its points with jetons)
    peg_key: str | None = "holes"

    net_unit = "holes"
    sheet = "points"

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """A partie is worth its stake multiplier (`match_lurch`: ×1 to ×4)."""
        return "stakes"
    feature_names = tuple(f"{n}_{side}" for side in ("me", "opponent")
                          for n in ("points", "holes", "bredouille", "to_go_1", "to_go_2",
                                    "to_go_4")) + ("can_go",)

    @classmethod
    def features(cls, state: dict) -> list[float]:
        """Each side's points and holes, bredouille, whether 1, 2 or 4 holes win; a go open."""
        s = state
        pph = float(s.get("points_per_hole") or 12)
        to_win = float(s.get("holes_to_win") or 12)
        out = []
        for side in ("me", "opponent"):
            holes = s["holes"][side]
            to_go = max(to_win - holes, 0.0)
            out += [s["points"][side] / pph, holes / to_win, float(s["bredouille"][side]),
                    float(to_go <= 1), float(to_go <= 2), float(to_go <= 4)]
        out.append(float(s.get("can_go", False)))
        return out

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        return [f"{points_words(state, names)}; holes: {pair_words(state, 'holes', names)} "
                f"(of {state.get('holes_to_win')})"]

    @classmethod
    def sides_text(cls, state: dict) -> str:
        return f"{points_text(state)}; holes {pair_text(state, 'holes')}"

    @classmethod
    def summary_line(cls, summary: dict) -> str | None:
        return score_line(summary, "holes")

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        return "partie"

    @classmethod
    def file_problems(cls, ladder: dict, off_pip: int) -> list[Problem]:
        n = ladder.get("holes_to_win")
        if isinstance(n, int) and not isinstance(n, bool) and n == 0:
            return [Problem(("ladder", "holes_to_win"), "unplayable",
                            "`ladder.holes_to_win` = 0: a game of holes would never end; it "
                            "needs at least 1 hole (the holes under the marks of the partie à "
                            "écrire are `kind = \"ecrire\"`)")]
        return []

    def __init__(self, model: HolesLadder, game: object):
        super().__init__(model, game)
        self.holes = Holes(model, names=("white", "black"))
        self._theirs = 0
        self.goes = [0, 0]
        self.releves = 0
        self.init_schools()

    def _mark(self, player: int, n: int, own: bool) -> tuple[int, bool]:
        won, may_go = self.holes.mark(player, n, own)
        if won:
            self.game.event(Hole, player, won, self.game.mover)
        return won, may_go

    def on_roll(self, mine: int, theirs: int) -> Gen:
        g = self.game
        mover = g.mover
        self._theirs = theirs
        may_go = False
        if mine and self.schools_on:
            mine = yield from self.claimed(mover, mine)
        if mine:
            _won, may_go = self._mark(mover, mine, True)
        if self.holes.finished:
            return END
        if may_go:
            d = g.ask("go", mover, ("stay", "go"))
            if g.answered(d, (yield d)) == 1:
                self.holes.go(mover)
                self.goes[mover] += 1
                if self._schools:
                    yield from self.schools_last()
                return END if self.holes.finished else Next("releve", mover)
        return None

    def school_mark(self, side: int, n: int) -> Gen:
        self._mark(side, n, False)
        return None
        yield

    def on_play(self, mine: int, theirs: int) -> Gen:
        g = self.game
        mover = g.mover
        holes = self.holes
        if mine and self.schools_on:
            mine = yield from self.claimed(mover, mine)
        if mine:
            self._mark(mover, mine, True)
        theirs += self._theirs
        if theirs and not holes.finished:
            if self.schools_on:
                theirs = yield from self.claimed(1 - mover, theirs)
            if theirs:
                self._mark(1 - mover, theirs, False)
        if self._schools:
            yield from self.schools_last()
        if holes.finished:
            return END
        return ON

    def on_all_off(self) -> None:
        self.holes.reset_men()
        self.releves += 1

    def resign(self, player: int, level: str) -> Next:
        """A resignation concedes the game of holes, which is the partie: the opponent wins it
        with the holes as they stand, at the stake multiplier those holes give (`match_lurch`;
        the rules, match-scoring §6.2 and trictrac.md §6, say nothing of a concession, and this
        is what the holes on the board would give were the game played out to this point)."""
        self.holes.winner = 1 - player
        self.holes.can_go = -1
        return END

    def resign_terms(self, player: int, level: str, names: tuple[str, str]) -> str:
        h = self.holes
        mine, theirs = h.holes[player], h.holes[1 - player]
        keep = h.winner
        h.winner = 1 - player
        try:
            k = h.multiplier()
        finally:
            h.winner = keep
        worth = "" if k == 1 else f", worth ×{k} ({self.model.match_lurch})"
        return (f"conceding the partie (the game of {self.model.holes_to_win} holes): "
                f"{names[1]} wins it with the holes as they stand, {names[0]} {mine}, "
                f"{names[1]} {theirs}{worth}")

    @property
    def finished(self) -> bool:
        return self.holes.finished

    def state(self, player: int) -> dict:
        out = holes_state(self.holes, player)
        out.update(self.school_state())
        out["kind"] = "holes"
        out["holes_to_win"] = self.model.holes_to_win
        return out

    def sides(self) -> dict:
        return holes_sides(self.holes)

    def figures(self) -> dict:
        h = self.holes
        return {"holes": {"white": h.holes[0], "black": h.holes[1]},
                "goes": {"white": self.goes[0], "black": self.goes[1]},
                "releves": self.releves, "multiplier": h.multiplier() if h.finished else None}

    def result(self) -> GameResult:
        g = self.game
        h = self.holes
        return GameResult(h.finished, h.winner if h.finished else None,
                          h.multiplier() if h.finished else 0, g.turns, list(h.holes), g.fired)
