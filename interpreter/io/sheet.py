"""`tablier sheet RECORD.toml [--json]`: the score sheet of a game played on a real board
(spec/INTERFACES.md; docs/sheets.md).

A record names the variant, the two players and the events written down during play. The
variant's ladder decides what the events count: holes for the partie à écrire (`kind = "ecrire"`),
holes for both the partie à écrire and the honours game of trictrac combiné (`kind = "combine"`),
points for a game of holes such as the Dutch Triktrak (`kind = "holes"`). The events are

    "Alice +2"            Alice makes 2 (holes or points) on her own throw
    "Bob +1 on Alice"     Bob makes 1 on Alice's throw (her false hit, jan qui ne peut...)
    "Alice go"            Alice goes, right after her own-throw holes
    "reset"               all men borne off and reset (a sortie: not a pick-up)
    "Alice banner"        with strict marker claims (à écrire): claim the banner / the necktie
    "Alice necktie"
    "Alice suspend ecrire" combiné: suspend the partie à écrire / the honours game, right after
    "Alice suspend honours"   a hole on her own throw

A record with a `pool` key is a multi-player pool instead (`pool = "filling"`: events
"Charlie beats Erin"; `pool = "draining"`: events "Bob 10 Charlie 4", "Bob 10 Charlie 4 lurch").

Events are numbered from 0 in errors and in the JSON output.
"""
from __future__ import annotations

import json
import re
from fractions import Fraction
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from interpreter.bounded import (InputError, MAX_FILE_BYTES, MAX_INT, parse_toml, read_text, shown,
                                 shown_name)
from interpreter.errors import RecordError
from interpreter.scoring.combine import Combine, combine_json
from interpreter.scoring.ecrire import Ecrire, Settlement, check_partie_length, ecrire_json
from interpreter.scoring.holes import Holes
from interpreter.scoring.pools import Draining, Filling, PoolRules
from interpreter.scoring.registry import ladder_class

LadderFor = Callable[[str, dict], BaseModel]

RECORD_KEYS = ("variant", "players", "marks", "leader", "events", "options")
#: keys only the à écrire sheet reads
ECRIRE_KEYS = ("marks", "leader")


@dataclass(frozen=True)
class Record:
    """A record file as written, before the ladder gives its events a meaning."""

    path: str
    variant: str
    players: tuple[str, str]
    events: tuple[str, ...]
    options: dict = field(default_factory=dict)
    marks: int | None = None
    leader: str | None = None


@dataclass(frozen=True)
class Event:
    """One parsed event. `action` is "score", "go", "reset", "claim" or "suspend"; `player` and
    `thrower` are 0 or 1 (-1 for a reset); `n` the holes or points of a score; `what` the
    marker claimed or the game suspended."""

    action: str
    player: int = -1
    n: int = 0
    thrower: int = -1
    what: str = ""


# -- reading --------------------------------------------------------------------------------------

def _load_toml(path: Path) -> dict:
    """The record file, read within the bounds of `interpreter.bounded` (a regular file of at
    most 1 MiB, nesting and numbers bounded)."""
    where = f"record {shown_name(str(path), 200)!r}"
    try:
        text = read_text(path, display=where)
    except InputError as err:
        raise RecordError(f"{where}: cannot be read ({err.reason})") from None
    try:
        return parse_toml(text)
    except InputError as err:
        if err.code == "toml-syntax":
            raise RecordError(f"{where}: invalid toml: {err.reason.removeprefix('invalid TOML: ')}"
                              ) from None
        raise RecordError(f"{where}: {err.reason}") from None


def read_record(path: Path, data: dict | None = None) -> Record:
    """Read and check a record file; every problem is a `RecordError` naming the file."""
    where = f"record {shown_name(str(path), 200)!r}"
    if data is None:
        data = _load_toml(path)
    unknown = [key for key in data if key not in RECORD_KEYS]
    if unknown:
        expected = ", ".join(f"`{k}`" for k in RECORD_KEYS)
        raise RecordError(f"{where}: unknown key {shown(unknown[0])} (a record has {expected})")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise RecordError(f"{where}: `variant` must name the variant (a string), "
                          f"got {shown(variant)}")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise RecordError(f"{where}: `players` must list exactly two names, got {shown(players)}")
    for name in players:
        _check_player(where, name)
        if name == "reset":
            raise RecordError(f"{where}: 'reset' is an event and cannot be a player's name")
    if players[0] == players[1]:
        raise RecordError(f"{where}: the two players need different names, got {shown(players)}")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError(f"{where}: `events` must be a list of strings, got {shown(events)}")
    _check_events(where, events)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{where}: `options` must be a table, got {shown(options)}")
    marks = data.get("marks")
    if marks is not None and (isinstance(marks, bool) or not isinstance(marks, int)):
        raise RecordError(f"{where}: `marks` must be an even number of marks, got {shown(marks)}")
    leader = data.get("leader")
    if leader is not None and leader not in players:
        raise RecordError(f"{where}: `leader` must be one of the players {shown(players)}, "
                          f"got {shown(leader)}")
    return Record(path=str(path), variant=variant, players=(players[0], players[1]),
                  events=tuple(events), options=options, marks=marks, leader=leader)


