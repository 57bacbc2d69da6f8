"""The playout metrics of `--metrics` over many games: decisiveness, drama, stability, coverage.

Each game's line carries the integer sums its metrics are made of (`lead` and `board`,
engine/metrics.py); over many games each metric is a ratio of totals ΣY/ΣX (`PLAYOUT` says
which sums), so that the games' lines give every figure exactly. `compare` makes each one a
`Figure` of its arms (compare/tally.py), with its interval and its tests; `simulate --metrics`
prints them with the linearised interval of a ratio (`PlayoutSums.summary`), computed here
without scipy (docs/compare.md, "Playout metrics").
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

#: the normal quantile of the 95 % intervals (as compare/stats.py)
Z = 1.959964

#: the playout metrics, each a ratio of totals over the games' lines: (name, title, numerator,
#: denominator — keys of the line's `lead` or `board` —, the upper bound of the figure, the
#: count of games (units) an exact interval counts where the normal one fails, the sum each
#: of them carries a share of (the numerator), whether it is tested between arms). The samples
#: of one game are not independent: an exact interval counts games, never samples.
PLAYOUT: tuple[tuple[str, str, str, str, float | None, str, str, bool], ...] = (
    ("decisiveness", "decisiveness: share of the lead's samples after the winner led for good",
     "settled", "decided", 1.0, "settled_units", "settled", True),
    ("winner_behind", "drama: share of the samples with the winner behind",
     "behind", "decided", 1.0, "behind_units", "behind", True),
    ("drama", "drama: the winner's mean deficit a sample (of the lead's scale)",
     "deficit", "scaled", None, "behind_units", "deficit", True),
    ("drama_max", "drama: the winner's largest deficit a game (of the lead's scale)",
     "worst", "scale_units", None, "behind_units", "worst", True),
    ("stability", "stability: variance of the lead over a game (of the scale squared)",
     "spread", "spread_scale", None, "units", "spread", True),
    ("coverage", "board coverage: points that held a man (of 24)",
     "covered", "points", 1.0, "units", "covered", True),
    ("coverage_white", "board coverage: points white's men stood on (of 24)",
     "white", "points", 1.0, "units", "white", False),
    ("coverage_black", "board coverage: points black's men stood on (of 24)",
     "black", "points", 1.0, "units", "black", False),
)
#: the names of the playout metrics
PLAYOUT_NAMES = frozenset(p[0] for p in PLAYOUT)
#: the counts an exact interval of a rare metric is made from
EVENTS = ("settled_units", "behind_units", "units")


class Sums:
    """Running sums of Y, X, Y², X², X·Y over games (a ratio ΣY/ΣX whose X varies)."""

    __slots__ = ("y", "x", "yy", "xx", "xy")

    def __init__(self) -> None:
        self.y = self.x = self.yy = self.xx = self.xy = 0

    def add(self, y: int, x: int) -> None:
        self.y += y
        self.x += x
        self.yy += y * y
        self.xx += x * x
        self.xy += x * y


def line_sums(line: dict[str, Any]) -> dict[str, Any] | None:
    """The sums of a line's playout metrics (its `lead` and `board`), None without them."""
    lead = line.get("lead")
    if not isinstance(lead, dict):
        return None
    return {**(line.get("board") or {}), **lead}


class PlayoutSums:
    """The sums of the playout metrics over games' lines, as they come."""

    def __init__(self) -> None:
        #: the games whose lines carry the metrics
        self.games = 0
        self.sums: dict[str, Sums] = {name: Sums() for name in PLAYOUT_NAMES}
        self.events: dict[str, int] = dict.fromkeys(EVENTS, 0)
        #: whether a line's lead was a pip count (its lead changes are then the pip lead's)
        self.pip_lead = False
        #: what the leads were measured in, and how many games each
        self.by: dict[str, int] = {}

    def add(self, line: dict[str, Any]) -> bool:
        """Add a line's metrics; False when it has none."""
        sums = line_sums(line)
        if sums is None:
            return False
        self.games += 1
        by = str(sums.get("by"))
        self.by[by] = self.by.get(by, 0) + 1
        if by == "pips":
            self.pip_lead = True
        for name, _title, y, x, *_rest in PLAYOUT:
            self.sums[name].add(int(sums.get(y, 0)), int(sums.get(x, 0)))
        for key in EVENTS:
            self.events[key] += int(sums.get(key, 0))
        return True

    def summary(self) -> dict[str, Any]:
        """Each metric over the games: its value and 95 % interval (the linearised interval of
        a ratio of totals, within the metric's range), and what the leads were measured in."""
        out: dict[str, Any] = {"games": self.games, "lead_by": dict(self.by)}
        for name, _title, _y, _x, upper, *_rest in PLAYOUT:
            out[name] = ratio_summary(self.games, self.sums[name], upper)
        return out


def ratio_summary(n: int, s: Sums, upper: float | None = None) -> dict[str, Any]:
    """ΣY/ΣX over n games with the interval R ± z·se, se = √(Σ(Y − R·X)²/(n − 1))/(√n·X̄),
    within [0, upper] (None: no value, or no interval under two games)."""
    if not s.x:
        return {"value": None, "ci": None, "n": n}
    r = Fraction(s.y, s.x)
    value = float(r)
    if n < 2:
        return {"value": round(value, 6), "ci": None, "n": n}
    resid = s.yy - 2 * r * s.xy + r * r * s.xx
    xbar = Fraction(s.x, n)
    se = math.sqrt(float(resid / (n - 1) / (n * xbar * xbar)))
    lo, hi = max(0.0, value - Z * se), value + Z * se
    if upper is not None:
        hi = min(upper, hi)
    return {"value": round(value, 6), "ci": [round(lo, 6), round(hi, 6)], "n": n}


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """`simulate --metrics`' metrics as lines of its text summary."""
    by = ", ".join(f"{k} ({n} games)" for k, n in summary.get("lead_by", {}).items())
    lines = ["", f"{'playout metrics':>22}  the lead by {by or '—'}"]
    for name, *_rest in PLAYOUT:
        e = summary.get(name) or {}
        value, ci = e.get("value"), e.get("ci")
        if value is None:
            shown = "—"
        elif ci is None:
            shown = f"{value:.4g}"
        else:
            shown = f"{value:.4g} (95 % interval {ci[0]:.4g}-{ci[1]:.4g})"
        lines.append(f"{name.replace('_', ' '):>22}  {shown}")
    return lines
