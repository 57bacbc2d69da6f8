"""`tablier analyse MATCH.mat --player NAME --by gnubg[:N]` (or `--ply N`): a player's checker
plays graded by GNU Backgammon (the `gnubg` extra). Without `--by gnubg`, `tablier analyse`
reviews a game with the project's own players (interpreter/review.py).

The match is replayed through the rules (interpreter/io/replay.py); at each checker play of the
player that had a choice, every legal play is scored by gnubg at the chosen ply the way its own
move finder scores them (cubeful, for the match score and the cube of the game: equity in money
play, normalised equity in a match), and the play's error is the best play's score minus the
played one's. The report: the plays graded, the mean error per play in millipoints (thousandths
of a point), gnubg's best play's share, the blunders (an error above `BLUNDER`, 0.08, gnubg's
"very bad" mark) with their GNUbg ID, dice, played and better play, and gnubg's rating word for
the mean error per play (the module's `error_rating`).

The grading is bounded in time like every command on a file from a stranger: gnubg grades the
plays for at most `--max-seconds` (`SECONDS`, 10, by default; about 30 ms a play at 0-ply, half a
second and more at 3-ply), and then the report covers the plays graded so far, says so on its
first line (`"partial"` in JSON), and the command exits 1 with a line naming where it stopped.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from interpreter.errors import TablierError

#: an error above this (in equity) is a blunder
BLUNDER = 0.08
#: how long `tablier analyse` grades plays by default, in seconds
SECONDS = 10.0
#: gnubg's rating words, by the number its `error_rating` gives
RATINGS = ("awful", "beginner", "casual player", "intermediate", "advanced", "expert",
           "world class", "supernatural")


@dataclass
class Graded:
    game: int
    move: int
    gnubg_id: str
    dice: tuple[int, int]
    played: str
    best: str
    error: float


@dataclass
class Partial:
    """Where the grading stopped when its time ran out: before the play of `move` of game
    `game` (its number in the file), the file having `games` games; `seconds` the limit."""
    game: int
    move: int
    games: int
    seconds: float

    def text(self) -> str:
        return (f"partial report: the {self.seconds:g} s limit of the grading was reached at "
                f"game {self.game} move {self.move} of a match of {self.games} games; the "
                f"figures cover the plays graded before it (--max-seconds raises the limit)")


class _OutOfTime(Exception):
    """The grading's time is up (caught by `analyse_record`)."""


@dataclass
class Analysis:
    player: str
    ply: int
    plays: list[Graded] = field(default_factory=list)
    forced: int = 0
    #: None when every play of the file was graded
    partial: Partial | None = None

    @property
    def mean_error(self) -> float:
        return sum(g.error for g in self.plays) / len(self.plays) if self.plays else 0.0

    @property
    def best_share(self) -> float:
        return sum(1 for g in self.plays if g.error <= 1e-9) / len(self.plays) \
            if self.plays else 0.0

    @property
    def blunders(self) -> list[Graded]:
        return [g for g in self.plays if g.error > BLUNDER]

    def rating(self) -> str:
        from interpreter.players.gnubg_player import module

        r = int(module().error_rating(float(self.mean_error)))
        return RATINGS[r] if 0 <= r < len(RATINGS) else str(r)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "ply": self.ply, "plays": len(self.plays),
                "forced": self.forced,
                "mean_error_millipoints": round(1000 * self.mean_error, 2),
                "best_play_share": round(self.best_share, 4),
                "blunders": [{"game": g.game, "move": g.move, "gnubg_id": g.gnubg_id,
                              "dice": list(g.dice), "played": g.played, "better": g.best,
                              "error_millipoints": round(1000 * g.error, 1)}
                             for g in self.blunders],
                "rating": self.rating(),
                "partial": None if self.partial is None else {
                    "game": self.partial.game, "move": self.partial.move,
                    "games": self.partial.games, "seconds": self.partial.seconds}}

    def text(self) -> str:
        lines = [] if self.partial is None else [self.partial.text()]
        lines += [f"{self.player}: {len(self.plays)} checker plays graded by gnubg at "
                 f"{self.ply}-ply ({self.forced} forced plays not counted)",
                 f"mean error: {1000 * self.mean_error:.1f} millipoints a play; gnubg's best "
                 f"play {100 * self.best_share:.0f} % of the time",
                 f"rating: {self.rating()}",
                 f"blunders (error above {BLUNDER}): {len(self.blunders)}"]
        for g in self.blunders:
            lines.append(f"  game {g.game} move {g.move}: {g.gnubg_id} {g.dice[0]}{g.dice[1]}: "
                         f"played {g.played}, better {g.best} "
                         f"({1000 * g.error:.0f} millipoints)")
        return "\n".join(lines)


