"""The arms of `tablier compare`: which variants, with which `--set`s, from the command line.

    tablier compare backgammon nackgammon                 two arms
    tablier compare triktrak triktrak --set 2:sortie_obligation='"optional"'
    tablier compare triktrak --vary sortie_obligation=compulsory,optional
    tablier compare triktrak --vary players=random,search:1   both sides, one arm per kind
    tablier compare triktrak --vary white=greedy,learned       one side (and --black for the other)

A `--set KEY=VALUE` sets every arm; `V:KEY=VALUE` sets the arm(s) whose variant is written V,
and `N:KEY=VALUE` the N-th arm (from 1). `--vary KEY=A,B,...` takes one variant and makes one arm
per value, in the order given; a value that is not a TOML value (a bare word) is read as a
string, so `--vary sortie_obligation=compulsory,optional` needs no quotes. The players are arms
too: `--vary players=KIND,...` gives both sides each kind in turn, `--vary white=KIND,...` and
`--vary black=KIND,...` one side (the other playing `--black` or `--white`).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Sequence

from interpreter.errors import TablierError


#: arms of one comparison (each is loaded, played and tested against the first)
MAX_ARMS = 26


class ArmError(TablierError):
    """Arms that cannot be made from the command line."""


@dataclass(frozen=True)
class ArmSpec:
    ref: str
    overrides: tuple[str, ...]
    #: what tells this arm from the others in tables and file names
    label: str
    #: the arm's own players (None: the comparison's `--white` / `--black`)
    white: str | None = None
    black: str | None = None

    def players(self, white: str, black: str) -> dict[str, str]:
        """{"white", "black"}: who plays this arm's games."""
        return {"white": self.white or white, "black": self.black or black}


#: `--vary` keys that make arms of players instead of option values
PLAYER_KEYS = ("players", "white", "black")


def _toml_value(text: str) -> str:
    """`text` if it is a TOML value, else `text` as a TOML string."""
    try:
        tomllib.loads(f"v = {text}")
        return text
    except tomllib.TOMLDecodeError:
        import tomli_w

        return tomli_w.dumps({"v": text})[len("v = "):].strip()


def _split_set(arg: str, refs: Sequence[str]) -> tuple[list[int] | None, str]:
    """The arms a `--set` names (None: all) and its KEY=VALUE."""
    colon, eq = arg.find(":"), arg.find("=")
    if colon <= 0 or (0 <= eq < colon):
        return None, arg
    prefix, rest = arg[:colon], arg[colon + 1:]
    if prefix.isdigit():
        k = int(prefix)
        if not 1 <= k <= len(refs):
            raise ArmError(f"--set {arg!r}: there is no arm {k} (arms 1 to {len(refs)})")
        return [k - 1], rest
    named = [i for i, r in enumerate(refs) if r == prefix]
    if not named:
        raise ArmError(f"--set {arg!r}: no arm is the variant {prefix!r} (the arms: "
                       f"{', '.join(refs)}; or number them from 1)")
    return named, rest


def parse_arms(variants: Sequence[str], sets: Sequence[str] = (),
               vary: str | None = None) -> list[ArmSpec]:
    """The arms of a comparison (at least two)."""
    if vary is not None:
        if len(variants) != 1:
            raise ArmError(f"--vary makes the arms from one variant; {len(variants)} were "
                           f"given ({', '.join(variants)})")
        key, eq, values = vary.partition("=")
        key = key.strip()
        if not eq or not key or not values.strip():
            raise ArmError(f"--vary {vary!r}: expected KEY=A,B,...")
        choices = [v.strip() for v in values.split(",")]
        if any(not v for v in choices):
            raise ArmError(f"--vary {vary!r}: an empty value")
        refs = [variants[0]] * len(choices)
        labels = [f"{key}={v}" for v in choices]
        if key in PLAYER_KEYS:
            extra: list[tuple[str, ...]] = [() for _ in choices]
            sides = [(v if key != "black" else None, v if key != "white" else None)
                     for v in choices]
        else:
            extra = [(f"{key}={_toml_value(v)}",) for v in choices]
            sides = [(None, None)] * len(choices)
    else:
        refs = list(variants)
        extra = [() for _ in refs]
        labels = list(refs)
        sides = [(None, None)] * len(refs)
    if len(refs) < 2:
        raise ArmError("compare needs two arms or more: two variants, or --vary KEY=A,B")
    if len(refs) > MAX_ARMS:
        raise ArmError(f"compare takes at most {MAX_ARMS} arms, not {len(refs)}")
    own: list[list[str]] = [[] for _ in refs]
    for arg in sets:
        which, rest = _split_set(arg, refs)
        for i in (range(len(refs)) if which is None else which):
            own[i].append(rest)
    specs = []
    for i, ref in enumerate(refs):
        overrides = tuple(own[i]) + extra[i]
        label = labels[i]
        mine = [s for s in own[i] if sum(s in o for o in own) < len(refs)]
        if mine:
            label += " " + " ".join(mine)
        specs.append(ArmSpec(ref, overrides, label, *sides[i]))
    seen: dict[str, int] = {}
    for s in specs:
        seen[s.label] = seen.get(s.label, 0) + 1
    return [ArmSpec(s.ref, s.overrides, f"{i + 1}:{s.label}" if seen[s.label] > 1 else s.label,
                    s.white, s.black)
            for i, s in enumerate(specs)]


def slug(label: str) -> str:
    """A label as a piece of a file name."""
    text = re.sub(r"[^A-Za-z0-9._=-]+", "_", label).strip("_")
    return text[:60] or "arm"


def games_out_paths(prefix: str, specs: Sequence[ArmSpec]) -> list[str]:
    """One `--games-out` file per arm: PREFIX-N-LABEL.jsonl."""
    return [f"{prefix}-{i + 1}-{slug(s.label)}.jsonl" for i, s in enumerate(specs)]
