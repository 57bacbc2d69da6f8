"""`tablier explain`, and the per-user cache that makes short commands start fast: the parser's
tables and recent syntax trees, kept as JSON in a private directory, rebuilt when missing,
stale, damaged or not safely the user's."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import usercache
from interpreter.cli import main
from interpreter.dsl import parser as dsl_parser
from interpreter.dsl import syntax as S

# -- explain ---------------------------------------------------------------------------------------


def test_explain_shows_the_snippet_its_definitions_and_the_generated_code(capsys) -> None:
    assert main(["explain", "triktrak", "forbidden-jans"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rule forbidden-jans: Forbidden jans\nkind: forbid\n")
    assert "they_can_fill(7, 12) and any(p in landings(path): p in their_grand_jan)" in out
    assert "they_can_fill(first, last) = all(q in first..last:" in out
    assert "their_grand_jan = 7..12" in out
    assert "run once per path" in out and "the file's budget is 1,000,000,000" in out
    # the hook with its parts computed once per roll, and its batch form with the landings
    # of a two-step path written out
    assert "def hook_" in out and "if b is not _cb:" in out and "def filter_" in out
    assert "_lx = frozenset((_u[1],)) if _u[0] == _s[1]" in out and ".isdisjoint(_lx)" in out


def test_explain_of_each_kind(capsys) -> None:
    assert main(["explain", "backgammon", "backgammon"]) == 0
    out = capsys.readouterr().out
    assert "kind: value" in out and "when (as written):" in out and "value (as written):" in out
    assert "regions it uses:\n    home = 1..6" in out
    assert main(["explain", "triktrak", "must-fill"]) == 0
    out = capsys.readouterr().out
    assert "order: 1" in out and "def each_" in out and "fills_any = " in out
    assert main(["explain", "triktrak", "true-hit-petit-jan"]) == 0
    assert "also written out in the rule set's roll_items" in capsys.readouterr().out


def test_explain_follows_the_options(capsys) -> None:
    assert main(["explain", "triktrak", "pile-de-misere"]) == 0
    assert "the file's options make it always false" in capsys.readouterr().out
    assert main(["explain", "triktrak", "pile-de-misere", "--set",
                 'pile_de_misere="on"']) == 0
    assert "def hook_" in capsys.readouterr().out


def test_explain_says_when_the_options_switch_a_forbid_rule_off(capsys) -> None:
    """A forbid rule whose option is not chosen compiles to nothing: explain says so, and
    shows its code once the option is chosen."""
    assert main(["explain", "fevga", "prime-all-behind"]) == 0
    out = capsys.readouterr().out
    assert "the file's options make it always false" in out and "--set" in out
    assert main(["explain", "fevga", "prime-all-behind", "--set", 'fv_prime="all_behind"']) == 0
    out = capsys.readouterr().out
    assert "definitions it uses:" in out and "cost: at most" in out and "def hook_" in out


def test_explain_of_an_unknown_rule(capsys) -> None:
    assert main(["explain", "triktrak", "forbiden-jans"]) == 1
    err = capsys.readouterr().err
    assert "no rule 'forbiden-jans'" in err and "did you mean 'forbidden-jans'?" in err
    assert "Traceback" not in err


# -- the cache directory ---------------------------------------------------------------------------

@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLIER_NO_CACHE", raising=False)
    return tmp_path / "tablier"


def test_the_cache_directory_is_private(home) -> None:
    assert usercache.cache_dir() == str(home)
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    os.chmod(home, 0o777)                 # opened to others: closed again before use
    assert usercache.cache_dir() == str(home)
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700


def test_a_link_is_not_a_cache_directory(tmp_path, monkeypatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "tablier").symlink_to(elsewhere)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "base"))
    assert usercache.cache_dir() is None


def test_only_private_regular_files_are_read(home) -> None:
    usercache.cache_dir()
    path = home / "x.json"
    usercache.write_private(str(path), "data")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert usercache.read_private(str(path)) == b"data"
    os.chmod(path, 0o666)                 # writable by others: not trusted
    assert usercache.read_private(str(path)) is None
    link = home / "link.json"
    link.symlink_to(path)
    os.chmod(path, 0o600)
    assert usercache.read_private(str(link)) is None


PROGRAM = """
import sys, json
from interpreter.dsl import parser
from interpreter.dsl.larkparser import lark_parser
from interpreter.variant.build import load_variant
v = load_variant("backgammon")
print(json.dumps({"lark": "lark" in sys.modules,
                  "result": v.rules.game_value(tuple([0] * 27 + [0]))}))
