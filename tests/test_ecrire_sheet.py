"""The partie à écrire and `tablier sheet`: every worked example of rules/match-scoring.md §3.1
that determines a result (E1–E28), the examples of spec/INTERFACES.md, the house-rule options of
match-scoring §8 and the errors of bad records.

Each E-case is a record in tests/data/sheets named after it; its header comment says how the
record was built where the case leaves the order of the holes or the numbers open.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from interpreter.errors import RecordError
from interpreter.io.sheet import parse_event, render_sheet, sheet_data
from interpreter.scoring.ecrire import Ecrire, EcrireLadder
from interpreter.scoring.holes import HolesLadder
from interpreter.scoring.registry import LADDER_MODELS

SHEETS = Path(__file__).parent / "data" / "sheets"
A, B = "Alice", "Bob"


def ladder_for(variant: str, options: dict) -> BaseModel:
    """Stands in for the variant loader: the ladder of the record's variant with its options."""
    if variant == "trictrac-ecrire":
        return EcrireLadder(**options)
    if variant == "triktrak":
        return HolesLadder(**options)
    raise RecordError(f"unknown variant {variant!r}")


def data(name: str) -> dict:
    return sheet_data(SHEETS / name, ladder_for)


def write(tmp_path: Path, events: list[str], marks: int | None = None, options: str = "",
          variant: str = "trictrac-ecrire", extra: str = "") -> Path:
    path = tmp_path / "record.toml"
    lines = [f'variant = "{variant}"', 'players = ["Alice", "Bob"]']
    if marks is not None:
        lines.append(f"marks = {marks}")
    lines.append(extra)
    lines.append("events = " + json.dumps(events))
    if options:
        lines.append("[options]\n" + options)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def holes(a: int, b: int) -> dict:
    return {A: a, B: b}


def plain(kind: str, winner: str, a: int, b: int, payment: int, mark: int = 1) -> dict:
    loser = B if winner == A else A
    return {"mark": mark, "kind": kind, "winner": winner, "loser": loser, "holes": holes(a, b),
            "multiplier": 1, "payment": payment}


def lurch(kind: str, winner: str, a: int, b: int, m: int, payment: int, pickup: bool,
          arrears: bool, rate_from: str = "own", mark: int = 1) -> dict:
    loser = B if winner == A else A
    return {"mark": mark, "kind": kind, "winner": winner, "loser": loser, "holes": holes(a, b),
            "multiplier": m, "payment": payment, "pickup": pickup, "arrears": arrears,
            "rate_from": rate_from}


def refait(a: int, b: int, mark: int = 1) -> dict:
    return {"mark": mark, "kind": "refait", "winner": None, "loser": None, "holes": holes(a, b),
            "multiplier": 1, "payment": 0}


def one_mark(entry: dict) -> dict:
    loser = entry["loser"]
    return {"marks": [entry], "lost_marks": {A: int(loser == A), B: int(loser == B)},
            "finished": False, "settlement": None}


PETTY, GRAND = "petty-lurch", "grand-lurch"

