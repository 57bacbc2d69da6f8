"""Simulation: many bot games of a variant, optionally over several processes.

Each game's seed is derived from the run's seed and the game's index, so the results do not
depend on how many processes share the work (`--jobs 4` gives what `--jobs 1` gives). Games are
summed up as they finish (`Tally`): memory stays flat whatever `--games`. `game_line` (in
interpreter/runner.py, where the games are played) is the one place the line of a finished game
is made (`--games-out`, and what `tablier compare` reads).
"""
from __future__ import annotations

import json
import math
import time
from typing import IO, Any, Sequence

# one game and its line are played where every game of simulate and compare is (re-exported)
from interpreter.engine.game import _EndContext
from interpreter.runner import game_line, game_seed, play_game  # noqa: F401
from interpreter.runner import Arm, Interrupts, run
from interpreter.errors import TablierError
from interpreter.scoring.registry import ladder_class


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def net_of(kind: str, winner: int | None, points: Sequence[int], value: int,
           side: int) -> float:
    """What a finished play gave `side` in its own unit, + won and − lost: the jetons of the
    parties à écrire and combiné, the difference of the match totals in the continuous match
    and a rotation (Tavli), elsewhere the play's value (points at the cube's stake, the
    partie's value)."""
    return ladder_class(kind).net(winner, points, value, side)


class Tally:
    """What `simulate` reports, summed up game by game (nothing kept per game)."""

    def __init__(self, value_names: dict[str, str], unit: str = "points", kind: str = "game"):
        self.names = value_names
        self.unit = unit
        self.kind = kind
        #: white's net result a play, as n, sum and sum of squares (its mean and interval)
        self.net = [0, 0.0, 0.0]
        self.games = self.draws = self.unfinished = 0
        self.wins = {"white": 0, "black": 0}
        self.first = {"white": 0, "black": 0}
        self.first_wins = 0
        self.turns = 0
        #: how many games lasted each number of turns (the replicates' homogeneity test)
        self.turn_counts: dict[int, int] = {}
        self.values: dict[str, int] = {}
        self.cubes: dict[str, int] = {}
        self.fired: dict[str, dict[str, int]] = {}
        self.points = {"white": 0, "black": 0}
        self.won = {"white": 0, "black": 0}
        #: the points each scoring rule gave, by side
        self.rule_points: dict[str, dict[str, int]] = {}

    def add(self, line: dict[str, Any]) -> None:
        self.games += 1
        self.turns += line["turns"]
        self.turn_counts[line["turns"]] = self.turn_counts.get(line["turns"], 0) + 1
        self.first[line["first"]] += 1
        won = line.get("won") or {"white": 0, "black": 0}
        for side in ("white", "black"):
            self.points[side] += line["points"][side]
            self.won[side] += won[side]
        for rule, by_side in line["fired"].items():
            acc = self.fired.setdefault(rule, {"white": 0, "black": 0})
            acc["white"] += by_side["white"]
            acc["black"] += by_side["black"]
        for rule, by_side in (line.get("rule_points") or {}).items():
            acc = self.rule_points.setdefault(rule, {"white": 0, "black": 0})
            acc["white"] += by_side["white"]
            acc["black"] += by_side["black"]
        if not line["finished"]:
            self.unfinished += 1
            return
        winner = line["winner"]
        by = None if winner is None else ("white", "black").index(winner)
        x = net_of(self.kind, by, (won["white"], won["black"]), line["value"], 0)
        self.net[0] += 1
        self.net[1] += x
        self.net[2] += x * x
        if winner is None:
            self.draws += 1
            return
        self.wins[winner] += 1
        self.first_wins += winner == line["first"]
        # the value of each game (single, gammon…) apart from the cube level it was played at;
        # a match counts each of its games
        if isinstance(line.get("game_points"), list):
            # a rotation: the value of each of its games won (the line's is the match's margin)
            names = [self.names.get(str(p), str(p)) for p in line["game_points"] if p]
        else:
            names = line.get("game_results") or \
                [line.get("result") or self.names.get(str(line["value"]), str(line["value"]))]
        for name in names:
            self.values[name] = self.values.get(name, 0) + 1
        for cube in line.get("cube_levels") or ():
            self.cubes[str(cube)] = self.cubes.get(str(cube), 0) + 1

    def summary(self) -> dict[str, Any]:
        finished = self.games - self.unfinished
        decided = finished - self.draws
        counted = sum(self.values.values())
        out: dict[str, Any] = {
            "wins": dict(self.wins), "draws": self.draws, "unfinished": self.unfinished,
            "first": dict(self.first),
            "first_player_wins": self.first_wins,
            "second_player_wins": decided - self.first_wins,
            "decided": decided,
            "first_player_win_rate": round(self.first_wins / decided, 4) if decided else None,
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0.0,
            "values": dict(sorted(self.values.items(), key=lambda kv: -kv[1])),
        }
        # the first to throw over the decided games, draws and unfinished games apart; the
        # draws over all the games; each with its 95 % Wilson interval
        if decided:
            out["first_player_win_interval"] = [round(x, 4)
                                                for x in wilson(self.first_wins, decided)]
        if self.games:
            out["draw_rate"] = round(self.draws / self.games, 4)
            out["draw_interval"] = [round(x, 4) for x in wilson(self.draws, self.games)]
        if decided or self.draws:
            # white's share of the finished plays (a draw counts half), with its 95 % interval
            score = self.wins["white"] + 0.5 * self.draws
            lo, hi = wilson(score, finished)
            out["white_win_rate"] = round(score / finished, 4)
            out["white_win_interval"] = [round(lo, 4), round(hi, 4)]
        n, total, squares = self.net
        if n:
            mean = total / n
            half = 1.96 * math.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1) / n) \
                if n > 1 else 0.0
            out["white_net"] = round(mean, 4)
            out["white_net_interval"] = [round(mean - half, 4), round(mean + half, 4)]
        if self.cubes:
            out["cube_levels"] = dict(sorted(self.cubes.items(), key=lambda kv: int(kv[0])))
        for name in sorted(set(self.names.values()) | set(self.values)):
            if name != "single":
                out[f"{name}_rate"] = round(self.values.get(name, 0) / counted, 4) \
                    if counted else 0.0
        # what the players won on the ladder (points at the cube's stake, holes, jetons...),
        # and the points the scoring rules gave (none in backgammon)
        out["points"] = dict(self.won)
        out["points_unit"] = self.unit
        if self.points["white"] or self.points["black"]:
            out["points_scored"] = dict(self.points)
        if self.fired:
            scored = self.points["white"] + self.points["black"]
            out["rule_firings"] = {}
            for rule, by_side in sorted(self.fired.items()):
                firing: dict[str, Any] = {
                    "white": by_side["white"], "black": by_side["black"],
                    "total": by_side["white"] + by_side["black"]}
                out["rule_firings"][rule] = firing
                if scored:
                    # the points the rule gave and its share of all the points scored
                    pts = self.rule_points.get(rule) or {"white": 0, "black": 0}
                    firing["points"] = pts["white"] + pts["black"]
                    firing["share"] = round(firing["points"] / scored, 6)
        return out


