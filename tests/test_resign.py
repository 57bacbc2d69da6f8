"""Resigning (engine/contract.py `Resign`): what each ladder scores for it, the backgammon
offer accepted or declined, and the record of a resignation replayed."""
from __future__ import annotations

import pytest

from interpreter.engine.contract import IllegalAnswer, Resign
from interpreter.engine.events import ResignDeclined, Resigned
from interpreter.engine.game import Game
from interpreter.engine.record import record_of, replay
from interpreter.players.bots import GreedyBot
from interpreter.variant.build import load_variant

CASES = {
    "backgammon": [],
    "triktrak": [],
    "trictrac-ecrire": ["ladder.min_marks=4", "ladder.marks=4"],
    "trictrac-combine": ["ladder.min_marks=4", "ladder.marks=4"],
    "tric-trac-12": ["ladder.match_games=3"],
}


@pytest.fixture(autouse=True)
def _wide_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as wide as they come (the tests of what is said read whole lines; the width of
    the terminal has its own tests)."""
    monkeypatch.setenv("COLUMNS", "1000")


def _to_white_decision(game: Game, after: int = 6):
    """Play greedy moves until white's `after`-th decision; return (generator, decision)."""
    bots = [GreedyBot(1), GreedyBot(2)]
    gen = game.play()
    d = next(gen)
    seen = 0
    while True:
        if d.player == 0:
            seen += 1
            if seen >= after and d.kind != "resign":
                return gen, d
        d = gen.send(bots[d.player].answer(d))


@pytest.mark.parametrize("variant_id", sorted(CASES))
def test_a_resignation_ends_the_play_won_by_the_opponent_and_replays(variant_id: str) -> None:
    v = load_variant(variant_id, CASES[variant_id])
    g = Game(v, "r/0", resigns=True)
    gen, d = _to_white_decision(g)
    # the level that gives away the whole play (backgammon: a single, offered)
    level = g.ladder.resign_whole or g.ladder.resign_levels[0]
    try:
        d = gen.send(Resign(level))
        if d.kind == "resign":                  # backgammon: the opponent's consent
            d = gen.send("accept")
        # a match goes on with its next game; play it out
        bots = [GreedyBot(1), GreedyBot(2)]
        while True:
            d = gen.send(bots[d.player].answer(d))
    except StopIteration as stop:
        result = stop.value
    assert result.finished
    assert Resigned(0, level) in g.log
    if variant_id not in ("backgammon",):
        assert result.winner == 1
    again = replay(record_of(g, "r", ("human", "greedy")), v)
    assert again.result is not None and again.result.winner == result.winner
    assert again.result.value == result.value


def test_a_declined_resignation_asks_the_same_decision_again() -> None:
    v = load_variant("backgammon")
    g = Game(v, "d/0", resigns=True)
    gen, d = _to_white_decision(g, after=2)
    kind = d.kind
    offer = gen.send(Resign("single"))
    assert offer.kind == "resign" and offer.player == 1 and offer.view.resign_offer == "single"
    again = gen.send("decline")
    assert (again.kind, again.player) == (kind, 0)
    assert ResignDeclined(1, "single") in g.log


def test_a_backgammon_resignation_is_worth_the_cube_times_its_level() -> None:
    v = load_variant("backgammon")
    g = Game(v, "c/0", resigns=True)
    gen, _d = _to_white_decision(g, after=3)
    gen.send(Resign("gammon"))
    with pytest.raises(StopIteration) as stop:
        gen.send("accept")
    result = stop.value.value
    assert result.winner == 1
    assert result.value == 2 * g.ladder.cube.value
    assert result.extra["games"][0]["result"] == "gammon"


def test_a_level_the_ladder_does_not_have_is_refused() -> None:
    v = load_variant("triktrak")
    g = Game(v, "l/0", resigns=True)
    gen, d = _to_white_decision(g, after=1)
    with pytest.raises(IllegalAnswer, match="a resignation here is one of 'game'"):
        gen.send(Resign("gammon"))


def test_a_game_between_bots_cannot_be_resigned() -> None:
    v = load_variant("backgammon")
    g = Game(v, "b/0")
    gen = g.play()
    next(gen)
    with pytest.raises(IllegalAnswer, match="cannot be resigned"):
        gen.send(Resign("single"))


# -- conceding in the trictrac parties: the mark (or game) in play, or the partie ------------------

from interpreter.scoring.combine import Combine, CombineLadder  # noqa: E402
from interpreter.scoring.ecrire import Ecrire, EcrireLadder  # noqa: E402


def test_e6_a_mark_conceded_from_behind_pays_the_simple_excess_and_the_consolation() -> None:
    """match-scoring E6 (R7): A has 6 holes, B 3; B concedes: (6 - 3) + 2 = 5, one lost mark."""
    e = Ecrire(EcrireLadder(), leader=0)
    e.hole(0, 6)
    e.hole(1, 3)
    r = e.concede_mark(1)
    assert (r.kind, r.winner, r.payment, r.multiplier) == ("conceded", 0, 5, 1)
    assert e.lost_marks == [0, 1] and e.k == 2 and e.holes == [0, 0]


