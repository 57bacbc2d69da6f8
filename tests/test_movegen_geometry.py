"""The kernel primitives of the wider tables family on small built positions, each with the exact
set of end positions: routes in the same direction, pins, checkers waiting off the board,
per-move hooks and the hooks that a roll may waive. Positions are {pip: count} for each side in
the mover's pips, as in test_movegen_switches."""
from __future__ import annotations

from dataclasses import replace

import pytest

from interpreter.errors import PositionError
from interpreter.kernel.board import OPP_POOL, PINS, POOL, Board, Geometry, flip
from interpreter.kernel.movegen import PINNED, MoveGenerator, Step
from interpreter.kernel.rules import MoveRules

BG = MoveRules(checkers=15)
SAME = MoveRules(route="same", block=1, hit="none", enter="none")
PIN = MoveRules(hit="pin", enter="none")
POOLED = MoveRules(pool=True)


def pos(mine: dict[int, int] | None = None, theirs: dict[int, int] | None = None, *,
        layout: Geometry = Geometry(), bar: int = 0, opp_bar: int = 0, off: int = 0,
        opp_off: int = 0, pins: tuple[int, ...] = (), pool: int = 0, opp_pool: int = 0) -> Board:
    """A board from each side's checkers in the mover's pips; `pins`: pips holding a pinned
    checker under the checkers written there."""
    b = [0] * layout.size
    for p, n in (mine or {}).items():
        b[p] += n
    for p, n in (theirs or {}).items():
        assert b[p] == 0
        b[p] -= n
    b[0], b[25], b[26], b[27] = off, bar, opp_bar, opp_off
    for p in pins:
        b[PINS] |= 1 << p
    if layout.pool:
        b[POOL], b[OPP_POOL] = pool, opp_pool
    return tuple(b)


def check(rules: MoveRules, b: Board, d1: int, d2: int, expected: list[Board],
          unplayed: int | None = None, forbid: tuple = (), moves: tuple = ()) -> list:
    """The generator's plays and results are `expected`, each path replays to its board, and the
    generated plays() (where it serves the switches) agrees with the walk."""
    gen = MoveGenerator(rules, forbid, moves)
    plays, n = gen.plays(b, d1, d2)
    assert sorted(p.board for p in plays) == sorted(expected)
    assert sorted(gen.results(b, d1, d2)) == sorted(expected)
    walk = gen._walk_plays(b, d1, d2)
    assert sorted(p.board for p in walk[0]) == sorted(expected) and walk[1] == n
    if unplayed is not None:
        assert n == unplayed
    layout = rules.geometry
    for p in plays:
        assert layout.counts(p.board) == layout.counts(b)
        for path in p.paths:
            assert gen.apply(b, path) == p.board
    return plays


# -- routes --------------------------------------------------------------------------------------

def test_same_route_numbering_and_flip() -> None:
    lay = Geometry("same")
    # the opponent's start (his 24) is the mover's 12, his home board the mover's 13..18
    assert [lay.their_pip(q) for q in (24, 1, 6, 12, 13)] == [12, 13, 18, 24, 1]
    assert all(lay.their_pip(lay.their_pip(p)) == p for p in range(1, 25))
    b = lay.start_board({24: 15})
    assert b[24] == 15 and b[12] == -15 and len(b) == 28
    b = pos({24: 13, 18: 2}, {12: 14, 9: 1}, off=0, opp_off=0)
    f = lay.flip(b)
    # seen by the opponent: his head on his 24 (the mover's 12), the mover's head on his 12
    assert f[24] == 14 and f[21] == 1 and f[12] == -13 and f[6] == -2
    assert lay.flip(f) == b


def test_opposite_layout_flip_is_the_backgammon_flip() -> None:
    b = pos({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}, off=0, opp_off=0)
    assert Geometry().flip(b) == flip(b) and flip(flip(b)) == b


def test_same_route_moves_are_the_movers_own() -> None:
    # the opponent's head on 12 closes that point to the mover (one checker blocks)
    b = Geometry("same").start_board({24: 15})
    check(SAME, b, 6, 6, [pos({24: 11, 18: 4}, {12: 15})], unplayed=0)


def test_hit_to_the_start_follows_the_route() -> None:
    # same direction: the opponent's start is the mover's pip 12
    rules = MoveRules(route="same", hit="start", block=2, enter="none")
    b = pos({10: 1}, {7: 1, 12: 1}, off=14, opp_off=13)
    check(rules, b, 3, 1, [pos({6: 1}, {12: 2}, off=14, opp_off=13),
                           pos({6: 1}, {7: 1, 12: 1}, off=14, opp_off=13)])


# -- pins -----------------------------------------------------------------------------------------

G_PIN = Geometry(pins=True)


