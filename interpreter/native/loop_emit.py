"""The numba source of the compiled playout: whole games between two random players, the same
games the Python turn loop plays for the same seed.

Same games, not just the same distribution: the compiled loop draws from the same three
Mersenne Twister streams as the Python loop (the dice's `Random(f"{seed}:dice")` and each
random player's `Random(f"{seed}:white")`, `Random(f"{seed}:black")`, their states taken from
Python's `random.Random.getstate()` and advanced by the same algorithm, MT19937), in the same
order: the opening throw as `engine.game.opening_roll` draws it (`randint` by rejection of three
bits), then two `random()` a throw for the dice and one for the player on roll when the throw
has more than one result, the result chosen as `int(random() * n)` among the boards of the
compiled `results()` (in the order of the Python generator). So a game's winner, value, length
and counts are those of the Python loop, game for game (tests/test_native_diff.py).

It serves a variant whose throw is the plain one of the Python loop's fast path: no scoring or
preference rules, the end rules deciding when a side's men are all off, no doublet re-throw,
no stages or roll events, a ladder that ends with the first game and asks nothing of players
who never double, the movement covered by a compiled walk (`WALKS`: gen_emit's and
walk_emit's generators, or hooks_emit's walk with the file's forbid rules inside it, when it
keeps no path for a named state and throws two dice), and end and value rules that the rule
compiler's numba back end compiles (`rules_part`, interpreter/native/rules_emit.py). Anything
else plays in Python.
"""
from __future__ import annotations

from typing import Any

from interpreter.kernel.board import their_pip

#: the opening modes (`[dice] opening_roll`), as numbers in the source
OPENING = {"one_die_each": 0, "winner_throws_two": 1, "nearer_high_die": 2}

#: the figures of one game in the output row
OUT = ("first", "ties", "winner", "end_rule", "value", "value_rule", "turns", "plays",
       "forced", "decisions", "rolls_white", "rolls_black")

MT = '''
@njit(cache=True)
def _mt_next(mt):
    i = mt[624]
    if i >= 624:
        for kk in range(624):
            y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7fffffff)
            v = mt[(kk + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908b0df
            mt[kk] = v
        i = 0
    y = mt[i]
    mt[624] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >> 18
    return y & 0xffffffff


@njit(cache=True)
def _seed(mt, key, nkey):
    """MT19937's init_by_array, as random.Random seeds itself from the words of its key."""
    mt[0] = 19650218
    for i in range(1, 624):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xffffffff
    i = 1
    j = 0
    for _ in range(max(624, nkey)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xffffffff
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xffffffff
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


@njit(cache=True)
def _random(mt):
    a = _mt_next(mt) >> 5
    b = _mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(mt, n, k):
    """random.Random._randbelow(n) with k = n.bit_length(): k top bits, rejected when >= n."""
    r = _mt_next(mt) >> (32 - k)
    while r >= n:
        r = _mt_next(mt) >> (32 - k)
    return r
'''


def flip_source(size: int, route: str) -> str:
    """`_flip(b, out)`: the board seen by the other player (28 slots, either route)."""
    if size != 28:
        raise ValueError("the compiled playout turns 28-slot boards only")
    lines = ["@njit(cache=True)", "def _flip(b, out):", "    out[0] = b[27]"]
    for k in range(1, 25):
        lines.append(f"    out[{k}] = -b[{their_pip(route, k)}]")
    lines += ["    out[25] = b[26]", "    out[26] = b[25]", "    out[27] = b[0]"]
    return "\n".join(lines) + "\n"


# -- the end and value rules: the rule compiler's numba back end (rules_emit.py) --------------

def rules_part(variant: Any, with_rules: bool = True) -> tuple[str, int, int] | None:
    """The numba source of the variant's end rules (`_end(b)`: the index of the first that
    holds, -1 when none) and value rules (`_value(b)`: the value and the index of the highest
    that holds, (1, -1) when none), as `rules_emit.emit_rules` compiles them, every end rule
    won by the mover; None when one of them is not compiled. Returns (source, end rules, value
    rules); `with_rules=False` leaves the rules' own module out, for a module that holds it
    already (the walk with the file's rules, hooks_emit.py)."""
    from interpreter.native.rules_emit import emit_rules

    rules = variant.rules
    if not rules.end or any(winner != "mover" for _id, winner, _fn in rules.end):
        return None
    nr = emit_rules(variant)
    if nr is None or nr.over is None or (rules.value and nr.value is None):
        return None
    if [i for i, _w in nr.end_rules] != [i for i, _w, _f in rules.end] or \
            list(nr.value_rules) != [i for i, _w, _v in rules.value]:
        return None
    over = nr.over.name
    lines = [nr.source if with_rules else "", "", "", "@njit(cache=True)", "def _end(b):",
             f"    return {over}(b, 0, 0)", "", "", "@njit(cache=True)", "def _value(b):"]
    if nr.value is not None:
        lines.append(f"    return {nr.value.name}(b, 0, 0)")
    else:
        lines.append("    return np.int64(1), np.int64(-1)")
    return "\n".join(lines) + "\n", len(rules.end), len(rules.value)


