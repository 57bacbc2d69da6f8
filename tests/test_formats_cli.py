"""The backgammon formats on the command line (spec/INTERFACES.md, spec/backgammon-formats.md):
`tablier id encode|decode`, `tablier play ... --mat FILE` and `tablier import FILE.mat`, which
replays a match through the rules."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from interpreter.io.played import mat_variation, match_record
from interpreter.errors import IllegalMoveError
from interpreter.io.mat import read_mat, write_mat
from interpreter.io.replay import move_numbers, replay
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

DATA = Path(__file__).parent / "data"
MAT = DATA / "mat"
IMPORT = DATA / "mat-import"
OPENING = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def call(capsys, monkeypatch, *args: str, stdin: str = "") -> tuple[int, list, str]:
    """Run the command in-process: exit code, JSON lines of stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines() if x.startswith("{")]
    return code, lines, captured.err


# -- tablier id ------------------------------------------------------------------------------------

def test_id_encode_lines(capsys, monkeypatch):
    lines = [
        {"position": {"points": OPENING, "dice": [5, 2]}, "match": {"match_length": 5}},
        {"position": {"points": OPENING}},
        {"position": {"points": [1, 2, 3, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, -5, -3, 0,
                                 -2, -3, -2], "bar": [1, 0], "dice": [5, 5]},
         "match": {"cube": 2, "cube_owner": 0, "on_roll": 0, "match_length": 3}},
    ]
    code, out, _ = call(capsys, monkeypatch, "id", "encode",
                        stdin="".join(json.dumps(x) + "\n" for x in lines))
    assert code == 0
    assert out[0] == {"position_id": "4HPwATDgc/ABMA", "match_id": "cImqAAAAAAAE",
                      "gnubg_id": "4HPwATDgc/ABMA:cImqAAAAAAAE",
                      "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"}
    assert out[1]["gnubg_id"] == "4HPwATDgc/ABMA:cAkAAAAAAAAE"   # money, player 1, centred
    assert out[2]["gnubg_id"] == "u7kPAADttgkIQA:AYF2AAAAAAAE"   # spec §4.5


def test_id_encode_bad_lines_give_error_lines_and_exit_1(capsys, monkeypatch):
    good = json.dumps({"position": {"points": OPENING}})
    bad = [
        "not json",
        json.dumps({"points": OPENING}),                                   # no "position"
        json.dumps({"position": {"points": OPENING}, "match": {"cube": 3}}),
        json.dumps({"position": {"points": [16] + [0] * 23}}),             # 16 checkers
    ]
    code, out, _ = call(capsys, monkeypatch, "id", "encode",
                        stdin="\n".join([good, *bad, good]) + "\n")
    assert code == 1
    assert len(out) == 6
    assert "gnubg_id" in out[0] and "gnubg_id" in out[5]
    assert all("error" in x for x in out[1:5])
    assert "cube" in out[3]["error"]


def test_id_decode(capsys, monkeypatch):
    code, out, _ = call(capsys, monkeypatch, "id", "decode", "4HPwATDgc/ABMA", "cAmgAAAAAAAE",
                        "4HPwATDgc/ABMA:cImqAAAAAAAE",
                        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10")
    assert code == 0 and len(out) == 4
    assert out[0] == {"position": {"points": OPENING, "bar": [0, 0], "off": [0, 0]}}
    assert set(out[1]) == {"match"} and out[1]["match"]["match_length"] == 5
    assert out[2]["position"]["dice"] == [5, 2] and out[2]["match"]["on_roll"] == 1
    assert out[3]["position"]["points"] == OPENING and out[3]["match"]["max_cube"] == 1024


def test_id_decode_refuses_what_gnubg_refuses():
    """An ID gnubg would refuse: an error line naming it, exit 1; the others still decoded."""
    refused = ["4HPwATDgc/ABM", "cAmgAAAAAAA!",
               "XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:5:10", "//////////////"]
    proc = run("id", "decode", "4HPwATDgc/ABMA", *refused)
    assert proc.returncode == 1
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == 5 and "position" in out[0]
    for line, text in zip(out[1:], refused):
        assert line["id"] == text and repr(text) in line["error"]
    assert "Traceback" not in proc.stderr and proc.stderr.count("tablier id decode:") == 4


def test_id_decode_hypergammon_off_counts(capsys, monkeypatch):
    code, out, _ = call(capsys, monkeypatch, "id", "decode", "--variant", "hypergammon",
                        "AQAAAAAAAAAAAA")
    assert code == 0
    position = out[0]["position"]
    in_play = sum(x for x in position["points"] if x > 0) + position["bar"][0]
    assert position["off"][0] == 3 - in_play


def test_id_needs_an_action():
    assert run("id").returncode == 2


# -- tablier play --mat ----------------------------------------------------------------------------

def test_play_mat_writes_the_match_and_import_replays_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "m.mat"
    code, out, _ = call(capsys, monkeypatch, "play", "backgammon", "--set",
                        "ladder.match_length=5", "--white", "greedy", "--black", "greedy",
                        "--seed", "7", "--json", "--mat", str(path))
    assert code == 0
    summary = out[0]
    text = path.read_text(encoding="utf-8")
    assert "\n 5 point match\n\n Game 1\n white : 0                      black : 0\n" in text
    assert read_mat(text).players == ("white", "black")
    code, out, _ = call(capsys, monkeypatch, "import", str(path), "--json")
    assert code == 0
    imported = out[0]
    assert imported["match_length"] == 5 and imported["players"] == ["white", "black"]
    assert imported["score"] == summary["score"]
    assert imported["games"] == [{"winner": g["winner"], "points": g["points"]}
                                 for g in summary["games"]]


def test_play_mat_money_game(tmp_path, capsys, monkeypatch):
    path = tmp_path / "money.mat"
    assert main(["play", "backgammon", "--white", "greedy", "--seed", "2", "--mat",
                 str(path)]) == 0
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert " 0 point match" in text
    code, out, _ = call(capsys, monkeypatch, "import", str(path), "--json")
    assert code == 0 and out[0]["match_length"] == 0 and len(out[0]["games"]) == 1


def test_play_mat_needs_the_cube_ladder(tmp_path):
    proc = run("play", "triktrak", "--mat", str(tmp_path / "x.mat"))
    assert proc.returncode == 1 and "--mat" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "x.mat").exists()


