"""Honest statistics of `tablier compare` (spec: "Honest statistics"): every figure recomputed
here from the `--games-out` lines alone, under random, greedy, search:1 and learned players.

The games are few (a short triktrak to two holes, a few backgammon games) so that the default
suite stays fast; the longer runs are marked slow."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st

from interpreter.cli import main

Z = 1.959964
CONFIDENCE = 1 - 2 * st.norm.sf(Z)
#: a triktrak partie to two holes: a scoring variant whose games are short under any player
SHORT_TRIKTRAK = ["triktrak", "--set", "ladder.holes_to_win=2"]
KINDS = ("random", "greedy", "search:1", "learned")


def _run(capsys, args: list[str]) -> dict:
    assert main(["compare", *args, "--json", "--jobs", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def _lines(arm: dict) -> list[dict]:
    return [g for g in map(json.loads, Path(arm["games_out"]).read_text().splitlines())
            if "game" in g]


def _wilson(k: int, n: int) -> list[float]:
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _holm_by_hand(ps: list[float]) -> list[float]:
    """Holm (1979): sort, multiply the i-th smallest (from 0) by m − i, keep them rising."""
    m = len(ps)
    order = np.argsort(ps, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * np.array(ps)[order]))
    out = np.empty(m)
    out[order] = adjusted
    return list(out)


def _all_intervals(arm: dict) -> list[tuple[str, dict]]:
    """Every figure of an arm that has an interval, with its name."""
    out = [(k, arm[k]) for k in ("first_player_win_rate", "draw_rate", "unfinished_rate",
                                 "length_throws", "branching_factor", "forced_rate",
                                 "completion", "balance")]
    out += [(f"win_rate.{s}", arm["win_rate"][s]) for s in ("white", "black")]
    if arm["lead_changes"] is not None:
        out.append(("lead_changes", arm["lead_changes"]))
    for group in ("length", "values", "cube_levels", "ladder"):
        out += [(f"{group}.{k}", v) for k, v in arm[group].items()]
    for rule, r in arm["rules"].items():
        out += [(f"rules.{rule}.per_game", r["per_game"]),
                (f"rules.{rule}.per_throw", r["per_throw"])]
        if r["share_ci"] is not None:
            out.append((f"rules.{rule}.share", {"value": r["share"], "ci": r["share_ci"]}))
    return out


def _check_in_range(arm: dict) -> None:
    for name, fig in _all_intervals(arm):
        ci = fig.get("ci")
        value = fig.get("value", fig.get("mean"))
        if ci is None:
            continue
        lo, hi = ci
        assert 0.0 <= lo <= hi, (name, ci)
        assert lo <= value + 1e-12 and value <= hi + 1e-12, (name, value, ci)
        bounded = name.startswith(("values.", "cube_levels.", "win_rate.")) or \
            name.endswith(("_rate", ".share")) or name in ("completion", "balance")
        if bounded:
            assert hi <= 1.0, (name, ci)
        if value == 0:
            assert hi > 0, (name, ci)           # never seen in n games: [0, hi], hi > 0


def _check_against_lines(arm: dict) -> None:
    """Decided games, draws and unfinished games apart; the first player over the decided
    games; the draw rate; the rule shares; the playout metrics: all from the lines."""
    lines = _lines(arm)
    n = len(lines)
    assert n == arm["games"]
    decided = [g for g in lines if g["winner"] is not None]
    draws = [g for g in lines if g["finished"] and g["winner"] is None]
    unfinished = [g for g in lines if not g["finished"]]
    assert (arm["decided"], arm["draws"], arm["unfinished"]) == \
        (len(decided), len(draws), len(unfinished))
    assert arm["decided"] + arm["draws"] + arm["unfinished"] == n
    k = sum(g["winner"] == g["first"] for g in decided)
    fp = arm["first_player_win_rate"]
    assert (fp["k"], fp["n"]) == (k, len(decided))
    if decided:
        assert fp["ci"] == pytest.approx(_wilson(k, len(decided)), abs=1e-9)
        assert fp["p_value"] == pytest.approx(st.binomtest(k, len(decided)).pvalue, abs=1e-12)
    assert arm["draw_rate"]["value"] == pytest.approx(len(draws) / n)
    assert arm["draw_rate"]["ci"] == pytest.approx(_wilson(len(draws), n), abs=1e-9)
    # every game's points are the points its rules gave, and the shares sum to 1
    total = sum(g["points"]["white"] + g["points"]["black"] for g in lines)
    for g in lines:
        assert sum(v["white"] + v["black"] for v in g["rule_points"].values()) == \
            g["points"]["white"] + g["points"]["black"], g["game"]
    if total:
        shares = {r: v["share"] for r, v in arm["rules"].items()}
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-9)
        for rule, share in shares.items():
            pts = sum(sum(g["rule_points"].get(rule, {"white": 0, "black": 0}).values())
                      for g in lines)
            assert share == pytest.approx(pts / total, abs=1e-12)
    # the playout metrics
    plays = sum(g["legal_plays"] for g in lines)
    decisions = sum(g["decisions"] for g in lines)
    forced = sum(g["forced"] for g in lines)
    assert arm["branching_factor"]["value"] == pytest.approx(plays / decisions)
    assert arm["forced_rate"]["value"] == pytest.approx(forced / decisions)
    assert arm["completion"]["value"] == pytest.approx((n - len(unfinished)) / n)
    white = sum(g["winner"] == "white" for g in decided)
    if decided:
        assert arm["balance"]["value"] == \
            pytest.approx(abs(white - (len(decided) - white)) / len(decided))
    if arm["lead_changes"] is not None:
        assert arm["lead_changes"]["mean"] == \
            pytest.approx(np.mean([g["lead_changes"] for g in lines]))
    _check_in_range(arm)


def _check_holm(out: dict) -> None:
    """Holm within each family of tests (the unit of its figures): each arm's first-player test
    in "proportion" with the rates and shares, every omnibus test and every tested difference
    in its own; a difference shown but not tested has no p-value and says why."""
    families: dict[str, list[dict]] = {}
    for a in out["arms"]:
        if a["first_player_win_rate"]["p_value"] is not None:
            families.setdefault("proportion", []).append(a["first_player_win_rate"])
    for o in out.get("omnibus", []):
        families.setdefault(o["family"], []).append(o)
    for d in out["differences"]:
        if d["tested"]:
            families.setdefault(d["family"], []).append(d)
        else:
            assert d["p_value"] is None and d["p_adjusted"] is None and d["why"], d
    assert out["tests"] == sum(len(t) for t in families.values())
    assert {f: v["tests"] for f, v in out["families"].items()} == \
        {f: len(t) for f, t in families.items()}
    for tests in families.values():
        ps = [t["p_value"] for t in tests]
        assert [t["p_adjusted"] for t in tests] == pytest.approx(_holm_by_hand(ps), abs=1e-12)
        assert all(t["p_adjusted"] >= t["p_value"] for t in tests)
    for d in out["differences"]:
        assert d["p"] == d["p_value"]
        if d["tested"]:
            lo, hi = d["ci"]
            assert lo <= d["difference"] + 1e-12 and d["difference"] <= hi + 1e-12


def test_players_as_arms_shares_and_figures_under_every_kind(capsys, tmp_path) -> None:
    """Random, greedy, search:1 and learned players, both sides, as four arms of a short
    triktrak: the search's copies of the game no longer wipe the rules' points."""
    out = _run(capsys, [*SHORT_TRIKTRAK, "--vary", "players=" + ",".join(KINDS),
                        "--games", "2", "--seed", "3", "--games-out", str(tmp_path / "p")])
    assert [a["players"] for a in out["arms"]] == [{"white": k, "black": k} for k in KINDS]
    assert [a["label"] for a in out["arms"]] == [f"players={k}" for k in KINDS]
    for arm in out["arms"]:
        _check_against_lines(arm)
    _check_holm(out)
    # no complementary duplicates: black's win rate is white's complement, never tested
    names = {d["figure"] for d in out["differences"]}
    assert "win_rate.black" not in names and "completion" not in names
    assert "weak players" in out["caveat"].lower()


def test_one_side_as_the_arm(capsys, tmp_path) -> None:
    out = _run(capsys, ["backgammon", "--vary", "white=random,greedy", "--black", "greedy",
                        "--games", "4", "--games-out", str(tmp_path / "w")])
    assert [a["players"] for a in out["arms"]] == [{"white": "random", "black": "greedy"},
                                                   {"white": "greedy", "black": "greedy"}]
    out = _run(capsys, ["backgammon", "--vary", "black=random,greedy", "--games", "2"])
    assert [a["players"]["black"] for a in out["arms"]] == ["random", "greedy"]
    assert all(a["players"]["white"] == "random" for a in out["arms"])


def test_draws_are_apart_from_the_first_players_losses(capsys, tmp_path) -> None:
    """Plakoto's random games end drawn when both mothers are pinned: those are neither the
    first player's wins nor his losses."""
    out = _run(capsys, ["plakoto", "backgammon", "--games", "30", "--seed", "1",
                        "--games-out", str(tmp_path / "d")])
    plakoto = out["arms"][0]
    assert plakoto["draws"] > 0
    assert plakoto["first_player_win_rate"]["n"] == plakoto["decided"] < plakoto["games"]
    for arm in out["arms"]:
        _check_against_lines(arm)
    _check_holm(out)


