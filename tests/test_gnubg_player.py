"""GNU Backgammon as player and grader (the `gnubg` extra; skipped without the module): its
plays are its own move finder's best, it refuses the variants it does not play, and
`tablier analyse --by gnubg` grades a player's plays (gnubg's own with no error)."""
from __future__ import annotations

import json
from importlib.util import find_spec

import pytest

if find_spec("gnubg") is None:
    pytest.skip("the gnubg module is not installed", allow_module_level=True)

from interpreter.cli import main  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.errors import TablierError  # noqa: E402
from interpreter.io.gnubg import encode_position_id  # noqa: E402
from interpreter.players.bots import GreedyBot  # noqa: E402
from interpreter.players.kinds import make_player  # noqa: E402
from interpreter.players.gnubg_player import _move_text, module  # noqa: E402

#: gnubg's functions, run in the thread that imported the module (gnubg_player._Home)
gnubg = module()
from interpreter.players.utility import cube_match_table, match_table  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402


def test_gnubg_plays_its_own_best_play():
    v = load_variant("backgammon")
    g = make_player("gnubg", "g", v)
    compared = []

    class Check:
        kind = "check"
        capabilities = frozenset()

        def answer(self, d):
            i = g.answer(d)
            view = d.view
            ci = gnubg.cube_info(1, -1, 1, 0, (0, 0), 0, 0)
            ec = gnubg.eval_context(1, 0, 1, 0, 0.0)
            best = gnubg.find_best_moves(gnubg.position_from_id(encode_position_id(view.board)),
                                         ci, ec, (max(view.dice), min(view.dice)))[0]["move"]
            if len(best) % 2 == 0:          # a tuple the module did not cut at a bear-off
                assert d.index(_move_text(best)) == i
                compared.append(i)
            return i

    Game(v, "gnubg-best", keep_record=False, doubles=(False, False)).run([Check(), Check()])
    assert len(compared) > 20


@pytest.mark.parametrize("position, dice, cubeful, cubeless", [
    ("Xnw1AQCXkuIBIQ", (1, 1), (13, 12, 12, 11, 9, 8, 4, 3), (7, 6, 6, 5, 4, 3, 3, 2)),
    ("fw4AAPhuQgQDAA", (4, 1), (17, 13, 3, 2), (17, 13, 17, 16)),
])
def test_without_the_cube_gnubg_plays_for_the_cubeless_value(position, dice, cubeful, cubeless):
    """Positions where gnubg's best play with a centred cube is not its best without one: in
    money play with the cube gnubg takes the first, with `ladder.doubling = false` (no cube in
    the game) the second, its own best in the game's real context."""
    from interpreter.io.gnubg import decode_position_id
    from interpreter.kernel.notation import read_play

    b = decode_position_id(position)
    for overrides, want in ((["ladder.doubling=false"], cubeless), ([], cubeful)):
        v = load_variant("backgammon", overrides)
        g = make_player("gnubg", "g", v)
        game = Game(v, "cube-or-not", doubles=(False, False))
        game.ladder.start()
        state = game.ladder.state(0)
        assert state["enabled"] is (not overrides)
        plays, _ = v.generator.plays(b, *dice)
        _scores, best, _text = g.ranked(b, dice, state, plays)
        assert best == read_play(_move_text(want), plays, b, dice).board, overrides


@pytest.mark.parametrize("vid, why", [("triktrak", "its rules are not gnubg's"),
                                      ("hypergammon", "hypergammon databases"),
                                      ("tric-trac-12", "not 'tric-trac-12'")])
def test_gnubg_refuses_the_variants_it_does_not_play(vid, why, capsys):
    with pytest.raises(TablierError, match=why):
        make_player("gnubg", "g", load_variant(vid))
    assert main(["play", vid, "--white", "gnubg"]) == 1
    assert "gnubg plays backgammon and nackgammon" in capsys.readouterr().err


def test_gnubg_plays_nackgammon_and_a_match_with_the_cube():
    for vid, opts in (("nackgammon", []), ("backgammon", ["ladder.match_length=3"])):
        v = load_variant(vid, opts)
        players = (make_player("gnubg", "w", v), GreedyBot("b"))
        r = Game(v, "g", keep_record=False, doubles=(True, True)).run(players)
        assert r.finished


