"""Games played in the browser: one `Session` per game, its turn loop suspended at the decision
it waits for (engine/game.py), bots answering their own questions one turn a request.

A session keeps the generator of `Game.play()` suspended between requests: answering a decision
is one `gen.send`, whatever the length of the game (replaying the record at each request would
cost the whole game so far). A bot plays at most one turn in a request (`bot_turn`): the page
asks again while `bot_to_move` is true, so that no request plays a whole game. A turn stopped
because the request's time was up (`interpreter.web.doors.Overrun`) stops the game. `Sessions`
holds the games, bounded in number (the oldest finished ones go first) and idle age.

STATE, the JSON the API returns (docs/play.md):

    variant, name, id     the variant (id, name) and the game's id
    players               {"white": kind, "black": kind, "notes": [...]}: `notes` what a
                          player with a network says of the game once (players/rules_seen.py:
                          the keys the game's rules differ in from those it was trained under)
    position              the position JSON seen by the player on roll (points, bar, off, dice;
                          as many points as the route has: 12 or 18 on the shorter ones)
    on_roll, dice, turns  who is on roll, his dice, the throws so far
    question              null, or {"kind": "play" | "decision", "decision": the decision's own
                          kind (play, enter, go, double, take...), "player": "white" | "black",
                          "choices": [...], "plays": [{"text", "paths": [[[from, to], ...]],
                          "items": [...]}]} for a play; "hint" the strongest bot's choice when
                          asked for (one of the choices), "hint_label" the same in the game's
                          notation, "hint_detail" {"bot", "reason", "difference", "unit",
                          "exact", "second"}, "hint_candidates" the best answers ranked
                          (`HINT_CANDIDATES` at most): [{"play" (in the game's notation),
                          "answer" (the choice it is), "value" (in the unit), "error" (the
                          best's value less its own)}], and at a double "hint_cube"
                          {"numbers": [{"answer": "no double" | "double/take" |
                          "double/pass"..., "value"}], "right": "double, take"...}
    score                 {"ladder": kind, "text": the running score, "sides": the ladder's
                          state with sides named (as saves hold it), "lines": the score in
                          words, as the terminal board shows it}
    items                 what the current throw scored: [{"rule", "name", "side", "points"}]
    finished, winner      whether the play is over, its winner (null: none, or a draw)
    result                the summary of `tablier play --json` once finished
    log                   the lines of the game's log, as `tablier play` prints them, in the
                          game's notation, the scoring rules by name
    notation, notations   the notation the game is shown in (`--notation`), and those the
                          variant has
    labels                the notation's name of each pip of the player on roll (0 off, 25 the
                          bar, 29 the men waiting to enter): how the page writes a play being
                          entered; each play of a play question has its `label` in it
    pips                  both sides' pip counts where the variant is a race, else null
    bot_to_move           true while a bot is asked: the page asks for the state again
    stopped               null, or why the game was stopped (a turn took more than a request's
                          time)
    svg                   the board as SVG, from the side of `view`: the human's, else the
                          side asked where both are people, else white's; in a game with seats
                          a page of one seat sees it from its side, a watcher from white's
    svg_narrow            the same board in its narrow form, for a phone held upright (the
                          frame turned a quarter turn, the points shortened)
    version               how many times the game has changed (an answer, a bot's answer, a
                          hint, a stop): each event of the stream carries it as its `id`, and
                          an answer that names another version than the game's is refused 409
                          (its page showed an older board)
    seated                whether the game has seats (two people: each side is played only
                          with its seat's token)
    cube_note             null, or {"side", "text"}: why a person's cube was not offered
                          before the throw in play (it is dead: "no cube offered to white:
                          post-Crawford, 1 point away: any game won wins the match"), said
                          at the first such throw for each reason

What the STATE of one request adds, by the seat tokens the request gave (`Session.view`):
`seat` (the side the token holds, "both" for the tokens of both sides, null for none),
`seats_given` (the side of each token given, in order, null for a token of no seat) and
`may_answer` (the sides this request may answer for: in a game with seats, those of its
tokens; otherwise every side a person plays). In a game with seats a question's hint is
shown only to the side asked. No STATE ever holds a seat token: the tokens are in the answer
that made the game, and in the links of its players.

A question also says what it asks in words: `text` (to the player asked: "White, your turn:
double to 2, or roll?"), `watch_text` (to everyone else: "White's turn: double to 2, or
roll?") and, for a word decision, `labels` (each choice's button: "Double to 2", "Roll").

A play may be answered in pips (the `text` of a play) or in the game's notation (its `label`,
or any play the notation reads).

Seats: a game of two people (`human` on both sides) gets one unguessable token a side
(`secrets.token_urlsafe`, 192 bits), compared with `hmac.compare_digest`; a resumed game of
two people gets new ones.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any, cast

from interpreter.engine.contract import SIDE_NAMES, Decision
from interpreter.engine.events import Scored, Thrown
from interpreter.engine.game import Game
from interpreter.bounded import shown
from interpreter.errors import TablierError
from interpreter.kernel.board import to_json
from interpreter.web.doors import Overrun
from interpreter.notation import (PIPS, UNENTERED, Notation, in_sentence, notation_for,
                                 notations_of)
from interpreter.players.kinds import HUMAN, notes_for, offered, make_player

#: the longest game a session plays (throws): `tablier play`'s default
MAX_TURNS = 20000
#: the most answers a bot gives in one request (one turn: the cube, the play, go or stay)
MAX_BOT_ANSWERS = 8
#: the requests in a row in which a bot may run out of time before its game is stopped
BOT_OVERRUNS = 2
#: the bytes of randomness of a seat's token (192 bits)
SEAT_BYTES = 24
#: the longest seat token read
MAX_TOKEN_LENGTH = 100
#: how many answers a hint ranks with their values (the page shows the first five)
HINT_CANDIDATES = 10
#: a side's name as a sentence begins it
NAMES = ("White", "Black")
#: what each word decision asks, in words: to the player asked, and to everyone else. {Who}
#: and {who} name the side asked, {Other} and {other} its opponent
ASKED: dict[str, tuple[str, str]] = {
    "go": ("{Who}, you won a hole on your own throw: stay, or go (the men are set up again)?",
           "{Who} won a hole on that throw: stay or go?"),
    "refait": ("{Who}, the holes are equal at six or more: stay, or call a refait (the mark is "
               "replayed)?", "Holes equal at six or more: {who} stays or calls a refait"),
    "concede": ("{Who}, you are behind at six holes or more: stay, or concede the mark?",
                "{Who} is behind at six holes or more: stay or concede the mark?"),
    "banner": ("{Who}, your first hole of the mark: claim the banner?",
               "{Who}'s first hole of the mark: claim the banner?"),
    "necktie": ("{Who}, your first hole of the mark: claim the necktie?",
                "{Who}'s first hole of the mark: claim the necktie?"),
    "continue": ("{Who}, you won the game: play on from the position, or go (afresh)?",
                 "{Who} won the game: play on or go?"),
    "rethrow": ("{Who}, a doublet: throw again?", "{Who} threw a doublet: throw again?"),
    "doublet": ("{Who}, your 1-2 is played: which doublet do you name (you play it, then "
                "throw again)?", "{Who} names a doublet"),
    "resign": ("{Who}, {other} resigns: accept or decline?",
               "{Other} resigns: {who} accepts or declines"),
    "mark": ("{Who}, how many points do you mark?", "{Who} marks the points won"),
    "school": ("{Who}, {other} marked the points wrongly: send {other} to school?",
               "{Other} marked the points wrongly: {who} may send {other} to school"),
}
#: the buttons of the word decisions that say more than their word
LABELS = {"throw": "Throw again", "school": "Send to school", "continue": "Play on"}


class WebError(TablierError):
    """A request the server refuses (HTTP 400, or 404 for an unknown game)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Human:
    """A person at the web board: answers come from the page, never from here. A person may
    double, so the cube asks him."""

    kind = HUMAN
    capabilities: frozenset[str] = frozenset({"doubles"})

    def answer(self, decision: Any) -> int:   # pragma: no cover - the session never calls it
        raise WebError("a person answers from the page")


