"""The HTML report of `tablier compare --html`: one self-contained file whose plots are drawn
(checked in headless Chromium when it is installed)."""
from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from interpreter.cli import main

pytest.importorskip("matplotlib")

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "",
                             shutil.which("chromium-browser") or "") if p and Path(p).exists()),
                None)


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


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium")
def test_report_opens_in_chromium_with_every_plot_drawn(report: Path, tmp_path: Path) -> None:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", report.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    # Chromium parsed each inline SVG as SVG: its marks are in the DOM it built
    svgs = re.findall(r"<svg\b.*?</svg>", dom, re.S)
    assert len(svgs) >= 6
    assert all(len(re.findall(r"<(path|use)\b", s)) > 20 for s in svgs)
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *flags, "--window-size=1300,3000", f"--screenshot={shot}",
                    report.as_uri()], capture_output=True, timeout=120)
    assert shot.exists()
    from PIL import Image

    image = Image.open(shot).convert("L")
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50                 # text and plots, not blank