def test_analyse_grades_the_plays_and_gnubgs_own_are_best(tmp_path, capsys):
    mat = tmp_path / "m.mat"
    assert main(["play", "backgammon", "--set", "ladder.match_length=3", "--white", "greedy",
                 "--black", "gnubg", "--mat", str(mat), "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["analyse", str(mat), "--player", "black", "--by", "gnubg", "--json"]) == 0
    black = json.loads(capsys.readouterr().out)
    assert black["plays"] > 10 and black["mean_error_millipoints"] == 0.0
    assert black["best_play_share"] == 1.0 and black["blunders"] == []
    assert main(["analyse", str(mat), "--player", "white", "--by", "gnubg", "--json"]) == 0
    white = json.loads(capsys.readouterr().out)
    assert white["mean_error_millipoints"] > 10
    assert white["rating"] in ("awful", "beginner", "casual player", "intermediate")
    for b in white["blunders"]:
        assert b["error_millipoints"] > 80 and b["played"] != b["better"]
        assert ":" in b["gnubg_id"]
    assert main(["analyse", str(mat), "--player", "nobody", "--by", "gnubg"]) == 1
    assert "no player 'nobody'" in capsys.readouterr().err


def test_analyse_refuses_a_file_that_is_not_a_match(tmp_path, capsys):
    bad = tmp_path / "bad.mat"
    bad.write_text("not a match\n")
    assert main(["analyse", str(bad), "--player", "white", "--by", "gnubg"]) == 1
    assert "bad.mat" in capsys.readouterr().err


def test_gnubg_on_the_bar_against_five_closed_points_is_no_favourite_and_does_not_double():
    """Black on roll, a man on the bar against white's five closed points (all 6-6, 5-5, 3-3 and
    the throws of those numbers dance): a throw he cannot play leaves white to throw, worth minus
    white's equity on roll to him, not minus his own (which read each dance as a gain and made
    him double from the bar)."""
    from interpreter.players.gnubg_player import GnubgPlayer

    v = load_variant("backgammon")
    p = GnubgPlayer(v)
    white = (0, 2, 3, 0, 2, 2, 2, 0, -3, 0, 0, 0, 0, 4, 0, 0, 0, -2, 0, -2, -2, -2, -2, -1, 0, 0,
             1, 0)
    black = v.flip(white)
    state = {"kind": "cube", "match_length": 0, "score": {"me": 0, "opponent": 0},
             "away": None, "cube": 1, "owner": None, "crawford": False}
    own = p.g.evaluate(p.board(black), p.cube_info(state, True, 1, None), p.ec)[5]
    assert own < -0.5
    before = p._before_throw(black, state, 1, None)
    assert before < -0.5
    take = p._before_throw(black, state, 2, "opponent")
    assert not min(take, p._pass_value(state, True)) > before


def test_positions_grades_players_on_the_same_positions_and_gnubg_on_its_own_is_best():
    from interpreter.analyse import position_errors

    out = position_errors(["gnubg", "greedy", "gnubg"], games=2, seed=3,
                          players=("greedy", "gnubg"))
    assert out["positions"] > 20
    own, greedy, again = out["graded"]
    # gnubg's play is its own best by the scores it is graded with
    assert own["mean_error_millipoints"] == 0.0 and own["best_play_share"] == 1.0
    assert again == {**own, "player": "gnubg"}
    assert greedy["mean_error_millipoints"] > 10 and greedy["best_play_share"] < 0.9
    diff = out["differences"][0]
    # paired position by position: greedy's error less gnubg's zero is greedy's own
    assert diff["mean_millipoints"] == greedy["mean_error_millipoints"]
    lo, hi = diff["interval"]
    assert lo < diff["mean_millipoints"] < hi
    # every two players compared: greedy less gnubg, the two gnubgs, gnubg less greedy
    assert [(d["player"], d["minus"]) for d in out["differences"]] == [
        ("greedy", "gnubg"), ("gnubg", "gnubg"), ("gnubg", "greedy")]
    assert out["differences"][1]["interval"] == [0.0, 0.0]
    assert out["differences"][2]["mean_millipoints"] == -diff["mean_millipoints"]


def test_positions_own_grades_only_the_first_players_plays():
    from interpreter.analyse import position_errors

    both = position_errors(["greedy"], games=2, seed=4, players=("greedy", "gnubg"))
    own = position_errors(["greedy"], games=2, seed=4, players=("greedy", "gnubg"), own=True)
    # the same games; greedy's own positions are some of them, where it plays what it is
    # graded on
    assert 0 < own["positions"] < both["positions"]
    assert own["own"] and not both["own"]
    # asking a searching player (which plays on copies of the game) changes nothing of the games
    more = position_errors(["greedy", "search:1"], games=2, seed=4, players=("greedy", "gnubg"))
    assert more["positions"] == both["positions"]
    assert more["graded"][0] == both["graded"][0]


def test_positions_refuses_an_empty_list_of_players():
    from interpreter.analyse import position_errors

    with pytest.raises(TablierError, match="at least one player"):
        position_errors([], games=1)


def test_grade_gives_the_mean_error_with_its_interval_taken_over_the_matches():
    from interpreter.analyse import grade_games

    out = grade_games("greedy", "gnubg", games=3, seed=2, match_length=1)
    lo, hi = out["error_interval_millipoints"]
    assert lo < out["mean_error_millipoints"] < hi
    assert out["matches"] == 3 and out["plays"] > 10
    # one match: no spread between matches to take an interval from
    one = grade_games("greedy", "gnubg", games=1, seed=2, match_length=1)
    assert one["error_interval_millipoints"] is None and one["mean_error_millipoints"] > 0


def test_the_match_table_with_the_cube_is_near_gnubgs_and_the_cubeless_one_is_not():
    M = gnubg.met()
    E, post = cube_match_table(7)
    flat = match_table(7)
    pairs = [(a, b) for a in range(1, 8) for b in range(1, 8)]
    near = max(abs(E[a][b] - M[0][a - 1][b - 1]) for a, b in pairs)
    far = max(abs(flat[a][b] - M[0][a - 1][b - 1]) for a, b in pairs)
    assert near < 0.035 < 0.1 < far
    # after the Crawford game: the trailer's chance at k-away, gnubg's second table
    assert max(abs((1.0 - post[k]) - M[1][k - 1]) for k in range(1, 8)) < 0.015
