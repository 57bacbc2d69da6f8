"""Self-play training in compiled code: the games of `tablier train` (players/td.py) played and
learned from inside one numba loop, for the variants whose whole game the compiled playout
plays (loop_emit.py: the backgammon family's switches, a ladder that ends with the first game,
no scoring or preference rules).

The loop is the Python trainer's, step for step: the same dice streams
(`random.Random(f"{seed}/train/{i}:dice")`, the opening throw as the turn loop draws it), the
same candidates in the same order (the compiled `results()`), each valued as the learned player
values a leaf (the network's equity one throw ahead, or the game's value by the value rules
when the play ends it), the first best taken, no question asked when a throw has one result,
and the same TD(λ) step after each choice and at the end (players/td.py `Trainer`), its traces
kept as E·scale. The inputs are the encoder's (players/features.py): the raw board units, the
counts of players/contact.py (whose text is compiled into the module) where the network has
them, and who throws next. So the Python trainer and this loop make the same weights from the
same command, up to the rounding of sums taken in another order (tests/test_native_td.py).

A throw whose results overflow the compiled work space stops the loop before that game: the
weights are put back as they were at the game's start and the Python trainer plays it.

The same module serves the learned player of those variants (players/learned.py `FastNet`):
`leaf_outputs` values many end positions in one call (the inputs and the network in machine
code), and `reply_values` looks one throw further for each of them, the opponent answering each
of the 21 throws with his best play by the same network, as the search at depth 2 does
(players/search.py `expect`) where a leaf is worth a fixed multiple of the outputs' equity;
elsewhere (a match, a live cube) `reply_outputs` gives the outputs of every answer to every
throw, grouped, for the player's side to value in the play's unit in one numpy pass. A throw
the opponent cannot play is valued one throw further, the player throwing next on the same
board (`_on_roll`; `reply_outputs` marks it for the player's side), as the search does: the
network never learns such an end position.
"""
from __future__ import annotations

from typing import Any

from interpreter.native.loop_emit import GAMES, MT, OPENING, flip_source, rules_part

