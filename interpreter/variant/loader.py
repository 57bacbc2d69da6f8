"""Loading a variant document: read the TOML, follow `extends`, merge, apply `--set`, validate.

    >>> doc = load_document("backgammon", ["rules.gammon.enabled=false"])
    >>> doc.model.rules["gammon"].enabled, doc.model.board.checkers
    (False, 15)
    >>> loc = doc.locate(("dice", "doublets"))
    >>> (loc.line, loc.col, loc.source_line.split("#")[0].strip())
    (29, 1, 'doublets = "four"')

Merge rules of `extends` (docs/variant-format.md): tables merge key by key, so an extending file
can change one field of one rule; arrays, `board.start` and a `[ladder]` of another kind are
replaced whole; `remove_rules` deletes rules of the base by id; `variant.abstract` is never
inherited. Every problem found, in every file of the chain and in every override, is raised
together as one `VariantError`; nothing here lets a traceback escape for bad input.
"""
from __future__ import annotations

import copy
import os
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ValidationError

from interpreter.bounded import (InputError, read_toml_file, shown_name, toml_fault,
                                 toml_file_fault)
from interpreter.errors import Diagnostic, VariantError, RecordError
from interpreter.resources import builtin_variant_path, variants_dir
from interpreter.variant.checks import (
    check_document,
    check_ladder,
    check_playable,
    valid_definition,
    valid_name,
    valid_rule_id,
)
from interpreter.variant.locate import SourceMap
from interpreter.variant.overrides import TURN_DICE_KEYS, parse_override
from interpreter.variant.problems import (
    KeyPath,
    Problem,
    Where,
    closest,
    found_str,
    key_str,
    problems_from_validation,
    toml_repr,
    type_name,
)
from interpreter.variant.schema import Board, Dice, Movement, VariantModel

#: tables that an extending file replaces whole instead of merging key by key
REPLACED_WHOLE: frozenset[KeyPath] = frozenset({("board", "start")})
#: the most files an `extends` chain may hold
MAX_CHAIN = 16


# -- variant files given as text --------------------------------------------------------------

#: the variant files a load takes from text instead of the disk (`given_texts`): absolute path
#: (`text_key`) → (text, the path as the person wrote it, for messages)
_GIVEN: ContextVar[dict[str, tuple[str, str]] | None] = ContextVar("tablier_given_texts",
                                                                    default=None)
#: the variant files a load read, absolute path → text (`recording_texts`)
_SEEN: ContextVar[dict[str, str] | None] = ContextVar("tablier_seen_texts", default=None)


def text_key(path: str | os.PathLike[str]) -> str:
    """A variant file's place among given texts: its absolute path, made without the disk
    (`..` taken away by the letter, links not followed), so that a process without the file
    finds the same key for the same path."""
    return os.path.normpath(os.path.abspath(os.fspath(path)))


@contextmanager
def given_texts(texts: Mapping[str, tuple[str, str]]) -> Iterator[None]:
    """Within: a load reads the variant files of `texts` (`text_key` → (text, display)) from
    their text, and no other file but the built-in variants (the installed package's): a path
    among neither is a missing file. What a Dask worker compiles a variant file from
    (interpreter/runner.py)."""
    token = _GIVEN.set(dict(texts))
    try:
        yield
    finally:
        _GIVEN.reset(token)


@contextmanager
def recording_texts() -> Iterator[dict[str, str]]:
    """Within: every variant file a load reads is kept, `text_key` → text, in the dict given."""
    seen: dict[str, str] = {}
    token = _SEEN.set(seen)
    try:
        yield seen
    finally:
        _SEEN.reset(token)


def given_text(path: str | os.PathLike[str]) -> str | None:
    """The given text of the variant file at `path` (None: not given, read from the disk)."""
    given = _GIVEN.get()
    if given is None:
        return None
    got = given.get(text_key(path))
    return None if got is None else got[0]


def _given_display(path: str | os.PathLike[str]) -> str | None:
    given = _GIVEN.get()
    got = None if given is None else given.get(text_key(path))
    return None if got is None else got[1]


def _builtin_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a file of the built-in variants (of the installed package)."""
    try:
        return Path(path).resolve().parent == variants_dir().resolve()
    except (OSError, ValueError, RuntimeError):
        return False


def _read_variant_text(path: Path, display: str) -> str:
    """A variant file's text: given (`given_texts`), else read within bounds; kept when a load
    records (`recording_texts`). Where texts are given, a file among them is never read from
    the disk, nor any other but a built-in variant's."""
    given = _GIVEN.get()
    if given is not None:
        text = given_text(path)
        if text is None:
            if not _builtin_file(path):
                raise InputError(f"{display}: no such file", code="file-not-found",
                                 reason="no such file")
            text = read_toml_file(path, display=display)
    else:
        text = read_toml_file(path, display=display)
    seen = _SEEN.get()
    if seen is not None:
        seen[text_key(path)] = text
    return text


@dataclass(frozen=True)
class Location:
    """Where a key (or its value) is written: a file, or `--set` for an override."""

    path: str
    line: int
    col: int
    length: int
    source_line: str


class SnippetErrorLike(Protocol):
    """What `interpreter.dsl.check_document` reports: a position inside one snippet."""

    key_path: tuple[str, ...]
    line: int
    col: int
    length: int
    code: str
    message: str


