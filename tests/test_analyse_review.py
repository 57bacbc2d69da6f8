"""`tablier analyse`: a saved game of any variant reviewed by the project's own players.

Each decision of the player reviewed gets the play made, the reviewer's best, the error (the
best's value less the played one's, by the reviewer) and a mark; each throw its luck (the
value of the best play of the throw got less the average over every throw). The saves are made
here with `tablier play --save` between bots."""
from __future__ import annotations

import json
import math
from importlib.util import find_spec
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.events import Decided
from interpreter.engine.record import Record, replay
from interpreter.errors import TablierError
from interpreter.io.save import read_save, state_of, write_save
from interpreter.review import (MARKS, THRESHOLDS, Review, _quick_luck, mark_of, review)
from interpreter.variant.build import load_variant

#: the saves the tests review: variant, white, black, seed, --max-turns
GAMES = {
    "backgammon": ("backgammon", "greedy", "random", 3, 20),
    "triktrak": ("triktrak", "greedy", "random", 3, 16),
    "trictrac-ecrire": ("trictrac-ecrire", "greedy", "random", 3, 16),
    "tric-trac-12": ("tric-trac-12", "greedy", "random", 3, 16),
    "tabla": ("tabla", "greedy", "random", 3, 16),
}


def _play(tmp: Path, capsys, variant: str, white: str, black: str, seed: int, turns: int,
          *extra: str) -> Path:
    path = tmp / f"{variant}-{white}-{black}-{seed}.toml"
    assert main(["play", variant, "--white", white, "--black", black, "--seed", str(seed),
                 "--max-turns", str(turns), "--save", str(path), *extra]) == 0
    capsys.readouterr()
    return path


