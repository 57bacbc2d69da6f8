"""The boards of the shorter routes and the choices before a game, as a person sees and plays
them: Medio emperador's route of 12 points drawn as one half of the board, Seys dos e as's 18
points as three quarters and one quarter unused, both colours on one shared route, in the SVG
(the web board and `tablier draw`) and at the terminal; plays written and read in pips 1..N
(`bar/10` on 12 points for a 3); Doze canes's goal quarter chosen before the first throw, at
the terminal and through the web API; whole games of Medio emperador and Doze canes answered as
a person answers them."""
from __future__ import annotations

import io
import random
import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from human_harness import ROOT, Driver

from interpreter.engine.events import Thrown
from interpreter.engine.game import Game
from interpreter.kernel.board import BAR
from interpreter.kernel.notation import read_play
from interpreter.notation import NotationError, notation_for
from interpreter.players.bots import RandomBot
from interpreter.players.human import EndOfInput, HumanPlayer, Session
from interpreter.svg import position_svg
from interpreter.terminal import draw_board, pip_counts
from interpreter.variant.build import load_variant
from test_svg import checkers, expected

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _wide_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as wide as they come (the tests read whole lines)."""
    monkeypatch.setenv("COLUMNS", "1000")


# -- what the pictures hold ----------------------------------------------------------------------

def points_of(svg: str) -> dict[int, tuple[float, float]]:
    """pip → (x, y) of each point's clickable area."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(f"{NS}g"):
        if "point" in g.get("class", "").split():
            rect = next(e for e in g if e.get("class") == "hit")
            out[int(g.get("data-pip"))] = (float(rect.get("x")), float(rect.get("y")))
    return out


def labels_of(svg: str) -> dict[int, str]:
    root = ET.fromstring(svg)
    return {int(e.get("data-pip")): e.text for e in root.iter(f"{NS}text")
            if e.get("class") == "label"}


def hit_targets(svg: str) -> Counter:
    return Counter(int(e.get("data-pip")) for e in ET.fromstring(svg).iter()
                   if "hit" in e.get("class", "").split())


def boards_of(variant_id: str, n: int = 10) -> list[tuple]:
    """Positions of a random game of the variant (seen by the mover), the start first."""
    v = load_variant(variant_id)
    game = Game(v, "short/0", max_turns=300)
    game.run((RandomBot("a"), RandomBot("b")))
    boards = [e.board for e in game.log if isinstance(e, Thrown)]
    rng = random.Random(variant_id)
    return [v.start] + rng.sample(boards, min(n, len(boards)))


# -- Medio emperador: one half of the board ------------------------------------------------------

def test_medio_emperador_start_is_one_half_of_the_board_with_its_two_routes() -> None:
    v = load_variant("medio-emperador")
    svg = position_svg(v, v.start, dice=(3, 5, 1))
    root = ET.fromstring(svg)
    assert "half" in root.get("class").split()
    xy = points_of(svg)
    assert sorted(xy) == list(range(1, 13))                  # twelve point shapes
    assert labels_of(svg) == {p: str(p) for p in range(1, 13)}
    # the player's route along his own row, 12..7 from the left, and back along the far row,
    # 6..1: pip 1 (where the opponent starts) directly across from pip 12 (where he starts)
    assert xy[12][0] < xy[11][0] < xy[8][0] < xy[7][0]
    assert xy[1][0] < xy[2][0] < xy[6][0]
    assert abs(xy[12][0] - xy[1][0]) < 1 and abs(xy[7][0] - xy[6][0]) < 1
    assert xy[12][1] > xy[1][1]                              # pip 12 on the near row
    assert checkers(svg) == Counter({(12, "mover"): 15, (1, "opponent"): 15})
    # both sides leave at the end of pips 12 and 1: the tray there, the bar at the other end
    tray = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "tray")
    bar = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "bar")
    assert float(tray.get("x")) < xy[12][0] < xy[7][0] < float(bar.get("x"))
    dice = [g.get("data-die") for g in root.iter(f"{NS}g") if "die" in g.get("class", "")]
    assert dice == ["3", "5", "1"]
    # one half of the whole board, with its bar and tray
    whole = load_variant("backgammon")
    width = float(root.get("viewBox").split()[2])
    assert width < 0.65 * float(ET.fromstring(position_svg(whole, whole.start))
                               .get("viewBox").split()[2])


