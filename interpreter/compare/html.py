"""The HTML report of `tablier compare --html FILE`: one self-contained page.

Plots are drawn by matplotlib with the Agg backend and embedded as inline SVG (text drawn as
paths: no font is needed by the reader), their element ids prefixed per plot so that several
plots in one page never share an id. The page has no script and loads nothing.
"""
from __future__ import annotations

import html
import io
import re
from typing import Any, Sequence

from interpreter.compare.core import evaluate
from interpreter.compare.report import _by_figure, _cell, _num, _p, shown_differences
from interpreter.compare.tally import Figure
from interpreter.errors import TablierError

#: colours of the arms (colour-blind safe, Okabe and Ito)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
           "#000000")

_EXTRA_CSS = """
body { max-width: 76rem; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9em; color: #555; }
.side { display: flex; flex-wrap: wrap; gap: 1rem; }
.side figure { flex: 1 1 30rem; }
td.num { text-align: right; white-space: nowrap; }
.note { font-size: .9em; color: #555; }
.caveat { border-left: 4px solid #D55E00; padding: .3rem .8rem; background: #fff3e8; }
summary h3 { display: inline; }
.wide { overflow: auto; max-width: 100%; max-height: 75vh; margin: .8rem 0; }
.wide table { margin: 0; font-size: .85em; }
.wide thead th { position: sticky; top: 0; z-index: 1; }
.wide td:first-child { position: sticky; left: 0; background: #fffdf8; }
th small { font-weight: normal; color: #555; }
details { margin: .6rem 0 1.2rem; }
"""


def check_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TablierError("--html draws its plots with matplotlib: pip install "
                           "'tablier[report]'") from None


def _svg(fig: Any, name: str) -> str:
    """The figure as an inline <svg> element, its ids prefixed with `name`."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r'id="([^"]+)"', lambda m: f'id="{name}-{m.group(1)}"', text)
    text = re.sub(r'url\(#([^)]+)\)', lambda m: f"url(#{name}-{m.group(1)})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{name}-{m.group(1)}"', text)
    return text


def _figure(title: str, svg: str, caption: str) -> str:
    return (f'<figure aria-label="{html.escape(title, quote=True)}">{svg}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _new_figure(width: float, height: float) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height), dpi=100)
    return fig


def _colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def arm_name(a: dict[str, Any]) -> str:
    """An arm's label with its players: "triktrak (search:1 v random)"."""
    pl = a.get("players") or {}
    return f"{a['label']} ({pl.get('white', '?')} v {pl.get('black', '?')})"


def _arm_header(a: dict[str, Any]) -> str:
    """The header of an arm's column, escaped: its label, and its players beneath."""
    pl = a.get("players") or {}
    return (f"{html.escape(a['label'])}<br><small>{html.escape(pl.get('white', '?'))} (white) "
            f"v {html.escape(pl.get('black', '?'))} (black)</small>")


# -- plots ------------------------------------------------------------------------------------

def plot_win_rates(result: dict[str, Any]) -> str:
    arms = result["arms"]
    rows = [("first to throw wins", lambda a: a["first_player_win_rate"]),
            ("white wins", lambda a: a["win_rate"]["white"]),
            ("black wins", lambda a: a["win_rate"]["black"])]
    fig = _new_figure(7, 0.5 + 0.35 * len(rows) * len(arms) + 0.6)
    ax = fig.add_subplot()
    y = 0.0
    ticks, names = [], []
    for title, get in rows:
        for i, a in enumerate(arms):
            e = get(a)
            if e["value"] is None:
                continue
            lo, hi = e["ci"] or (e["value"], e["value"])
            ax.errorbar([100 * e["value"]], [y], xerr=[[100 * (e["value"] - lo)],
                                                       [100 * (hi - e["value"])]],
                        fmt="o", color=_colour(i), capsize=4,
                        label=arm_name(a) if title == rows[0][0] else None)
            y -= 1
        ticks.append(y + len(arms) / 2 + 0.5)
        names.append(title)
        y -= 0.8
    ax.axvline(50, color="#999", lw=0.8, ls="--")
    ax.set_yticks(ticks, names)
    ax.set_xlabel("% of games, with 95 % Wilson intervals")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, frameon=False)
    ax.grid(axis="x", color="#eee")
    return _svg(fig, "winrates")


