"""The plots of `tablier compare`: drawn once by matplotlib, embedded in the HTML report as
inline SVG, and written by `--figures DIR` as SVG and PDF files (docs/compare.md).

Every plot is a `Plot`: a stable file name (`win-rates`, `length-throws`, `worth`, ...), a
title, a caption and the matplotlib figure. The arms are told apart by colour (Okabe and Ito's
colour-blind-safe set), marker and line style together, and every legend names each arm with
its letter and its players, so that two arms with the same results (a variant compared with
itself, a rule that changes nothing) are still seen as two: their markers are set side by side
(dodged), never drawn on top of each other. Proportions and shares are drawn on a linear axis.

The files are deterministic: the same result gives the same bytes (the SVG ids are hashed with
a fixed salt, and neither file carries a date).
"""
from __future__ import annotations

import contextlib
import io
import math
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from interpreter.compare.tally import Figure, Histogram
from interpreter.errors import TablierError

#: colours of the arms (colour-blind safe: Okabe and Ito's, their yellow, too pale on white
#: paper, replaced by Tol's olive)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#999933",
           "#000000")
#: markers and line styles of the arms, cycling at other periods than the colours
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (6, 2)), (0, (3, 1, 1, 1, 1, 1)),
                               (0, (1, 1)), (0, (8, 2, 2, 2)), (0, (4, 4)))

#: matplotlib settings of every plot: text drawn as paths in the SVG (no font needed by the
#: reader), fonts embedded as TrueType in the PDF, a fixed salt for the SVG's ids
RC: dict[str, Any] = {"svg.hashsalt": "tablier-compare", "svg.fonttype": "path",
                      "pdf.fonttype": 42, "font.size": 8.5, "axes.titlesize": 9,
                      "axes.labelsize": 8.5, "legend.fontsize": 7.5, "xtick.labelsize": 7.5,
                      "ytick.labelsize": 7.5, "axes.spines.top": False,
                      "axes.spines.right": False}

#: the width of every plot, in inches: the text width of an A4 page with 12 mm margins
WIDTH = 7.0


@dataclass
class Plot:
    """One figure of the report: `name` is its file name without the extension."""

    name: str
    title: str
    caption: str
    figure: Any


# -- arms ----------------------------------------------------------------------------------


def letter(i: int) -> str:
    """The arm's letter in every table and legend: A, B, ..., Z."""
    return chr(ord("A") + i) if i < 26 else f"A{i}"


def arm_name(a: dict[str, Any]) -> str:
    """An arm's label with its players: "triktrak (search:1 v random)"."""
    pl = a.get("players") or {}
    return f"{a['label']} ({pl.get('white', '?')} v {pl.get('black', '?')})"


def legend_name(i: int, a: dict[str, Any]) -> str:
    return f"{letter(i)}  {arm_name(a)}"


@dataclass(frozen=True)
class Style:
    colour: str
    marker: str
    linestyle: Any


def style(i: int) -> Style:
    return Style(COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)],
                 LINESTYLES[i % len(LINESTYLES)])


def dodge(j: int, n: int, span: float) -> float:
    """The offset of the j-th of n marks set side by side within `span`."""
    return 0.0 if n <= 1 else (j - (n - 1) / 2) * span / n


# -- drawing -------------------------------------------------------------------------------


def check_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TablierError("the plots of compare (--html, --figures) are drawn with "
                           "matplotlib: pip install 'tablier[report]'") from None


@contextlib.contextmanager
def _rc() -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        yield


def _new(height: float, width: float = WIDTH) -> Any:
    from matplotlib.figure import Figure as MplFigure

    return MplFigure(figsize=(width, height), dpi=100)


def _legend(fig: Any, handles: Sequence[Any], labels: Sequence[str]) -> None:
    """The legend above the plot, every arm named with its letter and players."""
    if not handles:
        return
    ncol = 1 if max(len(t) for t in labels) > 44 else 2
    # matplotlib fills a legend column by column: reorder so that it reads row by row
    order = [i for col in range(ncol) for i in range(col, len(labels), ncol)]
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    fig.legend(handles, labels, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=ncol,
               frameon=False, handlelength=3.2, borderaxespad=0.2)


def _proxy(i: int) -> Any:
    """A legend entry showing the arm's colour, marker and line style."""
    from matplotlib.lines import Line2D

    s = style(i)
    return Line2D([], [], color=s.colour, marker=s.marker, linestyle=s.linestyle, lw=1.3,
                  ms=5)


