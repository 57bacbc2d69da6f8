"""One exception family for every kind of bad input.

Each error is a `ValueError` with a lowercase message that quotes the input, so that the CLI can
print it and exit with code 1 instead of showing a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


class TablierError(ValueError):
    """Bad input of any kind: variant file, position, move, record, save file."""


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a file, at a 1-based line and column, `length` characters long."""

    path: str
    line: int
    col: int
    code: str
    message: str
    source_line: str = ""
    length: int = 1

    def render(self) -> str:
        head = f"{self.path}:{self.line}:{self.col}: error[{self.code}]: {self.message}"
        if not self.source_line:
            return head
        line, start, length = quoted_line(self.source_line, self.col, self.length)
        caret = " " * start + "^" * length
        return f"{head}\n  {line}\n  {caret}"


#: a key of a variant document, as the path of its tables and its name
KeyPath = tuple[str | int, ...]
#: where a problem's caret goes: under the key, under its value, or (a missing key) under the
#: key of the table that lacks it
Where = Literal["key", "value", "missing"]


@dataclass(frozen=True)
class Problem:
    """One fault in a variant document before it is given a file position (the loader knows
    which file set each key and makes it a `Diagnostic`): which key, a diagnostic code and a
    message, and where the caret goes ("key", "value", or "missing": under the key of the table
    that lacks `key_path`). The checks and the ladders (`Ladder.file_problems`) report them."""

    key_path: KeyPath
    code: str
    message: str
    where: Where = "value"
    #: other keys the fault may lie in (a starting position that does not add up to `checkers`):
    #: the diagnostic goes to whichever of them was set last
    alternatives: tuple[KeyPath, ...] = ()


#: the most characters of a source line a diagnostic quotes, around its caret
QUOTE_CHARS = 160
#: the most problems reported of one file; the rest are counted
MAX_PROBLEMS = 50
_CUT = "..."


def quoted_line(text: str, col: int, length: int = 1) -> tuple[str, int, int]:
    """The part of a source line a diagnostic shows: the whole line when it is short, else at
    most `QUOTE_CHARS` characters around column `col`, an ellipsis marking each cut; with the
    caret's start (0-based, in what is shown) and its length, cut to what is shown.

    >>> quoted_line("x" * 1000, 500, 3)[1:]
    (83, 3)
    >>> len(quoted_line("x" * 1000, 500)[0])
    166
    """
    at = max(0, col - 1)
    length = max(1, length)
    if len(text) <= QUOTE_CHARS:
        return text, at, max(1, min(length, len(text) - at))
    first = max(0, min(at - QUOTE_CHARS // 2, len(text) - QUOTE_CHARS))
    last = first + QUOTE_CHARS
    shown = (_CUT if first else "") + text[first:last] + (_CUT if last < len(text) else "")
    start = at - first + (len(_CUT) if first else 0)
    return shown, start, max(1, min(length, last - at))


def render_all(diagnostics: list[Diagnostic]) -> str:
    """Diagnostics rendered in turn, at most `MAX_PROBLEMS` of each file, then a line
    `PATH: ... and N more problems` for the rest of that file."""
    out: list[str] = []
    shown: dict[str, int] = {}
    for d in diagnostics:
        n = shown[d.path] = shown.get(d.path, 0) + 1
        if n <= MAX_PROBLEMS:
            out.append(d.render())
    for path, n in shown.items():
        if n > MAX_PROBLEMS:
            more = n - MAX_PROBLEMS
            out.append(f"{path}: ... and {more:,} more problem{'s' if more != 1 else ''}")
    return "\n".join(out)


class InputError(TablierError):
    """Input refused before it is read or parsed: a file that is not a regular file, is too large
    or cannot be opened; a line too long, nested too deep or holding a number too large
    (`interpreter.bounded`). `code` is the diagnostic code (`file-not-found`, `unreadable`,
    `limit`), `reason` the message without the file's name; `line`/`col` (1-based, 0 when not
    known) place a fault inside the text."""

    def __init__(self, message: str, *, code: str = "unreadable", reason: str | None = None,
                 line: int = 0, col: int = 0):
        super().__init__(message)
        self.code = code
        self.reason = reason if reason is not None else message
        self.line = line
        self.col = col


class VariantError(TablierError):
    """A variant file (or an override) that cannot be loaded; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(render_all(self.diagnostics))


class PositionError(TablierError):
    """A position (JSON) that does not describe a legal arrangement for the variant."""


class IllegalMoveError(TablierError):
    """A play that the rules do not allow in the given position."""


class RecordError(TablierError):
    """A score-sheet record, a saved game or a match file that cannot be read or replayed."""


class CommandLineError(Exception):
    """A command line whose parts make no sense together (exit code 2, as argparse's own
    errors), found once the variant is known: a notation the variant has no meaning for."""
