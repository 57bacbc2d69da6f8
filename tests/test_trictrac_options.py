"""The house-rule options of rules/trictrac.md §8 (T-A1 ... T-A23) in the Dutch Triktrak.

Every DEFAULT is what the shipped files do, and every alternative is reachable under the key the
spec gives, through `--set` (`load_variant(ref, overrides)`) or a small `extends` file of
tests/data/trictrac/; each is tried on a constructed position, or a short sequence of markings,
where the choice changes the outcome.

Positions are written as in rules/trictrac.md §7: W (the mover) and B as {M: count}, with
pip = 25 - M in the position JSON.
"""
from __future__ import annotations

import random
import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args

import pytest

from interpreter.analysis import legal_results, roll_score
from interpreter.engine.game import BLACK, WHITE, Game, opening_roll
from interpreter.errors import PositionError, VariantError
from interpreter.kernel.board import from_json
from interpreter.kernel.movegen import SURPLUS, MoveGenerator
from interpreter.kernel.rules import MoveRules
from interpreter.players.bots import RandomBot
from interpreter.scoring.holes import Holes, HolesLadder
from interpreter.variant.build import load_variant
from interpreter.variant.schema import Dice, Movement

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "trictrac"
W, B = 0, 1


def position(white: dict[int, int], black: dict[int, int], dice: tuple[int, int], *,
             rolls: int = 1, off: tuple[int, int] = (0, 0), **extra: Any) -> dict[str, Any]:
    points = [0] * 24
    for m, n in white.items():
        points[24 - m] += n
    for m, n in black.items():
        assert points[24 - m] == 0
        points[24 - m] -= n
    return {"points": points, "bar": [0, 0], "off": list(off), "dice": list(dice),
            "rolls": rolls, **extra}


def in_m(result: dict[str, Any]) -> tuple[dict[int, int], int]:
    return {25 - pip: n for pip, n in enumerate(result["points"], 1) if n > 0}, result["off"][0]


_CACHE: dict[tuple[str, ...], Any] = {}


def variant(*overrides: str, ref: str = "triktrak") -> Any:
    key = (ref, *overrides)
    if key not in _CACHE:
        _CACHE[key] = load_variant(ref, list(overrides))
    return _CACHE[key]


def points(v: Any, pos: dict[str, Any]) -> tuple[int, int]:
    out = roll_score(v, pos)
    return out["mover"], out["opponent"]


def rules_fired(v: Any, pos: dict[str, Any]) -> dict[str, tuple[str, int]]:
    return {i["rule"]: (i["to"], i["points"]) for i in roll_score(v, pos)["items"]}


def finals(v: Any, pos: dict[str, Any]) -> list[tuple[dict[int, int], int]]:
    return [in_m(r) for r in legal_results(v, pos)["results"]]


# -- the defaults are what the shipped files say ----------------------------------------------

def test_defaults_of_the_shipped_triktrak() -> None:
    """§8 DEFAULTs, and T-A9 where the Dutch Triktrak differs (rules/README.md)."""
    v = variant()
    m = v.model
    assert (m.movement.exact_exit, m.movement.excedant_filter, m.movement.coin_swap,
            m.movement.puissance_needs, m.movement.retour_conserve_exit) == (
        "optional", "fewest", "allow", "both_coins_empty", "farthest_checker")
    assert m.options == {"sum_rest_closed_by": "two_or_more", "two_missing_fill_ways": "one",
                         "opponent_jan_fillable": "count_only",
                         "sortie_obligation": "compulsory", "opening_jans": "every_releve",
                         "pile_de_misere": "off", "schools": "off"}
    ladder = v.ladder
    assert (ladder.second_marker_bredouille, ladder.sortie_bredouille, ladder.last_hole,
            ladder.match_lurch, ladder.holes_to_win, ladder.points_per_hole) == (
        "allowed", "keep", "any_roll", "off", 12, 12)
    assert m.dice.opening_roll == "winner_throws_two" and v.opening == "winner_throws_two"
    # the base file keeps Malfilâtre's opening (T-A9 DEFAULT)
    base = tomllib.loads((ROOT / "variants" / "trictrac.toml").read_text(encoding="utf-8"))
    assert base["turn"]["opening_roll"] == "one_die_each"


