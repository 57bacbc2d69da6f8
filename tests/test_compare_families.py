"""Studies a referee accepts (docs/compare.md, "Replicates" and "Families of tests"): every
figure of `compare --replicates`, `--against`, `--pairs all` and the omnibus tests recomputed
here from the `--games-out` lines with scipy, Holm's adjustment checked within each family, and
the differences that are shown but not tested.

Random players and a few dozen games, so that the default suite stays fast."""
from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st

from interpreter.cli import main
from interpreter.compare import stats

Z = 1.959964
CONFIDENCE = 1 - 2 * st.norm.sf(Z)
THREE = ["backgammon", "nackgammon", "hypergammon"]


def _run(capsys, args: list[str]) -> dict:
    assert main(["compare", *args, "--json", "--jobs", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def _lines(arm: dict) -> list[dict]:
    """An arm's games, from its `--games-out` file (the header line left out)."""
    out = [json.loads(x) for x in Path(arm["games_out"]).read_text().splitlines()]
    return [g for g in out if "game" in g]


def _by_replicate(lines: list[dict]) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for g in lines:
        out.setdefault(g.get("replicate", 0), []).append(g)
    return {r: sorted(gs, key=lambda g: g["game"]) for r, gs in sorted(out.items())}


def _holm(ps: list[float]) -> list[float]:
    """Holm (1979) by hand: the i-th smallest (from 0) times m − i, kept rising, at most 1."""
    m = len(ps)
    order = np.argsort(ps, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * np.array(ps)[order]))
    out = np.empty(m)
    out[order] = adjusted
    return list(out)


def _check_families(out: dict) -> None:
    """Holm runs within each family: the arms' first-player tests with the proportions, the
    omnibus tests and the tested differences each in its figure's family."""
    families: dict[str, list[dict]] = {}
    for a in out["arms"]:
        first = a["first_player_win_rate"]
        assert first["family"] == "proportion"
        if first["p_value"] is not None:
            families.setdefault("proportion", []).append(first)
    for o in out["omnibus"]:
        families.setdefault(o["family"], []).append(o)
    for d in out["differences"]:
        if d["tested"]:
            families.setdefault(d["family"], []).append(d)
    assert {f: v["tests"] for f, v in out["families"].items()} == \
        {f: len(t) for f, t in families.items()}
    assert all(v["adjustment"] == "Holm" for v in out["families"].values())
    assert out["tests"] == sum(len(t) for t in families.values())
    for tests in families.values():
        assert [t["p_adjusted"] for t in tests] == \
            pytest.approx(_holm([t["p_value"] for t in tests]), abs=1e-12)


def _wilson(k: int, n: int) -> list[float]:
    ci = st.binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return [ci.low, ci.high]


# -- three arms, three replicates ---------------------------------------------------------------

@pytest.fixture(scope="module")
def three(tmp_path_factory) -> dict:
    """backgammon, nackgammon and hypergammon, 30 games each in each of 3 replicates."""
    folder = tmp_path_factory.mktemp("three")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", *THREE, "--games", "30", "--seed", "5", "--replicates", "3",
                     "--jobs", "1", "--json", "--games-out", str(folder / "r")]) == 0
    return json.loads(buf.getvalue())


