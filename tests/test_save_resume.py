"""Saved games: a game saved after N turns and resumed ends exactly as the uninterrupted game of
the same seed (the whole final record and the summary), for every shipped variant; saves that
are truncated, damaged, edited or made with another variant file are refused with exit 1, a
message naming the fault, and the file left as it was."""
from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.cli import main

VARIANTS = ("backgammon", "hypergammon", "nackgammon", "triktrak", "trictrac-ecrire",
            "trictrac-combine", "tric-trac-12", "long-nardy", "plakoto", "fevga", "portes",
            "acey-deucey", "tavli", "tourne-case")


def play(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def saved(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def check_resume(capsys, tmp_path: Path, variant: str, seed: int, turns: int,
                 white: str = "greedy", black: str = "random") -> None:
    whole, part, rest = tmp_path / "whole.toml", tmp_path / "part.toml", tmp_path / "rest.toml"
    bots = ["--white", white, "--black", black, "--seed", str(seed)]
    code, expected, _ = play(capsys, variant, *bots, "--json", "--save", str(whole))
    assert code == 0
    assert play(capsys, variant, *bots, "--max-turns", str(turns), "--save", str(part),
                "--json")[0] == 0
    before = part.read_bytes()
    code, resumed, err = play(capsys, "--resume", str(part), "--json", "--save", str(rest))
    assert code == 0, err
    assert part.read_bytes() == before
    assert json.loads(resumed) == json.loads(expected)
    a, b = saved(whole), saved(rest)
    assert a["record"] == b["record"] and a["state"] == b["state"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("turns", [1, 17, 60])
def test_resumed_games_end_as_the_uninterrupted_game(capsys, tmp_path, variant, turns):
    check_resume(capsys, tmp_path, variant, 3, turns)


@settings(max_examples=4, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000),
       turns=st.integers(1, 150), white=st.sampled_from(["random", "greedy"]))
def test_resume_property(capsys, tmp_path, variant, seed, turns, white):
    check_resume(capsys, tmp_path, variant, seed, turns, white, "greedy")


@pytest.mark.slow
@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       turns=st.integers(1, 400), white=st.sampled_from(["random", "greedy"]),
       black=st.sampled_from(["random", "greedy"]))
def test_resume_property_at_length(capsys, tmp_path, variant, seed, turns, white, black):
    check_resume(capsys, tmp_path, variant, seed, turns, white, black)


def test_a_player_kind_may_be_replaced_on_resume(capsys, tmp_path):
    part = tmp_path / "part.toml"
    assert play(capsys, "backgammon", "--white", "random", "--max-turns", "10", "--save",
                str(part))[0] == 0
    code, out, _ = play(capsys, "--resume", str(part), "--white", "greedy", "--json")
    assert code == 0 and json.loads(out)["white"] == "greedy"


# -- saves refused --------------------------------------------------------------------------------

@pytest.fixture()
def a_save(capsys, tmp_path) -> Path:
    path = tmp_path / "game.toml"
    assert play(capsys, "trictrac-ecrire", "--white", "greedy", "--seed", "4", "--max-turns",
                "40", "--save", str(path))[0] == 0
    return path


def refused(capsys, path: Path, *words: str) -> None:
    before = path.read_bytes()
    code, out, err = play(capsys, "--resume", str(path))
    assert code == 1 and out == ""
    assert "Traceback" not in err and err.startswith("tablier play: cannot resume")
    for word in words:
        assert word in err, err
    assert path.read_bytes() == before


def test_a_truncated_save_is_refused(capsys, a_save):
    data = a_save.read_bytes()
    a_save.write_bytes(data[: len(data) // 2])
    refused(capsys, a_save, "invalid TOML")


def test_a_damaged_save_is_refused(capsys, a_save):
    text = a_save.read_text(encoding="utf-8")
    i = text.index("play ") + 6
    a_save.write_text(text[:i] + ("1" if text[i] != "1" else "2") + text[i + 1:],
                      encoding="utf-8")
    refused(capsys, a_save, "record entry")


def test_a_flipped_byte_of_the_state_is_refused(capsys, a_save):
    text = a_save.read_text(encoding="utf-8")
    a_save.write_text(text.replace("turns = 40", "turns = 41", 1).replace(
        'on_roll = "white"', 'on_roll = "black"').replace('on_roll = "black"', 'on_roll = "white"'),
        encoding="utf-8")
    refused(capsys, a_save)


def test_an_edited_die_is_refused_naming_the_throw(capsys, a_save):
    import tomli_w

    data = saved(a_save)
    moves = data["record"]["moves"]
    k = next(i for i, m in enumerate(moves) if " throws " in m and i > 10)
    side, _, dice = moves[k].split(" ")
    d1, d2 = dice.split("-")
    moves[k] = f"{side} throws {d1}-{1 + int(d2) % 6}"
    a_save.write_text(tomli_w.dumps(data), encoding="utf-8")
    throw = sum(1 for m in moves[: k + 1] if " throws " in m)
    refused(capsys, a_save, f"throw {throw}", "the seed gives")


def test_an_edited_checksum_or_answer_is_refused(capsys, a_save):
    text = a_save.read_text(encoding="utf-8")
    a_save.write_text(text.replace('"greedy"', '"random"', 1), encoding="utf-8")
    refused(capsys, a_save, "checksum")


def test_a_save_of_a_changed_variant_file_is_refused(capsys, tmp_path):
    from interpreter.resources import builtin_variant_path

    mine = tmp_path / "mygammon.toml"
    shutil.copy(builtin_variant_path("backgammon"), mine)
    path = tmp_path / "game.toml"
    assert play(capsys, str(mine), "--max-turns", "5", "--save", str(path))[0] == 0
    mine.write_text(mine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    refused(capsys, path, "mygammon.toml", "has changed")


def test_a_game_of_a_variant_file_resumes_from_that_file(capsys, tmp_path):
    """A save names the variant file it was played from; moved together with the save into
    another folder, the file beside the save is the one resumed."""
    from interpreter.resources import builtin_variant_path

    mine = tmp_path / "mygammon.toml"
    text = builtin_variant_path("hypergammon").read_text(encoding="utf-8")
    mine.write_text(text.replace('id = "hypergammon"', 'id = "mygammon"'), encoding="utf-8")
    bots = ["--white", "greedy", "--black", "random", "--seed", "8"]
    code, expected, _ = play(capsys, str(mine), *bots, "--json")
    assert code == 0 and json.loads(expected)["finished"]
    part = tmp_path / "part.toml"
    assert play(capsys, str(mine), *bots, "--max-turns", "4", "--save", str(part))[0] == 0
    assert saved(part)["game"]["variant_file"] == str(mine.resolve())
    code, resumed, err = play(capsys, "--resume", str(part), "--json")
    assert code == 0, err
    assert json.loads(resumed) == json.loads(expected)
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    shutil.copy(part, moved / "part.toml")
    mine.rename(moved / "mygammon.toml")
    code, resumed, err = play(capsys, "--resume", str(moved / "part.toml"), "--json")
    assert code == 0, err
    assert json.loads(resumed) == json.loads(expected)
    (moved / "mygammon.toml").unlink()
    refused(capsys, moved / "part.toml", "mygammon.toml")


def test_a_save_naming_a_variant_file_that_is_not_toml_is_refused(capsys, tmp_path):
    path = tmp_path / "game.toml"
    assert play(capsys, "backgammon", "--max-turns", "3", "--save", str(path))[0] == 0
    text = path.read_text(encoding="utf-8").replace(
        'variant = "backgammon"', 'variant = "backgammon"\nvariant_file = "/dev/zero"')
    path.write_text(text, encoding="utf-8")
    refused(capsys, path, "/dev/zero")


def test_a_save_whose_variant_file_changed_names_the_file(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.toml"
    assert play(capsys, "backgammon", "--max-turns", "5", "--save", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    digest = saved(path)["files"][0]["sha256"]
    path.write_text(text.replace(digest, "0" * 64), encoding="utf-8")
    refused(capsys, path, "backgammon.toml", "has changed")


def test_not_a_save(capsys, tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"\xff\xfe not text")
    refused(capsys, path, "not UTF-8")
    code, _out, err = play(capsys, "--resume", str(tmp_path))
    assert code == 1 and "not a regular file" in err and "Traceback" not in err
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    refused(capsys, big, "larger than 1 MiB")


def test_the_save_is_written_atomically(capsys, tmp_path):
    path = tmp_path / "game.toml"
    assert play(capsys, "backgammon", "--max-turns", "3", "--save", str(path))[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]
    data = saved(path)
    assert data["format"] == 1 and data["game"]["turns"] == 3
    assert data["state"]["ladder"]["cube"] == 1 and data["state"]["on_roll"] in ("white", "black")


def test_a_partie_save_states_the_partie_in_the_players_terms(capsys, a_save):
    ladder = saved(a_save)["state"]["ladder"]
    for key in ("mark", "marks_won", "leader", "mark_holes", "lost_marks", "paid", "banner",
                "necktie", "holes", "points", "bredouille"):
        assert key in ladder, key
