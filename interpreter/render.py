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


def _play_text(variant: Any, before: Board, turn: Any) -> str:
    """The play of a turn in pips from its player's side (`24/21 13/11*`), or `-` for none."""
    from interpreter.io.mat import move_text

    if turn.board == before:
        return "-"
    plays, _ = variant.generator.plays(before, *turn.dice)
    path = next((p.paths[0] for p in plays if p.board == turn.board), None)
    if not path or not path[0]:
        return ""
    return move_text([(st[0], st[1]) for st in path], board=before)


def render_game(variant: Any, result: Any, summary: dict) -> str:
    if getattr(result, "combine", None) is not None:
        return render_combine(variant, result, summary)
    if getattr(result, "ledger", None) is not None:
        return render_partie(variant, result, summary)
    lines = [f"{variant.name} — seed {summary.get('seed')}, white {summary.get('white')} "
             f"vs black {summary.get('black')}"]
    names = ("white", "black")
    from interpreter.bench import positions_of

    befores = positions_of(variant, result)
    for n, turn in enumerate(result.record, 1):
        scored = ", ".join(f"{r} {p} to {to}" for r, to, p, _w in turn.items)
        said = "  [goes]" if getattr(turn, "decision", None) == "go" else ""
        played = _play_text(variant, befores[n - 1][0], turn) if said == "" else ""
        line = (f"{n:>4}. {names[turn.player]:<5} {turn.dice[0]}-{turn.dice[1]} {played:<22}"
                + (f"  ({scored})" if scored else "") + said)
        lines.append(line.rstrip())
    if result.record:
        last = result.record[-1]
        b = last.board if last.player == 0 else flip(last.board)
        lines += ["", "Final position (white = X, pips from white's side):",
                  board_text(b, "X", "O")]
    kind = getattr(variant.ladder, "kind", "game")
    if kind != "game":
        score = summary.get("score", {})
        unit = "holes" if kind == "holes" else "points"
        lines.append(f"score: white {score.get('white')}, black {score.get('black')} {unit}")
    if result.finished and result.winner is None:
        lines.append(f"a draw (after {result.turns} turns)")
    elif result.finished:
        lines.append(f"{names[result.winner]} wins, worth {result.value} "
                     f"(after {result.turns} turns)")
    else:
        lines.append(f"stopped after {result.turns} turns, unfinished")
    return "\n".join(lines)


def render_partie(variant: Any, result: Any, summary: dict) -> str:
    """A played partie à écrire: one line per mark (refaits included) with the board play that
    led to it, then the lost marks and the settlement. `result.ledger` is the mark ledger
    (interpreter/engine/ecrire.py) and `result.mark_play` its marks' throws and pick-ups."""
    from interpreter.io.sheet import signed, settlement_lines

    ledger = result.ledger
    names = ("white", "black")
    lines = [f"{variant.name} — seed {summary.get('seed')}, white {summary.get('white')} "
             f"vs black {summary.get('black')}",
             f"a partie of {ledger.n_marks} marks; {summary.get('leader')} leads the first", ""]
    lines.append(f"{'mark':>4}  {'leader':<6}  {'kind':<11}  {'winner':<6}  {'holes':>5}  "
                 f"{'rate':>4}  {'paid':>4}  {'throws':>6}  {'pick-ups':>8}  how")
    for r, play in zip(ledger.results, result.mark_play):
        how = ""
        if r.kind == "refait":
            how = "void, replayed"
        elif r.kind == "conceded":
            how = f"conceded by {names[r.loser]}"
        elif r.pickup is not None:
            how = ", ".join([
                "in arrears" if r.arrears else "in advance",
                "with pick-up" if r.pickup else "without pick-up"]
                + (["rate of the opponent's failed lurch"] if r.rate_from == "opponent" else []))
        winner = "-" if r.winner is None else names[r.winner]
        rate, paid = ("-", "-") if r.kind == "refait" else (f"x{r.multiplier}", str(r.payment))
        holes = f"{r.holes[0]}-{r.holes[1]}"
        lines.append(f"{r.mark:>4}  {names[r.leader]:<6}  {r.kind:<11}  {winner:<6}  "
                     f"{holes:>5}  {rate:>4}  {paid:>4}  {play.turns:>6}  "
                     f"{play.pickups:>8}  {how}".rstrip())
    lines.append("")
    lines.append("holes are written white-black; each payment is made by the loser to the winner")
    lost = ledger.lost_marks
    lines.append(f"lost marks: white {lost[0]}, black {lost[1]}")
    balance = [ledger.received[i] - ledger.paid[i] for i in (0, 1)]
    lines.append(f"jetons from the marks: white {signed(balance[0])}, "
                 f"black {signed(balance[1])}")
    s = ledger.settlement
    if s is None:
        lines.append(f"stopped after {result.turns} throws, unfinished: mark {ledger.k} of "
                     f"{ledger.n_marks} in play, holes white {ledger.holes[0]}, "
                     f"black {ledger.holes[1]}")
        return "\n".join(lines)
    lines += ["", *settlement_lines(ledger, names)]
    if result.winner is None:
        lines.append(f"a level partie (after {result.turns} throws)")
    else:
        lines.append(f"{names[result.winner]} wins the partie by {result.value} jetons "
                     f"(after {result.turns} throws)")
    return "\n".join(lines)


