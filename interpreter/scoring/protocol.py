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

from dataclasses import dataclass
from typing import Any, Generator

from interpreter.engine.contract import END, ON, SIDE_NAMES, Decision, GameResult, Next
from interpreter.errors import Problem

Gen = Generator[Decision, Any, Any]

__all__ = ["Ladder", "Next", "ON", "END", "Gen", "GameResult", "SIDE_NAMES", "Worth",
           "pair_words", "pair_text", "side_view"]


def side_view(pair: Any, player: int) -> dict[str, Any]:
    """A per-side pair as {"me": …, "opponent": …} for `player`."""
    return {"me": pair[player], "opponent": pair[1 - player]}


def pair_words(state: dict, key: str, names: tuple[str, str]) -> str:
    """A per-side pair of a state seen by a player ({"me": …, "opponent": …}) in words:
    `you 3, opponent 1`."""
    v = state.get(key) or {}
    return f"{names[0]} {v.get('me')}, {names[1]} {v.get('opponent')}"


def pair_text(state: dict, key: str) -> str:
    """A white-black pair of a `sides()` state as `3-1` (`?` when it is not there)."""
    v = state.get(key)
    return f"{v[0]}-{v[1]}" if isinstance(v, (list, tuple)) else "?"


@dataclass(frozen=True)
class Worth:
    """What a play is won by, for a bot weighing outcomes (players/utility.py), from a state
    seen by a player (`Ladder.worth`).

    - `chance`: the play is a partie or a match scored game by game by the ladder: what counts
      is the chance of winning it (2·P − 1), and a game ended by the end rules is worth nothing
      by itself (the partie goes on);
    - else, with `match`: the chance of winning a match (`match_length`, and `score` or `away`,
      as plain data), each game worth `stake` times its value;
    - else points: a game's value times `stake`.

    `doubling`: the stake is the doubling cube's (a cube value given to the bot replaces it);
    `cubeful`: the cube is live (money: Janowski's cubeful equity, from `owner`'s side; a match:
    the cubeful match equity); `single`: gammons count single (Jacoby).

    `summed`: the play is won by the sum of its units' values (the games of the 12-point
    Tric-Trac's match, the marks of a partie à écrire): the sum so far from this side's view,
    a unit won and not yet counted included, and a network learns the unit in play (its chance
    and value levels); `settled`: the unit in play is decided (its value is in `summed`); with
    `single`, each unit counts one; `bonus`: what winning a unit is worth beyond its value
    (a lost mark's marker and its share of the paris)."""

    chance: bool = False
    match: dict | None = None
    stake: int = 1
    doubling: bool = False
    cubeful: bool = False
    owner: str | None = None
    single: bool = False
    summed: float | None = None
    settled: bool = False
    bonus: float = 0.0


