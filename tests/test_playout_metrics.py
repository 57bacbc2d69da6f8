"""The playout metrics of `--metrics` (engine/metrics.py, compare/playout.py, docs/compare.md
"Playout metrics"): each game's metrics recomputed by hand from its record, their ranges, the
lines without the flag unchanged, and `simulate --metrics` on a race and a game of holes."""
from __future__ import annotations

import math
from typing import Any

import pytest

from interpreter.compare.playout import PLAYOUT, PlayoutSums, ratio_summary
from interpreter.engine.events import After, Thrown
from interpreter.engine.game import Game
from interpreter.players.base import capabilities_of
from interpreter.players.kinds import make_player
from interpreter.runner import Arm, game_line, play_game, play_lines
from interpreter.variant.build import load_variant

METRIC_KEYS = {"decisiveness", "winner_behind", "drama", "drama_max", "stability", "coverage",
               "coverage_white", "coverage_black", "lead", "board"}


def _played(vid: str, seed: str, white: str = "random", black: str = "random") -> Any:
    v = load_variant(vid, ())
    players = (make_player(white, f"{seed}:white", v), make_player(black, f"{seed}:black", v))
    game = Game(v, seed, keep_record=True, metrics=True, doubles=capabilities_of(players))
    return v, game.run(players)


def _by_hand(samples: list[int], winner: int | None, scale: int) -> dict[str, int]:
    """The sums of one unit from the series of white's lead, written out."""
    n = len(samples)
    out = {"samples": n, "changes": 0,
           "spread": n * sum(x * x for x in samples) - sum(samples) ** 2,
           "spread_scale": n * n * scale * scale}
    leader = None
    for x in samples:
        now = leader if x == 0 else (0 if x > 0 else 1)
        if leader is not None and now != leader:
            out["changes"] += 1
        leader = now
    if winner is not None:
        mine = [x if winner == 0 else -x for x in samples]      # the winner's lead
        # the first sample from which he was strictly ahead to the end
        k = n + 1
        for i in range(n, 0, -1):
            if mine[i - 1] > 0:
                k = i
            else:
                break
        out.update(decided=n, settled=max(0, n - k), behind=sum(1 for x in mine if x < 0),
                   deficit=sum(-x for x in mine if x < 0),
                   worst=max([0] + [-x for x in mine if x < 0]), scaled=n * scale)
    return out


def _pips(board: Any) -> tuple[int, int]:
    """Both sides' pip counts of a backgammon board seen by its mover (opposite routes)."""
    me = 25 * board[25] + sum(x * p for p in range(1, 25) if (x := board[p]) > 0)
    them = 25 * board[26] + sum(-x * (25 - p) for p in range(1, 25) if (x := board[p]) < 0)
    return me, them


def test_a_recorded_backgammon_game_by_hand() -> None:
    """Backgammon, game "7/3": the lead after each round (when the first player is about to
    throw again) and after the last throw, as white's pips to go minus black's, from the
    record's positions; every sum of the line and the points covered, recomputed."""
    v, r = _played("backgammon", "7/3")
    throws = r.throws()
    assert throws and r.winner is not None
    first = throws[0].player
    samples = []
    white_pts, black_pts = set(), set()
    start = v.start
    for p in range(1, 25):
        (white_pts if start[p] > 0 else black_pts if start[p] < 0 else set()).add(p)
    for i, t in enumerate(throws):
        me, them = _pips(t.board)
        for p in range(1, 25):
            x = t.board[p]
            white_numbering = p if t.player == 0 else 25 - p
            if x:
                ((white_pts if (x > 0) == (t.player == 0) else black_pts)
                 .add(white_numbering))
        if t.player != first or i == len(throws) - 1:
            samples.append(them - me if t.player == 0 else me - them)
    want = _by_hand(samples, r.winner, 167)
    got = r.metrics["lead"]
    assert got["by"] == "pips" and got["scale"] == 167
    for key, value in want.items():
        assert got[key] == value, key
    board = r.metrics["board"]
    assert board == {"points": 24, "covered": len(white_pts | black_pts),
                     "white": len(white_pts), "black": len(black_pts)}
    assert r.metrics["decisiveness"] == round(want["settled"] / want["decided"], 6)
    assert r.metrics["drama"] == round(want["deficit"] / want["scaled"], 6)
    # the race's lead changes are the pip lead's
    assert r.lead_changes == want["changes"]


