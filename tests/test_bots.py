"""The search and self-taught players: they play every variant legally through every decision
kind, deterministically; their kinds parse; training reproduces its weights; weights ship in
the package; a network refuses another variant's features; the utilities are sound."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from interpreter.cli import main  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.errors import TablierError  # noqa: E402
from interpreter.kernel.board import OFF  # noqa: E402
from interpreter.players import kinds  # noqa: E402
from interpreter.players.base import capabilities_of  # noqa: E402
from interpreter.players.bots import GreedyBot  # noqa: E402
from interpreter.players.kinds import make_player  # noqa: E402
from interpreter.players.net import ValueNet, WeightsError  # noqa: E402
from interpreter.players.utility import (  # noqa: E402
    CUBE_GAMMON_SHARE, _after_game, cube_match_table, cubeful, match_table, of_outcomes)
from interpreter.scoring.ecrire import PAYMENT_LEVELS  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402

PLAYABLE = ["backgammon", "hypergammon", "nackgammon", "tric-trac-12", "triktrak",
            "trictrac-ecrire", "trictrac-combine", "portes", "plakoto", "fevga", "long-nardy",
            "acey-deucey", "tavli", "tourne-case"]


class Recorder:
    """Wraps a player; checks every answer is legal and notes the decision kinds it met."""

    def __init__(self, inner):
        self.inner = inner
        self.kind = inner.kind
        self.capabilities = inner.capabilities
        self.kinds: set[str] = set()

    def answer(self, d):
        a = self.inner.answer(d)
        d.index(a)
        self.kinds.add(d.kind)
        return a


@pytest.mark.parametrize("vid", PLAYABLE)
def test_search_player_answers_every_decision_of_every_variant(vid):
    v = load_variant(vid)
    rec = Recorder(make_player("search:1", "t:white", v))
    players = (rec, GreedyBot("t:black"))
    result = Game(v, "bots-1", keep_record=False, max_turns=60,
                  doubles=capabilities_of(players)).run(players)
    assert result.turns > 0
    assert "play" in rec.kinds


def test_search_player_is_deterministic_and_replays_like_simulate():
    v = load_variant("triktrak")

    def run():
        p = (make_player("search:1", "d:white", v), make_player("greedy", "d:black", v))
        g = Game(v, "det", keep_record=True, max_turns=40, doubles=capabilities_of(p))
        g.run(p)
        return g.record

    assert run() == run()


@pytest.mark.parametrize("vid", ["backgammon", "triktrak"])
def test_search_two_throws_ahead_plays_legally(vid):
    v = load_variant(vid)
    rec = Recorder(make_player("search:2", "s2:white", v))
    players = (rec, GreedyBot("s2:black"))
    Game(v, "bots-2", keep_record=False, max_turns=6,
         doubles=capabilities_of(players)).run(players)
    assert "play" in rec.kinds


def test_the_search_decides_the_go_and_the_cube_by_valuing_each_answer():
    # each answer of a word decision is played on a copy and valued: the values differ
    v = load_variant("triktrak")
    seen = []

    class Spy:
        kind = "spy"
        capabilities = frozenset({"branching"})

        def __init__(self):
            self.p = make_player("search:1", "spy", v)
            self.fast = GreedyBot("spy")

        def answer(self, d):
            if d.kind == "go" and not seen:
                ranked = self.p.rank(d)
                seen.append(ranked)
                return ranked[0][0]
            return self.fast.answer(d)

    players = (Spy(), GreedyBot("g"))
    Game(v, "go", keep_record=False, max_turns=400, doubles=(False, False)).run(players)
    assert seen, "no go decision in 400 throws"
    (a, va), (b, vb) = seen[0]
    assert {a, b} == {0, 1} and va >= vb and va != vb


class FirstPlay:
    """Answers with `inner` and keeps the first play decision's dice, choices and answer."""

    def __init__(self, inner):
        self.inner = inner
        self.kind = inner.kind
        self.capabilities = inner.capabilities
        self.seen: list = []

    def answer(self, d):
        a = self.inner.answer(d)
        if d.kind == "play" and not self.seen:
            self.seen.append((tuple(d.view.dice), tuple(d.choices), d.index(a)))
        return a


