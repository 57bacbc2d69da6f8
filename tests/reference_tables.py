"""A second, deliberately plain implementation of the legal plays of Long Nardy, Plakoto, Fevga
and acey-deucey, written from the rules alone (the games' sources as the tables-family
specification reads them, its §1.3 procedure and each game's section), sharing no code with the
kernel: its own position type, one recursive walk over every order of the dice, each game's
single-move rules, then the end-of-play rules, the most numbers and the higher number.

A position is seen from the player on roll (W); B is the opponent. Pips are W's: he moves from
24 towards 1 and bears off past 1.

    >>> start = Pos.of({24: 15}, {12: 15})
    >>> sorted(p.w_dict() for p in long_nardy(start, 6, 6)[0])
    [{18: 2, 24: 13}]
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable

CHECKERS = 15


@dataclass(frozen=True)
class Pos:
    w: tuple[int, ...]              # W's free checkers on pips 1..24 (index 0 unused)
    b: tuple[int, ...]              # B's free checkers, in W's pips
    w_off: int = 0
    b_off: int = 0
    w_bar: int = 0
    b_bar: int = 0
    w_pool: int = 0                 # checkers not yet entered (acey-deucey)
    b_pool: int = 0
    w_pinned: frozenset[int] = frozenset()   # pips where a W checker lies under B's
    b_pinned: frozenset[int] = frozenset()   # pips where a B checker lies under W's

    @staticmethod
    def of(w: dict[int, int], b: dict[int, int], **kw: object) -> Pos:
        W = [0] * 25
        B = [0] * 25
        for p, n in w.items():
            W[p] += n
        for p, n in b.items():
            B[p] += n
        return Pos(tuple(W), tuple(B), **kw)  # type: ignore[arg-type]

    def w_dict(self) -> dict[int, int]:
        return {p: n for p, n in enumerate(self.w) if n}

    def set_w(self, p: int, delta: int) -> Pos:
        W = list(self.w)
        W[p] += delta
        return replace(self, w=tuple(W))

    def set_b(self, p: int, delta: int) -> Pos:
        B = list(self.b)
        B[p] += delta
        return replace(self, b=tuple(B))

    def w_left(self) -> int:
        """W's checkers not yet borne off."""
        return sum(self.w) + len(self.w_pinned) + self.w_bar + self.w_pool

    # -- the position JSON ---------------------------------------------------------------------

    @staticmethod
    def from_json(obj: dict) -> Pos:
        w = {p + 1: n for p, n in enumerate(obj["points"]) if n > 0}
        b = {p + 1: -n for p, n in enumerate(obj["points"]) if n < 0}
        pins = obj.get("pins") or {}
        bar = obj.get("bar", [0, 0])
        off = obj.get("off", [0, 0])
        mine = frozenset(pins.get("mine", ()))
        theirs = frozenset(pins.get("theirs", ()))
        w_pool = CHECKERS - sum(w.values()) - len(mine) - bar[0] - off[0]
        b_pool = CHECKERS - sum(b.values()) - len(theirs) - bar[1] - off[1]
        return Pos.of(w, b, w_off=off[0], b_off=off[1], w_bar=bar[0], b_bar=bar[1],
                      w_pool=w_pool, b_pool=b_pool, w_pinned=mine, b_pinned=theirs)

    def key(self) -> tuple:
        """What `tablier moves` compares: points, bar, off, pins, unentered."""
        points = tuple(self.w[p] - self.b[p] for p in range(1, 25))
        return (points, (self.w_bar, self.b_bar), (self.w_off, self.b_off),
                tuple(sorted(self.w_pinned)), tuple(sorted(self.b_pinned)),
                (self.w_pool, self.b_pool))


def json_key(obj: dict) -> tuple:
    """The same comparison key read from a result line of `tablier moves`."""
    return Pos.from_json(obj).key()


def opp_pip_same(q: int) -> int:
    """Same-direction games: the opponent's own pip q is W's pip q + 12 or q - 12."""
    return q + 12 if q <= 12 else q - 12


