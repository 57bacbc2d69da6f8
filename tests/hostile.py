"""Running the command line on hostile input, bounded in time and memory.

`run_cli` runs `tablier ARGS` in a child process, in a given folder, with stdin from a file, and
reports the exit code, both outputs, the wall time and whether it had to be killed. The child
has `resource.setrlimit(RLIMIT_AS)` set (1.5 GB by default) and is killed after `seconds`.

Two ways to start the child: `exec` starts a fresh interpreter (`python3 -m interpreter ARGS`,
as a user would), `fork` forks the test process, whose modules are already imported, and calls
`interpreter.cli.main(ARGS)` there (the same command, 50 times faster to start; an exception
escaping `main` prints its traceback on the child's stderr, as the interpreter would).
"""
from __future__ import annotations

import io
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOSTILE = Path(__file__).parent / "data" / "hostile"
SENTINEL = "PWNED"
MEMORY = 1536 * 1024 * 1024


@dataclass
class Ran:
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    killed: bool

    @property
    def output(self) -> str:
        return self.stdout + "\n" + self.stderr


def _limit_memory(memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_cli(args: list[str], cwd: Path, stdin: Path | None = None, *, seconds: float = 15.0,
            memory: int = MEMORY, mode: str = "fork") -> Ran:
    stdin_path = str(stdin) if stdin is not None else os.devnull
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        if mode == "exec":
            with open(stdin_path, "rb", buffering=0) as fin:
                proc = subprocess.Popen([sys.executable, "-m", "interpreter", *args], cwd=cwd,
                                        stdin=fin, stdout=out, stderr=err,
                                        preexec_fn=lambda: _limit_memory(memory))
                killed = False
                try:
                    code: int | None = proc.wait(timeout=seconds)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    code, killed = None, True
        else:
            code, killed = _fork(args, cwd, stdin_path, out, err, seconds, memory)
        elapsed = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Ran(code, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), elapsed, killed)


def _fork(args: list[str], cwd: Path, stdin_path: str, out: Any, err: Any, seconds: float,
          memory: int) -> tuple[int | None, bool]:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test run
        code = 1
        try:
            os.chdir(cwd)
            fd = os.open(stdin_path, os.O_RDONLY)
            os.dup2(fd, 0)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            _limit_memory(memory)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "rb", closefd=False)),
                                         encoding="utf-8")
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "wb", closefd=False), encoding="utf-8",
                                          write_through=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "wb", closefd=False), encoding="utf-8",
                                          write_through=True)
            from interpreter.cli import main
            try:
                code = main(args)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None
                                                                       else 1)
        except BaseException:  # noqa: BLE001 - what a user would see: a traceback
            try:
                traceback.print_exc()
            except BaseException:  # noqa: BLE001
                pass
            code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code if isinstance(code, int) else 1)
    deadline = time.monotonic() + seconds
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, True
        time.sleep(0.002)


# -- the catalogue -------------------------------------------------------------------------------

_REPEAT = re.compile(r"\{(.)\*([0-9]+)\}", re.S)


def expand(arg: str) -> str:
    """`{C*N}` in an argument of the manifest: the character C written N times."""
    return _REPEAT.sub(lambda m: m.group(1) * int(m.group(2)), arg)


def cases() -> list[dict[str, Any]]:
    return tomllib.loads((HOSTILE / "manifest.toml").read_text(encoding="utf-8"))["case"]