def test_search_one_throw_ahead_bears_off_the_last_men_when_it_can():
    # two men each, on the 5- and 1-points: with 4-1 only 5/4, 4/off ends the game (5/1, 1/off
    # leaves a man); with 6-1, 5-1 or 3-1 no play does. The search takes a play that wins
    # whenever one does, and with 4-1 it always can.
    v = load_variant("backgammon", ["board.checkers=2", "board.start={ 5 = 1, 1 = 1 }",
                                    "ladder.doubling=false"])
    mixed = 0
    for seed in range(40):
        p = FirstPlay(make_player("search:1", f"w{seed}", v))
        Game(v, f"off-{seed}", keep_record=False, max_turns=2,
             doubles=(False, False)).run([p, p])
        if not p.seen:
            continue            # a throw with one legal play asks nothing
        dice, choices, i = p.seen[0]
        wins = [k for k, c in enumerate(choices) if c[OFF] == 2]
        if wins and len(wins) < len(choices):
            mixed += 1
            assert i in wins, (dice, choices[i])
    assert mixed >= 3


def test_the_search_doubles_and_takes_by_valuing_each_answer():
    # the cube's answers are valued like the plays: on the copies, by the same search
    v = load_variant("backgammon")
    seen: dict[str, list] = {}

    class Spy:
        kind = "spy"
        capabilities = frozenset({"branching", "doubles"})

        def __init__(self, name):
            self.p = make_player("search:1", name, v)

        def answer(self, d):
            if d.kind in ("double", "take"):
                ranked = self.p.rank(d)
                seen.setdefault(d.kind, []).append(ranked)
                return ranked[0][0]
            return self.p.answer(d)

    for seed in range(6):
        players = (Spy(f"a{seed}"), Spy(f"b{seed}"))
        Game(v, f"cube-{seed}", keep_record=False, max_turns=200).run(players)
        if "take" in seen:
            break
    assert "double" in seen and "take" in seen
    for ranked in seen["double"] + seen["take"]:
        values = [val for _i, val in ranked]
        assert values == sorted(values, reverse=True)
        assert len(set(values)) == len(values)


def test_rollout_player_plays():
    v = load_variant("backgammon")
    rec = Recorder(make_player("rollout:2", "r", v))
    players = (rec, GreedyBot("g"))
    Game(v, "ro", keep_record=False, max_turns=4, doubles=(False, False)).run(players)
    assert "play" in rec.kinds


def test_rollout_player_plays_a_money_game_with_the_cube_in_hypergammon():
    """The rollouts' copies replay the throw's answers, the cube's among them: a copy that did
    not ask the cube's question gave its answer to the play (hypergammon's second throw:
    "answer 19 to 'play' is not one of the 7 legal answers")."""
    v = load_variant("hypergammon")
    players = (make_player("rollout:2", "1/0:white", v), make_player("random", "1/0:black", v))
    result = Game(v, "1/0", keep_record=False, max_turns=40,
                  doubles=capabilities_of(players)).run(players)
    assert result.turns > 2


@pytest.mark.parametrize("kind, family", [
    ("search:1", "search"), ("search:3:learned", "search"), ("search:2:learned:w.npz", "search"),
    ("learned", "search"), ("learned:x/y.npz", "search"), ("rollout:16", "rollout"),
    ("gnubg", "gnubg"), ("gnubg:2", "gnubg"), ("greedy", "greedy"),
])
def test_player_kinds_parse(kind, family):
    assert kinds.parse(kind)[0] == family


@pytest.mark.parametrize("kind", ["search", "search:0", "search:9", "searc:1", "rollout:0",
                                  "learned:", "gnubg:x", "Greedy"])
def test_bad_player_kinds_are_refused_on_the_command_line(kind, capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "backgammon", "--white", kind, "--games", "1"])
    assert e.value.code == 2
    assert "argument --white" in capsys.readouterr().err


def test_a_missing_weights_file_is_a_clear_error(tmp_path, capsys):
    code = main(["simulate", "backgammon", "--white", f"learned:{tmp_path / 'none.npz'}",
                 "--games", "1"])
    assert code == 1
    assert "no weights file" in capsys.readouterr().err


# -- training -------------------------------------------------------------------------------

def _train(tmp_path: Path, name: str, games: int, *extra: str) -> Path:
    out = tmp_path / name
    assert main(["train", "hypergammon", "--games", str(games), "--out", str(out),
                 "--seed", "5", "--hidden", "6", "--checkpoint-every", "2", "--from", "none",
                 *extra]) == 0
    return out


def _arrays(path: Path) -> list:
    with np.load(path) as data:
        return [np.array(data[k]) for k in ("W1", "b1", "W2", "b2")]


def test_train_reproduces_its_weights_from_the_seed(tmp_path):
    a = _arrays(_train(tmp_path, "a.npz", 4))
    b = _arrays(_train(tmp_path, "b.npz", 4))
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    # and a run resumed from its checkpoint ends where the uninterrupted run ends
    _train(tmp_path, "c.npz", 2)
    c = _arrays(_train(tmp_path, "c.npz", 4, "--resume"))
    assert all(np.array_equal(x, y) for x, y in zip(a, c))
    other = _arrays(_train(tmp_path, "d.npz", 4, "--lambda", "0.2"))
    assert not all(np.array_equal(x, y) for x, y in zip(a, other))


