"""Reading untrusted input within bounds: files, TOML and JSON text, numbers.

Rule files and records come from strangers (docs/security.md). Everything that reads one goes
through here, so that no input can make a command read forever, run out of memory, recurse past
Python's stack or raise anything but a `TablierError`:

- a file is read once: opened without blocking (a FIFO does not hang the open), checked to be a
  regular file with `fstat`, and read up to `MAX_FILE_BYTES` (1 MiB) plus one byte, so that a
  larger file is refused without reading it all (`read_bytes`, `read_text`, `read_toml`);
- TOML text is scanned before `tomllib` sees it: arrays and inline tables nest at most
  `MAX_TOML_DEPTH` deep, a dotted key has at most `MAX_KEY_PARTS` parts, a bare value (a number,
  a date) has at most `MAX_BARE_CHARS` characters (`toml_fault`, `parse_toml`);
- a JSON line has at most `MAX_LINE_BYTES` characters and nests at most `MAX_JSON_DEPTH` deep,
  and a JSON integer has at most `MAX_JSON_DIGITS` digits (`parse_json`, `json_lines`);
- `shown` quotes any value in a message in a few dozen characters.

    >>> parse_json('{"dice": [3, 1]}')
    {'dice': [3, 1]}
    >>> parse_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    interpreter.errors.InputError: the JSON nests 100 deep (at most 32)
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from interpreter.errors import InputError

#: the values a number of the named state (`[turn.state]`) may hold, on the board and in rules
STATE_MIN, STATE_MAX = 0, 1000

MAX_FILE_BYTES = 1 << 20
MAX_LINE_BYTES = 1 << 16
MAX_JSON_DEPTH = 32
MAX_JSON_DIGITS = 18
MAX_TOML_DEPTH = 32
MAX_KEY_PARTS = 32
MAX_BARE_CHARS = 100
_LONG_BARE = re.compile(r"[^\s\"'#\[\]{}=,.]{%d,}" % (MAX_BARE_CHARS + 1))
#: the largest integer a variant file or a record may hold (in absolute value): every count,
#: score, length and option of the games fits, and no arithmetic on them gets expensive
MAX_INT = 10**9
#: the range of a seed (`--seed`, the web board's "seed"): any integer a 64-bit seed can hold
SEED_RANGE = (-(2**63), 2**63 - 1)
#: the most games of one run (`--games` of simulate and compare): the number of a game in a run
#: (`play --game K`, a save's `game.index`) is below it
MAX_GAMES = 10_000_000
#: the most replicates of one run (`--replicates` of simulate and compare)
MAX_REPLICATES = 100


# -- quoting input in messages ---------------------------------------------------------------------

def shown(value: Any, limit: int = 60) -> str:
    """`repr(value)` cut to about `limit` characters (never raising: an integer too large to
    print is described by its size)."""
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's int-to-str limit
        return f"a number of {value.bit_length()} bits" if isinstance(value, int) else "?"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown_name(name: str, limit: int = 60) -> str:
    """A file name or an identifier for a message, cut to about `limit` characters."""
    text = name.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0")
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- files -----------------------------------------------------------------------------------------

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _fail(display: str, code: str, reason: str) -> InputError:
    return InputError(f"cannot read {display}: {reason}", code=code, reason=reason)


def read_bytes(path: str | os.PathLike[str], *, display: str | None = None,
               limit: int = MAX_FILE_BYTES, suffix: str | None = None) -> bytes:
    """The content of the regular file `path`, at most `limit` bytes.

    Raises `InputError` (code `file-not-found`, `unreadable` or `limit`) for a name that cannot
    be opened (missing, too long, holding a NUL, no permission), for what is not a regular file
    (a directory, a FIFO, a device, a socket) and for a file larger than `limit`. The file is
    opened once, without blocking and without following it to a terminal, and read once.
    With `suffix` (".toml"), the file's real path (links followed) must end in it too, checked
    on the file opened: a link `pw.toml` to another file is refused before a byte is read."""
    try:
        name = os.fspath(path)
    except TypeError:
        raise _fail(display or shown(path), "unreadable", "not a file name") from None
    text_name = os.fsdecode(name)
    shown_path = display if display is not None else shown_name(text_name, 200)
    if "\0" in text_name:
        raise _fail(shown_path, "unreadable", "a file name cannot hold a NUL character")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise _fail(shown_path, "file-not-found", "no such file") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise _fail(shown_path, "unreadable", reason.lower()) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((k for test, k in _KINDS if test(info.st_mode)), "a special file")
            raise _fail(shown_path, "unreadable", f"it is {kind}, not a regular file")
        if suffix is not None:
            fault = _suffix_fault(name, info, suffix)
            if fault is not None:
                raise _fail(shown_path, "unreadable", fault)
        if info.st_size > limit:
            raise _too_large(shown_path, limit)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:   # a file that grew, or one whose size fstat does not tell (/proc)
            raise _too_large(shown_path, limit)
        return b"".join(chunks)
    except OSError as error:
        raise _fail(shown_path, "unreadable", (error.strerror or str(error)).lower()) from None
    finally:
        os.close(fd)


def _suffix_fault(name: str | bytes, opened: os.stat_result, suffix: str) -> str | None:
    """Why the file opened (`opened`, its fstat) may not be read as a `suffix` file: its real
    path does not end in `suffix`, or is no longer the file opened. None when it may."""
    try:
        real = os.path.realpath(name)
        now = os.stat(real)
    except (OSError, ValueError):
        return "its real path cannot be followed"
    if not os.fsdecode(real).endswith(suffix):
        return (f"only `{suffix}` files are read, and this is a link to a file whose name does "
                f"not end in `{suffix}`" if os.fsdecode(name).endswith(suffix) else
                f"only `{suffix}` files are read as variant files")
    if (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
        return "the file changed while it was opened"
    return None


def toml_file_fault(path: str | os.PathLike[str]) -> str | None:
    """Why `path` may not be read as a variant file (a `.toml` regular file once links are
    followed), without opening it; None when it may. The same test `read_toml_file` makes on
    the file it opens."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None         # the read says why
    if not stat.S_ISREG(info.st_mode):
        kind = next((k for test, k in _KINDS if test(info.st_mode)), "a special file")
        return f"it is {kind}, not a regular file"
    return _suffix_fault(os.fspath(path), info, ".toml")