# -- tablier import --------------------------------------------------------------------------------

GNUBG_RESULTS = {
    "gnubg-1pt.mat": (1, [("root", 2)], {"gnubg": 0, "root": 2}),
    "gnubg-5pt.mat": (5, [("gnubg", 1), ("gnubg", 2), ("gnubg", 1), ("root", 2), ("gnubg", 1)],
                      {"gnubg": 5, "root": 2}),
    "gnubg-7pt.mat": (7, [("gnubg", 4), ("root", 1), ("gnubg", 2), ("gnubg", 1)],
                      {"gnubg": 7, "root": 1}),
}


@pytest.mark.parametrize("name", sorted(GNUBG_RESULTS))
def test_import_gnubg_files(name, capsys, monkeypatch):
    code, out, _ = call(capsys, monkeypatch, "import", str(MAT / name), "--json")
    assert code == 0
    length, games, score = GNUBG_RESULTS[name]
    assert out[0] == {"match_length": length, "players": ["gnubg", "root"],
                      "games": [{"winner": w, "points": p} for w, p in games], "score": score}


def test_import_gnubg_21pt_and_variations(capsys, monkeypatch):
    code, out, _ = call(capsys, monkeypatch, "import", str(MAT / "gnubg-21pt.mat"), "--json")
    assert code == 0 and out[0]["score"] == {"gnubg": 22, "root": 12}
    assert len(out[0]["games"]) == 13
    code, varied, _ = call(capsys, monkeypatch, "import", str(MAT / "variations-5pt.mat"),
                           "--json")
    code2, plain, _ = call(capsys, monkeypatch, "import", str(MAT / "gnubg-5pt.mat"), "--json")
    assert code == code2 == 0 and varied == plain


def test_import_replays_every_gnubg_play_legally():
    """Each play of gnubg's files is one of the legal plays, and the games end as the file says
    (gnubg's bots end their games by passed doubles and resignations)."""
    variant = load_variant("backgammon")
    ended = set()
    for name in ("gnubg-1pt.mat", "gnubg-5pt.mat", "gnubg-7pt.mat", "gnubg-21pt.mat"):
        record = read_mat((MAT / name).read_text(encoding="utf-8"))
        result = replay(record, variant)
        assert all(g.winner is not None for g in result.games)
        ended |= {g.ended for g in result.games}
        crawford = [g.number for g in result.games if g.crawford]
        assert len(crawford) <= 1
    assert ended == {"pass", "resign"}


def test_import_text_output(capsys):
    assert main(["import", str(MAT / "gnubg-5pt.mat")]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "5 point match: gnubg vs root"
    assert "game 4: root wins 2 points (resignation), the Crawford game" in text
    assert "game 1: gnubg wins 1 point (double passed)" in text
    assert text.splitlines()[-1] == "score: gnubg 5, root 2"


@pytest.mark.parametrize("name, parts", [
    ("illegal-move.mat", ["game 1, move 3:", "gnubg's 63: 13/7 13/9 is not a legal play",
                          "13/7 7/4*", "position yHPDASLg28HBAA:", '"dice": [6, 3]']),
    ("crawford-double.mat", ["game 4, move 1:", "Crawford game", "position 4PPgASLgc/ABMA:"]),
    ("resign-value.mat", ["game 1:", "root wins 4 by a resignation", "position "]),
    ("score-line.mat", ["game 3:", "the score line says 2-0", "make it 3-0"]),
    ("out-of-turn.mat", ["game 1, move 3:", "gnubg rolls, but root is on roll", "position "]),
    ("doublet-opening.mat", ["game 1, move 1:", "opening roll 11 is a doublet"]),
    ("money-beaver.mat", ["game 1, move 2:", "beavers are not allowed"]),
])
def test_import_refuses_an_illegal_match(name, parts):
    proc = run("import", str(IMPORT / name), "--json")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"tablier import: {IMPORT / name}: ")
    for part in parts:
        assert part in proc.stderr, (part, proc.stderr)


