"""gnubg Position ID, Match ID, GNUbg ID and XGID (spec/backgammon-formats.md §1-§4).

The worked examples are those of the spec (checked there against gnubg 1.07). The "gnubg vectors"
below were produced by GNU Backgammon's own encoder (the PyPI module `gnubg` 1.1.0a16:
`positionid`, `matchid`, and `setgnubgid` reading an XGID) and are kept as fixed data.
"""
from __future__ import annotations

import base64
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from budget import scaled

from interpreter.errors import PositionError, TablierError
from interpreter.io.gnubg import (
    DROPPED,
    GAME_OVER,
    PLAYING,
    RESIGNED,
    MatchInfo,
    decode_any,
    decode_gnubg_id,
    decode_match_id,
    decode_position_id,
    decode_xgid,
    encode_all,
    encode_gnubg_id,
    encode_match_id,
    encode_position_id,
    encode_xgid,
)
from interpreter.kernel.board import BAR, OPP_BAR, SIZE, flip, from_json, from_start, to_json

OPENING = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
RACE = [1, 2, 3, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, -5, -3, 0, -2, -3, -2]
RACE_TURNED = [2, 3, 2, 0, 3, 5, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, 0, -2, -2, -2, -3, -2, -1]


def board(points: list[int], bar: list[int]) -> tuple[int, ...]:
    b = list(from_json({"points": points, "bar": bar}))
    mine = b[BAR] + sum(x for x in points if x > 0)
    theirs = b[OPP_BAR] - sum(x for x in points if x < 0)
    b[0], b[27] = 15 - mine, 15 - theirs
    return tuple(b)


def key_hex(text: str) -> str:
    return base64.b64decode(text + "=" * (-len(text) % 4)).hex()


# --------------------------------------------------------------------------------------------
# Position ID (spec §1.4)

@pytest.mark.parametrize("points, bar, pid, hexkey", [
    (OPENING, [0, 0], "4HPwATDgc/ABMA", "e073f00130e073f00130"),
    (RACE, [1, 0], "u7kPAADttgkIQA", "bbb90f0000edb6090840"),
    (RACE_TURNED, [0, 1], "7bYJCEC7uQ8AAA", "edb6090840bbb90f0000"),
    ([0] * 24, [0, 0], "AAAAAAAAAAAAAA", "00" * 10),
], ids=["opening", "race", "race-turned", "empty"])
def test_position_id_spec_examples(points, bar, pid, hexkey):
    b = decode_position_id(pid)
    assert to_json(b)["points"] == points
    assert to_json(b)["bar"] == bar
    assert b == board(points, bar)
    assert encode_position_id(b) == pid
    assert key_hex(pid)[:20] == hexkey


def test_empty_board_has_everything_off():
    b = decode_position_id("AAAAAAAAAAAAAA")
    assert to_json(b)["off"] == [15, 15]


def test_starting_position_ids():
    opening = from_start({24: 2, 13: 5, 8: 3, 6: 5})
    assert encode_position_id(opening) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == opening
    # The opening is symmetric: the same ID whoever is on roll.
    assert encode_position_id(flip(opening)) == "4HPwATDgc/ABMA"
    # The §3 example: a 5-point match before the first roll, player 1 on roll.
    b, info = decode_gnubg_id("4HPwATDgc/ABMA:cAmgAAAAAAAE")
    assert b == opening
    assert (info.match_length, info.on_roll, info.dice, info.cube_owner) == (5, 1, (0, 0), -1)


def test_turning_the_board_around_changes_the_id():
    b = decode_position_id("u7kPAADttgkIQA")
    assert encode_position_id(flip(b)) == "7bYJCEC7uQ8AAA"


