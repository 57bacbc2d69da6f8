"""Built variants kept in the user's cache, for the commands that answer positions.

`tablier moves` and `tablier score` answer one line in a few milliseconds; building the variant
they answer for (reading the TOML, validating it against the pydantic models, checking and
compiling its rule snippets) costs far more. `position_variant(ref, overrides)` builds it once
(`interpreter.variant.build.load_variant`) and keeps what the position commands read of it in
the user's cache (`interpreter/usercache.py`) as JSON: the movement switches, the starting
board, the throw rules, and the compiled rule hooks as the Python text the rule compiler
generated, with the fixed sets of pips it names. A later process with the same files and the
same code rebuilds the variant from that entry without importing pydantic, lark or the
checker of the rule language.

An entry is found by the sha256 of the program's own code (every module of the package and
the grammar), the variant file it names and the `--set` overrides; it lists every file the
load read with its sha256, each read again and compared, and its payload carries its own
digest. A missing, stale, foreign or damaged entry is never an error: it is ignored and the
variant is built and stored again. Nothing in an entry is trusted as code: every generated
module is parsed and passes the rule compiler's whitelist (`interpreter.dsl.safety`) before it
is compiled, in a namespace of the runtime table and sets of integers only, so that an entry
can hold no more than what the compiler itself may write.

The stored variant holds no document model (`model` and `ladder` are None): the position
commands read the board, the movement, the throws and the rules, never the file's tables.
Only a variant whose parts are all of the kinds below is stored (not a rotation, not an
abstract base); any other is built each time.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any, Callable, Sequence

from interpreter.dsl import NEVER, RuleSet, ScoreRule
from interpreter.dsl.runtime import BUILTINS, RUNTIME
from interpreter.dsl.safety import MADE_UP, check_module
from interpreter.errors import CommandLineError
from interpreter.kernel.rules import MoveRules
from interpreter.kernel.throws import StageRule, ThrowRules
from interpreter.resources import builtin_variant_path, grammar_dir
from interpreter.threadsafe import compile_tree, parse_python
from interpreter.usercache import cache_dir, read_private, write_private
from interpreter.variant.build import Variant, load_variant

#: the layout of an entry; a change of it (or of any module) makes earlier entries stale
FORMAT = 1
#: the entries kept; the oldest beyond it are removed when one is written
MAX_ENTRIES = 64
_PREFIX = "variant-"

#: the fields of the objects an entry describes; a variant with others is not stored
_VARIANT_FIELDS = frozenset({
    "id", "name", "model", "path", "move_rules", "rules", "start", "doublet_rethrow", "opening",
    "ladder", "extra_throw", "all_off", "mat_variation", "flip", "layout", "files", "sources",
    "throws", "games", "choices", "fixed_slot"})
_RULESET_FIELDS = frozenset({
    "score_roll", "score_play", "forbid", "forbid_move", "prefer", "end", "end_move",
    "end_throw", "value",
    "bot_features", "regions", "stages", "updates", "cost", "dearest", "_roll_fn", "_roll_from"})
_THROW_FIELDS = frozenset({"doublet_rethrow", "bonus_throw", "bonus", "stages"})
#: what the rule compiler sets on a hook function (interpreter/dsl/compiler.py)
_HOOK_ATTRIBUTES = frozenset({"__dsl__", "filter_paths", "each", "waive"})
_BATCHES = {"filter_paths": "filter", "each": "each"}
_NEVER = "never"

_PACKAGE = Path(__file__).resolve().parent.parent


class _NotStorable(Exception):
    """A variant with a part an entry cannot describe: it is built each time."""


def position_variant(ref: str | Path, overrides: Sequence[str] = ()) -> Variant:
    """The variant of `ref` with `overrides`, for the position commands: from its stored entry
    when there is a sound one, else built (with every check of `load_variant`) and stored."""
    place = _entry_path(ref, overrides)
    if place is not None:
        variant = _read(place[0], place[1])
        if variant is not None:
            return variant
    variant = load_variant(ref, overrides)
    if variant.games:
        names = ", ".join(g.id for g in variant.games)
        raise CommandLineError(f"{variant.id} plays several games in turn ({names}): a position "
                               f"belongs to one of them; give it, e.g. `{variant.games[0].id}`")
    if place is not None:
        store(variant, place[0], place[1])
    return variant


# -- where an entry is -----------------------------------------------------------------------------

_code_version: str | None = None


def code_version() -> str:
    """The sha256 of the package's modules and the grammar (each file's path within its folder,
    then its bytes), read once per process."""
    global _code_version
    if _code_version is None:
        h = hashlib.sha256(f"tablier-stored-variant {FORMAT}".encode())
        for root in (_PACKAGE, grammar_dir()):
            for folder, dirs, names in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(names):
                    if name.endswith((".py", ".lark")):
                        path = os.path.join(folder, name)
                        with open(path, "rb") as handle:
                            data = handle.read()
                        h.update(f"\0{os.path.relpath(path, root)}\0{len(data)}\0".encode())
                        h.update(data)
        _code_version = h.hexdigest()
    return _code_version


def _looks_like_path(ref: str) -> bool:
    # as interpreter/variant/loader.py tells a path from a built-in id
    return "/" in ref or "\\" in ref or ref.endswith(".toml") or ref.startswith(".")


def _entry_path(ref: str | Path, overrides: Sequence[str]) -> tuple[str, str] | None:
    """(the entry's file, its key), or None when there is no cache or `ref` names no file."""
    folder = cache_dir()
    if folder is None:
        return None
    if isinstance(ref, str) and not _looks_like_path(ref):
        found = builtin_variant_path(ref)
        if found is None:
            return None         # the load says what is wrong
        target = str(found)
    else:
        try:
            target = os.path.abspath(ref)
        except (OSError, ValueError):
            return None
    try:
        key = hashlib.sha256(json.dumps([FORMAT, code_version(), str(ref), target,
                                         list(overrides)]).encode()).hexdigest()
    except (OSError, ValueError, TypeError):
        return None
    return os.path.join(folder, f"{_PREFIX}{key[:40]}.json"), key


# -- writing ---------------------------------------------------------------------------------------

def store(variant: Variant, path: str, key: str) -> bool:
    """Write the entry of `variant` at `path` (False when the variant cannot be stored)."""
    try:
        payload = describe(variant)
    except _NotStorable:
        return False
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    entry = {"key": key, "digest": hashlib.sha256(body.encode()).hexdigest(), "payload": body}
    write_private(path, json.dumps(entry))
    _prune(os.path.dirname(path))
    return True


def _prune(folder: str) -> None:
    """Keep the `MAX_ENTRIES` entries written last."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(_PREFIX)]
        if len(names) <= MAX_ENTRIES:
            return
        dated = sorted(names, key=lambda n: os.stat(os.path.join(folder, n)).st_mtime_ns)
        for name in dated[:len(names) - MAX_ENTRIES]:
            os.unlink(os.path.join(folder, name))
    except OSError:
        pass


def _need(condition: bool, why: str) -> None:
    if not condition:
        raise _NotStorable(why)


def describe(variant: Variant) -> dict[str, Any]:
    """The entry's payload: plain JSON data, the hooks as generated Python text. Raises
    _NotStorable for a variant with a part it cannot describe exactly."""
    _need({f.name for f in fields(variant)} == _VARIANT_FIELDS, "the variant's fields")
    _need(not variant.fixed_slot, "a third die fixed before the game")
    _need(not variant.games and not variant.abstract, "a rotation or an abstract base")
    # choices before the game, ends judged after each move or on the throw, positions that
    # leave men out: read from the file each time
    _need(not variant.choices and not variant.rules.end_move and not variant.rules.end_throw
          and getattr(variant.model.board, "unplaced", "error") == "error",
          "a structure the entry does not describe")
    _need(bool(variant.sources), "no files")
    rules = variant.rules
    _need(type(rules) is RuleSet and {f.name for f in fields(rules)} == _RULESET_FIELDS,
          "the rule set's fields")
    throws = variant.throws
    _need(type(throws) is ThrowRules and {f.name for f in fields(throws)} == _THROW_FIELDS,
          "the throw rules' fields")
    _need(throws.stages == tuple(StageRule(*h) for h in rules.stages), "the stage rules")
    move_rules = variant.move_rules
    # pairs stacked at the start and bearing off in place: read from the file each time
    _need(not move_rules.stacked and move_rules.bear_off != "in_place",
          "a structure the entry does not describe")
    geometry = move_rules.geometry
    # the board seen by the other side is the geometry's (build_variant), made again on loading
    _need(type(move_rules) is MoveRules
          and variant.flip(variant.start) == geometry.flip(variant.start), "the route")
    hooks = _Hooks()
    payload: dict[str, Any] = {
        "id": _text(variant.id), "name": _text(variant.name), "path": str(variant.path),
        "move_rules": {f.name: _plain(getattr(move_rules, f.name)) for f in fields(move_rules)
                       if f.name != "state"},
        "state": [[_text(n), _int(v), _flag(b)] for n, v, b in move_rules.state],
        "start": _ints(variant.start), "doublet_rethrow": _flag(variant.doublet_rethrow),
        "opening": _text(variant.opening), "extra_throw": _text(variant.extra_throw),
        "all_off": _text(variant.all_off),
        "mat_variation": None if variant.mat_variation is None else _text(variant.mat_variation),
        "layout": [[_int(p), _int(n)] for p, n in variant.layout.items()],
        "files": [[_text(a), _text(b)] for a, b in variant.files],
        "sources": [[_text(a), _text(b)] for a, b in variant.sources],
        "throws": {"doublet_rethrow": _flag(throws.doublet_rethrow),
                   "bonus_throw": None if throws.bonus_throw is None else _ints(throws.bonus_throw),
                   "bonus": [_text(s) for s in throws.bonus]},
        "rules": {
            "score_roll": [[_text(r.id), _text(r.to), _int(r.simple), _int(r.doublet),
                            hooks.name(r.fn)] for r in _score_rules(rules.score_roll)],
            "score_play": [[_text(r.id), _text(r.to), _int(r.simple), _int(r.doublet),
                            hooks.name(r.fn)] for r in _score_rules(rules.score_play)],
            "forbid": [[_text(i), hooks.name(fn)] for i, fn in rules.forbid],
            "forbid_move": [[_text(i), hooks.name(fn)] for i, fn in rules.forbid_move],
            "prefer": [[_text(i), _text(m), hooks.name(fn)] for i, m, fn in rules.prefer],
            "end": [[_text(i), _text(w), hooks.name(fn)] for i, w, fn in rules.end],
            "value": [[_text(i), hooks.name(w), hooks.name(v)] for i, w, v in rules.value],
            "bot_features": [[_text(n), hooks.name(fn)] for n, fn in rules.bot_features],
            "regions": {_text(n): sorted(_ints(s)) for n, s in rules.regions.items()},
            "stages": [[_text(i), hooks.name(w), hooks.name(n), hooks.name(t), hooks.name(a)]
                       for i, w, n, t, a in rules.stages],
            "updates": [[_text(n), _int(slot), _flag(b), hooks.name(fn)]
                        for n, slot, b, fn in rules.updates],
            "cost": _int(rules.cost),
            "dearest": [[_text(k) for k in rules.dearest[0]], _int(rules.dearest[1])],
        },
    }
    payload["hooks"] = hooks.describe()
    return payload


def _score_rules(rules: list) -> list:
    _need(all(type(r) is ScoreRule for r in rules), "a scoring rule")
    return rules


class _Hooks:
    """The compiled hooks an entry names, and the one namespace they were compiled in."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] | None = None
        self.named: dict[str, Any] = {}
        self.modules: dict[int, str] = {}

    def name(self, fn: Any) -> str | None:
        if fn is None:
            return None
        if fn is NEVER:
            return _NEVER
        info = getattr(fn, "__dsl__", None)
        emitted = getattr(info, "emitted", None)
        _need(emitted is not None and set(vars(fn)) <= _HOOK_ATTRIBUTES, "a hook")
        assert emitted is not None
        namespace = emitted.namespace
        if self.namespace is None:
            self.namespace = namespace
        _need(namespace is self.namespace, "hooks of two compilations")
        name = fn.__name__
        _need(MADE_UP.fullmatch(name) is not None and namespace.get(name) is fn, "a hook's name")
        for attr, prefix in _BATCHES.items():
            batch = getattr(fn, attr, None)
            if batch is not None:
                _need(namespace.get(f"{prefix}_{emitted.index}") is batch, "a hook's batch form")
        self.named[name] = fn
        self.modules[emitted.index] = ast.unparse(emitted.module)
        return name

    def describe(self) -> dict[str, Any]:
        namespace = self.namespace or {}
        constants: dict[str, list[int]] = {}
        for name, value in namespace.items():
            if name in RUNTIME or name == "__builtins__":
                _need(value is RUNTIME.get(name) or name == "__builtins__", "the runtime table")
            elif name.startswith("_K"):
                _need(isinstance(value, frozenset), "a constant")
                constants[name] = sorted(_ints(value))
            else:
                # a function one of the modules defines
                _need(MADE_UP.fullmatch(name) is not None and callable(value), "a name")
        hooks = {}
        for name, fn in self.named.items():
            waive = getattr(fn, "waive", None)
            hooks[name] = {
                "batch": [attr for attr in _BATCHES if getattr(fn, attr, None) is not None],
                "index": fn.__dsl__.emitted.index,
                "waive": None if waive is None else _text(waive)}
        return {"modules": [self.modules[i] for i in sorted(self.modules)],
                "constants": constants, "named": hooks}


def _text(value: Any) -> str:
    _need(isinstance(value, str), "a text")
    return value


def _flag(value: Any) -> bool:
    _need(isinstance(value, bool), "a flag")
    return value


def _int(value: Any) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool), "a number")
    return value