def render_combine(variant: Any, result: Any, summary: dict) -> str:
    """A played partie of trictrac combiné: the marks à écrire as `render_partie` shows them,
    then the honours games, the pool, the suspensions and the settlement in jetons and in fish.
    `result.combine` is the combiné ledger (interpreter/engine/combine.py)."""
    from interpreter.io.sheet import pool_draw_lines, settlement_lines, signed

    game = result.combine
    ledger = game.ecrire
    names = ("white", "black")
    lines = render_partie(variant, result, summary).split("\n")
    cut = next(i for i, line in enumerate(lines) if line.startswith("jetons from the marks"))
    lines = lines[:cut + 1]
    lines += ["", f"honours games (12 holes, {game.S} fish a stake; holes white-black)",
              f"{'game':>4}  {'winner':<6}  {'holes':>5}  {'class':<9}  {'to winner':>9}  "
              f"{'to pool':>7}"]
    for r in game.honours_results:
        holes = f"{r.holes[0]}-{r.holes[1]}"
        lines.append(f"{r.game:>4}  {names[r.winner]:<6}  {holes:>5}  {r.cls:<9}  "
                     f"{r.paid_to_winner:>9}  {r.paid_to_pool:>7}")
    if not game.honours_results:
        lines.append("   -  no honours game won")
    lines += pool_draw_lines(game, names)
    if game.pool_open:
        holder = "nobody" if game.contract is None else names[game.contract]
        lines.append(f"pool: {game.pool_fish} fish in the basket, contract: {holder}")
    if game.h != [0, 0]:        # under `leader_single` the ledger has scored it already
        state = "unfinished at the end of the partie, void" if game.closed else "in play"
        lines.append(f"honours game {game.game} {state} at {game.h[0]}-{game.h[1]}")
    said = {"ecrire": 0, "honours": 0}
    for _throw, _p, what in result.suspensions:
        said[what] += 1
    lines.append(f"suspensions: à écrire {said['ecrire']}, honours {said['honours']}")
    fish = game.honours_net()
    lines.append(f"fish from the honours and the pool: white {signed(fish[0])}, "
                 f"black {signed(fish[1])}")
    if ledger.settlement is None:
        lines.append(f"stopped after {result.turns} throws, unfinished: mark {ledger.k} of "
                     f"{ledger.n_marks} in play, holes white {ledger.holes[0]}, "
                     f"black {ledger.holes[1]}")
        return "\n".join(lines)
    lines += ["", *settlement_lines(ledger, names),
              f"  honours and pool: white {signed(fish[0])}, black {signed(fish[1])} fish"]
    if result.winner is None:
        lines.append(f"a level partie in jetons (after {result.turns} throws)")
    else:
        lines.append(f"{names[result.winner]} wins the partie by {result.value} jetons "
                     f"(after {result.turns} throws)")
    return "\n".join(lines)
