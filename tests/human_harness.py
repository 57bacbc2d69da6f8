"""A scripted person at the board: runs `tablier play ... --white human` in a child process,
reads its prompts (docs/play.md: `SIDE KIND> ` at the end of the output, flushed) and answers
them sensibly — plays by number and by notation, in parts with an undo, word decisions by number
and by word — with unreadable and illegal entries and the commands `list`, `hint`, `board`,
`help` mixed in. It records what it saw so that tests can check the refusals and the end."""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"(?:^|\n)(white|black) ([a-z]+)> $")
LISTED = re.compile(r"^\s*(\d+)\. (.+?)(?:   \(.*\))?$")


@dataclass
class Transcript:
    out: str = ""
    prompts: int = 0
    refusals: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    returncode: int | None = None


class Driver:
    """Answers each prompt of the child; `script` (optional) gives the first answers."""

    def __init__(self, args: list[str], *, script: list[str] | None = None,
                 stop_after: int | None = None, timeout: float = 120.0, env: dict | None = None,
                 simple: bool = False):
        self.args = args
        self.script = list(script or [])
        self.stop_after = stop_after
        self.timeout = timeout
        # wide lines unless a test asks for a width: the tests of content read whole lines
        self.env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "1000", **(env or {})}
        self.t = Transcript()
        self.n_play = 0
        self.n_word = 0
        #: answer every prompt the same way ("1", "ok", Enter): the answers then depend on the
        #: game alone, so that a resumed game is answered as the uninterrupted one
        self.simple = simple

    def run(self) -> Transcript:
        proc = subprocess.Popen([sys.executable, "-m", "interpreter", "play", *self.args],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, cwd=ROOT, env=self.env)
        assert proc.stdout is not None and proc.stdin is not None
        fd = proc.stdout.fileno()
        buf = ""
        start = time.monotonic()
        pending: list[str] = []
        last_list: list[str] = []
        try:
            while True:
                if time.monotonic() - start > self.timeout:
                    raise AssertionError(f"the game did not end in {self.timeout} s:\n"
                                         f"{buf[-3000:]}")
                ready, _, _ = select.select([fd], [], [], 1.0)
                if not ready:
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buf += chunk.decode("utf-8")
                m = PROMPT.search(buf)
                if not m:
                    continue
                self.t.out += buf
                screen, buf = buf, ""
                kind = m.group(2)
                listed = [LISTED.match(line) for line in screen.splitlines()]
                got = [x.group(2) for x in listed if x]
                if got:
                    last_list = got
                self.t.prompts += 1
                if self.stop_after is not None and self.t.prompts > self.stop_after:
                    proc.stdin.close()          # end of input at a prompt
                    continue
                if self.script:
                    answer = self.script.pop(0)
                elif pending:
                    answer = pending.pop(0)
                else:
                    answer, more = self.decide(kind, screen, last_list)
                    pending.extend(more)
                if "refused" not in answer:
                    self.t.answers.append(answer)
                proc.stdin.write((answer + "\n").encode("utf-8"))
                proc.stdin.flush()
        finally:
            self.t.out += buf
            try:
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            self.t.returncode = proc.wait(timeout=30)
        return self.t

    def decide(self, kind: str, screen: str, listed: list[str]) -> tuple[str, list[str]]:
        """The next answer (and the ones to follow it) for a prompt of `kind`."""
        if self.simple:
            return {"confirm": "ok", "mark": "", "resign": "cancel"}.get(kind, "1"), []
        if kind in ("play", "enter"):
            self.n_play += 1
            k = self.n_play
            if not listed or "list" not in self.t.answers[-1:]:
                return "list", []
            if k % 7 == 1:
                return "zz/9", []                     # unreadable
            if k % 7 == 2:
                return "1/24", []                     # backwards
            if k % 7 == 3:
                return "hint", ["board", "help", "1"]
            first = listed[0]
            if k % 7 == 4 and " " in first and "(" not in first and first.count(" ") == 1:
                a, b = first.split(" ")
                return a, [b, "undo", b, "ok"]          # in parts, with an undo
            if k % 7 == 5:
                return first, []                     # by notation
            return str(1 + k % max(1, len(listed))), []
        if kind == "confirm":
            return "ok", []
        if kind == "mark":
            return "", []
        if kind == "resign":
            return "cancel", []
        self.n_word += 1
        words = re.findall(r"  (\d+) ([a-z]+(?: [a-z]+)?)", screen.splitlines()[-2]
                           if len(screen.splitlines()) > 1 else "")
        if self.n_word % 5 == 2:
            return "maybe", []                       # not an answer: asked again
        if words and self.n_word % 2:
            return words[0][1], []                    # by word
        return "1", []


def refusals(out: str) -> list[str]:
    """The lines that refuse an entry (the entry, a colon, the reason)."""
    keys = ("unreadable play", "not an answer here", "no checker of yours", "is used",
            "must be", "moves backwards", "not a point")
    return [line for line in out.splitlines() if any(k in line for k in keys)]
