"""The figures of one arm of `tablier compare`, summed up from its games' lines as they come.

`ArmTally.add(line)` takes one line of `--games-out` (sim.game_line) and keeps only sums and
histograms of small integers (lengths, lead changes, holes, marks): memory stays flat whatever
the number of games, and every figure can be recomputed from the lines alone (docs/compare.md).
`ArmTally.figures()` gives the arm's figures as `Figure`s, each with what its interval and its
two-sample test need.

What the ladder adds is read from the keys its lines carry: `game_results` and `cube_levels`
(the cube), `game_values` (the 12-point game), `goes` (holes), `mark_kinds` (à écrire),
`honours_games` (the combined game).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from interpreter.compare.stats import Moments, RatioSums

SIDES = ("white", "black")


class Histogram:
    """How often each integer value occurred: exact moments and quantiles, little memory."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, x: int) -> None:
        self.counts[x] = self.counts.get(x, 0) + 1

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def moments(self) -> Moments:
        c = self.counts
        return Moments(sum(c.values()), sum(x * k for x, k in c.items()),
                       sum(x * x * k for x, k in c.items()))

    def quantile(self, q: float) -> float | None:
        """The q-quantile with linear interpolation between order statistics (numpy's default,
        Hyndman and Fan's type 7): position h = (n − 1)·q from 0."""
        n = self.n
        if n == 0:
            return None
        h = (n - 1) * q
        lo = int(h)
        a = self._order(lo)
        if lo + 1 >= n or h == lo:
            return float(a)
        b = self._order(lo + 1)
        return a + (h - lo) * (b - a)

    def _order(self, i: int) -> int:
        """The i-th smallest value (from 0)."""
        seen = 0
        for x in sorted(self.counts):
            seen += self.counts[x]
            if i < seen:
                return x
        raise IndexError(i)


class _Ratio:
    """Running sums of Y, Y², X·Y over games, X being shared (throws or all points)."""

    __slots__ = ("y", "yy", "xy")

    def __init__(self) -> None:
        self.y = self.yy = self.xy = 0

    def add(self, y: int, x: int) -> None:
        self.y += y
        self.yy += y * y
        self.xy += x * y


@dataclass
class Figure:
    """One figure of an arm. `kind` is "proportion" (`k` of `n`), "mean" (`moments`, and a
    `histogram` for the median and quartiles), or "ratio" (`ratio`, a ratio of totals)."""

    name: str
    kind: str
    title: str
    k: int = 0
    n: int = 0
    moments: Moments | None = None
    histogram: Histogram | None = None
    ratio: RatioSums | None = None


@dataclass
class _Proportion:
    k: int = 0
    n: int = 0


