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

from contextlib import ExitStack
import json
import time
from dataclasses import replace
from typing import IO, Any, Sequence

from interpreter.compare import design, provenance, stats
from interpreter.compare.arms import ArmSpec, games_out_paths
from interpreter.compare.playout import PLAYOUT_NAMES
from interpreter.compare.tally import ArmTally, Figure, x_kind
from interpreter.errors import TablierError
from interpreter.players import kinds

def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [ci[0], ci[1]]


def evaluate(f: Figure) -> dict[str, Any]:
    """The value of a figure, its interval (within the figure's range), how the interval was
    made, its n and the games it would need (±1 point)."""
    if f.kind == "proportion":
        value = f.k / f.n if f.n else None
        return {"value": value, "ci": _ci(stats.wilson(f.k, f.n)), "k": f.k, "n": f.n,
                "method": "wilson", "games_needed": stats.needed_proportion(value)}
    if f.kind == "balance":
        # |2p − 1| with p white's share of the decided games: the image of p's Wilson interval
        p = f.k / f.n if f.n else None
        w = stats.wilson(f.k, f.n)
        if p is None or w is None:
            return {"value": None, "ci": None, "k": f.k, "n": f.n, "method": "wilson",
                    "games_needed": None}
        lo, hi = abs(2 * w[0] - 1), abs(2 * w[1] - 1)
        ci = [0.0, max(lo, hi)] if w[0] <= 0.5 <= w[1] else [min(lo, hi), max(lo, hi)]
        return {"value": abs(2 * p - 1), "ci": ci, "k": f.k, "n": f.n, "method": "wilson",
                "games_needed": stats.needed_proportion(p)}
    if f.kind == "mean":
        m = f.moments
        assert m is not None
        out: dict[str, Any] = {"mean": m.mean, "ci": _ci(stats.mean_interval(m)), "sd": m.sd,
                               "n": m.n, "method": stats.mean_method(m)}
        if f.histogram is not None:
            h = f.histogram
            out.update({"median": h.quantile(0.5), "q1": h.quantile(0.25),
                        "q3": h.quantile(0.75)})
        out["games_needed"] = stats.needed_mean(m)
        return out
    r = f.ratio
    assert r is not None
    return {"value": r.value, "ci": _ci(stats.ratio_interval(r, f.events, f.unit, f.upper)),
            "n": r.n, "method": stats.ratio_method(r, f.events),
            "games_needed": stats.needed_ratio(r)}


def _value(f: Figure, e: dict[str, Any]) -> float | None:
    return e["mean"] if f.kind == "mean" else e["value"]


#: the playout metrics of an arm, each also a figure of the arm (tally.figures)
METRICS = ("branching_factor", "forced_rate", "completion", "balance", "lead_changes")


