"""The partie à écrire played on the board: the runner of ladder kind "ecrire"
(rules/match-scoring.md §1–§2, rules/trictrac.md §2, §5).

Each throw is marked as in the game of holes: the roller's points first, then, once he has
played, the opponent's points from the same throw. The holes they make go to the mark ledger
(`Ecrire`) with who made them on whose throw. After holes made on his own throw the roller is
asked whether to go, and what a go means is the ledger's to say from the state of the mark:

    question    asked when                                     choices
    "go"        nobody has 6 holes (a pick-up), or the roller   ("stay", "go")
                has more holes than the opponent and 6 or more
                (he marks)
    "refait"    equal holes, 6 or more each: going voids the    ("stay", "refait")
                mark, which is replayed
    "concede"   the roller has fewer holes than an opponent at  ("stay", "concede")
                6 or more: going gives him the mark at the
                simple rate
    "banner",   `strict_marker_claims = true` only, right      ("claim", "pass")
    "necktie"   after the first hole of a player's mark (asked
                of that player, on either throw)

A go resets the men. After a pick-up the goer rolls first; after a go that ends a mark (won,
conceded or refait) the leader of the next mark does (match-scoring §2.6, trictrac §1.6). A
sortie resets the men too, without being a pick-up, and the player who bore off rolls again. The
partie ends when the ledger has its number of marks, and is settled (match-scoring §2.2).

`sheet_record(variant, result)` writes a played partie down as the record of `tablier sheet`
(spec/INTERFACES.md) by replaying the game's record, throw by throw, through the points → holes
ladder alone: its settlement is the live game's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from interpreter.dsl import points_by_side
from interpreter.engine.game import SIDE_NAMES, Game, GameResult, Turn
from interpreter.errors import TablierError
from interpreter.kernel.board import OFF, flip
from interpreter.scoring.ecrire import OBLIGATORY_HOLE, Ecrire
from interpreter.scoring.holes import Holes

#: the decisions a player is asked in a partie, with their choices (the first one holds)
QUESTIONS: dict[str, tuple[str, ...]] = {
    "go": ("stay", "go"),
    "refait": ("stay", "refait"),
    "concede": ("stay", "concede"),
    "banner": ("claim", "pass"),
    "necktie": ("claim", "pass"),
}


@dataclass
class EcrireTurn(Turn):
    """A throw of the partie; `decision` is "go" or "stay" whatever the question was."""

    #: strict marker claims made during the throw, in order: (player, "banner" | "necktie")
    claims: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class MarkPlay:
    """How the board play of one entry of `Ecrire.results` went (a refait has its own)."""

    turns: int          # throws from the first of the mark to the go that ended it
    pickups: int        # goes that picked up (the mark went on)
    sorties: int        # resets of the men after all were borne off


@dataclass
class PartieResult(GameResult):
    """A played partie: the game's result plus the ledger, for the readable report."""

    ledger: Ecrire | None = None
    #: one entry per entry of `ledger.results`
    mark_play: list[MarkPlay] = field(default_factory=list)


def go_question(ledger: Ecrire, player: int) -> str:
    """What a go by `player` would be now: "go" (a pick-up, or marking while ahead), "refait"
    or "concede" (match-scoring R3–R7)."""
    mine, theirs = ledger.holes[player], ledger.holes[1 - player]
    if max(mine, theirs) < OBLIGATORY_HOLE or mine > theirs:
        return "go"
    return "refait" if mine == theirs else "concede"


