"""The numba back end of the rule compiler (interpreter/native/rules_emit.py) against the Python
one, the reference: every compiled rule of every shipped variant gives what its Python hook
gives, on positions reached by random play and on generated boards; the generated module holds
no text of the file; a second process loads the machine code from the disk cache.

The modules compile once (numba keeps them under ~/.cache/tablier/native), so after a first run
the default suite pays only the loading.
"""
from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from interpreter.dsl import RollContext  # noqa: E402
from interpreter.engine.game import _EndContext  # noqa: E402
from interpreter.kernel.movegen import MoveGenerator, Step  # noqa: E402
from interpreter.native.rules_emit import (UnsafeSource, check_source, emit_rules,  # noqa: E402
                                           load_native_rules, pack_path, pack_plays)
from interpreter.native import python_only
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.variant.loader import builtin_ids  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = builtin_ids()
#: what every shipped variant with rules must have compiled (none left to the Python path but
#: the rotations and the variants whose structures only the Python path plays, which say so:
#: `native.python_only`)
COVERED = [v for v in VARIANTS if v not in ("tabla-match", "tavli")
           and not python_only(load_variant(v))]


@functools.cache
def native(vid: str) -> tuple[Any, Any, dict]:
    v = load_variant(vid)
    nr = emit_rules(v)
    return v, nr, (load_native_rules(nr) if nr is not None else {})


def positions(v: Any, n: int, seed: int) -> list[tuple]:
    """(board, d1, d2, rolls, setup) of the mover, reached by random play from the start."""
    rng = random.Random(seed)
    gen = v.generator
    out: list[tuple] = []
    b, rolls, side, setup = v.start, [0, 0], 0, 1
    while len(out) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        rolls[side] += 1
        out.append((b, d1, d2, rolls[side], setup))
        plays, _unplayed = gen.plays(b, d1, d2, rolls[side])
        if v.rules.prefer:
            plays = v.rules.prefer_plays(b, plays, d1, d2, rolls[side], None)
        a = rng.choice(plays).board
        if a[0] == v.checkers or v.rules.game_over(a) is not None or rng.random() < 0.01:
            b, rolls, side = v.start, [0, 0], 0
            setup = setup + 1 if rng.random() < 0.5 else 1
            continue
        b = v.flip(a)
        side = 1 - side
    return out


def arr(b: tuple) -> Any:
    return np.array(b, np.int64)


# -- the checks, one per kind of rule --------------------------------------------------------------

def check_roll(v: Any, fns: dict, b: tuple, d1: int, d2: int, rolls: int, setup: int) -> int:
    """The roll's scoring rules, one by one and gathered; how many gave something."""
    rules = v.rules
    if not rules.score_roll:
        return 0
    ctx = RollContext(lambda: v.generator.plays(b, d1, d2, rolls), setup=setup)
    packed = pack_plays(ctx.plays, len(b))
    args = (arr(b), d1, d2, rolls, setup, ctx.unplayed, *packed)
    ways = fns["_roll"](*args)
    scored = 0
    for k, r in enumerate(rules.score_roll):
        want = int(r.fn(b, None, None, d1, d2, rolls, ctx))
        got = fns[r.id](*args)
        assert int(got) == want == ways[k], (v.id, r.id, b, d1, d2, rolls, setup)
        scored += bool(want)
    items = [(r.id, r.to, int(w) * (r.doublet if d1 == d2 else r.simple), int(w))
             for r, w in zip(rules.score_roll, ways) if w]
    assert items == rules.roll_items(b, d1, d2, rolls, ctx)
    return scored


def check_stages(v: Any, fns: dict, b: tuple, d1: int, d2: int, rolls: int, setup: int) -> int:
    """The stage rules of the turn (`[turn.stages]`); how many held."""
    held = 0
    if not v.rules.stages:
        return 0
    ctx = RollContext(lambda: v.generator.plays(b, d1, d2, rolls), setup=setup)
    args = (arr(b), d1, d2, rolls, setup, ctx.unplayed, *pack_plays(ctx.plays, len(b)))
    for stage_id, when, after, to_opponent, again in v.rules.stages:
        got = fns[f"stage/{stage_id}"](*args)
        holds = bool(when(b, None, None, d1, d2, rolls, ctx))
        want: tuple = (False, 0, -1, -1)
        if holds:
            want = (True, int(after(b, None, None, d1, d2, rolls, ctx)),
                    *(-1 if h is None else int(bool(h(b, None, None, d1, d2, rolls, ctx)))
                      for h in (to_opponent, again)))
        assert tuple(got) == want, (v.id, stage_id, b, d1, d2, rolls)
        held += holds
    return held


