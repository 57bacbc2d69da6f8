"""What `tablier serve` refuses (docs/security.md, "The web board"): requests for another host
(421), from another site (403), bodies that are not JSON (415) or too large (413), any file a
request, a save or a record names that is not a built-in variant or a file of the served folder
(400 "unknown variant", the file never opened and never quoted), work past the request's time
(503, the work stopped); bots playing one turn a request; the store of games bounded.

Through starlette's TestClient, then through real servers: `python -m interpreter serve` as a
child process (raw HTTP requests, SIGTERM and Ctrl-C), and a Chromium page of another origin
trying to post to the board.
"""
from __future__ import annotations

import asyncio
import hashlib
import http.server
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.web.app import create_app
from interpreter.web.doors import MAX_BODY, Doors, server_hosts

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000"
SECRET = "TOPSECRET-4242"
#: an end rule priced under the rule budget that costs tens of milliseconds each time it runs
#: a rule that never holds, run on every board a search judges, priced just under the file's
#: budget: a hint of search:2 then takes about half a second
COSTLY = "any(a in 1..24: any(b in 1..6: mine(a) + mine(b) > 60))"

#: the files opened while `WATCH` is on (an audit hook sees every open of the process)
OPENED: list[str] = []
WATCH = threading.Event()


def _audit(event: str, args: tuple) -> None:
    if event == "open" and WATCH.is_set() and isinstance(args[0], (str, bytes, os.PathLike)):
        OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def client(**kw) -> TestClient:
    base = kw.pop("base_url", BASE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(**kw), base_url=base)


