"""A second, plain implementation of the legal plays of the two three-dice games, Tabula and
Emperador, written from the rules alone (tables-family-2.md §1.1, §1.2, §7, §8 and the TL-A and
EM-A entries of §10), sharing no code with the kernel and never importing the interpreter. It
uses only the position type of `reference_tables` (itself written from the rules); the walk over
the throw is its own: every order of the three numbers, each die one single move (doublets and
triplets each die once), resting on every intermediate point, then the most numbers, with no
preference between plays that use as many.

Positions are seen from the player on roll (W); B is the opponent; pips are W's: he runs from
24 towards 1 and bears off past 1. Tabula's shared route puts B's men on the same pips from
both sides (B's pip q is W's pip q); Emperador is Plakoto's geometry (B's pip q is W's 25 - q).

Readings chosen where the rules leave room:
- TL-A1: the route changes only B's view (`tabula_turn`); W's own moves are the same on both.
- TL-A2 ("yes"): no man moves from pips 13..24 to 1..12 while any man was never entered; men
  hit later (waiting on the bar) do not count as unentered.
- TL-A3 ("free"): a hit man enters like an unentered one, whenever W chooses.
- TL-A4 ("free"): every prefix is a result, the unchanged position too.
- TL-A5 ("none") with TL-A6 ("higher"): a higher number bears off only the farthest man, a man
  on the bar or unentered counting as farther than any on the board.
- EM-A2: W "holds" B's start when at least one W man stands on it after the landing, the hitter
  included (so hitting a single B man on W's pip 1 sends it to the bar).
- EM-A3 ("any_time"): a number equal to or larger than the man's pip bears it off at any time.
- The "lost" count returned is 3 minus the most numbers any play uses (with "free" too).

    >>> w_list(emperador(Pos.of({24: 15}, {1: 15}), 2, 1, 1)[0])
    [{20: 1, 24: 14}, {21: 1, 23: 1, 24: 13}, {22: 1, 23: 2, 24: 12}, {22: 2, 24: 13}]
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable

from reference_tables import CHECKERS, Pos, opp_pip_same

Step = tuple[Pos, int]                       # a position reached, and how many B men it hit
Moves = Callable[[Pos, int], Iterable[Step]]


def b_dict(p: Pos) -> dict[int, int]:
    """B's men on the board, in W's pips."""
    return {q: n for q, n in enumerate(p.b) if n}


def w_list(results: Iterable[Pos]) -> list[dict[int, int]]:
    """W's men of each result, in a stable order (for the examples)."""
    return sorted((p.w_dict() for p in results), key=lambda d: sorted(d.items()))


def to_points(p: Pos) -> list[int]:
    """The position JSON's `points`: index i is pip i + 1, W's men positive, B's negative."""
    return [p.w[q] - p.b[q] for q in range(1, 25)]


def from_json(obj: dict) -> Pos:
    """The project's position JSON (`points`, `bar`, `off`); men on neither are unentered.

    >>> p = from_json({"points": [0] * 18 + [1] + [0] * 4 + [-2], "bar": [1, 0],
    ...                "off": [0, 0], "dice": [6, 5, 2]})
    >>> p.w_dict(), b_dict(p), p.w_bar, p.w_pool, p.b_pool
    ({19: 1}, {24: 2}, 1, 13, 13)
    """
    return Pos.from_json(obj)


def prime_hits(obj: dict) -> tuple[int, int]:
    """`state.prime_hits` of an Emperador position JSON (§8.5): (mover's count, opponent's)."""
    m, o = (obj.get("state") or {}).get("prime_hits", [0, 0])
    return m, o


# -- the three-dice walk (§1.2) --------------------------------------------------------------------

def walk3(pos: Pos, dice: tuple[int, ...], moves: Moves) -> set[tuple[int, Pos, int]]:
    """Every sequence of single moves, the empty one and every prefix included, over every order
    of the numbers: (numbers used, position reached, B men hit). Bearing off the last man ends
    the play and counts as using every number."""
    out = {(0, pos, 0)}

    def go(p: Pos, rest: tuple[int, ...], used: int, hits: int) -> None:
        for i, d in enumerate(rest):
            if d in rest[:i]:
                continue                    # the same number again: the same moves
            for nxt, h in moves(p, d):
                if nxt.w_off == CHECKERS:
                    out.add((len(dice), nxt, hits + h))
                    continue
                out.add((used + 1, nxt, hits + h))
                go(nxt, rest[:i] + rest[i + 1:], used + 1, hits + h)

    go(pos, tuple(dice), 0, 0)
    return out