def gnubg_plies(by: str | None, ply: int | None) -> int | None:
    """gnubg's plies when `--by` names gnubg (`gnubg`, `gnubg:P`) or `--ply` is given (gnubg's
    depth, which implies it); None when the review is the project's own players'."""
    from interpreter.errors import CommandLineError

    gnubg = by is not None and (by == "gnubg" or by.startswith("gnubg:"))
    if not gnubg:
        if ply is not None:
            if by is not None:
                raise CommandLineError(f"--ply is gnubg's search depth; --by {by} has none")
            return ply
        return None
    assert by is not None
    given = by.partition(":")[2]
    if given:
        if not (given.isdigit() and len(given) == 1 and int(given) <= 3):
            raise CommandLineError(f"--by {by}: gnubg grades at 0 to 3 plies")
        if ply is not None and ply != int(given):
            raise CommandLineError(f"--by {by} and --ply {ply} disagree")
        return int(given)
    return 0 if ply is None else ply


def analyse_record(record: Any, player: str, ply: int = 0,
                   overrides: tuple[str, ...] = (), seconds: float | None = None) -> Analysis:
    """Grade the checker plays of `player` (a name of the record) in a read `.mat` record; for
    at most `seconds` (None: no limit), after which the analysis is `partial`."""
    from interpreter.io.gnubg import MatchInfo, encode_gnubg_id
    from interpreter.io.replay import replay, variant_ref
    from interpreter.kernel.notation import move_text
    from interpreter.players.gnubg_player import GnubgPlayer
    from interpreter.variant.build import load_variant

    names = list(record.players)
    if player not in names:
        raise TablierError(f"no player {player!r} in the match: its players are "
                           f"{' and '.join(map(repr, names))}")
    side = names.index(player)
    ref, extra = variant_ref(record)
    variant = load_variant(ref, [*extra, *overrides])
    gnubg = GnubgPlayer(variant, plies=ply)
    out = Analysis(player, ply)
    deadline = None if seconds is None else time.monotonic() + seconds

    def observe(state: Any, who: int, b: tuple, dice: tuple[int, int], after: tuple,
                plays: list) -> None:
        if who != side:
            return
        boards = [p.board for p in plays]
        if len(set(boards)) <= 1:
            out.forced += 1
            return
        if deadline is not None and time.monotonic() > deadline:
            out.partial = Partial(state.game.number, state.move, len(record.games),
                                  float(seconds or 0))
            raise _OutOfTime
        cube = state.cube
        match = state.match
        length = record.match_length
        s = {"cube": cube.value, "match_length": length,
             "owner": None if cube.owner is None else ("me" if cube.owner == who else
                                                        "opponent"),
             "crawford": cube.crawford,
             "score": {"me": match.score[who], "opponent": match.score[1 - who]}}
        scores, best_board, best_text = gnubg.ranked(b, dice, s, plays)
        err = max(0.0, scores[best_board] - scores[after])
        info = MatchInfo(cube=cube.value, cube_owner=-1 if cube.owner is None else cube.owner,
                         on_roll=who, turn=who, crawford=cube.crawford, dice=(max(dice),
                                                                               min(dice)),
                         match_length=length, score=(match.score[0], match.score[1]))
        try:
            gid = encode_gnubg_id(b, info)
        except TablierError:
            from interpreter.io.gnubg import encode_position_id
            gid = encode_position_id(b)
        played = next((move_text([(st.src, st.dst) for st in p.paths[0]], b)
                       for p in plays if p.board == after), "?")
        out.plays.append(Graded(state.game.number, state.move, gid, dice, played, best_text,
                                err))

    try:
        replay(record, variant, observe)
    except _OutOfTime:
        pass
    return out


