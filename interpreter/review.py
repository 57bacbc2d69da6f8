"""A game reviewed by the project's own players (`tablier analyse GAME.toml|MATCH.mat`).

    >>> r = review("game.toml", player="white")          # doctest: +SKIP
    >>> r.to_json()["players"]["white"]["mean_error"], r.unit
    (0.0312, 'points')

`review(record_or_path, player=None, by=None, max_seconds=SECONDS)` replays a saved game (the
TOML of `tablier play --save`, any variant; or a `.mat` match of the backgammon family) through
the rules and, at each decision of the player reviewed (both players when none is named):

- ranks every answer with the reviewing player (`by`, default the strongest the variant has:
  `players/hint.py` `strongest_kind`) and its values in the game's unit (`Review.unit`: points
  of equity in money play, match-winning chances in a match, the partie's chances, jetons, game
  values), the answer played valued as the best answers are (`hint.ranking` `include`);
- the play's error is the best answer's value less the played one's, never below zero;
- its mark, `doubtful`, `bad` or `very bad`, is read from the error by thresholds
  (`THRESHOLDS`): backgammon's conventions (0.04, 0.08, 0.16) on the error in money play per
  unit of the cube and, in a match, on the error expressed as money equity at the score (the
  difference of match-winning chances over what winning rather than losing the cube's points
  is worth: gnubg's normalised equity); the other units have their own, in `THRESHOLDS`;
- each throw of the player has its luck: the value, for the thrower, of his best play of the
  throw he got, less the average over every throw of the dice (21 of two dice, 56 of three) of
  his best play's value, both one throw ahead by the reviewer's judge (its evaluation of the
  end of the throw). An opening throw, which also chooses who plays first, has none.

Decisions met in a copy cannot be replayed (the answer to a resignation) and are not reviewed.
The work is bounded: `max_seconds` (the command's `--max-seconds`, `SECONDS` by default) after
which the review covers what was reviewed so far and says where it stopped (`Review.partial`).
The record is a stranger's: a save is checked as `--resume` checks it (io/save.py), a `.mat`
file as `tablier import` does (io/replay.py), and a fault is one line (TablierError).
"""
from __future__ import annotations

import random
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from interpreter.engine.events import Thrown
from interpreter.engine.contract import SIDE_NAMES
from interpreter.errors import TablierError

#: how long a review runs by default, in seconds
SECONDS = 10.0
#: the marks of an error, from the mildest
MARKS = ("doubtful", "bad", "very bad")
#: (doubtful, bad, very bad): the least error of each mark, by the unit the error is marked in.
#: Money play's points are marked per unit of the cube, a match's chances as money equity at the
#: score (`_scale`), so that both read backgammon's conventions
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "points": (0.04, 0.08, 0.16),
    "match-winning chances (2 MWC - 1)": (0.04, 0.08, 0.16),
    # a game of the 12-point Tric-Trac is worth one to four, a backgammon game one to three
    "game values": (0.04, 0.08, 0.16),
    # the units below have no convention of their own: their thresholds are set so that the
    # greedy bot's plays are marked about as often as in backgammon (a third of them bad or
    # worse), by the self-taught player one throw ahead over short games against search:1.
    # The Dutch Triktrak's partie is won or lost: 2 P - 1 runs from -1 to +1
    "partie-winning chances (2 P - 1)": (0.03, 0.06, 0.12),
    # the parties' jetons (a mark pays a dozen and more)
    "jetons": (0.5, 1.0, 2.0),
    # holes of the Dutch Triktrak judged by the variant file alone (no weights)
    "holes": (0.1, 0.2, 0.4),
}
#: a unit with none of its own is marked as points are
DEFAULT_THRESHOLDS = THRESHOLDS["points"]
#: the answers a decision's entry shows with their values
CANDIDATES = 5
#: the decisions never reviewed: a resignation's answer (asked outside the turn loop, so that
#: no copy can play it out)
UNREVIEWED = frozenset({"resign", "dice"})
#: the decisions asked before a throw's dice: they belong to the throw coming
BEFORE_DICE = frozenset({"double", "take"})