def test_a_widened_network_says_what_it_said():
    net = ValueNet(20, 5, (2, 3), seed=3)
    X = np.random.default_rng(1).uniform(0, 1, (50, 20))
    wide = net.widened(9, seed=4)
    assert wide.hidden == 9 and wide.levels == net.levels
    assert np.allclose(wide.outputs_of(X), net.outputs_of(X), atol=1e-12)
    # the new units are drawn, not copies: training can tell them apart
    assert len({tuple(np.round(wide.W1[:, j], 12)) for j in range(9)}) == 9
    with pytest.raises(TablierError, match="cannot shrink"):
        net.widened(4)


def test_train_resumed_with_more_hidden_units_grows_the_network(tmp_path, capsys):
    runs = []
    for name in ("a.npz", "b.npz"):
        _train(tmp_path, name, 4)
        runs.append(_train(tmp_path, name, 8, "--resume", "--hidden", "9"))
    net = ValueNet.load(runs[0])
    assert net.hidden == 9 and net.meta["hidden"] == 9
    assert net.meta["widened"] == [[4, 6, 9]] and net.meta["games"] == 8
    # the same commands give the same weights
    assert all(np.array_equal(x, y) for x, y in zip(_arrays(runs[0]), _arrays(runs[1])))
    capsys.readouterr()
    assert main(["train", "hypergammon", "--games", "10", "--out", str(runs[0]), "--seed",
                 "5", "--hidden", "6", "--resume"]) == 1
    assert "at least as many hidden units" in capsys.readouterr().err
    assert ValueNet.load(runs[0]).meta["games"] == 8


def test_trained_weights_play_and_refuse_another_variant(tmp_path):
    path = _train(tmp_path, "h.npz", 2)
    net = ValueNet.load(path)
    assert net.meta["variant"] == "hypergammon" and net.meta["games"] == 2
    v = load_variant("hypergammon")
    rec = Recorder(make_player(f"search:2:learned:{path}", "l", v))
    players = (rec, GreedyBot("g"))
    Game(v, "lp", keep_record=False, max_turns=10, doubles=(False, False)).run(players)
    with pytest.raises(WeightsError, match="other features"):
        make_player(f"learned:{path}", "l", load_variant("triktrak"))


def _trainable() -> list[str]:
    from interpreter.bench import _playable_builtins

    return _playable_builtins()


@pytest.mark.parametrize("vid", _trainable())
def test_self_play_trains_in_every_shipped_variant(tmp_path, vid, capsys):
    """`train` from the variant file alone, in every game it ships (acey-deucey's doublet
    question, asked inside a throw, once needed copies the trainer had not turned on); a
    rotation is refused in words, its games named: each is trained on its own."""
    from interpreter.players import td

    v = load_variant(vid)
    if getattr(v, "games", None):
        assert main(["train", vid, "--games", "1", "--out", str(tmp_path / "r.npz")]) == 1
        err = capsys.readouterr().err
        assert "rotation of" in err and v.games[0].id in err and "Traceback" not in err
        assert not (tmp_path / "r.npz").exists()
        return
    if v.geometry.wide:
        # a board of 36 points (XII scripta) is beyond a network's inputs: refused in words
        assert main(["train", vid, "--games", "1", "--out", str(tmp_path / "w.npz")]) == 1
        err = capsys.readouterr().err
        assert "not the 36 of" in err and "Traceback" not in err
        assert not (tmp_path / "w.npz").exists()
        return
    out = tmp_path / f"{vid}.npz"
    before = ValueNet(len(td.Encoder(v).names), 4, td.value_levels(v), seed=3).theta.copy()
    net = td.train(v, vid, 1, out, seed=3, hidden=4, max_turns=60)
    meta = ValueNet.load(out).meta
    assert (meta["variant"], meta["games"]) == (vid, 1)
    assert not np.array_equal(before, net.theta)       # the play moved the weights


