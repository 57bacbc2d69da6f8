"""A self-contained reference for the thirteen tables games of the third tables-family part:
the Alfonsine games (Quinze tablas, Doze canes, Seys dos e as, Cab e quinal, Todas tablas,
Medio emperador, Pareia de entrada, Fallas, Laquet, Doblet, Buffa de baldrac), the Roman XII
scripta and Verquere.

It computes every distinct legal result of a throw (or of a passed-number stage), the end of the
game a play brings, and the numbers it passes to the opponent, written straight from the rules on
plain ints and tuples, so that the variant files can be checked against it on random positions.
It imports nothing from the interpreter.

Public API
----------
- ``GAMES``: the game ids.
- ``Pos``: a position seen by the player on roll (the *mover*), in the mover's pips 1..N
  (N = 12, 18, 24 or 36). ``w[p]`` / ``b[p]`` are the mover's / the opponent's men standing on
  the mover's pip p (index 0 unused); ``w_bar``/``b_bar`` hit men waiting to re-enter, ``w_off``/
  ``b_off`` men borne off, ``w_wait``/``b_wait`` men never entered; ``goal`` (Doze canes, in the
  mover's pips), ``fixed_die`` (Cab e quinal's fixed third die), ``starts`` (Cab e quinal: the
  mover's and the opponent's start points in the mover's pips), ``stacked`` (Doblet: a pair of
  frozensets, the mover's stacked pips and the opponent's stacked pips, **both in the mover's
  pips**), ``passed`` (numbers the mover may play in a passed stage).
- ``Pos.of(game, w, b, **kw)``, ``pos.w_dict()``, ``pos.b_dict()``.
- ``turn(game, pos)``, ``start(game, side, **options)``, ``results(game, pos, dice, **options)``,
  ``next_position(game, result)``, ``draw_by_block(game, pos, **options)``,
  ``has_single_move(game, pos, d, **options)``, ``canonical(game, pos, **options)``,
  ``limit_violations(game, pos, **options)``, ``from_json(game, obj)``, ``to_json(game, pos)``,
  ``result_to_json(game, result)``, ``throw_dice(game, rng, **options)``.

``Result.next`` is "end" (the other side throws), "again" (Pareia de entrada: the mover throws
again), "passed" (``Result.passed`` goes to the opponent's passed stage) or "throw" (a result of
a passed stage: the same player now throws his own dice). ``game_over`` is None or
(winner, points) with winner "mover" | "opponent" | "draw" (a draw is worth 0 points).

Readings chosen where the rules leave room
------------------------------------------
Common
- The procedure is the rules' §1.3 on single moves: every order of the numbers, every single
  move is one number, every resting point is a legal landing (a hit on a resting point is a
  hit). Plays using the most numbers are kept; with exactly two different numbers of which at
  most one can be played, the higher when any play uses it. A single move that wins the game
  (last man off, Doze canes goal, Fallas hit man with nowhere to go) ends the sequence and counts
  as using every number; sequences using all the numbers without winning stay legal.
- Bearing off "as §1.3": all men not borne off on pips 1..6, none on the bar or unentered; a
  number d bears off from pip d, or from the highest occupied pip when that pip is below d.
- The ``doublets`` option applies to every game played with two dice (Doze canes, Todas tablas,
  Laquet, Medio emperador and Pareia de entrada with two dice); Verquere always plays a doublet
  four times. Every option key is accepted by every game and ignored where it does not apply;
  an unknown key or value raises ValueError. ``opening_roll`` never changes a result.
- Passed numbers are written in descending order.
- Where a game sends a hit man off the board with no order imposed on entering and the game's
  men also enter from off the board (Doze canes with ``dc_enter_first = "no"``, Pareia de
  entrada with ``pe_enter_first = "no"``), the hit man simply rejoins the unentered men (DC3:
  "B then has 6 unentered"); ``results`` first folds any bar count of such a position into the
  unentered count (``canonical``). Everywhere else hit men off the board are counted in the bar,
  and where hit men must enter first (or Buffa de baldrac's entering stage) entries take the bar
  men first.
- Men taken out of the game (``qt_hit = "removed"``, ``db_hit = "removed"``) are counted in
  ``off``: their owner wins when every man is off or removed, which is the rule's "all his
  remaining men are off". A hit that removes the owner's last man on the board while all the
  others are off gives the owner the game (the rule read literally).
Quinze tablas
- Exact bearing off at any time, even with a man waiting to re-enter (no order, QT-A3); the
  two-men limit holds on entry points too; ``qt_bear_off = "home"`` is §1.3's bearing off.
Doze canes
- No bearing off; the goal is tested after every single move (or only on the final position of
  the play with ``dc_win_check = "end_of_play"``). ``start(..., goal=(lo, hi))`` takes the goal in
  the pips of side 0 (colour 1); without it the position has no goal and nobody can win.
Seys dos e as
- Colour 1 (side 0) has 8/4/3 on pips 18, 14, 13. Hit men re-enter from pip 18 downwards with
  no order imposed. ``sd_hit = "second_quarter"``: placed on pip 12, off the board when the hitter
  has a man there. ``sd_bear_off = "any_time"``: any man by any number at least its distance.
Cab e quinal
- Colour 1 (side 0) is the pip-19 side. A hit man goes to its owner's start
  (``pos.starts[1]``) unless the hitter has a man there after the hitting move, when it goes to
  the bar; bar men enter with no order imposed. With ``cq_third_die = "fixed"`` the dice hold the
  two thrown numbers and the third is ``pos.fixed_die`` (three numbers: no higher-number rule).
Todas tablas
- A doublet is two moves (AX-A2). A hit man is placed on the first of the mover's pips 1..6
  (or 6..1 with ``tt_hit_order = "from_far_end"``) free of the mover's men after the hitting
  move; with all six held it goes to the bar and must enter before its owner moves anything else.
  ``tt_hit = "enter"``: always the bar, entering first.
Medio emperador
- Only ``me_board = 12`` is supported (24 raises ValueError). A hit man goes to the mover's pip 1
  unless the mover then has a man there (then to the bar); bar men enter first (pip 13 − d), with
  ``me_hit = "enter"`` too. The draw is tested on every play that does not win: neither side has a
  single move with any number 1..6 (the empty play included); it is worth 0 points.
Pareia de entrada
- "again" when all the dice show one number (``pe_again = "any_pair"``: two of the three) and,
  with ``pe_again_needs_full = "yes"``, every number of the throw was played. A win ends the game
  instead.
Fallas
- The hit man is placed on the first of the mover's pips 7..12 (12..7 from the far end) free of
  the mover's men after the hitting move; none free: the mover wins at once (the final position
  counts that man on the bar, so that men are conserved). A throw with no
  single move loses (the unchanged position, game_over ("opponent", 1));
  ``fa_loss = "any_unplayable"``: a throw whose best play leaves a number unplayed loses the same
  way (the unchanged position is the single result).
Laquet
- Colour 1 (side 0) has fourteen on pip 24 and one on pip 1. The numbers left unplayed by the
  play pass. Passed stage (``lq_passed = "before_throw"``): every position reached by playing any
  subset of the numbers in any order, one single move each, the unchanged one included, next
  "throw". ``"instead_of_throw"``: the passed numbers are played under §1.3's obligations as a
  throw of their own, next "end", nothing passes back. ``"lost"``: nothing passes (a position with
  passed numbers is then refused).
Doblet
- Stage 1 while the mover has a stacked pair when the throw begins (``db_stage_switch =
  "per_move"``: tested before each single move). Stage 2 race as Quinze tablas (two men a point,
  exact bearing off at any time, hit men re-enter with no order imposed). Unplayed numbers pass
  when the throw was played in stage 1 (per move: when a pair is still stacked at the end), or
  when at the end of the play every man of the mover not borne off stands on pips 1..6 with none
  on the bar; otherwise they are lost. In a passed stage the opponent may unstack (stage 1) or
  bear off by the exact number (stage 2: a man on pip k by k, any time), never move along the
  route (with ``db_stage_switch = "per_move"`` the stage is tested before each passed number).
  ``db_after_unstack = "bear_off_in_place"``: in stage 2 a number n bears off one man from
  pip 25 − n (the n-th point of the route, where the pairs stood); every unplayed number passes.
XII scripta
- Hit men (bar) re-enter before anything else moves; unentered men never brought in impose no
  order. Bearing off once all fifteen are entered and on pips 1..12, exact (``"higher"``: §1.3's
  rule with the home row 1..12).
Buffa de baldrac
- While any man is off the board (unentered or hit) the only single moves are entries (bar
  first); entries hit. Bearing off by the exact number once all are on pips 1..6.
Verquere
- The mover may never land on (nor rest on) his pips 13..23 when a man of his stands there (pip
  24 excepted); ``vq_first_half = "empty_only"``: no landing on any man there. Bar men enter first
  on pip 25 − d.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

GAMES: tuple[str, ...] = (
    "quinze-tablas", "doze-canes", "seys-dos-e-as", "cab-e-quinal", "todas-tablas",
    "medio-emperador", "pareia-de-entrada", "fallas", "laquet", "doblet", "xii-scripta",
    "buffa-de-baldrac", "verquere")

#: points of each game's route
SIZE = {g: 24 for g in GAMES}
SIZE.update({"seys-dos-e-as": 18, "medio-emperador": 12, "xii-scripta": 36})
#: men per side
MEN = {g: 15 for g in GAMES}
MEN.update({"doze-canes": 12, "doblet": 12})
#: games whose men start off the board
ENTERING = frozenset({"doze-canes", "pareia-de-entrada", "xii-scripta", "buffa-de-baldrac"})
#: dice per throw before options
DICE = {g: 3 for g in GAMES}
DICE.update({"doze-canes": 2, "todas-tablas": 2, "laquet": 2, "verquere": 2})
#: the five geometries of §1.2
GEOMETRY = {
    "quinze-tablas": "opposite", "doze-canes": "opposite", "todas-tablas": "opposite",
    "fallas": "opposite", "doblet": "opposite", "buffa-de-baldrac": "opposite",
    "medio-emperador": "half", "seys-dos-e-as": "shared", "cab-e-quinal": "shared",
    "pareia-de-entrada": "shared", "laquet": "shared", "verquere": "corners",
    "xii-scripta": "scripta"}

#: §16 option keys, their values, the DEFAULT first
OPTIONS: dict[str, tuple[Any, ...]] = {
    "doublets": ("once", "twice"),
    "opening_roll": ("winner_throws_two", "one_die_each"),
    "qt_bear_off": ("exact_any_time", "home"),
    "qt_hit": ("reenter", "removed"),
    "qt_enter_first": ("no", "yes"),
    "dc_win_check": ("each_move", "end_of_play"),
    "dc_enter_first": ("no", "yes"),
    "sd_hit": ("reenter", "second_quarter"),
    "sd_bear_off": ("home", "any_time"),
    "cq_hit": ("start_point", "enter"),
    "cq_third_die": ("thrown", "fixed"),
    "tt_hit": ("placed", "enter"),
    "tt_hit_order": ("from_start", "from_far_end"),
    "me_dice": (3, 2),
    "me_board": (12, 24),
    "me_hit": ("start_point", "enter"),
    "pe_dice": (3, 2),
    "pe_again": ("all_equal", "any_pair"),
    "pe_again_needs_full": ("yes", "no"),
    "pe_enter_first": ("no", "yes"),
    "fa_hit_order": ("from_start", "from_far_end"),
    "fa_loss": ("no_move", "any_unplayable"),
    "fa_bear_off": ("home", "any_time"),
    "lq_passed": ("before_throw", "instead_of_throw", "lost"),
    "lq_bear_off": ("home", "any_time"),
    "db_stage_switch": ("per_throw", "per_move"),
    "db_after_unstack": ("race", "bear_off_in_place"),
    "db_passed": ("may", "lost"),
    "db_hit": ("reenter", "removed"),
    "xs_bear_off": ("exact", "higher"),
    "vq_first_half": ("own_single", "empty_only"),
    "vq_bear_off": ("exact", "higher"),
}

_EMPTY: frozenset[int] = frozenset()


def _game(game: str) -> str:
    if game not in SIZE:
        raise ValueError(f"unknown game {game!r} (one of {', '.join(GAMES)})")
    return game


def options_of(options: Mapping[str, Any]) -> dict[str, Any]:
    """The full option set: defaults overridden by `options`; ValueError on an unknown key or
    value (integer options also accept their decimal strings)."""
    out = {k: v[0] for k, v in OPTIONS.items()}
    for key, value in options.items():
        if key not in OPTIONS:
            raise ValueError(f"unknown option {key!r}")
        allowed = OPTIONS[key]
        if isinstance(allowed[0], int) and isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, bool) or value not in allowed:
            raise ValueError(f"option {key}: {value!r} is not one of {list(allowed)}")
        out[key] = value
    if out["me_board"] != 12:
        raise ValueError("me_board = 24 is not supported by this reference (12 only)")
    return out


def mirror(game: str, p: int) -> int:
    """The mover's pip of the point that is the opponent's pip p (an involution)."""
    geo = GEOMETRY[game]
    if geo == "opposite":
        return 25 - p
    if geo == "half":
        return 13 - p
    if geo == "shared":
        return p
    if geo == "corners":
        return p + 12 if p <= 12 else p - 12
    return p if p >= 25 else 25 - p                      # scripta


# ---------------------------------------------------------------------------------------------
# positions

@dataclass(frozen=True)
class Pos:
    """A position seen by the mover; see the module docstring."""
    w: tuple[int, ...]
    b: tuple[int, ...]
    w_bar: int = 0
    b_bar: int = 0
    w_off: int = 0
    b_off: int = 0
    w_wait: int = 0
    b_wait: int = 0
    goal: tuple[int, int] | None = None
    fixed_die: int | None = None
    starts: tuple[int, int] | None = None
    stacked: tuple[frozenset[int], frozenset[int]] = (_EMPTY, _EMPTY)
    passed: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.w) - 1

    @classmethod
    def of(cls, game: str, w: Mapping[int, int], b: Mapping[int, int], **kw: Any) -> Pos:
        """Build from `{pip: count}` dicts in the mover's pips. Keywords: the other fields
        (`stacked` as a pair of iterables). The count a position leaves implicit is filled in:
        unentered men in the games entered from off the board, men borne off in the others."""
        game = _game(game)
        n, men = SIZE[game], MEN[game]
        wl, bl = [0] * (n + 1), [0] * (n + 1)
        for src, dst in ((w, wl), (b, bl)):
            for p, k in src.items():
                if not 1 <= p <= n:
                    raise ValueError(f"pip {p} outside 1..{n}")
                dst[p] += k
        unknown = set(kw) - {"w_bar", "b_bar", "w_off", "b_off", "w_wait", "b_wait", "goal",
                             "fixed_die", "starts", "stacked", "passed"}
        if unknown:
            raise ValueError(f"unknown Pos fields {sorted(unknown)}")
        counts: dict[str, int] = {}
        for side, pts in (("w", wl), ("b", bl)):
            bar = int(kw.get(f"{side}_bar", 0))
            on = sum(pts)
            off_k, wait_k = f"{side}_off", f"{side}_wait"
            if game in ENTERING and wait_k not in kw:
                off = int(kw.get(off_k, 0))
                wait = men - on - bar - off
            elif off_k not in kw:
                wait = int(kw.get(wait_k, 0))
                off = men - on - bar - wait
            else:
                off, wait = int(kw[off_k]), int(kw.get(wait_k, 0))
            counts.update({f"{side}_bar": bar, off_k: off, wait_k: wait})
        goal = kw.get("goal")
        starts = kw.get("starts")
        if starts is None and game == "cab-e-quinal":
            starts = (19, 20)
        stacked = kw.get("stacked", (_EMPTY, _EMPTY))
        pos = cls(tuple(wl), tuple(bl), goal=tuple(goal) if goal is not None else None,
                  fixed_die=kw.get("fixed_die"),
                  starts=tuple(starts) if starts is not None else None,
                  stacked=(frozenset(stacked[0]), frozenset(stacked[1])),
                  passed=tuple(kw.get("passed", ())), **counts)
        check(game, pos)
        return pos

    def w_dict(self) -> dict[int, int]:
        return {p: k for p, k in enumerate(self.w) if k}

    def b_dict(self) -> dict[int, int]:
        return {p: k for p, k in enumerate(self.b) if k}


def check(game: str, pos: Pos) -> None:
    """ValueError unless `pos` is a well-formed position of `game`."""
    game = _game(game)
    n, men = SIZE[game], MEN[game]
    if len(pos.w) != n + 1 or len(pos.b) != n + 1:
        raise ValueError(f"{game}: points must have {n} entries")
    if pos.w[0] or pos.b[0]:
        raise ValueError("index 0 of w and b is unused and must be 0")
    for side, pts, bar, off, wait in (("mover", pos.w, pos.w_bar, pos.w_off, pos.w_wait),
                                      ("opponent", pos.b, pos.b_bar, pos.b_off, pos.b_wait)):
        if min(pts) < 0 or min(bar, off, wait) < 0:
            raise ValueError(f"{side}: negative count")
        total = sum(pts) + bar + off + wait
        if total != men:
            raise ValueError(f"{side}: {total} men, {game} has {men}")
    for p in range(1, n + 1):
        if pos.w[p] and pos.b[p]:
            raise ValueError(f"pip {p} holds men of both sides")
    if pos.goal is not None:
        lo, hi = pos.goal
        if game != "doze-canes" or hi != lo + 5 or lo not in (1, 7, 13, 19):
            raise ValueError(f"bad goal {pos.goal!r}")
    if pos.fixed_die is not None and (game != "cab-e-quinal" or not 1 <= pos.fixed_die <= 6):
        raise ValueError(f"bad fixed_die {pos.fixed_die!r}")
    if pos.starts is not None:
        if game != "cab-e-quinal" or sorted(pos.starts) != [19, 20]:
            raise ValueError(f"bad starts {pos.starts!r}")
    mine, theirs = pos.stacked
    if mine or theirs:
        if game != "doblet":
            raise ValueError("stacked pairs exist only in doblet")
        for p in mine:
            if not 19 <= p <= 24 or pos.w[p] != 2:
                raise ValueError(f"mover's stacked pair on pip {p}: not two men on 19..24")
        for p in theirs:
            if not 1 <= p <= 6 or pos.b[p] != 2:
                raise ValueError(f"opponent's stacked pair on pip {p}: not two men on 1..6")
    for d in pos.passed:
        if not 1 <= d <= 6:
            raise ValueError(f"bad passed number {d!r}")
    if pos.passed and game not in ("laquet", "doblet"):
        raise ValueError(f"{game} has no passed numbers")


def turn(game: str, pos: Pos) -> Pos:
    """The board seen by the other player (the passed numbers stay)."""
    game = _game(game)
    n = SIZE[game]
    m = [0] + [mirror(game, q) for q in range(1, n + 1)]
    w = (0,) + tuple(pos.b[m[q]] for q in range(1, n + 1))
    b = (0,) + tuple(pos.w[m[q]] for q in range(1, n + 1))
    goal = None
    if pos.goal is not None:
        a, c = mirror(game, pos.goal[0]), mirror(game, pos.goal[1])
        goal = (min(a, c), max(a, c))
    starts = None if pos.starts is None else (pos.starts[1], pos.starts[0])
    mine, theirs = pos.stacked
    stacked = (frozenset(mirror(game, p) for p in theirs), frozenset(mirror(game, p) for p in mine))
    return Pos(w, b, pos.b_bar, pos.w_bar, pos.b_off, pos.w_off, pos.b_wait, pos.w_wait,
               goal, pos.fixed_die, starts, stacked, pos.passed)


def start(game: str, side: int = 0, goal: tuple[int, int] | None = None,
          fixed_die: int | None = None, **options: Any) -> Pos:
    """The opening position seen by `side` (0 = colour 1, 1 = the other side). `goal` (Doze
    canes) is given in side 0's pips; `fixed_die` (Cab e quinal with cq_third_die = "fixed")."""
    game = _game(game)
    opts = options_of(options)
    if side not in (0, 1):
        raise ValueError("side is 0 or 1")
    kw: dict[str, Any] = {}
    if game == "quinze-tablas":
        w = {p: 2 for p in range(18, 25)} | {17: 1}
        b = {p: 2 for p in range(1, 8)} | {8: 1}
    elif game in ENTERING:
        w, b = {}, {}
        if game == "doze-canes" and goal is not None:
            kw["goal"] = goal
    elif game == "seys-dos-e-as":
        w, b = {18: 8, 14: 4, 13: 3}, {17: 5, 16: 5, 15: 5}
    elif game == "cab-e-quinal":
        if opts["cq_third_die"] == "fixed":
            if fixed_die is None:
                raise ValueError("cq_third_die = fixed needs fixed_die")
            w, b = {19: 14, 6: 1}, {20: 14, 21: 1}
            kw["fixed_die"] = fixed_die
        else:
            w, b = {19: 15}, {20: 15}
        kw["starts"] = (19, 20)
    elif game == "todas-tablas":
        w, b = {24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}
    elif game == "medio-emperador":
        w, b = {12: 15}, {1: 15}
    elif game == "fallas":
        w, b = {18: 13, 13: 2}, {7: 13, 12: 2}
    elif game == "laquet":
        w, b = {24: 14, 1: 1}, {23: 3, 22: 3, 21: 3, 20: 3, 19: 2, 12: 1}
    elif game == "doblet":
        w = {p: 2 for p in range(19, 25)}
        b = {p: 2 for p in range(1, 7)}
        kw["stacked"] = (range(19, 25), range(1, 7))
    elif game == "verquere":
        w, b = {24: 15}, {12: 15}
    else:                                   # pragma: no cover - every game is listed above
        raise ValueError(game)
    pos = Pos.of(game, w, b, **kw)
    return turn(game, pos) if side == 1 else pos


