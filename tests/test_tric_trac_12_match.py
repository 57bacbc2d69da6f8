"""The 12-point Tric-Trac above the board: game values (match-scoring §6.1 T1-T5, M-A10), the
continuous match (going away or continuing, M-A18), the extra throw after a doublet, the restack
of a player whose last man is off; scripted games through the `continuous` runner, property
tests over bot games, and the `play` / `simulate` / `bench` commands."""
from __future__ import annotations

import json
from functools import cache
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.cli import main
from types import SimpleNamespace

from interpreter.engine.game import BLACK, WHITE, Game, leftover_numbers
from interpreter.players import policy
from interpreter.players.base import DOUBLES, capabilities_of
from interpreter.errors import RecordError, VariantError
from interpreter.kernel.board import Board, flip
from interpreter.kernel.movegen import Play, Step
from interpreter.scoring.twelve import ContinuousLadder, ContinuousMatch
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

N = 15


@cache
def variant(*overrides: str):
    return load_variant("tric-trac-12", overrides)


def board(mine: dict[int, int], theirs: dict[int, int] | None = None) -> Board:
    """A kernel board from the mover's side; men not placed are off."""
    theirs = {1: N} if theirs is None else theirs
    b = [0] * 28
    for p, n in mine.items():
        b[p] += n
    for p, n in theirs.items():
        b[p] -= n
    b[0] = N - sum(mine.values())
    b[27] = N - sum(theirs.values())
    return tuple(b)


PRIME = {p: 2 for p in range(13, 19)}


def value_of(v: Any, loser: int, winner: int = 12) -> int:
    """What the variant's value rules make a game won against `loser` points."""
    return Game(v, 0).game_value(v.start, (winner, loser))[0]


def match(v: Any, ladder: Any = None) -> ContinuousMatch:
    return ContinuousMatch(ladder or v.ladder, value=lambda _w, pts: value_of(v, pts[0]))

# -- game values: T1-T4 and M-A10 -------------------------------------------------------------


@pytest.mark.parametrize("loser, value", [
    (7, 1), (11, 1),            # T1: 12 vs 7 -> single
    (6, 2), (3, 2),             # T2: double
    (2, 3), (1, 3),             # T3: triple
    (0, 4),                     # T4: quadruple
])
def test_t1_to_t4_values_by_the_loser_points(loser: int, value: int) -> None:
    assert value_of(variant(), loser) == value
    m = match(variant(), ContinuousLadder())
    m.points = [11, loser]
    assert m.score(0, 1, 0) == 0
    assert (m.pending.value, m.pending.points, m.pending.excess) == (value, (12, loser), 0)


def test_m_a10_double_threshold_below_6() -> None:
    below = variant('options.double_threshold="below_6"')
    assert [value_of(below, n) for n in range(8)] == [4, 3, 3, 2, 2, 2, 1, 1]
    assert [value_of(variant(), n) for n in range(8)] == [4, 3, 3, 2, 2, 2, 2, 1]


@pytest.mark.parametrize("decision, after", [("continue", [2, 0]), ("go", [0, 0])])
def test_t5_continue_carries_the_excess_go_away_loses_it(decision: str, after: list) -> None:
    """A has 10 and scores 4 on one throw: 14, A wins; continue -> A 2, B 0; go away -> 0-0."""
    m = match(variant(), ContinuousLadder())
    m.points = [10, 5]
    assert m.score(0, 4, 0) == 0
    entry = m.resolve(decision)
    assert (entry.winner, entry.points, entry.value, entry.excess) == (0, (14, 5), 2, 2)
    assert m.points == after
    assert m.continued == (decision == "continue")


def test_the_opponent_points_of_a_won_throw_come_too_late() -> None:
    """Under prime_scores_on = "every_throw" both may gain on one throw: the mover's points
    come first, so he wins and the opponent's 2 are not added (the value is by 10: single)."""
    m = match(variant(), ContinuousLadder())
    m.points = [11, 10]
    assert m.score(0, 1, 2) == 0
    assert m.pending.points == (12, 10)
    m = match(variant(), ContinuousLadder())
    m.points = [0, 10]
    assert m.score(0, 1, 2) == 1                   # the opponent reaches 12 on the mover's throw
    assert (m.pending.winner, m.pending.value) == (1, 3)


