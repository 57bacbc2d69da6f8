"""What `tablier serve` refuses before any work, and how long a request may work
(docs/security.md, "The web board").

The server is reachable from every web page the person has open: a page of another site can
send it requests (a form, or `fetch` with a "simple" body that needs no preflight), and by DNS
rebinding it can even read the answers, its own name pointing at 127.0.0.1. `Doors` is a pure
ASGI middleware that answers, before the application sees the request:

- 421 to a `Host` header that is not the server's own (`127.0.0.1:PORT`, `localhost:PORT`,
  `[::1]:PORT` or the `--host` given, with its port): a rebound name is not one of them;
- 403 to an `Origin` naming another site (another scheme, host or port; `null` too), and to a
  request a browser marks as sent by another site (`Sec-Fetch-Site`) other than a navigation;
- 415 to a POST whose `Content-Type` is not `application/json` (a form or a `text/plain` fetch,
  which a browser sends without asking the server first);
- 413 to a body over `MAX_BODY` bytes, read no further than that.

`Works` runs each request's work in a thread of its own under a deadline: past it the request
is answered 503 and the thread is stopped by an exception raised inside it (`Overrun`, a
`BaseException`, which the code's `except Exception` handlers let through), so that no
computation goes on after the answer. The turn loop and the searches are left as fast as they
are: nothing in them checks a clock.
"""
from __future__ import annotations

import asyncio
import ctypes
import json
import threading
import time
from collections.abc import Callable
from typing import Any

#: the largest request body, in bytes (a saved game or a record as JSON text)
MAX_BODY = 1_000_000
#: the most request works running at once; more are answered 503 at once
MOST_WORKS = 8


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
        if site in ("cross-site", "same-site") and headers.get("sec-fetch-mode") != "navigate":
            return _json(403, f"a request sent by another site ({site}) is refused")
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


def _raise_in(thread: threading.Thread) -> None:
    ident = thread.ident
    if ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                   ctypes.py_object(Overrun))


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

    def run(self) -> None:
        try:
            try:
                outcome: tuple[bool, Any] = (True, self.fn())
            except Overrun:
                outcome = (False, Busy("the request's time was up: its work was stopped"))
            except BaseException as exc:  # noqa: BLE001 - handed to the request, as raised
                outcome = (False, exc)
            self.ended.set()
            try:
                self.loop.call_soon_threadsafe(_settle, self.future, outcome)
            except RuntimeError:        # pragma: no cover - the loop closed (shutting down)
                pass
        except Overrun:                 # pragma: no cover - raised as the work ended
            self.ended.set()

    def stop(self) -> None:
        """Raise `Overrun` in the thread if its work is still running."""
        if not self.ended.is_set():
            _raise_in(self)


def _settle(future: asyncio.Future, outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class Works:
    """The works of the requests, each in its thread, each stopped after `seconds`."""

    def __init__(self, seconds: float, most: int = MOST_WORKS):
        self.seconds = seconds
        self.most = most
        self.running: set[_Worker] = set()
        self._lock = threading.Lock()

    async def run(self, fn: Callable[[], Any]) -> Any:
        """`fn()` in a worker thread: its result, its exception, or `Busy` (a 503) once
        `seconds` have passed, the work stopped."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        worker = _Worker(fn, loop, future)
        with self._lock:
            if len(self.running) >= self.most:
                raise Busy(f"the server is busy ({self.most} requests at work): try again")
            self.running.add(worker)
        try:
            worker.start()
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.seconds)
            except TimeoutError:
                await self._stop(worker)
                if future.done() and not future.cancelled() and future.exception() is None:
                    return future.result()       # it ended as the time ran out
                raise Busy(f"the request took more than {self.seconds:g} s of work and was "
                           f"stopped") from None
            except asyncio.CancelledError:
                worker.stop()           # the client left, or the server is stopping
                raise
        finally:
            with self._lock:
                self.running.discard(worker)

    async def _stop(self, worker: _Worker, patience: float = 2.0) -> None:
        """Raise `Overrun` in the worker until it ends (a blocking call delays it)."""
        end = time.monotonic() + patience
        while worker.is_alive() and not worker.ended.is_set() and time.monotonic() < end:
            worker.stop()
            await asyncio.sleep(0.02)

    def stop_all(self) -> None:
        """Stop every work still running (the server is stopping)."""
        with self._lock:
            workers = list(self.running)
        for w in workers:
            w.stop()
