"""The variants a request to `tablier serve` may name: the built-in ids of `tablier variants`,
and the `.toml` files of the folder the person gave at start (`serve --variants DIR`).

A request never names a path. `resolve(name)` answers a built-in id, or the real path of a
regular `.toml` file of the folder named by its file name (`quick.toml`), its stem (`quick`) or
its `[variant] id`, links resolved and kept inside the folder; anything else is
`UnknownVariant` ("unknown variant NAME"), and nothing is opened. A saved game of a variant
file is found by the name and sha256 of that file (`for_save`), wherever it was saved from; a
score-sheet record's `variant` goes through `resolve`.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from interpreter.bounded import read_bytes, shown, parse_toml
from interpreter.errors import InputError, RecordError, TablierError
from interpreter.resources import builtin_variant_path, variants_dir

#: the most files of the folder looked at
MAX_FILES = 1000
#: the most settings (`set` keys, a save's or a record's options) a request may give
MAX_SETTINGS = 64


class UnknownVariant(RecordError):
    """A variant a request names that is neither built in nor a file of the served folder."""


class Catalogue:
    """The built-in variants and the files of `folder` (None: the built-in ones alone)."""

    def __init__(self, folder: str | Path | None = None):
        self.folder: str | None = None
        if folder is not None:
            real = os.path.realpath(folder)
            if not os.path.isdir(real):
                raise TablierError(f"--variants {shown(str(folder), 200)}: not a folder")
            self.folder = real
        self._facts: dict[tuple, dict[str, Any]] = {}

    # -- the files ---------------------------------------------------------------------------

    def _inside(self, name: str) -> str | None:
        """The real path of the folder's regular `.toml` file `name` (a file name, no folder
        part), links resolved and kept inside the folder; None otherwise."""
        if self.folder is None or not isinstance(name, str) or not name.endswith(".toml") \
                or len(name) > 255 or name.startswith(".") \
                or any(c in name for c in "/\\\0"):
            return None
        real = os.path.realpath(os.path.join(self.folder, name))
        try:
            if os.path.commonpath([real, self.folder]) != self.folder or \
                    not real.endswith(".toml") or not stat.S_ISREG(os.stat(real).st_mode):
                return None
        except (OSError, ValueError):
            return None
        return real

    def files(self) -> list[tuple[str, str]]:
        """(name, real path) of each `.toml` file of the folder, in name order."""
        if self.folder is None:
            return []
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(".toml"))
        except OSError:
            return []
        out = []
        for name in names[:MAX_FILES]:
            real = self._inside(name)
            if real is not None:
                out.append((name, real))
        return out

    def facts(self, path: str) -> dict[str, Any]:
        """A file's sha256 and `[variant]` table (id, name, family, abstract), read within
        bounds and kept while the file is unchanged; {} for a file that cannot be read."""
        try:
            st = os.stat(path)
        except OSError:
            return {}
        key = (path, st.st_mtime_ns, st.st_size, st.st_ino)
        if key not in self._facts:
            try:
                data = read_bytes(path)
            except InputError:
                return {}
            info: dict[str, Any] = {}
            try:
                table = tomllib.loads(data.decode("utf-8")).get("variant", {})
                info = table if isinstance(table, dict) else {}
            except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError):
                pass
            if len(self._facts) > 4 * MAX_FILES:
                self._facts.clear()
            self._facts[key] = {"sha256": hashlib.sha256(data).hexdigest(),
                                "id": info.get("id") if isinstance(info.get("id"), str) else None,
                                "name": info.get("name") if isinstance(info.get("name"), str)
                                else None,
                                "family": info.get("family", ""),
                                "abstract": info.get("abstract") is True}
        return self._facts[key]

    def served(self) -> list[dict[str, Any]]:
        """The playable files of the folder as the start page lists them: the file name (what a
        request names), the variant's name and id."""
        rows = []
        for name, real in self.files():
            facts = self.facts(real)
            if not facts or facts["abstract"]:
                continue
            rows.append({"id": name, "name": facts["name"] or name,
                         "family": facts["family"] if isinstance(facts["family"], str) else "",
                         "variant": facts["id"]})
        return rows

    # -- what a request names ----------------------------------------------------------------

    def resolve(self, name: Any) -> str:
        """What the loader opens for the variant a request names (see the module docstring):
        a file of the folder as a `NamedVariant`, which must be a variant file before a line
        of it is quoted."""
        from interpreter.variant.loader import NamedVariant

        if isinstance(name, str) and builtin_variant_path(name) is not None:
            return name
        if isinstance(name, str) and self.folder is not None:
            for candidate in (name, f"{name}.toml"):
                real = self._inside(candidate)
                if real is not None:
                    return NamedVariant(real)
            if 0 < len(name) <= 200:
                for _, real in self.files():
                    if self.facts(real).get("id") == name:
                        return NamedVariant(real)
        raise self.unknown(name)

    def for_save(self, record: Any) -> str:
        """The variant a saved game resumes from: its built-in id, or, for a game of a variant
        file (`variant_file`), the built-in or served file of the same name and sha256 — never
        the path the save names."""
        if not record.source:
            return self.resolve(record.variant)
        if record.files:
            name, digest = record.files[0]
            candidates = [(p.name, str(p)) for p in sorted(variants_dir().glob("*.toml"))]
            changed = None
            for _, real in candidates + self.files():
                if Path(real).name == name:
                    now = self.facts(real).get("sha256")
                    if now == digest:
                        from interpreter.variant.loader import NamedVariant
                        return NamedVariant(real)
                    changed = now or "unreadable"
            if changed is not None:
                raise UnknownVariant(f"unknown variant {shown(record.source, 100)}: the "
                                     f"variant file {name!r} has changed since the game was "
                                     f"saved (sha256 {digest[:12]}… then, {changed[:12]}… now)")
        raise self.unknown(record.source)

    def unknown(self, name: Any) -> UnknownVariant:
        from interpreter.variant.loader import builtin_ids

        served = [n for n, _ in self.files()]
        where = (f"a file of the served folder ({', '.join(served[:20])}"
                 f"{', ...' if len(served) > 20 else ''})" if served else
                 "a file of the folder `serve --variants DIR` was given" if self.folder else
                 "(with `serve --variants DIR`) a file of that folder")
        return UnknownVariant(f"unknown variant {shown(name, 100)}: a request names a built-in "
                              f"variant ({', '.join(builtin_ids())}) or {where}, never a path")