def test_match_result_and_decisions() -> None:
    ladder = ContinuousLadder(match_games=3)
    m = match(variant(), ladder)
    with pytest.raises(RecordError):
        m.resolve("go")
    m.score(0, 12, 0)
    with pytest.raises(RecordError):
        m.score(1, 1, 0)                           # the winner must choose first
    with pytest.raises(RecordError):
        m.resolve(None)                            # not the last game: a choice is needed
    m.resolve("go")
    m.points = [7, 0]
    m.score(1, 12, 0)                              # black wins x1 (white at 7)
    m.resolve("continue")
    assert not m.finished and m.is_last_game
    m.score(0, 12, 0)                              # white wins the last game x4
    m.resolve(None)
    assert m.finished and m.totals() == [8, 1] and m.winner() == 0
    by_games = match(variant(), ContinuousLadder(match_games=2, match_result="games_won"))
    by_games.score(0, 12, 0)
    by_games.resolve("go")
    by_games.score(1, 12, 0)
    by_games.resolve(None)
    assert by_games.totals() == [1, 1] and by_games.winner() is None    # a drawn match


# -- restack and the number left over ---------------------------------------------------------


def test_restack_puts_every_man_back_on_the_start() -> None:
    assert variant().restacked(board({})) == board({24: N})


def test_leftover_numbers_of_the_last_man() -> None:
    last = board({})
    one = Play(last, ((Step(2, 0, 5, 0, 1),), (Step(2, 0, 1, 0, 0),)))
    assert leftover_numbers(one, 5, 1) == {1, 5}
    both = Play(last, ((Step(3, 2, 1, 0, 0), Step(2, 0, 2, 0, 0)),))
    assert leftover_numbers(both, 2, 1) == {None}
    assert leftover_numbers(Play(last, ((Step(2, 0, 4, 0, 1),),)), 4, 4) == {4}


# -- scripted games ---------------------------------------------------------------------------


class Scripted:
    """A player whose plays are picked by `pick(decision)` (default: the most points) and
    whose decisions come from a list."""

    kind = "scripted"
    capabilities = frozenset({DOUBLES})

    def __init__(self, decisions: list[str] | None = None,
                 pick: Callable[[Any], int] | None = None):
        self.decisions = list(decisions or [])
        self.pick = pick
        self.asked: list[str] = []

    def answer(self, decision: Any) -> int | str:
        if decision.is_play:
            if self.pick is not None:
                return self.pick(decision)
            view = decision.view
            scores = [view.play_points(i) for i in range(len(decision.choices))]
            return scores.index(max(scores))
        self.asked.append(decision.kind)
        return self.decisions.pop(0) if self.decisions else 0


class ScriptedDice:
    """Dice that give the throws of a script (then 1-2), drawn as the turn loop draws them."""

    def __init__(self, throws: list[tuple[int, int]]):
        self.values = [(d - 0.5) / 6 for t in throws for d in t]

    def random(self) -> float:
        if self.values:
            return self.values.pop(0)
        self.values = [0.5 / 6, 1.5 / 6]
        return self.values.pop(0)


class ScriptedGame(Game):
    """A game whose throws are given: `throws[0]` is the first throw (of `first`, from `b`),
    `openers` say who wins a later one-die opening throw."""

    def __init__(self, v: Any, players: tuple, throws: list[tuple[int, int]], b: Board,
                 first: int = WHITE, points: list[int] | None = None,
                 openers: list[int] | None = None, games: int | None = None):
        super().__init__(v, "script", max_turns=len(throws),
                         doubles=capabilities_of(players))
        self.players = players
        self.throws = list(throws)
        self.openers = list(openers or [])
        self._first = (first, b)
        self.dice_rng = ScriptedDice(self.throws[1:])
        if points is not None or games is not None:
            ladder = v.ladder if games is None else v.ladder.model_copy(
                update={"match_games": games})
            self.ladder.model = ladder
            self.ladder.match = ContinuousMatch(ladder, value=self.ladder._game_value)
            self.ladder.match.points = list(points or [0, 0])

    @property
    def match(self) -> ContinuousMatch:
        return self.ladder.match

    @property
    def turns_(self) -> list:
        return self.result.throws()

    def _opening(self) -> tuple[int, int]:
        self.rolls = [0, 0]
        if self._first is not None:
            self.mover, self.board = self._first
            self._first = None
            self.ladder.opening(0)
            return self.throws[0]
        self.mover = self.openers.pop(0)
        self.board = self.variant.start_of(self.mover)
        self.ladder.opening(0)
        r = self.dice_rng.random
        return int(r() * 6) + 1, int(r() * 6) + 1


