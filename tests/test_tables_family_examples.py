"""The worked examples of the tables-family specification (§7: LN1-LN10, PL1-PL7, FV1-FV6,
TV1-TV2, AD1-AD7), each a test named after it, run through what `tablier moves` runs
(`analysis.legal_results` on the position JSON) and the variants' end and value rules.

Positions are written as in the specification: W = the mover, B = the opponent, both
{pip: count} in the mover's pips; `pins` gives the pinned checkers as the JSON does
({"mine": [...], "theirs": [...]}); counts in brackets there are the unentered checkers, here
`unentered` (the mover's and the opponent's).
"""
from __future__ import annotations

from typing import Any

import pytest

from interpreter.analysis import legal_results, read_position
from interpreter.variant.build import load_variant

VARIANTS: dict[tuple[str, tuple[str, ...]], Any] = {}


def variant(name: str, *sets: str) -> Any:
    key = (name, sets)
    if key not in VARIANTS:
        VARIANTS[key] = load_variant(name, list(sets))
    return VARIANTS[key]


def position(W: dict[int, int], B: dict[int, int], *, dice: tuple[int, int] | None = None,
             off: tuple[int, int] = (0, 0), bar: tuple[int, int] = (0, 0),
             pins: dict[str, list[int]] | None = None, stage: str | None = None) -> dict:
    points = [0] * 24
    for p, n in W.items():
        points[p - 1] += n
    for p, n in B.items():
        assert points[p - 1] == 0, p
        points[p - 1] -= n
    obj: dict[str, Any] = {"points": points, "bar": list(bar), "off": list(off)}
    if dice is not None:
        obj["dice"] = list(dice)
    if pins:
        obj["pins"] = pins
    if stage:
        obj["state"] = {"stage": stage}
    return obj


def shape(result: dict) -> tuple:
    """A result as comparable data: W and B in the mover's pips, off, pins, unentered."""
    W = {p + 1: n for p, n in enumerate(result["points"]) if n > 0}
    B = {p + 1: -n for p, n in enumerate(result["points"]) if n < 0}
    pins = result.get("pins", {"mine": [], "theirs": []})
    unentered = result.get("state", {}).get("unentered")
    return (tuple(sorted(W.items())), tuple(sorted(B.items())), tuple(result["off"]),
            tuple(result["bar"]), tuple(pins["mine"]), tuple(pins["theirs"]),
            tuple(unentered) if unentered else None)


def moves(name: str, pos: dict, *sets: str) -> dict:
    return legal_results(variant(name, *sets), pos)


def results_of(name: str, pos: dict, *sets: str) -> set[tuple]:
    out = moves(name, pos, *sets)
    assert out["count"] == len(out["results"])
    shapes = [shape(r) for r in out["results"]]
    assert len(set(shapes)) == len(shapes)
    return set(shapes)


def expect(W: dict[int, int], B: dict[int, int], *, off: tuple[int, int] = (0, 0),
           bar: tuple[int, int] = (0, 0), mine_pins: tuple[int, ...] = (),
           theirs_pins: tuple[int, ...] = (), unentered: tuple[int, int] | None = None) -> tuple:
    return (tuple(sorted(W.items())), tuple(sorted(B.items())), off, bar, mine_pins,
            theirs_pins, unentered)


def ending(name: str, pos: dict) -> tuple[str | None, int]:
    """(who wins, what it is worth) after a play ending on `pos`, seen by the player who made it."""
    v = variant(name)
    b = read_position(v, pos, need_dice=False).board
    winner = v.rules.game_over(b)
    if winner in (None, "none"):
        return winner, 0
    return winner, v.rules.game_value(b if winner == "mover" else v.flip(b))


def after(name: str, pos: dict, result: tuple) -> dict:
    """The position JSON of one of `results_of`'s shapes."""
    out = moves(name, pos)
    return next(r for r in out["results"] if shape(r) == result)


# -- Long Nardy --------------------------------------------------------------------------------

HEADS = ({24: 15}, {12: 15})


def test_ln1_opening_six_six() -> None:
    assert results_of("long-nardy", position(*HEADS, dice=(6, 6))) == {
        expect({24: 13, 18: 2}, {12: 15})}


def test_ln2_opening_four_four() -> None:
    assert results_of("long-nardy", position(*HEADS, dice=(4, 4))) == {
        expect({24: 13, 16: 2}, {12: 15})}


