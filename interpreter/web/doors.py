"""What `tablier serve` refuses before any work, and how long a request may work
(docs/security.md, "The web board").

The server is reachable from every web page the person has open: a page of another site can
send it requests (a form, or `fetch` with a "simple" body that needs no preflight), and by DNS
rebinding it can even read the answers, its own name pointing at 127.0.0.1. `Doors` is a pure
ASGI middleware that answers, before the application sees the request:

- 421 to a `Host` header that is not the server's own (`127.0.0.1:PORT`, `localhost:PORT`,
  `[::1]:PORT` or the `--host` given, with its port): a rebound name is not one of them;
- 403 to an `Origin` naming another site (another scheme, host or port; `null` too), and to a
  request a browser marks as sent by another site (`Sec-Fetch-Site`) other than a navigation
  of the top window (a page of another site loading the board in a frame is refused too);
- 415 to a POST whose `Content-Type` is not `application/json` (a form or a `text/plain` fetch,
  which a browser sends without asking the server first);
- 413 to a body over `MAX_BODY` bytes, read no further than that.

Every answer, the application's and the refusals, carries `Content-Security-Policy:
frame-ancestors 'none'` and `X-Frame-Options: DENY` (`FRAMING`): no page of another site can
show the board in a frame and have the person click on it.

`Works` runs each request's work in a thread of its own under a deadline: past it the request
is answered 503 and the thread is stopped by an exception raised inside it (`Overrun`, a
`BaseException`, which the code's `except Exception` handlers let through), so that no
computation goes on after the answer. The turn loop and the searches are left as fast as they
are: nothing in them checks a clock. The exception never lands in an import, in the threading
module or in a function marked `interpreter.threadsafe.critical` (a module half imported stays
broken for the life of the process; a lock taken and not given back holds its game for good):
it waits for the thread to leave them (see `Works`).
"""
from __future__ import annotations

import asyncio
import ctypes
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from interpreter.threadsafe import critical, in_critical_section

#: the largest request body, in bytes (a saved game or a record as JSON text)
MAX_BODY = 1_000_000
#: the most request works running at once; more are answered 503 at once
MOST_WORKS = 8
#: the headers of every answer: no page of another site may show the board in a frame
FRAMING = ((b"content-security-policy", b"frame-ancestors 'none'"),
           (b"x-frame-options", b"DENY"))
#: what `Sec-Fetch-Dest` says of a document loaded in a frame of a page
FRAME_DESTS = frozenset({"iframe", "frame", "embed", "object", "fencedframe"})


class Overrun(BaseException):
    """Raised inside a request's worker thread when the request's time is up."""