def test_replicates_pooled_and_each_replicate_from_the_lines(three) -> None:
    out = three
    assert out["replicates"] == 3 and out["seeds"] == [5, 6, 7]
    for i, arm in enumerate(out["arms"]):
        lines = _lines(arm)
        reps = _by_replicate(lines)
        assert sorted(reps) == [0, 1, 2] and all(len(g) == 30 for g in reps.values())
        # unpaired: arm i of replicate r plays `simulate --seed 5+r+i`
        assert arm["seeds"] == [5 + r + i for r in range(3)]
        assert arm["games"] == 90
        # the pooled first player, over every replicate's decided games
        decided = [g for g in lines if g["winner"] is not None]
        k = sum(g["winner"] == g["first"] for g in decided)
        first = arm["first_player_win_rate"]
        assert (first["k"], first["n"]) == (k, len(decided))
        assert first["ci"] == pytest.approx(_wilson(k, len(decided)), abs=1e-9)
        # each replicate's value and interval, and the χ² of the replicates × 2 table
        table = []
        for r, games in reps.items():
            dec = [g for g in games if g["winner"] is not None]
            kr = sum(g["winner"] == g["first"] for g in dec)
            entry = first["replicates"][r]
            assert entry["replicate"] == r and entry["seed"] == 5 + r + i
            assert entry["n"] == len(dec) and entry["value"] == pytest.approx(kr / len(dec))
            assert entry["ci"] == pytest.approx(_wilson(kr, len(dec)), abs=1e-9)
            table.append([kr, len(dec) - kr])
        h = first["homogeneity"]
        chi = st.chi2_contingency(table, correction=False)
        assert h["test"] == "chi-square" and h["method"] == "asymptotic" and h["df"] == 2
        assert h["statistic"] == pytest.approx(chi.statistic, rel=1e-9)
        assert h["p_value"] == pytest.approx(chi.pvalue, rel=1e-9)
        # the length: pooled mean and interval; each replicate's mean; Kruskal–Wallis
        throws = np.array([g["throws"] for g in lines])
        length = arm["length_throws"]
        assert length["mean"] == pytest.approx(throws.mean())
        half = Z * throws.std(ddof=1) / math.sqrt(len(throws))
        assert length["ci"] == pytest.approx([throws.mean() - half, throws.mean() + half])
        per = [[g["throws"] for g in reps[r]] for r in range(3)]
        assert [e["value"] for e in length["replicates"]] == \
            pytest.approx([np.mean(x) for x in per])
        kw = st.kruskal(*per)
        assert length["homogeneity"]["test"] == "Kruskal-Wallis"
        assert length["homogeneity"]["statistic"] == pytest.approx(kw.statistic, rel=1e-9)
        assert length["homogeneity"]["p_value"] == pytest.approx(kw.pvalue, rel=1e-9)
        # a mean without a histogram: the one-way analysis of variance of the replicates
        gammons = [[g["fired"].get("gammon", {"white": 0, "black": 0}) for g in reps[r]]
                   for r in range(3)]
        per_game = [[x["white"] + x["black"] for x in rep] for rep in gammons]
        rule = arm["rules"]["gammon"]["per_game"]
        if rule["method"] == "normal":
            f = st.f_oneway(*per_game)
            assert rule["homogeneity"]["test"] == "one-way ANOVA (F)"
            assert rule["homogeneity"]["df"] == [2, 87]
            assert rule["homogeneity"]["p_value"] == pytest.approx(f.pvalue, rel=1e-9)
        # a ratio: Cochran's Q of the replicates' branching factors and their standard errors
        est = []
        for r in range(3):
            y = np.array([g["legal_plays"] for g in reps[r]], dtype=float)
            x = np.array([g["decisions"] for g in reps[r]], dtype=float)
            ratio = y.sum() / x.sum()
            se = math.sqrt(((y - ratio * x) ** 2).sum() / (len(y) - 1)) / \
                (math.sqrt(len(y)) * x.mean())
            est.append((ratio, se))
        w = np.array([1 / se**2 for _, se in est])
        rs = np.array([r for r, _ in est])
        q = float((w * (rs - (w * rs).sum() / w.sum()) ** 2).sum())
        bf = arm["branching_factor"]
        assert [e["value"] for e in bf["replicates"]] == pytest.approx(list(rs))
        assert bf["homogeneity"]["test"] == "Cochran's Q"
        assert bf["homogeneity"]["statistic"] == pytest.approx(q, rel=1e-9)
        assert bf["homogeneity"]["p_value"] == pytest.approx(st.chi2.sf(q, 2), rel=1e-9)


def test_omnibus_tests_from_the_lines(three) -> None:
    out = three
    lines = [_lines(a) for a in out["arms"]]
    omni = {o["figure"]: o for o in out["omnibus"]}
    # the first player: χ² of the 3 × 2 table of the pooled counts
    table = []
    for games in lines:
        dec = [g for g in games if g["winner"] is not None]
        k = sum(g["winner"] == g["first"] for g in dec)
        table.append([k, len(dec) - k])
    chi = st.chi2_contingency(table, correction=False)
    first = omni["first_player_win_rate"]
    assert first["test"] == "chi-square" and first["family"] == "proportion"
    assert first["df"] == 2 and first["arms"] == THREE
    assert first["statistic"] == pytest.approx(chi.statistic, rel=1e-9)
    assert first["p_value"] == pytest.approx(chi.pvalue, rel=1e-9)
    # the length: Kruskal–Wallis on the games' lengths themselves
    kw = st.kruskal(*[[g["throws"] for g in games] for games in lines])
    length = omni["length_throws"]
    assert length["test"] == "Kruskal-Wallis" and length["family"] == "throws"
    assert length["statistic"] == pytest.approx(kw.statistic, rel=1e-9)
    assert length["p_value"] == pytest.approx(kw.pvalue, rel=1e-9)
    # the omnibus tests are tests of their families
    _check_families(out)
    assert out["families"]["throws"]["tests"] == 1 + 2     # the omnibus and two differences


