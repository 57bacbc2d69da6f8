"""Answers about single positions: the legal plays of a roll (`tablier moves`) and what a roll
scores (`tablier score`). Positions are the JSON objects of spec/INTERFACES.md."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from interpreter.bounded import in_range, shown
from interpreter.dsl import NEVER, RollContext, points_by_side
from interpreter.errors import PositionError
from interpreter.kernel.board import Board
from interpreter.kernel.throws import STAGE_OF, STAGES, numbers_left


#: the largest throw count (`rolls`) and set-up count (`state.setup`) a position may give
MAX_THROWS = 1_000_000


@dataclass(frozen=True)
class RollPosition:
    board: Board
    d1: int
    d2: int
    rolls: int
    state: dict
    #: the third die of a three-dice variant's throw (0: none)
    d3: int = 0


def read_position(variant: Any, obj: Any, need_dice: bool = True) -> RollPosition:
    """Validate a position object for `variant`; raise PositionError naming the fault.

    The variant's geometry reads `pins` and the unentered checkers (implicit, or
    `state.unentered`); `state.stage` names a stage of a bonus throw ("doublet", "complement")."""
    layout = variant.geometry
    if isinstance(obj, dict):
        obj = _spans_read(variant, obj)
    if _unplaced(variant) == "off" and not layout.pool \
            and isinstance(obj, dict):
        obj = _unplaced_off(layout, obj, variant.checkers)
    b = layout.from_json(obj, variant.checkers)
    slots = layout.slots if layout.wide else range(25)
    bad = [p for p in range(1, len(slots)) if not -variant.checkers <= b[slots[p]]
           <= variant.checkers]
    if bad:
        raise PositionError(f"pip {bad[0]} holds {b[slots[bad[0]]]} checkers")
    rules = variant.move_rules
    if rules.enter != "bar" and (b[25] or b[26]):
        raise PositionError(f"{variant.name} has no bar: 'bar' must be [0, 0], not "
                            f"{[b[25], b[26]]!r}")
    for p in range(1, rules.off_pip + 1):
        # a man that reaches these pips is borne off: the mover's never stand there, nor the
        # opponent's on the mirror pips
        q = layout.their_pip(p)
        if b[p] > 0 or b[q] < 0:
            who, pip = ("the mover's", p) if b[p] > 0 else ("the opponent's", q)
            raise PositionError(f"{who} checkers cannot stand on pip {pip}: reaching it bears "
                                f"them off")
    dice = obj.get("dice")
    d1 = d2 = d3 = 0
    n = variant.dice_count
    # a third die fixed before the game (`[turn] fixed_die`): the dice are the two thrown
    fixed = variant.fixed_third(b) if getattr(variant, "fixed_slot", 0) else 0
    if fixed:
        n = 2
    stated = obj.get("state")
    # numbers passed on that the player may decline are the stage's dice: none are thrown
    may_decline = isinstance(stated, dict) and stated.get("passed") is not None \
        and _optional_rule(variant) is not None
    if dice is not None or (need_dice and not may_decline):
        if not (isinstance(dice, list) and len(dice) == n
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                        for d in dice)):
            raise PositionError(f"'dice' must be {'two' if n == 2 else 'three'} numbers from 1 "
                                f"to 6, not {shown(dice)}")
        d1, d2 = dice[0], dice[1]
        d3 = dice[2] if n == 3 else fixed
    rolls = obj.get("rolls", 1)
    if not in_range(rolls, 1, MAX_THROWS):
        raise PositionError(f"'rolls' must be a whole number from 1 to {MAX_THROWS:,}, not "
                            f"{shown(rolls)}")
    state = obj.get("state") or {}
    if not isinstance(state, dict):
        raise PositionError(f"'state' must be an object, not {shown(state)}")
    setup = state.get("setup", 1)
    if not in_range(setup, 1, MAX_THROWS):
        raise PositionError(f"'state.setup' must be a whole number from 1 to {MAX_THROWS:,}, not "
                            f"{shown(setup)}")
    stage = state.get("stage")
    if stage is not None:
        stages = [STAGE_OF[s] for s in variant.throws.bonus if STAGE_OF[s] in STAGES]
        stages += [rule.id for rule in variant.throws.stages]
        if stage not in stages:
            known = f"one of {stages!r}" if stages else "absent: this variant has no bonus throw"
            raise PositionError(f"'state.stage' must be {known}, not {shown(stage)}")
        if (dice is not None or need_dice) and d1 != d2:
            raise PositionError(f"at the {stage!r} stage the dice are a doublet, not "
                                f"{shown(dice)}")
    passed = state.get("passed")
    optional = _optional_rule(variant, b)
    if passed is not None and optional is not None:
        third = passed_three(passed) if n == 3 else None
        # (a throw of three passes at most its three numbers)
        most = min(3, rules.doublet_moves) if n == 3 else rules.doublet_moves
        numbers = optional_numbers(passed, most) if third is None \
            else (third[0], third[1], 3)
        if numbers is None:
            if n == 3:
                raise PositionError(f"'state.passed' must be the numbers passed on: one, two "
                                    f"or three numbers 1..6, not {shown(passed)}")
            raise PositionError(f"'state.passed' must be the numbers passed on: one or two "
                                f"numbers 1..6, or up to {most} of one number, not "
                                f"{shown(passed)}")
        if third is not None:
            if dice is not None and sorted(dice) != sorted(third):
                raise PositionError(f"with 'state.passed' {shown(passed)} the dice are "
                                    f"{list(third)!r}, not {shown(dice)}")
            d3 = third[2]
        elif dice is not None and sorted([d1, d2]) != sorted(numbers[:2]):
            raise PositionError(f"with 'state.passed' {shown(passed)} the dice are "
                                f"[{numbers[0]}, {numbers[1]}], not {shown(dice)}")
        else:
            d3 = 0
        d1, d2 = numbers[0], numbers[1]
    elif passed is not None:
        if not variant.throws.stages:
            raise PositionError("'state.passed' must be absent: this variant has no stage "
                                "rule that passes numbers on")
        numbers = passed_numbers(passed, rules.doublet_moves)
        if numbers is None:
            raise PositionError(f"'state.passed' must be [number 1..6, moves 1.."
                                f"{rules.doublet_moves}], or [[a, 1], [b, 1]] for two different "
                                f"numbers, not {shown(passed)}")
        if (dice is not None or need_dice) and sorted([d1, d2]) != sorted(numbers[:2]):
            raise PositionError(f"with 'state.passed' {shown(passed)} the dice are "
                                f"[{numbers[0]}, {numbers[1]}], not {shown(dice)}")
        by = state.get("passed_by")
        passing = [r.id for r in variant.throws.stages if r.to_opponent is not None]
        if by is not None and by not in passing:
            raise PositionError(f"'state.passed_by' must be one of {passing!r} (the stage rules "
                                f"that pass numbers on), not {shown(by)}")
    return RollPosition(b, d1, d2, rolls, state, d3)


def _spans_read(variant: Any, obj: dict) -> dict:
    """`obj` with each state a choice writes as a run of points (`span`: the mover's [first,
    last]) turned into the pair of values the board holds (the mover's, the opponent's)."""
    state = obj.get("state")
    if not isinstance(state, dict):
        return obj
    changed = dict(state)
    for rule in getattr(variant, "choices", ()):
        pair = state.get(rule.name)
        if rule.same and pair is not None and not isinstance(pair, list):
            # one value for both sides (`"fixed_die": 4`)
            if not (in_range(pair, 0, 1000) and (pair == 0 or pair in rule.values)):
                raise PositionError(f"'state.{rule.name}' must be one of "
                                    f"{', '.join(map(str, rule.values))}, not {shown(pair)}")
            changed[rule.name] = [pair, pair]
            continue
        if not rule.span or pair is None:
            continue
        if not (isinstance(pair, list) and len(pair) == 2 and all(in_range(x, 1, 24)
                                                                  for x in pair)
                and pair[1] - pair[0] + 1 == rule.span and pair[0] in rule.values):
            firsts = ", ".join(f"[{v}, {v + rule.span - 1}]" for v in rule.values)
            raise PositionError(f"'state.{rule.name}' must be the mover's first and last "
                                f"pips, one of {firsts}, not {shown(pair)}")
        changed[rule.name] = [pair[0], rule.theirs[rule.values.index(pair[0])]]
    return {**obj, "state": changed}


def spans_written(variant: Any, out: dict) -> dict:
    """A position's JSON with each state a choice writes as a run of points given as the
    mover's [first, last] (`_spans_read` reads it back)."""
    state = out.get("state")
    for rule in getattr(variant, "choices", ()):
        if rule.span and isinstance(state, dict) and rule.name in state:
            lo = state[rule.name][0]
            state[rule.name] = [lo, lo + rule.span - 1]
        elif rule.same and isinstance(state, dict) and rule.name in state \
                and state[rule.name][0] == state[rule.name][1]:
            state[rule.name] = state[rule.name][0]
    choose = getattr(getattr(getattr(variant, "model", None), "turn", None), "choose",
                     None) or {}
    if choose and isinstance(state, dict):
        # a choice this variant does not ask (`only_if` a house option it does not take):
        # its state is not written while it keeps its initial value
        asked = {rule.name for rule in getattr(variant, "choices", ())}
        initial = {n: v for n, v, _f in variant.geometry.state}
        for name in choose:
            if name not in asked and state.get(name) == [initial.get(name)] * 2:
                del state[name]
    return out