#: (record, expected JSON) for the cases whose result is one mark
ONE_MARK_CASES = [
    ("e01-simple-mark.toml", plain("simple", A, 6, 4, 4)),
    ("e02-three-four-three.toml", plain("simple", A, 6, 4, 4)),
    ("e03-overtake-past-six.toml", plain("simple", A, 8, 7, 3)),
    ("e03-overtake-past-six-bob-adds.toml", plain("simple", A, 9, 8, 3)),
    ("e03b-concession-at-five.toml", plain("conceded", B, 5, 7, 4)),
    ("e04-overtaken-back.toml", plain("simple", B, 8, 9, 3)),
    ("e06-conceded-mark.toml", plain("conceded", A, 6, 3, 5)),
    ("e06-conceded-mark-seven.toml", plain("conceded", A, 7, 3, 6)),
    ("e07-petty-lurch-pickup.toml", lurch(PETTY, A, 6, 0, 2, 16, True, False)),
    ("e08-petty-lurch-no-pickup.toml", lurch(PETTY, A, 6, 0, 3, 24, False, False)),
    ("e09-petty-lurch-arrears-pickup.toml", lurch(PETTY, A, 7, 5, 2, 13, True, True)),
    ("e09-petty-lurch-arrears-no-pickup.toml", lurch(PETTY, A, 7, 5, 3, 22, False, True)),
    ("e10-petty-lurch-eleven-pickup.toml", lurch(PETTY, A, 11, 0, 2, 26, True, False)),
    ("e10-petty-lurch-eleven-no-pickup.toml", lurch(PETTY, A, 11, 0, 3, 39, False, False)),
    ("e10-petty-lurch-eleven-arrears.toml", lurch(PETTY, A, 11, 3, 3, 36, False, True)),
    ("e11-lost-petty-lurch.toml", plain("simple", B, 1, 10, 11)),
    ("e12-conceded-after-interruption.toml", plain("conceded", B, 2, 7, 7)),
    ("e13-lurch-in-return-pickup.toml",
     lurch(PETTY, A, 7, 6, 2, 12, True, True, "opponent")),
    ("e13-lurch-in-return-no-pickup.toml",
     lurch(PETTY, A, 7, 6, 3, 21, False, True, "opponent")),
    ("e13-lurch-in-return-eight-nine-pickup.toml",
     lurch(PETTY, A, 9, 8, 2, 14, True, True, "opponent")),
    ("e13-lurch-in-return-eight-nine-no-pickup.toml",
     lurch(PETTY, A, 9, 8, 3, 25, False, True, "opponent")),
    ("e14-lurch-in-return-false-hits.toml",
     lurch(PETTY, A, 7, 6, 3, 21, False, True, "opponent")),
    ("e15-both-lurches-lost.toml", plain("simple", B, 9, 10, 3)),
    ("e17-grand-lurch-pickup.toml", lurch(GRAND, A, 12, 0, 4, 56, True, False)),
    ("e18-grand-lurch-no-pickup.toml", lurch(GRAND, A, 12, 0, 5, 70, False, False)),
    ("e19-grand-lurch-to-twenty-pickup.toml", lurch(GRAND, A, 20, 0, 4, 88, True, False)),
    ("e19-grand-lurch-to-twenty-no-pickup.toml", lurch(GRAND, A, 20, 0, 5, 110, False, False)),
    ("e20-grand-lurch-lost.toml", plain("simple", A, 15, 1, 16)),
    ("e21-grand-lurch-in-return-pickup.toml",
     lurch(GRAND, B, 14, 15, 4, 54, True, True, "opponent")),
    ("e21-grand-lurch-in-return-no-pickup.toml",
     lurch(GRAND, B, 14, 15, 5, 71, False, True, "opponent")),
    ("e22-twelfth-on-opponent-throw.toml",
     lurch(GRAND, B, 14, 15, 5, 71, False, True, "opponent")),
    ("e23-both-grand-lurches-lost.toml", plain("simple", A, 14, 13, 3)),
]


@pytest.mark.parametrize("record, entry", ONE_MARK_CASES, ids=[c[0][:-5] for c in ONE_MARK_CASES])
def test_e_series_one_mark(record: str, entry: dict) -> None:
    """E1–E4, E6–E15, E17–E23 (match-scoring §3.1): the case id starts the record's name."""
    assert data(record) == one_mark(entry)


def test_e05_refait_then_consolation_four() -> None:
    """E5: a refait voids the mark (no payment, no lost mark) and the replay, same mark number,
    pays the consolation of 4 (×3 here: a petty lurch without pick-up, constructed)."""
    assert data("e05-refait.toml") == {
        "marks": [refait(7, 7), lurch(PETTY, A, 6, 0, 3, 30, False, False)],
        "lost_marks": {A: 0, B: 1}, "finished": False, "settlement": None}