def test_differences_are_over_the_pooled_games(three) -> None:
    out = three
    assert out["against"] == "backgammon"
    assert out["pairs"] == [["backgammon", "nackgammon"], ["backgammon", "hypergammon"]]
    base = [g["throws"] for g in _lines(out["arms"][0])]
    for j in (1, 2):
        other = [g["throws"] for g in _lines(out["arms"][j])]
        d = next(x for x in out["differences"]
                 if x["figure"] == "length_throws" and x["arm"] == j)
        assert (d["arm_a"], d["a"], d["b"]) == (0, "backgammon", THREE[j])
        assert d["tested"] and d["family"] == "throws"
        assert d["difference"] == pytest.approx(np.mean(other) - np.mean(base))
        welch = st.ttest_ind(other, base, equal_var=False)
        assert d["p_value"] == pytest.approx(welch.pvalue, rel=1e-9)


def test_replicate_r_is_the_design_with_seed_s_plus_r(capsys, three, tmp_path) -> None:
    out = three
    alone = _run(capsys, [*THREE, "--games", "30", "--seed", "6",
                          "--games-out", str(tmp_path / "s6")])
    for arm, single in zip(out["arms"], alone["arms"]):
        replicate = _by_replicate(_lines(arm))[1]
        for g in replicate:
            assert g.pop("replicate") == 1
        assert replicate == sorted(_lines(single), key=lambda g: g["game"])


def test_text_report_shows_replicates_families_and_omnibus(capsys) -> None:
    assert main(["compare", *THREE, "--games", "30", "--seed", "5", "--replicates", "3",
                 "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "3 replicates of the whole design, seeds 5, 6, 7" in text
    assert "homogeneity p (test)" in text and "r1" in text and "r3" in text
    assert "omnibus tests across the arms" in text and "Kruskal-Wallis" in text
    assert "within each family" in text and "proportion" in text


# -- comparisons --------------------------------------------------------------------------------

def test_pairs_all_with_three_arms_gives_three_pairs_of_each_figure(capsys) -> None:
    out = _run(capsys, [*THREE, "--games", "20", "--seed", "2", "--pairs", "all"])
    assert out["against"] == "all pairs"
    assert out["pairs"] == [["backgammon", "nackgammon"], ["backgammon", "hypergammon"],
                            ["nackgammon", "hypergammon"]]
    by: dict[str, list[tuple[int, int]]] = {}
    for d in out["differences"]:
        by.setdefault(d["figure"], []).append((d["arm_a"], d["arm"]))
    for figure in ("first_player_win_rate", "length_throws", "branching_factor",
                   "value_points"):
        assert by[figure] == [(0, 1), (0, 2), (1, 2)], figure
    _check_families(out)


def test_against_the_second_arm(capsys) -> None:
    out = _run(capsys, [*THREE, "--games", "20", "--seed", "2", "--against", "2"])
    assert out["against"] == "nackgammon"
    assert out["pairs"] == [["nackgammon", "backgammon"], ["nackgammon", "hypergammon"]]
    assert {(d["a"], d["arm_a"]) for d in out["differences"]} == {("nackgammon", 1)}
    assert {d["arm"] for d in out["differences"]} == {0, 2}
    by_label = _run(capsys, [*THREE, "--games", "20", "--seed", "2", "--against",
                             "nackgammon"])
    assert by_label["differences"] == out["differences"]


@pytest.mark.parametrize("args, message", [
    (["--against", "tabla"], "--against 'tabla': no such arm"),
    (["--against", "4"], "no such arm"),
    (["--against", "1", "--pairs", "all"], "exclude each other"),
])
def test_bad_comparisons_are_refused_before_the_games(capsys, args, message) -> None:
    assert main(["compare", *THREE, "--games", "10000000", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["compare", "backgammon", "nackgammon"],
                                     ["simulate", "backgammon"]])
@pytest.mark.parametrize("r", ["0", "101", "x"])
def test_replicates_out_of_bounds_are_refused(capsys, command, r) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*command, "--games", "2", "--replicates", r])
    assert exc.value.code == 2
    assert "--replicates" in capsys.readouterr().err


