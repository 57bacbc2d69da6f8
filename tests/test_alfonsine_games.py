"""Whole games of the twelve games of tables-family part 3 that ship, through the turn loop: the
men conserved after every throw and play, every play one of the legal results of its throw (as
`tablier moves` lists them), games ending, the same seed giving the same game, a saved game
replaying and resuming, the choice before the game (Doze canes) asked and kept, numbers passed
on (Laquet, Doblet) offered to the opponent, and `search:1` playing each game to its end."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from budget import scaled
from game_harness import each_decision_answered_last
from interpreter.analysis import legal_results, spans_written
from interpreter.engine.events import Ended, Played, Thrown, Tied
from interpreter.engine.game import Game
from interpreter.engine.record import record_of, replay
from interpreter.io.save import checked_replay, read_save, state_of, write_save
from interpreter.players.kinds import make_player
from interpreter.variant.build import load_variant

GAMES = ("quinze-tablas", "doze-canes", "seys-dos-e-as", "cab-e-quinal", "todas-tablas",
         "medio-emperador", "pareia-de-entrada", "fallas", "laquet", "buffa-de-baldrac",
         "verquere", "doblet", "xii-scripta")
#: Doze canes' games often reach a position where neither side can move: the draw ends them
OPTIONS = {"doze-canes": ['dc_blocked="draw"']}


def variant(game: str) -> Any:
    return load_variant(game, OPTIONS.get(game, []))


def key(line: dict[str, Any]) -> str:
    state = line.get("state") or {}
    return json.dumps([line["points"], line["bar"], line["off"], state.get("unentered"),
                       state.get("stacked")])


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
        for d in each_decision_answered_last(g):
            if d.kind == "play" and g.choice_base in d.choices:
                declinable += 1
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


def test_laquet_numbers_passed_instead_of_a_throw_are_the_opponents_whole_turn():
    """`lq_passed = "instead_of_throw"`: the receiver plays the numbers passed to him as a throw
    of his own and does not throw; the passer throws next."""
    v = load_variant("laquet", ['lq_passed="instead_of_throw"'])
    stages = 0
    for seed in range(scaled(6, 3)):
        g = Game(v, seed)
        r = g.run([make_player("random", seed, v), make_player("random", seed + 1, v)])
        assert r.finished
        throws = [e for e in g.log if isinstance(e, Thrown)]
        for e, nxt in zip(throws, throws[1:]):
            if e.passed:
                stages += 1
                assert nxt.side != e.side and not nxt.passed, (e, nxt)
    assert stages > 0


def test_a_stage_rule_instead_of_a_throw_needs_numbers_the_opponent_must_play(tmp_path):
    from interpreter.variant.build import validate_paths

    text = (Path(__file__).parents[1] / "variants" / "laquet.toml").read_text(encoding="utf-8")
    text = text.replace('id = "laquet"', 'id = "laquet-x"').replace(
        "instead_of_throw = true", "instead_of_throw = true\noptional = true")
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    found = validate_paths([path])
    assert [d.code for d in found] == ["bad-value"]
    assert "`instead_of_throw` makes the numbers passed the opponent's turn" in found[0].render()


FIXED = ['cq_third_die="fixed"']


def test_cab_e_quinal_fixed_third_die_is_chosen_before_the_game_and_serves_every_throw():
    v = load_variant("cab-e-quinal", FIXED)
    assert v.layout == {19: 14, 6: 1}
    g = Game(v, 11)
    play = g.play()
    d = next(play)
    assert d.kind == "choose" and d.choices == ("1", "2", "3", "4", "5", "6")
    assert g.choosing.title == "The fixed third die"
    d = play.send("4")
    while True:
        try:
            d = play.send(0)
        except StopIteration:
            break
        assert d.kind != "choose"
    throws = [e for e in g.log if isinstance(e, Thrown)]
    assert len(throws) > 10 and {e.d3 for e in throws} == {4}
    # the two thrown dice still vary
    assert len({(e.d1, e.d2) for e in throws}) > 5


def test_cab_e_quinal_asks_no_choice_when_the_third_die_is_thrown():
    v = load_variant("cab-e-quinal")
    assert v.choices == () and v.layout == {19: 15}
    g = Game(v, 11)
    r = g.run([make_player("random", 1, v), make_player("random", 2, v)])
    assert r.finished
    assert len({e.d3 for e in g.log if isinstance(e, Thrown)}) == 6


def test_cab_e_quinal_fixed_die_saves_resumes_and_plays_search(tmp_path: Path):
    v = load_variant("cab-e-quinal", FIXED)
    g = Game(v, "3/0")
    r = g.run([make_player("random", 3, v), make_player("random", 4, v)])
    record = record_of(g, 3, ("random", "random"), FIXED)
    path = tmp_path / "cq.toml"
    write_save(path, record, state_of(g))
    _data, back = read_save(path)
    again = replay(back, v)
    assert again.game.log == g.log and again.result is not None
    assert (again.result.winner, again.result.value) == (r.winner, r.value)
    # search:1 weighs the 36 throws of the two dice with the third fixed
    s = Game(v, 5, max_turns=40)
    s.run([make_player("search:1", 5, v), make_player("random", 6, v)])
    fixed = {e.d3 for e in s.log if isinstance(e, Thrown)}
    assert len(fixed) == 1 and fixed <= set(range(1, 7))


def test_a_fixed_die_needs_a_count_of_three_dice_and_a_state(tmp_path: Path):
    from interpreter.variant.build import validate_paths

    text = (Path(__file__).parents[1] / "variants" / "cab-e-quinal.toml").read_text(
        encoding="utf-8").replace('id = "cab-e-quinal"', 'id = "cq-x"')
    bad = text.replace('fixed_die = "fixed_die"', 'fixed_die = "fixed"').replace(
        'only_if = { cq_third_die = "fixed" }', 'only_if = { cq_third = "fixed" }')
    path = tmp_path / "x.toml"
    path.write_text(bad, encoding="utf-8")
    found = validate_paths([path])
    assert sorted(d.code for d in found) == ["unknown-name", "unknown-option"], \
        [d.render() for d in found]
    assert any("`fixed_die` names `fixed`" in d.render() for d in found)
    two = text.replace("count = 3  ", "count = 2  ")
    path.write_text(two, encoding="utf-8")
    found = validate_paths([path])
    assert any(d.code == "bad-value" and "it needs `count = 3`" in d.render() for d in found), \
        [d.render() for d in found]


@pytest.mark.parametrize("text, dice, moves", [
    ("black takes the passed 5", (5, 5, 0), 1), ("white takes the passed 2 × 4", (4, 4, 0), 2),
    ("black takes the passed 6 and 5", (6, 5, 0), 2),
    ("white takes the passed 4, 4 and 3", (4, 4, 3), 3)])
def test_numbers_passed_are_recorded_as_passed_not_thrown(text, dice, moves):
    from interpreter.engine.record import parse_entry

    e = parse_entry(text, 1)
    assert isinstance(e, Thrown) and (e.d1, e.d2, e.d3) == dice and e.passed == moves
    assert e.text() == text


def test_a_saved_laquet_game_writes_the_passed_numbers_and_an_older_save_still_reads(
        tmp_path: Path):
    from interpreter.engine.record import parse_entry

    v = load_variant("laquet")
    g = Game(v, "3/0")
    r = g.run([make_player("random", 3, v), make_player("random", 4, v)])
    record = record_of(g, 3, ("random", "random"))
    lines = record.lines()
    passed = [x for x in lines if " takes the passed " in x]
    assert passed and not any("throws" in x for x in lines
                              if x.startswith(("white takes", "black takes")))
    # an older save wrote them as a throw: it replays all the same
    def older(x: str) -> str:
        e = parse_entry(x, 1)
        if isinstance(e, Thrown) and e.passed:
            return f"{x.split()[0]} throws {'-'.join(map(str, (e.d1, e.d2)))}"
        return x

    record.entries = [parse_entry(older(x), i + 1) for i, x in enumerate(lines)]
    assert not any(" takes " in x for x in record.lines())
    again = replay(record, v)
    assert again.result is not None and (again.result.winner, again.result.value) == \
        (r.winner, r.value)