NET = '''

@njit(cache=True)
def _sig(z):
    return 0.5 + 0.5 * np.tanh(0.5 * z)


@njit(cache=True)
def _encode(b, x, counts, dm, checkers, full, scratch):
    """The encoder's inputs of board b (seen by the player it is valued for, who does not throw
    next): the raw units, the contact counts when `counts`, then on_roll (0)."""
    for i in range(x.shape[0]):
        x[i] = 0.0
    pm = 0.0
    po = 0.0
    for p in range(1, 25):
        n = b[p]
        if n > 0:
            k = 4 * (p - 1)
            x[k] = 1.0
            if n >= 2:
                x[k + 1] = 1.0
            if n >= 3:
                x[k + 2] = 1.0
                x[k + 3] = (n - 3.0) * 0.5
            pm += n * p
        elif n < 0:
            k = 96 + 4 * (p - 1)
            m = -n
            x[k] = 1.0
            if m >= 2:
                x[k + 1] = 1.0
            if m >= 3:
                x[k + 2] = 1.0
                x[k + 3] = (m - 3.0) * 0.5
            po += m * (25 - p)
    c = float(checkers)
    x[192] = b[25] * (2.0 / c)
    x[193] = 1.0 if b[25] > 0 else 0.0
    x[194] = b[26] * (2.0 / c)
    x[195] = 1.0 if b[26] > 0 else 0.0
    x[196] = b[0] / c
    x[197] = b[27] / c
    x[198] = (pm + 25.0 * b[25]) / full
    x[199] = (po + 25.0 * b[26]) / full
    if counts:
        contact_inputs(b, dm, scratch, x, 200)


@njit(cache=True)
def _forward(theta, x, I, H, O, h, y):
    """The hidden units and outputs of the network at inputs x (its inputs that are 0 skipped)."""
    a = I * H
    for j in range(H):
        h[j] = theta[a + j]
    for i in range(I):
        xi = x[i]
        if xi != 0.0:
            base = i * H
            for j in range(H):
                h[j] += xi * theta[base + j]
    for j in range(H):
        h[j] = _sig(h[j])
    bb = a + H
    cc = bb + H * O
    for o in range(O):
        z = theta[cc + o]
        for j in range(H):
            z += h[j] * theta[bb + j * O + o]
        y[o] = _sig(z)


@njit(cache=True)
def _clip01(v):
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit(cache=True)
def _equity(y, levels):
    """The outputs' expected game value (players/utility.py outcome_split)."""
    K = levels.shape[0]
    pw = y[0]
    pl = 1.0 - y[0]
    e = 0.0
    prev_v = 1.0
    for i in range(K + 1):
        if i < K:
            nw = y[1 + i]
            nl = y[1 + K + i]
        else:
            nw = 0.0
            nl = 0.0
        v = 1.0 if i == 0 else float(levels[i - 1])
        e += v * _clip01(pw - nw)
        e += -v * _clip01(pl - nl)
        pw = nw
        pl = nl
    return e


@njit(cache=True)
def leaf_outputs(B, theta, I, H, O, counts, dm, checkers, full, Y):
    """The network's outputs for each end position (rows of B, seen by the player who just
    played) into the rows of Y."""
    x = np.empty(I)
    h = np.empty(H)
    y = np.empty(O)
    L = np.empty(SIZE, np.int64)
    scratch = np.empty(SIZE, np.int64)
    for i in range(B.shape[0]):
        for j in range(SIZE):
            L[j] = B[i, j]
        _encode(L, x, counts, dm, checkers, full, scratch)
        _forward(theta, x, I, H, O, h, y)
        for o in range(O):
            Y[i, o] = y[o]


@njit(cache=True)
def _span(code):
    """The first row and the number of rows of the results `results` returned as `code`."""
    cat = code // SHIFT
    return OFF_ROWS + cat * CAP * SIZE, code - cat * SHIFT


@njit(cache=True)
def _row(W, r, R):
    """The board of row r of the work space into R."""
    for j in range(SIZE):
        R[j] = W[r + j]


@njit(cache=True)
def _leaf_value(R, x, theta, I, H, O, levels, util_end, factor, counts, dm, checkers, full, h,
                y, scratch):
    """The learned player's value of end position R for its mover and whether the game goes
    on: util_end[k] for a game R ends with value k, else factor times the network's equity
    (its inputs written to x)."""
    if _end(R) >= 0:
        kv, _ki = _value(R)
        return util_end[kv], False
    _encode(R, x, counts, dm, checkers, full, scratch)
    _forward(theta, x, I, H, O, h, y)
    return factor * _equity(y, levels), True


@njit(cache=True)
def _best_answer(code, W, theta, I, H, O, levels, util_end, factor, counts, dm, checkers, full,
                 x, h, y, R, scratch):
    """The mover's best value among the results of his throw in the work space (`code` as
    `results` returned it): util_end[k] for a game he ends with value k, else factor times the
    outputs' equity, as the learned player values a leaf."""
    best = -1e300
    r0, n = _span(code)
    for c in range(n):
        _row(W, r0 + c * SIZE, R)
        v, _open = _leaf_value(R, x, theta, I, H, O, levels, util_end, factor, counts, dm,
                               checkers, full, h, y, scratch)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _on_roll(F, W, theta, I, H, O, levels, util_end, factor, counts, dm, checkers, full, x, h,
             y, R, scratch):
    """The value of board F for the player it is seen by, who throws next: the mean over the
    21 throws of his best answer, valued as `reply_values` values one (a throw he cannot play
    leaves F, valued by the network as his end position). NaN when a throw overflows the work
    space. The network never learns the end position of a throw without a play (the trainer
    takes a step only after a choice), so the search does not ask it to value one."""
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            code = results(F, d1, d2, W)
            if code == -2:
                return np.nan
            best = -1e300
            if code == -1:
                _encode(F, x, counts, dm, checkers, full, scratch)
                _forward(theta, x, I, H, O, h, y)
                best = factor * _equity(y, levels)
            else:
                best = _best_answer(code, W, theta, I, H, O, levels, util_end, factor, counts,
                                    dm, checkers, full, x, h, y, R, scratch)
            total += (1.0 if d1 == d2 else 2.0) * best
    return total / 36.0


@njit(cache=True)
def reply_values(B, W, theta, I, H, O, levels, util_end, factor, counts, dm, checkers, full,
                 out):
    """For each end position (rows of B, seen by the player who just played), its value for
    him one throw further: the mean over the 21 throws of the opponent's best answer, valued
    for the opponent as the learned player values a leaf (util_end[k] for a game he ends with
    value k, else factor times the outputs' equity), with the sign turned. Returns -1 when a
    throw overflows the work space (nothing in out is then to be read), else 0."""
    x = np.empty(I)
    h = np.empty(H)
    y = np.empty(O)
    L = np.empty(SIZE, np.int64)
    F = np.empty(SIZE, np.int64)
    R = np.empty(SIZE, np.int64)
    scratch = np.empty(SIZE, np.int64)
    for i in range(B.shape[0]):
        for j in range(SIZE):
            F[j] = B[i, j]
        _flip(F, L)
        total = 0.0
        stood = False
        still = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                code = results(L, d1, d2, W)
                if code == -2:
                    return -1
                best = -1e300
                if code == -1:
                    # no play: the board stands, and the player who just played throws next
                    # (the same value for every throw without a play: reckoned once)
                    if not stood:
                        still = -_on_roll(F, W, theta, I, H, O, levels, util_end, factor,
                                          counts, dm, checkers, full, x, h, y, R, scratch)
                        stood = True
                    if still != still:
                        return -1
                    best = still
                else:
                    best = _best_answer(code, W, theta, I, H, O, levels, util_end, factor,
                                        counts, dm, checkers, full, x, h, y, R, scratch)
                total += (1.0 if d1 == d2 else 2.0) * best
        out[i] = -total / 36.0
    return 0


@njit(cache=True)
def reply_outputs(B, W, theta, I, H, O, counts, dm, checkers, full, Y, K, G):
    """For each end position (rows of B, seen by the player who just played), the
    opponent's answers to each of the 21 throws: row r of Y holds an answer's outputs for the
    opponent (K[r] = 0), or K[r] = k when the answer ends the game with value k, or K[r] = -1
    when the throw has no play (the position stands, the player throws next); G[r] is the
    group of the row, position i's throw j as 21 i + j (the throws in the order of
    engine.branch.DICE). Returns the rows written, or -1 when Y cannot hold them or a throw
    overflows the work space."""
    x = np.empty(I)
    h = np.empty(H)
    y = np.empty(O)
    L = np.empty(SIZE, np.int64)
    F = np.empty(SIZE, np.int64)
    R = np.empty(SIZE, np.int64)
    scratch = np.empty(SIZE, np.int64)
    rows = 0
    cap = Y.shape[0]
    for i in range(B.shape[0]):
        for j in range(SIZE):
            F[j] = B[i, j]
        _flip(F, L)
        t = 0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                code = results(L, d1, d2, W)
                if code == -2:
                    return -1
                if code == -1:
                    # no play: K = -1, the row to be valued by the side throwing next
                    if rows >= cap:
                        return -1
                    for o in range(O):
                        Y[rows, o] = 0.0
                    K[rows] = -1
                    G[rows] = 21 * i + t
                    rows += 1
                else:
                    r0, n = _span(code)
                    if rows + n > cap:
                        return -1
                    for c in range(n):
                        _row(W, r0 + c * SIZE, R)
                        G[rows] = 21 * i + t
                        if _end(R) >= 0:
                            kv, _ki = _value(R)
                            K[rows] = kv
                            for o in range(O):
                                Y[rows, o] = 0.0
                        else:
                            _encode(R, x, counts, dm, checkers, full, scratch)
                            _forward(theta, x, I, H, O, h, y)
                            for o in range(O):
                                Y[rows, o] = y[o]
                            K[rows] = 0
                        rows += 1
                t += 1
    return rows
'''

