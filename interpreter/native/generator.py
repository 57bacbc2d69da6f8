"""The compiled `results()` put in place of the generated Python one on a variant's generator.

`NativeResults(rules)` compiles (or loads from the cache) the numba function of
`gen_emit.results_source` and calls it with a work space of its own; `install(variant)` sets it
as the generator's `results` when the switches are covered and the generator has no rule hooks.
The Python function stays on the generator as `py_results`: the compiled one hands it the rare
throw whose plays overflow the work space.
"""
from __future__ import annotations

from typing import Any, Callable

from interpreter.kernel.rules import MoveRules
from interpreter.native import gen_emit, walk_emit
from interpreter.native.modules import load, is_cached as cached

Board = tuple[int, ...]

_MODULES: dict[tuple[MoveRules, str], Any] = {}


def _family(rules: MoveRules) -> str | None:
    """Which compiled generator serves these switches: "bg" (gen_emit, the backgammon
    family's), "walk" (walk_emit, pins, same routes, checkers off the board) or None."""
    if gen_emit.covers(rules):
        return "bg"
    if walk_emit.covers(rules):
        return "walk"
    return None


def module_source(rules: MoveRules, extra: str = "") -> str:
    """The whole numba module of the compiled generator for these switches, and `extra` (the
    playout's part, loop_emit.py)."""
    size = rules.geometry.size
    if _family(rules) == "bg":
        body = gen_emit.results_source(rules)
    else:
        body = walk_emit.helpers_source(rules) + "\n\n" + walk_emit.results_source(rules)
    return (gen_emit.constants(size) + gen_emit.HELPERS + "\n\n" + body
            + ("\n\n" + extra if extra else ""))


def compiled_module(rules: MoveRules, extra: str = "") -> Any:
    mod = _MODULES.get((rules, extra))
    if mod is None:
        mod = _MODULES[(rules, extra)] = load(module_source(rules, extra))
    return mod


class NativeResults:
    """`results(b, d1, d2, rolls=1)` by the compiled function: the same boards in the same order
    as the Python generator `fallback`."""

    def __init__(self, rules: MoveRules, fallback: Callable[..., list[Board]],
                 module: Any = None):
        import numpy as np

        self.rules = rules
        self.size = size = rules.geometry.size
        self.module = module if module is not None else compiled_module(rules)
        self.fn = self.module.results
        self.work = np.zeros(gen_emit.workspace_size(size), dtype=np.int64)
        self.board = np.zeros(size, dtype=np.int64)
        self.fallback = fallback
        self._rows = [self.work[gen_emit.rows_offset(c, size):
                                gen_emit.rows_offset(c + 1, size)].reshape(gen_emit.CAP, size)
                      for c in range(gen_emit.CATS)]

    def __call__(self, b: Board, d1: int, d2: int, rolls: int = 1) -> list[Board]:
        arr = self.board
        arr[:] = b
        code = self.fn(arr, d1, d2, self.work)
        if code < 0:
            if code == -1:
                return [b]
            return self.fallback(b, d1, d2)
        cat, n = divmod(code, gen_emit.SHIFT)
        return list(map(tuple, self._rows[cat][:n].tolist()))


def _source_of(variant: Any) -> tuple[str, tuple[str, ...]] | None:
    gen = variant.generator
    if gen.forbid or gen.moves or _family(gen.rules) is None:
        return None
    from interpreter.native.playout import playout_part

    extra = playout_part(variant)
    fns = ("results", "play_games") if extra else ("results",)
    return module_source(gen.rules, extra[0] if extra else ""), fns


def is_cached(variant: Any) -> bool:
    """Whether the variant's compiled code is in the cache already (or it has none to
    compile)."""
    if getattr(variant.generator, "native", None) is not None:
        return True
    src = _source_of(variant)
    return src is None or cached(*src)


def install(variant: Any) -> bool:
    """The compiled `results()` on the variant's generator, when its switches are covered; True
    when it is in place."""
    gen = variant.generator
    if getattr(gen, "native", None) is not None:
        return True
    if gen.forbid or gen.moves or _family(gen.rules) is None:
        return False
    from interpreter.native.playout import playout_part

    extra = playout_part(variant)
    module = compiled_module(gen.rules, extra[0] if extra else "")
    python = gen._fast if gen._fast is not None else gen.results
    native = NativeResults(gen.rules, python, module)
    if extra is not None:
        from interpreter.native.playout import Playout

        variant.__dict__["native_playout"] = Playout(variant, native, extra[1], extra[2])
    gen.py_results = python
    gen.native = native
    gen.results = native
    return True
