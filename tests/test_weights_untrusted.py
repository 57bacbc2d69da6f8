"""Weights files and saved games' player kinds as untrusted input (docs/security.md).

`ValueNet.load` reads a `.npz` through the bounded reader and its own zip and `.npy` readers:
every hostile file of the catalogue (tests/hostile.py `weights_file`) and every special file is
one `WeightsError`, quickly; every shipped weights file loads exactly as `np.load` reads it. A
saved game may not name a weights file, nor ask for a search or playouts dearer than
`interpreter.io.save.SAVED_*`: the person names them on the command line.
"""
from __future__ import annotations

import io
import json
import os
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

import hostile

np = pytest.importorskip("numpy")

from interpreter.cli import main  # noqa: E402
from interpreter.errors import TablierError  # noqa: E402
from interpreter.io import save  # noqa: E402
from interpreter.players.net import (FORMAT, MAX_WEIGHTS_BYTES, ValueNet,  # noqa: E402
                                     WeightsError)

WEIGHTS = Path(__file__).resolve().parent.parent / "interpreter" / "players" / "weights"
SHIPPED = sorted(WEIGHTS.glob("*.npz"))

#: each hostile weights file of tests/hostile.py and a fragment of its refusal
HOSTILE = {
    "shape": "its arrays declare 796,",
    "shape-short": "'W1' is 10,000 x 10,000 (at most 10,000 x 4,096)",
    "bomb": "its arrays declare 4,294,",
    "liar": "is not a weights file of tablier",
    "pickle": "'W1' holds objects",
    "members": "2,005 members (at most 16)",
    "header": "has a header of 60,000 bytes",
    "nan": "NaN or infinite",
    "truncated": "is not a weights file of tablier",
    "levels-digits": "`levels` must be a list",
    "levels-number": "has 5,000 digits",
    "levels-dict": "`levels` must be a list",
    "levels-nan": "NaN is not a JSON number",
    "levels-huge": "from 2 to 1000",
    "features-int": "`features` must be a list of names",
    "deep": "nests 100001 deep",
    "inf": "1e999' is too large a number",
    "not-json": "unreadable metadata",
    "games-dict": "`games` must be a count of plays",
}


def _refused(path: Path | str, fragment: str) -> str:
    start = time.monotonic()
    with pytest.raises(WeightsError) as got:
        ValueNet.load(path)
    assert time.monotonic() - start < 2.0
    message = str(got.value)
    assert fragment in message
    assert "\n" not in message and len(message) < 400
    return message


# -- the shipped weights load as before ----------------------------------------------------------

@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_weights_file_loads_as_np_load_reads_it(path):
    net = ValueNet.load(path)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: np.array(data[k]) for k in ("W1", "b1", "W2", "b2")}
        meta = json.loads(str(data["meta"]))
    for k in arrays:
        assert np.array_equal(getattr(net, k), arrays[k]), k
    assert net.meta == meta and net.levels == tuple(meta["levels"])
    X = np.random.default_rng(7).uniform(0, 1, (16, net.inputs))
    H = 1 / (1 + np.exp(-(X @ arrays["W1"] + arrays["b1"])))
    Y = 1 / (1 + np.exp(-(H @ arrays["W2"] + arrays["b2"])))
    assert np.allclose(net.outputs_of(X), Y, rtol=1e-12, atol=1e-12)


def test_the_catalogue_good_file_loads(tmp_path):
    """The hostile files are built by the same code from a file that loads."""
    good = tmp_path / "good.npz"
    good.write_bytes(hostile.weights_file("good"))
    a, b = ValueNet.load(good), ValueNet.load(hostile._shipped())
    assert np.array_equal(a.theta, b.theta) and a.meta == b.meta