@pytest.fixture(scope="module")
def plain() -> TestClient:
    return client()


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file of the person's that no page may read: TOML-looking, with a syntax error on the
    line after the secret (a diagnostic would quote them)."""
    path = tmp_path / "secrets.toml"
    path.write_text(f'api_key = "{SECRET}"\n[variant\nid = "{SECRET}"\n', encoding="utf-8")
    return path


@pytest.fixture
def served(tmp_path: Path) -> tuple[TestClient, Path]:
    """A server of `serve --variants DIR`, DIR holding a quick Triktrak and a longer one."""
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "quick.toml").write_text(
        'extends = "triktrak"\n[variant]\nid = "quick"\nname = "Quick"\n'
        '[ladder]\nholes_to_win = 1\n', encoding="utf-8")
    (folder / "longer.toml").write_text(
        'extends = "triktrak"\n[variant]\nid = "longer"\nname = "Longer"\n'
        '[ladder]\nholes_to_win = 2\n', encoding="utf-8")
    return client(variants=folder), folder


def post(c: TestClient, url: str, body, status: int = 200) -> dict:
    r = c.post(url, json=body)
    assert r.status_code == status, r.text
    return r.json()


def poll(c: TestClient, gid: str, limit: int = 5000) -> tuple[dict, list[dict]]:
    """The state once no bot is to move, asked again as the page does; every state seen."""
    seen = []
    while True:
        r = c.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        seen.append(r.json()["state"])
        if not seen[-1]["bot_to_move"]:
            return seen[-1], seen
        assert len(seen) < limit


def clean(text: str, secret_path: Path) -> None:
    """No byte of the secret file in an answer, and the file never opened."""
    assert SECRET not in text and "api_key" not in text and "[variant\n" not in text
    assert str(secret_path) not in OPENED and os.path.realpath(secret_path) not in OPENED


# -- the doors ------------------------------------------------------------------------------------

def test_another_host_is_421_before_any_work(plain: TestClient) -> None:
    games = plain.app.state.games
    before = len(games)
    for base in ("http://evil.example:8000", "http://127.0.0.1:8001", "http://localhost",
                 "http://attacker.test"):
        c = TestClient(plain.app, base_url=base)
        for r in (c.get("/"), c.get("/api/variants"),
                  c.post("/api/games", json={"variant": "backgammon"})):
            assert r.status_code == 421, (base, r.text)
            assert "not to the host" in r.json()["error"]
    assert len(games) == before
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000",
                 "http://LOCALHOST:8000"):
        assert TestClient(plain.app, base_url=base).get("/api/variants").status_code == 200
    # the --host given is the server's own too, with its port
    lan = client(host="192.168.1.5", port=8080, base_url="http://192.168.1.5:8080")
    assert lan.get("/api/variants").status_code == 200
    assert TestClient(lan.app, base_url="http://192.168.1.5:8000").get("/").status_code == 421
    assert server_hosts("::1", 9000) >= {"[::1]:9000", "127.0.0.1:9000", "localhost:9000"}


def test_another_origin_is_403(plain: TestClient) -> None:
    before = len(plain.app.state.games)
    body = json.dumps({"variant": "backgammon", "white": "human", "black": "human"})
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8000",
                   "null", "http://localhost:8000.evil.example"):
        r = plain.post("/api/games", content=body,
                       headers={"content-type": "application/json", "origin": origin})
        assert r.status_code == 403, (origin, r.text)
        assert "another site" in r.json()["error"]
        assert plain.get("/api/variants", headers={"origin": origin}).status_code == 403
    r = plain.post("/api/games", content=body, headers={"content-type": "application/json",
                                                        "sec-fetch-site": "cross-site",
                                                        "sec-fetch-mode": "cors"})
    assert r.status_code == 403
    assert len(plain.app.state.games) == before
    # the board's own pages
    r = plain.post("/api/games", content=body, headers={"content-type": "application/json",
                                                        "origin": BASE,
                                                        "sec-fetch-site": "same-origin"})
    assert r.status_code == 200
    # a link followed from elsewhere opens the start page
    assert plain.get("/", headers={"sec-fetch-site": "cross-site",
                                   "sec-fetch-mode": "navigate"}).status_code == 200


def test_a_post_that_is_not_json_is_415(plain: TestClient) -> None:
    before = len(plain.app.state.games)
    body = json.dumps({"variant": "backgammon", "white": "human", "black": "human"})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 "", "application/jsonx", "text/json"):
        headers = {"content-type": kind} if kind else {}
        r = plain.post("/api/games", content=body, headers=headers)
        assert r.status_code == 415, (kind, r.text)
        assert "application/json" in r.json()["error"]
    assert len(plain.app.state.games) == before
    r = plain.post("/api/games", content=body,
                   headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_a_body_over_1_mb_is_413(plain: TestClient) -> None:
    big = json.dumps({"resume": "x" * MAX_BODY})
    r = plain.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 1,000,000 bytes" in r.json()["error"]

    def chunks():             # no Content-Length: the body is counted as it comes
        for _ in range(40):
            yield b" " * 65536
    r = plain.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_the_door_reads_no_more_than_the_limit() -> None:
    """A body streamed without end is read up to the limit and answered 413; the application
    never sees it."""
    seen = []

    async def app(scope, receive, send):     # pragma: no cover - must not be reached
        seen.append(scope)

    read = 0

    async def receive():
        nonlocal read
        read += 65536
        return {"type": "http.request", "body": b"{" * 65536, "more_body": True}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games",
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")]}
    asyncio.run(Doors(app, server_hosts("127.0.0.1", 8000))(scope, receive, send))
    assert sent[0]["status"] == 413 and not seen
    assert read <= MAX_BODY + 65536


# -- no file from a request -----------------------------------------------------------------------

def test_a_variant_path_is_unknown_and_never_opened(served, secret: Path) -> None:
    c, folder = served
    OPENED.clear()
    WATCH.set()
    try:
        for name in (str(secret), "../secrets.toml", f"{folder}/../secrets.toml", "secrets.toml",
                     "secrets", "/etc/passwd", "./quick.toml", f"{folder}/quick.toml",
                     "quick.toml/", "\0quick.toml", "~/secrets.toml"):
            r = c.post("/api/games", json={"variant": name, "white": "human"})
            assert r.status_code == 400, (name, r.text)
            assert r.json()["error"].startswith("unknown variant "), r.text
            clean(r.text, secret)
        # the served files, by file name, stem or id
        for name in ("quick.toml", "quick", "longer"):
            assert post(c, "/api/games", {"variant": name})["state"]["variant"] in (
                "quick", "longer")
    finally:
        WATCH.clear()
    listed = [row["id"] for row in c.get("/api/variants").json()]
    assert "quick.toml" in listed and "secrets.toml" not in listed


def test_a_set_naming_a_file_is_refused(plain: TestClient, secret: Path) -> None:
    OPENED.clear()
    WATCH.set()
    try:
        for games in ([str(secret)], ["portes", "../../secrets.toml"], [f"{secret}"[:-5] + ".TOML"]):
            r = plain.post("/api/games", json={"variant": "tavli", "set": {"ladder.games": games}})
            assert r.status_code == 400, r.text
            assert "names a file" in r.json()["error"]
            clean(r.text, secret)
    finally:
        WATCH.clear()
    # built-in ids stay allowed
    made = post(plain, "/api/games", {"variant": "tavli", "white": "human", "black": "human",
                                      "set": {"ladder.games": ["portes", "plakoto"]}})
    assert made["state"]["variant"] == "tavli"


def test_a_link_in_the_folder_is_kept_inside(served, secret: Path) -> None:
    c, folder = served
    (folder / "evil.toml").symlink_to(secret)
    (folder / "pw.toml").symlink_to("/etc/passwd")
    (folder / "again.toml").symlink_to(folder / "quick.toml")
    (folder / "up.toml").symlink_to("../secrets.toml")
    OPENED.clear()
    WATCH.set()
    try:
        for name in ("evil.toml", "evil", "pw.toml", "up.toml"):
            r = c.post("/api/games", json={"variant": name})
            assert r.status_code == 400 and "unknown variant" in r.json()["error"], r.text
            clean(r.text, secret)
            assert "root:" not in r.text
        listed = c.get("/api/variants").json()
        clean(json.dumps(listed), secret)
    finally:
        WATCH.clear()
    names = [row["id"] for row in listed]
    assert "evil.toml" not in names and "pw.toml" not in names and "again.toml" in names
    assert post(c, "/api/games", {"variant": "again.toml"})["state"]["variant"] == "quick"


def _save_of(c: TestClient, variant: str) -> dict:
    made = post(c, "/api/games", {"variant": variant, "white": "human", "black": "human",
                                  "seed": 4})
    state = made["state"]
    seats = {"x-tablier-seat": ",".join(made["seats"].values())}     # the maker's page
    for _ in range(4):
        c.post(f"/api/games/{made['id']}/answer", json={"answer": state["question"]["choices"][0]},
               headers=seats)
        state = c.get(f"/api/games/{made['id']}").json()["state"]
    return tomllib.loads(c.get(f"/api/games/{made['id']}/save", headers=seats).text)


def _resealed(data: dict) -> str:
    import tomli_w

    from interpreter.io.save import _checksum

    data["checksum"] = _checksum(data)
    return tomli_w.dumps(data)


def test_a_save_naming_a_path_is_looked_up_by_name_and_sha256(served, secret: Path) -> None:
    c, folder = served
    data = _save_of(c, "longer.toml")
    assert data["game"]["variant_file"] == str((folder / "longer.toml").resolve())
    digest = hashlib.sha256(secret.read_bytes()).hexdigest()
    OPENED.clear()
    WATCH.set()
    try:
        # the path of the save is not where the variant is taken from: the served file of the
        # same name and sha256 is
        moved = json.loads(json.dumps(data))
        moved["game"]["variant_file"] = str(secret)
        made = post(c, "/api/games", {"resume": _resealed(moved)})
        assert made["state"]["variant"] == "longer"
        # a save that names the secret file, with its name and sha256
        evil = json.loads(json.dumps(data))
        evil["game"]["variant_file"] = str(secret)
        evil["files"] = [{"name": "secrets.toml", "sha256": digest}]
        r = c.post("/api/games", json={"resume": _resealed(evil)})
        assert r.status_code == 400 and r.json()["error"].startswith("unknown variant"), r.text
        clean(r.text, secret)
        # a save of a built-in id that is a path
        evil = json.loads(json.dumps(data))
        del evil["game"]["variant_file"]
        evil["game"]["variant"] = str(secret)
        r = c.post("/api/games", json={"resume": _resealed(evil)})
        assert r.status_code == 400 and r.json()["error"].startswith("unknown variant"), r.text
        clean(r.text, secret)
        # options that would make a rotation open a file
        evil = json.loads(json.dumps(data))
        evil["game"]["options"] = [f'ladder.games=["{secret}"]']
        r = c.post("/api/games", json={"resume": _resealed(evil)})
        assert r.status_code == 400 and "names a file" in r.json()["error"], r.text
        clean(r.text, secret)
    finally:
        WATCH.clear()
    # the CLI still resumes a person's own save from the path it names
    save = folder.parent / "game.toml"
    save.write_text(_resealed(json.loads(json.dumps(data))), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "interpreter", "play", "--resume", str(save),
                          "--max-turns", "30"], capture_output=True, text=True, timeout=60,
                         input="", env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert out.returncode == 0, out.stderr


def test_a_sheet_record_naming_a_path_is_refused(served, secret: Path) -> None:
    c, _ = served
    OPENED.clear()
    WATCH.set()
    try:
        for variant in (str(secret), "../secrets.toml", "secrets.toml"):
            for url in ("/api/sheets", "/api/sheets/view"):
                record = f'variant = "{variant}"\nplayers = ["A", "B"]\nevents = []\n'
                r = c.post(url, json={"record": record})
                assert r.status_code == 400, r.text
                assert "unknown variant" in r.json()["error"], r.text
                clean(r.text, secret)
        record = (f'variant = "tavli"\nplayers = ["A", "B"]\nevents = []\n'
                  f'[options]\ngames = ["{secret}"]\n')
        r = c.post("/api/sheets", json={"record": record})
        assert r.status_code == 400 and "names a file" in r.json()["error"], r.text
        clean(r.text, secret)
    finally:
        WATCH.clear()
    # a record of a served file is kept
    record = 'variant = "longer.toml"\nplayers = ["A", "B"]\nevents = ["A +4", "A +8"]\n'
    sheet = post(c, "/api/sheets", {"record": record})
    assert sheet["players"]["A"]["holes"] == 2      # a hole in bredouille


# -- bounded work ---------------------------------------------------------------------------------

def _cpu_after(seconds: float) -> float:
    before = time.process_time()
    time.sleep(seconds)
    return time.process_time() - before


# the exception that stops a work may land in a weakref callback, which Python reports and
# ignores (the work is stopped by the next one)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_request_past_its_time_is_503_and_the_work_stops() -> None:
    c = client(request_seconds=60)
    made = post(c, "/api/games", {"variant": "backgammon", "white": "human", "black": "human",
                                  "seed": 1, "set": {"rules.borne-off.when": COSTLY}})
    gid, state = made["id"], made["state"]
    seats = list(made["seats"].values())        # the maker's page holds both seats
    while state["question"]["kind"] != "play":
        state = post(c, f"/api/games/{gid}/answer", {"answer": "roll", "seat": seats})
    works = c.app.state.works
    works.seconds = 0.05
    start = time.monotonic()
    r = c.post(f"/api/games/{gid}/hint", json={"seat": seats})   # the rule runs on each leaf
    took = time.monotonic() - start
    assert r.status_code == 503, r.text
    assert "more than 0.05 s" in r.json()["error"] and took < 3
    assert not works.running
    assert _cpu_after(1.0) < 0.3             # no thread goes on computing after the answer
    # the game is as it was: the hint ran on copies
    works.seconds = 60
    again = c.get(f"/api/games/{gid}").json()["state"]
    assert again["question"] == state["question"] and again["stopped"] is None
    # ...and it plays on
    after = post(c, f"/api/games/{gid}/answer", {"answer": state["question"]["choices"][0],
                                                 "seat": seats})
    assert after["turns"] == state["turns"] and after["question"]["player"] != \
        state["question"]["player"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_bot_past_its_time_stops_its_game() -> None:
    c = client(request_seconds=60)
    made = post(c, "/api/games", {"variant": "backgammon", "white": "search:2",
                                  "black": "search:2", "seed": 1,
                                  "set": {"rules.borne-off.when": COSTLY}})
    works = c.app.state.works
    works.seconds = 0.05
    gid = made["id"]
    codes = []
    for _ in range(6):
        r = c.get(f"/api/games/{gid}")
        codes.append(r.status_code)
        if r.status_code == 503:
            break
    assert codes[-1] == 503, codes
    assert _cpu_after(1.0) < 0.3
    # the bot is given a second request, then its game is stopped
    assert not c.app.state.games.get(gid).stopped
    assert c.get(f"/api/games/{gid}").status_code == 503
    works.seconds = 60
    state = c.get(f"/api/games/{gid}").json()["state"]
    assert state["stopped"] and not state["bot_to_move"] and state["question"] is None
    assert "bot needed more time" in state["stopped"]


def test_a_bot_game_advances_one_turn_a_request(plain: TestClient) -> None:
    made = post(plain, "/api/games", {"variant": "hypergammon", "white": "greedy",
                                      "black": "random", "seed": 3})
    assert made["state"]["bot_to_move"] and not made["state"]["finished"]
    final, seen = poll(plain, made["id"])
    assert final["finished"] and final["winner"] in ("white", "black")
    turns = [made["state"]["turns"]] + [s["turns"] for s in seen]
    steps = [b - a for a, b in itertools.pairwise(turns)]
    assert max(steps) <= 2 and len(seen) >= final["turns"] // 2
    # one bot's answers a request: never both sides' plays in one
    for a, b in itertools.pairwise(seen):
        assert len(b["log"]) - len(a["log"]) <= 12


def test_the_store_drops_the_oldest_finished_game_first() -> None:
    c = client(limit=3)
    games = c.app.state.games
    human = {"variant": "backgammon", "white": "human", "black": "human"}
    b = post(c, "/api/games", human)["id"]
    a = post(c, "/api/games", {"variant": "hypergammon", "white": "random",
                               "black": "random", "seed": 2})["id"]
    assert poll(c, a)[0]["finished"]
    d = post(c, "/api/games", human)["id"]
    e = post(c, "/api/games", human)["id"]            # full: the finished game goes
    assert c.get(f"/api/games/{a}").status_code == 404
    assert all(c.get(f"/api/games/{g}").status_code == 200 for g in (d, e, b))
    f = post(c, "/api/games", human)["id"]            # none finished: the longest idle goes
    assert c.get(f"/api/games/{d}").status_code == 404
    assert all(c.get(f"/api/games/{g}").status_code == 200 for g in (b, e, f))
    assert len(games) == 3


def test_the_store_holds_a_bounded_number_of_throws() -> None:
    """Games of thousands of throws (a resumed save of 20,000) cannot fill the memory: past
    `max_turns` throws in all, the oldest finished games go, then the longest idle."""
    from types import SimpleNamespace

    from interpreter.web.session import Sessions

    def game(name: str, turns: int, finished: bool) -> SimpleNamespace:
        return SimpleNamespace(id=name, finished=finished, used=time.monotonic(),
                               game=SimpleNamespace(turns=turns))
    store = Sessions(limit=100, max_turns=50_000)
    for i in range(4):
        store.add(game(f"idle{i}", 10_000, False))
    store.add(game("done", 10_000, True))
    store.add(game("new", 20_000, False))
    kept = list(store._games)
    assert "done" not in kept and "idle0" not in kept and "new" in kept
    assert sum(g.game.turns for g in store._games.values()) <= 50_000
    store.add(game("huge", 90_000, False))          # alone over the budget: it stays alone
    assert list(store._games) == ["huge"]


# -- a real server --------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raw(port: int, request: str, timeout: float = 10) -> tuple[int, str]:
    """A raw HTTP/1.1 exchange: the status and the body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request.replace("\n", "\r\n").encode("latin-1"))
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")


