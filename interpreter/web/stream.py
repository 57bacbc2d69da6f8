"""The live updates of the web board: `GET /api/games/{id}/events`, a `text/event-stream`
(server-sent events) whose every event is the game's STATE after a change, the first one the
STATE as it is (docs/play.md, "Playing a friend").

A stream is not work: it computes nothing and holds no lock while it waits (the STATE it sends
is the one the request that changed the game made, `Session.snapshot`, published to the
`Hub` by that request once its work is done). It is bounded all the same:

- at most `PER_GAME` streams a game and `IN_ALL` in all are open; one more is answered 503
  (the page then asks for the state every second instead);
- a stream ends when its client leaves (the server listens for the disconnection, so a page
  reloaded gives its place back at once) and when the server stops (`Hub.stop`, called at
  SIGTERM or Ctrl-C: every stream looks at it at least every `STOP_CHECK` seconds);
- a comment (`: keep-alive`) goes out every `KEEP_ALIVE` seconds without an event, so that
  neither the browser nor a proxy takes the quiet stream for a dead one;
- each event's `data` is one line of JSON, its `id` the game's `version`; `retry` asks the
  browser to come back after 2 s if the connection drops.

The doors of `interpreter.web.doors` stand before it as before every request (the `Host`,
the `Origin`, the framing headers). A stream sends the STATE as its request's seat tokens see
it (`Session.view`): never a seat token, a hint only to the side asked.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from interpreter.web.session import WebError

#: the most streams open on one game, and in all
PER_GAME, IN_ALL = 8, 64
#: seconds without an event after which a comment keeps the stream alive
KEEP_ALIVE = 15.0
#: how often a waiting stream looks whether the server is stopping, in seconds
STOP_CHECK = 0.5
#: how long a browser waits before it opens a dropped stream again, in milliseconds
RETRY_MS = 2000


class Stream:
    """One open stream: its game, and the event that wakes it."""

    __slots__ = ("game_id", "wake")

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.wake = asyncio.Event()


class Hub:
    """The open streams of the server, and the last STATE published for each game watched.
    Used from the event loop only, but `stop`, which may be called from anywhere."""

    def __init__(self, per_game: int = PER_GAME, in_all: int = IN_ALL,
                 keep_alive: float = KEEP_ALIVE):
        self.per_game = per_game
        self.in_all = in_all
        self.keep_alive = keep_alive
        self.streams: dict[str, set[Stream]] = {}
        #: game id → (version, STATE) last published, while the game is watched
        self.latest: dict[str, tuple[int, dict[str, Any]]] = {}
        self.stopping = threading.Event()

    def __len__(self) -> int:
        return sum(len(v) for v in self.streams.values())

    def open(self, game_id: str) -> Stream:
        """A new stream of the game, or a 503 when the server is stopping or full."""
        if self.stopping.is_set():
            raise WebError("the server is stopping", 503)
        if len(self) >= self.in_all:
            raise WebError(f"{self.in_all} live streams are open on this server: ask for the "
                           f"state instead (GET /api/games/ID)", 503)
        mine = self.streams.setdefault(game_id, set())
        if len(mine) >= self.per_game:
            raise WebError(f"{self.per_game} live streams are open on this game: ask for the "
                           f"state instead (GET /api/games/ID)", 503)
        stream = Stream(game_id)
        mine.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        mine = self.streams.get(stream.game_id)
        if mine is not None:
            mine.discard(stream)
            if not mine:
                del self.streams[stream.game_id]
                self.latest.pop(stream.game_id, None)

    def watching(self, game_id: str) -> bool:
        return bool(self.streams.get(game_id))

    def publish(self, game_id: str, version: int, state: dict[str, Any]) -> None:
        """The game's STATE at `version`: kept and sent to its streams if newer than the last
        published (and only while someone watches)."""
        if not self.watching(game_id):
            return
        seen = self.latest.get(game_id)
        if seen is not None and seen[0] >= version:
            return
        self.latest[game_id] = (version, state)
        for stream in self.streams[game_id]:
            stream.wake.set()

    def stop(self) -> None:
        """End every stream (the server is stopping); no stream opens after. Safe from a
        signal handler or another thread: the streams see it within `STOP_CHECK` seconds."""
        self.stopping.set()


def event(version: int, data: str) -> bytes:
    """One server-sent event: its id and its one line of data."""
    return f"id: {version}\ndata: {data}\n\n".encode("utf-8")


class EventStream(Response):
    """The answer of `GET /api/games/{id}/events`: the events of `stream`, each STATE written
    by `write` (the request's view of it, as JSON), beginning with `first` (version, STATE)."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, stream: Stream, first: tuple[int, dict[str, Any]],
                 write: Callable[[dict[str, Any]], str]):
        self.hub = hub
        self.stream = stream
        self.first = first
        self.write = write
        self.status_code = 200
        self.background = None
        self.raw_headers = [(b"content-type", b"text/event-stream; charset=utf-8"),
                            (b"cache-control", b"no-store"),
                            (b"x-accel-buffering", b"no")]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        hub, stream = self.hub, self.stream
        gone = asyncio.Event()

        async def listen() -> None:
            # the client's disconnection ends the stream at once
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    gone.set()
                    stream.wake.set()
                    return

        listener = asyncio.ensure_future(listen())
        loop = asyncio.get_running_loop()
        try:
            version, state = self.first
            await send({"type": "http.response.start", "status": 200,
                        "headers": self.raw_headers})
            await send({"type": "http.response.body", "more_body": True,
                        "body": f"retry: {RETRY_MS}\n\n".encode("ascii") +
                        event(version, self.write(state))})
            sent, quiet = version, loop.time()
            while not gone.is_set() and not hub.stopping.is_set():
                try:
                    await asyncio.wait_for(stream.wake.wait(), STOP_CHECK)
                except TimeoutError:
                    pass
                stream.wake.clear()
                if gone.is_set() or hub.stopping.is_set():
                    break
                latest = hub.latest.get(stream.game_id)
                if latest is not None and latest[0] > sent:
                    body = event(latest[0], self.write(latest[1]))
                    sent = latest[0]
                elif loop.time() - quiet >= hub.keep_alive:
                    body = b": keep-alive\n\n"
                else:
                    continue
                await send({"type": "http.response.body", "body": body, "more_body": True})
                quiet = loop.time()
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:             # pragma: no cover - the client left as it was written to
            pass
        finally:
            listener.cancel()
            hub.close(stream)
