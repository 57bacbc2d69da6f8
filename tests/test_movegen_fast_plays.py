"""The generated `plays()` (interpreter.kernel._fastplays) against the generic walk, and the rule
compiler's faster forms of the same snippets (batch hooks, aggregates written out, a roll's
scoring rules in one function) against the plain ones."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.dsl import RollContext, RuleSet, source_of
from interpreter.dsl import compiler as dslc
from interpreter.dsl.compiler import BOOL, FORBID, INT, ROLL, Compiler, Symbols
from interpreter.kernel import _fastplays
from interpreter.kernel.board import Board, flip, from_start
from interpreter.kernel.movegen import MoveGenerator, Play, Step
from interpreter.kernel.rules import MoveRules
from interpreter.variant.build import load_variant

BG = MoveRules(checkers=15)
TRICTRAC = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13,
                     opp_corner=12, puissance_needs="both_coins_empty", bear_off="all_home",
                     home_top=6, excedant_filter="fewest")
TRIC_TRAC_12 = MoveRules(doublet_moves=2, block=2, hit="start", enter="start", start_pip=24,
                         bear_off="anywhere", off_pip=1, over_exit="any", higher_number=False,
                         own_corner=13, opp_corner=12, opp_corner_rest=False,
                         puissance_needs="both_coins_empty")
# switch sets of the trictrac family and of the 12-point game, with their alternatives
TRICTRAC_LIKE = [
    TRICTRAC,
    replace(TRICTRAC, coin_swap="forbid"),
    replace(TRICTRAC, retour_conserve_exit="farthest_surplus_point"),
    replace(TRICTRAC, excedant_filter="zero_if_possible", exact_exit="compulsory"),
    replace(TRICTRAC, puissance_needs="own_coin_empty", over_exit="any"),
    replace(TRICTRAC, no_landing=(20,), opp_corner_rest=False),
]
TWELVE_LIKE = [
    TRIC_TRAC_12,
    replace(TRIC_TRAC_12, opp_corner_rest=True),
    replace(TRIC_TRAC_12, bear_off="all_home", over_exit="farthest", higher_number=True),
    replace(TRIC_TRAC_12, enter_first=False, hit="none"),
    replace(TRIC_TRAC_12, own_corner=None, opp_corner=None, puissance_needs="off", block=3),
]
OTHERS = [
    BG,
    replace(BG, enter_first=False),
    replace(BG, doublet_moves=3, exact_exit="compulsory", excedant_filter="fewest"),
    replace(BG, doublet_moves=1, hit="start", block=1),
    replace(BG, own_corner=13, opp_corner=12, no_landing=(7,)),
]
RULESETS = TRICTRAC_LIKE + TWELVE_LIKE + OTHERS
STARTS = {"bar": {24: 2, 13: 5, 8: 3, 6: 5}, "none": {24: 15}, "start": {24: 15}}

TRIKTRAK = load_variant("triktrak")
FORBIDDEN_JANS = TRIKTRAK.rules.forbid[0][1]     # a compiled hook, with its batch form


def no_high_landing(before: Board, after: Board, path: tuple) -> bool:
    """A plain Python hook (no batch form): no checker of a path may end on pips 14..16 while the
    opponent has a checker on pip 3."""
    return before[3] < 0 and any(s.dst in (14, 15, 16) for s in path)


HOOKS = {"none": (), "compiled": (FORBIDDEN_JANS,), "python": (no_high_landing,),
         "both": (FORBIDDEN_JANS, no_high_landing)}

_GENS: dict[tuple, MoveGenerator] = {}


def gen_for(rules: MoveRules, hooks: str) -> MoveGenerator:
    key = (rules, hooks)
    if key not in _GENS:
        _GENS[key] = MoveGenerator(rules, HOOKS[hooks])
    return _GENS[key]


def reached(rules: MoveRules, seed: int, turns: int) -> Board:
    """The position after `turns` random plays from the start (a new game after each end)."""
    gen = gen_for(rules, "none")
    rng = random.Random(seed)
    start = from_start(STARTS[rules.enter])
    b = start
    for _ in range(turns):
        b = rng.choice(gen.results(b, rng.randint(1, 6), rng.randint(1, 6)))
        b = start if b[0] == rules.checkers else flip(b)
    return b


def constructed(rules: MoveRules, seed: int) -> Board:
    """A position with the mover's checkers near home (bearing off, surplus pips, corners,
    checkers on the bar or the start) and the opponent's anywhere."""
    rng = random.Random(seed)
    b = [0] * 28
    left = 15
    for _ in range(rng.randint(0, 15)):
        b[rng.randint(1, rules.home_top)] += 1
        left -= 1
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        if left:
            b[rng.choice((rules.home_top + 1, 12, 13, 13, 20, 24))] += 1
            left -= 1
    if left and rng.random() < 0.2:
        b[25 if rules.enter == "bar" else 24] += 1
        left -= 1
    b[0] = left
    theirs = 15
    for _ in range(15):
        p = rng.randint(1, 24)
        if b[p] <= 0 and rng.random() < 0.8:
            b[p] -= 1
            theirs -= 1
    b[27] = theirs
    return tuple(b)


