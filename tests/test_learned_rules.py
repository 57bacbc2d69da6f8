"""What a network knows of its rules (players/rules_seen.py, variant/fingerprint.py): the
fingerprint of a variant's play-relevant parts, the value read from the file in play (each
outcome class's worth, the Jacoby rule), the note a player says once where the game differs
from its network's rules, the refusal of a network trained for another game, and what the
shipped weights files record."""
from __future__ import annotations

import json
import subprocess
import sys
import os
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from interpreter.cli import main  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.players import kinds  # noqa: E402
from interpreter.players import rules_seen  # noqa: E402
from interpreter.players.kinds import make_player  # noqa: E402
from interpreter.players.learned import ForeignWeightsError, shipped_weights  # noqa: E402
from interpreter.players.net import ValueNet  # noqa: E402
from interpreter.players.rules_seen import class_worths, value_classes  # noqa: E402
from interpreter.players.utility import of_outcomes  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.variant.fingerprint import (  # noqa: E402
    check_rules_meta, differing_keys, fingerprint_parts, rules_fingerprint)

WEIGHTS = Path(__file__).resolve().parents[1] / "interpreter" / "players" / "weights"
GAMMON_OFF = ["rules.gammon.enabled=false"]
BOTH_OFF = ["rules.gammon.enabled=false", "rules.backgammon.enabled=false"]


@pytest.fixture(autouse=True)
def _fresh():
    """Judges made afresh, notes said afresh."""
    kinds._JUDGES.clear()
    rules_seen._SAID.clear()
    yield
    kinds._JUDGES.clear()


# -- the fingerprint --------------------------------------------------------------------------

def test_the_fingerprint_is_the_same_across_loads_and_processes():
    a = rules_fingerprint(load_variant("backgammon"))
    assert a == rules_fingerprint(load_variant("backgammon"))
    assert len(a) == 64 and int(a, 16) >= 0
    code = ("from interpreter.variant.build import load_variant; from interpreter.variant."
            "fingerprint import rules_fingerprint; print(rules_fingerprint(load_variant("
            "'backgammon')))")
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env={"PYTHONHASHSEED": seed, "PATH": ""},
                             cwd=Path(__file__).resolve().parents[1])
        assert out.stdout.strip() == a


def test_a_rule_switched_off_changes_the_fingerprint_and_is_named():
    base = load_variant("backgammon")
    off = load_variant("backgammon", GAMMON_OFF)
    assert rules_fingerprint(off) != rules_fingerprint(base)
    assert differing_keys(fingerprint_parts(base), fingerprint_parts(off)) == \
        ["rules.gammon.enabled"]
    parts = fingerprint_parts(base)
    for key in ("rules.gammon.when", "rules.gammon.value", "movement.hit", "board.start",
                "dice.count", "ladder.jacoby", "regions.home"):
        assert key in parts
    # a rule worth more, a ladder option: each its own key
    four = load_variant("backgammon", ['rules.gammon.value="4"', "ladder.jacoby=true"])
    assert differing_keys(parts, fingerprint_parts(four)) == ["ladder.jacoby",
                                                              "rules.gammon.value"]


def test_words_do_not_change_the_fingerprint():
    base = load_variant("backgammon")
    worded = load_variant("backgammon", ['rules.gammon.name="Double game"',
                                         'rules.gammon.description="Counts two."',
                                         'variant.name="Tables"', 'variant.summary="A race."'])
    assert rules_fingerprint(worded) == rules_fingerprint(base)
    assert not any(k.endswith((".name", ".description", ".source")) or k.startswith("variant.")
                   for k in fingerprint_parts(base))


# -- the value is the file's ------------------------------------------------------------------

@pytest.mark.parametrize("overrides, worths", [
    ([], (1, 2, 3)),
    (GAMMON_OFF, (1, 1, 3)),
    (["rules.backgammon.enabled=false"], (1, 2, 2)),
    (BOTH_OFF, (1, 1, 1)),
    (['rules.gammon.value="4"'], (1, 4, 4)),
])
def test_each_outcome_class_is_worth_what_the_file_in_play_says(overrides, worths):
    trained = load_variant("backgammon")
    classes = value_classes(trained, (2, 3))
    assert classes == {"2": ["gammon"], "3": ["backgammon"]}
    played = load_variant("backgammon", overrides)
    assert class_worths(played, (2, 3), classes) == worths
    judge = kinds.judge_for(played, True, None)
    assert judge.worths == worths


def test_gammons_count_single_under_the_jacoby_rule_until_the_cube_is_turned():
    v = load_variant("backgammon", ["ladder.jacoby=true", "ladder.doubling=false"])
    game = Game(v, "j", keep_record=False)
    game.ladder.start()
    state = game.ladder.state(0)
    assert state["jacoby_single"] is True
    Y = np.array([[0.7, 0.4, 0.1, 0.05, 0.0]])
    assert of_outcomes(Y, (2, 3), state)[0] == pytest.approx(2 * 0.7 - 1)
    assert of_outcomes(Y, (2, 3), dict(state, jacoby_single=False))[0] > 2 * 0.7 - 1 + 0.3
    # a match has no Jacoby rule
    match = Game(load_variant("backgammon", ["ladder.jacoby=true", "ladder.match_length=5"]),
                 "m", keep_record=False)
    match.ladder.start()
    assert match.ladder.state(0)["jacoby_single"] is False


