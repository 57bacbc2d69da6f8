"""Any file learns from the nearest network: `tablier train FILE --from auto|PATH|none
--minutes M`, the networks it keeps in the user's cache keyed by the rules' fingerprint, the
order in which `learned` finds a network, and `compare --train-minutes`."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from interpreter.players import learned  # noqa: E402
from interpreter.players.net import ValueNet  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.variant.fingerprint import rules_fingerprint  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: an author's house rule of a shipped game: hypergammon where a gammon counts single
HOUSE = """extends = "hypergammon"

[variant]
id = "hyper-house"
name = "Hypergammon, gammons single"

[rules.gammon]
enabled = false
"""


def _run(args: list[str], cache: Path, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    e = {**os.environ, "XDG_CACHE_HOME": str(cache), "TABLIER_NATIVE": "0", **env}
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=e,
                          capture_output=True, text=True, timeout=300)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_a_transferred_network_says_what_its_source_said_on_the_inputs_it_knew():
    src = ValueNet(5, 7, (2, 3), seed=3)
    src.meta = {"features": ["a", "b", "c", "d", "e"]}
    names = ["c", "new1", "a", "e", "new2", "b", "d"]
    net, said = src.transferred(names, (2,), seed=9)
    assert said.startswith("5 of 7 inputs, 3 of 3 outputs and 7 hidden units")
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, (20, 5))
    Xn = np.zeros((20, 7))
    for j, name in enumerate(names):
        if name.startswith("new"):
            Xn[:, j] = rng.uniform(0, 1, 20)       # inputs the source never saw: ignored at first
        else:
            Xn[:, j] = X[:, "abcde".index(name)]
    old = src.outputs_of(X)
    new = net.outputs_of(Xn)
    # the win output and the gammon level carry over; the backgammon level is dropped
    assert np.allclose(new[:, 0], old[:, 0])
    assert np.allclose(new[:, 1], old[:, 1]) and np.allclose(new[:, 2], old[:, 3])
    # a wider network says the same at first: its new hidden units are silent
    wide, said = src.transferred(names, (2, 3), hidden=12, seed=9)
    assert wide.hidden == 12 and "7 hidden units" in said
    assert np.allclose(wide.outputs_of(Xn), old)


def test_train_a_file_from_the_network_of_the_game_it_extends(house, tmp_path):
    cache = tmp_path / "cache"
    got = _run(["train", str(house), "--minutes", "0.02"], cache, tmp_path)
    assert got.returncode == 0, got.stderr
    assert "starting from the network shipped for hypergammon, which it extends" in got.stderr
    assert "inputs" in got.stderr and "carried over" in got.stderr
    variant = load_variant(house)
    kept = cache / "tablier" / "weights" / f"{rules_fingerprint(variant)}.npz"
    assert kept.is_file()
    meta = ValueNet.load(kept).meta
    shipped = learned.shipped_weights("hypergammon")
    assert shipped is not None
    assert meta["rules_fingerprint"] == rules_fingerprint(variant)
    assert meta["trained_from"][-1] == {
        "fingerprint": ValueNet.load(shipped).meta["rules_fingerprint"],
        "sha256": _sha(shipped)}
    assert meta["games"] >= 1 and "--minutes" in meta["command"]
    # `learned` on the file finds it there, and says nothing of other rules
    sim = _run(["simulate", str(house), "--white", "learned", "--black", "random", "--games",
                "2", "--json"], cache, tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["weights_sha256"]["white"] == _sha(kept)
    assert "trained for" not in sim.stderr
    # the second training goes on from the first
    again = _run(["train", str(house), "--minutes", "0.02"], cache, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "the network trained before for these rules" in again.stderr
    assert len(ValueNet.load(kept).meta["trained_from"]) == 2


def test_train_from_nothing_and_from_a_file(house, tmp_path):
    cache = tmp_path / "cache"
    out = tmp_path / "fresh.npz"
    got = _run(["train", str(house), "--from", "none", "--games", "3", "--out", str(out)],
               cache, tmp_path)
    assert got.returncode == 0, got.stderr
    assert "starting from" not in got.stderr
    assert ValueNet.load(out).meta["trained_from"] == []
    assert not (cache / "tablier" / "weights").exists() or \
        not any((cache / "tablier" / "weights").iterdir())
    second = tmp_path / "second.npz"
    got = _run(["train", str(house), "--from", str(out), "--games", "2", "--out", str(second)],
               cache, tmp_path)
    assert got.returncode == 0, got.stderr
    assert ValueNet.load(second).meta["trained_from"][-1]["sha256"] == _sha(out)


@pytest.mark.parametrize("args, words", [
    (["--from", "no-such.npz", "--games", "2"], "--from: no weights file 'no-such.npz'"),
    (["--games", "2", "--minutes", "1"], "not allowed with argument"),
    (["--resume", "--from", "x.npz", "--games", "2"], "--from has no meaning"),
])
def test_train_refuses_what_it_cannot_do_in_one_line(house, tmp_path, args, words):
    got = _run(["train", str(house), *args], tmp_path / "cache", tmp_path)
    assert got.returncode == 2
    assert words in got.stderr and "Traceback" not in got.stderr


def test_a_shipped_network_trained_for_these_rules_comes_before_the_cache(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    backgammon = load_variant("backgammon")
    shipped = learned.shipped_weights("backgammon")
    folder = learned.weights_cache()
    assert shipped is not None and folder is not None
    # a network kept for backgammon's own rules is not read: the shipped one was trained
    # under them
    shutil.copy(learned.shipped_weights("nackgammon"),
                folder / f"{rules_fingerprint(backgammon)}.npz")
    assert learned.network_for(backgammon) == shipped
    # a house rule with a network of its own in the cache reads it
    house = load_variant("backgammon", ["rules.gammon.enabled=false"])
    assert learned.network_for(house) == shipped        # none kept yet: the shipped one
    kept = folder / f"{rules_fingerprint(house)}.npz"
    shutil.copy(shipped, kept)
    assert learned.network_for(house) == kept
    assert learned.nearest_network(house) == (kept, "the network trained before for these "
                                                    "rules")


def test_the_nearest_network_of_a_new_game_has_its_board_and_dice(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # Tabula plays three dice: a file of its board and dice that extends nothing shipped
    # starts from Tabula's network; a game of other dice never does
    path = tmp_path / "tab.toml"
    text = (ROOT / "variants" / "tabula.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('id = "tabula"', 'id = "tab-copy"'), encoding="utf-8")
    found = learned.nearest_network(load_variant(path))
    assert found is not None and found[0].stem == "tabula"
    assert "same board and dice" in found[1]
    fresh = learned.nearest_network(load_variant("quinze-tablas"))
    assert fresh is None or fresh[0].stem not in ("backgammon", "nackgammon", "plakoto")


@pytest.mark.slow
def test_compare_trains_a_network_for_the_arm_that_has_none(tmp_path):
    pytest.importorskip("scipy")
    cache = tmp_path / "cache"
    got = _run(["compare", "hypergammon", "hypergammon", "--set",
                "2:rules.gammon.enabled=false", "--white", "learned", "--black", "learned",
                "--games", "2", "--jobs", "1", "--train-minutes", "0.05", "--json"],
               cache, tmp_path)
    assert got.returncode == 0, got.stderr
    arms = json.loads(got.stdout)["arms"]
    assert arms[0]["networks"]["white"] == "shipped hypergammon.npz"
    assert arms[1]["networks"]["white"].startswith("trained for these rules")
    assert arms[1]["differs"] == []
    assert "training a network for arm" in got.stderr


def test_a_file_extending_a_shipped_game_plays_its_network_with_a_note(tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    same = tmp_path / "same.toml"
    same.write_text(HOUSE.replace('extends = "hypergammon"', 'extends = "backgammon"'),
                    encoding="utf-8")
    assert learned.network_for(load_variant(same)) == learned.shipped_weights("backgammon")
    # Tavla ships no network of its own: backgammon's, whose game it is to a network
    assert learned.network_for(load_variant("tavla")) == learned.shipped_weights("backgammon")
    # another board (three men) is another game to a network: none, and the hint to train
    other = tmp_path / "other.toml"
    other.write_text('extends = "backgammon"\n[variant]\nid = "three"\nname = "Three"\n'
                     '[board]\ncheckers = 3\nstart = { 24 = 1, 23 = 1, 22 = 1 }\n',
                     encoding="utf-8")
    assert learned.network_for(load_variant(other)) is None
