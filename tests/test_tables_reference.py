"""Long Nardy, Plakoto, Fevga and acey-deucey against a plain second implementation of their rules
(tests/reference_tables.py, written from the rules alone): the same distinct results, through
`tablier moves` (`analysis.legal_results` on the position JSON), on positions of random play and
on positions built to exercise what random play rarely reaches (six-blocks, primes with the
opponent gathered behind, the mother, the named doublet of acey-deucey).

A sample of each check (tens of positions) in the default suite; thousands under `-m slow`.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterator

import pytest

from interpreter.analysis import legal_results
from interpreter.variant.build import load_variant
from reference_tables import (Pos, acey_deucey, fevga, json_key, long_nardy, opp_pip_same,
                              plakoto)

_VARIANTS: dict[tuple, Any] = {}


def variant(name: str, *sets: str) -> Any:
    if (name, sets) not in _VARIANTS:
        _VARIANTS[name, sets] = load_variant(name, list(sets))
    return _VARIANTS[name, sets]


def random_positions(v: Any, seed: int, count: int) -> Iterator[dict]:
    """Positions (JSON, with dice, and the stage of a bonus throw) met in random games of `v`:
    every play chosen uniformly among the distinct results, a new game after each end."""
    rng = random.Random(seed)
    gen, layout, throws = v.generator, v.geometry, v.throws
    made = 0
    while made < count:
        b = v.start_of(rng.randrange(2))
        for _turn in range(400):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            stage = None
            while True:
                obj = layout.to_json(b)
                obj["dice"] = [d1, d2]
                if stage:
                    obj["state"] = dict(obj.get("state", {}), stage=stage)
                yield obj
                made += 1
                plays, unplayed = gen.plays(b, d1, d2)
                b = rng.choice(plays).board
                nxt = throws.next(stage, d1, d2, unplayed)
                if nxt in ("doublet", "complement"):
                    named = d1 if nxt == "complement" else rng.randint(1, 6)
                    stage, (d1, d2) = nxt, throws.stage_dice(nxt, named)
                    continue
                if nxt == "reroll" and v.rules.game_over(b) is None:
                    stage, d1, d2 = None, rng.randint(1, 6), rng.randint(1, 6)
                    continue
                break
            if v.rules.game_over(b) is not None or made >= count:
                break
            b = v.flip(b)


def agree(v: Any, obj: dict, reference: Callable[..., tuple]) -> None:
    out = legal_results(v, obj)
    mine = {json_key(r) for r in out["results"]}
    assert len(mine) == out["count"]
    d1, d2 = obj["dice"]
    got = reference(Pos.from_json(obj), d1, d2)
    theirs = {p.key() for p in got[0]}
    assert mine == theirs, (obj, sorted(mine ^ theirs))
    if "next" in out:
        assert out["next"] == got[1], obj


# -- built positions -------------------------------------------------------------------------------

def blocks(seed: int, count: int, lo: int = 1, hi: int = 19) -> Iterator[dict]:
    """Same-direction positions with five or six of W's checkers on consecutive points of B's
    route and B's checkers mostly behind them: where six-blocks and primes are made and broken."""
    rng = random.Random(seed)
    while count:
        q = rng.randint(lo, hi)
        run = [opp_pip_same(r) for r in range(q, q + 6)]
        W = [0] * 25
        for p in run:
            W[p] += 1
        if rng.random() < 0.5:
            W[rng.choice(run)] -= 1          # five of six: the roll may complete the block
        left = 15 - sum(W)
        for _ in range(left):
            W[rng.choice([24, 24, 23, 22] + run + [rng.randint(1, 24)])] += 1
        B = [0] * 25
        behind = [opp_pip_same(r) for r in range(q + 6, 25)] or [opp_pip_same(24)]
        elsewhere = [p for p in range(1, 25) if W[p] == 0]
        b_off = rng.choice([0, 0, 0, 2])
        gathered = rng.random() < 0.4
        for _ in range(15 - b_off):
            pool = behind[:1] if gathered else (behind if rng.random() < 0.8 else elsewhere)
            choices = [p for p in pool if W[p] == 0] or [p for p in elsewhere]
            B[rng.choice(choices)] += 1
        points = [W[p] - B[p] for p in range(1, 25)]
        if any(W[p] and B[p] for p in range(1, 25)):
            continue
        yield {"points": points, "bar": [0, 0], "off": [0, b_off],
               "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        count -= 1


def mothers(seed: int, count: int) -> Iterator[dict]:
    """Plakoto positions near the mothers: B's last checker on his start (W's pip 1) or W's on
    his own (pip 24), W's checkers within reach, pins here and there."""
    rng = random.Random(seed)
    while count:
        W = [0] * 25
        B = [0] * 25
        pins_w: set[int] = set()
        pins_b: set[int] = set()
        B[1] = 1 if rng.random() < 0.7 else rng.randint(2, 4)
        W[24] = rng.choice([0, 0, 1, 2])
        for _ in range(15 - W[24]):
            W[rng.choice([2, 3, 4, 5, 6, 7, 8, 13, rng.randint(2, 23)])] += 1
        spots = [p for p in range(2, 24) if W[p] == 0]
        for _ in range(15 - sum(B)):
            B[rng.choice(spots + [18, 19, 20])] += 1
        if any(W[p] and B[p] for p in range(1, 25)):
            continue
        # a W checker pinned on 24 under a lone B checker, sometimes
        if W[24] == 0 and B[24] == 0 and rng.random() < 0.3:
            donor = max(range(1, 25), key=lambda p: W[p])
            W[donor] -= 1
            pins_w.add(24)
            B[24] += 1
            moved = max(range(2, 24), key=lambda p: B[p])
            B[moved] -= 1
        points = [W[p] - B[p] for p in range(1, 25)]
        yield {"points": points, "bar": [0, 0], "off": [0, 0],
               "pins": {"mine": sorted(pins_w), "theirs": sorted(pins_b)},
               "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        count -= 1


def named_doublets(seed: int, count: int) -> Iterator[dict]:
    """Acey-deucey positions at the named-doublet stage, from random play."""
    for obj in random_positions(variant("acey-deucey"), seed, 40 * count):
        if obj.get("state", {}).get("stage") == "doublet":
            yield obj
            count -= 1
            if not count:
                return


# -- the agreement tests ------------------------------------------------------------------------------

GAMES: dict[str, tuple[Callable[..., tuple], tuple[str, ...]]] = {
    "long-nardy": (long_nardy, ()),
    "plakoto": (plakoto, ()),
    "fevga": (fevga, ()),
    "acey-deucey": (acey_deucey, ()),
}


def _stage_aware(name: str) -> Callable[..., tuple]:
    ref, _ = GAMES[name]
    if name != "acey-deucey":
        return ref
    return ref


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_play_agrees_with_the_reference(name: str) -> None:
    v = variant(name)
    ref = GAMES[name][0]
    for obj in random_positions(v, 7, 80):     # thousands in test_many_random_positions_agree
        stage = obj.get("state", {}).get("stage")
        agree(v, obj, (lambda p, a, b, s=stage: ref(p, a, b, s)) if name == "acey-deucey"
              else ref)


def test_long_nardy_blocks_agree() -> None:
    v = variant("long-nardy")
    for obj in blocks(11, 60):              # 3000 more in test_many_random_positions_agree
        agree(v, obj, long_nardy)


def test_fevga_primes_agree() -> None:
    v = variant("fevga")
    for obj in blocks(12, 60, hi=18):
        agree(v, obj, fevga)


def test_plakoto_mothers_agree() -> None:
    v = variant("plakoto")
    for obj in mothers(13, 60):
        agree(v, obj, plakoto)


def test_acey_deucey_named_doublets_agree() -> None:
    v = variant("acey-deucey")
    for obj in named_doublets(14, 8):       # 500 more in test_many_random_positions_agree
        agree(v, obj, lambda p, a, b: acey_deucey(p, a, b, "doublet"))


OPTIONS = [
    ("long-nardy", ('ln_head_exception="when_needed"',),
     lambda p, a, b, s: long_nardy(p, a, b, head_exception="when_needed")),
    ("long-nardy", ('ln_head_exception="six_and_four"', 'ln_six_block="opponent_home"'),
     lambda p, a, b, s: long_nardy(p, a, b, head_exception="six_and_four",
                                   six_block="opponent_home")),
    ("long-nardy", ('ln_block_check="every_move"',),
     lambda p, a, b, s: long_nardy(p, a, b, block_check="every_move")),
    ("fevga", ('fv_first_runner="start_quarter"', 'fv_prime="all_behind"'),
     lambda p, a, b, s: fevga(p, a, b, first_runner="start_quarter", prime="all_behind")),
    ("plakoto", ('pl_bear_off_pinned="allowed"',),
     lambda p, a, b, s: plakoto(p, a, b, bear_off_pinned="allowed")),
    ("acey-deucey", ('ad_enter_all_first="yes"', 'ad_bonus="european"'),
     lambda p, a, b, s: acey_deucey(p, a, b, s, enter_all_first=True, european=True)),
    ("acey-deucey", ('ad_enter_then_move="later_throw"', 'ad_hit="rejoin_unentered"',
                     'ad_doublet_throws_again="yes"'),
     lambda p, a, b, s: acey_deucey(p, a, b, s, later_throw=True, rejoin_unentered=True,
                                    doublet_throws_again=True)),
]


OPTION_IDS = [f"{n}:{','.join(s)}" for n, s, _ in OPTIONS]


@pytest.mark.parametrize("name,sets,ref", OPTIONS, ids=OPTION_IDS)
def test_options_agree_with_the_reference(name: str, sets: tuple[str, ...], ref: Any) -> None:
    _options_agree(name, sets, ref, 40, 25)


@pytest.mark.slow
@pytest.mark.parametrize("name,sets,ref", OPTIONS, ids=OPTION_IDS)
def test_options_agree_with_the_reference_long(name: str, sets: tuple[str, ...], ref: Any
                                               ) -> None:
    _options_agree(name, sets, ref, 600, 400)


def _options_agree(name: str, sets: tuple[str, ...], ref: Any, count: int, built: int) -> None:
    v = variant(name, *sets)
    positions = list(random_positions(v, 21, count))
    if name in ("long-nardy", "fevga"):
        positions += list(blocks(22, built, hi=18))
    for obj in positions:
        stage = obj.get("state", {}).get("stage")
        agree(v, obj, lambda p, a, b, s=stage: ref(p, a, b, s))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_many_random_positions_agree(name: str) -> None:
    v = variant(name)
    ref = GAMES[name][0]
    for seed in range(5):
        for obj in random_positions(v, 100 + seed, 1000):
            stage = obj.get("state", {}).get("stage")
            agree(v, obj, (lambda p, a, b, s=stage: ref(p, a, b, s))
                  if name == "acey-deucey" else ref)
    built = {"long-nardy": lambda: blocks(200, 3000), "fevga": lambda: blocks(201, 3000, hi=18),
             "plakoto": lambda: mothers(202, 3000),
             "acey-deucey": lambda: named_doublets(203, 500)}[name]
    for obj in built():
        stage = obj.get("state", {}).get("stage")
        agree(v, obj, (lambda p, a, b, s=stage: ref(p, a, b, s))
              if name == "acey-deucey" else ref)


def first_throws(seed: int, count: int) -> Iterator[dict]:
    """Long Nardy positions at the mover's first throw: all fifteen on the head, the opponent's
    after his own first turn (the rest on his head, the mover's pip 12, a few on pips 1..11)."""
    rng = random.Random(seed)
    for _ in range(count):
        B = [0] * 25
        B[12] = 15
        for _ in range(rng.choice([0, 1, 1, 2])):
            B[12] -= 1
            B[rng.randint(1, 11)] += 1
        points = [(15 if p == 24 else 0) - B[p] for p in range(1, 25)]
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield {"points": points, "bar": [0, 0], "off": [0, 0], "dice": [d1, d2]}


@pytest.mark.parametrize("reading", ["listed_doublets", "when_needed", "six_and_four"])
def test_long_nardy_first_throws_agree(reading: str) -> None:
    _first_throws_agree(reading, 40)


@pytest.mark.slow
@pytest.mark.parametrize("reading", ["listed_doublets", "when_needed", "six_and_four"])
def test_long_nardy_first_throws_agree_long(reading: str) -> None:
    _first_throws_agree(reading, 600)


def _first_throws_agree(reading: str, count: int) -> None:
    v = variant("long-nardy", f'ln_head_exception="{reading}"')
    for obj in first_throws(31, count):
        agree(v, obj, lambda p, a, b: long_nardy(p, a, b, head_exception=reading))
