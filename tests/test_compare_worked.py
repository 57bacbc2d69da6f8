"""The worked example of docs/compare.md: ten games of backgammon and ten of nackgammon, lines
written by `tablier compare backgammon nackgammon --games 10 --seed 5 --games-out worked`
(tests/data/compare/), every figure recomputed here by hand from the lines."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from scipy import stats as st

from interpreter.compare.core import differences, evaluate
from interpreter.compare.tally import tally_lines

DATA = Path(__file__).parent / "data" / "compare"
Z = 1.959964


def _lines(name: str) -> list[dict]:
    # the games' lines (a header line, which has no "game", left out)
    return [g for g in map(json.loads, (DATA / name).read_text().splitlines()) if "game" in g]


BG, NACK = _lines("worked-1-backgammon.jsonl"), _lines("worked-2-nackgammon.jsonl")


def _figures(lines: list[dict]) -> dict[str, dict]:
    return {f.name: evaluate(f) for f in tally_lines(lines).figures()}


def test_worked_example_first_player_win_rate() -> None:
    # backgammon: the first to throw won 8 of the 10 games
    assert sum(g["winner"] == g["first"] for g in BG) == 8
    p, n = 0.8, 10
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)                    # 0.71674
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))   # 0.22658
    assert round(centre, 5) == 0.71674 and round(half, 5) == 0.22658
    fig = _figures(BG)["first_player_win_rate"]
    assert fig["value"] == 0.8
    assert fig["ci"] == pytest.approx([centre - half, centre + half], abs=1e-12)
    assert [round(x, 4) for x in fig["ci"]] == [0.4902, 0.9433]


def test_worked_example_length() -> None:
    throws = sorted(g["throws"] for g in BG)
    assert throws == [47, 53, 55, 73, 73, 83, 89, 90, 102, 129]
    mean = sum(throws) / 10                                             # 79.4
    s = math.sqrt(sum((x - mean) ** 2 for x in throws) / 9)             # 24.972
    fig = _figures(BG)["length_throws"]
    assert fig["mean"] == 79.4 and round(s, 3) == 24.972
    assert fig["ci"] == pytest.approx([mean - Z * s / math.sqrt(10),
                                       mean + Z * s / math.sqrt(10)], abs=1e-9)
    assert [round(x, 2) for x in fig["ci"]] == [63.92, 94.88]
    # quartiles by linear interpolation: position (n − 1)·q from 0
    assert (fig["q1"], fig["median"], fig["q3"]) == (59.5, 78.0, 89.75)


def test_worked_example_rule_rates() -> None:
    fired = [sum(g["fired"].get("gammon", {"white": 0, "black": 0}).values()) for g in BG]
    assert fired == [1, 0, 0, 1, 1, 0, 0, 1, 1, 1]
    throws = [g["throws"] for g in BG]
    per_game = sum(fired) / 10                                          # 0.6
    s = math.sqrt(sum((y - per_game) ** 2 for y in fired) / 9)
    per_throw = sum(fired) / sum(throws)                                # 6/794
    resid = sum((y - per_throw * x) ** 2 for y, x in zip(fired, throws)) / 9
    se = math.sqrt(resid) / (math.sqrt(10) * sum(throws) / 10)
    figs = _figures(BG)
    assert figs["rules.gammon.per_game"]["mean"] == pytest.approx(0.6)
    assert figs["rules.gammon.per_game"]["ci"] == \
        pytest.approx([per_game - Z * s / math.sqrt(10), per_game + Z * s / math.sqrt(10)],
                      abs=1e-12)
    assert figs["rules.gammon.per_throw"]["value"] == pytest.approx(6 / 794, abs=1e-15)
    assert figs["rules.gammon.per_throw"]["ci"] == \
        pytest.approx([per_throw - Z * se, per_throw + Z * se], abs=1e-12)
    assert [round(x, 4) for x in figs["rules.gammon.per_throw"]["ci"]] == [0.0037, 0.0114]


def test_worked_example_differences() -> None:
    a, b = tally_lines(BG).figures(), tally_lines(NACK).figures()
    d = {x["figure"]: x for x in differences(["backgammon", "nackgammon"], [a, b])}
    # the first to throw: 8/10 against 7/10; Newcombe from the two Wilson intervals
    first = d["first_player_win_rate"]
    (l1, u1), (l2, u2) = _wilson(8, 10), _wilson(7, 10)
    diff = 0.7 - 0.8
    assert first["difference"] == pytest.approx(diff)
    assert first["ci"] == pytest.approx([diff - math.sqrt((u1 - 0.8) ** 2 + (0.7 - l2) ** 2),
                                         diff + math.sqrt((0.8 - l1) ** 2 + (u2 - 0.7) ** 2)],
                                        abs=1e-12)
    # 5 losses of the first player in 20 games: an expected count of 2.5 in each arm, below
    # 5, so Fisher's exact test of the 2×2 table, not the χ² approximation
    assert first["test"] == "Fisher's exact"
    assert first["p"] == pytest.approx(st.fisher_exact([[8, 2], [7, 3]]).pvalue, rel=1e-12)
    assert first["p"] == 1.0
    # the length: 136.9 − 79.4 throws, Welch's t, and its interval with the same t
    length = d["length_throws"]
    s1, s2 = 24.971984302413773, 48.82497084256966
    se = math.sqrt(s1**2 / 10 + s2**2 / 10)
    df = se**4 / ((s1**2 / 10) ** 2 / 9 + (s2**2 / 10) ** 2 / 9)
    q = st.t.ppf(0.5 + (1 - 2 * st.norm.sf(Z)) / 2, df)               # 2.1537 at 13.4 df
    assert round(df, 2) == 13.41 and round(q, 4) == 2.1537
    assert length["difference"] == pytest.approx(57.5)
    assert length["ci"] == pytest.approx([57.5 - q * se, 57.5 + q * se], abs=1e-9)
    t = 57.5 / se
    assert length["p"] == pytest.approx(2 * st.t.sf(t, df), rel=1e-9)
    assert round(length["p"], 4) == 0.0054


def _wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))
    return centre - half, centre + half
