"""The typed events of a game's log and the entries of its record (engine/events.py): every output
of the seeded games of tests/events_outputs.py is what it was before the events were typed (the
fixture tests/data/events/outputs.json), every event of a log is an object of a class of
engine/events.py, and every entry of a record reads back from its text."""
from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import sys
from pathlib import Path

import pytest

import interpreter.engine.events as events
from interpreter.engine.contract import Resign
from interpreter.engine.events import Decided, RecordEntry, Thrown
from interpreter.engine.game import Game
from interpreter.engine.record import entry_text, parse_entry, record_of, replay
from interpreter.io.save import read_save, state_of, write_save
from interpreter.players.bots import GreedyBot
from interpreter.runner import play_game
from interpreter.variant.build import load_variant

sys.path.insert(0, str(Path(__file__).parent))
import events_outputs  # noqa: E402

#: the classes of engine/events.py
CLASSES = tuple(c for _, c in inspect.getmembers(events, inspect.isclass)
                if c.__module__ == events.__name__)

#: (variant, seed, white, black, --set options): a cube match, a partie à écrire, a combiné,
#: points and holes with schools, a rotation (tavli, with a tie), tric-trac-12, a roll event
#: (acey-deucey), numbers passed on (gul-bara)
LOGGED = (
    ("backgammon", 1, "greedy", "greedy", ("ladder.match_length=5",)),
    ("trictrac-ecrire", 2, "greedy", "greedy", ("ladder.strict_marker_claims=true",)),
    ("trictrac-combine", 2, "random", "greedy", ()),
    ("triktrak", 1, "random", "greedy", ('options.schools="on"',)),
    ("tavli", 3, "random", "greedy", ()),
    ("plakoto", 13, "random", "random", ()),
    ("tric-trac-12", 2, "random", "random", ()),
    ("acey-deucey", 1, "greedy", "greedy", ()),
    ("gul-bara", 1, "random", "random", ('options.gb_progression_rest="opponent"',)),
)

_PLAYED: dict[tuple, Game] = {}


def played(game: tuple) -> Game:
    """The game played with its record kept (each once)."""
    if game not in _PLAYED:
        variant_id, seed, white, black, sets = game
        result = play_game(load_variant(variant_id, sets), seed, 0, white, black,
                           keep_record=True)
        assert result.game is not None
        _PLAYED[game] = result.game
    return _PLAYED[game]


@functools.cache
def resigned_games() -> list[tuple[str, Game]]:
    """Two backgammon games with a resignation, one declined, one accepted: (seed, game)."""
    v = load_variant("backgammon")
    out = []
    for declined in (True, False):
        seed = f"events-{declined}"
        g = Game(v, f"{seed}/0", resigns=True)
        bots = [GreedyBot(1), GreedyBot(2)]
        gen = g.play()
        d = next(gen)
        for _ in range(8):
            d = gen.send(bots[d.player].answer(d))
        while d.player != 0 or d.kind == "resign":
            d = gen.send(bots[d.player].answer(d))
        d = gen.send(Resign("single"))
        assert d.kind == "resign"
        try:
            d = gen.send("decline" if declined else "accept")
            while True:
                d = gen.send(bots[d.player].answer(d))
        except StopIteration:
            pass
        out.append((seed, g))
    return out


# -- (a) the outputs are those of the fixture ----------------------------------------------------

@pytest.fixture(scope="module")
def fixture() -> dict:
    return json.loads(events_outputs.FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", events_outputs.GAMES, ids=events_outputs.key)
def test_every_output_of_a_seeded_game_is_the_fixture(game: tuple, fixture: dict) -> None:
    want = fixture[events_outputs.key(game)]
    got = events_outputs.fixture_of(game)
    assert set(got) == set(want)
    for name in want:
        assert got[name] == want[name], name


# -- (b) every event is typed ----------------------------------------------------------------------

@pytest.mark.parametrize("game", LOGGED, ids=events_outputs.key)
def test_every_event_of_a_log_is_one_of_the_event_classes(game: tuple) -> None:
    g = played(game)
    assert g.log and g.record
    for e in g.log:
        assert type(e) in CLASSES, e
    for e in g.record:
        assert type(e) in (Thrown, Decided), e
    # the record is the log's throws and decisions, the same objects in the same order
    assert [e for e in g.log if isinstance(e, (Thrown, Decided))] == g.record
    assert all(a is b for a, b in zip((e for e in g.log if isinstance(e, (Thrown, Decided))),
                                      g.record))
    # the log's throws hold the board before them
    assert all(e.board is not None for e in g.log if isinstance(e, Thrown))


def test_the_games_log_every_kind_of_event() -> None:
    """Every class of engine/events.py is logged by one of the games (none is left unused)."""
    seen = {type(e) for game in LOGGED for e in played(game).log}
    seen |= {type(e) for _, g in resigned_games() for e in g.log}
    assert seen == set(CLASSES), sorted(c.__name__ for c in set(CLASSES) - seen)


def test_the_events_are_frozen_slots_dataclasses() -> None:
    for cls in CLASSES:
        params = cls.__dataclass_params__       # type: ignore[attr-defined]
        assert dataclasses.is_dataclass(cls) and params.frozen, cls
        assert "__slots__" in cls.__dict__, cls
    e = events.Hole(0, 2, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.holes = 3  # type: ignore[misc]


# -- (c) the record's entries round-trip through their text ----------------------------------------

@pytest.mark.parametrize("game", LOGGED[:5], ids=events_outputs.key)
def test_record_entries_read_back_from_their_text(game: tuple) -> None:
    g = played(game)
    for n, e in enumerate(g.record, 1):
        text = entry_text(e)
        back: RecordEntry = parse_entry(text, n)
        assert back == e and type(back) is type(e)
        assert entry_text(back) == text == e.text()
        if isinstance(back, Thrown):
            assert back.board is None           # the record states no board


def test_record_entry_texts() -> None:
    assert Thrown(0, 3, 1).text() == "white throws 3-1"
    assert Decided(1, "take", "pass").text() == "black take pass"
    assert Decided(0, "play", "8/5 6/5").text() == "white play 8/5 6/5"
    assert parse_entry("white resigns gammon", 1) == Decided(0, "resigns", "gammon")
    assert parse_entry("black throws 6-6", 2) == Thrown(1, 6, 6)
    # the board is no part of what a throw states
    assert Thrown(0, 3, 1, (0,) * 28) == Thrown(0, 3, 1)


def test_a_resigned_game_saves_and_replays(tmp_path: Path) -> None:
    v = load_variant("backgammon")
    for seed, g in resigned_games():
        record = record_of(g, seed, ("human", "greedy"))
        path = tmp_path / "game.toml"
        write_save(path, record, state_of(g))
        _, back = read_save(path)
        assert back.lines() == record.lines()
        assert back.entries == record.entries
        again = replay(back, v)
        assert again.game.record == g.record and again.game.log == g.log