def prepare(case: dict[str, Any], folder: Path) -> None:
    """Copy the catalogue into `folder` and make the case's special files."""
    for path in HOSTILE.iterdir():
        if path.is_file() and path.name != "manifest.toml":
            (folder / path.name).write_bytes(path.read_bytes())
    for item in case.get("setup", []):
        kind, _, rest = item.partition(":")
        if kind == "fifo":
            os.mkfifo(folder / rest)
        elif kind == "dir":
            (folder / rest).mkdir()
        elif kind == "big":
            name, size = rest.rsplit(":", 1)
            with open(folder / name, "wb") as fh:
                fh.write((b"# " + b"x" * 97 + b"\n") * (int(size) // 100 + 1))
        elif kind == "line":
            name, size = rest.rsplit(":", 1)
            (folder / name).write_text('{"points": [' + "0, " * (int(size) // 3) + "0]}\n")
        elif kind == "link":
            name, target = rest.split(":", 1)
            (folder / name).symlink_to(target)
        elif kind == "chain":
            n = int(rest)
            for i in range(n):
                last = i == n - 1
                (folder / f"chain-{i:02d}.toml").write_text(
                    'extends = "backgammon"\n' if last else f'extends = "chain-{i + 1:02d}.toml"\n')
        elif kind == "gen":
            name, what, n = rest.split(":")
            (folder / name).write_text(_generated(what, int(n)), encoding="utf-8")
        elif kind == "save":
            name, variant_file = rest.split(":", 1)
            (folder / name).write_text(_save_naming(variant_file), encoding="utf-8")
        elif kind == "savekinds":
            name, kinds = rest.split(":", 1)
            white, black = kinds.split("|")
            (folder / name).write_text(_save_naming(None, (white, black)), encoding="utf-8")
        elif kind == "npz":
            name, what = rest.split(":", 1)
            (folder / name).write_bytes(weights_file(what))
        else:
            raise ValueError(f"unknown setup {item!r}")


#: an end rule of about 4.6 million steps a call, under the budget a rule had alone before
#: rules were priced by their runs
DEAR_END = "count(a in 1..24 where count(b in 1..24 where count(c in 1..24 where " \
    "count(d in 1..24 where mine(a) + mine(b) + mine(c) + mine(d) > 99) > 0) > 0) > 0) > 0"


def _generated(what: str, n: int) -> str:
    """The text of a generated file (`gen:NAME:WHAT:N` in a case's setup)."""
    head = 'extends = "backgammon"\n'
    if what == "regions":
        return head + "[regions]\n" + "".join(f'r{i} = "{i % 24 + 1}..24"\n' for i in range(n))
    if what == "defines":
        return head + "[define]\n" + "".join(f'd{i} = "mine({i % 24 + 1}) > {i % 7}"\n'
                                              for i in range(n))
    if what == "keys":     # n unknown keys in one inline table, on one line
        return head + 'variant = { id = "k", name = "k", ' + \
            ", ".join(f"k{i:05d} = 1" for i in range(n)) + " }\n"
    if what == "ends":     # n end rules, each under the old budget of one rule
        return head + "".join(f'[rules.dear-{i}]\nname = "Dear {i}"\nkind = "end"\n'
                              f'description = "d"\nwhen = "{DEAR_END}"\n' for i in range(n))
    raise ValueError(f"unknown generated file {what!r}")


def _save_naming(variant_file: str | None,
                 players: tuple[str, str] = ("random", "random")) -> str:
    """A saved game of backgammon, its checksum right, whose `game.variant_file` is
    `variant_file` (a stranger's save naming a file of the person's) and whose players are
    `players`."""
    import tomli_w

    from interpreter.io.save import _checksum

    game: dict[str, Any] = {"variant": "backgammon", "seed": 1, "options": [],
                            "players": list(players), "doubles": [False, False], "turns": 0}
    if variant_file is not None:
        game["variant_file"] = variant_file
    data = {"format": 1, "game": game, "files": [], "record": {"moves": []}, "state": {}}
    data["checksum"] = _checksum(data)
    return tomli_w.dumps(data)


# -- hostile weights files (`npz:NAME:WHAT`) ----------------------------------------------------

_WEIGHTS: dict[str, bytes] = {}


def _npy(array: Any) -> bytes:
    import numpy as np

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.asanyarray(array), allow_pickle=True)
    return buf.getvalue()


def _zip(members: dict[str, bytes], method: int = 0) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return buf.getvalue()


def _shipped_members(meta: str | None = None, **arrays: Any) -> dict[str, bytes]:
    """The members of the shipped backgammon weights, with `arrays` and the metadata's JSON
    text `meta` replaced."""
    import numpy as np

    with np.load(_shipped()) as data:
        got = {k: np.array(data[k]) for k in ("W1", "b1", "W2", "b2", "meta")}
    if meta is not None:
        got["meta"] = np.array(meta)
    got.update(arrays)
    return {f"{k}.npy": _npy(v) for k, v in got.items()}


def _shipped_meta(**changes: Any) -> dict[str, Any]:
    import json

    import numpy as np

    with np.load(_shipped()) as data:
        meta = json.loads(str(data["meta"]))
    meta.update(changes)
    return meta


def _with_meta(text: str) -> bytes:
    return _zip(_shipped_members(meta=text))


def _meta_text(**changes: Any) -> str:
    import json

    return json.dumps(_shipped_meta(**changes))


def _declaring(body: bytes, name: str, size: int) -> bytes:
    """A zip of one member `name` holding `body` whose directory and local header declare
    `size` bytes uncompressed (a zip bomb, as the directory tells it)."""
    import struct

    data = bytearray(_zip({**_shipped_members(), name: body}))
    raw = name.encode()
    for signature, field in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):
        at = 0
        while True:
            at = data.find(signature, at)
            if at < 0:
                break
            name_at = at + (46 if signature == b"PK\x01\x02" else 30)
            if data[name_at:name_at + len(raw)] == raw:
                data[at + field:at + field + 4] = struct.pack("<I", size)
            at += 4
    return bytes(data)


def weights_file(what: str) -> bytes:
    """The bytes of a hostile weights file (`npz:NAME:WHAT` in a case's setup), built from
    the shipped backgammon weights: `good` (as shipped), `shape` (W1 declares 10,000 x 10,000
    numbers, zeros deflated to a few MB: np.load took 3 GB), `shape-short` (W1's header
    declares 10,000 x 10,000, its data is the shipped), `bomb` (a member whose directory
    declares 4 GB), `liar` (a member declaring fewer bytes than its deflated data holds),
    `pickle` (W1 an object array, pickled), `members` (2,000 members), `header` (a .npy header
    of 60,000 bytes), `nan` (a NaN among the weights), `truncated` (the first half),
    `levels-digits` (`levels` a string of 5,000 digits), `levels-number` (a number of 5,000
    digits), `levels-dict`, `levels-nan` (NaN in the JSON), `levels-huge` (a level of 10⁹),
    `features-int`, `deep` (a field nested 100,000 deep), `inf` (1e999 in a field), `not-json`,
    `games-dict` (a field `train --resume` reads, of the wrong type)."""
    if what in _WEIGHTS:
        return _WEIGHTS[what]
    import numpy as np

    out: bytes
    if what == "good":
        out = _zip(_shipped_members())
    elif what == "shape":
        import zipfile

        buf = io.BytesIO()
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(
            header, {"descr": "<f8", "fortran_order": False, "shape": (10000, 10000)})
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            for name, body in _shipped_members().items():
                if name != "W1.npy":
                    zf.writestr(name, body)
            with zf.open("W1.npy", "w", force_zip64=True) as fh:
                fh.write(header.getvalue())
                zeros = bytes(1 << 22)
                for _ in range(10000 * 10000 * 8 // len(zeros)):
                    fh.write(zeros)
        out = buf.getvalue()
    elif what == "shape-short":
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(
            header, {"descr": "<f8", "fortran_order": False, "shape": (10000, 10000)})
        members = _shipped_members()
        members["W1.npy"] = header.getvalue() + members["W1.npy"][128:]
        out = _zip(members)
    elif what == "bomb":
        out = _declaring(_npy(np.zeros(8)), "W1.npy", 0xFFFFFFF0)
    elif what == "liar":
        out = _declaring(_shipped_members()["b1.npy"], "b1.npy", 200)
    elif what == "pickle":
        out = _zip(_shipped_members(W1=np.array([{"a": 1}, None], dtype=object)))
    elif what == "members":
        members = _shipped_members()
        members.update({f"x{i}.npy": b"" for i in range(2000)})
        out = _zip(members)
    elif what == "header":
        members = _shipped_members()
        members["W1.npy"] = b"\x93NUMPY\x02\x00" + (60000).to_bytes(4, "little") + \
            b" " * 60000 + members["W1.npy"][128:]
        out = _zip(members)
    elif what == "nan":
        with np.load(_shipped()) as data:
            W1 = np.array(data["W1"])
        W1[3, 4] = np.nan
        out = _zip(_shipped_members(W1=W1))
    elif what == "truncated":
        good = weights_file("good")
        out = good[:len(good) // 2]
    elif what == "levels-digits":
        out = _with_meta(_meta_text(levels="9" * 5000))
    elif what == "levels-number":
        out = _with_meta(_meta_text(levels=[2]).replace('"levels": [2]',
                                                        '"levels": ' + "9" * 5000))
    elif what == "levels-dict":
        out = _with_meta(_meta_text(levels={"a": 2}))
    elif what == "levels-nan":
        out = _with_meta(_meta_text(levels=[2]).replace('"levels": [2]', '"levels": [NaN, 3]'))
    elif what == "levels-huge":
        out = _with_meta(_meta_text(levels=[2, 10**9]))
    elif what == "features-int":
        out = _with_meta(_meta_text(features=216))
    elif what == "deep":
        out = _with_meta(_meta_text(deep=0).replace('"deep": 0',
                                                    '"deep": ' + "[" * 100000 + "]" * 100000))
    elif what == "inf":
        out = _with_meta(_meta_text(alpha=0).replace('"alpha": 0', '"alpha": 1e999'))
    elif what == "not-json":
        out = _with_meta("{" + "x" * 100)
    elif what == "games-dict":
        out = _with_meta(_meta_text(games={"a": 1}))
    else:
        raise ValueError(f"unknown weights file {what!r}")
    _WEIGHTS[what] = out
    return out


def _shipped() -> Path:
    from interpreter.players.learned import shipped_weights

    found = shipped_weights("backgammon")
    assert found is not None
    return found


def stdin_of(case: dict[str, Any], folder: Path) -> Path | None:
    name = case.get("stdin")
    if name is None:
        return None
    return Path(name) if name.startswith("/") else folder / name


def check(case: dict[str, Any], ran: Ran, folder: Path) -> list[str]:
    """What went wrong in a run, in words ([] when the case holds)."""
    problems = []
    limit = case.get("seconds", 15)
    if ran.killed:
        problems.append(f"still running after {limit} s")
    elif ran.seconds > limit:
        problems.append(f"took {ran.seconds:.1f} s (at most {limit})")
    if "Traceback" in ran.output:
        problems.append("traceback:\n" + ran.output[-1500:])
    if (folder / SENTINEL).exists():
        problems.append("code from the input ran: the sentinel file was written")
    if ran.code != case["exit"]:
        problems.append(f"exit code {ran.code}, expected {case['exit']}")
    expect = case.get("expect")
    if expect and expect not in ran.output:
        problems.append(f"{expect!r} not in the output:\n{ran.output[-800:]}")
    absent = case.get("absent")
    if absent and absent in ran.output:
        problems.append(f"{absent!r} appears in the output")
    most = case.get("max_output")
    if most is not None and len(ran.output) > most:
        problems.append(f"{len(ran.output):,} characters of output (at most {most:,})")
    for name in case.get("not_made", []):
        if (folder / name).exists():
            problems.append(f"{name} was made")
    for name in case.get("devices", []):
        import stat
        if not stat.S_ISCHR(os.stat(name).st_mode):
            problems.append(f"{name} is no longer a character device")
    return problems