@dataclass
class Reviewed:
    """One decision reviewed: the throw it belongs to (`turn`, counted from 1 over the whole
    play), who was asked, the decision's kind, the dice, the answer played and the best, the
    error in `unit`, its mark (None below `doubtful`), the throw's luck (on the play of the
    throw; None elsewhere), the best few answers with their values."""

    turn: int
    player: str
    kind: str
    dice: tuple[int, ...]
    played: str
    best: str
    error: float
    unit: str
    by: str
    mark: str | None = None
    luck: float | None = None
    candidates: list[tuple[str, float]] = field(default_factory=list)
    #: the played answer's and the best's values (in `unit`)
    played_value: float = 0.0
    best_value: float = 0.0
    #: how many answers there were
    answers: int = 0
    #: the game of a match or rotation (from 1)
    game: int = 1
    #: the dice are numbers the opponent passed on (Laquet, Doblet), played as a stage of
    #: their own: no throw of the player's
    passed: bool = False

    @property
    def dice_text(self) -> str:
        """The dice as a line names them: "3-2", or "with the passed 3-2"."""
        dice = "-".join(map(str, self.dice))
        return f"with the passed {dice}" if self.passed and dice else dice

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "game": self.game, "player": self.player,
                "kind": self.kind, "dice": list(self.dice), "passed": self.passed,
                "played": self.played,
                "best": self.best, "error": round(self.error, 4), "mark": self.mark,
                "luck": None if self.luck is None else round(self.luck, 4),
                "unit": self.unit, "by": self.by, "answers": self.answers,
                "played_value": round(self.played_value, 4),
                "best_value": round(self.best_value, 4),
                "candidates": [{"answer": t, "value": round(v, 4)} for t, v in self.candidates]}


@dataclass
class Luck:
    """The luck of one throw: who threw, the dice, the value of his best play of that throw
    less the average over every throw (in `unit`)."""

    turn: int
    player: str
    dice: tuple[int, ...]
    luck: float
    game: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "game": self.game, "player": self.player,
                "dice": list(self.dice), "luck": round(self.luck, 4)}


@dataclass
class Partial:
    """Where the review stopped when its time ran out: at throw `turn` of a play of `turns`
    throws (a `.mat` match: game `game` of `games`); `seconds` the limit."""

    turn: int
    turns: int
    seconds: float
    game: int = 1
    games: int = 1

    def text(self) -> str:
        where = f"turn {self.turn} of {self.turns}" if self.games <= 1 else \
            f"game {self.game} of {self.games}, turn {self.turn}"
        return (f"partial review: the {self.seconds:g} s limit was reached at {where}; the "
                f"figures cover the decisions reviewed before it (--max-seconds raises the "
                f"limit)")

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "turns": self.turns, "game": self.game, "games": self.games,
                "seconds": self.seconds}


