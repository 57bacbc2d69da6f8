"""Trictrac combiné played on the board: the runner of ladder kind "combine"
(rules/match-scoring.md §4, on top of the partie à écrire of §1–§2).

Each throw is marked as in the partie à écrire (interpreter/engine/ecrire.py): the roller's
points first, then, once he has played, the opponent's points from the same throw. The holes they
make go to the combiné ledger (`Combine`), which counts them for the mark à écrire and for the
twelve-hole honours game unless one of them is suspended. After holes made on his own throw the
roller is asked one question; its choices say what each answer does:

    question    asked when                                  choices (the first one holds)
    "go",       as in the partie à écrire: what a go is in  ("stay", GO, "suspend ecrire",
    "refait",   the mark in play ("go" as well while à       "suspend honours")
    "concede"   écrire is suspended: a mere pick-up)
    "continue"  the throw has just won an honours game      ("hold", GO, "suspend ecrire",
                (continuation, §4.3): go, or keep holding    "suspend honours")
    "banner",   `strict_marker_claims = true` only, as in   ("claim", "pass")
    "necktie"   the partie à écrire

GO is the word of the go in the mark à écrire ("go", "refait" or "concede"). The suspensions are
offered only while neither game is suspended (§4.4: right after a hole on one's own throw, when
the player could go); a suspension is no pick-up, so the suspender holds and plays his throw.
Without continuation (`continuation = false`) the twelfth honours hole made on one's own throw
forces the go and nothing is asked.

A go resets the men. After a pick-up the goer rolls first; after a go that ends a mark, or that
ends a suspension of à écrire made at six holes or more (whose mark was settled then and whose
next mark starts at this pick-up), the leader of the next mark does. A sortie resets the men
without being a pick-up and ends no suspension. The partie ends when the mark ledger has its
number of marks, by a go or by a suspension of à écrire that settled the last mark; the honours
game then in play is settled by `unfinished_honours`, and the pool is shared out (§4.7 rule 5).

`sheet_record(variant, result)` writes a played partie as the record of `tablier sheet` (events
"NAME +N", "NAME +N on NAME", "NAME go", "reset", "NAME suspend ecrire|honours", claims) by
replaying the game's record through the points → holes ladder alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.engine import ecrire
from interpreter.engine.ecrire import EcrireTurn, MarkPlay, PartieResult, go_question
from interpreter.engine.ecrire import advise as advise_ecrire
from interpreter.engine.game import SIDE_NAMES, Game, GameResult, Turn
from interpreter.errors import TablierError
from interpreter.kernel.board import flip
from interpreter.scoring.combine import GAMES, Combine
from interpreter.scoring.ecrire import OBLIGATORY_HOLE

SUSPEND = {game: f"suspend {game}" for game in GAMES}
#: the questions of a partie of combiné; the choices shown are those of the moment (see above)
QUESTIONS: dict[str, tuple[str, ...]] = {
    "go": ("stay", "go", SUSPEND["ecrire"], SUSPEND["honours"]),
    "refait": ("stay", "refait", SUSPEND["ecrire"], SUSPEND["honours"]),
    "concede": ("stay", "concede", SUSPEND["ecrire"], SUSPEND["honours"]),
    "continue": ("hold", "go", "refait", "concede", SUSPEND["ecrire"], SUSPEND["honours"]),
    "banner": ("claim", "pass"),
    "necktie": ("claim", "pass"),
}


@dataclass
class CombineTurn(EcrireTurn):
    """A throw of the partie; `decision` is "go", "stay", "suspend ecrire" or "suspend honours"
    whatever the question was, and `ended` is true on the throw that ended the partie."""

    ended: bool = False


@dataclass
class CombineResult(PartieResult):
    """A played partie of combiné: `ledger` is its mark ledger, `combine` the whole score."""

    combine: Combine | None = None
    #: the suspensions made, in order: (throw number, player, game)
    suspensions: tuple[tuple[int, int, str], ...] = ()


def offer(combine: Combine, player: int, won_honours: bool) -> tuple[str, tuple[str, ...]]:
    """The question put to `player` after holes on his own throw, with its choices now."""
    goword = go_question(combine.ecrire, player) if combine.active("ecrire") else "go"
    if won_honours:
        question, hold = "continue", "hold"
    else:
        question, hold = goword, "stay"
    choices = (hold, goword) + tuple(SUSPEND[g] for g in GAMES if combine.may_suspend(player, g))
    return question, choices


def advise(game: Game, combine: Combine, question: str) -> str:
    """The greedy bot's answer to each question of a partie (docs/variants/trictrac-combine.md).

    À écrire decides first, as in the partie à écrire (`interpreter.engine.ecrire.advise`; while
    à écrire is suspended: go when the opponent's gains from this throw would make him a hole or
    the position is worse). Then the honours game:

    - when à écrire says go with six holes or more on the mark, the opponent's gains from this
      throw would make him no hole and the position is not worse, suspend à écrire instead: the
      mark is settled exactly as by the go, and the good position is kept for the honours game;
    - when à écrire says stay while the roller holds an honours quadruple or treble right and
      the opponent's gains from this throw would make him a hole, or the position is worse (the
      opponent's next holes would spoil the right), suspend the honours game: it is frozen with
      its right until the next pick-up;
    - otherwise go or hold as à écrire says. Banner and necktie: always claim.
    """
    if question in ("banner", "necktie"):
        return "claim"
    from interpreter.players.bots import evaluate

    me = game.mover
    other = 1 - me
    question_now, choices = offer(combine, me, question == "continue")
    hold, goword = choices[0], choices[1]
    theirs = game._pending[1]
    holes = game.holes
    gains_a_hole = bool(theirs) and holes.points[other] + theirs >= holes.ladder.points_per_hole
    worse = evaluate(game.variant, game.board) < evaluate(game.variant, flip(game.board))
    e = combine.ecrire
    if combine.active("ecrire"):
        wants_go = advise_ecrire(game, e, go_question(e, me)) != "stay"
    else:
        wants_go = gains_a_hole or worse
    if wants_go:
        if SUSPEND["ecrire"] in choices and max(e.holes) >= OBLIGATORY_HOLE \
                and not gains_a_hole and not worse:
            return SUSPEND["ecrire"]
        return goword
    right = combine.quadruple_right(me) or combine.treble_right(me)
    if SUSPEND["honours"] in choices and right and (gains_a_hole or worse):
        return SUSPEND["honours"]
    return hold


def _ask(game: Game, player: int, question: str, choices: tuple[str, ...]) -> str:
    answer = game.players[player].decide(game, question, choices)
    if answer not in choices:
        raise TablierError(f"{SIDE_NAMES[player]} answered {answer!r} to {question!r}; "
                           f"expected one of {', '.join(map(repr, choices))}")
    return answer


def _claims(game: Game, combine: Combine, player: int) -> list[tuple[int, str]]:
    """Offer `player` the à écrire markers his first hole gave him (strict claims only)."""
    made: list[tuple[int, str]] = []
    if not combine.active("ecrire"):
        return made
    for marker in combine.ecrire.claims_due(player):
        if _ask(game, player, marker, QUESTIONS[marker]) == "claim":
            combine.claim(player, marker)
            made.append((player, marker))
    return made


class CombineRunner(ecrire.MarkRunner):
    """À écrire's throw loop with combiné's ledger: one points → holes ladder for the whole
    partie (the honours game runs across marks), the honours game's own questions, and the
    suspension of either game."""

    name = "combiné"
    holes_span_marks = True

    def start(self, first: int) -> None:
        self.combine = Combine(self.game.variant.ladder, leader=first, names=SIDE_NAMES)
        self.suspensions: list[tuple[int, int, str]] = []
        self.game.ledger = self.combine.ecrire              # type: ignore[attr-defined]
        self.game.combine = self.combine                    # type: ignore[attr-defined]

    @property
    def finished(self) -> bool:
        return self.combine.finished

    def advise(self, question: str) -> str:
        return advise(self.game, self.combine, question)

    def hole(self, player: int, won: int, thrower: int) -> bool:
        """Mark the holes; whether they won an honours game."""
        before = len(self.combine.honours_results)
        self.combine.hole(player, won, thrower)
        return len(self.combine.honours_results) > before

    def claims(self, player: int) -> list[tuple[int, str]]:
        return _claims(self.game, self.combine, player)

    def decide(self, mover: int, won_honours: Any) -> str:
        if self.combine.must_go == mover:                   # no continuation: the go is forced
            return "go"
        question, choices = offer(self.combine, mover, bool(won_honours))
        answer = _ask(self.game, mover, question, choices)
        if answer.startswith("suspend "):
            return answer
        return "stay" if answer == choices[0] else "go"

    def go(self, mover: int) -> tuple[bool, int | None]:
        # a go after an à écrire suspension of case 1 starts the next mark, led by its leader
        new_mark = self.combine.suspended["ecrire"] is not None \
            and self.combine.suspension_case == 1
        ended = self.combine.go(mover) is not None
        return ended, (self.combine.ecrire.leader if ended or new_mark else None)

    def suspend(self, mover: int, decision: str) -> bool:
        what = decision.split()[1]
        self.suspensions.append((self.game.turns, mover, what))
        return self.combine.suspend(mover, what) is not None

    def reset_men(self) -> None:
        self.combine.reset_men()

    def record(self, mover: int, d1: int, d2: int, b: Any, items: list, decision: str | None,
               claims: list[tuple[int, str]], ended: bool) -> None:
        _record(self.game, mover, d1, d2, b, items, decision, claims, ended)

    def result(self) -> CombineResult:
        return _result(self.game, self.combine, self.first, self.mark_play, self.suspensions)


def run_combine(game: Game) -> CombineResult:
    """Play a whole partie of combiné: marks until the ledger is settled (or `max_turns`)."""
    return CombineRunner(game).run()


def _record(game: Game, mover: int, d1: int, d2: int, b: Any, items: list,
            decision: str | None, claims: list[tuple[int, str]], ended: bool) -> None:
    if game.keep_record:
        game.record.append(CombineTurn(mover, (d1, d2), b, items, decision, tuple(claims),
                                       ended))


def _result(game: Game, combine: Combine, first: int, mark_play: list[MarkPlay],
            suspensions: list[tuple[int, int, str]]) -> CombineResult:
    from interpreter.io.sheet import combine_json

    e = combine.ecrire
    s = combine.settlement
    net = list(s.net) if s is not None else [e.received[i] - e.paid[i] for i in (0, 1)]
    finished = s is not None
    winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
    sheet = combine_json(SIDE_NAMES, combine)
    extra = {key: sheet[key] for key in ("marks", "honours", "pool", "suspended", "lost_marks",
                                         "settlement", "current")}
    extra["leader"] = SIDE_NAMES[first]
    return CombineResult(finished, winner if finished else None,
                         abs(net[0]) if finished else 0, game.turns, net, game.fired,
                         game.record, extra, ledger=e, mark_play=mark_play, combine=combine,
                         suspensions=tuple(suspensions))


# -- the score sheet of a played partie ---------------------------------------------------------

def sheet_events(variant: Any, record: list[Turn]) -> list[str]:
    """The events of `tablier sheet` for a played partie of combiné (suspensions included)."""
    return ecrire.sheet_events(variant, record, holes_span_marks=True)


def sheet_record(variant: Any, result: GameResult) -> dict[str, Any]:
    """The record file (as a TOML-ready dict) of a played partie, as à écrire writes it, with
    combiné's events (suspensions included)."""
    return ecrire.sheet_record(variant, result, sheet_events)


def write_sheet_record(path: Path, variant: Any, result: GameResult) -> None:
    """Write `sheet_record(variant, result)` as a TOML file `tablier sheet` reads."""
    ecrire.write_sheet_record(path, variant, result, sheet_events)
