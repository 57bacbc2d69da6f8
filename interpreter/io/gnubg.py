"""Backgammon identifiers: gnubg Position ID, Match ID, GNUbg ID and eXtreme Gammon's XGID.

The formats are described in ``spec/backgammon-formats.md``; this module follows gnubg wherever
the documents and gnubg disagree. Boards are the 28-int tuples of :mod:`interpreter.kernel.board`,
seen from the player on roll (the *mover*); match state is a :class:`MatchInfo`, which numbers the
players 0 and 1 as gnubg does (player 0 is the left column of a ``.mat`` file and the top player of
an XGID, player 1 the right column and the bottom player).

>>> from interpreter.kernel.board import from_start
>>> opening = from_start({24: 2, 13: 5, 8: 3, 6: 5})
>>> encode_position_id(opening)
'4HPwATDgc/ABMA'
>>> decode_match_id('cAmgAAAAAAAE').match_length
5
>>> encode_xgid(opening, MatchInfo(dice=(5, 2), match_length=5))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10'

Every decoder refuses, with a :class:`~interpreter.errors.TablierError` quoting the identifier,
what gnubg refuses (wrong length, characters outside the alphabet, more than 15 checkers a side,
impossible fields), and a little more where the spec allows a stricter reading (non-zero padding
bits, a pending double with the wrong player to act).
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from interpreter.errors import PositionError, TablierError
from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, SIZE, Board, flip, from_json

__all__ = [
    "CHECKERS", "MAX_MATCH_LENGTH", "NO_GAME", "PLAYING", "GAME_OVER", "RESIGNED", "DROPPED",
    "MatchInfo", "encode_position_id", "decode_position_id", "encode_match_id", "decode_match_id",
    "encode_gnubg_id", "decode_gnubg_id", "encode_xgid", "decode_xgid", "encode_all", "decode_any",
]

CHECKERS = 15
"""Checkers per side in standard backgammon and nackgammon (borne-off counts are derived from
it)."""
MAX_MATCH_LENGTH = 64
"""gnubg's MAXSCORE: longer matches are refused by its Match ID and XGID readers."""

# Match ID game states (bits 8-10).
NO_GAME, PLAYING, GAME_OVER, RESIGNED, DROPPED = range(5)

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_B64 = re.compile(r"[A-Za-z0-9+/]*")
_MAX_CUBE_LOG = 15          # 4 bits in the Match ID
_XGID_MAX_CUBE_LOG = 12     # gnubg refuses an XGID cube above 4096


def _err(message: str) -> TablierError:
    return TablierError(message)


# --------------------------------------------------------------------------------------------
# Bit keys (spec §0): bit i is bit i % 8 of byte i // 8; fields are stored LSB-first.

