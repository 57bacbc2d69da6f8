"""The runner of the `cube` ladder: backgammon with the doubling cube, as money play (one game)
or as a match to N points (rules/match-scoring.md §7).

Each game starts with the opening roll-off (whose ties double the cube under automatic doubles,
money play only) and the first player plays the numbers of the roll-off. From then on, before
each roll, the player on roll who may double is asked; a double is answered by the opponent,
and in money play with beavers an answer may be an instant redouble, answered in turn:

    question   asked of                             choices
    "double"   the player on roll, before rolling  ("roll", "double")
    "take"     the player doubled (or beavered)    ("take", "pass"[, "beaver" | "raccoon"])

A pass ends the game at the value before the offer; a game played out is worth the cube times
the value rules' 1, 2 or 3 (the Jacoby rule in money play). A match goes on game after game
(the Crawford game without the cube) until a player has N points.

Bot policies. The random bot never doubles and never beavers: it is not asked the "double"
question and is not offered the instant redoubles; it takes or passes at random. Every other
player is asked; the greedy bot follows `advise`, a race and position heuristic:

* In a race (no contact), the roller's lead is (opponent's pips − his pips) / his pips, and the
  8-9-12 rule of thumb applies: double at a lead of 8 % (9 % to redouble), take up to 12 %,
  beaver a double made with a lead of −2 % or less.
* With contact, the lead is the difference between `evaluate` (players/bots.py) of the position
  for the roller and for his opponent: double at `CONTACT_DOUBLE` (redouble at
  `CONTACT_REDOUBLE`), take up to `CONTACT_TAKE`, beaver at `-CONTACT_BEAVER`. The thresholds
  were set from greedy self-play, where these leads give the roller about 70 %, 72 %, 79 % and
  43 % of the games.
* In a match: no double when the current cube already wins the match (a dead cube); after the
  Crawford game the trailer doubles at once when the leader needs one point; a player takes
  whenever passing would lose the match.

`match_record(variant, result)` writes a played match as a `.mat` record (interpreter/io/mat.py),
each play written with a path of legal steps that reaches the chosen position.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.game import SIDE_NAMES, WHITE, Game, GameResult
from interpreter.kernel.board import BAR, OPP_BAR, Board, flip
from interpreter.scoring.cube import (
    BEAVER,
    DOUBLE_CHOICES,
    PASS,
    RACCOON,
    TAKE,
    Cube,
    CubeLadder,
    GameEntry,
    Match,
)

DOUBLE, ROLL = "double", "roll"

#: race thresholds (the roller's pip lead over his own pip count), the 8-9-12 rule of thumb
RACE_DOUBLE, RACE_REDOUBLE, RACE_TAKE, RACE_BEAVER = 0.08, 0.09, 0.12, 0.02
#: contact thresholds, on the scale of `evaluate` (roller's value minus the opponent's)
CONTACT_DOUBLE, CONTACT_REDOUBLE, CONTACT_TAKE, CONTACT_BEAVER = 6.0, 7.0, 9.0, 3.0


# --------------------------------------------------------------------------------------------
# The game log (for `.mat` files)

@dataclass
class RollEvent:
    player: int
    dice: tuple[int, int]
    before: Board           # the mover's view before the play
    after: Board            # the mover's view after it


@dataclass
class CubeEvent:
    player: int
    what: str               # "double", "beaver", "raccoon", "take" or "pass"
    value: int = 0          # the value offered (doubles only)


@dataclass
class GameLog:
    number: int
    score_before: tuple[int, int]
    events: list[RollEvent | CubeEvent] = field(default_factory=list)
    entry: GameEntry | None = None


@dataclass
class CubeResult(GameResult):
    """A played match (or money game): the game's result plus the match and, with
    `keep_record`, each game's events."""

    match: Match | None = None
    logs: list[GameLog] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# The opening roll-off, with its ties counted

def opening(rng: random.Random, mode: str) -> tuple[int, int, int, int]:
    """(player, d1, d2, ties): who plays first, with which dice, after how many tied throws.
    It draws from `rng` exactly what `engine.game.opening_roll` draws."""
    ties = 0
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a == b:
            ties += 1
            continue
        first = WHITE if a > b else 1
        if mode == "one_die_each":
            return first, max(a, b), min(a, b), ties
        if mode == "winner_throws_two":
            return first, rng.randint(1, 6), rng.randint(1, 6), ties
        return rng.randrange(2), max(a, b), min(a, b), ties


# --------------------------------------------------------------------------------------------
# The greedy bot's cube policy

def _pips(b: Board) -> tuple[int, int]:
    mine = 25 * b[BAR] + sum(p * b[p] for p in range(1, 25) if b[p] > 0)
    theirs = 25 * b[OPP_BAR] + sum((25 - p) * -b[p] for p in range(1, 25) if b[p] < 0)
    return mine, theirs


