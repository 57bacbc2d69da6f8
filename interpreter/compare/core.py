"""`tablier compare`: play N games of each arm, and report each figure with its 95 % interval,
the differences between arms with a two-sample test, and the games each figure would need
(docs/compare.md).

`compare(...)` returns the `compare --json` object. The arms are played by one runner
(interpreter/runner.py: in this process, in `--jobs` processes, or on Dask); every line is
written to the arm's `--games-out` file as it comes and summed up in the arm's `ArmTally`, from
which every figure is computed (`arm_json`, `differences`): reading the files back with
`tally_lines` gives the same figures.
"""
from __future__ import annotations

import json
import time
from typing import IO, Any, Sequence

from interpreter.compare import stats
from interpreter.compare.arms import ArmSpec, games_out_paths
from interpreter.compare.tally import ArmTally, Figure

def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [ci[0], ci[1]]


def evaluate(f: Figure) -> dict[str, Any]:
    """The value of a figure, its interval, its n and the games it would need (±1 point)."""
    if f.kind == "proportion":
        value = f.k / f.n if f.n else None
        return {"value": value, "ci": _ci(stats.wilson(f.k, f.n)), "k": f.k, "n": f.n,
                "games_needed": stats.needed_proportion(value)}
    if f.kind == "mean":
        m = f.moments
        assert m is not None
        out: dict[str, Any] = {"mean": m.mean, "ci": _ci(stats.mean_interval(m)), "sd": m.sd,
                               "n": m.n}
        if f.histogram is not None:
            h = f.histogram
            out.update({"median": h.quantile(0.5), "q1": h.quantile(0.25),
                        "q3": h.quantile(0.75)})
        out["games_needed"] = stats.needed_mean(m)
        return out
    r = f.ratio
    assert r is not None
    return {"value": r.value, "ci": _ci(stats.ratio_interval(r)), "n": r.n,
            "games_needed": stats.needed_ratio(r)}


def _value(f: Figure, e: dict[str, Any]) -> float | None:
    return e["mean"] if f.kind == "mean" else e["value"]


def arm_json(spec: ArmSpec, variant_id: str, tally: ArmTally, figures: list[Figure],
             games_asked: int, games_out: str | None) -> dict[str, Any]:
    """One arm of `compare --json`."""
    ev = {f.name: evaluate(f) for f in figures}
    out: dict[str, Any] = {
        "variant": variant_id, "ref": spec.ref, "options": list(spec.overrides),
        "label": spec.label, "games": tally.games, "games_asked": games_asked,
        "games_out": games_out, "finished": tally.finished, "draws": tally.draws,
        "unfinished": tally.games - tally.finished,
        "wins": dict(tally.wins), "first": dict(tally.first),
        "first_player_win_rate": ev["first_player_win_rate"],
        "win_rate": {s: ev[f"win_rate.{s}"] for s in ("white", "black")},
        "draw_rate": ev["draw_rate"], "unfinished_rate": ev["unfinished_rate"],
        "length_throws": ev["length_throws"],
        "length": {}, "lead_changes": ev.get("lead_changes"),
        "values": {}, "cube_levels": {}, "ladder": {}, "rules": {},
    }
    for f in figures:
        group, _, rest = f.name.partition(".")
        if group in ("length", "values", "cube_levels", "ladder"):
            out[group][rest] = ev[f.name]
    for rule in sorted(tally.fired):
        share = ev.get(f"rules.{rule}.share")
        sides = tally.fired_sides[rule]
        out["rules"][rule] = {
            "per_game": _rule_figure(ev[f"rules.{rule}.per_game"]),
            "per_throw": ev[f"rules.{rule}.per_throw"],
            # the rule's share of all the points the rules gave (0 for a rule that gave none;
            # null in an arm whose rules gave no points)
            "share": share["value"] if share else (0.0 if tally.points else None),
            "share_ci": share["ci"] if share else None,
            "fired": {"white": sides[0], "black": sides[1]},
        }
    return out


def _rule_figure(e: dict[str, Any]) -> dict[str, Any]:
    """A per-game rate as the other rates are written: {"value", "ci", ...}."""
    return {"value": e["mean"], "ci": e["ci"], "sd": e["sd"], "n": e["n"],
            "games_needed": e["games_needed"]}


def difference(a: Figure, b: Figure) -> stats.Difference:
    if a.kind == "proportion":
        return stats.diff_proportions(a.k, a.n, b.k, b.n)
    if a.kind == "mean":
        assert a.moments is not None and b.moments is not None
        return stats.diff_means(a.moments, b.moments)
    assert a.ratio is not None and b.ratio is not None
    return stats.diff_ratios(a.ratio, b.ratio)


