"""Gul bara, Tapa and Jacquet against a plain second implementation of their rules
(tests/reference_tables2.py, written from tables-family-2.md alone): the same distinct results
and the same "next" through `tablier moves` (`analysis.legal_results`) on positions of random
play, and the document's worked examples (§9) by name; whole games through the turn loop (the
progression stage by stage, the numbers passed to the opponent, the Tapa deadlock)."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from budget import scaled
from interpreter.analysis import legal_results
from interpreter.engine.events import Passed, Played, Thrown
from interpreter.engine.game import Game
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant
from reference_tables import Pos, json_key, opp_pip_same
from reference_tables2 import (gul_bara, gul_bara_given, gul_bara_left, gul_bara_passed,
                              gul_bara_throw, jacquet, tapa, tapa_deadlock)

_VARIANTS: dict[tuple, Any] = {}


def variant(name: str, *sets: str) -> Any:
    if (name, sets) not in _VARIANTS:
        _VARIANTS[name, sets] = load_variant(name, list(sets))
    return _VARIANTS[name, sets]


def positions(v: Any, seed: int, count: int) -> Iterator[dict]:
    """Positions (JSON, with dice and a throw number) met in random games of `v`."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        b = v.start_of(rng.randrange(2))
        for _turn in range(300):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if rng.random() < 0.2:
                d2 = d1
            obj = v.geometry.to_json(b)
            obj["dice"] = [d1, d2]
            obj["rolls"] = rng.choice([1, 2, 3, 4, 7])
            yield obj
            made += 1
            plays, _ = v.generator.plays(b, d1, d2, obj["rolls"])
            b = rng.choice(plays).board
            if v.rules.game_over(b) is not None or made >= count:
                break
            b = v.flip(b)


def results_of(v: Any, obj: dict) -> tuple[set, dict]:
    out = legal_results(v, obj)
    mine = {json_key(r) for r in out["results"]}
    assert len(mine) == out["count"]
    return mine, out


def W(w: dict, b: dict, **kw: Any) -> Pos:
    return Pos.of(w, b, **kw)


def as_json(p: Pos, d1: int, d2: int, rolls: int = 1) -> dict:
    obj = {"points": [p.w[q] - p.b[q] for q in range(1, 25)], "bar": [0, 0],
           "off": [p.w_off, p.b_off], "dice": [d1, d2], "rolls": rolls}
    if p.w_pinned or p.b_pinned:
        obj["pins"] = {"mine": sorted(p.w_pinned), "theirs": sorted(p.b_pinned)}
    return obj


def keys(ps: set) -> set:
    return {p.key() for p in ps}


# -- random positions ----------------------------------------------------------------------------

@pytest.mark.parametrize("start", [3, 1, 4])
def test_gul_bara_random_play_agrees(start: int) -> None:
    v = variant("gul-bara", f"gb_progression_from={start}")
    for obj in positions(v, 11 + start, 250):
        mine, out = results_of(v, obj)
        got, follows = gul_bara(Pos.from_json(obj), *obj["dice"], rolls=obj["rolls"],
                                start=start)
        assert mine == keys(got), obj
        assert out["next"] == follows, obj


@pytest.mark.parametrize("sets", [(), ("pl_bear_off_pinned=\"forbidden\"",)])
def test_tapa_random_play_agrees(sets: tuple) -> None:
    v = variant("tapa", *sets)
    pinned = "forbidden" if sets else "allowed"
    for obj in positions(v, 5, scaled(300, 60)):
        mine, _ = results_of(v, obj)
        assert mine == keys(tapa(Pos.from_json(obj), *obj["dice"], pinned)[0]), obj


@pytest.mark.parametrize("goal", ["last_quarter", "opponent_start_quarter"])
def test_jacquet_random_play_agrees(goal: str) -> None:
    v = variant("jacquet", f"courier_goal=\"{goal}\"")
    for obj in positions(v, 9, scaled(300, 60)):
        mine, _ = results_of(v, obj)
        assert mine == keys(jacquet(Pos.from_json(obj), *obj["dice"], goal)[0]), obj