def is_race(b: Board) -> bool:
    """No contact: every checker of the mover has passed every checker of the opponent."""
    if b[BAR] or b[OPP_BAR]:
        return False
    back = max((p for p in range(1, 25) if b[p] > 0), default=0)
    front = min((p for p in range(1, 25) if b[p] < 0), default=25)
    return back < front


def lead(variant: Any, b: Board) -> tuple[bool, float]:
    """(race, lead) of the player on roll, `b` seen by him (see the module docstring)."""
    from interpreter.players.bots import evaluate

    if is_race(b):
        mine, theirs = _pips(b)
        return True, (theirs - mine) / max(mine, 1)
    return False, evaluate(variant, b) - evaluate(variant, flip(b))


def advise(game: Game, question: str) -> str:
    """The greedy bot's answer to a cube question (module docstring)."""
    cube: Cube | None = getattr(game, "cube", None)
    match: Match | None = getattr(game, "match", None)
    if cube is None or match is None:
        return ROLL
    roller = game.mover
    race, edge = lead(game.variant, game.board)
    length = match.length
    if question == "double":
        if length:
            if match.away(roller) <= cube.value:
                return ROLL                     # the cube already wins the match
            if match.away(1 - roller) == 1 and not cube.crawford:
                return DOUBLE                   # post-Crawford: the trailer doubles at once
        centred = cube.owner is None
        if race:
            need = RACE_DOUBLE if centred else RACE_REDOUBLE
        else:
            need = CONTACT_DOUBLE if centred else CONTACT_REDOUBLE
        return DOUBLE if edge >= need else ROLL
    if question == "take":
        p = cube.pending
        if p is None:
            return TAKE
        me = p.to
        if length and match.away(p.doubler) <= p.value // 2:
            return TAKE                         # passing would lose the match
        # the last offerer's edge: the roller's, or its opposite when the roller is answering
        offerer_edge = edge if p.doubler == roller else -edge
        take, beaver = (RACE_TAKE, RACE_BEAVER) if race else (CONTACT_TAKE, CONTACT_BEAVER)
        if offerer_edge <= -beaver and cube.may_redouble_instantly(me):
            return BEAVER if p.instant == 0 else RACCOON
        return TAKE if offerer_edge <= take else PASS
    return ROLL


def asks_cube(player: Any) -> bool:
    """Whether `player` is asked to double (and offered beavers): not the random bot."""
    return getattr(player, "name", None) != "random"


# --------------------------------------------------------------------------------------------
# The runner

def run_cube(game: Game) -> GameResult:
    """Play money play's game, or the match, to its end or `max_turns`. A match in progress may
    be handed over as `game.match`."""
    ladder: CubeLadder = game.variant.ladder
    match: Match = getattr(game, "match", None) or Match(ladder)
    asks = (asks_cube(game.players[0]), asks_cube(game.players[1]))
    # the players who may be asked see the match and the cube as `game.match` and `game.cube`;
    # between random bots the game is left as it is (new attributes slow the playouts down)
    shown = asks[0] or asks[1]
    if shown:
        game.match = match                                    # type: ignore[attr-defined]
        game.advice = lambda question: advise(game, question)  # type: ignore[method-assign]
    logs: list[GameLog] = []
    while not match.finished and game.turns < game.max_turns:
        cube = match.new_game()
        if shown:
            game.cube = cube                                  # type: ignore[attr-defined]
        log = GameLog(len(match.games) + 1, (match.score[0], match.score[1])) \
            if game.keep_record else None
        entry = play_game(game, match, cube, asks, log)
        if log is not None:
            log.entry = entry
            logs.append(log)
        if entry is None:
            break
    return _result(game, match, logs)


def play_game(game: Game, match: Match, cube: Cube, asks: tuple[bool, bool],
              log: GameLog | None) -> GameEntry | None:
    """One game of the match with its cube; None when `max_turns` stops it."""
    v = game.variant
    rng = game.dice_rng
    mover, d1, d2, ties = opening(rng, v.opening)
    for _ in range(ties):
        if not cube.auto_double():
            break
    game.rolls = [0, 0]
    game.board = v.start if mover == WHITE else flip(v.start)
    game.mover = mover
    start_turns = game.turns

    def offers(_b: Board, roller: int) -> tuple | None:
        """Before each roll: the roller may double; a pass ends the game."""
        if asks[roller] and cube.may_double(roller):
            passed = cube_action(game, cube, roller, asks, log)
            if passed is not None:
                return ("pass", *passed)
        return None

    def logged(who: int, dice: tuple[int, int], before: Board, after: Board) -> None:
        log.events.append(RollEvent(who, dice, before, after))   # type: ignore[union-attr]

    cube_on = cube.enabled and (asks[0] or asks[1])
    out = game.play_out(d1, d2, offers if cube_on else None,
                        logged if log is not None else None)
    if out is None:
        return None
    how, winner, k = out
    if how == "pass":
        return match.finish(cube, winner, k, 0, "pass", game.turns - start_turns)
    return match.finish(cube, winner, cube.points(k), k, "play", game.turns - start_turns)


