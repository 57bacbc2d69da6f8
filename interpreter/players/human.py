"""A person at the board, in the terminal (`tablier play --white human`; docs/play.md).

The player reads its input line by line from one stream and writes to another, so that a pipe
or a test can drive a whole game. Before each of its decisions it shows what happened since its
last one (the opponent's throws, plays and what they scored, from the game's log), the board
from its side with the points named in the chosen notation, the dice, the running score of every
ladder and what the throw scores rule by rule; then it prompts.

Every prompt is one line `SIDE KIND> ` (`white play> `, `black take> `, `white go> `,
`white confirm> `, `white resign> `, `white mark> `), written without a newline and flushed;
the choices of a word decision are listed, numbered, on the line before it. When the input is not
a terminal the line read is echoed after the prompt, so that the output reads as a transcript.

At a play prompt: a play in from/to notation (`24/18(2)`, `8/2*/1`, `bar/22`, `6/off`, or the
chosen notation's point names); a number from `list`; `list`, `hint` (the best play, then the
best five ranked with their values; `hint all` ten, `hint N` the N best; at the cube, the
cube's numbers), `undo`, `board`, `save FILE`, `resign`, `help`. A play may be entered in
parts (`24/18`, then `13/11`): the board is shown as it is built, `undo` takes back the last
part, and a complete play built in parts is confirmed (`ok`) before it is played. An illegal or
unreadable entry is named with its reason and asked again. End of input at any prompt raises
`EndOfInput` (the command saves the game).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from functools import partial
from typing import Any, Callable, TextIO

from interpreter.engine.contract import PLAY_KINDS, SIDE_NAMES, Resign
from interpreter.engine.events import Decided, ResignDeclined, Scored, Thrown
from interpreter.errors import TablierError
from interpreter.kernel.board import BAR, PINS, POOL, sort_key
from interpreter.kernel.notation import expand_steps
from interpreter.notation import UNENTERED, Notation, NotationError
from interpreter.players.base import DOUBLES
from interpreter.render import LogWriter
from interpreter.terminal import (console_for, draw_board, fit, ladder_lines,
                                  named_points_lines, score_lines, terminal_width)

#: what each word decision asks, in a sentence
QUESTIONS = {
    "double": "Before your throw: roll, or offer the cube?",
    "take": "You are doubled: take or pass?",
    "go": "You won a hole on your own throw: stay, or go (the men are set up again)?",
    "refait": "Holes are equal at six or more: stay, or call a refait (the mark is replayed)?",
    "concede": "You are behind at six holes or more: stay, or concede the mark?",
    "banner": "Your first hole of the mark: claim the banner?",
    "necktie": "Your first hole of the mark: claim the necktie?",
    "continue": "You won the game: play on from the position, or go (away, afresh)?",
    "rethrow": "A doublet: throw again?",
    "doublet": "Your 1-2 is played: which doublet do you name (you play it, then throw again)?",
    "resign": "Your opponent resigns ({offer}): accept or decline?",
    "school": "{who} marked {claimed} where the throw gives {due}: send him to school?",
    # a choice of the file before the first throw (`[turn.choose]`): its title and
    # description come first (`HumanPlayer._choice_question`)
    "choose": "Your choice:",
}
#: word decisions where an empty line answers the first choice (the one that holds)
ENTER_MEANS_FIRST = frozenset({"double", "rethrow"})
#: the decisions asked before the throw of the player on roll: the dice of the view are those
#: of the throw before, not to be shown as his
BEFORE_THROW = frozenset({"double", "take"})
#: what players say for a choice, beside its word: the trictrac players' French (Guiton's
#: `tenir` and `s'en aller`), the cube's `redouble` for a beaver or a raccoon
SYNONYMS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("tenir", "je tiens", "tiens"), ("stay", "hold")),
    **dict.fromkeys(("s'en aller", "s’en aller", "aller", "je m'en vais", "je m’en vais",
                     "m'en vais", "m’en vais"), ("go",)),
    **dict.fromkeys(("redouble", "redouble at once"), ("beaver", "raccoon")),
}
#: the words that end the game at any prompt
QUIT_WORDS = frozenset({"quit", "exit"})

HELP_PLAY = """\
Enter a play from/to, e.g. {examples}
({points}).
  N          the N-th play of `list`
  list       the legal plays, numbered
  hint       what the strongest bot would play, and its 5 best plays ranked
             with their values; hint all: up to 10 (hint N: the N best)
  undo       take back the last part of a play entered in parts
  board      show the board again
  save FILE  write the game to FILE (as --save does) and go on
{resign}
  quit, exit end the game here (saved to --save FILE when given)
  help       this text