# ---------------------------------------------------------------------------------------------
# the rules of one throw

# internal state: (w, b, w_bar, b_bar, w_off, b_off, w_wait, b_wait, mine_stacked, their_stacked)
State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int, int, int,
              frozenset[int], frozenset[int]]


def _state(pos: Pos) -> State:
    return (pos.w, pos.b, pos.w_bar, pos.b_bar, pos.w_off, pos.b_off, pos.w_wait, pos.b_wait,
            pos.stacked[0], pos.stacked[1])


def _pos(st: State, like: Pos) -> Pos:
    return Pos(st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], like.goal, like.fixed_die,
               like.starts, (st[8], st[9]), ())


@dataclass
class _Rules:
    """A game's rules with its options resolved, for one position's throw."""
    game: str
    n: int
    men: int
    ndice: int
    doublet_moves: int            # moves a doublet gives (2 or 4; three dice: n/a)
    close_any: bool = False       # Laquet: any opposing man closes
    limit2: bool = False          # two men of a side a point
    vq: bool = False              # one man a point on 13..23
    vq_empty_only: bool = False
    hit: str = "bar"              # bar | wait | removed | start | quarter
    hit_pip: int = 0              # for "start"
    quarter: tuple[int, ...] = ()
    quarter_full: str = "bar"     # bar | win
    bar_first: bool = False
    entering_stage: bool = False
    bear: str = "home_std"        # none | exact_any | home_std | home_exact | any_higher
    home: int = 6
    goal: tuple[int, int] | None = None
    goal_each_move: bool = True
    doblet: bool = False
    per_throw: bool = True
    in_place: bool = False
    stage1_throw: bool = False
    opts: dict[str, Any] = field(default_factory=dict)


