"""At the terminal board (INTERFACES.md "At the terminal board"): quit and exit at any prompt,
a goodbye that never contradicts a save just made, a resumed game in its notation, hints and
logs in the chosen notation, the final board as the player sees it, the pip counts of a race,
the real reasons of refusals, a stray `*`, the trictrac players' words and the cube's redouble,
and what is shown before a decision."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

from human_harness import ROOT, Driver

from interpreter.engine.game import Game
from interpreter.players.human import EndOfInput, HumanPlayer, Quit, Session
from interpreter.notation import notation_for
from interpreter.terminal import draw_board, pip_counts
from interpreter.variant.build import load_variant


def _play(args: list[str], lines: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "play", *args],
                          input="\n".join(lines) + "\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env={"NO_COLOR": "1", "PATH": "/usr/bin"})


def _at(variant_id: str, pos: dict, dice: tuple[int, int], overrides: list | None = None):
    """A play decision of white with `dice` on the position `pos` (position JSON, white's
    side), with the variant's legal plays."""
    v = load_variant(variant_id, overrides or [])
    g = Game(v, "x/0", resigns=True)
    gen = g.play()
    next(gen)
    b = v.geometry.from_json(pos, v.move_rules.checkers)
    g.board = g.choice_base = b
    g.dice = dice
    g.mover = 0
    plays, _ = v.generator.plays(b, *dice)
    d = g.ask("play", 0, [p.board for p in plays])
    return v, g, d


def _answer(v, d, lines: list[str], notation: str = "pips") -> tuple[object, str]:
    out = io.StringIO()
    s = Session(v, notation_for(v, notation), inp=io.StringIO("\n".join(lines) + "\n"), out=out,
                echo=True)
    p = HumanPlayer(d.player, s)
    try:
        return p.answer(d), out.getvalue()
    except EndOfInput:
        return None, out.getvalue()


def _points(spec: dict[int, int]) -> list[int]:
    pts = [0] * 24
    for pip, n in spec.items():
        pts[pip - 1] = n
    return pts


# -- quit, exit, the goodbye ----------------------------------------------------------------------

@pytest.mark.parametrize("word", ["quit", "exit", "QUIT"])
def test_quit_and_exit_end_the_game_at_a_play_prompt_and_at_a_decision(word: str) -> None:
    # the first prompt of backgammon is the cube's (a word decision), the next a play
    for script in ([word], ["1", word]):
        r = _play(["backgammon", "--white", "human", "--black", "greedy", "--seed", "3"], script)
        assert r.returncode == 0, r.stderr
        assert "is not an answer here" not in r.stdout and "unreadable play" not in r.stdout
        assert "the game ends here: the game is not saved (no --save FILE)" in r.stdout


def test_quit_saves_to_the_save_file_and_the_game_resumes(tmp_path) -> None:
    save = tmp_path / "g.toml"
    r = _play(["backgammon", "--white", "human", "--black", "greedy", "--seed", "3", "--save",
               str(save)], ["1", "exit"])
    assert r.returncode == 0 and save.exists()
    assert f"the game ends here: the game is saved to {save}" in r.stdout
    again = _play(["--resume", str(save)], ["quit"])
    assert again.returncode == 0 and "resuming" in again.stdout


def test_quit_inside_the_resign_question_ends_the_game() -> None:
    v, g, d = _at("backgammon", {"points": _points({24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5,
                                                    17: -3, 19: -5}),
                                 "bar": [0, 0], "off": [0, 0]}, (6, 1))
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("resign\nquit\n"), out=out, echo=True)
    with pytest.raises(Quit):
        HumanPlayer(0, s).answer(d)


def test_after_save_the_goodbye_says_where_the_game_is_saved(tmp_path) -> None:
    save = tmp_path / "evening.toml"
    r = _play(["backgammon", "--white", "human", "--black", "greedy", "--seed", "3"],
              ["1", f"save {save}", "quit"])
    assert r.returncode == 0
    assert f"saved to {save}; play goes on" in r.stdout
    assert "not saved" not in r.stdout
    assert f"the game ends here: the game is saved to {save}" in r.stdout
    # saved, then played on: the goodbye says the last plays are not in the file
    r = _play(["backgammon", "--white", "human", "--black", "greedy", "--seed", "3"],
              ["1", f"save {save}", "1"])
    assert r.returncode == 0
    tail = r.stdout.strip().splitlines()[-1]
    assert f"saved to {save} before the last plays" in tail
    assert "the game is not saved" not in tail


