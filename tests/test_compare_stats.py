"""The statistics of `tablier compare` (interpreter/compare/stats.py) against the formulas
written out by hand and published worked examples."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats as st

from interpreter.compare import stats
from interpreter.compare.stats import Moments, RatioSums
from interpreter.compare.tally import Histogram

Z = 1.959964


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def moments(xs: list[int]) -> Moments:
    return Moments(len(xs), sum(xs), sum(x * x for x in xs))


def test_the_library_wilson_interval_is_the_formula_with_z_1_959964() -> None:
    for k, n in [(7, 10), (1, 10), (0, 10), (10, 10), (4_937, 10_000), (3, 1_000_000)]:
        lo, hi = stats.wilson(k, n)
        hlo, hhi = wilson_by_hand(k, n)
        assert lo == pytest.approx(max(hlo, 0.0), abs=1e-12)
        assert hi == pytest.approx(min(hhi, 1.0), abs=1e-12)
    assert stats.wilson(0, 0) is None


def test_the_confidence_level_gives_back_z() -> None:
    assert st.norm.ppf(0.5 + stats.CONFIDENCE / 2) == pytest.approx(Z, abs=1e-13)


def test_the_mean_interval_is_mean_plus_minus_z_s_over_root_n() -> None:
    rng = random.Random(4)
    xs = [rng.randint(40, 300) for _ in range(57)]
    lo, hi = stats.mean_interval(moments(xs))
    m, s = np.mean(xs), np.std(xs, ddof=1)
    assert lo == pytest.approx(m - Z * s / math.sqrt(len(xs)), abs=1e-9)
    assert hi == pytest.approx(m + Z * s / math.sqrt(len(xs)), abs=1e-9)
    assert stats.mean_interval(moments([5])) is None
    assert stats.mean_interval(moments([5, 5, 5])) == (5.0, 5.0)


def test_exact_moments_of_large_integers() -> None:
    xs = [10**12 + i for i in (0, 1, 2)]
    assert moments(xs).variance == 1.0          # a float sum of squares would lose it


def test_the_ratio_interval_is_the_linearised_ratio_estimator() -> None:
    rng = random.Random(9)
    x = [rng.randint(50, 150) for _ in range(40)]
    y = [rng.randint(0, xi // 5) for xi in x]
    r = RatioSums(len(x), sum(y), sum(x), sum(v * v for v in y), sum(v * v for v in x),
                  sum(a * b for a, b in zip(x, y)))
    R = sum(y) / sum(x)
    resid = np.array(y) - R * np.array(x)
    se = math.sqrt(np.sum(resid ** 2) / (len(x) - 1)) / (math.sqrt(len(x)) * np.mean(x))
    lo, hi = stats.ratio_interval(r)
    assert r.value == pytest.approx(R, abs=1e-15)
    assert (lo, hi) == pytest.approx((R - Z * se, R + Z * se), abs=1e-12)


def test_newcombe_worked_example() -> None:
    """Newcombe (1998), Statistics in Medicine 17:873-890, table II, example (a): 56/70 against
    48/80, method 10 gives 0.0524 to 0.3339 for p1 − p2 (here written B − A)."""
    d = stats.diff_proportions(48, 80, 56, 70)
    assert d.value == pytest.approx(0.2)
    assert d.ci[0] == pytest.approx(0.0524, abs=5e-5)
    assert d.ci[1] == pytest.approx(0.3339, abs=5e-5)


def test_the_proportion_test_is_the_pooled_z_test() -> None:
    k1, n1, k2, n2 = 480, 1000, 530, 1000
    p = (k1 + k2) / (n1 + n2)
    zstat = (k2 / n2 - k1 / n1) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    assert stats.diff_proportions(k1, n1, k2, n2).p == \
        pytest.approx(2 * st.norm.sf(abs(zstat)), rel=1e-9)
    assert stats.diff_proportions(0, 50, 0, 60).p == 1.0


def test_welch_test_and_interval_of_two_means() -> None:
    rng = random.Random(2)
    a = [rng.randint(60, 140) for _ in range(30)]
    b = [rng.randint(70, 170) for _ in range(45)]
    d = stats.diff_means(moments(a), moments(b))
    assert d.p == pytest.approx(st.ttest_ind(b, a, equal_var=False).pvalue, rel=1e-9)
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    se = math.sqrt(va + vb)
    diff = np.mean(b) - np.mean(a)
    # the interval is the test's own statistic: t at Welch's degrees of freedom, not z
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    t = st.t.ppf(0.5 + stats.CONFIDENCE / 2, df)
    assert d.ci == pytest.approx((diff - t * se, diff + t * se), abs=1e-9)
    assert (d.ci[0] > 0) == (d.p < 0.05)


def test_quartiles_are_numpys_default() -> None:
    rng = random.Random(6)
    for n in (1, 2, 3, 10, 101):
        xs = [rng.randint(0, 30) for _ in range(n)]
        h = Histogram()
        for x in xs:
            h.add(x)
        for q in (0.25, 0.5, 0.75):
            assert h.quantile(q) == pytest.approx(float(np.percentile(xs, 100 * q)), abs=1e-12)


def test_games_needed() -> None:
    # a proportion near one half needs ≈ z²/4/0.01² ≈ 9,600 games; none is 0 at p = 0
    assert 9590 <= stats.needed_proportion(0.5) <= 9604
    assert stats.needed_proportion(0.0) == 189
    n = stats.needed_proportion(0.2)
    lo, hi = stats.wilson(round(0.2 * n), n)
    assert hi - lo <= 0.02 + 1e-6
    lo, hi = stats.wilson(round(0.2 * (n - 40)), n - 40)
    assert hi - lo > 0.02
    # a mean: ±1 % of it
    m = Moments(100, 100 * 80, 100 * 80 * 80 + 99 * 20 * 20)   # mean 80, s ≈ 20
    need = stats.needed_mean(m)
    assert Z * m.sd / math.sqrt(need) <= 0.8 < Z * m.sd / math.sqrt(need - 1)
