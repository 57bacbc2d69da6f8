"""Saved games (`tablier play --save FILE`, `--resume FILE`): TOML written with tomli-w.

A save holds `format` (an integer version), `[game]` (the variant id, the seed, the game's
number in the seed's run when it is not 0 (`index`: `play --game K`), the options, the players'
kinds and capabilities, the turns played, the notation played in), `[[files]]`
(name and sha256 of each file of the variant's `extends` chain), `[record] moves`
(engine/record.py: each throw's dice and each decision with its answer, in order), `[state]`
(the current state: the board seen by the
player on roll, who is on roll, the dice, every ladder's state — for à écrire and combiné the
partie in the players' terms) and `checksum` (sha256 of everything else).

Reading refuses, with `SaveError` naming what disagrees and without touching the file: a file
that is not a regular file of at most 1 MiB, not UTF-8 or not TOML, of another format, edited
(checksum), whose variant file changed (sha256), whose record does not replay (an edited die is
named by its throw), or whose replay does not give the stated state.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from interpreter.engine.contract import SIDE_NAMES
from interpreter.engine.record import Record, entry_text, parse_entry, replay
from interpreter.errors import InputError, TablierError
from interpreter.bounded import MAX_FILE_BYTES, MAX_GAMES, parse_toml, read_toml
from interpreter.kernel.board import to_json

FORMAT = 1


class SaveError(TablierError):
    """A saved game that cannot be resumed."""


def plain(x: Any) -> Any:
    """`x` as TOML can hold it: tuples as lists, None as "none", keys as strings."""
    if x is None:
        return "none"
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def state_of(game: Any, pending: Any = None) -> dict[str, Any]:
    """The current state of `game`, as a save states it."""
    mover = game.mover
    b = game.choice_base if pending is not None and pending.is_play else game.board
    board: dict[str, Any] = to_json(b)
    geometry = game.variant.geometry
    if geometry.state:
        # the named state of `[turn.state]`, as position JSON gives it
        board["state"] = {k: v for k, v in geometry.to_json(b)["state"].items()
                          if k in {n for n, _i, _f in geometry.state}}
    return plain({
        "turns": game.turns, "on_roll": SIDE_NAMES[mover], "board": board,
        "dice": list(game.dice), "extra_throw": bool(game.extra),
        "finished": bool(game.result is not None and game.result.finished),
        "decision": "" if pending is None else f"{SIDE_NAMES[pending.player]} {pending.kind}",
        "ladder": game.ladder.sides(),
    })


def _checksum(data: dict[str, Any]) -> str:
    body = {k: v for k, v in data.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


def save_data(record: Record, state: dict[str, Any],
              notation: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": {"variant": record.variant, "seed": record.seed,
                 "options": list(record.options), "players": list(record.players),
                 "doubles": list(record.doubles), "turns": state["turns"],
                 # game K of `simulate --seed SEED` (`play --game K`); game 0 is not written
                 **({"index": record.index} if record.index else {}),
                 **({"variant_file": record.source} if record.source else {}),
                 **({"notation": notation} if notation else {})},
        "files": [{"name": n, "sha256": h} for n, h in record.files],
        "record": {"moves": record.lines()},
        "state": state,
    }
    data["checksum"] = _checksum(data)
    return data


def write_save(path: str | Path, record: Record, state: dict[str, Any],
               notation: str | None = None) -> None:
    """Write the save atomically (`interpreter.outputs`: a temporary file in the same folder,
    flushed, synced to disk and renamed over `path`; a device written directly). `notation` is
    the one the game is played in (`--notation`): a resumed game keeps it."""
    import tomli_w

    from interpreter.outputs import write_output

    write_output(path, tomli_w.dumps(save_data(record, state, notation)))


def _need(table: Any, key: str, kind: type | tuple, where: str) -> Any:
    if not isinstance(table, dict) or key not in table:
        raise SaveError(f"missing `{where}{key}`")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise SaveError(f"`{where}{key}` has the wrong type ({type(value).__name__})")
    return value


def read_save(path: str | Path) -> tuple[dict[str, Any], Record]:
    """The save's data and its record, as the file states them (not yet replayed)."""
    try:
        data = read_toml(path, display=f"saved game {str(path)!r}")
    except InputError as exc:
        raise SaveError(exc.reason if exc.reason else str(exc)) from None
    return save_record(data)


