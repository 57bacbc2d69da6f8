"""The HTML report of `tablier compare --html`: one self-contained file whose plots are drawn
(checked in headless Chromium, driven by Playwright, when both are installed)."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from interpreter.cli import main

pytest.importorskip("matplotlib")

class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.svg_children: list[int] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "svg":
            self.svg_children.append(0)
        elif self.svg_children and tag in ("path", "use", "line", "rect", "polyline"):
            self.svg_children[-1] += 1


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    assert main(["compare", "triktrak", "tric-trac-12", "--games", "8", "--seed", "3",
                 "--jobs", "1", "--html", str(path)]) == 0
    return path


def test_report_is_self_contained(report: Path) -> None:
    text = report.read_text(encoding="utf-8")
    assert "<script" not in text.lower()
    assert not re.search(r'(src|href)="(?!#)', text)          # nothing fetched, no link out
    assert "<link" not in text
    p = _Elements()
    p.feed(text)
    ids = [a["id"] for _t, a in p.tags if "id" in a]
    assert len(ids) == len(set(ids))                           # plots never share an id


def test_report_has_the_diff_tables_and_plots(report: Path) -> None:
    text = report.read_text(encoding="utf-8")
    assert text.index("the differences") < text.index("<h2>Figures</h2>")
    for words in ("Only in B", "the first to throw wins", "length in throws",
                  "Games needed", "Welch", "Newcombe", "firings per game"):
        assert words in text, words
    p = _Elements()
    p.feed(text)
    labels = [a.get("aria-label") for t, a in p.tags if t == "figure"]
    assert {"win rates", "length in throws", "length in holes", "rule shares", "rule rates",
            "differences"} <= set(labels)
    assert len(p.svg_children) == len(labels)
    assert all(n > 20 for n in p.svg_children)                 # every plot has its marks


def test_report_opens_in_chromium_with_every_plot_drawn(report: Path, tmp_path: Path) -> None:
    """Debian's Chromium, headless, driven by Playwright: the page loads nothing but itself,
    raises no error, and every plot is an SVG drawn with its marks and a size on the page."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed (the test extra has it)")
    from interpreter.draw import CHROMIUM_ARGS, chromium_path

    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run does)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            requests: list[str] = []
            errors: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(report.as_uri())
            plots = page.eval_on_selector_all("figure svg", """svgs => svgs.map(s => {
                const box = s.getBoundingClientRect();
                return {w: box.width, h: box.height,
                        marks: s.querySelectorAll('path, use').length};
            })""")
            # the page fits a laptop's screen: a wide table scrolls inside its own box
            widths = page.evaluate("""() => [document.documentElement.scrollWidth,
                window.innerWidth, ...[...document.querySelectorAll('.wide')].map(
                    w => w.getBoundingClientRect().right)]""")
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()
    assert requests == [report.as_uri()] and not errors
    page_width, viewport, *boxes = widths
    assert page_width <= viewport and all(right <= viewport for right in boxes), widths
    assert len(plots) >= 6
    for plot in plots:
        assert plot["w"] > 200 and plot["h"] > 100 and plot["marks"] > 20, plot
    assert (tmp_path / "report.png").stat().st_size > 50_000