@dataclass
class _Origin:
    """One source of keys: a file of the chain, or one `--set` argument."""

    display: str
    smap: SourceMap
    file: Path | None = None
    #: for an override: the key it sets in the document, and the key as written
    effective: KeyPath = ()
    written: KeyPath = ()
    #: for a file: the keys it writes under `[turn]` that the document holds in `[dice]`, and
    #: the option sets (option, choice) whose `turn` table it holds as `dice`
    turn_keys: frozenset[str] = frozenset()
    turn_sets: frozenset[tuple[str, str]] = frozenset()

    def local(self, key_path: KeyPath) -> KeyPath:
        """`key_path` as written in this source."""
        n = len(self.effective)
        if n and tuple(key_path[:n]) == self.effective:
            return self.written + tuple(key_path[n:])
        if len(key_path) >= 2 and key_path[0] == "dice" and key_path[1] in self.turn_keys:
            return ("turn",) + tuple(key_path[1:])
        if (len(key_path) >= 4 and key_path[0] == "option_sets" and key_path[3] == "dice"
                and (key_path[1], key_path[2]) in self.turn_sets):
            return tuple(key_path[:3]) + ("turn",) + tuple(key_path[4:])
        return tuple(key_path)

    def location(self, key_path: KeyPath, where: Where = "key") -> Location:
        local = self.local(key_path)
        target = local[:-1] if where == "missing" else local
        found = self.smap.find(target) if target else None
        if found is None:
            if self.file is None:  # an override: its whole argument
                text = self.smap.line_text(1)
                return Location(self.display, 1, 1, max(1, len(text)), text)
            return Location(self.display, 1, 1, 1, "")
        path, entry = found
        span = entry.value if where == "value" and path == target and entry.value else entry.key
        line, col, length = self.smap.span_position(span)
        return Location(self.display, line, col, length, self.smap.line_text(line))

    def diagnostic(self, key_path: KeyPath, where: Where, code: str, message: str) -> Diagnostic:
        loc = self.location(key_path, where)
        return Diagnostic(loc.path, loc.line, loc.col, code, message, loc.source_line, loc.length)


@dataclass
class VariantDoc:
    """A loaded, validated variant document.

    `model` is the validated schema model (`interpreter.variant.schema.VariantModel`), `path`
    the file loaded, `chain` the files from the most derived to the base, `data` the merged TOML
    (after `--set`), `overrides` the `--set` arguments applied."""

    model: VariantModel
    path: Path
    chain: tuple[Path, ...]
    data: dict[str, Any]
    overrides: tuple[str, ...] = ()
    _origins: list[_Origin] = field(default_factory=list, repr=False)
    _provenance: dict[KeyPath, int] = field(default_factory=dict, repr=False)
    _derived: int = field(default=0, repr=False)

    @property
    def is_abstract(self) -> bool:
        """A base file for others to extend; not playable by itself."""
        return self.model.variant.abstract

    @property
    def ladder(self) -> BaseModel | None:
        return self.model.ladder

    def origin_of(self, key_path: KeyPath) -> _Origin:
        """The source (file or override) that last set `key_path` or its closest parent."""
        return _origin_for(self._origins, self._provenance, self._derived, key_path)

    def locate(self, key_path: KeyPath, *, value: bool = False) -> Location | None:
        """Where `key_path` was last set: its key (or its value), in the file or `--set`
        argument that set it. For a key that no source wrote (a default), the key of its closest
        written table; None when not even its top-level table is written."""
        key_path = tuple(key_path)
        origin = self.origin_of(key_path)
        if not any(key_path[:n] in self._provenance for n in range(len(key_path), 0, -1)):
            return None
        return origin.location(key_path, "value" if value else "key")


def _origin_for(origins: list[_Origin], provenance: dict[KeyPath, int], derived: int,
                key_path: KeyPath) -> _Origin:
    for n in range(len(key_path), 0, -1):
        index = provenance.get(tuple(key_path[:n]))
        if index is not None:
            return origins[index]
    return origins[derived]


# -- the public functions --------------------------------------------------------------------------

def load_document(ref: str | Path, overrides: Sequence[str] = (), *,
                  check_rules: bool | Literal["on-error"] = True) -> VariantDoc:
    """Load a variant by built-in id or path, with `--set` overrides, and validate it.

    Raises `VariantError` carrying every diagnostic found. With `check_rules`, the rule-language
    snippets are checked too (by `interpreter.dsl.check_document`, when it is available); with
    "on-error", only beside the other problems of a file that has some (a caller that compiles
    the rules next, as `interpreter.variant.build.load_variant` does, gets the rest then)."""
    session = _Session()
    doc = session.load(ref, overrides, check_rules=check_rules)
    if session.diagnostics or doc is None:
        raise VariantError(session.sorted_diagnostics())
    return doc


def snippet_diagnostic(doc: VariantDoc, err: SnippetErrorLike) -> Diagnostic:
    """A rule-language error, positioned inside its snippet, placed in the file (or `--set`
    argument) that wrote the snippet: escapes and the newline TOML drops after an opening `\"\"\"`
    are accounted for."""
    key_path = tuple(err.key_path)
    origin = doc.origin_of(key_path)
    local = origin.local(key_path)
    position = origin.smap.snippet_position(local, err.line, err.col, getattr(err, "length", 1))
    if position is None:
        return origin.diagnostic(key_path, "value", err.code, err.message)
    line, col, length = position
    moved = _at_overriding_definition(doc, origin, line, col, length, err)
    if moved is not None:
        return moved
    return Diagnostic(origin.display, line, col, err.code, err.message,
                      origin.smap.line_text(line), length)


