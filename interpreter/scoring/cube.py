"""The doubling cube and match play of backgammon (rules/match-scoring.md §7, with §8 M-A19).

A game is worth `cube × k`, k = 1 (single), 2 (gammon) or 3 (backgammon). Before rolling, a
player may offer the cube: while it is centred either player may, afterwards only its owner. The
opponent takes (the cube doubles and he owns it) or passes (the game ends and the doubler wins
the value before the offer). With beavers (money play) the doubled player may at once redouble
while keeping the cube; the original doubler then takes, passes (losing the doubled stake) or,
with `max_instant_redoubles` above 1, redoubles again (a raccoon), the cube still ending with the
player first doubled. A match to N points is won by the first to reach N; the game after the
first time a player reaches N − 1 is the Crawford game, in which nobody may double. Jacoby,
beavers and automatic doubles belong to money play and are ignored in a match; in a 1-point match
the cube is off unless `one_point_cube = "on"`.

`CubeLadder` is the `[ladder]` table of a variant with `kind = "cube"`; `Cube` is the cube of one
game and `Match` the score of a match (a single game in money play). Both refuse, with
`RecordError`, an event the rules do not allow, so that the same machines serve live games and
the replay of `.mat` files.

Test B6 of §7.6: A doubles, B takes; B redoubles to 4; A passes: B wins 2.

    >>> cube = Cube(CubeLadder())
    >>> cube.offer(0); cube.take(1)
    >>> cube.value, cube.owner
    (2, 1)
    >>> cube.offer(1); cube.drop(0)
    (1, 2)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from interpreter.errors import RecordError

#: the choices of the cube questions a player is asked; the first one holds when in doubt
DOUBLE_CHOICES = ("roll", "double")
TAKE, PASS, BEAVER, RACCOON = "take", "pass", "beaver", "raccoon"
#: the names of the game values k = 1, 2, 3 (the value rules of the variant file give k)
VALUE_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


class CubeLadder(BaseModel):
    """Backgammon's scoring: the doubling cube, and a match to `match_length` points (0: money
    play, a single game played for the cube's stake)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["cube"] = Field(
        "cube", description="game value × the doubling cube; a match to N points or money play")
    match_length: int = Field(
        0, ge=0, le=9999,
        description="points that win the match (the French rules offer 1, 3, 5 or 9; any N "
                    "works); 0 is money play: one game, worth the cube times its value")
    doubling: bool = Field(
        True, description="whether the doubling cube is used at all (false: cubeless play)")
    cube_cap: int | Literal["unlimited"] = Field(
        64,
        description="the highest value of the cube (a power of two; the French rules' cube tops at "
                    "64, so an owner at 64 cannot redouble), or \"unlimited\" (gnubg)")
    crawford: bool = Field(
        True, description="the game after a player first reaches N − 1 is played without "
                          "the cube (the Crawford game); matches only")
    one_point_cube: Literal["off", "on"] = Field(
        "off", description="whether the cube is used in a 1-point match, where it can "
                           "never matter (`off`) or is kept anyway (`on`)")
    jacoby: bool = Field(
        False, description="money play: gammons and backgammons count single unless a "
                           "double was taken in the game")
    beavers: bool = Field(
        False, description="money play: a player just doubled may at once redouble, "
                           "keeping the cube (a beaver)")
    max_instant_redoubles: int = Field(
        1, ge=1, le=16,
        description="money play with beavers: how many instant redoubles may follow one "
                    "double (1: the beaver only; 2: the doubler may answer it with a raccoon; …)")
    beaver_refusable: bool = Field(
        True, description="the original doubler may refuse a beaver (or a raccoon) and "
                          "lose the doubled stake (true), or must accept it (false)")
    auto_doubles: int = Field(
        0, ge=0, le=16,
        description="money play: how many ties of the opening roll-off double the cube, "
                    "which stays centred (0: none)")

    @field_validator("cube_cap")
    @classmethod
    def _power_of_two(cls, value: int | str) -> int | str:
        if isinstance(value, int) and (value < 1 or value & (value - 1)):
            raise ValueError(f"`cube_cap` must be a power of two (1, 2, 4, … 64 …) or "
                             f"\"unlimited\", not {value}")
        return value

    # -- what applies, given money play or a match ----------------------------------------------

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    @property
    def cap(self) -> int | None:
        """The highest cube value, None when unlimited."""
        return None if self.cube_cap == "unlimited" else int(self.cube_cap)

    @property
    def cube_in_use(self) -> bool:
        """Whether the cube is played at all (not in a 1-point match unless asked for)."""
        if not self.doubling:
            return False
        return not (self.match_length == 1 and self.one_point_cube == "off")

    @property
    def jacoby_in_use(self) -> bool:
        return self.jacoby and not self.is_match

    @property
    def crawford_in_use(self) -> bool:
        """Whether the match has a Crawford game (a match longer than one point)."""
        return self.crawford and self.match_length > 1

    @property
    def beavers_in_use(self) -> bool:
        return self.beavers and not self.is_match and self.cube_in_use

    @property
    def auto_doubles_in_use(self) -> int:
        return 0 if self.is_match or not self.cube_in_use else self.auto_doubles