A play can be entered in parts ({parts}): the board shows it as it is
built, and a complete play built in parts is played once confirmed with ok."""
#: the plays the help shows, by the length of the route (`[board] points`): (examples, parts)
HELP_EXAMPLES = {
    24: ("24/18 13/11, 24/18(2), 8/2*/1, bar/22, 6/off", "24/18, then 13/11"),
    18: ("18/12 14/11, 18/12(2), 8/2*/1, bar/16, 6/off", "18/12, then 14/11"),
    12: ("12/6 12/7, 12/8(2), 8/2*/1, bar/10, 3/off", "12/6, then 12/7"),
}


#: how many answers `hint` ranks, and the most `hint all` does
HINT_TOP = 5
HINT_ALL = 10


def hint_count(low: str) -> int | None:
    """How many answers a `hint` entry (lower case) asks to see ranked: `hint` the
    `HINT_TOP` best, `hint all` up to `HINT_ALL`, `hint N` the N best; None for anything
    else."""
    words = low.split()
    if words == ["hint"]:
        return HINT_TOP
    if len(words) == 2 and words[0] == "hint":
        if words[1] == "all":
            return HINT_ALL
        if words[1].isdigit() and int(words[1]) >= 1:
            return int(words[1])
    return None


def candidate_lines(r: Any, top: int, number: dict[int, str], who: str,
                    what: str = "plays") -> list[str]:
    """The `top` best answers of a ranking (`players/hint.Ranking`) as lines fitting the
    terminal: a heading, then one answer a line: its number in `list` (`number`, by choice
    index, written `#N`; none for a word), its text, its value in the ranking's unit and what
    it gives up to the best (`best` for the best)."""
    shown = r.choices[:max(top, 1)]
    n = len(r.choices)
    count = f"the {len(shown)} best of {n} {what}" if len(shown) < n else f"all {n} {what}"
    lines = [f"  {count} ({r.unit} for {who}" +
             ("; # is the number in list):" if number else "):")]
    nums = [f"#{number[c.index]}" if c.index in number else "" for c in shown]
    nw = max(len(x) for x in nums)
    values = [f"{c.value:+.3f}" for c in shown]
    vw = max(len(v) for v in values)
    best = shown[0].value
    diffs = ["best"] + [f"-{max(best - c.value, 0.0):.3f}" for c in shown[1:]]
    dw = max(len(d) for d in diffs)
    lead = 4 + (nw + 2 if nw else 0)
    room = terminal_width() - lead - 2 - vw - 2 - dw
    tw = min(max(len(c.text) for c in shown), max(room, 12))
    for num, c, v, d in zip(nums, shown, values, diffs):
        first = f"    {num:>{nw}}  " if nw else "    "
        lines.append(f"{first}{c.text:<{tw}}  {v:>{vw}}  {d:>{dw}}".rstrip())
    return lines


def is_resignation(low: str) -> bool:
    """Whether an entry (lower case) asks to resign: `resign`, `resign LEVEL`, `concede WHAT`
    (`concede` alone, where a decision offers it, answers the decision)."""
    return low in ("resign", "concede") or low.startswith(("resign ", "concede "))


def conceded_level(ladder: Any, word: str) -> str | None:
    """The level of the ladder's resignations `word` names (`resign mark`, `concede partie`;
    the partie, the match and the game of a single game are all the whole play), or None."""
    levels = ladder.resign_levels
    if word in levels:
        return word
    if word in ("partie", "match") and ladder.resign_whole is not None:
        return ladder.resign_whole
    return None


class EndOfInput(Exception):
    """The input ended at a prompt: `decision` is the one left unanswered."""

    def __init__(self, decision: Any):
        super().__init__("end of input")
        self.decision = decision


class Quit(EndOfInput):
    """The person typed `quit` or `exit` at a prompt: the game ends there, as at the end of
    input (`decision` is the one left unanswered)."""


class Session:
    """What the persons at the board of one `tablier play` share: the streams, the notation,
    what to save and where, and the part of the game's log already shown."""

    def __init__(self, variant: Any, notation: Notation, *, inp: TextIO, out: TextIO,
                 save: Callable[[Any, Any, str], None] | None = None,
                 echo: bool | None = None, schools: bool = False):
        self.variant = variant
        self.notation = notation
        self.inp = inp
        self.out = out
        self.console = console_for(out)
        self.save = save
        self.echo = (not getattr(inp, "isatty", lambda: False)()) if echo is None else echo
        self.writer = LogWriter(variant, notation=notation, rule_names=True, forced=True)
        self.shown = 0
        self.humans = 0
        self._relaxed: Any = None
        #: the last `save FILE` made at the prompt: (path, the game's log length then)
        self.saved: tuple[str, int] | None = None
        #: the names of the points were shown under a board (then only on `board`, `help`)
        self.legend_shown = False

    # -- output ---------------------------------------------------------------------------------

    def say(self, text: Any = "") -> None:
        """Write `text`: a string line by line, each wrapped by words to the terminal's width
        (`terminal.fit`); a board (rich `Text`) as it is drawn (it fits already)."""
        if isinstance(text, str):
            # names from a variant file reach the terminal: no control characters (escapes)
            if not text.isprintable():
                text = "".join(c if c.isprintable() or c == "\n" else "?" for c in text)
            width = terminal_width()
            self.out.write("".join(part + "\n" for line in text.split("\n")
                                   for part in fit(line, width)))
        else:
            self.console.print(text, end="")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """One line of input after `prompt` (None at end of input)."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            self.out.flush()
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
            self.out.flush()
        return line.strip()

    def read(self, prompt: str, decision: Any) -> str:
        """One line of input after `prompt`; EndOfInput at the end of input, Quit when the line
        is `quit` or `exit`."""
        line = self.ask(prompt)
        if line is None:
            raise EndOfInput(decision)
        if line.lower() in QUIT_WORDS:
            raise Quit(decision)
        return line

    def goodbye(self, game: Any, save_path: str | None, quitting: bool) -> str:
        """What is said when the game stops at a prompt (end of input, quit): where it is saved,
        never contradicting a `save FILE` just made."""
        why = "the game ends here" if quitting else "input ended"
        resume = "tablier play --resume {0} goes on with it"
        if save_path is not None:
            return f"{why}: the game is saved to {save_path} ({resume.format(save_path)})"
        if self.saved is not None:
            path, at = self.saved
            if at == len(game.log):
                return f"{why}: the game is saved to {path} ({resume.format(path)})"
            return (f"{why}: the game was saved to {path} before the last plays; what was "
                    f"played since is not saved (no --save FILE)")
        return f"{why}: the game is not saved (no --save FILE)"

    def catch_up(self, game: Any) -> None:
        """Show the log since the last look (the opponent's throws as they happened)."""
        new = game.log[self.shown:]
        self.shown = len(game.log)
        for e in new:
            if isinstance(e, ResignDeclined):
                self.say(f"{SIDE_NAMES[e.side]} declines the resignation ({e.level}): play goes on")
        for line in self.writer.feed(new):
            self.say(line)

    def resumed(self, game: Any) -> None:
        """A game taken up from its save: what was played before is not shown again, and the
        log goes on counting its throws."""
        self.writer.feed(game.log)
        self.shown = len(game.log)

    def finish(self, game: Any) -> None:
        """At the end of the play: the rest of the log."""
        self.catch_up(game)
        for line in self.writer.close():
            self.say(line)

    # -- the variant's relaxed move generator (for the reasons of illegal plays) -----------------

    def relaxed(self) -> Any:
        """The movement of the variant without its obligations (both numbers, the higher
        number, the excédant, the file's `forbid` rules): what is physically possible."""
        if self._relaxed is None:
            from interpreter.kernel.movegen import MoveGenerator

            rules = dataclasses.replace(self.variant.move_rules, max_dice=False,
                                        higher_number=False, excedant_filter="none")
            self._relaxed = MoveGenerator(rules)
        return self._relaxed


class HumanPlayer:
    """A person answering the decisions of `side` at the terminal of `session`."""

    kind = "human"
    capabilities: frozenset[str] = frozenset({DOUBLES})

    def __init__(self, side: int, session: Session):
        self.side = side
        self.s = session
        session.humans += 1
        #: what the last decision showed: (the board's key, the throw, the score lines, how
        #: many of the throw's scoring items, -1 before the throw was shown); the next
        #: decision on the same board and throw does not show them again
        self._last: tuple[tuple, int, list[str], int] | None = None
        #: why the cube was not offered before this throw (dead), and the reason last said
        self._dead: str | None = None
        self._dead_said: str | None = None

    # -- the protocol ---------------------------------------------------------------------------

    def answer(self, decision: Any) -> int | str | Resign:
        s = self.s
        game = decision.game
        if decision.kind == "double":
            dead = decision.view.ladder.get("dead")
            if dead:
                # a dead cube is not offered: the throw is made at once (the reason is said
                # with it, once)
                self._dead = dead
                return 0
        s.catch_up(game)
        self.show(decision, compact=True)
        if decision.kind in PLAY_KINDS:
            return self._play(decision)
        if decision.kind == "mark":
            return self._mark(decision)
        return self._word(decision)

    # -- showing --------------------------------------------------------------------------------

    def names(self, side: int | None = None) -> tuple[str, str]:
        """How the player and his opponent are named: `you` against a bot, the colours when two
        persons share the screen."""
        side = self.side if side is None else side
        if self.s.humans > 1:
            return SIDE_NAMES[side], SIDE_NAMES[1 - side]
        return ("you", "the opponent") if side == self.side else ("the opponent", "you")

    def show(self, decision: Any, board: Any = None, before: Any = None,
             compact: bool = False) -> None:
        """The board, the throw and what it scored, then the score it left. `compact` (the
        decisions as they come): what was shown at the decision just before, on the same board
        and throw (the cube before the throw, a go), is not shown again, and the names of the
        points under the board only at the first board (`board` and `help` show them)."""
        s = self.s
        view = decision.view
        game = decision.game
        me = SIDE_NAMES[decision.player]
        shown = view.board if board is None else board
        names = self.names(decision.player)
        score = ladder_lines(view.ladder, names)
        key = (id(game), decision.player, tuple(shown))
        throw = _last_throw(game)
        last = self._last if compact else None
        self._last = None
        if last is None or last[0] != key:
            s.say("")
            s.say(draw_board(s.variant, shown, decision.player, s.notation, before=before,
                             on_roll=game.mover, legend=not (compact and s.legend_shown),
                             choices=decision.kind != "choose"))
            s.legend_shown = True
        said = score if last is None or last[0] != key or last[2] != score else []
        self._last = (key, throw, score, -1)
        if decision.kind == "double":
            for line in said:
                s.say(line)
            s.say(f"{me} to throw")
            self._dead = self._dead_said = None
            return
        mover = game.mover
        if decision.kind == "choose":
            # a choice before the game's first throw: no throw to show yet
            for line in said:
                s.say(line)
            s.say(f"{SIDE_NAMES[decision.player]} chooses before the first throw of the game")
            return
        if decision.kind in BEFORE_THROW:
            # the cube is offered before a throw: the dice on the board are the last throw's
            for line in said:
                s.say(line)
            s.say(f"{SIDE_NAMES[mover]} to throw, and offers the cube")
            return
        # the throw (and the play, at a decision after it), what it scored rule by rule, then
        # the score it leaves; what the decision before showed of this throw is not repeated
        items = this_throw_items(game)
        played = self._played(game, throw)
        entry = game.log[throw] if throw >= 0 else None
        if isinstance(entry, Thrown) and entry.passed:
            # numbers the opponent could not play: no throw of this player's
            thrown = f"{SIDE_NAMES[mover]} plays the passed {entry.passed_text()}" + (
                f": {played}" if played else "")
        else:
            thrown = f"{SIDE_NAMES[mover]} threw {'-'.join(map(str, view.dice))}"
            if played:
                thrown += f" and played {played}"
        again = last is not None and last[1] == throw and last[3] >= 0
        told = last[3] if last is not None and again else 0
        if again:
            s.say(thrown)
        else:
            s.say(thrown + ("" if items else "; it scores nothing before the play"
                            if s.variant.rules.score_roll and not played else ""))
        for line in score_lines(s.variant, items[told:], mover, self.names(mover)):
            s.say("  " + line)
        self._last = (key, throw, score, len(items))
        for line in said:
            s.say(line)
        if self._dead is not None and mover == decision.player:
            if self._dead != self._dead_said:
                s.say(f"(no cube offered: {self._dead})")
                self._dead_said = self._dead
            self._dead = None

    def _played(self, game: Any, throw: int) -> str:
        """The play of the throw that begins at `throw` in the log, as players write it, once it
        is made (a decision after the play: continue, mark, school); "" before."""
        if throw < 0:
            return ""
        mover = game.log[throw].side
        parts = [e.answer for e in game.log[throw + 1:]
                 if isinstance(e, Decided) and e.side == mover and e.kind in ("play", "enter")]
        return " ".join(self.s.notation.log_text(text, mover) for text in parts)

    def _list(self, decision: Any) -> list[tuple[int, str]]:
        """The legal plays as (choice index, text), in the order `tablier moves` sorts them."""
        game = decision.game
        plays = game.legal_plays(decision)
        base = game.choice_base
        order = sorted(range(len(decision.choices)), key=lambda i: sort_key(decision.choices[i]))
        return [(i, self.s.notation.play_text(base, plays[i].paths[0], decision.player))
                for i in order]

    def _print_list(self, decision: Any) -> None:
        view = decision.view
        scored = bool(self.s.variant.rules.score_play)
        for n, (i, text) in enumerate(self._list(decision), 1):
            extra = ""
            if scored:
                items = view.play_items(i)
                if items:
                    extra = "   (" + "; ".join(score_lines(self.s.variant, items, self.side,
                                                           self.names())) + ")"
            self.s.say(f"{n:>3}. {text}{extra}")

    def _hint(self, decision: Any, top: int = HINT_TOP) -> None:
        """What the strongest bot would answer (the best and the next best, as `hint` has
        always said), then the `top` best answers ranked with their values in the game's unit
        and what each gives up to the best; at a cube question, the cube's numbers."""
        from interpreter.players.hint import cube_numbers, cube_verdict, ranking

        r = ranking(decision, notation=self.s.notation, deep=top)
        number: dict[int, str] = {}
        if decision.is_play:
            number = {i: str(n) for n, (i, _t) in enumerate(self._list(decision), 1)}

        def named(c: Any) -> str:
            return f"{number[c.index]}. {c.text}" if c.index in number else c.text
        best = r.choices[0]
        reason = ""
        if len(r.choices) > 1:
            second = r.choices[1]
            diff = round(best.value, 4) - round(second.value, 4)
            reason = (f" — worth {best.value:+.3f} {r.unit}, {diff:.3f} more than the next "
                      f"best, {named(second)}" +
                      ("" if r.exact else " (judged without playing it out)"))
        self.s.say(f"hint ({r.bot}): {named(best)}{reason}")
        if len(r.choices) > 1 and (r.exact or decision.is_play):
            # (words not played out have no values to rank them by)
            for line in candidate_lines(r, top, number, self.names()[0],
                                        "plays" if decision.is_play else "answers"):
                self.s.say(line)
        if decision.kind == "double":
            numbers = cube_numbers(decision, ranked_by=r)
            if numbers:
                self.s.say("  the cube, in " + r.unit + ": " +
                           ", ".join(f"{w} {v:+.3f}" for w, v in numbers) +
                           f"; right: {cube_verdict(numbers)}")

    def _save(self, decision: Any, path: str) -> None:
        s = self.s
        if not path:
            s.say("save: name the file, e.g. save partie.toml")
            return
        if s.save is None:
            s.say("save: this game cannot be saved from here")
            return
        try:
            s.save(decision.game, decision, path)
        except TablierError as exc:
            s.say(f"save: {exc}")
            return
        s.saved = (path, len(decision.game.log))
        s.say(f"saved to {path}; play goes on")

    def _common(self, decision: Any, line: str) -> bool:
        """The commands of every prompt; True when `line` was one of them."""
        low = line.lower()
        if low == "hint" or low.startswith("hint "):
            top = hint_count(low)
            if top is None:
                self.s.say(f"{line.strip()}: hint alone shows the {HINT_TOP} best answers, "
                           f"hint all up to {HINT_ALL}, hint N the N best")
            else:
                self._hint(decision, top)
        elif low == "board":
            self.show(decision)
        elif low == "save" or low.startswith("save "):
            self._save(decision, line[4:].strip())
        else:
            return False
        return True

    def _resign(self, decision: Any, line: str) -> Resign | None:
        """The resignation `line` asks for (`resign [LEVEL]`, `concede partie`), or None when
        it is cancelled or refused. Where the opponent is asked to accept it (backgammon) the
        level is asked when not given; elsewhere (the trictrac parties, a single game) what
        it gives away is said and must be confirmed: `resign` concedes the unit in play (the
        mark, the game), `concede partie` the whole partie (or match)."""
        s = self.s
        ladder = decision.game.ladder
        levels = ladder.resign_levels
        words = line.lower().split()
        verb, arg = words[0], " ".join(words[1:])
        prompt = f"{SIDE_NAMES[decision.player]} resign> "
        if ladder.resign_needs_consent:
            if verb == "concede":
                s.say(f"{line.strip()}: here a game is resigned with resign ("
                      f"{', '.join(levels)}), which the opponent accepts or declines")
                return None
            level = arg
            if len(levels) == 1:
                return Resign(levels[0])
            while level not in levels:
                if level:
                    s.say(f"resign: {level!r} is not one of {', '.join(levels)}")
                s.say("resign: " + "  ".join(f"{n} {w}" for n, w in enumerate(levels, 1))
                      + "  (or cancel)")
                level = s.read(prompt, decision).lower()
                if level in ("cancel", "c", ""):
                    return None
                if level.isdigit() and 1 <= int(level) <= len(levels):
                    level = levels[int(level) - 1]
            return Resign(level)
        if verb == "concede" and not arg:
            s.say(f"{line.strip()}: say what is conceded: " + self._resign_words(ladder))
            return None
        if arg:
            found = conceded_level(ladder, arg)
            if found is None:
                s.say(f"{line.strip()}: here you may concede " + self._resign_words(ladder))
                return None
            level = found
        else:
            level = levels[0]
        terms = ladder.resign_terms(decision.player, level, self.names(decision.player))
        s.say(terms[0].upper() + terms[1:] + ".")
        s.say("Concede it? Nothing is played until you confirm.  1 yes  2 no")
        got = s.read(prompt, decision).lower()
        if got in ("1", "y", "yes"):
            return Resign(level)
        s.say("not conceded: play goes on")
        return None

    @staticmethod
    def _resign_words(ladder: Any) -> str:
        """What may be conceded, as the commands that do it."""
        levels = ladder.resign_levels
        whole = ladder.resign_whole
        if whole is None:
            return f"the {levels[0]} in play (resign)"
        if whole == levels[0]:
            return f"the {'partie' if whole == 'game' else whole} (resign, or concede partie)"
        return f"the {levels[0]} in play (resign) or the {whole} (concede partie)"

    def _help_resign(self, ladder: Any) -> str:
        """The lines of `help` on resigning and conceding."""
        levels = ladder.resign_levels
        whole = ladder.resign_whole
        if ladder.resign_needs_consent:
            return (f"  resign     offer to resign ({', '.join(levels)}): the opponent accepts "
                    f"or declines")
        if whole is None:
            return f"  resign     concede the {levels[0]} in play (asked to confirm)"
        if whole == levels[0]:
            name = "partie" if whole == "game" else whole
            return (f"  resign, concede partie\n"
                    f"             concede the {name} (asked to confirm)")
        also = "" if whole == "partie" else f"; also concede {whole}"
        return (f"  resign     concede the {levels[0]} in play (asked to confirm)\n"
                f"  concede partie\n"
                f"             concede the whole {whole} (asked to confirm{also})")

    def _help_word(self, decision: Any) -> str:
        ladder = decision.game.ladder
        words = "resign" if ladder.resign_needs_consent or ladder.resign_whole is None \
            else "resign, concede partie"
        return (f"Answer with the number or the word of a choice. Also: hint (the best answer "
                f"and the answers ranked with their values; hint all, hint N), board, save "
                f"FILE, {words}, quit, help.")

    # -- word decisions -------------------------------------------------------------------------

    def _word(self, decision: Any) -> int | Resign:
        s = self.s
        view = decision.view
        choices = tuple(decision.choices)
        question = QUESTIONS.get(decision.kind, f"{decision.kind}?")
        if decision.kind == "resign":
            question = question.format(offer=view.resign_offer)
        elif decision.kind == "school":
            pend = decision.game.ladder.school_pending
            question = question.format(who=SIDE_NAMES[pend[0]], claimed=pend[1], due=pend[2])
        elif decision.kind == "choose":
            question = self._choice_question(decision)
        elif decision.kind == "take":
            again = [c for c in choices if c in ("beaver", "raccoon")]
            if again:
                question = f"You are doubled: take, pass, or redouble at once ({again[0]}, " \
                           f"keeping the cube)?"
        prompt = f"{SIDE_NAMES[decision.player]} {decision.kind}> "
        listed = "  " + "  ".join(f"{n} {c}" for n, c in enumerate(choices, 1))
        # a question of several lines (a choice's description): its last line with the choices
        head, _, question = question.rpartition("\n")
        for line in head.split("\n") if head else ():
            for piece in fit(line):
                s.say(piece)
        while True:
            # the question, then its choices on the line before the prompt
            if len(question) + len(listed) <= terminal_width():
                s.say(question + listed)
            else:
                s.say(question)
                s.say(listed)
            line = s.read(prompt, decision)
            low = line.lower()
            if not line and decision.kind in ENTER_MEANS_FIRST:
                return 0
            if low == "help":
                s.say(self._help_word(decision))
                continue
            if is_resignation(low) and decision.kind != "resign" and low not in choices:
                r = self._resign(decision, line)
                if r is not None:
                    return r
                continue
            if self._common(decision, line):
                continue
            if low.isdigit() and 1 <= int(low) <= len(choices):
                return int(low) - 1
            matches = [i for i, c in enumerate(choices) if c.lower() == low]
            if not matches and low in SYNONYMS:
                matches = [i for i, c in enumerate(choices) if c in SYNONYMS[low]][:1]
            if not matches:
                matches = [i for i, c in enumerate(choices) if c.startswith(low)] if low else []
            if len(matches) == 1:
                return matches[0]
            s.say(f"{line!r} is not an answer here: type 1 to {len(choices)} or one of "
                  f"{', '.join(choices)} (help for more)")

    @staticmethod
    def _choice_question(decision: Any) -> str:
        """What a choice before the game's first throw asks (`[turn.choose]`): the file's
        title and description, then a line for the answer (the labels follow it, numbered)."""
        rule = getattr(decision.game, "choosing", None)
        if rule is None:
            return QUESTIONS["choose"]
        about = " ".join(str(rule.description or "").split())
        return f"{rule.title}: {about}\n{QUESTIONS['choose']}" if about else f"{rule.title}?"

    def _mark(self, decision: Any) -> int | Resign:
        """How many points the player marks (schools): the count shown, or what he claims."""
        s = self.s
        due = decision.game.ladder.mark_due
        top = len(decision.choices) - 1
        prompt = f"{SIDE_NAMES[decision.player]} mark> "
        while True:
            s.say(f"Mark your points: the throw gives you {due} (Enter or ok to mark them, or "
                  f"type what you mark, 0 to {top}; a wrong count can be sent to school)")
            line = s.read(prompt, decision)
            low = line.lower()
            if low in ("", "ok", "yes", "y"):
                return due
            if low.isdigit() and 0 <= int(low) <= top:
                return int(low)
            if is_resignation(low):
                r = self._resign(decision, line)
                if r is not None:
                    return r
                continue
            if low == "help":
                s.say("Enter marks the count shown; a number marks that many points.")
                continue
            if self._common(decision, line):
                continue
            s.say(f"{line!r}: mark a number of points from 0 to {top}, or press Enter")

    # -- plays ------------------------------------------------------------------------------------

    def _play(self, decision: Any) -> int | Resign:
        s = self.s
        game = decision.game
        side = decision.player
        base = game.choice_base
        plays = game.legal_plays(decision)
        dice = game.dice
        entry = Entry(self, decision, plays, base, dice)
        while True:
            prompt = f"{SIDE_NAMES[side]} " \
                f"{'confirm' if entry.complete is not None else decision.kind}> "
            line = s.read(prompt, decision)
            low = line.lower()
            if entry.complete is not None:
                if low in ("", "ok", "yes", "y"):
                    return entry.complete
                if low not in ("undo", "help", "board", "list", "hint") \
                        and not low.startswith(("save", "hint ")) and not is_resignation(low):
                    s.say("the play is complete: ok to play it, undo to take back its last part")
                    continue
            if low == "help":
                examples, parts = HELP_EXAMPLES.get(s.notation.points, HELP_EXAMPLES[24])
                s.say(HELP_PLAY.format(points=s.notation.examples(), examples=examples,
                                       parts=parts,
                                       resign=self._help_resign(game.ladder)))
                for legend in named_points_lines(s.notation, side):
                    s.say(legend)
                if getattr(s.variant.geometry, "stacks", False):
                    # pairs stacked at the start (Doblet)
                    s.say("A pair still stacked is unstacked by its point and u: 21u, or "
                          "24u 19u for two.")
            elif low in ("list", "l"):
                self._print_list(decision)
            elif low == "undo":
                if entry.undo():
                    self.show(decision, entry.board, before=base, compact=True)
                    s.say(entry.status())
                else:
                    s.say("undo: nothing entered yet")
            elif low == "board":
                self.show(decision, entry.board, before=base if entry.parts else None)
                if entry.parts:
                    s.say(entry.status())
            elif is_resignation(low):
                r = self._resign(decision, line)
                if r is not None:
                    return r
            elif self._common(decision, line):
                pass
            elif low.isdigit() and not entry.parts:
                listed = self._list(decision)
                n = int(low)
                if 1 <= n <= len(listed):
                    return listed[n - 1][0]
                s.say(f"{line}: there are {len(listed)} legal plays (list shows them)")
            elif not line:
                s.say("type a play, a number from list, or help")
            else:
                done = entry.add(line)
                if done is not None:
                    return done
                if entry.parts:
                    self.show(decision, entry.board, before=base, compact=True)
                    s.say(entry.status())


class Entry:
    """A play being entered, in parts: the steps so far, the board they make, and whether they
    complete a legal play (`complete`: its choice index)."""

    def __init__(self, player: HumanPlayer, decision: Any, plays: list, base: Any,
                 dice: tuple[int, ...]):
        self.p = player
        self.s = player.s
        self.decision = decision
        self.plays = plays
        self.base = base
        self.board = base
        self.dice = dice
        self.side = decision.player
        self.parts: list[list[tuple[int, int]]] = []
        self.complete: int | None = None

    @property
    def steps(self) -> list[tuple[int, int]]:
        return [st for part in self.parts for st in part]

    def text(self, steps: list[tuple[int, int]] | None = None) -> str:
        return self.s.notation.play_text(self.base, self.steps if steps is None else steps,
                                         self.side)

    def status(self) -> str:
        if self.complete is not None:
            return f"{self.text()}: a complete play (ok to play it, undo to change it)"
        if not self.parts:
            return "nothing entered yet"
        return f"entered {self.text()} (more to play; undo takes back the last part)"

    def undo(self) -> bool:
        if not self.parts:
            return False
        self.parts.pop()
        self.complete = None
        self._rebuild()
        return True

    def _rebuild(self) -> None:
        steps = self.steps
        found = self._matching(steps)
        self.board = found[1] if found is not None else self.base
        if steps and found is not None and found[0] is not None:
            self.complete = found[0]

    def add(self, line: str) -> int | None:
        """Add the steps of `line`; the choice index when the line alone names a whole legal
        play, else None (the entry goes on, or the reason it is refused was shown)."""
        s = self.s
        marked: list[int] = []
        try:
            new = s.notation.parse(line, self.side, marked)
        except NotationError as exc:
            s.say(str(exc))
            return None
        # a wrong hit mark is the last fault named: the moves' own faults come first
        stray = self._stray_hit(new, marked)
        if not new and self.parts:
            s.say(f"{line!r} adds nothing to the play")
            return None
        alternatives = [new]
        expanded = _expanded(self.s.variant, new, self.dice, self.board)
        if expanded != new:
            alternatives.append(expanded)
        for alt in alternatives:
            steps = self.steps + alt
            found = self._matching(steps)
            if found is None:
                continue
            if stray is not None:
                s.say(f"{line.strip()}: {stray}")
                return None
            index, board = found
            if index is not None and not self.parts:
                return index                # a whole play typed at once: played
            self.parts.append(alt)
            self.board = board
            self.complete = index
            return None
        s.say(explain(self.s, self.decision, self.steps + new, self.base, self.dice, line,
                      self.parts, stray))
        return None

    def _stray_hit(self, new: list[tuple[int, int]], marked: list[int]) -> str | None:
        """Why a `*` of the entry is wrong (nothing of the opponent's is hit there), or None.
        A `*` is optional where a blot is hit, and refused where none is."""
        board = self.board
        n = self.s.notation
        geometry = self.s.variant.geometry
        if getattr(geometry, "wide", False):
            # a board of 36 points: the marks name pips, the steps slots
            return self._stray_hit_wide(new, marked, geometry)
        for p in marked:
            if not any(b == p for _a, b in new) or not 1 <= p <= 24:
                return f"the '*' after {n.label(p, self.side)} marks no move's landing"
            if board[p] >= 0:
                return (f"nothing is hit on {n.described(p, self.side)}: no checker of the "
                        f"opponent's stands there (a '*' marks a hit)")
        return None

    def _stray_hit_wide(self, new: list[tuple[int, int]], marked: list[int],
                        geometry: Any) -> str | None:
        n = self.s.notation
        for p in marked:
            slot = geometry.slot(p) if 1 <= p <= geometry.points else -1
            if not any(b == slot for _a, b in new):
                return f"the '*' after {n.label(p, self.side)} marks no move's landing"
            if self.board[slot] >= 0:
                return (f"nothing is hit on {n.label(p, self.side)}: no checker of the "
                        f"opponent's stands there (a '*' marks a hit)")
        return None

    def _matching(self, steps: list[tuple[int, int]]) -> tuple[int | None, Any] | None:
        """(choice index if `steps` are a whole legal play, board after them) or None when they
        begin no legal play."""
        want = Counter(steps)
        if not steps:
            for i, p in enumerate(self.plays):
                if any(not path for path in p.paths):
                    return i, p.board
            return None
        gen = self.s.variant.generator
        partial_board = None
        for i, p in enumerate(self.plays):
            for path in p.paths:
                pairs = Counter((st[0], st[1]) for st in path)
                if pairs == want:
                    return i, p.board
                if partial_board is None and not want - pairs:
                    partial_board = _apply(gen, self.base, path, steps)
        if partial_board is not None:
            return None, partial_board
        return None


def _expanded(variant: Any, steps: list[tuple[int, int]], dice: tuple[int, ...],
              board: Any) -> list[tuple[int, int]]:
    """`expand_steps` (a step over several dice split into single moves) where a checker on
    the bar enters as from the pip before the route's first: 25 on a route of 24 points, 13 on
    one of 12 (`bar/4` with 3-6 is bar/10 10/4 there)."""
    n = getattr(variant.move_rules, "points", 24)
    geometry = getattr(variant, "geometry", None)
    if getattr(geometry, "wide", False):
        return _expanded_wide(geometry, steps, dice, board)
    if n == 24 or not any(a == BAR for a, _b in steps):
        return expand_steps(steps, dice, board)
    entry = n + 1
    out = expand_steps([(entry if a == BAR else a, b) for a, b in steps], dice, board)
    return [(BAR if a == entry else a, b) for a, b in out]


def _expanded_wide(geometry: Any, steps: list[tuple[int, int]], dice: tuple[int, ...],
                   board: Any) -> list[tuple[int, int]]:
    """`_expanded` on a board of 36 points, whose steps name slots: split in its pips (a man
    on the bar or waiting to enter comes in as from pip 37), then named by slots again."""
    entry = geometry.points + 1
    code, slot = geometry.code, geometry.slot_of_code
    pips = [0] * (entry + 1)
    for p in range(1, entry):
        pips[p] = board[geometry.slot(p)]
    sources = [a for a, _b in steps if code(a) > geometry.points]
    written = [(min(code(a), entry), code(b)) for a, b in steps]
    out = []
    for a, b in expand_steps(written, dice, pips, unentered=-1):
        # each man coming in keeps the way he came: the bar, or among those waiting
        out.append((sources.pop(0) if a == entry and sources else slot(a), slot(b)))
    return out


def _apply(gen: Any, base: Any, path: Any, steps: list[tuple[int, int]]) -> Any:
    """The board after `steps`, each played as the matching step of the legal `path` (which
    carries what it hits); None when they cannot be played in the order entered."""
    pool = list(path)
    chosen = []
    board = list(base)
    for a, b in steps:
        k = next((j for j, st in enumerate(pool) if (st[0], st[1]) == (a, b)), None)
        if k is None or board[a] <= 0:
            return None
        st = pool.pop(k)
        chosen.append(st)
        board = list(gen.apply(tuple(board), [st]))
    return tuple(board)


def _last_throw(game: Any) -> int:
    """Where the throw in progress begins in the game's log (-1: none yet)."""
    log = game.log
    i = len(log) - 1
    while i >= 0 and not isinstance(log[i], Thrown):
        i -= 1
    return i


def this_throw_items(game: Any) -> list[tuple[str, str, int, int]]:
    """The scoring items of the throw in progress (rule, "mover" | "opponent", points, ways),
    from the game's log."""
    log = game.log
    i = len(log) - 1
    while i >= 0 and not isinstance(log[i], Thrown):
        i -= 1
    if i < 0:
        return []
    mover = log[i].side
    return [(e.rule, "mover" if e.side == mover else "opponent", e.points, e.ways)
            for e in log[i + 1:] if isinstance(e, Scored)]


# -- why an entry is no legal play ----------------------------------------------------------------

def _explain_wide(session: Session, steps: list[tuple[int, int]], base: Any,
                  dice: tuple[int, ...], line: str, parts: list, stray: str | None,
                  side: int) -> str:
    """`explain` on a board of 36 points, whose steps name slots: each move's own faults (no
    man of the player's where it starts, a closed point, a distance no number makes), read in
    its pips, else the play is no legal one."""
    n = session.notation
    geometry = session.variant.geometry
    code = geometry.code
    entry = geometry.points + 1
    block = session.variant.move_rules.block
    shown = " ".join(n.play_text(base, part, side) for part in parts) + \
        (" " if parts else "") + line.strip()
    roll = "-".join(map(str, dice))
    board = list(base)
    for a, b in steps:
        ca, cb = code(a), code(b)
        text = f"{n.label(ca, side)}/{n.label(cb, side)}"
        if board[a] <= 0:
            return f"{text}: no checker of yours is on {n.label(ca, side)}"
        if b and board[b] <= -block:
            return f"{text}: {n.label(cb, side)} is closed (the opponent holds it)"
        dist = min(ca, entry) - cb
        if dist not in dice and not (cb == 0 and any(d > dist for d in dice)) and \
                not any(x + y == dist or x + y + z == dist for x, y, z in
                        ((dice[0], dice[1], 0), (dice[0], dice[2], 0), (dice[1], dice[2], 0),
                         (dice[0], dice[1], dice[2]))):
            return f"{text}: no checker of yours can move {dist} with {roll}"
        board[a] -= 1
        if b:
            board[b] = max(board[b], 0) + 1
    return f"{shown}: {stray or f'not a legal play with {roll} (list shows them)'}"


def explain(session: Session, decision: Any, steps: list[tuple[int, int]], base: Any,
            dice: tuple[int, ...], line: str, parts: list, stray: str | None = None) -> str:
    """The reason the steps entered (`steps`, the parts before included) are no legal play nor
    the beginning of one: the first real fault, looking at each move in turn (no checker of
    the player's on its point, a checker on the bar that must enter first, a closed point, a
    number not in the throw, a pinned checker), then the rules of the file (`forbid`, the
    obligations), and only then `stray`, a `*` where nothing is hit."""
    n = session.notation
    side = decision.player
    variant = session.variant
    if getattr(variant.geometry, "wide", False):
        return _explain_wide(session, steps, base, dice, line, parts, stray, side)
    d1, d2 = dice[0], dice[1]
    #: the third die of a three-dice throw (0: none)
    d3 = dice[2] if len(dice) == 3 else 0
    shown = " ".join(n.play_text(base, part, side) for part in parts) + \
        (" " if parts else "") + line.strip()
    roll = "-".join(map(str, dice))

    def step_text(a: int, b: int) -> str:
        return f"{n.label(a, side)}/{n.label(b, side)}"

    # 1. each number used once (a doublet: as many moves as it gives)
    avail = Counter(dice) if d3 else Counter(
        {d1: variant.move_rules.doublet_moves} if d1 == d2 else {d1: 1, d2: 1})
    used: Counter = Counter()
    board = list(base)
    mr = variant.move_rules
    after = " (after the parts entered)" if parts else ""
    # the checkers entering first, in whatever order the steps were typed
    for a, b in sorted(steps, key=lambda st: st[0] not in (BAR, UNENTERED)):
        # a man waiting off the board enters as from pip `entry_pip`, one on the bar as from
        # the pip before the route's first (25 on a route of 24 points)
        dist = _source(mr, a) - b
        # the faults of one move, in the order a player looks for them
        reason = _no_checker(board, a, n, side) or _must_enter(variant, board, a)
        if reason is not None:
            return f"{step_text(a, b)}: {reason}" + after
        if 1 <= b <= 24 and board[b] <= -mr.block:
            held = -board[b]
            return (f"{step_text(a, b)}: {n.described(b, side)} is closed (the opponent holds "
                    f"it with {held} checker{'s' if held != 1 else ''})") + after
        die = dist if dist in avail else None
        if die is None and b == 0:
            higher = [d for d in sorted(avail) if d > dist and used[d] < avail[d]]
            die = higher[0] if higher else None
        if die is None:
            closed = _closed_ways(board, a, dist, avail, mr.block)
            if closed:
                return (f"{step_text(a, b)}: every way there stops on a closed point ("
                        + ", ".join(n.described(p, side) for p in closed) + ")") + after
            return (f"{step_text(a, b)}: no checker of yours can move {dist} from "
                    f"{n.label(a, side)} with {roll}")
        reason = _pinned(board, a, n, side)
        if reason is not None:
            return f"{step_text(a, b)}: {reason}" + after
        used[die] += 1
        if used[die] > avail[die]:
            times = "twice" if avail[die] == 1 else f"{used[die]} times ({roll} gives " \
                                                    f"{avail[die]} moves)"
            return f"{shown}: the {die} is used {times}"
        board[a] -= 1
        if b:
            board[b] = max(board[b], 0) + 1
    # 2. physically possible, but not allowed: an obligation or a rule of the file
    want = Counter(steps)
    relaxed, _ = session.relaxed().throw_plays(base, d1, d2, d3)
    in_relaxed = [(p, path) for p in relaxed for path in p.paths
                  if Counter((s[0], s[1]) for s in path) == want]
    legal_len = max((len(path) for p in decision.game.legal_plays(decision) for path in p.paths),
                    default=0)
    if in_relaxed:
        play, path = in_relaxed[0]
        rules = variant.rules
        for rule_id, fn in rules.forbid:
            try:
                if fn(base, play.board, path):
                    return f"{shown}: {_rule_words(variant, rule_id)}"
            except Exception:   # noqa: BLE001 - a reason only; the rules decided legality
                continue
        if len(steps) < legal_len:
            if d3:
                return (f"{shown}: {legal_len} of the numbers can be played, and as many as "
                        f"can be must be")
            if d1 == d2:
                return (f"{shown}: {legal_len} moves of the {d1} can be played, and as many as "
                        f"can be must be")
            if legal_len == 2:
                return f"{shown}: both numbers can be played, so both must be"
        if len(steps) == 1 and d1 != d2 and variant.move_rules.higher_number and not d3:
            hi = max(d1, d2)
            if path[0].die != hi:
                return (f"{shown}: only one number can be played, and then the higher, "
                        f"{hi}, must be")
        full, _ = variant.generator.throw_plays(base, d1, d2, d3)
        boards = {p.board for p in full}
        if play.board not in boards:
            return (f"{shown}: a number higher than needed bears a checker off only when it "
                    f"cannot be played inside, and only the farthest checker")
        rule_id = _dropping_prefer(variant, decision, base, dice, play.board, full)
        if rule_id is not None:
            return f"{shown}: {_rule_words(variant, rule_id)}"
        return f"{shown}: {stray or f'not a legal play with {roll} (list shows them)'}"
    if steps:
        corner = variant.move_rules.own_corner
        if corner is not None and board[corner] == 1:
            return (f"{shown}: your corner ({n.described(corner, side)}) is taken and left by "
                    f"two checkers at once")
        # the first step no way of playing can make
        prefix: list[tuple[int, int]] = []
        for a, b in steps:
            prefix.append((a, b))
            pw = Counter(prefix)
            if not any(not pw - Counter((s[0], s[1]) for s in path)
                       for p in relaxed for path in p.paths):
                return (f"{step_text(a, b)}: no checker of yours can move "
                        f"{_source(variant.move_rules, a) - b} from "
                        f"{n.label(a, side)} with {roll}"
                        + (" after the rest of the play" if len(prefix) > 1 else ""))
    return f"{shown}: {stray or f'not a legal play with {roll} (list shows them)'}"


def _source(mr: Any, a: int) -> int:
    """The pip a step from `a` is counted from: a man waiting off the board enters as from
    pip `entry_pip`, one on the bar as from the pip before the route's first (25 on a route
    of 24 points, 13 on one of 12)."""
    if a == UNENTERED:
        return mr.entry_pip
    if a == BAR:
        return getattr(mr, "points", 24) + 1
    return a


def _closed_ways(board: list, a: int, dist: int, avail: Counter, block: int) -> list[int]:
    """Where a move of `dist` from `a` made of both numbers (or of several moves of a doublet)
    would stop on the way, when every such stop is closed: the closed points, else []."""
    dice = sorted(avail)
    if len(dice) == 2 and dist == dice[0] + dice[1]:
        stops = [[a - dice[0]], [a - dice[1]]]
    elif len(dice) == 1 and dist % dice[0] == 0 and 1 < dist // dice[0] <= avail[dice[0]]:
        d = dice[0]
        stops = [[a - d * k for k in range(1, dist // d)]]
    else:
        return []

    def closed(p: int) -> bool:
        return 1 <= p <= 24 and board[p] <= -block

    if all(any(closed(p) for p in way) for way in stops):
        return sorted({next(p for p in way if closed(p)) for way in stops}, reverse=True)
    return []


def _pinned_here(board: list, a: int) -> bool:
    """Whether a checker of the mover's lies pinned on `a` (under the opponent's)."""
    pins = board[PINS] if len(board) > PINS else 0
    return 1 <= a <= 24 and bool(pins >> a & 1) and board[a] < 0


def _no_checker(board: list, a: int, n: Notation, side: int) -> str | None:
    """Why the mover has no checker to move from `a` (none there, none on the bar, none
    waiting off the board), or None. A pinned checker is there (`_pinned` says why it stays)."""
    if a == BAR:
        return "no checker of yours is on the bar" if board[BAR] <= 0 else None
    if a == UNENTERED:
        return ("no checker of yours is waiting to enter"
                if len(board) <= POOL or board[POOL] <= 0 else None)
    if board[a] <= 0 and not _pinned_here(board, a):
        return f"no checker of yours on {n.described(a, side)}"
    return None


def _must_enter(variant: Any, board: list, a: int) -> str | None:
    """Why a checker of the mover's on the bar (or waiting off the board) must enter before
    the one on `a` moves, or None."""
    mr = variant.move_rules
    if a != BAR and board[BAR] > 0 and mr.enter_first and getattr(mr, "enter", "bar") == "bar":
        waiting = board[BAR]
        return (f"a checker on the bar must enter first ({waiting} of yours "
                f"{'is' if waiting == 1 else 'are'} on the bar: bar/...)")
    if a != UNENTERED and len(board) > POOL and board[POOL] > 0 and mr.unentered_first:
        return (f"your checkers waiting off the board must all enter first ({board[POOL]} "
                f"waiting: in/...)")
    return None


def _pinned(board: list, a: int, n: Notation, side: int) -> str | None:
    """Why the mover's checker on `a` cannot move because it is pinned, or None."""
    if _pinned_here(board, a):
        return (f"your checker on {n.described(a, side)} is pinned under the opponent's and "
                f"cannot move until it is freed")
    return None


def _rule_words(variant: Any, rule_id: str) -> str:
    rule = variant.model.rules.get(rule_id)
    if rule is None:
        return f"rule {rule_id!r} forbids it"
    words = " ".join((rule.description or "").split())
    return f"{rule.name}: {words}" if words else rule.name


def _dropping_prefer(variant: Any, decision: Any, base: Any, dice: tuple[int, ...],
                     target: Any, full: list) -> str | None:
    """The first play preference (obligation) of the file that drops the play ending on
    `target` from the legal plays."""
    from interpreter.dsl import RollContext

    rules = variant.rules
    if not rules.prefer:
        return None
    game = decision.game
    d1, d2 = dice[0], dice[1]
    ctx = RollContext(partial(variant.generator.throw_plays, base, d1, d2, *dice[2:]),
                      setup=game.setup)
    rolls = game.rolls[game.mover]
    plays = list(ctx.plays)
    for rule_id, mode, fn in rules.prefer:
        if len(plays) <= 1:
            break
        try:
            values = [fn(base, p[0], p, d1, d2, rolls, ctx) for p in plays]
        except Exception:   # noqa: BLE001 - a reason only
            return None
        if mode == "keep":
            kept = [p for p, v in zip(plays, values) if v] or plays
        else:
            best = min(values) if mode == "min" else max(values)
            kept = [p for p, v in zip(plays, values) if v == best]
        if any(p[0] == target for p in plays) and not any(p[0] == target for p in kept):
            return rule_id
        plays = kept
    return None
