"""Any game of a run can be replayed: `tablier play VARIANT --seed S --game K` (the same `--set`s
and players) plays game K of `tablier simulate VARIANT --seed S` move for move, and arm i of an
unpaired `compare --seed S` is `simulate --seed S+i`; a saved game keeps its number through
`--resume` (docs/compare.md, "Replaying a game")."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main

#: (variant, --set options): a scoring game won by holes, a race won by bearing off
VARIANTS = [("triktrak", ["ladder.holes_to_win=2"]), ("backgammon", [])]


def _sets(options: list[str]) -> list[str]:
    return [x for o in options for x in ("--set", o)]


def _games(path: Path) -> list[dict]:
    return [g for g in map(json.loads, path.read_text().splitlines()) if "game" in g]


def _play(capsys, args: list[str]) -> dict:
    assert main(["play", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _same_game(played: dict, line: dict) -> None:
    assert played["winner"] == line["winner"]
    assert played["value"] == line["value"]
    assert played["turns"] == line["turns"] == line["throws"]
    assert played["finished"] == line["finished"]
    # what each side won on the ladder (points at the cube's stake, holes)
    assert played["score"] == line["won"]


@pytest.mark.parametrize("variant, options", VARIANTS)
@pytest.mark.parametrize("white, black", [("random", "random"), ("greedy", "random")])
def test_play_game_k_is_game_k_of_simulate(capsys, tmp_path, variant, options, white,
                                           black) -> None:
    lines = tmp_path / "s.jsonl"
    assert main(["simulate", variant, "--games", "6", "--seed", "31", "--jobs", "1",
                 "--white", white, "--black", black, *_sets(options),
                 "--games-out", str(lines)]) == 0
    capsys.readouterr()
    games = _games(lines)
    for k in (0, 2, 5):
        played = _play(capsys, [variant, "--seed", "31", "--game", str(k), "--white", white,
                                "--black", black, *_sets(options)])
        assert games[k]["game"] == k and games[k]["seed"] == f"31/{k}"
        _same_game(played, games[k])
        assert played.get("game", 0) == k and played["seed"] == 31
    # the games differ from one another: the number chooses the game
    assert len({(g["turns"], g["winner"], g["first"]) for g in games}) > 1


def test_the_log_of_game_k_is_that_of_its_seed(capsys) -> None:
    """`--game K` plays the dice of the game seed "S/K": two numbers, two games; the same
    number twice, the same game, move for move."""
    logs = []
    for k in ("1", "1", "4"):
        assert main(["play", "backgammon", "--seed", "8", "--game", k, "--white", "greedy"]) == 0
        logs.append(capsys.readouterr().out)
    assert logs[0] == logs[1] != logs[2]
    assert main(["play", "backgammon", "--seed", "8", "--white", "greedy"]) == 0
    assert capsys.readouterr().out == \
        (main(["play", "backgammon", "--seed", "8", "--game", "0", "--white", "greedy"]),
         capsys.readouterr().out)[1]


def test_arm_i_of_compare_replays_with_seed_plus_i(capsys, tmp_path) -> None:
    assert main(["compare", "backgammon", "nackgammon", "--games", "4", "--seed", "12",
                 "--white", "greedy", "--jobs", "1", "--json",
                 "--games-out", str(tmp_path / "c")]) == 0
    out = json.loads(capsys.readouterr().out)
    for i, arm in enumerate(out["arms"]):
        lines = Path(arm["games_out"]).read_text().splitlines()
        header = json.loads(lines[0])
        assert header["seeds"] == [12 + i]
        games = [json.loads(x) for x in lines[1:]]
        for k in (1, 3):
            played = _play(capsys, [arm["variant"], "--seed", str(header["seeds"][0]),
                                    "--game", str(k), "--white", "greedy"])
            _same_game(played, games[k])


def test_a_saved_game_keeps_its_number(capsys, tmp_path) -> None:
    save = tmp_path / "g.toml"
    args = ["triktrak", "--seed", "5", "--game", "3", "--white", "greedy"]
    whole = _play(capsys, args)
    assert main(["play", *args, "--max-turns", "20", "--save", str(save)]) == 0
    capsys.readouterr()
    text = save.read_text()
    assert "index = 3" in text
    resumed = _play(capsys, ["--resume", str(save)])
    for key in ("winner", "value", "turns", "score", "finished", "game"):
        assert resumed[key] == whole[key], key
    assert resumed["game"] == 3
    # saved again at its end, the number is still there
    assert main(["play", "--resume", str(save), "--save", str(tmp_path / "again.toml")]) == 0
    capsys.readouterr()
    assert "index = 3" in (tmp_path / "again.toml").read_text()


def test_an_older_save_without_a_number_is_game_0(capsys, tmp_path) -> None:
    save = tmp_path / "g.toml"
    args = ["backgammon", "--seed", "6", "--white", "greedy"]
    whole = _play(capsys, args)
    assert main(["play", *args, "--max-turns", "10", "--save", str(save)]) == 0
    capsys.readouterr()
    assert "index" not in save.read_text()
    assert _play(capsys, ["--resume", str(save)])["turns"] == whole["turns"]


@pytest.mark.parametrize("args, message", [
    (["--resume", "x.toml", "--game", "2"], "the seed and the game from the save"),
    (["backgammon", "--game", "-1"], "must be from 0"),
    (["backgammon", "--game", "10000000"], "must be from 0"),
    (["backgammon", "--game", "two"], "not a whole number"),
])
def test_bad_game_numbers_are_refused(capsys, tmp_path, monkeypatch, args, message) -> None:
    monkeypatch.chdir(tmp_path)
    code = None
    try:
        code = main(["play", *args])
    except SystemExit as exc:          # argparse: exit 2
        code = exc.code
    assert code in (1, 2)
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_web_board_resumes_a_saved_game_with_its_number(capsys, tmp_path) -> None:
    from interpreter.web.session import Session

    save = tmp_path / "g.toml"
    assert main(["play", "backgammon", "--seed", "9", "--game", "6", "--white", "greedy",
                 "--max-turns", "12", "--save", str(save)]) == 0
    capsys.readouterr()
    s = Session.resume(save.read_text())
    assert s.index == 6 and s.game.seed == "9/6"
    assert "index = 6" in s.save_text()
