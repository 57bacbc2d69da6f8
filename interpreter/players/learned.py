"""The self-taught player: a value network trained by `tablier train` (players/td.py) judges the
state each answer leads to (players/leaves.py) and takes the best, one throw ahead; under the
search (`search:2:learned`) it values the search's leaves.

Player kinds: `learned` (the weights shipped for the variant, `interpreter/players/weights/`)
or `learned:FILE` (a weights file).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Sequence, cast

from interpreter.players._numpy import np

from interpreter.errors import TablierError
from interpreter.players.features import Encoder
from interpreter.players.leaves import Leaf, leaves, quick
from interpreter.players.net import ValueNet, WeightsError
from interpreter.players.utility import of_game_end, of_outcomes, of_result
from interpreter.scoring.registry import ladder_class


def shipped_weights(variant_id: str) -> Path | None:
    """The weights shipped in the package for a variant (None when there are none)."""
    ref = resources.files("interpreter.players").joinpath("weights", f"{variant_id}.npz")
    try:
        with resources.as_file(ref) as path:
            return Path(path) if Path(path).is_file() else None
    except (FileNotFoundError, TypeError):
        return None


def load_net(variant: Any, ref: str | None) -> ValueNet:
    """The network of `learned[:FILE]` for `variant`, checked against its features."""
    if ref:
        path = Path(ref)
    else:
        found = shipped_weights(variant.id)
        if found is None:
            raise WeightsError(f"no weights ship for {variant.id!r}: train some with `tablier "
                               f"train {variant.id} --games N --out FILE` and play "
                               f"`learned:FILE`")
        path = found
    net = ValueNet.load(path)
    net.check_features(Encoder.of_net(variant, net).names, variant.id, str(path))
    return net


class NetJudge:
    """Values leaves with a network, in the unit of what the play is won by
    (players/utility.py)."""

    def __init__(self, variant: Any, net: ValueNet, encoder: Encoder | None = None):
        self.variant = variant
        self.net = net
        self.encoder = encoder or Encoder.of_net(variant, net)
        self.levels = net.levels

    @property
    def unit(self) -> str:
        """The unit of its values, as hints show it (players/utility.py)."""
        return ladder_class(self.variant.ladder).bot_unit(
            getattr(self.variant.ladder, "match_length", 0))

    def features(self, ls: Sequence[Leaf]) -> np.ndarray:
        enc = self.encoder
        return enc.encode([lf.board for lf in ls],
                          extras=[enc.extra(lf.on_roll, lf.rolls, lf.ladder) for lf in ls])

    def values(self, ls: Sequence[Leaf], me: int) -> tuple[np.ndarray, np.ndarray | None,
                                                           list[int]]:
        """(utilities, features of the leaves still in play, their indices)."""
        out = np.zeros(len(ls))
        open_ = []
        for i, lf in enumerate(ls):
            if lf.over:
                out[i] = of_result(cast(Any, lf.node).game.ladder.result(), me, lf.ladder or {})
            elif lf.game_end is not None:
                out[i] = of_game_end(lf.game_end[0], lf.game_end[1], lf.ladder or {})
            else:
                open_.append(i)
        if not open_:
            return out, None, open_
        rows = [ls[i] for i in open_]
        X = self.features(rows)
        Y = self.net.outputs_of(X)
        if all(r.ladder is rows[0].ladder for r in rows):
            out[open_] = of_outcomes(Y, self.levels, rows[0].ladder)
        else:
            for j, (i, r) in enumerate(zip(open_, rows)):
                out[i] = of_outcomes(Y[j:j + 1], self.levels, r.ladder)[0]
        return out, X, open_

    def leaf_outputs(self, lf: Leaf) -> np.ndarray:
        return self.net.outputs_of(self.features([lf]))[0]


class LearnedPlayer:
    """Takes the answer whose leaf the network values best (see the module docstring)."""

    kind = "learned"
    capabilities: frozenset[str] = frozenset({"branching", "doubles"})

    def __init__(self, variant: Any, net: ValueNet, *, encoder: Encoder | None = None,
                 learner: Any = None):
        self.judge = NetJudge(variant, net, encoder)
        self.learner = learner
        if learner is not None:
            # self-play trains without the cube; copies only where a leaf needs the engine: a
            # play's leaf that is more than its end position, or a roll event's question
            # (acey-deucey's doublet) valued by where each answer leads
            copies = not quick(variant) or variant.throws.bonus_throw is not None
            self.capabilities = frozenset({"branching"}) if copies else frozenset()

    def _choose_node(self, node: Any) -> int:
        d = node.decision
        ls = leaves(d, d.player, self._choose_node, root=node)
        values, _X, _open = self.judge.values(ls, d.player)
        return int(np.argmax(values))

    def answer(self, decision: Any) -> int:
        me = decision.player
        ls = leaves(decision, me, self._choose_node)
        values, X, open_ = self.judge.values(ls, me)
        i = int(np.argmax(values))
        if self.learner is not None:
            x = cast("np.ndarray", X)[open_.index(i)] if i in open_ else None
            self.learner.chose(me, x)
        return i

    def replayed(self, decision: Any, index: int) -> None:
        """Nothing to restore: the player keeps no state between decisions."""


def make_learned(variant: Any, ref: str | None) -> LearnedPlayer:
    try:
        return LearnedPlayer(variant, load_net(variant, ref))
    except WeightsError:
        raise
    except TablierError:
        raise