def _arms_legend(fig: Any, result: dict[str, Any], indices: Sequence[int]) -> None:
    arms = result["arms"]
    _legend(fig, [_proxy(i) for i in indices], [legend_name(i, arms[i]) for i in indices])


def _tag(artist: Any, i: int) -> None:
    """Name the artist's group in the SVG `arm-I-K` (arm I, its K-th mark in the figure): a
    reader of the file, or a test, finds each arm's marks."""
    fig = artist.figure
    k = getattr(fig, "_tablier_marks", 0)
    fig._tablier_marks = k + 1
    artist.set_gid(f"arm-{i}-{k}")


def _interval(ax: Any, i: int, x: float, y: float, lo: float | None, hi: float | None, *,
              horizontal: bool = True, ms: float = 5.0, **kw: Any) -> None:
    """A point with its interval, in the arm's colour and marker; the group named arm-i."""
    s = style(i)
    lo = x if lo is None else lo
    hi = x if hi is None else hi
    err = [[max(0.0, x - lo)], [max(0.0, hi - x)]]
    bars = ax.errorbar([x] if horizontal else [y], [y] if horizontal else [x],
                       xerr=err if horizontal else None, yerr=None if horizontal else err,
                       fmt=s.marker, color=s.colour, ms=ms, capsize=2.5, lw=1.1,
                       **kw)
    _tag(bars[0], i)


def _group_axis(ax: Any, names: Sequence[str], centres: Sequence[float]) -> None:
    ax.set_yticks(list(centres), list(names))
    for k in range(len(centres) - 1):
        ax.axhline((centres[k] + centres[k + 1]) / 2, color="#ddd", lw=0.6)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color="#eee", lw=0.6)
    ax.set_axisbelow(True)


def _rows(groups: Sequence[Sequence[int]], per_mark: float = 0.16, gap: float = 0.22
          ) -> tuple[list[float], list[list[float]], float]:
    """Vertical places for groups of marks, top to bottom: each group's centre, each mark's
    y, and the height the groups take, in inches (y is in inches too)."""
    centres, ys = [], []
    y = 0.0
    for g in groups:
        h = per_mark * max(1, len(g))
        marks = [y - gap / 2 - per_mark * (j + 0.5) for j in range(len(g))]
        ys.append(marks)
        centres.append(y - gap / 2 - h / 2)
        y -= h + gap
    return centres, ys, -y


# -- the plots -----------------------------------------------------------------------------


