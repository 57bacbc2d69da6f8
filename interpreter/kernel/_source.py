"""What generated kernel source may contain: switch values checked to be plain integers or one of
a fixed set of choices, so that no text from a variant file reaches the source; and compiling
such source once per switch set."""
from __future__ import annotations

from typing import Any, Callable, Hashable


def checked_int(name: str, v: object, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise ValueError(f"movement switch `{name}` must be an integer in {lo}..{hi}, not {v!r}")
    return v


def checked_choice(name: str, v: object, allowed: tuple[str, ...]) -> str:
    if v not in allowed:
        raise ValueError(f"movement switch `{name}` must be one of {allowed}, not {v!r}")
    return str(v)


def compiled(cache: dict, key: Hashable, source: Callable[[], str], label: str,
             entry: str) -> Any:
    """The function `entry` of the generated `source()`, compiled once per `key`."""
    fn = cache.get(key)
    if fn is None:
        ns: dict[str, Any] = {}
        exec(compile(source(), label, "exec"), ns)  # noqa: S102 - generated from checked values
        fn = ns[entry]
        cache[key] = fn
    return fn