TRAIN = '''

@njit(cache=True)
def _apply(theta, E, step, delta):
    """theta += step * (delta @ E)."""
    O = E.shape[0]
    P = E.shape[1]
    for p in range(P):
        s = 0.0
        for o in range(O):
            s += delta[o] * E[o, p]
        theta[p] += step * s


@njit(cache=True)
def _add_gradients(theta, x, E, scale, I, H, O, h, y, gh):
    """E += d outputs / d theta at x, divided by scale (players/net.py add_gradients)."""
    _forward(theta, x, I, H, O, h, y)
    a = I * H
    bb = a + H
    cc = bb + H * O
    for o in range(O):
        gy = y[o] * (1.0 - y[o]) / scale
        for j in range(H):
            gh[o, j] = theta[bb + j * O + o] * gy * (h[j] * (1.0 - h[j]))
        for j in range(H):
            E[o, bb + j * O + o] += gy * h[j]
        E[o, cc + o] += gy
        for j in range(H):
            E[o, a + j] += gh[o, j]
    for i in range(I):
        xi = x[i]
        if xi != 0.0:
            base = i * H
            for o in range(O):
                for j in range(H):
                    E[o, base + j] += xi * gh[o, j]


@njit(cache=True)
def train_games(start, keys, nkeys, mode, max_turns, W, theta, I, H, O, levels, util_end,
                factor, alpha, lam, counts, dm, checkers, full, E, out):
    """Game g of the run from the dice stream seeded by keys[g] (nkeys[g] words), the network
    playing both sides and learning after each choice; out[g] = (winner, value, turns). Returns
    the number of games played: less than keys.shape[0] when a game's throw overflowed the
    work space (that game's weights are put back)."""
    L = np.empty(SIZE, np.int64)
    F = np.empty(SIZE, np.int64)
    scratch = np.empty(SIZE, np.int64)
    dice = np.empty(625, np.int64)
    X = np.empty((CAP, I))
    h = np.empty(H)
    y = np.empty(O)
    y0 = np.empty(O)
    delta = np.empty(O)
    gh = np.empty((O, H))
    prev = np.empty((2, I))
    has_prev = np.zeros(2, np.bool_)
    live = np.zeros(2, np.bool_)
    scale = np.ones(2)
    saved = np.empty(theta.shape[0])
    K = levels.shape[0]
    for g in range(keys.shape[0]):
        for p in range(theta.shape[0]):
            saved[p] = theta[p]
        for s in range(2):
            has_prev[s] = False
            live[s] = False
            scale[s] = 1.0
        _seed(dice, keys[g], nkeys[g])
        first, d1, d2, ties = _opening(dice, mode)
        if first == 0:
            for i in range(SIZE):
                L[i] = start[i]
        else:
            _flip(start, L)
        mover = first
        turns = 0
        winner = -1
        k = 1
        opening = True
        overflow = False
        while turns < max_turns:
            if opening:
                opening = False
            else:
                d1 = np.int64(_random(dice) * 6) + 1
                d2 = np.int64(_random(dice) * 6) + 1
            turns += 1
            code = results(L, d1, d2, W)
            if code == -2:
                overflow = True
                break
            if code != -1:
                r0, n = _span(code)
                best = 0
                if n > 1:
                    best_v = -1e300
                    best_open = False
                    for c in range(n):
                        _row(W, r0 + c * SIZE, F)
                        v, is_open = _leaf_value(F, X[c], theta, I, H, O, levels, util_end,
                                                 factor, counts, dm, checkers, full, h, y,
                                                 scratch)
                        if v > best_v:
                            best_v = v
                            best = c
                            best_open = is_open
                    if best_open:
                        # the TD step of the player who chose (players/td.py Trainer.chose)
                        s = mover
                        x = X[best]
                        if has_prev[s]:
                            _forward(theta, prev[s], I, H, O, h, y0)
                            _forward(theta, x, I, H, O, h, y)
                            for o in range(O):
                                delta[o] = y[o] - y0[o]
                            if live[s]:
                                _apply(theta, E[s], alpha * scale[s], delta)
                        sc = scale[s] * lam if live[s] else 1.0
                        if sc < 1e-30:
                            for o in range(O):
                                for p in range(E.shape[2]):
                                    E[s, o, p] *= sc
                            sc = 1.0
                        if not live[s]:
                            for o in range(O):
                                for p in range(E.shape[2]):
                                    E[s, o, p] = 0.0
                            live[s] = True
                        scale[s] = sc
                        _add_gradients(theta, x, E[s], sc, I, H, O, h, y, gh)
                        for i in range(I):
                            prev[s, i] = x[i]
                        has_prev[s] = True
                _row(W, r0 + best * SIZE, L)
            e = _end(L)
            if e >= 0:
                winner = mover
                k, _k_i = _value(L)
                break
            _flip(L, F)
            for j in range(SIZE):
                L[j] = F[j]
            mover = 1 - mover
        if overflow:
            for p in range(theta.shape[0]):
                theta[p] = saved[p]
            return g
        # the end: each side's last estimate towards the outcome (Trainer.finish)
        for s in range(2):
            if has_prev[s]:
                won = winner == s
                _forward(theta, prev[s], I, H, O, h, y0)
                for o in range(O):
                    delta[o] = 0.0
                # a play without a winner (stopped at the turn limit) is half a win for each
                delta[0] = 1.0 if won else (0.5 if winner < 0 else 0.0)
                for i in range(K):
                    if winner >= 0 and k >= levels[i]:
                        if won:
                            delta[1 + i] = 1.0
                        else:
                            delta[1 + K + i] = 1.0
                for o in range(O):
                    delta[o] -= y0[o]
                if live[s]:
                    _apply(theta, E[s], alpha * scale[s], delta)
        out[g, 0] = winner
        out[g, 1] = k
        out[g, 2] = turns
    return keys.shape[0]


'''


