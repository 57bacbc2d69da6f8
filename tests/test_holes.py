"""Points → holes (rules/trictrac.md §5, §6; the Dutch Triktrak, match-scoring §6.2): the
bredouille state machine checked against the treatises' examples, going, the sortie relevé, the
12-hole end and the options T-A1, T-A2, T-A18/M-A23, T-A23."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RecordError
from interpreter.io.sheet import sheet_data
from interpreter.scoring.holes import Holes, HolesLadder

ME, OPP = 0, 1


def play(*marks: tuple[int, int, bool], **options: object) -> Holes:
    h = Holes(HolesLadder(**options))
    for player, n, own in marks:
        h.mark(player, n, own)
    return h


# -- §5.2 checks against the sources ---------------------------------------------------------------

def test_lel_146_interrupted_series_makes_a_single_hole() -> None:
    """LEL n°146: you marked 4, the opponent 4; you score 16 → one single hole, 8 left over."""
    h = play((ME, 4, True), (OPP, 4, True))
    assert h.mark(ME, 16, True) == (1, True)
    assert h.holes == [1, 0] and h.points == [8, 0]


@pytest.mark.parametrize("score, holes, left", [(18, 3, 2), (28, 5, 0)])
def test_lel_147_only_the_first_hole_loses_bredouille(score: int, holes: int, left: int) -> None:
    """LEL n°147: you 8 (not in bredouille), the opponent 8 (in bredouille); scoring 18 makes
    3 holes (1 + 2) and 2 left over; scoring 28 (a 36 total) makes 5 holes."""
    h = play((ME, 8, True), (OPP, 8, True))
    assert h.bred == [False, True]
    assert h.mark(ME, score, True)[0] == holes
    assert h.points[ME] == left and h.points[OPP] == 0


def test_lep_iv_ten_and_thirty_eight_make_seven_holes() -> None:
    """LEP ch. IV (X10): 10 points without bredouille + 38 → 7 holes (1 + 2 + 2 + 2), 0 left."""
    h = play((ME, 6, True), (OPP, 2, False), (ME, 4, True))
    assert h.points[ME] == 10 and not h.bred[ME]
    assert h.mark(ME, 38, True) == (7, True)
    assert h.points == [0, 0]


def test_twenty_four_uninterrupted_points_make_four_holes() -> None:
    """TUT #6, LEP ch. VII: 24 uninterrupted points at once → 4 holes."""
    assert Holes().mark(ME, 24, True) == (4, True)


def test_lep_i_and_ii_worked_examples() -> None:
    """X2: 4 + 12 uninterrupted → 2 holes and 4 left; X6: 2 + 20 → 2 holes and 10 left."""
    h = play((ME, 4, True))
    assert h.mark(ME, 12, True)[0] == 2 and h.points[ME] == 4
    h = play((ME, 2, True))
    assert h.mark(ME, 20, True)[0] == 2 and h.points[ME] == 10


def test_the_dutch_triktrak_tests() -> None:
    """match-scoring §6.2 N1, N2, N4."""
    assert Holes().mark(ME, 12, True) == (2, True)                         # N1
    h = play((ME, 8, True), (OPP, 2, False))
    assert h.mark(ME, 4, True) == (1, True) and h.points == [0, 0]         # N2
    assert Holes().mark(ME, 12, False) == (2, False)                       # N4: no choice


def test_a_hole_clears_the_opponents_points() -> None:
    """§5.1: whenever either player wins a hole the other's points drop to 0."""
    h = play((OPP, 7, True), (ME, 3, False))
    h.mark(ME, 9, True)                   # the second marker, uninterrupted: a double hole
    assert h.points == [0, 0] and h.holes == [2, 0]


# -- the second marker (T-A1) -----------------------------------------------------------------------

def test_second_marker_can_win_double() -> None:
    """LEL n°144, MAL art. XV: the second to mark uses two tokens and can win the hole double;
    the first marker has lost his chance."""
    h = play((ME, 4, True), (OPP, 8, False))
    assert h.bred == [False, True]
    assert h.mark(OPP, 4, True) == (2, True)


def test_second_marker_never_option() -> None:
    """`second_marker_bredouille = "never"`: only the first marker can bredouille."""
    h = play((ME, 4, True), (OPP, 8, False), second_marker_bredouille="never")
    assert h.bred == [False, False]
    assert h.mark(OPP, 4, True) == (1, True)
    h = play((ME, 4, True), second_marker_bredouille="never")
    assert h.mark(ME, 8, True) == (2, True)          # the first marker still can


