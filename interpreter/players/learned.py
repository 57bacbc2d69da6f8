"""The self-taught player: a value network trained by `tablier train` (players/td.py) judges the
state each answer leads to (players/leaves.py) and takes the best, one throw ahead; under the
search (`search:2:learned`) it values the search's leaves.

Player kinds: `learned` (the weights shipped for the variant, `interpreter/players/weights/`)
or `learned:FILE` (a weights file).

The value the player maximises is the game in play's (players/rules_seen.py): what each of the
network's outcome classes is worth is read from the variant being played, once, when the
player is made; a network trained for another game (another board, dice, movement or turn) is
refused unless `--foreign-weights` is given, and one trained under other value or ladder rules
is played with a note naming the keys the game differs in.
"""
from __future__ import annotations

import shlex
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence, cast

from interpreter.players._numpy import np

from interpreter import native
from interpreter.engine.branch import DICE
from interpreter.engine.game import Game, value_of
from interpreter.errors import CommandLineError, TablierError
from interpreter.native.gen_emit import workspace_size
from interpreter.native.modules import is_cached, load
from interpreter.native.td_emit import play_source, trainer_source
from interpreter.players.features import Encoder, compiled_layout
from interpreter.players.leaves import Leaf, leaves, quick
from interpreter.players.net import ValueNet, WeightsError
from interpreter.players.rules_seen import RulesSeen, foreign_allowed, rule_values
from interpreter.players.search import mirror
from interpreter.players.utility import _equity, of_game_end, of_outcomes, of_result
from interpreter.scoring.registry import ladder_class
from interpreter.variant.fingerprint import check_rules_meta


class ForeignWeightsError(WeightsError, CommandLineError):
    """A network trained for another game than the one in play (another board, dice, movement
    or turn), given without `--foreign-weights` (exit code 2)."""


def shipped_weights(variant_id: str) -> Path | None:
    """The weights shipped in the package for a variant (None when there are none)."""
    ref = resources.files("interpreter.players").joinpath("weights", f"{variant_id}.npz")
    try:
        with resources.as_file(ref) as path:
            return Path(path) if Path(path).is_file() else None
    except (FileNotFoundError, TypeError):
        return None


def weights_cache() -> Path | None:
    """The folder of the user's cache where `tablier train` keeps the networks it trains
    without `--out`, one file a rules fingerprint (`<fingerprint>.npz`); checked whole before
    use like the compiled code's folders (interpreter/usercache.py), None without a safe
    cache."""
    from interpreter import usercache

    folder = usercache.trusted_folder("weights")
    return Path(folder) if folder else None


def cached_weights(variant: Any) -> Path | None:
    """The network trained before for exactly these rules (the variant's `rules_fingerprint`,
    after `extends`, options and `--set`), if the user's cache holds one."""
    from interpreter.variant.fingerprint import rules_fingerprint

    folder = weights_cache()
    if folder is None:
        return None
    path = folder / f"{rules_fingerprint(variant)}.npz"
    return path if path.is_file() else None


#: the rules fingerprint each weights file read for it records (None: none or unreadable)
_FINGERPRINTS: dict[str, str | None] = {}


def _trained_fingerprint(path: Path) -> str | None:
    key = str(path)
    if key not in _FINGERPRINTS:
        try:
            fp = ValueNet.load(path).meta.get("rules_fingerprint")
        except TablierError:
            fp = None
        _FINGERPRINTS[key] = fp if isinstance(fp, str) else None
    return _FINGERPRINTS[key]


def own_network(variant: Any) -> Path | None:
    """A network trained under exactly `variant`'s rules: the shipped one where it was, else
    the one `tablier train` left in the user's cache for them; None when there is neither."""
    from interpreter.variant.fingerprint import rules_fingerprint

    shipped = shipped_weights(variant.id)
    if shipped is not None and _trained_fingerprint(shipped) == rules_fingerprint(variant):
        return shipped
    return cached_weights(variant)


def network_for(variant: Any) -> Path | None:
    """The weights `learned` reads for `variant` when none are named: the network shipped for
    it where it was trained under these very rules; else the one `tablier train` left in the
    user's cache for them; else the shipped network of its id, trained under other rules (a
    house rule: played with a note naming the keys that differ); else the network shipped for
    the nearest file of its `extends` chain that is the same game to a network (the same board,
    dice, movement and turn: only values, rules and the ladder differ, said in the note); None
    when there is none."""
    if cached_weights(variant) is not None:
        # (read the shipped network's rules only where the cache has one to weigh it against)
        return own_network(variant)
    shipped = shipped_weights(variant.id)
    if shipped is not None:
        return shipped
    for name, _sha in tuple(getattr(variant, "files", ()))[1:]:
        found = shipped_weights(Path(name).stem)
        if found is not None:
            return None if _foreign_to(variant, found) else found
    return None


