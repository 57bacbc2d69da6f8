"""Faults an author met writing and playing variant files, each checked where it showed: the
diagnostics of an extending file, `tablier moves`' "next" after a doublet that gives another
throw, the log of numbers passed on, a rotation's result, the hint for `learned` on a file, the
bearing-off switches as docs/variant-format.md tables them, the family `tablier variants`
shows, and the names of the rule language that read two dice in a throw of three."""
from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from interpreter.analysis import legal_results
from interpreter.cli import main
from interpreter.engine.events import Decided, Passed, Thrown
from interpreter.errors import VariantError
from interpreter.render import log_lines
from interpreter.runner import game_line, play_game
from interpreter.variant.build import load_variant, validate_paths
from interpreter.variant.loader import load_document

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _position(variant, board, dice) -> dict:
    return {**variant.geometry.to_json(board), "dice": list(dice)}


# -- 1. a typo in a file that extends Jacquet ------------------------------------------------------

JACQUET_TYPO = '''extends = "jacquet"

[variant]
id = "jacquet-typo"
name = "Jacquet with a typo"

[movement]
blok = 2
'''


def test_a_typo_in_a_file_extending_jacquet_is_its_only_problem(tmp_path):
    """The base's state (`courier_arrived`, `[turn.state]` of jacquet.toml) and definitions
    stay known while the extending file has a schema error: no false `unknown name` inside the
    installed jacquet.toml, only the unknown key at the author's line with its caret."""
    path = _write(tmp_path, "typo.toml", JACQUET_TYPO)
    found = validate_paths([path])
    assert [(d.path, d.line, d.col, d.code) for d in found] == [
        (str(path), 8, 1, "unknown-key")]
    text = found[0].render()
    assert text.splitlines()[1:] == ["  blok = 2", "  ^^^^"]
    assert "did you mean `block`" in text


def test_the_base_state_is_checked_still_when_the_extending_file_errs(tmp_path):
    """A real rule-language fault beside the typo is reported, and its use of the base's
    state name is not."""
    path = _write(tmp_path, "typo2.toml", JACQUET_TYPO + '''
[rules.late]
name = "Late"
kind = "forbid"
when = "courier_arrived and nowhere(3)"
''')
    found = {(d.line, d.col, d.code) for d in validate_paths([path])}
    assert found == {(8, 1, "unknown-key"), (13, 29, "dsl-unknown-name")}


# -- 3. `tablier moves` says when the same player throws again -------------------------------------

def test_moves_says_reroll_after_a_doublet_of_the_12_point_tric_trac():
    v = load_variant("tric-trac-12")         # doublets = "twice_and_throw_again"
    start = v.start
    assert legal_results(v, _position(v, start, (3, 3)))["next"] == "reroll"
    assert legal_results(v, _position(v, start, (3, 1)))["next"] == "end"


def test_moves_says_reroll_after_a_doublet_played_four_times_and_thrown_again():
    v = load_variant("backgammon", ['dice.doublets="four_and_throw_again"'])
    start = _position(v, v.start, (6, 6))
    assert legal_results(v, start)["next"] == "reroll"
    assert legal_results(v, {**start, "dice": [6, 5]})["next"] == "end"
    # the last checkers borne off with the doublet: the game is over, nothing follows
    last = {"points": [2] + [0] * 17 + [-15] + [0] * 5, "bar": [0, 0], "off": [13, 0],
            "dice": [1, 1]}
    assert legal_results(v, last)["next"] == "end"
    # a doublet that cannot bear the last checkers off: the same player throws again
    short = {**last, "points": [1, 0, 0, 0, 1] + [0] * 13 + [-15] + [0] * 5}
    assert legal_results(v, short)["next"] == "reroll"


def test_plain_backgammon_lines_say_nothing_of_what_follows():
    v = load_variant("backgammon")
    assert "next" not in legal_results(v, _position(v, v.start, (6, 6)))


UZBEK = '''extends = "gul-bara"

[variant]
id = "gul-bara-uzbek"
name = "Gul bara, the Uzbek reading"

[options]
gb_progression_rest = "opponent"

[turn.stages.progression]
again = "true"

[turn.stages.rest]
name = "The numbers a player cannot play"
when = "true"
to_opponent = "true"
again = "doublet"
'''


