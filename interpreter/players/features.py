"""Input features of the value network, generic over the board of every variant.

A state is a board (the 28-int tuple of kernel/board.py) seen by the player it is valued for,
whether he or his opponent throws next, the throws each has made since the men were last set
up, and the ladder's state as plain data (`View.ladder`, `Ladder.state`). Its features:

- for each pip 1..24 and each side, four units for the count n of that side's men there, as
  TD-Gammon encoded them: n >= 1, n >= 2, n >= 3, and (n - 3) / 2 above three;
- each side's men waiting to enter (bar) and borne off, as fractions of the men a side has;
- each side's pips still to travel, as a fraction of a full start (a race input);
- who throws next; in variants whose rolls score, each side's throws since the last set-up
  (the rules of opening throws read them);
- the ladder's state, by ladder kind (`LADDER_FEATURES`): points, holes, marks and their
  flags, scaled to about [0, 1]. The cube ladder gives none: its networks value one cubeless
  game, and the cube and the match score are weighed above them (players/utility.py).

Every feature has a name (`feature_names`): a weights file records them, so that a network is
never run on features it was not trained on. `encode_boards` encodes many boards at once with
numpy (the cost of a search is mostly here).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from interpreter.players._numpy import np

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF

#: pip numbers as a row, for pip counts
_PIPS = np.arange(1, 25, dtype=np.float64)
#: the number of board units (pips × sides × 4, bar, off, race)
BOARD_UNITS = 24 * 2 * 4 + 2 * 2 + 2 + 2


def _holes(s: dict) -> list[float]:
    pph = float(s.get("points_per_hole") or 12)
    to_win = float(s.get("holes_to_win") or 12)
    out = []
    for side in ("me", "opponent"):
        holes = s["holes"][side]
        to_go = max(to_win - holes, 0.0)
        out += [s["points"][side] / pph, holes / to_win, float(s["bredouille"][side]),
                float(to_go <= 1), float(to_go <= 2), float(to_go <= 4)]
    out.append(float(s.get("can_go", False)))
    return out


_HOLES_NAMES = [f"{n}_{side}" for side in ("me", "opponent")
                for n in ("points", "holes", "bredouille", "to_go_1", "to_go_2", "to_go_4")] \
    + ["can_go"]


def _marks(s: dict) -> list[float]:
    """The partie à écrire (and combiné's à écrire): the points and holes of the mark in play,
    the mark's flags, the partie's progress and each side's jetons."""
    pph = float(s.get("points_per_hole") or 12)
    out = []
    for side in ("me", "opponent"):
        out += [s["points"][side] / pph, s["mark_holes"][side] / 12.0,
                float(s["bredouille"][side]), float(s["lurch_alive"][side]),
                float(s["banner"][side]), s["jetons"][side] / 50.0]
    marks = float(s.get("marks") or 12)
    out += [float(s.get("can_go", False)), s.get("mark", 1) / marks,
            float(s.get("leader") == "me")]
    return out


_MARKS_NAMES = [f"{n}_{side}" for side in ("me", "opponent")
                for n in ("points", "mark_holes", "bredouille", "lurch_alive", "banner",
                          "jetons")] + ["can_go", "mark", "leader"]


def _combine(s: dict) -> list[float]:
    out = _marks(s)
    for side in ("me", "opponent"):
        out += [s.get("honours_holes", {}).get(side, 0) / 12.0,
                float(s.get("quadruple_right", {}).get(side, False)),
                float(s.get("treble_right", {}).get(side, False)),
                s.get("fish", {}).get(side, 0) / 20.0]
    active = s.get("active", {})
    out += [float(active.get("ecrire", True)), float(active.get("honours", True))]
    return out


_COMBINE_NAMES = _MARKS_NAMES + [f"{n}_{side}" for side in ("me", "opponent")
                                 for n in ("honours_holes", "quadruple", "treble", "fish")] \
    + ["ecrire_active", "honours_active"]


def _continuous(s: dict) -> list[float]:
    target = float(s.get("target") or 12)
    out = []
    for side in ("me", "opponent"):
        out += [s["points"][side] / target, s["games"][side] / 24.0]
    out += [float(s.get("last_game", False)), s.get("game", 1) / 12.0]
    return out


_CONTINUOUS_NAMES = ["points_me", "games_me", "points_opponent", "games_opponent",
                     "last_game", "game"]


def _game(s: dict) -> list[float]:
    return []


#: ladder kind → (encoder of `Ladder.state()`, the names of its features)
LADDER_FEATURES: dict[str, tuple[Callable[[dict], list[float]], list[str]]] = {
    "game": (_game, []),
    "cube": (_game, []),
    "holes": (_holes, _HOLES_NAMES),
    "ecrire": (_marks, _MARKS_NAMES),
    "combine": (_combine, _COMBINE_NAMES),
    "continuous": (_continuous, _CONTINUOUS_NAMES),
}


class Encoder:
    """The features of states of one variant (see the module docstring)."""

    def __init__(self, variant: Any):
        self.checkers = float(variant.checkers)
        self.full = float(sum(p * n for p, n in variant.layout.items()) or 25 * variant.checkers)
        kind = getattr(variant.ladder, "kind", None) or "game"
        self.kind = kind
        self.ladder_fn, ladder_names = LADDER_FEATURES.get(kind, (_game, []))
        self.rolls = bool(variant.rules.score_roll)
        names = [f"p{p}_{side}_{u}" for side in ("me", "opp") for p in range(1, 25)
                 for u in ("1", "2", "3", "n")]
        names += ["bar_me", "bar_me_any", "bar_opp", "bar_opp_any", "off_me", "off_opp",
                  "race_me", "race_opp", "on_roll"]
        if self.rolls:
            names += ["rolls_me", "rolls_opp"]
        names += [f"ladder_{n}" for n in ladder_names]
        self.names = names
        self.size = len(names)

    def extra(self, on_roll: bool, rolls: tuple[int, int], ladder: dict | None) -> list[float]:
        """The features after the board's: who throws next, the throws, the ladder."""
        out = [float(on_roll)]
        if self.rolls:
            out += [min(rolls[0], 4) / 4.0, min(rolls[1], 4) / 4.0]
        if ladder is not None and self.ladder_fn is not _game:
            out += self.ladder_fn(ladder)
        elif self.ladder_fn is not _game:
            out += [0.0] * (self.size - BOARD_UNITS - len(out))
        return out

    def boards(self, boards: Sequence[tuple]) -> np.ndarray:
        """The board units of many boards (n × BOARD_UNITS)."""
        B = np.asarray(boards, dtype=np.float64)
        if B.ndim == 1:
            B = B[None, :]
        pts = B[:, 1:25]
        mine = np.maximum(pts, 0.0)
        theirs = np.maximum(-pts, 0.0)
        n = B.shape[0]
        out = np.empty((n, BOARD_UNITS))
        for k, side in enumerate((mine, theirs)):
            u = out[:, 96 * k:96 * (k + 1)].reshape(n, 24, 4)
            u[:, :, 0] = side >= 1
            u[:, :, 1] = side >= 2
            u[:, :, 2] = side >= 3
            u[:, :, 3] = np.maximum(side - 3.0, 0.0) * 0.5
        c = self.checkers
        bar_me, bar_opp = B[:, BAR], B[:, OPP_BAR]
        out[:, 192] = bar_me * (2.0 / c)
        out[:, 193] = bar_me > 0
        out[:, 194] = bar_opp * (2.0 / c)
        out[:, 195] = bar_opp > 0
        out[:, 196] = B[:, OFF] / c
        out[:, 197] = B[:, OPP_OFF] / c
        out[:, 198] = (mine @ _PIPS + 25.0 * bar_me) / self.full
        out[:, 199] = (theirs @ _PIPS[::-1] + 25.0 * bar_opp) / self.full
        return out

    def encode(self, boards: Sequence[tuple], on_roll: bool = False,
               rolls: tuple[int, int] = (0, 0), ladder: dict | None = None,
               extras: Sequence[list[float]] | None = None) -> np.ndarray:
        """The features of many boards (n × size) sharing who throws next, the throws and the
        ladder's state, or each with its own `extras` (from `extra`)."""
        X = self.boards(boards)
        if extras is None:
            tail = np.asarray(self.extra(on_roll, rolls, ladder), dtype=np.float64)
            return np.hstack([X, np.broadcast_to(tail, (X.shape[0], tail.shape[0]))])
        return np.hstack([X, np.asarray(extras, dtype=np.float64).reshape(X.shape[0], -1)])