def differences(labels: Sequence[str], figures: Sequence[list[Figure]]) -> list[dict[str, Any]]:
    """Each figure of each arm against the same figure of the first arm (B − A)."""
    out = []
    base = {f.name: f for f in figures[0]}
    for j in range(1, len(figures)):
        for f in figures[j]:
            a = base.get(f.name)
            if a is None or a.kind != f.kind:
                continue
            d = difference(a, f)
            ea, eb = evaluate(a), evaluate(f)
            out.append({"figure": f.name, "title": f.title, "kind": f.kind,
                        "a": labels[0], "b": labels[j], "arm": j,
                        "value_a": _value(a, ea), "value_b": _value(f, eb),
                        "difference": d.value, "ci": _ci(d.ci), "p": d.p, "test": d.test,
                        "games_needed": d.needed})
    return out


def figure_rows(arms: Sequence[dict[str, Any]], figures: Sequence[list[Figure]]
                ) -> list[tuple[str, str, str, float | None, float | None, float | None, int,
                                int | None]]:
    """(arm, figure, title, value, lo, hi, n, games needed) for every figure of every arm."""
    rows = []
    for arm, figs in zip(arms, figures):
        for f in figs:
            e = evaluate(f)
            ci = e["ci"] or (None, None)
            rows.append((arm["label"], f.name, f.title, _value(f, e), ci[0], ci[1], e["n"],
                         e["games_needed"]))
    return rows


def counted_rules(variant: Any) -> list[str]:
    """The rules whose firings a game counts: scoring, end and value rules that are on."""
    return [rule_id for rule_id, r in variant.model.rules.items()
            if r.enabled and r.kind in ("score", "end", "value")]


def compare(specs: Sequence[ArmSpec], games: int, seed: int, white: str = "random",
            black: str = "random", jobs: int = 1, dask: str | None = None,
            games_out: str | None = None, progress: Any = None,
            keep_figures: list[list[Figure]] | None = None) -> dict[str, Any]:
    """Play and compare the arms; the `compare --json` object. Arm i (from 0) plays the games of
    `simulate --seed SEED+i`, so its games are independent of the other arms'. Interrupted
    (Ctrl-C), the object is over the games finished, with `"interrupted": true`."""
    from interpreter.errors import TablierError
    from interpreter.runner import Arm, Interrupts, run
    from interpreter.sim import _value_names
    from interpreter.variant.build import load_variant

    variants = [load_variant(s.ref, s.overrides) for s in specs]
    for v, s in zip(variants, specs):
        if v.abstract:
            raise TablierError(f"{s.ref!r} is an abstract base; compare variants that "
                               f"extend it")
    arms = [Arm(s.ref, s.overrides, seed + i, games, white, black) for i, s in enumerate(specs)]
    tallies = [ArmTally(_value_names(v)) for v in variants]
    for t, v in zip(tallies, variants):
        t.expect_rules(counted_rules(v))
    paths = games_out_paths(games_out, specs) if games_out is not None else [None] * len(specs)
    handles: list[IO[str] | None] = []
    t0 = time.perf_counter()
    interrupted = False
    from contextlib import ExitStack

    from interpreter.outputs import open_output
    with ExitStack() as opened:
        for p in paths:
            handles.append(None if p is None else opened.enter_context(open_output(p)))
        try:
            with Interrupts() as guard:
                for a, chunk in run(arms, variants, jobs, dask):
                    with guard.held():
                        out = handles[a]
                        for line in chunk:
                            tallies[a].add(line)
                            if out is not None:
                                out.write(json.dumps(line, separators=(",", ":")) + "\n")
                        if progress is not None:
                            progress.advance(len(chunk))
        except KeyboardInterrupt:
            interrupted = True
    seconds = time.perf_counter() - t0
    figures = [t.figures() for t in tallies]
    if keep_figures is not None:
        keep_figures[:] = figures
    arm_objs = [arm_json(s, v.id, t, f, games, p)
                for s, v, t, f, p in zip(specs, variants, tallies, figures, paths)]
    out: dict[str, Any] = {
        "games": games, "seed": seed, "white": white, "black": black,
        "jobs": None if dask else jobs,
        "seconds": round(seconds, 3), "confidence": 0.95, "z": stats.Z,
        "against": "the first arm", "arms": arm_objs,
        "differences": differences([s.label for s in specs], figures),
    }
    if dask is not None:
        out["dask"] = dask
    if interrupted:
        out["interrupted"] = True
    return out