def server_hosts(host: str, port: int) -> frozenset[str]:
    """The `Host` headers the server answers: its loopback names and the `--host` given, each
    with the port (and without it on port 80, as browsers write it)."""
    names = {"127.0.0.1", "localhost", "[::1]"}
    if host and host not in ("0.0.0.0", "::"):
        names.add(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    out = {f"{n}:{port}".lower() for n in names}
    if port == 80:
        out |= {n.lower() for n in names}
    return frozenset(out)


def _json(status: int, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": message}).encode("utf-8")


class Doors:
    """The ASGI middleware of the module docstring, around `app`."""

    def __init__(self, app: Any, hosts: frozenset[str], max_body: int = MAX_BODY):
        self.app = app
        self.hosts = hosts
        self.origins = frozenset(f"http://{h}" for h in hosts)
        self.max_body = max_body

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "websocket":      # the board has none
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _framed(send)
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", ()):
            name = k.decode("latin-1").lower()
            # a header given twice is refused as one the server does not know
            headers[name] = "\0" if name in headers else v.decode("latin-1")
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            await _answer(send, *refusal)
            return
        body = await self._read_body(headers, receive)
        if isinstance(body, tuple):
            await _answer(send, *body)
            return
        await self.app(scope, _replay(body, receive), send)

    def refusal(self, scope: dict, headers: dict[str, str]) -> tuple[int, bytes] | None:
        host = headers.get("host", "").strip().lower()
        if host not in self.hosts:
            return _json(421, f"this server answers to {', '.join(sorted(self.hosts))}, "
                              f"not to the host {host[:80]!r}")
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower().rstrip("/") not in self.origins:
            return _json(403, f"a request from another site ({origin[:80]!r}) is refused")
        site = headers.get("sec-fetch-site")
        if site in ("cross-site", "same-site"):
            if headers.get("sec-fetch-mode") != "navigate":
                return _json(403, f"a request sent by another site ({site}) is refused")
            if headers.get("sec-fetch-dest") in FRAME_DESTS:
                return _json(403, f"a page of another site ({site}) cannot show the board in "
                                  f"a frame")
        if scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return _json(415, f"a POST body is JSON (Content-Type: application/json), "
                                  f"not {kind[:80] or 'untyped'!r}")
        length = headers.get("content-length")
        if length is not None:
            if not (length.isascii() and length.isdigit()) or len(length) > 18:
                return _json(400, "the Content-Length header is not a number")
            if int(length) > self.max_body:
                return _json(413, f"the request body is larger than {self.max_body:,} bytes")
        return None

    async def _read_body(self, headers: dict[str, str], receive: Callable
                         ) -> list[dict] | tuple[int, bytes]:
        """The request's body messages, read within the limit (a 413 past it, unread)."""
        messages: list[dict] = []
        total = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages       # the client left: the application sees it
            total += len(message.get("body", b""))
            if total > self.max_body:
                return _json(413, f"the request body is larger than {self.max_body:,} bytes")
            if not message.get("more_body", False):
                return messages


def _framed(send: Callable) -> Callable:
    """A `send` that adds `FRAMING` to the answer's headers: one `Content-Security-Policy`,
    `frame-ancestors 'none'` joined to a policy the application sent, and `X-Frame-Options`
    in place of any other."""
    async def framed(message: dict) -> None:
        if message.get("type") == "http.response.start":
            policies: list[bytes] = []
            kept = []
            for name, value in message.get("headers", ()):
                low = bytes(name).lower()
                if low == b"content-security-policy":
                    policies += [p.strip() for p in bytes(value).split(b";")
                                 if p.strip() and not p.strip().lower().startswith(
                                     b"frame-ancestors")]
                elif low != b"x-frame-options":
                    kept.append((name, value))
            policy = b"; ".join([*policies, FRAMING[0][1]])
            message = {**message, "headers": [*kept, (FRAMING[0][0], policy), FRAMING[1]]}
        await send(message)
    return framed


def _replay(messages: list[dict], receive: Callable) -> Callable:
    """A `receive` that gives the body read already, then the client's next messages."""
    queue = list(messages)

    async def again() -> dict:
        if queue:
            return queue.pop(0)
        return await receive()
    return again


async def _answer(send: Callable, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode("ascii")),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# -- bounded work ---------------------------------------------------------------------------------

class Busy(Exception):
    """No more works may start now (`MOST_WORKS` run), or the request's time is up."""

    def __init__(self, message: str):
        super().__init__(message)
        self.status = 503


def _raise_in(thread: threading.Thread) -> str | None:
    """Raise `Overrun` in `thread` unless its stack is in a critical section (an import, the
    threading module, a function marked `interpreter.threadsafe.critical`): None when raised,
    else what it is in (the raise is postponed; the caller tries again)."""
    ident = thread.ident
    if ident is None:
        return None
    # the worker waits for the interpreter while this thread holds it, so its stack stays as
    # seen and the exception lands there; the interpreter could still pass to the worker
    # between the look and the raise (it is handed over every 5 ms): the stack is looked at
    # again after the raise, and an exception not yet delivered is taken back if the worker
    # went into a critical section meanwhile
    where = in_critical_section(sys._current_frames().get(ident), _Worker.run.__code__)
    if where is None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                   ctypes.py_object(Overrun))
        where = in_critical_section(sys._current_frames().get(ident), _Worker.run.__code__)
        if where is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
    return where


class _Worker(threading.Thread):
    """One request's work: `fn()` in a daemon thread (which never holds the process back at
    exit), its result or exception handed to the event loop's future."""

    def __init__(self, fn: Callable[[], Any], loop: asyncio.AbstractEventLoop,
                 future: asyncio.Future):
        super().__init__(daemon=True, name="tablier-request")
        self.fn = fn
        self.loop = loop
        self.future = future
        self.ended = threading.Event()
        #: why the last raise was postponed (None: raised, or never asked)
        self.postponed: str | None = None

    def run(self) -> None:
        try:
            try:
                outcome: tuple[bool, Any] = (True, self.fn())
            except Overrun:
                outcome = (False, Busy("the request's time was up: its work was stopped"))
            except BaseException as exc:  # noqa: BLE001 - handed to the request, as raised
                outcome = (False, exc)
            self._finish(outcome)
        except Overrun:                 # pragma: no cover - raised as the work ended
            self.ended.set()

    @critical
    def _finish(self, outcome: tuple[bool, Any]) -> None:
        self.ended.set()
        try:
            self.loop.call_soon_threadsafe(_settle, self.future, outcome)
        except RuntimeError:        # pragma: no cover - the loop closed (shutting down)
            pass

    def stop(self) -> bool:
        """Raise `Overrun` in the thread if its work is still running and not in a critical
        section; False when the raise is postponed."""
        if self.ended.is_set():
            return True
        self.postponed = _raise_in(self)
        return self.postponed is None


def _settle(future: asyncio.Future, outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


#: how long the answer waits past the deadline for a stopped work to end (its result, had it
#: just ended, is still given)
GRACE = 0.2
#: how often a stop postponed by a critical section is tried again
RETRY = 0.02
#: how long past the deadline a work is stopped again and again; then it is left to end by
#: itself (its game stopped), still counted among the works at work until it does
STOP_LIMIT = 5.0


class Works:
    """The works of the requests, each in its thread, each stopped after `seconds`.

    At the deadline the work is stopped by `Overrun` raised in its thread, but never while the
    thread is in a critical section (`interpreter.threadsafe.in_critical_section`: an import,
    the threading module, a function marked `critical`): the raise is tried again every
    `RETRY` seconds. The 503 goes out at the deadline (after at most `GRACE` seconds, in which
    a work that just ended still gives its answer); the stopping goes on in the background for
    at most `STOP_LIMIT` seconds, after which the work is left to end by itself, its game
    stopped by `on_abandon`."""

    def __init__(self, seconds: float, most: int = MOST_WORKS):
        self.seconds = seconds
        self.most = most
        self.running: set[_Worker] = set()
        #: works left to end by themselves (a stop postponed past `STOP_LIMIT`)
        self.abandoned: set[_Worker] = set()
        self._lock = threading.Lock()
        self._stoppers: set[asyncio.Task] = set()

    async def run(self, fn: Callable[[], Any],
                  on_abandon: Callable[[], None] | None = None) -> Any:
        """`fn()` in a worker thread: its result, its exception, or `Busy` (a 503) once
        `seconds` have passed, the work stopped (or, past `STOP_LIMIT` in a critical section,
        left to end by itself after `on_abandon()`)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        worker = _Worker(fn, loop, future)
        with self._lock:
            self.abandoned = {w for w in self.abandoned if w.is_alive() and
                              not w.ended.is_set()}
            if len(self.running) + len(self.abandoned) >= self.most:
                raise Busy(f"the server is busy ({self.most} requests at work): try again")
            self.running.add(worker)
        handed = False
        try:
            worker.start()
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.seconds)
            except TimeoutError:
                if await self._stop(worker, GRACE):
                    await asyncio.sleep(0)      # its answer, handed over as it ended
                    if future.done() and not future.cancelled() and \
                            future.exception() is None:
                        return future.result()       # it ended as the time ran out
                else:
                    handed = True
                    self._stop_later(worker, on_abandon)
                raise Busy(f"the request took more than {self.seconds:g} s of work and was "
                           f"stopped") from None
            except asyncio.CancelledError:
                worker.stop()           # the client left, or the server is stopping
                if not worker.ended.is_set():
                    handed = True
                    self._stop_later(worker, on_abandon)
                raise
        finally:
            if not handed:
                with self._lock:
                    self.running.discard(worker)

    async def _stop(self, worker: _Worker, patience: float) -> bool:
        """Raise `Overrun` in the worker until it ends (a blocking call or a critical section
        delays it), for at most `patience` seconds: whether it ended."""
        end = time.monotonic() + patience
        while worker.is_alive() and not worker.ended.is_set():
            if time.monotonic() >= end:
                return False
            worker.stop()
            await asyncio.sleep(RETRY)
        return True

    def _stop_later(self, worker: _Worker, on_abandon: Callable[[], None] | None) -> None:
        """Go on stopping `worker` after the answer, for at most `STOP_LIMIT` seconds."""
        async def stopping() -> None:
            try:
                ended = await self._stop(worker, STOP_LIMIT)
            except asyncio.CancelledError:      # the server is stopping
                worker.stop()
                raise
            with self._lock:
                self.running.discard(worker)
                if not ended:
                    self.abandoned.add(worker)
            if not ended:
                print(f"tablier serve: a request's work could not be stopped within "
                      f"{STOP_LIMIT:g} s (it is in {worker.postponed or 'a blocking call'}); "
                      f"it is left to end by itself", file=sys.stderr)
                if on_abandon is not None:
                    on_abandon()
        task = asyncio.get_running_loop().create_task(stopping())
        self._stoppers.add(task)
        task.add_done_callback(self._stoppers.discard)

    def stop_all(self) -> None:
        """Stop every work still running (the server is stopping; a work in a critical
        section is left, its thread a daemon)."""
        with self._lock:
            workers = list(self.running)
        for w in workers:
            w.stop()
