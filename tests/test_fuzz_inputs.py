"""Hypothesis fuzzing of every reader of untrusted input, in process: real files mutated (the
shipped variants and the files of tests/data/), positions, score-sheet records, `.mat` files,
gnubg and XG identifiers and `--set` arguments. Whatever the input, only a `TablierError`
escapes; a variant file that validates also plays (a short game) and answers `moves`.

The default suite tries a few hundred inputs, deterministically; `-m slow` runs 10,000 in all.
"""
from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.bounded import parse_json
from interpreter.errors import TablierError

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
VARIANT_FILES = sorted((ROOT / "variants").glob("*.toml")) + sorted(
    p for p in DATA.rglob("*.toml") if "sheets" not in p.parts and "hostile" not in p.parts)
SHEETS = sorted((DATA / "sheets").glob("*.toml"))
MATS = sorted((DATA / "mat").glob("*.mat")) + sorted((DATA / "mat-import").glob("*.mat"))
POSITIONS = [json.loads(line)["position"] for line in
             (DATA / "backgammon-moves.jsonl").read_text().splitlines()[:40]]
IDS = ["4HPwATDgc/ABMA", "cIkqAAAAAAAA", "4HPwATDgc/ABMA:cIkqAAAAAAAA",
       "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
       "XGID=aa--BBBB----bB---cD-bb--A-:1:1:-1:00:3:2:0:7:10", "sGfwATDgc/ABMA:8AlnAAAAAAAE"]
SET_KEYS = ["movement.block", "movement.hit", "movement.off_pip", "board.start", "board.checkers",
            "dice.doublets", "rules.gammon.value", "rules.gammon", "rules.borne-off.when",
            "ladder.match_length", "ladder.cube_cap", "ladder", "regions.home", "options",
            "variant.id", "extends", "rules.gammon.enabled"]

#: fragments that break parsers and bounds: brackets, quotes, numbers, other scripts' digits...
TOKENS = ["[", "]", "{", "}", '"', "'", '"""', "'''", "\\", "\n", "\r\n", "=", ".", ",", "#",
          "\x00", "\t", "0", "-1", "9" * 40, "9" * 4400, "1e999", "0x" + "f" * 40, "\u0663",
          "\uff11", "\u00e9", "true", "nan", "inf", "a" * 300, "[[", "]]",
          "count(p in 1..24 where ",
          "abs(", "1..1000000000", "mine(", ")", "__import__('os')", "options.", "+", "*",
          "extends = ", "/dev/zero", "../", ".toml", "[rules.x]\nname = \"x\"\nkind = \"end\"\n",
          "when = \"true\"", "Game 1", " point match", "Wins ", "Doubles => ", "Alice +", " on ",
          "NaN", "Infinity", ":", "/", "*", "(2)", "bar", "off", "XGID="]


@st.composite
def mutated(draw, text: str, max_ops: int = 4) -> str:
    """`text` after a few random edits: insertions of hostile tokens or random text, deletions,
    replacements, duplicated spans, truncation, swapped lines."""
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(("insert", "insert", "delete", "replace", "duplicate",
                                   "truncate", "swap")))
        n = len(text)
        i = draw(st.integers(0, n))
        token = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)))
        if op == "insert":
            text = text[:i] + token + text[i:]
        elif op == "delete":
            text = text[:i] + text[draw(st.integers(i, min(n, i + 40))):]
        elif op == "replace":
            text = text[:i] + token + text[draw(st.integers(i, min(n, i + 10))):]
        elif op == "duplicate":
            j = draw(st.integers(i, min(n, i + 200)))
            text = text[:j] + text[i:j] * draw(st.integers(1, 60)) + text[j:]
        elif op == "truncate":
            text = text[:i]
        else:
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


@st.composite
def mutated_bytes(draw, text: str) -> bytes:
    data = draw(mutated(text)).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:   # now and then, not UTF-8
        i = draw(st.integers(0, len(data)))
        data = data[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) \
            + data[i:]
    return data


_TMP = Path(tempfile.mkdtemp(prefix="tablier-fuzz-"))


def _write(name: str, data: bytes) -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


