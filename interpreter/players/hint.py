"""What the strongest available bot would answer: the `hint` of a person at the board
(players/human.py) and of the web board.

    >>> h = hint(decision)                      # doctest: +SKIP
    >>> h.index, h.bot, h.best.text, h.second.text, h.difference, h.unit
    (3, 'search:2:learned', '8/5 6/5', '13/10 24/23', 0.153, 'points')

`hint(decision)` is the one source of hints, for any decision of any variant (plays in pip
notation, words for the others): the best answer, the second best, and the difference of their
values in the judge's unit. It asks the strongest player the variant has (`strongest_kind`):
the search two throws ahead judged by the weights shipped for the variant where its throws
need only end positions (the backgammon family), one throw ahead where they need copies of the
game (triktrak); the search judged by the variant file where no weights ship.

`ranked(decision, kind=None, top=None)` gives every answer (or the `top` best) as (text, value)
pairs, best first, values in the game's unit (`ranking` says which, with the indices): what
`hint all` and the web board's hint list, and what a game's review (interpreter/review.py)
compares each answer played with. `ranking(..., deep=N)` values the N best of the first pass
as the best are (a search two throws ahead looks that far only at its first pass's best), so
that a list of N answers is of one look and in order. `cube_numbers(decision)` gives a cube
question's numbers: no double, double/take, double/pass (the opponent's answers valued from
his side by the same bot), and `cube_verdict` the right action they make.

The search plays the answers of word decisions, and the plays of the trictrac family, on copies
of the game: the game must keep its checkpoints. `Game.run` does when a searching player
plays; a driver of its own (the terminal, the web board) calls
`interpreter.engine.branch.enable(game)` before the first throw. A hint asked without them
ranks the plays by their end positions alone, the words in their order, and says so
(`Hint.exact` false); it turns the checkpoints on for the next throws.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.engine import branch
from interpreter.errors import TablierError
from interpreter.players.leaves import quick, Leaf
from interpreter.players.utility import unit_of
from interpreter.scoring.registry import ladder_class


@dataclass(frozen=True)
class Choice:
    """An answer: its index among `decision.choices`, its text, its value for the player."""

    index: int
    text: str
    value: float


@dataclass(frozen=True)
class Hint:
    """The index of the best answer among `decision.choices`, the bot that judged, its reason in
    words; the best and second-best answers with their values, the difference between them
    (0 with one answer) in `unit`, and whether the answers were played out on copies."""

    index: int
    bot: str
    reason: str | None = None
    best: Choice | None = None
    second: Choice | None = None
    difference: float = 0.0
    unit: str = "points"
    exact: bool = True


def strongest_kind(variant: Any) -> str:
    """The player kind `hint` asks for a variant (see the module docstring)."""
    from interpreter.players.learned import network_for

    learned = network_for(variant) is not None
    if quick(variant):
        return "search:2:learned" if learned else "search:2"
    return "search:1:learned" if learned else "search:1"


#: the players hints come from, made once per variant and kind
_PLAYERS: dict[tuple[int, str], Any] = {}


def strongest_bot(variant: Any, kind: str | None = None) -> Any:
    kind = kind or strongest_kind(variant)
    key = (id(variant), kind)
    got = _PLAYERS.get(key)
    if got is None or got.variant is not variant:
        from interpreter.players.kinds import make

        got = _PLAYERS[key] = make(kind, "hint", variant)
    return got


def hint(decision: Any, kind: str | None = None) -> Hint:
    """The best and second-best answers to `decision` (see the module docstring)."""
    variant = decision.game.variant
    kind = kind or strongest_kind(variant)
    player = strongest_bot(variant, kind)
    words = decision.words()
    exact = True
    if len(decision.choices) == 1:
        ranked = [(0, 0.0)]
    elif not branch.branchable(decision) and not (decision.kind == "play" and quick(variant)):
        exact = False
        ranked = _by_judge_alone(player, decision)
    else:
        ranked = player.rank(decision)
    unit = getattr(player.judge, "unit", None) or "points"
    if ladder_class(decision.view.ladder).plays_games:
        # a game of a rotation is judged in the match's unit, whatever its own file's ladder
        unit = unit_of(decision.view.ladder)
    best = Choice(ranked[0][0], words[ranked[0][0]], round(ranked[0][1], 4))
    second = None
    diff = 0.0
    reason = None
    if len(ranked) > 1:
        second = Choice(ranked[1][0], words[ranked[1][0]], round(ranked[1][1], 4))
        diff = round(ranked[0][1] - ranked[1][1], 4)
        reason = (f"worth {best.value:+.3f} {unit}, {diff:.3f} more than the next best, "
                  f"{second.text}" + ("" if exact else " (judged without playing it out)"))
    return Hint(best.index, kind, reason, best, second, diff, unit, exact)


@dataclass(frozen=True)
class Ranking:
    """Every answer to a decision ranked by a bot, best first (`Choice`s: index, text, value in
    `unit`), the bot's kind, and whether the answers were played out on copies (`exact`)."""

    choices: tuple[Choice, ...]
    bot: str
    unit: str = "points"
    exact: bool = True

    def value_of(self, index: int) -> float:
        """The value of the answer of index `index` among `decision.choices`."""
        for c in self.choices:
            if c.index == index:
                return c.value
        raise KeyError(index)


