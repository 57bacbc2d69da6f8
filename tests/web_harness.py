"""What the web board's API tests share: an app behind starlette's TestClient, and a game made
through `POST /api/games` (two people at hypergammon, seed 3, unless told otherwise)."""
from __future__ import annotations

import warnings
from typing import Any, Iterator

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.web.app import create_app

BASE = "http://127.0.0.1:8000"


def client(**kw) -> TestClient:
    kw.setdefault("request_seconds", 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(**kw), base_url=BASE)


def made(c: TestClient, **body) -> dict:
    body.setdefault("variant", "hypergammon")
    body.setdefault("white", "human")
    body.setdefault("black", "human")
    body.setdefault("seed", 3)
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def live_server() -> Iterator[str]:
    """A real server of the app on a free port of 127.0.0.1, for a browser: its address, until
    the generator is closed (a module fixture's body: `yield from live_server()`)."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(port=port, request_seconds=60)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    app.stop()
    srv.should_exit = True
    thread.join(5)


def headless_chromium(executable: str) -> Iterator[Any]:
    """Playwright's Chromium at `executable`, headless, until the generator is closed (a module
    fixture's body: `yield from headless_chromium(CHROMIUM)`)."""
    from playwright import sync_api

    from interpreter.draw import CHROMIUM_ARGS

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


#: a desktop's window and a phone held upright
SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def screen_page(browser: Any, name: str) -> Iterator[tuple[Any, dict, str]]:
    """A page on the screen `name` of `SCREENS` (a phone's with touch, as a phone is held),
    its size and name, until the generator is closed; no error of the page's script may have
    happened by then (a fixture's body: `yield from screen_page(browser, request.param)`)."""
    size = SCREENS[name]
    phone = name == "phone"
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone,
                                  device_scale_factor=2 if phone else 1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(10000)
    yield pg, size, name
    context.close()
    assert not errors, errors


def inside(box: dict | None, size: dict) -> bool:
    """Whether an element's box lies inside the window of `size`."""
    return box is not None and box["x"] >= -0.5 and box["y"] >= -0.5 and \
        box["x"] + box["width"] <= size["width"] + 0.5 and \
        box["y"] + box["height"] <= size["height"] + 0.5


def idle(pg: Any) -> None:
    """Wait until the page has nothing in flight (`body[data-busy="0"]`)."""
    pg.wait_for_selector('body[data-busy="0"]')


def start(pg: Any, server: str, variant: str, seed: int, options: str = "",
          white: str = "human", black: str = "greedy") -> None:
    """A new game made on the page's form: the variant, the two players, the seed and the
    `--set`s, then the game's page once it is ready."""
    pg.goto(server + "/")
    pg.select_option("#variant", variant)
    pg.select_option("#white", white)
    pg.select_option("#black", black)
    pg.fill("#seed", str(seed))
    if options:
        pg.fill("#set", options)
    pg.click("#start")
    pg.wait_for_url("**/game/**")
    idle(pg)