def run(v: Any, throws: list, b: Board, players: tuple | None = None, **kw: Any) -> ScriptedGame:
    g = ScriptedGame(v, players or (Scripted(), Scripted()), throws, b, **kw)
    g.run(g.players)
    return g


def test_a_doublet_gives_another_throw_and_doublets_chain() -> None:
    g = run(variant(), [(5, 4), (3, 3), (2, 2), (6, 1), (4, 2)], board({24: N}, {1: N}))
    assert [t.player for t in g.turns_] == [WHITE, BLACK, BLACK, BLACK, WHITE]
    assert g.result.extra["state"]["extra_throw"] is False


def test_the_extra_throw_is_taken_after_a_doublet_that_cannot_be_played() -> None:
    """Both side primes stand: White's 6-6 cannot be played; his prime scores 2 and he throws
    again."""
    b = board(PRIME, {p: 2 for p in range(7, 13)})
    g = run(variant(), [(6, 6), (6, 6), (5, 4)], b)
    assert [t.player for t in g.turns_] == [WHITE, WHITE, WHITE]
    assert all(t.board == b for t in g.turns_[:2])
    assert g.match.points == [4, 0]          # 5-4 has to break the prime
    assert g.result.extra["state"]["extra_throw"] is False


def test_an_optional_extra_throw_may_be_passed() -> None:
    v = variant('dice.extra_throw="optional"')
    white = Scripted(["pass"])
    g = run(v, [(3, 3), (5, 4)], board({24: N}), (white, Scripted()))
    assert [t.player for t in g.turns_] == [WHITE, BLACK]
    assert white.asked == ["rethrow"] and g.turns_[0].decision == "pass"


T5_MINE = {**PRIME, 10: 1, 3: 1}
T5_THEIRS = {8: 1, 1: 14}


@pytest.mark.parametrize("restart", ["winner_throws", "roll_off"])
def test_t5_winning_throw_forfeits_the_extra_throw_then_go_away(restart: str) -> None:
    """White at 10 throws 2-2: 10-8 hits, 3-off, the prime stands: 14, a quadruple (Black at 0).
    He goes away: a fresh game, 0-0; the winner throws (or a roll-off, won here by Black)."""
    v = variant(f'ladder.restart="{restart}"')
    white = Scripted(["go"])
    g = run(v, [(2, 2), (5, 4), (6, 1)], board(T5_MINE, T5_THEIRS), (white, Scripted()),
            points=[10, 0], openers=[BLACK])
    first = g.turns_[0]
    assert first.decision == "go" and first.board == board({**PRIME, 8: 1}, {1: 15})
    assert {r: p for r, _to, p, _w in first.items} == {"hit": 1, "borne-off": 1, "side-prime": 2}
    [game1] = g.match.games
    assert (game1.winner, game1.points, game1.value, game1.excess) == (WHITE, (14, 0), 4, 2)
    starter = WHITE if restart == "winner_throws" else BLACK
    assert g.turns_[1].player == starter
    assert g.turns_[1].board in {board({24: 13, 20: 1, 19: 1}), board({24: 14, 15: 1})}
    assert g.match.points == [0, 0]


def test_t5_continue_the_opponent_throws_next_and_the_excess_is_kept() -> None:
    white = Scripted(["continue"])
    g = run(variant(), [(2, 2), (5, 4)], board(T5_MINE, T5_THEIRS), (white, Scripted()),
            points=[10, 0])
    assert g.turns_[0].decision == "continue"
    assert [t.player for t in g.turns_] == [WHITE, BLACK]
    # Black, with the man hit back on his Start, enters with 5-4 from the continued position
    assert g.turns_[1].board[24] in (13, 14)
    assert g.match.points[WHITE] == 2 and g.match.continued
    assert g.match.games[0].decision == "continue"


