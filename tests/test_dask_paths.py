"""`--dask` with a variant file given by a relative path: the file's text, and the text of each
file it extends, travel with the task, each checked against its sha256, and the worker compiles
the variant from the texts without reading a variant file (docs/compare.md, "Running on a Dask
cluster")."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from interpreter.errors import TablierError, VariantError
from interpreter.runner import Arm, _dask_chunk, play_lines
from interpreter.variant.build import VariantTexts, load_variant, load_variant_texts, \
    variant_texts
from interpreter.variant.fingerprint import rules_fingerprint

BASE = """
extends = "backgammon"
[variant]
id = "short-base"
name = "A short race"
[board]
checkers = 3
start = { 24 = 1, 23 = 1, 22 = 1 }
"""

MINE = """
extends = "../common/base.toml"
[variant]
id = "short-mine"
name = "A short race, no gammons"
[rules.gammon]
enabled = false
"""


@pytest.fixture
def files(tmp_path: Path, monkeypatch) -> Path:
    """sub/x.toml extends ../common/base.toml, which extends the built-in backgammon; the
    working folder is `tmp_path`."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "base.toml").write_text(BASE, encoding="utf-8")
    (tmp_path / "sub" / "x.toml").write_text(MINE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _away(root: Path) -> None:
    """The variant files gone from where they were: what is loaded now is from text."""
    os.rename(root / "sub", root / "sub-gone")
    os.rename(root / "common", root / "common-gone")


def test_a_variant_file_is_compiled_from_its_texts_alone(files: Path) -> None:
    built = load_variant("sub/x.toml")
    sent = variant_texts("sub/x.toml", (), built)
    assert sent is not None and sent.display == "sub/x.toml"
    assert sent.root == str((files / "sub" / "x.toml").resolve())
    paths = [Path(p).name for p, _d, _t in sent.texts]
    assert "x.toml" in paths and "base.toml" in paths
    _away(files)
    again = load_variant_texts(sent)
    assert again.id == "short-mine"
    assert rules_fingerprint(again) == rules_fingerprint(built)
    assert again.files == built.files
    assert not again.model.rules["gammon"].enabled and again.checkers == 3
    with pytest.raises(VariantError):       # and the files are really not there
        load_variant("sub/x.toml")


def test_a_rotations_games_given_by_path_travel_too(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "rot" / "sub").mkdir(parents=True)
    (tmp_path / "rot" / "sub" / "pl.toml").write_text(
        'extends = "plakoto"\n[variant]\nid = "my-plakoto"\nname = "My plakoto"\n', "utf-8")
    (tmp_path / "rot" / "r.toml").write_text(
        'extends = "tavli"\n[variant]\nid = "my-tavli"\nname = "My tavli"\n[ladder]\n'
        'games = ["portes", "sub/pl.toml", "fevga"]\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    built = load_variant("rot/r.toml")
    sent = variant_texts("rot/r.toml", (), built)
    assert sent is not None
    os.rename(tmp_path / "rot", tmp_path / "gone")
    again = load_variant_texts(sent)
    assert [g.id for g in again.games] == ["portes", "my-plakoto", "fevga"]
    assert rules_fingerprint(again) == rules_fingerprint(built)


def test_a_built_in_variant_sends_no_text() -> None:
    assert variant_texts("backgammon") is None


def test_a_text_that_does_not_match_its_sha256_is_refused(files: Path) -> None:
    sent = variant_texts("sub/x.toml")
    assert sent is not None
    path, digest, text = next(t for t in sent.texts if t[0].endswith("base.toml"))
    changed = tuple((p, d, text.replace("checkers = 3", "checkers = 2")) if p == path
                    else (p, d, t) for p, d, t in sent.texts)
    with pytest.raises(TablierError, match="does not match its sha256") as err:
        load_variant_texts(VariantTexts(sent.root, sent.display, changed))
    assert "'sub/x.toml'" in str(err.value)


def test_a_file_not_sent_is_not_read_from_the_disk(files: Path) -> None:
    sent = variant_texts("sub/x.toml")
    assert sent is not None
    without = tuple(t for t in sent.texts if not t[0].endswith("base.toml"))
    # the file is still on the disk: the load must not look there
    with pytest.raises(VariantError) as err:
        load_variant_texts(VariantTexts(sent.root, sent.display, without))
    text = str(err.value)
    assert "sub/x.toml" in text and "extends-not-found" in text and "../common/base.toml" in text


def test_a_file_changed_since_it_was_loaded_is_refused(files: Path) -> None:
    built = load_variant("sub/x.toml")
    (files / "common" / "base.toml").write_text(BASE.replace("23 = 1", "23 = 1 "), "utf-8")
    with pytest.raises(TablierError, match="changed while it was being read"):
        variant_texts("sub/x.toml", (), built)


def test_a_worker_plays_from_the_texts_the_games_of_one_process(files: Path) -> None:
    built = load_variant("sub/x.toml", ["ladder.jacoby=true"])
    arm = Arm("sub/x.toml", ("ladder.jacoby=true",), 5, 6, "greedy", "random")
    expected = play_lines(built, arm, 2, 6)
    sent = variant_texts(arm.ref, arm.overrides, built)
    _away(files)
    assert _dask_chunk(arm, 2, 6, sent) == expected


dask = pytest.importorskip("distributed")


@pytest.mark.slow
def test_dask_with_a_relative_path_gives_the_lines_of_one_process(files: Path, capsys,
                                                                 monkeypatch) -> None:
    """From a working folder with sub/x.toml: `simulate` and `compare` on a local cluster give
    the `--jobs 1` lines; the files are moved away once their texts are taken, so that the
    workers can only have compiled from the texts."""
    from distributed import LocalCluster

    from interpreter import runner
    from interpreter.cli import main
    from interpreter.variant import build

    assert main(["simulate", "sub/x.toml", "--games", "30", "--seed", "3", "--jobs", "1",
                 "--white", "greedy", "--games-out", "local.jsonl"]) == 0
    assert main(["compare", "sub/x.toml", "backgammon", "--games", "30", "--seed", "3",
                 "--jobs", "1", "--games-out", "lc"]) == 0
    capsys.readouterr()
    taken = build.variant_texts

    def take_then_hide(*args, **kwargs):
        got = taken(*args, **kwargs)
        if got is not None and (files / "sub").exists():
            _away(files)
        return got

    monkeypatch.setattr(build, "variant_texts", take_then_hide)
    monkeypatch.setattr(runner, "SECONDS", 0.0)       # chunks of one game: many tasks
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        assert main(["simulate", "sub/x.toml", "--games", "30", "--seed", "3", "--white",
                     "greedy", "--dask", cluster.scheduler_address,
                     "--games-out", "dask.jsonl"]) == 0
        assert not (files / "sub").exists()
        capsys.readouterr()
        os.rename(files / "sub-gone", files / "sub")
        os.rename(files / "common-gone", files / "common")
        assert main(["compare", "sub/x.toml", "backgammon", "--games", "30", "--seed", "3",
                     "--dask", cluster.scheduler_address, "--games-out", "dc",
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
    assert [a["variant"] for a in out["arms"]] == ["short-mine", "backgammon"]
    assert (files / "dask.jsonl").read_text() == (files / "local.jsonl").read_text()
    assert (files / "dask.jsonl").read_text().count("\n") == 31      # the header, 30 games
    for name in ("1-short-mine", "2-backgammon"):
        assert (files / f"dc-{name}.jsonl").read_text() == \
            (files / f"lc-{name}.jsonl").read_text()