@pytest.mark.parametrize("bias", [-2.0, 2.0])
def test_a_play_without_a_winner_trains_both_sides_towards_half_a_win(bias):
    """A drawn 12-point Tric-Trac match, or a partie stopped at the turn limit (an untrained
    network that always stays in à écrire never ends a mark), is half a win for each side, as
    the unit and the bench count it; it once trained both sides towards a loss."""
    from interpreter.players import td

    v = load_variant("tric-trac-12")
    net = ValueNet(len(td.Encoder(v).names), 4, td.value_levels(v), seed=3)
    net.b2[:] = bias            # every estimate well below one half, or well above
    trainer = td.Trainer(v, net, alpha=0.5, lam=0.7)
    p = trainer.player
    result = Game(v, "draw", keep_record=False, max_turns=30, doubles=(False, False)).run([p, p])
    assert result.winner is None
    assert td.outcome(result, 0) == td.outcome(result, 1) == (0.5, 1)
    assert net.target(0.5, 1)[0] == 0.5
    last = [trainer.prev[0], trainer.prev[1]]
    before = [net.outputs_of(x[None, :])[0, 0] for x in last]
    trainer.finish(result)
    after = [net.outputs_of(x[None, :])[0, 0] for x in last]
    for b, a in zip(before, after):
        assert abs(a - 0.5) < abs(b - 0.5)        # each side's last estimate towards 1/2
        assert (a - b) * (0.5 - b) > 0


def _recording_trainer(vid, hidden=4):
    """A trainer of `vid` whose steps towards an outcome are noted: (side, share, level,
    whether the side had an estimate to move)."""
    from interpreter.players import td

    v = load_variant(vid)
    net = ValueNet(len(td.Encoder(v).names), hidden, td.value_levels(v), seed=3)
    trainer = td.Trainer(v, net, alpha=0.1, lam=0.7)
    closed = []
    close = trainer._close

    def noted(side, won, level):
        closed.append((side, won, level, trainer.prev[side] is not None))
        close(side, won, level)
    trainer._close = noted
    return trainer, closed


def test_the_12_point_match_is_learned_game_by_game():
    """The 12-point Tric-Trac's network learns the game in play (who wins it, and its value
    ×1 to ×4 as the file's value rules give it by the loser's points), each game's end
    closing both sides' chains; the match's totals are added above the network."""
    from interpreter.players import td

    trainer, closed = _recording_trainer("tric-trac-12")
    assert td.value_levels(trainer.variant) == (2, 3, 4)
    assert td.value_levels(load_variant(
        "tric-trac-12", ["options.double_threshold='below_6'"])) == (2, 3, 4)
    result = trainer.play("units/train/0", 5000)
    games = result.extra["games"]
    # the match's own outcome finds no estimate left to move: its last game closed them
    assert len(games) == 12 and len(closed) == 2 * len(games) + 2
    assert [c[3] for c in closed[-2:]] == [False, False]
    for g, (a, b) in zip(games, zip(closed[::2], closed[1::2])):
        winner = 0 if g["winner"] == "white" else 1
        assert a[:3] == (0, float(winner == 0), g["value"])
        assert b[:3] == (1, float(winner == 1), g["value"])
        assert a[3] and b[3]                  # each side had played in every game
    assert trainer.prev == [None, None]


def test_a_mark_of_a_partie_a_ecrire_is_learned_with_what_it_pays():
    """À écrire's network learns the mark in play: who wins it and the jetons it pays, its
    levels the steps of `PAYMENT_LEVELS`; a refait is half a win each."""
    from interpreter.players import td

    trainer, closed = _recording_trainer("trictrac-ecrire")
    assert td.value_levels(trainer.variant) == PAYMENT_LEVELS
    game = Game(trainer.variant, "units/train/1", keep_record=False, max_turns=5000,
                doubles=(False, False))
    trainer.game = game
    result = game.run([trainer.player, trainer.player])
    marks = game.ladder.marks.results
    trainer.finish(result)
    assert len(closed) == 2 * len(marks) + 2 and len(marks) >= 12
    assert [c[3] for c in closed[-2:]] == [False, False]
    for r, (a, b) in zip(marks, zip(closed[::2], closed[1::2])):
        share = 0.5 if r.winner is None else float(r.winner == 0)
        assert a[:3] == (0, share, r.payment) and b[:3] == (1, 1.0 - share, r.payment)
    net = trainer.net
    top = net.target(1.0, 18)              # a mark won paying 18 jetons: the levels up to 16
    k = len(PAYMENT_LEVELS)
    assert list(top[1:1 + k]) == [float(v <= 18) for v in PAYMENT_LEVELS]


def test_a_game_worth_too_many_values_is_refused_for_training(tmp_path, capsys):
    """An author's 12-point game whose value rules give a value for every number of the
    loser's points: a level is two outputs of the network, so a file giving more than the
    trainer takes is refused with its reason, the weights file not written."""
    path = tmp_path / "many.toml"
    path.write_text('extends = "tric-trac-12"\n[variant]\nid = "many-values"\n'
                    'name = "Many values"\n[rules.double]\nwhen = "their_points < 40"\n'
                    'value = "45 - their_points"\n', encoding="utf-8")
    out = tmp_path / "m.npz"
    assert main(["train", str(path), "--games", "1", "--out", str(out),
                 "--set", "ladder.target=40"]) == 1
    err = capsys.readouterr().err
    assert "40 values above one; a network learns at most 16" in err
    assert not out.exists()