def test_a_recorded_triktrak_partie_by_hand() -> None:
    """The Dutch triktrak (a game of holes): the lead after every throw is the score as the
    ladder counts it, each side's holes times 12 plus his points, read from the log's running
    score after each throw (`After`)."""
    v, r = _played("triktrak", "7/1")
    assert r.winner is not None
    samples = []
    for e in r.log:
        if isinstance(e, After):
            h, p = e.sides["holes"], e.sides["points"]
            samples.append((h[0] - h[1]) * 12 + p[0] - p[1])
    assert len(samples) == sum(1 for e in r.log if isinstance(e, Thrown))
    want = _by_hand(samples, r.winner, 12)
    got = r.metrics["lead"]
    assert got["by"] == "holes" and got["scale"] == 12
    for key, value in want.items():
        assert got[key] == value, key
    # the winner of the partie has the most holes at its end: ahead at the last sample
    assert samples[-1] * (1 if r.winner == 0 else -1) > 0


def test_a_rotation_counts_each_game_with_its_own_winner() -> None:
    """Tavli (portes, plakoto, fevga to 5 points): one unit a game, each with its scale."""
    _v, r = _played("tavli", "3/0")
    lead = r.metrics["lead"]
    assert lead["units"] > 1 and lead["by"] == "pips"
    assert r.metrics["board"]["points"] == 24 * lead["units"]
    assert lead["decided"] <= lead["samples"]


@pytest.mark.parametrize("vid", ["backgammon", "plakoto", "fevga", "acey-deucey", "tabula",
                                 "triktrak", "trictrac-ecrire", "tric-trac-12"])
def test_the_metrics_stay_in_their_ranges(vid: str) -> None:
    v = load_variant(vid, ())
    for i in range(3):
        r = play_game(v, 11, i, metrics=True, max_turns=3000)
        m = r.metrics
        assert m is not None
        for key in ("decisiveness", "winner_behind", "coverage", "coverage_white",
                    "coverage_black"):
            assert m[key] is None or 0 <= m[key] <= 1, key
        for key in ("drama", "drama_max", "stability"):
            assert m[key] is None or m[key] >= 0, key
        lead = m["lead"]
        assert 0 <= lead["settled"] <= lead["decided"] <= lead["samples"]
        assert lead["behind"] <= lead["decided"] and lead["changes"] >= 0
        assert lead["worst"] * lead["decided"] >= lead["deficit"] * (1 if lead["units"] == 1
                                                                   else 0)


def test_the_metrics_do_not_change_the_game() -> None:
    """The same game with and without the flag: the same line but for the metrics' keys (and
    a race's lead changes, which only the metrics measure)."""
    v = load_variant("backgammon", ())
    for i in range(4):
        plain = game_line(i, 5, play_game(v, 5, i))
        measured = game_line(i, 5, play_game(v, 5, i, metrics=True))
        assert not METRIC_KEYS & set(plain)
        assert METRIC_KEYS <= set(measured)
        assert plain["lead_changes"] == 0
        rest = {k: x for k, x in measured.items() if k not in METRIC_KEYS | {"lead_changes"}}
        assert rest == {k: x for k, x in plain.items() if k != "lead_changes"}


def test_lines_without_the_flag_have_no_new_keys() -> None:
    v = load_variant("triktrak", ())
    lines = play_lines(v, Arm("triktrak", (), 3, 2), 0, 2)
    for line in lines:
        assert not METRIC_KEYS & set(line)
    measured = play_lines(v, Arm("triktrak", (), 3, 2, metrics=True), 0, 2)
    for plain, line in zip(lines, measured):
        # a scoring variant keeps its lead changes by the points the rules gave
        assert {k: x for k, x in line.items() if k not in METRIC_KEYS} == plain


