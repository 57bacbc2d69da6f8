"""The reference of the third tables-family part (tests/reference_tables4.py): every worked
example of its §15, a few options worked by hand, the JSON form, and seeded random play from
each game's start checking what must hold of every result."""
from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from budget import full, scaled
from reference_tables4 import (GAMES, MEN, SIZE, Pos, Result, check, draw_by_block, from_json,
                               has_single_move, limit_violations, next_position, result_to_json,
                               results, start, throw_dice, to_json, turn)

QT, DC, SD, CQ, TT = "quinze-tablas", "doze-canes", "seys-dos-e-as", "cab-e-quinal", "todas-tablas"
ME, PE, FA, LQ, DB = "medio-emperador", "pareia-de-entrada", "fallas", "laquet", "doblet"
XS, BB, VQ = "xii-scripta", "buffa-de-baldrac", "verquere"

WIN = ("mover", 1)
LOSS = ("opponent", 1)


def got(game: str, pos: Pos, dice: tuple[int, ...] = (), **opts: Any) -> set[Result]:
    rs = results(game, pos, dice, **opts)
    assert len(rs) == len(set(rs)), "results are distinct"
    return set(rs)


def like(game: str, base: Pos, w: dict[int, int], b: dict[int, int], **kw: Any) -> Pos:
    """A position of `game` with the game state (goal, starts, fixed die) of `base`."""
    kw.setdefault("goal", base.goal)
    kw.setdefault("starts", base.starts)
    kw.setdefault("fixed_die", base.fixed_die)
    return Pos.of(game, w, b, **kw)


def res(pos: Pos, nxt: str = "end", passed: tuple[int, ...] = (),
        over: tuple[str, int] | None = None) -> Result:
    return Result(pos, nxt, passed, over)


# ---------------------------------------------------------------------------------------------
# Quinze tablas

def test_QT1_two_men_a_point_and_hits_on_resting_points() -> None:
    p = Pos.of(QT, {20: 1, 17: 2}, {16: 1, 13: 2})
    B = {16: 1, 13: 2}
    Bh = {13: 2}

    def hit(w: dict[int, int]) -> Result:
        return res(like(QT, p, w, Bh, b_bar=1, b_off=12))

    def stand(w: dict[int, int]) -> Result:
        return res(like(QT, p, w, B))
    assert got(QT, p, (4, 3, 1)) == {
        hit({20: 1, 17: 1, 9: 1}), stand({20: 1, 17: 1, 9: 1}),
        hit({20: 1, 16: 1, 10: 1}), stand({19: 1, 17: 1, 10: 1}),
        hit({20: 1, 14: 1, 12: 1}), hit({17: 2, 12: 1}), stand({17: 2, 12: 1}),
        hit({17: 1, 15: 1, 14: 1}), stand({17: 1, 15: 1, 14: 1}), hit({16: 2, 14: 1})}


def test_QT2_last_man_off_wins_mid_throw() -> None:
    p = Pos.of(QT, {3: 1, 2: 1}, {20: 14, 5: 1})
    assert got(QT, p, (3, 2, 1)) == {res(Pos.of(QT, {}, {20: 14, 5: 1}), over=WIN)}


def test_QT3_exact_bearing_off_at_any_time() -> None:
    p = Pos.of(QT, {10: 1, 2: 1}, {20: 15})
    B = {20: 15}
    assert got(QT, p, (6, 5, 2)) == {
        res(Pos.of(QT, {3: 1, 2: 1}, B)), res(Pos.of(QT, {2: 2}, B)),
        res(Pos.of(QT, {4: 1}, B)), res(Pos.of(QT, {5: 1}, B))}


# ---------------------------------------------------------------------------------------------
# Doze canes

def test_DC1_enter_and_move_on() -> None:
    p = start(DC, 0, goal=(1, 6))
    assert p.w_wait == 12 and p.b_wait == 12
    assert got(DC, p, (5, 3)) == {
        res(like(DC, p, {22: 1, 20: 1}, {})), res(like(DC, p, {17: 1}, {}))}


def test_DC2_goal_reached_mid_throw() -> None:
    p = Pos.of(DC, {9: 1, 6: 2, 5: 2, 4: 2, 3: 1, 2: 2, 1: 2}, {20: 6, 19: 6}, goal=(1, 6))
    B = {20: 6, 19: 6}
    assert got(DC, p, (6, 5)) == {
        res(like(DC, p, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, B), over=WIN),
        res(like(DC, p, {6: 1, 5: 2, 4: 2, 3: 2, 2: 2, 1: 3}, B))}


def test_DC2_goal_tested_at_the_end_of_play_option() -> None:
    p = Pos.of(DC, {9: 1, 6: 2, 5: 2, 4: 2, 3: 1, 2: 2, 1: 2}, {20: 6, 19: 6}, goal=(1, 6))
    assert got(DC, p, (6, 5), dc_win_check="end_of_play") == {
        res(like(DC, p, {6: 1, 5: 2, 4: 2, 3: 2, 2: 2, 1: 3}, {20: 6, 19: 6}))}


def test_DC3_hit_man_rejoins_the_unentered() -> None:
    p = Pos.of(DC, {13: 1}, {20: 6, 10: 1}, goal=(1, 6))
    assert (p.w_wait, p.b_wait) == (11, 5)
    B, Bh = {20: 6, 10: 1}, {20: 6}
    assert got(DC, p, (3, 2)) == {
        res(like(DC, p, {8: 1}, Bh)), res(like(DC, p, {8: 1}, B)),
        res(like(DC, p, {23: 1, 10: 1}, Bh)), res(like(DC, p, {22: 1, 11: 1}, B)),
        res(like(DC, p, {23: 1, 22: 1, 13: 1}, B))}
    hit = [r for r in got(DC, p, (3, 2)) if 10 not in r.pos.b_dict()]
    assert all(r.pos.b_wait == 6 and r.pos.b_bar == 0 for r in hit)


# ---------------------------------------------------------------------------------------------
# Seys dos e as