def _rules(game: str, opts: dict[str, Any], pos: Pos) -> _Rules:
    n, men = SIZE[game], MEN[game]
    ndice = DICE[game]
    if game == "medio-emperador":
        ndice = opts["me_dice"]
    if game == "pareia-de-entrada":
        ndice = opts["pe_dice"]
    dm = 4 if (game == "verquere" or opts["doublets"] == "twice") else 2
    r = _Rules(game, n, men, ndice, dm, opts=opts)
    if game == "quinze-tablas":
        r.limit2 = True
        r.hit = "removed" if opts["qt_hit"] == "removed" else "bar"
        r.bar_first = opts["qt_enter_first"] == "yes"
        r.bear = "exact_any" if opts["qt_bear_off"] == "exact_any_time" else "home_std"
    elif game == "doze-canes":
        r.bear = "none"
        r.bar_first = opts["dc_enter_first"] == "yes"
        r.hit = "bar" if r.bar_first else "wait"
        r.goal = pos.goal
        r.goal_each_move = opts["dc_win_check"] == "each_move"
    elif game == "seys-dos-e-as":
        if opts["sd_hit"] == "second_quarter":
            r.hit, r.hit_pip = "start", 12
        r.bear = "any_higher" if opts["sd_bear_off"] == "any_time" else "home_std"
    elif game == "cab-e-quinal":
        if opts["cq_hit"] == "start_point":
            r.hit, r.hit_pip = "start", (pos.starts or (19, 20))[1]
    elif game == "todas-tablas":
        if opts["tt_hit"] == "placed":
            r.hit = "quarter"
            r.quarter = (1, 2, 3, 4, 5, 6) if opts["tt_hit_order"] == "from_start" \
                else (6, 5, 4, 3, 2, 1)
        r.bar_first = True
    elif game == "medio-emperador":
        if opts["me_hit"] == "start_point":
            r.hit, r.hit_pip = "start", 1
        r.bar_first = True
    elif game == "pareia-de-entrada":
        r.bar_first = opts["pe_enter_first"] == "yes"
        r.hit = "bar" if r.bar_first else "wait"
    elif game == "fallas":
        r.hit, r.quarter_full = "quarter", "win"
        r.quarter = (7, 8, 9, 10, 11, 12) if opts["fa_hit_order"] == "from_start" \
            else (12, 11, 10, 9, 8, 7)
        r.bear = "any_higher" if opts["fa_bear_off"] == "any_time" else "home_std"
    elif game == "laquet":
        r.close_any = True
        r.bear = "any_higher" if opts["lq_bear_off"] == "any_time" else "home_std"
    elif game == "doblet":
        r.doblet = True
        r.limit2 = True
        r.hit = "removed" if opts["db_hit"] == "removed" else "bar"
        r.bear = "exact_any"
        r.per_throw = opts["db_stage_switch"] == "per_throw"
        r.in_place = opts["db_after_unstack"] == "bear_off_in_place"
        r.stage1_throw = bool(pos.stacked[0])
    elif game == "xii-scripta":
        r.bar_first = True
        r.home = 12
        r.bear = "home_exact" if opts["xs_bear_off"] == "exact" else "home_std"
    elif game == "buffa-de-baldrac":
        r.entering_stage = True
        r.bar_first = True
        r.bear = "home_exact"
    elif game == "verquere":
        r.vq = True
        r.vq_empty_only = opts["vq_first_half"] == "empty_only"
        r.bar_first = True
        r.bear = "home_exact" if opts["vq_bear_off"] == "exact" else "home_std"
    return r


