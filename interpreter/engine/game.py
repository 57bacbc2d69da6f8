"""The one turn loop of every variant and every ladder.

`Game.play()` is a generator: it yields each `Decision` (engine/contract.py) and receives its
answer, ``answer = yield decision``; `Game.run(players)` is the plain driver on top of it. The
loop knows how tables games go in general; what a variant adds is its file's, what happens above
the board is its ladder's (scoring/, one class per `[ladder] kind`, all with the protocol of
scoring/protocol.py).

Each throw: the ladder may ask before it (the cube's offers) → the dice (an opening throw of the
variant's `opening_roll` mode at the start of each game) → the roll's scoring rules, from the
position before the play → the ladder marks them and may ask (go or stay…) → the play (a
decision when there is more than one) → the play's own scoring rules → what the variant does
when a side's men are all off (`[board] all_off`: the end rules decide, a relevé, or a restack
with the numbers left over entered) → the end rules → the ladder marks the rest and says what
happens next (go on, relevé, next game, end) → a doublet's extra throw (`[dice] doublets =
"twice_and_throw_again"`, at the player's choice under `[dice] extra_throw = "optional"`) → the
stages of a roll event (`[dice] bonus_throw`, acey-deucey's 1-2, kernel/throws.py): a throw
played in full may grant a doublet the player names (a "doublet" decision), its complement, and
another throw; each stage is played like a throw of those dice, by the same player, and logged
and recorded as one ("white throws 6-6" after "white doublet 6").

The board is always held from the mover's point of view (kernel/board.py); `mover` says who that
is (0 = white, 1 = black). With `keep_record`, the game keeps its record (the dice of every throw
and every decision with its answer, engine/record.py) and its log of events (what the text log
of `tablier play` is rendered from), each an object of a class of engine/events.py. With
`metrics`, it keeps the sums of its playout metrics (engine/metrics.py: who leads, decisiveness,
drama, stability, board coverage), which its result carries (`GameResult.metrics`).
"""
from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Generator, ParamSpec, Sequence, cast

from interpreter.dsl import RollContext, reads_path
from interpreter.engine.contract import DICE36 as DICE36
from interpreter.engine.contract import (BLACK, DICE216, END, ON, RESIGN_CHOICES, SIDE_NAMES,
                                         WHITE, Decision, GameResult, IllegalAnswer, Next, Resign,
                                         dice_index)
from interpreter.engine.events import (After, Decided, Ended, Event, Forced, NewGame, Passed,
                                       Played, RecordEntry, Releve, ResignDeclined, Resigned,
                                       Restacked, Scored, Thrown, Tied)
from interpreter.engine.metrics import Tracker
from interpreter.errors import TablierError
from interpreter.kernel.board import Board, updated
from interpreter.kernel.movegen import Play
from interpreter.kernel.notation import play_text, read_play
from interpreter.kernel.throws import numbers_left, passed_third

if TYPE_CHECKING:
    from interpreter.scoring.protocol import Ladder

P = ParamSpec("P")

#: what a stage rule makes follow a throw (`Game._next_stage`): a stage, another throw
STAGE, AGAIN = 1, 2
#: how many positions a variant keeps the answer of `Game._dead` for, over all its games
DEAD_MEMO = 50_000
#: the answers of a "doublet" decision: the doublet the player names
DOUBLET_CHOICES = ("1", "2", "3", "4", "5", "6")

__all__ = ["Game", "GameResult", "WHITE", "BLACK", "SIDE_NAMES", "opening_roll", "Next",
           "ON", "END"]


def opening_roll(rng: random.Random, mode: str) -> tuple[int, int, int, int]:
    """Who plays first and with which dice, after how many tied throws: (player, d1, d2, ties)."""
    ties = 0
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a == b:
            ties += 1
            continue
        first = WHITE if a > b else BLACK
        if mode == "one_die_each":
            return first, max(a, b), min(a, b), ties
        if mode == "winner_throws_two":
            return first, rng.randint(1, 6), rng.randint(1, 6), ties
        # nearer_high_die: one throw of both dice; the player nearer the higher die plays it
        return rng.randrange(2), max(a, b), min(a, b), ties


Gen = Generator[Decision, Any, Any]


class ThrowState:
    """Where the throws stand between two passes of the turn loop: the dice of the next throw
    when they are set rather than thrown (`opening`: an opening throw's, a stage's; `d1`, `d2`
    are otherwise the dice last thrown), the stage of a roll event being played (`stage`, with
    the doublet named, `named`), and numbers passed on to the player on roll by a stage rule
    (`passed`: the rule and how many single moves of `d1`). What the ladder says between two
    throws (`Game._carried`) ends the stages and may set an opening throw."""

    __slots__ = ("opening", "d1", "d2", "d3", "stage", "named", "passed")

    def __init__(self, opening: bool, d1: int, d2: int, passed: tuple | None = None):
        self.opening = opening
        self.d1 = d1
        self.d2 = d2
        #: the third die of a three-dice throw (0: none; never set, only thrown)
        self.d3 = 0
        #: the stage of a roll event being played ("doublet", "complement"; None: thrown dice)
        self.stage: str | None = None
        self.named = 0
        self.passed = passed