# -- families and what is not tested ------------------------------------------------------------

def test_backgammon_against_trictrac_ecrire_does_not_test_the_worth(capsys) -> None:
    out = _run(capsys, ["backgammon", "trictrac-ecrire", "--games", "4", "--seed", "1"])
    assert [a["unit"] for a in out["arms"]] == ["points", "jetons"]
    worth = [d for d in out["differences"] if d["figure"] == "value_points"]
    assert len(worth) == 1
    d = worth[0]
    assert d["tested"] is False and d["why"] == "units differ: points against jetons"
    assert d["p_value"] is None and d["p_adjusted"] is None and d["difference"] is None
    # side by side: each arm's own value
    assert d["value_a"] == out["arms"][0]["value_points"]["mean"]
    assert d["value_b"] == out["arms"][1]["value_points"]["mean"]
    assert "points" not in out["families"] and "jetons" not in out["families"]
    # a figure one arm has not got: shown, not tested, and why
    cube = next(d for d in out["differences"] if d["figure"] == "cube_levels.1")
    assert not cube["tested"] and cube["why"] == "trictrac-ecrire has no cube"
    holes = next(d for d in out["differences"] if d["figure"] == "length.holes")
    assert not holes["tested"] and "backgammon's ladder (cube) counts no holes" == holes["why"]
    _check_families(out)


def test_cube_levels_with_the_cube_off_are_not_tested(capsys) -> None:
    out = _run(capsys, ["backgammon", "backgammon", "--set", "2:ladder.doubling=false",
                        "--games", "20", "--seed", "3", "--white", "greedy"])
    off = "the cube is off in backgammon ladder.doubling=false"
    why = {d["figure"]: d["why"] for d in out["differences"] if not d["tested"]}
    assert why["cube_levels.1"] == f"{off}: its level is 1 by rule"
    assert why["values.pass"] == off
    assert not any(d["tested"] and (d["figure"].startswith("cube_levels.") or
                                    "pass" in d["figure"]) for d in out["differences"])
    _check_families(out)


def test_a_value_one_arm_never_showed_is_zero_there_and_tested(capsys) -> None:
    """A backgammon seen in one arm and not the other, whose rules allow it, is 0 of the
    other's games: tested, never dropped."""
    out = _run(capsys, ["backgammon", "hypergammon", "--games", "12", "--seed", "1"])
    seen = [set(a["values"]) for a in out["arms"]]
    for name in seen[0] ^ seen[1]:
        d = next(x for x in out["differences"] if x["figure"] == f"values.{name}")
        assert d["tested"] and (d["value_a"] == 0 or d["value_b"] == 0), d


# -- paired, with replicates --------------------------------------------------------------------

def test_paired_replicates_pair_game_i_of_replicate_r(capsys, tmp_path) -> None:
    out = _run(capsys, [*THREE, "--games", "20", "--seed", "4", "--paired", "--replicates",
                        "2", "--games-out", str(tmp_path / "p")])
    assert out["seeds"] == [4, 5]
    assert all(a["seeds"] == [4, 5] for a in out["arms"])
    arms = [{(g["replicate"], g["game"]): g for g in _lines(a)} for a in out["arms"]]
    keys = sorted(arms[0])
    assert len(keys) == 40 and all(sorted(a) == keys for a in arms)
    # the paired difference of the lengths: game i of replicate r against its partner
    a = np.array([arms[0][k]["throws"] for k in keys])
    b = np.array([arms[1][k]["throws"] for k in keys])
    d = next(x for x in out["differences"] if x["figure"] == "length_throws" and x["arm"] == 1)
    assert d["paired"] and d["difference"] == pytest.approx((b - a).mean())
    assert d["p_value"] == pytest.approx(st.ttest_rel(b, a).pvalue, rel=1e-9)
    # the omnibus tests of paired arms: Friedman (lengths), Cochran's Q (0/1 figures)
    omni = {o["figure"]: o for o in out["omnibus"]}
    fr = st.friedmanchisquare(*[[arm[k]["throws"] for k in keys] for arm in arms])
    assert omni["length_throws"]["test"] == "Friedman"
    assert omni["length_throws"]["statistic"] == pytest.approx(fr.statistic, rel=1e-9)
    assert omni["length_throws"]["p_value"] == pytest.approx(fr.pvalue, rel=1e-9)
    x = np.array([[int(arm[k]["winner"] == arm[k]["first"]) for arm in arms] for k in keys
                  if all(arm[k]["winner"] is not None for arm in arms)])
    q = _cochran_by_hand(x)
    assert omni["first_player_win_rate"]["test"] == "Cochran's Q"
    assert omni["first_player_win_rate"]["statistic"] == pytest.approx(q, rel=1e-9)
    _check_families(out)