def _get(a: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The JSON object of the arm's figure `path` ("win_rate.white", "rules.R.per_game")."""
    node: Any = a
    if path.startswith("rules."):
        rule, _, what = path[len("rules."):].rpartition(".")
        node = (a.get("rules") or {}).get(rule)
        return None if node is None else node.get(what)
    head, _, rest = path.partition(".")
    node = a.get(head)
    if rest and isinstance(node, dict):
        node = node.get(rest)
    return node if isinstance(node, dict) else None


def _value(e: dict[str, Any] | None) -> float | None:
    if e is None:
        return None
    v = e.get("value", e.get("mean"))
    return None if v is None else float(v)


def plot_win_rates(result: dict[str, Any]) -> Plot | None:
    arms = result["arms"]
    rows: list[tuple[str, str]] = [("the first to throw wins", "first_player_win_rate"),
                                   ("white wins", "win_rate.white"),
                                   ("black wins", "win_rate.black")]
    if any(a.get("draws") for a in arms):
        rows.append(("drawn (of all games)", "draw_rate"))
    groups = [[i for i, a in enumerate(arms) if _value(_get(a, key)) is not None]
              for _t, key in rows]
    if not any(groups):
        return None                     # no game decided: nothing to draw
    centres, ys, height = _rows(groups)
    fig = _new(height + 0.65)
    ax = fig.add_axes((0.2, 0.55 / (height + 0.65), 0.77, height / (height + 0.65)))
    xs = []
    for (_title, key), members, marks in zip(rows, groups, ys):
        for i, y in zip(members, marks):
            e = _get(arms[i], key)
            assert e is not None
            v = 100 * float(e["value"])
            lo, hi = (100 * c for c in e["ci"]) if e.get("ci") else (v, v)
            xs += [lo, hi]
            _interval(ax, i, v, y, lo, hi)
    ax.axvline(50, color="#888", lw=0.8, ls="--", zorder=0)
    left, right = min(xs + [50.0]), max(xs + [50.0])
    pad = max(2.0, (right - left) * 0.05)
    ax.set_xlim(max(0.0, left - pad), min(100.0, right + pad))
    ax.set_ylim(-height, 0)
    _group_axis(ax, [t for t, _k in rows], centres)
    ax.set_xlabel("% of the decided games (drawn: of all games), with 95 % Wilson intervals")
    _arms_legend(fig, result, range(len(arms)))
    return Plot("win-rates", "win rates", "Win rates with their 95 % Wilson intervals, over "
                "the decided games (the drawn games over all games); the dashed line is 50 %. "
                "Each arm has its own row, colour and marker.", fig)


def _hist(figures: Sequence[list[Figure]], i: int, name: str) -> Histogram | None:
    if i >= len(figures):
        return None
    f = next((f for f in figures[i] if f.name == name), None)
    h = f.histogram if f is not None else None
    return h if h is not None and h.n else None


def _bins(values: Sequence[int], log: bool, count: int = 40) -> list[float]:
    lo, hi = min(values), max(values)
    if log:
        a, b = math.log(max(0.5, lo - 0.5)), math.log(hi + 0.5)
        return [math.exp(a + (b - a) * k / count) for k in range(count + 1)]
    width = max(1, math.ceil((hi - lo + 1) / count))
    return [lo - 0.5 + width * k for k in range(math.ceil((hi - lo + 1) / width) + 1)]


def _polygon(ax: Any, i: int, h: Histogram, edges: Sequence[float], log: bool, j: int,
             n: int) -> None:
    """The arm's distribution as a frequency polygon: % of games per bin, its markers (on the
    bins with games) set beside the other arms' in the same bin."""
    pct = [0.0] * (len(edges) - 1)
    for x, k in h.counts.items():
        b = 0
        while b < len(pct) - 1 and x >= edges[b + 1]:
            b += 1
        pct[b] += 100 * k / h.n
    if log:
        centres = [math.sqrt(edges[b] * edges[b + 1]) for b in range(len(pct))]
        step = math.log(edges[1] / edges[0])
        xs = [c * math.exp(dodge(j, n, 0.8 * step)) for c in centres]
    else:
        width = edges[1] - edges[0]
        xs = [(edges[b] + edges[b + 1]) / 2 + dodge(j, n, 0.8 * width)
              for b in range(len(pct))]
    s = style(i)
    line, = ax.plot(xs, pct, color=s.colour, ls=s.linestyle, lw=1.2, marker=s.marker, ms=3.2,
                    markevery=[b for b, p in enumerate(pct) if p > 0])
    _tag(line, i)


def plot_length(result: dict[str, Any], figures: Sequence[list[Figure]], name: str,
                unit: str) -> Plot | None:
    """The distribution of the length (frequency polygons) over one row per arm: the
    quartiles as a bar, the median as a tick, the mean with its 95 % interval."""
    arms = result["arms"]
    summary: list[tuple[int, dict[str, Any]]] = []
    for i, a in enumerate(arms):
        got = _get(a, name)
        if got is not None and got.get("mean") is not None:
            summary.append((i, got))
    if not summary:
        return None
    hists = {i: h for i in range(len(arms)) if (h := _hist(figures, i, name)) is not None}
    values = sorted({x for h in hists.values() for x in h.counts})
    if len(values) < 2 and all((e.get("q1"), e.get("q3")) == (e["mean"], e["mean"])
                               for _i, e in summary):
        return None                     # every game as long: nothing to draw
    medians = [e.get("median") or e["mean"] for _i, e in summary]
    log = min(medians) > 0 and max(medians) / min(medians) > 4
    top = 2.4 if len(values) >= 2 else 0.0
    rows = 0.22 * len(summary) + 0.3
    fig = _new(top + rows + 1.3)
    if top:
        ax, bx = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [top, rows],
                                                              "hspace": 0.08})
        edges = _bins(values, log)
        for j, (i, h) in enumerate(sorted(hists.items())):
            _polygon(ax, i, h, edges, log, j, len(hists))
        ax.set_ylabel("% of games per bin")
        ax.set_ylim(bottom=0)
        ax.grid(color="#eee", lw=0.6)
        ax.set_axisbelow(True)
    else:
        bx = fig.subplots(1, 1)
    for k, (i, e) in enumerate(summary):
        y = -k
        s = style(i)
        if e.get("q1") is not None and e.get("q3") is not None:
            bx.plot([e["q1"], e["q3"]], [y, y], color=s.colour, lw=6, alpha=0.3,
                    solid_capstyle="butt")
        if e.get("median") is not None:
            bx.plot([e["median"]], [y], marker="|", ms=11, mew=1.6, color=s.colour)
        lo, hi = e["ci"] if e.get("ci") else (None, None)
        _interval(bx, i, float(e["mean"]), y, lo, hi, ms=4.5)
    bx.set_yticks([-k for k in range(len(summary))],
                  [f"{letter(i)}  {arms[i]['label']}" for i, _e in summary])
    bx.set_ylim(-len(summary) + 0.5, 0.5)
    bx.tick_params(axis="y", length=0)
    bx.grid(axis="x", color="#eee", lw=0.6)
    bx.set_axisbelow(True)
    if log:
        bx.set_xscale("log")
        from matplotlib.ticker import LogLocator, ScalarFormatter
        bx.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        bx.xaxis.set_major_formatter(ScalarFormatter())
        bx.xaxis.set_minor_formatter("")
    bx.set_xlabel(f"length in {unit}" + (" (logarithmic axis)" if log else "") +
                  ": bar from the first to the third quartile, | the median, "
                  "marker the mean with its 95 % interval")
    fig.subplots_adjust(left=0.2, right=0.97, top=1 - 0.15 / (top + rows + 1.3),
                        bottom=0.55 / (top + rows + 1.3))
    _arms_legend(fig, result, [i for i, _e in summary])
    slug = re.sub(r"[^a-z0-9]+", "-", unit.lower()).strip("-")
    return Plot(f"length-{slug}", f"length in {unit}",
                f"Length of the games in {unit}: the % of games in each bin" +
                (" (bins of equal width on the logarithmic axis)" if log else "") +
                ", one line and marker per arm, the markers of arms in the same bin set side "
                "by side; below, each arm's quartiles, median and mean with its 95 % interval.",
                fig)


