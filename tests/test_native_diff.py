"""The compiled hot path (interpreter/native) against the Python path, its reference: the same
boards in the same order from `results()`, the same games for the same seed from the compiled
playouts and from the Python turn loop with the compiled generator in place; and what stays
without numba: short commands import none of it.

The default suite checks backgammon (its compiled code is loaded from the user's cache, or
compiled once, some 20 s) and one game of each part of the walk with the file's rules and the
walk-only switches (`native/hooks_emit.py`, each compiled once, some 15 to 30 s): Fevga (rules
on each move, a waivable rule), Tourne-case (the lower number alone, lanes, hits across the
board) and Emperador (three dice, hits to the start, the first way to each board); the slow set
checks every shipped variant the compiled path claims, and option sets that waive rules by the
numbers they play, test every move, or change the walk-only switches.
"""
from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.native import loop_emit
from interpreter.native.playout import seed_bytes

ROOT = Path(__file__).resolve().parent.parent

numba = pytest.importorskip("numba")

from interpreter import native  # noqa: E402
from interpreter.bench import _playable_builtins, _sample_positions  # noqa: E402
from interpreter.runner import game_line, game_seed, play_game  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402

_LOADED: dict[str, tuple] = {}


def _pair(vid: str) -> tuple:
    """(a variant on the Python path, the same variant on the compiled path)."""
    if vid not in _LOADED:
        py, fast = load_variant(vid), load_variant(vid)
        assert native.accelerate(fast, quiet=True), vid
        _LOADED[vid] = (py, fast)
    return _LOADED[vid]


def _claimed() -> list[str]:
    out = []
    for vid in _playable_builtins():
        v = load_variant(vid)
        from interpreter.native.generator import _source_of
        if _source_of(v) is not None or any(_source_of(g) is not None for g in v.games):
            out.append(vid)
    return out


def _same_results(vid: str, positions: int, dice_all: int) -> None:
    py, fast = _pair(vid)
    _same_results_of(py, fast, positions, dice_all)


def _throws(variant: Any) -> list[tuple[int, ...]]:
    """Every throw of the variant's dice: (d1, d2), or (d1, d2, d3) with three dice."""
    n = variant.dice_count
    return [t for t in itertools.product(range(1, 7), repeat=n)]


def _same_plays(py: Any, fast: Any, b: tuple, throw: tuple[int, ...]) -> None:
    """The same boards in the same order from `results()`; where the compiled walk also gives
    `some_plays` (a named state's updates read the path), the same first way to each board and
    the same count of numbers left unplayed."""
    d1, d2, *d3 = throw
    if d3:
        ref = py.generator.results(b, d1, d2, 1, d3[0])
        got = fast.generator.results(b, d1, d2, 1, d3[0])
    else:
        ref, got = py.generator.results(b, d1, d2), fast.generator.results(b, d1, d2)
    assert got == ref, (py.id, b, throw)
    some = fast.generator.__dict__.get("some_plays")
    if some is not None:
        ref_plays, ref_left = py.generator.some_plays(b, d1, d2, 1, *d3)
        got_plays, got_left = some(b, d1, d2, 1, *d3)
        assert [(p.board, p.paths[0]) for p in got_plays] == \
            [(p.board, p.paths[0]) for p in ref_plays], (py.id, b, throw)
        assert got_left == ref_left


def _same_results_of(py: Any, fast: Any, positions: int, dice_all: int) -> None:
    pos = _sample_positions(py, positions, 3)
    for p in pos:
        _same_plays(py, fast, p[0], p[1:])
    throws = _throws(py)
    for p in pos[:dice_all]:
        for throw in throws:
            _same_plays(py, fast, p[0], throw)