@dataclass
class Review:
    """A reviewed game (see the module docstring): `decisions` and `throws` in order."""

    variant: str
    by: str
    unit: str
    #: the players reviewed, by the names the record gives them (white/black in a save)
    players: list[str]
    #: each name's player kind as the record states it ("" when it states none)
    kinds: dict[str, str] = field(default_factory=dict)
    decisions: list[Reviewed] = field(default_factory=list)
    throws: list[Luck] = field(default_factory=list)
    partial: Partial | None = None
    #: the thresholds of the marks, in the unit the marks read (`scale_note` says which)
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    scale_note: str = ""
    source: str = ""

    # -- totals ---------------------------------------------------------------------------------

    def of(self, name: str) -> list[Reviewed]:
        return [d for d in self.decisions if d.player == name]

    def totals(self, name: str) -> dict[str, Any]:
        """A player's totals: decisions, mean error, the errors (marked decisions), their
        count by mark, the luck summed over his throws, and the same by kind of decision."""
        mine = self.of(name)
        throws = [t for t in self.throws if t.player == name]
        errors = [d for d in mine if d.mark is not None]
        kinds: dict[str, dict[str, Any]] = {}
        for d in mine:
            k = kinds.setdefault(d.kind, {"decisions": 0, "total_error": 0.0})
            k["decisions"] += 1
            k["total_error"] += d.error
        return {
            "kind": self.kinds.get(name, ""),
            "decisions": len(mine),
            "mean_error": round(_mean([d.error for d in mine]), 4),
            "total_error": round(sum(d.error for d in mine), 4),
            "best_share": round(sum(1 for d in mine if d.error <= 1e-9) / len(mine), 4)
            if mine else 0.0,
            "marks": {m: sum(1 for d in errors if d.mark == m) for m in MARKS},
            "errors": [{"turn": d.turn, "game": d.game, "kind": d.kind, "dice": list(d.dice),
                        "played": d.played, "best": d.best, "error": round(d.error, 4),
                        "mark": d.mark} for d in errors],
            "throws": len(throws),
            "luck": round(sum(t.luck for t in throws), 4),
            "by_kind": {k: {"decisions": v["decisions"],
                            "mean_error": round(v["total_error"] / v["decisions"], 4)}
                        for k, v in kinds.items()},
        }

    # -- output ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "by": self.by, "unit": self.unit,
            "thresholds": dict(zip(MARKS, self.thresholds)), "marked": self.scale_note,
            "players": {name: self.totals(name) for name in self.players},
            "decisions": [d.to_json() for d in self.decisions],
            "throws": [t.to_json() for t in self.throws],
            "partial": None if self.partial is None else self.partial.to_json(),
        }

    def text(self, width: int = 80) -> str:
        """The review as lines of at most `width` characters: where it stopped (when it did),
        what judged it and in what unit, each player's totals, then each marked error."""
        lines: list[str] = []

        def say(text: str, indent: str = "") -> None:
            lines.extend(textwrap.wrap(text, width, subsequent_indent=indent + "  ",
                                       initial_indent=indent, break_on_hyphens=False,
                                       break_long_words=True) or [""])
        if self.partial is not None:
            say(self.partial.text())
        say(f"{self.variant} reviewed by {self.by}; values in {self.unit}")
        t = self.thresholds
        say(f"marks: doubtful from {t[0]:g}, bad from {t[1]:g}, very bad from {t[2]:g}"
            + (f" ({self.scale_note})" if self.scale_note else ""))
        for name in self.players:
            s = self.totals(name)
            who = f"{name} ({s['kind']})" if s["kind"] and s["kind"] != name else name
            say(f"{who}: {s['decisions']} decisions, mean error {s['mean_error']:.4f}, the "
                f"best answer in {100 * s['best_share']:.0f} %")
            if len(s["by_kind"]) > 1:
                say(", ".join(f"{k} {v['decisions']} (mean error {v['mean_error']:.4f})"
                              for k, v in s["by_kind"].items()), "  ")
            marks = ", ".join(f"{n} {m}" for m, n in s["marks"].items())
            say(f"marked: {marks}; luck {s['luck']:+.3f} over {s['throws']} throws", "  ")
        errors = [d for d in self.decisions if d.mark is not None]
        if errors:
            say("errors:")
        for d in errors:
            dice = d.dice_text
            game = f"game {d.game} " if any(x.game > 1 for x in self.decisions) else ""
            say(f"{game}turn {d.turn}, {d.player}{' ' + dice if dice else ''}, {d.kind}: "
                f"played {d.played}, best {d.best}; error {d.error:.4f} ({d.mark})", "  ")
        return "\n".join(lines)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def mark_of(error: float, thresholds: tuple[float, float, float]) -> str | None:
    """The mark of an error (already on the thresholds' scale): None below `doubtful`."""
    out = None
    for m, t in zip(MARKS, thresholds):
        if error >= t - 1e-12:
            out = m
    return out


def _scale(state: dict | None) -> float:
    """What one unit of the thresholds is worth in the values' unit at this state: in a match
    (with the cube or a rotation's), the difference of 2 MWC - 1 between winning and losing the
    stake now (gnubg's normalised equity); in money play with the cube, the cube's value; 1
    elsewhere."""
    if not state:
        return 1.0
    from interpreter.players.utility import _after_game
    from interpreter.scoring.registry import ladder_class

    try:
        w = ladder_class(state).worth(state)
        if w.match is not None:
            span = _after_game(w.match, True, w.stake) - _after_game(w.match, False, w.stake)
            return max(span, 1e-6)
    except (KeyError, TypeError, ValueError):
        return 1.0
    if w.summed is None and not w.chance and w.doubling:
        return float(max(w.stake, 1))
    return 1.0