@dataclass
class Offer:
    """A double waiting for an answer: `doubler` offers `value` to `to`. `instant` counts the
    instant redoubles made so far in this exchange; `taker` is the player first doubled, who
    owns the cube when the exchange ends in a take."""

    doubler: int
    to: int
    value: int
    instant: int = 0
    taker: int = 0


class Cube:
    """The doubling cube of one game; players are 0 and 1.

    `value` and `owner` (None: centred) are those of the cube on the table: during an offer they
    still hold the values before it (`pending` holds the offer). `crawford` disables the cube
    for the game. Beavers and their refusal follow the ladder (money play only).
    """

    def __init__(self, ladder: CubeLadder, *, crawford: bool = False):
        self.ladder = ladder
        self.enabled = ladder.cube_in_use and not crawford
        self.crawford = crawford
        self.value = 1
        self.owner: int | None = None
        self.pending: Offer | None = None
        self.taken = False          # a double was taken in this game (the Jacoby rule)
        self.cap = ladder.cap
        self._beavers = ladder.beavers_in_use
        self._max_instant = ladder.max_instant_redoubles

    # -- questions ------------------------------------------------------------------------------

    def _fits(self, value: int) -> bool:
        return self.cap is None or value <= self.cap

    def may_double(self, player: int) -> bool:
        """Whether `player`, about to roll, may offer the cube now."""
        return (self.enabled and self.pending is None
                and (self.owner is None or self.owner == player) and self._fits(2 * self.value))

    def may_redouble_instantly(self, player: int) -> bool:
        """Whether `player`, who has just been doubled, may beaver (or raccoon) now."""
        p = self.pending
        return (self._beavers and p is not None and p.to == player
                and p.instant < self._max_instant and self._fits(2 * p.value))

    def may_pass(self, player: int) -> bool:
        """Whether `player` may refuse the pending offer (an instant redouble cannot be refused
        under `beaver_refusable = false`)."""
        p = self.pending
        return p is not None and p.to == player and (p.instant == 0
                                                      or self.ladder.beaver_refusable)

    def answers(self, player: int) -> tuple[str, ...]:
        """The choices of `player` facing the pending offer: take first."""
        out = [TAKE]
        if self.may_pass(player):
            out.append(PASS)
        if self.may_redouble_instantly(player):
            out.append(BEAVER if self.pending.instant == 0 else RACCOON)  # type: ignore[union-attr]
        return tuple(out)

    # -- events ---------------------------------------------------------------------------------

    def auto_double(self) -> bool:
        """A tie of the opening roll-off: the cube doubles and stays centred, if the ladder's
        automatic doubles allow one more. Returns whether it doubled."""
        if (self.owner is None and not self.taken
                and self.value.bit_length() - 1 < self.ladder.auto_doubles_in_use
                and self._fits(2 * self.value)):
            self.value *= 2
            return True
        return False

    def offer(self, player: int) -> None:
        if not self.may_double(player):
            raise RecordError(self._why_not(player))
        self.pending = Offer(player, 1 - player, 2 * self.value, 0, 1 - player)

    def _why_not(self, player: int) -> str:
        if not self.ladder.cube_in_use:
            return "the cube is not used in this game"
        if self.crawford:
            return "nobody may double in the Crawford game"
        if self.pending is not None:
            return "a double is already waiting for an answer"
        if self.owner is not None and self.owner != player:
            return f"player {player} may not double: player {self.owner} owns the cube"
        return f"the cube cannot go above {self.cap}"

    def instant_redouble(self, player: int) -> str:
        """`player`, just doubled, redoubles at once: "beaver" or "raccoon"."""
        if not self.may_redouble_instantly(player):
            p = self.pending
            if p is None or p.to != player:
                raise RecordError(f"player {player} has not been doubled")
            if not self._beavers:
                raise RecordError("beavers are not allowed (money play with `beavers = true` "
                                  "only)")
            if p.instant >= self._max_instant:
                raise RecordError(f"no more than {self._max_instant} instant redouble"
                                  f"{'s' if self._max_instant != 1 else ''} after a double")
            raise RecordError(f"the cube cannot go above {self.cap}")
        p = self.pending
        assert p is not None
        kind = BEAVER if p.instant == 0 else RACCOON
        self.pending = Offer(player, 1 - player, 2 * p.value, p.instant + 1, p.taker)
        return kind

    def take(self, player: int) -> None:
        p = self.pending
        if p is None or p.to != player:
            raise RecordError(f"player {player} has no double to take")
        self.value = p.value
        self.owner = p.taker
        self.taken = True
        self.pending = None

    def drop(self, player: int) -> tuple[int, int]:
        """`player` passes: the game ends. Returns (winner, points): the last offerer wins the
        value before his offer."""
        p = self.pending
        if p is None or p.to != player:
            raise RecordError(f"player {player} has no double to pass")
        if not self.may_pass(player):
            raise RecordError("an instant redouble cannot be refused (`beaver_refusable = "
                              "false`)")
        self.pending = None
        return p.doubler, p.value // 2

    def points(self, k: int) -> int:
        """What a game ended on the board with value k (1, 2, 3) is worth: the cube times k, k
        counting 1 under the Jacoby rule when no double was taken."""
        if self.ladder.jacoby_in_use and not self.taken:
            k = 1
        return self.value * k