def leaves_men_out(variant: Any) -> bool:
    """Whether the variant's positions leave out the men they do not place, borne off or still
    to enter (`[board] unplaced`): its `moves` lines then say what follows each result."""
    return _unplaced(variant) != "error"


def _unplaced(variant: Any) -> str:
    """`[board] unplaced` ("error" for a variant made again from its stored entry, which never
    holds another value)."""
    return getattr(getattr(variant.model, "board", None), "unplaced", "error")


def _unplaced_off(layout: Any, obj: dict, checkers: int) -> dict:
    """`obj` with each side's men that it does not place counted as borne off."""
    mine, theirs = layout.counts(layout.from_json(obj, None))
    if mine > checkers or theirs > checkers:
        return obj              # from_json names the fault
    off = obj.get("off", [0, 0])
    if not (isinstance(off, list) and len(off) == 2 and all(in_range(x, 0, checkers)
                                                               for x in off)):
        return obj
    return {**obj, "off": [off[0] + checkers - mine, off[1] + checkers - theirs]}


def _optional_rule(variant: Any, b: Board | None = None) -> Any:
    """The stage rule passing numbers the opponent may decline (`optional`), or that are his
    whole turn (`instead_of_throw`), if any: its passed numbers are written as a plain list
    (`"passed": [5, 4]`). Where the file has several, on `b` the first whose `to_opponent`
    holds there (a file whose options choose one: Laquet's `lq_passed`)."""
    found = [r for r in variant.throws.stages
             if r.to_opponent is not None and r.to_opponent is not NEVER
             and (getattr(r, "optional", False) or getattr(r, "instead_of_throw", False))]
    if len(found) > 1 and b is not None:
        ctx = RollContext(lambda: ([], 0))
        for r in found:
            try:
                if r.to_opponent(b, None, None, 0, 0, 1, ctx):
                    return r
            except Exception:       # a condition that reads the throw: not this position's
                continue
    return found[0] if found else None