#: the longest player's name and event of a record
MAX_PLAYER_NAME = 100
MAX_EVENT_CHARS = 300


def _check_player(where: str, name: object) -> None:
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise RecordError(f"{where}: a player's name must be a non-empty string without "
                          f"surrounding spaces, got {shown(name)}")
    if len(name) > MAX_PLAYER_NAME or not name.isprintable():
        raise RecordError(f"{where}: a player's name has at most {MAX_PLAYER_NAME} printable "
                          f"characters, got {shown(name)}")


def _check_events(where: str, events: list) -> None:
    if len(events) > MAX_EVENTS:
        raise RecordError(f"{where}: a record holds at most {MAX_EVENTS:,} events, not "
                          f"{len(events):,}")
    for i, event in enumerate(events):
        if not isinstance(event, str):
            raise RecordError(f"{where}: event {i} must be a string, got {shown(event)}")
        if len(event) > MAX_EVENT_CHARS:
            raise RecordError(f"{where}: event {i} has {len(event):,} characters (at most "
                              f"{MAX_EVENT_CHARS})")


_FORMS = "'NAME +N', 'NAME +N on NAME', 'NAME go', 'reset'"
#: the largest number an event may give (holes or points of one throw, holes of a pool match)
MAX_EVENT_NUMBER = 999
#: the most events a record may hold
MAX_EVENTS = 100_000


def _event_number(digits: str, what: str) -> int:
    """A number of an event, written in ASCII digits (the patterns match `[0-9]` only: Python's
    `int()` would also read '٣' as 3), at most `MAX_EVENT_NUMBER`."""
    if len(digits) > 3 or int(digits) > MAX_EVENT_NUMBER:
        raise ValueError(f"{what} is at most {MAX_EVENT_NUMBER}, not {shown_name(digits, 12)}")
    return int(digits)


def parse_event(text: str, players: tuple[str, str]) -> Event:
    """Parse one event of a record; raises `ValueError` with the reason."""
    stripped = text.strip()
    if stripped == "reset":
        return Event("reset")
    name = "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True))
    m = re.fullmatch(rf"({name})\s+(.*)", stripped)
    if m is None:
        first = stripped.split(" ", 1)[0]
        if not stripped:
            raise ValueError(f"an empty event (expected one of {_FORMS})")
        raise ValueError(f"unknown player {shown(first)} (the players are {players[0]!r} and "
                         f"{players[1]!r}; an event is one of {_FORMS})")
    player = players.index(m.group(1))
    rest = m.group(2).strip()
    score = re.fullmatch(r"\+([0-9]+)(?:\s+on\s+(.+))?", rest, re.ASCII)
    if score is not None:
        n = _event_number(score.group(1), "a score")
        if n < 1:
            raise ValueError("a score must be at least +1")
        thrower = player
        if score.group(2) is not None:
            on = score.group(2).strip()
            if on not in players:
                raise ValueError(f"unknown player {shown(on)} after 'on' (the players are "
                                 f"{players[0]!r} and {players[1]!r})")
            thrower = players.index(on)
        return Event("score", player, n, thrower)
    if rest == "go":
        return Event("go", player, thrower=player)
    if rest in ("banner", "necktie"):
        return Event("claim", player, what=rest)
    suspend = re.fullmatch(r"suspend\s+(ecrire|honours)", rest)
    if suspend is not None:
        return Event("suspend", player, what=suspend.group(1))
    raise ValueError(f"cannot read {shown(rest)} after the player's name (an event is one of "
                     f"{_FORMS}, or 'NAME banner', 'NAME necktie' with strict marker claims)")


