"""The differences between two variants, after `extends` and `--set`: rule by rule, option by
option, switch by switch, ladder key by ladder key.

`diff_documents(a, b)` compares two loaded documents (`VariantDoc`) and returns the JSON object
of `tablier diff --json`:

    {"rules": {"added": [id, ...], "removed": [id, ...],
               "changed": [{"id", "field", "a", "b"}, ...]},
     "options": [...], "movement": [...], "dice": [...], "ladder": [...], "board": [...],
     "option_sets": [...], "regions": [...], "define": [...], "variant": [...], "bot": [...]}

`added` are the ids of the rules only B has, `removed` those only A has; `changed` names each
field of a rule both have whose value differs, defaults filled in (`enabled`, `on`, ...). Every
element of the other lists is `{"key", "a", "b"}`: the key inside its table (`block`,
`opening_roll`, `holes_to_win`, `checkers`, `start` for the whole starting position), and its
value in A and in B, null where
that side has no such key (a ladder of another kind, an option one file does not declare). In
`options`, the key is the option's name for its value and `NAME.choices` for its list of
choices. Values are compared after the defaults of the schema are filled in, so a key written
with its default value is no difference. The movement, dice and ladder are compared as they
are in effect, each option's `[option_sets]` entry for its current value applied; an entry
whose value an option's choice sets says so (`"set_by": {"a": OPTION, "b": OPTION}`).
`option_sets` compares what each choice sets (key `OPTION.CHOICE.TABLE.KEY`), `regions` and
`define` the named pips and definitions, `variant` the `[variant]` fields (id, name, sources,
...), `bot` the search player's `[bot]` weights (`weights.NAME`) and features
(`features.NAME`). `render_diff` writes the same as Markdown, with the words of each value.
"""
from __future__ import annotations

from collections.abc import Sequence
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from interpreter.errors import TablierError
from interpreter.rulebook.blocks import Block, Heading, Para, Table, code, to_html, to_markdown
from interpreter.rulebook.words import effect, toml_value
from interpreter.variant.fingerprint import flat_turn
from interpreter.variant.schema import Rule, choice_key, choice_key as ck, Dice, Movement

#: the tables of `[dice]`-like switches that are compared key by key
_SWITCH_TABLES = ("movement", "dice")


def _entry(key: str, a: Any, b: Any) -> dict[str, Any]:
    return {"key": key, "a": a, "b": b}


def _compare_models(a: BaseModel | None, b: BaseModel | None) -> list[dict[str, Any]]:
    da = a.model_dump() if a is not None else {}
    db = b.model_dump() if b is not None else {}
    keys = list(da) + [k for k in db if k not in da]
    return [_entry(k, da.get(k), db.get(k)) for k in keys if da.get(k) != db.get(k)]


def _compare_rules(a: dict[str, Rule], b: dict[str, Rule]) -> dict[str, Any]:
    changed = []
    for rule_id, ra in a.items():
        rb = b.get(rule_id)
        if rb is None:
            continue
        da, db = ra.model_dump(), rb.model_dump()
        changed += [{"id": rule_id, "field": f, "a": da[f], "b": db[f]}
                    for f in da if da[f] != db[f]]
    return {"added": [r for r in b if r not in a], "removed": [r for r in a if r not in b],
            "changed": changed}


def _compare_options(a: Any, b: Any) -> list[dict[str, Any]]:
    names = list(a.options) + [n for n in b.options if n not in a.options]
    out = []
    for name in names:
        va, vb = a.options.get(name), b.options.get(name)
        if va != vb or type(va) is not type(vb):
            out.append(_entry(name, va, vb))
        ca, cb = a.option_choices.get(name), b.option_choices.get(name)
        if ca != cb:
            out.append(_entry(f"{name}.choices", ca, cb))
    return out


def _compare_board(a: Any, b: Any) -> list[dict[str, Any]]:
    """Every key of `[board]`; the starting position as a whole, compared pip by pip."""
    out = []
    for entry in _compare_models(a, b):
        if entry["key"] != "start":
            out.append(entry)
        elif a.start_pips() != b.start_pips():
            out.append(entry)
    order = list(type(a).model_fields)
    return sorted(out, key=lambda e: order.index(e["key"]) if e["key"] in order else len(order))


