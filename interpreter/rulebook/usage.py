"""Which regions, definitions and options each rule reads, found in the text of its snippets.

A name is read where it appears as a word outside string literals; a definition's own words
count for every rule that uses it (transitively). This is for the rulebook's cross-references
only: the rule language's own checker (`interpreter.dsl`) is what decides what a name means.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from interpreter.variant.schema import SNIPPET_FIELDS, VariantModel

_STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
_WORD = re.compile(r"(?<![\w.])(options\s*\.\s*)?([A-Za-z_]\w*)")


def definition_name(key: str) -> str:
    """`"blot(h)"` → `blot`."""
    return key.split("(", 1)[0].strip()


def _words(text: str) -> tuple[set[str], set[str]]:
    """(plain names, option names) written in a snippet."""
    names: set[str] = set()
    options: set[str] = set()
    for m in _WORD.finditer(_STRING.sub(" ", text)):
        (options if m.group(1) else names).add(m.group(2))
    return names, options


@dataclass(frozen=True)
class Usage:
    """For each region, definition (by name) and option: the ids of the rules that read it."""

    regions: dict[str, list[str]]
    definitions: dict[str, list[str]]
    options: dict[str, list[str]]


def usage(model: VariantModel) -> Usage:
    defs = {definition_name(k): v for k, v in model.define.items()}
    direct = {name: _words(body) for name, body in defs.items()}

    def closure(names: Iterable[str], options: set[str]) -> tuple[set[str], set[str]]:
        seen: set[str] = set()
        opts = set(options)
        todo = [n for n in names if n in defs]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            more, more_opts = direct[name]
            opts |= more_opts
            todo += [n for n in more if n in defs and n not in seen]
        return seen, opts

    regions: dict[str, list[str]] = {name: [] for name in model.regions}
    definitions: dict[str, list[str]] = {name: [] for name in defs}
    options: dict[str, list[str]] = {name: [] for name in model.options}
    for rule_id, rule in model.rules.items():
        names: set[str] = set()
        opts: set[str] = set()
        for key in SNIPPET_FIELDS:
            text = getattr(rule, key, None)
            if isinstance(text, str):
                n, o = _words(text)
                names |= n
                opts |= o
        used_defs, opts = closure(names, opts)
        every = names | set().union(*(direct[d][0] for d in used_defs)) if used_defs else names
        for name in regions:
            if name in every:
                regions[name].append(rule_id)
        for name in used_defs:
            definitions[name].append(rule_id)
        for name in opts:
            if name in options:
                options[name].append(rule_id)
    return Usage(regions, definitions, options)