def _foreign_to(variant: Any, path: Path) -> bool:
    """Whether the network in `path` was trained for another game than `variant` (another
    board, dice, movement or turn), or under rules it does not record."""
    from interpreter.variant.fingerprint import differing_keys, fingerprint_parts, \
        foreign_keys

    try:
        rules = ValueNet.load(path).meta.get("rules")
    except TablierError:
        return True
    if not isinstance(rules, dict):
        return True
    return bool(foreign_keys(differing_keys(fingerprint_parts(variant), rules)))


def _shipped_all() -> list[Path]:
    folder = resources.files("interpreter.players").joinpath("weights")
    try:
        with resources.as_file(folder) as path:
            return sorted(Path(path).glob("*.npz"))
    except (FileNotFoundError, TypeError):
        return []


def nearest_network(variant: Any) -> tuple[Path, str] | None:
    """Where `tablier train --from auto` starts: the network trained before for these rules
    (it goes on from there), else the one shipped for the variant's id (a house rule of a
    shipped game), else one shipped for a file of its `extends` chain, nearest first, else the
    shipped network of the same board and dice whose rules differ in the fewest keys; with a
    line naming it. None: there is none, training starts from nothing."""
    from interpreter.variant.fingerprint import differing_keys, fingerprint_parts, \
        foreign_keys

    cached = cached_weights(variant)
    if cached is not None:
        return cached, "the network trained before for these rules"
    own = shipped_weights(variant.id)
    if own is not None:
        return own, f"the network shipped for {variant.id}"
    for name, _sha in tuple(getattr(variant, "files", ()))[1:]:
        base = Path(name).stem
        found = shipped_weights(base)
        if found is not None:
            return found, f"the network shipped for {base}, which it extends"
    parts = fingerprint_parts(variant)
    best: tuple[int, str, Path] | None = None
    for path in _shipped_all():
        try:
            rules = ValueNet.load(path).meta.get("rules")
        except TablierError:
            continue
        if not isinstance(rules, dict):
            continue
        keys = differing_keys(parts, rules)
        if "dice" in foreign_keys(keys) or {"board.points", "board.checkers"} & set(keys):
            continue
        if best is None or (len(keys), path.stem) < best[:2]:
            best = (len(keys), path.stem, path)
    if best is None:
        return None
    return best[2], (f"the network shipped for {best[1]} (same board and dice; {best[0]} keys "
                     f"differ)")


def train_ref(variant: Any) -> str:
    """How `tablier train` is given `variant`, as a shell word: its built-in id, else its file
    as the command that loaded it was given it (relative to the working folder as written; the
    absolute path where that is not known), with the same `--set`s."""
    from interpreter.engine.record import variant_source

    ref, overrides = getattr(variant, "__dict__", {}).get("loaded_from") or (None, ())
    source = variant_source(variant)
    if source is None:
        ref = variant.id
    elif ref is None:
        ref = source
    words = [ref if source is None else shlex.quote(ref)]
    words += [f"--set {shlex.quote(o)}" for o in overrides]
    return " ".join(words)


def load_net(variant: Any, ref: str | None, foreign: bool | None = None) -> ValueNet:
    """The network of `learned[:FILE]` for `variant`, checked against the rules it was trained
    under (refused where it was trained for another game, unless `foreign`, by default
    whether `--foreign-weights` was given) and against its features."""
    if ref:
        path = Path(ref)
    else:
        found = network_for(variant)
        if found is None:
            raise WeightsError(f"no network for {variant.id!r}: train one with `tablier train "
                               f"{train_ref(variant)} --minutes 10`, and `learned` finds it")
        path = found
    net = ValueNet.load(path)
    problem = check_rules_meta(net.meta)
    if problem is not None:
        raise WeightsError(f"{str(path)!r}: {problem}")
    net.check_features(Encoder.of_net(variant, net).names, variant.id, str(path))
    refusal = RulesSeen(variant, net.meta, net.levels).refusal(ref or str(path))
    if refusal is not None and not (foreign_allowed() if foreign is None else foreign):
        raise ForeignWeightsError(refusal)
    return net


