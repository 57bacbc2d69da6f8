"""`tablier sheet RECORD.toml [--json]`: the score sheet of a game played on a real board
(spec/INTERFACES.md; docs/sheets.md).

A record names the variant, the two players and the events written down during play. The
variant's ladder decides what the events count: holes for the partie à écrire (`kind = "ecrire"`),
points for a game of holes such as the Dutch Triktrak (`kind = "holes"`). The events are

    "Alice +2"            Alice makes 2 (holes or points) on her own throw
    "Bob +1 on Alice"     Bob makes 1 on Alice's throw (her false hit, jan qui ne peut...)
    "Alice go"            Alice goes, right after her own-throw holes
    "reset"               all men borne off and reset (a sortie: not a pick-up)
    "Alice banner"        with strict marker claims (à écrire): claim the banner / the necktie
    "Alice necktie"

Events are numbered from 0 in errors and in the JSON output.
"""
from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from interpreter.errors import RecordError
from interpreter.scoring.ecrire import Ecrire, MarkResult, check_partie_length
from interpreter.scoring.holes import Holes

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

def read_record(path: Path) -> Record:
    """Read and check a record file; every problem is a `RecordError` naming the file."""
    where = f"record {str(path)!r}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{where}: cannot be read ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{where}: cannot be read (not UTF-8 text)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RecordError(f"{where}: invalid toml: {err}") from None
    unknown = [key for key in data if key not in RECORD_KEYS]
    if unknown:
        expected = ", ".join(f"`{k}`" for k in RECORD_KEYS)
        raise RecordError(f"{where}: unknown key {unknown[0]!r} (a record has {expected})")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise RecordError(f"{where}: `variant` must name the variant (a string), "
                          f"got {variant!r}")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise RecordError(f"{where}: `players` must list exactly two names, got {players!r}")
    for name in players:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise RecordError(f"{where}: a player's name must be a non-empty string without "
                              f"surrounding spaces, got {name!r}")
        if name == "reset":
            raise RecordError(f"{where}: 'reset' is an event and cannot be a player's name")
    if players[0] == players[1]:
        raise RecordError(f"{where}: the two players need different names, got {players!r}")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError(f"{where}: `events` must be a list of strings, got {events!r}")
    for i, event in enumerate(events):
        if not isinstance(event, str):
            raise RecordError(f"{where}: event {i} must be a string, got {event!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{where}: `options` must be a table, got {options!r}")
    marks = data.get("marks")
    if marks is not None and (isinstance(marks, bool) or not isinstance(marks, int)):
        raise RecordError(f"{where}: `marks` must be an even number of marks, got {marks!r}")
    leader = data.get("leader")
    if leader is not None and leader not in players:
        raise RecordError(f"{where}: `leader` must be one of the players {players!r}, "
                          f"got {leader!r}")
    return Record(path=str(path), variant=variant, players=(players[0], players[1]),
                  events=tuple(events), options=options, marks=marks, leader=leader)


