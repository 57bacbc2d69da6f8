"""`tablier validate` reports every problem of a file: a schema error does not hide the
rule-language errors of the same file."""
from __future__ import annotations

from pathlib import Path

from interpreter.variant.build import validate_paths

FILE = '''extends = "backgammon"
[variant]
id = "bad"
name = "Bad"
[rules.gammon]
when = """theirs(off) == 0 and
   any(p in hom: theirs(p) > 0)"""
[rules.odd]
name = "Odd"
kind = "score"
simple = 1
doublet = 2
ways = "count(p in home where mine(p) > 0) and 3"
[rules.half]
name = "Half-written"
kind = "value"
when = "true"
[movement]
block = "2"
'''


def test_schema_and_rule_language_errors_together(tmp_path: Path):
    path = tmp_path / "bad.toml"
    path.write_text(FILE, encoding="utf-8")
    found = {(d.line, d.col, d.code) for d in validate_paths([path])}
    assert (7, 13, "dsl-unknown-name") in found        # `hom` inside a multi-line snippet
    assert (13, 9, "dsl-type") in found                # a number where `and` needs a condition
    assert (19, 9, "bad-type") in found                # `block = "2"`
    assert any(code == "rule-kind" for _l, _c, code in found)   # the value rule has no value


def test_a_definition_no_rule_uses_is_still_checked(tmp_path: Path):
    path = tmp_path / "defs.toml"
    path.write_text('extends = "backgammon"\n[variant]\nid = "d"\nname = "D"\n[define]\n'
                    'lonely = "mine(6) + true"\nfine = "after.mine(3) > 0"\n', encoding="utf-8")
    found = [(d.line, d.col, d.code) for d in validate_paths([path])]
    assert found == [(6, 21, "dsl-type")]