class _Lazy(dict):
    """A dict whose values are made when first read."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, Path]:
    """Each game of GAMES played by `tablier play --save` (when first asked for)."""
    tmp = tmp_path_factory.mktemp("saves")

    def make(name: str) -> Path:
        variant, white, black, seed, turns = GAMES[name]
        path = tmp / f"{name}.toml"
        assert main(["play", variant, "--white", white, "--black", black, "--seed", str(seed),
                     "--max-turns", str(turns), "--save", str(path)]) == 0
        return path
    return _Lazy(make)


def _analyse(capsys, *args: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["analyse", *args, "--json", "--max-seconds", "120"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.fixture(scope="module")
def reviewed(saves) -> dict[str, dict]:
    """Each save reviewed by `tablier analyse --json` (by the strongest player of each)."""
    import contextlib
    import io

    def make(name: str) -> dict:
        path = saves[name]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["analyse", str(path), "--json", "--max-seconds", "120"]) == 0
        return json.loads(buf.getvalue())
    return _Lazy(make)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_saved_game_of_each_variant_is_reviewed(reviewed, name):
    from interpreter.players.hint import strongest_kind

    got = reviewed[name]
    assert got["by"] == strongest_kind(load_variant(GAMES[name][0]))
    assert {"players", "decisions", "unit", "by", "throws", "partial"} <= set(got)
    assert got["partial"] is None
    assert set(got["players"]) == {"white", "black"}
    for totals in got["players"].values():
        assert {"mean_error", "decisions", "errors", "luck", "marks"} <= set(totals)
        assert math.isfinite(totals["luck"]) and totals["mean_error"] >= 0
    decisions = got["decisions"]
    assert decisions, "the game has decisions to review"
    for d in decisions:
        assert {"turn", "player", "played", "best", "error", "unit", "mark", "luck",
                "candidates", "by"} <= set(d)
        assert d["error"] >= 0 and math.isfinite(d["error"])
        assert d["mark"] in (None, *MARKS)
        values = [c["value"] for c in d["candidates"]]
        # the best few, best first, the best the one named
        assert values == sorted(values, reverse=True)
        assert d["candidates"][0]["answer"] == d["best"] or d["error"] == 0
        if d["played"] == d["best"]:
            assert d["error"] == 0 and d["mark"] is None
    for p in ("white", "black"):
        mine = [d for d in decisions if d["player"] == p]
        assert got["players"][p]["decisions"] == len(mine)
        assert got["players"][p]["errors"] == [
            {k: d[k] for k in ("turn", "game", "kind", "dice", "played", "best", "error",
                               "mark")} for d in mine if d["mark"] is not None]
        throws = [t for t in got["throws"] if t["player"] == p]
        assert throws and all(math.isfinite(t["luck"]) for t in throws)
        assert got["players"][p]["luck"] == pytest.approx(sum(t["luck"] for t in throws),
                                                          abs=1e-3)


def test_the_backgammon_review_counts_the_cube_decisions_in_points(capsys, saves, reviewed):
    code, got = _analyse(capsys, str(saves["backgammon"]), "--player", "white", "--by",
                         "learned")
    assert code == 0
    assert got["unit"] == "points" and set(got["players"]) == {"white"}
    kinds = {d["kind"] for d in got["decisions"]}
    # greedy doubles: its cube questions are decisions as its plays are
    assert {"play", "double"} <= kinds
    assert all(d["player"] == "white" for d in got["decisions"])
    assert [d["turn"] for d in got["decisions"]] == [
        d["turn"] for d in reviewed["backgammon"]["decisions"] if d["player"] == "white"]
    # the thresholds read backgammon's conventions (errors per unit of the cube)
    assert got["thresholds"] == {"doubtful": 0.04, "bad": 0.08, "very bad": 0.16}


def test_the_reviewers_own_plays_have_no_error(capsys, tmp_path):
    """A game whose white is the self-taught player one throw ahead, reviewed by the same
    player: each of white's answers is its best, at zero error."""
    path = _play(tmp_path, capsys, "backgammon", "learned", "greedy", 5, 30)
    code, got = _analyse(capsys, str(path), "--player", "white", "--by", "learned")
    assert code == 0 and got["by"] == "learned"
    assert got["players"]["white"]["decisions"] > 5
    assert all(d["error"] == 0 and d["played"] == d["best"] and d["mark"] is None
               for d in got["decisions"])
    assert got["players"]["white"]["mean_error"] == 0


class _Person:
    kind = "human"


def _save_with_answer(path: Path, out: Path, pick) -> tuple[str, float, float]:
    """The save at `path` cut at its first play decision with more than a few answers, that
    decision answered by `pick(ranking)` instead: written to `out`, a save as `play --save`
    writes one. (The played answer's text, its value and the best's.)"""
    from interpreter.players.hint import ranking

    data, record = read_save(path)
    variant = load_variant(record.variant, list(record.options))
    for k, e in enumerate(record.entries):
        if not (isinstance(e, Decided) and e.kind == "play"):
            continue
        cut = Record(record.variant, record.seed, record.players, record.doubles,
                     record.options, record.files, list(record.entries[:k]))
        # (a person's game keeps the copies the trictrac family's answers are played on)
        d = replay(cut, variant, players=(_Person(), _Person())).pending
        if d is None or len(d.choices) < 6:
            continue
        r = ranking(d, "learned")
        choice = pick(r)
        entry = Decided(e.side, "play", d.words()[choice.index])
        new = Record(record.variant, record.seed, record.players, record.doubles,
                     record.options, record.files, [*record.entries[:k], entry])
        run = replay(new, variant)
        write_save(out, new, state_of(run.game, run.pending), data["game"].get("notation"))
        return r.choices[0].text, choice.value, r.choices[0].value
    raise AssertionError("no play decision with a choice")