def optional_numbers(passed: Any, most: int) -> tuple[int, int, int] | None:
    """The dice and moves of numbers passed on as a plain list: [a], [a, b] (two different
    numbers, once each) or up to `most` of one number; None when it is none of these."""
    if not (isinstance(passed, list) and 1 <= len(passed) <= max(2, most)
            and all(in_range(x, 1, 6) for x in passed)):
        return None
    if len(set(passed)) == 1:
        return (passed[0], passed[0], len(passed)) if len(passed) <= most else None
    if len(passed) == 2:
        return passed[0], passed[1], 2
    return None


def passed_three(passed: Any) -> tuple[int, int, int] | None:
    """Three numbers passed on as a plain list (a throw of three, Doblet), the highest first;
    None when `passed` is not three numbers 1..6."""
    if isinstance(passed, list) and len(passed) == 3 and all(in_range(x, 1, 6) for x in passed):
        a, b, c = sorted(passed, reverse=True)
        return a, b, c
    return None


def passed_numbers(passed: Any, most: int) -> tuple[int, int, int] | None:
    """The dice and moves of numbers passed on, as a position writes them (`state.passed`):
    [number, moves] (moves of one number, at most `most`), or [[a, 1], [b, 1]] (two different
    numbers, played as a throw of their own); None when it is neither."""
    if not isinstance(passed, list):
        return None
    if len(passed) == 2 and in_range(passed[0], 1, 6) and in_range(passed[1], 1, most):
        return passed[0], passed[0], passed[1]
    if (len(passed) == 2 and all(isinstance(x, list) and len(x) == 2 and in_range(x[0], 1, 6)
                                 and in_range(x[1], 1, 1) for x in passed)
            and passed[0][0] != passed[1][0]):
        return passed[0][0], passed[1][0], 2
    return None