def _scale_note(variant: Any, unit: str) -> str:
    from interpreter.scoring.registry import ladder_class

    ladder = getattr(variant, "ladder", None)
    if unit == "points" and ladder_class(ladder).has_cube(ladder):
        return "errors per unit of the cube"
    if unit.startswith("match-winning"):
        return "errors as money equity at the score"
    return ""


# -- reviewing a record ---------------------------------------------------------------------------

class _OutOfTime(Exception):
    """The review's time is up."""


def _reviewer_fault(kind: str) -> str | None:
    """Why a player kind cannot review a game (None when it can)."""
    from interpreter.players.kinds import PlayerKindError, parse

    try:
        family, _params = parse(kind)
    except PlayerKindError as exc:
        return str(exc)
    if family in ("random", "greedy"):
        return (f"{kind!r} gives no values to compare plays with; choose search:N, "
                f"search:N:learned, learned or rollout:N (or gnubg for a .mat match)")
    return None


def check_reviewer(kind: str | None) -> None:
    """TablierError when `kind` cannot review (None: the strongest, always can)."""
    if kind is None or kind == "gnubg" or kind.startswith("gnubg:"):
        return
    fault = _reviewer_fault(kind)
    if fault is not None:
        raise TablierError(f"--by: {fault}")


def _sides(names: Sequence[str], kinds: Sequence[str], player: str | None) -> list[int]:
    """The sides reviewed: both, or the one `player` names (its name or its player kind)."""
    if player is None:
        return [0, 1]
    if player in names:
        return [list(names).index(player)]
    matches = [i for i, k in enumerate(kinds) if k == player]
    if len(matches) == 1:
        return matches
    from interpreter.bounded import shown

    raise TablierError(f"no player {shown(player)} in the game: its players are "
                       f"{' and '.join(repr(n) for n in names)}")


