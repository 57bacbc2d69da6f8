"""`tablier bench`: throughput of the kernel and the interpreter on this machine.

Each variant is loaded from its file with every hook active and played through the same code
path as `tablier simulate` (random bots, one process). Figures are medians of `runs` runs.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Any, Sequence



def _playable_builtins() -> list[str]:
    import tomllib

    from interpreter.resources import variants_dir

    ids = []
    for path in sorted(variants_dir().glob("*.toml")):
        with path.open("rb") as fh:
            meta = tomllib.load(fh).get("variant", {})
        if not meta.get("abstract"):
            ids.append(meta.get("id", path.stem))
    return ids


def positions_of(variant: Any, result: Any) -> list[tuple]:
    """(board before the roll, d1, d2) of every throw of a game played with its record kept,
    from the mover's view (the game's log holds them)."""
    return [(e[4], e[2], e[3]) for e in result.log if e[0] == "throw"]


def _sample_positions(variant: Any, n: int, seed: int) -> list[tuple]:
    """Positions with dice reached by random play, for timing legal-play generation."""
    from interpreter.sim import play_game

    out: list[tuple] = []
    index = 0
    while len(out) < n:
        out += positions_of(variant, play_game(variant, seed, 10_000 + index, keep_record=True))
        index += 1
    random.Random(seed).shuffle(out)
    return out[:n]


def _calls_per_second(fn: Any, positions: list[tuple], runs: int) -> float:
    """Median over `runs` of the calls per second of `fn(b, d1, d2)` over the positions."""
    rates = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for b, d1, d2 in positions:
            fn(b, d1, d2)
        rates.append(len(positions) / (time.perf_counter() - t0))
    return statistics.median(rates)


def run_bench(variant_ids: Sequence[str], games: int = 300, runs: int = 3,
              seed: int = 1, budget: float = 3.0,
              progress: Any = None) -> dict[str, dict[str, Any]]:
    """Figures per variant: games (each `play`: a game, a partie or a match, as the ladder says)
    and turns per second over `runs` runs of `games` games each (a run stops early after `budget`
    seconds), legal-play generations per second over positions of random play, and load time.
    Ctrl-C raises `BenchInterrupted` with the figures of the variants measured so far."""
    import interpreter.variant.loader  # noqa: F401  (imports are not part of a load's time)
    from interpreter.dsl.parser import _parser

    _parser()                            # built once per process, as in any long-lived use
    report: dict[str, dict[str, Any]] = {}
    try:
        _bench_each(report, variant_ids, games, runs, seed, budget, progress)
    except KeyboardInterrupt:
        raise BenchInterrupted(report) from None
    return report


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `bench`: the figures of the variants measured so far in `report`."""

    def __init__(self, report: dict[str, dict[str, Any]]):
        super().__init__()
        self.report = report


def _bench_each(report: dict[str, dict[str, Any]], variant_ids: Sequence[str], games: int,
                runs: int, seed: int, budget: float, progress: Any) -> None:
    from interpreter.errors import TablierError
    from interpreter.sim import play_game
    from interpreter.variant.build import load_variant

    for vid in variant_ids or _playable_builtins():
        if progress is not None:
            progress.describe(f"bench {vid}")
        t0 = time.perf_counter()
        variant = load_variant(vid)
        load_ms = (time.perf_counter() - t0) * 1000
        _ = variant.generator
        try:
            play_game(variant, seed, 0, max_turns=1)
        except TablierError as exc:          # a variant that keeps score but cannot be played
            report[vid] = {"skipped": str(exc), "load_ms": round(load_ms, 1)}
            if progress is not None:
                progress.advance(runs + 1)
            continue
        games_rates, turn_rates = [], []
        played = 0
        for run in range(runs):
            t0 = time.perf_counter()
            turns = n = 0
            # `games` games, or fewer for a variant whose one `play` is a long match
            while n < games and (n < 3 or time.perf_counter() - t0 < budget):
                turns += play_game(variant, seed + run, n).turns
                n += 1
            dt = time.perf_counter() - t0
            played += n
            games_rates.append(n / dt)
            turn_rates.append(turns / dt)
            if progress is not None:
                progress.advance(1)
        positions = _sample_positions(variant, 2000, seed)
        gen = variant.generator
        report[vid] = {
            "games_per_second": round(statistics.median(games_rates), 1),
            "turns_per_second": round(statistics.median(turn_rates)),
            "plays_per_second": round(_calls_per_second(gen.plays, positions, runs)),
            "results_per_second": round(_calls_per_second(gen.results, positions, runs)),
            "load_ms": round(load_ms, 1),
            "games": played, "runs": runs,
        }
        if progress is not None:
            progress.advance(1)
