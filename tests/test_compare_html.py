"""The HTML report of `tablier compare --html` and the plots of `--figures DIR`: one
self-contained file that prints on A4 with nothing clipped, plots that show every arm even when
two coincide, shares on a linear axis, the worth of a game, and figure files that are the same
bytes for the same run (checked in headless Chromium, driven by Playwright, when both are
installed)."""
from __future__ import annotations

import copy
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main

pytest.importorskip("matplotlib")

from interpreter.compare import figures as figs  # noqa: E402
from interpreter.compare.html import diff_summary, render_html  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.svg_children: list[int] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "svg":
            self.svg_children.append(0)
        elif self.svg_children and tag in ("path", "use", "line", "rect", "polyline"):
            self.svg_children[-1] += 1


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path]:
    path = tmp_path_factory.mktemp("html") / "report.html"
    assert main(["compare", "triktrak", "tric-trac-12", "--games", "8", "--seed", "3",
                 "--jobs", "1", "--html", str(path), "--json"]) == 0
    return (path,)


@pytest.fixture(scope="module")
def same() -> tuple[list, dict[str, Any], list]:
    """Backgammon compared with itself, paired: two arms with identical games."""
    from interpreter.compare.arms import parse_arms
    from interpreter.compare.core import compare

    specs = parse_arms(["backgammon", "backgammon"])
    kept: list = []
    result = compare(specs, 6, 1, "random", "random", 1, None, None, None,
                     keep_figures=kept, paired=True)
    return specs, result, kept


def enrich(result: dict[str, Any]) -> dict[str, Any]:
    """The result with every field of a study written in by hand: the version, each arm's
    fingerprint and weights, replicates and their homogeneity, families, an omnibus test and
    a difference reported side by side but not tested."""
    r = copy.deepcopy(result)
    labels = [a["label"] for a in r["arms"]]
    r.update({"version": "9.8.7", "replicates": 2, "seeds": [1, 2], "tests": 3,
              "families": {"proportion": {"tests": 2, "adjustment": "Holm"},
                           "throws": {"tests": 1, "adjustment": "Holm"}},
              "omnibus": [{"figure": "first_player_win_rate", "title": "first to throw wins",
                           "family": "proportion", "test": "chi-square", "statistic": 1.25,
                           "df": 1, "p_value": 0.2636, "p_adjusted": 0.5272,
                           "arms": labels}]})
    for i, a in enumerate(r["arms"]):
        a["unit"] = "points"
        a["rules_fingerprint"] = f"{i:x}" * 64
        a["weights_sha256"] = {"white": "ab" * 32 if i == 0 else None, "black": None}
        for key in ("first_player_win_rate", "length_throws"):
            e = a[key]
            v = e.get("value", e.get("mean"))
            e["replicates"] = [{"seed": 1, "value": v, "ci": e["ci"], "n": 3},
                               {"seed": 2, "value": v, "ci": e["ci"], "n": 3}]
            e["homogeneity"] = ({"test": "chi-square", "statistic": 0.0, "df": 1,
                                 "p_value": 1.0} if key == "first_player_win_rate" else
                                {"test": "one-way ANOVA", "statistic": 0.0, "df": [1, 4],
                                 "p_value": 1.0})
    for d in r["differences"]:
        d["family"] = "proportion" if d["kind"] == "proportion" else "throws"
        d["tested"] = True
    r["differences"].append({"figure": "value_points", "title": "worth of a game",
                             "kind": "mean", "a": labels[0], "b": labels[1], "arm": 1,
                             "value_a": 1.5, "value_b": 60.0, "difference": None, "ci": None,
                             "p": None, "p_value": None, "p_adjusted": None, "tested": False,
                             "why": "units differ: points against jetons", "family": None,
                             "test": None, "games_needed": None, "paired": True})
    r["differences"].append({"figure": "rules.battre-le-coin.per_game",
                             "title": "battre-le-coin: firings per game", "kind": "mean",
                             "a": labels[0], "b": labels[1], "arm": 1, "value_a": None,
                             "value_b": 1.08, "difference": None, "ci": None, "p": None,
                             "p_value": None, "p_adjusted": None, "tested": False,
                             "why": f"{labels[0]} has no rule battre-le-coin", "family": None,
                             "test": None, "games_needed": None, "paired": True})
    return r