# Few examples by default, deterministic; the slow marker multiplies them (10,000 in all).
FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))


# -- variant files ------------------------------------------------------------------------------

def _variant_file_survives(source: Path, data: bytes) -> None:
    from interpreter.analysis import legal_results
    from interpreter.kernel.board import to_json
    from interpreter.sim import play_game
    from interpreter.variant.build import load_variant
    from interpreter.variant.build import validate_paths

    # beside the files it may extend (`extends = "./base.toml"`)
    folder = _TMP / source.parent.name
    folder.mkdir(exist_ok=True)
    for sibling in source.parent.glob("*.toml"):
        target = folder / sibling.name
        if not target.exists():
            target.write_bytes(sibling.read_bytes())
    path = folder / f"fuzzed-{source.name}"
    path.write_bytes(data)
    try:
        found = validate_paths([path])
    except TablierError:
        return
    if found:
        with pytest.raises(TablierError):
            load_variant(path)
        return
    try:
        variant = load_variant(path)
    except TablierError as err:
        if "abstract" in data.decode("utf-8", "replace"):
            return
        raise AssertionError(f"validates but does not load: {err}") from None
    if variant.abstract:
        return
    play_game(variant, 1, 0, max_turns=20)
    try:
        legal_results(variant, {**to_json(variant.start), "dice": [3, 1]})
    except TablierError:
        pass


@st.composite
def variant_inputs(draw):
    source = draw(st.sampled_from(VARIANT_FILES))
    return source, draw(mutated_bytes(source.read_text(encoding="utf-8")))


@FAST
@given(variant_inputs())
def test_mutated_variant_files(case):
    _variant_file_survives(*case)


@pytest.mark.slow
@settings(SLOW, max_examples=3000)
@given(variant_inputs())
def test_mutated_variant_files_long(case):
    _variant_file_survives(*case)


# -- --set arguments ------------------------------------------------------------------------------

@st.composite
def set_arguments(draw):
    key = draw(st.one_of(st.sampled_from(SET_KEYS), st.text(max_size=20)))
    value = draw(st.one_of(
        st.sampled_from(['"twice"', "1", "0", "25", "true", '"1"', "[1, 2]", "{ 24 = 15 }",
                         '{ kind = "game" }', '"mine(off) == checkers"', '"2"', '"x"']),
        st.text(max_size=12)))
    return draw(mutated(f"{key}={value}", max_ops=2))


def _set_survives(args: list[str]) -> None:
    from interpreter.variant.build import load_variant

    try:
        load_variant("backgammon", args)
    except TablierError:
        pass


@FAST
@given(st.lists(set_arguments(), min_size=1, max_size=3))
def test_mutated_set_arguments(args):
    _set_survives(args)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(st.lists(set_arguments(), min_size=1, max_size=3))
def test_mutated_set_arguments_long(args):
    _set_survives(args)


# -- positions ----------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=12)


@st.composite
def position_lines(draw):
    base = dict(draw(st.sampled_from(POSITIONS)))
    if draw(st.booleans()):
        key = draw(st.sampled_from(["points", "bar", "off", "dice", "rolls", "state", "result"]))
        base[key] = draw(JSON)
        return json.dumps(base)
    return draw(mutated(json.dumps(base), max_ops=3))


@functools.cache
def _variant(vid: str):
    from interpreter.variant.build import load_variant

    return load_variant(vid)


def _position_survives(line: str) -> None:
    from interpreter.analysis import legal_results, roll_score
    from interpreter.io.gnubg import encode_all

    try:
        obj = parse_json(line)
    except TablierError:
        return
    for vid in ("backgammon", "triktrak", "tric-trac-12"):
        variant = _variant(vid)
        for call in (legal_results, roll_score):
            try:
                call(variant, obj)
            except TablierError:
                pass
    try:
        encode_all(obj, obj.get("match") if isinstance(obj, dict) else None)
    except TablierError:
        pass


@FAST
@given(position_lines())
def test_mutated_positions(line):
    _position_survives(line)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(position_lines())
def test_mutated_positions_long(line):
    _position_survives(line)


# -- score-sheet records --------------------------------------------------------------------------