def test_moves_says_reroll_where_a_stage_rule_gives_another_throw(tmp_path):
    """docs/variant-format.md's Uzbek reading of Gul bara: a doublet played in full before
    the progression starts gives another throw (the rest rule's `again`), and 6-6 played in
    full ends the progression with another throw (the progression's `again`)."""
    v = load_variant(_write(tmp_path, "gul-bara-uzbek.toml", UZBEK))
    start = _position(v, v.start, (2, 2))
    assert legal_results(v, {**start, "rolls": 1})["next"] == "reroll"      # the rest rule
    assert legal_results(v, {**start, "dice": [2, 1], "rolls": 1})["next"] == "end"
    assert legal_results(v, {**start, "rolls": 3})["next"] == "progression"
    assert legal_results(v, {**start, "dice": [6, 6], "rolls": 3})["next"] == "reroll"


# -- 4. numbers passed on are played, not thrown ---------------------------------------------------

def test_the_log_says_a_passed_number_is_played_not_thrown():
    v = load_variant("gul-bara")
    events = [Thrown(1, 5, 5), Decided(1, "play", "19/9 8/3"), Passed(1, 5, 1),
              Thrown(0, 5, 5, passed=1), Decided(0, "play", "7/2"),
              Thrown(0, 6, 6, passed=4), Decided(0, "play", "22/10 18/6"),
              Thrown(1, 6, 5, passed=2), Decided(1, "play", "12/6 12/7"),
              Thrown(1, 4, 2), Decided(1, "play", "24/20 24/22")]
    lines = log_lines(v, events)
    assert lines[1] == "   2. white plays the passed 5: 7/2"
    assert lines[2] == "   3. white plays the passed 4 × 6: 22/10 18/6"
    assert lines[3].startswith("   4. black plays the passed 6 and 5: 12/")
    assert lines[4].startswith("   5. black 4-2 24/2")
    assert not any("5-5 7/2" in line for line in lines)
    # the record says the numbers were passed, and compares them as their dice
    assert Thrown(0, 5, 5, passed=1) == Thrown(0, 5, 5)
    assert Thrown(0, 5, 5, passed=1).text() == "white takes the passed 5"


def test_numbers_passed_in_a_game_are_logged_as_passed():
    """Gul bara with `gb_progression_rest = "opponent"` (the shipped variant where numbers pass
    to the opponent): each stage of numbers passed on is a `Thrown` with `passed`, and the
    log's line says so."""
    v = load_variant("gul-bara", ['options.gb_progression_rest="opponent"',
                                  "options.gb_progression_from=1"])
    for seed in range(12):
        result = play_game(v, seed, 0, keep_record=True)
        log = result.log
        for i, e in enumerate(log):
            if isinstance(e, Passed):
                nxt = next(x for x in log[i:] if isinstance(x, Thrown))
                assert nxt.side == 1 - e.side and nxt.passed == e.moves
                assert nxt.d1 == nxt.d2 == e.number or e.moves == 1
                text = "\n".join(log_lines(v, log))
                assert f"{('white', 'black')[nxt.side]} plays the passed" in text
                return
    pytest.fail("no number passed on in 12 games")


# -- 5. a rotation's result is the match's ---------------------------------------------------------

def test_a_rotation_gives_the_match_result_not_the_last_games_value():
    v = load_variant("tavli")
    for seed in range(8):
        result = play_game(v, seed, 0)
        assert result.finished
        points = result.points
        margin = points[result.winner] - points[1 - result.winner]
        last = result.extra["games"][-1]["points"]
        assert result.value == margin
        assert result.summary("tavli")["value"] == margin
        assert game_line(0, seed, result)["value"] == margin
        if margin != last:
            return
    pytest.fail("every match of 8 was won by the value of its last game")