#: the games' loop, its walk's lines left as tokens (`WALKS`)
GAMES_OVER_WALK = '''
@njit(cache=True)
def _opening(dice, mode):
    ties = 0
    while True:
        a = _below(dice, 6, 3) + 1
        b = _below(dice, 6, 3) + 1
        if a == b:
            ties += 1
            continue
        first = 0 if a > b else 1
        if mode == 0:
            return first, max(a, b), min(a, b), ties
        if mode == 1:
            return first, _below(dice, 6, 3) + 1, _below(dice, 6, 3) + 1, ties
        return _below(dice, 2, 2), max(a, b), min(a, b), ties


@njit(cache=True)
def play_games(start, keys, nkeys, modes, max_turns, W, out):
    """Game g from the streams seeded by keys[g] (dice, white, black; nkeys[g] their words):
    its figures in out[g]."""
    L = np.empty(SIZE, np.int64)
    F = np.empty(SIZE, np.int64)
    states = np.empty((3, 625), np.int64)
    for g in range(keys.shape[0]):
        for k in range(3):
            _seed(states[k], keys[g, k], nkeys[g, k])
        dice = states[0]
        bots = states[1:3]
        first, d1, d2, ties = _opening(dice, modes[g])
        if first == 0:
            for i in range(SIZE):
                L[i] = start[i]
        else:
            _flip(start, L)
        mover = first
        turns = 0
        plays = 0
        forced = 0
        decisions = 0
        rolls0 = 0
        rolls1 = 0
        winner = -1
        end_i = -1
        k = 0
        k_i = -1
        opening = True
        while turns < max_turns:
            if opening:
                opening = False
            else:
                d1 = np.int64(_random(dice) * 6) + 1
                d2 = np.int64(_random(dice) * 6) + 1
            turns += 1
            if mover == 0:
                rolls0 += 1
            else:
                rolls1 += 1
            code = @CALL@
            if code == -2:
                out[g, 0] = -1
                break
            decisions += 1
            if code == -1:
                n = 1
                forced += 1
                plays += 1
            else:
                cat = @CAT@
                n = code - cat * SHIFT
                plays += n
                if n > 1:
                    i = np.int64(_random(bots[mover]) * n)
                else:
                    i = 0
                    forced += 1
                r = @ROW@
                for j in range(SIZE):
                    L[j] = W[r + j]
            e = _end(L)
            if e >= 0:
                winner = mover
                end_i = e
                k, k_i = _value(L)
                break
            _flip(L, F)
            for j in range(SIZE):
                L[j] = F[j]
            mover = 1 - mover
        if out[g, 0] == -1:
            continue
        out[g, 0] = first
        out[g, 1] = ties
        out[g, 2] = winner
        out[g, 3] = end_i
        out[g, 4] = k
        out[g, 5] = k_i
        out[g, 6] = turns
        out[g, 7] = plays
        out[g, 8] = forced
        out[g, 9] = decisions
        out[g, 10] = rolls0
        out[g, 11] = rolls1
    return 0
'''


#: how the games ask the compiled walk for a throw's boards and where they read the one
#: chosen: the generators of gen_emit.py and walk_emit.py (`results(b, d1, d2, W)`, the rows of
#: each category of the answer), or the walk with the file's rules of hooks_emit.py
#: (`results(b, d1, d2, d3, rolls, W)` as the Python loop's fast path calls it, with the rolls
#: at 1; the rows of its answer, each a board and its mask)
WALKS = {
    "gen": {"@CALL@": "results(L, d1, d2, W)", "@CAT@": "code // SHIFT",
            "@ROW@": "OFF_ROWS + cat * CAP * SIZE + i * SIZE"},
    "hooked": {"@CALL@": "results(L, d1, d2, 0, 1, W)", "@CAT@": "code // SHIFT",
               "@ROW@": "ROWS_AT + i * ROW"},
}


def games_source(walk: str = "gen") -> str:
    """The games' loop over the compiled walk `walk` (`WALKS`)."""
    games = GAMES_OVER_WALK
    for token, text in WALKS[walk].items():
        games = games.replace(token, text)
    return games


#: the games' loop over the backgammon family's generator (the compiled trainer's too)
GAMES = games_source("gen")


def loop_source(variant: Any, rules_src: str, walk: str = "gen", rows_at: int = 0) -> str:
    """The playout's part of the module: the streams, the flip, the rules and the games, over
    the compiled walk `walk` (`WALKS`; `rows_at`: where the hooked walk's answer rows start)."""
    games = games_source(walk)
    head = f"SIZE = {variant.geometry.size}\nROWS_AT = {int(rows_at)}\n\n" \
        if walk == "hooked" else ""
    return head + MT + "\n\n" + flip_source(variant.geometry.size, variant.geometry.route) \
        + "\n\n" + rules_src + "\n\n" + games