def advise(game: Game, ledger: Ecrire, question: str) -> str:
    """The greedy bot's answer to each question of the partie (docs/variants/trictrac-ecrire.md).

    - a pick-up: go when the opponent's gains from this throw would make him a hole (going voids
      them); otherwise stay while a lurch without pick-up is alive (the banner: going would lower
      its rate); otherwise go when the position is worse than the opponent's;
    - marking while ahead at six or more: always go;
    - a refait: stay while the roller's own lurch is alive (one more hole of his wins it at a
      lurch rate), unless the opponent's gains from this throw would put him ahead; otherwise
      call the refait when they would, or when the position is worse;
    - a concession: never while the roller's own lurch is alive; otherwise concede when three
      holes or more behind, when the opponent's gains from this throw would make him a hole, or
      two behind in a worse position;
    - banner and necktie: always claim.
    """
    if question in ("banner", "necktie"):
        return "claim"
    from interpreter.players.bots import evaluate

    me = game.mover
    other = 1 - me
    holes = game.holes
    theirs = game._pending[1]
    gains_a_hole = bool(theirs) and holes.points[other] + theirs >= holes.ladder.points_per_hole
    # `evaluate` rates a position for one side only: compare it with the opponent's view
    worse = evaluate(game.variant, game.board) < evaluate(game.variant, flip(game.board))
    if question == "go":
        if max(ledger.holes) >= OBLIGATORY_HOLE:
            return "go"
        if gains_a_hole:
            return "go"
        if ledger.banner(me):
            return "stay"
        return "go" if worse else "stay"
    if question == "refait":
        if gains_a_hole or (worse and not ledger.lurch_alive(me)):
            return "refait"
        return "stay"
    if question == "concede":
        if ledger.lurch_alive(me):
            return "stay"
        behind = ledger.holes[other] - ledger.holes[me]
        if behind >= 3 or gains_a_hole or (behind == 2 and worse):
            return "concede"
        return "stay"
    return QUESTIONS.get(question, ("stay",))[0]


def _ask(game: Game, player: int, question: str) -> str:
    choices = QUESTIONS[question]
    answer = game.players[player].decide(game, question, choices)
    if answer not in choices:
        raise TablierError(f"{SIDE_NAMES[player]} answered {answer!r} to {question!r}; "
                           f"expected one of {', '.join(map(repr, choices))}")
    return answer


def _claims(game: Game, ledger: Ecrire, player: int) -> list[tuple[int, str]]:
    """Offer `player` the markers his first hole gave him (strict claims only)."""
    made = []
    for marker in ledger.claims_due(player):
        if _ask(game, player, marker) == "claim":
            ledger.claim(player, marker)
            made.append((player, marker))
    return made


