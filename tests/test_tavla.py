"""Tavla, the traditional Turkish game (docs/variants/tavla.md): backgammon with no hit-and-run in
one's home board, the opening's winner throwing again, a gammon worth two and no backgammon, and
no cube."""
from __future__ import annotations

import json
import subprocess
import sys

from interpreter.engine.events import Thrown
from interpreter.engine.game import Game, value_of
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant


def _moves(variant: str, points: dict[int, int], dice: tuple[int, int], *sets: str,
           bar: tuple[int, int] = (0, 0)) -> list[dict]:
    line = {"points": [points.get(p, 0) for p in range(1, 25)], "bar": list(bar),
            "off": [15 - sum(v for v in points.values() if v > 0) - bar[0],
                    15 + sum(v for v in points.values() if v < 0) - bar[1]],
            "dice": list(dice)}
    args = [w for s in sets for w in ("--set", s)]
    got = subprocess.run([sys.executable, "-m", "interpreter", "moves", variant, *args],
                         input=json.dumps(line) + "\n", capture_output=True, text=True,
                         check=True)
    return json.loads(got.stdout)["results"]


def _shown(result: dict) -> tuple:
    return tuple((p + 1, v) for p, v in enumerate(result["points"]) if v), tuple(result["bar"])


#: the page's worked example: white 8 and fourteen on 6, black's blot on white's 5
PAGE = {8: 1, 6: 14, 5: -1, 20: -14}
HIT_AND_RUN = (((3, 1), (6, 14), (20, -14)), (0, 1))      # 8/5*/3


def test_the_pages_example_no_hit_and_run_from_a_home_point():
    tavla = {_shown(r) for r in _moves("tavla", PAGE, (3, 2))}
    backgammon = {_shown(r) for r in _moves("backgammon", PAGE, (3, 2))}
    assert len(tavla) == 4 and len(backgammon) == 5
    assert backgammon - tavla == {HIT_AND_RUN}
    # the hit itself stays a play: 8/5* 6/4
    assert (((4, 1), (5, 1), (6, 13), (20, -14)), (0, 1)) in tavla


def test_the_option_anywhere_plays_backgammons_hit_and_run():
    got = {_shown(r) for r in _moves("tavla", PAGE, (3, 2), 'tv_hit_and_run="anywhere"')}
    assert HIT_AND_RUN in got and len(got) == 5


def test_a_hit_outside_the_home_board_may_run_on():
    # white 13/9*/6 with 4-3: the hit on 9 (white's outer board) runs on to 6
    pos = {13: 1, 6: 14, 9: -1, 20: -14}
    got = {_shown(r) for r in _moves("tavla", pos, (4, 3))}
    assert (((6, 15), (20, -14)), (0, 1)) in got


def test_a_checker_that_hit_at_home_stays_even_with_a_doublet():
    # 2-2: 7/5* and that checker may not go on to 3 or 1; others may move
    pos = {7: 1, 6: 14, 5: -1, 20: -14}
    for r in _moves("tavla", pos, (2, 2)):
        (points, bar) = _shown(r)
        board = dict(points)
        if bar == (0, 1):              # the blot was hit on 5
            assert board.get(5, 0) >= 1, r


def test_a_gammon_counts_two_and_there_is_no_backgammon():
    # white has borne off all fifteen; black none, with a man still in white's home board: a
    # backgammon (3) in backgammon, two in Tavla; with one black man off, one in both
    for variant, worth in (("tavla", 2), ("backgammon", 3)):
        v = load_variant(variant)
        b = v.geometry.from_json({"points": [0, 0, -1] + [0] * 16 + [-14, 0, 0, 0, 0],
                                  "bar": [0, 0], "off": [15, 0]})
        assert value_of(v, b) == (worth, "gammon" if worth == 2 else "backgammon")
        single = v.geometry.from_json({"points": [0, 0, -1] + [0] * 16 + [-13, 0, 0, 0, 0],
                                       "bar": [0, 0], "off": [15, 1]})
        assert value_of(v, single)[0] == 1
    assert load_variant("tavla").model.ladder.doubling is False


def _first_throws(opening: str, seeds: int) -> tuple[list[Thrown], set[int]]:
    v = load_variant("tavla", [f'tv_opening="{opening}"'])
    firsts, values = [], set()
    for seed in range(seeds):
        g = Game(v, seed)
        r = g.run([make_player("random", seed, v), make_player("random", seed + 1, v)])
        assert r.finished and r.winner is not None
        values.add(r.value)
        firsts.append(next(e for e in g.log if isinstance(e, Thrown)))
    return firsts, values


def test_the_opening_winner_throws_again_and_games_are_worth_one_or_two():
    firsts, values = _first_throws("throw_again", 60)
    assert values == {1, 2}
    # a fresh throw of two dice: some games open with a doublet (1 in 6)
    assert any(t.d1 == t.d2 for t in firsts)
    firsts, values = _first_throws("play_the_opening", 30)
    assert not any(t.d1 == t.d2 for t in firsts) and values <= {1, 2}