def arm_json(spec: ArmSpec, variant_id: str, tally: ArmTally, figures: list[Figure],
             games_asked: int, games_out: str | None, players: dict[str, str] | None = None
             ) -> dict[str, Any]:
    """One arm of `compare --json`."""
    ev = {f.name: evaluate(f) for f in figures}
    first = ev["first_player_win_rate"]
    # does the first to throw win more often than not? The exact binomial test against 1/2,
    # over the decided games (draws and unfinished games apart)
    first["p_value"] = stats.binomial_p(first["k"], first["n"]) if first["n"] else None
    first["test"] = "exact binomial against 1/2"
    out: dict[str, Any] = {
        "variant": variant_id, "ref": spec.ref, "options": list(spec.overrides),
        "label": spec.label, "players": players or {"white": "random", "black": "random"},
        "games": tally.games, "games_asked": games_asked,
        "games_out": games_out, "finished": tally.finished, "decided": tally.decided,
        "draws": tally.draws, "unfinished": tally.games - tally.finished,
        "wins": dict(tally.wins), "first": dict(tally.first),
        "first_player_win_rate": first,
        "win_rate": {s: ev[f"win_rate.{s}"] for s in ("white", "black")},
        "draw_rate": ev["draw_rate"], "unfinished_rate": ev["unfinished_rate"],
        "length_throws": ev["length_throws"], "value_points": ev["value_points"],
        "length": {}, "lead_changes": ev.get("lead_changes"),
        "branching_factor": ev["branching_factor"], "forced_rate": ev["forced_rate"],
        "completion": ev["completion"], "balance": ev["balance"],
        "values": {}, "cube_levels": {}, "ladder": {}, "rules": {},
    }
    for f in figures:
        group, _, rest = f.name.partition(".")
        if group in ("length", "values", "cube_levels", "ladder"):
            out[group][rest] = ev[f.name]
        elif f.name in PLAYOUT_NAMES:
            # the playout metrics of `--metrics` (decisiveness, drama, stability, coverage)
            out[f.name] = ev[f.name]
    for rule in sorted(tally.fired):
        share = ev.get(f"rules.{rule}.share")
        sides = tally.fired_sides[rule]
        pts = tally.rule_points.get(rule)
        out["rules"][rule] = {
            "per_game": _rule_figure(ev[f"rules.{rule}.per_game"]),
            "per_throw": ev[f"rules.{rule}.per_throw"],
            # the rule's share of all the points the rules gave (0 for a rule that gave none;
            # null in an arm whose rules gave no points)
            "share": share["value"] if share else (0.0 if tally.points else None),
            "share_ci": share["ci"] if share else None,
            "fired": {"white": sides[0], "black": sides[1]},
            "points": pts.y if pts else 0,
        }
    out["points"] = tally.points
    return out


def _rule_figure(e: dict[str, Any]) -> dict[str, Any]:
    """A per-game rate as the other rates are written: {"value", "ci", ...}."""
    return {"value": e["mean"], "ci": e["ci"], "sd": e["sd"], "n": e["n"],
            "method": e["method"], "games_needed": e["games_needed"]}


def difference(a: Figure, b: Figure) -> stats.Difference:
    if a.kind == "proportion":
        return stats.diff_proportions(a.k, a.n, b.k, b.n)
    if a.kind == "mean":
        assert a.moments is not None and b.moments is not None
        return stats.diff_means(a.moments, b.moments)
    assert a.ratio is not None and b.ratio is not None
    events = None if a.events is None or b.events is None else (a.events, b.events)
    return stats.diff_ratios(a.ratio, b.ratio, events, (a.unit, b.unit))


def _uninformative(a: Figure, b: Figure) -> bool:
    """The same constant in both arms (a rule that never fires, games that all end): no test."""
    ea, eb = evaluate(a), evaluate(b)
    va, vb = _value(a, ea), _value(b, eb)
    if va is None or vb is None:
        return True
    if a.kind == "proportion":
        return (a.k == 0 and b.k == 0) or (a.k == a.n and b.k == b.n)
    if a.kind == "mean":
        assert a.moments is not None and b.moments is not None
        return va == vb and not a.moments.sd and not b.moments.sd
    assert a.ratio is not None and b.ratio is not None
    return a.ratio.y == 0 and b.ratio.y == 0


def paired_difference(a: Figure, pair: stats.PairedSums) -> stats.Difference:
    """B − A of one figure over the paired games: the sign test for proportions and rare
    counts (either arm's interval exact), the paired t test otherwise."""
    ea = evaluate(a)
    rare = ea.get("method") == "exact"
    if a.kind == "proportion":
        return stats.diff_paired(pair, True, proportion=True)
    return stats.diff_paired(pair, rare, relative_to=_value(a, ea))


def _untested(name: str, title: str, kind: str, labels: Sequence[str], ia: int, ib: int,
              va: float | None, vb: float | None, fam: str | None, why: str,
              paired: bool) -> dict[str, Any]:
    """A difference shown side by side but not tested (`why`)."""
    return {"figure": name, "title": title, "kind": kind, "a": labels[ia], "b": labels[ib],
            "arm": ib, "arm_a": ia, "value_a": va, "value_b": vb, "difference": None,
            "ci": None, "p": None, "p_value": None, "p_adjusted": None, "test": "not tested",
            "paired": paired, "games_needed": None, "family": fam, "tested": False,
            "why": why}


def _shown(f: Figure | None) -> float | None:
    return None if f is None else _value(f, evaluate(f))