def test_medio_emperadors_half_board_mirrored() -> None:
    v = load_variant("medio-emperador")
    svg = position_svg(v, v.start, mirror=True)
    xy = points_of(svg)
    root = ET.fromstring(svg)
    tray = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "tray")
    bar = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "bar")
    assert float(bar.get("x")) < xy[7][0] < xy[12][0] < float(tray.get("x"))
    assert abs(xy[12][0] - xy[1][0]) < 1
    assert checkers(svg) == Counter({(12, "mover"): 15, (1, "opponent"): 15})


def test_medio_emperador_men_on_the_bar_stand_on_the_half_they_enter() -> None:
    v = load_variant("medio-emperador")
    b = v.geometry.from_json({"points": [-13, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 12],
                              "bar": [1, 0], "off": [0, 2]}, 15)
    svg = position_svg(v, b)
    assert checkers(svg) == expected(b)
    root = ET.fromstring(svg)
    ys = {e.get("data-side"): float(e.get("cy")) for e in root.iter(f"{NS}circle")
          if e.get("data-pip") in ("25", "26")}
    xy = points_of(svg)
    # the player enters on his own row (pips 12..7, 13 - d): his man on the bar stands there
    assert ys["mover"] > (xy[1][1] + xy[12][1]) / 2


@pytest.mark.parametrize("variant_id", ["medio-emperador", "seys-dos-e-as"])
def test_every_checker_of_a_short_route_is_drawn_on_its_point_from_both_sides(
        variant_id: str) -> None:
    v = load_variant(variant_id)
    n = v.geometry.points
    for b in boards_of(variant_id):
        assert checkers(position_svg(v, b, dice=(3, 1, 2))) == expected(b)
        other = position_svg(v, b, mover=0, side=1)
        assert checkers(other) == expected(v.flip(b))
        wide, narrow = position_svg(v, b), position_svg(v, b, narrow=True)
        assert checkers(narrow) == checkers(wide)
        # the same hit targets in both forms: each point of the route, the bar, the tray
        assert hit_targets(narrow) == hit_targets(wide)
        assert set(hit_targets(wide)) == set(range(0, n + 1)) | {25}
        assert labels_of(narrow) == {p: str(p) for p in range(1, n + 1)}


def test_a_short_route_seen_from_the_other_side_is_his_own_half() -> None:
    v = load_variant("medio-emperador")
    svg = position_svg(v, v.start, mover=0, side=1)
    root = ET.fromstring(svg)
    fills = {e.get("fill") for e in root.iter(f"{NS}circle") if e.get("data-side") == "mover"}
    assert fills == {"#2c2a28"}                  # the viewer is black
    # black's fifteen on his own pip 12, near him: the same layout from his side
    assert checkers(svg) == Counter({(12, "mover"): 15, (1, "opponent"): 15})
    assert points_of(svg) == points_of(position_svg(v, v.start))


# -- Seys dos e as: three quarters, one route for both --------------------------------------------

