"""Where the games of `simulate` and `compare` are played: in this process, in worker processes
(`--jobs`), or on a Dask distributed scheduler (`--dask ADDRESS`).

The games to play are `Arm`s (a variant with its `--set`s, a seed, a number of games and two
player kinds). Game i of an arm is seeded from the arm's seed and i alone
(`game_seed`), so what a game does never depends on where, or next to what, it is played:
`--jobs 4` and `--dask` give what `--jobs 1` gives (on Dask, a variant file goes to the workers
as its text, with the files it extends, each checked against its sha256: a worker needs no
copy of it). The games are cut into chunks, the chunks
of several arms interleaved (an interrupted comparison has played about as many games in each
arm), and at most a few chunks per worker are in flight, handed back in the order they were
made: memory stays flat whatever the number of games.

Ctrl-C: the worker processes ignore SIGINT (the terminal sends it to the whole process group),
and the process that reads the results terminates them (or cancels the Dask tasks) before the
interrupt goes on up to the command, which reports the games finished.
"""
from __future__ import annotations

import os
import signal
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from interpreter.engine.contract import SIDE_NAMES
from interpreter.engine.game import Game, GameResult
from interpreter.errors import TablierError
from interpreter.players.base import capabilities_of
from interpreter.players.kinds import make_player, reads_throws, uses_net

#: the largest chunk handed to a worker at a time
CHUNK = 200
#: chunks in flight per worker
WINDOW = 3
#: about how long one chunk should take, in seconds
SECONDS = 0.5


@dataclass(frozen=True)
class Arm:
    """The games to play of one variant: `games` games seeded from `seed`."""

    ref: str
    overrides: tuple[str, ...]
    seed: int
    games: int
    white: str = "random"
    black: str = "random"
    max_turns: int = 20000
    #: keep each game's playout metrics (engine/metrics.py; `--metrics`)
    metrics: bool = False


def default_jobs() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):         # not every platform has affinity
        return max(1, os.cpu_count() or 1)


