"""The checks of the wider family's keys: pins need a point of two, unentered checkers cannot
wait on a start pip too, a bonus throw needs its stages, a rule's `on` fits its kind, and
`[option_sets]` names declared options, their choices and keys a table accepts. Each problem is
reported at the key with its code, like every other diagnostic."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.variant.build import load_variant
from interpreter.variant.build import validate_paths

BASE = '''
[variant]
id = "probe"
name = "Probe"

[board]
checkers = 15
start = { 24 = 15 }

[rules.borne-off]
name = "All checkers borne off"
kind = "end"
when = "mine(off) == checkers"

[ladder]
kind = "game"
'''


def problems(tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "probe.toml"
    path.write_text(BASE + text, encoding="utf-8")
    return [(d.code, d.line, d.message) for d in validate_paths([path])]


def line_of(text: str, needle: str) -> int:
    return (BASE + text).splitlines().index(needle) + 1


def test_pins_need_a_block_of_two(tmp_path: Path) -> None:
    text = '[movement]\nhit = "pin"\nblock = 1\n'
    [(code, line, message)] = problems(tmp_path, text)
    assert code == "bad-value" and "block" in message
    assert line == line_of(text, "block = 1")
    assert problems(tmp_path, '[movement]\nhit = "pin"\n') == []


def test_unentered_checkers_and_the_start_sum(tmp_path: Path) -> None:
    path = tmp_path / "u.toml"
    path.write_text(BASE.replace("start = { 24 = 15 }", "start = { 24 = 12 }\nunentered = 3")
                    + '[movement]\nenter = "start"\nhit = "start"\noff_pip = 1\n',
                    encoding="utf-8")
    [(diag)] = validate_paths([path])
    assert diag.code == "bad-value" and "off the board" in diag.message
    path.write_text(BASE.replace("start = { 24 = 15 }", "start = { 24 = 12 }\nunentered = 4"),
                    encoding="utf-8")
    [(diag)] = validate_paths([path])
    assert diag.code == "start-sum" and "4 unentered" in diag.message
    path.write_text(BASE.replace("start = { 24 = 15 }", "start = {}\nunentered = 15"),
                    encoding="utf-8")
    assert validate_paths([path]) == []
    v = load_variant(str(path))
    assert v.geometry.pool and v.start[29] == v.start[30] == 15


def test_a_bonus_throw_needs_its_stages(tmp_path: Path) -> None:
    [(code, _line, message)] = problems(tmp_path, '[dice]\nbonus_throw = [1, 2]\n')
    assert code == "missing-key" and "bonus" in message
    [(code, _line, message)] = problems(tmp_path, '[dice]\nbonus_throw = [1, 2, 3]\n'
                                                  'bonus = ["throw_again"]\n')
    assert code == "bad-value"
    [(code, _line, message)] = problems(
        tmp_path, '[dice]\nbonus_throw = [1, 2]\nbonus = ["complement_doublet", "throw_again"]\n')
    assert code == "bad-value" and "complement" in message


def test_on_must_fit_the_rule_kind(tmp_path: Path) -> None:
    text = '[rules.x]\nname = "X"\nkind = "score"\non = "move"\nsimple = 1\ndoublet = 1\n' \
           'when = "true"\n'
    [(code, line, message)] = problems(tmp_path, text)
    assert code == "bad-choice" and line == line_of(text, 'on = "move"')
    text = '[rules.x]\nname = "X"\nkind = "forbid"\non = "roll"\nwhen = "false"\n'
    [(code, _line, _message)] = problems(tmp_path, text)
    assert code == "bad-choice"
    text = '[rules.x]\nname = "X"\nkind = "forbid"\non = "move"\nwaive = "unavoidable"\n' \
           'when = "step.from == 24"\n'
    assert problems(tmp_path, text) == []
    text = '[rules.x]\nname = "X"\nkind = "end"\nwaive = "unavoidable"\nwhen = "false"\n'
    [(code, _line, _message)] = problems(tmp_path, text)
    assert code == "rule-kind"


def test_step_only_in_rules_on_each_move(tmp_path: Path) -> None:
    text = '[rules.x]\nname = "X"\nkind = "forbid"\nwhen = "step.from == 24"\n'
    [(code, _line, _message)] = problems(tmp_path, text)
    assert code == "dsl-context"


OPTIONS = '''
[options]
speed = "slow"

[option_choices]
speed = ["slow", "fast"]
'''


@pytest.mark.parametrize("table,code,needle", [
    ('[option_sets.sped]\nslow = { movement = { block = 1 } }\n', "unknown-option", "[option_sets.sped]"),
    ('[option_sets.speed]\nquick = { movement = { block = 1 } }\n', "option-choice", "quick = { movement = { block = 1 } }"),
    ('[option_sets.speed]\nfast = { moves = { block = 1 } }\n', "unknown-key", "fast = { moves = { block = 1 } }"),
    ('[option_sets.speed]\nfast = { movement = { blok = 1 } }\n', "unknown-key", "fast = { movement = { blok = 1 } }"),
    ('[option_sets.speed]\nfast = { movement = { block = 0 } }\n', "bad-value", "fast = { movement = { block = 0 } }"),
    ('[option_sets.speed]\nfast = { dice = { doublets = "often" } }\n', "bad-choice", 'fast = { dice = { doublets = "often" } }'),
])
def test_option_sets_are_checked(tmp_path: Path, table: str, code: str, needle: str) -> None:
    text = OPTIONS + table
    found = problems(tmp_path, text)
    assert [c for c, _l, _m in found] == [code], found
    assert found[0][1] == line_of(text, needle)


def test_an_option_set_changes_the_switches(tmp_path: Path) -> None:
    path = tmp_path / "o.toml"
    path.write_text(BASE + OPTIONS + '[option_sets.speed]\nfast = { movement = { block = 1, '
                    'hit = "none" }, dice = { doublets = "twice" } }\n', encoding="utf-8")
    assert validate_paths([path]) == []
    slow = load_variant(str(path))
    fast = load_variant(str(path), ['speed="fast"'])
    assert (slow.move_rules.block, slow.move_rules.doublet_moves) == (2, 4)
    assert (fast.move_rules.block, fast.move_rules.hit, fast.move_rules.doublet_moves) == \
        (1, "none", 2)
    assert fast.model.movement.block == 1          # the effective model, for every reader