def differences(labels: Sequence[str], figures: Sequence[list[Figure]],
                pairs: Sequence[dict[str, stats.PairedSums]] | None = None,
                comparisons: Sequence[tuple[int, int]] | None = None,
                structures: Sequence[design.Structure] | None = None
                ) -> list[dict[str, Any]]:
    """Each tested figure of arm B against the same figure of arm A (B − A), for each pair
    (A, B) of `comparisons` (by default every arm against the first); with `pairs` (each
    comparison's paired sums, in the same order), paired differences. With the arms'
    `structures`, a figure in different units in the two arms, one an arm has not got or one
    its rules make constant is shown but not tested (`"tested": false` and `why`); a value or
    cube level one arm never showed but its rules allow is 0 there (design.py)."""
    out = []
    comps = list(comparisons) if comparisons is not None else \
        [(0, j) for j in range(1, len(figures))]
    paired = pairs is not None
    for c, (ia, ib) in enumerate(comps):
        amap = {f.name: f for f in figures[ia]}
        bmap = {f.name: f for f in figures[ib]}
        sa = structures[ia] if structures is not None else None
        sb = structures[ib] if structures is not None else None
        unit = sa.unit if sa is not None else "points"
        lead = sa.lead if sa is not None else "points"
        for name in list(bmap) + [n for n in amap if n not in bmap]:
            a, f = amap.get(name), bmap.get(name)
            if (a is not None and not a.tested) or (f is not None and not f.tested):
                continue
            if a is None or f is None:
                if sa is None or sb is None:
                    continue
                like = a if a is not None else f
                assert like is not None
                if a is None:
                    a = design.fill(name, like, amap, sa, sb)
                    missing = None if a is not None else sa
                else:
                    f = design.fill(name, like, bmap, sb, sa)
                    missing = None if f is not None else sb
                if missing is not None:
                    out.append(_untested(name, like.title, like.kind, labels, ia, ib,
                                         _shown(a), _shown(f), design.family(like, unit, lead),
                                         design.absent_why(name, missing), paired))
                    continue
            assert a is not None and f is not None
            if a.kind != f.kind:
                continue
            if sa is not None and sb is not None:
                why = design.units_why(name, sa, sb)
                if why is not None:
                    out.append(_untested(name, f.title, f.kind, labels, ia, ib, _shown(a),
                                         _shown(f), None, why, paired))
                    continue
                ca, cb = design.constant_why(name, sa), design.constant_why(name, sb)
                if ca is not None and cb is not None:
                    continue                    # the same constant in both, by their rules
                if ca is not None or cb is not None:
                    out.append(_untested(name, f.title, f.kind, labels, ia, ib, _shown(a),
                                         _shown(f), design.family(f, unit, lead), ca or cb or "",
                                         paired))
                    continue
            if pairs is not None:
                pair = pairs[c].get(name)
                if pair is None or pair.n == 0:
                    continue
                if _uninformative(a, f) and pair.up == pair.down == 0:
                    continue
                d = paired_difference(a, pair)
            else:
                if _uninformative(a, f):
                    continue
                d = difference(a, f)
            if d.p is None:
                continue
            ea, eb = evaluate(a), evaluate(f)
            out.append({"figure": f.name, "title": f.title, "kind": f.kind,
                        "a": labels[ia], "b": labels[ib], "arm": ib, "arm_a": ia,
                        "value_a": _value(a, ea), "value_b": _value(f, eb),
                        "difference": d.value, "ci": _ci(d.ci), "p": d.p, "p_value": d.p,
                        "test": d.test, "paired": paired,
                        "games_needed": d.needed, "family": design.family(f, unit, lead),
                        "tested": True})
    return out


