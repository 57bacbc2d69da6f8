"""Tablier's per-user cache directory, for what is slow to rebuild and safe to keep.

What is kept there is data that loading cannot turn into code: the LALR tables of the rule
language's parser (`dsl/larkparser.py`) and the syntax trees of the snippets parsed lately
(`dsl/parser.py`), as JSON, and the text `tablier variants` prints (`launch.py`). The directory
is `$XDG_CACHE_HOME/tablier` (else `~/.cache/tablier`), made with mode 0700; it is used only
while it is a real directory owned by the user in a folder no other user can rename it out of,
and a file in it is read only if it is a regular file owned by the user that nobody else may
write. A missing, stale, foreign or damaged cache is never an error: what it would have held is
rebuilt (and `TABLIER_NO_CACHE=1` turns the cache off).

The compiled code's folders (`native/`, and `numba/` where numba keeps its index files, which it
reads with pickle) hold more than data, so they are trusted only whole: `trusted_folder(name)`
walks every entry below it once per process, and a folder holding anything that is not a plain
file or folder owned by the user and closed to others' writes is emptied before use. A cache
found open to others is emptied whole: whatever another user could have put in it while it was
open is gone before anything is read (docs/security.md, "Caches").
"""
from __future__ import annotations

import os
import stat

# (no pathlib, no tempfile at import: `tablier variants` reads this cache before anything else)

#: the largest cache file read
MAX_CACHE_BYTES = 4_000_000
#: the most entries a trusted folder may hold; one with more is emptied rather than walked on
MAX_TREE_ENTRIES = 50_000

_VERIFIED: dict[str, bool] = {}
_SAID: set[str] = set()


def _say(message: str) -> None:
    if message not in _SAID:
        _SAID.add(message)
        import sys
        print(f"tablier: {message}", file=sys.stderr)


def _parent_is_safe(root: str, uid: int) -> bool:
    """Whether no other user can rename or replace entries of `root`: it is owned by the user
    or by root, and writable by nobody else unless it is sticky (as /tmp is)."""
    try:
        st = os.stat(root)
    except OSError:
        return False
    if st.st_uid not in (uid, 0):
        return False
    return not (st.st_mode & 0o022) or bool(st.st_mode & stat.S_ISVTX)


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
        uid = getuid()
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid:
            return None
        if not _parent_is_safe(root, uid):
            return None
        if st.st_mode & 0o077:
            # open to others, now or before: nothing in it can be told from what another user
            # put there while it was open, so it is emptied before it is closed and used
            if not _empty(path):
                _say(f"the cache folder {path} was open to other users and holds files that "
                     f"cannot be removed; it is not used")
                return None
            os.chmod(path, 0o700)
            if os.lstat(path).st_mode & 0o077:
                return None
            _VERIFIED.clear()
    except (OSError, RuntimeError):
        return None
    return path


def _foreign(folder: str, uid: int) -> bool:
    """Whether anything below `folder` is not a plain file or folder owned by the user and
    closed to others' writes (a link, a FIFO, a device, another user's file...), or the folder
    holds more than `MAX_TREE_ENTRIES` entries."""
    seen = 0
    todo = [folder]
    while todo:
        here = todo.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_TREE_ENTRIES:
                        return True
                    st = entry.stat(follow_symlinks=False)
                    if st.st_uid != uid or st.st_mode & 0o022:
                        return True
                    if stat.S_ISDIR(st.st_mode):
                        todo.append(entry.path)
                    elif not stat.S_ISREG(st.st_mode):
                        return True
        except OSError:
            return True
    return False


def _empty(folder: str) -> bool:
    """Remove everything inside `folder` (links removed, never followed); True when it is
    empty after."""
    import shutil

    try:
        with os.scandir(folder) as entries:
            for entry in list(entries):
                try:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path)
                    else:
                        os.unlink(entry.path)
                except OSError:
                    pass
        return not os.listdir(folder)
    except OSError:
        return False


def trusted_folder(name: str) -> str | None:
    """The folder `name` of the cache (made with mode 0700), checked whole once per process:
    where it held anything of another user, anything others may write, a link or a special
    file, it is emptied first; None where there is no cache or the folder cannot be made
    trustworthy (then nothing of it may be read)."""
    base = cache_dir()
    if base is None:
        return None
    path = os.path.join(base, name)
    ok = _VERIFIED.get(path)
    if ok is not None:
        return path if ok else None
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
        uid = os.getuid()
        ok = stat.S_ISDIR(st.st_mode) and st.st_uid == uid
        if ok and (st.st_mode & 0o022 or _foreign(path, uid)):
            ok = _empty(path)
            if ok:
                os.chmod(path, 0o700)
            else:
                _say(f"the cache folder {path} holds files of another user that cannot be "
                     f"removed; it is not used")
    except OSError:
        ok = False
    _VERIFIED[path] = bool(ok)
    return path if ok else None


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