def _ints(values: Any) -> list[int]:
    return [_int(v) for v in values]


def _plain(value: Any) -> Any:
    """A movement switch: a flag, a number, a text, None or a tuple of numbers."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    _need(isinstance(value, tuple), "a movement switch")
    return {"tuple": _ints(value)}


# -- reading ---------------------------------------------------------------------------------------

def _read(path: str, key: str) -> Variant | None:
    """The variant of a sound entry, or None (no entry, another key, a file changed since, or
    anything out of place)."""
    data = read_private(path)
    if data is None:
        return None
    try:
        entry = json.loads(data)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        body = entry["payload"]
        if hashlib.sha256(body.encode()).hexdigest() != entry["digest"]:
            return None
        payload = json.loads(body)
        for source, digest in payload["sources"]:
            with open(source, "rb") as handle:
                if hashlib.sha256(handle.read()).hexdigest() != digest:
                    return None
        return rebuild(payload)
    except Exception:  # noqa: BLE001 - a damaged or foreign entry is rebuilt, never an error
        return None


def rebuild(payload: dict[str, Any]) -> Variant:
    """The variant an entry's payload describes (raises on anything out of place)."""
    hooks = _load_hooks(payload["hooks"])

    def hook(name: Any) -> Callable[..., Any] | None:
        if name is None:
            return None
        if name == _NEVER:
            return NEVER
        return hooks[name]

    def required(name: Any) -> Callable[..., Any]:
        fn = hook(name)
        if fn is None:
            raise ValueError("a hook is missing")
        return fn

    r = payload["rules"]
    rules = RuleSet(
        score_roll=[ScoreRule(_str(i), _str(t), _num(s), _num(d), required(h))
                    for i, t, s, d, h in r["score_roll"]],
        score_play=[ScoreRule(_str(i), _str(t), _num(s), _num(d), required(h))
                    for i, t, s, d, h in r["score_play"]],
        forbid=[(_str(i), required(h)) for i, h in r["forbid"]],
        forbid_move=[(_str(i), required(h)) for i, h in r["forbid_move"]],
        prefer=[(_str(i), _str(m), required(h)) for i, m, h in r["prefer"]],
        end=[(_str(i), _str(w), required(h)) for i, w, h in r["end"]],
        value=[(_str(i), required(w), required(v)) for i, w, v in r["value"]],
        bot_features=[(_str(n), required(h)) for n, h in r["bot_features"]],
        regions={_str(n): frozenset(_num(p) for p in pips) for n, pips in r["regions"].items()},
        stages=[(_str(i), required(w), hook(n), hook(t), hook(a))
                for i, w, n, t, a in r["stages"]],
        updates=[(_str(n), _num(slot), _bool(b), required(h)) for n, slot, b, h in r["updates"]],
        cost=_num(r["cost"]),
        dearest=(tuple(_str(k) for k in r["dearest"][0]), _num(r["dearest"][1])))
    values: dict[str, Any] = {}
    for name, value in payload["move_rules"].items():
        if isinstance(value, dict):
            values[name] = tuple(_num(v) for v in value["tuple"])
        elif value is None or isinstance(value, (bool, int, str)):
            values[name] = value
        else:
            raise ValueError("a movement switch")
    values["state"] = tuple((_str(n), _num(v), _bool(b)) for n, v, b in payload["state"])
    move_rules = MoveRules(**values)
    t = payload["throws"]
    bonus_throw = t["bonus_throw"]
    throws = ThrowRules(doublet_rethrow=_bool(t["doublet_rethrow"]),
                        bonus_throw=None if bonus_throw is None else
                        (_num(bonus_throw[0]), _num(bonus_throw[1])),
                        bonus=tuple(_str(s) for s in t["bonus"]),
                        stages=tuple(StageRule(*h) for h in rules.stages))
    mat = payload["mat_variation"]
    return Variant(
        id=_str(payload["id"]), name=_str(payload["name"]), model=None,
        path=Path(_str(payload["path"])), move_rules=move_rules, rules=rules,
        start=tuple(_num(n) for n in payload["start"]),
        doublet_rethrow=_bool(payload["doublet_rethrow"]), opening=_str(payload["opening"]),
        ladder=None, extra_throw=_str(payload["extra_throw"]), all_off=_str(payload["all_off"]),
        mat_variation=None if mat is None else _str(mat), flip=move_rules.geometry.flip,
        layout={_num(p): _num(n) for p, n in payload["layout"]},
        files=tuple((_str(a), _str(b)) for a, b in payload["files"]),
        sources=tuple((_str(a), _str(b)) for a, b in payload["sources"]), throws=throws)