def test_e05_refait_keeps_the_leader() -> None:
    """E5: "mark replayed with the same leader" (LAF §226, M-A2 default)."""
    ledger = Ecrire(EcrireLadder(), leader=1)
    ledger.hole(0, 7)
    ledger.hole(1, 7)
    result = ledger.go(1)
    assert result is not None and result.kind == "refait" and result.leader == 1
    assert ledger.leader == 1 and ledger.r == 1 and ledger.k == 1
    assert ledger.consolation() == 4
    ledger.hole(1, 7)
    ledger.hole(0, 7)
    ledger.go(0)
    assert ledger.consolation() == 6          # two refaits in a row: 6 (LAF §226)


def test_e16_refait_at_eight() -> None:
    """E16: Bob 8, Alice equalises at 8 on her own throw and goes: the whole score is void."""
    assert data("e16-refait-at-eight.toml") == {
        "marks": [refait(8, 8)], "lost_marks": {A: 0, B: 0}, "finished": False,
        "settlement": None}


def settlement(winner: str | None, markers: tuple[int, int], paris: int, paris_payment: int,
               net_alice: int, **extra: object) -> dict:
    return {"queue_of_jetons": {"winner": winner, "markers": {A: markers[0], B: markers[1]}},
            "paris": paris, "paris_payment": paris_payment,
            "net": {A: net_alice, B: -net_alice}, **extra}


# Simple marks of 7 jetons: Alice's net from the marks is 7 × (marks Bob lost − marks she lost).
PARTIE_CASES = [
    # E24: Bob loses 7, Alice 5: 2 paris, 8 + 20 = 28 from Bob; the queue of jetons to Alice
    # (+7, Bob's markers); net 14 + 7 + 28.
    ("e24-paris-two.toml", (5, 7), settlement(A, (12, 0), 2, 28, 14 + 7 + 28)),
    # E25: the paris schedule: 4 paris 36, 6 paris 44, 8 paris 52.
    ("e25-paris-four.toml", (4, 8), settlement(A, (12, 0), 4, 36, 28 + 8 + 36)),
    ("e25-paris-six.toml", (3, 9), settlement(A, (12, 0), 6, 44, 42 + 9 + 44)),
    ("e25-paris-eight.toml", (2, 10), settlement(A, (12, 0), 8, 52, 56 + 10 + 52)),
    # E26: 6 marks lost each: no paris; Alice's petty lurch (24) makes her holding larger.
    ("e26-level-paris.toml", (6, 6), settlement(A, (12, 0), 0, 0, 24 + 5 * 7 - 6 * 7 + 6)),
    # E27: equal holdings (14 and 14): the 12 markers are shared 6 and 6.
    ("e27-equal-holdings.toml", (6, 6), settlement(None, (6, 6), 0, 0, 0)),
    ("e27-equal-holdings-with-fish.toml", (6, 6), settlement(None, (6, 6), 0, 0, 0)),
    # E28: fish pricing; Bob keeps 6 / 4 / 5 of his 20 jetons: 1 fish, 2 fish, a high die.
    ("e28-fish-six-left.toml", (3, 3),
     settlement(A, (6, 0), 0, 0, 14, fish={"loser": B, "fish": 1, "die": None})),
    ("e28-fish-four-left.toml", (3, 3),
     settlement(A, (6, 0), 0, 0, 16, fish={"loser": B, "fish": 2, "die": None})),
    ("e28-fish-five-left.toml", (3, 3),
     settlement(A, (6, 0), 0, 0, 15, fish={"loser": B, "fish": None, "die": [1, 2]})),
    ("e28-fish-five-left-to-winner.toml", (3, 3),
     settlement(A, (6, 0), 0, 0, 15, fish={"loser": B, "fish": 2, "die": None})),
]