@dataclass
class GameEntry:
    """One finished game of a match: who won how many points, and how."""

    number: int
    score_before: tuple[int, int]
    winner: int
    points: int
    cube: int
    owner: int | None
    k: int                  # 1, 2 or 3; 0 when the game ended by a pass
    ended: str              # "play" (borne off), "pass" (a double refused) or "resign"
    crawford: bool
    turns: int = 0

    @property
    def result(self) -> str:
        return "pass" if self.ended == "pass" else VALUE_NAMES.get(self.k, str(self.k))


@dataclass
class Match:
    """The score of a match to `ladder.match_length` points, or of money play (length 0: one
    game, or `money_games` games).

    `new_game()` gives the cube of the next game (the Crawford game's is disabled);
    `finish(...)` records a game and moves the score on. The score may pass N (points beyond N
    do not matter), and `score` can start from a given pair (a match taken up midway).
    """

    ladder: CubeLadder
    score: list[int] = field(default_factory=lambda: [0, 0])
    games: list[GameEntry] = field(default_factory=list)
    #: money play: the games of the session (None: no end, as when a record is replayed)
    money_games: int | None = 1
    crawford_game: int | None = None     # number (1-based) of the Crawford game, once known
    _crawford_next: bool = False
    _crawford_seen: bool = False

    def __post_init__(self) -> None:
        self._check_crawford()

    @property
    def length(self) -> int:
        return self.ladder.match_length

    @property
    def finished(self) -> bool:
        if not self.length:
            return self.money_games is not None and len(self.games) >= self.money_games
        return max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.finished:
            return None
        if not self.length:
            return self.games[-1].winner
        return 0 if self.score[0] >= self.length else 1

    @property
    def next_is_crawford(self) -> bool:
        return self._crawford_next

    def away(self, player: int) -> int:
        """Points `player` still needs (a match only)."""
        return max(0, self.length - self.score[player])

    def new_game(self, crawford: bool | None = None) -> Cube:
        """The cube of the next game. `crawford` overrides the match's own reckoning of the
        Crawford game (a record that starts midway says which game it was)."""
        if self.finished:
            raise RecordError("the match is over")
        if crawford is None:
            crawford = self._crawford_next
        else:
            crawford = crawford and self.ladder.crawford_in_use
            self._crawford_seen = self._crawford_seen or crawford
        self._crawford_next = False
        if crawford:
            self.crawford_game = len(self.games) + 1
        return Cube(self.ladder, crawford=crawford)

    def finish(self, cube: Cube, winner: int, points: int, k: int, ended: str,
               turns: int = 0) -> GameEntry:
        if winner not in (0, 1) or points < 1:
            raise RecordError(f"no such result: player {winner!r} wins {points!r}")
        entry = GameEntry(len(self.games) + 1, (self.score[0], self.score[1]), winner, points,
                          cube.value, cube.owner, k, ended, cube.crawford, turns)
        self.games.append(entry)
        self.score[winner] += points
        self._check_crawford()
        return entry

    def _check_crawford(self) -> None:
        """The first time a player is at N − 1 (and nobody has won), the next game is the
        Crawford game; there is only one per match."""
        if not self.ladder.crawford_in_use or self._crawford_seen or self.finished:
            return
        if self.length - 1 in self.score:
            self._crawford_seen = True
            self._crawford_next = True