NEW_FIELDS = ("version", "replicates", "seeds", "families", "omnibus")
NEW_ARM_FIELDS = ("unit", "rules_fingerprint", "weights_sha256")


def strip(result: dict[str, Any]) -> dict[str, Any]:
    """The result without any of the fields a study adds (as older results are)."""
    r = copy.deepcopy(result)
    for k in NEW_FIELDS:
        r.pop(k, None)
    for a in r["arms"]:
        for k in NEW_ARM_FIELDS:
            a.pop(k, None)
        for v in a.values():
            if isinstance(v, dict):
                v.pop("replicates", None)
                v.pop("homogeneity", None)
    for d in r["differences"]:
        d.pop("family", None)
        d.pop("tested", None)
    r["differences"] = [d for d in r["differences"] if d.get("p") is not None]
    return r


# -- the page ---------------------------------------------------------------------------------


def test_report_is_self_contained(report) -> None:
    text = report[0].read_text(encoding="utf-8")
    assert "<script" not in text.lower()
    assert not re.search(r'(src|href)="(?!#)', text)          # nothing fetched, no link out
    assert "<link" not in text
    p = _Elements()
    p.feed(text)
    ids = [a["id"] for _t, a in p.tags if "id" in a]
    assert len(ids) == len(set(ids))                           # plots never share an id
    for target in re.findall(r'<a href="#([^"]+)"', text):    # the contents lead somewhere
        assert target in ids, target


def test_report_opens_with_a_summary_and_its_contents(report) -> None:
    text = report[0].read_text(encoding="utf-8")
    top = text[:text.index('<h2 id="arms">')]
    for words in ("<dt>Arms</dt>", "<dt>Games</dt>", "<dt>Seed</dt>", "<dt>Replicates</dt>",
                  "<dt>Tests</dt>", 'class="caveat"', "8 per arm", "(random v random)",
                  'href="#differs"', 'href="#plots"', 'href="#tests"', 'href="#needed"'):
        assert words in top, words
    # the summary comes before the diff, the diff before the figures
    assert text.index("<dt>Arms</dt>") < text.index('id="differs"') < text.index(
        '<h2 id="figures">')


def test_report_has_the_diff_tables_and_plots(report) -> None:
    text = report[0].read_text(encoding="utf-8")
    for words in ("Only in B", "the first to throw wins", "length in throws",
                  "Games needed", "Welch", "Newcombe", "Firings per game"):
        assert words in text, words
    p = _Elements()
    p.feed(text)
    labels = [a.get("aria-label") for t, a in p.tags if t == "figure"]
    assert {"win rates", "length in throws", "length in holes", "rule shares", "rule rates",
            "worth of a game", "differences"} <= set(labels)
    assert len(p.svg_children) == len(labels)
    assert all(n > 20 for n in p.svg_children)                 # every plot has its marks


def test_the_diff_is_folded_with_one_line_per_arm(report) -> None:
    text = report[0].read_text(encoding="utf-8")
    p = _Elements()
    p.feed(text)
    details = [a for t, a in p.tags if t == "details"]
    assert len(details) == 1 and all("open" not in a for a in details)
    summary = re.findall(r'<details class="diff"><summary>(.*?)</summary>', text)
    assert len(summary) == 1
    assert re.fullmatch(r"B tric-trac-12 against A: \d+ keys of play differ \(rules \d+.*\)",
                        summary[0]), summary[0]


def test_the_diff_summary_counts_the_keys_of_play() -> None:
    result = {"rules": {"added": ["jan-de-retour"], "removed": [],
                        "changed": [{"id": "battre", "field": "points", "a": 2, "b": 4},
                                    {"id": "battre", "field": "name", "a": "x", "b": "y"}]},
              "options": [], "movement": [], "dice": [], "ladder": [{"key": "holes"}],
              "board": [], "option_sets": [], "regions": [], "define": [], "turn": [],
              "bot": [{"key": "weights.scale"}], "variant": [{"key": "id"}, {"key": "name"}]}
    # one rule added and one changed (in two fields): two rules; one key of the ladder
    assert diff_summary(result) == (3, "rules 2, ladder 1; also [bot] 1, the description 2")
    nothing: dict[str, Any] = {k: [] for k in result if k != "rules"} | {
        "rules": {"added": [], "removed": [], "changed": []}}
    assert diff_summary(nothing) == (0, "")