def analyse_file(path: str | Path, player: str, ply: int = 0,
                 seconds: float | None = SECONDS) -> Analysis:
    from interpreter.bounded import read_bytes
    from interpreter.io.mat import read_mat

    raw = read_bytes(str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        record = read_mat(text, strict=True)
    except TablierError as exc:
        raise TablierError(f"{path}: {exc}") from None
    try:
        return analyse_record(record, player, ply, seconds=seconds)
    except TablierError as exc:
        raise TablierError(f"{path}: {exc}") from None


def grade_games(kind: str, opponent: str, games: int, ply: int = 0, seed: int = 1,
                match_length: int = 7) -> dict[str, Any]:
    """Play `games` matches of backgammon to `match_length` between `kind` (white) and
    `opponent` (black), write each as a `.mat` record, and grade `kind`'s plays with gnubg:
    what `docs/bots.md` reports (the same steps as `tablier play … --mat` then `tablier
    analyse`)."""
    from interpreter.engine.game import Game
    from interpreter.io.mat import read_mat, write_mat
    from interpreter.io.played import match_record
    from interpreter.players.base import capabilities_of
    from interpreter.players.kinds import make_player
    from interpreter.variant.build import load_variant

    variant = load_variant("backgammon", [f"ladder.match_length={match_length}"])
    total = Analysis(kind, ply)
    by_match: list[tuple[int, float]] = []
    for i in range(games):
        gs = f"{seed}/{i}"
        players = (make_player(kind, f"{gs}:white", variant),
                   make_player(opponent, f"{gs}:black", variant))
        result = Game(variant, gs, keep_record=True,
                      doubles=capabilities_of(players)).run(players)
        text = write_mat(match_record(variant, result))
        record = read_mat(text, strict=True)
        a = analyse_record(record, "white", ply, (f"ladder.match_length={match_length}",))
        total.plays += a.plays
        total.forced += a.forced
        by_match += [(i, g.error) for g in a.plays]
    out = total.to_json()
    out.pop("blunders")
    _m, interval = _clustered(by_match)
    out.update({"opponent": opponent, "matches": games, "match_length": match_length,
                "seed": seed, "blunders": len(total.blunders),
                "error_sd_millipoints": round(1000 * _sd([g.error for g in total.plays]), 2),
                # the plays of a match are not independent: the mean's 95 % interval is taken
                # over the matches
                "error_interval_millipoints": interval})
    return out


def _sd(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return (sum((x - m) ** 2 for x in xs) / (n - 1)) ** 0.5


def report(analysis: Analysis, as_json: bool) -> str:
    return json.dumps(analysis.to_json()) if as_json else analysis.text()


def _clustered(errors: list[tuple[int, float]]) -> tuple[float, list[float] | None]:
    """The mean of (game, value) pairs, in millipoints, and its 95 % interval, the standard
    error taken over the games (the positions of one game are not independent of each other);
    no interval from fewer than two games."""
    n = len(errors)
    if n == 0:
        return 0.0, None
    m = sum(x for _g, x in errors) / n
    sums: dict[int, float] = {}
    for g, x in errors:
        sums[g] = sums.get(g, 0.0) + (x - m)
    k = len(sums)
    if k < 2:
        return round(1000 * m, 2), None
    se = (sum(s * s for s in sums.values()) * k / (k - 1)) ** 0.5 / n
    return round(1000 * m, 2), [round(1000 * (m - 1.96 * se), 2),
                                round(1000 * (m + 1.96 * se), 2)]


def position_errors(kinds: Sequence[str], games: int, seed: int = 1,
                    players: tuple[str, str] = ("learned", "gnubg"),
                    overrides: Sequence[str] = ("ladder.doubling=false",),
                    own: bool = False) -> dict[str, Any]:
    """Several players graded by gnubg 0-ply on the same positions: `games` games of
    backgammon between `players` (colours alternated) are played, and at every checker play
    with a choice (of either side; with `own`, of the first of `players` only: its own
    plays, a grade of it in its own games) each of `kinds` is asked for its play and gnubg
    scores every legal play (as `analyse` does). A player's error is gnubg's best score minus
    its play's; the differences between each two of `kinds` are paired, position by position,
    and so far tighter than grades from separate games. Intervals are 95 %, taken over the
    games."""
    from interpreter.engine.game import Game
    from interpreter.players.base import capabilities_of
    from interpreter.players.gnubg_player import GnubgPlayer
    from interpreter.players.kinds import make_player
    from interpreter.variant.build import load_variant

    if not kinds:
        raise TablierError("name at least one player to grade")
    variant = load_variant("backgammon", list(overrides))
    gnubg = GnubgPlayer(variant)
    graded = [make_player(k, f"{seed}/positions/{j}", variant) for j, k in enumerate(kinds)]
    caps = frozenset().union(*(getattr(p, "capabilities", frozenset()) for p in graded))
    errors: list[list[tuple[int, float]]] = [[] for _ in kinds]

    class Asking:
        """A player of the games that asks every graded player first."""

        def __init__(self, inner: Any, game: int, asks: bool = True):
            self.inner = inner
            self.game = game
            #: whether its plays are graded (with `own`, the second player's are not)
            self.asks = asks
            self.kind = inner.kind
            self.capabilities = inner.capabilities | (caps & {"branching"})

        def answer(self, decision: Any) -> int | str:
            if decision.kind == "play" and self.asks:
                self.grade(decision)
            return self.inner.answer(decision)

        def grade(self, decision: Any) -> None:
            view = decision.view
            choices = list(decision.choices)
            if len(set(choices)) <= 1:
                return
            plays, _ = variant.generator.plays(view.board, *view.dice)
            scores, best, _text = gnubg.ranked(view.board, view.dice, view.ladder, plays)
            top = scores[best]
            for j, p in enumerate(graded):
                got = p.answer(decision)
                if not isinstance(got, int):
                    raise TablierError(f"{kinds[j]} answered a play with {got!r}")
                errors[j].append((self.game, max(0.0, top - scores[choices[got]])))

    for i in range(games):
        gs = f"{seed}/{i}"
        a = make_player(players[0], f"{gs}:first", variant)
        b = make_player(players[1], f"{gs}:second", variant)
        first, second = Asking(a, i), Asking(b, i, not own)
        seat = (first, second) if i % 2 == 0 else (second, first)
        Game(variant, gs, keep_record=False, doubles=capabilities_of(seat)).run(seat)
    rows = []
    for j, k in enumerate(kinds):
        m, interval = _clustered(errors[j])
        rows.append({"player": k, "mean_error_millipoints": m, "interval": interval,
                     "best_play_share": round(sum(1 for _g, e in errors[j] if e <= 1e-9)
                                              / max(len(errors[j]), 1), 4)})
    diffs = []
    for i in range(len(kinds)):
        for j in range(i + 1, len(kinds)):
            d = [(g, e - e0) for (g, e), (_g, e0) in zip(errors[j], errors[i])]
            m, interval = _clustered(d)
            diffs.append({"player": kinds[j], "minus": kinds[i], "mean_millipoints": m,
                          "interval": interval})
    return {"positions": len(errors[0]), "games": games, "seed": seed,
            "players": list(players), "own": own, "options": list(overrides),
            "graded": rows, "differences": diffs}
