"""The runner of the `continuous` ladder: the 12-point Tric-Trac's continuous match
(rules/tric-trac-12.md, rules/match-scoring.md §6.1).

Each throw: the player chooses a play; its points (the variant's `on = "play"` score rules) go
to the match, the mover's first, then the opponent's; a player whose fifteenth man is borne off
restacks his men on the Start at once (not a move) and plays a number left over as an entering
move. A throw that wins a game forfeits a pending extra throw; the winner then goes away (the
next game starts from the initial position) or continues from the position, and the next game
of the match begins. Otherwise a doublet gives the same player another throw (compulsory, or his
choice under `doublet_rethrow = "optional"`).

Who throws next after a won game: after "continue", the opponent of the player who made the
winning throw, as usual; after "go", the winner throws two dice (`restart = "winner_throws"`) or
both throw one die as at the first game (`restart = "roll_off"`).

Bots decide with `advise()`: continue when the winner's excess plus his lead in men about to be
borne off and in standing side primes is positive, else go away; always take an optional extra
throw.
"""
from __future__ import annotations

from interpreter.dsl import points_by_side
from interpreter.engine.game import SIDE_NAMES, WHITE, Game, GameResult
from interpreter.kernel.board import Board, flip
from interpreter.kernel.movegen import Play
from interpreter.scoring.twelve import CONTINUE, GO, ContinuousMatch

#: pips from which one number can bear a man off when Home is pip 1 (a six reaches from pip 7)
NEAR_HOME = range(2, 8)
#: the side prime (own corner and points 7-11) for the bots' judgement of a position
SIDE_PRIME = range(13, 19)


def restack(b: Board, checkers: int) -> Board:
    """All the mover's men back on his Start (pip 24): the board after his last man is off."""
    L = list(b)
    L[0] = 0
    L[24] += checkers
    return tuple(L)


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


def advise(game: Game, match: ContinuousMatch, question: str) -> str:
    """A sensible answer for bots (see the module docstring)."""
    if question == "continue":
        entry = match.pending
        if entry is None:
            return GO
        b = game.board if game.mover == entry.winner else flip(game.board)
        near = (sum(b[p] for p in NEAR_HOME if b[p] > 0)
                - sum(-b[25 - p] for p in NEAR_HOME if b[25 - p] < 0))
        prime = (int(all(b[p] >= 2 for p in SIDE_PRIME))
                 - int(all(b[25 - p] <= -2 for p in SIDE_PRIME)))
        return CONTINUE if entry.excess + near + 2 * prime > 0 else GO
    if question == "rethrow":
        return "throw"
    return GO


class _Turn:
    """One throw of the mover: the legal plays, their points (computed when asked), the choice."""

    def __init__(self, game: Game, b: Board, d1: int, d2: int):
        self.game = game
        self.b = b
        self.d1, self.d2 = d1, d2
        v = game.variant
        self.rules = v.rules
        self.rolls = game.rolls[game.mover]
        self.ctx = game.roll_context(b, d1, d2)
        self.items = self.rules.roll_items(b, d1, d2, self.rolls, self.ctx)
        self.plays = self.rules.prefer_plays(b, self.ctx.plays, d1, d2, self.rolls, self.ctx)
        self._points: dict[int, list] = {}

    def play_items(self, i: int) -> list:
        if i not in self._points:
            self._points[i] = self.rules.play_items(self.b, self.plays[i], self.d1, self.d2,
                                                    self.rolls, self.ctx)
        return self._points[i]

    def play_points(self, i: int) -> int:
        """The mover's points minus the opponent's for play `i` (for the greedy bot)."""
        return sum(p if to == "mover" else -p for _r, to, p, _w in self.play_items(i))


def _choose(game: Game, turn: _Turn) -> int:
    if len(turn.plays) <= 1:
        return 0
    game.board = turn.b
    game.play_points = turn.play_points              # type: ignore[attr-defined]
    return game.players[game.mover].choose(game, [p.board for p in turn.plays])


def play_throw(game: Game, b: Board, d1: int, d2: int) -> tuple[Board, list]:
    """The mover's throw: his choice of play, its points, and a restack (with the entering move
    of a number left over) when it bears his last man off."""
    turn = _Turn(game, b, d1, d2)
    if not turn.plays:
        return b, turn.items
    i = _choose(game, turn)
    play = turn.plays[i]
    after = play.board
    items = turn.items + turn.play_items(i)
    checkers = game.variant.checkers
    if after[0] != checkers:
        return after, items
    return _restack_throw(game, turn, play, items)


