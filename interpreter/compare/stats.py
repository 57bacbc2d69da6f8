"""The statistics of `tablier compare`: intervals, tests and games needed (docs/compare.md).

Every interval is a 95 % interval with z = 1.959964. The library routines (scipy) take a
confidence level, not a z: `CONFIDENCE` is the level whose two-sided normal quantile is exactly
`Z`, so `scipy.stats.binomtest(...).proportion_ci(CONFIDENCE, "wilson")` is the Wilson interval
with z = 1.959964 (tests/test_compare_stats.py checks it against the formula written out).

Every interval stays in the range of its figure: a proportion within [0, 1], a count or a rate
within [0, ∞).

- a proportion k/n: the Wilson score interval (a proportion of 0 gets [0, hi], hi > 0);
- a mean count per game: mean ± z·s/√n; where that interval would reach below 0, or every game
  counted 0 (a rule that never fired), the exact Poisson interval of the total count over the
  games (Garwood's, from the χ² quantiles): [0, 3.69/n] for a count of 0 in n games;
- a ratio of totals ΣY/ΣX over games (a rule's firings per throw, its share of the points):
  R ± z·√(Σ(Y − R·X)² / (n − 1)) / (√n · X̄), the linearised (delta-method) interval of a
  ratio estimator, within the figure's range; where it would reach below 0, or the events
  behind it are none, the exact Poisson interval of the events, scaled to the ratio;
- a difference of proportions: Newcombe's hybrid score interval (his method 10) built from the
  two Wilson intervals, and the two-sided χ² test of the 2×2 table without continuity
  correction, or Fisher's exact test when an expected count is below 5;
- a difference of means: the Welch interval d ± t·√(s₁²/n₁ + s₂²/n₂) (t at Welch's degrees of
  freedom) and the p-value of Welch's t test, the same statistic; for rare counts (either arm
  with its exact Poisson interval) the exact conditional test of two Poisson rates (the count
  of one arm given the total is binomial) and the MOVER interval built from the two exact
  intervals, as Newcombe's is from the Wilson intervals;
- a difference of ratios: d ± z·√(se₁² + se₂²) and the two-sided z test of d/se; for rare
  events, the exact conditional test and the MOVER interval, as for counts;
- paired differences (`compare --paired`, game i of each arm played with the same seed and
  dice): the per-game contributions of the two arms are subtracted game by game (the
  linearised ratio estimator makes every figure a mean of such contributions), the interval is
  d ± t·s_d/√n (n − 1 degrees of freedom), the test the paired t test on the same statistic;
  for a proportion or a rare count, the exact sign test (McNemar's exact test for 0/1 figures)
  on the games where the two arms differ. Identical games give a difference of 0, interval
  [0, 0], p = 1.

Multiple tests: every p-value of a report is adjusted by Holm's step-down method over all of the
report's tests (`holm`).

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
from typing import Sequence

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

#: the probability outside a 95 % interval
ALPHA = 1 - CONFIDENCE


def wilson(k: int, n: int) -> Interval | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n <= 0:
        return None
    ci = _st.binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return max(0.0, float(ci.low)), min(1.0, float(ci.high))


def poisson(k: int, exposure: float) -> Interval | None:
    """The exact (Garwood) interval of a Poisson rate: k events over `exposure` (games, throws,
    points). k = 0 gives [0, −ln(α/2)/exposure], 3.69/exposure."""
    if exposure <= 0:
        return None
    lo = 0.0 if k == 0 else float(_st.chi2.ppf(ALPHA / 2, 2 * k)) / 2
    hi = float(_st.chi2.ppf(1 - ALPHA / 2, 2 * k + 2)) / 2
    return lo / exposure, hi / exposure


def mean_method(m: Moments) -> str:
    """How the interval of a mean count per game is made: "normal" (mean ± z·s/√n), "exact"
    (Poisson: the normal interval would reach below 0, or every game counted 0), "point" (a
    positive count the same in every game), "none" (under two games)."""
    if m.n < 2:
        return "none"
    mean, sd = m.mean, m.sd
    assert mean is not None and sd is not None
    if sd == 0:
        return "exact" if mean == 0 else "point"
    return "exact" if mean - Z * sd / math.sqrt(m.n) < 0 else "normal"


def mean_interval(m: Moments) -> Interval | None:
    """mean ± z·s/√n (None below two values), or the exact Poisson interval where that one
    would leave [0, ∞) (`mean_method`). A positive sample without spread has a point interval."""
    how = mean_method(m)
    if how == "none":
        return None
    mean, sd = m.mean, m.sd
    assert mean is not None and sd is not None
    if how == "point":
        return mean, mean
    if how == "exact":
        return poisson(m.total, m.n)
    lo, hi = _st.norm.interval(CONFIDENCE, loc=mean, scale=sd / math.sqrt(m.n))
    return float(lo), float(hi)


def ratio_method(r: RatioSums, events: int | None = None) -> str:
    """"normal" (the linearised interval), "exact" (Poisson on the events: none, or the normal
    interval would reach below 0), "point" (no spread), "none"."""
    value, se = r.value, r.se()
    if value is None or se is None:
        return "none"
    if events is not None and (events == 0 or value - Z * se < 0):
        return "exact"
    if se == 0:
        return "exact" if value == 0 else "point"
    return "exact" if value - Z * se < 0 else "normal"


def ratio_interval(r: RatioSums, events: int | None = None, unit: float = 1.0,
                   upper: float | None = None) -> Interval | None:
    """The linearised interval of ΣY/ΣX within [0, `upper`]; where it is "exact"
    (`ratio_method`), the Poisson interval of the `events` (Y itself when None), each worth
    `unit` of Y, over ΣX."""
    how = ratio_method(r, events)
    if how == "none":
        return None
    value, se = r.value, r.se()
    assert value is not None and se is not None
    if how == "exact":
        k = r.y if events is None else events
        ci = poisson(int(k), r.x)
        assert ci is not None
        lo, hi = ci[0] * unit, ci[1] * unit
    elif how == "point":
        lo, hi = value, value
    else:
        lo, hi = value - Z * se, value + Z * se
    lo = max(0.0, lo)
    if upper is not None:
        hi = min(upper, hi)
    return lo, hi


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


def binomial_p(k: int, n: int, p: float = 0.5) -> float:
    """The two-sided exact binomial test of k in n against p (1 when n is 0)."""
    if n <= 0:
        return 1.0
    return float(_st.binomtest(k, n, p).pvalue)


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the i-th smallest of m is multiplied by m − i + 1
    (from i = 1), each at least the one before, at most 1."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


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


def _mover(d: float, a: float, ia: Interval, b: float, ib: Interval) -> Interval:
    """The MOVER interval of b − a from the intervals of a and b (Newcombe's method 10 for
    proportions, Zou and Donner's for other figures)."""
    lo = d - math.sqrt((b - ib[0]) ** 2 + (ia[1] - a) ** 2)
    hi = d + math.sqrt((ib[1] - b) ** 2 + (a - ia[0]) ** 2)
    return lo, hi


def diff_proportions(k1: int, n1: int, k2: int, n2: int) -> Difference:
    """p₂ − p₁: Newcombe's hybrid score interval; the χ² test of the 2×2 table, or Fisher's
    exact test when an expected count is below 5."""
    w1, w2 = wilson(k1, n1), wilson(k2, n2)
    if w1 is None or w2 is None:
        return Difference(None, None, None, "chi-square (2x2)", None)
    p1, p2 = k1 / n1, k2 / n2
    d = p2 - p1
    lo, hi = _mover(d, p1, w1, p2, w2)
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    total, yes = n1 + n2, k1 + k2
    small = min(yes, total - yes) * min(n1, n2) / total < 5
    test = "Fisher's exact" if small else "chi-square (2x2)"
    if yes == 0 or yes == total:
        p = 1.0                     # both arms all one way: no evidence of a difference
    elif small:
        p = float(_st.fisher_exact(table).pvalue)
    else:
        p = float(_st.chi2_contingency(table, correction=False).pvalue)
    spread = p1 * (1 - p1) + p2 * (1 - p2)
    needed = math.ceil(Z * Z * spread / PRECISION ** 2) if spread else None
    return Difference(d, (max(-1.0, lo), min(1.0, hi)), p, test, needed)


def diff_rates(k1: int, e1: float, k2: int, e2: float, unit1: float = 1.0,
               unit2: float = 1.0) -> Difference:
    """r₂ − r₁ for rare counts, r = k·unit/e: the exact conditional test of two Poisson rates
    (k₂ given k₁ + k₂ is binomial with p = e₂/(e₁ + e₂) when the rates of events are equal) and
    the MOVER interval from the two exact Poisson intervals."""
    test = "exact Poisson (conditional)"
    i1, i2 = poisson(k1, e1), poisson(k2, e2)
    if i1 is None or i2 is None:
        return Difference(None, None, None, test, None)
    r1, r2 = k1 * unit1 / e1, k2 * unit2 / e2
    d = r2 - r1
    lo, hi = _mover(d, r1, (i1[0] * unit1, i1[1] * unit1), r2, (i2[0] * unit2, i2[1] * unit2))
    p = binomial_p(k2, k1 + k2, e2 / (e1 + e2))
    return Difference(d, (lo, hi), p, test, None)


def diff_means(a: Moments, b: Moments) -> Difference:
    """m₂ − m₁: Welch's interval and Welch's t test (the same statistic); rare counts (either
    mean with its exact interval): `diff_rates`."""
    if a.n < 2 or b.n < 2:
        return Difference(None, None, None, "Welch's t", None)
    if "exact" in (mean_method(a), mean_method(b)):
        return diff_rates(a.total, a.n, b.total, b.n)
    test = "Welch's t"
    m1, m2, s1, s2 = a.mean, b.mean, a.sd, b.sd
    assert m1 is not None and m2 is not None and s1 is not None and s2 is not None
    d = m2 - m1
    v1, v2 = s1 * s1 / a.n, s2 * s2 / b.n
    se = math.sqrt(v1 + v2)
    if se == 0:
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, test, None)
    df = (v1 + v2) ** 2 / ((v1 * v1 / (a.n - 1) if v1 else 0.0) +
                           (v2 * v2 / (b.n - 1) if v2 else 0.0))
    t = float(_st.t.ppf(0.5 + CONFIDENCE / 2, df))
    p = float(2 * _st.t.sf(abs(d) / se, df))
    needed = None if m1 == 0 else \
        math.ceil(Z * Z * (s1 * s1 + s2 * s2) / (PRECISION * m1) ** 2)
    return Difference(d, (d - t * se, d + t * se), p, test, needed)