def test_restack_with_the_number_left_over_entering_a_man() -> None:
    """White bears his last man off from pip 2 with either number; his men go back on the
    Start and the other number enters one, hitting the blot on 19 with the 5."""
    theirs = {19: 1, 1: 14}
    g = run(variant(), [(5, 1)], board({2: 1}, theirs))
    [turn] = g.turns_
    assert turn.board == board({24: 14, 19: 1}, {1: 15})
    assert {r: p for r, _to, p, _w in turn.items} == {"borne-off": 1, "hit": 1}
    assert g.match.points == [2, 0]
    # the player may also enter with the ace
    seen: list[set] = []

    def record_results(decision: Any) -> int:
        seen.append(set(decision.choices))
        return 0
    run(variant(), [(5, 1)], board({2: 1}, theirs), (Scripted(pick=record_results), Scripted()))
    assert seen == [{board({24: 14, 19: 1}, {1: 15}), board({24: 14, 23: 1}, theirs)}]


def test_restack_without_a_number_left_or_with_one_that_cannot_enter() -> None:
    # the man on 3 leaves with both numbers (3-2-off) or with the 2 alone, the ace entering
    seen: list[set] = []

    def record_results(decision: Any) -> int:
        seen.append(set(decision.choices))
        return 0
    run(variant(), [(2, 1)], board({3: 1}), (Scripted(pick=record_results), Scripted()))
    assert seen == [{board({24: N}), board({24: 14, 23: 1})}]
    # the entering points are made: the number left over is lost, the men are restacked
    theirs = {19: 2, 23: 2, 1: 11}
    g = run(variant(), [(5, 1)], board({2: 1}, theirs))
    assert g.turns_[0].board == board({24: N}, theirs)


@pytest.mark.parametrize("start", ["{ 24 = 1, 23 = 1, 22 = 1 }", "{ 24 = 2, 13 = 5, 8 = 3, 6 = 5 }",
                                   "{ 13 = 15 }"])
def test_a_restack_only_onto_points_the_opponent_can_never_hold(start: str) -> None:
    """The restack sets the men up again while the other side plays on: a starting point where
    his men could stand would hold both colours (found by the switch fuzzer, men vanishing)."""
    n = sum(int(x.split("=")[1]) for x in start.strip("{} ").split(","))
    with pytest.raises(VariantError) as err:
        variant(f"board.checkers={n}", f"board.start={start}")
    [problem] = [d for d in err.value.diagnostics if d.code == "unplayable"]
    assert "restack" in problem.message and "could stand on pip" in problem.message
    # the same start is fine when a side whose men are all off does not restack
    load_variant("tric-trac-12", [f"board.checkers={n}", f"board.start={start}",
                                  'board.all_off="end"'])


# -- whole matches: properties ----------------------------------------------------------------

BOTS = st.sampled_from(["random", "greedy"])


def _conserved(b: Board) -> bool:
    mine = b[0] + sum(x for x in b[1:25] if x > 0)
    theirs = b[27] - sum(x for x in b[1:25] if x < 0)
    return mine == N and theirs == N and b[25] == b[26] == 0


def _check_match(v: Any, result: Any) -> None:
    ladder = v.ladder
    gen = v.generator
    record = result.throws()
    games = result.extra["games"]
    decisions = iter(g["decision"] for g in games)
    before = v.start if record[0].player == WHITE else flip(v.start)
    prev = None
    for turn in record:
        if prev is not None:
            if prev.decision == "go":
                before = v.start if turn.player == WHITE else flip(v.start)
            elif prev.player == turn.player:
                before = prev.board
            else:
                before = flip(prev.board)
        after = turn.board
        assert _conserved(after)
        assert after[24] >= 0 and after[1] <= 0           # never on the other side's Start
        assert after[13] != 1 and after[12] != -1          # no corner holds one man
        if after[0] >= before[0]:                          # not a restack: a legal play
            legal = {p.board for p in gen.plays(before, *turn.dice)[0]}
            assert after in legal
        if turn.decision in ("go", "continue"):
            assert turn.decision == next(decisions)
        prev = turn
    assert result.finished
    totals = {"white": 0, "black": 0}
    for i, g in enumerate(games):
        pts = g["points"]
        loser = "black" if g["winner"] == "white" else "white"
        assert pts[g["winner"]] >= ladder.target > pts[loser]
        assert g["value"] == value_of(v, pts[loser])
        assert g["excess"] == pts[g["winner"]] - ladder.target
        assert (g["decision"] is None) == (i == len(games) - 1)
        if i:
            assert g["continued"] == (games[i - 1]["decision"] == "continue")
        totals[g["winner"]] += g["value"]
    assert result.extra["match"]["score"] == totals == dict(zip(("white", "black"), result.points))
    assert len(games) == ladder.match_games
    w, b = totals["white"], totals["black"]
    assert result.winner == (0 if w > b else 1 if b > w else None)