def read_toml_file(path: str | os.PathLike[str], *, display: str | None = None) -> str:
    """The text of a file read as a variant file (a variant, an `extends`, a rotation's game, a
    save's `variant_file`, a record's `variant`): a regular file whose real path ends in
    `.toml`, at most `MAX_FILE_BYTES`, UTF-8. Anything else is an `InputError` that quotes
    nothing of the file."""
    return read_text(path, display=display, suffix=".toml")


def _too_large(display: str, limit: int) -> InputError:
    return _fail(display, "limit", f"the file is larger than {_size(limit)}")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n % (1 << 20) == 0 else f"{n:,} bytes"


def read_text(path: str | os.PathLike[str], *, display: str | None = None,
              limit: int = MAX_FILE_BYTES, suffix: str | None = None) -> str:
    """`read_bytes` decoded as UTF-8 (`InputError` when it is not UTF-8 text)."""
    data = read_bytes(path, display=display, limit=limit, suffix=suffix)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        where = display if display is not None else shown_name(str(path), 200)
        raise _fail(where, "unreadable", f"not UTF-8 text (byte {error.start + 1})") from None


def read_toml(path: str | os.PathLike[str], *, display: str | None = None,
              limit: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """A bounded TOML file (a record, a saved game): `read_text`, then `parse_toml`. Every fault
    is an `InputError` naming the file and, for bad TOML, the line and column."""
    where = display if display is not None else shown_name(str(path), 200)
    text = read_text(path, display=where, limit=limit)
    try:
        return parse_toml(text)
    except InputError as error:
        raise InputError(f"{where}: {error.reason}", code=error.code, reason=error.reason,
                         line=error.line, col=error.col) from None


# -- TOML ------------------------------------------------------------------------------------------

_TOML_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*""""{0,2}'   # multi-line basic string
    r"|'''[\s\S]*?''''{0,2}"                      # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'                       # basic string
    r"|'[^'\n]*'"                                 # literal string
    r'|"""[\s\S]*|"[^\n]*'                        # unclosed: tomllib reports it
    r"|'''[\s\S]*|'[^\n]*"
    r"|#[^\n]*"
    r"|[\[\]{}=,.\n]"
    r"|[^\s\"'#\[\]{}=,.]{%d,}" % (MAX_BARE_CHARS + 1))   # only bare words too long matter
