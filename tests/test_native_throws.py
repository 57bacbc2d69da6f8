"""The compiled throws of the trictrac family (interpreter/native/throws_emit.py, rt_corner.py)
against the Python path, the reference: the same plays of every throw, the same points to expect
from the next throw (what the searching bots value a position by), the same games of `search:1`
for the same seed; and the variants or house rules the compiled code does not cover are left to
the Python path.

Each variant file (and each set of options) is a module of its own, compiled once and then
loaded from numba's cache: the default suite compiles triktrak's; the others are `slow`.
"""
from __future__ import annotations

import functools
import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from interpreter.native.throws_emit import NativeThrows, emit_throws  # noqa: E402
from interpreter.players.heuristic import DICE, FIRST_PASS, HeuristicJudge  # noqa: E402
from interpreter.runner import play_game  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402

FAMILY = ("triktrak", "trictrac", "trictrac-ecrire", "trictrac-combine")
#: house rules the compiled code plays (each a module of its own)
COVERED_SETS = (
    ('sum_rest_closed_by="one_or_more"', 'two_missing_fill_ways="per_combination"'),
    ('opening_jans="game_start_only"', 'pile_de_misere="on"', 'schools="on"'),
    ('opponent_jan_fillable="no_intruder"',),
)


@functools.cache
def compiled(vid: str, sets: tuple[str, ...] = ()) -> tuple[Any, NativeThrows]:
    v = load_variant(vid, sets)
    made = emit_throws(v)
    assert made is not None, f"{vid} {sets}: not covered"
    return v, NativeThrows(v, made[0])


