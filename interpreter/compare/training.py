"""`compare --train-minutes M`: a network for every arm whose `learned` players have none for
its rules, trained before the games.

An arm's `learned` players (`learned`, `search:N:learned`, `rollout:N:learned`, without a
weights file named) read the network `players/learned.py` `network_for` finds: one shipped and
trained under these very rules, else one `tablier train` left in the user's cache for them.
Where neither exists (a house rule, an author's file) the arm would be played by a network
trained for other rules, or by none: with `--train-minutes` it gets its own first, `tablier
train REF --set ... --minutes M` (starting from the nearest network, `--from auto`), one
process an arm's rules at once over `--jobs`, written to the cache where its players then find
it. Arms with the same rules share one training. The report names the network each side used
(`networks` of each arm).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any, Sequence

from interpreter.errors import TablierError

#: the most minutes a training may be given
MAX_MINUTES = 600.0


def _wants_own(kind: str) -> bool:
    from interpreter.players.kinds import PlayerKindError, parse

    try:
        _family, params = parse(kind)
    except PlayerKindError:
        return False
    return bool(params.get("learned")) and not params.get("weights")


def to_train(specs: Sequence[Any], variants: Sequence[Any],
             players: Sequence[dict[str, str]]) -> list[tuple[Any, Any]]:
    """(spec, variant) of each distinct rules fingerprint among the arms whose learned players
    lack a network of their own; rotations are left out (`tablier train` trains each game)."""
    from interpreter.players.learned import own_network
    from interpreter.variant.fingerprint import rules_fingerprint

    out: dict[str, tuple[Any, Any]] = {}
    for spec, variant, pl in zip(specs, variants, players):
        if getattr(variant, "games", ()) or not any(_wants_own(k) for k in pl.values()):
            continue
        fp = rules_fingerprint(variant)
        if fp not in out and own_network(variant) is None:
            out[fp] = (spec, variant)
    return list(out.values())


def train_arms(todo: Sequence[tuple[Any, Any]], minutes: float, jobs: int,
               say: Any = None) -> None:
    """Train a network for each (spec, variant) of `todo`, `jobs` at a time, each a `tablier
    train` process of `minutes` of CPU time writing to the user's cache."""
    from interpreter.players.learned import weights_cache

    if not todo:
        return
    if not 0 < minutes <= MAX_MINUTES:
        raise TablierError(f"--train-minutes must be above 0 and at most {MAX_MINUTES:g}, not "
                           f"{minutes:g}")
    if weights_cache() is None:
        raise TablierError("--train-minutes keeps the networks in the user's cache, and there "
                           "is no private cache folder (TABLIER_NO_CACHE, or XDG_CACHE_HOME "
                           "not safe)")
    waiting = list(todo)
    running: list[tuple[subprocess.Popen[bytes], str]] = []
    failed: list[str] = []
    env = dict(os.environ)
    while waiting or running:
        while waiting and len(running) < max(1, jobs):
            spec, variant = waiting.pop(0)
            sets = [w for o in spec.overrides for w in ("--set", o)]
            cmd = [sys.executable, "-m", "interpreter", "train", str(spec.ref), *sets,
                   "--minutes", f"{minutes:g}"]
            label = getattr(spec, "label", None) or variant.id
            if say is not None:
                say(f"training a network for arm {label} ({variant.id}"
                    f"{', ' + ', '.join(spec.overrides) if spec.overrides else ''}) for "
                    f"{minutes:g} min of CPU")
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    env=env)
            running.append((proc, label))
        time.sleep(0.2)
        for proc, label in list(running):
            if proc.poll() is None:
                continue
            running.remove((proc, label))
            err = (proc.stderr.read() if proc.stderr is not None else b"").decode(
                "utf-8", "replace").strip().splitlines()
            if proc.returncode != 0:
                failed.append(f"arm {label}: {err[-1] if err else 'exit ' + str(proc.returncode)}")
    if failed:
        raise TablierError("--train-minutes: training failed for " + "; ".join(failed))


def network_names(variant: Any, players: dict[str, str]) -> dict[str, str | None]:
    """The network each side's player read, as a person can find it: `shipped NAME.npz`,
    `trained CACHE-PATH` (the user's cache, for these rules), the file named, or None for a
    player without a network. A rotation names each game's."""
    from interpreter.compare.provenance import weights_files
    from interpreter.players.learned import shipped_weights, weights_cache

    cache = weights_cache()
    out: dict[str, str | None] = {}
    for side in ("white", "black"):
        files = weights_files(players.get(side, "random"), variant)
        if not files:
            out[side] = None
            continue
        names = []
        for path in files:
            if cache is not None and path.parent == cache:
                names.append(f"trained for these rules ({path})")
            elif shipped_weights(path.stem) == path:
                names.append(f"shipped {path.name}")
            else:
                names.append(str(path))
        out[side] = "; ".join(names)
    return out
