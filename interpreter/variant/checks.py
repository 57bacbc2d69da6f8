"""Checks of a merged variant document that involve more than one key, or a key's name.

They run on the raw merged dict, beside the schema validation, so that a file with a misspelt
key and a starting position of 14 checkers gets both reported. Every check skips what has the
wrong type (the schema reports that).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, TypeGuard, cast

from pydantic import ValidationError

from interpreter.bounded import MAX_INT, shown, shown_name
from interpreter.kernel.board import their_pip
from interpreter.kernel.rules import MoveRules
from interpreter.scoring.registry import LADDER_MODELS, ladder_class
from interpreter.variant.problems import (
    Problem,
    choices_str,
    did_you_mean,
    found_str,
    key_str,
    problems_from_validation,
    toml_repr,
)
from interpreter.variant.schema import (RULE_COMMON_FIELDS, RULE_KIND_FIELDS, choice_key, Board,
                                        Dice, Movement)

# Names reach messages, generated code and the web pages: each is checked whole
# (`fullmatch`: `$` would let a trailing newline through), ASCII only, and bounded in length.
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_DEFINE = re.compile(r"[ ]*[A-Za-z_][A-Za-z0-9_]*[ ]*(?:\([ ]*(?:[A-Za-z_][A-Za-z0-9_]*[ ]*"
                     r"(?:,[ ]*[A-Za-z_][A-Za-z0-9_]*[ ]*)*)?\))?[ ]*", re.ASCII)
#: the longest rule id, region, definition or option name
MAX_NAME = 64


def valid_rule_id(name: str) -> bool:
    """A rule id (or a variant id): lowercase ASCII letters and digits joined by '-'."""
    return len(name) <= MAX_NAME and _ID.fullmatch(name) is not None


def valid_name(name: str) -> bool:
    """A region or option name: a rule-language name."""
    return len(name) <= MAX_NAME and _NAME.fullmatch(name) is not None


def valid_definition(key: str) -> bool:
    """A `[define]` key: `name` or `name(p, q)`."""
    return len(key) <= 4 * MAX_NAME and _DEFINE.fullmatch(key) is not None


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _is_int(value: Any) -> TypeGuard[int]:
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
    problems += _check_integers(data)
    problems += _check_geometry(data)
    problems += _check_option_sets(data)
    return problems


def _check_integers(data: Any, path: tuple = ()) -> list[Problem]:
    """Every integer of the file within ±`MAX_INT`, so that no count, score or option makes
    arithmetic or printing expensive (the schema's own bounds are tighter where it has them)."""
    out: list[Problem] = []
    if isinstance(data, dict):
        for key, value in data.items():
            out += _check_integers(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _check_integers(value, path + (i,))
    elif _is_int(data) and not -MAX_INT <= data <= MAX_INT:
        out.append(Problem(path, "bad-value", f"`{key_str(path)}` is {shown(data, 24)}; integers "
                           f"in a variant file are at most {MAX_INT:,} in size"))
    return out


def _check_variant(data: dict[str, Any], concrete: bool) -> list[Problem]:
    out: list[Problem] = []
    info = _table(data, "variant")
    vid = info.get("id")
    if isinstance(vid, str) and not valid_rule_id(vid):
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
    ladder = data.get("ladder")
    # a rotation plays the boards of its games: it has none of its own
    rotation = isinstance(ladder, dict) and ladder_class(ladder).plays_games
    if concrete and not rotation:
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
    # (a board of 36 points, XII scripta's, has pips up to 36)
    top = 36 if board.get("points") == 36 else 24
    for pip, count in start.items():
        if not (pip.isdigit() and 1 <= int(pip) <= top):
            out.append(Problem(("board", "start", pip), "bad-value",
                               f"`board.start` keys are pips from 1 to {top}; found `{pip}`",
                               "key"))
            sound = False
        if _is_int(count):
            if count < 0:
                out.append(Problem(("board", "start", pip), "bad-value",
                                   f"`board.start.{pip}` must be at least 0; found {count}"))
                sound = False
            total += count
        else:
            sound = False  # the schema reports the type
    unentered = board.get("unentered", 0)
    if not _is_int(unentered):
        sound = False
    if sound and _is_int(checkers) and total + unentered != checkers:
        off_board = f" and {unentered} unentered" if unentered else ""
        out.append(Problem(("board", "start"), "start-sum",
                           f"the starting position has {total} checkers{off_board} but "
                           f"`board.checkers` is {checkers}",
                           alternatives=(("board", "checkers"), ("board", "unentered"))))
    return out


def _check_names(data: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    for name in _table(data, "regions"):
        if not valid_name(name):
            out.append(Problem(("regions", name), "bad-name",
                               f"region name `{shown_name(name)}` must be a rule-language name "
                               f"(ASCII letters, digits and '_', not starting with a digit, at "
                               f"most {MAX_NAME} characters)", "key"))
    for name in _table(data, "define"):
        if not valid_definition(name):
            out.append(Problem(("define", name), "bad-name",
                               f"definition `{shown_name(name)}` must be a name or `name(p, q)` "
                               f"with parameter names", "key"))
    for name in _table(data, "options"):
        if not valid_name(name):
            out.append(Problem(("options", name), "bad-name",
                               f"option name `{shown_name(name)}` must be a rule-language name "
                               f"(ASCII letters, digits and '_', not starting with a digit, at "
                               f"most {MAX_NAME} characters)", "key"))
    for rule_id in _table(data, "rules"):
        if not valid_rule_id(rule_id):
            out.append(Problem(("rules", rule_id), "bad-name",
                               f"rule id `{shown_name(rule_id)}` must be lowercase letters and "
                               f"digits joined by '-', e.g. `petit-jan`", "key"))
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
    stages = _table(data, "turn").get("stages")
    for stage_id, stage in (stages.items() if isinstance(stages, dict) else ()):
        # a stage rule says what follows a throw it governs, or it does nothing
        if isinstance(stage, dict) and not any(k in stage for k in ("next", "to_opponent",
                                                                    "again")):
            out.append(Problem(("turn", "stages", stage_id, "next"), "missing-key",
                               f"stage rule `{stage_id}` says nothing of what follows a throw "
                               f"it governs: it needs `next` (the stage that follows), "
                               f"`to_opponent` (the numbers left go to the opponent) or "
                               f"`again` (the same player throws again)", "missing"))
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
    on = rule.get("on")
    allowed_on = {"score": ("roll", "play"), "forbid": ("play", "move"),
                  "end": ("play", "move", "throw")}.get(kind)
    if isinstance(on, str) and allowed_on and on not in allowed_on:
        out.append(Problem(path + ("on",), "bad-choice",
                           f"`on` of a {kind} rule must be one of {choices_str(allowed_on)}; "
                           f"found {toml_repr(on)}"))
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


def _check_geometry(data: dict[str, Any]) -> list[Problem]:
    """Switch combinations the kernel cannot play: pins need a point of two to be closed, checkers
    waiting off the board and on a start pip at once, a bonus throw without its stages."""
    out: list[Problem] = []
    movement = _table(data, "movement")
    board = _table(data, "board")
    dice = _table(data, "dice")
    if movement.get("hit") == "pin" and movement.get("block", 2) != 2:
        out.append(Problem(("movement", "block"), "bad-value",
                           "`hit = \"pin\"` pins a lone opposing checker and two close a point, "
                           f"so `movement.block` must be 2; found {toml_repr(movement['block'])}",
                           alternatives=(("movement", "hit"),)))
    unentered = board.get("unentered")
    if _is_int(unentered) and unentered > 0 and movement.get("enter") == "start":
        out.append(Problem(("board", "unentered"), "bad-value",
                           "checkers waiting off the board enter as from the bar; they cannot "
                           "be combined with `movement.enter = \"start\"`",
                           alternatives=(("movement", "enter"),)))
    throw = dice.get("bonus_throw", [])
    stages = dice.get("bonus", [])
    if isinstance(throw, list) and throw and len(throw) != 2:
        out.append(Problem(("dice", "bonus_throw"), "bad-value",
                           f"`dice.bonus_throw` is a throw of two numbers, e.g. [1, 2]; found "
                           f"{toml_repr(throw)}"))
    if isinstance(throw, list) and isinstance(stages, list) and bool(throw) != bool(stages):
        missing = ("dice", "bonus") if throw else ("dice", "bonus_throw")
        out.append(Problem(missing, "missing-key" if missing not in (("dice", k) for k in dice)
                           else "bad-value",
                           "`dice.bonus_throw` and `dice.bonus` go together: the throw, and "
                           "what its full play grants", "missing" if missing[1] not in dice
                           else "value"))
    if dice.get("count") == 3:
        # each die of three is one move: what the two-dice switches say of a doublet, the lower
        # number or a throw that grants more has no meaning with three
        for key, bad in (("numbers", ("lower",)),
                         ("doublets", ("twice", "twice_and_throw_again", "four_and_throw_again",
                                       "once"))):
            if dice.get(key) in bad:
                out.append(Problem(("dice", key), "bad-value",
                                   f"with `dice.count = 3` each die is one single move, so "
                                   f"`dice.{key}` cannot be {toml_repr(dice[key])}",
                                   alternatives=(("dice", "count"),)))
        if throw:
            out.append(Problem(("dice", "bonus_throw"), "bad-value",
                               "a bonus throw is a throw of two dice; with `dice.count = 3` "
                               "there is none", alternatives=(("dice", "count"),)))
        stage_rules = _table(data, "turn").get("stages")
        for sid, st in (stage_rules.items() if isinstance(stage_rules, dict) else ()):
            for key in ("next", "to_opponent"):
                # (numbers the opponent MAY play pass from a throw of three as they are)
                if isinstance(st, dict) and key in st and not (
                        key == "to_opponent" and st.get("optional") is True):
                    out.append(Problem(("turn", "stages", sid, key), "bad-value",
                                       f"a stage rule's `{key}` continues a throw of two "
                                       f"dice; with `dice.count = 3` a stage rule may only "
                                       f"give another throw (`again`)",
                                       alternatives=(("dice", "count"),)))
    if dice.get("count") == 3:
        # a score rule's `doublet` points go to a throw whose first two dice are equal: with
        # three dice that reads two of them (as the rule language's `doublet` would)
        for rule_id, rule in _table(data, "rules").items():
            if isinstance(rule, dict) and rule.get("kind") == "score" and "doublet" in rule:
                out.append(Problem(("rules", rule_id, "doublet"), "bad-value",
                                   "a score rule's `doublet` points judge a throw of two dice; "
                                   "with `dice.count = 3` give `simple` (or `value`) only",
                                   "key", alternatives=(("dice", "count"),)))
    if isinstance(stages, list) and "complement_doublet" in stages and (
            "chosen_doublet" not in stages
            or stages.index("complement_doublet") < stages.index("chosen_doublet")):
        out.append(Problem(("dice", "bonus"), "bad-value",
                           "`complement_doublet` is the complement of the chosen doublet: it "
                           "comes after `chosen_doublet` in `dice.bonus`"))
    return out


#: the tables whose constants an option may set, and their models
_SETTABLE = ("dice", "movement", "ladder", "board")
#: the keys of `[board]` an option may set: the layout and the route's length, not how
#: positions are read (`unplaced`) nor the men off the board (`unentered`, `all_off`)
_BOARD_SETTABLE = ("start", "points", "black")


def _check_option_sets(data: dict[str, Any]) -> list[Problem]:
    """`[option_sets.NAME.CHOICE]`: the option is declared, CHOICE is one of its choices, and
    each table's keys and values are what that table accepts."""
    out: list[Problem] = []
    options = _table(data, "options")
    choices = _table(data, "option_choices")
    for name, per_choice in _table(data, "option_sets").items():
        path = ("option_sets", name)
        if name not in options:
            out.append(Problem(path, "unknown-option",
                               f"`option_sets.{name}` names no option declared in "
                               f"`[options]`{did_you_mean(name, options)}", "key"))
            continue
        if not isinstance(per_choice, dict):
            continue
        allowed = choices.get(name)
        written = [choice_key(c) for c in allowed] if isinstance(allowed, list) else None
        for choice, tables in per_choice.items():
            cpath = path + (choice,)
            if written is not None and choice not in written:
                out.append(Problem(cpath, "option-choice",
                                   f"`{choice}` is not a choice of option `{name}` (choices: "
                                   f"{', '.join(written)}){did_you_mean(choice, written)}",
                                   "key"))
                continue
            if not isinstance(tables, dict):
                continue
            for table, values in tables.items():
                tpath = cpath + (table,)
                if table not in _SETTABLE:
                    out.append(Problem(tpath, "unknown-key",
                                       "an option sets keys of "
                                       f"{', '.join(f'`[{t}]`' for t in _SETTABLE)}"
                                       f", not `[{table}]`{did_you_mean(table, _SETTABLE)}",
                                       "key"))
                    continue
                if not isinstance(values, dict):
                    out.append(Problem(tpath, "bad-type", f"`{key_str(tpath)}` must be a table "
                                       f"of keys; found {found_str(values)}"))
                    continue
                if table == "board":
                    bad = [k for k in values if k not in _BOARD_SETTABLE]
                    for k in bad:
                        out.append(Problem(tpath + (k,), "unknown-key",
                                           f"an option sets `[board]`'s "
                                           f"{', '.join(f'`{b}`' for b in _BOARD_SETTABLE)}, "
                                           f"not `{k}`{did_you_mean(k, _BOARD_SETTABLE)}",
                                           "key"))
                    if bad:
                        continue
                if table == "ladder":
                    ladder = data.get("ladder")
                    model = LADDER_MODELS.get(ladder.get("kind", "")) if isinstance(ladder, dict) \
                        else None
                    if model is None:
                        continue                 # the ladder's own problem is reported
                    candidate = {**cast(dict, ladder), **values}
                elif table == "board":
                    model = Board
                    board = data.get("board")
                    candidate = {**(board if isinstance(board, dict) else {}), **values}
                else:
                    model = Dice if table == "dice" else Movement
                    candidate = values
                try:
                    model.model_validate(candidate)
                except ValidationError as error:
                    found = [p for p in problems_from_validation(error, model, tpath)
                             if p.key_path[len(tpath):len(tpath) + 1] and
                             p.key_path[len(tpath)] in values]
                    if table == "ladder":
                        # the option set may be right for the ladder of the file it is in and
                        # wrong for the kind a file extending it chose: the fault then goes
                        # to whichever of the two was written last
                        kind = ladder.get("kind")    # type: ignore[union-attr]
                        found = [replace(p, message=f"{p.message} (the ladder in effect is "
                                         f"`kind = {toml_repr(kind)}`)",
                                         alternatives=(("ladder", "kind"),)) for p in found]
                    out += found
    return out



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


# -- what can be played --------------------------------------------------------------------------

_MOVES = MoveRules()


def _switch(movement: dict[str, Any], key: str, kind: type) -> Any:
    """A movement switch as the kernel will see it: the file's value when it has the right type,
    else the default (a wrong type is the schema's to report)."""
    value = movement.get(key, getattr(_MOVES, key))
    if kind is int:
        return value if _is_int(value) else getattr(_MOVES, key)
    return value if isinstance(value, kind) else getattr(_MOVES, key)


def check_playable(data: dict[str, Any], *, concrete: bool) -> list[Problem]:
    """Switch combinations and ladder values that cannot be played: accepted by the schema one
    by one, but together they would make the kernel raise, corrupt the board, or give a game
    that can never end (docs/security.md lists what each check guards against). Each problem is
    placed at the key that was set last among those involved."""
    out: list[Problem] = []
    board = _table(data, "board")
    movement = _table(data, "movement")
    mv = ("movement",)
    off = _switch(movement, "off_pip", int)
    home = _switch(movement, "home_top", int)
    bear_off = _switch(movement, "bear_off", str)
    hit = _switch(movement, "hit", str)
    enter = _switch(movement, "enter", str)
    start_pip = _switch(movement, "start_pip", int)

    if bear_off == "all_home" and 0 <= off and 1 <= home <= 24 and off >= home:
        out.append(Problem(mv + ("off_pip",), "unplayable",
                           f"`movement.off_pip` = {off} reaches the whole home board (`home_top` "
                           f"= {home}): with `bear_off = \"all_home\"` no checker could ever be "
                           f"borne off; `off_pip` must be below `home_top`",
                           alternatives=(mv + ("home_top",), mv + ("bear_off",))))
    if hit == "bar" and enter != "bar":
        out.append(Problem(mv + ("hit",), "unplayable",
                           f"a hit checker goes to the bar (`hit = \"bar\"`), but it can only "
                           f"come back into play from the bar with `enter = \"bar\"` (here "
                           f"{toml_repr(enter)}): it would stay there for good",
                           alternatives=(mv + ("enter",),)))
    if movement.get("hit_across") is True and hit in ("none", "pin"):
        out.append(Problem(mv + ("hit_across",), "unplayable",
                           f"a checker hit across the board (`hit_across = true`) goes where "
                           f"`hit` sends hit checkers, and `hit = {toml_repr(hit)}` sends them "
                           f"nowhere: `hit` must be \"bar\", \"start\" or \"unentered\"",
                           alternatives=(mv + ("hit",),)))
    entry = movement.get("entry_pip")
    points = board.get("points", 24) if board.get("points") in (12, 18, 24, 36) else 24
    if _is_int(entry) and 25 < entry <= 37 and entry > points + 1:
        out.append(Problem(mv + ("entry_pip",), "bad-value",
                           f"with `entry_pip` = {entry} a 1 would enter a checker on pip "
                           f"{entry - 1}, past the first point of a route of {points} points "
                           f"(`board.points`): `entry_pip` is at most {min(points + 1, 25)}",
                           alternatives=(("board", "points"),)))
    if _is_int(entry) and 7 <= entry <= 25 and entry - 6 <= off:
        out.append(Problem(mv + ("entry_pip",), "unplayable",
                           f"with `entry_pip` = {entry} a 6 would enter a checker on pip "
                           f"{entry - 6}, at or below `off_pip` = {off}, where it counts as "
                           f"borne off: `entry_pip` must be above `off_pip` + 6",
                           alternatives=(mv + ("off_pip",),)))
    route = _switch(movement, "route", str)
    mirror = their_pip(route, start_pip) if 1 <= start_pip <= 24 else 0
    # (with `held_start = "bar"` a checker hit while the hitter's side stands there goes to
    # the bar instead, so that one pip never holds both colours)
    if hit == "start" and mirror > off and movement.get("held_start") != "bar":
        out.append(Problem(mv + ("start_pip",), "unplayable",
                           f"with `hit = \"start\"` a hit checker goes back to its owner's start "
                           f"pip, which is the opponent's pip {mirror} (`start_pip` = "
                           f"{start_pip}); his own checkers could stand there too. That pip must "
                           f"count as borne off for him: `off_pip` at least {mirror} "
                           f"(the 12-point Tric-Trac: `start_pip = 24`, `off_pip = 1`)",
                           alternatives=(mv + ("hit",), mv + ("off_pip",))))
    corners = [(key, movement.get(key)) for key in ("own_corner", "opp_corner")
               if _is_int(movement.get(key)) and 1 <= movement[key] <= 24]
    if len(corners) == 2 and corners[0][1] == corners[1][1]:
        out.append(Problem(mv + ("opp_corner",), "unplayable",
                           f"the own corner and the opponent's corner are the same pip "
                           f"({corners[0][1]})", alternatives=(mv + ("own_corner",),)))
    for key, pip in corners:
        if pip <= off:
            out.append(Problem(mv + (key,), "unplayable",
                               f"`movement.{key}` = {pip} is at or below `off_pip` = {off}: a "
                               f"checker reaching it is borne off, so it is no corner",
                               alternatives=(mv + ("off_pip",),)))
    out += _check_start_playable(board, off, route)
    out += _check_sides_and_places(data)
    out += _check_ladder_playable(data, concrete)
    return out


def _check_sides_and_places(data: dict[str, Any]) -> list[Problem]:
    """The route's length, the second side's start and state, where hit checkers are placed,
    the limit per point and the choices before the game: each within the route and naming
    what the file declares."""
    out: list[Problem] = []
    board = _table(data, "board")
    movement = _table(data, "movement")
    turn = _table(data, "turn")
    declared: dict[str, Any] = turn["state"] if isinstance(turn.get("state"), dict) else {}
    points = board.get("points", 24)
    points = points if points in (12, 18, 24, 36) else 24
    route = _switch(movement, "route", str)
    out += _check_wide(data, points, route)
    if points != 24 and route == "same":
        out.append(Problem(("board", "points"), "unplayable",
                           f"a route of {points} points cannot run the same way round from "
                           f"opposite corners (`route = \"same\"` needs the 24 points)",
                           alternatives=(("movement", "route"),)))
    black: dict[str, Any] = board["black"] if isinstance(board.get("black"), dict) else {}
    for where, layout in ((("board", "start"), board.get("start")),
                          (("board", "black", "start"), black.get("start"))):
        if not isinstance(layout, dict):
            continue
        for pip, count in layout.items():
            if pip.isascii() and pip.isdigit() and points < int(pip) <= 24:
                out.append(Problem(where + (pip,), "bad-value",
                                   f"pip {pip} is not on a route of {points} points "
                                   f"(`board.points`)", "key",
                                   alternatives=(("board", "points"),)))
    layout = black.get("start")
    checkers = board.get("checkers")
    if isinstance(layout, dict) and _is_int(checkers):
        counts = [v for v in layout.values() if _is_int(v)]
        unentered = board.get("unentered", 0)
        if len(counts) == len(layout) and _is_int(unentered) \
                and sum(counts) + unentered != checkers:
            out.append(Problem(("board", "black", "start"), "start-sum",
                               f"the second side's start has {sum(counts)} checkers"
                               f"{f' and {unentered} unentered' if unentered else ''} but "
                               f"`board.checkers` is {checkers}",
                               alternatives=(("board", "checkers"),)))
    for name in (black.get("state") or {}) if isinstance(black.get("state"), dict) else ():
        if name not in declared:
            out.append(Problem(("board", "black", "state", name), "unknown-name",
                               f"`board.black.state.{name}` sets a state that `[turn.state]` "
                               f"does not declare", "key"))
    hit = _switch(movement, "hit", str)
    place = movement.get("place")
    if hit == "place" and place is None:
        out.append(Problem(("movement", "hit"), "missing-key",
                           "with `hit = \"place\"` the file says where a hit checker goes: "
                           "`movement.place`, its owner's pips in the order tried, or the name "
                           "of a `[turn.state]` value", "value"))
    if isinstance(place, str) and place not in declared:
        out.append(Problem(("movement", "place"), "unknown-name",
                           f"`movement.place` names the state `{place}`, which `[turn.state]` "
                           f"does not declare"))
    for key in ("place", "limit_pips"):
        pips = movement.get(key)
        if isinstance(pips, list):
            outside = [p for p in pips if _is_int(p) and points < p <= 24]
            if outside:
                out.append(Problem(("movement", key), "bad-value",
                                   f"`movement.{key}` names pip {outside[0]}, which is not on a "
                                   f"route of {points} points",
                                   alternatives=(("board", "points"),)))
    dice = _table(data, "dice")
    fixed = dice.get("fixed_die")
    if isinstance(fixed, str):
        if fixed not in declared or isinstance(declared.get(fixed), bool):
            out.append(Problem(("dice", "fixed_die"), "unknown-name",
                               f"`fixed_die` names `{fixed}`, which `[turn.state]` does not "
                               f"declare as a count"))
        if dice.get("count") != 3:
            out.append(Problem(("dice", "fixed_die"), "bad-value",
                               "`fixed_die` is the third die of a throw: it needs `count = 3`",
                               alternatives=(("dice", "count"),)))
    options = _table(data, "options")
    option_choices = _table(data, "option_choices")
    choose: dict[str, Any] = turn["choose"] if isinstance(turn.get("choose"), dict) else {}
    for name, ch in choose.items():
        if not isinstance(ch, dict):
            continue
        where = ("turn", "choose", name)
        only_if = ch.get("only_if")
        for opt, value in (only_if.items() if isinstance(only_if, dict) else ()):
            if opt not in options:
                out.append(Problem(where + ("only_if", opt), "unknown-option",
                                   f"`only_if` names no option declared in `[options]`"
                                   f"{did_you_mean(opt, options)}", "key"))
            elif isinstance(option_choices.get(opt), list) and \
                    value not in option_choices[opt]:
                out.append(Problem(where + ("only_if", opt), "option-choice",
                                   f"{toml_repr(value)} is not a choice of option `{opt}` "
                                   f"(choices: {', '.join(map(toml_repr, option_choices[opt]))})"))
        if name not in declared:
            out.append(Problem(where, "unknown-name",
                               f"`[turn.choose.{name}]` sets a state that `[turn.state]` does not "
                               f"declare", "key"))
        values = ch.get("values")
        n = len(values) if isinstance(values, list) else 0
        for key in ("theirs", "labels"):
            given = ch.get(key)
            if isinstance(given, list) and n and len(given) != n:
                out.append(Problem(where + (key,), "bad-value",
                                   f"`{key}` gives {len(given)} entries for {n} values: one for "
                                   f"each, in the same order"))
        labels = ch.get("labels")
        if isinstance(labels, list) and len(set(map(str, labels))) != len(labels):
            out.append(Problem(where + ("labels",), "bad-value",
                               "each choice needs a label of its own: a player answers with it"))
        span = ch.get("span")
        if _is_int(span) and isinstance(values, list):
            past = [v for v in values if _is_int(v) and not 1 <= v <= points - span + 1]
            if past:
                out.append(Problem(where + ("values",), "bad-value",
                                   f"with `span = {span}` the run from value {past[0]} leaves the "
                                   f"route of {points} points", alternatives=(where + ("span",),)))
    stages: dict[str, Any] = turn["stages"] if isinstance(turn.get("stages"), dict) else {}
    for sid, st in stages.items():
        if isinstance(st, dict) and st.get("optional") is True and "to_opponent" not in st:
            out.append(Problem(("turn", "stages", sid, "optional"), "bad-value",
                               "`optional` says the opponent may decline the numbers passed to "
                               "him: it needs `to_opponent`", "key"))
        if isinstance(st, dict) and st.get("instead_of_throw") is True and (
                "to_opponent" not in st or st.get("optional") is True):
            out.append(Problem(("turn", "stages", sid, "instead_of_throw"), "bad-value",
                               "`instead_of_throw` makes the numbers passed the opponent's "
                               "turn, played as a throw: it needs `to_opponent`, and numbers he "
                               "must play (not `optional = true`)", "key"))
        if isinstance(st, dict) and st.get("moves") == "bear_off" and not (
                "to_opponent" in st and st.get("optional") is True):
            out.append(Problem(("turn", "stages", sid, "moves"), "bad-value",
                               "`moves = \"bear_off\"` says what the numbers passed to the "
                               "opponent may do: it needs `to_opponent` and `optional = true` "
                               "(numbers he may play or decline)", "key"))
    out += _check_stacked(board, movement, points)
    return out


def _check_stacked(board: dict[str, Any], movement: dict[str, Any], points: int) -> list[Problem]:
    """`board.stacked`: pips of the route, each listed once, each starting with two or more of
    the side's checkers; `movement.unstack` only with stacked pairs."""
    out: list[Problem] = []
    stacked = board.get("stacked")
    if "unstack" in movement and not stacked:
        out.append(Problem(("movement", "unstack"), "bad-value",
                           "`movement.unstack` says when the stage of unstacking is judged, but "
                           "no checkers start stacked: it needs `board.stacked`", "key",
                           alternatives=(("board", "stacked"),)))
    if not isinstance(stacked, list):
        return out
    start: dict[str, Any] = board["start"] if isinstance(board.get("start"), dict) else {}
    seen: set[int] = set()
    for i, pip in enumerate(stacked):
        if not _is_int(pip):
            continue
        if pip in seen:
            out.append(Problem(("board", "stacked", i), "bad-value",
                               f"pip {pip} is listed twice in `board.stacked`"))
        seen.add(pip)
        if not 1 <= pip <= points:
            out.append(Problem(("board", "stacked", i), "bad-value",
                               f"pip {pip} is not on the route of {points} points"))
            continue
        count = start.get(str(pip), 0)
        if not (_is_int(count) and count >= 2):
            out.append(Problem(("board", "stacked", i), "unplayable",
                               f"a pair stacked on pip {pip} needs two checkers there at the "
                               f"start, but `board.start` puts {count} there",
                               alternatives=(("board", "start"),)))
    return out


#: the movement switches a board of 36 points does not take, with the value each must keep
_NOT_WIDE: tuple[tuple[str, Any, str], ...] = (
    ("hit", ("bar", "unentered", "removed", "none"), "a hit checker goes to the bar, among the "
     "unentered, out of the game, or nowhere (`hit = \"start\"`, `\"place\"` and "
     "`\"pin\"` read the 24 points of the other boards)"),
    ("enter", ("bar", "none"), "checkers enter from the bar or from off the board "
     "(`enter = \"start\"` reads the 24 points of the other boards)"),
    ("own_corner", (None,), "there are no corners"),
    ("opp_corner", (None,), "there are no corners"),
    ("hit_across", (False,), "there is no hit across the board"),
    ("no_landing", ([],), "every point may be landed on"),
    ("off_pip", (0,), "a checker is borne off past pip 1 (`off_pip = 0`)"),
)


def _check_wide(data: dict[str, Any], points: int, route: str) -> list[Problem]:
    """A board of 36 points goes with the route of XII scripta and the switches it takes;
    that route with the 36 points, and its pips within them."""
    out: list[Problem] = []
    movement = _table(data, "movement")
    if route == "scripta" and points != 36:
        out.append(Problem(("movement", "route"), "unplayable",
                           f"`route = \"scripta\"` runs over the 36 points of three rows of "
                           f"twelve; this board has {points} (`board.points = 36`)",
                           alternatives=(("board", "points"),)))
    if points == 36 and route != "scripta":
        out.append(Problem(("board", "points"), "unplayable",
                           f"a board of 36 points has three rows of twelve, the middle one "
                           f"shared: it takes `movement.route = \"scripta\"`, not "
                           f"{toml_repr(route)}", alternatives=(("movement", "route"),)))
    if points != 36:
        return out
    for key, allowed, why in _NOT_WIDE:
        if key in movement and movement[key] not in allowed:
            out.append(Problem(("movement", key), "unplayable",
                               f"on a board of 36 points {why}: `movement.{key}` cannot be "
                               f"{toml_repr(movement[key])}", alternatives=(("board", "points"),)))
    entry = movement.get("entry_pip")
    if _is_int(data.get("board", {}).get("unentered")) and data["board"]["unentered"] \
            and entry != 37:
        out.append(Problem(("movement", "entry_pip"), "unplayable",
                           f"on a board of 36 points a checker waiting off the board enters on "
                           f"the middle row, a number d on pip 37 − d: `entry_pip` must be 37, "
                           f"not {toml_repr(entry) if entry is not None else 25}",
                           alternatives=(("board", "points"),)))
    return out


def _check_start_playable(board: dict[str, Any], off: int, route: str) -> list[Problem]:
    out: list[Problem] = []
    start = board.get("start")
    if not isinstance(start, dict):
        return out
    pips = {int(k): v for k, v in start.items()
            if k.isascii() and k.isdigit() and 1 <= int(k) <= 24 and _is_int(v) and v > 0}
    low = [pip for pip in sorted(pips, reverse=True) if pip <= off]
    if low:
        out.append(Problem(("board", "start", str(low[0])), "unplayable",
                           f"`board.start` puts checkers on pip{'s' if len(low) > 1 else ''} "
                           f"{_pip_list(low)}, but a checker reaching pip {off} "
                           f"(`movement.off_pip`) or below is borne off", "key",
                           alternatives=(("movement", "off_pip"),)))
    for pip in sorted(pips, reverse=True):
        # the opponent's checkers on his own pip q stand on the mover's pip their_pip(q)
        mirror = their_pip(route, pip)
        if pip > mirror and mirror in pips:
            out.append(Problem(("board", "start", str(pip)), "unplayable",
                               f"`board.start` puts checkers on pips {pip} and {mirror}, which "
                               f"are the same point seen from each side: both players' checkers "
                               f"would stand on it", "key"))
    if board.get("all_off") == "restack":
        # the restack sets a side's men up again on these pips while the opponent plays on:
        # his checkers must never stand there, so each must count as off for him
        open_pips = [pip for pip in sorted(pips, reverse=True) if their_pip(route, pip) > off]
        if open_pips:
            pip = open_pips[0]
            out.append(Problem(("board", "start", str(pip)), "unplayable",
                               f"with `all_off = \"restack\"` a side whose men are all off is set "
                               f"up again on its starting points while the opponent plays on, "
                               f"but the opponent's checkers could stand on pip {pip} (his pip "
                               f"{their_pip(route, pip)}); every starting point must count as off "
                               f"for him, at or below `off_pip` = {off} seen from his side (the "
                               f"12-point Tric-Trac: all on pip 24, `off_pip = 1`)", "key",
                               alternatives=(("board", "all_off"), ("movement", "off_pip"))))
    return out


def _pip_list(pips: list[int]) -> str:
    return ", ".join(map(str, pips[:-1])) + " and " + str(pips[-1]) if len(pips) > 1 \
        else str(pips[0])


def _check_ladder_playable(data: dict[str, Any], concrete: bool) -> list[Problem]:
    out: list[Problem] = []
    ladder = data.get("ladder")
    if not concrete or not isinstance(ladder, dict):
        return out
    kind = ladder.get("kind")
    # what the ladder named requires of the file (a kind the schema refuses requires nothing)
    known = ladder_class(kind) if isinstance(kind, str) and kind in LADDER_MODELS else None
    off = _switch(_table(data, "movement"), "off_pip", int)
    if known is not None:
        out += known.file_problems(ladder, off)
    rules = {rid: r for rid, r in _table(data, "rules").items() if isinstance(r, dict)}
    disabled = tuple(("rules", rid, "enabled") for rid, r in rules.items()
                     if r.get("enabled") is False)
    removed = (("remove_rules",),) if "remove_rules" in data else ()

    def enabled(kind_: str) -> bool:
        return any(r.get("kind") == kind_ and r.get("enabled") is not False
                   for r in rules.values())

    if known is not None and known.ended_by_rules and rules and not enabled("end"):
        out.append(Problem(("ladder", "kind"), "unplayable",
                           f"a `{kind}` ladder ends each game when an `end` rule holds, and this "
                           f"variant has no enabled `end` rule: its games could never end",
                           alternatives=disabled + removed))
    if known is not None and known.counted_in_points and not enabled("score"):
        out.append(Problem(("ladder", "kind"), "unplayable",
                           f"a `{kind}` ladder is won with the points of the `score` rules, and "
                           f"this variant has no enabled `score` rule: its games could never end",
                           alternatives=disabled + removed))
    return out
