"""Compiled modules as libraries: the entry functions of a generated numba module compiled ahead
of time (numba's `pycc`) into an extension module of the user's cache, which a later process
loads in a millisecond without importing numba (numba's import and its first dispatch of cached
code cost about a second a process; the library needs only numpy).

A library is made once per machine, module and signature set, by the process that prepares the
code (interpreter/precompile.py, in the background, or a run that compiles in the foreground);
it needs a C compiler there. Where it cannot be made (no compiler, no trustworthy cache) the
numba module with `cache=True` serves as before. The file's name is the hash of the module's
source, its salt, the exported signatures, and the numba, numpy and Python versions, so a
library is never read by code it was not made for. Libraries live only in the checked cache
folder `native/lib` (`usercache.trusted_folder`): never in a private folder, since a library
rebuilt by every process would cost more than it saves.

Importing this module imports neither numba nor numpy.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import stat
import sys
import tempfile
from types import ModuleType
from typing import Any

from interpreter.threadsafe import critical

#: (function name, numba signature) of each function a caller runs
Exports = tuple[tuple[str, str], ...]

_LOADED: dict[str, ModuleType | None] = {}


def _folder() -> str | None:
    from interpreter.usercache import trusted_folder

    base = trusted_folder("native")
    if base is None:
        return None
    path = os.path.join(base, "lib")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path


def _numpy_version() -> str:
    from interpreter.native.modules import installed_version

    return installed_version("numpy") or "?"


def name_of(source: str, exports: Exports, salt: str = "") -> str:
    """The extension module's name (its file is that name and the interpreter's suffix)."""
    from interpreter.native.modules import digest

    sig = ";".join(f"{fn}:{s}" for fn, s in exports)
    return "tablier_lib_" + digest(source, "\0".join((salt, sig, _numpy_version(), "pycc")))


def path_of(source: str, exports: Exports, salt: str = "") -> str | None:
    """Where the library of this module lives (None: no trustworthy cache to keep one)."""
    folder = _folder()
    if folder is None:
        return None
    return os.path.join(folder, name_of(source, exports, salt)
                        + importlib.machinery.EXTENSION_SUFFIXES[0])


def wanted() -> bool:
    """Whether libraries are used (`TABLIER_LIBRARY=0` keeps to numba's own cached code)."""
    return os.environ.get("TABLIER_LIBRARY", "1") not in ("0", "off", "no", "false")


def has_library(source: str, exports: Exports, salt: str = "") -> bool:
    """Whether the library is in the cache (asked of the file: nothing is imported)."""
    if not wanted():
        return False
    path = path_of(source, exports, salt)
    return path is not None and _own_file(path)


def _own_file(path: str, most: int = -1) -> bool:
    """Whether `path` is a plain file (not a link) of the user's, of at most `most` bytes
    (-1: any size)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() \
        and (most < 0 or st.st_size <= most)


#: seconds for which a library that could not be made is not tried again (a compiler installed
#: meanwhile is found the day after, or at once when the cache is emptied)
RETRY = 86400.0


def toolchain() -> bool:
    """Whether this machine has what numba's ahead-of-time compiler links a library with: the
    C compiler Python was built with, on the path, Python's headers, and setuptools (asked
    once, nothing imported)."""
    got = _TOOLCHAIN.get("ok")
    if got is None:
        import sysconfig

        cc = (sysconfig.get_config_var("CC") or "cc").split()
        include = sysconfig.get_paths().get("include") or ""
        got = _TOOLCHAIN["ok"] = bool(cc) and shutil.which(cc[0]) is not None and \
            os.path.exists(os.path.join(include, "Python.h")) and \
            importlib.util.find_spec("setuptools") is not None
    return got


_TOOLCHAIN: dict[str, bool] = {}


def may_build(source: str, exports: Exports, salt: str = "") -> bool:
    """Whether the library could be made here: libraries are wanted, there is a trustworthy
    cache and a C compiler, and no attempt failed in the last `RETRY` seconds."""
    if not wanted() or not toolchain():
        return False
    path = path_of(source, exports, salt)
    if path is None:
        return False
    try:
        import time

        return time.time() - os.stat(path + ".failed").st_mtime > RETRY
    except OSError:
        return True


@critical
def load_library(source: str, exports: Exports, salt: str = "") -> ModuleType | None:
    """The library of this module, loaded from the cache (None when it is not there, or does
    not load: then it is removed, and the numba module serves). A critical section
    (`interpreter.threadsafe`): a web request's deadline never lands while it loads."""
    if not has_library(source, exports, salt):
        return None
    path = path_of(source, exports, salt)
    assert path is not None
    return _load(path, exports)


