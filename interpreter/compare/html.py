"""The HTML report of `tablier compare --html FILE`: one self-contained page, for the screen
and for print.

At the top, what a reader needs before any figure: the arms with their players, the games,
seeds and replicates, the version and the rules' fingerprints, the caveat, and a list of
contents. Then the arms, the rules diff (folded: one line per arm says how much differs), the
figures as tables and plots, the tests and the games needed. The plots are those of
interpreter/compare/figures.py, embedded as inline SVG (text drawn as paths: no font is needed
by the reader), their element ids prefixed per plot so that several plots in one page never
share an id. The page has no script and loads nothing.

Printed (A4), every table is printed whole, its header repeated on each page, wide tables in a
smaller type that wraps to the page's width, no plot split across two pages, and the diff
folded: nothing is clipped. On screen, a table too wide for the window scrolls sideways inside
its own box; no table hides rows in a box of its own height.
"""
from __future__ import annotations

import html
import re
from typing import Any, Sequence

from interpreter.compare.core import evaluate
from interpreter.compare.figures import (COLOURS, Plot, arm_name, check_available, letter,
                                         plots, svg_text, unit_of)
from interpreter.compare.report import _by_figure, _num, _p, shown_differences
from interpreter.compare.tally import Figure

__all__ = ["COLOURS", "arm_name", "check_available", "render_html"]

_EXTRA_CSS = """
body { max-width: 76rem; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9em; color: #555; }
.side { display: flex; flex-wrap: wrap; gap: 1rem; }
.side figure { flex: 1 1 30rem; }
td.num { text-align: right; }
td.num .ci { white-space: nowrap; }
.note { font-size: .9em; color: #555; }
.caveat { border-left: 4px solid #D55E00; padding: .3rem .8rem; background: #fff3e8; }
.glance { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem;
          margin: .8rem 0; }
.glance dt { font-weight: bold; color: #5a2d0c; }
.glance dd { margin: 0; }
nav.contents ol { columns: 2; margin: .3rem 0 1rem; }
code.hash { word-break: break-all; font-size: .8em; }
.wide { overflow-x: auto; max-width: 100%; margin: .8rem 0; }
.wide table { margin: 0; font-size: .85em; }
.wide td:first-child { position: sticky; left: 0; background: #fffdf8; }
th small { font-weight: normal; color: #555; }
details { margin: .4rem 0 .6rem; }
details.diff > summary { cursor: pointer; }
details.diff > div { border-left: 3px solid #e4d8c4; padding-left: .8rem; }
td.why, .why { color: #555; font-style: italic; }
ul.absent { font-size: .9em; }
@page { size: A4; margin: 14mm 12mm 16mm 12mm; }
@media print {
  html, body { background: #fff; }
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; line-height: 1.3; }
  h1 { font-size: 15pt; margin-top: 0; }
  h2 { font-size: 12.5pt; margin-top: 1.1rem; break-after: avoid; }
  h3, h4 { font-size: 10.5pt; break-after: avoid; }
  p, li { orphans: 3; widows: 3; }
  .wide { overflow: visible; max-width: none; max-height: none; margin: .4rem 0; }
  .wide td:first-child { position: static; background: none; }
  table, .wide table { width: 100%; font-size: 7.5pt; }
  table.many, .wide table.many { font-size: 6.5pt; }
  th, td { padding: 1pt 3pt; }
  td, th { overflow-wrap: anywhere; }
  td.num, td.num .ci { white-space: normal; overflow-wrap: normal; }
  thead { display: table-header-group; }
  tr, figure, .caveat, dl.glance { break-inside: avoid; }
  figure { margin: .5rem 0; }
  figure svg { width: 100%; height: auto; max-height: 235mm; }
  .side { display: block; }
  .caveat { background: none; }
  nav.contents ol { columns: 3; margin: 0 0 .5rem; }
  a { color: inherit; text-decoration: none; }
  details.diff > summary { list-style: none; }
  details.diff > summary::-webkit-details-marker { display: none; }
}
"""