SD1 = [{18: 8, 14: 4, 13: 2, 4: 1}, {18: 8, 14: 4, 13: 1, 12: 1, 5: 1}, {18: 8, 14: 3, 13: 3, 5: 1},
       {18: 8, 14: 4, 13: 1, 11: 1, 6: 1}, {18: 8, 14: 3, 13: 2, 12: 1, 6: 1},
       {18: 8, 14: 2, 13: 4, 6: 1}, {18: 8, 14: 4, 13: 1, 10: 1, 7: 1},
       {18: 8, 14: 4, 12: 1, 11: 1, 7: 1}, {18: 8, 14: 3, 13: 2, 11: 1, 7: 1},
       {18: 8, 14: 2, 13: 3, 12: 1, 7: 1}, {18: 8, 14: 3, 13: 1, 12: 2, 7: 1},
       {18: 8, 14: 3, 13: 2, 10: 1, 8: 1}, {18: 8, 14: 3, 13: 1, 12: 1, 11: 1, 8: 1},
       {18: 8, 14: 2, 13: 3, 11: 1, 8: 1}, {18: 8, 14: 1, 13: 4, 12: 1, 8: 1},
       {18: 8, 14: 2, 13: 2, 12: 2, 8: 1}, {18: 7, 14: 4, 13: 3, 9: 1},
       {18: 7, 14: 4, 13: 2, 12: 1, 10: 1}, {18: 7, 14: 3, 13: 4, 10: 1},
       {18: 7, 14: 3, 13: 3, 12: 1, 11: 1}, {18: 7, 14: 4, 13: 1, 12: 2, 11: 1},
       {18: 7, 14: 4, 13: 2, 11: 2}, {18: 7, 14: 2, 13: 4, 12: 2}, {18: 7, 14: 3, 13: 2, 12: 3}]


def test_SD1_opening_of_the_8_4_3_side() -> None:
    p = start(SD, 0)
    B = {17: 5, 16: 5, 15: 5}
    assert p.w_dict() == {18: 8, 14: 4, 13: 3} and p.b_dict() == B
    assert got(SD, p, (6, 2, 1)) == {res(Pos.of(SD, w, B)) for w in SD1}
    assert len(SD1) == 24


def test_SD2_opening_of_the_5_5_5_side() -> None:
    p = start(SD, 1)
    B = {18: 8, 14: 4, 13: 3}
    assert p.w_dict() == {17: 5, 16: 5, 15: 5} and p.b_dict() == B
    want = [{17: 5, 16: 5, 15: 4, 6: 1}, {17: 4, 16: 6, 15: 4, 7: 1}, {17: 5, 16: 4, 15: 5, 7: 1},
            {17: 4, 16: 5, 15: 5, 8: 1}, {17: 5, 16: 3, 15: 6, 8: 1}, {17: 3, 16: 6, 15: 5, 9: 1},
            {17: 4, 16: 4, 15: 6, 9: 1}, {17: 3, 16: 5, 15: 6, 10: 1},
            {17: 4, 16: 3, 15: 7, 10: 1}, {17: 2, 16: 6, 15: 6, 11: 1},
            {17: 3, 16: 4, 15: 7, 11: 1}]
    assert got(SD, p, (6, 2, 1)) == {res(Pos.of(SD, w, B)) for w in want}


def test_SD3_hit_on_the_shared_route_and_bearing_off() -> None:
    p = Pos.of(SD, {4: 2, 2: 1}, {17: 12, 3: 1, 1: 2})
    Bh = {17: 12, 1: 2}
    assert got(SD, p, (2, 1, 1)) == {
        res(Pos.of(SD, {4: 1, 2: 1}, Bh, b_bar=1)), res(Pos.of(SD, {2: 3}, Bh, b_bar=1)),
        res(Pos.of(SD, {3: 2}, Bh, b_bar=1))}


def test_SD3_second_quarter_option_places_the_man_on_pip_12() -> None:
    p = Pos.of(SD, {4: 2, 2: 1}, {17: 12, 3: 1, 1: 2})
    Bp = {17: 12, 12: 1, 1: 2}
    assert got(SD, p, (2, 1, 1), sd_hit="second_quarter") == {
        res(Pos.of(SD, {4: 1, 2: 1}, Bp)), res(Pos.of(SD, {2: 3}, Bp)),
        res(Pos.of(SD, {3: 2}, Bp))}


# ---------------------------------------------------------------------------------------------
# Cab e quinal

def test_CQ1_opening_of_the_pip_19_side() -> None:
    p = start(CQ, 0)
    assert p.starts == (19, 20)
    B = {20: 15}
    want = [{19: 14, 7: 1}, {19: 13, 18: 1, 8: 1}, {19: 13, 14: 1, 12: 1}, {19: 13, 13: 2},
            {19: 12, 18: 1, 14: 1, 13: 1}]
    assert got(CQ, p, (6, 5, 1)) == {res(like(CQ, p, w, B)) for w in want}


def test_CQ2_opening_of_the_pip_20_side() -> None:
    p = start(CQ, 1)
    assert p.starts == (20, 19)
    B = {19: 15}
    want = [{20: 14, 8: 1}, {20: 13, 15: 1, 13: 1}, {20: 13, 14: 2}]
    assert got(CQ, p, (6, 5, 1)) == {res(like(CQ, p, w, B)) for w in want}


def test_CQ3_hit_man_back_on_its_start() -> None:
    p = Pos.of(CQ, {9: 1, 6: 1}, {19: 12, 7: 1, 2: 2}, starts=(20, 19))
    B, Bh = {19: 12, 7: 1, 2: 2}, {19: 13, 2: 2}
    assert got(CQ, p, (2, 1, 1)) == {
        res(like(CQ, p, {8: 1, 3: 1}, B)), res(like(CQ, p, {7: 1, 4: 1}, Bh)),
        res(like(CQ, p, {6: 1, 5: 1}, B)), res(like(CQ, p, {6: 1, 5: 1}, Bh))}


def test_CQ3_enter_option_sends_every_hit_man_off_the_board() -> None:
    p = Pos.of(CQ, {9: 1, 6: 1}, {19: 12, 7: 1, 2: 2}, starts=(20, 19))
    B, Bh = {19: 12, 7: 1, 2: 2}, {19: 12, 2: 2}
    assert got(CQ, p, (2, 1, 1), cq_hit="enter") == {
        res(like(CQ, p, {8: 1, 3: 1}, B)), res(like(CQ, p, {7: 1, 4: 1}, Bh, b_bar=1)),
        res(like(CQ, p, {6: 1, 5: 1}, B)), res(like(CQ, p, {6: 1, 5: 1}, Bh, b_bar=1))}