def diff_ratios(a: RatioSums, b: RatioSums, events: tuple[int, int] | None = None,
                units: tuple[float, float] = (1.0, 1.0)) -> Difference:
    """R₂ − R₁: the normal interval of the linearised standard errors and its z test; rare
    events (`events` of either arm none, or its interval exact): `diff_rates` on them."""
    test = "z (ratio estimators)"
    r1, r2, se1, se2 = a.value, b.value, a.se(), b.se()
    if r1 is None or r2 is None or se1 is None or se2 is None:
        return Difference(None, None, None, test, None)
    ea, eb = events if events is not None else (None, None)
    if "exact" in (ratio_method(a, ea), ratio_method(b, eb)):
        ka = a.y if ea is None else ea
        kb = b.y if eb is None else eb
        return diff_rates(int(ka), a.x, int(kb), b.x, *units)
    d = r2 - r1
    se = math.sqrt(se1 * se1 + se2 * se2)
    if se == 0:
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, test, None)
    p = float(2 * _st.norm.sf(abs(d) / se))
    needed = None if r1 == 0 else \
        math.ceil(Z * Z * (a.n * se1 * se1 + b.n * se2 * se2) / (PRECISION * r1) ** 2)
    return Difference(d, (d - Z * se, d + Z * se), p, test, needed)