def _first_play(variant, seed: str) -> str:
    """The learned player's answer to the first decision of game `seed` (the opening throw)."""
    game = Game(variant, seed, keep_record=False, doubles=(False, False))
    gen = game.play()
    d = next(gen)
    assert d.is_play
    player = make_player("learned", f"{seed}:white", variant)
    return d.words()[player.answer(d)] + f" ({d.view.dice[0]}-{d.view.dice[1]})"


def test_the_same_network_plays_another_move_where_a_gammon_is_worth_nothing_more():
    """The opening 6-4 (game 2/0): with gammons worth two the network makes its 2 point
    (8/2 6/2, the gammonish play); where a gammon counts single it runs a back man (24/18
    18/14)."""
    on = load_variant("backgammon", ["ladder.doubling=false"])
    off = load_variant("backgammon", ["ladder.doubling=false", *BOTH_OFF])
    a, b = _first_play(on, "2/0"), _first_play(off, "2/0")
    assert a.endswith("(6-4)") and b.endswith("(6-4)")
    assert a != b
    # the Jacoby rule with a cube never turned counts gammons single too
    jacoby = load_variant("backgammon", ["ladder.doubling=false", "ladder.jacoby=true"])
    assert _first_play(jacoby, "2/0") == b


# -- the compiled path ------------------------------------------------------------------------

#: white (who just played) has fifteen men, none off, one on black's 5 point; black, to throw,
#: has two men left on his 1 and 2 points: most throws end the game with a backgammon
BLACK_ENDS = tuple([0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, -1, -1,
                    0, 0, 13])
#: the same with the straggler home (a gammon at most) and black with three men left
BLACK_NEAR = tuple([0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0,
                    0, 0, 12])


@pytest.mark.parametrize("overrides", [
    ["ladder.doubling=false", *GAMMON_OFF],
    ["ladder.doubling=false", "ladder.jacoby=true"],
])
def test_the_compiled_and_python_paths_value_alike_where_the_file_changes_the_value(overrides):
    pytest.importorskip("numba")
    from interpreter import native
    from interpreter.players.leaves import Leaf
    from interpreter.players.learned import NetJudge
    from interpreter.players.search import SearchPlayer

    v = load_variant("backgammon", overrides)
    native.accelerate_net(v)
    fast = kinds.judge_for(v, True, None)
    assert fast.fast is not None
    slow = NetJudge(v, fast.net)
    slow._fast = None
    game = Game(v, "c", keep_record=False)
    game.ladder.start()
    state = game.ladder.state(0)
    ls = [Leaf(b, False, (3, 3), state) for b in (BLACK_ENDS, BLACK_NEAR)]
    compiled = fast.replies(ls, 0)
    assert compiled is not None
    python = [SearchPlayer(v, slow, depth=2).expect(lf, 0, 1) for lf in ls]
    assert compiled == pytest.approx(python, abs=1e-9)
    assert fast.values(ls, 0)[0] == pytest.approx(slow.values(ls, 0)[0], abs=1e-12)
    # and the backgammon is worth what this file says: three with the gammon off, one under
    # the Jacoby rule (the cube never turned)
    worst = -3.0 if "rules.gammon.enabled=false" in overrides else -1.0
    assert min(compiled) >= worst - 1e-9
    assert compiled[0] < worst + 0.5


# -- saying it ---------------------------------------------------------------------------------

def test_the_note_is_said_once(capsys):
    args = ["simulate", "backgammon", "--set", "rules.gammon.enabled=false", "--white",
            "learned", "--black", "learned", "--games", "2", "--jobs", "1", "--json"]
    assert main(args) == 0
    err = capsys.readouterr().err
    note = "learned: trained for backgammon; this game differs in rules.gammon.enabled"
    assert err.count(note) == 1
    # the same variant as shipped: nothing to say
    assert main(["play", "backgammon", "--white", "learned", "--black", "random",
                 "--max-turns", "2", "--json"]) == 0
    assert "learned:" not in capsys.readouterr().err


def test_outcomes_the_network_does_not_know_are_named(tmp_path, capsys):
    path = tmp_path / "quad.toml"
    path.write_text('extends = "backgammon"\n\n[variant]\nid = "quad"\nname = "Quad"\n\n'
                    '[rules.quadruple]\nname = "Quadruple"\nkind = "value"\n'
                    'when = "theirs(off) == 0 and theirs(bar) > 0"\nvalue = "4"\n')
    v = load_variant(str(path))
    seen = rules_seen.RulesSeen(v, ValueNet.load(shipped_weights("backgammon")).meta, (2, 3))
    assert seen.unknown == [("quadruple", 4)]
    assert seen.notes()[-1] == ("learned: this game has outcomes the network does not know "
                                "(quadruple worth 4); it plays on what it knows")
    assert seen.worths == (1, 2, 3)