def _goal_reached(r: _Rules, w: tuple[int, ...]) -> bool:
    if r.goal is None:
        return False
    lo, hi = r.goal
    return all(w[p] >= 2 for p in range(lo, hi + 1))


def _land(r: _Rules, st: State, w: list[int], t: int,
          src: str) -> tuple[State, str | None] | None:
    """The moving man (already taken from its source: a pip of `w`, or `src` = "bar"/"wait")
    lands on pip t; None when t is not a legal landing. Returns (state, flag), flag "win" when
    the move wins for the mover, "loss" when it gives the opponent the game."""
    _, b, wbar, bbar, woff, boff, wwait, bwait, sm, stt = st
    bt = b[t]
    if bt >= 2 or (bt and r.close_any):
        return None
    if r.vq and 13 <= t <= 23 and (w[t] or (bt and r.vq_empty_only)):
        return None
    if r.limit2 and w[t] >= 2:
        return None
    if src == "bar":
        wbar -= 1
    elif src == "wait":
        wwait -= 1
    w[t] += 1
    flag = None
    nb = b
    if bt:                                     # a hit
        bl = list(b)
        bl[t] = 0
        kind = r.hit
        if kind == "bar":
            bbar += 1
        elif kind == "wait":
            bwait += 1
        elif kind == "removed":
            boff += 1
            if boff == r.men:
                flag = "loss"
        elif kind == "start":
            if w[r.hit_pip]:
                bbar += 1
            else:
                bl[r.hit_pip] += 1
        else:                                  # quarter
            for q in r.quarter:
                if not w[q]:
                    bl[q] += 1
                    break
            else:
                bbar += 1                      # Fallas: nowhere to go, the game is over
                if r.quarter_full == "win":
                    flag = "win"
        nb = tuple(bl)
    nw = tuple(w)
    if flag is None and r.goal is not None and r.goal_each_move and _goal_reached(r, nw):
        flag = "win"
    return (nw, nb, wbar, bbar, woff, boff, wwait, bwait, sm, stt), flag