class MarkRunner:
    """The throw loop of the written games (à écrire, and combiné on top of it).

    Each throw is marked into holes (the roller's points, then the opponent's after the play);
    the holes go to the mark ledger; after holes on his own throw the roller is asked what to do;
    a go resets the men, and a mark that ends hands the dice to the next mark's leader; a sortie
    resets the men too. A subclass says what the ledger is and what may be decided: the hooks are
    `hole`, `claims`, `decide`, `go`, `suspend`, `reset_men`, `record`, `result`, `finished`.
    """

    #: the game's name, for the refusal of rules scored on the play
    name = "the partie à écrire"
    #: whether one points → holes ladder runs through the whole partie (else one per mark)
    holes_span_marks = False

    def __init__(self, game: Game):
        self.game = game
        rules = game.variant.rules
        if rules.score_play:
            raise TablierError(f"{game.variant.id!r}: {self.name} marks every throw before it "
                               f"is played, so rules scored on the play chosen "
                               f"({', '.join(r.id for r in rules.score_play)}) cannot be used "
                               f"with it")
        self.mark_play: list[MarkPlay] = []

    def new_holes(self) -> Holes:
        holes = Holes(self.game.variant.ladder.holes_ladder(), names=SIDE_NAMES)
        self.game.holes = holes
        return holes

    def run(self) -> GameResult:
        game = self.game
        v = game.variant
        rules = v.rules
        checkers = v.checkers
        d1, d2 = game.start()
        mover = game.mover
        b = game.board
        self.first = mover                                  # leads mark 1
        self.start(mover)
        holes = self.new_holes()
        game.advice = self.advise                           # type: ignore[method-assign]
        turns = pickups = sorties = 0

        def mark_ended() -> None:
            nonlocal turns, pickups, sorties
            self.mark_play.append(MarkPlay(turns, pickups, sorties))
            turns = pickups = sorties = 0

        while game.turns < game.max_turns:
            game.begin_turn(mover, b, d1, d2)
            turns += 1
            other = 1 - mover
            ctx = game.roll_context(b, d1, d2)
            items = rules.roll_items(b, d1, d2, game.rolls[mover], ctx)
            game._score(items)
            mine, theirs = points_by_side(items)
            game._pending = (mine, theirs)
            claims: list[tuple[int, str]] = []
            decision = None
            news = None
            may_go = False
            if mine:
                won, may_go = holes.mark(mover, mine, True)
                if won:
                    news = self.hole(mover, won, mover)
                    claims += self.claims(mover)
            if may_go:
                decision = self.decide(mover, news)
            if decision == "go":
                holes.go(mover)
                ended, leader = self.go(mover)
                b = game._releve()
                self.record(mover, d1, d2, b, items, decision, claims, self.finished)
                if ended:
                    mark_ended()
                else:
                    pickups += 1
                if self.finished:
                    break
                if ended and not self.holes_span_marks:
                    holes = self.new_holes()
                if leader is not None and leader != mover:
                    mover = leader
                    b = flip(b)
            else:
                if decision not in (None, "stay"):
                    if self.suspend(mover, decision):
                        mark_ended()
                    if self.finished:                       # the last mark settled at once
                        self.record(mover, d1, d2, b, items, decision, claims, True)
                        break
                b, items = game._play_roll(b, d1, d2, items, ctx)
                if theirs:
                    won, _ = holes.mark(other, theirs, False)
                    if won:
                        self.hole(other, won, mover)
                        claims += self.claims(other)
                self.record(mover, d1, d2, b, items, decision, claims, False)
                if b[OFF] == checkers:
                    holes.reset_men()
                    self.reset_men()
                    b = game._releve()
                    sorties += 1
                else:
                    b = flip(b)
                    mover = other
            game.mover = mover
            d1, d2 = game._next_dice()
        game.board = b
        return self.result()

    # -- the hooks of the partie à écrire ---------------------------------------------------------

    def start(self, first: int) -> None:
        self.ledger = Ecrire(self.game.variant.ladder, leader=first, names=SIDE_NAMES)
        self.game.ledger = self.ledger                      # type: ignore[attr-defined]

    @property
    def finished(self) -> bool:
        return self.ledger.finished

    def advise(self, question: str) -> str:
        return advise(self.game, self.ledger, question)

    def hole(self, player: int, won: int, thrower: int) -> Any:
        self.ledger.hole(player, won, thrower)
        return None

    def claims(self, player: int) -> list[tuple[int, str]]:
        return _claims(self.game, self.ledger, player)

    def decide(self, mover: int, news: Any) -> str:
        answer = _ask(self.game, mover, go_question(self.ledger, mover))
        return "stay" if answer == "stay" else "go"

    def go(self, mover: int) -> tuple[bool, int | None]:
        """Go: whether a mark ended, and who rolls next if it did (the next mark's leader)."""
        ended = self.ledger.go(mover) is not None
        return ended, (self.ledger.leader if ended else None)

    def suspend(self, mover: int, decision: str) -> bool:
        raise TablierError(f"{decision!r} is not a decision of {self.name}")

    def reset_men(self) -> None:
        self.ledger.reset_men()

    def record(self, mover: int, d1: int, d2: int, b: Any, items: list, decision: str | None,
               claims: list[tuple[int, str]], ended: bool) -> None:
        _record(self.game, mover, d1, d2, b, items, decision, claims)

    def result(self) -> GameResult:
        return _result(self.game, self.ledger, self.first, self.mark_play)


def run_ecrire(game: Game) -> GameResult:
    """Play a whole partie à écrire: marks until the ledger is settled (or `max_turns`)."""
    return MarkRunner(game).run()


def _record(game: Game, mover: int, d1: int, d2: int, b: Any, items: list,
            decision: str | None, claims: list[tuple[int, str]]) -> None:
    if game.keep_record:
        game.record.append(EcrireTurn(mover, (d1, d2), b, items, decision, tuple(claims)))