def check_forbid(v: Any, fns: dict, b: tuple, d1: int, d2: int, rolls: int,
                 per_position: int, rng: random.Random) -> int:
    """The forbid rules (on the play and on each move) on paths no rule has filtered; how many
    were forbidden."""
    rules = v.rules
    if not rules.forbid and not rules.forbid_move:
        return 0
    free = MoveGenerator(v.move_rules)
    total = v.move_rules.doublet_moves if d1 == d2 else 2
    cands = [c for row in free._explore(b, d1, d2, total, rolls) for c in row]
    if len(cands) > per_position:
        cands = rng.sample(cands, per_position)
    forbidden = 0
    if rules.forbid and cands:
        ends = np.array([c[1] for c in cands], np.int64)
        steps = max(1, max(len(c[0]) for c in cands))
        pp = np.zeros((len(cands), steps, 5), np.int64)
        pn = np.array([len(c[0]) for c in cands], np.int64)
        for k, (path, _a) in enumerate(cands):
            for j, s in enumerate(path):
                pp[k, j] = s
        for rule_id, fn in rules.forbid:
            many = fns[f"{rule_id}/many"](arr(b), ends, pp, pn, d1, d2, rolls)
            for k, (path, a) in enumerate(cands):
                x = tuple(map(Step._make, path))
                want = bool(fn(b, a, x, d1, d2, rolls))
                got = fns[rule_id](arr(b), arr(a), pack_path(x), len(x), d1, d2, rolls)
                assert got == want == many[k], (v.id, rule_id, b, a, x, d1, d2, rolls)
                forbidden += want
    for rule_id, fn in rules.forbid_move:
        for path, _a in cands:
            x = tuple(map(Step._make, path))
            before = b
            for k in range(1, len(x) + 1):
                after = free.apply(b, x[:k])
                want = bool(fn(before, after, x[:k], d1, d2, rolls))
                got = fns[rule_id](arr(before), arr(after), pack_path(x[:k]), k, d1, d2, rolls)
                assert got == want, (v.id, rule_id, before, after, x[:k], d1, d2, rolls)
                forbidden += want
                before = after
    return forbidden


def check_choice(v: Any, fns: dict, b: tuple, d1: int, d2: int, rolls: int, setup: int) -> int:
    """The prefer rules and the scores on the play, on each legal play and in batch."""
    rules = v.rules
    hooks = [(r.id, r.fn) for r in rules.score_play] + [(i, f) for i, _m, f in rules.prefer]
    if not hooks:
        return 0
    ctx = RollContext(lambda: v.generator.plays(b, d1, d2, rolls), setup=setup)
    plays = ctx.plays
    packed = pack_plays(plays, len(b))
    held = 0
    for rule_id, fn in hooks:
        many = fns[f"{rule_id}/many"](arr(b), d1, d2, rolls, *packed)
        for i, play in enumerate(plays):
            want = fn(b, play[0], play, d1, d2, rolls, ctx)
            got = fns[rule_id](arr(b), i, d1, d2, rolls, *packed)
            assert int(got) == int(want) == int(many[i]), (v.id, rule_id, b, play, d1, d2)
            held += bool(want)
    return held


def check_end(v: Any, fns: dict, b: tuple, points: tuple[int, int]) -> int:
    """The end and value rules, one by one and gathered, on a board and the ladder's points."""
    rules = v.rules
    held = 0
    if rules.end:
        ctx = _EndContext(points)
        over = -1
        for k, (rule_id, _winner, fn) in enumerate(rules.end):
            want = bool(fn(b, None, None, 0, 0, 0, ctx))
            assert fns[rule_id](arr(b), *points) == want, (v.id, rule_id, b, points)
            if want and over < 0:
                over = k
            held += want
        assert fns["_over"](arr(b), *points) == over
        if points == (0, 0):
            winner = rules.game_over(b)
            assert winner == (rules.end[over][1] if over >= 0 else None)
    if rules.value:
        ctx = _EndContext(points)
        best, which = 1, -1
        for k, (rule_id, when, value) in enumerate(rules.value):
            holds = bool(when(b, None, None, 0, 0, 0, ctx))
            got = fns[rule_id](arr(b), *points)
            assert bool(got[0]) == holds, (v.id, rule_id, b, points)
            if holds:
                worth = int(value(b, None, None, 0, 0, 0, ctx))
                assert got[1] == worth, (v.id, rule_id, b, points)
                if worth > best:
                    best, which = worth, k
        assert tuple(fns["_value"](arr(b), *points)) == (best, which)
        held += which >= 0
    if rules.bot_features:
        ctx = _EndContext(points)
        values = fns["_features"](arr(b), *points)
        for k, (name, fn) in enumerate(rules.bot_features):
            want = int(fn(b, None, None, 0, 0, 0, ctx))
            assert int(fns[f"feature/{name}"](arr(b), *points)) == want == values[k], (v.id, name)
    return held


