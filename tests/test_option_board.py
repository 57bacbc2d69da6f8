"""An option that sets the board (`[option_sets.NAME.CHOICE] board = {...}`): Medio emperador on
the whole board (`me_board = 24`), and the diagnostics of a board an option sets."""
from __future__ import annotations

from pathlib import Path

from interpreter.analysis import legal_results
from interpreter.variant.build import load_variant, validate_paths


def _pts(d: dict[int, int], n: int = 24) -> list[int]:
    return [d.get(p, 0) for p in range(1, n + 1)]


def _boards(variant, mine: dict[int, int], theirs: dict[int, int], dice, bar=(0, 0)):
    obj = {"points": _pts({**mine, **{p: -c for p, c in theirs.items()}}),
           "bar": list(bar), "dice": list(dice)}
    out = set()
    for line in legal_results(variant, obj)["results"]:
        pts = line["points"]
        out.add((tuple((p + 1, v) for p, v in enumerate(pts) if v), tuple(line["bar"])))
    return out


def test_medio_emperador_on_the_whole_board_starts_on_the_first_point_of_24():
    v = load_variant("medio-emperador", ["me_board=24"])
    assert v.geometry.points == 24 and v.layout == {24: 15}
    half = load_variant("medio-emperador")
    assert half.geometry.points == 12 and half.layout == {12: 15}
    # the opponent's fifteen stand on the mover's pip 1, the last point of his route
    start = v.geometry.to_json(v.start)
    assert start["points"][0] == -15 and start["points"][23] == 15


def test_a_hit_man_goes_back_to_his_start_on_the_whole_board():
    v = load_variant("medio-emperador", ["me_board=24", "me_dice=2"])
    # white 10/7* with a 3: black's man goes back to his start, white's pip 1 (his 24)
    got = _boards(v, {10: 1, 24: 14}, {7: 1, 1: 14}, (3, 5))
    assert any(dict(pts).get(1) == -15 and bar == (0, 0) and dict(pts).get(7) == 1
               for pts, bar in got), got


def test_a_hit_man_enters_on_the_first_quarter_of_24_points():
    v = load_variant("medio-emperador", ["me_board=24", "me_dice=2", 'me_hit="enter"'])
    # white on the bar enters with d on pip 25 - d, before anything else moves
    got = _boards(v, {13: 14}, {1: 15}, (6, 5), bar=(1, 0))
    assert all(bar[0] == 0 for _pts, bar in got)
    assert {p for pts, _bar in got for p, c in pts if c > 0 and p > 13} <= {19, 20, 14, 15}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = '''extends = "medio-emperador"

[variant]
id = "mine"
name = "Mine"

[options]
me_board = 12

[option_sets.me_board]
'''


def test_an_option_may_set_only_the_layout_and_the_route(tmp_path):
    path = _write(tmp_path, BASE + '12 = { board = { checkers = 12 } }\n'
                  '24 = { board = { points = 24, start = { 24 = 15 } } }\n')
    found = validate_paths([path])
    assert [(d.line, d.code) for d in found] == [(11, "unknown-key")]
    assert "an option sets `[board]`'s `start`, `points`, `black`, not `checkers`" in \
        found[0].render()


def test_a_board_an_option_sets_is_checked_as_the_board(tmp_path):
    path = _write(tmp_path, BASE + '12 = { board = { points = 13 } }\n'
                  '24 = { board = { points = 24, start = { 24 = 15 } } }\n')
    found = validate_paths([path])
    assert [(d.line, d.col, d.code) for d in found] == [(11, 27, "bad-choice")]
    assert "`option_sets.me_board.12.board.points` must be one of 12, 18, 24" in \
        found[0].render()