#: the strongest player a page offers where the variant has a network: the search three throws
#: ahead judged by it (a few seconds a move; what a save may ask for, interpreter/io/save.py)
STRONGEST = "search:3:learned"


def player_kinds() -> list[str]:
    """The kinds a page may choose (the players' registry, players/kinds.py), and the
    strongest, `STRONGEST`, where numpy is there."""
    kinds = offered()
    if "learned" in kinds and STRONGEST not in kinds:
        kinds.insert(kinds.index("learned") + 1, STRONGEST)
    return kinds


_NETWORKS: dict[str, bool] = {}


def networks(ids: list[str]) -> list[str]:
    """The built-in variants of `ids` with a network shipped, theirs or, for a rotation
    (Tavli), one for each of its games: those for which the start page offers the players
    with `learned` in their kind."""
    from importlib import resources

    from interpreter.resources import builtin_variant_path
    from interpreter.variant.loader import load_document

    folder = resources.files("interpreter.players").joinpath("weights")

    def shipped(vid: str) -> bool:
        if builtin_variant_path(vid) is None:
            return False            # a served file: no file is opened by its name here
        if folder.joinpath(f"{vid}.npz").is_file():
            return True
        try:
            games = getattr(load_document(vid, check_rules=False).model.ladder, "games", None)
        except TablierError:
            return False
        if not isinstance(games, (list, tuple)) or not games:
            return False
        return all(isinstance(g, str) and folder.joinpath(f"{g}.npz").is_file() for g in games)

    for vid in ids:
        if vid not in _NETWORKS:
            _NETWORKS[vid] = shipped(vid)
    return [vid for vid in ids if _NETWORKS[vid]]


_NOTATIONS: dict[str, list[str]] = {}


def notations_by_variant(ids: list[str]) -> dict[str, list[str]]:
    """The notations of each built-in variant (`pips` first), for the start page's choice."""
    from interpreter.variant.loader import load_document

    for vid in ids:
        if vid not in _NOTATIONS:
            try:
                _NOTATIONS[vid] = list(notations_of(load_document(vid, check_rules=False)))
            except TablierError:    # pragma: no cover - the shipped files load
                _NOTATIONS[vid] = ["pips"]
    return {vid: _NOTATIONS[vid] for vid in ids}


def _player(kind: str, seed: str, variant: Any = None) -> Any:
    if kind == HUMAN:
        return Human()

    return make_player(kind, seed, variant)


