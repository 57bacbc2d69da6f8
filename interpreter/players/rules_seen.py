"""What a network knows of its rules, and what the game in play makes of its outputs.

A network's outputs (players/net.py) are chances of outcome classes: a win, then for each value
level v of the variant it was trained on, a win and a loss worth v or more. The weights file
says which value rules gave each level (`classes`: `{"2": ["gammon"], "3": ["backgammon"]}`)
and the rules it was trained under (`rules_fingerprint`, `rules`: the parts of
interpreter/variant/fingerprint.py). The value a player maximises is the game in play's:

- `class_worths` reads what each class is worth in the file in play: class i (level v_i, rules
  R_i) is worth w_i = max(w_{i-1}, the largest value of the rules of R_i enabled in the file
  in play), w_0 = 1 (a single game); the classes are nested (a backgammon is a gammon too), so
  a class whose rules are all switched off is worth what the class below it is. A class the
  ladder fixes (the payments of a mark, no rules) keeps its level;
- `unknown_outcomes` names the value rules of the file in play that give a value no class
  has (an added rule): the network cannot tell their chance, and the player plays on what it
  knows;
- `rules_notes` says, once a player, where the file in play differs from the network's
  rules; `foreign_refusal` refuses a network trained for another game (another board, dice,
  movement or turn) unless `--foreign-weights` is given.

All of it is reckoned once, when the player is made.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence, cast

from interpreter.engine.game import _EndContext
from interpreter.scoring.registry import ladder_class
from interpreter.variant.fingerprint import (differing_keys, fingerprint_of_parts,
                                             fingerprint_parts, foreign_keys, rules_fingerprint)

#: the loser's points probed for the values of a game of a sum of games (players/td.py)
MAX_PROBED = 200
#: the most differing keys a note names before `and N more`
SHOWN_KEYS = 6
#: the environment switch `--foreign-weights` sets (inherited by the worker processes)
FOREIGN_ENV = "TABLIER_FOREIGN_WEIGHTS"


def foreign_allowed() -> bool:
    """Whether `--foreign-weights` was given (a network trained for another game is played)."""
    return os.environ.get(FOREIGN_ENV) == "1"


def rule_values(variant: Any) -> dict[str, set[int]]:
    """The values each value rule of the variant in play (its enabled rules) can give a won
    game: its value on the starting board, and where the play is a sum of games whose value
    reads the loser's points, for every number of points he may have. Worked out once per
    variant (each player, its judge and the compiled values read it); the dict is not to be
    changed."""
    cached = variant.__dict__.get("_rule_values")
    if cached is not None:
        return cast("dict[str, set[int]]", cached)
    ladder = ladder_class(variant.ladder)
    if ladder.learns_units and ladder.unit_levels is None:
        target = int(getattr(variant.ladder, "target", 12))
        contexts = [_EndContext((target, p)) for p in range(min(target, MAX_PROBED))]
    else:
        contexts = [_EndContext((0, 0))]
    out: dict[str, set[int]] = {}
    for rule_id, _when, value in variant.rules.value:
        got: set[int] = set()
        for ctx in contexts:
            try:
                got.add(int(value(variant.start, None, None, 0, 0, 0, ctx)))
            except Exception:  # noqa: BLE001 - a value that needs more than a board
                continue
        out[rule_id] = got
    variant.__dict__["_rule_values"] = out
    return out


def value_classes(variant: Any, levels: Sequence[int]) -> dict[str, list[str]]:
    """For each value level of a network trained on `variant`, the value rules giving it (none
    where the ladder fixes the levels: the payments of a mark)."""
    if ladder_class(variant.ladder).unit_levels is not None:
        return {str(v): [] for v in levels}
    values = rule_values(variant)
    return {str(v): sorted(r for r, got in values.items() if v in got) for v in levels}


def class_worths(variant: Any, levels: Sequence[int],
                 classes: Mapping[str, Sequence[str]] | None) -> tuple[int, ...]:
    """What each outcome class of a network is worth in the variant in play: (1, w_1, ...,
    w_k) for its levels (the module docstring). Without `classes` (a file that does not
    record them) each class is worth its level."""
    out = [1]
    if classes is None:
        return tuple([1, *(int(v) for v in levels)])
    values = rule_values(variant) if any(classes.get(str(v)) for v in levels) else {}
    for v in levels:
        rules = classes.get(str(v))
        if not rules:
            w = int(v)
        else:
            present = [max(values[r]) for r in rules if values.get(r)]
            w = max(present, default=1)
        out.append(max(out[-1], w))
    return tuple(out)


def unknown_outcomes(variant: Any, classes: Mapping[str, Sequence[str]] | None
                     ) -> list[tuple[str, int]]:
    """(rule id, value) of the value rules in play that give a game a value above one and are
    in no class of the network (an added rule); none where the ladder fixes the levels or
    learns no values."""
    ladder = ladder_class(variant.ladder)
    if classes is None or not ladder.learns_values or ladder.unit_levels is not None:
        return []
    known = {r for rules in classes.values() for r in rules}
    return [(r, max(got)) for r, got in rule_values(variant).items()
            if got and max(got) > 1 and r not in known]


def trained_parts(meta: Mapping[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """(variant id, the parts of the rules) a network was trained under: its file's `rules`,
    else (an older file) those of the shipped variant its `variant` names, as it is now; None
    parts where neither is known."""
    vid = meta.get("variant")
    vid = vid if isinstance(vid, str) else None
    rules = meta.get("rules")
    if isinstance(rules, dict):
        return vid, dict(rules)
    if vid is None:
        return None, None
    try:
        from interpreter.resources import builtin_variant_path
        from interpreter.variant.build import load_variant
        if builtin_variant_path(vid) is None:
            return vid, None
        return vid, fingerprint_parts(load_variant(vid))
    except Exception:  # noqa: BLE001 - no such shipped variant any more: rules unknown
        return vid, None


def trained_classes(meta: Mapping[str, Any], levels: Sequence[int]
                    ) -> dict[str, list[str]] | None:
    """The classes a network's file records, else (an older file) those of the shipped variant
    its `variant` names; None where neither is known."""
    classes = meta.get("classes")
    if isinstance(classes, dict):
        return {str(k): [str(r) for r in v] for k, v in classes.items()}
    vid = meta.get("variant")
    if not isinstance(vid, str):
        return None
    try:
        from interpreter.resources import builtin_variant_path
        from interpreter.variant.build import load_variant
        if builtin_variant_path(vid) is None:
            return None
        return value_classes(load_variant(vid), levels)
    except Exception:  # noqa: BLE001 - no such shipped variant any more
        return None


def rules_record(variant: Any, levels: Sequence[int]) -> dict[str, Any]:
    """What a weights file records of the rules its network is trained under: the variant's
    id, `rules_fingerprint`, the parts (`rules`) and the value rules of each level
    (`classes`)."""
    return {"variant": variant.id, "rules_fingerprint": rules_fingerprint(variant),
            "rules": fingerprint_parts(variant), "classes": value_classes(variant, levels)}


class RulesSeen:
    """What a network makes of the variant in play (made once a player): the worth of each
    outcome class, the keys the game differs in from the network's rules, the notes to say."""

    def __init__(self, variant: Any, meta: Mapping[str, Any], levels: Sequence[int]):
        self.trained_for, parts = trained_parts(meta)
        mine = fingerprint_parts(variant)
        fp = meta.get("rules_fingerprint")
        self.known = parts is not None
        if parts is None:
            self.differs: list[str] = []
        elif isinstance(fp, str) and fp == rules_fingerprint(variant):
            self.differs = []
        else:
            self.differs = differing_keys(parts, mine)
            if not self.differs and isinstance(fp, str) and fp != fingerprint_of_parts(parts):
                self.differs = ["rules_fingerprint"]
        self.foreign = foreign_keys(self.differs)
        classes = trained_classes(meta, levels)
        self.worths = class_worths(variant, levels, classes)
        self.unknown = unknown_outcomes(variant, classes)

    def notes(self) -> list[str]:
        """What the player says of the game in play (nothing where it is what the network was
        trained for)."""
        out = []
        if not self.known:
            out.append("learned: trained under unknown rules"
                       + (f" (for {self.trained_for})" if self.trained_for else ""))
        elif self.differs:
            out.append(f"learned: trained for {self.trained_for or 'another variant'}; this "
                       f"game differs in {keys_text(self.differs)}")
        if self.unknown:
            rules = ", ".join(f"{r} worth {v}" for r, v in self.unknown)
            out.append(f"learned: this game has outcomes the network does not know ({rules}); "
                       f"it plays on what it knows")
        return out

    def refusal(self, where: str) -> str | None:
        """The line refusing a network trained for another game, or None."""
        if not self.foreign:
            return None
        what = "|".join(self.foreign)
        keys = [k for ks in self.foreign.values() for k in ks]
        return (f"learned:{where} was trained for {self.trained_for or 'another variant'} "
                f"(another {what.replace('|', ', ')}: {keys_text(keys)}); pass "
                f"--foreign-weights to play it anyway")


def keys_text(keys: Sequence[str]) -> str:
    """The keys, at most `SHOWN_KEYS` of them, then `and N more`."""
    shown = ", ".join(keys[:SHOWN_KEYS])
    more = len(keys) - SHOWN_KEYS
    return shown + (f" and {more} more" if more > 0 else "")


#: the notes said at the terminal in this process (each once)
_SAID: set[str] = set()


def say_once(notes: Sequence[str], stream: Any = None) -> None:
    """Write each note not yet written by this process on stderr."""
    import sys

    out = stream or sys.stderr
    for note in notes:
        if note not in _SAID:
            _SAID.add(note)
            print(note, file=out)
