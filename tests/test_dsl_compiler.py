"""The rule language's checker and compiler: errors with positions, limits, untrusted input."""
from __future__ import annotations

import pytest

from interpreter.dsl.compiler import (BOOL, CHOICE, END, FORBID, INT, MOVE, ROLL, Compiler, Symbols,
                                      parse_definition_key)
from interpreter.dsl import source_of
from interpreter.dsl.parser import SnippetError
from interpreter.kernel.board import from_start

START = from_start({24: 2, 13: 5, 8: 3, 6: 5})


def compiler(**defines: str) -> Compiler:
    symbols = Symbols(regions={"home": frozenset(range(1, 7))},
                      options={"mode": "strict", "limit": 3, "on": True},
                      option_choices={"mode": ["strict", "loose"]})
    for key, body in defines.items():
        d = parse_definition_key(key.replace("__", "(").replace("_X", ")"), body)
        symbols.definitions[d.name] = d
    return Compiler(symbols)


def evaluate(text: str, context: str = ROLL, want=(INT, BOOL), b=START, **defines):
    c = compiler(**defines)
    fn = c.function(c.compile_expr(text, context, want, ("rules", "t", "when")), "t")
    return fn(b, b, (), 3, 1, 1, None)


def error_of(text: str, context: str = ROLL, want=(INT, BOOL), **defines) -> SnippetError:
    with pytest.raises(SnippetError) as info:
        evaluate(text, context, want, **defines)
    return info.value


@pytest.mark.parametrize("text,code,line,col", [
    ("mine(6) ==", "dsl-syntax", 1, 11),
    ("mine(6) = 2", "dsl-syntax", 1, 9),
    ("mien(6) > 0", "dsl-unknown-name", 1, 1),
    ("mine(6, 7) > 0", "dsl-arity", 1, 1),
    ("mine(home) > 0", "dsl-type", 1, 6),
    ("mine(6) and true", "dsl-type", 1, 1),
    ("plays", "dsl-type", 1, 1),
    ("count(p in home where mine(p))", "dsl-type", 1, 23),
    ("options.mode == 'lax'", "dsl-option", 1, 17),
    ("options.nope == 'x'", "dsl-unknown-name", 1, 1),
    ("mine(6) > 0 and\n  theirs(x) > 0", "dsl-unknown-name", 2, 10),
    ("if doublet then 1 else true", "dsl-type", 1, 1),
    ("__import__('os')", "dsl-unknown-name", 1, 1),
    ("mine(6); import os", "dsl-syntax", 1, 8),
    ("mine(6).x", "dsl-unknown-name", 1, 1),
])
def test_errors_carry_code_and_position(text, code, line, col):
    err = error_of(text)
    assert (err.code, err.line, err.col) == (code, line, col), err.message
    assert err.key_path == ("rules", "t", "when")


def test_context_is_checked():
    assert error_of("after.mine(6) > 0", ROLL).code == "dsl-context"
    assert error_of("plays == plays", FORBID).code == "dsl-context"
    assert error_of("unplayed > 0", FORBID).code == "dsl-context"
    # `step` is the single move of a rule asked of each move, not of a whole play
    assert error_of("step.from == 24", FORBID).code == "dsl-context"
    assert evaluate("after.mine(6) - mine(6)", CHOICE) == 0


def test_dice_and_throw_counters_in_forbid_rules():
    # a forbid rule sees the roll being played (3-1, the first throw in `evaluate`)
    assert evaluate("doublet", FORBID) is False
    assert evaluate("high * 10 + low + total", FORBID) == 35
    assert evaluate("rolls", FORBID) == 1
    assert evaluate("count(d in numbers)", MOVE) == 2


def test_definitions_expand_and_recursion_is_refused():
    assert evaluate("count(p in 1..24 where stack(p))", stack__p_X="mine(p) >= 2") == 4
    err = error_of("loop", loop="loop + 1")
    assert err.code == "dsl-recursion"
    err = error_of("a_", a_="b_", b_="a_")
    assert err.code == "dsl-recursion"


def test_definition_errors_point_into_the_definition():
    err = error_of("bad", bad="mine(6) +")
    assert err.code == "dsl-syntax" and err.key_path == ("define", "bad")


def test_builtin_names_cannot_be_redefined():
    with pytest.raises(SnippetError) as info:
        parse_definition_key("mine(p)", "1")
    assert info.value.code == "dsl-shadow"


