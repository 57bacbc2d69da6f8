"""Every example in docs/dsl.md, evaluated on the position the document describes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dataclasses import replace

from interpreter.dsl.compiler import (CHOICE, FORBID, MOVE, ROLL, Compiler, Symbols,
                                      parse_definition_key)
from interpreter.dsl.runtime import RollContext
from interpreter.kernel.board import Geometry, from_start
from interpreter.kernel.movegen import MoveGenerator, Step
from interpreter.kernel.rules import MoveRules

DOC = Path(__file__).resolve().parent.parent / "docs" / "dsl.md"
BLOCK = re.compile(r"```examples( \w+)?\n(.*?)```", re.S)
CONTEXTS = {"": ROLL, "forbid": FORBID, "choice": CHOICE, "move": MOVE, "same": ROLL,
            "pins": ROLL}


def _examples():
    for match in BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        context = (match.group(1) or "").strip()
        for line in match.group(2).splitlines():
            if "→" in line:
                expr, expected = (part.strip() for part in line.split("→"))
                yield pytest.param(context, expr, expected, id=f"{context or 'roll'}: {expr}")


def _expected(text: str):
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("{"):
        return frozenset(int(t) for t in re.findall(r"-?\d+", text))
    return int(text)


@pytest.fixture(scope="module")
def setting():
    symbols = Symbols(regions={"home": frozenset(range(1, 7))}, checkers=15)
    for key, body in {"blot(p)": "theirs(p) == 1", "stack(p)": "mine(p) >= 2"}.items():
        d = parse_definition_key(key, body)
        symbols.definitions[d.name] = d
    b = from_start({24: 2, 13: 5, 8: 3, 6: 5})
    gen = MoveGenerator(MoveRules())
    plays, _ = gen.plays(b, 3, 1)
    path = (Step(8, 5, 3, 0, 0), Step(6, 5, 1, 0, 0))
    play = next(p for p in plays if path in p.paths)
    return symbols, b, gen, path, play


def _pinned_position() -> tuple:
    """A Plakoto position: the mover's checker pinned on 24 under one opposing checker, an
    opposing checker pinned on 1 under one of the mover's."""
    b = [0] * Geometry(pins=True).size
    b[24], b[1], b[13], b[12] = -1, 1, 13, -13
    b[28] = (1 << 24) | (1 << 1)
    return tuple(b)


@pytest.mark.parametrize("context,expr,expected", list(_examples()))
def test_dsl_doc_example(setting, context, expr, expected):
    symbols, b, gen, path, play = setting
    a = play.board
    x = {"forbid": path, "choice": play, "move": path}.get(context)
    if context == "same":
        symbols = replace(symbols, route="same")
        b = a = Geometry("same").start_board({24: 15})
    elif context == "pins":
        symbols = replace(symbols, pins=True)
        b = a = _pinned_position()
    elif context == "move":
        # at the second move of 8/5 6/5: before it 8/5 is played, after it both
        b = gen.apply(b, path[:1])
    compiler = Compiler(symbols)
    value = compiler.compile_expr(expr, CONTEXTS[context], ("int", "bool", "set"), ("example",))
    fn = compiler.function(value, "example")
    board = b
    ctx = RollContext(lambda: gen.plays(board, 3, 1))
    got = fn(b, a, x, 3, 1, 1, ctx)
    if isinstance(got, (set, frozenset, tuple, range)):
        got = frozenset(got)
    assert got == _expected(expected)


def test_doc_has_examples_of_every_context():
    contexts = {p.values[0] for p in _examples()}
    assert contexts == {"", "forbid", "choice", "move", "same", "pins"}
    assert len(list(_examples())) >= 50


# -- the examples of "Limits" and "How rules are compiled" -------------------------------------------

def _blocks(kind: str) -> list[str]:
    """The fenced blocks of the document tagged `kind` ("" for untagged ones)."""
    out, current, tag = [], None, None
    for line in DOC.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, tag = [], line[3:].strip()
            else:
                if tag == kind:
                    out.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return out


@pytest.mark.parametrize("name", ["far", "crowded"])
def test_dsl_doc_limit_examples(tmp_path, name):
    from interpreter.variant.build import validate_paths

    [rule] = [b for b in _blocks("toml") if f"[rules.{name}]" in b]
    [shown] = [b for b in _blocks("") if b.startswith(f"{name}.toml:")]
    path = tmp_path / f"{name}.toml"
    path.write_text('extends = "backgammon"\n\n' + rule, encoding="utf-8")
    [d] = validate_paths([path])
    assert f"{name}.toml:{d.line}:{d.col}: error[{d.code}]: {d.message}" == shown.strip()


def test_dsl_doc_explain_example(capsys):
    from interpreter.cli import main

    [block] = [b for b in _blocks("") if b.startswith("$ python3 -m interpreter explain")]
    command, *expected = block.rstrip("\n").split("\n")
    assert main(command.split()[4:]) == 0
    assert capsys.readouterr().out.rstrip("\n").split("\n") == expected


def _context_table() -> list[tuple[list[str], list[bool]]]:
    """The rows of docs/dsl.md's "Which names each kind of rule may use": the plain names of
    each row, and whether each kind of rule (in the table's column order) may use them."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("### Which names each kind of rule may use", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = [n for n in re.findall(r"`([a-z_]+)(?:\(p\))?`", cells[0])]
        rows.append((names, [bool(c) for c in cells[1:]]))
    return rows


def test_the_table_of_names_by_kind_is_what_the_checker_allows():
    from interpreter.dsl.compiler import END
    from interpreter.dsl.vocabulary import FUNCTIONS, VALUES

    kinds = (ROLL, MOVE, FORBID, CHOICE, END)
    compiler = Compiler(Symbols())
    checked = 0
    for names, allowed in _context_table():
        for name in names:
            if name in FUNCTIONS:
                text = f"{name}(1)" if FUNCTIONS[name].params == ("int",) else None
            elif name in VALUES:
                text = name
            else:
                continue            # options, regions, definitions: not one name
            if text is None:
                continue
            for kind, ok in zip(kinds, allowed):
                try:
                    compiler.compile_expr(text, kind, ("int", "bool", "set", "state", "path",
                                                       "step", "play", "list[int]",
                                                       "list[play]"), ("t",))
                    accepted = True
                except Exception as err:  # noqa: BLE001 - the code says which problem
                    assert getattr(err, "code", None) == "dsl-context", (name, kind, err)
                    accepted = False
                assert accepted == ok, (name, kind)
                checked += 1
    assert checked >= 100
