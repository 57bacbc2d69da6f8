"""Records of played games in other formats, written from the game's log (engine/game.py):
a backgammon match as a `.mat` record (interpreter/io/mat.py), a partie à écrire or combiné as
the record `tablier sheet` reads (interpreter/io/sheet.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.engine.contract import SIDE_NAMES
from interpreter.engine.events import (Claimed, Cubed, Decided, Event, Forced, Hole,
                                       MatchGameBegun, MatchGameWon, MenReset, Suspended, Thrown,
                                       Went)
from interpreter.errors import TablierError
from interpreter.io.mat import Double, Drop, Game as MatGame, MatchRecord, Roll, Take


def match_record(variant: Any, result: Any, names: tuple[str, str] = SIDE_NAMES,
                 info: dict[str, str] | None = None) -> MatchRecord:
    """The `.mat` record of a match played with its record kept; white is player 0 (the left
    column), black player 1. Plays are written in pip notation as the game's log has them."""
    match = result.match
    if match is None:
        raise TablierError("only a match of the `cube` ladder can be written as a .mat file")
    games: list[MatGame] = []
    game: MatGame | None = None
    roll: Roll | None = None
    at = -1                     # where the last roll stands in its game's actions

    def played(text: str) -> None:
        nonlocal roll
        if roll is not None and game is not None:
            roll = Roll(roll.player, roll.dice, "" if text == "-" else text)
            game.actions[at] = roll

    for e in result.log:
        if isinstance(e, MatchGameBegun):
            game = MatGame(e.number, (e.score[0], e.score[1]), [])
            games.append(game)
        elif game is None:
            continue
        elif isinstance(e, Thrown):
            roll = Roll(e.side, (e.d1, e.d2), "")
            game.actions.append(roll)
            at = len(game.actions) - 1
        elif isinstance(e, Forced):
            played(e.play)
        elif isinstance(e, Decided) and e.kind == "play":
            played(e.answer)
        elif isinstance(e, Cubed) and e.side is not None:
            match e.action:
                case "double" | "beaver" | "raccoon" as offer:
                    game.actions.append(Double(e.side, e.value, offer))
                case "take":
                    game.actions.append(Take(e.side))
                case "pass":
                    game.actions.append(Drop(e.side))
        elif isinstance(e, MatchGameWon):
            game.winner, game.points = e.winner, e.points
    return MatchRecord(match.length, names, games, info=dict(info or {}),
                       variation=mat_variation(variant))


def mat_variation(variant: Any) -> str | None:
    """The `.mat` Variation header of the variant (`[variant] mat_variation`, where
    `{checkers}` stands for the number of checkers a side)."""
    text = variant.mat_variation
    return None if text is None else text.replace("{checkers}", str(variant.checkers))


#: the events of a game's log that `tablier sheet` reads (each has its `sheet_text`)
SHEET_EVENTS = (Hole, Claimed, Went, Suspended, MenReset)


def sheet_events(log: list[Event], names: tuple[str, str] = SIDE_NAMES) -> list[str]:
    """The events of `tablier sheet` for a played partie (à écrire or combiné): holes made by
    whom on whose throw, claims, goes, suspensions and resets of the men."""
    return [e.sheet_text(names) for e in log if isinstance(e, SHEET_EVENTS)]


def sheet_record(variant: Any, result: Any) -> dict[str, Any]:
    """The record file (as a TOML-ready dict) of a played partie: variant, players, marks,
    leader, events and, as `[options]`, every key of the ladder that differs from its default."""
    ladder = variant.ladder
    if not result.log:
        raise TablierError("the partie was played without keeping its record (keep_record)")
    defaults = type(ladder)()
    options = {key: value for key, value in ladder.model_dump().items()
               if key not in ("kind", "marks") and value != getattr(defaults, key)}
    record: dict[str, Any] = {
        "variant": variant.id,
        "players": list(SIDE_NAMES),
        "marks": ladder.marks,
        "leader": SIDE_NAMES[result.first],
        "events": sheet_events(result.log),
    }
    if options:
        record["options"] = options
    return record


def write_sheet_record(path: Path, variant: Any, result: Any) -> None:
    """Write `sheet_record(variant, result)` as a TOML file `tablier sheet` reads."""
    import tomli_w

    from interpreter.outputs import write_output

    write_output(path, tomli_w.dumps(sheet_record(variant, result)))