def test_saved_weights_keep_unknown_keys_and_read_other_layouts(tmp_path):
    """What `save` writes loads back with every key of the metadata (plain JSON, kept as
    written); float32, big-endian, Fortran-ordered and deflated arrays load too."""
    net = ValueNet(12, 5, (2, 3), seed=3)
    extra = {"rules_fingerprint": "ab" * 32, "trained_from": {"rules": [["x", 1]], "n": None},
             "features": [f"f{i}" for i in range(12)], "variant": "backgammon"}
    net.save(tmp_path / "n.npz", extra)
    back = ValueNet.load(tmp_path / "n.npz")
    assert back.meta == {**extra, "format": FORMAT, "levels": [2, 3]}
    assert np.array_equal(back.theta, net.theta)
    meta = np.array(json.dumps(back.meta))
    np.savez_compressed(tmp_path / "c.npz", W1=np.asfortranarray(net.W1.astype(">f8")),
                        b1=net.b1.astype(np.float32), W2=net.W2, b2=net.b2, meta=meta)
    other = ValueNet.load(tmp_path / "c.npz")
    assert np.allclose(other.theta, net.theta, atol=1e-6)


# -- hostile files -----------------------------------------------------------------------------

@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_a_hostile_weights_file_is_one_weights_error(tmp_path, what):
    path = tmp_path / f"{what}.npz"
    path.write_bytes(hostile.weights_file(what))
    message = _refused(path, HOSTILE[what])
    assert "Traceback" not in message


def test_special_files_are_refused_unread(tmp_path):
    os.mkfifo(tmp_path / "pipe.npz")
    (tmp_path / "folder").mkdir()
    (tmp_path / "zero.npz").symlink_to("/dev/zero")
    _refused(tmp_path / "pipe.npz", "it is a FIFO (named pipe), not a regular file")
    _refused(tmp_path / "folder", "it is a directory, not a regular file")
    _refused("/dev/zero", "it is a character device, not a regular file")
    _refused(tmp_path / "zero.npz", "it is a character device, not a regular file")
    _refused(tmp_path / "missing.npz", "no weights file")
    _refused("a\0b.npz", "cannot hold a NUL character")
    _refused("x" * 5000 + ".npz", "file name too long")


def test_a_file_over_the_cap_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.npz"
    with open(big, "wb") as fh:      # sparse: no disk used
        fh.truncate(MAX_WEIGHTS_BYTES + 1)
    _refused(big, "the file is larger than 64 MiB")


def test_odd_zip_members_are_refused(tmp_path):
    members = {f"{k}.npy": v for k, v in zip(
        ("W1", "b1", "W2", "b2", "meta"), _shipped_npy())}

    def zipped(**change: bytes | None) -> Path:
        out = {**members, **{f"{k}.npy": v for k, v in change.items()}}
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for name, body in out.items():
                if body is not None:
                    zf.writestr(name, body)
        path = tmp_path / f"z{len(list(tmp_path.iterdir()))}.npz"
        path.write_bytes(buf.getvalue())
        return path

    _refused(zipped(b2=None), "no array 'b2'")
    _refused(zipped(W1=b"not an array"), "'W1' is not a .npy array")
    _refused(zipped(W1=members["W1.npy"][:200]), "'W1' declares")
    _refused(zipped(b1=_npy(np.zeros(128, dtype=np.int64))), "not float32 or float64")
    _refused(zipped(b1=_npy(np.zeros((128, 1)))), "'b1' is 128 x 1")
    _refused(zipped(meta=_npy(np.array([1.0]))), "'meta' is not a string")
    _refused(zipped(meta=_npy(np.array(["{}", "{}"]))), "'meta' is not a string")
    _refused(zipped(meta=_npy(np.array(json.dumps({"format": "other"})))),
             f"is not a {FORMAT} weights file")
    _refused(zipped(W1=b"\x93NUMPY\x03\x00" + members["W1.npy"][8:]), "of version 3.0")


def _npy(array: Any) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, allow_pickle=False)
    return buf.getvalue()


def _shipped_npy() -> list[bytes]:
    with np.load(hostile._shipped()) as data:
        return [_npy(np.array(data[k])) for k in ("W1", "b1", "W2", "b2", "meta")]


