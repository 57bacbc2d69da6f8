"""The partie à écrire: holes → marks → the settlement of the partie (rules/match-scoring.md
§1–§2).

`Ecrire` is the mark ledger. It is fed the events the board game produces — holes made by whom on
whose throw, goes, resets of the men after a sortie, and (with strict claims) banner and necktie
claims — and keeps the state of the current mark exactly as match-scoring §1.2 lists it. A go at
six holes or more ends the mark: a simple mark, a petty or grand lurch (in advance or in arrears,
at its own rate or at the rate copied from the opponent's failed lurch), a conceded mark or a
refait. When the agreed number of marks is won the partie is settled in the mandatory order of §2.2.

Players are 0 and 1. An event the rules forbid in the current state raises `RecordError`. In a
live game the holes come from the points → holes ladder (`EcrireLadder.holes_ladder()`): after
`won, may_go = holes.mark(p, n, own_roll)`, `ledger.hole(p, won, thrower)` when `won`; a go is
`holes.go(p)` and `ledger.go(p)`, a sortie `holes.reset_men()` and `ledger.reset_men()`.

    >>> e = Ecrire(EcrireLadder(), marks=12)
    >>> e.hole(0, 6)                       # Alice: six holes in a row on her own throws
    >>> r = e.go(0)                        # ... and goes: a petty lurch without pick-up
    >>> r.kind, r.multiplier, r.payment    # 3 × (6 holes + 2 consolation)
    ('petty-lurch', 3, 24)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from interpreter.errors import RecordError
from interpreter.scoring.holes import HoleMarking, HolesLadder

#: the five ways a mark can end (match-scoring §1.3–§1.4)
MARK_KINDS = ("simple", "petty-lurch", "grand-lurch", "conceded", "refait")
#: the defaults of the ladder keys `obligatory_hole`, `stake` and `fish` (§1.1, §2.1)
OBLIGATORY_HOLE = 6
STAKE = 20
FISH = 10
MAX_MARKS = 24
#: the paris (§2.4): jetons a lost mark of difference, and once for any difference
PARIS_PER_MARK = 4
PARIS_BASE = 20
#: what a mark lost costs at the settlement beyond its payment, as the bots weigh it: its
#: marker (one jeton, §2.1) and the paris's jetons a mark of difference
MARK_EXTRA = 1 + PARIS_PER_MARK
#: the payments of a mark a network learns the chance of reaching, in jetons (a simple mark
#: pays from a few jetons, a petty lurch from about 20, a grand lurch from about 60)
PAYMENT_LEVELS = (2, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64)


class EcrireLadder(HoleMarking):
    """Points → holes → marks of the partie à écrire, with the house rules of match-scoring §8;
    the holes under the marks are marked as in the `holes` ladder."""

    kind: Literal["ecrire"] = Field("ecrire", description="holes → marks → partie settlement")
    min_marks: Literal[6, 4, 2] = Field(
        6, description="the shortest partie allowed: 6 marks, or 4 as Lelasseux-Lafosse allows "
                       "(Le jeu de trictrac rendu facile, n°220), or 2 for a short partie "
                       "agreed at the board (the score keeper's short parties)")
    marks: int = Field(
        12, description="length of the partie in marks: an even number from `min_marks` to 24 "
                        "(a score-sheet record gives its own)")
    lurch_rates: Literal["seed", "classic"] = Field(
        "seed",
        description="lurch multipliers ×2/×3 petty and ×4/×5 grand, with/without pick-up, as "
                    "the Spanish article on trictrac gives them (`seed`), or petty ×2 and grand "
                    "×4 whatever the pick-ups, as Malfilâtre gives them (`classic`)")
    refait_consolation: Literal["arithmetic", "geometric"] = Field(
        "arithmetic",
        description="consolation after r refaits on a mark: 2×(1+r) (`arithmetic`: 2, 4, "
                    "6…) or 2×2^r (`geometric`: 2, 4, 8…)")
    refait_lead: Literal["same", "alternate"] = Field(
        "same",
        description="a refait is replayed by the leader of the voided mark (`same`) or the "
                    "alternation carries on (`alternate`)")
    mark_lead: Literal["alternate", "winner"] = Field(
        "alternate",
        description="the leader of each new mark alternates (`alternate`) or is the "
                    "player who just won a mark (`winner`)")
    strict_marker_claims: bool = Field(
        False,
        description="banner and necktie are derived from the state (false) or must be "
                    "claimed right after the hole that gives them (true): a missed banner rates "
                    "the lurch as with pick-up, a missed necktie loses the arrears lurch")
    queue_compare: Literal["holdings", "columns"] = Field(
        "holdings",
        description="the queue of jetons goes to the larger holding (`holdings`) or to the "
                    "player who paid less over the marks (`columns`)")
    queue_tie: Literal["split", "own_back"] = Field(
        "split",
        description="on equal holdings the markers are split N/2 each (`split`) or each "
                    "player takes back his own (`own_back`)")
    fish_rounding: Literal["off", "nearest", "five_to_winner"] = Field(
        "off",
        description="also state the result in whole fish: `nearest` (an exact half is "
                    "settled by a high die) or `five_to_winner` (an exact half goes to the winner)")
    case2_grand: Literal["cap_x4", "none"] = Field(
        "cap_x4",
        description="combiné only: after a suspension of à écrire below six holes a grand lurch is "
                    "capped at ×4 (`cap_x4`) or not possible (`none`)")
    obligatory_hole: int = Field(
        OBLIGATORY_HOLE, ge=1, le=24,
        description="The obligatory hole: from this many holes on, a go ends the mark.")
    stake: int = Field(
        STAKE, ge=0, le=10000,
        description="Each player's initial stake in jetons (the holdings of the queue).")
    fish: int = Field(
        FISH, ge=1, le=1000,
        description="Jetons in a fish (the final queue, the rounding in whole fish).")
    final_queue: int = Field(
        0, ge=0,
        description="fish paid to the overall winner after the paris (an agreed bonus)")

    @field_validator("marks")
    @classmethod
    def _even_marks(cls, marks: int, info: ValidationInfo) -> int:
        check_partie_length(marks, info.data.get("min_marks", 6))
        return marks

    def holes_ladder(self) -> HolesLadder:
        """The points → holes ladder under the marks: holes never end a game here, goes do."""
        marking = self.model_dump(include=set(HoleMarking.model_fields))
        return HolesLadder(holes_to_win=0, **marking)


def check_partie_length(marks: int, min_marks: int) -> None:
    if isinstance(marks, bool) or not isinstance(marks, int) or marks % 2 \
            or not min_marks <= marks <= MAX_MARKS:
        raise ValueError(f"a partie is an even number of marks from {min_marks} to {MAX_MARKS}, "
                         f"got {marks!r}")


@dataclass(frozen=True)
class MarkResult:
    """How one mark ended. A refait has no winner or loser and pays 0; its `mark` is the number
    of the mark it voids, which is replayed."""

    mark: int
    kind: str
    winner: int | None
    loser: int | None
    holes: tuple[int, int]
    multiplier: int
    payment: int
    leader: int
    #: lurches only: the pick-up status that set the rate, whether the lurch was made in arrears,
    #: and whose status it was ("own", or "opponent" for a rate copied from a failed lurch)
    pickup: bool | None = None
    arrears: bool | None = None
    rate_from: str | None = None


@dataclass(frozen=True)
class Settlement:
    """The end of the partie (§2.2–§2.5). Amounts in jetons; `net` includes every payment."""

    holdings: tuple[int, int]
    queue_winner: int | None
    markers: tuple[int, int]
    paris: int
    paris_payer: int | None
    paris_payment: int
    final_queue_winner: int | None
    final_queue: int
    net: tuple[int, int]
    #: with fish rounding: the player who lost (None on a level partie), the whole fish lost,
    #: or None with `die` = (low, high) when an exact half is settled by a high die
    fish_loser: int | None = None
    fish: int | None = None
    die: tuple[int, int] | None = None


class Ecrire:
    """The mark ledger of one partie à écrire (match-scoring §1.2–§1.7, §2)."""

    def __init__(self, ladder: EcrireLadder | None = None, marks: int | None = None,
                 leader: int = 0, names: tuple[str, str] = ("player 0", "player 1")):
        self.ladder = ladder = ladder or EcrireLadder()
        self.names = names              # for the messages of errors only
        self.n_marks = ladder.marks if marks is None else marks
        try:
            check_partie_length(self.n_marks, ladder.min_marks)
        except ValueError as err:
            raise RecordError(str(err)) from None
        if leader not in (0, 1):
            raise RecordError(f"the leader must be player 0 or 1, got {leader!r}")
        self.leader = leader
        self.k = 1                       # number of the mark in play
        self.r = 0                       # refaits already played on it
        self.results: list[MarkResult] = []
        self.payments: list[tuple[int, int, int]] = []   # (payer, payee, jetons)
        self.lost_marks = [0, 0]
        self.paid = [0, 0]
        self.received = [0, 0]
        self.marks_won = 0
        self.settlement: Settlement | None = None
        self._new_mark()

    def _new_mark(self) -> None:
        self.holes = [0, 0]
        self.opp_at_first: list[int | None] = [None, None]
        self.interrupted = [False, False]
        self.picked_up = [False, False]
        #: None, or whether the opponent's failed lurch had no pick-up (it sets the rate)
        self.fixed_rate_from: list[bool | None] = [None, None]
        self.can_go = -1
        # strict marker claims: the rights due at each player's first hole and those claimed;
        # `_claimant` is the player whose first hole was the last event but claims
        self.banner_due = [False, False]
        self.necktie_due = [False, False]
        self.banner_claimed = [False, False]
        self.necktie_claimed = [False, False]
        self._claimant = -1
        self._last_hole: tuple[int, int] | None = None   # (maker, on whose throw)

    # -- state shown on the sheet -----------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.settlement is not None

    def lurch_alive(self, p: int) -> bool:
        return self.holes[p] >= 1 and not self.interrupted[p]

    def arrears(self, p: int) -> bool:
        first = self.opp_at_first[p]
        return first is not None and first > 0

    def banner(self, p: int) -> bool:
        """The banner (§1.6): a live lurch without pick-up whose rate is the player's own."""
        if not self.lurch_alive(p) or self.fixed_rate_from[p] is not None:
            return False
        if self.picked_up[p]:
            return False
        return self.banner_claimed[p] or not self.ladder.strict_marker_claims

    def necktie(self, p: int) -> bool:
        """The necktie (§1.6): a live lurch in arrears."""
        if not (self.lurch_alive(p) and self.arrears(p)):
            return False
        return self.necktie_claimed[p] or not self.ladder.strict_marker_claims

    def claims_due(self, p: int) -> tuple[str, ...]:
        """The markers p may claim right now ("banner", "necktie"): with strict claims, those
        his first hole of the mark gave him and he has not claimed yet; otherwise none."""
        if self._claimant != p or self.settlement is not None:
            return ()
        return tuple(marker for marker, due, claimed in (
            ("banner", self.banner_due, self.banner_claimed),
            ("necktie", self.necktie_due, self.necktie_claimed)) if due[p] and not claimed[p])

    def _banner_missed(self, p: int) -> bool:
        return (self.ladder.strict_marker_claims and self.banner_due[p]
                and not self.banner_claimed[p])

    def _necktie_missed(self, p: int) -> bool:
        return (self.ladder.strict_marker_claims and self.necktie_due[p]
                and not self.necktie_claimed[p])

    # -- events -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.settlement is not None:
            raise RecordError(f"the partie is over: all {self.n_marks} marks have been won")

    def hole(self, player: int, n: int = 1, on_throw_of: int | None = None) -> None:
        """`player` makes `n` holes on the throw of `on_throw_of` (default: his own), R1."""
        self._check_open()
        if n < 1:
            raise RecordError(f"a hole event needs at least one hole, got {n}")
        thrower = player if on_throw_of is None else on_throw_of
        other = 1 - player
        holes = self.holes
        first = holes[player] == 0
        for _ in range(n):
            if holes[player] == 0:
                self.opp_at_first[player] = holes[other]
                if holes[other] >= self.ladder.obligatory_hole:
                    self.fixed_rate_from[player] = not (self.picked_up[other]
                                                        or self._banner_missed(other))
            if holes[other] >= 1:
                self.interrupted[other] = True
            holes[player] += 1
        # consecutive own-throw holes keep the right to go; anything else ends it (R2)
        self.can_go = player if thrower == player else -1
        self._last_hole = (player, thrower)
        self._claimant = -1
        if first and self.ladder.strict_marker_claims:
            self.banner_due[player] = self.fixed_rate_from[player] is None
            self.necktie_due[player] = self.arrears(player)
            self._claimant = player

    def claim(self, player: int, marker: str) -> None:
        """A strict claim of the banner or the necktie, right after the hole that gives it."""
        self._check_open()
        if marker not in ("banner", "necktie"):
            raise RecordError(f"only the banner or the necktie can be claimed, not {marker!r}")
        if not self.ladder.strict_marker_claims:
            raise RecordError("the banner and the necktie are derived from the holes; claims "
                              "apply only with strict_marker_claims = true")
        due, claimed = ((self.banner_due, self.banner_claimed) if marker == "banner"
                        else (self.necktie_due, self.necktie_claimed))
        if not due[player]:
            why = {"banner": "it marks a lurch without pick-up at the player's own rate",
                   "necktie": "it marks a lurch in arrears"}[marker]
            raise RecordError(f"no {marker} is due to {self.names[player]} in this mark ({why}, "
                              f"claimed at the first hole)")
        if claimed[player]:
            raise RecordError(f"the {marker} has already been claimed")
        if self._claimant != player:
            raise RecordError(f"too late to claim the {marker}: it must be claimed right after "
                              f"the first hole of the mark")
        claimed[player] = True

    def reset_men(self) -> None:
        """All men borne off and reset (sortie): not a pick-up, and it ends any right to go."""
        self._check_open()
        self.can_go = -1
        self._claimant = -1
        self._last_hole = None

    def go(self, player: int) -> MarkResult | None:
        """`player` goes. Below six holes a pick-up (returns None); at six or more the mark ends:
        a refait on equal holes, else a won or conceded mark (R3–R7)."""
        self._check_open()
        if self.can_go != player:
            raise RecordError(self._why_no_go(player))
        self.can_go = -1
        self._claimant = -1
        self._last_hole = None
        holes = self.holes
        if max(holes) < self.ladder.obligatory_hole:
            self.picked_up[player] = True           # R3: the goer has at least this hole
            return None
        if holes[0] == holes[1]:
            return self._refait()
        winner = 0 if holes[0] > holes[1] else 1
        return self._settle_mark(winner, conceded=winner != player)

    def _why_no_go(self, player: int) -> str:
        last = self._last_hole
        me, them = self.names[player], self.names[1 - player]
        if last is not None and last[0] == player and last[1] != player:
            return (f"{me} made that hole on {them}'s throw and must hold: a go needs a hole "
                    f"made on one's own throw")
        if last is not None and last[0] != player and last[1] == player:
            return (f"{me} has stayed: {them} has marked holes from {me}'s throw since, and a go "
                    f"must directly follow the goer's own-throw holes")
        return (f"{me} may go only directly after making a hole on {me}'s own throw (a go must "
                f"directly follow the goer's own-throw holes)")

    def concede_mark(self, player: int) -> MarkResult:
        """`player` concedes the mark in play (a resignation, `resign` at the board): it is
        settled as a conceded mark (match-scoring R7), won by the opponent at the simple rate,
        (his holes − the conceder's) + the consolation, and the next mark begins. R7 has the
        conceder behind; one level or ahead pays the consolation alone (his holes cancel the
        opponent's but never turn the payment round)."""
        self._check_open()
        self.can_go = -1
        self._claimant = -1
        self._last_hole = None
        return self._settle_mark(1 - player, conceded=True, resigned=True)

    def resign(self, player: int) -> None:
        """`player` resigns the partie: the mark in play and every mark still to be played are
        settled as marks conceded to the opponent (`concede_mark`: each mark after the first at
        no holes, worth its consolation), and the partie is settled as usual."""
        self._check_open()
        while self.settlement is None:
            self.concede_mark(player)

    # -- the end of a mark ------------------------------------------------------------------

    def consolation(self) -> int:
        if self.ladder.refait_consolation == "geometric":
            return 2 * 2 ** self.r
        return 2 * (1 + self.r)

    def _refait(self) -> MarkResult:
        result = MarkResult(mark=self.k, kind="refait", winner=None, loser=None,
                            holes=(self.holes[0], self.holes[1]), multiplier=1, payment=0,
                            leader=self.leader)
        self.results.append(result)
        self.r += 1
        if self.ladder.refait_lead == "alternate":
            self.leader = 1 - self.leader
        self._new_mark()
        return result

    def _lurch(self, w: int) -> tuple[str, int, bool, bool, str] | None:
        """(kind, multiplier, pickup, arrears, rate_from) of w's live lurch, or None (§1.4)."""
        if not self.lurch_alive(w):
            return None
        arrears = self.arrears(w)
        if arrears and self._necktie_missed(w):
            return None
        grand = self.holes[w] >= 12
        fixed = self.fixed_rate_from[w]
        if fixed is not None:
            pickup, rate_from = not fixed, "opponent"
        else:
            pickup, rate_from = self.picked_up[w] or self._banner_missed(w), "own"
        if self.ladder.lurch_rates == "classic":
            m = 4 if grand else 2
        else:
            m = (4 if pickup else 5) if grand else (2 if pickup else 3)
        return ("grand-lurch" if grand else "petty-lurch"), m, pickup, arrears, rate_from

    def _settle_mark(self, w: int, conceded: bool, resigned: bool = False) -> MarkResult:
        loser = 1 - w
        holes = self.holes
        lurch = None if conceded else self._lurch(w)
        c = self.consolation()
        if lurch is None:
            kind, m = ("conceded" if conceded else "simple"), 1
            extra: dict = {}
        else:
            kind, m, pickup, arrears, rate_from = lurch
            extra = {"pickup": pickup, "arrears": arrears, "rate_from": rate_from}
        if resigned:        # R7's simple rate; a conceder level or ahead pays the consolation
            payment = max(holes[w] - holes[loser], 0) + c
        else:
            payment = m * (holes[w] + c) - holes[loser]                  # R5
        result = MarkResult(mark=self.k, kind=kind, winner=w, loser=loser,
                            holes=(holes[0], holes[1]), multiplier=m, payment=payment,
                            leader=self.leader, **extra)
        self.results.append(result)
        self.payments.append((loser, w, payment))
        self.paid[loser] += payment
        self.received[w] += payment
        self.lost_marks[loser] += 1
        self.marks_won += 1
        self.k += 1
        self.r = 0
        self.leader = w if self.ladder.mark_lead == "winner" else 1 - self.leader
        self._new_mark()
        if self.marks_won == self.n_marks:
            self.settlement = self._settle_partie()
        return result

    # -- the end of the partie --------------------------------------------------------------

    def holdings(self) -> tuple[int, int]:
        """Each player's jetons after the mark payments, lost-mark markers set aside (§2.1)."""
        return tuple(self.ladder.stake + self.received[i] - self.paid[i] - self.lost_marks[i]
                     for i in (0, 1))  # type: ignore[return-value]

    def _settle_partie(self) -> Settlement:
        ladder = self.ladder
        n = self.n_marks
        lost = self.lost_marks
        held = self.holdings()
        # 1. the queue of jetons (§2.3)
        if ladder.queue_compare == "holdings":
            diff = held[0] - held[1]
        else:                                    # the player who paid less over the marks
            diff = self.paid[1] - self.paid[0]
        queue_winner = None if diff == 0 else (0 if diff > 0 else 1)
        if queue_winner is not None:
            markers = (n, 0) if queue_winner == 0 else (0, n)
        elif ladder.queue_tie == "split":
            markers = (n // 2, n // 2)
        else:
            markers = (lost[0], lost[1])
        net = [self.received[i] - self.paid[i] - lost[i] + markers[i] for i in (0, 1)]
        # 2. paris and the queue of paris (§2.4)
        d = abs(lost[0] - lost[1])
        paris_payer = None if d == 0 else (0 if lost[0] > lost[1] else 1)
        paris_payment = PARIS_PER_MARK * d + PARIS_BASE if d else 0
        if paris_payer is not None:
            net[paris_payer] -= paris_payment
            net[1 - paris_payer] += paris_payment
        # an agreed final queue to the overall winner (§2.5, LAF §229)
        FISH = ladder.fish
        fq_winner, fq = None, ladder.final_queue * FISH
        if fq and net[0] != net[1]:
            fq_winner = 0 if net[0] > net[1] else 1
            net[fq_winner] += fq
            net[1 - fq_winner] -= fq
        else:
            fq = 0
        settlement = Settlement(holdings=held, queue_winner=queue_winner, markers=markers,
                                paris=d, paris_payer=paris_payer, paris_payment=paris_payment,
                                final_queue_winner=fq_winner, final_queue=fq,
                                net=(net[0], net[1]))
        if ladder.fish_rounding == "off":
            return settlement
        # 3. optional pricing in whole fish (§2.5)
        fish_loser = None if net[0] == 0 else (0 if net[0] < 0 else 1)
        loss = -net[fish_loser] if fish_loser is not None else 0
        whole, rest = divmod(loss, FISH)
        fish: int | None = whole + (1 if rest > FISH // 2 else 0)
        die = None
        if rest * 2 == FISH:
            if ladder.fish_rounding == "five_to_winner":
                fish = whole + 1
            else:
                fish, die = None, (whole, whole + 1)
        return replace(settlement, fish_loser=fish_loser, fish=fish, die=die)


# -- the live partie (the turn loop's ladder for `kind = "ecrire"`) ------------------------------

from dataclasses import dataclass as _dataclass  # noqa: E402
from typing import Any  # noqa: E402

from interpreter.errors import TablierError  # noqa: E402
from interpreter.scoring.holes import (  # noqa: E402
    Holes, PointsLadder, holes_sides, holes_state, points_text, points_words)
from interpreter.engine.events import Claimed, Hole, MenReset, Suspended, Went  # noqa: E402
from interpreter.scoring.protocol import (  # noqa: E402
    END, ON, GameResult, Gen, Next, Worth, pair_text, pair_words, side_view)

#: the decisions of a partie à écrire, with their choices (the first one holds)
QUESTIONS: dict[str, tuple[str, ...]] = {
    "go": ("stay", "go"),
    "refait": ("stay", "refait"),
    "concede": ("stay", "concede"),
    "banner": ("claim", "pass"),
    "necktie": ("claim", "pass"),
}
NAMES = ("white", "black")


# -- the JSON object of a partie's sheet (io/sheet.py's, and the result of a partie played) ----

def _mark_json(result: MarkResult, names: tuple[str, str]) -> dict:
    entry: dict[str, Any] = {
        "mark": result.mark,
        "kind": result.kind,
        "winner": None if result.winner is None else names[result.winner],
        "loser": None if result.loser is None else names[result.loser],
        "holes": {names[0]: result.holes[0], names[1]: result.holes[1]},
        "multiplier": result.multiplier,
        "payment": result.payment,
    }
    if result.pickup is not None:
        entry["pickup"] = result.pickup
        entry["arrears"] = result.arrears
        entry["rate_from"] = result.rate_from
    return entry


def ecrire_json(names: tuple[str, str], ledger: Ecrire) -> dict:
    s = ledger.settlement
    settlement: dict[str, Any] | None = None
    if s is not None:
        pair = lambda t: {names[0]: t[0], names[1]: t[1]}  # noqa: E731
        settlement = {
            "queue_of_jetons": {
                "winner": None if s.queue_winner is None else names[s.queue_winner],
                "markers": pair(s.markers)},
            "paris": s.paris,
            "paris_payment": s.paris_payment,
            "net": pair(s.net),
        }
        if ledger.ladder.final_queue:
            settlement["final_queue"] = {
                "winner": None if s.final_queue_winner is None else names[s.final_queue_winner],
                "jetons": s.final_queue}
        if ledger.ladder.fish_rounding != "off":
            settlement["fish"] = {
                "loser": None if s.fish_loser is None else names[s.fish_loser],
                "fish": s.fish,
                "die": None if s.die is None else list(s.die)}
    return {
        "marks": [_mark_json(r, names) for r in ledger.results],
        "lost_marks": {names[0]: ledger.lost_marks[0], names[1]: ledger.lost_marks[1]},
        "finished": ledger.finished,
        "settlement": settlement,
    }


@_dataclass(frozen=True)
class MarkPlay:
    """How the board play of one entry of `Ecrire.results` went (a refait has its own)."""

    turns: int          # throws from the first of the mark to the go that ended it
    pickups: int        # goes that picked up (the mark went on)
    sorties: int        # resets of the men after all were borne off


def go_question(ledger: Ecrire, player: int) -> str:
    """What a go by `player` would be now: "go" (a pick-up, or marking while ahead), "refait"
    or "concede" (match-scoring R3–R7)."""
    mine, theirs = ledger.holes[player], ledger.holes[1 - player]
    if max(mine, theirs) < ledger.ladder.obligatory_hole or mine > theirs:
        return "go"
    return "refait" if mine == theirs else "concede"


def ecrire_state(ledger: Ecrire, player: int) -> dict[str, Any]:
    """The mark in play and the partie, as plain data seen by `player`."""
    o = 1 - player
    return {"mark": ledger.k, "marks": ledger.n_marks, "refaits": ledger.r,
            "leader": "me" if ledger.leader == player else "opponent",
            "mark_holes": side_view(ledger.holes, player),
            "lurch_alive": {"me": ledger.lurch_alive(player), "opponent": ledger.lurch_alive(o)},
            "banner": {"me": ledger.banner(player), "opponent": ledger.banner(o)},
            "necktie": {"me": ledger.necktie(player), "opponent": ledger.necktie(o)},
            "lost_marks": side_view(ledger.lost_marks, player),
            "jetons": {"me": ledger.received[player] - ledger.paid[player],
                       "opponent": ledger.received[o] - ledger.paid[o]},
            "obligatory_hole": ledger.ladder.obligatory_hole,
            "go_question": go_question(ledger, player)}


def ecrire_sides(ledger: Ecrire) -> dict[str, Any]:
    """The partie in the players' terms, sides white and black: marks played, the columns of
    lost jetons, the leader of the next mark, holes, banner and necktie (a postponed partie)."""
    return {"mark": ledger.k, "marks_won": ledger.marks_won, "refaits": ledger.r,
            "leader": NAMES[ledger.leader], "mark_holes": list(ledger.holes),
            "lost_marks": list(ledger.lost_marks), "paid": list(ledger.paid),
            "received": list(ledger.received),
            "banner": [ledger.banner(0), ledger.banner(1)],
            "necktie": [ledger.necktie(0), ledger.necktie(1)],
            "results": [f"{r.mark} {r.kind}" + ("" if r.winner is None else f" {NAMES[r.winner]}")
                        for r in ledger.results]}


from interpreter.scoring.schools import Schools  # noqa: E402


class EcrirePlay(Schools, PointsLadder):
    """The partie à écrire on the board. Each throw is marked as in the game of holes: the
    roller's points first, then, once he has played, the opponent's points from the same throw;
    the holes go to the mark ledger with who made them on whose throw. After holes made on his
    own throw the roller is asked what a go would be now ("go", "refait" or "concede"); a go
    resets the men; after a pick-up the goer throws first, after a go that ends a mark the
    leader of the next mark does. A sortie resets the men too (the player who bore off throws
    again). Strict marker claims ask "banner" and "necktie" right after the first hole."""

    #: a board marks this ladder's mark holes with pegs (and its points with jetons)
    peg_key: str | None = "mark_holes"

    #: the game's name, for the refusal of rules scored on the play
    name = "the partie à écrire"
    #: a network learns the mark in play: who wins it and what it pays, in steps of jetons
    learns_units = True
    unit_levels: tuple[int, ...] | None = PAYMENT_LEVELS
    marked_before_play: str | None = name
    net_unit = "jetons"
    sheet: str | None = "marks"
    feature_names: tuple[str, ...] = tuple(
        f"{n}_{side}" for side in ("me", "opponent")
        for n in ("points", "mark_holes", "bredouille", "lurch_alive", "banner", "jetons")
    ) + ("can_go", "mark", "leader")

    @classmethod
    def features(cls, state: dict) -> list[float]:
        """The points and holes of the mark in play, the mark's flags, the partie's progress
        and each side's jetons."""
        s = state
        pph = float(s.get("points_per_hole") or 12)
        out = []
        for side in ("me", "opponent"):
            out += [s["points"][side] / pph, s["mark_holes"][side] / 12.0,
                    float(s["bredouille"][side]), float(s["lurch_alive"][side]),
                    float(s["banner"][side]), s["jetons"][side] / 50.0]
        marks = float(s.get("marks") or 12)
        out += [float(s.get("can_go", False)), s.get("mark", 1) / marks,
                float(s.get("leader") == "me")]
        return out

    @classmethod
    def net(cls, winner: int | None, points: Any, value: int, side: int) -> float:
        """The jetons `side` won (+) or lost (−)."""
        return float(points[side])

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "jetons"

    @classmethod
    def worth_unit(cls, model: Any = None) -> str:
        """The partie is worth the jetons of its settlement."""
        return "jetons"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        """The partie is won by the jetons its marks pay: those paid so far, less what each
        lost mark costs at the settlement (its marker, and four jetons of the paris), and the
        mark in play (a mark won is worth `MARK_EXTRA` beyond its payment)."""
        jetons = state.get("jetons") or {"me": 0, "opponent": 0}
        lost = state.get("lost_marks") or {"me": 0, "opponent": 0}
        return Worth(summed=float(jetons["me"] - jetons["opponent"]
                                  - MARK_EXTRA * (lost["me"] - lost["opponent"])),
                     bonus=float(MARK_EXTRA))

    def units_won(self) -> list[tuple[int | None, int]]:
        """Each mark settled: its winner (None: a refait) and payment."""
        ledger = self.ledger
        return [] if ledger is None else [(r.winner, r.payment) for r in ledger.results]

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        me, them = names
        out = [points_words(state, names)]
        if "mark" in state:
            refait = f", refait {state['refaits']}" if state.get("refaits") else ""
            out.append(f"mark {state['mark']} of {state['marks']}{refait}: holes "
                       f"{pair_words(state, 'mark_holes', names)}; lost marks "
                       f"{pair_words(state, 'lost_marks', names)}; jetons "
                       f"{pair_words(state, 'jetons', names)}")
            flags = [f"{me if w == 'me' else them}: {what}"
                     for what in ("banner", "necktie") for w in ("me", "opponent")
                     if (state.get(what) or {}).get(w)]
            if flags:
                out.append("markers: " + ", ".join(flags))
        return out

    @classmethod
    def sides_text(cls, state: dict) -> str:
        st = state
        return (f"{points_text(st)}; mark {st.get('mark')} holes {pair_text(st, 'mark_holes')}; "
                f"lost marks {pair_text(st, 'lost_marks')}; jetons "
                f"{st['received'][0] - st['paid'][0]:+d}/{st['received'][1] - st['paid'][1]:+d}")

    @classmethod
    def mark_key(cls, state: dict) -> tuple | None:
        return (state.get("mark"), state.get("refaits"))
    #: whether one points → holes ladder runs through the whole partie (else one per mark)
    holes_span_marks = False

    def __init__(self, model: Any, game: Any):
        super().__init__(model, game)
        rules = game.variant.rules
        if rules.score_play:
            raise TablierError(f"{game.variant.id!r}: {self.name} marks every throw before it "
                               f"is played, so rules scored on the play chosen "
                               f"({', '.join(r.id for r in rules.score_play)}) cannot be used "
                               f"with it")
        self.mark_play: list[MarkPlay] = []
        self.holes = Holes(model.holes_ladder(), names=NAMES)
        self._theirs = 0
        self._turns = self._pickups = self._sorties = 0
        self.first = 0
        self.bredouilles = [0, 0]
        self.ledger: Ecrire | None = None
        self.init_schools()

    # -- the ledger's hooks (combiné replaces them) ------------------------------------------------

    def make_ledger(self, first: int) -> None:
        self.ledger = Ecrire(self.model, leader=first, names=NAMES)

    @property
    def marks(self) -> Ecrire:
        assert self.ledger is not None
        return self.ledger

    def hole(self, player: int, won: int, thrower: int) -> Any:
        self.marks.hole(player, won, thrower)
        return None

    def claims_due(self, player: int) -> tuple[str, ...]:
        return self.marks.claims_due(player)

    def claim(self, player: int, marker: str) -> None:
        self.marks.claim(player, marker)

    def decide(self, mover: int, news: Any) -> Gen:
        g = self.game
        q = go_question(self.marks, mover)
        d = g.ask(q, mover, QUESTIONS[q])
        answer = d.choices[g.answered(d, (yield d))]
        return "stay" if answer == "stay" else "go"

    def go(self, mover: int) -> tuple[bool, int | None]:
        """Go: whether a mark ended, and who throws next if it did (the next mark's leader)."""
        ended = self.marks.go(mover) is not None
        return ended, (self.marks.leader if ended else None)

    def suspend(self, mover: int, decision: str) -> bool:
        raise TablierError(f"{decision!r} is not a decision of {self.name}")

    def reset_ledger(self) -> None:
        self.marks.reset_men()

    # -- the protocol --------------------------------------------------------------------------

    def opening(self, ties: int) -> None:
        if self.ledger is None:
            self.first = self.game.mover
            self.make_ledger(self.first)

    def _mark(self, player: int, n: int, own: bool) -> tuple[int, bool, Any]:
        won, may_go = self.holes.mark(player, n, own)
        news = None
        if won:
            thrower = self.game.mover
            self.game.event(Hole, player, won, thrower)
            if won % 2 == 0:
                self.bredouilles[player] += 1
            news = self.hole(player, won, thrower)
        return won, may_go, news

    def _claims(self, player: int) -> Gen:
        g = self.game
        for marker in self.claims_due(player):
            d = g.ask(marker, player, QUESTIONS[marker])
            if g.answered(d, (yield d)) == 0:
                self.claim(player, marker)
                g.event(Claimed, player, marker)

    def _mark_ended(self) -> None:
        self.mark_play.append(MarkPlay(self._turns, self._pickups, self._sorties))
        self._turns = self._pickups = self._sorties = 0

    def on_roll(self, mine: int, theirs: int) -> Gen:
        g = self.game
        mover = g.mover
        self._turns += 1
        self._theirs = theirs
        decision = None
        news = None
        may_go = False
        if mine and self.schools_on:
            mine = yield from self.claimed(mover, mine)
        if mine:
            won, may_go, news = self._mark(mover, mine, True)
            if won:
                yield from self._claims(mover)
        if may_go:
            decision = yield from self.decide(mover, news)
        if decision == "go":
            self.holes.go(mover)
            ended, leader = self.go(mover)
            g.event(Went, mover)
            if ended:
                self._mark_ended()
            else:
                self._pickups += 1
            if not ended:
                if self._schools:
                    yield from self.schools_last()
            else:
                self._schools = []      # the mark is settled: its schools are void with it
            if self.finished:
                return END
            if ended and not self.holes_span_marks:
                self.holes = Holes(self.model.holes_ladder(), names=NAMES)
            return Next("releve", mover if leader is None else leader)
        if decision not in (None, "stay"):
            g.event(Suspended, mover, decision.split()[1])
            if self.suspend(mover, decision):
                self._mark_ended()
            if self.finished:                       # the last mark settled at once
                return END
        return None

    def on_play(self, mine: int, theirs: int) -> Gen:
        g = self.game
        theirs = self._theirs
        if theirs:
            other = 1 - g.mover
            if self.schools_on:
                theirs = yield from self.claimed(other, theirs)
            if theirs:
                won, _, _ = self._mark(other, theirs, False)
                if won:
                    yield from self._claims(other)
        if self._schools:
            yield from self.schools_last()
        return ON

    def school_mark(self, side: int, n: int) -> Gen:
        won, _, _ = self._mark(side, n, False)
        if won:
            yield from self._claims(side)

    @classmethod
    def contest_won(cls, summary: dict) -> str | None:
        return "partie"

    #: `resign` concedes the mark in play, `concede partie` the partie (docs/play.md)
    resign_levels = ("mark", "partie")
    resign_whole = "partie"
    #: a record written when `resign` conceded the partie says "resigns game"
    resign_aliases = {"game": "partie"}

    def resign(self, player: int, level: str) -> Next:
        """A resignation concedes the mark in play (level "mark": `Ecrire.concede_mark`, a
        conceded mark of match-scoring R7; the men are set up again for the next mark, whose
        leader throws) or the partie ("partie": `Ecrire.resign`, every mark left conceded)."""
        if self.ledger is None:
            self.make_ledger(self.game.mover)
        before = len(self.marks.results)
        if level == "mark":
            self.concede_ledger(player)
        else:
            self.resign_ledger(player)
        for _ in range(len(self.marks.results) - before):
            self._mark_ended()
        if self.finished:
            return END
        # as after a go that ends a mark: the schools of the mark are void with it, the points
        # and the bredouille start afresh
        self._schools = []
        self._theirs = 0
        if self.holes_span_marks:
            h = self.holes
            h.points[0] = h.points[1] = 0
            h.bred[0] = h.bred[1] = True
            h.can_go = -1
        else:
            self.holes = Holes(self.model.holes_ladder(), names=NAMES)
        return Next("releve", self.marks.leader)

    def scorer(self) -> Any:
        """The ledger a resignation is settled on: the marks (combiné: with the honours)."""
        return self.marks

    def resign_ledger(self, player: int) -> None:
        self.scorer().resign(player)

    def concede_ledger(self, player: int) -> None:
        self.scorer().concede_mark(player)

    def resign_terms(self, player: int, level: str, names: tuple[str, str]) -> str:
        """What conceding the mark or the partie gives away now, worked out on a copy of the
        ledger by the code that will settle it."""
        import copy

        if self.ledger is None:
            return f"conceding the {level}: {names[1]} wins it"
        me, them = names
        e = self.marks
        trial = copy.deepcopy(self.scorer())
        marks = trial if isinstance(trial, Ecrire) else trial.ecrire
        mine, theirs = e.holes[player], e.holes[1 - player]
        at = f"mark {e.k} of {e.n_marks} (holes {me} {mine}, {them} {theirs})"
        if level == "mark":
            r = trial.concede_mark(player)
            first = me if marks.leader == player else them
            after = ("the last mark: the partie is then settled" if marks.finished else
                     f"then mark {marks.k} begins, {first} throwing first")
            return (f"conceding {at}: {them} wins it as a conceded mark, at the simple rate: "
                    f"{r.payment} jetons from {me}, and a lost mark for {me}; {after}")
        trial.resign(player)
        left = marks.marks_won - e.marks_won - 1
        s = marks.settlement
        net = s.net if s is not None else (0, 0)
        later = f" and the {left} mark{'s' if left != 1 else ''} still to play" if left else ""
        return (f"conceding the partie: {at}{later} go to {them} as conceded marks, then the "
                f"partie is settled: {me} {net[player]:+d}, {them} {net[1 - player]:+d} jetons")

    def on_all_off(self) -> None:
        self.holes.reset_men()
        self.reset_ledger()
        self._sorties += 1
        self.game.event(MenReset)

    # -- state and result ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ledger is not None and self.ledger.finished

    def state(self, player: int) -> dict[str, Any]:
        out = {"kind": self.model.kind, **holes_state(self.holes, player),
               **self.school_state()}
        if self.ledger is not None:
            out.update(ecrire_state(self.ledger, player))
        return out

    def sides(self) -> dict[str, Any]:
        out = holes_sides(self.holes)
        if self.ledger is not None:
            out.update(ecrire_sides(self.ledger))
        return out

    def figures(self) -> dict[str, Any]:
        ledger = self.ledger
        kinds: dict[str, int] = {}
        # lurches by the pick-up status that set their rate (with or without pick-up)
        lurches = {kind: {"pickup": 0, "no_pickup": 0} for kind in ("petty-lurch", "grand-lurch")}
        for r in ledger.results if ledger is not None else ():
            kinds[r.kind] = kinds.get(r.kind, 0) + 1
            if r.kind in lurches:
                lurches[r.kind]["pickup" if r.pickup else "no_pickup"] += 1
        return {"marks": ledger.marks_won if ledger else 0, "mark_kinds": kinds,
                "lurches": lurches,
                "refaits": kinds.get("refait", 0), "concessions": kinds.get("conceded", 0),
                "bredouilles": {"white": self.bredouilles[0], "black": self.bredouilles[1]},
                "holes": {"white": sum(r.holes[0] for r in ledger.results) if ledger else 0,
                          "black": sum(r.holes[1] for r in ledger.results) if ledger else 0}}

    def result(self) -> GameResult:
        g = self.game
        ledger = self.marks
        s = ledger.settlement
        net = list(s.net) if s is not None else [ledger.received[i] - ledger.paid[i]
                                                 for i in (0, 1)]
        winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
        finished = s is not None
        sheet = ecrire_json(NAMES, ledger)
        extra = {"marks": sheet["marks"], "lost_marks": sheet["lost_marks"],
                 "settlement": sheet["settlement"], "leader": NAMES[self.first]}
        return GameResult(finished, winner if finished else None,
                          abs(net[0]) if finished else 0, g.turns, net, g.fired, extra)
