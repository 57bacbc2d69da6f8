"""The docs that ship are the docs: what a user's clone and its commands show cites only what
ships.

The shipped text is README.md, every page of docs/, every variant file (comments, sources, rule
sources and descriptions) and what `tablier variants`, `tablier rules` and `tablier diff` print
for the built-in variants. None of it may name a file the clone lacks (a specification file, a
folder outside the repository), an ambiguity code of the specification (T-A11, M-A10, ...), a seed
number, a section number (§), or a citation key standing for a treatise (MAL, LEL, ...): the
treatises are named by their authors, the documents by their titles. Every file path a page
names exists. New pages and variant files are picked up as they are added.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.variant.loader import builtin_ids

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: list[tuple[str, str]] = [
    (r"(?<![\w/.-])rules/[\w-]+\.md", "a file of the specification"),
    (r"(?<![\w/.-])spec/", "the specification folder"),
    (r"\.\./shared|/work/shared", "a folder outside the repository"),
    (r"INTERFACES(?:\.md)?\b", "the interface specification"),
    (r"\bmatch-scoring\b|\btables-family\b|\bbackgammon-formats\b", "a file of the specification"),
    (r"\b[A-Z]{1,3}-A\d+\b", "an ambiguity code"),
    (r"\b[Ss]eed\s*0\d\d\b|\bS00\d\b|\bseed text\b", "a seed number"),
    (r"§", "a section number"),
    (r"\b(?:MAL|LEL|LAF|GUI|LEP|MMAI|SDJ|HER|TUT|TTO|ENC|BKGM|GNUBG|NL|ES|WP)\b",
     "a citation key"),
    (r"\b(?:test|tests|example|examples)\s+[A-Z]\d{1,2}\b|\b[A-LN-WYZ]\d{1,2}[–-][A-Z]?\d{1,2}\b",
     "a test-case code"),
    (r"\bDEFAULT\b", "the specification's DEFAULT"),
]


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _variant_files() -> list[Path]:
    return sorted((ROOT / "variants").glob("*.toml"))


def _faults(text: str) -> list[str]:
    out = []
    for pattern, what in FORBIDDEN:
        for m in re.finditer(pattern, text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"line {line}: {what}: {m.group()!r}")
    return out


@pytest.mark.parametrize("path", _pages() + _variant_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_file_cites_only_what_ships(path: Path) -> None:
    faults = _faults(path.read_text(encoding="utf-8"))
    assert not faults, f"{path.relative_to(ROOT)}:\n" + "\n".join(faults)


def _output(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_variants_output_cites_only_what_ships(capsys: pytest.CaptureFixture[str]) -> None:
    text = _output(capsys, "variants") + _output(capsys, "variants", "--json")
    rows = json.loads(text.splitlines()[-1])
    assert rows and all(r["sources"] for r in rows), "every playable variant names its sources"
    assert not _faults(text), "\n".join(_faults(text))


@pytest.mark.parametrize("variant", builtin_ids())
def test_rulebook_cites_only_what_ships(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _output(capsys, "rules", variant)
    assert not _faults(text), f"tablier rules {variant}:\n" + "\n".join(_faults(text))


def test_diff_cites_only_what_ships(capsys: pytest.CaptureFixture[str]) -> None:
    text = _output(capsys, "diff", "backgammon", "tric-trac-12") + \
        _output(capsys, "diff", "triktrak", "trictrac-combine")
    assert not _faults(text), "\n".join(_faults(text))


# -- every path a page names exists ---------------------------------------------------------------

PATH = re.compile(r"(?<![\w/.-])((?:docs|tests|interpreter|variants|grammar)/[\w./*-]*[\w*])")
MD_NAME = re.compile(r"(?<![\w/.-])([\w-]+(?:/[\w-]+)*\.md)\b")


def _exists(name: str, page: Path) -> bool:
    for base in (ROOT, ROOT / "docs", page.parent):
        if "*" in name:
            if list(base.glob(name)):
                return True
        elif (base / name).exists():
            return True
    return False


@pytest.mark.parametrize("path", _pages() + _variant_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_exists(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    missing = sorted({m.group(1) for m in PATH.finditer(text) if not _exists(m.group(1), path)}
                     | {m.group(1) for m in MD_NAME.finditer(text)
                        if not _exists(m.group(1), path)})
    # files a page writes itself (its examples) are not expected to exist
    missing = [m for m in missing if not re.search(rf"#\s*{re.escape(Path(m).name)}", text)]
    assert not missing, f"{path.relative_to(ROOT)} names files the clone does not have: {missing}"


def test_the_checks_catch_what_they_should() -> None:
    bad = ("see rules/trictrac.md §3.6 (T-A11); spec/INTERFACES.md; ../shared; Seed 000; "
           "MAL art. XIV; test B11; M-A10")
    found = " ".join(_faults(bad))
    for what in ("specification", "ambiguity code", "seed number", "section number",
                 "citation key", "test-case code", "outside the repository"):
        assert what in found
    assert not _faults("Malfilâtre, art. XIV; Lelasseux-Lafosse, n°124; docs/variants/trictrac.md "
                       "X15 O15 pip M13")