def adjust(arms: Sequence[dict[str, Any]], diffs: list[dict[str, Any]],
           omnibus: Sequence[dict[str, Any]] = ()) -> dict[str, dict[str, Any]]:
    """Holm's adjustment within each family of tests (design.family: the unit of the figures
    it holds), each arm's first-player test against 1/2 in the "proportion" family with the
    rates and shares, the omnibus tests in their figures' families: sets each `p_adjusted`;
    the families with the number of tests each ({FAMILY: {"tests": n, "adjustment":
    "Holm"}})."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in arms:
        first = a["first_player_win_rate"]
        first["family"] = "proportion"
        if first.get("p_value") is not None:
            groups.setdefault("proportion", []).append(first)
    for t in omnibus:
        groups.setdefault(t["family"], []).append(t)
    for d in diffs:
        if d.get("tested", True) and d.get("p_value") is not None:
            groups.setdefault(d.get("family") or "proportion", []).append(d)
    for tests in groups.values():
        for t, q in zip(tests, stats.holm([t["p_value"] for t in tests])):
            t["p_adjusted"] = q
    for a in arms:
        a["first_player_win_rate"].setdefault("p_adjusted", None)
    for d in diffs:
        d.setdefault("p_adjusted", None)
    return {fam: {"tests": len(tests), "adjustment": "Holm"} for fam, tests in groups.items()}


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


def _labelled(specs: Sequence[ArmSpec], variants: Sequence[Any]) -> list[ArmSpec]:
    """An arm given as a file is labelled by its variant's id, not its path."""
    out = []
    for s, v in zip(specs, variants):
        if s.label.startswith(s.ref) and s.ref != v.id and \
                (s.ref.endswith(".toml") or "/" in s.ref):
            s = replace(s, label=v.id + s.label[len(s.ref):])
        out.append(s)
    seen: dict[str, int] = {}
    for s in out:
        seen[s.label] = seen.get(s.label, 0) + 1
    return [replace(s, label=f"{i + 1}:{s.label}") if seen[s.label] > 1 else s
            for i, s in enumerate(out)]


#: the ratio figures whose denominator is not a kind of `tally.x_kind`
_RATIOS = ("branching_factor", "forced_rate")


class _Pairing:
    """Game i of each arm against game i of the other arm of each comparison (A, B), as the
    lines come (each arm's in order, the arms interleaved): a game waits only until its
    partner has come, and until every arm's game i has come for the omnibus tests of paired
    arms (`omnibus`: design.PairedOmnibus). A game is keyed by its replicate and number. A
    figure first met after some pairs starts from the sums of its denominator's kind over
    those pairs (its numerator was 0 in them)."""

    def __init__(self, tallies: Sequence[ArmTally], arms: int,
                 comparisons: Sequence[tuple[int, int]], omnibus: bool = False) -> None:
        self.tallies = tallies
        self.arms = arms
        self.comparisons = list(comparisons)
        #: each game's observations in the arms that have played it (until all have)
        self.waiting: dict[Any, dict[int, Any]] = {}
        self.sums: list[dict[str, stats.PairedSums]] = [{} for _ in self.comparisons]
        self.xsums: list[dict[str, stats.PairedSums]] = [{} for _ in self.comparisons]
        self.blocks = design.PairedOmnibus(arms) if omnibus else None

    def add(self, a: int, line: dict[str, Any], key: Any = None) -> None:
        key = int(line["game"]) if key is None else key
        got = self.waiting.setdefault(key, {})
        got[a] = self.tallies[a].observations(line)
        for c, (ia, ib) in enumerate(self.comparisons):
            if a in (ia, ib) and ia in got and ib in got:
                self._pair(c, got[ia], got[ib])
        if len(got) == self.arms:
            del self.waiting[key]
            if self.blocks is not None:
                self.blocks.add([got[j] for j in range(self.arms)])

    def _pair(self, c: int, obs_a: Any, obs_b: Any) -> None:
        oa, xa = obs_a
        ob, xb = obs_b
        sums, xsums = self.sums[c], self.xsums[c]
        for name in set(oa) | set(ob) | set(sums):
            kind = x_kind(name)
            acc = sums.get(name)
            if acc is None:
                prior = xsums.get(kind)
                acc = sums[name] = replace(prior) if prior is not None else stats.PairedSums()
                acc.every_game = kind in ("throws", "points") or name in _RATIOS
            acc.add(oa.get(name, (0, xa[kind])), ob.get(name, (0, xb[kind])))
        for kind in xa:
            xsums.setdefault(kind, stats.PairedSums()).add((0, xa[kind]), (0, xb[kind]))