def test_options_fold_at_compile_time():
    c = compiler()
    value = c.compile_expr("options.mode == 'strict' and options.limit + 1 == 4 and options.on",
                           ROLL, BOOL, ("x",))
    assert value.const is True


def test_limits_bound_the_work():
    assert error_of("1" + " + 1" * 2000).code == "dsl-limit"
    assert error_of("not " * 60 + "true").code == "dsl-limit"
    assert evaluate("(" * 60 + "1" + ")" * 60) == 1     # brackets alone add no depth
    nested = "count(a in home where count(b in home where count(c in home where count(d in home " \
             "where count(e in home where count(f in home where true) > 0) > 0) > 0) > 0) > 0)"
    assert error_of(nested).code == "dsl-limit"
    # a definition that doubles at every level explodes when expanded: refused, not run
    defines = {"n0": "mine(6)"}
    for i in range(1, 20):
        defines[f"n{i}"] = f"n{i - 1} + n{i - 1}"
    assert error_of("n19 > 0", **defines).code == "dsl-limit"


def test_no_text_of_the_file_reaches_generated_source():
    c = compiler()
    fn = c.function(c.compile_expr("options.mode == 'strict' and any(p in home: theirs(p) > 0)",
                                   END, BOOL, ("x",)), "t")
    assert "strict" not in source_of(fn) and "home" not in source_of(fn)


def test_forbid_rules_compute_position_parts_once_per_roll():
    c = compiler()
    text = "any(p in 1..12: sum(q in 1..p: theirs(q)) >= 2) and after.mine(6) > 0"
    fn = c.function(c.compile_expr(text, FORBID, BOOL, ("x",)), "t")
    assert "_h0" in source_of(fn) and "if b is not _cb" in source_of(fn)
    assert fn(START, START, ()) is True
    moved = list(START)
    moved[6] = 0
    assert fn(START, tuple(moved), ()) is False


def test_aggregates_and_sets():
    assert evaluate("sum(p in home: mine(p))") == 5
    assert evaluate("max(p in {}: p)") == 0
    assert evaluate("size(union(d in numbers: {d, 7 - d}))") == 4
    assert evaluate("3 in union(d in dice: {d})") is True
    assert evaluate("count(p in 1..24 where not empty(p))") == 8


def test_a_name_is_added_to_the_vocabulary_in_a_few_lines(monkeypatch):
    """What vocabulary.py's docstring says: a value is one entry; a function is a runtime
    helper and one entry."""
    from interpreter.dsl import runtime, vocabulary
    from interpreter.dsl.core import Cmp, IfExp
    from interpreter.dsl.vocabulary import DICE_CONTEXTS, Function, Value, die

    def covered(b, p):           # an opposing blot with one of the mover's checkers behind it
        return 1 <= p <= 23 and b[p] == -1 and b[p + 1] > 0

    monkeypatch.setitem(vocabulary.VALUES, "farthest_die", Value(
        INT, lambda env: IfExp(Cmp(">", die(1), die(2), type=BOOL), die(1), die(2), type=INT),
        DICE_CONTEXTS, "the higher number"))
    monkeypatch.setitem(runtime.RUNTIME, "_covered", covered)
    monkeypatch.setitem(vocabulary.FUNCTIONS, "covered", Function(
        (INT,), BOOL, "an opposing blot with the mover behind it", runtime="_covered",
        position=True))
    b = list(START)
    b[5], b[6] = -1, 2
    assert evaluate("farthest_die * 10 + count(p in 1..24 where covered(p))", b=tuple(b)) == 31
    # a value is checked against the contexts it is given (the dice: every kind of rule)
    assert evaluate("farthest_die", FORBID) == 3
    monkeypatch.setitem(vocabulary.VALUES, "farthest_die", Value(
        INT, lambda env: die(1), frozenset({ROLL}), "the first number"))
    assert error_of("farthest_die", FORBID).code == "dsl-context"


def _layout_hook(text: str, context: str, **layout):
    c = Compiler(Symbols(**layout))
    value = c.compile_expr(text, context, (INT, BOOL), ("rules", "t", "when"))
    return value, c.function(value)


def test_their_pip_follows_the_route_and_computes_its_argument_once():
    value, fn = _layout_hook("their_pip(24) * 100 + their_pip(mine(6))", ROLL)
    assert value.const is None and fn(START, None, None, 3, 1, 1, None) == 100 + 20
    value, fn = _layout_hook("their_pip(24) * 100 + their_pip(mine(6))", ROLL, route="same")
    assert fn(START, None, None, 3, 1, 1, None) == 1200 + 17
    # the same route keeps one call of the runtime's helper, its argument written once
    assert source_of(fn).count("_their_same(") == 1
    assert _layout_hook("their_pip(13)", ROLL, route="same")[0].const == 1