def money_worth(variant: Any, net: ValueNet, state: dict | None = None,
                worths: Sequence[int] | None = None
                ) -> tuple[float, list[float], tuple[int, ...]] | None:
    """What a leaf is worth where the play is one game won by points and the cube is not in
    play (money play without the cube, training's games), as the compiled code needs it: the
    factor on the outputs' equity, the value of a game ended by the mover with each value k
    (index k, up to the largest value the variant's rules give), and what each outcome class
    above a single game counts in that equity (`worths`, the game in play's: default the
    network's levels; all one where gammons count single); None where a leaf's worth is not
    such a multiple (a partie, a match, a live cube). `state` is the ladder's state (default: a
    new game's)."""
    if state is None:
        game = Game(variant, "probe", keep_record=False, doubles=(False, False))
        game.ladder.start()
        state = game.ladder.state(0)
    w = ladder_class(state).worth(state)
    if w.chance or w.match is not None or w.cubeful or w.summed is not None:
        return None
    values = tuple(int(v) for v in (net.levels if worths is None else worths))
    counted = (1,) * len(values) if w.single else values
    probe = np.linspace(0.1, 0.9, net.outputs)[None, :]
    eq = float(_equity(probe, counted)[0])
    factor = float(of_outcomes(probe, values, state)[0]) / eq if eq else 1.0
    ruled = [v for got in rule_values(variant).values() for v in got]
    top = max((1, *values, *ruled))
    return factor, [of_game_end(True, max(k, 1), state) for k in range(top + 1)], counted


#: the weight of each of the 21 throws, in the order of engine.branch.DICE
_THROW_WEIGHTS = np.asarray([w for _a, _b, w in DICE], dtype=np.float64)


def _throw_means(best: np.ndarray) -> np.ndarray:
    """The mean over the throws of the best values `best` (21 a position, in the order of
    engine.branch.DICE), for each position."""
    return (best.reshape(-1, 21) * _THROW_WEIGHTS).sum(axis=1) / 36.0


