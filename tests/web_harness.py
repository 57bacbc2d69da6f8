"""What the web board's API tests share: an app behind starlette's TestClient, and a game made
through `POST /api/games` (two people at hypergammon, seed 3, unless told otherwise)."""
from __future__ import annotations

import warnings

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
