"""Generated numba modules: written once under the user's cache, imported from there, compiled
by numba with `cache=True` so that a second process loads machine code instead of compiling.

A module's file name is the sha256 of its source, the numba version and `CODE_VERSION`, so
trees with other generators, or other numba versions, never read each other's files; numba keeps
its compiled code in the cache's `numba/` folder (`native/numba_cache.py`), checked against the
file's time stamp. The files live in `<cache>/native/kernel/` (checked whole before use:
`interpreter.usercache.trusted_folder`); with no usable cache (or `TABLIER_NO_CACHE=1`) they go
to a private temporary directory of the process, and every process compiles again. A module is
imported from its text, read back and compared with what it must be, never from a `.pyc`.

Importing this module does not import numba: `load(source)` does, on the first call.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import os
import sys
import tempfile
from types import ModuleType
from typing import Any, Callable, TypeVar

T = TypeVar("T")

#: bumped whenever the generated code changes in a way its text does not show (the helpers'
#: semantics, the work space layout read by the Python side)
CODE_VERSION = "1"

_LOADED: dict[str, ModuleType] = {}

HEADER = "import numpy as np\nfrom numba import njit\n\n"


def per_variant(make: Callable[[Any], T]) -> Callable[[Any], T]:
    """`make(variant)` worked out once per variant and kept on it (None too): the generated
    sources a run asks for again and again (the cache's file names, the install)."""
    key = f"_native_{make.__name__.lstrip('_')}"

    @functools.wraps(make)
    def once(variant: Any) -> T:
        kept = variant.__dict__
        if key not in kept:
            kept[key] = make(variant)
        return kept[key]

    return once


def native_folder(name: str) -> str:
    """The folder `native/<name>` of the checked cache (`usercache.trusted_folder`), made with
    mode 0700, else the same under this process's private folder."""
    from interpreter.native.numba_cache import private_folder
    from interpreter.usercache import trusted_folder

    base = trusted_folder("native")
    for root in ((base,) if base is not None else ()) + (os.path.join(private_folder(),
                                                                       "native"),):
        path = os.path.join(root, name)
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            return path
        except OSError:
            continue
    raise OSError(f"no folder for compiled code ({name})")


def _dir() -> str:
    return native_folder("kernel")


class _Unliteral(ast.NodeTransformer):
    """Constant numbers (and the module's integer constants) passed to the module's own
    functions (or `rt`'s) passed as int64 and bool values instead: numba compiles a function
    called from compiled code once for each distinct literal argument (`_add(W, 0, L)` and
    `_add(W, 1, L)` are two compiles), which made up a third to a half of some modules' first
    compile."""

    def __init__(self, local: set[str], numbers: set[str]) -> None:
        self.local = local
        self.numbers = numbers
        self.changed = False

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if not ((isinstance(f, ast.Name) and f.id in self.local)
                or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                    and f.value.id == "rt")):
            return node
        node.args = [self._typed(a) for a in node.args]
        return node

    def _typed(self, a: ast.expr) -> ast.expr:
        if isinstance(a, ast.Constant) and type(a.value) is bool:
            kind = "bool_"
        elif (isinstance(a, ast.Name) and a.id in self.numbers) \
                or (isinstance(a, ast.Constant) and type(a.value) is int) \
                or (isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub)
                    and isinstance(a.operand, ast.Constant) and type(a.operand.value) is int):
            kind = "int64"
        else:
            return a
        self.changed = True
        return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), kind, ast.Load()), [a], [])


def unliteral(text: str) -> str:
    """`text` with the constant arguments of calls of its own functions typed (`_Unliteral`);
    as it is when it does not import numpy as `np` or passes no constant."""
    if "import numpy as np" not in text:
        return text
    tree = ast.parse(text)
    local = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    # the module's own integer constants (`OUT = 7`), as literal as a number written out
    numbers = {t.id for n in tree.body if isinstance(n, ast.Assign)
               and isinstance(n.value, ast.Constant) and type(n.value.value) is int
               for t in n.targets if isinstance(t, ast.Name)}
    typed = _Unliteral(local, numbers)
    tree = ast.fix_missing_locations(typed.visit(tree))
    return ast.unparse(tree) + "\n" if typed.changed else text


def import_text(name: str, path: str, text: str) -> ModuleType:
    """The module `name` of `text`, kept at `path` (written there whole when the file is
    missing or says anything else) and executed from `text` itself: no `.pyc` is read or
    written, and numba finds its source file for its cache. The constant arguments of its
    calls are typed first (`unliteral`)."""
    from interpreter.native.numba_cache import prepare_numba
    from interpreter.usercache import read_private

    prepare_numba()
    text = unliteral(text)
    data = text.encode()
    if read_private(path) != data:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    code = compile(text, path, "exec", dont_inherit=True)
    mod = ModuleType(name)
    mod.__file__ = path
    sys.modules[name] = mod
    try:
        exec(code, mod.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return mod


def digest(source: str, salt: str = "") -> str:
    """The name of a module's file: the hash of its source and of what its code depends on
    beside it (`salt`: the text of the helpers it imports, which numba's cache does not see)."""
    h = hashlib.sha256()
    for part in (CODE_VERSION, numba_version(), sys.version.split()[0], source) + (
            (salt,) if salt else ()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def installed_version(package: str) -> str | None:
    """The version of an installed distribution, read from the name of its `.dist-info`
    folder beside the package (one listing of that folder: `importlib.metadata` costs some
    20 ms to import and scan), else from `importlib.metadata`; None where neither knows it
    (a source tree on the path)."""
    from importlib.util import find_spec

    try:
        spec = find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        folder = os.path.dirname(next(iter(spec.submodule_search_locations)))
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        found = [n[len(package) + 1:-len(".dist-info")] for n in names
                 if n.startswith(package + "-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0]
    try:
        from importlib.metadata import version

        return version(package)
    except Exception:
        return None


def numba_version() -> str:
    """numba's version, read from its installed metadata: asking whether code is in the cache
    never imports numba (its import alone costs a third of a second)."""
    got = _VERSION.get("numba")
    if got is None:
        got = installed_version("numba")
        if got is None:             # no metadata (a source tree on the path): ask numba
            from interpreter.native.numba_cache import prepare_numba

            prepare_numba()
            import numba

            got = str(numba.__version__)
        _VERSION["numba"] = got
    return got


_VERSION: dict[str, str] = {}


def _path(source: str, salt: str = "") -> tuple[str, str]:
    name = f"tablier_native_{digest(source, salt)}"
    return name, os.path.join(_dir(), name + ".py")


def is_cached(source: str, functions: tuple[str, ...], salt: str = "") -> bool:
    """Whether numba has machine code of `functions` of the module of `source` in the cache
    (its index files beside the module: loading them costs no compile)."""
    from interpreter.native.numba_cache import index_folder

    name, path = _path(source, salt)
    folder = index_folder(path)
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

    from interpreter.threadsafe import parse_python

    text = inspect.getsource(module)
    tree = parse_python(text)
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
    mod = import_text(name, path, HEADER + source)
    _LOADED[key] = mod
    return mod
