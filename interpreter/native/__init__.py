"""The compiled hot path: the same movement switches and rules as the Python kernel, emitted as
numba source over a flat int64 board (the kernel's layout, kernel/board.py), compiled once and
kept in the user's cache (`modules.py`).

What it serves: the distinct end boards of a throw (`results()`) for the backgammon family's
switches (`gen_emit.py`), for the pinning, same-route and off-board games without rule hooks
(`walk_emit.py`), and for the games whose legality needs the file's `forbid` rules or whose
switches only the generic walk serves (`hooks_emit.py`: the walk with the rules called inside
it; Fevga, Jacquet, Long Nardy, Tourne-case, Tabula, Emperador, where a named state's update
reads the play's path also `some_plays` with the first way to each board); whole random
playouts (`loop_emit.py`, `playout.py`) over the backgammon family's generator, the walk's, or
the walk with the file's rules (Fevga, Long Nardy, Tavla); the variant file's rules
(`rules_emit.py`, the rule compiler's numba back end, with its runtime helpers in `rt.py`); and
the trictrac family's throws for its searching bots (`rt_corner.py`, `throws_emit.py`).
Everything else, and everything when numba is missing or `TABLIER_NATIVE=0` is set, runs on the
Python path, which stays the reference: the compiled code gives the same boards in the same
order, and the compiled playouts the same games for the same seed (tests/test_native_diff.py).

Each module's entry functions are also compiled ahead of time into a library of the cache
(`library.py`), which later processes load without numba. Nothing here imports numba until a
command asks for speed and no library serves (`accelerate`): short commands (`tablier moves` on
one position, `rules`, `validate`) never pay for it.
"""
from __future__ import annotations

import os
import sys
from functools import partial
from typing import Any, Callable

from interpreter.native.numba_cache import prepare_numba

_STATE: dict[str, Any] = {}


def wanted() -> bool:
    """Whether the compiled path is asked for (`TABLIER_NATIVE=0` turns it off)."""
    return os.environ.get("TABLIER_NATIVE", "1") not in ("0", "off", "no", "false")


def installed() -> bool:
    """Whether numba is installed here and the compiled path is wanted, found without importing
    numba (`available` imports it)."""
    if not wanted():
        return False
    ok = _STATE.get("installed")
    if ok is None:
        from importlib.util import find_spec

        try:
            ok = find_spec("numba") is not None
        except (ImportError, ValueError):
            ok = False
        _STATE["installed"] = ok
    return bool(ok)


def policy() -> str:
    """When code that is not in the cache yet is compiled for a run that would gain from it
    (`TABLIER_PREPARE`): `background` (the default: a detached process of low priority fills the
    cache while this run plays on the Python path; later runs load it), `foreground` (this run
    compiles first, saying so on stderr) or `never` (only code already in the cache is used)."""
    got = os.environ.get("TABLIER_PREPARE", "background").strip().lower()
    return got if got in ("background", "foreground", "never") else "background"


def available() -> bool:
    """Whether numba can be imported here (once per process) and the compiled path is wanted."""
    if not wanted():
        return False
    ok = _STATE.get("numba")
    if ok is None:
        prepare_numba()
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


#: the fewest games worth loading the compiled code from the cache: as a library (numpy's
#: import, a tenth of a second), or as numba's cached machine code (numba's import and first
#: dispatch, about a second); and worth compiling it first (some 10 s of CPU for the backgammon
#: family, once per machine and code version)
LIB_GAMES = 100
WARM_GAMES = 500
COLD_GAMES = 20_000


