"""What a play is won by, ladder by ladder: the unit a player's judgement is made in.

A bot values a state by the expected outcome of the whole play for one player — the `play` of
a variant is a game, a partie or a match, as its ladder says. For each ladder kind (the `kind`
of `View.ladder`):

- "game" (one game worth its value rules) and "cube" in money play: points, the game's
  cubeless value times the cube;
- "cube" in a match: the match-winning chance, as 2·MWC − 1 (−1 lost … +1 won), the game's
  outcome probabilities weighed by a match equity table (`cube_match_table`: the match
  played with the cube and the Crawford rule; `match_table` where doubling is off);
- "rotation" (Tavli's games in turn to `match_points`): the match-winning chance, as for a
  match of that length without the cube;
- "holes" (the Dutch Triktrak): the chance of winning the partie as 2·P − 1;
- "continuous" (the 12-point Tric-Trac's match, won by the sum of its games' values): game
  values, the match's totals so far plus the game in play's expected value (the network
  learns the game in play, its chance and value levels, not the whole match);
- "ecrire" and "combine" (the parties, won by the jetons their marks pay): jetons, those of
  the marks paid so far less what each lost mark costs at the settlement, plus the mark in
  play's expected payment (the network learns the mark, who wins it and what it pays).

`of_outcomes(probabilities, state)` turns a network's outcome probabilities for one game
(players/net.py) into the unit; `of_result(result, me)` values a finished play; `of_game_end`
values a game ended by its end rules before the ladder has marked it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence, cast

from interpreter.players._numpy import np
from interpreter.scoring.registry import ladder_class
from interpreter.scoring.rotation import match_of

#: the share of games won with a gammon, for the match table of players without a network
GAMMON_SHARE = 0.2


def unit_of(state: dict) -> str:
    """The unit of a bot's values, as hints show it: the ladder's (`Ladder.bot_unit`)."""
    return ladder_class(state).bot_unit(state.get("match_length") or 0)


@lru_cache(maxsize=64)
def match_table(length: int, gammons: float = GAMMON_SHARE) -> tuple[tuple[float, ...], ...]:
    """E[a][b]: the chance of winning a match needing a points against an opponent needing b
    (0 < a, b <= length), for players of equal strength playing cubeless games of which a
    share `gammons` are gammons. E[a][0] = 0, E[0][b] = 1."""
    n = length + 2
    E = [[0.0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            if a == 0 and b == 0:
                E[a][b] = 0.5
            elif a == 0:
                E[a][b] = 1.0
            elif b == 0:
                E[a][b] = 0.0
    single = 1.0 - gammons
    for total in range(2, 2 * n):
        for a in range(1, n):
            b = total - a
            if not 1 <= b < n:
                continue
            win = single * E[max(a - 1, 0)][b] + gammons * E[max(a - 2, 0)][b]
            lose = single * E[a][max(b - 1, 0)] + gammons * E[a][max(b - 2, 0)]
            E[a][b] = 0.5 * win + 0.5 * lose
    return tuple(tuple(row) for row in E)


#: the share of wins that are gammons in the match table of a match played with the cube
#: (about a quarter of the games of backgammon between good players)
CUBE_GAMMON_SHARE = 0.27


@lru_cache(maxsize=64)
def cube_match_table(length: int, gammons: float = CUBE_GAMMON_SHARE
                     ) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """(E, post) for a match played with the cube and the Crawford rule, between players of
    equal strength whose games are won by a gammon at the share `gammons`.

    post[k] (1 <= k <= length): the chance of the player needing one point against one
    needing k, after the Crawford game. The trailer doubles at once and the leader takes,
    unless passing is worth as much (the free drop at an even score): a game the leader wins
    ends the match, one the trailer wins moves him two points (four by a gammon).

    E[a][b] (before the Crawford game; E[a][0] = 0, E[0][b] = 1): at 1-away against b the
    Crawford game, played without the cube, then post; elsewhere the opening game at an even
    chance, its cube valued as `match_cubeful` values a leaf's (Janowski's mix, by the cube's
    efficiency, of the dead cube and a live one whose points of passing come from the table's
    own smaller scores), gammons at the share `gammons` of wins."""
    n = length + 1
    g = gammons

    def mix(single: float, gammon: float) -> float:
        return (1.0 - g) * single + g * gammon
    post = [0.0] * (n + 1)

    def leader(k: int) -> float:
        return 0.0 if k <= 0 else post[k]
    post[1] = 0.5
    for k in range(2, n + 1):
        post[k] = max(0.5 + 0.5 * mix(leader(k - 2), leader(k - 4)), leader(k - 1))
    E = [[0.0] * (n + 1) for _ in range(n + 1)]
    E[0] = [1.0] * (n + 1)

    def get(a: int, b: int) -> float:
        return 1.0 if a <= 0 else 0.0 if b <= 0 else E[a][b]

    def crawford(k: int) -> float:
        return 0.5 + 0.5 * mix(leader(k - 1), leader(k - 2))
    for total in range(2, 2 * n + 1):
        for a in range(1, n + 1):
            b = total - a
            if not 1 <= b <= n:
                continue
            if a == 1 or b == 1:
                E[a][b] = 0.5 if a == b else crawford(b) if a == 1 else 1.0 - crawford(a)
                continue
            E[a][b] = float(_window(0.5, mix(get(a - 1, b), get(a - 2, b)),
                                    mix(get(a, b - 1), get(a, b - 2)),
                                    mix(get(a - 2, b), get(a - 4, b)),
                                    mix(get(a, b - 2), get(a, b - 4)),
                                    get(a - 1, b), get(a, b - 1), True, True, CUBE_LIFE))
    return tuple(tuple(row) for row in E), tuple(post)


def _mwc(table: Sequence[Sequence[float]], away_me: int, away_opp: int) -> float:
    n = len(table) - 1
    a = min(max(away_me, 0), n)
    b = min(max(away_opp, 0), n)
    if a == 0:
        return 1.0
    if b == 0:
        return 0.0
    return table[a][b]


def outcome_split(Y: np.ndarray, worths: Sequence[int]) -> list[tuple[int, np.ndarray]]:
    """(signed value, probability) of each outcome of one game from network outputs: +v for a
    win worth v, −v for a loss. `worths` are what the network's classes above a single game
    (its value levels, in the order of its outputs) are worth in the game in play
    (players/rules_seen.py `class_worths`): a class whose rule the file in play switches off
    is worth what the class below it is."""
    k = len(worths)
    win = Y[..., 0]
    out = []
    prev_w, prev_l = win, 1.0 - win
    values = [1, *worths]
    nxt_w: Any        # an array of chances, or none left (0.0)
    nxt_l: Any
    for i, v in enumerate(values):
        if i + 1 < len(values):
            nxt_w = Y[..., 1 + i]
            nxt_l = Y[..., 1 + k + i]
        else:
            nxt_w = nxt_l = 0.0
        out.append((v, np.clip(prev_w - nxt_w, 0.0, 1.0)))
        out.append((-v, np.clip(prev_l - nxt_l, 0.0, 1.0)))
        if i + 1 < len(values):
            prev_w, prev_l = nxt_w, nxt_l
    return out


def of_outcomes(Y: np.ndarray, worths: Sequence[int], state: dict | None,
                cube: int | None = None) -> np.ndarray:
    """The utility, for the player they are for, of outcome probabilities `Y` (rows of
    network outputs), each class above a single game worth what `worths` says (the game in
    play's values: `outcome_split`). For a cube ladder the game is worth `cube` (default: the
    cube's value now) times its value; elsewhere the network's own outputs are the play's.
    Where the ladder says gammons count single (`Worth.single`: the Jacoby rule while the
    cube was not turned) every class counts one."""
    Y = np.asarray(Y, dtype=np.float64)
    w = ladder_class(state).worth(state or {})
    if w.summed is not None:
        if w.settled:
            return np.full(Y.shape[:-1], w.summed)
        chance = 2.0 * Y[..., 0] - 1.0
        return w.summed + w.bonus * chance + (chance if w.single else _equity(Y, worths))
    if w.chance:
        return 2.0 * Y[..., 0] - 1.0
    if w.single:
        worths = (1,) * len(worths)
    c = cube if cube is not None and w.doubling else w.stake
    if w.match is not None:
        if w.cubeful:
            return 2.0 * match_cubeful(Y, worths, w.match, c) - 1.0
        return 2.0 * _match_chance(Y, worths, w.match, c) - 1.0
    if w.cubeful:
        return c * cubeful(Y, worths, w.owner)
    return c * _equity(Y, worths) if w.doubling else _equity(Y, worths)


#: a rotation's state as a match's (scoring/rotation.py)
rotation_match = match_of


#: the cube's efficiency in Janowski's model: the share of a live cube's value it keeps
CUBE_LIFE = 0.68


def cubeful(Y: np.ndarray, worths: Sequence[int], owner: str | None,
            x: float = CUBE_LIFE) -> np.ndarray:
    """Money play's equity per unit of cube with the cube in play (R. Janowski's model): the
    cubeless equity mixed, by the cube's efficiency x, with the equity of a fully live cube —
    linear in the chance of winning between the take point and the cash point, whose places
    follow from the average values of the wins and losses. `owner`: "me", "opponent" or None
    (centred), from the side of the player the outputs are for."""
    Y = np.atleast_2d(np.asarray(Y, dtype=np.float64))
    p = np.clip(Y[..., 0], 1e-9, 1.0 - 1e-9)
    parts = outcome_split(Y, worths)
    W = sum(v * q for v, q in parts if v > 0) / p
    L = sum(-v * q for v, q in parts if v < 0) / (1.0 - p)
    W = np.maximum(W, 1.0)
    L = np.maximum(L, 1.0)
    dead = p * W - (1.0 - p) * L
    tp = (L - 0.5) / (W + L + 0.5)            # my take point
    cp = (L + 1.0) / (W + L + 0.5)            # my cash point
    low = -L + (L - 1.0) * p / tp             # below my take point
    high = 1.0 + (W - 1.0) * (p - cp) / (1.0 - cp)
    if owner == "me":
        live = np.where(p < cp, -L + (L + 1.0) * p / cp, high)
    elif owner == "opponent":
        live = np.where(p < tp, low, -1.0 + (W + 1.0) * (p - tp) / (1.0 - tp))
    else:
        live = np.where(p < tp, low, np.where(p < cp, -1.0 + 2.0 * (p - tp) / (cp - tp), high))
    return x * live + (1.0 - x) * dead


def _match_sums(Y: np.ndarray, worths: Sequence[int], state: dict,
                cube: int) -> tuple[np.ndarray, np.ndarray]:
    """The match-winning chance of the game's wins and of its losses at this cube, each
    outcome's chance times the chance after it (their sum is the dead cube's chance)."""
    win: Any = 0.0      # the sums of arrays
    lose: Any = 0.0
    for v, q in outcome_split(Y, worths):
        if v > 0:
            win = win + q * _after_game(state, True, cube * v)
        else:
            lose = lose + q * _after_game(state, False, -cube * v)
    return win, lose


def _averages(Y: np.ndarray, worths: Sequence[int], state: dict,
              cube: int) -> tuple[np.ndarray, np.ndarray]:
    """The match-winning chances of a win and of a loss at this cube, each averaged over the
    game's values as the outputs weigh them."""
    p = np.clip(Y[..., 0], 1e-9, 1.0 - 1e-9)
    win, lose = _match_sums(Y, worths, state, cube)
    return win / p, lose / (1.0 - p)