def passed_json(d1: int, d2: int, moves: int) -> list:
    """Numbers passed on as a position writes them (`passed_numbers` reads them back)."""
    return [d1, moves] if d1 == d2 else [[d1, 1], [d2, 1]]


def stage_of(pos: RollPosition) -> str | None:
    return pos.state.get("stage")


def _context(variant: Any, pos: RollPosition) -> RollContext:
    """The roll context of a position: its plays on demand, its state, and how many times the
    men have been set up in the game (`state.setup`, 1 until the first relevé)."""
    gen = variant.generator
    b, d1, d2, rolls, d3 = pos.board, pos.d1, pos.d2, pos.rolls, pos.d3
    return RollContext(lambda: gen.throw_plays(b, d1, d2, d3, rolls), pos.state,
                       setup=pos.state.get("setup", 1))


def final_plays(variant: Any, pos: RollPosition) -> tuple[list, RollContext]:
    """The complete legal plays with every obligation applied (preferences included)."""
    b, d1, d2 = pos.board, pos.d1, pos.d2
    ctx = _context(variant, pos)
    plays = variant.rules.prefer_plays(b, ctx.plays, d1, d2, pos.rolls, ctx)
    return plays, ctx


def legal_results(variant: Any, obj: Any) -> dict[str, Any]:
    """The `tablier moves` line of one position: the distinct results, sorted; with a bonus
    throw, what follows them as "next" (kernel.throws)."""
    pos = read_position(variant, obj)
    rules = variant.rules
    if rules.end_move or rules.end_throw or _optional_rule(variant) is not None or (
            variant.dice_count == 3 and variant.throws.stages) or leaves_men_out(variant):
        return _results_with_ends(variant, pos)
    layout = variant.geometry
    to_json, sort_key = layout.to_json, layout.sort_key
    if variant.throws.bonus_throw is not None and not (rules.prefer or rules.score_play):
        plays, unplayed = variant.generator.plays(pos.board, pos.d1, pos.d2, pos.rolls)
        plays = sorted(plays, key=lambda p: sort_key(p.board))
        results = [to_json(p.board) for p in plays]
        nxt = variant.throws.next(stage_of(pos), pos.d1, pos.d2, unplayed)
        if all(p.board[0] == variant.checkers for p in plays):
            nxt = "end"             # the last checker is off: nothing follows
        elif nxt == "end":
            # no stage of the event follows: a doublet's own throw, where the file gives one
            return _rethrow(variant, pos, {"count": len(results), "results": results,
                                           "next": nxt}, [p.board for p in plays])
        return {"count": len(results), "results": results, "next": nxt}
    if variant.throws.stages and not (rules.prefer or rules.score_play):
        return _staged_results(variant, pos)
    if not (rules.prefer or rules.score_play):
        gen = variant.generator
        boards = gen.results(pos.board, pos.d1, pos.d2, pos.rolls, pos.d3) if pos.d3 else \
            gen.results(pos.board, pos.d1, pos.d2, *((pos.rolls,) if gen.reads_rolls else ()))
        boards = sorted(boards, key=sort_key)
        results = [to_json(b) for b in boards]
        return _rethrow(variant, pos, {"count": len(results), "results": results}, boards)
    plays, ctx = final_plays(variant, pos)
    if not plays:
        out = to_json(pos.board)
        if rules.score_play:
            out["score"] = {"mover": 0, "opponent": 0}
        return _rethrow(variant, pos, {"count": 1, "results": [out]}, [pos.board])
    rows = []
    plays = sorted(plays, key=lambda p: sort_key(p[0]))
    for play in plays:
        row: dict[str, Any] = to_json(play[0])
        if rules.score_play:
            items = rules.play_items(pos.board, play, pos.d1, pos.d2, pos.rolls, ctx)
            row["score"] = _totals(items)
        rows.append(row)
    return _rethrow(variant, pos, {"count": len(rows), "results": rows}, [p[0] for p in plays])


