"""The record of a game, partie or match, and its replay through the rules.

A `Record` holds what identifies the play — the variant (its id and the sha256 of each file of
its `extends` chain), the options (`--set`s), the seed, the players' kinds and their
capabilities — and, in order, each throw's dice and each decision with its answer, as text a
person can read:

    white throws 3-1
    white play 8/5 6/5            (a play in pip notation from the player's side, as gnubg)
    black double double           (kind, then the answer: "black take pass", "white go stay")
    white resigns gammon          (a resignation, then "black resign accept" where it is asked)

Plays that had no alternative are not decisions and are not written (the log shows them).
`replay(record, variant)` plays the record again through the turn loop: every throw must be the
one the seed gives (an edited die is refused naming the throw), every answer one of the legal
answers of the decision asked; it stops where the record stops, with the game suspended at its
next decision, so that play can go on (`Replay.resume`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from pathlib import Path

from interpreter.engine.contract import SIDE_NAMES, Decision, GameResult, IllegalAnswer, Resign
from interpreter.engine.events import Decided, RecordEntry, Thrown
from interpreter.engine.game import Game
from interpreter.errors import RecordError

SIDES = {name: i for i, name in enumerate(SIDE_NAMES)}


@dataclass
class Record:
    variant: str
    seed: Any
    players: tuple[str, str]
    doubles: tuple[bool, bool] = (True, True)
    options: tuple[str, ...] = ()
    files: tuple[tuple[str, str], ...] = ()
    entries: list[RecordEntry] = field(default_factory=list)
    #: the game's number in a run of several (simulate's `--games`): its dice come from the
    #: seed and this number (`game_seed`), as `tablier simulate` plays game `index`
    index: int = 0
    #: the variant file the game was played from, when it is not a built-in variant (its
    #: absolute path): what `--resume` opens, its sha256 checked against `files`
    source: str | None = None

    @property
    def game_seed(self) -> str:
        return f"{self.seed}/{self.index}"

    def lines(self) -> list[str]:
        return [entry_text(e) for e in self.entries]


def entry_text(e: RecordEntry) -> str:
    """One entry of a record as text ("white throws 3-1", "black take pass")."""
    return e.text()


def parse_entry(text: Any, n: int) -> RecordEntry:
    """The entry a line of a record states; RecordError names the line (`n`, from 1)."""
    if not isinstance(text, str) or len(text) > 200:
        raise RecordError(f"record entry {n}: not a line of text: {str(text)[:60]!r}")
    parts = text.split(" ", 2)
    if len(parts) < 3 or parts[0] not in SIDES:
        raise RecordError(f"record entry {n}: unreadable {text!r} (expected \"white throws "
                          f"3-1\" or \"SIDE KIND ANSWER\")")
    side = SIDES[parts[0]]
    if parts[1] == "throws":
        dice = parts[2].split("-")
        if len(dice) not in (2, 3) or not all(x in "123456" and len(x) == 1 for x in dice):
            raise RecordError(f"record entry {n}: {text!r}: dice are written as two (or three) "
                              f"numbers 1-6, e.g. 3-1 or 6-5-2")
        return Thrown(side, int(dice[0]), int(dice[1]), None, int(dice[2]) if dice[2:] else 0)
    if parts[1] == "takes" and parts[2].startswith("the passed "):
        return _passed_entry(side, parts[2][len("the passed "):], text, n)
    return Decided(side, parts[1], parts[2])


_PASSED = re.compile(r"(?:(?P<n>[1-6]) × (?P<d>[1-6])|(?P<a>[1-6]), (?P<b>[1-6]) and "
                     r"(?P<c>[1-6])|(?P<x>[1-6]) and (?P<y>[1-6])|(?P<one>[1-6]))")


def _passed_entry(side: int, numbers: str, text: str, n: int) -> Thrown:
    """The numbers passed on a record line states ("5", "2 × 4", "6 and 5", "4, 4 and 3"), as
    the stage's throw."""
    m = _PASSED.fullmatch(numbers)
    if m is None:
        raise RecordError(f"record entry {n}: {text!r}: numbers passed are written as \"5\", "
                          f"\"2 × 4\", \"6 and 5\" or \"4, 4 and 3\"")
    g = m.groupdict()
    if g["n"]:
        return Thrown(side, int(g["d"]), int(g["d"]), None, 0, int(g["n"]))
    if g["a"]:
        return Thrown(side, int(g["a"]), int(g["b"]), None, int(g["c"]), 3)
    if g["x"]:
        return Thrown(side, int(g["x"]), int(g["y"]), None, 0, 2)
    return Thrown(side, int(g["one"]), int(g["one"]), None, 0, 1)


