"""Trictrac combiné: the partie à écrire and the twelve-hole game with honours played at once, with
suspension and the pool (rules/match-scoring.md §4).

`Combine` composes the à écrire ledger (`Ecrire`, §1–§2) with the honours game. Every hole counts
for both games unless one of them is suspended; the two hole counts drift apart because a mark
ends at a go with six holes or more while an honours game ends at its twelfth hole. The honours
game is won single, double, treble or quadruple (§4.2); with continuation (the default) holes past
the twelfth count for the next honours game (§4.3). Right after a hole on his own throw a player
may suspend either game (§4.4): suspending à écrire at six holes or more is a go in it (the mark
is settled at once), below six it freezes the mark and the suspender counts as having picked up;
suspending the honours game freezes it. A suspension lasts until the next go by either player.
The honours games are paid in fish to the winner and into the pool, which a player takes by
winning two honours games in a row (§4.7); no new pool opens during the last mark, and at the end
of the partie an open pool is shared out by rule 5.

Players are 0 and 1. An event the rules forbid raises `RecordError`.

    >>> c = Combine(CombineLadder(), marks=12)
    >>> c.hole(1, 5); c.hole(0, 12)        # Bob 5, then Alice 12 uninterrupted: second scorer
    >>> g = c.honours_results[0]
    >>> g.cls, g.multiplier, g.paid_to_winner, g.paid_to_pool, c.pool_fish, c.contract
    ('treble', 3, 6, 6, 10, 0)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast

from pydantic import Field

from interpreter.errors import RecordError
from interpreter.scoring.ecrire import (Ecrire, EcrireLadder, MarkResult,
                                        Settlement)

#: the honours game is played to twelve holes (§4.2)
HONOURS_HOLES = 12
#: the result classes of an honours game and their multipliers (§4.2)
CLASSES = {4: "quadruple", 3: "treble", 2: "double", 1: "single"}
GAMES = ("ecrire", "honours")


class CombineLadder(EcrireLadder):
    """Trictrac combiné: the à écrire ladder (every key of `kind = "ecrire"` applies to the
    marks) plus the honours game, its continuation and the pool (match-scoring §4, §8)."""

    kind: Literal["combine"] = Field(  # type: ignore[assignment]
        "combine", description="à écrire and the 12-hole game with honours at once, with pool")
    continuation: bool = Field(
        True,
        description="holes past the twelfth honours hole count for the next honours game "
                    "(true), or the twelfth ends the game, the winner must pick up and go when "
                    "it was made on his own throw and extra holes of that throw are lost (false)")
    double_threshold: Literal["at_most_6", "below_6"] = Field(
        "at_most_6",
        description="an honours game is won double when the loser has at most 6 holes "
                    "(`at_most_6`) or fewer than 6 (`below_6`)")
    pool_unit: Literal[2, 1] = Field(
        2, description="the stake S in fish each player puts in the pool; an honours game "
                       "of class c costs the loser c×S to the winner and c×S into the pool")
    pool_order: Literal["pay_then_draw", "draw_then_pay"] = Field(
        "pay_then_draw",
        description="the loser of the second honours game in a row pays into the pool "
                    "before the winner takes it (`pay_then_draw`), or the winner takes the pool "
                    "first and the payment goes into the next one (`draw_then_pay`)")
    last_pool: Literal["stake_plus_payment", "stakes_only"] = Field(
        "stake_plus_payment",
        description="a pool whose only honours game is the last of the partie holds the "
                    "stakes and that game's payment (`stake_plus_payment`) or only the stakes "
                    "(`stakes_only`, the payment into the pool is not made)")
    unfinished_honours: Literal["void", "leader_single"] = Field(
        "void",
        description="an honours game unfinished at the end of the partie scores nothing "
                    "(`void`) or is won single by the player ahead in it (`leader_single`)")


class CombineEcrire(Ecrire):
    """The à écrire ledger under combiné: a case-2 suspension (the player counted as having
    gone, `suspended_case2`) leaves a petty lurch at ×2 and a grand lurch at ×4 (`cap_x4`), or
    takes away the grand rate, paying such a lurch as a petty one (`none`), §4.4 and M-A8."""

    def _new_mark(self) -> None:
        super()._new_mark()
        self.suspended_case2 = [False, False]

    def _lurch(self, w: int):  # noqa: ANN202 - same tuple as Ecrire._lurch
        lurch = super()._lurch(w)
        if lurch is None or not self.suspended_case2[w]:
            return lurch
        kind, m, pickup, arrears, rate_from = lurch
        if kind == "grand-lurch" and self.ladder.case2_grand == "none":
            return "petty-lurch", 2, pickup, arrears, rate_from
        if kind == "grand-lurch":
            return kind, min(m, 4), pickup, arrears, rate_from
        return kind, min(m, 2), pickup, arrears, rate_from


@dataclass(frozen=True)
class HonoursResult:
    """One honours game won (or, at the end of the partie, scored by `unfinished_honours`)."""

    game: int
    winner: int
    loser: int
    holes: tuple[int, int]
    multiplier: int
    paid_to_winner: int
    paid_to_pool: int

    @property
    def cls(self) -> str:
        return CLASSES[self.multiplier]


@dataclass(frozen=True)
class PoolDraw:
    """A player takes fish from the pool: two honours games in a row, or the share-out at the end
    of the partie (`reason` "two_in_a_row", "last_game", "split" or "stakes_back")."""

    after_game: int
    winner: int
    fish: int
    reason: str


class Combine:
    """The score of one partie of trictrac combiné (match-scoring §4)."""

    def __init__(self, ladder: CombineLadder | None = None, marks: int | None = None,
                 leader: int = 0, names: tuple[str, str] = ("player 0", "player 1")):
        self.ladder = ladder = ladder or CombineLadder()
        self.names = names
        self.ecrire = CombineEcrire(ladder, marks=marks, leader=leader, names=names)
        self.S = ladder.pool_unit
        # the honours game in play
        self.game = 1
        self.h = [0, 0]
        self.h_opp_at_first: list[int | None] = [None, None]
        self.h_interrupted = [False, False]
        self.honours_results: list[HonoursResult] = []
        # suspension: the suspender of each game, or None; `case` 1 or 2 for à écrire
        self.suspended: dict[str, int | None] = {"ecrire": None, "honours": None}
        self.suspension_case: int | None = None
        self.can_go = -1
        #: without continuation: the winner who must now pick up and go
        self.must_go = -1
        # the pool, in fish; each player's net in fish (stakes, payments, draws)
        self.fish_net = [0, 0]
        self.pool_open = False
        self.pool_fish = 0
        self.contract: int | None = None
        self.pool_games = 0            # honours games won since this pool opened
        self.draws: list[PoolDraw] = []
        self.last_payment: tuple[int, int] | None = None   # (payer, fish) into this pool
        self._open_pool()
        self.closed = False            # the partie is over and the honours settled

    # -- state ------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ecrire.finished

    @property
    def results(self) -> list[MarkResult]:
        return self.ecrire.results

    @property
    def settlement(self) -> Settlement | None:
        return self.ecrire.settlement

    def active(self, game: str) -> bool:
        return self.suspended[game] is None

    def last_mark(self) -> bool:
        """Whether the mark in play is the last of the partie (a refait replay included)."""
        e = self.ecrire
        return e.marks_won >= e.n_marks - 1

    def quadruple_right(self, p: int) -> bool:
        return self.h[p] >= 1 and self.h[1 - p] == 0

    def treble_right(self, p: int) -> bool:
        """The honours necktie (§4.6): second scorer, the opponent has not scored since."""
        first = self.h_opp_at_first[p]
        return self.h[p] >= 1 and first is not None and first >= 1 \
            and not self.h_interrupted[p]

    def rights(self, p: int) -> tuple[str, ...]:
        """The rights shown by markers (§4.6): "banner" and "necktie-ecrire" for the mark in
        play (while it is not suspended), "necktie-honours" for the honours treble."""
        out = []
        if self.ecrire.banner(p):
            out.append("banner")
        if self.ecrire.necktie(p):
            out.append("necktie-ecrire")
        if self.treble_right(p):
            out.append("necktie-honours")
        return tuple(out)

    # -- events -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.finished:
            raise RecordError(f"the partie is over: all {self.ecrire.n_marks} marks have been "
                              f"won")

    def _check_must_go(self, event: str) -> None:
        if self.must_go >= 0:
            me = self.names[self.must_go]
            raise RecordError(f"without continuation the twelfth honours hole ends the game: "
                              f"{me} made it on {me}'s own throw and must now pick up and go, "
                              f"not {event}")

    def hole(self, player: int, n: int = 1, on_throw_of: int | None = None) -> None:
        """`player` makes `n` holes on the throw of `on_throw_of` (default: his own); they count
        for every game that is not suspended."""
        self._check_open()
        self._check_must_go("make a hole")
        if n < 1:
            raise RecordError(f"a hole event needs at least one hole, got {n}")
        thrower = player if on_throw_of is None else on_throw_of
        if self.active("ecrire"):
            self.ecrire.hole(player, n, thrower)
        if self.active("honours"):
            for _ in range(n):
                if self._honours_hole(player, thrower) and not self.ladder.continuation:
                    break               # the extra holes of the winning throw are lost
        self.can_go = player if thrower == player else -1

    def _honours_hole(self, player: int, thrower: int) -> bool:
        """One honours hole; returns whether it won the game."""
        other = 1 - player
        h = self.h
        if h[player] == 0:
            self.h_opp_at_first[player] = h[other]
        if h[other] >= 1:
            self.h_interrupted[other] = True
        h[player] += 1
        if h[player] < HONOURS_HOLES:
            return False
        self._win_honours(player, self._class(player))
        if not self.ladder.continuation and thrower == player:
            self.must_go = player
        return True

    def _class(self, w: int) -> int:
        o = 1 - w
        if self.h[o] == 0:
            return 4
        if self.treble_right(w):
            return 3
        limit = 6 if self.ladder.double_threshold == "at_most_6" else 5
        return 2 if self.h[o] <= limit else 1

    def _win_honours(self, w: int, c: int) -> None:
        """W wins the honours game in play at class c: payments, the pool (§4.7 rules 2–3)."""
        loser = 1 - w
        stake = c * self.S
        self.fish_net[loser] -= stake
        self.fish_net[w] += stake
        game = self.game
        second = self.pool_open and self.contract == w      # two honours games in a row
        counts = True           # the payment into the pool belongs to the pool's games
        if second and self.ladder.pool_order == "draw_then_pay":
            self._draw(w, "two_in_a_row", game)
            if not self.last_mark():
                self._open_pool()
            second, counts = False, False
        into_pool = stake if self.pool_open else 0
        if into_pool:
            self.fish_net[loser] -= into_pool
            self.pool_fish += into_pool
            if counts:
                self.pool_games += 1
                self.last_payment = (loser, into_pool)
        self.honours_results.append(HonoursResult(
            game=game, winner=w, loser=loser, holes=(self.h[0], self.h[1]),
            multiplier=c, paid_to_winner=stake, paid_to_pool=into_pool))
        if second:
            self._draw(w, "two_in_a_row", game)
            if not self.last_mark():
                self._open_pool()
        elif self.pool_open and counts:
            self.contract = w
        self.game += 1
        self.h = [0, 0]
        self.h_opp_at_first = [None, None]
        self.h_interrupted = [False, False]

    def _open_pool(self) -> None:
        for p in (0, 1):
            self.fish_net[p] -= self.S
        self.pool_open = True
        self.pool_fish = 2 * self.S
        self.contract = None
        self.pool_games = 0
        self.last_payment = None

    def _draw(self, p: int, reason: str, after_game: int, fish: int | None = None) -> None:
        fish = self.pool_fish if fish is None else fish
        self.fish_net[p] += fish
        self.pool_fish -= fish
        self.draws.append(PoolDraw(after_game=after_game, winner=p, fish=fish, reason=reason))
        if self.pool_fish == 0:
            self.pool_open = False
            self.contract = None

    def go(self, player: int) -> MarkResult | None:
        """`player` goes (picks up), right after his own-throw holes: a go in à écrire if it is
        not suspended, a pick-up in the honours game; it ends every suspension."""
        self._check_open()
        if self.must_go >= 0 and self.must_go != player:
            self._check_must_go(f"a go by {self.names[player]}")
        if self.can_go != player:
            raise RecordError(self._why_no_go(player))
        result = None
        if self.active("ecrire"):
            result = self.ecrire.go(player)
        else:
            _clear_go(self.ecrire)
        self.can_go = -1
        self.must_go = -1
        self.suspended = {"ecrire": None, "honours": None}
        self.suspension_case = None
        if self.finished:
            self._end_of_partie()
        return result

    def resign(self, player: int) -> None:
        """`player` resigns the partie: every mark left is conceded (`Ecrire.resign`), the
        honours game in play is left unfinished, and the partie ends as after its last mark."""
        self._check_open()
        self.ecrire.resign(player)
        self.can_go = self.must_go = -1
        self.suspended = {"ecrire": None, "honours": None}
        self.suspension_case = None
        self._end_of_partie()

    def concede_mark(self, player: int) -> MarkResult:
        """`player` concedes the mark à écrire in play (a resignation): settled as a conceded
        mark (`Ecrire.concede_mark`; while à écrire is suspended after its mark was scored, the
        next mark, at no holes). As after a go, every suspension ends; the honours game goes on
        with its holes (match-scoring R8)."""
        self._check_open()
        result = self.ecrire.concede_mark(player)
        self.can_go = self.must_go = -1
        self.suspended = {"ecrire": None, "honours": None}
        self.suspension_case = None
        if self.finished:
            self._end_of_partie()
        return result

    def _why_no_go(self, player: int) -> str:
        if self.active("ecrire"):
            return self.ecrire._why_no_go(player)
        me = self.names[player]
        return (f"{me} may go only directly after making a hole on {me}'s own throw (a go must "
                f"directly follow the goer's own-throw holes)")

    def reset_men(self) -> None:
        """All men borne off and reset: not a pick-up, so it ends no suspension."""
        self._check_open()
        self._check_must_go("a reset of the men")
        self.ecrire.reset_men()
        self.can_go = -1

    def claim(self, player: int, marker: str) -> None:
        """A strict claim of the à écrire banner or necktie (M-A4)."""
        self._check_open()
        if not self.active("ecrire"):
            raise RecordError("the partie à écrire is suspended: no marker can be claimed in it")
        self.ecrire.claim(player, marker)

    def may_suspend(self, player: int, game: str) -> bool:
        """Whether `player` may suspend `game` now (§4.4): right after a hole on his own throw,
        while neither game is suspended and no go is forced (what `suspend` accepts)."""
        return (not self.finished and self.must_go < 0 and game in GAMES
                and self.can_go == player
                and self.suspended["ecrire"] is None and self.suspended["honours"] is None)

    def suspend(self, player: int, game: str) -> MarkResult | None:
        """`player` suspends `game` ("ecrire" or "honours") right after a hole on his own throw
        (§4.4). Suspending à écrire with six holes or more on either side is a go in it: the mark
        is settled at once (won, conceded or a refait); below six the mark is frozen."""
        self._check_open()
        self._check_must_go(f"a suspension of {game}")
        if game not in GAMES:
            raise RecordError(f"only 'ecrire' or 'honours' can be suspended, not {game!r}")
        me = self.names[player]
        if self.suspended[game] is not None:
            raise RecordError(f"the {_GAME_NAMES[game]} is already suspended (by "
                              f"{self.names[cast(int, self.suspended[game])]}) until the next "
                              "pick-up")
        other = "honours" if game == "ecrire" else "ecrire"
        if self.suspended[other] is not None:
            raise RecordError(f"the {_GAME_NAMES[other]} is suspended: one game must go on, so "
                              f"the {_GAME_NAMES[game]} cannot be suspended before the next "
                              f"pick-up")
        if self.can_go != player:
            raise RecordError(f"{me} may suspend a game only right after a hole on {me}'s own "
                              f"throw, when {me} could pick up and go")
        result = None
        if game == "ecrire":
            e = self.ecrire
            if max(e.holes) >= self.ladder.obligatory_hole:
                result = e.go(player)                # case 1: the suspension is a go (R4)
                self.suspension_case = 1
            else:
                e.picked_up[player] = True           # case 2: frozen; counted as having gone
                e.suspended_case2[player] = True
                _clear_go(e)
                self.suspension_case = 2
        self.suspended[game] = player
        self.can_go = -1
        if self.finished:
            self._end_of_partie()
        return result

    # -- the end of the partie (§4.7 rule 5, §4.8) ------------------------------------------

    def _end_of_partie(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.ladder.unfinished_honours == "leader_single" and self.h[0] != self.h[1]:
            self._win_honours(0 if self.h[0] > self.h[1] else 1, 1)
        if not self.pool_open:
            return
        after = len(self.honours_results)
        if self.pool_games == 0:                     # nobody won a game: the stakes go back
            self._draw(0, "stakes_back", after, self.S)
            self._draw(1, "stakes_back", after)
            return
        w = self.honours_results[-1].winner
        if self.pool_games == 1:                     # the pool had only just begun
            if self.ladder.last_pool == "stakes_only" and self.last_payment is not None:
                payer, fish = self.last_payment      # the payment into the pool is not made
                self.pool_fish -= fish
                self.fish_net[payer] += fish
                self.honours_results[-1] = replace(self.honours_results[-1], paid_to_pool=0)
            self._draw(w, "last_game", after)
        else:                                        # equal rights: the larger half to w
            self._draw(w, "split", after, self.pool_fish - self.pool_fish // 2)
            self._draw(1 - w, "split", after)

    def honours_net(self) -> tuple[int, int]:
        return self.fish_net[0], self.fish_net[1]


_GAME_NAMES = {"ecrire": "partie à écrire", "honours": "honours game"}


def _clear_go(ledger: Ecrire) -> None:
    """End the ledger's right to go without a go (the game moved on without it)."""
    ledger.can_go = -1
    ledger._claimant = -1
    ledger._last_hole = None