GNUBG_POSITIONS = [  # (points, bar, id) from gnubg.positionid
    ([0, 1, 2, -1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, -1, 1, 2, 3, 0, 0, 0, 0, 0], [0, 2],
     "AAEgTIMA2gEAAA"),
    ([0, 0, 0, -1, 1, -1, 0, 0, 0, 0, -2, 0, 0, 0, -1, 0, 0, 0, -1, -1, 0, 0, 0, 0], [0, 0],
     "UAiDBBAAAAAAAA"),
    ([0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, 0, 0, 1, 1, 1, -1, 0], [0, 0],
     "AiIAQAEAKgAAAA"),
    ([-1, -3, 2, 0, 0, -1, 0, 1, 0, 1, 3, 1, -3, 1, 0, 1, 1, 1, -2, -1, -1, 1, 1, -1], [0, 1],
     "UQMHhCsG6ZIKBQ"),
    ([0, 1, 0, -1, 0, -3, -1, 1, 0, 1, -2, 1, 1, -2, 2, 1, 0, 0, -1, 1, -2, -2, 0, 0], [0, 0],
     "bIIxdAKBpCwEAA"),
    ([0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0], [1, 0],
     "AAAAIAiRggAAAA"),
    ([-1, 1, 0, 2, 1, -1, 3, -1, -1, -1, 0, 1, 1, 0, -1, 2, -1, -1, 1, 0, 1, 0, 0, -1], [1, 3],
     "gRJUgk6Wg2IkBA"),
    ([0, 0, 0, 0, 0, 1, 0, 1, 1, -1, -3, 0, 0, -1, 0, -1, 0, 1, 0, 0, -1, -2, 0, -1], [2, 1],
     "WZC4AARSAAEDAA"),
    ([1, -1, 0, -1, -1, 0, 1, 0, -2, -2, 0, 1, 0, -1, -1, 0, 0, 0, -3, 0, 0, 0, -2, 1], [2, 1],
     "hkNhQ0mBIAA0AA"),
    ([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, 0, 0], [1, 0],
     "BEQAAAIAIAAAAA"),
]


@pytest.mark.parametrize("points, bar, pid", GNUBG_POSITIONS)
def test_position_id_gnubg_vectors(points, bar, pid):
    assert encode_position_id(board(points, bar)) == pid
    assert decode_position_id(pid) == board(points, bar)


# Refused by gnubg ("Invalid position ID"), then the two the spec lets us refuse as well.
@pytest.mark.parametrize("pid, message", [
    ("4HPwATDgc/ABM", "must be 14 base64 characters, not 13"),
    ("4HPwATDgc/ABMAA", "must be 14 base64 characters, not 15"),
    ("4HPwATDgc_ABMA", "'_' is not a base64 character"),
    ("4HPwATDgc/ABM=", "'=' is not a base64 character"),
    ("4P8fAAAAAAAAAA", "the player not on roll has 16 checkers"),
    ("AAAAwP8/AAAAAA", "the player on roll has 16 checkers"),
    ("AAAMAAMAAAAAAA", "both players have checkers on the mover's point 6"),
    ("27YBANC2bQAABA", "both players have checkers on the bar and both home boards are closed"),
    ("////fwAAAAAAAA", "more than 30 checkers"),
    ("//////////////", "non-zero padding bits"),
    ("AAAAAAAABAAAAA", "bits are set after the 50th point separator"),
    ("4HPwATDgc/ABMB", "non-zero padding bits"),
])
def test_position_id_refused(pid, message):
    with pytest.raises(TablierError) as e:
        decode_position_id(pid)
    assert message in str(e.value)
    assert repr(pid) in str(e.value)
    assert str(e.value)[0].islower()


def test_position_id_encoder_refuses_what_cannot_be_read_back():
    with pytest.raises(PositionError, match="16 checkers in play"):
        encode_position_id((0, 16) + (0,) * 26)
    closed = [2] * 6 + [0] * 12 + [-2] * 6
    with pytest.raises(PositionError, match="bar"):
        encode_position_id(board(closed, [1, 1]))


