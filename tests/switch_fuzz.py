"""The switch fuzzer: every movement and dice switch, ladder key, option and rule of each shipped
variant set to each of its allowed values (and the boundary integers), alone and in random
combinations; whatever `load_variant` (the checks of `tablier validate`) accepts is played.

An accepted combination must play a few random games, each stopped by a turn cap, without an
exception, with both sides' checkers conserved on every board of the record, and must answer
`moves` (and `score`) on positions of those games. A refused one must be refused with a
`VariantError` (a diagnostic), nothing else.

    python3 tests/switch_fuzz.py [--combos N] [--seed S]   # a report of what was found

The tests (`test_switch_fuzz.py`) run a sample in the default suite and everything under `slow`.
"""
from __future__ import annotations

import random
import sys
import traceback
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from interpreter.errors import TablierError, VariantError  # noqa: E402
from interpreter.kernel.board import flip, to_json  # noqa: E402
from interpreter.scoring.registry import LADDER_MODELS  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.variant.loader import load_document  # noqa: E402
from interpreter.variant.schema import Dice, Movement  # noqa: E402

VARIANTS = ("backgammon", "hypergammon", "nackgammon", "triktrak", "trictrac-ecrire",
            "trictrac-combine", "tric-trac-12")
#: extra values worth trying for integer keys, beside their bounds and default
INTERESTING = (0, 1, 2, 6, 12, 13, 24)
#: starting positions tried as `board.start` (with `board.checkers` set to match)
STARTS = ({24: 15}, {24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 23: 1, 22: 1}, {13: 15}, {6: 15},
          {1: 15}, {12: 1, 13: 1}, {24: 14, 1: 1}, {19: 5, 6: 5, 13: 5})


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def _bounds(info: Any) -> tuple[int | None, int | None]:
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", lo)
        hi = getattr(m, "le", hi)
    return lo, hi


def field_values(info: Any) -> list[Any]:
    """The values worth setting a model field to: its choices, or its integer bounds, their
    neighbours (which must be refused), its default and a few pips."""
    annotation = info.annotation
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return list(args)
    if annotation is bool:
        return [True, False]
    if typing.get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType")):
        out: list[Any] = []
        for a in args:
            if typing.get_origin(a) is typing.Literal:
                out += list(typing.get_args(a))
            elif a is int:
                out += [1, 2, 13, 64, 1024]
            elif typing.get_origin(a) is list:
                out += [[], [12], [24, 23, 22], [1, 25]]
            elif a is str:
                out += ["starts", ""]
        if int in args and type(None) in args:   # an optional pip: the corners
            out = [1, 12, 13, 24, 25, 0]
        return out
    if typing.get_origin(annotation) is list:
        return [[], [12], [13], [24], [1], list(range(7, 13)), list(range(1, 25))]
    if annotation is int:
        lo, hi = _bounds(info)
        values = set(INTERESTING)
        if lo is not None:
            values |= {lo - 1, lo, lo + 1}
        if hi is not None:
            values |= {hi - 1, hi, hi + 1}
        else:
            values |= {1000, 10**9, 10**9 + 1}
        if isinstance(info.default, int):
            values.add(info.default)
        return sorted(values)
    return []


@dataclass
class KeySpace:
    """Every (dotted key, values) pair of one variant."""

    variant: str
    keys: list[tuple[str, list[Any]]] = field(default_factory=list)

    def settings(self) -> Iterator[list[str]]:
        for key, values in self.keys:
            for value in values:
                yield [f"{key}={toml_value(value)}"] if not key.startswith("board.start") \
                    else start_override(value)


def start_override(start: dict[int, int]) -> list[str]:
    return [f"board.checkers={sum(start.values())}",
            f"board.start={toml_value({str(k): v for k, v in start.items()})}"]


def key_space(variant: str) -> KeySpace:
    doc = load_document(variant)
    model = doc.model
    space = KeySpace(variant)
    for table, cls in (("movement", Movement), ("dice", Dice)):
        for name, info in cls.model_fields.items():
            space.keys.append((f"{table}.{name}", field_values(info)))
    ladder = model.ladder
    for name, info in type(ladder).model_fields.items():
        if name != "kind":
            space.keys.append((f"ladder.{name}", field_values(info)))
    space.keys.append(("ladder", [{"kind": k} for k in sorted(LADDER_MODELS)]))
    for name, choices in model.option_choices.items():
        space.keys.append((f"options.{name}", list(choices)))
    for rule_id in model.rules:
        space.keys.append((f"rules.{rule_id}.enabled", [False]))
    space.keys.append(("board.start", list(STARTS)))
    return space


@dataclass
class Outcome:
    variant: str
    overrides: list[str]
    accepted: bool
    failure: str | None = None       # what went wrong (None: all is well)
    codes: tuple[str, ...] = ()      # the diagnostic codes of a refusal
    finished: int = 0
    games: int = 0


