"""A match of several games played in turn, each by its own variant file, to a number of points.

The Greek Tavli is the example: Portes, Plakoto and Fevga, again and again, to five points.
`[ladder] kind = "rotation"` names the games (`games`, built-in variant ids or `.toml` paths
resolved like `extends`); game *i* of the match is `games[i % len(games)]`, played with that
file's own rules, values and options. Each game's value (its file's value rules) goes to its
winner; a game that ends without a winner (an end rule with `winner = "none"`) scores nothing;
the match ends as soon as a player has `match_points`. The first game opens with
`opening_roll`; the winner of a game throws first in the next with both dice
(`winner_starts`), and after a game without a winner the next opens with `after_tie`.

The ladder tells the turn loop which variant the next game is played with (`Next.variant`);
the loop turns and sets up the board with that variant's own geometry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.engine.contract import SIDE_NAMES
from interpreter.engine.events import RotationGameBegun, RotationGameEnded
from interpreter.scoring.protocol import END, GameResult, Ladder, Next, Worth, pair_text, side_view

OpeningMode = Literal["winner_throws_two", "one_die_each", "nearer_high_die"]


class RotationLadder(BaseModel):
    """Several games played in turn, each by its own variant file, to `match_points`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    #: read when a variant is built, without the ladder class (RotationPlay says the same)
    plays_games: ClassVar[bool] = True
    kind: Literal["rotation"] = Field(
        "rotation", description="games of several variants played in turn, to a number of "
                                "points")
    games: list[str] = Field(
        min_length=1, max_length=12,
        description="the games of the rotation, in the order they are played (then again "
                    "from the first): built-in variant ids, or `.toml` paths relative to this "
                    "file; each is played with its own rules, values and options")
    match_points: int = Field(
        5, ge=1, le=999, description="the points that win the match: it ends as soon as a "
                                     "player has them")
    opening_roll: OpeningMode = Field(
        "winner_throws_two",
        description="how the first game opens (and each later game, when its winner does not "
                    "start it): `winner_throws_two`, the higher of one die each throws both "
                    "dice; `one_die_each`, he plays the two single dice; `nearer_high_die`, "
                    "one throw of both dice")
    winner_starts: bool = Field(
        True, description="the winner of a game throws first in the next, with both dice "
                          "(false: every game opens with `opening_roll`)")
    after_tie: OpeningMode = Field(
        "one_die_each", description="how the game after a game without a winner opens")


@dataclass
class RotationGame:
    """One finished game of the match: its number (from 1), its variant, who won (None: no
    winner) and the points it gave."""

    number: int
    variant: str
    winner: int | None
    points: int
    turns: int


def match_of(state: dict) -> dict:
    """A rotation's state (Tavli: games to `match_points`) as a match's: its length and the
    points each side is away."""
    n = int(state["match_points"])
    score = state["score"]
    return {"match_length": n, "away": {"me": n - int(score["me"]),
                                        "opponent": n - int(score["opponent"])}}


