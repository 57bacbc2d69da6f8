"""No text of a rule file ever reaches generated code: the whitelist every generated module
passes, the names the compiler makes up, and files whose ids, definition names and region
names are Python code, quotes and newlines."""
from __future__ import annotations

import ast
import linecache
import os
import re
import traceback
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.dsl import SnippetError, compile_document, hook_info, source_of
from interpreter.dsl import parser as dsl_parser
from interpreter.dsl.compiler import BOOL, ROLL, Compiler, Symbols
from interpreter.dsl.emit import run
from interpreter.dsl.runtime import NAMESPACE
from interpreter.dsl.safety import UnsafeCode, _name_ok, check_module
from interpreter.variant.build import load_variant
from interpreter.variant.build import validate_paths

HOOK = "def hook_1(b, a=None, x=None, d1=0, d2=0, rolls=0, ctx=None):\n    return {}\n"


def module(body: str) -> ast.Module:
    return ast.parse(HOOK.format(body))


def test_a_generated_module_passes() -> None:
    check_module(module("_mine(b, 3) > 0 and sum((1 for _v2 in range(1, 7) if b[_v2] > 0)) == 2"),
                 dict(NAMESPACE))


@pytest.mark.parametrize("body", [
    "__import__('os')",                      # a name outside the tables, a string
    "open",                                   # a builtin that is not on the list
    "b.__class__",                            # an attribute
    "ctx.plays.__class__",
    "(lambda: 1)()",                          # a lambda
    "'text'",                                 # no string constant at all
    "b'bytes'",
    "1.5",
    "10 ** 100",                              # the power operator
    "1000000000000000000000",                 # an integer beyond the range
    "_mine(b, *x)",                           # starred arguments
    "max(x, key=len)",                        # keywords but default=
    "b[1:3]",                                 # slices
    "[y for y in x]",                         # a name the compiler does not make
    "_K99",                                   # a constant set the namespace lacks
    "eval('1')",
    "getattr(b, 'x')",
    "(yield 1)",
    "{1: 2}",
    "f'{b}'",
])
def test_the_whitelist_refuses(body: str) -> None:
    with pytest.raises(UnsafeCode):
        check_module(module(body), dict(NAMESPACE))


@pytest.mark.parametrize("source", [
    "import os\n",
    "from os import system\n",
    "def evil(b):\n    return 1\n",                       # a function name not made up
    "def hook_1(b, *args):\n    return 1\n",               # varargs
    "def hook_1(b, q=None):\n    return 1\n",              # a parameter not of hooks
    "@staticmethod\ndef hook_1(b):\n    return 1\n",       # decorators
    "def hook_1(b):\n    global b\n    return 1\n",
    "def hook_1(b):\n    _mine = 1\n    return _mine\n",   # rebinding a runtime name
    "def hook_1(b):\n    with b:\n        return 1\n",
    "def hook_1(b):\n    while b:\n        return 1\n",
    "def hook_1(b):\n    try:\n        return 1\n    except Exception:\n        return 2\n",
    "class hook_1:\n    pass\n",
    "def hook_1(b):\n    if b:\n        return 1\n    elif a:\n        return 2\n",
])
def test_the_whitelist_refuses_statements(source: str) -> None:
    with pytest.raises(UnsafeCode):
        check_module(ast.parse(source), dict(NAMESPACE))


def test_name_patterns() -> None:
    for name in ("hook_12", "_v3", "_h0", "_K2", "filter_4", "each_5", "_RI1", "b", "ctx", "_mine"):
        assert _name_ok(name), name
    for name in ("hook_x", "_v", "__import__", "eval", "os", "rule_forbidden_jans", "_K2x", "self"):
        assert not _name_ok(name), name


def test_generated_lines_are_the_lines_of_the_text() -> None:
    """Each statement is compiled at the line `ast.unparse` writes it on, so a failure inside
    generated code shows the line of the registered text."""
    v = load_variant("triktrak")
    fns = [fn for _i, fn in v.rules.forbid] + [fn for _i, _m, fn in v.rules.prefer]
    fns += [r.fn for r in v.rules.score_roll]
    for fn in fns:
        info = hook_info(fn)
        lines = ast.unparse(info.emitted.module).splitlines()
        for node in ast.walk(info.emitted.module):
            if isinstance(node, ast.stmt):
                head = ast.unparse(node).splitlines()[0]
                assert lines[node.lineno - 1].strip() == head.strip()
    hook = v.rules.score_roll[0].fn
    try:
        hook(None, None, None, 1, 2, 3, None)
    except TypeError:
        text = traceback.format_exc()
    else:  # pragma: no cover
        raise AssertionError("the hook read a board it was not given")
    assert "return" in text and hook_info(hook).emitted.filename in text
    assert linecache.getline(hook_info(hook).emitted.filename, 2).strip().startswith("return")


def test_run_refuses_an_unsafe_module() -> None:
    with pytest.raises(UnsafeCode):
        run(ast.parse("import os\n"), "hook_1", dict(NAMESPACE))


# -- files whose text is code ----------------------------------------------------------------------

SENTINEL = "TABLIER-SENTINEL"
# fragments that would create the sentinel file if they were ever run as Python
CODE = [f"open('{SENTINEL}', 'w')", f'__import__("pathlib").Path("{SENTINEL}").touch()',
        f"x():\n    pass\nopen('{SENTINEL}', 'w')\ndef y", f"\"\"\"\nopen('{SENTINEL}','w')\n\"\"\"",
        "'; import os; '", "\\n", "{}", "hook_1", "_K0", "b", "__builtins__"]