def _compare_dicts(a: dict[str, Any], b: dict[str, Any], prefix: str = "") -> list[dict[str, Any]]:
    keys = list(a) + [k for k in b if k not in a]
    return [_entry(prefix + k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]


def _flatten_sets(sets: dict[str, Any]) -> dict[str, Any]:
    """`[option_sets]` as OPTION.CHOICE.TABLE.KEY → value."""
    return {f"{o}.{c}.{t}.{k}": v for o, per in sets.items() for c, tables in per.items()
            for t, values in tables.items() for k, v in values.items()}


def _set_by(model: Any) -> dict[tuple[str, str], str]:
    """(table, key) → the option whose current value's `[option_sets]` entry sets it."""
    out: dict[tuple[str, str], str] = {}
    for name, per in (model.option_sets or {}).items():
        for table, values in (per.get(ck(model.options.get(name))) or {}).items():
            for key in values:
                out[(table, key)] = name
    return out


def _in_effect(entries: list[dict[str, Any]], table: str, by_a: dict, by_b: dict
               ) -> list[dict[str, Any]]:
    """Each entry with the options whose sets put its values in effect (`set_by`)."""
    for e in entries:
        by = {side: by[(table, e["key"])] for side, by in (("a", by_a), ("b", by_b))
              if (table, e["key"]) in by}
        if by:
            e["set_by"] = by
    return entries


def diff_documents(a: Any, b: Any) -> dict[str, Any]:
    """The differences between two loaded documents, as `tablier diff --json` prints them: the
    movement, dice and ladder as they are in effect, the options' `[option_sets]` applied."""
    from interpreter.variant.build import apply_option_sets

    ma, mb = a.model, b.model
    ea, eb = apply_option_sets(ma), apply_option_sets(mb)
    by_a, by_b = _set_by(ma), _set_by(mb)
    return {
        "rules": _compare_rules(ma.rules, mb.rules),
        "options": _compare_options(ma, mb),
        "movement": _in_effect(_compare_models(ea.movement, eb.movement), "movement",
                               by_a, by_b),
        "dice": _in_effect(_compare_models(ea.dice, eb.dice), "dice", by_a, by_b),
        "ladder": _in_effect(_compare_models(ea.ladder, eb.ladder), "ladder", by_a, by_b),
        "board": _compare_board(ma.board, mb.board),
        "option_sets": _compare_dicts(_flatten_sets(ma.option_sets),
                                      _flatten_sets(mb.option_sets)),
        "regions": _compare_dicts(ma.regions, mb.regions),
        "define": _compare_dicts(ma.define, mb.define),
        "variant": _compare_models(ma.variant, mb.variant),
        "bot": _compare_dicts(ma.bot.weights, mb.bot.weights, "weights.") +
        _compare_dicts(ma.bot.features, mb.bot.features, "features."),
        "turn": _compare_dicts(flat_turn(ma), flat_turn(mb)),
    }


def split_overrides(sets: Sequence[str], a_ref: str, b_ref: str) -> tuple[list[str], list[str]]:
    """The `--set` arguments of each side: `a:KEY=VALUE` and `b:KEY=VALUE` (or the variant as
    written, `VARIANT:KEY=VALUE`) set one side, a plain `KEY=VALUE` both."""
    side_a: list[str] = []
    side_b: list[str] = []
    for arg in sets:
        colon, eq = arg.find(":"), arg.find("=")
        prefix = arg[:colon] if colon > 0 and (eq < 0 or colon < eq) else None
        to_a = prefix is not None and (prefix.lower() == "a" or prefix == a_ref)
        to_b = prefix is not None and (prefix.lower() == "b" or prefix == b_ref)
        if to_a or to_b:
            rest = arg[colon + 1:]
            if to_a:
                side_a.append(rest)
            if to_b:
                side_b.append(rest)
        else:
            side_a.append(arg)
            side_b.append(arg)
    return side_a, side_b


def diff_variants(a_ref: str | Path, b_ref: str | Path, sets: Sequence[str] = ()) -> \
        tuple[Any, Any, dict[str, Any]]:
    """Load both variants with their `--set` arguments and compare them."""
    from interpreter.rulebook.book import effective
    from interpreter.variant.loader import load_document

    set_a, set_b = split_overrides(sets, str(a_ref), str(b_ref))
    a = effective(load_document(a_ref, set_a))
    b = effective(load_document(b_ref, set_b))
    return a, b, diff_documents(a, b)


# -- Markdown and HTML ---------------------------------------------------------------------------

def _shown(value: Any) -> str:
    return "—" if value is None else code(toml_value(value))


def _capital(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text[:1].upper() + text[1:]


def _vid(doc: Any) -> str:
    return doc.model.variant.id or Path(doc.path).stem


def _side(doc: Any, letter: str) -> str:
    info = doc.model.variant
    text = f"**{letter}**: {info.name or _vid(doc)} ({code(_vid(doc))}"
    if doc.overrides:
        text += ", with " + ", ".join(code("--set " + o) for o in doc.overrides)
    return text + ")"


def _with_words(table: str, key: str, value: Any) -> str:
    models: dict[str, type[BaseModel]] = {"dice": Dice, "movement": Movement}
    model = models[table]
    info = model.model_fields.get(key)
    if value is None or info is None:
        return _shown(value)
    return f"{_shown(value)}: {effect(info, value)}"


def _option_words(doc: Any, key: str, value: Any) -> str:
    described = doc.model.option_descriptions.get(key)
    words = described.choices.get(choice_key(value)) if described is not None and \
        value is not None and not isinstance(value, list) else None
    return f"{_shown(value)}: {words}" if words else _shown(value)


def diff_blocks(a: Any, b: Any, result: dict[str, Any], level: int = 2) -> list[Block]:
    """The diff as blocks, its sections at heading `level` (the title one above); the tables
    without a difference are named together in one sentence."""
    top = max(level - 1, 1)
    out: list[Block] = [Heading(top, f"{code(_vid(a))} and {code(_vid(b))}: the differences"),
                        Para(_side(a, "A") + "; " + _side(b, "B") + ". Compared after "
                             "`extends` and `--set`, with the defaults of the file format "
                             "filled in.")]
    same: list[str] = []
    body: list[Block] = []
    rules = result["rules"]
    if any(rules.values()):
        body.append(Heading(level, "Rules"))
    else:
        same.append("the rules")
    if rules["added"]:
        body.append(Para("Only in B: " + ", ".join(
            f"{code(r)} ({b.model.rules[r].name})" for r in rules["added"]) + "."))
    if rules["removed"]:
        body.append(Para("Only in A: " + ", ".join(
            f"{code(r)} ({a.model.rules[r].name})" for r in rules["removed"]) + "."))
    if rules["changed"]:
        body.append(Table(("rule", "field", "A", "B"), tuple(
            (code(c["id"]), code(c["field"]), _shown(c["a"]), _shown(c["b"]))
            for c in rules["changed"])))
    titles = (("options", "Options", "the options"), ("dice", "The turn: the dice", "the dice"),
              ("movement", "Movement", "the movement"), ("board", "The board", "the board"),
              ("ladder", "The ladder", "the ladder"))
    for name, title, words in titles:
        entries = result[name]
        if not entries:
            same.append(words)
            continue
        body.append(Heading(level, title))
        if name in _SWITCH_TABLES:
            body.append(Table(("key", "A", "B"), tuple(
                (code(e["key"]), _with_words(name, e["key"], e["a"]),
                 _with_words(name, e["key"], e["b"])) for e in entries)))
        elif name == "ladder":
            fields = {**type(b.model.ladder).model_fields, **type(a.model.ladder).model_fields} \
                if a.model.ladder is not None and b.model.ladder is not None else {}
            body.append(Table(("key", "A", "B", "meaning"), tuple(
                (code(e["key"]), _shown(e["a"]), _shown(e["b"]),
                 _capital(fields[e["key"]].description) if e["key"] in fields else "")
                for e in entries)))
        elif name == "options":
            body.append(Table(("key", "A", "B"), tuple(
                (code(e["key"]), _option_words(a, e["key"], e["a"]),
                 _option_words(b, e["key"], e["b"])) for e in entries)))
        else:
            body.append(Table(("key", "A", "B"), tuple(
                (code(e["key"]), _shown(e["a"]), _shown(e["b"])) for e in entries)))
    extra = [(f"regions.{e['key']}", e["a"], e["b"]) for e in result.get("regions", ())]
    extra += [(f"define.{e['key']}", e["a"], e["b"]) for e in result.get("define", ())]
    if extra:
        body.append(Heading(level, "Regions and definitions"))
        body.append(Table(("key", "A", "B"), tuple(
            (code(k), _shown(None if v1 is None else " ".join(v1.split())),
             _shown(None if v2 is None else " ".join(v2.split()))) for k, v1, v2 in extra)))
    else:
        same.append("the regions and definitions")
    for name, title, words in (("option_sets", "What the options' choices set",
                                "what the options' choices set"),
                               ("turn", "The turn: stages and state ([turn])",
                                "the turn's stages and state"),
                               ("variant", "The variant's description", "the description"),
                               ("bot", "The search player's judgement ([bot])",
                                "the search player's judgement")):
        entries = result.get(name) or []
        if not entries:
            same.append(words)
            continue
        body.append(Heading(level, title))
        body.append(Table(("key", "A", "B"), tuple(
            (code(e["key"]), _shown(e["a"]), _shown(e["b"])) for e in entries)))
    in_effect = [(t, e) for t in ("movement", "dice", "ladder") for e in result.get(t, ())
                 if e.get("set_by")]
    if in_effect:
        body.append(Para("Set by an option's choice (`[option_sets]`): " + "; ".join(
            f"{code(t + '.' + e['key'])} by " + ", ".join(
                f"{side.upper()}'s {code(o)}" for side, o in e["set_by"].items())
            for t, e in in_effect) + "."))
    if same:
        listed = same[0] if len(same) == 1 else ", ".join(same[:-1]) + " and " + same[-1]
        out.append(Para(f"No difference in {listed}." if body else
                        f"No difference at all: {listed} are the same."))
    return out + body


def render_diff(a_ref: str | Path, b_ref: str | Path, sets: Sequence[str] = (), *,
                fmt: str = "markdown", level: int = 2) -> str:

    a, b, result = diff_variants(a_ref, b_ref, sets)
    if fmt == "json":
        return json.dumps(result, ensure_ascii=False)
    if not 1 <= level <= 5:
        raise TablierError(f"the heading level must be from 1 to 5, not {level}")
    blocks = diff_blocks(a, b, result, level)
    if fmt == "html":
        return to_html(blocks, f"{_vid(a)} and {_vid(b)}")
    if fmt != "markdown":
        raise TablierError(f"unknown format {fmt!r}")
    return to_markdown(blocks)
