"""XII scripta (variants/xii-scripta.toml) and its board of 36 points: the worked examples XS1-XS3
by name through `tablier moves`, each with the complete set of results the rules give; the board
of three rows as the kernel holds it (turned to the other player and back, read and written as
JSON); the diagnostics of `[board] points = 36` and `route = "scripta"`; plays written and read
in pips 1..36 (the bar and the men waiting to enter by their words); the board drawn in three
rows of twelve, at the terminal and as SVG; the search player's race and the metrics reading
the middle row. (Engine against the second implementation on random play and whole games:
test_alfonsine_reference.py, test_alfonsine_examples.py, test_alfonsine_games.py.)"""
from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from human_harness import ROOT

from interpreter.engine.events import Thrown
from interpreter.engine.game import Game
from interpreter.engine.metrics import scan
from interpreter.kernel.board import BAR, POOL, Geometry
from interpreter.kernel.notation import parse_wide, play_text, read_play
from interpreter.notation import NotationError, notation_for
from interpreter.players.bots import RandomBot
from interpreter.players.heuristic import HeuristicJudge
from interpreter.players.human import EndOfInput, HumanPlayer, Session
from interpreter.svg import position_svg
from interpreter.terminal import draw_board
from interpreter.variant.build import load_variant, validate_paths

NS = "{http://www.w3.org/2000/svg}"


def position(w: dict[int, int], b: dict[int, int], dice: tuple[int, ...] = (),
             **extra: Any) -> dict[str, Any]:
    """A position JSON of the mover's men `w` and the opponent's `b`, both in the mover's pips."""
    points = [0] * 36
    for p, n in w.items():
        points[p - 1] += n
    for p, n in b.items():
        points[p - 1] -= n
    obj: dict[str, Any] = {"points": points, **extra}
    if dice:
        obj["dice"] = list(dice)
    return obj