_KEY, _VALUE, _HEADER = 0, 1, 2


def toml_fault(text: str) -> tuple[int, int, str] | None:
    """(line, col, message) of the first place where `text` goes past the bounds that keep
    `tomllib` (and the source scanner of diagnostics) fast and within the stack: nesting,
    dotted keys and bare values; None when within them. This is not a TOML parser: it follows
    strings, comments, keys and values well enough to count, and leaves the syntax to tomllib."""
    if text.count("[") + text.count("{") <= MAX_TOML_DEPTH and \
            text.count(".") < MAX_KEY_PARTS and not _LONG_BARE.search(text):
        return None     # nothing to count: most files
    mode = _KEY
    stack: list[str] = []
    parts = 1
    for m in _TOML_TOKEN.finditer(text):
        tok = m.group()
        c = tok[0]
        if c == "\n":
            if not stack:
                mode, parts = _KEY, 1
        elif c in "\"'#":
            continue
        elif c == "=":
            if mode == _KEY:
                mode = _VALUE
        elif c == ".":
            if mode != _VALUE:
                parts += 1
                if parts > MAX_KEY_PARTS:
                    return (*_line_col(text, m.start()),
                            f"a dotted key has more than {MAX_KEY_PARTS} parts")
        elif c == "[":
            if mode == _KEY and not stack:
                mode, parts = _HEADER, 1
            elif mode == _VALUE:
                stack.append("[")
        elif c == "{":
            if mode == _VALUE:
                stack.append("{")
                mode, parts = _KEY, 1
        elif c in "]}":
            if mode != _HEADER and stack:
                stack.pop()
                mode = _VALUE
        elif c == ",":
            if stack and stack[-1] == "{":
                mode, parts = _KEY, 1
            elif stack:
                mode = _VALUE
        elif mode == _VALUE:   # a bare word longer than MAX_BARE_CHARS
            return (*_line_col(text, m.start()),
                    f"a value of {len(tok):,} characters that is not a string (a number has at "
                    f"most {MAX_BARE_CHARS})")
        if len(stack) > MAX_TOML_DEPTH:
            return (*_line_col(text, m.start()),
                    f"arrays and inline tables nest more than {MAX_TOML_DEPTH} deep")
    return None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def parse_toml(text: str) -> dict[str, Any]:
    """`tomllib.loads` within the bounds of `toml_fault`; `InputError` (code `limit` or
    `toml-syntax`, with `line` and `col`) otherwise."""
    fault = toml_fault(text)
    if fault is not None:
        line, col, message = fault
        raise InputError(f"line {line}, column {col}: {message}", code="limit",
                         reason=f"line {line}, column {col}: {message}", line=line, col=col)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        m = re.search(r"\(at line (\d+), column (\d+)\)$", message)
        line, col = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        reason = f"invalid TOML: {message[:1].lower()}{message[1:]}"
        raise InputError(reason, code="toml-syntax", reason=reason, line=line, col=col) from None
    except (ValueError, RecursionError, MemoryError) as error:  # beyond what the scan bounds
        reason = f"invalid TOML: {str(error)[:100]}"
        raise InputError(reason, code="limit", reason=reason) from None


# -- JSON ------------------------------------------------------------------------------------------

_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _json_int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_JSON_DIGITS:
        raise InputError(f"the number {shown_name(text, 24)} has {digits:,} digits (at most "
                         f"{MAX_JSON_DIGITS})", code="limit")
    return int(text)