def test_a_variant_against_itself_paired_differs_by_exactly_0(capsys, tmp_path) -> None:
    for args in (["backgammon", "backgammon", "--games", "8"],
                 [*SHORT_TRIKTRAK[:1], *SHORT_TRIKTRAK[:1], *SHORT_TRIKTRAK[1:],
                  "--games", "3", "--white", "search:1"]):
        out = _run(capsys, [*args, "--paired", "--games-out", str(tmp_path / "self")])
        assert out["paired"] is True
        a, b = (_lines(arm) for arm in out["arms"])
        assert a == b                               # the same seed and dice: the same games
        assert out["differences"]
        for d in out["differences"]:
            assert d["paired"] is True
            assert d["difference"] == 0 and d["ci"] == [0.0, 0.0], d
            assert d["p_value"] == 1.0
        _check_holm(out)


def test_paired_differences_are_taken_game_by_game(capsys, tmp_path) -> None:
    """Backgammon with and without the Jacoby rule, paired: game i of both arms has the same
    seed; the difference of the lengths is the mean of the games' differences, its interval
    the paired t interval, its test the paired t test."""
    out = _run(capsys, ["backgammon", "backgammon", "--set", "2:ladder.jacoby=true",
                        "--set", "ladder.match_length=3", "--games", "12", "--paired",
                        "--games-out", str(tmp_path / "j")])
    a, b = (_lines(arm) for arm in out["arms"])
    assert [g["seed"] for g in a] == [g["seed"] for g in b]
    d = next(x for x in out["differences"] if x["figure"] == "length_throws")
    diffs = np.array([gb["throws"] - ga["throws"] for ga, gb in zip(a, b)], dtype=float)
    n = len(diffs)
    t = st.t.ppf(0.5 + CONFIDENCE / 2, n - 1)
    half = t * diffs.std(ddof=1) / math.sqrt(n)
    assert d["difference"] == pytest.approx(diffs.mean(), abs=1e-9)
    if half:
        assert d["ci"] == pytest.approx([diffs.mean() - half, diffs.mean() + half], abs=1e-9)
        assert d["p_value"] == pytest.approx(st.ttest_rel([g["throws"] for g in b],
                                                          [g["throws"] for g in a]).pvalue,
                                             abs=1e-9)
    # a proportion: McNemar's exact test on the games where the arms differ
    w = next(x for x in out["differences"] if x["figure"] == "draw_rate" or
             x["figure"] == "win_rate.white")
    assert w["test"].startswith("McNemar")
    _check_holm(out)


