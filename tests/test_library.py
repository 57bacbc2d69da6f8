"""Compiled code as libraries (interpreter/native/library.py): the entry functions of a
generated numba module compiled ahead of time into an extension module of the cache, which a
later process loads without importing numba. The library gives the same boards, the same games
and the same values as the Python path; a broken one is removed and numba serves; a library
that cannot be made is not tried again for a day; a later run of `simulate` loads it without
numba."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interpreter import native
from interpreter.native import library

numba = pytest.importorskip("numba")

from interpreter.bench import _sample_positions  # noqa: E402
from interpreter.runner import game_line, game_seed, play_game  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Libraries wanted (the suite keeps to numba's modules otherwise), in the user's cache,
    where they are made once per machine and code version; skipped on a machine without a C
    compiler or Python's headers, where numba's own cache serves."""
    if not library.toolchain():
        pytest.skip("no C compiler or Python headers here: no library can be made")
    monkeypatch.setenv("TABLIER_LIBRARY", "1")


def _from_library(variant: Any) -> Any:
    """The variant with its compiled generator and playouts from the library (made here when
    the cache lacks it)."""
    assert native.accelerate(variant, quiet=True)
    module = variant.generator.native.module
    assert module.__name__.startswith("tablier_lib_"), module
    return variant


def test_backgammon_from_the_library_same_boards_and_games(libraries: None) -> None:
    """Every throw of sampled positions gives the same boards in the same order, and the
    compiled playouts the same games, line for line, as the Python path."""
    py, fast = load_variant("backgammon"), _from_library(load_variant("backgammon"))
    for p in _sample_positions(py, 150, 3):
        b = p[0]
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)
    seed = 17
    ref = [game_line(i, seed, play_game(py, seed, i)) for i in range(40)]
    got = fast.native_playout.play([game_seed(seed, i) for i in range(40)])
    assert [game_line(i, seed, r) for i, r in enumerate(got)] == ref


@pytest.mark.parametrize("vid", ["plakoto", "fevga"])
def test_the_walks_from_the_library(libraries: None, vid: str) -> None:
    """Plakoto's pinning walk (walk_emit.py) and Fevga's walk with the file's rules inside it
    (hooks_emit.py), from their libraries: the same boards in the same order, and Fevga's
    first way to each board, as the Python walk."""
    py, fast = load_variant(vid), _from_library(load_variant(vid))
    some = fast.generator.__dict__.get("some_plays")
    for p in _sample_positions(py, 60, 5):
        b = p[0]
        for d1, d2 in ((1, 2), (6, 6), (5, 3), (4, 4)):
            assert fast.generator.results(b, d1, d2) == py.generator.results(b, d1, d2)
            if some is not None:
                got, left = some(b, d1, d2)
                ref, ref_left = py.generator.some_plays(b, d1, d2)
                assert [(q.board, q.paths[0]) for q in got] == \
                    [(q.board, q.paths[0]) for q in ref] and left == ref_left


PROBE = """
import sys
from interpreter.cli import main
code = main(["simulate", "backgammon", "--games", "600", "--seed", "5", "--jobs", "1",
             "--games-out", sys.argv[1]])
print("NUMBA" if "numba" in sys.modules else "NO-NUMBA", file=sys.stderr)
print("LIBRARY" if any(m.startswith("tablier_lib_") for m in sys.modules) else "PYTHON",
      file=sys.stderr)
sys.exit(code)
"""


def _run(env: dict[str, str], out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, str(out)], cwd=ROOT, text=True,
                          capture_output=True, env=env, timeout=300)


def test_a_later_run_loads_the_library_without_numba(libraries: None, tmp_path: Path) -> None:
    """Once the library is in the cache, a run of 600 games plays on it without importing
    numba, and plays the games the Python path plays."""
    _from_library(load_variant("backgammon"))
    env = dict(os.environ, TABLIER_PREPARE="never", TABLIER_LIBRARY="1", TABLIER_NATIVE="1")
    fast = _run(env, tmp_path / "lib.jsonl")
    assert fast.returncode == 0, fast.stderr
    assert "NO-NUMBA" in fast.stderr and "LIBRARY" in fast.stderr, fast.stderr
    slow = _run(dict(env, TABLIER_NATIVE="0"), tmp_path / "py.jsonl")
    assert slow.returncode == 0 and "PYTHON" in slow.stderr, slow.stderr

    def games(path: Path) -> list[dict]:
        return [g for g in map(json.loads, path.read_text().splitlines()) if "game" in g]

    assert games(tmp_path / "lib.jsonl") == games(tmp_path / "py.jsonl")
    assert len(games(tmp_path / "lib.jsonl")) == 600


