"""A `.mat` match replayed through the rules (the `tablier import` command).

`read_mat` (interpreter/io/mat.py) reads what a file says; `replay` checks that it happened as the
rules allow, game by game, with the variant's move generator and the cube and match machines of
the `cube` ladder (interpreter/scoring/cube.py):

* each game starts from the variant's start, the first roll's player on roll (under
  `opening_roll = "one_die_each"` the opening roll cannot be a doublet), and the players roll in
  turn;
* each play, expanded as gnubg expands consolidated plays, must be one of the legal plays of the
  position with those dice: the same steps as a legal path, or steps reaching a legal end
  position. A roll with no play written is a dance when nothing can be played, the only play
  when there is one, and otherwise only allowed as the last action of a game a resignation
  ended;
* a double comes from the player about to roll, who may double (the cube centred or his, not in
  the Crawford game, not above the cap); a take or a pass answers it; beavers and raccoons as the
  ladder allows them;
* a game ends when a player bears off his last checker (the `Wins` line must give its value: the
  cube times 1, 2 or 3, the Jacoby rule in money play), when a double is passed (the value before
  the offer), or by a resignation (a `Wins` line while the game is on: the cube times 1, 2 or 3);
* the score line of every game after the first must be the score the games before it give.

The file marks neither the Crawford game nor who owns the cube: the Crawford game is the first
game in which exactly one player is 1-away, as gnubg reads it (`--set ladder.crawford=false` for
a match played without the rule); when a file starts midway (its first game is not game 1) with
a player already 1-away, whether the Crawford game is past cannot be told, and the cube is not
restricted. The first fault raises `IllegalMoveError` naming the game, the
move number (the game's line as gnubg numbers them: player 0 on the left, player 1 on the right)
and the position (its GNUbg ID and its JSON).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from interpreter.errors import IllegalMoveError, RecordError, TablierError
from interpreter.io.mat import Double, Drop, MatchRecord, Roll, Take, expand_steps, move_text, \
    parse_move
from interpreter.kernel.board import Board, flip, to_json
from interpreter.scoring.cube import BEAVER, Cube, CubeLadder, Match

#: the built-in variant of each `.mat` Variation
VARIANT_OF_VARIATION = {None: "backgammon", "NackGammon": "nackgammon",
                        "HyperGammon (3)": "hypergammon"}


@dataclass
class ReplayedGame:
    number: int
    winner: int | None          # None: the game is unfinished
    points: int
    ended: str | None           # "play", "pass", "resign"; None while unfinished
    cube: int
    crawford: bool


@dataclass
class Replay:
    """A match replayed: each game's result and the final score."""

    record: MatchRecord
    games: list[ReplayedGame] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)

    def to_json(self) -> dict[str, Any]:
        """The object of `tablier import --json` (INTERFACES.md)."""
        names = self.record.players
        return {
            "match_length": self.record.match_length,
            "players": list(names),
            "games": [{"winner": None if g.winner is None else names[g.winner],
                       "points": g.points} for g in self.games],
            "score": {names[0]: self.score[0], names[1]: self.score[1]},
        }

    def text(self) -> str:
        r = self.record
        names = r.players
        kind = f"{r.match_length} point match" if r.match_length else "money session"
        lines = [f"{kind}: {names[0]} vs {names[1]}"]
        how = {"play": "", "pass": " (double passed)", "resign": " (resignation)"}
        for g in self.games:
            if g.winner is None:
                lines.append(f"game {g.number}: unfinished")
                continue
            crawford = ", the Crawford game" if g.crawford else ""
            lines.append(f"game {g.number}: {names[g.winner]} wins {g.points} point"
                         f"{'s' if g.points != 1 else ''}{how[g.ended or 'play']}"
                         f"{crawford}")
        lines.append(f"score: {names[0]} {self.score[0]}, {names[1]} {self.score[1]}")
        return "\n".join(lines)