def _position(b: tuple, d1: int, d2: int) -> dict:
    return {**to_json(b), "dice": [d1, d2]}


def play_checks(variant: Any, overrides: list[str], games: int = 2, max_turns: int = 150,
                seed: int = 1) -> tuple[int, str | None]:
    """Play `games` random games; (games finished, the first failure or None)."""
    from interpreter.analysis import legal_results, roll_score
    from interpreter.sim import play_game

    finished = 0
    n = variant.checkers
    for index in range(games):
        try:
            result = play_game(variant, seed, index, max_turns=max_turns, keep_record=True)
        except Exception:  # noqa: BLE001 - the fuzzer reports every escape
            return finished, "play: " + traceback.format_exc(limit=-3)
        finished += bool(result.finished)
        for turn in result.record:
            # every man counts: on the points, pinned, on the bar, off and not yet entered
            if variant.geometry.counts(turn.board) != (n, n) or any(x < 0 for x in (turn.board[0], turn.board[25],
                                                                   turn.board[26], turn.board[27])):
                return finished, f"play: checkers not conserved: {to_json(turn.board)}"
        for turn in result.record[:: max(1, len(result.record) // 3)][:4]:
            for b in (turn.board, flip(turn.board)):
                try:
                    legal_results(variant, _position(b, 3, 1))
                    legal_results(variant, _position(b, 5, 5))
                    if variant.rules.score_roll and not variant.rules.score_play:
                        roll_score(variant, _position(b, 6, 2))
                except TablierError:
                    pass   # a position a game of these rules can reach but `moves` refuses
                except Exception:  # noqa: BLE001
                    return finished, "moves: " + traceback.format_exc(limit=-3)
    return finished, None


def try_overrides(variant_id: str, overrides: list[str], games: int = 2,
                  max_turns: int = 150) -> Outcome:
    try:
        variant = load_variant(variant_id, overrides)
    except VariantError as err:
        return Outcome(variant_id, overrides, False,
                       codes=tuple(sorted({d.code for d in err.diagnostics})))
    except Exception:  # noqa: BLE001
        return Outcome(variant_id, overrides, False, "load: " + traceback.format_exc(limit=-3))
    finished, failure = play_checks(variant, overrides, games, max_turns)
    return Outcome(variant_id, overrides, True, failure, finished, games)


def single_settings(variants: tuple[str, ...] = VARIANTS) -> Iterator[tuple[str, list[str]]]:
    for v in variants:
        for overrides in key_space(v).settings():
            yield v, overrides


def combinations(n: int, seed: int, variants: tuple[str, ...] = VARIANTS
                 ) -> Iterator[tuple[str, list[str]]]:
    """`n` random combinations of 2 to 5 settings per variant."""
    rng = random.Random(seed)
    for v in variants:
        space = key_space(v)
        for _ in range(n):
            chosen = rng.sample(space.keys, rng.randint(2, min(5, len(space.keys))))
            overrides: list[str] = []
            for key, values in chosen:
                value = rng.choice(values)
                overrides += start_override(value) if key == "board.start" else \
                    [f"{key}={toml_value(value)}"]
            yield v, overrides


def movement_grid(variant: str = "backgammon") -> Iterator[tuple[str, list[str]]]:
    """Every combination of the switches that decide where checkers go: hit, enter, start_pip,
    off_pip, bear_off, home_top."""
    for hit in ("bar", "start", "none"):
        for enter in ("bar", "start", "none"):
            for start_pip in (1, 13, 24):
                for off in (0, 1, 6, 12):
                    for bear in ("all_home", "anywhere"):
                        for home in (1, 6, 24):
                            yield variant, [f'movement.hit="{hit}"', f'movement.enter="{enter}"',
                                            f"movement.start_pip={start_pip}",
                                            f"movement.off_pip={off}",
                                            f'movement.bear_off="{bear}"',
                                            f"movement.home_top={home}"]


def run(cases: Iterator[tuple[str, list[str]]], games: int = 2, max_turns: int = 150
        ) -> list[Outcome]:
    return [try_overrides(v, o, games, max_turns) for v, o in cases]


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--combos", type=int, default=100, help="random combinations per variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--grid", action="store_true", help="also the movement grid")
    args = ap.parse_args(argv)
    cases: list[tuple[str, list[str]]] = list(single_settings())
    cases += list(combinations(args.combos, args.seed))
    if args.grid:
        cases += list(movement_grid()) + list(movement_grid("tric-trac-12"))
    outcomes = run(iter(cases))
    accepted = [o for o in outcomes if o.accepted]
    failures = [o for o in outcomes if o.failure]
    print(f"{len(outcomes)} settings tried, {len(accepted)} accepted, "
          f"{len(outcomes) - len(accepted)} refused, {len(failures)} failures")
    for o in failures:
        print(f"\n{o.variant} {' '.join(o.overrides)}\n  {o.failure.strip().splitlines()[-1]}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
