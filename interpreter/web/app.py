"""`tablier serve`: the web board and the live score keeper (docs/play.md, "In the browser").

A starlette application: pages (`/`, `/game/{id}`, `/sheet`), static files (plain JavaScript and
CSS, no build step and nothing fetched from elsewhere) and the JSON API of the pages:

    POST /api/games                {"variant", "white", "black", "seed", "set": {KEY: value}}
                                   or {"resume": TOML}                → {"id", "state"}
    GET  /api/games/{id}[?seat=TOKEN]                                 → {"id", "state"}
    POST /api/games/{id}/answer    {"answer": string, "seat": TOKEN, "version": n}
                                                                      → STATE, or 400, 403, 409
    GET  /api/games/{id}/events[?seat=TOKEN]   → text/event-stream: each event the STATE
    POST /api/games/{id}/preview   {"steps": [[from, to], ...], "narrow"?}  → {"svg"}
    POST /api/games/{id}/hint                                         → STATE with the hint,
                                   and the best answers ranked: "candidates" [{"play",
                                   "value", "error", "answer"}] in "unit"; "cube" at a double
    POST /api/games/{id}/review    {}  (a game over)  → {"review": `tablier analyse --json`,
                                   "text", "partial", "seconds"}, or 409 while in play
    GET  /api/games/{id}/save                                         → the saved game (TOML)
    GET  /api/games/{id}/board.svg                                    → the board
    GET  /api/variants                         → the built-in variants and the served files
    POST /api/sheets               {"record": TOML}   → the `tablier sheet --json` object, or 400
    POST /api/sheets/view          {"record": TOML} or {"fields": {...}}
                                   → {"sheet", "text", "fields", "toml", "kind",
                                      "form", "in_play"}

Every request first passes the doors of `interpreter.web.doors` (the `Host` is the server's
own, no `Origin` of another site, POST bodies typed `application/json` and of at most
`MAX_BODY` bytes), and its work runs in a thread of its own stopped after `request_seconds`
(503). Bodies are read as JSON through `interpreter.bounded.parse_json`; saves and records go
through the checks of `--resume` and `tablier sheet`; a variant named by a request, a save or
a record is a built-in id or a file of the folder given at start (`interpreter.web.catalogue`),
never a path. Bots play one turn a request (`bot_to_move` in the state: the page asks again).

A game of two people has two seats (`interpreter.web.session`): `POST /api/games` answers
their tokens (`"seats"`) and links; in such a game an answer (and a hint, and the save) needs
the token of the side asked (`"seat"` in the body, `?seat=` or the `X-Tablier-Seat` header),
else 403 (the review of a game over needs none: it is the players' and the watchers'); an
answer naming the `version` of an older STATE is 409 with the STATE as it is (`"state"`),
nothing played. Every request that changes a game publishes its new STATE to the
game's event streams (`interpreter.web.stream`), which hold no lock and do no work.

Bad input is a 400 (404 for an unknown game) with `{"error": ...}`; a fault of the server is a
500 `{"error": "internal error"}`, its traceback on the server's standard error only. The
modules the requests use (numpy, the players, the native code's compiler) are imported before
the server listens (`preload`), so that a request stopped at its deadline never stops an import
half-way.
"""
from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import secrets
import sys
import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
import tomllib
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.bounded import parse_json, shown, SEED_RANGE, parse_toml
from interpreter.errors import TablierError, InputError, RecordError
from interpreter.resources import variants_dir
from interpreter.threadsafe import critical
from interpreter.web import pages
from interpreter.web.catalogue import Catalogue, check_settings
from interpreter.web.doors import MAX_BODY, Busy, Doors, Works, server_hosts
from interpreter.web.session import (HUMAN, Session, Sessions, WebError, notations_by_variant,
                                     player_kinds, networks)
from interpreter.web.stream import IN_ALL, KEEP_ALIVE, PER_GAME, EventStream, Hub
from interpreter.engine.contract import SIDE_NAMES

STATIC = Path(__file__).parent / "static"
#: the most `--set` keys a request may give
MAX_SETS = 64
#: the part of a request's time (`--request-seconds`) a game's review may work: the rest
#: replays its record and answers before the request is stopped (503)
REVIEW_SHARE = 0.6


#: the most lines of an error an answer quotes
MAX_ERROR_LINES = 60