def variant_ref(record: MatchRecord) -> tuple[str, list[str]]:
    """The built-in variant (and `--set` overrides) of a record's Variation header."""
    if record.variation in VARIANT_OF_VARIATION:
        return VARIANT_OF_VARIATION[record.variation], []
    n = record.checkers
    start = ", ".join(f"{24 - i} = 1" for i in range(n))
    return "hypergammon", [f"board.checkers={n}", f"board.start={{ {start} }}"]


def move_numbers(actions: Sequence[Any]) -> list[int]:
    """The number of the line each action is written on, as gnubg lays a game out (player 0's
    entries on the left, player 1's on the right, a new line when the left column is due)."""
    out = []
    slot = 0
    for action in actions:
        if slot % 2 != action.player:
            slot += 1
        out.append(slot // 2 + 1)
        slot += 1
    return out


def _apply(b: Board, steps: Sequence[tuple[int, int]], block: int) -> Board | None:
    """The board after the steps, each applied as written (a blot on the landing point is hit);
    None when a step cannot be made at all."""
    L = list(b)
    for src, dst in steps:
        if L[src] <= 0:
            return None
        L[src] -= 1
        if dst == 0:
            L[0] += 1
            continue
        if L[dst] < 0:
            if -L[dst] >= block:
                return None
            L[26] -= L[dst]
            L[dst] = 0
        L[dst] += 1
    return tuple(L)


class _GameReplay:
    """The state of one game while its actions are replayed."""

    def __init__(self, variant: Any, record: MatchRecord, match: Match, index: int,
                 cube: Cube, observer: Any = None):
        self.observer = observer
        self.variant = variant
        self.record = record
        self.match = match
        self.game = record.games[index]
        self.cube = cube
        self.board: Board | None = None      # seen from `mover`
        self.mover: int | None = None        # the player on roll (who rolls next)
        self.dice: tuple[int, int] = (0, 0)
        self.ended: str | None = None
        self.result: tuple[int, int, int] | None = None   # winner, points, k
        self.move = 0
        self.resign_roll = False

    # -- errors ---------------------------------------------------------------------------------

    def position(self) -> str:
        """The position now, as a GNUbg ID and a position JSON (seen by the player on roll)."""
        if self.board is None or self.mover is None:
            return "the start of the game"
        from interpreter.io.gnubg import MatchInfo, encode_gnubg_id

        b, p = self.board, self.mover
        length = self.record.match_length
        score = (self.match.score[0], self.match.score[1])
        desc = json.dumps(dict(to_json(b), **({"dice": list(self.dice)}
                                              if self.dice != (0, 0) else {})))
        try:
            pending = self.cube.pending
            info = MatchInfo(
                cube=self.cube.value, cube_owner=-1 if self.cube.owner is None else self.cube.owner,
                on_roll=p, turn=p if pending is None else pending.to, crawford=self.cube.crawford,
                doubled=pending is not None, dice=self.dice, match_length=length, score=score,
                jacoby=self.cube.ladder.jacoby_in_use)
            return f"{encode_gnubg_id(b, info)} {desc}"
        except TablierError:
            return desc

    def fail(self, message: str) -> IllegalMoveError:
        where = f"game {self.game.number}"
        if self.move:
            where += f", move {self.move}"
        return IllegalMoveError(f"{where}: {message}; position {self.position()}")

    def name(self, player: int) -> str:
        return self.record.players[player]

    # -- actions --------------------------------------------------------------------------------

    def run(self) -> None:
        actions = self.game.actions
        numbers = move_numbers(actions)
        last = len(actions) - 1
        for i, action in enumerate(actions):
            self.move = numbers[i]
            if self.ended is not None or self.resign_roll:
                raise self.fail(f"{self.name(action.player)} acts after the end of the game")
            try:
                if isinstance(action, Roll):
                    self.roll(action, i == last)
                elif isinstance(action, Double):
                    self.double(action)
                elif isinstance(action, Take):
                    self.cube.take(action.player)
                elif isinstance(action, Drop):
                    winner, points = self.cube.drop(action.player)
                    self.ended, self.result = "pass", (winner, points, 0)
            except RecordError as e:
                raise self.fail(str(e)) from None
        self.move = 0
        self.conclude()

    def roll(self, action: Roll, is_last: bool) -> None:
        v = self.variant
        p = action.player
        d1, d2 = action.dice
        who = self.name(p)
        if self.cube.pending is not None:
            raise self.fail(f"{who} rolls while a double waits for an answer")
        if self.mover is None:
            if v.opening == "one_die_each" and d1 == d2:
                self.mover = p
                self.board = v.start if p == 0 else flip(v.start)
                self.dice = action.dice
                raise self.fail(f"the opening roll {d1}{d2} is a doublet (each player throws "
                                f"one die; equal numbers are thrown again)")
            self.mover = p
            self.board = v.start if p == 0 else flip(v.start)
        elif p != self.mover:
            raise self.fail(f"{who} rolls, but {self.name(self.mover)} is on roll")
        b = self.board
        assert b is not None
        self.dice = action.dice
        plays, _ = v.generator.plays(b, d1, d2)
        boards = [pl.board for pl in plays]
        if action.play is None:
            if not is_last or self.game.winner is None:
                raise self.fail(f"{who}'s roll {d1}{d2} has no play and no resignation follows")
            self.resign_roll = True
            return
        try:
            steps = expand_steps(parse_move(action.play), action.dice, b)
        except RecordError as e:
            raise self.fail(str(e)) from None
        if not steps:
            if boards == [b]:
                after = b                           # a dance
            elif len(boards) == 1:
                after = boards[0]                   # the only play
            elif is_last and self.game.winner is not None:
                self.resign_roll = True             # rolled, then resigned before playing
                return
            else:
                raise self.fail(f"{who}'s roll {d1}{d2} has no play written, but the rules "
                                f"allow {self._legal_text(plays, b)}")
        else:
            found = self._match_play(steps, plays, b)
            if found is None:
                written = move_text(steps, b)
                raise self.fail(f"{who}'s {d1}{d2}: {written} is not a legal play; the rules "
                                f"allow {self._legal_text(plays, b)}")
            after = found
        if self.observer is not None:
            self.observer(self, p, b, action.dice, after, plays)
        self._played(after)

    def _match_play(self, steps: list[tuple[int, int]], plays: list, b: Board) -> Board | None:
        want = Counter(steps)
        for pl in plays:
            for path in pl.paths:
                if path and Counter((s.src, s.dst) for s in path) == want:
                    return pl.board
        after = _apply(b, steps, self.variant.move_rules.block)
        if after is not None and any(pl.board == after for pl in plays):
            return after
        return None

    @staticmethod
    def _legal_text(plays: list, b: Board, most: int = 6) -> str:
        texts = []
        for pl in plays:
            path = pl.paths[0]
            texts.append(move_text([(s.src, s.dst) for s in path], b) if path else "no move")
        shown = ", ".join(texts[:most])
        more = len(texts) - most
        return f"{len(texts)} play{'s' if len(texts) != 1 else ''}: {shown}" + (
            f" and {more} more" if more > 0 else "")

    def _played(self, after: Board) -> None:
        v = self.variant
        rules = v.rules
        mover = self.mover
        assert mover is not None
        self.board = after
        ended = rules.game_over(after)
        if ended is not None:
            winner = mover if ended == "mover" else 1 - mover
            k = int(rules.game_value(after if winner == mover else flip(after)))
            self.ended, self.result = "play", (winner, self.cube.points(k), k)
            return
        d1, d2 = self.dice
        if not (v.doublet_rethrow and d1 == d2):
            self.board = flip(after)
            self.mover = 1 - mover
        self.dice = (0, 0)

    def double(self, action: Double) -> None:
        p = action.player
        who = self.name(p)
        if action.kind == "double":
            if self.mover is None:
                raise self.fail(f"{who} doubles before the opening roll")
            if p != self.mover:
                raise self.fail(f"{who} doubles, but {self.name(self.mover)} is on roll")
            self.cube.offer(p)
        else:
            kind = self.cube.instant_redouble(p)
            if kind != action.kind and not (action.kind == "raccoon" and kind != BEAVER):
                raise self.fail(f"{who}'s {action.kind} is a {kind} by the rules")
        offered = self.cube.pending.value  # type: ignore[union-attr]
        if action.value != offered:
            raise self.fail(f"{who} offers the cube at {action.value}, but the cube would go "
                            f"to {offered}")

    # -- the end of the game --------------------------------------------------------------------

    def conclude(self) -> None:
        g = self.game
        if self.ended is not None:
            winner, points, _k = self.result  # type: ignore[misc]
            if g.winner is not None and (g.winner, g.points) != (winner, points):
                how = "the double was passed" if self.ended == "pass" else \
                    f"the game ended with the cube at {self.cube.value}"
                raise self.fail(f"the file says {self.name(g.winner)} wins {g.points}, but "
                                f"{how}: {self.name(winner)} wins {points} by the rules")
            return
        if g.winner is None:
            return          # unfinished
        if self.cube.pending is not None:
            raise self.fail("the game ends while a double waits for an answer")
        value = self.cube.value
        if g.points not in (value, 2 * value, 3 * value):
            raise self.fail(f"{self.name(g.winner)} wins {g.points} by a resignation, but the "
                            f"cube is at {value} (a resignation is worth {value}, {2 * value} "
                            f"or {3 * value})")
        self.ended, self.result = "resign", (g.winner, g.points, g.points // value)


def replay(record: MatchRecord, variant: Any, observer: Any = None) -> Replay:
    """Replay `record` through the rules of `variant` (a loaded Variant); IllegalMoveError at the
    first fault. The cube options come from the variant's `cube` ladder (its defaults for a
    variant with another ladder), the match length from the record. `observer(game, player,
    board, dice, after, plays)` is told of each checker play (`tablier analyse`): the game being
    replayed (its cube and match), the player, the board before the play seen by him, the
    dice, the board after it and the legal plays."""
    base = variant.ladder if isinstance(variant.ladder, CubeLadder) else CubeLadder()
    ladder = base.model_copy(update={"match_length": record.match_length})
    out = Replay(record)
    if not record.games:
        return out
    match = Match(ladder, score=list(record.games[0].score), money_games=None)
    crawford = record.crawford_game() if ladder.crawford else None
    if crawford == 0 and record.games[0].number > 1:
        # the file starts midway with a player 1-away: whether the Crawford game was played
        # before it cannot be told, and the cube is not restricted
        crawford = None
    for i, g in enumerate(record.games):
        if list(g.score) != match.score:
            raise IllegalMoveError(
                f"game {g.number}: the score line says {g.score[0]}-{g.score[1]}, but the "
                f"games before it make it {match.score[0]}-{match.score[1]}")
        if i and out.games[-1].winner is None:
            raise IllegalMoveError(f"game {out.games[-1].number} has no result, but game "
                                   f"{g.number} follows it")
        if match.finished:
            raise IllegalMoveError(f"game {g.number}: the match was over before it")
        cube = match.new_game(crawford=i == crawford)
        state = _GameReplay(variant, record, match, i, cube, observer)
        state.run()
        if state.ended is None:
            out.games.append(ReplayedGame(g.number, None, 0, None, cube.value, cube.crawford))
            continue
        winner, points, k = state.result  # type: ignore[misc]
        match.finish(cube, winner, points, k, state.ended)
        out.games.append(ReplayedGame(g.number, winner, points, state.ended, cube.value,
                                      cube.crawford))
    out.score = (match.score[0], match.score[1])
    return out