def _home(r: _Rules, st: State) -> bool:
    w = st[0]
    return not st[2] and not st[6] and not any(w[r.home + 1:])


def _bear_ok(r: _Rules, st: State, p: int, d: int) -> bool:
    """May the man on pip p be borne off by d (p - d < 1)?"""
    kind = r.bear
    if kind == "none":
        return False
    if kind == "exact_any":
        return d == p
    if kind == "any_higher":
        return d >= p
    if not _home(r, st):
        return False
    if d == p:
        return True
    if kind == "home_exact":
        return False
    return not any(st[0][p + 1:])          # home_std: a higher number from the highest pip


def _bear(r: _Rules, st: State, p: int) -> tuple[State, str | None]:
    w = list(st[0])
    w[p] -= 1
    woff = st[4] + 1
    ns = (tuple(w), st[1], st[2], st[3], woff, st[5], st[6], st[7], st[8], st[9])
    return ns, ("win" if woff == r.men else None)


def _singles(r: _Rules, st: State, d: int, passed: bool = False) -> list[tuple[State, str | None]]:
    """Every single move of number d (the passed stage's moves when `passed`)."""
    w, b, wbar, bbar, woff, boff, wwait, bwait, sm, stt = st
    out: list[tuple[State, str | None]] = []
    if r.doblet:
        stage1 = r.stage1_throw if r.per_throw else bool(sm)
        if stage1:
            p = 25 - d
            if p in sm:
                out.append(((w, b, wbar, bbar, woff, boff, wwait, bwait, sm - {p}, stt), None))
            return out
        if r.in_place:
            if w[25 - d]:
                out.append(_bear(r, st, 25 - d))
            return out
        if passed:                              # stage 2 race: exact bearing off only
            if w[d]:
                out.append(_bear(r, st, d))
            return out
    entry = r.n + 1 - d
    if r.entering_stage and (wbar or wwait):
        res = _land(r, st, list(w), entry, "bar" if wbar else "wait")
        return [res] if res else []
    if r.bar_first and wbar:
        res = _land(r, st, list(w), entry, "bar")
        return [res] if res else []
    if wbar:
        res = _land(r, st, list(w), entry, "bar")
        if res:
            out.append(res)
    if wwait:
        res = _land(r, st, list(w), entry, "wait")
        if res:
            out.append(res)
    for p in range(1, r.n + 1):
        if not w[p]:
            continue
        t = p - d
        if t >= 1:
            wl = list(w)
            wl[p] -= 1
            res = _land(r, st, wl, t, "board")
            if res:
                out.append(res)
        elif _bear_ok(r, st, p, d):
            out.append(_bear(r, st, p))
    return out


