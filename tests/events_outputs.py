"""What a seeded game writes out from its log and record: the text log and summary of `tablier
play`, its save, its `.mat` record (a match of the `cube` ladder), its `tablier sheet` record (a
partie à écrire or combiné), the log by the rules' names (the web board's), and the throws read
from the log. `python tests/events_outputs.py` writes them to tests/data/events/outputs.json: in
full for the games of `WHOLE`, as sha256 digests for the others."""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

from interpreter.cli import main
from interpreter.io.mat import write_mat
from interpreter.io.played import match_record, sheet_record, sheet_events
from interpreter.render import LogWriter
from interpreter.runner import play_game
from interpreter.variant.build import load_variant

FIXTURE = Path(__file__).parent / "data" / "events" / "outputs.json"

#: (variant, seed, white, black, --set options)
GAMES = (
    ("backgammon", 1, "greedy", "greedy", ("ladder.match_length=5",)),
    ("backgammon", 11, "greedy", "random", ("ladder.beavers=true", "ladder.auto_doubles=1")),
    ("triktrak", 1, "greedy", "random", ()),
    ("triktrak", 2, "greedy", "greedy", ('options.schools="on"',)),
    ("trictrac-ecrire", 1, "greedy", "random", ()),
    ("trictrac-ecrire", 2, "greedy", "greedy", ("ladder.strict_marker_claims=true",)),
    ("trictrac-combine", 2, "random", "greedy", ()),
    ("tric-trac-12", 1, "greedy", "random", ()),
    ("tric-trac-12", 2, "random", "random", ()),
    ("tabla-match", 1, "greedy", "random", ()),
    ("tavli", 3, "random", "greedy", ()),
    ("acey-deucey", 1, "greedy", "greedy", ()),
    ("gul-bara", 1, "random", "random", ('options.gb_progression_rest="opponent"',)),
    ("long-nardy", 1, "greedy", "random", ()),
    ("plakoto", 13, "random", "random", ()),
    ("triktrak", 1, "random", "greedy", ('options.schools="on"',)),
)


#: the games whose outputs the fixture holds in full
WHOLE = (GAMES[0], GAMES[3])


def key(game: tuple) -> str:
    variant, seed, white, black, sets = game
    return " ".join([variant, str(seed), white, black, *sets])


def outputs(game: tuple) -> dict:
    """Everything the game writes out, as text and plain data."""
    variant_id, seed, white, black, sets = game
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        save, mat = Path(tmp) / "game.toml", Path(tmp) / "game.mat"
        args = ["play", variant_id, "--seed", str(seed), "--white", white, "--black", black,
                "--save", str(save)]
        for s in sets:
            args += ["--set", s]
        cube = variant_id in ("backgammon", "long-nardy")
        if cube:
            args += ["--mat", str(mat)]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(args) == 0
            assert main(args + ["--json"]) == 0
        out["play"] = buf.getvalue().replace(tmp, "TMP")
        out["save"] = save.read_text(encoding="utf-8").replace(tmp, "TMP")
        if cube:
            out["mat"] = mat.read_text(encoding="utf-8")
    v = load_variant(variant_id, sets)
    result = play_game(v, seed, 0, white, black, keep_record=True)
    w = LogWriter(v, rule_names=True)
    out["named_log"] = w.feed(result.log) + w.close()
    w = LogWriter(v, marks_only=True)
    out["marks_log"] = w.feed(result.log) + w.close()
    out["sheet_events"] = sheet_events(result.log)
    if result.ledger is not None or result.combine is not None:
        out["sheet"] = sheet_record(v, result)
    if variant_id == "backgammon":
        out["mat_api"] = write_mat(match_record(v, result))
    out["throws"] = [{"player": t.player, "dice": list(t.dice), "before": list(t.before),
                      "board": list(t.board), "items": [list(i) for i in t.items],
                      "decisions": [list(d) for d in t.decisions], "decision": t.decision,
                      "went": t.went, "events": len(t.events)} for t in result.throws()]
    out["log_length"] = len(result.log)
    out["record_length"] = len(result.entries)
    return out


def digest(x: object) -> str:
    return hashlib.sha256(json.dumps(x, ensure_ascii=False).encode("utf-8")).hexdigest()


def fixture_of(game: tuple) -> dict:
    """The game's outputs as the fixture holds them."""
    out = outputs(game)
    return out if game in WHOLE else {k: digest(x) for k, x in out.items()}


def all_outputs() -> dict:
    return {key(g): fixture_of(g) for g in GAMES}


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(all_outputs(), indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    sys.exit(0)
