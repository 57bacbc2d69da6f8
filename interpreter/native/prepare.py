"""Compiled code prepared in the background: `python3 -m interpreter.precompile WHAT REF
[KEY=VALUE ...]` (interpreter/precompile.py) compiles what a run would have gained from (WHAT:
`generator`, the move generator and random playouts of variant REF with its `--set`s;
`throws`, the searching bots' compiled throws of a scoring game; `net`, the learned players'
network code for the variant; `contact`, the learned players' contact counts) and leaves it in
the user's cache, where every later run loads it.

A run that would gain from code the cache lacks (`native.accelerate`, `native.policy()`) starts
this as a detached process of low priority (`in_background`) and plays on the Python path,
without importing numba; the process compiles once that run has ended (or `WAIT` seconds into a
long one), so that it never takes the cores the run plays on. One process a piece of work: a
lock file beside the compiled modules says one is at work (and is taken over after `STALE`
seconds, should that process have died). Nothing here reads anything but the variant named, as
the run that asked would: REF and the `--set`s are the run's own, passed as arguments (never
through a shell).
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from typing import Any, Sequence

#: seconds after which a lock left by a preparing process that died is taken over
STALE = 900.0
#: the longest a preparing process waits for the run that started it to end before it compiles
#: (beside it, at a low priority): a short run is never slowed by the compile it asked for, a
#: long-lived one (`serve`, a person's game) gets the code a couple of minutes in
WAIT = 120.0


def wait_for(pid: int, limit: float = WAIT) -> None:
    """Return once the process `pid` has ended, or after `limit` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        except OSError:         # not ours to signal (it is alive): wait on
            pass
        time.sleep(0.2)


def _lock_path(what: str, ref: str, overrides: Sequence[str]) -> str | None:
    from interpreter.native.modules import native_folder

    key = hashlib.sha256("\0".join((what, os.path.abspath(ref) if os.path.exists(ref) else ref,
                                    *overrides)).encode()).hexdigest()[:24]
    try:
        return os.path.join(native_folder("kernel"), f"prepare-{key}.lock")
    except OSError:
        return None


def _take(lock: str) -> bool:
    """Take the lock file (made exclusively); a stale one is taken over."""
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            try:
                if time.time() - os.stat(lock).st_mtime < STALE:
                    return False
                os.unlink(lock)
            except OSError:
                return False
            continue
        except OSError:
            return False
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True
    return False


def source_of(variant: Any) -> tuple[str, tuple[str, ...]] | None:
    """The reference and `--set`s the variant was loaded from, where its loader kept them."""
    got = variant.__dict__.get("loaded_from")
    return None if got is None else (str(got[0]), tuple(got[1]))


def in_background(what: str, variant: Any = None) -> bool:
    """Start the detached process that prepares `what` (for `variant`, when it needs one);
    False when it cannot be started here or one is at work on it already."""
    if what in ("generator", "throws", "net"):
        src = source_of(variant) if variant is not None else None
        if src is None:
            return False
        ref, overrides = src
    else:
        ref, overrides = "-", ()
    lock = _lock_path(what, ref, overrides)
    if lock is None or not _take(lock):
        return False
    env = dict(os.environ)
    env["TABLIER_PREPARE"] = "foreground"
    env["TABLIER_PREPARE_LOCK"] = lock
    env["TABLIER_PREPARE_AFTER"] = str(os.getpid())
    try:
        subprocess.Popen([sys.executable, "-m", "interpreter.precompile", what, ref,
                          *overrides], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                         cwd=os.getcwd(), env=env)
    except OSError:
        try:
            os.unlink(lock)
        except OSError:
            pass
        return False
    return True
