"""Where each key of a TOML document is written: a small, tolerant scanner of TOML source.

`tomllib` returns values without positions, so diagnostics that must point at a key or a value
(ruff and hatch put the caret under the key, not the table header) need this map. It is built
from the text alone and never raises: on text it does not understand it skips to the next line.

    >>> m = SourceMap('[dice]\\ndoublets = "four"  # played four times\\n')
    >>> m.key_position(("dice", "doublets"))
    (2, 1, 8)
    >>> m.value_position(("dice", "doublets"))
    (2, 12, 6)

Key paths are tuples of key names (as `tomllib` decodes them) and, inside arrays of values or
arrays of tables, 0-based indices. Every table, dotted key, inline table and array element gets
an entry; a table declared only implicitly (`rules` in `[rules.gammon]`) gets the position of its
first mention.
"""
from __future__ import annotations

import bisect
import tomllib
from dataclasses import dataclass, field

Path = tuple[str | int, ...]

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SIMPLE_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_HEX_LENGTH = {"u": 4, "U": 8}


@dataclass(frozen=True)
class Span:
    """A range of character offsets in the source, `end` excluded."""

    start: int
    end: int


@dataclass(frozen=True)
class StringSpan:
    """The content of a string value: its kind and the offsets between its delimiters (for
    multi-line strings, after the newline that TOML drops right after the opening quotes)."""

    kind: str  # "basic", "literal", "ml_basic", "ml_literal"
    content: Span


@dataclass
class Entry:
    """One key of the document: where its name is written and, for a value, where the value is."""

    key: Span
    value: Span | None = None
    string: StringSpan | None = None
    is_table: bool = False


