"""GNU Backgammon as a player (`--white gnubg`, `gnubg:P`), through the PyPI `gnubg` module
(the `gnubg` extra).

Checker plays: gnubg's best play at P plies (default 0), as its own move finder ranks them
(`find_best_moves`) with cubeful evaluations for the match state and cube of the game, or
cubeless ones in a game played without the cube (`ladder.doubling = false`): gnubg's own best
in the game's real context. The module
stops a move tuple at the first checker borne off; when gnubg's best play is such a tuple, the
plays it may be are told apart by gnubg's own evaluation of each one's end position.

Cube decisions: the module evaluates positions cubeless only and gives no cube hint, so the
cubeful equity of a position before the throw is taken as gnubg's own one throw ahead: the
average over the 21 throws of its best play's cubeful score, for each state of the cube (no
double; doubled, the cube owned by the taker; in a match as match-winning chances). It doubles
when doubling gains (and the taker's best answer is still worth it), takes when taking beats
passing.

gnubg plays backgammon and nackgammon (its own variants, same rules, two starting layouts); any
other variant is refused — hypergammon too: the module ships without gnubg's hypergammon
databases and values those positions with backgammon's network.
"""
from __future__ import annotations

import _thread
import queue
import sys
import threading
from dataclasses import replace
from functools import lru_cache
from typing import Any, cast

from interpreter.errors import TablierError
from interpreter.io.gnubg import encode_position_id
from interpreter.scoring.registry import ladder_class

#: the starting layouts gnubg knows (pips seen by each player), with its variation numbers
LAYOUTS = {
    ((24, 2), (13, 5), (8, 3), (6, 5)): ("backgammon", 0),
    ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)): ("nackgammon", 1),
}


class GnubgMissing(TablierError):
    """The `gnubg` module is not installed."""


def module() -> Any:
    """The gnubg module, its functions run in the one thread that imported it (`_Home`)."""
    return _Home.get()


class _Home:
    """gnubg's functions, each run in one thread of its own.

    The module keeps its evaluation state in the thread that imported it: called from another
    thread, it crashes the process (a segmentation fault). The web board answers each request
    in a thread of its own, so gnubg is imported in a daemon thread, and every call is handed
    to it and waited for. The caller waits in short steps, so that a request whose time is up
    can still be stopped (the call in progress ends in gnubg's thread, its answer dropped)."""

    _made: _Home | None = None
    _making = threading.Lock()

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        loaded: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, args=(loaded,), daemon=True,
                         name="tablier-gnubg").start()
        ok, value = loaded.get()
        if not ok:
            raise GnubgMissing("the gnubg player needs the gnubg module: pip install "
                               "'tablier[gnubg]'")
        self._names = frozenset(n for n in dir(value) if not n.startswith("_"))

    @classmethod
    def get(cls) -> Any:
        """The functions of gnubg in their own thread; the module itself where something else
        imported it first (its calls are then the caller's affair: the module's thread is not
        known)."""
        with cls._making:
            if cls._made is None:
                already = sys.modules.get("gnubg")
                if already is not None:
                    return already
                cls._made = cls()
            return cls._made

    def _serve(self, loaded: queue.SimpleQueue) -> None:
        try:
            import gnubg
        except ImportError as exc:
            loaded.put((False, exc))
            return
        loaded.put((True, gnubg))
        while True:
            name, args, kwargs, done, box = self._jobs.get()
            try:
                box.append((True, getattr(gnubg, name)(*args, **kwargs)))
            except Exception as exc:  # noqa: BLE001 - handed to the caller, as raised
                box.append((False, exc))
            done.release()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._names:
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            done = _thread.allocate_lock()
            done.acquire()
            box: list[tuple[bool, Any]] = []
            self._jobs.put((name, args, kwargs, done, box))
            while not done.acquire(timeout=0.05):
                pass
            ok, value = box[0]
            if not ok:
                raise value
            return value
        return call


@lru_cache(maxsize=1)
def _backgammon_rules() -> Any:
    from interpreter.variant.build import load_variant
    return load_variant("backgammon")