def dead_cube(match: Match, cube: Cube, player: int) -> str | None:
    """Why the cube is dead for `player`, about to throw: nothing he could do with it would
    help him. In the Crawford game nobody may double (§7.4); a cube owned by the opponent or at
    its cap cannot be turned; and in a match, once a single game won at the cube's value gives
    `player` the points he still needs (post-Crawford for the leader, one point away; a cube he
    owns at or above what he needs), doubling can only raise what the opponent wins. None while
    the cube lives (money play always, but for the cap)."""
    if not cube.enabled:
        return ("the Crawford game: nobody may double" if cube.crawford
                else "the cube is not used in this game")
    if cube.owner is not None and cube.owner != player:
        return "the opponent owns the cube"
    if not cube._fits(2 * cube.value):
        return f"the cube is at its highest ({cube.value})"
    if match.length:
        away = match.away(player)
        if away <= cube.value:
            post = (match.crawford_game is not None
                    and len(match.games) + 1 > match.crawford_game)
            if post and away == 1:
                return "post-Crawford, 1 point away: any game won wins the match"
            return (f"{away} point{'s' if away != 1 else ''} away with the cube at "
                    f"{cube.value}: any game won wins the match")
    return None


# -- the live match (the turn loop's ladder for `kind = "cube"`) ---------------------------------

from interpreter.engine.events import Cubed, MatchGameBegun, MatchGameWon  # noqa: E402
from interpreter.scoring.protocol import (  # noqa: E402
    END, SIDE_NAMES, GameResult, Gen, Ladder, Next, Worth, pair_text, pair_words, side_view)

DOUBLE, ROLL = "double", "roll"


def _who(owner: int | None, player: int) -> str | None:
    return None if owner is None else ("me" if owner == player else "opponent")


