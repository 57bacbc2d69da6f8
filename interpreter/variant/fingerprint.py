"""What a variant is, as play and its value see it: `fingerprint_parts(variant)` flattens the built
variant (after `extends`, the options' sets and `--set`) into dotted keys, and
`rules_fingerprint(variant)` is the sha256 of their canonical JSON.

The parts are those `tablier diff` compares (interpreter/rulebook/diff.py), as they are in
effect: the board (its starting position pip by pip), the dice, the movement switches, the
turn's stages, named state and updates, every rule's fields (its kind, `enabled`, `when`,
`value`, ...), the regions and definitions the rules read, the options' values and the ladder's
keys; a rotation adds the fingerprint of each of its games (`games.N`). Names, sources,
descriptions, the summary, aliases and ids are left out, and so are the search player's `[bot]`
table and the notation: two files that differ only in words have the same fingerprint.

A weights file keeps the parts of the variant it was trained on (`rules` in its metadata), so
that `differing_keys` can name what a game played with it differs in without the file.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

#: the fields of a rule, a stage or an update that are words for people
_WORDS = frozenset({"name", "description", "source"})


def _text(value: Any) -> Any:
    """A rule-language text with its runs of white space made one space; other values as
    they are (lists kept as lists)."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, tuple):
        return [_text(v) for v in value]
    if isinstance(value, list):
        return [_text(v) for v in value]
    return value


