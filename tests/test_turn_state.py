"""Named state across turns (`[turn.state]`, `[turn.update]`): checked like rules (carets, types,
names), read by rules under its name, set after each play, kept in position JSON as
`"state": {"NAME": [mover, opponent]}` and in saves, and started afresh with each game."""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main
from interpreter.engine.events import Played, Thrown
from interpreter.engine.game import Game
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant

#: backgammon where a player who has hit three blots (over the whole game) wins at once
THREE_HITS = '''extends = "backgammon"
[variant]
id = "three-hits"
name = "Three hits"

[turn.state]
hits = 0

[turn.update.hits]
name = "Blots hit"
value = "hits + sum(s in path: s.hit)"

[rules.three-hits]
name = "Three blots hit"
kind = "end"
when = "hits >= 3"

[ladder]
kind = "game"
'''


def validate(tmp_path: Path, text: str, capsys) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    code = main(["validate", str(path)])
    out = capsys.readouterr()
    assert code == 1
    return (out.out + out.err).replace(str(tmp_path) + "/", "")


def moves(capsys, variant: str, position: dict) -> dict:
    import io
    import sys

    stdin = sys.stdin
    sys.stdin = io.StringIO(json.dumps(position) + "\n")
    try:
        capsys.readouterr()
        main(["moves", variant])
    finally:
        sys.stdin = stdin
    return json.loads(capsys.readouterr().out.splitlines()[0])


def test_a_state_name_is_checked_like_a_rule(tmp_path, capsys) -> None:
    base = 'extends = "backgammon"\n[variant]\nid = "x"\nname = "x"\n'
    text = validate(tmp_path, base + '[turn.state]\ntotal = 0\n', capsys)
    assert "house.toml:6:9: error[dsl-shadow]: `total` is a built-in name" in text
    text = validate(tmp_path, base + '[turn.update.hits]\nname = "h"\nvalue = "1"\n', capsys)
    assert "error[dsl-unknown-name]: `[turn.update.hits]` updates a state that `[turn.state]` " \
           "does not declare" in text
    # a true/false state set to a number, with a caret under the snippet
    text = validate(tmp_path, base + '[turn.state]\nseen = false\n[turn.update.seen]\n'
                    'name = "s"\nvalue = "mine(off) + 1"\n', capsys)
    lines = text.splitlines()
    assert lines[0].startswith("house.toml:9:") and "error[dsl-type]" in lines[0]
    assert "^" in lines[2]
    # a misspelt state name in a rule is an unknown name with a hint
    text = validate(tmp_path, base + '[turn.state]\nseen = false\n[rules.r]\nname = "r"\n'
                    'kind = "end"\nwhen = "sen"\n', capsys)
    assert "unknown name `sen`; did you mean `seen`?" in text
    text = validate(tmp_path, base + '[turn.state]\nhits = 5000\n', capsys)
    assert "house.toml:6:" in text and "1000" in text


def test_a_counter_kept_across_turns_ends_the_game(tmp_path) -> None:
    path = tmp_path / "three-hits.toml"
    path.write_text(THREE_HITS, encoding="utf-8")
    v = load_variant(path)
    slot = v.geometry.state_slot("hits")
    wins = 0
    for seed in range(6):
        g = Game(v, seed)
        result = g.run([make_player("random", seed, v), make_player("random", seed + 100, v)])
        if result.winner is None:
            continue
        # the count is the winner's hits over the whole game, read from the log
        hits = [0, 0]
        board = None
        for entry in g.log:
            if isinstance(entry, Thrown):
                board = entry.board
            elif isinstance(entry, Played):
                side, after = entry.side, entry.board
                hits[side] += after[26] - board[26]
                assert after[slot] == min(hits[side], 1000)
        if max(hits) >= 3:
            wins += 1
            assert hits[result.winner] >= 3
    assert wins >= 3


def test_state_in_position_json_is_read_and_written(capsys) -> None:
    # the courier still on its way (pip 14): only it may move ...
    position = {"points": [0] * 11 + [-13, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 14],
                "bar": [0, 0], "off": [0, 0], "dice": [3, 1]}
    position["points"][2] = -1
    plain = moves(capsys, "jacquet", position)
    assert all(r["points"][23] == 14 for r in plain["results"])
    assert all(r["state"] == {"courier_arrived": [False, False]} for r in plain["results"])
    # ... unless the state says it has arrived: then a man may leave the talon
    stated = moves(capsys, "jacquet", dict(position, state={"courier_arrived": [True, False]}))
    assert any(r["points"][23] == 13 for r in stated["results"])
    assert all(r["state"] == {"courier_arrived": [True, False]} for r in stated["results"])
    bad = moves(capsys, "jacquet", dict(position, state={"courier_arrived": [1, 0]}))
    assert "'state.courier_arrived' must be two values" in bad["error"]


