"""The rulebook of a variant, generated from its file (after `extends` and `--set`).

`rulebook(ref, overrides)` loads a variant (a built-in id or a path) and returns the blocks of
`interpreter.rulebook.blocks`; `render_rulebook` writes them as Markdown or HTML. The sections,
in order: about (names, family, summary), sources, the board, the dice, the movement switches,
the rules (grouped by kind in the order the engine consults them), the regions and definitions
the rules use, the options, the ladder. A page may ask for some sections only (`sections=`),
with its headings at another level (`level=`): that is how `docs/variants/*.md` embed generated
parts (`interpreter.rulebook.pages`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import dataclasses
from pathlib import Path
import tomllib
from typing import Any

from pydantic import BaseModel

from interpreter.errors import TablierError
from interpreter.kernel.board import Geometry, from_start
from interpreter.rulebook.blocks import (
    Block,
    Code,
    Heading,
    Items,
    Para,
    Table,
    code,
    to_html,
    to_markdown,
)
from interpreter.rulebook.usage import Usage, definition_name, usage
from interpreter.scoring.registry import ladder_class
from interpreter.rulebook.words import applies, effect, toml_value
from interpreter.variant.schema import SNIPPET_FIELDS, Rule, VariantModel, choice_key

#: the sections of a rulebook, in order; `rule-table` is a compact form of `rules` for pages
SECTIONS = ("about", "sources", "board", "dice", "turn", "movement", "rules", "rule-table",
            "definitions", "options", "ladder")
DEFAULT_SECTIONS = tuple(s for s in SECTIONS if s != "rule-table")

#: the groups of rules, in the order the engine consults them on a turn
RULE_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("score-roll", "Scored on the roll",
     "`score` rules: marked after the roll and before the move, from the position before it; "
     "the roller's points first, then his opponent's."),
    ("forbid", "What may not be played",
     "`forbid` rules: a way of playing the roll that one of them matches is illegal."),
    ("prefer", "Obligations among the legal plays",
     "`prefer` rules, applied one after another in this order: each keeps, among the plays the "
     "previous ones kept, those it prefers."),
    ("score-play", "Scored on the play chosen",
     "`score` rules with `on = \"play\"`: marked once the play is chosen, from the positions "
     "before and after it."),
    ("end", "The end of the game", "`end` rules, after every play."),
    ("value", "What a game is worth",
     "`value` rules: a finished game is worth the highest value whose condition holds, else 1."),
)


@dataclass(frozen=True)
class Context:
    """What the rulebook compares a document with."""

    doc: Any                      # interpreter.variant.loader.VariantDoc
    #: the same file without `--set`, when overrides were given
    plain: VariantModel | None
    #: the family's reference variant (the built-in whose id is the family), if not this file
    family: VariantModel | None
    family_id: str | None


def _load_context(ref: str | Path, overrides: Sequence[str]) -> Context:
    from interpreter.resources import builtin_variant_path
    from interpreter.variant.loader import load_document

    # the values in effect: what the options' `[option_sets]` write, after `extends` and `--set`
    doc = effective(load_document(ref, overrides))
    plain = effective(load_document(ref)).model if overrides else None
    family_id = doc.model.variant.family
    family = None
    if family_id:
        path = builtin_variant_path(family_id)
        if path is not None and path.resolve() != doc.path:
            family = effective(load_document(family_id)).model
        elif path is not None and overrides:
            family = plain
    return Context(doc, plain, family, family_id if family is not None else None)


def effective(doc: Any) -> Any:
    """The document with each option's `[option_sets]` entry for its value written into the
    tables it sets, as the variant is played (interpreter.variant.build.apply_option_sets)."""
    from interpreter.variant.build import apply_option_sets

    model = apply_option_sets(doc.model)
    return doc if model is doc.model else dataclasses.replace(doc, model=model)


# -- small helpers -------------------------------------------------------------------------------

def _sentence(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text if not text or text[-1] in ".!?" else text + "."


def _pips_words(start: dict[int, int]) -> str:
    parts = [f"{n} on pip {p}" for p, n in sorted(start.items(), reverse=True) if n]
    if len(parts) == 1:
        return parts[0].replace(" on ", " checkers on ", 1) if not parts[0].startswith("1 ") \
            else parts[0].replace(" on ", " checker on ", 1)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def diagram(start: dict[int, int], route: str = "opposite", points: int = 24,
            black: dict[int, int] | None = None) -> str:
    """The starting position as a small board: the mover's checkers X, the opponent's O, pips
    numbered from the mover (the route's first pip, `points`, at the top left, pip 1 at the
    bottom left); the opponent's checkers stand where the route puts them, from `black` (his
    own layout, in his pips) when it differs from `start`."""
    try:
        board = Geometry(route, points=points).start_board(  # type: ignore[arg-type]
            start, other=black)
    except ValueError:                  # both sides on one point: the file's own problem
        board = from_start(start)

    def cell(p: int) -> str:
        n = board[p]
        return "." if n == 0 else (f"X{n}" if n > 0 else f"O{-n}")

    half = points // 2
    top, bottom = range(points, half, -1), range(1, half + 1)
    rows = [" ".join(f"{p:>3}" for p in top),
            " ".join(f"{cell(p):>3}" for p in top),
            " ".join(f"{cell(p):>3}" for p in bottom),
            " ".join(f"{p:>3}" for p in bottom)]
    return "\n".join(rows)


def _heading(level: int, text: str, anchor: str | None = None) -> Heading:
    return Heading(min(level, 6), text, anchor)


def _family_note(key: str, value: Any, family_table: BaseModel | None, ctx: Context,
                 info: Any) -> str:
    if family_table is None or ctx.family_id is None:
        return ""
    usual = getattr(family_table, key, None)
    if usual == value:
        return ""
    usual_effect = effect(info, usual)
    usual_effect = usual_effect[:1].lower() + usual_effect[1:]
    has = f"which has {code(toml_value(usual))}" if usual is not None else "which does not set it"
    return f" It differs from the family's own file, `{ctx.family_id}`, {has}: {usual_effect}"


def _set_note(path: tuple[str, ...], value: Any, ctx: Context) -> str:
    """Where a value in effect that `--set` changed comes from: the key itself, or the choice of
    an option whose `[option_sets]` entry sets it."""
    if ctx.plain is None:
        return ""
    node: Any = ctx.plain
    for part in path:
        node = node.get(part) if isinstance(node, dict) else getattr(node, part, None)
    if node == value:
        return ""
    said = f"the file says {code(toml_value(node))}"
    model = ctx.doc.model
    # the last option whose chosen entry sets the key wins (`apply_option_sets`)
    for name, per in reversed(list((model.option_sets or {}).items())):
        chosen = model.options.get(name)
        if path[-1] in ((per.get(choice_key(chosen)) or {}).get(path[0]) or {}):
            if chosen != ctx.plain.options.get(name):
                return (f" (set by the option {code(name)} = {code(toml_value(chosen))}, "
                        f"chosen with `--set`; {said})")
            break
    return f" (set by `--set`; {said})"


# -- the sections --------------------------------------------------------------------------------

def _about(ctx: Context, level: int) -> list[Block]:
    model = ctx.doc.model
    info = model.variant
    title = f"{info.name or info.id or 'Variant'}"
    out: list[Block] = [_heading(level - 1 if level > 1 else 1,
                                 f"{title} ({code(info.id)})" if info.id else title)]
    if info.summary:
        out.append(Para(_sentence(info.summary)))
    rows = []
    if info.aliases:
        rows.append(("also called", ", ".join(info.aliases)))
    if info.family:
        rows.append(("family", info.family))
    chain = [_file_name(p) for p in ctx.doc.chain]
    rows.append(("file", code(chain[0])))
    if len(chain) > 1:
        rows.append(("built on", " ← ".join(code(c) for c in chain[1:])
                     + " (`extends`: what this file does not say comes from there)"))
    known = {"id", "name", "aliases", "family", "sources", "summary", "abstract"}
    for key, field_info in type(info).model_fields.items():
        value = getattr(info, key)
        if key not in known and value not in (None, [], {}):
            rows.append((key, f"{code(toml_value(value))} ({field_info.description or ''})"))
    if model.remove_rules:
        rows.append(("removes", ", ".join(code(r) for r in model.remove_rules)
                     + " (rules of the file it builds on)"))
    if model.is_abstract:
        rows.append(("abstract", "a base for other files; it cannot be played by itself"))
    if ctx.doc.overrides:
        rows.append(("changed for this rulebook",
                     ", ".join(code("--set " + o) for o in ctx.doc.overrides)))
    out.append(Items(tuple(f"**{label}**: {text}" for label, text in rows)))
    return out


def _file_name(path: Path) -> str:
    from interpreter.resources import variants_dir

    try:
        return "variants/" + str(path.resolve().relative_to(variants_dir().resolve()))
    except (ValueError, FileNotFoundError):
        return str(path)


def _sources(ctx: Context, level: int) -> list[Block]:
    sources = ctx.doc.model.variant.sources
    out: list[Block] = [_heading(level, "Sources")]
    out.append(Items(tuple(sources)) if sources else Para("The file names no source."))
    seen = set(sources)
    for path in ctx.doc.chain[1:]:
        more = [s for s in _file_sources(path) if s not in seen]
        if more:
            seen.update(more)
            out.append(Para(f"And those of {code(_file_name(path))}, which this file builds on:"))
            out.append(Items(tuple(more)))
    return out


def _file_sources(path: Path) -> list[str]:
    """The `variant.sources` a file of the chain writes itself (it loaded once already)."""
    try:
        info = tomllib.loads(path.read_text(encoding="utf-8")).get("variant", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    sources = info.get("sources", []) if isinstance(info, dict) else []
    return [s for s in sources if isinstance(s, str)] if isinstance(sources, list) else []


def _board(ctx: Context, level: int) -> list[Block]:
    board = ctx.doc.model.board
    out: list[Block] = [_heading(level, "The board")]
    if board.checkers is None:
        return out + [Para("The file does not say how many checkers each player has.")]
    start = board.start_pips()
    side = getattr(board, "black", None)
    black = side.start_pips() if side is not None else None
    points = getattr(board, "points", None) or 24
    text = f"Each player has {board.checkers} checker{'s' if board.checkers != 1 else ''}."
    if start and black is not None:
        text += (f" White starts with {_pips_words(start)}; black with {_pips_words(black)}; "
                 f"each counting pips from his own side: pip {points} is the first point of "
                 f"his route, pip 1 the last.")
    elif start:
        text += (f" Each starts with {_pips_words(start)}, counting pips from his own side: "
                 f"pip {points} is the first point of his route, pip 1 the last.")
    route = getattr(getattr(ctx.doc.model, "movement", None), "route", "opposite")
    if points != 24:
        mirror = {"opposite": f"the opponent's pip q is the mover's pip {points + 1} − q",
                  "shared": "the opponent's pip q is the mover's pip q"}.get(route)
        text += (f" The route has {points} points, not 24: where the switches below speak of "
                 f"a board of 24 points (pip 25 − d, 25 − q, pips 19..24), read them on this "
                 f"route" + (f" ({mirror})." if mirror else "."))
    out.append(Para(text))
    if side is not None and side.state:
        out.append(Para("Black's own initial values of the named state (`[turn.state]`): "
                        + ", ".join(code(f"{k} = {toml_value(v)}") for k, v in side.state.items())
                        + "."))
    if start or black:
        out.append(Para("The start seen from white, the first side (X; black is O):"
                        if black is not None else
                        "The start seen from the player on roll (X; his opponent is O):"))
        out.append(Code(diagram(start or {}, route, points, black)))
    others = [(k, i) for k, i in type(board).model_fields.items()
              if k not in ("checkers", "start", "black")]
    if others:
        out.append(Items(tuple(_switch_item(board, "board", k, i, ctx) for k, i in others)))
    return out


def _switch_item(table: BaseModel, name: str, key: str, info: Any, ctx: Context) -> str:
    """One key of a table in words: its value and what the value does."""
    value = getattr(table, key)
    head = code(f"{key} = {toml_value(value)}") if value is not None else f"{code(key)} (not set)"
    family = getattr(ctx.family, name, None) if ctx.family is not None else None
    return (f"{head}: {effect(info, value)}{_set_note((name, key), value, ctx)}"
            f"{_family_note(key, value, family, ctx, info)}")


def _switches(ctx: Context, level: int, table: str, title: str,
              intro: str | None = None) -> list[Block]:
    model = ctx.doc.model
    current: BaseModel = getattr(model, table)
    items, idle = [], []
    for key, info in type(current).model_fields.items():
        value = getattr(current, key)
        active, why = applies(info, current)
        if not active:
            head = code(f"{key} = {toml_value(value)}") if value is not None else \
                f"{code(key)} (not set)"
            idle.append(f"{head} ({why})")
            continue
        items.append(_switch_item(current, table, key, info, ctx))
    out: list[Block] = [_heading(level, title)]
    if intro:
        out.append(Para(intro))
    out.append(Items(tuple(items)))
    if idle:
        out.append(Para("Without effect in this variant: " + "; ".join(idle) + "."))
    return out


def _grouped_rules(model: VariantModel
                   ) -> list[tuple[tuple[str, str, str], list[tuple[str, Rule]]]]:
    ordered = sorted(model.rules.items(), key=lambda kv: kv[1].order or 0)
    groups = []
    for group in RULE_GROUPS:
        name = group[0]
        members = [(rid, r) for rid, r in ordered
                   if (r.kind == "score" and name == ("score-play" if r.on == "play"
                                                      else "score-roll"))
                   or (r.kind != "score" and r.kind == name)]
        groups.append((group, members))
    return groups


def _points(rule: Rule) -> str:
    """What a score rule gives, and to whom."""
    to = "his opponent" if rule.to == "opponent" else "the player who threw"
    simple, doublet = rule.simple, rule.doublet
    if simple is None and doublet is None and rule.value is not None:
        amount = f"`{' '.join(rule.value.split())}` points"
    else:
        simple = simple if simple is not None else 1
        doublet = doublet if doublet is not None else simple
        amount = (f"{simple} point{'s' if simple != 1 else ''}" if simple == doublet else
                  f"{simple} points on a simple roll, {doublet} on a doublet")
    if rule.ways is not None:
        count = ", for each way `ways` counts"
    elif rule.when is not None:
        count = ", once, when `when` holds"
    else:
        count = ", on every throw"
    return f"{amount}{count}, to {to}"


#: when an end rule with `on` is judged, in words
_END_ON = {
    "move": "after each single move, so that the game may end in the middle of a throw (the "
            "play then counts as using every number)",
    "throw": "on the throw, before it is played, reading its dice, `unplayed` and the "
             "position before it (where it holds, nothing is played)",
}

_END_ON_SHORT = {"move": "Judged after each single move (`on = \"move\"`)",
                 "throw": "Judged on the throw, before it is played (`on = \"throw\"`)"}


def _short_points(rule: Rule) -> str:
    """`4 / 6 per way`, `2`, or the `value` expression."""
    if rule.simple is None and rule.doublet is None and rule.value is not None:
        amount = code(" ".join(rule.value.split()))
    else:
        simple = rule.simple if rule.simple is not None else 1
        doublet = rule.doublet if rule.doublet is not None else simple
        amount = str(simple) if simple == doublet else f"{simple} / {doublet}"
    return amount + (" per way" if rule.ways is not None else "")


def _rule_facts(rule_id: str, rule: Rule, position: int, of: int) -> list[str]:
    facts = [f"kind: {code(rule.kind)}" + (f", {code('on = ' + toml_value(rule.on))}"
                                           if rule.kind == "score" else "")]
    if rule.kind == "score":
        facts.append("points: " + _points(rule))
    if rule.kind == "end":
        facts.append("winner: " + ("the opponent of the player who made the play"
                                   if rule.winner == "opponent" else "nobody: a draw"
                                   if rule.winner == "none" else "the player who made the play"))
        if rule.on in _END_ON:
            facts.append(f"judged: {_END_ON[rule.on]} ({code('on = ' + toml_value(rule.on))})")
    if rule.order is not None or of > 1:
        facts.append(f"order: {position} of {of} in its group"
                     + (f" (`order = {rule.order}`)" if rule.order is not None else
                        " (the order of the file)"))
    if rule.source:
        facts.append("source: " + " ".join(rule.source.split()))
    if not rule.enabled:
        facts.append("**switched off** (`enabled = false`): the engine does not consult it")
    return facts


def _snippets(rule: Rule) -> str:
    lines = []
    for key in SNIPPET_FIELDS:
        text = getattr(rule, key, None)
        if text is None:
            continue
        body = text.strip("\n")
        lines.append(f'{key} = """{body}"""' if "\n" in body else f"{key} = {toml_value(body)}")
    for key in ("simple", "doublet", "to", "winner"):
        value = getattr(rule, key)
        if value is not None:
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines)


def _turn(ctx: Context, level: int) -> list[Block]:
    """The stage rules of `[turn.stages]` and the named state of `[turn.state]` (nothing for
    a variant without either)."""
    turn = getattr(ctx.doc.model, "turn", None)
    stages = getattr(turn, "stages", None) or {}
    state = getattr(turn, "state", None) or {}
    choices = getattr(turn, "choose", None) or {}
    if not stages and not state and not choices:
        return []
    out: list[Block] = [_heading(level, "The turn")]
    if state:
        out += _state(turn, level + 1, ctx)
    if choices:
        out += _choices(choices, level + 1)
    if not stages:
        return out
    out.append(Para(
        "Stage rules: after a throw or stage that a rule's `when` holds of is played in full, "
        "the same player plays a stage of the doublet `next`, judged as a throw of its own "
        "(it is no throw of his: `rolls` does not change; outside 1..6, or without `next`, "
        "none follows). The numbers a governed throw or stage leaves unplayed are lost, or, "
        "where `to_opponent` holds, played by the opponent before his own throw (a doublet's "
        "rest as moves of its number, two different numbers as a throw of their own), with "
        "the stages after them; once no stage follows one played in full, the same player "
        "throws again where `again` holds."))
    for stage_id, stage in stages.items():
        out.append(_heading(level + 1, f"{code(stage_id)}: {stage.name}", "stage-" + stage_id))
        if stage.description:
            out.append(Para(_sentence(stage.description)))
        facts = []
        if stage.source:
            facts.append(f"Source: {' '.join(stage.source.split())}.")
        if not stage.enabled:
            facts.append("**Switched off** (`enabled = false`).")
        if facts:
            out.append(Items(tuple(facts)))
        lines = []
        for key in ("when", "next", "to_opponent", "again"):
            text = getattr(stage, key, None)
            if text is not None:
                body = text.strip("\n")
                lines.append(f'{key} = """{body}"""' if "\n" in body else
                             f"{key} = {toml_value(body)}")
        if getattr(stage, "optional", False):
            lines.append("optional = true")
        if getattr(stage, "moves", "any") == "bear_off":
            lines.append('moves = "bear_off"')
        out.append(Code("\n".join(lines), "toml"))
        if getattr(stage, "optional", False) and stage.to_opponent is not None:
            out.append(Para("`optional = true`: the opponent may play the numbers passed to "
                            "him, any of them in any order, or none; a position of that stage "
                            "writes them as a plain list (`\"state\": {\"passed\": [5, "
                            "4]}`), and its results include the unchanged position."))
        if getattr(stage, "moves", "any") == "bear_off" and stage.to_opponent is not None:
            out.append(Para("`moves = \"bear_off\"`: the numbers passed to the opponent may "
                            "only unstack one of his pairs still stacked (while he has one, "
                            "`board.stacked`) or bear one of his men off by the exact number; "
                            "they never move a man along the route."))
    return out


def _choices(choices: dict[str, Any], level: int) -> list[Block]:
    """The choices made before the first throw of each game (`[turn.choose]`)."""
    out: list[Block] = [_heading(level, "Choices made before the game", "turn-choose"), Para(
        "Before the first throw of each game, the winner of the opening throw makes each "
        "choice; it sets the named state of the same name for both sides, for the whole game. "
        "He answers with one of the words, which sets his value and his opponent's (a pip in "
        "each one's own pips).")]
    for name, choice in choices.items():
        out.append(_heading(level + 1, f"{code(name)}: {choice.name}", "choose-" + name))
        if choice.description:
            out.append(Para(_sentence(choice.description)))
        theirs = choice.theirs or choice.values
        labels = choice.labels or [str(v) for v in choice.values]
        span = getattr(choice, "span", None)

        def shown(v: int) -> str:
            return f"{v} (pips {v}..{v + span - 1})" if span else str(v)
        out.append(Table(("answer", f"his {name}", f"his opponent's {name}"), tuple(
            (code(label), shown(mine), shown(other))
            for label, mine, other in zip(labels, choice.values, theirs))))
        if span:
            out.append(Para(f"`span = {span}`: the choice is a run of {span} points from the "
                            f"value chosen, and a position (JSON) writes it as the mover's "
                            f"first and last pips, `\"state\": {{\"{name}\": [{choice.values[0]}, "
                            f"{choice.values[0] + span - 1}]}}`."))
        if choice.source:
            out.append(Items((f"Source: {' '.join(choice.source.split())}.",)))
    return out


def _state(turn: Any, level: int, ctx: Context | None = None) -> list[Block]:
    """The named state (`[turn.state]`) and how each value changes (`[turn.update]`)."""
    out: list[Block] = [_heading(level, "State kept across turns", "turn-state"), Para(
        "Each player has his own value of each name, which starts afresh with each game; the "
        "rules read the mover's under its name, and after each play the mover's changes as "
        "its update says (read like a forbid rule of the play chosen, with the values before "
        "the play). Position JSON gives them as `\"state\": {\"NAME\": [mover, opponent]}`.")]
    items = []
    side = getattr(ctx.doc.model.board, "black", None) if ctx is not None else None
    black_state = (side.state or {}) if side is not None else {}
    for name, initial in turn.state.items():
        up = turn.update.get(name)
        kind = "true or false" if isinstance(initial, bool) else "a count from 0 to 1000"
        text = f"{code(name)} ({kind}), at first {code(toml_value(initial))}"
        if name in black_state:
            text += f" (black's: {code(toml_value(black_state[name]))}, `[board.black] state`)"
        chosen = name in (getattr(turn, "choose", None) or {})
        if up is None:
            text += ("; the choice made before the game sets it (below), no update changes it."
                     if chosen else "; no update sets it.")
        else:
            text += f": {up.name}. {_sentence(up.description) if up.description else ''}"
            if up.source:
                text += f" Source: {' '.join(up.source.split())}."
            text += f" New value: {code(' '.join(up.value.split()))}."
        items.append(" ".join(text.split()))
    out.append(Items(tuple(items)))
    return out


def _rules(ctx: Context, level: int) -> list[Block]:
    model = ctx.doc.model
    out: list[Block] = [_heading(level, "The rules")]
    if not model.rules:
        return out + [Para("The file states no rule.")]
    out.append(Para("Each rule has an id (what `tablier score` reports and what an extending "
                    "file names to change or remove it), a name, a kind and conditions in the "
                    "rule language. The groups come in the order the engine consults them on a "
                    "turn."))
    for (_key, title, words), members in _grouped_rules(model):
        if not members:
            continue
        out += [_heading(level + 1, title), Para(words)]
        for i, (rule_id, rule) in enumerate(members, 1):
            out.append(_heading(level + 2, f"{code(rule_id)}: {rule.name}", "rule-" + rule_id))
            if rule.description:
                out.append(Para(_sentence(rule.description)))
            out.append(Items(tuple(_rule_facts(rule_id, rule, i, len(members)))))
            text = _snippets(rule)
            if text:
                out.append(Code(text, "toml"))
    return out


def _rule_table(ctx: Context, level: int) -> list[Block]:
    model = ctx.doc.model
    out: list[Block] = [_heading(level, "The rules")]
    for (_key, title, words), members in _grouped_rules(model):
        if not members:
            continue
        out += [_heading(level + 1, title), Para(words)]
        scored = any(r.kind == "score" for _, r in members)
        if scored:
            out.append(Para("Points are those of a simple roll / a doublet, to the player who "
                            "threw (roller) or to his opponent."))
        header = ("id", "name", "to", "points", "what it does", "source") if scored else \
            ("id", "name", "what it does", "source")
        rows = []
        for rule_id, rule in members:
            what = _sentence(rule.description) + ("" if rule.enabled else " **Switched off.**")
            if rule.kind == "end" and rule.on in _END_ON:
                what = f"{_END_ON_SHORT[rule.on]}: {what[:1].lower()}{what[1:]}"
            row = [code(rule_id), rule.name]
            if scored:
                row += ["opponent" if rule.to == "opponent" else "roller", _short_points(rule)]
            rows.append(tuple(row + [what, " ".join((rule.source or "").split())]))
        out.append(Table(header, tuple(rows)))
    return out


def _definitions(ctx: Context, level: int) -> list[Block]:
    model = ctx.doc.model
    used: Usage = usage(model)
    out: list[Block] = [_heading(level, "Regions and definitions")]
    regions = [(n, t) for n, t in model.regions.items() if used.regions[n]]
    defs = [(k, v) for k, v in model.define.items() if used.definitions[definition_name(k)]]
    if not regions and not defs:
        return out + [Para("The rules use no named region or definition.")]
    if regions:
        out.append(Para("`[regions]`: named sets of pips, counted from the player concerned."))
        out.append(Table(("region", "pips", "read by"), tuple(
            (code(n), code(t), ", ".join(code(r) for r in used.regions[n]))
            for n, t in regions)))
    if defs:
        out.append(Para("`[define]`: definitions, expanded where the rules use them."))
        out.append(Table(("definition", "means", "read by"), tuple(
            (code(k), code(" ".join(v.split())),
             ", ".join(code(r) for r in used.definitions[definition_name(k)]))
            for k, v in defs)))
    unused = [n for n, r in used.regions.items() if not r] + \
        [k for k, _ in model.define.items() if not used.definitions[definition_name(k)]]
    if unused:
        out.append(Para("Declared but read by no rule: " + ", ".join(code(n) for n in unused)
                        + "."))
    return out


def _options(ctx: Context, level: int) -> list[Block]:
    model = ctx.doc.model
    out: list[Block] = [_heading(level, "Options")]
    if not model.options:
        return out + [Para("The file declares no house-rule option.")]
    used = usage(model).options
    out.append(Para("House rules the file declares: `--set NAME=VALUE` (strings in quotes) or a "
                    "file that extends this one chooses another value."))
    plain_options = ctx.plain.options if ctx.plain is not None else model.options
    for name, value in model.options.items():
        described = model.option_descriptions.get(name)
        out.append(_heading(level + 1, code(f"{name} = {toml_value(value)}"), "option-" + name))
        out.append(Para(_sentence(described.about) if described is not None
                        else "The file does not describe this option."))
        choices = model.option_choices.get(name)
        if choices is None and isinstance(value, bool):
            choices = [True, False]
        items = []
        for choice in choices or [value]:
            marks = []
            if type(choice) is type(value) and choice == value:
                marks.append("current")
            if name in plain_options and type(choice) is type(plain_options[name]) \
                    and choice == plain_options[name] and ctx.plain is not None \
                    and plain_options[name] != value:
                marks.append("the file's value")
            words = described.choices.get(choice_key(choice)) if described is not None else None
            head = code(toml_value(choice)) + (f" ({', '.join(marks)})" if marks else "")
            items.append(f"{head}: {_sentence(words)}" if words else head)
        out.append(Items(tuple(items)))
        if used.get(name):
            out.append(Para("Read by " + ", ".join(code(r) for r in used[name]) + "."))
        sets = (getattr(model, "option_sets", None) or {}).get(name)
        if sets:
            out.append(Para("Sets, for each choice: " + "; ".join(
                f"{code(toml_value(choice) if isinstance(value, str) else choice)}: " + ", ".join(
                    code(f"{table}.{key} = {toml_value(v)}")
                    for table, values in tables.items() for key, v in values.items())
                for choice, tables in sets.items()) + "."))
    return out


def _ladder(ctx: Context, level: int) -> list[Block]:
    ladder = ctx.doc.model.ladder
    out: list[Block] = [_heading(level, "The ladder")]
    if ladder is None:
        return out + [Para("No `[ladder]`: the file says nothing of how games are scored above "
                           "the board (a base for other files).")]
    fields = type(ladder).model_fields
    kind_info = fields.get("kind")
    kind = getattr(ladder, "kind", "?")
    words = kind_info.description if kind_info is not None and kind_info.description else ""
    out.append(Para(f"`[ladder] kind = {toml_value(kind)}`: {_sentence(words)} Each key can be "
                    f"changed with `--set ladder.KEY=VALUE`."))
    rows = []
    for key, info in fields.items():
        if key == "kind":
            continue
        value = getattr(ladder, key)
        default = info.get_default(call_default_factory=True)
        # a key without a default (a rotation's `games`) is stated, never "changed from" one
        note = "" if value == default or info.is_required() else \
            f" (default {code(toml_value(default))})"
        note += _set_note(("ladder", key), value, ctx) if ctx.plain is not None and \
            ctx.plain.ladder is not None and key in type(ctx.plain.ladder).model_fields else ""
        meaning = _sentence(info.description)
        rows.append((code(key), code(toml_value(value)) + note, meaning[:1].upper() + meaning[1:]))
    if rows:
        out.append(Table(("key", "value", "meaning"), tuple(rows)))
    return out


_BUILDERS = {
    "about": _about, "sources": _sources, "board": _board,
    "dice": lambda ctx, level: _switches(ctx, level, "dice", "The turn: the dice",
                                         "The keys of `[turn]` that say how the dice are "
                                         "thrown and played (older files write them in "
                                         "`[dice]`)."),
    "turn": _turn,
    "movement": lambda ctx, level: _switches(ctx, level, "movement", "Movement"),
    "rules": _rules, "rule-table": _rule_table, "definitions": _definitions,
    "options": _options, "ladder": _ladder,
}


def rulebook(ref: str | Path, overrides: Sequence[str] = (), *,
             sections: Sequence[str] = (), level: int = 2) -> list[Block]:
    """The blocks of the rulebook of a variant (a built-in id or a path) with `--set`
    overrides; `sections` (default: all but `rule-table`) and the heading `level` of each
    section."""
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise TablierError(f"unknown section {unknown[0]!r}; the sections are "
                           f"{', '.join(SECTIONS)}")
    if not 1 <= level <= 5:
        raise TablierError(f"the heading level must be from 1 to 5, not {level}")
    ctx = _load_context(ref, overrides)
    out: list[Block] = []
    rotation = ladder_class(ctx.doc.model.ladder).plays_games
    for name in sections or DEFAULT_SECTIONS:
        if rotation and name in _GAME_SECTIONS:
            # a rotation has no board, dice, movement nor rules of its own: its games have
            if name == "board" or name == "rules" and "board" not in (sections or
                                                                        DEFAULT_SECTIONS):
                out += _games(ctx, level)
            continue
        out += _BUILDERS[name](ctx, level)
    return out


#: the sections that describe one game's board and rules (a rotation's games have them)
_GAME_SECTIONS = frozenset({"board", "dice", "turn", "movement", "rules", "rule-table",
                            "definitions"})


def _games(ctx: Context, level: int) -> list[Block]:
    """The games of a rotation, in the order they are played."""
    games = list(getattr(ctx.doc.model.ladder, "games", ()))
    out: list[Block] = [_heading(level, "The games")]
    out.append(Para("The file has no board of its own: each game of the match is played with "
                    "the board, rules, values and options of its own variant file, in this "
                    "order, then again from the first (see each game's own rulebook, "
                    "`tablier rules GAME`):"))
    out.append(Items(tuple(f"game {i + 1}: {code(g)}" for i, g in enumerate(games))))
    return out


def render_rulebook(ref: str | Path, overrides: Sequence[str] = (), *, fmt: str = "markdown",
                    sections: Sequence[str] = (), level: int = 2) -> str:
    blocks = rulebook(ref, overrides, sections=sections, level=level)
    if fmt == "html":
        title = next((b.text for b in blocks if isinstance(b, Heading)), "Rulebook")
        return to_html(blocks, title.replace("`", ""))
    return to_markdown(blocks)
