"""What `tablier compare` writes: the text table, the CSV (long format) and the HTML report.

The HTML report is one self-contained file: inline CSS, the plots as inline SVG drawn by
matplotlib (Agg backend, no fonts or files fetched), no script. At its top, the `diff` of each
arm against the first (interpreter/rulebook/diff.py), then the arms' figures side by side, the
plots (length histograms, win rates with their intervals, rule shares and rates), the
differences with their tests and the games each figure would need.
"""
from __future__ import annotations

import csv
import io
import math
from typing import Any, Sequence

from interpreter.compare.core import figure_rows
from interpreter.compare.tally import Figure

CSV_HEADER = ("arm", "figure", "value", "lo", "hi", "n", "games_needed")


def _num(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, int) or float(x).is_integer() and abs(x) >= 1:
        return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:g}"
    return f"{x:.{digits}g}" if abs(x) < 1e-3 else f"{x:.{digits}f}".rstrip("0").rstrip(".")


def _cell(value: float | None, lo: float | None, hi: float | None) -> str:
    if value is None:
        return "—"
    if lo is None:
        return _num(value)
    return f"{_num(value)} [{_num(lo)}, {_num(hi)}]"


def _p(p: float | None) -> str:
    if p is None:
        return "—"
    return "< 1e-12" if p < 1e-12 else f"{p:.3g}"


def shown_differences(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every difference of the report (each one a test counted in Holm's adjustment; a figure
    that is the same constant in both arms has none, unless the comparison is paired)."""
    return list(result["differences"])


# -- text -------------------------------------------------------------------------------------

def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return out


def _by_figure(result: dict[str, Any], figures: Sequence[list[Figure]]
               ) -> tuple[list[str], dict[str, dict[str, str]], dict[str, str]]:
    """Figure names in order, each arm's cell per figure, and each figure's title."""
    names: list[str] = []
    cells: dict[str, dict[str, str]] = {}
    titles: dict[str, str] = {}
    for arm, f, title, value, lo, hi, _n, _need in figure_rows(result["arms"], figures):
        if f not in cells:
            names.append(f)
            cells[f] = {}
            titles[f] = title
        cells[f][arm] = _cell(value, lo, hi)
    return names, cells, titles


def render_text(result: dict[str, Any], figures: Sequence[list[Figure]]) -> str:
    arms = result["arms"]
    labels = [a["label"] for a in arms]
    lines = []
    if result.get("interrupted"):
        lines.append("interrupted: the figures are over the games finished")
    how = "paired: game i of every arm with the same seed and dice" if result.get("paired") \
        else "each arm its own games"
    lines.append(f"seed {result['seed']} ({how}); 95 % intervals in brackets "
                 f"(z = {result['z']})")
    for a in arms:
        where = f", lines in {a['games_out']}" if a.get("games_out") else ""
        opts = f" with {' '.join(a['options'])}" if a["options"] else ""
        lines.append(f"  {a['label']}: {a['variant']}{opts}, {players_text(a)}; "
                     f"{a['games']} games: {a['decided']} decided, {a['draws']} drawn, "
                     f"{a['unfinished']} unfinished{where}")
        first = a["first_player_win_rate"]
        if first.get("p_value") is not None:
            lines.append(f"    the first to throw against 1/2: p = {_p(first['p_value'])}, "
                         f"Holm-adjusted {_p(first.get('p_adjusted'))} (exact binomial, "
                         f"{first['n']} decided games)")
    lines.append("")
    names, cells, titles = _by_figure(result, figures)
    rows = [[titles[n]] + [cells[n].get(lab, "") for lab in labels] for n in names]
    lines += _table(["figure"] + labels, rows)
    diffs = shown_differences(result)
    if diffs:
        paired = "paired, " if result.get("paired") else ""
        lines += ["", f"differences against {labels[0]} (B − A), {paired}two-sided tests, "
                  f"p adjusted by Holm's method over the report's {result.get('tests', 0)} "
                  f"tests; games needed: per arm, for ±1 point (±1 % of A for means and "
                  f"rates)", ""]
        rows = [[d["title"], d["b"], _cell(d["difference"], *(d["ci"] or (None, None))),
                 _p(d["p"]), _p(d.get("p_adjusted")), d["test"], _num(d["games_needed"])]
                for d in diffs]
        lines += _table(["figure", "B", "B − A [95 % interval]", "p", "p (Holm)", "test",
                         "games needed"], rows)
    if result.get("caveat"):
        lines += ["", "note: " + result["caveat"]]
    return "\n".join(lines)


def players_text(arm: dict[str, Any]) -> str:
    """Who played the arm: "random (white) against search:1 (black)"."""
    pl = arm.get("players") or {}
    return f"{pl.get('white', '?')} (white) against {pl.get('black', '?')} (black)"


# -- CSV --------------------------------------------------------------------------------------

def render_csv(result: dict[str, Any], figures: Sequence[list[Figure]]) -> str:
    """One row per arm and figure; then one row per difference, its arm written `B − A`."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER + ("p", "p_adjusted", "players"))
    players = {a["label"]: f"{a['players']['white']}/{a['players']['black']}"
               for a in result["arms"]}
    for arm, f, _title, value, lo, hi, n, need in figure_rows(result["arms"], figures):
        w.writerow((arm, f, _csv(value), _csv(lo), _csv(hi), n, _csv(need), "", "",
                    players.get(arm, "")))
    for d in result["differences"]:
        lo, hi = d["ci"] or (None, None)
        w.writerow((f"{d['b']} − {d['a']}", d["figure"], _csv(d["difference"]), _csv(lo),
                    _csv(hi), "", _csv(d["games_needed"]), _csv(d["p"]),
                    _csv(d.get("p_adjusted")), f"{players[d['b']]} − {players[d['a']]}"))
    return buf.getvalue()


def _csv(x: Any) -> str:
    return "" if x is None else repr(x) if isinstance(x, float) else str(x)