def ranked(decision: Any, kind: str | None = None, top: int | None = None,
           notation: Any = None) -> list[tuple[str, float]]:
    """The answers to `decision` as (text, value) pairs, best first, the values in the
    game's unit for the player asked (`ranking(...).unit` names it): every answer, or the
    `top` best. Plays are written as players write them, in `notation`
    (interpreter/notation.py; pips by default)."""
    out = ranking(decision, kind, notation=notation, deep=top or 0).choices
    if top is not None:
        out = out[:max(top, 0)]
    return [(c.text, c.value) for c in out]


def ranking(decision: Any, kind: str | None = None, include: tuple[int, ...] = (),
            notation: Any = None, deep: int = 0) -> Ranking:
    """Every answer to `decision` ranked by the bot of `kind` (default the strongest the
    variant has, `strongest_kind`), best first; see `ranked`.

    A search more than one throw ahead looks further only at the answers its first pass ranks
    best; the others keep the first pass's value and come after them. The answers of `include`
    (indices among `decision.choices`: a play to be compared with the best, as a review does)
    are valued as the best are, and placed among them by that value; so are the `deep` best
    answers of the first pass (a list of the best answers with their values, as `hint all`
    shows: their values all of one look, and in order)."""
    variant = decision.game.variant
    kind = kind or strongest_kind(variant)
    player = strongest_bot(variant, kind)
    if not hasattr(player, "rank"):
        raise TablierError(f"the player {kind!r} gives no values to rank answers with; choose "
                           f"search:N, search:N:learned, learned or rollout:N")
    adopt = getattr(player, "adopt", None)
    if adopt is not None:
        adopt(variant)
    exact = True
    n = len(decision.choices)
    if n == 1:
        order = [(0, 0.0)]
    elif not branch.branchable(decision) and not (decision.kind == "play" and quick(variant)):
        exact = False
        order = _by_judge_alone(player, decision)
    else:
        order = list(player.rank(decision))
        full = _deep_count(player, decision, n)
        head, tail = order[:full], order[full:]
        extra = [i for i, _v in tail if i in include]
        extra += [i for i, _v in tail[:max(deep - len(head), 0)] if i not in extra]
        if extra:
            head += [(i, _value_of(player, decision, i)) for i in extra]
            tail = [(i, v) for i, v in tail if i not in extra]
            head.sort(key=lambda iv: -iv[1])
            order = head + tail
    unit = getattr(getattr(player, "judge", None), "unit", None) or "points"
    if ladder_class(decision.view.ladder).plays_games:
        # a game of a rotation is judged in the match's unit, whatever its own file's ladder
        unit = unit_of(decision.view.ladder)
    texts = answer_texts(decision, notation)
    return Ranking(tuple(Choice(i, texts[i], float(v)) for i, v in order), kind, unit, exact)


#: how the cube's numbers name each answer of the opponent to a double
CUBE_ANSWERS = {"take": "double/take", "pass": "double/pass", "beaver": "double/beaver",
                "raccoon": "double/raccoon"}


