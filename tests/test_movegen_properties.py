"""Properties of legal-play generation on positions reached by random play."""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.kernel.board import Board, counts, flip, from_start
from interpreter.kernel.movegen import MoveGenerator
from interpreter.kernel.rules import MoveRules

BG = MoveRules(checkers=15)
TRICTRAC = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13,
                     opp_corner=12, puissance_needs="both_coins_empty", bear_off="all_home",
                     home_top=6, excedant_filter="fewest", coin_swap="forbid")
TRIC_TRAC_12 = MoveRules(doublet_moves=2, block=2, hit="start", enter="start", start_pip=24,
                         bear_off="anywhere", off_pip=1, over_exit="any", higher_number=False,
                         own_corner=13, opp_corner=12, puissance_needs="both_coins_empty")
STARTS = {BG: {24: 2, 13: 5, 8: 3, 6: 5}, TRICTRAC: {24: 15}, TRIC_TRAC_12: {24: 15}}
RULESETS = list(STARTS)
# other switch settings of the backgammon family, served by the generated results()
FAST_VARIANTS = [
    BG,
    replace(BG, doublet_moves=2),
    replace(BG, bear_off="anywhere", over_exit="any"),
    replace(BG, off_pip=1, bear_off="anywhere", higher_number=False),
    replace(BG, block=3, home_top=5),
]

_GENS: dict[tuple, MoveGenerator] = {}


def gen_for(rules: MoveRules, generic: bool = False) -> MoveGenerator:
    key = (rules, generic)
    if key not in _GENS:
        # a hook that forbids nothing makes the generator take its generic path
        _GENS[key] = MoveGenerator(rules, (lambda before, board, path: False,) if generic else ())
    return _GENS[key]


def reached(rules: MoveRules, seed: int, turns: int) -> Board:
    """The position after `turns` random plays from the start (a new game after each end)."""
    gen = gen_for(rules)
    rng = random.Random(seed)
    start = from_start(STARTS[rules])
    b = start
    for _ in range(turns):
        b = rng.choice(gen.results(b, rng.randint(1, 6), rng.randint(1, 6)))
        b = start if b[0] == rules.checkers else flip(b)
    return b


positions = st.tuples(st.sampled_from(RULESETS), st.integers(0, 2**32 - 1), st.integers(0, 150))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=scaled(500), deadline=None)
@given(positions, dice)
def test_plays_and_results_agree(where: tuple, roll: tuple) -> None:
    rules, seed, turns = where
    b = reached(rules, seed, turns)
    d1, d2 = roll
    gen = gen_for(rules)
    results = gen.results(b, d1, d2)
    plays, unplayed = gen.plays(b, d1, d2)
    assert len(set(results)) == len(results)
    assert set(results) == {p.board for p in plays}
    assert len(plays) == len({p.board for p in plays})
    total = rules.doublet_moves if d1 == d2 else 2
    assert 0 <= unplayed <= total
    before = counts(b)
    for p in plays:
        # checkers are conserved
        assert counts(p.board) == before
        assert p.paths
        for path in p.paths:
            # every path, applied step by step, gives its board
            assert gen.apply(b, path) == p.board
            assert len(path) <= total
            if not path:
                assert p.board == b and len(plays) == 1 and unplayed == total
            elif d1 == d2:
                assert all(st.die == d1 for st in path)
            else:
                assert sorted(st.die for st in path) in ([min(d1, d2), max(d1, d2)], [d1], [d2])
            # unless the last checker went off, a play uses every number it can
            if p.board[0] != rules.checkers and p.paths != ((),):
                assert len(path) == total - unplayed
            # end-of-play checks of the corners
            if rules.own_corner is not None:
                assert p.board[rules.own_corner] != 1
            if path and rules.opp_corner is not None:
                assert path[-1].dst != rules.opp_corner
                assert all(path[i + 1].src == st.dst for i, st in enumerate(path)
                           if st.dst == rules.opp_corner and not st.flags)


@settings(max_examples=scaled(400), deadline=None)
@given(st.sampled_from(FAST_VARIANTS), st.integers(0, 2**32 - 1), st.integers(0, 150), dice)
def test_generated_results_equal_the_generic_walk(rules: MoveRules, seed: int, turns: int,
                                                  roll: tuple) -> None:
    b = reached(rules, seed, turns) if rules in STARTS else _reached_with(rules, seed, turns)
    fast = gen_for(rules)
    assert fast._fast is not None
    generic = gen_for(rules, generic=True)
    assert sorted(fast.results(b, *roll)) == sorted(generic.results(b, *roll))


def _reached_with(rules: MoveRules, seed: int, turns: int) -> Board:
    gen = gen_for(rules)
    rng = random.Random(seed)
    start = from_start(STARTS[BG])
    b = start
    for _ in range(turns):
        b = rng.choice(gen.results(b, rng.randint(1, 6), rng.randint(1, 6)))
        b = start if b[0] == rules.checkers else flip(b)
    return b


@settings(max_examples=scaled(300), deadline=None)
@given(st.integers(0, 2**32 - 1), dice)
def test_bearing_off_positions(seed: int, roll: tuple) -> None:
    """Positions near the end of a race, where bearing off, the farthest-checker rule and the
    last checker meet, for the generated and the generic backgammon generators."""
    rng = random.Random(seed)
    b = [0] * 28
    for side in (1, -1):
        left = 15
        for p in rng.sample(range(1, 7), rng.randint(1, 6)):
            n = rng.randint(0, min(left, 4))
            b[p if side == 1 else 25 - p] += side * n
            left -= n
        b[0 if side == 1 else 27] = left
    board = tuple(b)
    fast, generic = gen_for(BG), gen_for(BG, generic=True)
    assert sorted(fast.results(board, *roll)) == sorted(generic.results(board, *roll))