def unit_of(a: dict[str, Any]) -> str:
    """The unit of the worth of a game in arm `a` ("points", "jetons", ...)."""
    return str(a.get("unit") or "points")


def plot_worth(result: dict[str, Any], figures: Sequence[list[Figure]]) -> Plot | None:
    """What a game was worth to its winner, in each arm's unit: per unit, the distribution
    of the worth (% of games at each value; 0 for a drawn or unfinished game) beside the mean
    with its 95 % interval."""
    arms = result["arms"]
    members = [i for i, a in enumerate(arms) if _value(a.get("value_points")) is not None]
    if not members:
        return None
    # one row per unit; within a unit, the arms whose games are worth a few values (1, 2, 3
    # points) apart from those whose worth spreads widely (a partie's jetons), each on its
    # own scale
    units: dict[tuple[str, bool], list[int]] = {}
    for i in members:
        h = _hist(figures, i, "value_points")
        units.setdefault((unit_of(arms[i]), h is not None and len(h.counts) > 16), []).append(i)
    units = dict(sorted(units.items(), key=lambda kv: kv[1][0]))
    heights = [max(1.1, 0.24 * len(idx) + 0.6) for idx in units.values()]
    total = sum(heights) + 0.6 * len(units) + 0.8
    fig = _new(total)
    grid = fig.add_gridspec(len(units), 2, width_ratios=[1.35, 1], height_ratios=heights,
                            hspace=0.55, wspace=0.32, left=0.08, right=0.97,
                            top=1 - 0.1 / total, bottom=0.5 / total)
    for row, ((unit, _spread), idx) in enumerate(units.items()):
        ax = fig.add_subplot(grid[row, 0])
        hists = {i: h for i in idx if (h := _hist(figures, i, "value_points")) is not None}
        values = sorted({x for h in hists.values() for x in h.counts})
        if values and len(values) <= 16:
            for j, (i, h) in enumerate(sorted(hists.items())):
                s = style(i)
                xs = [k + dodge(j, len(hists), 0.8) for k in range(len(values))]
                ys = [100 * h.counts.get(v, 0) / h.n for v in values]
                ax.vlines(xs, 0, ys, color=s.colour, lw=1.6, linestyles=s.linestyle)
                line, = ax.plot(xs, ys, ls="none", marker=s.marker, color=s.colour, ms=4.5)
                _tag(line, i)
            ax.set_xticks(range(len(values)), [str(v) for v in values])
            ax.set_xlim(-0.6, len(values) - 0.4)
        elif values:
            edges = _bins(values, False, 30)
            for j, (i, h) in enumerate(sorted(hists.items())):
                _polygon(ax, i, h, edges, False, j, len(hists))
        ax.set_ylim(bottom=0)
        ax.set_xlabel(f"worth of a game, in {unit}")
        ax.set_ylabel("% of games")
        ax.grid(axis="y", color="#eee", lw=0.6)
        ax.set_axisbelow(True)
        bx = fig.add_subplot(grid[row, 1])
        for k, i in enumerate(idx):
            e = arms[i]["value_points"]
            lo, hi = e["ci"] if e.get("ci") else (None, None)
            _interval(bx, i, float(e["mean"]), -k, lo, hi)
        bx.set_yticks([-k for k in range(len(idx))], [letter(i) for i in idx])
        bx.set_ylim(-len(idx) + 0.5, 0.5)
        bx.tick_params(axis="y", length=0)
        bx.grid(axis="x", color="#eee", lw=0.6)
        bx.set_axisbelow(True)
        bx.set_xlabel(f"mean worth in {unit}, 95 % interval")
    _arms_legend(fig, result, members)
    return Plot("worth", "worth of a game",
                "What a game was worth to its winner (points at the cube's stake, the "
                "partie's value; 0 for a drawn or unfinished game), in each arm's unit, one "
                "row of panels per unit: the % of games at each worth, the arms side by side, "
                "and the mean worth with its 95 % interval.", fig)