def chunk_size(total: int, workers: int, seconds_per_game: float = 0.0) -> int:
    """Chunks small enough that every worker gets several, that one takes about `SECONDS`
    (the progress bar moves, Ctrl-C loses little), large enough that handing them out costs
    little."""
    size = min(CHUNK, total // max(1, 8 * workers) or 1)
    if seconds_per_game > 0:
        size = min(size, int(SECONDS / seconds_per_game))
    return max(1, size)


def chunks(arms: Sequence[Arm], size: int, start: int = 0) -> list[tuple[int, int, int]]:
    """(arm, first game, stop) of every chunk from game `start`, the arms interleaved."""
    per_arm = [[(a, k, min(k + size, arm.games)) for k in range(start, arm.games, size)]
               for a, arm in enumerate(arms)]
    out: list[tuple[int, int, int]] = []
    for i in range(max((len(c) for c in per_arm), default=0)):
        out += [c[i] for c in per_arm if i < len(c)]
    return out


def game_seed(seed: int, index: int) -> str:
    return f"{seed}/{index}"


def play_game(variant: Any, seed: int, index: int, white: str = "random", black: str = "random",
              max_turns: int = 20000, keep_record: bool = False,
              metrics: bool = False) -> GameResult:
    gs = game_seed(seed, index)
    players = (make_player(white, f"{gs}:white", variant),
               make_player(black, f"{gs}:black", variant))
    return Game(variant, gs, max_turns=max_turns, keep_record=keep_record,
                doubles=capabilities_of(players), metrics=metrics).run(players)


def game_line(index: int, seed: int, result: GameResult) -> dict[str, Any]:
    """The line of one finished game (`--games-out`): its number and seed, who threw first,
    the winner, the value, its length, the points each side scored by the rules, each rule's
    firings by side (scoring, end and value rules) and the points each scoring rule gave by
    side (`rule_points`), lead changes, the legal plays counted over its play decisions, and
    the ladder's figures."""
    line: dict[str, Any] = {
        "game": index, "seed": game_seed(seed, index), "first": SIDE_NAMES[result.first],
        "finished": result.finished,
        "winner": None if result.winner is None else SIDE_NAMES[result.winner],
        "value": result.value, "turns": result.turns, "throws": result.turns,
        "points": {"white": result.scored[0], "black": result.scored[1]},
        "fired": {rule: {"white": n[0], "black": n[1]}
                  for rule, n in sorted(result.fired.items())},
        "rule_points": {rule: {"white": n[0], "black": n[1]}
                        for rule, n in sorted(result.rule_points.items()) if n[0] or n[1]},
        "won": {"white": result.points[0], "black": result.points[1]},
        "lead_changes": result.lead_changes,
        # the playout's own counts: legal plays summed over the play decisions, the decisions
        # with at most one play, and the play decisions
        "legal_plays": result.play_counts[0], "forced": result.play_counts[1],
        "decisions": result.play_counts[2],
    }
    for key, value in result.figures.items():
        line.setdefault(key, value)
    if result.metrics is not None:
        # the playout metrics (`--metrics`): decisiveness, drama, stability, coverage, and the
        # sums they are made of (engine/metrics.py)
        line.update(result.metrics)
    return line


def play_lines(variant: Any, arm: Arm, start: int, stop: int) -> list[dict[str, Any]]:
    """The lines of games start..stop-1 of `arm`: on the compiled path where the variant has
    one (`interpreter.native.accelerate`: the same games for the same seeds), else in Python."""
    playout = getattr(variant, "native_playout", None)
    # (the compiled playout keeps no playout metrics)
    if playout is not None and arm.white == arm.black == "random" and not arm.metrics:
        results = playout.play([game_seed(arm.seed, i) for i in range(start, stop)],
                               arm.max_turns)
        return [game_line(i, arm.seed, r) for i, r in zip(range(start, stop), results)]
    return [game_line(i, arm.seed, play_game(variant, arm.seed, i, arm.white, arm.black,
                                             max_turns=arm.max_turns, metrics=arm.metrics))
            for i in range(start, stop)]


class Interrupts:
    """Ctrl-C while the lines of a chunk are being summed up and written waits until they are
    all done, so the figures and the `--games-out` files always cover the same games:

        with Interrupts() as guard:
            for a, chunk in run(...):
                with guard.held():
                    ...

    Outside `held()` Ctrl-C raises KeyboardInterrupt at once (a wait for workers is cut
    short). Only the main thread can take signals: elsewhere this does nothing."""

    def __init__(self) -> None:
        self.holding = False
        self.pending = False
        self._old: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> Interrupts:
        import threading

        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            self._old = None

    @contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


# -- worker processes -------------------------------------------------------------------------

#: in a worker: the arms and their loaded variants (inherited through fork, or loaded)
_WORKER: dict[str, Any] = {}


def _init_worker(arms: tuple[Arm, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _WORKER.get("arms") != arms:
        from interpreter.variant.build import load_variant

        _WORKER["variants"] = [load_variant(a.ref, a.overrides) for a in arms]
        _WORKER["arms"] = arms


def _run_chunk(task: tuple[int, int, int]) -> list[dict[str, Any]]:
    a, start, stop = task
    return play_lines(_WORKER["variants"][a], _WORKER["arms"][a], start, stop)


def _windowed(tasks: list[tuple[int, int, int]], submit: Callable[[tuple[int, int, int]], Any],
              get: Callable[[Any], list[dict[str, Any]]], window: int
              ) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Submit at most `window` tasks ahead; hand back each one's lines in submission order."""
    pending: deque[tuple[int, Any]] = deque()
    todo = iter(tasks)
    for task in todo:
        pending.append((task[0], submit(task)))
        if len(pending) >= window:
            break
    while pending:
        a, handle = pending.popleft()
        lines = get(handle)
        after = next(todo, None)
        if after is not None:
            pending.append((after[0], submit(after)))
        yield a, lines


def _first_games(arms: Sequence[Arm], variants: Sequence[Any], timing: list[float]
                 ) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The first game of each arm, played here: how long each takes (in `timing`) sizes the
    chunks handed to the workers."""
    for a, arm in enumerate(arms):
        if arm.games:
            t0 = time.perf_counter()
            first = play_lines(variants[a], arm, 0, 1)
            timing.append(time.perf_counter() - t0)
            yield a, first


def run(arms: Sequence[Arm], variants: Sequence[Any], jobs: int = 1,
        dask: str | None = None) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(arm index, lines of a chunk of its games), each arm's games in the order of their
    numbers. `variants` are the arms' loaded variants (played here with one job)."""
    arms = tuple(arms)
    total = sum(a.games for a in arms)
    from interpreter.native import accelerate, accelerate_net, accelerate_throws

    for v in {id(v): v for v in variants}.values():
        accelerate(v, games=total)
        searching = sum(a.games for a, w in zip(arms, variants)
                        if w is v and (reads_throws(a.white) or reads_throws(a.black)))
        if searching:
            accelerate_throws(v, games=searching)
        learning = sum(a.games for a, w in zip(arms, variants)
                       if w is v and (uses_net(a.white) or uses_net(a.black)))
        if learning:
            accelerate_net(v, games=learning)
    if dask is not None:
        yield from _run_dask(arms, variants, dask)
        return
    if jobs <= 1 or total < 2:
        for a, start, stop in chunks(arms, chunk_size(total, 1)):
            yield a, play_lines(variants[a], arms[a], start, stop)
        return
    timing: list[float] = []
    yield from _first_games(arms, variants, timing)
    slowest = max(timing, default=0.0)
    if slowest * (total - len(timing)) < SECONDS:
        # less work left than it takes to start the workers: play it here
        for a, start, stop in chunks(arms, chunk_size(total, 1), start=1):
            yield a, play_lines(variants[a], arms[a], start, stop)
        return
    size = chunk_size(total, jobs, slowest)
    import multiprocessing

    ctx = multiprocessing.get_context()
    if ctx.get_start_method() == "fork":
        # the children inherit the variants already loaded here
        _WORKER["arms"], _WORKER["variants"] = arms, list(variants)
    pool = ctx.Pool(jobs, initializer=_init_worker, initargs=(arms,))
    try:
        yield from _windowed(chunks(arms, size, start=1),
                             lambda t: pool.apply_async(_run_chunk, (t,)),
                             lambda h: h.get(), WINDOW * jobs)
        pool.close()
        pool.join()
    finally:
        # on Ctrl-C (or any error) the workers are stopped at once
        pool.terminate()
        pool.join()
        _WORKER.clear()


# -- Dask -------------------------------------------------------------------------------------

def _dask_chunk(arm: Arm, start: int, stop: int, sent: Any = None,
                foreign: bool = False) -> list[dict[str, Any]]:
    """Run on a Dask worker: the variant is loaded once per worker process and kept. A variant
    file comes as its text (`sent`, a `VariantTexts`: the file and every file it extends, each
    checked against its sha256) and is compiled from it: the worker reads no variant file.
    `foreign`: the command was given `--foreign-weights` (a worker does not inherit the
    environment switch that says so in the command's own processes)."""
    from interpreter.players.rules_seen import FOREIGN_ENV

    before = os.environ.get(FOREIGN_ENV)
    if foreign:
        os.environ[FOREIGN_ENV] = "1"
    else:
        os.environ.pop(FOREIGN_ENV, None)
    try:
        return _dask_lines(arm, start, stop, sent)
    finally:
        if before is None:
            os.environ.pop(FOREIGN_ENV, None)
        else:
            os.environ[FOREIGN_ENV] = before


def _dask_lines(arm: Arm, start: int, stop: int, sent: Any) -> list[dict[str, Any]]:
    cache = _WORKER.setdefault("dask", {})
    key = (arm.ref, arm.overrides, None if sent is None else sent.digests)
    variant = cache.get(key)
    if variant is None:
        from interpreter.variant.build import load_variant, load_variant_texts

        variant = load_variant(arm.ref, arm.overrides) if sent is None else \
            load_variant_texts(sent, arm.overrides)
        if len(cache) > 32:
            cache.clear()
        cache[key] = variant
        from interpreter.native import accelerate

        accelerate(variant, quiet=True, games=arm.games)
    return play_lines(variant, arm, start, stop)


def _run_dask(arms: tuple[Arm, ...], variants: Sequence[Any], address: str
              ) -> Iterator[tuple[int, list[dict[str, Any]]]]:

    try:
        from distributed import Client
    except ImportError:
        raise TablierError("--dask needs the `distributed` package: pip install "
                           "'tablier[dask]'") from None
    try:
        client = Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise TablierError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    futures: list[Any] = []
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        total = sum(a.games for a in arms)
        from interpreter.variant.build import variant_texts

        # a variant file travels with each task as its text, whatever the worker's folders
        texts: dict[tuple[str, tuple[str, ...]], Any] = {}
        for arm, v in zip(arms, variants):
            if (arm.ref, arm.overrides) not in texts:
                texts[arm.ref, arm.overrides] = variant_texts(arm.ref, arm.overrides, built=v)
        sent = [texts[arm.ref, arm.overrides] for arm in arms]
        from interpreter.players.rules_seen import foreign_allowed

        # `--foreign-weights` goes with each task: a worker is not a child of this process
        foreign = foreign_allowed()

        def submit(task: tuple[int, int, int]) -> Any:
            a, start, stop = task
            # pure=False: a chunk is never taken for another with the same arguments' hash
            f = client.submit(_dask_chunk, arms[a], start, stop, sent[a], foreign,
                              pure=False)
            futures.append(f)
            return f

        def get(f: Any) -> list[dict[str, Any]]:
            try:
                return f.result()
            except Exception as exc:  # a worker's error comes back as itself
                if isinstance(exc, TablierError):
                    raise
                raise TablierError(f"a Dask worker failed: {type(exc).__name__}: "
                                   f"{exc}") from None
            finally:
                futures.remove(f)

        timing: list[float] = []
        yield from _first_games(arms, variants, timing)
        size = chunk_size(total, workers, max(timing, default=0.0))
        yield from _windowed(chunks(arms, size, start=1), submit, get, WINDOW * workers)
    finally:
        if futures:
            client.cancel(futures)
        client.close()