def simulate(variant: Any, ref: str, overrides: Sequence[str], games: int, seed: int,
             white: str = "random", black: str = "random", jobs: int = 1,
             games_out: IO[str] | None = None, dask: str | None = None,
             progress: Any = None, replicates: int = 1,
             metrics: bool = False) -> dict[str, Any]:
    """Play `games` games and summarise them (the `tablier simulate --json` object); with
    `games_out`, write each game's line to it as JSON. `replicates` R: the run R times,
    replicate r with the seed SEED+r, all in one run; the summary is over all their games, with
    each replicate's figures (`by_replicate`) and the tests of their homogeneity
    (`homogeneity`), and each line says its `replicate`. Interrupted (Ctrl-C), the summary is
    of the games finished, with `"interrupted": true`."""
    from interpreter.bounded import MAX_REPLICATES

    if not 1 <= replicates <= MAX_REPLICATES:
        raise TablierError(f"--replicates must be from 1 to {MAX_REPLICATES}, not "
                           f"{replicates}")
    if replicates > 1:
        try:        # asked before the games, not after them
            import scipy  # noqa: F401
        except ImportError:
            raise TablierError("--replicates tests the replicates' homogeneity with scipy: "
                               "pip install 'tablier[stats]'") from None
    t0 = time.perf_counter()

    def new_tally() -> Tally:
        return Tally(_value_names(variant), points_unit(variant),
                     getattr(variant.ladder, "kind", "game"))

    tally = new_tally()
    reps = [new_tally() for _ in range(replicates)] if replicates > 1 else []
    seeds = [seed + r for r in range(replicates)]
    arms = [Arm(ref, tuple(overrides), s, games, white, black, metrics=metrics)
            for s in seeds]
    from interpreter.compare import provenance
    # what made the run, taken before it (the weights as the players read them)
    made = provenance.simulate_provenance(variant, white, black)
    if games_out is not None:
        # the header line: what the games are, before them
        provenance.write_line(games_out, provenance.games_out_header(
            variant.id, variant, overrides, {"white": white, "black": black}, seeds))
    # the playout metrics of `--metrics` (decisiveness, drama, stability, coverage)
    playout = None
    if metrics:
        from interpreter.compare.playout import PlayoutSums
        playout = PlayoutSums()
    interrupted = False
    try:
        with Interrupts() as guard:
            for r, chunk in run(arms, [variant] * replicates, jobs, dask):
                with guard.held():
                    for line in chunk:
                        if reps:
                            line["replicate"] = r
                            reps[r].add(line)
                        tally.add(line)
                        if playout is not None:
                            playout.add(line)
                        if games_out is not None:
                            games_out.write(json.dumps(line, separators=(",", ":")) + "\n")
                    if progress is not None:
                        progress.advance(len(chunk))
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - t0
    out: dict[str, Any] = {
        "variant": variant.id, "games": tally.games, "seed": seed, "white": white,
        "black": black, "jobs": None if dask else jobs, "seconds": round(seconds, 3),
        "games_per_second": round(tally.games / seconds, 1) if seconds > 0 else None,
    }
    if dask is not None:
        out["dask"] = dask
    if interrupted:
        out["interrupted"] = True
        out["games_asked"] = games
    out.update(tally.summary())
    if playout is not None:
        out["metrics"] = playout.summary()
    if reps:
        out.update(replicate_summary(reps, seeds))
    out.update(made)
    return out


