"""The `tablier` command's entry point.

`tablier variants` (the listing, plain or `--json`) is answered from the user's cache when the
built-in variant files have not changed since it was last printed, without importing argparse,
json, pathlib or tomllib (interpreter/listing.py); everything else goes to `interpreter.cli`,
which also writes that cache (`listing.store_listing`) and never imports this module.
"""
from __future__ import annotations

import os
import sys
from typing import Sequence

from interpreter.listing import cached_listing


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["variants"] and all(a == "--json" for a in args[1:]):
        text = cached_listing(as_json=len(args) > 1)
        if text is not None:
            try:
                sys.stdout.write(text)
                sys.stdout.flush()
            except BrokenPipeError:
                pass
            return 0
    # pydantic looks for plugins among every installed distribution's entry points when the
    # first model is made (some 30 ms a process); the rules files' models are Tablier's own
    # checks, which no plugin observes. PYDANTIC_DISABLE_PLUGINS= (empty) lets them load.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from interpreter.cli import main as cli_main

    code = cli_main(args)
    if argv is None:
        leave(code)
    return code


def leave(code: int) -> None:
    """End the command's process once its work is done, without the interpreter's teardown:
    freeing every object a run made (a search's memo of positions, the loaded rules) one by
    one costs about 0.1 s that nobody waits for. The output is flushed and the exit handlers
    run first; where another thread is still alive, or the output cannot be flushed, the
    process ends the usual way, and so it does under a profiler or a tracer (which write what
    they saw after the command returns)."""
    import threading

    if threading.active_count() > 1 or sys.getprofile() is not None \
            or sys.gettrace() is not None:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)
