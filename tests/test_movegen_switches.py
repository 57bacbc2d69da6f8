"""Each movement switch on small constructed positions, with the exact set of end positions.

Positions are written as {pip: count} for each side in the mover's pips; the trictrac worked
examples (rules/trictrac.md §7) are written in the document's M numbering and converted with
pip = 25 - M.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from interpreter.kernel.board import Board
from interpreter.kernel.movegen import MoveGenerator, Step
from interpreter.kernel.rules import MoveRules

BG = MoveRules(checkers=15)
# trictrac-like: two moves for a doublet, one checker blocks, no hitting, corners
TT = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13, opp_corner=12,
               puissance_needs="both_coins_empty", bear_off="all_home", home_top=6)
# the 12-point Tric-Trac without its corners: entering from the start, hits back to the start
T12 = MoveRules(doublet_moves=2, block=2, hit="start", enter="start", start_pip=24,
                bear_off="anywhere", off_pip=1, over_exit="any", higher_number=False)


def pos(mine: dict[int, int] | None = None, theirs: dict[int, int] | None = None, *, bar: int = 0,
        opp_bar: int = 0, off: int = 0, opp_off: int = 0) -> Board:
    """A board from the mover's checkers and the opponent's, both as {mover's pip: count}."""
    b = [0] * 28
    for p, n in (mine or {}).items():
        b[p] += n
    for p, n in (theirs or {}).items():
        assert b[p] == 0
        b[p] -= n
    b[0], b[25], b[26], b[27] = off, bar, opp_bar, opp_off
    return tuple(b)


def pos_m(white: dict[int, int], black: dict[int, int], **kw: int) -> Board:
    """A trictrac position in M numbering (White on roll): pip = 25 - M."""
    return pos({25 - m: n for m, n in white.items()}, {25 - m: n for m, n in black.items()}, **kw)


def check(rules: MoveRules, b: Board, d1: int, d2: int, expected: list[Board],
          unplayed: int | None = None, forbid: tuple = ()) -> list:
    gen = MoveGenerator(rules, forbid)
    plays, n = gen.plays(b, d1, d2)
    assert sorted(p.board for p in plays) == sorted(expected)
    assert sorted(gen.results(b, d1, d2)) == sorted(expected)
    assert len({p.board for p in plays}) == len(plays)
    if unplayed is not None:
        assert n == unplayed
    for p in plays:
        for path in p.paths:
            assert gen.apply(b, path) == p.board
    return plays


def paths_of(plays: list, board: Board) -> set:
    return {path for p in plays if p.board == board for path in p.paths}


# -- doublets ---------------------------------------------------------------------------------

def test_doublet_played_four_times() -> None:
    b = pos({24: 1, 12: 1}, opp_off=15)
    check(BG, b, 2, 2, [pos({24: 1, 4: 1}, opp_off=15), pos({22: 1, 6: 1}, opp_off=15),
                        pos({20: 1, 8: 1}, opp_off=15), pos({18: 1, 10: 1}, opp_off=15),
                        pos({16: 1, 12: 1}, opp_off=15)], unplayed=0)


def test_doublet_played_twice() -> None:
    b = pos({24: 1, 12: 1}, opp_off=15)
    check(replace(BG, doublet_moves=2), b, 2, 2,
          [pos({24: 1, 8: 1}, opp_off=15), pos({22: 1, 10: 1}, opp_off=15),
           pos({20: 1, 12: 1}, opp_off=15)], unplayed=0)


# -- blocks and hits ----------------------------------------------------------------------------

def test_block_two_lets_a_blot_be_hit_to_the_bar() -> None:
    b = pos({10: 1}, {7: 1}, opp_off=14)
    plays = check(BG, b, 3, 1, [pos({6: 1}, opp_bar=1, opp_off=14),
                                pos({6: 1}, {7: 1}, opp_off=14)])
    assert paths_of(plays, pos({6: 1}, opp_bar=1, opp_off=14)) == {
        (Step(10, 7, 3, 1, 0), Step(7, 6, 1, 0, 0))}


def test_two_checkers_block_with_block_two() -> None:
    b = pos({10: 1}, {7: 2}, opp_off=13)
    check(BG, b, 3, 1, [pos({6: 1}, {7: 2}, opp_off=13)])


def test_block_one_stops_a_single_checker() -> None:
    b = pos({10: 1}, {7: 1}, opp_off=14)
    check(replace(BG, block=1, hit="none"), b, 3, 1, [pos({6: 1}, {7: 1}, opp_off=14)])


def test_hit_to_the_start() -> None:
    # the opponent's start is the mover's pip 1 (25 - start_pip)
    b = pos({10: 1}, {7: 1}, opp_off=14)
    check(replace(BG, hit="start", start_pip=24), b, 3, 1,
          [pos({6: 1}, {1: 1}, opp_off=14), pos({6: 1}, {7: 1}, opp_off=14)])


def test_no_hitting() -> None:
    b = pos({10: 1}, {7: 1}, opp_off=14)
    check(replace(BG, hit="none"), b, 3, 1, [pos({6: 1}, {7: 1}, opp_off=14)])


# -- entering -----------------------------------------------------------------------------------

def test_bar_checkers_enter_first() -> None:
    b = pos({6: 2}, {22: 2}, bar=1, opp_off=13)
    check(BG, b, 3, 1, [pos({21: 1, 6: 2}, {22: 2}, opp_off=13),
                        pos({24: 1, 6: 1, 3: 1}, {22: 2}, opp_off=13)], unplayed=0)


def test_second_bar_checker_cannot_enter() -> None:
    b = pos({6: 2}, {22: 2}, bar=2, opp_off=13)
    check(BG, b, 3, 1, [pos({24: 1, 6: 2}, {22: 2}, bar=1, opp_off=13)], unplayed=1)


def test_bar_closed() -> None:
    b = pos({6: 2}, {24: 2, 22: 2}, bar=1, opp_off=11)
    check(BG, b, 3, 1, [b], unplayed=2)


def test_start_two_men_enter_or_carry_on() -> None:
    b = pos({24: 2, 10: 1}, opp_off=15)
    plays = check(T12, b, 3, 1, [pos({23: 1, 21: 1, 10: 1}, opp_off=15),
                                 pos({24: 1, 20: 1, 10: 1}, opp_off=15)], unplayed=0)
    # the man entered with the 3 carried on with the 1, and the other way round
    assert paths_of(plays, pos({24: 1, 20: 1, 10: 1}, opp_off=15)) == {
        (Step(24, 21, 3, 0, 0), Step(21, 20, 1, 0, 0)),
        (Step(24, 23, 1, 0, 0), Step(23, 20, 3, 0, 0))}


def test_start_one_man_then_any_man() -> None:
    b = pos({24: 1, 10: 1}, opp_off=15)
    check(T12, b, 3, 1, [pos({20: 1, 10: 1}, opp_off=15), pos({21: 1, 9: 1}, opp_off=15),
                         pos({23: 1, 7: 1}, opp_off=15)], unplayed=0)


def test_start_no_bearing_off_while_men_stand_on_it() -> None:
    b = pos({24: 2, 2: 1}, opp_off=15)
    check(T12, b, 3, 1, [pos({23: 1, 21: 1, 2: 1}, opp_off=15),
                         pos({24: 1, 20: 1, 2: 1}, opp_off=15)])
    # once the start is empty the other number may bear off
    b = pos({24: 1, 2: 1}, opp_off=15)
    check(T12, b, 3, 1, [pos({20: 1, 2: 1}, opp_off=15), pos({21: 1}, off=1, opp_off=15),
                         pos({23: 1}, off=1, opp_off=15)])


def test_start_entering_hits_back_to_the_start() -> None:
    b = pos({24: 1}, {21: 1}, opp_off=14)
    check(T12, b, 3, 1, [pos({20: 1}, {1: 1}, opp_off=14), pos({20: 1}, {21: 1}, opp_off=14)])


# -- bearing off --------------------------------------------------------------------------------

def test_bear_off_all_home() -> None:
    b = pos({8: 1, 2: 1}, opp_off=15)
    check(BG, b, 2, 1, [pos({5: 1, 2: 1}, opp_off=15), pos({6: 1, 1: 1}, opp_off=15)])


def test_bear_off_anywhere() -> None:
    b = pos({8: 1, 2: 1}, opp_off=15)
    check(replace(BG, bear_off="anywhere"), b, 2, 1,
          [pos({5: 1, 2: 1}, opp_off=15), pos({6: 1, 1: 1}, opp_off=15),
           pos({7: 1}, off=1, opp_off=15)])


def test_exact_exit_optional() -> None:
    b = pos({6: 1, 4: 1}, opp_off=15)
    check(BG, b, 4, 1, [pos({3: 1, 2: 1}, opp_off=15), pos({4: 1, 1: 1}, opp_off=15),
                        pos({5: 1}, off=1, opp_off=15)])


def test_exact_exit_compulsory() -> None:
    # the 4 must bear off the checker on 4 whenever one stands there when it is played
    b = pos({6: 1, 4: 1}, opp_off=15)
    check(replace(BG, exact_exit="compulsory"), b, 4, 1,
          [pos({3: 1, 2: 1}, opp_off=15), pos({5: 1}, off=1, opp_off=15)])


def test_over_exit_farthest_only() -> None:
    # 5-4: the 5 bears off only once the 6 has moved down
    b = pos({6: 1, 2: 1}, {1: 2}, opp_off=13)
    plays = check(BG, b, 5, 4, [pos({2: 1}, {1: 2}, off=1, opp_off=13)], unplayed=0)
    assert paths_of(plays, pos({2: 1}, {1: 2}, off=1, opp_off=13)) == {
        (Step(6, 2, 4, 0, 0), Step(2, 0, 5, 0, 1))}


def test_over_exit_farthest_blocked_higher_point_makes_the_number_unplayable() -> None:
    b = pos({6: 1, 2: 1}, {1: 2}, opp_off=13)
    check(BG, b, 5, 5, [b], unplayed=4)
    check(replace(BG, over_exit="any"), b, 5, 5, [pos({6: 1}, {1: 2}, off=1, opp_off=13)],
          unplayed=3)


def test_off_pip_one_home_counts_as_off() -> None:
    rules = replace(BG, doublet_moves=2, bear_off="anywhere", over_exit="any", off_pip=1)
    b = pos({10: 1, 4: 1}, opp_off=15)
    plays = check(rules, b, 3, 3, [pos({7: 1}, off=1, opp_off=15), pos({4: 2}, opp_off=15)])
    assert (Step(4, 0, 3, 0, 0), Step(10, 7, 3, 0, 0)) in paths_of(plays,
                                                                   pos({7: 1}, off=1, opp_off=15))
    # with off_pip 0 the man can stand on pip 1
    check(replace(rules, off_pip=0), b, 3, 3,
          [pos({10: 1}, off=1, opp_off=15), pos({7: 1, 1: 1}, opp_off=15),
           pos({4: 2}, opp_off=15)])


# -- maximal dice and the higher number -----------------------------------------------------------

def test_max_dice_both_numbers_when_possible() -> None:
    b = pos({10: 1}, {4: 2}, opp_off=13)
    check(BG, b, 6, 1, [pos({3: 1}, {4: 2}, opp_off=13)], unplayed=0)
    # without the rule a play of the 1 alone is legal too
    check(replace(BG, max_dice=False), b, 6, 1,
          [pos({3: 1}, {4: 2}, opp_off=13), pos({9: 1}, {4: 2}, opp_off=13)], unplayed=0)


def test_higher_number_when_only_one_can_be_played() -> None:
    b = pos({10: 1}, {1: 2}, opp_off=13)
    check(BG, b, 6, 3, [pos({4: 1}, {1: 2}, opp_off=13)], unplayed=1)
    check(replace(BG, higher_number=False), b, 6, 3,
          [pos({4: 1}, {1: 2}, opp_off=13), pos({7: 1}, {1: 2}, opp_off=13)], unplayed=1)


# -- corners ------------------------------------------------------------------------------------

NOPU = replace(TT, puissance_needs="off")


def test_own_corner_taken_by_two_rest_on_both_corners() -> None:
    b = pos({17: 1, 16: 1}, {1: 15})
    plays = check(NOPU, b, 4, 3, [pos({13: 2}, {1: 15}), pos({16: 1, 10: 1}, {1: 15}),
                                  pos({17: 1, 9: 1}, {1: 15})], unplayed=0)
    # 16 -> 9 rests on the empty opponent's corner or on the empty own corner
    assert paths_of(plays, pos({17: 1, 9: 1}, {1: 15})) == {
        (Step(16, 12, 4, 0, 0), Step(12, 9, 3, 0, 0)),
        (Step(16, 13, 3, 0, 0), Step(13, 9, 4, 0, 0))}


def test_own_corner_left_by_the_last_two_together() -> None:
    b = pos({24: 1, 13: 2}, {1: 15})
    check(NOPU, b, 3, 2, [pos({24: 1, 11: 1, 10: 1}, {1: 15}), pos({19: 1, 13: 2}, {1: 15})])


def test_coin_swap_allow_and_forbid() -> None:
    # the corner holds two; 4-2. The swap (one leaves with the 2, the man from 17 arrives with
    # the 4) reaches the same board as the man from 17 going on through the corner, so the
    # switch decides which paths are listed, never which boards
    b = pos({17: 1, 13: 2}, {1: 15})
    end = pos({13: 2, 11: 1}, {1: 15})
    expected = [end, pos({17: 1, 11: 1, 9: 1}, {1: 15})]
    swap = (Step(13, 11, 2, 0, 0), Step(17, 13, 4, 0, 0))
    through = (Step(17, 13, 4, 0, 0), Step(13, 11, 2, 0, 0))
    rest = (Step(17, 15, 2, 0, 0), Step(15, 11, 4, 0, 0))
    allow = check(NOPU, b, 4, 2, expected, unplayed=0)
    assert paths_of(allow, end) == {swap, through, rest}
    forbid = check(replace(NOPU, coin_swap="forbid"), b, 4, 2, expected, unplayed=0)
    assert paths_of(forbid, end) == {through, rest}


def test_opponent_corner_never_a_landing() -> None:
    rules = replace(NOPU, own_corner=None)
    b = pos({20: 1, 14: 1}, opp_off=15)
    check(rules, b, 2, 1, [pos({17: 1, 14: 1}, opp_off=15), pos({18: 1, 13: 1}, opp_off=15),
                           pos({20: 1, 11: 1}, opp_off=15)])


def test_opponent_corner_a_rest_only_while_empty() -> None:
    rules = replace(NOPU, own_corner=None)
    # pip 13 closed: 14 -> 11 only by resting on the empty opponent's corner
    b = pos({14: 1}, {13: 1}, opp_off=14)
    plays = check(rules, b, 2, 1, [pos({11: 1}, {13: 1}, opp_off=14)], unplayed=0)
    assert paths_of(plays, pos({11: 1}, {13: 1}, opp_off=14)) == {
        (Step(14, 12, 2, 0, 0), Step(12, 11, 1, 0, 0))}
    # the opponent on his corner closes the rest: nothing can be played
    b = pos({14: 1}, {13: 1, 12: 2}, opp_off=12)
    check(rules, b, 2, 1, [b], unplayed=2)


def test_no_landing_pip_is_only_a_rest() -> None:
    rules = replace(BG, no_landing=(10,))
    b = pos({12: 1, 5: 1}, opp_off=15)
    check(rules, b, 2, 1, [pos({9: 1, 5: 1}, opp_off=15), pos({11: 1, 3: 1}, opp_off=15),
                           pos({12: 1, 2: 1}, opp_off=15)])
    check(BG, b, 2, 1, [pos({9: 1, 5: 1}, opp_off=15), pos({11: 1, 3: 1}, opp_off=15),
                        pos({12: 1, 2: 1}, opp_off=15), pos({10: 1, 4: 1}, opp_off=15)])


# -- par puissance --------------------------------------------------------------------------------

def test_puissance_both_coins_empty() -> None:
    b = pos({16: 1, 15: 1}, {1: 15})
    plays = check(TT, b, 4, 3, [pos({15: 1, 9: 1}, {1: 15}), pos({16: 1, 8: 1}, {1: 15}),
                                pos({13: 2}, {1: 15})], unplayed=0)
    assert paths_of(plays, pos({13: 2}, {1: 15})) == {
        (Step(16, 13, 4, 0, 2), Step(15, 13, 3, 0, 2)),
        (Step(15, 13, 3, 0, 2), Step(16, 13, 4, 0, 2))}
    check(NOPU, b, 4, 3, [pos({15: 1, 9: 1}, {1: 15}), pos({16: 1, 8: 1}, {1: 15})])


def test_puissance_larger_position() -> None:
    b = pos({24: 13, 16: 1, 15: 1}, {1: 15})
    check(TT, b, 4, 3, [pos({24: 11, 21: 1, 20: 1, 16: 1, 15: 1}, {1: 15}),
                        pos({24: 12, 17: 1, 16: 1, 15: 1}, {1: 15}),
                        pos({24: 13, 15: 1, 9: 1}, {1: 15}),
                        pos({24: 12, 21: 1, 16: 1, 11: 1}, {1: 15}),
                        pos({24: 13, 16: 1, 8: 1}, {1: 15}),
                        pos({24: 13, 13: 2}, {1: 15})])


def test_puissance_doublet() -> None:
    b = pos({15: 2}, {1: 15})
    check(TT, b, 3, 3, [pos({15: 1, 9: 1}, {1: 15}), pos({13: 2}, {1: 15})], unplayed=0)


def test_puissance_needs_the_opponent_corner_empty_unless_own_coin_empty_suffices() -> None:
    b = pos({16: 1, 15: 1}, {12: 2, 1: 13})
    without = [pos({16: 1, 8: 1}, {12: 2, 1: 13}), pos({15: 1, 9: 1}, {12: 2, 1: 13})]
    check(TT, b, 4, 3, without)
    check(replace(TT, puissance_needs="own_coin_empty"), b, 4, 3,
          without + [pos({13: 2}, {12: 2, 1: 13})])


def test_puissance_forbidden_when_the_corner_can_be_taken_directly() -> None:
    b = pos({17: 1, 16: 1, 15: 1}, {1: 15})
    check(TT, b, 4, 3, [pos({15: 1, 13: 2}, {1: 15}), pos({16: 1, 15: 1, 10: 1}, {1: 15}),
                        pos({17: 1, 15: 1, 9: 1}, {1: 15}), pos({16: 1, 14: 1, 11: 1}, {1: 15}),
                        pos({17: 1, 16: 1, 8: 1}, {1: 15})])


def test_puissance_not_with_the_own_corner_held() -> None:
    b = pos({16: 1, 15: 1, 13: 2}, {1: 15})
    gen = MoveGenerator(TT)
    plays, _ = gen.plays(b, 4, 3)
    assert all(st.flags == 0 for p in plays for path in p.paths for st in path)


# -- excédant filter (trictrac.md §3.7, T-A5) --------------------------------------------------------

T_A5 = pos_m({21: 1, 23: 1}, {1: 15})   # pips 4 and 2


def test_excedant_none_keeps_both() -> None:
    check(TT, T_A5, 5, 3, [pos({1: 1}, {24: 15}, off=1), pos({}, {24: 15}, off=2)], unplayed=0)


def test_excedant_fewest() -> None:
    plays = check(replace(TT, excedant_filter="fewest"), T_A5, 5, 3,
                  [pos({1: 1}, {24: 15}, off=1)], unplayed=0)
    assert paths_of(plays, pos({1: 1}, {24: 15}, off=1)) == {
        (Step(4, 1, 3, 0, 0), Step(2, 0, 5, 0, 1))}


def test_excedant_zero_if_possible() -> None:
    check(replace(TT, excedant_filter="zero_if_possible"), T_A5, 5, 3,
          [pos({1: 1}, {24: 15}, off=1), pos({}, {24: 15}, off=2)], unplayed=0)
    # with an exact play available, excédants are dropped
    b = pos({5: 1, 2: 1}, {24: 15})
    check(replace(TT, excedant_filter="zero_if_possible"), b, 5, 2,
          [pos({}, {24: 15}, off=2)], unplayed=0)


# -- forbid hooks -------------------------------------------------------------------------------

def test_forbid_hook_changes_the_max_dice_outcome() -> None:
    b = pos({10: 1}, opp_off=15)
    check(BG, b, 6, 1, [pos({3: 1}, opp_off=15)], unplayed=0)

    def no_three(before: Board, board: Board, path: tuple) -> bool:
        return board[3] > 0

    # every two-number play ends on 3: the higher number alone is played
    check(BG, b, 6, 1, [pos({4: 1}, opp_off=15)], unplayed=1, forbid=(no_three,))


def test_forbid_hook_rejects_a_path_not_the_board() -> None:
    b = pos({10: 1}, opp_off=15)

    def six_first(before: Board, board: Board, path: tuple) -> bool:
        return path[0].die == 6

    plays = check(BG, b, 6, 1, [pos({3: 1}, opp_off=15)], unplayed=0, forbid=(six_first,))
    assert plays[0].paths == ((Step(10, 9, 1, 0, 0), Step(9, 3, 6, 0, 0)),)


# -- unplayed numbers ---------------------------------------------------------------------------

def test_last_checker_off_with_the_first_number_leaves_nothing_unplayed() -> None:
    # T-A16: one checker on 6, 6-6 (two moves): it is off with the first 6
    b = pos({6: 1}, {24: 15}, off=14)
    check(TT, b, 6, 6, [pos({}, {24: 15}, off=15)], unplayed=0)
    b = pos({3: 1}, {24: 15}, off=14)
    plays = check(TT, b, 5, 4, [pos({}, {24: 15}, off=15)], unplayed=0)
    assert paths_of(plays, pos({}, {24: 15}, off=15)) == {
        (Step(3, 0, 5, 0, 1),), (Step(3, 0, 4, 0, 1),)}


def test_unplayed_two_when_nothing_moves() -> None:
    b = pos({7: 1}, {1: 1, 2: 1, 4: 1, 5: 1, 3: 11})
    check(TT, b, 6, 5, [b], unplayed=2)


# -- worked examples of trictrac.md §7 (movement only) -------------------------------------------

X12_BLACK = {13: 3, 14: 3, 15: 3, 16: 2, 17: 2, 18: 2}


def test_x12_conserving_par_impuissance() -> None:
    """LEP ch. IV fig. 10: with 6-5 only the 5 is played, 7 -> 12 (pip 18 -> 13)."""
    b = pos_m({7: 3, 8: 3, 9: 3, 10: 2, 11: 2, 12: 2}, X12_BLACK)
    plays = check(TT, b, 6, 5, [pos_m({7: 2, 8: 3, 9: 3, 10: 2, 11: 2, 12: 3}, X12_BLACK)],
                  unplayed=1)
    assert plays[0].paths == ((Step(18, 13, 5, 0, 0),),)


def test_x12_doublet_wholly_unplayable() -> None:
    b = pos_m({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 5}, X12_BLACK)
    check(TT, b, 6, 6, [b], unplayed=2)


def test_x13_bearing_off_keeps_the_jan_de_retour() -> None:
    """LEP ch. V fig. 14: 6-3, bear off from M19 with the 6 and play 21 -> 24 with the 3."""
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
    b = pos_m({19: 3, 20: 2, 21: 3, 22: 2, 23: 2, 24: 3}, black)
    played = pos_m({19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 4}, black, off=1)
    plays = check(TT, b, 6, 3, [
        played,
        pos_m({19: 1, 20: 2, 21: 3, 22: 3, 23: 2, 24: 3}, black, off=1),   # 19 -> 22
        pos_m({19: 2, 20: 1, 21: 3, 22: 2, 23: 3, 24: 3}, black, off=1),   # 20 -> 23
        pos_m({19: 2, 20: 2, 21: 3, 22: 1, 23: 2, 24: 3}, black, off=2),   # 22 off, exact
    ], unplayed=0)
    assert (Step(6, 0, 6, 0, 0), Step(4, 1, 3, 0, 0)) in paths_of(plays, played)


X14_BLACK = {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 2, 13: 2, 14: 1, 15: 1}
X14_WHITE = {12: 2, 19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}


def test_x14_only_the_one_with_the_coin_not_passed() -> None:
    """LEP ch. V fig. 13: with 6-1 the coin checkers cannot leave together (12 + 1 is the
    opponent's coin) and nothing is borne off while they stand outside the jan de retour, so only
    the 1 is played. The kernel lists every 1; keeping the jan de retour full (19 -> 20) is the
    must-conserve obligation of the variant file, applied after the kernel."""
    b = pos_m(X14_WHITE, X14_BLACK)
    ones = []
    for m in (19, 20, 21, 22, 23):
        w = dict(X14_WHITE)
        w[m] -= 1
        w[m + 1] += 1
        ones.append(pos_m(w, X14_BLACK))
    plays = check(TT, b, 6, 1, ones, unplayed=1)
    keeps_full = [p.board for p in plays if all(p.board[q] >= 2 for q in range(1, 7))]
    assert keeps_full == [ones[0]]
    assert paths_of(plays, ones[0]) == {(Step(6, 5, 1, 0, 0),)}


def test_x14_doublet_both_coin_checkers_leave() -> None:
    b = pos_m(X14_WHITE, X14_BLACK)
    w = dict(X14_WHITE)
    del w[12]
    w[18] = 2
    check(TT, b, 6, 6, [pos_m(w, X14_BLACK)], unplayed=0)


@pytest.mark.parametrize("rules", [BG, TT, T12], ids=["backgammon", "trictrac", "tric-trac-12"])
def test_no_play_gives_the_board_itself(rules: MoveRules) -> None:
    b = pos({}, {}, off=15, opp_off=15)
    gen = MoveGenerator(rules)
    assert gen.results(b, 3, 1) == [b]
    plays, unplayed = gen.plays(b, 3, 1)
    assert plays[0].board == b and plays[0].paths == ((),)


def test_hit_to_the_start_is_refused_while_the_mover_holds_that_start() -> None:
    # the mover stands on the opponent's start (pip 1): a blot hit there would share the point
    # with him, so the landing on the blot is not a move; before the fix one checker of each
    # side vanished
    b = pos({10: 1, 1: 1}, {7: 1}, opp_off=14, off=13)
    rules = replace(BG, hit="start", start_pip=24)
    plays = check(rules, b, 3, 1, [pos({6: 1, 1: 1}, {7: 1}, opp_off=14, off=13)])
    for p in plays:
        mine = p.board[0] + sum(x for x in p.board[1:25] if x > 0)
        theirs = p.board[27] - sum(x for x in p.board[1:25] if x < 0)
        assert (mine, theirs) == (15, 15)


def test_no_hit_on_the_opponents_start_itself() -> None:
    # a blot standing on its own start cannot be sent back to where it is
    b = pos({4: 1}, {1: 1}, opp_off=14, off=14)
    check(replace(BG, hit="start", start_pip=24), b, 3, 1, [pos({}, {1: 1}, opp_off=14, off=15)])