class _Clock:
    """The review's time: up when the longest step so far (a decision ranked, a throw's luck)
    would no longer end before the limit."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.longest = 0.0
        self._start: float | None = None
        #: the steps timed so far (the first, which loads the players, is not counted)
        self.steps = 0

    def up(self) -> bool:
        now = time.monotonic()
        if self._start is not None and self.steps > 1:
            self.longest = max(self.longest, now - self._start)
        self.steps += 1
        self._start = now
        return self.deadline is not None and now + self.longest > self.deadline


def review(record_or_path: Any, player: str | None = None, by: str | None = None,
           max_seconds: float | None = SECONDS, *, variant: Any = None, notation: Any = None,
           lookup: Callable[[Any], str] | None = None) -> Review:
    """Review a game (see the module docstring). `record_or_path`: the path of a save (`.toml`)
    or a `.mat` match, a save as `io/save.read_save` reads it (`(data, record)`: checked as
    `--resume` checks it), an engine `Record` (its game replayed as recorded: a game at the
    board), or a `.mat` `MatchRecord`. `player`: a name of the record (`white`, `black`; or a
    player kind naming one side), None for both. `by`: the reviewing player kind (None: the
    strongest the variant has). `variant`: the loaded variant (else loaded as the record
    says; `lookup` as `io/save.variant_ref` takes it). `notation`: how plays are written
    (interpreter/notation.py; default the save's, else pips)."""
    from interpreter.engine.record import Record
    from interpreter.io.mat import MatchRecord
    from interpreter.notation import NotationError

    check_reviewer(by)
    clock = _Clock(max_seconds)
    if isinstance(record_or_path, (str, Path)):
        path = Path(record_or_path)
        try:
            if path.suffix.lower() == ".mat":
                return _review_mat(_read_mat(path), player, by, clock, variant, notation,
                                   source=str(path))
            from interpreter.io.save import read_save

            data, record = read_save(path)
            return _review_save(data, record, player, by, clock, variant, notation, path,
                                lookup)
        except NotationError:
            raise
        except TablierError as exc:
            if str(path) in str(exc):
                raise
            raise TablierError(f"{path}: {exc}") from None
    if isinstance(record_or_path, tuple) and len(record_or_path) == 2:
        data, record = record_or_path
        return _review_save(data, record, player, by, clock, variant, notation, None, lookup)
    if isinstance(record_or_path, Record):
        return _review_save(None, record_or_path, player, by, clock, variant, notation, None,
                            lookup)
    if isinstance(record_or_path, MatchRecord):
        return _review_mat(record_or_path, player, by, clock, variant, notation)
    raise TablierError(f"nothing to review in a {type(record_or_path).__name__}")


def _notation(variant: Any, notation: Any) -> Any:
    """A notation given by name read for the variant (NotationError naming those it has)."""
    if isinstance(notation, str):
        from interpreter.notation import notation_for

        return notation_for(variant, notation)
    return notation


def _read_mat(path: Path) -> Any:
    from interpreter.bounded import read_bytes
    from interpreter.io.mat import read_mat

    raw = read_bytes(str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return read_mat(text, strict=True)


# -- a saved game ---------------------------------------------------------------------------------

def _review_save(data: dict | None, record: Any, player: str | None, by: str | None,
                 clock: _Clock, variant: Any, notation: Any, path: Path | None,
                 lookup: Callable[[Any], str] | None) -> Review:
    from interpreter.engine.record import replay
    from interpreter.io import save
    from interpreter.variant.build import load_variant

    if by is not None and by.split(":")[0] == "gnubg":
        raise TablierError("--by gnubg grades .mat match files (`tablier play --mat FILE` "
                           "writes one); a saved game is reviewed by the project's players "
                           "(search:N, learned...)")
    if variant is None:
        variant = load_variant(save.variant_ref(record, path, lookup), list(record.options))
    max_turns = 20000
    if data is not None:
        save.check_files(record, variant)
        stated = data["state"]
        waits = stated.get("decision") or stated.get("finished") is True
        max_turns = data["game"]["turns"] + (1 if waits else 0)
        check = replay(record, variant, max_turns=max_turns)
        save.check_state(data, save.state_of(check.game, check.pending))
        save.check_checksum(data)
        turns = int(data["game"]["turns"])
        if notation is None:
            from interpreter.notation import notation_for

            name = save.notation_of(data)
            if name is not None:
                try:
                    notation = notation_for(variant, name)
                except TablierError:
                    notation = None
    else:
        check = replay(record, variant)
        turns = check.game.turns
    notation = _notation(variant, notation)
    sides = _sides(SIDE_NAMES, record.players, player)
    return _Reviewer(variant, record, sides, by, clock, notation, max_turns, turns).run()


class _Reviewer:
    """The replay of an engine record that reviews the decisions and throws of `sides`."""

    def __init__(self, variant: Any, record: Any, sides: list[int], by: str | None,
                 clock: _Clock, notation: Any, max_turns: int, turns: int):
        from interpreter.players.hint import strongest_kind

        self.variant = variant
        self.record = record
        self.sides = sides
        self.by = by
        self.clock = clock
        self.notation = notation
        self.max_turns = max_turns
        self.turns = turns
        self.kind = by or strongest_kind(variant)
        names = [SIDE_NAMES[s] for s in sides]
        self.out = Review(variant.id, self.kind, "points", names,
                          kinds={SIDE_NAMES[i]: record.players[i] for i in range(2)},
                          source="")
        self.kinds_used: list[str] = []
        #: the luck of the throw being played, waiting for its play decision
        self.pending_luck: Luck | None = None

    def run(self) -> Review:
        from interpreter.engine.contract import Resign, dice_index
        from interpreter.engine.events import Decided
        from interpreter.engine.game import Game
        from interpreter.errors import RecordError

        record = self.record
        game = Game(self.variant, record.game_seed, max_turns=self.max_turns, keep_record=True,
                    doubles=record.doubles, resigns=True)
        # copies of the game at every decision (the reviewer plays the answers out), and each
        # throw asked as a decision: its dice are the record's, its luck is weighed there
        game.branching = True
        game.ask_dice = True
        self.game = game
        want = record.entries
        gen = game.play()
        try:
            d = next(gen)
            while True:
                k = len(game.record)
                if k >= len(want):
                    break
                exp = want[k]
                if isinstance(exp, Decided) and exp.kind == "resigns" and exp.side == d.player:
                    d = gen.send(Resign(exp.answer))
                    continue
                if d.kind == "dice":
                    if not isinstance(exp, Thrown) or exp.side != d.player:
                        raise RecordError(f"record entry {k + 1}: the record says "
                                          f"{exp.text()!r} where {SIDE_NAMES[d.player]} throws")
                    dice = exp.dice
                    # a third die fixed before the game is not thrown (`[turn] fixed_die`)
                    fixed = game.variant.fixed_third(game.board) if len(dice) == 3 else 0
                    if fixed and dice[2] != fixed:
                        raise RecordError(f"record entry {k + 1}: the third die is fixed at "
                                          f"{fixed}, not {dice[2]}")
                    thrown = dice[:2] if fixed else dice
                    # the game's own dice drawn as in play, so that what comes after (a new
                    # game's opening throw) draws the same
                    for _ in thrown:
                        game.dice_rng.random()
                    if d.player in self.sides and not exp.passed:
                        # (numbers passed on are no throw of the player's: no luck of his)
                        self.throw(d, dice)
                    d = gen.send(dice_index(*thrown))
                    continue
                i = d.index(exp.answer)
                if d.player in self.sides and d.kind not in UNREVIEWED \
                        and len(d.choices) > 1:
                    self.decide(d, i)
                d = gen.send(i)
        except _OutOfTime:
            pass
        except StopIteration:
            pass
        made = game.record[:len(want)]
        if self.out.partial is None and made != list(want)[:len(made)]:
            raise RecordError("the record does not replay as it was played")
        self.finish()
        return self.out

    def finish(self) -> None:
        out = self.out
        if self.kinds_used:
            out.by = " / ".join(dict.fromkeys(self.kinds_used))
        out.thresholds = THRESHOLDS.get(out.unit, DEFAULT_THRESHOLDS)
        out.scale_note = _scale_note(self.variant, out.unit)

    def _stop(self) -> None:
        if self.clock.up():
            self.out.partial = Partial(self.game.turns + 1, self.turns,
                                       float(self.clock.seconds or 0))
            raise _OutOfTime

    def _game_number(self, state: dict | None = None) -> int:
        """The game of a match in play (1 where the ladder counts none)."""
        if state is None:
            state = self.game.ladder.state(0)
        n = state.get("game") if isinstance(state, dict) else None
        return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1

    # -- a decision -----------------------------------------------------------------------------

    def decide(self, d: Any, i: int) -> None:
        from interpreter.players.hint import ranking

        self._stop()
        r = ranking(d, self.by, include=(i,), notation=self.notation)
        self.kinds_used.append(r.bot)
        self.out.unit = r.unit
        best = r.choices[0]
        played = r.value_of(i)
        texts = {c.index: c.text for c in r.choices}
        error = max(0.0, best.value - played)
        if best.index != i and error <= 0.0:
            best_text = texts[i]          # as good as the best: the play is the best
        else:
            best_text = best.text
        view = d.view
        state = view.ladder
        scaled = error / _scale(state)
        mark = mark_of(scaled, THRESHOLDS.get(r.unit, DEFAULT_THRESHOLDS))
        turn = self.game.turns + (1 if d.kind in BEFORE_DICE else 0)
        dice = tuple(self.game.dice) if d.kind not in BEFORE_DICE else ()
        luck = None
        if d.is_play and self.pending_luck is not None and self.pending_luck.turn == turn:
            luck = self.pending_luck.luck
            self.pending_luck = None
        last = next((e for e in reversed(self.game.log) if isinstance(e, Thrown)), None)
        passed = bool(dice and last is not None and last.passed)
        self.out.decisions.append(Reviewed(
            turn, SIDE_NAMES[d.player], d.kind, dice, texts[i], best_text, error, r.unit,
            r.bot, mark, luck, [(c.text, c.value) for c in r.choices[:CANDIDATES]], played,
            best.value, len(d.choices), self._game_number(state), passed))

    # -- a throw --------------------------------------------------------------------------------

    def throw(self, d: Any, dice: tuple[int, ...]) -> None:
        self._stop()
        value = throw_luck(d, dice, self.by)
        if value is None:
            return
        luck = Luck(self.game.turns + 1, SIDE_NAMES[d.player], dice, value,
                    self._game_number())
        self.out.throws.append(luck)
        self.pending_luck = luck


# -- a .mat match ---------------------------------------------------------------------------------

class _MatGame:
    """What the search reads of a game at a checker play of a `.mat` match: the variant, the
    board before the play and its legal plays (a play's leaf is its end position: the backgammon
    family needs no copy of the game)."""

    branching = False
    _cp = None

    def __init__(self, variant: Any, base: tuple, plays: list):
        self.variant = variant
        self.choice_base = base
        self.plays = plays

    def legal_plays(self, _d: Any) -> list:
        return self.plays

    def game_value(self, b: tuple, points: tuple[int, int] = (0, 0)) -> tuple[int, str | None]:
        from interpreter.engine.game import value_of

        return value_of(self.variant, b, points)


class _MatView:
    def __init__(self, variant: Any, board: tuple, dice: tuple[int, int], ladder: dict,
                 rolls: tuple[int, int]):
        self.variant = variant
        self.board = board
        self.dice = dice
        self.ladder = ladder
        self.rolls = rolls
        self.mover = True


class _MatDecision:
    """A checker play of a `.mat` match as a decision (`hint.ranking` ranks it)."""

    kind = "play"
    is_play = True

    def __init__(self, game: _MatGame, player: int, view: _MatView):
        self.game = game
        self.player = player
        self.choices = [p.board for p in game.plays]
        self.view = view


def _review_mat(record: Any, player: str | None, by: str | None, clock: _Clock,
                variant: Any = None, notation: Any = None, source: str = "") -> Review:
    """The checker plays of a `.mat` match reviewed (its cube actions are not: the file's
    replay sees the plays only)."""
    from interpreter.io.replay import replay, variant_ref
    from interpreter.players.hint import ranking, strongest_kind
    from interpreter.players.leaves import quick
    from interpreter.players.utility import unit_of
    from interpreter.scoring.cube import cube_state
    from interpreter.variant.build import load_variant

    if by is not None and by.split(":")[0] == "gnubg":
        raise TablierError("gnubg grades a .mat match with interpreter/analyse.py "
                           "(`tablier analyse MATCH.mat --by gnubg`)")
    names = list(record.players)
    sides = _sides(names, ("", ""), player)
    if variant is None:
        # (the match's length and score are the leaves' ladder state, `cube_state`: the
        # variant's own ladder is not read)
        ref, extra = variant_ref(record)
        variant = load_variant(ref, extra)
    notation = _notation(variant, notation)
    if not quick(variant):
        raise TablierError(f"{variant.id!r} is not reviewed from a .mat file")
    kind = by or strongest_kind(variant)
    out = Review(variant.id, kind, "points", [names[s] for s in sides],
                 kinds={n: "" for n in names}, source=source)
    games = len(record.games)
    seen: dict[tuple[int, int], int] = {}

    def observe(state: Any, who: int, b: tuple, dice: tuple[int, int], after: tuple,
                plays: list) -> None:
        number = state.game.number
        first = (number, -1) not in seen
        seen[(number, -1)] = 1
        rolls = (seen.get((number, who), 0) + 1, seen.get((number, 1 - who), 0))
        seen[(number, who)] = rolls[0]
        if who not in sides:
            return
        if clock.up():
            out.partial = Partial(state.move, 0, float(clock.seconds or 0), number, games)
            raise _OutOfTime
        ladder = cube_state(state.match, state.cube, who)
        before = (rolls[0] - 1, rolls[1])
        if not first:
            # (an opening roll also chooses who plays first: it has no luck)
            luck = _quick_luck(variant, kind, b, before, ladder, dice, who)
            if luck is not None:
                out.throws.append(Luck(state.move, names[who], dice, luck, number))
        distinct: dict[tuple, Any] = {}
        for p in plays:
            distinct.setdefault(p.board, p)
        if len(distinct) <= 1:
            return
        game = _MatGame(variant, b, list(distinct.values()))
        d = _MatDecision(game, who, _MatView(variant, b, dice, ladder, rolls))
        i = d.choices.index(after)
        r = ranking(d, by, include=(i,), notation=notation)
        unit = unit_of(ladder)
        out.unit = unit
        best = r.choices[0]
        played = r.value_of(i)
        texts = {c.index: c.text for c in r.choices}
        error = max(0.0, best.value - played)
        best_text = texts[i] if best.index != i and error <= 0.0 else best.text
        mark = mark_of(error / _scale(ladder), THRESHOLDS.get(unit, DEFAULT_THRESHOLDS))
        last = out.throws[-1] if out.throws else None
        luck = last.luck if last is not None and (last.game, last.turn, last.player) == \
            (number, state.move, names[who]) else None
        out.decisions.append(Reviewed(
            state.move, names[who], "play", dice, texts[i], best_text, error, unit, r.bot,
            mark, luck, [(c.text, c.value) for c in r.choices[:CANDIDATES]], played,
            best.value, len(d.choices), number))

    try:
        replay(record, variant, observe)
    except _OutOfTime:
        pass
    out.thresholds = THRESHOLDS.get(out.unit, DEFAULT_THRESHOLDS)
    out.scale_note = _scale_note(variant, out.unit) if not record.match_length else \
        "errors as money equity at the score"
    return out


def _quick_luck(variant: Any, kind: str, board: tuple, rolls: tuple[int, int], ladder: dict,
                dice: tuple[int, ...], me: int) -> float | None:
    """The luck of `dice` thrown on `board` (seen by the thrower `me`) in a variant whose throws
    need only end positions (see `throw_luck`)."""
    from interpreter.players.hint import strongest_bot
    from interpreter.players.leaves import Leaf

    bot = strongest_bot(variant, kind)
    if not hasattr(bot, "_best_after_throw"):
        return None
    return _luck(bot, Leaf(board, True, rolls, ladder), me, dice, variant.dice_count == 3)


def _luck(bot: Any, leaf: Any, me: int, dice: tuple[int, ...], three: bool) -> float | None:
    """The value for `me`, one throw ahead, of his best play of `dice` from `leaf` less the
    average over every throw."""
    from interpreter.engine.branch import DICE, DICE3

    bot._stood.clear()
    outcomes = list(DICE3) if three else [(a, b, 0, w) for a, b, w in DICE]
    total = 0.0
    weights = 0
    got = None
    want = tuple(sorted(dice)) + (0,) * (3 - len(dice))
    for a, b, c, w in outcomes:
        v = float(bot._best_after_throw(leaf, me, me, a, b, 1, c))
        total += w * v
        weights += w
        if (a, b, c) == want:
            got = v
    return None if got is None else got - total / weights


def throw_luck(d: Any, dice: tuple[int, ...], kind: str | None = None) -> float | None:
    """The luck of throwing `dice` at the "dice" decision `d` of a game that keeps its
    checkpoints: the thrower's best value after them less the average over every throw, one
    throw ahead by the judge of the bot of `kind` (the strongest by default); None when the bot
    has no judge."""
    from interpreter.engine import branch
    from interpreter.players.hint import strongest_bot, strongest_kind
    from interpreter.players.leaves import Leaf

    game = d.game
    variant = game.variant
    bot = strongest_bot(variant, kind or strongest_kind(variant))
    if not hasattr(bot, "_best_after_throw"):
        return None
    adopt = getattr(bot, "adopt", None)
    if adopt is not None:
        adopt(variant)
    me = d.player
    r = game.rolls
    rolls = (r[me], r[1 - me])
    ladder = game.ladder.state(me)
    if bot.quick:
        # the end positions are all a throw needs: read from the move generator
        leaf = Leaf(game.board, True, rolls, ladder)
    else:
        node = branch.Node(game, None, d, "dice", random.Random(0), True, live=True)
        leaf = Leaf(game.board, True, rolls, ladder, node)
    return _luck(bot, leaf, me, dice, variant.dice_count == 3)