def test_simulate_counts_each_game_of_a_rotation(capsys):
    assert main(["simulate", "tavli", "--games", "2", "--white", "random", "--black",
                 "random", "--seed", "3", "--jobs", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    counted = sum(out["values"].values())
    assert counted > 2          # each game won counts, not one value a match


# -- 6. the hint of `learned` names the file as given ----------------------------------------------

def test_the_learned_hint_gives_a_train_command_that_loads(tmp_path, monkeypatch):
    from interpreter.players import learned
    from interpreter.players.learned import load_net
    from interpreter.players.net import WeightsError

    folder = tmp_path / "my games"
    folder.mkdir()
    _write(folder, "mine.toml", 'extends = "quinze-tablas"\n[variant]\nid = "mine"\n'
                                'name = "Mine"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    given = "my games/mine.toml"
    v = load_variant(given, ["movement.limit=3"])
    with pytest.raises(WeightsError) as err:
        load_net(v, None)
    command = re.search(r"`(tablier train [^`]*)`", str(err.value)).group(1)
    words = shlex.split(command)
    assert words[:3] == ["tablier", "train", given]
    assert words[3:5] == ["--set", "movement.limit=3"]
    # what the hint names loads, from where the command was given
    again = load_variant(words[2], [words[4]])
    assert again.files == v.files
    # a built-in variant (were none shipped for it) is named by its id
    monkeypatch.setattr(learned, "shipped_weights", lambda vid: None)
    with pytest.raises(WeightsError, match=r"`tablier train tourne-case --minutes 10`"):
        load_net(load_variant("tourne-case"), None)


# -- 7. bearing off: the combinations docs/variant-format.md tables --------------------------------

_COLUMNS = ("home_exact", "home_far", "home_other", "out_exact", "out_higher")


def _bear_off_table() -> list[tuple[str, list[str], dict[str, bool]]]:
    text = (DOCS / "variant-format.md").read_text(encoding="utf-8")
    head = text.index("| `bear_off` | `over_exit` | all home:")
    rows = []
    for line in text[head:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        bear_off = cells[0].strip("`")
        over = ["farthest", "any", "none"] if cells[1] == "any of the three" \
            else [cells[1].strip("`")]
        assert all(c in ("yes", "no") for c in cells[2:]), line
        rows.append((bear_off, over, dict(zip(_COLUMNS, (c == "yes" for c in cells[2:])))))
    return rows


def _bears_off(v, mine: dict[int, int], pip: int, number: int) -> bool:
    """Whether the number alone may bear off the mover's checker on `pip`."""
    points = [0] * 24
    for p, n in mine.items():
        points[p - 1] = n
    points[18] = -15                     # the opponent's men, out of the way
    b = v.geometry.from_json({"points": points, "bar": [0, 0],
                              "off": [15 - sum(mine.values()), 0]}, v.checkers)
    return any(p.board[0] == b[0] + 1 and p.board[pip] == b[pip] - 1
               for p in v.generator.single_plays(b, number))


def test_the_bear_off_table_covers_every_combination():
    rows = _bear_off_table()
    seen = {(b, o) for b, over, _ in rows for o in over}
    assert seen == {(b, o) for b in ("all_home", "anywhere", "none")
                    for o in ("farthest", "any", "none")}


@pytest.mark.parametrize("row", _bear_off_table(), ids=lambda r: f"{r[0]}-{'-'.join(r[1])}")
def test_each_bear_off_combination_plays_as_documented(row):
    bear_off, overs, says = row
    home, out = {5: 1, 3: 1}, {20: 1, 5: 1, 3: 1}
    for over in overs:
        v = load_variant("backgammon", [f'movement.bear_off="{bear_off}"',
                                        f'movement.over_exit="{over}"'])
        does = {"home_exact": _bears_off(v, home, 5, 5),
                "home_far": _bears_off(v, home, 5, 6),        # none of his above pip 5
                "home_other": _bears_off(v, home, 3, 4),      # one of his on pip 5
                "out_exact": _bears_off(v, out, 5, 5),
                "out_higher": _bears_off(v, out, 3, 4) or _bears_off(v, out, 5, 6)}
        assert does == says, (bear_off, over)


# -- 8. `tablier variants` shows each variant's family, inherited or not ---------------------------

def test_variants_lists_the_family_each_variant_has(capsys):
    assert main(["variants", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    families = {r["id"]: r["family"] for r in rows}
    assert families["tapa"] == "backgammon"          # written in plakoto.toml, which it extends
    for vid, family in families.items():
        assert family == (load_document(vid, check_rules=False).model.variant.family or "")
    assert main(["variants"]) == 0
    plain = capsys.readouterr().out
    assert "()" not in plain
    assert re.search(r"^tapa +Tapa \(backgammon\)$", plain, re.M)


# -- 9. names reading two dice in a throw of three -------------------------------------------------

NO_DOUBLET = '''extends = "tabula"

[variant]
id = "tabula-nodoublet"
name = "Tabula without doublets"

[rules.no-doublet]
name = "No doublet"
kind = "forbid"
when = "doublet"
'''


def test_doublet_is_refused_where_a_throw_has_three_dice(tmp_path):
    """`doublet` compares the first two dice: 6-6-5 would forbid every play and 5-6-6 none.
    The file is refused at the name, the same rule with two dice is not."""
    path = _write(tmp_path, "tabula-nodoublet.toml", NO_DOUBLET)
    found = validate_paths([path])
    assert [(d.line, d.col, d.code) for d in found] == [(10, 9, "dsl-context")]
    assert "three" in found[0].message and found[0].render().splitlines()[2] == "          ^^^^^^^"
    with pytest.raises(VariantError):
        load_variant(path)
    two = _write(tmp_path, "bg-nodoublet.toml", NO_DOUBLET.replace('"tabula"', '"backgammon"'))
    assert validate_paths([two]) == []


TWO_DICE_USES = {"dice": "count(d in dice) > 2", "numbers": "count(d in numbers) > 2",
                 "doublet": "doublet", "total": "total > 12", "high": "high == 6",
                 "low": "low == 1"}


@pytest.mark.parametrize("name", sorted(TWO_DICE_USES))
def test_every_two_dice_name_is_refused_with_three_dice(tmp_path, name):
    text = NO_DOUBLET.replace('when = "doublet"', f'when = "{TWO_DICE_USES[name]}"')
    found = validate_paths([_write(tmp_path, "t.toml", text)])
    assert [(d.line, d.code) for d in found] == [(10, "dsl-context")]
    assert f"`{name}`" in found[0].message
    two = _write(tmp_path, "two.toml", text.replace('"tabula"', '"backgammon"'))
    assert validate_paths([two]) == []


def test_a_definition_reading_two_dice_is_refused_at_the_definition(tmp_path):
    text = NO_DOUBLET.replace('when = "doublet"', 'when = "big"') + \
        '\n[define]\nbig = "high == 6"\n'
    found = validate_paths([_write(tmp_path, "d.toml", text)])
    assert (found[0].line, found[0].code) == (13, "dsl-context")


def test_a_score_rules_doublet_points_are_refused_with_three_dice(tmp_path):
    text = NO_DOUBLET.replace('kind = "forbid"\nwhen = "doublet"',
                              'kind = "score"\nwhen = "true"\nsimple = 1\ndoublet = 2')
    found = validate_paths([_write(tmp_path, "s.toml", text)])
    assert [(d.line, d.col, d.code) for d in found] == [(12, 1, "bad-value")]


def test_the_shipped_three_dice_games_still_load():
    for vid in ("tabula", "emperador"):
        assert load_variant(vid).dice_count == 3


def test_moves_refuses_the_file_with_its_diagnostic(tmp_path, monkeypatch, capsys):
    path = _write(tmp_path, "tabula-nodoublet.toml", NO_DOUBLET)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["moves", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:10:9: error[dsl-context]" in err and "Traceback" not in err


# -- names the rule language gained later give way to a file's own ---------------------------------

def test_a_file_that_named_its_own_d3_or_any_pair_reads_as_before(tmp_path):
    """`d3`, `triplet`, `all_equal` and `any_pair` read every die of a throw; a file written
    before them, with a definition, a region or a state of one of those names, still validates
    and its rules read its own meaning."""
    path = _write(tmp_path, "own-names.toml", """
extends = "backgammon"

[variant]
id = "own-names"
name = "Own names"

[regions]
any_pair = "1..2"

[define]
d3 = "after.mine(3) >= 2"

[rules.no-third-point]
name = "No point on the three"
kind = "forbid"
when = "d3 or count(p in any_pair where after.mine(p) >= 2) == 2"
""")
    assert validate_paths([path]) == []
    v = load_variant(path)
    start = v.geometry.to_json(v.start)
    # 3-3 makes the three-point (6/3(2)) in backgammon; the file's own `d3` forbids it here
    base = legal_results(load_variant("backgammon"), {**start, "dice": [3, 3]})["results"]
    assert any(line["points"][2] >= 2 for line in base)
    out = legal_results(v, {**start, "dice": [3, 3]})["results"]
    assert out and all(line["points"][2] < 2 for line in out)
