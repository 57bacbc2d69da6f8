"""`tablier diff`: exactly the keys that differ between two merged documents.

The expected differences are computed here from the documents themselves, table by table and key
by key (every rule field, option, choice, switch, ladder and board key after `extends`, `--set`
and the schema's defaults), and the diff must name exactly those keys, with both values.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main
from interpreter.rulebook.diff import diff_documents, flat_turn, render_diff, split_overrides
from interpreter.variant.build import apply_option_sets
from interpreter.variant.loader import load_document

ROOT = Path(__file__).resolve().parent.parent
MMAI = str(ROOT / "tests" / "data" / "trictrac" / "mmai.toml")
SIX_TABLES = str(ROOT / "tests" / "data" / "trictrac" / "six-tables-worth-6.toml")

PAIRS = [
    ("triktrak", "trictrac-ecrire", ()),
    ("trictrac-ecrire", "trictrac-combine", ()),
    ("backgammon", "hypergammon", ()),
    ("backgammon", "nackgammon", ()),
    ("backgammon", "tric-trac-12", ()),
    ("triktrak", "tric-trac-12", ()),
    ("triktrak", MMAI, ()),
    ("triktrak", SIX_TABLES, ()),
    ("trictrac", "triktrak", ()),
    ("backgammon", "backgammon", ("b:ladder.match_length=5", "b:rules.gammon.enabled=false",
                                  "a:movement.block=1", "dice.doublets=\"twice\"")),
    ("triktrak", "triktrak", ("b:sum_rest_closed_by=\"one_or_more\"",
                              "b:option_choices.pile_de_misere=[\"off\", \"on\", \"always\"]")),
]


#: the tables of the diff, in order
TABLES = ["rules", "options", "movement", "dice", "ladder", "board", "option_sets", "regions",
          "define", "variant", "bot", "turn"]


def _flat(model: Any) -> dict[str, dict[str, Any]]:
    """Each compared table of a merged document as {key: value}, defaults filled in; the
    movement, dice and ladder with the options' `[option_sets]` applied (the values in
    effect)."""
    dump = model.model_dump()
    effect = apply_option_sets(model)
    ladder = effect.ladder.model_dump() if effect.ladder is not None else {}
    options = dict(dump["options"])
    options.update({f"{k}.choices": v for k, v in dump["option_choices"].items()})
    board = dump["board"]
    rules = {f"{rid}.{field}": value for rid, rule in dump["rules"].items()
             for field, value in rule.items()}
    sets = {f"{o}.{c}.{t}.{k}": v for o, per in dump["option_sets"].items()
            for c, tables in per.items() for t, values in tables.items()
            for k, v in values.items()}
    bot = {f"weights.{k}": v for k, v in dump["bot"]["weights"].items()}
    bot.update({f"features.{k}": v for k, v in dump["bot"]["features"].items()})
    return {"movement": effect.movement.model_dump(), "dice": effect.dice.model_dump(),
            "ladder": ladder, "board": board, "options": options, "rules": rules,
            "option_sets": sets, "regions": dump["regions"], "define": dump["define"],
            "variant": dump["variant"], "bot": bot, "turn": flat_turn(model)}


def _expected(a: Any, b: Any) -> dict[str, set[tuple[str, Any, Any]]]:
    fa, fb = _flat(a), _flat(b)
    out = {}
    for table in fa:
        keys = set(fa[table]) | set(fb[table])
        out[table] = {(k, json.dumps(fa[table].get(k)), json.dumps(fb[table].get(k)))
                      for k in keys if fa[table].get(k) != fb[table].get(k)}
    return out


@pytest.mark.parametrize("a,b,sets", PAIRS, ids=lambda x: Path(str(x)).stem if x else "")
def test_diff_names_exactly_the_keys_that_differ(a: str, b: str, sets: tuple[str, ...]) -> None:
    set_a, set_b = split_overrides(sets, a, b)
    da, db = load_document(a, set_a), load_document(b, set_b)
    got = diff_documents(da, db)
    want = _expected(da.model, db.model)
    assert list(got) == TABLES
    for table in TABLES[1:]:
        assert all({"key", "a", "b"} <= set(e) <= {"key", "a", "b", "set_by"}
                   for e in got[table])
        assert {(e["key"], json.dumps(e["a"]), json.dumps(e["b"])) for e in got[table]} == \
            want[table], table
    rules = got["rules"]
    assert set(rules) == {"added", "removed", "changed"}
    assert set(rules["added"]) == set(db.model.rules) - set(da.model.rules)
    assert set(rules["removed"]) == set(da.model.rules) - set(db.model.rules)
    common = set(da.model.rules) & set(db.model.rules)
    assert {(f"{c['id']}.{c['field']}", json.dumps(c["a"]), json.dumps(c["b"]))
            for c in rules["changed"]} == \
        {w for w in want["rules"] if w[0].split(".")[0] in common}


def test_acceptance_triktrak_against_trictrac_ecrire(capsys) -> None:
    assert main(["diff", "triktrak", "trictrac-ecrire", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["rules"] == {"added": [], "removed": [], "changed": []}
    assert got["options"] == [] and got["movement"] == [] and got["board"] == []
    assert got["dice"] == [{"key": "opening_roll", "a": "winner_throws_two", "b": "one_die_each"}]
    keys = {e["key"] for e in got["ladder"]}
    assert {"kind", "holes_to_win", "last_hole", "match_lurch", "marks", "lurch_rates"} <= keys
    assert not keys & {"points_per_hole", "second_marker_bredouille", "sortie_bredouille"}
    assert {"key": "kind", "a": "holes", "b": "ecrire"} in got["ladder"]


def test_the_diff_of_b_and_a_is_the_mirror_of_a_and_b() -> None:
    da, db = load_document("backgammon"), load_document("tric-trac-12")
    ab, ba = diff_documents(da, db), diff_documents(db, da)
    assert ab["rules"]["added"] == ba["rules"]["removed"]
    for table in TABLES[1:]:
        assert {(e["key"], json.dumps(e["b"])) for e in ab[table]} == \
            {(e["key"], json.dumps(e["a"])) for e in ba[table]}


def test_per_arm_and_global_sets() -> None:
    assert split_overrides(["a:x=1", "b:y=2", "z=3", "backgammon:w=4", "B:v=5"],
                           "backgammon", "hypergammon") == (["x=1", "z=3", "w=4"],
                                                            ["y=2", "z=3", "v=5"])
    assert split_overrides(['rules."a:b".x=1'], "a", "b") == (['rules."a:b".x=1'],
                                                               ['rules."a:b".x=1'])


def test_markdown_gives_the_words_of_each_value() -> None:
    text = render_diff("triktrak", MMAI)
    assert "No difference in the rules, the dice, the board, the regions and definitions, " \
        "what the options' choices set, the turn's stages and state and the search player's " \
        "judgement." in text
    assert "`\"zero_if_possible\"`: Plays that bear off with a number higher than needed are " \
        "refused only when some play needs none." in text
    assert "`\"per_combination\"`: One way per filling combination" in text
    same = render_diff("triktrak", "triktrak")
    assert "No difference at all" in same
    html = render_diff("backgammon", "hypergammon", fmt="html")
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html


def test_regions_and_definitions_are_in_the_markdown() -> None:
    text = render_diff("backgammon", "tric-trac-12")
    assert "| `regions.home` | `\"1..6\"` | — |" in text
    assert "| `define.their_start` | — | `\"1\"` |" in text


def test_bad_input_exits_1(capsys) -> None:
    assert main(["diff", "backgammon", "no-such-variant"]) == 1
    assert main(["diff", "backgammon", "backgammon", "--set", "b:movement.blok=1"]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_option_set_values_in_effect_bot_and_variant_fields() -> None:
    """An option's choice that sets a switch shows as the switch's value in effect, with the
    option that set it; `[bot]` weights and features and `[variant]` fields are compared."""
    da = load_document("acey-deucey")
    db = load_document("acey-deucey", ['options.ad_hit="rejoin_unentered"'])
    got = diff_documents(da, db)
    assert got["options"] == [{"key": "ad_hit", "a": "bar_first", "b": "rejoin_unentered"}]
    assert got["movement"] == [{"key": "hit", "a": "bar", "b": "unentered",
                                "set_by": {"a": "ad_hit", "b": "ad_hit"}}]
    got = diff_documents(load_document("backgammon"), load_document("plakoto"))
    bot = {e["key"]: (e["a"], e["b"]) for e in got["bot"]}
    assert bot["weights.mother"] == (None, 40.0)
    assert bot["features.mother"] == (None, "their_mother_pinned")
    assert {"key": "id", "a": "backgammon", "b": "plakoto"} in got["variant"]
    assert any(e["key"].startswith("opening_roll.") for e in got["option_sets"])
    text = render_diff("backgammon", "plakoto")
    assert "| `weights.mother` | — | `40.0` |" in text
    assert "## The search player's judgement ([bot])" in text
    changed = diff_documents(load_document("backgammon"),
                             load_document("backgammon", ["bot.weights.blot=-9"]))
    assert changed["bot"] == [{"key": "weights.blot", "a": None, "b": -9.0}]