@dataclass
class SourceMap:
    """The positions of every key of one TOML text."""

    text: str
    entries: dict[Path, Entry] = field(default_factory=dict)
    #: keys written twice: (path, span of the second key, span of the first)
    duplicates: list[tuple[Path, Span, Span]] = field(default_factory=list)
    #: strings, arrays and inline tables never closed: (what, span of the opening delimiter)
    unclosed: list[tuple[str, Span]] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._line_starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                self._line_starts.append(i + 1)
        if not self.entries:
            _Scanner(self).run()

    @classmethod
    def lines_only(cls, text: str) -> "SourceMap":
        """A map of the lines of `text` without its keys, for text the scanner must not walk
        (nesting past the bounds of `interpreter.bounded.toml_fault`)."""
        smap = cls.__new__(cls)
        smap.text = text
        smap.entries = {}
        smap.duplicates = []
        smap.unclosed = []
        smap._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        return smap

    # -- offsets and lines ---------------------------------------------------------------------

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def offset(self, line: int, col: int) -> int:
        """The character offset of a 1-based line and column (clamped to the text)."""
        line = max(1, min(line, len(self._line_starts)))
        return min(self._line_starts[line - 1] + max(col, 1) - 1, len(self.text))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line ending ('' past the end). The same
        string each time: thousands of diagnostics on one long line share one copy of it."""
        if not 1 <= line <= len(self._line_starts):
            return ""
        lines = self.__dict__.setdefault("_lines", {})
        text = lines.get(line)
        if text is None:
            start = self._line_starts[line - 1]
            end = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.text)
            text = lines[line] = self.text[start:end].rstrip("\r")
        return text

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def span_position(self, span: Span) -> tuple[int, int, int]:
        """(line, col, length) of a span, the length cut at the end of its first line."""
        line, col = self.line_col(span.start)
        rest = len(self.line_text(line)) - col + 1
        return line, col, max(1, min(span.end - span.start, rest))

    # -- keys -------------------------------------------------------------------------------------

    def find(self, path: Path) -> tuple[Path, Entry] | None:
        """The entry of `path`, or of its longest prefix that has one."""
        for n in range(len(path), 0, -1):
            entry = self.entries.get(tuple(path[:n]))
            if entry is not None:
                return tuple(path[:n]), entry
        return None

    def key_position(self, path: Path) -> tuple[int, int, int] | None:
        """(line, col, length) of the key of `path`, if the key is written in this text."""
        entry = self.entries.get(tuple(path))
        return None if entry is None else self.span_position(entry.key)

    def value_position(self, path: Path) -> tuple[int, int, int] | None:
        """(line, col, length) of the value of `path` (the key's position for a table)."""
        entry = self.entries.get(tuple(path))
        if entry is None:
            return None
        return self.span_position(entry.value if entry.value is not None else entry.key)

    def string_offsets(self, path: Path) -> tuple[str, list[int]] | None:
        """The decoded text of the string value at `path` and, for each of its characters, the
        offset in the source where that character is written (escapes map to their backslash)."""
        entry = self.entries.get(tuple(path))
        if entry is None or entry.string is None:
            return None
        return decode_string(self.text, entry.string)

    def snippet_position(self, path: Path, line: int, col: int,
                         length: int = 1) -> tuple[int, int, int] | None:
        """Map a 1-based (line, col) inside the string value at `path` to (line, col, length) in
        the file. None when `path` has no string value here."""
        decoded = self.string_offsets(path)
        if decoded is None:
            return None
        text, offsets = decoded
        lines = text.split("\n")
        line = max(1, min(line, len(lines)))
        index = sum(len(s) + 1 for s in lines[: line - 1]) + max(col, 1) - 1
        index = min(index, len(lines[line - 1]) + sum(len(s) + 1 for s in lines[: line - 1]))
        if not offsets:
            entry = self.entries[tuple(path)]
            assert entry.string is not None
            file_line, file_col = self.line_col(entry.string.content.start)
            return file_line, file_col, 1
        if index >= len(offsets):
            start = offsets[-1] + 1
        else:
            start = offsets[index]
        file_line, file_col = self.line_col(start)
        last = min(index + max(length, 1) - 1, len(offsets) - 1)
        end = offsets[last] + 1 if last >= index else start + 1
        end_line, _ = self.line_col(max(end - 1, start))
        if end_line != file_line or end <= start:
            end = start + max(1, min(length, len(self.line_text(file_line)) - file_col + 1))
        return file_line, file_col, max(1, end - start)


def decode_string(text: str, string: StringSpan) -> tuple[str, list[int]]:
    """Decode a string's content as TOML does, keeping the source offset of every character."""
    start, end = string.content.start, string.content.end
    if string.kind in ("literal", "ml_literal"):
        return text[start:end], list(range(start, end))
    out: list[str] = []
    offsets: list[int] = []
    i = start
    while i < end:
        ch = text[i]
        if ch != "\\" or i + 1 >= end:
            out.append(ch)
            offsets.append(i)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            offsets.append(i)
            i += 2
        elif nxt in _HEX_LENGTH:
            digits = text[i + 2 : i + 2 + _HEX_LENGTH[nxt]]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                out.append("?")
            offsets.append(i)
            i += 2 + _HEX_LENGTH[nxt]
        elif string.kind == "ml_basic" and nxt in " \t\r\n":
            # line-ending backslash: drops the newline and the whitespace after it
            j = i + 1
            while j < end and text[j] in " \t\r\n":
                j += 1
            i = j
        else:
            out.append(ch)
            offsets.append(i)
            i += 1
    return "".join(out), offsets


class _Scanner:
    """One pass over the text, filling a SourceMap. Tolerant: it never raises on bad TOML."""

    def __init__(self, smap: SourceMap):
        self.m = smap
        self.s = smap.text
        self.n = len(self.s)
        self.i = 0
        self.table: Path = ()
        self.values: set[Path] = set()  # keys holding a value (not a table)
        self.headers: set[Path] = set()  # tables declared with [header]
        self.array_tables: dict[Path, int] = {}

    def run(self) -> None:
        while self.i < self.n:
            start = self.i
            try:
                self._statement()
            except _Stop:
                self._skip_line()
            if self.i == start:  # never loop in place
                self._skip_line()

    # -- low level ----------------------------------------------------------------------------

    def _peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < self.n else ""

    def _skip_ws(self) -> None:
        while self.i < self.n and self.s[self.i] in " \t":
            self.i += 1

    def _skip_line(self) -> None:
        while self.i < self.n and self.s[self.i] != "\n":
            self.i += 1
        if self.i < self.n:
            self.i += 1

    def _skip_ws_newlines_comments(self) -> None:
        while self.i < self.n:
            ch = self.s[self.i]
            if ch in " \t\r\n":
                self.i += 1
            elif ch == "#":
                while self.i < self.n and self.s[self.i] != "\n":
                    self.i += 1
            else:
                return

    # -- statements -----------------------------------------------------------------------------

    def _statement(self) -> None:
        self._skip_ws_newlines_comments()
        if self.i >= self.n:
            return
        if self._peek() == "[":
            self._header()
        else:
            self._keyval(self.table)
        self._skip_ws()
        if self._peek() == "#" or self._peek() in ("\r", "\n", ""):
            self._skip_line()
        else:
            raise _Stop

    def _header(self) -> None:
        array = self._peek(1) == "["
        self.i += 2 if array else 1
        self._skip_ws()
        keys = self._key()
        self._skip_ws()
        close = "]]" if array else "]"
        if self.s.startswith(close, self.i):
            self.i += len(close)
        else:
            raise _Stop
        path: Path = tuple(k for k, _ in keys)
        if array:
            index = self.array_tables.get(path, -1) + 1
            self.array_tables[path] = index
            self._record_prefixes(path, keys, table=True)
            path = path + (index,)
            self.m.entries.setdefault(path, Entry(keys[-1][1], is_table=True))
        else:
            if path in self.headers or path in self.values:
                first = self.m.entries.get(path)
                self.m.duplicates.append((path, keys[-1][1], first.key if first else keys[-1][1]))
            self.headers.add(path)
            self._record_prefixes(path, keys, table=True)
        self.table = path

    def _keyval(self, prefix: Path) -> None:
        keys = self._key()
        self._skip_ws()
        if self._peek() != "=":
            raise _Stop
        self.i += 1
        self._skip_ws()
        path = prefix + tuple(k for k, _ in keys)
        self._record_prefixes(path[:-1], keys[:-1], table=True, base=prefix)
        if path in self.values or path in self.m.entries:
            first = self.m.entries.get(path)
            self.m.duplicates.append((path, keys[-1][1], first.key if first else keys[-1][1]))
            entry = Entry(keys[-1][1])
            self._value(path, entry)
            return
        entry = Entry(keys[-1][1])
        self.m.entries[path] = entry
        self.values.add(path)
        self._value(path, entry)

    def _record_prefixes(self, path: Path, keys: list[tuple[str, Span]], *, table: bool,
                         base: Path = ()) -> None:
        for n in range(1, len(keys) + 1):
            sub = base + tuple(k for k, _ in keys[:n])
            self.m.entries.setdefault(sub, Entry(keys[n - 1][1], is_table=table))

    def _key(self) -> list[tuple[str, Span]]:
        parts: list[tuple[str, Span]] = []
        while True:
            self._skip_ws()
            start = self.i
            ch = self._peek()
            if ch == '"':
                self.i += 1
                while self.i < self.n and self.s[self.i] not in '"\n':
                    self.i += 2 if self.s[self.i] == "\\" else 1
                if self._peek() != '"':
                    raise _Stop
                self.i += 1
                raw = self.s[start : self.i]
                try:
                    name = tomllib.loads(f"k = {raw}")["k"]
                except tomllib.TOMLDecodeError:
                    name = raw[1:-1]
            elif ch == "'":
                end = self.s.find("'", self.i + 1)
                if end < 0 or "\n" in self.s[self.i : end]:
                    raise _Stop
                self.i = end + 1
                name = self.s[start + 1 : end]
            else:
                while self.i < self.n and self.s[self.i] in _BARE:
                    self.i += 1
                if self.i == start:
                    raise _Stop
                name = self.s[start : self.i]
            parts.append((name, Span(start, self.i)))
            self._skip_ws()
            if self._peek() == ".":
                self.i += 1
                continue
            return parts

    # -- values -----------------------------------------------------------------------------------

    def _value(self, path: Path, entry: Entry) -> None:
        start = self.i
        ch = self._peek()
        if self.s.startswith('"""', self.i) or self.s.startswith("'''", self.i):
            entry.string = self._ml_string()
        elif ch and ch in "\"'":
            entry.string = self._string()
        elif ch == "[":
            self._array(path)
        elif ch == "{":
            entry.is_table = True
            self._inline_table(path)
        else:
            while self.i < self.n and self.s[self.i] not in ",]}#\r\n":
                self.i += 1
            end = self.i
            while end > start and self.s[end - 1] in " \t":
                end -= 1
            self.i = end
            if end == start:
                raise _Stop
        entry.value = Span(start, self.i)

    def _string(self) -> StringSpan:
        quote = self.s[self.i]
        open_at = self.i
        self.i += 1
        content = self.i
        while self.i < self.n and self.s[self.i] != quote and self.s[self.i] != "\n":
            if quote == '"' and self.s[self.i] == "\\" and self.i + 1 < self.n and \
                    self.s[self.i + 1] != "\n":
                self.i += 2
            else:
                self.i += 1
        if self._peek() != quote:
            self.m.unclosed.append(("string", Span(open_at, open_at + 1)))
            raise _Stop
        end = self.i
        self.i += 1
        return StringSpan("basic" if quote == '"' else "literal", Span(content, end))

    def _ml_string(self) -> StringSpan:
        delim = self.s[self.i : self.i + 3]
        open_at = self.i
        self.i += 3
        content = self.i
        if self.s.startswith("\r\n", content):
            content += 2
        elif self.s.startswith("\n", content):
            content += 1
        j = content
        while True:
            k = self.s.find(delim, j)
            if k < 0:
                self.m.unclosed.append(("string", Span(open_at, open_at + 3)))
                self.i = self.n
                raise _Stop
            if delim == '"""':
                backslashes = 0
                b = k - 1
                while b >= content and self.s[b] == "\\":
                    backslashes += 1
                    b -= 1
                if backslashes % 2 == 1:
                    j = k + 1
                    continue
            # up to two quotes right before the closing delimiter belong to the content
            run = 3
            while k + run < self.n and self.s[k + run] == delim[0]:
                run += 1
            end = k + min(run - 3, 2)
            self.i = end + 3
            kind = "ml_basic" if delim == '"""' else "ml_literal"
            return StringSpan(kind, Span(content, end))

    def _array(self, path: Path) -> None:
        open_at = self.i
        self.i += 1
        try:
            self._array_items(path, open_at)
        except _Stop:
            # an array that does not close where it should: TOML reports it as unclosed
            self.m.unclosed.append(("array", Span(open_at, open_at + 1)))
            raise

    def _array_items(self, path: Path, open_at: int) -> None:
        index = 0
        while True:
            self._skip_ws_newlines_comments()
            if self.i >= self.n:
                raise _Stop
            if self._peek() == "]":
                self.i += 1
                return
            sub = path + (index,)
            entry = Entry(Span(self.i, self.i + 1))
            self.m.entries.setdefault(sub, entry)
            self._value(sub, entry)
            entry.key = entry.value or entry.key
            index += 1
            self._skip_ws_newlines_comments()
            if self._peek() == ",":
                self.i += 1
            elif self._peek() != "]":
                raise _Stop

    def _inline_table(self, path: Path) -> None:
        open_at = self.i
        self.i += 1
        while True:
            self._skip_ws()
            ch = self._peek()
            if ch in ("", "\n"):
                self.m.unclosed.append(("inline table", Span(open_at, open_at + 1)))
                raise _Stop
            if ch == "}":
                self.i += 1
                return
            self._keyval(path)
            self._skip_ws()
            if self._peek() == ",":
                self.i += 1
            elif self._peek() in ("", "\r", "\n", "#"):
                self.m.unclosed.append(("inline table", Span(open_at, open_at + 1)))
                raise _Stop
            elif self._peek() != "}":
                raise _Stop


class _Stop(Exception):
    """The scanner met text it does not understand: skip to the next line."""


def parse_key(text: str) -> list[tuple[str, int, int]] | None:
    """Split a dotted TOML key into its parts, each with its start and end column (0-based).

    >>> parse_key('rules."gammon".value')
    [('rules', 0, 5), ('gammon', 6, 14), ('value', 15, 20)]

    None when `text` is not a dotted key.
    """
    smap = SourceMap.__new__(SourceMap)
    smap.text = text
    smap.entries = {}
    smap.duplicates = []
    smap.unclosed = []
    smap._line_starts = [0]
    scanner = _Scanner(smap)
    try:
        keys = scanner._key()
    except _Stop:
        return None
    scanner._skip_ws()
    if scanner.i != len(text):
        return None
    return [(name, span.start, span.end) for name, span in keys]