def test_ln3_opening_three_three() -> None:
    assert results_of("long-nardy", position(*HEADS, dice=(3, 3))) == {
        expect({24: 13, 18: 2}, {12: 15}), expect({24: 13, 21: 1, 15: 1}, {12: 15})}


def test_ln4_opening_five_five_has_no_exception() -> None:
    assert results_of("long-nardy", position(*HEADS, dice=(5, 5))) == {
        expect({24: 14, 4: 1}, {12: 15})}


def test_ln5_second_players_five_five() -> None:
    pos = position({24: 15}, {12: 14, 9: 1}, dice=(5, 5))
    assert results_of("long-nardy", pos) == {expect({24: 14, 14: 1}, {12: 14, 9: 1})}
    assert results_of("long-nardy", pos, 'ln_head_exception="when_needed"') == {
        expect({24: 13, 14: 2}, {12: 14, 9: 1})}


def test_ln1_to_ln3_under_when_needed_and_six_and_four() -> None:
    when_needed = 'ln_head_exception="when_needed"'
    assert results_of("long-nardy", position(*HEADS, dice=(6, 6)), when_needed) == {
        expect({24: 13, 18: 2}, {12: 15})}
    # Şeş-Beş: 3-3 takes one checker from the head only: 24/21/18/15, then 15/12 is closed
    assert results_of("long-nardy", position(*HEADS, dice=(3, 3)),
                      'ln_head_exception="six_and_four"') == {expect({24: 14, 15: 1}, {12: 15})}


def test_ln6_one_checker_from_the_head_later() -> None:
    pos = position({24: 14, 13: 1}, {12: 14, 9: 1}, dice=(5, 3))
    B = {12: 14, 9: 1}
    assert results_of("long-nardy", pos) == {
        expect({24: 13, 16: 1, 13: 1}, B), expect({24: 13, 19: 1, 10: 1}, B),
        expect({24: 13, 21: 1, 8: 1}, B), expect({24: 14, 5: 1}, B)}


def test_ln7_six_block_with_the_opponent_behind() -> None:
    W = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1}
    res = results_of("long-nardy", position(W, {12: 13, 5: 2}, dice=(5, 1)))
    assert len(res) == 29
    block = {24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1}
    assert expect(block, {12: 13, 5: 2}) not in res
    # one opposing checker on his pip 3 (the mover's 15), ahead of the block: legal
    res = results_of("long-nardy", position(W, {12: 12, 5: 2, 15: 1}, dice=(5, 1)))
    assert len(res) == 25
    assert expect(block, {12: 12, 5: 2, 15: 1}) in res


def test_ln7_six_block_until_the_opponent_is_home() -> None:
    # LN-A3 "opponent_home": the block waits for an opposing checker in his home board
    W = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1}
    block = {24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1}
    ahead = {12: 12, 5: 2, 15: 1}      # on his pip 3: ahead of the block, and home
    pos = position(W, ahead, dice=(5, 1))
    assert expect(block, ahead) in results_of("long-nardy", pos, 'ln_six_block="opponent_home"')
    outside = {12: 12, 5: 2, 11: 1}    # his pip 23: behind the block's start, not home
    pos = position(W, outside, dice=(5, 1))
    assert expect(block, outside) not in results_of("long-nardy", pos,
                                                    'ln_six_block="opponent_home"')


def test_ln8_bearing_off() -> None:
    pos = position({6: 1, 4: 2, 2: 1}, {12: 5, 16: 10}, dice=(6, 3), off=(11, 0))
    B = {12: 5, 16: 10}
    assert results_of("long-nardy", pos) == {
        expect({4: 1, 2: 1, 1: 1}, B, off=(12, 0)), expect({4: 1, 3: 1, 2: 1}, B, off=(12, 0))}


def test_ln9_the_higher_number() -> None:
    pos = position({13: 1, 6: 14}, {12: 13, 2: 1, 1: 1}, dice=(6, 5))
    assert results_of("long-nardy", pos) == {expect({7: 1, 6: 14}, {12: 13, 2: 1, 1: 1})}


