"""The protocol every ladder kind implements for the turn loop (interpreter/engine/game.py).

A ladder is fed the loop's events — the opening throw and its ties, the points of each throw
(the roll's before the play, the play's after it) with who scored them on whose throw, a side's
men all off, the end of a game by the end rules — asks its questions as `Decision`s through the
game (`answer = yield game.ask(kind, player, choices)`; `game.answered(d, answer)` gives the
index of the answer and records it), and says what happens next with a `Next`: go on (`ON`), a
relevé, a new game, or the end (`END`).

The hooks that may ask are generators (``yield from ladder.on_roll(...)``); those that never ask
are plain methods. `state(player)` is the ladder's state as plain data, seen by `player` (what a
`View` shows and a save states); `result()` the result of the whole play.
"""
from __future__ import annotations

from typing import Any, Generator

from interpreter.engine.contract import END, ON, SIDE_NAMES, Decision, GameResult, Next

Gen = Generator[Decision, Any, Any]

__all__ = ["Ladder", "Next", "ON", "END", "Gen", "GameResult", "SIDE_NAMES", "side_view"]


def side_view(pair: Any, player: int) -> dict[str, Any]:
    """A per-side pair as {"me": …, "opponent": …} for `player`."""
    return {"me": pair[player], "opponent": pair[1 - player]}


class Ladder:
    """The default ladder: one game, ended by the end rules and worth their value rules."""

    #: whether `before_throw` must be asked before each throw but a game's first (the cube)
    offers_before_throw = False
    #: what a player may resign (the answer `Resign(level)`), and whether the opponent is asked
    #: to accept it (a "resign" decision) before the ladder scores it
    resign_levels: tuple[str, ...] = ("game",)
    resign_needs_consent = False

    def __init__(self, model: Any, game: Any):
        self.model = model
        self.game = game
        self.winner: int | None = None
        self.value = 0
        self.points = [0, 0]
        #: the game ended without a winner (an end rule with `winner = "none"`)
        self.tied = False

    # -- what the loop asks the ladder ----------------------------------------------------------

    def first_variant(self) -> Any:
        """The variant the first game is played with: None for the ladder's own (a rotation
        names another)."""
        return None

    def opening_mode(self) -> str | None:
        """How the next opening throw is made (`opening_roll` modes): None for the variant's
        own `[dice] opening_roll`."""
        return None

    # -- events ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Before the first opening throw."""

    def opening(self, ties: int) -> None:
        """An opening throw was made, after `ties` tied throws."""

    def before_throw(self) -> Gen:
        """Before a throw (when `offers_before_throw`): a Next ends the game, None goes on."""
        return None
        yield

    def on_roll(self, mine: int, theirs: int) -> Gen:
        """The roll's points (mover's, opponent's) before the play: None to play the throw,
        or a Next (a go, the end)."""
        return None
        yield

    def on_play(self, mine: int, theirs: int) -> Gen:
        """After the play, with its own points: what happens next."""
        return ON
        yield

    def on_all_off(self) -> None:
        """A side's men are all off and are set up again (`[board] all_off = "releve"`)."""

    def game_end(self, winner: int, k: int) -> Next:
        """An end rule holds: `winner` wins a game worth `k` by the value rules."""
        self.winner = winner
        self.value = k
        self.points[winner] += k
        return END

    def game_tied(self) -> Next:
        """An end rule with `winner = "none"` holds: the game ends without a winner, worth
        nothing."""
        self.tied = True
        return END

    def resign(self, player: int, level: str) -> Next:
        """`player` resigns (accepted, where the ladder asks): what happens next. By default the
        opponent wins the game, worth 1."""
        return self.game_end(1 - player, 1)

    # -- state ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.tied

    def state(self, player: int) -> dict[str, Any]:
        """The ladder's state as plain data, seen by `player`."""
        return {"kind": "game", "points": side_view(self.points, player)}

    def sides(self) -> dict[str, Any]:
        """The ladder's state as plain data with sides named white and black (saves, logs)."""
        return {"points": list(self.points)}

    def figures(self) -> dict[str, Any]:
        """The ladder's own figures of the finished play, for `simulate --games-out`."""
        return {}

    def result(self) -> GameResult:
        g = self.game
        return GameResult(self.finished, self.winner, self.value if self.finished else 0,
                          g.turns, list(self.points), g.fired)
