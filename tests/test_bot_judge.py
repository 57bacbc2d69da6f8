"""The search player's default judgement reads each variant's geometry: the route the opponent
runs, pinned men, men waiting off the board to enter; the games of a rotation are judged by
their own files, in the match's unit."""
from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from interpreter.engine.game import Game  # noqa: E402
from interpreter.kernel.board import PINS, POOL, OPP_POOL  # noqa: E402
from interpreter.players.base import capabilities_of  # noqa: E402
from interpreter.players.bots import GreedyBot  # noqa: E402
from interpreter.players.kinds import make_player  # noqa: E402
from interpreter.players.heuristic import HeuristicJudge  # noqa: E402
from interpreter.players.utility import of_game_end, of_outcomes  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402


def board(v, mine: dict[int, int], theirs: dict[int, int], **slots: int) -> tuple:
    """A board of variant v: the mover's men by pip, the opponent's by the mover's pips."""
    b = [0] * v.geometry.size
    for p, n in mine.items():
        b[p] += n
    for p, n in theirs.items():
        b[p] -= n
    for index, value in slots.items():
        b[{"pins": PINS, "pool": POOL, "opp_pool": OPP_POOL}[index]] = value
    return tuple(b)


def test_a_pinned_man_still_has_his_pips_to_go_and_counts_against_his_side():
    v = load_variant("plakoto")
    judge = HeuristicJudge(v)
    # the mover's man on pip 10 pins a lone opposing man; the same men with nobody pinned
    pinning = board(v, {24: 14, 10: 1}, {1: 14, 10: 0}, pins=1 << 10)
    pinning = pinning[:10] + (1,) + pinning[11:]
    free = board(v, {24: 14, 11: 1}, {1: 14, 10: 1})
    assert judge.position(pinning, False)[0] > judge.position(free, False)[0]
    # seen by the pinned side, his pinned man is on the board, not gone home
    flipped = v.flip(pinning)
    assert judge.side_score(flipped)[0] < judge.side_score(v.flip(free))[0]


def test_pinning_the_mother_outweighs_any_other_pin():
    v = load_variant("plakoto")
    judge = HeuristicJudge(v)
    # the opponent's last man on his start (the mover's pip 1) pinned, or another one of his
    mother = board(v, {24: 13, 1: 1, 8: 1}, {20: 14}, pins=1 << 1)
    other = board(v, {24: 13, 3: 1, 8: 1}, {1: 1, 20: 13}, pins=1 << 3)
    assert judge.position(mother, False)[0] > judge.position(other, False)[0]


def test_in_a_same_direction_race_the_opponent_is_ahead_where_his_route_says():
    v = load_variant("long-nardy")
    judge = HeuristicJudge(v)
    # the mover's men on pip 8; the opponent's on the mover's pip 10, his own pip 22: the
    # mover's men stand in his way (contact), though no opposing man is ahead of the mover's
    b = board(v, {8: 15}, {10: 15})
    assert judge.side_score(b)[1] is True
    # the opponent's men on the mover's pip 20 (his pip 8) have passed the mover's: a race
    race = board(v, {8: 15}, {20: 15})
    assert judge.side_score(race)[1] is False
    # backgammon's geometry reads the first board as a race
    bg = HeuristicJudge(load_variant("backgammon"))
    assert bg.side_score(board(bg.variant, {8: 15}, {10: 15}))[1] is False


def test_points_closing_the_opponents_way_count_in_long_nardy():
    v = load_variant("long-nardy")
    judge = HeuristicJudge(v)
    assert judge.W_STUCK > 0                     # the file's [bot] weights
    # his men on his head (the mover's pip 12); the mover's men on the six points ahead of
    # them, or on six points behind them
    ahead = board(v, {11: 2, 10: 2, 9: 2, 8: 3, 7: 3, 6: 3}, {12: 15})
    behind = board(v, {17: 2, 16: 2, 15: 2, 14: 3, 13: 3, 6: 3}, {12: 15})
    fa, fb = v.flip(ahead), v.flip(behind)
    assert judge.side_score(fa)[0] < judge.side_score(fb)[0] - 20


