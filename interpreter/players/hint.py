"""What the strongest available bot would answer: the `hint` of a person at the board
(players/human.py) and of the web board.

`hint(decision)` is the one source of hints: `STRONGEST` names the bot it asks (today `greedy`;
a stronger bot registered in players/bots.py `BOTS` is one line away). A bot that can say why
implements `explain(decision) -> (answer, reason)`; otherwise its `answer(decision)` is taken and
the reason is what the bot's rule of thumb says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: the bot `hint` asks: the strongest of players/bots.py `BOTS`
STRONGEST = "greedy"


@dataclass(frozen=True)
class Hint:
    """The index of the answer among `decision.choices`, the bot that gave it, and its reason
    (None when the bot gives none)."""

    index: int
    bot: str
    reason: str | None = None


_BOTS: dict[str, Any] = {}


def strongest_bot(seed: Any = "hint") -> Any:
    """The bot hints come from (one per process: the bots judge from the decision alone)."""
    bot = _BOTS.get(STRONGEST)
    if bot is None:
        from interpreter.players.bots import make_player

        bot = _BOTS[STRONGEST] = make_player(STRONGEST, seed)
    return bot


def hint(decision: Any) -> Hint:
    """What the strongest bot would answer to `decision`, with its reason if it has one."""
    bot = strongest_bot()
    explain = getattr(bot, "explain", None)
    if explain is not None:
        answer, reason = explain(decision)
    else:
        answer, reason = bot.answer(decision), None
    index = decision.index(answer)
    if reason is None:
        reason = _greedy_reason(decision, index)
    return Hint(index, STRONGEST, reason)


def _greedy_reason(decision: Any, index: int) -> str | None:
    """The greedy bot's reason: the play's immediate points and the value of the position it
    leaves (players/policy.py `evaluate`); for a word decision, the policy's rule."""
    from interpreter.players.policy import evaluate

    if decision.is_play:
        view = decision.view
        v = view.variant
        value = evaluate(v, decision.choices[index])
        if v.rules.score_play:
            pts = view.play_points(index)
            return (f"the most points now ({pts:+d} for you against the opponent), then the "
                    f"best position (value {value:.1f})")
        return f"the best position it can judge by race, points made and blots (value {value:.1f})"
    reasons = {
        "double": "by the lead in the race (the 8-9-12 rule of thumb) or in position",
        "take": "by the doubler's lead in the race or in position",
        "go": "going when the opponent's points of this throw would make him a hole or the "
              "position is the worse one",
        "resign": "accepting an offer at least what it expects to win",
        "continue": "playing on when the excess and the position favour the winner",
        "school": "sending to school whenever points were marked wrong",
    }
    return reasons.get(decision.kind)