def compare(specs: Sequence[ArmSpec], games: int, seed: int, white: str = "random",
            black: str = "random", jobs: int = 1, dask: str | None = None,
            games_out: str | None = None, progress: Any = None,
            keep_figures: list[list[Figure]] | None = None,
            paired: bool = False, replicates: int = 1, against: str | None = None,
            pairs: str | None = None, metrics: bool = False) -> dict[str, Any]:
    """Play and compare the arms; the `compare --json` object. Arm i (from 0) plays the games of
    `simulate --seed SEED+i`, so its games are independent of the other arms'; `paired`: every
    arm plays the games of `simulate --seed SEED` (game i of each arm with the same seed and
    dice: common random numbers), and the differences are paired game by game. `replicates`
    R: the whole design R times, replicate r with the seed SEED+r (what `compare --seed
    SEED+r` plays), all in one run; each figure is over all the replicates' games, with each
    replicate's value and the test of their homogeneity. `against` (an arm's label or number
    from 1) or `pairs="all"`: the comparisons made (design.comparisons). Interrupted (Ctrl-C),
    the object is over the games finished, with `"interrupted": true`."""
    from interpreter.runner import Arm, Interrupts, run
    from interpreter.sim import _value_names
    from interpreter.variant.build import load_variant

    if not 1 <= replicates <= design.MAX_REPLICATES:
        raise TablierError(f"--replicates must be from 1 to {design.MAX_REPLICATES}, not "
                           f"{replicates}")
    variants = [load_variant(s.ref, s.overrides) for s in specs]
    for v, s in zip(variants, specs):
        if v.abstract:
            raise TablierError(f"{s.ref!r} is an abstract base; compare variants that "
                               f"extend it")
    specs = _labelled(specs, variants)
    labels = [s.label for s in specs]
    comps, against_label = design.comparisons(labels, against, pairs)
    players = [s.players(white, black) for s in specs]
    k = len(specs)
    # arm i of replicate r is runner arm r·k + i
    arms = [Arm(s.ref, s.overrides, seed + r if paired else seed + r + i, games, pl["white"],
                pl["black"], metrics=metrics) for r in range(replicates)
            for i, (s, pl) in enumerate(zip(specs, players))]
    tallies = [ArmTally(_value_names(v)) for v in variants]
    reps = [[ArmTally(_value_names(v)) for v in variants] for _ in range(replicates)] \
        if replicates > 1 else []
    for t, v in zip(tallies, variants):
        t.expect_rules(counted_rules(v))
    for row in reps:
        for t, v in zip(row, variants):
            t.expect_rules(counted_rules(v))
    pairing = _Pairing(tallies, k, comps, omnibus=k >= 3) if paired else None
    paths = games_out_paths(games_out, specs) if games_out is not None else [None] * len(specs)
    handles: list[IO[str] | None] = []
    t0 = time.perf_counter()
    interrupted = False

    from interpreter.outputs import open_output
    with ExitStack() as opened:
        for p in paths:
            handles.append(None if p is None else opened.enter_context(open_output(p)))
        # each file's first line: what its games are (compare/provenance.py)
        provenance.write_headers(handles, [s.label for s in specs], variants,
                                 [s.overrides for s in specs], players,
                                 [[arms[r * k + i].seed for r in range(replicates)]
                                  for i in range(k)], paired)
        try:
            with Interrupts() as guard:
                for a, chunk in run(arms, [variants[a % k] for a in range(len(arms))], jobs,
                                    dask):
                    r, i = divmod(a, k)
                    with guard.held():
                        fh = handles[i]
                        for line in chunk:
                            if replicates > 1:
                                line["replicate"] = r
                                reps[r][i].add(line)
                            tallies[i].add(line)
                            if pairing is not None:
                                pairing.add(i, line, (r, int(line["game"])))
                            if fh is not None:
                                fh.write(json.dumps(line, separators=(",", ":")) + "\n")
                        if progress is not None:
                            progress.advance(len(chunk))
        except KeyboardInterrupt:
            interrupted = True
    seconds = time.perf_counter() - t0
    figures = [t.figures() for t in tallies]
    if keep_figures is not None:
        keep_figures[:] = figures
    structures = [design.structure(s.label, v, counted_rules(v), _value_names(v))
                  for s, v in zip(specs, variants)]
    arm_objs = [arm_json(s, v.id, t, f, games * replicates, p, pl)
                for s, v, t, f, p, pl in zip(specs, variants, tallies, figures, paths, players)]
    for i, (obj, v, pl) in enumerate(zip(arm_objs, variants, players)):
        obj.update(networks_seen(v, pl))
        obj["unit"] = structures[i].unit
        obj["seeds"] = [arms[r * k + i].seed for r in range(replicates)]
        if reps:
            design.annotate_replicates(obj, figures[i], [row[i] for row in reps],
                                       obj["seeds"], evaluate)
    diffs = differences(labels, figures, pairing.sums if pairing is not None else None,
                        comps, structures)
    omni = design.omnibus(labels, figures, structures,
                          pairing.blocks if pairing is not None else None)
    families = adjust(arm_objs, diffs, omni)
    out: dict[str, Any] = {
        "games": games, "seed": seed, "white": white, "black": black,
        "paired": paired, "jobs": None if dask else jobs,
        "seconds": round(seconds, 3), "confidence": 0.95, "z": stats.Z,
        "replicates": replicates, "seeds": [seed + r for r in range(replicates)],
        "against": against_label, "pairs": [[labels[a], labels[b]] for a, b in comps],
        "tests": sum(f["tests"] for f in families.values()), "adjustment": "Holm",
        "families": families, "omnibus": omni,
        "arms": arm_objs, "differences": diffs,
        "caveat": caveat(players, [(s.label, a) for s, a in zip(specs, arm_objs)]),
    }
    provenance.stamp(out, variants, players)
    if dask is not None:
        out["dask"] = dask
    if interrupted:
        out["interrupted"] = True
    return out