def _request(method: str, port: int, path: str, body: str = "", host: str | None = None,
             **headers: str) -> str:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}",
             "Connection: close"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body.encode())}")
    return "\n".join(lines) + "\n\n" + body


@pytest.fixture
def server_process(tmp_path: Path):
    """`python -m interpreter serve` on a free port of 127.0.0.1, its `--variants` folder
    `tmp_path/served`; the process and its port."""
    folder = tmp_path / "served"
    folder.mkdir()
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", str(port),
                             "--variants", str(folder), "--request-seconds", "30"],
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        try:
            if raw(port, _request("GET", port, "/api/variants"), 2)[0] == 200:
                break
        except OSError:
            pass
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    yield proc, port
    if proc.poll() is None:
        proc.kill()
        proc.wait(5)


def test_a_real_server_refuses_at_its_doors(server_process, secret: Path) -> None:
    _, port = server_process
    body = json.dumps({"variant": str(secret), "white": "random", "black": "random"})
    status, text = raw(port, _request("POST", port, "/api/games", body,
                                      host=f"rebound.example:{port}",
                                      content_type="application/json"))
    assert status == 421 and SECRET not in text
    status, _ = raw(port, _request("GET", port, "/", host=f"127.0.0.1:{port + 1}"))
    assert status == 421
    status, text = raw(port, _request("POST", port, "/api/games", body,
                                      content_type="application/json",
                                      origin="http://evil.example"))
    assert status == 403 and SECRET not in text
    status, text = raw(port, _request("POST", port, "/api/games", body,
                                      content_type="text/plain"))
    assert status == 415 and SECRET not in text
    # a huge body announced is refused before a byte of it is sent
    start = time.monotonic()
    status, text = raw(port, f"POST /api/games HTTP/1.1\nHost: 127.0.0.1:{port}\n"
                             f"Content-Type: application/json\nContent-Length: 50000000\n\n")
    assert status == 413 and time.monotonic() - start < 5
    status, text = raw(port, _request("POST", port, "/api/games", body,
                                      content_type="application/json"))
    assert status == 400 and json.loads(text)["error"].startswith("unknown variant")
    assert SECRET not in text and "api_key" not in text
    status, text = raw(port, _request("GET", port, "/", host=f"localhost:{port}"))
    assert status == 200 and "Play a game" in text