def _record_survives(data: bytes) -> None:
    from interpreter.cli import _ladder_for
    from interpreter.io.sheet import render_sheet

    path = _write("record.toml", data)
    for as_json in (True, False):
        try:
            render_sheet(path, _ladder_for, as_json)
        except TablierError:
            pass


@st.composite
def records(draw):
    return draw(mutated_bytes(draw(st.sampled_from(SHEETS)).read_text(encoding="utf-8")))


@settings(FAST, max_examples=25)
@given(records())
def test_mutated_records(data):
    _record_survives(data)


@pytest.mark.slow
@settings(SLOW, max_examples=1000)
@given(records())
def test_mutated_records_long(data):
    _record_survives(data)


# -- .mat files -----------------------------------------------------------------------------------

def _mat_survives(data: bytes) -> None:
    from interpreter.io.mat import read_mat
    from interpreter.io.replay import replay, variant_ref
    from interpreter.variant.build import load_variant

    text = data.decode("utf-8", "replace")
    for strict in (False, True):
        try:
            record = read_mat(text, strict=strict)
            ref, overrides = variant_ref(record)
            replay(record, load_variant(ref, overrides))
        except TablierError:
            pass


@st.composite
def mats(draw):
    return draw(mutated_bytes(draw(st.sampled_from(MATS)).read_text(encoding="utf-8")))


@settings(FAST, max_examples=30)
@given(mats())
def test_mutated_mat_files(data):
    _mat_survives(data)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(mats())
def test_mutated_mat_files_long(data):
    _mat_survives(data)


# -- identifiers ----------------------------------------------------------------------------------

def _id_survives(text: str) -> None:
    from interpreter.io.gnubg import decode_any

    for checkers in (15, 3):
        try:
            decode_any(text, checkers)
        except TablierError:
            pass


@st.composite
def identifiers(draw):
    return draw(st.one_of(mutated(draw(st.sampled_from(IDS)), max_ops=3), st.text(max_size=40)))


@FAST
@given(identifiers())
def test_mutated_identifiers(text):
    _id_survives(text)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(identifiers())
def test_mutated_identifiers_long(text):
    _id_survives(text)


# -- bounded diagnostics and the quick reader of snippets -------------------------------------------

@FAST
@given(st.text(alphabet="ab =,{}\"'x\t", max_size=2000), st.integers(1, 2100),
       st.integers(1, 3000))
def test_a_quoted_line_is_bounded_and_keeps_the_caret_on_its_character(text, col, length):
    from interpreter.errors import QUOTE_CHARS, quoted_line

    col = min(col, len(text) + 1)
    shown, start, width = quoted_line(text, col, length)
    assert len(shown) <= QUOTE_CHARS + 6 and 1 <= width <= max(length, 1)
    if col <= len(text):
        assert shown[start] == text[col - 1]
        assert start + width <= len(shown)


SNIPPET_TOKENS = ["mine(", "theirs(", "f(", ")", "(", ",", " ", "1", "24", "007", "x", "off",
                  "+", "-", "*", "//", "%", "==", "<", ">=", "!=", " and ", " or ", "not ",
                  "true", "..", "count(p in 1..2 where ", "'s'", "\n", "#"]


@FAST
@given(st.lists(st.sampled_from(SNIPPET_TOKENS), min_size=1, max_size=30))
def test_the_quick_reader_agrees_with_the_parser(parts):
    from interpreter.dsl import syntax as S
    from interpreter.dsl.larkparser import parse_syntax
    from interpreter.dsl.quickparse import quick_parse
    from interpreter.dsl.syntax import SnippetError

    def shape(node):
        if isinstance(node, list):
            return [shape(n) for n in node]
        if isinstance(node, S.Syntax):
            return (type(node).__name__, node.pos.line, node.pos.col, node.pos.length,
                    [shape(getattr(node, k)) for k in type(node).__slots__])
        return node

    text = "".join(parts)
    quick = quick_parse(text)
    if quick is None:
        return
    try:
        slow = parse_syntax(text, "expr_start")
    except SnippetError as err:
        raise AssertionError(f"the quick reader read {text!r}, which the parser refuses: {err}")
    assert shape(quick) == shape(slow), text
