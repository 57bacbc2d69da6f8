"""The catalogue of hostile inputs (tests/data/hostile/manifest.toml; docs/security.md).

Each case runs the command line in a child process bounded in time and memory and asserts: no
code from the input ran (no sentinel file), no traceback, the expected exit code and message.
The default suite forks the test process (`hostile.run_cli(mode="fork")`) for every case of the
classes in `EVERY` and the first cases of the others, a few cases of each class also start a
fresh interpreter; `-m slow` runs the rest and starts a fresh interpreter for every case.
"""
from __future__ import annotations

import pytest

import hostile

CASES = hostile.cases()


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Load the variants once before forking, so that every child starts with the grammar and
    the compiled rules cached (a child's work is then the command itself)."""
    from interpreter.variant.build import load_variant

    for variant in ("backgammon", "triktrak", "trictrac-ecrire", "trictrac-combine",
                    "tric-trac-12"):
        load_variant(variant)


def _param(case: dict, mode: str):
    marks = []
    if case.get("waits"):
        marks.append(pytest.mark.xfail(strict=True, reason=f"waits for {case['waits']}"))
    return pytest.param(case, mode, id=case["id"], marks=marks)


def _run(case: dict, mode: str, tmp_path) -> None:
    hostile.prepare(case, tmp_path)
    args = [hostile.expand(a) for a in case["args"]]
    ran = hostile.run_cli(args, tmp_path, hostile.stdin_of(case, tmp_path),
                          seconds=case.get("seconds", 15), mode=mode)
    problems = hostile.check(case, ran, tmp_path)
    assert not problems, f"{case['id']}: " + "; ".join(problems)


#: the classes every case of which the default suite runs (code from the input, unbounded work);
#: of the others it runs the first few of each class, and `-m slow` all of them
EVERY = ("injection", "bomb", "endless", "weights")
FIRST = 5


def _default_cases() -> list:
    seen: dict[str, int] = {}
    out = []
    for case in CASES:
        k = seen[case["class"]] = seen.get(case["class"], 0) + 1
        param = _param(case, "fork")
        if case["class"] not in EVERY and k > FIRST:
            param = pytest.param(*param.values, id=param.id,
                                 marks=[*param.marks, pytest.mark.slow])
        out.append(param)
    return out


@pytest.mark.parametrize("case,mode", _default_cases())
def test_hostile_input(case, mode, tmp_path):
    _run(case, mode, tmp_path)


#: the classes whose first case also runs in a fresh interpreter in the default suite
FRESH = ("injection", "endless", "position", "record", "weights")


def _first_of_each_class() -> list:
    seen: set[str] = set()
    out = []
    for case in CASES:
        if case["class"] in FRESH and case["class"] not in seen and not case.get("waits"):
            seen.add(case["class"])
            out.append(_param(case, "exec"))
    return out


@pytest.mark.parametrize("case,mode", _first_of_each_class())
def test_hostile_input_in_a_fresh_interpreter(case, mode, tmp_path):
    _run(case, mode, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case,mode", [_param(c, "exec") for c in CASES])
def test_every_hostile_input_in_a_fresh_interpreter(case, mode, tmp_path):
    _run(case, mode, tmp_path)


def test_the_catalogue_covers_every_class():
    classes = {c["class"] for c in CASES}
    assert {"injection", "bomb", "endless", "broken", "position", "record", "mat", "id", "cli",
            "unplayable", "weights"} <= classes
    assert len(CASES) >= 100
    assert all(c["exit"] in (0, 1, 2) for c in CASES)
    names = [c["id"] for c in CASES]
    assert len(names) == len(set(names))


def test_a_run_that_writes_the_sentinel_is_caught(tmp_path):
    """The harness itself: code that writes the sentinel, a traceback and a hang are seen."""
    case = {"id": "self-check", "exit": 0}
    (tmp_path / hostile.SENTINEL).write_text("")
    ran = hostile.Ran(0, "", "Traceback (most recent call last):", 20.0, True)
    problems = hostile.check(case, ran, tmp_path)
    assert len(problems) == 3
