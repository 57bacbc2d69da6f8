"""Writing the files a command is asked to write (`--save`, `--games-out`, `--out`, `--html`,
`--csv`, `--svg`, `--png`, `--mat`, `--record`), every one the same way:

- a regular file, or a name that does not exist yet, is written beside the target (a temporary
  file in the same folder), flushed, synced and renamed over it: a reader never sees half a
  file, and a failed write leaves the old file as it was;
- a character device or a FIFO (`/dev/stdout`, `/dev/null`, `/dev/full`, a named pipe) is written
  directly, never replaced by a regular file; a FIFO without a reader is refused at once;
- a directory, a socket or a block device is refused;
- no folder is made: the target's folder must exist;
- every failure (a full disk, a missing folder, no permission) is one `TablierError` line naming
  the file, never a traceback.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> write_output(os.path.join(folder, "a.txt"), "hello\\n")
    >>> open(os.path.join(folder, "a.txt")).read()
    'hello\\n'
    >>> write_output(os.path.join(folder, "no", "a.txt"), "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    interpreter.errors.TablierError: cannot write '.../no/a.txt': no folder '.../no'
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from types import TracebackType
from typing import IO, Any, Literal

from interpreter.bounded import shown_name
from interpreter.errors import TablierError

_DIRECT = (stat.S_ISCHR, stat.S_ISFIFO)


def _name(path: str | os.PathLike[str]) -> str:
    return repr(shown_name(os.fspath(path), 200))


def _reason(error: OSError) -> str:
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


def output_fault(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot be written (a one-line message naming it), without writing anything;
    None when it can be tried. What a command checks before long work whose result goes there."""
    name = os.fspath(path)
    shown = _name(name)
    if not name or "\0" in name:
        return f"cannot write {shown}: not a file name"
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as error:
        return f"cannot write {shown}: {_reason(error)}"
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            return f"cannot write {shown}: it is a directory"
        if not (stat.S_ISREG(info.st_mode) or any(t(info.st_mode) for t in _DIRECT)):
            return f"cannot write {shown}: it is not a regular file, a device or a FIFO"
        if not os.access(name, os.W_OK):
            return f"cannot write {shown}: permission denied"
        if not stat.S_ISREG(info.st_mode):
            return None
    folder = os.path.dirname(os.path.realpath(name)) or "."
    if not os.path.isdir(folder):
        return f"cannot write {shown}: no folder {_name(os.path.dirname(name) or '.')}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write {shown}: permission denied (folder {_name(folder)})"
    return None


class open_output:
    """`with open_output(path) as fh: fh.write(...)`: the file `path` written as the module
    says (text in UTF-8, or bytes with `binary`). An `OSError` of the writes inside the block
    (or of the last flush, sync and rename) becomes one `TablierError` line; the temporary file
    is removed and the target left as it was."""

    def __init__(self, path: str | os.PathLike[str], *, binary: bool = False) -> None:
        self.path = os.fspath(path)
        self.binary = binary
        self._tmp: str | None = None
        self._target = self.path
        self._fh: IO[Any] | None = None

    def __enter__(self) -> IO[Any]:
        fault = output_fault(self.path)
        if fault is not None:
            raise TablierError(fault)
        mode = "wb" if self.binary else "w"
        encoding = None if self.binary else "utf-8"
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise self._error(error) from None
        try:
            if info is not None and not stat.S_ISREG(info.st_mode):
                # a device or a FIFO: written as it is (a FIFO with no reader is refused, not
                # waited for)
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
                os.set_blocking(fd, True)
                self._fh = os.fdopen(fd, mode, encoding=encoding)
                return self._fh
            # links followed: the file a link names is rewritten, the link kept
            self._target = os.path.realpath(self.path)
            folder = os.path.dirname(self._target) or "."
            fd, self._tmp = tempfile.mkstemp(prefix=f".{os.path.basename(self._target)}.",
                                             suffix=".tmp", dir=folder)
            if info is not None:
                os.chmod(self._tmp, stat.S_IMODE(info.st_mode))
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self._tmp, 0o666 & ~umask)
            self._fh = os.fdopen(fd, mode, encoding=encoding)
            return self._fh
        except OSError as error:
            self._discard()
            if error.errno == errno.ENXIO:
                raise TablierError(f"cannot write {_name(self.path)}: a FIFO with no reader") \
                    from None
            raise self._error(error) from None

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        fh = self._fh
        if kind is not None:
            self._discard()
            if isinstance(value, OSError) and not isinstance(value, BrokenPipeError):
                raise self._error(value) from None
            return False
        try:
            assert fh is not None
            fh.flush()
            if self._tmp is not None:
                os.fsync(fh.fileno())
            fh.close()
            if self._tmp is not None:
                os.replace(self._tmp, self._target)
                self._tmp = None
        except OSError as error:
            self._discard()
            raise self._error(error) from None
        return False

    def _discard(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None

    def _error(self, error: OSError) -> TablierError:
        return TablierError(f"cannot write {_name(self.path)}: {_reason(error)}")


def write_output(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` (text or bytes) to the file `path` as the module says."""
    with open_output(path, binary=isinstance(data, bytes)) as fh:
        fh.write(data)