@pytest.mark.parametrize("name", ["backgammon", "triktrak"])
def test_the_play_ranked_last_has_a_positive_error_and_a_mark(capsys, saves, tmp_path, name):
    worst = tmp_path / "worst.toml"
    _best, played, best = _save_with_answer(saves[name], worst, lambda r: r.choices[-1])
    code, got = _analyse(capsys, str(worst), "--by", "learned")
    assert code == 0
    last = got["decisions"][-1]
    assert last["kind"] == "play" and last["played"] != last["best"]
    assert last["error"] == pytest.approx(best - played, abs=1e-3) and last["error"] > 0
    assert last["mark"] == mark_of(last["error"], THRESHOLDS[got["unit"]])
    assert last["mark"] is not None
    # and the same decision answered by the best: no error
    top = tmp_path / "best.toml"
    _save_with_answer(saves[name], top, lambda r: r.choices[0])
    code, got = _analyse(capsys, str(top), "--by", "learned")
    assert got["decisions"][-1]["error"] == 0 and got["decisions"][-1]["mark"] is None


def test_a_throws_luck_averages_zero_over_the_dice():
    """The luck of a throw is its best play's value less the average over every throw: the
    luck of the 21 throws, weighed by their chances, sums to nothing."""
    from interpreter.engine.branch import DICE
    from interpreter.engine.game import Game

    v = load_variant("backgammon")
    game = Game(v, "luck")
    game.ladder.start()
    ladder = game.ladder.state(0)
    lucks = []
    for a, b, w in DICE:
        x = _quick_luck(v, "learned", v.start, (1, 1), ladder, (a, b), 0)
        assert x is not None and math.isfinite(x)
        lucks.append((w, x))
    assert sum(w * x for w, x in lucks) / 36 == pytest.approx(0, abs=1e-9)
    assert max(x for _w, x in lucks) > 0 > min(x for _w, x in lucks)


def test_the_text_fits_eighty_columns(capsys, saves):
    for name in ("backgammon", "tric-trac-12"):
        assert main(["analyse", str(saves[name]), "--max-seconds", "120", "--by",
                     "learned"]) == 0
        text = capsys.readouterr().out
        assert "reviewed by" in text and "mean error" in text and "luck" in text
        assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("content", ["not toml at all [", 'format = 1\nchecksum = "x"\n'])
