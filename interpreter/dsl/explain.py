"""`tablier explain VARIANT RULE`: a rule as the file writes it and as the compiler wrote it.

For each snippet of the rule: the text of the file, the definitions and regions it uses, its
cost in the cost model against the budget, and the Python generated for it (the hook, and the
batch form the kernel or the engine calls: `filter_N` for a forbid rule, `each_N` for a prefer
rule or a per-play score). A roll's scoring rules are also written out together in the rule
set's `roll_items` function, which explain names but does not print.
"""
from __future__ import annotations

import difflib
from typing import Any

from interpreter.dsl import NEVER, RuleSet
from interpreter.dsl.compiler import END, FORBID, MOVE, HookInfo, hook_info
from interpreter.dsl.limits import COST_BUDGET
from interpreter.errors import TablierError


class UnknownRuleError(TablierError):
    """A rule id the variant does not have."""


_KEYS = ("when", "ways", "value", "minimize", "maximize")
#: the settings of each kind of rule shown with it
_SHOWN = {"score": ("on", "to", "simple", "doublet"), "forbid": ("on", "waive"),
          "prefer": ("order",), "end": ("on", "winner")}
#: the snippets of a stage rule of `[turn.stages]`
_STAGE_KEYS = ("when", "next", "to_opponent", "again")
#: the settings of a stage rule shown with it
_STAGE_SHOWN = {"optional": "the opponent may play the numbers passed, or not",
                "again_partial": "`again` is asked of a throw played in part too"}


def _hooks_of(rules: RuleSet, rule_id: str) -> list[Any]:
    out: list[Any] = []
    for r in (*rules.score_roll, *rules.score_play):
        if r.id == rule_id:
            out.append(r.fn)
    out += [fn for i, fn in rules.forbid if i == rule_id]
    out += [fn for i, fn in rules.forbid_move if i == rule_id]
    out += [fn for i, _m, fn in rules.prefer if i == rule_id]
    out += [fn for i, _w, fn in rules.end if i == rule_id]
    out += [fn for i, _w, fn in getattr(rules, "end_throw", ()) if i == rule_id]
    for i, when, value in rules.value:
        if i == rule_id:
            out += [when, value]
    return out


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line.strip() else line for line in text.splitlines())


def _snippet_text(value: Any) -> str:
    return str(value).strip("\n")


