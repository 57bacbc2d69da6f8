"""The catalogue of known-bad variant files and `--set` arguments, with the diagnostic each gives.

Every file of tests/data/broken/ states what it must produce in its first lines:

    # expect: CODE LINE:COL [text the message must contain]
    # expect: CODE OTHER-FILE.toml:LINE:COL [...]   (a fault reported in another file)

A file produces exactly the diagnostics it expects (most have one fault; `many-problems.toml`
checks that every problem is reported, not only the first), each rendered with its source line
and a caret under the fault, and never a traceback.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.errors import Diagnostic, VariantError
from interpreter.variant.build import validate_paths
from interpreter.variant.loader import load_document

DATA = Path(__file__).parent / "data"
BROKEN = DATA / "broken"
EXPECT = re.compile(r"^# expect: (?P<code>\S+) (?:(?P<file>[^\s:]+\.toml):)?(?P<line>\d+):"
                    r"(?P<col>\d+)(?: (?P<text>.*))?$", re.M)


def _has_rule_language_checks() -> bool:
    try:
        from interpreter.dsl import check_document  # noqa: F401
    except ImportError:
        return False
    return True


def _cases() -> list:
    cases = []
    for path in sorted(BROKEN.glob("*.toml")):
        expected = [m.groupdict() for m in EXPECT.finditer(path.read_text(encoding="utf-8"))]
        marks = []
        if path.name.startswith("dsl-") and not _has_rule_language_checks():
            marks.append(pytest.mark.skip(reason="interpreter.dsl.check_document not available"))
        cases.append(pytest.param(path, expected, id=path.stem, marks=marks))
    return cases


CASES = _cases()


def test_catalogue_is_large_enough() -> None:
    assert len(CASES) >= 25
    dsl = [c for c in CASES if c.id.startswith("dsl-")]
    assert len(dsl) >= 6
    for case in CASES:
        assert case.values[1], f"{case.id} states no expectation"


def _check_rendering(d: Diagnostic) -> None:
    text = d.render()
    assert "Traceback" not in text
    head, *rest = text.split("\n")
    assert head == f"{d.path}:{d.line}:{d.col}: error[{d.code}]: {d.message}"
    if d.source_line:
        assert rest[0] == "  " + d.source_line
        caret = rest[1]
        assert caret == "  " + " " * (d.col - 1) + "^" * d.length
        under = d.source_line[d.col - 1 : d.col - 1 + d.length]
        assert under.strip() or d.col == len(d.source_line) + 1, \
            f"the caret is under blank text: {text}"
    else:
        assert rest == []


@pytest.mark.parametrize(("path", "expected"), CASES)
def test_broken_file(path: Path, expected: list[dict]) -> None:
    diagnostics = validate_paths([path])
    found = [(Path(d.path).name, d.code, d.line, d.col) for d in diagnostics]
    for exp in expected:
        where = (exp["file"] or path.name, exp["code"], int(exp["line"]), int(exp["col"]))
        assert where in found, f"expected {where}, got:\n" + \
            "\n".join(d.render() for d in diagnostics)
        match = diagnostics[found.index(where)]
        if exp["text"]:
            assert exp["text"] in match.message, match.render()
    assert len(diagnostics) == len(expected), "\n".join(d.render() for d in diagnostics)
    for d in diagnostics:
        _check_rendering(d)


@pytest.mark.parametrize(("path", "expected"), CASES[:8] + CASES[-8:])
def test_load_raises_the_same_diagnostics(path: Path, expected: list[dict]) -> None:
    if path.name.startswith("dsl-") and not _has_rule_language_checks():
        pytest.skip("interpreter.dsl.check_document not available")
    with pytest.raises(VariantError) as info:
        load_document(path)
    assert info.value.diagnostics == validate_paths([path])
    assert isinstance(info.value, ValueError)


# -- `--set` ---------------------------------------------------------------------------------------

TINY = DATA / "variants" / "tiny.toml"

SET_CASES = [
    # (variant, argument, code, column, text in the message)
    ("backgammon", 'dice.doubles="twice"', "unknown-key", 6, "did you mean `dice.doublets`?"),
    ("backgammon", "dice.doublets=twice", "bad-override", 15, "a string needs quotes"),
    ("backgammon", 'movement.block="2"', "bad-type", 16, "field `movement.block` must be an "
                                                          "integer"),
    ("backgammon", 'dice.doublets="twise"', "bad-choice", 15, 'did you mean "twice"?'),
    ("backgammon", 'rules.gamon.value="1"', "unknown-key", 7, "did you mean `rules.gammon`?"),
    ("backgammon", "rules.gammon.enabled=0", "bad-type", 22, "must be true or false"),
    ("backgammon", "rules.gammon.valeu=1", "unknown-key", 14, "`rules.gammon.value`"),
    ("backgammon", "nonsense", "bad-override", 1, "KEY=VALUE"),
    ("backgammon", 'extends="x"', "bad-override", 1, "cannot be changed"),
    ("backgammon", "dice.doublets.x=1", "unknown-key", 15, "is not a table"),
    ("backgammon", "board.start.24=3", "start-sum", 16, "16 checkers"),
    ("backgammon", 'ladder.kind="gamme"', "unknown-ladder", 13, 'did you mean "game"?'),
    ("backgammon", "gammon=false", "unknown-key", 1, "unknown key `gammon`"),
    (TINY, 'rates="clasic"', "option-choice", 7, 'did you mean "classic"?'),
    (TINY, 'options.rates="clasic"', "option-choice", 15, "must be one of"),
    (TINY, "target=true", "bad-type", 8, "option `target` must be an integer"),
    (TINY, 'options.colour="red"', "unknown-key", 9, "unknown option `options.colour`"),
    (TINY, "target=4", "option-choice", 8, "must be one of 3, 5, 7"),
]


@pytest.mark.parametrize(("variant", "arg", "code", "col", "text"), SET_CASES,
                         ids=[c[1] for c in SET_CASES])
def test_bad_override(variant: str | Path, arg: str, code: str, col: int, text: str) -> None:
    with pytest.raises(VariantError) as info:
        load_document(variant, [arg])
    diagnostics = info.value.diagnostics
    assert [(d.path, d.line, d.code, d.col) for d in diagnostics] == [("--set", 1, code, col)], \
        str(info.value)
    d = diagnostics[0]
    assert text in d.message
    assert d.source_line == arg
    _check_rendering(d)


@pytest.mark.skipif(not _has_rule_language_checks(), reason="no rule-language checks yet")
def test_rule_language_error_in_an_override() -> None:
    arg = 'rules.gammon.when="theirs(of) == 0"'
    with pytest.raises(VariantError) as info:
        load_document("backgammon", [arg])
    [d] = info.value.diagnostics
    assert (d.path, d.line, d.col, d.code) == ("--set", 1, 27, "dsl-unknown-name")
    assert d.source_line[d.col - 1 : d.col - 1 + d.length] == "of"


def test_every_override_problem_and_every_file_problem_together() -> None:
    with pytest.raises(VariantError) as info:
        load_document(BROKEN / "type-block-string.toml",
                      ['dice.doubles="twice"', "movement.hit=3"])
    codes = [(d.path, d.code) for d in info.value.diagnostics]
    assert codes == [(str(BROKEN / "type-block-string.toml"), "bad-type"),
                     ("--set", "unknown-key"), ("--set", "bad-choice")]


def test_unreadable_inputs_give_diagnostics(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    for ref, code in ((binary, "unreadable"), (folder, "unreadable"),
                      (tmp_path / "absent.toml", "file-not-found"),
                      ("backgamon", "file-not-found")):
        with pytest.raises(VariantError) as info:
            load_document(ref)
        [d] = info.value.diagnostics
        assert d.code == code
        assert "Traceback" not in str(info.value)
    with pytest.raises(VariantError) as info:
        load_document("backgamon")
    assert 'did you mean "backgammon"?' in str(info.value)
