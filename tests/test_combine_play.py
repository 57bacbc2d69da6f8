"""Trictrac combiné played live, bot against bot (interpreter/scoring/combine.py;
rules/match-scoring.md §4): parties finish and replay from their seed, jetons and fish balance,
their score sheets give the live marks, honours games, pool and settlement (with and without
continuation), the questions offer only what the rules allow, and the bots suspend either game
in some parties."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.cli import _ladder_for, main
from interpreter.engine.contract import GameResult as CombineResult
from interpreter.engine.events import Decided
from interpreter.engine.game import Game
from interpreter.io.played import sheet_events, sheet_record, write_sheet_record
from interpreter.players.base import capabilities_of
from interpreter.scoring.combine import SUSPEND
from interpreter.io.sheet import parse_event, sheet_data
from interpreter.players.bots import GreedyBot, RandomBot
from interpreter.scoring.combine import Combine, CombineLadder
from interpreter.sim import game_seed, play_game
from interpreter.variant.build import load_variant

SEEDS = (1, 2, 3)
MATCHUPS = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"))
CASES = [(seed, w, b) for seed in SEEDS for w, b in MATCHUPS]
NO_CONTINUATION = ("ladder.continuation=false",)
SHEET_KEYS = ("marks", "honours", "pool", "suspended", "lost_marks", "settlement")


@lru_cache(maxsize=None)
def variant(*overrides: str):
    return load_variant("trictrac-combine", list(overrides))


@lru_cache(maxsize=None)
def partie(seed: int, white: str = "random", black: str = "random",
           overrides: tuple[str, ...] = ()) -> CombineResult:
    result = play_game(variant(*overrides), seed, 0, white, black, keep_record=True)
    assert isinstance(result, CombineResult) and result.combine is not None
    return result


def summary(result: CombineResult) -> dict:
    return result.summary("trictrac-combine")


# -- a whole partie -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed,white,black", CASES)
def test_partie_finishes_and_balances(seed: int, white: str, black: str) -> None:
    result = partie(seed, white, black)
    s = summary(result)
    game = result.combine
    assert s["finished"] is True and game.finished and game.closed
    marks = [m for m in s["marks"] if m["kind"] != "refait"]
    assert len(marks) == 12
    # jetons: every payment, queue and pari moves jetons from one side to the other
    net = s["settlement"]["net"]
    assert net["white"] + net["black"] == 0 and s["score"] == net
    expected = None if net["white"] == net["black"] else max(net, key=net.get)
    assert s["winner"] == expected and s["value"] == abs(net["white"])
    assert s["turns"] == result.turns == len(result.throws())
    assert s["lost_marks"]["white"] + s["lost_marks"]["black"] == 12
    # fish: the pool is emptied at the end, so the honours nets balance
    fish = s["settlement"]["honours_net"]
    assert fish["white"] + fish["black"] == 0
    assert game.pool_fish == 0 and not s["pool"]["open"]
    # each side's fish are its winnings less its losses and its stakes (the same for both)
    S = game.S
    stakes = []
    for p, name in enumerate(("white", "black")):
        won = sum(r.paid_to_winner for r in game.honours_results if r.winner == p)
        lost = sum(r.paid_to_winner + r.paid_to_pool for r in game.honours_results
                   if r.loser == p)
        drawn = sum(d.fish for d in game.draws if d.winner == p)
        stakes.append(won - lost + drawn - fish[name])
    assert stakes[0] == stakes[1] and stakes[0] >= S and stakes[0] % S == 0
    for r in game.honours_results:
        assert r.paid_to_winner == r.multiplier * S and max(r.holes) >= 12
    assert len(result.mark_play) == len(s["marks"])
    assert sum(p.turns for p in result.mark_play) == result.turns


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_same_seed_same_partie(seed: int) -> None:
    v = variant()
    first = play_game(v, seed, 0, "greedy", "random", keep_record=True)
    again = play_game(v, seed, 0, "greedy", "random", keep_record=True)
    assert summary(first) == summary(again)
    assert first.log == again.log and \
        first.entries == again.entries
    other = play_game(v, seed + 100, 0, "greedy", "random")
    assert summary(other)["honours"] != summary(first)["honours"]


def test_a_short_partie_is_the_start_of_the_long_one() -> None:
    long = partie(2)
    short = partie(2, overrides=("ladder.marks=4", "ladder.min_marks=4"))
    assert short.finished and short.turns < long.turns
    won = [m for m in short.extra["marks"] if m["kind"] != "refait"]
    assert len(won) == 4
    assert short.extra["marks"] == long.extra["marks"][:len(short.extra["marks"])]


def test_an_unfinished_partie_has_no_winner() -> None:
    result = play_game(variant(), 1, 0, "greedy", "greedy", max_turns=40, keep_record=True)
    assert not result.finished and result.winner is None and result.turns == 40
    s = summary(result)
    assert s["settlement"] is None and s["pool"]["open"]


# -- the score sheet of a played partie -----------------------------------------------------------

def _sheet_of(tmp_path: Path, v, result: CombineResult) -> dict:
    path = tmp_path / "partie.toml"
    write_sheet_record(path, v, result)
    return sheet_data(path, _ladder_for)


@pytest.mark.parametrize("seed,white,black", CASES)
def test_sheet_gives_the_live_result(tmp_path: Path, seed: int, white: str, black: str) -> None:
    result = partie(seed, white, black)
    sheet = _sheet_of(tmp_path, variant(), result)
    assert sheet["finished"] is True
    for key in SHEET_KEYS:
        assert sheet[key] == result.extra[key], key


@pytest.mark.parametrize("overrides", [
    NO_CONTINUATION,
    ("ladder.unfinished_honours=\"leader_single\"", "ladder.pool_order=\"draw_then_pay\""),
    ("ladder.strict_marker_claims=true", "ladder.pool_unit=1",
     "ladder.last_pool=\"stakes_only\""),
])
@pytest.mark.parametrize("seed,white,black", [(1, "random", "random"), (2, "greedy", "greedy"),
                                              (3, "greedy", "random")])
def test_sheet_with_house_rules(tmp_path: Path, overrides: tuple[str, ...], seed: int,
                                white: str, black: str) -> None:
    v = variant(*overrides)
    result = partie(seed, white, black, overrides)
    assert result.finished
    record = sheet_record(v, result)
    assert set(record["options"]) == {o.split("=")[0].removeprefix("ladder.")
                                      for o in overrides}
    sheet = _sheet_of(tmp_path, v, result)
    for key in SHEET_KEYS:
        assert sheet[key] == result.extra[key], key
    fish = sheet["settlement"]["honours_net"]
    assert fish["white"] + fish["black"] == 0


def test_sheet_events_are_those_of_the_record_format(tmp_path: Path) -> None:
    result = partie(3, "greedy", "random")
    events = sheet_events(result.log)
    actions = set()
    for text in events:
        event = parse_event(text, ("white", "black"))
        actions.add(event.action if event.action != "suspend" else f"suspend {event.what}")
    assert {"score", "go", "reset", "suspend ecrire"} <= actions
    assert sheet_record(variant(), result)["leader"] == result.extra["leader"]
    path = tmp_path / "partie.toml"
    write_sheet_record(path, variant(), result)
    assert main(["sheet", str(path)]) == 0


def test_without_continuation_the_twelfth_hole_on_ones_own_throw_is_a_go() -> None:
    v = variant(*NO_CONTINUATION)
    for seed in SEEDS:
        result = partie(seed, "greedy", "greedy", NO_CONTINUATION)
        game = Combine(v.ladder, leader=result.first, names=("white", "black"))
        events = sheet_events(result.log)
        forced = 0
        for i, text in enumerate(events):
            e = parse_event(text, ("white", "black"))
            before = len(game.honours_results)
            _apply(game, e)
            if e.action == "score" and e.thrower == e.player and game.active("honours") \
                    and len(game.honours_results) > before:
                forced += 1
                assert parse_event(events[i + 1], ("white", "black")).action in ("go", "claim")
        assert forced > 0


def _apply(game: Combine, e) -> None:
    {"score": lambda: game.hole(e.player, e.n, e.thrower),
     "go": lambda: game.go(e.player),
     "reset": lambda: game.reset_men(),
     "claim": lambda: game.claim(e.player, e.what),
     "suspend": lambda: game.suspend(e.player, e.what)}[e.action]()


# -- the questions and the bots -------------------------------------------------------------------

class Watching:
    """Checks every question against the ledger as it stands, then answers as `bot` would."""

    def __init__(self, bot, asked: list) -> None:
        self.bot, self.asked = bot, asked
        self.capabilities = bot.capabilities

    def answer(self, decision):
        if decision.is_play:
            return self.bot.answer(decision)
        question, choices = decision.kind, decision.choices
        ladder = decision.game.ladder
        c = ladder.combine
        me = decision.player
        if question not in ("banner", "necktie"):
            assert c.can_go == me and c.must_go < 0 and ladder.holes.can_go == me
            assert choices[0] == ("hold" if question == "continue" else "stay")
            for what in ("ecrire", "honours"):
                assert (SUSPEND[what] in choices) == c.may_suspend(me, what)
                if SUSPEND[what] in choices:
                    assert c.suspended == {"ecrire": None, "honours": None}
            if question == "continue":
                assert c.honours_results and c.honours_results[-1].winner == me
        answer = self.bot.answer(decision)
        answer = choices[answer] if isinstance(answer, int) else answer
        self.asked.append((question, choices, answer, tuple(c.ecrire.holes),
                           c.active("ecrire")))
        return answer


def _watched(seed: int, kinds: tuple[str, str], overrides: tuple[str, ...] = ()) -> list:
    asked: list = []
    v = variant(*overrides)
    gs = game_seed(seed, 0)
    bots = {"random": RandomBot, "greedy": GreedyBot}
    players = tuple(Watching(bots[k](f"{gs}:{side}"), asked)
                    for k, side in zip(kinds, ("white", "black")))
    result = Game(v, gs, doubles=capabilities_of(players)).run(players)
    assert result.finished
    return asked


@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "greedy")])
def test_questions_offer_what_the_rules_allow(kinds: tuple[str, str]) -> None:
    asked = _watched(4, kinds)
    questions = {q for q, *_ in asked}
    assert {"go", "continue"} <= questions
    answers = {a for _q, _c, a, *_ in asked}
    assert SUSPEND["ecrire"] in answers or SUSPEND["honours"] in answers
    assert not any(q == "continue" for q, *_ in _watched(4, kinds, NO_CONTINUATION))


def test_greedy_suspends_a_ecrire_only_to_settle_a_mark() -> None:
    """Its à écrire suspensions are those of six holes or more (the mark settled as by a go),
    never a frozen mark (case 2)."""
    seen = 0
    for seed in SEEDS:
        for q, choices, answer, holes, _active in _watched(seed, ("greedy", "greedy")):
            if answer == SUSPEND["ecrire"]:
                seen += 1
                assert max(holes) >= 6
    assert seen > 0


@pytest.mark.parametrize("white,black", [("greedy", "greedy"), ("random", "random"),
                                         ("greedy", "random")])
def test_suspensions_happen_and_are_legal(white: str, black: str) -> None:
    """Suspensions are made in these parties; each follows a hole on the suspender's own throw
    (the sheet's ledger refuses any other), and the replay reaches the live result."""
    games = set()
    for seed in SEEDS:
        result = partie(seed, white, black)
        games |= {what for _t, _p, what in result.suspensions}
        events = sheet_events(result.log)
        game = Combine(variant().ladder, leader=result.first,
                       names=("white", "black"))
        for i, text in enumerate(events):
            e = parse_event(text, ("white", "black"))
            if e.action == "suspend":
                prev = parse_event(events[i - 1], ("white", "black"))
                assert prev.player == e.player
                assert prev.action == "claim" or prev.thrower == e.player
                assert game.may_suspend(e.player, e.what)
            _apply(game, e)
        assert game.settlement is not None
        assert game.honours_net() == result.combine.honours_net()
        assert sum(1 for e in result.log
                   if isinstance(e, Decided) and e.answer in SUSPEND.values()) \
            == len(result.suspensions)
    assert games == {"ecrire", "honours"}


# -- the command line -----------------------------------------------------------------------------

def test_play_prints_marks_honours_pool_and_settlement(capsys) -> None:
    assert main(["play", "trictrac-combine", "--seed", "3", "--white", "greedy"]) == 0
    out = capsys.readouterr().out
    for text in ("Trictrac combiné — seed 3", "mark  leader", "honours games (12 holes",
                 "pool: ", "suspensions: à écrire", "fish from the honours and the pool",
                 "settlement", "honours and pool:", "wins the partie by"):
        assert text in out, text


def test_play_json_has_the_sheet_shapes(capsys) -> None:
    assert main(["play", "trictrac-combine", "--seed", "2", "--json",
                 "--set", "ladder.continuation=false"]) == 0
    obj = json.loads(capsys.readouterr().out)
    for key in ("variant", "finished", "winner", "score", "turns", "marks", "honours", "pool",
                "suspended", "lost_marks", "settlement", "current", "leader"):
        assert key in obj, key
    assert obj["variant"] == "trictrac-combine" and obj["finished"] is True
    net = obj["settlement"]["net"]
    assert obj["winner"] == (None if net["white"] == net["black"] else max(net, key=net.get))
    assert set(obj["settlement"]["honours_net"]) == {"white", "black"}
    assert obj["suspended"] == {"ecrire": None, "honours": None}


def test_bench_plays_combine() -> None:
    from interpreter.bench import run_bench

    report = run_bench(["trictrac-combine"], games=2, runs=1)["trictrac-combine"]
    assert "skipped" not in report
    assert CombineLadder().continuation is True
    # its rolls beside the Python figure, where the compiled throws are built
    if report["compiled"] == "throws":
        assert report["compiled_rolls_per_second"] > 0 and report["rolls_per_second"] > 0
