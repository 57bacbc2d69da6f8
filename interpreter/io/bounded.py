"""Reading untrusted files within bounds: a regular file of at most `limit` bytes, read once.

Saved games and records come from users: a named pipe, a device or a huge file must be refused
before anything is read into memory, with a message naming the file.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from interpreter.errors import TablierError

MIB = 1 << 20


def read_bounded(path: str | Path, limit: int = MIB, what: str = "file") -> bytes:
    """The bytes of the regular file `path`, refused (TablierError) if larger than `limit`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise TablierError(f"cannot read {what} {str(path)!r}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TablierError(f"{what} {str(path)!r} is not a regular file")
        if info.st_size > limit:
            raise TablierError(f"{what} {str(path)!r} is too large ({info.st_size} bytes; at "
                               f"most {limit})")
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise TablierError(f"{what} {str(path)!r} is too large (more than {limit} "
                                   f"bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