def explain_rule(model: Any, rules: RuleSet, rule_id: str) -> str:
    """The explanation of one rule of a loaded variant (its model and compiled rule set)."""
    table = getattr(model, "rules", None) or {}
    rule = table.get(rule_id)
    stages = getattr(getattr(model, "turn", None), "stages", None) or {}
    if rule is None and rule_id in stages:
        return _explain_stage(model, rules, rule_id, stages[rule_id])
    updates = getattr(getattr(model, "turn", None), "update", None) or {}
    if rule is None and rule_id in updates:
        return _explain_update(model, rules, rule_id, updates[rule_id])
    if rule is None:
        table = {**table, **stages, **updates}
        close = difflib.get_close_matches(rule_id, list(table), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownRuleError(f"the variant has no rule {rule_id!r}{hint} (its rules: "
                               f"{', '.join(sorted(table)) or 'none'})")
    lines = [f"rule {rule_id}: {getattr(rule, 'name', '')}", f"kind: {rule.kind}"]
    for extra in _SHOWN.get(rule.kind, ()):
        v = getattr(rule, extra, None)
        if v is not None:
            lines.append(f"{extra}: {v}")
    hooks = {info.key_path[-1]: (fn, info) for fn in _hooks_of(rules, rule_id)
             if (info := hook_info(fn)) is not None}
    never = any(fn is NEVER for fn in _hooks_of(rules, rule_id))
    for key in _KEYS:
        text = getattr(rule, key, None)
        if text is None or (key == "value" and rule.kind == "score"):
            continue
        lines += ["", f"{key} (as written):", _indent(_snippet_text(text))]
        if key in hooks:
            lines += _describe(model, *hooks[key])
    if not getattr(rule, "enabled", True):
        lines += ["", "disabled (`enabled = false`): nothing is compiled for it"]
    elif never or not hooks:
        lines += ["", "the file's options make it always false: no hook is compiled for it "
                  "(`--set` another choice of the option to see it compiled)"]
    return "\n".join(lines)


def _explain_stage(model: Any, rules: RuleSet, stage_id: str, stage: Any) -> str:
    """A stage rule of `[turn.stages]`: its snippets, each with what it uses, its cost and the
    Python generated for it."""
    lines = [f"stage rule {stage_id}: {getattr(stage, 'name', '')}", "kind: stage ([turn.stages])"]
    compiled = next((hooks for hooks in rules.stages if hooks[0] == stage_id), None)
    by_key = dict(zip(_STAGE_KEYS, compiled[1:])) if compiled is not None else {}
    for extra, meaning in _STAGE_SHOWN.items():
        if getattr(stage, extra, False):
            lines.append(f"{extra}: true ({meaning})")
    if getattr(stage, "moves", "any") == "bear_off":
        lines.append('moves: "bear_off" (the numbers passed may only unstack a pair or bear a '
                     'man off by the exact number)')
    for key in _STAGE_KEYS:
        text = getattr(stage, key, None)
        if text is None:
            continue
        lines += ["", f"{key} (as written):", _indent(_snippet_text(text))]
        fn = by_key.get(key)
        info = hook_info(fn) if fn is not None else None
        if info is not None:
            lines += _describe(model, fn, info, stage=True)
    if not getattr(stage, "enabled", True):
        lines += ["", "disabled (`enabled = false`): nothing is compiled for it"]
    elif compiled is None:
        lines += ["", "the file's options make `when` always false: no hook is compiled for it"]
    return "\n".join(lines)


def _explain_update(model: Any, rules: RuleSet, name: str, update: Any) -> str:
    """The update of a named state (`[turn.update]`): its snippet, what it uses, its cost and
    the Python generated for it."""
    initial = (getattr(model.turn, "state", None) or {}).get(name)
    lines = [f"state update {name}: {getattr(update, 'name', '')}",
             "kind: state update ([turn.update]), after each play",
             f"initial value: {str(initial).lower() if isinstance(initial, bool) else initial}",
             "", "value (as written):", _indent(_snippet_text(update.value))]
    fn = next((hook for n, _s, _f, hook in rules.updates if n == name), None)
    info = hook_info(fn) if fn is not None else None
    if fn is not None and info is not None:
        lines += _describe(model, fn, info, stage=True)
    return "\n".join(lines)


def _describe(model: Any, fn: Any, info: HookInfo, stage: bool = False) -> list[str]:
    out: list[str] = []
    defines = getattr(model, "define", None) or {}
    regions = getattr(model, "regions", None) or {}
    if info.uses:
        out += ["definitions it uses:"]
        out += [_indent(f"{key} = {' '.join(_snippet_text(defines.get(key, '')).split())}")
                for key in info.uses]
    if info.regions:
        out += ["regions it uses:"]
        out += [_indent(f"{name} = {regions.get(name, '')}") for name in info.regions]
    runs = ""
    if info.candidates > 1:
        what = {FORBID: "path", MOVE: "move", END: "board"}.get(info.context, "play")
        runs = f", run once per {what} (up to {info.candidates:,} a throw)"
    steps = "step" if info.cost == 1 else "steps"
    out.append(f"cost: at most {info.cost:,} {steps} a throw{runs}; the file's budget is "
               f"{COST_BUDGET:,}")
    batch = info.emitted.batch_name
    names = f"hook_{info.index}" + (f", with {batch}" if batch else "")
    if info.context == "roll" and info.emitted.expr is not None and not stage:
        names += "; also written out in the rule set's roll_items"
    out += [f"generated Python ({names}):", _indent(info.source.rstrip("\n"))]
    return out