Outcome = tuple[State, tuple[int, ...], str | None]     # state, numbers left, flag


def _explore(r: _Rules, st: State, rem: tuple[int, ...], memo: dict[Any, set[Outcome]],
             passed: bool = False) -> set[Outcome]:
    """Every sequence of single moves from st with the numbers rem (sorted): the state each
    sequence ends on (stopping early included), the numbers it left, its flag."""
    key = (st, rem)
    got = memo.get(key)
    if got is not None:
        return got
    out: set[Outcome] = {(st, rem, None)}
    tried = set()
    for i, d in enumerate(rem):
        if d in tried:
            continue
        tried.add(d)
        rest = rem[:i] + rem[i + 1:]
        for ns, flag in _singles(r, st, d, passed):
            if flag:
                out.add((ns, (), flag))
            else:
                out |= _explore(r, ns, rest, memo, passed)
    memo[key] = out
    return out


@dataclass(frozen=True)
class Result:
    pos: Pos
    next: str = "end"
    passed: tuple[int, ...] = ()
    game_over: tuple[str, int] | None = None


def canonical(game: str, pos: Pos, **options: Any) -> Pos:
    """Fold bar men into the unentered men where the two are the same (Doze canes and Pareia de
    entrada with no obligation to enter hit men first)."""
    opts = options_of(options)
    fold = (game == "doze-canes" and opts["dc_enter_first"] == "no") or \
        (game == "pareia-de-entrada" and opts["pe_enter_first"] == "no")
    if fold and (pos.w_bar or pos.b_bar):
        return replace(pos, w_bar=0, b_bar=0, w_wait=pos.w_wait + pos.w_bar,
                       b_wait=pos.b_wait + pos.b_bar)
    return pos


def _numbers(game: str, r: _Rules, pos: Pos, dice: Iterable[int]) -> tuple[int, ...]:
    dice = tuple(int(d) for d in dice)
    for d in dice:
        if not 1 <= d <= 6:
            raise ValueError(f"bad die {d!r}")
    fixed = game == "cab-e-quinal" and r.opts["cq_third_die"] == "fixed"
    want = 2 if fixed else r.ndice
    if len(dice) != want:
        raise ValueError(f"{game}: {want} dice expected, got {list(dice)}")
    if fixed:
        if pos.fixed_die is None:
            raise ValueError("cq_third_die = fixed needs the position's fixed_die")
        return dice + (pos.fixed_die,)
    if want == 2 and dice[0] == dice[1]:
        return (dice[0],) * r.doublet_moves
    return dice


