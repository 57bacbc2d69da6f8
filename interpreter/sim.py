"""Simulation: many bot games of a variant, optionally over several processes.

Each game's seed is derived from the run's seed and the game's index, so the results do not
depend on how many processes share the work (`--jobs 4` gives what `--jobs 1` gives).
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Sequence

from interpreter.engine.game import Game, GameResult
from interpreter.players.base import capabilities_of
from interpreter.players.bots import make_player


def game_seed(seed: int, index: int) -> str:
    return f"{seed}/{index}"


def play_game(variant: Any, seed: int, index: int, white: str = "random", black: str = "random",
              max_turns: int = 20000, keep_record: bool = False) -> GameResult:
    gs = game_seed(seed, index)
    players = (make_player(white, f"{gs}:white"), make_player(black, f"{gs}:black"))
    return Game(variant, gs, max_turns=max_turns, keep_record=keep_record,
                doubles=capabilities_of(players)).run(players)


# -- worker processes -------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(ref: str, overrides: Sequence[str]) -> None:
    from interpreter.variant.build import load_variant
    _WORKER["variant"] = load_variant(ref, overrides)


def _run_chunk(args: tuple[int, list[int], str, str]) -> list[tuple]:
    seed, indices, white, black = args
    variant = _WORKER["variant"]
    return [_compact(play_game(variant, seed, i, white, black)) for i in indices]


def _compact(r: GameResult) -> tuple:
    return (r.finished, r.winner, r.value, r.turns, dict(r.fired))


def run_games(variant: Any, ref: str, overrides: Sequence[str], games: int, seed: int,
              white: str, black: str, jobs: int) -> list[tuple]:
    if jobs <= 1 or games < 2:
        return [_compact(play_game(variant, seed, i, white, black)) for i in range(games)]
    chunks = [list(range(k, games, jobs * 4)) for k in range(jobs * 4)]
    chunks = [c for c in chunks if c]
    by_index: dict[int, tuple] = {}
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                             initargs=(ref, tuple(overrides))) as pool:
        for chunk, results in zip(chunks, pool.map(_run_chunk,
                                                   [(seed, c, white, black) for c in chunks])):
            by_index.update(zip(chunk, results))
    return [by_index[i] for i in range(games)]


def simulate(variant: Any, ref: str, overrides: Sequence[str], games: int, seed: int,
             white: str = "random", black: str = "random", jobs: int = 1) -> dict[str, Any]:
    """Play `games` games and summarise them (the `tablier simulate --json` object)."""
    t0 = time.perf_counter()
    rows = run_games(variant, ref, overrides, games, seed, white, black, jobs)
    seconds = time.perf_counter() - t0
    wins = {"white": 0, "black": 0}
    draws = 0
    values: dict[str, int] = {}
    fired: dict[str, int] = {}
    turns = 0
    unfinished = 0
    for finished, winner, value, n_turns, rule_counts in rows:
        turns += n_turns
        if not finished:
            unfinished += 1
            continue
        if winner is None:
            draws += 1
            continue
        wins["white" if winner == 0 else "black"] += 1
        values[str(value)] = values.get(str(value), 0) + 1
        for k, n in rule_counts.items():
            fired[k] = fired.get(k, 0) + n
    finished_games = games - unfinished
    names = _value_names(variant)
    out: dict[str, Any] = {
        "variant": variant.id, "games": games, "seed": seed, "white": white, "black": black,
        "jobs": jobs, "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "wins": wins, "draws": draws, "unfinished": unfinished,
        "mean_turns": round(turns / games, 2) if games else 0.0,
        "values": {names.get(k, k): n for k, n in sorted(values.items())},
    }
    for value, name in names.items():
        out[f"{name}_rate"] = round(values.get(value, 0) / finished_games, 4) if finished_games else 0.0
    if fired:
        out["rule_firings"] = dict(sorted(fired.items()))
    return out


def _value_names(variant: Any) -> dict[str, str]:
    """Names for game values from the variant's value rules (2 → "gammon", …); 1 → "single"."""
    names = {"1": "single"}
    for rule_id, when, value in variant.rules.value:
        names.setdefault(str(int(value(variant.start))), rule_id)
    return names