# -- the live partie (the turn loop's ladder for `kind = "combine"`) -----------------------------

from typing import Any  # noqa: E402

from interpreter.scoring.ecrire import NAMES, EcrirePlay, ecrire_json, go_question  # noqa: E402
from interpreter.scoring.protocol import GameResult, Gen, pair_text, pair_words, side_view  # noqa: E402

SUSPEND = {game: f"suspend {game}" for game in GAMES}


# -- the JSON object of a combiné sheet (io/sheet.py's, and the result of a partie played) ----

def combine_json(names: tuple[str, str], game: Combine) -> dict:
    """The JSON object of a combiné sheet: the à écrire object plus the honours games, the pool,
    the suspensions and (extra) the state of both games now."""
    base = ecrire_json(names, game.ecrire)
    pair = lambda t: {names[0]: t[0], names[1]: t[1]}  # noqa: E731
    name = lambda p: None if p is None else names[p]  # noqa: E731
    honours = [{"game": r.game, "winner": names[r.winner], "loser": names[r.loser],
                "holes": pair(r.holes), "class": r.cls, "multiplier": r.multiplier,
                "paid_to_winner": r.paid_to_winner, "paid_to_pool": r.paid_to_pool}
               for r in game.honours_results]
    pool = {"fish": game.pool_fish, "contract": name(game.contract),
            "draws": [{"after_game": d.after_game, "winner": names[d.winner], "fish": d.fish}
                      for d in game.draws],
            "open": game.pool_open}
    e = game.ecrire
    current = {
        "mark": e.k,
        "ecrire": pair(e.holes),
        "honours_game": game.game,
        "honours": pair(game.h),
        "suspension_case": game.suspension_case,
        "rights": {names[p]: list(game.rights(p)) for p in (0, 1)},
    }
    settlement = base["settlement"]
    if settlement is not None:
        settlement["honours_net"] = pair(game.honours_net())
    return {"marks": base["marks"], "honours": honours, "pool": pool,
            "suspended": {g: name(game.suspended[g]) for g in GAMES},
            "lost_marks": base["lost_marks"], "finished": base["finished"],
            "settlement": settlement, "current": current}


