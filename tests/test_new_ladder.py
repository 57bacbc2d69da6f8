"""A new ladder is one module plus its line in the registry (docs/architecture.md, "Adding a
ladder"): the page's worked example is run as printed, below.

Before it, a fuller module is written here as a class pair, as a file under interpreter/scoring/
would hold it:
`FirstToLadder` validates the `[ladder]` table, `FirstToPlay` plays it in the turn loop and
answers what the rest of the program asks of a ladder. The registry line is added at run time.
Then a variant file names it, a game of it is played through the turn loop, and the terminal,
the log, `simulate`/`compare` and the bots' utility are asked about it.
"""
from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from interpreter.errors import VariantError
from interpreter.runner import game_line, play_game
from interpreter.scoring.protocol import END, Ladder, Next, Worth, pair_text, pair_words, side_view
from interpreter.scoring.registry import LADDERS, ladder_class


# -- the module: interpreter/scoring/first_to.py, as it would be written ----------------------

class FirstToLadder(BaseModel):
    """Games played one after the other, each worth its value rules, until a side has
    `target` points."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["first-to"] = Field("first-to", description="games to `target` points")
    target: int = Field(3, ge=1, le=99, description="the points that win the play")


class FirstToPlay(Ladder):
    learns_values = False

    @classmethod
    def bot_unit(cls, match_length: int = 0) -> str:
        return "match-winning chances (2 MWC - 1)"

    @classmethod
    def worth(cls, state: dict) -> Worth:
        n = int(state["target"])
        score = state["points"]
        return Worth(match={"match_length": n, "away": {"me": n - int(score["me"]),
                                                        "opponent": n - int(score["opponent"])}})

    @classmethod
    def net(cls, winner: int | None, points: Any, value: int, side: int) -> float:
        return float(points[side] - points[1 - side])

    @classmethod
    def state_lines(cls, state: dict, names: tuple[str, str]) -> list[str]:
        return [f"first to {state['target']}: {pair_words(state, 'points', names)}"]

    @classmethod
    def sides_text(cls, state: dict) -> str:
        return f"points {pair_text(state, 'points')} of {state['target']}"

    @classmethod
    def summary_line(cls, summary: dict) -> str | None:
        score = summary.get("score", {})
        return f"first to points: white {score.get('white')}, black {score.get('black')}"

    def __init__(self, model: FirstToLadder, game: Any):
        super().__init__(model, game)
        self.games = 0

    def game_end(self, winner: int, k: int) -> Next:
        self.games += 1
        self.points[winner] += k
        if self.points[winner] >= self.model.target:
            self.winner, self.value = winner, k
            return END
        return Next("game", start="opening")

    def state(self, player: int) -> dict[str, Any]:
        return {"kind": "first-to", "target": self.model.target,
                "points": side_view(self.points, player)}

    def sides(self) -> dict[str, Any]:
        return {"points": list(self.points), "target": self.model.target}

    def figures(self) -> dict[str, Any]:
        return {"games": self.games}


# -- a variant file that names it -----------------------------------------------------------------

FIRST_TO = """
extends = "plakoto"
[variant]
id = "plakoto-first-to"
name = "Plakoto, first to 3"
[ladder]
kind = "first-to"
target = 3
"""


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    # the registry line: interpreter/scoring/registry.py's LADDERS gains one entry
    monkeypatch.setitem(LADDERS, "first-to", (FirstToLadder, FirstToPlay))


def _variant(tmp_path: Path, text: str = FIRST_TO) -> Any:
    from interpreter.variant.build import load_variant

    path = tmp_path / "plakoto-first-to.toml"
    path.write_text(text, encoding="utf-8")
    return load_variant(str(path))


def test_without_its_registry_line_the_kind_is_unknown(tmp_path: Path):
    with pytest.raises(VariantError) as err:
        _variant(tmp_path)
    assert "first-to" in str(err.value)


def test_its_table_is_checked_by_its_own_model(tmp_path: Path, registered: None):
    with pytest.raises(VariantError) as err:
        _variant(tmp_path, FIRST_TO.replace("target = 3", "target = 0"))
    assert "target" in str(err.value)


def test_a_game_of_it_is_played_through_the_turn_loop(tmp_path: Path, registered: None):
    variant = _variant(tmp_path)
    assert ladder_class(variant.ladder) is FirstToPlay
    result = play_game(variant, 7, 0)
    assert result.finished
    assert result.winner is not None
    won, lost = result.points[result.winner], result.points[1 - result.winner]
    assert won >= 3 > lost
    # the line `simulate --games-out` and `compare` read: the ladder's figures and its score
    line = game_line(0, 7, result)
    assert line["finished"] and line["winner"] in ("white", "black")
    assert line["won"] == {"white": result.points[0], "black": result.points[1]}
    assert line["games"] >= 2          # plakoto's games are worth 1 or 2: more than one game


def test_the_terminal_the_log_and_compare_ask_it(tmp_path: Path, registered: None):
    from interpreter.players.utility import of_result, unit_of
    from interpreter.render import ladder_text, render_game
    from interpreter.sim import net_of, points_unit
    from interpreter.terminal import ladder_lines

    variant = _variant(tmp_path)
    result = play_game(variant, 7, 0)
    w = result.winner
    assert w is not None
    state = {"kind": "first-to", "target": 3, "points": side_view(result.points, w)}
    assert ladder_lines(state, ("you", "him")) == [
        f"first to 3: you {result.points[w]}, him {result.points[1 - w]}"]
    assert ladder_text("first-to", {"points": list(result.points), "target": 3}) == \
        f"points {result.points[0]}-{result.points[1]} of 3"
    # compare's and simulate's net result, in the ladder's unit
    assert net_of("first-to", w, result.points, result.value, w) == \
        result.points[w] - result.points[1 - w] > 0
    assert points_unit(variant) == "points"
    # the bots weigh the play as a match to 3
    assert unit_of(state) == "match-winning chances (2 MWC - 1)"
    assert of_result(result, w, state) == 1.0
    summary = result.summary(variant.id)
    text = render_game(variant, result, {**summary, "seed": 7, "white": "random",
                                         "black": "random"})
    assert (f"first to points: white {summary['score']['white']}, black "
            f"{summary['score']['black']}") in text


# -- docs/architecture.md's worked example, as printed ---------------------------------------------

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def _worked_example() -> tuple[str, str, str, str, str]:
    """The section's module, its line in LADDERS, the import of its classes, the variant file
    and that file's name, as the page prints them."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("### Adding a ladder")[1].split("\n### ")[0]
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    toml = re.findall(r"```toml\n(.*?)```", section, re.S)
    assert len(python) == 3 and len(toml) == 1
    module, entry, import_line = python
    name = re.match(r"# ([\w.-]+\.toml)", toml[0])
    assert name is not None
    return module, entry.strip(), import_line.strip(), toml[0], name.group(1)


