"""Self-play training of a value network by temporal differences, TD(λ), in the manner of
TD-Gammon: `tablier train VARIANT --games N --out FILE`.

The network values the state at the end of each of a player's throws (the after-state: the
board seen by him, who throws next, the ladder's state) as probabilities of the play's outcome
for him (players/net.py). Both sides are played by the network, each choosing the choice of
best value one throw ahead (`players/learned.py`, the same code that plays with it). Each side's
after-states form a chain: after each of his throws, the network's estimate for his previous
after-state is moved towards its estimate for the new one, and at the end of the play towards
the outcome, with eligibility traces decaying by λ. Only the variant file is read: the moves, the
points, the ladder and the end of the play are the engine's, through the turn loop.

Where the play is a sum of units (the ladder `learns_units`: the games of the 12-point
Tric-Trac's match, the marks of a partie à écrire or combiné), the network learns the unit in
play instead of the whole play: each unit's end closes both sides' chains, each side's last
estimate moved towards the unit's outcome (who won it, and its value: the game's ×1 to ×4, the
jetons the mark pays), and the next unit starts new chains. An outcome a few dozen throws away
is learned where the whole play's, hundreds of throws away, was not; the ladder adds the
units' values above the network (players/utility.py).

Play `i` of a run is seeded `f"{seed}/train/{i}"` (its dice), choices are deterministic, and the
network starts from `seed`: the same command gives the same weights, and a run resumed from one
of its checkpoints (`--resume`) gives what the uninterrupted run gives.

Where numba is installed and the compiled playout plays the variant (the backgammon family),
the games are played and learned from in compiled code (`interpreter/native/td_emit.py`), the
same loop step for step: `CompiledTrainer`. Elsewhere, and with `TABLIER_NATIVE=0`, the Python
trainer plays them through the turn loop.
"""
from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from interpreter.players._numpy import np

from interpreter import native
from interpreter.engine.game import Game, _EndContext, value_of
from interpreter.errors import TablierError
from interpreter.native.gen_emit import workspace_size
from interpreter.native.loop_emit import OPENING
from interpreter.native.modules import load
from interpreter.native.playout import seed_bytes
from interpreter.native.td_emit import trainer_source
from interpreter.players.features import Encoder, compiled_layout
from interpreter.players.learned import LearnedPlayer, money_worth
from interpreter.players.net import ValueNet
from interpreter.players.rules_seen import rules_record
from interpreter.variant.fingerprint import check_rules_meta
from interpreter.scoring.registry import ladder_class

#: the features and the training method, as recorded in every weights file
METHOD = "td-lambda self-play, one throw ahead"
#: the loser's points probed for the value levels of a game of a sum of games, and the most
#: levels a network learns (each is two outputs)
MAX_PROBED = 200
MAX_LEVELS = 16


def value_levels(variant: Any) -> tuple[int, ...]:
    """The value levels above one a play can end with, as network outputs: a single game's
    values by its value rules (backgammon: gammon 2, backgammon 3) where the ladder scores one
    game (money play, the plain game), and those of the game in play where the play is a sum of
    games (the 12-point Tric-Trac: ×2 to ×4 by the loser's points, each as the rules give it
    for every number of points he may have); none where the play is a partie or a match (then
    only who wins it is learned)."""
    ladder = ladder_class(variant.ladder)
    if ladder.unit_levels is not None:
        return ladder.unit_levels
    if ladder.learns_units:
        target = int(getattr(variant.ladder, "target", 12))
        levels = {k for p in range(min(target, MAX_PROBED)) for k in
                  [value_of(variant, variant.start, (target, p))[0]] if k > 1}
        if len(levels) > MAX_LEVELS:
            raise TablierError(f"{variant.id!r}: its value rules give a won game "
                               f"{len(levels)} values above one; a network learns at most "
                               f"{MAX_LEVELS}")
        return tuple(sorted(levels))
    if not ladder.learns_values:
        return ()
    levels = set()
    for _rule_id, _when, value in variant.rules.value:
        try:
            v = int(value(variant.start, None, None, 0, 0, 0, _EndContext((0, 0))))
        except Exception:  # noqa: BLE001 - a value that needs more than a board: no level
            continue
        if v > 1:
            levels.add(v)
    return tuple(sorted(levels))


def training_overrides(variant: Any) -> list[str]:
    """What training changes in a variant: a cube ladder is trained on cubeless money games
    (one game each; the cube and match score are weighed above the network)."""
    return list(ladder_class(variant.ladder).training_overrides)


