"""Every `tablier` command of the shipped documentation runs as printed.

The commands are the lines of the `sh` code blocks of README.md, docs/*.md and docs/variants/*.md
that start with `tablier` or pipe into it (a line ending in `\\` goes on on the next one). Each
runs in a shell, in the page's order, from a scratch folder of the page that sees the clone's
files (`variants/`, `tests/`, ...) and the files the page itself writes in its `toml` blocks
(`# quick-trictrac.toml: ...` as the first line of a block), and must exit as the page says:
0, unless the line's comment says "exits N". Commands that play a hundred games or more,
compare more than ten, simulate searching players, train, play gnubg, need a Dask scheduler,
and `bench`, are in the `slow` set (which runs each such page whole).
"""
from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "variants").glob("*.md"))]
BLOCK = re.compile(r"^```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)^```", re.M | re.S)
FILE_BLOCK = re.compile(r"\A#\s*(?P<name>[\w.-]+\.toml)\b")
EXIT = re.compile(r"#.*\bexits? (?P<code>\d)\b")
#: seconds one command of the default suite may take (a longer one belongs in the slow set),
#: and one of the slow set
TIMEOUT, SLOW_TIMEOUT = 30, 900


@dataclass(frozen=True)
class Example:
    page: Path
    line: int
    command: str

    @property
    def expected(self) -> int:
        m = EXIT.search(self.command)
        return int(m.group("code")) if m else 0

    @property
    def slow(self) -> bool:
        words = self.command.split("#")[0].split()
        if "bench" in words[1:2] or "train" in words or "--dask" in words:
            return True
        if "simulate" in words or "compare" in words:
            games = int(words[words.index("--games") + 1]) if "--games" in words else 1000
            # a comparison of more than ten games, or games between searching players
            searching = any(w.startswith(("search", "learned", "rollout", "gnubg"))
                            for w in words)
            return games >= 100 or ("compare" in words and games > 10) or searching
        return "gnubg" in words


def _commands(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    out = []
    for block in BLOCK.finditer(text):
        if block.group("lang") != "sh":
            continue
        first = text.count("\n", 0, block.start("body")) + 1
        lines = block.group("body").splitlines()
        i = 0
        while i < len(lines):
            start = i
            line = lines[i]
            while line.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
            code = line.split(" #")[0]
            if line.startswith("tablier ") or re.search(r"\|\s*tablier\b", code):
                out.append(Example(page, first + start, line))
    return out


def _files(page: Path) -> dict[str, str]:
    """The files a page writes in its `toml` blocks, by name."""
    text = page.read_text(encoding="utf-8")
    files = {}
    for block in BLOCK.finditer(text):
        m = FILE_BLOCK.match(block.group("body"))
        if block.group("lang") == "toml" and m:
            files[m.group("name")] = block.group("body")
    return files


EXAMPLES = [e for page in PAGES for e in _commands(page)]


def _params(slow: bool) -> list:
    """One test per page: its examples run in order in one folder, since a later one may read
    what an earlier one wrote (and a page is read that way), whatever process runs the test."""
    pages: dict[Path, list[Example]] = {}
    for e in EXAMPLES:
        # the slow run plays the whole of each page that has a slow example
        if e.slow == slow or (slow and any(x.slow for x in EXAMPLES if x.page == e.page)):
            pages.setdefault(e.page, []).append(e)
    return [pytest.param(examples, id=str(page.relative_to(ROOT)))
            for page, examples in pages.items()]


def _scratch(folder: Path) -> Path:
    """A folder with the clone's top-level entries linked in and a `tablier` on the PATH that
    runs this checkout with this interpreter."""
    for entry in ROOT.iterdir():
        if entry.name in ("variants", "tests", "docs", "grammar", "interpreter", "README.md"):
            (folder / entry.name).symlink_to(entry)
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "tablier"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m interpreter \"$@\"\n")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return folder


def _run(example: Example, scratch: Path) -> None:
    for name, body in _files(example.page).items():
        (scratch / name).write_text(body, encoding="utf-8")
    env = dict(os.environ, PATH=f"{scratch / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(ROOT))
    limit = SLOW_TIMEOUT if example.slow else TIMEOUT
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", example.command], cwd=scratch,
                              env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{example.page.relative_to(ROOT)}:{example.line}: `{example.command}` takes "
                    f"more than {limit} s" + ("" if example.slow else
                                               ": make it shorter or count it as slow"))
    assert done.returncode == example.expected, (
        f"{example.page.relative_to(ROOT)}:{example.line}: `{example.command}` exits "
        f"{done.returncode}, not {example.expected}\n{done.stderr[-2000:]}")
    assert "Traceback" not in done.stderr


def test_the_pages_have_examples() -> None:
    pages = {e.page.name for e in EXAMPLES}
    assert {"README.md", "cli.md", "trictrac.md", "sheets.md"} <= pages
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize("examples", _params(slow=False))
def test_doc_examples_run_as_printed(examples: list[Example], tmp_path: Path) -> None:
    scratch = _scratch(tmp_path)
    for example in examples:
        _run(example, scratch)


@pytest.mark.slow
@pytest.mark.parametrize("examples", _params(slow=True))
def test_slow_doc_examples_run_as_printed(examples: list[Example], tmp_path: Path) -> None:
    scratch = _scratch(tmp_path)
    for example in examples:
        _run(example, scratch)