def cube_action(game: Game, cube: Cube, mover: int, asks: tuple[bool, bool],
                log: GameLog | None) -> tuple[int, int] | None:
    """Ask the player on roll whether he doubles, and play out the answers. Returns (winner,
    points) when a pass ends the game, else None."""
    players = game.players
    if players[mover].decide(game, "double", DOUBLE_CHOICES) != DOUBLE:
        return None
    cube.offer(mover)
    if log is not None:
        log.events.append(CubeEvent(mover, DOUBLE, cube.pending.value))  # type: ignore[union-attr]
    while True:
        p = cube.pending
        assert p is not None
        to = p.to
        choices = cube.answers(to)
        if not asks[to]:
            choices = tuple(c for c in choices if c not in (BEAVER, RACCOON))
        answer = players[to].decide(game, "take", choices) if len(choices) > 1 else choices[0]
        if answer not in choices:
            answer = choices[0]
        if answer == TAKE:
            cube.take(to)
            if log is not None:
                log.events.append(CubeEvent(to, TAKE))
            return None
        if answer == PASS:
            if log is not None:
                log.events.append(CubeEvent(to, PASS))
            return cube.drop(to)
        kind = cube.instant_redouble(to)
        if log is not None:
            log.events.append(CubeEvent(to, kind, cube.pending.value))  # type: ignore[union-attr]


def _result(game: Game, match: Match, logs: list[GameLog]) -> CubeResult:
    finished = match.finished
    last = match.games[-1] if match.games else None
    game.points = list(match.score)
    result = CubeResult(finished, match.winner, last.points if (finished and last) else 0,
                        game.turns, game.points, game.fired, game.record, match=match,
                        logs=logs)
    result.extra = summary(match)
    return result


def summary(match: Match) -> dict[str, Any]:
    """What the cube ladder adds to `tablier play --json`: the match, game by game."""
    ladder = match.ladder
    games = []
    for g in match.games:
        after = list(g.score_before)
        after[g.winner] += g.points
        games.append({
            "game": g.number, "winner": SIDE_NAMES[g.winner], "points": g.points,
            "result": g.result, "cube": g.cube,
            "cube_owner": None if g.owner is None else SIDE_NAMES[g.owner],
            "crawford": g.crawford, "turns": g.turns,
            "score": {"white": after[0], "black": after[1]},
        })
    out: dict[str, Any] = {"match_length": ladder.match_length, "games": games}
    if ladder.match_length:
        out["crawford_rule"] = ladder.crawford and ladder.match_length > 1
        out["crawford_game"] = match.crawford_game
    return out


# --------------------------------------------------------------------------------------------
# A played match as a `.mat` record

def variation_of(variant: Any) -> str | None:
    """The `.mat` Variation of a variant: None for backgammon's start, "NackGammon" for
    nackgammon's, "HyperGammon (n)" for hypergammon's with n checkers."""
    from interpreter.kernel.board import from_start

    start = variant.start
    if start == from_start({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}):
        return "NackGammon"
    n = variant.checkers
    if 1 <= n <= 3 and start == from_start({24 - i: 1 for i in range(n)}):
        return f"HyperGammon ({n})"
    return None


def play_steps(variant: Any, before: Board, after: Board,
               dice: tuple[int, int]) -> list[tuple[int, int]]:
    """A path of legal single-number steps from `before` to `after` (the mover's view)."""
    if before == after:
        return []
    plays, _ = variant.generator.plays(before, dice[0], dice[1])
    for play in plays:
        if play.board == after:
            return [(s.src, s.dst) for s in play.paths[0]]
    raise ValueError(f"no legal play of {dice} reaches the recorded position")


def match_record(variant: Any, result: CubeResult, names: tuple[str, str] = SIDE_NAMES,
                 info: dict[str, str] | None = None) -> Any:
    """The `.mat` record (interpreter.io.mat.MatchRecord) of a match played with `keep_record`;
    white is player 0 (the left column), black player 1."""
    from interpreter.io.mat import Double, Drop, Game as MatGame, MatchRecord, Roll, Take, \
        move_text

    match = result.match
    assert match is not None
    games = []
    for log in result.logs:
        actions: list[Any] = []
        for ev in log.events:
            if isinstance(ev, RollEvent):
                steps = play_steps(variant, ev.before, ev.after, ev.dice)
                actions.append(Roll(ev.player, ev.dice, move_text(steps, ev.before)))
            elif ev.what in (DOUBLE, BEAVER, RACCOON):
                actions.append(Double(ev.player, ev.value, ev.what))       # type: ignore[arg-type]
            elif ev.what == TAKE:
                actions.append(Take(ev.player))
            else:
                actions.append(Drop(ev.player))
        g = MatGame(log.number, log.score_before, actions)
        if log.entry is not None:
            g.winner, g.points = log.entry.winner, log.entry.points
        games.append(g)
    return MatchRecord(match.length, names, games, info=dict(info or {}),
                       variation=variation_of(variant))
