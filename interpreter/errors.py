"""One exception family for every kind of bad input.

Each error is a `ValueError` with a lowercase message that quotes the input, so that the CLI can
print it and exit with code 1 instead of showing a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


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
        caret = " " * (self.col - 1) + "^" * max(1, self.length)
        return f"{head}\n  {self.source_line}\n  {caret}"


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
        super().__init__("\n".join(d.render() for d in self.diagnostics))


class PositionError(TablierError):
    """A position (JSON) that does not describe a legal arrangement for the variant."""


class IllegalMoveError(TablierError):
    """A play that the rules do not allow in the given position."""


class RecordError(TablierError):
    """A score-sheet record, a saved game or a match file that cannot be read or replayed."""


class CommandLineError(Exception):
    """A command line whose parts make no sense together (exit code 2, as argparse's own
    errors), found once the variant is known: a notation the variant has no meaning for."""
