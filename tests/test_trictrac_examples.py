"""The worked examples X1-X16 of rules/trictrac.md §7, through what `tablier score` and
`tablier moves` print (`interpreter.analysis.roll_score`, `legal_results`) for the Dutch Triktrak.

The examples are written in the treatises' numbering M (1 = the mover's talon, 12 = his coin,
13 = the opponent's coin, 24 = the opponent's talon); the position JSON counts pips, pip = 25 - M.
W is the mover, B the opponent. Where an example does not place all fifteen checkers of a side,
the test says where the others are (borne off, or on the talon).
"""
from __future__ import annotations

from typing import Any

import pytest

from interpreter.analysis import legal_results, roll_score
from interpreter.kernel.board import from_json
from interpreter.scoring.holes import Holes
from interpreter.variant.build import load_variant

TRIKTRAK = load_variant("triktrak")
W, B = 0, 1      # the players of a Holes ladder: the mover of the example and his opponent


def position(white: dict[int, int], black: dict[int, int], dice: tuple[int, int], *,
             rolls: int = 1, off: tuple[int, int] = (0, 0), **extra: Any) -> dict[str, Any]:
    """The position JSON of an example: W and B as {M: count}, pip = 25 - M."""
    points = [0] * 24
    for m, n in white.items():
        points[24 - m] += n
    for m, n in black.items():
        assert points[24 - m] == 0, f"M{m} holds checkers of both sides"
        points[24 - m] -= n
    return {"points": points, "bar": [0, 0], "off": list(off), "dice": list(dice),
            "rolls": rolls, **extra}


def in_m(result: dict[str, Any]) -> tuple[dict[int, int], int]:
    """A result of `legal_results` back in M: the mover's {M: count} and his checkers off."""
    return {25 - pip: n for pip, n in enumerate(result["points"], 1) if n > 0}, result["off"][0]


def score(pos: dict[str, Any]) -> tuple[int, int, dict[str, tuple[str, int, int]]]:
    """(mover, opponent, {rule id: (to, points, ways)}) of a roll."""
    out = roll_score(TRIKTRAK, pos)
    items = {i["rule"]: (i["to"], i["points"], i["ways"]) for i in out["items"]}
    assert sum(p for to, p, _w in items.values() if to == "mover") == out["mover"]
    assert sum(p for to, p, _w in items.values() if to == "opponent") == out["opponent"]
    return out["mover"], out["opponent"], items


def finals(pos: dict[str, Any]) -> list[tuple[dict[int, int], int]]:
    """The final legal plays (every obligation applied), each in M."""
    out = legal_results(TRIKTRAK, pos)
    assert out["count"] == len(out["results"])
    return [in_m(r) for r in out["results"]]


def raw_plays(pos: dict[str, Any]) -> int:
    """How many distinct end positions the movement rules allow before the obligations
    (must fill, must conserve, must complete the sortie)."""
    b = from_json(pos, TRIKTRAK.checkers)
    plays, _unplayed = TRIKTRAK.generator.plays(b, *pos["dice"])
    return len(plays)


# -- X1-X2: the petit jan -------------------------------------------------------------------------

def test_x01_jan_de_six_tables() -> None:
    """X1 (LEP ch. I): on his third roll, one checker on each of M2-M5, 6-5 reaches M7 and M6
    from the talon: jan de six tables, 4 to the mover. He need not play to M6 and M7."""
    pos = position({1: 11, 2: 1, 3: 1, 4: 1, 5: 1}, {24: 13, 18: 2}, (6, 5), rolls=3)
    assert score(pos) == (4, 0, {"jan-de-six-tables": ("mover", 4, 1)})
    plays = finals(pos)
    assert any(m.get(6, 0) == 1 and m.get(7, 0) == 1 for m, _off in plays)
    assert any(not (m.get(6) and m.get(7)) for m, _off in plays)
    # not on his second or fourth roll
    for rolls in (2, 4):
        assert score(position({1: 11, 2: 1, 3: 1, 4: 1, 5: 1}, {24: 13, 18: 2}, (6, 5),
                              rolls=rolls))[:2] == (0, 0)


