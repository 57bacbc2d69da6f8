"""Legal plays: every way the mover can use a roll, under the movement switches of `MoveRules`.

The pipeline is the one of trictrac §3.9, which also covers backgammon:

1. generate step sequences, each single-number move physically possible (blocks, hits, entering
   from the bar or the start, bearing off, rests on pips that are never a landing);
2. drop the sequences that fail an end-of-play check: the own corner never holds exactly one
   checker, a sequence never ends on a rest-only pip (the opponent's corner, `no_landing`), the
   corner swap when it is forbidden, then the `forbid` hooks of the variant file;
3. over what survived, the maximal-dice rule (most numbers played) and the higher-number rule;
4. the excédant filter.

A sequence that bears off the mover's last checker is complete: it counts as playing every number.

Two implementations answer the same question. `plays()` walks every step sequence and keeps the
paths; it serves every switch. `results()` for the backgammon family (no corners, no hooks,
entering and hitting by the bar) runs a function generated for the variant's switches by
`interpreter.kernel._fastgen`, which walks a doublet's moves in one order only and tells duplicate
results apart by integer keys.

>>> from interpreter.kernel.board import from_start
>>> from interpreter.kernel.rules import MoveRules
>>> gen = MoveGenerator(MoveRules())
>>> len(gen.results(from_start({24: 2, 13: 5, 8: 3, 6: 5}), 3, 1))
16
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

from interpreter.kernel.board import Board
from interpreter.kernel.rules import MoveRules

EXCEDANT = 1
PUISSANCE = 2
SURPLUS = 4


class Step(NamedTuple):
    """One single-number move: `src` 25 is the bar, `dst` 0 is off; `hit` the opponent checkers
    hit; `flags` bit 1 = borne off by a higher number than needed, bit 2 = par puissance, bit 4 =
    borne off from the farthest surplus pip of a full home board (`retour_conserve_exit`)."""

    src: int
    dst: int
    die: int
    hit: int
    flags: int


Path = tuple[Step, ...]


class Play(NamedTuple):
    """An end board and every legal step sequence that reaches it."""

    board: Board
    paths: tuple[Path, ...]


ForbidHook = Callable[[Board, Board, Path], bool]


class MoveGenerator:
    """The legal plays of one variant's movement switches (and its compiled `forbid` filters)."""

    def __init__(self, rules: MoveRules, forbid: Sequence[ForbidHook] = ()):
        self.rules = rules
        self.forbid = tuple(forbid)
        r = rules
        self._total_dbl = r.doublet_moves
        corner = (r.opp_corner,) if r.opp_corner is not None else ()
        self._rest_only = frozenset(
            p for p in (corner if r.opp_corner_rest else ()) + tuple(r.no_landing)
            if 1 <= p <= 24)
        #: pips a checker may neither land on nor pass through (the opponent's corner when it is
        #: no rest); checked with the rest-only pips, so the common case costs one set test
        self._closed = frozenset(p for p in corner if not r.opp_corner_rest and 1 <= p <= 24)
        self._special = self._rest_only | self._closed
        self._enter_bar = r.enter == "bar"
        self._enter_start = r.enter == "start"
        self._start = r.start_pip
        self._opp_start = 25 - r.start_pip
        self._fast = None
        if fast_path_applies(rules) and not self.forbid:
            from interpreter.kernel._fastgen import compiled_results
            self._fast = compiled_results(rules)
            # the generated function answers results() itself: no extra call on the hot path
            self.results = self._fast  # type: ignore[method-assign]

    # -- public API ------------------------------------------------------------------------

    def results(self, b: Board, d1: int, d2: int) -> list[Board]:
        """The distinct end boards of the complete legal plays; `[b]` when nothing can be played.

        For the backgammon family this method is replaced, per instance, by the generated
        function (same answer, no paths)."""
        if self._fast is not None:
            return self._fast(b, d1, d2)
        return [p.board for p in self.plays(b, d1, d2)[0]]

    def plays(self, b: Board, d1: int, d2: int) -> tuple[list[Play], int]:
        """The complete legal plays with every step sequence reaching each end board, and how many
        of the roll's single-number moves cannot be played (a doublet counts `doublet_moves`)."""
        r = self.rules
        total = self._total_dbl if d1 == d2 else 2
        cands = self._explore(b, d1, d2, total)
        pu = self._puissance(b, d1, d2)
        if pu is not None:
            cands[min(2, total)].extend(pu)
        best = 0
        chosen: list[tuple[tuple, Board]] = []
        if r.max_dice:
            for n in range(total, 0, -1):
                surv = [c for c in cands[n] if self._end_ok(b, c[1], c[0])]
                if n == 1 and d1 != d2 and r.higher_number and surv:
                    hi = max(d1, d2)
                    higher = [c for c in surv if c[0][0][2] == hi]
                    if higher:
                        surv = higher
                if surv:
                    best, chosen = n, surv
                    break
        else:
            for n in range(total, 0, -1):
                surv = [c for c in cands[n] if self._end_ok(b, c[1], c[0])]
                if surv and not best:
                    best = n
                chosen.extend(surv)
        if not chosen:
            return [Play(b, ((),))], total
        if r.excedant_filter != "none":
            chosen = self._excedant(chosen)
        groups: dict[Board, list[Path]] = {}
        for path, board in chosen:
            groups.setdefault(board, []).append(tuple(map(Step._make, path)))
        return [Play(bd, tuple(ps)) for bd, ps in groups.items()], total - best

    def single_plays(self, b: Board, d: int) -> list[Play]:
        """The legal plays of the number `d` alone (a number left over after the first part of a
        throw, such as the entering move after a restack); `[Play(b, ((),))]` when it cannot be
        played."""
        L = list(b)
        cands: list[list] = [[], []]
        rem = L[25] + sum(x for x in L[1:25] if x > 0)
        self._dfs(L, (d,), 0, [], None, (), rem, cands, 1)
        groups: dict[Board, list[Path]] = {}
        for path, board in cands[1]:
            if self._end_ok(b, board, path):
                groups.setdefault(board, []).append(tuple(map(Step._make, path)))
        if not groups:
            return [Play(b, ((),))]
        return [Play(bd, tuple(ps)) for bd, ps in groups.items()]

    def apply(self, b: Board, path: Sequence[Step]) -> Board:
        """The board after the steps of `path`, applied one by one as they are written."""
        L = list(b)
        for st in path:
            L[st.src] -= 1
            if st.dst == 0:
                L[0] += 1
                continue
            if st.hit:
                L[st.dst] += st.hit
                self._send(L, st.hit)
            L[st.dst] += 1
        return tuple(L)

    # -- generation ------------------------------------------------------------------------

    def _send(self, L: list[int], n: int) -> None:
        if self.rules.hit == "start":
            L[self._opp_start] -= n
        else:
            L[26] += n

    def _explore(self, b: Board, d1: int, d2: int, total: int) -> list[list]:
        """Every step sequence whose moves are each physically possible, grouped by how many
        numbers it plays (a sequence bearing off the last checker counts as `total`). Sequences
        ending on a rest-only pip are left out; the other end checks come later."""
        L = list(b)
        cands: list[list] = [[] for _ in range(total + 1)]
        rem = L[25] + sum(x for x in L[1:25] if x > 0)
        if d1 == d2:
            orders: tuple[tuple[int, ...], ...] = ((d1,) * total,)
        else:
            orders = ((d1, d2), (d2, d1))
        for seq in orders:
            self._dfs(L, seq, 0, [], None, (), rem, cands, total)
        return cands

    def _dfs(self, L: list[int], seq: tuple[int, ...], i: int, path: list, must: int | None,
             carried: tuple[int, ...], rem: int, cands: list[list], total: int) -> None:
        d = seq[i]
        last = i + 1 == len(seq)
        rest_only = self._rest_only
        S = self._start
        for s, t, h, fl in self._steps(L, d, must, carried, last):
            # apply
            L[s] -= 1
            if t == 0:
                L[0] += 1
            else:
                if h:
                    L[t] += h
                    self._send(L, h)
                L[t] += 1
            path.append((s, t, d, h, fl))
            if t == 0 and rem == 1:
                cands[total].append((tuple(path), tuple(L)))
            else:
                rest = t in rest_only
                if not rest:
                    cands[i + 1].append((tuple(path), tuple(L)))
                if not last:
                    if self._enter_start:
                        if s == S:
                            nc = carried + (t,)
                        elif s in carried:
                            k = carried.index(s)
                            nc = carried[:k] + (t,) + carried[k + 1:]
                        else:
                            nc = carried
                    else:
                        nc = carried
                    self._dfs(L, seq, i + 1, path, t if rest else None, nc,
                              rem - (t == 0), cands, total)
            # undo
            path.pop()
            if t == 0:
                L[0] -= 1
            else:
                L[t] -= 1
                if h:
                    L[t] -= h
                    self._send(L, -h)
            L[s] += 1

    def _steps(self, L: list[int], d: int, must: int | None, carried: tuple[int, ...],
               last: bool) -> list[tuple[int, int, int, int]]:
        """The single-number moves of `d` physically possible on L: (src, dst, hit, flags)."""
        r = self.rules
        S = self._start
        srcs: Sequence[int]
        if self._enter_bar and L[25] > 0 and r.enter_first:
            srcs = (25,)
        elif self._enter_start and r.enter_first and L[S] > 0:
            srcs = (S,) + tuple(sorted({c for c in carried if c != S and L[c] > 0}, reverse=True))
        elif must is not None:
            srcs = (must,)
        else:
            srcs = [p for p in range(24, 0, -1) if L[p] > 0]
            if self._enter_bar and L[25] > 0:
                srcs.insert(0, 25)
        if must is not None:
            # the checker resting on a pass-through pip goes straight on, if it may move at all
            srcs = (must,) if must in srcs else ()
        off_pip = r.off_pip
        bear = None      # computed on the first bearing-off attempt
        out = []
        exact_found = False
        for s in srcs:
            t = s - d
            if t > off_pip:
                v = L[t]
                if t in self._special:
                    if v < 0 or last or t in self._closed:
                        continue
                    out.append((s, t, 0, 0))
                elif v >= 0:
                    out.append((s, t, 0, 0))
                elif r.hit != "none" and -v < r.block:
                    out.append((s, t, -v, 0))
                continue
            if s == 25:
                continue
            if bear is None:
                bear = self._may_bear_off(L)
            if not bear:
                continue
            if t == off_pip:
                out.append((s, 0, 0, 0))
                exact_found = True
            elif r.over_exit == "any" or not any(L[q] > 0 for q in range(s + 1, 25)):
                out.append((s, 0, 0, EXCEDANT))
        if r.retour_conserve_exit == "farthest_surplus_point" and must is None:
            step = self._surplus_exit(L, d)
            if step is not None and (step[0], 0, 0, EXCEDANT) not in out:
                out.append(step)
        if exact_found and r.exact_exit == "compulsory":
            out = [m for m in out if m[1] == 0 and m[3] == 0]
        return out

    def _surplus_exit(self, L: list[int], d: int) -> tuple[int, int, int, int] | None:
        """With every home pip holding two or more of the mover's checkers, the number `d`
        higher than needed bears off a checker from the farthest pip holding more than two
        (`retour_conserve_exit = "farthest_surplus_point"`): the board stays full."""
        far = 0
        for p in range(1, self.rules.home_top + 1):
            v = L[p]
            if v < 2:
                return None
            if v > 2:
                far = p
        if not far or far - d >= self.rules.off_pip or not self._may_bear_off(L):
            return None
        return (far, 0, 0, EXCEDANT | SURPLUS)

    def _may_bear_off(self, L: list[int]) -> bool:
        if L[25] > 0:
            return False
        if self._enter_start and L[self._start] > 0:
            return False
        if self.rules.bear_off == "all_home":
            top = self.rules.home_top
            return not any(L[p] > 0 for p in range(top + 1, 25))
        return True

    def _puissance(self, b: Board, d1: int, d2: int) -> list | None:
        """The play taking the own corner par puissance, when the switches and the position allow
        it and the corner cannot be taken directly with this roll."""
        r = self.rules
        C, O = r.own_corner, r.opp_corner
        if r.puissance_needs == "off" or C is None or O is None or b[C] != 0:
            return None
        if r.puissance_needs == "both_coins_empty" and b[O] != 0:
            return None
        if b[25] > 0 or (self._enter_start and b[self._start] > 0):
            return None
        a, c = O + d1, O + d2
        if a > 24 or c > 24:
            return None
        if d1 == d2:
            if b[a] < 2:
                return None
        elif b[a] < 1 or b[c] < 1:
            return None
        ea, ec = C + d1, C + d2   # par effet: checkers that reach the own corner directly
        if ea <= 24 and ec <= 24:
            if (b[ea] >= 2) if d1 == d2 else (b[ea] >= 1 and b[ec] >= 1):
                return None
        L = list(b)
        L[a] -= 1
        L[c] -= 1
        L[C] += 2
        board = tuple(L)
        s1 = (a, C, d1, 0, PUISSANCE)
        s2 = (c, C, d2, 0, PUISSANCE)
        if d1 == d2:
            return [((s1, s2), board)]
        return [((s1, s2), board), ((s2, s1), board)]

    # -- end-of-play checks and filters ------------------------------------------------------

    def _end_ok(self, before: Board, board: Board, path: tuple) -> bool:
        r = self.rules
        C = r.own_corner
        if C is not None:
            if board[C] == 1:
                return False
            if r.coin_swap == "forbid" and before[C] == 2 and _is_swap(C, path):
                return False
        if self.forbid:
            steps = tuple(map(Step._make, path))
            for f in self.forbid:
                if f(before, board, steps):
                    return False
        return True

    def _excedant(self, chosen: list) -> list:
        # a surplus bear-off of a full home board is a privilege, not counted as excédant
        counts = [sum(1 for st in path if st[4] & (EXCEDANT | SURPLUS) == EXCEDANT)
                  for path, _ in chosen]
        low = min(counts)
        if self.rules.excedant_filter == "zero_if_possible" and low != 0:
            return chosen
        return [c for c, n in zip(chosen, counts) if n == low]


def _is_swap(C: int, path: tuple) -> bool:
    """One of the corner's last two checkers leaves while another arrives: a departure from C
    and an arrival on C, not counting a checker that arrives and goes straight on (a rest)."""
    departures = arrivals = 0
    i, n = 0, len(path)
    while i < n:
        st = path[i]
        if st[1] == C and i + 1 < n and path[i + 1][0] == C:
            i += 2          # passes through the corner
            continue
        if st[0] == C:
            departures += 1
        if st[1] == C:
            arrivals += 1
        i += 1
    return departures == 1 and arrivals >= 1


def fast_path_applies(rules: MoveRules) -> bool:
    """Whether `results()` can use the generated backgammon-family generator for these rules."""
    return (rules.own_corner is None and rules.opp_corner is None and not rules.no_landing
            and rules.enter == "bar" and rules.enter_first and rules.hit == "bar"
            and rules.max_dice and rules.exact_exit == "optional"
            and rules.excedant_filter == "none"
            and rules.retour_conserve_exit == "farthest_checker")
