"""Copies of a game for searching players (engine/branch.py): a copy made at any decision and
given the live game's answers reaches exactly the state the live game reaches, in every
variant and ladder; copies never touch the live game; rollouts finish."""
from __future__ import annotations

import zlib

import pytest

from interpreter.engine import branch
from interpreter.engine.game import Game
from interpreter.variant.build import load_variant

PLAYABLE = ["backgammon", "hypergammon", "nackgammon", "tric-trac-12", "triktrak",
            "trictrac-ecrire", "trictrac-combine"]


def choose(d) -> int:
    """A deterministic answer that depends only on what the decision shows (so that the copy
    and the live game answer alike); doubles now and then, always takes."""
    key = zlib.crc32(repr((d.kind, d.player, list(d.choices), d.game.turns)).encode())
    if d.kind == "double":
        return 1 if key % 7 == 0 else 0
    if d.kind == "take":
        return 0
    return key % len(d.choices)


class Predictor:
    """At each decision, follows a copy to the end of the throw with the answers the live game
    will get, and checks at the next throw that the live game got there."""

    kind = "predictor"
    capabilities = frozenset({"branching", "doubles"})

    def __init__(self) -> None:
        self.expect: tuple | None = None
        self.checked = 0

    def answer(self, d):
        g = d.game
        cp = g._cp
        if self.expect is not None and cp.turns == self.expect[0]:
            assert (cp.board, cp.mover, cp.ladder.sides()) == self.expect[1:]
            self.checked += 1
        self.expect = None
        before = (g.board, g.mover, g.turns, g.ladder.sides(), list(g._answers))
        i = choose(d)
        node = branch.answer(branch.root(d), i)
        while node is not None and node.how in ("decision", "dice"):
            if node.how == "dice":
                # the dice of this throw: the live game's when they are already thrown
                node = branch.throw(node, *g.dice) if g.turns == cp.turns + 1 else None
            else:
                node = branch.answer(node, choose(node.decision))
        if node is not None and node.how == "throw":
            c = node.game
            self.expect = (c.turns, c.board, c.mover, c.ladder.sides())
        assert (g.board, g.mover, g.turns, g.ladder.sides(), list(g._answers)) == before
        return i


@pytest.mark.parametrize("vid", PLAYABLE)
def test_copies_reach_what_the_live_game_reaches(vid):
    v = load_variant(vid)
    checked = 0
    for k in range(2):
        p = Predictor()
        Game(v, f"branch-{k}", keep_record=False, max_turns=150).run([p, p])
        checked += p.checked
    assert checked >= 20


@pytest.mark.parametrize("vid", ["backgammon", "triktrak"])
def test_a_copy_throws_every_dice_and_rollouts_finish(vid):
    from interpreter.players.bots import GreedyBot

    v = load_variant(vid)
    seen = []

    class Looker:
        kind = "looker"
        capabilities = frozenset({"branching"})

        def answer(self, d):
            if not seen:
                node = branch.answer(branch.root(d), 0)
                assert node.how == "throw"
                kids = [branch.throw(node, a, b) for a, b, _w in branch.DICE]
                seen.append(kids)
                players = (GreedyBot(1), GreedyBot(2))
                out = branch.playout(node, players)
                assert out.ladder.finished
                assert not d.game.ladder.finished
            return 0

    Game(v, "dice", keep_record=False, max_turns=3, doubles=(False, False)).run(
        [Looker(), Looker()])
    kids = seen[0]
    assert len(kids) == 21
    # the opponent throws each of the 21 throws in turn: his decision or the end of his throw
    assert all(k.how in ("decision", "throw", "end") for k in kids)
    assert [k.game.dice for k in kids] == [(a, b) for a, b, _w in branch.DICE]


def test_a_game_without_checkpoints_refuses_copies():
    v = load_variant("backgammon")

    class Plain:
        kind = "plain"
        capabilities = frozenset()

        def answer(self, d):
            assert not branch.branchable(d)
            with pytest.raises(branch.NotBranchable):
                branch.root(d)
            return 0

    Game(v, "plain", keep_record=False, max_turns=4, doubles=(False, False)).run(
        [Plain(), Plain()])