def record_of(game: Game, seed: Any, players: Sequence[str], options: Sequence[str] = (),
              index: int = 0) -> Record:
    """The record of `game` (played with `keep_record`, seeded `f"{seed}/{index}"`) so far: it
    names the variant the play was started with (a rotation's, not that of its current game)."""
    v = game.root
    return Record(v.id, seed, (players[0], players[1]), (game.doubles[0], game.doubles[1]),
                  tuple(options), tuple(v.files), list(game.record), index,
                  variant_source(v))


def variant_source(variant: Any) -> str | None:
    """The absolute path of the file a variant was loaded from, or None for a built-in variant
    (named by its id alone)."""
    from interpreter.resources import builtin_variant_path

    path = getattr(variant, "path", None)
    if path is None:
        return None
    try:
        here = Path(path).resolve()
        builtin = builtin_variant_path(variant.id)
        if builtin is not None and builtin.resolve() == here:
            return None
    except OSError:
        return None
    return str(here)


class Replay:
    """A record played again; `game` is suspended where the record stops (`pending` is the
    decision asked then, None when the play is over: `result`)."""

    def __init__(self, record: Record, variant: Any, players: Sequence[Any] | None = None,
                 max_turns: int = 20000):
        self.record = record
        self.game = game = Game(variant, record.game_seed, max_turns=max_turns, keep_record=True,
                                doubles=record.doubles, resigns=True)
        # a person's hints play the answers out on copies of the game, as in a game begun
        # at the board (engine/branch.py)
        game.branching = any(getattr(p, "kind", None) == "human" for p in players or ())
        self.players = players
        self._gen = game.play()
        self.pending: Decision | None = None
        self.result: GameResult | None = None
        self._seen = 0
        self._run()

    def _check(self) -> None:
        """The entries the game made since the last look must be the record's."""
        made = self.game.record
        want = self.record.entries
        while self._seen < len(made) and self._seen < len(want):
            got, exp = made[self._seen], want[self._seen]
            if isinstance(got, Thrown) or isinstance(exp, Thrown):
                # (the game's throws hold the board before them, the record's do not: it is
                # not compared)
                if got != exp:
                    throw = sum(1 for e in made[:self._seen + 1] if isinstance(e, Thrown))
                    raise RecordError(
                        f"record entry {self._seen + 1} (throw {throw}): the record says "
                        f"{entry_text(exp)!r} but the seed gives {entry_text(got)!r}")
            self._seen += 1

    def _run(self) -> None:
        gen = self._gen
        want = self.record.entries
        try:
            d = next(gen)
            while True:
                self._check()
                k = len(self.game.record)
                if k >= len(want):
                    self.pending = d
                    return
                exp = want[k]
                if isinstance(exp, Decided) and exp.kind == "resigns" and exp.side == d.player:
                    try:
                        d = gen.send(Resign(exp.answer))
                    except IllegalAnswer as exc:
                        raise RecordError(f"record entry {k + 1} ({entry_text(exp)!r}): {exc}") \
                            from None
                    continue
                if not isinstance(exp, Decided) or exp.side != d.player or exp.kind != d.kind:
                    raise RecordError(
                        f"record entry {k + 1}: the record says {entry_text(exp)!r} but the "
                        f"game asks {SIDE_NAMES[d.player]} a {d.kind!r} decision here")
                try:
                    i = d.index(exp.answer)
                except IllegalAnswer as exc:
                    raise RecordError(f"record entry {k + 1} ({entry_text(exp)!r}): {exc}") \
                        from None
                if self.players is not None:
                    hook = getattr(self.players[d.player], "replayed", None)
                    if hook is not None:
                        hook(d, i)
                d = gen.send(i)
        except StopIteration as stop:
            self._check()
            if self._seen < len(want):
                raise RecordError(f"record entry {self._seen + 1}: {entry_text(want[self._seen])!r}"
                                  f" comes after the end of the play") from None
            self.result = stop.value
            self.pending = None

    def resume(self, players: Sequence[Any]) -> GameResult:
        """Play on from where the record stops, each decision answered by `players`."""
        if self.result is not None:
            return self.result
        answer = (players[0].answer, players[1].answer)
        gen = self._gen
        d = self.pending
        try:
            while True:
                d = gen.send(answer[d.player](d))      # type: ignore[union-attr]
        except StopIteration as stop:
            self.result = stop.value
            self.pending = None
            return stop.value


def replay(record: Record, variant: Any, players: Sequence[Any] | None = None,
           max_turns: int = 20000) -> Replay:
    """Play `record` again through the rules (RecordError names the first disagreement)."""
    return Replay(record, variant, players, max_turns)