@pytest.mark.slow
@pytest.mark.parametrize("name,ref", [("gul-bara", None), ("tapa", tapa), ("jacquet", jacquet)])
def test_many_random_positions_agree(name: str, ref: Any) -> None:
    v = variant(name)
    for obj in positions(v, 101, 3000):
        mine, out = results_of(v, obj)
        if ref is None:
            got, follows = gul_bara(Pos.from_json(obj), *obj["dice"], rolls=obj["rolls"])
            assert out["next"] == follows, obj
        else:
            got = ref(Pos.from_json(obj), *obj["dice"])[0]
        assert mine == keys(got), obj


# -- the worked examples (tables-family-2.md §9) ------------------------------------------------------

def check(name: str, p: Pos, d1: int, d2: int, expected: list[dict], rolls: int = 1,
          *sets: str, reference: Any = None) -> dict:
    v = variant(name, *sets)
    mine, out = results_of(v, as_json(p, d1, d2, rolls))
    want = {W(w, {k: n for k, n in enumerate(p.b) if n}, w_off=off, b_pinned=bp,
              w_pinned=wp).key() for w, off, bp, wp in expected}
    assert mine == want
    if reference is not None:
        assert keys(reference(p, d1, d2)) == want
    return out


START_SAME = W({24: 15}, {12: 15})


def test_GB1_opening_6_5() -> None:
    exp = [({24: 13, 19: 1, 18: 1}, 0, frozenset(), frozenset()),
           ({24: 14, 13: 1}, 0, frozenset(), frozenset())]
    check("gul-bara", START_SAME, 6, 5, exp,
          reference=lambda p, a, b: gul_bara(p, a, b)[0])


def test_GB2_opening_5_5_several_men_leave_the_start() -> None:
    exp = [({24: 11, 19: 4}, 0), ({24: 12, 19: 2, 14: 1}, 0), ({24: 13, 14: 2}, 0),
           ({24: 13, 19: 1, 9: 1}, 0), ({24: 14, 4: 1}, 0)]
    out = check("gul-bara", START_SAME, 5, 5, [(w, o, frozenset(), frozenset()) for w, o in exp])
    assert out["next"] == "end"


def test_GB3_opening_6_6_blocked_by_the_opponent_start() -> None:
    check("gul-bara", START_SAME, 6, 6, [({24: 11, 18: 4}, 0, frozenset(), frozenset())])


def test_GB4_progression_bears_off_from_the_third_throw() -> None:
    p = W({6: 1, 5: 1}, {20: 5, 13: 10}, w_off=13)
    exp = [({4: 1, 3: 1}, 13), ({5: 1, 2: 1}, 13), ({6: 1, 1: 1}, 13)]
    exp4 = [(w, o, frozenset(), frozenset()) for w, o in exp]
    assert check("gul-bara", p, 1, 1, exp4, 2)["next"] == "end"
    assert check("gul-bara", p, 1, 1, exp4, 3)["next"] == "progression"
    # the whole throw: every line of the 2-2 stage bears both men off
    finals = gul_bara_throw(p, 1, 3)
    assert {f.w_off for f in finals} == {15}


def test_GB5_stage_by_stage() -> None:
    p = W({10: 1, 9: 1}, {20: 5, 13: 8, 5: 1, 1: 1}, w_off=13)
    exp = [({9: 1, 2: 1}, 13), ({7: 1, 4: 1}, 13)]
    out = check("gul-bara", p, 2, 2, [(w, o, frozenset(), frozenset()) for w, o in exp], 4)
    assert out["next"] == "progression"
    # the 3-3 stage from the second result: only 7/4, the rest lost
    second = W({7: 1, 4: 1}, {20: 5, 13: 8, 5: 1, 1: 1}, w_off=13)
    out = check("gul-bara", second, 3, 3, [({4: 2}, 13, frozenset(), frozenset())], 4)
    assert out["next"] == "end"
    # with the rest passed to the opponent: three 3s
    out = check("gul-bara", second, 3, 3, [({4: 2}, 13, frozenset(), frozenset())], 4,
                'gb_progression_rest="opponent"')
    assert out["next"] == "passed" and out["passed"] == [3, 3]
    finals = gul_bara_throw(p, 2, 4)
    assert {f.key() for f in finals} == {
        W({}, p_b := {20: 5, 13: 8, 5: 1, 1: 1}, w_off=15).key(),
        W({4: 2}, p_b, w_off=13).key()}
    # on throw 2 the same position has no progression
    assert check("gul-bara", p, 2, 2, [(w, o, frozenset(), frozenset()) for w, o in exp],
                 2)["next"] == "end"