def test_men_waiting_to_enter_threaten_blots_where_they_come_in():
    v = load_variant("acey-deucey")
    judge = HeuristicJudge(v)
    # the opponent has nothing on the board, all fifteen wait to enter on the mover's pips 1..6
    b = board(v, {3: 1, 20: 2}, {}, pool=12, opp_pool=15)
    assert judge._hit_chance(b, 3) == pytest.approx(11 / 36 + 2 / 36 + 1 / 36)   # 3s, 2-1, 1-1
    # a blot no throw carries an entering man to (22 pips: no doublet divides it) is safe
    far = board(v, {22: 1, 20: 2}, {}, pool=12, opp_pool=15)
    assert judge._hit_chance(far, 22) == 0.0


def test_the_games_of_a_rotation_are_judged_by_their_own_files():
    v = load_variant("tavli")
    player = make_player("search:1", "rot:white", v)
    seen: dict[str, str] = {}
    adopt = player.adopt

    def noting(variant):
        adopt(variant)
        seen[variant.id] = player.judge.variant.id

    player.adopt = noting
    players = (player, GreedyBot("rot:black"))
    result = Game(v, "rot-1", keep_record=False, max_turns=20000,
                  doubles=capabilities_of(players)).run(players)
    assert result.finished
    played = [g["variant"] for g in result.extra["games"]]
    assert {vid: vid for vid in set(played)} == seen


def test_a_rotation_is_judged_in_match_winning_chances():
    state = {"kind": "rotation", "match_points": 5, "score": {"me": 4, "opponent": 3}}
    assert of_game_end(True, 1, state) == pytest.approx(1.0)       # the match won
    assert of_game_end(False, 2, state) == pytest.approx(-1.0)     # a double game loses it
    behind = {"kind": "rotation", "match_points": 5, "score": {"me": 0, "opponent": 3}}
    assert of_game_end(True, 2, behind) > of_game_end(True, 1, behind)
    import numpy as np
    # the same chance of winning the game is worth more to the side closer to the match
    Y = np.array([[0.5, 0.0, 0.0]])
    ahead = {"kind": "rotation", "match_points": 5, "score": {"me": 3, "opponent": 0}}
    assert of_outcomes(Y, (2,), ahead)[0] > 0 > of_outcomes(Y, (2,), behind)[0]


def _continuous(points: tuple[int, int], games: tuple[int, int]) -> dict:
    return {"kind": "continuous", "points": {"me": points[0], "opponent": points[1]},
            "target": 12, "game": 3, "games": {"me": games[0], "opponent": games[1]},
            "last_game": False, "pending": None}


def test_in_the_continuous_match_a_game_is_worth_its_files_value_on_the_losers_points():
    from interpreter.players.leaves import Leaf

    v = load_variant("tric-trac-12")
    judge = HeuristicJudge(v)

    def value(points, games=(0, 0)):
        return judge.points_value(Leaf(v.start, False, (9, 9), _continuous(points, games)))

    # 11 points to none: the game, nearly won, is worth four (the loser has no point); one
    # point of the opponent's makes it a triple game, three a double
    shut_out, one, three = value((11, 0)), value((11, 1)), value((11, 3))
    assert 3.0 < shut_out <= 4.0
    assert shut_out - one > 0.7 and one - three > 0.7
    # the match's totals add in the same game values
    assert value((11, 0), (2, 0)) == pytest.approx(shut_out + 2.0)


def test_a_finished_match_is_valued_in_the_unit_of_one_going_on():
    from interpreter.players.leaves import Leaf

    v = load_variant("tric-trac-12")
    judge = HeuristicJudge(v)
    over = Leaf(v.start, False, (9, 9), _continuous((0, 0), (5, 1)), over=True)
    going_on = Leaf(v.start, False, (9, 9), _continuous((0, 0), (4, 1)))
    # a match won by four games' values is worth four; one three ahead, its game in progress
    # even, about three
    assert judge.points_value(over) == pytest.approx(4.0)
    assert judge.points_value(going_on) < judge.points_value(over)
    assert abs(judge.points_value(going_on) - 3.0) < 0.5


def test_every_weight_a_bot_table_may_set_is_one_the_judge_reads():
    from interpreter.variant.schema import BOT_WEIGHTS

    assert set(BOT_WEIGHTS) == set(HeuristicJudge.NAMES)
    for name, attribute in HeuristicJudge.NAMES.items():
        assert isinstance(getattr(HeuristicJudge, attribute), float), name