def test_seys_dos_e_as_start_three_quarters_and_the_fourth_unused() -> None:
    v = load_variant("seys-dos-e-as")
    svg = position_svg(v, v.start)
    root = ET.fromstring(svg)
    xy = points_of(svg)
    assert sorted(xy) == list(range(1, 19))                  # eighteen point shapes
    assert labels_of(svg) == {p: str(p) for p in range(1, 19)}
    unused = [g for g in root.iter(f"{NS}g") if g.get("class") == "unused"]
    assert len(unused) == 1 and unused[0].get("data-pip") is None
    assert not [e for e in unused[0].iter() if e.get("data-pip")]
    assert [e.text for e in unused[0].iter(f"{NS}text")] == ["not used"]
    # the starting quarter (18..13) and the one beside it on the same side (12..7) along the
    # far row, then the quarter diagonally across from the start (6..1) on the near row
    far = xy[18][1]
    assert all(xy[p][1] == far for p in range(7, 19))
    assert all(xy[p][1] > far for p in range(1, 7))
    assert xy[7][0] < xy[12][0] < xy[13][0] < xy[18][0]
    assert xy[6][0] < xy[1][0] < xy[13][0]
    assert abs(xy[7][0] - xy[6][0]) < 1
    # both colours on the one route, as the players set them up: eight, four and three
    # against five, five and five, all in the starting quarter
    assert checkers(svg) == Counter({(18, "mover"): 8, (14, "mover"): 4, (13, "mover"): 3,
                                     (17, "opponent"): 5, (16, "opponent"): 5,
                                     (15, "opponent"): 5})
    # seen by black: the same route, the same points, the colours turned
    other = position_svg(v, v.start, mover=0, side=1)
    assert checkers(other) == Counter({(18, "opponent"): 8, (14, "opponent"): 4,
                                       (13, "opponent"): 3, (17, "mover"): 5,
                                       (16, "mover"): 5, (15, "mover"): 5})


@pytest.mark.parametrize("variant_id,men", [
    ("laquet", {(24, "mover"): 14, (1, "mover"): 1, (23, "opponent"): 3, (22, "opponent"): 3,
                (21, "opponent"): 3, (20, "opponent"): 3, (19, "opponent"): 2,
                (12, "opponent"): 1}),
    ("cab-e-quinal", {(19, "mover"): 15, (20, "opponent"): 15}),
])
def test_per_side_starts_on_one_shared_route(variant_id: str, men: dict) -> None:
    """Laquet's and Cab e quinal's layouts, both colours on the one route: the first quarter
    of backgammon's layout (pips 19..24 at the far right), the same pips from either side."""
    v = load_variant(variant_id)
    svg = position_svg(v, v.start)
    assert checkers(svg) == Counter(men)
    flipped = {(p, "opponent" if s == "mover" else "mover"): k for (p, s), k in men.items()}
    assert checkers(position_svg(v, v.start, mover=0, side=1)) == Counter(flipped)


# -- the terminal ---------------------------------------------------------------------------------

def test_medio_emperador_at_the_terminal() -> None:
    v = load_variant("medio-emperador")
    text = draw_board(v, v.start, 0, notation_for(v), width=200).plain
    assert text.splitlines() == [
        "   1   2   3   4   5   6",
        " O15   .   .   .   .   .",
        " X15   .   .   .   .   .",
        "  12  11  10   9   8   7",
        "bar X0 O0   off X0 O0   pips X180 O180   (X white, O black; white on roll, moving "
        "from 12 towards 1)"]
    # a man on the bar is one pip before the route's first point: 13
    b = v.geometry.from_json({"points": [-13, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 12],
                              "bar": [1, 0], "off": [0, 2]}, 15)
    assert pip_counts(v, b) == (13 + 12 * 12 + 2 * 9, 13 * 12)


def test_seys_dos_e_as_at_the_terminal() -> None:
    v = load_variant("seys-dos-e-as")
    text = draw_board(v, v.start, 0, notation_for(v), width=200).plain
    assert text.splitlines() == [
        "   7   8   9  10  11  12 |  13  14  15  16  17  18",
        "   .   .   .   .   .   . |  X3  X4  O5  O5  O5  X8",
        "   .   .   .   .   .   . |  (not used)",
        "   6   5   4   3   2   1",
        "bar X0 O0   off X0 O0   pips X239 O240   (X white, O black; white on roll, moving "
        "from 18 towards 1)"]
    assert pip_counts(v, v.start) == (8 * 18 + 4 * 14 + 3 * 13, 5 * (17 + 16 + 15))