def _stops_within(proc: subprocess.Popen, sig: int, seconds: float = 5) -> float:
    start = time.monotonic()
    proc.send_signal(sig)
    proc.wait(seconds + 5)
    return time.monotonic() - start


def test_sigterm_stops_the_server_at_work_within_5_s(server_process) -> None:
    proc, port = server_process
    body = json.dumps({"variant": "backgammon", "white": "human", "black": "human", "seed": 1,
                       "set": {"rules.borne-off.when": COSTLY}})
    status, text = raw(port, _request("POST", port, "/api/games", body,
                                      content_type="application/json"), 60)
    assert status == 200, text
    made = json.loads(text)
    gid, state = made["id"], made["state"]
    seats = json.dumps(list(made["seats"].values()))
    while state["question"]["kind"] != "play":
        status, text = raw(port, _request("POST", port, f"/api/games/{gid}/answer",
                                          f'{{"answer": "roll", "seat": {seats}}}',
                                          content_type="application/json"), 60)
        state = json.loads(text)
    # hints asked one after another while the signal comes, and an idle connection kept open
    def hints() -> None:
        while proc.poll() is None:
            _try(lambda: raw(port, _request("POST", port, f"/api/games/{gid}/hint",
                                            f'{{"seat": {seats}}}',
                                            content_type="application/json"), 60))

    busy = threading.Thread(target=hints, daemon=True)
    busy.start()
    idle = socket.create_connection(("127.0.0.1", port))
    time.sleep(1.0)
    try:
        assert proc.poll() is None
        assert _stops_within(proc, signal.SIGTERM) < 5
    finally:
        idle.close()


