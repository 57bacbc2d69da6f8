"""A second, plain implementation of the legal plays of Gul bara, Tapa and Jacquet, written
from the rules alone (tables-family-2.md §1.2 and §2-§4), sharing no code with the kernel. It
builds on the position type and the procedure of `reference_tables` (every order of the dice,
the end-of-play rules, the most numbers, the higher number), itself written from the rules.

Positions are seen from the player on roll (W); B is the opponent; pips are W's.

    >>> start = Pos.of({24: 15}, {12: 15})
    >>> sorted(p.w_dict() for p in gul_bara(start, 6, 6, rolls=1)[0])
    [{18: 4, 24: 11}]
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from reference_tables import (CHECKERS, Move, Pos, Seq, all_sequences, bear_off_move, choose,
                              opp_pip_same, plakoto)


# -- Gul bara (§2) --------------------------------------------------------------------------------

def gul_moves(p: Pos, d: int) -> Iterable[tuple[Move, Pos]]:
    """A single move of Gul bara: to an empty point or one of W's own (any B checker closes a
    point); bearing off once all fifteen are on pips 1..6, exact or, higher, from the farthest."""
    home = all(p.w[q] == 0 for q in range(7, 25))
    for src in range(1, 25):
        if not p.w[src]:
            continue
        dst = src - d
        if dst >= 1:
            if not p.b[dst]:
                yield (src, dst, d), p.set_w(src, -1).set_w(dst, 1)
        elif home and (dst == 0 or not any(p.w[q] for q in range(src + 1, 25))):
            yield (src, 0, d), replace(p.set_w(src, -1), w_off=p.w_off + 1)


def gul_bara(pos: Pos, d1: int, d2: int, rolls: int = 1, start: int = 3
             ) -> tuple[set[Pos], str]:
    """One throw or stage: its distinct results and what follows ("progression" or "end")."""
    seqs = all_sequences(pos, d1, d2, lambda p, d, _s: gul_moves(p, d))
    results, used = choose(seqs, d1, d2)
    if any(r.w_off == CHECKERS for r in results):
        return results, "end"
    full = used == (4 if d1 == d2 else 2)
    if d1 == d2 and rolls >= start and d1 < 6 and full:
        return results, "progression"
    return results, "end"


def gul_bara_throw(pos: Pos, d: int, rolls: int, start: int = 3) -> set[Pos]:
    """Every final position of a whole doublet throw d-d, stage after stage (§2.2)."""
    out: set[Pos] = set()
    frontier = {pos}
    e = d
    while frontier:
        nxt: set[Pos] = set()
        for p in frontier:
            results, follows = gul_bara(p, e, e, rolls, start)
            if follows == "progression":
                nxt |= results
            else:
                out |= results
        frontier = nxt
        e += 1
    return out


def gul_bara_passed(pos: Pos, d: int, k: int) -> tuple[set[Pos], str]:
    """Numbers passed on by the opponent (GB-A2): k moves of d, as many as can be played; then
    "passed" (four moves of d + 1) when all k were played and d < 6, else "throw"."""
    out: list[tuple[int, Pos]] = [(0, pos)]

    def walk(p: Pos, n: int) -> None:
        if n == k:
            return
        for _mv, nxt in gul_moves(p, d):
            out.append((n + 1, nxt))
            walk(nxt, n + 1)

    walk(pos, 0)
    most = max(n for n, _ in out)
    results = {p for n, p in out if n == most}
    if most == k and d < 6 and not any(r.w_off == CHECKERS for r in results):
        return results, "passed"
    return results, "throw"


def gul_bara_left(pos: Pos, d1: int, d2: int) -> dict[Pos, tuple[int, ...]]:
    """An ordinary throw (no progression) and, for each result, the numbers it leaves unplayed,
    highest first: what the opponent plays when the numbers a player cannot play go to him
    (UZGB, GB-A2's Uzbek reading). A doublet leaves moves of its number; of two different
    numbers, the one the play did not use, or both."""
    seqs = all_sequences(pos, d1, d2, lambda p, d, _s: gul_moves(p, d))
    most = max(len(s) for s, _ in seqs)
    kept = [(s, p) for s, p in seqs if len(s) == most]
    if most == 1 and d1 != d2:
        kept = [(s, p) for s, p in kept if s[0][2] == max(d1, d2)] or kept
    out: dict[Pos, tuple[int, ...]] = {}
    for s, p in kept:
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        for _src, _dst, d in s:
            dice.remove(d)
        out.setdefault(p, tuple(sorted(dice, reverse=True)))
    return out


def gul_bara_given(pos: Pos, numbers: tuple[int, ...]) -> set[Pos]:
    """The play of numbers the opponent could not play: moves of one number as many as can be
    played, or two different numbers as a throw of their own (§1.2)."""
    if len(numbers) == 2 and numbers[0] != numbers[1]:
        return gul_bara(pos, numbers[0], numbers[1])[0]
    out: list[tuple[int, Pos]] = [(0, pos)]

    def walk(p: Pos, n: int) -> None:
        if n == len(numbers):
            return
        for _mv, nxt in gul_moves(p, numbers[0]):
            out.append((n + 1, nxt))
            walk(nxt, n + 1)

    walk(pos, 0)
    most = max(n for n, _ in out)
    return {p for n, p in out if n == most}


# -- Tapa (§3) ------------------------------------------------------------------------------------

def tapa(pos: Pos, d1: int, d2: int, bear_off_pinned: str = "allowed") -> tuple[set[Pos], int]:
    """Plakoto's movement (pins), with a pinned checker at home counting as home (TP-A1)."""
    return plakoto(pos, d1, d2, bear_off_pinned)


def _side_can_move(w: tuple, b: tuple, w_pinned: frozenset, b_pinned: frozenset) -> bool:
    for src in range(1, 25):
        if w[src]:
            for d in range(1, 7):
                dst = src - d
                if dst >= 1 and b[dst] < 2 and dst not in w_pinned:
                    return True
    home = all(w[q] == 0 for q in range(7, 25)) and all(q <= 6 for q in w_pinned)
    return home and any(w[q] for q in range(1, 7))


def tapa_deadlock(p: Pos) -> bool:
    """§3.3: neither side has a free checker some number could move to an open point, nor one it
    could bear off."""
    mirror_w = (0,) + tuple(p.b[25 - q] for q in range(1, 25))
    mirror_b = (0,) + tuple(p.w[25 - q] for q in range(1, 25))
    w_pins = frozenset(25 - q for q in p.b_pinned)
    b_pins = frozenset(25 - q for q in p.w_pinned)
    return not _side_can_move(p.w, p.b, p.w_pinned, p.b_pinned) and \
        not _side_can_move(mirror_w, mirror_b, w_pins, b_pins)


# -- Jacquet (§4) ---------------------------------------------------------------------------------

def bouchon_illegal(p: Pos) -> bool:
    """§4.3: six consecutive points of B's route held by W, without W's pips 1 and 2 held."""
    if p.w[1] and p.w[2]:
        return False
    return any(all(p.w[opp_pip_same(r)] for r in range(q, q + 6)) for q in range(1, 20))


def jacquet(pos: Pos, d1: int, d2: int, courier_goal: str = "last_quarter"
            ) -> tuple[set[Pos], int]:
    goal = 6 if courier_goal == "last_quarter" else 12

    def moves(p: Pos, d: int, seq: Seq) -> Iterable[tuple[Move, Pos]]:
        arrived = p.w_off > 0 or any(p.w[x] for x in range(1, goal + 1))
        away = any(p.w[x] for x in range(goal + 1, 24))
        for mv, nxt in gul_moves(p, d):
            if mv[0] == 24 and not arrived and away:
                continue            # the courier is on its way: no other man leaves the talon
            yield mv, nxt

    seqs = all_sequences(pos, d1, d2, moves)
    legal = [(s, p) for s, p in seqs if s and not bouchon_illegal(p)]
    if not legal:
        return {pos}, 0
    return choose(legal, d1, d2)
