"""`python3 -m interpreter.precompile WHAT REF [KEY=VALUE ...]`: the detached process of low
priority that a run starts to compile the code it would have gained from
(interpreter/native/prepare.py `in_background`), leaving it in the user's cache for the runs
after it, once the run that started it has ended. It removes the lock its starter took when it
is done, whatever happened.
"""
from __future__ import annotations

import os
import sys
from typing import Sequence


def prepare_generator(ref: str, overrides: Sequence[str]) -> None:
    """Compile the move generator and random playouts of the variant, and call each entry once
    (numba compiles a function at its first call and caches its machine code then)."""
    from interpreter import native
    from interpreter.variant.build import load_variant

    variant = load_variant(ref, list(overrides))
    if not native.accelerate(variant, quiet=True):
        return
    for g in tuple(getattr(variant, "games", ()) or ()) or (variant,):
        if g.dice_count == 3:
            g.generator.results(g.start, 3, 1, 1, 2)
        else:
            g.generator.results(g.start, 3, 1)
        playout = getattr(g, "native_playout", None)
        if playout is not None:
            playout.play(["0/0"])


def prepare_throws(ref: str, overrides: Sequence[str]) -> None:
    """Compile the searching bots' throws of a scoring game (native/throws_emit.py)."""
    from interpreter import native
    from interpreter.variant.build import load_variant

    native.accelerate_throws(load_variant(ref, list(overrides)), quiet=True)


def prepare_net(ref: str, overrides: Sequence[str]) -> None:
    """Compile the learned players' network code for the variant (native/td_emit.py)."""
    from interpreter.native.library import build_library
    from interpreter.native.modules import load
    from interpreter.native.td_emit import play_source, trainer_source
    from interpreter.players.learned import FastNet
    from interpreter.variant.build import load_variant

    variant = load_variant(ref, list(overrides))
    source = trainer_source(variant) or play_source(variant)
    if source is not None:
        build_library(load(source), source, FastNet.EXPORTS)


def prepare_contact() -> None:
    """Compile the learned players' contact counts (players/features.py)."""
    import numpy as np

    from interpreter.native.library import build_library
    from interpreter.native.modules import load, plain_source
    from interpreter.players import contact
    from interpreter.players.features import CONTACT_EXPORTS, CONTACT_MANY, contact_block

    source = plain_source(contact) + CONTACT_MANY
    if not build_library(load(source), source, CONTACT_EXPORTS):
        contact_block(np.zeros((1, 28), dtype=np.int64), 4)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2:
        print("usage: python3 -m interpreter.precompile generator|throws|net|contact REF "
              "[KEY=VALUE ...]", file=sys.stderr)
        return 2
    what, ref, overrides = argv[0], argv[1], tuple(argv[2:])
    lock = os.environ.pop("TABLIER_PREPARE_LOCK", None)
    after = os.environ.pop("TABLIER_PREPARE_AFTER", "")
    try:
        try:
            os.nice(10)
        except (AttributeError, OSError):
            pass
        if after.isdigit():
            from interpreter.native.prepare import wait_for

            wait_for(int(after))
        if what == "generator":
            prepare_generator(ref, overrides)
        elif what == "throws":
            prepare_throws(ref, overrides)
        elif what == "net":
            prepare_net(ref, overrides)
        elif what == "contact":
            prepare_contact()
        else:
            print(f"unknown work {what!r}", file=sys.stderr)
            return 2
        return 0
    except Exception as exc:    # a background helper: whatever failed, the run goes on
        print(f"prepare {what}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        if lock is not None and os.path.basename(lock).startswith("prepare-"):
            try:
                os.unlink(lock)
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