def moves(objs: list[dict[str, Any]], *args: str) -> list[dict[str, Any]]:
    """`tablier moves xii-scripta` on the positions, one output line each."""
    done = subprocess.run([sys.executable, "-m", "interpreter", "moves", "xii-scripta", *args],
                          input="".join(json.dumps(o) + "\n" for o in objs), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def said(result: dict[str, Any]) -> tuple:
    """What a result line says: (the mover's men, the opponent's, both sides' men to enter,
    on the bar, off), the men as sorted (pip, count) pairs."""
    pts = result["points"]
    w = tuple((p, n) for p, n in enumerate(pts, 1) if n > 0)
    b = tuple((p, -n) for p, n in enumerate(pts, 1) if n < 0)
    return (w, b, tuple(result["state"]["unentered"]), tuple(result["bar"]),
            tuple(result["off"]))


# -- the worked examples -----------------------------------------------------------------------

XS1 = position({}, {}, (6, 5, 1))
XS2 = position({33: 1}, {31: 1, 29: 2, 20: 5}, (2, 2, 4))
XS3 = position({7: 1, 3: 1}, {15: 14}, (6, 4, 3), off=[13, 1])


@pytest.fixture(scope="module")
def worked() -> list[dict[str, Any]]:
    return moves([XS1, XS2, XS3])


def test_XS1_the_first_throw_enters_on_the_middle_row(worked) -> None:
    """All men off the board, 6-5-1: a number d enters a man on pip 37 - d, and a man entered
    may go on with another number (W {36, 26}: the 1 enters one man on 36, the 6 and the 5
    another on 31 and on to 26; W {25}: one man with all three)."""
    got = {said(r) for r in worked[0]["results"]}
    empty: tuple = ()
    assert got == {
        (((31, 1), (32, 1), (36, 1)), empty, (12, 15), (0, 0), (0, 0)),
        (((31, 2),), empty, (13, 15), (0, 0), (0, 0)),
        (((30, 1), (32, 1)), empty, (13, 15), (0, 0), (0, 0)),
        (((26, 1), (36, 1)), empty, (13, 15), (0, 0), (0, 0)),
        (((25, 1),), empty, (14, 15), (0, 0), (0, 0))}
    assert worked[0]["count"] == 5
    assert all(r["next"] == "end" and "game_over" not in r for r in worked[0]["results"])


def test_XS2_a_hit_on_the_shared_middle_row_sends_the_man_off_the_board(worked) -> None:
    """W {33} with fourteen to enter, B {31, 29: 2, 20: 5} (31 and 29 on the shared row, 20 his
    own pip 5), 2-2-4: four plays hit on 31 (B's man waits on the bar), two do not; 29 is
    closed throughout."""
    got = {said(r) for r in worked[1]["results"]}
    theirs = ((20, 5), (29, 2), (31, 1))
    hit = ((20, 5), (29, 2))
    assert got == {
        (((25, 1),), hit, (14, 7), (0, 1), (0, 0)),                       # 33/31*/27/25
        (((27, 1), (35, 1)), hit, (13, 7), (0, 1), (0, 0)),
        (((31, 1), (33, 1), (35, 1)), hit, (12, 7), (0, 1), (0, 0)),
        (((31, 2),), hit, (13, 7), (0, 1), (0, 0)),
        (((33, 2), (35, 2)), theirs, (11, 7), (0, 0), (0, 0)),
        (((33, 3),), theirs, (12, 7), (0, 0), (0, 0))}
    assert all(r["points"][28] == -2 for r in worked[1]["results"])


def test_XS3_bearing_off_is_exact(worked) -> None:
    """W {7, 3}, thirteen off; B {15: 14} (his pip 10), one off; 6-4-3: only two numbers can
    be played, each man borne off by the exact number."""
    got = {said(r) for r in worked[2]["results"]}
    b = ((15, 14),)
    assert got == {(((1, 1),), b, (0, 0), (0, 0), (14, 1)),            # 7/1, 3/off
                   (((3, 1),), b, (0, 0), (0, 0), (14, 1))}            # 7/4/off, 7/3/off
    assert not any("game_over" in r for r in worked[2]["results"])


def test_XS3_with_higher_numbers_bears_both_men_off_and_wins() -> None:
    [line] = moves([XS3], "--set", 'xs_bear_off="higher"')
    [result] = line["results"]
    assert result["off"] == [15, 1] and result["game_over"] == {"winner": "mover", "points": 1}


# -- the board of 36 points ----------------------------------------------------------------------

def boards(n: int = 40) -> tuple[Any, list[tuple]]:
    """XII scripta and boards of a random game of it (seen by the mover), the start first."""
    v = load_variant("xii-scripta")
    game = Game(v, "scripta/0", max_turns=400)
    game.run((RandomBot("a"), RandomBot("b")))
    seen = [e.board for e in game.log if isinstance(e, Thrown)]
    return v, [v.start] + seen[::max(1, len(seen) // n)]


def test_the_board_of_36_points_turns_to_the_other_player_and_reads_back() -> None:
    v, bs = boards()
    g = v.geometry
    assert g.wide and g.size == 43 and g.mid == 31 and g.slot(25) == 31 and g.slot(36) == 42
    assert any(any(b[31:43]) for b in bs)
    for b in bs:
        flipped = v.flip(b)
        assert v.flip(flipped) == b
        mine, theirs = g.to_json(b)["points"], g.to_json(flipped)["points"]
        assert len(mine) == 36
        # the middle row is the same pips for both, the colours swapped; the outer rows crossed
        assert theirs[24:] == [-x for x in mine[24:]]
        assert theirs[:24] == [-x for x in reversed(mine[:24])]
        assert g.from_json(g.to_json(b), 15) == b
        assert g.counts(b) == (15, 15)


def test_the_other_boards_keep_their_slots() -> None:
    assert Geometry().size == 28 and Geometry(pool=True).size == 31
    assert not Geometry().wide and Geometry(points=18).slots == tuple(range(19))
    assert load_variant("backgammon").geometry.size == 28


def test_a_position_of_24_points_is_refused_in_one_line() -> None:
    lines = [{"points": [0] * 24, "dice": [1, 2, 3]},
             {"points": [0] * 30 + ["x"] + [0] * 5, "dice": [1, 2, 3]},
             {"points": [0] * 35 + [16], "dice": [1, 2, 3]}]
    done = subprocess.run([sys.executable, "-m", "interpreter", "moves", "xii-scripta"],
                          input="".join(json.dumps(o) + "\n" for o in lines),
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    errors = [json.loads(line)["error"] for line in done.stdout.splitlines()]
    assert "'points' must be a list of 36 integers (this board has 36 points)" in errors[0]
    assert errors[1].startswith("'points' must be a list of 36 integers from -60 to 60")
    assert "16 for the mover" in errors[2]
    assert "Traceback" not in done.stderr


# -- the diagnostics -------------------------------------------------------------------------

BASE = '''
[variant]
id = "probe"
name = "Probe"

[board]
checkers = 3
start = {}
unentered = 3
{board}

[movement]
{movement}

[rules.borne-off]
name = "All men borne off"
kind = "end"
when = "mine(off) == checkers"
{rules}
[ladder]
kind = "game"
'''


def problems(tmp_path: Path, board: str = "points = 36", movement: str = "",
             rules: str = "") -> list[tuple[str, str, str]]:
    text = BASE.replace("{board}", board).replace("{movement}", movement) \
        .replace("{rules}", rules)
    path = tmp_path / "probe.toml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    return [(d.code, lines[d.line - 1].strip(), d.message) for d in validate_paths([path])]


def test_a_board_of_36_points_and_the_route_of_xii_scripta_go_together(tmp_path: Path) -> None:
    good = 'route = "scripta"\nentry_pip = 37\nhome_top = 12'
    assert problems(tmp_path, movement=good) == []
    [(code, line, message)] = problems(tmp_path, movement='entry_pip = 37')
    assert code == "unplayable" and line == "points = 36"
    assert 'it takes `movement.route = "scripta"`, not "opposite"' in message
    [(code, line, message)] = problems(tmp_path, board="", movement='route = "scripta"')
    assert code == "unplayable" and line == 'route = "scripta"' and "this board has 24" in message


def test_switches_that_read_the_24_points_are_refused_on_36(tmp_path: Path) -> None:
    base = 'route = "scripta"\nentry_pip = 37\nhome_top = 12\n'
    for switch in ('hit = "pin"', 'own_corner = 13', 'hit_across = true', 'no_landing = [20]'):
        found = problems(tmp_path, movement=base + switch)
        assert any(code == "unplayable" and line == switch and "36 points" in message
                   for code, line, message in found), (switch, found)
    [(code, line, message)] = problems(tmp_path, movement='route = "scripta"\nentry_pip = 25')
    assert code == "unplayable" and line == "entry_pip = 25" and "37 − d" in message


def test_an_entry_past_the_route_is_refused(tmp_path: Path) -> None:
    [(code, line, message)] = problems(tmp_path, board="", movement="entry_pip = 37")
    assert code == "bad-value" and line == "entry_pip = 37"
    assert "past the first point of a route of 24 points" in message


def test_can_move_is_refused_on_36_points(tmp_path: Path) -> None:
    rule = ('[rules.blocked]\nname = "Blocked"\nkind = "end"\nwinner = "none"\n'
            'when = "not can_move()"\n')
    found = problems(tmp_path, movement='route = "scripta"\nentry_pip = 37', rules=rule)
    assert [c for c, _l, _m in found] == ["dsl-context"]
    assert "not the 36 of this one" in found[0][2]


# -- plays in pips 1..36 -----------------------------------------------------------------------

def test_every_play_is_written_in_pips_and_read_back() -> None:
    v, bs = boards(25)
    g = v.geometry
    written = 0
    for b in bs:
        dice = (5, 3, 3)
        plays, _ = v.generator.plays(b, *dice[:2], d3=dice[2])
        for p in plays:
            for path in p.paths[:2]:
                if not path:
                    continue
                text = play_text(b, path, g)
                for step in text.split():
                    a, _s, to = step.rstrip("*").partition("/")
                    assert a in ("bar", "in") or 1 <= int(a) <= 36
                    assert 0 <= int(to) <= 36
                assert read_play(text, plays, b, dice, 36, g).board == p.board
                written += 1
    assert written > 50


def test_the_notation_names_25_as_a_point_and_the_bar_by_its_word() -> None:
    v = load_variant("xii-scripta")
    n = notation_for(v)
    g = v.geometry
    assert [n.label(p) for p in (1, 25, 29, 36, 37, 38, 0)] == \
        ["1", "25", "29", "36", "bar", "in", "off"]
    assert n.parse("bar/34 in/35 33/31*/27 29/25 7/off") == [
        (BAR, g.slot(34)), (POOL, g.slot(35)), (g.slot(33), g.slot(31)),
        (g.slot(31), g.slot(27)), (g.slot(29), g.slot(25)), (7, 0)]
    assert parse_wide("25/24 b/36") == [(25, 24), (37, 36)]
    with pytest.raises(NotationError, match="there is no point 37"):
        n.parse("37/33")
    # a play as a record holds it, as players write it: one man's moves joined
    assert n.log_text("in/35 35/31* 31/27 bar/34") == "in/31*/27 bar/34"


def test_a_person_types_a_mans_move_over_three_numbers() -> None:
    """XS2 at the terminal: `33/31*/25` is 33/31*/27/25 (the three numbers, hitting on 31 and
    going on by 27, since 29 is closed); `33/29` is refused, 29 being closed."""
    v = load_variant("xii-scripta")
    b = v.geometry.from_json(XS2, 15)
    g = Game(v, "x/0")
    next(g.play())
    g.board = g.choice_base = b
    g.dice = (2, 2, 4)
    g.mover = 0
    plays, _ = v.generator.plays(b, 2, 2, d3=4)
    d = g.ask("play", 0, [p.board for p in plays])
    s = Session(v, notation_for(v), inp=io.StringIO("33/31*/25\n"), out=io.StringIO(), echo=True)
    i = HumanPlayer(0, s).answer(d)
    assert isinstance(i, int)
    assert v.geometry.to_json(plays[i].board)["bar"] == [0, 1]
    assert v.geometry.to_json(plays[i].board)["points"][24] == 1
    s = Session(v, notation_for(v), inp=io.StringIO("33/29\n"), out=(out := io.StringIO()),
                echo=True)
    with pytest.raises(EndOfInput):
        HumanPlayer(0, s).answer(d)
    assert "33/29: 29 is closed" in out.getvalue()


# -- the board drawn ---------------------------------------------------------------------------

def drawn(svg: str) -> tuple[dict[int, tuple[float, float]], dict[int, str], Counter]:
    """The points (slot → x, y of the clickable area), their labels, the checkers drawn."""
    root = ET.fromstring(svg)
    points = {}
    for e in root.iter(f"{NS}g"):
        if "point" in e.get("class", "").split():
            rect = next(x for x in e if x.get("class") == "hit")
            points[int(e.get("data-pip"))] = (float(rect.get("x")), float(rect.get("y")))
    labels = {int(e.get("data-pip")): e.text for e in root.iter(f"{NS}text")
              if e.get("class") == "label"}
    men: Counter = Counter()
    for e in root.iter():
        cls = e.get("class", "").split()
        if "checker" in cls and "waiting" not in cls:
            men[(int(e.get("data-pip")), e.get("data-side"))] += 1
    return points, labels, men


def test_the_board_is_drawn_in_three_rows_of_twelve_labelled() -> None:
    v, bs = boards(12)
    g = v.geometry
    for b in bs:
        svg = position_svg(v, b, dice=(2, 2, 4))
        points, labels, men = drawn(svg)
        assert set(points) == set(g.pip_slots) and len(points) == 36
        assert labels == {g.slot(p): str(p) for p in range(1, 37)}
        want: Counter = Counter()
        for p in range(1, 37):
            x = b[g.slot(p)]
            if x:
                want[(g.slot(p), "mover" if x > 0 else "opponent")] = abs(x)
        for slot, key in ((BAR, (25, "mover")), (26, (26, "opponent")), (0, (0, "mover")),
                          (27, (27, "opponent"))):
            if b[slot]:
                want[key] = b[slot]
        assert men == want
        # the far row above, the middle row between, the near row below; each row left to
        # right along the route: 13..24, 36..25, 12..1
        y = {p: points[g.slot(p)][1] for p in range(1, 37)}
        assert y[13] < y[36] < y[12]
        assert len({y[p] for p in range(25, 37)}) == 1
        x = [points[g.slot(p)][0] for p in range(36, 24, -1)]
        assert x == sorted(x)
        assert "route: enter on the middle row, 36 to 25, then the far row, 24 to 13" in svg
        narrow = position_svg(v, b, narrow=True)
        assert drawn(narrow)[2] == men and set(drawn(narrow)[0]) == set(points)


def test_the_terminal_draws_three_rows_with_the_way_the_men_run() -> None:
    v = load_variant("xii-scripta")
    b = v.geometry.from_json(XS2, 15)
    text = draw_board(v, b, 0, notation_for(v), width=200).plain
    lines = text.splitlines()
    far = next(i for i, line in enumerate(lines) if line.split()[:2] == ["13", "14"])
    middle = next(i for i, line in enumerate(lines) if line.split()[:2] == ["36", "35"])
    near = next(i for i, line in enumerate(lines) if line.split()[:2] == ["12", "11"])
    assert far < middle < near
    assert lines[far].rstrip().endswith("←") and lines[middle].rstrip().endswith("→")
    def cells(i: int) -> list[str]:
        return [c for c in lines[i].split() if c != "|"]
    assert cells(far + 1)[7] == "O5"                    # B's 20, his own pip 5
    assert cells(middle + 1)[3:8] == ["X1", ".", "O1", ".", "O2"]
    assert "waiting X14 O7" in text and "pips X551 O373" in text


# -- the players and the metrics ---------------------------------------------------------------

def test_the_search_players_race_counts_the_middle_row() -> None:
    v = load_variant("xii-scripta")
    judge = HeuristicJudge(v)
    g = v.geometry

    def race(w: dict[int, int]) -> float:
        b = g.from_json(position(w, {}), 15)
        return judge.side_score(b)[0]

    assert race({30: 1}) < race({20: 1}) < race({5: 1})
    assert race({}) == -15 * 37.0


def test_the_metrics_count_the_pips_of_the_middle_row() -> None:
    v = load_variant("xii-scripta")
    g = v.geometry
    tp = tuple(g.their_pip(p) for p in range(37))
    assert scan(v.start, tp, g.slots)[:2] == (15 * 37, 15 * 37)
    b = g.from_json(position({30: 1}, {20: 1}), 15)
    me, them, mine, theirs = scan(b, tp, g.slots)
    assert (me, them) == (14 * 37 + 30, 14 * 37 + 5) and mine == 1 << 30 and theirs == 1 << 20


def test_a_person_plays_xii_scripta_at_the_terminal() -> None:
    """The plays listed and typed at the terminal, forty prompts of a game, are in pips 1..36,
    the bar and the men waiting by their words."""
    import re

    from human_harness import Driver

    t = Driver(["xii-scripta", "--white", "human", "--black", "greedy", "--seed", "4"],
               stop_after=40, timeout=300).run()
    assert "entering on the middle row and moving from 36" in t.out
    assert re.search(r"\bin/3[1-6]\b", t.out), t.out[-2000:]
    assert not re.search(r"\b(3[7-9]|4[0-9])/", t.out), "a slot was written as a pip"
    assert "Traceback" not in t.out


def test_a_start_on_the_middle_row(tmp_path: Path) -> None:
    """Pips up to 36 may hold men at the start of a board of 36 points; both sides on one
    point of the shared middle row cannot be set up."""
    movement = 'route = "scripta"\nentry_pip = 37'
    text = BASE.replace("start = {}\nunentered = 3", "start = { 30 = 1 }\nunentered = 2") \
        .replace("{board}", "points = 36\n\n[board.black]\nstart = { 20 = 1 }") \
        .replace("{movement}", movement).replace("{rules}", "")
    path = tmp_path / "start.toml"
    path.write_text(text, encoding="utf-8")
    assert validate_paths([path]) == []
    v = load_variant(str(path))
    points = v.geometry.to_json(v.start)["points"]
    # white's man on his 30 (the middle row), black's on his 20: white's pip 5
    assert [(p, x) for p, x in enumerate(points, 1) if x] == [(5, -1), (30, 1)]
    text = text.replace("start = { 20 = 1 }", "start = { 30 = 1 }")
    path.write_text(text, encoding="utf-8")
    [diag] = validate_paths([path])
    assert diag.code == "unplayable" and "both sides would start on pip 30" in diag.message


def test_the_board_of_36_points_is_played_on_the_python_path_and_says_why() -> None:
    from interpreter import native

    v = load_variant("xii-scripta")
    assert v.move_rules.walk_only
    assert native.python_only(v) == "a board of 36 points in three rows"


def test_no_network_reads_the_36_points() -> None:
    from interpreter.errors import TablierError
    from interpreter.players.features import Encoder

    with pytest.raises(TablierError, match="not the 36 of xii-scripta"):
        Encoder(load_variant("xii-scripta"))