@pytest.mark.parametrize("record, lost, expected", PARTIE_CASES,
                         ids=[c[0][:-5] for c in PARTIE_CASES])
def test_e_series_settlement(record: str, lost: tuple[int, int], expected: dict) -> None:
    """E24–E28 (match-scoring §2, §3.1): the settlement of a whole partie."""
    result = data(record)
    assert result["finished"] is True
    assert result["lost_marks"] == {A: lost[0], B: lost[1]}
    assert len([m for m in result["marks"] if m["kind"] != "refait"]) == sum(lost)
    assert result["settlement"] == expected


def test_e27_holdings_are_fourteen_each() -> None:
    """E27: "each holds 14 jetons" — 14 + 14 + 12 markers = 40 jetons."""
    ledger = Ecrire(EcrireLadder())
    for _ in range(6):
        ledger.hole(0, 1); ledger.hole(1, 1); ledger.hole(0, 5); ledger.go(0)
        ledger.hole(1, 1); ledger.hole(0, 1); ledger.hole(1, 5); ledger.go(1)
    assert ledger.settlement is not None
    assert ledger.settlement.holdings == (14, 14)


def test_e24_text_sheet_shows_the_settlement() -> None:
    """E24 as a readable sheet: a row per mark, then the settlement in its mandatory order."""
    text = render_sheet(SHEETS / "e24-paris-two.toml", ladder_for, json_output=False)
    assert text.count(" simple ") == 12
    order = [text.index(s) for s in ("settlement", "queue of jetons", "paris: 2", "net:")]
    assert order == sorted(order)
    assert "Bob pays 28" in text and "Alice +49, Bob -49" in text


# -- spec/INTERFACES.md ---------------------------------------------------------------------------

def test_interfaces_ecrire_example_json() -> None:
    """The à écrire record of INTERFACES.md prints exactly the JSON shown there."""
    out = render_sheet(SHEETS / "interfaces-ecrire.toml", ladder_for, json_output=True)
    assert json.loads(out) == {
        "marks": [{"mark": 1, "kind": "simple", "winner": "Alice", "loser": "Bob",
                   "holes": {"Alice": 6, "Bob": 4}, "multiplier": 1, "payment": 4}],
        "lost_marks": {"Alice": 0, "Bob": 1},
        "finished": False,
        "settlement": None}


def test_interfaces_triktrak_example_json() -> None:
    """The points record of INTERFACES.md: Bob's 2 points cost Alice her bredouille, so her 14
    make one single hole; going clears the points."""
    out = render_sheet(SHEETS / "interfaces-triktrak.toml", ladder_for, json_output=True)
    zero = {"Alice": 0, "Bob": 0}
    assert json.loads(out) == {
        "players": {"Alice": {"holes": 1, "points": 0, "bredouille": True},
                    "Bob": {"holes": 0, "points": 4, "bredouille": True}},
        "events": [{"index": 0, "holes_won": zero}, {"index": 1, "holes_won": zero},
                   {"index": 2, "holes_won": {"Alice": 1, "Bob": 0}},
                   {"index": 3, "holes_won": zero}, {"index": 4, "holes_won": zero}],
        "finished": False,
        "winner": None}


def test_interfaces_text_sheets() -> None:
    text = render_sheet(SHEETS / "interfaces-ecrire.toml", ladder_for, json_output=False)
    assert "simple" in text and "mark 2 of 12 in play, led by Bob" in text
    text = render_sheet(SHEETS / "interfaces-triktrak.toml", ladder_for, json_output=False)
    assert len([line for line in text.splitlines() if line[:3].strip().isdigit()]) == 5


def test_interfaces_go_after_a_hole_on_the_opponents_throw_is_an_error(tmp_path: Path) -> None:
    """INTERFACES.md: "Alice go" after a hole on Bob's throw names the event and the reason."""
    path = write(tmp_path, ["Alice +1 on Bob", "Alice go"])
    with pytest.raises(RecordError, match=r"event 1 'Alice go': Alice made that hole on Bob's "
                                          r"throw and must hold"):
        render_sheet(path, ladder_for, json_output=True)