def reached(v: Any, n: int, seed: int) -> list[tuple[tuple, int, int, int]]:
    """(board of the mover, throw number, set-up) reached by random play, n of them."""
    rng = random.Random(seed)
    gen = v.generator
    out: list[tuple[tuple, int, int, int]] = []
    while len(out) < n:
        b, rolls = v.start, 0
        for _ in range(400):
            rolls += 1
            out.append((b, rolls // 2 + 1, 1 + (rolls > 30)))
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            after = rng.choice(gen.plays(b, d1, d2, rolls)[0]).board
            if after[0] == v.move_rules.checkers:
                break
            b = v.flip(after)
    return out[:n]


def same_plays(v: Any, nt: NativeThrows, b: tuple, d1: int, d2: int, rolls: int) -> None:
    plays, unplayed = v.generator.plays(b, d1, d2, rolls)
    want = sorted((p.board, sorted(tuple(tuple(s) for s in path) for path in p.paths))
                  for p in plays)
    got_plays, got_unplayed = nt.plays(b, d1, d2, rolls)
    got = sorted((bd, sorted(paths)) for bd, paths in got_plays)
    assert (got, got_unplayed) == (want, unplayed), (b, d1, d2)
    # every end board once
    assert len({bd for bd, _p in got_plays}) == len(got_plays)


def same_points(v: Any, nt: NativeThrows, positions: list) -> int:
    """The heuristic's points of the next throw, Python against compiled; how many checked."""
    judge = HeuristicJudge(v)
    n = 0
    for b, rolls, setup in positions:
        for dice in (DICE, FIRST_PASS):
            want = judge.throw_points(b, rolls, setup, dice)
            got = nt.mean_points(b, rolls, setup, dice)
            assert got == want, (b, rolls, setup, len(dice))
            n += 1
    return n


def test_triktrak_plays_of_every_throw_agree() -> None:
    v, nt = compiled("triktrak")
    for b, rolls, _setup in reached(v, 400, 1):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                same_plays(v, nt, b, d1, d2, rolls)


def test_triktrak_points_of_the_next_throw_agree() -> None:
    v, nt = compiled("triktrak")
    assert same_points(v, nt, reached(v, 300, 2)) == 600


def boards(draw: Any) -> tuple:
    """A trictrac board seen by the mover: his fifteen on pips 1..24 or off, the opponent's
    fifteen on the pips the mover leaves empty or off (his corner at times left empty)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    L = [0] * 28
    home = rng.random() < 0.4          # all home: the bearing off
    top = 6 if home else 24
    for _ in range(15):
        if home and rng.random() < 0.2:
            L[0] += 1
        else:
            L[rng.randint(1, top)] += 1
    for _ in range(15):
        free = [p for p in range(1, 25) if L[p] <= 0]
        if rng.random() < 0.1 or not free:
            L[27] += 1
        else:
            L[rng.choice(free)] -= 1
    if L[0] == 15:
        L[0], L[1] = 14, 1
    return tuple(L)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.composite(boards)(), st.integers(1, 6), st.integers(1, 6), st.integers(1, 12))
def test_generated_boards_plays_and_points_agree(b: tuple, d1: int, d2: int, rolls: int
                                                 ) -> None:
    v, nt = compiled("triktrak")
    same_plays(v, nt, b, d1, d2, rolls)
    judge = HeuristicJudge(v)
    assert nt.mean_points(b, rolls, 1, DICE) == judge.throw_points(b, rolls, 1, DICE)


def test_search_plays_the_same_game_with_the_compiled_throws(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """search:1 against itself, 80 turns of a triktrak partie: the same record either way."""
    from interpreter.native import accelerate_throws

    fast, _nt = compiled("triktrak")
    # compiled here, not left to whatever an earlier test put in the cache
    assert accelerate_throws(fast, quiet=True)
    fast_rec = play_game(fast, 5, 0, "search:1", "search:1", max_turns=80)
    assert fast.__dict__.get("native_throws") is not None
    monkeypatch.setenv("TABLIER_NATIVE", "0")
    slow = load_variant("triktrak")
    slow_rec = play_game(slow, 5, 0, "search:1", "search:1", max_turns=80)
    assert slow.__dict__.get("native_throws") is None
    assert fast_rec.record == slow_rec.record
    assert fast_rec.points == slow_rec.points


@pytest.mark.parametrize("sets", [("sortie_obligation=\"optional\"",),
                                  ('movement.coin_swap="forbid"',)])
def test_house_rules_not_covered_stay_on_the_python_path(sets: tuple[str, ...]) -> None:
    """A score on the play chosen, a swap of the corner forbidden: no compiled throws."""
    assert emit_throws(load_variant("triktrak", sets)) is None


@pytest.mark.parametrize("vid", ["backgammon", "tric-trac-12", "plakoto", "gul-bara"])
def test_other_games_have_no_compiled_throws(vid: str) -> None:
    assert emit_throws(load_variant(vid)) is None


@pytest.mark.slow
@pytest.mark.parametrize("vid", FAMILY[1:])
def test_family_plays_and_points_agree(vid: str) -> None:
    v, nt = compiled(vid)
    for b, rolls, _setup in reached(v, 150, 3):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                same_plays(v, nt, b, d1, d2, rolls)
    assert same_points(v, nt, reached(v, 200, 4)) == 400


@pytest.mark.slow
@pytest.mark.parametrize("sets", COVERED_SETS)
def test_house_rules_plays_and_points_agree(sets: tuple[str, ...]) -> None:
    v, nt = compiled("triktrak", sets)
    for b, rolls, _setup in reached(v, 100, 5):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                same_plays(v, nt, b, d1, d2, rolls)
    assert same_points(v, nt, reached(v, 200, 6)) == 400


def test_the_plays_are_made_only_where_a_rule_must_see_them() -> None:
    """The rules that read a throw's plays (filling and keeping the jans, the sortie, the
    numbers that cannot be played) first answer from the position where they can: a jan
    more than two checkers short is not filled by any play, one not full is not kept. Where
    one of them must see the plays, the probe says so (`NEED`) and the plays are made. Both
    kinds of throw occur in random play, and where the probe answers, its points are those
    of the Python path for that throw."""
    import numpy as np

    from interpreter.native.rules_emit import load_module
    from interpreter.native.throws_emit import NEED

    v, nt = compiled("triktrak")
    made = emit_throws(v)
    assert made is not None
    probe = load_module(made[0]).throw_probe
    judge = HeuristicJudge(load_variant("triktrak"))       # the Python path's
    answered = needed = 0
    for b, rolls, setup in reached(v, 120, 5):
        board = np.array(b, np.int64)
        for d1, d2, _w in DICE:
            _plays, unplayed = nt.plays(b, d1, d2, rolls)
            got = probe(board, d1, d2, rolls, setup, unplayed, nt.pb, nt.ps, nt.pp, nt.pn)
            if got == NEED:
                needed += 1
            else:
                answered += 1
                judge._memo.clear()         # its memo keeps a throw's points by their number
                assert got == judge.throw_points(b, rolls, setup, ((d1, d2, 1),)), (b, d1, d2)
    assert answered > 10 * needed > 0


def test_a_rule_reading_the_plays_otherwise_has_no_probe() -> None:
    """A probe stands in for a rule only where each of its reads of the plays is a loop over
    them; a rule that reads them otherwise (here their number) has none, and then every
    throw's plays are made."""
    from interpreter.native.throws_emit import NEED, _probe

    looped = ("\n@njit(cache=True)\ndef rule_3(b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn):"
              "\n    _t1 = 0\n    if b[5] > 1:\n        for _v2 in range(pb.shape[0]):\n"
              "            _t1 += pb[_v2, 5]\n        _t1 += 1\n    return _t1\n\n\n")
    probe = _probe(looped, "rule_3", 2)
    assert probe is not None
    text = "\n".join(probe)
    assert f"return {NEED}" in text and "pb" not in text and "_t1 += 1" not in text
    counted = looped.replace("for _v2 in range(pb.shape[0]):\n            _t1 += pb[_v2, 5]",
                             "_t1 += pb.shape[0]")
    assert _probe(counted, "rule_3", 2) is None


def test_a_loop_no_play_of_the_throw_can_satisfy_is_left_out() -> None:
    """A loop over the plays that only looks at those leaving at least (or exactly) given
    numbers of the mover's checkers on given points is left out where the position is further
    from them than a play moves checkers (two): no play satisfies it, and the rule is read
    without the plays; nearer, the plays are made."""
    from interpreter.native.throws_emit import NEED, _probe

    src = ("\n@njit(cache=True)\ndef rule_3(b, d1, d2, rolls, setup, unplayed, pb, ps, pp, pn):"
           "\n    _t1 = 0\n    for _v2 in range(pb.shape[0]):\n"
           "        if pb[_v2, 5] >= 2 and pb[_v2, 6] == 2:\n            _t1 += 1\n"
           "    return _t1\n\n\n")
    probe = _probe(src, "rule_3", 2)
    assert probe is not None and probe[0] == "@njit(cache=True)"
    space: dict = {}
    exec("\n".join(probe[1:]), space)          # noqa: S102 - the probe's own text
    rule = space["rule_3_probe"]
    b = [0] * 28
    b[6] = -2                                   # the opponent's point: four checkers short
    assert rule(b, 1, 2, 1, 1, 0) == 0
    b[5], b[6] = 1, 1                           # two short: a play might leave both
    assert rule(b, 1, 2, 1, 1, 0) == NEED
    other = src.replace("if pb[_v2, 5] >= 2 and pb[_v2, 6] == 2:",
                        "if pb[_v2, 5] >= 2 or pb[_v2, 6] == 2:")
    space = {}
    exec("\n".join(_probe(other, "rule_3", 2)[1:]), space)  # noqa: S102
    b[5], b[6] = 0, -2                          # not a conjunction: always the plays
    assert space["rule_3_probe"](b, 1, 2, 1, 1, 0) == NEED