def _svg_inline(svg: str, name: str) -> str:
    """An SVG document as an inline <svg> element, its ids prefixed with `name`."""
    text = svg[svg.index("<svg"):]
    text = re.sub(r'id="([^"]+)"', lambda m: f'id="{name}-{m.group(1)}"', text)
    text = re.sub(r'url\(#([^)]+)\)', lambda m: f"url(#{name}-{m.group(1)})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{name}-{m.group(1)}"', text)
    return text


def _figure(plot: Plot) -> str:
    return (f'<figure id="plot-{plot.name}" aria-label="{html.escape(plot.title, quote=True)}">'
            f"{_svg_inline(svg_text(plot), plot.name)}"
            f"<figcaption><strong>{html.escape(plot.title.capitalize())}</strong> "
            f"(<code>{html.escape(plot.name)}</code>). {html.escape(plot.caption)}"
            f"</figcaption></figure>")


def _arm_header(i: int, a: dict[str, Any]) -> str:
    """The header of an arm's column, escaped: its letter and label, its players beneath."""
    pl = a.get("players") or {}
    return (f"{letter(i)} {html.escape(a['label'])}<br><small>"
            f"{html.escape(pl.get('white', '?'))} (white) v "
            f"{html.escape(pl.get('black', '?'))} (black)</small>")


class Raw(str):
    """A cell already written in HTML."""


def _cell(c: str) -> str:
    if isinstance(c, Raw):
        return c
    # a value and its interval: the interval may go to the next line, not the value
    value, sep, rest = c.partition(" [")
    if sep and rest.endswith("]"):
        return f'{html.escape(value)} <span class="ci">[{html.escape(rest)}</span>'
    return html.escape(c)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 1,
           text_from: int = 10 ** 6, cls: str = "") -> str:
    head = "".join(f"<th>{h if isinstance(h, Raw) else html.escape(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(
        f'<td class="num">{_cell(c)}</td>' if numeric_from <= j < text_from else
        f"<td>{c if isinstance(c, Raw) else html.escape(c)}</td>" for j, c in enumerate(r))
        + "</tr>" for r in rows)
    many = len(header) > 8
    klass = " ".join(x for x in (cls, "many" if many else "") if x)
    attr = f' class="{klass}"' if klass else ""
    return (f'<div class="wide"><table{attr}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            f"{body}\n</tbody>\n</table></div>")


def _short(value: float | None, ci: Sequence[float] | None) -> str:
    """A value and its interval with four significant digits (the CSV and JSON have all)."""
    def f(x: float) -> str:
        return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
    if value is None:
        return "—"
    return f(value) if not ci else f"{f(value)} [{f(ci[0])}, {f(ci[1])}]"


# -- the rules diff ----------------------------------------------------------------------------

#: the groups of `tablier diff` whose keys change how a game is played or what it is worth
_PLAY = (("options", "options"), ("movement", "movement"), ("dice", "dice"),
         ("ladder", "ladder"), ("board", "board"), ("option_sets", "option sets"),
         ("regions", "regions"), ("define", "definitions"), ("turn", "turn"))


def diff_summary(result: dict[str, Any]) -> tuple[int, str]:
    """The keys that differ in one `diff_documents` result and a one-line account of them:
    (keys that change play, "rules 3, board 1; also [bot] 2, the description 4")."""
    rules = result.get("rules") or {}
    counts = [("rules", len(rules.get("added", ())) + len(rules.get("removed", ())) +
               len({c["id"] for c in rules.get("changed", ())}))]
    counts += [(words, len(result.get(key) or ())) for key, words in _PLAY]
    play = [(w, n) for w, n in counts if n]
    others = [(w, len(result.get(k) or ())) for k, w in (("bot", "[bot]"),
                                                         ("variant", "the description"))]
    others = [(w, n) for w, n in others if n]
    total = sum(n for _w, n in play)
    text = ", ".join(f"{w} {n}" for w, n in play)
    if others:
        text += ("; also " if text else "") + ", ".join(f"{w} {n}" for w, n in others)
    return total, text


def _diffs_html(specs: Sequence[Any], arms: Sequence[dict[str, Any]]) -> str:
    from interpreter.rulebook.blocks import html_body
    from interpreter.rulebook.diff import diff_blocks, diff_documents
    from interpreter.variant.loader import load_document

    docs = [load_document(s.ref, list(s.overrides)) for s in specs]
    parts = []
    for j in range(1, len(docs)):
        result = diff_documents(docs[0], docs[j])
        blocks = diff_blocks(docs[0], docs[j], result, level=4)
        keys, what = diff_summary(result)
        label = arms[j]["label"] if j < len(arms) else specs[j].label
        line = (f"{letter(j)} {label} against A: " +
                (f"{keys} key{'s' if keys != 1 else ''} of play differ{'s' if keys == 1 else ''}"
                 if keys else "no key of play differs") + (f" ({what})" if what else ""))
        parts.append(f'<details class="diff"><summary>{html.escape(line)}</summary><div>'
                     f"{html_body(blocks)}</div></details>")
    return "\n".join(parts)


# -- the parts of the page -----------------------------------------------------------------------


def _any(x: Any) -> str:
    """A statistic or its degrees of freedom, whatever its shape (a number, a pair, text)."""
    if x is None:
        return "—"
    if isinstance(x, (list, tuple)):
        return ", ".join(_any(y) for y in x)
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return _num(x)
    return str(x)


def _short_hash(h: str | None) -> str:
    return "—" if not h else f"{h[:12]}…"


def _glance(result: dict[str, Any], names: Sequence[str]) -> str:
    """The summary at the top: who played what, how many games, which seeds, which version."""
    arms = result["arms"]
    esc = html.escape
    items: list[tuple[str, str]] = []
    items.append(("Arms", "; ".join(f"<strong>{letter(i)}</strong> {esc(n)}"
                                    for i, n in enumerate(names))))
    games = sorted({a.get("games") for a in arms})
    per = (f"{games[0]:,} per arm" if len(games) == 1 and games[0] is not None else
           ", ".join(f"{letter(i)} {a.get('games'):,}" for i, a in enumerate(arms)))
    finished = sum(a.get("unfinished") or 0 for a in arms)
    drawn = sum(a.get("draws") or 0 for a in arms)
    items.append(("Games", per + (f"; {drawn:,} drawn" if drawn else "") +
                  (f"; {finished:,} unfinished" if finished else "") +
                  ("; <strong>interrupted</strong>" if result.get("interrupted") else "")))
    seeds = result.get("seeds")
    seed = esc(str(result.get("seed")))
    if seeds and len(seeds) > 1:
        first = esc(str(seeds[0]))
        arm = (f"every arm the games of <code>simulate --seed {first}+r</code>, paired"
               if result.get("paired") else
               f"arm i, from 0, the games of <code>simulate --seed {first}+r+i</code>")
        items.append(("Seeds", f"{esc(', '.join(str(s) for s in seeds))}: replicate r, from "
                      f"0, is what <code>compare --seed {first}+r</code> plays ({arm})"))
    else:
        arm = ("paired: every arm plays the games of <code>simulate --seed "
               f"{seed}</code>, the same seed and dice for game i of each arm"
               if result.get("paired") else
               f"arm i, from 0, plays the games of <code>simulate --seed {seed}+i</code>")
        items.append(("Seed", f"{seed} ({arm})"))
    items.append(("Replicates", esc(str(result.get("replicates") or 1))))
    fams = result.get("families") or {}
    tests = f"{result.get('tests', 0)} tests"
    if fams:
        tests += (", p-values adjusted by Holm's method within each family (" +
                  ", ".join(f"{esc(k)} {v.get('tests', '?')}" for k, v in fams.items()) + ")")
    else:
        tests += ", p-values adjusted by Holm's method over all of them"
    against = result.get("against")
    if against:
        tests += f"; compared against {esc(str(against))}"
    items.append(("Tests", tests))
    if result.get("version"):
        items.append(("Tablier", f"version {esc(str(result['version']))}"))
    prints = [(i, a.get("rules_fingerprint")) for i, a in enumerate(arms)]
    if any(h for _i, h in prints):
        items.append(("Rules fingerprints", "; ".join(
            f"{letter(i)} <code>{esc(_short_hash(h))}</code>" for i, h in prints) +
            ' (in full under <a href="#provenance">Provenance</a>)'))
    return ('<dl class="glance">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
            + "</dl>")


def _provenance(result: dict[str, Any]) -> str | None:
    arms = result["arms"]
    if not any(a.get("rules_fingerprint") or a.get("weights_sha256") for a in arms):
        return None
    rows = []
    for i, a in enumerate(arms):
        w = a.get("weights_sha256") or {}

        def code(h: Any) -> Raw:
            return Raw(f'<code class="hash">{html.escape(str(h))}</code>' if h else "—")
        rows.append((letter(i), a["label"], code(a.get("rules_fingerprint")),
                     code(w.get("white")), code(w.get("black"))))
    version = result.get("version")
    return ("<h3 id=\"provenance\">Provenance</h3><p class=\"note\">" +
            (f"Tablier {html.escape(str(version))}. " if version else "") +
            "Each arm's rules fingerprint (a sha256 over everything of the compiled variant "
            "that changes play or its value) and the sha256 of the weights file each side's "
            "learned player read (— for a player without one).</p>" +
            _table(("", "arm", "rules fingerprint", "weights, white", "weights, black"), rows,
                   numeric_from=99))


def _families(result: dict[str, Any]) -> str | None:
    fams = result.get("families")
    if not fams:
        return None
    return ("<p class=\"note\">Tests are grouped in families by the unit of their figures; "
            "Holm's adjustment runs within each family, of the size given here.</p>" +
            _table(("family", "tests", "adjustment"),
                   [(k, str(v.get("tests", "—")), str(v.get("adjustment", "Holm")))
                    for k, v in fams.items()], numeric_from=1, text_from=2))


def _omnibus(result: dict[str, Any]) -> str | None:
    tests = result.get("omnibus")
    if not tests:
        return None
    labels = [a["label"] for a in result["arms"]]

    def arms(t: dict[str, Any]) -> str:
        return " ".join(letter(labels.index(x)) if x in labels else str(x)
                        for x in t.get("arms") or ())
    return ("<h3 id=\"omnibus\">Across all the arms</h3><p class=\"note\">One test across all "
            "the arms first (χ² for rates, Kruskal–Wallis for lengths and other means): does "
            "any arm differ? Then the comparisons below say which.</p>" +
            _table(("figure", "test", "statistic", "df", "p", "p (Holm)", "family", "arms"),
                   [(str(t.get("title") or t.get("figure")), str(t.get("test", "")),
                     _any(t.get("statistic")), _any(t.get("df")), _p(t.get("p_value")),
                     _p(t.get("p_adjusted")), str(t.get("family") or "—"), arms(t))
                    for t in tests], numeric_from=2, text_from=6))


def _pair(result: dict[str, Any], d: dict[str, Any]) -> Raw:
    labels = [a["label"] for a in result["arms"]]
    a = labels.index(d["a"]) if d.get("a") in labels else 0
    b = labels.index(d["b"]) if d.get("b") in labels else int(d.get("arm") or 0)
    return Raw(f"{letter(b)} − {letter(a)}<br><small>{html.escape(str(d['b']))} − "
               f"{html.escape(str(d['a']))}</small>")


def _differences(result: dict[str, Any], names: dict[str, str]) -> str:
    """The differences with their tests, one table per family when the result has families,
    and those reported side by side but not tested (units that differ) with their reason."""
    diffs = shown_differences(result)
    tested = [d for d in diffs if d.get("tested", True) is not False]
    untested = [d for d in diffs if d.get("tested", True) is False]
    header = ("figure", "B − A", "value in A", "value in B", "B − A [95 % interval]", "p",
              "p (Holm)", "games needed", "test")

    def row(d: dict[str, Any]) -> list[str]:
        lo, hi = d.get("ci") or (None, None)
        diff = "—" if d.get("difference") is None else (
            _num(d["difference"]) if lo is None else
            f"{_num(d['difference'])} [{_num(lo)}, {_num(hi)}]")
        return [str(d["title"]), _pair(result, d), _num(d.get("value_a")),
                _num(d.get("value_b")), diff, _p(d.get("p")), _p(d.get("p_adjusted")),
                _num(d.get("games_needed")), str(d.get("test") or "")]
    out = []
    fams = result.get("families") or {}
    if any(d.get("family") for d in tested):
        order = list(fams) + sorted({str(d.get("family")) for d in tested} - set(fams))
        for fam in order:
            members = [d for d in tested if str(d.get("family")) == fam]
            if not members:
                continue
            size = (fams.get(fam) or {}).get("tests")
            out.append(f"<h4>Family: {html.escape(fam)}" +
                       (f" ({size} tests, Holm within the family)" if size else "") + "</h4>")
            out.append(_table(header, [row(d) for d in members], numeric_from=2,
                              text_from=8, cls="differences"))
    else:
        out.append(_table(header, [row(d) for d in tested], numeric_from=2, text_from=8,
                          cls="differences"))
    both = [d for d in untested if d.get("value_a") is not None and d.get("value_b") is not None]
    if both:
        out.append("<h4 id=\"untested\">Side by side, not tested</h4><p class=\"note\">"
                   "Figures whose arms count in different units (points against jetons, holes "
                   "against games) are shown side by side but never tested against each "
                   "other.</p>")
        out.append(_table(("figure", "B − A", "value in A", "value in B", "why not tested"),
                          [[str(d["title"]), _pair(result, d), _num(d.get("value_a")),
                            _num(d.get("value_b")), _why(d)] for d in both],
                          numeric_from=2, text_from=4, cls="untested"))
    absent = [d for d in untested if d not in both]
    if absent:
        out.append("<h4 id=\"absent\">Figures of one arm only</h4><p class=\"note\">What "
                   "one arm of a comparison has and the other has not (a rule, a ladder's "
                   "figure, a kind of result), not tested; each arm's value is in the tables "
                   "of figures and rules above.</p>")
        out.append(_absent(result, absent))
    return "\n".join(out)


def _absent(result: dict[str, Any], absent: Sequence[dict[str, Any]]) -> str:
    """One line per comparison: the figures only one of its arms has, a rule's three figures
    (per game, per throw, share) named once by the rule."""
    labels = [a["label"] for a in result["arms"]]
    by: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for d in absent:
        a = labels.index(d["a"]) if d.get("a") in labels else 0
        b = labels.index(d["b"]) if d.get("b") in labels else int(d.get("arm") or 0)
        by.setdefault((b, a), []).append(d)
    items = []
    for (b, a), ds in sorted(by.items()):
        parts = []
        for side, who, present in ((b, "only in", "value_b"), (a, "only in", "value_a")):
            mine = [d for d in ds if d.get(present) is not None]
            rules = list(dict.fromkeys(str(d["figure"]).split(".")[1] for d in mine
                                       if str(d["figure"]).startswith("rules.")))
            others = [str(d["title"]) for d in mine if not str(d["figure"]).startswith("rules.")]
            if others:
                parts.append(f"{who} {letter(side)}: " + ", ".join(others))
            if rules:
                parts.append(f"rules {who} {letter(side)}: " + ", ".join(rules))
        neither = [str(d["title"]) for d in ds
                   if d.get("value_a") is None and d.get("value_b") is None]
        if neither:
            parts.append("in neither: " + ", ".join(neither))
        items.append(f"<li><strong>{letter(b)} − {letter(a)}</strong> "
                     f"({html.escape(labels[b])} − {html.escape(labels[a])}): "
                     f"{html.escape('; '.join(parts))}.</li>")
    return '<ul class="absent">' + "".join(items) + "</ul>"


def _why(d: dict[str, Any]) -> Raw:
    return Raw(f'<span class="why">{html.escape(str(d.get("why") or "not tested"))}</span>')


#: the figures whose replicates are tabled one by one
_MAIN = (("first_player_win_rate", "the first to throw wins"),
         ("win_rate.white", "white wins"), ("draw_rate", "drawn"),
         ("length_throws", "length in throws"), ("value_points", "worth of a game"))


def _figure_json(a: dict[str, Any], name: str) -> dict[str, Any] | None:
    if name.startswith("rules."):
        rule, _, what = name[len("rules."):].rpartition(".")
        r = (a.get("rules") or {}).get(rule) or {}
        got = r.get(what)
        return got if isinstance(got, dict) else None
    head, _, rest = name.partition(".")
    node = a.get(head)
    if rest and isinstance(node, dict):
        node = node.get(rest)
    return node if isinstance(node, dict) else None


def _replicates(result: dict[str, Any], names_: Sequence[str], titles: dict[str, str]
                ) -> str | None:
    arms = result["arms"]
    heads: list[str] = [Raw(_arm_header(i, a)) for i, a in enumerate(arms)]
    have = [n for n in names_ if any((_figure_json(a, n) or {}).get("replicates")
                                     for a in arms)]
    if not have:
        return None
    out = ["<p class=\"note\">Each replicate is an independent run of the whole design with "
           "its own seed. For each main figure, every replicate's estimate with its 95 % "
           "interval and its number of games or events (n), the pooled estimate over all "
           "the replicates' games, and the test of homogeneity across the replicates (χ² on "
           "the replicates × 2 table for proportions; Kruskal–Wallis or one-way ANOVA for "
           "means): a small p says the replicates disagree more than chance allows.</p>"]
    for name, title in _MAIN:
        objs = [_figure_json(a, name) for a in arms]
        if not any(o and o.get("replicates") for o in objs):
            continue
        seeds: list[Any] = []
        for o in objs:
            for r in (o or {}).get("replicates") or ():
                if r.get("seed") not in seeds:
                    seeds.append(r.get("seed"))
        rows = []
        for s in seeds:
            row = [f"seed {s}"]
            for o in objs:
                rep = next((r for r in (o or {}).get("replicates") or ()
                            if r.get("seed") == s), None)
                row.append("—" if rep is None else
                           f"{_short(rep.get('value'), rep.get('ci'))} (n {rep.get('n')})")
            rows.append(row)
        rows.append(["pooled"] + ["—" if o is None else
                                  _short(o.get("value", o.get("mean")), o.get("ci"))
                                  for o in objs])
        rows.append(["homogeneity"] + [_homogeneity(o) for o in objs])
        out.append(f"<h4>{html.escape(title)}</h4>")
        out.append(_table(["replicate"] + heads, rows))
    other = [n for n in have if n not in dict(_MAIN)]
    if other:
        out.append("<h4>Homogeneity of the other figures</h4>")
        out.append(_table(["figure"] + heads,
                          [[titles.get(n, n)] + [_homogeneity(_figure_json(a, n))
                                                 for a in arms] for n in other]))
    return "\n".join(out)


def _homogeneity(o: dict[str, Any] | None) -> str:
    h = (o or {}).get("homogeneity")
    if not h:
        return "—"
    test = str(h.get("test") or "")
    df = h.get("df")
    return (f"{test} {_any(h.get('statistic'))}" + (f" (df {_any(df)})" if df is not None
                                                     else "") + f", p {_p(h.get('p_value'))}")


def _units(arms: Sequence[dict[str, Any]]) -> str:
    """What the worth of a game is counted in, where the arms say."""
    if not any(a.get("unit") for a in arms):
        return ""
    units = {unit_of(a) for a in arms}
    if len(units) == 1:
        return f" The worth of a game is in {html.escape(units.pop())}."
    return (" The worth of a game is in each arm's unit: " + "; ".join(
        f"{letter(i)} {html.escape(unit_of(a))}" for i, a in enumerate(arms)) + ".")


# -- the page ------------------------------------------------------------------------------------


def render_html(specs: Sequence[Any], result: dict[str, Any],
                figures: Sequence[list[Figure]], drawn: Sequence[Plot] | None = None) -> str:
    """The report as one HTML page; `drawn`: the plots, when already drawn (`--figures`)."""
    from interpreter.rulebook.blocks import CSS

    arms = result["arms"]
    labels = [a["label"] for a in arms]
    heads: list[str] = [Raw(_arm_header(i, a)) for i, a in enumerate(arms)]
    names = {a["label"]: arm_name(a) for a in arms}
    esc = html.escape
    title = "Comparison: " + " | ".join(labels)
    every = list(drawn) if drawn is not None else plots(result, figures)
    by_name = {p.name: p for p in every}
    names_, cells, titles = _by_figure(result, figures)
    replicates = _replicates(result, names_, titles)
    omnibus = _omnibus(result)
    out = [f"<h1>{esc(title)}</h1>"]
    if result.get("interrupted"):
        out.append("<p><strong>Interrupted</strong>: the figures are over the games "
                   "finished.</p>")
    out.append('<section id="summary">')
    out.append(_glance(result, [arm_name(a) for a in arms]))
    if result.get("caveat"):
        out.append(f'<p class="caveat">{esc(result["caveat"])}</p>')
    contents = [("arms", "The arms"), ("differs", "What differs"), ("figures", "Figures"),
                ("rules", "Rules")]
    if replicates:
        contents.append(("replicates", "Replicates"))
    contents.append(("plots", "Plots"))
    contents.append(("tests", "Differences and tests"))
    contents.append(("needed", "Games needed"))
    out.append('<nav class="contents"><strong>Contents</strong><ol>' + "".join(
        f'<li><a href="#{k}">{v}</a></li>' for k, v in contents) + "</ol></nav>")
    out.append("</section>")

    out.append('<h2 id="arms">The arms</h2>')
    if result.get("paired"):
        how = (f"Paired: game i of every arm is the game i of <code>tablier simulate --seed "
               f"{result['seed']}</code>, the same seed and dice (common random numbers), "
               f"and the differences are taken game by game.")
    else:
        how = (f"Arm i, from 0, plays the games of <code>tablier simulate --seed "
               f"{result['seed']}+i</code>.")
    out.append(f"<p class=\"note\">{how} Every interval is a 95 % interval "
               f"(z = {result['z']}); every figure can be recomputed from the games' "
               f"lines.</p>")
    out.append(_table(("", "arm", "variant", "options", "white", "black", "games", "decided",
                       "drawn", "unfinished", "lines"), [
        (letter(i), a["label"], a["variant"], " ".join(a.get("options") or ()) or "—",
         a["players"]["white"], a["players"]["black"], str(a["games"]), str(a["decided"]),
         str(a["draws"]), str(a["unfinished"]), a.get("games_out") or "—")
        for i, a in enumerate(arms)], numeric_from=6, text_from=10))
    prov = _provenance(result)
    if prov:
        out.append(prov)

    out.append('<h2 id="differs">What differs</h2>')
    if len(specs) > 1:
        out.append("<p class=\"note\">The <code>tablier diff</code> of each arm against A "
                   "(rules, options and the switches they set, movement, dice, ladder, board, "
                   "regions and definitions, <code>[turn]</code>, <code>[bot]</code>, the "
                   "description): one line each, folded; open it to read the keys.</p>")
        out.append(_diffs_html(specs, arms))
    else:
        out.append("<p>One arm: nothing to compare.</p>")

    out.append('<h2 id="figures">Figures</h2>')
    plain = [n for n in names_ if not n.startswith("rules.")]
    out.append("<p class=\"note\">Each value with its 95 % interval, under the players named "
               "at the head of each column: proportions (of the decided games for the win "
               "rates; of the ladder's games for game values and cube levels, of the marks for "
               "mark kinds) with Wilson intervals; means per game with mean ± z·s/√n, or the "
               "exact Poisson interval where a count is rare; rates with linearised ratio "
               "intervals. The branching factor is the mean number of legal plays a throw, the "
               "forced throws those with at most one play." + _units(arms) + "</p>")
    out.append(_table(["figure"] + heads,
                      [[titles[n]] + [cells[n].get(lab, "") for lab in labels] for n in plain],
                      cls="figures"))
    out.append("<p class=\"note\">The first to throw against 1/2 (exact binomial test over "
               "the decided games): " + "; ".join(
                   f"{letter(i)}: p = {_p(a['first_player_win_rate'].get('p_value'))}, Holm "
                   f"{_p(a['first_player_win_rate'].get('p_adjusted'))}"
                   for i, a in enumerate(arms)) + ".</p>")

    out.append('<h2 id="rules">Rules</h2>')
    out.append("<p class=\"note\">Firings per game (both sides together), per throw (all "
               "firings over all throws) and each rule's share of all the points the rules "
               "gave, with 95 % intervals (exact Poisson where the firings are rare; a rule "
               "that never fired gets [0, upper bound]); — where the arm has no such rule.</p>")
    rules: list[str] = []
    for a in arms:
        rules += [r for r in a.get("rules") or {} if r not in rules]
    silent = [r for r in rules if all(not sum(a["rules"][r]["fired"].values())
                                      for a in arms if r in a["rules"])]
    rules = [r for r in rules if r not in silent]
    for what, heading in (("per_game", "Firings per game"), ("per_throw", "Firings per throw"),
                          ("share", "Share of the points")):
        if what == "share" and not any(a.get("points") for a in arms):
            continue
        rows = []
        for rule in rules:
            row = [rule]
            for a in arms:
                r = a["rules"].get(rule)
                if r is None:
                    row.append("—")
                elif what == "share":
                    row.append(_short(r["share"], r["share_ci"]))
                else:
                    row.append(_short(r[what]["value"], r[what]["ci"]))
            rows.append(row)
        if rows:
            out.append(f"<h3>{heading}</h3>")
            out.append(_table(["rule"] + heads, rows, cls=f"rules-{what}"))
    if silent:
        out.append(f"<p>Never fired in any arm: {esc(', '.join(silent))}.</p>")

    if replicates:
        out.append('<h2 id="replicates">Replicates</h2>')
        out.append(replicates)

    out.append('<h2 id="plots">Plots</h2>')
    out.append("<p class=\"note\">Each arm keeps its colour, marker and line style in every "
               "plot, and its letter: " + "; ".join(
                   f"{letter(i)} = {esc(n)}" for i, n in enumerate(names.values())) +
               ". Arms with the same results are drawn side by side, never on top of each "
               "other. With <code>--figures DIR</code> each plot is also written as "
               "<code>NAME.svg</code> and <code>NAME.pdf</code>, NAME given under it.</p>")
    for name in ("win-rates", "length-throws", "length-holes", "length-marks", "length-games",
                 "worth", "game-values", "rule-shares", "rule-rates", "replicates"):
        if name in by_name:
            out.append(_figure(by_name[name]))

    out.append('<h2 id="tests">Differences and tests</h2>')
    if omnibus:
        out.append(omnibus)
    for name in ("differences", "differences-rules"):
        if name in by_name:
            out.append(_figure(by_name[name]))
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
    holm = ("within each family of tests (figures of one unit)" if result.get("families")
            else f"over all {result.get('tests', 0)} tests of the report")
    against = result.get("against")
    pairs = ("every pair of arms" if against == "all pairs" else
             f"each arm against {esc(str(against))}" if against else "each arm against A")
    out.append(f"<p class=\"note\">Compared: {pairs}. Each row is one figure of two arms, "
               f"the second named minus the first named (arms by their letters). {tests} "
               f"p (Holm): adjusted by Holm's method "
               f"{holm}. White's and black's win rates over the decided games are "
               f"complements: only white's is tested. Games needed: per arm, for ±1 "
               f"percentage point on a difference of proportions, ±1 % of A's figure "
               f"otherwise.</p>")
    fams = _families(result)
    if fams:
        out.append(fams)
    out.append(_differences(result, names))

    out.append('<h2 id="needed">Games needed</h2>')
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
                      [[titles[n]] + [need.get(n, {}).get(lab, "") for lab in labels]
                       for n in shown]))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}{_EXTRA_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(out) + "\n</body>\n</html>\n")