def _percent(value: float, ci: Sequence[float] | None) -> tuple[float, float, float]:
    """A share and its interval in percent (the interval the value itself where it has none)."""
    v = 100 * value
    lo, hi = (100 * ci[0], 100 * ci[1]) if ci else (v, v)
    return v, lo, hi


def _grouped(result: dict[str, Any], keys: Sequence[str],
             get: Callable[[dict[str, Any], str], tuple[float, float, float] | None],
             xlabel: str, log_allowed: bool = False, fixed: tuple[float, float] | None = None
             ) -> tuple[Any, bool] | None:
    """Rows of marks per key (a rule, a game value), the arms that have it side by side within
    each row: a light bar to the value, the arm's marker and the 95 % interval."""
    arms = result["arms"]
    groups: list[list[int]] = []
    data: list[list[tuple[float, float, float]]] = []
    for key in keys:
        members, marks = [], []
        for i, a in enumerate(arms):
            got = get(a, key)
            if got is not None:
                members.append(i)
                marks.append(got)
        groups.append(members)
        data.append(marks)
    if not any(groups):
        return None
    positive = [m[0] for g in data for m in g if m[0] > 0]
    log = log_allowed and bool(positive) and max(positive) / min(positive) > 50
    centres, ys, height = _rows(groups, per_mark=0.15, gap=0.2)
    fig = _new(height + 0.65)
    ax = fig.add_axes((0.3, 0.55 / (height + 0.65), 0.67, height / (height + 0.65)))
    floor = min(positive) / 3 if log and positive else 0.0
    for members, marks, yy in zip(groups, data, ys):
        for i, (v, lo, hi), y in zip(members, marks, yy):
            s = style(i)
            if log and v <= 0:
                continue
            ax.barh([y], [v - floor], left=floor, height=0.12, color=s.colour, alpha=0.28,
                    lw=0)
            _interval(ax, i, v, y, max(lo, floor) if log else lo, hi, ms=4.2)
    if log:
        ax.set_xscale("log")
    elif fixed is not None:
        ax.set_xlim(*fixed)
    else:
        ax.set_xlim(left=0)
    ax.set_ylim(-height, 0)
    _group_axis(ax, keys, centres)
    ax.set_xlabel(xlabel + (" (logarithmic axis; 0 not drawn)" if log else ""))
    _arms_legend(fig, result, sorted({i for g in groups for i in g}))
    return fig, log