SOURCE = "import numpy as np\nfrom numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n" \
         "    return x + 1\n"
EXPORTS = (("f", "i8(i8)"),)


def test_a_broken_library_is_removed_and_not_loaded(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A file in the library's place that does not load (damaged, or another platform's) is
    removed; the caller falls back to numba's module."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TABLIER_LIBRARY", "1")
    path = library.path_of(SOURCE, EXPORTS)
    assert path is not None and path.startswith(str(tmp_path))
    Path(path).write_bytes(b"\x7fELF not really a library")
    os.chmod(path, 0o700)
    assert library.has_library(SOURCE, EXPORTS)
    assert library.load_library(SOURCE, EXPORTS) is None
    assert not os.path.exists(path)


def test_a_library_that_cannot_be_made_is_not_tried_again(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Without a working C compiler the build fails once, says so in one line, leaves no file
    in the library's place, and is not tried again for a day; numba's module still serves."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # numba's pending deprecation of pycc
        import numba.pycc

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TABLIER_LIBRARY", "1")

    def no_compiler(self: Any) -> None:
        raise OSError("no C compiler")

    monkeypatch.setattr(numba.pycc.CC, "compile", no_compiler)
    monkeypatch.setitem(library._TOOLCHAIN, "ok", True)
    from interpreter.native.modules import load

    module = load(SOURCE.split("\n\n", 1)[1])
    assert library.may_build(SOURCE, EXPORTS)
    assert not library.build_library(module, SOURCE, EXPORTS)
    assert not library.has_library(SOURCE, EXPORTS)
    assert not library.may_build(SOURCE, EXPORTS)
    assert module.f(2) == 3


def test_no_library_without_a_trustworthy_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no cache (or `TABLIER_LIBRARY=0`) there is no library: one made per process would
    cost more than it saves."""
    monkeypatch.setenv("TABLIER_NO_CACHE", "1")
    monkeypatch.setenv("TABLIER_LIBRARY", "1")
    assert library.path_of(SOURCE, EXPORTS) is None
    assert not library.may_build(SOURCE, EXPORTS)
    monkeypatch.delenv("TABLIER_NO_CACHE")
    monkeypatch.setenv("TABLIER_LIBRARY", "0")
    assert not library.may_build(SOURCE, EXPORTS)
    assert not library.has_library(SOURCE, EXPORTS)


def test_the_librarys_name_follows_its_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another source, salt or signature is another library."""
    base = library.name_of(SOURCE, EXPORTS)
    assert library.name_of(SOURCE + "\n", EXPORTS) != base
    assert library.name_of(SOURCE, EXPORTS, "salt") != base
    assert library.name_of(SOURCE, (("f", "i4(i4)"),)) != base
    assert library.name_of(SOURCE, EXPORTS) == base


def test_a_known_library_is_named_by_a_plain_file_of_the_users(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`known/` names a library for a key only by a small plain file of the user's holding a
    library's name: anything else (another text, a link, a large file) is ignored, and a
    library named that does not load is removed as any other."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TABLIER_LIBRARY", "1")
    key = library.known_key("throws", load_variant("triktrak"))
    other = load_variant("triktrak", ['options.pile_de_misere="on"'])
    assert key != library.known_key("throws", other)
    assert key != library.known_key("net", load_variant("triktrak"))
    assert library.known(key, EXPORTS) is None                  # nothing known yet
    library.know(key, SOURCE, EXPORTS)                          # no library: nothing named
    path = library._known_path(key)
    assert path is not None and not os.path.exists(path)
    lib = library.path_of(SOURCE, EXPORTS)
    assert lib is not None
    Path(lib).write_bytes(b"\x7fELF not really a library")
    os.chmod(lib, 0o700)
    for text in ("../../elsewhere", "tablier_lib_" + "0" * 31, "x" * 80):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)
        assert library.known(key, EXPORTS) is None
        assert os.path.exists(lib)                              # never reached
    os.unlink(path)
    library.know(key, SOURCE, EXPORTS)
    assert Path(path).read_text().strip() == library.name_of(SOURCE, EXPORTS)
    os.symlink(path, path + ".link")
    assert library.known(key + "x", EXPORTS) is None            # not a key
    assert library.known(key, EXPORTS) is None                  # read, loaded, broken:
    assert not os.path.exists(lib)                              # removed


