"""The user's cache holds compiled code and numba's index files (pickles): what another user
could have put there is never read (docs/security.md, "Caches").

Each case prepares a cache folder under a temporary `XDG_CACHE_HOME`, plants what an attacker
would (an index pickle that makes a folder when it is unpickled, a `.pyc` of other code, files
of another user, links), then runs Tablier in a fresh interpreter and checks that the planted
code never ran and that the compiled function still answers right.
"""
from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parent.parent
#: a uid that is not the test's (the planted files are given to it where the test may chown)
STRANGER = 4242

#: a tiny compiled module loaded as the kernel's modules are; prints f(41)
PROGRAM = """
import sys
from interpreter.native.modules import load
mod = load("@njit(cache=True)\\ndef f(x):\\n    return x + 1\\n")
print(mod.f(41))
"""


class _Planted:
    """Unpickled, it makes the folder `path`: the proof that a pickle of the cache ran."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self) -> tuple:
        return (os.makedirs, (self.path,))


def _run(cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), TABLIER_NATIVE="1")
    env.pop("TABLIER_NO_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def _indexes(cache: Path) -> list[Path]:
    return sorted((cache / "tablier" / "numba").rglob("*.nbi"))


def _plant_indexes(cache: Path, canary: Path) -> list[Path]:
    found = _indexes(cache)
    assert found, "the first run left no index to plant over"
    for index in found:
        with open(index, "wb") as fh:
            pickle.dump(_Planted(str(canary)), fh, protocol=2)
    return found


@pytest.fixture()
def warmed(tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    first = _run(cache)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "42"
    return cache


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another user needs root")


@needs_root
def test_an_index_planted_by_another_user_is_never_unpickled(warmed: Path, tmp_path: Path):
    canary = tmp_path / "PWNED"
    for index in _plant_indexes(warmed, canary):
        os.chown(index, STRANGER, STRANGER)
    again = _run(warmed)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "42"
    assert not canary.exists()
    # the folder was emptied and filled again by this user alone
    for path in (warmed / "tablier" / "numba").rglob("*"):
        assert path.lstat().st_uid == os.getuid()


def test_an_index_left_while_the_cache_was_open_to_others_is_never_unpickled(
        warmed: Path, tmp_path: Path):
    canary = tmp_path / "PWNED"
    _plant_indexes(warmed, canary)
    os.chmod(warmed / "tablier", 0o777)
    again = _run(warmed)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "42"
    assert not canary.exists()
    assert stat.S_IMODE((warmed / "tablier").stat().st_mode) == 0o700


def test_an_index_writable_by_others_is_never_unpickled(warmed: Path, tmp_path: Path):
    canary = tmp_path / "PWNED"
    for index in _plant_indexes(warmed, canary):
        os.chmod(index, 0o666)
    again = _run(warmed)
    assert again.returncode == 0, again.stderr
    assert not canary.exists()


def test_a_planted_index_does_not_make_the_code_look_compiled(warmed: Path, tmp_path: Path):
    # an index of a stranger beside a module never compiled: is_cached must not trust it
    program = """
from interpreter.native.modules import is_cached
print(is_cached("@njit(cache=True)\\ndef g(x):\\n    return x - 1\\n", ("g",)))
"""
    env = dict(os.environ, XDG_CACHE_HOME=str(warmed))
    env.pop("NUMBA_CACHE_DIR", None)
    where = subprocess.run([sys.executable, "-c", """
from interpreter.native.numba_cache import index_folder
from interpreter.native.modules import _path
name, path = _path("@njit(cache=True)\\ndef g(x):\\n    return x - 1\\n")
print(index_folder(path)); print(name)
"""], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert where.returncode == 0, where.stderr
    folder, name = where.stdout.split()
    os.makedirs(folder, exist_ok=True)
    planted = Path(folder) / f"{name}.g-2.py311.nbi"
    planted.write_bytes(b"planted")
    os.chmod(planted, 0o666)
    asked = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=60)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.strip() == "False"
    assert not planted.exists()


def test_a_pyc_beside_a_generated_module_is_never_run(warmed: Path, tmp_path: Path):
    # even a .pyc of the user's own beside the module is not read: the module runs from its text
    canary = tmp_path / "PWNED"
    modules = sorted((warmed / "tablier" / "native" / "kernel").glob("tablier_native_*.py"))
    assert modules
    for source in modules:
        st = source.stat()
        code = compile(f"import os\nos.makedirs({str(canary)!r})\n", str(source), "exec")
        data = bootstrap._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)
        pyc = Path(bootstrap.cache_from_source(str(source)))
        pyc.parent.mkdir(exist_ok=True)
        pyc.write_bytes(bytes(data))
    again = _run(warmed)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "42"
    assert not canary.exists()


def test_a_link_in_the_cache_is_removed_not_followed(warmed: Path, tmp_path: Path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    link = warmed / "tablier" / "numba" / "link"
    link.symlink_to(target)
    again = _run(warmed)
    assert again.returncode == 0, again.stderr
    assert not link.exists() and not link.is_symlink()
    assert (target / "keep.txt").read_text() == "mine"


def test_a_cache_in_a_folder_others_may_write_is_not_used(tmp_path: Path, monkeypatch):
    from interpreter import usercache

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)         # writable by all and not sticky: the folder can be swapped
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    monkeypatch.delenv("TABLIER_NO_CACHE", raising=False)
    assert usercache.cache_dir() is None
    os.chmod(shared, 0o1777)        # sticky, as /tmp: entries of others cannot be renamed
    assert usercache.cache_dir() == str(shared / "tablier")


def test_trusted_folder_empties_a_folder_of_odd_entries(tmp_path: Path, monkeypatch):
    from interpreter import usercache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLIER_NO_CACHE", raising=False)
    monkeypatch.setattr(usercache, "_VERIFIED", {})
    folder = Path(usercache.trusted_folder("native") or "")
    assert folder.is_dir()
    (folder / "deep" / "deeper").mkdir(parents=True)
    (folder / "deep" / "deeper" / "ok.py").write_text("x = 1\n")
    monkeypatch.setattr(usercache, "_VERIFIED", {})
    assert usercache.trusted_folder("native") == str(folder)
    assert (folder / "deep" / "deeper" / "ok.py").exists()       # a sound folder is kept
    os.mkfifo(folder / "deep" / "fifo")
    monkeypatch.setattr(usercache, "_VERIFIED", {})
    assert usercache.trusted_folder("native") == str(folder)
    assert list(folder.iterdir()) == []                         # a FIFO below: emptied


def test_the_index_folder_is_where_numba_looks(tmp_path: Path):
    from numba.core.caching import _CacheLocator

    from interpreter.native.numba_cache import index_folder, prepare_numba

    source = str(tmp_path / "deep" / "module.py")
    assert index_folder(source) == os.path.join(
        prepare_numba(), _CacheLocator.get_suitable_cache_subpath(source))
