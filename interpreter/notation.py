"""How people name the points of the board: the notations of `--notation`, for the log, the
board, move entry and the web board (no terminal code here).

Every position in Tablier is held from the player on roll, by pips: his route runs from pip 24
to pip 1, the bar is 25 and off is 0 (kernel/board.py). A notation names those pips as the
players of a game write them:

- `pips` (every variant, the default) and `magriel`: the pips themselves, as the position JSON
  and gnubg write them (`24/18 13/11*`, `bar/22`, `6/off`);
- for the trictrac board (two rows of twelve, both talons at the same end; the treatises' point
  M, counted from the talon, is pip 25 - M):
  - `guiton` (Guiton, Charpentier, Lelasseux-Lafosse): the own row T (or 0), 1..11 from the talon
    to the coin de repos, the opponent's row counted from *his* talon, written with a prime
    (`T'`, `1'` ... `11'`, his coin);
  - `malfilatre` (Malfilâtre, trictrac.org): 1..12 on each side from its talon, the opponent's
    row with a prime (`1'` is his talon); trictrac.org's colour letters `B1`..`B12` (white's
    row) and `N1`..`N12` (black's row) are read too;
  - `lepeintre`: the letters A..Y without W, absolute: A is white's talon, so the same point has
    the same letter whoever is on roll (Y is black's talon).

Which notations a variant has, and the names of its points (talon, coin de repos...), are its
file's to say, in its `[notation]` table; `notation_for(variant, name)` refuses a notation the
variant has no meaning for, naming those it has.

A play is text: steps `from/to` separated by spaces, chains (`8/2*/1`), repeats (`24/18(2)`), a
`*` after a point where a blot is hit (optional when reading), `bar`, `off` and `in` (a checker
entering from off the board, acey-deucey: `in/20`).

On the 36 points of XII scripta (`Notation.geometry` wide) the pips run 36..1 and 25 is a
point: the bar and `in` are only words (numbered 37 and 38 by `label` and `pip_of`), and the
kernel's steps, which name the board's slots, are read and written through the geometry
(`bar/34 in/35 33/31*/27 7/off`).

    >>> n = Notation("guiton")
    >>> n.label(24, 0), n.label(13, 0), n.label(12, 0), n.label(1, 0)
    ('T', '11', "11'", "T'")
    >>> n.parse("T/5 T/3", 0)
    [(24, 19), (24, 21)]
    >>> Notation("lepeintre").label(24, 1)
    'Y'
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from interpreter.errors import TablierError, CommandLineError
from interpreter.kernel.board import their_pip
from interpreter.kernel.notation import (WIDE_TOKEN, Reading, join_moves, read_steps,
                                         wide_reading)

#: every notation Tablier knows; `pips` is every variant's, the others a variant file declares
SYSTEMS = ("pips", "guiton", "malfilatre", "magriel", "lepeintre")
#: Lepeintre's letters: A..Y without W, A = white's talon (the treatises' point 1)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVXY"
BAR, OFF = 25, 0
#: the checkers waiting off the board to enter (acey-deucey), written `in` (`in/20`)
UNENTERED = 29
SIDES = ("white", "black")


class NotationError(TablierError):
    """A notation a variant has no meaning for, or a play text it cannot read."""


#: a steps token of any notation: a point (the notation's own pattern), a keyword, a separator
_KEYWORD = (r"(?P<unentered>in\b)|(?P<bar>bar\b|ba\b|b(?=[/\s*(,]|$))"
            r"|(?P<off>off\b|of\b|o(?=[/\s*(,]|$)|-(?=[\s,]|$))")
_SYNTAX = (r"|(?P<slash>/)|(?P<hit>\*)|\((?P<rep>[0-9]{1,2})\)|(?P<sep>[\s,]+)"
           r"|(?P<unstack>u(?![a-z]))")
_POINT = {
    "pips": r"(?P<point>[0-9]{1,2})",
    "magriel": r"(?P<point>[0-9]{1,2})",
    "guiton": r"(?P<point>(?:[0-9]{1,2}|t)'?)",
    "malfilatre": r"(?P<point>[bn][0-9]{1,2}|[0-9]{1,2}'?)",
    "lepeintre": r"(?P<point>[a-vxy])",
}
# the pips and magriel accept gnubg's short words (`b`, `o`, `-`); the lettered notations only
# the whole words, since `b` and `o` are points there
_LONG_KEYWORDS = r"(?P<unentered>in\b)|(?P<bar>bar\b)|(?P<off>off\b)"


@dataclass(frozen=True)
class Notation:
    """One notation for one variant: `label(pip, side)` names a point of the mover `side`
    (0 white, 1 black), `parse(text, side)` reads a play into (from, to) pip steps,
    `play_text(before, steps, side)` writes one. `names` are the variant's point names (pip of
    the mover → name)."""

    name: str = "pips"
    names: dict[int, str] = field(default_factory=dict)
    #: the variant's route (kernel/board.py): where the opponent's named points lie
    route: str = "opposite"
    #: the length of each side's route (`[board] points`: 24, 12 or 18): a play names pips
    #: 1..points, a checker entering from the bar lands on pip points + 1 - d
    points: int = 24
    #: plays are written move by move in the order played, nothing joined or sorted: where a
    #: hit man is placed by what the hitter holds at that moment (`hit = "place"`), the order
    #: of the moves is part of the play
    ordered: bool = False
    #: the board's geometry where its slots are not its pips (a board of 36 points), else None
    geometry: Any = None

    @property
    def wide(self) -> bool:
        return self.points > 24

    def __post_init__(self) -> None:
        if self.name not in SYSTEMS:
            raise NotationError(f"unknown notation {self.name!r}; Tablier knows "
                                f"{', '.join(SYSTEMS)}")

    # -- naming points ----------------------------------------------------------------------

    def label(self, pip: int, side: int = 0) -> str:
        """The notation's name of the mover's pip `pip` (25 the bar, 0 off, 29 the checkers
        waiting off the board to enter; on a board of 36 points, where 25 and 29 are points,
        the bar is 37 and those waiting 38)."""
        if self.points > 24:
            if pip == self.points + 1:
                return "bar"
            if pip == self.points + 2:
                return "in"
            if pip == OFF:
                return "off"
            if not 1 <= pip <= self.points:
                raise NotationError(f"no such point: pip {pip}")
            return str(pip)
        if pip == BAR:
            return "bar"
        if pip == UNENTERED:
            return "in"
        if pip == OFF:
            return "off"
        if not 1 <= pip <= 24:
            raise NotationError(f"no such point: pip {pip}")
        m = 25 - pip                    # the treatises' point, counted from the mover's talon
        name = self.name
        if name in ("pips", "magriel"):
            return str(pip)
        if name == "guiton":
            k = m - 1 if m <= 12 else 24 - m
            text = "T" if k == 0 else str(k)
            return text if m <= 12 else text + "'"
        if name == "malfilatre":
            return str(m) if m <= 12 else f"{25 - m}'"
        # lepeintre: absolute, A at white's talon
        return LETTERS[(m if side == 0 else pip) - 1]

    def point_name(self, pip: int) -> str | None:
        """The variant's name of the mover's pip (`talon`, `coin de repos`), or of the opponent's
        (`the opponent's talon`); None for an unnamed point."""
        if pip in self.names:
            return self.names[pip]
        other = self.names.get(their_pip(self.route, pip, self.points)) \
            if 1 <= pip <= self.points else None
        return None if other is None else f"the opponent's {other}"

    def described(self, pip: int, side: int = 0) -> str:
        """The label with the point's name beside it: `T (talon)`, `13 (coin de repos)`."""
        label = self.label(pip, side)
        name = self.point_name(pip)
        return f"{label} ({name})" if name else label

    def pip_of(self, token: str, side: int = 0) -> int:
        """The mover's pip a point token of this notation names (NotationError if none)."""
        t = token.strip()
        low = t.lower()
        if self.points > 24:
            return self._wide_pip(t, low)
        if low in ("bar",) or (self.name in ("pips", "magriel") and low in ("b", "ba")):
            return BAR
        if low == "in":
            return UNENTERED
        if low in ("off",) or (self.name in ("pips", "magriel") and low in ("o", "of", "-")):
            return OFF
        name = self.name
        beyond = 0
        try:
            if name in ("pips", "magriel"):
                pip = int(t)
                if self.points < pip < BAR and t.isdigit():
                    beyond = pip        # past the end of a route of 12 or 18 points
                elif 0 <= pip <= 25 and t.isdigit():
                    return pip
            elif name == "guiton":
                theirs = t.endswith("'")
                k_text = t[:-1] if theirs else t
                k = 0 if k_text.lower() == "t" else int(k_text)
                if 0 <= k <= 11 and (k_text.lower() == "t" or k_text.isdigit()):
                    m = 24 - k if theirs else k + 1
                    return 25 - m
            elif name == "malfilatre":
                if low[:1] in ("b", "n"):
                    k = int(t[1:])
                    if 1 <= k <= 12 and t[1:].isdigit():
                        own_row = (low[0] == "b") == (side == 0)
                        m = k if own_row else 25 - k
                        return 25 - m
                else:
                    theirs = t.endswith("'")
                    k_text = t[:-1] if theirs else t
                    k = int(k_text)
                    if 1 <= k <= 12 and k_text.isdigit():
                        m = 25 - k if theirs else k
                        return 25 - m
            elif len(t) == 1 and t.upper() in LETTERS:
                rank = LETTERS.index(t.upper()) + 1
                m = rank if side == 0 else 25 - rank
                return 25 - m
        except ValueError:
            pass
        if beyond:
            raise NotationError(f"there is no point {beyond}: the route of this board has "
                                f"{self.points} points ({self.examples()})")
        raise NotationError(f"{token!r} is not a point in the {name} notation "
                            f"({self.examples()})")

    def _wide_pip(self, t: str, low: str) -> int:
        if low in ("bar", "b", "ba"):
            return self.points + 1
        if low == "in":
            return self.points + 2
        if low in ("off", "o", "of", "-"):
            return OFF
        if t.isascii() and t.isdigit() and 0 <= int(t) <= self.points:
            return int(t)
        if t.isascii() and t.isdigit():
            raise NotationError(f"there is no point {int(t)}: the route of this board has "
                                f"{self.points} points ({self.examples()})")
        raise NotationError(f"{t!r} is not a point in the {self.name} notation "
                            f"({self.examples()})")

    def examples(self) -> str:
        """The shape of the notation's point names, for messages and help."""
        return {
            "pips": f"pips 1-{self.points} of the player on roll, bar, off",
            "magriel": f"pips 1-{self.points} of the player on roll, bar, off",
            "guiton": "T and 1-11 on your row from your talon, T' and 1'-11' on the "
                      "opponent's from his, off",
            "malfilatre": "1-12 on your row from your talon, 1'-12' on the opponent's from his "
                          "(or B1-B12 white's row, N1-N12 black's), off",
            "lepeintre": "the letters A-Y without W, A white's talon, Y black's, off",
        }[self.name]

    # -- reading plays ----------------------------------------------------------------------

    def _tokens(self) -> re.Pattern[str]:
        keywords = _KEYWORD if self.name in ("pips", "magriel") else _LONG_KEYWORDS
        return _token_pattern(keywords + "|" + _POINT[self.name] + _SYNTAX)

    def parse(self, text: str, side: int = 0,
              hits: list[int] | None = None) -> list[tuple[int, int]]:
        """The (from, to) pip steps a play text names, in the order written; chains are split
        (`8/2/1` is 8/2 then 2/1), `(n)` repeats the preceding move n times in all, `*` and `,`
        are ignored (the pips marked `*` are appended to `hits` when it is given, for the
        caller to check that something is hit there). NotationError names what is
        unreadable."""
        if not isinstance(text, str):
            raise NotationError(f"a play must be text, not {text!r}")
        if len(text) > 200:
            raise NotationError(f"unreadable play {text[:40]!r}...: too long")
        s = text.strip()
        if s in ("", "-"):
            return []
        if self.wide:
            steps = read_steps(text, s, WIDE_TOKEN, wide_reading(
                self.points, NotationError, self.label), hits)
            if self.geometry is None:
                return steps
            # the kernel's steps name the board's slots
            slot = self.geometry.slot_of_code
            return [(slot(a), slot(b)) for a, b in steps]
        return read_steps(text, s, self._tokens(), self._reading(side), hits)

    def _reading(self, side: int) -> Reading:
        label = partial(self.label, side=side)

        def backwards(a: int, b: int) -> str:
            return (f"{label(a)}/{label(b)} moves backwards (your checkers move from "
                    f"{label(self.points)} towards {label(1)})")

        return Reading(NotationError, partial(self.pip_of, side=side), label,
                       repeats=(2, 4), repeat_message="a repeat count is 2 to 4",
                       no_destination=(BAR,), backwards=backwards, max_steps=8,
                       steps_message=lambda n: f"{n} moves")

    # -- writing plays ----------------------------------------------------------------------

    def play_text(self, before: Sequence[int], steps: Sequence[Any], side: int = 0) -> str:
        """A play as backgammon players write it, in this notation: one checker's moves joined
        (`24/15`, not `24/20 20/15`), a point on the way kept only where it hit (`13/7*/5*`),
        equal moves counted (`24/20(2)`), from the farthest back, a `*` where a blot of the
        opponent stood at the start of the play; `-` for no move. `steps` are (from, to) pairs
        (or kernel steps) in the order played; `before` is the board."""
        moves: list[tuple[int, int, bool]] = []
        hit_marked: set[int] = set()
        if self.wide and self.geometry is not None:
            code = self.geometry.code
            for st in steps:
                a, b = code(int(st[0])), code(int(st[1]))
                hit = b != OFF and before[int(st[1])] < 0 and b not in hit_marked
                if hit:
                    hit_marked.add(b)
                moves.append((a, b, hit))
            return self.written(moves, side)
        for st in steps:
            a, b = int(st[0]), int(st[1])
            hit = 1 <= b <= 24 and before[b] < 0 and b not in hit_marked
            if hit:
                hit_marked.add(b)
            moves.append((a, b, hit))
        return self.written(moves, side)

    def written(self, moves: Sequence[tuple[int, int, bool]], side: int = 0) -> str:
        """The text of a play from its moves `(from, to, hit)` in the order played, as
        `play_text` writes it."""
        if not moves:
            return "-"
        # a pair unstacked (a move from a point to itself) is written `19u`, first
        unstacks = [f"{self.label(a, side)}u" for a, b, _hit in moves if a == b]
        if unstacks:
            rest = [m for m in moves if m[0] != m[1]]
            return " ".join(unstacks + ([self.written(rest, side)] if rest else []))
        if self.ordered:
            return " ".join(f"{self.label(a, side)}/{self.label(b, side)}{'*' if hit else ''}"
                            for a, b, hit in moves)
        # a checker that moves on from where one arrived: one chain
        chains = join_moves(moves)
        chains.sort(key=lambda c: (-c[0][0], -c[-1][0]))
        parts: list[str] = []
        for chain in chains:
            # the start, the points where it hit on the way, and where it stopped
            kept = [chain[0]] + [pt for pt in chain[1:-1] if pt[1]] + [chain[-1]]
            parts.append("/".join(self.label(pt, side) + ("*" if hit else "")
                                  for pt, hit in kept))
        # equal moves counted, a hit by either of them marked once (`24/18*(2)`)
        out: list[str] = []
        i = 0
        while i < len(parts):
            j = i
            plain = parts[i].replace("*", "")
            marked = parts[i]
            while j + 1 < len(parts) and parts[j + 1].replace("*", "") == plain:
                j += 1
                if parts[j].count("*") > marked.count("*"):
                    marked = parts[j]
            out.append(marked if j == i else f"{marked}({j - i + 1})")
            i = j + 1
        return " ".join(out)

    def log_text(self, text: str, side: int = 0) -> str:
        """A play as a record holds it (pips, one step a move in the order played, `*` on the
        hits: `24/20 20/15`) written as `play_text` writes it, in this notation; any other
        text (`-`, an answer of another kind) as `from_pips` gives it."""
        moves = _record_moves(text, self.points if self.wide else 0)
        if moves is None:
            return text if self.wide else self.from_pips(text, side)
        return self.written(moves, side)

    def from_pips(self, text: str, side: int = 0) -> str:
        """A play written in pips (as records and logs hold it: `24/18 13/11*`) in this
        notation, token by token: its chains, repeats and hit marks are kept as written; the
        bar (25), off (0) and the checkers waiting to enter (29) by their words.

            >>> PIPS.from_pips("25/22 6/0 29/20")
            'bar/22 6/off in/20'
        """
        if text.strip() in ("", "-"):
            return text
        pattern = PIPS._tokens()
        out: list[str] = []
        pos = 0
        while pos < len(text):
            m = pattern.match(text, pos)
            if not m or m.end() == pos:
                return text             # not a play (an answer of another kind): as it is
            kind = m.lastgroup
            if kind == "point":
                pip = int(m.group("point"))
                out.append(self.label(pip, side) if pip <= BAR or pip == UNENTERED
                           else m.group(0))
            elif kind == "bar":
                out.append("bar")
            elif kind == "unentered":
                out.append("in")
            elif kind == "off":
                out.append("off")
            else:
                out.append(m.group(0))
            pos = m.end()
        return "".join(out)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _token_pattern(source: str) -> re.Pattern[str]:
    p = _PATTERNS.get(source)
    if p is None:
        p = _PATTERNS[source] = re.compile(source, re.IGNORECASE | re.ASCII)
    return p


