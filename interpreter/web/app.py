"""`tablier serve`: the web board and the live score keeper (docs/play.md, "In the browser").

A starlette application: pages (`/`, `/game/{id}`, `/sheet`), static files (plain JavaScript and
CSS, no build step and nothing fetched from elsewhere) and the JSON API of the pages:

    POST /api/games                {"variant", "white", "black", "seed", "set": {KEY: value}}
                                   or {"resume": TOML}                → {"id", "state"}
    GET  /api/games/{id}                                              → {"id", "state"}
    POST /api/games/{id}/answer    {"answer": string}                 → STATE, or 400
    POST /api/games/{id}/preview   {"steps": [[from, to], ...]}       → {"svg"}
    POST /api/games/{id}/hint                                         → STATE with the hint
    GET  /api/games/{id}/save                                         → the saved game (TOML)
    GET  /api/games/{id}/board.svg                                    → the board
    GET  /api/variants                                                → the built-in variants
    POST /api/sheets               {"record": TOML}   → the `tablier sheet --json` object, or 400
    POST /api/sheets/view          {"record": TOML} or {"fields": {...}}
                                   → {"sheet", "text", "fields", "toml", "kind",
                                      "in_play"}

Every request body is read within bounds (`MAX_BODY` bytes, JSON through
`interpreter.bounded.parse_json`); saves and records go through the checks of `--resume` and
`tablier sheet`; a variant named by a request is a built-in id or a `.toml` file of the server's
machine (`record_variant`). Bad input is a 400 (404 for an unknown game) with `{"error": ...}`.
"""
from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.bounded import MAX_FILE_BYTES, parse_json, shown
from interpreter.errors import TablierError
from interpreter.web import pages
from interpreter.web.session import (HUMAN, Session, Sessions, WebError, notations_by_variant,
                                     player_kinds)