def test_fewer_checkers_hypergammon():
    b = from_start({24: 1, 23: 1, 22: 1})
    b = (0, *b[1:27], 0)
    pid = encode_position_id(b)
    assert decode_position_id(pid, checkers=3) == b
    assert decode_position_id(pid)[0] == 12     # read as standard backgammon: 12 off
    with pytest.raises(TablierError, match="at most 3"):
        decode_position_id("4HPwATDgc/ABMA", checkers=3)


# --------------------------------------------------------------------------------------------
# Match ID (spec §2.3)

@pytest.mark.parametrize("mid, hexkey, fields", [
    ("QYkqASAAIAAA", "41892a012000200000",
     dict(cube=2, cube_owner=0, on_roll=1, turn=1, dice=(5, 2), match_length=9, score=(2, 4),
          jacoby=True)),
    ("QYkqASAAIAAE", "41892a012000200004",
     dict(cube=2, cube_owner=0, on_roll=1, turn=1, dice=(5, 2), match_length=9, score=(2, 4))),
    ("AYF2AAAAAAAE", "018176000000000004",
     dict(cube=2, cube_owner=0, on_roll=0, turn=0, dice=(5, 5), match_length=3)),
    ("sIFuAAAAEAAE", "b0816e000000100004",
     dict(on_roll=0, turn=0, crawford=True, dice=(5, 3), match_length=3, score=(0, 2))),
    ("cAmgAAAAAAAE", None, dict(match_length=5)),
    ("UYl2AAAAAAAE", None, dict(cube=2, cube_owner=1, dice=(5, 5), match_length=3)),
    ("cImqAAAAAAAE", None, dict(dice=(5, 2), match_length=5)),
])
def test_match_id_spec_examples(mid, hexkey, fields):
    info = decode_match_id(mid)
    assert info == MatchInfo(**fields)
    assert encode_match_id(info) == mid
    if hexkey:
        assert key_hex(mid) == hexkey


def test_match_id_dice_order_is_lost():
    info = MatchInfo(dice=(2, 5), match_length=9, score=(2, 4), cube=2, cube_owner=0)
    assert encode_match_id(info) == "QYkqASAAIAAE"
    assert encode_match_id(replace(info, dice=(5, 2))) == "QYkqASAAIAAE"
    assert decode_match_id("QYkqASAAIAAE").dice == (5, 2)


GNUBG_MATCH_IDS = [  # from gnubg.matchid(cubeinfo, posinfo)
    ("8RFgABAAAAAE", dict(cube=2, on_roll=1, crawford=True, turn=0, doubled=True,
                          match_length=3, score=(1, 0))),
    ("AWQTCPADaAEE", dict(cube=2, cube_owner=0, on_roll=0, game_state=DROPPED, turn=0,
                          resigned=3, dice=(6, 4), match_length=64, score=(63, 45))),
    ("EYESAJAA8AAE", dict(cube=2, cube_owner=1, on_roll=0, turn=0, dice=(5, 4),
                          score=(9, 30))),
    ("E0QgAAAAAAAE", dict(cube=8, cube_owner=1, on_roll=0, game_state=DROPPED, turn=0,
                          resigned=2, match_length=1)),
    ("Q3QgAxAAMAAA", dict(cube=8, cube_owner=0, on_roll=1, game_state=DROPPED, turn=0,
                          doubled=True, resigned=3, match_length=25, score=(1, 6), jacoby=True)),
    ("HQIHAGABcAAA", dict(cube=8192, cube_owner=1, on_roll=0, game_state=2, turn=0,
                          dice=(6, 1), score=(22, 14), jacoby=True)),
    ("UMQJCOABCAEE", dict(cube_owner=1, on_roll=1, game_state=DROPPED, turn=0, resigned=2,
                          dice=(3, 2), match_length=64, score=(30, 33))),
    ("MHigADAAIAAE", dict(on_roll=0, game_state=0, turn=1, doubled=True, resigned=3,
                          match_length=5, score=(3, 4))),
    ("G3sAABAA4AAA", dict(cube=2048, cube_owner=1, on_roll=0, game_state=3, turn=1,
                          doubled=True, resigned=3, score=(1, 28), jacoby=True)),
    ("EyDqAFAAIAAA", dict(cube=8, cube_owner=1, on_roll=0, game_state=0, turn=0, resigned=1,
                          dice=(4, 2), match_length=7, score=(5, 4), jacoby=True)),
    ("BGEKAAABiAAE", dict(cube=16, cube_owner=0, on_roll=0, turn=0, resigned=3, dice=(4, 2),
                          score=(16, 17))),
    ("fCtmABAACAAE", dict(cube=4096, on_roll=1, game_state=3, turn=1, resigned=1, dice=(4, 1),
                          match_length=3, score=(1, 1))),
]