def _rules_union(arms: Sequence[dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for a in arms:
        for rule in a.get("rules") or {}:
            if rule not in names:
                names.append(rule)
    return names


def _fired(r: dict[str, Any]) -> bool:
    return bool(sum((r.get("fired") or {}).values()))


def plot_rule_shares(result: dict[str, Any]) -> Plot | None:
    arms = result["arms"]
    rules = [r for r in _rules_union(arms)
             if any((a["rules"].get(r) or {}).get("share") for a in arms)]

    def get(a: dict[str, Any], rule: str) -> tuple[float, float, float] | None:
        r = a["rules"].get(rule)
        if r is None or r.get("share") is None:
            return None
        return _percent(r["share"], r.get("share_ci"))

    got = _grouped(result, rules, get, "% of all the points the rules gave, with 95 % "
                   "intervals", fixed=(0, 100)) if rules else None
    if got is None:
        return None
    none = [f"{letter(i)} {a['label']}" for i, a in enumerate(arms) if not a.get("points")]
    return Plot("rule-shares", "rule shares",
                "Each rule's share of all the points the rules gave, on a linear axis from "
                "0 to 100 %, with 95 % intervals (ratio estimator); the arms side by side "
                "in each rule's row." + (f" No points given by rules in {', '.join(none)}."
                                          if none else ""), got[0])


def plot_rule_rates(result: dict[str, Any]) -> Plot | None:
    arms = result["arms"]
    rules = [r for r in _rules_union(arms)
             if any(_fired(a["rules"][r]) for a in arms if r in a["rules"])]

    def get(a: dict[str, Any], rule: str) -> tuple[float, float, float] | None:
        r = a["rules"].get(rule)
        if r is None or r["per_game"].get("value") is None:
            return None
        v = float(r["per_game"]["value"])
        lo, hi = r["per_game"]["ci"] or (v, v)
        return v, lo, hi

    got = _grouped(result, rules, get, "firings per game (both sides), with 95 % intervals",
                   log_allowed=True) if rules else None
    if got is None:
        return None
    return Plot("rule-rates", "rule rates",
                "Each rule's firings per game, both sides together, with 95 % intervals; the "
                "arms side by side in each rule's row" +
                (", on a logarithmic axis (the rates span several orders of magnitude)."
                 if got[1] else "."), got[0])


def plot_game_values(result: dict[str, Any]) -> Plot | None:
    """The proportions of each kind of result (`values.*`: single, gammon, a 12-point game's
    value, a mark's kind) on a linear 0–100 % axis."""
    arms = result["arms"]
    names: list[str] = []
    for a in arms:
        for v in a.get("values") or {}:
            if v not in names:
                names.append(v)
    if not names:
        return None

    def get(a: dict[str, Any], name: str) -> tuple[float, float, float] | None:
        e = (a.get("values") or {}).get(name)
        if e is None or e.get("value") is None:
            return None
        return _percent(e["value"], e.get("ci"))

    got = _grouped(result, names, get, "% of the results of the ladder's games, with 95 % "
                   "Wilson intervals", fixed=(0, 100))
    if got is None:
        return None
    return Plot("game-values", "kinds of result",
                "What each game of the ladder came to (values.*: single, gammon, backgammon, "
                "a 12-point game's value, the kind of a mark), as % of the arm's results, "
                "with 95 % Wilson intervals, the arms side by side.", got[0])


def _comparison(result: dict[str, Any], d: dict[str, Any]) -> tuple[int, int]:
    labels = [a["label"] for a in result["arms"]]
    b = labels.index(d["b"]) if d.get("b") in labels else int(d.get("arm") or 0)
    a = labels.index(d["a"]) if d.get("a") in labels else 0
    return a, b


def plot_differences(result: dict[str, Any], which: str) -> Plot | None:
    """The differences B − A with their 95 % intervals, one row per figure, the comparisons
    side by side within it: `which` is "proportion" (in percentage points) or "rules" (the
    rules' firings per game)."""
    usable = [d for d in result.get("differences") or ()
              if d.get("tested", True) is not False and d.get("difference") is not None
              and d.get("ci")]
    if which == "proportion":
        chosen = [d for d in usable if d.get("kind") == "proportion"]
        scale, xlabel = 100.0, "B − A in percentage points, with 95 % intervals"
    else:
        chosen = [d for d in usable if str(d["figure"]).endswith(".per_game")]
        scale, xlabel = 1.0, "B − A in firings per game, with 95 % intervals"
    if not chosen:
        return None
    figs: list[str] = []
    titles: dict[str, str] = {}
    for d in chosen:
        if d["figure"] not in titles:
            figs.append(d["figure"])
            titles[d["figure"]] = str(d.get("title") or d["figure"])
    groups = [[k for k, d in enumerate(chosen) if d["figure"] == f] for f in figs]
    centres, ys, height = _rows(groups, per_mark=0.13, gap=0.2)
    fig = _new(height + 0.65)
    ax = fig.add_axes((0.36, 0.55 / (height + 0.65), 0.61, height / (height + 0.65)))
    pairs = set()
    for members, yy in zip(groups, ys):
        for k, y in zip(members, yy):
            d = chosen[k]
            a, b = _comparison(result, d)
            pairs.add((b, a))
            v = scale * d["difference"]
            lo, hi = (scale * c for c in d["ci"])
            _interval(ax, b, v, y, lo, hi, ms=4)
    ax.axvline(0, color="#888", lw=0.8, ls="--", zorder=0)
    ax.set_ylim(-height, 0)
    _group_axis(ax, [_wrap(titles[f], 48) for f in figs], centres)
    ax.set_xlabel(xlabel)
    arms = result["arms"]
    ordered = sorted(pairs)
    _legend(fig, [_proxy(b) for b, _a in ordered],
            [f"{letter(b)} − {letter(a)}: {arm_name(arms[b])} − {arms[a]['label']}"
             for b, a in ordered])
    name = "differences" if which == "proportion" else "differences-rules"
    what = ("the proportions, in percentage points" if which == "proportion" else
            "the rules' firings per game (the borne-off rule's among them)")
    return Plot(name, "differences" if which == "proportion" else "differences of rules",
                f"Differences between arms (B − A) with their 95 % intervals: {what}; one "
                "row per figure, the comparisons side by side in it; the dashed line is no "
                "difference. Figures in units that differ are not drawn (the table lists "
                "them).", fig)


def _wrap(text: str, width: int) -> str:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines[:2]) + ("…" if len(lines) > 2 else "")


#: the figures whose replicates are drawn when the study has several
REPLICATED = (("first_player_win_rate", "the first to throw wins, %", 100.0),
              ("length_throws", "length in throws", 1.0),
              ("value_points", "mean worth of a game", 1.0))


def plot_replicates(result: dict[str, Any]) -> Plot | None:
    """Each replicate's estimate with its interval beside the pooled one, per arm, for the
    first player's rate, the length and the worth of a game."""
    arms = result["arms"]
    units = {unit_of(a) for a in arms}
    panels = [(key, title + (f" in {next(iter(units))}" if key == "value_points" else ""),
               scale) for key, title, scale in REPLICATED
              if any(len((_get(a, key) or {}).get("replicates") or ()) > 1 for a in arms)
              # the worth of games in different units is never drawn on one axis
              and (key != "value_points" or len(units) == 1)]
    if not panels:
        return None
    n = len(arms)
    reps = max(len((_get(a, key) or {}).get("replicates") or ()) for a in arms
               for key, _t, _s in panels)
    per_arm = 0.11 * (reps + 1) + 0.12
    height = n * per_arm + 0.2
    fig = _new(height + 1.3, WIDTH)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    fig.subplots_adjust(left=0.14, right=0.98, wspace=0.12, top=1 - 0.1 / (height + 1.3),
                        bottom=0.6 / (height + 1.3))
    for ax, (key, title, scale) in zip(axes, panels):
        for i, a in enumerate(arms):
            e = _get(a, key)
            if e is None or _value(e) is None:
                continue
            rs = e.get("replicates") or []
            top = -i * per_arm
            for r, rep in enumerate(rs):
                if rep.get("value") is None:
                    continue
                y = top - 0.11 * (r + 0.5)
                lo, hi = (scale * c for c in rep["ci"]) if rep.get("ci") else (None, None)
                _interval(ax, i, scale * rep["value"], y, lo, hi, ms=3, alpha=0.55)
            y = top - 0.11 * (len(rs) + 0.5)
            v = _value(e)
            assert v is not None
            lo, hi = (scale * c for c in e["ci"]) if e.get("ci") else (None, None)
            _interval(ax, i, scale * v, y, lo, hi, ms=5.5)
            ax.plot([scale * v], [y], marker=style(i).marker, ms=5.5, mfc="none", mec="#222",
                    mew=0.8, ls="none")
        if key == "first_player_win_rate":
            ax.axvline(50, color="#888", lw=0.8, ls="--", zorder=0)
        ax.set_xlabel(title, fontsize=7.5)
        ax.grid(axis="x", color="#eee", lw=0.6)
        ax.set_axisbelow(True)
        ax.tick_params(axis="y", length=0)
    axes[0].set_yticks([-i * per_arm - per_arm / 2 + 0.06 for i in range(n)],
                       [f"{letter(i)}  {a['label']}" for i, a in enumerate(arms)])
    axes[0].set_ylim(-n * per_arm, 0.05)
    _arms_legend(fig, result, range(n))
    return Plot("replicates", "replicates",
                "Each replicate's estimate with its 95 % interval (small marks, in the order "
                "of their seeds), then the pooled estimate over all the replicates' games "
                "(the large mark, outlined), per arm." + (
                    "" if len(units) == 1 else " The worth of a game is not drawn: the arms "
                    "count it in different units."), fig)


def plots(result: dict[str, Any], figures: Sequence[list[Figure]]) -> list[Plot]:
    """Every plot of the report, in its order."""
    check_available()
    out: list[Plot | None] = []
    with _rc():
        out.append(plot_win_rates(result))
        out.append(plot_length(result, figures, "length_throws", "throws"))
        for unit in ("holes", "marks", "games"):
            out.append(plot_length(result, figures, f"length.{unit}", unit))
        out.append(plot_worth(result, figures))
        out.append(plot_game_values(result))
        out.append(plot_rule_shares(result))
        out.append(plot_rule_rates(result))
        out.append(plot_replicates(result))
        out.append(plot_differences(result, "proportion"))
        out.append(plot_differences(result, "rules"))
    return [p for p in out if p is not None]


#: every name a plot can have, in the report's order (docs/compare.md lists them)
NAMES = ("win-rates", "length-throws", "length-holes", "length-marks", "length-games", "worth",
         "game-values", "rule-shares", "rule-rates", "replicates", "differences",
         "differences-rules")


# -- files ---------------------------------------------------------------------------------


def svg_text(plot: Plot) -> str:
    """The plot as an SVG document: the same bytes for the same result."""
    buf = io.StringIO()
    with _rc():
        plot.figure.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.05,
                            metadata={"Date": None})
    return buf.getvalue()