class Ladder:
    """The default ladder: one game, ended by the end rules and worth their value rules.

    Besides the turn loop's hooks, a ladder class answers what the rest of the program asks of
    its kind (class attributes and class methods, asked through `registry.ladder_class` of a
    `[ladder]` model, a state or a kind name): the terminal's and the log's words for its state,
    the summary's score line, what a play gives each side, what a bot's utility is, what the
    sheet draws and what the checks require of a file."""

    # -- what the rest of the program asks of the kind -------------------------------------------

    #: the play is scored as backgammon's: the doubling cube, money play or a match to N points
    #: (what gnubg plays and a `.mat` file holds)
    cube_match = False
    #: the ladder plays the games of other variant files in turn: it has no board, dice,
    #: movement or rules of its own, and each of its games is one game (this class's kind)
    plays_games = False
    #: what the points a throw scores are counted towards, as the heuristic bot judges them
    #: ("holes", "game values"); None where the game ends by its end rules alone
    points_unit: str | None = None
    #: the play's outcome is one game's value (the value levels a network learns)
    learns_values = True
    #: the play is a sequence of units (games) whose values add up, and a network learns the
    #: unit in play (`units_won`, `Worth.summed`); else it learns the whole play
    learns_units = False
    #: the value levels a network learns of a unit, where the ladder fixes them (the payments
    #: of a mark); None: the value rules' (players/td.py `value_levels`)
    unit_levels: tuple[int, ...] | None = None
    #: the `--set` keys that training plays the ladder with
    training_overrides: tuple[str, ...] = ()
    #: the unit of what a play gives a side (`simulate`'s net result, `compare`)
    net_unit = "points"
    #: the form of its score sheet (`tablier sheet`, interpreter/io/sheet.py): None (no sheet),
    #: "points" (a game of holes), "marks" (the partie à écrire), "honours" (combiné)
    sheet: str | None = None
    #: the mark in play is marked before the play, with what a message calls it (None: the
    #: points of a throw may be scored on the play chosen)
    marked_before_play: str | None = None
    #: its games end when an end rule holds (else the ladder ends them); its points come from the
    #: `score` rules
    ended_by_rules = True
    counted_in_points = False
    #: a note in the log when a new game begins with an opening throw (None: no note)
    new_game_note: str | None = None
    #: the names of the value network's inputs that `features` gives (players/features.py
    #: names them `ladder_NAME`): none by default, a game's value is learned as an output
    feature_names: tuple[str, ...] = ()

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        """The unit of a bot's values (hints show it)."""
        return "points"

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """The unit of what a finished play was worth to its winner (its line's `value`,
        averaged by `compare` as `value_points`; `model` is the variant's `[ladder]`): by
        default a game's points by its value rules."""
        return "points"

    @classmethod
    def has_cube(cls, model: Any = None) -> bool | None:
        """None where the ladder has no doubling cube; else whether the file (`model`, its
        `[ladder]`) puts it in use."""
        return None

    @classmethod
    def game_value_names(cls, model: Any, names: dict[str, str]) -> frozenset[str] | None:
        """The names the values of its plays can take (`names`: the value rules' names by
        value, "2" → "gammon"); None where they are not known beforehand (a ladder that
        counts holes, marks or games). One game: its value rules' names."""
        return frozenset(names.values())

    @classmethod
    def worth(cls, state: dict) -> Worth:
        """What the play is won by, from its state seen by a player (`state()`)."""
        return Worth()

    @classmethod
    def net(cls, winner: int | None, points: Any, value: int, side: int) -> float:
        """What a finished play gave `side` in `net_unit`, + won and − lost: by default the
        play's value (a game's points, at the cube's stake)."""
        if winner is None:
            return 0.0
        return float(value if winner == side else -value)

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        """The running score in words from a state seen by a player (`state()`, a decision's
        `view.ladder`); `names` are his and his opponent's."""
        if "points" in state:
            return [f"games: {pair_words(state, 'points', names)}"]
        return []

    @classmethod
    def features(cls, state: dict) -> list[float]:
        """The value network's inputs of a state seen by a player (`state()`), one for each of
        `feature_names`, each scaled to about [0, 1]."""
        return []

    @classmethod
    def sides_text(cls, state: dict) -> str:
        """The running score in a few words from a `sides()` state (the log, the web board)."""
        return ""

    @classmethod
    def mark_key(cls, state: dict) -> tuple | None:
        """The mark in play of a `sides()` state (its number and refaits), for the log's mark
        headings; None where the ladder has no marks."""
        return None

    @classmethod
    def summary_line(cls, summary: dict) -> str | None:
        """The score line under a played game's log (`summary` of the result), None for none."""
        return None

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        """What the winner of a finished play (`summary` of the result) has won where it is more
        than one game, as its players say it (`match`, `partie`); None for a single game, whose
        value is said instead."""
        return None

    @classmethod
    def file_problems(cls, ladder: dict, off_pip: int) -> list[Problem]:
        """What the ladder requires of a variant file that the schema cannot say, from the
        file's merged data: its `[ladder]` table and `movement.off_pip` (the value in effect)."""
        return []

    #: whether `before_throw` must be asked before each throw but a game's first (the cube)
    offers_before_throw = False
    #: what a player may resign (the answer `Resign(level)`), and whether the opponent is asked
    #: to accept it (a "resign" decision) before the ladder scores it
    #: what a peg counts on the frame of a board drawn with this ladder's score (the key of a
    #: position's `state.score`: "holes", "mark_holes", "games"), None where the board marks
    #: no holes or points (tablier draw, the web board: interpreter/svg.py)
    peg_key: str | None = None
    resign_levels: tuple[str, ...] = ("game",)
    #: the levels records written by earlier versions name, read as the level they meant
    resign_aliases: dict[str, str] = {}
    resign_needs_consent = False
    #: the level that concedes the whole play (`concede partie` at the board; one game here),
    #: None where no resignation does (a match of several games goes on after one)
    resign_whole: str | None = "game"

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

    def resign_terms(self, player: int, level: str, names: tuple[str, str]) -> str:
        """What resigning at `level` gives away now, in words, for the player to confirm it
        (`names`: his and his opponent's, as the board names them)."""
        return f"conceding the game: {names[1]} wins it, worth 1"

    # -- state ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.tied

    def units_won(self) -> list[tuple[int | None, int]]:
        """(winner, value) of each unit of the play decided so far, where the ladder
        `learns_units` (a unit won and waiting for its winner's choice included; None: a unit
        without a winner); none else."""
        return []

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