#: what `simulate` reports of each replicate
REPLICATE_KEYS = ("games", "decided", "draws", "unfinished", "first_player_win_rate",
                  "first_player_win_interval", "draw_rate", "draw_interval", "white_win_rate",
                  "white_win_interval", "white_net", "white_net_interval", "mean_turns")


def replicate_summary(reps: Sequence[Tally], seeds: Sequence[int]) -> dict[str, Any]:
    """`replicates`, `seeds`, each replicate's figures (`by_replicate`) and the tests that the
    replicates agree (`homogeneity`): χ² of the replicates × 2 table for the first player's
    wins (of the decided games), white's wins (of the decided games) and the draws (of all the
    games); Kruskal–Wallis for the turns; the one-way analysis of variance for white's net
    result a play (compare/stats.py)."""
    try:
        from interpreter.compare import stats
    except ImportError:
        raise TablierError("the tests of replicates' homogeneity are computed with scipy: pip "
                           "install 'tablier[stats]'") from None

    by = []
    for r, (t, s) in enumerate(zip(reps, seeds)):
        summary = t.summary()
        by.append({"replicate": r, "seed": s,
                   **{k: summary[k] for k in REPLICATE_KEYS if k in summary}})
    decided = [t.games - t.unfinished - t.draws for t in reps]
    tests: dict[str, stats.Test | None] = {
        "first_player_win_rate": stats.chi2_rows(
            [(t.first_wins, d) for t, d in zip(reps, decided)]),
        "white_wins": stats.chi2_rows([(t.wins["white"], d) for t, d in zip(reps, decided)]),
        "draw_rate": stats.chi2_rows([(t.draws, t.games) for t in reps]),
        "mean_turns": stats.kruskal_counts([t.turn_counts for t in reps]),
    }
    if all(float(x).is_integer() for t in reps for x in t.net[1:]):
        tests["white_net"] = stats.anova_moments(
            [stats.Moments(int(t.net[0]), int(t.net[1]), int(t.net[2])) for t in reps])
    return {"replicates": len(reps), "seeds": list(seeds), "by_replicate": by,
            "homogeneity": {k: None if v is None else v.json() for k, v in tests.items()}}


def points_unit(variant: Any) -> str:
    """What a ladder's score counts (`"won"` of a game's line)."""
    return ladder_class(variant.ladder).net_unit


def _value_names(variant: Any) -> dict[str, str]:
    """Names for game values from the variant's value rules (2 → "gammon", …); 1 → "single"."""
    names = {"1": "single"}
    for rule_id, _when, value in variant.rules.value:
        names.setdefault(str(int(value(variant.start, None, None, 0, 0, 0,
                                       _EndContext((0, 0))))), rule_id)
    return names