def _notes(kinds: Any, variant: Any) -> list[str]:
    """What the players of `kinds` say of the game in play, each note once."""
    out: list[str] = []
    for kind in kinds:
        if kind != HUMAN:
            out += [n for n in notes_for(kind, variant) if n not in out]
    return out


def jsonable(x: Any) -> Any:
    """Plain JSON data: tuples as lists, keys as strings."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return str(x)


class Session:
    """One game in the server: its variant, seed, players and suspended turn loop."""

    def __init__(self, variant: Any, seed: Any, kinds: tuple[str, str], options: list[str],
                 game: Game, gen: Any, pending: Decision | None, result: Any = None):
        self.id = secrets.token_urlsafe(9)
        self.variant = variant
        self.seed = seed
        self.kinds = kinds
        self.options = options
        self.game = game
        self.gen = gen
        self.pending = pending
        self.result = result
        self.players: tuple[Any, ...] = (Human(), Human())
        self.lock = threading.Lock()
        self.used = time.monotonic()
        self.hint: str | None = None
        self.hint_label: str | None = None
        self.hint_detail: dict[str, Any] | None = None
        #: the best answers ranked with their values (STATE's `question.hint_candidates`)
        self.hint_candidates: list[dict[str, Any]] | None = None
        #: at a double, the cube's numbers (STATE's `question.hint_cube`)
        self.hint_cube: dict[str, Any] | None = None
        #: why the game was stopped (its turn loop interrupted, or a bot out of time)
        self.stopped: str | None = None
        #: whether the turn loop itself was interrupted (the game cannot be saved)
        self.broken = False
        #: the requests in a row whose time ran out while a bot was thinking
        self.overruns = 0
        #: how the page names the points (`--notation`)
        self.notation: Notation = notation_for(variant)
        #: what the players with a network say of the game, once (STATE's `players.notes`)
        self.notes: list[str] = []
        #: the seats of a game of two people: side → token (None: no seats)
        self.seats: dict[int, str] | None = None
        #: how many times the game has changed (STATE's `version`)
        self.version = 0
        #: the last STATE made, with the version it shows (what the event streams send)
        self.snapshot: tuple[int, dict[str, Any]] | None = None
        #: the game's number in its seed's run (a save of `play --game K`; 0 for a new game)
        self.index = 0
        #: the game's whole review, once made (`review`)
        self.reviewed: dict[str, Any] | None = None
        #: why a person's dead cube was not offered before the throw in play (STATE's
        #: `cube_note`: {"side", "text"}), and the reason last said to each side
        self.cube_note: dict[str, str] | None = None
        self.dead_said: dict[int, str] = {}

    @property
    def finished(self) -> bool:
        """Over: finished, stopped, or at the turn cap."""
        return self.pending is None or self.stopped is not None

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is asked (and plays at the next request)."""
        d = self.pending
        return d is not None and self.stopped is None and \
            not isinstance(self.players[d.player], Human)

    @property
    def playing(self) -> Any:
        """The variant of the game being played: the session's own, or in a rotation (Tavli)
        that of its current game, whose board, route and rules the page must follow."""
        return self.game.variant

    # -- making one ------------------------------------------------------------------------------

    @classmethod
    def new(cls, variant: Any, seed: Any, kinds: tuple[str, str], options: list[str],
            notation: str | None = None) -> Session:
        from interpreter.players.base import capabilities_of

        named = notation_for(variant, notation)

        gs = f"{seed}/0"
        players = tuple(_player(k, f"{gs}:{SIDE_NAMES[i]}", variant)
                        for i, k in enumerate(kinds))
        game = Game(variant, gs, max_turns=MAX_TURNS, keep_record=True,
                    doubles=capabilities_of(players))
        # hints (and searching bots) play answers out on copies of the game
        game.branching = True
        gen = game.play()
        s = cls(variant, seed, kinds, options, game, gen, None)
        s.notation = named
        s.players = players
        s.notes = _notes(kinds, variant)
        s.seat_up()
        try:
            s.pending = next(gen)
        except StopIteration as stop:
            s.result = stop.value
        s.skip_dead_cube()
        return s

    @classmethod
    def resume(cls, text: str, catalogue: Any = None) -> Session:
        """A saved game (TOML text) through every check of `tablier play --resume`; its variant
        is found in `catalogue` (`interpreter.web.catalogue.Catalogue`: a built-in id, or a file
        of the served folder of the same name and sha256), never at the path the save names."""
        from interpreter.io import save
        from interpreter.variant.build import load_variant
        from interpreter.web.catalogue import Catalogue, check_settings

        catalogue = catalogue if catalogue is not None else Catalogue()
        data, record = save.read_save_text(text)
        for kind in record.players:
            if kind not in player_kinds():
                raise save.SaveError(f"unknown player kind {kind!r} in the save; the kinds are "
                                     f"{', '.join(player_kinds())}")
        check_settings(record.options, "the save's options")
        variant = load_variant(save.variant_ref(record, lookup=catalogue.for_save),
                               list(record.options))
        gs = record.game_seed
        players = tuple(_player(k, f"{gs}:{SIDE_NAMES[i]}", variant)
                        for i, k in enumerate(record.players))
        run = save.checked_replay(data, record, variant, players, MAX_TURNS)
        run.game.branching = True
        s = cls(variant, record.seed, record.players, list(record.options), run.game, run._gen,
                run.pending, run.result)
        s.notation = notation_for(variant, save.notation_of(data))
        s.players = players
        s.notes = _notes(record.players, variant)
        s.index = record.index
        s.seat_up()         # a resumed game of two people gets new seats
        s.skip_dead_cube()
        return s

    # -- seats -----------------------------------------------------------------------------------

    def seat_up(self) -> None:
        """Give a game of two people its seats: one new token a side."""
        if tuple(self.kinds) == (HUMAN, HUMAN):
            self.seats = {side: secrets.token_urlsafe(SEAT_BYTES) for side in (0, 1)}

    def seat_of(self, token: Any) -> int | None:
        """The side whose seat `token` is (None: no seat of this game). Every seat is compared,
        in constant time."""
        if self.seats is None or not isinstance(token, str) or \
                not 0 < len(token) <= MAX_TOKEN_LENGTH:
            return None
        given = token.encode("utf-8", "replace")
        found = None
        for side, seat in self.seats.items():
            if hmac.compare_digest(given, seat.encode("ascii")):
                found = side
        return found

    def may_answer(self, tokens: Any) -> set[int]:
        """The sides a request with the seat `tokens` may answer for: in a game with seats,
        its seats'; otherwise every side a person plays."""
        if self.seats is None:
            return {i for i, k in enumerate(self.kinds) if k == HUMAN}
        return {s for s in map(self.seat_of, tokens) if s is not None}

    def view(self, state: dict[str, Any], tokens: Any = ()) -> dict[str, Any]:
        """`state` as the request with the seat `tokens` sees it: its `seat`, `seats_given`
        and `may_answer`; in a game with seats, a question's hint only for the side asked."""
        given = [self.seat_of(t) for t in tokens]
        held = {s for s in given if s is not None}
        allowed = self.may_answer(tokens)
        out = dict(state)
        svgs = out.pop("svgs", None)
        narrow = out.pop("svgs_narrow", None)
        if svgs is not None and len(held) < 2:
            # the board from the seat's side; a watcher's from white's, not turning each throw
            out["view"] = SIDE_NAMES[min(held)] if held else "white"
            out["svg"] = svgs[out["view"]]
            if narrow is not None:
                out["svg_narrow"] = narrow[out["view"]]
        out["seat"] = None if not held else "both" if len(held) == 2 else SIDE_NAMES[min(held)]
        out["seats_given"] = [None if s is None else SIDE_NAMES[s] for s in given]
        out["may_answer"] = [SIDE_NAMES[s] for s in sorted(allowed)]
        q = state.get("question")
        if self.seats is not None and q is not None and "hint" in q and \
                SIDE_NAMES.index(q["player"]) not in allowed:
            out["question"] = {k: v for k, v in q.items() if not k.startswith("hint")}
        return out

    # -- answering -------------------------------------------------------------------------------

    def bot_turn(self, until: float | None = None) -> int:
        """One turn of the bot asked, if a bot is asked: its answers while it is asked, up to
        and including its play (at most `MAX_BOT_ANSWERS`), none begun after the monotonic time
        `until`. The number of answers given."""
        n = 0
        side = None if self.pending is None else self.pending.player
        while self.bot_to_move and n < MAX_BOT_ANSWERS:
            d = cast(Decision, self.pending)        # a bot is asked
            if d.player != side or (n and until is not None and time.monotonic() > until):
                break
            p = self.players[d.player]
            try:
                answer = p.answer(d)
            except Overrun:
                # the game is as it was: the next request tries again, once
                self.overruns += 1
                if self.overruns >= BOT_OVERRUNS:
                    self.stop(f"the {self.kinds[d.player]} bot needed more time for its "
                              f"{d.kind} than a request may take, twice")
                raise
            self.overruns = 0
            self._send(answer)
            n += 1
            if d.is_play:
                break
        return n

    def stop(self, why: str, broken: bool = False) -> None:
        """Stop the game, saying why (`broken`: its turn loop was interrupted)."""
        if self.stopped is None:
            self.stopped = why
        self.broken = self.broken or broken
        self.version += 1

    def _send(self, answer: Any) -> None:
        self.hint = None
        self.hint_detail = None
        self.hint_candidates = None
        self.hint_cube = None
        self.cube_note = None
        self._step(answer)
        self.skip_dead_cube()

    def _step(self, answer: Any) -> None:
        """Send `answer` to the turn loop: the next decision, or the end."""
        self.version += 1
        try:
            self.pending = self.gen.send(answer)
        except StopIteration as stop:
            self.pending = None
            self.result = stop.value
        except Overrun:
            self.stop("the next turn needed more work than a request may take", broken=True)
            raise

    def skip_dead_cube(self) -> None:
        """A person whose cube is dead (the ladder's `dead`: nothing he could do with it would
        help him) is not asked to double: he throws at once, as at the terminal, and the first
        such throw says why (STATE's `cube_note`), once for each reason."""
        while True:
            d = self.pending
            if d is None or self.stopped is not None or d.kind != "double" or \
                    not isinstance(self.players[d.player], Human):
                return
            why = d.view.ladder.get("dead")
            if not why or "roll" not in d.choices:
                # the cube lives: the next dead cube is said again
                self.dead_said.pop(d.player, None)
                return
            side = d.player
            said = self.dead_said.get(side) == why
            self.dead_said[side] = why
            self._step(list(d.choices).index("roll"))
            if not said:
                self.cube_note = {"side": SIDE_NAMES[side],
                                  "text": f"no cube offered to {SIDE_NAMES[side]}: {why}"}

    def answer(self, text: Any) -> None:
        """A person's answer to the question asked: a play in notation (or exactly one of the
        listed texts), or a decision's word. IllegalAnswer (nothing played) otherwise."""
        d = self.pending
        if self.stopped is not None:
            raise WebError(f"the game is stopped: {self.stopped}")
        if d is None:
            raise WebError("the game is over: there is nothing to answer")
        if not isinstance(self.players[d.player], Human):
            raise WebError("the question is a bot's: it answers at the next request")
        if not isinstance(text, str) or len(text) > 200:
            raise WebError("an answer is a string of at most 200 characters")
        words = d.words()
        text = text.strip()
        labels = self.labels_of(d) if d.is_play else []
        if text in words:
            i = words.index(text)
        elif text in labels:
            i = labels.index(text)
        elif not d.is_play:
            raise WebError(f"{shown(text, 60)} is not an answer to the question asked now "
                           f"({self.asked(d)[1]}; the choices are {', '.join(map(repr, words))})")
        elif d.is_play and self.notation.name not in ("pips", "magriel"):
            # a play typed in the game's notation, read into pips
            steps = self.notation.parse(text, d.player)
            i = d.index(" ".join(f"{PIPS.label(a)}u" if a == b else
                                 f"{PIPS.label(a)}/{PIPS.label(b)}" for a, b in steps)
                        if steps else "-")
        else:
            i = d.index(text)
        self._send(i)

    def ask_hint(self) -> str:
        """What the strongest bot would answer to the question asked (nothing is played): the
        best answer, the next best and by how much, and the `HINT_CANDIDATES` best answers
        ranked with their values in the game's unit and what each gives up to the best (at
        a double, the cube's numbers too)."""
        d = self.pending
        if self.stopped is not None:
            raise WebError(f"the game is stopped: {self.stopped}")
        if d is None:
            raise WebError("the game is over: there is nothing to answer")
        from interpreter.players.hint import cube_numbers, cube_verdict, ranking

        r = ranking(d, deep=HINT_CANDIDATES)
        words = self.labels_of(d) if d.is_play else list(d.words())
        answers = d.words()
        best = r.choices[0]
        # the hint as one of the choices (the API's), and as the page shows it
        self.hint = answers[best.index]
        self.hint_label = words[best.index]
        # the second-best answer and by how much the best beats it, in the judge's unit, the
        # plays in the game's notation
        second = words[r.choices[1].index] if len(r.choices) > 1 else None
        difference = round(round(best.value, 4) - round(r.choices[1].value, 4), 4) \
            if second is not None else 0.0
        reason = None
        if second is not None:
            reason = (f"worth {best.value:+.3f} {r.unit}, {difference:.3f} more than the "
                      f"next best, {second}" +
                      ("" if r.exact else " (judged without playing it out)"))
        self.hint_detail = {"bot": r.bot, "reason": reason, "difference": difference,
                            "unit": r.unit, "exact": r.exact, "second": second}
        self.hint_candidates = [
            {"play": words[c.index], "answer": answers[c.index], "value": round(c.value, 4),
             "error": round(max(best.value - c.value, 0.0), 4)}
            for c in r.choices[:HINT_CANDIDATES]]
        self.hint_cube = None
        if d.kind == "double":
            numbers = cube_numbers(d, ranked_by=r)
            if numbers:
                self.hint_cube = {"numbers": [{"answer": w, "value": round(v, 4)}
                                              for w, v in numbers],
                                  "right": cube_verdict(numbers)}
        self.version += 1
        return self.hint

    def labels_of(self, d: Decision) -> list[str]:
        """Each play of the play decision `d` written in the game's notation as players write
        it, as the log will write it once played (one checker's moves joined, equal moves
        counted, the bar, off and the men waiting to enter by their words)."""
        return [self.notation.log_text(w, d.player) for w in d.words()]

    def pip_labels(self) -> dict[str, str]:
        """The notation's name of each pip of the player on roll (0 off, 25 the bar, 29 the
        men waiting to enter)."""
        side = self.game.mover if self.pending is None else self.pending.player
        n = self.notation
        geometry = self.playing.geometry
        if geometry.wide:
            # the steps of a board of 36 points name its slots: each slot by its pip's label
            return {str(slot): n.label(code, side) for slot, code in geometry.codes.items()}
        return {str(p): n.label(p, side) for p in (*range(0, 26), UNENTERED)}

    # -- what the page sees ----------------------------------------------------------------------

    def view_side(self) -> int:
        """The side the board is drawn from: the one person's, else the side asked, else
        white's."""
        humans = [i for i, k in enumerate(self.kinds) if k == HUMAN]
        if len(humans) == 1:
            return humans[0]
        if self.pending is not None and humans:
            return self.pending.player
        return 0

    def board(self) -> tuple:
        """The board seen by the player on roll (before the play, while a play is asked)."""
        g = self.game
        d = self.pending
        return g.choice_base if d is not None and d.is_play else g.board

    def plays(self) -> list[dict]:
        """Each legal play of the play question: its text and its step sequences."""
        d = cast(Decision, self.pending)     # a play is being asked
        g = self.game
        texts = d.words()
        labels = self.labels_of(d)
        plays = g._current_plays(d)
        off = self.playing.move_rules.off_pip
        out = []
        for i, (text, p) in enumerate(zip(texts, plays)):
            seen: set[tuple] = set()
            paths = []
            for path in p.paths:
                steps = tuple((s[0], 0 if s[1] <= off else s[1]) for s in path)
                if steps and steps not in seen:
                    seen.add(steps)
                    paths.append([list(s) for s in steps])
            items = [{"rule": r, "name": self.rule_name(r), "side": to, "points": pts}
                     for r, to, pts, _w in g.play_items(i)] if g._choice_items else []
            out.append({"text": text, "label": labels[i], "paths": paths, "items": items})
        return out

    def rule_name(self, rule_id: str) -> str:
        rules = getattr(self.playing.model, "rules", None) or {}
        r = rules.get(rule_id)
        return getattr(r, "name", None) or rule_id

    def throw_items(self) -> list[dict]:
        """What the current (or last) throw scored, rule by rule."""
        log = self.game.log
        i = len(log) - 1
        while i >= 0 and not isinstance(log[i], Thrown):
            i -= 1
        out = []
        for e in log[i + 1:] if i >= 0 else []:
            if isinstance(e, Scored):
                out.append({"rule": e.rule, "name": self.rule_name(e.rule),
                            "side": SIDE_NAMES[e.side], "points": e.points})
        return out

    def preview(self, steps: Any) -> tuple:
        """The board after the first steps of a play being entered (each a [from, to] pair of
        a legal step sequence), seen by the player on roll."""
        return self._previewed(steps)[0]

    def used_dice(self, steps: Any) -> list[int]:
        """The numbers the first steps of a play being entered use (as `preview` reads them):
        the dice to draw greyed. A step from the bar on a route of 12 points is 13 - d, a
        checker borne off by a higher number uses that number."""
        return self._previewed(steps)[1]

    def _previewed(self, steps: Any) -> tuple[tuple, list[int]]:
        d = self.pending
        if d is None or d.kind != "play" and d.kind != "enter":
            raise WebError("no play is being entered")
        if not isinstance(steps, list) or len(steps) > 8 or not all(
                isinstance(s, list) and len(s) == 2 and all(type(x) is int for x in s)
                for s in steps):
            raise WebError("steps are a list of at most 8 [from, to] pairs of integers")
        want = [tuple(s) for s in steps]
        off = self.playing.move_rules.off_pip
        for p in self.game._current_plays(d):
            for path in p.paths:
                if len(path) >= len(want) and all(
                        (s[0], 0 if s[1] <= off else s[1]) == w for s, w in zip(path, want)):
                    return (self.playing.generator.apply(self.board(), path[:len(want)]),
                            [int(s[2]) for s in path[:len(want)]])
        raise WebError(f"{steps} begins no legal play")

    def _passed_throw(self) -> Any:
        """The log's entry of the numbers in play when they were passed on by the opponent
        (a `Thrown` with `passed`), else None."""
        for e in reversed(self.game.log):
            if isinstance(e, Thrown):
                return e if e.passed else None
        return None

    def dice(self) -> tuple[int, ...] | None:
        """The dice of the player on roll: none before his throw (a cube question)."""
        g = self.game
        d = self.pending
        if not g.turns or d is not None and d.kind in ("double", "take"):
            return None
        return g.dice

    def svg(self, board: tuple | None = None, side: int | None = None, **kw: Any) -> str:
        """The board as SVG, drawn from `side` (default `view_side`)."""
        from interpreter.svg import marking_of, position_svg

        g = self.game
        b = self.board() if board is None else board
        dice = self.dice()
        side = self.view_side() if side is None else side
        labels = {p: self.notation.label(p, side)
                  for p in range(1, self.playing.geometry.points + 1)}
        try:
            marking = marking_of(g.ladder.sides())
        except Exception:   # noqa: BLE001 - the board is drawn without the marks
            marking = None
        return position_svg(self.playing, b, dice=dice, mover=g.mover, side=side,
                            labels=labels, cube=self.cube(), marking=marking,
                            choices=g.choosing is None, **kw)

    def cube(self) -> tuple[int, str | None] | None:
        """The cube where the ladder has one in use: (its value, "white" | "black" | None
        for its owner)."""
        cube = getattr(self.game.ladder, "cube", None)
        if cube is None or not getattr(cube, "enabled", False):
            return None
        owner = cube.owner
        return int(cube.value), None if owner is None else SIDE_NAMES[owner]

    def state(self) -> dict[str, Any]:
        from interpreter.render import LogWriter, ladder_text, result_line
        from interpreter.terminal import ladder_lines, pip_counts, races

        g = self.game
        d = self.pending
        b = self.board()
        position = to_json(b)
        points = self.playing.geometry.points
        if points != 24:
            # a route of 12, 18 or 36 points: its pips only, as the position JSON has them
            position["points"] = list(self.playing.geometry.pips_of(b))
        dice = self.dice()
        if dice is not None:
            position["dice"] = list(dice)
        kind = getattr(self.variant.ladder, "kind", "game")
        sides = g.ladder.sides()
        question: dict[str, Any] | None = None
        if d is not None and self.stopped is None:
            question = {"kind": "play" if d.is_play else "decision", "decision": d.kind,
                        "player": SIDE_NAMES[d.player], "choices": list(d.words())}
            question["text"], question["watch_text"] = self.asked(d)
            if not d.is_play:
                question["labels"] = self.choice_labels(d)
            if d.kind == "choose" and self.game.choosing is not None:
                # a choice before the game's first throw: the file's title and description
                rule = self.game.choosing
                question["title"] = rule.title
                question["description"] = " ".join(str(rule.description or "").split())
            if d.is_play:
                question["plays"] = self.plays()
            if self.hint is not None:
                question["hint"] = self.hint
                question["hint_label"] = self.hint_label
                question["hint_detail"] = self.hint_detail
                question["hint_candidates"] = self.hint_candidates
                question["hint_cube"] = self.hint_cube
        res = self.result
        out: dict[str, Any] = {
            "id": self.id, "variant": self.variant.id, "name": self.variant.name,
            "players": {"white": self.kinds[0], "black": self.kinds[1],
                        "notes": list(self.notes)},
            "position": position, "on_roll": SIDE_NAMES[g.mover],
            "dice": None if dice is None else list(dice), "turns": g.turns,
            "question": question,
            "score": {"ladder": kind, "text": ladder_text(kind, sides), "sides": jsonable(sides),
                      "lines": self.score_lines(ladder_lines)},
            "items": self.throw_items(),
            "finished": bool(res is not None and res.finished),
            "winner": None if res is None or res.winner is None else SIDE_NAMES[res.winner],
            "result": None,
            "log": self.log_lines(LogWriter),
            "view": SIDE_NAMES[self.view_side()],
            "bot_to_move": self.bot_to_move,
            "stopped": self.stopped,
            "notation": self.notation.name, "notations": list(notations_of(self.variant)),
            "labels": self.pip_labels(),
            "pips": None,
            "version": self.version,
            "seated": self.seats is not None,
            "cube_note": self.cube_note,
        }
        if races(self.playing):
            mine, theirs = pip_counts(self.playing, b)
            counts = (mine, theirs) if g.mover == 0 else (theirs, mine)
            out["pips"] = {"white": counts[0], "black": counts[1]}
        if res is not None:
            summary = res.summary(self.variant.id)
            summary.update({"seed": self.seed, "white": self.kinds[0], "black": self.kinds[1]})
            out["result"] = jsonable(summary)
            # the end as the terminal says it: who won the match or partie, and the score
            out["result"]["text"] = result_line(self.variant, res, summary, "throws")
            contest = self.contest(summary)
            out["result"]["contest"] = contest
            if res.finished and contest is not None:
                # the match or partie is over: the score box says who won it and the final
                # score, not the next game's number, its cube or its pips
                final = out["result"]["text"].split(" (after ")[0]
                if summary.get("match_length"):
                    final += f" (a match to {summary['match_length']})"
                out["score"]["lines"] = [final]
                out["pips"] = None
        out["svg"] = self.svg()
        out["svg_narrow"] = self.svg(narrow=True)
        if self.seats is not None:
            # a player at a screen of his own sees the board from his side, whoever is asked
            out["svgs"] = {name: self.svg(side=i) for i, name in enumerate(SIDE_NAMES)}
            out["svgs_narrow"] = {name: self.svg(side=i, narrow=True)
                                  for i, name in enumerate(SIDE_NAMES)}
        self.snapshot = (self.version, out)
        return out

    def contest(self, summary: dict) -> str | None:
        """What a finished play was beyond one game, as its players call it (`match`,
        `partie`), None for a single game."""
        from interpreter.scoring.registry import ladder_class

        return ladder_class(self.variant.ladder).contest_won(summary)

    # -- a question in words ---------------------------------------------------------------------

    def _cube_values(self) -> tuple[int, int]:
        """(the cube's value now, the value offered: by a double pending, else twice now)."""
        cube = getattr(self.game.ladder, "cube", None)
        value = int(getattr(cube, "value", 1) or 1)
        pending = getattr(cube, "pending", None)
        return value, int(getattr(pending, "value", 2 * value) or 2 * value)

    def asked(self, d: Decision) -> tuple[str, str]:
        """What `d` asks in words: (to the player asked, to everyone else)."""
        who, other = NAMES[d.player], NAMES[1 - d.player]
        names = {"Who": who, "who": who.lower(), "Other": other, "other": other.lower()}
        if d.is_play:
            dice = "-".join(str(x) for x in (self.dice() or ()))
            passed = self._passed_throw()
            if passed is not None:
                # numbers the opponent could not play: no throw of this player's
                dice = f"the passed {passed.passed_text()}"
            enter = ": enter a man" if d.kind == "enter" else ""
            return (f"{who}, your turn to play {dice}{enter}", f"{who} to play {dice}{enter}")
        _value, offered = self._cube_values()
        if d.kind == "double":
            return (f"{who}, your turn: double to {offered}, or roll?",
                    f"{who}'s turn: double to {offered}, or roll?")
        if d.kind == "choose":
            rule = self.game.choosing
            title = "one" if rule is None else in_sentence(rule.title)
            return (f"{who}, choose {title} before the first throw",
                    f"{who} chooses {title} before the first throw")
        if d.kind == "take":
            extra = [c for c in d.choices if c not in ("take", "pass")]
            words = "take, pass or " + " or ".join(extra) if extra else "take or pass"
            return (f"{other} doubles to {offered}: {words}?",
                    f"{other} doubles to {offered}: {who.lower()} to {words}")
        mine, theirs = ASKED.get(d.kind, ("{Who}, " + d.kind + "?", "{Who}: " + d.kind + "?"))
        return mine.format(**names), theirs.format(**names)

    def choice_labels(self, d: Decision) -> dict[str, str]:
        """The button of each choice of the word decision `d`."""
        if d.kind == "choose":
            # the file's labels, as they are
            return {word: word for word in d.choices}
        _value, offered = self._cube_values()
        out = {}
        for word in d.choices:
            label = LABELS.get(word, word[:1].upper() + word[1:])
            if d.kind == "double":
                label = {"double": f"Double to {offered}", "roll": "Roll"}.get(word, label)
            elif d.kind == "take":
                label = {"take": f"Take (the cube at {offered})",
                         "pass": f"Pass (lose {max(offered // 2, 1)})",
                         "beaver": f"Beaver (take, redouble to {2 * offered})",
                         "raccoon": f"Raccoon (redouble to {2 * offered})"}.get(word, label)
            out[word] = label
        return out

    def score_lines(self, lines_of: Any) -> list[str]:
        """The running score in words, the sides by their colours (as the terminal shows it)."""
        side = self.view_side()
        try:
            state = self.game.ladder.state(side)
        except Exception:   # noqa: BLE001 - the words only; `text` has the score
            return []
        return lines_of(state, (SIDE_NAMES[side], SIDE_NAMES[1 - side]))

    def log_lines(self, writer: Any) -> list[str]:
        """The game's log in the game's notation, the scoring rules by name."""
        w = writer(self.variant, notation=self.notation, rule_names=True)
        return w.feed(self.game.log) + w.close()

    def record(self) -> Any:
        """The game's record, as its save holds it (engine/record.py)."""
        from interpreter.engine.record import record_of

        if self.broken:
            raise WebError(f"the game is stopped ({self.stopped}) in the middle of a turn: its "
                           f"record stops there too")
        return record_of(self.game, self.seed, self.kinds, self.options, self.index)

    def review(self, seconds: float) -> dict[str, Any]:
        """The game reviewed as `tablier analyse --json` reviews its save (interpreter/review.py,
        both players, by the strongest player the variant has, plays in the game's notation),
        working at most `seconds`: {"review": the JSON, "text": the review in lines,
        "partial": whether the time ran out first, "seconds": the time taken}. Only once the
        game is over (409 while it is in play); a whole review is kept and given again."""
        if self.pending is not None and self.stopped is None:
            raise WebError("the game is still in play: a game is reviewed once it is over", 409)
        if self.reviewed is not None:
            return self.reviewed
        from interpreter.review import review

        began = time.monotonic()
        r = review(self.record(), variant=self.variant, notation=self.notation,
                   max_seconds=seconds)
        out = {"review": r.to_json(), "text": r.text(), "partial": r.partial is not None,
               "seconds": round(time.monotonic() - began, 2)}
        if r.partial is None:
            self.reviewed = out
        return out

    def save_text(self) -> str:
        """The saved game, as `tablier play --save` writes it (TOML)."""
        import tomli_w

        from interpreter.io import save

        if self.broken:
            raise WebError(f"the game is stopped ({self.stopped}) in the middle of a turn: it "
                           f"cannot be saved")
        record = self.record()
        return tomli_w.dumps(save.save_data(record, save.state_of(self.game, self.pending),
                                            self.notation.name))