def _at_overriding_definition(doc: VariantDoc, origin: _Origin, line: int, col: int,
                              length: int, err: SnippetErrorLike) -> Diagnostic | None:
    """A rule-language error at the use of a definition that a later file of the chain (or a
    `--set`) wrote again: the fault is that file's, so it is reported at its definition, the
    use named in the message. None when the error is not at such a use."""
    text = origin.smap.line_text(line)[col - 1:col - 1 + max(1, length)]
    name = text.split("(", 1)[0].strip()
    if not name.isidentifier():
        return None
    defines = getattr(doc.model, "define", None) or {}
    key = next((k for k in defines if k.split("(", 1)[0].strip() == name), None)
    if key is None:
        return None
    index = doc._provenance.get(("define", key))
    if index is None:
        return None
    here = doc._origins.index(origin) if origin in doc._origins else -1
    definer = doc._origins[index]
    later = (definer.file is None and origin.file is not None) or (
        definer.file is not None and origin.file is not None and index < here)
    if definer is origin or not later:
        return None
    message = (f"definition `{name}` does not fit where {origin.display}:{line}:{col} uses it: "
               f"{err.message[:1].lower()}{err.message[1:]}")
    return definer.diagnostic(("define", key), "value", err.code, message)


class NamedVariant(str):
    """A variant file named by another file (a record's `variant`, a save's `variant_file`, a
    file of the web board's folder named by a request), not by the person: the loader reads it
    as a file that must prove to be a variant file before any of its lines is quoted (as the
    files `extends` names). A built-in id or a path, as a `str`."""


def named_variant(ref: str) -> str:
    """`ref` marked as named by a record or a request (`NamedVariant`); a built-in id as is."""
    if not _looks_like_path(ref) and builtin_variant_path(ref) is not None:
        return ref
    return NamedVariant(ref)


#: a line that only a variant file writes: its `[variant]` table or its `extends`
_VARIANT_LINE = re.compile(r"^[ \t]*(?:\[[ \t]*variant[ \t]*\]|extends[ \t]*=)", re.M)


def is_variant_data(data: Any) -> bool:
    """Whether a parsed TOML document is (a part of) a variant file: it has a `[variant]` table
    or an `extends` string (a configuration file with a password has neither)."""
    return isinstance(data, dict) and (isinstance(data.get("variant"), dict)
                                       or isinstance(data.get("extends"), str))


def record_variant(ref: Any) -> str:
    """The variant a record names (a score sheet, a saved game), checked before anything is
    opened: a built-in id, or a path whose name ends in `.toml` (then read within bounds as any
    variant file), as `extends` allows. A record from a stranger cannot make a command read
    `/dev/zero` or print a line of `/etc/passwd`, and a `.toml` file that is not a variant file
    (no `[variant]` table) is refused without a line of it quoted (`NamedVariant`). Raises
    `RecordError` otherwise."""
    if not isinstance(ref, str) or not ref:
        raise RecordError(f"the variant must be a built-in id or a `.toml` file; found "
                          f"{found_str(ref)}")
    if "\0" in ref or not (ref.endswith(".toml") or builtin_variant_path(ref) is not None):
        ids = builtin_ids()
        match = closest(ref, ids) if len(ref) <= 100 and not _looks_like_path(ref) else None
        hint = f"; did you mean \"{match}\"?" if match else f" (built-in ids: {', '.join(ids)})"
        raise RecordError(f"no built-in variant {toml_repr(ref)}, and a variant file's name ends "
                          f"in `.toml`{hint}")
    return named_variant(ref)


def builtin_ids() -> list[str]:
    """The ids of the built-in variant files (abstract bases included)."""
    try:
        return sorted(p.stem for p in variants_dir().glob("*.toml"))
    except FileNotFoundError:
        return []


_SNIPPET_FIELDS = ("when", "ways", "value", "minimize", "maximize")
_RULE_FIELDS = ("to", "on", "winner")