def _window(p: Any, win: Any, lose: Any, win2: Any, lose2: Any, cash: float, dropped: float,
            mine: bool, his: bool, x: float) -> Any:
    """The match-winning chance of a game I win with chance p, the cube in play (see
    `match_cubeful`): `win` and `lose` the chances after a win and a loss at the cube's level,
    `win2` and `lose2` at twice the level, `cash` after my double passed and `dropped` after
    his; `mine`, `his`: whether each side may double to a level that can change the match."""
    dead = p * win + (1.0 - p) * lose
    if not (mine or his):
        return dead
    span = np.maximum(win2 - lose2, 1e-9)
    cp = np.clip((cash - lose2) / span, 1e-6, 1.0 - 1e-6)
    tp = np.clip((dropped - lose2) / span, 1e-6, 1.0 - 1e-6)
    top = cash + (win - cash) * (p - cp) / (1.0 - cp)        # above my cash point
    if mine and his:
        live = np.where(p < tp, lose + (dropped - lose) * p / tp,
                        np.where(p < cp, dropped + (cash - dropped) * (p - tp)
                                 / np.maximum(cp - tp, 1e-6), top))
        live = np.where(tp < cp, live, dead)
    elif mine:
        live = np.where(p < cp, lose + (cash - lose) * p / cp, top)
    else:
        live = np.where(p < tp, lose + (dropped - lose) * p / tp,
                        dropped + (win - dropped) * (p - tp) / (1.0 - tp))
    return x * live + (1.0 - x) * dead