def test_import_money_session_with_beavers(capsys, monkeypatch):
    code, out, _ = call(capsys, monkeypatch, "import", str(IMPORT / "money-beaver.mat"),
                        "--set", "ladder.beavers=true", "--json")
    assert code == 0
    assert out[0] == {"match_length": 0, "players": ["alice", "bob"],
                      "games": [{"winner": "bob", "points": 4}, {"winner": "alice", "points": 1}],
                      "score": {"alice": 1, "bob": 4}}


def test_import_without_the_crawford_rule(capsys, monkeypatch):
    """A match played without the Crawford rule (a double at 4-0 in a 5-point match) is refused
    by default and imported with `--set ladder.crawford=false`."""
    path = str(IMPORT / "no-crawford.mat")
    code, out, err = call(capsys, monkeypatch, "import", path, "--json")
    assert code == 1 and not out and "game 4, move 1: nobody may double in the Crawford" in err
    code, out, _ = call(capsys, monkeypatch, "import", path, "--set", "ladder.crawford=false",
                        "--json")
    assert code == 0 and out[0]["score"] == {"gnubg": 5, "root": 1}
    assert out[0]["games"][3] == {"winner": "root", "points": 1}


@pytest.mark.parametrize("args, message", [
    (["import", "/no/such/file.mat"], "cannot read"),
    (["import", str(DATA / "variants" / "tiny.toml")], "no 'N point match' line"),
])
def test_import_bad_files(args, message):
    proc = run(*args)
    assert proc.returncode == 1 and message in proc.stderr and "Traceback" not in proc.stderr


def test_move_numbers_follow_gnubg_layout():
    record = read_mat((MAT / "gnubg-7pt.mat").read_text(encoding="utf-8"))
    assert move_numbers(record.games[1].actions) == [1, 2, 2, 3]   # 32, 62 / Doubles, Drops
    first = record.games[0].actions
    assert move_numbers(first)[:5] == [1, 2, 2, 3, 3]


# -- export → import → export ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def variants():
    return {n: load_variant("backgammon", [f"ladder.match_length={n}"]) for n in (0, 1, 3, 5)}


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 100_000), n=st.sampled_from([0, 1, 3, 5]),
       white=st.sampled_from(["greedy", "random"]), black=st.sampled_from(["greedy", "random"]))
def test_export_import_export_is_stable(variants, seed, n, white, black):
    variant = variants[n]
    result = play_game(variant, seed, 0, white, black, keep_record=True)
    text = write_mat(match_record(variant, result))
    record = read_mat(text)
    assert write_mat(record) == text
    replayed = replay(record, variant)
    assert list(replayed.score) == result.points
    assert [(g.winner, g.points) for g in replayed.games] == \
        [(g.winner, g.points) for g in result.match.games]
    assert [g.crawford for g in replayed.games] == [g.crawford for g in result.match.games]


@pytest.mark.parametrize("variant_id, variation", [("nackgammon", "NackGammon"),
                                                   ("hypergammon", "HyperGammon (3)")])
def test_variants_round_trip_through_mat(variant_id, variation, tmp_path, capsys, monkeypatch):
    variant = load_variant(variant_id, ["ladder.match_length=3"])
    assert mat_variation(variant) == variation
    result = play_game(variant, 3, 0, "greedy", "random", keep_record=True)
    path = tmp_path / "v.mat"
    path.write_text(write_mat(match_record(variant, result)), encoding="utf-8")
    assert f'; [Variation "{variation}"]' in path.read_text(encoding="utf-8")
    code, out, _ = call(capsys, monkeypatch, "import", str(path), "--json")
    assert code == 0
    assert list(out[0]["score"].values()) == result.points
    # replayed with the rules of standard backgammon, a play is refused
    with pytest.raises(IllegalMoveError, match="is not a legal play"):
        replay(read_mat(path.read_text(encoding="utf-8")), load_variant("backgammon"))


def test_hypergammon_with_two_checkers_round_trips(tmp_path, capsys, monkeypatch):
    variant = load_variant("hypergammon", ["board.checkers=2", "board.start={ 24 = 1, 23 = 1 }",
                                           "ladder.match_length=3"])
    result = play_game(variant, 1, 0, "greedy", "greedy", keep_record=True)
    path = tmp_path / "h2.mat"
    path.write_text(write_mat(match_record(variant, result)), encoding="utf-8")
    assert '"HyperGammon (2)"' in path.read_text(encoding="utf-8")
    code, out, _ = call(capsys, monkeypatch, "import", str(path), "--json")
    assert code == 0 and list(out[0]["score"].values()) == result.points