def test_opponent_marks_after_a_hole_with_leftover() -> None:
    """§5.2 (MAL art. XV, LEL n°158): after the roller's hole with leftover points the opponent
    marks with two tokens and can still win in bredouille; under `never` he cannot."""
    h = play((ME, 14, True))
    assert h.points[ME] == 2 and h.bred[OPP]
    assert h.mark(OPP, 12, False) == (2, False)
    h = play((ME, 14, True), second_marker_bredouille="never")
    assert h.mark(OPP, 12, False) == (1, False)
    h = play((ME, 12, True), second_marker_bredouille="never")     # no leftover: first marker
    assert h.mark(OPP, 12, False) == (2, False)


# -- staying or going (§5.3) ------------------------------------------------------------------------

def test_going_clears_points_and_bredouille_and_keeps_holes() -> None:
    h = play((OPP, 5, False), (ME, 4, True), (OPP, 1, False))
    assert h.mark(ME, 10, True) == (1, True)
    assert h.points == [2, 0]
    h.go(ME)
    assert h.points == [0, 0] and h.bred == [True, True] and h.holes == [1, 0]


def test_going_voids_the_opponents_gains_of_the_roll(tmp_path: Path) -> None:
    """The roller goes before the opponent marks: once the opponent's points from that roll are
    written the roller has stayed, and a go is refused (INTERFACES.md points sheet)."""
    h = play((ME, 12, True))
    h.mark(OPP, 4, False)
    with pytest.raises(RecordError, match="may go only directly after"):
        h.go(ME)
    path = tmp_path / "r.toml"
    path.write_text('variant = "triktrak"\nplayers = ["Alice", "Bob"]\n'
                    'events = ["Alice +12", "Bob +4 on Alice", "Alice go"]\n')
    with pytest.raises(RecordError, match=r"event 2 'Alice go': Alice may go only"):
        sheet_data(path, lambda v, o: HolesLadder(**o))
    path.write_text('variant = "triktrak"\nplayers = ["Alice", "Bob"]\n'
                    'events = ["Alice +12", "Alice go", "Bob +4"]\n')
    result = sheet_data(path, lambda v, o: HolesLadder(**o))
    assert result["players"]["Bob"] == {"holes": 0, "points": 4, "bredouille": True}


def test_no_go_without_a_hole_on_ones_own_roll() -> None:
    """§5.3: holes from the opponent's roll never give the right to go; nor does no hole; marking
    leftover points (staying) gives it up."""
    h = play((ME, 13, False))
    with pytest.raises(RecordError):
        h.go(ME)
    h = play((ME, 5, True))
    with pytest.raises(RecordError):
        h.go(ME)
    h = play((ME, 12, True), (ME, 1, True))
    with pytest.raises(RecordError):
        h.go(ME)


# -- the relevé after a sortie (§5.5, T-A2) -------------------------------------------------------

def test_sortie_releve_keeps_points_and_bredouille() -> None:
    h = play((ME, 4, True), (OPP, 2, False))
    h.reset_men()
    assert h.points == [4, 2] and h.bred == [False, True]
    assert h.mark(ME, 8, True) == (1, True)


def test_sortie_bredouille_reset_option() -> None:
    h = play((ME, 4, True), (OPP, 2, False), sortie_bredouille="reset")
    h.reset_men()
    assert h.points == [4, 2] and h.bred == [True, True]
    # the next marking by the opponent's rules still interrupts: Alice marks, Bob had 2
    assert h.mark(ME, 8, True) == (2, True)


def test_sortie_ends_the_right_to_go() -> None:
    h = play((ME, 12, True))
    h.reset_men()
    with pytest.raises(RecordError):
        h.go(ME)


# -- the 12-hole game (§5.4, §6, T-A23) -------------------------------------------------------------

def test_twelve_holes_end_the_game_even_on_the_opponents_roll() -> None:
    """§5.4, MAL art. XX: reaching 12 holes ends the game at once, from either roll; no go."""
    h = Holes()
    h.holes = [11, 3]
    assert h.mark(ME, 12, False) == (2, False)
    assert h.finished and h.winner == ME
    with pytest.raises(RecordError, match="the game is over"):
        h.mark(OPP, 2, True)


