"""The multi-player pools (rules/match-scoring.md §5) and their `tablier sheet` records: E32 and
E33 (the filling pool, both readings), E34 (the draining pool), the rotation, the options of §8
(M-A14, M-A16), the errors and property tests over random match sequences.
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from budget import scaled

from interpreter.cli import main
from interpreter.errors import RecordError
from interpreter.io.sheet import render_sheet, sheet_data
from interpreter.scoring.combine import CombineLadder
from interpreter.scoring.holes import HolesLadder
from interpreter.scoring.pools import Draining, Filling, PoolRules

SHEETS = Path(__file__).parent / "data" / "sheets"
FIVE = ["Charlie", "Erin", "Daniel", "Alice", "Bob"]
FOUR = ["Bob", "Charlie", "Alice", "Daniel"]


def ladder_for(variant: str, options: dict) -> BaseModel:
    if variant == "trictrac-combine":
        return CombineLadder(**options)
    if variant == "triktrak":
        return HolesLadder(**options)
    raise RecordError(f"unknown variant {variant!r}")


def data(name: str) -> dict:
    return sheet_data(SHEETS / name, ladder_for)


def write(tmp_path: Path, kind: str, players: list[str], ante: int, events: list[str],
          options: str = "", variant: str = "trictrac-combine") -> Path:
    path = tmp_path / "pool.toml"
    text = (f'variant = "{variant}"\npool = "{kind}"\nplayers = {json.dumps(players)}\n'
            f"ante = {ante}\nevents = {json.dumps(events)}\n")
    if options:
        text += "[options]\n" + options + "\n"
    path.write_text(text, encoding="utf-8")
    return path


# -- §5.1 the filling pool ------------------------------------------------------------------------

def test_e32_filling_pool():
    assert data("pool-e32-filling.toml") == {
        "pot": 2200, "queue": ["Alice", "Bob", "Erin", "Charlie"], "seat": "Daniel",
        "finished": True, "winner": "Daniel", "streak": 4,
        "net": {"Charlie": -600, "Erin": -600, "Daniel": 2000, "Alice": -400, "Bob": -400}}


def test_e32_pot_after_each_match():
    f = Filling(tuple(FIVE), 200)
    pots, queues = [], []
    for w, lo in ((0, 1), (2, 0)):
        f.match(w, lo)
        pots.append(f.pot)
        queues.append([FIVE[p] for p in f.queue])
    assert pots == [1200, 1400]
    assert queues == [["Daniel", "Alice", "Bob", "Erin"], ["Alice", "Bob", "Erin", "Charlie"]]
    assert f.seat == 2 and f.streak == 0           # the seat-taking win does not count


def test_e33_with_the_option_matches_s000():
    out = data("pool-e33-on-reentry.toml")
    assert (out["pot"], out["winner"], out["finished"]) == (1400, "Alice", True)
    assert out["net"] == {"Charlie": -400, "Erin": -400, "Daniel": -200, "Alice": 1200,
                          "Bob": -200}


def test_e33_under_the_default_rules():
    out = data("pool-e33-default.toml")
    assert (out["pot"], out["winner"]) == (2400, "Alice")
    assert out["net"] == {"Charlie": -600, "Erin": -600, "Daniel": -600, "Alice": 2200,
                          "Bob": -400}


def test_e33_branch_is_not_over_under_the_default_rules(tmp_path):
    events = ["Charlie beats Erin", "Daniel beats Charlie", "Alice beats Daniel",
              "Alice beats Bob", "Alice beats Erin", "Alice beats Charlie"]
    out = sheet_data(write(tmp_path, "filling", FIVE, 200, events), ladder_for)
    assert not out["finished"] and out["seat"] == "Alice" and out["streak"] == 3
    assert out["queue"][0] == "Daniel"


def test_filling_wrong_players_is_an_error(tmp_path):
    path = write(tmp_path, "filling", FIVE, 200, ["Charlie beats Erin", "Alice beats Charlie"])
    with pytest.raises(RecordError) as err:
        sheet_data(path, ladder_for)
    assert str(err.value).startswith("event 1 'Alice beats Charlie': the next match is "
                                     "Charlie (seat) against Daniel")


def test_filling_events_after_the_end_are_refused(tmp_path):
    events = json.loads(json.dumps(["Charlie beats Erin", "Charlie beats Daniel",
                                    "Charlie beats Alice", "Charlie beats Bob",
                                    "Charlie beats Erin"]))
    with pytest.raises(RecordError, match="event 4 .*pool is over"):
        sheet_data(write(tmp_path, "filling", FIVE, 200, events), ladder_for)


# -- §5.2 the draining pool -----------------------------------------------------------------------

def test_e34_draining_pool_thirty_percent():
    assert data("pool-e34-draining.toml") == {
        "pool": 700, "total": 1000, "finished": False, "next": ["Charlie", "Alice"],
        "matches": [{"winner": "Bob", "loser": "Charlie", "holes": {"Bob": 10, "Charlie": 4},
                     "lurch": False, "paid": 300}],
        "net": {"Bob": 50, "Charlie": -250, "Alice": -250, "Daniel": -250}}


def test_e34_with_lurch_doubling_eighty_percent():
    out = data("pool-e34-lurch.toml")
    assert out["matches"][0]["paid"] == 800 and out["pool"] == 200


@pytest.mark.parametrize("options, paid", [
    ('draining_lurch = "twelve_holes"', 300),      # M-A16: 10 holes are no true lurch
    ("draining_doubling = false", 300)])
def test_draining_lurch_options(tmp_path, options, paid):
    path = write(tmp_path, "draining", FOUR, 250, ["Bob 10 Charlie 4 lurch"], options)
    assert sheet_data(path, ladder_for)["matches"][0]["paid"] == paid


def test_draining_rotation_and_cap():
    out = data("pool-draining-rotation.toml")
    assert [(m["winner"], m["loser"]) for m in out["matches"]] == [
        ("Bob", "Charlie"), ("Alice", "Charlie"), ("Daniel", "Charlie"), ("Charlie", "Bob"),
        ("Bob", "Charlie")]
    assert [m["paid"] for m in out["matches"]] == [300, 100, 300, 100, 200]   # capped at 200
    assert out["finished"] and out["pool"] == 0 and out["next"] is None
    assert sum(out["net"].values()) == 0


def test_draining_skips_the_seated_loser():
    d = Draining(("A", "B", "C"), 100)
    d.match(0, 1, (6, 0), False)          # B stays, C comes in
    assert d.pair == (1, 2)
    d.match(2, 1, (6, 5), False)          # B stays, next is A
    assert d.pair == (1, 0)
    d.match(0, 1, (6, 5), False)          # B stays; next in order is B itself: skip to C
    assert d.pair == (1, 2)


def test_draining_fractional_money(tmp_path):
    path = write(tmp_path, "draining", ["A", "B", "C"], 5, ["A 7 B 0"])
    assert sheet_data(path, ladder_for)["matches"][0]["paid"] == 5.25


@pytest.mark.parametrize("events, index, reason", [
    (["Alice 10 Bob 4"], 0, "the next match is Bob against Charlie"),
    (["Bob 5 Charlie 4"], 0, "6 holes or more"),
    (["Bob 6 Charlie 8"], 0, "more holes than the loser"),
    (["Bob beats Charlie"], 0, "cannot read the event"),
])
def test_draining_errors(tmp_path, events, index, reason):
    with pytest.raises(RecordError) as err:
        sheet_data(write(tmp_path, "draining", FOUR, 250, events), ladder_for)
    assert str(err.value).startswith(f"event {index} {events[index]!r}: ")
    assert reason in str(err.value)


@pytest.mark.parametrize("edit, reason", [
    (lambda t: t.replace('pool = "draining"', 'pool = "leaking"'), "`pool` must be"),
    (lambda t: t.replace("ante = 250", "ante = 0"), "`ante`"),
    (lambda t: t.replace('"Daniel"]', '"Bob"]'), "different names"),
    (lambda t: t + "marks = 12\n", "unknown key 'marks'"),
    (lambda t: t + '[options]\ndraining_lurch = "always"\n', "draining_lurch"),
])
def test_bad_pool_records(tmp_path, edit, reason):
    path = write(tmp_path, "draining", FOUR, 250, [])
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(RecordError, match=reason):
        sheet_data(path, ladder_for)


def test_pool_with_the_dutch_triktrak(tmp_path):
    path = write(tmp_path, "filling", ["A", "B", "C"], 10, ["A beats B"], variant="triktrak")
    assert sheet_data(path, ladder_for)["pot"] == 40


def test_cli_pool_sheets(capsys):
    assert main(["sheet", str(SHEETS / "pool-e32-filling.toml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pot"] == 2200
    assert main(["sheet", str(SHEETS / "pool-e34-draining.toml")]) == 0
    text = capsys.readouterr().out
    assert "Draining pool" in text and "700 left in the pool; next: Charlie v Alice" in text
    text = render_sheet(SHEETS / "pool-e32-filling.toml", ladder_for, False)
    assert "Daniel takes the pot of 2200" in text


# -- properties -----------------------------------------------------------------------------------

@settings(max_examples=scaled(150), deadline=None)
@given(st.integers(3, 6), st.lists(st.booleans(), max_size=40),
       st.sampled_from(["on_loss", "on_reentry"]),
       st.sampled_from(["seat_defences", "distinct_incl_challenge"]))
def test_filling_money_is_conserved(n, seat_wins, reante, streak):
    f = Filling(tuple(f"P{i}" for i in range(n)), 7,
                PoolRules(filling_pool_reante=reante, filling_pool_streak=streak))
    for seat_wins_it in seat_wins:
        if f.finished:
            break
        seat, challenger = f.seat, f.queue[0]
        f.match(*((seat, challenger) if seat_wins_it else (challenger, seat)))
        paid_in = -sum(f.net) if not f.finished else 0
        assert f.finished or paid_in == f.pot
        assert sorted(f.queue + [f.seat]) == list(range(n))
    if f.finished:
        assert sum(f.net) == 0


@settings(max_examples=scaled(150), deadline=None)
@given(st.integers(3, 6), st.lists(st.tuples(st.booleans(), st.integers(6, 20),
                                             st.integers(0, 19), st.booleans()), max_size=40))
def test_draining_money_is_conserved(n, matches):
    d = Draining(tuple(f"P{i}" for i in range(n)), 50)
    for first_wins, h_w, h_l, lurch in matches:
        if d.finished:
            break
        h_l = min(h_l, h_w - 1)
        a, b = d.pair
        before = d.pool
        d.match(*((a, b) if first_wins else (b, a)), (h_w, h_l), lurch)
        assert 0 <= d.pool <= before
        assert sum(d.net) + d.pool == 0
        assert d.pair[0] != d.pair[1]
    assert isinstance(d.pool, Fraction)
