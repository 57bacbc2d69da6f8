"""Hypothesis fuzzing of every reader of untrusted input, in process: real files mutated (the
shipped variants and the files of tests/data/), positions, score-sheet records, `.mat` files,
gnubg and XG identifiers and `--set` arguments. Whatever the input, only a `TablierError`
escapes; a variant file that validates also plays (a short game) and answers `moves`.

The default suite tries a few hundred inputs, deterministically; `-m slow` runs 10,000 in all.
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
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


# -- weights files ---------------------------------------------------------------------------------

WEIGHTS = sorted((ROOT / "interpreter" / "players" / "weights").glob("*.npz"))
#: byte patterns written over a weights file: zip and .npy signatures, sizes, header text
WEIGHT_TOKENS = [b"\x00", b"\xff", b"\xff\xff\xff\xff", b"PK\x05\x06", b"PK\x01\x02",
                 b"PK\x03\x04", b"PK\x06\x07", b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00",
                 b"'shape': (", b"9999999", b"'descr': '|O'", b"'<U99999999'", b"NaN",
                 b'"levels": ', b'"features": 7', b"[" * 40, b"\x7f\xf8\x00\x00"]


@functools.cache
def _weights_bytes(path: Path) -> bytes:
    return path.read_bytes()


@st.composite
def weights_files(draw) -> bytes:
    """A shipped weights file with bytes flipped, overwritten, inserted, cut or duplicated."""
    data = bytearray(_weights_bytes(draw(st.sampled_from(WEIGHTS[:3] + WEIGHTS[-3:]))))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("flip", "flip", "write", "insert", "truncate", "duplicate")))
        n = len(data)
        # most edits where the structure is: the headers, the directory, the metadata
        i = draw(st.one_of(st.integers(0, max(n - 1, 0)), st.integers(0, min(n, 400)),
                           st.integers(max(n - 25_000, 0), n)))
        if op == "flip" and n:
            data[min(i, n - 1)] ^= draw(st.integers(1, 255))
        elif op == "write":
            token = draw(st.one_of(st.sampled_from(WEIGHT_TOKENS), st.binary(max_size=8)))
            data[i:i + len(token)] = token
        elif op == "insert":
            data[i:i] = draw(st.one_of(st.sampled_from(WEIGHT_TOKENS), st.binary(max_size=8)))
        elif op == "truncate":
            del data[i:]
        else:
            j = draw(st.integers(i, min(n, i + 300)))
            data[j:j] = data[i:j] * draw(st.integers(1, 20))
    return bytes(data)


@st.composite
def weights_metadata(draw) -> bytes:
    """A shipped weights file whose metadata's JSON text is mutated, the archive intact."""
    import io
    import zipfile

    import numpy as np

    path = draw(st.sampled_from(WEIGHTS[:3]))
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: np.array(data[k]) for k in ("W1", "b1", "W2", "b2")}
        text = str(data["meta"])
    buf = io.BytesIO()
    np.savez(buf, **arrays, meta=np.array(draw(mutated(text))))
    out = buf.getvalue()
    zipfile.ZipFile(io.BytesIO(out)).close()
    return out


def _weights_survive(data: bytes) -> None:
    """Only a WeightsError escapes; what loads is a usable network of finite weights."""
    import numpy as np

    from interpreter.players.net import ValueNet, WeightsError

    path = _write("weights.npz", data)
    try:
        net = ValueNet.load(path)
    except WeightsError:
        return
    assert np.isfinite(net.theta).all()
    X = np.zeros((2, net.inputs))
    assert net.outputs_of(X).shape == (2, net.outputs)



@FAST
@given(weights_files())
def test_mutated_weights_files(data):
    _weights_survive(data)


@settings(FAST, max_examples=30)
@given(weights_metadata())
def test_mutated_weights_metadata(data):
    _weights_survive(data)


@pytest.mark.slow
@settings(SLOW, max_examples=2000)
@given(weights_files())
def test_mutated_weights_files_long(data):
    _weights_survive(data)


@pytest.mark.slow
@settings(SLOW, max_examples=500)
@given(weights_metadata())
def test_mutated_weights_metadata_long(data):
    _weights_survive(data)