def _rethrow(variant: Any, pos: RollPosition, out: dict[str, Any],
             boards: list[Board]) -> dict[str, Any]:
    """`out` with what follows a throw after which no stage follows, in a variant whose
    doublets give another throw (`[turn] doublets = "twice_and_throw_again"` or
    `"four_and_throw_again"`), as the turn loop plays it: "next" is "reroll" after a doublet
    (the same player throws again; at his choice with `extra_throw = "optional"`), else "end";
    a result that ends the game says "next": "end" (`_ended`). Numbers passed on by the
    opponent give no throw. Other variants' lines are left as they are."""
    if not variant.throws.doublet_rethrow or pos.state.get("passed") is not None:
        return out
    out["next"] = "reroll" if pos.d1 == pos.d2 else "end"
    return _ended(variant, out, boards)


def _ended(variant: Any, out: dict[str, Any], boards: list[Board]) -> dict[str, Any]:
    """`out`, whose "next" says what follows the play, with "next": "end" where the play ends
    the game: on the line when every result does, else on each result that does."""
    if out.get("next", "end") == "end":
        return out
    ends = [_game_over(variant, b) for b in boards]
    if ends and all(ends):
        out["next"] = "end"
    else:
        for result, ended in zip(out["results"], ends):
            if ended:
                result["next"] = "end"
    return out


def _game_over(variant: Any, b: Board) -> bool:
    """Whether the play that reached `b` (seen by its player) ends the game: an `end` rule of
    the file holds, or, without end rules, the last of his checkers is off (where that ends
    the game: not where the men are set up again, `[board] all_off`)."""
    if variant.rules.end:
        return variant.rules.game_over(b) is not None
    return variant.all_off == "end" and b[0] == variant.checkers


def _totals(items: list[tuple[str, str, int, int]]) -> dict[str, int]:
    mover, opponent = points_by_side(items)
    return {"mover": mover, "opponent": opponent}


def roll_score(variant: Any, obj: Any) -> dict[str, Any]:
    pos = read_position(variant, obj)
    rules = variant.rules
    b, d1, d2 = pos.board, pos.d1, pos.d2
    ctx = _context(variant, pos)
    items = rules.roll_items(b, d1, d2, pos.rolls, ctx)
    if rules.score_play:
        result = obj.get("result")
        if result is None:
            raise PositionError("the points of this roll depend on the play: give the play "
                                "as \"result\" (one of the positions `tablier moves` lists)")
        target = variant.geometry.from_json(result, variant.checkers)
        plays = rules.prefer_plays(b, ctx.plays, d1, d2, pos.rolls, ctx)
        chosen = next((p for p in plays if p[0] == target), None)
        if chosen is None and not (not plays and target == b):
            raise PositionError("\"result\" is not a position that a legal play of this roll "
                                "reaches")
        if chosen is not None:
            items = items + rules.play_items(b, chosen, d1, d2, pos.rolls, ctx)
    out: dict[str, Any] = _totals(items)
    out["items"] = [{"rule": r, "to": to, "points": p, "ways": w} for r, to, p, w in items]
    return out


