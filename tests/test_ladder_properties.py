"""Properties of the ladders over random event sequences (hypothesis): the à écrire ledger
conserves jetons and lost marks and classifies every mark once; the holes ladder keeps points
below a hole and never takes holes back."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.errors import RecordError
from interpreter.scoring.ecrire import MARK_KINDS, Ecrire, EcrireLadder
from interpreter.scoring.holes import Holes, HolesLadder

# one throw's worth of à écrire events: (maker, holes, on his own throw, go afterwards) or a
# reset of the men; a go is only written after own-throw holes, as the rules require
throws = st.lists(
    st.one_of(
        st.tuples(st.integers(0, 1), st.integers(1, 4), st.booleans(),
                  st.sampled_from([True, True, False])),
        st.just("reset")),
    min_size=30, max_size=250)

ecrire_ladders = st.builds(
    EcrireLadder,
    marks=st.sampled_from([6, 8]),
    lurch_rates=st.sampled_from(["seed", "classic"]),
    refait_consolation=st.sampled_from(["arithmetic", "geometric"]),
    queue_compare=st.sampled_from(["holdings", "columns"]),
    queue_tie=st.sampled_from(["split", "own_back"]),
    final_queue=st.integers(0, 2))

MULTIPLIERS = {"simple": {1}, "conceded": {1}, "petty-lurch": {2, 3}, "grand-lurch": {4, 5}}


def _check_result(ledger: Ecrire, result, holes_before: tuple[int, int],
                  lost_before: list[int], paid_before: list[int]) -> None:
    assert result.kind in MARK_KINDS
    assert result.holes == holes_before
    if result.kind == "refait":
        # a refait: equal holes, nothing paid, no lost mark
        assert holes_before[0] == holes_before[1] >= 6
        assert result.winner is None and result.loser is None and result.payment == 0
        assert ledger.lost_marks == lost_before and ledger.paid == paid_before
        return
    w, l = result.winner, result.loser
    assert {w, l} == {0, 1} and holes_before[w] > holes_before[l] and holes_before[w] >= 6
    assert result.multiplier in MULTIPLIERS[result.kind]
    if result.kind in ("petty-lurch", "grand-lurch"):
        assert holes_before[w] >= 12 if result.kind == "grand-lurch" else holes_before[w] < 12
        assert result.pickup is not None and result.rate_from in ("own", "opponent")
    else:
        assert result.pickup is None
    assert result.payment > 0
    assert ledger.payments[-1] == (l, w, result.payment)
    assert ledger.lost_marks[l] == lost_before[l] + 1 and ledger.lost_marks[w] == lost_before[w]


@settings(max_examples=scaled(300), deadline=None)
@given(ladder=ecrire_ladders, events=throws, leader=st.integers(0, 1))
def test_ecrire_ledger_invariants(ladder: EcrireLadder, events: list, leader: int) -> None:
    ledger = Ecrire(ladder, leader=leader)
    for event in events:
        if ledger.finished:
            break
        if event == "reset":
            ledger.reset_men()
            continue
        player, n, own, go = event
        ledger.hole(player, n, player if own else 1 - player)
        if go and own:
            holes_before = (ledger.holes[0], ledger.holes[1])
            lost_before, paid_before = list(ledger.lost_marks), list(ledger.paid)
            results_before = len(ledger.results)
            result = ledger.go(player)
            if result is None:                       # a pick-up adds no entry
                assert max(holes_before) < 6 and len(ledger.results) == results_before
                assert ledger.holes == list(holes_before)
            else:
                _check_result(ledger, result, holes_before, lost_before, paid_before)
                assert ledger.holes == [0, 0]
        elif go:
            try:
                ledger.go(player)
            except RecordError:
                pass
            else:
                raise AssertionError("a go after a hole on the opponent's throw was accepted")

    won = [r for r in ledger.results if r.kind != "refait"]
    # every payment is one player's loss and the other's gain
    assert all(payer != payee and amount > 0 for payer, payee, amount in ledger.payments)
    assert ledger.received[0] == ledger.paid[1] == sum(a for p, _, a in ledger.payments if p == 1)
    assert ledger.received[1] == ledger.paid[0] == sum(a for p, _, a in ledger.payments if p == 0)
    # lost marks are exactly the marks won by the other side
    for p in (0, 1):
        assert ledger.lost_marks[p] == sum(1 for r in won if r.winner == 1 - p)
    assert ledger.marks_won == len(won) == len(ledger.payments) == sum(ledger.lost_marks)
    assert ledger.finished == (len(won) == ledger.n_marks)
    s = ledger.settlement
    if s is not None:
        assert s.net[0] + s.net[1] == 0
        assert sum(s.holdings) + ledger.n_marks == 40       # 2 × 20 jetons, markers aside
        assert sum(s.markers) == ledger.n_marks
        assert s.paris == abs(ledger.lost_marks[0] - ledger.lost_marks[1]) and s.paris % 2 == 0


@settings(max_examples=scaled(300), deadline=None)
@given(marks=st.lists(st.tuples(st.integers(0, 1), st.integers(1, 40), st.booleans(),
                                st.sampled_from(["stay", "go", "reset"])),
                      min_size=1, max_size=80),
       ladder=st.builds(HolesLadder,
                        points_per_hole=st.sampled_from([12, 6]),
                        holes_to_win=st.sampled_from([0, 12]),
                        second_marker_bredouille=st.sampled_from(["allowed", "never"]),
                        sortie_bredouille=st.sampled_from(["keep", "reset"]),
                        last_hole=st.sampled_from(["any_roll", "own_roll"])))
def test_holes_ladder_invariants(marks: list, ladder: HolesLadder) -> None:
    h = Holes(ladder)
    pph = ladder.points_per_hole
    for player, n, own, then in marks:
        if h.finished:
            break
        before_holes = list(h.holes)
        before_points = h.points[player]
        won, may_go = h.mark(player, n, own)
        k = (before_points + n) // pph
        assert k <= won <= 2 * k                         # only the first hole can be double
        assert h.holes[player] == before_holes[player] + won
        assert h.holes[1 - player] == before_holes[1 - player]
        assert all(0 <= p < pph for p in h.points)
        if won:
            assert h.points[1 - player] == 0
        assert may_go == (own and won > 0 and not h.finished)
        if then == "go" and may_go:
            h.go(player)
            assert h.points == [0, 0] and h.bred == [True, True]
        elif then == "reset" and not h.finished:
            points = list(h.points)
            h.reset_men()
            assert h.points == points
        assert all(a >= b for a, b in zip(h.holes, before_holes))
    if h.finished:
        assert h.holes[h.winner] >= ladder.holes_to_win > 0
        assert h.multiplier() == 1                        # match_lurch = "off"