def gnubg_variation(variant: Any) -> int:
    """gnubg's variation number for `variant`; TablierError when gnubg does not play it."""
    bg = _backgammon_rules()
    layout = tuple(sorted(variant.layout.items(), reverse=True))
    known = LAYOUTS.get(layout)
    values = {int(v(bg.start, None, None, 0, 0, 0, _ctx())) for _i, _w, v in variant.rules.value}

    same = (replace(variant.move_rules, checkers=15) == bg.move_rules
            and not variant.has_roll_hooks
            and variant.all_off == "end" and not variant.doublet_rethrow
            and ladder_class(variant.ladder).cube_match and values == {2, 3}
            and len(variant.rules.end) == 1)
    if known is None or not same:
        why = ("the gnubg module ships without gnubg's hypergammon databases"
               if variant.checkers == 3 and same else "its rules are not gnubg's")
        raise TablierError(f"gnubg plays backgammon and nackgammon, not {variant.id!r} ({why})")
    return known[1]


def _ctx() -> Any:
    from interpreter.engine.game import _EndContext
    return _EndContext((0, 0))


def _move_text(move: tuple) -> str:
    parts = []
    for i in range(0, len(move) - 1, 2):
        a, b = move[i], move[i + 1]
        parts.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
    return " ".join(parts)