def plot_lengths(result: dict[str, Any], figures: Sequence[list[Figure]], name: str,
                 unit: str) -> str | None:
    hists = []
    for figs in figures:
        f = next((f for f in figs if f.name == name), None)
        hists.append(f.histogram if f is not None else None)
    if not any(h is not None and h.n for h in hists):
        return None
    values = sorted({x for h in hists if h is not None for x in h.counts})
    if len(values) < 2:
        return None                     # every game as long: nothing to draw
    lo, hi = values[0], values[-1]
    width = max(1, (hi - lo + 1) // 40 + (1 if (hi - lo + 1) % 40 else 0))
    edges = list(range(lo, hi + width + 1, width))
    fig = _new_figure(7, 3.2)
    ax = fig.add_subplot()
    for i, (a, h) in enumerate(zip(result["arms"], hists)):
        if h is None or not h.n:
            continue
        xs = list(h.counts)
        ax.hist(xs, bins=edges, weights=[100 * h.counts[x] / h.n for x in xs],
                histtype="step", lw=1.6, color=_colour(i), label=arm_name(a))
        mean = h.moments().mean
        if mean is not None:
            ax.axvline(mean, color=_colour(i), lw=0.8, ls=":")
    ax.set_xlabel(f"length in {unit} (dotted: the mean)")
    ax.set_ylabel("% of games")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, frameon=False)
    ax.grid(axis="y", color="#eee")
    return _svg(fig, f"len-{re.sub(r'[^a-z0-9]+', '-', name)}")


def _rules_union(result: dict[str, Any], key: str) -> list[str]:
    names: list[str] = []
    for a in result["arms"]:
        for rule in a["rules"]:
            if rule not in names:
                names.append(rule)
    return names


def plot_rules(result: dict[str, Any], what: str) -> str | None:
    """Grouped horizontal bars per rule: `what` is "share" (of the points) or "per_game";
    a rule an arm does not have gets no bar there. Rates spread over several orders of
    magnitude are drawn on a logarithmic axis."""
    arms = result["arms"]
    rules = [r for r in _rules_union(result, what)
             if any(sum(a["rules"][r]["fired"].values()) for a in arms if r in a["rules"])]
    if what == "share":
        rules = [r for r in rules if any((a["rules"].get(r) or {}).get("share") for a in arms)]
    if not rules:
        return None
    scale = 100 if what == "share" else 1
    bars: list[list[tuple[float, float, float] | None]] = []
    for a in arms:
        row: list[tuple[float, float, float] | None] = []
        for rule in rules:
            r = a["rules"].get(rule)
            if r is None:
                row.append(None)
                continue
            value, ci = (r["share"], r["share_ci"]) if what == "share" else \
                (r["per_game"]["value"], r["per_game"]["ci"])
            value = value or 0.0
            lo, hi = ci or (value, value)
            row.append((scale * value, scale * lo, scale * hi))
        bars.append(row)
    positive = [b[0] for row in bars for b in row if b is not None and b[0] > 0]
    log = bool(positive) and max(positive) / min(positive) > 50
    floor = min(positive) / 3 if log else 0.0
    fig = _new_figure(7, 0.6 + 0.26 * len(rules) * len(arms) + 0.6)
    ax = fig.add_subplot()
    step = 0.8 / len(arms)
    for i, (a, row) in enumerate(zip(arms, bars)):
        ys, xs = [], []
        errs: list[list[float]] = [[], []]
        for k, b in enumerate(row):
            if b is None or (log and b[0] <= 0):
                continue
            value, lo, hi = b
            ys.append(-k - i * step)
            xs.append(value - floor)
            errs[0].append(max(0.0, value - max(lo, floor)))
            errs[1].append(max(0.0, hi - value))
        ax.barh(ys, xs, left=floor, height=step * 0.9, color=_colour(i), xerr=errs,
                capsize=2, error_kw={"lw": 0.8}, label=arm_name(a))
    if log:
        ax.set_xscale("log")
    ax.set_yticks([-k - 0.4 + step / 2 for k in range(len(rules))], rules, fontsize=8)
    ax.set_ylim(-len(rules) + 0.3, 0.7)
    ax.set_xlabel(("% of all the points the rules gave, with 95 % intervals" if what == "share"
                   else "firings per game (both sides), with 95 % intervals") +
                  (" (log scale; 0 not drawn)" if log else ""))
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, frameon=False)
    ax.grid(axis="x", color="#eee")
    return _svg(fig, f"rules-{what}")


