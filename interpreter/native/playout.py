"""Random playouts in compiled code (loop_emit.py), and their results made with the variant's
own ladder, as the Python turn loop makes them.

`Playout.play(seeds)` plays one game per seed (the game seeds of `runner.game_seed`) between two
random players in one call of the compiled loop, then gives each game's ladder what the turn
loop would have told it (the start, the opening throw's ties, the end with its winner and
value, the end and value rules that held) and returns the `GameResult`s, the same as
`runner.play_game` returns for those seeds. A game the compiled loop cannot finish (a throw
whose plays overflow the work space) is played by the Python loop.
"""
from __future__ import annotations

import hashlib
from typing import Any, Sequence

from interpreter.engine.contract import END
from interpreter.engine.game import Game, GameResult
from interpreter.native import loop_emit
from interpreter.native.modules import per_variant
from interpreter.players.bots import BOTS

def _one_game(variant: Any) -> bool:
    """Whether the variant's ladder, between two players who never double, asks nothing
    before a throw, plays its own variant with its own opening throw, and is over when the
    first game ends (money play with the cube, a single game): what the compiled loop tells
    it is then all it hears from the Python loop."""
    game = Game(variant, "probe", keep_record=False, doubles=(False, False))
    L = game.ladder
    L.start()
    if L.offers_before_throw or L.first_variant() is not None or L.opening_mode() is not None:
        return False
    return L.game_end(0, 1) is END


@per_variant
def playout_part(variant: Any) -> tuple[str, list[str], list[str]] | None:
    """The playout's source for the variant (loop_emit), with the ids of its end and value
    rules in order; None when the compiled loop does not play it as the Python loop would.
    Written once per variant."""
    from interpreter.native import gen_emit, hooks_emit

    v = variant
    if v.has_roll_hooks or v.all_off != "end" or v.doublet_rethrow:
        return None
    throws = v.throws
    if throws.stages or throws.bonus_throw is not None:
        return None
    if v.geometry.size != 28 or getattr(v, "games", ()):
        return None
    if not _one_game(v):
        return None
    if v.opening not in loop_emit.OPENING:
        return None
    h = hooks_emit.hooked(v)
    if h is not None and (h.paths or h.rules.dice == 3):
        # the Python loop keeps a way to each board for the named states' updates, or throws
        # three dice: the games play in Python
        return None
    part = loop_emit.rules_part(v, with_rules=h is None)
    if part is None:
        return None
    src, _n_end, _n_value = part
    if h is None:
        source = loop_emit.loop_source(v, src)
    else:
        rows_at = gen_emit.layout(h.row)["rows"] + hooks_emit.OUT * gen_emit.CAP * h.row
        source = loop_emit.loop_source(v, src, "hooked", rows_at)
    return (source, [rid for rid, _w, _f in v.rules.end],
            [rid for rid, _w, _f in v.rules.value])


def seed_bytes(text: str) -> bytes:
    """The key `random.Random(text)` seeds MT19937 with, as little-endian 32-bit words (its
    version-2 seeding of a string: the text and its SHA-512 read as one big-endian integer,
    cut into words from the least significant)."""
    raw = text.encode()
    n = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    used = max(1, (n.bit_length() - 1) // 32 + 1)
    return n.to_bytes(used * 4, "little")


class Playout:
    """The compiled random playouts of one variant."""

    def __init__(self, variant: Any, native: Any, end_ids: list[str], value_ids: list[str]):
        import numpy as np

        self.variant = variant
        self.native = native
        self.fn = native.module.play_games
        self.start = np.array(variant.start, dtype=np.int64)
        self.end_ids = end_ids
        self.value_ids = value_ids
        self.mode = loop_emit.OPENING[variant.opening]

    def play(self, seeds: Sequence[str], max_turns: int = 20000) -> list[GameResult]:
        """The results of one game per seed between two random players."""
        import numpy as np

        n = len(seeds)
        words = [[seed_bytes(f"{gs}:{name}") for name in ("dice", "white", "black")]
                 for gs in seeds]
        width = max(len(w) for three in words for w in three) // 4
        keys = np.zeros((n, 3, width), dtype=np.int64)
        nkeys = np.zeros((n, 3), dtype=np.int64)
        for g, three in enumerate(words):
            for k, w in enumerate(three):
                keys[g, k, :len(w) // 4] = np.frombuffer(w, dtype="<u4")
                nkeys[g, k] = len(w) // 4
        out = np.zeros((n, len(loop_emit.OUT)), dtype=np.int64)
        modes = np.full(n, self.mode, dtype=np.int64)
        self.fn(self.start, keys, nkeys, modes, max_turns, self.native.work, out)
        return [self._result(gs, row, max_turns) for gs, row in zip(seeds, out.tolist())]

    def _python(self, gs: str, max_turns: int) -> GameResult:
        """The game of seed `gs` played by the Python loop."""
        v = self.variant
        players = (BOTS["random"](f"{gs}:white"), BOTS["random"](f"{gs}:black"))
        return Game(v, gs, max_turns=max_turns, keep_record=False,
                    doubles=(False, False)).run(players)

    def _result(self, gs: str, row: list[int], max_turns: int) -> GameResult:
        first, ties, winner, end_i, k, k_i, turns, plays, forced, decisions, r0, r1 = row
        v = self.variant
        if first < 0:
            return self._python(gs, max_turns)
        game = Game(v, gs, max_turns=max_turns, keep_record=False, doubles=(False, False))
        L = game.ladder
        L.start()
        game.mover = game.first = first
        game.board = v.start_of(first)
        L.opening(ties)
        game.turns = turns
        game.rolls = [r0, r1]
        game.dice = (0, 0)
        if winner >= 0:
            game.fire(self.end_ids[end_i], winner)
            game.fire(self.value_ids[k_i] if k_i >= 0 else None, winner)
            if L.game_end(winner, k) is not END:
                # a ladder that goes on after this game: the Python loop plays it all
                return self._python(gs, max_turns)
        c = game.play_counts
        c[0], c[1], c[2] = plays, forced, decisions
        return game._finish()
