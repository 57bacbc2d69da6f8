"""Plain-text views: a board diagram and a game's record, for people reading the terminal."""
from __future__ import annotations

import re

from typing import Any, Iterable

from interpreter.engine.events import (After, Claimed, Cubed, Decided, Ended, Event, Forced,
                                       GameWon, Hole, Marked, MatchGameBegun, MatchGameWon,
                                       MenReset, NewGame, Passed, Releve, ResignDeclined,
                                       Resigned, Restacked, RotationGameBegun, RotationGameEnded,
                                       Schooled, Scored, Suspended, Thrown, Tied, Went)
from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, Board
from interpreter.notation import PIPS, in_sentence
from interpreter.scoring.registry import ladder_class
from interpreter.terminal import draw_board

#: the width a played game's record is laid out in, whatever the terminal (a record reads
#: the same everywhere; a person's terminal wraps it further, players/human.py)
RECORD_WIDTH = 80


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


SIDES = ("white", "black")


def ladder_text(kind: str, st: dict) -> str:
    """The running score of a ladder (its `sides()` state) in a few words, the ladder's."""
    return ladder_class(kind).sides_text(st)


class LogWriter:
    """The text log of a played game, fed its events (engine/game.py) as they come: a line per
    throw with its dice, its play and what it scored, the decisions and the ladder's running
    score, and the games, marks, relevés and restacks between them. `feed(events)` returns the
    lines completed so far (a throw's line is complete when the next begins), `close()` the
    rest. Plays are written in `notation` (interpreter/notation.py; pips by default) from the
    thrower's side; `rule_names` writes scoring rules by name instead of by id; `forced` marks
    a throw's only play (or none) as such."""

    def __init__(self, variant: Any, marks_only: bool = False, notation: Any = None,
                 rule_names: bool = False, forced: bool = False):
        self.variant = variant
        self.ladder = ladder_class(variant.ladder)
        self.marks_only = marks_only
        if notation is None and getattr(getattr(variant, "geometry", None), "wide", False):
            # a board of 36 points writes its plays in its own pips (25 is a point there)
            from interpreter.notation import notation_for
            notation = notation_for(variant)
        self.notation = notation
        self.names = _rule_names(variant) if rule_names else {}
        #: say where a throw had one play only, or none (the person at the board, who was not
        #: asked for it)
        self.forced = forced
        self.n = 0
        self.cur: list[str] | None = None
        self.notes: list[str] = []
        self.mark: tuple | None = None
        self.side = 0
        self.lines: list[str] = []

    def _flush(self) -> None:
        cur, notes, lines = self.cur, self.notes, self.lines
        if cur is None and notes and not self.marks_only:
            lines.append("      " + "; ".join(notes))      # between throws: the cube
        if cur is not None:
            head = " ".join(x for x in cur if x)
            tail = ("  (" + "; ".join(notes) + ")") if notes else ""
            if not self.marks_only:
                lines.append((head + tail).rstrip())
        self.cur, self.notes = None, []

    def _play(self, text: str) -> str:
        # as players write it: one checker's moves joined, equal moves counted
        return (self.notation or PIPS).log_text(text, self.side)

    def feed(self, events: Iterable[Event]) -> list[str]:
        for e in events:
            notes = self.notes
            match e:
                case Thrown(side=side, passed=passed):
                    self._flush()
                    self.n += 1
                    self.side = side
                    if passed:
                        # numbers the opponent could not play: no throw of this player's
                        self.cur = [f"{self.n:>4}. {SIDES[side]} plays the passed "
                                    f"{e.passed_text()}:", ""]
                    else:
                        self.cur = [f"{self.n:>4}. {SIDES[side]:<5} "
                                    f"{'-'.join(map(str, e.dice))}", ""]
                case Decided(side=side, kind=dkind, answer=answer):
                    if dkind in ("play", "enter"):
                        if self.cur is None:
                            self.cur = ["", ""]
                        text = self._play(answer)
                        self.cur[1] = (self.cur[1] + " " if self.cur[1] else "") + \
                            (text if dkind == "play" else f"enters {text}")
                    elif dkind in ("double", "take", "resign", "resigns", "mark", "school"):
                        pass                # their events say what was done
                    else:
                        said = _decision_words(SIDES[side], dkind, answer) if dkind != "choose" \
                            else _chosen_words(self.variant, SIDES[side], answer)
                        if said:
                            notes.append(said)
                case Forced(play=play):
                    if self.cur is not None:
                        self.cur[1] = self._play(play)
                        if self.forced:
                            self.cur[1] += " (no legal play)" if play == "-" else \
                                " (the only play)"
                case Scored(side=side, rule=rule, points=points):
                    notes.append(f"{self.names.get(rule, rule)} {points} to {SIDES[side]}")
                case Hole(side=side, holes=holes, thrower=thrower):
                    on = "" if side == thrower else f" on {SIDES[thrower]}'s throw"
                    notes.append(f"{SIDES[side]} +{holes} hole{'s' if holes != 1 else ''}{on}")
                case Went(side=side):
                    said = f"{SIDES[side]} goes"
                    if not notes or notes[-1] != said:      # the decision said it
                        notes.append(said)
                case Claimed(side=side, marker=marker):
                    notes.append(f"{SIDES[side]} claims the {marker}")
                case Suspended(side=side, game=game):
                    notes.append(f"{SIDES[side]} suspends {game}")
                case MenReset():
                    notes.append("all men off: the men are set up again")
                case Releve(side=side):
                    notes.append(f"relevé, {SIDES[side]} throws")
                case Passed(side=side, number=number, moves=moves):
                    notes.append(f"{SIDES[side]} cannot play {moves} × {number}: passed to "
                                 f"{SIDES[1 - side]}")
                case Restacked(side=side):
                    notes.append(f"{SIDES[side]}'s men are all off: restacked")
                case Resigned(side=side, level=level):
                    notes.append(f"{SIDES[side]} concedes the {level}" if level in CONCEDED
                                 else f"{SIDES[side]} resigns ({level})")
                case ResignDeclined(side=side, level=level):
                    notes.append(f"{SIDES[side]} declines a resignation ({level})")
                case Marked(side=side, claimed=claimed, due=due):
                    notes.append(f"{SIDES[side]} marks {claimed}" +
                                 ("" if claimed == due else f" (the throw gives {due})"))
                case Schooled(side=side, points=points, erring=erring, how=how):
                    notes.append(f"school: {SIDES[side]} marks {points} for {SIDES[erring]}'s "
                                 f"{'over' if how == 'trop' else 'under'}-marking")
                case Cubed(action="auto", value=value):
                    self.lines.append(f"      automatic double: the cube is at {value}")
                case Cubed(side=int() as side, action=action, value=value):
                    if action in ("beaver", "raccoon", "double"):
                        notes.append(f"{SIDES[side]} {action}s to {value}")
                    elif action == "take":
                        notes.append(f"{SIDES[side]} takes")
                    elif action == "pass":
                        notes.append(f"{SIDES[side]} passes")
                case Ended(winner=winner, value=worth, rule=rule, value_rule=value_rule):
                    how = self.names.get(rule, rule)
                    named = self.names.get(value_rule, value_rule) if value_rule else None
                    if self.names:      # by the rules' names: "black wins: Gammon, ×2"
                        notes.append(f"{SIDES[winner]} wins: {named if value_rule else how}, "
                                     f"×{worth}")
                    else:
                        notes.append(f"{SIDES[winner]} wins by {how}" +
                                     (f" ({named}, ×{worth})" if value_rule else f" (×{worth})"))
                case MatchGameBegun(number=number, score=score, crawford=crawford):
                    self._flush()
                    crawford_text = ", the Crawford game" if crawford else ""
                    self.lines.append(f"-- game {number}: score white {score[0]}, black "
                                      f"{score[1]}{crawford_text} --")
                case RotationGameBegun(number=number, variant=name, place=place, games=games,
                                       score=score):
                    self._flush()
                    self.lines.append(f"-- game {number}: {name} (game {place} of {games} of "
                                      f"the rotation); score white {score[0]}, black "
                                      f"{score[1]} --")
                case RotationGameEnded(number=number, winner=winner, points=points, score=score):
                    self._flush()
                    won = "no winner, nobody scores" if winner is None else \
                        f"{SIDES[winner]} wins {points} point{'s' if points != 1 else ''}"
                    self.lines.append(f"   game {number}: {won}; score white {score[0]}, "
                                      f"black {score[1]}")
                case Tied(rule=rule):
                    notes.append(f"a tie by {rule}")
                case MatchGameWon(number=number, winner=winner, points=points, result=result,
                                  score=score):
                    self._flush()
                    self.lines.append(f"   game {number}: {SIDES[winner]} wins {points} point"
                                      f"{'s' if points != 1 else ''} ({result}); score white "
                                      f"{score[0]}, black {score[1]}")
                case GameWon(number=number, winner=winner, value=worth, excess=excess,
                             decision=decision):
                    then = {"go": f"; {SIDES[winner]} goes away",
                            "continue": f"; {SIDES[winner]} plays on"}.get(decision or "", "")
                    notes.append(f"game {number} won by {SIDES[winner]}, ×{worth}, excess {excess}"
                                 + then)
                case NewGame(start="continue"):
                    notes.append("the next game goes on from this position")
                case NewGame(start="first", who=int() as who):
                    notes.append(f"a new game: {SIDES[who]} throws from the start")
                case NewGame():
                    if self.ladder.new_game_note:
                        notes.append(self.ladder.new_game_note)
                case After(sides=st):
                    text = self.ladder.sides_text(st)
                    if self.cur is None:
                        text = ""               # a snapshot taken after a new game began
                    if text and not self.marks_only:
                        notes.append(text)
                    k = self.ladder.mark_key(st)
                    if k is not None:
                        if self.mark is not None and k != self.mark:
                            self._flush()
                            n_marks = getattr(self.variant.ladder, "marks", None)
                            # after the last mark no mark begins: the partie is over
                            head = "-- the partie is played" if n_marks and k[0] > n_marks \
                                else f"-- mark {k[0]}" + (f" (refait {k[1]})" if k[1] else "")
                            self.lines.append(head + f"; lost marks white {st['lost_marks'][0]}, "
                                              f"black {st['lost_marks'][1]} --")
                        self.mark = k
                    self._flush()
        out, self.lines = self.lines, []
        return out

    def close(self) -> list[str]:
        self._flush()
        out, self.lines = self.lines, []
        return out


