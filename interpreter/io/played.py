"""Records of played games in other formats, written from the game's log (engine/game.py):
a backgammon match as a `.mat` record (interpreter/io/mat.py), a partie à écrire or combiné as
the record `tablier sheet` reads (interpreter/io/sheet.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.engine.contract import SIDE_NAMES
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
        what = e[0]
        if what == "match-game":
            game = MatGame(e[1], (e[2][0], e[2][1]), [])
            games.append(game)
        elif game is None:
            continue
        elif what == "throw":
            roll = Roll(e[1], (e[2], e[3]), "")
            game.actions.append(roll)
            at = len(game.actions) - 1
        elif what == "forced":
            played(e[2])
        elif what == "decision" and e[2] == "play":
            played(e[3])
        elif what == "cube" and e[1] is not None:
            if e[2] in ("double", "beaver", "raccoon"):
                game.actions.append(Double(e[1], e[3], e[2]))
            elif e[2] == "take":
                game.actions.append(Take(e[1]))
            elif e[2] == "pass":
                game.actions.append(Drop(e[1]))
        elif what == "match-end":
            game.winner, game.points = e[2], e[3]
    return MatchRecord(match.length, names, games, info=dict(info or {}),
                       variation=mat_variation(variant))


def mat_variation(variant: Any) -> str | None:
    """The `.mat` Variation header of the variant (`[variant] mat_variation`, where
    `{checkers}` stands for the number of checkers a side)."""
    text = variant.mat_variation
    return None if text is None else text.replace("{checkers}", str(variant.checkers))


def sheet_events(log: list, names: tuple[str, str] = SIDE_NAMES) -> list[str]:
    """The events of `tablier sheet` for a played partie (à écrire or combiné): holes made by
    whom on whose throw, claims, goes, suspensions and resets of the men."""
    out: list[str] = []
    for e in log:
        what = e[0]
        if what == "hole":
            p, won, thrower = e[1], e[2], e[3]
            out.append(f"{names[p]} +{won}" + ("" if thrower == p else f" on {names[thrower]}"))
        elif what == "claim":
            out.append(f"{names[e[1]]} {e[2]}")
        elif what == "go":
            out.append(f"{names[e[1]]} go")
        elif what == "suspend":
            out.append(f"{names[e[1]]} suspend {e[2]}")
        elif what == "reset":
            out.append("reset")
    return out


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
