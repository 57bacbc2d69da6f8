"""What a run of `simulate` and `compare` records of itself (docs/compare.md, "Provenance"): the
Tablier version, each arm's rules fingerprint, its players and the sha256 of their weights, in
the JSON, in the first line of each `--games-out` file and in the CSV; the CSV holds every key
of the JSON's figures; readers of the lines skip the header."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

import interpreter
from interpreter.cli import main
from interpreter.compare import provenance
from interpreter.compare.report import CSV_HEADER, render_csv
from interpreter.compare.tally import tally_lines
from interpreter.errors import TablierError
from interpreter.players.learned import shipped_weights
from interpreter.variant.build import load_variant
from interpreter.variant.fingerprint import rules_fingerprint

HEADER_KEYS = {"header", "version", "arm", "variant", "options", "rules_fingerprint",
               "players", "weights_sha256", "seeds", "replicates", "paired"}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _compare(capsys, args: list[str]) -> dict:
    assert main(["compare", *args, "--json", "--jobs", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def _read(path: str | Path) -> list[dict]:
    return [json.loads(x) for x in Path(path).read_text().splitlines()]


def test_compare_records_version_fingerprints_players_and_weights(capsys, tmp_path) -> None:
    out = _compare(capsys, ["backgammon", "backgammon", "--set", "2:ladder.jacoby=true",
                            "--games", "3", "--white", "greedy", "--games-out",
                            str(tmp_path / "g")])
    assert out["version"] == interpreter.__version__ and list(out)[0] == "version"
    plain, jacoby = out["arms"]
    assert plain["rules_fingerprint"] == rules_fingerprint(load_variant("backgammon"))
    assert jacoby["rules_fingerprint"] == \
        rules_fingerprint(load_variant("backgammon", ["ladder.jacoby=true"]))
    assert plain["rules_fingerprint"] != jacoby["rules_fingerprint"]
    for arm in out["arms"]:
        assert arm["players"] == {"white": "greedy", "black": "random"}
        assert arm["weights_sha256"] == {"white": None, "black": None}
        header, *games = _read(arm["games_out"])
        # the first line of the arm's file says what its games are
        assert set(header) == HEADER_KEYS and header["header"] is True
        assert "game" not in header
        assert header["version"] == out["version"]
        assert header["arm"] == arm["label"] and header["variant"] == "backgammon"
        assert header["options"] == arm["options"]
        assert header["rules_fingerprint"] == arm["rules_fingerprint"]
        assert header["players"] == arm["players"]
        assert header["weights_sha256"] == arm["weights_sha256"]
        assert header["replicates"] == 1 and header["paired"] is False
        assert [g["game"] for g in games] == [0, 1, 2]
        # replicate r of the arm is `simulate --seed seeds[r]`: the games' own seeds say so
        assert all(g["seed"] == f"{header['seeds'][0]}/{g['game']}" for g in games)
    assert _read(plain["games_out"])[0]["seeds"] == [1]
    assert _read(jacoby["games_out"])[0]["seeds"] == [2]


def test_paired_headers_share_the_seed(capsys, tmp_path) -> None:
    out = _compare(capsys, ["triktrak", "triktrak", "--set", "2:ladder.holes_to_win=2",
                            "--set", "1:ladder.holes_to_win=1", "--paired", "--games", "2",
                            "--seed", "7", "--games-out", str(tmp_path / "p")])
    heads = [_read(a["games_out"])[0] for a in out["arms"]]
    assert [h["seeds"] for h in heads] == [[7], [7]]
    assert all(h["paired"] is True for h in heads)
    assert [h["options"] for h in heads] == [a["options"] for a in out["arms"]] == \
        [["ladder.holes_to_win=1"], ["ladder.holes_to_win=2"]]
    assert heads[0]["rules_fingerprint"] != heads[1]["rules_fingerprint"]


def test_simulate_records_the_same_at_its_top_level(capsys, tmp_path) -> None:
    lines = tmp_path / "s.jsonl"
    assert main(["simulate", "triktrak", "--games", "2", "--seed", "4", "--json", "--jobs", "1",
                 "--set", "ladder.holes_to_win=2", "--games-out", str(lines)]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["version"] == interpreter.__version__
    assert s["rules_fingerprint"] == \
        rules_fingerprint(load_variant("triktrak", ["ladder.holes_to_win=2"]))
    assert s["players"] == {"white": "random", "black": "random"}
    assert s["weights_sha256"] == {"white": None, "black": None}
    header, *games = _read(lines)
    assert set(header) == HEADER_KEYS
    assert header["rules_fingerprint"] == s["rules_fingerprint"]
    assert header["options"] == ["ladder.holes_to_win=2"] and header["seeds"] == [4]
    assert len(games) == 2


def test_the_header_is_the_same_from_any_folder(capsys, tmp_path, monkeypatch) -> None:
    """No time, no host, no absolute path: the same run from two folders writes the same
    file, a variant file given by its path included."""
    text = Path(load_variant("hypergammon").path).read_text(encoding="utf-8")
    written = []
    for where in ("one", "two"):
        folder = tmp_path / where
        (folder / "v").mkdir(parents=True)
        (folder / "v" / "h.toml").write_text(text, encoding="utf-8")
        monkeypatch.chdir(folder)
        assert main(["simulate", "v/h.toml", "--games", "2", "--jobs", "1",
                     "--games-out", "g.jsonl"]) == 0
        written.append((folder / "g.jsonl").read_text())
    capsys.readouterr()
    assert written[0] == written[1]
    assert json.loads(written[0].splitlines()[0])["variant"] == "hypergammon"


def test_weights_sha256_is_that_of_the_file_the_player_reads(tmp_path) -> None:
    hyper = load_variant("hypergammon")
    shipped = shipped_weights("hypergammon")
    assert shipped is not None
    for kind in ("learned", "search:2:learned", "rollout:8:learned"):
        assert provenance.weights_sha256(kind, hyper) == _sha(shipped)
    mine = tmp_path / "mine.npz"
    shutil.copyfile(shipped, mine)
    with mine.open("ab") as fh:
        fh.write(b"\0")                    # another file: another digest
    for kind in (f"learned:{mine}", f"search:1:learned:{mine}"):
        assert provenance.weights_sha256(kind, hyper) == _sha(mine) != _sha(shipped)
    for kind in ("random", "greedy", "search:2", "rollout:8", "gnubg"):
        assert provenance.weights_sha256(kind, hyper) is None
    arm = provenance.arm_provenance(hyper, {"white": "learned", "black": "greedy"})
    assert arm == {"rules_fingerprint": rules_fingerprint(hyper),
                   "players": {"white": "learned", "black": "greedy"},
                   "weights_sha256": {"white": _sha(shipped), "black": None}}


def test_a_weights_file_gone_during_a_run_keeps_the_digest_it_had(tmp_path) -> None:
    """The players read their weights when the run begins; the file may go before its end."""
    hyper = load_variant("hypergammon")
    shipped = shipped_weights("hypergammon")
    assert shipped is not None
    mine = tmp_path / "gone.npz"
    shutil.copyfile(shipped, mine)
    before = provenance.weights_sha256(f"learned:{mine}", hyper)
    mine.unlink()
    assert provenance.weights_sha256(f"learned:{mine}", hyper) == before == _sha(shipped)
    with pytest.raises(TablierError, match="cannot read the weights file"):
        provenance.weights_sha256(f"learned:{tmp_path / 'never.npz'}", hyper)


def test_a_rotation_played_by_its_games_networks_records_one_digest_of_them() -> None:
    tavli = load_variant("tavli")
    files = [shipped_weights(g.id) for g in tavli.games]
    assert all(f is not None for f in files) and len(set(files)) == 3
    listing = "".join(f"{_sha(f)}  {f.name}\n" for f in files)
    assert provenance.weights_sha256("learned", tavli) == \
        hashlib.sha256(listing.encode()).hexdigest()


def test_readers_of_the_lines_skip_the_header(capsys, tmp_path) -> None:
    out = _compare(capsys, ["backgammon", "nackgammon", "--games", "4", "--seed", "3",
                            "--games-out", str(tmp_path / "r")])
    for arm in out["arms"]:
        lines = _read(arm["games_out"])
        assert "game" not in lines[0]
        header, games = provenance.read_games_out(arm["games_out"])
        assert header == lines[0] and games == lines[1:]
        assert list(provenance.game_lines(lines)) == lines[1:]
        # the figures read back from the whole file, header and all, are the run's
        t = tally_lines(lines)
        assert t.games == arm["games"] == 4
        assert t.figures()[0].name == "first_player_win_rate"


# -- the CSV ------------------------------------------------------------------------------------

def _number(cell: str) -> float | None:
    return None if cell == "" else float(cell)


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _figures_of(obj: dict, prefix: str = ""):
    """(name, figure object) of every figure of an arm (an object with an interval)."""
    for key, value in obj.items():
        if isinstance(value, dict) and "ci" in value and ("value" in value or "mean" in value):
            yield prefix + key, value
        elif isinstance(value, dict):
            yield from _figures_of(value, f"{prefix}{key}.")


#: a figure's keys the CSV writes in other columns
MAPPED = {"ci": ("lo", "hi"), "mean": ("value",), "difference": ("value",),
          "arm": ("arm_b",)}


def _columns_for(key: str, value) -> tuple[str, ...]:
    if key in MAPPED:
        return MAPPED[key]
    if isinstance(value, dict):
        return tuple(f"{key}_{sub}" for sub in value)
    return (key,)


def test_csv_has_every_key_of_every_figure(capsys, tmp_path) -> None:
    path = tmp_path / "out.csv"
    out = _compare(capsys, ["triktrak", "backgammon", "--games", "6", "--seed", "2",
                            "--csv", str(path)])
    rows = _csv_rows(path.read_text())
    columns = list(rows[0])
    assert tuple(columns[:len(CSV_HEADER)]) == CSV_HEADER
    by = {(r["section"], r["arm"], r["figure"]): r for r in rows}
    checked = 0
    for arm in out["arms"]:
        for name, fig in _figures_of(arm):
            row = by[("figure", arm["label"], name)]
            for key, value in fig.items():
                for column in _columns_for(key, value):
                    assert column in columns, (name, key)
                if key == "ci":
                    assert [float(row["lo"]), float(row["hi"])] == value
                elif key in ("value", "mean"):
                    assert float(row["value"]) == value
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    assert float(row[key]) == value, (name, key)
                elif isinstance(value, str):
                    assert row[key] == value
                checked += 1
        # a rule's share and its interval are a figure too
        for rule, r in arm["rules"].items():
            if r["share"] is not None:
                row = by[("figure", arm["label"], f"rules.{rule}.share")]
                assert float(row["value"]) == r["share"]
                assert [float(row["lo"]), float(row["hi"])] == r["share_ci"]
    assert checked > 100
    # the first player's p and adjusted p, on the figure's own row
    for arm in out["arms"]:
        fp = arm["first_player_win_rate"]
        row = by[("figure", arm["label"], "first_player_win_rate")]
        assert float(row["p"]) == float(row["p_value"]) == fp["p_value"]
        assert float(row["p_adjusted"]) == fp["p_adjusted"]
        assert row["title"].startswith("the first to throw wins")
        assert row["players"] == "random/random"
    # every key of every difference
    diffs = [r for r in rows if r["section"] == "difference"]
    assert len(diffs) == len(out["differences"])
    for d, row in zip(out["differences"], diffs):
        assert row["arm"] == f"{d['b']} − {d['a']}" and row["figure"] == d["figure"]
        for key, value in d.items():
            for column in _columns_for(key, value):
                assert column in columns, key
        assert _number(row["value"]) == d["difference"]
        assert _number(row["p_adjusted"]) == d.get("p_adjusted")


def test_csv_holds_the_provenance(capsys, tmp_path) -> None:
    path = tmp_path / "out.csv"
    out = _compare(capsys, ["backgammon", "nackgammon", "--games", "2", "--csv", str(path)])
    by = {(r["section"], r["arm"], r["figure"]): r["value"] for r in _csv_rows(path.read_text())}
    assert by[("run", "", "version")] == interpreter.__version__
    assert by[("run", "", "seed")] == "1" and by[("run", "", "tests")] == str(out["tests"])
    for arm in out["arms"]:
        label = arm["label"]
        assert by[("arm", label, "rules_fingerprint")] == arm["rules_fingerprint"]
        assert by[("arm", label, "players.white")] == "random"
        assert by[("arm", label, "weights_sha256.white")] == ""     # no network: null
        assert by[("arm", label, "variant")] == arm["variant"]
        assert by[("arm", label, "decided")] == str(arm["decided"])


def test_csv_writes_what_the_json_gains_replicates_and_omnibus_tests() -> None:
    """The CSV is written from the JSON object alone: a figure's replicates become rows of
    their own, numbered in `replicate`; a nested object (the test of homogeneity) becomes
    columns; an omnibus test is a row naming its arms."""
    fig = {"value": 0.5, "ci": [0.4, 0.6], "k": 10, "n": 20, "method": "wilson",
           "games_needed": 9600, "p_value": 0.9, "p_adjusted": 1.0, "test": "t",
           "replicates": [{"seed": 1, "value": 0.4, "ci": [0.2, 0.6], "n": 10},
                          {"seed": 2, "value": 0.6, "ci": [0.4, 0.8], "n": 10}],
           "homogeneity": {"test": "chi-square", "statistic": 0.8, "df": 1, "p_value": 0.37}}
    result = {"version": "9", "seed": 1, "seeds": [1, 2], "replicates": 2,
              "families": {"proportion": {"tests": 3, "adjustment": "Holm"}},
              "pairs": [["A", "B"]],
              "arms": [{"label": "A", "players": {"white": "random", "black": "greedy"},
                        "first_player_win_rate": fig, "unit": "points",
                        "rules": {"hit": {"share": 0.3, "share_ci": [0.2, 0.4],
                                          "share_replicates": fig["replicates"],
                                          "share_homogeneity": fig["homogeneity"],
                                          "fired": {"white": 4, "black": 5}, "points": 9}}}],
              "differences": [{"figure": "length_throws", "a": "A", "b": "B", "arm": 1,
                               "difference": 3.0, "ci": None, "p_value": None,
                               "p_adjusted": None, "family": "throws", "tested": False,
                               "why": "units differ: points against jetons"}],
              "omnibus": [{"figure": "first_player_win_rate", "title": "first", "family":
                           "proportion", "test": "chi-square", "statistic": 2.5, "df": 2,
                           "p_value": 0.29, "p_adjusted": 0.5, "arms": ["A", "B", "C"]}]}
    rows = _csv_rows(render_csv(result))
    main_row = next(r for r in rows if r["section"] == "figure")
    assert main_row["homogeneity_test"] == "chi-square"
    assert float(main_row["homogeneity_p_value"]) == 0.37
    assert main_row["replicate"] == "" and main_row["players"] == "random/greedy"
    reps = [r for r in rows if r["section"] == "replicate" and r["figure"] == main_row["figure"]]
    assert [(r["replicate"], r["seed"], r["value"], r["lo"], r["hi"], r["n"]) for r in reps] == \
        [("0", "1", "0.4", "0.2", "0.6", "10"), ("1", "2", "0.6", "0.4", "0.8", "10")]
    assert all(r["arm"] == "A" and r["figure"] == "first_player_win_rate" for r in reps)
    # a rule's share, a number with its interval and the rest beside it, is a figure too
    share = next(r for r in rows if r["figure"] == "rules.hit.share")
    assert (share["section"], share["value"], share["lo"], share["hi"]) == \
        ("figure", "0.3", "0.2", "0.4")
    assert share["homogeneity_test"] == "chi-square"
    assert [r["replicate"] for r in rows
            if r["section"] == "replicate" and r["figure"] == "rules.hit.share"] == ["0", "1"]
    info = {r["figure"]: r["value"] for r in rows if r["section"] == "arm"}
    assert info["rules.hit.fired.black"] == "5" and info["rules.hit.points"] == "9"
    assert not any("share_" in r["figure"] for r in rows)
    run = {r["figure"]: r["value"] for r in rows if r["section"] == "run"}
    assert run["seeds"] == "1 2" and run["replicates"] == "2"
    assert run["families.proportion.tests"] == "3" and json.loads(run["pairs"]) == [["A", "B"]]
    diff = next(r for r in rows if r["section"] == "difference")
    assert diff["tested"] == "false" and diff["why"].startswith("units differ")
    assert diff["p_value"] == diff["p_adjusted"] == "" and diff["arm_b"] == "1"
    omni = next(r for r in rows if r["section"] == "omnibus")
    assert omni["arm"] == "A | B | C" and omni["statistic"] == "2.5" and omni["df"] == "2"
    assert float(omni["p"]) == 0.29


# -- the saved game's number --------------------------------------------------------------------

@pytest.mark.parametrize("index, message", [(-1, "from 0"), (10_000_000, "from 0"),
                                            ("3", "found \"3\""), (True, "found true")])
def test_a_saved_games_number_is_checked(tmp_path, index, message) -> None:
    from interpreter.io import save

    path = tmp_path / "g.toml"
    assert main(["play", "backgammon", "--seed", "2", "--max-turns", "3", "--save",
                 str(path)]) == 0
    data, record = save.read_save(path)
    assert record.index == 0 and "index" not in data["game"]   # game 0: not written
    data["game"]["index"] = index
    with pytest.raises(save.SaveError, match="game.index") as err:
        save.save_record(data)
    assert message in str(err.value)


def test_tablier_version_is_the_version_outputs_record(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"tablier {provenance.VERSION}"
