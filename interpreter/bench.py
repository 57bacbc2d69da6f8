"""`tablier bench`: throughput of the kernel and the interpreter on this machine.

Each variant is loaded from its file with every hook active and played through the same code
path as `tablier simulate` (random bots, one process), first on the Python path, then on the
compiled one where it covers the variant (`compiled_*`, interpreter/native). Figures are
medians of `runs` runs, in CPU time (`time.process_time`: other work on the machine does not
count).
"""
from __future__ import annotations

import random
import statistics
import time
import tomllib
from typing import Any, Sequence

from interpreter.engine.events import Thrown
from interpreter.errors import TablierError


def _playable_builtins() -> list[str]:
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
    from the mover's view (the game's log holds them); (board, d1, d2, d3) in a variant of
    three dice, whose throws of two (Doblet's stages of stacked pairs, played by their own
    rules) are left out."""
    if variant.dice_count == 3:
        return [(e.board, e.d1, e.d2, e.d3) for e in result.log
                if isinstance(e, Thrown) and e.d3]
    return [(e.board, e.d1, e.d2) for e in result.log if isinstance(e, Thrown)]


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
    """Median over `runs` of the calls per second of `fn(b, d1, d2)` over the positions
    (`fn(b, d1, d2, 1, d3)` for a throw of three dice)."""
    rates = []
    three = bool(positions) and len(positions[0]) == 4
    for _ in range(runs):
        t0 = time.process_time()
        if three:
            for b, d1, d2, d3 in positions:
                fn(b, d1, d2, 1, d3)
        else:
            for b, d1, d2 in positions:
                fn(b, d1, d2)
        rates.append(len(positions) / max(time.process_time() - t0, 1e-9))
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

        def python_games(run: int, n: int) -> int:
            return play_game(variant, seed + run, n).turns

        games_rate, turns_rate, played = _games_per_second(python_games, games, runs, budget,
                                                           progress)
        positions = _sample_positions(variant, 2000, seed)
        gen = variant.generator
        figures: dict[str, Any] = {
            "games_per_second": round(games_rate, 1),
            "turns_per_second": round(turns_rate),
            "plays_per_second": round(_calls_per_second(gen.plays, positions, runs)),
            "results_per_second": round(_calls_per_second(gen.results, positions, runs)),
            "load_ms": round(load_ms, 1),
            "games": played, "runs": runs,
        }
        figures.update(_compiled_figures(variant, games, runs, seed, budget, positions,
                                         figures))
        report[vid] = figures
        if progress is not None:
            progress.advance(1)


def _games_per_second(play: Any, games: int, runs: int, budget: float, progress: Any
                      ) -> tuple[float, float, int]:
    """Medians over `runs` of games and turns per second (CPU time) of `play(run, n)` (the
    turns of game n of a run), `games` games a run or fewer after `budget` seconds."""
    games_rates, turn_rates = [], []
    played = 0
    for run in range(runs):
        t0 = time.process_time()
        turns = n = 0
        # `games` games, or fewer for a variant whose one `play` is a long match
        while n < games and (n < 3 or time.process_time() - t0 < budget):
            turns += play(run, n)
            n += 1
        dt = max(time.process_time() - t0, 1e-9)
        played += n
        games_rates.append(n / dt)
        turn_rates.append(turns / dt)
        if progress is not None:
            progress.advance(1)
    return statistics.median(games_rates), statistics.median(turn_rates), played


def _compiled_figures(variant: Any, games: int, runs: int, seed: int, budget: float,
                      positions: list[tuple], python: dict[str, Any]) -> dict[str, Any]:
    """The same figures on the compiled path (interpreter/native), beside the Python ones:
    what it covers ("playouts": whole random games compiled; "generator": the compiled
    `results()` under the Python turn loop; or why not), the time its code took to load
    (compiling it the first time on a machine), games and turns per second of random play as
    `simulate` plays them, `results()` per second, and the ratios to the Python figures."""
    from interpreter import native

    if not native.available():
        return {"compiled": "off" if not native.wanted() else "numba is not installed"}
    t0 = time.process_time()
    covered = native.accelerate(variant, quiet=True)
    if not covered:
        rolls = _roll_figures(variant, positions, runs)
        return {"compiled": "throws", **rolls} if rolls else {"compiled": "not covered"}
    playout = getattr(variant, "native_playout", None)
    gen = variant.generator
    # the first calls compile the code, or load it from the cache
    if variant.dice_count == 3:
        gen.results(variant.start, 3, 1, 1, 2)
    else:
        gen.results(variant.start, 3, 1)
    if playout is not None:
        playout.play(["0/0"])
    ready_s = time.process_time() - t0
    if playout is not None:
        games_rate, turns_rate = _playout_rates(playout, games, runs, seed, budget)
    else:
        from interpreter.sim import play_game

        games_rate, turns_rate, _ = _games_per_second(
            lambda run, n: play_game(variant, seed + run, n).turns, games, runs, budget, None)
    results_rate = _calls_per_second(gen.results, positions, runs)
    return {
        "compiled": "playouts" if playout is not None else "generator",
        "compiled_ready_s": round(ready_s, 2),
        "compiled_games_per_second": round(games_rate, 1),
        "compiled_turns_per_second": round(turns_rate),
        "compiled_results_per_second": round(results_rate),
        "compiled_games_ratio": round(games_rate / python["games_per_second"], 2),
        "compiled_results_ratio": round(results_rate / python["results_per_second"], 2),
    }


def _roll_figures(variant: Any, positions: list[tuple], runs: int) -> dict[str, Any]:
    """For a variant that scores its rolls and whose throws compile (`native/throws_emit.py`:
    the trictrac family), rolls per second (CPU time, the best of `runs`) of one roll's legal
    plays and scoring, the Python generator and rules against one compiled call a roll, and
    the time the compiled module took to be ready; empty where the throws do not compile."""
    from interpreter.dsl import RollContext
    from interpreter.native.throws_emit import NativeThrows, emit_throws

    rules = variant.rules
    if not rules.score_roll or rules.score_play:
        return {}
    t0 = time.process_time()
    made = emit_throws(variant)
    if made is None:
        return {}
    throws = NativeThrows(variant, made[0])
    b0, d10, d20 = positions[0]
    throws.points(b0, 5, 1, ((d10, d20, 1),))       # compiled or loaded here, not timed
    ready_s = time.process_time() - t0
    gen = variant.generator

    def python(b: tuple, d1: int, d2: int) -> Any:
        ctx = RollContext(lambda: gen.plays(b, d1, d2, 5), setup=1)
        return rules.roll_items(b, d1, d2, 5, ctx)

    def compiled(b: tuple, d1: int, d2: int) -> Any:
        return throws.points(b, 5, 1, ((d1, d2, 1),))

    py_rate = _calls_per_second(python, positions, runs)
    rate = _calls_per_second(compiled, positions, runs)
    return {"compiled_ready_s": round(ready_s, 2), "rolls_per_second": round(py_rate),
            "compiled_rolls_per_second": round(rate),
            "compiled_rolls_ratio": round(rate / py_rate, 2)}


def _playout_rates(playout: Any, games: int, runs: int, seed: int, budget: float
                   ) -> tuple[float, float]:
    """Games and turns per second (CPU time, medians over `runs`) of the compiled playouts,
    the games played in batches of the runner's chunk size as `simulate` plays them."""
    from interpreter.runner import CHUNK, game_seed

    games_rates, turn_rates = [], []
    for run in range(runs):
        t0 = time.process_time()
        n = turns = 0
        while n < games and (n < 3 or time.process_time() - t0 < budget):
            k = min(CHUNK, games - n)
            done = playout.play([game_seed(seed + run, i) for i in range(n, n + k)])
            turns += sum(r.turns for r in done)
            n += k
        dt = max(time.process_time() - t0, 1e-9)
        games_rates.append(n / dt)
        turn_rates.append(turns / dt)
    return statistics.median(games_rates), statistics.median(turn_rates)