def test_a_mark_conceded_by_the_player_ahead_pays_the_consolation_alone() -> None:
    """The rules have the conceder behind; one ahead never turns the payment round."""
    e = Ecrire(EcrireLadder(), leader=0)
    e.hole(1, 5)
    e.hole(0, 2)
    r = e.concede_mark(1)
    assert (r.winner, r.payment) == (0, 2)
    assert e.paid == [0, 2] and e.received == [2, 0]


def test_a_conceded_lurch_is_paid_simple_and_after_a_refait_with_its_consolation() -> None:
    e = Ecrire(EcrireLadder(), leader=0)
    e.hole(0, 6)
    e.hole(1, 6)
    e.go(1)                                 # equal at six: a refait, consolation 4
    e.hole(0, 7)                            # a lurch in the making: conceded, it is simple
    r = e.concede_mark(1)
    assert (r.kind, r.payment) == ("conceded", 7 + 4)


def test_combine_a_conceded_mark_leaves_the_honours_game_and_ends_suspensions() -> None:
    c = Combine(CombineLadder(marks=4, min_marks=4), leader=0)
    c.hole(0, 3)
    c.suspend(0, "honours")
    c.hole(1, 2, on_throw_of=0)
    r = c.concede_mark(0)
    assert (r.kind, r.winner, r.payment) == ("conceded", 1, 2)
    assert c.suspended == {"ecrire": None, "honours": None}
    assert c.h == [3, 0]                    # the honours holes stand (suspended, not counted)
    assert not c.finished


def _concede(variant_id: str, overrides: list[str], level: str, after: int = 6):
    v = load_variant(variant_id, overrides)
    g = Game(v, "r/0", resigns=True)
    gen, d = _to_white_decision(g, after)
    return v, g, gen, gen.send(Resign(level))


def test_resigning_a_mark_concedes_it_and_the_next_mark_is_played_by_its_leader() -> None:
    v, g, gen, d = _concede("trictrac-ecrire", ["ladder.min_marks=4", "ladder.marks=4"], "mark")
    ledger = g.ladder.marks
    r = ledger.results[-1]
    assert (r.kind, r.winner, r.loser) == ("conceded", 1, 0)
    assert ledger.k == 2 and ledger.lost_marks == [1, 0]
    assert not g.ladder.finished
    # the men are set up again and the next mark's leader throws, no opening throw
    assert g.mover == ledger.leader and g.board == v.start_of(ledger.leader)
    assert g.ladder.holes.points == [0, 0] and g.ladder.holes.holes == [0, 0]
    assert Resigned(0, "mark") in g.log
    bots = [GreedyBot(1), GreedyBot(2)]
    try:
        while True:
            d = gen.send(bots[d.player].answer(d))
    except StopIteration as stop:
        result = stop.value
    assert result.finished and len(ledger.results) >= 4
    again = replay(record_of(g, "r", ("human", "greedy")), v)
    assert again.result is not None and again.result.value == result.value


def test_resigning_the_partie_a_ecrire_concedes_every_mark_left() -> None:
    with pytest.raises(StopIteration) as stop:
        _concede("trictrac-ecrire", ["ladder.min_marks=4", "ladder.marks=4"], "partie")
    result = stop.value.value
    assert result.finished and result.winner == 1
    assert result.extra["lost_marks"] == {"white": 4, "black": 0}


def test_an_older_record_resigning_the_game_of_a_partie_a_ecrire_concedes_the_partie() -> None:
    """Records written when `resign` conceded the whole partie say "white resigns game": they
    replay as they were played, the partie conceded."""
    with pytest.raises(StopIteration) as stop:
        _concede("trictrac-ecrire", ["ladder.min_marks=4", "ladder.marks=4"], "game")
    result = stop.value.value
    assert result.finished and result.winner == 1
    assert result.extra["lost_marks"] == {"white": 4, "black": 0}


def test_combine_resigning_a_mark_goes_on_with_the_partie() -> None:
    v, g, gen, d = _concede("trictrac-combine", ["ladder.min_marks=4", "ladder.marks=4"], "mark")
    assert g.ladder.combine.ecrire.results[-1].kind == "conceded"
    assert not g.ladder.finished and d is not None


def test_twelve_point_resigning_a_game_concedes_it_and_the_match_goes_on() -> None:
    v, g, gen, d = _concede("tric-trac-12", ["ladder.match_games=3"], "game")
    match = g.ladder.match
    entry = match.games[-1]
    assert entry.winner == 1 and entry.decision == "conceded" and len(match.games) == 1
    # worth what the value rules give for the conceder's points (×4 at none, ×1 from 7)
    mine = entry.points[0]
    assert entry.value == (4 if mine == 0 else 3 if mine <= 2 else 2 if mine <= 6 else 1)
    assert not g.ladder.finished and match.points == [0, 0]
    # the winner of the conceded game throws first in the next (restart = winner_throws)
    assert g.mover == 1


