"""The Dutch Triktrak against the reference files in tests/data:
for every line, `tablier score` gives the same points to the mover and to the opponent and
`tablier moves` the same number of distinct final positions (must fill and must conserve
applied). The in-process functions are the ones the two commands print.

trictrac-rolls.jsonl: 1,000 positions of random play; trictrac-rolls-hard.jsonl: 1,500 positions
random play rarely reaches (jans short of full or full, opening jans, bearing off).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from budget import full
from interpreter.analysis import legal_results, roll_score
from interpreter.variant.build import load_variant

DATA = Path(__file__).parent / "data"
FILES = {"trictrac-rolls.jsonl": 1000, "trictrac-rolls-hard.jsonl": 1500}


def lines(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def triktrak():
    return load_variant("triktrak")


@pytest.mark.parametrize("name", sorted(FILES))
def test_oracle_file_agrees(triktrak, name: str) -> None:
    rows = lines(name)
    assert len(rows) == FILES[name]
    wrong = []
    for row in rows:
        pos = row["position"]
        got = roll_score(triktrak, pos)
        count = legal_results(triktrak, pos)["count"]
        if ((got["mover"], got["opponent"], count)
                != (row["mover"], row["opponent"], row["count"])):
            wrong.append(f"{pos.get('id')}: points {got['mover']}/{got['opponent']}, "
                         f"{count} plays; expected {row['mover']}/{row['opponent']}, "
                         f"{row['count']} plays")
    assert not wrong, f"{len(wrong)} of {len(rows)} lines differ:\n" + "\n".join(wrong[:20])


def test_oracle_points_are_even_and_items_add_up(triktrak) -> None:
    """Every roll of the files scores even points (§4.2), and our items add up to the totals
    (every fifth line in the default run, all of them in a full one)."""
    for name in FILES:
        for row in lines(name)[::1 if full() else 5]:
            got = roll_score(triktrak, row["position"])
            assert got["mover"] % 2 == 0 and got["opponent"] % 2 == 0
            for side in ("mover", "opponent"):
                assert got[side] == sum(i["points"] for i in got["items"] if i["to"] == side)
