"""What threads may share safely: parsing Python text into a tree under one lock, and the
critical sections an exception raised from outside must never interrupt.

`ast.parse` is not safe under threads in CPython 3.11: the conversion of the parser's tree
into Python objects counts its depth in a counter shared by every thread, and a thread switch
in the middle (a garbage collection running Python code is enough) fails one of the parses
with `SystemError: AST constructor recursion depth mismatch`. The web board parses in the
threads of its requests (the stored variants' modules, the compiled rules' check), so every
parse of the package goes through `parse_python` (`literal_python` for `ast.literal_eval`), one
at a time in the process; `compile_tree` compiles a tree under the same lock.

A request's work in the web board is stopped by an exception raised inside its thread
(`interpreter.web.doors`). Landing in the middle of an import, it leaves a module half made
(numpy cannot be imported twice in a process); landing while a lock is taken or given back,
it leaves the lock held. `critical` marks a function during which no such exception may land:
`in_critical_section(frame)` says whether a thread's stack, from its innermost frame, is in
one of them, in the import machinery, in the `threading` module or in numba's compiler, and the
doors wait for it to leave before raising.
"""
from __future__ import annotations

import ast
import importlib.util
import os
import threading
import types
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: the code objects of the functions marked `critical`
_CRITICAL: set[types.CodeType] = set()
#: the threading module's file: its locks, conditions and events
_THREADING_FILE = threading.__file__


def _package_folders(*names: str) -> tuple[str, ...]:
    """The folders of the installed packages `names` (not imported)."""
    out = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for folder in (spec.submodule_search_locations or ()) if spec else ():
            out.append(os.path.join(folder, ""))
    return tuple(out)


#: the compiler of the native code (numba and llvmlite): stopped while it compiles a function,
#: it could leave its caches and LLVM's state half made
_COMPILER_FOLDERS = _package_folders("numba", "llvmlite")


def critical(fn: F) -> F:
    """Mark `fn` as a critical section: a request's work is not stopped while it runs."""
    _CRITICAL.add(fn.__code__)
    return fn


def in_critical_section(frame: types.FrameType | None,
                        outermost: types.CodeType | None = None) -> str | None:
    """What the stack from `frame` outwards is in that must not be interrupted (the import of
    a module, the threading module, numba's compiler, a function marked `critical`), or None;
    the stack looked at up to the frame of `outermost` (the thread's own work: the frames
    outside it, the threading module's start of the thread, are not the work's)."""
    depth = 0
    while frame is not None and depth < 10_000:
        code = frame.f_code
        if code is outermost:
            return None
        name = code.co_filename
        if name.startswith("<frozen importlib"):
            return "an import"
        if name == _THREADING_FILE:
            return "the threading module"
        if _COMPILER_FOLDERS and name.startswith(_COMPILER_FOLDERS):
            return "the native code's compiler"
        if code in _CRITICAL:
            return f"{code.co_name}"
        frame = frame.f_back
        depth += 1
    return None


#: one parse or compilation of a tree at a time in the process
_PARSE_LOCK = threading.RLock()


@critical
def parse_python(text: str, mode: str = "exec", filename: str = "<unknown>") -> Any:
    """`ast.parse(text, filename, mode)`, one at a time in the process."""
    with _PARSE_LOCK:
        return ast.parse(text, filename, mode)


def literal_python(text: str) -> Any:
    """`ast.literal_eval(text)`, its parse through `parse_python` (`literal_eval` of a text
    calls `ast.parse`)."""
    return ast.literal_eval(parse_python(text, "eval"))


@critical
def compile_tree(tree: ast.Module | ast.Expression | ast.Interactive, filename: str,
                 mode: str = "exec") -> types.CodeType:
    """`compile(tree, filename, mode)` of a tree, under the lock of `parse_python`."""
    with _PARSE_LOCK:
        return compile(tree, filename, mode)