def warm_games(games_of: tuple[Any, ...], least: int = WARM_GAMES) -> int:
    """The fewest games worth loading the compiled code of these games from the cache: `least`
    for fifteen checkers a side, a multiple of it for fewer (a game of three checkers,
    Hypergammon's or Tourne-case's, costs the Python path under a millisecond: the second of
    loading pays over some two thousand of them)."""
    few = min(max(1, int(getattr(g, "checkers", 15) or 15)) for g in games_of)
    return least * max(1, 15 // few)


def accelerate(variant: Any, quiet: bool = False, games: int | None = None) -> bool:
    """Give `variant` (and the games of a rotation) the compiled generator and playouts where
    its switches are covered; True when every game of it runs compiled. `games`: how many
    games the caller will play (None: as many as it takes, compiling now what the cache lacks),
    below which loading the code would cost more than it saves.

    The code comes from the cache's library when it is there (`library.py`: no numba import),
    else from numba's cached machine code. Code missing from the cache is compiled as
    `policy()` says: for a run of fewer than `COLD_GAMES` games, in the background by default
    (this run plays on the Python path, or on numba's cached code, and never imports numba for
    nothing); otherwise here, as a library where a C compiler allows. Where numba is missing,
    or a variant is not covered, says so once on stderr (unless `quiet`) and changes nothing."""
    if not wanted() or (games is not None and games < LIB_GAMES):
        return False
    alone = [g.id for g in (tuple(getattr(variant, "games", ()) or ()) or (variant,))
             if python_only(g)]
    if alone:
        if not quiet:
            say_once(f"{', '.join(dict.fromkeys(alone))}: its rules are played on the Python "
                     f"path only ({python_only(variant) or 'one of its games'}), slower")
        return False
    if not installed():
        if not quiet:
            say_once("numba is not installed: games run on the Python path (slower)")
        return False
    from interpreter.native.generator import build_lib, has_lib, install, is_cached, \
        may_build_lib

    games_of = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    if games is not None and games < warm_games(games_of, LIB_GAMES):
        return False
    if all(has_lib(g) for g in games_of) and all(install(g, library_only=True)
                                                 for g in games_of):
        return True
    lib_missing = any(may_build_lib(g) for g in games_of)
    build_here = lib_missing
    if games is not None:
        # asked of the cache's files: no numba import for a run that will not use it
        cached = all(is_cached(g) for g in games_of)
        how = policy()
        here = how != "never" and (games >= COLD_GAMES or how == "foreground")
        if not here:
            build_here = False
            if how == "background" and (lib_missing or not cached):
                from interpreter.native.prepare import in_background

                if in_background("generator", variant) and not quiet:
                    say_once(f"compiling the move generator of {variant.id} for this machine "
                             f"in the background (once, about 10 s); later runs use it")
            if not cached or games < warm_games(games_of):
                # numba's cached code (its import and first dispatch) pays from more games
                return False
        elif (build_here or not cached) and not quiet:
            say_once(f"compiling the move generator of {variant.id} for this machine "
                     f"(once, about 10 s)")
    if not available():
        if not quiet:
            say_once("numba is not installed (or cannot be loaded here): games run on the "
                     "Python path (slower)")
        return False
    if build_here:
        for g in games_of:
            if may_build_lib(g):
                build_lib(g)
    done = [install(g) for g in games_of]
    if not all(done) and not quiet:
        left = ", ".join(dict.fromkeys(g.id for g, ok in zip(games_of, done) if not ok))
        say_once(f"{left}: no compiled move generator for these rules yet; the Python path "
                 f"plays them")
    return all(done)


#: the fewest games of a searching bot worth compiling the throws' code for in the run (some
#: 17 s of CPU for the trictrac family, once per machine and code version; a search:1 partie of
#: triktrak takes about 4 s on the Python path, half a second compiled); fewer play on the
#: Python path while a process of low priority compiles it after the run; the code in the cache
#: is loaded for any game
THROW_GAMES = 5


def python_only(variant: Any) -> str:
    """Why no compiled code serves `variant` (empty: some may): the structures only the Python
    walk and turn loop know (a route other than 24 points, hits placed by a list, the entering
    stage, checkers removed from the game, end rules judged after each move or on the throw,
    numbers the opponent may decline, another throw after a throw of three dice)."""
    rules = variant.rules
    walk = variant.move_rules.walk_alone
    if walk:
        return walk
    if getattr(rules, "end_move", None):
        return "an end judged after each move"
    if getattr(rules, "end_throw", None):
        return "an end judged on the throw"
    stages = variant.throws.stages
    if any(getattr(st, "optional", False) or getattr(st, "again_partial", False)
           for st in stages):
        return "numbers the opponent may decline"
    if stages and variant.dice_count == 3:
        return "another throw after a throw of three dice"
    return ""


def prepared(what: str, variant: Any, source: str, exports: Any, salt: str, *,
             numba_module: Callable[[], Any], cached: bool, now: bool,
             compiling: str | None, in_background: str | None) -> Any:
    """The compiled module of `source` for a caller that does not compile the move generator
    (the searching bots' throws, the learned players' network and contact counts): its library
    from the cache (no numba imported); else, when `now`, the library made here (numba's module
    where none can be made); else numba's cached module (`cached`), or None. Where the library
    is missing and not made now, a process of low priority makes it after this run, as
    `policy()` says (`what`, `variant`: its work). `compiling` and `in_background` are the lines
    said on stderr when code is compiled here or in the background (None: nothing said)."""
    from interpreter.native.library import build_library, load_library, may_build

    lib = load_library(source, exports, salt)
    if lib is not None:
        return lib
    buildable = may_build(source, exports, salt)
    if not now:
        if buildable and policy() == "background":
            from interpreter.native.prepare import in_background as start

            if start(what, variant) and in_background:
                say_once(in_background)
        if not cached:
            return None
    if not available():
        return None
    if now and (buildable or not cached) and compiling:
        say_once(compiling)
    if now and buildable and build_library(numba_module(), source, exports, salt):
        lib = load_library(source, exports, salt)
        if lib is not None:
            return lib
    return numba_module()


def accelerate_throws(variant: Any, games: int | None = None, quiet: bool = False) -> bool:
    """Give `variant` (and the games of a rotation) the compiled throws (`throws_emit.py`) that
    the searching bots' valuation of a scoring game reads, where it is covered; True when every
    game of it has them. The cache's library serves when it is there (no numba imported).
    `games`: how many games a searching bot will play (None: as many as it takes); from
    `THROW_GAMES` on, missing code is compiled here (as a library where a C compiler allows);
    below, numba's cached code serves when it is there, and the library is made in the
    background as `policy()` says."""
    games_of = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    if not installed() or any(python_only(g) for g in games_of):
        return False
    from interpreter.native.library import know, known, known_key
    from interpreter.native.rules_emit import load_module
    from interpreter.native.throws_emit import EXPORTS, NativeThrows, emit_throws, is_cached

    done = []
    for g in games_of:
        if g.__dict__.get("native_throws") is not None:
            done.append(True)
            continue
        # the library made for this very model and code, without writing its source again
        key = known_key("throws", g)
        lib = known(key, EXPORTS)
        if lib is not None:
            g.__dict__["native_throws"] = NativeThrows(g, None, lib)
            done.append(True)
            continue
        made = emit_throws(g)
        if made is None:
            done.append(False)
            continue
        nr, fns = made
        module = prepared(
            "throws", g, nr.source, EXPORTS, nr.digest,
            numba_module=partial(load_module, nr), cached=is_cached(nr, fns),
            now=games is None or games >= THROW_GAMES,
            compiling=None if quiet else f"compiling the throws of {g.id} for this machine "
            f"(once, about 17 s)",
            in_background=None if quiet else f"compiling the throws of {g.id} for this "
            f"machine in the background (once, about 17 s); later runs use them")
        if module is not None:
            g.__dict__["native_throws"] = NativeThrows(g, nr, module)
            know(key, nr.source, EXPORTS, nr.digest)
        done.append(module is not None)
    return all(done)


#: the fewest games of a learned player worth compiling its network's code for in the run (some
#: 15 to 20 s of CPU for the backgammon family, once per machine and code version, against
#: about a second a game of learned play on the Python path); fewer games play on the Python
#: path while a process of low priority compiles it after the run (`policy()`); the code in the
#: cache is loaded for any game
NET_GAMES = 20


def accelerate_net(variant: Any, games: int | None = None) -> None:
    """Let the learned players of `variant` (and of the games of a rotation) compile their
    network's code (players/learned.py `FastNet`) when `games` (None: as many as it takes)
    are enough to pay for it (or `policy()` is `foreground`); below `NET_GAMES` only code already
    in the cache is used, and what it lacks is compiled in the background. Imports nothing of
    numba."""
    if not installed():
        return
    if games is not None and (policy() == "never" or (games < NET_GAMES
                                                      and policy() != "foreground")):
        return
    for g in tuple(getattr(variant, "games", ()) or ()) or (variant,):
        if not python_only(g):
            g.__dict__["native_net"] = True