def test_TP1_opening() -> None:
    p = W({24: 15}, {1: 15})
    check("tapa", p, 6, 5, [({24: 13, 19: 1, 18: 1}, 0, frozenset(), frozenset()),
                            ({24: 14, 13: 1}, 0, frozenset(), frozenset())],
          reference=lambda q, a, b: tapa(q, a, b)[0])


def test_TP2_pinning_and_freeing() -> None:
    p = W({24: 14, 13: 1}, {1: 12, 12: 2, 8: 1})
    v = variant("tapa")
    mine, _ = results_of(v, as_json(p, 5, 1))
    assert len(mine) == 4
    assert mine == keys(tapa(p, 5, 1)[0])
    pinned = [k for k in mine if k[3] == () and k[4] == (8,)]
    assert len(pinned) == 1


def test_TP3_bearing_off_with_a_pinned_man_at_home() -> None:
    p = W({6: 2, 5: 2, 4: 2, 3: 2}, {1: 4, 19: 5, 20: 5, 2: 1}, w_off=6, w_pinned=frozenset({2}))
    v = variant("tapa")
    mine, _ = results_of(v, as_json(p, 6, 5))
    want = W({6: 1, 5: 1, 4: 2, 3: 2}, {1: 4, 19: 5, 20: 5, 2: 1}, w_off=8,
             w_pinned=frozenset({2})).key()
    assert mine == {want} == keys(tapa(p, 6, 5)[0])
    # Plakoto's reading: no legal play
    forbidden = variant("tapa", 'pl_bear_off_pinned="forbidden"')
    assert results_of(forbidden, as_json(p, 6, 5))[0] == {p.key()}


def test_TP4_the_pinned_man_stands_on_its_pip() -> None:
    p = W({3: 2, 2: 2}, {1: 4, 19: 5, 20: 5, 5: 1}, w_off=10, w_pinned=frozenset({5}))
    mine, _ = results_of(variant("tapa"), as_json(p, 6, 1))
    want = W({3: 1, 2: 3}, {1: 4, 19: 5, 20: 5, 5: 1}, w_off=10, w_pinned=frozenset({5})).key()
    assert mine == {want} == keys(tapa(p, 6, 1)[0])


def test_TP5_no_mother_rule() -> None:
    p = W({13: 3, 7: 6, 4: 6}, {1: 1, 20: 7, 18: 7})
    v = variant("tapa")
    mine, _ = results_of(v, as_json(p, 3, 2))
    assert len(mine) == 10 == len(tapa(p, 3, 2)[0])
    pinning = [k for k in mine if k[4] == (1,)]
    assert len(pinning) == 3
    # the game goes on in all ten: no end rule holds after any of them
    for r in legal_results(v, as_json(p, 3, 2))["results"]:
        assert v.rules.game_over(v.geometry.from_json(r)) is None
    plakoto_reading = variant("tapa", 'tp_mother="plakoto"')
    ended = [r for r in legal_results(plakoto_reading, as_json(p, 3, 2))["results"]
             if plakoto_reading.rules.game_over(plakoto_reading.geometry.from_json(r))]
    assert len(ended) == 3


