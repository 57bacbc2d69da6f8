"""`tablier compare`: every figure of `--json` recomputed from the `--games-out` lines, results
that do not depend on `--jobs`, the arms from the command line, the CSV."""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from interpreter.cli import main

Z = 1.959964


def _run(capsys, args: list[str]) -> dict:
    assert main(["compare", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _wilson(k: int, n: int) -> list[float]:
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _check_against_lines(arm: dict, rules: int = 3) -> None:
    """The held-out recomputation: first-player rate and its Wilson interval, mean length and
    its interval, and per-rule rates, from the arm's lines alone."""
    lines = [g for g in map(json.loads, Path(arm["games_out"]).read_text().splitlines())
             if "game" in g]
    n = len(lines)
    assert n == arm["games"]
    k = sum(g["winner"] == g["first"] for g in lines)
    fp = arm["first_player_win_rate"]
    assert fp["value"] == pytest.approx(k / n, abs=1e-9)
    assert fp["ci"] == pytest.approx(_wilson(k, n), abs=1e-9)
    throws = np.array([g["throws"] for g in lines], dtype=float)
    m, s = throws.mean(), throws.std(ddof=1)
    length = arm["length_throws"]
    assert length["mean"] == pytest.approx(m, abs=1e-9)
    assert length["ci"] == pytest.approx([m - Z * s / math.sqrt(n), m + Z * s / math.sqrt(n)],
                                         abs=1e-9)
    assert length["median"] == pytest.approx(float(np.median(throws)), abs=1e-9)
    assert [length["q1"], length["q3"]] == \
        pytest.approx([float(np.percentile(throws, 25)), float(np.percentile(throws, 75))])
    fired = {r for g in lines for r in g["fired"]}
    assert fired <= set(arm["rules"])
    for rule in sorted(fired, key=lambda r: -sum(sum(g["fired"].get(r, {}).values())
                                                 for g in lines))[:rules]:
        y = np.array([sum(g["fired"].get(rule, {"white": 0, "black": 0}).values())
                      for g in lines], dtype=float)
        r = arm["rules"][rule]
        sy = y.std(ddof=1)
        assert r["per_game"]["value"] == pytest.approx(y.mean(), abs=1e-9)
        assert r["per_game"]["ci"] == pytest.approx(
            [y.mean() - Z * sy / math.sqrt(n), y.mean() + Z * sy / math.sqrt(n)], abs=1e-9)
        assert r["per_throw"]["value"] == pytest.approx(y.sum() / throws.sum(), abs=1e-9)
        total = np.array([g["points"]["white"] + g["points"]["black"] for g in lines])
        if total.sum():
            pts = np.array([sum(g.get("rule_points", {}).get(rule, {"white": 0,
                                                                    "black": 0}).values())
                            for g in lines])
            assert r["share"] == pytest.approx(pts.sum() / total.sum(), abs=1e-9)


def test_backgammon_against_nackgammon_agrees_with_its_lines(capsys, tmp_path) -> None:
    out = _run(capsys, ["backgammon", "nackgammon", "--games", "60", "--seed", "4",
                        "--games-out", str(tmp_path / "bg")])
    assert [a["variant"] for a in out["arms"]] == ["backgammon", "nackgammon"]
    for arm in out["arms"]:
        assert Path(arm["games_out"]).name.startswith("bg-")
        _check_against_lines(arm)
        lines = [g for g in map(json.loads, Path(arm["games_out"]).read_text().splitlines())
                 if "game" in g]
        gammons = sum(g["gammons"] for g in lines)
        assert arm["ladder"]["gammons_rate"]["value"] == pytest.approx(gammons / 60)
        assert arm["ladder"]["gammons_rate"]["ci"] == pytest.approx(_wilson(gammons, 60))
    names = {d["figure"] for d in out["differences"] if d["tested"]}
    assert {"first_player_win_rate", "length_throws"} <= names
    # the gammon rate is the share of gammons among the game values: one test, values.*
    assert any(n.startswith("values.") for n in names) and "ladder.gammons_rate" not in names
    assert all(0 <= d["p"] <= 1 for d in out["differences"] if d["p"] is not None)


def test_triktrak_against_the_12_point_game_agrees_with_its_lines(capsys, tmp_path) -> None:
    out = _run(capsys, ["triktrak", "tric-trac-12", "--games", "12", "--seed", "2",
                        "--games-out", str(tmp_path / "t")])
    tt, tw = out["arms"]
    for arm in out["arms"]:
        _check_against_lines(arm)
    assert "holes" in tt["length"] and "games" not in tt["length"]
    assert tw["values"] and set(tw["values"]) <= {"single", "double", "triple", "quadruple"}
    # every shared figure is compared; a rule only one arm has is shown, not tested
    hits = [d for d in out["differences"] if d["figure"].startswith("rules.hit.")]
    assert hits and not any(d["tested"] for d in hits)
    assert all(d["why"] == "triktrak has no rule hit" and d["value_a"] is None for d in hits)
    assert sum(r["share"] for r in tt["rules"].values()) == pytest.approx(1.0)


def test_vary_an_option_of_triktrak_agrees_with_its_lines(capsys, tmp_path) -> None:
    out = _run(capsys, ["triktrak", "--vary", "sortie_obligation=compulsory,optional",
                        "--games", "20", "--games-out", str(tmp_path / "v")])
    labels = [a["label"] for a in out["arms"]]
    assert labels == ["sortie_obligation=compulsory", "sortie_obligation=optional"]
    assert out["arms"][1]["options"] == ['sortie_obligation="optional"']
    for arm in out["arms"]:
        _check_against_lines(arm)


def test_results_do_not_depend_on_jobs(capsys, tmp_path, monkeypatch) -> None:
    import interpreter.runner

    # chunks of one game, and the worker processes even for a little work
    monkeypatch.setattr(interpreter.runner, "SECONDS", 0.0)
    common = ["triktrak", "backgammon", "--games", "30", "--seed", "11"]
    one = _run(capsys, [*common, "--jobs", "1", "--games-out", str(tmp_path / "a")])
    two = _run(capsys, [*common, "--jobs", "2", "--games-out", str(tmp_path / "b")])
    for x, y in zip(one["arms"], two["arms"]):
        assert Path(x["games_out"]).read_text() == Path(y["games_out"]).read_text()
    for d in (one, two):
        for key in ("seconds", "jobs"):
            d.pop(key)
        for arm in d["arms"]:
            arm.pop("games_out")
    assert one == two


def test_arm_i_plays_the_games_of_simulate_with_seed_plus_i(capsys, tmp_path) -> None:
    _run(capsys, ["backgammon", "nackgammon", "--games", "5", "--seed", "8",
                  "--games-out", str(tmp_path / "c")])
    assert main(["simulate", "nackgammon", "--games", "5", "--seed", "9", "--json",
                 "--games-out", str(tmp_path / "s.jsonl")]) == 0
    capsys.readouterr()
    assert (tmp_path / "s.jsonl").read_text() == \
        (tmp_path / "c-2-nackgammon.jsonl").read_text()


def test_per_arm_sets(capsys) -> None:
    out = _run(capsys, ["backgammon", "backgammon", "--set", "2:ladder.match_length=3",
                        "--games", "4"])
    a, b = out["arms"]
    assert a["options"] == [] and b["options"] == ["ladder.match_length=3"]
    assert a["label"] != b["label"]
    assert "games" in b["length"]            # a match of several games
    out = _run(capsys, ["backgammon", "nackgammon", "--set", "nackgammon:ladder.jacoby=true",
                        "--set", "ladder.doubling=false", "--games", "2"])
    assert out["arms"][0]["options"] == ["ladder.doubling=false"]
    assert out["arms"][1]["options"] == ["ladder.jacoby=true", "ladder.doubling=false"]


@pytest.mark.parametrize("args, message", [
    (["backgammon"], "two arms"),
    (["backgammon", "nackgammon", "--vary", "ladder.jacoby=true,false"], "one variant"),
    (["backgammon", "nackgammon", "--set", "3:ladder.jacoby=true"], "no arm 3"),
    (["backgammon", "nackgammon", "--set", "hyper:ladder.jacoby=true"], "no arm is"),
    (["triktrak", "--vary", "sortie_obligation"], "KEY=A,B"),
    (["triktrak", "--vary", "sortie_obligation=compulsory,sometimes"], "sometimes"),
])
def test_bad_arms_are_refused(capsys, args: list[str], message: str) -> None:
    assert main(["compare", *args, "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_unwritable_report_is_refused_before_the_games(capsys, tmp_path) -> None:
    for option in ("--csv", "--html", "--games-out"):
        assert main(["compare", "backgammon", "nackgammon", "--games", "10000000", option,
                     str(tmp_path / "missing" / "out")]) == 1
        err = capsys.readouterr().err
        assert "cannot write" in err and "Traceback" not in err


def test_csv_has_one_row_per_arm_and_figure(capsys, tmp_path) -> None:
    path = tmp_path / "out.csv"
    out = _run(capsys, ["backgammon", "nackgammon", "--games", "20", "--csv", str(path)])
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert list(rows[0])[:6] == ["arm", "figure", "value", "lo", "hi", "n"]
    by = {(r["arm"], r["figure"]): r for r in rows}
    fp = out["arms"][0]["first_player_win_rate"]
    row = by[("backgammon", "first_player_win_rate")]
    assert float(row["value"]) == fp["value"]
    assert [float(row["lo"]), float(row["hi"])] == fp["ci"] and int(row["n"]) == 20
    assert float(by[("nackgammon", "length_throws")]["value"]) == \
        out["arms"][1]["length_throws"]["mean"]
    assert ("nackgammon − backgammon", "length_throws") in by


def test_text_report(capsys) -> None:
    assert main(["compare", "backgammon", "nackgammon", "--games", "10"]) == 0
    text = capsys.readouterr().out
    assert "the first to throw wins" in text and "Welch's t" in text
    assert "differences against backgammon" in text