def test_a_search_look_ahead_is_not_counted() -> None:
    """A player who searches plays copies of the game, which share its tracker: only the game
    itself is measured (its samples are its rounds, recomputed from its record)."""
    _v, r = _played("backgammon", "2/2", white="rollout:2")
    throws = r.throws()
    first = throws[0].player
    rounds = sum(1 for i, t in enumerate(throws) if t.player != first or i == len(throws) - 1)
    assert r.metrics["lead"]["samples"] == rounds


def test_ratio_summary_by_hand() -> None:
    """Two games: Y = 3, 1 over X = 4, 4: R = 1/2; residuals 1, −1: se = √(2/1)/(√2·4) = 1/4."""
    from interpreter.compare.playout import Sums

    s = Sums()
    s.add(3, 4)
    s.add(1, 4)
    e = ratio_summary(2, s, upper=1.0)
    assert e["value"] == 0.5
    assert e["ci"] == [round(0.5 - 1.959964 / 4, 6), round(min(1.0, 0.5 + 1.959964 / 4), 6)]


def test_the_figures_are_the_ratios_of_the_lines_sums() -> None:
    """compare's figures (compare/tally.py) from the lines: ΣY/ΣX of each metric."""
    from interpreter.compare.tally import tally_lines

    v = load_variant("backgammon", ())
    lines = play_lines(v, Arm("backgammon", (), 9, 6, metrics=True), 0, 6)
    figures = {f.name: f for f in tally_lines(lines).figures()}
    for name, _title, y, x, *_rest in PLAYOUT:
        def total(key: str) -> int:
            return sum(int({**line["board"], **line["lead"]}[key]) for line in lines)
        assert figures[name].ratio.value == total(y) / total(x), name
    # a race's lead changes are a figure of its arm with the flag (the pip lead's)
    assert figures["lead_changes"].moments.total == sum(line["lead"]["changes"]
                                                        for line in lines)


@pytest.mark.parametrize("vid", ["backgammon", "triktrak"])
def test_simulate_metrics_gives_finite_figures(vid: str) -> None:
    from interpreter.sim import simulate, summary_text

    v = load_variant(vid, ())
    out = simulate(v, vid, (), 8, 1, jobs=1, metrics=True)
    m = out["metrics"]
    assert m["games"] == 8
    for name, *_rest in PLAYOUT:
        e = m[name]
        assert e["value"] is not None and math.isfinite(e["value"]), name
        assert e["ci"][0] <= e["value"] <= e["ci"][1]
    assert "decisiveness" in summary_text(out)
    plain = simulate(v, vid, (), 2, 1, jobs=1)
    assert "metrics" not in plain


def test_playout_sums_skip_lines_without_metrics() -> None:
    p = PlayoutSums()
    assert p.add({"game": 0, "lead_changes": 0}) is False
    assert p.games == 0 and p.summary()["decisiveness"]["value"] is None


def test_the_worked_example_of_five_samples() -> None:
    """docs/compare.md, "Playout metrics", the worked example: a scoring play whose lead (white's
    points minus black's, scale 12) after its five throws is 5, −3, 0, 4, 9, won by white."""
    from types import SimpleNamespace

    from interpreter.engine.metrics import Tracker

    v = load_variant("triktrak", ())
    # a ladder that is no game of holes: the lead is the points the rules gave (`scored`)
    game = SimpleNamespace(variant=v, ladder=SimpleNamespace(), mover=0, turns=0,
                           board=v.start, scored=[0, 0], extra=False)
    tracker = Tracker(game)    # type: ignore[arg-type]
    tracker.look(False)
    for lead in (5, -3, 0, 4, 9):
        game.turns += 1
        game.scored = [20 + lead, 20]
        tracker.look(False)
    tracker.finish(0)
    m = tracker.summary()
    lead = m["lead"]
    assert (lead["by"], lead["scale"], lead["samples"], lead["changes"]) == ("points", 12, 5, 2)
    assert (lead["settled"], lead["behind"], lead["deficit"], lead["worst"]) == (1, 1, 3, 3)
    assert lead["spread"] == 5 * 131 - 15 ** 2 == 430
    assert m["decisiveness"] == 0.2 and m["winner_behind"] == 0.2
    assert m["drama"] == 0.05 and m["drama_max"] == 0.25
    assert m["stability"] == round(430 / 3600, 6) == 0.119444
