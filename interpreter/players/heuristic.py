"""The default judgement of the search player: features any variant file gives, read from the
position and the ladder, without training.

A leaf (players/leaves.py) is valued for one player in the unit of what the play is won by
(players/utility.py):

- **Points to come.** Where rolls or plays score (the trictrac family), the points the player
  who throws next can expect from his throw — every throw of the 21 weighed by its chance, its
  roll's points by the variant's scoring rules and the best points its plays score — and, at
  a smaller weight, the same for the other player from the same position (`throw_points`). The
  ladder's points and holes are read from its state, after the engine has marked the throw.
- **The position** (where men move and meet: the backgammon family and the wider family): the
  race (pips to travel, pinned men and men waiting off the board included), men borne off, the
  blots the opponent can hit or pin this throw (the throws that reach each blot, counted from
  the variant's own movement switches: the block, where a hit man goes, how many moves a
  doublet gives, entering first, men entering from his bar or from off the board) times what a
  hit loses, made points in the home board, the longest prime with an opposing man behind it,
  anchors, men waiting to enter against the opponent's points, men pinned, and the landings of
  each man's single numbers that the opponent closes. Every term follows the variant's route:
  the opponent's men run down his own pips (`their_pip`), the same way round or the other.

For one game (money play, the plain game) the position's score is turned into the chance of
winning it (and of gammons), then into points with the cube; in a match, into match-winning
chances; for the parties, points to come and the ladder's points, holes, marks and jetons add
up in holes (the unit shown is then "holes"); in the continuous match the game in progress is
its chance of being won times what the value rules make it worth, in game values. A finished
play is valued by the same terms as one going on.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Sequence, cast

from interpreter.dsl import RollContext
from interpreter.engine.branch import DICE
from interpreter.engine.game import value_of, _EndContext
from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_POOL, PINS, POOL
from interpreter.players._numpy import np
from interpreter.players.leaves import Leaf
from interpreter.players.utility import of_game_end, of_outcomes, of_result
from interpreter.scoring.registry import ladder_class

#: the throws of a first pass over many leaves: two doublets and five other throws, spread
#: over the numbers, each weighed by its chance
FIRST_PASS = tuple((a, b, 1 if a == b else 2) for a, b in
                   ((1, 1), (4, 4), (1, 2), (2, 5), (3, 4), (3, 6), (5, 6)))
#: the other throws: a leaf valued over the first pass and then over every throw needs only
#: these more
REST = tuple(t for t in DICE if t not in FIRST_PASS)
#: the ladders whose plays are won by points and holes


class HeuristicJudge:
    """Values leaves from the position and the ladder (see the module docstring)."""

    #: weights of the position's terms, in pips of the race
    W_BLOT = 1.0          # × what a hit costs × its chance
    W_HIT = 0.0           # what a hit costs beyond its pips (none: the pips say it)
    W_HOME = 3.0          # a made point in the home board
    W_PRIME = 2.5         # × (length - 1)² of the longest prime of 3 or more
    W_ANCHOR = -5.0       # a made point in the opponent's home board (the first): men kept back
    W_BACK = 2.0          # a man still in the opponent's home board
    W_POINT = 0.0         # any made point
    W_THREAT = 1.0        # × the blots of the player who throws next (he may cover them first)
    W_BAR = 6.0           # × the throws a man on the bar is expected to wait
    W_TEMPO = 8.0         # being on roll
    #: what being pinned costs a man (hit = "pin"), × its chance, and each man pinned: measured
    #: in Plakoto against greedy, a lone man's risk is best left to the search (docs/bots.md)
    W_PIN = 0.0
    W_PINNED = 40.0
    W_STUCK = 0.0         # × the single-number landings of each man closed by the opponent
    #: the scale of the pip score in the chance of winning, per √(pips in the race), with
    #: contact and in a race: fitted by maximum likelihood to the outcomes of the search's own
    #: games of backgammon (docs/bots.md); a variant's `[bot] weights` may set its own
    SCALE = 4.8
    SCALE_RACE = 0.8
    #: the weight of the other player's points to come (he throws after)
    W_LATER = 0.6
    #: where men are hit and the ladder counts points and holes, the weight of the position's
    #: chance of winning the game (as 2·P − 1) beside them
    W_POSITION = 1.0
    #: the continuous match: the scale of a game's points lead in its chance of being won,
    #: per √(points both sides still need)
    SCALE_POINTS = 0.8

    #: the `[bot] weights` names of the attributes above
    NAMES = {"blot": "W_BLOT", "hit": "W_HIT", "home": "W_HOME", "prime": "W_PRIME",
             "anchor": "W_ANCHOR", "back": "W_BACK", "bar": "W_BAR", "tempo": "W_TEMPO",
             "scale": "SCALE", "race_scale": "SCALE_RACE", "later": "W_LATER",
             "position": "W_POSITION", "points_scale": "SCALE_POINTS",
             "point": "W_POINT", "threat": "W_THREAT", "pin": "W_PIN", "pinned": "W_PINNED",
             "stuck": "W_STUCK"}

    def __init__(self, variant: Any):
        self.variant = variant
        # the variant file's own weights (`[bot] weights`) over the defaults
        table = getattr(getattr(variant, "model", None), "bot", None)
        weights = getattr(table, "weights", None) or {}
        for key, value in weights.items():
            if key in self.NAMES:
                setattr(self, self.NAMES[key], float(value))
        # the file's own features (`[bot] features`), compiled by the rule compiler: each
        # hook with its weight in pips (1 when the table gives none)
        self._no_points = _EndContext((0, 0))
        self.own = [(fn, float(weights.get(name, 1.0)))
                    for name, fn in getattr(variant.rules, "bot_features", ())]
        r = variant.move_rules
        #: hits across the board (`hit_across`, Tourne-case) are not among the judgement's
        #: threats: it counts only landings on blots
        self.hits = r.hit != "none" and not r.hit_across
        #: where men waiting off the board come in from (the race counts them from there)
        self.entry = r.entry_pip
        self.block = r.block
        self.hit_to = r.start_pip if r.hit == "start" else 25
        self.pinning = r.hit == "pin"
        self.enter_first = r.enter_first
        geo = variant.geometry
        self.pins = geo.pins
        self.pool = geo.pool
        #: the opponent's own pip of each of the mover's pips (index 0 unused)
        self.tp = (0, *(geo.their_pip(p) for p in range(1, 25)))
        #: a board of 36 points (XII scripta): its terms are read through the slots of its
        #: pips (`_wide_score`)
        self.wide = geo.wide
        if self.wide:
            self.slots = geo.slots
            self.tp36 = tuple(geo.their_pip(p) if p else 0 for p in range(geo.points + 1))
        #: the opponent's home board in the mover's pips
        self.their_home = tuple(sorted(self.tp[q] for q in range(1, r.home_top + 1)))
        self.enter_bar = r.enter == "bar"
        self.doublet_moves = r.doublet_moves
        self.home_top = r.home_top
        rules = variant.rules
        self.score_roll = bool(rules.score_roll)
        self.score_play = bool(rules.score_play)
        self.scoring = self.score_roll or self.score_play
        self.prefer = bool(rules.prefer)
        self.points_ladder = ladder_class(variant.ladder).points_unit is not None
        self.levels = tuple(sorted({2, 3} & set(self._values())))
        self._memo: dict[tuple, float] = {}
        self._ways_memo: dict[int, list] = {}
        self._weight = [w for _a, _b, w in DICE]

    def _values(self) -> set[int]:
        out = set()
        for _id, _when, value in self.variant.rules.value:
            try:
                out.add(int(value(self.variant.start, None, None, 0, 0, 0, _EndContext((0, 0)))))
            except Exception:  # noqa: BLE001 - a value that needs more than the board
                continue
        return out

    @property
    def unit(self) -> str:
        ladder = ladder_class(self.variant.ladder)
        if ladder.points_unit is not None:
            return ladder.points_unit
        return ladder.bot_unit(getattr(self.variant.ladder, "match_length", 0))

    # -- points to come ---------------------------------------------------------------------

    def throw_points(self, b: tuple, rolls: int, setup: int,
                     dice: tuple[tuple[int, int, int], ...] = DICE) -> float:
        """The points (his minus his opponent's) the player on roll on board `b` (seen by him)
        can expect from his next throw, his `rolls`-th since the men were set up: over the 21
        throws, or over the few of `dice` (a first pass)."""
        key = (b, rolls, setup, len(dice))
        got = self._memo.get(key)
        if got is not None:
            return got
        v = self.variant
        native = v.__dict__.get("native_throws")
        if native is not None:
            # the same sum by the compiled throws (interpreter/native/throws_emit.py)
            out = native.mean_points(b, rolls, setup, dice)
            if len(self._memo) > 200_000:
                self._memo.clear()
            self._memo[key] = out
            return out
        gen = v.generator
        rules = v.rules
        total = 0.0
        weight = 0
        for d1, d2, w in dice:
            weight += w
            ctx = RollContext(partial(gen.plays, b, d1, d2, rolls), setup=setup)
            pts = 0
            if self.score_roll:
                for _r, to, p, _w in rules.roll_items(b, d1, d2, rolls, ctx):
                    pts += p if to == "mover" else -p
            if self.score_play:
                plays = ctx.plays
                if self.prefer and plays:
                    plays = rules.prefer_plays(b, plays, d1, d2, rolls, ctx)
                best = None
                for play in plays:
                    s = 0
                    for _r, to, p, _w in rules.play_items(b, play, d1, d2, rolls, ctx):
                        s += p if to == "mover" else -p
                    if best is None or s > best:
                        best = s
                pts += best or 0
            total += w * pts
        out = total / weight
        if len(self._memo) > 200_000:
            self._memo.clear()
        self._memo[key] = out
        return out

    # -- the position ---------------------------------------------------------------------------

    def _ways(self, dist: int) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
        """The throws that can carry a man `dist` pips, each with its ways as the pips passed
        on the way (relative to the start): a way is open when none of them is closed."""
        got = self._ways_memo.get(dist)
        if got is not None:
            return got
        out = []
        for k, (d1, d2, _w) in enumerate(DICE):
            ways: list[tuple[int, ...]] = []
            if d1 == d2:
                for n in range(1, self.doublet_moves + 1):
                    if n * d1 == dist:
                        ways.append(tuple(i * d1 for i in range(1, n)))
            elif dist in (d1, d2):
                ways.append(())
            elif dist == d1 + d2:
                ways += [(d1,), (d2,)]
            if ways:
                out.append((k, tuple(ways)))
        self._ways_memo[dist] = out
        return out

    def _hit_chance(self, b: tuple, p: int) -> float:
        """The chance that the opponent hits (or pins) the blot on the mover's pip p this throw,
        counted with the movement switches: the throws that carry one of his men there by a way
        whose landings are open to him. He runs down his own pips (`their_pip` of the mover's),
        whatever the route; men waiting on his bar or off the board enter from his pip 25 (a
        man on the bar must be the one that moves where entering comes first)."""
        tp = self.tp
        h = tp[p]
        block = self.block
        pins = self.pins and b[PINS]
        if b[OPP_BAR] and self.enter_first:
            sources = [25]
        else:
            sources = [tp[q] for q in range(1, 25) if b[q] < 0 and tp[q] > h]
            if b[OPP_BAR] or (self.pool and b[OPP_POOL]):
                sources.append(25)
        hit: set[int] = set()
        for src in sources:
            for k, ways in self._ways(src - h):
                if k in hit:
                    continue
                for way in ways:
                    for i in way:
                        m = tp[src - i]
                        if b[m] >= block or (pins and b[m] > 0 and pins >> m & 1):
                            break
                    else:
                        hit.add(k)
                        break
        return sum(self._weight[k] for k in hit) / 36.0

    def side_score(self, b: tuple, exposed: float = 1.0) -> tuple[float, bool]:
        """The position's terms for the player `b` is seen by (pips; higher is better) and
        whether there is contact; his blots count `exposed` times (less when he throws first
        and can cover them). Every term follows the variant's route: the opponent's men run
        down his own pips (`their_pip`), the same way round or the other."""
        if self.wide:
            return self._wide_score(b, exposed)
        tp = self.tp
        block = self.block
        pins = b[PINS] if self.pins else 0
        waiting = b[BAR] + (b[POOL] if self.pool else 0)
        pips = 25 * b[BAR] + (self.entry * b[POOL] if self.pool else 0)
        my_back = 25 if waiting else 0
        their_back = 25 if b[OPP_BAR] or (self.pool and b[OPP_POOL]) else 0
        mine_pinned = 0
        for p in range(1, 25):
            x = b[p]
            if x > 0:
                pips += p * x
                if p > my_back:
                    my_back = p
                if pins >> p & 1 and tp[p] > their_back:
                    # an opposing man pinned under the mover's: he is still behind them
                    their_back = tp[p]
            elif x < 0:
                if tp[p] > their_back:
                    their_back = tp[p]
                if pins >> p & 1:
                    # one of the mover's men pinned under the opponent's: it has its pips to go
                    mine_pinned += 1
                    pips += p
                    if p > my_back:
                        my_back = p
        # contact: a man of one side still has a man of the other ahead of him on his route
        contact = bool(waiting or their_back == 25) or any(
            (x < 0 and p < my_back) or (x > 0 and tp[p] < their_back)
            for p, x in enumerate(b[1:25], 1))
        score = -float(pips)
        if not contact:
            return score, False
        # a point is closed to the mover when the opponent holds it or pins one of his men there
        # (read only by the men waiting to enter and by `stuck`)
        if (waiting and self.hits and self.enter_bar) or self.W_STUCK:
            closed = [x <= -block or (x < 0 and pins >> p & 1 != 0)
                      for p, x in enumerate(b[:25])]
        if self.hits:
            loss = 0.0
            for p in range(1, 25):
                if b[p] == 1 and not pins >> p & 1 and tp[p] < their_back:
                    chance = self._hit_chance(b, p)
                    if chance:
                        cost = self.W_PIN if self.pinning else self.hit_to - p
                        loss += chance * (cost + self.W_HIT)
            score -= self.W_BLOT * exposed * loss
            # waiting to enter against the opponent's closed points where men enter (25 - d)
            if waiting and self.enter_bar:
                shut = sum(1 for p in range(19, 25) if closed[p]) / 6.0
                if shut >= 1.0:
                    score -= self.W_BAR * 6.0 * waiting
                else:
                    score -= self.W_BAR * waiting * (1.0 / (1.0 - shut * shut) - 1.0)
        if mine_pinned:
            score -= self.W_PINNED * mine_pinned
        if self.W_STUCK:
            # each man's landings of a single number (1 to 6) closed by the opponent
            stuck = 0
            for p in range(2, 25):
                x = b[p]
                if x > 0:
                    stuck += x * sum(1 for d in range(1, 7) if p - d >= 1 and closed[p - d])
            score -= self.W_STUCK * stuck
        made = [1 <= p <= 24 and b[p] >= block for p in range(25)]
        home = sum(1 for p in range(1, self.home_top + 1) if made[p])
        score += self.W_HOME * home
        if self.W_POINT:
            score += self.W_POINT * sum(made)
        # the longest prime with an opposing man behind it (he must pass it)
        run = best = top = 0
        for p in range(1, 25):
            if made[p]:
                run += 1
                top = tp[p] if run == 1 else max(top, tp[p])
                if run > best and their_back > top:
                    best = run
            else:
                run = 0
        if best >= 3:
            score += self.W_PRIME * (best - 1) ** 2
        their_home = self.their_home
        if any(made[p] for p in their_home):
            score += self.W_ANCHOR
        if self.W_BACK:
            score -= self.W_BACK * sum(b[p] for p in their_home if b[p] > 0)
        return score, True

    def _wide_score(self, b: tuple, exposed: float) -> tuple[float, bool]:
        """`side_score` on a board of 36 points: the race (men waiting count from the entry,
        pip 37), the blots a man of the opponent's behind them reaches with one number or two
        (his own pips, `their_pip`, down his route, men waiting entering on his 37 − d), made
        points, and those of his home row (the mover's far row) held."""
        slots, tp = self.slots, self.tp36
        n = len(slots) - 1
        entry = n + 1
        waiting = b[BAR] + (b[POOL] if self.pool else 0)
        theirs_waiting = b[OPP_BAR] + (b[OPP_POOL] if self.pool else 0)
        counts = [b[s] for s in slots]
        counts[0] = 0
        pips = entry * waiting + sum(p * x for p, x in enumerate(counts) if x > 0)
        # his men, by his own pips (those waiting at his 37)
        his = [tp[q] for q in range(1, n + 1) if counts[q] < 0]
        if theirs_waiting:
            his.append(entry)
        mine = [p for p in range(1, n + 1) if counts[p] > 0]
        if waiting:
            mine.append(entry)
        # contact: a man of one side still to pass a point where a man of the other stands
        contact = any(q < p or (tp[p] if p <= n else p) < tp[q]
                      for p in mine for q in range(1, n + 1) if counts[q] < 0) \
            or bool(theirs_waiting and mine) or bool(waiting and his)
        score = -float(pips)
        if not contact:
            return score, False
        block = self.block
        if self.hits:
            loss = 0.0
            for p in range(1, n + 1):
                if counts[p] != 1:
                    continue
                h = tp[p]
                hit: set[int] = set()
                for src in his:
                    for k, ways in self._ways(src - h) if src > h else ():
                        if k in hit:
                            continue
                        for way in ways:
                            if all(counts[tp[src - i]] < block for i in way):
                                hit.add(k)
                                break
                chance = sum(self._weight[k] for k in hit) / 36.0
                if chance:
                    # a hit man goes back off the board: the pips he had made are lost
                    loss += chance * (entry - p + self.W_HIT)
            score -= self.W_BLOT * exposed * loss
        made = [p for p in range(1, n + 1) if counts[p] >= block]
        score += self.W_HOME * sum(1 for p in made if p <= self.home_top)
        if self.W_POINT:
            score += self.W_POINT * len(made)
        if any(13 <= p <= 24 for p in made):
            score += self.W_ANCHOR
        return score, True

    def position(self, b: tuple, on_roll: bool) -> tuple[float, float, float]:
        """(the chance of winning the game, the share of gammons among the wins, the share of
        gammons among the losses) for the player `b` is seen by, `on_roll` when he throws
        next."""
        flip = self.variant.flip
        fb = flip(b)
        # the blots of the player who throws next are his to cover first
        threat = self.W_THREAT
        mine, contact = self.side_score(b, threat if on_roll else 1.0)
        theirs, _ = self.side_score(fb, 1.0 if on_roll else threat)
        s = mine - theirs + (self.W_TEMPO if on_roll else -self.W_TEMPO)
        if self.own:
            s += self.own_score(b, fb)
        tp = self.tp
        total = 25 * (b[BAR] + b[OPP_BAR]) + sum(b[p] * p if b[p] > 0 else -b[p] * tp[p]
                                                 for p in range(1, 25))
        if self.wide:
            total += 12 * (b[BAR] + b[OPP_BAR]) + sum(
                abs(b[self.slots[p]]) * p for p in range(25, len(self.slots)))
        if self.pool:
            total += self.entry * (b[POOL] + b[OPP_POOL])
        scale = (self.SCALE if contact else self.SCALE_RACE) * math.sqrt(max(total / 2.0, 1.0))
        p = 1.0 / (1.0 + math.exp(-max(min(s / scale, 40.0), -40.0)))
        return p, self._gammon_share(fb), self._gammon_share(b)

    def own_score(self, b: tuple, fb: tuple) -> float:
        """The file's own features: weight × (the value on `b`, seen by the player, − the value
        on `fb`, the same board seen by his opponent)."""
        ctx = self._no_points
        return sum(w * (int(fn(b, None, None, 0, 0, 0, ctx))
                        - int(fn(fb, None, None, 0, 0, 0, ctx)))
                   for fn, w in self.own)

    def _gammon_share(self, loser: tuple) -> float:
        """A rough share of wins that are gammons, from the loser's side (`loser` seen by him):
        none once he has borne a man off; more the more of his men are far from home."""
        if not self.levels or loser[OFF]:
            return 0.0
        far = sum(loser[p] for p in range(self.home_top + 1, 25) if loser[p] > 0) + loser[BAR]
        if self.wide:
            far += sum(loser[self.slots[p]] for p in range(25, len(self.slots))
                       if loser[self.slots[p]] > 0)
        return min(0.05 + 0.04 * far, 0.6)

    # -- leaves ---------------------------------------------------------------------------------

    def values(self, ls: Sequence[Leaf], me: int) -> tuple[np.ndarray, None, list[int]]:
        out = np.zeros(len(ls))
        rows: list[list[float]] = []
        where: list[int] = []
        if self.points_ladder:
            self._prefetch(ls, DICE)
        for i, lf in enumerate(ls):
            if self.points_ladder:
                # a finished partie or match too, in the unit of its net result
                out[i] = self.points_value(lf)
            elif lf.over:
                out[i] = of_result(cast(Any, lf.node).game.ladder.result(), me, lf.ladder or {})
            elif lf.game_end is not None:
                out[i] = of_game_end(lf.game_end[0], lf.game_end[1], lf.ladder or {})
            else:
                p, g_me, g_opp = self.position(lf.board, lf.on_roll)
                row = [p]
                for k, _v in enumerate(self.levels):
                    row.append(p * g_me if k == 0 else 0.0)
                for k, _v in enumerate(self.levels):
                    row.append((1.0 - p) * g_opp if k == 0 else 0.0)
                rows.append(row)
                where.append(i)
        if rows:
            Y = np.array(rows)
            first = ls[where[0]].ladder
            if all(ls[i].ladder is first for i in where):
                out[where] = of_outcomes(Y, self.levels, first)
            else:
                for j, i in enumerate(where):
                    out[i] = of_outcomes(Y[j:j + 1], self.levels, ls[i].ladder)[0]
        return out, None, []

    def cheap_values(self, ls: Sequence[Leaf], me: int) -> np.ndarray | None:
        """A first pass over many leaves (players/search.py keeps the best for `values`): the
        points to come over a few throws only; None where `values` is cheap already."""
        if not (self.scoring and self.points_ladder):
            return None
        out = np.zeros(len(ls))
        self._prefetch(ls, FIRST_PASS)
        for i, lf in enumerate(ls):
            out[i] = self.points_value(lf, FIRST_PASS)
        return out

    def _prefetch(self, ls: Sequence[Leaf], dice: tuple) -> None:
        """The points of the next throws that `to_come` will read for these leaves, computed in
        one call of the compiled throws where the variant has them (into the memo)."""
        native = self.variant.__dict__.get("native_throws")
        if native is None or not self.scoring:
            return
        memo = self._memo
        flip = self.variant.flip
        n = len(dice)
        want: dict[tuple, None] = {}
        for lf in ls:
            if lf.over:
                continue
            b = lf.board
            r_me, r_opp = lf.rolls
            for key in ((b, r_me + 1, lf.setup, n), (flip(b), r_opp + 1, lf.setup, n)):
                if key not in memo:
                    want[key] = None
        if not want:
            return
        keys = list(want)
        if len(memo) + len(keys) > 200_000:
            memo.clear()
        if dice is not DICE or len(FIRST_PASS) + len(REST) != len(DICE):
            for key, got in zip(keys, native.mean_points_many(keys, dice)):
                memo[key] = got
            return
        # over every throw: the first pass's sum where it is known, and the other throws'
        first_w = sum(w for _a, _b, w in FIRST_PASS)
        weight = sum(w for _a, _b, w in DICE)
        part: list[tuple] = []
        whole: list[tuple] = []
        for key in keys:
            (part if key[:3] + (len(FIRST_PASS),) in memo else whole).append(key)
        if whole:
            for key, got in zip(whole, native.mean_points_many(whole, DICE)):
                memo[key] = got
        if part:
            for key, rest in zip(part, native.points_many(part, REST)):
                first = round(memo[key[:3] + (len(FIRST_PASS),)] * first_w)
                memo[key] = (first + rest) / weight

    def points_value(self, lf: Leaf, dice: tuple = DICE) -> float:
        """The parties, in the unit of their net result: the ladder's holes, marks and jetons
        and the points towards the next hole, the points to come and (where men are hit) the
        position; the continuous match in game values (`continuous_value`). A finished play is
        valued by the same terms of its final state, so that ending it is weighed in the unit
        of going on."""
        s = lf.ladder or {}
        if ladder_class(s).points_unit == "game values":
            return self.continuous_value(lf, s, dice)
        pph = float(s.get("points_per_hole") or 12)
        holes = s.get("mark_holes") or s.get("holes") or {"me": 0, "opponent": 0}
        value = float(holes["me"] - holes["opponent"])
        value += (s["points"]["me"] - s["points"]["opponent"]) / pph
        if "jetons" in s:
            value += (s["jetons"]["me"] - s["jetons"]["opponent"]) / 2.0
            lost = s.get("lost_marks", {"me": 0, "opponent": 0})
            value -= 2.0 * (lost["me"] - lost["opponent"])
        if lf.over:
            return value
        value += self.to_come(lf, dice) / pph
        if self.hits and self.W_POSITION:
            p = self.position(lf.board, lf.on_roll)[0]
            value += self.W_POSITION * (2.0 * p - 1.0)
        return value

    def to_come(self, lf: Leaf, dice: tuple = DICE) -> float:
        """The points the player can expect from the next throw, less his opponent's, and at
        weight `later` from the throw after it (0 where nothing scores)."""
        if not self.scoring:
            return 0.0
        b = lf.board
        flip = self.variant.flip
        setup = lf.setup
        r_me, r_opp = lf.rolls
        if lf.on_roll:
            now = self.throw_points(b, r_me + 1, setup, dice)
            later = -self.throw_points(flip(b), r_opp + 1, setup, dice)
        else:
            now = -self.throw_points(flip(b), r_opp + 1, setup, dice)
            later = self.throw_points(b, r_me + 1, setup, dice)
        return now + self.W_LATER * later

    def continuous_value(self, lf: Leaf, s: dict, dice: tuple = DICE) -> float:
        """The continuous match (the 12-point Tric-Trac), in game values: the match's totals
        so far, and the game in progress as its chance of being won times what it would be
        worth by the variant's value rules on the loser's points as they stand, less the
        chance of losing it times what that would cost. The chance comes from the points each
        side still needs, those to come, and the position, through a logistic curve whose
        width grows with the square root of the points still to score."""
        tot = float(s["games"]["me"] - s["games"]["opponent"])
        pending = s.get("pending")
        if pending is not None:
            # a game won and not yet resolved: its value is the winner's, the next game even
            tot += pending["value"] if pending["winner"] == "me" else -pending["value"]
            return tot
        if lf.over:
            return tot
        pm, po = s["points"]["me"], s["points"]["opponent"]
        target = int(s.get("target") or 12)
        z = (pm - po + self.to_come(lf, dice)) / (
            self.SCALE_POINTS * math.sqrt(max(2 * target - pm - po, 1)))
        if self.hits and self.W_POSITION:
            p = self.position(lf.board, lf.on_roll)[0]
            z += self.W_POSITION * (2.0 * p - 1.0)
        win = 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))
        b = lf.board
        v = self.variant
        return tot + win * value_of(v, b, (pm, po))[0] - (1.0 - win) * value_of(
            v, v.flip(b), (po, pm))[0]