def test_a_resumed_game_keeps_its_notation(tmp_path) -> None:
    save = tmp_path / "tt.toml"
    r = _play(["triktrak", "--notation", "guiton", "--white", "human", "--black", "greedy",
               "--seed", "3", "--save", str(save)], ["list"])
    assert r.returncode == 0 and " T/5\n" in r.stdout          # T/3/5 as players write it
    again = _play(["--resume", str(save)], ["list", "hint", "quit"])
    assert again.returncode == 0
    assert " T/5\n" in again.stdout and "24/" not in again.stdout
    assert "moving from T towards T'" in again.stdout
    # another notation asked for at the resume wins
    other = _play(["--resume", str(save), "--notation", "lepeintre"], ["list", "quit"])
    assert other.returncode == 0 and "A/" in other.stdout


# -- hints and logs in the notation -----------------------------------------------------------------

def test_the_hint_names_the_best_and_the_next_best_play_in_the_chosen_notation() -> None:
    r = _play(["triktrak", "--notation", "guiton", "--white", "human", "--black", "greedy",
               "--seed", "3"], ["hint", "quit"])
    line = next(x for x in r.stdout.splitlines() if "hint (" in x)
    assert "more than the next best" in line
    assert "24/" not in line and "T/" in line.split("next best")[1], line


def test_the_hint_is_a_legal_play_the_listed_number_of_which_plays_it() -> None:
    r = _play(["backgammon", "--white", "human", "--black", "greedy", "--seed", "3"],
              ["1", "hint", "list", "quit"])
    hint = next(x for x in r.stdout.splitlines() if x.startswith("white play> hint")
                or x.startswith("hint ("))
    hint = next(x for x in r.stdout.splitlines() if x.startswith("hint ("))
    n, text = hint.split(": ", 1)[1].split(" — ")[0].split(". ", 1)
    listed = [x.strip() for x in r.stdout.splitlines() if x.strip().startswith(f"{n}. ")]
    assert listed and listed[0] == f"{n}. {text}"


def test_the_log_writes_the_bar_and_bearing_off_as_the_notation_does() -> None:
    r = _play(["backgammon", "--seed", "3"], [])
    assert r.returncode == 0
    assert "bar/21" in r.stdout and "/off" in r.stdout
    assert "25/" not in r.stdout and "/0 " not in r.stdout and "/0\n" not in r.stdout


def test_the_final_board_is_the_persons_in_the_notation_with_the_pins() -> None:
    r = _play(["triktrak", "--notation", "guiton", "--set", "ladder.holes_to_win=1",
               "--white", "greedy", "--black", "human", "--seed", "3"], ["1"] * 300)
    assert r.returncode == 0
    tail = r.stdout.split("Final position")[1]
    assert "seen by black" in tail and "moving from T towards T'" in tail
    r = _play(["plakoto", "--seed", "3"], [])
    tail = r.stdout.split("Final position")[1]
    assert "x" in tail.split("\n")[2] + tail.split("\n")[3] or "o" in tail   # pins drawn
    assert "X1o" in tail or "O5x" in tail


# -- the board ------------------------------------------------------------------------------------

def test_pip_counts_are_shown_in_a_race_and_not_in_trictrac() -> None:
    v = load_variant("backgammon")
    g = Game(v, "1/0")
    next(g.play())
    assert pip_counts(v, g.board) == (167, 167)
    assert "pips X167 O167" in draw_board(v, g.board, 0, notation_for(v)).plain
    t = load_variant("triktrak")
    gt = Game(t, "1/0")
    next(gt.play())
    assert "pips" not in draw_board(t, gt.board, 0, notation_for(t)).plain


def test_pip_counts_count_the_bar_the_waiting_men_and_the_pinned() -> None:
    v = load_variant("plakoto")
    b = v.geometry.from_json({"points": _points({10: -1, 24: 14, 1: -14}),
                              "pins": {"mine": [10]}, "bar": [0, 0], "off": [0, 0]}, 15)
    # white: 14 on 24 and one pinned on 10; black: 14 on his 24 (white's 1), one on his 15
    assert pip_counts(v, b) == (14 * 24 + 10, 14 * 24 + 15)
    a = load_variant("acey-deucey")
    g = Game(a, "1/0")
    next(g.play())
    assert pip_counts(a, g.board) == (15 * 25, 15 * 25)
    long = load_variant("long-nardy")
    # both heads: the opponent's (his pip 24) is the mover's 12, on the same route
    assert pip_counts(long, long.geometry.start_board({24: 15})) == (15 * 24, 15 * 24)


# -- the reasons of refusals ------------------------------------------------------------------------

START = {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5}


def test_a_checker_on_the_bar_must_enter_first() -> None:
    spec = dict(START)
    spec[24] = 1
    v, g, d = _at("backgammon", {"points": _points(spec), "bar": [1, 0], "off": [0, 0]}, (6, 1))
    got, out = _answer(v, d, ["13/7 8/7", "13/7 bar/24"])
    assert "13/7: a checker on the bar must enter first" in out, out
    assert "no checker of yours" not in out
    assert got == d.index("bar/24 13/7")