def test_ctrl_c_stops_the_server_within_5_s(server_process) -> None:
    proc, port = server_process
    idle = socket.create_connection(("127.0.0.1", port))
    try:
        assert _stops_within(proc, signal.SIGINT) < 5
    finally:
        idle.close()


def _try(fn) -> None:
    try:
        fn()
    except (OSError, IndexError, ValueError):     # the server stopped under it
        pass


# -- a page of another site in a real browser -----------------------------------------------------

ATTACK = """<!doctype html><html><body><script>
async function attack(board, secret) {
  const out = {};
  const body = JSON.stringify({variant: secret, white: "random", black: "random"});
  try {
    const r = await fetch(board + "/api/games", {method: "POST", body,
                                                 headers: {"content-type": "text/plain"}});
    out.read = await r.text();
  } catch (e) { out.error = String(e); }
  try {
    const r = await fetch(board + "/api/games", {method: "POST", mode: "no-cors", body,
                                                 headers: {"content-type": "text/plain"}});
    out.type = r.type; out.text = await r.text();
  } catch (e) { out.error2 = String(e); }
  try {
    const r = await fetch(board + "/api/games", {method: "POST", body,
                                                 headers: {"content-type": "application/json"}});
    out.read3 = await r.text();
  } catch (e) { out.error3 = String(e); }
  try {
    const r = await fetch(board + "/api/variants");
    out.read4 = await r.text();
  } catch (e) { out.error4 = String(e); }
  return out;
}
</script></body></html>"""


