"""The web board's hint list and its review of a game over (interpreter/web/), through
starlette's TestClient: the hint's ranked answers with their values and what each gives up, the
cube's numbers at a double; `POST /api/games/{id}/review` for a finished game only, bounded by
the request's time, behind the same doors as every request, open to both seats and to
watchers once the game is over; a person whose cube is dead is not asked to double."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter.io.save import read_save_text  # noqa: E402
from interpreter.review import review  # noqa: E402
from interpreter.web import app as web_app  # noqa: E402

from web_harness import client, made  # noqa: E402


@pytest.fixture(scope="module")
def api() -> TestClient:
    return client()


def answer(c: TestClient, gid: str, body: dict) -> dict:
    r = c.post(f"/api/games/{gid}/answer", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play_to_the_end(c: TestClient, game: dict, limit: int = 600) -> dict:
    """Every question answered with its first choice, from the seat asked (a game of two
    people) or by the bot's own request: the final STATE."""
    gid, state, seats = game["id"], game["state"], game.get("seats")
    for _ in range(limit):
        if state["finished"]:
            return state
        if state["bot_to_move"]:
            state = c.get(f"/api/games/{gid}").json()["state"]
            continue
        q = state["question"]
        body = {"answer": q["choices"][0]}
        if seats:
            body["seat"] = seats[q["player"]]
        state = answer(c, gid, body)
    raise AssertionError("the game did not end")


# -- the hint's ranked answers ------------------------------------------------------------------

def test_the_hint_ranks_the_best_plays_with_their_values_and_errors(api: TestClient) -> None:
    game = made(api, variant="backgammon", white="human", black="greedy", seed=7)
    gid = game["id"]
    state = game["state"]
    while state["bot_to_move"] or state["question"]["decision"] != "play":
        state = api.get(f"/api/games/{gid}").json()["state"] if state["bot_to_move"] else \
            answer(api, gid, {"answer": "roll"})
    q = state["question"]
    r = api.post(f"/api/games/{gid}/hint", json={})
    assert r.status_code == 200, r.text
    got = r.json()
    cands = got["candidates"]
    assert got["unit"] == "points" and got["cube"] is None
    assert 2 <= len(cands) <= 10 and len(cands) == min(10, len(q["choices"]))
    labels = {p["label"]: p["text"] for p in q["plays"]}
    # each a legal play, in the game's notation, answerable as it stands
    for c in cands:
        assert set(c) >= {"play", "value", "error", "answer"}
        assert labels[c["play"]] == c["answer"] and c["answer"] in q["choices"]
    # best first; the error is the best's value less the play's own
    values = [c["value"] for c in cands]
    assert values == sorted(values, reverse=True)
    assert cands[0]["error"] == 0
    for c in cands:
        assert c["error"] == pytest.approx(cands[0]["value"] - c["value"], abs=2e-4)
    # the same list in the question, which the page draws (and the hint is its first)
    hq = got["question"]
    assert hq["hint_candidates"] == cands and hq["hint"] == cands[0]["answer"]
    assert hq["hint_detail"]["second"] == cands[1]["play"]
    # a candidate answers the question
    after = answer(api, gid, {"answer": cands[1]["play"]})
    assert after["question"] is None or "hint_candidates" not in after["question"]


def test_at_a_double_the_hint_gives_the_cube_numbers(api: TestClient) -> None:
    game = made(api, seed=5)
    gid, seats = game["id"], game["seats"]
    state = game["state"]
    for _ in range(40):
        q = state["question"]
        if q["decision"] == "double":
            break
        state = answer(api, gid, {"answer": q["choices"][0], "seat": seats[q["player"]]})
    q = state["question"]
    assert q["decision"] == "double"
    got = api.post(f"/api/games/{gid}/hint", json={"seat": seats[q["player"]]}).json()
    numbers = {n["answer"]: n["value"] for n in got["cube"]["numbers"]}
    assert set(numbers) == {"no double", "double/take", "double/pass"}
    values = {c["answer"]: c["value"] for c in got["candidates"]}
    # not doubling is the roll; doubling is worth what the opponent's better answer leaves
    assert values["roll"] == pytest.approx(numbers["no double"], abs=2e-4)
    assert values["double"] == pytest.approx(min(numbers["double/take"],
                                                 numbers["double/pass"]), abs=2e-4)
    # a pass gives the doubler the cube's value: one point
    assert numbers["double/pass"] == pytest.approx(1.0)
    assert got["cube"]["right"] in ("double, take", "double, pass", "no double, take",
                                    "no double, pass", "too good to double")


def test_the_hint_list_is_the_asked_sides_alone(api: TestClient) -> None:
    game = made(api, variant="triktrak", seed=2)
    gid, seats = game["id"], game["seats"]
    asked = game["state"]["question"]["player"]
    mine = api.post(f"/api/games/{gid}/hint", json={"seat": seats[asked]}).json()
    assert mine["candidates"] and mine["unit"]
    other = "black" if asked == "white" else "white"
    for params in ({"seat": seats[other]}, {}):
        q = api.get(f"/api/games/{gid}", params=params).json()["state"]["question"]
        assert not any(k.startswith("hint") for k in q)


# -- the review of a game over ------------------------------------------------------------------

def test_a_game_in_play_is_not_reviewed(api: TestClient) -> None:
    game = made(api)
    r = api.post(f"/api/games/{game['id']}/review", json={})
    assert r.status_code == 409
    assert r.json()["error"] == "the game is still in play: a game is reviewed once it is over"
    # nor with a seat
    r = api.post(f"/api/games/{game['id']}/review", json={"seat": game["seats"]["white"]})
    assert r.status_code == 409


