"""The events of a game's log and the entries of its record, one frozen dataclass a kind.

A game that keeps its record (`Game(keep_record=True)`, engine/game.py) logs, in order, each
throw (`Thrown`), each decision with its answer (`Decided`), the play that needed no decision
(`Forced`), the scoring rules that fired (`Scored`), where the play led (`Played`), the ladder's
running score after the throw (`After`), and what happened besides: from the turn loop (a
relevé, a restack, numbers passed on, a resignation, the end of a game, a tie, a new game) and
from the ladders (scoring/: holes, goes, claims, suspensions, marks and schools, the cube, the
games of a match, a rotation or a 12-point partie). Its record is the throws and decisions
alone (`RecordEntry`), written and read back as text ("white throws 3-1", "black take pass"):
the same objects as the log's.

The turn loop and the ladders log an event with `Game.event(Kind, *fields)` (a ladder:
`self.game.event(Hole, player, won, thrower)`), which makes it only when the log is kept. A new
kind is a class here, and a case of the text log's writer (render.py `LogWriter.feed`) if it is
to be shown; the readers of the log test the class (`isinstance`, `match`).

Sides are 0 (white) and 1 (black). Nothing here imports the rest of the program but the board's
type."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from interpreter.kernel.board import Board

WHITE, BLACK = 0, 1
SIDE_NAMES = ("white", "black")


# -- the record's entries -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Thrown:
    """A throw: who threw (`side`) and the dice; `board` is the position before it, seen by him
    (the log's; it is no part of what the record states, and not compared)."""

    side: int
    d1: int
    d2: int
    board: Board | None = field(default=None, compare=False)
    #: the third die of a three-dice throw (0: none)
    d3: int = 0
    #: numbers passed on by the opponent, played by `side` as a stage of their own, not
    #: thrown: how many single moves (d1 = d2), or 2 for two different numbers once each; 0
    #: for a throw (the log's; the record writes the dice alike, and it is not compared)
    passed: int = field(default=0, compare=False)

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice thrown: two, or three."""
        return (self.d1, self.d2, self.d3) if self.d3 else (self.d1, self.d2)

    def passed_text(self) -> str:
        """The numbers passed on, as the log names them: "5", "3 × 4", "6 and 5" ("4, 4 and
        3": three numbers of a throw of three)."""
        if self.d3:
            return f"{self.d1}, {self.d2} and {self.d3}"
        if self.d1 != self.d2:
            return f"{self.d1} and {self.d2}"
        return f"{self.d1}" if self.passed <= 1 else f"{self.passed} × {self.d1}"

    def text(self) -> str:
        """The record's line: "white throws 3-1" ("white throws 6-5-2" with three dice);
        numbers passed on by the opponent, played as a stage of their own: "black takes the
        passed 3 and 2" (`passed_text`)."""
        if self.passed:
            return f"{SIDE_NAMES[self.side]} takes the passed {self.passed_text()}"
        return f"{SIDE_NAMES[self.side]} throws {'-'.join(map(str, self.dice))}"


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision and its answer: the `side` asked, the decision's `kind` ("play", "take", and
    "resigns" for a resignation), the answer as text (a play in pip notation)."""

    side: int
    kind: str
    answer: str

    def text(self) -> str:
        """The record's line: "black take pass"."""
        return f"{SIDE_NAMES[self.side]} {self.kind} {self.answer}"


# -- the turn loop's events -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Forced:
    """The only legal play of a throw, in pip notation from the mover's side ("-": none)."""

    side: int
    play: str


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring rule fired: `points` to `side`, on the throw of `mover`, in `ways` ways."""

    side: int
    rule: str
    points: int
    mover: int
    ways: int


@dataclass(frozen=True, slots=True)
class Played:
    """Where the play of `side` led: the board after it, seen by him."""

    side: int
    board: Board


@dataclass(frozen=True, slots=True)
class After:
    """The running score of every ladder after a throw (`Ladder.sides()`)."""

    sides: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Releve:
    """A relevé: the men are set up again and `side` throws."""

    side: int


@dataclass(frozen=True, slots=True)
class Restacked:
    """The men of `side` are all off and are restacked on the start."""

    side: int


@dataclass(frozen=True, slots=True)
class Passed:
    """`side` cannot play `moves` single moves of `number`: they go to the opponent."""

    side: int
    number: int
    moves: int


@dataclass(frozen=True, slots=True)
class Resigned:
    """`side` resigns at `level` ("single", "gammon"...), accepted or not asked."""

    side: int
    level: str


@dataclass(frozen=True, slots=True)
class ResignDeclined:
    """`side` declines the opponent's resignation at `level`."""

    side: int
    level: str


@dataclass(frozen=True, slots=True)
class Ended:
    """A game won by `winner`, worth `value`, by the end rule `rule` (and the value rule
    `value_rule`, None when none held)."""

    winner: int
    value: int
    rule: str
    value_rule: str | None


@dataclass(frozen=True, slots=True)
class Tied:
    """A game ended without a winner by the end rule `rule`."""

    rule: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game begins: `start` "opening" (an opening throw), "first" (`who` throws from the
    start) or "continue" (play goes on from the position)."""

    start: str | None
    who: int | None


# -- the ladders' events --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hole:
    """`side` wins `holes` holes on the throw of `thrower`."""

    side: int
    holes: int
    thrower: int

    def sheet_text(self, names: tuple[str, str]) -> str:
        """The event as `tablier sheet` reads it: "white +2 on black"."""
        on = "" if self.thrower == self.side else f" on {names[self.thrower]}"
        return f"{names[self.side]} +{self.holes}{on}"


@dataclass(frozen=True, slots=True)
class Claimed:
    """`side` claims a marker ("banner", "necktie") under strict claims."""

    side: int
    marker: str

    def sheet_text(self, names: tuple[str, str]) -> str:
        return f"{names[self.side]} {self.marker}"


@dataclass(frozen=True, slots=True)
class Went:
    """`side` goes: the men are set up again."""

    side: int

    def sheet_text(self, names: tuple[str, str]) -> str:
        return f"{names[self.side]} go"


@dataclass(frozen=True, slots=True)
class Suspended:
    """`side` suspends a game of the combiné (`game`: "ecrire" or "honours")."""

    side: int
    game: str

    def sheet_text(self, names: tuple[str, str]) -> str:
        return f"{names[self.side]} suspend {self.game}"


@dataclass(frozen=True, slots=True)
class MenReset:
    """All men are off: the men are set up again (a sortie, not a go)."""

    def sheet_text(self, names: tuple[str, str]) -> str:
        return "reset"


@dataclass(frozen=True, slots=True)
class Marked:
    """`side` marks `claimed` points where the throw gives `due` (schools)."""

    side: int
    claimed: int
    due: int


@dataclass(frozen=True, slots=True)
class Schooled:
    """A school: `side` marks `points` for the wrong count of `erring`, `how` "trop" (over) or
    "moins" (under)."""

    side: int
    points: int
    erring: int
    how: str


@dataclass(frozen=True, slots=True)
class Cubed:
    """The cube: `side` (None: no one, an automatic double) does `action` ("auto", "double",
    "take", "pass", "beaver", "raccoon"), the cube then at `value` (for a pass, what is lost)."""

    side: int | None
    action: str
    value: int


@dataclass(frozen=True, slots=True)
class MatchGameBegun:
    """Game `number` of a match begins at `score` (white's, black's); `crawford`: the Crawford
    game."""

    number: int
    score: tuple[int, int]
    crawford: bool


@dataclass(frozen=True, slots=True)
class MatchGameWon:
    """Game `number` of a match won by `winner`, for `points` (`result`: "single", "pass"...),
    the match then at `score`."""

    number: int
    winner: int
    points: int
    result: str
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RotationGameBegun:
    """Game `number` of a rotation begins: the variant named `variant`, game `place` of the
    rotation's `games`, the match at `score`."""

    number: int
    variant: str
    place: int
    games: int
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RotationGameEnded:
    """Game `number` of a rotation ended: `winner` (None: no one) scores `points`, the match
    then at `score`."""

    number: int
    winner: int | None
    points: int
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameWon:
    """Game `number` of a 12-point partie won by `winner`, ×`value`, with `excess` points over;
    `decision`: what the winner chose ("continue", "go"; None at the partie's end)."""

    number: int
    winner: int
    value: int
    excess: int
    decision: str | None


#: an entry of a game's record
RecordEntry: TypeAlias = Thrown | Decided
#: an event of a game's log
Event: TypeAlias = (Thrown | Decided | Forced | Scored | Played | After | Releve | Restacked
                    | Passed | Resigned | ResignDeclined | Ended | Tied | NewGame | Hole | Claimed
                    | Went | Suspended | MenReset | Marked | Schooled | Cubed | MatchGameBegun
                    | MatchGameWon | RotationGameBegun | RotationGameEnded | GameWon)
