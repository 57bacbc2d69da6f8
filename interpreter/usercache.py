"""Tablier's per-user cache directory, for what is slow to rebuild and safe to keep.

What is kept there is data that loading cannot turn into code: the LALR tables of the rule
language's parser (`dsl/larkparser.py`) and the syntax trees of the snippets parsed lately
(`dsl/parser.py`), as JSON, and the text `tablier variants` prints (`launch.py`). The directory
is `$XDG_CACHE_HOME/tablier` (else `~/.cache/tablier`), made with mode 0700; it is used only
while it is a real directory owned by the user and closed to others, and a file in it is read
only if it is a regular file owned by the user that nobody else may write. A missing, stale,
foreign or damaged cache is never an error: what it would have held is rebuilt (and
`TABLIER_NO_CACHE=1` turns the cache off).
"""
from __future__ import annotations

import os
import stat

# (no pathlib, no tempfile at import: `tablier variants` reads this cache before anything else)

#: the largest cache file read
MAX_CACHE_BYTES = 4_000_000


def cache_dir() -> str | None:
    """The user's private cache directory for Tablier, created if need be; None when there is no
    safe one (not owned by the user, a link, open to others, or no such notion on this system)."""
    if os.environ.get("TABLIER_NO_CACHE"):
        return None
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = base if base and os.path.isabs(base) else os.path.join(os.path.expanduser("~"),
                                                                      ".cache")
        path = os.path.join(root, "tablier")
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != getuid():
            return None
        if st.st_mode & 0o077:
            os.chmod(path, 0o700)
            if os.lstat(path).st_mode & 0o077:
                return None
    except (OSError, RuntimeError):
        return None
    return path


def read_private(path: str) -> bytes | None:
    """The bytes of a regular file the user owns that nobody else may write, else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022
                or st.st_size > MAX_CACHE_BYTES):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_CACHE_BYTES + 1)
        return data if len(data) <= MAX_CACHE_BYTES else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_private(path: str, text: str) -> None:
    """Write a cache file whole (a new file of mode 0600 moved into place), or nothing."""
    import tempfile

    if len(text) > MAX_CACHE_BYTES:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=".part")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:          # no cache this time; the next process rebuilds it
        pass


def prune(path: str, prefix: str) -> None:
    """Remove the files named `prefix...` beside `path` other than it (other versions' caches)."""
    folder, name = os.path.split(path)
    try:
        for other in os.listdir(folder):
            if other.startswith(prefix) and other != name:
                os.unlink(os.path.join(folder, other))
    except OSError:
        pass