#: the levels of a resignation that concede a unit of play (the trictrac parties: the mark, the
#: game, the partie, the match); the others (a backgammon single, gammon...) are offered
CONCEDED = frozenset({"mark", "game", "partie", "match"})


def _decision_words(who: str, kind: str, answer: Any) -> str:
    """A decision of the log as players say it: `black stays`, `white goes`, `white calls a
    refait`; "" where the event that follows says it (a suspension, a game won and what its
    winner chose)."""
    if answer in ("stay", "hold"):
        return f"{who} stays"
    if answer == "go" and kind != "continue":
        return f"{who} goes"
    if answer in ("go", "continue") or str(answer).startswith("suspend "):
        return ""           # the game won and its winner's choice, `suspends`
    if answer == "refait":
        return f"{who} calls a refait"
    if answer == "concede":
        return f"{who} concedes the mark"
    return f"{who} {kind}: {answer}"


def _chosen_words(variant: Any, who: str, answer: Any) -> str:
    """A choice made before a game's first throw (`[turn.choose]`), by the file's title of
    the choice: `white chooses the goal quarter: 19-24`."""
    rule = next((r for r in getattr(variant, "choices", ()) if answer in r.labels), None)
    if rule is None:
        return f"{who} chooses {answer}"
    title = in_sentence(rule.title)
    # a range of pips is the chooser's own (the opponent's board numbers it otherwise)
    own = f" ({who}'s pips)" if re.fullmatch(r"\s*\d{1,2}\s*[-–]\s*\d{1,2}\s*", str(answer)) \
        else ""
    return f"{who} chooses {title}: {answer}{own}"