def _same_games(vid: str, games: int, seed: int) -> None:
    py, fast = _pair(vid)
    playout = getattr(fast, "native_playout", None)
    ref = [game_line(i, seed, play_game(py, seed, i)) for i in range(games)]
    if playout is not None:
        got = playout.play([game_seed(seed, i) for i in range(games)])
        assert [game_line(i, seed, r) for i, r in enumerate(got)] == ref
    # the Python turn loop with the compiled generator in place, other players too
    assert [game_line(i, seed, play_game(fast, seed, i)) for i in range(games)] == ref
    for white, black in (("greedy", "random"), ("random", "greedy")):
        n = max(1, games // 10)
        assert [game_line(i, seed, play_game(fast, seed, i, white, black)) for i in range(n)] \
            == [game_line(i, seed, play_game(py, seed, i, white, black)) for i in range(n)]


# -- the default suite: backgammon --------------------------------------------------------------

def test_backgammon_results_same_boards_same_order() -> None:
    _same_results("backgammon", 300, 30)


def test_backgammon_same_games_for_the_same_seed() -> None:
    _same_games("backgammon", 60, 11)


# -- the default suite: the walk with the file's forbid rules (Fevga) ------------------------------

def test_fevga_results_same_boards_same_order() -> None:
    """Fevga's first runner (a rule on each move reading the step), its starting quarter (a
    rule on the end of the play) and its prime (waived when no play avoids it)."""
    py, fast = _pair("fevga")
    assert type(fast.generator.results).__name__ == "HookedResults"
    _same_results("fevga", 100, 25)


def test_fevga_same_games_for_the_same_seed() -> None:
    _same_games("fevga", 20, 7)


def test_playouts_over_the_walk_with_the_files_rules() -> None:
    """Fevga's and Long Nardy's random playouts run in the compiled loop over the walk with the
    file's rules inside it (hooks_emit.py), as backgammon's run over its generator: the same
    games as the Python loop, game for game."""
    for vid, seed in (("fevga", 8), ("long-nardy", 9)):
        _py, fast = _pair(vid)
        assert fast.__dict__.get("native_playout") is not None, vid
        _same_games(vid, 20, seed)


_signed = st.lists(st.integers(-4, 4), min_size=24, max_size=24)


@settings(max_examples=150, deadline=None)
@given(_signed, st.integers(1, 6), st.integers(1, 6))
def test_fevga_hypothesis_positions(points: list[int], d1: int, d2: int) -> None:
    """Any position of at most 15 men a side (the rest borne off), nothing hit, any dice."""
    mine = sum(x for x in points if x > 0)
    theirs = -sum(x for x in points if x < 0)
    if mine > 15 or theirs > 15:
        return
    b = (15 - mine, *points, 0, 0, 15 - theirs)
    py, fast = _pair("fevga")
    assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)


def test_fevga_prime_waived_the_same_way() -> None:
    """Positions where Fevga's prime rule decides: the opponent's men all gathered behind six
    points the mover holds, with throws that must or need not open them (the rule holds, or is
    waived because no play avoids it): the same boards, and both cases are met."""
    py, fast = _pair("fevga")
    gen = py.generator
    seen = {True: 0, False: 0}
    from interpreter.kernel.board import Geometry

    g = Geometry("same")
    for pattern, starts in (((2, 2, 2, 2, 2, 2), (1, 9)), ((3, 3, 3, 2, 2, 2), (10, 12)),
                            ((2, 2, 2, 3, 3, 3), (13, 16))):
        for start in starts:
            # six points held from the opponent's own pip `start`, all his men on the next one
            L = [0] * 28
            for k in range(6):
                L[g.their_pip(start + k)] = pattern[k]
            L[g.their_pip(start + 6)] = -15
            L[0] = 15 - sum(pattern)
            b = tuple(L)
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    assert fast.generator.results(b, d1, d2) == gen.results(b, d1, d2), \
                        (b, d1, d2)
                    cands = gen._explore(b, d1, d2, 4 if d1 == d2 else 2, 1)
                    seen[gen._active(b, cands, d1, d2, 1)[1]] += 1
    assert seen[True] and seen[False], seen


# -- the default suite: the switches only the generic walk serves ----------------------------------

def test_tourne_case_results_same_boards_same_order() -> None:
    """Tourne-case: the lower number alone, men entered on the own side, hits across the board,
    no bearing off, and the order of the men as rules on each move."""
    _py, fast = _pair("tourne-case")
    assert type(fast.generator.results).__name__ == "HookedResults"
    _same_results("tourne-case", 300, 60)


def test_tourne_case_same_games_for_the_same_seed() -> None:
    _same_games("tourne-case", 40, 5)


_lane = st.lists(st.integers(0, 12), min_size=3, max_size=3)


@settings(max_examples=150, deadline=None)
@given(_lane, _lane, st.integers(1, 6), st.integers(1, 6))
def test_tourne_case_hypothesis_positions(mine: list[int], theirs: list[int], d1: int,
                                          d2: int) -> None:
    """Any three men a side on their lanes or waiting to enter (0), two of a side on one
    point included, any dice."""
    L = [0] * 31
    for q in mine:
        if q:
            L[q] += 1
        else:
            L[29] += 1
    for q in theirs:
        if q:
            L[25 - q] -= 1
        else:
            L[30] += 1
    b = tuple(L)
    py, fast = _pair("tourne-case")
    _same_plays(py, fast, b, (d1, d2))