def test_the_cache_keeps_the_libraries_loaded_last(tmp_path: Path) -> None:
    """Past `KEEP` libraries, a new build removes those loaded (or made) longest ago, never the
    one just made; other files of the folder stay."""
    import importlib.machinery

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    made = []
    for k in range(library.KEEP + 5):
        f = tmp_path / f"tablier_lib_{k:032x}{suffix}"
        f.write_bytes(b"")
        os.utime(f, (1_000_000 + k, 1_000_000 + k))
        made.append(f)
    (tmp_path / "known").mkdir()
    (tmp_path / "tablier_lib_x.failed").write_text("no compiler")
    just = made[0]                          # the oldest, but the one just built
    assert library.evict(str(tmp_path), keep=str(just)) == 4
    assert just.exists() and all(f.exists() for f in made[5:])
    assert not any(f.exists() for f in made[1:5])
    assert (tmp_path / "known").is_dir() and (tmp_path / "tablier_lib_x.failed").exists()
    assert library.evict(str(tmp_path)) == 1 and not just.exists()


@pytest.mark.slow
def test_the_throws_from_the_library(libraries: None) -> None:
    """Triktrak's compiled throws (throws_emit.py) from the library: the same points over the
    21 throws as numba's module."""
    from interpreter.engine.branch import DICE
    from interpreter.native.throws_emit import NativeThrows, emit_throws

    v = load_variant("triktrak")
    assert native.accelerate_throws(v, games=None, quiet=True)
    lib = v.native_throws
    assert type(lib._many).__name__ != "CPUDispatcher"      # the library's, not numba's
    made = emit_throws(v)
    assert made is not None
    jit = NativeThrows(v, made[0])
    dice = DICE
    keys = [(p[0], 1, 1) for p in _sample_positions(v, 40, 3)]
    assert lib.points_many(keys, dice) == jit.points_many(keys, dice)
    for b, _r, _s in keys[:10]:
        assert lib.plays(b, 5, 3) == jit.plays(b, 5, 3)
    # a later run finds the library by the variant and the code alone, its source not written
    again = load_variant("triktrak")
    import interpreter.native.throws_emit as throws_emit

    def unwritten(_v: Any) -> None:
        raise AssertionError("the source was written")

    emit, throws_emit.emit_throws = throws_emit.emit_throws, unwritten
    try:
        assert native.accelerate_throws(again, games=None, quiet=True)
    finally:
        throws_emit.emit_throws = emit
    assert again.native_throws.points_many(keys, dice) == jit.points_many(keys, dice)


@pytest.mark.slow
def test_the_network_from_the_library(libraries: None) -> None:
    """The learned player's compiled network from its library plays the games numba's module
    plays."""
    from interpreter.players.kinds import make_player

    v = load_variant("backgammon")
    v.__dict__["native_net"] = True
    fast = make_player("learned", "probe", v).judge.fast
    assert fast is not None and fast.module.__name__.startswith("tablier_lib_")
    lines = [game_line(i, 3, play_game(v, 3, i, "learned", "search:1:learned"))
             for i in range(2)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLIER_LIBRARY", "0")
        w = load_variant("backgammon")
        w.__dict__["native_net"] = True
        assert lines == [game_line(i, 3, play_game(w, 3, i, "learned", "search:1:learned"))
                         for i in range(2)]


TRUST_PROBE = """
import sys
from interpreter.native import library
SOURCE, EXPORTS = sys.argv[1], (("f", "i8(i8)"),)
lib = library.load_library(SOURCE, EXPORTS)
print("LOADED" if lib is not None else "REFUSED", lib.f(41) if lib is not None else "")
"""


def test_a_library_others_could_write_is_never_loaded(libraries: None, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A library is machine code: one that another user could have written (here: a file
    others may write, as a planted one would be) is removed with its folder's contents before
    anything of the folder is loaded (docs/security.md, "Caches"); the same file closed to
    others loads and answers."""
    from interpreter.native.modules import load

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv("TABLIER_NO_CACHE", raising=False)
    assert library.build_library(load(SOURCE.split("\n\n", 1)[1]), SOURCE, EXPORTS)
    path = Path(library.path_of(SOURCE, EXPORTS) or "")
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), TABLIER_LIBRARY="1")

    def probe() -> str:
        done = subprocess.run([sys.executable, "-c", TRUST_PROBE, SOURCE], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()[0] + ("" if "42" not in done.stdout else " 42")

    assert probe() == "LOADED 42"
    os.chmod(path, 0o766)
    assert probe() == "REFUSED"
    assert not path.exists()