def _ladder(record: Record, ladder_for: LadderFor) -> BaseModel:
    try:
        return ladder_for(record.variant, record.options)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            key = ".".join(str(part) for part in e["loc"]) or "options"
            msg = e["msg"]
            if e["type"] == "extra_forbidden":
                msg = "unknown option"
            problems.append(f"`{key}`: {msg[:1].lower()}{msg[1:]}")
        raise RecordError(f"record {shown_name(record.path, 200)!r}: bad [options]: "
                          + "; ".join(problems)) from None


# -- the à écrire sheet ---------------------------------------------------------------------------

def _event_error(i: int, text: str, reason: str) -> RecordError:
    return RecordError(f"event {i} {shown(text)}: {reason}")


def _replay_marks(record: Record, ladder: Any, ledger_class: type) -> Any:
    """The mark ledger (à écrire's, or combiné's) after the record's events, in order."""
    where = f"record {shown_name(record.path, 200)!r}"
    marks = ladder.marks if record.marks is None else record.marks
    try:
        check_partie_length(marks, ladder.min_marks)
    except ValueError as err:
        raise RecordError(f"{where}: `marks`: {err}") from None
    leader = 0 if record.leader is None else record.players.index(record.leader)
    ledger = ledger_class(ladder, marks=marks, leader=leader, names=record.players)
    for i, text in enumerate(record.events):
        try:
            event = parse_event(text, record.players)
            if event.action == "score":
                ledger.hole(event.player, event.n, event.thrower)
            elif event.action == "go":
                ledger.go(event.player)
            elif event.action == "reset":
                ledger.reset_men()
            elif event.action == "claim":
                ledger.claim(event.player, event.what)
            elif hasattr(ledger, "suspend"):
                ledger.suspend(event.player, event.what)
            else:
                raise RecordError("suspending a game is part of trictrac combiné, not of the "
                                  "partie à écrire")
        except (RecordError, ValueError) as err:
            raise _event_error(i, text, str(err)) from None
    return ledger


def _ecrire_sheet(record: Record, ladder: Any) -> tuple[dict, Ecrire]:
    ledger = _replay_marks(record, ladder, Ecrire)
    return ecrire_json(record.players, ledger), ledger


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _ecrire_text(record: Record, ledger: Ecrire) -> str:
    a, b = names = record.players
    width = max(len(a), len(b), len("winner"))
    lines = [f"Partie à écrire: {a} v {b}, {ledger.n_marks} marks ({record.variant})", ""]
    lines.append(f"{'mark':>4}  {'leader':<{width}}  {'kind':<11}  {'winner':<{width}}  "
                 f"{'holes':>7}  {'rate':>4}  {'paid':>5}  how")
    for r in ledger.results:
        holes = f"{r.holes[0]}-{r.holes[1]}"
        winner = "-" if r.winner is None else names[r.winner]
        how = ""
        if r.kind == "refait":
            how = "void, replayed"
        elif r.pickup is not None:
            how = ", ".join([
                "in arrears" if r.arrears else "in advance",
                "with pick-up" if r.pickup else "without pick-up",
                "rate copied from the opponent's failed lurch" if r.rate_from == "opponent"
                else "own rate"])
        rate, paid = (("-", "-") if r.kind == "refait"
                      else ("x" + str(r.multiplier), str(r.payment)))
        lines.append(f"{r.mark:>4}  {names[r.leader]:<{width}}  {r.kind:<11}  "
                     f"{winner:<{width}}  {holes:>7}  {rate:>4}  {paid:>5}  {how}".rstrip())
    lines.append("")
    lines.append(f"holes are written {a}-{b}; each payment is made by the loser to the winner")
    lines.append(f"lost marks: {a} {ledger.lost_marks[0]}, {b} {ledger.lost_marks[1]}")
    balance = [ledger.received[i] - ledger.paid[i] for i in (0, 1)]
    lines.append(f"jetons from the marks: {a} {signed(balance[0])}, {b} {signed(balance[1])}")
    s = ledger.settlement
    if s is None:
        h = ledger.holes
        shown = []
        for p in (0, 1):
            markers = [m for m, on in (("banner", ledger.banner(p)),
                                       ("necktie", ledger.necktie(p))) if on]
            shown.append(f"{names[p]} {h[p]}" + (f" ({', '.join(markers)})" if markers else ""))
        lines.append(f"mark {ledger.k} of {ledger.n_marks} in play, led by "
                     f"{names[ledger.leader]}"
                     + (f" after {ledger.r} refait(s)" if ledger.r else "")
                     + f"; holes: {shown[0]}, {shown[1]}")
        return "\n".join(lines)
    lines.append("")
    lines += settlement_lines(ledger, names)
    return "\n".join(lines)