# -- the procedure of §1.3 -----------------------------------------------------------------------

Move = tuple[int, int, int]          # (from, to, die): from 25 = the bar, 26 = unentered; to 0 = off
Seq = tuple[Move, ...]
SingleMoves = Callable[[Pos, int, Seq], Iterable[tuple[Move, Pos]]]


def all_sequences(pos: Pos, d1: int, d2: int, moves: SingleMoves) -> list[tuple[Seq, Pos]]:
    """Every sequence of single moves (the empty one and every prefix included), each move
    legal on the position reached so far."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    out: list[tuple[Seq, Pos]] = [((), pos)]

    def walk(p: Pos, order: list[int], seq: Seq) -> None:
        if len(seq) == len(order):
            return
        d = order[len(seq)]
        for mv, nxt in moves(p, d, seq):
            s = seq + (mv,)
            out.append((s, nxt))
            walk(nxt, order, s)

    for order in orders:
        walk(pos, order, ())
    return out


def choose(seqs: list[tuple[Seq, Pos]], d1: int, d2: int) -> tuple[set[Pos], int]:
    """Steps 4 and 5: the most numbers, the higher number; the distinct final positions and how
    many numbers they use. No sequence at all: the turn is lost."""
    most = max((len(s) for s, _ in seqs), default=0)
    kept = [(s, p) for s, p in seqs if len(s) == most]
    if most == 0:
        return {seqs[0][1]} if seqs else set(), 0
    if most == 1 and d1 != d2:
        high = [(s, p) for s, p in kept if s[0][2] == max(d1, d2)]
        kept = high or kept
    return {p for _, p in kept}, most


def bear_off_move(p: Pos, src: int, d: int, home_ok: bool,
                  occupied_above: Callable[[int], bool]) -> bool:
    """Whether the checker on `src` may be borne off by d: all home; exact, or higher than
    needed with no checker of W's above it."""
    if not home_ok:
        return False
    if src - d == 0:
        return True
    return src - d < 0 and not occupied_above(src)


# -- Long Nardy -----------------------------------------------------------------------------------

def long_nardy(pos: Pos, d1: int, d2: int, head_exception: str = "listed_doublets",
               six_block: str = "opponent_ahead", block_check: str = "end_of_play"
               ) -> tuple[set[Pos], int]:
    first_throw = pos.w[24] == CHECKERS
    doublet = d1 == d2
    limit = 1
    if first_throw and doublet:
        if head_exception == "listed_doublets" and d1 in (6, 4, 3):
            limit = 2
        if head_exception == "six_and_four" and d1 in (6, 4):
            limit = 2

    def gen(limit: int) -> list[tuple[Seq, Pos]]:
        def moves(p: Pos, d: int, seq: Seq) -> Iterable[tuple[Move, Pos]]:
            for mv, nxt in race_moves(p, d):
                if mv[0] == 24 and sum(1 for m in seq if m[0] == 24) >= limit:
                    continue            # the head rule, counted over the turn
                if block_check == "every_move" and shuts_in(nxt, six_block):
                    continue
                yield mv, nxt
        return all_sequences(pos, d1, d2, moves)

    seqs = gen(limit)
    if head_exception == "when_needed" and first_throw:
        full = 4 if doublet else 2
        if max(len(s) for s, _ in seqs) < full:
            seqs = gen(2)       # the opponent keeps one checker from playing the throw in full
    if block_check == "end_of_play":
        legal = [(s, p) for s, p in seqs if s and not shuts_in(p, six_block)]
    else:
        legal = [(s, p) for s, p in seqs if s]
    if not legal:
        return {pos}, 0
    return choose(legal, d1, d2)


def race_moves(p: Pos, d: int) -> Iterable[tuple[Move, Pos]]:
    """Single moves of the same-direction games: a checker may stop only on an empty point or
    one of its own (one opposing checker closes a point); bearing off as §1.3."""
    home_ok = all(p.w[q] == 0 for q in range(7, 25))
    for src in range(24, 0, -1):
        if p.w[src] == 0:
            continue
        dst = src - d
        if dst >= 1:
            if p.b[dst] == 0:
                yield (src, dst, d), p.set_w(src, -1).set_w(dst, 1)
        elif bear_off_move(p, src, d, home_ok, lambda s: any(p.w[q] for q in range(s + 1, 25))):
            yield (src, 0, d), replace(p.set_w(src, -1), w_off=p.w_off + 1)