# -- plays in pips 1..N ---------------------------------------------------------------------------

def test_a_medio_emperador_play_12_6_12_7_reads_back() -> None:
    v = load_variant("medio-emperador", ["me_dice=2"])
    b = v.start
    plays, _ = v.generator.plays(b, 6, 5)
    n = notation_for(v)
    texts = [n.play_text(b, p.paths[0]) for p in plays]
    assert texts == ["12/6 12/7"]
    assert n.parse("12/6 12/7") == [(12, 6), (12, 7)]
    assert read_play("12/6 12/7", plays, b, (6, 5)).board == plays[0].board
    assert n.examples() == "pips 1-12 of the player on roll, bar, off"
    with pytest.raises(NotationError, match="there is no point 13: the route of this board has "
                                            "12 points"):
        n.parse("13/7")
    with pytest.raises(NotationError, match=r"7/12 moves backwards \(your checkers move from "
                                            r"12 towards 1\)"):
        n.parse("7/12")


def _on_the_bar() -> tuple:
    """Medio emperador with two dice: white with a man on the bar, 3-6 to play."""
    v = load_variant("medio-emperador", ["me_dice=2"])
    b = v.geometry.from_json({"points": [-15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14],
                              "bar": [1, 0], "off": [0, 0]}, 15)
    return v, b, (3, 6)


def test_a_man_entering_from_the_bar_is_written_bar_10_for_a_3() -> None:
    v, b, dice = _on_the_bar()
    plays, _ = v.generator.plays(b, *dice)
    n = notation_for(v)
    texts = {n.play_text(b, path) for p in plays for path in p.paths}
    assert any(t.startswith("bar/10") for t in texts)          # 13 - 3
    assert any(t.startswith("bar/7") for t in texts)           # 13 - 6
    for p in plays:
        text = n.play_text(b, p.paths[0])
        steps = n.parse(text)
        assert read_play(text, plays, b, dice).board == p.board
        assert all(1 <= x <= 12 or x in (0, BAR) for s in steps for x in s)


def test_at_the_terminal_bar_4_is_read_over_both_numbers_on_12_points() -> None:
    v, b, dice = _on_the_bar()
    g = Game(v, "x/0")
    next(g.play())
    g.board = g.choice_base = b
    g.dice = dice
    g.mover = 0
    plays, _ = v.generator.plays(b, *dice)
    d = g.ask("play", 0, [p.board for p in plays])
    out = io.StringIO()
    s = Session(v, notation_for(v), inp=io.StringIO("bar/4\n"), out=out, echo=True)
    i = HumanPlayer(0, s).answer(d)
    assert isinstance(i, int)
    assert any((st[0], st[1]) in ((25, 10), (25, 7)) and path[-1][1] == 4
               for path in plays[i].paths for st in path[:1]), out.getvalue()
    # a step no number makes is refused with its real distance from the bar (13 - 5 = 8)
    s = Session(v, notation_for(v), inp=io.StringIO("bar/5\n"), out=(said := io.StringIO()),
                echo=True)
    with pytest.raises(EndOfInput):
        HumanPlayer(0, s).answer(d)
    assert "bar/5: no checker of yours can move 8 from bar with 3-6" in said.getvalue()


# -- a person's whole games at the terminal ------------------------------------------------------

def test_a_person_plays_medio_emperador_to_its_end_at_the_terminal() -> None:
    t = Driver(["medio-emperador", "--white", "human", "--black", "greedy", "--seed", "4"]).run()
    assert t.returncode == 0, t.out[-2000:]
    assert "wins" in t.out.strip().splitlines()[-1]
    assert "12/6 12/7, 12/8(2), 8/2*/1, bar/10, 3/off" in t.out          # help, in 1..12
    assert "moving from 12 towards 1" in t.out
    assert "there is no point 24: the route of this board has 12 points" in t.out
    assert not re.search(r"\b(1[3-9]|2[0-4])/", t.out), "a pip beyond 12 was written"