def settlement_lines(ledger: Ecrire, names: tuple[str, str]) -> list[str]:
    """The settlement of a finished partie, as the readable sheet and a played partie show it."""
    s = cast(Settlement, ledger.settlement)
    a, b = names
    lines = ["settlement"]
    if s.queue_winner is None:
        lines.append(f"  queue of jetons: equal holdings ({s.holdings[0]} each), markers "
                     f"shared: {a} {s.markers[0]}, {b} {s.markers[1]}")
    else:
        lines.append(f"  queue of jetons: {names[s.queue_winner]} takes the "
                     f"{ledger.n_marks} markers (holdings {a} {s.holdings[0]}, "
                     f"{b} {s.holdings[1]})")
    if s.paris_payer is None:
        lines.append("  paris: none, both players complete")
    else:
        lines.append(f"  paris: {s.paris}, {names[s.paris_payer]} pays {s.paris_payment} "
                     f"({4 * s.paris} for the paris, 20 for the queue of paris)")
    if s.final_queue_winner is not None:
        lines.append(f"  final queue: {s.final_queue} jetons to {names[s.final_queue_winner]}")
    lines.append(f"  net: {a} {signed(s.net[0])}, {b} {signed(s.net[1])} jetons")
    if ledger.ladder.fish_rounding != "off":
        if s.fish_loser is None:
            lines.append("  in fish: level")
        elif s.die is not None:
            lines.append(f"  in fish: {names[s.fish_loser]} loses {s.die[0]} or {s.die[1]}, "
                         f"by a high die")
        else:
            lines.append(f"  in fish: {names[s.fish_loser]} loses {s.fish}")
    return lines


# -- the combiné sheet (match-scoring §4) ---------------------------------------------------------

def _combine_sheet(record: Record, ladder: Any) -> tuple[dict, Combine]:
    game = _replay_marks(record, ladder, Combine)
    return combine_json(record.players, game), game


def _combine_text(record: Record, game: Combine) -> str:
    names = record.players
    a, b = names
    lines = _ecrire_text(record, game.ecrire).split("\n")
    lines[0] = lines[0].replace("Partie à écrire", "Trictrac combiné", 1)
    settled = game.settlement is not None
    if settled:                          # the à écrire settlement goes after the honours
        cut = lines.index("settlement")
        lines, tail = lines[:cut - 1], lines[cut - 1:]
    else:
        tail = []
    lines += ["", f"honours games (12 holes, {game.S} fish a stake)"]
    width = max(len(a), len(b), len("winner"))
    lines.append(f"{'game':>4}  {'winner':<{width}}  {'holes':>7}  {'class':<9}  "
                 f"{'to winner':>9}  {'to pool':>7}")
    for r in game.honours_results:
        holes = f"{r.holes[0]}-{r.holes[1]}"
        lines.append(f"{r.game:>4}  {names[r.winner]:<{width}}  {holes:>7}  "
                     f"{r.cls:<9}  {r.paid_to_winner:>9}  {r.paid_to_pool:>7}")
    lines += pool_draw_lines(game, names)
    if game.pool_open:
        holder = "nobody" if game.contract is None else names[game.contract]
        lines.append(f"pool: {game.pool_fish} fish in the basket, contract: {holder}")
    else:
        lines.append("pool: closed")
    net = game.honours_net()
    lines.append(f"fish from the honours and the pool: {a} {signed(net[0])}, "
                 f"{b} {signed(net[1])}")
    if not settled:
        e = game.ecrire
        lines.append(f"honours game {game.game} in play: {a} {game.h[0]}, {b} {game.h[1]}"
                     + ("" if game.active("honours") else
                        f" (suspended by {names[cast(int, game.suspended['honours'])]})"))
        if not game.active("ecrire"):
            p = cast(int, game.suspended["ecrire"])
            what = ("mark already scored, the next starts at the next pick-up"
                    if game.suspension_case == 1 else
                    f"mark {e.k} frozen at {e.holes[0]}-{e.holes[1]}")
            lines.append(f"à écrire suspended by {names[p]}: {what}")
    return "\n".join(lines + tail)


_DRAW_WHY = {"two_in_a_row": "two honours games in a row",
             "last_game": "the pool's only game, the last of the partie",
             "split": "shared at the end of the partie",
             "stakes_back": "no game won: the stakes go back"}