def test_TP6_deadlock_is_a_draw() -> None:
    p = W({1: 14}, {24: 14}, w_pinned=frozenset({24}), b_pinned=frozenset({1}))
    v = variant("tapa")
    for d1, d2 in [(6, 5), (1, 1), (3, 2)]:
        mine, _ = results_of(v, as_json(p, d1, d2))
        assert mine == {p.key()}
    b = v.geometry.from_json(as_json(p, 1, 1))
    assert v.rules.game_over(b) == "none"
    assert tapa_deadlock(p)
    assert not tapa_deadlock(W({24: 15}, {1: 15}))


def test_JQ1_opening_6_6() -> None:
    check("jacquet", START_SAME, 6, 6, [({24: 14, 18: 1}, 0, frozenset(), frozenset())],
          reference=lambda q, a, b: jacquet(q, a, b)[0])


def test_JQ2_the_courier_arrives() -> None:
    p = W({24: 14, 8: 1}, {12: 14, 20: 1})
    check("jacquet", p, 2, 1, [({24: 13, 23: 1, 6: 1}, 0, frozenset(), frozenset()),
                               ({24: 14, 5: 1}, 0, frozenset(), frozenset())],
          reference=lambda q, a, b: jacquet(q, a, b)[0])


def test_JQ3_the_courier_goal() -> None:
    p = W({24: 14, 14: 1}, {12: 13, 20: 1, 3: 1})
    check("jacquet", p, 3, 1, [({24: 14, 10: 1}, 0, frozenset(), frozenset())])
    check("jacquet", p, 3, 1, [({24: 14, 10: 1}, 0, frozenset(), frozenset()),
                               ({24: 13, 23: 1, 11: 1}, 0, frozenset(), frozenset())], 1,
          'courier_goal="opponent_start_quarter"',
          reference=lambda q, a, b: jacquet(q, a, b, "opponent_start_quarter")[0])


