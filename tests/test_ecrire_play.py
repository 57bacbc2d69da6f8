"""The partie à écrire played live, bot against bot (interpreter/engine/ecrire.py;
rules/match-scoring.md §1–§2, rules/trictrac.md §1.6, §5.3): parties finish and replay from
their seed, their score sheets give their settlements, jetons are conserved, each mark is led
and each relevé opened by the right player, and the bots answer every question sensibly."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.cli import _ladder_for, main
from types import SimpleNamespace

from interpreter.engine.contract import GameResult as PartieResult
from interpreter.engine.game import Game
from interpreter.io.played import sheet_events, sheet_record, write_sheet_record
from interpreter.players import policy
from interpreter.players.base import capabilities_of
from interpreter.scoring.ecrire import QUESTIONS, ecrire_state, go_question
from interpreter.scoring.holes import holes_state
from interpreter.io.sheet import parse_event, sheet_data
from interpreter.kernel.board import flip
from interpreter.players.bots import GreedyBot, RandomBot
from interpreter.players.kinds import make_player
from interpreter.scoring.ecrire import Ecrire, EcrireLadder
from interpreter.scoring.holes import Holes
from interpreter.sim import game_seed, play_game
from interpreter.variant.build import load_variant

SEEDS = (1, 2, 3, 5, 8)
MATCHUPS = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"))


@lru_cache(maxsize=None)
def variant(*overrides: str):
    return load_variant("trictrac-ecrire", list(overrides))


@lru_cache(maxsize=None)
def partie(seed: int, white: str = "random", black: str = "random",
           overrides: tuple[str, ...] = ()) -> PartieResult:
    result = play_game(variant(*overrides), seed, 0, white, black, keep_record=True)
    assert isinstance(result, PartieResult) and result.ledger is not None
    return result


def summary(result: PartieResult) -> dict:
    return result.summary("trictrac-ecrire")


def won_marks(result: PartieResult) -> list[dict]:
    return [m for m in result.extra["marks"] if m["kind"] != "refait"]


CASES = [(seed, w, b) for seed in SEEDS for w, b in MATCHUPS]


# -- a whole partie -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed,white,black", CASES)
def test_partie_finishes_and_balances(seed: int, white: str, black: str) -> None:
    result = partie(seed, white, black)
    s = summary(result)
    assert s["finished"] is True and result.ledger.finished
    marks = won_marks(result)
    assert len(marks) == 12                                  # the ladder's default
    # jetons are conserved: every payment, queue and pari moves jetons from one side to the other
    net = s["settlement"]["net"]
    assert net["white"] + net["black"] == 0
    assert s["score"] == net
    assert sum(m["payment"] for m in marks) == sum(result.ledger.paid) \
        == sum(result.ledger.received)
    # each lost mark is a mark the other side won
    for side, other in (("white", "black"), ("black", "white")):
        assert s["lost_marks"][side] == sum(m["winner"] == other for m in marks)
    assert s["lost_marks"]["white"] + s["lost_marks"]["black"] == 12
    # the winner is the player with the larger net
    expected = None if net["white"] == net["black"] else max(net, key=net.get)
    assert s["winner"] == expected
    assert s["value"] == abs(net["white"])
    assert s["turns"] == result.turns == len(result.throws())
    assert len(result.mark_play) == len(result.extra["marks"])
    assert sum(p.turns for p in result.mark_play) == result.turns


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_same_seed_same_partie(seed: int) -> None:
    v = variant()
    first = play_game(v, seed, 0, "greedy", "random", keep_record=True)
    again = play_game(v, seed, 0, "greedy", "random", keep_record=True)
    assert summary(first) == summary(again)
    assert first.log == again.log and first.entries == again.entries
    other = play_game(v, seed + 100, 0, "greedy", "random")
    assert summary(other)["marks"] != summary(first)["marks"]


def test_a_four_mark_partie_is_the_start_of_the_twelve_mark_one() -> None:
    """`--set ladder.marks=4`: the same throws and decisions, stopped after four marks."""
    long = partie(2)
    short = partie(2, overrides=("ladder.marks=4", "ladder.min_marks=4"))
    assert short.finished and len(won_marks(short)) == 4
    assert short.turns < long.turns
    assert short.extra["marks"] == long.extra["marks"][:len(short.extra["marks"])]
    lost = short.extra["lost_marks"]
    assert lost["white"] + lost["black"] == 4
    assert sum(short.extra["settlement"]["net"].values()) == 0


# -- the score sheet of a played partie -----------------------------------------------------------

def _sheet_of(tmp_path: Path, v, result: PartieResult) -> dict:
    path = tmp_path / "partie.toml"
    write_sheet_record(path, v, result)
    return sheet_data(path, _ladder_for)


@pytest.mark.parametrize("seed,white,black", CASES)
def test_sheet_gives_the_live_settlement(tmp_path: Path, seed: int, white: str,
                                         black: str) -> None:
    result = partie(seed, white, black)
    sheet = _sheet_of(tmp_path, variant(), result)
    assert sheet["finished"] is True
    assert sheet["settlement"] == result.extra["settlement"]
    assert sheet["marks"] == result.extra["marks"]
    assert sheet["lost_marks"] == result.extra["lost_marks"]


OPTION_SETS = [
    ("ladder.marks=4", "ladder.min_marks=4", 'ladder.lurch_rates="classic"', 'ladder.mark_lead="winner"',
     'ladder.refait_lead="alternate"'),
    ("ladder.marks=6", "ladder.strict_marker_claims=true", 'ladder.queue_tie="own_back"',
     'ladder.fish_rounding="nearest"', "ladder.final_queue=1"),
    ("ladder.marks=6", 'ladder.sortie_bredouille="reset"',
     'ladder.second_marker_bredouille="never"', 'ladder.refait_consolation="geometric"'),
]


@pytest.mark.parametrize("overrides", OPTION_SETS)
@pytest.mark.parametrize("white,black", [("random", "random"), ("greedy", "greedy")])
def test_sheet_with_house_rules(tmp_path: Path, overrides: tuple[str, ...], white: str,
                                black: str) -> None:
    v = variant(*overrides)
    for seed in (4, 6):
        result = partie(seed, white, black, overrides)
        record = sheet_record(v, result)
        assert record["marks"] == v.ladder.marks
        assert record["leader"] == result.extra["leader"]
        for key in record.get("options", {}):
            assert getattr(v.ladder, key) != getattr(EcrireLadder(), key)
        sheet = _sheet_of(tmp_path, v, result)
        assert sheet["settlement"] == result.extra["settlement"]
        assert sheet["marks"] == result.extra["marks"]


def test_sheet_events_are_those_of_the_record_format(tmp_path: Path) -> None:
    result = partie(3)
    events = sheet_events(result.log)
    parsed = [parse_event(e, ("white", "black")) for e in events]
    assert {e.action for e in parsed} <= {"score", "go", "reset"}
    assert any(e.action == "score" and e.thrower != e.player for e in parsed)
    assert sum(e.action == "go" for e in parsed) == sum(t.decision == "go" for t in result.throws())
    holes = [sum(e.n for e in parsed if e.action == "score" and e.player == p) for p in (0, 1)]
    assert holes == [sum(m["holes"][side] for m in result.extra["marks"])
                     for side in ("white", "black")]
    # through the command line too
    path = tmp_path / "partie.toml"
    write_sheet_record(path, variant(), result)
    assert main(["sheet", str(path)]) == 0


def test_sorties_reset_the_men_without_a_pickup() -> None:
    """A sortie is written "reset": the player who bore off rolls again, on a fresh board."""
    seen = 0
    v = variant()
    for seed, white, black in CASES:
        result = partie(seed, white, black)
        record = result.throws()
        for i, turn in enumerate(record[:-1]):
            if turn.board[0] == v.checkers:
                seen += 1
                assert turn.decision != "go"
                assert record[i + 1].player == turn.player
        assert sum(p.sorties for p in result.mark_play) == \
            sum(t.board[0] == v.checkers for t in record)
        assert sheet_events(result.log).count("reset") == sum(p.sorties for p in result.mark_play)
    assert seen > 0


# -- who rolls first ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed,white,black", CASES[:6])
def test_leaders_and_goers_roll_first(seed: int, white: str, black: str) -> None:
    """§2.6: each mark is led by its leader (a refait by the voided mark's); trictrac §5.3:
    after a pick-up the goer rolls first."""
    result = partie(seed, white, black)
    record, results = result.throws(), result.ledger.results
    assert record[0].player == results[0].leader
    assert result.extra["leader"] == ("white", "black")[results[0].leader]
    start = 0
    for i, (r, play) in enumerate(zip(results, result.mark_play)):
        assert record[start].player == r.leader
        last = start + play.turns - 1
        assert record[last].decision == "go"
        for t in range(start, last):
            if record[t].decision == "go":            # a pick-up: the goer rolls again
                assert record[t + 1].player == record[t].player
        if i + 1 < len(results):
            nxt = results[i + 1].leader
            assert nxt == (r.leader if r.kind == "refait" else 1 - r.leader)
        start = last + 1
    assert sum(p.pickups for p in result.mark_play) == \
        sum(t.decision == "go" for t in record) - len(results)


# -- the decisions --------------------------------------------------------------------------------

class Spy:
    """Wraps a bot and notes every question it is asked, with the state of the mark."""

    def __init__(self, bot, log: list):
        self.bot, self.log = bot, log
        self.capabilities = bot.capabilities

    def answer(self, decision):
        answer = self.bot.answer(decision)
        if decision.is_play:
            return answer
        choices = decision.choices
        answer = choices[answer] if isinstance(answer, int) else answer
        self.log.append((decision.kind, choices, answer,
                         tuple(decision.game.ladder.ledger.holes), decision.player))
        return answer


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_questions_and_choices(kind: str) -> None:
    v = variant("ladder.strict_marker_claims=true")
    log: list = []
    for seed in (1, 2, 3):
        gs = game_seed(seed, 0)
        players = (Spy(make_player(kind, f"{gs}:white"), log),
                   Spy(make_player(kind, f"{gs}:black"), log))
        assert Game(v, gs, doubles=capabilities_of(players)).run(players).finished
    asked = {q for q, *_ in log}
    # greedy bots rarely let a mark come to a refait or a concession: only random ones must
    assert (set(QUESTIONS) if kind == "random" else {"go", "banner", "necktie"}) <= asked
    assert asked <= set(QUESTIONS)
    for question, choices, answer, holes, mover in log:
        assert choices == QUESTIONS[question] and answer in choices
        if question in ("go", "refait", "concede"):
            mine, theirs = holes[mover], holes[1 - mover]
            if question == "go":
                assert max(holes) < 6 or mine > theirs
            elif question == "refait":
                assert mine == theirs >= 6
            else:
                assert mine < theirs and theirs >= 6
    if kind == "greedy":
        assert all(a == "claim" for q, _c, a, *_ in log if q in ("banner", "necktie"))
        assert all(a == "go" for q, _c, a, h, m in log if q == "go" and max(h) >= 6)


def test_go_question_follows_the_state_of_the_mark() -> None:
    e = Ecrire(EcrireLadder())
    e.hole(0, 2)
    assert go_question(e, 0) == "go"                  # a pick-up
    e.hole(1, 6)
    e.hole(0, 1)
    assert go_question(e, 0) == "concede" and go_question(e, 1) == "go"
    e.hole(0, 3)
    assert go_question(e, 0) == "refait"
    e.hole(0, 1)
    assert go_question(e, 0) == "go"                  # ahead at 7-6: marks


def test_claims_due_right_after_the_first_hole() -> None:
    """`Ecrire.claims_due`: what strict claiming offers, and only at the first hole."""
    e = Ecrire(EcrireLadder(strict_marker_claims=True))
    e.hole(0, 1)
    assert e.claims_due(0) == ("banner",) and e.claims_due(1) == ()
    e.claim(0, "banner")
    assert e.claims_due(0) == ()
    e.hole(1, 1, on_throw_of=0)                       # in arrears: the necktie as well
    assert e.claims_due(1) == ("banner", "necktie")
    e.hole(0, 1)
    assert e.claims_due(1) == ()                      # too late now
    relaxed = Ecrire(EcrireLadder())
    relaxed.hole(0, 1)
    assert relaxed.claims_due(0) == ()


def _advice_game(holes_in_mark: tuple[int, int], pending: tuple[int, int] = (12, 0),
                 interleave: bool = False) -> tuple[SimpleNamespace, Ecrire]:
    """White's view when deciding after a hole on his own throw, the mark standing at
    `holes_in_mark` (the view a `Decision` gives: the board, the throw's points, the ladder)."""
    v = variant()
    ledger = Ecrire(v.ladder)
    a, b = holes_in_mark
    if interleave:
        ledger.hole(0, 1)
        a -= 1
    if b:
        ledger.hole(1, b)
    ledger.hole(0, a)
    holes = Holes(v.ladder.holes_ladder())
    state = {"kind": "ecrire", **holes_state(holes, 0), **ecrire_state(ledger, 0)}
    view = SimpleNamespace(variant=v, board=v.start, pending=pending, ladder=state, mover=True)
    return view, ledger


def advise(view: SimpleNamespace, ledger: Ecrire, question: str) -> str:
    return policy.ecrire(view, question)


def test_greedy_advice() -> None:
    # ahead at six or more: mark at once
    game, ledger = _advice_game((6, 2))
    assert advise(game, ledger, "go") == "go"
    # a pick-up with the banner up and nothing to fear from this throw: keep the lurch's rate
    game, ledger = _advice_game((3, 0))
    assert ledger.banner(0) and advise(game, ledger, "go") == "stay"
    # ... but the opponent's gains from this throw would make him a hole: go, voiding them
    game, ledger = _advice_game((3, 0), pending=(12, 14))
    assert advise(game, ledger, "go") == "go"
    # behind at 6-3 with a lurch in arrears alive: catching up would win at a lurch rate
    game, ledger = _advice_game((3, 6))
    assert ledger.lurch_alive(0) and advise(game, ledger, "concede") == "stay"
    # behind by three with the lurch broken: concede
    game, ledger = _advice_game((3, 6), interleave=True)
    assert not ledger.lurch_alive(0) and advise(game, ledger, "concede") == "concede"
    # level at seven, lurch broken, the opponent about to take a hole from this throw: refait
    game, ledger = _advice_game((7, 7), pending=(12, 13), interleave=True)
    assert advise(game, ledger, "refait") == "refait"
    game, ledger = _advice_game((7, 7), pending=(12, 0))
    assert ledger.lurch_alive(0) and advise(game, ledger, "refait") == "stay"
    assert advise(game, ledger, "banner") == advise(game, ledger, "necktie") == "claim"


def test_random_bot_decides_at_random() -> None:
    bot = RandomBot("x")
    decision = SimpleNamespace(kind="concede", choices=QUESTIONS["concede"], is_play=False)
    answers = {QUESTIONS["concede"][bot.answer(decision)] for _ in range(50)}
    assert answers == {"stay", "concede"}


# -- the command line -----------------------------------------------------------------------------

def test_play_json(capsys) -> None:
    assert main(["play", "trictrac-ecrire", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"variant", "finished", "winner", "score", "turns", "marks", "settlement",
            "lost_marks"} <= set(out)
    assert out["variant"] == "trictrac-ecrire" and out["finished"] is True
    assert set(out["score"]) == {"white", "black"}
    assert set(out["settlement"]) == {"queue_of_jetons", "paris", "paris_payment", "net"}
    result = partie(3)
    assert out["marks"] == result.extra["marks"]                  # play_game is `play`
    assert main(["play", "trictrac-ecrire", "--seed", "3", "--json",
                 "--set", "ladder.marks=4", "--set", "ladder.min_marks=4"]) == 0
    short = json.loads(capsys.readouterr().out)
    assert short["finished"] and short["turns"] < out["turns"]
    assert short["lost_marks"]["white"] + short["lost_marks"]["black"] == 4


def test_play_prints_marks_and_settlement(capsys) -> None:
    assert main(["play", "trictrac-ecrire", "--seed", "3", "--white", "greedy",
                 "--log", "marks"]) == 0
    text = capsys.readouterr().out
    assert "a partie of 12 marks" in text and "settlement" in text
    assert "queue of jetons" in text and "net: white" in text
    lines = [ln for ln in text.splitlines() if ln[:4].strip().isdigit()]
    assert len(lines) == len(partie(3, "greedy", "random").extra["marks"])


def test_unfinished_partie(capsys) -> None:
    assert main(["play", "trictrac-ecrire", "--seed", "3", "--max-turns", "150", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is False and out["winner"] is None and out["settlement"] is None
    assert out["turns"] == 150
    assert main(["play", "trictrac-ecrire", "--seed", "3", "--max-turns", "150"]) == 0
    assert "unfinished" in capsys.readouterr().out


def test_a_mark_ends_with_the_men_reset() -> None:
    """The go that ends a mark resets the men: the next leader starts from the talons."""
    v = variant()
    assert flip(v.start) == v.start            # both talons full: the same from either side
    result = partie(5)
    start = 0
    for play in result.mark_play[:-1]:
        start += play.turns
        assert result.throws()[start - 1].board == v.start