def test_twelve_point_resigning_the_match_ends_it() -> None:
    with pytest.raises(StopIteration) as stop:
        _concede("tric-trac-12", ["ladder.match_games=3"], "match")
    result = stop.value.value
    assert result.finished and result.winner == 1
    assert result.extra["match"]["resigned"] == "white"


def test_what_a_concession_gives_away_is_said_before_it_is_made() -> None:
    v = load_variant("trictrac-ecrire", ["ladder.min_marks=4", "ladder.marks=4"])
    g = Game(v, "r/0", resigns=True)
    _to_white_decision(g)
    e = g.ladder.marks
    terms = g.ladder.resign_terms(0, "mark", ("you", "the opponent"))
    pay = max(e.holes[1] - e.holes[0], 0) + 2
    assert f"{pay} jetons from you" in terms and f"mark {e.k} of 4" in terms
    partie = g.ladder.resign_terms(0, "partie", ("you", "the opponent"))
    assert "the 3 marks still to play" in partie and "jetons" in partie
    # worked out on a copy: nothing is settled by saying it
    assert e.results == [] and e.k == 1


# -- at the terminal: `resign` and `concede partie`, each confirmed --------------------------------

import io  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from interpreter.notation import notation_for  # noqa: E402
from interpreter.players.human import EndOfInput, HumanPlayer, Session  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _person(variant_id: str, overrides: list[str], lines: list[str]):
    """White's answer (None at the end of the input) and what he was shown, at his 6th
    decision."""
    v = load_variant(variant_id, overrides)
    g = Game(v, "r/0", resigns=True)
    _gen, d = _to_white_decision(g)
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("\n".join(lines) + "\n"), out=out,
                echo=True)
    try:
        return HumanPlayer(0, s).answer(d), out.getvalue()
    except EndOfInput:
        return None, out.getvalue()


ECRIRE = ["ladder.min_marks=4", "ladder.marks=4"]


@pytest.mark.parametrize("no", ["n", "no", "2", "", "cancel"])
def test_resign_in_a_partie_a_ecrire_asks_and_anything_but_yes_cancels(no: str) -> None:
    got, out = _person("trictrac-ecrire", ECRIRE, ["resign", no])
    assert got is None
    assert "Conceding mark 1 of 4" in out and "white resign> " in out
    assert "not conceded: play goes on" in out


@pytest.mark.parametrize("yes", ["y", "yes", "1", "YES"])
def test_resign_confirmed_concedes_the_mark(yes: str) -> None:
    assert _person("trictrac-ecrire", ECRIRE, ["resign", yes])[0] == Resign("mark")


def test_concede_partie_is_its_own_word_also_confirmed() -> None:
    got, out = _person("trictrac-ecrire", ECRIRE, ["concede partie", "y"])
    assert got == Resign("partie") and "Conceding the partie" in out
    assert _person("trictrac-ecrire", ECRIRE, ["concede partie", "n"])[0] is None
    got, out = _person("trictrac-ecrire", ECRIRE, ["concede", "concede everything", "resign mark",
                                                    "y"])
    assert got == Resign("mark")
    assert "concede: say what is conceded" in out
    assert "concede everything: here you may concede the mark in play (resign) or the partie " \
           "(concede partie)" in out


@pytest.mark.parametrize("variant_id, overrides, word, level", [
    ("trictrac-combine", ECRIRE, "resign", "mark"),
    ("trictrac-combine", ECRIRE, "concede partie", "partie"),
    ("triktrak", [], "resign", "game"),
    ("triktrak", [], "concede partie", "game"),
    ("tric-trac-12", ["ladder.match_games=3"], "resign", "game"),
    ("tric-trac-12", ["ladder.match_games=3"], "concede partie", "match"),
    ("tric-trac-12", ["ladder.match_games=3"], "concede match", "match"),
])
def test_every_trictrac_ladder_concedes_what_is_in_play_or_the_whole(
        variant_id: str, overrides: list[str], word: str, level: str) -> None:
    got, out = _person(variant_id, overrides, [word, "y"])
    assert got == Resign(level), out[-800:]
    assert "Concede it?" in out


def test_help_lists_resign_and_concede_partie() -> None:
    _got, out = _person("trictrac-ecrire", ECRIRE, ["help"])
    assert "resign     concede the mark in play (asked to confirm)" in out
    assert "concede partie" in out and "concede the whole partie (asked to confirm)" in out


def test_backgammon_still_offers_a_level_and_refuses_concede_partie() -> None:
    got, out = _person("backgammon", [], ["concede partie", "resign", "cancel"])
    assert got is None
    assert "concede partie: here a game is resigned with resign" in out
    assert "resign: 1 single  2 gammon  3 backgammon  (or cancel)" in out


def test_one_word_no_longer_gives_away_a_partie() -> None:
    """`printf 'resign\\n' | tablier play trictrac-ecrire ...`: asked, the input ends, nothing
    is conceded."""
    r = subprocess.run([sys.executable, "-m", "interpreter", "play", "trictrac-ecrire",
                        "--white", "human", "--black", "greedy", "--seed", "9"],
                       input="resign\n", cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "wins the partie" not in r.stdout
    assert "Concede it?" in r.stdout and "input ended" in r.stdout