def test_CQ4_start_point_occupied_by_the_hitter() -> None:
    p = Pos.of(CQ, {19: 1, 9: 1, 6: 1}, {18: 12, 7: 1, 2: 2}, starts=(20, 19))
    rs = got(CQ, p, (2, 1, 1))
    assert len(rs) == 11
    assert res(like(CQ, p, {19: 1, 7: 1, 4: 1}, {18: 12, 2: 2}, b_bar=1)) in rs
    assert res(like(CQ, p, {17: 1, 7: 1, 6: 1}, {19: 1, 18: 12, 2: 2})) in rs
    assert res(like(CQ, p, {17: 1, 7: 1, 6: 1}, {18: 12, 2: 2}, b_bar=1)) in rs
    assert all(r.next == "end" and r.game_over is None for r in rs)


def test_CQ_fixed_third_die_layout_and_throw() -> None:
    p = start(CQ, 0, cq_third_die="fixed", fixed_die=3)
    assert p.w_dict() == {19: 14, 6: 1} and p.b_dict() == {20: 14, 21: 1} and p.fixed_die == 3
    q = start(CQ, 1, cq_third_die="fixed", fixed_die=3)
    assert q.w_dict() == {20: 14, 21: 1} and q.b_dict() == {19: 14, 6: 1}
    # the thrown 1-1 and the fixed 3: 6/5/4/1 uses all three numbers with one man
    rs = got(CQ, p, (1, 1), cq_third_die="fixed")
    assert res(like(CQ, p, {19: 14, 1: 1}, {20: 14, 21: 1})) in rs
    with pytest.raises(ValueError):
        results(CQ, p, (1, 1, 3), cq_third_die="fixed")
    with pytest.raises(ValueError):
        start(CQ, 0, cq_third_die="fixed")


# ---------------------------------------------------------------------------------------------
# Todas tablas

def test_TT1_hit_man_placed_in_its_starting_quarter() -> None:
    p = Pos.of(TT, {13: 1, 6: 1}, {10: 1, 3: 2})
    B, Bp = {10: 1, 3: 2}, {1: 1, 3: 2}
    assert got(TT, p, (3, 2)) == {
        res(Pos.of(TT, {13: 1, 1: 1}, B)), res(Pos.of(TT, {8: 1, 6: 1}, B)),
        res(Pos.of(TT, {8: 1, 6: 1}, Bp)), res(Pos.of(TT, {10: 1, 4: 1}, Bp))}


def test_TT2_order_of_the_single_moves_changes_the_placement() -> None:
    p = Pos.of(TT, {13: 1, 2: 1, 1: 1}, {20: 14, 10: 1})
    assert got(TT, p, (3, 1)) == {
        res(Pos.of(TT, {9: 1, 2: 1, 1: 1}, {20: 14, 10: 1})),
        res(Pos.of(TT, {9: 1, 2: 1, 1: 1}, {20: 14, 3: 1})),
        res(Pos.of(TT, {10: 1, 1: 2}, {20: 14, 3: 1})),
        res(Pos.of(TT, {10: 1, 1: 2}, {20: 14, 2: 1}))}


def test_TT2_from_the_far_end_option() -> None:
    p = Pos.of(TT, {13: 1, 2: 1, 1: 1}, {20: 14, 10: 1})
    assert got(TT, p, (3, 1), tt_hit_order="from_far_end") == {
        res(Pos.of(TT, {9: 1, 2: 1, 1: 1}, {20: 14, 10: 1})),
        res(Pos.of(TT, {9: 1, 2: 1, 1: 1}, {20: 14, 6: 1})),
        res(Pos.of(TT, {10: 1, 1: 2}, {20: 14, 6: 1}))}