def summary_text(summary: dict[str, Any]) -> str:
    """`simulate`'s summary as a readable table."""
    lines: list[str] = []
    head = ("variant", "games", "seed", "white", "black", "jobs", "dask", "seconds",
            "games_per_second", "decided", "draws", "unfinished", "mean_turns",
            "first_player_win_rate")
    if summary.get("interrupted"):
        lines.append(f"interrupted: {summary['games']} of {summary['games_asked']} games "
                     f"finished; the figures are over those")
    for key in head:
        if key in summary:
            lines.append(f"{key.replace('_', ' '):>22}  {summary[key]}")
    titles = {"wins": "wins", "first": "threw first",
              "points": f"{summary.get('points_unit', 'points')} won",
              "points_scored": "points scored"}
    for key, title in titles.items():
        if key in summary:
            v = summary[key]
            lines.append(f"{title:>22}  white {v['white']}, black {v['black']}")
    if "white_win_rate" in summary:
        lo, hi = summary["white_win_interval"]
        lines.append(f"{'white win rate':>22}  {summary['white_win_rate']:.3f} "
                     f"(95 % interval {lo:.3f}-{hi:.3f})")
    if "white_net" in summary:
        lo, hi = summary["white_net_interval"]
        lines.append(f"{'white net a play':>22}  {summary['white_net']:+.3f} "
                     f"{summary.get('points_unit', 'points')} (95 % interval {lo:+.3f} to "
                     f"{hi:+.3f})")
    if "first_player_wins" in summary:
        lines.append(f"{'wins by turn order':>22}  first {summary['first_player_wins']}, "
                     f"second {summary['second_player_wins']}")
    for key, title in (("values", "game values"), ("cube_levels", "cube levels")):
        if summary.get(key):
            total = sum(summary[key].values()) or 1
            lines.append(f"{title:>22}  " + ", ".join(
                f"{name} {n} ({100 * n / total:.1f} %)" for name, n in summary[key].items()))
    for rate, interval, title in (
            ("first_player_win_rate", "first_player_win_interval", "first player, decided"),
            ("draw_rate", "draw_interval", "draw rate")):
        if interval in summary:
            lo, hi = summary[interval]
            lines.append(f"{title:>22}  {summary[rate]:.3f} (95 % interval {lo:.3f}-{hi:.3f})")
    for key, value in summary.items():
        if key.endswith("_rate") and key not in ("first_player_win_rate", "white_win_rate",
                                                 "draw_rate"):
            lines.append(f"{key.replace('_', ' '):>22}  {value}")
    if summary.get("by_replicate"):
        lines += ["", f"{summary['replicates']} replicates (seeds "
                  f"{', '.join(map(str, summary['seeds']))}); the figures above are over all "
                  f"their games"]
        for rep in summary["by_replicate"]:
            first = rep.get("first_player_win_rate")
            lines.append(f"{'replicate ' + str(rep['replicate'] + 1):>22}  seed {rep['seed']}: "
                         f"first player {first if first is not None else '—'}, "
                         f"draws {rep.get('draw_rate', '—')}, mean turns {rep['mean_turns']}")
        for key, h in summary.get("homogeneity", {}).items():
            if h is not None:
                mc = ", Monte Carlo" if h["method"] == "Monte Carlo" else ""
                what = {"first_player_win_rate": "first player", "draw_rate": "draws",
                        "mean_turns": "turns"}.get(key, key.replace("_", " "))
                lines.append(f"{'agree? ' + what:>22}  p = {h['p_value']:.3g} "
                             f"({h['test']}{mc})")
        lines.append("")
    if summary.get("metrics"):
        from interpreter.compare.playout import summary_lines
        lines += summary_lines(summary["metrics"])
    firings = summary.get("rule_firings")
    if firings:
        width = max(len(r) for r in firings)
        shares = any("share" in n for n in firings.values())
        lines += ["", f"{'rule':<{width}}  {'white':>9}  {'black':>9}  {'total':>9}  per game"
                  + ("  share" if shares else "")]
        games = summary.get("games") or 1
        for rule, n in firings.items():
            lines.append(f"{rule:<{width}}  {n['white']:>9}  {n['black']:>9}  {n['total']:>9}  "
                         f"{n['total'] / games:8.3f}" +
                         (f"  {100 * n['share']:.2f} %" if "share" in n else ""))
    return "\n".join(lines)
