"""Properties of the Dutch Triktrak on games of random play (hypothesis draws the seeds).

For every position a game reaches: checkers are conserved by every legal play and the
opponent's never move (trictrac has no real hits); every roll scores even points; the play the
game applied is one of the plays `tablier moves` lists. For every game: replaying its record
through the points → holes machine of rules/trictrac.md §5.2, written again here, gives the
game's holes; points stay below 12 after each marking, holes never decrease, a go follows only a
hole won on the goer's own roll, and the game ends with the winner at 12 holes.
"""
from __future__ import annotations

from typing import Any, Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.analysis import legal_results, roll_score
from interpreter.bench import positions_of
from interpreter.kernel.board import Board, counts, flip, from_json, to_json
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

TRIKTRAK = load_variant("triktrak")
CHECKERS = TRIKTRAK.checkers
GAMES = settings(max_examples=scaled(25), deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def game(seed: int) -> Any:
    result = play_game(TRIKTRAK, seed, 0, keep_record=True)
    assert result.finished, f"seed {seed}: the game did not end in {result.turns} turns"
    return result


def walk(result: Any) -> Iterator[tuple[Board, Any, int, int]]:
    """(board before the roll, the turn, the mover's throw number in the relevé, the set-up
    number) for every turn of a recorded game. After a go or a sortie the men are set up again,
    and the same player rolls."""
    record = result.record
    player = record[0].player
    b = TRIKTRAK.start
    rolls = [0, 0]
    setup = 1
    for turn in record:
        if turn.player != player:
            b = flip(b)
            player = turn.player
        rolls[player] += 1
        yield b, turn, rolls[player], setup
        b = turn.board
        if turn.decision == "go" or b[0] == CHECKERS:
            b = TRIKTRAK.start
            rolls = [0, 0]
            setup += 1


def position(b: Board, d1: int, d2: int, rolls: int, setup: int) -> dict[str, Any]:
    return {**to_json(b), "dice": [d1, d2], "rolls": rolls, "state": {"setup": setup}}


@GAMES
@given(seeds)
def test_positions_of_matches_the_record(seed: int) -> None:
    """`interpreter.bench.positions_of` gives the same positions as the walk above, sorties
    and their relevés included."""
    result = game(seed)
    ours = [(b, t.dice[0], t.dice[1]) for b, t, _r, _s in walk(result)]
    assert positions_of(TRIKTRAK, result) == ours


@GAMES
@given(seeds)
def test_legal_plays_conserve_checkers_and_scores_are_even(seed: int) -> None:
    result = game(seed)
    last = len(result.record) - 1
    for i, (b, turn, rolls, setup) in enumerate(walk(result)):
        d1, d2 = turn.dice
        pos = position(b, d1, d2, rolls, setup)
        out = roll_score(TRIKTRAK, pos)
        assert out["mover"] % 2 == 0 and out["opponent"] % 2 == 0
        assert [(r, to, p, w) for r, to, p, w in turn.items] == [
            (x["rule"], x["to"], x["points"], x["ways"]) for x in out["items"]]
        results = [from_json(r) for r in legal_results(TRIKTRAK, pos)["results"]]
        assert results and len(set(results)) == len(results)
        theirs = [min(x, 0) for x in b[1:25]]
        for r in results:
            assert counts(r) == (CHECKERS, CHECKERS)
            assert [min(x, 0) for x in r[1:25]] == theirs and r[27] == b[27]
            moved = sum(r[p] for p in range(1, 25) if r[p] > 0) + r[0]
            assert moved == CHECKERS
        # the play the game made is a legal one (a go, or the roll that won the game before
        # it was played, has no play)
        if turn.decision != "go" and not (i == last and turn.board == b):
            assert turn.board in results, f"seed {seed}, turn {i}: an illegal play was applied"


JANS = {"petit-jan": range(19, 25), "grand-jan": range(13, 19), "jan-de-retour": range(1, 7)}


def full(b: Board, jan: range) -> bool:
    return all(b[p] >= 2 for p in jan)


@GAMES
@given(seeds)
def test_fill_and_conserve_obligations(seed: int) -> None:
    """§3.8, §4.7, §4.8 checked against the movement alone: a jan not full before the roll is
    filled (and scores) exactly when some play the movement allows fills it, and then every
    final play fills a jan; otherwise, a full jan is conserved (and scores) exactly when some
    allowed play keeps it full, and then every final play keeps one."""
    result = game(seed)
    for b, turn, rolls, setup in walk(result):
        d1, d2 = turn.dice
        pos = position(b, d1, d2, rolls, setup)
        raw = [p.board for p in TRIKTRAK.generator.plays(b, d1, d2)[0]]
        finals = [from_json(r) for r in legal_results(TRIKTRAK, pos)["results"]]
        assert set(finals) <= set(raw)
        fired = {item["rule"] for item in roll_score(TRIKTRAK, pos)["items"]}

        def fills(r: Board) -> bool:
            return any(not full(b, jan) and full(r, jan) for jan in JANS.values())

        def keeps(r: Board) -> bool:
            return any(full(b, jan) and full(r, jan) for jan in JANS.values())

        for name, jan in JANS.items():
            can_fill = not full(b, jan) and any(full(r, jan) for r in raw)
            can_keep = full(b, jan) and any(full(r, jan) for r in raw)
            assert (f"fill-{name}" in fired) == can_fill, (seed, to_json(b), turn.dice)
            assert (f"conserve-{name}" in fired) == can_keep, (seed, to_json(b), turn.dice)
        if any(fills(r) for r in raw):
            assert all(fills(r) for r in finals)
        elif any(keeps(r) for r in raw):
            assert all(keeps(r) for r in finals)


class Marking:
    """rules/trictrac.md §5.2, §5.3, §5.5 and §5.4 (12 holes, any roll), independently."""

    def __init__(self) -> None:
        self.points = [0, 0]
        self.holes = [0, 0]
        self.bred = [True, True]
        self.winner: int | None = None

    def mark(self, x: int, n: int) -> int:
        y = 1 - x
        if self.points[y] > 0:
            self.bred[y] = False
        total = self.points[x] + n
        won = 0
        if total >= 12:
            k = total // 12
            won = (2 if self.bred[x] else 1) + 2 * (k - 1)
            self.holes[x] += won
            self.points[x] = total % 12
            self.bred[x] = True
            self.points[y] = 0
            self.bred[y] = True
        else:
            self.points[x] = total
        assert 0 <= self.points[x] < 12 and 0 <= self.points[y] < 12
        if self.holes[x] >= 12:
            self.winner = x
        return won

    def go(self) -> None:
        self.points = [0, 0]
        self.bred = [True, True]


@GAMES
@given(seeds)
def test_holes_follow_the_marking_machine(seed: int) -> None:
    result = game(seed)
    m = Marking()
    record = result.record
    for i, turn in enumerate(record):
        assert m.winner is None, f"seed {seed}: play went on after the game was won"
        mover, opp = turn.player, 1 - turn.player
        mine = sum(p for _r, to, p, _w in turn.items if to == "mover")
        theirs = sum(p for _r, to, p, _w in turn.items if to == "opponent")
        before = list(m.holes)
        won = m.mark(mover, mine) if mine else 0
        assert turn.decision in (None, "stay", "go")
        if turn.decision is not None:
            assert won > 0, f"seed {seed}, turn {i}: a choice to go without an own-roll hole"
        elif m.winner is None:
            assert won == 0, f"seed {seed}, turn {i}: a hole on the own roll without a choice"
        if m.winner is not None:
            assert i == len(record) - 1
            break
        if turn.decision == "go":
            m.go()
        elif theirs:
            m.mark(opp, theirs)
        assert m.holes[0] >= before[0] and m.holes[1] >= before[1]
    assert m.winner is not None and m.winner == result.winner
    assert m.holes == result.points
    assert m.holes[m.winner] >= 12 > m.holes[1 - m.winner]


def test_every_game_ends() -> None:
    """Fifty games of random play, and ten between the greedy bots, all end with a winner (a
    fifth of them in the default run)."""
    for i in range(scaled(50)):
        r = play_game(TRIKTRAK, 20240, i)
        assert r.finished and r.winner in (0, 1) and max(r.points) >= 12
    for i in range(scaled(10, 3)):
        r = play_game(TRIKTRAK, 20240, i, "greedy", "greedy")
        assert r.finished and r.winner in (0, 1) and max(r.points) >= 12