def choose3(pos: Pos, seqs: set[tuple[int, Pos, int]], must_play: str = "most"
            ) -> tuple[set[tuple[Pos, int]], int]:
    """The most numbers ("free": any prefix, the empty play too); no preference between plays
    using as many. Returns the distinct (result, hits) and how many numbers no play could use.
    Nothing playable: the position itself."""
    most = max(u for u, _, _ in seqs)
    kept = {(p, h) for u, p, h in seqs if must_play == "free" or u == most}
    return (kept if most else {(pos, 0)}), 3 - most


def land(q: Pos, dst: int, send: Callable[[Pos], Pos]) -> Step | None:
    """W's man arrives on dst (already lifted from where it was): closed by two or more B men;
    a single B man there is hit and `send` puts it where it goes."""
    if q.b[dst] >= 2:
        return None
    q = q.set_w(dst, 1)
    if q.b[dst] == 1:
        return send(q.set_b(dst, -1)), 1
    return q, 0


def to_b_bar(q: Pos) -> Pos:
    return replace(q, b_bar=q.b_bar + 1)


# -- Tabula (§7) ---------------------------------------------------------------------------------

def tabula_moves(p: Pos, d: int, tl_enter_all_first: str = "no", tl_hit: str = "enter_first",
                 tl_gather: str = "last_quarter", tl_bear_off: str = "exact"
                 ) -> Iterable[Step]:
    """W's single moves of the number d: entering on pip 25 - d (a hit man first, TL-A3), a man
    on the board from src to src - d, bearing off (TL-A5, TL-A6). The route option (TL-A1) does
    not enter here: B's men are wherever they stand in W's pips, hit men go to B's bar."""
    if p.w_bar:
        step = land(replace(p, w_bar=p.w_bar - 1), 25 - d, to_b_bar)
        if step:
            yield step
        if tl_hit == "enter_first":
            return
    if p.w_pool:
        step = land(replace(p, w_pool=p.w_pool - 1), 25 - d, to_b_bar)
        if step:
            yield step
    home = tl_gather == "none" or (
        p.w_pool == 0 and p.w_bar == 0 and not any(p.w[q] for q in range(7, 25)))
    for src in range(1, 25):
        if not p.w[src]:
            continue
        dst = src - d
        if dst >= 1:
            if tl_enter_all_first == "yes" and p.w_pool and src > 12 >= dst:
                continue                    # TL-A2: not into the second half yet
            step = land(p.set_w(src, -1), dst, to_b_bar)
            if step:
                yield step
        elif home and (dst == 0 or tl_bear_off == "higher" and not p.w_bar and not p.w_pool
                       and not any(p.w[q] for q in range(src + 1, 25))):
            yield replace(p.set_w(src, -1), w_off=p.w_off + 1), 0


