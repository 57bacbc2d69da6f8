"""What each answer to a decision leads to, for players that judge states rather than answers.

A `Leaf` is the state at the end of a throw — the next throw's start — or at the end of the
play, seen by one player: the board from his side, whether he throws next, the throws each
side has made since the last set-up, the ladder's state (`Ladder.state`, seen by him) and,
for a copy of the game (engine/branch.py), the copy itself so that a search can go deeper.

`leaves(decision, me, choose)` gives one leaf per choice of a decision. Where the variant's
throws need nothing but the end positions (no scoring rule, no preference, the end rules decide
when the men are all off, no extra throw) a play's leaf is its end position, read from the
decision without a copy ("quick" variants: the backgammon family). Otherwise each choice is
played on a copy by the turn loop itself, on to the end of the throw; the decisions that come
later in the same throw (an optional extra throw, go away or play on, a restack's entry…)
are answered by `choose(node)`.
"""
from __future__ import annotations

from typing import Any, Callable

from interpreter.engine import branch
from interpreter.engine.branch import Node


class Leaf:
    """The state after an answer (see the module docstring)."""

    __slots__ = ("board", "on_roll", "rolls", "ladder", "_node", "over", "points", "game_end",
                 "source", "setup", "before_dice")

    def __init__(self, board: tuple, on_roll: bool, rolls: tuple[int, int],
                 ladder: dict | None, node: Node | None = None, over: bool = False,
                 points: int = 0, game_end: tuple[bool, int] | None = None,
                 source: tuple | None = None, setup: int = 1):
        self.board = board
        self.on_roll = on_roll
        self.rolls = rolls
        self.ladder = ladder
        self._node = node
        #: (node, choice, choose, me): how to make the copy when a search needs it
        self.source = source
        self.setup = node.game.setup if node is not None else setup
        #: the play is over (its result is the ladder's state)
        self.over = over
        #: in a quick variant, the points of the play chosen (none there) — kept for scoring
        self.points = points
        #: a game ended by its end rules on this answer: (won by "me", its value by the value
        #: rules), when the leaf was read without a copy
        self.game_end = game_end
        #: the state before a throw's dice (after the cube's questions): nobody has played it
        self.before_dice = False

    @property
    def node(self) -> Node | None:
        """The copy standing at this leaf (made when first asked, for a leaf that shares its
        ladder's state with another: see `leaves`)."""
        if self._node is None and self.source is not None:
            root, i, choose, me = self.source
            self._node = follow(branch.answer(root, i), me, choose)._node
            self.source = None
        return self._node

    def __repr__(self) -> str:
        return f"Leaf(on_roll={self.on_roll}, over={self.over}, end={self.game_end})"


def quick(variant: Any) -> bool:
    """Whether a play's leaf is its end position (see the module docstring)."""
    return (not variant.has_roll_hooks and variant.all_off == "end"
            and not variant.doublet_rethrow)


def leaf_of(node: Node, me: int) -> Leaf:
    """The leaf of a copy that stands between two throws or at the end, seen by `me`."""
    g = node.game
    b = g.board
    mine = g.mover == me
    board = b if mine else g.variant.flip(b)
    r = g.rolls
    return Leaf(board, mine and node.how != "end", (r[me], r[1 - me]), g.ladder.state(me),
                node, over=node.how == "end")


def quick_leaves(decision: Any, me: int) -> list[Leaf]:
    """The leaves of a play decision of a quick variant, from the decision alone."""
    view = decision.view
    v = view.variant
    rules = v.rules
    ladder = view.ladder
    rolls = view.rolls
    end = rules.game_over if rules.end else None
    game = decision.game
    out = []
    for b in decision.choices:
        ended = end(b) if end is not None else None
        if ended is None:
            out.append(Leaf(b, False, rolls, ladder))
        else:
            won = ended == "mover"
            k, _rule = game.game_value(b if won else v.flip(b))
            out.append(Leaf(b, False, rolls, ladder, game_end=(won, k)))
    return out


def follow(node: Node, me: int, choose: Callable[[Node], int]) -> Leaf:
    """Run a copy on through the decisions left in its throw (answered by `choose`) to the
    throw's end or the play's, and its leaf."""
    while node.how == "decision":
        node = branch.answer(node, choose(node))
    if node.how == "throw" or node.how == "end":
        return leaf_of(node, me)
    if node.how == "dice":
        # a throw's dice to come before the throw's end: only after the cube questions, which
        # precede the dice (the leaf is the state before them)
        return leaf_of_dice(node, me)
    return leaf_of(node, me)


def leaf_of_dice(node: Node, me: int) -> Leaf:
    """The leaf of a copy waiting for its dice (after the cube questions of a throw)."""
    g = node.game
    mine = g.mover == me
    board = g.board if mine else g.variant.flip(g.board)
    r = g.rolls
    lf = Leaf(board, mine, (r[me], r[1 - me]), g.ladder.state(me), node)
    lf.before_dice = True
    return lf


def leaves(decision: Any, me: int, choose: Callable[[Node], int],
           root: Node | None = None) -> list[Leaf]:
    """One leaf per choice of `decision` (see the module docstring). `root` is the decision as
    a node when it is a copy's (a search's inner decision)."""
    if root is None and decision.is_play and decision.kind == "play" \
            and quick(decision.game.variant):
        return quick_leaves(decision, me)
    node = root if root is not None else branch.root(decision)
    if decision.kind == "play" and same_ladder(decision.game.variant):
        return shared_leaves(decision, node, me, choose)
    return [follow(branch.answer(node, i), me, choose) for i in range(len(decision.choices))]


def same_ladder(variant: Any) -> bool:
    """Whether the plays of one throw leave the ladder in the same state, whichever is chosen:
    nothing is scored on the play, and the throw ends with the play (no extra throw). Only the
    plays that end the game or bring the men all off then need copies of their own."""
    return not variant.rules.score_play and not variant.doublet_rethrow


def shared_leaves(decision: Any, node: Node, me: int, choose: Callable[[Node], int]) -> list[Leaf]:
    """The leaves of a play decision whose plays all leave the ladder alike (`same_ladder`):
    one copy gives the ladder's state at the end of the throw, every ordinary play shares it
    with its own end position (its copy is made only if a search needs it); the plays that end
    the game, bring the men all off or meet another decision on the way get their own copy."""
    v = decision.game.variant
    rules = v.rules
    checkers = v.checkers
    end = rules.game_over if rules.end else None
    out: list[Leaf | None] = [None] * len(decision.choices)
    ref: Leaf | None = None
    for i, b in enumerate(decision.choices):
        special = b[0] == checkers or (end is not None and end(b) is not None)
        if special:
            out[i] = follow(branch.answer(node, i), me, choose)
            continue
        if ref is None:
            first = branch.answer(node, i)
            if first.how != "throw" or first.game.mover == me:
                out[i] = follow(first, me, choose)
                continue
            ref = leaf_of(first, me)
            out[i] = ref
            continue
        out[i] = Leaf(b, False, ref.rolls, ref.ladder, source=(node, i, choose, me),
                      setup=ref.setup)
    return out    # type: ignore[return-value]