def test_a_sum_of_units_is_valued_in_its_own_unit():
    """The 12-point match in game values: the totals, a game won and waiting for its winner's
    choice, and the game in play's expected value (games won where the match counts them);
    à écrire in jetons: the jetons paid, what the lost marks will cost, and the mark in play."""
    # outputs: P(win), P(win ≥ ×2), P(win ≥ ×3), P(win ×4), and the same for losses
    Y = np.array([[0.75, 0.5, 0.25, 0.0, 0.0, 0.0, 0.0]])
    twelve = {"kind": "continuous", "games": {"me": 5, "opponent": 2}, "pending": None,
              "points": {"me": 3, "opponent": 0}}
    # 1·0.25 + 2·0.25 + 3·0.25 − 1·0.25 = 1.25 game values expected from the game in play
    assert of_outcomes(Y, (2, 3, 4), twelve)[0] == pytest.approx(3 + 1.25)
    won = dict(twelve, pending={"winner": "opponent", "value": 4, "excess": 0})
    assert of_outcomes(Y, (2, 3, 4), won)[0] == pytest.approx(3 - 4)      # whatever Y says
    wins = dict(twelve, match_result="games_won")
    assert of_outcomes(Y, (2, 3, 4), wins)[0] == pytest.approx(3 + 0.5)
    assert of_outcomes(Y, (2, 3, 4), dict(wins, pending={"winner": "me", "value": 4,
                                                         "excess": 0}))[0] == 4
    ecrire = {"kind": "ecrire", "jetons": {"me": 30, "opponent": 12},
              "lost_marks": {"me": 1, "opponent": 2}}
    Y = np.zeros((1, 27))
    Y[0, 0] = 0.5
    Y[0, 1:4] = 0.5                     # a win pays 6 jetons at least, as often as a loss
    Y[0, 14:17] = 0.5
    # the jetons, a lost mark's 5 more, and a mark in play worth as much to either side
    assert of_outcomes(Y, PAYMENT_LEVELS, ecrire)[0] == pytest.approx(18 + 5)


@pytest.mark.parametrize("vid", ["tric-trac-12", "trictrac-ecrire", "trictrac-combine"])
def test_the_french_parties_shipped_networks_take_the_partie_from_greedy(vid):
    """The shipped networks of the sums of units, read in their unit (game values, jetons),
    win what they play against `greedy`: a sign turned in the unit, or a mark's payment read
    as a loss, loses these (bots.md: 99, 100 and 100 of 100 against greedy, seed 1)."""
    from interpreter.scoring.registry import ladder_class

    v = load_variant(vid)
    ladder = ladder_class(v.ladder)
    for i, seat in enumerate((0, 1)):
        players = [GreedyBot("g"), GreedyBot("g")]
        players[seat] = make_player("learned", "l", v)
        result = Game(v, f"french/{i}", keep_record=False, max_turns=5000,
                      doubles=(False, False)).run(players)
        assert result.finished and result.winner == seat
        assert ladder.net(result.winner, result.points, result.value, seat) > 0


def test_a_won_play_still_reaches_its_value_levels():
    net = ValueNet(10, 3, (2, 3), seed=1)
    assert list(net.target(1.0, 2)) == [1, 1, 0, 0, 0]
    assert list(net.target(0.0, 3)) == [0, 0, 0, 1, 1]
    assert list(net.target(0.5, 1)) == [0.5, 0, 0, 0, 0]


def test_a_corrupt_weights_file_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(WeightsError, match="not a weights file"):
        ValueNet.load(bad)


#: the variants whose weights ship (docs/bots.md, "The shipped weights")
SHIPPED = ["backgammon", "triktrak", "plakoto", "fevga", "long-nardy", "jacquet", "tapa",
           "gul-bara", "portes", "acey-deucey", "tourne-case", "hypergammon", "nackgammon",
           "tabla", "tabula", "emperador", "tric-trac-12", "trictrac-ecrire", "trictrac-combine"]


@pytest.mark.parametrize("vid", SHIPPED)
def test_weights_ship_in_the_package_and_load_from_it(vid):
    from importlib import resources

    from interpreter.players.learned import load_net, shipped_weights

    ref = resources.files("interpreter.players").joinpath("weights", f"{vid}.npz")
    assert ref.is_file()
    path = shipped_weights(vid)
    assert path is not None
    net = load_net(load_variant(vid), None)
    assert net.meta["variant"] == vid and net.meta["games"] >= 1000
    assert net.meta["cpu_seconds"] > 0


