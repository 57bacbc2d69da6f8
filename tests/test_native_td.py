"""Self-play training in compiled code (interpreter/native/td_emit.py) against the Python
trainer, its reference: the same weights from the same command; a game the compiled loop
hands back is played by the Python trainer and changes nothing; and the contact counts of
players/contact.py, which both read, on positions whose counts are known.

The default suite trains backgammon (its module is compiled once per machine, some 15 s); the
slow set every variant the compiled trainer serves.
"""
from __future__ import annotations

import os
import random
from contextlib import contextmanager

import numpy as np
import pytest

from interpreter.players import contact, td
from interpreter.players.features import Encoder, contact_block
from interpreter.players.net import ValueNet
from interpreter.variant.build import load_variant

numba = pytest.importorskip("numba")


@contextmanager
def _both_paths(variant):
    """The learned judge of `variant` on the compiled path and a copy on the Python path
    (fast, slow), the judges made afresh."""
    from interpreter import native
    from interpreter.players import kinds
    from interpreter.players.learned import NetJudge

    native.accelerate_net(variant)
    kinds._JUDGES.clear()
    try:
        fast = kinds.judge_for(variant, True, None)
        assert fast.fast is not None
        slow = NetJudge(variant, fast.net)
        slow._fast = None
        yield fast, slow
    finally:
        kinds._JUDGES.clear()


@contextmanager
def _path(compiled: bool):
    """The compiled path or the Python path (TABLIER_NATIVE), the judges made afresh."""
    from interpreter.players import kinds

    old = os.environ.get("TABLIER_NATIVE")
    os.environ["TABLIER_NATIVE"] = "1" if compiled else "0"
    kinds._JUDGES.clear()
    try:
        yield
    finally:
        kinds._JUDGES.clear()
        if old is None:
            os.environ.pop("TABLIER_NATIVE", None)
        else:
            os.environ["TABLIER_NATIVE"] = old


def _training_variant(vid: str):
    return load_variant(vid, td.training_overrides(load_variant(vid)))