def _snippet_view(merged: dict[str, Any]) -> Any:
    """What the rule-language checker reads of a document that failed the schema: its regions,
    definitions, options, rules, the turn's stage rules, named state and its updates, the bot's
    features, and the switches of `[board]`, `[dice]` and `[movement]` the rules depend on,
    keeping only the parts of the right shape. Everything comes from the merged document, so
    that what a file extends (its base's definitions and state names) is there whatever the
    file itself gets wrong."""
    def table(key: str, within: dict[str, Any] = merged) -> dict[str, Any]:
        value = within.get(key)
        return value if isinstance(value, dict) else {}

    # only what is well named: a name the checks refuse never reaches the rule compiler
    def strings(d: dict[str, Any], valid: Any) -> dict[str, str]:
        return {k: v for k, v in d.items() if isinstance(v, str) and valid(k)}

    rules = {}
    for rule_id, r in table("rules").items():
        if not isinstance(r, dict) or r.get("kind") not in ("score", "forbid", "prefer", "end",
                                                            "value") \
                or not valid_rule_id(rule_id):
            continue
        fields = {k: r.get(k) for k in _SNIPPET_FIELDS
                  if isinstance(r.get(k), str) or (k == "value" and type(r.get(k)) is int)}
        fields.update({k: r[k] for k in _RULE_FIELDS if isinstance(r.get(k), str)})
        for k in ("simple", "doublet", "order"):
            fields[k] = r[k] if type(r.get(k)) is int else None
        fields["enabled"] = r.get("enabled") is not False
        rules[rule_id] = SimpleNamespace(kind=r["kind"], **{
            k: fields.get(k) for k in (*_SNIPPET_FIELDS, *_RULE_FIELDS, "simple", "doublet",
                                       "order", "enabled")})
    options = {k: v for k, v in table("options").items()
               if isinstance(v, (str, int, bool)) and valid_name(k)}
    choices = {k: v for k, v in table("option_choices").items()
               if isinstance(v, list) and k in options}
    turn = table("turn")
    stages = {
        stage_id: SimpleNamespace(enabled=st.get("enabled") is not False, **{
            k: st[k] if isinstance(st.get(k), str) else None for k in _STAGE_FIELDS})
        for stage_id, st in table("stages", turn).items()
        if isinstance(st, dict) and len(stage_id) <= 64}
    # a state of a wrong initial value is still declared (the schema reports the value): its
    # uses are not also unknown names
    state = {name: v if type(v) is bool else 0 for name, v in table("state", turn).items()
             if valid_name(name)}
    updates = {name: SimpleNamespace(value=up["value"] if isinstance(up.get("value"), str)
                                     else None)
               for name, up in table("update", turn).items() if isinstance(up, dict)}
    features = strings(table("features", table("bot")), valid_name)
    return SimpleNamespace(regions=strings(table("regions"), valid_name),
                           define=strings(table("define"), valid_definition),
                           options=options, option_choices=choices,
                           board=_salvaged(Board, table("board")),
                           dice=_salvaged(Dice, table("dice")),
                           movement=_salvaged(Movement, table("movement")),
                           rules=rules,
                           turn=SimpleNamespace(stages=stages, state=state, update=updates),
                           bot=SimpleNamespace(features=features))


_STAGE_FIELDS = ("when", "next", "to_opponent", "again")


def _salvaged(model: type[BaseModel], data: dict[str, Any]) -> Any:
    """A table of switches (`[board]`, `[dice]`, `[movement]`) as `model` reads it, each key
    that the schema refuses left at its default: what the rule-language checker may still
    trust of a table with a schema error."""
    try:
        return model.model_validate(data)
    except ValidationError:
        pass
    try:
        return model.model_validate(_valid_keys(model, data))
    except ValidationError:
        # a fault between keys (or a key another requires): their defaults
        return model()