def results(game: str, pos: Pos, dice: Iterable[int] = (), **options: Any) -> list[Result]:
    """Every distinct legal result of the throw `dice` in `pos`, or of the passed stage when
    `pos.passed` is set and `dice` is empty."""
    game = _game(game)
    opts = options_of(options)
    check(game, pos)
    pos = canonical(game, pos, **options)
    dice = tuple(dice)
    if pos.passed:
        if dice:
            raise ValueError("a passed stage takes no dice")
        return _passed_stage(game, pos, opts)
    if not dice:
        raise ValueError("no dice")
    r = _rules(game, opts, pos)
    numbers = _numbers(game, r, pos, dice)
    return _throw(game, r, pos, numbers, opts, passing=True)


def _throw(game: str, r: _Rules, pos: Pos, numbers: tuple[int, ...], opts: dict[str, Any],
           passing: bool) -> list[Result]:
    st0 = _state(pos)
    outs = _explore(r, st0, tuple(sorted(numbers)), {})
    total = len(numbers)
    best = max(total - len(rem) for _, rem, _ in outs)
    keep = [o for o in outs if total - len(o[1]) == best]
    if total == 2 and numbers[0] != numbers[1] and best == 1:
        hi = max(numbers)
        with_hi = [o for o in keep if hi not in o[1]]
        if with_hi:
            keep = with_hi
    if game == "fallas" and not any(f == "win" for _, _, f in keep):
        if best == 0 or (opts["fa_loss"] == "any_unplayable" and best < total):
            return [Result(replace(pos, passed=()), "end", (), ("opponent", 1))]
    found: set[Result] = set()
    for st, rem, flag in keep:
        after = _pos(st, pos)
        if flag == "win":
            found.add(Result(after, "end", (), ("mover", 1)))
            continue
        if flag == "loss":
            found.add(Result(after, "end", (), ("opponent", 1)))
            continue
        if game == "doze-canes" and not r.goal_each_move and _goal_reached(r, st[0]):
            found.add(Result(after, "end", (), ("mover", 1)))
            continue
        if game == "medio-emperador" and _blocked_both(game, after, opts):
            found.add(Result(after, "end", (), ("draw", 0)))
            continue
        nxt = "end"
        passed: tuple[int, ...] = ()
        if game == "pareia-de-entrada":
            equal = len(set(numbers)) == 1 if opts["pe_again"] == "all_equal" \
                else len(set(numbers)) < len(numbers)
            if equal and (not rem or opts["pe_again_needs_full"] == "no"):
                nxt = "again"
        if passing and rem and _passes(game, r, st, opts):
            nxt, passed = "passed", tuple(sorted(rem, reverse=True))
        found.add(Result(after, nxt, passed, None))
    return sorted(found, key=_order)


def _passes(game: str, r: _Rules, st: State, opts: dict[str, Any]) -> bool:
    if game == "laquet":
        return opts["lq_passed"] != "lost"
    if game != "doblet" or opts["db_passed"] != "may":
        return False
    stage1 = r.stage1_throw if r.per_throw else bool(st[8])
    if stage1 or r.in_place:
        return True
    return _home(r, st)


def _passed_stage(game: str, pos: Pos, opts: dict[str, Any]) -> list[Result]:
    if game == "laquet":
        if opts["lq_passed"] == "lost":
            raise ValueError("lq_passed = lost: a position cannot hold passed numbers")
        if opts["lq_passed"] == "instead_of_throw":
            r = _rules(game, opts, pos)
            return _throw(game, r, replace(pos, passed=()), pos.passed, opts, passing=False)
    elif opts["db_passed"] == "lost":
        raise ValueError("db_passed = lost: a position cannot hold passed numbers")
    r = _rules(game, opts, pos)
    outs = _explore(r, _state(pos), tuple(sorted(pos.passed)), {}, passed=True)
    found = set()
    for st, _, flag in outs:
        after = _pos(st, pos)
        if flag == "win":
            found.add(Result(after, "end", (), ("mover", 1)))
        elif flag == "loss":
            found.add(Result(after, "end", (), ("opponent", 1)))
        else:
            found.add(Result(after, "throw", (), None))
    return sorted(found, key=_order)


def _order(res: Result) -> tuple[Any, ...]:
    p = res.pos
    return (p.w, p.b, p.w_bar, p.b_bar, p.w_off, p.b_off, p.w_wait, p.b_wait,
            sorted(p.stacked[0]), sorted(p.stacked[1]), res.next, res.passed,
            res.game_over or ("", 0))


def has_single_move(game: str, pos: Pos, d: int, **options: Any) -> bool:
    """Has the mover any single move with the number d (in his throw, not a passed stage)?"""
    opts = options_of(options)
    pos = canonical(_game(game), pos, **options)
    return bool(_singles(_rules(game, opts, pos), _state(pos), d))


def _blocked_both(game: str, pos: Pos, opts: dict[str, Any]) -> bool:
    for view in (pos, turn(game, pos)):
        r = _rules(game, opts, view)
        st = _state(view)
        if any(_singles(r, st, d) for d in range(1, 7)):
            return False
    return True


def draw_by_block(game: str, pos: Pos, **options: Any) -> bool:
    """Medio emperador §7.3: neither side has any single move with any number."""
    return _blocked_both(_game(game), pos, options_of(options))


def next_position(game: str, res: Result) -> Pos | None:
    """The position of the next stage, seen by whoever plays it; None when the game is over."""
    if res.game_over is not None:
        return None
    if res.next in ("again", "throw"):
        return res.pos
    nxt = turn(game, res.pos)
    if res.next == "passed":
        return replace(nxt, passed=res.passed)
    return nxt


