"""Holes and points drawn on the frame of the trictrac family's boards (interpreter/svg.py): each
player's peg in the hole of his holes, at the foot of the point that counts them from his
talon, his jeton at the foot of the point that counts his points (six against the bar), two
jetons while he marks in bredouille after the opponent; combiné's gold and silver pegs; for the
web board and `tablier draw --svg`."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.svg import PW, marking_of, position_svg
from interpreter.variant.build import load_variant

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def triktrak():
    return load_variant("triktrak")


def _svg(variant, sides: dict, side: int = 0) -> ET.Element:
    board = variant.start
    return ET.fromstring(position_svg(variant, board, mover=0, side=side,
                                      marking=marking_of(sides)))


def _label_x(root: ET.Element) -> dict[int, float]:
    """The middle of each point, by the pip written under or over it."""
    return {int(t.get("data-pip")): float(t.get("x")) for t in root.iter(f"{NS}text")
            if t.get("class") == "label"}


def _of(root: ET.Element, cls: str, side: str) -> list[ET.Element]:
    return [e for e in root.iter() if (e.get("class") or "").split()[:1] == [cls]
            and e.get("data-side") == side]


def _edges(root: ET.Element) -> tuple[float, float]:
    """The y of the far row's edge and of the near row's (the bar spans them)."""
    bar = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "bar")
    top = float(bar.get("y"))
    return top, top + float(bar.get("height"))


def test_pegs_and_jetons_stand_at_the_points_that_count_them_from_each_talon(triktrak) -> None:
    """White (the viewer) 4 points and 3 holes, Black 2 points and 5 holes: White's peg at the
    foot of his 3rd point from his talon (pip 22) and his jeton at his 4th (pip 21), below
    his row; Black's peg at his 5th point from his talon (White's pip 5) and his jeton at his
    2nd (White's pip 2), above the far row."""
    root = _svg(triktrak, {"points": [4, 2], "holes": [3, 5], "bredouille": [False, False]})
    x = _label_x(root)
    top, bottom = _edges(root)
    (peg,) = _of(root, "peg", "mover")
    (jeton,) = _of(root, "jeton", "mover")
    assert int(peg.get("data-holes")) == 3 and float(peg.get("cx")) == pytest.approx(x[22])
    assert int(jeton.get("data-points")) == 4 and float(jeton.get("cx")) == pytest.approx(x[21])
    assert float(peg.get("cy")) > float(jeton.get("cy")) > bottom
    (peg,) = _of(root, "peg", "opponent")
    (jeton,) = _of(root, "jeton", "opponent")
    assert int(peg.get("data-holes")) == 5 and float(peg.get("cx")) == pytest.approx(x[5])
    assert int(jeton.get("data-points")) == 2 and float(jeton.get("cx")) == pytest.approx(x[2])
    assert float(peg.get("cy")) < float(jeton.get("cy")) < top
    # twelve holes and the start hole along each rail
    holes = [e for e in root.iter(f"{NS}circle") if e.get("class") == "hole"]
    assert len(holes) == 26
    assert {round(float(h.get("cx")), 1) for h in holes if float(h.get("cy")) > bottom} >= \
        {round(x[p], 1) for p in range(13, 25)}


def test_six_points_lie_against_the_bar_and_eight_and_ten_beyond_it(triktrak) -> None:
    bar = None
    for points, pip in ((6, 19), (8, 17), (10, 15), (2, 23)):
        root = _svg(triktrak, {"points": [points, 0], "holes": [0, 0]})
        x = _label_x(root)
        bar = bar or next(e for e in root.iter(f"{NS}rect") if e.get("class") == "bar")
        (jeton,) = _of(root, "jeton", "mover")
        cx = float(jeton.get("cx"))
        if points == 6:
            # on the 6th point's side next to the bar, not over its middle
            assert x[19] < cx <= x[19] + PW / 2 <= float(bar.get("x"))
        else:
            assert cx == pytest.approx(x[pip])


def test_no_points_no_jeton_and_no_holes_the_peg_beyond_the_talon(triktrak) -> None:
    root = _svg(triktrak, {"points": [0, 0], "holes": [0, 0]})
    x = _label_x(root)
    assert not [e for e in root.iter() if e.get("class") == "jeton"]
    (mine,) = _of(root, "peg", "mover")
    (theirs,) = _of(root, "peg", "opponent")
    # the start hole, on the far side of each talon from the points
    assert float(mine.get("cx")) == pytest.approx(2 * x[24] - x[23])
    assert float(theirs.get("cx")) == pytest.approx(2 * x[1] - x[2])


def test_the_second_to_mark_in_bredouille_marks_with_two_jetons(triktrak) -> None:
    """White marked 4 after Black's 6: White marks with two jetons (in bredouille), Black,
    whose series White interrupted, with one."""
    root = _svg(triktrak, {"points": [4, 6], "holes": [0, 0], "bredouille": [True, False]})
    two = _of(root, "jeton", "mover")
    assert len(two) == 2 and len(_of(root, "jeton", "opponent")) == 1
    # side by side, the second towards the talon
    x = _label_x(root)
    assert float(two[0].get("cx")) == pytest.approx(x[21])
    assert float(two[1].get("cx")) < float(two[0].get("cx"))
    # alone with points, a player in bredouille marks with one jeton
    root = _svg(triktrak, {"points": [4, 0], "holes": [0, 0], "bredouille": [True, True]})
    assert len(_of(root, "jeton", "mover")) == 1


def test_holes_past_twelve_go_round_again_with_their_count(triktrak) -> None:
    root = _svg(triktrak, {"points": [0, 0], "holes": [14, 0]})
    x = _label_x(root)
    (peg,) = _of(root, "peg", "mover")
    assert float(peg.get("cx")) == pytest.approx(x[23]) and peg.get("data-holes") == "14"
    counts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "peg-count"]
    assert counts == ["14"]