def _valid_keys(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """The keys of a table that the schema (`model`) accepts each by itself."""
    kept: dict[str, Any] = {}
    for key, value in data.items():
        if key not in model.model_fields:
            continue
        try:
            model.model_validate({key: value})
        except ValidationError as error:
            if any(tuple(e["loc"][:1]) == (key,) or not e["loc"] for e in error.errors()):
                continue
        kept[key] = value
    return kept


def _valid_switches(merged: dict[str, Any]) -> dict[str, Any]:
    """The document with only the keys of `[board]`, `[dice]` and `[movement]` that the schema
    accepts one by one: what the checks of switch combinations read of a document that failed
    the schema (a value the schema refuses is reported once, not again in a combination)."""
    out = dict(merged)
    for key, model in (("board", Board), ("dice", Dice), ("movement", Movement)):
        table = merged.get(key)
        if isinstance(table, dict):
            out[key] = _valid_keys(model, table)
    return out


def check_snippets(doc: VariantDoc) -> list[Diagnostic]:
    """The rule-language errors of a document, or [] while `interpreter.dsl` cannot check."""
    try:
        from interpreter.dsl import check_document as check_rule_language
    except ImportError:
        return []
    return [snippet_diagnostic(doc, err) for err in check_rule_language(doc.model)]


# -- loading ---------------------------------------------------------------------------------------

def _display(path: Path) -> str:
    """A path for messages: relative to the working directory when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _exists(path: Path, ref: str | Path) -> bool:
    """False for a name that names nothing. A path that cannot even be looked up (too long, a
    NUL) is left to the bounded read, which says why; a name written like an id is not a path.
    Where texts are given (`given_texts`), a file is among them or a built-in variant's."""
    if _GIVEN.get() is not None and not _builtin_file(path):
        return given_text(path) is not None
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return isinstance(ref, Path) or _looks_like_path(ref)
    return True


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.endswith(".toml") or ref.startswith(".")


_TOML_POSITION = re.compile(
    r"^(?P<msg>.*?)\s*\((?:at line (?P<line>\d+), column (?P<col>\d+)|at end of document)\)$",
    re.S)
_UNCLOSED = {"string": "the closing quote is missing",
             "array": "the closing `]` is missing",
             "inline table": "the closing `}` is missing (an inline table stays on one line)"}
_UNCLOSED_KIND = (("unterminated string", "string"), ("illegal character '\\n'", "string"),
                  ("unclosed array", "array"), ("unclosed inline table", "inline table"))
_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _syntax_diagnostic(display: str, smap: SourceMap, error: tomllib.TOMLDecodeError) -> Diagnostic:
    """tomllib's error, with its position; duplicate keys and unclosed strings or arrays are
    placed where they start (tomllib reports them at the end of the document)."""
    text = str(error)
    match = _TOML_POSITION.match(text)
    message = match.group("msg") if match else text
    message = message[:1].lower() + message[1:]
    if match and match.group("line"):
        line, col = int(match.group("line")), int(match.group("col"))
    else:
        line = smap.line_count
        while line > 1 and not smap.line_text(line).strip():
            line -= 1
        col = len(smap.line_text(line)) + 1
    if message.startswith(("cannot overwrite", "cannot declare")) and smap.duplicates:
        path, second, first = smap.duplicates[0]
        line, col, length = smap.span_position(second)
        first_line, _ = smap.line_col(first.start)
        return Diagnostic(display, line, col, "duplicate-key",
                          f"`{key_str(path)}` is already defined at line {first_line}",
                          smap.line_text(line), length)
    kind = next((k for prefix, k in _UNCLOSED_KIND if message.startswith(prefix)), None)
    error_at = smap.offset(line, col)
    opened = [span for what, span in smap.unclosed if what == kind and span.start <= error_at]
    if kind is not None and opened:
        open_line, open_col, length = smap.span_position(opened[-1])
        if not message.startswith("illegal") or open_line == line:
            return Diagnostic(display, open_line, open_col, "toml-syntax",
                              f"unclosed {kind}: {_UNCLOSED[kind]}",
                              smap.line_text(open_line), length)
    if message.startswith("unescaped '\\'"):
        backslash = smap.line_text(line).rfind("\\", 0, col)
        col = backslash + 1 if backslash >= 0 else col
    length = 1
    if message.startswith("invalid value"):
        word = _BARE_WORD.match(smap.line_text(line), col - 1)
        if word and word.group() not in ("true", "false", "inf", "nan"):
            length = len(word.group())
            message += f"; a string needs quotes: \"{word.group()}\""
    return Diagnostic(display, line, col, "toml-syntax", message, smap.line_text(line), length)


class _Session:
    """The state of one load: the sources, which source last set each key, the problems."""

    def __init__(self) -> None:
        self.origins: list[_Origin] = []
        self.provenance: dict[KeyPath, int] = {}
        self.diagnostics: list[Diagnostic] = []
        self.problems: list[Problem] = []
        self.derived = 0

    # -- sources ---------------------------------------------------------------------------------

    def _read(self, path: Path, display: str, cited: tuple[_Origin, KeyPath] | None,
              asked: bool = True) -> tuple[int, dict[str, Any]] | None:
        """Read and parse one file, within the bounds of `interpreter.bounded`; on failure
        record a diagnostic (at the `extends` that named it, if any) and return None. A file
        the person did not name (`asked` false: an `extends`, a record's variant) must be a
        variant file (`is_variant_data`) before any diagnostic quotes a line of it: else it is
        refused as "not a variant file", its content unquoted."""
        try:
            text = _read_variant_text(path, display)
        except InputError as error:
            message = f"no such file: {display}" if error.code == "file-not-found" else str(error)
            self._fail(cited, display, error.code, message)
            return None
        if not asked:
            if not self._variant_text(text):
                self._fail(cited, display, "not-a-variant",
                           f"{display} is not a variant file: no [variant] table (a file "
                           f"named by another file is read only if it is a variant file)")
                return None
        fault = toml_fault(text)
        if fault is not None:
            line, col, message = fault
            smap = SourceMap.lines_only(text)
            self.origins.append(_Origin(display, smap, path))
            self.diagnostics.append(Diagnostic(display, line, col, "limit", message,
                                               smap.line_text(line)))
            return None
        smap = SourceMap(text)
        self.origins.append(_Origin(display, smap, path))
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            self.diagnostics.append(_syntax_diagnostic(display, smap, error))
            return None
        except (ValueError, RecursionError) as error:  # past what `toml_fault` bounds
            self.diagnostics.append(Diagnostic(display, 1, 1, "limit",
                                               f"the file cannot be read: {str(error)[:80]}"))
            return None
        return len(self.origins) - 1, data

    @staticmethod
    def _variant_text(text: str) -> bool:
        """Whether `text` is a variant file's (`is_variant_data`). Text that cannot be parsed
        is when a line of it opens the `[variant]` table or writes `extends` (its diagnostics
        then quote it as any variant file's)."""
        if toml_fault(text) is None:
            try:
                return is_variant_data(tomllib.loads(text))
            except (tomllib.TOMLDecodeError, ValueError, RecursionError):
                pass
        return _VARIANT_LINE.search(text) is not None

    def _fail(self, cited: tuple[_Origin, KeyPath] | None, display: str, code: str,
              message: str) -> None:
        if cited is None:
            self.diagnostics.append(Diagnostic(display, 1, 1, code, message))
        else:
            origin, key = cited
            self.diagnostics.append(origin.diagnostic(key, "value", code, message))

    def _resolve(self, ref: str | Path) -> tuple[Path, str]:
        if isinstance(ref, str) and not _looks_like_path(ref):
            builtin = builtin_variant_path(ref)
            if builtin is not None:
                return builtin, _display(builtin)
        # a file given as text is named as the person wrote it
        display = _given_display(ref)
        return Path(ref), display if display is not None else shown_name(str(ref), 200)

    def _resolve_extends(self, value: str, origin: _Origin) -> Path | tuple[str, str]:
        """The file `extends = value` names, or (code, message) saying why there is none.

        Only a built-in id or a path ending in `.toml` (after symbolic links too) is followed:
        `extends = "/etc/passwd"` is refused without opening the file, so that a diagnostic
        never shows another file's content. The file itself is read within bounds by `_read`."""
        assert origin.file is not None
        shown = toml_repr(value)
        if "\0" in value:
            return "extends-not-found", f"`extends` cannot hold a NUL character; found {shown}"
        if _looks_like_path(value):
            target = origin.file.parent / value
            if not value.endswith(".toml"):
                return "extends-not-found", (f"`extends` names a built-in variant or a variant "
                                             f"file, whose name ends in `.toml`; found {shown}")
            if _GIVEN.get() is not None and not _builtin_file(target):
                # files given as text: only those, the disk is not looked at
                if given_text(target) is not None:
                    return target
                return "extends-not-found", (f"`extends`: no file {shown} (looked for "
                                             f"{shown_name(os.path.normpath(target), 200)})")
            try:
                os.stat(target)
            except FileNotFoundError:
                return "extends-not-found", (f"`extends`: no file {shown} (looked for "
                                             f"{shown_name(os.path.normpath(target), 200)})")
            except (OSError, ValueError):
                return target   # `_read` says why it cannot be read
            fault = toml_file_fault(target)
            if fault is not None:
                return "extends-not-found", f"`extends`: {shown} cannot be read: {fault}"
            return target
        builtin = builtin_variant_path(value)
        if builtin is not None:
            return builtin
        ids = builtin_ids()
        match = closest(value, ids) if len(value) <= 100 else None
        hint = f"; did you mean \"{match}\"?" if match else \
            f"; built-in ids: {', '.join(ids)}"
        return "extends-not-found", (f"`extends`: no built-in variant {shown}{hint} (a file is "
                                     f"written as a path, e.g. \"./{shown_name(value, 40)}.toml\")")

    def _chain(self, path: Path, display: str, asked: bool = True
               ) -> tuple[list[tuple[int, dict[str, Any]]], bool]:
        """The files of the `extends` chain, most derived first, and whether it is complete;
        the first one named by the person if `asked`, the others by `extends`."""
        files: list[tuple[int, dict[str, Any]]] = []
        seen: list[Path] = []
        cited: tuple[_Origin, KeyPath] | None = None
        while True:
            got = self._read(path, display, cited, asked and cited is None)
            if got is None:
                return files, False
            index, data = got
            files.append(got)
            seen.append(path.resolve())
            origin = self.origins[index]
            ext = data.get("extends")
            if ext is None:
                return files, True
            if not isinstance(ext, str):
                self.diagnostics.append(origin.diagnostic(
                    ("extends",), "value", "bad-type",
                    f"field `extends` must be a string; found {found_str(ext)}"))
                return files, False
            if len(files) >= MAX_CHAIN:
                self.diagnostics.append(origin.diagnostic(
                    ("extends",), "value", "limit",
                    f"`extends` chains hold at most {MAX_CHAIN} files"))
                return files, False
            target = self._resolve_extends(ext, origin)
            if isinstance(target, tuple):
                code, message = target
                self.diagnostics.append(origin.diagnostic(("extends",), "value", code, message))
                return files, False
            if target.resolve() in seen:
                names = [self.origins[i].display for i, _ in files]
                names.append(names[seen.index(target.resolve())])
                self.diagnostics.append(origin.diagnostic(
                    ("extends",), "value", "extends-cycle",
                    "`extends` makes a cycle: " + " → ".join(names)))
                return files, False
            cited = (origin, ("extends",))
            path = target
            display = shown_name(os.path.normpath(Path(display).parent / ext), 200) \
                if _looks_like_path(ext) else _display(target)

    # -- merging ----------------------------------------------------------------------------------

    def _forget(self, path: KeyPath, old: Any = None) -> None:
        """Drop what `path` and the keys under it came from: the keys of `old`, the value being
        replaced, are visited (never the whole provenance: merging stays linear in the files)."""
        self.provenance.pop(path, None)
        if isinstance(old, dict):
            for key, sub in old.items():
                self._forget(path + (key,), sub)

    def _mark(self, path: KeyPath, value: Any, origin: int) -> None:
        self.provenance[path] = origin
        if isinstance(value, dict):
            for key, sub in value.items():
                self._mark(path + (key,), sub, origin)

    def _merge(self, target: dict[str, Any], overlay: dict[str, Any], origin: int,
               prefix: KeyPath = ()) -> None:
        for key, value in overlay.items():
            path = prefix + (key,)
            old = target.get(key)
            if prefix == ("options",) and key in target and not isinstance(value, dict) \
                    and type(old) is not type(value):
                base = self.origins[self.provenance.get(path, origin)].display
                self.problems.append(Problem(path, "bad-type",
                                             f"option `{key}` is {type_name(old)} in {base}; "
                                             f"found {found_str(value)}"))
            if isinstance(value, dict) and isinstance(old, dict) and \
                    not self._replaced_whole(path, old, value):
                self.provenance[path] = origin
                self._merge(old, value, origin, path)
            else:
                self._forget(path, old)
                target[key] = copy.deepcopy(value)
                self._mark(path, value, origin)

    @staticmethod
    def _replaced_whole(path: KeyPath, old: dict[str, Any], new: dict[str, Any]) -> bool:
        if path in REPLACED_WHOLE:
            return True
        return path == ("ladder",) and "kind" in new and new.get("kind") != old.get("kind")

    #: what `remove_rules` and `remove_options` name: the noun, what each entry is, and the
    #: tables an entry is removed from (the first one holds the names)
    _REMOVALS = {
        "remove_rules": ("rule", "rule ids", "a rule id", ("rules",)),
        "remove_options": ("option", "option names", "an option name",
                           ("options", "option_choices", "option_descriptions", "option_sets")),
    }

    def _remove(self, field: str, merged: dict[str, Any], data: dict[str, Any], index: int, *,
                has_base: bool) -> list[str]:
        """Apply a file's `remove_rules` or `remove_options` to what it extends (an option goes
        with its choices, descriptions and option sets); return the valid names."""
        noun, plural, one, tables = self._REMOVALS[field]
        origin = self.origins[index]
        names = data.get(field)
        if names is None:
            return []
        if not isinstance(names, list):
            self.diagnostics.append(origin.diagnostic(
                (field,), "value", "bad-type",
                f"field `{field}` must be an array of {plural}; found {found_str(names)}"))
            return []
        known = merged.get(tables[0]) if isinstance(merged.get(tables[0]), dict) else {}
        assert isinstance(known, dict)
        valid: list[str] = []
        for i, name in enumerate(names):
            if not isinstance(name, str):
                self.diagnostics.append(origin.diagnostic(
                    (field, i), "value", "bad-type",
                    f"field `{field}[{i}]` must be {one} (a string); found {found_str(name)}"))
            elif name in known:
                for table in tables:
                    entries = merged.get(table)
                    if isinstance(entries, dict) and name in entries:
                        self._forget((table, name), entries.pop(name))
                valid.append(name)
            elif has_base:
                match = closest(name, known)
                hint = f"; did you mean `{match}`?" if match else ""
                self.diagnostics.append(origin.diagnostic(
                    (field, i), "value", f"unknown-{noun}",
                    f"cannot remove {noun} `{name}`: the extended file has no such "
                    f"{noun}{hint}"))
            elif "extends" not in data:  # (with `extends` but no base, the base is unreadable)
                self.diagnostics.append(origin.diagnostic(
                    (field, i), "value", f"unknown-{noun}",
                    f"cannot remove {noun} `{name}`: this file extends no other file"))
        return valid

    # -- the whole load ----------------------------------------------------------------------------

    def load(self, ref: str | Path, overrides: Sequence[str], *,
             check_rules: bool | str) -> VariantDoc | None:
        path, display = self._resolve(ref)
        if not _exists(path, ref):
            if isinstance(ref, str) and not _looks_like_path(ref):
                ids = builtin_ids()
                match = closest(ref, ids) if len(ref) <= 100 else None
                hint = f"; did you mean \"{match}\"?" if match else \
                    f" (built-in ids: {', '.join(ids)})"
                message = (f"no built-in variant \"{shown_name(ref)}\" and no file of that "
                           f"name{hint}")
            else:
                message = f"no such file: {display}"
            self.diagnostics.append(Diagnostic(display, 1, 1, "file-not-found", message))
            return None
        files, complete = self._chain(path, display, not isinstance(ref, NamedVariant))
        if not files:
            return None
        self.derived = files[0][0]
        merged: dict[str, Any] = {}
        directives: dict[str, Any] = {}
        for position, (index, data) in enumerate(reversed(files)):
            removed = self._remove("remove_rules", merged, data, index, has_base=position > 0)
            removed_options = self._remove("remove_options", merged, data, index,
                                           has_base=position > 0)
            variant = merged.get("variant")
            if isinstance(variant, dict) and "abstract" in variant:
                self._forget(("variant", "abstract"), variant.pop("abstract"))
            own = {k: v for k, v in data.items()
                   if k not in ("extends", "remove_rules", "remove_options")}
            own = self._turn_keys(own, index)
            self._merge(merged, own, index)
            directives = {"remove_rules": removed, "remove_options": removed_options}
            if isinstance(data.get("extends"), str):
                directives["extends"] = data["extends"]
        for key in directives:
            self.provenance[(key,)] = self.derived
        self._apply_overrides(merged, overrides)

        info = merged.get("variant")
        abstract = isinstance(info, dict) and info.get("abstract") is True
        concrete = complete and not abstract
        model: VariantModel | None = None
        schema_input = {k: v for k, v in merged.items() if k != "ladder"} | directives
        try:
            model = VariantModel.model_validate(schema_input)
        except ValidationError as error:
            self.problems += problems_from_validation(error, VariantModel)
        ladder, problems = check_ladder(merged, concrete=concrete)
        self.problems += problems
        self.problems += check_document(merged, concrete=concrete)
        if model is not None:
            # switch combinations that cannot be played, once each switch is valid by itself
            self.problems += check_playable(merged, concrete=concrete and ladder is not None)
        else:
            # the same of the switches that are valid by themselves: a schema error elsewhere
            # does not hide them (what the ladder requires of the rules is judged once the
            # rules are well formed)
            rules_ok = not any(p.key_path[:1] == ("rules",) for p in self.problems)
            self.problems += check_playable(_valid_switches(merged), concrete=concrete and
                                            ladder is not None and rules_ok)
        # an option of the wrong type is not also reported as outside its choices
        mistyped = {p.key_path for p in self.problems if p.code == "bad-type"}
        self.problems = [p for p in self.problems
                         if not (p.code == "option-choice" and p.key_path in mistyped)]
        if not complete:  # what looks missing may be in the base that could not be read
            self.problems = [p for p in self.problems if p.code != "missing-key"]
        self.diagnostics += [self._place(p) for p in self.problems]

        def document(model: Any) -> VariantDoc:
            return VariantDoc(model=model, path=path.resolve(),
                              chain=tuple(self.origins[i].file.resolve()  # type: ignore[union-attr]
                                          for i, _ in files),
                              data=merged, overrides=tuple(overrides), _origins=self.origins,
                              _provenance=self.provenance, _derived=self.derived)

        if self.diagnostics or model is None:
            if check_rules and complete:
                # report the rule-language problems too: of the whole document where the schema
                # accepts it (another check refused it), else of the parts that are well formed
                view = _snippet_view(merged) if model is None else model
                self.diagnostics += check_snippets(document(view))
            return None
        doc = document(model.model_copy(update={"ladder": ladder}))
        if check_rules is True:
            self.diagnostics += check_snippets(doc)
        return doc

    def _turn_keys(self, data: dict[str, Any], index: int) -> dict[str, Any]:
        """A file's `[turn]` keys of the throw (`doublets`, `opening_roll`...) moved into
        `[dice]`, their older table, which the document holds them in (a diagnostic for a key a
        file gives in both); the file's origin places them where it wrote them."""
        origin = self.origins[index]
        data = self._turn_sets(data, origin)
        turn, dice = data.get("turn"), data.get("dice")
        if not isinstance(turn, dict) or not any(k in turn for k in TURN_DICE_KEYS):
            return data
        moved = {k: turn[k] for k in TURN_DICE_KEYS if k in turn}
        data = dict(data)
        rest = {k: v for k, v in turn.items() if k not in moved}
        if rest:
            data["turn"] = rest
        else:
            del data["turn"]
        old = dict(dice) if isinstance(dice, dict) else {}
        for key in moved:
            if key in old:
                self.diagnostics.append(origin.diagnostic(
                    ("turn", key), "key", "duplicate-key",
                    f"`{key}` is given both in `[turn]` and in `[dice]` (its older table): "
                    f"keep the one in `[turn]`"))
        if dice is not None and not isinstance(dice, dict):
            return data     # the schema reports a `dice` that is no table
        data["dice"] = {**old, **moved}
        origin.turn_keys = frozenset(moved)
        return data

    @staticmethod
    def _turn_sets(data: dict[str, Any], origin: _Origin) -> dict[str, Any]:
        """The file's option sets with a `turn` table held as `dice` (what it sets there are
        the throw's keys)."""
        sets = data.get("option_sets")
        if not isinstance(sets, dict):
            return data
        renamed: set[tuple[str, str]] = set()
        out: dict[str, Any] = {}
        for option, choices in sets.items():
            if not isinstance(choices, dict):
                out[option] = choices
                continue
            out[option] = {}
            for choice, tables in choices.items():
                if isinstance(tables, dict) and "turn" in tables and "dice" not in tables:
                    tables = {("dice" if k == "turn" else k): v for k, v in tables.items()}
                    renamed.add((option, choice))
                out[option][choice] = tables
        if not renamed:
            return data
        origin.turn_sets = frozenset(renamed)
        return {**data, "option_sets": out}

    def _apply_overrides(self, merged: dict[str, Any], overrides: Sequence[str]) -> None:
        for arg in overrides:
            override, errors = parse_override(arg, merged)
            if override is None:
                for e in errors:
                    self.diagnostics.append(Diagnostic("--set", 1, e.col, e.code, e.message,
                                                       arg.split("\n")[0], e.length))
                continue
            self.origins.append(_Origin("--set", SourceMap(arg), None, override.path,
                                        override.written))
            index = len(self.origins) - 1
            parent = merged
            for key in override.path[:-1]:
                child = parent.get(str(key))
                if not isinstance(child, dict):
                    child = parent[str(key)] = {}
                parent = child
            self._merge(parent, {str(override.path[-1]): override.value}, index,
                        override.path[:-1])

    def _recency(self, key_path: KeyPath) -> int:
        """How late the source that set `key_path` comes: overrides last, then the most
        derived file."""
        for n in range(len(key_path), 0, -1):
            index = self.provenance.get(tuple(key_path[:n]))
            if index is not None:
                return index + len(self.origins) if self.origins[index].file is None else -index
        return -len(self.origins)

    def _place(self, problem: Problem) -> Diagnostic:
        key_path, where = problem.key_path, problem.where
        if problem.alternatives:
            # a fault between several keys goes where the latest of them (or of their keys)
            # was set
            candidates = [(path, "key" if path != key_path else where)
                          for path in (key_path,) + problem.alternatives]
            for path in (key_path,) + problem.alternatives:
                candidates += [(k, "value") for k in self.provenance
                               if len(k) > len(path) and k[: len(path)] == path]
            key_path, where = max(candidates, key=lambda c: self._recency(c[0]))
        origin = _origin_for(self.origins, self.provenance, self.derived, key_path)
        message = problem.message
        local = origin.local(key_path)
        if local != tuple(key_path) and origin.file is not None:
            # a key the file writes under `[turn]`, named as written (the key, or its table)
            for n in (len(key_path), len(key_path) - 1):
                eff, loc = ".".join(map(str, key_path[:n])), ".".join(map(str, local[:n]))
                message = message.replace(f"`{eff}`", f"`{loc}`").replace(f"[{eff}]",
                                                                          f"[{loc}]")
        return origin.diagnostic(key_path, where, problem.code, message)

    def sorted_diagnostics(self) -> list[Diagnostic]:
        # files in chain order (most derived first), then the overrides
        position: dict[str, int] = {}
        for origin in self.origins:
            position.setdefault(origin.display, len(position))
        unique = list(dict.fromkeys(self.diagnostics))
        return sorted(unique, key=lambda d: (position.get(d.path, -1), d.line, d.col))