def match_cubeful(Y: np.ndarray, worths: Sequence[int], state: dict, cube: int,
                  x: float = CUBE_LIFE) -> np.ndarray:
    """The match-winning chance with the cube in play, in the manner of Janowski's money model
    (`cubeful`) carried to match equities: the dead cube's chance mixed, by the cube's
    efficiency x, with a fully live cube's, which is linear in the chance of winning between
    the points where a double is passed. The opponent passes a double at cube 2c when his
    chance of winning the match taking (a dead cube at 2c) is below passing's, at my chance of
    winning the game CP (my cash point); I pass his below TP (my take point). With the cube
    mine or centred I cash at CP; with the cube his or centred he cashes at TP. A side whose
    doubling cannot change the match (the cube already wins it for him) has no cash point."""
    Y = np.atleast_2d(np.asarray(Y, dtype=np.float64))
    a, b = int(state["away"]["me"]), int(state["away"]["opponent"])
    p = np.clip(Y[..., 0], 1e-9, 1.0 - 1e-9)
    win, lose = _averages(Y, worths, state, cube)
    owner = state.get("owner")
    mine = owner in ("me", None) and a > cube
    his = owner in ("opponent", None) and b > cube
    if not (mine or his):
        return cast("np.ndarray", p * win + (1.0 - p) * lose)
    win2, lose2 = _averages(Y, worths, state, 2 * cube)
    return cast("np.ndarray", _window(p, win, lose, win2, lose2, _after_game(state, True, cube),
                                      _after_game(state, False, cube), mine, his, x))