def _css(text: str) -> str:
    return text[text.index("<style>") + 7:text.index("</style>")]


def _print_block(css: str) -> str:
    start = css.index("@media print")
    depth, i = 0, css.index("{", start)
    for j in range(i, len(css)):
        depth += {"{": 1, "}": -1}.get(css[j], 0)
        if depth == 0:
            return css[i + 1:j]
    raise AssertionError("unclosed @media print")


def test_the_report_has_a_print_stylesheet(report) -> None:
    css = _css(report[0].read_text(encoding="utf-8"))
    assert re.search(r"@page\s*\{[^}]*size:\s*A4[^}]*margin:", css)
    block = _print_block(css)
    wide = re.search(r"\.wide\s*\{([^}]*)\}", block)
    assert wide is not None
    assert "overflow: visible" in wide.group(1) and "max-height: none" in wide.group(1)
    assert re.search(r"thead\s*\{\s*display:\s*table-header-group", block)  # repeated heads
    assert re.search(r"figure[^{]*\{[^}]*break-inside:\s*avoid", block)     # plots whole
    assert re.search(r"table[^{]*\{[^}]*width:\s*100%", block)              # to the page
    # on screen no table hides rows in a box of its own height either
    screen = css.replace(block, "")
    assert not re.search(r"max-height", screen) and "overflow: auto" not in screen


# -- the plots --------------------------------------------------------------------------------