class Sessions:
    """The games of the server, at most `limit`, each forgotten after `max_idle` seconds
    without a request, and together at most `max_turns` throws (a game holds its record and
    its checkpoints: about 1 KB a throw). When the store is full, the finished game used least
    recently goes first, else the game idle the longest."""

    def __init__(self, limit: int = 100, max_idle: float = 6 * 3600,
                 max_turns: int = 400_000):
        self.limit = limit
        self.max_idle = max_idle
        self.max_turns = max_turns
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def _drop_one(self, keep: str | None = None) -> bool:
        """Forget the finished game used least recently, else the one idle the longest (never
        `keep`); False when there is none."""
        others = [k for k in self._games if k != keep]
        if not others:
            return False
        finished = next((k for k in others if self._games[k].finished), None)
        del self._games[finished if finished is not None else others[0]]
        return True

    def _trim(self, keep: str | None = None) -> None:
        while sum(g.game.turns for g in self._games.values()) > self.max_turns:
            if not self._drop_one(keep):
                return

    def add(self, s: Session) -> None:
        with self._lock:
            self._expire()
            while len(self._games) >= self.limit and self._drop_one():
                pass
            self._games[s.id] = s
            self._trim(s.id)

    def get(self, game_id: str) -> Session:
        with self._lock:
            self._expire()
            self._trim(game_id)
            s = self._games.get(game_id)
            if s is None:
                raise WebError(f"no game {game_id[:40]!r} (games are kept while the server "
                               f"runs, {self.limit} at most, {self.max_idle / 3600:g} h idle)",
                               status=404)
            s.used = time.monotonic()
            self._games.move_to_end(game_id)
            return s

    def _expire(self) -> None:
        now = time.monotonic()
        for k in [k for k, s in self._games.items() if now - s.used > self.max_idle]:
            del self._games[k]

    def __len__(self) -> int:
        return len(self._games)