# -- caches --------------------------------------------------------------------------------------
# What another user could leave in a cache folder (docs/security.md, "Caches"): random trees of
# files, folders, links and FIFOs, with random modes (and owners, where the test may chown);
# `trusted_folder` gives a folder all of whose entries are the user's own plain files and
# folders closed to others' writes, or None, never follows a link out and never raises. And the
# data caches read back (the parser's tables, the snippets' trees, the built variants) mutated
# byte by byte: the commands still answer what they answer without them.

_ENTRY = st.tuples(st.sampled_from(["file", "dir", "link", "fifo"]),
                   st.lists(st.sampled_from("abc"), min_size=1, max_size=3),
                   st.sampled_from([0o600, 0o644, 0o666, 0o700, 0o755, 0o777, 0o620]),
                   st.booleans())


def _plant_tree(root: Path, entries: list, outside: Path) -> None:
    for kind, parts, mode, stranger in entries:
        path = root.joinpath(*parts)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() or path.is_symlink():
                continue
            if kind == "file":
                path.write_bytes(b"planted")
            elif kind == "dir":
                path.mkdir()
            elif kind == "link":
                path.symlink_to(outside)
                continue
            else:
                os.mkfifo(path)
            os.chmod(path, mode)
            if stranger and os.geteuid() == 0:
                os.chown(path, 4242, 4242)
        except OSError:
            continue


@FAST
@given(st.lists(_ENTRY, max_size=8), st.sampled_from(["native", "numba"]))
def test_a_cache_tree_of_anything_is_trusted_whole_or_not_at_all(entries, name):
    import stat
    import tempfile

    from interpreter import usercache

    with tempfile.TemporaryDirectory() as tmp:
        home, outside = Path(tmp) / "home", Path(tmp) / "outside"
        outside.mkdir()
        (outside / "keep").write_text("mine")
        os.environ["XDG_CACHE_HOME"] = str(home)
        try:
            usercache._VERIFIED.clear()
            base = Path(usercache.cache_dir() or "")
            _plant_tree(base / name, entries, outside)
            usercache._VERIFIED.clear()
            got = usercache.trusted_folder(name)
            if got is not None:
                for folder, dirs, files in os.walk(got):
                    for entry in dirs + files:
                        st_ = os.lstat(os.path.join(folder, entry))
                        assert st_.st_uid == os.getuid() and not st_.st_mode & 0o022
                        assert stat.S_ISDIR(st_.st_mode) or stat.S_ISREG(st_.st_mode)
            assert (outside / "keep").read_text() == "mine"
        finally:
            os.environ.pop("XDG_CACHE_HOME", None)
            usercache._VERIFIED.clear()


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_data_caches_are_rebuilt_not_trusted(data):
    import tempfile

    position = ('{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],'
                '"bar":[0,0],"off":[0,0],"dice":[3,1]}\n')
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "XDG_CACHE_HOME": tmp, "TABLIER_NATIVE": "0"}
        env.pop("TABLIER_NO_CACHE", None)
        args = [sys.executable, "-m", "interpreter", "moves", "backgammon"]
        first = subprocess.run(args, input=position, capture_output=True, text=True, env=env,
                               timeout=60)
        assert first.returncode == 0, first.stderr
        cached = sorted(p for p in (Path(tmp) / "tablier").iterdir() if p.is_file())
        assert cached
        victim = data.draw(st.sampled_from(cached))
        victim.write_bytes(data.draw(mutated_bytes(victim.read_text(encoding="utf-8",
                                                                    errors="replace")[:4000])))
        again = subprocess.run(args, input=position, capture_output=True, text=True, env=env,
                               timeout=60)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
        assert again.stdout == first.stdout


@pytest.mark.parametrize("text", ["1e999", "[-1e999]", '{"a": 2.5e400}'])
def test_a_json_number_too_large_for_a_float_is_refused_not_infinity(text):
    from interpreter.errors import InputError

    with pytest.raises(InputError, match="too large a number"):
        parse_json(text)
    assert parse_json("[1.5e3, -2e-3]") == [1500.0, -0.002]
