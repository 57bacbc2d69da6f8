"""The compile policy (interpreter/native/__init__.py `policy`, interpreter/native/prepare.py):
a run that would gain from compiled code the cache lacks never imports numba; by default it
starts one detached process that fills the cache, and the runs after it use that code and play
the same games."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter import native
from interpreter.native import prepare

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
from interpreter.cli import main
code = main(["simulate", "backgammon", "--games", "600", "--seed", "5", "--jobs", "1",
             "--games-out", sys.argv[1]])
print("NUMBA" if "numba" in sys.modules else "NO-NUMBA", file=sys.stderr)
print("STATS" if "scipy.stats" in sys.modules else "NO-STATS", file=sys.stderr)
sys.exit(code)
"""


def _env(cache: Path, how: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"XDG_CACHE_HOME": str(cache), "TABLIER_PREPARE": how, "TABLIER_NATIVE": "1",
                "TABLIER_LIBRARY": "1"})
    env.pop("TABLIER_NO_CACHE", None)
    return env


def _simulate(cache: Path, how: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, str(out)], cwd=ROOT, text=True,
                          capture_output=True, env=_env(cache, how), timeout=300)


def _games(path: Path) -> list[dict]:
    return [line for line in map(json.loads, path.read_text().splitlines()) if "game" in line]


@pytest.mark.skipif(not native.installed(), reason="numba is not installed here")
def test_a_run_on_a_cold_cache_never_imports_numba(tmp_path: Path) -> None:
    """600 games would gain from compiled code; with nothing in the cache and no compile asked
    for, the run plays on the Python path without paying numba's import."""
    got = _simulate(tmp_path / "cache", "never", tmp_path / "g.jsonl")
    assert got.returncode == 0, got.stderr
    assert "NO-NUMBA" in got.stderr
    assert "compiling" not in got.stderr
    # nor scipy's statistics, which `simulate` needs only for --replicates (the base install
    # has no scipy)
    assert "NO-STATS" in got.stderr
    assert len(_games(tmp_path / "g.jsonl")) == 600


def test_one_background_process_a_piece_of_work(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs that ask for the same code at once start one process; a lock left by a process
    that died is taken over once it is stale."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLIER_NO_CACHE", raising=False)
    started: list[list[str]] = []

    class FakePopen:
        def __init__(self, args: list[str], **kw: object) -> None:
            started.append(list(args))
            assert kw.get("start_new_session") is True
            assert kw.get("stdin") == subprocess.DEVNULL

    monkeypatch.setattr(prepare.subprocess, "Popen", FakePopen)
    assert prepare.in_background("contact")
    assert not prepare.in_background("contact")
    assert len(started) == 1 and started[0][-2:] == ["contact", "-"]
    lock = prepare._lock_path("contact", "-", ())
    assert lock is not None and os.path.exists(lock)
    old = time.time() - prepare.STALE - 5
    os.utime(lock, (old, old))
    assert prepare.in_background("contact")
    assert len(started) == 2


def test_a_variant_loaded_elsewhere_is_not_prepared(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a variant that says what it was loaded from (its file and `--set`s) can be compiled
    by another process: the same rules, never a guess."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    class Bare:
        pass

    assert prepare.source_of(Bare()) is None
    assert not prepare.in_background("generator", Bare())


def test_the_policy_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, want in (("background", "background"), ("Foreground", "foreground"),
                        ("never", "never"), ("bogus", "background")):
        monkeypatch.setenv("TABLIER_PREPARE", value)
        assert native.policy() == want
    monkeypatch.delenv("TABLIER_PREPARE")
    assert native.policy() == "background"


@pytest.mark.slow
@pytest.mark.skipif(not native.installed(), reason="numba is not installed here")
def test_the_background_compile_serves_the_next_run(tmp_path: Path) -> None:
    """The first run on a cold cache plays on the Python path and starts the compile; once it
    is done the next run loads the compiled playouts from their library (numba not imported,
    no compile said) and plays the same games, line for line."""
    cache = tmp_path / "cache"
    first = _simulate(cache, "background", tmp_path / "a.jsonl")
    assert first.returncode == 0, first.stderr
    assert "in the background" in first.stderr and "NO-NUMBA" in first.stderr
    kernel = cache / "tablier" / "native" / "kernel"
    deadline = time.time() + 240
    while time.time() < deadline and any(p.name.startswith("prepare-")
                                         for p in kernel.iterdir()):
        time.sleep(1)
    assert not any(p.name.startswith("prepare-") for p in kernel.iterdir())
    second = _simulate(cache, "background", tmp_path / "b.jsonl")
    assert second.returncode == 0, second.stderr
    assert "NO-NUMBA" in second.stderr and "compiling" not in second.stderr
    assert any((cache / "tablier" / "native" / "lib").iterdir())
    assert _games(tmp_path / "a.jsonl") == _games(tmp_path / "b.jsonl")


def test_a_variant_sent_as_text_is_never_prepared_in_the_background(tmp_path: Path,
                                                                    monkeypatch) -> None:
    """A Dask worker builds the variant from the texts its task carried: no other process
    could read them again, so it starts no background compile (which would fail, again and
    again), while the variant loaded from its file says where it came from."""
    from interpreter.variant.build import load_variant, load_variant_texts, variant_texts

    path = tmp_path / "v.toml"
    path.write_text('extends = "hypergammon"\n[variant]\nid = "v"\nname = "V"\n',
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert prepare.source_of(load_variant("v.toml")) == ("v.toml", ())
    sent = load_variant_texts(variant_texts("v.toml"))
    assert sent.id == "v" and prepare.source_of(sent) is None
    assert not prepare.in_background("generator", sent)