def assert_same(gen: MoveGenerator, b: Board, d1: int, d2: int) -> None:
    fast = gen.plays(b, d1, d2)
    walk = gen._walk_plays(b, d1, d2)
    plays, unplayed = fast
    # same plays in the same order, the same paths, the same unplayed numbers
    assert [p.board for p in plays] == [p.board for p in walk[0]]
    assert [set(p.paths) for p in plays] == [set(p.paths) for p in walk[0]]
    assert unplayed == walk[1]
    # ... and nothing else differs: the order of the paths, their types
    assert fast == walk
    for p in plays:
        assert type(p) is Play
        for path in p.paths:
            assert all(type(s) is Step for s in path)
            assert gen.apply(b, path) == p.board


@settings(max_examples=scaled(400), deadline=None)
@given(st.sampled_from(RULESETS), st.sampled_from(sorted(HOOKS)), st.integers(0, 2**32 - 1),
       st.integers(0, 120), st.booleans(), st.integers(1, 6), st.integers(1, 6))
def test_generated_plays_equal_the_generic_walk(rules: MoveRules, hooks: str, seed: int,
                                                turns: int, built: bool, d1: int, d2: int) -> None:
    gen = gen_for(rules, hooks)
    assert gen.plays is gen._fast_plays
    b = constructed(rules, seed) if built else reached(rules, seed, turns)
    assert_same(gen, b, d1, d2)


@pytest.mark.parametrize("rules", RULESETS)
def test_every_roll_of_some_positions(rules: MoveRules) -> None:
    gen = gen_for(rules, "compiled")
    for seed in range(6):
        for b in (reached(rules, seed, 10 * seed), constructed(rules, seed)):
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    assert_same(gen, b, d1, d2)


def test_a_roll_with_a_number_that_cannot_be_played_goes_to_the_walk() -> None:
    # trictrac: the 6 is blocked everywhere, the 1 plays; the walk answers for the one number
    b = [0] * 28
    b[24] = 15
    for p in (18, 17):
        b[p] = -1
    b[1] = -13
    gen = gen_for(TRICTRAC, "compiled")
    plays, unplayed = gen.plays(tuple(b), 6, 1)
    assert unplayed == 1
    assert (plays, unplayed) == gen._walk_plays(tuple(b), 6, 1)


