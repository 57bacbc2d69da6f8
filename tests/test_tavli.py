"""Tavli: the rotation ladder plays Portes, Plakoto and Fevga in turn, each by its own file, to
`match_points`; the winner of a game throws first in the next with both dice; a game without a
winner scores nothing; a save in the middle of a later game resumes to the same match."""
from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.events import Ended, RotationGameBegun, Thrown, Tied
from interpreter.engine.game import Game
from interpreter.resources import builtin_variant_path
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

ROTATION = ("portes", "plakoto", "fevga")


@pytest.fixture(scope="module")
def tavli():
    return load_variant("tavli")


#: the matches played, by seed and players: the tests only read them, and each is the same
#: match every time it is played
_MATCHES: dict[tuple, object] = {}


def match(tavli, seed: int, white: str = "random", black: str = "random"):
    key = (id(tavli), seed, white, black)
    if key not in _MATCHES:
        _MATCHES[key] = (tavli, play_game(tavli, seed, 0, white, black, keep_record=True))
    return _MATCHES[key][1]


def games_of(result) -> list[dict]:
    return result.extra["games"]


def first_throws(result) -> list[Thrown]:
    """For each game of the match: its first throw in the log (`Thrown`: side, d1, d2, the
    board before it)."""
    out = []
    log = result.log
    for i, e in enumerate(log):
        if isinstance(e, RotationGameBegun):
            out.append(next(x for x in log[i:] if isinstance(x, Thrown)))
    return out


def test_the_games_follow_the_rotation_portes_plakoto_fevga_and_again(tavli):
    seen = 0
    for seed in range(4):
        result = match(tavli, seed)
        names = [g["variant"] for g in games_of(result)]
        assert names == [ROTATION[i % 3] for i in range(len(names))]
        seen = max(seen, len(names))
        # each game is set up on its own variant's start, seen by the player who throws first
        for thrown, name in zip(first_throws(result), names):
            assert thrown.board == load_variant(name).start_of(0)   # the mover's own view
    assert seen > 3            # some match went round the rotation again


def test_each_game_is_played_with_its_own_variant(tavli):
    """Fevga runs the same route for both sides: its first position is not Portes'."""
    game = Game(tavli, "7/0")
    assert game.variant.id == "portes" and game.root.id == "tavli"
    starts = {load_variant(n).start for n in ROTATION}
    assert len(starts) == 3


def test_the_winner_of_a_game_throws_first_in_the_next_with_both_dice(tavli):
    doublet_starts = 0
    for seed in range(6):
        result = match(tavli, seed)
        games = games_of(result)
        for prev, thrown in zip(games, first_throws(result)[1:]):
            side, d1, d2 = thrown.side, thrown.d1, thrown.d2
            if prev["winner"] is None:
                # after a tie: one die each, never a doublet
                assert d1 != d2
                continue
            assert ("white", "black")[side] == prev["winner"]
            doublet_starts += d1 == d2
    # both dice thrown: a doublet can open the winner's game (one die each never does)
    assert doublet_starts > 0


def test_the_match_ends_as_soon_as_a_player_reaches_match_points(tavli):
    for seed in range(4):
        result = match(tavli, seed)
        score = [0, 0]
        games = games_of(result)
        for g in games[:-1]:
            if g["winner"] is not None:
                score[("white", "black").index(g["winner"])] += g["points"]
            assert max(score) < 5
        assert result.finished and max(result.points) >= 5
        assert result.points[result.winner] >= 5 > result.points[1 - result.winner]


def test_match_points_is_an_option(tavli):
    three = load_variant("tavli", ["match_points=3"])
    result = play_game(three, 2, 0, keep_record=True)
    assert max(result.points) >= 3 and result.extra["match_points"] == 3
    longer = play_game(load_variant("tavli", ["match_points=7"]), 2, 0)
    assert max(longer.points) >= 7 > min(longer.points)


def test_game_values_are_their_files_and_go_to_the_winner(tavli):
    """Each game scores its own value rules (a gammon is 2 in Portes, Plakoto and Fevga): the
    points of every game are those of its end event, and the match score is their sum."""
    twos = 0
    for seed in range(6):
        result = match(tavli, seed)
        ends = [e for e in result.log if isinstance(e, (Ended, Tied))]
        games = games_of(result)
        assert len(ends) == len(games)
        score = [0, 0]
        for e, g in zip(ends, games):
            if isinstance(e, Tied):
                assert g["winner"] is None and g["points"] == 0
                continue
            assert ("white", "black")[e.winner] == g["winner"] and e.value == g["points"]
            assert g["points"] in (1, 2)
            twos += g["points"] == 2
            score[e.winner] += g["points"]
        assert score == result.points
    assert twos > 0


