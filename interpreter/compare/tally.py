"""The figures of one arm of `tablier compare`, summed up from its games' lines as they come.

`ArmTally.add(line)` takes one line of `--games-out` (sim.game_line) and keeps only sums and
histograms of small integers (lengths, lead changes, holes, marks): memory stays flat whatever
the number of games, and every figure can be recomputed from the lines alone (docs/compare.md).
`ArmTally.figures()` gives the arm's figures as `Figure`s, each with what its interval and its
two-sample test need.

What the ladder adds is read from the keys its lines carry: `game_results` and `cube_levels`
(the cube), `game_values` (the 12-point game), `goes` (holes), `mark_kinds` (à écrire),
`honours_games` (the combined game). The playout metrics of `--metrics` (decisiveness, drama,
stability, board coverage: engine/metrics.py) are read from the integer sums of the lines'
`lead` and `board`, each figure a ratio of totals over the games (`PLAYOUT`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from interpreter.compare.playout import PLAYOUT, PlayoutSums
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
    `histogram` for the median and quartiles), "ratio" (`ratio`, a ratio of totals), or
    "balance" (|2k/n − 1|: the gap between white's and black's win rates over `n` decided
    games, k of them white's). A ratio's interval is exact (Poisson) on its `events` where they
    are rare, each worth `unit` of its numerator, and stays below `upper`. `tested`: whether
    the figure gets a difference between arms with a test (not one that is the complement of
    another, or made from another)."""

    name: str
    kind: str
    title: str
    k: int = 0
    n: int = 0
    moments: Moments | None = None
    histogram: Histogram | None = None
    ratio: RatioSums | None = None
    events: int | None = None
    unit: float = 1.0
    upper: float | None = None
    tested: bool = True


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
    decided: int = 0
    draws: int = 0
    first_wins: int = 0
    wins: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    first: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    throws: Histogram = field(default_factory=Histogram)
    #: what each play was worth to its winner (`value`: points at the cube's stake, the
    #: partie's value; 0 for a draw or an unfinished play)
    worth: Histogram = field(default_factory=Histogram)
    #: the legal plays summed over the play decisions, the forced decisions (at most one
    #: play), the decisions, each as running sums over games (a ratio estimator each)
    plays: _Ratio = field(default_factory=lambda: _Ratio())
    forced: _Ratio = field(default_factory=lambda: _Ratio())
    decisions: Histogram = field(default_factory=Histogram)
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
    #: the games whose lines carry the playout metrics (`--metrics`), the sums of each, and
    #: whether a line's lead was a pip count (its lead changes are then the pip lead's)
    playout: PlayoutSums = field(default_factory=PlayoutSums)

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
        self.worth.add(int(line.get("value") or 0) if line.get("winner") is not None else 0)
        self.lead_changes.add(int(line.get("lead_changes", 0)))
        self.first[line["first"]] += 1
        winner = line.get("winner")
        if line.get("finished"):
            self.finished += 1
            if winner is None:
                self.draws += 1
        if winner is not None:
            self.decided += 1
            self.wins[winner] += 1
            self.first_wins += winner == line["first"]
        decisions = int(line.get("decisions", 0))
        self.decisions.add(decisions)
        self.plays.add(int(line.get("legal_plays", 0)), decisions)
        self.forced.add(int(line.get("forced", 0)), decisions)
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
        self.playout.add(line)

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
        elif isinstance(line.get("game_points"), list):     # a rotation: its games' values
            points = line["game_points"]
            for v in points:
                if v:                                       # (a game without a winner: 0)
                    self._value(self.value_names.get(str(v), str(v)))
            self._unit("games", int(line.get("games", len(points))))
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

    def figures(self, complete: bool = False) -> list[Figure]:
        """The arm's figures; `complete`: also those left out where they say nothing (the
        length in games of a ladder of one game, lead changes without points), as the
        figures of one game are for a paired comparison (`observations`)."""
        n = self.games
        out = [Figure("first_player_win_rate", "proportion",
                      "the first to throw wins (of the decided games)", self.first_wins,
                      self.decided)]
        for side in SIDES:
            # over the decided games white's and black's rates are complements: one test
            out.append(Figure(f"win_rate.{side}", "proportion",
                              f"{side} wins (of the decided games)", self.wins[side],
                              self.decided, tested=side == "white"))
        out.append(Figure("balance", "balance",
                          "balance: |white − black| win rate (decided games)",
                          self.wins["white"], self.decided, tested=False))
        out.append(Figure("draw_rate", "proportion", "drawn", self.draws, n))
        out.append(Figure("unfinished_rate", "proportion", "unfinished (turn limit)",
                          n - self.finished, n))
        out.append(Figure("completion", "proportion", "completion: games finished",
                          self.finished, n, tested=False))
        out.append(Figure("length_throws", "mean", "length in throws",
                          moments=self.throws.moments(), histogram=self.throws))
        out.append(Figure("value_points", "mean",
                          "worth of a play to its winner (points at stake)",
                          moments=self.worth.moments(), histogram=self.worth))
        d = self.decisions.moments()
        out.append(Figure("branching_factor", "ratio",
                          "branching factor: legal plays a throw",
                          ratio=RatioSums(n, self.plays.y, d.total, self.plays.yy, d.squares,
                                          self.plays.xy)))
        out.append(Figure("forced_rate", "ratio", "forced throws (at most one play)",
                          ratio=RatioSums(n, self.forced.y, d.total, self.forced.yy,
                                          d.squares, self.forced.xy),
                          events=self.forced.y, upper=1.0))
        for unit, hist in sorted(self.units.items()):
            if complete or max(hist.counts, default=0) > 1 or unit != "games":
                out.append(Figure(f"length.{unit}", "mean", f"length in {unit}",
                                  moments=hist.moments(), histogram=hist))
        # the lead is the points the rules gave, or (`--metrics`) a race's pip count: else none
        if self.points or complete or self.playout.pip_lead:
            out.append(Figure("lead_changes", "mean", "lead changes per game",
                              moments=self.lead_changes.moments(),
                              histogram=self.lead_changes))
        out += self._playout_figures()
        total_values = sum(self.values.values())
        # of two kinds of value (or cube levels) the second is the complement of the first
        values = sorted(self.values.items(), key=lambda kv: (-kv[1], kv[0]))
        for j, (name, k) in enumerate(values):
            out.append(Figure(f"values.{name}", "proportion", f"game value: {name}",
                              k, total_values, tested=not (len(values) == 2 and j == 1)))
        total_cubes = sum(self.cubes.values())
        cubes = sorted(self.cubes.items(), key=lambda kv: int(kv[0]))
        for j, (level, k) in enumerate(cubes):
            out.append(Figure(f"cube_levels.{level}", "proportion", f"cube at {level}",
                              k, total_cubes, tested=not (len(cubes) == 2 and j == 1)))
        for name, p in sorted(self.props.items()):
            # the cube's gammon, backgammon and pass rates are the shares of those game values
            # (`values.*`), which carry the test: one test a figure
            out.append(Figure(f"ladder.{name}_rate", "proportion",
                              f"{name.replace('.', ' ').replace('_', ' ')} (share)", p.k, p.n,
                              tested=name not in _VALUE_SHARES))
        for name, hist in sorted(self.counts.items()):
            out.append(Figure(f"ladder.{name}", "mean",
                              f"{name.replace('.', ' ').replace('_', ' ')} per game",
                              moments=hist.moments(), histogram=hist))
        t = self.throws.moments()
        # the points a firing gives, for the exact bound of a rare rule's share: its own
        # points a firing; for a rule that never gave any, the most a firing of any rule gave
        units = {r: self.rule_points[r].y / self.fired[r].y for r in self.rule_points
                 if r in self.fired and self.fired[r].y and self.rule_points[r].y}
        most = max(units.values(), default=1.0)
        for rule in sorted(self.fired):
            acc = self.fired[rule]
            out.append(Figure(f"rules.{rule}.per_game", "mean", f"{rule}: firings per game",
                              moments=Moments(n, acc.y, acc.yy)))
            out.append(Figure(f"rules.{rule}.per_throw", "ratio", f"{rule}: firings per throw",
                              ratio=RatioSums(n, acc.y, t.total, acc.yy, t.squares, acc.xy)))
            pts = self.rule_points.get(rule) or _Ratio()
            if self.points or complete:
                out.append(Figure(f"rules.{rule}.share", "ratio",
                                  f"{rule}: share of the points",
                                  ratio=RatioSums(n, pts.y, self.points, pts.yy,
                                                  self.points_sq, pts.xy),
                                  events=acc.y if pts.y else 0, unit=units.get(rule, most),
                                  upper=1.0))
        return out

    def _playout_figures(self) -> list[Figure]:
        """The playout metrics (`PLAYOUT`), where the lines carry them."""
        p = self.playout
        if not p.games:
            return []
        out = []
        n = p.games
        for name, title, _y, _x, upper, events, _worth, tested in PLAYOUT:
            acc = p.sums[name]
            # where the normal interval fails, the exact one counts games (the samples of a
            # game are not independent), each worth the numerator's mean a counted game; none
            # counted: each as much as a whole game's denominator (at most 3.69/n)
            k = p.events[events]
            unit = acc.y / k if k else acc.x / n
            out.append(Figure(name, "ratio", title,
                              ratio=RatioSums(n, acc.y, acc.x, acc.yy, acc.xx, acc.xy),
                              events=k, unit=unit, upper=upper, tested=tested))
        return out

    def observations(self, line: dict[str, Any]) -> tuple[dict[str, tuple[int, int]],
                                                          dict[str, int]]:
        """The figures of the one game of `line`, as (y, x): the figure over many games is
        ΣY/ΣX (x = 1 for a mean per game; the game's count in the denominator for a proportion;
        its throws, decisions or points for a ratio), and the x of each kind of figure
        (`x_kind`) for the figures this game has not got. What a paired comparison subtracts
        game by game."""
        one = ArmTally(self.value_names)
        one.expect_rules(self.fired)
        one.add(line)
        got: dict[str, tuple[int, int]] = {}
        for f in one.figures(complete=True):
            if f.kind == "proportion":
                got[f.name] = (f.k, f.n)
            elif f.kind == "mean":
                assert f.moments is not None
                got[f.name] = (f.moments.total, 1)
            elif f.kind == "ratio":
                assert f.ratio is not None
                got[f.name] = (f.ratio.y, f.ratio.x)
        xs = {"values": sum(one.values.values()), "cube_levels": sum(one.cubes.values()),
              "throws": int(line["throws"]), "points": one.points, "one": 1}
        return got, xs


#: the cube ladder's rates that are shares of its game values (`values.gammon`, ...)
_VALUE_SHARES = ("gammons", "backgammons", "passes")


def x_kind(name: str) -> str:
    """What the denominator of a figure counts, for a game that lacks the figure: the game's
    values, cube levels, throws, points, or 1 (a mean per game)."""
    group = name.partition(".")[0]
    if group in ("values", "cube_levels"):
        return group
    if name.startswith("rules.") and name.endswith(".per_throw"):
        return "throws"
    if name.startswith("rules.") and name.endswith(".share"):
        return "points"
    return "one"


def tally_lines(lines: Iterable[dict[str, Any]],
                value_names: dict[str, str] | None = None) -> ArmTally:
    """The tally of lines (e.g. read back from a `--games-out` file): the games' lines, the
    header line and any other without `"game"` skipped."""
    t = ArmTally(value_names or {"1": "single"})
    for line in lines:
        if "game" in line:
            t.add(line)
    return t