@pytest.fixture
def as_printed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The module in place as interpreter/scoring/first_to.py, the registry's import and line
    run in the registry's namespace, the variant file written: its path."""
    from interpreter.scoring import registry

    module_text, entry, import_line, toml, name = _worked_example()
    module = types.ModuleType("interpreter.scoring.first_to")
    module.__file__ = str(tmp_path / "first_to.py")
    exec(compile(module_text, module.__file__, "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace = dict(vars(registry))
    exec(import_line, namespace)
    for kind, classes in eval("{" + entry + "\n}", namespace).items():
        monkeypatch.setitem(LADDERS, kind, classes)
    path = tmp_path / name
    path.write_text(toml, encoding="utf-8")
    return path


def test_adding_a_ladder_worked_example_runs_as_printed(as_printed: Path, capsys) -> None:
    from interpreter.cli import main
    from interpreter.terminal import ladder_lines
    from interpreter.variant.build import load_variant

    assert main(["validate", str(as_printed)]) == 0
    variant = load_variant(str(as_printed))
    assert type(variant.new_ladder(None)).__name__ == "FirstToPlay"
    result = play_game(variant, 3, 0)
    assert result.finished and result.winner is not None
    assert result.points[result.winner] >= 5 > result.points[1 - result.winner]
    state = variant.new_ladder(None).state(0)
    assert ladder_lines(state) == ["first to 5: you 0, opponent 0"]
    capsys.readouterr()
    assert main(["play", str(as_printed), "--seed", "3"]) == 0
    assert "wins" in capsys.readouterr().out
    assert main(["simulate", str(as_printed), "--games", "4", "--jobs", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4 and summary["points_unit"] == "points"


def test_adding_a_ladder_worked_example_checks_its_table(as_printed: Path, capsys) -> None:
    from interpreter.cli import main

    text = as_printed.read_text(encoding="utf-8")
    line = text.splitlines().index("target = 5") + 1
    as_printed.write_text(text.replace("target = 5", "target = 0"), encoding="utf-8")
    assert main(["validate", str(as_printed)]) == 1
    assert f"{as_printed.name}:{line}:" in capsys.readouterr().err
