"""Generated numba modules: written once under the user's cache, imported from there, compiled
by numba with `cache=True` so that a second process loads machine code instead of compiling.

A module's file name is the sha256 of its source, the numba version and `CODE_VERSION`, so
trees with other generators, or other numba versions, never read each other's files; numba keeps
its compiled code beside the file (`__pycache__`), checked against the file's time stamp. The
files live in `<cache>/native/kernel/` (`interpreter.usercache.cache_dir`); with no usable cache (or
`TABLIER_NO_CACHE=1`) they go to a private temporary directory of the process, and every process
compiles again.

Importing this module does not import numba: `load(source)` does, on the first call.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from types import ModuleType
from typing import Any

#: bumped whenever the generated code changes in a way its text does not show (the helpers'
#: semantics, the work space layout read by the Python side)
CODE_VERSION = "1"

_LOADED: dict[str, ModuleType] = {}
_TMP: list[Any] = []

HEADER = "import numpy as np\nfrom numba import njit\n\n"


def _dir() -> str:
    from interpreter.usercache import cache_dir

    base = cache_dir()
    if base is not None:
        path = os.path.join(base, "native", "kernel")
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            return path
        except OSError:
            pass
    if not _TMP:
        _TMP.append(tempfile.TemporaryDirectory(prefix="tablier-native-"))
    return str(_TMP[0].name)


def digest(source: str, salt: str = "") -> str:
    """The name of a module's file: the hash of its source and of what its code depends on
    beside it (`salt`: the text of the helpers it imports, which numba's cache does not see)."""
    import numba

    h = hashlib.sha256()
    for part in (CODE_VERSION, numba.__version__, sys.version.split()[0], source) + (
            (salt,) if salt else ()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _path(source: str, salt: str = "") -> tuple[str, str]:
    name = f"tablier_native_{digest(source, salt)}"
    return name, os.path.join(_dir(), name + ".py")


def is_cached(source: str, functions: tuple[str, ...], salt: str = "") -> bool:
    """Whether numba has machine code of `functions` of the module of `source` in the cache
    (its index files beside the module: loading them costs no compile)."""
    name, path = _path(source, salt)
    folder = os.path.join(os.path.dirname(path), "__pycache__")
    try:
        found = os.listdir(folder)
    except OSError:
        return False
    return all(any(f.startswith(f"{name}.{fn}-") and f.endswith(".nbi") for f in found)
               for fn in functions)


def plain_source(module: ModuleType) -> str:
    """The text of one of the package's plain-Python modules of functions over ints and int64
    arrays (players/contact.py), as numba source: its top-level statements after the
    docstring, each top-level function compiled. Taking the text, not importing the functions,
    puts it in the source whose hash names the cached module, so a change there is a new
    module."""
    import ast
    import inspect

    text = inspect.getsource(module)
    tree = ast.parse(text)
    lines = text.splitlines()
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue            # the docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue            # the module header imports numpy and njit
        part = lines[node.lineno - 1:node.end_lineno]
        if isinstance(node, ast.FunctionDef):
            part = ["@njit(cache=True)"] + part
        out.append("\n".join(part))
    return "\n\n\n".join(out) + "\n"


def load(source: str, salt: str = "") -> ModuleType:
    """The module of `source` (numba functions with `cache=True`), written under the cache on
    first use and imported from there (`salt`: as for `digest`)."""
    name, path = _path(source, salt)
    key = name
    mod = _LOADED.get(key)
    if mod is not None:
        return mod
    text = HEADER + source
    try:
        with open(path, encoding="utf-8") as fh:
            fresh = fh.read() != text
    except OSError:
        fresh = True
    if fresh:
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _LOADED[key] = mod
    return mod
