"""The statistics of `tablier compare`: intervals, tests and games needed (docs/compare.md).

Every interval is a 95 % interval with z = 1.959964. The library routines (scipy) take a
confidence level, not a z: `CONFIDENCE` is the level whose two-sided normal quantile is exactly
`Z`, so `scipy.stats.binomtest(...).proportion_ci(CONFIDENCE, "wilson")` is the Wilson interval
with z = 1.959964 (tests/test_compare_stats.py checks it against the formula written out).

- a proportion k/n: the Wilson score interval;
- a mean: mean ± z·s/√n, s the sample standard deviation (n − 1);
- a ratio of totals ΣY/ΣX over games (a rule's firings per throw, its share of the points):
  R ± z·√(Σ(Y − R·X)² / (n − 1)) / (√n · X̄), the linearised (delta-method) interval of a
  ratio estimator;
- a difference of proportions: Newcombe's hybrid score interval (his method 10) built from the
  two Wilson intervals, and the p-value of the two-sided χ² test of the 2×2 table without
  continuity correction (the pooled two-proportion z test);
- a difference of means: d ± z·√(s₁²/n₁ + s₂²/n₂), and the p-value of Welch's t test;
- a difference of ratios: d ± z·√(se₁² + se₂²), and the two-sided z test of d/se.

Games needed: for a proportion p, the smallest n whose Wilson interval at p is ±1 percentage
point (≈ z²·p(1 − p)/0.01²); for a
mean m with standard deviation s, ⌈(z·s/(0.01·|m|))²⌉ give ±1 % of the mean; for a ratio, the
same with its standard error scaled to one game; for a difference, the games of each arm that
give ±1 point (±1 % of the first arm's figure) on the difference.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from scipy import stats as _st

#: the normal quantile of the 95 % intervals
Z = 1.959964
#: the confidence level whose two-sided normal quantile is `Z` (for the library routines)
CONFIDENCE = float(1 - 2 * _st.norm.sf(Z))
#: the half-width that "games needed" aims at: one percentage point, or 1 % of a mean
PRECISION = 0.01

Interval = tuple[float, float]


# -- accumulated samples ----------------------------------------------------------------------

@dataclass(frozen=True)
class Moments:
    """A sample of integers summed up: n, Σx, Σx² (exact), from which the mean and the sample
    variance are computed exactly before rounding to a float."""

    n: int
    total: int
    squares: int

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float | None:
        """The sample variance (n − 1), computed in exact arithmetic."""
        if self.n < 2:
            return None
        return float(Fraction(self.n * self.squares - self.total * self.total,
                              self.n * (self.n - 1)))

    @property
    def sd(self) -> float | None:
        v = self.variance
        return None if v is None else math.sqrt(v)


@dataclass(frozen=True)
class RatioSums:
    """Sums over games of Y and X (Y a rule's firings or points, X throws or all points), their
    squares and their products: what a ratio ΣY/ΣX and its interval need."""

    n: int
    y: int
    x: int
    yy: int
    xx: int
    xy: int

    @property
    def value(self) -> float | None:
        return self.y / self.x if self.x else None

    def se(self) -> float | None:
        """The standard error of ΣY/ΣX, linearised: √(Σ(Y − R·X)²/(n − 1)) / (√n·X̄)."""
        if self.n < 2 or not self.x:
            return None
        r = Fraction(self.y, self.x)
        # Σ(Y − R·X)² = ΣY² − 2R·ΣXY + R²·ΣX², exactly
        resid = self.yy - 2 * r * self.xy + r * r * self.xx
        var = resid / (self.n - 1)
        xbar = Fraction(self.x, self.n)
        return math.sqrt(float(var / (self.n * xbar * xbar)))


# -- one arm ----------------------------------------------------------------------------------

def wilson(k: int, n: int) -> Interval | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n <= 0:
        return None
    ci = _st.binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return float(ci.low), float(ci.high)


def mean_interval(m: Moments) -> Interval | None:
    """mean ± z·s/√n (None below two values). A sample without spread has a point interval."""
    if m.n < 2:
        return None
    mean, sd = m.mean, m.sd
    assert mean is not None and sd is not None
    if sd == 0:
        return mean, mean
    lo, hi = _st.norm.interval(CONFIDENCE, loc=mean, scale=sd / math.sqrt(m.n))
    return float(lo), float(hi)


def ratio_interval(r: RatioSums) -> Interval | None:
    value, se = r.value, r.se()
    if value is None or se is None:
        return None
    return value - Z * se, value + Z * se


def needed_proportion(p: float | None) -> int | None:
    """Games for ±1 percentage point at proportion p: the smallest n whose Wilson interval
    at p is at most two points wide. The width 2z·√(npq + z²/4)/(n + z²) is at most 2ε when
    ε²n² + (2ε²z² − z²pq)·n + ε²z⁴ − z⁴/4 ≥ 0: n is the larger root, rounded up (≈ z²pq/ε²
    away from 0 and 1; 189 at p = 0, where the normal approximation would say 0)."""
    if p is None:
        return None
    e2, z2, pq = PRECISION ** 2, Z * Z, p * (1 - p)
    b = 2 * e2 * z2 - z2 * pq
    c = e2 * z2 * z2 - z2 * z2 / 4
    root = (-b + math.sqrt(b * b - 4 * e2 * c)) / (2 * e2)
    return max(1, math.ceil(root - 1e-9))


def needed_mean(m: Moments) -> int | None:
    """Games for ±1 % of the mean (None for a mean of 0 or a sample without spread)."""
    mean, sd = m.mean, m.sd
    if mean is None or not sd or mean == 0:
        return None
    return math.ceil((Z * sd / (PRECISION * abs(mean))) ** 2)


def needed_ratio(r: RatioSums) -> int | None:
    """Games for ±1 % of a ratio (its standard error scaled to one game)."""
    value, se = r.value, r.se()
    if value is None or not se or value == 0:
        return None
    return math.ceil(r.n * (Z * se / (PRECISION * abs(value))) ** 2)


# -- two arms ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    """B − A with its 95 % interval, the p-value of a two-sample test, its name, and the games
    of each arm that would give ±1 point (or ±1 % of A) on the difference."""

    value: float | None
    ci: Interval | None
    p: float | None
    test: str
    needed: int | None


def diff_proportions(k1: int, n1: int, k2: int, n2: int) -> Difference:
    """p₂ − p₁: Newcombe's hybrid score interval and the χ² test of the 2×2 table."""
    test = "chi-square (2x2)"
    w1, w2 = wilson(k1, n1), wilson(k2, n2)
    if w1 is None or w2 is None:
        return Difference(None, None, None, test, None)
    p1, p2 = k1 / n1, k2 / n2
    d = p2 - p1
    (l1, u1), (l2, u2) = w1, w2
    lo = d - math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    hi = d + math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    if (k1 + k2 == 0) or (k1 + k2 == n1 + n2):
        p = 1.0                     # both arms all one way: no evidence of a difference
    else:
        table = [[k1, n1 - k1], [k2, n2 - k2]]
        p = float(_st.chi2_contingency(table, correction=False).pvalue)
    spread = p1 * (1 - p1) + p2 * (1 - p2)
    needed = math.ceil(Z * Z * spread / PRECISION ** 2) if spread else None
    return Difference(d, (lo, hi), p, test, needed)


def diff_means(a: Moments, b: Moments) -> Difference:
    """m₂ − m₁: the normal interval and Welch's t test."""
    test = "Welch's t"
    if a.n < 2 or b.n < 2:
        return Difference(None, None, None, test, None)
    m1, m2, s1, s2 = a.mean, b.mean, a.sd, b.sd
    assert m1 is not None and m2 is not None and s1 is not None and s2 is not None
    d = m2 - m1
    se = math.sqrt(s1 * s1 / a.n + s2 * s2 / b.n)
    if se == 0:
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, test, None)
    p = float(_st.ttest_ind_from_stats(m1, s1, a.n, m2, s2, b.n, equal_var=False).pvalue)
    needed = None if m1 == 0 else \
        math.ceil(Z * Z * (s1 * s1 + s2 * s2) / (PRECISION * m1) ** 2)
    return Difference(d, (d - Z * se, d + Z * se), p, test, needed)


def diff_ratios(a: RatioSums, b: RatioSums) -> Difference:
    """R₂ − R₁: the normal interval of the linearised standard errors and its z test."""
    test = "z (ratio estimators)"
    r1, r2, se1, se2 = a.value, b.value, a.se(), b.se()
    if r1 is None or r2 is None or se1 is None or se2 is None:
        return Difference(None, None, None, test, None)
    d = r2 - r1
    se = math.sqrt(se1 * se1 + se2 * se2)
    if se == 0:
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, test, None)
    p = float(2 * _st.norm.sf(abs(d) / se))
    needed = None if r1 == 0 else \
        math.ceil(Z * Z * (a.n * se1 * se1 + b.n * se2 * se2) / (PRECISION * r1) ** 2)
    return Difference(d, (d - Z * se, d + Z * se), p, test, needed)