def test_ln10_mars() -> None:
    pos = position({1: 1}, {12: 15}, dice=(2, 1), off=(14, 0))
    [won] = moves("long-nardy", pos)["results"]
    assert won["off"] == [15, 0]
    assert ending("long-nardy", won) == ("mover", 2)
    pos = position({1: 1}, {12: 12}, dice=(2, 1), off=(14, 3))
    [won] = moves("long-nardy", pos)["results"]
    assert ending("long-nardy", won) == ("mover", 1)


# -- Plakoto -----------------------------------------------------------------------------------

def test_pl1_opening() -> None:
    assert results_of("plakoto", position({24: 15}, {1: 15}, dice=(6, 5))) == {
        expect({24: 13, 19: 1, 18: 1}, {1: 15}), expect({24: 14, 13: 1}, {1: 15})}


def test_pl2_pin_and_move_on() -> None:
    B = {1: 12, 12: 2, 8: 1}
    pos = position({24: 14, 13: 1}, B, dice=(5, 1))
    assert results_of("plakoto", pos) == {
        expect({24: 13, 23: 1, 8: 1}, {1: 12, 12: 2}, theirs_pins=(8,)),
        expect({24: 12, 23: 1, 19: 1, 13: 1}, B),
        expect({24: 13, 18: 1, 13: 1}, B),
        expect({24: 14, 7: 1}, B)}


def test_pl3_a_pinned_checker() -> None:
    B = {10: 1, 1: 13, 5: 1}
    pos = position({24: 13, 15: 1}, B, dice=(5, 3), pins={"mine": [10], "theirs": []})
    kw = dict(mine_pins=(10,))
    assert results_of("plakoto", pos) == {
        expect({24: 11, 21: 1, 19: 1, 15: 1}, B, **kw), expect({24: 12, 16: 1, 15: 1}, B, **kw),
        expect({24: 12, 19: 1, 12: 1}, B, **kw), expect({24: 13, 7: 1}, B, **kw)}


def test_pl4_no_bearing_off_with_a_pinned_checker() -> None:
    W = {6: 2, 5: 2, 4: 2, 3: 2}
    B = {2: 1, 1: 4, 19: 5, 20: 5}
    pos = position(W, B, dice=(6, 5), off=(6, 0), pins={"mine": [2], "theirs": []})
    assert results_of("plakoto", pos) == {expect(W, B, off=(6, 0), mine_pins=(2,))}
    assert results_of("plakoto", pos, 'pl_bear_off_pinned="allowed"') == {
        expect({6: 1, 5: 1, 4: 2, 3: 2}, B, off=(8, 0), mine_pins=(2,))}


def test_pl5_the_mother() -> None:
    pos = position({13: 3, 7: 6, 4: 6}, {1: 1, 20: 7, 18: 7}, dice=(3, 2))
    res = moves("plakoto", pos)["results"]
    assert len(res) == 10
    pinning = [r for r in res if r.get("pins", {}).get("theirs") == [1]]
    assert len(pinning) == 3
    for r in pinning:
        assert ending("plakoto", r) == ("mover", 2)
    for r in res:
        if r not in pinning:
            assert ending("plakoto", r) == (None, 0)


def test_pl5_mother_value_option() -> None:
    v = variant("plakoto", 'pl_mother_value="3"')
    pos = position({13: 3, 7: 6, 4: 6}, {1: 1, 20: 7, 18: 7}, dice=(3, 2))
    r = next(r for r in legal_results(v, pos)["results"] if r.get("pins"))
    b = read_position(v, r, need_dice=False).board
    assert v.rules.game_over(b) == "mover" and v.rules.game_value(b) == 3


def test_pl6_the_mother_while_the_pinners_start_is_held() -> None:
    pos = position({24: 1, 13: 2, 7: 6, 4: 6}, {1: 1, 20: 7, 18: 7}, dice=(3, 2))
    res = moves("plakoto", pos)["results"]
    pinning = [r for r in res if r.get("pins", {}).get("theirs") == [1]]
    # 4/1 with 13/11, 7/5, 4/2 or 24/22
    assert len(pinning) == 4
    ends = [ending("plakoto", r) for r in pinning]
    assert ends.count((None, 0)) == 3 and ends.count(("mover", 2)) == 1
    [won] = [r for r in pinning if ending("plakoto", r)[0]]
    assert won["points"][23] == 0           # 24/22: the mover's start is empty