def test_TT3_no_point_free_sends_the_man_to_the_bar() -> None:
    p = Pos.of(TT, {11: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {20: 14, 7: 1})
    hit = [{6: 2, 5: 2, 4: 2, 3: 3, 2: 2, 1: 2}, {7: 1, 6: 1, 5: 2, 4: 2, 3: 2, 2: 3, 1: 2},
           {7: 1, 6: 2, 5: 1, 4: 2, 3: 2, 2: 2, 1: 3}]
    stand = [{11: 1, 5: 2, 4: 2, 3: 2, 2: 4, 1: 2}, {11: 1, 6: 1, 5: 1, 4: 2, 3: 2, 2: 3, 1: 3},
             {11: 1, 6: 2, 4: 2, 3: 2, 2: 2, 1: 4}]
    assert got(TT, p, (4, 4)) == (
        {res(Pos.of(TT, w, {20: 14}, b_bar=1, w_off=2)) for w in hit}
        | {res(Pos.of(TT, w, {20: 14, 7: 1}, w_off=2)) for w in stand})


def test_TT_bar_man_enters_before_anything_else() -> None:
    p = Pos.of(TT, {13: 1}, {20: 14}, w_bar=1, w_off=13)
    # 6 enters on 19 (20 is closed); the 5 then moves either man
    assert got(TT, p, (6, 5)) == {res(Pos.of(TT, {14: 1, 13: 1}, {20: 14}, w_off=13)),
                                  res(Pos.of(TT, {19: 1, 8: 1}, {20: 14}, w_off=13))}


# ---------------------------------------------------------------------------------------------
# Medio emperador

def test_ME1_opening_on_twelve_points() -> None:
    p = start(ME, 0)
    assert p.n == 12 and p.w_dict() == {12: 15} and p.b_dict() == {1: 15}
    B = {1: 15}
    assert got(ME, p, (6, 5, 4)) == {
        res(Pos.of(ME, {12: 12, 8: 1, 7: 1, 6: 1}, B)), res(Pos.of(ME, {12: 13, 7: 1, 2: 1}, B)),
        res(Pos.of(ME, {12: 13, 6: 1, 3: 1}, B))}


def test_ME2_hit_man_to_its_start_or_off_the_board() -> None:
    p = Pos.of(ME, {5: 1, 4: 1}, {12: 13, 3: 1, 1: 1})
    placed, sent = {12: 13, 1: 2}, {12: 13, 3: 1}
    assert got(ME, p, (2, 1, 1)) == {
        res(Pos.of(ME, {3: 1, 2: 1}, placed)), res(Pos.of(ME, {5: 1}, placed)),
        res(Pos.of(ME, {4: 1, 1: 1}, sent, b_bar=1)), res(Pos.of(ME, {5: 1}, sent, b_bar=1))}


def test_ME3_two_dice() -> None:
    p = start(ME, 0, me_dice=2)
    assert got(ME, p, (6, 5), me_dice=2) == {res(Pos.of(ME, {12: 13, 7: 1, 6: 1}, {1: 15}))}


def test_ME_draw_when_neither_side_can_move() -> None:
    # each side's entry points are all closed by the other, and each has men on the bar
    p = Pos.of(ME, {k: 2 for k in range(1, 7)}, {k: 2 for k in range(7, 13)}, w_bar=3, b_bar=3)
    assert draw_by_block(ME, p)
    assert got(ME, p, (6, 5, 4)) == {res(p, over=("draw", 0))}
    assert not draw_by_block(ME, start(ME, 0))
    assert not has_single_move(ME, p, 3)


# ---------------------------------------------------------------------------------------------
# Pareia de entrada

def test_PE1_triplet_played_in_full_throws_again() -> None:
    p = start(PE, 0)
    assert got(PE, p, (3, 3, 3)) == {
        res(Pos.of(PE, {22: 3}, {}), "again"), res(Pos.of(PE, {22: 1, 19: 1}, {}), "again"),
        res(Pos.of(PE, {16: 1}, {}), "again")}


def test_PE2_entries_hit_on_the_shared_route() -> None:
    p = Pos.of(PE, {}, {21: 1})
    B = {21: 1}
    assert got(PE, p, (4, 2, 1)) == {
        res(Pos.of(PE, {18: 1}, {})), res(Pos.of(PE, {18: 1}, B)),
        res(Pos.of(PE, {24: 1, 19: 1}, {})), res(Pos.of(PE, {24: 1, 19: 1}, B)),
        res(Pos.of(PE, {23: 1, 20: 1}, {})), res(Pos.of(PE, {23: 1, 20: 1}, B)),
        res(Pos.of(PE, {22: 1, 21: 1}, {})), res(Pos.of(PE, {24: 1, 23: 1, 21: 1}, {}))}
    assert all(r.pos.b_wait == 15 for r in got(PE, p, (4, 2, 1)) if not r.pos.b_dict())


def test_PE3_triplet_not_played_in_full_gives_no_new_throw() -> None:
    p = Pos.of(PE, {5: 1, 3: 1}, {24: 11, 2: 2, 1: 2}, w_off=13)
    want = Pos.of(PE, {3: 2}, {24: 11, 2: 2, 1: 2}, w_off=13)
    assert got(PE, p, (2, 2, 2)) == {res(want)}
    assert got(PE, p, (2, 2, 2), pe_again_needs_full="no") == {res(want, "again")}


def test_PE_any_pair_option() -> None:
    p = start(PE, 0)
    assert {r.next for r in got(PE, p, (4, 4, 1))} == {"end"}
    assert {r.next for r in got(PE, p, (4, 4, 1), pe_again="any_pair")} == {"again"}


# ---------------------------------------------------------------------------------------------
# Fallas

def test_FA1_opening() -> None:
    p = start(FA, 0)
    B = {12: 2, 7: 13}
    want = [{18: 13, 13: 1, 1: 1}, {18: 12, 17: 1, 13: 1, 2: 1}, {18: 12, 13: 2, 6: 1},
            {18: 12, 13: 1, 11: 1, 8: 1}, {18: 11, 13: 3, 11: 1}]
    assert got(FA, p, (6, 5, 1)) == {res(Pos.of(FA, w, B)) for w in want}


def test_FA2_hit_man_with_nowhere_to_go_wins_mid_throw() -> None:
    p = Pos.of(FA, {12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {21: 6, 20: 6, 6: 1, 3: 2})
    rs = got(FA, p, (1, 1, 1))
    assert len(rs) == 41
    over = [r for r in rs if r.game_over]
    assert over == [res(Pos.of(FA, {12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1},
                               {21: 6, 20: 6, 3: 2}, b_bar=1), over=WIN)]
    B = {21: 6, 20: 6, 3: 2}
    assert res(Pos.of(FA, {11: 2, 10: 1, 9: 1, 8: 1, 7: 1, 5: 1}, B | {12: 1})) in rs
    assert res(Pos.of(FA, {12: 1, 11: 1, 10: 1, 8: 1, 7: 2, 6: 1}, B | {9: 1})) in rs


def test_FA3_a_throw_with_no_single_move_loses() -> None:
    p = Pos.of(FA, {15: 1}, {14: 2, 13: 2, 12: 2, 11: 2, 10: 2, 9: 2, 3: 3})
    assert got(FA, p, (3, 2, 1)) == {res(p, over=LOSS)}


def test_FA_any_unplayable_option() -> None:
    # 10/4 and 10/5 are closed, and so are 9/3 and 9/4 after 10/9: only the 1 can be played
    p = Pos.of(FA, {10: 1}, {5: 2, 4: 2, 3: 2, 20: 9})
    assert got(FA, p, (6, 5, 1)) == {res(Pos.of(FA, {9: 1}, {5: 2, 4: 2, 3: 2, 20: 9}))}
    assert got(FA, p, (6, 5, 1), fa_loss="any_unplayable") == {res(p, over=LOSS)}
    # nothing at all: a loss under either reading
    assert got(FA, p, (6, 5, 5), fa_loss="any_unplayable") == {res(p, over=LOSS)}
    assert got(FA, p, (6, 5, 5)) == {res(p, over=LOSS)}


# ---------------------------------------------------------------------------------------------
# Laquet

def test_LQ1_no_hits_and_one_man_closes() -> None:
    p = start(LQ, 0)
    B = {23: 3, 22: 3, 21: 3, 20: 3, 19: 2, 12: 1}
    assert p.w_dict() == {24: 14, 1: 1} and p.b_dict() == B
    assert got(LQ, p, (6, 5)) == {res(Pos.of(LQ, {24: 13, 13: 1, 1: 1}, B))}


def test_LQ2_both_numbers_pass_and_the_passed_stage() -> None:
    p = start(LQ, 0)
    rs = got(LQ, p, (5, 4))
    assert rs == {res(p, "passed", (5, 4))}
    (r,) = rs
    stage = next_position(LQ, r)
    assert stage == replace(turn(LQ, p), passed=(5, 4))
    out = got(LQ, stage)
    assert len(out) == 53
    assert all(x.next == "throw" and x.passed == () and x.game_over is None for x in out)
    plain = replace(stage, passed=())
    assert res(plain, "throw") in out

    def pips(q: Pos) -> int:
        return sum(k * c for k, c in enumerate(q.w))
    used = [pips(plain) - pips(x.pos) for x in out]
    assert used.count(9) == 40 and used.count(0) == 1


def test_LQ2_passed_options() -> None:
    p = start(LQ, 0)
    assert got(LQ, p, (5, 4), lq_passed="lost") == {res(p)}
    stage = next_position(LQ, res(p, "passed", (5, 4)))
    assert stage is not None
    instead = got(LQ, stage, lq_passed="instead_of_throw")
    assert len(instead) == 40 and all(x.next == "end" for x in instead)
    with pytest.raises(ValueError):
        results(LQ, stage, (), lq_passed="lost")


def test_LQ3_one_number_passes_and_may_be_declined() -> None:
    p = Pos.of(LQ, {6: 1, 2: 1}, {5: 1, 4: 1, 3: 1, 1: 12})
    rs = got(LQ, p, (6, 1))
    after = Pos.of(LQ, {2: 1}, {5: 1, 4: 1, 3: 1, 1: 12})
    assert rs == {res(after, "passed", (1,))}
    stage = next_position(LQ, res(after, "passed", (1,)))
    assert stage is not None
    assert stage.w_dict() == {5: 1, 4: 1, 3: 1, 1: 12} and stage.passed == (1,)
    W = {2: 1}
    assert got(LQ, stage) == {
        res(Pos.of(LQ, {5: 1, 4: 1, 3: 1, 1: 12}, W), "throw"),
        res(Pos.of(LQ, {4: 2, 3: 1, 1: 12}, W), "throw"),
        res(Pos.of(LQ, {5: 1, 3: 2, 1: 12}, W), "throw"),
        res(Pos.of(LQ, {5: 1, 4: 1, 3: 1, 1: 11}, W, w_off=1, b_off=14), "throw")}


# ---------------------------------------------------------------------------------------------
# Doblet

def test_DB1_unstacking() -> None:
    p = start(DB, 0)
    assert p.stacked == (frozenset(range(19, 25)), frozenset(range(1, 7)))
    want = Pos(p.w, p.b, stacked=(frozenset({22, 21, 20}), frozenset(range(1, 7))))
    assert got(DB, p, (6, 2, 1)) == {res(want)}


def _db2() -> Pos:
    return Pos.of(DB, {k: 2 for k in range(19, 25)}, {k: 2 for k in range(1, 7)},
                  stacked=({21}, {4, 5}))


def test_DB2_a_throw_stays_in_its_stage_and_the_rest_passes() -> None:
    p = _db2()
    after = Pos(p.w, p.b, stacked=(frozenset(), frozenset({4, 5})))
    assert got(DB, p, (4, 4, 5)) == {res(after, "passed", (5, 4))}
    stage = next_position(DB, res(after, "passed", (5, 4)))
    assert stage is not None and stage.stacked == (frozenset({21, 20}), frozenset())
    out = got(DB, stage)
    assert {x.pos.stacked[0] for x in out} == {
        frozenset({21, 20}), frozenset({20}), frozenset({21}), frozenset()}
    assert len(out) == 4 and all(x.next == "throw" and x.pos.w == stage.w for x in out)


def test_DB2_per_move_option_races_with_the_rest() -> None:
    p = _db2()
    out = got(DB, p, (4, 4, 5), db_stage_switch="per_move")
    assert out and all(x.next == "end" and not x.pos.stacked[0] for x in out)
    # both remaining numbers moved men along the route: 9 pips in all
    assert {sum(k * c for k, c in enumerate(p.w)) - sum(k * c for k, c in enumerate(x.pos.w))
            for x in out} == {9}
    w = {24: 2, 23: 2, 22: 2, 21: 1, 20: 2, 19: 2, 12: 1}          # 21/17/12
    assert res(Pos.of(DB, w, p.b_dict(), stacked=((), {4, 5}))) in out
    w = {24: 2, 23: 2, 22: 2, 21: 2, 20: 1, 19: 1, 16: 1, 14: 1}   # 20/16 19/14
    assert res(Pos.of(DB, w, p.b_dict(), stacked=((), {4, 5}))) in out


def test_DB3_stage_two_passing_while_bearing_off() -> None:
    p = Pos.of(DB, {5: 1, 2: 1}, {19: 1, 21: 1})
    assert (p.w_off, p.b_off) == (10, 10)
    a = Pos.of(DB, {2: 2}, {19: 1, 21: 1})
    b = Pos.of(DB, {2: 1, 1: 1}, {19: 1, 21: 1})
    assert got(DB, p, (6, 4, 3)) == {res(a, "passed", (6, 4)), res(b, "passed", (6, 3))}
    sa = next_position(DB, res(a, "passed", (6, 4)))
    sb = next_position(DB, res(b, "passed", (6, 3)))
    assert sa is not None and sb is not None
    assert sa.w_dict() == {6: 1, 4: 1}
    oa, ob = got(DB, sa), got(DB, sb)
    assert oa == {res(Pos.of(DB, {6: 1, 4: 1}, {23: 2}), "throw"),
                  res(Pos.of(DB, {4: 1}, {23: 2}), "throw"),
                  res(Pos.of(DB, {6: 1}, {23: 2}), "throw"),
                  res(Pos.of(DB, {}, {23: 2}), over=WIN)}
    assert ob == {res(Pos.of(DB, {6: 1, 4: 1}, {23: 1, 24: 1}), "throw"),
                  res(Pos.of(DB, {4: 1}, {23: 1, 24: 1}), "throw")}


def test_DB3_lost_option_passes_nothing() -> None:
    p = Pos.of(DB, {5: 1, 2: 1}, {19: 1, 21: 1})
    assert got(DB, p, (6, 4, 3), db_passed="lost") == {
        res(Pos.of(DB, {2: 2}, {19: 1, 21: 1})), res(Pos.of(DB, {2: 1, 1: 1}, {19: 1, 21: 1}))}


def test_DB_race_numbers_lost_away_from_home() -> None:
    # stage 2 with the man outside pips 1..6 when the play ends: the numbers left are lost
    p = Pos.of(DB, {20: 1}, {14: 2, 13: 2})
    assert got(DB, p, (6, 6, 1)) == {res(Pos.of(DB, {19: 1}, {14: 2, 13: 2}))}
    assert got(DB, p, (6, 6, 6)) == {res(p)}


# ---------------------------------------------------------------------------------------------
# XII scripta

def test_XS1_entering_on_the_middle_row() -> None:
    p = start(XS, 0)
    assert p.n == 36 and p.w_wait == 15
    want = [{36: 1, 32: 1, 31: 1}, {31: 2}, {32: 1, 30: 1}, {36: 1, 26: 1}, {25: 1}]
    assert got(XS, p, (6, 5, 1)) == {res(Pos.of(XS, w, {})) for w in want}


def test_XS2_hit_on_the_shared_row() -> None:
    p = Pos.of(XS, {33: 1}, {31: 1, 29: 2, 20: 5})
    assert turn(XS, p).w_dict() == {31: 1, 29: 2, 5: 5}
    Bh, B = {29: 2, 20: 5}, {31: 1, 29: 2, 20: 5}
    assert got(XS, p, (2, 2, 4)) == {
        res(Pos.of(XS, {25: 1}, Bh, b_bar=1)), res(Pos.of(XS, {35: 1, 27: 1}, Bh, b_bar=1)),
        res(Pos.of(XS, {35: 1, 33: 1, 31: 1}, Bh, b_bar=1)),
        res(Pos.of(XS, {31: 2}, Bh, b_bar=1)),
        res(Pos.of(XS, {35: 2, 33: 2}, B)), res(Pos.of(XS, {33: 3}, B))}


def test_XS3_exact_bearing_off() -> None:
    p = Pos.of(XS, {7: 1, 3: 1}, {15: 14}, w_off=13, b_off=1)
    assert turn(XS, p).w_dict() == {10: 14}
    assert got(XS, p, (6, 4, 3)) == {
        res(Pos.of(XS, {1: 1}, {15: 14}, w_off=14, b_off=1)),
        res(Pos.of(XS, {3: 1}, {15: 14}, w_off=14, b_off=1))}
    assert got(XS, p, (6, 4, 3), xs_bear_off="higher") == {
        res(Pos.of(XS, {}, {15: 14}, w_off=15, b_off=1), over=WIN)}


def test_XS_hit_man_enters_before_anything_else() -> None:
    # the entry points 31, 32 and 36 are closed: the man on 20 may not move while one is out
    B = {31: 2, 32: 2, 36: 2}
    p = Pos.of(XS, {20: 1}, B, w_bar=1)
    assert p.w_wait == 13
    assert got(XS, p, (6, 5, 1)) == {res(p)}
    # with the entries open every play brings the hit man in first
    q = Pos.of(XS, {20: 1}, {}, w_bar=1)
    rs = got(XS, q, (6, 5, 1))
    assert all(r.pos.w_bar == 0 for r in rs)
    assert res(Pos.of(XS, {25: 1, 20: 1}, {}, w_wait=13)) in rs      # in on 31, 31/26/25
    assert res(Pos.of(XS, {36: 1, 9: 1}, {}, w_wait=13)) in rs       # in on 36, 20/9
    # unentered men impose no order: without the hit man the man on 20 may go first
    r = Pos.of(XS, {20: 1}, {}, w_wait=14)
    assert res(Pos.of(XS, {8: 1}, {}, w_wait=14)) in got(XS, r, (6, 5, 1))


# ---------------------------------------------------------------------------------------------
# Buffa de baldrac

def test_BB1_no_man_moves_on_while_others_are_off_the_board() -> None:
    p = start(BB, 0)
    assert got(BB, p, (6, 5, 1)) == {res(Pos.of(BB, {24: 1, 20: 1, 19: 1}, {}))}


def test_BB2_entering_stage() -> None:
    p = Pos.of(BB, {24: 2, 22: 1}, {1: 15})
    assert got(BB, p, (2, 2, 2)) == {res(Pos.of(BB, {24: 2, 23: 3, 22: 1}, {1: 15}))}


def test_BB3_hit_man_enters_first() -> None:
    p = Pos.of(BB, {4: 1}, {22: 2, 21: 2, 20: 2, 19: 2, 1: 7}, w_bar=1, w_off=13)
    assert got(BB, p, (6, 3, 1)) == {
        res(Pos.of(BB, {15: 1, 4: 1}, {22: 2, 21: 2, 20: 2, 19: 2, 1: 7}, w_off=13))}


def test_BB4_exact_bearing_off() -> None:
    p = Pos.of(BB, {6: 1, 3: 1}, {20: 15}, w_off=13)
    assert got(BB, p, (5, 4, 2)) == {
        res(Pos.of(BB, {3: 1}, {20: 15}, w_off=14)),
        res(Pos.of(BB, {2: 1, 1: 1}, {20: 15}, w_off=13)),
        res(Pos.of(BB, {1: 2}, {20: 15}, w_off=13))}


# ---------------------------------------------------------------------------------------------
# Verquere

def test_VQ1_opening() -> None:
    p = start(VQ, 0)
    B = {12: 15}
    assert got(VQ, p, (6, 5)) == {
        res(Pos.of(VQ, {24: 13, 19: 1, 18: 1}, B)), res(Pos.of(VQ, {24: 14, 13: 1}, B))}


def test_VQ2_one_man_a_point_on_the_first_half() -> None:
    p = start(VQ, 0)
    assert got(VQ, p, (6, 6)) == {res(Pos.of(VQ, {24: 14, 18: 1}, {12: 15}))}


def test_VQ3_doublet_four_moves() -> None:
    p = start(VQ, 0)
    assert got(VQ, p, (3, 3)) == {res(Pos.of(VQ, {24: 13, 21: 1, 15: 1}, {12: 15}))}


def _vq4() -> Pos:
    # W has fourteen men on the board as the example lists them; the fifteenth is borne off
    return Pos.of(VQ, {24: 13, 20: 1}, {12: 13, 22: 1, 13: 1})


def test_VQ4_hits_and_the_one_man_rule() -> None:
    p = _vq4()
    assert turn(VQ, p).w_dict() == {24: 13, 10: 1, 1: 1}
    B, Bh = {12: 13, 22: 1, 13: 1}, {12: 13, 13: 1}
    assert got(VQ, p, (2, 1)) == {
        res(Pos.of(VQ, {24: 13, 17: 1}, B)), res(Pos.of(VQ, {24: 12, 23: 1, 18: 1}, B)),
        res(Pos.of(VQ, {24: 12, 22: 1, 19: 1}, Bh, b_bar=1)),
        res(Pos.of(VQ, {24: 12, 21: 1, 20: 1}, Bh, b_bar=1)),
        res(Pos.of(VQ, {24: 12, 21: 1, 20: 1}, B)),
        res(Pos.of(VQ, {24: 11, 23: 1, 22: 1, 20: 1}, Bh, b_bar=1))}


def test_VQ4_empty_only_option() -> None:
    p = _vq4()
    B = {12: 13, 22: 1, 13: 1}
    assert got(VQ, p, (2, 1), vq_first_half="empty_only") == {
        res(Pos.of(VQ, {24: 13, 17: 1}, B)), res(Pos.of(VQ, {24: 12, 23: 1, 18: 1}, B)),
        res(Pos.of(VQ, {24: 12, 21: 1, 20: 1}, B))}


def test_VQ5_bar_first_and_no_bearing_off_while_out() -> None:
    p = Pos.of(VQ, {20: 1, 6: 2, 5: 3, 4: 3, 3: 3, 2: 2}, {23: 1, 21: 2, 12: 10, 10: 2},
               w_bar=1)
    B = {23: 1, 21: 2, 12: 10, 10: 2}
    home = {6: 2, 5: 3, 4: 3, 3: 3, 2: 2}
    assert got(VQ, p, (4, 3)) == {
        res(Pos.of(VQ, {22: 1, 20: 1, 6: 2, 5: 2, 4: 3, 3: 3, 2: 2, 1: 1}, B)),
        res(Pos.of(VQ, {22: 1, 16: 1} | home, B)),
        res(Pos.of(VQ, {20: 1, 18: 1} | home, B)),
        res(Pos.of(VQ, {22: 1, 20: 1, 6: 1, 5: 3, 4: 3, 3: 3, 2: 3}, B))}


# ---------------------------------------------------------------------------------------------
# the board seen by the other side, JSON, bad input

def test_turn_maps_each_geometry() -> None:
    # opposite directions: the opponent's pip q is the mover's 25 - q; the goal maps with it
    p = Pos.of(DC, {13: 1}, {20: 6, 10: 1}, goal=(1, 6))
    t = turn(DC, p)
    assert t.w_dict() == {5: 6, 15: 1} and t.b_dict() == {12: 1} and t.goal == (19, 24)
    assert (t.w_wait, t.b_wait) == (p.b_wait, p.w_wait)
    # half board: 13 - q
    assert turn(ME, start(ME, 0)).w_dict() == {12: 15}
    # shared route: the same pips, the start points swapped
    q = Pos.of(CQ, {9: 1, 6: 1}, {19: 12, 7: 1, 2: 2}, starts=(20, 19))
    tq = turn(CQ, q)
    assert tq.w_dict() == {19: 12, 7: 1, 2: 2} and tq.starts == (19, 20)
    # Doblet: B's stacked pairs on W's pips 4 and 5 are his 21 and 20
    assert turn(DB, _db2()).stacked == (frozenset({21, 20}), frozenset({4}))
    # corners and XII scripta: see VQ4 and XS2
    for game in GAMES:
        s0 = start(game, 0, goal=(1, 6)) if game == DC else start(game, 0)
        s1 = start(game, 1, goal=(1, 6)) if game == DC else start(game, 1)
        assert turn(game, s0) == s1 and turn(game, s1) == s0


def test_json_round_trip_and_implicit_counts() -> None:
    obj = {"points": [0] * 23 + [1], "bar": [0, 0], "off": [0, 0],
           "state": {"goal": [1, 6]}}
    p = from_json(DC, obj)               # entered from off the board: the rest are unentered
    assert (p.w_wait, p.b_wait, p.goal) == (11, 12, (1, 6))
    q = from_json(QT, {"points": [-1] + [0] * 22 + [2]})    # starts on the board: the rest off
    assert (q.w_off, q.b_off) == (13, 14)
    db = from_json(DB, {"points": [-2] * 6 + [0] * 12 + [2] * 6,
                        "state": {"stacked": {"mine": [24, 23], "theirs": [1]}}})
    assert db.stacked == (frozenset({24, 23}), frozenset({1}))
    assert to_json(DB, db)["state"]["stacked"] == {"mine": [23, 24], "theirs": [1]}
    lq = from_json(LQ, dict(to_json(LQ, turn(LQ, start(LQ, 0))),
                            state={"passed": [5, 4]}))
    assert len(results(LQ, lq, ())) == 53
    cq = from_json(CQ, to_json(CQ, start(CQ, 1)))
    assert cq.starts == (20, 19)
    for game in GAMES:
        s = start(game, 1)
        assert from_json(game, json.loads(json.dumps(to_json(game, s)))) == s
    line = result_to_json(DC, res(Pos.of(DC, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2},
                                         {20: 6, 19: 6}, goal=(1, 6)), over=WIN))
    assert line["game_over"] == {"winner": "mover", "points": 1} and line["next"] == "end"
    assert line["state"]["unentered"] == [0, 0] and len(line["points"]) == 24


@pytest.mark.parametrize("game, obj", [
    (QT, {"points": [0] * 23}),                                        # wrong length
    (XS, {"points": [0] * 24}),
    (QT, {"points": [0] * 23 + [2], "off": [0, 15]}),                  # 2 + 0 != 15
    (DC, {"points": [0] * 24, "state": {"unentered": [11, 12]}}),      # 11 != 12
    (QT, {"points": [0] * 23 + [2.5]}),
    (DB, {"points": [0] * 24, "state": {"stacked": {"mine": [24]}}}),  # no pair there
    (DC, {"points": [0] * 24, "state": {"goal": [2, 7]}}),             # not a quarter
    (DC, {"points": [0] * 24, "state": {"goal": 3}}),
    (DB, {"points": [0] * 24, "state": {"stacked": [24]}}),
    (LQ, {"points": [0] * 24, "state": {"passed": [7]}}),
])
def test_bad_json_is_refused(game: str, obj: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        from_json(game, obj)


def test_bad_options_and_dice_are_refused() -> None:
    p = start(QT, 0)
    for opts in ({"qt_hit": "sideways"}, {"no_such_option": 1}, {"me_dice": 4},
                 {"me_board": 24}):
        with pytest.raises(ValueError):
            results(QT, p, (1, 2, 3), **opts)
    for dice in ((1, 2), (1, 2, 3, 4), (0, 1, 2), (7, 1, 1), ()):
        with pytest.raises(ValueError):
            results(QT, p, dice)
    with pytest.raises(ValueError):
        results("backgammon", p, (1, 2))
    with pytest.raises(ValueError):
        results(QT, replace(p, passed=(3,)), ())          # no passed numbers in Quinze tablas
    assert len(results(ME, start(ME, 0), (6, 5), me_dice="2")) == 1


# ---------------------------------------------------------------------------------------------
# random play from each start

#: a game that must end ends within this many stages of play under random choices
PLY_LIMIT = 4000


def _men(game: str, p: Pos) -> tuple[int, int]:
    return (sum(p.w) + p.w_bar + p.w_off + p.w_wait, sum(p.b) + p.b_bar + p.b_off + p.b_wait)


def _play(game: str, seed: int, limit: int, **opts: Any) -> tuple[int, tuple[str, int] | None]:
    """One random game under the reference, every result of every stage checked."""
    rng = random.Random(seed)
    extra: dict[str, Any] = {}
    if game == DC:
        extra["goal"] = rng.choice([(1, 6), (7, 12), (13, 18), (19, 24)])
    if game == CQ and opts.get("cq_third_die") == "fixed":
        extra["fixed_die"] = rng.randint(1, 6)
    pos = start(game, rng.randint(0, 1), **extra, **opts)
    removed = opts.get("qt_hit") == "removed" or opts.get("db_hit") == "removed"
    for ply in range(limit):
        dice = () if pos.passed else throw_dice(game, rng, **opts)
        rs = results(game, pos, dice, **opts)
        assert rs and len(rs) == len(set(rs))
        # a full run checks every result; the default run a sample of each stage's results
        for r in (rs if full() or len(rs) <= 6 else rng.sample(rs, 6)):
            q = r.pos
            check(game, q)                                   # men conserved, well formed
            assert _men(game, q) == (MEN[game], MEN[game])
            assert limit_violations(game, q, **opts) == []
            assert q.passed == ()
            assert turn(game, turn(game, q)) == q
            assert from_json(game, json.loads(json.dumps(to_json(game, q)))) == q
            assert (q.goal, q.starts, q.fixed_die) == (pos.goal, pos.starts, pos.fixed_die)
            assert q.stacked[0] <= pos.stacked[0] and q.stacked[1] == pos.stacked[1]
            if not removed:
                assert q.b_off == pos.b_off                  # the opponent's men never leave
            assert q.w_off >= pos.w_off
            assert (r.next == "passed") == bool(r.passed)
            if r.game_over is not None:
                assert r.next == "end" and not r.passed
            if r.next == "again":
                assert game == PE
            if r.next == "passed":
                assert game in (LQ, DB) and len(r.passed) <= 4
            if r.next == "throw":
                assert pos.passed
        r = rng.choice(rs)
        if r.game_over is not None:
            return ply, r.game_over
        nxt = next_position(game, r)
        assert nxt is not None
        pos = nxt
    return limit, None


@pytest.mark.parametrize("game", GAMES)
def test_random_games_from_the_start(game: str) -> None:
    seeds = scaled(10, least=2)
    for seed in range(seeds):
        if game == DC:                  # overshooting the goal may last for ever (DC-A3)
            _play(game, seed, 150)
            continue
        plies, over = _play(game, seed, PLY_LIMIT)
        assert over is not None, f"{game} seed {seed}: no end in {PLY_LIMIT} stages"


def _option_cases() -> list[tuple[str, str, Any]]:
    games = {"qt": QT, "dc": DC, "sd": SD, "cq": CQ, "tt": TT, "me": ME, "pe": PE, "fa": FA,
             "lq": LQ, "db": DB, "xs": XS, "vq": VQ}
    from reference_tables4 import OPTIONS
    cases = []
    for key, values in OPTIONS.items():
        for value in values[1:]:
            if key == "me_board":
                continue
            if key in ("doublets", "opening_roll"):
                cases += [(g, key, value) for g in (TT, LQ, DC)]
            else:
                cases.append((games[key.split("_")[0]], key, value))
    return cases


@pytest.mark.parametrize("game, key, value", _option_cases())
def test_random_play_under_each_option(game: str, key: str, value: Any) -> None:
    opts = {key: value}
    plies, over = _play(game, 7, scaled(400, least=120), **opts)
    assert plies > 0 or over is not None


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g != DC])
def test_many_random_games_end(game: str) -> None:
    for seed in range(100, 120):
        assert _play(game, seed, PLY_LIMIT)[1] is not None


def test_board_sizes() -> None:
    assert {g: SIZE[g] for g in (ME, SD, XS, QT)} == {ME: 12, SD: 18, XS: 36, QT: 24}