def _json_constant(text: str) -> Any:
    raise InputError(f"{text} is not a JSON number", code="limit")


def _json_float(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused where it is too large for a float
    (`1e999` would read as infinity)."""
    value = float(text)
    if math.isinf(value):
        raise InputError(f"{shown(text)} is too large a number", code="limit")
    return value


def json_depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped)."""
    depth = deepest = 0
    for m in _JSON_NESTING.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def parse_json(text: str, *, limit: int = MAX_LINE_BYTES) -> Any:
    """One JSON value (a position, an `id encode` line, a JSON file) read within bounds: at most
    `limit` characters, nesting at most `MAX_JSON_DEPTH` deep, integers of at most
    `MAX_JSON_DIGITS` digits, no NaN or Infinity. `InputError` otherwise, and for text that is not
    JSON ("not a JSON object: ... at column N")."""
    if len(text) > limit:
        raise InputError(f"the JSON text has {len(text):,} characters (at most {limit:,})",
                         code="limit")
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        depth = json_depth(text)
        if depth > MAX_JSON_DEPTH:
            raise InputError(f"the JSON nests {depth} deep (at most {MAX_JSON_DEPTH})",
                             code="limit")
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"not a JSON object: {exc.msg} at column {exc.colno}",
                         code="syntax") from None
    except RecursionError:
        raise InputError(f"the JSON nests too deep (at most {MAX_JSON_DEPTH})",
                         code="limit") from None


def json_lines(stream: IO[Any], *, limit: int = MAX_LINE_BYTES
               ) -> Iterator[tuple[int, Any]]:
    """The JSON values of a stream of JSON lines (stdin of `moves`, `score`, `id encode`), as
    (line number, value or `InputError`); blank lines are skipped. Each line is read with a
    bounded `readline`, so that a stream without newlines (`/dev/zero`) cannot fill the memory:
    a line over `limit` yields its error and ends the stream. A binary stream must be UTF-8."""
    number = 0
    while True:
        raw = stream.readline(limit + 2)
        if not raw:
            return
        number += 1
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                if len(raw) > limit + 1 and not raw.endswith(b"\n"):
                    yield number, _overlong(number, limit)
                    return
                yield number, InputError(f"line {number} is not UTF-8 text (byte "
                                         f"{error.start + 1})", code="unreadable")
                continue
        else:
            line = raw
        body = line.rstrip("\r\n")
        if len(body) > limit:
            yield number, _overlong(number, limit)
            return
        if not body.strip():
            continue
        try:
            yield number, parse_json(body, limit=limit)
        except InputError as error:
            yield number, error


def _overlong(number: int, limit: int) -> InputError:
    return InputError(f"line {number} is longer than {limit:,} characters; reading stops",
                      code="limit")


def read_json(path: str | os.PathLike[str], *, display: str | None = None) -> Any:
    """A JSON file (a position for `draw`): `read_text` then `parse_json` over the whole file."""
    where = display if display is not None else shown_name(str(path), 200)
    text = read_text(path, display=where)
    try:
        return parse_json(text, limit=MAX_FILE_BYTES)
    except InputError as error:
        raise InputError(f"{where}: {error}", code=error.code, reason=str(error)) from None


# -- integers --------------------------------------------------------------------------------------

def is_int(value: Any) -> bool:
    """A true integer (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def in_range(value: Any, lo: int, hi: int) -> bool:
    """`value` is an integer (not a bool) from `lo` to `hi`."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def ascii_int(text: str, lo: int, hi: int) -> int | None:
    """The integer written with ASCII digits in `text` (an optional sign, no spaces, no `_`),
    when it lies from `lo` to `hi`; None otherwise. Python's `int()` also reads other scripts'
    digits ('٣' is 3), underscores and surrounding spaces, which a record must not."""
    if not re.fullmatch(r"[+-]?[0-9]{1,19}", text):
        return None
    value = int(text)
    return value if lo <= value <= hi else None


def display_path(path: str | Path) -> str:
    """A path for messages, cut when it is very long."""
    return shown_name(str(path), 200)
