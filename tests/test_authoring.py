"""Games of the family that Tablier does not ship, written as an author would from the docs
alone (docs/variant-format.md, docs/authoring.md): each is a file in tests/data/variants and no
Python. Moultezim (pbmserv's rules) uses a same-direction route and a rule asked before each
move; Todas tablas (Alfonso X, 1283) is a house rule of backgammon."""
from __future__ import annotations

import random
from pathlib import Path

from interpreter.analysis import legal_results
from interpreter.variant.build import load_variant
from interpreter.variant.build import validate_paths

DATA = Path(__file__).parent / "data" / "variants"
MOULTEZIM = DATA / "moultezim.toml"
TODAS = DATA / "todas-tablas.toml"


def position(W: dict[int, int], B: dict[int, int], dice: tuple[int, int], **kw) -> dict:
    points = [0] * 24
    for p, n in W.items():
        points[p - 1] += n
    for p, n in B.items():
        points[p - 1] -= n
    return {"points": points, "dice": list(dice), **kw}


def results(variant, pos: dict) -> list[dict[int, int]]:
    out = legal_results(variant, pos)["results"]
    return sorted(({p + 1: n for p, n in enumerate(r["points"]) if n > 0} for r in out),
                  key=lambda w: sorted(w.items()))


def test_the_files_validate() -> None:
    assert validate_paths([MOULTEZIM, TODAS]) == []


def test_moultezim_opening() -> None:
    v = load_variant(str(MOULTEZIM))
    heads = ({24: 15}, {12: 15})
    # 6-6: 24/18, then 18/12 is the opponent's start and no other man may leave
    assert results(v, position(*heads, (6, 6))) == [{24: 14, 18: 1}]
    # 6-5: 24/13 only (two men may not leave)
    assert results(v, position(*heads, (6, 5))) == [{24: 14, 13: 1}]


def test_moultezim_first_man_turns_the_corner_on_pip_12() -> None:
    # the runner reaches pip 12 (twelve points from the start) with the 1; then the 2 may take a
    # second man off the start. In Fevga it must pass pip 12 first.
    v = load_variant(str(MOULTEZIM))
    pos = position({24: 14, 13: 1}, {20: 1, 10: 14}, (1, 2))
    assert {24: 13, 22: 1, 12: 1} in results(v, pos)
    assert {24: 13, 22: 1, 12: 1} not in results(load_variant("fevga"), pos)


def test_moultezim_first_quadrant() -> None:
    v = load_variant(str(MOULTEZIM))
    W = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 11: 1}
    B = {12: 9, 18: 1, 17: 1, 16: 1, 15: 1, 10: 1, 6: 1}
    got = results(v, position(W, B, (5, 1)))
    assert got and all(not all(r.get(p) for p in range(19, 25)) for r in got)


def test_moultezim_games_end() -> None:
    v = load_variant(str(MOULTEZIM))
    rng = random.Random(3)
    for _game in range(5):
        b = v.start_of(0)
        for turn in range(2000):
            b = rng.choice(v.generator.results(b, rng.randint(1, 6), rng.randint(1, 6)))
            if v.rules.game_over(b):
                assert b[0] == 15
                break
            b = v.flip(b)
        else:
            raise AssertionError("a game of Moultezim did not end")


def test_todas_tablas_is_backgammon_in_single_games() -> None:
    v = load_variant(str(TODAS))
    bg = load_variant("backgammon")
    start = {"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0,
                        2], "dice": [3, 1]}
    assert legal_results(v, start) == legal_results(bg, start)
    won = {"points": [-15] + [0] * 23, "off": [15, 0]}     # the loser still in my home board
    from interpreter.analysis import read_position
    b = read_position(v, won, need_dice=False).board
    assert v.rules.game_over(b) == "mover" and v.rules.game_value(b) == 1
    assert bg.rules.game_value(b) == 3
