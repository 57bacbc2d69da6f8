"""Points → game value → the continuous match of the 12-point Tric-Trac (rules/match-scoring.md
§6.1, with §8 M-A10 and M-A18).

A game is won the moment a player has `target` points (12), even partway through a throw; the
rest of the throw is still played and its points are the winner's excess. What the game is worth
is the variant file's to say, as `value` rules over the loser's points (`their_points`): in
`variants/tric-trac-12.toml` ×4 when the loser has no point, ×3 with 1–2, ×2 with 3–6 (3–5 under
`options.double_threshold = "below_6"`), else ×1. After each win but the match's last, the
winner goes away (a fresh game from the start, the excess lost) or continues from the position,
keeping his excess while the loser starts again from 0.

`ContinuousMatch` is the state machine the live game feeds once per throw (the mover's points of
the throw, then the opponent's); its parameters are the `ContinuousLadder` model, the `[ladder]`
table of a variant with `kind = "continuous"`.

Test T5 of §6.1: A has 10 and scores 4 on one throw (a hit, a man borne off, the side prime);
the value function here is the file's rules for a loser without points.

    >>> m = ContinuousMatch(ContinuousLadder(), value=lambda winner, pts: 4 if pts[0] == 0 else 1)
    >>> m.points = [10, 0]
    >>> m.score(0, 4, 0)                  # A reaches 14 on his throw: he wins, B at 0 (×4)
    0
    >>> m.pending.value, m.pending.excess
    (4, 2)
    >>> entry = m.resolve("continue")
    >>> m.points                          # A carries his 2 points above 12, B starts at 0
    [2, 0]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.engine.contract import SIDE_NAMES
from interpreter.errors import RecordError

#: what the winner of a game may do: play on from the position, or start afresh
CONTINUE, GO = "continue", "go"
#: the value names of match-scoring §6.1
VALUE_NAMES = {1: "single", 2: "double", 3: "triple", 4: "quadruple"}


class ContinuousLadder(BaseModel):
    """Points win a game worth ×1–×4 by the loser's points; a match of N games, each won game
    continued or abandoned at the winner's choice (match-scoring §6.1)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["continuous"] = Field(
        "continuous", description="points → game value → a continuous match of N games")
    target: int = Field(12, ge=1, description="points that win a game; what it is worth is "
                        "the file's `value` rules over the loser's points")
    match_games: int = Field(
        12, ge=1, le=1000,
        description="games in the match (12); 1 plays a single game")
    match_result: Literal["sum_of_values", "games_won"] = Field(
        "sum_of_values",
        description="the match is won by the higher sum of game values "
                    "(`sum_of_values`) or the more games won (`games_won`); equal totals are a "
                    "drawn match with no winner")
    restart: Literal["winner_throws", "roll_off"] = Field(
        "winner_throws",
        description="after going away the winner starts the new game by throwing two dice "
                    "(a doublet counts, with its extra throw) (`winner_throws`), or the players "
                    "throw one die each as at the first game (`roll_off`)")


@dataclass
class GameEntry:
    """One won game of the match: who won, the points when the throw that won it ended (the
    loser's are those he had when the winner reached the target), its value, the winner's
    excess and what the winner then chose (None for the match's last game)."""

    number: int
    winner: int
    points: tuple[int, int]
    value: int
    excess: int
    continued: bool = False       # the game began from a continued position
    decision: str | None = None
    turns: int = 0

    def as_dict(self, names: tuple[str, str]) -> dict[str, Any]:
        return {"game": self.number, "winner": names[self.winner],
                "points": {names[0]: self.points[0], names[1]: self.points[1]},
                "value": self.value, "kind": VALUE_NAMES.get(self.value, str(self.value)),
                "excess": self.excess, "continued": self.continued, "decision": self.decision,
                "turns": self.turns}