def test_a_page_of_another_origin_cannot_use_the_board(tmp_path: Path, secret: Path) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    sync_api = pytest.importorskip("playwright.sync_api")
    from interpreter.draw import CHROMIUM_ARGS, chromium_path

    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    port = _free_port()
    app = create_app(port=port)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    board = threading.Thread(target=srv.run, daemon=True)
    board.start()
    (tmp_path / "attack.html").write_text(ATTACK, encoding="utf-8")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(tmp_path), **kw)

        def log_message(self, *a) -> None:
            pass
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=[*CHROMIUM_ARGS,
                                              "--host-resolver-rules=MAP rebound.test 127.0.0.1"])
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{other.server_address[1]}/attack.html")
                out = page.evaluate("([b, s]) => attack(b, s)",
                                    [f"http://127.0.0.1:{port}", str(secret)])
                # nothing readable, whatever the request
                assert "read" not in out and "Failed to fetch" in out["error"], out
                assert out["type"] == "opaque" and out["text"] == "", out
                assert "read3" not in out and "read4" not in out, out
                # a name rebound to 127.0.0.1: the board does not answer it
                r = page.goto(f"http://rebound.test:{port}/")
                assert r.status == 421
                text = page.evaluate("""async () => (await fetch("/api/games", {method: "POST",
                    headers: {"content-type": "application/json"},
                    body: JSON.stringify({variant: "backgammon"})})).status""")
                assert text == 421
                # the board's own page works
                r = page.goto(f"http://127.0.0.1:{port}/")
                assert r.status == 200
            finally:
                browser.close()
        assert len(app.state.games) == 0
        assert SECRET not in json.dumps(out)
    finally:
        other.shutdown()
        srv.should_exit = True
        board.join(5)