def test_no_pickle_is_ever_loaded(tmp_path, monkeypatch):
    """The reader never unpickles: a pickled member is refused with pickle itself disabled."""
    import pickle

    def refuse(*_a, **_k):
        raise AssertionError("unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    path = tmp_path / "p.npz"
    path.write_bytes(hostile.weights_file("pickle"))
    _refused(path, "holds objects")


def test_the_command_line_refuses_bad_weights_with_one_line(tmp_path, capsys):
    path = tmp_path / "w.npz"
    path.write_bytes(hostile.weights_file("shape"))
    for kind in (f"learned:{path}", f"search:1:learned:{path}", "learned:/dev/zero",
                 f"learned:{tmp_path / 'missing.npz'}"):
        assert main(["play", "backgammon", "--white", kind, "--max-turns", "1"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("tablier play: ") and \
            "Traceback" not in err


# -- saved games' player kinds ---------------------------------------------------------------

def test_saved_player_faults():
    fault = save.saved_player_fault
    for ok in ("human", "random", "greedy", "search:1", "search:2", "search:2:learned",
               "search:3:learned",
               "learned", "rollout:8", "rollout:64", "rollout:8:learned", "gnubg", "gnubg:2"):
        assert fault(ok) is None, ok
    assert "weights file" in (fault("learned:/etc/passwd") or "")
    assert "weights file" in (fault("search:1:learned:x.npz") or "")
    assert "weights file" in (fault("rollout:4:learned:x.npz") or "")
    assert "searches 4 throws ahead" in (fault("search:4") or "")
    assert "searches 4 throws ahead" in (fault("search:4:learned") or "")
    assert "10,000 playouts" in (fault("rollout:10000") or "")
    assert "gnubg for 3 plies" in (fault("gnubg:3") or "")
    assert "no player kind" in (fault("search:9") or "")
    assert "no player kind" in (fault("x" * 100_000) or "")


def _save_with_players(tmp_path: Path, capsys, white: str, black: str) -> Path:
    path = tmp_path / f"s-{len(list(tmp_path.iterdir()))}.toml"
    assert main(["play", "backgammon", "--white", "random", "--black", "random", "--max-turns",
                 "3", "--save", str(path), "--json"]) == 0
    capsys.readouterr()
    import tomli_w

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["game"]["players"] = [white, black]
    data["checksum"] = save._checksum(data)
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("white,black,fragment", [
    ("learned:{weights}", "random", "pass it on the command line yourself: --white learned:"),
    ("random", "search:4", "searches 4 throws ahead"),
    ("rollout:10000", "random", "plays 10,000 playouts"),
    ("random", "search:2:learned:/dev/zero", "names a weights file"),
    ("search:9", "random", "is no player kind tablier knows"),
])
def test_a_save_cannot_choose_weights_or_dear_bots(tmp_path, capsys, white, black, fragment):
    weights = tmp_path / "w.npz"
    weights.write_bytes(hostile.weights_file("good"))
    path = _save_with_players(tmp_path, capsys, white.format(weights=weights),
                              black.format(weights=weights))
    start = time.monotonic()
    assert main(["play", "--resume", str(path), "--json"]) == 1
    err = capsys.readouterr().err
    assert time.monotonic() - start < 5
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_person_may_name_the_players_of_a_save(tmp_path, capsys):
    weights = tmp_path / "w.npz"
    weights.write_bytes(hostile.weights_file("good"))
    path = _save_with_players(tmp_path, capsys, f"learned:{weights}", "search:4")
    assert main(["play", "--resume", str(path), "--white", f"learned:{weights}", "--black",
                 "random", "--max-turns", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["white"] == f"learned:{weights}" and out["black"] == "random"
    cheap = _save_with_players(tmp_path, capsys, "search:1", "learned")
    assert main(["play", "--resume", str(cheap), "--max-turns", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["black"] == "learned"


def test_the_web_board_resumes_only_the_kinds_it_offers(tmp_path, capsys):
    """The web board's check of a save's players (interpreter/web/session.py): only the kinds
    a page may choose, so neither a weights file nor a dear bot."""
    pytest.importorskip("starlette")
    from interpreter.web.session import Session

    for white, black in (("learned:/dev/zero", "random"), ("random", "search:4"),
                         ("rollout:10000", "random")):
        path = _save_with_players(tmp_path, capsys, white, black)
        with pytest.raises(TablierError, match="unknown player kind"):
            Session.resume(path.read_text(encoding="utf-8"))