@pytest.mark.parametrize("mid, fields", GNUBG_MATCH_IDS)
def test_match_id_gnubg_vectors(mid, fields):
    assert encode_match_id(MatchInfo(**fields)) == mid
    assert decode_match_id(mid) == MatchInfo(**fields)


@pytest.mark.parametrize("mid, message", [
    # refused by gnubg ("Illegal match ID")
    ("cImrAAAAAAAE", "a die shows 7"),
    ("cAkgCAAAAAAE", "match length 65 is above 64"),
    ("cAmgAGAAAAAE", "a score of 6-0 is above the match length 5"),
    ("8AkAAAAAAAAE", "the crawford flag is set in a money game"),
    ("cAmgAAAAAAA", "must be 12 base64 characters, not 11"),
    ("cAmgAAAAAAAE=", "must be 12 base64 characters, not 13"),
    ("cAmgAAAA-AAE", "'-' is not a base64 character"),
    # accepted by gnubg's decoder but impossible states
    ("cA2gAAAAAAAE", "game state 5 does not exist"),
    ("cAmiAAAAAAAE", "only one die is rolled"),
    ("cBmgAAAAAAAE", "while a double is pending, `turn` must be the player who was doubled"),
])
def test_match_id_refused(mid, message):
    with pytest.raises(TablierError) as e:
        decode_match_id(mid)
    assert message in str(e.value)
    assert repr(mid) in str(e.value)


def test_match_id_owner_code_2_reads_as_centred():
    assert decode_match_id("YAmgAAAAAAAE").cube_owner == -1


def test_match_id_keeps_final_scores_up_to_the_length():
    assert decode_match_id(encode_match_id(MatchInfo(match_length=5, score=(5, 3),
                                                     game_state=2))).score == (5, 3)


# --------------------------------------------------------------------------------------------
# XGID (spec §4.5)

@pytest.mark.parametrize("xgid, gnubg_id", [
    ("XGID=-ABCBBB-A------A---ec-bcbA:1:1:1:55:0:0:0:3:10", "u7kPAADttgkIQA:UYl2AAAAAAAE"),
    ("XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10", "u7kPAADttgkIQA:AYF2AAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", "4HPwATDgc/ABMA:cImqAAAAAAAE"),
], ids=["mover-bottom", "mover-top", "opening"])
def test_xgid_spec_examples(xgid, gnubg_id):
    b, info = decode_xgid(xgid)
    assert encode_gnubg_id(b, info) == gnubg_id
    assert encode_xgid(b, info) == xgid
    assert decode_gnubg_id(gnubg_id) == (b, info)


def test_xgid_both_turns_give_the_same_position():
    bottom, i1 = decode_xgid("XGID=-ABCBBB-A------A---ec-bcbA:1:1:1:55:0:0:0:3:10")
    top, i0 = decode_xgid("XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10")
    assert bottom == top == board(RACE, [1, 0])
    assert i1 == i0.swapped()