def test_a_finished_game_is_reviewed_as_tablier_analyse_reviews_its_save(api: TestClient
                                                                          ) -> None:
    game = made(api, white="human", black="greedy", seed=3,
                set={"ladder.doubling": False})
    state = play_to_the_end(api, game)
    gid = game["id"]
    r = api.post(f"/api/games/{gid}/review", json={})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["partial"] is False and got["seconds"] <= got["max_seconds"]
    rev = got["review"]
    assert set(rev["players"]) == {"white", "black"}
    assert rev["players"]["white"]["kind"] == "human"
    assert rev["players"]["black"]["kind"] == "greedy"
    # the same review as the command's, of the game's save
    data, record = read_save_text(api.get(f"/api/games/{gid}/save").text)
    want = review((data, record), max_seconds=None).to_json()
    assert rev["players"] == want["players"]
    assert [(d["turn"], d["played"], d["best"], d["mark"]) for d in rev["decisions"]] == \
        [(d["turn"], d["played"], d["best"], d["mark"]) for d in want["decisions"]]
    assert got["text"].splitlines()[0].startswith("hypergammon reviewed by ")
    # every decision of white's (a person's plays) is there
    made_by_white = sum(1 for d in rev["decisions"] if d["player"] == "white")
    assert made_by_white == rev["players"]["white"]["decisions"] >= 1
    assert state["finished"]
    # asked again, the review is given as it was made
    again = api.post(f"/api/games/{gid}/review", json={}).json()
    assert again["review"] == rev


def test_the_review_works_within_the_requests_time_and_says_when_it_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(request_seconds=10)
    game = made(c, variant="backgammon", white="human", black="human", seed=4,
                set={"ladder.doubling": False})
    play_to_the_end(c, game)
    gid = game["id"]
    # a review may take 60 % of the request's time: the rest replays and answers
    assert web_app.REVIEW_SHARE < 1
    monkeypatch.setattr(web_app, "REVIEW_SHARE", 0.03)
    r = c.post(f"/api/games/{gid}/review", json={})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["max_seconds"] == pytest.approx(0.3)
    assert got["partial"] is True and got["review"]["partial"] is not None
    assert got["text"].startswith("partial review: the 0.3 s limit was reached")
    reviewed = sum(p["decisions"] for p in got["review"]["players"].values())
    # a partial review is not kept: asked again with the time, the whole game is reviewed
    monkeypatch.setattr(web_app, "REVIEW_SHARE", 0.6)
    whole = c.post(f"/api/games/{gid}/review", json={}).json()
    assert whole["partial"] is False
    assert sum(p["decisions"] for p in whole["review"]["players"].values()) > reviewed


def test_the_review_is_for_the_seats_and_the_watchers_once_the_game_is_over(api: TestClient
                                                                            ) -> None:
    game = made(api, seed=4, set={"ladder.doubling": False})
    play_to_the_end(api, game)
    gid, seats = game["id"], game["seats"]
    seen = []
    for body in ({"seat": seats["white"]}, {"seat": seats["black"]}, {}, {"seat": "nope"}):
        r = api.post(f"/api/games/{gid}/review", json=body)
        assert r.status_code == 200, r.text
        seen.append(r.json()["review"])
    assert all(s == seen[0] for s in seen)
    # a game that is not there
    assert api.post("/api/games/nothing/review", json={}).status_code == 404


def test_the_review_stands_behind_the_doors(api: TestClient) -> None:
    game = made(api, seed=4, set={"ladder.doubling": False})
    play_to_the_end(api, game)
    url = f"/api/games/{game['id']}/review"
    r = api.post(url, json={}, headers={"host": "evil.example:8000"})
    assert r.status_code == 421
    r = api.post(url, json={}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = api.post(url, content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = api.post(url, content=b"x" * 1_000_100, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert api.get(url).status_code == 405
    assert api.post(url, json={}).status_code == 200


# -- a dead cube on the web board ---------------------------------------------------------------

def test_a_person_whose_cube_is_dead_is_not_asked_to_double_and_told_why_once(
        api: TestClient) -> None:
    """A match to 3: White doubles, Black takes and redoubles to 4, White takes. White, 3
    away with the cube at 4, would only raise what Black wins by doubling: he throws at once,
    told why at his first such throw, and never asked again."""
    game = made(api, seed=5, set={"ladder.match_length": 3})
    gid, seats = game["id"], game["seats"]
    state = game["state"]
    doubled = {"white": False, "black": False}
    asked: list[tuple[str, str]] = []
    notes: list[dict] = []
    for _ in range(80):
        if state["finished"]:
            break
        if state["cube_note"] and state["cube_note"] not in notes:
            notes.append(state["cube_note"])
        q = state["question"]
        asked.append((q["player"], q["decision"]))
        if q["decision"] == "double":
            a = "double" if not doubled[q["player"]] else "roll"
            doubled[q["player"]] = True
        else:
            a = "take" if q["decision"] == "take" else q["choices"][0]
        state = answer(api, gid, {"answer": a, "seat": seats[q["player"]]})
        if len(notes) and asked.count(("white", "play")) > 6:
            break
    assert notes == [{"side": "white", "text": "no cube offered to white: 3 points away with "
                                               "the cube at 4: any game won wins the match"}]
    after = asked.index(("white", "take"))
    assert ("white", "double") not in asked[after:]
    # the game's log has White's throws all the same
    assert asked[after:].count(("white", "play")) >= 2
