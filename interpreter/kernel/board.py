"""The one board representation shared by every variant.

A board is a tuple of ints seen from the player on roll (the *mover*). Indexes 0..27 are the same
for every variant:

====== =====================================================
index  meaning
====== =====================================================
0      the mover's checkers borne off (>= 0)
1..24  pip p: mover's checkers (> 0) or opponent's (< 0)
25     the mover's bar (>= 0)
26     the opponent's bar (>= 0)
27     the opponent's checkers borne off (>= 0)
====== =====================================================

A variant that pins checkers or starts them off the board has a longer board; the slots after
27 exist only there, so backgammon and trictrac boards stay 28 long:

====== =====================================================
index  meaning (only in the layouts that have it)
====== =====================================================
28     pins: bit p set when pip p holds a pinned checker under the checkers counted on it, which
       belong to the other side (so the pinned checker is the opponent's when ``b[p] > 0`` and
       the mover's when ``b[p] < 0``); one pinned checker at most per pip
29     the mover's unentered checkers, waiting off the board to enter (acey-deucey)
30     the opponent's unentered checkers
====== =====================================================

A board with unentered checkers is 31 long (slot 28 is then 0 unless the variant also pins).

A variant whose men start stacked in pairs (`[board] stacked`, Doblet) adds, after every other
slot (`Geometry.stack_slot`), two bit masks: bit p of the first set while the mover's pair on
his pip p is still stacked, bit q of the second while the opponent's pair on *his own* pip q
is; turning the board swaps the two.

A variant that keeps named state across turns (`[turn.state]`) adds, from slot 31 (slots 28..30
are then 0 unless the layout uses them), one slot per name for the mover and then one per name
for the opponent (`Geometry.state`); turning the board swaps the two halves, and the kernel
carries them through a play unchanged.

Pip numbering is the mover's distance to bearing off (pip 24 is the first point of his
route, pip 1 the last). Where the opponent's checkers run is the variant's *route*:

- ``"opposite"`` (backgammon): the opponent's own pip q is the mover's pip 25 - q; his start is
  the mover's pip 1 and his home board the mover's pips 19..24;
- ``"same"`` (Long Nardy, Fevga): both run the same way round; the opponent's own pip q is the
  mover's pip q + 12 for q <= 12 and q - 12 for q >= 13, so his start (his 24) is the mover's 12
  and his home board the mover's 13..18;
- ``"shared"`` (Tabula): both enter at the same end and run the same route; the opponent's own
  pip q is the mover's pip q, so turning the board only swaps the colours;
- ``"scripta"`` (XII scripta, a board of 36 points in three rows of twelve): the middle row, the
  mover's pips 25..36, is shared in the same direction (the opponent's pip q is the mover's q);
  the outer rows are crossed in opposite directions (his pip q <= 24 is the mover's 25 - q).

A board of 36 points (`Geometry.points` = 36, route ``"scripta"``) keeps pips 1..24 in slots
1..24 and holds the twelve pips 25..36 of the shared middle row in twelve more slots after every
other slot (`Geometry.mid`): pip q >= 25 is slot `mid` + q - 25 (`Geometry.slot`). Only such a
board has them, so every other board keeps its length and its slots. The kernel's steps on it
name slots; plays are written and read in pips 1..36 (`Geometry.code` gives a slot's pip, the
bar and the unentered checkers as `points` + 1 and `points` + 2, written ``bar`` and ``in``).

Each mapping is its own inverse; turning the board to the other player follows it.

>>> b = from_json({"points": [0]*23 + [2], "bar": [0, 1], "off": [13, 14]})
>>> flip(flip(b)) == b
True
>>> to_json(flip(b))["bar"]
[1, 0]
>>> same = Geometry("same")
>>> same.their_pip(24), same.their_pip(12), Geometry().their_pip(24)
(12, 24, 1)
>>> same.start_board({24: 15})[12]
-15
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Literal

from interpreter.bounded import STATE_MAX, STATE_MIN, shown
from interpreter.errors import PositionError

OFF = 0
BAR = 25
OPP_BAR = 26
OPP_OFF = 27
SIZE = 28
PINS = 28
POOL = 29
OPP_POOL = 30
PIPS = range(1, 25)

Board = tuple[int, ...]
Route = Literal["opposite", "same", "shared", "scripta"]
#: the most checkers a count of a position may give (a variant has at most 60 a side)
MAX_COUNT = 60


def updated(updates: Any, b: Board, after: Board, plays: Any, d1: int, d2: int,
            rolls: int) -> Board:
    """`after`, a play's end from `b` with (d1, d2), with the mover's named state
    (`[turn.state]`) as the file's `[turn.update]` hooks set it: each asked like a forbid rule
    of the play (its first way among `plays`, the throw's legal plays), reading the values
    before the play. `updates` are (name, slot, flag, hook); the opponent's values are kept."""
    path: Any = ()
    if after != b:
        path = next((p.paths[0] for p in plays if p.board == after), ())
    L = list(after)
    for _name, slot, flag, fn in updates:
        value = fn(b, after, path, d1, d2, rolls)
        L[slot] = int(bool(value)) if flag else min(max(int(value), STATE_MIN), STATE_MAX)
    return tuple(L)


def flip(b: Board) -> Board:
    """The same board seen from the other player, for opposite routes (backgammon's geometry),
    whatever slots the board has; a variant's own `Geometry.flip` also follows a same-direction
    route."""
    if len(b) != SIZE:
        return _LONG[len(b)](b)
    return _flip28(b)


def _flip28(b: Board) -> Board:
    """`flip` of a 28-int board: the turn loop's flip of the backgammon and trictrac layouts,
    with no test of the length (their boards never have more slots)."""
    return (b[27], -b[24], -b[23], -b[22], -b[21], -b[20], -b[19], -b[18], -b[17], -b[16],
            -b[15], -b[14], -b[13], -b[12], -b[11], -b[10], -b[9], -b[8], -b[7], -b[6], -b[5],
            -b[4], -b[3], -b[2], -b[1], b[26], b[25], b[0])


def from_start(start: dict[int, int]) -> Board:
    """Both players with the same starting layout (a pip → count mapping from each one's view),
    opposite routes."""
    return Geometry().start_board(start)


def their_pip(route: str, p: int, points: int = 24) -> int:
    """The opponent's own number of the mover's pip p (and the mover's pip of the opponent's
    pip p: the mapping is its own inverse). `points`: the length of the route (12, 18 or 24;
    the pips above it are never used and map to themselves; 36 with the route "scripta")."""
    if route == "same":
        return p + 12 if p <= 12 else p - 12
    if route == "shared":
        return p
    if route == "scripta":
        return p if p >= 25 else 25 - p
    if points != 24:
        return points + 1 - p if 1 <= p <= points else p
    return 25 - p


def _rev12() -> tuple[int, ...]:
    return tuple(int(f"{v:012b}"[::-1], 2) for v in range(1 << 12))


_REV12 = _rev12()


@dataclass(frozen=True)
class Geometry:
    """What a variant's boards hold beyond indexes 0..27, and how the two routes relate.

    `route` places the opponent's pips (see the module docstring); `pins` adds slot 28;
    `pool` adds slots 29 and 30 (and 28); `state` the named state of `[turn.state]`, (name,
    initial value, whether it is true/false) each, two slots a name after those."""

    route: Route = "opposite"
    pins: bool = False
    pool: bool = False
    state: tuple[tuple[str, int, bool], ...] = ()
    #: the length of each side's route: 24, or 12 or 18 (pips 1..points are used, the slots of
    #: the pips above stay 0), or 36 (route "scripta": twelve more slots, see `mid`)
    points: int = 24
    #: the second side's initial value of each name of `state` where the sides differ (in the
    #: order of `state`; empty: the same initial values): what a position that gives no value
    #: of a name holds for the opponent
    state_other: tuple[int, ...] = ()
    #: the two masks of pairs still stacked (`[board] stacked`): the mover's, in his pips, and
    #: the opponent's, in his own pips, in the last two slots
    stacks: bool = False

    @property
    def state_base(self) -> int:
        """The slot of the mover's first state value (the opponent's follow the mover's):
        after the pins and unentered slots, which a board with state always has (0 where the
        layout does not use them), so that the slots keep their meaning whatever its length."""
        return 31 if self.state or self.pool or self.stacks else 29 if self.pins else SIZE

    @property
    def stack_slot(self) -> int:
        """The slot of the mover's mask of stacked pairs (the opponent's is the next one)."""
        return self.state_base + 2 * len(self.state)

    @property
    def size(self) -> int:
        return self.stack_slot + (2 if self.stacks else 0) + (12 if self.wide else 0)

    def stacked(self, b: Board) -> tuple[list[int], list[int]]:
        """(the mover's pips whose pair is stacked, the opponent's, both in the mover's pips)."""
        if not self.stacks:
            return [], []
        k = self.stack_slot
        mine, theirs = b[k], b[k + 1]
        return ([p for p in range(1, 25) if mine >> p & 1],
                sorted(self.their_pip(q) for q in range(1, 25) if theirs >> q & 1))

    # -- the 36-point board -------------------------------------------------------------------

    @property
    def wide(self) -> bool:
        """Whether the route is longer than the 24 slots of pips (36 points: XII scripta)."""
        return self.points > 24

    @property
    def mid(self) -> int:
        """The slot of pip 25 on a 36-point board (pips 25..36 follow it): after every other
        slot, so that the others keep their meaning."""
        return self.stack_slot + (2 if self.stacks else 0)

    @cached_property
    def slots(self) -> tuple[int, ...]:
        """`slots[p]`: the board slot of the mover's pip p, for p in 0..points (0: off)."""
        mid = self.mid
        return tuple(p if p <= 24 else mid + p - 25 for p in range(self.points + 1))

    def slot(self, p: int) -> int:
        """The board slot of the mover's pip p (1..points)."""
        return self.slots[p]

    @cached_property
    def route_slots(self) -> tuple[int, ...]:
        """The slots of the mover's pips from the first of his route (pip `points`) to pip 1."""
        return self.slots[:0:-1]

    @cached_property
    def pip_slots(self) -> tuple[int, ...]:
        """The slots of pips 1..points in order."""
        return self.slots[1:]

    @cached_property
    def codes(self) -> dict[int, int]:
        """A step's slot as plays are written: the pip of a slot (0 off), the bar as `points`
        + 1 and the unentered checkers as `points` + 2 on a 36-point board (where 25 and 29 are
        pips); the kernel's own numbers (bar 25, unentered 29) on every other board."""
        if not self.wide:
            return {**{p: p for p in range(26)}, POOL: POOL}
        out = {s: p for p, s in enumerate(self.slots)}
        out[BAR] = self.points + 1
        out[POOL] = self.points + 2
        return out

    def code(self, slot: int) -> int:
        return self.codes[slot]

    def slot_of_code(self, code: int) -> int:
        """The slot a written number names (`code`'s inverse)."""
        if not self.wide:
            return code
        if code == self.points + 1:
            return BAR
        if code == self.points + 2:
            return POOL
        return self.slots[code]

    def pips_of(self, b: Board) -> tuple[int, ...]:
        """The counts of pips 1..points in order (the mover's > 0, the opponent's < 0)."""
        if not self.wide:
            return tuple(b[1:self.points + 1])
        return tuple(b[s] for s in self.pip_slots)

    def state_slot(self, name: str, mine: bool = True) -> int:
        """The board slot of the mover's (or the opponent's) value of the state `name`."""
        i = next(k for k, (n, _v, _b) in enumerate(self.state) if n == name)
        return self.state_base + i + (0 if mine else len(self.state))

    def their_pip(self, p: int) -> int:
        return their_pip(self.route, p, self.points)

    @cached_property
    def flip(self) -> Callable[[Board], Board]:
        """The board seen from the other player, as one generated tuple expression."""
        if self == Geometry():
            return _flip28
        return _flipper(self)

    def map_pins(self, mask: int) -> int:
        """The pins mask seen from the other player (pip p goes to the route's mirror pip)."""
        if not mask:
            return 0
        if self.route == "shared":
            return mask
        if self.route == "scripta":
            # the outer rows mirrored, the shared middle row (pips 25..36) as it is
            outer = mask & 0x1FFFFFE
            return (_REV12[outer >> 13] << 1 | _REV12[outer >> 1 & 0xFFF] << 13) | \
                (mask & ~0x1FFFFFF)
        v = mask >> 1                       # bit i = pip i + 1
        if self.route == "same":
            v = ((v << 12) | (v >> 12)) & 0xFFFFFF
        else:
            v = (_REV12[v & 0xFFF] << 12) | _REV12[v >> 12]
        return v << 1

    def start_board(self, start: dict[int, int], unentered: int = 0,
                    other: dict[int, int] | None = None) -> Board:
        """Both players with the same start, each in his own pips, the mover first; `unentered`
        checkers of each side wait off the board. `other`: the second side's own layout where
        it differs from the mover's (`[board.black] start`); the second side's initial named
        state is `state_other`'s."""
        b = [0] * self.size
        slots = self.slots
        for pip, n in start.items():
            if not 1 <= pip <= self.points:
                raise ValueError(f"pip {pip} is not on a route of {self.points} points")
            b[slots[pip]] += n
        for pip, n in (start if other is None else other).items():
            if not 1 <= pip <= self.points:
                raise ValueError(f"pip {pip} is not on a route of {self.points} points")
            q = self.their_pip(pip)
            if n and b[slots[q]] > 0:
                raise ValueError(f"both sides would start on pip {q} of the first player")
            b[slots[q]] -= n
        if unentered:
            if not self.pool:
                raise ValueError("this layout has no unentered checkers")
            b[POOL] = b[OPP_POOL] = unentered
        base, n = self.state_base, len(self.state)
        other_state = self.state_other or tuple(initial for _n, initial, _f in self.state)
        for i, (_name, initial, _flag) in enumerate(self.state):
            b[base + i] = int(initial)
            b[base + n + i] = int(other_state[i])
        # (no pair stacked until `stacked_start` says which)
        return tuple(b)

    def stacked_start(self, board: Board, stacked: tuple[int, ...],
                      other: tuple[int, ...] | None = None) -> Board:
        """`board` (`start_board`'s) with each side's pairs on
        `stacked` (its own pips; `other`: the second side's where they differ) stacked; each
        such pip must hold two or more of that side's checkers."""
        mine = theirs = 0
        for p in stacked:
            if not (1 <= p <= self.points and board[p] >= 2):
                raise ValueError(f"a pair stacked on pip {p} needs two checkers there at the "
                                 f"start")
            mine |= 1 << p
        for q in (stacked if other is None else other):
            if not (1 <= q <= self.points and board[self.their_pip(q)] <= -2):
                raise ValueError(f"a pair stacked on the second side's pip {q} needs two of "
                                 f"his checkers there at the start")
            theirs |= 1 << q
        k = self.stack_slot
        return tuple(board[:k]) + (mine, theirs) + tuple(board[k + 2:])

    # -- reading the slots -------------------------------------------------------------------

    def pinned(self, b: Board) -> tuple[list[int], list[int]]:
        """(pips where a mover's checker is pinned, pips where an opponent's checker is)."""
        mine: list[int] = []
        theirs: list[int] = []
        if self.pins and b[PINS]:
            m = b[PINS]
            for p in PIPS:
                if m >> p & 1:
                    (mine if b[p] < 0 else theirs).append(p)
        return mine, theirs

    def counts(self, b: Board) -> tuple[int, int]:
        """Checkers of (mover, opponent) everywhere: points, pinned, bar, off, unentered."""
        mine = b[OFF] + b[BAR] + sum(x for x in b[1:25] if x > 0)
        theirs = b[OPP_OFF] + b[OPP_BAR] - sum(x for x in b[1:25] if x < 0)
        if self.pins:
            pm, pt = self.pinned(b)
            mine += len(pm)
            theirs += len(pt)
        if self.pool:
            mine += b[POOL]
            theirs += b[OPP_POOL]
        if self.wide:
            mid = self.mid
            mine += sum(x for x in b[mid:mid + 12] if x > 0)
            theirs -= sum(x for x in b[mid:mid + 12] if x < 0)
        return mine, theirs

    def sort_key(self, b: Board) -> tuple[int, ...]:
        """Points, bar, off, then the pins and the unentered checkers."""
        if self.wide:
            key = (*self.pips_of(b), b[BAR], b[OPP_BAR], b[OFF], b[OPP_OFF])
        else:
            key = (*b[1:25], b[BAR], b[OPP_BAR], b[OFF], b[OPP_OFF])
        if self.pins:
            pm, pt = self.pinned(b)
            key += (len(pm), *pm, len(pt), *pt)
        if self.pool:
            key += (b[POOL], b[OPP_POOL])
        if self.state or self.stacks:
            key += tuple(b[self.state_base:self.mid])
        return key

    # -- position JSON -------------------------------------------------------------------------

    def to_json(self, b: Board) -> dict[str, Any]:
        """The position JSON of a board: `pins` when any remain, `state.unentered` with a pool."""
        out: dict[str, Any] = to_json(b)
        if self.points != 24:
            out["points"] = list(self.pips_of(b))
        if self.pins:
            pm, pt = self.pinned(b)
            if pm or pt:
                out["pins"] = {"mine": pm, "theirs": pt}
        if self.pool:
            out["state"] = {"unentered": [b[POOL], b[OPP_POOL]]}
        if self.state:
            base, n = self.state_base, len(self.state)
            values = out.setdefault("state", {})
            for i, (name, _initial, flag) in enumerate(self.state):
                pair = [b[base + i], b[base + n + i]]
                values[name] = [bool(x) for x in pair] if flag else pair
        if self.stacks:
            mine, theirs = self.stacked(b)
            if mine or theirs:
                out.setdefault("state", {})["stacked"] = {"mine": mine, "theirs": theirs}
        return out

    def from_json(self, obj: Any, checkers: int | None = None) -> Board:
        """Read points, bar, off and, in the layouts that have them, pins and unentered checkers.

        Unentered checkers are implicit: what the total lacks of `checkers` on each side; a
        `state.unentered` pair, when given, must agree. Raises PositionError naming the fault."""
        middle: list[int] = []
        if self.points != 24 and isinstance(obj, dict):
            obj = _padded(obj, self.points)
            if self.wide:
                middle = obj["points"][24:]
                if not all(isinstance(x, int) and not isinstance(x, bool)
                           and -MAX_COUNT <= x <= MAX_COUNT for x in obj["points"]):
                    raise PositionError(f"'points' must be a list of {self.points} integers from "
                                        f"{-MAX_COUNT} to {MAX_COUNT}, not "
                                        f"{shown(obj['points'])}")
                obj = {**obj, "points": obj["points"][:24]}
        base = from_json(obj, None)
        if self.wide:
            # the middle row's twelve slots after all the others
            board = self._read_state(obj, self._from_json(obj, base, None)) if self.state \
                else self._from_json(obj, base, None)
            board = board + (0,) * (self.mid - len(board)) + tuple(middle)
            if checkers is not None:
                if self.pool:
                    board = self._unentered(obj, list(board), checkers)
                else:
                    _check_total(self.counts(board), checkers)
            return board
        if self.state:
            b = self._read_state(obj, self._from_json(obj, base, checkers))
        else:
            b = self._from_json(obj, base, checkers)
        if self.stacks:
            b = self._read_stacked(obj, b)
        else:
            stated = obj.get("state")
            if isinstance(stated, dict) and stated.get("stacked"):
                raise PositionError("this variant has no stacked pairs, but the position has "
                                    f"'state.stacked' {shown(stated['stacked'])}")
        return b

    def _read_stacked(self, obj: dict, b: Board) -> Board:
        """`b` with the two masks of `state.stacked` ({"mine": pips, "theirs": pips}, both in
        the mover's pips; absent: nothing stacked): each pip must hold two or more of that
        side's checkers."""
        L = list(b) + [0] * (self.size - len(b))
        stated = obj.get("state")
        pairs = stated.get("stacked") if isinstance(stated, dict) else None
        masks = [0, 0]
        if pairs is not None:
            if not (isinstance(pairs, dict) and set(pairs) <= {"mine", "theirs"}):
                raise PositionError(f"'state.stacked' must be an object with 'mine' and "
                                    f"'theirs' lists of pips, not {shown(pairs)}")
            for k, side in enumerate(("mine", "theirs")):
                pips = pairs.get(side, [])
                if not (isinstance(pips, list) and len(pips) <= self.points and all(
                        isinstance(p, int) and not isinstance(p, bool)
                        and 1 <= p <= self.points for p in pips)):
                    raise PositionError(f"'state.stacked.{side}' must be a list of pips "
                                        f"1..{self.points}, not {shown(pips)}")
                for p in pips:
                    own = p if k == 0 else self.their_pip(p)
                    if masks[k] >> own & 1:
                        raise PositionError(f"pip {p} is listed twice in 'state.stacked.{side}'")
                    held = L[p] if k == 0 else -L[p]
                    if held < 2:
                        who = "the mover's" if k == 0 else "the opponent's"
                        raise PositionError(f"a pair of {who} stacked on pip {p} needs two of "
                                            f"his checkers there, but 'points' has {L[p]}")
                    masks[k] |= 1 << own
        k = self.stack_slot
        L[k], L[k + 1] = masks
        return tuple(L)

    def _read_state(self, obj: dict, b: Board) -> Board:
        """`b` with the named state of `state.NAME` ([mover, opponent]; absent: the initial
        values), checked against each name's kind."""
        L = list(b) + [0] * (self.size - len(b))
        stated = obj.get("state")
        stated = stated if isinstance(stated, dict) else {}
        base, n = self.state_base, len(self.state)
        for i, (name, initial, flag) in enumerate(self.state):
            pair = stated.get(name)
            if pair is None:
                other = self.state_other[i] if self.state_other else initial
                pair = [bool(initial), bool(other)] if flag else [initial, other]
            kind = bool if flag else int
            if not (isinstance(pair, list) and len(pair) == 2 and all(
                    type(x) is kind and (flag or STATE_MIN <= x <= STATE_MAX) for x in pair)):
                what = "true or false" if flag else f"integers from {STATE_MIN} to {STATE_MAX}"
                raise PositionError(f"'state.{name}' must be two values (the mover's, the "
                                    f"opponent's), {what}, not {shown(pair)}")
            L[base + i], L[base + n + i] = int(pair[0]), int(pair[1])
        return tuple(L)

    def _from_json(self, obj: dict, base: Board, checkers: int | None) -> Board:
        if not (self.pins or self.pool):
            _no_pins(obj)
            if checkers is not None:
                _check_total(counts(base), checkers)
            if self.stacks and not self.state:
                return base + (0,) * (self.state_base - SIZE)
            return base
        L = list(base) + [0] * (self.state_base - SIZE)
        if self.pins:
            L[PINS] = self._read_pins(obj, L)
        else:
            _no_pins(obj)
        if self.pool:
            if checkers is None:
                if self.wide:
                    return tuple(L)         # counted once the middle row is read
                raise PositionError("the number of checkers is needed to count unentered ones")
            return self._unentered(obj, L, checkers)
        elif checkers is not None:
            _check_total(self.counts(tuple(L)), checkers)
        return tuple(L)

    def _unentered(self, obj: dict, L: list[int], checkers: int) -> Board:
        """`L` with the unentered checkers of each side: what the total lacks of `checkers`."""
        mine, theirs = self.counts(tuple(L))
        if mine > checkers or theirs > checkers:
            raise PositionError(
                f"each side has {checkers} checkers; this position has {mine} for the mover "
                f"and {theirs} for the opponent outside the unentered ones")
        L[POOL], L[OPP_POOL] = checkers - mine, checkers - theirs
        state = obj.get("state")
        stated = state.get("unentered") if isinstance(state, dict) else None
        if stated is not None:
            if not (isinstance(stated, list) and len(stated) == 2 and all(
                    isinstance(x, int) and not isinstance(x, bool) and x >= 0
                    for x in stated)):
                raise PositionError(f"'state.unentered' must be two non-negative "
                                    f"integers, not {shown(stated)}")
            if stated != [L[POOL], L[OPP_POOL]]:
                raise PositionError(
                    f"'state.unentered' says {shown(stated)} but the checkers on the board, "
                    f"on the bar and off leave {[L[POOL], L[OPP_POOL]]!r} unentered")
        return tuple(L)

    def _read_pins(self, obj: dict, L: list[int]) -> int:
        pins = obj.get("pins")
        if pins is None:
            return 0
        if not (isinstance(pins, dict) and set(pins) <= {"mine", "theirs"}):
            raise PositionError(f"'pins' must be an object with 'mine' and 'theirs' lists of "
                                f"pips, not {shown(pins)}")
        mask = 0
        for side in ("mine", "theirs"):
            pips = pins.get(side, [])
            if not (isinstance(pips, list) and all(
                    isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 24
                    for p in pips)):
                raise PositionError(f"'pins.{side}' must be a list of pips 1..24, not "
                                    f"{shown(pips)}")
            for p in pips:
                if mask >> p & 1:
                    raise PositionError(f"pip {p} is listed twice in 'pins'")
                # the pinned checker lies under the other side's checkers
                if side == "mine" and L[p] >= 0:
                    raise PositionError(f"a mover's checker pinned on pip {p} needs opposing "
                                        f"checkers on it, but 'points' has {L[p]}")
                if side == "theirs" and L[p] <= 0:
                    raise PositionError(f"an opposing checker pinned on pip {p} needs the "
                                        f"mover's checkers on it, but 'points' has {L[p]}")
                mask |= 1 << p
        return mask


def _padded(obj: dict, points: int) -> dict:
    """A position of a route of `points` points read as a 24-point one (the pips above the
    route empty; a 36-point route keeps its 36): its `points` must have exactly that many
    entries."""
    pts = obj.get("points")
    if not (isinstance(pts, list) and len(pts) == points):
        raise PositionError(f"'points' must be a list of {points} integers (this board has "
                            f"{points} points), not {shown(pts)}")
    return {**obj, "points": pts + [0] * (24 - points)}


def _no_pins(obj: dict) -> None:
    pins = obj.get("pins")
    if pins and isinstance(pins, dict) and any(pins.get(k) for k in ("mine", "theirs")):
        raise PositionError(f"this variant has no pinned checkers, but the position has 'pins' "
                            f"{shown(pins)}")


def _check_total(have: tuple[int, int], checkers: int) -> None:
    mine, theirs = have
    if (mine, theirs) != (checkers, checkers):
        raise PositionError(
            f"each side must have {checkers} checkers on the board, on the bar and off; "
            f"this position has {mine} for the mover and {theirs} for the opponent")


def _flipper(layout: Geometry) -> Callable[[Board], Board]:
    """`flip` for a layout, generated as one tuple expression (only integers reach the source)."""
    parts = ["b[27]"] + [f"-b[{their_pip(layout.route, k, layout.points)}]" for k in PIPS] + [
        "b[26]", "b[25]", "b[0]"]
    if layout.pins or layout.pool:
        parts.append("mp(b[28])")
    if layout.pool:
        parts += ["b[30]", "b[29]"]
    if layout.state:
        base, n = layout.state_base, len(layout.state)
        if base > len(parts):
            parts += ["0"] * (base - len(parts))
        parts += [f"b[{base + n + i}]" for i in range(n)] + [f"b[{base + i}]" for i in range(n)]
    if layout.stacks:
        k = layout.stack_slot
        if k > len(parts):
            parts += ["0"] * (k - len(parts))
        parts += [f"b[{k + 1}]", f"b[{k}]"]
    if layout.wide:
        # the shared middle row: the same pips for both, the colours swapped
        mid = layout.mid
        if mid > len(parts):
            parts += ["0"] * (mid - len(parts))
        parts += [f"-b[{mid + i}]" for i in range(12)]
    src = "def flip(b):\n    return (" + ", ".join(parts) + ")\n"
    ns: dict[str, Any] = {"mp": layout.map_pins}
    exec(compile(src, f"<tablier flip {layout.route}>", "exec"), ns)  # noqa: S102 - integers only
    return ns["flip"]


#: opposite-route flips of the longer boards, by length
_LONG: dict[int, Callable[[Board], Board]] = {
    29: _flipper(Geometry(pins=True)), 31: _flipper(Geometry(pool=True))}


def counts(b: Board) -> tuple[int, int]:
    """Checkers of (mover, opponent) on the board, on the bar and off (28-slot boards)."""
    mine = b[OFF] + b[BAR] + sum(x for x in b[1:25] if x > 0)
    theirs = b[OPP_OFF] + b[OPP_BAR] - sum(x for x in b[1:25] if x < 0)
    return mine, theirs


def from_json(obj: Any, checkers: int | None = None) -> Board:
    """Read the points/bar/off part of a position JSON object (INTERFACES.md).

    Raises PositionError naming the fault. With `checkers`, both sides must total that many.
    """
    if not isinstance(obj, dict):
        raise PositionError(f"a position must be a JSON object, not {shown(obj)}")
    points = obj.get("points")
    bar = obj.get("bar", [0, 0])
    off = obj.get("off", [0, 0])
    # counts are range-checked before any arithmetic: a position comes from a stranger
    if not (isinstance(points, list) and len(points) == 24
            and all(isinstance(x, int) and not isinstance(x, bool) and -MAX_COUNT <= x <= MAX_COUNT
                    for x in points)):
        raise PositionError(f"'points' must be a list of 24 integers from {-MAX_COUNT} to "
                            f"{MAX_COUNT}, not {shown(points)}")
    for name, pair in (("bar", bar), ("off", off)):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_COUNT
                        for x in pair)):
            raise PositionError(f"'{name}' must be two integers from 0 to {MAX_COUNT}, not "
                                f"{shown(pair)}")
    b = (off[0], *points, bar[0], bar[1], off[1])
    if checkers is not None:
        _check_total(counts(b), checkers)
    return b


def to_json(b: Board) -> dict[str, list[int]]:
    return {"points": list(b[1:25]), "bar": [b[BAR], b[OPP_BAR]], "off": [b[OFF], b[OPP_OFF]]}


def sort_key(b: Board) -> tuple[int, ...]:
    """The order of INTERFACES.md: points, then bar, then off."""
    return (*b[1:25], b[BAR], b[OPP_BAR], b[OFF], b[OPP_OFF])