def test_xgid_canonical_form_puts_the_mover_at_the_bottom():
    b, info = decode_xgid("XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10")
    assert (encode_xgid(b, info, mover_at_bottom=True)
            == "XGID=-ABCBBB-A------A---ec-bcbA:1:1:1:55:0:0:0:3:10")
    assert encode_xgid(b) == "XGID=-ABCBBB-A------A---ec-bcbA:0:0:1:00:0:0:0:0:10"


def test_xgid_dice_order_and_prefixes():
    b, info = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:5:10")
    assert info.dice == (2, 5)
    assert encode_match_id(info) == "cImqAAAAAAAE"
    assert decode_xgid("xgid=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:5:10") == (b, info)
    assert decode_xgid("-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:5:10") == (b, info)


def test_xgid_pending_double():
    b, info = decode_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:5:10")
    assert (info.on_roll, info.turn, info.doubled, info.cube, info.dice) == (1, 0, True, 2, (0, 0))
    assert encode_xgid(b, info) == "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:5:10"


def test_xgid_money_fields():
    b, info = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:8")
    assert (info.jacoby, info.beavers, info.max_cube, info.crawford) == (True, True, 256, False)
    assert encode_xgid(b, info).endswith(":3:0:8")
    b, info = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:2:1:5:10")
    assert (info.crawford, info.jacoby, info.score) == (True, False, (2, 4))