def _error(message: str, status: int = 400, extra: dict[str, Any] | None = None
           ) -> JSONResponse:
    lines = message.splitlines()
    if len(lines) > MAX_ERROR_LINES or len(message) > 20_000:
        kept = "\n".join(lines[:MAX_ERROR_LINES])[:20_000]
        message = f"{kept}\n... ({len(lines) - kept.count(chr(10)) - 1} more lines)"
    return JSONResponse({"error": message, **(extra or {})}, status_code=status)


class Stale(WebError):
    """An answer to a board that has changed since the page showed it: 409, with the STATE as
    it is now (`state`), nothing played."""

    def __init__(self, message: str, state: dict[str, Any]):
        super().__init__(message, 409)
        self.extra = {"state": state}


#: the most seat tokens one request may give (a page playing both sides gives two)
MAX_TOKENS = 2


def _tokens(request: Request, body: dict[str, Any] | None = None) -> list[str]:
    """The seat tokens a request gives: `"seat"` in its body (a token, or a list of two),
    `?seat=TOKEN` (repeated for two) and the `X-Tablier-Seat` header (tokens joined by
    commas), in that order, each once."""
    given: list[Any] = []
    if body is not None and body.get("seat") is not None:
        seat = body["seat"]
        given += seat if isinstance(seat, list) else [seat]
    given += request.query_params.getlist("seat")
    header = request.headers.get("x-tablier-seat")
    if header:
        given += [t.strip() for t in header.split(",")]
    out: list[str] = []
    for token in given:
        if not isinstance(token, str):
            raise WebError(f"\"seat\" is a seat's token (a string), not {shown(token)}")
        if token and token not in out:
            out.append(token)
    if len(out) > MAX_TOKENS:
        raise WebError(f"a request gives at most {MAX_TOKENS} seat tokens, not {len(out)}")
    return out


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of the request, read within `MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(f"the request body is larger than {MAX_BODY:,} bytes", 413)
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise WebError(f"the request body is larger than {MAX_BODY:,} bytes", 413)
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebError(f"the request body is not UTF-8 text (byte {exc.start + 1})") from None
    obj = parse_json(text or "{}", limit=MAX_BODY)
    if not isinstance(obj, dict):
        raise WebError(f"the request body must be a JSON object, not {shown(obj)}")
    return obj


def _handle(fn: Any) -> Any:
    """An endpoint whose TablierErrors are answered 400 (or the WebError's status), and whose
    work out of time is answered 503."""
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except (WebError, Busy) as exc:
            return _error(str(exc), exc.status, getattr(exc, "extra", None))
        except TablierError as exc:
            return _error(str(exc))
    endpoint.__name__ = fn.__name__
    return endpoint


#: the modules a request may need, imported before the server listens (`preload`); those of an
#: extra that is not installed are skipped
PRELOAD = ("numpy", "numba", "tomli_w", "interpreter.variant.build", "interpreter.io.sheet",
           "interpreter.io.save", "interpreter.engine.record", "interpreter.engine.branch",
           "interpreter.render", "interpreter.terminal", "interpreter.svg",
           "interpreter.rulebook", "interpreter.scoring.pools", "interpreter.dsl.quickparse",
           "interpreter.players.base", "interpreter.players.bots",
           "interpreter.players.heuristic", "interpreter.players.search",
           "interpreter.players.learned", "interpreter.players.hint",
           "interpreter.players.policy", "interpreter.native", "interpreter.native.modules",
           "interpreter.native.rules_emit", "interpreter.native.throws_emit",
           "interpreter.native.playout", "interpreter.native.generator")


_PRELOADED: list[bool] = []


def preload() -> None:
    """Import the modules of `PRELOAD` (and numba's registries, which its compiler imports at
    its first use), and start gnubg's own thread where gnubg is installed
    (`interpreter.players.gnubg_player`): a request then finds them made. (A request stopped
    in an import would leave the module half made: numpy, for one, cannot be imported twice in
    a process.) Once a process."""
    if _PRELOADED:
        return
    for name in PRELOAD:
        top = name.split(".", 1)[0]
        if top != "interpreter" and find_spec(top) is None:
            continue
        try:
            importlib.import_module(name)
        except ImportError:         # pragma: no cover - an extra's module that needs another
            pass
    if "numba" in sys.modules:
        # numba's compiler imports its registries of types and functions at its first use
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()
    if find_spec("gnubg") is not None:
        from interpreter.players.gnubg_player import module

        try:
            module()
        except TablierError:        # pragma: no cover - found but not importable
            pass
    _PRELOADED.append(True)


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A fault of the server: 500 `{"error": "internal error"}` and nothing of the fault (its
    traceback would show the server's files and code). Starlette raises the exception on after
    the answer, and the server (uvicorn) writes its traceback on its standard error."""
    return JSONResponse({"error": "internal error"}, status_code=500)


def _overrides(sets: Any) -> list[str]:
    """The `--set KEY=VALUE` arguments of a request's `"set"` object."""
    import tomli_w

    if sets is None:
        return []
    if not isinstance(sets, dict):
        raise WebError(f"\"set\" must be an object of KEY: value, not {shown(sets)}")
    if len(sets) > MAX_SETS:
        raise WebError(f"\"set\" has {len(sets)} keys (at most {MAX_SETS})")
    out = []
    for key, value in sets.items():
        if not key or len(key) > 200 or not all(c.isalnum() or c in "._-" for c in key):
            raise WebError(f"\"set\": {shown(key)} is not a dotted key")
        if value is None or isinstance(value, dict):
            raise WebError(f"\"set\": {key} needs a TOML value (a string, number, boolean or "
                           f"list), not {shown(value)}")
        out.append(f"{key}={tomli_w.dumps({'v': value})[len('v = '):].strip()}")
    return out


def _seed(value: Any) -> int | str:
    if value is None or value == "":
        return secrets.randbelow(10**9)
    if isinstance(value, bool) or not isinstance(value, int) or \
            not SEED_RANGE[0] <= value <= SEED_RANGE[1]:
        raise WebError(f"\"seed\" must be an integer of 64 bits, not {shown(value)}")
    return value


def create_app(limit: int = 100, max_idle: float = 6 * 3600, *, host: str = "127.0.0.1",
               port: int = 8000, variants: str | Path | None = None,
               request_seconds: float = 10.0, max_games: int | None = None,
               announce: Callable[[str], None] | None = None, streams: int = IN_ALL,
               streams_per_game: int = PER_GAME, keep_alive: float = KEEP_ALIVE) -> Any:
    """The application, behind its doors (`interpreter.web.doors.Doors`: the `Host`, `Origin`,
    `Content-Type` and size checks for `host` and `port`): `limit` games at most, each kept
    `max_idle` seconds without a request; the variants of `tablier variants` and the `.toml`
    files of the folder `variants`; each request's work stopped after `request_seconds`.
    `max_games` is `limit` under the name of `serve --max-games`. `announce(text)` is told the
    links of each new game of two people (`serve` prints them); at most `streams` event
    streams are open, `streams_per_game` on one game, each sending a comment after
    `keep_alive` quiet seconds. The answer's `stop()` ends the event streams (call it when
    the server is asked to stop: a stream otherwise lasts as long as its client)."""
    preload()
    games = Sessions(max_games if max_games is not None else limit, max_idle)
    catalogue = Catalogue(variants)
    works = Works(request_seconds)
    hub = Hub(streams_per_game, streams, keep_alive)
    # the address the players' links name: the one the server listens on, else its own name
    named = host if host and host not in ("0.0.0.0", "::") else "127.0.0.1"
    base = f"http://{f'[{named}]' if ':' in named else named}:{port}"

    def until() -> float:
        # the bots begin no new answer once half of the request's time is spent
        return time.monotonic() + request_seconds / 2

    @contextlib.contextmanager
    @critical
    def locked(s: Session) -> Any:
        # a request waits for the game's other request no longer than its own time; the lock
        # is released even when the request is stopped as it takes it (a critical section: no
        # request is stopped while it takes or gives back the lock, and so its wait ends with
        # its time)
        held = False
        try:
            held = s.lock.acquire(timeout=works.seconds)
            if not held:
                raise WebError("the game is busy with another request: try again", 503)
            yield s
        finally:
            if held:
                s.lock.release()

    def new_game(body: dict[str, Any]) -> dict:
        from interpreter.variant.build import load_variant

        if "resume" in body:
            unknown = sorted(set(body) - {"resume"})
            if unknown:
                raise WebError(f"\"resume\" comes alone: {unknown[0]!r} is taken from the save")
            s = Session.resume(body["resume"], catalogue)
        else:
            unknown = sorted(set(body) - {"variant", "white", "black", "seed", "set",
                                          "notation"})
            if unknown:
                raise WebError(f"unknown key {shown(unknown[0])} (a new game has variant, "
                               f"white, black, seed, set, notation)")
            notation = body.get("notation")
            if notation is not None and not isinstance(notation, str):
                raise WebError(f"\"notation\" is the name of a notation, not {shown(notation)}")
            kinds = []
            for side in ("white", "black"):
                kind = body.get(side, HUMAN if side == "white" else "greedy")
                if kind not in player_kinds():
                    raise WebError(f"\"{side}\": unknown player kind {shown(kind)}; the kinds "
                                   f"are {', '.join(player_kinds())}")
                kinds.append(kind)
            ref = catalogue.resolve(body.get("variant"))
            options = _overrides(body.get("set"))
            check_settings(options)
            variant = load_variant(ref, options)
            if variant.abstract:
                raise WebError(f"{variant.id!r} is an abstract base; play a variant that "
                               f"extends it")
            s = Session.new(variant, _seed(body.get("seed")), (kinds[0], kinds[1]), options,
                            notation or None)
        # a bot asked first plays at the page's next request
        with s.lock:
            state = s.state()
        games.add(s)
        if s.seats is None:
            return {"id": s.id, "state": s.view(state)}
        seats = {SIDE_NAMES[side]: token for side, token in s.seats.items()}
        # the maker of the game holds both seats: its page plays both sides, and shows the
        # links by which each side is played from a screen of its own
        return {"id": s.id, "state": s.view(state, list(seats.values())), "seats": seats,
                "links": links(s.id, seats)}

    def links(game_id: str, seats: dict[str, str]) -> dict[str, str]:
        page = f"{base}/game/{game_id}"
        return {**{side: f"{page}?seat={token}" for side, token in seats.items()},
                "watch": page}

    async def create(request: Request) -> Response:
        body = await _body(request)
        made = await works.run(lambda: new_game(body))
        if announce is not None and "links" in made:
            s = games.get(made["id"])
            announce(f"a game for two people: {s.variant.name} ({made['id']})\n" +
                     "".join(f"  {who:<6} {url}\n" for who, url in made["links"].items()))
        return JSONResponse(made)

    def given_up(s: Session) -> Any:
        # the game of a work that could not be stopped (Works.run's on_abandon): it may be in
        # the middle of a turn
        def stop() -> None:
            s.stop("a request's work could not be stopped in time", broken=True)
        return stop

    # -- the event streams: every change published -------------------------------------------

    refreshing: set[str] = set()
    tasks: set[asyncio.Task] = set()

    def fresh(s: Session) -> None:
        with locked(s):
            s.state()           # kept as the session's snapshot

    def publish(s: Session) -> None:
        """Send the game's new STATE to its streams, once a request that may have changed
        it is done: the STATE that request made, or, where it made none (its work stopped),
        one made now in the background."""
        if not hub.watching(s.id):
            return
        snap = s.snapshot
        if snap is not None and snap[0] == s.version:
            hub.publish(s.id, *snap)
            return
        if s.id in refreshing:
            return
        refreshing.add(s.id)

        async def again() -> None:
            try:
                await works.run(lambda: fresh(s))
                if s.snapshot is not None:
                    hub.publish(s.id, *s.snapshot)
            except (Busy, TablierError):
                pass            # busy: the request at work publishes when it is done
            finally:
                refreshing.discard(s.id)
        task = asyncio.get_running_loop().create_task(again())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def changing(s: Session, work: Callable[[], Any]) -> Any:
        """The result of a request's work on the game `s`, its change then published."""
        try:
            return await works.run(work, given_up(s))
        finally:
            publish(s)

    def _poll(s: Session, tokens: list[str]) -> dict:
        with locked(s):
            s.bot_turn(until())
            return {"id": s.id, "state": s.view(s.state(), tokens)}

    async def get_game(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        tokens = _tokens(request)
        return JSONResponse(await changing(s, lambda: _poll(s, tokens)))

    def seated(s: Session, tokens: list[str], what: str) -> set[int]:
        """The sides `tokens` hold; in a game with seats, 403 without one of them (`what`
        needs it)."""
        sides = s.may_answer(tokens)
        if s.seats is not None and not sides:
            raise WebError(f"this game is played from its two seats: {what} (the token of its "
                           f"player's link); a page without a seat watches", 403)
        return sides

    def asked_side(s: Session, sides: set[int]) -> None:
        """403 where the game has seats and the side asked holds none of `sides`."""
        d = s.pending
        if s.seats is not None and d is not None and s.stopped is None and \
                d.player not in sides:
            yours = " and ".join(SIDE_NAMES[x] for x in sorted(sides))
            raise WebError(f"it is {SIDE_NAMES[d.player]}'s turn ({s.asked(d)[1]}); your seat "
                           f"is {yours}'s", 403)

    def _answer(s: Session, body: dict[str, Any], tokens: list[str]) -> dict:
        version = body.get("version")
        if version is not None and (type(version) is not int):
            raise WebError(f"\"version\" is the number of the STATE the page shows, not "
                           f"{shown(version)}")
        with locked(s):
            sides = seated(s, tokens, "an answer needs the seat of the side asked")
            if version is not None and version != s.version:
                state = s.view(s.state(), tokens)
                d = s.pending
                now = s.asked(d)[1] if d is not None and s.stopped is None else \
                    "the game is over" if s.stopped is None else "the game is stopped"
                raise Stale(f"the board has changed since your page showed it (now: {now}); "
                            f"nothing was played, and the board is shown again as it is",
                            state)
            asked_side(s, sides)
            s.answer(body["answer"])
            s.bot_turn(until())
            return s.view(s.state(), tokens)

    async def answer(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        body = await _body(request)
        if "answer" not in body:
            raise WebError("the body is {\"answer\": string}")
        tokens = _tokens(request, body)
        return JSONResponse(await changing(s, lambda: _answer(s, body, tokens)))

    async def events(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        tokens = _tokens(request)
        stream = hub.open(s.id)
        try:
            snap = s.snapshot
            if snap is None or snap[0] != s.version:
                await works.run(lambda: fresh(s))
                snap = s.snapshot
            assert snap is not None
            hub.publish(s.id, *snap)
        except BaseException:
            hub.close(stream)
            raise
        return EventStream(hub, stream, snap,
                           lambda state: json.dumps(s.view(state, tokens),
                                                    separators=(",", ":")))

    def _preview(s: Session, body: dict[str, Any]) -> dict:
        with locked(s):
            steps = body.get("steps", [])
            board = s.preview(steps)
            picked = body.get("picked")
            kw: dict[str, Any] = {}
            for key in ("movable", "targets"):
                v = body.get(key, [])
                if isinstance(v, list) and len(v) <= 30 and all(type(x) is int for x in v):
                    kw[key] = v
            if type(picked) is int:
                kw["picked"] = picked
            # the numbers the steps use, as the legal play has them (a man entering on a route
            # of 12 points, bar/10, uses a 3; one entering from off the board, in/22, a 3; a
            # man borne off by a higher number uses that number)
            used = s.used_dice(steps)
            # the narrow form (a phone held upright) where the page asks for it
            return {"svg": s.svg(board, used_dice=used, narrow=body.get("narrow") is True,
                                 **kw)}

    async def preview(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        body = await _body(request)
        return JSONResponse(await works.run(lambda: _preview(s, body), given_up(s)))

    async def hint(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        tokens = _tokens(request, await _body(request))

        def run() -> dict:
            with locked(s):
                asked_side(s, seated(s, tokens, "a hint needs the seat of the side asked"))
                s.ask_hint()
                out = s.view(s.state(), tokens)
                # the ranked answers at the top too: {"play", "value", "error"} in "unit"
                q = out.get("question") or {}
                detail = q.get("hint_detail") or {}
                out["candidates"] = q.get("hint_candidates") or []
                out["unit"] = detail.get("unit")
                out["cube"] = q.get("hint_cube")
                return out
        return JSONResponse(await changing(s, run))

    def _review(s: Session) -> dict:
        # the lock is held while the game is reviewed: its players (the strongest, which its
        # hints asked) are used by one request at a time
        with locked(s):
            out = s.review(works.seconds * REVIEW_SHARE)
            return {"id": s.id, **out, "max_seconds": round(works.seconds * REVIEW_SHARE, 2)}

    async def review(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        # the body may name seats; a game over is reviewed for its players and its watchers
        _tokens(request, await _body(request))
        return JSONResponse(await works.run(lambda: _review(s)))

    async def save(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        tokens = _tokens(request)

        def run() -> str:
            with locked(s):
                # the save holds the seed, and so the dice to come: a player's, not a watcher's
                seated(s, tokens, "the save needs a seat")
                return s.save_text()
        text = await works.run(run)
        name = f"{s.variant.id}-{s.seed}.toml"
        return Response(text, media_type="application/toml",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def board_svg(request: Request) -> Response:
        s = games.get(request.path_params["id"])

        def run() -> str:
            with locked(s):
                return s.svg()
        return Response(await works.run(run), media_type="image/svg+xml")

    def all_variants() -> list[dict[str, Any]]:
        return builtin_variants() + catalogue.served()

    async def variants_list(request: Request) -> Response:
        return JSONResponse(await works.run(all_variants))

    def ladder_for(variant: Any, options: dict) -> Any:
        from interpreter.io.sheet import record_ladder

        check_settings(options, "the record's options")
        return record_ladder(variant, options, catalogue.resolve)

    async def sheets(request: Request) -> Response:
        body = await _body(request)
        record = body.get("record")
        return JSONResponse(await works.run(lambda: sheet_json(record, ladder_for)))

    async def sheets_view(request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(await works.run(lambda: sheet_view(body, ladder_for)))

    def start_page() -> str:
        from interpreter.notation import notations_of
        from interpreter.variant.loader import load_document

        rows = all_variants()
        builtin = [r["id"] for r in rows if not r["id"].endswith(".toml")]
        notations = notations_by_variant(builtin)
        for row in rows:
            if row["id"] not in notations:
                # a served file, read from the folder (never by its name from here)
                try:
                    doc = load_document(catalogue.resolve(row["id"]), check_rules=False)
                    notations[row["id"]] = list(notations_of(doc))
                except TablierError:
                    notations[row["id"]] = ["pips"]
        return pages.index_page(rows, player_kinds(), notations,
                                served=catalogue.folder is not None,
                                networks=networks(builtin))

    async def index(request: Request) -> Response:
        return HTMLResponse(await works.run(start_page))

    async def game_page(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        # its address may hold a seat's token: no other page is told it
        return HTMLResponse(pages.game_page(s.id, s.variant.name),
                            headers={"referrer-policy": "no-referrer"})

    async def sheet_page(request: Request) -> Response:
        return HTMLResponse(pages.sheet_page(await works.run(sheet_variants)))

    async def not_found_page(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return _error("no such address", 404)
        return HTMLResponse(pages.message_page("Not found", "There is nothing here."), 404)

    async def game_not_found(request: Request) -> Response:
        try:
            return await game_page(request)
        except WebError as exc:
            return HTMLResponse(pages.message_page("No such game", str(exc)), exc.status)

    async def favicon(request: Request) -> Response:
        return Response((STATIC / "favicon.svg").read_text(encoding="utf-8"),
                        media_type="image/svg+xml")

    routes = [
        Route("/", _handle(index)),
        Route("/favicon.ico", favicon),
        Route("/game/{id}", game_not_found),
        Route("/sheet", _handle(sheet_page)),
        Route("/api/variants", _handle(variants_list)),
        Route("/api/games", _handle(create), methods=["POST"]),
        Route("/api/games/{id}", _handle(get_game)),
        Route("/api/games/{id}/answer", _handle(answer), methods=["POST"]),
        Route("/api/games/{id}/events", _handle(events)),
        Route("/api/games/{id}/preview", _handle(preview), methods=["POST"]),
        Route("/api/games/{id}/hint", _handle(hint), methods=["POST"]),
        Route("/api/games/{id}/review", _handle(review), methods=["POST"]),
        Route("/api/games/{id}/save", _handle(save)),
        Route("/api/games/{id}/board.svg", _handle(board_svg)),
        Route("/api/sheets", _handle(sheets), methods=["POST"]),
        Route("/api/sheets/view", _handle(sheets_view), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        hub.stop()
        works.stop_all()          # the server is stopping: no work goes on

    app = Starlette(routes=routes, exception_handlers={404: not_found_page,
                                                       Exception: _internal_error},
                    lifespan=lifespan)
    app.state.games = games
    app.state.catalogue = catalogue
    app.state.works = works
    app.state.hub = hub
    doors = Doors(app, server_hosts(host, port))
    doors.state = app.state       # type: ignore[attr-defined]
    doors.stop = hub.stop         # type: ignore[attr-defined]
    return doors


# -- variants -------------------------------------------------------------------------------------

def builtin_variants() -> list[dict[str, Any]]:
    """The playable built-in variants: id, name, family and ladder kind."""
    rows = []
    for path in sorted(variants_dir().glob("*.toml")):
        with path.open("rb") as fh:
            meta = tomllib.load(fh)
        info = meta.get("variant", {})
        if info.get("abstract"):
            continue
        rows.append({"id": info.get("id", path.stem), "name": info.get("name", path.stem),
                     "family": info.get("family", "")})
    return rows


def sheet_variants() -> list[dict[str, Any]]:
    """The built-in variants that have a score sheet, with their ladder kind and the form of
    its sheet (`Ladder.sheet`: "points", "marks" or "honours"), which the page draws."""
    from interpreter.scoring.registry import ladder_class
    from interpreter.variant.loader import load_document

    out = []
    for row in builtin_variants():
        try:
            ladder = load_document(row["id"], check_rules=False).model.ladder
        except TablierError:    # pragma: no cover - the shipped files load
            continue
        form = ladder_class(ladder).sheet
        if form is not None:
            kind = getattr(ladder, "kind", None)
            out.append({**row, "kind": kind, "form": form,
                        "marks": getattr(ladder, "marks", None)})
    return out


# -- score sheets ---------------------------------------------------------------------------------

def sheet_json(record: Any, ladder_for: Any = None) -> dict:
    """`tablier sheet --json` of a record given as TOML text; `ladder_for(variant, options)`
    loads the record's variant (by default as `tablier sheet` does)."""
    from interpreter.io.sheet import record_ladder, sheet_data_text

    if not isinstance(record, str):
        raise WebError("the body is {\"record\": TOML text}")
    return sheet_data_text(record, ladder_for or record_ladder)


SHEET_FIELDS = ("variant", "players", "marks", "leader", "events", "options", "pool", "ante")


def sheet_view(body: dict[str, Any], ladder_of: Any = None) -> dict:
    """The live score keeper's view of a record: the sheet (`tablier sheet --json`), the
    readable sheet, the record's fields and its TOML (for download), the ladder's kind and the
    form of its sheet (`Ladder.sheet`; "pool" for a pool), by which the page draws it."""
    import tomli_w

    from interpreter.io.sheet import (in_play_text, record_ladder, render_sheet_text,
                                      sheet_data_text)
    from interpreter.scoring.registry import ladder_class

    if "record" in body:
        text = body["record"]
        if not isinstance(text, str):
            raise WebError("\"record\" is TOML text")
    elif "fields" in body:
        fields = body["fields"]
        if not isinstance(fields, dict):
            raise WebError("\"fields\" is an object: variant, players, events...")
        clean = {k: v for k, v in fields.items() if v is not None}
        try:
            text = tomli_w.dumps(clean)
        except (TypeError, ValueError) as exc:
            raise WebError(f"\"fields\" cannot be written as TOML: {exc}") from None
    else:
        raise WebError("the body is {\"record\": TOML} or {\"fields\": {...}}")
    ladders: dict[str, Any] = {}

    def ladder_for(variant: str, options: dict) -> Any:
        # one load of the record's variant for the three readings of this request
        key = json.dumps([variant, options], sort_keys=True, default=str)
        if key not in ladders:
            ladders[key] = (ladder_of or record_ladder)(variant, options)
        return ladders[key]

    sheet = sheet_data_text(text, ladder_for)
    readable = render_sheet_text(text, ladder_for)
    try:
        data = parse_toml(text)
    except InputError as exc:      # pragma: no cover - sheet_data_text read it
        raise RecordError(str(exc)) from None
    kind: str | None
    form: str | None
    if "pool" in data:
        kind = form = "pool"
    else:
        ladder = ladder_for(data["variant"], data.get("options", {}))
        kind, form = ladder.kind, ladder_class(ladder).sheet
    fields = {k: data[k] for k in SHEET_FIELDS if k in data}
    return {"sheet": sheet, "text": readable, "fields": json.loads(json.dumps(fields,
                                                                              default=str)),
            "toml": tomli_w.dumps(fields), "kind": kind, "form": form,
            "in_play": in_play_text(text, ladder_for)}
