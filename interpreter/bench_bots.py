"""Strength and speed of the bots: `python3 -m interpreter.bench_bots` (docs/bots.md).

`match_up(variant, a, b, games)` plays `games` plays of the variant between player kinds a and
b, a taking white in the even-numbered plays and black in the odd ones (colours alternated),
each play seeded as `tablier simulate` seeds it, and reports a's wins with a 95 % interval (the
Wilson score interval), its net result in the play's own unit (points for a game, the ladder's
value for a partie: holes' multiplier, jetons, match points) with a 95 % interval from the
plays' spread, the mean turns, and the plays and decisions per second of CPU time.

    python3 -m interpreter.bench_bots vs triktrak search:1 greedy --games 100
    python3 -m interpreter.bench_bots gnubg search:2:learned --games 400
    python3 -m interpreter.bench_bots grade learned --games 100 --ply 0
    python3 -m interpreter.bench_bots curve backgammon DIR --games 400

Every figure of docs/bots.md comes from one of these commands (they print JSON lines).
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
import sys
import time
from typing import Any, Sequence

from interpreter.engine.game import Game
from interpreter.players.base import capabilities_of
from interpreter.native import accelerate_net
from interpreter.players.kinds import make_player, uses_net
from interpreter.sim import wilson


def mean_interval(xs: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = z * sd / math.sqrt(n)
    return m, m - h, m + h


def _net(result: Any, side: int) -> float:
    """The play's result for `side`, in its ladder's own unit (`Ladder.net`)."""
    return type(result.ladder).net(result.winner, result.points, result.value, side)


def match_up(variant: Any, a: str, b: str, games: int, seed: int = 1,
             max_turns: int = 20000, progress: bool = False) -> dict[str, Any]:
    wins = 0.0
    nets: list[float] = []
    turns = 0
    cpu = 0.0
    if uses_net(a) or uses_net(b):
        accelerate_net(variant, games)
    for i in range(games):
        a_side = i % 2
        gs = f"{seed}/{i}"
        kinds = (a, b) if a_side == 0 else (b, a)
        players = (make_player(kinds[0], f"{gs}:white", variant),
                   make_player(kinds[1], f"{gs}:black", variant))
        t0 = time.process_time()
        result = Game(variant, gs, keep_record=False, max_turns=max_turns,
                      doubles=capabilities_of(players)).run(players)
        cpu += time.process_time() - t0
        if result.winner == a_side:
            wins += 1
        elif result.winner is None:
            wins += 0.5
        nets.append(_net(result, a_side))
        turns += result.turns
        if progress:
            print(f"  {i + 1}/{games}: {wins:g} wins", file=sys.stderr, flush=True)
    lo, hi = wilson(wins, games)
    m, mlo, mhi = mean_interval(nets)
    return {"variant": variant.id, "player": a, "opponent": b, "games": games, "seed": seed,
            "wins": wins, "win_rate": round(wins / games, 4),
            "win_interval": [round(lo, 4), round(hi, 4)],
            "net": round(m, 4), "net_interval": [round(mlo, 4), round(mhi, 4)],
            "mean_turns": round(turns / games, 1),
            "cpu_seconds": round(cpu, 1),
            "plays_per_cpu_second": round(games / cpu, 3) if cpu else None}


def _variant(ref: str, overrides: Sequence[str]) -> Any:
    from interpreter.variant.build import load_variant
    return load_variant(ref, list(overrides))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m interpreter.bench_bots",
                                 description="strength and speed of the bots (docs/bots.md)")
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("vs", help="player A against player B in a variant")
    p.add_argument("variant")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", dest="overrides", action="append", default=[])
    p.add_argument("--progress", action="store_true")
    p = sub.add_parser("gnubg", help="a player against GNU Backgammon 0-ply, cubeless money "
                       "games of backgammon, colours alternated")
    p.add_argument("a")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--progress", action="store_true")
    p = sub.add_parser("grade", help="a player's checker plays in backgammon graded by gnubg")
    p.add_argument("a")
    p.add_argument("--opponent", default="gnubg")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--ply", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("positions", help="players graded by gnubg on the same positions: "
                       "those of games between --players (cubeless money games by default)")
    p.add_argument("kinds", nargs="+", metavar="PLAYER")
    p.add_argument("--players", nargs=2, default=["learned", "gnubg"], metavar=("A", "B"))
    p.add_argument("--own", action="store_true",
                   help="grade the plays of A only (A's own positions in its own games)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", dest="overrides", action="append", default=None)
    p = sub.add_parser("curve", help="the learning curve: each snapshot of a training run "
                       "against greedy (or --opponent)")
    p.add_argument("variant")
    p.add_argument("snapshots", help="the --snapshots directory of `tablier train`")
    p.add_argument("--opponent", default="greedy",
                   help="the player each snapshot meets (gnubg: cubeless money games, as the "
                        "gnubg command plays them)")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--every", type=int, default=1, help="every k-th snapshot")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", dest="overrides", action="append", default=[])
    p = sub.add_parser("plot", help="draw learning curves (the JSON lines of `curve`) as an "
                       "SVG or PNG (needs matplotlib)")
    p.add_argument("curves", nargs="+", metavar="CURVE.jsonl")
    p.add_argument("--out", required=True, metavar="FILE.svg")
    args = ap.parse_args(argv)
    if args.what == "vs":
        v = _variant(args.variant, args.overrides)
        out = match_up(v, args.a, args.b, args.games, args.seed, progress=args.progress)
        out["options"] = args.overrides
        print(json.dumps(out), flush=True)
    elif args.what == "gnubg":
        v = _variant("backgammon", ["ladder.doubling=false"])
        out = match_up(v, args.a, "gnubg", args.games, args.seed, progress=args.progress)
        out["options"] = ["ladder.doubling=false"]
        print(json.dumps(out), flush=True)
    elif args.what == "grade":
        from interpreter.analyse import grade_games
        print(json.dumps(grade_games(args.a, args.opponent, args.games, args.ply, args.seed)),
              flush=True)
    elif args.what == "positions":
        from interpreter.analyse import position_errors
        print(json.dumps(position_errors(
            args.kinds, args.games, args.seed, tuple(args.players),
            ("ladder.doubling=false",) if args.overrides is None else tuple(args.overrides),
            own=args.own)),
            flush=True)
    elif args.what == "curve":
        overrides = list(args.overrides)
        if args.opponent == "gnubg" and "ladder.doubling=false" not in overrides:
            overrides.append("ladder.doubling=false")
        v = _variant(args.variant, overrides)
        snaps = sorted(Path(args.snapshots).glob(f"{v.id}-*.npz"))[::args.every]
        for snap in snaps:
            out = match_up(v, f"learned:{snap}", args.opponent, args.games, args.seed)
            out["trained_plays"] = int(snap.stem.rsplit("-", 1)[1])
            out["options"] = overrides
            print(json.dumps(out), flush=True)
    elif args.what == "plot":
        plot_curves(args.curves, args.out)
    return 0


def plot_curves(paths: Sequence[str], out: str) -> None:
    """One line per curve file: the win rate against its opponent (greedy, or the one its
    lines name) with its 95 % interval as a band, by the plays trained on."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    many = len(paths) > 3
    fig, ax = plt.subplots(figsize=(7.0, 5.6 if many else 4.2))
    opponents: set[str] = set()
    for path in paths:
        rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        rows.sort(key=lambda r: r["trained_plays"])
        if not rows:
            continue
        opponents.add(str(rows[0].get("opponent", "greedy")))
        x = [r["trained_plays"] for r in rows]
        y = [r["win_rate"] for r in rows]
        lo = [r["win_interval"][0] for r in rows]
        hi = [r["win_interval"][1] for r in rows]
        label = f"{rows[0]['variant']} ({rows[0]['games']} plays at each point)"
        ax.plot(x, y, marker="o", markersize=3, label=label)
        # many curves: lighter bands, so that each line stays readable
        ax.fill_between(x, lo, hi, alpha=0.08 if many else 0.2)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    # from the first play to the last: most of the learning is in the first thousand
    ax.set_xscale("log")
    ax.set_xlabel("plays of self-play trained on (logarithmic)")
    against = opponents.pop() if len(opponents) == 1 else "its opponent"
    ax.set_ylabel(f"share won against {against} (95 % interval)")
    ax.set_ylim(0.0, 1.0)
    ax.grid(True, alpha=0.3)
    if many:
        # below the axes, where it hides no point
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize="small")
    else:
        ax.legend(loc="lower right")
    ax.set_title(f"The self-taught player (one throw ahead) against {against}")
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    raise SystemExit(main())
