"""The doubling cube (rules/match-scoring.md §7): tests B1–B11 of §7.6, the cube protocol in live
games through the players interface, the bots' policies, and properties of the cube machine."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collections import namedtuple
from types import SimpleNamespace

from budget import scaled

from interpreter.engine.events import Cubed
from interpreter.engine.game import Game, opening_roll
from interpreter.players import policy
from interpreter.players.base import DOUBLES, capabilities_of
from interpreter.errors import RecordError, VariantError
from interpreter.kernel.board import from_json
from interpreter.players.bots import GreedyBot, RandomBot
from interpreter.scoring.cube import Cube, CubeLadder, Match, cube_state
from interpreter.sim import play_game
from interpreter.variant.build import load_variant
from interpreter.variant.loader import load_document

A, B = 0, 1


@pytest.fixture(scope="module")
def backgammon():
    return load_variant("backgammon")


def board(mine: dict[int, int], theirs: dict[int, int], *, bar=(0, 0), off=(0, 0)):
    """A board seen by the winner: `mine` his checkers by pip, `theirs` the loser's by the
    winner's pip numbering."""
    points = [0] * 24
    for p, n in mine.items():
        points[p - 1] = n
    for p, n in theirs.items():
        points[p - 1] = -n
    return from_json({"points": points, "bar": list(bar), "off": list(off)})


def value_of(variant, b) -> int:
    return int(variant.rules.game_value(b))


# -- B1–B4: game value = cube × k ------------------------------------------------------------------

def test_b1_single_game(backgammon):
    # the winner has borne off all 15; the loser has borne off 3
    b = board({}, {20: 12}, off=(15, 3))
    assert value_of(backgammon, b) == 1
    assert Cube(CubeLadder()).points(1) == 1


def test_b2_gammon(backgammon):
    b = board({}, {20: 15}, off=(15, 0))
    assert value_of(backgammon, b) == 2
    assert Cube(CubeLadder()).points(2) == 2


def test_b3_backgammon_with_a_checker_on_the_bar(backgammon):
    b = board({}, {20: 14}, bar=(0, 1), off=(15, 0))
    assert value_of(backgammon, b) == 3
    # ... and with one in the winner's home board
    assert value_of(backgammon, board({}, {20: 14, 3: 1}, off=(15, 0))) == 3


def test_b4_cube_four_gammon():
    cube = Cube(CubeLadder())
    cube.offer(A)
    cube.take(B)
    cube.offer(B)
    cube.take(A)
    assert (cube.value, cube.owner) == (4, A)
    assert cube.points(2) == 8


# -- B5, B6, B8, B10: the protocol -----------------------------------------------------------------

def test_b5_double_passed():
    cube = Cube(CubeLadder())
    assert cube.may_double(A) and cube.may_double(B)       # centred: either may
    cube.offer(A)
    assert cube.answers(B) == ("take", "pass")
    assert cube.drop(B) == (A, 1)


def test_b6_take_redouble_pass():
    cube = Cube(CubeLadder())
    cube.offer(A)
    cube.take(B)
    assert (cube.value, cube.owner) == (2, B)
    assert not cube.may_double(A) and cube.may_double(B)   # only the owner redoubles
    with pytest.raises(RecordError, match="owns the cube"):
        cube.offer(A)
    cube.offer(B)
    assert cube.value == 2 and cube.pending.value == 4     # the cube moves only when taken
    assert cube.drop(A) == (B, 2)


def test_b8_cap_at_64():
    cube = Cube(CubeLadder())
    for doubler in (A, B, A, B, A, B):
        cube.offer(doubler)
        cube.take(1 - doubler)
    assert (cube.value, cube.owner) == (64, A)
    assert not cube.may_double(A)
    with pytest.raises(RecordError, match="cannot go above 64"):
        cube.offer(A)
    free = Cube(CubeLadder(cube_cap="unlimited"))
    for doubler in (A, B, A, B, A, B, A):
        free.offer(doubler)
        free.take(1 - doubler)
    assert free.value == 128


def test_b10_beaver_refused_or_accepted():
    ladder = CubeLadder(beavers=True)
    refused = Cube(ladder)
    refused.offer(A)
    assert refused.answers(B) == ("take", "pass", "beaver")
    assert refused.instant_redouble(B) == "beaver"
    assert refused.answers(A) == ("take", "pass")           # no raccoon by default
    assert refused.drop(A) == (B, 2)                        # A refuses: B +2
    accepted = Cube(ladder)
    accepted.offer(A)
    accepted.instant_redouble(B)
    accepted.take(A)
    assert (accepted.value, accepted.owner) == (4, B)      # cube 4 owned by B


