"""Player kinds beyond `random` and `greedy`, as written on the command line:

    search:N                 the search N throws ahead (1 to 4), judged by the variant file
                             (players/heuristic.py)
    search:N:learned         the same judged by the weights shipped for the variant
    search:N:learned:FILE    … by the weights in FILE
    learned, learned:FILE    the network one throw ahead (= search:1:learned[:FILE])
    rollout:N                each decision valued by N playouts of the greedy bot
    rollout:N:learned[:FILE] … the playouts cut and valued by the network
    gnubg, gnubg:P           GNU Backgammon (the `gnubg` extra), its best play at P plies
                             (default 0) and its cube decisions; backgammon and its
                             relatives only

`parse(kind)` checks the syntax (the command line refuses a bad kind before anything runs);
`make(kind, seed, variant)` builds the player (`make_player`, the variant optional for random
and greedy). Networks and judges are loaded once per variant
and weights file.
"""
from __future__ import annotations

import re
from typing import Any

from interpreter.errors import TablierError

BASIC = ("random", "greedy")
#: a person at the board (`tablier play`, the web board): not a bot `make` builds
HUMAN = "human"
#: the players whose games say little about the game as people play it (`compare`'s caveat)
WEAK = BASIC
#: the stronger bots a web page may choose (docs/bots.md), where numpy is installed
OFFERED = ("search:1", "search:2", "learned", "rollout:8")
_SEARCH = re.compile(r"search:([1-9])(?::learned(?::(.+))?)?")
_ROLLOUT = re.compile(r"rollout:([0-9]{1,5})(?::learned(?::(.+))?)?")
_LEARNED = re.compile(r"learned(?::(.+))?")
_GNUBG = re.compile(r"gnubg(?::([0-9]))?")
#: what `--white`/`--black` accept, for messages
KINDS_TEXT = ("random, greedy, search:N, search:N:learned[:FILE], learned[:FILE], "
              "rollout:N[:learned[:FILE]], gnubg[:PLIES]")


class PlayerKindError(TablierError):
    """A player kind that names no player."""


def offered() -> list[str]:
    """The kinds a web page may choose: a person, the simple bots, the search and the
    self-taught player where numpy is there, gnubg where its module is (a kind the variant
    cannot have, such as `learned` without shipped weights, is refused when the game is
    made)."""
    from importlib.util import find_spec

    kinds = [HUMAN, *sorted(BASIC)]
    if find_spec("numpy") is not None:
        kinds += OFFERED
    if find_spec("gnubg") is not None:
        kinds.append("gnubg")
    return kinds


def parse(kind: str) -> tuple[str, dict[str, Any]]:
    """(family, parameters) of a player kind; PlayerKindError when it names none."""
    if kind in BASIC:
        return kind, {}
    m = _SEARCH.fullmatch(kind)
    if m:
        depth = int(m.group(1))
        from interpreter.players.search import MAX_DEPTH
        if depth > MAX_DEPTH:
            raise PlayerKindError(f"{kind!r}: the search looks at most {MAX_DEPTH} throws ahead")
        learned = kind.count(":") >= 2
        return "search", {"depth": depth, "learned": learned, "weights": m.group(2)}
    m = _ROLLOUT.fullmatch(kind)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= 10000:
            raise PlayerKindError(f"{kind!r}: from 1 to 10000 playouts")
        return "rollout", {"rollouts": n, "learned": kind.count(":") >= 2,
                           "weights": m.group(2)}
    m = _LEARNED.fullmatch(kind)
    if m:
        return "search", {"depth": 1, "learned": True, "weights": m.group(1)}
    m = _GNUBG.fullmatch(kind)
    if m:
        return "gnubg", {"plies": int(m.group(1) or 0)}
    raise PlayerKindError(f"unknown player kind {kind!r}; choose one of {KINDS_TEXT}")


_JUDGES: dict[tuple, Any] = {}