def plot_differences(result: dict[str, Any]) -> str | None:
    """The differences against the first arm with their intervals: the proportions in
    percentage points, and the rules' firings per game (the borne-off rule's among them) in
    firings, each panel on its own axis."""
    names = {a["label"]: arm_name(a) for a in result["arms"]}
    usable = [d for d in result["differences"] if d["difference"] is not None and d["ci"]]
    panels = [("proportion", [d for d in usable if d["kind"] == "proportion"], 100,
               "B − A in percentage points, with 95 % intervals"),
              ("rules", [d for d in usable if d["figure"].endswith(".per_game")], 1,
               "B − A in firings per game, with 95 % intervals")]
    panels = [p for p in panels if p[1]]
    if not panels:
        return None
    heights = [0.6 + 0.3 * len(p[1]) for p in panels]
    fig = _new_figure(7, sum(heights) + 0.4 * len(panels))
    axes = fig.subplots(len(panels), 1, squeeze=False,
                        gridspec_kw={"height_ratios": heights})
    for ax, (_kind, diffs, scale, xlabel) in zip(axes[:, 0], panels):
        for k, d in enumerate(diffs):
            lo, hi = d["ci"]
            v = d["difference"]
            ax.errorbar([scale * v], [-k], xerr=[[scale * max(0.0, v - lo)],
                                                 [scale * max(0.0, hi - v)]],
                        fmt="s", color=_colour(d["arm"]), capsize=3, ms=4)
        ax.set_yticks([-k for k in range(len(diffs))],
                      [f"{d['title']} ({names.get(d['b'], d['b'])})" for d in diffs],
                      fontsize=7)
        ax.set_ylim(-len(diffs) + 0.5, 0.5)
        ax.axvline(0, color="#999", lw=0.8, ls="--")
        ax.set_xlabel(xlabel, fontsize=8)
        ax.grid(axis="x", color="#eee")
    fig.tight_layout()
    return _svg(fig, "differences")


# -- the page ---------------------------------------------------------------------------------

def _short(value: float | None, ci: Sequence[float] | None) -> str:
    """A value and its interval with four significant digits (the CSV and JSON have all)."""
    def f(x: float) -> str:
        return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
    if value is None:
        return "—"
    return f(value) if not ci else f"{f(value)} [{f(ci[0])}, {f(ci[1])}]"


def _letter(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"A{i}"


class Raw(str):
    """A header cell already written in HTML (an arm's label with its players)."""


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 1,
           text_from: int = 10 ** 6) -> str:
    head = "".join(f"<th>{h if isinstance(h, Raw) else html.escape(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(
        f'<td class="num">{html.escape(c)}</td>' if numeric_from <= j < text_from else
        f"<td>{html.escape(c)}</td>" for j, c in enumerate(r)) + "</tr>" for r in rows)
    return (f'<div class="wide"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n'
            f"</tbody>\n</table></div>")


def _diffs_html(specs: Sequence[Any]) -> str:
    from interpreter.rulebook.blocks import html_body
    from interpreter.rulebook.diff import diff_blocks, diff_documents
    from interpreter.variant.loader import load_document

    docs = [load_document(s.ref, list(s.overrides)) for s in specs]
    parts = []
    for j in range(1, len(docs)):
        result = diff_documents(docs[0], docs[j])
        blocks = diff_blocks(docs[0], docs[j], result, level=4)
        # the first block is the diff's title: the summary of a section the reader may fold
        parts.append(f"<details open><summary>{html_body(blocks[:1])}</summary>"
                     f"{html_body(blocks[1:])}</details>")
    return "\n".join(parts)