STATIC = Path(__file__).parent / "static"
#: the largest request body: a saved game or a record of 1 MiB, escaped in JSON
MAX_BODY = 2 * MAX_FILE_BYTES + 4096
#: the most `--set` keys a request may give
MAX_SETS = 64


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of the request, read within `MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(f"the request body is larger than {MAX_BODY:,} bytes")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise WebError(f"the request body is larger than {MAX_BODY:,} bytes")
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
    """An endpoint whose TablierErrors are answered 400 (or the WebError's status)."""
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except WebError as exc:
            return _error(str(exc), exc.status)
        except TablierError as exc:
            return _error(str(exc))
    endpoint.__name__ = fn.__name__
    return endpoint


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
    from interpreter.cli import SEED_RANGE

    if value is None or value == "":
        return secrets.randbelow(10**9)
    if isinstance(value, bool) or not isinstance(value, int) or \
            not SEED_RANGE[0] <= value <= SEED_RANGE[1]:
        raise WebError(f"\"seed\" must be an integer of 64 bits, not {shown(value)}")
    return value


def create_app(limit: int = 64, max_idle: float = 6 * 3600) -> Starlette:
    """The application; `limit` games at most, each kept `max_idle` seconds without a
    request."""
    games = Sessions(limit, max_idle)

    def new_game(body: dict[str, Any]) -> Session:
        from interpreter.variant.build import load_variant
        from interpreter.variant.loader import record_variant

        if "resume" in body:
            unknown = sorted(set(body) - {"resume"})
            if unknown:
                raise WebError(f"\"resume\" comes alone: {unknown[0]!r} is taken from the save")
            s = Session.resume(body["resume"])
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
            ref = record_variant(body.get("variant"))
            options = _overrides(body.get("set"))
            variant = load_variant(ref, options)
            if variant.abstract:
                raise WebError(f"{variant.id!r} is an abstract base; play a variant that "
                               f"extends it")
            s = Session.new(variant, _seed(body.get("seed")), (kinds[0], kinds[1]), options,
                            notation or None)
        games.add(s)
        return s

    async def create(request: Request) -> Response:
        body = await _body(request)
        s = await run_in_threadpool(new_game, body)
        return JSONResponse({"id": s.id, "state": s.state()})

    async def get_game(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        with s.lock:
            return JSONResponse({"id": s.id, "state": s.state()})

    def _answer(s: Session, answer: Any) -> dict:
        with s.lock:
            s.answer(answer)
            return s.state()

    async def answer(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        body = await _body(request)
        if "answer" not in body:
            raise WebError("the body is {\"answer\": string}")
        return JSONResponse(await run_in_threadpool(_answer, s, body["answer"]))

    async def preview(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        body = await _body(request)
        with s.lock:
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
            used = [abs(a - b) for a, b in steps] if s.game.dice[0] != s.game.dice[1] else \
                [s.game.dice[0]] * len(steps)
            return JSONResponse({"svg": s.svg(board, used_dice=used, **kw)})

    async def hint(request: Request) -> Response:
        s = games.get(request.path_params["id"])

        def run() -> dict:
            with s.lock:
                s.ask_hint()
                return s.state()
        return JSONResponse(await run_in_threadpool(run))

    async def save(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        with s.lock:
            text = s.save_text()
        name = f"{s.variant.id}-{s.seed}.toml"
        return Response(text, media_type="application/toml",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def board_svg(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        with s.lock:
            return Response(s.svg(), media_type="image/svg+xml")

    async def variants(request: Request) -> Response:
        return JSONResponse(builtin_variants())

    async def sheets(request: Request) -> Response:
        body = await _body(request)
        record = body.get("record")
        return JSONResponse(await run_in_threadpool(sheet_json, record))

    async def sheets_view(request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(await run_in_threadpool(sheet_view, body))

    async def index(request: Request) -> Response:
        rows = builtin_variants()
        return HTMLResponse(pages.index_page(rows, player_kinds(),
                                             notations_by_variant([r["id"] for r in rows])))

    async def game_page(request: Request) -> Response:
        s = games.get(request.path_params["id"])
        return HTMLResponse(pages.game_page(s.id, s.variant.name))

    async def sheet_page(request: Request) -> Response:
        return HTMLResponse(pages.sheet_page(sheet_variants()))

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
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/game/{id}", game_not_found),
        Route("/sheet", sheet_page),
        Route("/api/variants", _handle(variants)),
        Route("/api/games", _handle(create), methods=["POST"]),
        Route("/api/games/{id}", _handle(get_game)),
        Route("/api/games/{id}/answer", _handle(answer), methods=["POST"]),
        Route("/api/games/{id}/preview", _handle(preview), methods=["POST"]),
        Route("/api/games/{id}/hint", _handle(hint), methods=["POST"]),
        Route("/api/games/{id}/save", _handle(save)),
        Route("/api/games/{id}/board.svg", _handle(board_svg)),
        Route("/api/sheets", _handle(sheets), methods=["POST"]),
        Route("/api/sheets/view", _handle(sheets_view), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found_page})
    app.state.games = games
    return app


# -- variants ---------------------------------------------------------------------------------------

def builtin_variants() -> list[dict[str, Any]]:
    """The playable built-in variants: id, name, family and ladder kind."""
    import tomllib

    from interpreter.resources import variants_dir

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
    """The built-in variants that have a score sheet, with their ladder kind."""
    from interpreter.variant.loader import load_document

    out = []
    for row in builtin_variants():
        try:
            ladder = load_document(row["id"], check_rules=False).model.ladder
        except TablierError:    # pragma: no cover - the shipped files load
            continue
        kind = getattr(ladder, "kind", None)
        if kind in ("ecrire", "combine", "holes"):
            out.append({**row, "kind": kind, "marks": getattr(ladder, "marks", None)})
    return out


# -- score sheets -----------------------------------------------------------------------------------

def sheet_json(record: Any) -> dict:
    """`tablier sheet --json` of a record given as TOML text."""
    from interpreter.io.sheet import record_ladder, sheet_data_text

    if not isinstance(record, str):
        raise WebError("the body is {\"record\": TOML text}")
    return sheet_data_text(record, record_ladder)


SHEET_FIELDS = ("variant", "players", "marks", "leader", "events", "options", "pool", "ante")


def sheet_view(body: dict[str, Any]) -> dict:
    """The live score keeper's view of a record: the sheet (`tablier sheet --json`), the
    readable sheet, the record's fields and its TOML (for download)."""
    import tomli_w

    from interpreter.bounded import parse_toml
    from interpreter.errors import InputError, RecordError
    from interpreter.io.sheet import (in_play_text, record_ladder, render_sheet_text,
                                      sheet_data_text)

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
            ladders[key] = record_ladder(variant, options)
        return ladders[key]

    sheet = sheet_data_text(text, ladder_for)
    readable = render_sheet_text(text, ladder_for)
    try:
        data = parse_toml(text)
    except InputError as exc:      # pragma: no cover - sheet_data_text read it
        raise RecordError(str(exc)) from None
    kind = "pool" if "pool" in data else ladder_for(data["variant"], data.get("options", {})
                                                  ).kind
    fields = {k: data[k] for k in SHEET_FIELDS if k in data}
    return {"sheet": sheet, "text": readable, "fields": json.loads(json.dumps(fields,
                                                                              default=str)),
            "toml": tomli_w.dumps(fields), "kind": kind,
            "in_play": in_play_text(text, ladder_for)}