def test_a_long_list_of_keys_is_cut():
    keys = [f"k{i}" for i in range(9)]
    assert rules_seen.keys_text(keys) == "k0, k1, k2, k3, k4, k5 and 3 more"


def test_compare_names_what_each_arm_network_was_trained_for(capsys):
    pytest.importorskip("scipy")
    code = main(["compare", "backgammon", "backgammon", "--set", "2:rules.gammon.enabled=false",
                 "--paired", "--white", "learned", "--black", "random", "--games", "2",
                 "--jobs", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    first, second = out["arms"]
    assert first["trained_for"] == {"white": "backgammon", "black": None}
    assert first["differs"] == []
    assert second["trained_for"] == {"white": "backgammon", "black": None}
    assert second["differs"] == ["rules.gammon.enabled"]
    assert "trained for backgammon" in out["caveat"] and "rules.gammon.enabled" in out["caveat"]


def test_the_web_state_carries_the_notes():
    from interpreter.web.session import Session

    v = load_variant("backgammon", GAMMON_OFF)
    s = Session.new(v, 1, ("learned", "human"), GAMMON_OFF)
    assert s.state()["players"]["notes"] == [
        "learned: trained for backgammon; this game differs in rules.gammon.enabled"]
    s = Session.new(load_variant("backgammon"), 1, ("human", "human"), [])
    assert s.state()["players"]["notes"] == []


# -- refusing another game's network ------------------------------------------------------------

def test_a_network_of_another_game_is_refused_unless_asked_for(capsys):
    tabula = str(WEIGHTS / "tabula.npz")
    args = ["play", "backgammon", "--white", f"learned:{tabula}", "--black", "random",
            "--max-turns", "4", "--json"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert f"learned:{tabula} was trained for tabula (another board, dice" in err[0]
    assert "dice.count" in err[0] and "--foreign-weights" in err[0]
    with pytest.raises(ForeignWeightsError):
        make_player(f"learned:{tabula}", "x", load_variant("backgammon"))
    assert main([*args, "--foreign-weights"]) == 0
    err = capsys.readouterr().err
    assert "learned: trained for tabula; this game differs in board.start" in err
    # the switch ends with the command
    with pytest.raises(ForeignWeightsError):
        make_player(f"learned:{tabula}", "x", load_variant("backgammon"))


def test_house_rules_never_refuse_a_shipped_network():
    for overrides in (BOTH_OFF, ["ladder.jacoby=true", "ladder.match_length=5"],
                      ['rules.gammon.value="4"']):
        make_player("learned", "x", load_variant("backgammon", overrides))


# -- the weights files --------------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(WEIGHTS.glob("*.npz")), ids=lambda p: p.stem)
def test_every_shipped_network_records_the_rules_of_its_variant(path):
    net = ValueNet.load(path)
    meta = net.meta
    assert check_rules_meta(meta) is None
    v = load_variant(meta["variant"])
    assert meta["rules_fingerprint"] == rules_fingerprint(v)
    assert meta["rules"] == fingerprint_parts(v)
    assert meta["classes"] == value_classes(v, net.levels)
    assert kinds.judge_for(v, True, None).worths == (1, *net.levels)


def test_train_records_the_rules_and_what_it_started_from(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLIER_NATIVE", "0")
    out = tmp_path / "h.npz"
    base = ["train", "hypergammon", "--out", str(out), "--seed", "5", "--hidden", "4",
            "--checkpoint-every", "1", "--from", "none"]
    assert main([*base, "--games", "1"]) == 0
    meta = ValueNet.load(out).meta
    v = load_variant("hypergammon")
    assert meta["rules_fingerprint"] == rules_fingerprint(v)
    assert meta["classes"] == {"2": ["gammon"], "3": ["backgammon"]}
    assert meta["trained_from"] == []
    assert meta["command"] == ["tablier", *base, "--games", "1"]
    import hashlib
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    assert main([*base, "--games", "2", "--resume"]) == 0
    meta = ValueNet.load(out).meta
    assert meta["trained_from"] == [{"fingerprint": rules_fingerprint(v), "sha256": digest}]


def test_foreign_weights_go_with_each_dask_task(monkeypatch):
    """A Dask worker is no child of the command: `--foreign-weights` travels with each chunk,
    and the worker's own environment is as it was after it."""
    from interpreter.players.rules_seen import FOREIGN_ENV
    from interpreter.runner import Arm, _dask_chunk

    monkeypatch.delenv(FOREIGN_ENV, raising=False)
    arm = Arm("backgammon", (), 1, 1, f"learned:{WEIGHTS / 'tabula.npz'}", "random",
              max_turns=6)
    with pytest.raises(ForeignWeightsError):
        _dask_chunk(arm, 0, 1, None, False)
    lines = _dask_chunk(arm, 0, 1, None, True)
    assert [line["game"] for line in lines] == [0]
    assert FOREIGN_ENV not in os.environ