def check_variant(vid: str, n: int, seed: int) -> dict[str, int]:
    v, nr, fns = native(vid)
    rng = random.Random(seed)
    seen = {"roll": 0, "forbid": 0, "choice": 0, "end": 0, "stage": 0}
    for b, d1, d2, rolls, setup in positions(v, n, seed):
        seen["roll"] += check_roll(v, fns, b, d1, d2, rolls, setup)
        seen["stage"] += check_stages(v, fns, b, d1, d2, rolls, setup)
        seen["forbid"] += check_forbid(v, fns, b, d1, d2, rolls, 12, rng)
        seen["choice"] += check_choice(v, fns, b, d1, d2, rolls, setup)
        points = (rng.randint(0, 12), rng.randint(0, 12))
        seen["end"] += check_end(v, fns, b, points) + check_end(v, fns, v.flip(b), (0, 0))
    return seen


# -- every shipped variant -------------------------------------------------------------------------

@pytest.mark.parametrize("vid", COVERED)
def test_every_rule_of_the_shipped_variants_is_compiled(vid: str) -> None:
    v, nr, fns = native(vid)
    assert nr is not None
    rules = v.rules
    ids = ([r.id for r in rules.score_roll] + [r.id for r in rules.score_play]
           + [i for i, _f in rules.forbid] + [i for i, _f in rules.forbid_move]
           + [i for i, _m, _f in rules.prefer] + [i for i, _w, _f in rules.end]
           + [i for i, _w, _v in rules.value] + [f"stage/{s[0]}" for s in rules.stages]
           + [f"feature/{name}" for name, _f in rules.bot_features])
    assert ids and set(ids) <= set(nr.functions), nr.unsupported
    assert not nr.unsupported
    assert (nr.roll is not None) == bool(rules.score_roll)
    assert (nr.over is not None) == bool(rules.end)
    assert (nr.features is not None) == bool(rules.bot_features)


#: the variants whose compiled rules the default suite runs (a compile on a cold cache costs
#: seconds each): one of each family of rules; the slow set runs every variant
SAMPLE = ("backgammon", "triktrak", "long-nardy", "plakoto", "fevga", "tapa", "jacquet",
          "gul-bara", "acey-deucey")
#: the positions below come with a throw of two dice: the three-dice games (Tabula, Emperador),
#: whose rules are compiled into the walk with the file's rules, are compared with the Python
#: walk throw by throw in tests/test_native_diff.py instead
TWO_DICE = [v for v in COVERED if load_variant(v).dice_count == 2]


@pytest.mark.parametrize("vid", [v if v in SAMPLE else pytest.param(v, marks=pytest.mark.slow)
                                 for v in TWO_DICE])