@pytest.mark.parametrize("key, choices", [
    ("sum_rest_closed_by", ["two_or_more", "one_or_more"]),               # T-A11
    ("two_missing_fill_ways", ["one", "per_combination"]),                 # T-A3
    ("opponent_jan_fillable", ["count_only", "no_intruder"]),              # T-A12
    ("sortie_obligation", ["compulsory", "optional"]),                     # T-A13
    ("opening_jans", ["every_releve", "game_start_only"]),                 # T-A10
    ("pile_de_misere", ["off", "on"]),                                     # T-A7
    ("schools", ["off", "on"]),                                            # §5.7, off for a computer
])
def test_option_choices_are_the_spec_s(key: str, choices: list[str]) -> None:
    assert variant().model.option_choices[key] == choices


@pytest.mark.parametrize("model, key, choices", [
    (Movement, "exact_exit", ("optional", "compulsory")),                  # T-A8
    (Movement, "excedant_filter", ("none", "fewest", "zero_if_possible")),  # T-A5
    (Movement, "coin_swap", ("allow", "forbid")),                          # T-A14
    (Movement, "puissance_needs", ("off", "both_coins_empty", "own_coin_empty")),   # T-A22
    (Movement, "retour_conserve_exit", ("farthest_checker", "farthest_surplus_point")),  # T-A4
    (Dice, "opening_roll", ("one_die_each", "nearer_high_die", "winner_throws_two")),   # T-A9
    (HolesLadder, "second_marker_bredouille", ("allowed", "never")),       # T-A1
    (HolesLadder, "sortie_bredouille", ("keep", "reset")),                 # T-A2
    (HolesLadder, "last_hole", ("any_roll", "own_roll")),                  # T-A23
    (HolesLadder, "match_lurch", ("off", "grande_bredouille", "mal_xx", "honours")),  # T-A18
])
def test_switch_choices_are_the_spec_s(model: Any, key: str, choices: tuple[str, ...]) -> None:
    assert get_args(model.model_fields[key].annotation) == choices


def test_a_choice_the_spec_does_not_name_is_an_error() -> None:
    with pytest.raises(VariantError):
        load_variant("triktrak", ['movement.retour_conserve_exit="nearest"'])
    with pytest.raises(VariantError):
        load_variant("triktrak", ['options.opening_jans="never"'])


# -- [movement] --------------------------------------------------------------------------------

B_HOME = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}   # B's checkers in his jan de retour, five more borne off


def test_t_a4_retour_conserve_exit() -> None:
    """T-A4, MMAI's test case: W {19:3, 20:2, 21:2, 22:3, 23:2, 24:3}, 4-5. By default an
    excédant number bears off only the farthest checker, so no play keeps the jan de retour
    full and nothing is scored. With "farthest_surplus_point", after 19→24 (the 5) the 4 bears
    off a checker of M22, the farthest point holding more than two (the 4 is a higher number than
    M22 needs, although M21 could take it exactly): the jan is conserved, 4 points, and must be.
    """
    pos = position({19: 3, 20: 2, 21: 2, 22: 3, 23: 2, 24: 3}, B_HOME, (4, 5), off=(0, 5))
    default = variant()
    assert points(default, pos) == (0, 0)
    assert not any(all(m.get(p, 0) >= 2 for p in range(19, 25)) for m, _ in finals(default, pos))

    for v in (variant('movement.retour_conserve_exit="farthest_surplus_point"'),
              variant(ref=str(DATA / "mmai.toml"))):
        assert rules_fired(v, pos) == {"conserve-jan-de-retour": ("mover", 4)}
        plays = finals(v, pos)
        assert ({19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 4}, 1) in plays     # 19→24, 22→off
        assert all(all(m.get(p, 0) >= 2 for p in range(19, 25)) for m, _ in plays)
        # the bear-off is flagged as the full jan's privilege
        b = from_json(pos, v.checkers)
        steps = [st for play in v.generator.plays(b, 4, 5)[0] for path in play.paths
                 for st in path if st.dst == 0 and st.flags & SURPLUS]
        assert steps and all(st.src == 3 and st.die > 3 for st in steps)


def test_t_a4_privilege_only_while_the_jan_de_retour_is_full() -> None:
    """Short of one checker (M19 holds one), the option changes nothing."""
    pos = position({19: 1, 20: 2, 21: 2, 22: 3, 23: 3, 24: 4}, B_HOME, (4, 5), off=(0, 5))
    on = variant('movement.retour_conserve_exit="farthest_surplus_point"')
    assert finals(on, pos) == finals(variant(), pos)
    assert points(on, pos) == points(variant(), pos)


