"""Jellyfish ``.mat`` match files, written in the layout gnubg exports and read as gnubg imports.

A :class:`MatchRecord` is plain data: the match length, the two players (player 0 is the left
column, player 1 the right one), optional header information, and the games. A :class:`Game`
holds the score before it, its actions in order (:class:`Roll`, :class:`Double`, :class:`Take`,
:class:`Drop`) and its result (the ``Wins N points`` line). Plays are kept as the text of the file
(``"13/8 24/22*"``); :func:`parse_move` turns such a text into ``(from, to)`` steps in the mover's
pip numbering (bar = 25, off = 0) and :func:`move_text` writes steps the way gnubg writes them.

Nothing here checks a play against the rules: replaying a record through the rules (and finding
out, for instance, that a ``Wins`` line before the last checker was borne off means the other
player resigned) is the engine's business.

>>> rec = read_mat(" 1 point match\\n\\n Game 1\\n alice : 0   bob : 0\\n  1) 31: 8/5 6/5\\n")
>>> rec.players, rec.games[0].actions[0].steps
(('alice', 'bob'), [(8, 5), (6, 5)])
>>> parse_move("bar/22* 13/11/10")
[(25, 22), (13, 11), (11, 10)]
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal, Union

from interpreter.errors import RecordError
from interpreter.kernel.notation import Step, expand_steps, move_text, parse_move  # noqa: F401

__all__ = [
    "Roll", "Double", "Take", "Drop", "Action", "Game", "MatchRecord", "INFO_TAGS",
    "parse_move", "move_text", "expand_steps", "write_mat", "read_mat",
]

MAX_MATCH_LENGTH = 64
INFO_TAGS = ("Site", "Event", "Round", "EventDate", "Transcriber")
"""Header tags kept as match information, in the order gnubg writes them (Variation goes before
Transcriber)."""
# Tags gnubg reads and throws away; every other `;` or `#` line before the header is comment.
_DROPPED_TAGS = ("Player", "Match ID", "CubeLimit", "Crawford", "Jacoby", "Beaver", "Unrated",
                 "EventTime")
VARIATIONS = ("NackGammon", "HyperGammon (1)", "HyperGammon (2)", "HyperGammon (3)")

RIGHT = 33          # column where player 1's entries start (player 0's start at column 5)
_LEFT_WIDTH = 27    # width of a left entry ("%3d) %-27s ")


# --------------------------------------------------------------------------------------------
# The record

@dataclass(frozen=True)
class Roll:
    """A roll and the play made with it. `play` is the text of the file without the dice
    (``"24/18 13/9*"``); an empty text is a roll with no play written (normally a dance). `play`
    None is a roll after which the game ended before a play was made (a resignation): gnubg
    lays such a roll out differently, and XG writes ``???`` for it."""

    player: int
    dice: tuple[int, int]
    play: str | None = ""

    @property
    def steps(self) -> list[Step]:
        return parse_move(self.play or "")


@dataclass(frozen=True)
class Double:
    """An offer of the cube at `value` (the value it would have once taken). `kind` is
    ``"double"``, or ``"beaver"`` / ``"raccoon"`` for the instant redoubles of money play."""

    player: int
    value: int
    kind: Literal["double", "beaver", "raccoon"] = "double"


@dataclass(frozen=True)
class Take:
    player: int


@dataclass(frozen=True)
class Drop:
    player: int


Action = Union[Roll, Double, Take, Drop]


@dataclass
class Game:
    """One game: its number, the score (player 0, player 1) before it, the actions in order, and
    the result written in the file (`winner` None while the game is unfinished)."""

    number: int
    score: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    winner: int | None = None
    points: int = 0


@dataclass
class MatchRecord:
    """A match: `match_length` 0 is a money session. `info` holds the header tags kept by gnubg
    (keys of :data:`INFO_TAGS`), `variation` None for standard backgammon or one of
    :data:`VARIATIONS`, `comment` the free comment lines of the header."""

    match_length: int
    players: tuple[str, str]
    games: list[Game] = field(default_factory=list)
    info: dict[str, str] = field(default_factory=dict)
    variation: str | None = None
    comment: str = ""

    @property
    def checkers(self) -> int:
        """Checkers per side: 15, or 1 to 3 in hypergammon."""
        m = re.fullmatch(r"HyperGammon \((\d)\)", self.variation or "")
        return int(m.group(1)) if m else 15

    def crawford_game(self) -> int | None:
        """The index in `games` of the Crawford game: the first game in which exactly one player
        is 1-away (the files do not mark it; gnubg assumes the Crawford rule in every match)."""
        n = self.match_length
        if n < 2:
            return None
        for i, g in enumerate(self.games):
            if (g.score[0] == n - 1) != (g.score[1] == n - 1):
                return i
        return None


# --------------------------------------------------------------------------------------------
# Writing

def _points(n: int) -> str:
    return f"Wins {n} point" + ("" if n == 1 else "s")


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RecordError(f"a player's name must be a non-empty string, not {name!r}")
    if name != name.strip() or ":" in name or "\n" in name or "\r" in name:
        raise RecordError(f"player name {name!r} cannot be written in a .mat file "
                          f"(no ':', line breaks or surrounding spaces)")
    if "Game " in name:
        raise RecordError(f"player name {name!r} would be read as the start of a game")
    if re.search(r",\s*\d+$", name):
        raise RecordError(f"player name {name!r} would be read as a name and a rating")
    return name


def _entry(action: Action) -> str:
    if isinstance(action, Roll):
        d1, d2 = action.dice
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise RecordError(f"no such roll {action.dice!r}")
        subs = (action.play or "").split()
        parse_move(action.play or "")
        # gnubg follows every move with a space except a fourth one.
        return f"{d1}{d2}: " + " ".join(subs) + (" " if 0 < len(subs) < 4 else "")
    if isinstance(action, Double):
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[action.kind]
        return f" {word} => {action.value}"
    if isinstance(action, Take):
        return " Takes"
    if isinstance(action, Drop):
        return " Drops"
    raise RecordError(f"not a .mat action: {action!r}")


def _write_game(game: Game, players: tuple[str, str]) -> str:
    if not (isinstance(game.number, int) and game.number > 0):
        raise RecordError(f"invalid game number {game.number!r}")
    if not (len(game.score) == 2 and all(isinstance(x, int) and x >= 0 for x in game.score)):
        raise RecordError(f"game {game.number}: invalid score {game.score!r}")
    out = [f" Game {game.number}\n"]
    left = f"{players[0]} : {game.score[0]}"
    # gnubg pads to 31 columns; a longer name still needs a space before the second one.
    out.append(f" {left:<31}" + (" " if len(left) >= 31 else "") + f"{players[1]} : "
               f"{game.score[1]}\n")
    slot = 0            # even: player 0's column of line slot // 2 + 1; odd: player 1's
    line_open = False   # a left entry is written and its line not ended
    last = len(game.actions) - 1
    for k, action in enumerate(game.actions):
        if action.player not in (0, 1):
            raise RecordError(f"game {game.number}: no player {action.player!r} in {action!r}")
        if slot % 2 != action.player:   # the other column is left empty
            out.append(f"{slot // 2 + 1:3d}) {'':<{_LEFT_WIDTH}} " if slot % 2 == 0 else "\n")
            line_open = slot % 2 == 0
            slot += 1
        text = _entry(action)
        if k == last and isinstance(action, Roll) and action.play is None:
            # gnubg's layout for a roll followed by a resignation: the entry is not padded and
            # the Wins line depends on who rolled and who won.
            if slot % 2 == 0:
                out.append(f"{slot // 2 + 1:3d}) {text}")
                if game.winner == 0:
                    out.append(" " * 6 + _points(game.points) + "\n\n")
                elif game.winner == 1:
                    out.append(" " * 24 + _points(game.points) + "\n\n")
                else:
                    out.append("\n")
            else:
                out.append(text)
                if game.winner == 0:
                    out.append("\n" + " " * 6 + _points(game.points) + "\n\n")
                elif game.winner == 1:
                    out.append(" " + _points(game.points) + "\n\n")
                else:
                    out.append("\n")
            if game.winner not in (None, 0, 1):
                raise RecordError(f"game {game.number}: no player {game.winner!r} to win")
            return "".join(out)
        if slot % 2 == 0:
            if (k == last and isinstance(action, Drop) and game.winner == 1):
                # gnubg writes player 1's win on player 0's drop line.
                text += " " * 23 + _points(game.points)
                out.append(f"{slot // 2 + 1:3d}) {text:<{_LEFT_WIDTH}} \n\n")
                return "".join(out)
            out.append(f"{slot // 2 + 1:3d}) {text:<{_LEFT_WIDTH}} ")
            line_open = True
        else:
            out.append(text + "\n")
            line_open = False
        slot += 1
    if game.winner is None:
        if line_open:
            out.append("\n")
    elif game.winner == 0:
        out.append(("\n" if line_open else "") + " " * 6 + _points(game.points) + "\n\n")
    elif game.winner == 1:
        out.append((" " if line_open else " " * 34) + _points(game.points) + "\n\n")
    else:
        raise RecordError(f"game {game.number}: no player {game.winner!r} to win")
    return "".join(out)


def write_mat(record: MatchRecord) -> str:
    """The match in the Jellyfish layout gnubg exports (``export match mat``).

    Header tags (``; [Site "…"]`` …), the comment, `` N point match``, then each game: `` Game
    N``, the score line, numbered move lines with player 0's entries at column 5 and player 1's at
    column 33, and the ``Wins N points`` line in the winner's column. Like gnubg, the file does
    not mark the Crawford game (a reader derives it) nor who owns the cube.
    """
    if not (isinstance(record.match_length, int)
            and 0 <= record.match_length <= MAX_MATCH_LENGTH):
        raise RecordError(f"invalid match length {record.match_length!r} "
                          f"(0 for money, at most {MAX_MATCH_LENGTH})")
    players = (_check_name(record.players[0]), _check_name(record.players[1]))
    unknown = sorted(set(record.info) - set(INFO_TAGS))
    if unknown:
        raise RecordError(f"unknown header {unknown[0]!r} (expected one of "
                          f"{', '.join(INFO_TAGS)})")
    out: list[str] = []
    for tag in INFO_TAGS:
        if tag == "Transcriber" and record.variation:
            out.append(f'; [Variation "{record.variation}"]\n')
        value = record.info.get(tag)
        if value is not None:
            if '"]' in value or "\n" in value:
                raise RecordError(f"header {tag} {value!r} cannot be written")
            out.append(f'; [{tag} "{value}"]\n')
    if record.variation and record.variation not in VARIATIONS:
        raise RecordError(f"unknown variation {record.variation!r} "
                          f"(expected one of {', '.join(VARIATIONS)})")
    if record.comment:
        out.append("\n" + "".join(f"; {line}\n" for line in record.comment.splitlines()))
    out.append("\n")
    out.append(f" {record.match_length} point match\n\n")
    for game in record.games:
        out.append(_write_game(game, players))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Reading

# Numbers are ASCII digits, and short: `int()` would read other scripts' digits, and a number of
# thousands of digits would exceed Python's int-to-str limit.
_HEADER = re.compile(r"\s*(-?[0-9]{1,9})\s+[Pp]oint\s+[Mm]atch\b", re.ASCII)
_GAME = re.compile(r"\s*Game\s+([0-9]{1,9})\s*", re.ASCII)
_GAME_LIKE = re.compile(r"\s*g\s*a\s*m\s*e\b", re.IGNORECASE)
_SCORE = re.compile(r"\s*(?P<n0>[^:]*?)\s*:\s*(?P<s0>[0-9]{1,9})\s+(?P<n1>[^:]*?)\s*:\s*"
                    r"(?P<s1>[0-9]{1,9})\s*", re.ASCII)
_TAG = re.compile(r'\[(?P<tag>[A-Za-z][A-Za-z ]*?)\s+"(?P<value>.*)"\]\s*')
_ROLL = re.compile(r"([1-6])([1-6]):(.*)")
_MOVE_NUMBER = re.compile(r"\s*[0-9]*\)", re.ASCII)
_VALUE = re.compile(r"=>\s*([0-9]{1,9})(?![0-9])", re.ASCII)
_WINS = re.compile(r"wins?\s+([0-9]{1,9})(?![0-9])", re.IGNORECASE | re.ASCII)
_WINS_IN_PLAY = re.compile(r"^wins?\b", re.IGNORECASE)


def _fail(lineno: int, message: str) -> RecordError:
    err = RecordError(f"line {lineno}: {message}")
    err.line = lineno  # type: ignore[attr-defined]
    return err


def _split(line: str) -> tuple[str, str | None]:
    """gnubg's split of a move line into player 0's and player 1's parts (spec §5.2)."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        left, right = line[:second - 3], line[second - 2:]
    else:
        k = line.find("  ", 15) if len(line) > 15 else -1
        if k >= 0:
            left, right = line[:k], line[k + 1:]
        else:
            left, right = line, None
    m = _MOVE_NUMBER.match(left)
    if m:
        left = left[m.end():]
    return left, right


