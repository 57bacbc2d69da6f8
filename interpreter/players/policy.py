"""The bots' judgement: a rough evaluation of a position and each ladder's decision policy.

Every function here judges from a `Decision` (interpreter/engine/contract.py) and its `View`
only: the board seen by the player asked, the dice, the points of the throw so far, and each
ladder's state as plain data (`view.ladder`). Nothing reads the game itself.
"""
from __future__ import annotations

from typing import Any

from interpreter.kernel.board import BAR, OFF, OPP_BAR, OPP_OFF, OPP_POOL, POOL, Board

#: race thresholds (the roller's pip lead over his own pip count), the 8-9-12 rule of thumb
RACE_DOUBLE, RACE_REDOUBLE, RACE_TAKE, RACE_BEAVER = 0.08, 0.09, 0.12, 0.02
#: contact thresholds, on the scale of `evaluate` (roller's value minus the opponent's); set from
#: greedy self-play, where these leads give the roller about 70 %, 72 %, 79 % and 43 % of games
CONTACT_DOUBLE, CONTACT_REDOUBLE, CONTACT_TAKE, CONTACT_BEAVER = 6.0, 7.0, 9.0, 3.0
#: 12-point: pips from which one number can bear a man off when Home is pip 1 (a six reaches
#: from pip 7), and the side prime (own corner and points 7-11) for judging a position
NEAR_HOME = range(2, 8)
SIDE_PRIME = range(13, 19)
SUSPEND_ECRIRE, SUSPEND_HONOURS = "suspend ecrire", "suspend honours"


def evaluate(variant: Any, b: Board) -> float:
    """A rough value of a position for the player who has just moved (higher is better).

    Race (pips still to travel), checkers off, points made, and, where hits exist, blots the
    opponent could hit and opponent checkers sent back. Generic over the variants: it reads only
    the board and the movement switches.
    """
    rules = variant.move_rules
    hits = rules.hit != "none"
    my_pips = their_pips = 0
    made = blots = 0
    for p in range(1, 25):
        x = b[p]
        if x > 0:
            my_pips += p * x
            if x >= 2:
                made += 1
            elif hits:
                # a blot is in danger when an opponent checker stands behind it within reach
                for q in range(max(1, p - 12), p):
                    if b[q] < 0:
                        blots += 1 + (p > 12)
                        break
        elif x < 0:
            their_pips += (25 - p) * -x
    my_pips += 25 * b[BAR]
    their_pips += 25 * b[OPP_BAR]
    geometry: Any = getattr(variant, "geometry", None)
    if getattr(geometry, "wide", False):
        # the 36 points of XII scripta: the shared middle row (the same pips for both), and
        # the men off the board counted from the entry, pip 37, for both sides
        for p in range(25, geometry.points + 1):
            x = b[geometry.slot(p)]
            my_pips += p * x if x > 0 else 0
            their_pips += p * -x if x < 0 else 0
        entry = geometry.points + 1
        my_pips += (entry - 25) * b[BAR] + entry * b[POOL]
        their_pips += (entry - 25) * b[OPP_BAR] + entry * b[OPP_POOL]
    return (their_pips - my_pips) * 0.1 + b[OFF] * 2.0 + made * 1.0 - blots * 1.5 \
        + b[OPP_BAR] * 3.0


def worse(view: Any) -> bool:
    """Whether the player's position is worse than his opponent's (`evaluate` rates a position
    for one side only: it is compared with the opponent's view of the same board)."""
    v = view.variant
    return evaluate(v, view.board) < evaluate(v, v.flip(view.board))


def gains_a_hole(view: Any) -> bool:
    """Whether the opponent's points from this throw would make him a hole."""
    theirs = view.pending[1]
    s = view.ladder
    return bool(theirs) and s["points"]["opponent"] + theirs >= s["points_per_hole"]


# -- the game of holes ------------------------------------------------------------------------

def holes_go(view: Any) -> str:
    """Go when the opponent's gains from this throw would give him a hole, or when the position
    is worse than his; otherwise stay."""
    return "go" if gains_a_hole(view) or worse(view) else "stay"


# -- the partie à écrire ----------------------------------------------------------------------