def pool_draw_lines(game: Combine, names: tuple[str, str]) -> list[str]:
    """One line for each time a player took the pool, as the sheet and a played partie show it."""
    return [f"pool: {names[d.winner]} takes {d.fish} fish after honours game {d.after_game} "
            f"({_DRAW_WHY[d.reason]})" for d in game.draws]


# -- the multi-player pools (match-scoring §5) ----------------------------------------------------

POOL_RECORD_KEYS = ("variant", "pool", "players", "ante", "events", "options")


@dataclass(frozen=True)
class PoolRecord:
    path: str
    variant: str
    kind: str
    players: tuple[str, ...]
    ante: int
    events: tuple[str, ...]
    rules: PoolRules


def read_pool_record(path: Path, data: dict, ladder_for: LadderFor) -> PoolRecord:
    where = f"record {shown_name(str(path), 200)!r}"
    unknown = [key for key in data if key not in POOL_RECORD_KEYS]
    if unknown:
        expected = ", ".join(f"`{k}`" for k in POOL_RECORD_KEYS)
        raise RecordError(f"{where}: unknown key {shown(unknown[0])} (a pool record has "
                          f"{expected})")
    kind = data["pool"]
    if kind not in ("filling", "draining"):
        raise RecordError(f"{where}: `pool` must be \"filling\" or \"draining\", got {shown(kind)}")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise RecordError(f"{where}: `variant` must name the variant (a string), "
                          f"got {shown(variant)}")
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 3:
        raise RecordError(f"{where}: `players` must list the players in the order drawn, at "
                          f"least three, got {shown(players)}")
    for name in players:
        _check_player(where, name)
    if len(set(players)) != len(players):
        raise RecordError(f"{where}: the players need different names, got {shown(players)}")
    ante = data.get("ante")
    if isinstance(ante, bool) or not isinstance(ante, int) or not 1 <= ante <= MAX_INT:
        raise RecordError(f"{where}: `ante` must be a whole positive amount (at most "
                          f"{MAX_INT:,}), got {shown(ante)}")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError(f"{where}: `events` must be a list of strings, got {shown(events)}")
    _check_events(where, events)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{where}: `options` must be a table, got {shown(options)}")
    pool_options = {k: v for k, v in options.items() if k in PoolRules.model_fields}
    other = {k: v for k, v in options.items() if k not in PoolRules.model_fields}
    record = Record(path=str(path), variant=variant, players=("", ""), events=(),
                    options=other)
    ladder = _ladder(record, ladder_for)
    if ladder_class(ladder).sheet is None:
        raise RecordError(f"{where}: variant {shown(variant)} is scored by the "
                          f"{getattr(ladder, 'kind', None)!r} ladder; a pool is played with a "
                          f"variant whose games end in holes")
    try:
        rules = PoolRules(**pool_options)
    except ValidationError as err:
        problems = [f"`{'.'.join(str(x) for x in e['loc'])}`: {e['msg'][:1].lower()}"
                    f"{e['msg'][1:]}" for e in err.errors()]
        raise RecordError(f"{where}: bad [options]: " + "; ".join(problems)) from None
    return PoolRecord(path=str(path), variant=variant, kind=kind, players=tuple(players),
                      ante=ante, events=tuple(events), rules=rules)


def _names_re(players: tuple[str, ...]) -> str:
    return "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True))


def _pool_sheet(record: PoolRecord) -> tuple[dict, Filling | Draining]:
    players = record.players
    names = _names_re(players)
    if record.kind == "filling":
        pool: Filling | Draining = Filling(players, record.ante, record.rules)
        form = "'WINNER beats LOSER'"
        pattern = rf"({names})\s+beats\s+({names})"
    else:
        pool = Draining(players, record.ante, record.rules)
        form = "'WINNER HOLES LOSER HOLES', optionally followed by 'lurch'"
        pattern = rf"({names})\s+([0-9]+)\s+({names})\s+([0-9]+)(\s+lurch)?"
    for i, text in enumerate(record.events):
        m = re.fullmatch(pattern, text.strip(), re.ASCII)
        try:
            if m is None:
                raise RecordError(f"cannot read the event (a {record.kind} pool event is "
                                  f"{form}, with the players {', '.join(players)})")
            if isinstance(pool, Filling):
                w, lo = players.index(m.group(1)), players.index(m.group(2))
                if w == lo:
                    raise RecordError("a player cannot play himself")
                pool.match(w, lo)
            else:
                w, lo = players.index(m.group(1)), players.index(m.group(3))
                if w == lo:
                    raise RecordError("a player cannot play himself")
                try:
                    holes = (_event_number(m.group(2), "a number of holes"),
                             _event_number(m.group(4), "a number of holes"))
                except ValueError as err:
                    raise RecordError(str(err)) from None
                pool.match(w, lo, holes, m.group(5) is not None)
        except RecordError as err:
            raise _event_error(i, text, str(err)) from None
    return pool_json(pool), pool


