"""What the web board shows, through its JSON API and its pictures: the game's notation in the
log, the plays and the hint (no internal pip numbers: 25, 0, 29), the scoring rules by name,
both pip counts in a race, the score in words, the cube drawn, the waiting men and the pins
labelled; a short partie on the score sheet, with the holes of the mark in play."""
from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from interpreter.svg import position_svg  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.session import Session  # noqa: E402


@pytest.fixture(scope="module")
def client() -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(request_seconds=60), base_url="http://127.0.0.1:8000")


def new(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json()
    return r.json()


def answer(client: TestClient, gid: str, text: str) -> dict:
    r = client.post(f"/api/games/{gid}/answer", json={"answer": text})
    assert r.status_code == 200, r.json()
    return r.json()


def test_triktrak_in_guitons_notation_plays_labels_and_a_typed_play(client) -> None:
    made = new(client, variant="triktrak", white="human", black="greedy", seed=3,
               notation="guiton")
    st = made["state"]
    while st["bot_to_move"]:           # the bot's turn comes first: asked for as the page does
        st = client.get(f"/api/games/{made['id']}").json()["state"]
    assert st["notation"] == "guiton" and "guiton" in st["notations"]
    assert st["labels"]["24"] == "T" and st["labels"]["0"] == "off"
    labels = [p["label"] for p in st["question"]["plays"]]
    assert labels and not any(re.search(r"\b2[0-9]\b", t) for t in labels)
    assert all(re.search(r"\b2[0-9]/", line) is None for line in st["log"]), st["log"]
    # a play typed in Guiton's notation is read in it
    typed = labels[0]
    after = answer(client, made["id"], typed)
    assert any(typed in line or typed.replace(" ", "/") in line for line in after["log"]) or \
        after["turns"] > st["turns"], after["log"]


def test_a_notation_the_variant_lacks_is_refused(client) -> None:
    r = client.post("/api/games", json={"variant": "backgammon", "notation": "guiton"})
    assert r.status_code == 400 and "guiton" in r.json()["error"]


def test_the_hint_is_a_choice_and_is_shown_in_the_notation(client) -> None:
    made = new(client, variant="triktrak", white="human", black="greedy", seed=3,
               notation="guiton")
    q = client.post(f"/api/games/{made['id']}/hint", json={}).json()["question"]
    assert q["hint"] in q["choices"]
    assert q["hint_label"] in [p["label"] for p in q["plays"]]
    assert "T" in q["hint_detail"]["reason"].split("next best")[1]


def test_the_log_names_the_scoring_rules_and_the_bar_and_the_waiting_men() -> None:
    v = load_variant("triktrak", ["ladder.holes_to_win=1"])
    s = Session.new(v, 5, ("greedy", "greedy"), ["ladder.holes_to_win=1"])
    while s.bot_to_move:             # the bots play a turn a request: here, all of them
        s.bot_turn()
    log = "\n".join(s.state()["log"])
    names = {r.name for r in v.model.rules.values()}
    assert any(n in log for n in names)
    assert not any(f" {rid} " in log for rid in v.model.rules if rid not in names)
    a = load_variant("acey-deucey")
    s = Session.new(a, 3, ("greedy", "greedy"), [])
    while s.bot_to_move:
        s.bot_turn()
    log = "\n".join(s.state()["log"])
    assert "in/" in log and "29/" not in log and "25/" not in log and "/0 " not in log


def test_pip_counts_in_a_race_and_the_score_in_words(client) -> None:
    st = new(client, variant="backgammon", white="human", black="greedy", seed=7)["state"]
    assert st["pips"]["white"] == 167 and 150 <= st["pips"]["black"] <= 167
    assert st["score"]["lines"] and "cube" in st["score"]["lines"][0]
    tt = new(client, variant="triktrak", white="human", black="greedy", seed=3)["state"]
    assert tt["pips"] is None
    assert "bredouille" in tt["score"]["lines"][0] and "white" in tt["score"]["lines"][0]


def test_the_cube_is_drawn_where_it_is_played() -> None:
    v = load_variant("backgammon")
    s = Session.new(v, 7, ("human", "greedy"), [])
    svg = s.state()["svg"]
    assert 'class="cube"' in svg and ">64<" in svg and 'data-owner="centre"' in svg
    owned = position_svg(v, s.board(), cube=(2, "black"), side=0)
    assert 'data-owner="black"' in owned and ">2<" in owned
    t = load_variant("triktrak")
    assert 'class="cube"' not in Session.new(t, 3, ("human", "greedy"), []).state()["svg"]


def test_the_waiting_men_and_the_pins_are_labelled() -> None:
    a = load_variant("acey-deucey")
    svg = Session.new(a, 3, ("human", "greedy"), []).state()["svg"]
    assert "to enter" in svg and 'data-pip="29"' in svg
    p = load_variant("plakoto")
    pts = [0] * 24
    pts[9], pts[23], pts[0] = -1, 14, -14
    b = p.geometry.from_json({"points": pts, "pins": {"mine": [10]}, "bar": [0, 0],
                              "off": [0, 0]}, 15)
    svg = position_svg(p, b)
    assert 'class="pin"' in svg and ">pin<" in svg and "pinned under" in svg


def test_a_two_mark_partie_on_the_sheet_with_the_holes_of_the_mark(client) -> None:
    fields = {"variant": "trictrac-ecrire", "players": ["Alice", "Bob"], "marks": 2,
              "options": {"min_marks": 2}, "events": ["Alice +4", "Alice +2", "Bob +3"]}
    r = client.post("/api/sheets/view", json={"fields": fields})
    assert r.status_code == 200, r.json()
    v = r.json()
    assert v["in_play"]["holes"] == {"Alice": 6, "Bob": 3} and v["in_play"]["of"] == 2
    fields["events"] += ["Bob +3", "Bob go"]            # 6-6, Bob goes: a refait
    v = client.post("/api/sheets/view", json={"fields": fields}).json()
    assert v["sheet"]["marks"][-1]["kind"] == "refait"