def _table(prefix: str, values: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key, value in values.items():
        if value is not None:
            out[f"{prefix}.{key}"] = _text(value)


def flat_turn(model: Any) -> dict[str, Any]:
    """The `[turn]` table's stage rules, named state and its updates, key by key
    (`stages.ID.KEY`, `state.NAME`, `update.NAME.KEY`); its dice keys are the `dice` table's."""
    turn = model.turn.model_dump()
    out: dict[str, Any] = {f"stages.{sid}.{k}": v for sid, stage in turn["stages"].items()
                           for k, v in stage.items()}
    out.update({f"state.{name}": v for name, v in turn["state"].items()})
    out.update({f"update.{name}.{k}": v for name, up in turn["update"].items()
                for k, v in up.items()})
    out.update({f"choose.{name}.{k}": v for name, ch in turn.get("choose", {}).items()
                for k, v in ch.items() if k in ("by", "values", "theirs")})
    return out


def fingerprint_parts(variant: Any) -> dict[str, Any]:
    """The play-relevant parts of a built variant as flat dotted keys (`board.start`,
    `dice.count`, `movement.hit`, `turn.stages.ID.when`, `rules.gammon.enabled`,
    `rules.gammon.value`, `options.NAME`, `ladder.jacoby`, ...), each a JSON scalar or list.
    Computed once per variant."""
    cached = variant.__dict__.get("_fingerprint_parts")
    if cached is not None:
        return dict(cached)
    model = variant.model
    out: dict[str, Any] = {}
    board = model.board.model_dump()
    pips = model.board.start_pips()
    board["start"] = ",".join(f"{p}:{n}" for p, n in sorted(pips.items())) if pips else None
    _table("board", board, out)
    for name in ("dice", "movement"):
        table = getattr(model, name, None)
        if table is not None:
            _table(name, table.model_dump(), out)
    turn = {k: v for k, v in flat_turn(model).items() if k.rsplit(".", 1)[-1] not in _WORDS}
    _table("turn", turn, out)
    for rule_id, rule in model.rules.items():
        fields = {k: v for k, v in rule.model_dump().items() if k not in _WORDS}
        _table(f"rules.{rule_id}", fields, out)
    _table("regions", dict(model.regions), out)
    _table("define", dict(model.define), out)
    _table("options", dict(getattr(model, "options", None) or {}), out)
    ladder = getattr(model, "ladder", None)
    if ladder is not None:
        _table("ladder", ladder.model_dump(), out)
    for i, game in enumerate(getattr(variant, "games", ()) or ()):
        out[f"games.{i}"] = rules_fingerprint(game)
    # keys the file format gained later count only where a file sets them: at their default
    # they change nothing, and the fingerprints of networks trained before them still hold
    for key in [k for k in out if _unset(k, out[k])]:
        del out[key]
    # JSON's own view of each value (a tuple a list, an int key a string), so that the parts
    # read back from a weights file compare equal to the parts computed
    out = json.loads(json.dumps(out, sort_keys=True, ensure_ascii=False))
    variant.__dict__["_fingerprint_parts"] = out
    return dict(out)


#: keys of the format added after networks were first trained, with the value that means
#: "not set"; `board.unplaced` only says how a position JSON is read, never how a game plays
_LATER: dict[str, Any] = {
    "board.points": None, "board.black": None, "movement.place": None,
    "movement.place_full": "bar", "movement.limit": 0, "movement.limit_pips": [],
    "movement.entering_stage": False, "board.stacked": None, "movement.unstack": "per_throw"}


def _unset(key: str, value: Any) -> bool:
    if key == "board.unplaced":
        return True
    if key in _LATER:
        return value == _LATER[key] or (value == () and _LATER[key] == [])
    if key.startswith("turn.stages.") and key.endswith(".moves"):
        return value == "any"
    return key.startswith("turn.stages.") and key.endswith((".optional", ".again_partial",
                                                            ".instead_of_throw")) \
        and value is False


def fingerprint_of_parts(parts: Mapping[str, Any]) -> str:
    """The sha256 (hex) of the parts' canonical JSON."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rules_fingerprint(variant: Any) -> str:
    """The sha256 (hex) of everything of the built variant that changes play or its value."""
    cached = variant.__dict__.get("_rules_fingerprint")
    if cached is None:
        cached = variant.__dict__["_rules_fingerprint"] = \
            fingerprint_of_parts(fingerprint_parts(variant))
    return str(cached)


def differing_keys(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The keys whose values differ between two parts dicts (a key only one has included),
    sorted."""
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


#: the parts whose difference makes another game than a network was trained for (another board,
#: dice, movement or turn): the first dotted names, and the dice keys that change the throws
FOREIGN_TABLES = ("board", "movement", "turn")
FOREIGN_DICE = ("dice.count", "dice.doublets", "dice.numbers")


def foreign_keys(keys: list[str]) -> dict[str, list[str]]:
    """Of differing keys, those of another game, by what they make another: board, dice,
    movement, turn."""
    out: dict[str, list[str]] = {}
    for key in keys:
        head = key.split(".", 1)[0]
        if head in FOREIGN_TABLES:
            out.setdefault(head, []).append(key)
        elif key in FOREIGN_DICE:
            out.setdefault("dice", []).append(key)
    return out


def check_rules_meta(meta: Mapping[str, Any]) -> str | None:
    """What is wrong with the rules a weights file's metadata records (`rules_fingerprint`,
    `rules`, `classes`, `trained_from`, `command`), or None when they are well formed or
    absent."""
    fp = meta.get("rules_fingerprint")
    if fp is not None and not (isinstance(fp, str) and len(fp) == 64 and
                               all(c in "0123456789abcdef" for c in fp)):
        return "rules_fingerprint is not a sha256 in hex"
    rules = meta.get("rules")
    if rules is not None:
        if not isinstance(rules, dict):
            return "rules is not a table"
        for k, v in rules.items():
            if not isinstance(k, str) or not _scalar_or_list(v):
                return f"rules[{str(k)[:40]!r}] is not a value"
    classes = meta.get("classes")
    if classes is not None:
        if not isinstance(classes, dict) or not all(
                isinstance(k, str) and k.isdigit() and isinstance(v, list)
                and all(isinstance(r, str) for r in v) for k, v in classes.items()):
            return "classes is not a table of value levels to rule ids"
    trained = meta.get("trained_from")
    if trained is not None:
        if not isinstance(trained, list) or not all(
                isinstance(t, dict) and all(isinstance(t.get(k), (str, type(None)))
                                            for k in ("fingerprint", "sha256"))
                for t in trained):
            return "trained_from is not a list of {fingerprint, sha256}"
    command = meta.get("command")
    if command is not None and not (isinstance(command, list) and
                                    all(isinstance(a, str) for a in command)):
        return "command is not a list of words"
    return None


def _scalar_or_list(v: Any) -> bool:
    if isinstance(v, list):
        return all(_scalar_or_list(x) for x in v)
    return v is None or isinstance(v, (str, int, float, bool))