def test_x02_petit_jan_filled_three_ways_then_a_double_hole() -> None:
    """X2 (LEP ch. I): 3-2 fills M6 three ways (the 2 from M4, the 3 from M3, the sum from the
    talon resting on M3 or M4): 12. With 4 points before, uninterrupted: 2 holes, 4 left, and the
    right to go."""
    pos = position({1: 3, 2: 2, 3: 3, 4: 3, 5: 2, 6: 1, 7: 1},
                   {24: 5, 23: 3, 22: 3, 18: 2, 16: 2}, (3, 2))
    assert score(pos) == (12, 0, {"fill-petit-jan": ("mover", 12, 3)})
    # the must-fill obligation: every final play leaves the petit jan full
    for m, _off in finals(pos):
        assert all(m.get(p, 0) >= 2 for p in range(1, 7))
    h = Holes(TRIKTRAK.ladder)
    h.mark(W, 4, own_roll=True)
    assert h.mark(W, 12, own_roll=True) == (2, True)
    assert h.holes == [2, 0] and h.points == [4, 0]


# -- X3-X7: opening jans, hits, battre le coin ---------------------------------------------------

X3_B = {24: 11, 23: 1, 22: 2, 21: 1}


@pytest.mark.parametrize("white, dice, points", [
    ({1: 13, 8: 1, 10: 1}, (4, 3), 4),     # 8+4 = 12, 10+3 = 13
    ({1: 13, 8: 1, 10: 1}, (5, 2), 4),     # 10+2 = 12, 8+5 = 13
    ({1: 13, 9: 1, 10: 1}, (3, 3), 6),     # a doublet: 9+3 = 12, 10+3 = 13
])
def test_x03_jan_de_deux_tables(white: dict[int, int], dice: tuple[int, int],
                                points: int) -> None:
    """X3 (LEP ch. II): two checkers off the talon could reach both coins, one number each."""
    assert score(position(white, X3_B, dice)) == (points, 0,
                                                  {"jan-de-deux-tables": ("mover", points, 1)})


def test_x03_contre_jan_de_deux_tables() -> None:
    """X3, contre variant: B holds his coin (M13), so the 4 points are his."""
    pos = position({1: 13, 8: 1, 10: 1}, {24: 9, 23: 1, 22: 2, 21: 1, 13: 2}, (4, 3))
    assert score(pos) == (0, 4, {"contre-jan-de-deux-tables": ("opponent", 4, 1)})


def test_x04_coin_checkers_hitting() -> None:
    """X4 (LEP ch. II): 5-1; M17 hit by the 5 from the coin, M18 by the sum from the coin (rest
    M17, a blot, or M13, empty): 2 + 2. No battre le coin: M8 is empty and an ace from the coin
    would need a third checker there."""
    pos = position({1: 11, 4: 1, 5: 1, 12: 2}, {24: 9, 23: 1, 22: 2, 21: 1, 18: 1, 17: 1},
                   (5, 1))
    assert score(pos) == (4, 0, {"true-hit-grand-jan": ("mover", 4, 2)})


def test_x05_one_direct_hit_plus_one_sum_hit() -> None:
    """X5 (LEP ch. II): 4-3; M16 hit by the 4 from the coin (2) and M19 by the sum from the coin,
    resting on M15 or M16 (4, petit-jan table): 6. The source's "8 points" disagrees with its
    own total (6 + 8 = 14); the rules give 6, as the spec says. From 8 points, uninterrupted:
    14 → 2 holes (bredouille) and 2 left."""
    pos = position({1: 10, 4: 1, 5: 1, 7: 1, 12: 2},
                   {24: 8, 23: 1, 22: 1, 21: 1, 19: 1, 18: 1, 17: 1, 16: 1}, (4, 3))
    assert score(pos) == (6, 0, {"true-hit-petit-jan": ("mover", 4, 1),
                                 "true-hit-grand-jan": ("mover", 2, 1)})
    h = Holes(TRIKTRAK.ladder)
    h.mark(W, 8, own_roll=True)
    assert h.mark(W, 6, own_roll=True) == (2, True)
    assert h.holes == [2, 0] and h.points == [2, 0]