# -- the rules of the mark ----------------------------------------------------------------------

def test_go_after_the_opponents_holes_from_the_same_throw_is_rejected(tmp_path: Path) -> None:
    """R2: the roller goes before the opponent marks; a go written after them is rejected."""
    path = write(tmp_path, ["Alice +1", "Bob +1 on Alice", "Alice go"])
    with pytest.raises(RecordError, match=r"event 2 'Alice go': Alice has stayed"):
        sheet_data(path, ladder_for)


@pytest.mark.parametrize("events, index", [
    (["Alice go"], 0),
    (["Alice +1", "reset", "Alice go"], 2),        # a sortie reset does not allow marking
    (["Alice +1", "Alice go", "Alice go"], 2),
    (["Alice +1", "Bob +1", "Alice go"], 2),
])
def test_go_needs_an_own_throw_hole_just_before(tmp_path: Path, events: list[str],
                                                index: int) -> None:
    with pytest.raises(RecordError, match=rf"event {index} 'Alice go': "):
        sheet_data(write(tmp_path, events), ladder_for)


def test_sixth_hole_on_the_opponents_throw_must_hold(tmp_path: Path) -> None:
    """S000: Alice reaching her 6th hole on Bob's false hit holds to a 7th on her own throw."""
    with pytest.raises(RecordError, match="must hold"):
        sheet_data(write(tmp_path, ["Alice +5", "Alice +1 on Bob", "Alice go"]), ladder_for)
    result = sheet_data(write(tmp_path, ["Alice +5", "Alice +1 on Bob", "Alice +1", "Alice go"]),
                        ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 7, 0, 3, 27, False, False)]


def test_consecutive_own_throw_holes_keep_the_right_to_go(tmp_path: Path) -> None:
    result = sheet_data(write(tmp_path, ["Bob +1", "Alice +3", "Alice +3", "Alice go"]),
                        ladder_for)
    assert result["marks"][0]["payment"] == 3 * (6 + 2) - 1


def test_pick_up_only_below_six_and_a_reset_is_not_a_pick_up(tmp_path: Path) -> None:
    """A reset (sortie) keeps a lurch "without pick-up" (§1.1)."""
    result = sheet_data(write(tmp_path, ["Alice +3", "reset", "Alice +3", "Alice go"]),
                        ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 6, 0, 3, 24, False, False)]


def test_events_after_the_end_of_the_partie_are_rejected(tmp_path: Path) -> None:
    events = ["Alice +6", "Alice go"] * 6 + ["Bob +1"]
    with pytest.raises(RecordError, match=r"event 12 'Bob \+1': the partie is over"):
        sheet_data(write(tmp_path, events, marks=6), ladder_for)


def test_holes_beyond_twelve_are_not_capped(tmp_path: Path) -> None:
    """Holes after the 12th go on round the rail (§1.1): 25 holes is a grand lurch of 25."""
    result = sheet_data(write(tmp_path, ["Alice +25", "Alice go"]), ladder_for)
    assert result["marks"] == [lurch(GRAND, A, 25, 0, 5, 25 * 5 + 10, False, False)]


# -- options (match-scoring §8) -------------------------------------------------------------------

def test_lurch_rates_classic(tmp_path: Path) -> None:
    """M-A1 `lurch_rates = "classic"`: petty ×2 and grand ×4 whatever the pick-ups."""
    opts = 'lurch_rates = "classic"'
    petty = sheet_data(write(tmp_path, ["Alice +6", "Alice go"], options=opts), ladder_for)
    assert petty["marks"] == [lurch(PETTY, A, 6, 0, 2, 16, False, False)]
    grand = sheet_data(write(tmp_path, ["Alice +12", "Alice go"], options=opts), ladder_for)
    assert grand["marks"] == [lurch(GRAND, A, 12, 0, 4, 56, False, False)]


