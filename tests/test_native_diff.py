"""The compiled hot path (interpreter/native) against the Python path, its reference: the same
boards in the same order from `results()`, the same games for the same seed from the compiled
playouts and from the Python turn loop with the compiled generator in place; and what stays
without numba: short commands import none of it.

The default suite checks backgammon (its compiled code is loaded from the user's cache, or
compiled once, some 20 s); the slow set checks every shipped variant the compiled path claims.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

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
    ref, comp = py.generator.results, fast.generator.results
    pos = _sample_positions(py, positions, 3)
    for b, d1, d2 in pos:
        assert comp(b, d1, d2) == ref(b, d1, d2), (vid, b, d1, d2)
    for b, _d1, _d2 in pos[:dice_all]:
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                assert comp(b, d1, d2) == ref(b, d1, d2), (vid, b, d1, d2)


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
    src, _fns = _source_of(v)
    for word in ("borne", "gammon", "Backgammon", "mine(", "theirs("):
        assert word not in src


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
    for g in games:
        if g is v:
            _same_results(vid, 1500, 150)
        else:
            py, fast = load_variant(g.id), load_variant(g.id)
            if native.accelerate(fast, quiet=True):
                for b, d1, d2 in _sample_positions(py, 800, 5):
                    assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)


@pytest.mark.slow
@pytest.mark.parametrize("vid", [v for v in _claimed() if not load_variant(v).games])
def test_every_claimed_variant_same_games(vid: str) -> None:
    _same_games(vid, 120, 23)
