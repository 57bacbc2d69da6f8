"""Match play (rules/match-scoring.md §7.4): the Crawford rule, matches of any length, the match
runner and its summary, and properties of match scores."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.cli import main
from interpreter.engine.events import Cubed, MatchGameBegun
from collections import namedtuple
from dataclasses import dataclass, field

CubeEvent = namedtuple("CubeEvent", "player what value")


@dataclass
class GameLog:
    """One game of a played match, from the game's log: the score before it, its cube actions
    (takes and passes with value 0) and its entry in the match (None: unfinished)."""

    number: int
    score_before: tuple
    events: list = field(default_factory=list)
    entry: object = None


def game_logs(result) -> list:
    logs: list = []
    for e in result.log:
        if isinstance(e, MatchGameBegun):
            logs.append(GameLog(e.number, e.score))
        elif isinstance(e, Cubed) and e.side is not None:
            logs[-1].events.append(CubeEvent(e.side, e.action,
                                             0 if e.action in ("take", "pass") else e.value))
    for log, entry in zip(logs, result.match.games):
        log.entry = entry
    return logs
from interpreter.scoring.cube import CubeLadder, Match
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

A, B = 0, 1


def match_variant(n: int, *more: str):
    return load_variant("backgammon", [f"ladder.match_length={n}", *more])


def win(match: Match, player: int, points: int) -> None:
    cube = match.new_game()
    match.finish(cube, player, points, 1, "play")


# -- the Crawford rule -----------------------------------------------------------------------------

def test_crawford_example_4_1_then_4_2():
    """§7.4 / B7: a 5-point match at 4–1 plays the Crawford game; the trailer wins it (4–2) and
    doubling is allowed again."""
    match = Match(CubeLadder(match_length=5))
    win(match, A, 2)
    win(match, B, 1)
    win(match, A, 2)                                    # 4–1: A is 1-away for the first time
    assert match.score == [4, 1] and match.next_is_crawford
    crawford = match.new_game()
    assert crawford.crawford and not (crawford.may_double(A) or crawford.may_double(B))
    assert match.crawford_game == 4
    match.finish(crawford, B, 1, 1, "play")             # 4–2
    post = match.new_game()
    assert not post.crawford and post.may_double(B) and post.may_double(A)
    post.offer(B)
    post.take(A)
    match.finish(post, B, 2, 1, "play")                 # 4–4: no second Crawford game
    last = match.new_game()
    assert not last.crawford and last.may_double(A)
    match.finish(last, A, 1, 1, "play")
    assert match.finished and match.winner == A and match.score == [5, 4]
    assert [g.crawford for g in match.games] == [False, False, False, True, False, False]


def test_crawford_game_won_by_the_leader_ends_the_match():
    match = Match(CubeLadder(match_length=3), score=[2, 0])
    cube = match.new_game()
    assert cube.crawford
    match.finish(cube, A, 2, 2, "play")
    assert match.finished and match.winner == A and match.score == [4, 0]


def test_crawford_rule_off_and_one_point_matches():
    match = Match(CubeLadder(match_length=5, crawford=False), score=[4, 1])
    assert match.new_game().may_double(B)
    one = Match(CubeLadder(match_length=1))
    assert not one.next_is_crawford and not one.new_game().may_double(A)


def test_jump_over_n_minus_1_wins_without_a_crawford_game():
    match = Match(CubeLadder(match_length=5), score=[3, 0])
    cube = match.new_game()
    cube.offer(A)
    cube.take(B)
    match.finish(cube, A, 4, 2, "play")
    assert match.finished and match.crawford_game is None


def test_reaching_n_minus_1_by_a_pass():
    match = Match(CubeLadder(match_length=3))
    cube = match.new_game()
    cube.offer(B)
    winner, points = cube.drop(A)
    match.finish(cube, winner, points, 0, "pass")
    win(match, B, 1)
    assert match.score == [0, 2] and match.next_is_crawford


# -- the match runner ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 5, 11])
def test_matches_of_any_length_are_played_to_the_end(n):
    variant = match_variant(n)
    result = play_game(variant, 6, n, "greedy", "greedy", keep_record=True)
    assert result.finished and max(result.points) >= n
    games = result.extra["games"]
    assert result.extra["match_length"] == n
    assert sum(g["points"] for g in games) == sum(result.points)
    assert max(result.points) - games[-1]["points"] < n        # the last game decided it
    winner = ("white", "black")[result.winner]
    assert games[-1]["winner"] == winner and games[-1]["score"][winner] >= n
    if n == 1:
        assert all(not isinstance(e, CubeEvent) for log in game_logs(result) for e in log.events)


def test_crawford_game_in_a_live_match_has_no_cube_action():
    found = False
    for i in range(12):
        result = play_game(match_variant(5), 8, i, "greedy", "greedy", keep_record=True)
        c = result.extra["crawford_game"]
        if c is None:
            continue
        found = True
        log = game_logs(result)[c - 1]
        assert result.extra["games"][c - 1]["crawford"]
        assert not [e for e in log.events if isinstance(e, CubeEvent)]
        before = log.score_before
        assert sorted(before)[1] == 4 and sorted(before)[0] < 4
    assert found


def test_max_turns_stops_a_match_unfinished():
    result = play_game(match_variant(9), 1, 0, "greedy", "greedy", max_turns=50,
                       keep_record=True)
    assert not result.finished and result.winner is None and result.turns == 50
    assert game_logs(result)[-1].entry is None


def test_play_json_summarises_the_match(capsys):
    assert main(["play", "backgammon", "--set", "ladder.match_length=5", "--white", "greedy",
                 "--black", "greedy", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["match_length"] == 5 and out["finished"] and out["crawford_rule"] is True
    assert max(out["score"].values()) >= 5
    for g in out["games"]:
        assert {"game", "winner", "points", "result", "cube", "cube_owner", "crawford",
                "score", "turns"} <= set(g)
    assert [g["crawford"] for g in out["games"]].count(True) <= 1
    if out["crawford_game"] is not None:
        assert out["games"][out["crawford_game"] - 1]["crawford"]


def test_play_text_lists_the_games(capsys):
    assert main(["play", "backgammon", "--set", "ladder.match_length=3", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert "game 1: " in text and "score white" in text


def test_money_play_stays_the_default(capsys):
    assert main(["play", "backgammon", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["match_length"] == 0 and len(out["games"]) == 1
    assert out["value"] == out["games"][0]["points"]


def test_simulate_plays_matches(capsys):
    assert main(["simulate", "backgammon", "--set", "ladder.match_length=3", "--games", "6",
                 "--white", "greedy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unfinished"] == 0 and sum(out["wins"].values()) == 6


# -- properties ------------------------------------------------------------------------------------

@settings(max_examples=scaled(150), deadline=None)
@given(n=st.integers(1, 15), crawford=st.booleans(),
       results=st.lists(st.tuples(st.integers(0, 1), st.sampled_from([1, 2, 3, 4, 6, 8])),
                        max_size=40))
def test_match_properties(n, crawford, results):
    """Scores only grow, there is at most one Crawford game, it comes right after the first
    score at N − 1, nobody may double in it, and the match ends at N."""
    match = Match(CubeLadder(match_length=n, crawford=crawford))
    first_at = None
    for player, points in results:
        if match.finished:
            break
        cube = match.new_game()
        if cube.crawford:
            assert not cube.may_double(0) and not cube.may_double(1)
            assert crawford and n > 1 and first_at == len(match.games)
        elif first_at is not None and crawford and n > 1:
            assert len(match.games) > first_at        # only the first game after it
        before = list(match.score)
        match.finish(cube, player, points, 1, "play")
        assert all(a >= b for a, b in zip(match.score, before))
        assert sum(match.score) == sum(before) + points
        if first_at is None and n - 1 in match.score and not match.finished:
            first_at = len(match.games)
    assert sum(g.crawford for g in match.games) <= 1
    if match.finished:
        assert max(match.score) >= n and match.score[match.winner] >= n


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), white=st.sampled_from(["greedy", "random"]),
       n=st.sampled_from([3, 5]))
def test_live_match_properties(seed, white, n):
    """In played matches: cube values are powers of two within the cap, only the owner (or
    anyone while centred) doubles, the Crawford game has no double, scores only grow."""
    result = play_game(match_variant(n), seed, 0, white, "greedy", keep_record=True)
    previous = [0, 0]
    for log in game_logs(result):
        assert all(s >= p for s, p in zip(log.score_before, previous))
        previous = list(log.score_before)
        value, owner = 1, None
        for e in log.events:
            if not isinstance(e, CubeEvent):
                continue
            assert not log.entry or not log.entry.crawford
            if e.what == "double":
                assert owner in (None, e.player)
                assert e.value == 2 * value and e.value <= 64
            elif e.what == "take":
                value, owner = 2 * value, e.player
        if log.entry is not None:
            assert (log.entry.cube, log.entry.owner) == (value, owner)