# -- libraries known by what they were made from ------------------------------------------------
#
# Writing a module's source to name its library costs a run as much as loading it saves for
# some modules (the trictrac family's throws: the rules compiled to numba's dialect and checked,
# about 0.1 s). A small file of the folder `known/` keyed by the hash of what the source is
# written from (`known_key`: the variant's whole model, the kind of module and every file of
# this package) names the library instead; anything else in it than a library's name is
# ignored and the source is written as before.

_NAME = re.compile(r"tablier_lib_[0-9a-f]{32}")
_CODE: list[str] = []


def code_digest() -> str:
    """The hash of every Python file of this package (their paths and texts), once a process:
    any change to the code that writes a module's source changes it."""
    if not _CODE:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        h = hashlib.sha256()
        for folder, dirs, files in sorted(os.walk(root)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".py"):
                    path = os.path.join(folder, f)
                    h.update(os.path.relpath(path, root).encode())
                    h.update(b"\0")
                    with open(path, "rb") as fh:
                        h.update(fh.read())
                    h.update(b"\0")
        _CODE.append(h.hexdigest())
    return _CODE[0]


def _sha(parts: Any) -> str:
    """32 hexadecimal digits of the sha256 of the texts `parts`, each ended by a NUL."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def known_key(kind: str, variant: Any) -> str:
    """The key of `kind`'s module of `variant` among the known libraries."""
    return _sha((kind, code_digest(), variant.model.model_dump_json(), sys.version))


def _known_path(key: str) -> str | None:
    folder = _folder()
    if folder is None or not re.fullmatch(r"[0-9a-f]{32}", key):
        return None
    return os.path.join(folder, "known", key)


@critical
def known(key: str, exports: Exports) -> ModuleType | None:
    """The library the folder `known/` names for `key`, loaded; None when none is named (or
    its file is not a plain small file of the user's, or not a library's name), or it is
    gone or does not load."""
    if not wanted():
        return None
    path = _known_path(key)
    if path is None or not _own_file(path, 64):
        return None
    try:
        with open(path, encoding="ascii") as fh:
            name = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not _NAME.fullmatch(name):
        return None
    lib = os.path.join(os.path.dirname(os.path.dirname(path)),
                       name + importlib.machinery.EXTENSION_SUFFIXES[0])
    return _load(lib, exports) if _own_file(lib) else None


def know(key: str, source: str, exports: Exports, salt: str = "") -> None:
    """Name the library of this module (in the cache) as the one for `key`."""
    path = _known_path(key)
    if path is None or not has_library(source, exports, salt):
        return
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(name_of(source, exports, salt) + "\n")
        os.replace(tmp, path)
    except OSError:
        pass


#: the most libraries the cache keeps (about 0.8 MB each): past it, a new library's build
#: removes those loaded longest ago (each load marks its file's time), which a later run that
#: wants one again makes anew in the background
KEEP = 64