def test_t_a4_switch_in_the_kernel() -> None:
    """The switch itself, on a bare generator: full home board {6:3, 5:2, 4:2, 3:3, 2:2, 1:3}
    (pips), 5-4: only the surplus rule lets the 4 bear off from pip 3."""
    b = [0] * 28
    for pip, n in {6: 3, 5: 2, 4: 2, 3: 3, 2: 2, 1: 3}.items():
        b[pip] = n
    b[27] = 15
    board = tuple(b)
    base = MoveRules(doublet_moves=2, block=1, hit="none", enter="none", own_corner=13,
                     opp_corner=12, excedant_filter="fewest")
    plain = {p.board for p in MoveGenerator(base).plays(board, 5, 4)[0]}
    surplus = {p.board for p in MoveGenerator(
        replace(base, retour_conserve_exit="farthest_surplus_point")).plays(board, 5, 4)[0]}
    kept = tuple([1, 4, 2, 2, 2, 2, 2] + [0] * 20 + [15])   # 6→1 with the 5, 3→off with the 4
    assert kept in surplus and kept not in plain
    assert plain < surplus


def test_t_a5_excedant_filter() -> None:
    """T-A5: W {21:1, 23:1}, 5-3. "fewest": the 3 must be played inside (21→24) and the 5 bears
    off M23: one checker is left, no sortie. "zero_if_possible" (MMAI): no play is free of
    excédants, so both may go off, and the sortie is then possible (4) and compulsory."""
    pos = position({21: 1, 23: 1}, B_HOME, (5, 3), off=(13, 5))
    assert finals(variant(), pos) == [({24: 1}, 14)]
    assert points(variant(), pos) == (0, 0)
    v = variant('movement.excedant_filter="zero_if_possible"')
    assert finals(v, pos) == [({}, 15)]
    assert rules_fired(v, pos) == {"sortie": ("mover", 4)}


def test_t_a8_exact_exit() -> None:
    """T-A8: W {20:1, 22:1}, 3-1. "optional": the 3, exact for M22, may instead be played inside
    (20→23, then 23→24). "compulsory": a number that can bear a checker off exactly must."""
    pos = position({20: 1, 22: 1}, B_HOME, (3, 1), off=(13, 5))
    optional = finals(variant(), pos)
    compulsory = finals(variant('movement.exact_exit="compulsory"'), pos)
    assert ({22: 1, 24: 1}, 13) in optional and ({22: 1, 24: 1}, 13) not in compulsory
    assert set(map(repr, compulsory)) < set(map(repr, optional))


def test_t_a14_coin_swap() -> None:
    """T-A14: W {1:12, 10:1, 12:2}, 3-2. With "allow", one of the two coin checkers may leave
    (12→15 with the 3) while the checker of M10 arrives (10→12 with the 2): the coin keeps two.
    With "forbid" that sequence is refused. The end position is the same either way, since the
    arriving checker may itself go on through the coin (10→12→15, a tout d'une): the option
    decides which move sequences are accepted, never which positions a roll can reach."""
    pos = position({1: 12, 10: 1, 12: 2}, {3: 2, 4: 2, 5: 2}, (3, 2), off=(0, 9))
    swap = ((13, 10, 3), (15, 13, 2))            # pips: M12→M15, then M10→M12
    through = ((15, 13, 2), (13, 10, 3))         # M10→M12→M15

    def sequences(v: Any) -> set:
        b = from_json(pos, v.checkers)
        return {tuple((st.src, st.dst, st.die) for st in path)
                for play in v.generator.plays(b, 3, 2)[0] for path in play.paths}

    forbid = variant('movement.coin_swap="forbid"')
    assert {swap, through} <= sequences(variant())
    assert through in sequences(forbid) and swap not in sequences(forbid)
    assert finals(forbid, pos) == finals(variant(), pos)
    assert ({1: 12, 12: 2, 15: 1}, 0) in finals(forbid, pos)


def test_t_a22_puissance_needs() -> None:
    """T-A22: W {1:13, 8:1, 9:1}, 5-4, B holding his coin. 8+5 and 9+4 reach B's coin: with
    "both_coins_empty" no puissance; with "own_coin_empty" the two go to W's coin instead. With
    both coins empty, both settings take it."""
    held = position({1: 13, 8: 1, 9: 1}, {13: 2, 24: 13}, (5, 4))
    taken = ({1: 13, 12: 2}, 0)
    assert taken not in finals(variant(), held)
    assert taken in finals(variant('movement.puissance_needs="own_coin_empty"'), held)
    empty = position({1: 13, 8: 1, 9: 1}, {24: 15}, (5, 4))
    assert taken in finals(variant(), empty)
    assert taken in finals(variant('movement.puissance_needs="own_coin_empty"'), empty)


