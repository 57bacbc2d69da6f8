"""The notations of the points (interpreter/notation.py): every label names its point back, and
every legal play of random positions of every variant, written in every notation the variant
has, reads back as the same play (trictrac.md's numbering tables, checked point by point)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from budget import full

from interpreter.engine.game import Game
from interpreter.notation import LETTERS, Notation, notation_for, notations_of
from interpreter.players.bots import RandomBot
from interpreter.resources import variants_dir
from interpreter.variant.build import load_variant

VARIANTS = sorted(p.stem for p in variants_dir().glob("*.toml") if p.stem != "trictrac")


@pytest.mark.parametrize("name", ["pips", "guiton", "malfilatre", "magriel", "lepeintre"])
@pytest.mark.parametrize("side", [0, 1])
def test_every_label_names_its_point_back(name: str, side: int) -> None:
    n = Notation(name)
    labels = [n.label(p, side) for p in range(1, 25)]
    assert len(set(labels)) == 24
    assert all(n.pip_of(label, side) == p for p, label in zip(range(1, 25), labels))


def test_the_treatises_numbering_of_the_trictrac_board() -> None:
    """The talon is the treatises' point 1 (pip 24), the coin de repos point 12 (pip 13)."""
    g, m, lp = Notation("guiton"), Notation("malfilatre"), Notation("lepeintre")
    for M in range(1, 25):
        pip = 25 - M
        assert g.label(pip) == (("T" if M == 1 else str(M - 1)) if M <= 12
                                else ("T'" if M == 24 else f"{24 - M}'"))
        assert m.label(pip) == (str(M) if M <= 12 else f"{25 - M}'")
        assert lp.label(pip, 0) == LETTERS[M - 1]           # white: A is his talon
        assert lp.label(pip, 1) == LETTERS[24 - M]          # black: his talon is Y
    assert Notation("magriel").label(13) == "13"
    assert m.pip_of("B1", 0) == 24 and m.pip_of("N1", 0) == 1 and m.pip_of("N1", 1) == 24


def test_a_family_without_a_notation_refuses_it_naming_those_it_has() -> None:
    v = load_variant("backgammon")
    assert notations_of(v) == ("pips",)
    with pytest.raises(Exception, match="has no 'guiton' notation; it has pips"):
        notation_for(v, "guiton")
    assert "lepeintre" in notations_of(load_variant("triktrak"))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_format_then_parse_gives_the_same_play(variant_id: str) -> None:
    v = load_variant(variant_id)
    notations = [notation_for(v, name) for name in notations_of(v)]
    rng = random.Random(variant_id)
    pips_notation = notation_for(v, "pips")
    seen = 0
    # the default run: a sample of each throw's plays (`budget.py`)
    per_throw = 10_000 if full() else 12
    for game_no in range(3):
        g = Game(v, f"{game_no}/0", max_turns=60)
        bots = [RandomBot(rng.random()), RandomBot(rng.random())]
        gen = g.play()
        try:
            d = next(gen)
            while True:
                if d.kind == "play":
                    base = g.choice_base
                    plays = g.legal_plays(d)
                    ks = range(len(plays)) if len(plays) <= per_throw else sorted(
                        set(range(3)) | set(rng.sample(range(len(plays)), per_throw - 3)))
                    for k in ks:
                        p = plays[k]
                        for path in p.paths[:2]:
                            # written as players write it, read back by the engine: this play
                            # (a sample of the plays of a throw: a doublet of three dice has
                            # hundreds)
                            if k < 3:
                                written = pips_notation.play_text(base, path, d.player)
                                assert d.index(written) == k, written
                            want = Counter(pips_notation.parse(
                                pips_notation.play_text(base, path, 0), 0))
                            for n in notations:
                                for side in (0, 1):
                                    text = n.play_text(base, path, side)
                                    assert Counter(n.parse(text, side)) == want, (n.name, text)
                                    seen += 1
                    # the play a notation names is the legal play it was written from
                    n = notations[-1]
                    i = rng.randrange(len(d.choices))
                    path = g.legal_plays(d)[i].paths[0]
                    pips = pips_notation.play_text(base, n.parse(
                        n.play_text(base, path, d.player), d.player), d.player)
                    assert d.index(pips) == i
                d = gen.send(bots[d.player].answer(d))
        except StopIteration:
            pass
    assert seen > 50