def test_a_corrupt_save_is_refused_in_one_line(capsys, tmp_path, content):
    bad = tmp_path / "bad.toml"
    bad.write_text(content)
    assert main(["analyse", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.toml" in err and "Traceback" not in err


def test_an_edited_save_is_refused_naming_what_disagrees(capsys, saves, tmp_path):
    text = saves["backgammon"].read_text()
    first = text.index("throws ")
    die = text[first + 7]
    edited = tmp_path / "edited.toml"
    edited.write_text(text[:first + 7] + ("1" if die != "1" else "2") + text[first + 8:])
    assert main(["analyse", str(edited)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "edited.toml" in err and "throw 1" in err


def test_a_reviewer_without_values_and_gnubg_on_a_save_are_bad_command_lines(capsys, saves):
    assert main(["analyse", str(saves["tric-trac-12"]), "--by", "greedy"]) == 2
    assert "gives no values" in capsys.readouterr().err
    assert main(["analyse", str(saves["tric-trac-12"]), "--by", "search:9"]) == 2
    capsys.readouterr()
    assert main(["analyse", str(saves["tric-trac-12"]), "--by", "gnubg"]) == 2
    assert ".mat" in capsys.readouterr().err
    assert main(["analyse", str(saves["tric-trac-12"]), "--player", "nobody"]) == 1
    assert "no player 'nobody'" in capsys.readouterr().err


def test_a_player_is_named_by_side_or_by_kind(saves):
    by_side = review(saves["tric-trac-12"], player="black", by="learned", max_seconds=120)
    by_kind = review(saves["tric-trac-12"], player="random", by="learned", max_seconds=120)
    assert by_side.players == by_kind.players == ["black"]
    assert [d.to_json() for d in by_side.decisions] == [d.to_json() for d in by_kind.decisions]


def test_a_review_out_of_time_is_partial(saves):
    r = review(saves["tric-trac-12"], max_seconds=0.0)
    assert isinstance(r, Review) and r.partial is not None
    assert r.decisions == [] and r.to_json()["partial"]["turn"] >= 1
    assert r.text().startswith("partial review: the 0 s limit was reached")


def test_ranked_gives_the_answers_best_first_with_their_values(saves):
    from interpreter.players.hint import hint, ranked, ranking

    data, record = read_save(saves["backgammon"])
    variant = load_variant(record.variant, list(record.options))
    k = next(k for k, e in enumerate(record.entries)
             if isinstance(e, Decided) and e.kind == "play")
    d = replay(Record(record.variant, record.seed, record.players, record.doubles,
                      record.options, record.files, list(record.entries[:k])), variant).pending
    assert d is not None and d.kind == "play"
    top = ranked(d, top=3)
    assert len(top) == 3 and [v for _t, v in top] == sorted((v for _t, v in top), reverse=True)
    every = ranked(d)
    assert len(every) == len(d.choices) and every[:3] == top
    # the texts are the plays as players write them, each legal
    for text, _v in every:
        assert d.index(text) in range(len(d.choices))
    h = hint(d)
    r = ranking(d)
    assert h.index == r.choices[0].index and r.unit == h.unit == "points"


def test_a_mat_match_is_reviewed_by_the_projects_players(capsys, tmp_path):
    mat = tmp_path / "m.mat"
    assert main(["play", "backgammon", "--set", "ladder.match_length=3", "--white", "greedy",
                 "--black", "learned", "--mat", str(mat), "--seed", "3"]) == 0
    capsys.readouterr()
    code, got = _analyse(capsys, str(mat), "--by", "learned")
    assert code == 0
    assert got["unit"].startswith("match-winning chances")
    black = got["players"]["black"]
    assert black["decisions"] > 10 and black["mean_error"] == 0
    assert got["players"]["white"]["mean_error"] > 0
    assert all(d["kind"] == "play" for d in got["decisions"])


@pytest.mark.slow
@pytest.mark.skipif(find_spec("gnubg") is None, reason="the gnubg module is not installed")
def test_gnubg_still_grades_a_mat_match(capsys, tmp_path):
    mat = tmp_path / "m.mat"
    assert main(["play", "backgammon", "--set", "ladder.match_length=1", "--white", "greedy",
                 "--black", "gnubg", "--mat", str(mat), "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["analyse", str(mat), "--player", "black", "--by", "gnubg", "--json"]) == 0
    black = json.loads(capsys.readouterr().out)
    assert black["mean_error_millipoints"] == 0.0 and black["plays"] > 0
    assert main(["analyse", str(mat), "--by", "gnubg"]) == 2
    assert "--player" in capsys.readouterr().err
    assert main(["analyse", str(mat), "--by", "search:1", "--ply", "1"]) == 2
    capsys.readouterr()


def test_the_review_api_takes_a_save_read_already(saves):
    from interpreter.io.save import read_save_text

    text = saves["tric-trac-12"].read_text()
    r = review(read_save_text(text), player="white", by="learned", max_seconds=120)
    assert r.unit == "game values" and r.players == ["white"]
    assert r.to_json()["players"]["white"]["decisions"] == len(r.decisions)
    with pytest.raises(TablierError):
        review(read_save_text(text.replace("checksum = \"", "checksum = \"0")))


def test_each_game_is_reviewed_in_its_own_unit(reviewed):
    units = {name: reviewed[name]["unit"] for name in GAMES}
    assert units == {"backgammon": "points", "tabla": "points",
                     "triktrak": "partie-winning chances (2 P - 1)",
                     "trictrac-ecrire": "jetons", "tric-trac-12": "game values"}
    for name in GAMES:
        got = reviewed[name]
        assert tuple(got["thresholds"].values()) == THRESHOLDS[got["unit"]]