def money(x: Fraction | int) -> int | float:
    """An amount of a pool: an integer when whole."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def pool_json(pool: Filling | Draining) -> dict:
    names = pool.names
    net = {names[p]: money(pool.net[p]) for p in range(len(names))}
    if isinstance(pool, Filling):
        return {"pot": pool.pot, "queue": [names[p] for p in pool.queue],
                "seat": names[pool.seat], "finished": pool.finished,
                "winner": None if pool.winner is None else names[pool.winner], "net": net,
                "streak": pool.streak}
    return {"pool": money(pool.pool),
            "matches": [{"winner": names[m.winner], "loser": names[m.loser],
                         "holes": {names[m.winner]: m.holes[0], names[m.loser]: m.holes[1]},
                         "lurch": m.lurch, "paid": money(m.paid)} for m in pool.matches],
            "finished": pool.finished, "net": net, "total": pool.total,
            "next": None if pool.finished else [names[p] for p in pool.pair]}


def _pool_text(record: PoolRecord, pool: Filling | Draining) -> str:
    names = pool.names
    width = max(len(n) for n in names)
    if isinstance(pool, Filling):
        lines = [f"Filling pool ({record.variant}): {', '.join(names)}; ante {record.ante}", ""]
        replay = Filling(names, record.ante, record.rules)
        lines.append(f"{'#':>3}  {'winner':<{width}}  {'loser':<{width}}  {'pot':>8}  queue")
        for i, (w, lo) in enumerate(pool.matches):
            replay.match(w, lo)
            lines.append(f"{i:>3}  {names[w]:<{width}}  {names[lo]:<{width}}  {replay.pot:>8}  "
                         + ", ".join(names[p] for p in replay.queue))
        lines.append("")
        if pool.finished:
            lines.append(f"{names[cast(int, pool.winner)]} takes the pot of {pool.pot}")
        else:
            lines.append(f"not finished: {names[pool.seat]} holds the seat with "
                         f"{pool.streak} win(s) in a row; pot {pool.pot}")
    else:
        lines = [f"Draining pool ({record.variant}): {', '.join(names)}; total {pool.total}",
                 ""]
        lines.append(f"{'#':>3}  {'winner':<{width}}  {'loser':<{width}}  {'holes':>7}  "
                     f"{'lurch':<5}  {'paid':>8}")
        left = Fraction(pool.total)
        for i, m in enumerate(pool.matches):
            left -= m.paid
            lines.append(f"{i:>3}  {names[m.winner]:<{width}}  {names[m.loser]:<{width}}  "
                         f"{f'{m.holes[0]}-{m.holes[1]}':>7}  {'yes' if m.lurch else 'no':<5}  "
                         f"{money(m.paid):>8}")
        lines.append("")
        if pool.finished:
            lines.append("the pool is empty: the game is over")
        else:
            a, b = pool.pair
            lines.append(f"{money(pool.pool)} left in the pool; next: {names[a]} v {names[b]}")
    lines.append("net: " + ", ".join(f"{names[p]} {_signed_money(pool.net[p])}"
                                     for p in range(len(names))))
    return "\n".join(lines)


def _signed_money(x: Fraction | int) -> str:
    v = money(x)
    return f"+{v}" if v > 0 else str(v)


# -- the points sheet ------------------------------------------------------------------------------

def _points_sheet(record: Record, ladder: Any) -> tuple[dict, Holes, list[tuple[int, int]]]:
    where = f"record {shown_name(record.path, 200)!r}"
    for key in ECRIRE_KEYS:
        if getattr(record, key) is not None:
            raise RecordError(f"{where}: `{key}` belongs to the sheet of the partie à écrire; "
                              f"{record.variant!r} is scored in points and holes")
    names = record.players
    holes = Holes(ladder, names=names)
    won_by_event: list[tuple[int, int]] = []
    for i, text in enumerate(record.events):
        won = [0, 0]
        try:
            event = parse_event(text, names)
            if event.action == "score":
                won[event.player] = holes.mark(event.player, event.n,
                                               event.thrower == event.player)[0]
            elif event.action == "go":
                holes.go(event.player)
            elif event.action == "reset":
                holes.reset_men()
            elif event.action == "claim":
                raise RecordError("banner and necktie claims belong to the partie à écrire")
            else:
                raise RecordError("suspending a game is part of trictrac combiné")
        except (RecordError, ValueError) as err:
            raise _event_error(i, text, str(err)) from None
        won_by_event.append((won[0], won[1]))
    return _points_json(names, holes, won_by_event), holes, won_by_event


def _points_json(names: tuple[str, str], holes: Holes,
                 won_by_event: list[tuple[int, int]]) -> dict:
    data: dict[str, Any] = {
        "players": {names[i]: {"holes": holes.holes[i], "points": holes.points[i],
                               "bredouille": holes.bred[i]} for i in (0, 1)},
        "events": [{"index": i, "holes_won": {names[0]: w[0], names[1]: w[1]}}
                   for i, w in enumerate(won_by_event)],
        "finished": holes.finished,
        "winner": names[holes.winner] if holes.finished else None,
    }
    if holes.finished:
        data["multiplier"] = holes.multiplier()
    return data


def _points_text(record: Record, ladder: Any) -> str:
    names = record.players
    # replay event by event to show the marking after each one
    shown = Holes(ladder, names=names)
    width = max(len(t) for t in record.events) if record.events else 5
    width = max(width, len("event"))
    col = max(len(names[0]), len(names[1]), 14)
    lines = [f"Points sheet: {names[0]} v {names[1]} ({record.variant}), "
             f"{ladder.points_per_hole} points a hole"
             + (f", {ladder.holes_to_win} holes a game" if ladder.holes_to_win else ""), ""]
    lines.append(f"{'#':>3}  {'event':<{width}}  {'holes won':<9}  "
                 f"{names[0]:<{col}}  {names[1]}")
    for i, text in enumerate(record.events):
        event = parse_event(text, names)
        won = 0
        if event.action == "score":
            won = shown.mark(event.player, event.n, event.thrower == event.player)[0]
        elif event.action == "go":
            shown.go(event.player)
        else:
            shown.reset_men()
        cells = [f"{shown.holes[p]}h {shown.points[p]:>2}pt" + (" bred" if shown.bred[p] else "")
                 for p in (0, 1)]
        won_text = f"{names[event.player]} +{won}" if won else "-"
        lines.append(f"{i:>3}  {text:<{width}}  {won_text:<9}  {cells[0]:<{col}}  "
                     f"{cells[1]:<{col}}".rstrip())
    lines.append("")
    lines.append("h: holes, pt: points, bred: can still win the hole double (bredouille)")
    if shown.finished:
        m = shown.multiplier()
        lines.append(f"{names[shown.winner]} wins, {shown.holes[shown.winner]} holes to "
                     f"{shown.holes[1 - shown.winner]}" + (f", stake x{m}" if m != 1 else ""))
    else:
        lines.append(f"not finished; holes: {names[0]} {shown.holes[0]}, "
                     f"{names[1]} {shown.holes[1]}")
    return "\n".join(lines)


# -- entry points ----------------------------------------------------------------------------------

def _open(record_path: Path, ladder_for: LadderFor, data: dict | None = None
          ) -> tuple[Record, Any]:
    record = read_record(record_path, data)
    ladder = _ladder(record, ladder_for)
    kind = getattr(ladder, "kind", None)
    if ladder_class(ladder).sheet is None:
        raise RecordError(f"record {shown_name(record.path, 200)!r}: variant {record.variant!r} "
                          f"is scored by the "
                          f"{shown(kind)} ladder, which has no score sheet (sheets exist for the "
                          f"'ecrire', 'combine' and 'holes' ladders)")
    return record, ladder


def sheet_data(record_path: Path, ladder_for: LadderFor) -> dict:
    """The JSON object of `tablier sheet --json` for a record file."""
    return _sheet_object(record_path, _load_toml(record_path), ladder_for)


def _record_text(text: Any, name: str) -> dict:
    """A record given as text, read within the bounds of a record file."""
    where = f"record {shown_name(name, 200)!r}"
    if not isinstance(text, str):
        raise RecordError(f"{where}: a record is TOML text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise RecordError(f"{where}: cannot be read (the record is larger than "
                          f"{MAX_FILE_BYTES >> 20} MiB)")
    try:
        return parse_toml(text)
    except InputError as err:
        if err.code == "toml-syntax":
            raise RecordError(f"{where}: invalid toml: {err.reason.removeprefix('invalid TOML: ')}"
                              ) from None
        raise RecordError(f"{where}: {err.reason}") from None


def sheet_data_text(text: str, ladder_for: LadderFor, name: str = "sheet.toml") -> dict:
    """The JSON object of `tablier sheet --json` for a record given as text (the web score
    keeper), read within the bounds of a record file; `name` names it in messages."""
    return _sheet_object(Path(name), _record_text(text, name), ladder_for)


def render_sheet_text(text: str, ladder_for: LadderFor, json_output: bool = False,
                      name: str = "sheet.toml") -> str:
    """`render_sheet` of a record given as text."""
    return _render(Path(name), _record_text(text, name), ladder_for, json_output)


def record_ladder(variant: str, options: dict,
                  resolve: Callable[[Any], str] | None = None) -> Any:
    """The ladder of a record's variant with the record's `[options]` applied: a key of the
    ladder (`lurch_rates`) sets `ladder.KEY`; any other key is a `--set` key of the file. The
    variant is named by a record, so it is a built-in id or a `.toml` file (`record_variant`),
    or what `resolve(variant)` finds (the web board's catalogue), and it is loaded as every
    command loads it."""
    import tomli_w

    from interpreter.variant.build import load_variant
    from interpreter.variant.loader import load_document, record_variant

    ref = (resolve or record_variant)(variant)
    doc = load_document(ref, check_rules=False)
    ladder_keys = set(type(doc.model.ladder).model_fields) if doc.model.ladder else set()
    overrides = []
    for key, value in options.items():
        text = tomli_w.dumps({"v": value})[len("v = "):].strip()
        overrides.append(f"{'ladder.' if key in ladder_keys else ''}{key}={text}")
    return load_variant(ref, overrides).ladder


def _sheet_object(record_path: Path, data: dict, ladder_for: LadderFor) -> dict:
    if "pool" in data:
        return _pool_sheet(read_pool_record(record_path, data, ladder_for))[0]
    record, ladder = _open(record_path, ladder_for, data)
    form = ladder_class(ladder).sheet
    if form == "marks":
        return _ecrire_sheet(record, ladder)[0]
    if form == "honours":
        return _combine_sheet(record, ladder)[0]
    return _points_sheet(record, ladder)[0]


def in_play_text(text: str, ladder_for: LadderFor, name: str = "sheet.toml") -> dict | None:
    """The mark in play of an à écrire or combiné record given as text (the web score keeper's
    players' boxes): its number, the holes and markers of each player; None for the other
    records and once the partie is settled."""
    data = _record_text(text, name)
    if "pool" in data:
        return None
    record, ladder = _open(Path(name), ladder_for, data)
    form = ladder_class(ladder).sheet
    if form == "marks":
        ledger = _ecrire_sheet(record, ladder)[1]
    elif form == "honours":
        ledger = _combine_sheet(record, ladder)[1].ecrire
    else:
        return None
    if ledger.settlement is not None:
        return None
    names = record.players
    return {"mark": ledger.k, "of": ledger.n_marks,
            "holes": {names[p]: ledger.holes[p] for p in (0, 1)},
            "markers": {names[p]: [m for m, on in (("banner", ledger.banner(p)),
                                                   ("necktie", ledger.necktie(p))) if on]
                        for p in (0, 1)}}


def render_sheet(record_path: Path, ladder_for: LadderFor, json_output: bool) -> str:
    """The output of `tablier sheet RECORD [--json]`: the JSON object on one line, or a
    readable sheet. `ladder_for(variant, options)` returns the record's validated ladder."""
    return _render(record_path, _load_toml(record_path), ladder_for, json_output)


def _render(record_path: Path, data: dict, ladder_for: LadderFor, json_output: bool) -> str:
    if "pool" in data:
        pool_record = read_pool_record(record_path, data, ladder_for)
        obj, pool = _pool_sheet(pool_record)
        return json.dumps(obj, ensure_ascii=False) if json_output else _pool_text(pool_record,
                                                                                  pool)
    record, ladder = _open(record_path, ladder_for, data)
    form = ladder_class(ladder).sheet
    if form == "marks":
        obj, ledger = _ecrire_sheet(record, ladder)
        text = _ecrire_text(record, ledger)
    elif form == "honours":
        obj, game = _combine_sheet(record, ladder)
        text = _combine_text(record, game)
    else:
        obj = _points_sheet(record, ladder)[0]     # checks every event before printing
        text = _points_text(record, ladder)
    return json.dumps(obj, ensure_ascii=False) if json_output else text