class RotationPlay(Ladder):
    """The match of a rotation: game after game, each of its own variant (see the module)."""

    @classmethod
    def game_value_names(cls, model: Any, names: dict[str, str]) -> frozenset[str] | None:
        """Games of several files: their values are not one file's."""
        return None

    plays_games = RotationLadder.plays_games
    learns_values = False
    ended_by_rules = False

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "match-winning chances (2 MWC - 1)"

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """The match's margin: the winner's points less the loser's (what a finished match's
        line gives as its value; each game's own value is in `game_points`)."""
        return "match points"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        """The match of the rotation, without the cube: each game worth its value."""
        return Worth(match=match_of(state))

    @classmethod
    def net(cls, winner: int | None, points: Any, value: int, side: int) -> float:
        return float(points[side] - points[1 - side])

    @classmethod
    def sides_text(cls, state: dict) -> str:
        return f"match {pair_text(state, 'score')} of {state['match_points']}"

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        return "match"

    @classmethod
    def summary_line(cls, summary: dict) -> str | None:
        return (f"match to {summary.get('match_points')}: white "
                f"{summary['score']['white']}, black {summary['score']['black']}")

    def __init__(self, model: RotationLadder, game: Any):
        super().__init__(model, game)
        #: the loaded variants of `games`, in order (built with the rotation's file)
        self.variants: tuple[Any, ...] = tuple(game.root.games)
        self.score = [0, 0]
        self.games: list[RotationGame] = []
        self.mode: str = model.opening_roll
        self._start_turns = 0

    @property
    def current(self) -> Any:
        """The variant of the game being played."""
        return self.variants[len(self.games) % len(self.variants)]

    def first_variant(self) -> Any:
        return self.variants[0]

    def opening_mode(self) -> str | None:
        return self.mode

    def start(self) -> None:
        self._announce()

    def _announce(self) -> None:
        n = len(self.games)
        self.game.event(RotationGameBegun, n + 1, self.current.name,
                        n % len(self.variants) + 1, len(self.variants), tuple(self.score))

    # -- the end of a game ----------------------------------------------------------------------

    def game_end(self, winner: int, k: int) -> Next:
        return self._finish(winner, k)

    def game_tied(self) -> Next:
        return self._finish(None, 0)

    #: a resignation concedes the game in play, not the match
    resign_whole = None

    def resign(self, player: int, level: str) -> Next:
        """A resigned game is won by the opponent, worth 1."""
        return self._finish(1 - player, 1)

    def resign_terms(self, player: int, level: str, names: tuple[str, str]) -> str:
        score = self.score
        ends = score[1 - player] + 1 >= self.model.match_points
        return (f"conceding game {len(self.games) + 1} ({self.current.name}): {names[1]} wins "
                f"it, worth 1, and " + (f"with it the match, to {self.model.match_points}"
                                        if ends else
                                        f"the match to {self.model.match_points} goes on "
                                        f"(now {names[0]} {score[player]}, {names[1]} "
                                        f"{score[1 - player]})"))

    def _finish(self, winner: int | None, points: int) -> Next:
        g = self.game
        entry = RotationGame(len(self.games) + 1, self.current.id, winner, points,
                             g.turns - self._start_turns)
        self.games.append(entry)
        if winner is not None:
            self.score[winner] += points
        g.event(RotationGameEnded, entry.number, winner, points, tuple(self.score))
        if self.finished:
            self.winner = 0 if self.score[0] >= self.model.match_points else 1
            # the match's result, not its last game's: the winner's margin
            self.value = self.score[self.winner] - self.score[1 - self.winner]
            return END
        self._start_turns = g.turns
        self._announce()
        nxt = self.current
        if winner is None:
            self.mode = self.model.after_tie
            return Next("game", start="opening", variant=nxt)
        if self.model.winner_starts:
            return Next("game", who=winner, start="first", variant=nxt)
        self.mode = self.model.opening_roll
        return Next("game", start="opening", variant=nxt)

    # -- state ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return max(self.score) >= self.model.match_points

    def state(self, player: int) -> dict[str, Any]:
        return {"kind": "rotation", "match_points": self.model.match_points,
                "score": side_view(self.score, player), "game": len(self.games) + 1,
                "variant": self.current.id}

    def sides(self) -> dict[str, Any]:
        return {"score": list(self.score), "game": len(self.games) + 1,
                "variant": self.current.id, "match_points": self.model.match_points}

    def figures(self) -> dict[str, Any]:
        return {"games": len(self.games),
                "ties": sum(1 for e in self.games if e.winner is None),
                "game_variants": [e.variant for e in self.games],
                "game_points": [e.points for e in self.games]}

    def result(self) -> GameResult:
        """The match's result: its winner, and as its value the winner's margin in match
        points (the final score is `points`; each game's value is in `extra["games"]`)."""
        g = self.game
        finished = self.finished
        winner = self.winner if finished else None
        margin = self.score[winner] - self.score[1 - winner] if winner is not None else 0
        out = GameResult(finished, winner, margin, g.turns, list(self.score), g.fired)
        out.extra = {"match_points": self.model.match_points, "games": [
            {"game": e.number, "variant": e.variant,
             "winner": None if e.winner is None else SIDE_NAMES[e.winner],
             "points": e.points, "turns": e.turns} for e in self.games]}
        return out
