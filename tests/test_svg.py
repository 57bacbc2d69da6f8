"""The SVG board (interpreter/svg.py): the picture parses as XML and shows every checker where
the position has it, from either side, in each variant's frame."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from interpreter.engine.events import Thrown
from interpreter.engine.game import Game
from interpreter.players.bots import RandomBot
from interpreter.svg import Geometry, Marking, board_svg, position_svg
from interpreter.variant.build import load_variant

NS = "{http://www.w3.org/2000/svg}"
VARIANTS = ["backgammon", "hypergammon", "nackgammon", "triktrak", "trictrac-ecrire",
            "trictrac-combine", "tric-trac-12"]


def checkers(svg: str) -> Counter:
    """(pip, side) → checkers drawn: circles on points and the bar, slices in the trays."""
    root = ET.fromstring(svg)
    out: Counter = Counter()
    for e in root.iter():
        cls = e.get("class", "").split()
        if "checker" in cls and "waiting" not in cls and "pinned" not in cls:
            out[(int(e.get("data-pip")), e.get("data-side"))] += 1
    return out


def expected(b: tuple) -> Counter:
    out: Counter = Counter()
    for p in range(1, 25):
        if b[p]:
            out[(p, "mover" if b[p] > 0 else "opponent")] = abs(b[p])
    for slot, key in ((25, (25, "mover")), (26, (26, "opponent")), (0, (0, "mover")),
                      (27, (27, "opponent"))):
        if b[slot]:
            out[key] = b[slot]
    return out


def boards_of(variant_id: str, n: int = 12) -> list[tuple]:
    """Positions of a random game of the variant (seen by the mover), the start first."""
    v = load_variant(variant_id)
    game = Game(v, "svg/0", max_turns=300)
    game.run((RandomBot("a"), RandomBot("b")))
    boards = [e.board for e in game.log if isinstance(e, Thrown)]
    rng = random.Random(variant_id)
    return [v.start] + rng.sample(boards, min(n, len(boards)))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_checker_is_drawn_on_its_point(variant_id: str) -> None:
    v = load_variant(variant_id)
    for b in boards_of(variant_id):
        svg = position_svg(v, b, dice=(3, 1))
        assert checkers(svg) == expected(b)


@pytest.mark.parametrize("variant_id", ["backgammon", "triktrak", "tric-trac-12"])
def test_the_view_from_the_other_side_turns_the_board(variant_id: str) -> None:
    v = load_variant(variant_id)
    for b in boards_of(variant_id, 6):
        svg = position_svg(v, b, mover=0, side=1)
        assert checkers(svg) == expected(v.flip(b))
        root = ET.fromstring(svg)
        # the viewer's checkers are black: he is the other side
        fills = {e.get("fill") for e in root.iter(f"{NS}circle")
                 if e.get("data-side") == "mover"}
        assert fills <= {"#2c2a28"}


def test_backgammon_frame_home_board_near_and_right() -> None:
    v = load_variant("backgammon")
    root = ET.fromstring(position_svg(v, v.start))
    xy = {}
    for g in root.iter(f"{NS}g"):
        if "point" in g.get("class", "").split():
            rect = next(e for e in g if e.get("class") == "hit")
            xy[int(g.get("data-pip"))] = (float(rect.get("x")), float(rect.get("y")))
    assert xy[1][0] > xy[6][0] > xy[7][0] > xy[12][0]      # 12..1 left to right
    assert xy[1][1] > xy[24][1]                           # pip 1 on the near row
    assert xy[13][0] < xy[24][0] and abs(xy[13][0] - xy[12][0]) < 1   # 13 faces 12


def test_trictrac_frame_talons_at_one_end_with_their_names() -> None:
    v = load_variant("triktrak")
    g = Geometry.from_variant(v)
    assert g.near == "start" and set(g.corners) == {13, 12}
    svg = position_svg(v, v.start)
    root = ET.fromstring(svg)
    names = [e.text for e in root.iter(f"{NS}text") if e.get("class") == "name"]
    assert names.count("talon") == 2
    assert "l'écolier" in names and "bourgeois" in names
    xy = {}
    for grp in root.iter(f"{NS}g"):
        if "point" in grp.get("class", "").split():
            rect = next(e for e in grp if e.get("class") == "hit")
            xy[int(grp.get("data-pip"))] = (float(rect.get("x")), float(rect.get("y")))
    assert xy[24][1] > xy[1][1] and abs(xy[24][0] - xy[1][0]) < 1   # talons face each other
    assert xy[13][0] > xy[24][0]                                     # coin at the far end
    tray = next(e for e in root.iter(f"{NS}rect") if e.get("class") == "tray")
    assert float(tray.get("x")) < xy[24][0]                          # leaving by the talons


def test_twelve_point_start_and_home() -> None:
    v = load_variant("tric-trac-12")
    names = Geometry.from_variant(v).names
    assert names[24] == "Start" and names[1] == "Home"


def test_labels_highlights_and_dice() -> None:
    v = load_variant("backgammon")
    labels = {p: chr(ord("A") + p - 1) for p in range(1, 25)}
    svg = position_svg(v, v.start, dice=(6, 6), labels=labels, movable=[24, 13],
                       targets=[18, 7], picked=24, used_dice=[6])
    root = ET.fromstring(svg)
    shown = {int(e.get("data-pip")): e.text for e in root.iter(f"{NS}text")
             if e.get("class") == "label"}
    assert shown == labels
    cls = {int(g.get("data-pip")): g.get("class").split() for g in root.iter(f"{NS}g")
           if g.get("data-pip") and "point" in g.get("class", "")}
    assert {p for p, c in cls.items() if "movable" in c} == {24, 13}
    assert {p for p, c in cls.items() if "target" in c} == {18, 7}
    assert "picked" in cls[24]
    dice = [g for g in root.iter(f"{NS}g") if "die" in g.get("class", "").split()]
    assert [d.get("data-die") for d in dice] == ["6", "6"]
    assert sum("used" in d.get("class") for d in dice) == 1


def test_pins_and_checkers_waiting_off_the_board() -> None:
    b = [0] * 31
    b[10] = 2            # two of the mover's on 10, pinning one of the opponent's
    b[28] = 1 << 10
    b[15] = -1
    b[29], b[30] = 4, 7  # waiting to enter
    b[0] = 9
    b[27] = 7
    svg = board_svg(tuple(b), Geometry())
    assert checkers(svg) == Counter({(10, "mover"): 2, (15, "opponent"): 1, (0, "mover"): 9,
                                     (27, "opponent"): 7})
    root = ET.fromstring(svg)
    pinned = [e for e in root.iter(f"{NS}circle") if "pinned" in e.get("class", "")]
    assert len(pinned) == 1 and pinned[0].get("data-side") == "opponent"
    waiting = {g.get("data-side"): g.find(f"{NS}text").text for g in root.iter(f"{NS}g")
               if g.get("class") == "unentered"}
    assert waiting == {"mover": "4", "opponent": "7"}


def test_a_tall_stack_is_squeezed_and_counted() -> None:
    v = load_variant("triktrak")
    root = ET.fromstring(position_svg(v, v.start))
    counts = [e.text for e in root.iter(f"{NS}text") if e.get("class") == "count"]
    assert counts == ["15", "15"]
    ys = sorted(float(e.get("cy")) for e in root.iter(f"{NS}circle")
                if e.get("data-pip") == "24")
    assert ys[-1] - ys[0] <= 4 * 2 * 19 + 0.5       # fifteen within five checkers' height


def test_mirror_swaps_left_and_right() -> None:
    v = load_variant("backgammon")
    plain = ET.fromstring(position_svg(v, v.start))
    mirrored = ET.fromstring(position_svg(v, v.start, mirror=True))

    def x(root: ET.Element, pip: int) -> float:
        return next(float(e.get("x")) for e in root.iter(f"{NS}rect")
                    if e.get("class") == "hit" and e.get("data-pip") == str(pip))
    assert x(plain, 1) > x(plain, 12) and x(mirrored, 1) < x(mirrored, 12)


def test_tablier_draw_writes_the_svg(tmp_path, capsys, monkeypatch) -> None:
    import io
    import json

    from interpreter.cli import main

    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"variant": "triktrak", "points": [-15] + [0] * 22 + [15],
                               "dice": [6, 5]}), encoding="utf-8")
    out = tmp_path / "board.svg"
    assert main(["draw", str(pos), "--svg", str(out)]) == 0
    drawn = checkers(out.read_text(encoding="utf-8"))
    assert drawn == Counter({(24, "mover"): 15, (1, "opponent"): 15})
    assert main(["draw", str(pos)]) == 0
    assert "X15" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO('{"variant": "/etc/passwd", "points": []}'))
    assert main(["draw", "--svg", "-"]) == 1
    assert "ends in `.toml`" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"points": [1]}', encoding="utf-8")
    assert main(["draw", str(bad), "--svg", str(out)]) == 1


def test_tablier_draw_png_with_chromium(tmp_path) -> None:
    from interpreter.cli import main
    from interpreter.draw import chromium_path

    pytest.importorskip("playwright.sync_api")
    if chromium_path() is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    pos = tmp_path / "pos.json"
    pos.write_text('{"points": [-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2]}',
                   encoding="utf-8")
    png = tmp_path / "board.png"
    assert main(["draw", str(pos), "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def hit_targets(svg: str) -> Counter:
    """(class of the group, data-pip) of every clickable area of a picture."""
    root = ET.fromstring(svg)
    out: Counter = Counter()
    for g in root.iter(f"{NS}g"):
        for e in g:
            if e.tag == f"{NS}rect" and e.get("class") == "hit":
                out[(g.get("class"), e.get("data-pip"))] += 1
    return out


@pytest.mark.parametrize("variant_id", ["backgammon", "triktrak", "trictrac-combine",
                                        "tric-trac-12", "acey-deucey", "plakoto"])
def test_the_narrow_form_has_the_wide_forms_points_checkers_and_hit_targets(
        variant_id: str) -> None:
    """The phone's narrow form: the same points, clickable areas (and their highlights) and
    checkers as the wide picture, the frame turned a quarter turn inside at most 400 units
    across, every text stood upright again, the points as long as the width allows."""
    v = load_variant(variant_id)
    marking = (Marking(points=4, holes=3), Marking(points=8, holes=14))
    for b in boards_of(variant_id, 4):
        kw = dict(dice=(4, 2), movable=[13, 8], targets=[0, 9], picked=13, marking=marking)
        wide, narrow = position_svg(v, b, **kw), position_svg(v, b, narrow=True, **kw)
        assert hit_targets(narrow) == hit_targets(wide)
        assert sum(1 for k in hit_targets(narrow) if k[0].startswith("point")) == 24
        assert checkers(narrow) == checkers(wide) == expected(b)
        root = ET.fromstring(narrow)
        across, down = map(float, root.get("viewBox").split()[2:])
        assert across <= 400 < down
        turn = root.find(f"{NS}g")
        assert turn.get("class") == "turn" and "rotate(90)" in turn.get("transform")
        texts = list(turn.iter(f"{NS}text"))
        assert texts and all(t.get("transform", "").startswith("rotate(-90 ") for t in texts)
        # a point is a finger wide on a phone (377 px across): 40 px, its checkers as wide
        scale = 377 / across
        for hit in root.iter(f"{NS}rect"):
            if hit.get("class") == "hit":
                assert min(float(hit.get("width")), float(hit.get("height"))) * scale >= 40
        assert all((float(c.get("r")) + 1) * 2 * scale >= 40 for c in root.iter(f"{NS}circle")
                   if c.get("class") == "checker")
    # the wide picture is the desktop's, as before
    assert 'class="tablier-board"' in position_svg(v, v.start)