def evict(folder: str, keep: str = "") -> int:
    """Remove the libraries of `folder` past the `KEEP` most lately loaded or made (never
    `keep`); how many were removed."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    found = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith("tablier_lib_") and e.name.endswith(suffix) \
                        and e.is_file(follow_symlinks=False):
                    found.append((e.stat(follow_symlinks=False).st_mtime, e.path))
    except OSError:
        return 0
    found.sort(reverse=True)
    gone = 0
    for _t, path in found[KEEP:]:
        if path == keep:
            continue
        try:
            os.unlink(path)
            gone += 1
        except OSError:
            pass
    return gone


def _load(path: str, exports: Exports) -> ModuleType | None:
    got = _LOADED.get(path, False)
    if got is not False:
        return got                      # type: ignore[return-value]
    name = os.path.basename(path).split(".", 1)[0]
    mod: ModuleType | None = None
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is not None:
            mod = importlib.util.module_from_spec(spec)
            loader.exec_module(mod)
            if not all(callable(getattr(mod, fn, None)) for fn, _sig in exports):
                mod = None
    except (ImportError, OSError):      # a broken or foreign file: made again next time
        mod = None
    try:
        if mod is None:
            os.unlink(path)
        else:
            os.utime(path)              # loaded now: the last the cache gives up (`evict`)
    except OSError:
        pass
    _LOADED[path] = mod
    return mod


def _compiler() -> Any:
    """numba's `pycc.CC`, which compiles the C files numba's compiled code needs beside it into
    each library: here those that do not name the library (the typed containers' helpers and
    numba's runtime, about half of that C and a second of each build) are compiled once per
    numba version and kept in `native/lib/objects/`; the module's own file still is compiled
    each time."""
    from numba.pycc import CC

    class SharedCC(CC):
        def _compile_mixins(self, build_dir: str) -> list[str]:
            sources = self._get_mixin_sources()
            own = [f for f in sources if os.path.basename(f) == "modulemixin.c"]
            # (paths made plain: nrt.cpp is named through pycc/.., a folder the compiler's
            # output tree has only where modulemixin.c is compiled beside it)
            shared = [os.path.normpath(f) for f in sources if f not in own]
            macros = self._get_mixin_defines()
            include_dirs = self._toolchain.get_python_include_dirs()
            flags = self._get_extra_cflags()
            objects: list[str] = self._toolchain.compile_objects(
                own, build_dir, include_dirs=include_dirs, macros=macros, extra_cflags=flags)
            kept = _shared_objects(self._toolchain, shared, include_dirs,
                                   [m for m in macros if m[0] != "PYCC_MODULE_NAME"], flags)
            if kept is None:
                kept = self._toolchain.compile_objects(
                    shared, build_dir, include_dirs=include_dirs, macros=macros,
                    extra_cflags=flags)
            return objects + kept

    return SharedCC


def _shared_objects(toolchain: Any, sources: list[str], include_dirs: list[str],
                    macros: list[tuple[str, Any]], flags: list[str]) -> list[str] | None:
    """The objects of `sources` from `native/lib/objects/<hash>/` (compiled there first when
    missing, the folder renamed into place whole); None where there is no cache."""
    folder = _folder()
    if folder is None:
        return None
    texts = []
    for src in sources:
        with open(src, "rb") as fh:
            texts += [src, fh.read().decode("utf-8", "replace")]
    place = os.path.join(folder, "objects", _sha(
        (sys.version, repr(macros), repr(flags), repr(include_dirs), *texts)))
    names = os.path.join(place, "objects.txt")
    try:
        with open(names, encoding="utf-8") as fh:
            kept = [os.path.join(place, line.strip()) for line in fh if line.strip()]
        if kept and all(os.path.isfile(k) and ".." not in os.path.relpath(k, place)
                        for k in kept):
            return kept
    except OSError:
        pass
    try:
        os.makedirs(os.path.dirname(place), mode=0o700, exist_ok=True)
        work = tempfile.mkdtemp(prefix="objects-", dir=os.path.dirname(place))
    except OSError:
        return None
    try:
        made = toolchain.compile_objects(sources, work, include_dirs=include_dirs,
                                         macros=macros, extra_cflags=flags)
        with open(os.path.join(work, "objects.txt"), "w", encoding="utf-8") as fh:
            fh.write("".join(os.path.relpath(m, work) + "\n" for m in made))
        shutil.rmtree(place, ignore_errors=True)
        os.replace(work, place)
    except OSError:
        # another build put them in place meanwhile, or the folder is not writable: this
        # build compiles its own
        shutil.rmtree(work, ignore_errors=True)
        return None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return [os.path.join(place, m) for m in (os.path.relpath(x, work) for x in made)]


def build_library(module: Any, source: str, exports: Exports, salt: str = "") -> bool:
    """Compile the exported functions of `module` (the numba module of `source`, whose
    functions they call are compiled into it) into the library, written whole or not at all;
    False when it cannot be made here (no cache, no C compiler, numba's `pycc` missing)."""
    if not wanted():
        return False
    path = path_of(source, exports, salt)
    if path is None:
        return False
    if has_library(source, exports, salt):
        return True
    name = os.path.basename(path).split(".", 1)[0]
    work = tempfile.mkdtemp(prefix="build-", dir=os.path.dirname(path))
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc = _compiler()(name)
            cc.output_dir = work
            cc.verbose = False
            for fn, sig in exports:
                cc.export(fn, sig)(getattr(module, fn).py_func)
            cc.compile()
        built = [f for f in os.listdir(work) if f.startswith(name + ".")
                 and f.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])]
        if len(built) != 1:
            raise OSError("the compiler left no library")
        os.chmod(os.path.join(work, built[0]), 0o700)
        os.replace(os.path.join(work, built[0]), path)
        evict(os.path.dirname(path), keep=path)
        return True
    except Exception as exc:            # no compiler, or pycc gone from this numba
        try:
            with open(path + ".failed", "w", encoding="utf-8") as fh:
                fh.write(f"{type(exc).__name__}: {exc}\n")
        except OSError:
            pass
        print(f"tablier: no library of compiled code here ({type(exc).__name__}); numba's "
              f"own cache serves", file=sys.stderr)
        return False
    finally:
        shutil.rmtree(work, ignore_errors=True)
