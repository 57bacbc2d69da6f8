"""The JSON API of `tablier serve` (interpreter/web/), through starlette's TestClient: games of
every shipped variant played to their end with plays in notation, refused answers and bodies,
saves resumed, bots playing one turn a request, and the score sheet agreeing with `tablier
sheet --json`. (What the server refuses at its doors: tests/test_web_doors.py.)"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter.cli import _ladder_for  # noqa: E402
from interpreter.io.sheet import sheet_data  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHEETS = sorted((ROOT / "tests" / "data" / "sheets").glob("*.toml"))

#: each shipped variant, shortened where a whole partie would take long (a game of the cube
#: ladder is one game; the others: the fewest marks, holes or games their ladder allows)
SHORT = {
    "backgammon": {},
    "hypergammon": {},
    "nackgammon": {},
    "triktrak": {"ladder.holes_to_win": 2},
    "trictrac-ecrire": {"ladder.min_marks": 4, "ladder.marks": 4},
    "trictrac-combine": {"ladder.min_marks": 4, "ladder.marks": 4},
    "tric-trac-12": {"ladder.match_games": 1},
    "long-nardy": {},
    "plakoto": {},
    "fevga": {},
    "portes": {},
    "acey-deucey": {},
    "tavli": {"match_points": 3},
    "gul-bara": {},
    "tapa": {},
    "jacquet": {},
    "tabla": {},
    "tabla-match": {"match_points": 3},
    "tourne-case": {},
    "tabula": {},
    "emperador": {},
    "medio-emperador": {},
    "seys-dos-e-as": {},
    "doze-canes": {"dc_blocked": "draw"},
    "cab-e-quinal": {},
    "laquet": {},
    "todas-tablas": {},
    "fallas": {},
    "quinze-tablas": {},
    "verquere": {},
    "buffa-de-baldrac": {},
    "pareia-de-entrada": {},
    "tavla": {},
    "doblet": {},
    "xii-scripta": {},
}


BASE = "http://127.0.0.1:8000"


class MakersClient(TestClient):
    """A client that plays as the page that made each game: a game of two people is answered
    with both its seats (the `X-Tablier-Seat` header), as that page does. (What a request
    without a seat may do: tests/test_web_seats.py.)"""

    seats: dict[str, str]

    def request(self, method, url, **kw):  # type: ignore[override]
        m = re.match(r"/api/games/([^/?]+)", str(url))
        if m and m.group(1) in self.seats:
            kw["headers"] = {"x-tablier-seat": self.seats[m.group(1)], **(kw.get("headers")
                                                                          or {})}
        r = super().request(method, url, **kw)
        if method == "POST" and str(url) == "/api/games" and r.status_code == 200 and \
                "seats" in r.json():
            self.seats[r.json()["id"]] = ",".join(r.json()["seats"].values())
        return r


def make_client(**kw) -> TestClient:
    # a loaded test machine is slower than a person's: these tests are about the answers, the
    # request's time (10 s by default) is tested in test_web_doors.py
    kw.setdefault("request_seconds", 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = MakersClient(create_app(**kw), base_url=BASE)
    c.seats = {}
    return c


@pytest.fixture(scope="module")
def client() -> TestClient:
    return make_client()


@pytest.fixture
def house(tmp_path: Path) -> tuple[TestClient, Path]:
    """A server whose `--variants` folder is `tmp_path`."""
    return make_client(variants=tmp_path), tmp_path


def poll(client: TestClient, gid: str, limit: int = 5000) -> tuple[dict, int]:
    """The state once no bot is to move, asked again as the page does; and how many times."""
    n = 0
    while True:
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.json()
        state = r.json()["state"]
        n += 1
        if not state["bot_to_move"]:
            return state, n
        assert n < limit


def new(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json()
    return r.json()


def shipped() -> list[str]:
    return sorted(p.stem for p in (ROOT / "variants").glob("*.toml") if p.stem != "trictrac")


def test_every_shipped_variant_is_covered() -> None:
    assert set(shipped()) == set(SHORT)


#: the variants whose whole games through the API take longest (acey-deucey's: every checker
#: enters first; the parties and matches of several games), played under the slow marker
LONG_GAMES = {"acey-deucey", "trictrac-combine", "trictrac-ecrire", "tavli", "tabla-match",
              "buffa-de-baldrac", "quinze-tablas", "pareia-de-entrada", "doblet",
              "xii-scripta"}


@pytest.mark.parametrize("variant", [
    pytest.param(v, marks=pytest.mark.slow) if v in LONG_GAMES else v for v in sorted(SHORT)])
def test_a_whole_game_of_each_variant_with_plays_in_notation(client: TestClient,
                                                             variant: str) -> None:
    rng = random.Random(variant)
    made = new(client, variant=variant, white="human", black="human", seed=5,
               set=SHORT[variant])
    gid, state = made["id"], made["state"]
    assert state["variant"] == variant and set(state) >= {
        "position", "on_roll", "dice", "question", "score", "finished", "winner", "log"}
    answers = 0
    while state["question"] is not None:
        q = state["question"]
        assert state["on_roll"] in ("white", "black")
        if q["kind"] == "play":
            assert len(q["choices"]) == len(q["plays"]) > 1
            i = rng.randrange(len(q["choices"]))
            answer = q["choices"][i]
            # (`21u`: a pair unstacked, Doblet; on the 36 points of XII scripta, where 25 is
            # a point, the bar is a word too)
            words = r"in|bar" if variant == "xii-scripta" else r"in"
            assert all(re.fullmatch(rf"(?:{words}|[0-9]+u|[0-9/* ()-])+", c)
                       for c in q["choices"])
            if variant == "backgammon" and rng.random() < 0.5:
                # the same play typed from its steps, in another order
                path = rng.choice(q["plays"][i]["paths"])
                answer = " ".join(f"{a}/{b}" for a, b in reversed(path))
        else:
            answer = rng.choice(q["choices"])
        r = client.post(f"/api/games/{gid}/answer", json={"answer": answer})
        assert r.status_code == 200, (answer, r.json())
        state = r.json()
        answers += 1
        assert answers < 5000
    assert state["finished"] is True
    assert state["result"]["finished"] is True
    assert state["winner"] == state["result"]["winner"]
    assert client.get(f"/api/games/{gid}").json()["state"]["finished"] is True


def test_bots_answer_their_own_questions(client: TestClient) -> None:
    made = new(client, variant="triktrak", white="greedy", black="random", seed=2,
               set={"ladder.holes_to_win": 1})
    assert made["state"]["bot_to_move"] and not made["state"]["finished"]
    state, polls = poll(client, made["id"])
    assert state["question"] is None and state["finished"] and polls > 3
    made = new(client, variant="backgammon", white="human", black="greedy", seed=4)
    state = settled(client, made["id"], made["state"])
    assert state["question"]["player"] == "white" and not state["bot_to_move"]


def to_play(client: TestClient, made: dict) -> dict:
    """The state once the player on roll is asked his play (he rolls, never doubles)."""
    state = made["state"]
    while state["question"]["kind"] != "play":
        assert state["question"]["decision"] == "double"
        state = client.post(f"/api/games/{made['id']}/answer", json={"answer": "roll"}).json()
    return state


def settled(client: TestClient, gid: str, state: dict) -> dict:
    """`state`, or once a bot is to move, the state after its turns (as the page asks)."""
    return poll(client, gid)[0] if state["bot_to_move"] else state


def refused(client: TestClient, url: str, body, status: int = 400) -> str:
    r = client.post(url, content=body if isinstance(body, (str, bytes)) else json.dumps(body),
                    headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    return r.json()["error"]


def test_refused_answers_name_the_reason_and_play_nothing(client: TestClient) -> None:
    made = new(client, variant="backgammon", white="human", black="human", seed=11)
    gid = made["id"]
    before = to_play(client, made)
    url = f"/api/games/{gid}/answer"
    assert before["question"]["kind"] == "play"
    d1, d2 = before["dice"]
    assert "is not a legal play" in refused(client, url, {"answer": "24/1"})
    assert "unreadable play" in refused(client, url, {"answer": "hello"})
    assert "at most 200" in refused(client, url, {"answer": 7})
    assert "answer" in refused(client, url, {})
    assert "not a JSON object" in refused(client, url, "{nope")
    assert "nests" in refused(client, url, "[" * 100 + "]" * 100)
    assert "must be a JSON object" in refused(client, url, "[1]")
    assert "larger than" in refused(client, url, b"x" * (3 << 20), 413)
    after = client.get(f"/api/games/{gid}").json()["state"]
    assert after["position"] == before["position"] and after["log"] == before["log"]
    # a decision's word that is not one of its words
    made = new(client, variant="backgammon", white="human", black="human", seed=11)
    q = made["state"]["question"]
    if q["kind"] == "decision":
        msg = refused(client, f"/api/games/{made['id']}/answer", {"answer": "maybe"})
        assert "'maybe' is not an answer" in msg and "'roll'" in msg


def test_refused_games(client: TestClient, tmp_path: Path) -> None:
    url = "/api/games"
    assert "unknown variant 'chess'" in refused(client, url, {"variant": "chess"})
    assert "unknown variant '/etc/passwd'" in refused(client, url, {"variant": "/etc/passwd"})
    assert "unknown variant" in refused(client, url, {"variant": str(tmp_path / "none.toml")})
    assert "abstract" in refused(client, url, {"variant": "trictrac"})
    assert "unknown player kind" in refused(client, url, {"variant": "backgammon",
                                                          "white": "wizard"})
    assert "seed" in refused(client, url, {"variant": "backgammon", "seed": "x"})
    assert "digits" in refused(client, url, {"variant": "backgammon", "seed": 2**70})
    assert "dotted key" in refused(client, url, {"variant": "backgammon",
                                                 "set": {"a b": 1}})
    assert "nope" in refused(client, url, {"variant": "backgammon", "set": {"nope.x": 1}})
    assert "unknown key" in refused(client, url, {"variant": "backgammon", "colour": 1})
    assert "no game" in client.get("/api/games/nothing").json()["error"]
    assert client.get("/api/games/nothing").status_code == 404
    # a variant file of the served folder plays, named by its file name; never by its path
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "quick.toml").write_text('extends = "triktrak"\n[variant]\nid = "quick"\n'
                                       'name = "Quick"\n[ladder]\nholes_to_win = 1\n',
                                       encoding="utf-8")
    served = make_client(variants=folder)
    for name in ("quick.toml", "quick"):
        made = new(served, variant=name, white="random", black="random", seed=1)
        assert made["state"]["variant"] == "quick"
        assert poll(served, made["id"])[0]["finished"]
    assert "unknown variant" in refused(client, url, {"variant": "quick.toml"})
    assert "unknown variant" in refused(served, url, {"variant": str(folder / "quick.toml")})
    assert any(row["id"] == "quick.toml" for row in served.get("/api/variants").json())


def test_a_saved_game_resumes_as_the_uninterrupted_game(client: TestClient) -> None:
    rng = random.Random(3)

    def play(gid: str, state: dict, n: int) -> dict:
        for _ in range(n):
            q = state["question"]
            if q is None:
                break
            state = settled(client, gid, client.post(
                f"/api/games/{gid}/answer",
                json={"answer": q["choices"][rng.randrange(len(q["choices"]))]}).json())
        return state

    body = {"variant": "trictrac-ecrire", "white": "human", "black": "greedy", "seed": 8,
            "set": {"ladder.min_marks": 4, "ladder.marks": 4}}
    made = new(client, **body)
    state = play(made["id"], made["state"], 15)
    text = client.get(f"/api/games/{made['id']}/save").text
    assert "checksum" in text and "human" in text
    made_again = new(client, resume=text)
    resumed = settled(client, made_again["id"], made_again["state"])
    for key in ("position", "on_roll", "dice", "question", "score", "log", "turns"):
        assert resumed[key] == state[key], key
    # the same answers from here give the same game
    rng_a, rng_b = random.Random(9), random.Random(9)
    a, b = state, resumed
    for _ in range(40):
        if a["question"] is None:
            break
        pick = rng_a.randrange(len(a["question"]["choices"]))
        assert pick == rng_b.randrange(len(b["question"]["choices"]))
        a = settled(client, made["id"], client.post(
            f"/api/games/{made['id']}/answer",
            json={"answer": a["question"]["choices"][pick]}).json())
        b = settled(client, resumed["id"], client.post(
            f"/api/games/{resumed['id']}/answer",
            json={"answer": b["question"]["choices"][pick]}).json())
        assert a["log"] == b["log"] and a["position"] == b["position"]


def test_a_saved_game_of_a_variant_file_resumes(house) -> None:
    client, folder = house
    house = folder / "longer.toml"
    house.write_text('extends = "triktrak"\n[variant]\nid = "longer"\nname = "Longer"\n'
                     '[ladder]\nholes_to_win = 2\n', encoding="utf-8")
    made = new(client, variant="longer.toml", white="human", black="greedy", seed=4)
    gid, state = made["id"], made["state"]
    for _ in range(6):
        q = state["question"]
        client.post(f"/api/games/{gid}/answer", json={"answer": q["choices"][0]}).json()
        state, _ = poll(client, gid)
    text = client.get(f"/api/games/{gid}/save").text
    assert str(house.resolve()) in text
    made_again = new(client, resume=text)
    resumed = settled(client, made_again["id"], made_again["state"])
    assert resumed["variant"] == "longer"
    for key in ("position", "on_roll", "dice", "question", "score", "log", "turns"):
        assert resumed[key] == state[key], key
    house.write_text(house.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    msg = refused(client, "/api/games", {"resume": text})
    assert "longer.toml" in msg and "changed" in msg


def test_an_edited_save_is_refused_naming_the_fault(client: TestClient) -> None:
    made = new(client, variant="backgammon", white="human", black="greedy", seed=6)
    gid = made["id"]
    for _ in range(6):
        q = poll(client, gid)[0]["question"]
        client.post(f"/api/games/{gid}/answer", json={"answer": q["choices"][0]})
    text = client.get(f"/api/games/{gid}/save").text
    m = re.search(r'"(white|black) throws (\d)-(\d)"', text)
    die = str(int(m.group(2)) % 6 + 1)
    edited = text[:m.start(2)] + die + text[m.end(2):]
    msg = refused(client, "/api/games", {"resume": edited})
    assert "record entry" in msg and "the seed gives" in msg
    msg = refused(client, "/api/games", {"resume": text.replace("turns = ", "turns = 1", 1)})
    assert "state" in msg or "checksum" in msg
    assert "invalid TOML" in refused(client, "/api/games", {"resume": "a = "})
    assert "format" in refused(client, "/api/games", {"resume": "x = 1"})
    assert "alone" in refused(client, "/api/games", {"resume": text, "seed": 1})


def test_the_store_keeps_a_bounded_number_of_games() -> None:
    small = make_client(limit=2)
    ids = [new(small, variant="backgammon", white="human", black="human", seed=i)["id"]
           for i in range(3)]
    assert small.get(f"/api/games/{ids[0]}").status_code == 404
    assert all(small.get(f"/api/games/{i}").status_code == 200 for i in ids[1:])


def test_preview_shows_the_steps_entered(client: TestClient) -> None:
    made = new(client, variant="backgammon", white="human", black="human", seed=11)
    q = to_play(client, made)["question"]
    path = q["plays"][0]["paths"][0]
    r = client.post(f"/api/games/{made['id']}/preview", json={"steps": path[:1],
                                                              "targets": [3]})
    assert r.status_code == 200 and r.json()["svg"].startswith("<svg")
    assert "begins no legal play" in refused(client, f"/api/games/{made['id']}/preview",
                                             {"steps": [[1, 24]]})


def test_hint_names_a_legal_answer(client: TestClient) -> None:
    made = new(client, variant="triktrak", white="human", black="human", seed=2)
    r = client.post(f"/api/games/{made['id']}/hint", json={})
    q = r.json()["question"]
    assert q["hint"] in q["choices"]
    # the strongest bot's best, the second best and by how much the best is better
    detail = q["hint_detail"]
    assert detail["bot"].startswith("search:") and detail["second"] in q["choices"]
    assert detail["second"] != q["hint"] and detail["difference"] >= 0
    assert detail["second"] in detail["reason"]


def test_a_page_may_seat_the_search_player(client: TestClient) -> None:
    made = new(client, variant="backgammon", white="search:1", black="greedy", seed=2)
    state = made["state"]
    assert state["bot_to_move"] and state["turns"] <= 1
    state = client.get(f"/api/games/{made['id']}").json()["state"]
    assert state["turns"] >= 1 and state["players"]["white"] == "search:1"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=() if i % 4 == 0 else
                                               pytest.mark.slow)
                                  for i, p in enumerate(SHEETS)])
def test_api_sheets_agrees_with_tablier_sheet(client: TestClient, path: Path) -> None:
    want = sheet_data(path, _ladder_for)
    r = client.post("/api/sheets", json={"record": path.read_text(encoding="utf-8")})
    assert r.status_code == 200, r.json()
    assert r.json() == json.loads(json.dumps(want, ensure_ascii=False))


def test_api_sheets_refuses_a_forbidden_event(client: TestClient) -> None:
    record = ('variant = "trictrac-ecrire"\nplayers = ["Alice", "Bob"]\n'
              'events = ["Bob +1 on Alice", "Alice go"]\n')
    msg = refused(client, "/api/sheets", {"record": record})
    assert msg.startswith("event 1 'Alice go'")
    assert "unknown variant '/dev/zero'" in refused(client, "/api/sheets", {
        "record": 'variant = "/dev/zero"\nplayers = ["A", "B"]\n'})
    assert "invalid toml" in refused(client, "/api/sheets", {"record": "variant = "})
    assert "record" in refused(client, "/api/sheets", {"record": 5})


def test_the_sheet_view_keeps_the_record(client: TestClient) -> None:
    fields = {"variant": "triktrak", "players": ["Alice", "Bob"],
              "events": ["Alice +4", "Bob +2 on Alice", "Alice +10", "Alice go", "Bob +4"]}
    r = client.post("/api/sheets/view", json={"fields": fields})
    view = r.json()
    assert view["kind"] == "holes" and view["fields"]["events"] == fields["events"]
    assert view["form"] == "points"        # the page draws a game of holes by its sheet's form
    assert view["sheet"]["players"]["Alice"] == {"holes": 1, "points": 0, "bredouille": True}
    assert "Points sheet" in view["text"]
    again = client.post("/api/sheets/view", json={"record": view["toml"]}).json()
    assert again["sheet"] == view["sheet"]


def test_pages_are_served(client: TestClient) -> None:
    for url in ("/", "/sheet", "/static/game.js", "/static/style.css", "/favicon.ico"):
        assert client.get(url).status_code == 200, url
    made = new(client, variant="backgammon", white="human", black="greedy", seed=1)
    page = client.get(f"/game/{made['id']}").text
    assert made["id"] in page and "game.js" in page
    assert client.get("/game/none").status_code == 404
    assert client.get(f"/api/games/{made['id']}/board.svg").text.startswith("<svg")


def test_the_sheet_page_draws_each_variant_by_its_ladders_sheet_form() -> None:
    """The page chooses its buttons by the form of the sheet the ladder keeps (`Ladder.sheet`),
    never by the ladder's kind."""
    from interpreter.web.app import sheet_variants

    forms = {row["id"]: row["form"] for row in sheet_variants()}
    assert forms["triktrak"] == "points"
    assert forms["trictrac-ecrire"] == "marks"
    assert forms["trictrac-combine"] == "honours"
    assert "backgammon" not in forms
    script = (Path(__file__).resolve().parent.parent / "interpreter" / "web" / "static"
              / "sheet.js").read_text(encoding="utf-8")
    assert not any(f'"{kind}"' in script for kind in ("holes", "ecrire", "combine"))