def _result(game: Game, ledger: Ecrire, first: int, mark_play: list[MarkPlay]) -> PartieResult:
    from interpreter.io.sheet import ecrire_json

    s = ledger.settlement
    if s is not None:
        net = list(s.net)
    else:
        net = [ledger.received[i] - ledger.paid[i] for i in (0, 1)]
    winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
    finished = s is not None
    sheet = ecrire_json(SIDE_NAMES, ledger)
    extra = {"marks": sheet["marks"], "lost_marks": sheet["lost_marks"],
             "settlement": sheet["settlement"], "leader": SIDE_NAMES[first]}
    return PartieResult(finished, winner if finished else None,
                        abs(net[0]) if finished else 0, game.turns, net, game.fired,
                        game.record, extra, ledger=ledger, mark_play=mark_play)


# -- the score sheet of a played partie ---------------------------------------------------------

def sheet_events(variant: Any, record: list[Turn], holes_span_marks: bool = False) -> list[str]:
    """The events of `tablier sheet` for a partie's record, players named "white" and "black".

    Only the record is read: each throw's points (roll items to the mover and to the opponent)
    are marked again in a points → holes ladder, a go after the roller's holes or the
    opponent's holes after the play, then a reset when the play bore the last man off. A go at
    six holes or more ends the mark, which starts the holes afresh.

    With `holes_span_marks` (combiné) one points → holes ladder runs through the whole partie,
    suspensions are written down, and the throw that ended the partie is the last one read.
    """
    ladder = variant.ladder
    checkers = variant.checkers
    names = SIDE_NAMES
    holes = Holes(ladder.holes_ladder(), names=names)
    in_mark = [0, 0]
    events: list[str] = []

    def add_holes(p: int, won: int, thrower: int, claims: tuple) -> None:
        in_mark[p] += won
        events.append(f"{names[p]} +{won}" + ("" if thrower == p else f" on {names[thrower]}"))
        events.extend(f"{names[p]} {marker}" for who, marker in claims if who == p)

    for turn in record:
        p, o = turn.player, 1 - turn.player
        claims = getattr(turn, "claims", ())
        mine, theirs = points_by_side(turn.items)
        if mine:
            won, _ = holes.mark(p, mine, True)
            if won:
                add_holes(p, won, p, claims)
        if turn.decision == "go":
            holes.go(p)
            events.append(f"{names[p]} go")
            if not holes_span_marks and max(in_mark) >= OBLIGATORY_HOLE:
                in_mark = [0, 0]
                holes = Holes(ladder.holes_ladder(), names=names)
            continue
        if turn.decision is not None and turn.decision.startswith("suspend "):
            events.append(f"{names[p]} {turn.decision}")
        if getattr(turn, "ended", False):
            break
        if theirs:
            won, _ = holes.mark(o, theirs, False)
            if won:
                add_holes(o, won, p, claims)
        if turn.board[OFF] == checkers:
            holes.reset_men()
            events.append("reset")
    return events


def sheet_record(variant: Any, result: GameResult,
                 events: Callable[[Any, list], list[str]] | None = None) -> dict[str, Any]:
    """The record file (as a TOML-ready dict) of a played partie: variant, players, marks,
    leader, events and, as `[options]`, every key of the ladder that differs from its default.
    `events` turns the game's record into sheet events (à écrire's by default)."""
    ladder = variant.ladder
    if not result.record:
        raise TablierError("the partie was played without keeping its record (keep_record)")
    defaults = type(ladder)()
    options = {key: value for key, value in ladder.model_dump().items()
               if key not in ("kind", "marks") and value != getattr(defaults, key)}
    record: dict[str, Any] = {
        "variant": variant.id,
        "players": list(SIDE_NAMES),
        "marks": ladder.marks,
        "leader": SIDE_NAMES[result.record[0].player],
        "events": (events or sheet_events)(variant, result.record),
    }
    if options:
        record["options"] = options
    return record


def write_sheet_record(path: Path, variant: Any, result: GameResult,
                       events: Callable[[Any, list], list[str]] | None = None) -> None:
    """Write `sheet_record(variant, result, events)` as a TOML file `tablier sheet` reads."""
    import tomli_w

    record = sheet_record(variant, result, events)
    Path(path).write_text(tomli_w.dumps(record), encoding="utf-8")