# -- [dice] opening_roll (T-A9) ------------------------------------------------------------------

def _openings(mode: str, n: int = 6000) -> list[tuple[int, int, int]]:
    rng = random.Random(f"opening:{mode}")
    return [opening_roll(rng, mode)[:3] for _ in range(n)]


def test_t_a9_one_die_each() -> None:
    """MAL: each throws one die, the higher plays both numbers: never a doublet, and every one
    of the 15 pairs about equally often; each player starts about half the time."""
    rolls = _openings("one_die_each")
    assert all(d1 > d2 for _p, d1, d2 in rolls)
    pairs = Counter((d1, d2) for _p, d1, d2 in rolls)
    assert len(pairs) == 15 and min(pairs.values()) > 0.6 * len(rolls) / 15
    assert 0.45 < sum(p == WHITE for p, _a, _b in rolls) / len(rolls) < 0.55


def test_t_a9_winner_throws_two() -> None:
    """NL (the Dutch Triktrak): the higher single die wins and throws two fresh dice, so the
    opening may be a doublet (about one in six)."""
    rolls = _openings("winner_throws_two")
    doublets = sum(d1 == d2 for _p, d1, d2 in rolls) / len(rolls)
    assert 0.13 < doublets < 0.20
    assert len(Counter((d1, d2) for _p, d1, d2 in rolls)) == 36
    assert {p for p, _a, _b in rolls} == {WHITE, BLACK}


def test_t_a9_nearer_high_die() -> None:
    """LEL, GUI, LEP: one throw of both dice, played by whoever is nearer the higher die: never
    a doublet, either player."""
    rolls = _openings("nearer_high_die")
    assert all(d1 > d2 for _p, d1, d2 in rolls)
    assert 0.45 < sum(p == WHITE for p, _a, _b in rolls) / len(rolls) < 0.55


def test_t_a9_the_game_uses_the_variant_s_opening() -> None:
    def doublets(v: Any) -> int:
        n = 0
        for seed in range(300):
            game = Game(v, seed)
            d1, d2 = game._opening()
            n += d1 == d2
        return n

    assert doublets(variant()) > 20                     # winner_throws_two
    assert doublets(variant('dice.opening_roll="one_die_each"')) == 0
    assert doublets(variant('dice.opening_roll="nearer_high_die"')) == 0


# -- [options] ---------------------------------------------------------------------------------

def test_t_a11_sum_rest_closed_by() -> None:
    """T-A11: W's coin and 3-2; B's blot on M17 is reached only by the sum, both rests (M14,
    M15) holding a single B checker, each hit directly in its own right. "two_or_more": the
    rests are open, M17 is hit truly (3 ways in all, 6). "one_or_more": M17 is a false hit,
    2 to B."""
    pos = position({1: 13, 12: 2}, {14: 1, 15: 1, 17: 1, 24: 12}, (3, 2))
    assert rules_fired(variant(), pos) == {"true-hit-grand-jan": ("mover", 6)}
    v = variant('options.sum_rest_closed_by="one_or_more"')
    assert rules_fired(v, pos) == {"true-hit-grand-jan": ("mover", 4),
                                   "false-hit-grand-jan": ("opponent", 2)}


def test_t_a3_two_missing_fill_ways() -> None:
    """T-A3: the petit jan two checkers short (M6 empty), 2-1 fills it d'emblée with 4→6 and
    5→6: one way (4) by default; "per_combination" counts each filling sequence, here the two
    orders: 8."""
    pos = position({1: 5, 2: 2, 3: 2, 4: 3, 5: 3}, {24: 15}, (2, 1))
    assert rules_fired(variant(), pos) == {"fill-petit-jan": ("mover", 4)}
    for v in (variant('options.two_missing_fill_ways="per_combination"'),
              variant(ref=str(DATA / "mmai.toml"))):
        assert rules_fired(v, pos) == {"fill-petit-jan": ("mover", 8)}


def test_t_a12_opponent_jan_fillable() -> None:
    """T-A12: W already has a checker on M16, in B's grand jan, which B (15 on his talon) can
    still fill by count. "count_only": no W checker may be placed there; "no_intruder": the
    intruder makes it unfillable, so 11→14 and 16→17 become legal."""
    pos = position({1: 11, 11: 1, 12: 2, 16: 1}, {24: 15}, (3, 1))

    def in_their_grand_jan(plays: list) -> set[tuple[int, int]]:
        return {(p, m[p]) for m, _off in plays for p in range(13, 19) if p in m} - {(16, 1)}

    assert in_their_grand_jan(finals(variant(), pos)) == set()
    got = in_their_grand_jan(finals(variant('options.opponent_jan_fillable="no_intruder"'), pos))
    assert {(14, 1), (17, 1)} <= got