def tabula(pos: Pos, d1: int, d2: int, d3: int, *, tl_route: str = "shared",
           tl_enter_all_first: str = "no", tl_hit: str = "enter_first",
           tl_must_play: str = "most", tl_gather: str = "last_quarter",
           tl_bear_off: str = "exact") -> tuple[set[Pos], int]:
    """The distinct results of W's throw and how many numbers could not be played.

    TL1, the first throw: all thirty men unentered, 6-5-2. Each number enters a man (on 19, 20
    or 23) or carries on one already entered: one man with all three, one with two numbers and
    another with the third (three ways), or three men: 5 results.

    >>> res, lost = tabula(Pos.of({}, {}, w_pool=15, b_pool=15), 6, 5, 2)
    >>> w_list(res), lost  # doctest: +NORMALIZE_WHITESPACE
    ([{12: 1}, {14: 1, 23: 1}, {17: 1, 20: 1}, {18: 1, 19: 1}, {19: 1, 20: 1, 23: 1}], 0)

    TL2, a hit man enters first: W's man on the bar, fourteen on 10; B holds 20 and 22, so the
    5 and the 3 cannot enter: the 1 must enter him (on 24) before the 5 and the 3 are played;
    5 results, none leaving him on the bar. With tl_hit = "free", 10 results, 5 of them do.

    >>> tl2 = from_json({"points": [0] * 9 + [14] + [0] * 9 + [-2, 0, -2, 0, 0],
    ...                  "bar": [1, 0], "off": [0, 0], "dice": [5, 3, 1]})
    >>> res, lost = tabula(tl2, 5, 3, 1)
    >>> w_list(res)  # doctest: +NORMALIZE_WHITESPACE
    [{2: 1, 10: 13, 24: 1}, {5: 1, 7: 1, 10: 12, 24: 1}, {5: 1, 10: 13, 21: 1},
     {7: 1, 10: 13, 19: 1}, {10: 14, 16: 1}]
    >>> free = tabula(tl2, 5, 3, 1, tl_hit="free")[0]
    >>> len(free), sum(1 for p in free if p.w_bar)
    (10, 5)

    TL3, exact bearing off: W {3:1, 1:1}, 13 off. Neither the 6 nor the 4 bears a man off; the
    2 plays 3/1 and the rest is lost. With tl_bear_off = "higher", both men go off (the last
    man off counts as the whole throw).

    >>> tl3 = Pos.of({3: 1, 1: 1}, {20: 5, 21: 5, 22: 5}, w_off=13)
    >>> res, lost = tabula(tl3, 6, 4, 2)
    >>> w_list(res), lost
    ([{1: 2}], 2)
    >>> res, lost = tabula(tl3, 6, 4, 2, tl_bear_off="higher")
    >>> [p.w_off for p in res], lost
    ([15], 0)

    TL4, Zeno's throw (AGTL): W has seven men on 19, pairs on 15, 6 and 5, single men on 16
    and 2; B closes 17, 14, 13, 11, 10, 7 and 4. The 6 can only be 15/9, the 5 only 6/1, the 2
    only 5/3: one result, the whole throw used, eight single men (two before).

    >>> tl4 = Pos.of({19: 7, 16: 1, 15: 2, 6: 2, 5: 2, 2: 1},
    ...              {17: 3, 14: 2, 13: 2, 11: 2, 10: 2, 7: 2, 4: 2})
    >>> res, lost = tabula(tl4, 2, 6, 5)
    >>> w_list(res), [sum(n == 1 for n in p.w) for p in res]  # doctest: +NORMALIZE_WHITESPACE
    ([{1: 1, 2: 1, 3: 1, 5: 1, 6: 1, 9: 1, 15: 1, 16: 1, 19: 7}], [8])
    >>> len(tabula(tl4, 2, 6, 5, tl_must_play="free")[0])
    8

    TL5, a triplet is three moves, not four: W {24:2}, 13 off, 4-4-4 -> one man 24/12, or one
    24/16 and the other 24/20.

    >>> w_list(tabula(Pos.of({24: 2}, {2: 15}, w_off=13), 4, 4, 4)[0])
    [{12: 1, 24: 1}, {16: 1, 20: 1}]
    """
    assert tl_route in ("shared", "offset")
    seqs = walk3(pos, (d1, d2, d3), lambda p, d: tabula_moves(
        p, d, tl_enter_all_first, tl_hit, tl_gather, tl_bear_off))
    kept, lost = choose3(pos, seqs, tl_must_play)
    return {p for p, _ in kept}, lost


def tabula_turn(p: Pos, tl_route: str = "shared") -> Pos:
    """The same position for B to play. Shared route: B's pip q is W's pip q, so only the
    colours swap; offset (Long Nardy geometry): B's pip q is W's pip q + 12 or q - 12."""
    m = (lambda q: q) if tl_route == "shared" else opp_pip_same
    w = (0,) + tuple(p.b[m(q)] for q in range(1, 25))
    b = (0,) + tuple(p.w[m(q)] for q in range(1, 25))
    return Pos(w, b, w_off=p.b_off, b_off=p.w_off, w_bar=p.b_bar, b_bar=p.w_bar,
               w_pool=p.b_pool, b_pool=p.w_pool)