def pdf_bytes(plot: Plot) -> bytes:
    buf = io.BytesIO()
    with _rc():
        plot.figure.savefig(buf, format="pdf", bbox_inches="tight", pad_inches=0.05,
                            metadata={"CreationDate": None, "ModDate": None})
    return buf.getvalue()


def _shown(path: str) -> str:
    from interpreter.bounded import shown_name

    return repr(shown_name(path, 200))


def folder_fault(folder: str | os.PathLike[str]) -> str | None:
    """Why the figures cannot be written into `folder` (one line naming it), without writing
    anything; None when they can be tried. A folder that does not exist is made, with its
    parents, when the figures are written."""
    name = os.fspath(folder)
    if not name or "\0" in name:
        return f"cannot write the figures into {_shown(name)}: not a folder name"
    path = os.path.abspath(name)
    probe = path
    while not os.path.lexists(probe):
        probe = os.path.dirname(probe)
    try:
        info = os.stat(probe)
    except OSError as error:
        return f"cannot write the figures into {_shown(name)}: {error.strerror or error}"
    if not stat.S_ISDIR(info.st_mode):
        what = "it is not a folder" if probe == path else f"{_shown(probe)} is not a folder"
        return f"cannot write the figures into {_shown(name)}: {what}"
    if not os.access(probe, os.W_OK | os.X_OK):
        return f"cannot write the figures into {_shown(name)}: permission denied" + (
            "" if probe == path else f" (folder {_shown(probe)})")
    return None