def read_save_text(text: str) -> tuple[dict[str, Any], Record]:
    """`read_save` for a save given as text (pasted or uploaded in the web board): at most
    `MAX_FILE_BYTES` characters, TOML read within the same bounds as a file."""
    if not isinstance(text, str):
        raise SaveError("a saved game is TOML text")
    if len(text) > MAX_FILE_BYTES:
        raise SaveError(f"the saved game has {len(text):,} characters (at most "
                        f"{MAX_FILE_BYTES:,})")
    try:
        data = parse_toml(text)
    except InputError as exc:
        raise SaveError(exc.reason if exc.reason else str(exc)) from None
    return save_record(data)


def save_record(data: dict[str, Any]) -> tuple[dict[str, Any], Record]:
    """The save's data and its record, checked for shape (not yet replayed)."""
    fmt = _need(data, "format", int, "")
    if fmt != FORMAT:
        raise SaveError(f"`format = {fmt}`: this version of tablier reads format {FORMAT}")
    _need(data, "checksum", str, "")
    game = _need(data, "game", dict, "")
    variant = _need(game, "variant", str, "game.")
    seed = _need(game, "seed", (int, str), "game.")
    options = _need(game, "options", list, "game.")
    players = _need(game, "players", list, "game.")
    doubles = _need(game, "doubles", list, "game.")
    _need(game, "turns", int, "game.")
    index = game.get("index", 0)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < MAX_GAMES:
        raise SaveError(f"`game.index` must be the number of a game of a run, from 0 to "
                        f"{MAX_GAMES - 1:,}; found {json.dumps(index, default=str)[:40]}")
    source = game.get("variant_file")
    if source is not None and not isinstance(source, str):
        raise SaveError("`game.variant_file` must be a string (the path of the variant file)")
    if not all(isinstance(o, str) for o in options):
        raise SaveError("`game.options` must be strings (KEY=VALUE)")
    if len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise SaveError("`game.players` must be two player kinds")
    if len(doubles) != 2 or not all(isinstance(p, bool) for p in doubles):
        raise SaveError("`game.doubles` must be two booleans")
    files = _need(data, "files", list, "")
    pairs = []
    for f in files:
        pairs.append((_need(f, "name", str, "files."), _need(f, "sha256", str, "files.")))
    moves = _need(_need(data, "record", dict, ""), "moves", list, "record.")
    if len(moves) > 200_000:
        raise SaveError(f"the record has {len(moves)} entries (at most 200000)")
    entries = [parse_entry(m, n) for n, m in enumerate(moves, 1)]
    _need(data, "state", dict, "")
    record = Record(variant, seed, (players[0], players[1]), (doubles[0], doubles[1]),
                    tuple(options), tuple(pairs), entries, index, source=source)
    return data, record


#: what a saved game may ask of its bots by itself: a search this many throws ahead (the
#: strongest player a person plays, `search:3:learned`: a few seconds a move), this many
#: playouts, gnubg at this many plies. A save is a stranger's file as much as a variant is:
#: `search:4` or `rollout:10000` work over a minute a move, and a weights file is a file of the
#: person's the save would have opened
SAVED_DEPTH = 3
SAVED_ROLLOUTS = 64
SAVED_PLIES = 2


def saved_player_fault(kind: str) -> str | None:
    """Why a player kind read from a save is not made unless the person names it on the
    command line; None when it may be. The kind is checked as the command line checks
    `--white` (players/kinds.py `parse`: the same bounds), then for what only a person may
    ask: a weights file (`learned:FILE`), a search deeper than SAVED_DEPTH, more than
    SAVED_ROLLOUTS playouts, gnubg beyond SAVED_PLIES plies."""
    from interpreter.players.kinds import HUMAN, PlayerKindError, parse

    if kind == HUMAN:
        return None
    try:
        family, params = parse(kind)
    except PlayerKindError:
        return "is no player kind tablier knows"
    if params.get("weights"):
        return "names a weights file, which a save does not choose"
    if family == "search" and params["depth"] > SAVED_DEPTH:
        return (f"searches {params['depth']} throws ahead (a save asks for {SAVED_DEPTH} at "
                f"most)")
    if family == "rollout" and params["rollouts"] > SAVED_ROLLOUTS:
        return (f"plays {params['rollouts']:,} playouts a decision (a save asks for "
                f"{SAVED_ROLLOUTS} at most)")
    if family == "gnubg" and params["plies"] > SAVED_PLIES:
        return f"asks gnubg for {params['plies']} plies (a save asks for {SAVED_PLIES} at most)"
    return None


