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
import json
import math
from typing import Any, Sequence

from interpreter.compare.core import figure_rows
from interpreter.compare.tally import Figure


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
    """Every difference of the report: each tested one a test counted in Holm's adjustment
    within its family, each other (`"tested": false`) shown side by side with its `why`; a
    figure that is the same constant in both arms has none, unless the comparison is paired."""
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


#: the figures whose replicates the text report shows, each arm's value in each replicate
REPLICATE_FIGURES = ("first_player_win_rate", "win_rate.white", "draw_rate", "length_throws",
                     "value_points", "branching_factor", "forced_rate", "lead_changes")


def _figure_of(arm: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The object of the figure `name` in an arm's object (None if it has not got it)."""
    group, dot, rest = name.partition(".")
    obj = arm.get(group)
    if dot and isinstance(obj, dict):
        obj = obj.get(rest)
    return obj if isinstance(obj, dict) else None


def _replicate_rows(result: dict[str, Any], titles: dict[str, str]) -> list[list[str]]:
    names = list(REPLICATE_FIGURES)
    for arm in result["arms"]:
        names += [f"length.{u}" for u in arm.get("length", {})
                  if f"length.{u}" not in names]
    rows = []
    for name in names:
        for arm in result["arms"]:
            fig = _figure_of(arm, name)
            if fig is None or not fig.get("replicates"):
                continue
            cells = [_num(r["value"]) for r in fig["replicates"]]
            pooled = _cell(fig.get("mean", fig.get("value")), *(fig.get("ci") or (None, None)))
            h = fig.get("homogeneity")
            mc = ", Monte Carlo" if h is not None and h.get("method") == "Monte Carlo" else ""
            test = "—" if h is None else f"{_p(h['p_value'])} ({h['test']}{mc})"
            rows.append([titles.get(name, name), arm["label"], *cells, pooled, test])
    return rows


def _families_text(result: dict[str, Any]) -> str:
    fams = result.get("families") or {}
    return ", ".join(f"{name} {f['tests']}" for name, f in fams.items()) or "none"


def _untested_lines(diffs: Sequence[dict[str, Any]]) -> list[str]:
    """The differences shown but not tested: a table, the rules one arm has not got named
    once for each pair of arms."""
    rows: list[list[str]] = []
    missing_rules: dict[tuple[str, str, str], list[str]] = {}
    for d in diffs:
        why = d.get("why") or ""
        if d["figure"].startswith("rules.") and " has no rule " in why:
            who, _, rule = why.partition(" has no rule ")
            got = missing_rules.setdefault((d["a"], d["b"], who), [])
            if rule not in got:
                got.append(rule)
            continue
        rows.append([d["title"], d["a"], d["b"], _num(d.get("value_a")),
                     _num(d.get("value_b")), why])
    out: list[str] = []
    if rows:
        out += _table(["figure", "A", "B", "A's value", "B's value", "why"], rows)
    for (a, b, who), rules in missing_rules.items():
        other = b if who == a else a
        out.append(f"rules of {other} that {who} has not got ({a} against {b}; not tested): "
                   f"{', '.join(rules)}")
    return out


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
    reps = int(result.get("replicates") or 1)
    if reps > 1:
        seeds = result.get("seeds") or []
        lines.append(f"{reps} replicates of the whole design, seeds {', '.join(map(str, seeds))}"
                     f" (replicate r plays what `--seed {result['seed']}+r` plays): every "
                     f"figure is over all their games")
    for a in arms:
        where = f", lines in {a['games_out']}" if a.get("games_out") else ""
        opts = f" with {' '.join(a['options'])}" if a["options"] else ""
        unit = f"; a game's worth in {a['unit']}" if a.get("unit") else ""
        lines.append(f"  {a['label']}: {a['variant']}{opts}, {players_text(a)}; "
                     f"{a['games']} games: {a['decided']} decided, {a['draws']} drawn, "
                     f"{a['unfinished']} unfinished{unit}{where}")
        nets = a.get("networks") or {}
        for side in ("white", "black"):
            if nets.get(side):
                lines.append(f"    {side}'s network: {nets[side]}")
        first = a["first_player_win_rate"]
        if first.get("p_value") is not None:
            lines.append(f"    the first to throw against 1/2: p = {_p(first['p_value'])}, "
                         f"Holm-adjusted {_p(first.get('p_adjusted'))} (exact binomial, "
                         f"{first['n']} decided games)")
    lines.append("")
    names, cells, titles = _by_figure(result, figures)
    rows = [[titles[n]] + [cells[n].get(lab, "") for lab in labels] for n in names]
    lines += _table(["figure"] + labels, rows)
    if reps > 1:
        rows = _replicate_rows(result, titles)
        if rows:
            lines += ["", "each replicate's value, the pooled value with its interval, and the "
                      "test that the replicates agree (homogeneity: p not adjusted; a small p "
                      "says the replicates differ by more than chance)", ""]
            lines += _table(["figure", "arm"] + [f"r{r + 1}" for r in range(reps)] +
                            ["pooled [95 %]", "homogeneity p (test)"], rows)
    fams = _families_text(result)
    omnibus = result.get("omnibus") or []
    if omnibus:
        lines += ["", f"omnibus tests across the arms (χ² for rates, Kruskal–Wallis for "
                  f"lengths{'; paired: Cochran’s Q and Friedman' if result.get('paired') else ''}"
                  f"), p adjusted by Holm's method within each family", ""]
        rows = [[o["title"], o["family"], o["test"] +
                 (" (Monte Carlo)" if o.get("method") == "Monte Carlo" else ""),
                 f"{_num(o['statistic'])} ({o['df']})", _p(o["p_value"]),
                 _p(o.get("p_adjusted")), str(len(o["arms"]))] for o in omnibus]
        lines += _table(["figure", "family", "test", "statistic (df)", "p", "p (Holm)",
                         "arms"], rows)
    diffs = shown_differences(result)
    tested = [d for d in diffs if d.get("tested", True)]
    untested = [d for d in diffs if not d.get("tested", True)]
    paired = "paired, " if result.get("paired") else ""
    against = result.get("against")
    whom = "between every pair of arms" if against == "all pairs" else \
        f"against {against if against and against != 'the first arm' else labels[0]}"
    if tested:
        lines += ["", f"differences {whom} (B − A), {paired}two-sided tests, p adjusted by "
                  f"Holm's method within each family of tests (families by unit: {fams}; "
                  f"{result.get('tests', 0)} tests in all); games needed: per arm, for ±1 "
                  f"point (±1 % of A for means and rates)", ""]
        rows = [[d["title"]] + ([d["a"]] if against == "all pairs" else []) +
                [d["b"], _cell(d["difference"], *(d["ci"] or (None, None))), _p(d["p"]),
                 _p(d.get("p_adjusted")), str(d.get("family", "")), d["test"],
                 _num(d["games_needed"])]
                for d in tested]
        lines += _table(["figure"] + (["A"] if against == "all pairs" else []) +
                        ["B", "B − A [95 % interval]", "p", "p (Holm)", "family", "test",
                         "games needed"], rows)
    if untested:
        lines += ["", "side by side, not tested (different units, or a figure one arm has "
                  "not got or its rules make constant)", ""]
        lines += _untested_lines(untested)
    if result.get("caveat"):
        lines += ["", "note: " + result["caveat"]]
    return "\n".join(lines)


def players_text(arm: dict[str, Any]) -> str:
    """Who played the arm: "random (white) against search:1 (black)"."""
    pl = arm.get("players") or {}
    return f"{pl.get('white', '?')} (white) against {pl.get('black', '?')} (black)"


# -- CSV --------------------------------------------------------------------------------------

def render_csv(result: dict[str, Any], figures: Sequence[list[Figure]] = ()) -> str:
    """Everything `compare --json` holds, in long format: the run's settings and provenance
    (`section` "run": version, seed, games, tests...), each arm's own values (`arm`: variant,
    options, players, rules_fingerprint, weights_sha256, counts...), each arm's figures
    (`figure`: a column for every key of the figure object: value, lo, hi, n, k, method,
    games_needed, sd, median, quartiles, p, p_adjusted, test...; a nested object's keys as
    `KEY_SUBKEY`), a row for each replicate of a figure (`replicate`), then the differences
    (their arm written `B − A`) and the omnibus tests. Written from the JSON object alone, so
    that a key the JSON gains becomes a column; `figures` only give the figures' titles."""
    titles = {(i, f.name): f.title for i, figs in enumerate(figures) for f in figs}
    rows: list[dict[str, Any]] = []
    run = {k: v for k, v in result.items() if k not in _SECTIONS}
    for name, value in _flat(run):
        rows.append({"section": "run", "figure": name, "value": value})
    players = {a["label"]: _players_cell(a) for a in result["arms"]}
    for i, arm in enumerate(result["arms"]):
        label = arm["label"]
        for path, kind, obj in _walk(arm, ""):
            common = {"arm": label, "figure": path, "players": players[label]}
            if kind == "info":
                rows.append({"section": "arm", **common, "value": obj})
                continue
            title = titles.get((i, path))
            rows += _figure_rows(obj, {"section": "figure", **common,
                                       **({"title": title} if title else {})})
    for d in result.get("differences") or ():
        pa, pb = players.get(d.get("a"), ""), players.get(d.get("b"), "")
        rows += _figure_rows(d, {"section": "difference", "arm": f"{d.get('b')} − {d.get('a')}",
                                 "players": f"{pb} − {pa}" if pa or pb else ""})
    for o in result.get("omnibus") or ():
        rows += _figure_rows(o, {"section": "omnibus",
                                 "arm": " | ".join(map(str, o.get("arms") or ()))})
    columns = list(CSV_HEADER)
    for row in rows:
        columns += [k for k in row if k not in columns]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([_csv(row.get(c)) for c in columns])
    return buf.getvalue()


#: the first columns of the CSV, always there and in this order (a figure's first, so that a
#: spreadsheet made from an earlier CSV keeps its columns); any other key follows as met
CSV_HEADER = ("arm", "figure", "value", "lo", "hi", "n", "games_needed", "p", "p_adjusted",
              "players", "section", "title", "k", "method", "sd", "median", "q1", "q3",
              "p_value", "test", "family", "tested", "why", "paired", "replicate", "seed")
#: the parts of the JSON with rows of their own
_SECTIONS = ("arms", "differences", "omnibus")
#: a figure's keys written in another column: its value (a mean's, a difference's), the number
#: of a difference's arm B (`arm_b`, beside `arm_a`: the `arm` column holds `B − A`), an
#: omnibus test's arms (in `arm`)
_RENAMED: dict[str, str | None] = {"mean": "value", "difference": "value", "arm": "arm_b",
                                   "arms": None}


def _players_cell(arm: dict[str, Any]) -> str:
    pl = arm.get("players") or {}
    return f"{pl.get('white', '?')}/{pl.get('black', '?')}"


def _is_figure(obj: Any) -> bool:
    """An evaluated figure: an object with an interval and a value (or a mean)."""
    return isinstance(obj, dict) and "ci" in obj and ("value" in obj or "mean" in obj)


def _walk(obj: dict[str, Any], prefix: str) -> list[tuple[str, str, Any]]:
    """(dotted name, "figure" or "info", the figure object or the value) of every part of an
    arm: its figures (`win_rate.white`, `rules.R.per_game`, and a rule's `share`, a number
    with its `share_ci` and any other `share_KEY` beside it) and every other value."""
    out: list[tuple[str, str, Any]] = []
    # numbers written with their interval beside them (`share`, `share_ci`, `share_...`)
    plain = [k for k, v in obj.items()
             if f"{k}_ci" in obj and not isinstance(v, (dict, list))]
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if any(key.startswith(f"{k}_") for k in plain):
            continue                       # a part of the figure beside it
        if _is_figure(value):
            out.append((name, "figure", value))
        elif key in plain:
            fig = {"value": value, "ci": obj[f"{key}_ci"]}
            fig.update({k[len(key) + 1:]: v for k, v in obj.items()
                        if k.startswith(f"{key}_") and k != f"{key}_ci"})
            out.append((name, "figure", fig))
        elif isinstance(value, dict) and value:
            out += _walk(value, name + ".")
        else:
            out.append((name, "info", _cell_value(value)))
    return out


def _flat(obj: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Every value of an object, a nested object's keys dotted."""
    out: list[tuple[str, Any]] = []
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            out += _flat(value, f"{prefix}{key}.")
        else:
            out.append((f"{prefix}{key}", _cell_value(value)))
    return out


def _cell_value(value: Any) -> Any:
    """A value as one cell: a list of plain values joined by spaces, anything else nested as
    compact JSON, an empty object as nothing."""
    if isinstance(value, list):
        if all(x is None or isinstance(x, (str, int, float)) for x in value):
            return " ".join(_csv(x) for x in value)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) if value else None
    return value


def _figure_rows(fig: dict[str, Any], base: dict[str, Any]) -> list[dict[str, Any]]:
    """The row of a figure object (each key its column, `ci` as `lo` and `hi`, a nested
    object's keys as `KEY_SUBKEY`), then a row for each object of a list it holds
    (`replicates`: one row a replicate, numbered from 0 in `replicate`)."""
    row = dict(base)
    subrows: list[dict[str, Any]] = []
    for key, value in fig.items():
        if key == "ci":
            lo, hi = value if isinstance(value, (list, tuple)) and len(value) == 2 \
                else (None, None)
            row["lo"], row["hi"] = lo, hi
        elif key in _RENAMED:
            column = _RENAMED[key]
            if column is not None:
                row[column] = value
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            item = key[:-1] if key.endswith("s") else key
            for r, sub in enumerate(value):
                subrows += _figure_rows(sub, {"section": item, "arm": base.get("arm"),
                                              "figure": base.get("figure"),
                                              "players": base.get("players"), item: r})
        elif isinstance(value, dict):
            for sub, x in value.items():
                row[f"{key}_{sub}"] = _cell_value(x)
        else:
            row[key] = _cell_value(value)
    # the p-value in `p`, whatever the figure calls it (the first player's test against 1/2)
    if row.get("p") is None and row.get("p_value") is not None:
        row["p"] = row["p_value"]
    return [row] + subrows


def _csv(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    return repr(x) if isinstance(x, float) else str(x)