def test_the_generated_source_is_cached_and_checked() -> None:
    assert _fastplays.compiled_plays(TRICTRAC) is _fastplays.compiled_plays(TRICTRAC)
    assert _fastplays.fast_plays_applies(TRICTRAC)
    assert not _fastplays.fast_plays_applies(replace(TRICTRAC, max_dice=False))
    with pytest.raises(ValueError):
        _fastplays.plays_source(replace(TRICTRAC, block="1"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _fastplays.plays_source(replace(TRICTRAC, over_exit="os.system"))  # type: ignore[arg-type]
    # without maximal dice the generic walk answers
    gen = MoveGenerator(replace(TRICTRAC, max_dice=False))
    assert gen._fast_plays is None


def test_the_variants_use_the_generated_plays() -> None:
    for vid in ("triktrak", "tric-trac-12", "trictrac-ecrire", "backgammon"):
        gen = load_variant(vid).generator
        assert gen.plays is gen._fast_plays


# -- the rule compiler's faster forms --------------------------------------------------------

def _compiler(unroll: bool = True) -> Compiler:
    return Compiler(Symbols(regions={"home": frozenset(range(1, 7)), "far": frozenset({18, 20}),
                                     "mid": frozenset(range(7, 13))},
                            options={}, option_choices={}), unroll=unroll)


def _hook(text: str, context: str, want=(INT, BOOL), unroll: bool = True):
    c = _compiler(unroll)
    return c.function(c.compile_expr(text, context, want, ("t",)), "t")


AGGREGATES = [
    "sum(p in home: theirs(p)) + count(q in mid where mine(q) > 1)",
    "all(q in 7..12: sum(p in 1..q: theirs(p)) >= 2 * (q - 6))",
    "any(p in far: mine(p) == 1) or all(p in home where mine(p) > 0: mine(p) >= 2)",
    "count(p in 1..24 where empty(p)) + sum(p in {0, 25}: mine(p) + theirs(p))",
    "sum(h in home where theirs(h) == 1: count(d in numbers where mine(h + d) > 0))",
    "any(p in home: p == high) and not any(p in {}: true)",
]


@settings(max_examples=scaled(150), deadline=None)
@given(st.sampled_from(RULESETS[:3]), st.integers(0, 2**32 - 1), st.integers(0, 80),
       st.integers(1, 6), st.integers(1, 6))
def test_aggregates_written_out_give_what_loops_give(rules, seed, turns, d1, d2) -> None:
    b = reached(rules, seed, turns)
    for text in AGGREGATES:
        written, loops = _hook(text, ROLL), _hook(text, ROLL, unroll=False)
        assert written(b, None, None, d1, d2, 1, None) == loops(b, None, None, d1, d2, 1, None)


def test_aggregates_over_fixed_pips_are_written_out() -> None:
    written = _hook(AGGREGATES[1], ROLL)
    assert "for _v" not in source_of(written) and "b[12]" in source_of(written)
    assert "for _v" in source_of(_hook(AGGREGATES[1], ROLL, unroll=False))
    # errors and limits are those of the loops
    with pytest.raises(dslc.SnippetError) as info:
        _hook("sum(p in home: mine(home))", ROLL)
    assert info.value.code == "dsl-type"


def test_a_forbid_hook_filters_a_roll_in_one_call() -> None:
    gen = MoveGenerator(TRICTRAC)
    hook = FORBIDDEN_JANS
    assert hasattr(hook, "filter_paths")
    rng = random.Random(5)
    for seed in range(40):
        b = reached(TRICTRAC, seed, rng.randint(0, 60))
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        cands = [(path, p.board) for p in gen._walk_plays(b, d1, d2)[0] for path in p.paths]
        cands += [(path[:1], p.board) for p in gen._walk_plays(b, d1, d2)[0] for path in p.paths
                  if path]
        expected = [c for c in cands if not hook(b, c[1], c[0])]
        assert hook.filter_paths(b, cands) == expected


def test_a_prefer_hook_answers_for_all_plays_at_once() -> None:
    rng = random.Random(3)
    gen = TRIKTRAK.generator
    for _id, _mode, fn in TRIKTRAK.rules.prefer:
        assert hasattr(fn, "each")
        for seed in range(30):
            b = reached(TRICTRAC, seed, rng.randint(0, 80))
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = gen.plays(b, d1, d2)[0]
            assert fn.each(b, plays, d1, d2, 1, None) == [fn(b, p[0], p, d1, d2, 1, None)
                                                          for p in plays]


def test_forbid_parts_of_the_position_are_computed_once_in_a_batch() -> None:
    fn = _hook("all(q in 7..12: sum(p in 1..q: theirs(p)) >= 2 * (q - 6)) and "
               "any(p in landings(path): p in mid) and after.mine(6) > 0", FORBID, BOOL)
    assert "for c in cands" in source_of(fn)
    b = from_start({24: 15})
    path = (Step(24, 10, 6, 0, 0), Step(10, 6, 4, 0, 0))
    after = list(b)
    after[24] -= 1
    after[6] += 1
    cands = [(path, tuple(after)), (path[:1], b)]
    assert fn.filter_paths(b, cands) == [c for c in cands if not fn(b, c[1], c[0])]


def _loop_items(rules: RuleSet, b, d1, d2, rolls, ctx) -> list:
    out = []
    for r in rules.score_roll:
        ways = int(r.fn(b, None, None, d1, d2, rolls, ctx))
        if ways:
            out.append((r.id, r.to, ways * (r.doublet if d1 == d2 else r.simple), ways))
    return out


@pytest.mark.parametrize("vid", ["triktrak", "tric-trac-12", "trictrac-ecrire"])
def test_the_roll_scoring_rules_in_one_function(vid: str) -> None:
    v = load_variant(vid)
    rules, gen = v.rules, v.generator
    rng = random.Random(11)
    start = v.start
    b = start
    for turn in range(300):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        ctx = RollContext(lambda b=b, d1=d1, d2=d2: gen.plays(b, d1, d2))
        items = rules.roll_items(b, d1, d2, turn % 5 + 1, ctx)
        assert rules._roll_fn is not None or not rules.score_roll
        assert items == _loop_items(rules, b, d1, d2, turn % 5 + 1, ctx)
        b = rng.choice(gen.results(b, d1, d2))
        b = start if b[0] == v.checkers else flip(b)


def test_a_rule_set_changed_after_use_is_written_out_again() -> None:
    v = load_variant("triktrak")
    rules = v.rules
    b = reached(TRICTRAC, 4, 30)
    ctx = RollContext(lambda: v.generator.plays(b, 6, 5))
    first = rules.roll_items(b, 6, 5, 1, ctx)
    assert first == _loop_items(rules, b, 6, 5, 1, ctx)
    kept = rules.score_roll[:]
    try:
        rules.score_roll[:] = kept[::-1]
        assert rules.roll_items(b, 6, 5, 1, ctx) == _loop_items(rules, b, 6, 5, 1, ctx)
        # a hook that is not a compiled snippet: the plain loop
        rules.score_roll.append(replace(kept[0], id="always", fn=lambda *a: 1))
        items = rules.roll_items(b, 6, 5, 1, ctx)
        assert rules._roll_fn is None and items[-1] == ("always", "mover", 4, 1)
        assert items == _loop_items(rules, b, 6, 5, 1, ctx)
    finally:
        rules.score_roll[:] = kept
    assert rules.roll_items(b, 6, 5, 1, ctx) == first