def test_refait_consolation_geometric(tmp_path: Path) -> None:
    """M-A1: after two refaits the consolation is 6 (arithmetic) or 8 (geometric)."""
    events = ["Bob +6", "Alice +6", "Alice go", "Bob +6", "Alice +6", "Alice go",
              "Alice +1", "Bob +1", "Alice +5", "Alice go"]
    arithmetic = sheet_data(write(tmp_path, events), ladder_for)
    assert arithmetic["marks"][-1] == plain("simple", A, 6, 1, 6 + 6 - 1)
    geometric = sheet_data(write(tmp_path, events, options='refait_consolation = "geometric"'),
                           ladder_for)
    assert geometric["marks"][-1] == plain("simple", A, 6, 1, 6 + 8 - 1)
    assert [m["mark"] for m in geometric["marks"]] == [1, 1, 1]


def _leaders(ladder: EcrireLadder) -> list[int]:
    ledger = Ecrire(ladder, marks=6, leader=0)
    ledger.hole(1, 6); ledger.go(1)                         # mark 1: Bob
    ledger.hole(1, 6); ledger.hole(0, 6); ledger.go(0)      # mark 2: refait
    ledger.hole(1, 6); ledger.go(1)                         # mark 2 replayed: Bob
    ledger.hole(0, 6); ledger.go(0)                         # mark 3: Alice
    return [r.leader for r in ledger.results] + [ledger.leader]


def test_leaders_alternate_and_refait_keeps_the_leader() -> None:
    """§2.6: leaders alternate by mark; a refait is replayed by the same leader (M-A2, M-A3)."""
    assert _leaders(EcrireLadder()) == [0, 1, 1, 0, 1]
    assert _leaders(EcrireLadder(refait_lead="alternate")) == [0, 1, 0, 1, 0]
    assert _leaders(EcrireLadder(mark_lead="winner")) == [0, 1, 1, 1, 0]


def _queue_scenario(tmp_path: Path, options: str = "") -> dict:
    """Alice loses 2 marks for 13 jetons, Bob 4 for 12: equal holdings (17 and 17), but Alice's
    column of payments is the longer (M-A5 differs when |2·Δpaid| ≤ |ΔL|)."""
    bob7 = ["Bob +1", "Alice +1", "Bob +5", "Bob go"]          # Bob 6-1: 7
    bob6 = ["Bob +1", "Alice +2", "Bob +5", "Bob go"]          # Bob 6-2: 6
    alice3 = ["Alice +1", "Bob +5", "Alice +5", "Alice go"]    # Alice 6-5: 3
    return sheet_data(write(tmp_path, bob7 + bob6 + alice3 * 4, marks=6, options=options),
                      ladder_for)["settlement"]


def test_queue_of_jetons_options(tmp_path: Path) -> None:
    """M-A5 `queue_compare` and M-A6 `queue_tie`; paris 2 (28) to Alice in every case."""
    assert _queue_scenario(tmp_path) == settlement(None, (3, 3), 2, 28, -1 + 1 + 28)
    assert _queue_scenario(tmp_path, 'queue_tie = "own_back"') == \
        settlement(None, (2, 4), 2, 28, -1 + 0 + 28)
    assert _queue_scenario(tmp_path, 'queue_compare = "columns"') == \
        settlement(B, (0, 6), 2, 28, -1 - 2 + 28)


def test_final_queue(tmp_path: Path) -> None:
    """M-A25 `final_queue = n`: n fish (10 jetons each) to the overall winner after the paris."""
    result = sheet_data(SHEETS / "e24-paris-two.toml", lambda v, o: EcrireLadder(final_queue=2),
                        )["settlement"]
    assert result == settlement(A, (12, 0), 2, 28, 49 + 20,
                                final_queue={"winner": A, "jetons": 20})