def shuts_in(p: Pos, rule: str) -> bool:
    """Long Nardy's six-block: six consecutive points of B's route (his pips q..q+5) held by W,
    with no B checker ahead (on his pips below q) nor borne off; or, with "opponent_home", while
    no B checker has reached his home board (W's pips 13..18) nor been borne off."""
    for q in range(1, 20):
        if all(p.w[opp_pip_same(r)] > 0 for r in range(q, q + 6)):
            if rule == "opponent_ahead":
                ahead = p.b_off > 0 or any(p.b[opp_pip_same(r)] > 0 for r in range(1, q))
            else:
                ahead = p.b_off > 0 or any(p.b[x] > 0 for x in range(13, 19))
            if not ahead:
                return True
    return False


# -- Fevga ------------------------------------------------------------------------------------

def fevga(pos: Pos, d1: int, d2: int, first_runner: str = "past_start",
          prime: str = "gathered_behind") -> tuple[set[Pos], int]:
    limit = 11 if first_runner == "past_start" else 12

    def moves(p: Pos, d: int, seq: Seq) -> Iterable[tuple[Move, Pos]]:
        passed = p.w_off > 0 or any(p.w[x] for x in range(1, limit + 1))
        away = any(p.w[x] for x in range(limit + 1, 24))
        for mv, nxt in race_moves(p, d):
            if mv[0] == 24 and not passed and away:
                continue        # the first runner has not passed the opponent's start yet
            yield mv, nxt

    seqs = all_sequences(pos, d1, d2, moves)

    def quarter(p: Pos) -> bool:
        return all(p.w[x] > 0 for x in range(19, 25))

    def bad_prime(p: Pos) -> bool:
        on_board = sum(p.b)
        if on_board == 0:
            return False
        for q in range(1, 19):
            if all(p.w[opp_pip_same(r)] > 0 for r in range(q, q + 6)):
                if prime == "gathered_behind":
                    if p.b[opp_pip_same(q + 6)] == on_board:
                        return True
                elif sum(p.b[opp_pip_same(r)] for r in range(q + 6, 25)) == on_board:
                    return True
        return False

    prime_applies = True
    if prime == "gathered_behind" and all(bad_prime(p) for _, p in seqs):
        prime_applies = False       # no sequence, the empty one included, satisfies it
    legal = [(s, p) for s, p in seqs
             if s and not quarter(p) and not (prime_applies and bad_prime(p))]
    if not legal:
        return {pos}, 0
    return choose(legal, d1, d2)


# -- Plakoto ---------------------------------------------------------------------------------------

def plakoto(pos: Pos, d1: int, d2: int, bear_off_pinned: str = "forbidden"
            ) -> tuple[set[Pos], int]:
    def moves(p: Pos, d: int, seq: Seq) -> Iterable[tuple[Move, Pos]]:
        on_board = [x for x in range(1, 25) if p.w[x]] + list(p.w_pinned)
        home_ok = all(x <= 6 for x in on_board) and (
            bear_off_pinned == "allowed" or not p.w_pinned)

        def above(s: int) -> bool:
            return any(x > s for x in on_board)

        for src in range(24, 0, -1):
            if p.w[src] == 0:
                continue            # (a pinned W checker is not counted in p.w: it never moves)
            left = p.set_w(src, -1)
            if left.w[src] == 0 and src in left.b_pinned:
                # the last pinner leaves: B's checker under it is free again
                left = replace(left.set_b(src, 1), b_pinned=left.b_pinned - {src})
            dst = src - d
            if dst >= 1:
                closed = p.b[dst] >= 2 or (p.b[dst] >= 1 and dst in p.w_pinned)
                if closed:
                    continue
                if p.b[dst] == 1:
                    # a lone free B checker: pinned under the lander
                    nxt = replace(left.set_b(dst, -1).set_w(dst, 1),
                                  b_pinned=left.b_pinned | {dst})
                else:
                    nxt = left.set_w(dst, 1)
                yield (src, dst, d), nxt
            elif bear_off_move(p, src, d, home_ok, above):
                yield (src, 0, d), replace(left, w_off=p.w_off + 1)

    seqs = all_sequences(pos, d1, d2, moves)
    legal = [(s, p) for s, p in seqs if s]
    if not legal:
        return {pos}, 0
    return choose(legal, d1, d2)