def _restack_throw(game: Game, turn: _Turn, play: Play, items: list) -> tuple[Board, list]:
    """The last man is off: the men go back on the Start and a number left over enters a man.
    Where the play could leave either number (or none), the player chooses among the results;
    a leftover that cannot be entered is lost only if no way plays every number."""
    v = game.variant
    gen = v.generator
    base = restack(play.board, v.checkers)
    options: dict[Board, tuple[bool, list]] = {}
    for d in sorted(leftover_numbers(play, turn.d1, turn.d2), key=lambda x: x or 0):
        if d is None:
            options.setdefault(base, (True, []))
            continue
        for entry in gen.single_plays(base, d):
            played = bool(entry.paths[0])
            extra = [it for it in turn.rules.play_items(base, entry, turn.d1, turn.d2,
                                                         turn.rolls, turn.ctx)
                     if it[1] == "mover"] if played else []
            if entry.board not in options or (played and not options[entry.board][0]):
                options[entry.board] = (played, extra)
    if any(full for full, _ in options.values()):
        options = {bd: o for bd, o in options.items() if o[0]}
    boards = list(options)
    i = 0
    if len(boards) > 1:
        game.board = base
        points = [sum(p for _r, _to, p, _w in options[bd][1]) for bd in boards]
        game.play_points = points.__getitem__      # type: ignore[attr-defined]
        i = game.players[game.mover].choose(game, boards)
    chosen = boards[i]
    return chosen, items + options[chosen][1]


def run_continuous(game: Game) -> GameResult:
    """Play the match (or the single game, with `match_games = 1`) to its end or `max_turns`.

    A match in progress may be handed over as `game.match`: its points and won games are kept,
    and play goes on from the board and the player that `game.start()` gives."""
    v = game.variant
    ladder = v.ladder
    match = getattr(game, "match", None) or ContinuousMatch(ladder)
    game.match = match                                           # type: ignore[attr-defined]
    game.advice = lambda question: advise(game, match, question)  # type: ignore[method-assign]
    optional = v.option("doublet_rethrow", "compulsory") == "optional"
    rethrow = v.doublet_rethrow
    players = game.players
    extra_throw = False
    game_turns = 0
    d1, d2 = game.start()
    mover = game.mover
    b = game.board
    while game.turns < game.max_turns:
        game.begin_turn(mover, b, d1, d2)
        game_turns += 1
        b, items = play_throw(game, b, d1, d2)
        game.count_fired(items)
        mine, theirs = points_by_side(items)
        winner = match.score(mover, mine, theirs)
        game.board = b
        if winner is not None:
            decision = None
            if not match.is_last_game:
                decision = players[winner].decide(game, CONTINUE, (CONTINUE, GO))
                if decision not in (CONTINUE, GO):
                    decision = GO
            match.resolve(decision, game_turns)
            game._record(mover, d1, d2, b, items, decision)
            game_turns = 0
            extra_throw = game.extra_throw = False   # type: ignore[attr-defined]  # forfeited
            if match.finished:
                break
            if decision == CONTINUE:
                b = flip(b)
                mover = 1 - mover
            elif ladder.restart == "winner_throws":
                game._releve()
                mover = winner
                b = v.start if winner == WHITE else flip(v.start)
            else:
                game._releve()
                game.board = v.start
                d1, d2 = game.start()
                mover, b = game.mover, game.board
                continue
            game.board, game.mover = b, mover
            d1, d2 = game._next_dice()
            continue
        extra_throw = bool(rethrow and d1 == d2)
        decision = None
        if extra_throw and optional:
            decision = players[mover].decide(game, "rethrow", ("throw", "pass"))
            extra_throw = decision == "throw"
        game._record(mover, d1, d2, b, items, decision)
        game.extra_throw = extra_throw                           # type: ignore[attr-defined]
        if not extra_throw:
            b = flip(b)
            mover = 1 - mover
        game.board, game.mover = b, mover
        d1, d2 = game._next_dice()
    game.board, game.mover = b, mover
    return _result(game, match, extra_throw)


def _result(game: Game, match: ContinuousMatch, extra_throw: bool) -> GameResult:
    totals = match.totals()
    winner = match.winner()
    finished = match.finished
    value = abs(totals[0] - totals[1]) if finished else 0
    game.points = totals
    result = GameResult(finished, winner, value, game.turns, totals, game.fired, game.record)
    summary = match.summary(SIDE_NAMES)
    summary["state"] = {"extra_throw": extra_throw and not finished,
                        "on_roll": SIDE_NAMES[game.mover]}
    result.extra = summary
    return result