def test_partie_length_and_min_marks(tmp_path: Path) -> None:
    """M-A24: an even number of marks from 6 (or 4 with `min_marks = 4`) to 24."""
    for marks in (5, 4, 26):
        with pytest.raises(RecordError, match="`marks`: a partie is an even number of marks"):
            sheet_data(write(tmp_path, [], marks=marks), ladder_for)
    result = sheet_data(write(tmp_path, ["Alice +6", "Alice go"] * 4, marks=4,
                              options="min_marks = 4"), ladder_for)
    assert result["finished"] is True


# -- strict marker claims (M-A4) --------------------------------------------------------------------

STRICT = "strict_marker_claims = true"


def test_strict_banner_claimed_keeps_the_rate(tmp_path: Path) -> None:
    result = sheet_data(write(tmp_path, ["Alice +1", "Alice banner", "Alice +5", "Alice go"],
                              options=STRICT), ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 6, 0, 3, 24, False, False)]


def test_strict_banner_missed_rates_as_with_pick_up(tmp_path: Path) -> None:
    result = sheet_data(write(tmp_path, ["Alice +1", "Alice +5", "Alice go"], options=STRICT),
                        ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 6, 0, 2, 16, True, False)]


def test_strict_necktie_missed_loses_the_arrears_lurch(tmp_path: Path) -> None:
    claimed = sheet_data(write(tmp_path, ["Bob +5", "Alice +1", "Alice necktie", "Alice banner",
                                          "Alice +6", "Alice go"], options=STRICT), ladder_for)
    assert claimed["marks"] == [lurch(PETTY, A, 7, 5, 3, 22, False, True)]
    missed = sheet_data(write(tmp_path, ["Bob +5", "Alice +1", "Alice banner", "Alice +6",
                                         "Alice go"], options=STRICT), ladder_for)
    assert missed["marks"] == [plain("simple", A, 7, 5, 4)]


def test_strict_copied_rate_takes_the_necktie_only(tmp_path: Path) -> None:
    """§1.6: an arrears lurch whose rate is fixed by the opponent's failed lurch: necktie only."""
    with pytest.raises(RecordError, match=r"event 2 'Alice banner': no banner is due to Alice"):
        sheet_data(write(tmp_path, ["Bob +6", "Alice +1", "Alice banner"], options=STRICT),
                   ladder_for)
    result = sheet_data(write(tmp_path, ["Bob +1", "Bob banner", "Bob +5", "Alice +1",
                                         "Alice necktie", "Alice +6", "Alice go"],
                              options=STRICT), ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 7, 6, 3, 21, False, True, "opponent")]
    # Bob's missed banner rates his failed lurch as with pick-up, and Alice copies that rate
    result = sheet_data(write(tmp_path, ["Bob +6", "Alice +1", "Alice necktie", "Alice +6",
                                         "Alice go"], options=STRICT), ladder_for)
    assert result["marks"] == [lurch(PETTY, A, 7, 6, 2, 12, True, True, "opponent")]


def test_strict_claims_come_right_after_the_first_hole(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"event 2 'Alice banner': too late"):
        sheet_data(write(tmp_path, ["Alice +1", "Alice +1", "Alice banner"], options=STRICT),
                   ladder_for)
    with pytest.raises(RecordError, match=r"event 1 'Alice banner': .*strict_marker_claims"):
        sheet_data(write(tmp_path, ["Alice +1", "Alice banner"]), ladder_for)
    with pytest.raises(RecordError, match="already been claimed"):
        sheet_data(write(tmp_path, ["Alice +1", "Alice banner", "Alice banner"],
                         options=STRICT), ladder_for)


