"""Input features of the value network, generic over the board of every variant.

A state is a board (the 28-int tuple of kernel/board.py) seen by the player it is valued for,
whether he or his opponent throws next, the throws each has made since the men were last set
up, and the ladder's state as plain data (`View.ladder`, `Ladder.state`). Its features:

- for each pip 1..24 and each side, four units for the count n of that side's men there, as
  TD-Gammon encoded them: n >= 1, n >= 2, n >= 3, and (n - 3) / 2 above three;
- each side's men waiting to enter (bar) and borne off, as fractions of the men a side has;
- each side's pips still to travel, as a fraction of a full start (a race input);
- on boards where men wait off the board to enter, each side's waiting men; where the opponent
  does not run the mover's route backwards (`route = "same"` or `"shared"`), or men wait to
  enter, the race inputs count each side along its own route with the waiting men 25 pips
  away (`race_me_all`, `race_opp_all`); the named state of `[turn.state]`, each side's value;
- where men are hit to the bar and the sides run opposite ways round (the backgammon family),
  the counts of `contact.py` for each side: the share of the 36 throws that hit a blot and of
  those that let the rearmost man escape, primes (one with a man trapped behind it), closed
  points at home and in the opponent's home board, blots, and whether the sides still meet;
- who throws next; in variants whose rolls score, each side's throws since the last set-up
  (the rules of opening throws read them);
- the ladder's state, as its class encodes it (`Ladder.features`): points, holes, marks and
  their flags, scaled to about [0, 1]. The cube ladder gives none: its networks value one cubeless
  game, and the cube and the match score are weighed above them (players/utility.py).

Every feature has a name (`Encoder.names`): a weights file records them, so that a network is
never run on features it was not trained on. A network is encoded with the names it records
(`Encoder.of_net`) whenever this module can compute them all: a network trained before an input
was added keeps its inputs. `encode_boards` encodes many boards at once with
numpy (the cost of a search is mostly here).
"""
from __future__ import annotations

import time
from functools import partial
from typing import Any, Callable, Sequence, cast

from interpreter.players._numpy import np

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, OPP_POOL, POOL
from interpreter import native
from interpreter.native.modules import is_cached, load, plain_source
from interpreter.players import contact
from interpreter.scoring.registry import ladder_class

#: pip numbers as a row, for pip counts
_PIPS = np.arange(1, 25, dtype=np.float64)
#: the number of board units every board has (pips × sides × 4, bar, off, race)
BOARD_UNITS = 24 * 2 * 4 + 2 * 2 + 2 + 2
#: the names of those units, in their columns
BASE_BOARD_NAMES = [f"p{p}_{side}_{u}" for side in ("me", "opp") for p in range(1, 25)
                    for u in ("1", "2", "3", "n")] + [
    "bar_me", "bar_me_any", "bar_opp", "bar_opp_any", "off_me", "off_opp", "race_me", "race_opp"]
#: the units some boards add after them (see the module docstring), before the state's
EXTRA_BOARD_NAMES = ["pool_me", "pool_opp", "race_me_all", "race_opp_all"]


def hitting_game(rules: Any) -> bool:
    """Whether the movement switches are the backgammon family's, for which the counts of
    `contact.py` mean what they say: a 28-slot board, opposite routes, two dice, a lone man hit
    to the bar, two men closing a point, men entering from the bar."""
    return (rules.geometry.size == 28 and rules.route == "opposite" and rules.hit == "bar"
            and rules.block == 2 and rules.enter == "bar" and rules.dice == 2
            and rules.numbers == "both" and not rules.walk_only)


def compiled_layout(encoder: "Encoder") -> bool | None:
    """Whether the compiled network (interpreter/native/td_emit.py) computes the encoder's
    inputs, and with the contact counts or without: its inputs are the raw board units, the
    counts or not, then who throws next; None for any other layout."""
    board = encoder.board_names
    if encoder.names[len(board):] != ["on_roll"]:
        return None
    if board == BASE_BOARD_NAMES:
        return False
    if board == BASE_BOARD_NAMES + list(contact.NAMES):
        return True
    return None


_CONTACT: dict[str, Any] = {}


def contact_block(B: np.ndarray, doublet_moves: int) -> np.ndarray:
    """The `contact.COUNT` inputs of each board (rows of B, 28 ints), compiled where numba is
    installed (the text of contact.py, cached like every compiled module), else in Python."""
    fn = _CONTACT.get("fn")
    if fn is None or (fn is _CONTACT.get("python") and
                      time.monotonic() - _CONTACT["since"] > RECHECK):
        # the counts in Python while their code is compiled in the background: a long run
        # (a server, a training) looks again now and then
        fn = _CONTACT["fn"] = _contact_many()
    Bi = np.ascontiguousarray(B, dtype=np.int64)
    out = np.zeros((Bi.shape[0], contact.COUNT))
    fn(Bi, int(doublet_moves), out)
    return out


