"""Loading variant documents: built-in ids and paths, `extends` and its merge rules, `--set`,
abstract bases, where each key was set, and the TOML key locator."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from budget import scaled

from interpreter.errors import VariantError
from interpreter.kernel.rules import MoveRules
from interpreter.resources import builtin_variant_path
from interpreter.scoring.registry import LADDER_MODELS
from interpreter.variant.build import validate_paths
from interpreter.variant.loader import (
    VariantDoc,
    load_document,
    snippet_diagnostic,
)
from interpreter.variant.locate import SourceMap, decode_string, parse_key
from interpreter.variant.overrides import parse_override

DATA = Path(__file__).parent / "data" / "variants"
HYPER = DATA / "hypergammon.toml"
HOUSE = DATA / "house" / "single-gammons.toml"
BACKGAMMON = builtin_variant_path("backgammon")


def _load(ref: str | Path, *overrides: str) -> VariantDoc:
    # rule-language checks belong to the DSL's own tests; these are about loading
    return load_document(ref, overrides, check_rules=False)


# -- loading ---------------------------------------------------------------------------------------

def test_backgammon_by_id_and_by_path() -> None:
    by_id = _load("backgammon")
    assert BACKGAMMON is not None
    by_path = _load(BACKGAMMON)
    assert by_id.model == by_path.model
    assert by_id.chain == (BACKGAMMON.resolve(),)
    assert by_id.path == BACKGAMMON.resolve()
    m = by_id.model
    assert (m.variant.id, m.variant.name, m.board.checkers) == ("backgammon", "Backgammon", 15)
    assert m.board.start_pips() == {24: 2, 13: 5, 8: 3, 6: 5}
    assert list(m.rules) == ["borne-off", "gammon", "backgammon"]
    assert m.rules["gammon"].kind == "value" and m.rules["gammon"].value == "2"
    assert m.dice.doublets == "four"
    assert m.move_rules() == MoveRules()
    assert m.ladder is not None and m.ladder.kind == "cube"  # type: ignore[attr-defined]
    assert not by_id.is_abstract


def test_builtin_files_pass_the_schema() -> None:
    assert validate_paths(["backgammon"]) == []
    assert validate_paths([HYPER, HOUSE, DATA / "tiny.toml", DATA / "tiny-base.toml"]) == []


def test_extends_replaces_the_start_whole() -> None:
    doc = _load(HYPER)
    m = doc.model
    assert doc.chain == (HYPER.resolve(), BACKGAMMON.resolve())  # type: ignore[union-attr]
    assert m.board.checkers == 3
    assert m.board.start_pips() == {24: 1, 23: 1, 22: 1}   # not merged with backgammon's 15
    assert m.variant.id == "hypergammon"
    assert m.variant.family == "backgammon"                 # inherited key by key
    assert m.variant.aliases == []                          # arrays replaced whole
    assert m.move_rules().checkers == 3
    assert list(m.rules) == ["borne-off", "gammon", "backgammon"]
    assert m.movement == _load("backgammon").model.movement


def test_extends_chain_changes_a_rule_field_by_field_and_removes_one() -> None:
    doc = _load(HOUSE)
    m = doc.model
    assert [p.name for p in doc.chain] == ["single-gammons.toml", "hypergammon.toml",
                                           "backgammon.toml"]
    assert list(m.rules) == ["borne-off", "gammon"]          # backgammon removed
    gammon = m.rules["gammon"]
    assert gammon.value == "1"                               # changed
    assert gammon.description == "A gammon counts as a single game."
    assert (gammon.name, gammon.kind, gammon.when) == ("Gammon", "value", "theirs(off) == 0")
    assert m.board.checkers == 3                             # from the middle file
    assert m.remove_rules == ["backgammon"] and m.extends == "../hypergammon.toml"


def test_locate_names_the_file_that_set_a_key() -> None:
    doc = _load(HOUSE)
    value = doc.locate(("rules", "gammon", "value"))
    assert value is not None
    assert (Path(value.path).name, value.line, value.col) == ("single-gammons.toml", 10, 1)
    assert value.source_line == 'value = "1"'
    when = doc.locate(("rules", "gammon", "when"), value=True)
    assert when is not None and Path(when.path).name == "backgammon.toml"
    assert when.source_line[when.col - 1:].startswith('"theirs(off) == 0"')
    start = doc.locate(("board", "start", "24"))
    assert start is not None and Path(start.path).name == "hypergammon.toml"
    default = doc.locate(("movement", "coin_swap"))         # a default: its table
    assert default is not None and (default.line, default.source_line) == (32, "[movement]")
    assert doc.locate(("option_choices", "x")) is None


def test_relative_extends_is_relative_to_the_extending_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bases").mkdir()
    (tmp_path / "mine").mkdir()
    (tmp_path / "bases" / "base.toml").write_text(
        '[variant]\nabstract = true\nfamily = "test"\n[board]\ncheckers = 1\nstart = { 24 = 1 }\n'
        '[ladder]\nkind = "game"\n', encoding="utf-8")
    (tmp_path / "mine" / "game.toml").write_text(
        'extends = "../bases/base.toml"\n[variant]\nid = "mine"\nname = "Mine"\n',
        encoding="utf-8")
    monkeypatch.chdir(tmp_path / "bases")       # the working directory does not matter
    doc = _load(tmp_path / "mine" / "game.toml")
    assert doc.model.variant.family == "test"
    assert doc.chain[1] == (tmp_path / "bases" / "base.toml").resolve()
    # tests/data/variants/tiny.toml says `extends = "tiny-base.toml"`: a sibling file
    tiny = _load(DATA / "tiny.toml")
    assert tiny.chain[1] == (DATA / "tiny-base.toml").resolve()


def test_abstract_is_flagged_and_not_inherited() -> None:
    base = _load(DATA / "tiny-base.toml")
    assert base.is_abstract and base.model.ladder is None    # a base needs no ladder
    tiny = _load(DATA / "tiny.toml")
    assert not tiny.is_abstract
    assert tiny.model.options == {"rates": "seed", "target": 5, "auto_doubles": False}


def test_an_abstract_base_may_be_incomplete_but_its_extension_may_not(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text('[variant]\nabstract = true\n', encoding="utf-8")
    (tmp_path / "game.toml").write_text('extends = "base.toml"\n', encoding="utf-8")
    assert validate_paths([tmp_path / "base.toml"]) == []
    diagnostics = validate_paths([tmp_path / "game.toml"])
    assert sorted(d.message.split(":")[0] for d in diagnostics) == [
        "missing key `board.checkers`", "missing key `board.start`", "missing key `variant.id`",
        "missing key `variant.name`", "missing table `[ladder]`"]


class _PointsLadder(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["points"] = "points"
    target: int = 5


def test_ladders_are_looked_up_when_validating(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LADDER_MODELS, "points", _PointsLadder)
    path = tmp_path / "points.toml"
    path.write_text('extends = "backgammon"\n[ladder]\nkind = "points"\ntarget = 7\n',
                    encoding="utf-8")
    doc = _load(path)
    assert isinstance(doc.model.ladder, _PointsLadder) and doc.model.ladder.target == 7
    # a ladder of another kind replaces the whole table: `target` is not carried over
    child = tmp_path / "child.toml"
    child.write_text('extends = "points.toml"\n[ladder]\nkind = "game"\n', encoding="utf-8")
    assert _load(child).model.ladder == LADDER_MODELS["game"]()
    # the same kind merges key by key
    same = tmp_path / "same.toml"
    same.write_text('extends = "points.toml"\n[ladder]\ntarget = 9\n', encoding="utf-8")
    assert _load(same).model.ladder == _PointsLadder(target=9)
    diagnostics = validate_paths([tmp_path / "points.toml"])
    assert diagnostics == []
    path.write_text('extends = "backgammon"\n[ladder]\nkind = "points"\ntarget = "7"\n',
                    encoding="utf-8")
    [d] = validate_paths([path])
    assert (d.code, d.line, d.col) == ("bad-type", 4, 10)
    assert "field `ladder.target` must be an integer" in d.message


def test_rules_are_validated_in_the_derived_file_only_once(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('extends = "backgammon"\n[rules.gammon]\nenabled = false\n', encoding="utf-8")
    doc = _load(path)
    assert doc.model.rules["gammon"].enabled is False
    assert doc.model.rules["gammon"].value == "2"


# -- --set -----------------------------------------------------------------------------------------

def test_set_a_switch() -> None:
    doc = _load("backgammon", 'dice.doublets="twice"', "movement.block=1")
    assert doc.model.dice.doublets == "twice"
    assert doc.model.move_rules().doublet_moves == 2
    assert doc.model.movement.block == 1
    loc = doc.locate(("dice", "doublets"), value=True)
    assert loc is not None and (loc.path, loc.line, loc.col) == ("--set", 1, 15)
    assert doc.overrides == ('dice.doublets="twice"', "movement.block=1")


def test_set_a_rule_field() -> None:
    doc = _load("backgammon", 'rules.gammon.value="1"', "rules.backgammon.enabled=false")
    assert doc.model.rules["gammon"].value == "1"
    assert doc.model.rules["gammon"].when == "theirs(off) == 0"
    assert doc.model.rules["backgammon"].enabled is False


def test_set_an_inline_table_merges_key_by_key() -> None:
    doc = _load("backgammon", 'rules.gammon={ value = "1", enabled = false }')
    gammon = doc.model.rules["gammon"]
    assert (gammon.value, gammon.enabled, gammon.name) == ("1", False, "Gammon")


def test_set_an_option_with_and_without_its_table() -> None:
    tiny = DATA / "tiny.toml"
    assert _load(tiny, 'options.rates="classic"').model.options["rates"] == "classic"
    assert _load(tiny, 'rates="classic"').model.options["rates"] == "classic"
    assert _load(tiny, "target=7").model.options["target"] == 7
    assert _load(tiny, "auto_doubles=true").model.options["auto_doubles"] is True
    doc = _load(tiny, "target=3")
    loc = doc.locate(("options", "target"), value=True)
    assert loc is not None and (loc.path, loc.col, loc.source_line) == ("--set", 8, "target=3")


def test_set_errors_name_the_key() -> None:
    with pytest.raises(VariantError) as info:
        _load("backgammon", 'dice.doubles="twice"')
    assert "`dice.doubles`" in str(info.value)
    assert info.value.diagnostics[0].code == "unknown-key"
    with pytest.raises(VariantError) as info:
        _load("backgammon", 'movement.max_dice="yes"')
    [d] = info.value.diagnostics
    assert (d.path, d.code, d.col) == ("--set", "bad-type", 19)
    assert d.message == 'field `movement.max_dice` must be true or false; found the string "yes"'
    with pytest.raises(VariantError) as info:
        _load(DATA / "tiny.toml", 'rates=3')
    assert info.value.diagnostics[0].message == ("option `rates` must be a string; found the "
                                                 "integer 3")


def test_every_bad_override_is_reported() -> None:
    with pytest.raises(VariantError) as info:
        _load("backgammon", "a=1", "b=2", 'dice.doublets="x"')
    assert [d.code for d in info.value.diagnostics] == ["unknown-key", "unknown-key", "bad-choice"]


def test_parse_override() -> None:
    data = {"options": {"rates": "seed"}, "rules": {"gammon": {}}}
    o, errors = parse_override(" rates = 'classic' ", data)
    assert errors == [] and o is not None
    assert (o.written, o.path, o.value) == (("rates",), ("options", "rates"), "classic")
    o, errors = parse_override('rules."gammon".to="mover"', data)
    assert o is not None and o.path == ("rules", "gammon", "to")
    o, errors = parse_override("rules.gammon.when=", data)
    assert o is None and errors[0].code == "bad-override" and errors[0].col == 19


# -- rule-language positions -----------------------------------------------------------------------

@dataclass
class _SnippetError:
    key_path: tuple[str, ...]
    line: int
    col: int
    length: int
    code: str = "dsl-test"
    message: str = "test"


def _snippet_place(doc: VariantDoc, key_path: tuple[str, ...], line: int, col: int,
                   length: int = 1) -> tuple[int, int, str]:
    d = snippet_diagnostic(doc, _SnippetError(key_path, line, col, length))
    return d.line, d.col, d.source_line[d.col - 1 : d.col - 1 + d.length]


def test_snippet_positions_in_one_line_strings() -> None:
    doc = _load("backgammon")
    # when = "theirs(off) == 0 and (theirs(bar) > 0 or any(p in home: theirs(p) > 0))"
    assert _snippet_place(doc, ("rules", "backgammon", "when"), 1, 51, 4) == (65, 59, "home")
    assert _snippet_place(doc, ("regions", "outer"), 1, 4, 2) == (25, 13, "12")


def test_snippet_positions_after_escapes(tmp_path: Path) -> None:
    path = tmp_path / "escaped.toml"
    path.write_text('extends = "backgammon"\n[rules.gammon]\n'
                    'when = "\\"a\\\\b\\" == x and \\u0041 == y"\n', encoding="utf-8")
    doc = _load(path)
    text = doc.model.rules["gammon"].when
    assert text == '"a\\b" == x and A == y'
    x = text.index("x") + 1
    assert _snippet_place(doc, ("rules", "gammon", "when"), 1, x) == (3, 21, "x")
    y = text.index("y") + 1
    assert _snippet_place(doc, ("rules", "gammon", "when"), 1, y) == (3, 37, "y")


def test_snippet_positions_in_multi_line_strings() -> None:
    doc = _load(DATA / "multiline.toml")
    text = doc.model.rules["gammon"].when
    assert text.split("\n")[1] == "    and mine(off) == checkers"   # the first newline dropped
    assert _snippet_place(doc, ("rules", "gammon", "when"), 1, 1, 6) == (9, 1, "theirs")
    assert _snippet_place(doc, ("rules", "gammon", "when"), 2, 22, 8) == (10, 22, "checkers")


def test_snippet_positions_in_an_override() -> None:
    doc = _load("backgammon", 'rules.gammon.when="mine(off) > 1"')
    d = snippet_diagnostic(doc, _SnippetError(("rules", "gammon", "when"), 1, 6, 3))
    assert (d.path, d.line, d.col, d.length) == ("--set", 1, 25, 3)
    assert d.source_line[d.col - 1 : d.col + 2] == "off"


# -- the key locator -------------------------------------------------------------------------------

SAMPLE = '''\
# a comment
title = "x"   # trailing
a.b.c = 1
"quoted key" = 'lit'
[t]
inline = { x = 1, y = { z = "deep" } }
arr = [
  1,   # one
  "two",
  [3, 4],
]
ml = """
first
second"""
lit_ml = \'\'\'raw \\n\'\'\'
[[pairs]]
n = 1
[[pairs]]
n = 2
[t.sub]
k = true
'''


def test_locator_finds_every_kind_of_key() -> None:
    m = SourceMap(SAMPLE)
    assert m.key_position(("title",)) == (2, 1, 5)
    assert m.value_position(("title",)) == (2, 9, 3)
    assert m.key_position(("a", "b", "c")) == (3, 5, 1)
    assert m.key_position(("a",)) == (3, 1, 1)
    assert m.key_position(("quoted key",)) == (4, 1, 12)
    assert m.key_position(("t",)) == (5, 2, 1)
    assert m.key_position(("t", "inline", "y", "z")) == (6, 25, 1)
    assert m.value_position(("t", "inline", "y", "z")) == (6, 29, 6)
    assert m.value_position(("t", "arr", 1)) == (9, 3, 5)
    assert m.value_position(("t", "arr", 2, 1)) == (10, 7, 1)
    assert m.key_position(("pairs", 1, "n")) == (19, 1, 1)
    assert m.key_position(("t", "sub", "k")) == (21, 1, 1)
    assert m.string_offsets(("t", "ml")) is not None
    text, offsets = m.string_offsets(("t", "ml"))  # type: ignore[misc]
    assert text == tomllib.loads(SAMPLE)["t"]["ml"] == "first\nsecond"
    assert m.line_col(offsets[0]) == (13, 1)
    text, _ = m.string_offsets(("t", "lit_ml"))  # type: ignore[misc]
    assert text == "raw \\n"
    assert m.find(("t", "inline", "nothing")) == (("t", "inline"), m.entries[("t", "inline")])
    assert m.duplicates == [] and m.unclosed == []


def test_locator_never_raises_on_broken_text() -> None:
    for text in ('a = "x', "[t\nb = 1", "a = [1, 2", "a = {x = 1", 'a = """x', "= 1", "a.=1",
                 "[[]]", "a = 1 2", "\\", "'"):
        SourceMap(text)


