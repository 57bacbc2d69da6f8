"""The built variants kept in the user's cache for `tablier moves` and `tablier score`
(interpreter/variant/stored.py): the same answers as the variant built from its file, for every
built-in variant; never trusted beyond what the program itself writes."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from interpreter.analysis import legal_results, roll_score
from interpreter.errors import TablierError
from interpreter.variant import stored
from interpreter.variant.build import load_variant as _load_variant
from interpreter.variant.loader import builtin_ids

ROOT = Path(__file__).resolve().parent.parent
#: each built-in variant built once for the module
load_variant = cache(_load_variant)


def _positions(variant, seed: int, count: int) -> list[dict]:
    """Positions of a random game of `variant`, each with a throw (seen by the mover)."""
    rng = random.Random(seed)
    b = variant.start
    out: list[dict] = []
    rolls = 1
    for _ in range(count):
        dice = [rng.randint(1, 6) for _ in range(variant.dice_count)]
        out.append({**variant.geometry.to_json(b), "dice": dice, "rolls": rolls})
        plays, _unplayed = variant.generator.plays(b, *dice[:2], rolls, *dice[2:])
        if plays:
            b = rng.choice(plays).board
        if variant.rules.game_over(b) is not None:
            b = variant.start
        b = variant.flip(b)
        rolls += 1
    return out


def _answers(variant, positions: list[dict]) -> list[str]:
    out = []
    for pos in positions:
        for ask in (legal_results, roll_score):
            try:
                out.append(json.dumps(ask(variant, pos)))
            except TablierError as exc:
                out.append(f"error: {exc}")
    return out


def _storable_ids() -> list[str]:
    ids = []
    for vid in builtin_ids():
        v = load_variant(vid)
        if not v.games and not v.abstract and not _read_each_time(v):
            ids.append(vid)
    return ids


def _read_each_time(v) -> bool:
    """A variant with a structure the stored entry does not describe (a choice before the
    game, an end judged after each move or on the throw, positions that leave men out): read
    from its file by every command."""
    return bool(v.choices or v.rules.end_move or v.rules.end_throw
                or v.model.board.unplaced != "error")


def test_a_variant_the_entry_cannot_describe_is_refused_and_read_from_its_file():
    for vid in ("doze-canes", "fallas", "todas-tablas"):
        v = load_variant(vid)
        assert _read_each_time(v)
        with pytest.raises(stored._NotStorable):
            stored.describe(v)


def _same_answers(vid: str, count: int) -> None:
    built = load_variant(vid)
    payload = json.loads(json.dumps(stored.describe(built)))
    again = stored.rebuild(payload)
    assert again.model is None          # nothing of the document model is kept
    positions = _positions(built, seed=len(vid), count=count)
    assert _answers(again, positions) == _answers(built, positions)
    assert again.start == built.start and again.move_rules == built.move_rules
    assert again.files == built.files and again.sources == built.sources


@pytest.mark.parametrize("vid", _storable_ids())
def test_every_builtin_variant_gives_the_same_answers_rebuilt_from_its_entry(vid):
    _same_answers(vid, 8)


@pytest.mark.slow
@pytest.mark.parametrize("vid", _storable_ids())
def test_every_builtin_variant_gives_the_same_answers_rebuilt_from_its_entry_long(vid):
    _same_answers(vid, 300)


def test_a_second_load_reads_the_entry_and_a_changed_file_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "mine.toml"
    text = (ROOT / "variants" / "backgammon.toml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    first = stored.position_variant(str(path))
    assert first.model is not None                       # built, then stored
    second = stored.position_variant(str(path))
    assert second.model is None                          # from the entry
    pos = {"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
           "bar": [0, 0], "off": [0, 0], "dice": [6, 6]}
    assert legal_results(second, pos) == legal_results(first, pos)
    # the file changes: its entry no longer holds, the variant is built from the new text
    path.write_text(text.replace('name = "Backgammon"', 'name = "Changed"'), encoding="utf-8")
    third = stored.position_variant(str(path))
    assert third.model is not None and third.name == "Changed"


def _entry(tmp_path) -> Path:
    entries = list((tmp_path / "cache" / "tablier").glob("variant-*.json"))
    assert len(entries) == 1
    return entries[0]


def _rewrite(entry: Path, payload: dict) -> None:
    import hashlib

    body = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    data = json.loads(entry.read_text())
    data["payload"], data["digest"] = body, hashlib.sha256(body.encode()).hexdigest()
    entry.write_text(json.dumps(data))


def test_a_damaged_or_tampered_entry_is_built_again_and_its_code_never_runs(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    stored.position_variant("backgammon")
    entry = _entry(tmp_path)
    good = entry.read_text()
    wrong = json.loads(good)
    wrong["digest"] = "0" + wrong["digest"][1:] if wrong["digest"][0] != "0" else "1"
    for damage in ("", "{", good[: len(good) // 2], json.dumps(wrong)):
        entry.write_text(damage)
        assert stored.position_variant("backgammon").model is not None
        assert stored.position_variant("backgammon").model is None     # stored again
    # a module that is not what the rule compiler writes (digest made to match): refused
    marker = tmp_path / "ran"
    payload = json.loads(json.loads(entry.read_text())["payload"])
    payload["hooks"]["modules"][0] = (f"def hook_0(b, a=None, x=None, d1=0, d2=0, rolls=0, "
                                      f"ctx=None):\n    return open({str(marker)!r}, 'w')")
    _rewrite(entry, payload)
    assert stored.position_variant("backgammon").model is not None
    assert not marker.exists()
    # an entry written for other code or another file (its key) is not read
    stored.position_variant("backgammon")
    data = json.loads(entry.read_text())
    data["key"] = "0" * 64
    entry.write_text(json.dumps(data))
    assert stored.position_variant("backgammon").model is not None
    # an entry others may write is not read
    stored.position_variant("backgammon")
    os.chmod(entry, 0o666)
    assert stored.position_variant("backgammon").model is not None


def test_moves_from_a_stored_variant_imports_neither_pydantic_nor_lark():
    # the user's cache, where the rule parser's tables are kept too: only this code's entry for
    # backgammon is removed first
    place = stored._entry_path("backgammon", [])
    if place is None:
        pytest.skip("no user cache here")
    if os.path.exists(place[0]):
        os.unlink(place[0])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pos = json.dumps({"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5,
                                 0, 0, 0, 0, 2], "bar": [0, 0], "off": [0, 0], "dice": [3, 1]})
    script = ("import sys\nfrom interpreter.cli import main\ncode = main(['moves', 'backgammon'])\n"
              "sys.stderr.write(' '.join(m for m in ('pydantic', 'lark', 'numpy') "
              "if m in sys.modules))\nraise SystemExit(code)\n")
    outs = []
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", script], input=pos, capture_output=True,
                             text=True, env=env, cwd=ROOT, timeout=120)
        assert run.returncode == 0, run.stderr
        outs.append((run.stdout, run.stderr))
    assert outs[0][0] == outs[1][0] and json.loads(outs[1][0])["count"] == 16
    assert "pydantic" in outs[0][1]          # the first run builds the variant
    assert outs[1][1] == ""                  # the second reads it


@pytest.mark.parametrize("command", ["moves", "score"])
def test_a_rotation_asked_for_a_position_names_its_games_without_a_traceback(command: str) -> None:
    position = json.dumps({"points": [0] * 24, "bar": [0, 0], "off": [15, 14], "dice": [3, 1]})
    run = subprocess.run([sys.executable, "-m", "interpreter", command, "tavli"], input=position,
                         capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "tavli plays several games in turn (portes, plakoto, fevga)" in run.stderr