def check_saved_players(record: Record, given: tuple[str | None, str | None]) -> None:
    """Refuse a save whose players, where `given` names none (`--white`, `--black`), may not
    be made from the save alone (`saved_player_fault`): SaveError saying to name the player on
    the command line."""
    from interpreter.bounded import shown, shown_name

    for side, (kind, mine) in enumerate(zip(record.players, given)):
        if mine is not None:
            continue
        fault = saved_player_fault(kind)
        if fault is not None:
            name = SIDE_NAMES[side]
            raise SaveError(f"the save's {name} player {shown(kind)} {fault}; to play it, "
                            f"pass it on the command line yourself: --{name} "
                            f"{shown_name(kind, 60)}")


def notation_of(data: dict[str, Any]) -> str | None:
    """The notation a save was played in (`game.notation`), None when it names none."""
    name = (data.get("game") or {}).get("notation")
    if name is not None and not isinstance(name, str):
        raise SaveError("`game.notation` must be the name of a notation")
    return name


def variant_ref(record: Record, save_path: str | Path | None = None,
                lookup: Callable[[Record], str] | None = None) -> str:
    """What `--resume` loads: the built-in id, or the variant file the game was played from —
    at the path it was saved with, or else the file of that name beside the save (a save and its
    variant file moved together). The name must end in `.toml`, as any record's variant file.
    With `lookup` (the web board's catalogue: `interpreter.web.catalogue.Catalogue.for_save`),
    the variant is what `lookup(record)` finds, and the path the save names is never opened."""
    from interpreter.variant.loader import record_variant

    if lookup is not None:
        return lookup(record)
    if not record.source:
        return record.variant
    ref = record_variant(record.source)
    if not Path(ref).is_file() and save_path is not None:
        beside = Path(save_path).parent / Path(ref).name
        if beside.is_file():
            return record_variant(str(beside))
    return ref


def check_files(record: Record, variant: Any) -> None:
    """The variant loaded now must be the one the game was saved with."""
    if variant.id != record.variant:
        raise SaveError(f"the save is a game of {record.variant!r}, not {variant.id!r}")
    now = dict(variant.files)
    for name, digest in record.files:
        if now.get(name) != digest:
            raise SaveError(f"the variant file {name!r} has changed since the game was saved "
                            f"(sha256 {digest[:12]}… then, "
                            f"{(now.get(name) or 'missing')[:12]}… now)")
    if len(now) != len(record.files):
        raise SaveError("the variant's files are not those the game was saved with")


def check_state(data: dict[str, Any], replayed: dict[str, Any]) -> None:
    """The stated state must be the replayed one; the first difference is named."""
    stated = data["state"]

    def walk(a: Any, b: Any, where: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if k not in a or k not in b:
                    raise SaveError(f"the record does not reproduce the stated state: "
                                    f"`state.{where}{k}` is {'missing' if k not in a else 'extra'}")
                walk(a[k], b[k], f"{where}{k}.")
            return
        if a != b:
            raise SaveError(f"the record does not reproduce the stated state: "
                            f"`state.{where.rstrip('.')}` is {json.dumps(a)} in the file, "
                            f"{json.dumps(b)} by the record")
    walk(stated, replayed, "")


def check_checksum(data: dict[str, Any]) -> None:
    if data["checksum"] != _checksum(data):
        raise SaveError("the checksum does not match: the file was edited or damaged")


def checked_replay(data: dict[str, Any], record: Record, variant: Any,
                   players: Any = None, more_turns: int = 20000) -> Any:
    """The record of a save played again, every check of `--resume` made (the variant's files,
    the stated state, the checksum): a `Replay` suspended where the record stops, allowed
    `more_turns` turns beyond those played. SaveError or RecordError names the first fault."""
    check_files(record, variant)
    stated = data["state"]
    stated_turns = data["game"]["turns"]
    # a game stopped by --max-turns stopped before its next throw; one saved at a decision
    # (or finished) stops where its record does
    waits = stated.get("decision") or stated.get("finished") is True
    check = replay(record, variant, max_turns=stated_turns + (1 if waits else 0))
    check_state(data, state_of(check.game, check.pending))
    check_checksum(data)
    # ...and play goes on from there, the players told of their past decisions
    return replay(record, variant, players, max_turns=stated_turns + more_turns)


__all__ = ["SaveError", "write_save", "read_save", "variant_ref", "check_files", "check_state",
           "check_checksum", "checked_replay", "read_save_text", "save_record", "state_of",
           "entry_text", "check_saved_players", "saved_player_fault", "FORMAT"]