def test_raccoon_and_unrefusable_beaver():
    raccoons = Cube(CubeLadder(beavers=True, max_instant_redoubles=2))
    raccoons.offer(A)
    raccoons.instant_redouble(B)
    assert raccoons.answers(A) == ("take", "pass", "raccoon")
    assert raccoons.instant_redouble(A) == "raccoon"
    assert raccoons.answers(B) == ("take", "pass")
    raccoons.take(B)
    assert (raccoons.value, raccoons.owner) == (8, B)      # the cube stays with the beaverer
    forced = Cube(CubeLadder(beavers=True, beaver_refusable=False))
    forced.offer(A)
    forced.instant_redouble(B)
    assert forced.answers(A) == ("take",)
    with pytest.raises(RecordError, match="cannot be refused"):
        forced.drop(A)


def test_no_beaver_without_the_option():
    cube = Cube(CubeLadder())
    cube.offer(A)
    with pytest.raises(RecordError, match="beavers are not allowed"):
        cube.instant_redouble(B)


# -- B7: see tests/test_match.py (the Crawford game) -----------------------------------------------

def test_b7_crawford_game_has_no_cube():
    match = Match(CubeLadder(match_length=5), score=[4, 1])
    cube = match.new_game()
    assert cube.crawford and not cube.may_double(A) and not cube.may_double(B)
    with pytest.raises(RecordError, match="Crawford"):
        cube.offer(B)
    match.finish(cube, B, 1, 1, "play")                    # the trailer wins it: 4–2
    after = match.new_game()
    assert not after.crawford and after.may_double(B)


# -- B9, B11: money-play options -------------------------------------------------------------------

def test_b9_jacoby():
    jacoby = CubeLadder(jacoby=True)
    assert Cube(jacoby).points(2) == 1 and Cube(jacoby).points(3) == 1
    cube = Cube(jacoby)
    cube.offer(A)
    cube.take(B)
    assert cube.points(2) == 4                             # a double was taken: gammons count


def test_b11_money_options_are_ignored_in_a_match():
    ladder = CubeLadder(match_length=5, jacoby=True, beavers=True, auto_doubles=3)
    cube = Match(ladder).new_game()
    assert cube.points(2) == 2                             # no Jacoby
    cube.offer(A)
    assert cube.answers(B) == ("take", "pass")             # no beaver
    assert not Cube(ladder).auto_double()                  # no automatic double
    assert not ladder.jacoby_in_use and not ladder.beavers_in_use
    assert ladder.auto_doubles_in_use == 0


def test_one_point_match_has_no_cube():
    assert not Match(CubeLadder(match_length=1)).new_game().may_double(A)
    assert Match(CubeLadder(match_length=1, one_point_cube="on")).new_game().may_double(A)
    assert not Cube(CubeLadder(doubling=False)).may_double(A)


def test_automatic_doubles():
    cube = Cube(CubeLadder(auto_doubles=2))
    assert cube.auto_double() and cube.auto_double() and not cube.auto_double()
    assert (cube.value, cube.owner) == (4, None)
    assert not Cube(CubeLadder()).auto_double()


# -- the ladder in the variant file ----------------------------------------------------------------

def test_backgammon_file_states_the_defaults(backgammon):
    assert backgammon.ladder == CubeLadder()
    assert backgammon.ladder.match_length == 0 and backgammon.ladder.cube_cap == 64


@pytest.mark.parametrize("override, text", [
    ("ladder.cube_cap=48", "power of two"),
    ('ladder.cube_cap="none"', "cube_cap"),
    ("ladder.match_length=-1", "match_length"),
    ("ladder.crawford=1", "crawford"),
    ("ladder.beaver=true", "beavers"),
])
def test_bad_ladder_keys_are_diagnosed(override, text):
    with pytest.raises(VariantError) as info:
        load_document("backgammon", [override])
    assert text in str(info.value)


# -- live games: the players interface -------------------------------------------------------------

class Scripted:
    """Plays the first legal result; answers cube questions from a script, question by question
    (then the first choice), and records every question asked."""

    kind = "scripted"
    capabilities = frozenset({DOUBLES})

    def __init__(self, **answers: list[str]):
        self.answers = {q: list(a) for q, a in answers.items()}
        self.asked: list[tuple[str, tuple[str, ...]]] = []

    def answer(self, decision: Any) -> int | str:
        if decision.is_play:
            return 0
        question, choices = decision.kind, tuple(decision.choices)
        self.asked.append((question, choices))
        queue = self.answers.get(question)
        return queue.pop(0) if queue else choices[0]


