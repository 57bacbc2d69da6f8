"""What a run of `simulate` or `compare` was, written beside its figures so that a referee can
tell two runs apart and play any game of them again (docs/compare.md, "Provenance").

Every output records the Tablier version (`VERSION`), each arm's `rules_fingerprint` (the sha256
of its compiled variant after `extends`, the options and `--set`: interpreter/variant/
fingerprint.py), who played each side, and the sha256 of the weights file each side's network
reads (`weights_sha256`: null for a player without one). The first line of a `--games-out` file
is a header object (`games_out_header`); every later line is a game's, and readers skip the
lines without `"game"` (`game_lines`).

Nothing here depends on where or when the run was made: no time, no host, no absolute path,
so the header of a run is the same whatever `--jobs` or `--dask`.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Sequence

from interpreter import __version__
from interpreter.errors import TablierError

#: the version of Tablier that made the run
VERSION = __version__

SIDES = ("white", "black")

#: sha256 of the weights files read in this process, by (real path, size, modification time)
_DIGESTS: dict[tuple[str, int, int], str] = {}
#: the last sha256 of each file by the name it was given: what the players read when the run
#: began, should the file be gone by its end
_BY_NAME: dict[str, str] = {}


def file_sha256(path: str | Path) -> str:
    """The sha256 (hex) of a file, hashed once per process while the file stays as it was."""
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
        key = (real, info.st_size, info.st_mtime_ns)
        got = _DIGESTS.get(key)
        if got is None:
            with open(real, "rb") as fh:
                got = hashlib.file_digest(fh, "sha256").hexdigest()
            if len(_DIGESTS) > 64:
                _DIGESTS.clear()
                _BY_NAME.clear()
            _DIGESTS[key] = got
        _BY_NAME[str(path)] = got
        return got
    except OSError as exc:
        if str(path) in _BY_NAME:
            return _BY_NAME[str(path)]
        raise TablierError(f"cannot read the weights file {str(path)!r} to record its sha256: "
                           f"{exc.strerror or exc}") from None


def weights_files(kind: str, variant: Any) -> list[Path]:
    """The weights files a player of `kind` reads for `variant` (players/kinds.py,
    players/learned.py `load_net`): the file of `learned:FILE` (`search:N:learned:FILE`,
    `rollout:N:learned:FILE`), else the network `learned` finds for the variant (players/
    learned.py `network_for`: shipped, or trained for these rules in the user's cache), one for
    each game of a rotation; [] for a player without a network."""
    from interpreter.players.kinds import PlayerKindError, parse

    try:
        _family, params = parse(kind)
    except PlayerKindError:
        return []
    if not params.get("learned"):
        return []
    if params.get("weights"):
        return [Path(params["weights"])]
    from interpreter.players.learned import network_for

    games = tuple(getattr(variant, "games", ()) or ()) or (variant,)
    found = [network_for(g) for g in games]
    return list(dict.fromkeys(p for p in found if p is not None))


def weights_sha256(kind: str, variant: Any) -> str | None:
    """The sha256 of the weights file a player of `kind` reads for `variant`; None for a player
    without a network. A rotation played by the networks shipped for its games reads one file a
    game: then the sha256 of the lines `HEX  NAME` (as `sha256sum` prints them) of its files, in
    the order of the games."""
    files = weights_files(kind, variant)
    if not files:
        return None
    if len(files) == 1:
        return file_sha256(files[0])
    text = "".join(f"{file_sha256(p)}  {p.name}\n" for p in files)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def arm_provenance(variant: Any, players: dict[str, str]) -> dict[str, Any]:
    """An arm's `rules_fingerprint`, `players` and `weights_sha256` {"white", "black"}."""
    from interpreter.variant.fingerprint import rules_fingerprint

    return {"rules_fingerprint": rules_fingerprint(variant),
            "players": {s: players.get(s, "random") for s in SIDES},
            "weights_sha256": {s: weights_sha256(players.get(s, "random"), variant)
                               for s in SIDES}}


def stamp(result: dict[str, Any], variants: Sequence[Any],
          players: Sequence[dict[str, str]]) -> dict[str, Any]:
    """`compare --json` with its provenance: the `version`, and each arm's
    `rules_fingerprint` and `weights_sha256` (its `players` it has already)."""
    rest = [(k, v) for k, v in result.items() if k != "version"]
    result.clear()
    result["version"] = VERSION
    result.update(rest)
    for arm, variant, pl in zip(result["arms"], variants, players):
        arm.update(arm_provenance(variant, pl))
    return result


def games_out_header(arm: str, variant: Any, options: Sequence[str], players: dict[str, str],
                     seeds: Sequence[int], paired: bool = False) -> dict[str, Any]:
    """The first line of a `--games-out` file: `{"header": true, "version", "arm", "variant",
    "options", "rules_fingerprint", "players", "weights_sha256", "seeds", "replicates",
    "paired"}`. `seeds` are those of the `simulate` runs whose games the file holds (replicate
    r is `simulate --seed seeds[r]`), so that game K of replicate r replays with `tablier play
    VARIANT --seed seeds[r] --game K` and the options."""
    prov = arm_provenance(variant, players)
    return {"header": True, "version": VERSION, "arm": arm, "variant": variant.id,
            "options": list(options), "rules_fingerprint": prov["rules_fingerprint"],
            "players": prov["players"], "weights_sha256": prov["weights_sha256"],
            "seeds": [int(s) for s in seeds], "replicates": len(seeds), "paired": bool(paired)}


def write_line(out: IO[str], obj: dict[str, Any]) -> None:
    """One line of a `--games-out` file, as every line is written (compact JSON)."""
    out.write(json.dumps(obj, separators=(",", ":")) + "\n")


def write_headers(handles: Sequence[IO[str] | None], labels: Sequence[str],
                  variants: Sequence[Any], options: Sequence[Sequence[str]],
                  players: Sequence[dict[str, str]], seeds: Sequence[Sequence[int]],
                  paired: bool = False) -> None:
    """The header line of each arm's `--games-out` file (a None handle: no file). Called
    before the games, with a file or without: the weights are hashed as the players read them,
    before the run, and `stamp` finds their digests after it."""
    for i, fh in enumerate(handles):
        header = games_out_header(labels[i], variants[i], options[i], players[i], seeds[i],
                                  paired)
        if fh is not None:
            write_line(fh, header)


def simulate_provenance(variant: Any, white: str, black: str) -> dict[str, Any]:
    """What `simulate --json` records of its run at its top level: `version`,
    `rules_fingerprint`, `players` and `weights_sha256`."""
    return {"version": VERSION, **arm_provenance(variant, {"white": white, "black": black})}


def is_game_line(obj: Any) -> bool:
    """Whether a line read from a `--games-out` file is a game's (the header, and any line a
    later version adds, carries no `"game"`)."""
    return isinstance(obj, dict) and "game" in obj


def game_lines(lines: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """The games' lines of a `--games-out` file (each a parsed JSON object), the header and any
    other line without `"game"` left out."""
    for obj in lines:
        if is_game_line(obj):
            yield obj


def read_games_out(path: str | Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """(the header, or None for a file written before there was one; the games' lines) of a
    `--games-out` file."""
    header = None
    games = []
    with open(path, encoding="utf-8") as fh:
        for text in fh:
            if not text.strip():
                continue
            obj = json.loads(text)
            if is_game_line(obj):
                games.append(obj)
            elif isinstance(obj, dict) and obj.get("header") is True and header is None:
                header = obj
    return header, games
