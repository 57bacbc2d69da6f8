"""A person at the board (`tablier play --white human`), driven through stdin as a pipe would:
every shipped variant played to its end against a bot, with unreadable and illegal entries
refused while the game goes on; saving and resuming; end of input; resigning; the reasons given
for illegal plays."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from human_harness import ROOT, Driver, refusals

from interpreter.engine.game import Game
from interpreter.players.human import EndOfInput, HumanPlayer, Session
from interpreter.notation import notation_for
from interpreter.variant.build import load_variant

#: every shipped variant, shortened where a whole partie would be long
GAMES = {
    "backgammon": ["--notation", "pips"],
    "triktrak-magriel": ["--set", "ladder.holes_to_win=1", "--notation", "magriel"],
    "hypergammon": [],
    "nackgammon": [],
    "triktrak": ["--set", "ladder.holes_to_win=2", "--notation", "guiton"],
    "trictrac-ecrire": ["--set", "ladder.min_marks=4", "--set", "ladder.marks=4",
                        "--notation", "lepeintre"],
    "trictrac-combine": ["--set", "ladder.min_marks=4", "--set", "ladder.marks=4",
                         "--notation", "malfilatre"],
    "tric-trac-12": ["--set", "ladder.match_games=1", "--notation", "pips"],
}
END_WORDS = ("wins", "level partie", "a draw")


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_a_person_plays_every_variant_to_its_end_through_stdin(variant: str) -> None:
    t = Driver([variant.split("-magriel")[0], *GAMES[variant], "--white", "human", "--black",
                "greedy", "--seed", "4"]).run()
    assert t.returncode == 0, t.out[-2000:]
    tail = t.out.strip().splitlines()[-1]
    assert any(w in tail for w in END_WORDS), tail
    refused = refusals(t.out)
    # the unreadable entries and the moves backwards were refused with a reason, and play went on
    assert any("unreadable play 'zz/9'" in r or "'zz'" in r for r in refused), refused[:5]
    assert any("1/24" in r for r in refused), refused[:5]
    assert "hint (search:" in t.out
    assert "Enter a play from/to" in t.out              # help
    assert t.prompts > 10


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["triktrak", "trictrac-ecrire", "trictrac-combine",
                                     "tric-trac-12"])
def test_a_person_plays_a_whole_partie_of_the_default_length(variant: str) -> None:
    t = Driver([variant, "--white", "human", "--black", "greedy", "--seed", "8"],
               timeout=1800).run()
    assert t.returncode == 0, t.out[-2000:]
    assert any(w in t.out.strip().splitlines()[-1] for w in END_WORDS)


@pytest.fixture(autouse=True)
def _wide_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as wide as they come (the tests of what is said read whole lines; the width of
    the terminal has its own tests)."""
    monkeypatch.setenv("COLUMNS", "1000")


def test_a_play_entered_in_parts_is_shown_undone_and_confirmed() -> None:
    t = Driver(["backgammon", "--white", "human", "--black", "greedy", "--seed", "4"]).run()
    assert t.returncode == 0
    assert "(more to play; undo takes back the last part)" in t.out
    assert ": a complete play (ok to play it, undo to change it)" in t.out
    assert "white confirm> ok" in t.out