def _rule_names(variant: Any) -> dict[str, str]:
    rules = getattr(getattr(variant, "model", None), "rules", None) or {}
    return {rid: r.name for rid, r in rules.items()}


def log_lines(variant: Any, log: list[Event], marks_only: bool = False,
              notation: Any = None) -> list[str]:
    """The text log of a played game from its events (`LogWriter`)."""
    w = LogWriter(variant, marks_only, notation)
    return w.feed(log) + w.close()


def render_game(variant: Any, result: Any, summary: dict, marks_only: bool = False,
                notation: Any = None, with_log: bool = True, side: int = 0) -> str:
    """The log of a played game and its result; plays in `notation` (pips by default);
    without `with_log` (a person has seen the game as it was played) only the result. The
    final board is drawn as the terminal board, seen by `side` (white by default; the person
    at the board), its points in `notation`."""
    marks_only = marks_only or not with_log
    if getattr(result, "combine", None) is not None:
        return render_combine(variant, result, summary, marks_only, notation)
    if getattr(result, "ledger", None) is not None:
        return render_partie(variant, result, summary, marks_only, notation)
    lines = [f"{variant.name} — seed {summary.get('seed')}, white {summary.get('white')} "
             f"vs black {summary.get('black')}"]
    if not marks_only:
        lines += log_lines(variant, result.log, notation=notation)
    game = result.game
    if game is not None and game.turns:
        # the board of the last game played (a rotation's own variant has none)
        b = game.board if game.mover == side else game.variant.flip(game.board)
        drawn = draw_board(game.variant, b, side, notation or PIPS, final=True,
                           width=RECORD_WIDTH).plain
        lines += ["", f"Final position, seen by {SIDES[side]}:", drawn.rstrip("\n")]
    score_line = ladder_class(variant.ladder).summary_line(summary)
    if score_line is not None:
        lines.append(score_line)
    lines.append(result_line(variant, result, summary))
    return "\n".join(lines)


