"""`python3 -m interpreter.rulebook --update-docs [PAGE...]`: write the generated sections of the
documentation pages anew (default: every page of `docs/` that has one); `--check` only lists the
pages that are out of date and exits 1 if there are any."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from interpreter.errors import TablierError
from interpreter.rulebook.pages import pages, update


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m interpreter.rulebook",
                                 description="refresh the generated sections of the docs")
    ap.add_argument("--update-docs", action="store_true", required=True)
    ap.add_argument("--check", action="store_true",
                    help="change nothing; list the pages that are out of date")
    ap.add_argument("pages", nargs="*", type=Path, metavar="PAGE")
    args = ap.parse_args(argv)
    try:
        stale = update(args.pages or pages(), check=args.check)
    except (TablierError, OSError) as exc:
        print(f"python3 -m interpreter.rulebook: {exc}", file=sys.stderr)
        return 1
    verb = "out of date" if args.check else "refreshed"
    for path in stale:
        print(f"{path}: {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
