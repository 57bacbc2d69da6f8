"""Speed of legal-play generation: `python -m interpreter.kernel._bench_movegen [seconds]`.

1. Backgammon random playouts, the bare loop: from the standard start, roll two dice with
   random.Random, list the distinct results, pick one uniformly, flip, until the mover has borne
   off all his checkers. Prints games/s and results() calls/s (one core).
2. `plays()` on trictrac-like switches (corners, two moves for a doublet, no hitting) over
   positions of random play, in calls/s.
"""
from __future__ import annotations

import random
import sys
import time

from interpreter.kernel.board import flip, from_start
from interpreter.kernel.movegen import MoveGenerator
from interpreter.kernel.rules import MoveRules

BACKGAMMON_START = {24: 2, 13: 5, 8: 3, 6: 5}

TRICTRAC = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13,
                     opp_corner=12, puissance_needs="both_coins_empty", bear_off="all_home",
                     home_top=6, excedant_filter="fewest", higher_number=True)


def playouts(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    results = MoveGenerator(MoveRules(checkers=15)).results
    rng = random.Random(seed)
    randint, choice = rng.randint, rng.choice
    start = from_start(BACKGAMMON_START)
    games = calls = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        b = start
        while True:
            b = choice(results(b, randint(1, 6), randint(1, 6)))
            calls += 1
            if b[0] == 15:
                break
            b = flip(b)
        games += 1
        if time.perf_counter() >= end:
            break
    return games, calls, time.perf_counter() - t0


def trictrac_positions(n: int, seed: int = 2) -> list[tuple[tuple[int, ...], int, int]]:
    """Positions of trictrac-like random play, each with the roll to be played."""
    gen = MoveGenerator(TRICTRAC)
    rng = random.Random(seed)
    start = from_start({24: 15})
    out: list = []
    b = start
    while len(out) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        out.append((b, d1, d2))
        b = rng.choice(gen.results(b, d1, d2))
        b = start if b[0] == 15 else flip(b)
    return out


def trictrac_plays(seconds: float) -> tuple[int, float]:
    gen = MoveGenerator(TRICTRAC)
    positions = trictrac_positions(2000)
    calls = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        for b, d1, d2 in positions:
            gen.plays(b, d1, d2)
        calls += len(positions)
    return calls, time.perf_counter() - t0


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv else 5.0
    games, calls, dt = playouts(seconds)
    print(f"backgammon playouts: {games / dt:,.0f} games/s, {calls / dt:,.0f} results() calls/s "
          f"({games} games, {calls / games:.1f} turns a game, {dt:.1f} s)")
    n, dt = trictrac_plays(max(1.0, seconds / 2))
    print(f"trictrac-like plays(): {n / dt:,.0f} calls/s ({n} calls, {dt:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