def _load_hooks(stored: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """Compile the stored modules, each checked against the whitelist first, in a namespace of
    the runtime table and the stored sets of integers; the named hooks, their batch forms and
    waivers set as the compiler sets them."""
    namespace: dict[str, Any] = {**RUNTIME, "__builtins__": dict(BUILTINS)}
    for name, pips in stored["constants"].items():
        if not (isinstance(name, str) and name.startswith("_K") and MADE_UP.fullmatch(name)):
            raise ValueError("a constant's name")
        namespace[name] = frozenset(_num(p) for p in pips)
    for number, text in enumerate(stored["modules"]):
        tree = parse_python(_str(text), "exec")
        check_module(tree, namespace)
        filename = f"/<tablier>/stored_{number}.py"
        exec(compile_tree(tree, filename, "exec"), namespace)  # noqa: S102 - whitelisted above
    out: dict[str, Callable[..., Any]] = {}
    for name, about in stored["named"].items():
        fn = namespace.get(name)
        if not (MADE_UP.fullmatch(name) and name.startswith("hook_") and callable(fn)):
            raise ValueError("a hook's name")
        for attr in about["batch"]:
            batch = namespace[f"{_BATCHES[attr]}_{_num(about['index'])}"]
            if not callable(batch):
                raise ValueError("a batch form")
            setattr(fn, attr, batch)
        if about["waive"] is not None:
            fn.waive = _str(about["waive"])
        out[name] = fn
    return out


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a text")
    return value


def _num(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("not a number")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("not a flag")
    return value
