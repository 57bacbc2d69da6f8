"""The compiled `results()` put in place of the generated Python one on a variant's generator.

`NativeResults(rules)` compiles (or loads from the cache) the numba function of
`gen_emit.results_source` and calls it with a work space of its own; `install(variant)` sets it
as the generator's `results` when the switches are covered, and `HookedResults` (the walk of
`hooks_emit.py`, the file's forbid rules inside it) when the generator has rule hooks.
The Python function stays on the generator as `py_results`: the compiled one hands it the rare
throw whose plays overflow the work space.
"""
from __future__ import annotations

from typing import Any, Callable

from interpreter.kernel.movegen import Play, Step
from interpreter.kernel.rules import MoveRules
from interpreter.native import gen_emit, hooks_emit, walk_emit
from interpreter.native.library import Exports, has_library, load_library
from interpreter.native.modules import is_cached as cached
from interpreter.native.modules import load, per_variant

Board = tuple[int, ...]

_MODULES: dict[tuple[MoveRules, str], Any] = {}

#: the entry functions' signatures, as their callers here pass them (int64 arrays, C order)
RESULTS = ("results", "i8(i8[::1], i8, i8, i8[::1])")
HOOKED = ("results", "i8(i8[::1], i8, i8, i8, i8, i8[::1])")
PLAY_GAMES = ("play_games",
              "i8(i8[::1], i8[:,:,::1], i8[:,::1], i8[::1], i8, i8[::1], i8[:,::1])")


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


class HookedResults:
    """`results(b, d1, d2, rolls=1, d3=0)` by the compiled walk with the file's rules and the
    switches only the generic walk serves (`hooks_emit.py`): the same boards in the same order
    as the Python generator `fallback`; and, when the walk keeps paths, `some_plays` with the
    first way to each board (`some_fallback`: the Python `some_plays`)."""

    def __init__(self, hooked: hooks_emit.Hooked, fallback: Callable[..., list[Board]],
                 module: Any, some_fallback: Callable[..., Any] | None = None):
        import numpy as np

        r = hooked.rules
        self.size = size = r.geometry.size
        self.three = r.dice == 3
        self.total = (3 if self.three else 1 if r.numbers == "lower" else 2,
                      3 if self.three else 1 if r.numbers == "lower" else r.doublet_moves)
        self.module = module
        self.fn = module.results
        self.work = np.zeros(hooks_emit.workspace_size(hooked), dtype=np.int64)
        self.board = np.zeros(size, dtype=np.int64)
        self.fallback = fallback
        self.some_fallback = some_fallback
        self._rows = hooks_emit.rows_view(self.work, hooked)
        self._best = hooks_emit.best_offset(hooked)
        self._steps = _Steps()

    def _run(self, b: Board, d1: int, d2: int, rolls: int, d3: int) -> int:
        """The walk's answer code (gen_emit's protocol), or -3 for a throw of the wrong number
        of dice (the Python generator says so)."""
        if self.three != bool(d3):
            return -3
        arr = self.board
        arr[:] = b
        return int(self.fn(arr, d1, d2, d3, rolls, self.work))

    def __call__(self, b: Board, d1: int, d2: int, rolls: int = 1, d3: int = 0
                 ) -> list[Board]:
        code = self._run(b, d1, d2, rolls, d3)
        if code < 0:
            if code == -1:
                return [b]
            return self.fallback(b, d1, d2, rolls, d3)
        n = code % gen_emit.SHIFT
        return list(map(tuple, self._rows[:n, :self.size].tolist()))

    def some_plays(self, b: Board, d1: int, d2: int, rolls: int = 1, d3: int = 0
                   ) -> tuple[list[Play], int]:
        """The plays of the throw, each with the first way to its board that the Python walk
        finds, and how many numbers cannot be played."""
        code = self._run(b, d1, d2, rolls, d3)
        total = self.total[d1 == d2] if not d3 else 3
        if code == -1:
            return [Play(b, ((),))], total
        if code < 0:
            assert self.some_fallback is not None
            return self.some_fallback(b, d1, d2, rolls, d3)
        size = self.size
        step = self._steps.__getitem__
        out = []
        for row in self._rows[:code % gen_emit.SHIFT].tolist():
            path = tuple(map(step, row[size + 2:size + 2 + row[size + 1]]))
            out.append(Play(tuple(row[:size]), (path,)))
        return out, total - int(self.work[self._best])