# -- Emperador (§8) ------------------------------------------------------------------------------

def emperador_moves(p: Pos, d: int, em_hit: str = "start_point", em_bear_off: str = "all_home"
                    ) -> Iterable[Step]:
    """W's single moves of the number d. A hit man goes back to its start (B's pip 24, W's pip
    1), or to B's bar when W holds that point, the hitter just landed there included (EM-A2);
    W's own bar men enter on pip 25 - d before anything else moves."""
    def send(q: Pos) -> Pos:
        if em_hit == "start_point" and not q.w[1]:
            return q.set_b(1, 1)
        return to_b_bar(q)

    if p.w_bar:
        step = land(replace(p, w_bar=p.w_bar - 1), 25 - d, send)
        if step:
            yield step
        return
    home = p.w_pool == 0 and not any(p.w[q] for q in range(7, 25))
    for src in range(1, 25):
        if not p.w[src]:
            continue
        dst = src - d
        if dst >= 1:
            step = land(p.set_w(src, -1), dst, send)
            if step:
                # a man hit on his own start (W's pip 1) is not sent back: it counts no hit
                yield (step[0], 0) if dst == 1 else step
        elif em_bear_off == "any_time" or home and (
                dst == 0 or not any(p.w[q] for q in range(src + 1, 25))):
            yield replace(p.set_w(src, -1), w_off=p.w_off + 1), 0


def emperador_plays(pos: Pos, d1: int, d2: int, d3: int, *, em_hit: str = "start_point",
                    em_bear_off: str = "all_home") -> tuple[set[tuple[Pos, int]], int]:
    """The distinct (result, B men the play sent back) and how many numbers were lost."""
    seqs = walk3(pos, (d1, d2, d3), lambda p, d: emperador_moves(p, d, em_hit, em_bear_off))
    return choose3(pos, seqs)


def emperador(pos: Pos, d1: int, d2: int, d3: int, *, em_hit: str = "start_point",
              em_bear_off: str = "all_home") -> tuple[set[Pos], int]:
    """The distinct results of W's throw and how many numbers could not be played.

    EM1, the start: W's fifteen on 24, B's on W's pip 1; 6-5-1 -> one man 24/12, two men
    (24/13 24/23, 24/17 24/19, 24/18 24/18) or three men (24/18 24/19 24/23): 5 results.

    >>> start = Pos.of({24: 15}, {1: 15})
    >>> w_list(emperador(start, 6, 5, 1)[0])  # doctest: +NORMALIZE_WHITESPACE
    [{12: 1, 24: 14}, {13: 1, 23: 1, 24: 13}, {17: 1, 19: 1, 24: 13},
     {18: 1, 19: 1, 23: 1, 24: 12}, {18: 2, 24: 13}]

    EM2, back to its start: W's last man on 12 (14 off), a B man alone on 9; 3-2-1. The man
    ends on 6 whatever the order; resting on 9 (3 first, or 2-1 or 1-2 first) hits the B man,
    who goes back to B's start (W's pip 1); 2-3-1 and 1-3-2 pass him by.

    >>> em2 = Pos.of({12: 1}, {9: 1, 1: 14}, w_off=14)
    >>> sorted([(p.w_dict(), b_dict(p), p.b_bar, hits) for p, hits in
    ...        emperador_plays(em2, 3, 2, 1)[0]], key=repr)
    [({6: 1}, {1: 14, 9: 1}, 0, 0), ({6: 1}, {1: 15}, 0, 1)]

    EM3, to the bar: the same play, but W holds B's start (two men on W's pip 1) and B's
    fourteen others stand on W's 5: the hit man waits on B's bar.

    >>> em3 = Pos.of({12: 1, 1: 2}, {9: 1, 5: 14}, w_off=12)
    >>> sorted([(p.w_dict(), b_dict(p), p.b_bar, hits) for p, hits in
    ...        emperador_plays(em3, 3, 2, 1)[0]], key=repr)
    [({1: 2, 6: 1}, {5: 14, 9: 1}, 0, 0), ({1: 2, 6: 1}, {5: 14}, 1, 1)]
    """
    kept, lost = emperador_plays(pos, d1, d2, d3, em_hit=em_hit, em_bear_off=em_bear_off)
    return {p for p, _ in kept}, lost