def test_unpaired_arms_play_their_own_games(capsys, tmp_path) -> None:
    out = _run(capsys, ["backgammon", "backgammon", "--games", "4",
                        "--games-out", str(tmp_path / "u")])
    assert out["paired"] is False
    a, b = (_lines(arm) for arm in out["arms"])
    assert [g["seed"] for g in a] != [g["seed"] for g in b]
    assert not any(d["paired"] for d in out["differences"])


def test_a_rule_that_never_fired_gets_a_positive_upper_bound(capsys) -> None:
    out = _run(capsys, ["triktrak", "trictrac-ecrire", "--games", "3", "--seed", "2"])
    for arm in out["arms"]:
        silent = [r for r, v in arm["rules"].items() if not sum(v["fired"].values())]
        assert silent
        for rule in silent:
            r = arm["rules"][rule]
            assert r["per_game"]["ci"][0] == 0 and r["per_game"]["ci"][1] > 0
            # the exact Poisson bound of a count of 0 in n games: −ln(α/2)/n
            assert r["per_game"]["ci"][1] == pytest.approx(-math.log((1 - CONFIDENCE) / 2) / 3)
            assert r["per_game"]["method"] == "exact"
            assert r["share_ci"][0] == 0 and 0 < r["share_ci"][1] <= 1
        _check_in_range(arm)
    # a count too rare for the normal interval is tested exactly, not with Welch's t
    rare = [d for d in out["differences"] if d["test"] == "exact Poisson (conditional)"]
    assert rare


