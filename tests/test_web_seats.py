"""Two people at one board (`tablier serve`): the seats of a game of two people, the event
stream that keeps every page up to date, and their bounds.

The seats through starlette's TestClient: issued only for two people, an answer without the
token of the side asked refused 403 (none, a wrong one, the other side's), a page without a
seat that watches and never sees a token, a stale page's answer refused 409 with the board as
it is, a resumed game with new seats. The streams against a live server (uvicorn on a free port,
or `python -m interpreter serve`): the first event is the current STATE and a play pushes the
next within 2 s, each event `id` the STATE's version, a comment keeps a quiet stream alive, the
doors stand before the stream as before every request (421, 403, the framing headers), at most
so many streams a game and in all (503), a page that leaves gives its place back, and SIGTERM
or Ctrl-C stops a server with streams open within 5 s. (Two browsers playing each other:
tests/test_web_browser.py.)
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
from web_harness import client, made  # noqa: E402
TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,}$")


@pytest.fixture(scope="module")
def api() -> TestClient:
    return client()


def answer(c: TestClient, gid: str, body: dict, status: int = 200) -> dict:
    r = c.post(f"/api/games/{gid}/answer", json=body)
    assert r.status_code == status, r.text
    return r.json()


def to_decision(c: TestClient, game: dict, kind: str) -> dict:
    """Play the first choice of every question, with the seat asked, until `kind` is asked."""
    gid, state, seats = game["id"], game["state"], game["seats"]
    for _ in range(200):
        q = state["question"]
        assert q is not None, "the game ended first"
        if q["decision"] == kind:
            return state
        state = answer(c, gid, {"answer": "double" if q["decision"] == "double" and
                                kind == "take" else q["choices"][0],
                                "seat": seats[q["player"]]})
    raise AssertionError(f"no {kind} question")


# -- the seats ------------------------------------------------------------------------------------

def test_seats_are_given_only_to_a_game_of_two_people(api: TestClient) -> None:
    two = made(api)
    seats = two["seats"]
    assert set(seats) == {"white", "black"} and seats["white"] != seats["black"]
    # secrets.token_urlsafe(24): 192 bits, URL-safe
    assert all(TOKEN.match(t) for t in seats.values())
    assert two["links"]["white"].endswith(f"/game/{two['id']}?seat={seats['white']}")
    assert two["links"]["watch"].endswith(f"/game/{two['id']}")
    # the maker's page holds both seats; the state says so, and never holds a token
    state = two["state"]
    assert state["seated"] is True and state["seat"] == "both"
    assert state["may_answer"] == ["white", "black"]
    assert not any(t in json.dumps(state) for t in seats.values())
    for white, black in (("human", "greedy"), ("greedy", "human"), ("random", "greedy")):
        one = made(api, white=white, black=black)
        assert "seats" not in one and "links" not in one
        assert one["state"]["seated"] is False and one["state"]["seat"] is None


def test_an_answer_needs_the_seat_of_the_side_asked(api: TestClient) -> None:
    game = made(api)
    gid, state, seats = game["id"], game["state"], game["seats"]
    q = state["question"]
    asked, other = q["player"], "black" if q["player"] == "white" else "white"
    choice = q["choices"][0]
    for body in ({"answer": choice}, {"answer": choice, "seat": "x" * 32},
                 {"answer": choice, "seat": seats[asked][:-1] + "A"},
                 {"answer": choice, "seat": "é" * 40}):
        error = answer(api, gid, body, 403)["error"]
        assert "seat" in error and "watches" in error
    error = answer(api, gid, {"answer": choice, "seat": seats[other]}, 403)["error"]
    assert f"it is {asked}'s turn" in error and f"your seat is {other}'s" in error
    # nothing was played
    now = api.get(f"/api/games/{gid}").json()["state"]
    assert now["version"] == state["version"] and now["log"] == state["log"]
    # the token of the side asked, in the body, the query or the header
    after = answer(api, gid, {"answer": choice, "seat": seats[asked]})
    assert after["version"] == state["version"] + 1 and after["seat"] == asked
    q2 = after["question"]
    r = api.post(f"/api/games/{gid}/answer", params={"seat": seats[q2["player"]]},
                 json={"answer": q2["choices"][0]})
    assert r.status_code == 200, r.text
    q3 = r.json()["question"]
    r = api.post(f"/api/games/{gid}/answer", headers={"x-tablier-seat": seats[q3["player"]]},
                 json={"answer": q3["choices"][0]})
    assert r.status_code == 200, r.text
    assert "at most 2" in answer(api, gid, {"answer": "roll", "seat": ["a", "b", "c"]},
                                 400)["error"]
    assert "token" in answer(api, gid, {"answer": "roll", "seat": 5}, 400)["error"]


def test_a_watcher_sees_the_game_and_no_token(api: TestClient) -> None:
    game = made(api)
    gid, seats = game["id"], game["seats"]
    watched = api.get(f"/api/games/{gid}").json()["state"]
    assert watched["seat"] is None and watched["may_answer"] == []
    assert watched["seated"] is True and watched["question"] is not None
    text = api.get(f"/api/games/{gid}").text + api.get(f"/game/{gid}").text
    assert not any(t in text for t in seats.values())
    page = api.get(f"/game/{gid}", params={"seat": seats["white"]})
    assert page.headers["referrer-policy"] == "no-referrer"
    assert seats["white"] not in page.text          # the page reads it from its address
    # a seat's page sees its own side only
    white = api.get(f"/api/games/{gid}", params={"seat": seats["white"]}).json()["state"]
    assert white["seat"] == "white" and white["may_answer"] == ["white"]
    assert white["seats_given"] == ["white"]
    assert seats["black"] not in json.dumps(white)
    # the watcher's hint and save are refused too: the save holds the seed, and the dice
    assert api.post(f"/api/games/{gid}/hint", json={}).status_code == 403
    assert api.get(f"/api/games/{gid}/save").status_code == 403
    assert "checksum" in api.get(f"/api/games/{gid}/save",
                                 params={"seat": seats["black"]}).text


def test_the_hint_is_the_asked_sides_alone(api: TestClient) -> None:
    game = made(api, variant="triktrak", seed=2)
    gid, seats = game["id"], game["seats"]
    asked = game["state"]["question"]["player"]
    other = "black" if asked == "white" else "white"
    assert api.post(f"/api/games/{gid}/hint", json={"seat": seats[other]}).status_code == 403
    mine = api.post(f"/api/games/{gid}/hint", json={"seat": seats[asked]}).json()
    assert mine["question"]["hint"] in mine["question"]["choices"]
    # the opponent and the watchers see the question, not its hint
    for params in ({"seat": seats[other]}, {}):
        q = api.get(f"/api/games/{gid}", params=params).json()["state"]["question"]
        assert "hint" not in q and "hint_detail" not in q and q["choices"]


def test_a_stale_page_is_told_the_board_changed_and_shown_it_again(api: TestClient) -> None:
    game = made(api)
    gid, seats = game["id"], game["seats"]
    state = game["state"]
    q = state["question"]
    # another page of the same player answered first
    moved = answer(api, gid, {"answer": q["choices"][0], "seat": list(seats.values()),
                              "version": state["version"]})
    q2 = moved["question"]
    # this page answers the question it still shows, with its version
    r = api.post(f"/api/games/{gid}/answer",
                 json={"answer": q["choices"][-1], "seat": list(seats.values()),
                       "version": state["version"]})
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["error"].startswith("the board has changed since your page showed it")
    assert "nothing was played" in body["error"] and q2["watch_text"] in body["error"]
    assert "is not an answer" not in body["error"]
    assert body["state"]["version"] == moved["version"] and body["state"]["seat"] == "both"
    assert api.get(f"/api/games/{gid}").json()["state"]["log"] == moved["log"]
    assert "version" in answer(api, gid, {"answer": "x", "seat": seats["white"],
                                          "version": "3"}, 400)["error"]
    # without a version, a word that answers another question names the question asked now
    game = made(api, seed=5)
    state = to_decision(api, game, "double")
    q = state["question"]
    error = answer(api, game["id"], {"answer": "13/11 6/5", "seat": game["seats"][q["player"]]},
                   400)["error"]
    assert "not an answer to the question asked now" in error
    assert q["watch_text"] in error and "'roll'" in error


def test_the_cube_asks_in_words_with_labelled_buttons(api: TestClient) -> None:
    game = made(api, seed=5)
    state = to_decision(api, game, "double")
    q = state["question"]
    who = q["player"].capitalize()
    assert q["text"] == f"{who}, your turn: double to 2, or roll?"
    assert q["watch_text"] == f"{who}'s turn: double to 2, or roll?"
    assert q["labels"] == {"roll": "Roll", "double": "Double to 2"}
    doubler = q["player"]
    state = answer(api, game["id"], {"answer": "double", "seat": game["seats"][doubler]})
    q = state["question"]
    assert q["decision"] == "take" and q["player"] != doubler
    assert q["text"] == f"{who} doubles to 2: take or pass?"
    assert q["watch_text"] == f"{who} doubles to 2: {q['player']} to take or pass"
    assert q["labels"]["take"].startswith("Take") and q["labels"]["pass"] == "Pass (lose 1)"
    play = made(api)["state"]["question"]
    assert re.fullmatch(r"(White|Black), your turn to play \d-\d", play["text"])
    assert re.fullmatch(r"(White|Black) to play \d-\d", play["watch_text"])


def test_a_resumed_game_of_two_people_gets_new_seats(api: TestClient) -> None:
    game = made(api)
    gid, seats = game["id"], game["seats"]
    q = game["state"]["question"]
    answer(api, gid, {"answer": q["choices"][0], "seat": seats[q["player"]]})
    text = api.get(f"/api/games/{gid}/save", params={"seat": seats["white"]}).text
    assert not any(t in text for t in seats.values())
    again = api.post("/api/games", json={"resume": text}).json()
    assert set(again["seats"]) == {"white", "black"}
    assert not set(again["seats"].values()) & set(seats.values())
    q = again["state"]["question"]
    # the old seats play nothing in the new game
    assert answer(api, again["id"], {"answer": q["choices"][0], "seat": seats[q["player"]]},
                  403)
    answer(api, again["id"], {"answer": q["choices"][0], "seat": again["seats"][q["player"]]})


def test_the_maker_is_told_the_links() -> None:
    told: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = TestClient(create_app(announce=told.append, host="192.168.1.5", port=8123),
                       base_url="http://192.168.1.5:8123")
    game = made(c)
    assert len(told) == 1
    for side in ("white", "black"):
        assert f"http://192.168.1.5:8123/game/{game['id']}?seat={game['seats'][side]}" in told[0]
    made(c, black="greedy")
    assert len(told) == 1          # a game against a bot has no seats to tell


def test_the_strongest_player_is_offered_where_a_network_ships(api: TestClient) -> None:
    page = api.get("/").text
    assert '<option value="search:3:learned">' in page
    data = json.loads(re.search(r'id="page-data" type="application/json">(.*?)</script>',
                                page).group(1))
    assert "backgammon" in data["networks"] and "search:3:learned" in data["kinds"]
    game = made(api, variant="hypergammon", white="human", black="search:3:learned")
    assert game["state"]["players"]["black"] == "search:3:learned"


# -- the event stream -----------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Live:
    """A server in a thread of this process (uvicorn on a free port)."""

    def __init__(self, **kw):
        self.port = _free_port()
        kw.setdefault("request_seconds", 60)
        self.app = create_app(port=self.port, **kw)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.base, timeout=60)

    def stop(self) -> float:
        start = time.monotonic()
        self.app.stop()
        self.server.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive()
        return time.monotonic() - start


@pytest.fixture(scope="module")
def live():
    server = Live(keep_alive=0.5)
    yield server
    server.stop()


class Reader:
    """An event stream read in a thread: its events (id, STATE) and comments as they come."""

    def __init__(self, url: str, **kw):
        self.events: list[tuple[int, dict]] = []
        self.comments: list[str] = []
        self.lines: list[str] = []
        self.response = None
        self.opened = threading.Event()
        self.ended = threading.Event()
        self._close = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(url, kw), daemon=True)
        self.thread.start()
        assert self.opened.wait(30), "the stream did not open"

    def _read(self, url: str, kw: dict) -> None:
        try:
            with httpx.stream("GET", url, timeout=30, **kw) as r:
                self.response = r
                self.opened.set()
                if r.status_code != 200:
                    r.read()
                    return
                ident = None
                for line in r.iter_lines():
                    self.lines.append(line)
                    if line.startswith("id: "):
                        ident = int(line[4:])
                    elif line.startswith("data: "):
                        self.events.append((ident, json.loads(line[6:])))
                    elif line.startswith(":"):
                        self.comments.append(line)
                    if self._close.is_set():
                        return
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()

    def wait(self, n: int, seconds: float = 2.0) -> list[tuple[int, dict]]:
        deadline = time.monotonic() + seconds
        while len(self.events) < n and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(self.events) >= n, (len(self.events), self.lines[-5:])
        return self.events

    def close(self) -> None:
        self._close.set()


def test_the_stream_sends_the_state_then_each_play_within_2_s(live: Live) -> None:
    game = live.http.post("/api/games", json={"variant": "hypergammon", "white": "human",
                                              "black": "human", "seed": 4}).json()
    gid, seats = game["id"], game["seats"]
    watcher = Reader(f"{live.base}/api/games/{gid}/events")
    white = Reader(f"{live.base}/api/games/{gid}/events?seat={seats['white']}")
    r = watcher.response
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    (first_id, first), = watcher.wait(1)
    now = live.http.get(f"/api/games/{gid}").json()["state"]
    assert first_id == first["version"] == now["version"]
    assert first["log"] == now["log"] and first["position"] == now["position"]
    assert first["seat"] is None and white.wait(1)[0][1]["seat"] == "white"
    assert watcher.lines[0] == "retry: 2000"
    # a play made by one page reaches the others within 2 s
    state = game["state"]
    for n in range(2, 5):
        q = state["question"]
        start = time.monotonic()
        state = live.http.post(f"/api/games/{gid}/answer",
                               json={"answer": q["choices"][0], "seat": seats[q["player"]],
                                     "version": state["version"]}).json()
        ident, pushed = watcher.wait(n)[-1]
        assert time.monotonic() - start < 2
        assert ident == pushed["version"] == state["version"]
        assert pushed["log"] == state["log"] and pushed["question"] == state["question"]
        assert white.wait(n)[-1][1]["version"] == state["version"]
    # a watcher's stream never holds a seat's token; a seat's holds no other seat's
    assert not any(t in line for t in seats.values() for line in watcher.lines)
    assert not any(seats["black"] in line for line in white.lines)
    # quiet, the stream keeps itself alive with a comment
    time.sleep(1.2)
    assert watcher.comments and watcher.comments[-1] == ": keep-alive"
    watcher.close()
    white.close()


def test_the_doors_stand_before_the_stream(live: Live) -> None:
    game = live.http.post("/api/games", json={"variant": "hypergammon", "white": "human",
                                              "black": "human", "seed": 4}).json()
    url = f"{live.base}/api/games/{game['id']}/events"
    r = live.http.get(url, headers={"host": "rebound.example"})
    assert r.status_code == 421 and "error" in r.json()
    r = live.http.get(url, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = live.http.get(url, headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "cors"})
    assert r.status_code == 403
    assert r.headers["x-frame-options"] == "DENY"
    assert live.http.get(f"{live.base}/api/games/nothing/events").status_code == 404
    # a page of the board itself opens it
    ok = Reader(url, headers={"origin": live.base, "sec-fetch-site": "same-origin"})
    assert ok.response.status_code == 200 and ok.wait(1)
    ok.close()


def test_streams_are_bounded_and_a_page_that_leaves_gives_its_place_back() -> None:
    # no comment for an hour: only the disconnection itself can free a place
    server = Live(streams=3, streams_per_game=2, keep_alive=3600)
    try:
        make = {"variant": "hypergammon", "white": "human", "black": "human", "seed": 4}
        a, b = (server.http.post("/api/games", json=make).json()["id"] for _ in range(2))
        first = [Reader(f"{server.base}/api/games/{a}/events") for _ in range(2)]
        assert all(r.response.status_code == 200 for r in first)
        third = server.http.get(f"{server.base}/api/games/{a}/events")
        assert third.status_code == 503 and "live streams are open on this game" in \
            third.json()["error"]
        # a page of another game, which leaves
        leaving = socket.create_connection(("127.0.0.1", server.port))
        leaving.sendall(f"GET /api/games/{b}/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}"
                        f"\r\n\r\n".encode("ascii"))
        assert leaving.recv(65536).startswith(b"HTTP/1.1 200 OK")
        hub = server.app.state.hub
        assert len(hub) == 3
        full = server.http.get(f"{server.base}/api/games/{b}/events")
        assert full.status_code == 503 and "on this server" in full.json()["error"]
        # the state is still there for a page refused a stream (it asks every second)
        assert server.http.get(f"/api/games/{b}").status_code == 200
        leaving.close()
        deadline = time.monotonic() + 3
        while len(hub) > 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(hub) == 2
        again = Reader(f"{server.base}/api/games/{b}/events")
        assert again.response.status_code == 200 and again.wait(1)
    finally:
        took = server.stop()
    assert took < 5


def test_the_stream_holds_no_lock_and_is_no_work(live: Live) -> None:
    game = live.http.post("/api/games", json={"variant": "hypergammon", "white": "human",
                                              "black": "human", "seed": 4}).json()
    gid = game["id"]
    readers = [Reader(f"{live.base}/api/games/{gid}/events") for _ in range(4)]
    for r in readers:
        r.wait(1)
    works = live.app.state.works
    s = live.app.state.games.get(gid)
    assert not works.running and s.lock.acquire(timeout=1)
    s.lock.release()
    # the deadline of a request's work does not end a stream
    works.seconds, before = 0.2, works.seconds
    try:
        time.sleep(0.8)
        assert not any(r.ended.is_set() for r in readers)
    finally:
        works.seconds = before
    for r in readers:
        r.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_the_server_with_streams_open_stops_within_5_s(sig: int, tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", str(port)],
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/variants", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        game = httpx.post(f"{base}/api/games", json={"variant": "hypergammon", "white": "human",
                                                     "black": "human", "seed": 4},
                          timeout=30).json()
        readers = [Reader(f"{base}/api/games/{game['id']}/events") for _ in range(3)]
        for r in readers:
            r.wait(1, 10)
        start = time.monotonic()
        proc.send_signal(sig)
        proc.wait(10)
        took = time.monotonic() - start
        assert took < 5, took
        assert all(r.ended.wait(2) for r in readers)
        out = proc.stdout.read().decode()
        # the server printed the players' links of the game for two
        for side in ("white", "black"):
            assert f"{base}/game/{game['id']}?seat={game['seats'][side]}" in out
        assert "Cancel" not in proc.stderr.read().decode()    # no stream was cut off
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
