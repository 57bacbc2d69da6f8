"""The compiled hot path: the same movement switches and rules as the Python kernel, emitted as
numba source over a flat int64 board (the kernel's layout, kernel/board.py), compiled once and
kept in the user's cache (`modules.py`).

What it serves (`covers`): the distinct end boards of a throw (`results()`) for the backgammon
family's switches (`gen_emit.py`), and whole random playouts of such variants (`loop_emit.py`).
Everything else, and everything when numba is missing or `TABLIER_NATIVE=0` is set, runs on the
Python path, which stays the reference: the compiled code gives the same boards in the same
order, and the compiled playouts the same games for the same seed (tests/test_native_diff.py).

Nothing here imports numba until a command asks for speed (`accelerate`): short commands
(`tablier moves` on one position, `rules`, `validate`) never pay for it.
"""
from __future__ import annotations

import os
import sys
from typing import Any

_STATE: dict[str, Any] = {}


def wanted() -> bool:
    """Whether the compiled path is asked for (`TABLIER_NATIVE=0` turns it off)."""
    return os.environ.get("TABLIER_NATIVE", "1") not in ("0", "off", "no", "false")


def available() -> bool:
    """Whether numba can be imported here (once per process) and the compiled path is wanted."""
    if not wanted():
        return False
    ok = _STATE.get("numba")
    if ok is None:
        try:
            import numba  # noqa: F401
            ok = True
        except Exception:           # missing, or broken on this platform (llvmlite)
            ok = False
        _STATE["numba"] = ok
    return bool(ok)


def say_once(message: str) -> None:
    """One line on stderr, once per process."""
    said = _STATE.setdefault("said", set())
    if message not in said:
        said.add(message)
        print(f"tablier: {message}", file=sys.stderr)


def accelerate(variant: Any, quiet: bool = False) -> bool:
    """Give `variant` (and the games of a rotation) the compiled generator where its switches
    are covered; True when every game of it runs compiled. Where numba is missing, says so once
    on stderr (unless `quiet`) and changes nothing."""
    if not wanted():
        return False
    if not available():
        if not quiet:
            say_once("numba is not installed: games run on the Python path (slower)")
        return False
    from interpreter.native.generator import install

    games = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    done = [install(g) for g in games]
    return all(done)