def _strip_name(name: str) -> str:
    # GridGammon writes "name,rating".
    m = re.fullmatch(r"(.*?),\s*\d+", name)
    return (m.group(1) if m else name).strip()


class _GameReader:
    """The state of one game while its lines are read."""

    def __init__(self, game: Game):
        self.game = game
        self.pending: Double | None = None
        self.last_value = 1

    def entry(self, lineno: int, player: int, text: str) -> None:
        s = " ".join(text.split())
        if not s:
            return
        game = self.game
        low = s.lower()
        over = game.winner is not None
        if low.startswith("win"):
            m = _WINS.match(s)
            if not m:
                raise _fail(lineno, f"game {game.number}: {s!r} does not say how many points")
            if not over:
                game.winner, game.points = player, int(m.group(1))
            return
        if low.startswith("resign"):
            return
        if over:
            raise _fail(lineno, f"game {game.number}: {s!r} comes after the end of the game")
        m = _ROLL.match(s)
        if m:
            if self.pending is not None and self.pending.kind == "double":
                raise _fail(lineno, f"game {game.number}: a roll while a double waits for an "
                                    f"answer: {s!r}")
            self.pending = None
            play: str | None = m.group(3).strip()
            wins = _WINS_IN_PLAY.search(play or "")
            if wins:   # gnubg's layout for a roll followed by a resignation
                play, rest = None, play[wins.start():]  # type: ignore[index]
            elif play.lower().startswith("???"):  # type: ignore[union-attr]
                play = None
            elif play.lower().startswith("cannot move"):  # type: ignore[union-attr]
                play = ""
            elif play.lower().startswith("illegal play"):  # type: ignore[union-attr]
                raise _fail(lineno, f"game {game.number}: illegal-play records are not "
                                    f"supported: {s!r}")
            try:
                parse_move(play or "")
            except RecordError as e:
                raise _fail(lineno, f"game {game.number}: {e}") from None
            game.actions.append(Roll(player, (int(m.group(1)), int(m.group(2))), play))
            if wins:
                self.entry(lineno, player, rest)
            return
        for word, kind in (("double", "double"), ("beaver", "beaver"), ("raccoon", "raccoon")):
            if low.startswith(word):
                if kind != "double" and (self.pending is None or self.pending.player == player):
                    raise _fail(lineno, f"game {game.number}: {s!r} does not answer a double")
                if kind == "double" and self.pending is not None:
                    raise _fail(lineno, f"game {game.number}: {s!r} while a double waits for "
                                        f"an answer")
                v = _VALUE.search(s)
                value = int(v.group(1)) if v else 2 * self.last_value
                self.last_value = value
                self.pending = Double(player, value, kind)  # type: ignore[arg-type]
                game.actions.append(self.pending)
                return
        for word, cls in (("take", Take), ("drop", Drop)):
            if low.startswith(word):
                if self.pending is None or self.pending.player == player:
                    raise _fail(lineno, f"game {game.number}: {s!r} does not follow a double "
                                        f"by the other player")
                self.pending = None
                game.actions.append(cls(player))
                return
        raise _fail(lineno, f"game {game.number}: unrecognised entry {s!r}")