class ContinuousMatch:
    """The points of the game in progress and the won games of the match; players 0 and 1.

    `score()` ends a game when a player reaches the target; the game then waits in `pending`
    until `resolve()` records the winner's choice (or, for the match's last game, none).
    """

    __slots__ = ("ladder", "points", "games", "pending", "continued", "_target", "_value")

    def __init__(self, ladder: ContinuousLadder | None = None,
                 value: Callable[[int, tuple[int, int]], int] | None = None):
        """`value(winner, (loser's points, winner's points))` is what a won game is worth (the
        variant's value rules); every game is single without it."""
        self.ladder = ladder or ContinuousLadder()
        self._value = value or (lambda _winner, _points: 1)
        self._target = self.ladder.target
        self.points = [0, 0]
        self.games: list[GameEntry] = []
        self.pending: GameEntry | None = None
        self.continued = False       # the game in progress was continued from the last one

    # -- state --------------------------------------------------------------------------------

    @property
    def game_number(self) -> int:
        """The number of the game in progress (or pending), from 1."""
        return len(self.games) + 1

    @property
    def is_last_game(self) -> bool:
        return self.game_number >= self.ladder.match_games

    @property
    def finished(self) -> bool:
        return len(self.games) >= self.ladder.match_games

    def totals(self) -> list[int]:
        """The match score so far in the unit of `match_result`."""
        out = [0, 0]
        by_value = self.ladder.match_result == "sum_of_values"
        for g in self.games:
            out[g.winner] += g.value if by_value else 1
        return out

    def winner(self) -> int | None:
        """The match winner once it is finished (None while playing and for a drawn match)."""
        if not self.finished:
            return None
        a, b = self.totals()
        return 0 if a > b else 1 if b > a else None

    # -- events -------------------------------------------------------------------------------

    def score(self, mover: int, mine: int, theirs: int) -> int | None:
        """The points of one throw of `mover`: his own (`mine`), then the opponent's (`theirs`,
        scored after the throw). Returns the winner when the throw wins the game: the mover if he
        reaches the target (the opponent's points of that throw come too late to count), else
        the opponent if he does."""
        if self.pending is not None:
            raise RecordError(f"game {self.game_number} is won: the winner must first go away "
                              "or continue")
        if mine < 0 or theirs < 0:
            raise RecordError(f"points of a throw cannot be negative ({mine}, {theirs})")
        pts = self.points
        other = 1 - mover
        pts[mover] += mine
        if pts[mover] >= self._target:
            return self._won(mover)
        pts[other] += theirs
        if pts[other] >= self._target:
            return self._won(other)
        return None

    def _won(self, winner: int) -> int:
        pts = self.points
        loser_points = pts[1 - winner]
        self.pending = GameEntry(
            number=self.game_number, winner=winner, points=(pts[0], pts[1]),
            value=self._value(winner, (loser_points, pts[winner])),
            excess=pts[winner] - self._target,
            continued=self.continued)
        return winner

    def resolve(self, decision: str | None, turns: int = 0) -> GameEntry:
        """Record the pending game with the winner's choice: `"continue"` (he keeps his excess,
        the loser restarts from 0), `"go"` (both from 0), or None for the match's last game."""
        entry = self.pending
        if entry is None:
            raise RecordError("no game is waiting for the winner's choice")
        if decision is None and not self.is_last_game:
            raise RecordError(f"the winner of game {entry.number} must go away or continue")
        if decision not in (None, CONTINUE, GO):
            raise RecordError(f"the winner may go away or continue, not {decision!r}")
        entry.decision = decision
        entry.turns = turns
        self.games.append(entry)
        self.pending = None
        self.points = [0, 0]
        if decision == CONTINUE:
            self.points[entry.winner] = entry.excess
        self.continued = decision == CONTINUE
        return entry

    # -- summary ------------------------------------------------------------------------------

    def summary(self, names: tuple[str, str]) -> dict[str, Any]:
        """The match as `tablier play --json` reports it (added to the game summary)."""
        totals = self.totals()
        winner = self.winner()
        wins = [0, 0]
        for g in self.games:
            wins[g.winner] += 1
        return {
            "match": {"games": self.ladder.match_games, "played": len(self.games),
                      "result": self.ladder.match_result,
                      "score": {names[0]: totals[0], names[1]: totals[1]},
                      "games_won": {names[0]: wins[0], names[1]: wins[1]},
                      "winner": None if winner is None else names[winner]},
            "games": [g.as_dict(names) for g in self.games],
            "points": {names[0]: self.points[0], names[1]: self.points[1]},
        }


# -- the live match (the turn loop's ladder for `kind = "continuous"`) ---------------------------

from interpreter.scoring.holes import PointsLadder  # noqa: E402
from interpreter.engine.events import GameWon  # noqa: E402
from interpreter.scoring.protocol import (  # noqa: E402
    END, ON, GameResult, Gen, Next, Worth, pair_text, pair_words, side_view)
from interpreter.errors import Problem  # noqa: E402