def plakoto_end(p: Pos) -> tuple[str | None, int]:
    """After W's play: the mother rule, the tie, bearing off; (winner, points)."""
    w_mother = 24 in p.w_pinned            # W's last checker on his start, pinned
    b_mother = 1 in p.b_pinned
    if w_mother and b_mother:
        return "tie", 0
    if b_mother and p.w[24] == 0:
        return "W", 2
    if w_mother and p.b[1] == 0:
        return "B", 2
    if p.w_off == CHECKERS:
        return "W", 2 if p.b_off == 0 else 1
    return None, 0


# -- Acey-deucey -------------------------------------------------------------------------------------

def acey_deucey(pos: Pos, d1: int, d2: int, stage: str | None = None, *,
                enter_all_first: bool = False, later_throw: bool = False,
                rejoin_unentered: bool = False, european: bool = False,
                doublet_throws_again: bool = False) -> tuple[set[Pos], str]:
    """The legal results and what follows: "doublet", "complement", "reroll" or "end"."""

    def moves(p: Pos, d: int, seq: Seq) -> Iterable[tuple[Move, Pos]]:
        entered = [m[1] for m in seq if m[0] == 26] if later_throw else []

        def land(q: Pos, dst: int) -> Pos | None:
            if q.b[dst] >= 2:
                return None
            if q.b[dst] == 1:
                q = q.set_b(dst, -1)
                q = replace(q, b_pool=q.b_pool + 1) if rejoin_unentered else \
                    replace(q, b_bar=q.b_bar + 1)
            return q.set_w(dst, 1)

        if p.w_bar:
            # a hit checker re-enters before anything else moves
            nxt = land(replace(p, w_bar=p.w_bar - 1), 25 - d)
            if nxt is not None:
                yield (25, 25 - d, d), nxt
            return
        if p.w_pool:
            nxt = land(replace(p, w_pool=p.w_pool - 1), 25 - d)
            if nxt is not None:
                yield (26, 25 - d, d), nxt
            if enter_all_first:
                return
        home_ok = p.w_pool == 0 and p.w_bar == 0 and all(p.w[x] == 0 for x in range(7, 25))
        for src in range(24, 0, -1):
            if p.w[src] - entered.count(src) <= 0:
                continue
            dst = src - d
            if dst >= 1:
                nxt = land(p.set_w(src, -1), dst)
                if nxt is not None:
                    yield (src, dst, d), nxt
            elif bear_off_move(p, src, d, home_ok,
                               lambda s: any(p.w[x] for x in range(s + 1, 25))):
                yield (src, 0, d), replace(p.set_w(src, -1), w_off=p.w_off + 1)

    seqs = all_sequences(pos, d1, d2, moves)
    legal = [(s, p) for s, p in seqs if s]
    if not legal:
        results, used = {pos}, 0
    else:
        results, used = choose(legal, d1, d2)
    total = 4 if d1 == d2 else 2
    full = used == total
    stages = ["doublet", "complement", "reroll"] if european else ["doublet", "reroll"]
    if stage is None:
        if {d1, d2} == {1, 2}:
            nxt = "doublet" if full else "end"
        else:
            nxt = "reroll" if doublet_throws_again and d1 == d2 else "end"
    else:
        nxt = stages[stages.index(stage) + 1] if full else "end"
    if all(p.w_off == CHECKERS for p in results):
        nxt = "end"                 # the game is over: nothing follows
    return results, nxt