def test_the_weights_shipped_are_the_ones_listed():
    from importlib import resources

    folder = resources.files("interpreter.players").joinpath("weights")
    assert sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".npz")) == \
        sorted(SHIPPED)


def test_learned_in_a_rotation_judges_each_game_by_its_own_weights(monkeypatch):
    """Tavli: portes, plakoto and fevga, each with the network trained on it."""
    from interpreter.players.learned import NetJudge

    v = load_variant("tavli")
    p = make_player("learned", "t", v)
    assert isinstance(p.judge, NetJudge) and p.judge.variant.id == "portes"
    for game in v.games[1:]:
        p.adopt(game)
        assert isinstance(p.judge, NetJudge) and p.judge.variant.id == game.id
    result = Game(v, "rot", keep_record=False, max_turns=40).run(
        (make_player("learned", "w", v), GreedyBot("g")))
    assert result.turns == 40
    # a rotation with a game that has no weights is refused before it starts, the game named
    from interpreter.players import learned

    shipped = learned.shipped_weights
    monkeypatch.setattr(learned, "shipped_weights",
                        lambda vid: None if vid == "tapa" else shipped(vid))
    kinds._JUDGES.clear()
    with pytest.raises(WeightsError, match="no network for 'tapa'"):
        make_player("learned", "t", load_variant("tabla-match"))
    kinds._JUDGES.clear()


# -- utilities ------------------------------------------------------------------------------

def test_match_table_is_a_probability_table():
    E = match_table(7)
    assert E[1][1] == pytest.approx(0.5)
    for a in range(1, 8):
        for b in range(1, 8):
            assert E[a][b] + E[b][a] == pytest.approx(1.0)
            if a < 7:
                assert E[a][b] > E[a + 1][b]


def test_cube_match_table_crawford_game_and_free_drop():
    g = CUBE_GAMMON_SHARE
    E, post = cube_match_table(7)
    # after the Crawford game at 1-away against 2-away the leader passes the trailer's double
    # for free: 1-away all, an even match
    assert post[2] == pytest.approx(0.5)
    # against 3-away he takes: a game he wins ends the match, one the trailer wins leaves
    # 1-away all, by a gammon the trailer wins
    assert post[3] == pytest.approx(0.5 + 0.5 * (1 - g) * 0.5)
    # the Crawford game itself is played without the cube: at 1-away against 2-away the
    # trailer wins the match only by winning it and the post-Crawford game (a gammon: at once)
    assert E[1][2] == pytest.approx(0.5 + 0.5 * (1 - g) * 0.5)
    for a in range(1, 8):
        for b in range(1, 8):
            assert E[a][b] + E[b][a] == pytest.approx(1.0)
            if a < 7:
                assert E[a][b] > E[a + 1][b]
    for k in range(1, 7):
        assert post[k + 1] >= post[k]


def test_a_match_with_the_cube_after_the_crawford_game_is_valued_post_crawford():
    E, post = cube_match_table(7)
    pre = {"kind": "cube", "match_length": 7, "away": {"me": 1, "opponent": 4}, "cube": 1,
           "owner": None, "enabled": False, "crawford": True, "cube_in_use": True,
           "crawford_rule": True}
    # losing the Crawford game by one point leaves 1-away against 3-away after it
    assert _after_game(pre, False, 1) == pytest.approx(post[3])
    assert post[3] != pytest.approx(E[1][3])
    # before it, reaching 1-away makes the next game the Crawford game
    early = dict(pre, away={"me": 2, "opponent": 4}, crawford=False, enabled=True)
    assert _after_game(early, True, 1) == pytest.approx(E[1][4])
    # a match without the cube is valued by the cubeless table
    flat = dict(early, enabled=False, cube_in_use=False)
    assert _after_game(flat, True, 1) == pytest.approx(match_table(7)[1][4])


def test_cubeful_equity_is_monotone_and_owning_the_cube_helps():
    ps = np.linspace(0.01, 0.99, 50)
    Y = np.stack([ps, 0.1 * ps, 0 * ps, 0.1 * (1 - ps), 0 * ps], axis=1)
    for owner in (None, "me", "opponent"):
        e = cubeful(Y, (2, 3), owner)
        assert np.all(np.diff(e) > -1e-9)
    assert np.all(cubeful(Y, (2, 3), "me") >= cubeful(Y, (2, 3), "opponent") - 1e-9)