def result_line(variant: Any, result: Any, summary: dict, turns: str = "turns") -> str:
    """How a play ended, as its players say it: the value of a single game (`white wins, worth
    2`), or who won the match or partie and its final score, the winner's first (`white wins
    the match 5-2`), a partie à écrire by its net in jetons (`white wins the partie by 5
    jetons`); a draw; or where it stopped. `turns` names what is counted."""
    if not result.finished:
        return f"stopped after {_count(result.turns, turns)}, unfinished"
    cls = ladder_class(variant.ladder)
    # a partie à écrire is settled in jetons: its result is the winner's net
    jetons = cls.worth_unit(variant.ladder) == "jetons"
    if result.winner is None:
        return f"a level partie ({after(result, turns)})" if jetons else \
            f"a draw ({after(result, turns)})"
    if jetons:
        return (f"{SIDES[result.winner]} wins the partie by {result.value} jetons "
                f"({after(result, turns)})")
    won = cls.contest_won(summary)
    score = summary.get("score")
    winner, loser = SIDES[result.winner], SIDES[1 - result.winner]
    if won is not None and isinstance(score, dict):
        return (f"{winner} wins the {won} {score.get(winner)}-{score.get(loser)} "
                f"({after(result, turns)})")
    return f"{winner} wins, worth {result.value} ({after(result, turns)})"


def _count(n: int, unit: str) -> str:
    return f"{n} {unit if n != 1 else unit.removesuffix('s')}"


