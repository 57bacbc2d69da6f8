"""The end of a match or partie on the web board: the result and the score box say who won it
and the final score (not the number of a next game, its cube or its pips), and a partie à
écrire's result is its net in jetons, as the sheet's settlement says it."""
from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter.render import result_line  # noqa: E402
from interpreter.variant.build import load_variant  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402


def test_a_partie_a_ecrire_is_won_by_its_net_in_jetons() -> None:
    variant = load_variant("trictrac-ecrire")
    won = SimpleNamespace(finished=True, winner=0, value=5, turns=289, log=())
    assert result_line(variant, won, {}, "throws") == \
        "white wins the partie by 5 jetons (after 289 throws)"
    level = SimpleNamespace(finished=True, winner=None, value=0, turns=300, log=())
    assert result_line(variant, level, {}, "throws") == "a level partie (after 300 throws)"


def test_a_three_point_match_ends_with_its_final_score_in_the_score_box() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = TestClient(create_app(request_seconds=60), base_url="http://127.0.0.1:8000")
    made = c.post("/api/games", json={"variant": "backgammon", "white": "human",
                                      "black": "human", "seed": 3,
                                      "set": {"ladder.match_length": 3}}).json()
    gid, seats, state = made["id"], made["seats"], made["state"]
    for n in range(400):
        q = state["question"]
        if q is None:
            break
        word = q["choices"][0]
        if q["decision"] == "double" and n % 7 == 3:
            word = "double"
        r = c.post(f"/api/games/{gid}/answer", json={"answer": word,
                                                     "seat": seats[q["player"]]})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["finished"]
    text = state["result"]["text"]
    assert text.startswith("white wins the match 4-0 (after "), text
    assert state["result"]["contest"] == "match"
    assert state["score"]["lines"] == ["white wins the match 4-0 (a match to 3)"]
    assert state["pips"] is None
