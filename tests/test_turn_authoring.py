"""Authoring the turn and building on other files: `[turn.stages]` checked with carets,
`remove_options`, problems caused by an extending file reported at its own line, `rules` and
`diff` showing the values in effect after option sets, and `explain` for any rule (a rule on
each move, a stage rule)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.errors import VariantError
from interpreter.variant.build import load_variant


def validate(tmp_path: Path, text: str, capsys) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    code = main(["validate", str(path)])
    out = capsys.readouterr()
    assert code == 1
    return out.out + out.err


def test_a_ladder_change_is_reported_at_the_extending_file(tmp_path, capsys) -> None:
    text = validate(tmp_path, 'extends = "long-nardy"\n[variant]\nid = "x"\nname = "x"\n'
                              '[ladder]\nkind = "holes"\n', capsys)
    assert "long-nardy.toml" not in text.split("error[")[0]
    first = text.splitlines()[0]
    assert first.startswith(str(tmp_path / "house.toml") + ":6:") or "house.toml:6:" in first
    assert "unknown key `doubling`" in first and 'the ladder in effect is `kind = "holes"`' in first


def test_a_definition_override_of_the_wrong_type_is_reported_where_it_is_written(
        tmp_path, capsys) -> None:
    text = validate(tmp_path, 'extends = "fevga"\n[variant]\nid = "x"\nname = "x"\n'
                              '[define]\npassed_at = "mine(off) > 0"\n', capsys)
    lines = text.splitlines()
    assert "house.toml:6:13: error[dsl-type]: definition `passed_at` does not fit where " \
           "variants/fevga.toml:" in lines[0].replace(str(tmp_path) + "/", "")
    assert lines[1].strip() == 'passed_at = "mine(off) > 0"'
    assert lines[2].strip() == "^" * len('"mine(off) > 0"')


def test_stage_rules_are_checked_with_carets(tmp_path, capsys) -> None:
    text = validate(tmp_path, 'extends = "gul-bara"\n[variant]\nid = "x"\nname = "x"\n'
                              '[turn.stages.progression]\nwhen = "doublet and rols >= 3"\n'
                              'next = "high + true"\n', capsys)
    assert "house.toml:6:21: error[dsl-unknown-name]: unknown name `rols`; did you mean " \
           "`rolls`?" in text
    assert "house.toml:7:16: error[dsl-type]" in text


def test_a_stage_rule_needs_its_keys(tmp_path, capsys) -> None:
    text = validate(tmp_path, 'extends = "backgammon"\n[variant]\nid = "x"\nname = "x"\n'
                              '[turn.stages.again]\nname = "x"\nwhen = "doublet"\n', capsys)
    assert "missing-key" in text and "next" in text


def test_remove_options(tmp_path, capsys) -> None:
    jacquet = load_variant("jacquet")
    assert "fv_prime" not in jacquet.model.options
    assert "fv_prime" not in jacquet.model.option_descriptions
    assert jacquet.model.options["courier_goal"] == "last_quarter"
    text = validate(tmp_path, 'extends = "fevga"\nremove_options = ["fv_prim"]\n[variant]\n'
                              'id = "x"\nname = "x"\n', capsys)
    assert "house.toml:2:19: error[unknown-option]: cannot remove option `fv_prim`: the " \
           "extended file has no such option; did you mean `fv_prime`?" in text
    # an option removed while a snippet still reads it is an error at the snippet
    text = validate(tmp_path, 'extends = "fevga"\nremove_options = ["fv_prime"]\n[variant]\n'
                              'id = "x"\nname = "x"\n', capsys)
    assert "fv_prime" in text and "dsl-" in text
    with pytest.raises(VariantError):
        load_variant("fevga", ["remove_options=[]"])


def test_rules_and_diff_show_the_values_option_sets_put_in_effect(capsys) -> None:
    assert main(["rules", "plakoto", "--set", 'pl_bear_off_pinned="allowed"',
                 "--section", "movement"]) == 0
    out = capsys.readouterr().out
    assert '`pinned_bear_off = "allowed"`' in out
    # where the value comes from: the option chosen with --set, not the key itself
    assert '(set by the option `pl_bear_off_pinned` = `"allowed"`, chosen with `--set`; the ' \
           'file says `"forbidden"`)' in out
    assert main(["rules", "plakoto", "--set", 'movement.block=2', "--set",
                 'pl_bear_off_pinned="allowed"', "--section", "movement"]) == 0
    assert "(set by `--set`" not in capsys.readouterr().out
    assert main(["rules", "tapa", "--section", "movement"]) == 0
    assert '`pinned_bear_off = "allowed"`' in capsys.readouterr().out
    assert main(["diff", "plakoto", "plakoto", "--set", 'b:pl_bear_off_pinned="allowed"']) == 0
    out = capsys.readouterr().out
    assert "| `pinned_bear_off` | `\"forbidden\"`" in out


def test_explain_a_rule_on_each_move(capsys) -> None:
    assert main(["explain", "fevga", "first-runner"]) == 0
    out = capsys.readouterr().out
    assert "on: move" in out
    assert "definitions it uses:" in out and "passed_at = " in out
    assert "run once per move" in out
    assert "def hook_" in out


def test_explain_a_stage_rule(capsys) -> None:
    assert main(["explain", "gul-bara", "progression"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("stage rule progression: The doubles progression")
    for key in ("when", "next", "to_opponent"):
        assert f"{key} (as written):" in out
    assert "return d1 == d2 and rolls >= 3" in out
    assert main(["explain", "gul-bara", "progression", "--set",
                 'gb_progression_from=1']) == 0
    assert "return d1 == d2 and rolls >= 1" in capsys.readouterr().out
