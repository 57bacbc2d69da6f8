"""Checks of a merged variant document that involve more than one key, or a key's name.

They run on the raw merged dict, beside the schema validation, so that a file with a misspelt
key and a starting position of 14 checkers gets both reported. Every check skips what has the
wrong type (the schema reports that).
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from interpreter.scoring.registry import LADDER_MODELS
from interpreter.variant.problems import (
    Problem,
    choices_str,
    did_you_mean,
    found_str,
    key_str,
    problems_from_validation,
    toml_repr,
)
from interpreter.variant.schema import RULE_COMMON_FIELDS, RULE_KIND_FIELDS, choice_key

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DEFINE = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\(\s*([A-Za-z_][A-Za-z0-9_]*\s*"
                     r"(,\s*[A-Za-z_][A-Za-z0-9_]*\s*)*)?\))?\s*$")


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_document(data: dict[str, Any], *, concrete: bool) -> list[Problem]:
    """Every cross-key problem of a merged document; `concrete` adds what a playable variant
    needs."""
    problems: list[Problem] = []
    problems += _check_variant(data, concrete)
    problems += _check_board(data, concrete)
    problems += _check_names(data)
    problems += _check_options(data)
    problems += _check_rules(data)
    return problems


def _check_variant(data: dict[str, Any], concrete: bool) -> list[Problem]:
    out: list[Problem] = []
    info = _table(data, "variant")
    vid = info.get("id")
    if isinstance(vid, str) and not _ID.match(vid):
        out.append(Problem(("variant", "id"), "bad-value",
                           f"`variant.id` must be lowercase letters and digits joined by '-', "
                           f"e.g. \"tric-trac-12\"; found {toml_repr(vid)}"))
    if concrete:
        for key in ("id", "name"):
            if key not in info:
                out.append(Problem(("variant", key), "missing-key",
                                   f"missing key `variant.{key}`: a playable variant needs it "
                                   f"(a base file says `abstract = true` in `[variant]`)",
                                   "missing"))
    return out


def _check_board(data: dict[str, Any], concrete: bool) -> list[Problem]:
    out: list[Problem] = []
    board = _table(data, "board")
    checkers = board.get("checkers")
    start = board.get("start")
    if concrete:
        for key in ("checkers", "start"):
            if key not in board:
                out.append(Problem(("board", key), "missing-key",
                                   f"missing key `board.{key}`: a playable variant needs it "
                                   f"(a base file says `abstract = true` in `[variant]`)",
                                   "missing"))
    if not isinstance(start, dict):
        return out
    total = 0
    sound = True
    for pip, count in start.items():
        if not (pip.isdigit() and 1 <= int(pip) <= 24):
            out.append(Problem(("board", "start", pip), "bad-value",
                               f"`board.start` keys are pips from 1 to 24; found `{pip}`", "key"))
            sound = False
        if _is_int(count):
            if count < 0:
                out.append(Problem(("board", "start", pip), "bad-value",
                                   f"`board.start.{pip}` must be at least 0; found {count}"))
                sound = False
            total += count
        else:
            sound = False  # the schema reports the type
    if sound and _is_int(checkers) and total != checkers:
        out.append(Problem(("board", "start"), "start-sum",
                           f"the starting position has {total} checkers but `board.checkers` "
                           f"is {checkers}", alternatives=(("board", "checkers"),)))
    return out


def _check_names(data: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    for name in _table(data, "regions"):
        if not _NAME.match(name):
            out.append(Problem(("regions", name), "bad-name",
                               f"region name `{name}` must be a rule-language name (letters, "
                               f"digits and '_', not starting with a digit)", "key"))
    for name in _table(data, "define"):
        if not _DEFINE.match(name):
            out.append(Problem(("define", name), "bad-name",
                               f"definition `{name}` must be a name or `name(p, q)` with "
                               f"parameter names", "key"))
    for rule_id in _table(data, "rules"):
        if not _ID.match(rule_id):
            out.append(Problem(("rules", rule_id), "bad-name",
                               f"rule id `{rule_id}` must be lowercase letters and digits joined "
                               f"by '-', e.g. `petit-jan`", "key"))
    return out


def _check_options(data: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    options = _table(data, "options")
    choices = _table(data, "option_choices")
    for name, value in options.items():
        path = ("options", name)
        if not isinstance(value, (str, int, bool)):
            out.append(Problem(path, "bad-type", f"option `{name}` must be a string, an integer "
                               f"or true/false; found {found_str(value)}"))
            continue
        allowed = choices.get(name)
        if isinstance(allowed, list):
            if not any(type(c) is type(value) and c == value for c in allowed):
                hint = did_you_mean(value, [c for c in allowed if isinstance(c, str)]) \
                    if isinstance(value, str) else ""
                out.append(Problem(path, "option-choice",
                                   f"option `{name}` must be one of {choices_str(allowed)}; "
                                   f"found {toml_repr(value)}{hint.replace('`', chr(34))}"))
        elif isinstance(value, str) and name not in choices:
            out.append(Problem(path, "missing-choices",
                               f"option `{name}` is a string, so `[option_choices]` must list "
                               f"its allowed values (e.g. `{name} = [{toml_repr(value)}, ...]`)",
                               "key"))
    for name, allowed in choices.items():
        path = ("option_choices", name)
        if name not in options:
            out.append(Problem(path, "unknown-option",
                               f"`option_choices.{name}` names no option declared in "
                               f"`[options]`{did_you_mean(name, options)}", "key"))
            continue
        if not isinstance(allowed, list):
            continue
        if not allowed:
            out.append(Problem(path, "bad-value", f"`{key_str(path)}` must list at least one "
                               f"value"))
        for i, choice in enumerate(allowed):
            if type(choice) is not type(allowed[0]) or not isinstance(choice, (str, int)):
                out.append(Problem(path + (i,), "bad-type",
                                   f"the choices of option `{name}` must all be strings or all "
                                   f"integers; found {found_str(choice)}"))
    out += _check_option_descriptions(options, choices, _table(data, "option_descriptions"))
    return out


def _check_option_descriptions(options: dict[str, Any], choices: dict[str, Any],
                               descriptions: dict[str, Any]) -> list[Problem]:
    """`[option_descriptions]` describes declared options, and only values they can take."""
    out: list[Problem] = []
    for name, described in descriptions.items():
        path = ("option_descriptions", name)
        if name not in options:
            out.append(Problem(path, "unknown-option",
                               f"`option_descriptions.{name}` names no option declared in "
                               f"`[options]`{did_you_mean(name, options)}", "key"))
            continue
        if not isinstance(described, dict) or not isinstance(described.get("choices"), dict):
            continue   # the schema reports the type
        value = options[name]
        allowed = choices.get(name)
        if isinstance(allowed, list):
            known = [choice_key(c) for c in allowed]
        elif isinstance(value, bool):
            known = ["true", "false"]
        else:
            continue   # an integer option without choices: any integer may be described
        for key in described["choices"]:
            if key not in known:
                out.append(Problem(path + ("choices", key), "option-choice",
                                   f"`option_descriptions.{name}.choices` describes "
                                   f"{toml_repr(key)}, which is not a value of option `{name}` "
                                   f"(its values: {', '.join(known)})"
                                   f"{did_you_mean(key, known)}", "key"))
    return out


def _check_rules(data: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    for rule_id, rule in _table(data, "rules").items():
        if isinstance(rule, dict) and rule.get("kind") in RULE_KIND_FIELDS:
            out += _check_rule(rule_id, rule, rule["kind"])
    return out


def _check_rule(rule_id: str, rule: dict[str, Any], kind: str) -> list[Problem]:
    """What a rule of `kind` needs, what it may not combine, and what it may not have."""
    path = ("rules", rule_id)
    label = f'rule `{rule_id}` (kind "{kind}")'
    out: list[Problem] = []

    def needs(message: str) -> None:
        out.append(Problem(path, "rule-kind", f"{label} needs {message}", "key"))

    def excludes(key: str, message: str) -> None:
        out.append(Problem(path + (key,), "rule-kind", f"{label} {message}", "key"))

    if kind == "score":
        points = [k for k in ("simple", "doublet") if k in rule]
        if "value" not in rule and len(points) < 2:
            if points:
                other = "doublet" if points[0] == "simple" else "simple"
                needs(f"`{other}` beside `{points[0]}` (or a `value`)")
            else:
                needs("its points: `simple` and `doublet`, or `value`")
        if "when" in rule and "ways" in rule:
            excludes("ways", "takes `when` or `ways`, not both")
    elif kind == "prefer":
        given = [k for k in ("when", "minimize", "maximize") if k in rule]
        if not given:
            needs("one of `when`, `minimize`, `maximize`")
        elif len(given) > 1:
            excludes(given[1], "takes only one of `when`, `minimize`, `maximize`; found "
                     + ", ".join(f"`{k}`" for k in given))
    elif kind == "forbid" and "when" not in rule:
        needs("`when`: the condition that makes a play illegal")
    elif kind == "end" and "when" not in rule:
        needs("`when`: the condition that ends the game")
    elif kind == "value":
        for key in ("when", "value"):
            if key not in rule:
                needs(f"`{key}`")
    allowed = RULE_KIND_FIELDS[kind] | RULE_COMMON_FIELDS
    for key in rule:
        if key not in allowed and key in _KIND_SPECIFIC:
            users = sorted(k for k, fields in RULE_KIND_FIELDS.items() if key in fields)
            # the fault is the key, or the kind if an extending file changed it
            out.append(Problem(path + (key,), "rule-kind",
                               f"rule `{rule_id}`: `{key}` has no meaning in a {kind} rule (it "
                               f"belongs to {' and '.join(users)} rules)", "key",
                               alternatives=(path + ("kind",),)))
    return out


_KIND_SPECIFIC = frozenset().union(*RULE_KIND_FIELDS.values())


def check_ladder(data: dict[str, Any], *, concrete: bool) -> tuple[Any, list[Problem]]:
    """Validate `[ladder]` with the model registered for its kind (looked up now, so kinds
    registered after import count). Returns the ladder model (None if absent or invalid)."""
    if "ladder" not in data:
        if concrete:
            return None, [Problem(("ladder",), "missing-key",
                                  "missing table `[ladder]`: a playable variant needs a scoring "
                                  "ladder, e.g. `[ladder] kind = \"game\"` (a base file says "
                                  "`abstract = true` in `[variant]`)", "missing")]
        return None, []
    ladder = data["ladder"]
    if not isinstance(ladder, dict):
        return None, [Problem(("ladder",), "bad-type",
                              f"field `ladder` must be a table; found {found_str(ladder)}")]
    if "kind" not in ladder:
        return None, [Problem(("ladder", "kind"), "missing-key",
                              f"missing key `kind` in `[ladder]`; known kinds: "
                              f"{choices_str(sorted(LADDER_MODELS))}", "missing")]
    kind = ladder["kind"]
    if not isinstance(kind, str):
        return None, [Problem(("ladder", "kind"), "bad-type",
                              f"field `ladder.kind` must be a string; found {found_str(kind)}")]
    model = LADDER_MODELS.get(kind)
    if model is None:
        hint = did_you_mean(kind, LADDER_MODELS).replace("`", '"')
        return None, [Problem(("ladder", "kind"), "unknown-ladder",
                              f"unknown ladder kind {toml_repr(kind)}; known kinds: "
                              f"{choices_str(sorted(LADDER_MODELS))}{hint}")]
    try:
        return model.model_validate(ladder), []
    except ValidationError as error:
        return None, problems_from_validation(error, model, ("ladder",))