def _json_tail(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("variant,extra", [
    ("backgammon", []),
    ("triktrak", ["--set", "ladder.holes_to_win=2", "--notation", "guiton"]),
])
def test_save_then_resume_continues_the_same_game(tmp_path, variant: str, extra: list) -> None:
    """The game stopped by end of input (saved to --save) and resumed, answered the same way,
    ends as the game played in one sitting."""
    common = [*extra, "--white", "human", "--black", "greedy"]
    whole = Driver([variant, *common, "--seed", "11", "--json"], simple=True).run()
    assert whole.returncode == 0
    save = tmp_path / "game.toml"
    first = Driver([variant, *common, "--seed", "11", "--save", str(save)],
                   stop_after=10, simple=True).run()
    assert first.returncode == 0
    assert f"input ended: the game is saved to {save}" in first.out
    # a save made at a prompt goes on as well
    second = Driver(["--resume", str(save), "--json", "--white", "human"], simple=True).run()
    assert second.returncode == 0, second.out[-1500:]
    assert "resuming" in second.out
    a, b = _json_tail(whole.out), _json_tail(second.out)
    assert (a["winner"], a["score"], a["turns"]) == (b["winner"], b["score"], b["turns"])


def test_save_at_a_prompt_writes_a_game_that_resumes(tmp_path) -> None:
    save = tmp_path / "evening.toml"
    t = Driver(["backgammon", "--white", "human", "--black", "greedy", "--seed", "2"],
               script=["1", f"save {save}"], stop_after=2).run()
    assert t.returncode == 0
    assert f"saved to {save}; play goes on" in t.out
    # the goodbye does not contradict the save just made
    assert "the game is not saved" not in t.out
    again = Driver(["--resume", str(save), "--white", "human"], stop_after=0).run()
    assert again.returncode == 0 and "resuming" in again.out


def test_end_of_input_at_the_first_prompt_exits_0_and_saves(tmp_path) -> None:
    save = tmp_path / "g.toml"
    t = Driver(["triktrak", "--white", "human", "--seed", "3", "--save", str(save)],
               stop_after=0).run()
    assert t.returncode == 0 and save.exists()
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", "--resume", str(save),
                        "--white", "greedy", "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["finished"] is True


def test_a_person_without_a_seed_is_given_one_and_told() -> None:
    t = Driver(["backgammon", "--white", "human"], stop_after=0).run()
    assert t.returncode == 0
    assert "plays the same dice again)" in t.out


def test_resigning_a_backgammon_game_offers_a_value_the_bot_judges() -> None:
    t = Driver(["backgammon", "--white", "human", "--black", "greedy", "--seed", "4"],
               script=["1", "resign", "3"]).run()
    assert t.returncode == 0
    # a backgammon offered at the start is more than the bot expects: it accepts
    assert "white resigns (backgammon)" in t.out or "declines" in t.out
    assert "black wins" in t.out


def test_resigning_the_points_games_concedes_them() -> None:
    t = Driver(["triktrak", "--white", "human", "--black", "greedy", "--seed", "4", "--json"],
               script=["list", "resign"]).run()
    assert t.returncode == 0
    summary = _json_tail(t.out)
    assert summary["winner"] == "black" and summary["finished"] is True


def test_two_persons_at_one_screen_each_see_the_board_from_their_side() -> None:
    t = Driver(["hypergammon", "--white", "human", "--black", "human", "--seed", "5"],
               stop_after=8).run()
    assert t.returncode == 0
    assert "white on roll, moving from 24" in t.out and "black on roll, moving from 24" in t.out


# -- the reasons given for illegal entries, in process --------------------------------------------

def _decision(variant_id: str, dice: tuple[int, int], overrides: list | None = None):
    """The first play decision of white with `dice` at his opening throw (a seed found by
    search), in a game kept with its record."""
    v = load_variant(variant_id, overrides or [])
    for seed in range(2000):
        g = Game(v, f"{seed}/0", resigns=True)
        gen = g.play()
        d = next(gen)
        if d.kind == "play" and d.player == 0 and g.dice == dice and g.turns == 1:
            return v, g, gen, d
    raise AssertionError("no seed opens so")


def _answer(v, d, lines: list[str], notation: str = "pips") -> tuple[object, str]:
    out = io.StringIO()
    s = Session(v, notation_for(v, notation), inp=io.StringIO("\n".join(lines) + "\n"), out=out,
                echo=True)
    p = HumanPlayer(0, s)
    try:
        return p.answer(d), out.getvalue()
    except EndOfInput:
        return None, out.getvalue()


def test_a_move_no_checker_can_make_is_named_with_the_dice() -> None:
    v, g, gen, d = _decision("backgammon", (6, 1))
    got, out = _answer(v, d, ["24/16", "24/17", "13/7 13/7", "13/7 8/7"])
    assert "24/16: no checker of yours can move 8 from 24 with 6-1" in out
    # 7 is both numbers, and both ways end on the opponent's 8-point: the fault is the point
    assert "24/17: 17 is closed (the opponent holds it with 3 checkers)" in out
    assert "13/7 13/7: the 6 is used twice" in out
    assert got == d.index("13/7 8/7")


def test_a_play_that_leaves_a_number_unplayed_is_refused_for_it() -> None:
    v, g, gen, d = _decision("backgammon", (6, 1))
    got, out = _answer(v, d, ["13/7", "ok"])
    assert got is None                  # a part: asked for more, never played
    assert "entered 13/7 (more to play" in out


def test_trictrac_must_fill_is_named_when_a_play_avoids_filling() -> None:
    """A position where one play fills the petit jan: any other is refused naming the rule."""
    from interpreter.kernel.board import from_json

    v = load_variant("triktrak")
    g = Game(v, "x/0", resigns=True)
    gen = g.play()
    next(gen)
    # the mover's petit jan (pips 19-24) one checker short of full: 6-1 fills it from 20
    points = [0] * 24
    for pip, n in {24: 5, 23: 2, 22: 2, 21: 2, 20: 3, 19: 1}.items():
        points[pip - 1] = n
    points[0] = -15
    b = from_json({"points": points, "bar": [0, 0], "off": [0, 0]}, 15)
    plays, _ = v.generator.plays(b, 6, 1)
    g.board = g.choice_base = b
    g.dice = (6, 1)
    g.mover = 0
    from interpreter.dsl import RollContext
    from functools import partial

    ctx = RollContext(partial(v.generator.plays, b, 6, 1), setup=1)
    kept = v.rules.prefer_plays(b, ctx.plays, 6, 1, 5, ctx)
    assert 1 < len(plays) and len(kept) < len(plays)
    d = g.ask("play", 0, [p[0] for p in kept])
    g._choice_plays = list(kept)
    dropped = next(p for p in plays if p.board not in {k[0] for k in kept})
    text = notation_for(v).play_text(b, dropped.paths[0], 0)
    _got, out = _answer(v, d, [text])
    assert "Must fill" in out, out[-600:]


def test_an_entry_in_the_chosen_notation_is_read_in_it() -> None:
    v, g, gen, d = _decision("triktrak", (6, 2))
    got, out = _answer(v, d, ["T/6 T/2"], notation="guiton")
    assert got == d.index("24/18 24/22"), out[-400:]


def test_draw_names_the_points_and_refuses_a_notation_the_variant_has_no_meaning_for() -> None:
    pos = json.dumps({"variant": "triktrak", "points": [-15] + [0] * 22 + [15]})
    r = subprocess.run([sys.executable, "-m", "interpreter", "draw", "--notation", "guiton"],
                       input=pos, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "coin de repos 11, 11'" in r.stdout and "X15" in r.stdout
    r = subprocess.run([sys.executable, "-m", "interpreter", "draw", "--notation", "guiton"],
                       input=json.dumps({"points": [0] * 24}), cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert "'backgammon' has no 'guiton' notation; it has pips" in r.stderr
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", "backgammon", "--notation",
                        "lepeintre"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2


class _WrongMarker(Driver):
    """Marks one point too many each time (par trop), then accepts the counts shown."""

    wrong = 0

    def decide(self, kind: str, screen: str, listed: list[str]) -> tuple[str, list[str]]:
        if kind == "mark" and self.wrong < 3:
            import re

            due = int(re.findall(r"the throw gives you (\d+)", screen)[-1])
            self.wrong += 1
            return str(due + 1), []
        if kind == "play":
            return "1", []
        return super().decide(kind, screen, listed)


def test_schools_a_wrong_count_is_sent_to_school_and_marked_for_the_opponent() -> None:
    t = _WrongMarker(["triktrak", "--set", 'options.schools="on"', "--set",
                      "ladder.holes_to_win=4", "--white", "human", "--black", "greedy",
                      "--seed", "6"]).run()
    assert t.returncode == 0, t.out[-1500:]
    assert "white mark> " in t.out
    assert "school: black marks 1 for white's over-marking" in t.out


def test_schools_are_off_by_default_and_never_asked() -> None:
    t = Driver(["triktrak", "--set", "ladder.holes_to_win=1", "--white", "human", "--black",
                "greedy", "--seed", "4"], simple=True).run()
    assert t.returncode == 0 and "mark> " not in t.out


def test_two_persons_a_resignation_is_put_to_the_other_who_may_decline() -> None:
    v = load_variant("hypergammon")
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("resign single\nresign\ndecline\n"),
                out=out, echo=True)
    players = [HumanPlayer(0, s), HumanPlayer(1, s)]
    g = Game(v, "2/0", resigns=True, doubles=(True, True))
    with pytest.raises(EndOfInput) as stop:
        g.run(players)
    text = out.getvalue()
    # the one asked may not resign a resignation; he declines it, and play goes on
    assert "resign> resign\n'resign' is not an answer here" in text
    assert "declines the resignation (single): play goes on" in text
    assert stop.value.decision.kind != "resign"


# -- hint all: the best answers ranked with their values ------------------------------------------

def _table(out: str, after: str) -> list[tuple[int, str, float, str]]:
    """The rows (list number, play, value, what it gives up) of the first hint table after the
    line `after`."""
    lines = out[out.index(after):].splitlines()
    start = next(i for i, x in enumerate(lines) if "# is the number in list" in x)
    rows = []
    for line in lines[start + 1:]:
        if not line.lstrip().startswith("#"):
            break
        num, rest = line.split(None, 1)
        *play, value, gives = rest.split()
        rows.append((int(num[1:]), " ".join(play), float(value), gives))
    return rows


def test_hint_all_ranks_ten_plays_with_their_values_in_80_columns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    v, g, gen, d = _decision("backgammon", (6, 1))
    got, out = _answer(v, d, ["list", "hint all", "13/7 8/7"])
    assert got == d.index("13/7 8/7")
    assert all(len(line) <= 80 for line in out.splitlines()), out
    rows = _table(out, "white play> hint all")
    listed = {int(m.group(1)): m.group(2) for m in
              (re.match(r"^\s*(\d+)\. (.+)$", x) for x in out.splitlines()) if m}
    # ten plays of the opening 6-1, each with its number in `list`, best first
    assert len(rows) == min(10, len(d.choices)) and len({r[1] for r in rows}) == len(rows)
    assert all(listed[n] == play for n, play, _v, _g in rows)
    values = [r[2] for r in rows]
    assert values == sorted(values, reverse=True)
    assert rows[0][3] == "best"
    for _n, _p, value, gives in rows[1:]:
        assert float(gives) == pytest.approx(value - values[0], abs=0.0011)
    # the best is the hint's, named on its first line, and it is the point-making play
    first = next(x for x in out.splitlines() if x.startswith("hint ("))
    assert f"{rows[0][0]}. {rows[0][1]}" in first and rows[0][1] == "13/7 8/7"
    assert "all 10 plays (points for you; # is the number in list):" in out


def test_hint_shows_the_best_play_then_five_and_hint_n_the_n_best(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    v, g, gen, d = _decision("backgammon", (6, 1))
    got, out = _answer(v, d, ["hint", "hint 3", "hint three", "help", "13/7 8/7"])
    assert len(_table(out, "white play> hint\n")) == 5
    assert len(_table(out, "white play> hint 3")) == 3
    assert "hint three: hint alone shows the 5 best answers, hint all up to 10, hint N the " \
           "N best" in " ".join(out.split())
    assert "hint all: up to 10" in out          # help lists it
    assert got == d.index("13/7 8/7")


def _cube_decision(kind: str):
    """A money game of backgammon played by random plays until White is asked `kind` (the
    cube's question before his throw, or Black's double)."""
    import random

    v = load_variant("backgammon")
    g = Game(v, "7/0", resigns=True)
    g.branching = True
    gen = g.play()
    d = next(gen)
    rng = random.Random(1)
    while not (d.kind == "double" and g.turns > 6 and d.player == 0):
        d = gen.send(0 if d.kind in ("double", "take") else rng.randrange(len(d.choices)))
    if kind == "take":
        d = gen.send(d.choices.index("double"))
    return v, d


def test_hint_at_the_cube_gives_no_double_double_take_and_double_pass() -> None:
    from interpreter.players.hint import cube_numbers, ranking

    v, d = _cube_decision("double")
    got, out = _answer(v, d, ["hint", "roll"])
    assert got == 0
    line = " ".join(out[out.index("the cube, in points:"):].split("\n  Before")[0].split())
    numbers = dict(cube_numbers(d))
    assert list(numbers) == ["no double", "double/take", "double/pass"]
    for word, value in numbers.items():
        assert f"{word} {value:+.3f}" in line
    assert numbers["double/pass"] == pytest.approx(1.0)
    # doubling is worth what the opponent's better answer leaves the doubler
    r = {c.text: c.value for c in ranking(d).choices}
    assert r["double"] == pytest.approx(min(numbers["double/take"], numbers["double/pass"]))
    assert r["roll"] == pytest.approx(numbers["no double"])
    right = "double, take" if r["double"] > r["roll"] else "no double, take"
    assert f"right: {right}" in line


def test_hint_at_a_take_values_taking_and_passing() -> None:
    v, d = _cube_decision("take")
    assert d.kind == "take" and d.player == 1
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("hint\ntake\n"), out=out, echo=True)
    assert HumanPlayer(1, s).answer(d) == 0
    text = out.getvalue()
    assert "all 2 answers (points for the opponent):" not in text
    rows = text[text.index("all 2 answers"):].splitlines()[1:3]
    words = [r.split()[0] for r in rows]
    assert sorted(words) == ["pass", "take"]
    # passing loses the cube's value, one point
    assert any(r.split()[:2] == ["pass", "-1.000"] for r in rows)
