"""Speed of a roll's scoring, compiled against Python: `python3 -m
interpreter.benchmarks.compiled_rules [variant] [positions]` (triktrak and 2000 by default).

Over positions with dice reached by random play (`interpreter.bench._sample_positions`), side by
side in one run, CPU time (`time.process_time`), best of 5:

1. the scoring alone, the legal plays computed beforehand: Python, `rules.roll_items(b, d1, d2,
   5, ctx)` with the plays given through the context; compiled, `roll_ways` on the plays packed
   as arrays beforehand (the numbers of ways, of which the items are made);
2. one roll's scoring plus its legal plays, as docs/performance.md measures it: Python,
   `roll_items` with the context computing the plays; compiled, the same Python `plays()`, the
   packing into arrays, then `roll_ways`.

3. the compiled scoring called from compiled code, as the compiled play loop will call it (no
   Python call per roll): `roll_ways` called REPEAT times in a row on each position by a numba
   loop, the time divided by REPEAT.

The compiled module is loaded (and compiled, the first time) before any timing.
"""
from __future__ import annotations

import sys
import time
from typing import Any, Callable

import numpy as np


from interpreter.bench import _sample_positions
from interpreter.dsl import RollContext
from interpreter.native.numba_cache import prepare_numba
from interpreter.native.rules_emit import emit_rules, load_native_rules, pack_plays
from interpreter.variant.build import load_variant

prepare_numba()     # numba's cache in the checked folder, before numba is imported
from numba import njit  # noqa: E402


#: how many times the compiled loop of measure 3 calls the scoring on each position
REPEAT = 50


@njit(cache=True)
def _repeat(fn, k, b, d1, d2, unplayed, pb, ps, pp, pn):
    total = 0
    for _ in range(k):
        total += fn(b, d1, d2, 5, 1, unplayed, pb, ps, pp, pn)[0]
    return total


def _best(fn: Callable[[], Any], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main(argv: list[str]) -> None:
    vid = argv[0] if argv else "triktrak"
    n = int(argv[1]) if len(argv) > 1 else 2000
    v = load_variant(vid)
    nr = emit_rules(v)
    if nr is None or nr.roll is None:
        print(f"{vid}: no compiled scoring ({nr.unsupported if nr else 'no rules'})")
        return
    roll = load_native_rules(nr)["_roll"]
    gen = v.generator
    rules = v.rules
    positions = [(b, d1, d2) for b, d1, d2 in _sample_positions(v, n, 1)]
    cells = len(v.start)
    given = []
    for b, d1, d2 in positions:
        plays, unplayed = gen.plays(b, d1, d2)
        given.append((b, d1, d2, plays, unplayed, np.array(b, np.int64),
                      pack_plays(plays, cells)))
    b0, d1, d2, _p, un, arr, packed = given[0]
    roll(arr, d1, d2, 5, 1, un, *packed)          # compiled or loaded here, not timed

    def py_scoring() -> None:
        for b, d1, d2, plays, unplayed, _a, _k in given:
            rules.roll_items(b, d1, d2, 5, RollContext(lambda: (plays, unplayed)))

    def native_scoring() -> None:
        for _b, d1, d2, _p, unplayed, a, k in given:
            roll(a, d1, d2, 5, 1, unplayed, *k)

    def py_roll() -> None:
        for b, d1, d2 in positions:
            rules.roll_items(b, d1, d2, 5, RollContext(lambda: gen.plays(b, d1, d2)))

    def native_roll() -> None:
        for b, d1, d2 in positions:
            plays, unplayed = gen.plays(b, d1, d2)
            roll(np.array(b, np.int64), d1, d2, 5, 1, unplayed, *pack_plays(plays, cells))

    # the answers agree before anything is timed
    for b, d1, d2, plays, unplayed, a, k in given:
        ways = roll(a, d1, d2, 5, 1, unplayed, *k)
        items = [(r.id, r.to, int(w) * (r.doublet if d1 == d2 else r.simple), int(w))
                 for r, w in zip(rules.score_roll, ways) if w]
        assert items == rules.roll_items(b, d1, d2, 5, RollContext(lambda: (plays, unplayed)))
    _repeat(roll, 1, arr, d1, d2, un, *packed)

    def native_inside() -> None:
        for _b, d1, d2, _p, unplayed, a, k in given:
            _repeat(roll, REPEAT, a, d1, d2, unplayed, *k)

    inside = _best(native_inside) / REPEAT
    rows = [("scoring alone (plays given)", _best(py_scoring), _best(native_scoring)),
            ("the same, from compiled code", _best(py_scoring), inside),
            ("scoring + legal plays", _best(py_roll), _best(native_roll))]
    print(f"{vid}, {len(positions)} positions of random play, CPU ms (best of 5); rolls/s")
    for label, py, nat in rows:
        print(f"{label:30} Python {py * 1e3:8.1f} ms {len(positions) / py:9,.0f}/s   "
              f"compiled {nat * 1e3:8.1f} ms {len(positions) / nat:9,.0f}/s   x{py / nat:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