def test_t_a13_sortie_obligation() -> None:
    """T-A13: W {21:1, 23:1}, 4-3. Both can go off (21→off by 4 exact, then 23→off by the 3,
    now the farthest); 21→24 and one excédant leave one. "compulsory": the sortie must be
    played, and its 4 points are marked before moving. "optional": either play, and the sortie
    scores only when it is played, so the points depend on the play (`score` needs "result")."""
    pos = position({21: 1, 23: 1}, B_HOME, (4, 3), off=(13, 5))
    assert finals(variant(), pos) == [({}, 15)]
    assert rules_fired(variant(), pos) == {"sortie": ("mover", 4)}
    v = variant('options.sortie_obligation="optional"')
    assert finals(v, pos) == [({}, 15), ({24: 1}, 14)]
    with pytest.raises(PositionError):
        rules_fired(v, pos)
    results = legal_results(v, pos)["results"]
    scores = {in_m(r)[1]: r["score"]["mover"] for r in results}
    assert scores == {15: 4, 14: 0}
    all_off = next(r for r in results if in_m(r)[1] == 15)
    assert rules_fired(v, {**pos, "result": all_off}) == {"sortie-played": ("mover", 4)}


X1_WHITE = {1: 11, 2: 1, 3: 1, 4: 1, 5: 1}


def test_setup_is_read_from_the_position_state() -> None:
    """`"state": {"setup": n}` (how many times the men have been set up in the game) reaches
    the rules; a bad value is refused."""
    pos = position(X1_WHITE, {24: 13, 18: 2}, (6, 5), rolls=3, state={"setup": 2})
    v = variant('options.opening_jans="game_start_only"')
    assert points(v, pos) == (0, 0)
    assert points(v, {**pos, "state": {}}) == (4, 0)
    for bad in (0, "2", True):
        with pytest.raises(PositionError):
            roll_score(v, {**pos, "state": {"setup": bad}})


@pytest.mark.parametrize("white, black, dice, rolls, rule", [
    (X1_WHITE, {24: 13, 18: 2}, (6, 5), 3, "jan-de-six-tables"),
    ({1: 13, 8: 1, 10: 1}, {24: 11, 23: 1, 22: 2, 21: 1}, (4, 3), 2, "jan-de-deux-tables"),
    ({1: 13, 12: 2}, {24: 13, 14: 2}, (6, 1), 2, "jan-de-mezeas"),
])
def test_t_a10_opening_jans(white: dict, black: dict, dice: tuple[int, int], rolls: int,
                            rule: str) -> None:
    """T-A10: after a relevé (setup 2), "every_releve" still scores the opening jans;
    "game_start_only" only in the first set-up of the game."""
    later = position(white, black, dice, rolls=rolls, state={"setup": 2})
    first = position(white, black, dice, rolls=rolls, state={"setup": 1})
    only_start = variant('options.opening_jans="game_start_only"')
    assert rule in rules_fired(variant(), later)
    assert rule in rules_fired(variant(), first)
    assert rule in rules_fired(only_start, first)
    assert rule not in rules_fired(only_start, later)


def test_t_a7_pile_de_misere() -> None:
    """T-A7: all fifteen checkers forced onto the coin, none passed to the return: 4/6 when
    made and each time kept, with "on"; nothing by default."""
    blocked = {13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 24: 3}
    made = position({10: 1, 11: 1, 12: 13}, blocked, (2, 1))
    kept = position({12: 15}, blocked, (2, 1))
    on = variant('options.pile_de_misere="on"')
    assert points(variant(), made) == (0, 0)
    assert rules_fired(on, made) == {"pile-de-misere": ("mover", 4)}
    assert finals(on, made) == [({12: 15}, 0)]
    assert points(variant(), kept) == (0, 4)            # jan qui ne peut: both numbers
    assert rules_fired(on, kept) == {"pile-de-misere": ("mover", 4),
                                     "jan-qui-ne-peut": ("opponent", 4)}
    assert rules_fired(on, {**kept, "dice": [3, 3]})["pile-de-misere"] == ("mover", 6)


