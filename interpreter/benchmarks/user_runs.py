"""What a user pays on a first and on a later run of each command:
`python3 -m interpreter.benchmarks.user_runs [--openspiel PYTHON] [--pairs N] [--only WORD]`.

Each command runs as a person runs it, `python3 -m interpreter ...` in a fresh process, with a
cache folder of its own (`XDG_CACHE_HOME` in a temporary folder, the compile policy of the
environment, `background` by default): first on the empty cache; then, once the background
work the first run started is done (its lock files gone), twice more. The figures are the wall
clock of the whole command, start-up included, and the seconds the background work took after
the first run ended.

With `--openspiel PYTHON` (an interpreter with OpenSpiel's `pyspiel` installed, in a venv of its
own), `N` interleaved pairs (3 by default): a later run of `simulate backgammon --games 1000`,
then OpenSpiel's backgammon played 1,000 times in its C++ loop by its two uniform random bots
(`pyspiel.evaluate_bots`, the games alone timed); the ratio of each pair and their median.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

POSITION = ('{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],'
            '"bar":[0,0],"off":[0,0],"dice":[3,1]}\n')

#: (what it is, the command's arguments, its stdin)
COMMANDS: list[tuple[str, list[str], str]] = [
    ("simulate backgammon, 1,000 random games",
     ["simulate", "backgammon", "--games", "1000", "--seed", "1", "--json"], ""),
    ("simulate backgammon, 100 random games",
     ["simulate", "backgammon", "--games", "100", "--seed", "1", "--json"], ""),
    ("simulate hypergammon, 5,000 random games",
     ["simulate", "hypergammon", "--games", "5000", "--seed", "1", "--json"], ""),
    ("moves backgammon, one position", ["moves", "backgammon"], POSITION),
    ("play backgammon, learned against learned, two throws",
     ["play", "backgammon", "--white", "learned", "--black", "learned", "--max-turns", "2",
      "--seed", "1"], ""),
    ("simulate backgammon, learned against search:1, 4 games",
     ["simulate", "backgammon", "--white", "learned", "--black", "search:1", "--games", "4",
      "--seed", "1", "--jobs", "1", "--json"], ""),
    ("simulate triktrak, search:1 against itself, 2 parties",
     ["simulate", "triktrak", "--white", "search:1", "--black", "search:1", "--games", "2",
      "--seed", "11", "--jobs", "1", "--json"], ""),
]

#: OpenSpiel's backgammon between its uniform random bots, in its C++ loop: games a second
OPENSPIEL = """
import sys, time
import pyspiel
n = int(sys.argv[1])
game = pyspiel.load_game("backgammon")
bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
t0 = time.perf_counter()
for i in range(n):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
print(n / (time.perf_counter() - t0))
"""


def _run(args: list[str], stdin: str, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "interpreter", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=900)
    took = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return took


def _busy(cache: Path) -> bool:
    """Whether a preparing process is at work on this cache (its lock file is there)."""
    kernel = cache / "tablier" / "native" / "kernel"
    return kernel.is_dir() and any(p.name.startswith("prepare-") for p in kernel.iterdir())


def first_and_later(args: list[str], stdin: str) -> tuple[float, float, list[float]]:
    """(first run, seconds of background work after it, later runs) of one command."""
    with tempfile.TemporaryDirectory(prefix="tablier-runs-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir(mode=0o700)
        env = dict(os.environ, XDG_CACHE_HOME=str(cache))
        env.pop("TABLIER_NO_CACHE", None)
        first = _run(args, stdin, env)
        t0 = time.perf_counter()
        while _busy(cache) and time.perf_counter() - t0 < 900:
            time.sleep(0.2)
        background = time.perf_counter() - t0
        later = [_run(args, stdin, env) for _ in range(2)]
        return first, background, later


def openspiel_pairs(python: str, pairs: int) -> list[tuple[float, float]]:
    """(OpenSpiel's 1,000 games in its C++ loop, a later run of `simulate backgammon --games
    1000`), seconds, `pairs` times, alternating, on one warmed cache."""
    args = ["simulate", "backgammon", "--games", "1000", "--seed", "1", "--json"]
    with tempfile.TemporaryDirectory(prefix="tablier-runs-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir(mode=0o700)
        env = dict(os.environ, XDG_CACHE_HOME=str(cache))
        env.pop("TABLIER_NO_CACHE", None)
        _run(args, "", env)
        t0 = time.perf_counter()
        while _busy(cache) and time.perf_counter() - t0 < 900:
            time.sleep(0.2)
        _run(args, "", env)
        out = []
        for k in range(pairs):
            rate = float(subprocess.run([python, "-c", OPENSPIEL, "1000"], capture_output=True,
                                        text=True, check=True, timeout=600).stdout)
            out.append((1000 / rate, _run(args, "", env)))
        return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m interpreter.benchmarks.user_runs")
    ap.add_argument("--openspiel", metavar="PYTHON",
                    help="an interpreter with pyspiel: interleaved pairs against OpenSpiel")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--only", metavar="WORD", help="only the commands whose line holds WORD")
    a = ap.parse_args(argv)
    print("| command | first run (empty cache) | background work after it | later runs |")
    print("|---|---:|---:|---:|")
    for what, args, stdin in COMMANDS:
        if a.only and a.only not in what:
            continue
        first, background, later = first_and_later(args, stdin)
        print(f"| {what} | {first:.2f} s | {background:.1f} s | "
              f"{', '.join(f'{t:.2f}' for t in later)} s |", flush=True)
    if a.openspiel:
        got = openspiel_pairs(a.openspiel, a.pairs)
        print()
        print("| pair | OpenSpiel, 1,000 games (C++ loop) | `simulate backgammon --games 1000` "
              "(whole command) | ratio |")
        print("|---|---:|---:|---:|")
        for k, (theirs, ours) in enumerate(got, 1):
            print(f"| {k} | {theirs:.3f} s | {ours:.3f} s | ×{theirs / ours:.2f} |")
        print(f"\nmedian ratio ×{statistics.median(t / o for t, o in got):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
