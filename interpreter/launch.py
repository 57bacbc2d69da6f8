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

    return cli_main(args)
