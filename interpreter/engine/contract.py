"""The decision contract: every choice a player makes in any variant is one `Decision`.

The turn loop (engine/game.py) is a generator that yields each `Decision` and receives its
answer: ``answer = yield decision``. An answer is the index of one of `decision.choices` (or,
for a word decision, the word itself; for a play, its text in pip notation): `Decision.index`
turns any of these into the index, and refuses, with `IllegalAnswer`, anything else.

    kind        choices                              asked of
    "play"      end positions (boards, the player's  the player on roll, when his throw has
                view), distinct                      more than one legal play
    "enter"     end positions after a restack        the 12-point player whose last man is
                                                     off, when a number is left to enter
    "go"        ("stay", "go")                       the roller after a hole on his throw
    "refait"    ("stay", "refait")                   à écrire: equal holes at six or more
    "concede"   ("stay", "concede")                  à écrire: behind an opponent at six +
    "banner",   ("claim", "pass")                    à écrire, strict claims only
    "necktie"
    "continue"  combiné: ("hold", GO, "suspend …");  the winner of a game (12-point: go away
                12-point: ("continue", "go")         or play on; combiné: honours game won)
    "rethrow"   ("throw", "pass")                    the optional extra throw of a doublet
    "doublet"   ("1", "2", ... "6")                  a roll event (`[dice] bonus_throw`,
                                                     acey-deucey's 1-2) played in full: the
                                                     doublet the player names
    "double"    ("roll", "double")                   the cube: the player on roll
    "take"      ("take", "pass"[, "beaver" |         the player doubled
                "raccoon"])
    "resign"    ("accept", "decline")                backgammon: the opponent of a player who
                                                     resigns (a single, gammon or backgammon)
    "mark"      the numbers "0", "1", ... (the       trictrac with `options.schools`: a player
                points claimed; choice i is i)       marking the points he has gained
    "school"    ("pass", "school")                   the opponent of a player who has marked
                                                     too many or too few points

In combiné the go questions also offer "suspend ecrire" and "suspend honours".

In a game that allows it (`Game(resigns=True)`: a person at the board, the replay of a record)
any decision may instead be answered with `Resign(level)`, `level` one of the ladder's
`resign_levels`: the resignation is recorded ("white resigns gammon"), put to the opponent as a
"resign" decision where the ladder asks his consent (backgammon), and scored by the ladder
(`Ladder.resign`); declined, the same decision is asked again. The first
choice of a word decision is what holds when in doubt. `Decision.view` is what a player may
read to judge: a read-only `View` of the game seen by the player asked. A decision is valid
until it is answered: a game that keeps no record (`simulate`, `bench`) uses one object for all
its play decisions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.events import BLACK as BLACK
from interpreter.engine.events import SIDE_NAMES, WHITE
from interpreter.engine.events import (After, Decided, Event, Played, RecordEntry, Releve,
                                       Scored, Suspended, Thrown, Went)
from interpreter.errors import TablierError

if TYPE_CHECKING:
    from interpreter.engine.game import Game

#: the 36 throws of two dice in order, (1, 1), (1, 2) … (6, 6): the choices of the "dice"
#: decision that copies of a game ask instead of drawing (engine/branch.py)
DICE36: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
#: the 216 throws of three dice in order, (1, 1, 1), (1, 1, 2) … (6, 6, 6): the "dice" choices
#: of a three-dice variant (`[dice] count = 3`)
DICE216: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))


def dice_index(d1: int, d2: int, d3: int = 0) -> int:
    """The index of a throw among the "dice" choices (DICE36, or DICE216 with a third die)."""
    return 36 * d1 + 6 * d2 + d3 - 43 if d3 else 6 * d1 + d2 - 7


#: decisions whose choices are end positions (the others are words)
PLAY_KINDS = frozenset({"play", "enter"})


class IllegalAnswer(TablierError):
    """An answer that is none of a decision's legal answers."""


#: the choices of the opponent of a player who resigns (where the ladder asks his consent)
RESIGN_CHOICES = ("accept", "decline")


@dataclass(frozen=True)
class Resign:
    """The answer of a player who resigns instead of answering a decision: `level` is one of
    the ladder's `resign_levels` ("single", "gammon", "backgammon" in backgammon; the unit the
    ladder concedes elsewhere)."""

    level: str