def write_figures(folder: str | os.PathLike[str], result: dict[str, Any],
                  figures: Sequence[list[Figure]]) -> list[str]:
    """Write every plot of the report into `folder` as NAME.svg and NAME.pdf (made if missing);
    the paths written. Each file is written beside its target and renamed over it: a link
    of that name is replaced, never followed, so nothing is written outside the folder."""
    fault = folder_fault(folder)
    if fault is not None:
        raise TablierError(fault)
    name = os.fspath(folder)
    try:
        os.makedirs(name, exist_ok=True)
    except OSError as error:
        raise TablierError(f"cannot write the figures into {_shown(name)}: "
                           f"{error.strerror or error}") from None
    real = os.path.realpath(name)
    written = []
    for plot in plots(result, figures):
        for ext, data in (("svg", svg_text(plot).encode("utf-8")), ("pdf", pdf_bytes(plot))):
            target = os.path.join(real, f"{plot.name}.{ext}")
            _write_in(real, target, data)
            written.append(os.path.join(name, f"{plot.name}.{ext}"))
    return written


def _write_in(folder: str, target: str, data: bytes) -> None:
    tmp = None
    try:
        if os.path.isdir(target) and not os.path.islink(target):
            raise IsADirectoryError(21, "it is a directory")
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
    except OSError as error:
        raise TablierError(f"cannot write {_shown(target)}: "
                           f"{(error.strerror or str(error)).lower()}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