def run(variant, white, black, seed=1, keep_record=True):
    return Game(variant, seed, keep_record=keep_record,
                doubles=capabilities_of((white, black))).run((white, black))


CubeEvent = namedtuple("CubeEvent", "player what value")


def cube_events(result) -> list:
    """The cube actions of a played game, from its log (takes and passes with value 0)."""
    return [CubeEvent(e.side, e.action, 0 if e.action in ("take", "pass") else e.value)
            for e in result.log if isinstance(e, Cubed) and e.side is not None]


def test_live_double_and_pass(backgammon):
    white = Scripted(double=["double"], take=["pass"])
    black = Scripted(double=["double"], take=["pass"])
    result = run(backgammon, white, black)
    (game,) = result.extra["games"]
    assert (game["result"], game["points"], game["cube"]) == ("pass", 1, 1)
    doubler = game["winner"]
    asker = white if doubler == "white" else black
    answerer = black if asker is white else white
    assert asker.asked[0] == ("double", ("roll", "double"))
    assert answerer.asked == [("take", ("take", "pass"))]
    assert result.finished and result.value == 1


def test_live_take_redouble_take_then_play_out(backgammon):
    white = Scripted(double=["double"])
    black = Scripted(double=["double"])
    result = run(backgammon, white, black)
    (game,) = result.extra["games"]
    # the first doubler's opponent takes, redoubles when next on roll, and the doubler takes
    events = cube_events(result)
    assert [(e.what, e.value) for e in events] == [("double", 2), ("take", 0), ("double", 4),
                                                   ("take", 0)]
    assert events[0].player == events[3].player == 1 - events[1].player
    assert game["cube"] == 4 and game["result"] in ("single", "gammon", "backgammon")
    assert game["points"] == 4 * {"single": 1, "gammon": 2, "backgammon": 3}[game["result"]]
    assert game["cube_owner"] == ("white", "black")[events[3].player]


def test_live_beaver_refused_and_accepted():
    """B10 in play: A doubles, B beavers; A refuses (B +2) or accepts (cube 4, B owns it). One
    scripted object plays both sides, so the script is the exchange in order."""
    variant = load_variant("backgammon", ["ladder.beavers=true"])
    both = Scripted(double=["double"], take=["beaver", "pass"])
    result = run(variant, both, both)
    (game,) = result.extra["games"]
    events = [(e.what, e.value) for e in cube_events(result)]
    assert events == [("double", 2), ("beaver", 4), ("pass", 0)]
    doubler = cube_events(result)[0].player
    assert both.asked[-1] == ("take", ("take", "pass"))
    assert (game["winner"], game["points"], game["result"]) == (("white", "black")[1 - doubler],
                                                                 2, "pass")
    both = Scripted(double=["double"], take=["beaver", "take"])
    result = run(variant, both, both)
    (game,) = result.extra["games"]
    events = cube_events(result)
    assert [(e.what, e.value) for e in events] == [("double", 2), ("beaver", 4), ("take", 0)]
    assert game["cube"] == 4 and game["cube_owner"] == ("white", "black")[events[1].player]


def test_random_bot_never_doubles_nor_beavers(backgammon):
    variant = load_variant("backgammon", ["ladder.beavers=true"])
    for i in range(30):
        result = play_game(variant, 11, i, "random", "random", keep_record=True)
        assert not cube_events(result)
        assert result.extra["games"][0]["cube"] == 1


def test_random_bot_is_not_offered_a_beaver(backgammon):
    variant = load_variant("backgammon", ["ladder.beavers=true"])
    white = Scripted(double=["double"] * 50)

    class Spy(RandomBot):
        def __init__(self):
            super().__init__("spy")
            self.asked = []

        def answer(self, decision):
            if decision.is_play:
                return 0
            self.asked.append((decision.kind, tuple(decision.choices)))
            return "take"

    spy = Spy()
    run(variant, white, spy)
    assert spy.asked and all(q == ("take", ("take", "pass")) for q in spy.asked)


def test_money_play_with_random_bots_is_the_plain_game(backgammon, tmp_path):
    """The random bots never double: the cube runner plays the very games of `kind = "game"`."""
    plain_file = tmp_path / "plain.toml"
    plain_file.write_text('extends = "backgammon"\n[ladder]\nkind = "game"\n', encoding="utf-8")
    plain = load_variant(plain_file)
    for i in range(20):
        a = play_game(backgammon, 5, i)
        b = play_game(plain, 5, i)
        assert (a.winner, a.value, a.turns) == (b.winner, b.value, b.turns)