@settings(max_examples=scaled(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), white=BOTS, black=BOTS)
def test_bot_matches_conserve_men_end_and_value_games_by_the_loser_points(
        seed: int, white: str, black: str) -> None:
    v = variant("ladder.match_games=3")
    result = play_game(v, seed, 0, white, black, max_turns=5000, keep_record=True)
    _check_match(v, result)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_house_rules_matches_end_too(seed: int) -> None:
    v = variant("ladder.match_games=2", 'options.prime_scores_on="every_throw"',
                'dice.extra_throw="optional"', 'ladder.restart="roll_off"',
                'options.double_threshold="below_6"', "movement.higher_number=true",
                'movement.bear_off="all_home"')
    result = play_game(v, seed, 0, "random", "greedy", max_turns=5000, keep_record=True)
    _check_match(v, result)


def test_a_full_match_is_reproducible() -> None:
    v = variant()
    a = play_game(v, 7, 0, "greedy", "random", keep_record=True)
    b = play_game(v, 7, 0, "greedy", "random", keep_record=True)
    assert a.summary(v.id) == b.summary(v.id)
    _check_match(v, a)
    assert len(a.extra["games"]) == 12


def test_bots_continue_only_with_an_advantage() -> None:
    v = variant()
    m = match(v)
    m.points = [13, 0]
    m.score(WHITE, 0, 0)                       # White won with 1 point to carry

    def view(b: Board) -> SimpleNamespace:
        p = m.pending
        return SimpleNamespace(variant=v, board=b, ladder={
            "kind": "continuous", "pending": {"winner": "me", "value": p.value,
                                              "excess": p.excess}})
    assert policy.continuous(view(v.start)) == "continue"
    m.pending.excess = 0
    assert policy.continuous(view(v.start)) == "go"    # nothing carried, an even position
    assert policy.continuous(view(board({**PRIME, 3: 3}, {1: N}))) == "continue"


# -- the command line -------------------------------------------------------------------------


def test_cli_play_summarises_the_match(capsys) -> None:
    assert main(["play", "tric-trac-12", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "tric-trac-12" and out["finished"] is True
    assert len(out["games"]) == 12
    assert set(out["games"][0]) >= {"winner", "points", "value", "decision", "excess"}
    assert out["score"] == out["match"]["score"]
    assert out["winner"] == out["match"]["winner"]


def test_cli_play_one_game_and_unfinished(capsys) -> None:
    assert main(["play", "tric-trac-12", "--seed", "2", "--json",
                 "--set", "ladder.match_games=1"]) == 0
    out = json.loads(capsys.readouterr().out)
    [game] = out["games"]
    assert out["finished"] and out["value"] == game["value"] and game["decision"] is None
    assert main(["play", "tric-trac-12", "--seed", "2", "--json", "--max-turns", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is False and out["winner"] is None and out["games"] == []


def test_cli_simulate_and_bench(capsys) -> None:
    assert main(["simulate", "tric-trac-12", "--games", "20", "--json",
                 "--set", "ladder.match_games=1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["wins"]["white"] + out["wins"]["black"] == 20 and out["unfinished"] == 0
    assert out["rule_firings"]["borne-off"]["total"] > 0
    from interpreter.bench import run_bench
    report = run_bench(["tric-trac-12"], games=2, runs=1)
    assert report["tric-trac-12"]["games_per_second"] > 0


def test_the_ladder_docstring_example() -> None:
    import doctest

    import interpreter.scoring.twelve as module
    assert doctest.testmod(module).failed == 0
