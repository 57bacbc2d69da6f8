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


@pytest.fixture(autouse=True)
def _wide_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as wide as they come (the tests of what is said read whole lines; the width of
    the terminal has its own tests)."""
    monkeypatch.setenv("COLUMNS", "1000")


def _play(args: list[str], lines: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "play", *args],
                          input="\n".join(lines) + "\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout,
                          env={"NO_COLOR": "1", "PATH": "/usr/bin", "COLUMNS": "1000"})


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


# -- hints and logs in the notation ----------------------------------------------------------------

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


# -- the reasons of refusals -----------------------------------------------------------------------

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
    # the rule is the fault, not the mark of a hit where there is none
    _got, out = _answer(v, d, ["24/19* 24/22"])
    assert "One checker from the head" in out and "nothing is hit" not in out, out


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


def test_the_first_real_fault_is_named_before_a_wrong_hit_mark() -> None:
    """Each move in turn: no checker on its point, a checker on the bar to enter first, a
    closed point, a number not thrown; a `*` where nothing is hit comes last."""
    spec = dict(START)
    spec[24] = 1                                    # one of white's on the bar
    v, g, d = _at("backgammon", {"points": _points(spec), "bar": [1, 0], "off": [0, 0]}, (5, 4))
    _got, out = _answer(v, d, ["bar/20 5/1*", "13/9* 8/3", "bar/22* 13/9", "bar/20* 13/9"])
    assert "5/1: no checker of yours on 5" in out, out
    assert "13/9: a checker on the bar must enter first" in out, out
    assert "bar/22: no checker of yours can move 3 from bar with 5-4" in out, out
    # the play is legal but for its mark: then the mark is the fault
    assert "bar/20* 13/9: nothing is hit on 20" in out, out
    assert out.count("nothing is hit") == 1
    v, g, d = _at("backgammon", {"points": _points(spec), "bar": [1, 0], "off": [0, 0]}, (6, 4))
    _got, out = _answer(v, d, ["bar/19* bar/21"])
    assert "bar/19: 19 is closed (the opponent holds it with 5 checkers)" in out, out


def test_a_pinned_checker_is_named_before_a_wrong_hit_mark() -> None:
    v, g, d = _at("plakoto", {"points": _points({10: -1, 24: 14, 1: -14}),
                              "pins": {"mine": [10]}, "bar": [0, 0], "off": [0, 0]}, (3, 1))
    _got, out = _answer(v, d, ["10/7* 24/23"])
    assert "10/7: your checker on 10 is pinned" in out and "nothing is hit" not in out, out


def test_trictrac_a_move_from_an_empty_point_is_named_before_a_wrong_hit_mark() -> None:
    v, g, d = _at("triktrak", {"points": [-15] + [0] * 22 + [15], "bar": [0, 0],
                               "off": [0, 0]}, (6, 1))
    _got, out = _answer(v, d, ["13/7* 24/23"])
    assert "13/7: no checker of yours on 13" in out and "nothing is hit" not in out, out
    # in Guiton's notation: the talon is T, the mover's pip 13 his coin de repos, 11
    _got, out = _answer(v, d, ["11/5'* T/1"], notation="guiton")
    assert "11/5': no checker of yours on 11" in out and "nothing is hit" not in out, out


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


# -- the cube, offered only where it lives ---------------------------------------------------------

from interpreter.scoring.cube import Cube, CubeLadder, Match, dead_cube  # noqa: E402


def test_the_crawford_game_and_the_post_crawford_leader_have_a_dead_cube() -> None:
    m = Match(CubeLadder(match_length=3))
    c = m.new_game()
    assert dead_cube(m, c, 0) is None and dead_cube(m, c, 1) is None
    m.finish(c, 0, 2, 1, "play")                     # 2-0: the next game is the Crawford game
    c = m.new_game()
    assert dead_cube(m, c, 0) == dead_cube(m, c, 1) == "the Crawford game: nobody may double"
    m.finish(c, 1, 1, 1, "play")                     # 2-1, post-Crawford
    c = m.new_game()
    assert dead_cube(m, c, 0) == "post-Crawford, 1 point away: any game won wins the match"
    assert dead_cube(m, c, 1) is None                # the trailer doubles at once


def test_a_cube_at_what_the_doubler_needs_is_dead_for_him_alone() -> None:
    m = Match(CubeLadder(match_length=5))
    c = m.new_game()
    c.value, c.owner = 4, 0                          # white owns 4, needs 5: a redouble lives
    assert dead_cube(m, c, 0) is None
    m.score = [1, 0]                                 # white needs 4: owned past what he needs
    assert dead_cube(m, c, 0) == "4 points away with the cube at 4: any game won wins the match"
    assert dead_cube(m, c, 1) == "the opponent owns the cube"
    c.owner = None
    c.value = 2
    m.score = [3, 0]                                 # the cube's value already wins for white
    assert dead_cube(m, c, 0) == "2 points away with the cube at 2: any game won wins the match"
    assert dead_cube(m, c, 1) is None                # black needs 5: his double lives


def test_money_play_the_cube_dies_only_at_its_cap() -> None:
    m = Match(CubeLadder())
    c = Cube(CubeLadder())
    assert dead_cube(m, c, 0) is None
    c.value, c.owner = 64, 0
    assert dead_cube(m, c, 0) == "the cube is at its highest (64)"


def _person_against_a_bot(score: tuple[int, int], lines: list[str]) -> str:
    """White a person, black greedy, in a 3-point match set to `score` after the opening."""
    from interpreter.players.bots import GreedyBot

    v = load_variant("backgammon", ["ladder.match_length=3"])
    g = Game(v, "4/0", resigns=True, doubles=(True, True))
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("\n".join(lines) + "\n"), out=out,
                echo=True)
    players = [HumanPlayer(0, s), GreedyBot(7)]
    gen = g.play()
    d = next(gen)
    g.ladder.match.score[:] = score
    try:
        while True:
            d = gen.send(players[d.player].answer(d))
    except (EndOfInput, StopIteration):
        pass
    return out.getvalue()


def test_a_person_is_not_offered_a_dead_cube_and_is_told_why_once() -> None:
    out = _person_against_a_bot((2, 0), ["1"] * 8)
    assert "white double>" not in out
    assert out.count("(no cube offered: 1 point away with the cube at 1: any game won wins "
                     "the match)") == 1, out
    live = _person_against_a_bot((0, 0), ["1"] * 8)
    assert "white double>" in live and "no cube offered" not in live


# -- the width of the terminal ---------------------------------------------------------------------

#: short games for the default suite; the whole ones are `slow`
NARROW = {
    "backgammon": ["--set", "ladder.match_length=1", "--seed", "6"],
    "triktrak": ["--set", "ladder.holes_to_win=3", "--seed", "3", "--notation", "guiton"],
    "trictrac-ecrire": ["--set", "ladder.min_marks=4", "--set", "ladder.marks=4", "--seed", "9"],
    "tric-trac-12": ["--set", "ladder.match_games=1", "--seed", "4"],
}
WHOLE = {
    "backgammon": ["--set", "ladder.match_length=3", "--seed", "6"],
    "triktrak": ["--seed", "3", "--notation", "lepeintre"],
    "trictrac-ecrire": ["--seed", "9", "--notation", "malfilatre"],
    "tric-trac-12": ["--seed", "4"],
    "tabla": ["--seed", "2"],
}
#: the commands a person tries at the first prompts, so that their answers are measured too
TRIED = ["help", "list", "board", "zz/9", "24/1*"]


def _at_width(variant: str, args: list[str], columns: int, tried: list[str] = TRIED) -> str:
    from concurrent.futures import ThreadPoolExecutor

    def run(cols: int) -> str:
        t = Driver([variant, *args, "--white", "human", "--black", "greedy"], script=list(tried),
                   simple=True, timeout=600, env={"COLUMNS": str(cols)}).run()
        assert t.returncode == 0, t.out[-2000:]
        return t.out

    with ThreadPoolExecutor(2) as pool:
        narrow, wide = pool.map(run, (columns, 1000))
    too_long = [line for line in narrow.splitlines() if len(line) > columns]
    assert not too_long, "\n".join(too_long[:5])
    # the same words in the same order: nothing cut, nothing lost, only the lines broken
    assert narrow.split() == wide.split()
    assert any(len(line) > columns for line in wide.splitlines())   # there was wrapping to do
    return narrow


@pytest.mark.parametrize("variant", sorted(NARROW))
def test_every_line_of_a_game_fits_80_columns_without_a_word_cut(variant: str) -> None:
    out = _at_width(variant, NARROW[variant], 80)
    assert "wins" in out.splitlines()[-1] or "level partie" in out.splitlines()[-1]


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(WHOLE))
def test_every_line_of_a_whole_game_fits_80_columns(variant: str) -> None:
    _at_width(variant, WHOLE[variant], 80, ["hint", *TRIED])


def test_the_board_and_its_legend_fit_a_narrow_terminal() -> None:
    for variant_id, notation in (("triktrak", "guiton"), ("backgammon", "pips"),
                                 ("tric-trac-12", "pips"), ("acey-deucey", "pips")):
        v = load_variant(variant_id)
        g = Game(v, "1/0")
        next(g.play())
        for width in (80, 60, 50):      # the rows of points take 50 columns
            text = draw_board(v, g.board, 0, notation_for(v, notation), width=width).plain
            assert all(len(line) <= width for line in text.splitlines()), (variant_id, text)
            wide = draw_board(v, g.board, 0, notation_for(v, notation), width=1000).plain
            assert text.split() == wide.split()


def test_the_score_is_shown_after_the_throw_and_what_it_scored() -> None:
    """The throw, then its scoring rule by rule, then the score it leaves."""
    t = Driver(["trictrac-ecrire", "--set", "ladder.min_marks=4", "--set", "ladder.marks=4",
                "--white", "human", "--black", "greedy", "--seed", "9"], simple=True,
               stop_after=20).run()
    lines = t.out.splitlines()
    throws = [i for i, line in enumerate(lines) if line.startswith("white threw")]
    assert throws
    scored = 0
    for i in throws:
        assert not lines[i - 1].startswith(("points:", "mark ")), lines[i - 3:i + 3]
        if lines[i + 1].startswith("white play> "):
            continue                # after the go question: the throw recalled, nothing new
        j = i + 1
        while lines[j].startswith("  "):            # what the throw scored, rule by rule
            scored += 1
            j += 1
        assert lines[j].startswith("points: you"), lines[i:j + 2]
        assert lines[j + 1].startswith("mark ")
    assert scored, "no throw of white's scored: pick another seed"


def test_after_the_roll_the_same_board_is_not_drawn_again() -> None:
    live = _person_against_a_bot((0, 0), ["1"] * 8)
    after = live.split("white double> 1\n")[1]
    assert after.startswith("white threw "), after[:300]