def cube_numbers(decision: Any, kind: str | None = None,
                 ranked_by: Ranking | None = None) -> list[tuple[str, float]]:
    """The numbers of a cube decision for the player asked, in the game's unit, as players
    read them: before a throw (`double`), the value of not doubling (`no double`) and of
    doubling answered each way by the opponent (`double/take`, `double/pass`, and where played
    `double/beaver`), his answers valued by the same bot from his side and turned to the
    doubler's; at a double (`take`), the value of each answer. Empty for any other decision,
    or where the answers cannot be played out on copies of the game. `ranked_by`: the
    decision's `ranking` when made already."""
    if decision.kind not in ("double", "take"):
        return []
    r = ranked_by if ranked_by is not None else ranking(decision, kind)
    if not r.exact:
        return []
    values = {c.text: c.value for c in r.choices}
    if decision.kind == "take":
        return [(c.text, c.value) for c in r.choices]
    words = list(decision.choices)
    if "double" not in words or "roll" not in words or not branch.branchable(decision):
        return []
    node = branch.answer(branch.root(decision), words.index("double"))
    if node.how != "decision" or node.decision is None or node.decision.kind != "take":
        return []
    theirs = ranking(node.decision, kind)
    out = [("no double", values["roll"])]
    for c in sorted(theirs.choices, key=lambda c: c.index):
        out.append((CUBE_ANSWERS.get(c.text, f"double/{c.text}"), -c.value))
    return out


def cube_verdict(numbers: list[tuple[str, float]]) -> str:
    """The right cube action by the numbers of a double decision (`cube_numbers`), as players
    say it: `double, take`, `double, pass`, `no double, take`, or `too good to double` (playing
    on is worth more than the opponent's pass)."""
    values = dict(numbers)
    nd = values.get("no double")
    answers = {w.split("/", 1)[1]: v for w, v in numbers if w.startswith("double/")}
    if nd is None or not answers:
        return ""
    reply = min(answers, key=lambda w: answers[w])
    if answers[reply] > nd:
        return f"double, {reply}"
    passed = answers.get("pass")
    if passed is not None and nd > passed:
        return "too good to double"
    return f"no double, {reply}"


def answer_texts(decision: Any, notation: Any = None) -> list[str]:
    """The answers to `decision` as text: plays as players write them (one checker's moves
    joined, `24/15`; repeated moves counted, `24/20(2)`) in `notation` (pips by default),
    words as they are."""
    if not decision.is_play:
        return [str(c) for c in decision.choices]
    if notation is None:
        from interpreter.notation import PIPS

        notation = PIPS
    game = decision.game
    base = game.choice_base
    return [notation.play_text(base, p.paths[0], decision.player)
            for p in game.legal_plays(decision)]


def _deep_count(player: Any, decision: Any, n: int) -> int:
    """How many of the first answers of `player.rank(decision)` were valued by the player's
    full look (the others by a first pass only)."""
    width = getattr(player, "width", n)
    if getattr(player, "rollouts", 0):
        return min(width, n) if decision.is_play else n
    # a judge's cheap first pass, or a search more than one throw ahead: the `width` best
    return min(width, n)


def _value_of(player: Any, decision: Any, i: int) -> float:
    """The value of answer `i` of `decision` for the player asked, by `player`'s full look (as
    `SearchPlayer.rank` values its best answers)."""
    from interpreter.players.leaves import follow, quick_leaves

    me = decision.player
    quick_play = decision.kind == "play" and player.quick
    if quick_play:
        leaf = quick_leaves(decision, me)[i]
    else:
        leaf = follow(branch.answer(branch.root(decision), i), me, player._inner)
    if player.rollouts:
        return float(player._rollout_values(decision, None, [i], {i: leaf}, me)[i])
    depth = player.depth
    if player.quick and not quick_play:
        depth = min(depth, 2)
    if depth <= 1:
        return float(player.judge.values([leaf], me)[0][0])
    if quick_play and depth == 2:
        return float(player._replies([leaf], [0], me)[0])
    return float(player.expect(leaf, me, depth - 1))


def _by_judge_alone(player: Any, decision: Any) -> list[tuple[int, float]]:
    """A play decision valued by its end positions with the ladder as it stands; a word
    decision's answers in their order (the first holds)."""
    branch.enable(decision.game)
    if not decision.is_play:
        return [(i, 0.0) for i in range(len(decision.choices))]
    view = decision.view
    ls = [Leaf(b, False, view.rolls, view.ladder) for b in decision.choices]
    values = player.judge.values(ls, decision.player)[0]
    order = sorted(range(len(ls)), key=lambda i: -values[i])
    return [(i, float(values[i])) for i in order]