def test_JQ4_bouchon_without_pips_1_and_2() -> None:
    p = W({24: 9, 10: 1, 9: 1, 8: 2, 7: 1, 6: 1}, {12: 13, 20: 1, 2: 1})
    mine, _ = results_of(variant("jacquet"), as_json(p, 3, 1))
    assert len(mine) == 29 == len(jacquet(p, 3, 1)[0])
    refused = W({24: 8, 23: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {12: 13, 20: 1, 2: 1}).key()
    assert refused not in mine


def test_JQ5_bouchon_with_pips_1_and_2_held() -> None:
    p = W({24: 7, 10: 1, 9: 1, 8: 2, 7: 1, 6: 1, 2: 1, 1: 1}, {12: 13, 20: 1, 3: 1})
    mine, _ = results_of(variant("jacquet"), as_json(p, 3, 1))
    assert len(mine) == 30 == len(jacquet(p, 3, 1)[0])
    legal = W({24: 6, 23: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 2: 1, 1: 1},
              {12: 13, 20: 1, 3: 1}).key()
    assert legal in mine


# -- whole games through the turn loop -------------------------------------------------------------

def play(name: str, seed: int, *sets: str) -> Game:
    v = variant(name, *sets)
    g = Game(v, seed)
    g.run([make_player("random", seed, v), make_player("greedy", seed + 1, v)])
    return g


def test_gul_bara_games_play_the_progression_stage_by_stage() -> None:
    stages = 0
    for seed in range(1, 6):
        g = play("gul-bara", seed)
        assert g.result is not None and g.result.finished
        throws = [e for e in g.log if isinstance(e, Thrown)]
        for a, b in zip(throws, throws[1:]):
            if a.side == b.side and a.d1 == a.d2 and b.d1 == b.d2 == a.d1 + 1:
                stages += 1
    assert stages > 0


def test_gul_bara_passed_numbers_are_played_by_the_opponent() -> None:
    passed = 0
    for seed in range(1, 8):
        g = play("gul-bara", seed, 'gb_progression_rest="opponent"')
        assert g.result is not None and g.result.finished
        for i, e in enumerate(g.log):
            if isinstance(e, Passed):
                passed += 1
                nxt = next(x for x in g.log[i:] if isinstance(x, Thrown))
                assert nxt.side == 1 - e.side and nxt.d1 == nxt.d2 == e.number
    assert passed > 0


def test_tapa_and_jacquet_games_end() -> None:
    for name in ("tapa", "jacquet"):
        for seed in range(1, 4):
            g = play(name, seed)
            assert g.result is not None and g.result.finished


def test_GB5_the_rest_passed_to_the_opponent() -> None:
    """With `gb_progression_rest = "opponent"`, B receives three 3s after W's stage of 3s was
    played short (GB5), then four 4s, 5s and 6s stage by stage, before his own throw."""
    v = variant("gul-bara", 'gb_progression_rest="opponent"')
    w_after = {4: 2}
    b_men = {20: 5, 13: 8, 5: 1, 1: 1}
    # the same board seen by B, now on roll: his men in his own pips, W's in his
    p = W({opp_pip_same(q): n for q, n in b_men.items()},
          {opp_pip_same(q): n for q, n in w_after.items()}, b_off=13)
    obj = as_json(p, 3, 3, 4)
    obj["state"] = {"passed": [3, 3]}
    mine, out = results_of(v, obj)
    got, follows = gul_bara_passed(p, 3, 3)
    assert mine == keys(got) and out["next"] == follows == "passed"
    assert out["passed"] == [4, 4]
    # a passed stage played short: the rest is lost, his own throw follows
    blocked = W({5: 1}, {4: 1, 3: 1, 2: 1, 1: 1, 12: 11}, w_off=14)
    obj = as_json(blocked, 1, 1, 2)
    obj["state"] = {"passed": [1, 3]}
    mine, out = results_of(v, obj)
    got, follows = gul_bara_passed(blocked, 1, 3)
    assert mine == keys(got) and out["next"] == follows == "throw"


def test_gul_bara_passed_positions_agree() -> None:
    v = variant("gul-bara", 'gb_progression_rest="opponent"')
    rng = random.Random(4)
    for obj in positions(v, 23, scaled(200, 40)):
        d = rng.randint(1, 6)
        k = rng.randint(1, 4)
        obj["dice"] = [d, d]
        obj["state"] = {"passed": [d, k]}
        mine, out = results_of(v, obj)
        got, follows = gul_bara_passed(Pos.from_json(obj), d, k)
        assert mine == keys(got), obj
        assert out["next"] == follows, obj


def test_a_stage_rule_gives_another_throw(tmp_path) -> None:
    """`again`: a doublet played in full, its stages included, gives the same player another
    throw (the Uzbek reading of the progression)."""
    path = tmp_path / "uzbek.toml"
    path.write_text('extends = "gul-bara"\n[variant]\nid = "gul-bara-uzbek"\nname = "x"\n'
                    '[turn.stages.progression]\nagain = "true"\n', encoding="utf-8")
    v = load_variant(path)
    assert v.throws.stages[0].again is not None
    again = 0
    for seed in range(1, 4):
        g = Game(v, seed)
        g.run([make_player("random", seed, v), make_player("greedy", seed + 1, v)])
        assert g.result is not None and g.result.finished
        throws = [e for e in g.log if isinstance(e, Thrown)]
        for a, b in zip(throws, throws[1:]):
            if a.side == b.side and a.d1 == a.d2 == 6:
                again += 1          # after a 6-6 stage played in full: the same player again
    assert again > 0


# -- the numbers a player cannot play, played by the opponent (docs/variant-format.md) ---------

VARIANT_FORMAT = Path(__file__).resolve().parent.parent / "docs" / "variant-format.md"


def uzbek(tmp_path: Path) -> Any:
    """docs/variant-format.md's gul-bara-uzbek.toml, as printed."""
    text = VARIANT_FORMAT.read_text(encoding="utf-8")
    block = re.search(r"```toml\n(# gul-bara-uzbek\.toml.*?)```", text, re.S)
    assert block is not None
    path = tmp_path / "gul-bara-uzbek.toml"
    path.write_text(block.group(1), encoding="utf-8")
    return load_variant(str(path))


def passed_form(numbers: tuple[int, ...]) -> list:
    """The reference's numbers left as a position writes them (`state.passed`)."""
    if len(set(numbers)) == 2:
        return [[numbers[0], 1], [numbers[1], 1]]
    return [numbers[0], len(numbers)]


def test_the_uzbek_reading_worked_example(tmp_path: Path) -> None:
    v = uzbek(tmp_path)
    text = VARIANT_FORMAT.read_text(encoding="utf-8")
    shown = re.search(r"\| tablier moves gul-bara-uzbek\.toml\n```\n\n```json\n(.*?)\n```", text,
                      re.S)
    assert shown is not None
    line = re.search(r"echo '(.*?)' \| tablier moves gul-bara-uzbek", text)
    assert line is not None
    assert legal_results(v, json.loads(line.group(1))) == json.loads(shown.group(1))


def crowded(rng: random.Random) -> dict:
    """A position of Gul bara with the men of both sides scattered over the board, so that
    opposing men close many points: numbers often cannot be played."""
    mine = rng.randint(1, 3)
    points = rng.sample(range(1, 25), mine + 10)
    w_on, b_on = rng.randint(mine, 15), rng.randint(10, 15)
    w = {p: 1 for p in points[:mine]}
    b = {p: 1 for p in points[mine:]}
    for _ in range(w_on - mine):
        w[rng.choice(points[:mine])] += 1
    for _ in range(b_on - 10):
        b[rng.choice(points[mine:])] += 1
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    return as_json(W({p: n for p, n in w.items() if n}, {p: n for p, n in b.items() if n},
                     w_off=15 - w_on, b_off=15 - b_on), d1, d2, rng.choice([1, 2, 5]))


def test_the_numbers_a_player_cannot_play_go_to_the_opponent(tmp_path: Path) -> None:
    """Ordinary throws (the progression aside) agree with the reference on what each result
    leaves to the opponent: a doublet's rest, the number not played, or both."""
    v = uzbek(tmp_path)
    rng = random.Random(11)
    passed = mixed = 0
    for _ in range(scaled(600, 120)):
        obj = crowded(rng)
        d1, d2 = obj["dice"]
        if d1 == d2 and obj["rolls"] >= 3:
            continue                    # the progression's throw (checked above)
        mine, out = results_of(v, obj)
        left = gul_bara_left(Pos.from_json(obj), d1, d2)
        assert mine == keys(set(left)), obj
        if any(r.w_off == 15 for r in left):
            continue                    # the last man off: the game is over
        wanted = {json_key(r): passed_form(n) for r, n in
                  ((r, left[Pos.from_json(r)]) for r in out["results"]) if n}
        if not wanted:
            # played in full: the rest rule's `again = "doublet"` gives a doublet another throw
            assert out["next"] == ("reroll" if d1 == d2 else "end"), obj
            assert "passed" not in out, obj
            continue
        passed += 1
        mixed += d1 != d2 and len(set(left[Pos.from_json(out["results"][0])])) == 2
        assert out["next"] == "passed", obj
        got = {json_key(r): r.get("passed", out.get("passed")) for r in out["results"]}
        assert got == wanted, obj
        assert out.get("passed_by") == "rest"
    assert passed > 10 and mixed > 0


def test_two_different_numbers_passed_are_played_as_a_throw(tmp_path: Path) -> None:
    v = uzbek(tmp_path)
    rng = random.Random(5)
    for obj in positions(v, 41, scaled(200, 40)):
        a, b = rng.sample(range(1, 7), 2)
        a, b = max(a, b), min(a, b)
        obj["dice"] = [a, b]
        obj["state"] = {"passed": [[a, 1], [b, 1]], "passed_by": "rest"}
        mine, out = results_of(v, obj)
        assert mine == keys(gul_bara_given(Pos.from_json(obj), (a, b))), obj
        assert out["next"] == "throw"
        one = dict(obj, dice=[a, a], state={"passed": [a, 1], "passed_by": "rest"})
        mine, out = results_of(v, one)
        assert mine == keys(gul_bara_given(Pos.from_json(obj), (a,))), obj


def test_uzbek_games_pass_numbers_across_and_end(tmp_path: Path) -> None:
    """In games, what a throw leaves goes across: the opponent's next throw is the numbers
    passed (one number's moves, or two numbers), before his own."""
    v = uzbek(tmp_path)
    one = two = 0
    for seed in range(1, 9):
        g = Game(v, seed)
        g.run([make_player("random", seed, v), make_player("greedy", seed + 1, v)])
        assert g.result is not None and g.result.finished
        log = g.log
        for i, e in enumerate(log):
            if not isinstance(e, Passed) or isinstance(log[i - 1], Passed):
                continue
            given = [e] + ([log[i + 1]] if isinstance(log[i + 1], Passed) else [])
            nxt = next(x for x in log[i:] if isinstance(x, Thrown))
            assert nxt.side == 1 - e.side and all(x.side == e.side for x in given)
            if len(given) == 2:
                two += 1
                assert (nxt.d1, nxt.d2) == (given[0].number, given[1].number)
                assert given[0].number > given[1].number and given[0].moves == 1
            else:
                one += 1
                assert nxt.d1 == nxt.d2 == e.number
    assert one > 0 and two > 0


def test_a_save_where_two_numbers_were_passed_resumes_to_the_same_game(tmp_path: Path,
                                                                      capsys) -> None:
    """Stopped at the throw that passes two numbers, and at the opponent's play of them, a
    saved game resumes to the game played without a stop."""
    import tomllib

    from interpreter.cli import main

    uzbek(tmp_path)
    path = str(tmp_path / "gul-bara-uzbek.toml")
    whole = tmp_path / "whole.toml"
    capsys.readouterr()
    assert main(["play", path, "--seed", "10", "--save", str(whole)]) == 0
    # the log's line of the first throw that passes two numbers: "  41. white 5-6 -  (...)"
    two = re.search(r"^ +(\d+)\. .*passed to \w+; ", capsys.readouterr().out, re.M)
    assert two is not None
    at = int(two.group(1))
    for stop in (at, at + 1):
        part, rest = tmp_path / f"part{stop}.toml", tmp_path / f"rest{stop}.toml"
        assert main(["play", path, "--seed", "10", "--max-turns", str(stop),
                     "--save", str(part)]) == 0
        assert main(["play", "--resume", str(part), "--save", str(rest)]) == 0
        a, b = (tomllib.loads(f.read_text(encoding="utf-8")) for f in (whole, rest))
        assert a["record"] == b["record"] and a["state"] == b["state"]
    capsys.readouterr()


def test_the_named_state_sees_the_moves_of_passed_numbers(tmp_path: Path) -> None:
    """A count of the pips each side has travelled (`[turn.update]`, read from the play's
    path) stays its pip count's fall through every play, those of numbers passed on included:
    the update reads the moves of the stage actually played."""
    uzbek(tmp_path)
    base = (tmp_path / "gul-bara-uzbek.toml").read_text(encoding="utf-8")
    path = tmp_path / "travelled.toml"
    path.write_text(base.replace('id = "gul-bara-uzbek"', 'id = "gul-bara-travelled"') + '''
[turn.state]
travelled = 0

[turn.update.travelled]
name = "Pips travelled"
value = "travelled + sum(s in path: s.from - s.to)"
''', encoding="utf-8")
    v = load_variant(str(path))
    slot = v.geometry.state_slot("travelled")
    passes = 0
    for seed in range(1, 9):
        g = Game(v, seed)
        g.run([make_player("random", seed, v), make_player("greedy", seed + 1, v)])
        passes += sum(isinstance(e, Passed) for e in g.log)
        for e in g.log:
            if isinstance(e, Played):
                # the board after each play, seen by the side that played it
                b = e.board
                pips = sum(p * b[p] for p in range(1, 25) if b[p] > 0)
                assert b[slot] == 15 * 24 - pips, (seed, e)
    assert passes > 0