class ContinuousPlay(PointsLadder):
    """Each throw's points go to the match, the mover's first, then the opponent's; a throw that
    wins a game forfeits a pending extra throw, and the winner is asked (but for the match's last
    game) whether to go away (a fresh game from the start) or continue from the position."""

    #: a board marks this ladder's games with pegs (and its points with jetons)
    peg_key: str | None = "games"

    @classmethod
    def game_value_names(cls, model: Any, names: dict[str, str]) -> frozenset[str] | None:
        """Each game of the match is worth a value of its value rules."""
        return frozenset(names.values())

    points_unit: str | None = "game values"
    learns_units = True
    new_game_note: str | None = "a new game: opening throw"
    feature_names = ("points_me", "games_me", "points_opponent", "games_opponent", "last_game",
                     "game")

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        return "match"

    @classmethod
    def features(cls, state: dict) -> list[float]:
        """Each side's points of the game in play and games of the match, and where the match
        stands."""
        s = state
        target = float(s.get("target") or 12)
        out = []
        for side in ("me", "opponent"):
            out += [s["points"][side] / target, s["games"][side] / 24.0]
        out += [float(s.get("last_game", False)), s.get("game", 1) / 12.0]
        return out

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "game values"

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """The match is worth the difference of its totals of game values."""
        return "game values"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        """The match is won by the sum of its games' values (or games won): the totals so far,
        a game won and waiting for its winner's choice counted in, and the game in play."""
        single = state.get("match_result") == "games_won"
        total = float(state["games"]["me"] - state["games"]["opponent"])
        pending = state.get("pending")
        if pending is not None:
            v = 1 if single else pending["value"]
            total += v if pending["winner"] == "me" else -v
        return Worth(summed=total, settled=pending is not None, single=single)

    @classmethod
    def net(cls, winner: int | None, points: Any, value: int, side: int) -> float:
        """The difference of the match totals."""
        return float(points[side] - points[1 - side])

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        return [f"game {state.get('game')} (to {state.get('target')} points): points "
                f"{pair_words(state, 'points', names)}; games won (values) "
                f"{pair_words(state, 'games', names)}"]

    @classmethod
    def sides_text(cls, state: dict) -> str:
        return f"points {pair_text(state, 'points')}; game {state['game']}, games " \
               f"{pair_text(state, 'games')}"

    @classmethod
    def file_problems(cls, ladder: dict, off_pip: int) -> list[Problem]:
        if off_pip < 1:
            return [Problem(("movement", "off_pip"), "unplayable",
                            "a `continuous` ladder restacks a player's men on his pip 24 when "
                            "his last man is off, and the opponent's men must never stand "
                            "there: his pip 1 must count as off (`off_pip` at least 1, as in "
                            "the 12-point Tric-Trac, where Home is off)",
                            alternatives=(("ladder", "kind"),))]
        return []

    def __init__(self, model: ContinuousLadder, game: Any):
        super().__init__(model, game)
        self.match = ContinuousMatch(model, value=self._game_value)
        self._turns = 0
        #: the player who resigned the match (None: nobody)
        self.resigned: int | None = None

    def _game_value(self, winner: int, points: tuple[int, int]) -> int:
        g = self.game
        b = g.board if g.mover == winner else g.variant.flip(g.board)
        k, rule_id = g.game_value(b, (points[1], points[0]))
        g.fire(rule_id, winner)
        return k

    def on_play(self, mine: int, theirs: int) -> Gen:
        g = self.game
        mover = g.mover
        match = self.match
        self._turns += 1
        mine_all = g.pending[0]
        theirs_all = g.pending[1]
        winner = match.score(mover, mine_all, theirs_all)
        if winner is None:
            return ON
        decision = None
        if not match.is_last_game:
            d = g.ask("continue", winner, (CONTINUE, GO))
            decision = d.choices[g.answered(d, (yield d))]
        entry = match.resolve(decision, self._turns)
        g.event(GameWon, entry.number, winner, entry.value, entry.excess, decision)
        self._turns = 0
        if match.finished:
            return END
        if decision == CONTINUE:
            return Next("game", start="continue")
        if self.model.restart == "winner_throws":
            return Next("game", winner, start="first")
        return Next("game", start="opening")

    #: `resign` concedes the game in play, `concede partie` (or `concede match`) the match
    resign_levels = ("game", "match")
    resign_whole = "match"

    def _concede_game(self, player: int) -> GameEntry:
        """The game in play is won by the opponent of `player`, worth what the value rules give
        for `player`'s points now (match-scoring §6.1 says nothing of a concession: the game
        counts as lost where it stands). A game `player` has just won and not yet continued
        is first recorded as left (gone away), and the concession is of the next one."""
        g = self.game
        match = self.match
        w = 1 - player
        if match.pending is not None and match.pending.winner == player:
            entry = match.resolve(GO, self._turns)
            g.event(GameWon, entry.number, entry.winner, entry.value, entry.excess, GO)
            self._turns = 0
        if match.pending is None:
            match.pending = GameEntry(
                number=match.game_number, winner=w,
                points=(match.points[0], match.points[1]),
                value=self._game_value(w, (match.points[player], match.points[w])),
                excess=0, continued=match.continued)
        entry = match.resolve(GO if not match.is_last_game else None, self._turns)
        g.event(GameWon, entry.number, entry.winner, entry.value, entry.excess, None)
        self._turns = 0
        return entry

    def resign(self, player: int, level: str) -> Next:
        """A resignation concedes the game in play ("game": the match goes on with the next game,
        afresh, as after going away) or the match ("match": the game in play is conceded and the
        match ends there, won by the opponent whatever the totals)."""
        match = self.match
        entry = self._concede_game(player)
        if level == "game":
            entry.decision = "conceded"
            if match.finished:              # the last game: conceding it ends the match
                return END
            if self.model.restart == "winner_throws":
                return Next("game", entry.winner, start="first")
            return Next("game", start="opening")
        entry.decision = "resigned"
        self.resigned = player
        return END

    def resign_terms(self, player: int, level: str, names: tuple[str, str]) -> str:
        me, them = names
        m = self.match
        w = 1 - player
        mine, theirs = m.points[player], m.points[w]
        value = self._value_now(w, mine, theirs)
        game = (f"game {m.game_number} of {m.ladder.match_games} (points {me} {mine}, {them} "
                f"{theirs})")
        worth = (f"worth ×{value} ({me} with {mine} point{'s' if mine != 1 else ''}, by the "
                 f"value rules)")
        totals = m.totals()
        now = f"{me} {totals[player]}, {them} {totals[w]}"
        if level == "game":
            after = ("the last game: the match then ends" if m.is_last_game else
                     f"then game {m.game_number + 1} begins afresh")
            return f"conceding {game}: {them} wins it, {worth}; {after} (now {now})"
        return (f"conceding the match: {game} goes to {them}, {worth}, and the match ends "
                f"there, won by {them} whatever the totals (now {now})")

    def _value_now(self, w: int, loser_points: int, winner_points: int) -> int:
        """What a game won now by `w` is worth, the rules' firing counts left untouched."""
        g = self.game
        b = g.board if g.mover == w else g.variant.flip(g.board)
        return g.game_value(b, (winner_points, loser_points))[0]

    @property
    def finished(self) -> bool:
        return self.match.finished or self.resigned is not None

    def units_won(self) -> list[tuple[int | None, int]]:
        m = self.match
        out: list[tuple[int | None, int]] = [(g.winner, g.value) for g in m.games]
        if m.pending is not None:
            out.append((m.pending.winner, m.pending.value))
        return out

    def state(self, player: int) -> dict:
        m = self.match
        p = m.pending
        return {"kind": "continuous", "points": side_view(m.points, player),
                "target": self.model.target, "game": m.game_number,
                "games": side_view(m.totals(), player),
                "last_game": m.is_last_game, "match_result": self.model.match_result,
                "pending": None if p is None else {
                    "winner": "me" if p.winner == player else "opponent", "value": p.value,
                    "excess": p.excess}}

    def sides(self) -> dict:
        m = self.match
        return {"points": list(m.points), "game": m.game_number, "games": m.totals(),
                "values": [g.value for g in m.games]}

    def figures(self) -> dict:
        m = self.match
        return {"games": len(m.games), "game_values": [g.value for g in m.games],
                "game_winners": ["white" if g.winner == 0 else "black" for g in m.games],
                "continued": sum(1 for g in m.games if g.decision == CONTINUE)}

    def result(self) -> GameResult:
        g = self.game
        match = self.match
        totals = match.totals()
        finished = self.finished
        winner = match.winner()
        value = abs(totals[0] - totals[1]) if finished else 0
        if self.resigned is not None:
            winner = 1 - self.resigned
            value = max(totals[winner] - totals[self.resigned], match.games[-1].value)
        out = GameResult(finished, winner, value, g.turns, totals, g.fired)
        summary = match.summary(SIDE_NAMES)
        if self.resigned is not None:
            summary["match"]["winner"] = SIDE_NAMES[winner]     # type: ignore[index]
            summary["match"]["resigned"] = SIDE_NAMES[self.resigned]
        summary["state"] = {"extra_throw": bool(g.extra and not finished),
                            "on_roll": SIDE_NAMES[g.mover]}
        out.extra = summary
        return out