def test_landing_on_a_lone_checker_pins_it() -> None:
    b = pos({10: 1}, {7: 1, 1: 2}, layout=G_PIN, off=14, opp_off=12)
    plays = check(PIN, b, 3, 1, [pos({6: 1}, {7: 1, 1: 2}, layout=G_PIN, off=14, opp_off=12)])
    # 10/7 pins, then 7/6 releases: the blot is free again at the end of the turn (PL-A2)
    assert (Step(10, 7, 3, 1, PINNED), Step(7, 6, 1, 0, 0)) in plays[0].paths


def test_a_pin_stays_when_the_pinner_stops_there() -> None:
    b = pos({10: 1, 24: 1}, {7: 1, 1: 2}, layout=G_PIN, off=13, opp_off=12)
    plays = MoveGenerator(PIN).results(b, 3, 1)
    pinned = pos({7: 1, 23: 1}, {1: 2}, layout=G_PIN, off=13, opp_off=12, pins=(7,))
    assert pinned in plays
    assert G_PIN.to_json(pinned)["pins"] == {"mine": [], "theirs": [7]}


def test_a_pinned_checker_cannot_move_and_its_point_is_closed() -> None:
    # the mover's checker on 10 lies under one opposing checker: it cannot move, and 10 is
    # closed to the mover although only one opposing checker stands there (PL-A1)
    b = pos({15: 1}, {10: 1, 1: 13}, layout=G_PIN, off=13, opp_off=1, pins=(10,))
    check(PIN, b, 5, 3, [pos({7: 1}, {10: 1, 1: 13}, layout=G_PIN, off=13, opp_off=1,
                             pins=(10,))])


def test_two_free_checkers_close_a_point() -> None:
    b = pos({10: 1}, {7: 2}, layout=G_PIN, off=14, opp_off=13)
    check(PIN, b, 3, 3, [pos({10: 1}, {7: 2}, layout=G_PIN, off=14, opp_off=13)], unplayed=4)


def test_the_pinners_side_may_add_checkers() -> None:
    # 7 holds the mover's pinner over an opposing checker; 9/7 adds a second checker there
    b = pos({7: 1, 9: 1}, {1: 13}, layout=G_PIN, off=13, opp_off=1, pins=(7,))
    kw = dict(layout=G_PIN, off=13, opp_off=1)
    plays = check(PIN, b, 2, 1, [pos({7: 1, 6: 1}, {1: 13}, pins=(7,), **kw),
                                 pos({8: 1, 5: 1}, {7: 1, 1: 13}, **kw),
                                 pos({9: 1, 4: 1}, {7: 1, 1: 13}, **kw)])
    kept = next(p for p in plays if p.board[PINS])
    # the pin holds through 9/7 7/6, and is made again by 7/6 9/7 after 7/6 released it
    assert (Step(9, 7, 2, 0, 0), Step(7, 6, 1, 0, 0)) in kept.paths
    assert (Step(7, 6, 1, 0, 0), Step(9, 7, 2, 1, PINNED)) in kept.paths


def test_leaving_releases_the_pinned_checker() -> None:
    b = pos({7: 1}, {1: 13}, layout=G_PIN, off=14, opp_off=1, pins=(7,))
    check(PIN, b, 2, 1, [pos({4: 1}, {7: 1, 1: 13}, layout=G_PIN, off=14, opp_off=1)])


def test_no_bearing_off_with_a_pinned_checker_unless_allowed() -> None:
    # tables-family PL4: all home, one checker pinned on 2; no number moves inside
    b = pos({6: 2, 5: 2, 4: 2, 3: 2}, {2: 1, 1: 4, 19: 5, 20: 5}, layout=G_PIN, off=6,
            pins=(2,))
    check(PIN, b, 6, 5, [b], unplayed=2)
    check(replace(PIN, pinned_bear_off="allowed"), b, 6, 5,
          [pos({6: 1, 5: 1, 4: 2, 3: 2}, {2: 1, 1: 4, 19: 5, 20: 5}, layout=G_PIN, off=8,
               pins=(2,))])


def test_a_pinned_checker_outside_home_keeps_bearing_off_closed() -> None:
    b = pos({3: 13}, {8: 1, 24: 14}, layout=G_PIN, off=1, pins=(8,))
    allowed = replace(PIN, pinned_bear_off="allowed")
    check(allowed, b, 6, 5, [b], unplayed=2)


