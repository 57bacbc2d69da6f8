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


# -- a schema error hides nothing the rest of the document can tell -----------------------------

TURN_FILE = '''extends = "backgammon"

[variant]
id = "turns"
name = "Turns"

[movement]
blok = 2

[turn.state]
count_x = 0

[turn.update.count_x]
name = "x"
value = "count_x + zork"

[turn.stages.again]
name = "again"
when = "doublet and frob"
again = "true"

[bot]
features = { f1 = "mine(1) + true" }

[rules.r1]
name = "R1"
kind = "forbid"
when = "count_x > 0 and quux"
'''


def test_the_turn_and_the_bots_snippets_are_checked_beside_a_schema_error(tmp_path: Path):
    """An unknown key in `[movement]`: the stage rules, the state's updates and the bot's
    features are still checked, and the file's own state name stays known."""
    path = tmp_path / "turns.toml"
    path.write_text(TURN_FILE, encoding="utf-8")
    found = [(d.line, d.col, d.code) for d in validate_paths([path])]
    assert sorted(found) == [(8, 1, "unknown-key"), (15, 20, "dsl-unknown-name"),
                             (19, 21, "dsl-unknown-name"), (23, 30, "dsl-type"),
                             (28, 25, "dsl-unknown-name")]


def test_a_state_of_a_wrong_value_is_still_declared(tmp_path: Path):
    """A state whose initial value the schema refuses is reported once: its uses are not
    unknown names too."""
    path = tmp_path / "state.toml"
    path.write_text(TURN_FILE.replace("blok = 2", "block = 2").replace("count_x = 0",
                                                                      "count_x = -1")
                    .replace("count_x + zork", "count_x + 1").replace(" and frob", "")
                    .replace(" + true", "").replace(" and quux", ""), encoding="utf-8")
    found = [(d.line, d.code) for d in validate_paths([path])]
    assert found and all(line == 11 and not code.startswith("dsl-") for line, code in found)


def test_a_switch_combination_is_reported_beside_a_schema_error(tmp_path: Path):
    path = tmp_path / "combo.toml"
    path.write_text('extends = "backgammon"\n[variant]\nid = "combo"\nname = "Combo"\n'
                    'colour = "red"\n[movement]\nhit = "bar"\nenter = "start"\n',
                    encoding="utf-8")
    found = [(d.line, d.col, d.code) for d in validate_paths([path])]
    assert found == [(5, 1, "unknown-key"), (7, 7, "unplayable")]


def test_a_switch_the_schema_refuses_is_not_reported_again_in_a_combination(tmp_path: Path):
    """`off_pip = 40` is out of range: it is not also judged with `home_top`."""
    path = tmp_path / "off.toml"
    path.write_text('extends = "backgammon"\n[variant]\nid = "off"\nname = "Off"\n'
                    '[movement]\noff_pip = 40\n', encoding="utf-8")
    found = [(d.line, d.code) for d in validate_paths([path])]
    assert found == [(6, "bad-value")]


def test_validate_prints_every_problem_in_line_order_with_its_caret(tmp_path: Path):
    import subprocess
    import sys

    path = tmp_path / "bad.toml"
    path.write_text(FILE, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    heads = [line for line in proc.stderr.splitlines() if line.startswith(str(path))]
    places = [tuple(int(x) for x in h[len(str(path)) + 1:].split(":")[:2]) for h in heads]
    assert len(places) == 4 and places == sorted(places)
    lines = proc.stderr.splitlines()
    for head in heads:
        i = lines.index(head)
        col = int(head[len(str(path)) + 1:].split(":")[1])
        assert lines[i + 2].startswith("  " + " " * (col - 1) + "^")
    assert proc.stderr.rstrip().endswith("4 problems found")