def test_the_legal_plays_are_those_the_players_were_offered() -> None:
    """The branching factor's counts: a player that counts the choices of each play decision
    it is asked (a throw with one play or none is not asked) finds the counts of the line."""
    from interpreter.engine.game import Game
    from interpreter.players.kinds import make_player
    from interpreter.sim import game_line
    from interpreter.variant.build import load_variant

    class Counting:
        def __init__(self, inner) -> None:
            self.inner, self.asked, self.choices = inner, 0, 0

        def answer(self, d):
            if d.kind == "play":
                self.asked += 1
                self.choices += len(d.choices)
            return self.inner.answer(d)

    for variant_id in ("backgammon", "triktrak"):
        v = load_variant(variant_id)
        players = [Counting(make_player("random", f"7/0:{s}", v)) for s in ("white", "black")]
        line = game_line(0, 7, Game(v, "7/0", keep_record=False).run(players))
        asked = sum(p.asked for p in players)
        assert line["decisions"] == asked + line["forced"]
        assert line["legal_plays"] == sum(p.choices for p in players) + line["forced"]


def test_the_html_names_the_players_beside_every_figure(capsys, tmp_path) -> None:
    path = tmp_path / "r.html"
    assert main(["compare", "backgammon", "--vary", "players=random,greedy", "--games", "4",
                 "--jobs", "1", "--html", str(path)]) == 0
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert text.count("random (white) v random (black)") >= 2       # the figures' tables
    assert text.count("greedy (white) v greedy (black)") >= 2
    assert "players=greedy (greedy v greedy)" in text                # the differences
    assert "Holm" in text and "Weak players" in text


def test_an_arm_from_a_file_is_labelled_by_its_id(capsys) -> None:
    mmai = str(Path(__file__).parent / "data" / "trictrac" / "mmai.toml")
    out = _run(capsys, ["triktrak", mmai, "--games", "2"])
    assert [a["label"] for a in out["arms"]] == ["triktrak", "triktrak-mmai"]
    assert out["arms"][1]["ref"] == mmai


@pytest.mark.parametrize("args, message", [
    (["backgammon", "--vary", "players=random,nobody"], "nobody"),
    (["backgammon", "nackgammon", "--vary", "players=random,greedy"], "one variant"),
])
def test_bad_player_arms_are_refused(capsys, args: list[str], message: str) -> None:
    assert main(["compare", *args, "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_simulate_reports_decided_games_draws_and_shares(capsys) -> None:
    assert main(["simulate", "plakoto", "--games", "30", "--seed", "1", "--json",
                 "--jobs", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decided"] + out["draws"] + out["unfinished"] == 30
    assert out["first_player_wins"] + out["second_player_wins"] == out["decided"]
    lo, hi = out["draw_interval"]
    assert 0 <= lo <= out["draw_rate"] <= hi <= 1
    assert main(["simulate", *SHORT_TRIKTRAK, "--games", "1", "--white", "search:1",
                 "--json", "--jobs", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sum(r["share"] for r in out["rule_firings"].values()) == pytest.approx(1, abs=1e-5)


@pytest.mark.slow
def test_longer_runs_under_every_kind_of_player(capsys, tmp_path) -> None:
    out = _run(capsys, [*SHORT_TRIKTRAK, "--vary", "players=" + ",".join(KINDS),
                        "--games", "40", "--paired", "--games-out", str(tmp_path / "l")])
    for arm in out["arms"]:
        _check_against_lines(arm)
    _check_holm(out)
    # à écrire between two greedy players: its parties are long under the stronger ones
    out = _run(capsys, ["triktrak", "trictrac-ecrire", "--set", "trictrac-ecrire:ladder.marks=6",
                        "--white", "greedy", "--black", "greedy", "--games", "20",
                        "--games-out", str(tmp_path / "e")])
    for arm in out["arms"]:
        _check_against_lines(arm)
    _check_holm(out)


def test_a_paired_rare_share_is_signed_over_every_game() -> None:
    """The sign test of a paired ratio counts the games whose events differ, whatever each
    game's denominator (its points, its throws)."""
    from interpreter.compare.stats import PairedSums, diff_paired

    s = PairedSums(every_game=True)
    for i in range(12):
        s.add((0, 10 + i), (4, 13 + i))          # B's rule scores 4 a game, A's never
    d = diff_paired(s, sign_test=True)
    assert (s.up, s.down) == (12, 0)
    assert d.p == pytest.approx(2 * 0.5 ** 12) and d.ci[0] > 0