def test_derived_banner_and_necktie() -> None:
    """§1.6 markers shown from the state: banner in advance without pick-up, necktie in arrears,
    both removed by an interruption, the banner alone by a pick-up."""
    ledger = Ecrire(EcrireLadder())
    ledger.hole(1, 2)
    assert ledger.banner(1) and not ledger.necktie(1)
    ledger.go(1)
    assert not ledger.banner(1)
    ledger.hole(0, 1)
    assert ledger.banner(0) and ledger.necktie(0)
    ledger.go(0)
    assert not ledger.banner(0) and ledger.necktie(0)
    ledger.hole(1, 1)
    assert not ledger.necktie(0) and not ledger.banner(1)


# -- the record file ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"\n', "invalid toml"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\nscore = 3\n', "unknown key 'score'"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice"]\n', "exactly two names"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob", "Carol"]\n', "exactly two names"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Alice"]\n', "different names"),
    ('players = ["Alice", "Bob"]\n', "`variant`"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\nmarks = 7\n', "`marks`"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\nmarks = "12"\n', "`marks`"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\nleader = "Carol"\n', "`leader`"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\nevents = ["Alice +1", 2]\n',
     "event 1 must be a string"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\n[options]\nlurch_rate = "seed"\n',
     "`lurch_rate`: unknown option"),
    ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\n[options]\nlurch_rates = "x"\n',
     "`lurch_rates`: input should be 'seed' or 'classic'"),
    ('variant = "triktrak"\nplayers = ["Alice", "Bob"]\nmarks = 12\n', "`marks` belongs to"),
])
def test_bad_record_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        render_sheet(path, ladder_for, json_output=True)


def test_missing_record_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot be read"):
        render_sheet(tmp_path / "none.toml", ladder_for, json_output=False)


@pytest.mark.parametrize("event, message", [
    ("Carol +1", "unknown player 'Carol'"),
    ("Alice +0", "at least"),
    ("Alice +1 on Carol", "unknown player 'Carol' after 'on'"),
    ("Alice leaves", "cannot read 'leaves'"),
    ("Alice suspend ecrire", "combiné"),
    ("", "empty event"),
])
def test_bad_events(tmp_path: Path, event: str, message: str) -> None:
    with pytest.raises(RecordError, match=rf"event 0 {re.escape(repr(event))}: .*{message}"):
        sheet_data(write(tmp_path, [event]), ladder_for)


def test_event_grammar() -> None:
    players = ("Jean Pierre", "Bob")
    e = parse_event("Jean Pierre +2 on Bob", players)
    assert (e.action, e.player, e.n, e.thrower) == ("score", 0, 2, 1)
    assert parse_event("  reset ", players).action == "reset"
    assert parse_event("Bob go", players).player == 1
    assert parse_event("Bob +3 on Bob", players).thrower == 1
    assert parse_event("Bob necktie", players).what == "necktie"


def test_ladder_without_a_sheet(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="'game' ladder, which has no score sheet"):
        sheet_data(write(tmp_path, []), lambda v, o: LADDER_MODELS["game"]())


def test_registry_models_and_defaults() -> None:
    """The ladders are registered by kind, strict, with a description for every field."""
    assert LADDER_MODELS["ecrire"] is EcrireLadder and LADDER_MODELS["holes"] is HolesLadder
    for model in (EcrireLadder, HolesLadder):
        assert all(f.description for f in model.model_fields.values())
        with pytest.raises(ValueError):
            model(no_such_option=1)
    e = EcrireLadder()
    assert (e.lurch_rates, e.refait_consolation, e.refait_lead, e.mark_lead,
            e.strict_marker_claims, e.queue_compare, e.queue_tie, e.fish_rounding,
            e.case2_grand, e.min_marks, e.final_queue, e.marks) == \
        ("seed", "arithmetic", "same", "alternate", False, "holdings", "split", "off",
         "cap_x4", 6, 0, 12)
    h = HolesLadder()
    assert (h.points_per_hole, h.holes_to_win, h.second_marker_bredouille, h.sortie_bredouille,
            h.last_hole, h.match_lurch) == (12, 12, "allowed", "keep", "any_roll", "off")
    assert e.holes_ladder().holes_to_win == 0
