"""Where numba keeps its compiled code for Tablier: a folder of the user's cache that Tablier
has checked (`interpreter.usercache.trusted_folder`), set before numba is first imported, since
numba reads its index files there with pickle (docs/security.md, "Caches"). Imports nothing of
numba itself.
"""
from __future__ import annotations

import os
import sys
from typing import Any

_STATE: dict[str, Any] = {}


def private_folder() -> str:
    """A folder of this process's own (mode 0700, removed at exit), for compiled code when there
    is no trustworthy cache: numba then compiles every run."""
    folder = _STATE.get("private")
    if folder is None:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="tablier-native-")
        atexit.register(shutil.rmtree, folder, True)
        _STATE["private"] = folder
    return str(folder)


def prepare_numba() -> str:
    """Point numba's cache at a folder Tablier has checked (`usercache.trusted_folder`), before
    numba is imported: numba reads its index files with pickle, so they are read only from a
    folder that nobody else could have written (else from a private folder of this process).
    Returns the folder; a `NUMBA_CACHE_DIR` of the environment is replaced by it."""
    folder = _STATE.get("numba_cache")
    if folder is None:
        from interpreter.usercache import trusted_folder

        folder = trusted_folder("numba") or private_folder()
        _STATE["numba_cache"] = folder
        os.environ["NUMBA_CACHE_DIR"] = folder
        config = sys.modules.get("numba.core.config")
        if config is not None:
            # numba already imported (by a caller of the library): its functions made from now
            # on find their caches there too
            setattr(config, "CACHE_DIR", folder)
    return str(folder)


def index_folder(source_path: str) -> str:
    """Where numba keeps the index and machine code of the functions of the module at
    `source_path`: under `prepare_numba()`'s folder, in the sub-folder numba's locator for
    `NUMBA_CACHE_DIR` names (the source folder's name and the sha1 of its path), worked out
    without importing numba."""
    import hashlib

    base = prepare_numba()
    here = os.path.dirname(os.path.abspath(source_path))
    return os.path.join(base, f"{os.path.basename(here)}_{hashlib.sha1(here.encode()).hexdigest()}")