def test_xgid_crawford_flag_nobody_1_away_is_dropped_as_gnubg_reads_it():
    """gnubg.setgnubgid then gnubg.gnubgid: the flag is kept only where a player is 1-away."""
    for xgid, crawford in (("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:2:1:5:10", False),
                           ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:3:1:7:10", False),
                           ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:6:3:1:7:10", True),
                           ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:6:1:7:10", True)):
        assert decode_xgid(xgid)[1].crawford is crawford, xgid


GNUBG_XGIDS = [  # gnubg.setgnubgid(xgid) then gnubg.gnubgid()
    ("XGID=--Aa-aa---Aa-bA---C--Aa--A:7:-1:1:32:0:0:3:0:10", "BDBBCQKEcIQAAA:R4kJAAAAAAAA"),
    ("XGID=-b----E-C---eE---c-e----B-:12:0:1:52:0:0:0:5:10", "4HPwATDgc/ABMA:fImqAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAA"),
    # a Crawford flag nobody is 1-away for: gnubg drops it
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:3:1:7:10", "4HPwATDgc/ABMA:cInqADAAEAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:2:1:5:10", "4HPwATDgc/ABMA:cImqACAAGAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:6:3:1:7:10", "4HPwATDgc/ABMA:8InqADAAMAAE"),
]


@pytest.mark.parametrize("xgid, gnubg_id", GNUBG_XGIDS)
def test_xgid_gnubg_vectors(xgid, gnubg_id):
    assert encode_gnubg_id(*decode_xgid(xgid)) == gnubg_id


X = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("xgid, message", [
    # refused by gnubg ("No valid IDs found" / "Illegal position")
    (f"XGID={X}:0:0:1:52:0:0:0:5", "10 fields"),
    (f"XGID={X}:0:0:1:B:0:0:0:5:10", "beavered and raccooned"),
    (f"XGID={X}:0:0:1:5:0:0:0:5:10", "the dice '5'"),
    (f"XGID={X}:0:0:1:70:0:0:0:5:10", "the dice '70'"),
    (f"XGID=-q{X[2:]}:0:0:1:52:0:0:0:5:10", "'q' is not a point"),
    (f"XGID={X[:-1]}:0:0:1:52:0:0:0:5:10", "26 characters, not 25"),
    (f"XGID={X}:13:0:1:52:0:0:0:5:10", "outside 1 to 4096"),
    (f"XGID={X}:0:0:1:52:5:0:0:5:10", "score 5 is not below the match length 5"),
    (f"XGID={X}:0:0:1:52:0:0:2:5:10", "crawford field must be 0 or 1"),
    (f"XGID={X}:0:0:1:52:0:0:4:0:10", "jacoby/beaver field must be 0 to 3"),
    (f"XGID={X}:0:0:1:52:0:0:0:65:10", "match length 65"),
    (f"XGID={X[:-2]}C-:0:0:1:52:0:0:0:5:10", "the bottom player has 16 checkers"),
    (f"XGID={X[:-1]}b:0:0:1:52:0:0:0:5:10", "the bottom player's bar"),
    # accepted by gnubg, but values XG never writes
    (f"XGID={X}:0:0:0:52:0:0:0:5:10", "the turn must be 1 or -1"),
    (f"XGID={X}:0:2:1:52:0:0:0:5:10", "the cube position must be -1, 0 or 1"),
    (f"XGID={X}:0:0:1:60:0:0:0:5:10", "the dice '60'"),
])
def test_xgid_refused(xgid, message):
    with pytest.raises(TablierError) as e:
        decode_xgid(xgid)
    assert message in str(e.value)
    assert repr(xgid) in str(e.value)


def test_xgid_encoder_refuses_states_it_cannot_hold():
    b = board(OPENING, [0, 0])
    with pytest.raises(TablierError, match="game in progress"):
        encode_xgid(b, MatchInfo(game_state=DROPPED))
    with pytest.raises(TablierError, match="resignation"):
        encode_xgid(b, MatchInfo(resigned=1, turn=0))
    with pytest.raises(TablierError, match="below the length"):
        encode_xgid(b, MatchInfo(match_length=3, score=(3, 1), game_state=PLAYING))


# --------------------------------------------------------------------------------------------
# The JSON of `tablier id encode` / `decode` (INTERFACES.md)

def test_encode_all_default_match():
    out = encode_all({"points": OPENING, "bar": [0, 0], "off": [0, 0], "dice": [3, 1]})
    assert out == {
        "position_id": "4HPwATDgc/ABMA",
        "match_id": "cIkFAAAAAAAE",
        "gnubg_id": "4HPwATDgc/ABMA:cIkFAAAAAAAE",
        "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
    }
    info = decode_match_id(out["match_id"])
    assert (info.match_length, info.cube, info.cube_owner, info.on_roll, info.dice) == \
        (0, 1, -1, 1, (3, 1))


def test_encode_all_with_match():
    match = {"cube": 2, "cube_owner": 0, "on_roll": 0, "dice": [5, 5], "match_length": 3,
             "score": [0, 0]}
    out = encode_all({"points": RACE, "bar": [1, 0]}, match)
    assert out["gnubg_id"] == "u7kPAADttgkIQA:AYF2AAAAAAAE"
    assert out["xgid"] == "XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10"
    assert encode_all({"points": RACE, "bar": [1, 0], "dice": [5, 5]},
                      {**match, "dice": [0, 0]}) == out


def test_encode_all_xgid_is_null_for_a_finished_game():
    out = encode_all({"points": OPENING}, {"match_length": 3, "score": [3, 1],
                                           "game_state": 2})
    assert out["xgid"] is None
    assert out["match_id"] == encode_match_id(MatchInfo(match_length=3, score=(3, 1),
                                                        game_state=2))


@pytest.mark.parametrize("position, match, message", [
    ({"points": OPENING, "dice": [3, 1]}, {"dice": [4, 2]}, "differ"),
    ({"points": OPENING}, {"cube_own": 0}, "unknown `match` field 'cube_own'"),
    ({"points": OPENING}, {"cube": 3}, "`cube` must be a power of two"),
    ({"points": OPENING}, {"crawford": True}, "no crawford game"),
    ({"points": OPENING, "dice": [7, 1]}, None, "'dice'"),
    ({"points": [20] + [0] * 23}, None, "checkers in play"),
    ({"points": OPENING[:23]}, None, "24 integers"),
])
def test_encode_all_refuses_bad_input(position, match, message):
    with pytest.raises(TablierError, match=message):
        encode_all(position, match)


def test_decode_any_shapes():
    assert decode_any("4HPwATDgc/ABMA") == {
        "position": {"points": OPENING, "bar": [0, 0], "off": [0, 0]}}
    assert decode_any("cImqAAAAAAAE") == {"match": {
        "cube": 1, "cube_owner": -1, "on_roll": 1, "crawford": False, "game_state": 1,
        "turn": 1, "doubled": False, "resigned": 0, "dice": [5, 2], "match_length": 5,
        "score": [0, 0], "jacoby": False}}
    both = decode_any("4HPwATDgc/ABMA:cImqAAAAAAAE")
    assert both["position"] == {"points": OPENING, "bar": [0, 0], "off": [0, 0], "dice": [5, 2]}
    assert both["match"] == decode_any("cImqAAAAAAAE")["match"]
    xg = decode_any("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:5:10")
    assert xg["position"]["dice"] == [2, 5]
    assert xg["match"]["max_cube"] == 1024 and xg["match"]["beavers"] is False


def test_decode_then_encode_gives_the_same_ids():
    for text in ("4HPwATDgc/ABMA:cImqAAAAAAAE", "u7kPAADttgkIQA:AYF2AAAAAAAE"):
        d = decode_any(text)
        assert encode_all(d["position"], d["match"])["gnubg_id"] == text
    d = decode_any("XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10")
    match = {k: v for k, v in d["match"].items()}
    assert encode_all(d["position"], match)["xgid"] == \
        "XGID=aBCB-CE---a------a-bbbcba-:1:-1:-1:55:0:0:0:3:10"


@pytest.mark.parametrize("text", ["", "hello", "4HPwATDgc/ABMA:", "a:b:c", "4HPwATDgc/ABMA:cImq"])
def test_decode_any_refuses(text):
    with pytest.raises(TablierError) as e:
        decode_any(text)
    assert repr(text) in str(e.value)


# --------------------------------------------------------------------------------------------
# Properties

@st.composite
def boards(draw, checkers: int = 15):
    b = [0] * SIZE
    mine = draw(st.lists(st.integers(1, 25), max_size=checkers))
    for p in mine:
        b[p] += 1
    free = [p for p in range(1, 25) if b[p] == 0] + [26]
    theirs = draw(st.lists(st.sampled_from(free), max_size=checkers))
    for p in theirs:
        if p == 26:
            b[26] += 1
        else:
            b[p] -= 1
    b[0], b[27] = checkers - len(mine), checkers - len(theirs)
    t = tuple(b)
    assume(not (t[25] and t[26] and all(t[p] >= 2 for p in range(1, 7))
                and all(t[p] <= -2 for p in range(19, 25))))
    return t


dice_st = st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6)))