def test_from_blacks_side_the_marks_change_rails(triktrak) -> None:
    root = _svg(triktrak, {"points": [4, 2], "holes": [3, 5]}, side=1)
    x = _label_x(root)
    (peg,) = _of(root, "peg", "mover")          # the viewer: Black
    assert peg.get("data-holes") == "5" and float(peg.get("cx")) == pytest.approx(x[20])
    (peg,) = _of(root, "peg", "opponent")
    assert peg.get("data-holes") == "3" and float(peg.get("cx")) == pytest.approx(x[3])


def test_combine_has_a_gold_and_a_silver_peg_and_one_bimetallic_while_equal() -> None:
    v = load_variant("trictrac-combine")
    root = _svg(v, {"points": [0, 0], "holes": [0, 0], "mark_holes": [3, 2],
                    "honours_holes": [5, 2]})
    mine = _of(root, "peg", "mover")
    assert sorted(p.get("class") for p in mine) == ["peg holes", "peg honours"]
    x = _label_x(root)
    where = {p.get("class"): float(p.get("cx")) for p in mine}
    assert where["peg holes"] == pytest.approx(x[22])       # à écrire's 3 holes
    assert where["peg honours"] == pytest.approx(x[20])     # the honours game's 5
    (both,) = _of(root, "peg", "opponent")
    assert both.get("class") == "peg holes honours" and both.get("data-holes") == "2"


def test_a_partie_a_ecrire_marks_the_holes_of_the_mark_its_banner_and_necktie() -> None:
    v = load_variant("trictrac-ecrire")
    root = _svg(v, {"points": [2, 0], "holes": [0, 0], "mark_holes": [4, 1],
                    "banner": [True, False], "necktie": [False, True]})
    (peg,) = _of(root, "peg", "mover")
    assert peg.get("data-holes") == "4"
    assert len([e for e in root.iter() if e.get("class") == "banner"]) == 1
    assert len([e for e in root.iter() if e.get("class") == "necktie"]) == 1


def test_the_12_point_game_pegs_the_games_won() -> None:
    v = load_variant("tric-trac-12")
    root = _svg(v, {"points": [5, 0], "game": 2, "games": [2, 0], "values": [2]})
    (peg,) = _of(root, "peg", "mover")
    (jeton,) = _of(root, "jeton", "mover")
    assert peg.get("data-holes") == "2" and jeton.get("data-points") == "5"


def test_backgammon_draws_no_pegs_nor_a_wider_frame() -> None:
    v = load_variant("backgammon")
    plain = position_svg(v, v.start)
    assert marking_of({"score": [0, 0], "cube": 1}) is None
    marked = position_svg(v, v.start, marking=marking_of({"points": [4, 0], "holes": [1, 0]}))
    assert marked == plain and "peg" not in plain


def test_the_web_board_draws_the_ladders_marks() -> None:
    from interpreter.web.session import Session

    s = Session.new(load_variant("triktrak"), 6, ("greedy", "greedy"), [])
    for _ in range(40):
        if max(s.game.ladder.sides()["points"]) and max(s.game.ladder.sides()["holes"]):
            break
        s.bot_turn()
    sides = s.game.ladder.sides()
    root = ET.fromstring(s.svg(side=0))
    pegs = {p.get("data-side"): int(p.get("data-holes")) for p in root.iter()
            if (p.get("class") or "").startswith("peg ")}
    assert pegs == {"mover": sides["holes"][0], "opponent": sides["holes"][1]}


def _draw(position: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "draw", "--svg", "-", *args],
                          input=json.dumps(position), capture_output=True, text=True, cwd=ROOT)


def test_tablier_draw_marks_the_score_a_position_gives() -> None:
    pos = {"variant": "triktrak", "points": [-13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 2, 0, 1,
                                             0, 0, 2, 0, 0, 1, 0, 0, 9],
           "state": {"score": {"points": [6, 4], "holes": [3, 1],
                               "bredouille": [True, False]}}}
    r = _draw(pos)
    assert r.returncode == 0, r.stderr
    root = ET.fromstring(r.stdout)
    assert [p.get("data-holes") for p in _of(root, "peg", "mover")] == ["3"]
    assert len(_of(root, "jeton", "mover")) == 2 and len(_of(root, "jeton", "opponent")) == 1
    # without a score: the pegs at the start, no jeton
    del pos["state"]
    root = ET.fromstring(_draw(pos).stdout)
    assert [p.get("data-holes") for p in _of(root, "peg", "mover")] == ["0"]
    assert not [e for e in root.iter() if e.get("class") == "jeton"]


@pytest.mark.parametrize("score, words", [
    ({"points": [4]}, "'state.score.points' must be a [mover, opponent] pair of whole numbers"),
    ({"holes": [1, -2]}, "'state.score.holes' must be a [mover, opponent] pair"),
    ({"pegs": [1, 2]}, "'state.score': unknown key 'pegs'"),
    ({"bredouille": [1, 0]}, "'state.score.bredouille' must be a [mover, opponent] pair of true"),
    ([4, 2], "'state.score' is an object"),
])
def test_tablier_draw_refuses_a_score_it_cannot_read(score, words: str) -> None:
    r = _draw({"variant": "triktrak", "points": [-15] + [0] * 22 + [15],
               "state": {"score": score}})
    # refused as every other fault of the position is (exit 1), in one line
    assert r.returncode == 1 and words in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