def play_source(variant: Any) -> str | None:
    """The numba module of the learned player's compiled network for the variant (the
    compiled generator, the turn of the board, the end and value rules, the contact counts, the
    network); None where the throw's leaf is more than its end position or the generator or
    the rules do not compile."""
    from interpreter.native.generator import _family, module_source
    from interpreter.native.modules import plain_source
    from interpreter.players import contact

    gen = variant.generator
    if gen.forbid or gen.moves or _family(gen.rules) != "bg" or variant.geometry.size != 28:
        return None
    if variant.has_roll_hooks or variant.all_off != "end" or variant.doublet_rethrow:
        return None
    part = rules_part(variant)
    if part is None:
        return None
    extra = "\n\n".join([flip_source(variant.geometry.size, variant.geometry.route), part[0],
                          plain_source(contact), NET])
    return module_source(gen.rules, extra)


def trainer_source(variant: Any) -> str | None:
    """The whole numba module of the compiled trainer for the variant (the compiled generator,
    the playout's streams and rules, the contact counts, the network and the training loop);
    None when the compiled playout does not play the variant as the Python loop does."""
    from interpreter.native.generator import _family, module_source
    from interpreter.native.modules import plain_source
    from interpreter.native.playout import playout_part
    from interpreter.players import contact

    gen = variant.generator
    if gen.forbid or gen.moves or _family(gen.rules) != "bg":
        return None
    if playout_part(variant) is None or variant.opening not in OPENING:
        return None
    part = rules_part(variant)
    if part is None:
        return None
    extra = "\n\n".join([MT, flip_source(variant.geometry.size, variant.geometry.route),
                          part[0], GAMES, plain_source(contact), NET, TRAIN])
    return module_source(gen.rules, extra)