def test_the_state_of_a_finished_match_says_who_won_it_and_the_score() -> None:
    from interpreter.variant.build import load_variant
    from interpreter.web.session import Session

    sets = ["ladder.match_length=3"]
    s = Session.new(load_variant("backgammon", sets), 3, ("greedy", "greedy"), sets)
    while s.bot_to_move:
        s.bot_turn()
    r = s.state()["result"]
    w, lose = r["winner"], ("black" if r["winner"] == "white" else "white")
    assert r["text"].startswith(f"{w} wins the match {r['score'][w]}-{r['score'][lose]} ")


def test_doblet_unstacks_through_the_board_and_its_text(client: TestClient) -> None:
    """A pair unstacked on the web board: the step from a point to itself previews the board
    with one stacked pair fewer (its doubled outline gone), and the play typed as `21u` is
    played."""
    made = new(client, variant="doblet", white="human", black="human", seed=3)
    gid, state = made["id"], made["state"]
    for _ in range(20):
        q = state["question"]
        if q["kind"] == "play" and any(path and path[0][0] == path[0][1]
                                       for play in q["plays"] for path in play["paths"]):
            break
        state = client.post(f"/api/games/{gid}/answer", json={"answer": q["choices"][0]}).json()
    else:
        pytest.fail("no play that unstacks in the first twenty questions")
    plays = state["question"]["plays"]
    step = next(path[0] for play in plays for path in play["paths"] if path)
    before = client.get(f"/api/games/{gid}/board.svg").text
    r = client.post(f"/api/games/{gid}/preview", json={"steps": [step]})
    assert r.status_code == 200, r.text
    assert r.json()["svg"].count('class="stacked"') == before.count('class="stacked"') - 1
    text = next(c for c in state["question"]["choices"] if c.endswith("u"))
    assert re.fullmatch(r"[0-9]+u( [0-9]+u)*", text)
    r = client.post(f"/api/games/{gid}/answer", json={"answer": text})
    assert r.status_code == 200, r.json()