def offer(combine: Combine, player: int, won_honours: bool) -> tuple[str, tuple[str, ...]]:
    """The question put to `player` after holes on his own throw, with its choices now: "go",
    "refait" or "concede" as in the mark à écrire ("go" while it is suspended), or "continue"
    when the throw has just won an honours game; the first choice holds ("stay" or "hold"), the
    second is the go, then the suspensions allowed now."""
    goword = go_question(combine.ecrire, player) if combine.active("ecrire") else "go"
    if won_honours:
        question, hold = "continue", "hold"
    else:
        question, hold = goword, "stay"
    choices = (hold, goword) + tuple(SUSPEND[g] for g in GAMES if combine.may_suspend(player, g))
    return question, choices


class CombinePlay(EcrirePlay):
    """À écrire's throw loop with combiné's ledger: one points → holes ladder for the whole
    partie (the honours game runs across marks), the honours game's own question ("continue",
    after a throw that wins one), and the suspension of either game (§4.4). Without continuation
    the twelfth honours hole made on one's own throw forces the go and nothing is asked."""

    name = "combiné"
    holes_span_marks = True
    marked_before_play: str | None = name
    sheet: str | None = "honours"
    feature_names = EcrirePlay.feature_names + tuple(
        f"{n}_{side}" for side in ("me", "opponent")
        for n in ("honours_holes", "quadruple", "treble", "fish")
    ) + ("ecrire_active", "honours_active")

    @classmethod
    def features(cls, state: dict) -> list[float]:
        """À écrire's, then each side's honours holes, rights and fish, and which games are
        in play."""
        s = state
        out = super().features(s)
        for side in ("me", "opponent"):
            out += [s.get("honours_holes", {}).get(side, 0) / 12.0,
                    float(s.get("quadruple_right", {}).get(side, False)),
                    float(s.get("treble_right", {}).get(side, False)),
                    s.get("fish", {}).get(side, 0) / 20.0]
        active = s.get("active", {})
        out += [float(active.get("ecrire", True)), float(active.get("honours", True))]
        return out

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        out = super().state_lines(state, names)
        if "honours_holes" in state:
            active = state.get("active", {})
            off = [g for g, on in active.items() if not on]
            out.append(f"honours game {state.get('honours_game')}: holes "
                       f"{pair_words(state, 'honours_holes', names)}; pool "
                       f"{state.get('pool_fish')} fish; fish {pair_words(state, 'fish', names)}"
                       + (f"; suspended: {', '.join(off)}" if off else ""))
        return out

    @classmethod
    def sides_text(cls, state: dict) -> str:
        out = super().sides_text(state) + f"; honours {pair_text(state, 'honours_holes')}"
        for game, who in (state.get("suspended") or {}).items():
            if who is not None:
                out += f"; {game} suspended by {who}"
        return out

    def make_ledger(self, first: int) -> None:
        self.combine = Combine(self.model, leader=first, names=NAMES)
        self.ledger = self.combine.ecrire
        self.suspensions: list[tuple[int, int, str]] = []

    @property
    def finished(self) -> bool:
        return self.ledger is not None and self.combine.finished

    def hole(self, player: int, won: int, thrower: int) -> bool:
        """Mark the holes; whether they won an honours game."""
        before = len(self.combine.honours_results)
        self.combine.hole(player, won, thrower)
        return len(self.combine.honours_results) > before

    def claims_due(self, player: int) -> tuple[str, ...]:
        if not self.combine.active("ecrire"):
            return ()
        return self.combine.ecrire.claims_due(player)

    def claim(self, player: int, marker: str) -> None:
        self.combine.claim(player, marker)

    def decide(self, mover: int, won_honours: Any) -> Gen:
        if self.combine.must_go == mover:                   # no continuation: the go is forced
            return "go"
        g = self.game
        question, choices = offer(self.combine, mover, bool(won_honours))
        d = g.ask(question, mover, choices)
        answer = choices[g.answered(d, (yield d))]
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

    def reset_ledger(self) -> None:
        self.combine.reset_men()

    def scorer(self) -> Combine:
        return self.combine

    def state(self, player: int) -> dict[str, Any]:
        out = super().state(player)
        if self.ledger is None:
            return out
        c = self.combine
        o = 1 - player
        out.update({
            "honours_holes": side_view(c.h, player), "honours_game": c.game,
            "active": {game: c.active(game) for game in GAMES},
            "may_suspend": {game: c.may_suspend(player, game) for game in GAMES},
            "quadruple_right": {"me": c.quadruple_right(player),
                                "opponent": c.quadruple_right(o)},
            "treble_right": {"me": c.treble_right(player), "opponent": c.treble_right(o)},
            "pool_fish": c.pool_fish, "fish": side_view(c.fish_net, player)})
        return out

    def sides(self) -> dict[str, Any]:
        out = super().sides()
        if self.ledger is None:
            return out
        c = self.combine
        out.update({"honours_holes": list(c.h), "honours_game": c.game,
                    "suspended": {k: (None if v is None else NAMES[v])
                                  for k, v in c.suspended.items()},
                    "pool_fish": c.pool_fish, "fish": list(c.fish_net)})
        return out

    def figures(self) -> dict[str, Any]:
        out = super().figures()
        if self.ledger is not None:
            c = self.combine
            out["honours_games"] = len(c.honours_results)
            out["suspensions"] = len(self.suspensions)
            out["fish"] = {"white": c.fish_net[0], "black": c.fish_net[1]}
        return out

    def result(self) -> GameResult:
        g = self.game
        combine = self.combine
        e = combine.ecrire
        s = combine.settlement
        net = list(s.net) if s is not None else [e.received[i] - e.paid[i] for i in (0, 1)]
        finished = s is not None
        winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
        sheet = combine_json(NAMES, combine)
        extra = {key: sheet[key] for key in ("marks", "honours", "pool", "suspended",
                                             "lost_marks", "settlement", "current")}
        extra["leader"] = NAMES[self.first]
        return GameResult(finished, winner if finished else None,
                          abs(net[0]) if finished else 0, g.turns, net, g.fired, extra)