class _Steps(dict[int, Step]):
    """The `Step` each number of a kept path stands for, made once."""

    def __missing__(self, key: int) -> Step:
        made = self[key] = Step(*hooks_emit.step_of(key))
        return made


@per_variant
def _hooked_source(variant: Any) -> tuple[hooks_emit.Hooked, str, str] | None:
    """The compiled walk with the file's rules for `variant`: (what it calls, the module's
    source, its salt), or None when the variant is not covered. Written once per variant."""
    h = hooks_emit.hooked(variant)
    return None if h is None else (h, hooks_emit.module_source(h), hooks_emit.salt(h))


@per_variant
def _source_of(variant: Any) -> tuple[str, Exports, str] | None:
    """The source of the variant's compiled module, the functions a caller runs with their
    signatures (`library.Exports`), and the salt of its cache name (for the walk with the
    file's rules); None when it has none. Written once per variant."""
    gen = variant.generator
    made = _hooked_source(variant)
    if made is not None:
        from interpreter.native.playout import playout_part

        extra = playout_part(variant)
        if extra is not None:
            return made[1] + "\n\n" + extra[0], (HOOKED, PLAY_GAMES), made[2]
        return made[1], (HOOKED,), made[2]
    if gen.forbid or gen.moves or _family(gen.rules) is None:
        return None
    from interpreter.native.playout import playout_part

    extra = playout_part(variant)
    exports = (RESULTS, PLAY_GAMES) if extra else (RESULTS,)
    return module_source(gen.rules, extra[0] if extra else ""), exports, ""


def is_cached(variant: Any) -> bool:
    """Whether the variant's compiled code is in the cache already, as a library or as numba's
    cached machine code (or it has none to compile)."""
    if getattr(variant.generator, "native", None) is not None:
        return True
    src = _source_of(variant)
    return src is None or has_library(*src) or cached(src[0], tuple(fn for fn, _s in src[1]),
                                                      src[2])


def has_lib(variant: Any) -> bool:
    """Whether the variant's compiled code is in the cache as a library (loaded without numba),
    or it has none to compile, or it is in place already."""
    if getattr(variant.generator, "native", None) is not None:
        return True
    src = _source_of(variant)
    return src is None or has_library(*src)


def may_build_lib(variant: Any) -> bool:
    """Whether a library of the variant's compiled code could be made here (it has code to
    compile, and no attempt failed lately)."""
    from interpreter.native.library import may_build

    src = _source_of(variant)
    return src is not None and may_build(*src)


def build_lib(variant: Any) -> bool:
    """Make the library of the variant's compiled code (numba's compiler, once per machine);
    False when it has none or it cannot be made here."""
    src = _source_of(variant)
    if src is None:
        return False
    source, exports, salt = src
    if has_library(source, exports, salt):
        return True
    from interpreter.native.library import build_library

    return build_library(load(source, salt), source, exports, salt)


def install(variant: Any, library_only: bool = False) -> bool:
    """The compiled `results()` on the variant's generator, when its switches are covered; True
    when it is in place. The library of the cache serves when it is there (no numba imported),
    else numba's module, unless `library_only`."""
    gen = variant.generator
    if getattr(gen, "native", None) is not None:
        return True
    made = _hooked_source(variant)
    if made is not None:
        return _install_hooked(variant, made, library_only)
    if gen.forbid or gen.moves or _family(gen.rules) is None:
        return False
    from interpreter.native.playout import playout_part

    extra = playout_part(variant)
    src = _source_of(variant)
    module = None if src is None else load_library(*src)
    if module is None:
        if library_only:
            return False
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


def _install_hooked(variant: Any, made: tuple[hooks_emit.Hooked, str, str],
                    library_only: bool) -> bool:
    gen = variant.generator
    h = made[0]
    src = _source_of(variant)
    assert src is not None
    source, exports, salt = src
    module = load_library(source, exports, salt)
    if module is None:
        if library_only:
            return False
        module = load(source, salt)
    python = gen.results
    native = HookedResults(h, python, module, gen.some_plays)
    if len(exports) > 1:
        from interpreter.native.playout import Playout, playout_part

        extra = playout_part(variant)
        assert extra is not None
        variant.__dict__["native_playout"] = Playout(variant, native, extra[1], extra[2])
    gen.py_results = python
    gen.native = native
    gen.results = native
    if h.paths:
        # the turn loop's plays for the named state's updates (one way to each board)
        gen.some_plays = native.some_plays
    return True