def throw_dice(game: str, rng: random.Random, **options: Any) -> tuple[int, ...]:
    """A random throw as `results` takes it."""
    opts = options_of(options)
    k = DICE[game]
    if game == "medio-emperador":
        k = opts["me_dice"]
    elif game == "pareia-de-entrada":
        k = opts["pe_dice"]
    elif game == "cab-e-quinal" and opts["cq_third_die"] == "fixed":
        k = 2
    return tuple(rng.randint(1, 6) for _ in range(k))


def limit_violations(game: str, pos: Pos, **options: Any) -> list[str]:
    """The per-point limits a position breaks (empty when none): two men a side a point in
    Quinze tablas and Doblet, one man a point on a side's own pips 13..23 in Verquere."""
    bad = []
    n = SIZE[game]
    for p in range(1, n + 1):
        if pos.w[p] and pos.b[p]:
            bad.append(f"pip {p}: both sides")
    if game in ("quinze-tablas", "doblet"):
        bad += [f"pip {p}: {k} men" for p in range(1, n + 1) for k in (pos.w[p], pos.b[p])
                if k > 2]
    if game == "verquere":
        bad += [f"mover's pip {p}: {pos.w[p]} men" for p in range(13, 24) if pos.w[p] > 1]
        bad += [f"opponent's pip {mirror(game, p)}: {pos.b[p]} men" for p in range(1, 12)
                if pos.b[p] > 1]
    return bad


# ---------------------------------------------------------------------------------------------
# JSON

def to_json(game: str, pos: Pos) -> dict[str, Any]:
    """The position JSON (INTERFACES.md, with the §1.7 additions under "state")."""
    n = SIZE[_game(game)]
    obj: dict[str, Any] = {
        "variant": game,
        "points": [pos.w[p] - pos.b[p] for p in range(1, n + 1)],
        "bar": [pos.w_bar, pos.b_bar], "off": [pos.w_off, pos.b_off]}
    state: dict[str, Any] = {}
    if game in ENTERING or pos.w_wait or pos.b_wait:
        state["unentered"] = [pos.w_wait, pos.b_wait]
    if pos.goal is not None:
        state["goal"] = list(pos.goal)
    if pos.fixed_die is not None:
        state["fixed_die"] = pos.fixed_die
    if pos.starts is not None:
        state["starts"] = list(pos.starts)
    if pos.stacked[0] or pos.stacked[1]:
        state["stacked"] = {"mine": sorted(pos.stacked[0]), "theirs": sorted(pos.stacked[1])}
    if pos.passed:
        state["passed"] = list(pos.passed)
    if state:
        obj["state"] = state
    return obj


def result_to_json(game: str, res: Result) -> dict[str, Any]:
    obj = to_json(game, res.pos)
    obj["next"] = res.next
    if res.passed:
        obj["passed"] = list(res.passed)
    if res.game_over is not None:
        obj["game_over"] = {"winner": res.game_over[0], "points": res.game_over[1]}
    return obj


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{what}: an integer expected, got {x!r}")
    return x


def _pair(obj: Mapping[str, Any], key: str) -> tuple[int, int]:
    v = obj.get(key, [0, 0])
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise ValueError(f"{key!r} must be a pair")
    return _int(v[0], key), _int(v[1], key)


def from_json(game: str, obj: Mapping[str, Any]) -> Pos:
    """Read a position JSON (dice, if any, are not part of the position). Men a position leaves
    implicit are unentered in the games entered from off the board and borne off in the others;
    an explicit count that disagrees, or any malformed part, raises ValueError."""
    game = _game(game)
    if not isinstance(obj, Mapping):
        raise ValueError("a position is a JSON object")
    try:
        return _from_json(game, obj)
    except (TypeError, AttributeError, IndexError, KeyError) as exc:
        raise ValueError(f"{game}: malformed position ({exc})") from None


def _from_json(game: str, obj: Mapping[str, Any]) -> Pos:
    n, men = SIZE[game], MEN[game]
    pts = obj.get("points")
    if not isinstance(pts, list) or len(pts) != n:
        raise ValueError(f"{game}: 'points' must be a list of {n} integers")
    w, b = {}, {}
    for i, v in enumerate(pts):
        v = _int(v, "points")
        if v > 0:
            w[i + 1] = v
        elif v < 0:
            b[i + 1] = -v
    bar = _pair(obj, "bar")
    state = obj.get("state") or {}
    if not isinstance(state, Mapping):
        raise ValueError("'state' must be an object")
    kw: dict[str, Any] = {"w_bar": bar[0], "b_bar": bar[1]}
    on = (sum(w.values()), sum(b.values()))
    has_off, has_unentered = "off" in obj, "unentered" in state
    off = _pair(obj, "off") if has_off else None
    unentered = _pair(state, "unentered") if has_unentered else None
    for i, side in enumerate(("w", "b")):
        rest = men - on[i] - bar[i]
        if game in ENTERING:
            o = off[i] if off else 0
            u = unentered[i] if unentered else rest - o
        else:
            u = unentered[i] if unentered else 0
            o = off[i] if off else rest - u
        if o + u != rest:
            raise ValueError(f"{game}: side {i}: board, bar, off and unentered do not add up "
                             f"to {men}")
        kw[f"{side}_off"], kw[f"{side}_wait"] = o, u
    if "goal" in state:
        g = state["goal"]
        kw["goal"] = (_int(g[0], "goal"), _int(g[1], "goal"))
    if "fixed_die" in state:
        kw["fixed_die"] = _int(state["fixed_die"], "fixed_die")
    if "starts" in state:
        s = state["starts"]
        kw["starts"] = (_int(s[0], "starts"), _int(s[1], "starts"))
    if "stacked" in state:
        s = state["stacked"]
        kw["stacked"] = ([_int(p, "stacked") for p in s.get("mine", [])],
                         [_int(p, "stacked") for p in s.get("theirs", [])])
    if "passed" in state:
        kw["passed"] = tuple(_int(d, "passed") for d in state["passed"])
    return Pos.of(game, w, b, **kw)