def test_x06_twenty_points_with_battre_le_coin() -> None:
    """X6 (LEP ch. II): 6-5; M16 (sum from M5), M17 (5 from the coin), M18 two ways (6 from the
    coin, sum from M7): 2 + 2 + 4 in the grand-jan table; M19 (sum from M8, resting on the empty
    M13) and M23 (sum from the coin, resting on the blots M17/M18): 4 + 4; battre le coin
    (7+6 = 13, 8+5 = 13): 4. Total 20. From 2 points: 22 → 2 holes and 10 left."""
    pos = position({1: 9, 4: 1, 5: 1, 7: 1, 8: 1, 12: 2},
                   {24: 7, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}, (6, 5))
    assert score(pos) == (20, 0, {"true-hit-grand-jan": ("mover", 8, 4),
                                  "true-hit-petit-jan": ("mover", 8, 2),
                                  "battre-le-coin": ("mover", 4, 1)})
    h = Holes(TRIKTRAK.ladder)
    h.mark(W, 2, own_roll=True)
    assert h.mark(W, 20, own_roll=True) == (2, True)
    assert h.holes == [2, 0] and h.points == [10, 0] and h.bred[W]


@pytest.mark.parametrize("dice, points", [((6, 1), 4), ((1, 1), 6)])
def test_x07_jan_de_mezeas(dice: tuple[int, int], points: int) -> None:
    """X7 (LEP ch. III): the coin held by the only two checkers off the talon and an ace:
    4 for one ace, 6 for 1-1 (never 8)."""
    pos = position({1: 13, 12: 2}, {24: 13, 14: 2}, dice)
    assert score(pos) == (points, 0, {"jan-de-mezeas": ("mover", points, 1)})


def test_x07_contre_jan_de_mezeas() -> None:
    """X7: with B holding his coin, 6-1 gives the 4 points to B."""
    pos = position({1: 13, 12: 2}, {24: 11, 14: 2, 13: 2}, (6, 1))
    assert score(pos) == (0, 4, {"contre-jan-de-mezeas": ("opponent", 4, 1)})


# -- X8-X11: false hits and the 38-point roll -----------------------------------------------------

X8_B = {24: 4, 23: 1, 22: 1, 19: 1, 18: 2, 17: 2, 14: 2, 13: 2}


def test_x08_false_hit() -> None:
    """X8 (LEP ch. III, counts completed): 6-1; M19 only by the sum from the coin, both rests
    (B's held coin M13 and M18) closed: a false hit, 4 to B."""
    pos = position({1: 7, 6: 2, 7: 2, 11: 2, 12: 2}, X8_B, (6, 1))
    assert score(pos) == (0, 4, {"false-hit-petit-jan": ("opponent", 4, 1)})


def test_x09_true_and_false_hits_in_the_same_roll() -> None:
    """X9 (LEP ch. III, W's point on M8 as the text says): 6-5; M22 from M11 resting on the
    empty M16: true, 4; M19 from M8 and M23 from the coin, every rest closed: false, 4 + 4."""
    pos = position({1: 7, 6: 2, 8: 2, 11: 2, 12: 2}, X8_B, (6, 5))
    assert score(pos) == (4, 8, {"true-hit-petit-jan": ("mover", 4, 1),
                                 "false-hit-petit-jan": ("opponent", 8, 2)})


