"""The design of a comparison (docs/compare.md, "Replicates" and "Families of tests").

- Which arms are compared: each against one arm (`--against ARM`, the first by default), or
  every pair (`--pairs all`): `comparisons`.
- The family of each figure, the unit it is counted in: proportions and shares, throws, legal
  plays, firings, holes, marks, games, and the unit of a game's worth (points, jetons, stakes,
  game values, match points: `Ladder.worth_unit`). Holm's adjustment runs within each family
  (core.adjust).
- The differences shown side by side but not tested, and why: figures in different units (the
  worth of a backgammon game in points against a partie à écrire's in jetons), a figure an arm
  has not got (cube levels without a cube, a rule it has not got), or one an arm's rules make
  constant (cube levels with the cube off). A value or cube level one arm never showed, which
  the other's rules allow, is 0 in it and tested.
- The omnibus test across all arms (three or more) of each rate (χ² of the arms × 2 table; paired,
  Cochran's Q) and each length (Kruskal–Wallis from the histograms; paired, Friedman).
- The replicates: each figure of each replicate, and the test of their homogeneity.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from interpreter.compare import stats
from interpreter.compare.stats import Moments
from interpreter.compare.tally import ArmTally, Figure, Histogram, x_kind
from interpreter import bounded
from interpreter.errors import CommandLineError

#: the most replicates of one run
MAX_REPLICATES = bounded.MAX_REPLICATES


class DesignError(CommandLineError):
    """A comparison that cannot be made as asked (an unknown arm for `--against`, ...): a bad
    command line (exit code 2)."""


# -- the comparisons ---------------------------------------------------------------------------

def arm_index(labels: Sequence[str], text: str) -> int:
    """The arm `--against` names: its label, or its number from 1."""
    t = text.strip()
    if t in labels:
        return list(labels).index(t)
    if t.isdigit() and 1 <= int(t) <= len(labels):
        return int(t) - 1
    raise DesignError(f"--against {text!r}: no such arm (the arms: {', '.join(labels)}; or "
                      f"their numbers, 1 to {len(labels)})")


def comparisons(labels: Sequence[str], against: str | None = None,
                pairs: str | None = None) -> tuple[list[tuple[int, int]], str]:
    """The pairs of arms (A, B) whose differences B − A are reported, and what the report calls
    them: the label of the arm the others are compared with, or "all pairs"."""
    n = len(labels)
    if pairs is not None:
        if pairs != "all":
            raise DesignError(f"--pairs {pairs!r}: the only choice is `all`")
        if against is not None:
            raise DesignError("--against and --pairs all exclude each other: compare with one "
                              "arm, or every pair of arms")
        return [(a, b) for a in range(n) for b in range(a + 1, n)], "all pairs"
    base = 0 if against is None else arm_index(labels, against)
    return [(base, j) for j in range(n) if j != base], labels[base]


# -- what an arm's rules make possible ----------------------------------------------------------

@dataclass(frozen=True)
class Structure:
    """What an arm's rules make possible: its ladder's kind, the unit of a game's worth, the
    cube (None: none; False: off), the rules counted and those switched off, the names its
    game values can take (None: not known beforehand)."""

    label: str
    ladder: str
    unit: str
    cube: bool | None
    rules: frozenset[str]
    off: frozenset[str]
    values: frozenset[str] | None
    #: what the lead of its games is measured in (`--metrics`: engine/metrics.py `lead_kind`)
    lead: str = "points"


#: the playout metrics measured on the lead's scale: comparable only between arms whose lead
#: is measured in the same kind of unit (pips, holes, points)
ON_LEAD_SCALE = ("drama", "drama_max", "stability")
#: the playout metrics that are shares (of samples, of the board's points)
PLAYOUT_SHARES = ("decisiveness", "winner_behind", "coverage", "coverage_white",
                  "coverage_black")


def structure(label: str, variant: Any, rules: Sequence[str],
              names: dict[str, str]) -> Structure:
    """The structure of an arm: `rules` the rules its games count, `names` the names of its
    game values ("2" → "gammon": sim._value_names)."""
    from interpreter.scoring.registry import ladder_class

    model = variant.ladder
    kind = getattr(model, "kind", None) or "game"
    L = ladder_class(model)
    off = frozenset(r for r, m in variant.model.rules.items() if not m.enabled)
    return Structure(label, kind, L.worth_unit(model), L.has_cube(model), frozenset(rules), off,
                     L.game_value_names(model, names), lead_kind(variant))


def lead_kind(variant: Any) -> str:
    """What the lead of the variant's games is measured in, as `--metrics` measures it
    (engine/metrics.py `lead_by`): "pips", "holes" or "points"."""
    from interpreter.engine.metrics import lead_by
    from interpreter.scoring.registry import ladder_class

    return lead_by(variant, ladder_class(variant.ladder))


def family(f: Figure, unit: str = "points", lead: str = "points") -> str:
    """The family of a figure: the unit it is counted in (`unit`: the arm's unit of a game's
    worth, for `value_points`; `lead`: what its lead is measured in, for the playout metrics
    on the lead's scale)."""
    name = f.name
    if f.kind in ("proportion", "balance") or name == "forced_rate" or name.endswith(".share") \
            or name in PLAYOUT_SHARES:
        return "proportion"
    if name in ON_LEAD_SCALE:
        return f"lead ({lead})"
    if name == "value_points":
        return unit
    if name == "length_throws":
        return "throws"
    if name == "branching_factor":
        return "plays"
    if name.startswith("rules."):
        return "firings"
    if name.startswith("length."):
        return name[len("length."):]
    if name == "lead_changes":
        return "lead changes"
    if name.startswith("ladder."):
        rest = name[len("ladder."):]
        return "lurches" if "." in rest else rest.replace("_", " ")
    return name


def _rule_of(name: str) -> str:
    return name[len("rules."):].rsplit(".", 1)[0]


def absent_why(name: str, s: Structure) -> str:
    """Why the figure `name` is not a figure of the arm `s`."""
    group, _, rest = name.partition(".")
    if group == "cube_levels" or name in ("ladder.passes_rate", "values.pass"):
        return (f"{s.label} has no cube" if s.cube is None else
                f"the cube is off in {s.label}")
    if group == "rules":
        rule = _rule_of(name)
        if rule in s.off:
            return f"the rule {rule} is off in {s.label}"
        if rule not in s.rules:
            return f"{s.label} has no rule {rule}"
        return f"{s.label}'s rules score no points"
    if name == "lead_changes":
        return f"{s.label}'s rules score no points: there is no lead"
    if name == "length.games":
        return f"{s.label} plays one game at a time"
    if group == "length":
        return f"{s.label}'s ladder ({s.ladder}) counts no {rest}"
    if group == "values":
        return f"{rest} is not a value of {s.label}'s games ({s.ladder} ladder)"
    if group == "ladder":
        what = (rest[:-len("_rate")] if rest.endswith("_rate") else rest).replace("_", " ")
        return f"{s.label}'s ladder ({s.ladder}) has no {what.replace('.', ' ')}"
    return f"absent in {s.label}"


def constant_why(name: str, s: Structure) -> str | None:
    """Why the figure `name` is the same in every game of the arm `s` by its rules, or None."""
    if s.cube is False:
        if name.startswith("cube_levels."):
            return f"the cube is off in {s.label}: its level is 1 by rule"
        if name in ("ladder.passes_rate", "values.pass"):
            return f"the cube is off in {s.label}: no double is passed"
    return None


def units_why(name: str, a: Structure, b: Structure) -> str | None:
    """"units differ: points against jetons" for the worth of a game in two units."""
    if name == "value_points" and a.unit != b.unit:
        return f"units differ: {a.unit} against {b.unit}"
    if name in ON_LEAD_SCALE and a.lead != b.lead:
        return f"units differ: a lead in {a.lead} against a lead in {b.lead}"
    return None


def fill(name: str, like: Figure, others: dict[str, Figure], other: Structure,
         this: Structure) -> Figure | None:
    """The figure `name` of an arm that never showed it (`others` its figures, `other` its
    structure), where its rules allow it: a game value or a cube level seen 0 times among its
    values or levels. None where it is not the arm's figure at all (`absent_why`)."""
    group, _, rest = name.partition(".")
    if like.kind != "proportion" or group not in ("values", "cube_levels"):
        return None
    if group == "cube_levels" and other.cube is not True:
        return None
    if group == "values":
        if other.values is not None and rest not in other.values:
            return None
        if other.values is None and other.ladder != this.ladder:
            return None
    total = next((f.n for n, f in others.items() if n.startswith(group + ".")), 0)
    if not total:
        return None
    return Figure(name, "proportion", like.title, 0, total)


# -- the omnibus tests --------------------------------------------------------------------------

def is_length(name: str) -> bool:
    return name == "length_throws" or name.startswith("length.")


class PairedOmnibus:
    """The games of k paired arms, each a block: Cochran's Q of each 0/1 figure (over the
    games where it counts once in every arm) and the Friedman test of each length."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.cochran: dict[str, stats.CochranQ] = {}
        self.friedman: dict[str, stats.Friedman] = {}

    def add(self, obs: Sequence[tuple[dict[str, tuple[int, int]], dict[str, int]]]) -> None:
        names = set().union(*(o[0] for o in obs))
        for name in names:
            vals = [o[0].get(name) or (0, o[1][x_kind(name)]) for o in obs]
            if is_length(name):
                self.friedman.setdefault(name, stats.Friedman(self.k)).add(
                    [y for y, _ in vals])
            elif all(x == 1 and y in (0, 1) for y, x in vals):
                self.cochran.setdefault(name, stats.CochranQ(self.k)).add([y for y, _ in vals])


def _names(maps: Sequence[dict[str, Figure]]) -> list[str]:
    seen: dict[str, None] = {}
    for m in maps:
        for name in m:
            seen.setdefault(name, None)
    return list(seen)


def omnibus(labels: Sequence[str], figures: Sequence[Sequence[Figure]],
            structures: Sequence[Structure], paired: PairedOmnibus | None = None
            ) -> list[dict[str, Any]]:
    """The tests across all arms (three or more) of every rate and every length the arms have
    in common: independent arms, Pearson's χ² of the arms × 2 table (`stats.chi2_rows`) and
    Kruskal–Wallis (`stats.kruskal_counts`); paired arms, Cochran's Q and Friedman's test over
    the games. An arm without the figure, or whose rules make it constant, is left out (paired:
    the figure is not tested); a figure the same in every arm has no test."""
    k = len(figures)
    if k < 3:
        return []
    maps = [{f.name: f for f in figs} for figs in figures]
    out: list[dict[str, Any]] = []
    for name in _names(maps):
        present = [(i, m[name]) for i, m in enumerate(maps) if name in m]
        first_i, like = present[0]
        if any(not f.tested for _, f in present):
            continue
        if like.kind == "proportion":
            members: list[tuple[int, Figure]] = []
            for i in range(k):
                f = maps[i].get(name) or fill(name, like, maps[i], structures[i],
                                              structures[first_i])
                if f is None or f.n == 0 or constant_why(name, structures[i]):
                    continue
                members.append((i, f))
            if paired is not None:
                if len(members) < k or name not in paired.cochran:
                    continue
                test = paired.cochran[name].test()
            else:
                big_k, big_n = sum(f.k for _, f in members), sum(f.n for _, f in members)
                if len(members) < 3 or big_k in (0, big_n):
                    continue
                test = stats.chi2_rows([(f.k, f.n) for _, f in members])
        elif like.kind == "mean" and is_length(name):
            members = [(i, f) for i, f in present if f.histogram is not None]
            if paired is not None:
                if len(members) < k or name not in paired.friedman:
                    continue
                test = paired.friedman[name].test()
            else:
                if len(members) < 3:
                    continue
                test = stats.kruskal_counts([f.histogram.counts for _, f in members
                                             if f.histogram is not None])
        else:
            continue
        if test is None:
            continue
        entry: dict[str, Any] = {"figure": name, "title": like.title,
                                 "family": family(like, structures[first_i].unit,
                                                  structures[first_i].lead)}
        entry.update(test.json())
        entry["p_adjusted"] = None
        entry["arms"] = [labels[i] for i, _ in members]
        entry["paired"] = paired is not None
        out.append(entry)
    return out


# -- replicates ---------------------------------------------------------------------------------

def _zero_like(f: Figure, t: ArmTally) -> Figure | None:
    """The figure `f` of a replicate whose games never showed it: 0 of the replicate's values,
    cube levels or marks, or a count of 0 in each of its games."""
    group, _, rest = f.name.partition(".")
    if f.kind == "proportion":
        if group == "values":
            n = sum(t.values.values())
        elif group == "cube_levels":
            n = sum(t.cubes.values())
        elif group == "ladder":
            prop = t.props.get(rest[:-len("_rate")]) if rest.endswith("_rate") else None
            marks = t.units.get("marks")
            n = prop.n if prop is not None else (marks.moments().total if marks else 0)
        else:
            n = 0
        return Figure(f.name, "proportion", f.title, 0, n)
    if f.kind == "mean":
        h = Histogram()
        if t.games:
            h.counts[0] = t.games
        return Figure(f.name, "mean", f.title, moments=Moments(t.games, 0, 0),
                      histogram=h if f.histogram is not None else None)
    return None


def homogeneity(pooled: Figure, reps: Sequence[Figure | None]) -> dict[str, Any] | None:
    """The test that the replicates estimate the same figure: χ² of the replicates × 2 table for
    a proportion; for a mean, Kruskal–Wallis from the histograms (the one-way analysis of
    variance from the moments where there are none), the Poisson dispersion test for rare
    counts; for a ratio, Cochran's Q of the replicates' estimates and standard errors, or the
    Poisson dispersion test of its rare events."""
    rs = [x for x in reps if x is not None]
    test: stats.Test | None
    if pooled.kind in ("proportion", "balance"):
        test = stats.chi2_rows([(x.k, x.n) for x in rs])
    elif pooled.kind == "mean":
        assert pooled.moments is not None
        moments = [x.moments for x in rs if x.moments is not None]
        if stats.mean_method(pooled.moments) == "exact":
            test = stats.poisson_homogeneity([(m.total, m.n) for m in moments])
        elif all(x.histogram is not None for x in rs):
            test = stats.kruskal_counts([x.histogram.counts for x in rs
                                         if x.histogram is not None])
        else:
            test = stats.anova_moments(moments)
    else:
        assert pooled.ratio is not None
        ratios = [x for x in rs if x.ratio is not None]
        if stats.ratio_method(pooled.ratio, pooled.events) == "exact":
            test = stats.poisson_homogeneity(
                [(x.events if x.events is not None else x.ratio.y, x.ratio.x)
                 for x in ratios if x.ratio is not None])
        else:
            est = [(x.ratio.value, x.ratio.se()) for x in ratios if x.ratio is not None]
            test = stats.cochran_q([(v, se) for v, se in est if v is not None and se])
    return None if test is None else test.json()


def _slot(arm: dict[str, Any], name: str) -> tuple[dict[str, Any] | None, str]:
    """Where the figure `name` is written in an arm's object, and the prefix of the keys that
    go with it there (a rule's share is a plain number: its replicates go beside it)."""
    if name.startswith("rules."):
        rule, _, what = name[len("rules."):].rpartition(".")
        r = arm.get("rules", {}).get(rule)
        if r is None:
            return None, ""
        if what == "share":
            return r, "share_"
        slot = r.get(what)
        return (slot if isinstance(slot, dict) else None), ""
    group, dot, rest = name.partition(".")
    if dot and isinstance(arm.get(group), dict):
        slot = arm[group].get(rest)
        return (slot if isinstance(slot, dict) else None), ""
    slot = arm.get(name)
    return (slot if isinstance(slot, dict) else None), ""


def annotate_replicates(arm: dict[str, Any], figures: Sequence[Figure],
                        reps: Sequence[ArmTally], seeds: Sequence[int],
                        evaluate: Callable[[Figure], dict[str, Any]]) -> None:
    """Writes into each figure of the arm's object its value in each replicate
    (`replicates`: replicate, seed, value, ci, n) and the test of their homogeneity
    (`homogeneity`: test, statistic, df, p_value, method)."""
    rep_maps = [{f.name: f for f in t.figures(complete=True)} for t in reps]
    for f in figures:
        slot, prefix = _slot(arm, f.name)
        if slot is None:
            continue
        rfs = [m.get(f.name) or _zero_like(f, t) for m, t in zip(rep_maps, reps)]
        entries = []
        for r, (rf, seed) in enumerate(zip(rfs, seeds)):
            e = evaluate(rf) if rf is not None else None
            entries.append({"replicate": r, "seed": seed,
                            "value": None if e is None else e.get("mean", e.get("value")),
                            "ci": None if e is None else e["ci"],
                            "n": None if e is None else e["n"]})
        slot[prefix + "replicates"] = entries
        slot[prefix + "homogeneity"] = homogeneity(f, rfs)