def _staged_results(variant: Any, pos: Any) -> dict[str, Any]:
    """The results of a throw or stage of a variant with stage rules (`[turn.stages]`), and what
    follows them: "next" is the id of the stage rule whose stage follows (played in full), or
    "passed" with "passed" (what goes to the opponent: [number, moves], or [[a, 1], [b, 1]];
    on each result instead when the results leave different numbers), or "end"."""
    gen = variant.generator
    layout = variant.geometry
    b, d1, d2 = pos.board, pos.d1, pos.d2
    passed = pos.state.get("passed")
    if passed is not None:
        numbers = passed_numbers(passed, variant.move_rules.doublet_moves)
        assert numbers is not None          # read_position checked it
        return _passed_results(variant, pos, numbers)
    plays, unplayed = gen.plays(b, d1, d2, pos.rolls)
    plays = sorted(plays, key=lambda p: layout.sort_key(p.board))
    results = [layout.to_json(p.board) for p in plays]
    out: dict[str, Any] = {"count": len(results), "results": results, "next": "end"}
    boards = [p.board for p in plays]
    if all(p.board[0] == variant.checkers for p in plays):
        return out                  # the last checker is off: nothing follows
    ctx = RollContext(partial(gen.plays, b, d1, d2, pos.rolls), pos.state)
    rule = variant.throws.stage_rule(b, d1, d2, pos.rolls, ctx)
    if rule is None:
        return _rethrow(variant, pos, out, boards)
    if unplayed:
        if rule.to_opponent is not None and rule.to_opponent(b, None, None, d1, d2, pos.rolls, ctx):
            out["next"] = "passed"
            if rule is not _passing_rule(variant, None):
                out["passed_by"] = rule.id
            left = [passed_json(*numbers_left(d1, d2, unplayed, p.paths[0] if p.paths else ()))
                    for p in plays]
            if all(x == left[0] for x in left):
                out["passed"] = left[0]
            else:
                for result, x in zip(results, left):
                    result["passed"] = x
            return out
        return _rethrow(variant, pos, out, boards)
    if rule.next is not None and 1 <= int(rule.next(b, None, None, d1, d2, pos.rolls, ctx)) <= 6:
        out["next"] = rule.id
    elif rule.again is not None and rule.again(b, None, None, d1, d2, pos.rolls, ctx):
        # no stage follows the throw played in full: the rule gives the same player another
        out["next"] = "reroll"
        return _ended(variant, out, boards)
    else:
        return _rethrow(variant, pos, out, boards)
    return out


def _passing_rule(variant: Any, rule_id: str | None) -> Any:
    """The stage rule that passed numbers on (`state.passed_by`), by default the first that
    may: it says what follows them."""
    return next((r for r in variant.throws.stages if r.to_opponent is not None
                 and rule_id in (None, r.id)), None)


def _passed_results(variant: Any, pos: Any, numbers: tuple[int, int, int]) -> dict[str, Any]:
    """Numbers passed on by the opponent (`state.passed`): the plays of that many moves of the
    number, or of two different numbers as a throw of their own, as many as can be played;
    then "passed" with the next stage's [number, moves] when all were played and the stage
    rule that passed them (`state.passed_by`, by default the first that may) gives one, else
    "throw" (the player's own throw follows)."""
    gen = variant.generator
    layout = variant.geometry
    b = pos.board
    d1, d2, moves = numbers
    plays, unplayed = gen.stage_plays(b, d1, moves, pos.rolls) if d1 == d2 \
        else gen.plays(b, d1, d2, pos.rolls)
    results = [layout.to_json(p.board)
               for p in sorted(plays, key=lambda p: layout.sort_key(p.board))]
    out: dict[str, Any] = {"count": len(results), "results": results, "next": "throw"}
    if unplayed or all(p.board[0] == variant.checkers for p in plays):
        return out
    ctx = RollContext(lambda: ([], 0), pos.state)
    rule = _passing_rule(variant, pos.state.get("passed_by"))
    if rule is not None and rule.next is not None:
        e = int(rule.next(b, None, None, d1, d2, pos.rolls, ctx))
        if 1 <= e <= 6:
            out["next"] = "passed"
            out["passed"] = [e, variant.move_rules.doublet_moves]
            if rule is not _passing_rule(variant, None):
                out["passed_by"] = rule.id
    return out