def test_in_a_match_the_cube_is_kept_for_a_small_edge_and_given_for_a_large_one():
    def row(p):
        return np.array([[p, 0.15 * p, 0.0, 0.15 * (1 - p), 0.0]])

    centred = {"kind": "cube", "match_length": 5, "away": {"me": 5, "opponent": 5}, "cube": 1,
               "owner": None, "enabled": True, "crawford": False}
    doubled = dict(centred, cube=2, owner="opponent")
    # a small edge: keeping the cube centred is worth more than turning it, which gives the
    # opponent its ownership; a large one: doubled (and taken) is worth more than rolling
    assert of_outcomes(row(0.6), (2, 3), centred)[0] > of_outcomes(row(0.6), (2, 3), doubled)[0]
    assert of_outcomes(row(0.85), (2, 3), doubled)[0] > of_outcomes(row(0.85), (2, 3),
                                                                     centred)[0]
    # owning the cube is worth something; the Crawford game and a disabled cube are cubeless
    mine = dict(centred, owner="me")
    his = dict(centred, owner="opponent")
    assert of_outcomes(row(0.6), (2, 3), mine)[0] > of_outcomes(row(0.6), (2, 3), his)[0]
    dead = dict(centred, enabled=False)
    crawford = dict(centred, crawford=True, away={"me": 1, "opponent": 3})
    assert of_outcomes(row(0.6), (2, 3), crawford)[0] == pytest.approx(
        of_outcomes(row(0.6), (2, 3), dict(crawford, enabled=False))[0])
    assert of_outcomes(row(0.5), (2, 3), dead)[0] == pytest.approx(0.0)


def test_utilities_are_in_the_ladders_units():
    Y = np.array([[0.75]])
    assert of_outcomes(Y, (), {"kind": "holes"})[0] == pytest.approx(0.5)
    assert of_outcomes(Y, (), {"kind": "game"})[0] == pytest.approx(0.5)
    money = {"kind": "cube", "cube": 4, "match_length": 0, "enabled": False}
    assert of_outcomes(Y, (), money)[0] == pytest.approx(2.0)
    match = {"kind": "cube", "cube": 1, "match_length": 3, "enabled": False,
             "away": {"me": 1, "opponent": 1}}
    assert of_outcomes(Y, (), match)[0] == pytest.approx(0.5)
    assert not math.isnan(of_outcomes(np.array([[0.5]]), (), match)[0])