def _play(args: list[str], lines: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "play", *args],
                          input="\n".join(lines) + "\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={"NO_COLOR": "1", "PATH": "/usr/bin", "COLUMNS": "1000"})


def test_the_goal_quarter_is_chosen_at_the_terminal_from_the_files_words() -> None:
    r = _play(["doze-canes", "--white", "human", "--black", "greedy", "--seed", "2"],
              ["9", "13-18", "quit"])
    assert r.returncode == 0, r.stderr
    out = r.stdout
    first = out.split("white choose>")[0]
    assert "white threw" not in first                 # no throw yet: the choice comes first
    assert "white chooses before the first throw of the game" in first
    assert ("The goal quarter: Before his first throw, the winner of the opening throw "
            "chooses one quarter of the board as the goal of both sides") in first
    assert "Your choice:  1 19-24  2 13-18  3 7-12  4 1-6" in first
    under = next(line for line in first.splitlines() if line.startswith("bar X0"))
    assert "goal" not in under                        # not chosen yet
    assert "'9' is not an answer here: type 1 to 4 or one of 19-24, 13-18, 7-12, 1-6" in out
    assert "white chooses the goal quarter: 13-18 (white's pips)" in out
    assert "The goal quarter: 13-18   pips" in out      # under the board, in white's pips


def test_the_goal_chosen_by_the_opponent_is_shown_in_the_players_own_pips() -> None:
    r = _play(["doze-canes", "--white", "human", "--black", "greedy", "--seed", "1"], ["quit"])
    assert "black chooses the goal quarter: 19-24 (black's pips)" in r.stdout
    assert "The goal quarter: 1-6" in r.stdout            # the same quarter, white's 1..6


def test_a_person_plays_doze_canes_to_its_end_choosing_the_goal() -> None:
    t = Driver(["doze-canes", "--set", 'dc_blocked="draw"', "--white", "human", "--black",
                "greedy", "--seed", "2"], script=["7-12"]).run()
    assert t.returncode == 0, t.out[-2000:]
    assert "white chooses the goal quarter: 7-12 (white's pips)" in t.out
    assert any(w in t.out.strip().splitlines()[-1] for w in ("wins", "a draw"))


# -- the web API ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette")
    from web_harness import client as make
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


def _settled(client, state: dict) -> dict:
    """The state once no bot is to move (as the page asks again)."""
    n = 0
    while state["bot_to_move"]:
        state = client.get(f"/api/games/{state['id']}").json()["state"]
        n += 1
        assert n < 5000
    return state


#: the pips a typed play writes as words: the bar, off, the men waiting to enter
WORDS = {25: "bar", 0: "off", 29: "in"}


def _person(client, state: dict, rng: random.Random, choose: str | None = None) -> dict:
    """A person's answers to the end: a play by the steps of one of its ways typed in any
    order, by its label, or by a click's preview then the play; a word by its button."""
    answers = 0
    while True:
        state = _settled(client, state)
        q = state["question"]
        if q is None:
            return state
        gid = state["id"]
        if q["kind"] == "play":
            i = rng.randrange(len(q["plays"]))
            play = q["plays"][i]
            how = rng.randrange(3)
            if how == 0 and play["paths"] and play["paths"][0]:
                path = rng.choice(play["paths"])
                # the steps as clicks show them, then typed in any order
                shown = client.post(f"/api/games/{gid}/preview", json={"steps": path[:1]})
                assert shown.status_code == 200, shown.text
                answer = " ".join(f"{WORDS.get(a, a)}/{WORDS.get(b, b)}"
                                  for a, b in sorted(path, key=lambda s: rng.random()))
            elif how == 1:
                answer = play["label"]
            else:
                answer = play["text"]
        else:
            assert set(q["labels"]) == set(q["choices"])
            answer = choose if q["decision"] == "choose" and choose else rng.choice(q["choices"])
        r = client.post(f"/api/games/{gid}/answer", json={"answer": answer})
        assert r.status_code == 200, (answer, r.json())
        state = r.json()
        answers += 1
        assert answers < 3000


