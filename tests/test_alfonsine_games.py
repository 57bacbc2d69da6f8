"""Whole games of the twelve games of tables-family part 3 that ship, through the turn loop: the
men conserved after every throw and play, every play one of the legal results of its throw (as
`tablier moves` lists them), games ending, the same seed giving the same game, a saved game
replaying and resuming, the choice before the game (Doze canes) asked and kept, numbers passed
on (Laquet) offered to the opponent, and `search:1` playing each game to its end."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from budget import scaled
from interpreter.analysis import legal_results, spans_written
from interpreter.engine.events import Ended, Played, Thrown, Tied
from interpreter.engine.game import Game
from interpreter.engine.record import record_of, replay
from interpreter.io.save import checked_replay, read_save, state_of, write_save
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant

GAMES = ("quinze-tablas", "doze-canes", "seys-dos-e-as", "cab-e-quinal", "todas-tablas",
         "medio-emperador", "pareia-de-entrada", "fallas", "laquet", "buffa-de-baldrac",
         "verquere", "xii-scripta")
#: Doze canes' games often reach a position where neither side can move: the draw ends them
OPTIONS = {"doze-canes": ['dc_blocked="draw"']}


def variant(game: str) -> Any:
    return load_variant(game, OPTIONS.get(game, []))


def key(line: dict[str, Any]) -> str:
    state = line.get("state") or {}
    return json.dumps([line["points"], line["bar"], line["off"], state.get("unentered")])


def checked_game(v: Any, seed: int) -> Game:
    """A random game of `v`, every throw's board holding every man, every play one of the
    legal results of its throw, the game ended as the end rules say."""
    g = Game(v, seed)
    r = g.run([make_player("random", seed, v), make_player("random", seed + 1, v)])
    assert r.finished, (v.id, seed)
    throw = None
    for e in g.log:
        if isinstance(e, Thrown):
            assert e.board is not None
            assert v.geometry.counts(e.board) == (v.checkers, v.checkers)
            throw = e
        elif isinstance(e, Played) and throw is not None and e.side == throw.side:
            assert v.geometry.counts(e.board) == (v.checkers, v.checkers)
            obj = spans_written(v, v.geometry.to_json(throw.board))
            obj["dice"] = list(throw.dice)
            if "passed" not in str(throw):
                legal = {key(line) for line in legal_results(v, obj)["results"]}
                after = spans_written(v, v.geometry.to_json(e.board))
                assert key(after) in legal, (obj, after)
            throw = None
    if r.winner is None:
        assert any(isinstance(e, Tied) for e in g.log)
    else:
        ended = next(e for e in g.log if isinstance(e, Ended))
        assert (ended.winner, ended.value) == (r.winner, r.value) and r.value == 1
    return g


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_conserve_the_men_play_legal_results_and_end(game):
    v = variant(game)
    for seed in range(scaled(5, 1)):
        checked_game(v, seed)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_game(game):
    v = variant(game)
    seen = []
    for _ in range(2):
        g = Game(v, 7, max_turns=60)
        r = g.run([make_player("random", 7, v), make_player("random", 8, v)])
        seen.append((r.winner, r.turns, tuple(g.board), tuple(map(str, g.log))))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_game_replays_and_resumes(tmp_path: Path, game):
    """A finished game, saved and read back, replays through the rules to the same record, log
    and result; one stopped part-way passes every check of `--resume`."""
    v = variant(game)
    for seed, max_turns in ((3, 20000), (4, 30)):
        g = Game(v, f"{seed}/0", max_turns=max_turns)
        r = g.run([make_player("random", seed, v), make_player("random", seed + 1, v)])
        record = record_of(g, seed, ("random", "random"), OPTIONS.get(game, []))
        path = tmp_path / f"{game}-{seed}.toml"
        write_save(path, record, state_of(g))
        data, back = read_save(path)
        assert back.lines() == record.lines()
        if max_turns == 20000:
            again = replay(back, v)
            assert again.game.record == g.record and again.game.log == g.log
            assert again.result is not None and (again.result.winner, again.result.value) == \
                (r.winner, r.value)
        else:
            checked_replay(data, back, v)


def test_doze_canes_asks_the_opening_winner_for_the_goal_and_keeps_it():
    v = variant("doze-canes")
    g = Game(v, 5)
    play = g.play()
    d = next(play)
    assert d.kind == "choose" and d.choices == ("19-24", "13-18", "7-12", "1-6")
    assert g.choosing.title == "The goal quarter"
    chooser = d.player
    d = play.send("7-12")
    # the goal is his third quarter: his pips 7..12, the opponent's 13..18
    slot, other = v.geometry.state_slot("goal"), v.geometry.state_slot("goal", mine=False)
    assert g.mover == chooser and (g.board[slot], g.board[other]) == (7, 13)
    n = 0
    while n < 30:
        try:
            d = play.send(0)
        except StopIteration:
            break
        assert d.kind != "choose"
        n += 1
    # the board seen by either player keeps the same physical quarter
    mine = g.board[slot] if g.mover == chooser else g.board[other]
    assert mine == 7


def test_laquet_passes_the_numbers_that_cannot_be_played_to_the_opponent():
    """Numbers a throw leaves unplayed go to the opponent, whose stage offers to play them or
    not (the unchanged position among its choices); LQ2's passed 5 and 4 give 53 ways."""
    v = variant("laquet")
    declinable = passed = 0
    for seed in range(6):
        g = Game(v, seed)
        play = g.play()
        try:
            d = next(play)
            while True:
                if d.kind == "play" and g.choice_base in d.choices:
                    declinable += 1
                d = play.send(len(d.choices) - 1)
        except StopIteration:
            pass
        passed += sum(1 for e in g.log if type(e).__name__ == "Passed")
    assert passed > 0 and declinable > 0
    obj = v.geometry.to_json(v.start_of(1))
    obj["state"] = {"passed": [5, 4]}
    lines = legal_results(v, obj)["results"]
    assert len(lines) == 53 and all(line["next"] == "throw" for line in lines)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_search_one_plays_each_game_to_its_end(game):
    v = variant(game)
    g = Game(v, 11)
    r = g.run([make_player("search:1", 11, v), make_player("random", 12, v)])
    assert r.finished