def test_a_recorded_pip_play_is_written_in_each_notation() -> None:
    assert Notation("guiton").from_pips("24/18 13/11*(2) 6/0", 0) == "T/6 11/10'*(2) 5'/off"
    assert Notation("lepeintre").from_pips("24/18/12", 1) == "Y/R/L"


@pytest.mark.parametrize("text,why", [("zz/9", "unexpected"), ("1/24", "moves backwards"),
                                      ("13/", "ends with '/'"), ("13", "no destination"),
                                      ("24/18(9)", "repeat count")])
def test_an_unreadable_play_is_named_with_its_reason(text: str, why: str) -> None:
    with pytest.raises(Exception, match=why):
        Notation("pips").parse(text)


@pytest.mark.parametrize("recorded,written", [
    ("24/20 20/15", "24/15"),                       # one checker's moves joined
    ("13/11 11/9 9/7* 7/5*", "13/7*/5*"),           # a point on the way kept where it hit
    ("24/22 24/22 22/20 22/20", "24/20(2)"),        # equal moves counted
    ("24/21 24/21 21/18* 21/18", "24/18*(2)"),      # two checkers, the hit marked once
    ("25/22* 6/0 29/20", "in/20 bar/22* 6/off"),    # from the farthest back, words for 25/0/29
    ("8/2 6/2", "8/2 6/2"),
    ("-", "-"),
    ("take", "take"),                               # not a play: as it is
])
def test_a_recorded_play_is_logged_as_players_write_it(recorded: str, written: str) -> None:
    assert Notation("pips").log_text(recorded) == written


def test_the_log_writes_plays_in_the_chosen_notation_joined() -> None:
    # white's 6-6 from his talon (pip 24) to pip 12, in Guiton's numbering: T/11' not T/6 6/11'
    assert Notation("guiton").log_text("24/18 18/12", 0) == "T/11'"
    assert Notation("guiton").log_text("24/18 24/18", 0) == "T/6(2)"


def test_a_play_written_as_players_write_it_reads_back_as_that_play() -> None:
    """`24/15`, `13/7*/5*` and `13/5` (the hit left out, where only one play fits) name the
    play of the engine's steps, however it ordered them."""
    from interpreter.kernel.notation import read_play

    v = load_variant("backgammon")
    gen = v.generator
    board = list(v.start)
    board[7], board[5] = -1, -1                     # two blots of the opponent
    board = tuple(board)
    plays = gen.throw_plays(board, 2, 2)[0]
    by_text = {Notation("pips").play_text(board, p.paths[0]): p for p in plays}
    assert "13/7*/5*" in by_text
    for text, play in by_text.items():
        assert read_play(text, plays, board, (2, 2)) is play, text
    assert read_play("13/5", plays, board, (2, 2)) is by_text["13/7*/5*"]
    assert read_play("13/11/9/7/5", plays, board, (2, 2)) is by_text["13/7*/5*"]


def test_the_end_of_a_match_or_partie_says_who_won_it_and_the_score() -> None:
    import json
    import subprocess
    import sys

    for args, word in ((["backgammon", "--set", "ladder.match_length=3", "--white", "greedy",
                         "--black", "greedy"], "match"), (["triktrak"], "partie"),
                       (["tavli"], "match")):
        base = [sys.executable, "-m", "interpreter", "play", *args, "--seed", "3"]
        summary = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True,
                                            check=True).stdout)
        last = subprocess.run(base, capture_output=True, text=True,
                              check=True).stdout.rstrip().splitlines()[-1]
        w = summary["winner"]
        lose = "black" if w == "white" else "white"
        assert last.startswith(f"{w} wins the {word} {summary['score'][w]}-"
                               f"{summary['score'][lose]} (after "), last
    one = subprocess.run([sys.executable, "-m", "interpreter", "play", "backgammon", "--seed",
                          "3"], capture_output=True, text=True, check=True).stdout
    assert ", worth " in one.rstrip().splitlines()[-1]       # a single game: its value