class FastNet:
    """The network of a variant of the backgammon family in compiled code (the module of
    `interpreter/native/td_emit.py`): the outputs of many end positions in one call, and the
    search's look one throw further (`replies`) where a leaf's worth is a multiple of the
    equity. `make` gives None where numba is missing or the code does not serve the variant
    and the network's inputs."""

    def __init__(self, variant: Any, net: ValueNet, module: Any, encoder: Encoder,
                 counts: bool, worths: Sequence[int] | None = None):
        self.variant = variant
        self.net = net
        self.module = module
        self.counts = counts
        self.work = np.zeros(workspace_size(variant.geometry.size), dtype=np.int64)
        #: what each outcome class above a single game is worth in the game in play
        self.values = tuple(int(v) for v in (net.levels if worths is None else worths))
        self.dm = encoder.doublet_moves
        self.full = encoder.full
        self._worth: dict[str, tuple[float, np.ndarray, np.ndarray] | None] = {}
        self._answered: dict[bytes, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    #: the module's functions it calls (their machine code cached: no compile)
    FUNCTIONS = ("leaf_outputs", "reply_values", "reply_outputs")
    #: the same with their signatures, for the library (`native/library.py`)
    EXPORTS = (
        ("leaf_outputs", "void(i8[:,::1], f8[::1], i8, i8, i8, b1, i8, i8, f8, f8[:,::1])"),
        ("reply_values", "i8(i8[:,::1], i8[::1], f8[::1], i8, i8, i8, i8[::1], f8[::1], f8, "
                         "b1, i8, i8, f8, f8[::1])"),
        ("reply_outputs", "i8(i8[:,::1], i8[::1], f8[::1], i8, i8, i8, b1, i8, i8, f8, "
                          "f8[:,::1], i8[::1], i8[::1])"))

    @classmethod
    def make(cls, variant: Any, net: ValueNet, encoder: Encoder,
             worths: Sequence[int] | None = None) -> "FastNet | None":
        """The compiled network, where it serves and its code is in the cache or the run
        asked for it (`native.accelerate_net`: a compile costs some 20 s once per machine)."""
        counts = compiled_layout(encoder) if native.installed() else None
        if counts is None:
            return None
        # the trainer's module where the variant has one (a superset: one compile serves
        # training and play), else the player's alone (a match, a cube ladder)
        source = trainer_source(variant) or play_source(variant)
        if source is None:
            return None
        module = native.prepared(
            "net", variant, source, cls.EXPORTS, "", numba_module=partial(load, source),
            cached=is_cached(source, cls.FUNCTIONS),
            now=bool(variant.__dict__.get("native_net")),
            compiling=f"compiling the network's code for {variant.id} on this machine (once, "
            f"about 20 s)",
            in_background=f"compiling the network's code for {variant.id} on this machine in "
            f"the background (once, about 20 s); later runs use it")
        return None if module is None else cls(variant, net, module, encoder, counts, worths)

    def outputs(self, boards: Sequence[tuple]) -> np.ndarray:
        """The outputs for end positions seen by the player who just played (none to throw)."""
        B = np.asarray(boards, dtype=np.int64).reshape(len(boards), -1)
        net = self.net
        Y = np.empty((B.shape[0], net.outputs))
        self.module.leaf_outputs(B, net.theta, net.inputs, net.hidden, net.outputs,
                                 self.counts, self.dm, self.variant.checkers, self.full, Y)
        return Y

    def stood(self, board: tuple, state: dict | None) -> float | None:
        """`NetJudge.on_roll` without a further look, from `reply_outputs` of the board turned
        (the player it is seen by throws; a throw he cannot play leaves it, valued as his end
        position); None where a throw overflows the work space."""
        got = self._answers(np.asarray([self.variant.flip(board)], dtype=np.int64))
        if got is None:
            return None
        Y, K, G = got

        def flat(_i: int) -> float:
            return float(of_outcomes(self.outputs([board]), self.values, state)[0])
        return float(_throw_means(self._best_answers(Y, K, G, 1, state, flat))[0])

    def _best_answers(self, Y: np.ndarray, K: np.ndarray, G: np.ndarray, n: int,
                      state: dict | None, still: Callable[[int], float]) -> np.ndarray:
        """The best value of each throw's answers (rows of `reply_outputs` for n positions,
        21 throws each) for the player throwing, `state` seen by him; `still(i)` values a throw
        of position i he cannot play (asked once a position)."""
        u = np.empty(Y.shape[0])
        open_ = K == 0
        if open_.any():
            u[open_] = of_outcomes(Y[open_], self.values, state)
        stand: dict[int, float] = {}
        for r in np.flatnonzero(~open_).tolist():
            k = int(K[r])
            if k < 0:
                i = int(G[r]) // 21
                if i not in stand:
                    stand[i] = still(i)
                u[r] = stand[i]
            else:
                u[r] = of_game_end(True, k, state or {})
        best = np.full(21 * n, -np.inf)
        np.maximum.at(best, G, u)
        return best

    def _answers(self, B: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """`reply_outputs` of the positions B (Y, K, G), the last few kept: a cube question
        values one position under two states of the cube (no double, double and take)."""
        key = B.tobytes()
        if key in self._answered:
            return self._answered[key]
        net = self.net
        rows = -1
        size = 64 * 21 * B.shape[0]
        while rows < 0 and size <= (1 << 24):
            Y = np.empty((size, net.outputs))
            K = np.empty(size, dtype=np.int64)
            G = np.empty(size, dtype=np.int64)
            rows = self.module.reply_outputs(B, self.work, net.theta, net.inputs, net.hidden,
                                             net.outputs, self.counts, self.dm,
                                             self.variant.checkers, self.full, Y, K, G)
            size *= 4
        if rows < 0:
            return None
        if len(self._answered) >= 8:
            self._answered.pop(next(iter(self._answered)))
        got = self._answered[key] = (Y[:rows], K[:rows], G[:rows])
        return got

    def worth(self, state: dict | None) -> tuple[float, np.ndarray, np.ndarray] | None:
        """(factor, values of games ended with each value, what each class counts in the
        equity) for the ladder's state, or None."""
        key = repr(sorted((state or {}).items()))
        if key not in self._worth:
            got = money_worth(self.variant, self.net, state, self.values)
            self._worth[key] = None if got is None else (
                got[0], np.asarray(got[1], dtype=np.float64),
                np.asarray(got[2], dtype=np.int64))
        return self._worth[key]

    def replies(self, boards: Sequence[tuple], state: dict | None,
                stood: Callable[[tuple, dict | None], float]) -> np.ndarray | None:
        """Each end position's value for the player who just played (`state`: the ladder's
        state seen by him), one throw further: the opponent's best answer to each throw by this
        network, valued for the opponent in the play's unit (players/utility.py), the mean over
        the throws with the sign turned; a throw the opponent cannot play is worth
        `stood(board, state)` to the player (`NetJudge.on_roll` without a further look). None
        where a throw overflows the compiled work space."""
        B = np.asarray(boards, dtype=np.int64).reshape(len(boards), -1)
        net = self.net
        worth = self.worth(state)
        if worth is not None:
            # a leaf is a multiple of the equity: the whole look in compiled code
            factor, util_end, counted = worth
            out = np.zeros(B.shape[0])
            code = self.module.reply_values(B, self.work, net.theta, net.inputs, net.hidden,
                                            net.outputs, counted, util_end, factor,
                                            self.counts, self.dm, self.variant.checkers,
                                            self.full, out)
            return None if code < 0 else out
        got = self._answers(B)
        if got is None:
            return None
        Y, K, G = got
        # no play: the position stands and the player who just played throws next
        return -_throw_means(self._best_answers(
            Y, K, G, B.shape[0], mirror(state),
            lambda i: -stood(tuple(B[i].tolist()), state)))


class NetJudge:
    """Values leaves with a network, in the unit of what the play is won by
    (players/utility.py)."""

    def __init__(self, variant: Any, net: ValueNet, encoder: Encoder | None = None):
        self.variant = variant
        self.net = net
        self.encoder = encoder or Encoder.of_net(variant, net)
        #: what the network knows of the game in play: what each of its outcome classes is
        #: worth here (`worths`, a single game first), the keys the game differs in from the
        #: rules it was trained under, what the player says of it (`notes`)
        self.seen = RulesSeen(variant, net.meta, net.levels)
        self.worths = self.seen.worths
        self.notes = self.seen.notes()
        #: the worths of the classes above a single game, as players/utility.py takes them
        self.levels = self.worths[1:]
        #: the end position of a throw without a play is outside what the network learns
        #: (players/search.py `_quick_reply` looks one throw further there)
        self.values_no_play = False
        #: a state before the dice (the cube's questions) is valued one throw ahead: the
        #: network learns end positions only (a quick variant of two dice)
        self.looks_ahead = quick(variant) and variant.dice_count == 2
        #: the compiled network where it serves (made on first use: it loads numba)
        self._fast: FastNet | None | bool = False

    @property
    def fast(self) -> FastNet | None:
        if self._fast is False:
            self._fast = FastNet.make(self.variant, self.net, self.encoder, self.levels)
        return cast("FastNet | None", self._fast)

    @property
    def unit(self) -> str:
        """The unit of its values, as hints show it (players/utility.py)."""
        return ladder_class(self.variant.ladder).bot_unit(
            getattr(self.variant.ladder, "match_length", 0))

    def features(self, ls: Sequence[Leaf]) -> np.ndarray:
        enc = self.encoder
        return enc.encode([lf.board for lf in ls],
                          extras=[enc.extra(lf.on_roll, lf.rolls, lf.ladder) for lf in ls])

    def values(self, ls: Sequence[Leaf], me: int, features: bool = False
               ) -> tuple[np.ndarray, np.ndarray | None, list[int]]:
        """(utilities, features of the leaves still in play or None, their indices); the
        compiled network values them where it serves and the features are not asked for."""
        out = np.zeros(len(ls))
        open_ = []
        for i, lf in enumerate(ls):
            if lf.over:
                out[i] = of_result(cast(Any, lf.node).game.ladder.result(), me, lf.ladder or {})
            elif lf.game_end is not None:
                out[i] = of_game_end(lf.game_end[0], lf.game_end[1], lf.ladder or {})
            elif lf.before_dice and self.looks_ahead and not features:
                out[i] = self.on_roll(lf.board, lf.ladder, lf.rolls) if lf.on_roll else \
                    self.reply(lf.board, lf.ladder, lf.rolls)
            else:
                open_.append(i)
        if not open_:
            return out, None, open_
        rows = [ls[i] for i in open_]
        fast = None if features else self.fast
        X: np.ndarray | None
        if fast is not None and not any(r.on_roll for r in rows):
            X = None
            Y = fast.outputs([r.board for r in rows])
        else:
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

    def replies(self, ls: Sequence[Leaf], me: int) -> list[float] | None:
        """The search's value of each leaf one throw further (players/search.py `expect` with
        one throw), by the compiled network where it serves: the leaves are end positions of
        the player `me` who just played, nothing asked between throws; else None."""
        fast = self.fast
        if fast is None or not ls or any(lf.on_roll or lf.over or lf.game_end is not None
                                         for lf in ls):
            return None
        if any(lf.ladder != ls[0].ladder or lf.rolls != ls[0].rolls for lf in ls):
            return None
        got = fast.replies([lf.board for lf in ls], ls[0].ladder, self._stood)
        return None if got is None else [float(x) for x in got]

    # -- one throw ahead, where the network is not asked ------------------------------------------

    def _stood(self, board: tuple, state: dict | None) -> float:
        fast = self.fast
        got = fast.stood(board, state) if fast is not None else None
        return self.on_roll(board, state, further=False) if got is None else got

    def _utilities(self, boards: Sequence[tuple], state: dict | None,
                   rolls: tuple[int, int]) -> np.ndarray:
        """The values of end positions in play for the player who just played."""
        fast = self.fast
        if fast is not None:
            Y = fast.outputs(boards)
        else:
            enc = self.encoder
            Y = self.net.outputs_of(enc.encode(list(boards), extras=[
                enc.extra(False, rolls, state)] * len(boards)))
        return of_outcomes(Y, self.levels, state)

    def _throws(self, board: tuple, state: dict | None, rolls: tuple[int, int],
                stood: Callable[[], float]) -> float:
        """The mean over the 21 throws of the best answer of the player `board` is seen by, who
        throws (`state`, `rolls`: seen by him); `stood()` is a throw without a play's value
        for him. The answers of all the throws are valued in one call of the network."""
        v = self.variant
        end = v.rules.game_over if v.rules.end else None
        best = np.full(len(DICE), -np.inf)
        rows: list[tuple] = []
        group: list[int] = []
        still: float | None = None
        for t, (d1, d2, _w) in enumerate(DICE):
            results = v.generator.results(board, d1, d2)
            if len(results) == 1 and results[0] == board:
                if still is None:
                    still = stood()
                best[t] = still
                continue
            for r in results:
                ended = end(r) if end is not None else None
                if ended is None:
                    rows.append(r)
                    group.append(t)
                    continue
                won = ended == "mover"
                k = value_of(v, r if won else v.flip(r))[0]
                best[t] = max(best[t], of_game_end(won, k, state or {}))
        if rows:
            np.maximum.at(best, np.asarray(group), self._utilities(rows, state, rolls))
        return float(_throw_means(best)[0])

    def on_roll(self, board: tuple, state: dict | None, rolls: tuple[int, int] = (0, 0),
                further: bool = True) -> float:
        """The value of `board` for the player it is seen by, who throws next (`state`: the
        ladder's state seen by him): the mean over the 21 throws of his best answer. A throw he
        cannot play leaves the board to his opponent, who is valued a throw further in turn
        (`further`; else the board is valued as his end position): the compiled
        `reply_values` of the board turned, and players/search.py `expect`."""
        v = self.variant
        fast = self.fast
        if further and fast is not None:
            got = fast.replies([v.flip(board)], mirror(state), self._stood)
            if got is not None:
                return -float(got[0])
        if further:
            def stood() -> float:
                return -self.on_roll(v.flip(board), mirror(state), (rolls[1], rolls[0]), False)
        else:
            def stood() -> float:
                return float(self._utilities([board], state, rolls)[0])
        return self._throws(board, state, rolls, stood)

    def reply(self, board: tuple, state: dict | None, rolls: tuple[int, int] = (0, 0)
              ) -> float:
        """The value of `board` for the player who just played it, his opponent to throw: the
        mean over the opponent's 21 throws of his best answer, the sign turned; a throw the
        opponent cannot play leaves the player to throw (`on_roll` without a further look)."""
        fast = self.fast
        if fast is not None:
            got = fast.replies([board], state, self._stood)
            if got is not None:
                return float(got[0])
        v = self.variant
        return -self._throws(v.flip(board), mirror(state), (rolls[1], rolls[0]),
                             lambda: -self.on_roll(board, state, rolls, further=False))


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
            # (acey-deucey's doublet) or a choice before the game (Doze canes' goal) valued by
            # where each answer leads
            copies = not quick(variant) or variant.throws.bonus_throw is not None \
                or bool(getattr(variant, "choices", ()))
            self.capabilities = frozenset({"branching"}) if copies else frozenset()

    def _choose_node(self, node: Any) -> int:
        d = node.decision
        ls = leaves(d, d.player, self._choose_node, root=node)
        values, _X, _open = self.judge.values(ls, d.player)
        return int(np.argmax(values))

    def answer(self, decision: Any) -> int:
        me = decision.player
        ls = leaves(decision, me, self._choose_node)
        values, X, open_ = self.judge.values(ls, me, features=self.learner is not None)
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