def judge_for(variant: Any, learned: bool, weights: str | None) -> Any:
    """The judge of a variant (the heuristic, or a network), made once."""
    from interpreter.players.rules_seen import foreign_allowed

    key = (id(variant), learned, weights, learned and foreign_allowed())
    got = _JUDGES.get(key)
    if got is None:
        games_of = tuple(getattr(variant, "games", ()) or ())
        if learned and games_of:
            # a rotation: each game is judged by its own network (SearchPlayer.adopt), the
            # first from the start; every game's is loaded now, so that a game without weights
            # is refused before the match begins, not when it comes round
            judges = [judge_for(g, learned, weights) for g in games_of]
            return judges[0]
        if learned:
            from interpreter.players.learned import NetJudge, load_net
            got = NetJudge(variant, load_net(variant, weights))
        else:
            from interpreter.native import accelerate_throws
            from interpreter.players.heuristic import HeuristicJudge
            got = HeuristicJudge(variant)
            # the compiled throws, when their code is in the cache already (runner.py
            # compiles it for a run of many searching games; else a process of low priority
            # compiles it after this run, which says so once)
            accelerate_throws(variant, games=1)
        if len(_JUDGES) > 32:
            _JUDGES.clear()
        _JUDGES[key] = (variant, got)
        return got
    return got[1]


def notes_for(kind: str, variant: Any) -> list[str]:
    """What a player of `kind` says of the game in play, once (players/rules_seen.py): where
    its network was trained under other rules than `variant`'s, the keys the game differs in;
    where the game has outcomes the network does not know, which. Nothing for a player without
    a network; the network is loaded (and cached) as `make` loads it."""
    try:
        _family, params = parse(kind)
    except PlayerKindError:
        return []
    if not params.get("learned") or variant is None:
        return []
    games_of = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    out: list[str] = []
    for game in games_of:
        judge = judge_for(game, True, params["weights"])
        out += [n for n in getattr(judge, "notes", ()) if n not in out]
    return out


def trained_for(kind: str, variant: Any) -> tuple[str | None, list[str]] | None:
    """(the variant id the network of a player of `kind` was trained for, the keys the game in
    play differs in from its rules), or None for a player without a network."""
    try:
        _family, params = parse(kind)
    except PlayerKindError:
        return None
    if not params.get("learned") or variant is None:
        return None
    games_of = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    ids: list[str] = []
    keys: list[str] = []
    for game in games_of:
        seen = judge_for(game, True, params["weights"]).seen
        if seen.trained_for and seen.trained_for not in ids:
            ids.append(seen.trained_for)
        keys += [k for k in seen.differs if k not in keys]
    return (", ".join(ids) or None), keys


def reads_throws(kind: str) -> bool:
    """Whether a player of `kind` values positions by the variant file's heuristic, which reads
    the points of the next throws in a scoring game (search and rollout without a network)."""
    try:
        family, params = parse(kind)
    except PlayerKindError:
        return False
    return family in ("search", "rollout") and not params.get("learned")


def uses_net(kind: str) -> bool:
    """Whether a player of `kind` values positions by a trained network (`learned`,
    `search:N:learned`, `rollout:N:learned`)."""
    try:
        family, params = parse(kind)
    except PlayerKindError:
        return False
    return bool(params.get("learned"))


def make(kind: str, seed: Any, variant: Any) -> Any:
    """The player of `kind` for `variant`."""
    family, params = parse(kind)
    if family in BASIC:
        from interpreter.players.bots import BOTS
        return BOTS[family](seed)
    if variant is None:
        raise PlayerKindError(f"player {kind!r} needs the variant it plays")
    if family == "gnubg":
        from interpreter.players.gnubg_player import GnubgPlayer
        return GnubgPlayer(variant, plies=params["plies"], seed=seed)
    learned, weights = params["learned"], params["weights"]
    judge = judge_for(variant, learned, weights)

    def judge_of(other: Any) -> Any:
        return judge_for(other, learned, weights)

    from interpreter.players.search import SearchPlayer
    if family == "rollout":
        return SearchPlayer(variant, judge, depth=1, rollouts=params["rollouts"], seed=seed,
                            kind=kind, judge_of=judge_of)
    return SearchPlayer(variant, judge, depth=params["depth"], seed=seed, kind=kind,
                        judge_of=judge_of)


def make_player(kind: str, seed: Any, variant: Any = None) -> Any:
    """The player of `kind` (random, greedy, search:N, learned, rollout:N, gnubg…); the kinds
    beyond random and greedy need the `variant` they play."""
    return make(kind, seed, variant)
