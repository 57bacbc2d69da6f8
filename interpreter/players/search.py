"""The search player: expectimax over the dice on copies of the game, every decision decided
the same way.

`search:N` looks N throws ahead: at depth 1 each answer's leaf (the state at the end of the
throw, players/leaves.py) is valued by the judge and the best taken; at depth 2 the answers
the cheap first pass ranks best (`width` of them) are looked at again through every throw of
the player who throws next — 21 throws weighed by their chance, each answered by that player's
best answer one throw ahead — and so on. Plays, going or staying, doubling, taking, continuing
or going away are all answers of decisions and are all valued alike: each choice is played on a
copy by the turn loop (engine/branch.py), so the ladders mark and decide as in the game.

The judge values a leaf for a player in the unit of what the play is won by (players/utility):
`HeuristicJudge` (players/heuristic.py, from the variant file alone) by default, a trained
network (`NetJudge`, players/learned.py) with `search:N:learned[:FILE]`.

`rollout:N` values the answers of each decision by N playouts of a fast policy (the greedy
bot) from the state each answer leads to, each cut after `horizon` throws and valued there by
the judge (exactly when the play is over); all answers are played out with the same dice
(common random numbers), and a play decision's candidates are first narrowed by the judge.

Where the variant's throws need nothing but end positions (the backgammon family), the
opponent's replies of a depth-2 search are read from the move generator directly, without
copies: the ladder does not change during such a throw. There a play looked at three throws
ahead narrows as it goes (`NARROW`, `NEAR`, `REPLY_WIDTH`), and the cube's questions, whose
answers are played on copies, are looked at two throws ahead at most.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence, cast

from interpreter.engine import branch
from interpreter.engine.branch import DICE, DICE3, Node
from interpreter.engine.contract import Decision
from interpreter.engine.game import value_of
from interpreter.players._numpy import np
from interpreter.players.leaves import Leaf, follow, leaf_of, leaves, quick

#: the widest search a player kind may ask for
MAX_DEPTH = 4
#: a play looked at three throws ahead or more: of the answers the look two throws ahead ranks
#: best, at most `NARROW` within `NEAR` of the best (in the unit of the judge's values) are
#: looked at further, and at the second throw of the look the side throwing has his best
#: `REPLY_WIDTH` answers by the first pass looked at one throw further
NARROW = 3
NEAR = 0.05
REPLY_WIDTH = 3


class SearchPlayer:
    """Answers every decision by the search (see the module docstring)."""

    kind = "search"
    capabilities: frozenset[str] = frozenset({"branching", "doubles"})

    def __init__(self, variant: Any, judge: Any, *, depth: int = 1, width: int = 6,
                 rollouts: int = 0, horizon: int = 60, seed: Any = 0, kind: str | None = None,
                 judge_of: Callable[[Any], Any] | None = None):
        self.variant = variant
        self.judge = judge
        #: the judge of another variant, for a play whose games change variant (a rotation's)
        self.judge_of = judge_of
        self.depth = depth
        self.width = width
        self.rollouts = rollouts
        self.horizon = horizon
        self.seed = seed
        self.rng = random.Random(f"{seed}:search")
        if kind is not None:
            self.kind = kind
        self.quick = quick(variant)
        #: the values of boards that stand after a throw without a play (`_quick_reply`)
        self._stood: dict[tuple, float] = {}

    # -- the protocol ---------------------------------------------------------------------------

    def answer(self, decision: Any) -> int:
        if len(decision.choices) == 1:
            return 0
        self.adopt(decision.game.variant)
        ranked = self.rank(decision)
        return ranked[0][0]

    def adopt(self, variant: Any) -> None:
        """Judge the games of `variant` from now on: a rotation (Tavli) plays each game with its
        own file's rules, and the judge reads that file's route, pins and `[bot]` table."""
        if variant is self.variant or self.judge_of is None:
            return
        self.variant = variant
        self.judge = self.judge_of(variant)
        self.quick = quick(variant)
        self._stood.clear()

    def replayed(self, decision: Any, index: int) -> None:
        """Nothing to restore: the search keeps no state between decisions but its playouts'
        generator, reseeded at each decision."""

    # -- ranking the answers of a decision --------------------------------------------------------

    def rank(self, decision: Any, root: Node | None = None) -> list[tuple[int, float]]:
        """Every answer of `decision` with its value for the player asked, best first (the
        deeper searches value only the best answers of the first pass: the others keep their
        first-pass value and come after)."""
        me = decision.player
        self._stood.clear()
        if root is None and not self.quick_play(decision) and not branch.branchable(decision):
            return self._rank_without_copies(decision)
        ls = leaves(decision, me, self._inner, root=root)
        cheap = self.judge.cheap_values(ls, me) if len(ls) > self.width and hasattr(
            self.judge, "cheap_values") else None
        if cheap is not None:
            # a first pass ranks every answer; the judge's full value goes to the best only
            first = [int(i) for i in np.argsort(-cheap, kind="stable")]
            keep = first[:self.width]
            full, _x, _o = self.judge.values([ls[i] for i in keep], me)
            values = cheap - (cheap.max() - full.min() + 1.0)
            values[keep] = full
        else:
            values, _x, _o = self.judge.values(ls, me)
        order = [int(i) for i in np.argsort(-values, kind="stable")]
        if len(order) == 1:
            return [(order[0], float(values[order[0]]))]
        if self.rollouts:
            keep = order[:self.width] if decision.is_play else order
            rolled = self._rollout_values(decision, root, keep, ls, me)
            top = sorted(keep, key=lambda i: -rolled[i])
            return [(i, rolled[i]) for i in top] + \
                [(i, float(values[i])) for i in order if i not in rolled]
        depth = self.depth
        if self.quick and not self.quick_play(decision):
            # the cube's questions of a quick variant: two throws ahead at most (each answer
            # is played on a copy, and a third throw there costs seconds a question)
            depth = min(depth, 2)
        if depth <= 1:
            return [(i, float(values[i])) for i in order]
        keep = order[:self.width]
        narrowed: list[tuple[int, float]] = []
        if self.quick_play(decision):
            # two throws ahead in one call of the judge where it can; a deeper look narrows
            deep = self._replies(ls, keep, me)
            if depth >= 3:
                narrowed = self._narrowed(ls, keep, deep, me, depth)
        else:
            deep = {i: self.expect(ls[i], me, depth - 1) for i in keep}
        seen = {i for i, _v in narrowed}
        top = sorted((i for i in keep if i not in seen), key=lambda i: -deep[i])
        return narrowed + [(i, deep[i]) for i in top] + \
            [(i, float(values[i])) for i in order if i not in deep]

    def _narrowed(self, ls: Sequence[Leaf], keep: Sequence[int], two: dict[int, float],
                  me: int, depth: int) -> list[tuple[int, float]]:
        """Of the kept answers valued two throws ahead (`two`), the best `NARROW` within `NEAR`
        of the best, valued `depth` throws ahead and ranked by that, best first (they come
        before the others: the deeper look decides between them); none where only one is
        that near."""
        ranked = sorted(keep, key=lambda i: -two[i])
        near = [i for i in ranked[:NARROW] if two[ranked[0]] - two[i] <= NEAR]
        if len(near) < 2:
            return []
        deeper = {i: self.expect(ls[i], me, depth - 1) for i in near}
        return [(i, deeper[i]) for i in sorted(near, key=lambda i: -deeper[i])]

    def _replies(self, ls: Sequence[Leaf], keep: Sequence[int], me: int) -> dict[int, float]:
        """`expect(leaf, me, 1)` of the kept leaves: in one call of the judge where it can (a
        network in compiled code: players/learned.py `NetJudge.replies`), else leaf by leaf;
        the leaves that end the play are valued as `expect` values them."""
        replies = getattr(self.judge, "replies", None)
        open_ = [i for i in keep if not (ls[i].over or ls[i].game_end is not None)]
        got = replies([ls[i] for i in open_], me) if replies is not None and open_ else None
        out = dict(zip(open_, got)) if got is not None else {}
        for i in keep:
            if i not in out:
                out[i] = self.expect(ls[i], me, 1)
        return out

    def quick_play(self, decision: Any) -> bool:
        return decision.kind == "play" and self.quick

    def _rank_without_copies(self, decision: Any) -> list[tuple[int, float]]:
        """A game that keeps no checkpoints (a driver that did not turn `branching` on): the
        answers in their order (the first holds), and the copies start at the next throw."""
        branch.enable(decision.game)
        return [(i, 0.0) for i in range(len(decision.choices))]

    def _inner(self, node: Node) -> int:
        """The answer to a decision met inside a throw on a copy: the player's best one throw
        ahead."""
        d = cast(Decision, node.decision)
        if len(d.choices) == 1:
            return 0
        ls = leaves(d, d.player, self._inner, root=node)
        values, _x, _o = self.judge.values(ls, d.player)
        return int(np.argmax(values))

    # -- expectimax -----------------------------------------------------------------------------

    def expect(self, leaf: Leaf, me: int, throws: int, further: bool = True) -> float:
        """The value of `leaf` for `me` looking `throws` more throws ahead (`further`: see
        `_quick_reply`)."""
        if leaf.over or leaf.game_end is not None or throws <= 0:
            return float(self.judge.values([leaf], me)[0][0])
        roller = me if leaf.on_roll else 1 - me
        sign = 1.0 if roller == me else -1.0
        total = 0.0
        fixed = self.variant.fixed_third(leaf.board) if self.variant.fixed_slot else 0
        if fixed:
            # a third die fixed before the game: the two thrown dice are the chance
            for d1, d2, w in DICE:
                total += w * sign * self._best_after_throw(leaf, me, roller, d1, d2, throws,
                                                           fixed, further)
            return total / 36.0
        if self.variant.dice_count == 3:
            for d1, d2, d3, w in DICE3:
                total += w * sign * self._best_after_throw(leaf, me, roller, d1, d2, throws, d3,
                                                           further)
            return total / 216.0
        for d1, d2, w in DICE:
            total += w * sign * self._best_after_throw(leaf, me, roller, d1, d2, throws,
                                                       further=further)
        return total / 36.0

    def _best_after_throw(self, leaf: Leaf, me: int, roller: int, d1: int, d2: int,
                          throws: int, d3: int = 0, further: bool = True) -> float:
        """The roller's best value (for him) after throwing d1-d2 from `leaf`."""
        if leaf.node is None:
            return self._quick_reply(leaf, me, roller, d1, d2, throws, d3, further)
        node = branch.throw(leaf.node, d1, d2, d3)
        if node.how != "decision":
            lf = leaf_of(node, roller) if node.how != "dice" else follow(node, roller,
                                                                          self._inner)
            return self.expect(lf, roller, throws - 1)
        d = cast(Decision, node.decision)
        ls = leaves(d, d.player, self._inner, root=node)
        values, _x, _o = self.judge.values(ls, d.player)
        sign = 1.0 if d.player == roller else -1.0
        if throws <= 1:
            return sign * float(np.max(values))
        order = np.argsort(-values)[:self.width]
        return sign * max(self.expect(ls[int(i)], d.player, throws - 1) for i in order)

    def _quick_reply(self, leaf: Leaf, me: int, roller: int, d1: int, d2: int,
                     throws: int, d3: int = 0, further: bool = True) -> float:
        """The roller's best reply read from the move generator (a quick variant). A throw he
        cannot play, at the last throw looked at, is valued one throw further (the other side
        throws next on the same board), once: the network never learns the end position of a
        throw without a play (the trainer steps after its choices only), and valued directly
        such a board (its mover still on the bar) reads as nearly even where he is all but
        shut out, which turned the search at depth 2 away from hitting."""
        v = self.variant
        b = leaf.board if roller == me else v.flip(leaf.board)
        results = v.generator.results(b, d1, d2, 1, d3) if d3 else v.generator.results(b, d1, d2)
        ladder = self._ladder_for(leaf, me, roller)
        rolls = leaf.rolls if roller == me else (leaf.rolls[1], leaf.rolls[0])
        if throws <= 1 and further and len(results) == 1 and results[0] == b and \
                not getattr(self.judge, "values_no_play", True):
            key = (b, roller, repr(ladder), rolls)
            got = self._stood.get(key)
            if got is None:
                got = self._stood[key] = self.expect(
                    Leaf(b, False, (rolls[0] + 1, rolls[1]), ladder), roller, 1, further=False)
            return got
        rules = v.rules
        end = rules.game_over if rules.end else None
        ls = []
        for r in results:
            ended = end(r) if end is not None else None
            if ended is None:
                ls.append(Leaf(r, False, (rolls[0] + 1, rolls[1]), ladder))
            else:
                won = ended == "mover"
                k = value_of(v, r if won else v.flip(r))[0]
                ls.append(Leaf(r, False, rolls, ladder, game_end=(won, k)))
        values, _x, _o = self.judge.values(ls, roller)
        if throws <= 1:
            return float(np.max(values))
        if throws == 2:
            # the second throw of a look three throws ahead: the roller's best few answers
            # one throw further, in one call of the judge where it can
            keep = [int(i) for i in np.argsort(-values, kind="stable")[:REPLY_WIDTH]]
            return max(self._replies(ls, keep, roller).values())
        order = np.argsort(-values)[:self.width]
        return max(self.expect(ls[int(i)], roller, throws - 1) for i in order)

    def _ladder_for(self, leaf: Leaf, me: int, side: int) -> dict | None:
        """The ladder's state seen by `side`, from a quick leaf seen by `me` (the state is the
        same throughout such a throw: only its sides are exchanged)."""
        if side == me:
            return leaf.ladder
        return mirror(leaf.ladder)

    # -- rollouts -------------------------------------------------------------------------------

    def _rollout_values(self, decision: Any, root: Node | None, keep: Sequence[int],
                        ls: Sequence[Leaf], me: int) -> dict[int, float]:
        from interpreter.players.bots import GreedyBot

        # the copies replay the throw's answers so far, the cube's included: they ask the
        # questions the live game asked (a copy without the cube would give the cube's answer
        # to the next question)
        base = root if root is not None else branch.root(decision)
        players = (GreedyBot(f"{self.seed}:r0"), GreedyBot(f"{self.seed}:r1"))
        seeds = [self.rng.random() for _ in range(self.rollouts)]
        out: dict[int, float] = {}
        for i in keep:
            total = 0.0
            for s in seeds:
                node = branch.answer(Node(base.game, None, decision, "decision",
                                          random.Random(s), base.cube, live=base.live), i)
                total += self._playout_value(node, players, me)
            out[i] = total / len(seeds)
        return out

    def _playout_value(self, node: Node, players: Sequence[Any], me: int) -> float:
        g = branch.playout(node, players, max_turns=self.horizon)
        lf = leaf_of(Node(g, None, None, "end" if g.ladder.finished else "throw", node.rng,
                          False), me)
        return float(self.judge.values([lf], me)[0][0])


def mirror(state: dict | None) -> dict | None:
    """A ladder's state seen by the other player: every {"me", "opponent"} pair exchanged, and
    the words "me" and "opponent" where they name a side."""
    if state is None:
        return None

    def swap(x: Any) -> Any:
        if isinstance(x, dict):
            if set(x) == {"me", "opponent"}:
                return {"me": swap(x["opponent"]), "opponent": swap(x["me"])}
            return {k: swap(v) for k, v in x.items()}
        if x == "me":
            return "opponent"
        if x == "opponent":
            return "me"
        return x

    return swap(state)