class Decision:
    """One choice: its `kind`, the `player` asked (0 white, 1 black), its legal answers
    (`choices`), and `view`, what the player may read to judge them."""

    __slots__ = ("kind", "player", "choices", "game")

    def __init__(self, kind: str, player: int, choices: tuple | list, game: Game):
        self.kind = kind
        self.player = player
        self.choices = choices
        self.game = game

    @property
    def is_play(self) -> bool:
        return self.kind in PLAY_KINDS

    @property
    def view(self) -> View:
        """What the player may read (a new `View` at each read: keep it in a variable)."""
        return View(self.game, self.player, self.kind)

    def words(self) -> tuple[str, ...]:
        """The legal answers as text: the words, or each play in pip notation."""
        if self.is_play:
            return tuple(self.game.play_texts(self))
        return tuple(self.choices)

    def index(self, answer: Any) -> int:
        """The index of the legal answer `answer` names: an index, a word, a play's text."""
        n = len(self.choices)
        if isinstance(answer, Resign):
            raise IllegalAnswer("this game cannot be resigned (it was not started with "
                                "resignations allowed)")
        if isinstance(answer, bool):
            raise IllegalAnswer(f"{answer!r} is not an answer to {self.kind!r}")
        if isinstance(answer, int):
            if 0 <= answer < n:
                return answer
            raise IllegalAnswer(f"answer {answer} to {self.kind!r} is not one of the {n} "
                                f"legal answers (0 to {n - 1})")
        if isinstance(answer, str):
            if self.is_play:
                return self.game.read_play(self, answer)
            if answer in self.choices:
                return self.choices.index(answer)
            raise IllegalAnswer(f"{answer!r} is not an answer to {self.kind!r}; expected one "
                                f"of {', '.join(map(repr, self.choices))}")
        raise IllegalAnswer(f"{answer!r} is not an answer to {self.kind!r}")

    def __repr__(self) -> str:
        shown = f"{len(self.choices)} plays" if self.is_play else repr(tuple(self.choices))
        return f"Decision({self.kind!r}, {SIDE_NAMES[self.player]}, {shown})"


class View:
    """A read-only view of the game for the player asked (`player`), all seen from his side.

    - `variant`: the loaded variant; `board`: the position before the choice, seen by him
      (for a play: before the play); `mover`: whether he is the player on roll;
    - `dice`, `throw` (the game's throw number, from 1), `rolls` (his and his opponent's throws
      since the last relevé), `setup` (how often the men were set up);
    - `pending`: the points of this throw so far, (his, his opponent's);
    - `resign_offer`: at a "resign" decision, what the opponent resigns ("gammon"...);
    - `play_items(i)` / `play_points(i)`: what play i of a play decision would score (computed on
      demand): scoring items, and his points minus the opponent's;
    - `ladder`: the state of every ladder as plain data (`Ladder.state()`, seen by him: keys
      "me"/"opponent" where a side is meant), computed when read.
    """

    __slots__ = ("_game", "player", "kind", "variant", "board", "mover", "dice", "throw",
                 "rolls", "setup", "pending", "resign_offer", "_ladder")

    def __init__(self, game: Game, player: int, kind: str):
        self._game = game
        self.player = player
        self.kind = kind
        self.variant = game.variant
        self.mover = game.mover == player
        b = game.choice_base if kind in PLAY_KINDS else game.board
        self.board = b if self.mover else game.variant.flip(b)
        self.dice = game.dice
        self.throw = game.turns
        r = game.rolls
        self.rolls = (r[player], r[1 - player])
        self.setup = game.setup
        p = game.pending
        self.pending = (p[0], p[1]) if self.mover else (p[1], p[0])
        self.resign_offer = game.resign_offer
        self._ladder: dict | None = None

    @property
    def ladder(self) -> dict[str, Any]:
        if self._ladder is None:
            self._ladder = self._game.ladder.state(self.player)
        return self._ladder

    def play_items(self, i: int) -> list:
        return self._game.play_items(i)

    def play_points(self, i: int) -> int:
        """His points minus the opponent's for choice i of the play decision."""
        sign = 1 if self.mover else -1
        return sign * sum(p if to == "mover" else -p for _r, to, p, _w in self.play_items(i))


class Next:
    """What happens after a throw, as a ladder says it: `how` is "on" (the other player throws,
    or the same one after a doublet's extra throw), "releve" (the men are set up again and `who`
    throws), "game" (a new game: `start` "opening" for an opening throw, "first" for `who`
    throwing from the start, "continue" for play on from the position), or "end". A new game
may be played with another `variant` (a rotation's next game); None keeps the current one."""

    __slots__ = ("how", "who", "start", "variant")

    def __init__(self, how: str, who: int | None = None, start: str | None = None,
                 variant: Any = None):
        self.how, self.who, self.start, self.variant = how, who, start, variant

    def __repr__(self) -> str:
        return f"Next({self.how!r}, {self.who!r}, {self.start!r})"


ON = Next("on")
END = Next("end")