def test_emperador_results_and_first_ways() -> None:
    """Emperador: three dice (each distinct order walked, a board met again with the same
    numbers left not walked twice), hits to the start or, while the hitter holds it, to the
    bar; its update reads the path of the play, so the compiled walk gives the first way to
    each board too."""
    _py, fast = _pair("emperador")
    assert fast.generator.__dict__.get("some_plays") is not None
    _same_results("emperador", 40, 1)


def test_emperador_same_games_for_the_same_seed() -> None:
    _same_games("emperador", 4, 3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=24, max_size=24), st.integers(0, 2),
       st.integers(0, 2), st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
def test_emperador_hypothesis_positions(points: list[int], bar: int, opp_bar: int, d1: int,
                                        d2: int, d3: int) -> None:
    mine = sum(x for x in points if x > 0) + bar
    theirs = -sum(x for x in points if x < 0) + opp_bar
    if mine > 15 or theirs > 15:
        return
    b = (15 - mine, *points, bar, opp_bar, 15 - theirs, 0, 0, 0, 0, 0)
    py, fast = _pair("emperador")
    _same_plays(py, fast, b, (d1, d2, d3))


_points = st.lists(st.integers(-3, 3), min_size=24, max_size=24)


@settings(max_examples=150, deadline=None)
@given(_points, st.integers(0, 3), st.integers(0, 3), st.integers(1, 6), st.integers(1, 6))
def test_backgammon_hypothesis_positions(points: list[int], bar: int, opp_bar: int, d1: int,
                                         d2: int) -> None:
    """Any position with at most 15 checkers a side (the rest borne off), any dice."""
    mine = sum(x for x in points if x > 0) + bar
    theirs = -sum(x for x in points if x < 0) + opp_bar
    if mine > 15 or theirs > 15:
        return
    b = (15 - mine, *points, bar, opp_bar, 15 - theirs)
    py, fast = _pair("backgammon")
    assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)


def test_overflow_hands_the_throw_to_python() -> None:
    """A work space too small for a throw's results: the Python generator answers."""
    py, fast = _pair("backgammon")
    nr = fast.generator.native
    b = py.start
    assert nr(b, 6, 6) == py.generator.results(b, 6, 6)
    calls = []
    old = nr.fallback
    nr.fallback = lambda *a: calls.append(a) or old(*a)
    saved = nr.fn
    nr.fn = lambda *a: -2
    try:
        assert nr(b, 3, 1) == py.generator.results(b, 3, 1)
    finally:
        nr.fn, nr.fallback = saved, old
    assert calls == [(b, 3, 1)]


def test_rules_walk_overflow_hands_the_throw_to_python() -> None:
    """The walk with the file's rules: a throw it cannot hold is answered by the Python
    generator, `results()` and the first ways of `some_plays` alike."""
    for vid, throw in (("fevga", (3, 1)), ("emperador", (3, 1, 2))):
        py, fast = _pair(vid)
        nr = fast.generator.native
        b = py.start
        d1, d2, *d3 = throw
        ref = py.generator.results(b, d1, d2, 1, *d3)
        saved = nr.fn
        nr.fn = lambda *a: -2
        try:
            assert nr(b, d1, d2, 1, *d3) == ref
            if d3:
                plays, left = nr.some_plays(b, d1, d2, 1, *d3)
                assert [p.board for p in plays] == ref and left == 0
        finally:
            nr.fn = saved


def test_seed_words_are_pythons() -> None:
    """The compiled streams start where random.Random(text) starts: the same 624 words."""
    import numpy as np

    from interpreter.native.generator import compiled_module
    from interpreter.native.playout import playout_part

    _py, fast = _pair("backgammon")
    mod = fast.native_playout.native.module
    assert mod is compiled_module(fast.move_rules, playout_part(fast)[0])
    for text in ("0/0:dice", "12/345:white", "x" * 200, ""):
        key = np.frombuffer(seed_bytes(text), dtype="<u4").astype(np.int64)
        mt = np.zeros(625, dtype=np.int64)
        mod._seed(mt, key, len(key))
        state = random.Random(text).getstate()[1]
        assert tuple(mt.tolist()) == state
        r = random.Random(text)
        assert [mod._random(mt) for _ in range(5)] == [r.random() for _ in range(5)]