def test_a_closed_point_is_named() -> None:
    spec = dict(START)
    spec.update({18: -2, 23: -2, 19: -3, 1: -2, 12: -3})
    v, g, d = _at("backgammon", {"points": _points(spec), "bar": [0, 0], "off": [0, 0]}, (6, 5))
    _got, out = _answer(v, d, ["24/18 24/19", "24/13"])
    assert "24/18: 18 is closed (the opponent holds it with 2 checkers)" in out, out
    assert "24/13: every way there stops on a closed point (19, 18)" in out, out


def test_a_pinned_checker_cannot_move() -> None:
    v, g, d = _at("plakoto", {"points": _points({10: -1, 24: 14, 1: -14}),
                              "pins": {"mine": [10]}, "bar": [0, 0], "off": [0, 0]}, (3, 1))
    _got, out = _answer(v, d, ["10/7 24/23"])
    assert "10/7: your checker on 10 is pinned under the opponent's" in out, out
    assert "no checker of yours on 10" not in out


def test_a_rule_of_the_file_that_forbids_a_play_is_named() -> None:
    v = load_variant("long-nardy")
    for seed in range(500):
        g = Game(v, f"{seed}/0", resigns=True)
        gen = g.play()
        d = next(gen)
        if d.kind == "play" and d.player == 0 and sorted(g.dice) == [2, 5]:
            break
    else:
        raise AssertionError("no seed opens 5-2")
    _got, out = _answer(v, d, ["24/19 24/22"])
    assert "One checker from the head" in out, out


def test_a_stray_star_is_refused_and_a_trailing_star_is_optional() -> None:
    v, g, d = _at("backgammon", {"points": _points(START), "bar": [0, 0], "off": [0, 0]},
                  (6, 1))
    got, out = _answer(v, d, ["13/7* 8/7", "13/7 8/7"])
    assert "nothing is hit on 7" in out
    assert got == d.index("13/7 8/7")
    spec = dict(START)
    spec[7] = -1
    spec[12] = -4
    v, g, d = _at("backgammon", {"points": _points(spec), "bar": [0, 0], "off": [0, 0]}, (6, 1))
    assert _answer(v, d, ["13/7* 8/7"])[0] == d.index("13/7 8/7")
    assert _answer(v, d, ["13/7 8/7"])[0] == d.index("13/7 8/7")


# -- word decisions -------------------------------------------------------------------------------

def _word(variant_id: str, kind: str, choices: tuple, lines: list[str],
          overrides: list | None = None) -> tuple[object, str]:
    v = load_variant(variant_id, overrides or [])
    g = Game(v, "1/0", resigns=True)
    next(g.play())
    d = g.ask(kind, 0, choices)
    return _answer(v, d, lines)


@pytest.mark.parametrize("said,meant", [("tenir", 0), ("s'en aller", 1), ("Tenir", 0),
                                        ("je m'en vais", 1), ("stay", 0), ("go", 1)])
def test_triktrak_tenir_and_s_en_aller_answer_the_go_question(said: str, meant: int) -> None:
    got, out = _word("triktrak", "go", ("stay", "go"), [said])
    assert got == meant, out


def test_redouble_is_offered_only_where_it_is_accepted() -> None:
    got, out = _word("backgammon", "take", ("take", "pass"), ["redouble", "1"])
    assert "redouble" not in out.split("take>")[0]
    assert got == 0 and "'redouble' is not an answer here" in out
    got, out = _word("backgammon", "take", ("take", "pass", "beaver"), ["redouble"],
                     ["ladder.beavers=true"])
    assert "redouble at once" in out and got == 2
    got, _out = _word("backgammon", "take", ("take", "pass", "beaver"), ["beaver"],
                      ["ladder.beavers=true"])
    assert got == 2


def test_a_bot_doubling_before_its_throw_shows_no_throw_of_its_own() -> None:
    """At a take, the dice of the game are the throw before the double: not shown as the
    doubler's."""
    v = load_variant("backgammon")
    g = Game(v, "1/0", resigns=True)
    next(g.play())
    g.mover = 1
    d = g.ask("take", 0, ("take", "pass"))
    _got, out = _answer(v, d, ["1"])
    assert "threw" not in out and "offers the cube" in out
    assert "seen by white, black on roll" in out


def test_acey_deucey_names_its_doublet_with_the_1_2_on_the_board() -> None:
    v = load_variant("acey-deucey")
    for seed in range(3000):
        g = Game(v, f"{seed}/0", resigns=True)
        gen = g.play()
        d = next(gen)
        for _ in range(60):
            if d.kind == "doublet":
                break
            d = gen.send(0)
        if d.kind == "doublet":
            break
    else:
        raise AssertionError("no 1-2 in the games tried")
    base = g.choice_base                    # the board the 1-2 was thrown on
    seen = d.view.board
    after = {p.board for p in v.generator.plays(base, 1, 2)[0]}
    assert seen != base and seen in after