def test_x10_grand_jan_filled_three_ways_and_five_blots_38_points() -> None:
    """X10 (LEP ch. IV fig. 9): 6-4; fill M11 three ways (4 from M7, 6 from M5, the sum from
    the talon): 12; M14 three ways, M17 and M18 two ways each: 7 ways × 2; M20, M21, M22 each by
    the sum: 3 × 4. Total 38. With 10 points, not in bredouille: 48 → 7 holes, 0 left."""
    pos = position({1: 1, 4: 1, 5: 1, 7: 3, 8: 2, 9: 2, 10: 2, 11: 1, 12: 2},
                   {24: 2, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1, 17: 1, 16: 2, 15: 2, 14: 1,
                    13: 2}, (6, 4))
    assert score(pos) == (38, 0, {"fill-grand-jan": ("mover", 12, 3),
                                  "true-hit-grand-jan": ("mover", 14, 7),
                                  "true-hit-petit-jan": ("mover", 12, 3)})
    h = Holes(TRIKTRAK.ladder)
    h.mark(W, 6, own_roll=True)
    h.mark(B, 2, own_roll=False)         # B's points interrupt W's series
    h.mark(W, 4, own_roll=True)
    assert h.points[W] == 10 and not h.bred[W]
    assert h.mark(W, 38, own_roll=True) == (7, True)
    assert h.holes == [7, 0] and h.points == [0, 0]


def test_x11_reply_with_two_false_hits() -> None:
    """X11 (LEP ch. IV): B replies to X10 with 6-3 (written in B's index); W's blots on
    mover-M20 and M21 are reached only by the sum, every rest a W point: 2 false hits, 8 to W."""
    pos = position({1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 7: 1, 8: 1, 9: 2, 10: 2, 11: 1, 12: 2},
                   {13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 3, 20: 1, 21: 1}, (6, 3))
    assert score(pos) == (0, 8, {"false-hit-petit-jan": ("opponent", 8, 2)})


# -- X12-X14: conserving, with the movement and its obligations -----------------------------------

X12_B = {13: 3, 14: 3, 15: 3, 16: 2, 17: 2, 18: 2}


def test_x12_conserving_par_impuissance() -> None:
    """X12 (LEP ch. IV fig. 10): 6-5; the 5 is played 7→12 and no 6 can be played: the grand
    jan is conserved (4) and B scores 2 for the unplayed 6. The only final play is 7→12."""
    pos = position({7: 3, 8: 3, 9: 3, 10: 2, 11: 2, 12: 2}, X12_B, (6, 5))
    assert score(pos) == (4, 2, {"conserve-grand-jan": ("mover", 4, 1),
                                 "jan-qui-ne-peut": ("opponent", 2, 1)})
    assert finals(pos) == [({7: 2, 8: 3, 9: 3, 10: 2, 11: 2, 12: 3}, 0)]


def test_x12_doublet_wholly_unplayable() -> None:
    """X12: with W {7:2, 8:2, 9:2, 10:2, 11:2, 12:5}, 6-6 cannot be played at all: conserve 6
    to W, 2 + 2 to B; the position stays as it is."""
    white = {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 5}
    pos = position(white, X12_B, (6, 6))
    assert score(pos) == (6, 4, {"conserve-grand-jan": ("mover", 6, 1),
                                 "jan-qui-ne-peut": ("opponent", 4, 2)})
    assert finals(pos) == [(white, 0)]


def test_x13_conserving_the_jan_de_retour_by_bearing_off() -> None:
    """X13 (LEP ch. V fig. 14): 6-3; M19 borne off by the exact 6 and 21→24: the jan de retour
    is conserved (4). B's five other checkers are borne off. Must conserve leaves that play
    alone among the plays the movement allows."""
    pos = position({19: 3, 20: 2, 21: 3, 22: 2, 23: 2, 24: 3}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2},
                   (6, 3), off=(0, 5))
    assert score(pos) == (4, 0, {"conserve-jan-de-retour": ("mover", 4, 1)})
    assert finals(pos) == [({19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 4}, 1)]
    assert raw_plays(pos) > 1