@st.composite
def match_infos(draw):
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 17, 25, 64]))
    top = length if length else 0x7FFF
    on_roll = draw(st.integers(0, 1))
    doubled = draw(st.booleans())
    dice = (0, 0) if doubled else draw(dice_st)
    return MatchInfo(
        cube=1 << draw(st.integers(0, 15)), cube_owner=draw(st.sampled_from([-1, 0, 1])),
        on_roll=on_roll, crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.integers(0, 4)),
        turn=1 - on_roll if doubled else draw(st.integers(0, 1)), doubled=doubled,
        resigned=draw(st.integers(0, 3)), dice=(max(dice), min(dice)), match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()))


@st.composite
def xgid_infos(draw):
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25, 64]))
    top = length - 1 if length else 0x7FFF
    on_roll = draw(st.integers(0, 1))
    doubled = draw(st.booleans())
    money = not length
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    return MatchInfo(
        cube=1 << draw(st.integers(0, 12)), cube_owner=draw(st.sampled_from([-1, 0, 1])),
        # a Crawford game only where a player is 1-away (gnubg drops the flag elsewhere)
        on_roll=on_roll, crawford=not money and length - 1 in score and draw(st.booleans()),
        turn=1 - on_roll if doubled else on_roll, doubled=doubled,
        dice=(0, 0) if doubled else draw(dice_st), match_length=length, score=score,
        jacoby=money and draw(st.booleans()), beavers=money and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 15)))