def ecrire(view: Any, question: str) -> str:
    """The answer to each question of the partie (docs/variants/trictrac-ecrire.md):

    - a pick-up: go when the opponent's gains from this throw would make him a hole (going voids
      them); otherwise stay while a lurch without pick-up is alive (the banner: going would lower
      its rate); otherwise go when the position is worse than the opponent's;
    - marking while ahead at six or more: always go;
    - a refait: stay while the roller's own lurch is alive (one more hole of his wins it at a
      lurch rate), unless the opponent's gains from this throw would put him ahead; otherwise
      call the refait when they would, or when the position is worse;
    - a concession: never while the roller's own lurch is alive; otherwise concede when three
      holes or more behind, when the opponent's gains from this throw would make him a hole, or
      two behind in a worse position;
    - banner and necktie: always claim.
    """
    if question in ("banner", "necktie"):
        return "claim"
    s = view.ladder
    gains = gains_a_hole(view)
    bad = worse(view)
    holes = s["mark_holes"]
    if question == "go":
        if max(holes["me"], holes["opponent"]) >= s["obligatory_hole"] or gains:
            return "go"
        if s["banner"]["me"]:
            return "stay"
        return "go" if bad else "stay"
    if question == "refait":
        if gains or (bad and not s["lurch_alive"]["me"]):
            return "refait"
        return "stay"
    if question == "concede":
        if s["lurch_alive"]["me"]:
            return "stay"
        behind = holes["opponent"] - holes["me"]
        if behind >= 3 or gains or (behind == 2 and bad):
            return "concede"
        return "stay"
    return "stay"


# -- combiné ----------------------------------------------------------------------------------

def combine(view: Any, question: str, choices: tuple[str, ...]) -> str:
    """The answer to each question of a partie of combiné (docs/variants/trictrac-combine.md).

    À écrire decides first, as in the partie à écrire (while à écrire is suspended: go when the
    opponent's gains from this throw would make him a hole or the position is worse). Then the
    honours game:

    - when à écrire says go with six holes or more on the mark, the opponent's gains from this
      throw would make him no hole and the position is not worse, suspend à écrire instead: the
      mark is settled exactly as by the go, and the good position is kept for the honours game;
    - when à écrire says stay while the roller holds an honours quadruple or treble right and
      the opponent's gains from this throw would make him a hole, or the position is worse (the
      opponent's next holes would spoil the right), suspend the honours game;
    - otherwise go or hold as à écrire says. Banner and necktie: always claim.
    """
    if question in ("banner", "necktie"):
        return "claim"
    s = view.ladder
    hold, goword = choices[0], choices[1]
    gains = gains_a_hole(view)
    bad = worse(view)
    if s["active"]["ecrire"]:
        wants_go = ecrire(view, s["go_question"]) != "stay"
    else:
        wants_go = gains or bad
    holes = s["mark_holes"]
    if wants_go:
        if SUSPEND_ECRIRE in choices and max(holes["me"], holes["opponent"]) \
                >= s["obligatory_hole"] and not gains and not bad:
            return SUSPEND_ECRIRE
        return goword
    right = s["quadruple_right"]["me"] or s["treble_right"]["me"]
    if SUSPEND_HONOURS in choices and right and (gains or bad):
        return SUSPEND_HONOURS
    return hold


# -- the 12-point Tric-Trac -------------------------------------------------------------------

def continuous(view: Any) -> str:
    """Continue when the winner's excess plus his lead in men about to be borne off and in
    standing side primes is positive, else go away."""
    pending = view.ladder.get("pending")
    if pending is None:
        return "go"
    b = view.board
    near = (sum(b[p] for p in NEAR_HOME if b[p] > 0)
            - sum(-b[25 - p] for p in NEAR_HOME if b[25 - p] < 0))
    prime = (int(all(b[p] >= 2 for p in SIDE_PRIME))
             - int(all(b[25 - p] <= -2 for p in SIDE_PRIME)))
    return "continue" if pending["excess"] + near + 2 * prime > 0 else "go"


# -- the doubling cube ------------------------------------------------------------------------

def _pips(b: Board) -> tuple[int, int]:
    mine = 25 * b[BAR] + sum(p * b[p] for p in range(1, 25) if b[p] > 0)
    theirs = 25 * b[OPP_BAR] + sum((25 - p) * -b[p] for p in range(1, 25) if b[p] < 0)
    return mine, theirs


def is_race(b: Board) -> bool:
    """No contact: every checker of the mover has passed every checker of the opponent."""
    if b[BAR] or b[OPP_BAR]:
        return False
    back = max((p for p in range(1, 25) if b[p] > 0), default=0)
    front = min((p for p in range(1, 25) if b[p] < 0), default=25)
    return back < front