PIPS = Notation("pips")


_RECORD_STEP = re.compile(r"(in|bar|\d{1,2})/(off|\d{1,2})(\*?)$")
#: a pair unstacked, as records hold it (`19u`)
_RECORD_UNSTACK = re.compile(r"(\d{1,2})u$")


def _record_moves(text: str, wide: int = 0) -> list[tuple[int, int, bool]] | None:
    """The moves `(from, to, hit)` of a play written one step a move in pips, as records hold
    it (`25/22* 6/0 in/20`); None for any other text. `wide`: the points of a board of 36,
    whose records write the bar and `in` as words only (`bar/34 in/35 33/31*`)."""
    words = text.split()
    if not words:
        return None
    out: list[tuple[int, int, bool]] = []
    for w in words:
        u = _RECORD_UNSTACK.match(w)
        if u is not None:
            out.append((int(u.group(1)), int(u.group(1)), False))
            continue
        m = _RECORD_STEP.match(w)
        if m is None:
            return None
        if wide:
            a = wide + 2 if m.group(1) == "in" else wide + 1 if m.group(1) == "bar" \
                else int(m.group(1))
            out.append((a, OFF if m.group(2) == "off" else int(m.group(2)), bool(m.group(3))))
            continue
        a = UNENTERED if m.group(1) == "in" else BAR if m.group(1) == "bar" else int(m.group(1))
        b = OFF if m.group(2) == "off" else int(m.group(2))
        out.append((a, b, bool(m.group(3))))
    return out