def test_pl7_both_mothers_pinned_is_a_tie() -> None:
    pos = position({13: 2, 7: 6, 4: 6}, {24: 1, 1: 1, 20: 6, 18: 7}, dice=(3, 2),
                   pins={"mine": [24], "theirs": []})
    res = moves("plakoto", pos)["results"]
    ties = [r for r in res if 1 in r.get("pins", {}).get("theirs", [])]
    assert ties
    for r in res:
        assert r["pins"]["mine"] == [24]
        assert ending("plakoto", r) == (("none", 0) if r in ties else (None, 0))


# -- Fevga -------------------------------------------------------------------------------------

def test_fv1_opening_six_six() -> None:
    assert results_of("fevga", position(*HEADS, dice=(6, 6))) == {
        expect({24: 14, 18: 1}, {12: 15})}


def test_fv2_opening_six_five() -> None:
    assert results_of("fevga", position(*HEADS, dice=(6, 5))) == {
        expect({24: 14, 13: 1}, {12: 15})}


def test_fv3_the_first_runner_before_each_move() -> None:
    B = {12: 14, 20: 1}
    pos = position({24: 14, 13: 1}, B, dice=(2, 1))
    assert results_of("fevga", pos) == {expect({24: 14, 10: 1}, B),
                                        expect({24: 13, 23: 1, 11: 1}, B)}


def test_fv3_first_runner_to_the_starting_quarter() -> None:
    # FV-A1 "start_quarter": pip 12 is enough; the opponent's start is empty here
    B = {11: 14, 20: 1}
    pos = position({24: 14, 14: 1}, B, dice=(2, 1))
    past = results_of("fevga", pos)
    quarter = results_of("fevga", pos, 'fv_first_runner="start_quarter"')
    assert expect({24: 13, 23: 1, 12: 1}, B) in quarter - past


def test_fv4_the_starting_quarter() -> None:
    W = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 11: 1}
    B = {12: 9, 18: 1, 17: 1, 16: 1, 15: 1, 10: 1, 6: 1}
    assert results_of("fevga", position(W, B, dice=(5, 1))) == {
        expect({24: 9, 22: 2, 21: 1, 20: 1, 19: 1, 11: 1}, B),
        expect({24: 9, 23: 1, 21: 2, 20: 1, 19: 1, 11: 1}, B),
        expect({24: 9, 23: 1, 22: 1, 20: 2, 19: 1, 11: 1}, B),
        expect({24: 9, 23: 1, 22: 1, 21: 1, 19: 2, 11: 1}, B),
        expect({24: 10, 23: 1, 22: 1, 21: 1, 14: 1, 11: 1}, B)}


FV5_W = {11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 24: 5, 23: 4}


def test_fv5_a_prime_with_the_opponent_gathered_behind() -> None:
    res = results_of("fevga", position(FV5_W, {12: 15}, dice=(2, 1)))
    assert len(res) == 51
    prime = range(6, 12)
    for r in res:
        W = dict(r[0])
        assert not all(W.get(p, 0) > 0 for p in prime)
    # the five plays that keep it: 24/22 24/23, 24/22 23/22, 24/21, 23/21 23/22, 23/20
    kept = [{24: 3, 23: 5, 22: 1}, {24: 4, 23: 3, 22: 2}, {24: 4, 23: 4, 21: 1},
            {24: 5, 23: 2, 22: 1, 21: 1}, {24: 5, 23: 3, 20: 1}]
    for k in kept:
        W = {**FV5_W, **k}
        assert sum(W.values()) == 15
        assert expect(W, {12: 15}) not in res
    six_four = {**FV5_W, 6: 0, 4: 1, 24: 4, 23: 5}     # 6/4 24/23
    assert expect({p: n for p, n in six_four.items() if n}, {12: 15}) in res