# -- settings that would name a file --------------------------------------------------------------

def _names_a_file(value: Any) -> bool:
    if isinstance(value, str):
        return ".toml" in value.lower()
    if isinstance(value, dict):
        return any(_names_a_file(k) or _names_a_file(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_names_a_file(v) for v in value)
    return False


def check_settings(args: Any, where: str = "\"set\"") -> None:
    """Refuse `--set` arguments (KEY=VALUE text) or a record's options (a table) whose values
    name a `.toml` file: a rotation's `ladder.games` would open it. Built-in ids stay allowed."""
    if len(args or ()) > MAX_SETTINGS:
        raise RecordError(f"{where}: {len(args)} settings (at most {MAX_SETTINGS})")
    items = args.items() if isinstance(args, dict) else enumerate(args or ())
    for key, arg in items:
        if isinstance(args, dict):
            bad = _names_a_file(arg) or _names_a_file(key)
            text = f"{key}"
        else:
            try:
                bad = _names_a_file(parse_toml(arg)) if isinstance(arg, str) else False
            except InputError:
                bad = ".toml" in arg.lower()
            text = arg
        if bad:
            raise UnknownVariant(f"{where}: {shown(text, 100)} names a file; a request names "
                                 f"only built-in variants (a rotation's games by their ids)")