#: the compiled counts' entry, with its signature (`native/library.py`)
CONTACT_EXPORTS = (("contact_many", "void(i8[:,::1], i8, f8[:,::1])"),)


def _contact_many() -> Callable[..., Any]:
    """The contact counts of many boards: the library of the cache (no numba imported), else
    numba's cached code, else (while a process of low priority compiles them, as
    `native.policy()` says) Python."""
    if native.installed():
        source = plain_source(contact) + CONTACT_MANY
        cached = is_cached(source, ("contact_many",))
        module = native.prepared(
            "contact", None, source, CONTACT_EXPORTS, "", numba_module=partial(load, source),
            cached=cached, now=native.policy() == "foreground",
            compiling="compiling the network's contact counts for this machine (once, a few "
            "seconds)",
            in_background=None if cached else "compiling the network's contact counts for "
            "this machine in the background (once, a few seconds); until then they are counted "
            "in Python")
        if module is not None:
            return cast("Callable[..., Any]", module.contact_many)
    elif native.wanted():
        native.say_once("numba is not installed: the network's contact counts are counted in "
                        "Python (slower)")

    def many(B: np.ndarray, dm: int, out: np.ndarray) -> None:
        scratch = [0] * 28
        for i in range(B.shape[0]):
            contact.contact_inputs(B[i].tolist(), dm, scratch, out[i], 0)
    _CONTACT["python"] = many
    _CONTACT["since"] = time.monotonic()
    return many


#: seconds after which a process counting in Python looks for the compiled counts again
RECHECK = 60.0


#: the batch entry of the compiled counts
CONTACT_MANY = '''

@njit(cache=True)
def contact_many(B, dm, out):
    scratch = np.empty(28, np.int64)
    for i in range(B.shape[0]):
        contact_inputs(B[i], dm, scratch, out[i], 0)
'''


def _game(s: dict) -> list[float]:
    return []