class GnubgPlayer:
    """GNU Backgammon (see the module docstring)."""

    kind = "gnubg"
    capabilities: frozenset[str] = frozenset({"doubles"})

    def __init__(self, variant: Any, plies: int = 0, seed: Any = 0):
        self.g = module()
        self.variant = variant
        self.bgv = gnubg_variation(variant)
        self.plies = plies
        self.ec = self.g.eval_context(1, plies, 1, 0, 0.0)
        self.ec_cubeless = self.g.eval_context(0, plies, 1, 0, 0.0)
        if plies:
            self.kind = f"gnubg:{plies}"

    # -- what gnubg is told -------------------------------------------------------------------

    def board(self, b: tuple) -> Any:
        """gnubg's board of our board `b` (seen by the player on roll)."""
        return self.g.position_from_id(encode_position_id(b))

    def cube_info(self, state: dict, on_roll_me: bool, cube: int | None = None,
                  owner: str | None | bool = False) -> Any:
        """gnubg's cube info, player 1 (gnubg's "move") being the one on roll."""
        value = cube if cube is not None else int(state.get("cube", 1))
        own = state.get("owner") if owner is False else owner
        me, opp = (1, 0) if on_roll_me else (0, 1)
        code = -1 if own is None else (me if own == "me" else opp)
        length = int(state.get("match_length") or 0)
        score = (0, 0)
        if length:
            s = state["score"]
            score = (s["opponent"], s["me"]) if on_roll_me else (s["me"], s["opponent"])
        return self.g.cube_info(value, code, 1, length, score, int(bool(state.get("crawford"))),
                                self.bgv)

    # -- checker plays ------------------------------------------------------------------------

    def answer(self, decision: Any) -> int | str:
        if decision.kind == "play":
            return self.play(decision)
        if decision.kind == "double":
            return self.double(decision)
        if decision.kind == "take":
            return self.take(decision)
        return 0

    def play(self, decision: Any) -> int:
        view = decision.view
        plays, _ = self.variant.generator.plays(view.board, *view.dice)
        _scores, best, _text = self.ranked(view.board, view.dice, view.ladder, plays)
        return list(decision.choices).index(best)

    def ranked(self, b: tuple, dice: tuple[int, int], state: dict,
               plays: list) -> tuple[dict[tuple, float], tuple, str]:
        """gnubg's score of the end position of every legal play (`plays`, the kernel's) from
        board `b` with `dice`, its best end position and that play's text. Scores are those of
        gnubg's move finder; the plays its tuples cut at a bear-off cannot name are matched to
        its remaining scores in the order of gnubg's evaluation of their end positions."""
        from interpreter.kernel.notation import move_text, read_play

        ci = self.cube_info(state, True)
        # a game without the cube (`ladder.doubling = false`) is played for its cubeless value
        ec = self.ec if state.get("enabled", True) else self.ec_cubeless
        found = self.g.find_best_moves(self.board(b), ci, ec, (max(dice), min(dice)))
        scores: dict[tuple, float] = {}
        texts: dict[tuple, str] = {}
        # gnubg's own order breaks ties (a lost position scores every play -1)
        rank: dict[tuple, int] = {}
        cut: list[tuple[float, int]] = []
        for k, m in enumerate(found):
            move = m["move"]
            if len(move) % 2:
                cut.append((float(m["score"]), k))
                continue
            text = _move_text(move)
            try:
                board = read_play(text, plays, b, dice).board
            except TablierError:
                cut.append((float(m["score"]), k))
                continue
            if board not in scores:
                scores[board] = float(m["score"])
                texts[board] = text
                rank[board] = k
        boards = list(dict.fromkeys(p.board for p in plays))
        rest = [bd for bd in boards if bd not in scores]
        if rest:
            flip = self.variant.flip
            own = {bd: -float(self.g.evaluate(self.board(flip(bd)), ci, self.ec_cubeless)[5])
                   for bd in rest}
            rest.sort(key=lambda bd: -own[bd])
            cut.sort(key=lambda sk: (-sk[0], sk[1]))
            for k, bd in enumerate(rest):
                scores[bd], rank[bd] = cut[k] if k < len(cut) else (own[bd], len(found) + k)
        best = min(boards, key=lambda bd: (-scores[bd], rank[bd]))
        if best not in texts:
            path = next(p.paths[0] for p in plays if p.board == best)
            texts[best] = move_text([(st.src, st.dst) for st in path], b) if path else "-"
        return scores, best, texts[best]

    # -- the cube -----------------------------------------------------------------------------

    def _before_throw(self, b: tuple, state: dict, cube: int, owner: str | None) -> float:
        """gnubg's cubeful equity one throw ahead for the player on roll on `b`, the cube at
        `cube` owned by `owner` ("me", "opponent", None), in points (money) or match-winning
        chance (match)."""
        ci = self.cube_info(state, True, cube, owner)
        gb = self.board(b)
        total = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = 1 if d1 == d2 else 2
                moves = self.g.find_best_moves(gb, ci, self.ec, (d2, d1))
                total += w * (moves[0]["score"] if moves else self._stuck(b, state, cube, owner))
        eq = total / 36.0
        if state.get("match_length"):
            return float(self.g.eq_to_mwc(eq, ci))
        return eq * cube

    def _stuck(self, b: tuple, state: dict, cube: int, owner: str | None) -> float:
        """A throw the player on roll on `b` cannot play: the board stands and his opponent
        throws, so it is worth minus gnubg's equity for the opponent on roll (gnubg's
        evaluation of `b` itself is the player's own, before his throw)."""
        ci = self.cube_info(state, False, cube, owner)
        return -float(self.g.evaluate(self.board(self.variant.flip(b)), ci, self.ec)[5])

    def _pass_value(self, state: dict, doubler_me: bool) -> float:
        """What a pass is worth to the doubler: the cube's points (money), or the doubler's
        match-winning chance after winning them."""
        c = int(state.get("cube", 1))
        length = state.get("match_length")
        if not length:
            return float(c)
        table = self.g.met(length)
        away = state["away"]
        a = away["me"] if doubler_me else away["opponent"]
        b = away["opponent"] if doubler_me else away["me"]
        return _met_lookup(table, a - c, b, length, state)

    def double(self, decision: Any) -> str:
        view = decision.view
        s = view.ladder
        b = view.board
        c = int(s.get("cube", 1))
        no_double = self._before_throw(b, s, c, s.get("owner"))
        take = self._before_throw(b, s, 2 * c, "opponent")
        drop = self._pass_value(s, True)
        return "double" if min(take, drop) > no_double else "roll"

    def take(self, decision: Any) -> str:
        view = decision.view
        s = view.ladder
        p = s.get("pending") or {}
        value = int(p.get("value", 2 * int(s.get("cube", 1))))
        # the doubler is on roll: value the position from his side, with the cube taken (owned
        # by the taker), and compare with the pass
        doubler_b = view.board if view.mover else self.variant.flip(view.board)
        from interpreter.players.search import mirror
        ds = cast(dict, mirror(s) if not view.mover else s)
        taken = self._before_throw(doubler_b, ds, value, "opponent")
        passed = self._pass_value(ds, True)
        return "take" if taken < passed else "pass"

    def replayed(self, decision: Any, index: int) -> None:
        """gnubg keeps no state between decisions."""


def _met_lookup(table: Any, a: int, b: int, length: int, state: dict) -> float:
    """The match-winning chance needing a points against b, from gnubg's table (its
    pre-Crawford table; a side at 0 or below has won)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    pre = table[0]
    return float(pre[a - 1][b - 1])