def test_a_plakoto_tie_scores_nothing_and_the_next_game_opens_with_one_die_each(tavli):
    ties = 0
    for seed in range(12):
        result = match(tavli, seed)
        games = games_of(result)
        for i, g in enumerate(games):
            if g["winner"] is None:
                assert g["variant"] == "plakoto"
                ties += 1
    assert ties > 0


def test_a_plakoto_game_alone_ends_in_a_tie_without_a_winner():
    v = load_variant("plakoto")
    for seed in range(40):
        result = play_game(v, seed, 0, keep_record=True)
        if any(isinstance(e, Tied) for e in result.log):
            assert result.finished and result.winner is None and result.value == 0
            assert result.points == [0, 0]
            return
    pytest.fail("no tie in 40 random games of plakoto")


# -- saves ----------------------------------------------------------------------------------------

def play(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_save_in_the_second_game_resumes_to_the_uninterrupted_match(capsys, tmp_path, tavli):
    seed = 3
    bots = ["--white", "greedy", "--black", "random", "--seed", str(seed)]
    whole, part, rest = tmp_path / "whole.toml", tmp_path / "part.toml", tmp_path / "rest.toml"
    code, expected, _ = play(capsys, "tavli", *bots, "--json", "--save", str(whole))
    assert code == 0
    games = json.loads(expected)["games"]
    turns = games[0]["turns"] + games[1]["turns"] // 2       # the middle of game 2
    assert play(capsys, "tavli", *bots, "--max-turns", str(turns), "--save", str(part))[0] == 0
    state = tomllib.loads(part.read_text(encoding="utf-8"))
    assert state["state"]["ladder"]["game"] == 2
    assert state["state"]["ladder"]["variant"] == "plakoto"
    names = {f["name"] for f in state["files"]}
    assert {"tavli.toml", "portes.toml", "plakoto.toml", "fevga.toml"} <= names
    code, resumed, err = play(capsys, "--resume", str(part), "--json", "--save", str(rest))
    assert code == 0, err
    assert json.loads(resumed) == json.loads(expected)
    a = tomllib.loads(whole.read_text(encoding="utf-8"))
    b = tomllib.loads(rest.read_text(encoding="utf-8"))
    assert a["record"] == b["record"] and a["state"] == b["state"]


def test_a_save_is_refused_when_a_game_of_the_rotation_changed(capsys, tmp_path):
    """A rotation of files beside it: editing one of its games' files after the save makes the
    save refused (exit 1), the save untouched."""
    for name in ("portes", "plakoto", "fevga", "backgammon"):
        shutil.copy(builtin_variant_path(name), tmp_path / f"{name}.toml")
    text = builtin_variant_path("tavli").read_text(encoding="utf-8")
    text = text.replace('games = ["portes", "plakoto", "fevga"]',
                        'games = ["./portes.toml", "./plakoto.toml", "./fevga.toml"]')
    (tmp_path / "tavli.toml").write_text(text, encoding="utf-8")
    part = tmp_path / "part.toml"
    assert play(capsys, str(tmp_path / "tavli.toml"), "--seed", "1", "--max-turns", "30",
                "--save", str(part))[0] == 0
    before = part.read_bytes()
    plakoto = tmp_path / "plakoto.toml"
    plakoto.write_text(plakoto.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    code, _out, err = play(capsys, "--resume", str(part))
    assert code == 1 and "plakoto.toml" in err and "changed" in err
    assert part.read_bytes() == before


def test_the_log_names_each_game_of_the_rotation(capsys):
    code, out, _ = play(capsys, "tavli", "--seed", "1")
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("-- game ")]
    assert heads[0].startswith("-- game 1: Portes (game 1 of 3 of the rotation)")
    assert heads[1].startswith("-- game 2: Plakoto (game 2 of 3 of the rotation)")
    assert "match to 5: white" in out and " wins" in out.splitlines()[-1]


def test_a_rotation_that_names_itself_or_a_cube_game_is_refused(tmp_path, capsys):
    text = builtin_variant_path("tavli").read_text(encoding="utf-8")
    (tmp_path / "loop.toml").write_text(text.replace(
        'games = ["portes", "plakoto", "fevga"]', 'games = ["portes", "./loop.toml"]'),
        encoding="utf-8")
    (tmp_path / "cube.toml").write_text(text.replace(
        'games = ["portes", "plakoto", "fevga"]', 'games = ["backgammon"]'), encoding="utf-8")
    assert main(["validate", str(tmp_path / "loop.toml")]) == 1
    assert "is the rotation itself" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "cube.toml")]) == 1
    assert "`cube` ladder" in capsys.readouterr().err