def notation_table(variant: Any) -> Any:
    return getattr(getattr(variant, "model", None), "notation", None)


def notations_of(variant: Any) -> tuple[str, ...]:
    """The notations a variant has: `pips`, then those its `[notation]` table declares."""
    table = notation_table(variant)
    declared = tuple(getattr(table, "systems", ()) or ())
    return ("pips",) + tuple(s for s in declared if s != "pips")


def point_names(variant: Any) -> dict[int, str]:
    table = notation_table(variant)
    return {int(k): v for k, v in (getattr(table, "names", None) or {}).items()}


def in_sentence(title: str) -> str:
    """A title (`The goal quarter`) as it reads inside a sentence (`the goal quarter`): an
    article first in lower case, any other word as it is."""
    if title.split(" ", 1)[0] in ("The", "A", "An"):
        return title[:1].lower() + title[1:]
    return title


_PIP_RANGE = re.compile(r"^\s*(\d{1,2})\s*[-–]\s*(\d{1,2})\s*$")


def chosen(variant: Any, board: Sequence[int]) -> list[tuple[Any, str, range | None]]:
    """The choices made before the game's first throw (`[turn.choose]`) as the player on roll
    sees them: (the choice, the label of his value, the pips it names where the label is a
    range of his pips, `19-24`, else None), for each choice whose value on `board` (his
    named state) is one of the file's. A label names the chooser's values in his own numbers,
    and each side's value is held in his own numbers: the label of the mover's value is right
    for him whoever chose."""
    out: list[tuple[Any, str, range | None]] = []
    for rule in getattr(variant, "choices", ()) or ():
        if rule.mine >= len(board):
            continue
        value = board[rule.mine]
        if value not in rule.values:
            continue
        label = rule.labels[rule.values.index(value)]
        m = _PIP_RANGE.match(label)
        pips = None
        if m:
            lo, hi = sorted((int(m.group(1)), int(m.group(2))))
            if 1 <= lo and hi <= getattr(getattr(variant, "geometry", None), "points", 24):
                pips = range(lo, hi + 1)
        out.append((rule, label, pips))
    return out


def notation_for(variant: Any, name: str | None = None) -> Notation:
    """The notation `name` (default `pips`) for `variant`, with its point names; NotationError
    when the variant has no meaning for it, naming those it has."""
    name = name or "pips"
    have = notations_of(variant)
    if name not in have:
        known = "" if name in SYSTEMS else " (not a notation Tablier knows)"
        raise NotationError(f"{getattr(variant, 'id', 'this variant')!r} has no {name!r} "
                            f"notation{known}; it has {', '.join(have)}")
    geometry = getattr(variant, "geometry", None)
    rules = getattr(variant, "move_rules", None)
    points = getattr(geometry, "points", 24)
    return Notation(name, point_names(variant), getattr(geometry, "route", "opposite"),
                    points, getattr(rules, "hit", "") == "place",
                    geometry if points > 24 else None)


def cli_notation(variant: Any, name: str | None) -> Notation:
    """`--notation NAME` of a command: a notation the variant has no meaning for is a bad
    command line (exit code 2), naming those it has."""
    try:
        return notation_for(variant, name)
    except NotationError as exc:
        raise CommandLineError(f"--notation: {exc}") from None


__all__ = ["Notation", "NotationError", "SYSTEMS", "PIPS", "notation_for", "notations_of",
           "point_names"]
