"""Tourne-case (variants/tourne-case.toml) against a plain second implementation of its rules
(tests/reference_tourne.py, which never imports the interpreter): the worked examples of the
lane by name, through `tablier moves` and the generator's plays, with both readings of the dice;
the same distinct results, play by play, on positions of random play; and whole games through
the turn loop (men conserved, games ending, every play legal, seeds reproducing)."""
from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from budget import scaled
from interpreter.analysis import legal_results
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant
from reference_tourne import Lanes, from_board, from_json, plays

_VARIANTS: dict[str, Any] = {}
DICE = ("lower", "both")


def variant(dice: str = "lower", double: str = "no") -> Any:
    key = f"{dice}/{double}"
    if key not in _VARIANTS:
        _VARIANTS[key] = load_variant("tourne-case", [f'tc_dice="{dice}"',
                                                      f'tc_double="{double}"'])
    return _VARIANTS[key]


def as_json(pos: Lanes, d1: int, d2: int) -> dict:
    """The position JSON of the lanes: the mover's point k on pip 13 - k, the opponent's on the
    mover's pip 12 + k; the unentered men implicit."""
    points = [0] * 24
    for k in pos.mine:
        points[13 - k - 1] += 1
    for k in pos.theirs:
        points[12 + k - 1] -= 1
    return {"points": points, "bar": [0, 0], "off": [0, 0], "dice": [d1, d2]}


def engine_results(v: Any, pos: Lanes, d1: int, d2: int) -> set[Lanes]:
    """The distinct results of `tablier moves` (analysis.legal_results), read as lanes."""
    out = legal_results(v, as_json(pos, d1, d2))
    got = [from_json(r) for r in out["results"]]
    assert len(set(got)) == len(got) == out["count"]
    for r in out["results"]:
        assert r["off"] == [0, 0] and r["bar"] == [0, 0]
        mine, theirs = (Lanes(*from_json(r))).unentered()
        assert r["state"]["unentered"] == [mine, theirs]
    return set(got)


def generator_results(v: Any, pos: Lanes, d1: int, d2: int) -> set[Lanes]:
    """The end boards of the generator's plays, each path applied step by step reaching it."""
    b = v.geometry.from_json(as_json(pos, d1, d2), v.checkers)
    found, unplayed = v.generator.plays(b, d1, d2)
    for play in found:
        for path in play.paths:
            assert v.generator.apply(b, path) == play.board
    return {from_board(p.board) for p in found}


# -- the worked examples -------------------------------------------------------------------------

START = Lanes((), ())


@pytest.mark.parametrize("dice", DICE)
def test_tc1_start_thrown_5_2(dice: str) -> None:
    v = variant(dice)
    expected = {Lanes((2,), ())} if dice == "lower" else {Lanes((7,), ()), Lanes((2, 5), ())}
    assert engine_results(v, START, 5, 2) == expected
    assert generator_results(v, START, 5, 2) == expected
    assert plays(START, 5, 2, dice) == expected


def test_tc1_the_man_on_five_entered_first() -> None:
    """Entering on 2 and then on 5 would pass the man on 2: the only way to {5, 2} enters the
    5 first."""
    v = variant("both")
    b = v.start
    found, unplayed = v.generator.plays(b, 5, 2)
    assert unplayed == 0
    two = [p for p in found if from_board(p.board) == Lanes((2, 5), ())]
    assert len(two) == 1
    assert [[(s.src, s.dst, s.die) for s in path] for path in two[0].paths] == [
        [(29, 8, 5), (29, 11, 2)]]


TC2 = Lanes((1, 3), (4, 6))


@pytest.mark.parametrize("dice", DICE)
def test_tc2_hit_across_the_board(dice: str) -> None:
    v = variant(dice)
    if dice == "lower":
        # the number is 1: 3 -> 4 hits his man on his point 4, or 1 -> 2; no entry (point 1 held)
        expected = {Lanes((1, 4), (6,)), Lanes((2, 3), (4, 6))}
    else:
        expected = plays(TC2, 4, 1, "both")
        # 3 -> 4 -> 8 rests on his point 4 and hits there; 3 -> 7 then 1 -> 2 hits nothing
        assert Lanes((1, 8), (6,)) in expected and Lanes((2, 7), (4, 6)) in expected
    assert engine_results(v, TC2, 4, 1) == expected
    assert generator_results(v, TC2, 4, 1) == expected
    assert plays(TC2, 4, 1, dice) == expected