def test_a_whole_game_of_medio_emperador_in_the_web_api(client) -> None:
    r = client.post("/api/games", json={"variant": "medio-emperador", "white": "human",
                                         "black": "greedy", "seed": 6})
    assert r.status_code == 200, r.text
    state = _settled(client, r.json()["state"])
    assert len(state["position"]["points"]) == 12
    assert sorted(points_of(state["svg"])) == list(range(1, 13))
    assert sorted(points_of(state["svg_narrow"])) == list(range(1, 13))
    assert state["labels"]["25"] == "bar" and state["labels"]["12"] == "12"
    state = _person(client, state, random.Random(6))
    assert state["finished"] is True and state["winner"] in ("white", "black")
    assert "wins" in state["result"]["text"]
    assert not any(re.search(r"\b(1[3-9]|2[0-4])/", line) for line in state["log"])


def test_a_step_previewed_on_12_points_greys_its_own_number(client) -> None:
    r = client.post("/api/games", json={"variant": "medio-emperador", "white": "human",
                                         "black": "greedy", "seed": 6, "set": {"me_dice": 2}})
    state = _settled(client, r.json()["state"])
    q = state["question"]
    step = q["plays"][0]["paths"][0][0]
    svg = client.post(f"/api/games/{state['id']}/preview", json={"steps": [step]}).json()["svg"]
    used = [g.get("data-die") for g in ET.fromstring(svg).iter(f"{NS}g")
            if "used" in g.get("class", "").split()]
    assert used == [str(step[0] - step[1])]


def test_the_goal_quarter_asked_in_the_web_api_and_a_whole_game_of_doze_canes(client) -> None:
    r = client.post("/api/games", json={"variant": "doze-canes", "white": "human",
                                         "black": "greedy", "seed": 2,
                                         "set": {"dc_blocked": "draw"}})
    assert r.status_code == 200, r.text
    state = _settled(client, r.json()["state"])
    q = state["question"]
    assert q["kind"] == "decision" and q["decision"] == "choose" and q["player"] == "white"
    assert q["choices"] == ["19-24", "13-18", "7-12", "1-6"]
    assert q["labels"] == {c: c for c in q["choices"]}
    assert q["title"] == "The goal quarter"
    assert q["description"].startswith("Before his first throw, the winner of the opening "
                                       "throw chooses one quarter of the board")
    assert q["text"] == "White, choose the goal quarter before the first throw"
    assert state["dice"] is None
    assert ">goal<" not in state["svg"]                  # nothing chosen yet
    # a word that is no label is refused, naming the labels
    bad = client.post(f"/api/games/{state['id']}/answer", json={"answer": "the far one"})
    assert bad.status_code == 400 and "'19-24', '13-18', '7-12', '1-6'" in bad.json()["error"]
    state = client.post(f"/api/games/{state['id']}/answer", json={"answer": "13-18"}).json()
    state = _settled(client, state)
    assert "white chooses the goal quarter: 13-18 (white's pips)" in state["log"][0]
    # the goal's six points are named on the board, in white's pips
    root = ET.fromstring(state["svg"])
    named = [e.text for e in root.iter(f"{NS}text") if e.get("class") == "name"]
    assert named.count("goal") == 6
    titles = [e.text for e in root.iter(f"{NS}title") if e.text and "goal" in e.text]
    assert sorted(int(t.split()[1].rstrip(":")) for t in titles) == list(range(13, 19))
    state = _person(client, state, random.Random(2))
    assert state["finished"] is True
    assert re.search(r"wins|draw", state["result"]["text"])