def test_parse_key() -> None:
    assert parse_key("dice.doublets") == [("dice", 0, 4), ("doublets", 5, 13)]
    assert parse_key(' define . "blot(p)" ') == [("define", 1, 7), ("blot(p)", 10, 19)]
    assert parse_key("a b") is None
    assert parse_key("") is None


_keys = st.text(alphabet="abcxyz_-0123456789 é", min_size=1, max_size=6)
_strings = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                   max_size=12)
_scalars = st.one_of(st.integers(-10**6, 10**6), st.booleans(), _strings)
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=8)


@settings(max_examples=scaled(150), deadline=None)
@given(st.dictionaries(_keys, _values, max_size=5), st.booleans())
def test_locator_agrees_with_tomllib(document: dict, multiline: bool) -> None:
    text = tomli_w.dumps(document, multiline_strings=multiline)
    # the values are tomllib's reading of the text: a writer may change a string on the way
    # (a carriage return in a multi-line string is written as a bare newline)
    document = tomllib.loads(text)
    m = SourceMap(text)

    def walk(value: object, path: tuple) -> None:
        entry = m.entries.get(path)
        assert entry is not None, (path, text)
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(sub, path + (key,))
        elif isinstance(value, list) and entry.value is not None and \
                text[entry.value.start] == "[":
            for i, sub in enumerate(value):
                walk(sub, path + (i,))
        elif entry.string is not None:
            assert decode_string(text, entry.string)[0] == value, (path, text)
        elif entry.value is not None:
            written = text[entry.value.start : entry.value.end]
            assert tomllib.loads("v = " + written)["v"] == value, (path, text)

    for key, value in document.items():
        walk(value, (key,))