def outcome(result: Any, player: int) -> tuple[float, int]:
    """(`player`'s share of the play's win, its value level): 1 won, 0 lost, and one half for
    a play without a winner (a drawn Emperador game or 12-point Tric-Trac match, equal jetons
    at the end of a partie à écrire, a play stopped at the turn limit), as the unit
    (2·P − 1 = 0, players/utility.py) and the bench (half a win) count it: were it a loss for
    both, self-play would learn that every state of a drawn or endless play is lost."""
    if result.winner is None:
        return 0.5, 1
    won = result.winner == player
    ladder = result.ladder
    match = getattr(ladder, "match", None)
    games = getattr(match, "games", None)
    if games and hasattr(games[-1], "k"):
        return float(won), max(int(games[-1].k), 1)
    if getattr(ladder, "learns_values", True):
        return float(won), max(int(result.value), 1)
    return float(won), 1


class Trainer:
    """TD(λ) over self-play games of one variant."""

    def __init__(self, variant: Any, net: ValueNet, *, alpha: float, lam: float):
        self.variant = variant
        self.net = net
        self.alpha = alpha
        self.lam = lam
        self.encoder = Encoder.of_net(variant, net)
        self.player = LearnedPlayer(variant, net, encoder=self.encoder, learner=self)
        # each side's eligibility traces, d outputs / d theta decayed by λ, kept as E·scale
        # (a decay multiplies the scale, not the array); renormalised before it underflows
        size = net.theta.shape[0]
        self.E = [np.zeros((net.outputs, size)), np.zeros((net.outputs, size))]
        self.scale = [1.0, 1.0]
        self.live = [False, False]
        self.prev: list[np.ndarray | None] = [None, None]
        #: the game being played, and how many of its ladder's units (`Ladder.units_won`: none
        #: where the ladder learns the whole play) were learned from
        self.game: Game | None = None
        self.seen = 0

    # -- the TD step, called by the player after each of its choices -------------------------------

    def _apply(self, side: int, delta: np.ndarray) -> None:
        if not self.live[side]:
            return
        self.net.theta += (self.alpha * self.scale[side]) * (delta @ self.E[side])

    def _end_units(self) -> None:
        """Where the ladder `learns_units`: each unit decided since the last look ends both
        sides' chains, each side's last estimate moved towards the unit's outcome for him."""
        game = self.game
        if game is None:
            return
        won = game.ladder.units_won()
        for winner, value in won[self.seen:]:
            for side in (0, 1):
                # a unit without a winner (a refait) is half a win each, at no level
                self._close(side, 0.5 if winner is None else float(winner == side), value)
            self._reset()
        self.seen = len(won)

    def _close(self, side: int, won: float, level: int) -> None:
        """`side`'s last estimate towards an outcome: his share of the win, its value level."""
        prev = self.prev[side]
        if prev is not None:
            y_prev = self.net.outputs_of(prev[None, :])[0]
            self._apply(side, self.net.target(won, level) - y_prev)

    def _reset(self) -> None:
        self.live = [False, False]
        self.scale = [1.0, 1.0]
        self.prev = [None, None]

    def chose(self, side: int, x: np.ndarray | None) -> None:
        """`side` chose the after-state with features x (None: it ends the play)."""
        self._end_units()
        if x is None:
            return
        net = self.net
        prev = self.prev[side]
        if prev is not None:
            y = net.outputs_of(np.vstack([prev, x]))
            self._apply(side, y[1] - y[0])
        s = self.scale[side] * self.lam if self.live[side] else 1.0
        if s < 1e-30:
            self.E[side] *= s
            s = 1.0
        if not self.live[side]:
            self.E[side].fill(0.0)
            self.live[side] = True
        self.scale[side] = s
        net.add_gradients(x, self.E[side], s)
        self.prev[side] = x

    def finish(self, result: Any) -> None:
        """The play is over: each side's last estimate towards the outcome (where the ladder
        `learns_units`, towards the outcome of each unit not yet learned from; a unit left
        unfinished, the play stopped at the turn limit, is half a win each, as the play is)."""
        self._end_units()
        for side in (0, 1):
            self._close(side, *outcome(result, side))
        self._reset()
        self.game = None
        self.seen = 0

    # -- one play -----------------------------------------------------------------------------

    def play(self, seed: str, max_turns: int) -> Any:
        p = self.player
        game = Game(self.variant, seed, keep_record=False, max_turns=max_turns,
                    doubles=(False, False))
        self.game = game
        result = game.run([p, p])
        self.finish(result)
        return result