def test_tc2_through_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(as_json(TC2, 4, 1)) + "\n"))
    assert main(["moves", "tourne-case"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out["count"] == 2
    hit = [r for r in out["results"] if r["points"][8] == 1]
    assert hit and hit[0]["state"]["unentered"] == [1, 2]


def test_men_in_the_rest_corners_are_safe() -> None:
    """His man on his point 12 is not hit by a man arriving on the mover's point 12 (which hits
    nothing), and one number that would pass the corner is not played by that man."""
    v = variant("lower")
    pos = Lanes((9, 11), (12,))
    got = engine_results(v, pos, 1, 3)
    assert got == plays(pos, 1, 3, "lower") == {
        Lanes((9, 12), (12,)), Lanes((10, 11), (12,)), Lanes((1, 9, 11), (12,))}
    # a 2 cannot be played by the man on 11, nor by the man on 9 (it would pass him)
    assert engine_results(v, pos, 2, 2) == {Lanes((2, 9, 11), (12,))}
    full = Lanes((10, 11, 12), ())
    assert engine_results(v, full, 3, 3) == {full}


# -- random positions ----------------------------------------------------------------------------

def walk(dice: str, seed: int, count: int) -> list[tuple[Lanes, int, int]]:
    """Positions and throws met in games played at random under the reference's rules."""
    rng = random.Random(seed)
    out: list[tuple[Lanes, int, int]] = []
    pos = START
    while len(out) < count:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        out.append((pos, d1, d2))
        pos = rng.choice(sorted(plays(pos, d1, d2, dice)))
        pos = START if pos.won() else pos.turned()
    return out


@pytest.mark.parametrize("dice", DICE)
def test_random_positions_agree_with_the_reference(dice: str) -> None:
    v = variant(dice)
    n = scaled(1500, 300)
    agree = hits = several = 0
    for pos, d1, d2 in walk(dice, 11 if dice == "lower" else 12, n):
        ref = plays(pos, d1, d2, dice)
        assert engine_results(v, pos, d1, d2) == ref, (pos, d1, d2)
        assert generator_results(v, pos, d1, d2) == ref, (pos, d1, d2)
        agree += 1
        hits += any(len(r.theirs) < len(pos.theirs) for r in ref)
        several += len(ref) > 1
    assert agree == n
    # the walk meets the rules that matter: hits across the board, real choices
    assert hits > n // 20 and several > n // 4


# -- whole games ---------------------------------------------------------------------------------

class Checking:
    """A random player that checks every play decision against the reference: the choices are
    exactly the legal results of the throw."""

    def __init__(self, seed: int, dice: str):
        self.rng = random.Random(seed)
        self.dice = dice
        self.asked = 0

    def answer(self, d: Any) -> Any:
        if d.is_play:
            view = d.view
            before = from_board(view.board)
            got = {from_board(c) for c in d.choices}
            assert got == plays(before, *view.dice, self.dice), (before, view.dice)
            self.asked += 1
        return self.rng.randrange(len(d.choices))


def conserved(v: Any, b: tuple) -> None:
    assert b[0] == b[27] == b[25] == b[26] == 0
    assert v.geometry.counts(b) == (3, 3)
    assert all(x >= 0 for x in b[1:13]) and all(x <= 0 for x in b[13:25])


@pytest.mark.parametrize("dice", DICE)
def test_games_are_legal_conserve_the_men_and_end(dice: str) -> None:
    v = variant(dice)
    asked = 0
    for seed in range(scaled(40, 8)):
        players = [Checking(seed, dice), Checking(seed + 100, dice)]
        g = Game(v, seed)
        result = g.run(players)
        assert result.finished and result.winner in (0, 1) and result.value == 1
        conserved(v, g.board)
        winner_view = g.board if g.mover == result.winner else v.flip(g.board)
        assert winner_view[1] == 3
        asked += players[0].asked + players[1].asked
    assert asked > 100


@pytest.mark.parametrize("dice", DICE)
def test_every_position_of_a_game_conserves_the_men(dice: str) -> None:
    v = variant(dice)
    rng = random.Random(5)
    b = v.start
    for _ in range(scaled(2000, 400)):
        conserved(v, b)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        b = rng.choice(v.generator.results(b, d1, d2))
        conserved(v, b)
        b = v.start if b[1] == 3 else v.flip(b)


@pytest.mark.parametrize("kind", ["random", "search:1"])
def test_games_end_and_reproduce(kind: str) -> None:
    v = variant("both" if kind == "random" else "lower")
    for seed in (1, 2):
        lines = []
        for _ in range(2):
            g = Game(v, seed)
            r = g.run([make_player(kind, seed, v), make_player("random", seed + 1, v)])
            assert r.finished and r.turns < 2000
            lines.append((r.winner, r.turns, tuple(g.board), tuple(map(str, g.log))))
        assert lines[0] == lines[1]


def test_double_win_when_the_loser_has_no_man_in_his_rest_corner() -> None:
    won = (Lanes((12, 12, 12), (11,)), Lanes((12, 12, 12), (12,)), Lanes((12, 12, 12), ()))
    for double, values in (("no", [1, 1, 1]), ("yes", [2, 1, 2])):
        v = variant("lower", double)
        for pos, value in zip(won, values):
            b = v.geometry.from_json(as_json(pos, 1, 1), v.checkers)
            assert v.rules.game_over(b) == "mover"
            assert v.rules.game_value(b) == value
    v = variant("lower", "yes")
    for seed in range(scaled(30, 10)):
        g = Game(v, seed)
        r = g.run([make_player("random", seed, v), make_player("random", seed + 1, v)])
        loser_view = v.flip(g.board) if g.mover == r.winner else g.board
        assert r.value == (2 if loser_view[1] == 0 else 1)


# -- the commands --------------------------------------------------------------------------------

def test_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "variants/tourne-case.toml"]) == 0
    assert main(["rules", "tourne-case"]) == 0
    text = capsys.readouterr().out
    assert "Tourne-case" in text and "tc_dice" in text
    assert main(["play", "tourne-case", "--white", "random", "--black", "random",
                 "--seed", "3"]) == 0
    assert "wins" in capsys.readouterr().out
    assert main(["simulate", "tourne-case", "--games", "4", "--white", "random",
                 "--black", "random", "--seed", "2", "--set", 'tc_dice="both"']) == 0
    assert main(["variants"]) == 0
    assert "tourne-case" in capsys.readouterr().out


def test_a_position_with_too_many_men_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    obj = as_json(Lanes((1, 2, 3, 4), ()), 1, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(obj) + "\n"))
    assert main(["moves", "tourne-case"]) != 0
    out = capsys.readouterr()
    assert "each side has 3 checkers" in out.out + out.err


@pytest.mark.parametrize("lines,key,words", [
    ('[movement]\nhit = "none"\n', "hit", "sends them nowhere"),
    ('[movement]\noff_pip = 7\n', "off_pip", "`entry_pip` must be above `off_pip` + 6"),
    ('[rules.stuck]\nname = "Stuck"\nkind = "end"\nwhen = "not can_move()"\n', "when",
     "`can_move()` is not available in this variant"),
])
def test_what_the_switches_cannot_play_is_refused(tmp_path: Any, lines: str, key: str,
                                                  words: str) -> None:
    from interpreter.variant.build import validate_paths

    path = tmp_path / "bad.toml"
    path.write_text('extends = "tourne-case"\n[variant]\nid = "bad"\nname = "Bad"\n' + lines,
                    encoding="utf-8")
    found = validate_paths([path])
    assert found and any(words in d.message for d in found), [d.message for d in found]
    assert all(d.code in ("unplayable", "dsl-context") for d in found)