class CubePlay(Ladder):
    """Money play's game, or the match, with the doubling cube. Each game starts with an opening
    throw (whose ties double the cube under automatic doubles, money play only); before every
    other throw the player on roll who may double is asked ("double": roll or double); a double
    is answered by the opponent ("take": take, pass, and in money play with beavers an instant
    redouble, answered in turn). A pass ends the game at the value before the offer; a game
    played out is worth the cube times its value rules. A match goes on game after game (the
    Crawford game without the cube) until a player has N points.

    A player who never doubles (the game's `doubles` capabilities) is neither asked to double
    nor offered beavers; he is still asked to take or pass."""

    cube_match = True
    training_overrides = ("ladder.match_length=0", "ladder.doubling=false")

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "match-winning chances (2 MWC - 1)" if match_length else "points"

    @classmethod
    def has_cube(cls, model: Any = None) -> bool | None:
        return bool(getattr(model, "cube_in_use", True))

    @classmethod
    def game_value_names(cls, model: Any, names: dict[str, str]) -> frozenset[str] | None:
        """Single, gammon, backgammon (as the cube's results name them), and a pass where the
        cube is in use."""
        out = frozenset(VALUE_NAMES.get(int(k), str(k)) for k in names)
        return out | frozenset({"pass"}) if cls.has_cube(model) else out

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """Money play: a game's points at the cube's stake; a match: the points of its last
        game (what a finished match's line gives as its value)."""
        return "match points" if getattr(model, "match_length", 0) else "points"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        c = int(state.get("cube", 1))
        single = bool(state.get("jacoby_single"))
        if state.get("match_length"):
            return Worth(match=state, stake=c, doubling=True, single=single,
                         cubeful=bool(state.get("enabled") and not state.get("crawford")))
        return Worth(stake=c, doubling=True, single=single, owner=state.get("owner"),
                     cubeful=bool(state.get("enabled") and state.get("may_double") is not None))

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        me, them = names
        owner = state.get("owner")
        who = "centred" if owner is None else f"owned by {me if owner == 'me' else them}"
        cube = f"cube {state.get('cube')} ({who})" if state.get("enabled") else "no cube"
        if state.get("crawford"):
            cube += ", the Crawford game"
        if state.get("match_length"):
            return [f"match to {state['match_length']}: {pair_words(state, 'score', names)}; "
                    f"game {state.get('game')}; {cube}"]
        return [f"money game; {cube}"]

    @classmethod
    def sides_text(cls, state: dict) -> str:
        owner = state.get("owner")
        cube = f"cube {state['cube']}" + ("" if owner is None else f" {SIDE_NAMES[owner]}")
        if state.get("crawford"):
            cube += ", Crawford game"
        elif not state.get("enabled", True):
            cube = ""               # no cube in this game (cubeless play, a 1-point match)
        score = f"match {pair_text(state, 'score')} of {state['match_length']}" \
            if state.get("match_length") else ""
        return "; ".join(x for x in (cube, score) if x)

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        return "match" if summary.get("match_length") else None

    def __init__(self, model: CubeLadder, game: object):
        super().__init__(model, game)
        self.match = Match(model)
        self.cube: Cube | None = None
        doubles = game.doubles            # type: ignore[attr-defined]
        self.doubles = doubles
        self.offers_before_throw = model.cube_in_use and (doubles[0] or doubles[1])
        self._start_turns = 0

    def start(self) -> None:
        self._new_cube()

    def _new_cube(self) -> None:
        self.cube = self.match.new_game()
        self._start_turns = self.game.turns
        g = self.game
        g.event(MatchGameBegun, len(self.match.games) + 1, tuple(self.match.score),
                self.cube.crawford)

    def opening(self, ties: int) -> None:
        cube = self.cube
        assert cube is not None
        for _ in range(ties):
            if not cube.auto_double():
                break
            self.game.event(Cubed, None, "auto", cube.value)

    def before_throw(self) -> Gen:
        g = self.game
        cube = self.cube
        assert cube is not None
        roller = g.mover
        if not (self.doubles[roller] and cube.may_double(roller)):
            return None
        d = g.ask(DOUBLE, roller, DOUBLE_CHOICES)
        if DOUBLE_CHOICES[g.answered(d, (yield d))] != DOUBLE:
            return None
        cube.offer(roller)
        g.event(Cubed, roller, DOUBLE, cube.pending.value)       # type: ignore
        while True:
            p = cube.pending
            assert p is not None
            to = p.to
            choices = cube.answers(to)
            if not self.doubles[to]:
                choices = tuple(c for c in choices if c not in (BEAVER, RACCOON))
            if len(choices) > 1:
                d = g.ask("take", to, choices)
                answer = choices[g.answered(d, (yield d))]
            else:
                answer = choices[0]
            if answer == TAKE:
                cube.take(to)
                g.event(Cubed, to, TAKE, cube.value)
                return None
            if answer == PASS:
                g.event(Cubed, to, PASS, p.value // 2)
                winner, points = cube.drop(to)
                return self._finish(winner, points, 0, "pass")
            kind = cube.instant_redouble(to)
            g.event(Cubed, to, kind, cube.pending.value)          # type: ignore

    def game_end(self, winner: int, k: int) -> Next:
        assert self.cube is not None
        return self._finish(winner, self.cube.points(k), k, "play")

    #: a resignation offers a single, a gammon or a backgammon, and the opponent accepts or
    #: declines it, as in gnubg; accepted, the game ends worth the cube times that value (the
    #: Jacoby rule applies as to a game played out); a double waiting for an answer is void
    resign_levels = ("single", "gammon", "backgammon")
    resign_needs_consent = True
    resign_whole = None

    def resign(self, player: int, level: str) -> Next:
        cube = self.cube
        assert cube is not None
        cube.pending = None
        k = self.resign_levels.index(level) + 1
        return self._finish(1 - player, cube.points(k), k, "resign")

    def _finish(self, winner: int, points: int, k: int, how: str) -> Next:
        g = self.game
        cube = self.cube
        assert cube is not None
        entry = self.match.finish(cube, winner, points, k, how,
                                  g.turns - self._start_turns)
        g.event(MatchGameWon, entry.number, winner, points, entry.result,
                tuple(self.match.score))
        if self.match.finished:
            return END
        self._new_cube()
        return Next("game", start="opening")

    # -- state ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.match.finished

    def state(self, player: int) -> dict:
        assert self.cube is not None
        return cube_state(self.match, self.cube, player)

    def sides(self) -> dict:
        m = self.match
        c = self.cube
        assert c is not None
        return {"score": list(m.score), "game": len(m.games) + 1, "cube": c.value,
                "owner": c.owner, "crawford": c.crawford, "match_length": m.length}

    def figures(self) -> dict:
        games = self.match.games
        last = games[-1] if games else None
        return {"cube": last.cube if last else None,
                "result": last.result if last else None,
                "games": len(games),
                "gammons": sum(1 for g in games if g.k == 2),
                "backgammons": sum(1 for g in games if g.k == 3),
                "passes": sum(1 for g in games if g.ended == "pass"),
                "game_results": [g.result for g in games],
                "cube_levels": [g.cube for g in games]}

    def result(self) -> GameResult:
        match = self.match
        g = self.game
        finished = match.finished
        last = match.games[-1] if match.games else None
        out = GameResult(finished, match.winner, last.points if (finished and last) else 0,
                         g.turns, list(match.score), g.fired)
        out.extra = summary(match, SIDE_NAMES)
        return out


def cube_state(m: Match, c: Cube, player: int) -> dict:
    """The cube and the match as plain data, seen by `player`."""
    p = c.pending
    return {
        "kind": "cube", "match_length": m.length, "score": side_view(m.score, player),
        "away": {"me": m.away(player), "opponent": m.away(1 - player)} if m.length else None,
        "cube": c.value, "owner": _who(c.owner, player), "enabled": c.enabled,
        "crawford": c.crawford, "taken": c.taken,
        # the Jacoby rule holds in this game: gammons count single while no double was taken
        "jacoby_single": m.ladder.jacoby_in_use and not c.taken,
        # whether the match is played with the cube, and with the Crawford rule
        "cube_in_use": m.ladder.cube_in_use,
        "crawford_rule": m.ladder.crawford_in_use,
        "may_double": c.may_double(player),
        # why the cube is dead for the player (None: it lives), `dead_cube`
        "dead": dead_cube(m, c, player),
        "may_redouble_instantly": c.may_redouble_instantly(player),
        "pending": None if p is None else {
            "doubler": "me" if p.doubler == player else "opponent", "value": p.value,
            "instant": p.instant},
        "game": len(m.games) + 1,
    }


def summary(match: Match, names: tuple[str, str]) -> dict:
    """What the cube ladder adds to `tablier play --json`: the match, game by game."""
    ladder = match.ladder
    games = []
    for g in match.games:
        after = list(g.score_before)
        after[g.winner] += g.points
        games.append({
            "game": g.number, "winner": names[g.winner], "points": g.points,
            "result": g.result, "cube": g.cube,
            "cube_owner": None if g.owner is None else names[g.owner],
            "crawford": g.crawford, "turns": g.turns,
            "score": {"white": after[0], "black": after[1]},
        })
    out: dict = {"match_length": ladder.match_length, "games": games}
    if ladder.match_length:
        out["crawford_rule"] = ladder.crawford_in_use
        out["crawford_game"] = match.crawford_game
    return out