def test_pins_in_the_position_json() -> None:
    obj = {"points": [0] * 24, "bar": [0, 0], "off": [13, 13],
           "pins": {"mine": [5], "theirs": [9]}}
    obj["points"][4] = -1
    obj["points"][8] = 1
    b = G_PIN.from_json(obj, 15)
    assert G_PIN.pinned(b) == ([5], [9])
    assert G_PIN.to_json(b)["pins"] == {"mine": [5], "theirs": [9]}
    # turning the board maps a pin on pip p to pip 25 - p and swaps the sides (§3.5)
    assert G_PIN.pinned(G_PIN.flip(b)) == ([16], [20])
    bad = dict(obj, pins={"mine": [9]})
    with pytest.raises(PositionError, match="pip 9"):
        G_PIN.from_json(bad, 15)
    with pytest.raises(PositionError, match="no pinned checkers"):
        Geometry().from_json(obj, 15)


# -- checkers off the board ----------------------------------------------------------------------

G_POOL = Geometry(pool=True)


def test_unentered_checkers_enter_and_move_on() -> None:
    # AD1: all unentered, 6-3: enter with both, or enter with one and move on with the other
    b = pos(layout=G_POOL, pool=15, opp_pool=15)
    check(POOLED, b, 6, 3, [pos({19: 1, 22: 1}, layout=G_POOL, pool=13, opp_pool=15),
                            pos({16: 1}, layout=G_POOL, pool=14, opp_pool=15)])


def test_entered_checkers_wait_for_a_later_throw() -> None:
    b = pos(layout=G_POOL, pool=15, opp_pool=15)
    rules = replace(POOLED, unentered_move_on=False)
    check(rules, b, 6, 3, [pos({19: 1, 22: 1}, layout=G_POOL, pool=13, opp_pool=15)])


def test_all_enter_before_any_moves() -> None:
    b = pos({13: 1}, layout=G_POOL, pool=14, opp_pool=15)
    rules = replace(POOLED, unentered_first=True)
    check(rules, b, 6, 3, [pos({13: 1, 19: 1, 22: 1}, layout=G_POOL, pool=12, opp_pool=15)])
    free = MoveGenerator(POOLED).results(b, 6, 3)
    assert pos({4: 1}, layout=G_POOL, pool=14, opp_pool=15) in free


def test_bar_checkers_enter_before_unentered_ones() -> None:
    # AD4: the bar checker must come in first; 19 is closed, so the 4 enters on 21 and hits
    b = pos({13: 2, 8: 3}, {19: 2, 21: 1, 10: 1}, layout=G_POOL, bar=1, pool=9, opp_pool=11)
    hit = dict(layout=G_POOL, bar=0, opp_bar=1, pool=9, opp_pool=11)
    check(POOLED, b, 6, 4, [pos({15: 1, 13: 2, 8: 3}, {19: 2, 10: 1}, **hit),
                            pos({21: 1, 13: 1, 8: 3, 7: 1}, {19: 2, 10: 1}, **hit),
                            pos({21: 1, 13: 2, 8: 2, 2: 1}, {19: 2, 10: 1}, **hit)])


def test_hit_checkers_can_rejoin_the_unentered() -> None:
    b = pos({13: 1}, {10: 1}, layout=G_POOL, pool=14, opp_pool=14)
    rules = replace(POOLED, hit="unentered")
    res = MoveGenerator(rules).results(b, 3, 1)
    assert pos({9: 1}, layout=G_POOL, pool=14, opp_pool=15) in res


def test_no_bearing_off_while_checkers_are_unentered() -> None:
    # AD7: fourteen on pip 1, one unentered
    b = pos({1: 14}, layout=G_POOL, pool=1, opp_pool=15)
    check(POOLED, b, 6, 5, [pos({1: 14, 14: 1}, layout=G_POOL, pool=0, opp_pool=15)])


def test_unentered_checkers_in_the_position_json() -> None:
    obj = {"points": [0] * 24, "bar": [0, 0], "off": [0, 0]}
    obj["points"][21] = 1
    b = G_POOL.from_json(obj, 15)
    assert (b[POOL], b[OPP_POOL]) == (14, 15)
    assert G_POOL.to_json(b)["state"] == {"unentered": [14, 15]}
    assert G_POOL.from_json(dict(obj, state={"unentered": [14, 15]}), 15) == b
    with pytest.raises(PositionError, match="unentered"):
        G_POOL.from_json(dict(obj, state={"unentered": [15, 15]}), 15)
    f = G_POOL.flip(b)
    assert (f[POOL], f[OPP_POOL]) == (15, 14) and f[3] == -1


# -- hooks ------------------------------------------------------------------------------------------

def test_a_per_move_hook_sees_each_single_move() -> None:
    # no checker may leave pip 24 while another stands on 13..23 (a first-runner rule)
    def runner(before, after, path, d1, d2, rolls):
        st = path[-1]
        return st.src == 24 and any(before[p] > 0 for p in range(13, 24))

    b = pos({24: 14, 13: 1}, {12: 14, 20: 1})
    check(SAME, b, 2, 1, [pos({24: 14, 10: 1}, {12: 14, 20: 1}),
                          pos({24: 13, 23: 1, 11: 1}, {12: 14, 20: 1})], moves=(runner,))