def read_mat(text: str, *, strict: bool = False) -> MatchRecord:
    """Read a ``.mat`` file, accepting what gnubg's ``import mat`` accepts (spec §5.2-§5.3).

    Before the `` N point match`` line, ``;`` and ``#`` lines are header tags or comment. Each game
    starts at a `` Game N`` line followed by the score line; move lines are split into player 0's
    and player 1's parts as gnubg splits them. Plays are checked for notation only. Games whose
    score already reaches the match length end the reading, as in gnubg.

    The players are the names of the first game's score line (a GridGammon rating after a
    comma is dropped); later score lines give only the scores.

    Raises RecordError naming the line (``err.line``) for a file that is not a match: no header,
    a match length above 64, a missing score line, an unreadable play, an unrecognised entry, a
    take or drop without a double.

    With `strict` (what `tablier import` reads), a file is refused unless it can be replayed
    whole: what gnubg skips silently is an error naming the line — text between the match line
    and the first game (a garbled ``Game 1`` header), games not numbered one after the other (a
    missing game), a score line at or above the match length (games after the end of the
    match). A file gnubg exports has none of these.
    """
    if not isinstance(text, str):
        raise RecordError(f"a .mat file must be text, not {type(text).__name__}")
    lines = text.lstrip("\ufeff").splitlines()
    info: dict[str, str] = {}
    comment: list[str] = []
    variation: str | None = None
    length: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line[:1] in (";", "#"):
            body = line[1:].strip()
            if not body:
                continue
            m = _TAG.fullmatch(body)
            tag = m.group("tag") if m else ""
            if tag in INFO_TAGS:
                value = m.group("value")  # type: ignore[union-attr]
                if tag == "EventDate":
                    d = re.match(r"(\d{1,4})\.(\d{1,2})\.(\d{1,2})", value)
                    if not d:
                        continue
                    value = f"{int(d.group(1)):04d}.{int(d.group(2)):02d}.{int(d.group(3)):02d}"
                info[tag] = value
            elif tag == "Variation":
                value = m.group("value")  # type: ignore[union-attr]
                if value not in VARIATIONS and value != "Backgammon":
                    raise _fail(i, f"unknown variation {value!r}")
                variation = None if value == "Backgammon" else value
            elif tag in _DROPPED_TAGS or re.match(r"\[Game \d+, Move \d+: Dice set to", body):
                continue
            else:
                comment.append(body)
            continue
        m = _HEADER.match(line)
        if m:
            length = int(m.group(1))
            if not 0 <= length <= MAX_MATCH_LENGTH:
                raise _fail(i, f"match length {length} is outside 0 to {MAX_MATCH_LENGTH}")
            break
    if length is None:
        raise RecordError("not a .mat file: no 'N point match' line")

    record = MatchRecord(length, ("", ""), info=info, variation=variation,
                         comment="\n".join(comment))
    reader: _GameReader | None = None
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        g = _GAME.fullmatch(line)
        if g is None and strict and _GAME_LIKE.match(line):
            raise _fail(i, f"{line.strip()[:40]!r} is not a game header (' Game N')")
        if g:
            number = int(g.group(1))
            if strict and record.games and number != record.games[-1].number + 1:
                raise _fail(i, f"game {number} follows game {record.games[-1].number}: games "
                               f"are numbered one after the other (a game is missing)")
            while i < len(lines) and not lines[i].strip():
                i += 1
            if i == len(lines):
                raise _fail(i, f"game {number} has no score line")
            i += 1
            s = _SCORE.fullmatch(lines[i - 1])
            if not s:
                raise _fail(i, f"game {number}: expected the score line 'name : score   "
                               f"name : score', not {lines[i - 1].strip()!r}")
            score = (int(s.group("s0")), int(s.group("s1")))
            names = (_strip_name(s.group("n0")), _strip_name(s.group("n1")))
            if not all(names):
                raise _fail(i, f"game {number}: a player has no name")
            if length and max(score) >= length:
                if strict:
                    raise _fail(i, f"game {number}: the score {score[0]}-{score[1]} reaches the "
                                   f"match length {length}: the match was over before this game")
                break   # the match is over; gnubg ignores what follows
            if not record.games:
                record.players = names
            reader = _GameReader(Game(number, score))
            record.games.append(reader.game)
            continue
        if reader is None:
            if strict and line[:1] not in (";", "#"):
                raise _fail(i, f"expected the first game (' Game 1'), not {line.strip()[:40]!r}")
            continue    # between the header and the first game gnubg skips everything
        if line[:1] in (";", "#"):
            if line.startswith("; Set Pos="):
                raise _fail(i, "position set-up lines ('; Set Pos=') are not supported")
            continue
        left, right = _split(line)
        actions = reader.game.actions
        before = len(actions)
        reader.entry(i, 0, left)
        if right is not None:
            if (len(actions) == before + 1 and isinstance(actions[-1], Roll)
                    and actions[-1].play == "" and right.strip()[:3].lower() == "win"
                    and line.find(right.strip()) == RIGHT):
                # A roll by player 0 and the Wins of player 1 at column 33 instead of 34: gnubg's
                # layout for a roll after which player 0 resigned.
                actions[-1] = replace(actions[-1], play=None)
            reader.entry(i, 1, right)
    if strict and not record.games:
        raise _fail(len(lines), "the file holds no game (' Game 1' and its score line)")
    return record
