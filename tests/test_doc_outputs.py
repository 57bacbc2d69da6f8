"""The outputs the documentation prints are what its commands print.

A page shows what a command prints in a fenced block whose info string is a language followed by
`output` (```` ```json output ````, ```` ```text output ````), written right after the `sh`
block of the commands (nothing but blank lines between). The commands of that `sh` block run as
tests/test_doc_examples.py runs them (in a scratch folder that sees the clone's files and the
files the page writes in its `toml` blocks), and their standard output, one command after the
other, must be the block's text exactly. New pages and blocks are picked up as they are added.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from test_doc_examples import BLOCK, EXIT, PAGES, ROOT, _files, _scratch

OUTPUT = re.compile(r"^```\w*[ \t]+output[ \t]*$", re.M)


def _pairs(page: Path) -> list[tuple[int, list[str], str]]:
    """(line, commands, expected output) for each `sh` block of the page followed by an output
    block."""
    text = page.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    out = []
    for sh, shown in zip(blocks, blocks[1:]):
        head = text[shown.start():text.index("\n", shown.start())]
        if sh.group("lang") != "sh" or not OUTPUT.match(head) \
                or text[sh.end():shown.start()].strip():
            continue
        commands, pending = [], ""
        for line in sh.group("body").splitlines():
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            line = pending + line.strip()
            pending = ""
            if line and not line.startswith("#"):
                commands.append(line)
        out.append((text.count("\n", 0, sh.start()) + 1, commands, shown.group("body")))
    return out


PAIRS = [(page, *pair) for page in PAGES for pair in _pairs(page)]


def test_the_pages_print_outputs() -> None:
    pages = {page.name for page, *_ in PAIRS}
    assert {"authoring.md", "quinze-tablas.md", "laquet.md"} <= pages
    assert len(PAIRS) >= 30


@pytest.mark.parametrize("page", sorted({p for p, *_ in PAIRS}),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_printed_outputs_are_what_the_commands_print(page: Path, tmp_path: Path) -> None:
    scratch = _scratch(tmp_path)
    for name, body in _files(page).items():
        (scratch / name).write_text(body, encoding="utf-8")
    env = dict(os.environ, PATH=f"{scratch / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(ROOT))
    for p, line, commands, expected in PAIRS:
        if p != page:
            continue
        printed = []
        for command in commands:
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=scratch,
                                  env=env, capture_output=True, text=True, timeout=60)
            m = EXIT.search(command)
            assert done.returncode == (int(m.group("code")) if m else 0), (
                f"{page.relative_to(ROOT)}:{line}: `{command}` exits {done.returncode}\n"
                f"{done.stderr[-2000:]}")
            printed.append(done.stdout)
        assert "".join(printed) == expected, (
            f"{page.relative_to(ROOT)}:{line}: the commands print\n{''.join(printed)}\n"
            f"not what the page shows\n{expected}")