class CompiledTrainer:
    """The same training as `Trainer`, its games played in compiled code (the module
    docstring); `make` gives None where that code does not serve the variant and network."""

    def __init__(self, variant: Any, net: ValueNet, module: Any, encoder: Encoder, counts: bool,
                 *, alpha: float, lam: float, factor: float, util_end: list[float]):
        self.variant = variant
        self.net = net
        self.encoder = encoder
        self.fn = module.train_games
        self.alpha = alpha
        self.lam = lam
        self.counts = counts
        self.factor = factor
        self.util_end = np.asarray(util_end, dtype=np.float64)
        self.start = np.asarray(variant.start, dtype=np.int64)
        self.work = np.zeros(workspace_size(variant.geometry.size), dtype=np.int64)
        self.mode = OPENING[variant.opening]
        self.levels = np.asarray(net.levels, dtype=np.int64)
        self.E = np.zeros((2, net.outputs, net.theta.shape[0]))
        self.python = Trainer(variant, net, alpha=alpha, lam=lam)

    @classmethod
    def make(cls, variant: Any, net: ValueNet, encoder: Encoder, *, alpha: float,
             lam: float) -> "CompiledTrainer | None":
        counts = compiled_layout(encoder) if native.available() else None
        source = None if counts is None else trainer_source(variant)
        worth = None if source is None else money_worth(variant, net)
        if counts is None or source is None or worth is None:
            return None
        factor, util_end, _counted = worth
        return cls(variant, net, load(source), encoder, counts, alpha=alpha, lam=lam,
                   factor=factor, util_end=util_end)

    def play(self, first: int, count: int, seed: int, max_turns: int) -> int:
        """Train on plays first .. first + count - 1 (seeded as `train` seeds them)."""
        i = first
        end = first + count
        net = self.net
        while i < end:
            seeds = [f"{seed}/train/{j}" for j in range(i, end)]
            words = [seed_bytes(f"{gs}:dice") for gs in seeds]
            width = max(len(w) for w in words) // 4
            keys = np.zeros((len(seeds), width), dtype=np.int64)
            nkeys = np.zeros(len(seeds), dtype=np.int64)
            for g, w in enumerate(words):
                keys[g, :len(w) // 4] = np.frombuffer(w, dtype="<u4")
                nkeys[g] = len(w) // 4
            out = np.zeros((len(seeds), 3), dtype=np.int64)
            done = self.fn(self.start, keys, nkeys, self.mode, max_turns, self.work, net.theta,
                           net.inputs, net.hidden, net.outputs, self.levels, self.util_end,
                           self.factor, self.alpha, self.lam, self.counts,
                           self.encoder.doublet_moves, self.variant.checkers,
                           self.encoder.full, self.E, out)
            i += int(done)
            if i < end:
                # a throw the compiled work space cannot hold: the Python trainer plays it
                self.python.play(f"{seed}/train/{i}", max_turns)
                i += 1
        return end


def _started_from(path: str | Path, option: str) -> tuple[ValueNet, list[dict[str, Any]]]:
    """The network a run goes on from (`option`: "--resume" or "--from"), its rules checked,
    and the `trained_from` of the new weights: the file's own, then its fingerprint and
    sha256."""
    with open(path, "rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    net = ValueNet.load(path)
    problem = check_rules_meta(net.meta)
    if problem is not None:
        raise TablierError(f"{option}: {str(path)!r}: {problem}")
    return net, [*(dict(t) for t in net.meta.get("trained_from", ())),
                 {"fingerprint": net.meta.get("rules_fingerprint"), "sha256": digest}]


def train(variant: Any, variant_ref: str, games: int | None, out: str | Path, *,
          seed: int = 1, hidden: int = 40, lam: float = 0.7, alpha: float = 0.1,
          resume: bool = False, checkpoint_every: int = 1000,
          snapshots: str | Path | None = None, max_turns: int = 5000,
          overrides: tuple[str, ...] = (),
          progress: Callable[[int, float], None] | None = None,
          rules_of: Any = None, command: Sequence[str] = (), minutes: float | None = None,
          start: Path | None = None,
          said: Callable[[str], None] | None = None) -> ValueNet:
    """Train (or, with `resume`, go on training the network in `out`) to `games` plays in all,
    or for `minutes` of CPU time (`games` None); write `out` every `checkpoint_every` plays and
    at the end, and a copy in `snapshots` (a directory) at each checkpoint. A resumed run may
    change the step size and λ from there on (the file's `schedule` lists them): the same
    commands give the same weights (a run bounded by time stops where the time runs out).

    `start`: a weights file to start from instead of small random weights (`--from`): what
    transfers of it (`ValueNet.transferred`: its inputs by feature name, its outputs by value
    level), the rest new; `said` is told what carried over.

    The file records the rules the network is trained under (players/rules_seen.py
    `rules_record`: those of `rules_of`, the variant as given before training's own `--set`s,
    default `variant`), the weights it started from (`trained_from`: each resumed or started-
    from file's fingerprint and sha256) and the command (`command`)."""
    enc = Encoder(variant)
    levels = value_levels(variant)
    record = rules_record(rules_of if rules_of is not None else variant, levels)
    trained_from: list[dict[str, Any]] = []
    done = 0
    cpu = 0.0
    if resume and Path(out).exists():
        net, trained_from = _started_from(out, "--resume")
        enc = Encoder.of_net(variant, net)     # a network goes on with the inputs it has
        net.check_features(enc.names, variant.id, str(out))
        m = net.meta
        if m.get("seed") != seed or net.hidden > hidden:
            raise TablierError(f"--resume: {str(out)!r} was trained with seed {m.get('seed')} "
                               f"and {m.get('hidden')} hidden units; give the same seed and "
                               f"at least as many hidden units")
        done = int(m.get("games", 0))
        cpu = float(m.get("cpu_seconds", 0.0))
        schedule = [list(x) for x in m.get("schedule", [])]
        widened: list[list[int]] = [list(x) for x in m.get("widened", [])]
        if hidden > net.hidden:
            # more hidden units: the network grows without changing what it says (the new
            # units' draw seeded by the seed and the plays done, so the same commands give
            # the same weights)
            widened.append([done, net.hidden, hidden])
            net = net.widened(hidden, seed=seed * 1_000_003 + done)
    elif start is not None:
        source, trained_from = _started_from(start, "--from")
        net, what = source.transferred(enc.names, levels, hidden=hidden, seed=seed)
        hidden = net.hidden
        if said is not None:
            said(what)
        schedule = []
        widened = []
    else:
        net = ValueNet(enc.size, hidden, levels, seed=seed)
        schedule = []
        widened = []
    # the step size and λ of each stretch of plays (a resumed run may change them)
    if not schedule or schedule[-1][1:] != [alpha, lam]:
        schedule.append([done, alpha, lam])
    trainer = Trainer(variant, net, alpha=alpha, lam=lam)
    compiled = CompiledTrainer.make(variant, net, enc, alpha=alpha, lam=lam)
    snap_dir = Path(snapshots) if snapshots is not None else None
    if snap_dir is not None:
        try:
            snap_dir.mkdir(exist_ok=True)     # the folder asked for, not its parents
        except OSError as exc:
            raise TablierError(f"cannot make the folder {str(snap_dir)!r}: "
                               f"{(exc.strerror or str(exc)).lower()}") from None

    def meta() -> dict[str, Any]:
        return {"variant": variant.id, "variant_ref": variant_ref, "features": enc.names,
                "hidden": hidden, "lambda": lam, "alpha": alpha, "seed": seed, "games": done,
                "cpu_seconds": round(cpu, 1), "method": METHOD, "schedule": schedule,
                "overrides": list(overrides), "files": [list(f) for f in variant.files],
                **record, "trained_from": trained_from, "command": list(command),
                **({"widened": widened} if widened else {})}

    t0 = time.process_time()
    # a run bounded by time: its end, in CPU seconds of this process, and the plays between
    # looks at the clock (the compiled loop plays them at once)
    until = None if minutes is None else t0 + 60.0 * minutes
    stride = checkpoint_every if until is None else min(checkpoint_every, 25)
    limit = games if games is not None else 1 << 62
    while done < limit:
        if compiled is not None:
            step = min(limit, (done // stride + 1) * stride) - done
            done = compiled.play(done, step, seed, max_turns)
        else:
            trainer.play(f"{seed}/train/{done}", max_turns)
            done += 1
        over = until is not None and time.process_time() >= until
        if over:
            limit = done
        if done % checkpoint_every == 0 or done == limit:
            cpu += time.process_time() - t0
            t0 = time.process_time()
            net.save(out, meta())
            if snap_dir is not None:
                net.save(snap_dir / f"{variant.id}-{done:07d}.npz", meta())
            if progress is not None:
                progress(done, cpu)
    return net