def _get_bits(key: bytes, offset: int, width: int) -> int:
    value = 0
    for k in range(width):
        i = offset + k
        if key[i // 8] >> (i % 8) & 1:
            value |= 1 << k
    return value


def _set_bits(key: bytearray, offset: int, width: int, value: int) -> None:
    for k in range(width):
        if value >> k & 1:
            i = offset + k
            key[i // 8] |= 1 << (i % 8)


def _b64_key(text: str, length: int, nbytes: int, what: str) -> bytes:
    """The key under a Base64 ID of exactly `length` characters, refusing non-canonical text."""
    if not isinstance(text, str):
        raise _err(f"a {what} must be a string, not {text!r}")
    if len(text) != length:
        raise _err(f"invalid {what} {text!r}: it must be {length} base64 characters, "
                   f"not {len(text)}")
    if not _B64.fullmatch(text):
        bad = next(c for c in text if not _B64.fullmatch(c))
        raise _err(f"invalid {what} {text!r}: {bad!r} is not a base64 character "
                   f"(A-Z a-z 0-9 + /)")
    padded = text + "=" * (-len(text) % 4)
    try:
        key = base64.b64decode(padded, validate=True)
    except binascii.Error as e:  # pragma: no cover - the checks above leave no way here
        raise _err(f"invalid {what} {text!r}: {e}") from None
    if base64.b64encode(key).decode()[:length] != text:
        raise _err(f"invalid {what} {text!r}: the last character carries non-zero padding bits")
    assert len(key) == nbytes
    return key


def _key_b64(key: bytes | bytearray, length: int) -> str:
    return base64.b64encode(bytes(key)).decode()[:length]


# --------------------------------------------------------------------------------------------
# Boards

def _in_play(b: Board) -> tuple[int, int]:
    """Checkers of (mover, opponent) on the points and on the bar."""
    mine = b[BAR] + sum(x for x in b[1:25] if x > 0)
    theirs = b[OPP_BAR] - sum(x for x in b[1:25] if x < 0)
    return mine, theirs


def _board_fault(b: Board, checkers: int) -> str | None:
    """Why gnubg would refuse this arrangement (spec §1.3), or None."""
    mine, theirs = _in_play(b)
    if mine > checkers:
        return f"the player on roll has {mine} checkers in play (at most {checkers})"
    if theirs > checkers:
        return f"the player not on roll has {theirs} checkers in play (at most {checkers})"
    if (b[BAR] and b[OPP_BAR] and all(b[p] >= 2 for p in range(1, 7))
            and all(b[p] <= -2 for p in range(19, 25))):
        return "both players have checkers on the bar and both home boards are closed"
    return None


def _check_board(board: Any, checkers: int = CHECKERS) -> Board:
    """A 28-int board acceptable to the encoders, or PositionError."""
    if not (isinstance(board, (tuple, list)) and len(board) == SIZE
            and all(isinstance(x, int) and not isinstance(x, bool) for x in board)):
        raise PositionError(f"a board must be a tuple of {SIZE} integers, not {board!r}")
    b = tuple(board)
    for i in (OFF, BAR, OPP_BAR, OPP_OFF):
        if b[i] < 0:
            raise PositionError(f"board entry {i} must not be negative: {b!r}")
    fault = _board_fault(b, checkers)
    if fault:
        raise PositionError(f"not a position the identifiers can hold: {fault}: {b!r}")
    return b


def _with_off(b: list[int], checkers: int) -> Board:
    """Fill in the borne-off counts implied by the checkers in play (spec §0)."""
    b[OFF] = b[OPP_OFF] = 0
    mine, theirs = _in_play(tuple(b))
    b[OFF], b[OPP_OFF] = checkers - mine, checkers - theirs
    return tuple(b)


# --------------------------------------------------------------------------------------------
# Position ID (spec §1)

def encode_position_id(board: Board) -> str:
    """The 14-character gnubg Position ID of a board (seen from the player on roll).

    The borne-off counts are not part of the ID. Raises PositionError for a board gnubg could not
    read back (more than 15 checkers in play a side, both sides on the bar behind closed boards).
    """
    b = _check_board(board)
    bits: list[int] = []
    # The player not on roll first, in his own numbering: his point j is the mover's pip 25 - j.
    for j in range(1, 25):
        bits += [1] * max(0, -b[25 - j]) + [0]
    bits += [1] * b[OPP_BAR] + [0]
    for k in range(1, 25):
        bits += [1] * max(0, b[k]) + [0]
    bits += [1] * b[BAR] + [0]
    key = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            key[i // 8] |= 1 << (i % 8)
    return _key_b64(key, POSITION_ID_LENGTH)


def decode_position_id(text: str, checkers: int = CHECKERS) -> Board:
    """The board of a Position ID, seen from the player on roll.

    `checkers` is the number each side starts with (15; 1 to 3 in hypergammon): the borne-off
    counts are that number minus the checkers in play.

    >>> decode_position_id('AAAAAAAAAAAAAA')[0], decode_position_id('AAAAAAAAAAAAAA')[27]
    (15, 15)
    """
    key = _b64_key(text, POSITION_ID_LENGTH, 10, "position id")
    slots: list[int] = []
    run = 0
    for i in range(80):
        bit = key[i // 8] >> (i % 8) & 1
        if len(slots) == 50:
            if bit:
                raise _err(f"invalid position id {text!r}: bits are set after the 50th point "
                           f"separator (more than 30 checkers)")
            continue
        if bit:
            run += 1
        else:
            slots.append(run)
            run = 0
    if len(slots) < 50:
        raise _err(f"invalid position id {text!r}: it holds more than 30 checkers")
    theirs, mine = slots[:25], slots[25:]
    for who, side in (("the player not on roll", theirs), ("the player on roll", mine)):
        if sum(side) > checkers:
            raise _err(f"invalid position id {text!r}: {who} has {sum(side)} checkers "
                       f"(at most {checkers})")
    b = [0] * SIZE
    for k in range(1, 25):
        if mine[k - 1] and theirs[24 - k]:
            raise _err(f"invalid position id {text!r}: both players have checkers on the "
                       f"mover's point {k}")
        b[k] = mine[k - 1] - theirs[24 - k]
    b[BAR], b[OPP_BAR] = mine[24], theirs[24]
    board = _with_off(b, checkers)
    fault = _board_fault(board, checkers)
    if fault:
        raise _err(f"invalid position id {text!r}: {fault}")
    return board


# --------------------------------------------------------------------------------------------
# Match state

def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _log2(n: int) -> int | None:
    return n.bit_length() - 1 if _is_int(n) and n > 0 and n & (n - 1) == 0 else None


def _over_length(score: tuple[int, int], length: int, state: int) -> str | None:
    """Why a score cannot be a match's at this game state, or None. The score of a match
    still in play stays within its length; once the match's last game is over (by play, a
    resignation or a dropped double) the winner's score may pass it, as gnubg writes the final
    state (a 3-point match won 6-1: `EUtgABAAMAAE`) — the loser's may not reach it."""
    if not length or max(score) <= length:
        return None
    if state in (GAME_OVER, RESIGNED, DROPPED) and min(score) < length:
        return None
    if state in (GAME_OVER, RESIGNED, DROPPED):
        return (f"a score of {score[0]}-{score[1]} has both players at the match length "
                f"{length} or above")
    return (f"a score of {score[0]}-{score[1]} is above the match length {length} while "
            f"the game is not over")


@dataclass(frozen=True)
class MatchInfo:
    """Everything the Match ID (and the XGID) holds besides the checkers.

    Players are gnubg's 0 and 1. `cube` is the cube value (1, 2, 4, ...), `cube_owner` -1 when
    centred. `on_roll` is the player who is to roll or has rolled (the position is seen from his
    side); `turn` the player who must act now (the other one while a double or a resignation
    waits for an answer). `dice` is ``(0, 0)`` before the roll. `match_length` 0 is a money
    session. `score` is ``(player 0, player 1)``. `jacoby` is true when the Jacoby rule applies
    (gnubg clears it in every match). `beavers` and `max_cube` exist only in the XGID (money
    play, and the highest cube allowed).
    """

    cube: int = 1
    cube_owner: int = -1
    on_roll: int = 1
    crawford: bool = False
    game_state: int = PLAYING
    turn: int = 1
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1024

    def fault(self) -> str | None:
        """Why this state cannot be written as a Match ID, or None."""
        for name in ("crawford", "doubled", "jacoby", "beavers"):
            if not isinstance(getattr(self, name), bool):
                return f"`{name}` must be true or false, not {getattr(self, name)!r}"
        log = _log2(self.cube)
        if log is None or log > _MAX_CUBE_LOG:
            return f"`cube` must be a power of two from 1 to 32768, not {self.cube!r}"
        if self.cube_owner not in (-1, 0, 1) or not _is_int(self.cube_owner):
            return f"`cube_owner` must be -1 (centred), 0 or 1, not {self.cube_owner!r}"
        for name in ("on_roll", "turn"):
            if getattr(self, name) not in (0, 1) or not _is_int(getattr(self, name)):
                return f"`{name}` must be 0 or 1, not {getattr(self, name)!r}"
        if not _is_int(self.game_state) or not 0 <= self.game_state <= 4:
            return f"`game_state` must be 0 to 4, not {self.game_state!r}"
        if not _is_int(self.resigned) or not 0 <= self.resigned <= 3:
            return f"`resigned` must be 0 to 3, not {self.resigned!r}"
        d = self.dice
        if not (isinstance(d, tuple) and len(d) == 2 and all(_is_int(x) for x in d)
                and (d == (0, 0) or all(1 <= x <= 6 for x in d))):
            return f"`dice` must be two numbers from 1 to 6, or [0, 0], not {d!r}"
        if not _is_int(self.match_length) or not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            return (f"`match_length` must be 0 (money) to {MAX_MATCH_LENGTH}, "
                    f"not {self.match_length!r}")
        s = self.score
        if not (isinstance(s, tuple) and len(s) == 2
                and all(_is_int(x) and 0 <= x <= 0x7FFF for x in s)):
            return f"`score` must be two numbers from 0 to 32767, not {s!r}"
        over = _over_length(s, self.match_length, self.game_state)
        if over:
            return over
        if self.crawford and not self.match_length:
            return "a money session has no crawford game"
        if self.doubled:
            if self.turn == self.on_roll:
                return "while a double is pending, `turn` must be the player who was doubled"
            if d != (0, 0):
                return "a double is offered before the dice are rolled"
        log = _log2(self.max_cube)
        if log is None or log > _MAX_CUBE_LOG:
            return f"`max_cube` must be a power of two from 1 to 32768, not {self.max_cube!r}"
        return None

    def swapped(self) -> MatchInfo:
        """The same state with players 0 and 1 exchanged."""
        return replace(self, on_roll=1 - self.on_roll, turn=1 - self.turn,
                       cube_owner=self.cube_owner if self.cube_owner < 0 else 1 - self.cube_owner,
                       score=(self.score[1], self.score[0]))

    def to_json(self, *, xgid: bool = False) -> dict[str, Any]:
        """The `match` object of `tablier id decode` (INTERFACES.md); `beavers` and `max_cube`
        are included only for an XGID, the one format that holds them."""
        out: dict[str, Any] = {
            "cube": self.cube, "cube_owner": self.cube_owner, "on_roll": self.on_roll,
            "crawford": self.crawford, "game_state": self.game_state, "turn": self.turn,
            "doubled": self.doubled, "resigned": self.resigned, "dice": list(self.dice),
            "match_length": self.match_length, "score": list(self.score), "jacoby": self.jacoby,
        }
        if xgid:
            out["beavers"] = self.beavers
            out["max_cube"] = self.max_cube
        return out

    @classmethod
    def from_json(cls, obj: Any) -> MatchInfo:
        """Read the `match` object of `tablier id encode`. Missing fields take the defaults (a
        money game, player 1 on roll, centred cube); `turn` defaults to the player on roll, or to
        the other player while a double is pending. Raises TablierError naming the field."""
        if obj is None:
            return cls()
        if not isinstance(obj, dict):
            raise _err(f"`match` must be a JSON object, not {obj!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise _err(f"unknown `match` field {unknown[0]!r} (expected one of "
                       f"{', '.join(sorted(known))})")
        values: dict[str, Any] = {}
        for name, value in obj.items():
            if name in ("crawford", "doubled", "jacoby", "beavers"):
                if value in (0, 1) and not isinstance(value, float):
                    value = bool(value)
            elif name in ("dice", "score"):
                if isinstance(value, list):
                    value = tuple(value)
            values[name] = value
        if "turn" not in values:
            on_roll = values.get("on_roll", 1)
            if values.get("doubled") and on_roll in (0, 1):
                values["turn"] = 1 - on_roll
            else:
                values["turn"] = on_roll
        info = cls(**values)
        fault = info.fault()
        if fault:
            raise _err(f"invalid `match`: {fault}")
        return info


def _checked_info(info: MatchInfo | None) -> MatchInfo:
    if info is None:
        return MatchInfo()
    if not isinstance(info, MatchInfo):
        raise _err(f"expected a MatchInfo, not {info!r}")
    fault = info.fault()
    if fault:
        raise _err(f"invalid match state: {fault}")
    return info


# --------------------------------------------------------------------------------------------
# Match ID (spec §2)

def encode_match_id(info: MatchInfo) -> str:
    """The 12-character gnubg Match ID of a match state (the dice are written higher first)."""
    info = _checked_info(info)
    key = bytearray(9)
    _set_bits(key, 0, 4, _log2(info.cube) or 0)
    _set_bits(key, 4, 2, 3 if info.cube_owner < 0 else info.cube_owner)
    _set_bits(key, 6, 1, info.on_roll)
    _set_bits(key, 7, 1, int(info.crawford))
    _set_bits(key, 8, 3, info.game_state)
    _set_bits(key, 11, 1, info.turn)
    _set_bits(key, 12, 1, int(info.doubled))
    _set_bits(key, 13, 2, info.resigned)
    high, low = max(info.dice), min(info.dice)
    _set_bits(key, 15, 3, high)
    _set_bits(key, 18, 3, low)
    _set_bits(key, 21, 15, info.match_length)
    _set_bits(key, 36, 15, info.score[0])
    _set_bits(key, 51, 15, info.score[1])
    _set_bits(key, 66, 1, 0 if info.jacoby else 1)
    return _key_b64(key, MATCH_ID_LENGTH)


def decode_match_id(text: str) -> MatchInfo:
    """The match state of a Match ID, fields exactly as stored (dice higher first).

    gnubg's own normalisation on input (stepping back a pending double, dropping a Crawford flag
    nobody is 1-away for) is left to the game logic. Owner code 2, which gnubg never writes, is
    read as centred, as gnubg reads it.
    """
    key = _b64_key(text, MATCH_ID_LENGTH, 9, "match id")
    owner = _get_bits(key, 4, 2)
    dice = (_get_bits(key, 15, 3), _get_bits(key, 18, 3))
    if 7 in dice:
        raise _err(f"invalid match id {text!r}: a die shows 7")
    if 0 in dice and dice != (0, 0):
        raise _err(f"invalid match id {text!r}: only one die is rolled ({dice[0]} and {dice[1]})")
    state = _get_bits(key, 8, 3)
    if state > 4:
        raise _err(f"invalid match id {text!r}: game state {state} does not exist (0 to 4)")
    length = _get_bits(key, 21, 15)
    if length > MAX_MATCH_LENGTH:
        raise _err(f"invalid match id {text!r}: match length {length} is above "
                   f"{MAX_MATCH_LENGTH}")
    score = (_get_bits(key, 36, 15), _get_bits(key, 51, 15))
    over = _over_length(score, length, state)
    if over:
        raise _err(f"invalid match id {text!r}: {over}")
    crawford = bool(_get_bits(key, 7, 1))
    if crawford and not length:
        raise _err(f"invalid match id {text!r}: the crawford flag is set in a money game")
    info = MatchInfo(
        cube=1 << _get_bits(key, 0, 4),
        cube_owner=owner if owner in (0, 1) else -1,
        on_roll=_get_bits(key, 6, 1),
        crawford=crawford,
        game_state=state,
        turn=_get_bits(key, 11, 1),
        doubled=bool(_get_bits(key, 12, 1)),
        resigned=_get_bits(key, 13, 2),
        dice=(max(dice), min(dice)),
        match_length=length,
        score=score,
        jacoby=not _get_bits(key, 66, 1),
    )
    fault = info.fault()
    if fault:
        raise _err(f"invalid match id {text!r}: {fault}")
    return info


# --------------------------------------------------------------------------------------------
# GNUbg ID (spec §3)

def encode_gnubg_id(board: Board, info: MatchInfo) -> str:
    """``"<Position ID>:<Match ID>"``; the board is seen from ``info.on_roll``."""
    return f"{encode_position_id(board)}:{encode_match_id(info)}"


def decode_gnubg_id(text: str, checkers: int = CHECKERS) -> tuple[Board, MatchInfo]:
    """Read ``"<Position ID>:<Match ID>"`` (gnubg also takes the two the other way round)."""
    if not isinstance(text, str):
        raise _err(f"a gnubg id must be a string, not {text!r}")
    parts = text.strip().split(":")
    if len(parts) != 2:
        raise _err(f"invalid gnubg id {text!r}: expected <position id>:<match id>")
    pos, mid = parts
    if len(pos) == MATCH_ID_LENGTH and len(mid) == POSITION_ID_LENGTH:
        pos, mid = mid, pos
    try:
        board = decode_position_id(pos, checkers)
        info = decode_match_id(mid)
    except TablierError as e:
        raise _err(f"invalid gnubg id {text!r}: {e}") from None
    return board, info


# --------------------------------------------------------------------------------------------
# XGID (spec §4)

_XG_POINT = re.compile(r"[-A-Pa-p]")


def _xg_char(n: int) -> str:
    """A signed count from the bottom player's view: uppercase for his checkers."""
    if n > 0:
        return chr(ord("A") + n - 1)
    if n < 0:
        return chr(ord("a") - n - 1)
    return "-"


def encode_xgid(board: Board, info: MatchInfo | None = None, *,
                mover_at_bottom: bool = False) -> str:
    """An XGID for the board (seen from ``info.on_roll``) and match state.

    The bottom player of an XGID is gnubg's player 1, so the mover is written at the bottom
    whenever he is player 1, which is always the case without `info`; gnubg then reads back
    exactly `info`. With ``mover_at_bottom=True`` the mover is put at the bottom whatever his
    number (the players are then exchanged for a mover who is player 0).

    The XGID holds a game in progress only: a state with a pending resignation, a game that is
    not being played, or a score that reached the match length is refused with TablierError.
    The dice keep their order; field 10 is ``log2(info.max_cube)`` (10 by default).
    """
    b = _check_board(board)
    info = _checked_info(info)
    if mover_at_bottom and info.on_roll == 0:
        info = info.swapped()
    if info.game_state != PLAYING:
        raise _err(f"an xgid holds only a game in progress, not game state {info.game_state}")
    if info.resigned:
        raise _err("an xgid cannot hold a pending resignation")
    if info.turn != info.on_roll and not info.doubled:
        raise _err("an xgid cannot hold a turn for the player not on roll without a double")
    if info.match_length and max(info.score) >= info.match_length:
        raise _err(f"an xgid cannot hold a score of {info.score[0]}-{info.score[1]} in a "
                   f"{info.match_length}-point match (a score must be below the length)")
    cube_log = _log2(info.cube) or 0
    if cube_log > _XGID_MAX_CUBE_LOG:
        raise _err(f"an xgid cannot hold a cube of {info.cube} (at most 4096)")
    if info.match_length and info.beavers:
        raise _err("an xgid holds beavers for money play only")
    # The position string is written from the bottom player's side (player 1).
    view = b if info.on_roll == 1 else flip(b)
    chars = [_xg_char(-view[OPP_BAR])]
    chars += [_xg_char(view[i]) for i in range(1, 25)]
    chars.append(_xg_char(view[BAR]))
    owner = {-1: 0, 0: -1, 1: 1}[info.cube_owner]
    turn = 1 if info.on_roll == 1 else -1
    if info.doubled:
        dice = "D"
    elif info.dice == (0, 0):
        dice = "00"
    else:
        dice = f"{info.dice[0]}{info.dice[1]}"
    if info.match_length:
        flags = int(info.crawford)
    else:
        flags = int(info.jacoby) | int(info.beavers) << 1
    max_cube = _log2(info.max_cube) or 0
    return (f"XGID={''.join(chars)}:{cube_log}:{owner}:{turn}:{dice}:{info.score[1]}:"
            f"{info.score[0]}:{flags}:{info.match_length}:{max_cube}")


def _xg_int(text: str, field: str, name: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,5}", field):   # ASCII digits: int() reads any script's
        raise _err(f"invalid xgid {text!r}: the {name} {field!r} is not a number")
    return int(field)


def decode_xgid(text: str, checkers: int = CHECKERS) -> tuple[Board, MatchInfo]:
    """The board (seen from the player on roll) and the match state gnubg reads from an XGID.

    The bottom player is gnubg's player 1 and the top player player 0, whichever is on roll.
    ``D`` in the dice field gives a pending double: the doubler on roll, the other player to act.
    The ``XGID=`` prefix is optional.
    """
    if not isinstance(text, str):
        raise _err(f"an xgid must be a string, not {text!r}")
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    parts = body.split(":")
    if len(parts) != 10:
        raise _err(f"invalid xgid {text!r}: it must have 10 fields separated by ':', "
                   f"not {len(parts)}")
    pos, f_cube, f_owner, f_turn, f_dice, f_bottom, f_top, f_flags, f_length, f_max = parts
    if len(pos) != 26:
        raise _err(f"invalid xgid {text!r}: the position must be 26 characters, not {len(pos)}")
    for c in pos:
        if not _XG_POINT.fullmatch(c):
            raise _err(f"invalid xgid {text!r}: {c!r} is not a point of an xgid position "
                       f"('-', A-P, a-p)")
    if pos[0].isupper():
        raise _err(f"invalid xgid {text!r}: the top player's bar (first character) holds "
                   f"the bottom player's checkers")
    if pos[25].islower():
        raise _err(f"invalid xgid {text!r}: the bottom player's bar (last character) holds "
                   f"the top player's checkers")

    def count(c: str) -> int:
        if c == "-":
            return 0
        return ord(c) - ord("A") + 1 if c.isupper() else -(ord(c) - ord("a") + 1)

    view = [0] * SIZE
    for i in range(1, 25):
        view[i] = count(pos[i])
    view[BAR] = count(pos[25])
    view[OPP_BAR] = -count(pos[0])
    bottom, top = _in_play(tuple(view))
    for who, n in (("bottom", bottom), ("top", top)):
        if n > checkers:
            raise _err(f"invalid xgid {text!r}: the {who} player has {n} checkers "
                       f"(at most {checkers})")

    cube_log = _xg_int(text, f_cube, "cube")
    if not 0 <= cube_log <= _XGID_MAX_CUBE_LOG:
        raise _err(f"invalid xgid {text!r}: the cube 2^{cube_log} is outside 1 to 4096")
    owner = _xg_int(text, f_owner, "cube position")
    if owner not in (-1, 0, 1):
        raise _err(f"invalid xgid {text!r}: the cube position must be -1, 0 or 1, not {owner}")
    turn = _xg_int(text, f_turn, "turn")
    if turn not in (-1, 1):
        raise _err(f"invalid xgid {text!r}: the turn must be 1 or -1, not {turn}")
    doubled = False
    if f_dice == "D":
        doubled, dice = True, (0, 0)
    elif f_dice in ("B", "R"):
        raise _err(f"invalid xgid {text!r}: beavered and raccooned cubes ({f_dice!r}) are not "
                   f"supported")
    elif f_dice == "00":
        dice = (0, 0)
    elif re.fullmatch(r"[1-6][1-6]", f_dice):
        dice = (int(f_dice[0]), int(f_dice[1]))
    else:
        raise _err(f"invalid xgid {text!r}: the dice {f_dice!r} must be '00', 'D' or two "
                   f"numbers from 1 to 6")
    score_bottom = _xg_int(text, f_bottom, "bottom player's score")
    score_top = _xg_int(text, f_top, "top player's score")
    flags = _xg_int(text, f_flags, "crawford/jacoby field")
    length = _xg_int(text, f_length, "match length")
    max_log = _xg_int(text, f_max, "maximum cube")
    if not 0 <= length <= MAX_MATCH_LENGTH:
        raise _err(f"invalid xgid {text!r}: the match length {length} is outside 0 to "
                   f"{MAX_MATCH_LENGTH}")
    for name, s in (("bottom", score_bottom), ("top", score_top)):
        if not 0 <= s <= 0x7FFF:
            raise _err(f"invalid xgid {text!r}: the {name} player's score {s} is out of range")
        if length and s >= length:
            raise _err(f"invalid xgid {text!r}: the {name} player's score {s} is not below the "
                       f"match length {length}")
    if length and flags not in (0, 1):
        raise _err(f"invalid xgid {text!r}: in a match the crawford field must be 0 or 1, "
                   f"not {flags}")
    if not length and not 0 <= flags <= 3:
        raise _err(f"invalid xgid {text!r}: in money play the jacoby/beaver field must be 0 "
                   f"to 3, not {flags}")
    if not 0 <= max_log <= _MAX_CUBE_LOG:
        raise _err(f"invalid xgid {text!r}: the maximum cube 2^{max_log} is out of range")

    on_roll = 1 if turn == 1 else 0
    board = _with_off(view if on_roll == 1 else list(flip(tuple(view))), checkers)
    fault = _board_fault(board, checkers)
    if fault:
        raise _err(f"invalid xgid {text!r}: {fault}")
    info = MatchInfo(
        cube=1 << cube_log,
        cube_owner={1: 1, -1: 0, 0: -1}[owner],
        on_roll=on_roll,
        # as gnubg reads it: a Crawford flag while nobody is 1-away is dropped
        crawford=bool(length and flags and length - 1 in (score_top, score_bottom)),
        game_state=PLAYING,
        turn=1 - on_roll if doubled else on_roll,
        doubled=doubled,
        resigned=0,
        dice=dice,
        match_length=length,
        score=(score_top, score_bottom),
        jacoby=bool(not length and flags & 1),
        beavers=bool(not length and flags & 2),
        max_cube=1 << max_log,
    )
    return board, info


# --------------------------------------------------------------------------------------------
# The JSON of `tablier id encode` / `tablier id decode` (INTERFACES.md)

def _position_json(board: Board, dice: tuple[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {"points": list(board[1:25]), "bar": [board[BAR], board[OPP_BAR]],
                           "off": [board[OFF], board[OPP_OFF]]}
    if dice != (0, 0):
        out["dice"] = list(dice)
    return out


def _position_dice(position: dict[str, Any]) -> tuple[int, int] | None:
    dice = position.get("dice")
    if dice is None or dice == [] or dice == [0, 0]:
        return None
    if not (isinstance(dice, list) and len(dice) == 2
            and all(_is_int(x) and 1 <= x <= 6 for x in dice)):
        raise PositionError(f"'dice' must be two numbers from 1 to 6, not {dice!r}")
    return dice[0], dice[1]


def encode_all(position: dict[str, Any], match: dict[str, Any] | None = None) -> dict[str, Any]:
    """One output line of `tablier id encode`: all four identifiers of a position JSON.

    `position` is seen from the player on roll; its `dice`, when present, are the roll (they
    must agree with `match.dice` if both are given). Without `match` the state is a money game
    with player 1 on roll and a centred cube. `xgid` is None for a state an XGID cannot hold
    (a finished game, a pending resignation, a score that reached the match length).

    >>> opening = {"points": [-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2]}
    >>> encode_all(opening)["gnubg_id"]
    '4HPwATDgc/ABMA:cAkAAAAAAAAE'
    """
    board = from_json(position)
    pdice = _position_dice(position)
    info = MatchInfo.from_json(match)
    if pdice is not None:
        if info.dice != (0, 0) and sorted(info.dice) != sorted(pdice):
            raise _err(f"the position's dice {list(pdice)} and the match's dice "
                       f"{list(info.dice)} differ")
        if info.doubled:
            raise _err("the position has dice but the match has a double pending")
        info = replace(info, dice=pdice)
    position_id = encode_position_id(board)
    match_id = encode_match_id(info)
    try:
        xgid: str | None = encode_xgid(board, info)
    except TablierError:    # a state the XGID cannot hold (the board passed the checks above)
        xgid = None
    return {"position_id": position_id, "match_id": match_id,
            "gnubg_id": f"{position_id}:{match_id}", "xgid": xgid}


def decode_any(text: str, checkers: int = CHECKERS) -> dict[str, Any]:
    """One output line of `tablier id decode`: what a Position ID, Match ID, GNUbg ID or XGID
    holds, as ``{"position": ..., "match": ...}`` (only the parts the identifier has).

    The position JSON is seen from the player on roll and carries the dice when they are rolled.

    >>> decode_any('4HPwATDgc/ABMA')['position']['bar']
    [0, 0]
    >>> decode_any('cAmgAAAAAAAE')['match']['match_length']
    5
    """
    if not isinstance(text, str):
        raise _err(f"an identifier must be a string, not {text!r}")
    s = text.strip()
    if s[:5].upper() == "XGID=" or s.count(":") == 9:
        board, info = decode_xgid(s, checkers)
        return {"position": _position_json(board, info.dice), "match": info.to_json(xgid=True)}
    if s.count(":") == 1:
        board, info = decode_gnubg_id(s, checkers)
        return {"position": _position_json(board, info.dice), "match": info.to_json()}
    if len(s) == POSITION_ID_LENGTH:
        return {"position": _position_json(decode_position_id(s, checkers), (0, 0))}
    if len(s) == MATCH_ID_LENGTH:
        return {"match": decode_match_id(s).to_json()}
    raise _err(f"not a position id, match id, gnubg id or xgid: {text!r}")