class Game:
    """One `play` of a variant — a game, a partie or a match, as its ladder says — between two
    players whose capabilities are `doubles` (whether each ever doubles: a player who never does
    is not asked, nor offered beavers). `play()` is the generator, `run(players)` the driver."""

    def __init__(self, variant: Any, seed: Any, *, max_turns: int = 20000,
                 keep_record: bool = True, doubles: tuple[bool, bool] = (True, True),
                 resigns: bool = False, metrics: bool = False):
        #: the variant the play was started with (what its record names); `variant` is the
        #: one of the game being played, another where the ladder plays several in turn
        self.root = variant
        self.variant = variant
        #: whether a player may resign (answer any decision with `Resign`): a person's game or
        #: the replay of a record; the bots' games run without the check
        self.resigns = resigns
        #: the level of a resignation waiting for the opponent's answer (None: none)
        self.resign_offer: str | None = None
        self.seed = seed
        self.dice_rng = random.Random(f"{seed}:dice")
        self.max_turns = max_turns
        self.keep_record = keep_record
        self.doubles = doubles
        self.board: Board = variant.start
        self.mover = WHITE
        self.first = WHITE
        self.rolls = [0, 0]
        self.setup = 1
        self.turns = 0
        #: the dice of the throw being played: two, or three (`[dice] count = 3`)
        self.dice: tuple[int, ...] = (0, 0)
        #: points of this throw so far (mover's, opponent's), for players judging a decision
        self.pending: tuple[int, int] = (0, 0)
        #: firings of each scoring rule, by the side that scored: {rule: [white, black]}
        self.fired: dict[str, list[int]] = {}
        #: the points each scoring rule gave, by the side that scored: {rule: [white, black]}
        self.rule_points: dict[str, list[int]] = {}
        self.scored = [0, 0]
        #: the playout's own counts: legal plays summed over the play decisions, the decisions
        #: with at most one play (forced), and the decisions (`compare`'s branching factor)
        self.play_counts = [0, 0, 0]
        self._leader = -1
        self.lead_changes = 0
        #: the playout metrics of the play (engine/metrics.py), kept only when asked for
        self.metrics: Tracker | None = Tracker(self) if metrics else None
        #: the record: each throw (`Thrown`) and each decision with its answer (`Decided`)
        self.record: list[RecordEntry] = []
        #: the log: the record's entries and the events between them (engine/events.py)
        self.log: list[Event] = []
        self.choice_base: Board = self.board
        self._choice_plays: list | None = []
        self._choice_items: Any = None
        #: `_choice_plays` are the decision's own (a stage of passed numbers), not the dice's
        self._plays_fixed = False
        #: whether the player on roll throws again (a doublet's extra throw)
        self.extra = False
        self.ladder: Ladder = variant.new_ladder(self)
        first = self.ladder.first_variant()
        if first is not None:
            self.variant = first
            self.board = self.choice_base = first.start
        #: a new game of another variant begins (the turn loop starts again with its rules)
        self._swapping = False
        #: the next game begins with its winner throwing, not with an opening throw
        self._start_first = False
        self.result: GameResult | None = None
        #: whether the cube may be offered (a search's copy of the game may look ahead without)
        self.offers = True
        #: the state at the start of each throw and the answers given since, kept for copies
        #: of the game at any decision (engine/branch.py); off unless a player searches
        self.branching = False
        self._cp: Any = None
        self._answers: list[int] = []
        self._cp_next: Any = None
        #: copies ask their dice as a "dice" decision instead of drawing them
        self.ask_dice = False
        #: between two throws after `_throws` stopped at its limit: (opening, d1, d2), and the
        #: numbers passed on to the player on roll (`ThrowState.passed`)
        self.between: tuple[bool, int, int] | None = None
        self.between_passed: tuple | None = None
        #: a new game's `[turn.choose]` choices are still to be made (before its first throw)
        self._choose_due = False
        #: the choice being asked (a "choose" decision), for the players to name it
        self.choosing: Any = None

    # -- the driver -----------------------------------------------------------------------------

    def run(self, players: Sequence[Any]) -> GameResult:
        """Play to the end (or `max_turns`), each decision answered by `players[side].answer`."""
        answer = (players[0].answer, players[1].answer)
        if any("branching" in getattr(p, "capabilities", ()) for p in players):
            self.branching = True
        gen = self.play()
        try:
            d = next(gen)
            while True:
                d = gen.send(answer[d.player](d))
        except StopIteration as stop:
            return stop.value

    # -- what a decision offers -----------------------------------------------------------------

    def ask(self, kind: str, player: int, choices: tuple | list) -> Decision:
        return Decision(kind, player, choices, self)

    def answered(self, d: Decision, answer: Any) -> int:
        """The index of the legal answer `answer` names, logged and recorded."""
        i = answer if type(answer) is int and 0 <= answer < len(d.choices) else d.index(answer)
        if self.branching:
            self._answers.append(i)
        if self.keep_record:
            self._recorded(d, i)
        return i

    def _checkpoint(self, opening: bool, d1: int, d2: int, passed: tuple | None = None
                    ) -> list[int]:
        """The state at the start of a throw, kept for copies (engine/branch.py); the list the
        throw's answers go to."""
        from interpreter.engine.branch import checkpoint

        self._cp = checkpoint(self, opening, d1, d2, passed)
        self._answers = []
        return self._answers

    def _recorded(self, d: Decision, i: int) -> None:
        if d.is_play:
            p = self._current_plays(d)[i]
            text = play_text(self.choice_base, p.paths[0], self.variant.geometry)
        else:
            text = d.choices[i]
        entry = Decided(d.player, d.kind, text)
        self.record.append(entry)
        self.log.append(entry)

    def _current_plays(self, d: Decision) -> list:
        """The kernel plays of the play decision `d`, in the order of its choices."""
        if d.kind == "play" and not self._plays_fixed and (
                self._choice_plays is None or not self.keep_record):
            self._choice_plays = self._plays_to(self.choice_base, self.dice[0], self.dice[1],
                                                d.choices, *self.dice[2:])
        return cast(list, self._choice_plays)

    def legal_plays(self, d: Decision) -> list:
        """The kernel plays (`Play`: end board and its step paths) of the play decision `d`, in
        the order of its choices (a game that keeps its record)."""
        return self._current_plays(d)

    def play_texts(self, d: Decision) -> list[str]:
        """Each choice of the play decision `d` in pip notation (from the player's side)."""
        base = self.choice_base
        geometry = self.variant.geometry
        return [play_text(base, p.paths[0], geometry) for p in self._current_plays(d)]

    def read_play(self, d: Decision, text: str) -> int:
        """The index of the choice of `d` that a play's text names (IllegalAnswer if none)."""
        plays = self._current_plays(d)
        try:
            play = read_play(text, plays, self.choice_base, self.dice,
                             self.variant.move_rules.points, self.variant.geometry)
        except TablierError as exc:
            raise IllegalAnswer(str(exc)) from None
        return [p.board for p in plays].index(play.board)

    def play_items(self, i: int) -> list:
        items = self._choice_items
        return items(i) if items is not None else []

    # -- events ---------------------------------------------------------------------------------

    if TYPE_CHECKING:
        def event(self, kind: Callable[P, Event], *args: P.args, **kwargs: P.kwargs) -> None:
            """An event of the log: `kind(*args)`, `kind` a class of engine/events.py (made
            only with `keep_record`)."""
    else:
        def event(self, kind, *args):
            # (no keywords: the call costs what it did when no log is kept)
            if self.keep_record:
                self.log.append(kind(*args))

    def count(self, items: list, mover: int) -> tuple[int, int]:
        """Count the scoring items' firings and points; (mover's points, opponent's)."""
        mine = theirs = 0
        fired = self.fired
        rule_points = self.rule_points
        for rule_id, to, pts, _ways in items:
            side = mover if to == "mover" else 1 - mover
            per = fired.get(rule_id)
            if per is None:
                per = fired[rule_id] = [0, 0]
                rule_points[rule_id] = [0, 0]
            per[side] += 1
            rule_points[rule_id][side] += pts
            if side == mover:
                mine += pts
            else:
                theirs += pts
        if items:
            self.scored[mover] += mine
            self.scored[1 - mover] += theirs
            if self.keep_record:
                for rule_id, to, pts, ways in items:
                    self.log.append(Scored(mover if to == "mover" else 1 - mover, rule_id,
                                           pts, mover, ways))
            s = self.scored
            lead = 0 if s[0] > s[1] else 1 if s[1] > s[0] else self._leader
            if lead != self._leader:
                if self._leader >= 0:
                    self.lead_changes += 1
                self._leader = lead
        return mine, theirs

    # -- the values of the end and value rules --------------------------------------------------

    def game_value(self, b: Board, points: tuple[int, int] = (0, 0)) -> tuple[int, str | None]:
        """The value of a finished game, `b` seen by its winner, `points` (the winner's, the
        loser's) on the ladder: the highest value rule that holds (1 when none), and its id."""
        return value_of(self.variant, b, points)

    def fire(self, rule_id: str | None, side: int) -> None:
        """An end or value rule held for `side`: counted with the scoring rules."""
        if rule_id is not None:
            per = self.fired.get(rule_id)
            if per is None:
                per = self.fired[rule_id] = [0, 0]
            per[side] += 1

    # -- the loop -------------------------------------------------------------------------------

    def _opening(self) -> tuple[int, int]:
        """An opening throw: who is on roll (the board turned to him) and his dice."""
        v = self.variant
        mover, d1, d2, ties = opening_roll(self.dice_rng,
                                           self.ladder.opening_mode() or v.opening)
        self.mover = mover
        self.board = v.start_of(mover)
        self.rolls = [0, 0]
        self.ladder.opening(ties)
        # the choices before the first throw (`[turn.choose]`): the winner makes them
        self._choose_due = bool(getattr(v, "choices", ()))
        return d1, d2

    def _relevé(self, who: int) -> None:
        """The men are set up again; `who` throws next; the throw count starts afresh."""
        v = self.variant
        self.rolls = [0, 0]
        self.setup += 1
        self.mover = who
        self.board = v.start_of(who)
        self.event(Releve, who)

    def play(self) -> Gen:
        """The generator of the whole `play` (see the module docstring); returns its result."""
        return self._resignable() if self.resigns else self._play()

    def _resignable(self) -> Gen:
        """The play where any decision may be answered with `Resign` (engine/contract.py): the
        resignation is recorded, offered to the opponent where the ladder asks his consent
        (backgammon), and, accepted, scored by the ladder (`Ladder.resign`); declined, the same
        decision is asked again. A match that goes on after it starts its next game afresh."""
        inner = self._play()
        try:
            d = next(inner)
        except StopIteration as stop:
            return stop.value
        while True:
            answer = yield d
            if type(answer) is Resign:
                nxt = yield from self._resign(d.player, answer.level)
                if nxt is None:
                    continue
                inner.close()
                if self._carry(nxt) == 0 and not self._swapping:
                    return self._finish()
                self._snapshot()            # the score the resignation left, in the log
                if nxt.how == "releve":     # a mark conceded: the men set up, `who` throws
                    self._start_first = True
                self._swapping = False
                inner = self._play(restart=True)
                try:
                    d = next(inner)
                except StopIteration as stop:
                    return stop.value
                continue
            try:
                d = inner.send(answer)
            except StopIteration as stop:
                return stop.value

    def _resign(self, player: int, level: str) -> Gen:
        """`player` resigns at `level` (one of the ladder's `resign_levels`): the Next of the
        ladder once accepted, None when the opponent declines."""
        L = self.ladder
        levels = L.resign_levels
        level = L.resign_aliases.get(level, level) if level not in levels else level
        if level not in levels:
            raise IllegalAnswer(f"a resignation here is one of {', '.join(map(repr, levels))}, "
                                f"not {level!r}")
        entry = Decided(player, "resigns", level)
        if self.keep_record:
            self.record.append(entry)
            self.log.append(entry)
        if L.resign_needs_consent:
            d = self.ask("resign", 1 - player, RESIGN_CHOICES)
            self.resign_offer = level
            try:
                declined = self.answered(d, (yield d)) == 1
            finally:
                self.resign_offer = None
            if declined:
                self.event(ResignDeclined, 1 - player, level)
                return None
        self.event(Resigned, player, level)
        return L.resign(player, level)

    def _play(self, restart: bool = False) -> Gen:
        """The turn loop itself; `restart`: a new game of a match begins after a resignation
        (the ladder has started it; the throws go on counting)."""
        L = self.ladder
        if not restart:
            L.start()
        d1, d2, opening = self._begin(restart)
        if not restart:
            self.first = self.mover
        while (yield from self._throws(d1, d2, opening, self.max_turns)) == "swap":
            # a new game of another variant (a rotation's): the throws go on with its rules
            d1, d2, opening = self._begin(True)
        return self._finish()

    def _begin(self, restart: bool) -> tuple[int, int, bool]:
        """How a game begins: an opening throw (its dice, True), or, where the ladder said so
        (`Next` with `start = "first"`, `_next_game` having set him up), its winner throwing
        first (no dice yet, False)."""
        if restart and self._start_first:
            self._start_first = False
            return 0, 0, False
        d1, d2 = self._opening()
        if self.variant.dice_count == 3:
            # the winner of the opening throws the three dice for his first play
            return 0, 0, False
        return d1, d2, True

    def _throws(self, d1: int, d2: int, opening: bool, max_turns: int,
                passed: tuple | None = None) -> Gen:
        """The throws from the state the game is in until the play ends ("end"), the next game
        is another variant's ("swap": the caller starts again with its rules), or the game's
        throw count reaches `max_turns` ("limit"); `opening`: (d1, d2) are set, not thrown (an
        opening throw's, a stage's); `passed`: they are numbers passed on by the opponent
        (`ThrowState.passed`). Stopped by the limit, the game is between two throws (`between`
        says what the next one starts with), so that a copy of it can go on (engine/branch.py)."""
        v = self.variant
        L = self.ladder
        rules = v.rules
        gen = v.generator
        flip = v.flip
        rng = self.dice_rng.random
        keep = self.keep_record
        log = self.log
        record = self.record
        all_off = v.all_off
        # the generic throw (scoring, ladder questions) unless the distinct end positions are all
        # a throw needs: no scoring rule, no preference, the end rules decide when all are off
        hooks = v.has_roll_hooks or all_off != "end"
        score_roll = bool(rules.score_roll)
        prefer = bool(rules.prefer)
        score_play = bool(rules.score_play)
        end_rules = rules.end
        end_throw = rules.end_throw
        single_end = end_rules[0][2] if len(end_rules) == 1 and end_rules[0][1] == "mover" \
            else None
        rethrow = v.doublet_rethrow
        optional_extra = rethrow and v.extra_throw == "optional"
        throws = v.throws
        events = throws.bonus_throw is not None
        #: the file's stage rules (`[turn.stages]`)
        staged = bool(throws.stages)
        #: the named state's updates after each play (`[turn.update]`)
        updates = bool(rules.updates)
        #: whether an update reads the play's path: else the distinct end positions serve it
        path_updates = updates and self._updates_read_path()
        #: where the throws stand: the dice set for the next throw, the stage being played
        t = ThrowState(opening, d1, d2, passed)
        #: a three-dice variant's throws: d3 is the third die (0 otherwise)
        three = v.dice_count == 3
        d3 = 0
        checkers = v.checkers
        offers = L.offers_before_throw and self.offers
        ask = self.ask
        answered = self.answered
        fast = Decision("play", 0, (), self)
        answers = self._answers
        # the playout's counts, kept in locals and added to `play_counts` when the run of
        # throws ends (a run left at a yield for good, a resigned game, loses its own)
        n_plays = n_forced = n_decisions = 0
        # the playout metrics, of this game only (not of a search's copy, which shares them)
        tracker = self.metrics
        if tracker is not None and tracker.game is not self:
            tracker = None
        turns = self.turns
        how = "limit"
        #: throws in a row that moved nothing (two: maybe neither side can ever move again)
        blocked = 0
        while turns < max_turns:
            if tracker is not None:
                tracker.look(t.opening)
            if keep and turns:
                self._snapshot()
            branching = self.branching
            if branching:
                answers = self._checkpoint(t.opening, t.d1, t.d2, t.passed)
            if self._choose_due:
                # the game's choices, before its first throw, by the opening's winner (after
                # the checkpoint: a search's copy of the throw makes them again)
                yield from self._choose()
                self._choose_due = False
            if t.opening:
                d1 = t.d1
                d2 = t.d2
                if t.passed is not None:
                    # numbers passed on: a third one only where three were passed
                    d3 = passed_third(t.passed)
                t.opening = False
            else:
                if offers:
                    nxt = yield from L.before_throw()
                    if nxt is not None:
                        if self._carried(nxt, t):
                            continue
                        how = "end"
                        break
                # a third die fixed before the game (`[turn] fixed_die`): two are thrown
                fixed = v.fixed_third(self.board) if three and v.fixed_slot else 0
                if self.ask_dice:
                    # a copy of a search: the throw is a chance node, the dice its answer
                    k = yield Decision("dice", self.mover,
                                       DICE216 if three and not fixed else DICE36, self)
                    if branching:
                        answers.append(k)
                    if three and not fixed:
                        d1, d2, d3 = DICE216[k]
                    else:
                        d1, d2 = DICE36[k]
                        d3 = fixed
                else:
                    d1 = int(rng() * 6) + 1
                    d2 = int(rng() * 6) + 1
                    if three:
                        d3 = fixed or int(rng() * 6) + 1
                    if branching:
                        answers.append(dice_index(d1, d2, 0 if fixed else d3))
                t.d1 = d1
                t.d2 = d2
                t.d3 = d3
            mover = self.mover
            b = self.board
            turns += 1
            self.turns = turns
            self.rolls[mover] += 1
            self.dice = (d1, d2, d3) if three else (d1, d2)
            if keep:
                # numbers the opponent passed on are played, not thrown: the log says so
                thrown = Thrown(mover, d1, d2, b, d3, 0 if t.passed is None else t.passed[1])
                record.append(thrown)
                log.append(thrown)
            # -- the roll's points, the ladder's questions, the play ----------------------------
            passing = t.passed
            # an end rule on the throw (a loss by a throw that cannot be played) is judged on
            # the throw, before any play: where it holds, nothing is played
            thrown_end: tuple[str, str] | None = None
            if end_throw and passing is None:
                tctx = self._roll_context(b, d1, d2, d3)
                thrown_end = next(((rid, w) for rid, w, fn in end_throw
                                   if fn(b, None, None, d1, d2, self.rolls[mover], tctx)), None)
            if passing is not None:
                # numbers the opponent passed on: a stage of their own, scored by no rule
                after, unplayed, made = yield from self._passed_stage(b, d1, d2, passing[1],
                                                                      passing[0], d3)
                play_mine = play_theirs = 0
                self.board = after
            elif thrown_end is not None:
                after = b
                made = []
                play_mine = play_theirs = 0
                if keep:
                    self._log_forced(b, d1, d2, b, d3=d3)
            elif not hooks:
                # the fast path: the distinct end positions are all a throw needs
                if path_updates:
                    # (the same plays results() reads, kept for the state's updates; a way
                    # to each board is all they read)
                    made = gen.some_plays(b, d1, d2, 1, d3)[0]
                    results = [p.board for p in made]
                elif three:
                    results = gen.results(b, d1, d2, 1, d3)
                else:
                    results = gen.results(b, d1, d2)
                n = len(results)
                n_plays += n
                n_decisions += 1
                if n > 1:
                    self.choice_base = b
                    if keep:
                        self._choice_plays = None
                        d = Decision("play", mover, results, self)
                    else:
                        # no record kept (simulate, bench): one object serves every play
                        # decision of the game, each valid until it is answered
                        d = fast
                        d.player = mover
                        d.choices = results
                    i = yield d
                    if type(i) is not int or not 0 <= i < len(results):
                        i = d.index(i)
                    if branching:
                        answers.append(i)
                    if keep:
                        self._recorded(d, i)
                    after = results[i]
                else:
                    n_forced += 1
                    after = results[0]
                    if keep:
                        self._log_forced(b, d1, d2, after, d3=d3)
            else:
                ctx = self._roll_context(b, d1, d2, d3)
                rolls = self.rolls[mover]
                if score_roll:
                    mine, theirs = self.count(rules.roll_items(b, d1, d2, rolls, ctx), mover)
                else:
                    mine = theirs = 0
                self.pending = (mine, theirs)
                nxt = yield from L.on_roll(mine, theirs)
                if nxt is not None:
                    if self._carried(nxt, t):
                        continue
                    how = "end"
                    break
                if not (prefer or score_play):
                    results = gen.results(b, d1, d2, 1, d3) if three else gen.results(b, d1, d2)
                    plays = None
                else:
                    plays = rules.prefer_plays(b, ctx.plays, d1, d2, rolls, ctx) \
                        if ctx.plays else []
                    results = [p[0] for p in plays] or [b]
                n = len(results)
                n_plays += n
                n_decisions += 1
                if n > 1:
                    self.choice_base = b
                    if keep:
                        self._choice_plays = plays if plays is not None \
                            else self._plays_to(b, d1, d2, results, d3)
                    if plays is not None and score_play:
                        cache: dict[int, list] = {}

                        def items_of(i: int, plays=plays, b=b, d1=d1, d2=d2, rolls=rolls,
                                     ctx=ctx, cache=cache) -> list:
                            if i not in cache:
                                cache[i] = rules.play_items(b, plays[i], d1, d2, rolls, ctx)
                            return cache[i]
                        self._choice_items = items_of
                    i = answered((d := ask("play", mover, results)), (yield d))
                    self._choice_items = None
                else:
                    n_forced += 1
                    i = 0
                    if keep:
                        self._log_forced(b, d1, d2, results[0], plays, d3)
                after = results[i]
                if score_play and plays:
                    play_mine, play_theirs = self.count(
                        rules.play_items(b, plays[i], d1, d2, rolls, ctx), mover)
                else:
                    play_mine = play_theirs = 0
                if all_off == "restack" and after[0] == checkers and plays:
                    after, m2, t2 = yield from self._restack(b, plays[i], after, rolls, ctx)
                    play_mine += m2
                    play_theirs += t2
                self.pending = (mine + play_mine, theirs + play_theirs)
                self.board = after
            #: the play's board, before the named state's updates
            moved = after
            if after != b:
                blocked = 0
            elif passing is None:
                blocked += 1
                if blocked >= 2 and not end_throw and self._dead(b):
                    # neither side can ever move again (each has just failed to), and no rule
                    # ends the game: the throws would change nothing for ever (Doze canes
                    # with its men run past the goal)
                    if keep:
                        log.append(Played(mover, after))
                    how = "dead"
                    break
            if updates:
                after = self._updated(b, after, d1, d2,
                                      made if passing is not None or (not hooks and path_updates)
                                      else ctx.plays if hooks else None, d3)
                self.board = after
            if keep:
                log.append(Played(mover, after))
            # -- the end rules --------------------------------------------------------------------
            ended: str | None = None
            end_id = ""
            if thrown_end is not None:
                end_id, ended = thrown_end
            if ended is None and end_rules:
                if single_end is not None:
                    ended = "mover" if single_end(after) else None
                else:
                    ended = rules.game_over(after)
                if ended is not None:
                    end_id = end_rules[0][0] if single_end is not None else \
                        next(rid for rid, _w, fn in end_rules if fn(after))
            if ended == "none":
                # a tie: the game ends without a winner and scores nothing
                self.board = after
                # counted with the side whose play made it hold (no side wins it)
                self.fire(end_id, mover)
                self.event(Tied, end_id)
                if tracker is not None:
                    tracker.ended(None, after, mover)
                if self._carried(L.game_tied(), t):
                    continue
                how = "end"
                break
            if ended is not None:
                self.board = after
                winner = mover if ended == "mover" else 1 - mover
                seen = after if winner == mover else flip(after)
                k, rule_id = self.game_value(seen)
                self.fire(end_id, winner)
                self.fire(rule_id, winner)
                self.event(Ended, winner, k, end_id, rule_id)
                if tracker is not None:
                    tracker.ended(winner, after, mover)
                if self._carried(L.game_end(winner, k), t):
                    continue
                how = "end"
                break
            # -- the ladder's marking and what happens next ------------------------------------
            if hooks:
                nxt = yield from L.on_play(play_mine, play_theirs)
                if nxt is not ON:
                    if self._carried(nxt, t):
                        continue
                    how = "end"
                    break
                if all_off == "releve" and after[0] == checkers:
                    L.on_all_off()
                    self._relevé(mover)
                    continue
            # -- the stages of the throw: passed numbers, a stage rule's, a roll event's ----------
            if passing is not None:
                self._after_passed(t, b, d1, d2, unplayed, passing[0])
                self.board = after
                if getattr(passing[0], "instead_of_throw", False):
                    # the numbers passed were his turn: the other player throws next
                    t.passed = None
                    self.board = flip(after)
                    self.mover = 1 - mover
                continue
            if staged:
                follows = self._next_stage(t, b, d1, d2, mover, moved, d3)
                if follows:
                    self.board = after
                    if follows == AGAIN:
                        # the stage rule's extra throw: the same player throws again
                        self.extra = True
                        continue
                    if t.passed is None:
                        continue
                    # the rest goes to the opponent, who plays it before his own throw
                    self.board = flip(after)
                    self.mover = 1 - mover
                    self.rolls[1 - mover] -= 1
                    continue
                self.extra = False
            if events:
                if t.stage is not None or throws.is_bonus_throw(d1, d2):
                    following = throws.next(t.stage, d1, d2, gen.plays(b, d1, d2)[1])
                    if following != "end":
                        if following == "doublet":
                            # the doublet is named with the 1-2 on the board
                            self.board = after
                            d = ask("doublet", mover, DOUBLET_CHOICES)
                            t.named = answered(d, (yield d)) + 1
                        if following == "reroll":
                            t.stage = None
                            self.extra = True
                        else:
                            # the stage's dice are set, not thrown (as an opening's), and the
                            # stage is no throw of its own: the count of throws is kept
                            t.stage = following
                            t.d1, t.d2 = throws.stage_dice(following, t.named)
                            t.opening = True
                            self.rolls[mover] -= 1
                        self.board = after
                        continue
                    t.stage = None
                self.extra = False
            if rethrow:
                if d1 == d2:
                    if optional_extra:
                        d = ask("rethrow", mover, ("throw", "pass"))
                        if answered(d, (yield d)) == 0:
                            self.extra = True
                            continue
                    else:
                        self.extra = True
                        continue
                self.extra = False
            self.board = flip(after)
            self.mover = 1 - mover
        counts = self.play_counts
        counts[0] += n_plays
        counts[1] += n_forced
        counts[2] += n_decisions
        if self._swapping:
            self._swapping = False
            return "swap"
        self.between = (t.opening, t.d1, t.d2)
        self.between_passed = t.passed
        return how

    def _choose(self) -> Gen:
        """The choices of `[turn.choose]`, made before the first throw of a game by the player
        on roll (who won the opening throw): each sets his value of a named state and his
        opponent's, on the board as seen by him."""
        for rule in self.variant.choices:
            self.choosing = rule
            d = self.ask("choose", self.mover, rule.labels)
            i = self.answered(d, (yield d))
            L = list(self.board)
            L[rule.mine] = rule.values[i]
            L[rule.other] = rule.theirs[i]
            self.board = tuple(L)
        self.choosing = None

    def _roll_context(self, b: Board, d1: int, d2: int, d3: int = 0,
                      rolls: int = 1) -> RollContext:
        """What the rules of a throw from `b` may ask beyond the board and dice: its plays on
        demand (three dice with `d3`), the set-up count, the third die."""
        gen = self.variant.generator
        # (three dice: the numbers left are counted on one way to each end position, the
        # walk of every way kept for the rules that read the plays)
        return RollContext(partial(gen.plays, b, d1, d2, rolls, d3) if d3 else
                           partial(gen.plays, b, d1, d2, rolls), setup=self.setup, d3=d3,
                           unplayed_fn=partial(gen.some_plays, b, d1, d2, rolls, d3)
                           if d3 else None)

    def _dead(self, b: Board) -> bool:
        """Whether no number moves anything for either side on `b` (the mover's view) and the
        end rules do not end the game there: nothing can ever change again. The answer is the
        position's alone: the variant keeps it for every game (`DEAD_MEMO` positions)."""
        v = self.variant
        memo = v.__dict__.get("_dead_memo")
        if memo is None:
            memo = v.__dict__["_dead_memo"] = {}
        dead = memo.get(b)
        if dead is not None:
            return dead
        gen = v.generator
        other = v.flip(b)
        # (the opponent first: where the mover alone is shut out, his first number moves)
        dead = all(gen.single_plays(x, d)[0].board == x for x in (other, b)
                   for d in range(6, 0, -1)) and v.rules.game_over(b) is None
        if len(memo) >= DEAD_MEMO:
            memo.clear()
        memo[b] = dead
        return dead

    def _updates_read_path(self) -> bool:
        """Whether one of the file's updates of the named state may read the play's path (each
        is asked with the first way to the play's board): else none needs the plays."""
        got = self.__dict__.get("_path_updates")
        if got is None:
            got = self._path_updates = any(
                reads_path(fn) for _name, _slot, _flag, fn in self.variant.rules.updates)
        return got

    def _updated(self, b: Board, after: Board, d1: int, d2: int, plays: list | None,
                 d3: int = 0) -> Board:
        """`after` with the mover's named state (`[turn.state]`) as the file's updates set it
        after the play from `b` with (d1, d2) (`plays`: the throw's legal plays, when known):
        each asked like a forbid rule of the play (its first way), reading the values before
        the play. The opponent's values are kept."""
        v = self.variant
        if after != b and plays is None and self._updates_read_path():
            plays = v.generator.throw_plays(b, d1, d2, d3)[0]
        return updated(v.rules.updates, b, after, plays or (), d1, d2, self.rolls[self.mover])

    def _carried(self, nxt: Next, t: ThrowState) -> bool:
        """Carry out what a ladder said in the middle of a throw (`_carry`): the throw's stages
        are over; False when the play is over, True when the throws go on (a new game's opening
        throw drawn into `t`)."""
        t.stage = None
        t.passed = None
        c = self._carry(nxt)
        if c == 0:
            return False
        if c == 2:
            t.d1, t.d2 = self._opening()
            # with three dice the winner of the opening throws them for his first play
            t.opening = self.variant.dice_count != 3
        return True

    def _next_stage(self, t: ThrowState, b: Board, d1: int, d2: int, mover: int,
                    moved: Board, d3: int = 0) -> int:
        """After a throw or stage (d1, d2) played from `b` to `moved`: what a stage rule of the
        file (`[turn.stages]`) makes follow: a stage, set in `t`, by the same player
        (`t.opening`, the count of throws kept) or, the numbers left passed on, by the opponent
        (`t.passed`): STAGE; another throw of the same player (the rule's `again`, the throw
        played in full): AGAIN; or nothing: 0."""
        throws = self.variant.throws
        rolls = self.rolls[mover]
        ctx = self._roll_context(b, d1, d2, d3, rolls)
        # what the rule may ask of the play made (`unstacking`, `home_after`)
        ctx.unstacking, ctx.home_after = self.variant.generator.play_facts(b, moved)
        rule = throws.stage_rule(b, d1, d2, rolls, ctx)
        if rule is None:
            return 0
        unplayed = ctx.unplayed
        if unplayed and d3 and rule.to_opponent is not None:
            if not rule.to_opponent(b, None, None, d1, d2, rolls, ctx):
                return 0
            # a throw of three: the numbers the play made did not use, the highest first (two
            # ways to one position use the same numbers: one way to each is enough)
            plays = self.variant.generator.some_plays(b, d1, d2, rolls, d3)[0]
            made = next((p for p in plays if p.board == moved), plays[0] if plays else None)
            left = [d1, d2, d3]
            for st in (made.paths[0] if made is not None and made.paths else ()):
                if st[2] in left:
                    left.remove(st[2])
            numbers = tuple(sorted(left, reverse=True))
            moves = len(numbers)
            t.passed = (rule, moves, numbers)
            t.d1, t.d2 = numbers[0], numbers[1] if moves > 1 else numbers[0]
            t.opening = True
            for e in sorted(set(numbers), reverse=True):
                self.event(Passed, mover, e, numbers.count(e))
            return STAGE
        if unplayed:
            if rule.to_opponent is None or not rule.to_opponent(b, None, None, d1, d2, rolls, ctx):
                # (`again_partial`: the rule's `again` is asked of a throw played in part too)
                if rule.again is not None and getattr(rule, "again_partial", False) \
                        and rule.to_opponent is None \
                        and rule.again(b, None, None, d1, d2, rolls, ctx):
                    return AGAIN
                return 0
            path: Any = ()
            if d1 != d2 and unplayed == 1:
                # which number is left: the one the play made did not use
                plays = ctx.plays
                made = next((p for p in plays if p.board == moved), plays[0] if plays else None)
                path = made.paths[0] if made is not None else ()
            e1, e2, moves = numbers_left(d1, d2, unplayed, path)
            t.passed = (rule, moves)
            t.d1, t.d2 = e1, e2
            t.opening = True
            if e1 == e2:
                self.event(Passed, mover, e1, moves)
            else:
                self.event(Passed, mover, e1, 1)
                self.event(Passed, mover, e2, 1)
            return STAGE
        e = 0 if rule.next is None else int(rule.next(b, None, None, d1, d2, rolls, ctx))
        if not 1 <= e <= 6:
            # (a play that ended the game never comes here: the end rules came first)
            if rule.again is not None and rule.again(b, None, None, d1, d2, rolls, ctx):
                return AGAIN
            return 0
        t.d1 = t.d2 = e
        t.opening = True
        self.rolls[mover] -= 1
        return STAGE

    def _passed_stage(self, b: Board, d1: int, d2: int, moves: int, rule: Any = None,
                      d3: int = 0) -> Gen:
        """The play of numbers passed on by the opponent: `moves` single moves of `d1` when
        `d2` is the same, else the two numbers (three with `d3`) as a throw of their own (as
        many moves as can be played; with the rule's `optional`, any of them in any order, or
        none; with its `moves = "bear_off"`, only unstacking or bearing off): (board after,
        how many could not be played, the stage's plays)."""
        gen = self.variant.generator
        mover = self.mover
        if rule is not None and getattr(rule, "optional", False):
            plays, unplayed = gen.optional_plays(b, d1, d2, moves if d1 == d2 else 2,
                                                 self.rolls[mover], d3,
                                                 getattr(rule, "moves", "any") == "bear_off")
        elif d1 == d2:
            plays, unplayed = gen.stage_plays(b, d1, moves, self.rolls[mover])
        else:
            plays, unplayed = gen.plays(b, d1, d2, self.rolls[mover])
        results = [p.board for p in plays]
        if len(results) > 1:
            self.choice_base = b
            self._choice_plays = plays
            self._plays_fixed = True
            try:
                i = self.answered((dec := self.ask("play", mover, results)), (yield dec))
            finally:
                self._plays_fixed = False
        else:
            i = 0
            if self.keep_record:
                self._log_forced(b, d1, d2, results[0], plays)
        return results[i], unplayed, plays

    def _after_passed(self, t: ThrowState, b: Board, d1: int, d2: int, unplayed: int,
                      rule: Any) -> None:
        """After a stage of passed numbers (d1, d2): the stage the rule's `next` gives (four
        moves of its number: the progression's next higher doublet), when it was played in
        full; else the player's own throw follows."""
        t.passed = None
        if unplayed or rule.next is None:
            return
        mover = self.mover
        ctx = RollContext(lambda: ([], 0), setup=self.setup)
        e = int(rule.next(b, None, None, d1, d2, self.rolls[mover], ctx))
        if 1 <= e <= 6:
            t.passed = (rule, self.variant.move_rules.doublet_moves)
            t.d1 = t.d2 = e
            t.opening = True
            self.rolls[mover] -= 1      # a stage of passed numbers is no throw of his

    def _finish(self) -> GameResult:
        """The result of the play, once it is over (or stopped by `max_turns`)."""
        L = self.ladder
        if self.keep_record and self.turns:
            self._snapshot()
        self.result = result = L.result()
        result.ladder = L
        result.first = self.first
        result.scored = self.scored
        result.rule_points = self.rule_points
        result.lead_changes = self.lead_changes
        c = self.play_counts
        result.play_counts = (c[0], c[1], c[2])
        tracker = self.metrics
        if tracker is not None and tracker.game is self:
            tracker.finish(result.winner)
            result.metrics = tracker.summary()
            if tracker.by_pips:
                # a race's lead is its pip count (nothing scores)
                result.lead_changes = tracker.changes
        return result

    def _snapshot(self) -> None:
        """The running score of every ladder after a throw, in the log (once per throw)."""
        log = self.log
        i = len(log) - 1
        while i >= 0 and not isinstance(log[i], (Thrown, After)):
            i -= 1
        if i >= 0 and isinstance(log[i], Thrown):
            log.append(After(self.ladder.sides()))

    def _carry(self, nxt: Next) -> int:
        """Carry out what a ladder said: 0 when the play is over, 1 to go on, 2 when a new game
        begins with an opening throw (to be drawn)."""
        self.extra = False
        if nxt.how == "end":
            return 0
        if nxt.how == "releve":
            self._relevé(nxt.who)   # type: ignore[arg-type]
            return 1
        opening = self._next_game(nxt)
        if self._swapping:
            return 0
        return 2 if opening else 1

    def _next_game(self, nxt: Next) -> bool:
        """A new game begins: True when it begins with an opening throw (to be drawn). A game
        of another variant ends this run of the throws (`_swapping`: `_carry` says 0), which
        start again with that variant's rules."""
        tracker = self.metrics
        if tracker is not None and tracker.game is self:
            tracker.new_game()
        if nxt.variant is not None and nxt.variant is not self.variant:
            self.variant = nxt.variant
            self._swapping = True
        v = self.variant
        self._start_first = nxt.start == "first"
        self.event(NewGame, nxt.start, nxt.who)
        if nxt.start == "continue":
            self.board = v.flip(self.board)
            self.mover = 1 - self.mover
            return False
        self.setup += 1
        self.rolls = [0, 0]
        if nxt.start == "first":
            self.mover = nxt.who     # type: ignore[assignment]
            self.board = v.start_of(nxt.who)
            self._choose_due = bool(getattr(v, "choices", ()))
            return False
        return True

    def _restack(self, b: Board, play: Play, after: Board, rolls: int, ctx: Any) -> Gen:
        """The last man is off: the men go back on the start and a number left over enters a
        man. Where the play could leave either number (or none), the player chooses among the
        results; a leftover that cannot be entered is lost only if no way plays every number.
        Returns (board, mover's points, opponent's points) of the entering move."""
        v = self.variant
        rules = v.rules
        d1, d2 = self.dice[0], self.dice[1]
        mover = self.mover
        base = v.restacked(after)
        self.event(Restacked, mover)
        options: dict[Board, tuple[bool, list, Any]] = {}
        for d in sorted(leftover_numbers(play, d1, d2), key=lambda x: x or 0):
            if d is None:
                options.setdefault(base, (True, [], None))
                continue
            for entry in v.generator.single_plays(base, d):
                played = bool(entry.paths[0])
                extra = [it for it in rules.play_items(base, entry, d1, d2, rolls, ctx)
                         if it[1] == "mover"] if played else []
                if entry.board not in options or (played and not options[entry.board][0]):
                    options[entry.board] = (played, extra, entry)
        if any(full for full, _, _ in options.values()):
            options = {bd: o for bd, o in options.items() if o[0]}
        boards = list(options)
        i = 0
        if len(boards) > 1:
            self.choice_base = base
            if self.keep_record:
                self._choice_plays = [options[bd][2] or Play(base, ((),)) for bd in boards]
            self._choice_items = lambda k: options[boards[k]][1]
            asked = self.ask("enter", mover, boards)
            i = self.answered(asked, (yield asked))
            self._choice_items = None
        chosen = boards[i]
        mine, theirs = self.count(options[chosen][1], mover)
        return chosen, mine, theirs

    # -- the record of plays that needed no decision -----------------------------------------------

    def _plays_to(self, b: Board, d1: int, d2: int, results: Sequence, d3: int = 0) -> list:
        """The kernel plays in the order of `results` (for their notation)."""
        plays, _ = self.variant.generator.throw_plays(b, d1, d2, d3)
        by_board = {p.board: p for p in plays}
        return [by_board.get(r, Play(r, ((),))) for r in results]

    def _log_forced(self, b: Board, d1: int, d2: int, after: Board,
                    plays: list | None = None, d3: int = 0) -> None:
        """The only legal play, in the log (not a decision: the record does not hold it)."""
        if after == b:
            text = "-"
        else:
            if plays is None:
                plays = self.variant.generator.throw_plays(b, d1, d2, d3)[0]
            path = next((p.paths[0] for p in plays if p.board == after), ())
            text = play_text(b, path, self.variant.geometry)
        self.log.append(Forced(self.mover, text))