def _results_with_ends(variant: Any, pos: RollPosition) -> dict[str, Any]:
    """The results of a throw where each line may end the game or be followed differently
    (end rules judged after each move or on the throw, numbers the opponent may play, another
    throw after a throw of three): each result line says `"next"` ("end", "again", "passed"
    with `"passed"`: the numbers left to the opponent; "throw" after a stage of passed
    numbers) and, where the play ends the game, `"game_over"`: {"winner": "mover",
    "opponent" or "draw", "points": n}."""
    from interpreter.engine.game import value_of

    gen = variant.generator
    layout = variant.geometry
    rules = variant.rules
    b, d1, d2, d3, rolls = pos.board, pos.d1, pos.d2, pos.d3, pos.rolls
    passed = pos.state.get("passed")
    optional = _optional_rule(variant, b)
    stage = passed is not None and optional is not None
    #: the numbers passed are the player's whole turn, played as a throw (`instead_of_throw`)
    whole_turn = stage and not getattr(optional, "optional", False)
    if stage:
        if d3:
            numbers = (d1, d2, 3)
        else:
            got = optional_numbers(passed, variant.move_rules.doublet_moves)
            assert got is not None          # read_position checked it
            numbers = got
        if not whole_turn:
            plays, unplayed = gen.optional_plays(b, numbers[0], numbers[1], numbers[2], rolls,
                                                 d3, getattr(optional, "moves", "any")
                                                 == "bear_off")
        elif numbers[0] == numbers[1] and not d3:
            plays, unplayed = gen.stage_plays(b, numbers[0], numbers[2], rolls)
        else:
            plays, unplayed = gen.throw_plays(b, numbers[0], numbers[1], d3, rolls)
    else:
        plays, unplayed = gen.throw_plays(b, d1, d2, d3, rolls)
    ctx = RollContext(lambda: (plays, unplayed), pos.state, setup=pos.state.get("setup", 1),
                      d3=d3)
    thrown: tuple[str, str] | None = None
    if not stage:
        thrown = next(((rid, w) for rid, w, fn in rules.end_throw
                       if fn(b, None, None, d1, d2, rolls, ctx)), None)
    if thrown is not None:
        # the throw ends the game before any play (a loss by a throw that cannot be played):
        # the position stays as it was
        from interpreter.kernel.movegen import Play
        plays = [Play(b, ((),))]
    rule = None if stage else variant.throws.stage_rule(b, d1, d2, rolls, ctx)
    rows = []
    for play in sorted(plays, key=lambda p: layout.sort_key(p.board)):
        after = play.board
        row: dict[str, Any] = spans_written(variant, layout.to_json(after))
        ended = None
        if thrown is not None:
            ended = thrown[1]
        elif not stage or after != b:
            ended = rules.game_over(after)
        if ended is not None:
            winner = {"mover": "mover", "opponent": "opponent", "none": "draw"}[ended]
            seen = after if ended != "opponent" else variant.flip(after)
            row["game_over"] = {"winner": winner,
                                "points": 0 if ended == "none" else value_of(variant, seen)[0]}
            row["next"] = "end"
        elif stage:
            row["next"] = "end" if whole_turn else "throw"
        elif unplayed and rule is not None and rule.to_opponent is not None \
                and _passes(gen, rule, ctx, b, after, d1, d2, rolls):
            path = play.paths[0] if play.paths else ()
            if d3:
                left = [d1, d2, d3]
                for st in path:
                    if st[2] in left:
                        left.remove(st[2])
                row["next"] = "passed"
                row["passed"] = sorted(left, reverse=True)
            else:
                e1, e2, moves = numbers_left(d1, d2, unplayed, path)
                row["next"] = "passed"
                row["passed"] = [e1] * moves if e1 == e2 else [e1, e2]
        elif (not unplayed or getattr(rule, "again_partial", False)) and rule is not None \
                and rule.again is not None and rule.next is None \
                and rule.again(b, None, None, d1, d2, rolls, ctx):
            row["next"] = "again"
        else:
            row["next"] = "end"
        rows.append(row)
    return {"count": len(rows), "results": rows}


def _passes(gen: Any, rule: Any, ctx: RollContext, b: Board, after: Board, d1: int, d2: int,
            rolls: int) -> bool:
    """Whether the stage rule passes on the numbers the play from `b` to `after` left: its
    `to_opponent`, asked with what it may read of that play (`unstacking`, `home_after`)."""
    ctx.unstacking, ctx.home_after = gen.play_facts(b, after)
    return bool(rule.to_opponent(b, None, None, d1, d2, rolls, ctx))