@settings(max_examples=scaled(300), deadline=None)
@given(boards())
def test_position_id_round_trip(b):
    pid = encode_position_id(b)
    assert len(pid) == 14
    assert decode_position_id(pid) == b


@settings(max_examples=scaled(100), deadline=None)
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(st.just(n), boards(n))))
def test_position_id_round_trip_fewer_checkers(case):
    n, b = case
    assert decode_position_id(encode_position_id(b), checkers=n) == b


@settings(max_examples=scaled(300), deadline=None)
@given(match_infos())
def test_match_id_round_trip(info):
    mid = encode_match_id(info)
    assert len(mid) == 12
    assert decode_match_id(mid) == info


@settings(max_examples=scaled(300), deadline=None)
@given(boards(), xgid_infos())
def test_xgid_round_trip(b, info):
    xgid = encode_xgid(b, info)
    assert decode_xgid(xgid) == (b, info)
    # The mover-at-bottom form describes the same game with the seats exchanged when the
    # mover is player 0.
    canon = encode_xgid(b, info, mover_at_bottom=True)
    assert canon.split(":")[3] == "1"
    assert decode_xgid(canon) == (b, info if info.on_roll == 1 else info.swapped())


@settings(max_examples=scaled(200), deadline=None)
@given(boards(), match_infos())
def test_json_round_trip(b, info):
    position = {**to_json(b)}
    if info.dice != (0, 0):
        position["dice"] = list(info.dice)
    out = encode_all(position, info.to_json())
    back = decode_any(out["gnubg_id"])
    assert back["position"] == position
    assert back["match"] == info.to_json()
    assert decode_any(out["position_id"]) == {"position": to_json(b)}
    if out["xgid"] is not None:
        xb, xi = decode_xgid(out["xgid"])
        assert xb == b and (xi.on_roll, xi.score, xi.cube) == (info.on_roll, info.score,
                                                                info.cube)


def test_match_id_of_a_finished_match_won_past_its_length_round_trips():
    # gnubg's final state of a 3-point match won 6-1 (a resigned gammon doubled: 2 x 2 + 1);
    # the winner's score passes the length only once the game is over, the loser's never
    mid = "EUtgABAAMAAE"
    info = decode_match_id(mid)
    assert (info.match_length, info.score, info.game_state) == (3, (1, 6), RESIGNED)
    assert encode_match_id(info) == mid
    out = encode_all({"points": [0] * 24, "bar": [0, 0], "off": [15, 15]},
                     info.to_json())
    assert out["match_id"] == mid
    assert decode_match_id(out["match_id"]) == info
    with pytest.raises(TablierError, match="both players at the match length"):
        encode_match_id(MatchInfo(match_length=3, score=(3, 6), game_state=GAME_OVER))
    with pytest.raises(TablierError, match="while the game is not over"):
        encode_match_id(MatchInfo(match_length=3, score=(1, 6), game_state=PLAYING))


def test_id_encode_command_writes_the_finished_match(capsys):
    import io
    import json
    import sys

    from interpreter.cli import main

    line = json.dumps({"position": {"points": [0] * 24, "bar": [0, 0], "off": [15, 15]},
                       "match": decode_match_id("EUtgABAAMAAE").to_json()})
    old = sys.stdin
    sys.stdin = io.StringIO(line + "\n")
    try:
        assert main(["id", "encode"]) == 0
    finally:
        sys.stdin = old
    assert json.loads(capsys.readouterr().out)["match_id"] == "EUtgABAAMAAE"