def test_end_of_play_hooks_get_the_dice() -> None:
    seen = set()

    def no_two_from_24(before, after, path, d1, d2, rolls):
        seen.add((d1, d2, rolls))
        return sum(1 for st in path if st.src == 24) > 1

    b = pos({24: 3}, {1: 15})
    gen = MoveGenerator(BG, (no_two_from_24,))
    assert sorted(gen.results(b, 5, 5, 3)) == [pos({24: 2, 4: 1}, {1: 15})]
    assert (5, 5, 3) in seen


def _occupied_24(before, after, path, *_):
    """A test hook: the play may not end with a checker of the mover on pip 24."""
    return after[24] > 0


def test_a_waivable_hook_is_waived_when_nothing_satisfies_it() -> None:
    hook = lambda *a: _occupied_24(*a)  # noqa: E731
    hook.waive = "unavoidable"  # type: ignore[attr-defined]
    gen = MoveGenerator(BG, (hook,))
    # three checkers on 24 and 1-1: the rule can be kept, so it holds
    b = pos({24: 3}, {1: 15})
    kept = gen.results(b, 1, 1)
    assert kept and all(r[24] == 0 for r in kept)
    assert pos({23: 2, 22: 1}, {1: 15}) in kept
    # five on 24: no play (nor the empty one) empties it: waived, every normal play is legal
    b = pos({24: 5}, {1: 15})
    assert sorted(gen.results(b, 1, 1)) == sorted(MoveGenerator(BG).results(b, 1, 1))
    # not waivable: the turn is lost
    assert MoveGenerator(BG, (_occupied_24,)).results(b, 1, 1) == [b]


def test_waived_when_obeying_plays_fewer_numbers() -> None:
    # LN5: one checker may leave pip 24, or two when one cannot play the roll in full (the
    # when_needed reading), never three
    def two_leave(before, after, path, *_):
        return sum(1 for st in path if st.src == 24) > 1

    def three_leave(before, after, path, *_):
        return sum(1 for st in path if st.src == 24) > 2

    two_leave.waive = "fewer_numbers"  # type: ignore[attr-defined]
    b = pos({24: 15}, {12: 14, 9: 1})
    gen = MoveGenerator(SAME, (three_leave, two_leave))
    check(SAME, b, 5, 5, [pos({24: 13, 14: 2}, {12: 14, 9: 1})], unplayed=0,
          forbid=(three_leave, two_leave))
    del two_leave.waive  # type: ignore[attr-defined]
    check(SAME, b, 5, 5, [pos({24: 14, 14: 1}, {12: 14, 9: 1})], unplayed=2,
          forbid=(three_leave, two_leave))
    # a roll one checker plays in full: not waived
    assert gen.results(b, 2, 2) == [pos({24: 14, 16: 1}, {12: 14, 9: 1})]


# -- the generated plays() against the walk ------------------------------------------------------

def _runner(before, after, path, d1, d2, rolls):
    st = path[-1]
    return st.src == 24 and not any(before[p] > 0 for p in range(1, 12)) and \
        any(before[p] > 0 for p in range(12, 24))


GEOMETRIES = [
    (SAME, (), {24: 15}, 0),
    (SAME, (_runner,), {24: 15}, 0),
    (replace(SAME, block=2, hit="start"), (), {24: 15}, 0),
    (PIN, (), {24: 15}, 0),
    (replace(PIN, pinned_bear_off="allowed"), (), {24: 15}, 0),
    (replace(PIN, route="same"), (), {24: 15}, 0),
    (POOLED, (), {}, 15),
    (replace(POOLED, unentered_first=True), (), {}, 15),
    (replace(POOLED, hit="unentered"), (), {}, 15),
    (replace(POOLED, enter_first=False), (), {13: 5}, 10),
]


@pytest.mark.parametrize("rules,moves,start,unentered", GEOMETRIES,
                         ids=[f"g{i}" for i in range(len(GEOMETRIES))])
def test_generated_plays_equal_the_walk(rules: MoveRules, moves: tuple, start: dict,
                                        unentered: int) -> None:
    import random

    gen = MoveGenerator(rules, (), moves)
    assert gen.plays is gen._fast_plays
    layout = rules.geometry
    first = layout.start_board(start, unentered)
    rng = random.Random(5)
    b = first
    for _ in range(400):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        fast = gen.plays(b, d1, d2)
        walk = gen._walk_plays(b, d1, d2)
        assert fast == walk, (b, d1, d2)
        for p in fast[0]:
            assert layout.counts(p.board) == layout.counts(b)
        b = rng.choice(fast[0]).board
        b = first if b[0] == 15 else layout.flip(b)