texts = st.one_of(st.sampled_from(CODE), st.text(st.characters(min_codepoint=32, max_codepoint=126)
                                                 | st.sampled_from("\n\t'\""), max_size=30))
# names the rule language accepts most of the time, so that most files compile
_name = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
names = st.one_of(_name, _name, _name, texts)
_PLAIN = re.compile(r"[a-z_][a-z0-9_]*")


def _model(rule_ids: list[str], define: str, region: str) -> SimpleNamespace:
    rules = {}
    for i, rid in enumerate(rule_ids):
        when = [f"mine(off) == checkers or {define}", f"any(p in {region}: theirs(p) > 0)",
                f"count(p in 1..24 where {define}) > 0", "rolls == 3"][i % 4]
        kind = ["end", "forbid", "prefer", "score"][i % 4]
        rules[rid] = SimpleNamespace(kind=kind, when=when, ways=None, value=None, minimize=None,
                                     maximize=None, to="mover", on="roll", winner="mover",
                                     simple=2, doublet=4, order=i, enabled=True)
    return SimpleNamespace(regions={region: "1..6"}, define={define: "mine(6) > 1"},
                           options={"mode": "a"}, option_choices={"mode": ["a", "b"]},
                           board=SimpleNamespace(checkers=15), rules=rules)


def _sources(rules) -> list[str]:
    hooks = [r.fn for r in rules.score_roll] + [fn for _i, fn in rules.forbid]
    hooks += [fn for _i, _m, fn in rules.prefer] + [fn for _i, _w, fn in rules.end]
    return [source_of(fn) or "" for fn in hooks]


@settings(max_examples=scaled(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(texts, min_size=1, max_size=4, unique=True), names, names)
def test_no_file_text_reaches_generated_code(tmp_path, monkeypatch, ids, define, region) -> None:
    """Whatever the ids and names of a file, it compiles to the code a file with plain ids and
    names gives (or is refused with a diagnostic), with only compiler-made names, and nothing
    of it is ever run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABLIER_NO_CACHE", "1")
    monkeypatch.setattr(dsl_parser, "_disk", dsl_parser._DiskCache())
    try:
        rules = compile_document(_model(ids, define, region))
    except SnippetError as err:
        assert err.code.startswith("dsl-") and err.key_path
    else:
        # a name that is not a plain name is itself text of the snippet (``p in {}`` is the
        # empty set): such a name is kept as it is on both sides, the ids are always replaced
        plain_define = "dfn" if _PLAIN.fullmatch(define) else define
        plain_region = "reg" if _PLAIN.fullmatch(region) else region
        plain = compile_document(_model([f"r{i}" for i in range(len(ids))], plain_define,
                                        plain_region))
        assert _sources(rules) == _sources(plain)
        b = tuple([0] * 28)
        ctx = SimpleNamespace(plays=[], unplayed=0, setup=1)
        for text in _sources(rules):
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Name):
                    assert _name_ok(node.id)
                if isinstance(node, ast.Constant):
                    assert not isinstance(node.value, (str, bytes))
        for r in rules.score_roll:
            r.fn(b, None, None, 3, 1, 1, ctx)
        for _i, fn in rules.forbid:
            fn(b, b, ())
        for _i, _w, fn in rules.end:
            fn(b)
        rules.roll_items(b, 3, 1, 1, ctx)
    assert not Path(SENTINEL).exists()


def test_a_rule_id_of_python_code_runs_nothing_in_validate(tmp_path, monkeypatch) -> None:
    """The rule id of the report: a Python statement between two function headers."""
    monkeypatch.chdir(tmp_path)
    rid = "x():\\n    pass\\nopen('" + SENTINEL + "', 'w')\\ndef y"
    path = tmp_path / "evil.toml"
    path.write_text(f'extends = "backgammon"\n[rules."{rid}"]\nname = "x"\nkind = "end"\n'
                    f'when = "mine(off) == chekers"\n', encoding="utf-8")
    codes = {d.code for d in validate_paths([path])}
    assert "bad-name" in codes
    assert not (tmp_path / SENTINEL).exists() and not Path(SENTINEL).exists()
    # and compiled with that id (what a file that failed the schema used to go through)
    model = _model([rid.replace("\\n", "\n")], "dfn", "reg")
    compile_document(model).roll_items(tuple([0] * 28), 3, 1, 1,
                                       SimpleNamespace(plays=[], unplayed=0, setup=1))
    assert not (tmp_path / SENTINEL).exists()


def test_no_file_name_in_the_generated_source() -> None:
    c = Compiler(Symbols(regions={"home_table": frozenset(range(1, 7))},
                         options={"exit_rule": "strict"},
                         option_choices={"exit_rule": ["strict", "loose"]}))
    fn = c.function(c.compile_expr("options.exit_rule == 'strict' and any(p in home_table: "
                                   "theirs(p) > 0)", ROLL, BOOL, ("rules", "some-id", "when")))
    text = source_of(fn)
    assert "strict" not in text and "home_table" not in text and "some" not in text
    assert os.path.basename(hook_info(fn).emitted.filename) == "hook_0.py"
