"""Long runs behave: Ctrl-C stops simulate and compare cleanly with the games finished, the
progress bar is drawn on a terminal only, Dask gives what one process gives, and a comparison's
memory does not grow with its games."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.compare.tally import ArmTally
from interpreter.progress import progress

ROOT = Path(__file__).resolve().parent.parent


def _interrupt(args: list[str], tmp_path: Path, wait_for: Path) -> subprocess.CompletedProcess:
    """Run `tablier ARGS` in a process group of its own, send SIGINT to the whole group (as a
    terminal's Ctrl-C does) once `wait_for` has lines, and collect what it printed."""
    # the Python path: a million games would otherwise first compile the native playouts
    # (interpreter/native), which is not what is tested here
    env = dict(os.environ, TABLIER_NATIVE="0")
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        # the output is written to a hidden file beside it and moved into place at the end
        # (interpreter/outputs.py): either holds the games finished so far
        written = [wait_for, *wait_for.parent.glob(f".{wait_for.name}.*.tmp")]
        if any(f.exists() and f.read_text().count("\n") >= 3 for f in written):
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def _no_children_left(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_ctrl_c_stops_simulate_with_the_games_finished(tmp_path: Path) -> None:
    lines = tmp_path / "g.jsonl"
    run = _interrupt(["simulate", "triktrak", "--games", "1000000", "--jobs", "2", "--json",
                      "--games-out", str(lines)], tmp_path, lines)
    assert run.returncode == 130
    assert "Traceback" not in run.stderr
    summary = json.loads(run.stdout)
    assert summary["interrupted"] is True
    assert 3 <= summary["games"] < 1000000
    # the figures are over exactly the games written, after the header line
    read = [json.loads(x) for x in lines.read_text().splitlines()]
    assert read[0]["header"] is True and "game" not in read[0]
    written = read[1:]
    assert len(written) == summary["games"]
    assert [g["game"] for g in written] == list(range(len(written)))
    assert sum(g["winner"] == "white" for g in written) == summary["wins"]["white"]


def test_ctrl_c_stops_compare_with_the_games_finished(tmp_path: Path) -> None:
    run = _interrupt(["compare", "triktrak", "backgammon", "--games", "1000000", "--jobs", "2",
                      "--json", "--games-out", "c"], tmp_path, tmp_path / "c-1-triktrak.jsonl")
    assert run.returncode == 130
    assert "Traceback" not in run.stderr
    out = json.loads(run.stdout)
    assert out["interrupted"] is True
    for arm in out["arms"]:
        written = [x for x in (tmp_path / Path(arm["games_out"]).name).read_text().splitlines()
                   if "game" in json.loads(x)]
        assert arm["games"] == len(written) >= 1
        assert arm["first_player_win_rate"]["n"] == len(written)


def test_ctrl_c_in_one_process(tmp_path: Path) -> None:
    lines = tmp_path / "g.jsonl"
    run = _interrupt(["simulate", "backgammon", "--games", "10000000", "--jobs", "1",
                      "--games-out", str(lines)], tmp_path, lines)
    assert run.returncode == 130 and "Traceback" not in run.stderr
    assert run.stdout.startswith("interrupted: ")
    games = int(run.stdout.split()[1])
    # the header line, then the games
    assert games == len(lines.read_text().splitlines()) - 1


def test_no_progress_bar_without_a_terminal(capsys) -> None:
    assert main(["simulate", "backgammon", "--games", "30", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_bar_has_the_time_left() -> None:
    stream = io.StringIO()
    with progress(10, "simulate backgammon", stream=stream, force=True) as bar:
        for _ in range(10):
            bar.advance(1)
            time.sleep(0.01)
    text = stream.getvalue()
    assert "simulate backgammon" in text and "left" in text and "10/10" in text


def test_simulate_reports_points_won_and_wins_by_turn_order(capsys) -> None:
    assert main(["simulate", "backgammon", "--games", "40", "--seed", "2", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    # money play: each game's points at the cube's stake (single 1, gammon 2, backgammon 3)
    won = s["points"]["white"] + s["points"]["black"]
    values = {"single": 1, "gammon": 2, "backgammon": 3}
    assert won == sum(values[name] * n for name, n in s["values"].items()) > 0
    assert "points_scored" not in s           # backgammon's rules score no points
    assert s["first_player_wins"] + s["second_player_wins"] == 40
    assert s["first_player_win_rate"] == pytest.approx(s["first_player_wins"] / 40)
    assert main(["simulate", "triktrak", "--games", "5", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert "holes won" in text and "points scored" in text and "wins by turn order" in text


@pytest.mark.parametrize("vid, games", [("backgammon", 60), ("trictrac-ecrire", 3)])
def test_simulate_gives_whites_win_rate_and_net_with_their_intervals(vid, games, capsys,
                                                                     tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    assert main(["simulate", vid, "--games", str(games), "--seed", "4", "--white", "greedy",
                 "--black", "random", "--json", "--games-out", str(out)]) == 0
    s = json.loads(capsys.readouterr().out)
    lines = [g for g in map(json.loads, out.read_text().splitlines()) if "game" in g]
    # recomputed from the games' lines: white's share (a draw half) and his net a play
    score = sum(1.0 if g["winner"] == "white" else 0.5 if g["winner"] is None else 0.0
                for g in lines)
    n = len(lines)
    assert s["white_win_rate"] == pytest.approx(score / n, abs=1e-4)
    p, z = score / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    assert s["white_win_interval"] == pytest.approx([centre - half, centre + half], abs=1e-4)
    if vid == "backgammon":        # the game's value at the cube's stake, + won and − lost
        nets = [g["value"] if g["winner"] == "white" else -g["value"] for g in lines]
    else:                          # the jetons white won or paid
        nets = [g["won"]["white"] for g in lines]
    mean = sum(nets) / n
    sd = (sum((x - mean) ** 2 for x in nets) / (n - 1)) ** 0.5
    assert s["white_net"] == pytest.approx(mean, abs=1e-4)
    assert s["white_net_interval"] == pytest.approx(
        [mean - 1.96 * sd / n ** 0.5, mean + 1.96 * sd / n ** 0.5], abs=1e-4)
    assert s["white_win_interval"][0] <= s["white_win_rate"] <= s["white_win_interval"][1]


def test_compare_memory_does_not_grow_with_games() -> None:
    line = {"first": "white", "winner": "black", "finished": True, "throws": 100,
            "lead_changes": 3, "points": {"white": 40, "black": 50},
            "fired": {"hit": {"white": 3, "black": 4}},
            "rule_points": {"hit": {"white": 40, "black": 50}}, "holes": {"white": 9,
                                                                         "black": 12},
            "goes": {"white": 2, "black": 1}, "releves": 0, "multiplier": 1}

    def feed(n: int) -> int:
        tally = ArmTally()
        tracemalloc.start()
        for i in range(n):
            line["throws"] = 60 + i % 150
            tally.add(line)
        size = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return size

    small, large = feed(500), feed(10_000)
    assert large < small + 20_000


dask = pytest.importorskip("distributed")


def test_dask_gives_what_one_process_gives(capsys, tmp_path: Path) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        assert main(["compare", "triktrak", "backgammon", "--games", "12", "--seed", "3",
                     "--json", "--dask", cluster.scheduler_address,
                     "--games-out", str(tmp_path / "d")]) == 0
        on_dask = json.loads(capsys.readouterr().out)
        assert main(["simulate", "triktrak", "--games", "12", "--seed", "3", "--json",
                     "--dask", cluster.scheduler_address,
                     "--games-out", str(tmp_path / "sd.jsonl")]) == 0
        capsys.readouterr()
    assert main(["compare", "triktrak", "backgammon", "--games", "12", "--seed", "3",
                 "--json", "--jobs", "1", "--games-out", str(tmp_path / "l")]) == 0
    local = json.loads(capsys.readouterr().out)
    for x, y in zip(on_dask["arms"], local["arms"]):
        assert Path(x["games_out"]).read_text() == Path(y["games_out"]).read_text()
        for key in ("games_out",):
            x.pop(key), y.pop(key)
    assert on_dask["arms"] == local["arms"]
    assert on_dask["differences"] == local["differences"]
    assert (tmp_path / "sd.jsonl").read_text() == (tmp_path / "d-1-triktrak.jsonl").read_text()


def test_an_unreachable_scheduler_is_a_clear_error(capsys) -> None:
    assert main(["simulate", "backgammon", "--games", "3", "--dask",
                 "tcp://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err