def _marks(svg: str, arm: int) -> list[tuple[str, float, float]]:
    """(marker, x, y) of every marker drawn in the groups of arm `arm`."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if re.fullmatch(rf"arm-{arm}-\d+", g.get("id", "")):
            for use in g.iter(f"{SVG}use"):
                href = use.get(XLINK) or use.get("href") or ""
                out.append((href, float(use.get("x", "0")), float(use.get("y", "0"))))
    return out


def test_two_identical_arms_are_drawn_as_two(same) -> None:
    _specs, result, kept = same
    a, b = result["arms"]
    assert a["length_throws"]["mean"] == b["length_throws"]["mean"]       # the same games
    assert a["value_points"]["mean"] == b["value_points"]["mean"]
    drawn = {p.name: p for p in figs.plots(result, kept)}
    for name in ("win-rates", "length-throws", "worth"):
        plot = drawn[name]
        svg = figs.svg_text(plot)
        first, second = _marks(svg, 0), _marks(svg, 1)
        assert first and second, name
        # each arm its own marker shape, and no marker of one on top of one of the other
        assert {m for m, _x, _y in first}.isdisjoint({m for m, _x, _y in second}), name
        assert not {(x, y) for _m, x, y in first} & {(x, y) for _m, x, y in second}, name
        legend = [t.get_text() for t in plot.figure.legends[0].get_texts()]
        assert legend == [f"A  {a['label']} (random v random)",
                          f"B  {b['label']} (random v random)"], name
    # in the distribution of the worth, the two arms' markers at the same height (the same
    # share of games at one value) stand side by side, at another x
    svg = figs.svg_text(drawn["worth"])
    at0, at1 = _marks(svg, 0), _marks(svg, 1)
    level = {y for _m, _x, y in at0} & {y for _m, _x, y in at1}
    assert level
    for y in level:
        assert {x for _m, x, yy in at0 if yy == y}.isdisjoint({x for _m, x, yy in at1
                                                              if yy == y})


def _share_arm(label: str, shares: dict[str, float]) -> dict[str, Any]:
    return {"label": label, "players": {"white": "random", "black": "random"}, "points": 100,
            "rules": {r: {"share": s, "share_ci": [s * 0.9, s * 1.1], "fired": {"white": 1,
                                                                                 "black": 1},
                          "per_game": {"value": 1.0, "ci": [0.5, 1.5]}}
                      for r, s in shares.items()}}


def test_rule_shares_are_drawn_on_a_linear_axis_from_0_to_100() -> None:
    """A shift of a share from 16.9 % to 19.7 %, beside a rule worth a tenth of a percent
    (which a logarithmic axis would have squeezed the shift beside), is seen as 2.8 points on
    an axis from 0 to 100 %."""
    result = {"arms": [_share_arm("petit", {"grand-jan": 0.169, "coin": 0.001}),
                       _share_arm("grand", {"grand-jan": 0.197, "coin": 0.0012})]}
    with figs._rc():
        plot = figs.plot_rule_shares(result)
    assert plot is not None and plot.name == "rule-shares"
    ax = plot.figure.axes[0]
    assert ax.get_xscale() == "linear" and ax.get_xlim() == (0.0, 100.0)
    at = {line.get_gid()[:5]: line.get_xdata()[0] for line in ax.lines
          if (line.get_gid() or "").startswith("arm-") and line.get_ydata()[0] > -0.5}
    assert at == {"arm-0": pytest.approx(16.9), "arm-1": pytest.approx(19.7)}
    # 2.8 points is a visible gap: more than 10 pixels of the figure
    x0, x1 = (ax.transData.transform((v, 0))[0] for v in (16.9, 19.7))
    assert x1 - x0 > 10


def test_the_worth_of_a_game_is_plotted_in_each_arms_unit(same) -> None:
    _specs, result, kept = same
    with figs._rc():
        plot = figs.plot_worth(result, kept)
    assert plot is not None and plot.name == "worth"
    labels = [ax.get_xlabel() for ax in plot.figure.axes]
    assert labels == ["worth of a game, in points", "mean worth in points, 95 % interval"]
    # arms in different units are never drawn on one axis: a row of panels each
    mixed = copy.deepcopy(result)
    mixed["arms"][1]["unit"] = "jetons"
    with figs._rc():
        plot = figs.plot_worth(mixed, kept)
    assert plot is not None
    labels = [ax.get_xlabel() for ax in plot.figure.axes]
    assert labels == ["worth of a game, in points", "mean worth in points, 95 % interval",
                      "worth of a game, in jetons", "mean worth in jetons, 95 % interval"]
    # the mean with its interval, in the arm's unit
    mean = result["arms"][0]["value_points"]
    ax = plot.figure.axes[1]
    xs = [line.get_xdata()[0] for line in ax.lines if (line.get_gid() or "").startswith("arm-0")]
    assert xs == [pytest.approx(mean["mean"])]


def test_plots_are_the_same_bytes_for_the_same_result(same) -> None:
    """Two drawings of one result give the same SVG and PDF bytes (the SVG ids hashed with a
    fixed salt, no date in either file)."""
    _specs, result, kept = same

    def draw() -> dict[str, figs.Plot]:
        with figs._rc():
            drawn = [figs.plot_win_rates(result), figs.plot_worth(result, kept),
                     figs.plot_length(result, kept, "length_throws", "throws")]
        return {p.name: p for p in drawn if p is not None}
    one, two = draw(), draw()
    for name in ("win-rates", "length-throws", "worth"):
        svg = figs.svg_text(one[name])
        assert svg == figs.svg_text(two[name]), name
        assert "<dc:date>" not in svg and re.search(r'id="[a-z]+[0-9a-f]{8,}"', svg)
    pdf = figs.pdf_bytes(one["worth"])
    assert pdf == figs.pdf_bytes(two["worth"]) and b"CreationDate" not in pdf


# -- --figures DIR ----------------------------------------------------------------------------


def test_the_report_names_each_plot_as_its_file(report) -> None:
    names = re.findall(r'<figure id="plot-([a-z-]+)"', report[0].read_text(encoding="utf-8"))
    assert {"win-rates", "length-throws", "length-holes", "worth", "game-values",
            "rule-shares", "rule-rates", "differences"} <= set(names)
    assert set(names) <= set(figs.NAMES) and len(names) == len(set(names))
    for name in names:
        assert f"(<code>{name}</code>)" in report[0].read_text(encoding="utf-8")


@pytest.mark.slow
def test_figures_writes_every_plot_as_svg_and_pdf_never_through_a_link(capsys,
                                                                         tmp_path) -> None:
    """`--figures DIR` writes NAME.svg and NAME.pdf for every plot; a link in DIR named like a
    figure, leading out of it, is replaced by the figure, and what it led to is left alone
    (a few seconds: each PDF embeds its font, subset by fontTools)."""
    outside = tmp_path / "outside.svg"
    outside.write_text("keep me\n")
    folder = tmp_path / "plots"
    folder.mkdir()
    (folder / "win-rates.svg").symlink_to(outside)
    assert main(["compare", "backgammon", "nackgammon", "--games", "4", "--seed", "2",
                 "--jobs", "1", "--figures", str(folder), "--json"]) == 0
    capsys.readouterr()
    assert outside.read_text() == "keep me\n"
    assert not (folder / "win-rates.svg").is_symlink()
    files = sorted(os.listdir(folder))
    names = sorted({f.rsplit(".", 1)[0] for f in files})
    assert files == sorted(f"{n}.{ext}" for n in names for ext in ("svg", "pdf"))
    assert {"win-rates", "length-throws", "worth", "game-values", "rule-rates",
            "differences"} <= set(names) <= set(figs.NAMES)
    for n in names:
        assert (folder / f"{n}.pdf").read_bytes().startswith(b"%PDF-")
        root = ET.fromstring((folder / f"{n}.svg").read_bytes())
        assert root.tag == f"{SVG}svg" and len(list(root.iter(f"{SVG}use"))) > 3


def test_figures_folder_is_made_and_links_in_it_are_not_followed(same, tmp_path,
                                                                  monkeypatch) -> None:
    """The folder is made with its parents; written again, a figure is the same bytes; a link
    named like a figure, leading out of the folder, is replaced, what it led to left alone.
    (One plot: `plots` is the report's, every one written the same way.)"""
    _specs, result, kept = same
    one = next(p for p in figs.plots(result, kept) if p.name == "win-rates")
    monkeypatch.setattr(figs, "plots", lambda _result, _figures: [one])
    fresh = tmp_path / "a" / "b"
    assert figs.write_figures(fresh, result, kept) == [str(fresh / "win-rates.svg"),
                                                       str(fresh / "win-rates.pdf")]
    assert sorted(os.listdir(fresh)) == ["win-rates.pdf", "win-rates.svg"]   # no leftovers
    assert (fresh / "win-rates.pdf").read_bytes().startswith(b"%PDF-")
    before = (fresh / "win-rates.svg").read_bytes()
    outside = tmp_path / "outside.svg"
    outside.write_text("keep me\n")
    (fresh / "win-rates.svg").unlink()
    (fresh / "win-rates.svg").symlink_to(outside)
    figs.write_figures(fresh, result, kept)
    assert outside.read_text() == "keep me\n"
    assert not (fresh / "win-rates.svg").is_symlink()
    assert (fresh / "win-rates.svg").read_bytes() == before


def test_figures_folder_that_is_a_file_is_refused_before_the_games(capsys, tmp_path) -> None:
    a_file = tmp_path / "plots"
    a_file.write_text("not a folder\n")
    for target, why in ((a_file, "it is not a folder"),
                        (a_file / "inside", "is not a folder")):
        assert main(["compare", "backgammon", "nackgammon", "--games", "10000000",
                     "--figures", str(target)]) == 1
        err = capsys.readouterr().err
        assert "cannot write the figures into" in err and why in err
        assert "Traceback" not in err
    assert a_file.read_text() == "not a folder\n"


# -- the fields of a study --------------------------------------------------------------------


def test_the_fields_of_a_study_are_rendered(same) -> None:
    specs, result, kept = same
    text = render_html(specs, enrich(result), kept)
    for words in ("version 9.8.7", "<dt>Seeds</dt>", "1, 2: replicate r", "0" * 64,
                  "1" * 64, "ab" * 32, '<h2 id="replicates">', "seed 1", "seed 2", "pooled",
                  "homogeneity", "one-way ANOVA 0 (df 1, 4)", "chi-square 0 (df 1), p 1",
                  "Family: proportion", "(1 tests, Holm within the family)", "throws 1",
                  "Across all the arms", "chi-square", "1.25", "0.264", "Side by side, not tested",
                  "units differ: points against jetons", "The worth of a game is in points",
                  'id="plot-replicates"'):
        assert words in text, words
    untested = text[text.index('id="untested"'):text.index('id="absent"')]
    assert "60" in untested and "1.5" in untested               # the two values side by side
    assert "battre" not in untested                             # one arm only: listed apart
    assert re.search(r"<li><strong>B − A</strong> \([^)]*\): rules only in B: "
                     r"battre-le-coin\.</li>", text)


def test_a_result_without_those_fields_still_renders(same) -> None:
    specs, result, kept = same
    text = render_html(specs, strip(result), kept)
    for words in ("<dt>Seeds</dt>", "Provenance", 'id="replicates"', "Family:",
                  "Across all the arms", "not tested", "<dt>Tablier</dt>"):
        assert words not in text, words
    assert 'id="plot-worth"' in text and "<dt>Seed</dt>" in text


# -- in a browser -----------------------------------------------------------------------------

#: the width of an A4 page's text (210 mm less 12 mm margins each side) at 96 px an inch
A4_TEXT_PX = int((210 - 24) / 25.4 * 96)


def test_report_on_screen_and_printed_in_chromium(report, tmp_path: Path) -> None:
    """Debian's Chromium, headless, driven by Playwright: the page loads nothing but itself,
    raises no error, every plot is an SVG drawn with its marks; on screen a wide table scrolls
    sideways in its own box; printed, no element clips its content (no box scrolls, none
    hides what overflows it), nothing is wider than an A4 page's text, every row of every
    table is laid out, and the PDF has its pages."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed (the test extra has it)")
    from interpreter.draw import CHROMIUM_ARGS, chromium_path

    html_path = report[0]
    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run does)")
    clipped_js = """() => [...document.querySelectorAll('body *')].filter(e =>
        !e.closest('svg') && e.getClientRects().length).filter(e => {
            const s = getComputedStyle(e);
            const boxes = [s.overflowX, s.overflowY].some(o => o !== 'visible');
            return boxes && (e.scrollHeight > e.clientHeight + 1 ||
                             e.scrollWidth > e.clientWidth + 1);
        }).map(e => e.tagName + '.' + e.className)"""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            requests: list[str] = []
            errors: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(html_path.as_uri())
            plots = page.eval_on_selector_all("figure svg", """svgs => svgs.map(s => {
                const box = s.getBoundingClientRect();
                return {w: box.width, h: box.height,
                        marks: s.querySelectorAll('path, use').length};
            })""")
            widths = page.evaluate("""() => [document.documentElement.scrollWidth,
                window.innerWidth, ...[...document.querySelectorAll('.wide')].map(
                    w => w.getBoundingClientRect().right)]""")
            # printed: the page as wide as an A4 page's text
            page.set_viewport_size({"width": A4_TEXT_PX, "height": 1123})
            page.emulate_media(media="print")
            clipped = page.evaluate(clipped_js)
            printed_width = page.evaluate("() => document.documentElement.scrollWidth")
            rows = page.evaluate("""() => [...document.querySelectorAll('tbody tr')].map(
                r => r.getBoundingClientRect().height)""")
            page.screenshot(path=str(tmp_path / "printed.png"), full_page=True)
            pdf = page.pdf(format="A4", print_background=True)
        finally:
            browser.close()
    assert requests == [html_path.as_uri()] and not errors
    page_width, viewport, *boxes = widths
    assert page_width <= viewport and all(right <= viewport for right in boxes), widths
    assert len(plots) >= 7
    for plot in plots:
        assert plot["w"] > 200 and plot["h"] > 100 and plot["marks"] > 20, plot
    assert clipped == []
    assert printed_width <= A4_TEXT_PX
    assert len(rows) > 60 and all(h > 5 for h in rows)
    assert pdf.startswith(b"%PDF-") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 3
    assert (tmp_path / "printed.png").stat().st_size > 50_000