def test_generated_source_holds_no_text_of_the_file(tmp_path: Path) -> None:
    """A variant whose rule ids and names are odd text: the generated module holds none of it
    (only numbers and the generator's own names)."""
    from interpreter.native.generator import _source_of

    v = load_variant("backgammon")
    src, _fns, _salt = _source_of(v)
    for word in ("borne", "gammon", "Backgammon", "mine(", "theirs("):
        assert word not in src


def test_rules_walk_source_holds_no_text_of_the_file(tmp_path: Path) -> None:
    """The walk with the file's rules: a copy of Fevga whose rule ids, names, descriptions and
    definitions are odd text; none of it reaches the module, whose rules are called by the
    names the rule compiler made up."""
    import ast
    import re

    from interpreter.native.generator import _source_of

    text = (ROOT / "variants" / "fevga.toml").read_text(encoding="utf-8")
    odd = text.replace("first-runner", "evil-import-x").replace(
        "starting-quarter", "os-system-rm").replace("runner_away", "zz_payload_def")
    odd = odd.replace('name = "The first runner"', 'name = "__import__ os system"')
    path = tmp_path / "odd.toml"
    path.write_text(odd, encoding="utf-8")
    v = load_variant(str(path))
    src, fns, salt = _source_of(v)
    # the walk, and the random playouts' loop over it
    assert [fn for fn, _sig in fns] == ["results", "play_games"] and salt
    for word in ("evil", "os-system", "zz_payload", "__import__", "Fevga", "runner", "prime"):
        assert word not in src, word
    tree = ast.parse(src)
    called = {n.func.id for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    rules = {c for c in called if c.startswith("rule")}
    assert rules and all(re.fullmatch(r"rule_\d+", c) for c in rules), rules
    # numbers (the playouts' random streams' own floats among them), the one word of numba's
    # inlining option, and the docstrings of the loop's fixed functions (static text)
    docs = {id(f.body[0].value) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and ast.get_docstring(f) is not None}
    assert all(type(n.value) in (int, bool, float) or n.value == "always"
               for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docs)
    assert {ast.get_docstring(f) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and ast.get_docstring(f)} <= {ast.get_docstring(f) for f in ast.walk(
                ast.parse(loop_emit.MT + loop_emit.GAMES)) if isinstance(f, ast.FunctionDef)}


def test_off_switch_and_missing_numba(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    v = load_variant("backgammon")
    monkeypatch.setenv("TABLIER_NATIVE", "0")
    assert not native.accelerate(v)
    assert getattr(v.generator, "native", None) is None
    monkeypatch.delenv("TABLIER_NATIVE")
    monkeypatch.setitem(native._STATE, "numba", False)
    monkeypatch.setitem(native._STATE, "said", set())
    assert not native.accelerate(v)
    assert not native.accelerate(v)
    err = capsys.readouterr().err
    assert err.count("numba is not installed") == 1


def test_not_covered_says_so_once(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(native._STATE, "said", set())
    v = load_variant("triktrak")
    assert not native.accelerate(v)
    assert not native.accelerate(v)
    err = capsys.readouterr().err
    assert err.count("triktrak: no compiled move generator") == 1


def test_few_games_do_not_pay_for_numba() -> None:
    v = load_variant("backgammon")
    assert not native.accelerate(v, games=native.WARM_GAMES - 1)
    assert getattr(v.generator, "native", None) is None


def test_short_games_need_more_of_them_to_pay_for_numba() -> None:
    """Three checkers a side: a game costs the Python path under a millisecond, so the compiled
    code is loaded for five times the games."""
    tc, bg = load_variant("tourne-case"), load_variant("backgammon")
    assert native.warm_games((bg,)) == native.WARM_GAMES
    assert native.warm_games((tc,)) == 5 * native.WARM_GAMES
    assert native.warm_games(tuple(load_variant("tavli").games)) == native.WARM_GAMES
    assert not native.accelerate(tc, games=5 * native.WARM_GAMES - 1)
    assert getattr(tc.generator, "native", None) is None


def test_short_commands_import_no_numba() -> None:
    """`tablier moves` on one position, `rules`, `validate`: numba is never imported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    position = ('{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],'
                '"bar":[0,0],"off":[0,0],"dice":[3,1]}')
    for args, stdin in ((["moves", "backgammon"], position), (["rules", "backgammon"], ""),
                        (["validate", "variants/backgammon.toml"], "")):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "interpreter", *args],
                              input=stdin, capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        imported = {line.split("|")[-1].strip().split(".")[0]
                    for line in done.stderr.splitlines() if line.startswith("import time:")}
        assert "numba" not in imported and "llvmlite" not in imported, args


def test_the_playout_covers_what_it_says() -> None:
    """The compiled playout is made only for a throw the Python loop plays on its fast path."""
    from interpreter.native.playout import playout_part

    assert playout_part(load_variant("backgammon")) is not None
    assert playout_part(load_variant("triktrak")) is None        # scoring rules, holes
    assert playout_part(load_variant("tavli")) is None           # a rotation of three games
    assert set(loop_emit.OPENING) >= {"one_die_each"}


# -- the slow set: every variant the compiled path claims ------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("vid", _claimed())
def test_every_claimed_variant_same_results(vid: str) -> None:
    v = load_variant(vid)
    games = v.games or (v,)
    three = v.dice_count == 3
    for g in games:
        if g is v:
            _same_results(vid, 400 if three else 1500, 15 if three else 150)
        else:
            py, fast = load_variant(g.id), load_variant(g.id)
            if native.accelerate(fast, quiet=True):
                for b, d1, d2 in _sample_positions(py, 800, 5):
                    assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)


@pytest.mark.slow
@pytest.mark.parametrize("vid", [v for v in _claimed() if not load_variant(v).games])
def test_every_claimed_variant_same_games(vid: str) -> None:
    _same_games(vid, 120, 23)


#: option sets of the games with forbid rules that change how the rules are asked: a waiver by
#: the numbers played, the block tested after every move, Fevga's prime never waived, the
#: courier's shorter course
_RULE_OPTIONS = [
    ("long-nardy", ('options.ln_head_exception="when_needed"',
                    'options.ln_block_check="every_move"')),
    ("long-nardy", ('options.ln_six_block="opponent_home"',
                    'options.ln_head_exception="six_and_four"')),
    ("fevga", ('options.fv_prime="all_behind"', 'options.fv_first_runner="start_quarter"')),
    ("jacquet", ('options.courier_goal="opponent_start_quarter"',)),
    ("tourne-case", ('options.tc_dice="both"',)),
    ("tabula", ('options.tl_enter_all_first="yes"', 'options.tl_hit="free"',
                'options.tl_bear_off="higher"')),
    ("tabula", ('options.tl_route="offset"', 'options.tl_gather="none"')),
    ("emperador", ('options.em_hit="enter"', 'options.em_bear_off="any_time"')),
]


@pytest.mark.slow
@pytest.mark.parametrize("vid,overrides", _RULE_OPTIONS)
def test_rule_options_same_results_and_games(vid: str, overrides: tuple[str, ...]) -> None:
    py, fast = load_variant(vid, overrides), load_variant(vid, overrides)
    assert native.accelerate(fast, quiet=True)
    three = py.dice_count == 3
    _same_results_of(py, fast, 200 if three else 600, 10 if three else 60)
    if not three:
        # the first throws of each side, where the head rules and their waivers decide
        firsts = [py.start] + [py.flip(r) for d1 in range(1, 7) for d2 in range(1, 7)
                               for r in py.generator.results(py.start, d1, d2)]
        for b in firsts:
            for throw in _throws(py):
                _same_plays(py, fast, b, throw)
    ref = [game_line(i, 3, play_game(py, 3, i)) for i in range(10 if three else 40)]
    assert [game_line(i, 3, play_game(fast, 3, i)) for i in range(len(ref))] == ref


@pytest.mark.slow
def test_a_waiver_by_the_numbers_played_is_met() -> None:
    """Long Nardy's head rule "when needed" is waived on some first throws of the second
    player (the test above would pass vacuously otherwise)."""
    v = load_variant("long-nardy", ('options.ln_head_exception="when_needed"',))
    gen = v.generator
    assert "fewer_numbers" in gen._waive
    waived = 0
    for d1 in range(1, 7):
        for r in gen.results(v.start, d1, d1):
            b = v.flip(r)
            for d in range(1, 7):
                cands = gen._explore(b, d, d, 4, 1)
                waived += not all(gen._active(b, cands, d, d, 1))
    assert waived