def test_state_starts_afresh_and_is_saved(tmp_path, capsys) -> None:
    v = load_variant("jacquet")
    slot = v.geometry.state_slot("courier_arrived")
    assert v.start[slot] == 0 and v.flip(v.start)[slot] == 0
    g = Game(v, 5)
    g.run([make_player("random", 1, v), make_player("random", 2, v)])
    arrived = [e for e in g.log if isinstance(e, Played) and e.board[slot]]
    assert arrived, "a courier arrives in every finished game"
    # resumed from a save in the middle, the game ends as the uninterrupted one
    whole, part = tmp_path / "whole.toml", tmp_path / "part.toml"
    bots = ["--white", "random", "--black", "greedy", "--seed", "7"]
    assert main(["play", "jacquet", *bots, "--json", "--save", str(whole)]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["play", "jacquet", *bots, "--max-turns", "30", "--save", str(part)]) == 0
    capsys.readouterr()
    assert "courier_arrived" in part.read_text(encoding="utf-8")
    assert main(["play", "--resume", str(part), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


# -- the built-in "the side on roll can move" --------------------------------------------------

def _can_move(variant: str, position: dict) -> tuple[bool, bool]:
    from interpreter.dsl import compile_document
    from interpreter.variant.build import apply_option_sets
    from interpreter.variant.loader import load_document

    doc = load_document(variant)
    model = apply_option_sets(doc.model)
    rule = model.rules["borne-off"].model_copy(update={"when": "can_move()"})
    other = rule.model_copy(update={"when": "opponent_can_move()"})
    rules = compile_document(model.model_copy(update={"rules": {"a": rule, "b": other}}))
    v = load_variant(variant)
    b = v.geometry.from_json(position, v.checkers)
    fns = dict((r, fn) for r, _w, fn in rules.end)
    return bool(fns["a"](b)), bool(fns["b"](b))


def test_can_move_in_tapa_deadlock_TP6() -> None:
    # W {1:14} pinning B's last man on pip 1, B {24:14} pinning W's last man on pip 24
    points = [0] * 24
    points[0], points[23] = 14, -14
    pos = {"points": points, "bar": [0, 0], "off": [0, 0],
           "pins": {"mine": [24], "theirs": [1]}}
    assert _can_move("tapa", pos) == (False, False)
    # one man of W free on 2 instead: W can bear it off (all home), B still cannot move
    points[0], points[1] = 13, 1
    assert _can_move("tapa", dict(pos, points=points)) == (True, False)


def test_can_move_reads_the_bar_and_blocks() -> None:
    # backgammon: a checker on the bar against a closed board cannot move
    points = [0] * 24
    for p in range(19, 25):
        points[p - 1] = -2
    points[0] = -3
    points[5] = 13
    pos = {"points": points, "bar": [2, 0], "off": [0, 0]}
    assert _can_move("backgammon", pos) == (False, True)
    # one point of the opponent's home board opened: it enters
    points[20] = -1
    points[0] = -4
    assert _can_move("backgammon", dict(pos, points=points))[0] is True
    # Gul bara: one opposing checker closes a point; W's fifteen on 8 before B's men on 2..7
    # cannot move, and can once pip 2 is empty (8/2 with a 6)
    points = [0] * 24
    points[7] = 15
    for p, n in ((2, 3), (3, 3), (4, 3), (5, 2), (6, 2), (7, 2)):
        points[p - 1] = -n
    pos = {"points": points, "bar": [0, 0], "off": [0, 0]}
    assert _can_move("gul-bara", pos)[0] is False
    points[1], points[2] = 0, -6
    assert _can_move("gul-bara", dict(pos, points=points))[0] is True


# -- the dice keys under [turn] ------------------------------------------------------------------

def test_the_dice_keys_are_turn_keys_and_dice_is_the_older_table(tmp_path, capsys) -> None:
    base = 'extends = "backgammon"\n[variant]\nid = "x"\nname = "x"\n'
    old = tmp_path / "old.toml"
    old.write_text(base + '[dice]\ndoublets = "twice"\n', encoding="utf-8")
    new = tmp_path / "new.toml"
    new.write_text(base + '[turn]\ndoublets = "twice"\n', encoding="utf-8")
    assert load_variant(old).move_rules.doublet_moves == 2
    assert load_variant(new).move_rules.doublet_moves == 2
    assert load_variant("backgammon", ['turn.doublets="twice"']).move_rules.doublet_moves == 2
    assert load_variant("fevga", ['opening_roll="one_die_each"']).opening == "one_die_each"
    text = validate(tmp_path, base + '[turn]\ndoublets = "five"\n', capsys)
    assert text.startswith("house.toml:6:12: error[bad-choice]: `turn.doublets` must be one of")
    text = validate(tmp_path, base + '[turn]\ndoublets = "twice"\n[dice]\ndoublets = "four"\n',
                    capsys)
    assert "house.toml:6:1: error[duplicate-key]: `doublets` is given both in `[turn]`" in text
    # the rulebook and diff show the dice under the turn
    assert main(["rules", "backgammon", "--section", "dice"]) == 0
    assert "## The turn: the dice" in capsys.readouterr().out
    assert main(["diff", "backgammon", "fevga"]) == 0
    assert "## The turn: the dice" in capsys.readouterr().out


def test_explain_shows_a_state_update(capsys) -> None:
    assert main(["explain", "jacquet", "courier_arrived"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("state update courier_arrived: The courier has arrived")
    assert "initial value: false" in out and "cost: at most" in out and "def hook_" in out


def test_turn_keys_in_option_sets_and_set_are_named_as_written(tmp_path, capsys) -> None:
    base = 'extends = "fevga"\n[variant]\nid = "x"\nname = "x"\n[option_sets.opening_roll]\n'
    text = validate(tmp_path, base + 'winner_throws_two = { turn = { doublet = "four" } }\n',
                    capsys)
    assert text.startswith("house.toml:6:32: error[unknown-key]: unknown key `doublet` in "
                           "`[option_sets.opening_roll.winner_throws_two.turn]`; did you mean "
                           "`doublets`?")
    good = tmp_path / "good.toml"
    good.write_text(base + 'one_die_each = { turn = { opening_roll = "one_die_each" } }\n'
                    'winner_throws_two = { turn = { opening_roll = "winner_throws_two" } }\n',
                    encoding="utf-8")
    assert load_variant(good, ['opening_roll="one_die_each"']).opening == "one_die_each"
    capsys.readouterr()
    assert main(["play", "backgammon", "--set", 'turn.doublet="twice"']) != 0
    assert "unknown key `turn.doublet` for --set; did you mean `turn.doublets`?" in \
        capsys.readouterr().err
