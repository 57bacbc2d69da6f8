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
    from interpreter.players.learned import shipped_weights

    learned = shipped_weights(variant.id) is not None
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