class Encoder:
    """The features of states of one variant (see the module docstring); `names` picks the
    features of a network trained on other units than the variant's default (`of_net`)."""

    def __init__(self, variant: Any, names: Sequence[str] | None = None):
        self.checkers = float(variant.checkers)
        self.full = float(sum(p * n for p, n in variant.layout.items()) or 25 * variant.checkers)
        kind = getattr(variant.ladder, "kind", None) or "game"
        self.kind = kind
        ladder = ladder_class(variant.ladder)
        self.ladder_fn: Callable[[dict], list[float]] = ladder.features \
            if ladder.feature_names else _game
        ladder_names = list(ladder.feature_names)
        self.rolls = bool(variant.rules.score_roll)
        geometry = variant.geometry
        if getattr(geometry, "wide", False):
            from interpreter.errors import TablierError
            raise TablierError(f"a network's inputs read the 24 points of the other boards, not "
                               f"the {geometry.points} of {getattr(variant, 'id', 'this variant')}"
                               f": no network can be trained or played for it (the search player "
                               f"and greedy play it)")
        self.pool = bool(geometry.pool)
        self.state_base = geometry.state_base
        self.n_state = len(geometry.state)
        #: the opponent's own pip number of each of the mover's pips 1..24
        self.their_pips = np.asarray([geometry.their_pip(p) for p in range(1, 25)],
                                     dtype=np.float64)
        state_names = [f"state_{n}_{side}" for side in ("me", "opp")
                       for n, _v, _b in geometry.state]
        rules = variant.generator.rules
        self.hitting = hitting_game(rules)
        self.doublet_moves = rules.doublet_moves
        contact_names = list(contact.NAMES) if self.hitting else []
        self.available = BASE_BOARD_NAMES + EXTRA_BOARD_NAMES + state_names + contact_names
        self.contact_at = len(self.available) - len(contact_names)
        board = list(BASE_BOARD_NAMES)
        if self.pool or geometry.route != "opposite":
            board[-2:] = ["race_me_all", "race_opp_all"]
        if self.pool:
            board += ["pool_me", "pool_opp"]
        board += state_names + contact_names
        tail = ["on_roll"] + (["rolls_me", "rolls_opp"] if self.rolls else []) \
            + [f"ladder_{n}" for n in ladder_names]
        if names is not None:
            names = list(names)
            if names[len(names) - len(tail):] != tail or not set(
                    names[:len(names) - len(tail)]) <= set(self.available):
                raise ValueError("features this variant cannot give")
            board = names[:len(names) - len(tail)]
        self.board_names = board
        self.board_size = len(board)
        #: whether the contact counts are among the inputs (they cost the most to compute)
        self.counts = any(n in contact_names for n in board)
        index = {n: i for i, n in enumerate(self.available)}
        cols = [index[n] for n in board]
        #: the columns of the full board matrix to keep (None: the first BOARD_UNITS, as they are)
        self.cols: np.ndarray | None = None if cols == list(range(BOARD_UNITS)) \
            else np.asarray(cols)
        self.names = board + tail
        self.size = len(self.names)

    @classmethod
    def of_net(cls, variant: Any, net: Any) -> "Encoder":
        """The encoder of the features `net` was trained on, when this variant can give them all;
        else the variant's default (which `ValueNet.check_features` then refuses)."""
        names = list(getattr(net, "meta", {}).get("features", ()))
        try:
            return cls(variant, names) if names else cls(variant)
        except ValueError:
            return cls(variant)

    def extra(self, on_roll: bool, rolls: tuple[int, int], ladder: dict | None) -> list[float]:
        """The features after the board's: who throws next, the throws, the ladder."""
        out = [float(on_roll)]
        if self.rolls:
            out += [min(rolls[0], 4) / 4.0, min(rolls[1], 4) / 4.0]
        if ladder is not None and self.ladder_fn is not _game:
            out += self.ladder_fn(ladder)
        elif self.ladder_fn is not _game:
            out += [0.0] * (self.size - self.board_size - len(out))
        return out

    def boards(self, boards: Sequence[tuple]) -> np.ndarray:
        """The board units of many boards (n × board_size)."""
        B = np.asarray(boards, dtype=np.float64)
        if B.ndim == 1:
            B = B[None, :]
        pts = B[:, 1:25]
        mine = np.maximum(pts, 0.0)
        theirs = np.maximum(-pts, 0.0)
        n = B.shape[0]
        width = BOARD_UNITS if self.cols is None else len(self.available)
        out = np.empty((n, width))
        for k, side in enumerate((mine, theirs)):
            u = out[:, 96 * k:96 * (k + 1)].reshape(n, 24, 4)
            u[:, :, 0] = side >= 1
            u[:, :, 1] = side >= 2
            u[:, :, 2] = side >= 3
            u[:, :, 3] = np.maximum(side - 3.0, 0.0) * 0.5
        c = self.checkers
        bar_me, bar_opp = B[:, BAR], B[:, OPP_BAR]
        out[:, 192] = bar_me * (2.0 / c)
        out[:, 193] = bar_me > 0
        out[:, 194] = bar_opp * (2.0 / c)
        out[:, 195] = bar_opp > 0
        out[:, 196] = B[:, OFF] / c
        out[:, 197] = B[:, OPP_OFF] / c
        out[:, 198] = (mine @ _PIPS + 25.0 * bar_me) / self.full
        out[:, 199] = (theirs @ _PIPS[::-1] + 25.0 * bar_opp) / self.full
        if self.cols is None:
            return out
        pool_me = B[:, POOL] if self.pool else np.zeros(n)
        pool_opp = B[:, OPP_POOL] if self.pool else np.zeros(n)
        out[:, 200] = pool_me / c
        out[:, 201] = pool_opp / c
        out[:, 202] = (mine @ _PIPS + 25.0 * (bar_me + pool_me)) / self.full
        out[:, 203] = (theirs @ self.their_pips + 25.0 * (bar_opp + pool_opp)) / self.full
        if self.n_state:
            lo = self.state_base
            out[:, 204:204 + 2 * self.n_state] = \
                np.clip(B[:, lo:lo + 2 * self.n_state], -8.0, 8.0) / 8.0
        if self.counts:
            out[:, self.contact_at:] = contact_block(B, self.doublet_moves)
        return out[:, self.cols]

    def encode(self, boards: Sequence[tuple], on_roll: bool = False,
               rolls: tuple[int, int] = (0, 0), ladder: dict | None = None,
               extras: Sequence[list[float]] | None = None) -> np.ndarray:
        """The features of many boards (n × size) sharing who throws next, the throws and the
        ladder's state, or each with its own `extras` (from `extra`)."""
        X = self.boards(boards)
        if extras is None:
            tail = np.asarray(self.extra(on_roll, rolls, ladder), dtype=np.float64)
            return np.hstack([X, np.broadcast_to(tail, (X.shape[0], tail.shape[0]))])
        return np.hstack([X, np.asarray(extras, dtype=np.float64).reshape(X.shape[0], -1)])