_FORMS = "'NAME +N', 'NAME +N on NAME', 'NAME go', 'reset'"


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
        raise ValueError(f"unknown player {first!r} (the players are {players[0]!r} and "
                         f"{players[1]!r}; an event is one of {_FORMS})")
    player = players.index(m.group(1))
    rest = m.group(2).strip()
    score = re.fullmatch(r"\+(\d+)(?:\s+on\s+(.+))?", rest)
    if score is not None:
        n = int(score.group(1))
        if n < 1:
            raise ValueError("a score must be at least +1")
        thrower = player
        if score.group(2) is not None:
            on = score.group(2).strip()
            if on not in players:
                raise ValueError(f"unknown player {on!r} after 'on' (the players are "
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
    raise ValueError(f"cannot read {rest!r} after the player's name (an event is one of "
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
        raise RecordError(f"record {record.path!r}: bad [options]: "
                          + "; ".join(problems)) from None


# -- the à écrire sheet ---------------------------------------------------------------------------

def _event_error(i: int, text: str, reason: str) -> RecordError:
    return RecordError(f"event {i} {text!r}: {reason}")


def _ecrire_sheet(record: Record, ladder: Any) -> tuple[dict, Ecrire]:
    where = f"record {record.path!r}"
    marks = ladder.marks if record.marks is None else record.marks
    try:
        check_partie_length(marks, ladder.min_marks)
    except ValueError as err:
        raise RecordError(f"{where}: `marks`: {err}") from None
    leader = 0 if record.leader is None else record.players.index(record.leader)
    ledger = Ecrire(ladder, marks=marks, leader=leader, names=record.players)
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
            else:
                raise RecordError("suspending a game is part of trictrac combiné, not of the "
                                  "partie à écrire")
        except (RecordError, ValueError) as err:
            raise _event_error(i, text, str(err)) from None
    return ecrire_json(record.players, ledger), ledger


def _mark_json(result: MarkResult, names: tuple[str, str]) -> dict:
    entry: dict[str, Any] = {
        "mark": result.mark,
        "kind": result.kind,
        "winner": None if result.winner is None else names[result.winner],
        "loser": None if result.loser is None else names[result.loser],
        "holes": {names[0]: result.holes[0], names[1]: result.holes[1]},
        "multiplier": result.multiplier,
        "payment": result.payment,
    }
    if result.pickup is not None:
        entry["pickup"] = result.pickup
        entry["arrears"] = result.arrears
        entry["rate_from"] = result.rate_from
    return entry


def ecrire_json(names: tuple[str, str], ledger: Ecrire) -> dict:
    s = ledger.settlement
    settlement: dict[str, Any] | None = None
    if s is not None:
        pair = lambda t: {names[0]: t[0], names[1]: t[1]}  # noqa: E731
        settlement = {
            "queue_of_jetons": {
                "winner": None if s.queue_winner is None else names[s.queue_winner],
                "markers": pair(s.markers)},
            "paris": s.paris,
            "paris_payment": s.paris_payment,
            "net": pair(s.net),
        }
        if ledger.ladder.final_queue:
            settlement["final_queue"] = {
                "winner": None if s.final_queue_winner is None else names[s.final_queue_winner],
                "jetons": s.final_queue}
        if ledger.ladder.fish_rounding != "off":
            settlement["fish"] = {
                "loser": None if s.fish_loser is None else names[s.fish_loser],
                "fish": s.fish,
                "die": None if s.die is None else list(s.die)}
    return {
        "marks": [_mark_json(r, names) for r in ledger.results],
        "lost_marks": {names[0]: ledger.lost_marks[0], names[1]: ledger.lost_marks[1]},
        "finished": ledger.finished,
        "settlement": settlement,
    }


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
    s = ledger.settlement
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


# -- the points sheet ------------------------------------------------------------------------------

def _points_sheet(record: Record, ladder: Any) -> tuple[dict, Holes, list[tuple[int, int]]]:
    where = f"record {record.path!r}"
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

def _open(record_path: Path, ladder_for: LadderFor) -> tuple[Record, Any]:
    record = read_record(record_path)
    ladder = _ladder(record, ladder_for)
    kind = getattr(ladder, "kind", None)
    if kind not in ("ecrire", "holes"):
        raise RecordError(f"record {record.path!r}: variant {record.variant!r} is scored by the "
                          f"{kind!r} ladder, which has no score sheet (sheets exist for the "
                          f"'ecrire' and 'holes' ladders)")
    return record, ladder


def sheet_data(record_path: Path, ladder_for: LadderFor) -> dict:
    """The JSON object of `tablier sheet --json` for a record file."""
    record, ladder = _open(record_path, ladder_for)
    if ladder.kind == "ecrire":
        return _ecrire_sheet(record, ladder)[0]
    return _points_sheet(record, ladder)[0]


def render_sheet(record_path: Path, ladder_for: LadderFor, json_output: bool) -> str:
    """The output of `tablier sheet RECORD [--json]`: the JSON object on one line, or a
    readable sheet. `ladder_for(variant, options)` returns the record's validated ladder."""
    record, ladder = _open(record_path, ladder_for)
    if ladder.kind == "ecrire":
        data, ledger = _ecrire_sheet(record, ladder)
        text = _ecrire_text(record, ledger)
    else:
        data = _points_sheet(record, ladder)[0]     # checks every event before printing
        text = _points_text(record, ladder)
    return json.dumps(data, ensure_ascii=False) if json_output else text