def _equity(Y: np.ndarray, worths: Sequence[int]) -> np.ndarray:
    return cast("np.ndarray", sum(v * p for v, p in outcome_split(Y, worths)))


def _match_chance(Y: np.ndarray, worths: Sequence[int], state: dict, cube: int) -> np.ndarray:
    win, lose = _match_sums(Y, worths, state, cube)
    return win + lose


def _after_game(state: dict, won: bool, pts: int) -> float:
    """The match-winning chance after a game of `pts` points won (or lost) by me, `state` a
    match's (its length and the points each side is away). A match played with the cube is
    valued by `cube_match_table` (its state says `cube_in_use`, as the cube ladder's does):
    once the Crawford game is reached (or in a match without the rule), a side one point away
    stands as after the Crawford game. A match without the cube (a rotation's, or doubling
    turned off) is valued by `match_table`."""
    length = int(state["match_length"])
    a, b = int(state["away"]["me"]), int(state["away"]["opponent"])
    a2, b2 = (a - pts, b) if won else (a, b - pts)
    if not state.get("cube_in_use"):
        return _mwc(match_table(length), a2, b2)
    table, post = cube_match_table(length)
    if min(a2, b2) == 1 and (min(a, b) == 1 or not state.get("crawford_rule", True)):
        return 0.5 if a2 == b2 else post[b2] if a2 == 1 else 1.0 - post[a2]
    return _mwc(table, a2, b2)


def of_game_end(won: bool, k: int, state: dict) -> float:
    """A game just ended by its end rules, `won` by me with value k, before the ladder marked
    it."""
    w = ladder_class(state).worth(state)
    if w.summed is not None:
        # a game of a sum of games: the ladder counts it
        return w.summed
    if w.chance:
        # a game inside a partie: the partie goes on (its ladder marks it)
        return 0.0
    if w.single:
        k = 1
    if w.match is not None:
        return 2.0 * _after_game(w.match, won, w.stake * k) - 1.0
    return float(w.stake * k if won else -w.stake * k)


def of_result(result: Any, me: int, state: dict) -> float:
    """The utility of a finished play for `me`."""
    w = ladder_class(state).worth(state)
    if w.summed is not None:
        return w.summed
    won = result.winner == me
    if result.winner is None:
        return 0.0
    if not w.chance and w.match is None:
        return float(result.value if won else -result.value)
    return 1.0 if won else -1.0