def test_a_jan_s_value_changed_by_an_extends_file() -> None:
    """tests/data/trictrac/six-tables-worth-6.toml makes the jan de six tables worth 6."""
    pos = position(X1_WHITE, {24: 13, 18: 2}, (6, 5), rolls=3)
    assert points(variant(), pos) == (4, 0)
    house = variant(ref=str(DATA / "six-tables-worth-6.toml"))
    assert house.id == "triktrak-six-tables-6"
    assert rules_fired(house, pos) == {"jan-de-six-tables": ("mover", 6)}
    assert points(variant("rules.jan-de-six-tables.simple=6"), pos) == (6, 0)


def test_the_mmai_file_sets_every_mmai_alternative() -> None:
    v = variant(ref=str(DATA / "mmai.toml"))
    assert (v.move_rules.retour_conserve_exit, v.move_rules.excedant_filter) == (
        "farthest_surplus_point", "zero_if_possible")
    assert v.model.options["two_missing_fill_ways"] == "per_combination"
    assert (v.ladder.second_marker_bredouille, v.ladder.sortie_bredouille) == ("never", "reset")
    assert v.ladder.holes_to_win == 12 and v.opening == "winner_throws_two"


# -- [ladder] -----------------------------------------------------------------------------------

def ladder(*overrides: str) -> Holes:
    return Holes(variant(*overrides).ladder)


def test_t_a1_second_marker_bredouille() -> None:
    """T-A1: W marks 4, then B 12 on his own roll. The treatises: B, the second marker, is in
    bredouille and wins 2 holes. "never" (MMAI): only the first marker can, so 1 hole."""
    for overrides, holes in (((), 2), (('ladder.second_marker_bredouille="never"',), 1)):
        h = ladder(*overrides)
        h.mark(W, 4, own_roll=True)
        assert h.mark(B, 12, own_roll=True) == (holes, True)


def test_t_a2_sortie_bredouille() -> None:
    """T-A2: W 4, B 2 (W loses his bredouille), the men are reset after a sortie, W 8: "keep"
    gives a single hole, "reset" (MMAI) a double."""
    for overrides, holes in (((), 1), (('ladder.sortie_bredouille="reset"',), 2)):
        h = ladder(*overrides)
        h.mark(W, 4, own_roll=True)
        h.mark(B, 2, own_roll=False)
        h.reset_men()
        assert h.points == [4, 2]
        assert h.mark(W, 8, own_roll=True)[0] == holes


def test_t_a23_last_hole() -> None:
    """T-A23: W at 11 holes reaches his twelfth with points from B's roll (B's false hit).
    "any_roll": the game is over. "own_roll": it is not, until W wins a hole on his own roll."""
    def eleven(*overrides: str) -> Holes:
        h = ladder(*overrides)
        for _ in range(5):
            h.mark(W, 12, own_roll=True)          # 5 double holes
        h.mark(W, 2, own_roll=True)
        h.mark(B, 2, own_roll=True)               # interrupts W's series
        h.mark(W, 10, own_roll=True)              # so a single hole
        assert h.holes == [11, 0]
        return h

    h = eleven()
    h.mark(W, 12, own_roll=False)
    assert h.finished and h.winner == W
    h = eleven('ladder.last_hole="own_roll"')
    h.mark(W, 12, own_roll=False)
    assert not h.finished and h.holes[W] >= 12
    h.mark(W, 12, own_roll=True)
    assert h.finished and h.winner == W


@pytest.mark.parametrize("lurch, straight, after_b, interrupted", [
    ("off", 1, 1, 1),
    ("grande_bredouille", 2, 2, 1),
    ("mal_xx", 4, 3, 2),
    ("honours", 4, 3, 2),
])
def test_t_a18_match_lurch(lurch: str, straight: int, after_b: int, interrupted: int) -> None:
    """T-A18 / match-scoring §6.2: the stake multiplier of a won game. W wins 12 holes in a row
    with B at 0 (straight); W wins 12 in a row after B's 2 (after_b); W 6, B 2, W 6
    (interrupted, B below 6)."""
    key = f'ladder.match_lurch="{lurch}"'

    def run(marks: list[int]) -> Holes:
        h = ladder(key)
        for player in marks:
            h.mark(player, 12, own_roll=True)     # 12 uninterrupted points: a double hole
        assert h.finished and h.winner == W
        return h

    assert run([W] * 6).multiplier() == straight
    assert run([B] + [W] * 6).multiplier() == after_b
    assert run([W] * 3 + [B] + [W] * 3).multiplier() == interrupted