def lead(variant: Any, b: Board) -> tuple[bool, float]:
    """(race, lead) of the player on roll, `b` seen by him: in a race his pip lead over his own
    pip count, with contact the difference of `evaluate` for him and for his opponent (always
    so on a board of 36 points, whose middle row `is_race` does not read)."""
    if is_race(b) and not getattr(getattr(variant, "geometry", None), "wide", False):
        mine, theirs = _pips(b)
        return True, (theirs - mine) / max(mine, 1)
    return False, evaluate(variant, b) - evaluate(variant, variant.flip(b))


def cube(view: Any, question: str) -> str:
    """The answer to a cube question, from the roller's lead:

    * in a race, the 8-9-12 rule of thumb: double at a lead of 8 % (9 % to redouble), take up to
      12 %, beaver a double made with a lead of −2 % or less;
    * with contact, double at `CONTACT_DOUBLE` (redouble at `CONTACT_REDOUBLE`), take up to
      `CONTACT_TAKE`, beaver at `-CONTACT_BEAVER`;
    * in a match: no double when the current cube already wins the match (a dead cube); after the
      Crawford game the trailer doubles at once when the leader needs one point; a player takes
      whenever passing would lose the match.
    """
    s = view.ladder
    roller_view = view.board if view.mover else view.variant.flip(view.board)
    race, edge = lead(view.variant, roller_view)
    length = s["match_length"]
    if question == "double":
        if length:
            if s["away"]["me"] <= s["cube"]:
                return "roll"                   # the cube already wins the match
            if s["away"]["opponent"] == 1 and not s["crawford"]:
                return "double"                 # post-Crawford: the trailer doubles at once
        centred = s["owner"] is None
        if race:
            need = RACE_DOUBLE if centred else RACE_REDOUBLE
        else:
            need = CONTACT_DOUBLE if centred else CONTACT_REDOUBLE
        return "double" if edge >= need else "roll"
    if question == "take":
        p = s["pending"]
        if p is None:
            return "take"
        if length and s["away"]["opponent"] <= p["value"] // 2:
            return "take"                       # passing would lose the match
        doubler_rolls = (p["doubler"] == "me") == view.mover
        offerer_edge = edge if doubler_rolls else -edge
        take, beaver = (RACE_TAKE, RACE_BEAVER) if race else (CONTACT_TAKE, CONTACT_BEAVER)
        if offerer_edge <= -beaver and s["may_redouble_instantly"]:
            return "beaver" if p["instant"] == 0 else "raccoon"
        return "take" if offerer_edge <= take else "pass"
    return "roll"


def resignation(view: Any) -> str:
    """Accept a resignation when it offers at least what the bot expects to win: nothing when
    its position is the worse one; otherwise a single, a gammon when the resigner has borne off
    no checker while the bot has borne some off or leads by a doubling margin, and a backgammon
    when such a gammon has a resigner's checker on the bar or in the bot's home board."""
    levels = ("single", "gammon", "backgammon")
    offered = levels.index(view.resign_offer) + 1 if view.resign_offer in levels else 1
    b = view.board
    if worse(view):
        return "accept"
    expect = 1
    _race, edge = lead(view.variant, b)
    if b[OPP_OFF] == 0 and (b[OFF] > 0 or edge >= CONTACT_DOUBLE):
        expect = 2
        if b[OPP_BAR] or any(b[p] < 0 for p in range(1, 7)):
            expect = 3
    return "accept" if offered >= expect else "decline"


def doublet(view: Any) -> str:
    """The doublet to name after a 1-2 (acey-deucey): the one whose best play leaves the best
    position by `evaluate`, the higher doublet when they are equal."""
    v = view.variant
    best, answer = None, "6"
    for d in range(6, 0, -1):
        value = max(evaluate(v, b) for b in v.generator.results(view.board, d, d))
        if best is None or value > best:
            best, answer = value, str(d)
    return answer


def advise(decision: Any) -> str:
    """The greedy bot's answer to a word decision of any ladder."""
    kind = decision.kind
    view = decision.view
    s = view.ladder
    if kind in ("double", "take"):
        return cube(view, kind)
    if kind == "resign":
        return resignation(view)
    if kind == "school":
        return "school"
    if kind == "mark":
        return str(view.ladder.get("mark_due"))
    if kind == "rethrow":
        return "throw"
    if kind == "doublet":
        return doublet(view)
    # what the ladder's state holds says whose question it is: the continuous match's game
    # (its target), combiné's partie (its games in play), the partie à écrire's mark
    if kind == "continue" and "target" in s:
        return continuous(view)
    if "active" in s:
        return combine(view, kind, tuple(decision.choices))
    if "go_question" in s:
        return ecrire(view, kind)
    if kind == "go":
        return holes_go(view)
    return decision.choices[0]