def test_n3_bredouille_hole_past_twelve_wins() -> None:
    """§6.2 N3: at 11 trous a bredouille trou makes 13 ≥ 12: the match is won."""
    h = Holes()
    h.holes = [11, 0]
    assert h.mark(ME, 12, True) == (2, False)
    assert h.finished and h.holes[ME] == 13 and h.multiplier() == 1


def test_last_hole_own_roll_option() -> None:
    """`last_hole = "own_roll"`: the 12th hole won on the opponent's roll does not end the game;
    the next hole won on one's own roll does."""
    h = Holes(HolesLadder(last_hole="own_roll"))
    h.holes = [11, 3]
    assert h.mark(ME, 12, False) == (2, False)
    assert not h.finished and h.holes[ME] == 13
    h.mark(OPP, 5, True)
    assert h.mark(ME, 12, True) == (2, False)
    assert h.finished and h.winner == ME and h.holes[ME] == 15


def test_holes_to_win_zero_never_ends() -> None:
    h = Holes(HolesLadder(holes_to_win=0))
    for _ in range(10):
        assert h.mark(ME, 24, True)[1]
        h.go(ME)
    assert h.holes[ME] == 40 and not h.finished


def _game(ladder: HolesLadder, *scores: tuple[int, int]) -> Holes:
    """Holes won one marking at a time, each on the scorer's own roll, all single holes."""
    h = Holes(ladder)
    for player, n in scores:
        for _ in range(n):
            h.bred[player] = False
            h.mark(player, 12, True)
    return h


@pytest.mark.parametrize("rule, scores, multiplier", [
    ("off", [(ME, 12)], 1),
    ("grande_bredouille", [(ME, 12)], 2),
    ("grande_bredouille", [(OPP, 3), (ME, 12)], 2),          # the pavillon: won second, in a run
    ("grande_bredouille", [(ME, 1), (OPP, 3), (ME, 11)], 1),
    ("mal_xx", [(ME, 12)], 4),
    ("mal_xx", [(OPP, 3), (ME, 12)], 3),
    ("mal_xx", [(ME, 2), (OPP, 5), (ME, 10)], 2),
    ("mal_xx", [(ME, 2), (OPP, 6), (ME, 10)], 1),            # "fewer than 6" (MAL art. XX)
    ("honours", [(ME, 12)], 4),
    ("honours", [(OPP, 5), (ME, 12)], 3),                    # H2
    ("honours", [(ME, 2), (OPP, 6), (ME, 10)], 2),           # H3: "no more than 6"
    ("honours", [(ME, 1), (OPP, 1), (ME, 11)], 2),           # H3: first scorer, O 1
    ("honours", [(ME, 2), (OPP, 7), (ME, 10)], 1),           # H4
])
def test_match_lurch(rule: str, scores: list[tuple[int, int]], multiplier: int) -> None:
    """T-A18 / M-A23 `match_lurch` (match-scoring §6.2; honours schedule §4.2)."""
    h = _game(HolesLadder(match_lurch=rule), *scores)
    assert h.finished and h.winner == ME
    assert h.multiplier() == multiplier


def test_points_sheet_reports_the_end_and_the_multiplier(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('variant = "triktrak"\nplayers = ["Alice", "Bob"]\n'
                    'events = ["Alice +24", "Alice go", "Alice +24", "Alice go", '
                    '"Alice +12 on Bob", "Alice +12 on Bob", "Bob +2"]\n'
                    '[options]\nmatch_lurch = "grande_bredouille"\n')
    with pytest.raises(RecordError, match=r"event 6 'Bob \+2': the game is over: Alice has won"):
        sheet_data(path, lambda v, o: HolesLadder(**o))
    path.write_text(path.read_text().replace(', "Bob +2"', ""))
    result = sheet_data(path, lambda v, o: HolesLadder(**o))
    assert result["finished"] is True and result["winner"] == "Alice"
    assert result["multiplier"] == 2
    assert [e["holes_won"]["Alice"] for e in result["events"]] == [4, 0, 4, 0, 2, 2]


def test_points_stay_below_a_hole_and_marks_must_be_positive() -> None:
    h = Holes(HolesLadder(points_per_hole=6, holes_to_win=0))
    assert h.mark(ME, 13, True) == (4, True) and h.points[ME] == 1
    with pytest.raises(RecordError):
        h.mark(ME, 0, True)