"""


def _run(home: Path) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(home.parent)}
    env.pop("TABLIER_NO_CACHE", None)
    proc = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_parser_tables_are_built_once_then_loaded(home) -> None:
    built = _run(home)
    [tables] = home.glob("rules-parser-*.json")
    assert stat.S_IMODE(os.stat(tables).st_mode) == 0o600
    first = tables.read_bytes()
    assert b"\x80" not in first[:2] and json.loads(first.split(b"\n", 1)[1])   # JSON, no pickle
    _run(home)
    assert tables.read_bytes() == first
    # damaged: rebuilt, and the program works as before (its snippets parsed again)
    tables.write_bytes(first.split(b"\n", 1)[0] + b"\n{not json")
    for trees in home.glob("snippets-*.json"):
        trees.unlink()
    assert _run(home) == built
    head, body = tables.read_bytes().split(b"\n", 1)
    assert head == first.split(b"\n", 1)[0] and json.loads(body)


def test_a_short_command_needs_no_lark_once_its_snippets_are_known(home) -> None:
    code = "import sys\nfrom interpreter.variant.build import load_variant\n" \
           "load_variant('backgammon')\nprint('lark' in sys.modules)"
    env = {**os.environ, "XDG_CACHE_HOME": str(home.parent)}
    env.pop("TABLIER_NO_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=60).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]


def test_a_tampered_syntax_cache_is_ignored(home, monkeypatch) -> None:
    usercache.cache_dir()
    cache = dsl_parser._DiskCache()
    cache.get(("1", "expr_start"))
    cache.add(("mine(6) > 1", "expr_start"), dsl_parser.parse("mine(6) > 1"))
    cache.save()
    [path] = home.glob("snippets-*.json")
    doc = json.loads(path.read_text())
    (_text, _start, tree), = doc["snippets"]
    assert dsl_parser._decode(tree).__class__ is S.Compare
    # a name the grammar cannot write, a node kind that does not exist, a huge number
    for bad in (["Name", 1, 1, 4, "os.system"], ["Eval", 1, 1, 1, "x"], ["Num", 1, 1, 1, 10 ** 9],
                ["Compare", 1, 1, 1, "**", ["Num", 1, 1, 1, 2], ["Num", 1, 1, 1, 2]]):
        doc["snippets"] = [["mine(6) > 1", "expr_start", bad]]
        path.write_text(json.dumps(doc))
        os.chmod(path, 0o600)
        fresh = dsl_parser._DiskCache()
        assert fresh.get(("mine(6) > 1", "expr_start")) is None


def test_variants_is_printed_from_the_cache(home) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(home.parent)}
    env.pop("TABLIER_NO_CACHE", None)
    outs = []
    for args in (["variants"], ["variants"], ["variants", "--json"], ["variants", "--json"]):
        code = "import sys\nfrom interpreter.launch import main\nrc = main(sys.argv[1:])\n" \
               "print('argparse' in sys.modules, file=sys.stderr)\nsys.exit(rc)"
        proc = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0
        outs.append((proc.stdout, proc.stderr.strip()))
    assert outs[0][0] == outs[1][0] and outs[2][0] == outs[3][0]
    assert [o[1] for o in outs] == ["True", "False", "False", "False"]
    assert {r["id"] for r in json.loads(outs[2][0])} >= {"backgammon", "triktrak"}