# -- paired arms ------------------------------------------------------------------------------

@dataclass
class PairedSums:
    """Sums over paired games (game i of arm A and of arm B) of one figure's per-game
    (y, x) in each arm: the figure is ΣY/ΣX in each arm (x = 1 for a mean per game, x = 1 or 0
    for a proportion over some games), and B − A is paired through the linearised
    contributions (Y − R·X)/X̄ of each game. `up` and `down` count the games where B's y is
    above or below A's, for the sign test: of a proportion, only the games in both arms'
    denominators (the same x); of a ratio (`every_game`: firings per throw, points), every
    game, its y being the count of events the test is about."""

    n: int = 0
    ya: int = 0
    xa: int = 0
    yb: int = 0
    xb: int = 0
    yaya: int = 0
    xaxa: int = 0
    yaxa: int = 0
    ybyb: int = 0
    xbxb: int = 0
    ybxb: int = 0
    yayb: int = 0
    yaxb: int = 0
    xayb: int = 0
    xaxb: int = 0
    up: int = 0
    down: int = 0
    every_game: bool = False

    def add(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        ya, xa = a
        yb, xb = b
        self.n += 1
        self.ya += ya
        self.xa += xa
        self.yb += yb
        self.xb += xb
        self.yaya += ya * ya
        self.xaxa += xa * xa
        self.yaxa += ya * xa
        self.ybyb += yb * yb
        self.xbxb += xb * xb
        self.ybxb += yb * xb
        self.yayb += ya * yb
        self.yaxb += ya * xb
        self.xayb += xa * yb
        self.xaxb += xa * xb
        if xa == xb or self.every_game:
            if yb > ya:
                self.up += 1
            elif yb < ya:
                self.down += 1

    def contributions(self) -> tuple[float, float, float] | None:
        """(R_B − R_A, the sample variance of the games' contributions, n), or None."""
        n = self.n
        if n < 2 or not self.xa or not self.xb:
            return None
        ra, rb = Fraction(self.ya, self.xa), Fraction(self.yb, self.xb)
        ma, mb = Fraction(self.xa, n), Fraction(self.xb, n)
        # u = (Yb − Rb·Xb)/x̄b − (Ya − Ra·Xa)/x̄a; Σu = 0, Σu² from the sums, exactly
        bb = (self.ybyb - 2 * rb * self.ybxb + rb * rb * self.xbxb) / (mb * mb)
        aa = (self.yaya - 2 * ra * self.yaxa + ra * ra * self.xaxa) / (ma * ma)
        ab = (self.yayb - rb * self.yaxb - ra * self.xayb + ra * rb * self.xaxb) / (ma * mb)
        var = (bb + aa - 2 * ab) / (n - 1)
        return float(rb - ra), max(0.0, float(var)), n


def diff_paired(s: PairedSums, sign_test: bool, relative_to: float | None = None,
                proportion: bool = False) -> Difference:
    """B − A over paired games: d ± t·s/√n (n − 1 degrees of freedom) with the paired t test,
    or, with `sign_test` (a proportion, a rare count), the exact sign test on the games where
    the arms differ (McNemar's exact test for 0/1 figures). Games needed: per arm, for ±1
    point (a proportion) or ±1 % of `relative_to` on the difference."""
    c = s.contributions()
    test = "exact sign test (paired)" if sign_test else "paired t"
    if proportion and sign_test:
        test = "McNemar's exact (paired)"
    if c is None:
        return Difference(None, None, None, test, None)
    d, var, n = c
    sd = math.sqrt(var)
    if sd == 0:
        p = 1.0 if d == 0 and s.up == s.down else \
            (binomial_p(s.up, s.up + s.down) if sign_test else 0.0)
        return Difference(d, (d, d), p, test, None)
    t = float(_st.t.ppf(0.5 + CONFIDENCE / 2, n - 1))
    half = t * sd / math.sqrt(n)
    if sign_test:
        p = binomial_p(s.up, s.up + s.down)
    else:
        p = float(2 * _st.t.sf(abs(d) / (sd / math.sqrt(n)), n - 1))
    eps = PRECISION if proportion else (None if not relative_to else PRECISION * abs(relative_to))
    needed = None if eps is None else math.ceil((Z * sd / eps) ** 2)
    return Difference(d, (d - half, d + half), p, test, needed)


# -- several arms, several replicates -----------------------------------------------------------

@dataclass(frozen=True)
class Test:
    """A test across several groups (arms, or the replicates of one arm): its name, statistic,
    degrees of freedom (a pair for an F test), p-value, and how the p-value was found
    ("asymptotic", or "Monte Carlo" with `MC_TABLES` random tables of the same margins)."""

    test: str
    statistic: float
    df: int | tuple[int, int]
    p: float
    method: str = "asymptotic"

    def json(self) -> dict[str, object]:
        return {"test": self.test, "statistic": self.statistic,
                "df": list(self.df) if isinstance(self.df, tuple) else self.df,
                "p_value": self.p, "method": self.method}


#: the random tables of a Monte Carlo test, and the seed they are drawn from (a report is the
#: same at every run)
MC_TABLES = 9999
MC_SEED = 20240521
#: an expected count below this makes a χ² test's p-value Monte Carlo instead of asymptotic
SMALL_EXPECTED = 5.0


def _mc_p(observed: float, simulated: object) -> float:
    """(1 + #{simulated ≥ observed}) / (B + 1), with a tolerance for rounding."""
    import numpy as np

    sims = np.asarray(simulated, dtype=float)
    hits = int(np.count_nonzero(sims >= observed * (1 - 1e-12) - 1e-12))
    return (1 + hits) / (len(sims) + 1)


def chi2_rows(rows: Sequence[tuple[int, int]]) -> Test | None:
    """Homogeneity of proportions k_i/n_i across groups: Pearson's χ² of the groups × 2 table
    [[k_i, n_i − k_i]] (groups with n_i = 0 left out), df = groups − 1, its p from the χ²
    distribution (scipy.stats.chi2_contingency, no continuity correction), or, where an
    expected count is below 5, the Monte Carlo p of the same statistic over `MC_TABLES`
    tables with the same margins (multivariate hypergeometric). None under two groups;
    statistic 0 and p = 1 when every group is all one way."""
    rows = [(int(k), int(n)) for k, n in rows if n > 0]
    if len(rows) < 2:
        return None
    ks = [k for k, _ in rows]
    ns = [n for _, n in rows]
    big_n, big_k = sum(ns), sum(ks)
    df = len(rows) - 1
    if big_k == 0 or big_k == big_n:
        return Test("chi-square", 0.0, df, 1.0)
    table = [[k, n - k] for k, n in rows]
    stat = float(_st.chi2_contingency(table, correction=False).statistic)
    small = min(min(n * big_k, n * (big_n - big_k)) for n in ns) / big_n < SMALL_EXPECTED
    if not small:
        return Test("chi-square", stat, df, float(_st.chi2.sf(stat, df)))
    import numpy as np

    rng = np.random.default_rng(MC_SEED)
    n_arr = np.array(ns, dtype=np.int64)
    draws = rng.multivariate_hypergeometric(n_arr, big_k, size=MC_TABLES)
    expected = n_arr * big_k / big_n
    # the statistic of a k×2 table: Σ (x − e)²·(1/e + 1/f), f = n − e the expected failures
    weight = 1 / expected + 1 / (n_arr - expected)
    sims = ((draws - expected) ** 2 * weight).sum(axis=1)
    return Test("chi-square", stat, df, _mc_p(stat, sims), "Monte Carlo")


def kruskal_counts(groups: Sequence[dict[int, int]]) -> Test | None:
    """The Kruskal–Wallis test of groups of integers given as histograms ({value: count}):
    the values ranked together (tied values at their mean rank), R_i each group's rank sum,
    H = 12/(N(N + 1))·Σ R_i²/n_i − 3(N + 1), divided by the tie correction
    1 − Σ(t³ − t)/(N³ − N); df = groups − 1, p from the χ² distribution. Exact arithmetic up
    to the last division. None under two non-empty groups or when every value is the same."""
    groups = [g for g in groups if sum(g.values())]
    if len(groups) < 2:
        return None
    ns = [sum(g.values()) for g in groups]
    big_n = sum(ns)
    rank_sums = [Fraction(0)] * len(groups)
    below = 0
    ties = 0
    for v in sorted(set().union(*groups)):
        t = sum(g.get(v, 0) for g in groups)
        mean_rank = Fraction(2 * below + t + 1, 2)
        for i, g in enumerate(groups):
            c = g.get(v, 0)
            if c:
                rank_sums[i] += c * mean_rank
        below += t
        ties += t * t * t - t
    correction = 1 - Fraction(ties, big_n ** 3 - big_n)
    if correction == 0:
        return None
    h = (Fraction(12, big_n * (big_n + 1)) * sum(r * r / n for r, n in zip(rank_sums, ns))
         - 3 * (big_n + 1)) / correction
    df = len(groups) - 1
    stat = max(0.0, float(h))
    return Test("Kruskal-Wallis", stat, df, float(_st.chi2.sf(stat, df)))


def anova_moments(groups: Sequence[Moments]) -> Test | None:
    """The classic one-way analysis of variance from each group's (n, Σx, Σx²): between-group
    sum of squares Σ n_i(m_i − m)², within-group Σ(Σx² − n_i·m_i²), F on (k − 1, N − k)
    degrees of freedom (exact arithmetic up to the last division). None under two groups or
    without a degree of freedom within them; without spread within the groups, p = 1 if the
    means agree, else 0."""
    groups = [g for g in groups if g.n]
    k = len(groups)
    big_n = sum(g.n for g in groups)
    if k < 2 or big_n - k < 1:
        return None
    grand = Fraction(sum(g.total for g in groups), big_n)
    between = sum(g.n * (Fraction(g.total, g.n) - grand) ** 2 for g in groups)
    within = sum(g.squares - Fraction(g.total * g.total, g.n) for g in groups)
    df = (k - 1, big_n - k)
    if within == 0:
        return Test("one-way ANOVA (F)", math.inf if between else 0.0, df,
                    0.0 if between else 1.0)
    f = float((between / df[0]) / (within / df[1]))
    return Test("one-way ANOVA (F)", f, df, float(_st.f.sf(f, *df)))


def cochran_q(estimates: Sequence[tuple[float, float]]) -> Test | None:
    """Cochran's Q of homogeneity of estimates with standard errors (R_i, se_i): the weights
    w_i = 1/se_i², the pooled R̂ = Σw_iR_i/Σw_i, Q = Σw_i(R_i − R̂)² on k − 1 degrees of
    freedom. None under two estimates or with a standard error of 0."""
    est = [(r, se) for r, se in estimates]
    if len(est) < 2 or any(not se for _, se in est):
        return None
    w = [1 / (se * se) for _, se in est]
    pooled = sum(wi * r for wi, (r, _) in zip(w, est)) / sum(w)
    q = sum(wi * (r - pooled) ** 2 for wi, (r, _) in zip(w, est))
    df = len(est) - 1
    return Test("Cochran's Q", q, df, float(_st.chi2.sf(q, df)))


def poisson_homogeneity(counts: Sequence[tuple[int, float]]) -> Test | None:
    """Homogeneity of Poisson rates k_i/e_i (events over exposures: games, throws, points):
    the dispersion statistic X² = Σ(k_i − K·e_i/E)²/(K·e_i/E) on k − 1 degrees of freedom,
    its p from the χ² distribution, or where an expected count is below 5, by Monte Carlo over
    `MC_TABLES` multinomial draws of the K events in proportion to the exposures (the exact
    conditional distribution). None under two groups with exposure; p = 1 without events."""
    rows = [(int(k), float(e)) for k, e in counts if e > 0]
    if len(rows) < 2:
        return None
    df = len(rows) - 1
    big_k = sum(k for k, _ in rows)
    big_e = sum(e for _, e in rows)
    if big_k == 0:
        return Test("Poisson dispersion (chi-square)", 0.0, df, 1.0)
    expected = [big_k * e / big_e for _, e in rows]
    stat = sum((k - m) ** 2 / m for (k, _), m in zip(rows, expected))
    if min(expected) >= SMALL_EXPECTED:
        return Test("Poisson dispersion (chi-square)", stat, df, float(_st.chi2.sf(stat, df)))
    import numpy as np

    rng = np.random.default_rng(MC_SEED)
    probs = np.array([e / big_e for _, e in rows])
    draws = rng.multinomial(big_k, probs, size=MC_TABLES)
    m = np.array(expected)
    sims = ((draws - m) ** 2 / m).sum(axis=1)
    return Test("Poisson dispersion (chi-square)", stat, df, _mc_p(stat, sims), "Monte Carlo")


@dataclass
class Friedman:
    """The Friedman test of k paired arms, summed game by game (each game a block): each
    game's values ranked across the arms (ties at their mean rank), the rank sums R_j and the
    ties. χ²_F = (12/(n·k(k + 1))·ΣR_j² − 3n(k + 1)) / (1 − Σ(t³ − t)/(n·k(k² − 1))), k − 1
    degrees of freedom (as scipy.stats.friedmanchisquare)."""

    k: int
    n: int = 0
    ties: int = 0
    rank_sums: list[Fraction] | None = None

    def add(self, values: Sequence[int]) -> None:
        if self.rank_sums is None:
            self.rank_sums = [Fraction(0)] * self.k
        order = sorted(set(values))
        below = 0
        ranks: dict[int, Fraction] = {}
        for v in order:
            t = values.count(v)
            ranks[v] = Fraction(2 * below + t + 1, 2)
            below += t
            self.ties += t * t * t - t
        for j, v in enumerate(values):
            self.rank_sums[j] += ranks[v]
        self.n += 1

    def test(self) -> Test | None:
        k, n = self.k, self.n
        if n < 1 or self.rank_sums is None:
            return None
        correction = 1 - Fraction(self.ties, n * k * (k * k - 1))
        if correction == 0:
            return None
        stat = (Fraction(12, n * k * (k + 1)) * sum(r * r for r in self.rank_sums)
                - 3 * n * (k + 1)) / correction
        s = max(0.0, float(stat))
        return Test("Friedman", s, k - 1, float(_st.chi2.sf(s, k - 1)))


@dataclass
class CochranQ:
    """Cochran's Q test of a 0/1 figure over k paired arms (each game a block): C_j each arm's
    total, T_i each game's, N = ΣC_j; Q = (k − 1)(k·ΣC_j² − N²)/(k·N − ΣT_i²), k − 1
    degrees of freedom."""

    k: int
    n: int = 0
    tt: int = 0
    columns: list[int] | None = None

    def add(self, values: Sequence[int]) -> None:
        if self.columns is None:
            self.columns = [0] * self.k
        for j, v in enumerate(values):
            self.columns[j] += v
        t = sum(values)
        self.tt += t * t
        self.n += 1

    def test(self) -> Test | None:
        k = self.k
        if self.columns is None:
            return None
        big_n = sum(self.columns)
        denominator = k * big_n - self.tt
        if denominator == 0:
            return None
        q = Fraction((k - 1) * (k * sum(c * c for c in self.columns) - big_n * big_n),
                     denominator)
        s = max(0.0, float(q))
        return Test("Cochran's Q", s, k - 1, float(_st.chi2.sf(s, k - 1)))