#: the players whose games say little about the game as people play it (players/kinds.py)
WEAK = kinds.WEAK


def networks_seen(variant: Any, players: dict[str, str]) -> dict[str, Any]:
    """What an arm's players with a network were trained for (`trained_for`: the variant id of
    each side's network, null for a player without one) and the keys the arm's rules differ in
    from theirs (`differs`; players/rules_seen.py)."""
    trained: dict[str, str | None] = {}
    differs: list[str] = []
    for side in ("white", "black"):
        got = kinds.trained_for(players.get(side, "random"), variant)
        trained[side] = None if got is None else got[0]
        if got is not None:
            differs += [k for k in got[1] if k not in differs]
    from interpreter.compare.training import network_names

    return {"trained_for": trained, "differs": sorted(differs),
            "networks": network_names(variant, players)}


def caveat(players: Sequence[dict[str, str]],
           arms: Sequence[tuple[str, dict[str, Any]]] = ()) -> str:
    """What the report says of its players: every figure is of the game as they play it; and
    of each arm whose rules differ from those its players' networks were trained under."""
    text = _players_caveat(players)
    for label, arm in arms:
        if arm.get("differs"):
            ids = ", ".join(dict.fromkeys(v for v in arm["trained_for"].values() if v))
            keys = arm["differs"]
            shown = ", ".join(keys[:6]) + (f" and {len(keys) - 6} more" if len(keys) > 6 else "")
            text += (f" Arm {label}: its learned players' network was trained for "
                     f"{ids or 'other rules'}; this arm differs in {shown} (the players value "
                     f"outcomes by this arm's rules, with a network that never played them).")
    return text


def _players_caveat(players: Sequence[dict[str, str]]) -> str:
    weak = sorted({k for pl in players for k in pl.values() if k in WEAK})
    if weak:
        return (f"Weak players ({', '.join(weak)}) play some of these games: their figures "
                f"describe the game as those players play it and say little about the game "
                f"as people play it. A rule's effect, the first player's edge or the length "
                f"can change, even reverse, under strong play: compare the players as arms "
                f"(--vary players=...) before concluding.")
    return ("These figures describe the game as these players play it (search and learned "
            "players are not masters either): a rule's effect measured here is evidence "
            "about the game under this play, not about the game as its masters played it.")
