"""No import cycle in interpreter/, and no import up its layers: every module's imports, at
module level and inside functions (relative ones resolved), read with `ast`, make a graph that
must have no cycle and whose every edge goes down docs/architecture.md's list ("What imports
what"). Imports under `if TYPE_CHECKING:` are left out: they never run."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"


def modules() -> dict[str, tuple[Path, ast.Module]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["interpreter", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                skip |= {id(x) for x in ast.walk(sub)}
    return skip


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: set[str]) -> list[str]:
    """The package's modules one import statement names (a `from x import y` names x.y when y is
    a module, else x)."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join(here + ([base] if base else []))
        subs = [f"{base}.{alias.name}" for alias in node.names]
        wanted = [s for s in subs if s in known]
        if len(wanted) < len(subs):
            wanted.append(base)
    out = []
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.append(target)
    return out


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first import of it}."""
    mods = modules()
    known = set(mods)
    graph: dict[str, dict[str, int]] = {}
    for name, (path, tree) in mods.items():
        skip = _type_checking_only(tree)
        edges: dict[str, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                for target in _targets(name, path, node, known):
                    edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of the graph as a list of modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}          # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = walk(w)
                if found:
                    return found
        state[v] = 2
        path.pop()
        return None

    for v in sorted(graph):
        if v not in state:
            found = walk(v)
            if found:
                return found
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    mods = modules()
    steps = []
    for a, b in zip(cycle, cycle[1:]):
        path = mods[a][0].relative_to(PACKAGE.parent)
        steps.append(f"{path}:{graph[a][b]} imports {b}")
    return "import cycle: " + " -> ".join(cycle) + "\n  " + "\n  ".join(steps)


def test_find_cycle_reports_a_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": 1}, "b": {}}) is None


def test_function_level_and_relative_imports_are_read(tmp_path):
    tree = ast.parse("def f():\n    from .y import z\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert _targets("pkg.x", tmp_path / "x.py", node, {"pkg.x", "pkg.y"}) == ["pkg.y"]
    assert _targets("pkg", tmp_path / "__init__.py", node, {"pkg", "pkg.y"}) == ["pkg.y"]


def test_no_import_cycle_in_the_package():
    graph = import_graph()
    assert len(graph) > 100
    cycle = find_cycle(graph)
    assert cycle is None, describe(cycle, graph)


# -- the layers of docs/architecture.md ("What imports what") -------------------------------------

#: the layers, lowest first: a module may import its own layer's and those below
LAYERS = (
    ("interpreter.errors", "interpreter.resources", "interpreter.usercache",
     "interpreter.bounded", "interpreter.threadsafe"),
    ("interpreter.kernel", "interpreter.dsl"),
    ("interpreter.engine",),
    ("interpreter.scoring",),
    ("interpreter.variant",),
    (),                                         # everything else
    ("interpreter.launch", "interpreter.__main__"),
)
#: inside a layer: (importer, imported) pairs that point the wrong way
WRONG_WAYS = (
    ("interpreter.kernel", "interpreter.dsl"),
    ("interpreter.dsl", "interpreter.kernel"),
    ("interpreter.dsl.info", "interpreter.dsl.bounds"),
    ("interpreter.dsl.info", "interpreter.dsl.vocabulary"),
    ("interpreter.engine.contract", "interpreter.engine.branch"),
    ("interpreter.engine.contract", "interpreter.engine.game"),
    ("interpreter.engine.contract", "interpreter.engine.record"),
    ("interpreter.engine.branch", "interpreter.engine.game"),
    ("interpreter.engine.branch", "interpreter.engine.record"),
    ("interpreter.engine.game", "interpreter.engine.record"),
    ("interpreter.variant.loader", "interpreter.variant.build"),
    ("interpreter.variant.loader", "interpreter.variant.stored"),
    ("interpreter.variant.build", "interpreter.variant.stored"),
    ("interpreter.players.bots", "interpreter.players.kinds"),
    ("interpreter.players.search", "interpreter.players.kinds"),
    ("interpreter.players.gnubg_player", "interpreter.players.kinds"),
    ("interpreter.runner", "interpreter.sim"),
    ("interpreter.runner", "interpreter.compare"),
    ("interpreter.cli", "interpreter.launch"),
)


def layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    return LAYERS.index(())


def upward(graph: dict[str, dict[str, int]]) -> list[str]:
    """Each import, at the top of a module or inside a function, that points up the layers or
    the wrong way inside one, as `module:line imports target`."""
    def under(module: str, prefix: str) -> bool:
        return module == prefix or module.startswith(prefix + ".")

    out = []
    for a, edges in sorted(graph.items()):
        for b, line in sorted(edges.items()):
            if layer(b) > layer(a) or any(under(a, x) and under(b, y) for x, y in WRONG_WAYS):
                out.append(f"{a}:{line} imports {b}")
    return out


def test_upward_finds_an_import_up_the_layers():
    graph = {"interpreter.scoring.holes": {"interpreter.variant.problems": 192},
             "interpreter.dsl.bounds": {"interpreter.kernel.board": 22},
             "interpreter.engine.game": {"interpreter.engine.contract": 40}}
    assert upward(graph) == ["interpreter.dsl.bounds:22 imports interpreter.kernel.board",
                             "interpreter.scoring.holes:192 imports interpreter.variant.problems"]


def test_no_import_points_up_the_layers():
    """docs/architecture.md, "What imports what": imports go down its list, those inside
    functions included; only `if TYPE_CHECKING:` imports (never run) are left out."""
    assert upward(import_graph()) == []
