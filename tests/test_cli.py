"""The command line of spec/INTERFACES.md: outputs, exit codes, and no traceback for bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

START = {"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
         "bar": [0, 0], "off": [0, 0]}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_variants_json_lists_playable_variants(capsys):
    assert main(["variants", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ids = {r["id"] for r in rows}
    assert {"backgammon", "triktrak"} <= ids and "trictrac" not in ids    # the base is abstract
    assert all(set(r) == {"id", "name", "family", "sources"} for r in rows)


def test_play_json_summary(capsys):
    assert main(["play", "backgammon", "--white", "random", "--black", "random", "--seed", "1",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] is True and summary["variant"] == "backgammon"
    assert {"winner", "score", "turns"} <= set(summary)


def test_moves_opening_rolls(capsys, monkeypatch):
    import io
    lines = "".join(json.dumps({**START, "dice": d}) + "\n" for d in ([3, 1], [6, 6], [5, 2], [1, 1]))
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["moves", "backgammon"]) == 0
    counts = [json.loads(l)["count"] for l in capsys.readouterr().out.splitlines()]
    assert counts == [16, 11, 8, 42]


def test_moves_bad_line_is_reported_and_processing_continues():
    bad = json.dumps({**START, "dice": [7, 1]})
    short = json.dumps({**START, "points": START["points"][:23], "dice": [3, 1]})
    good = json.dumps({**START, "dice": [3, 1]})
    proc = run("moves", "backgammon", stdin="\n".join([bad, "not json", short, good]) + "\n")
    assert proc.returncode == 1
    out = [json.loads(l) for l in proc.stdout.splitlines()]
    assert [("error" in o) for o in out] == [True, True, True, False]
    assert "dice" in out[0]["error"] and out[3]["count"] == 16
    assert "Traceback" not in proc.stderr


def test_missing_checkers_are_refused():
    pos = dict(START, dice=[3, 1])
    pos["points"] = list(START["points"])
    pos["points"][5] = 4
    proc = run("moves", "backgammon", stdin=json.dumps(pos) + "\n")
    assert proc.returncode == 1 and "15 checkers" in json.loads(proc.stdout)["error"]


@pytest.mark.parametrize("args,code", [
    (["play", "no-such-variant"], 1),
    (["play", "backgammon", "--set", "movement.blok=3"], 1),
    (["play", "backgammon", "--set", "movement.block=x"], 1),
    (["play", "backgammon", "--white", "wizard"], 2),
    (["frobnicate"], 2),
    (["validate", "tests/data/broken/unknown-top-level.toml"], 1),
])
def test_exit_codes_without_traceback(args, code):
    proc = run(*args)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_validate_shipped_variants():
    files = sorted(str(p) for p in (Path(__file__).parent.parent / "variants").glob("*.toml"))
    proc = run("validate", *files)
    assert proc.returncode == 0, proc.stderr


def test_simulate_json(capsys):
    assert main(["simulate", "backgammon", "--games", "20", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 20 and sum(out["wins"].values()) == 20
    assert {"seconds", "games_per_second", "mean_turns", "gammon_rate", "backgammon_rate"} <= set(out)


def test_score_triktrak_names_rules(capsys, monkeypatch):
    import io
    pos = {"points": [0] * 24, "bar": [0, 0], "off": [0, 0], "dice": [4, 3]}
    # trictrac.md X3: W {1:13, 8:1, 10:1} (M) = pips 24, 17, 15; B on its talon and nearby
    pos["points"][23], pos["points"][16], pos["points"][14] = 13, 1, 1
    pos["points"][0], pos["points"][1], pos["points"][2], pos["points"][3] = -11, -1, -2, -1
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(pos) + "\n"))
    assert main(["score", "triktrak"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mover"] == 4 and out["items"][0]["rule"] == "jan-de-deux-tables"


def test_positions_that_cannot_occur_in_the_variant_are_refused():
    from interpreter.analysis import read_position
    from interpreter.errors import PositionError
    from interpreter.variant.build import load_variant

    trictrac = load_variant("triktrak")
    pos = {"points": [0] * 23 + [15], "bar": [1, 0], "off": [0, 0], "dice": [3, 1]}
    pos["points"][0] = -15
    pos["points"][23] = 14
    with pytest.raises(PositionError, match="no bar"):
        read_position(trictrac, pos)
    twelve = load_variant("tric-trac-12")
    home = {"points": [1] + [0] * 22 + [14], "bar": [0, 0], "off": [0, 0], "dice": [3, 1]}
    home["points"][12] = -15
    with pytest.raises(PositionError, match="pip 1"):
        read_position(twelve, home)


def test_the_process_ends_after_its_output_and_exit_handlers() -> None:
    """The command's process skips the interpreter's teardown (`launch.leave`) only once its
    output is written and its exit handlers have run, with the command's exit status; with
    another thread still alive it ends the usual way."""
    root = Path(__file__).resolve().parent.parent
    quick = ("import atexit, sys\nfrom interpreter.launch import leave\n"
             "atexit.register(lambda: print('handler ran'))\n"
             "sys.stdout.write('output' * 5000 + '\\n')\nleave(3)\nprint('not reached')\n")
    out = subprocess.run([sys.executable, "-c", quick], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert out.returncode == 3
    assert out.stdout == "output" * 5000 + "\nhandler ran\n"
    usual = ("import threading, time\nfrom interpreter.launch import leave\n"
             "threading.Thread(target=time.sleep, args=(0.2,)).start()\n"
             "leave(3)\nprint('went on')\n")
    out = subprocess.run([sys.executable, "-c", usual], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert (out.returncode, out.stdout) == (0, "went on\n")
