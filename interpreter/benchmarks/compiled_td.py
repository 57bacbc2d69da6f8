"""Speed of self-play training and of the learned player, compiled against Python: `python3 -m
interpreter.benchmarks.compiled_td [variant] [plays] [hidden]` (backgammon, 300 plays, 40
hidden units by default).

Side by side in one run, CPU time (`time.process_time`), best of 3:

1. self-play training (`players/td.py train`), the same `plays` from the same seed and a new
   network of `hidden` units, on the Python trainer and on the compiled one
   (`CompiledTrainer`); the two weights must agree to 1e-9 before anything is reported;
2. the learned player one throw and two throws ahead (`learned`, `search:2:learned`) with the
   network of (1), against greedy in money play without the cube (`bench_bots.match_up`,
   games a second of CPU for both players): the same games on both paths, the leaves valued
   by numpy on the Python path (`NetJudge`) and by the compiled network (`FastNet`).

The compiled module is loaded (and compiled, the first time) before anything is timed.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any, Callable



def _timed(fn: Callable[[], Any], runs: int = 3) -> tuple[float, Any]:
    best, got = float("inf"), None
    for _ in range(runs):
        t0 = time.process_time()
        got = fn()
        best = min(best, time.process_time() - t0)
    return best, got


def main(argv: list[str]) -> int:
    import numpy as np

    from interpreter import native
    from interpreter.bench_bots import match_up
    from interpreter.players import td
    from interpreter.players.kinds import _JUDGES
    from interpreter.variant.build import load_variant

    vid = argv[0] if argv else "backgammon"
    plays = int(argv[1]) if len(argv) > 1 else 300
    hidden = int(argv[2]) if len(argv) > 2 else 40
    variant = load_variant(vid, td.training_overrides(load_variant(vid)))
    tmp = tempfile.mkdtemp(prefix="tablier-bench-td-")

    def train(path: str) -> Any:
        return td.train(variant, vid, plays, path, seed=3, hidden=hidden,
                        checkpoint_every=plays)

    os.environ["TABLIER_NATIVE"] = "0"
    py_s, py_net = _timed(lambda: train(os.path.join(tmp, "py.npz")))
    os.environ["TABLIER_NATIVE"] = "1"
    if not native.available():
        print("numba is not installed: nothing compiled to compare", file=sys.stderr)
        return 1
    train(os.path.join(tmp, "warm.npz"))          # load (or compile) the module
    c_s, c_net = _timed(lambda: train(os.path.join(tmp, "c.npz")))
    diff = float(np.abs(py_net.theta - c_net.theta).max())
    if diff > 1e-9:
        print(f"the two trainers disagree by {diff}", file=sys.stderr)
        return 1
    print(f"{vid}: self-play, {plays} plays of a {hidden}-unit network: "
          f"Python {plays / py_s:.1f} plays/s, compiled {plays / c_s:.1f} plays/s, "
          f"x{py_s / c_s:.1f} (weights within {diff:.1e})")

    weights = os.path.join(tmp, "c.npz")
    play = load_variant(vid, ["ladder.doubling=false"])
    for kind, games in (("learned", 40), ("search:2:learned", 6)):
        rows: dict[str, Any] = {}
        for path in ("0", "1"):
            os.environ["TABLIER_NATIVE"] = path
            _JUDGES.clear()
            rows[path] = match_up(play, f"{kind}:{weights}", "greedy", games)
            if path == "1":      # timed again, the module loaded
                _JUDGES.clear()
                rows[path] = match_up(play, f"{kind}:{weights}", "greedy", games)
        same = all(rows["0"][k] == rows["1"][k] for k in ("wins", "net", "mean_turns"))
        if not same:
            print(f"{kind}: the two paths play different games", file=sys.stderr)
            return 1
        py, c = rows["0"]["cpu_seconds"], rows["1"]["cpu_seconds"]
        print(f"{vid}: {kind} against greedy, {games} games without the cube: Python "
              f"{games / py:.2f} games/s, compiled {games / c:.2f} games/s, x{py / c:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