@dataclass
class ArmTally:
    """Sums over the lines of one arm's games."""

    #: names of game values from the variant's value rules ("2" → "gammon"); "1" → "single"
    value_names: dict[str, str] = field(default_factory=lambda: {"1": "single"})
    games: int = 0
    finished: int = 0
    draws: int = 0
    first_wins: int = 0
    wins: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    first: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    throws: Histogram = field(default_factory=Histogram)
    lead_changes: Histogram = field(default_factory=Histogram)
    #: lengths in the ladder's own units, per game: "holes", "marks", "games"
    units: dict[str, Histogram] = field(default_factory=dict)
    #: the points all the rules gave in each game (Σ, Σ²) and their firings and points per rule
    points: int = 0
    points_sq: int = 0
    fired: dict[str, _Ratio] = field(default_factory=dict)
    fired_sides: dict[str, list[int]] = field(default_factory=dict)
    rule_points: dict[str, _Ratio] = field(default_factory=dict)
    #: the distribution of game values (one per game of the ladder), cube levels, mark kinds
    values: dict[str, int] = field(default_factory=dict)
    cubes: dict[str, int] = field(default_factory=dict)
    #: the ladder's proportions (k of n) and its counts per game (a histogram each)
    props: dict[str, _Proportion] = field(default_factory=dict)
    counts: dict[str, Histogram] = field(default_factory=dict)

    def expect_rules(self, rules: Iterable[str]) -> None:
        """Rules whose figures are given even if they never fire (0 per game)."""
        for rule in rules:
            if rule not in self.fired:
                self.fired[rule] = _Ratio()
                self.fired_sides[rule] = [0, 0]

    # -- adding one game ----------------------------------------------------------------------

    def add(self, line: dict[str, Any]) -> None:
        self.games += 1
        t = int(line["throws"])
        self.throws.add(t)
        self.lead_changes.add(int(line.get("lead_changes", 0)))
        self.first[line["first"]] += 1
        winner = line.get("winner")
        if line.get("finished"):
            self.finished += 1
            if winner is None:
                self.draws += 1
        if winner is not None:
            self.wins[winner] += 1
            self.first_wins += winner == line["first"]
        fired = line.get("fired") or {}
        for rule, by_side in fired.items():
            acc = self.fired.get(rule)
            if acc is None:
                acc = self.fired[rule] = _Ratio()
                self.fired_sides[rule] = [0, 0]
            w, b = int(by_side["white"]), int(by_side["black"])
            acc.add(w + b, t)
            sides = self.fired_sides[rule]
            sides[0] += w
            sides[1] += b
        total = int(line["points"]["white"]) + int(line["points"]["black"])
        self.points += total
        self.points_sq += total * total
        for rule, by_side in (line.get("rule_points") or {}).items():
            acc = self.rule_points.get(rule)
            if acc is None:
                acc = self.rule_points[rule] = _Ratio()
            acc.add(int(by_side["white"]) + int(by_side["black"]), total)
        self._ladder(line)

    def _unit(self, name: str, x: int) -> None:
        self.units.setdefault(name, Histogram()).add(x)

    def _count(self, name: str, x: int) -> None:
        self.counts.setdefault(name, Histogram()).add(x)

    def _prop(self, name: str, k: int, n: int) -> None:
        p = self.props.setdefault(name, _Proportion())
        p.k += k
        p.n += n

    def _value(self, name: str, k: int = 1) -> None:
        self.values[name] = self.values.get(name, 0) + k

    def _ladder(self, line: dict[str, Any]) -> None:
        if "game_results" in line:                          # the cube: backgammon's games
            results = line["game_results"] or []
            for name in results:
                self._value(str(name))
            for cube in line.get("cube_levels") or ():
                self.cubes[str(cube)] = self.cubes.get(str(cube), 0) + 1
            n = int(line.get("games", len(results)))
            self._unit("games", n)
            for key in ("gammons", "backgammons", "passes"):
                self._prop(key, int(line.get(key, 0)), n)
        elif "game_values" in line:                         # the 12-point game's match
            values = line["game_values"] or []
            for v in values:
                self._value(self.value_names.get(str(v), str(v)))
            self._unit("games", int(line.get("games", len(values))))
            self._count("continued", int(line.get("continued", 0)))
        elif "mark_kinds" in line:                          # à écrire (and the combined game)
            kinds = line["mark_kinds"] or {}
            marks = sum(int(k) for k in kinds.values())
            for name, k in kinds.items():
                self._value(str(name), int(k))
            for kind, split in (line.get("lurches") or {}).items():
                for how in ("pickup", "no_pickup"):
                    k = int(split.get(how, 0))
                    self._prop(f"{kind}.{how}", k, marks)
                    self._count(f"{kind}.{how}", k)
            self._unit("marks", int(line.get("marks", 0)))
            holes = line.get("holes") or {}
            self._unit("holes", sum(int(holes.get(s, 0)) for s in SIDES))
            for key in ("refaits", "concessions"):
                self._count(key, int(line.get(key, 0)))
            bred = line.get("bredouilles") or {}
            self._count("bredouilles", sum(int(bred.get(s, 0)) for s in SIDES))
            for key in ("honours_games", "suspensions"):
                if key in line:
                    self._count(key, int(line[key]))
        elif "goes" in line:                                # holes: the 12-hole partie
            holes = line.get("holes") or {}
            self._unit("holes", sum(int(holes.get(s, 0)) for s in SIDES))
            goes = line["goes"]
            self._count("goes", sum(int(goes.get(s, 0)) for s in SIDES))
            self._count("releves", int(line.get("releves", 0)))
            if line.get("multiplier") is not None:
                self._value(f"stake x{int(line['multiplier'])}")
        elif line.get("finished") and line.get("winner") is not None:   # one game
            v = str(line.get("value"))
            self._value(self.value_names.get(v, v))

    # -- the figures --------------------------------------------------------------------------

    def figures(self) -> list[Figure]:
        n = self.games
        out = [Figure("first_player_win_rate", "proportion",
                      "the first to throw wins", self.first_wins, n)]
        for side in SIDES:
            out.append(Figure(f"win_rate.{side}", "proportion", f"{side} wins",
                              self.wins[side], n))
        out.append(Figure("draw_rate", "proportion", "drawn", self.draws, n))
        out.append(Figure("unfinished_rate", "proportion", "unfinished (turn limit)",
                          n - self.finished, n))
        out.append(Figure("length_throws", "mean", "length in throws",
                          moments=self.throws.moments(), histogram=self.throws))
        for unit, hist in sorted(self.units.items()):
            if max(hist.counts, default=0) > 1 or unit != "games":
                out.append(Figure(f"length.{unit}", "mean", f"length in {unit}",
                                  moments=hist.moments(), histogram=hist))
        if self.points:             # the lead is the points the rules gave: none, no lead
            out.append(Figure("lead_changes", "mean", "lead changes per game",
                              moments=self.lead_changes.moments(),
                              histogram=self.lead_changes))
        total_values = sum(self.values.values())
        for name, k in sorted(self.values.items(), key=lambda kv: -kv[1]):
            out.append(Figure(f"values.{name}", "proportion", f"game value: {name}",
                              k, total_values))
        total_cubes = sum(self.cubes.values())
        for level, k in sorted(self.cubes.items(), key=lambda kv: int(kv[0])):
            out.append(Figure(f"cube_levels.{level}", "proportion", f"cube at {level}",
                              k, total_cubes))
        for name, p in sorted(self.props.items()):
            out.append(Figure(f"ladder.{name}_rate", "proportion",
                              f"{name.replace('.', ' ').replace('_', ' ')} (share)", p.k, p.n))
        for name, hist in sorted(self.counts.items()):
            out.append(Figure(f"ladder.{name}", "mean",
                              f"{name.replace('.', ' ').replace('_', ' ')} per game",
                              moments=hist.moments(), histogram=hist))
        t = self.throws.moments()
        for rule in sorted(self.fired):
            acc = self.fired[rule]
            out.append(Figure(f"rules.{rule}.per_game", "mean", f"{rule}: firings per game",
                              moments=Moments(n, acc.y, acc.yy)))
            out.append(Figure(f"rules.{rule}.per_throw", "ratio", f"{rule}: firings per throw",
                              ratio=RatioSums(n, acc.y, t.total, acc.yy, t.squares, acc.xy)))
            pts = self.rule_points.get(rule) or _Ratio()
            if self.points:
                out.append(Figure(f"rules.{rule}.share", "ratio",
                                  f"{rule}: share of the points",
                                  ratio=RatioSums(n, pts.y, self.points, pts.yy,
                                                  self.points_sq, pts.xy)))
        return out


def tally_lines(lines: Iterable[dict[str, Any]],
                value_names: dict[str, str] | None = None) -> ArmTally:
    """The tally of lines (e.g. read back from a `--games-out` file)."""
    t = ArmTally(value_names or {"1": "single"})
    for line in lines:
        t.add(line)
    return t