def _train(vid: str, games: int, out, *, compiled: bool, hidden: int = 10,
           lam: float = 0.7) -> ValueNet:
    with _path(compiled):
        v = _training_variant(vid)
        return td.train(v, vid, games, out, seed=5, hidden=hidden, lam=lam,
                        checkpoint_every=max(games // 2, 1))


def _fresh(vid: str, hidden: int = 10) -> np.ndarray:
    v = _training_variant(vid)
    return ValueNet(Encoder(v).size, hidden, td.value_levels(v), seed=5).theta


def test_the_compiled_trainer_serves_the_backgammon_family_only():
    bg = _training_variant("backgammon")
    net = ValueNet(Encoder(bg).size, 4, td.value_levels(bg), seed=1)
    assert td.CompiledTrainer.make(bg, net, Encoder(bg), alpha=0.1, lam=0.7) is not None
    pl = _training_variant("plakoto")
    net = ValueNet(Encoder(pl).size, 4, td.value_levels(pl), seed=1)
    assert td.CompiledTrainer.make(pl, net, Encoder(pl), alpha=0.1, lam=0.7) is None


@pytest.mark.parametrize("lam", [0.7, 0.0])
def test_compiled_training_makes_the_python_trainers_weights(tmp_path, lam):
    """Thirty games of backgammon, both sides learning after every choice: the weights move
    (the test would pass trivially otherwise) and agree to the rounding of sums."""
    py = _train("backgammon", 30, tmp_path / "py.npz", compiled=False, lam=lam)
    comp = _train("backgammon", 30, tmp_path / "c.npz", compiled=True, lam=lam)
    assert np.abs(py.theta - _fresh("backgammon")).max() > 0.05
    assert np.abs(py.theta - comp.theta).max() < 1e-9
    assert py.meta["games"] == comp.meta["games"] == 30
    assert py.meta["features"] == comp.meta["features"] == Encoder(
        _training_variant("backgammon")).names


def test_a_game_handed_back_is_played_by_the_python_trainer(tmp_path, monkeypatch):
    """When the compiled loop stops before a game (a throw its work space cannot hold), the
    Python trainer plays that game and the compiled loop goes on after it: the weights are
    those of a run played wholly in Python."""
    real = td.CompiledTrainer.make
    stops = []

    def make(*args, **kwargs):
        trainer = real(*args, **kwargs)
        if trainer is None:         # the Python run
            return None
        fn = trainer.fn

        def stopping(start, keys, nkeys, *rest):
            # hand back the third game of each call, as an overflow does
            if keys.shape[0] > 2:
                done = fn(start, keys[:2], nkeys[:2], *rest)
                stops.append(done)
                return done
            return fn(start, keys, nkeys, *rest)
        trainer.fn = stopping
        return trainer

    monkeypatch.setattr(td.CompiledTrainer, "make", make)
    comp = _train("backgammon", 12, tmp_path / "c.npz", compiled=True)
    py = _train("backgammon", 12, tmp_path / "py.npz", compiled=False)
    assert stops and all(d == 2 for d in stops)
    assert np.abs(py.theta - comp.theta).max() < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("vid", ["hypergammon", "nackgammon", "portes", "tabla"])
def test_compiled_training_of_each_served_variant(tmp_path, vid):
    py = _train(vid, 20, tmp_path / "py.npz", compiled=False)
    comp = _train(vid, 20, tmp_path / "c.npz", compiled=True)
    assert np.abs(py.theta - _fresh(vid)).max() > 0.01
    assert np.abs(py.theta - comp.theta).max() < 1e-9


# -- the contact counts ---------------------------------------------------------------------

def _board(points: dict[int, int], bar=(0, 0), off=(0, 0)) -> list[int]:
    b = [0] * 28
    for p, n in points.items():
        b[p] = n
    b[25], b[26] = bar
    b[0], b[27] = off
    return b


def _counts(b: list[int]) -> dict[str, float]:
    out = [0.0] * contact.COUNT
    contact.contact_inputs(b, 4, [0] * 28, out, 0)
    return dict(zip(contact.NAMES, out))


def test_shots_at_a_blot_four_pips_in_front_of_a_man():
    """A blot on pip 5, the opponent's man on pip 1: every throw with a 4 (11), 1-3 and 3-1,
    1-1 and 2-2 hit it: 15 of 36. With the mover's point on 3, 1-1 and 2-2 no longer pass
    (1-3 still goes by pip 2 or 4): 13."""
    b = _board({5: 1, 6: 14, 1: -1, 24: -14})
    assert _counts(b)["shots_me"] * 36 == pytest.approx(15)
    b = _board({5: 1, 6: 12, 3: 2, 1: -1, 24: -14})
    assert _counts(b)["shots_me"] * 36 == pytest.approx(13)


def test_shots_from_the_bar_must_enter_first():
    """Two men on the opponent's bar and a blot on pip 3: the throws with a 3 enter on it (11),
    and 1-1 enters both men on pip 1 and moves one on to 3; no other throw leaves a number
    free: 12 of 36. One man on the bar: also 1-2 (enter with one number, go on with the
    other): 14."""
    b = _board({3: 1, 6: 14, 24: -13}, bar=(0, 2))
    assert _counts(b)["shots_me"] * 36 == pytest.approx(12)
    b = _board({3: 1, 6: 14, 24: -14}, bar=(0, 1))
    assert _counts(b)["shots_me"] * 36 == pytest.approx(14)


def test_escapes_primes_and_contact():
    """The mover's last man on pip 20 in front of the opponent's points 14..17 (a four-point
    prime, the man trapped behind it). He escapes with a throw that takes him below pip 14
    resting only on open points: 1 then 6 (by 19), 2 then 5 or 6 (by 18): 1-6, 2-5 and 2-6,
    each thrown two ways, 6 of 36; every doublet stops on a closed point. The prime counts
    for the opponent, with a man behind it; the sides are in contact, and not once they have
    passed each other."""
    b = _board({20: 1, 6: 14, 14: -2, 15: -2, 16: -2, 17: -2, 1: -7})
    c = _counts(b)
    assert c["escape_me"] * 36 == pytest.approx(6)
    assert c["prime_opp"] == pytest.approx(4 / 6)
    assert c["trap_opp"] == pytest.approx(4 / 6)
    assert c["contact"] == 1.0
    race = _board({3: 5, 6: 10, 10: -15})
    assert _counts(race)["contact"] == 0.0


def test_compiled_counts_are_the_python_counts():
    """The text of contact.py compiled and run as Python, on boards of random play."""
    from interpreter.bench import _sample_positions

    v = load_variant("backgammon")
    boards = [b for b, _d1, _d2 in _sample_positions(v, 300, 7)]
    rng = random.Random(3)
    boards += [tuple(v.flip(b)) for b in rng.sample(boards, 100)]
    got = contact_block(np.asarray(boards), 4)
    for b, row in zip(boards, got):
        want = [0.0] * contact.COUNT
        contact.contact_inputs(list(b), 4, [0] * 28, want, 0)
        assert row.tolist() == want, b


# -- the learned player on the compiled network ------------------------------------------------

def _games(kind: str, net_file: str | None, compiled: bool, games: int = 3, *,
           opponent: str = "greedy", cube: bool = False, max_turns: int = 1000) -> list:
    """The records of a few games of `kind` (against `opponent`, cubeless unless `cube`) on
    one path."""
    from interpreter import native
    from interpreter.engine.game import Game
    from interpreter.players import kinds

    with _path(compiled):
        v = load_variant("backgammon", [] if cube else ["ladder.doubling=false"])
        native.accelerate_net(v)
        out = []
        full = f"{kind}:{net_file}" if net_file else kind
        for i in range(games):
            players = (kinds.make_player(full, f"s/{i}:white", v),
                       kinds.make_player(opponent, f"s/{i}:black", v))
            result = Game(v, f"s/{i}", max_turns=max_turns, doubles=(cube, cube)).run(players)
            out.append((result.winner, result.value, result.turns,
                        [repr(a) for a in result.record]))
        judge = kinds.judge_for(v, True, net_file)
        assert (judge.fast is not None) == compiled
        return out


# two throws ahead in Python takes half a minute: the slow set's (one throw is the default's)
@pytest.mark.parametrize("kind", ["learned",
                                  pytest.param("search:2:learned", marks=pytest.mark.slow)])
def test_the_compiled_network_plays_the_same_games(tmp_path, kind):
    """The shipped network and a network with the contact counts among its inputs, one and
    two throws ahead: the same plays on the compiled path as on the Python path."""
    trained = tmp_path / "c.npz"
    _train("backgammon", 30, trained, compiled=True)
    for net_file in (None, str(trained)):
        assert _games(kind, net_file, True) == _games(kind, net_file, False)


@pytest.mark.parametrize("overrides", [["ladder.match_length=7"], []])
def test_the_compiled_look_ahead_is_the_searchs_in_a_match_and_with_the_cube(tmp_path,
                                                                              monkeypatch,
                                                                              overrides):
    """Where a leaf is not a multiple of the equity (a 7-point match, money play with the live
    cube), the compiled code gives every answer's outputs and the search's unit values them:
    each kept answer's value one throw further is what the search's own `expect` gives."""
    from interpreter import native
    from interpreter.engine.game import Game
    from interpreter.players import kinds
    from interpreter.players.search import SearchPlayer

    trained = tmp_path / "c.npz"
    _train("backgammon", 20, trained, compiled=True)
    v = load_variant("backgammon", overrides)
    native.accelerate_net(v)
    kinds._JUDGES.clear()
    real = SearchPlayer._replies
    compared = []

    def checked(self, ls, keep, me):
        got = real(self, ls, keep, me)
        assert got is not None
        for i in keep:
            want = self.expect(ls[i], me, 1)
            assert got[i] == pytest.approx(want, abs=1e-12), i
            compared.append(i)
        return got
    monkeypatch.setattr(SearchPlayer, "_replies", checked)
    players = (kinds.make_player(f"search:2:learned:{trained}", "m:white", v),
               kinds.make_player("greedy", "m:black", v))
    Game(v, "m", max_turns=24, doubles=(True, False)).run(players)
    kinds._JUDGES.clear()
    assert len(compared) > 20


# -- a throw without a play, one throw ahead ----------------------------------------------------

#: white has just hit black's last man back (12/7 2/1* with 5-1): black, fourteen men crunched
#: on his ace and deuce points, enters against five closed points with a 1 only
HIT_LAST_MAN = (0, 1, 2, 2, 2, 3, 2, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -10, -4,
                0, 1, 0)
#: the same throw played 12/11 11/6: black's man stays on white's ace point (he dances with
#: 2-2 to 5-5 only)
LEFT_HIM_BACK = (0, -1, 3, 2, 2, 3, 3, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -10, -4,
                 0, 0, 0)


@pytest.mark.parametrize("overrides", [["ladder.doubling=false"], ["ladder.match_length=7"]])
def test_a_throw_without_a_play_is_valued_a_throw_further_on_both_paths(overrides):
    """Black dances on 25 of the 36 throws after the hit. The network never learns the end
    position of a throw without a play (it trains after choices), so the search values such a
    throw one throw further (white throws next on the same board) instead of asking the network
    about a board whose mover is still on the bar; the compiled look (money play: all in
    compiled code; a match: the dances valued beside it) gives what the Python search gives."""
    from interpreter import native
    from interpreter.engine.game import Game
    from interpreter.players import kinds
    from interpreter.players.leaves import Leaf
    from interpreter.players.search import SearchPlayer

    v = load_variant("backgammon", overrides)
    native.accelerate_net(v)
    kinds._JUDGES.clear()
    try:
        judge = kinds.judge_for(v, True, None)
        assert judge.fast is not None and not judge.values_no_play
        ladder = Game(v, "d").ladder
        ladder.start()
        state = ladder.state(0)
        ls = [Leaf(b, False, (3, 3), state) for b in (HIT_LAST_MAN, LEFT_HIM_BACK)]
        search = SearchPlayer(v, judge, depth=2)
        python = [search.expect(lf, 0, 1) for lf in ls]
        compiled = judge.replies(ls, 0)
        assert compiled == pytest.approx(python, abs=1e-12)
        # the dances are valued one throw further: what black's best after a dance would be
        # worth to white, not the network's reading of the board with black on the bar
        flat = [search.expect(lf, 0, 1, further=False) for lf in ls]
        assert python[0] - flat[0] > 0.1
    finally:
        kinds._JUDGES.clear()


def test_the_search_two_throws_ahead_hits_the_last_man_back():
    """The position after which gnubg graded `search:2:learned`'s 12/11 11/6 a 0.31 error in a
    seven-point match (5-1 to play; it valued black's dances by the network): in money play
    without the cube, hitting is worth more than leaving him back, two throws ahead as one."""
    from interpreter.players import kinds
    from interpreter.players.leaves import Leaf
    from interpreter.players.search import SearchPlayer

    v = load_variant("backgammon", ["ladder.doubling=false"])
    kinds._JUDGES.clear()
    try:
        judge = kinds.judge_for(v, True, None)
        ls = [Leaf(b, False, (3, 3), None) for b in (HIT_LAST_MAN, LEFT_HIM_BACK)]
        one = judge.values(ls, 0)[0]
        two = [SearchPlayer(v, judge, depth=2).expect(lf, 0, 1) for lf in ls]
        assert one[0] > one[1] and two[0] > two[1]
    finally:
        kinds._JUDGES.clear()


def _closed_out() -> tuple:
    """White: a man on the bar against black's six closed points, fourteen men home; black:
    three men still on white's 13 point."""
    b = [0] * 28
    for p, n in zip(range(1, 7), [3, 3, 2, 2, 2, 2]):
        b[p] = n
    b[25] = 1
    for p in range(19, 25):
        b[p] = -2
    b[13] = -3
    return tuple(b)


@pytest.mark.parametrize("overrides", [[], ["ladder.match_length=7"]])
def test_a_man_shut_out_is_no_double_and_a_state_before_the_dice_is_valued_a_throw_ahead(
        overrides):
    """The cube's questions stand before the dice, where nobody has played: the network,
    which learns end positions only, is not asked about such a state (it read this one, the
    asker on the bar, as better than even); it is valued one throw ahead, the same on the
    compiled path and the Python path, whoever throws."""
    from interpreter.engine.game import Game
    from interpreter.players.leaves import Leaf

    v = load_variant("backgammon", overrides)
    with _both_paths(v) as (fast, slow):
        ladder = Game(v, "c").ladder
        ladder.start()
        state = ladder.state(0)
        for on_roll in (True, False):
            lf = Leaf(_closed_out(), on_roll, (5, 5), state)
            lf.before_dice = True
            a = fast.values([lf], 0)[0][0]
            b = slow.values([lf], 0)[0][0]
            assert a == pytest.approx(b, abs=1e-12)
            # money: about a game lost; a match of 7 at 0-0: his chance of the match well down
            assert a < (-0.5 if not overrides else -0.1)


def test_the_learned_player_plays_the_same_cube_games_on_both_paths():
    """Money play with the cube, learned against learned: the cube's questions valued one throw
    ahead give the same games compiled and in Python."""
    fast = _games("learned", None, True, 2, opponent="learned", cube=True, max_turns=60)
    assert any("Cubed" in line for g in fast for line in g[3])
    assert fast == _games("learned", None, False, 2, opponent="learned", cube=True,
                          max_turns=60)


@pytest.mark.slow
def test_three_throws_ahead_the_search_narrows_the_same_on_both_paths():
    """search:3:learned in a 7-point match: the look two throws ahead ranks the plays, the best
    few within NEAR of the best are looked at a throw further and come first, the others keep
    their two-throw values and order; compiled and in Python the ranking and values agree."""
    from interpreter.engine.game import Game
    from interpreter.players import search
    from interpreter.players.search import SearchPlayer

    v = load_variant("backgammon", ["ladder.match_length=7"])
    with _both_paths(v) as (fast, slow):
        three = SearchPlayer(v, fast, depth=3)
        three_py = SearchPlayer(v, slow, depth=3)
        two = SearchPlayer(v, fast, depth=2)
        seen: list = []

        class Probe:
            kind = "probe"
            capabilities = frozenset({"branching", "doubles"})

            def answer(self, d):
                if d.kind == "play" and len(set(d.choices)) > 4 and len(seen) < 2:
                    seen.append((three.rank(d), three_py.rank(d), two.rank(d)))
                return two.answer(d)

            def replayed(self, d, i):
                pass

        Game(v, "narrow/2", keep_record=False, max_turns=12,
             doubles=(False, False)).run((Probe(), Probe()))
        assert len(seen) == 2
        deeper = 0
        for got, py, ranked2 in seen:
            assert [i for i, _ in got] == [i for i, _ in py]
            assert [x for _, x in got] == pytest.approx([x for _, x in py], abs=1e-9)
            best = ranked2[0][1]
            near = [i for i, x in ranked2[:search.NARROW] if best - x <= search.NEAR]
            k = len(near) if len(near) > 1 else 0
            deeper += k
            assert {i for i, _ in got[:k]} == set(near)
            rest = [(i, x) for i, x in ranked2 if i not in near[:k]]
            assert [i for i, _ in got[k:]] == [i for i, _ in rest]
            assert [x for _, x in got[k:]] == pytest.approx([x for _, x in rest], abs=1e-12)
        assert deeper, "no play was close enough to be looked at further"
