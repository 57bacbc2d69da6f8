"""The listing of `tablier variants`, kept in the user's cache between two runs.

interpreter/launch.py prints it from here when the built-in variant files have not changed
since it was last printed (this module imports no more than `os` and the cache's folder);
`tablier variants` in interpreter/cli.py stores it. The cached text is keyed by the size and
modification time of every built-in variant file and of the modules that print it, and lives in
the user's private cache directory (`interpreter/usercache.py`).
"""
from __future__ import annotations

import os

_FILE = "variants-listing.txt"


def _builtin_folder() -> str | None:
    """The built-in variant files' folder: the places `interpreter.resources` looks in."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "variants"), os.path.join(os.path.dirname(here),
                                                                   "variants")):
        if os.path.isdir(candidate):
            return candidate
    return None


def _listing_key() -> str | None:
    folder = _builtin_folder()
    if folder is None:
        return None
    here = os.path.dirname(os.path.abspath(__file__))
    parts = []
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml"))
        for path in [os.path.join(folder, n) for n in names] + [
                os.path.join(here, "cli.py"), os.path.abspath(__file__)]:
            st = os.stat(path)
            parts.append(f"{os.path.basename(path)}:{st.st_size}:{st.st_mtime_ns}")
    except OSError:
        return None
    return "1;" + folder + ";" + ";".join(parts)


def cached_listing(as_json: bool) -> str | None:
    """What `tablier variants [--json]` printed last time, if nothing it shows has changed."""
    from interpreter.usercache import cache_dir, read_private

    folder = cache_dir()
    key = _listing_key()
    if folder is None or key is None:
        return None
    data = read_private(os.path.join(folder, _FILE))
    if data is None:
        return None
    try:
        head, plain_size, rest = data.decode("utf-8").split("\n", 2)
        if head != key:
            return None
        n = int(plain_size)
    except ValueError:
        return None
    return rest[n:] if as_json else rest[:n]


def store_listing(plain: str, as_json: str) -> None:
    """Keep both renderings of the listing for the next `tablier variants`."""
    from interpreter.usercache import cache_dir, write_private

    folder = cache_dir()
    key = _listing_key()
    if folder is not None and key is not None and "\n" not in key:
        write_private(os.path.join(folder, _FILE), f"{key}\n{len(plain)}\n{plain}{as_json}")