X14_W = {12: 2, 19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}
X14_B = {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 2, 13: 2, 14: 1, 15: 1}


def test_x14_jan_de_retour_while_the_coin_has_not_passed() -> None:
    """X14 (LEP ch. V fig. 13): 6-1; the two coin checkers would have to leave together, but
    12+1 is B's coin; nothing may be borne off while the coin is outside the jan de retour; so
    only the 1 is played, 19→20: conserve par impuissance 4, and 2 to B."""
    pos = position(X14_W, X14_B, (6, 1))
    assert score(pos) == (4, 2, {"conserve-jan-de-retour": ("mover", 4, 1),
                                 "jan-qui-ne-peut": ("opponent", 2, 1)})
    assert finals(pos) == [({12: 2, 19: 2, 20: 3, 21: 2, 22: 2, 23: 2, 24: 2}, 0)]


def test_x14_doublet_moves_both_coin_checkers() -> None:
    """X14: with 6-6 both coin checkers go 12→18 together (B cannot fill his grand jan any
    more): conserve 6."""
    pos = position(X14_W, X14_B, (6, 6))
    assert score(pos) == (6, 0, {"conserve-jan-de-retour": ("mover", 6, 1)})
    assert finals(pos) == [({18: 2, 19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, 0)]


# -- X15-X16: battre le coin and ways of hitting --------------------------------------------------

@pytest.mark.parametrize("white, dice, points", [
    ({1: 11, 7: 1, 9: 1, 12: 2}, (6, 4), 4),
    ({1: 11, 9: 2, 12: 2}, (4, 4), 6),
    ({1: 11, 7: 1, 9: 1, 12: 2}, (6, 1), 0),     # the ace would need a third coin checker
    ({1: 10, 7: 1, 9: 1, 12: 3}, (6, 1), 4),
    ({1: 12, 12: 3}, (1, 1), 0),                 # 1-1 needs two spare coin checkers
    ({1: 11, 12: 4}, (1, 1), 6),
])
def test_x15_battre_le_coin_variants(white: dict[int, int], dice: tuple[int, int],
                                     points: int) -> None:
    """X15 (LEL n°45): only the coin checkers beyond the two that hold it may hit B's coin."""
    mover, opponent, items = score(position(white, {24: 15}, dice))
    assert (mover, opponent) == (points, 0)
    assert items == ({"battre-le-coin": ("mover", points, 1)} if points else {})


X16_W = {1: 2, 4: 1, 6: 1, 7: 3, 8: 2, 9: 2, 11: 2, 12: 2}
X16_B = {13: 2, 14: 2, 15: 1, 17: 2, 18: 2, 24: 6}


@pytest.mark.parametrize("dice, ways", [((4, 1), 1), ((3, 1), 2)])
def test_x16_hitting_one_and_two_ways(dice: tuple[int, int], ways: int) -> None:
    """X16 (LEL n°129-131, fig. 17): M15 hit by the 4 from M11 (4-1); by the 3 from the coin
    and the sum from M11 (3-1). The six B checkers not in the figure are on B's talon."""
    assert score(position(X16_W, X16_B, dice)) == (
        2 * ways, 0, {"true-hit-grand-jan": ("mover", 2 * ways, ways)})


def test_x16_hitting_three_ways_and_filling_d_emblee() -> None:
    """X16: 4-3 hits M15 three ways (the 3, the 4 and the sum from M8): 6; the same roll fills
    the grand jan d'emblée with 6→10 and 7→10 (two checkers short: one way), 4: total 10. The
    player must fill."""
    pos = position(X16_W, X16_B, (4, 3))
    assert score(pos) == (10, 0, {"true-hit-grand-jan": ("mover", 6, 3),
                                  "fill-grand-jan": ("mover", 4, 1)})
    for m, _off in finals(pos):
        assert all(m.get(p, 0) >= 2 for p in range(7, 13))
    assert raw_plays(pos) > len(finals(pos))
