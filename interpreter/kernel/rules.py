"""The movement switches of the kernel: everything about moving checkers that a variant file states
as a constant (the `[movement]` and `[dice]` tables). Rules that no switch covers are DSL hooks
(legality filters and play preferences), applied by the kernel after these.

Built once per variant load; the generators read these fields when they are specialised, never
in the hot loop.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from interpreter.kernel.board import Geometry


@dataclass(frozen=True)
class MoveRules:
    checkers: int = 15
    #: how many single-number moves a doublet gives (4 in backgammon, 2 in the trictrac family,
    #: 1 where a doublet is played once, Tourne-case)
    doublet_moves: int = 4
    #: which numbers of the two dice are played: "both" (every game but one), or "lower": only
    #: the lower number, once, a doublet included (Tourne-case)
    numbers: Literal["both", "lower"] = "both"
    #: how many dice a throw has: 2, or 3 (Tabula, Emperador: each die one single move, a
    #: doublet or triplet included, in any order)
    dice: int = 2
    #: how many opponent checkers on a point stop a checker from landing there (2, or 1 in trictrac)
    block: int = 2
    #: where the opponent's checkers run: "opposite" (backgammon: his pip q is the mover's
    #: 25 - q) or "same" (Long Nardy, Fevga: his pip q is the mover's q + 12 for q <= 12, q - 12
    #: for q >= 13) or "shared" (Tabula: one route for both, his pip q is the mover's q); the
    #: mover's own moves are the same either way, hits to the start and turning the board
    #: follow the route
    #: ("scripta": the 36-point board of XII scripta, its middle row pips 25..36 shared the
    #: same way round, the outer rows crossed the opposite ways: his pip q <= 24 is the
    #: mover's 25 - q)
    route: Literal["opposite", "same", "shared", "scripta"] = "opposite"
    #: what landing on fewer than `block` opponent checkers does: send them to the bar, back to
    #: their start, back off the board among the unentered ("unentered"), pin a lone one under
    #: the lander ("pin", Plakoto), or nothing (with block = 1 no landing on an opponent is
    #: possible anyway)
    hit: Literal["bar", "start", "none", "pin", "unentered", "place", "removed"] = "bar"
    #: with hit = "place": where a hit checker is put at once, without a die: the first of
    #: these pips (its owner's own numbers, in the order given) that holds no checker of the
    #: hitter once the hitting move is made (Todas tablas: his 24, 23, ... 19; Cab e quinal:
    #: his start point); when every one holds one, `place_full` says where it goes
    place: tuple[int, ...] = field(default=())
    #: with hit = "place": the named state (`[turn.state]`) whose value for the hit checker's
    #: owner is the one pip of `place`, in his own numbers (a start point that differs by side,
    #: Cab e quinal); None: `place` is fixed
    place_state: str | None = None
    #: with hit = "place" and every pip of `place` held by the hitter: "bar" (it waits off the
    #: board and enters with a number, as from the bar)
    place_full: Literal["bar"] = "bar"
    #: with hit = "start": when the mover holds the hit checker's start (or lands on it), the
    #: hit is not possible ("refused"), or the hit checker goes to the bar instead, to enter as
    #: from the bar ("bar", Emperador)
    held_start: Literal["refused", "bar"] = "refused"
    #: where checkers wait to come into play: "bar" (backgammon: a checker on the bar, index 25,
    #: enters with number d on pip 25 - d) or "start" (the 12-point Tric-Trac: men on the start
    #: pip `start_pip` are entered by moving from it) or "none"
    enter: Literal["bar", "start", "none"] = "bar"
    start_pip: int = 24
    #: checkers waiting to enter (bar, or start when enter = "start") must all be entered before
    #: any other checker moves; with "start", a single-number move may instead carry on the man
    #: entered earlier in the same throw
    enter_first: bool = True
    #: checkers may wait off the board, unentered (acey-deucey): they enter like checkers on
    #: the bar, a number d on pip 25 - d; set when the variant starts checkers off the board or
    #: hits them back there
    pool: bool = False
    #: all unentered checkers must come in before any checker on the board moves
    unentered_first: bool = False
    #: while any checker of the mover is off the board (on the bar or never entered), entering
    #: one is his only single move, in either order (Buffa de baldrac's entering stage)
    entering_stage: bool = False
    #: a checker entered from off the board may go on with another number of the same throw
    #: (false: it waits for a later throw)
    unentered_move_on: bool = True
    #: an unentered checker enters with the number d on pip `entry_pip` - d (25: the
    #: opponent's home board, as from the bar; 13: the mover's own side, Tourne-case's lane)
    entry_pip: int = 25
    #: with pins: "forbidden": no bearing off while one of the mover's checkers is pinned;
    #: "allowed": a pinned checker in the home board counts as home (and as occupying its pip
    #: for the farthest-checker rule); it only cannot move
    pinned_bear_off: Literal["forbidden", "allowed"] = "forbidden"
    #: "all_home": a checker may be borne off only while all the mover's checkers are on pips
    #: 1..home_top (checked at each single-number move); "anywhere": no such condition;
    #: "none": no checker is ever borne off (pip off_pip + 1 is the goal, and a number that
    #: would take a checker past it cannot be played by that checker)
    #: "in_place": no checker moves along the route; a number d bears off one checker from the
    #: d-th point of the route, pip points + 1 - d, where the pairs stood (Doblet's English
    #: reading, Dubblets)
    bear_off: Literal["all_home", "anywhere", "none", "in_place"] = "all_home"
    home_top: int = 6
    #: a move that reaches pip <= off_pip bears the checker off (0 in backgammon and trictrac:
    #: past pip 1; 1 in the 12-point Tric-Trac, where Home counts as off)
    off_pip: int = 0
    #: "optional": a number equal to a checker's distance may be played elsewhere instead;
    #: "compulsory": a number that can bear off a checker exactly must do so
    exact_exit: Literal["optional", "compulsory"] = "optional"
    #: a number higher than needed: "farthest" bears off the farthest checker only when no checker
    #: stands farther back; "any" bears off any checker it reaches; "none": it bears off no
    #: checker (only an exact number does, Tabula)
    over_exit: Literal["farthest", "any", "none"] = "farthest"
    #: among plays that bear off, keep those with the fewest bear-offs by a higher number
    #: ("fewest"), or reject them only when a play with none exists ("zero_if_possible"), or
    #: apply nothing ("none")
    excedant_filter: Literal["none", "fewest", "zero_if_possible"] = "none"
    #: while every home pip (1..home_top) holds two or more of the mover's checkers, a number
    #: higher than needed bears off the farthest checker only ("farthest_checker"), or may also
    #: bear off a checker from the farthest pip holding more than two, so that the home board
    #: stays full ("farthest_surplus_point"; trictrac T-A4). Such a step is flagged excédant and
    #: surplus, and the excédant filter does not count it (it is the full board's privilege)
    retour_conserve_exit: Literal["farthest_checker", "farthest_surplus_point"] = "farthest_checker"
    #: both numbers (all four of a doublet) must be played when possible
    max_dice: bool = True
    #: when only one number can be played, the higher must be played if possible
    higher_number: bool = True
    #: own corner pip (taken and left by two, never holding exactly one at the end of a play),
    #: and the opponent's corner pip (never a landing; a rest only while empty, and only with
    #: `opp_corner_rest`); None: no corners
    own_corner: int | None = None
    opp_corner: int | None = None
    #: may a checker rest on the empty opponent's corner in the middle of a move made with both
    #: numbers (true: trictrac; false: the 12-point Tric-Trac, where no move passes through it)
    opp_corner_rest: bool = True
    #: may one of the last two checkers leave the own corner while another arrives in the same
    #: play ("allow": only the end count matters; "forbid")
    coin_swap: Literal["allow", "forbid"] = "allow"
    #: taking the own corner "par puissance" (two checkers that could reach the empty opponent's
    #: corner go to the own corner instead, each one pip short), forbidden when the corner can be
    #: taken directly: "both_coins_empty", "own_coin_empty" (what must be empty), or "off"
    puissance_needs: Literal["off", "both_coins_empty", "own_coin_empty"] = "off"
    #: pips that are never a landing but may be a rest while empty (other than opp_corner)
    no_landing: tuple[int, ...] = field(default=())
    #: a checker landing on pip p (entering, moving, or resting between two numbers) hits the
    #: opponent's checkers on the pip directly across the board, 25 - p, sending them where
    #: `hit` says (Tourne-case); landings on the pips of `across_safe` hit nothing
    hit_across: bool = False
    across_safe: tuple[int, ...] = field(default=())
    #: the most checkers of one side a point may hold (0: no limit): a checker may not land or
    #: rest on a point holding that many of his own (Quinze tablas: 2; Verquere: 1 on the
    #: first half of the route)
    limit: int = 0
    #: the pips the limit applies to (empty: every pip)
    limit_pips: tuple[int, ...] = field(default=())
    #: the length of each side's route (12, 18, 24 or 36 points): pip `points` is its first
    #: point, a checker enters from the bar with number d on pip points + 1 - d
    points: int = 24
    #: the second side's initial value of each named state (`[board.black] state`), in the
    #: order of `state`; empty: the sides start alike
    state_other: tuple[int, ...] = field(default=())
    #: the named state kept across turns (`[turn.state]`): (name, initial, true/false) each,
    #: carried in the board's last slots (kernel.board.Geometry)
    state: tuple[tuple[str, int, bool], ...] = field(default=())
    #: the pips (each side's own numbers) where a side's checkers start stacked in pairs
    #: (`[board] stacked`, Doblet); empty: none. While the mover has a pair stacked (`unstack`
    #: says when that is judged) a number d unstacks his pair on pip points + 1 - d, and
    #: nothing moves; a number whose pair is already unstacked cannot be played
    stacked: tuple[int, ...] = field(default=())
    #: when the stage of unstacking is judged: "per_throw" (when the throw begins: a throw
    #: begun with a pair stacked is played wholly by unstacking) or "per_move" (before each
    #: single move: the numbers left once the last pair is unstacked move the checkers)
    unstack: Literal["per_throw", "per_move"] = "per_throw"

    @property
    def walk_only(self) -> bool:
        """Whether a switch that only the generic walk of `MoveGenerator` serves is on (the
        lower number alone, three dice, entering elsewhere than as from the bar, no bearing
        off, exact bearing off only, hits across the board or to the bar from a held start,
        the shared route): the generated `plays()` and the compiled generators of the
        backgammon family and of the plain walk decline such rules (the compiled walk of
        `native/hooks_emit.py` serves them)."""
        return (self.numbers != "both" or self.dice != 2 or self.entry_pip != 25
                or self.bear_off == "none" or self.over_exit == "none" or self.hit_across
                or self.held_start != "refused" or self.route == "shared"
                or bool(self.walk_alone))

    @property
    def walk_alone(self) -> str:
        """Which switch that only the Python walk serves is on, in words (empty: none; no
        compiled generator serves such rules)."""
        if self.points > 24:
            return f"a board of {self.points} points in three rows"
        if self.points != 24:
            return f"a route of {self.points} points"
        if self.hit == "place":
            return "hit checkers placed on a list of points"
        if self.hit == "removed":
            return "hit checkers removed from the game"
        if self.entering_stage:
            return "the entering stage"
        if self.stacked:
            return "pairs stacked at the start"
        if self.bear_off == "in_place":
            return "bearing off in place"
        if self.limit:
            return "a limit of checkers a point"
        return ""

    @property
    def has_corners(self) -> bool:
        return self.own_corner is not None

    @property
    def geometry(self) -> Geometry:
        """The board slots and route these switches need."""
        return Geometry(self.route, self.hit == "pin", self.pool or self.hit == "unentered",
                        self.state, self.points, self.state_other, bool(self.stacked))