def emperador_turn(p: Pos) -> Pos:
    """The same position for B to play (opposite directions: new[k] = -old[25 - k])."""
    w = (0,) + tuple(p.b[25 - q] for q in range(1, 25))
    b = (0,) + tuple(p.w[25 - q] for q in range(1, 25))
    return Pos(w, b, w_off=p.b_off, b_off=p.w_off, w_bar=p.b_bar, b_bar=p.w_bar,
               w_pool=p.b_pool, b_pool=p.w_pool)


def emperador_draw(p: Pos, em_hit: str = "start_point", em_bear_off: str = "all_home") -> bool:
    """§8.4: at the end of a play, neither side has a single move with any number 1..6, each
    side judged from its own view (a game already won is no draw).

    EM4: each side has a man on the bar and the other holds the six points he would enter on
    (W holds his 1..6, B's entry; B holds W's 19..24, W's entry); neither can move at all. The
    same without W's man on the bar (he stands on 13) is no draw.

    >>> em4 = Pos.of({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2},
    ...              {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 2}, w_bar=1, b_bar=1)
    >>> emperador_draw(em4), emperador(em4, 6, 5, 1) == ({em4}, 3)
    (True, True)
    >>> emperador_draw(replace(em4, w_bar=0).set_w(13, 1))
    False
    """
    def stuck(q: Pos) -> bool:
        return not any(True for d in range(1, 7) for _ in emperador_moves(q, d, em_hit,
                                                                          em_bear_off))
    return p.w_off < CHECKERS and p.b_off < CHECKERS and stuck(p) and stuck(emperador_turn(p))


def prime(p: Pos, side: str = "W") -> bool:
    """Whether `side` holds six consecutive points with two or more men on each."""
    men = p.w if side == "W" else p.b
    return any(all(men[q + i] >= 2 for i in range(6)) for q in range(1, 20))


def prime_update(before: int, sent_back: int, block_stands: bool, em_prime_win: str = "two"
                 ) -> tuple[int, int]:
    """The mover's count of §8.4 after his play, and the points it wins (0: no win yet).

    Reading chosen: the count belongs to "a six-point block of the mover's"; the block is judged
    at the end of the play only. If none stands then, the count is 0 (the block was broken, or
    there was none: the play's hits do not count). If one stands, the play's hits, made before
    or after it was completed in the play, are added to the count carried from earlier turns.
    Four or more wins 2 points ("two"), 1 ("one"), or nothing ("off").

    EM5: W holds 12..7 (two men each) with three men on 20 and a count of 3; B holds W's 1..6
    behind the block and has one man on 14. With 6-6-6 the block cannot move (its 6s land on
    B's points): both plays hit 20/14* and keep the block, the count reaches 4 and W wins 2.
    With 6-6-2, 3 of the 11 plays keep the block (and win); the 8 that break it reset it to 0.

    >>> em5 = Pos.of({12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 20: 3},
    ...              {1: 4, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 14: 1})
    >>> sorted([(p.w_dict(), prime_update(3, hits, prime(p))) for p, hits in
    ...        emperador_plays(em5, 6, 6, 6)[0]], key=repr)  # doctest: +NORMALIZE_WHITESPACE
    [({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 14: 3}, (4, 2)),
     ({7: 2, 8: 3, 9: 2, 10: 2, 11: 2, 12: 2, 14: 1, 20: 1}, (4, 2))]
    >>> from collections import Counter
    >>> Counter(prime_update(3, hits, prime(p)) for p, hits in emperador_plays(em5, 6, 6, 2)[0])
    Counter({(0, 0): 8, (4, 2): 3})
    >>> prime_update(3, 1, True, "one"), prime_update(3, 1, True, "off"), prime_update(2, 1, True)
    ((4, 1), (4, 0), (3, 0))
    """
    count = before + sent_back if block_stands else 0
    value = {"two": 2, "one": 1, "off": 0}[em_prime_win]
    return count, value if count >= 4 else 0