def after(result: Any, turns: str = "turns") -> str:
    """`after 12 turns`, and who conceded where a resignation ended the play (the last one,
    made after the last throw)."""
    text = f"after {_count(result.turns, turns)}"
    for e in reversed(getattr(result, "log", None) or ()):
        if isinstance(e, Thrown):
            break
        if isinstance(e, Resigned):
            how = "conceded" if e.level in CONCEDED else f"resigned ({e.level})"
            return f"{text}, {how} by {SIDES[e.side]}"
    return text


def render_partie(variant: Any, result: Any, summary: dict, marks_only: bool = False,
                  notation: Any = None) -> str:
    """A played partie à écrire: one line per mark (refaits included) with the board play that
    led to it, then the lost marks and the settlement. `result.ledger` is the mark ledger
    (interpreter/scoring/ecrire.py) and `result.mark_play` its marks' throws and pick-ups; the
    throws come first unless `marks_only`."""
    from interpreter.io.sheet import signed, settlement_lines

    ledger = result.ledger
    names = ("white", "black")
    width = RECORD_WIDTH
    lines = [f"{variant.name} — seed {summary.get('seed')}, white {summary.get('white')} "
             f"vs black {summary.get('black')}",
             f"a partie of {ledger.n_marks} marks; {summary.get('leader')} leads the first", ""]
    if not marks_only:
        lines += log_lines(variant, result.log, notation=notation) + [""]
    lines.append(f"{'mark':>4}  {'leader':<6}  {'kind':<11}  {'winner':<6}  {'holes':>5}  "
                 f"{'rate':>4}  {'paid':>4}  {'throws':>6}  {'pick-ups':>8}  how")
    for r, play in zip(ledger.results, result.mark_play):
        how = ""
        if r.kind == "refait":
            how = "void, replayed"
        elif r.kind == "conceded":
            how = f"by {names[r.loser]}"
        elif r.pickup is not None:
            how = ", ".join([
                "in arrears" if r.arrears else "in advance",
                "with pick-up" if r.pickup else "without pick-up"]
                + (["rate of the opponent's failed lurch"] if r.rate_from == "opponent" else []))
        winner = "-" if r.winner is None else names[r.winner]
        rate, paid = ("-", "-") if r.kind == "refait" else (f"x{r.multiplier}", str(r.payment))
        holes = f"{r.holes[0]}-{r.holes[1]}"
        row = (f"{r.mark:>4}  {names[r.leader]:<6}  {r.kind:<11}  {winner:<6}  "
               f"{holes:>5}  {rate:>4}  {paid:>4}  {play.turns:>6}  {play.pickups:>8}")
        if how and len(row) + 2 + len(how) > width:
            lines += [row, " " * 6 + how]         # under the row, where the line is narrow
        else:
            lines.append(f"{row}  {how}".rstrip())
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
        lines.append(f"a level partie ({after(result, 'throws')})")
    else:
        lines.append(f"{names[result.winner]} wins the partie by {result.value} jetons "
                     f"({after(result, 'throws')})")
    return "\n".join(lines)


def render_combine(variant: Any, result: Any, summary: dict, marks_only: bool = False,
                   notation: Any = None) -> str:
    """A played partie of trictrac combiné: the marks à écrire as `render_partie` shows them,
    then the honours games, the pool, the suspensions and the settlement in jetons and in fish.
    `result.combine` is the combiné ledger (interpreter/scoring/combine.py)."""
    from interpreter.io.sheet import pool_draw_lines, settlement_lines, signed

    game = result.combine
    ledger = game.ecrire
    names = ("white", "black")
    lines = render_partie(variant, result, summary, marks_only, notation).split("\n")
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
        lines.append(f"a level partie in jetons ({after(result, 'throws')})")
    else:
        lines.append(f"{names[result.winner]} wins the partie by {result.value} jetons "
                     f"({after(result, 'throws')})")
    return "\n".join(lines)
