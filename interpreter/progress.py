"""A progress bar on stderr for long runs (`simulate`, `compare`, `bench`), with the time left.

Drawn only when stderr is a terminal (nothing is written to a pipe or a file), with rich.
`progress(total, label)` is a context manager giving an object with `advance(n)`; it is a
no-op object when there is no terminal or rich is not installed.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Iterator, TextIO


class _Silent:
    def advance(self, n: int = 1) -> None:
        pass

    def describe(self, text: str) -> None:
        pass


class _Bar:
    def __init__(self, bar: Any, task: Any):
        self._bar, self._task = bar, task

    def advance(self, n: int = 1) -> None:
        self._bar.advance(self._task, n)

    def describe(self, text: str) -> None:
        self._bar.update(self._task, description=text)


def wanted(stream: TextIO | None = None) -> bool:
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):       # closed or replaced streams
        return False


@contextmanager
def progress(total: int, label: str, stream: TextIO | None = None,
             force: bool = False) -> Iterator[Any]:
    """A bar of `total` steps named `label` on `stream` (stderr), if it is a terminal."""
    stream = sys.stderr if stream is None else stream
    if not (force or wanted(stream)):
        yield _Silent()
        return
    try:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
    except ImportError:                         # the bar is a convenience, never a need
        yield _Silent()
        return
    console = Console(file=stream, force_terminal=force or None)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("left"),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        yield _Bar(bar, bar.add_task(label, total=total))
