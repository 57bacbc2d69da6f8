"""Trictrac combiné and `tablier sheet` (rules/match-scoring.md §4): the honours classes H1–H4,
the suspensions U1–U4, the pool P1–P4, E29–E31 of §3.1 (E31 = the three-mark example of §4.9,
also checked row by row as a state table), the neckties of §4.6 as rights, the options of §8
and the errors of bad records, plus property tests over random event sequences.

Each record in tests/data/sheets/combine-*.toml says in its header how it was built where the
case leaves the order of the holes open.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from budget import scaled

from interpreter.cli import main
from interpreter.errors import RecordError
from interpreter.io.sheet import render_sheet, sheet_data
from interpreter.scoring.combine import Combine, CombineLadder
from interpreter.scoring.ecrire import EcrireLadder
from interpreter.scoring.registry import LADDER_MODELS

SHEETS = Path(__file__).parent / "data" / "sheets"
A, B = "Alice", "Bob"


def ladder_for(variant: str, options: dict) -> BaseModel:
    if variant == "trictrac-combine":
        return CombineLadder(**options)
    if variant == "trictrac-ecrire":
        return EcrireLadder(**options)
    raise RecordError(f"unknown variant {variant!r}")


def data(name: str) -> dict:
    return sheet_data(SHEETS / name, ladder_for)


def write(tmp_path: Path, events: list[str], options: str = "", extra: str = "") -> Path:
    path = tmp_path / "record.toml"
    lines = ['variant = "trictrac-combine"', 'players = ["Alice", "Bob"]', extra,
             "events = " + json.dumps(events)]
    if options:
        lines.append("[options]\n" + options)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pair(a: int, b: int) -> dict:
    return {A: a, B: b}


def honours(game: int, winner: str, a: int, b: int, cls: str, paid_to_pool: int | None = None,
            unit: int = 2) -> dict:
    m = {"single": 1, "double": 2, "treble": 3, "quadruple": 4}[cls]
    return {"game": game, "winner": winner, "loser": B if winner == A else A,
            "holes": pair(a, b), "class": cls, "multiplier": m, "paid_to_winner": m * unit,
            "paid_to_pool": m * unit if paid_to_pool is None else paid_to_pool}


def mark(k: int, kind: str, winner: str | None, a: int, b: int, payment: int, m: int = 1,
         **lurch) -> dict:
    entry = {"mark": k, "kind": kind, "winner": winner,
             "loser": None if winner is None else (B if winner == A else A),
             "holes": pair(a, b), "multiplier": m, "payment": payment}
    if lurch:
        entry |= {"pickup": lurch["pickup"], "arrears": lurch.get("arrears", False),
                  "rate_from": lurch.get("rate_from", "own")}
    return entry


def pool(fish: int, contract: str | None, draws: list[tuple[int, str, int]] = (),
         is_open: bool = True) -> dict:
    return {"fish": fish, "contract": contract, "open": is_open,
            "draws": [{"after_game": g, "winner": w, "fish": f} for g, w, f in draws]}


NO_SUSPENSION = {"ecrire": None, "honours": None}


def test_registered_and_documented_options():
    assert LADDER_MODELS["combine"] is CombineLadder
    ladder = CombineLadder()
    assert ladder.kind == "combine"
    assert (ladder.continuation, ladder.double_threshold, ladder.pool_unit, ladder.pool_order,
            ladder.last_pool, ladder.unfinished_honours, ladder.case2_grand) == (
        True, "at_most_6", 2, "pay_then_draw", "stake_plus_payment", "void", "cap_x4")
    for name, field in CombineLadder.model_fields.items():
        assert field.description, name


# -- §4.2: the honours classes -------------------------------------------------------------------

@pytest.mark.parametrize("name, a, b, cls", [
    ("combine-h1-quadruple.toml", 12, 0, "quadruple"),               # H1
    ("combine-h2-treble.toml", 12, 5, "treble"),                     # H2
    ("combine-h3-double-six.toml", 12, 6, "double"),                 # H3, O 6
    ("combine-h3-double-first-scorer.toml", 12, 1, "double"),        # H3, first scorer, O 1
    ("combine-h4-single.toml", 12, 7, "single"),                     # H4
])
def test_h_series_honours_classes(name, a, b, cls):
    out = data(name)
    game = honours(1, A, a, b, cls)
    stake = game["paid_to_winner"]
    assert out["honours"] == [game]
    assert out["pool"] == pool(4 + stake, A)
    assert out["marks"] == [] and out["suspended"] == NO_SUSPENSION
    assert out["current"]["honours_game"] == 2 and out["current"]["honours"] == pair(0, 0)


def test_m_a10_double_threshold_below_six(tmp_path):
    events = ["Bob +3", "Alice +3", "Bob +3", "Alice +9"]          # H3's 12-6
    out = sheet_data(write(tmp_path, events, 'double_threshold = "below_6"'), ladder_for)
    assert out["honours"] == [honours(1, A, 12, 6, "single")]


def test_treble_lost_when_the_first_scorer_scores_again():
    c = Combine()
    c.hole(1, 5)
    c.hole(0, 3)
    assert c.treble_right(0)
    c.hole(1, 1)                  # Bob scores again: Alice is interrupted
    assert not c.treble_right(0)
    c.hole(0, 9)
    assert c.honours_results[0].cls == "double" and c.honours_results[0].holes == (12, 6)


# -- §4.4: suspension ---------------------------------------------------------------------------

def test_u1_case_one_suspension_wins_the_mark():
    out = data("combine-u1-suspend-won.toml")
    assert out["marks"] == [mark(1, "simple", A, 7, 4, 5)]
    assert out["lost_marks"] == pair(0, 1)
    assert out["suspended"] == {"ecrire": A, "honours": None}
    assert out["current"]["suspension_case"] == 1
    assert out["current"]["honours"] == pair(7, 4)                 # the holding goes on
    assert out["current"]["mark"] == 2 and out["current"]["ecrire"] == pair(0, 0)


def test_u2_case_one_suspension_concedes():
    out = data("combine-u2-suspend-conceded.toml")
    assert out["marks"] == [mark(1, "conceded", B, 5, 7, 4)]
    assert out["lost_marks"] == pair(1, 0)


def test_u3_case_one_suspension_on_equal_holes_is_a_refait():
    out = data("combine-u3-suspend-refait.toml")
    assert out["marks"] == [mark(1, "refait", None, 7, 7, 0)]
    assert out["lost_marks"] == pair(0, 0)
    assert out["suspended"] == NO_SUSPENSION                        # Alice picked up
    cur = out["current"]
    assert cur["mark"] == 1 and cur["ecrire"] == pair(0, 0)         # the replay
    assert cur["honours"] == pair(8, 7)                             # the extra hole: honours


def test_u3_replay_has_the_same_leader():
    c = Combine(names=(A, B))
    for ev in (("hole", 0, 1), ("hole", 1, 2), ("hole", 0, 2), ("hole", 1, 5), ("hole", 0, 4)):
        c.hole(ev[1], ev[2])
    c.suspend(0, "ecrire")
    assert c.ecrire.r == 1 and c.ecrire.leader == 0


def test_u4_case_two_freezes_the_mark_until_the_pick_up():
    out = data("combine-u4-suspend-frozen.toml")
    assert out["marks"] == [] and out["suspended"] == {"ecrire": A, "honours": None}
    cur = out["current"]
    assert cur["suspension_case"] == 2
    assert cur["ecrire"] == pair(4, 2) and cur["honours"] == pair(6, 2)
    c = Combine(names=(A, B))
    for p, n in ((1, 1), (0, 1), (1, 1), (0, 3)):
        c.hole(p, n)
    c.suspend(0, "ecrire")
    assert c.ecrire.suspended_case2 == [True, False] and c.ecrire.picked_up[0]
    c.hole(0, 2)
    c.go(0)                                # the pick-up ends the suspension
    assert c.active("ecrire") and c.ecrire.holes == [4, 2]
    c.hole(0, 2)
    c.hole(1, 1)
    assert c.ecrire.holes == [6, 3] and c.h == [8, 3]


def test_case_two_caps_the_petty_lurch_at_double():
    c = Combine(names=(A, B))
    c.hole(0, 4)
    c.suspend(0, "ecrire")                 # frozen at 4-0, a live petty lurch right
    c.hole(0, 1)
    c.go(0)
    c.hole(0, 2)
    r = c.go(0)
    assert (r.kind, r.multiplier, r.payment, r.pickup) == ("petty-lurch", 2, 16, True)


@pytest.mark.parametrize("case2_grand, kind, m, payment", [
    ("cap_x4", "grand-lurch", 4, 56), ("none", "petty-lurch", 2, 28)])
def test_m_a8_case_two_and_the_grand_lurch(case2_grand, kind, m, payment):
    c = Combine(CombineLadder(case2_grand=case2_grand), names=(A, B))
    c.hole(0, 4)
    c.suspend(0, "ecrire")
    c.hole(0, 1)
    c.go(0)
    c.hole(0, 8)
    r = c.go(0)
    assert (r.kind, r.multiplier, r.payment) == (kind, m, payment)


def test_suspending_honours_freezes_it_and_keeps_its_necktie():
    c = Combine(names=(A, B))
    c.hole(0, 7)
    c.hole(1, 2)                           # §4.6 case 5: Bob's necktie in both games
    assert c.rights(1) == ("necktie-ecrire", "necktie-honours")
    c.suspend(1, "honours")
    c.hole(0, 1, on_throw_of=1)            # Alice scores in à écrire only
    assert c.h == [7, 2] and c.ecrire.holes == [8, 2]
    assert c.treble_right(1)               # frozen with the honours game
    assert not c.ecrire.necktie(1)
    c.hole(0, 1)
    c.go(0)                                # Alice marks: the suspension ends
    assert c.active("honours") and c.results[-1].winner == 0


def test_a_reset_does_not_end_a_suspension():
    c = Combine(names=(A, B))
    c.hole(0, 2)
    c.suspend(0, "honours")
    c.reset_men()
    assert c.suspended["honours"] == 0
    c.hole(1, 1)
    c.go(1)
    assert c.suspended == {"ecrire": None, "honours": None}


# -- §4.3: continuation -------------------------------------------------------------------------

def test_e29_holes_past_twelve_start_the_next_honours_game():
    out = data("combine-e29-offset.toml")
    assert out["marks"] == [mark(1, "petty-lurch", A, 6, 0, 24, 3, pickup=False),
                            mark(2, "petty-lurch", A, 8, 0, 30, 3, pickup=False)]
    assert out["honours"] == [honours(1, A, 12, 0, "quadruple")]
    assert out["current"]["honours_game"] == 2 and out["current"]["honours"] == pair(2, 0)
    assert out["pool"] == pool(12, A)
    c = Combine(names=(A, B))
    for n in (6, 8):
        c.hole(0, n)
        c.go(0)
    c.hole(0, 1)                           # Alice's first hole of mark 3 = honours hole 3
    assert c.h == [3, 0] and c.ecrire.holes == [1, 0] and c.quadruple_right(0)


@pytest.mark.parametrize("name, m, payment, pickup", [
    ("combine-e30-no-pickup.toml", 5, 70, False), ("combine-e30-pickup.toml", 4, 56, True)])
def test_e30_treble_and_grand_lurch(name, m, payment, pickup):
    out = data(name)
    assert out["marks"][2] == mark(3, "grand-lurch", B, 0, 12, payment, m, pickup=pickup)
    assert out["honours"] == [honours(1, A, 12, 0, "quadruple"),
                              honours(2, B, 2, 12, "treble")]
    assert out["pool"] == pool(18, B)
    cur = out["current"]            # the next mark starts level in both games (bimetallic)
    assert cur["ecrire"] == pair(0, 0) and cur["honours"] == pair(0, 0)


def test_without_continuation_extra_holes_are_lost_and_the_winner_must_go(tmp_path):
    out = data("combine-no-continuation.toml")
    assert out["honours"] == [honours(1, A, 12, 1, "treble")]
    assert out["current"]["honours"] == pair(0, 0)               # Alice's extra 3 lost
    assert out["marks"][0]["holes"] == pair(14, 1)               # but not for the mark
    bad = write(tmp_path, ["Bob +1", "Alice +12", "Bob +1"], "continuation = false")
    with pytest.raises(RecordError, match=r"event 2 'Bob \+1': .*Alice .* must now pick up "
                                          r"and go"):
        sheet_data(bad, ladder_for)


def test_with_continuation_the_winner_may_hold():
    c = Combine(names=(A, B))
    c.hole(0, 14)
    c.hole(1, 1, on_throw_of=0)
    assert c.h == [2, 1] and c.honours_results[0].cls == "quadruple"


# -- §4.7: the pool -----------------------------------------------------------------------------

def test_p1_two_games_in_a_row_take_the_pool():
    out = data("combine-p1-two-in-a-row.toml")
    assert out["honours"] == [honours(1, A, 12, 7, "single"), honours(2, A, 12, 1, "double")]
    assert out["pool"] == pool(4, None, [(2, A, 10)])


def test_p2_the_pool_grows_until_two_in_a_row():
    out = data("combine-p2-pool-grows.toml")
    assert [g["class"] for g in out["honours"]] == ["single", "treble", "single"]
    assert [g["winner"] for g in out["honours"]] == [A, B, B]
    assert out["pool"] == pool(4, None, [(3, B, 14)])
    c = Combine(names=(A, B))
    pools = []
    for p, n in ((0, 6), (1, 7), (0, 6)):
        c.hole(p, n)
    pools.append((c.pool_fish, c.contract))
    c.hole(0, 1)
    c.hole(1, 12)
    pools.append((c.pool_fish, c.contract))
    assert pools == [(6, 0), (12, 1)]


def test_p3_an_open_pool_at_the_end_is_split():
    out = data("combine-p3-split.toml")
    assert out["finished"]
    assert [g["class"] for g in out["honours"]] == ["single", "treble", "single"]
    assert out["pool"] == pool(0, None, [(3, A, 4), (3, B, 3)], is_open=False)
    assert out["settlement"]["honours_net"] == pair(-1, 1)
    assert out["marks"][3] == mark(4, "conceded", B, 6, 7, 3)


@pytest.mark.parametrize("name, taken, net, into_pool", [
    ("combine-p4-last-pool.toml", 6, 20, 2), ("combine-p4-stakes-only.toml", 4, 18, 0)])
def test_p4_a_pool_only_just_begun_goes_to_the_winner(name, taken, net, into_pool):
    out = data(name)
    assert out["finished"]
    assert out["honours"][2] == honours(3, A, 12, 7, "single", paid_to_pool=into_pool)
    assert out["pool"] == pool(0, None, [(2, A, 10), (3, A, taken)], is_open=False)
    assert out["settlement"]["honours_net"] == pair(net, -net)
    assert out["settlement"]["net"] == pair(40, -40)              # à écrire, apart (§4.8)


def test_no_new_pool_in_the_last_mark():
    c = Combine(CombineLadder(min_marks=4), marks=4, names=(A, B))
    for _ in range(3):                     # three marks, one hole short of an honours game
        c.hole(1, 1)
        c.hole(0, 6)
        c.go(0)
        c.hole(1, 3)
        c.hole(0, 1)
    assert c.last_mark() and c.honours_results[0].winner == 0
    while len(c.honours_results) < 3 or c.contract is not None or c.pool_open:
        c.hole(0, 1)
        if len(c.honours_results) > 6:
            break
    assert not c.pool_open and c.draws[-1].reason == "two_in_a_row"
    stakes_paid = sum(1 for _ in c.draws)
    c.hole(0, 12)                          # another game won: no basket to pay into
    assert c.honours_results[-1].paid_to_pool == 0 and len(c.draws) == stakes_paid
    c.go(0)
    assert c.finished and sum(c.honours_net()) == 0


def test_m_a12_draw_then_pay():
    c = Combine(CombineLadder(pool_order="draw_then_pay"), names=(A, B))
    c.hole(0, 12)                          # quadruple: pool 4 + 8 = 12, contract Alice
    c.hole(1, 1)
    c.hole(0, 12)                          # treble: Alice takes 12, then 6 into the new pool
    assert [(d.fish, d.winner) for d in c.draws] == [(12, 0)]
    assert (c.pool_fish, c.contract, c.pool_games) == (4 + 6, None, 0)
    assert sum(c.honours_net()) + c.pool_fish == 0


@pytest.mark.parametrize("unfinished, classes", [
    ("void", ["quadruple", "quadruple"]),
    ("leader_single", ["quadruple", "quadruple", "single"])])
def test_m_a13_unfinished_honours_game(unfinished, classes):
    ladder = CombineLadder(min_marks=4, unfinished_honours=unfinished)
    c = Combine(ladder, marks=4, names=(A, B))
    for _ in range(4):
        c.hole(0, 7)                       # honours 7, 14 = 12 + 2, 9, 16 = 12 + 4
        c.go(0)
    assert c.finished and [g.cls for g in c.honours_results] == classes
    # game 2 is the second in a row, in the last mark: Alice takes 20, no new pool opens
    assert [(d.after_game, d.fish) for d in c.draws] == [(2, 20)]
    assert c.honours_results[-1].paid_to_pool == (0 if len(classes) == 3 else 8)
    assert sum(c.honours_net()) == 0


# -- §4.9: the three-mark worked example as a state table ---------------------------------------

#: (row, events, Alice É/H, Bob É/H, Alice's rights, Bob's rights) after the row
ROWS = [
    (1, ["Alice +1", "Alice go"], (1, 1), (0, 0), (), ()),
    (2, ["Bob +2", "Bob go"], (1, 1), (2, 2), (), ("necktie-ecrire", "necktie-honours")),
    (3, ["Alice +3", "Alice go"], (4, 4), (2, 2), (), ()),
    (4, ["Bob +2"], (4, 4), (4, 4), (), ()),
    (5, ["Alice +2", "Alice go"], (0, 6), (0, 4), (), ()),
    (6, ["Alice +2"], (2, 8), (0, 4), ("banner",), ()),
    (7, ["Alice +1"], (3, 9), (0, 4), ("banner",), ()),
    (8, ["Bob +2"], (3, 9), (2, 6), (), ("banner", "necktie-ecrire")),
    (9, ["Bob +2", "Bob go"], (3, 9), (4, 8), (), ("necktie-ecrire",)),
    (10, ["Alice +2"], (5, 11), (4, 8), (), ()),
    (11, ["Alice +2", "Alice suspend ecrire"], (0, 1), (0, 0), (), ()),
    (12, ["Alice +4", "Alice go"], (0, 5), (0, 0), (), ()),
    (13, ["Bob +1"], (0, 5), (1, 1), (), ("banner", "necktie-honours")),
    (14, ["Alice +2"], (2, 7), (1, 1), ("banner", "necktie-ecrire"), ()),
    (16, ["Alice +2", "Alice go"], (4, 9), (1, 1), ("necktie-ecrire",), ()),
    (17, ["Alice +3", "Alice go"], (0, 0), (0, 0), (), ()),
]


def test_e31_three_mark_example_state_table():
    from interpreter.io.sheet import parse_event
    c = Combine(names=(A, B))
    assert (c.pool_fish, c.contract, c.fish_net) == (4, None, [-2, -2])        # row 0
    for row, events, a, b, rights_a, rights_b in ROWS:
        for text in events:
            e = parse_event(text, (A, B))
            {"score": lambda: c.hole(e.player, e.n, e.thrower), "go": lambda: c.go(e.player),
             "suspend": lambda: c.suspend(e.player, e.what)}[e.action]()
        assert ((c.ecrire.holes[0], c.h[0]), (c.ecrire.holes[1], c.h[1])) == (a, b), row
        assert (c.rights(0), c.rights(1)) == (rights_a, rights_b), row
        if row == 1:
            assert c.ecrire.picked_up == [True, False] and c.quadruple_right(0)
        if row == 5:
            assert c.results[-1].payment == 4 and c.ecrire.lost_marks == [0, 1]
        if row == 11:
            assert c.results[-1].payment == 5 and c.ecrire.lost_marks == [0, 2]
            assert c.honours_results[0].cls == "single"
            assert (c.pool_fish, c.contract) == (6, 0)
            assert c.suspended["ecrire"] == 0 and c.suspension_case == 1
        if row == 12:
            assert c.active("ecrire") and c.ecrire.k == 3
        if row == 13:
            assert not c.quadruple_right(0)
        if row == 17:
            r = c.results[-1]
            assert (r.kind, r.multiplier, r.payment, r.arrears, r.pickup) == (
                "petty-lurch", 2, 17, True, True)
            assert c.honours_results[1].cls == "double"       # by rule (M-A20; S000 "single")
            assert c.draws[-1].fish == 10 and c.draws[-1].winner == 0
    assert sum(r.payment for r in c.results) == 26 and c.ecrire.lost_marks == [0, 3]
    # Bob's honours loss before the new pool's stakes: 2 + (2 + 2) + (4 + 4) = 14 fish
    assert c.fish_net == [14 - 2, -14 - 2] and c.pool_fish == 4


def test_e31_record_file():
    out = data("combine-e31-three-marks.toml")
    assert out["marks"] == [
        mark(1, "simple", A, 6, 4, 4), mark(2, "simple", A, 7, 4, 5),
        mark(3, "petty-lurch", A, 7, 1, 17, 2, pickup=True, arrears=True)]
    assert out["honours"] == [honours(1, A, 12, 8, "single"), honours(2, A, 12, 1, "double")]
    assert out["pool"] == pool(4, None, [(2, A, 10)])
    assert out["lost_marks"] == pair(0, 3) and not out["finished"]


# -- §4.6: neckties as rights --------------------------------------------------------------------

def test_necktie_case_1_counts_for_both_games():
    c = Combine(names=(A, B))
    c.hole(0, 3)                            # Alice bimetallic at 3
    c.hole(1, 2)                            # Bob, with no holes, scores second
    assert c.rights(1) == ("banner", "necktie-ecrire", "necktie-honours")


def test_necktie_cases_2_and_3():
    c = Combine(names=(A, B))
    c.hole(0, 3)
    c.suspend(0, "honours")                 # keep honours at 3 while à écrire moves on
    c.hole(0, 3)
    c.go(0)                                 # Alice marks 6-0; a new mark, honours 3-0
    assert c.ecrire.holes == [0, 0] and c.h == [3, 0]
    c.hole(1, 2)                            # case 2: Bob's necktie is for honours only,
    assert c.rights(1) == ("banner", "necktie-honours")       # in advance in à écrire
    c.hole(0, 1)                            # case 3: Alice's hole counts for both games
    assert c.rights(0) == ("banner", "necktie-ecrire") and c.rights(1) == ()
    assert c.h == [4, 2] and not c.treble_right(1)


# -- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("events, index, reason", [
    (["Alice +1 on Bob", "Alice suspend ecrire"], 1, "only right after a hole on Alice's own"),
    (["Alice +1", "reset", "Alice suspend honours"], 2, "only right after a hole"),
    (["Alice +1", "Bob +1", "Alice suspend ecrire"], 2, "only right after a hole"),
    (["Alice +1", "Alice suspend honours", "Alice +1", "Alice suspend honours"], 3,
     "already suspended"),
    (["Alice +1", "Alice suspend honours", "Alice +1", "Alice suspend ecrire"], 3,
     "one game must go on"),
    (["Alice +1", "Alice suspend ecrire", "Alice go"], 2, "directly after making a hole"),
    (["Alice +2 on Bob", "Alice go"], 1, "must hold"),
    (["Alice suspend both"], 0, "cannot read"),
])
def test_forbidden_events_name_index_text_and_reason(tmp_path, events, index, reason):
    with pytest.raises(RecordError) as err:
        sheet_data(write(tmp_path, events), ladder_for)
    message = str(err.value)
    assert message.startswith(f"event {index} {events[index]!r}: ")
    assert reason in message


def test_suspension_stays_refused_in_a_partie_a_ecrire(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\n'
                    'events = ["Alice +1", "Alice suspend ecrire"]\n', encoding="utf-8")
    with pytest.raises(RecordError, match="event 1 .*part of trictrac combiné"):
        sheet_data(path, ladder_for)


def test_bad_option_is_refused(tmp_path):
    with pytest.raises(RecordError, match="pool_unit"):
        sheet_data(write(tmp_path, [], "pool_unit = 3"), ladder_for)


# -- the command line ----------------------------------------------------------------------------

def test_cli_sheet_json_and_text(capsys):
    record = str(SHEETS / "combine-p4-last-pool.toml")
    assert main(["sheet", record, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == data("combine-p4-last-pool.toml")
    assert main(["sheet", record]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Trictrac combiné: Alice v Bob, 4 marks")
    assert "honours games" in text and "Alice takes 6 fish after honours game 3" in text
    assert "honours_net" not in text and "net: Alice +40, Bob -40 jetons" in text


def test_readable_sheet_shows_a_suspension():
    text = render_sheet(SHEETS / "combine-u4-suspend-frozen.toml", ladder_for, False)
    assert "à écrire suspended by Alice: mark 1 frozen at 4-2" in text
    assert "honours game 1 in play: Alice 6, Bob 2" in text


def test_cli_error_exit_code(tmp_path, capsys):
    path = write(tmp_path, ["Alice +1 on Bob", "Alice suspend ecrire"])
    assert main(["sheet", str(path)]) == 1
    assert "event 1 'Alice suspend ecrire'" in capsys.readouterr().err


# -- properties ----------------------------------------------------------------------------------

EVENT = st.one_of(
    st.tuples(st.just("hole"), st.integers(0, 1), st.integers(1, 7), st.booleans()),
    st.tuples(st.just("go"), st.integers(0, 1)),
    st.tuples(st.just("suspend"), st.integers(0, 1), st.sampled_from(["ecrire", "honours"])),
    st.tuples(st.just("reset")),
)
LADDERS = st.builds(CombineLadder, min_marks=st.just(4), marks=st.sampled_from([4, 6]),
                    continuation=st.booleans(), pool_unit=st.sampled_from([1, 2]),
                    pool_order=st.sampled_from(["pay_then_draw", "draw_then_pay"]),
                    last_pool=st.sampled_from(["stake_plus_payment", "stakes_only"]),
                    unfinished_honours=st.sampled_from(["void", "leader_single"]))


def _apply(c: Combine, ev: tuple) -> bool:
    try:
        if ev[0] == "hole":
            c.hole(ev[1], ev[2], ev[1] if ev[3] else 1 - ev[1])
        elif ev[0] == "go":
            c.go(ev[1])
        elif ev[0] == "suspend":
            c.suspend(ev[1], ev[2])
        else:
            c.reset_men()
    except RecordError:
        return False
    return True


@settings(max_examples=scaled(150), deadline=None)
@given(LADDERS, st.lists(EVENT, max_size=120))
def test_properties_of_random_partie(ladder, events):
    c = Combine(ladder, names=(A, B))
    for ev in events:
        before_game, before_h = c.game, list(c.h)
        before_susp = dict(c.suspended)
        applied = _apply(c, ev)
        # fish are conserved: the players' nets and the basket balance
        assert sum(c.fish_net) + c.pool_fish == 0
        assert c.pool_fish >= 0 and (c.pool_open or c.pool_fish == 0)
        # jetons are conserved: what the losers paid the winners received
        assert sum(c.ecrire.paid) == sum(c.ecrire.received)
        # honours holes never decrease within a game
        if c.game == before_game:
            assert c.h[0] >= before_h[0] and c.h[1] >= before_h[1]
        # a suspension lasts until the next pick-up (a go), and only a go ends it
        if not applied or c.finished:
            continue
        if ev[0] == "go":
            assert c.suspended == {"ecrire": None, "honours": None}
        elif ev[0] == "suspend":
            assert c.suspended[ev[2]] == ev[1]
        else:
            assert c.suspended == before_susp
    if c.finished:
        assert sum(c.honours_net()) == 0 and not c.pool_open
        assert c.fish_net[0] == -c.fish_net[1]


@settings(max_examples=scaled(100), deadline=None)
@given(st.lists(EVENT, max_size=80))
def test_no_mark_ends_while_a_ecrire_is_suspended(events):
    c = Combine(names=(A, B))
    for ev in events:
        was = c.suspended["ecrire"] is not None
        n = len(c.results)
        holes = list(c.ecrire.holes)
        if _apply(c, ev) and was and ev[0] != "go":
            assert len(c.results) == n and c.ecrire.holes == holes