def test_compiled_rules_agree_with_python_on_random_play(vid: str) -> None:
    seen = check_variant(vid, 200, 7)
    v = native(vid)[0]
    # the positions reach the rules: something scores, is forbidden or ends
    if v.rules.score_roll:
        assert seen["roll"] > 0
    if v.rules.forbid:
        assert seen["forbid"] > 0
    if v.rules.stages:
        assert seen["stage"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("vid", TWO_DICE)
def test_compiled_rules_agree_with_python_on_long_random_play(vid: str) -> None:
    check_variant(vid, 3000, 11)


def jan_boards(rng: random.Random, n: int) -> list[tuple]:
    """Trictrac boards where one of the mover's jans is full, or one or two checkers short of
    full, the rest of his checkers behind it and the opponent's spread at random."""
    out = []
    for _ in range(n):
        cells = [0] * 28
        lo = rng.choice((19, 13, 1))
        short = rng.randint(0, 2)
        left = 15
        for p in range(lo, lo + 6):
            cells[p] = 2
            left -= 2
        for _s in range(short):
            p = rng.randint(lo, lo + 5)
            if cells[p] > 0:
                cells[p] -= 1
                left += 1
        behind = [p for p in range(lo + 6, min(lo + 12, 25))] or [24]
        while left:
            p = rng.choice(behind if lo < 19 else range(19, 25))
            cells[p] += 1
            left -= 1
        theirs = 15
        for p in rng.sample([p for p in range(1, 25) if cells[p] == 0], 6):
            k = rng.randint(1, 3) if theirs > 3 else theirs
            cells[p] = -k
            theirs -= k
        cells[27] = theirs
        out.append((tuple(cells), rng.randint(1, 6), rng.randint(1, 6), rng.randint(4, 30), 1))
    return out


def test_trictrac_jans_are_reached() -> None:
    """Random play and boards near a full jan reach every jan of the roll's scoring that reads
    the legal plays (filling, conserving, jan qui ne peut, sortie) and the hits, true and false:
    the agreement means something."""
    v, _nr, fns = native("triktrak")
    fired: dict[str, int] = {}
    rng = random.Random(5)
    for b, d1, d2, rolls, setup in positions(v, 300, 3) + jan_boards(rng, 200):
        ctx = RollContext(lambda: v.generator.plays(b, d1, d2, rolls), setup=setup)
        for rule_id, _to, _p, _w in v.rules.roll_items(b, d1, d2, rolls, ctx):
            fired[rule_id] = fired.get(rule_id, 0) + 1
        check_roll(v, fns, b, d1, d2, rolls, setup)
        check_forbid(v, fns, b, d1, d2, rolls, 6, rng)
        check_choice(v, fns, b, d1, d2, rolls, setup)
    for rule_id in ("true-hit-petit-jan", "true-hit-grand-jan", "false-hit-petit-jan",
                    "false-hit-grand-jan", "battre-le-coin", "fill-petit-jan", "fill-grand-jan",
                    "fill-jan-de-retour", "conserve-petit-jan", "conserve-grand-jan",
                    "conserve-jan-de-retour", "jan-qui-ne-peut", "sortie"):
        assert fired.get(rule_id), (rule_id, fired)


# -- generated boards ------------------------------------------------------------------------------

def _board(data: Any, v: Any) -> tuple:
    """A board of the variant's layout: each side's checkers spread over the pips (never both
    sides on one pip), the bar and off; pins and unentered checkers where the layout has them."""
    n = v.checkers
    cells = [0] * len(v.start)
    rest = [n, n]
    for side in (0, 1):
        for _ in range(data.draw(st.integers(0, 6))):
            p = data.draw(st.integers(1, 24))
            if cells[p] * (1 if side == 0 else -1) < 0 or rest[side] == 0:
                continue
            k = data.draw(st.integers(1, rest[side]))
            cells[p] += k if side == 0 else -k
            rest[side] -= k
    bar = data.draw(st.integers(0, min(2, rest[0])))
    cells[25] = bar
    rest[0] -= bar
    opp_bar = data.draw(st.integers(0, min(2, rest[1])))
    cells[26] = opp_bar
    rest[1] -= opp_bar
    if len(cells) > 30:
        cells[29], cells[30] = rest[0], rest[1]
    else:
        cells[0], cells[27] = rest[0], rest[1]
    if len(cells) > 28:
        pins = 0
        for p in range(1, 25):
            if cells[p] != 0 and data.draw(st.booleans()):
                pins |= 1 << p
        cells[28] = pins
    return tuple(cells)


@pytest.mark.parametrize("vid", [*SAMPLE, pytest.param("tric-trac-12", marks=pytest.mark.slow)])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_compiled_rules_agree_with_python_on_generated_boards(vid: str, data: Any) -> None:
    v, _nr, fns = native(vid)
    b = _board(data, v)
    d1, d2 = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    rolls = data.draw(st.integers(1, 40))
    setup = data.draw(st.integers(1, 3))
    try:
        v.generator.plays(b, d1, d2, rolls)
    except Exception:       # a board the kernel cannot play: the end rules still read it
        plays_ok = False
    else:
        plays_ok = True
    if plays_ok:
        check_roll(v, fns, b, d1, d2, rolls, setup)
        check_stages(v, fns, b, d1, d2, rolls, setup)
        check_forbid(v, fns, b, d1, d2, rolls, 8, random.Random(0))
        check_choice(v, fns, b, d1, d2, rolls, setup)
    points = (data.draw(st.integers(0, 30)), data.draw(st.integers(0, 30)))
    check_end(v, fns, b, points)


# -- every construct of the rule language ---------------------------------------------------------

#: a file whose rules use every built-in and construct the shipped files do not (rests, sets of
#: computed numbers, unions of numbers and of sets, the dice as lists, min, abs, // and %,
#: ranges clipped at run time, a step's hit and flags, `play.paths`, `before` in a score on the
#: play, the ladder's points), checked like the shipped variants
EVERY_CONSTRUCT = '''extends = "{base}"

[variant]
id = "vocab-test"
name = "Every built-in"

[regions]
home6 = "1..6"

[define]
"near(h)" = "{h, h + high}"

[rules.arith]
name = "arith"
kind = "score"
simple = 1
doublet = 1
ways = "sum(d in dice: d) + size(numbers) + min(p in 1..24 where mine(p) > 0: p) + abs(total - 9) + total // 2 + total % 5 + rolls % 3 - (0 - rolls) // 4"

[rules.sets]
name = "sets"
kind = "score"
simple = 1
doublet = 1
ways = "count(p in union(q in 1..6 where theirs(q) == 1: near(q)) where p in 2..9) + size(union(q in home6 where mine(q) >= 2: q))"

[rules.rests]
name = "rests"
kind = "score"
simple = 1
doublet = 1
ways = "size(union(pl in plays: union(path in pl.paths: rests(path))))"

[rules.hits]
name = "hits"
kind = "score"
simple = 1
doublet = 1
ways = "max(pl in plays: sum(path in pl.paths: count(s in path where s.hit > 0)))"

[rules.offs]
name = "offs"
kind = "score"
simple = 1
doublet = 1
when = "any(pl in plays: any(path in pl.paths: any(s in path: s.off))) or unplayed > 0"

[rules.branches]
name = "branches"
kind = "score"
simple = 1
doublet = 1
when = "if low in {1, 2} then mine(bar) > 0 or any(p in 19..24: empty(p)) else theirs(off) == 0 and not full(home6)"

[rules.ranges]
name = "ranges"
kind = "score"
simple = 1
doublet = 1
ways = "sum(p in high..(low + 12): mine(p)) + count(p in (rolls % 20)..(rolls % 20 + 5) where p in 3..24)"

[rules.hit-home]
name = "hit-home"
kind = "forbid"
when = "any(s in path: s.hit > 0 and s.to in 19..24) and size(landings(path)) >= 2"

[rules.late-six]
name = "late-six"
kind = "forbid"
on = "move"
when = "step.from == bar and step.die == 6 and after.theirs(bar) > 0"

[rules.fewest-landings]
name = "fewest-landings"
kind = "prefer"
minimize = "count(path in play.paths where size(landings(path)) == 2) + play.mine(off)"

[rules.hit-bonus]
name = "hit-bonus"
kind = "score"
on = "play"
simple = 1
doublet = 1
ways = "after.theirs(bar) - before.theirs(bar)"

[rules.many-on-bar]
name = "many-on-bar"
kind = "end"
winner = "opponent"
when = "theirs(bar) > 2 and my_points >= 0"

[rules.bar-value]
name = "bar-value"
kind = "value"
when = "mine(off) == checkers and their_points < 5"
value = "2 + theirs(bar)"
'''


def test_every_construct_of_the_rule_language_agrees_with_python(tmp_path: Path) -> None:
    f = tmp_path / "vocab-test.toml"
    f.write_text(EVERY_CONSTRUCT.replace("{base}",
                                         (ROOT / "variants" / "backgammon.toml").as_posix()))
    v, nr, _fns = native(str(f))
    assert nr is not None and not nr.unsupported
    assert nr.functions["hit-home"].path_cols == 5
    assert nr.functions["rests"].reads_plays and not nr.functions["arith"].reads_plays
    seen = check_variant(str(f), 150, 5)
    assert all(seen[k] for k in ("roll", "forbid", "choice", "end")), seen


def test_the_helpers_divide_as_python_does() -> None:
    from interpreter.native import rt

    for a in range(-9, 10):
        for b in range(-4, 5):
            assert rt.div(a, b) == (a // b if b else 0)
            assert rt.mod(a, b) == (a % b if b else 0)


def test_a_hook_not_made_by_the_rule_compiler_is_left_to_python() -> None:
    """A rule whose hook the compiler did not make is named in `unsupported`, the gathering
    function it belongs to is not made, and the other rules still compile."""
    import dataclasses

    v = load_variant("triktrak")
    rules = dataclasses.replace(v.rules)
    rules.score_roll = [dataclasses.replace(rules.score_roll[0], fn=lambda *a: 1),
                        *rules.score_roll[1:]]
    nr = emit_rules(dataclasses.replace(v, rules=rules))
    assert nr is not None
    first = rules.score_roll[0].id
    assert set(nr.unsupported) == {first}
    assert nr.roll is None and nr.roll_rules == ()
    assert {r.id for r in rules.score_roll[1:]} <= set(nr.functions)
    assert first not in nr.functions


# -- no text of the file in the generated code -----------------------------------------------------

HOSTILE = '''
extends = "{base}"

[variant]
id = "pwned-variant"
name = "__import__('os').system('echo PWNED')"

[regions]
pwned_region = "19..24"

[define]
"pwned_def(h)" = "theirs(h) == 1"
pwned_flag = "options.pwned_option == 'x\\"); import os; os.system(\\"echo PWNED'"

[options]
pwned_option = "x\\"); import os; os.system(\\"echo PWNED"

[option_choices]
pwned_option = ["x\\"); import os; os.system(\\"echo PWNED", "pwned_other"]

[rules.pwned-score]
name = "PWNED score"
kind = "score"
to = "mover"
simple = 2
doublet = 4
ways = "count(h in pwned_region where pwned_def(h) and pwned_flag)"

[rules.pwned-forbid]
name = "PWNED forbid"
kind = "forbid"
when = "pwned_flag and any(p in landings(path): p in pwned_region)"
'''


def test_generated_source_holds_no_text_of_the_file(tmp_path: Path) -> None:
    base = ROOT / "variants" / "backgammon.toml"
    f = tmp_path / "pwned-variant.toml"
    f.write_text(HOSTILE.format(base=base.as_posix()))
    v = load_variant(str(f))
    nr = emit_rules(v)
    assert nr is not None and {"pwned-score", "pwned-forbid"} <= set(nr.functions)
    for word in ("PWNED", "pwned", "import os", "system", "echo", "__import__"):
        assert word not in nr.source
    assert not any(ch in nr.source for ch in "\"'")
    check_source(nr.source)
    fns = load_native_rules(nr)
    b, d1, d2, rolls, setup = positions(v, 5, 1)[3]
    check_roll(v, fns, b, d1, d2, rolls, setup)
    check_forbid(v, fns, b, d1, d2, rolls, 10, random.Random(1))


@pytest.mark.parametrize("bad", [
    "import os\n",
    "import numpy as np\nfrom numba import njit\nfrom interpreter.native import rt\n"
    "@njit(cache=True)\ndef rule_1(b):\n    return 'x'\n",
    "import numpy as np\nfrom numba import njit\nfrom interpreter.native import rt\n"
    "@njit(cache=True)\ndef rule_1(b):\n    return open\n",
    "import numpy as np\nfrom numba import njit\nfrom interpreter.native import rt\n"
    "@njit(cache=True)\ndef rule_1(b):\n    return b.__class__\n",
    "import numpy as np\nfrom numba import njit\nfrom interpreter.native import rt\n"
    "@njit(cache=True)\ndef rule_1(b):\n    while True:\n        pass\n",
])
def test_the_whitelist_refuses_what_the_emitter_never_writes(bad: str) -> None:
    with pytest.raises(UnsafeSource):
        check_source(bad)


# -- the disk cache --------------------------------------------------------------------------------

def test_a_second_process_loads_the_machine_code_from_the_disk_cache() -> None:
    v, nr, fns = native("long-nardy")
    b = arr(v.start)
    fns["_over"](b, 0, 0)          # compiled here, or loaded from an earlier run's cache
    script = textwrap.dedent("""
        import numpy as np
        from interpreter.variant.build import load_variant
        from interpreter.native.rules_emit import emit_rules, load_native_rules
        v = load_variant("long-nardy")
        fns = load_native_rules(emit_rules(v))
        f = fns["_over"]
        f(np.array(v.start, np.int64), 0, 0)
        print(sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    hits, misses = map(int, out.stdout.split())
    assert (hits, misses) == (1, 0)