def test_pins_and_unentered_checkers_are_read_from_their_cells():
    board = [0] * 31
    board[24], board[1], board[28] = -1, 1, (1 << 24) | (1 << 1)
    board[29], board[30] = 4, 2
    b = tuple(board)
    _v, fn = _layout_hook("mine_pinned(24) * 1000 + theirs_pinned(1) * 100 + mine(unentered) * 10"
                          " + theirs(unentered)", ROLL, pins=True, pool=True)
    assert fn(b, None, None, 3, 1, 1, None) == 1142
    # on a board without those cells (backgammon's 28) the same names read nothing
    assert fn(START, None, None, 3, 1, 1, None) == 0
    assert _layout_hook("mine_pinned(25)", ROLL)[0].const == 0


def test_a_forbid_rule_reading_the_dice_filters_a_roll_with_them():
    _v, fn = _layout_hook("doublet and count(s in path where s.from == 24) > 1", FORBID)
    two = ((24, 21, 3, 0, 0), (24, 21, 3, 0, 0))
    one = ((24, 21, 3, 0, 0), (21, 18, 3, 0, 0))
    cands = [(two, START), (one, START)]
    assert fn.filter_paths(START, cands, 3, 3, 1) == [(one, START)]
    assert fn.filter_paths(START, cands, 3, 1, 1) == cands
    assert [c for c in cands if not fn(START, c[1], c[0], 3, 3, 1)] == [(one, START)]


def test_a_rule_on_each_move_is_priced_per_single_move():
    from interpreter.dsl.runs import runs_of
    ASSUMED_MOVES = runs_of(15, 4).moves

    value, fn = _layout_hook("step.from == 24 and step.pin and count(p in 1..24 where "
                             "after.mine(p) > 0) > 3", MOVE)
    assert value.candidates == ASSUMED_MOVES
    assert value.cost > 24 * ASSUMED_MOVES
    b = START
    assert fn(b, b, ((24, 21, 3, 0, 8),), 3, 1, 1) is True
    assert fn(b, b, ((24, 21, 3, 0, 0),), 3, 1, 1) is False


def test_the_quick_reader_gives_the_parsers_trees():
    """Simple arithmetic snippets are read without lark (interpreter/dsl/quickparse.py): on
    random snippets of names, numbers, calls, operators and brackets, the same trees with the
    same positions as larkparser, or None (left to lark: every fault among them)."""
    import random

    from interpreter.dsl import syntax as S
    from interpreter.dsl.larkparser import parse_syntax
    from interpreter.dsl.quickparse import quick_parse

    def shape(node):
        if isinstance(node, list):
            return [shape(n) for n in node]
        if isinstance(node, S.Syntax):
            return (type(node).__name__, node.pos.line, node.pos.col, node.pos.length,
                    [shape(getattr(node, k)) for k in type(node).__slots__])
        return node

    rng = random.Random(5)

    def gen(d=0):
        if d > 3 or rng.random() < 0.3:
            return rng.choice(["1", "042", "x", "mine(6)", "theirs(off)", "true", "f(1, 2)",
                               "g()", "1..2", "'s'"])
        sp = rng.choice(["", " ", "  "])
        k = rng.randrange(9)
        if k < 2:
            return gen(d + 1) + sp + rng.choice(["+", "-", "*", "//", "%"]) + sp + gen(d + 1)
        if k == 2:
            return gen(d + 1) + sp + rng.choice(["==", "!=", "<", "<=", ">", ">="]) + sp + \
                gen(d + 1)
        if k == 3:
            return gen(d + 1) + rng.choice([" and ", " or "]) + gen(d + 1)
        if k == 4:
            return "not " + gen(d + 1)
        if k == 5:
            return "-" + sp + gen(d + 1)
        if k == 6:
            return "(" + sp + gen(d + 1) + sp + ")"
        return "h(" + gen(d + 1) + ", " + gen(d + 1) + ")"

    read = 0
    for _ in range(1500):
        text = gen()
        quick = quick_parse(text)
        if quick is None:
            continue
        read += 1
        assert shape(quick) == shape(parse_syntax(text, "expr_start")), text
    assert read > 500
    assert quick_parse("count(p in 1..24 where mine(p) > 0)") is None
    assert quick_parse("mine(1) < mine(2) < 3") is None       # lark says why not
