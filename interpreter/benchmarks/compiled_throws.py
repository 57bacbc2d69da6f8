"""Speed of a roll, its legal plays and its scoring, compiled against Python: `python3 -m
interpreter.benchmarks.compiled_throws [variant] [positions]` (triktrak and 2000 by default).

Over positions with dice reached by random play (`interpreter.bench._sample_positions`), side by
side in one run, CPU time (`time.process_time`), best of 5, rolls a second:

1. one roll's legal plays and its scoring, one call per roll, as docs/performance.md has
   measured it since the first trictrac figures: Python, the generator's `plays()` and the
   roll's scoring rules (`roll_items`) on them; compiled, `NativeThrows.points` on the roll
   alone (the plays made and scored inside the compiled module, the net points back);
2. the 21 throws of each position in one call, as the searching bots ask for the points to
   come: Python, the same work throw by throw; compiled, `NativeThrows.points` over the 21;
3. every position's 21 throws in a single call (`NativeThrows.points_many`);
4. the plays alone, back in Python as tuples with their paths: the generator's `plays()`
   against `NativeThrows.plays`.

Both sides give the same numbers (checked on every position before anything is timed). The
compiled module is loaded (and compiled, the first time) before any timing.
"""
from __future__ import annotations

import sys
import time

from interpreter.bench import _sample_positions
from interpreter.dsl import RollContext
from interpreter.engine.branch import DICE
from interpreter.benchmarks.compiled_rules import _best
from interpreter.variant.build import load_variant

#: the throw number and set-up flag every position is asked with (a throw after the opening)
ROLLS, SETUP = 5, 1


def main(argv: list[str]) -> int:
    from interpreter import native
    from interpreter.native.throws_emit import NativeThrows, emit_throws

    vid = argv[0] if argv else "triktrak"
    n = int(argv[1]) if len(argv) > 1 else 2000
    v = load_variant(vid)
    if not native.available():
        print("numba is not installed: nothing compiled to measure")
        return 1
    made = emit_throws(v)
    if made is None:
        print(f"{vid}: its throws are not compiled (the Python path plays them)")
        return 1
    t0 = time.process_time()
    nt = NativeThrows(v, made[0])
    positions = _sample_positions(v, n, 1)
    b0, d10, d20 = positions[0]
    nt.points(b0, ROLLS, SETUP, ((d10, d20, 1),))
    nt.plays(b0, d10, d20, ROLLS)
    nt.points_many([(b0, ROLLS, SETUP)], DICE)
    ready = time.process_time() - t0
    gen, rules = v.generator, v.rules

    def py_points(b: tuple, d1: int, d2: int) -> int:
        ctx = RollContext(lambda: gen.plays(b, d1, d2, ROLLS), setup=SETUP)
        return sum(p if to == "mover" else -p
                   for _r, to, p, _w in rules.roll_items(b, d1, d2, ROLLS, ctx))

    if rules.score_play:
        print(f"{vid}: scores plays as well as rolls; this measure covers the rolls' scoring")
        return 1
    # the answers agree before anything is timed
    for b, d1, d2 in positions:
        assert py_points(b, d1, d2) == nt.points(b, ROLLS, SETUP, ((d1, d2, 1),)), (b, d1, d2)
        got, _un = nt.plays(b, d1, d2, ROLLS)
        assert [p[0] for p in got] == [p[0] for p in gen.plays(b, d1, d2, ROLLS)[0]], (b, d1, d2)
    keys = [(b, ROLLS, SETUP) for b, _d1, _d2 in positions[:200]]
    assert nt.points_many(keys, DICE) == [
        sum(w * py_points(b, d1, d2) for d1, d2, w in DICE) for b, _r, _s in keys]

    def py_roll() -> None:
        for b, d1, d2 in positions:
            py_points(b, d1, d2)

    def native_roll() -> None:
        points = nt.points
        for b, d1, d2 in positions:
            points(b, ROLLS, SETUP, ((d1, d2, 1),))

    def py_throws() -> None:
        for b, _d1, _d2 in positions[:200]:
            for d1, d2, _w in DICE:
                py_points(b, d1, d2)

    def native_throws() -> None:
        points = nt.points
        for b, _d1, _d2 in positions:
            points(b, ROLLS, SETUP, DICE)

    every = [(b, ROLLS, SETUP) for b, _d1, _d2 in positions]

    def native_many() -> None:
        nt.points_many(every, DICE)

    def py_plays() -> None:
        for b, d1, d2 in positions:
            gen.plays(b, d1, d2, ROLLS)

    def native_plays() -> None:
        for b, d1, d2 in positions:
            nt.plays(b, d1, d2, ROLLS)

    rolls = len(positions)
    rows = [("a roll: its plays and scoring", _best(py_roll) / rolls, _best(native_roll) / rolls),
            ("21 throws a call", _best(py_throws) / (200 * 21),
             _best(native_throws) / (rolls * 21)),
            ("every position's throws, 1 call", _best(py_throws) / (200 * 21),
             _best(native_many) / (rolls * 21)),
            ("the plays alone, as tuples", _best(py_plays) / rolls, _best(native_plays) / rolls)]
    print(f"{vid}, {rolls} positions of random play, CPU time (best of 5); "
          f"the compiled module ready in {ready:.2f} s")
    for label, py, nat in rows:
        print(f"{label:34} Python {1 / py:11,.0f} rolls/s   compiled {1 / nat:11,.0f} rolls/s"
              f"   x{py / nat:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