def test_fv5_waived_when_no_play_opens_the_prime() -> None:
    # A prime on the mover's 6..1 (the opponent's 18..13), all fifteen opposing checkers on the
    # point behind it (his 19, the mover's 7). With 6-6 the prime's checkers cannot move (no
    # bearing off while nine stand on 24), so every play, and not moving, keeps the prime: the
    # rule is waived and the sixes are played as if it did not exist.
    W = {24: 9, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}
    pos = position(W, {7: 15}, dice=(6, 6))
    waived = results_of("fevga", pos)
    assert waived == results_of("fevga", pos, "rules.prime.enabled=false")
    assert expect({24: 5, 18: 4, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {7: 15}) in waived
    # the "all_behind" reading is not waived (as Long Nardy's rule): the turn is lost
    assert results_of("fevga", pos, 'fv_prime="all_behind"') == {expect(W, {7: 15})}


def test_fv6_bearing_off() -> None:
    pos = position({5: 2, 3: 1}, {14: 15}, dice=(6, 4), off=(12, 0))
    assert results_of("fevga", pos) == {expect({3: 1, 1: 1}, {14: 15}, off=(13, 0))}


# -- Tavli -------------------------------------------------------------------------------------

def test_tv1_portes_backgammon_counts_two() -> None:
    pos = position({1: 1}, {20: 10, 3: 4}, bar=(0, 1), off=(14, 0), dice=(2, 1))
    [won] = moves("portes", pos)["results"]
    assert ending("portes", won) == ("mover", 2)
    v = variant("portes", 'portes_backgammon="three"')
    b = read_position(v, won, need_dice=False).board
    assert v.rules.game_value(b) == 3


def test_tv2_a_tavli_match_to_five() -> None:
    """The game values of a match in the rotation Portes, Plakoto, Fevga (the match ladder
    itself is the engine's): each game ends on a position its variant's rules score."""
    games = [
        # Portes: A bears off his last checker, B has borne off three: 1
        ("portes", "A", position({}, {20: 12}, off=(15, 3))),
        # Plakoto: B pins A's mother, B's own start is empty: 2 (seen by B, who played)
        ("plakoto", "B", position({1: 1, 7: 14}, {24: 1, 20: 13},
                                  pins={"mine": [], "theirs": [1]})),
        # Fevga: A bears off, B has borne off none: 2
        ("fevga", "A", position({}, {14: 15}, off=(15, 0))),
        # Portes: B wins a single game: 1
        ("portes", "B", position({}, {20: 10}, off=(15, 5))),
        # Plakoto: both mothers pinned: a tie, nobody scores
        ("plakoto", None, position({1: 1, 8: 13}, {24: 1, 20: 13},
                                   pins={"mine": [24], "theirs": [1]})),
        # Fevga: A again, 2
        ("fevga", "A", position({}, {14: 15}, off=(15, 0))),
    ]
    score = {"A": 0, "B": 0}
    rotation = ["portes", "plakoto", "fevga"]
    for i, (name, player, final) in enumerate(games):
        assert name == rotation[i % 3]
        winner, value = ending(name, final)
        if player is None:
            assert winner == "none"
            continue
        assert winner == "mover"
        score[player] += value
    assert score == {"A": 5, "B": 3}


# -- Acey-deucey -------------------------------------------------------------------------------

EMPTY: dict[int, int] = {}


def test_ad1_entering() -> None:
    out = moves("acey-deucey", position(EMPTY, EMPTY, dice=(6, 3)))
    assert {shape(r) for r in out["results"]} == {
        expect({19: 1, 22: 1}, {}, unentered=(13, 15)), expect({16: 1}, {}, unentered=(14, 15))}
    assert out["next"] == "end"


def test_ad2_the_acey_deucey_throw() -> None:
    out = moves("acey-deucey", position(EMPTY, EMPTY, dice=(1, 2)))
    assert {shape(r) for r in out["results"]} == {
        expect({24: 1, 23: 1}, {}, unentered=(13, 15)), expect({22: 1}, {}, unentered=(14, 15))}
    assert out["next"] == "doublet"


def test_ad3_the_named_doublet() -> None:
    out = moves("acey-deucey", position({22: 1}, EMPTY, dice=(6, 6), stage="doublet"))
    res = {shape(r) for r in out["results"]}
    assert len(res) == 11
    assert expect({19: 4, 22: 1}, {}, unentered=(10, 15)) in res
    assert expect({13: 1, 10: 1}, {}, unentered=(13, 15)) in res
    assert expect({22: 1, 1: 1}, {}, unentered=(13, 15)) in res
    assert out["next"] == "reroll"


def test_ad4_bar_first() -> None:
    pos = position({13: 2, 8: 3}, {19: 2, 21: 1, 10: 1}, bar=(1, 0), dice=(6, 4))
    B = {19: 2, 10: 1}
    kw = dict(bar=(0, 1), unentered=(9, 11))
    assert results_of("acey-deucey", pos) == {
        expect({15: 1, 13: 2, 8: 3}, B, **kw), expect({21: 1, 13: 1, 8: 3, 7: 1}, B, **kw),
        expect({21: 1, 13: 2, 8: 2, 2: 1}, B, **kw)}


def test_ad5_a_one_two_not_played_in_full() -> None:
    out = moves("acey-deucey", position({13: 15}, {12: 2, 10: 2}, dice=(1, 2)))
    assert {shape(r) for r in out["results"]} == {
        expect({13: 14, 11: 1}, {12: 2, 10: 2}, unentered=(0, 11))}
    assert out["next"] == "end"


def test_ad6_a_named_doublet_not_played_in_full() -> None:
    out = moves("acey-deucey", position({22: 1}, {19: 2}, dice=(6, 6), stage="doublet"))
    assert {shape(r) for r in out["results"]} == {expect({4: 1}, {19: 2}, unentered=(14, 13))}
    assert out["next"] == "end"


def test_ad7_no_bearing_off_while_one_is_unentered() -> None:
    out = moves("acey-deucey", position({1: 14}, EMPTY, dice=(6, 5)))
    assert {shape(r) for r in out["results"]} == {
        expect({1: 14, 14: 1}, {}, unentered=(0, 15))}


def test_ad_european_bonus_and_doublet_throws_again() -> None:
    v = variant("acey-deucey", 'ad_bonus="european"')
    out = legal_results(v, position({22: 1}, EMPTY, dice=(6, 6), stage="doublet"))
    assert out["next"] == "complement"
    out = legal_results(v, position({22: 1}, EMPTY, dice=(1, 1), stage="complement"))
    assert out["next"] == "reroll"
    again = variant("acey-deucey", 'ad_doublet_throws_again="yes"')
    assert legal_results(again, position({22: 1}, EMPTY, dice=(3, 3)))["next"] == "reroll"
    assert moves("acey-deucey", position({22: 1}, EMPTY, dice=(3, 3)))["next"] == "end"


def test_ad_values() -> None:
    # the loser has a checker unentered: a backgammon; `ad_values = "single"`: one point
    won = position({}, {20: 10}, off=(15, 0))
    assert ending("acey-deucey", won) == ("mover", 3)
    v = variant("acey-deucey", 'ad_values="single"')
    b = read_position(v, won, need_dice=False).board
    assert v.rules.game_value(b) == 1


def test_ad_a2_a3_a6_options() -> None:
    pos = position({13: 1}, EMPTY, dice=(6, 3))
    free = results_of("acey-deucey", pos)
    assert expect({4: 1}, {}, unentered=(14, 15)) in free
    first = results_of("acey-deucey", pos, 'ad_enter_all_first="yes"')
    assert first == {expect({13: 1, 19: 1, 22: 1}, {}, unentered=(12, 15))}
    later = results_of("acey-deucey", position(EMPTY, EMPTY, dice=(6, 3)),
                       'ad_enter_then_move="later_throw"')
    assert later == {expect({19: 1, 22: 1}, {}, unentered=(13, 15))}
    hit = results_of("acey-deucey", position({13: 1}, {10: 1}, dice=(3, 1)),
                     'ad_hit="rejoin_unentered"')
    assert expect({9: 1}, {}, unentered=(14, 15)) in hit
    assert results_of("acey-deucey", position(EMPTY, EMPTY, dice=(6, 3)),
                      'ad_opening="doublet_first"') == {expect({}, {}, unentered=(15, 15))}
    assert len(results_of("acey-deucey", position(EMPTY, EMPTY, dice=(1, 2)),
                          'ad_opening="doublet_first"')) == 2


def test_stage_and_unentered_are_checked() -> None:
    from interpreter.errors import PositionError

    with pytest.raises(PositionError, match="doublet"):
        moves("acey-deucey", position({22: 1}, EMPTY, dice=(6, 5), stage="doublet"))
    with pytest.raises(PositionError, match="stage"):
        moves("long-nardy", position(*HEADS, dice=(6, 6), stage="doublet"))
    bad = position({22: 1}, EMPTY, dice=(6, 5))
    bad["state"] = {"unentered": [13, 15]}
    with pytest.raises(PositionError, match="unentered"):
        moves("acey-deucey", bad)
