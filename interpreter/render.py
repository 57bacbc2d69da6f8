"""Plain-text views: a board diagram and a game's record, for people reading the terminal."""
from __future__ import annotations

from typing import Any

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, Board, flip


def board_text(b: Board, mover_name: str = "X", other_name: str = "O") -> str:
    """The board from the mover's side: his pips 13..24 above, 12..1 below.

    `X3` is three of the mover's checkers, `O2` two of the opponent's.
    """
    def cell(p: int) -> str:
        x = b[p]
        return f"{mover_name}{x}" if x > 0 else f"{other_name}{-x}" if x < 0 else " ."

    top = " ".join(f"{p:>3}" for p in range(13, 25))
    row1 = " ".join(f"{cell(p):>3}" for p in range(13, 25))
    row2 = " ".join(f"{cell(p):>3}" for p in range(12, 0, -1))
    bottom = " ".join(f"{p:>3}" for p in range(12, 0, -1))
    extra = (f"bar {mover_name}{b[BAR]} {other_name}{b[OPP_BAR]}   "
             f"off {mover_name}{b[OFF]} {other_name}{b[OPP_OFF]}")
    return "\n".join([top, row1, row2, bottom, extra])


def render_game(variant: Any, result: Any, summary: dict) -> str:
    lines = [f"{variant.name} — seed {summary.get('seed')}, white {summary.get('white')} "
             f"vs black {summary.get('black')}"]
    names = ("white", "black")
    for n, turn in enumerate(result.record, 1):
        scored = ", ".join(f"{r} {p} to {to}" for r, to, p, _w in turn.items)
        lines.append(f"{n:>4}. {names[turn.player]:<5} {turn.dice[0]}-{turn.dice[1]}"
                     + (f"  ({scored})" if scored else ""))
    if result.record:
        last = result.record[-1]
        b = last.board if last.player == 0 else flip(last.board)
        lines += ["", "Final position (white = X, pips from white's side):",
                  board_text(b, "X", "O")]
    if result.finished:
        lines.append(f"{names[result.winner]} wins, worth {result.value} "
                     f"(after {result.turns} turns)")
    else:
        lines.append(f"stopped after {result.turns} turns, unfinished")
    return "\n".join(lines)