def _cochran_by_hand(x: np.ndarray) -> float:
    """Cochran's Q in its textbook form: k(k − 1)·Σ(C_j − C̄)² / Σ T_i(k − T_i)."""
    k = x.shape[1]
    cols, rows = x.sum(axis=0), x.sum(axis=1)
    return float(k * (k - 1) * ((cols - cols.mean()) ** 2).sum() / (rows * (k - rows)).sum())


# -- simulate --replicates ----------------------------------------------------------------------

def test_simulate_replicates(capsys, tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    assert main(["simulate", "backgammon", "--games", "25", "--seed", "3", "--replicates",
                 "3", "--jobs", "1", "--json", "--games-out", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    games = [g for g in lines if "game" in g]
    assert out["games"] == 75 and out["replicates"] == 3 and out["seeds"] == [3, 4, 5]
    reps = _by_replicate(games)
    assert [b["seed"] for b in out["by_replicate"]] == [3, 4, 5]
    table = []
    for r, rep in reps.items():
        dec = [g for g in rep if g["winner"] is not None]
        k = sum(g["winner"] == g["first"] for g in dec)
        assert out["by_replicate"][r]["first_player_win_rate"] == round(k / len(dec), 4)
        table.append([k, len(dec) - k])
    chi = st.chi2_contingency(table, correction=False)
    h = out["homogeneity"]
    assert h["first_player_win_rate"]["p_value"] == pytest.approx(chi.pvalue, rel=1e-9)
    kw = st.kruskal(*[[g["turns"] for g in reps[r]] for r in range(3)])
    assert h["mean_turns"]["p_value"] == pytest.approx(kw.pvalue, rel=1e-9)
    # replicate r is `simulate --seed 3+r`
    alone = tmp_path / "alone.jsonl"
    assert main(["simulate", "backgammon", "--games", "25", "--seed", "5", "--jobs", "1",
                 "--json", "--games-out", str(alone)]) == 0
    capsys.readouterr()
    single = [json.loads(x) for x in alone.read_text().splitlines()]
    for g in reps[2]:
        g.pop("replicate")
    assert reps[2] == [g for g in single if "game" in g]


# -- the tests themselves, against scipy --------------------------------------------------------

def _expand(h: dict[int, int]) -> list[int]:
    return [v for v, c in h.items() for _ in range(c)]


@pytest.mark.parametrize("seed", range(5))
def test_kruskal_from_histograms_is_scipys_on_the_expanded_data(seed) -> None:
    rng = np.random.default_rng(seed)
    groups = [Counter(int(v) for v in rng.poisson(lam, size=rng.integers(3, 40)))
              for lam in rng.uniform(1, 8, size=rng.integers(2, 6))]
    got = stats.kruskal_counts([dict(g) for g in groups])
    want = st.kruskal(*[_expand(g) for g in groups])
    assert got is not None
    assert got.statistic == pytest.approx(want.statistic, rel=1e-9)
    assert got.p == pytest.approx(want.pvalue, rel=1e-9)
    assert got.df == len(groups) - 1


def test_kruskal_without_spread_has_no_test() -> None:
    assert stats.kruskal_counts([{3: 4}, {3: 2}]) is None
    assert stats.kruskal_counts([{3: 4}]) is None


@pytest.mark.parametrize("seed", range(3))
def test_anova_from_moments_is_scipys_f_oneway(seed) -> None:
    rng = np.random.default_rng(seed)
    data = [list(map(int, rng.integers(0, 30, size=rng.integers(2, 25)))) for _ in range(4)]
    got = stats.anova_moments([stats.Moments(len(x), sum(x), sum(v * v for v in x))
                               for x in data])
    want = st.f_oneway(*data)
    assert got is not None
    assert got.statistic == pytest.approx(want.statistic, rel=1e-9)
    assert got.p == pytest.approx(want.pvalue, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_friedman_and_cochran_against_scipy_and_the_textbook(seed) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, size=(30, 4))
    fr = stats.Friedman(4)
    for row in x:
        fr.add([int(v) for v in row])
    want = st.friedmanchisquare(*x.T)
    got = fr.test()
    assert got is not None
    assert got.statistic == pytest.approx(want.statistic, rel=1e-9)
    assert got.p == pytest.approx(want.pvalue, rel=1e-9)
    b = rng.integers(0, 2, size=(40, 3))
    cq = stats.CochranQ(3)
    for row in b:
        cq.add([int(v) for v in row])
    got = cq.test()
    assert got is not None
    assert got.statistic == pytest.approx(_cochran_by_hand(b), rel=1e-9)


def test_chi_square_of_rows_asymptotic_and_monte_carlo() -> None:
    rows = [(30, 80), (45, 90), (20, 70)]
    got = stats.chi2_rows(rows)
    want = st.chi2_contingency([[k, n - k] for k, n in rows], correction=False)
    assert got is not None and got.method == "asymptotic"
    assert got.p == pytest.approx(want.pvalue, rel=1e-12)
    # an expected count below 5: the Monte Carlo p of the same statistic, tables of the same
    # margins, agrees with scipy's own Monte Carlo test within its error
    small = [(1, 12), (4, 10), (0, 11), (3, 9)]
    got = stats.chi2_rows(small)
    want = st.chi2_contingency(
        [[k, n - k] for k, n in small], correction=False,
        method=st.MonteCarloMethod(n_resamples=99999, rng=np.random.default_rng(1)))
    assert got is not None and got.method == "Monte Carlo"
    assert got.statistic == pytest.approx(want.statistic, rel=1e-12)
    assert got.p == pytest.approx(want.pvalue, abs=0.015)
    assert stats.chi2_rows([(0, 10), (0, 12)]).p == 1.0
    assert stats.chi2_rows([(3, 10)]) is None


def test_poisson_homogeneity_monte_carlo_is_the_exact_conditional_test() -> None:
    counts = [(0, 100.0), (4, 120.0), (1, 80.0)]
    got = stats.poisson_homogeneity(counts)
    assert got is not None and got.method == "Monte Carlo"
    big_k = 5
    e = np.array([100.0, 120.0, 80.0])
    p = e / e.sum()
    m = big_k * p
    observed = float((((np.array([0, 4, 1]) - m) ** 2) / m).sum())
    exact = 0.0
    for x in itertools.product(range(big_k + 1), repeat=3):
        if sum(x) != big_k:
            continue
        stat = float((((np.array(x) - m) ** 2) / m).sum())
        if stat >= observed - 1e-12:
            exact += st.multinomial.pmf(x, big_k, p)
    assert got.statistic == pytest.approx(observed)
    assert got.p == pytest.approx(exact, abs=0.015)


def test_a_replicate_without_games_reports_nothing_rather_than_failing(three) -> None:
    """An interrupted run may stop before a replicate's first game: its figures are empty and
    the homogeneity tests are over the replicates that played."""
    from interpreter.compare.core import evaluate
    from interpreter.compare.design import annotate_replicates
    from interpreter.compare.tally import ArmTally, tally_lines

    arm = three["arms"][0]
    played = tally_lines(_by_replicate(_lines(arm))[0])
    pooled = played.figures()
    obj = {"first_player_win_rate": evaluate(pooled[0]),
           "length_throws": evaluate(next(f for f in pooled if f.name == "length_throws"))}
    annotate_replicates(obj, pooled, [played, ArmTally()], [5, 6], evaluate)
    first = obj["first_player_win_rate"]
    assert first["replicates"][1] == {"replicate": 1, "seed": 6, "value": None, "ci": None,
                                      "n": 0}
    assert first["homogeneity"] is None               # one replicate played: no test
    assert obj["length_throws"]["replicates"][1]["n"] == 0
