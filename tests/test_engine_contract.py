"""The engine's contracts: the import graph (the engine below players, io and the command line),
players judged by their capabilities and never by name, one registry of ladder kinds, the
decision contract (a generator yielding `Decision`s), plays written in pip notation that read
back to the one legal play, and the text log of a match with the cube."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.cli import main
from interpreter.engine.contract import Decision, IllegalAnswer
from interpreter.engine.events import Cubed, Thrown
from interpreter.engine.game import Game
from interpreter.engine.record import Record, replay
from interpreter.io.mat import read_mat
from interpreter.io.replay import replay as replay_mat
from interpreter.players.base import Player
from interpreter.players.bots import GreedyBot, RandomBot
from interpreter.scoring.protocol import Ladder
from interpreter.scoring.registry import LADDER_MODELS, LADDERS
from interpreter.sim import play_game
from interpreter.variant.build import load_variant

ROOT = Path(interpreter.__file__).parent
VARIANTS = ("backgammon", "hypergammon", "nackgammon", "triktrak", "trictrac-ecrire",
            "trictrac-combine", "tric-trac-12")


def _modules() -> dict[str, ast.Module]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
            for p in ROOT.rglob("*.py")}


def _imports(tree: ast.Module) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_engine_imports_no_players_io_or_command_line() -> None:
    """Every import of every module of engine/, at the top or inside a function."""
    banned = ("interpreter.players", "interpreter.io", "interpreter.cli")
    bad = [(name, imp) for name, tree in _modules().items() if name.startswith("engine/")
           for imp in _imports(tree) if imp.startswith(banned)]
    assert bad == []


def _run_time_imports(tree: ast.Module) -> set[str]:
    """The imports of a module that run: those under `if TYPE_CHECKING:` left out."""
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for sub in node.body for n in ast.walk(sub)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_engine_imports_no_ladder_and_no_io() -> None:
    """The variant carries its ladder (`Variant.new_ladder`, through scoring/registry.py): no
    module of engine/ imports scoring/ or io/ when it runs, at the top or inside a function;
    the type checker alone reads the ladder protocol."""
    engine = {name: tree for name, tree in _modules().items() if name.startswith("engine/")}
    assert "engine/game.py" in engine
    bad = [(name, imp) for name, tree in engine.items() for imp in _run_time_imports(tree)
           if imp.startswith(("interpreter.scoring", "interpreter.io"))]
    assert bad == []
    typing_only = {imp for tree in engine.values() for imp in _imports(tree)
                   if imp.startswith("interpreter.scoring")}
    assert typing_only <= {"interpreter.scoring.protocol"}


def test_only_players_read_a_players_name() -> None:
    """Nothing outside players/ reads `.name` of a player (capabilities say what one does)."""
    suspects = re.compile(r"player|bot|white|black|players\[")
    bad = []
    for name, tree in _modules().items():
        if name.startswith("players/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "name":
                target = ast.unparse(node.value)
                if suspects.search(target):
                    bad.append((name, node.lineno, target))
    assert bad == []


def test_one_registry_of_ladder_kinds() -> None:
    assert set(LADDER_MODELS) == set(LADDERS)
    for kind, (model, ladder) in LADDERS.items():
        assert model.model_fields["kind"].default == kind
        assert issubclass(ladder, Ladder)
        assert LADDER_MODELS[kind] is model
    used = {load_variant(v).ladder.kind for v in VARIANTS}
    assert used <= set(LADDERS)


def test_one_registry_of_player_kinds() -> None:
    """players/kinds.py names every kind: the simple bots it names are those bots.py builds,
    and each kind a web page offers parses."""
    from interpreter.players import kinds
    from interpreter.players.bots import BOTS

    assert set(kinds.BASIC) == set(BOTS)
    for kind in kinds.offered():
        if kind != kinds.HUMAN:
            kinds.parse(kind)


def _kind_tests(tree: ast.Module, kinds: set[str]) -> list[tuple[int, str]]:
    """Where a module compares something with a ladder kind's name (`x == "holes"`, `x in
    ("ecrire", "combine")`, a `case "cube":`) or keys a table by several of them."""
    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in kinds
        return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(named(e) for e in node.elts)

    def default(node: ast.Compare) -> bool:
        # the default kind, "game", compared with a kind
        return "kind" in ast.unparse(node) and any(
            isinstance(c, ast.Constant) and c.value == "game"
            or isinstance(c, (ast.Tuple, ast.List, ast.Set)) and any(
                isinstance(e, ast.Constant) and e.value == "game" for e in c.elts)
            for c in [node.left, *node.comparators])

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and (
                any(named(c) for c in [node.left, *node.comparators]) or default(node)):
            out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.MatchValue) and named(node.value):
            out.append((node.lineno, ast.unparse(node.value)))
        elif isinstance(node, ast.Dict) and sum(named(k) for k in node.keys if k) >= 2:
            out.append((node.lineno, "a table keyed by ladder kinds"))
    return out


def test_nothing_outside_the_ladders_tests_a_ladder_kind() -> None:
    """docs/architecture.md, "The seam": what the program needs to know of a ladder it asks of
    the ladder's class; no module outside scoring/, and no script of the web pages, branches
    on a kind's name (the default's, "game", where a kind is compared with it)."""
    kinds = set(LADDERS) - {"game"}
    assert _kind_tests(ast.parse('if s["kind"] in ("holes", "x"): pass'), kinds) == [
        (1, "s['kind'] in ('holes', 'x')")]
    assert _kind_tests(ast.parse('ok = s["cube"] > 1 and getattr(r, "combine", 0)'), kinds) == []
    assert _kind_tests(ast.parse('if kind in (None, "game"): pass'), kinds) == [
        (1, "kind in (None, 'game')")]
    bad = [(name, line, text) for name, tree in _modules().items()
           if not name.startswith("scoring/") for line, text in _kind_tests(tree, kinds)]
    assert bad == []
    quoted = re.compile("[\"'](" + "|".join(map(re.escape, sorted(kinds))) + ")[\"']")
    scripts = sorted((ROOT / "web" / "static").glob("*.js"))
    assert scripts
    assert [(p.name, m.group()) for p in scripts
            for m in quoted.finditer(p.read_text(encoding="utf-8"))] == []


def test_bots_are_players_with_declared_capabilities() -> None:
    assert isinstance(RandomBot(1), Player) and isinstance(GreedyBot(1), Player)
    assert "doubles" not in RandomBot(1).capabilities
    assert "doubles" in GreedyBot(1).capabilities


def test_the_generator_yields_decisions_and_takes_words_or_texts() -> None:
    v = load_variant("backgammon")
    game = Game(v, "contract", doubles=(True, True))
    gen = game.play()
    d = next(gen)
    assert isinstance(d, Decision) and d.kind == "play" and len(d.choices) > 1
    view = d.view
    assert view.board == game.board and view.mover and view.dice == game.dice
    assert view.ladder["kind"] == "cube" and view.ladder["cube"] == 1
    texts = d.words()
    assert len(set(texts)) == len(d.choices)
    with pytest.raises(IllegalAnswer):
        d.index(len(d.choices))
    with pytest.raises(IllegalAnswer):
        d.index("24/1")
    i = d.index(texts[-1])
    assert i == len(d.choices) - 1
    d = gen.send(texts[-1])
    while d.kind != "double":
        d = gen.send(0)
    assert d.choices == ("roll", "double") and d.index("double") == 1
    with pytest.raises(IllegalAnswer):
        d.index("redouble")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_recorded_play_reads_back_to_its_one_legal_result(variant: str) -> None:
    """Each play of a bot game, written in pip notation, names exactly the play made: the
    record replays through the rules to the same end."""
    v = load_variant(variant)
    result = play_game(v, 11, 0, "greedy", "random", max_turns=400, keep_record=True)
    game = result.game
    record = Record(v.id, 11, ("greedy", "random"), game.doubles, (), v.files,
                    list(game.record))
    again = replay(record, v, max_turns=400)
    assert again.result is not None
    assert again.game.record == game.record and again.game.log == game.log
    assert again.result.summary(v.id) == result.summary(v.id)


def test_a_five_point_match_log_shows_every_play_and_cube_action(capsys, tmp_path) -> None:
    mat = tmp_path / "m.mat"
    assert main(["play", "backgammon", "--set", "ladder.match_length=5", "--white", "greedy",
                 "--black", "greedy", "--mat", str(mat)]) == 0
    text = capsys.readouterr().out
    v = load_variant("backgammon", ["ladder.match_length=5"])
    result = play_game(v, 1, 0, "greedy", "greedy", keep_record=True)
    games = result.extra["games"]
    assert len(games) > 1
    for g in games:
        assert f"-- game {g['game']}: score" in text
        assert f"   game {g['game']}: {g['winner']} wins {g['points']} point" in text
    throws = [e for e in result.log if isinstance(e, Thrown)]
    lines = [ln for ln in text.splitlines() if re.match(r"\s*\d+\. (white|black) \d-\d", ln)]
    assert len(lines) == len(throws)
    for ln in lines:                       # every throw shows its play (or "-") and the cube
        assert re.match(r"\s*\d+\. (white|black) \d-\d (\S+/\S+|-)", ln)
        assert "cube" in ln or "wins by" in ln
    cube = [e for e in result.log if isinstance(e, Cubed) and e.side is not None]
    assert cube
    said = {"double": "doubles to", "take": "takes", "pass": "passes"}
    assert sum(text.count(w) for w in said.values()) == len(cube)
    code = main(["import", str(mat), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    import json
    obj = json.loads(out)
    assert list(obj["score"].values()) == result.points
    record = read_mat(mat.read_text(encoding="utf-8"))
    assert list(replay_mat(record, v).score) == result.points


def test_seed_7_money_game_ends_on_a_visible_double(capsys) -> None:
    assert main(["play", "backgammon", "--white", "greedy", "--black", "random",
                 "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "white doubles to 2; black passes" in text


def test_the_first_play_of_every_game_is_in_the_log(capsys) -> None:
    assert main(["play", "backgammon", "--set", "ladder.match_length=3", "--white", "greedy",
                 "--black", "greedy", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("-- game "):
            assert re.match(r"\s*1\. |\s*\d+\. (white|black) \d-\d \S", lines[i + 1])


@pytest.mark.parametrize("variant", ["trictrac-ecrire", "trictrac-combine"])
def test_written_games_log_their_throws_and_marks(capsys, variant: str) -> None:
    assert main(["play", variant, "--seed", "3", "--max-turns", "300"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^\s+1\. (white|black) \d-\d \S", text, re.M)
    assert "-- mark 2" in text and "holes" in text


def test_triktrak_log_shows_points_and_holes(capsys) -> None:
    assert main(["play", "triktrak", "--seed", "3", "--max-turns", "120"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"points \d+b?-\d+b?; holes \d+-\d+", text)
    assert "relevé" in text or "hole" in text


def test_a_restack_is_logged(capsys) -> None:
    assert main(["play", "tric-trac-12", "--seed", "3", "--set", "ladder.match_games=2"]) == 0
    text = capsys.readouterr().out
    assert "restacked" in text or "won by" in text
    for ln in text.splitlines():
        if re.match(r"\s*\d+\. ", ln):
            assert re.match(r"\s*\d+\. (white|black) \d-\d (\S+|enters)", ln), ln