def test_simulate_takes_the_new_kinds(capsys):
    assert main(["simulate", "hypergammon", "--white", "search:1", "--black", "greedy",
                 "--games", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["white"] == "search:1" and out["games"] == 2


@pytest.mark.parametrize("vid", ["triktrak", "trictrac-ecrire"])
def test_plays_sharing_the_ladder_state_get_the_leaves_their_own_copies_give(vid):
    from interpreter.engine import branch
    from interpreter.players.leaves import follow, leaves

    v = load_variant(vid)
    checked = []

    class Check:
        kind = "check"
        capabilities = frozenset({"branching"})

        def answer(self, d):
            if d.kind == "play":
                me = d.player
                shared = leaves(d, me, lambda n: 0)
                root = branch.root(d)
                for i, lf in enumerate(shared):
                    own = follow(branch.answer(root, i), me, lambda n: 0)
                    assert (lf.board, lf.on_roll, lf.rolls, lf.ladder, lf.over) == \
                        (own.board, own.on_roll, own.rolls, own.ladder, own.over)
                    assert lf.node.game.board == own.node.game.board
                checked.append(len(shared))
            return 0

    Game(v, "shared", keep_record=False, max_turns=30, doubles=(False, False)).run(
        [Check(), Check()])
    assert sum(checked) > 30


def test_the_networks_gradients_are_its_derivatives():
    net = ValueNet(7, 5, (2, 3), seed=3, scale=0.5)
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, 7)
    x[2] = 0.0
    E = np.zeros((net.outputs, net.theta.shape[0]))
    y = net.add_gradients(x, E, 0.5)           # divided by the scale 0.5
    assert np.allclose(y, net.outputs_of(x[None, :])[0])
    numeric = np.zeros_like(E)
    eps = 1e-6
    for k in range(net.theta.shape[0]):
        old = net.theta[k]
        net.theta[k] = old + eps
        up = net.outputs_of(x[None, :])[0]
        net.theta[k] = old - eps
        down = net.outputs_of(x[None, :])[0]
        net.theta[k] = old
        numeric[:, k] = (up - down) / (2 * eps)
    assert np.allclose(E * 0.5, numeric, atol=1e-7)
    assert np.allclose(net.flip(net.flip(y[None, :])), y[None, :])


# -- the [bot] table's own features ----------------------------------------------------------

def _bot_file(tmp_path, table: str) -> Path:
    path = tmp_path / "own.toml"
    path.write_text('extends = "backgammon"\n\n[variant]\nid = "own"\nname = "Own"\n\n[bot]\n'
                    + table, encoding="utf-8")
    return path


def test_features_of_the_file_weigh_in_the_judgement(tmp_path):
    from interpreter.players.heuristic import HeuristicJudge

    path = _bot_file(tmp_path, 'features = { men_home = "sum(p in home: mine(p))" }\n'
                               'weights = { men_home = 0.5 }\n')
    v = load_variant(str(path))
    judge = HeuristicJudge(v)
    plain = HeuristicJudge(load_variant("backgammon"))
    start = v.start
    assert judge.own_score(start, v.flip(start)) == 0      # the same men home on each side
    b = list(start)
    b[8], b[4] = b[8] - 2, b[4] + 2                         # two men from the 8- to the 4-point
    b = tuple(b)
    assert judge.own_score(b, v.flip(b)) == 1.0
    assert judge.position(b, False)[0] > plain.position(b, False)[0]


@pytest.mark.parametrize("table, message", [
    ('features = { x = "mine(" }\n', "own.toml:8:"),
    ('features = { x = "mine(1) + true" }\n', "own.toml:8:"),
    ('weights = { nothing = 1.0 }\n', "no feature 'nothing'"),
    ('features = { blot = "1" }\n', "a default feature's name"),
    # run on every board a search judges, a feature is priced for each of them
    ('features = { x = "count(p in 1..24 where count(q in 1..24 where count(r in 1..24 where '
     'mine(r) > mine(q)) > mine(p)) > 0)" }\n', "runs once per board a bot judges"),
])
def test_bad_features_are_refused_at_their_place(tmp_path, table, message, capsys):
    path = _bot_file(tmp_path, table)
    code = main(["validate", str(path)])
    assert message in capsys.readouterr().err
    assert code == 1


def test_features_count_men_waiting_off_the_board_and_each_route_and_the_named_state():
    """Tabula starts with all thirty men off the board on one shared route: the race counts
    each side along its own route (the opponent's pip q is the mover's pip q there), the men
    waiting to enter are inputs, and Emperador's named state is each side's input."""
    from interpreter.kernel.board import OPP_POOL, POOL
    from interpreter.players.features import Encoder

    v = load_variant("tabula")
    enc = Encoder(v)
    col = {n: i for i, n in enumerate(enc.names)}
    b = list(v.start)
    assert (b[POOL], b[OPP_POOL]) == (15, 15)
    x = enc.encode([tuple(b)])[0]
    assert x[col["pool_me"]] == x[col["pool_opp"]] == 1.0
    assert x[col["race_me_all"]] == x[col["race_opp_all"]] == 1.0   # 15 men 25 pips away each
    # one man of each side entered on pip 20: on a shared route both have 20 pips to go
    b[POOL] -= 1
    b[OPP_POOL] -= 1
    b[20] = 1
    b[19] = -1
    x = enc.encode([tuple(b)])[0]
    assert x[col["race_me_all"]] == pytest.approx((14 * 25 + 20) / 375)
    assert x[col["race_opp_all"]] == pytest.approx((14 * 25 + 19) / 375)
    assert x[col["pool_me"]] == pytest.approx(14 / 15)
    e = load_variant("emperador")
    enc = Encoder(e)
    slot = e.geometry.state_slot("prime_hits", mine=False)
    b = list(e.start)
    b[slot] = 2
    x = enc.encode([tuple(b)])[0]
    names = enc.names
    assert x[names.index("state_prime_hits_opp")] == 0.25
    assert x[names.index("state_prime_hits_me")] == 0.0


@pytest.mark.parametrize("vid", ["acey-deucey", "jacquet", "long-nardy"])
def test_a_network_keeps_the_inputs_it_was_trained_on(vid, tmp_path):
    """A shipped network trained before the waiting-men, route and state inputs existed is still
    run on exactly its recorded inputs, and a new one on the variant's full set."""
    from interpreter.players import td
    from interpreter.players.features import Encoder
    from interpreter.players.learned import load_net

    v = load_variant(vid)
    net = load_net(v, None)
    old = Encoder.of_net(v, net)
    assert old.names == net.meta["features"] and old.names != Encoder(v).names
    b = v.start
    x = old.encode([b])[0]
    assert x.shape == (len(net.meta["features"]),)
    out = tmp_path / "n.npz"
    td.train(v, vid, 1, out, seed=3, hidden=4, max_turns=30)
    assert ValueNet.load(out).meta["features"] == Encoder(v).names