def render_html(specs: Sequence[Any], result: dict[str, Any],
                figures: Sequence[list[Figure]]) -> str:
    from interpreter.rulebook.blocks import CSS

    arms = result["arms"]
    labels = [a["label"] for a in arms]
    heads: list[str] = [Raw(_arm_header(a)) for a in arms]
    names = {a["label"]: arm_name(a) for a in arms}
    esc = html.escape
    title = "Comparison: " + " | ".join(labels)
    out = [f"<h1>{esc(title)}</h1>"]
    if result.get("interrupted"):
        out.append("<p><strong>Interrupted</strong>: the figures are over the games "
                   "finished.</p>")
    if result.get("paired"):
        how = (f"paired: game i of every arm is the game i of <code>tablier simulate --seed "
               f"{result['seed']}</code>, the same seed and dice (common random numbers), "
               f"and the differences are taken game by game")
    else:
        how = (f"arm i, from 0, plays the games of <code>tablier simulate --seed "
               f"{result['seed']}+i</code>")
    out.append(f"<p>Seed {result['seed']} ({how}). Every interval is a 95 % interval "
               f"(z = {result['z']}); every figure can be recomputed from the games' lines. "
               f"{result.get('tests', 0)} tests, their p-values adjusted by Holm's method "
               f"over all of them.</p>")
    if result.get("caveat"):
        out.append(f'<p class="caveat">{esc(result["caveat"])}</p>')
    letters = [_letter(i) for i in range(len(arms))]
    out.append(_table(("", "arm", "variant", "options", "white", "black", "games", "decided",
                       "drawn", "unfinished", "lines"), [
        (letters[i], a["label"], a["variant"], " ".join(a["options"]) or "—",
         a["players"]["white"], a["players"]["black"], str(a["games"]), str(a["decided"]),
         str(a["draws"]), str(a["unfinished"]), a.get("games_out") or "—")
        for i, a in enumerate(arms)], numeric_from=6, text_from=10))
    out.append("<h2>What differs</h2>")
    out.append(_diffs_html(specs))
    out.append("<h2>Figures</h2>")
    names_, cells, titles = _by_figure(result, figures)
    plain = [n for n in names_ if not n.startswith("rules.")]
    out.append("<p class=\"note\">Each value with its 95 % interval, under the players named "
               "at the head of each column: proportions (of the decided games for the win "
               "rates; of the ladder's games for game values and cube levels, of the marks for "
               "mark kinds) with Wilson intervals; means per game with mean ± z·s/√n, or the "
               "exact Poisson interval where a count is rare; rates with linearised ratio "
               "intervals. The branching factor is the mean number of legal plays a throw, the "
               "forced throws those with at most one play.</p>")
    out.append(_table(["figure"] + heads,
                      [[titles[n]] + [cells[n].get(lab, "") for lab in labels] for n in plain]))
    firsts = [(a, a["first_player_win_rate"]) for a in arms]
    out.append("<p class=\"note\">The first to throw against 1/2 (exact binomial test over "
               "the decided games): " + "; ".join(
                   f"{esc(names[a['label']])}: p = {_p(f.get('p_value'))}, Holm "
                   f"{_p(f.get('p_adjusted'))}" for a, f in firsts) + ".</p>")
    out.append("<h3>Rules</h3>")
    out.append("<p class=\"note\">Firings per game (both sides together), per throw (all "
               "firings over all throws) and the rule's share of all the points the rules "
               "gave, with 95 % intervals (exact Poisson where the firings are rare; a rule "
               "that never fired gets [0, upper bound]); — where the arm has no such rule. "
               "Arms: " + "; ".join(f"{letters[i]} = {esc(arm_name(a))}"
                                     for i, a in enumerate(arms)) + ".</p>")
    rules = _rules_union(result, "per_game")
    silent = [r for r in rules if all(not sum(a["rules"][r]["fired"].values())
                                      for a in arms if r in a["rules"])]
    rules = [r for r in rules if r not in silent]
    head = ["rule"] + [Raw(f"{what} ({letter})<br><small>{esc(a['players']['white'])} v "
                           f"{esc(a['players']['black'])}</small>")
                       for what in ("per game", "per throw", "share")
                       for letter, a in zip(letters, arms)]
    rows = []
    for rule in rules:
        row = [rule]
        for what in ("per_game", "per_throw", "share"):
            for a in arms:
                r = a["rules"].get(rule)
                if r is None:
                    row.append("—")
                elif what == "share":
                    row.append(_short(r["share"], r["share_ci"]))
                else:
                    row.append(_short(r[what]["value"], r[what]["ci"]))
        rows.append(row)
    out.append(_table(head, rows))
    if silent:
        out.append(f"<p>Never fired in any arm: {esc(', '.join(silent))}.</p>")
    out.append("<h2>Plots</h2>")
    out.append(_figure("win rates", plot_win_rates(result),
                       "Win rates with their 95 % Wilson intervals, over the decided games; "
                       "the dashed line is 50 %. Players: " +
                       "; ".join(names.values()) + "."))
    lengths = [plot_lengths(result, figures, "length_throws", "throws")]
    for unit in ("holes", "marks", "games"):
        lengths.append(plot_lengths(result, figures, f"length.{unit}", unit))
    units = ["throws", "holes", "marks", "games"]
    out.append('<div class="side">' + "".join(
        _figure(f"length in {u}", svg, f"Length of the games in {u}: % of games per bin "
                f"(each arm named with its players, white v black).")
        for u, svg in zip(units, lengths) if svg) + "</div>")
    share, rate = plot_rules(result, "share"), plot_rules(result, "per_game")
    side = []
    if share:
        side.append(_figure("rule shares", share,
                            "Each rule's share of all the points scored, with 95 % intervals "
                            "(ratio estimator), each arm with its players."))
    if rate:
        side.append(_figure("rule rates", rate,
                            "Each rule's firings per game, both sides together, with 95 % "
                            "intervals, each arm with its players."))
    if side:
        out.append('<div class="side">' + "".join(side) + "</div>")
    out.append("<h2>Differences</h2>")
    diff_plot = plot_differences(result)
    if diff_plot:
        out.append(_figure("differences", diff_plot,
                           "Differences against the first arm, " + esc(names[labels[0]]) +
                           ": the proportions and the rules' firings per game."))
    paired = result.get("paired")
    if paired:
        tests = ("Paired over the games (the same seed and dice in both arms): each figure's "
                 "per-game contributions subtracted game by game, the interval d ± t·s/√n; "
                 "proportions and rare counts by the exact sign test (McNemar's for 0/1 "
                 "figures), other figures by the paired t test.")
    else:
        tests = ("Proportions: Newcombe's hybrid score interval and the χ² test of the 2×2 "
                 "table (Fisher's exact test where an expected count is below 5); means: "
                 "Welch's interval and t test; rates per throw and shares: linearised ratio "
                 "estimators and a z test; rare counts: the exact conditional Poisson test and "
                 "the MOVER interval.")
    out.append(f"<p class=\"note\">Each figure of each arm against the same figure of "
               f"{esc(names[labels[0]])} (B − A). {tests} p (Holm): adjusted over all "
               f"{result.get('tests', 0)} tests of the report. White's and black's win rates "
               f"over the decided games are complements: only white's is tested. Games "
               f"needed: per arm, for ±1 percentage point on a difference of proportions, "
               f"±1 % of the first arm's figure otherwise.</p>")
    out.append(_table(("figure", "arm B (players)", "value in A", "value in B",
                       "B − A [95 % interval]", "p", "p (Holm)", "games needed", "test"), [
        (d["title"], names.get(d["b"], d["b"]), _num(d["value_a"]), _num(d["value_b"]),
         _cell(d["difference"], *(d["ci"] or (None, None))), _p(d["p"]),
         _p(d.get("p_adjusted")), _num(d["games_needed"]), d["test"])
        for d in shown_differences(result)], numeric_from=2, text_from=8))
    out.append("<h2>Games needed</h2>")
    out.append("<p class=\"note\">For each figure of each arm, the games that would give "
               "±1 percentage point (a proportion: the smallest number of games whose Wilson "
               "interval at the observed value is two points wide) or ±1 % of the figure (a "
               "mean or a rate).</p>")
    need: dict[str, dict[str, str]] = {}
    for a, figs in zip(arms, figures):
        for f in figs:
            need.setdefault(f.name, {})[a["label"]] = _num(evaluate(f)["games_needed"])
    shown = [n for n in names_ if not n.endswith((".per_throw", ".share"))]
    out.append(_table(["figure"] + heads,
                      [[titles[n]] + [need[n].get(lab, "") for lab in labels] for n in shown]))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}{_EXTRA_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(out) + "\n</body>\n</html>\n")