@dataclass
class GameResult:
    finished: bool
    winner: int | None
    value: int
    turns: int
    points: list[int]
    fired: dict[str, list[int]]
    #: what a ladder adds to the summary (holes, marks, match scores, cube…)
    extra: dict[str, Any] = field(default_factory=dict)
    first: int = WHITE
    scored: list[int] = field(default_factory=lambda: [0, 0])
    lead_changes: int = 0
    #: the points each scoring rule gave, by side: {rule: [white, black]}
    rule_points: dict[str, list[int]] = field(default_factory=dict)
    #: legal plays summed over the play decisions, the forced decisions (at most one play),
    #: the play decisions (engine/game.py `play_counts`)
    play_counts: tuple[int, int, int] = (0, 0, 0)
    #: the playout metrics of the play (engine/metrics.py `Tracker.summary`: decisiveness,
    #: drama, stability, coverage and the sums they are made of), for a game started with
    #: `metrics=True`; None otherwise
    metrics: dict[str, Any] | None = None
    #: the ladder that played it (its ledgers: `.ledger`, `.combine`, `.match`)
    ladder: Any = None

    @property
    def figures(self) -> dict[str, Any]:
        """The ladder's own figures for `simulate --games-out` (plain data)."""
        return self.ladder.figures() if self.ladder is not None else {}

    @property
    def game(self) -> Any:
        return getattr(self.ladder, "game", None)

    @property
    def record(self) -> list:
        """The throws of the game (`Throw`), when it kept its record."""
        return self.throws()

    @property
    def entries(self) -> list[RecordEntry]:
        """The record's entries (engine/record.py), when the game kept them."""
        return self.game.record if self.game is not None else []

    @property
    def log(self) -> list[Event]:
        """The log of events (engine/game.py), when the game kept it."""
        return self.game.log if self.game is not None else []

    def throws(self) -> list:
        """The throws of the game, read from its log (`Throw`)."""
        return throws(self.game.variant, self.log) if self.game is not None else []

    @property
    def ledger(self) -> Any:
        return getattr(self.ladder, "ledger", None)

    @property
    def combine(self) -> Any:
        return getattr(self.ladder, "combine", None)

    @property
    def match(self) -> Any:
        return getattr(self.ladder, "match", None)

    @property
    def mark_play(self) -> list:
        return getattr(self.ladder, "mark_play", [])

    @property
    def suspensions(self) -> tuple:
        return tuple(getattr(self.ladder, "suspensions", ()))

    def summary(self, variant_id: str) -> dict[str, Any]:
        out = {"variant": variant_id, "finished": self.finished,
               "winner": None if self.winner is None else SIDE_NAMES[self.winner],
               "score": {"white": self.points[0], "black": self.points[1]},
               "value": self.value, "turns": self.turns}
        out.update(self.extra)
        return out


# -- the throws of a game's log ------------------------------------------------------------------

@dataclass
class Throw:
    """One throw of a played game, read from its log: who threw, the dice, the position before
    and after it (seen by him; after a go or a sortie, the men set up again), the scoring items
    (rule, "mover" | "opponent", points, ways), the decisions (kind, answer) and the other
    events."""

    player: int
    #: two dice, or three (`[dice] count = 3`)
    dice: tuple[int, ...]
    before: Any
    board: Any
    items: list[tuple[str, str, int, int]] = field(default_factory=list)
    decisions: list[tuple[str, str]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def went(self) -> bool:
        return any(isinstance(e, Went) for e in self.events)

    @property
    def decision(self) -> str | None:
        """"go" after a go (whatever the question was: a refait, a concession), "suspend GAME"
        after a suspension, else the answer of the throw's last word decision (None: none)."""
        if self.went:
            return "go"
        for e in self.events:
            if isinstance(e, Suspended):
                return f"suspend {e.game}"
        words = [a for k, a in self.decisions if k not in ("play", "enter")]
        return words[-1] if words else None


def throws(variant: Any, log: list[Event]) -> list[Throw]:
    """The throws of a game's log, in order."""
    out: list[Throw] = []
    cur: Throw | None = None
    for e in log:
        if isinstance(e, Thrown):
            cur = Throw(e.side, e.dice, e.board, e.board)
            out.append(cur)
        elif cur is None:
            continue
        elif isinstance(e, Played):
            cur.board = e.board
            cur.events.append(e)
        elif isinstance(e, Scored):
            cur.items.append((e.rule, "mover" if e.side == cur.player else "opponent", e.points,
                              e.ways))
        elif isinstance(e, Decided):
            cur.decisions.append((e.kind, e.answer))
        elif isinstance(e, Releve):
            if not any(isinstance(x, Played) for x in cur.events):   # a go: the men set up again
                cur.board = variant.start
            cur.events.append(e)
        elif not isinstance(e, After):
            cur.events.append(e)
    return out