class _EndContext:
    """What end and value rules may read beyond the board: the ladder's points of the side the
    board is seen by, and of the other (`my_points`, `their_points` in the rule language)."""

    __slots__ = ("points",)

    def __init__(self, points: tuple[int, int]):
        self.points = points


def value_of(variant: Any, b: Board, points: tuple[int, int] = (0, 0)) -> tuple[int, str | None]:
    """What a game won on board `b` (seen by its winner) is worth by the variant's value rules,
    `points` (the winner's, the loser's) on the ladder: the highest value rule that holds (1
    when none), and its id."""
    best, best_id = 1, None
    ctx = _EndContext(points)
    for rule_id, when, value in variant.rules.value:
        if when(b, None, None, 0, 0, 0, ctx):
            v = int(value(b, None, None, 0, 0, 0, ctx))
            if v > best:
                best, best_id = v, rule_id
    return best, best_id


def leftover_numbers(play: Play, d1: int, d2: int) -> set[int | None]:
    """The number each way of `play` leaves unplayed (None: both played). A way that bears the
    last man off with one number leaves the other."""
    out: set[int | None] = set()
    for path in play.paths:
        if len(path) >= 2 or not path:
            out.add(None)
        elif d1 == d2:
            out.add(d1)
        else:
            out.add(d2 if path[0].die == d1 else d1)
    return out
