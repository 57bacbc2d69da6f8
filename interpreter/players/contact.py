"""Inputs of the self-taught player that count what a position means where men are hit to the
bar and the two sides run opposite ways round (the backgammon family's geometry): how many of
the 36 throws hit a blot, how many let the rearmost man escape, primes, points, blots, and
whether the two sides are still in contact.

The raw inputs (`features.py`) say where every man stands; a small network learns from them
slowly what a throw's reach over open and closed points means. These counts give it that reach
directly, as TD-Gammon's later versions gave theirs.

Every function here is plain Python over int64 arrays and ints, so that the same text serves
both paths: `features.py` runs it as Python (or compiled, where numba is installed), and the
compiled training loop (`interpreter/native/td_emit.py`) takes this file's text into its own
numba module, so a change here is a change of that module's source and of its cache key.

The board is the kernel's 28-slot board (`kernel/board.py`) seen from side A (the men counted
positive); B's men are negative, run from A's pip 1 towards A's pip 24, and enter from B's bar
(slot 26) on A's pips 1..6. A point holding two or more of a side's men is closed to the other.
"""

#: the names of the inputs `contact_inputs` writes, in their order
NAMES = ["shots_me", "escape_me", "prime_me", "trap_me", "home_me", "anchors_me", "blots_me",
         "shots_opp", "escape_opp", "prime_opp", "trap_opp", "home_opp", "anchors_opp",
         "blots_opp", "contact"]
#: how many inputs that is
COUNT = 15


def hit_by(v, d1, d2, dm):
    """Whether B, throwing d1-d2 (a doublet gives dm single moves), can hit one of A's blots
    on the board v: entering first while B has men on the bar, landing only on points A has
    not closed, a combined move resting on an open point on the way."""
    barb = v[26]
    if d1 == d2:
        rest = dm
        if barb > 0:
            if v[d1] >= 2:
                return False
            if v[d1] == 1:
                return True
            if barb >= dm:
                return False
            rest = dm - barb
        for q in range(1, 25):
            if v[q] < 0 or (barb > 0 and q == d1):
                pos = q
                for _j in range(rest):
                    pos += d1
                    if pos > 24 or v[pos] >= 2:
                        break
                    if v[pos] == 1:
                        return True
        return False
    if barb >= 2:
        return v[d1] == 1 or v[d2] == 1
    for order in range(2):
        a = d1 if order == 0 else d2
        c = d2 if order == 0 else d1
        if barb == 1:
            if v[a] >= 2:
                continue
            if v[a] == 1:
                return True
            for q in range(1, 25):
                if v[q] < 0 or q == a:
                    t = q + c
                    if t <= 24 and v[t] == 1:
                        return True
        else:
            for q in range(1, 25):
                if v[q] < 0:
                    t = q + a
                    if t > 24 or v[t] >= 2:
                        continue
                    if v[t] == 1:
                        return True
                    t2 = t + c
                    if t2 <= 24 and v[t2] == 1:
                        return True
    return False


def escapes_with(v, rear, low, d1, d2, dm):
    """Whether A's man on pip `rear` (25: the bar) can pass every point B has closed below it
    (the lowest of them is `low`) with the throw d1-d2, landing only on points B has not
    closed."""
    if d1 == d2:
        pos = rear
        for _j in range(dm):
            pos -= d1
            if pos < low:
                return True
            if v[pos] <= -2:
                return False
        return False
    for order in range(2):
        a = d1 if order == 0 else d2
        c = d2 if order == 0 else d1
        t = rear - a
        if t < low:
            return True
        if v[t] <= -2:
            continue
        if t - c < low:
            return True
    return False


def rear_of_a(v):
    """A's rearmost man as a pip of his (25: on the bar, 0: none on the board)."""
    if v[25] > 0:
        return 25
    for p in range(24, 0, -1):
        if v[p] > 0:
            return p
    return 0


def rear_of_b(v):
    """B's rearmost man as a pip of A's (0: on the bar, 25: none on the board)."""
    if v[26] > 0:
        return 0
    for p in range(1, 25):
        if v[p] < 0:
            return p
    return 25


def side_inputs(v, dm, out, at):
    """Side A's seven counts, written to out[at:at + 7]: the share of B's 36 throws that hit
    an A blot, the share of A's throws that take his rearmost man past the points B has closed
    within twelve pips in front of it, A's
    longest prime, his longest prime with a B man behind it (sixths), his closed points in his
    home board (sixths) and in B's (thirds, at most 1), his blots (sixths, at most 1)."""
    shots = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            if hit_by(v, d1, d2, dm):
                shots += 1 if d1 == d2 else 2
    rear = rear_of_a(v)
    low = 0
    for p in range(max(rear - 12, 1), rear):
        if v[p] <= -2:
            low = p
            break
    escape = 36
    if rear > 0 and low > 0:
        escape = 0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                if escapes_with(v, rear, low, d1, d2, dm):
                    escape += 1 if d1 == d2 else 2
    back_b = rear_of_b(v)
    prime = 0
    trap = 0
    run = 0
    for p in range(1, 26):
        if p <= 24 and v[p] >= 2:
            run += 1
            continue
        if run > prime:
            prime = run
        if run > trap and back_b < p - run:
            trap = run
        run = 0
    home = 0
    for p in range(1, 7):
        if v[p] >= 2:
            home += 1
    anchors = 0
    for p in range(19, 25):
        if v[p] >= 2:
            anchors += 1
    blots = 0
    for p in range(1, 25):
        if v[p] == 1:
            blots += 1
    out[at] = shots / 36.0
    out[at + 1] = escape / 36.0
    out[at + 2] = min(prime, 6) / 6.0
    out[at + 3] = min(trap, 6) / 6.0
    out[at + 4] = home / 6.0
    out[at + 5] = min(anchors, 3) / 3.0
    out[at + 6] = min(blots, 6) / 6.0


def turn_board(b, out):
    """The board b seen by the other side (backgammon's route), into out."""
    out[0] = b[27]
    for p in range(1, 25):
        out[p] = -b[25 - p]
    out[25] = b[26]
    out[26] = b[25]
    out[27] = b[0]


def in_contact(v):
    """Whether some man of A still has to pass some man of B."""
    return rear_of_a(v) > rear_of_b(v)


def contact_inputs(b, dm, scratch, out, at):
    """The `COUNT` inputs of board b (the mover's view) into out[at:]: the mover's counts,
    then the same counts of the board turned to his opponent, then whether the sides are still
    in contact. `scratch` is a 28-slot int64 array the function may overwrite."""
    side_inputs(b, dm, out, at)
    turn_board(b, scratch)
    side_inputs(scratch, dm, out, at + 7)
    out[at + 14] = 1.0 if in_contact(b) else 0.0