def test_automatic_doubles_in_live_play():
    variant = load_variant("backgammon", ["ladder.auto_doubles=1"])
    seen_tie = False
    for i in range(40):
        result = play_game(variant, 2, i)
        game = Game(variant, f"2/{i}")
        _first, _d1, _d2, ties = opening_roll(game.dice_rng, "one_die_each")
        cube = 2 if ties else 1
        seen_tie = seen_tie or bool(ties)
        entry = result.match.games[0]
        assert entry.cube == cube and entry.points == cube * entry.k
    assert seen_tie


def _view(variant, match: Match, cube: Cube, roller_board, player: int, roller: int = A):
    """What the player asked sees: the board from his side, the cube and the match."""
    b = roller_board if player == roller else variant.flip(roller_board)
    return SimpleNamespace(variant=variant, board=b, mover=player == roller,
                           ladder=cube_state(match, cube, player))


def test_greedy_cube_policy(backgammon):
    """The greedy bot doubles a large race lead, and the opponent passes it; an even race is
    neither doubled nor passed."""
    match = Match(backgammon.ladder)
    # 55 pips against 65 (their checkers 6 and 7 pips from home): an 18 % lead
    cube = match.new_game()
    b = board({6: 5, 5: 5}, {19: 5, 18: 5})
    assert policy.cube(_view(backgammon, match, cube, b, A), "double") == "double"
    cube.offer(A)
    assert policy.cube(_view(backgammon, match, cube, b, B), "take") == "pass"
    # 30 pips each
    cube = Cube(backgammon.ladder)
    b = board({6: 5}, {19: 5})
    assert policy.cube(_view(backgammon, match, cube, b, A), "double") == "roll"
    cube.offer(A)
    assert policy.cube(_view(backgammon, match, cube, b, B), "take") == "take"
    # a match in which the cube already wins: no double
    match = Match(CubeLadder(match_length=5), score=[3, 0])
    cube = match.new_game()
    cube.offer(B)
    cube.take(A)
    b = board({6: 5, 5: 5}, {19: 5, 18: 5})
    assert policy.cube(_view(backgammon, match, cube, b, A), "double") == "roll"


def test_greedy_bots_use_the_cube_in_matches(backgammon):
    variant = load_variant("backgammon", ["ladder.match_length=5"])
    doubles = 0
    for i in range(6):
        result = play_game(variant, 4, i, "greedy", "greedy", keep_record=True)
        assert result.finished
        doubles += sum(1 for e in cube_events(result) if e.what == "double")
    assert doubles > 0


# -- properties ------------------------------------------------------------------------------------

ladders = st.builds(
    CubeLadder,
    cube_cap=st.sampled_from([1, 2, 8, 64, "unlimited"]),
    beavers=st.booleans(),
    max_instant_redoubles=st.integers(1, 3),
    beaver_refusable=st.booleans(),
    jacoby=st.booleans(),
    match_length=st.sampled_from([0, 0, 3, 7]),
)
events = st.lists(st.tuples(st.sampled_from(["offer", "take", "drop", "instant"]),
                            st.integers(0, 1)), max_size=40)


@settings(max_examples=scaled(200), deadline=None)
@given(ladder=ladders, events=events)
def test_cube_properties(ladder: CubeLadder, events: list) -> None:
    """Whatever is attempted: the cube is a power of two up to the cap, only its owner (or
    anyone while it is centred) doubles, a refused event changes nothing, and a take gives the
    cube to the player first doubled."""
    cube = Cube(ladder)
    cap = ladder.cap
    for what, p in events:
        before = (cube.value, cube.owner, cube.pending)
        may = {"offer": cube.may_double(p),
               "instant": cube.may_redouble_instantly(p),
               "take": cube.pending is not None and cube.pending.to == p,
               "drop": cube.may_pass(p)}[what]
        first_doubled = cube.pending.taker if cube.pending else None
        try:
            out = {"offer": cube.offer, "instant": cube.instant_redouble, "take": cube.take,
                   "drop": cube.drop}[what](p)
        except RecordError:
            assert not may
            assert (cube.value, cube.owner, cube.pending) == before
            continue
        assert may
        if what == "offer":
            assert before[1] in (None, p)                   # only the owner redoubles
        if what == "take":
            assert cube.owner == first_doubled
        if what == "drop":
            winner, points = out
            assert winner == 1 - p and points >= 1
            cube = Cube(ladder)                             # the game is over: a new one
            continue
        v = cube.value
        assert v & (v - 1) == 0 and (cap is None or v <= cap)
        if cube.pending is not None:
            pv = cube.pending.value
            assert pv & (pv - 1) == 0 and (cap is None or pv <= cap) and pv > v
        if ladder.is_match:
            assert cube.pending is None or cube.pending.instant == 0   # no beavers in a match
