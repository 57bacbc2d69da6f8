"""The worked studies of docs/compare.md ("A worked study") reproduce from their printed commands.

Each test runs one study's command exactly as the guide prints it (with `--json`), and checks
every figure the guide quotes from it: the figure is read from the JSON at its path, formatted
as the guide prints it (an interval as the text report does, `value [lo, hi]`, a p-value to two
significant digits, a count with its thousands separated, the minus sign as U+2212), and that
text must be the one listed here and must appear in the study's part of the page. A run that
gives another figure, or a page that quotes another, fails. The commands play from 300 to
1,000 games each (about four minutes of CPU in all), so every test here is slow; the runs are
shared between the tests of one process.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "compare.md"
MINUS = "\u2212"

JACOBY_RANDOM = ("tablier compare backgammon backgammon --set 2:ladder.jacoby=true --paired "
                 "--games 1000 --seed 1 --jobs 2")
JACOBY_LEARNED = ("tablier compare backgammon backgammon --set 2:ladder.jacoby=true --paired "
                  "--white learned --black learned --games 300 --seed 1 --jobs 2")
JACOBY_UNPAIRED = ("tablier compare backgammon backgammon --set 2:ladder.jacoby=true "
                   "--games 1000 --seed 1 --jobs 2")
SORTIE_UNPAIRED = ("tablier compare triktrak --vary sortie_obligation=compulsory,optional "
                   "--games 300 --seed 1 --jobs 2")
SORTIE_PAIRED = ("tablier compare triktrak --vary sortie_obligation=compulsory,optional "
                 "--paired --games 300 --seed 1 --jobs 2")
ECRIRE = ("tablier compare triktrak trictrac-ecrire --set trictrac-ecrire:ladder.marks=6 "
          "--white greedy --black greedy --games 500 --seed 1 --jobs 2")
PLAYERS = ("tablier compare triktrak --vary players=random,greedy,learned --paired "
           "--games 500 --seed 1 --jobs 2")
COMMANDS = (JACOBY_RANDOM, JACOBY_LEARNED, JACOBY_UNPAIRED, SORTIE_UNPAIRED, SORTIE_PAIRED,
            ECRIRE, PLAYERS)

JACOBY = "The Jacoby rule in the money game, paired"
PAIRING = "What pairing buys: an option of the Dutch triktrak"
AGAINST = "The Dutch triktrak against the French partie à écrire"
THREE = "The Dutch triktrak under three kinds of player"
HOW_MANY = "How many games each question needs"


# -- the page --------------------------------------------------------------------------------

def _study_text() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("\n## A worked study\n")
    return text[start:text.index("\n## ", start + 1)]


def _section(title: str) -> str:
    """The part of "A worked study" under `### title`, its whitespace folded (the page wraps its
    lines anywhere)."""
    text = _study_text()
    start = text.index(f"\n### {title}\n")
    end = text.find("\n### ", start + 1)
    return " ".join(text[start:end if end >= 0 else len(text)].split())


# -- the runs --------------------------------------------------------------------------------

_RUNS: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="session")
def run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, Any]]:
    """Runs a command of the guide as printed, with `--json`, in a folder of its own (the
    built-in variants need no file), once per test process."""
    def play(command: str) -> dict[str, Any]:
        if command not in _RUNS:
            words = shlex.split(command)
            assert words[0] == "tablier"
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            done = subprocess.run([sys.executable, "-m", "interpreter", *words[1:], "--json"],
                                  cwd=tmp_path_factory.mktemp("study"), env=env,
                                  capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, f"`{command}` exits {done.returncode}\n{done.stderr}"
            _RUNS[command] = json.loads(done.stdout)
        return _RUNS[command]
    return play


# -- figures as the guide prints them --------------------------------------------------------

def _num(x: float, decimals: int = 4) -> str:
    """A number as the text report writes it (interpreter/compare/report.py), to `decimals`
    places, trailing zeros dropped."""
    if isinstance(x, int) or float(x).is_integer() and abs(x) >= 1:
        text = f"{x:,.0f}" if abs(x) >= 1000 else f"{x:g}"
    elif abs(x) < 1e-3:
        text = f"{x:.{decimals}g}"
    else:
        text = f"{x:.{decimals}f}".rstrip("0").rstrip(".")
    return text.replace("-", MINUS)


def _cell(value: float, ci: Sequence[float], decimals: int = 4) -> str:
    return f"{_num(value, decimals)} [{_num(ci[0], decimals)}, {_num(ci[1], decimals)}]"


def _p(p: float) -> str:
    return f"{p:.2g}".replace("-", MINUS)


def _get(result: dict[str, Any], path: str) -> Any:
    """The value at `path` in a report's JSON: keys and list indices separated by "/";
    `diff/FIGURE/ARM/...` is the difference of FIGURE for the arm of index ARM (from 0),
    `omnibus/FIGURE/...` the omnibus test of FIGURE."""
    parts = path.split("/")
    obj: Any = result
    if parts[0] == "diff":
        obj = next(d for d in result["differences"]
                   if d["figure"] == parts[1] and d["arm"] == int(parts[2]))
        parts = parts[3:]
    elif parts[0] == "omnibus":
        obj = next(o for o in result["omnibus"] if o["figure"] == parts[1])
        parts = parts[2:]
    for part in parts:
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def _render(result: dict[str, Any], path: str, how: str) -> str:
    """The figure at `path` as the guide prints it: `cell` a value (or a mean, or a difference)
    with its interval to 4 places, `cell2` to 2 (lengths in throws), `share` a rule's share with
    its interval, `num`/`num2` a plain number, `p` a p-value, `int` a count, `pct` a share in
    whole percent, `str` a text."""
    obj = _get(result, path)
    if how in ("cell", "cell2"):
        value = obj["difference"] if "difference" in obj else obj.get("mean", obj.get("value"))
        return _cell(value, obj["ci"], 2 if how == "cell2" else 4)
    if how == "share":
        return _cell(obj["share"], obj["share_ci"])
    if how in ("num", "num2"):
        return _num(obj, 2 if how == "num2" else 4)
    if how == "p":
        return _p(obj)
    if how == "int":
        return f"{obj:,}"
    if how == "pct":
        return f"{round(100 * obj)} %"
    if how == "str":
        return str(obj)
    raise ValueError(how)


def _appears(shown: str, printed: str) -> bool:
    """`shown` is in `printed` as a whole figure (not the start or end of a longer number)."""
    return re.search(rf"(?<![\d.,]){re.escape(shown)}(?![\d])", printed) is not None


def _check(result: dict[str, Any], title: str,
           figures: Sequence[tuple[str, str, str]]) -> None:
    """Each (path, how, printed): the run's figure at `path`, printed `how`, is in `printed`,
    and `printed` is in the study's text."""
    text = _section(title)
    wrong = []
    for path, how, printed in figures:
        shown = _render(result, path, how)
        if not _appears(shown, printed):
            wrong.append(f"{path}: the run gives {shown}, the guide is said to print {printed!r}")
        elif " ".join(printed.split()) not in text:
            wrong.append(f"{path}: {printed!r} is not in the guide's {title!r}")
    assert not wrong, "\n".join(wrong)


def _printed(command: str, title: str) -> None:
    assert command in _section(title), f"`{command}` is not printed in {title!r}"


# -- the studies -----------------------------------------------------------------------------

@pytest.mark.slow
def test_jacoby_rule_paired_random_players(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(JACOBY_RANDOM, JACOBY)
    result = run(JACOBY_RANDOM)
    # the games are the same in both arms: every difference but the worth is exactly 0
    for d in result["differences"]:
        if d["figure"] != "value_points":
            assert d["difference"] == 0 and d["ci"] == [0, 0], d
    _check(result, JACOBY, [
        ("arms/0/length_throws/mean", "num", "the same lengths (96.378 throws)"),
        ("arms/1/length_throws/mean", "num", "the same lengths (96.378 throws)"),
        ("arms/0/ladder/gammons_rate", "cell", "the same gammons (0.352 [0.323, 0.3821]"),
        ("arms/1/ladder/gammons_rate", "cell", "the same gammons (0.352 [0.323, 0.3821]"),
        ("arms/0/value_points", "cell", "**1.886 [1.8366, 1.9354]** points"),
        ("arms/1/value_points", "cell", "to **1 [1, 1]**"),
        ("diff/value_points/1", "cell", "a difference of **−0.886 [−0.9355, −0.8365]**"),
        ("diff/value_points/1/p_value", "p", "paired t, p = 8.9e−177"),
        ("tests", "int", "16 tests in the report"),
    ])
    assert result["families"]["points"]["tests"] == 1
    assert _get(result, "diff/value_points/1/p_adjusted") == _get(result,
                                                                  "diff/value_points/1/p_value")


@pytest.mark.slow
def test_jacoby_rule_paired_learned_players(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(JACOBY_LEARNED, JACOBY)
    result = run(JACOBY_LEARNED)
    # the report says the network was trained without the rule
    assert result["arms"][1]["differs"] == ["ladder.jacoby"]
    assert "ladder.jacoby" in result["caveat"]
    _check(result, JACOBY, [
        ("arms/0/cube_levels/1", "cell", "**0.2733 [0.226, 0.3264]**"),
        ("arms/1/cube_levels/1", "cell", "**0.08 [0.0543, 0.1163]** with it"),
        ("diff/cube_levels.1/1", "cell", "a difference of −0.1933 [−0.2486, −0.1381]"),
        ("diff/cube_levels.1/1/p_adjusted", "p", "Holm-adjusted p = 5.8e−10"),
        ("families/proportion/tests", "int", "in the family of 14 proportions"),
        ("arms/0/values/pass", "cell", "0.44 [0.3849, 0.4966] of them without the rule"),
        ("arms/1/values/pass", "cell", "0.2933 [0.2447, 0.3472] with it (Holm 9.7e−05)"),
        ("diff/values.pass/1/p_adjusted", "p", "0.2933 [0.2447, 0.3472] with it (Holm 9.7e−05)"),
        ("arms/0/length_throws", "cell2", "39.12 [36.74, 41.51] throws"),
        ("arms/1/length_throws", "cell2", "against 46.26 [44.28, 48.25]"),
        ("diff/length_throws/1", "cell2", "(7.14 [4.75, 9.53] more; p = 1.1e−08"),
        ("diff/length_throws/1/p_value", "p", "(7.14 [4.75, 9.53] more; p = 1.1e−08"),
        ("diff/length_throws/1/p_adjusted", "p", "(7.14 [4.75, 9.53] more; p = 1.1e−08"),
        ("arms/0/values/gammon", "cell", "ended in a gammon, 0.1133 [0.0822, 0.1542]"),
        ("arms/1/values/gammon", "cell", "against 0.16 [0.1229, 0.2057]"),
        ("diff/values.gammon/1/p_value", "p", "(p = 0.049, but 0.44 after Holm"),
        ("diff/values.gammon/1/p_adjusted", "p", "(p = 0.049, but 0.44 after Holm"),
        ("arms/0/value_points", "cell", "from **2.42 [2.2173, 2.6227]** points"),
        ("arms/1/value_points", "cell", "**2.7667 [2.6038, 2.9296]**"),
        ("diff/value_points/1", "cell", "a difference of **0.3467 [0.1427, 0.5507]**"),
        ("diff/value_points/1/p_value", "p", "p = 0.00093, alone in its family"),
        ("diff/value_points/1/p_adjusted", "p", "p = 0.00093, alone in its family"),
        ("tests", "int", "23 tests in the report"),
        ("diff/value_points/1/games_needed", "int", "would take 21,147 games of each"),
    ])
    for family in ("points", "throws"):     # "alone in its family"
        assert result["families"][family]["tests"] == 1
    # the effect is positive: its interval lies above 0
    assert _get(result, "diff/value_points/1/ci")[0] > 0


@pytest.mark.slow
def test_jacoby_rule_unpaired(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(JACOBY_UNPAIRED, JACOBY)
    result = run(JACOBY_UNPAIRED)
    assert [a["seeds"] for a in result["arms"]] == [[1], [2]]
    _check(result, JACOBY, [
        ("diff/value_points/1", "cell", "The difference of worth is the same, −0.886 [−0.9355, "
                                        "−0.8365]"),
        ("arms/1/first_player_win_rate", "cell", "won **0.532 [0.501, 0.5627]** of his games"),
        ("arms/1/first_player_win_rate/p_value", "p", "**p = 0.046** against 1/2"),
        ("arms/1/first_player_win_rate/p_adjusted", "p", "**0.37 after Holm**"),
        ("families/proportion/tests", "int", "within the family of 8 proportions"),
        ("tests", "int", "(of the report's 16 tests)"),
        ("arms/0/first_player_win_rate/value", "num", "the first arm's 0.516 has p = 0.33"),
        ("arms/0/first_player_win_rate/p_value", "p", "the first arm's 0.516 has p = 0.33"),
        ("diff/first_player_win_rate/1", "cell", "differ by 0.016 [−0.0277, 0.0596] (p = 0.47)"),
        ("diff/first_player_win_rate/1/p_value", "p", "[−0.0277, 0.0596] (p = 0.47)"),
    ])
    # the same difference of worth as paired: the same first arm, a worth that never varies
    assert _get(result, "arms/1/value_points/sd") == 0


@pytest.mark.slow
def test_sortie_option_unpaired(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(SORTIE_UNPAIRED, PAIRING)
    result = run(SORTIE_UNPAIRED)
    _check(result, PAIRING, [
        ("arms/1/length_throws", "cell2", "lasted 122.78 [118.97, 126.59] throws"),
        ("arms/0/length_throws", "cell2", "against 126.58 [122.56, 130.6], a difference"),
        ("diff/length_throws/1", "cell2", "a difference of **−3.8 [−9.35, 1.75]**"),
        ("diff/length_throws/1/p_value", "p", "(Welch, p = 0.18, alone in its family"),
        ("diff/length_throws/1/p_adjusted", "p", "(Welch, p = 0.18, alone in its family"),
        ("tests", "int", "46 tests in the report"),
        ("arms/1/first_player_win_rate/value", "num", "won 0.53 of them against 0.4967"),
        ("arms/0/first_player_win_rate/value", "num", "won 0.53 of them against 0.4967"),
        ("diff/length_throws/1/games_needed", "int", "5,745 games of each"),
    ])
    assert result["families"]["throws"]["tests"] == 1
    for arm in result["arms"]:
        for rule in ("sortie", "sortie-played"):
            assert arm["rules"][rule]["fired"] == {"white": 0, "black": 0}


@pytest.mark.slow
def test_sortie_option_paired(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(SORTIE_PAIRED, PAIRING)
    result = run(SORTIE_PAIRED)
    # identical in both arms: every difference 0, the interval [0, 0], p = 1
    assert result["differences"]
    for d in result["differences"]:
        assert d["difference"] == 0 and d["ci"] == [0, 0] and d["p"] == 1, d
    for arm in result["arms"]:
        for rule in ("sortie", "sortie-played"):
            assert arm["rules"][rule]["fired"] == {"white": 0, "black": 0}
    _check(result, PAIRING, [
        ("arms/0/length_throws", "cell2", "both 126.58 [122.56, 130.6] throws long"),
        ("arms/1/length_throws", "cell2", "both 126.58 [122.56, 130.6] throws long"),
        ("arms/0/games", "int", "the same 300 parties were **identical in both arms**"),
    ])


#: the figures of the triktrak's arm in the table of the study against à écrire, which the
#: greedy arm of the three kinds of player repeats
TRIKTRAK_GREEDY = [
    ("first_player_win_rate", "cell", "0.54 [0.4962, 0.5832]"),
    ("length_throws", "cell2", "245.12 [238.72, 251.51]"),
    ("branching_factor", "cell", "15.1866 [15.0611, 15.3122]"),
    ("forced_rate", "cell", "0.0587 [0.0566, 0.0607]"),
    ("lead_changes", "cell", "2.842 [2.6094, 3.0746]"),
    ("rules/true-hit-grand-jan", "share", "0.3723 [0.365, 0.3795]"),
    ("rules/battre-le-coin", "share", "0.1277 [0.1225, 0.1329]"),
]


@pytest.mark.slow
def test_triktrak_against_partie_a_ecrire(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(ECRIRE, AGAINST)
    result = run(ECRIRE)
    _check(result, AGAINST, [(f"arms/0/{path}", how, f"| {text} |")
                             for path, how, text in TRIKTRAK_GREEDY] + [
        ("tests", "int", "The report has 55 tests"),
        ("families/proportion/tests", "int", "55 tests: 21 in the family of proportions"),
        ("families/firings/tests", "int", "30 of firings"),
        # the first player
        ("arms/1/first_player_win_rate", "cell", "| 0.4839 [0.4402, 0.5278] |"),
        ("diff/first_player_win_rate/1", "cell", "| −0.0561 [−0.1176, 0.0059] | 0.61 (p = "
                                                 "0.076) | 19,136 |"),
        ("diff/first_player_win_rate/1/p_adjusted", "p", "| 0.61 (p = 0.076) |"),
        ("diff/first_player_win_rate/1/p_value", "p", "| 0.61 (p = 0.076) |"),
        ("diff/first_player_win_rate/1/games_needed", "int", "| 19,136 |"),
        ("arms/0/first_player_win_rate/p_value", "p", "(p = 0.081 against 1/2, Holm 0.61 "
                                                     "among the 21 proportions)"),
        ("arms/0/first_player_win_rate/p_adjusted", "p", "Holm 0.61 among the 21 proportions"),
        ("arms/1/first_player_win_rate/value", "num", "à écrire's 0.4839 (p = 0.5;"),
        ("arms/1/first_player_win_rate/p_value", "p", "à écrire's 0.4839 (p = 0.5;"),
        ("arms/1/draws", "int", "4 of its 500 parties were drawn"),
        ("arms/1/decided", "int", "only the 496 decided count"),
        ("diff/first_player_win_rate/1/games_needed", "int", "±1 point would take 19,136 of each"),
        # the length, the plays, the lead
        ("arms/1/length_throws", "cell2", "| 662 [650.23, 673.77] |"),
        ("diff/length_throws/1", "cell2", "| 416.88 [403.47, 430.3] | 4.3e−297 | 14,932 |"),
        ("diff/length_throws/1/p_adjusted", "p", "| 4.3e−297 | 14,932 |"),
        ("diff/length_throws/1/games_needed", "int", "| 4.3e−297 | 14,932 |"),
        ("arms/1/branching_factor", "cell", "| 13.9471 [13.886, 14.0081] |"),
        ("diff/branching_factor/1", "cell", "| −1.2396 [−1.3792, −1.1] | 7.6e−68 | 423 |"),
        ("diff/branching_factor/1/p_adjusted", "p", "| 7.6e−68 | 423 |"),
        ("diff/branching_factor/1/games_needed", "int", "| 7.6e−68 | 423 |"),
        ("arms/1/forced_rate", "cell", "| 0.0783 [0.0772, 0.0793] |"),
        ("diff/forced_rate/1", "cell", "| 0.0196 [0.0173, 0.0219] | 5.4e−61 | 7,709 |"),
        ("diff/forced_rate/1/p_adjusted", "p", "| 5.4e−61 | 7,709 |"),
        ("diff/forced_rate/1/games_needed", "int", "| 5.4e−61 | 7,709 |"),
        ("arms/1/lead_changes", "cell", "| 4.33 [4.0172, 4.6428] |"),
        ("diff/lead_changes/1", "cell", "| 1.488 [1.0977, 1.8783] | 1.7e−13 | 94,045 |"),
        ("diff/lead_changes/1/p_adjusted", "p", "| 1.7e−13 | 94,045 |"),
        ("diff/lead_changes/1/games_needed", "int", "| 1.7e−13 | 94,045 |"),
        # the rules' shares
        ("arms/1/rules/true-hit-grand-jan", "share", "| 0.3653 [0.3609, 0.3697] |"),
        ("diff/rules.true-hit-grand-jan.share/1", "cell",
         "| −0.007 [−0.0155, 0.0015] | 0.65 (p = 0.11) | 2,608 |"),
        ("diff/rules.true-hit-grand-jan.share/1/p_adjusted", "p", "| 0.65 (p = 0.11) |"),
        ("diff/rules.true-hit-grand-jan.share/1/p_value", "p", "| 0.65 (p = 0.11) |"),
        ("diff/rules.true-hit-grand-jan.share/1/games_needed", "int",
         "| 0.65 (p = 0.11) | 2,608 |"),
        ("arms/0/rules/true-hit-grand-jan/share", "pct", "give 37 % of the points in both"),
        ("arms/1/rules/true-hit-grand-jan/share", "pct", "give 37 % of the points in both"),
        ("diff/rules.true-hit-grand-jan.share/1/difference", "num",
         "(a difference of −0.007, Holm 0.65)"),
        ("diff/rules.true-hit-grand-jan.share/1/p_adjusted", "p",
         "(a difference of −0.007, Holm 0.65)"),
        ("arms/1/rules/battre-le-coin", "share", "| 0.1031 [0.1002, 0.106] |"),
        ("diff/rules.battre-le-coin.share/1", "cell",
         "| −0.0246 [−0.0306, −0.0187] | 1.2e−14 | 10,963 |"),
        ("diff/rules.battre-le-coin.share/1/p_adjusted", "p", "| 1.2e−14 | 10,963 |"),
        ("diff/rules.battre-le-coin.share/1/games_needed", "int", "| 1.2e−14 | 10,963 |"),
        ("arms/0/rules/conserve-grand-jan", "share", "| 0.105 [0.0997, 0.1103] |"),
        ("arms/1/rules/conserve-grand-jan", "share", "| 0.1208 [0.1173, 0.1243] |"),
        ("diff/rules.conserve-grand-jan.share/1", "cell",
         "| 0.0158 [0.0095, 0.0221] | 1.3e−05 | 18,196 |"),
        ("diff/rules.conserve-grand-jan.share/1/p_adjusted", "p", "| 1.3e−05 | 18,196 |"),
        ("diff/rules.conserve-grand-jan.share/1/games_needed", "int", "| 1.3e−05 | 18,196 |"),
        ("arms/0/rules/fill-grand-jan", "share", "| 0.0946 [0.0911, 0.0981] |"),
        ("arms/1/rules/fill-grand-jan", "share", "| 0.0846 [0.0827, 0.0864] |"),
        ("diff/rules.fill-grand-jan.share/1", "cell",
         "| −0.0101 [−0.014, −0.0061] | 8.6e−06 | 8,674 |"),
        ("diff/rules.fill-grand-jan.share/1/p_adjusted", "p", "| 8.6e−06 | 8,674 |"),
        ("diff/rules.fill-grand-jan.share/1/games_needed", "int", "| 8.6e−06 | 8,674 |"),
        ("arms/0/rules/jan-qui-ne-peut", "share", "| 0.0696 [0.0659, 0.0734] |"),
        ("arms/1/rules/jan-qui-ne-peut", "share", "| 0.0875 [0.0853, 0.0898] |"),
        ("diff/rules.jan-qui-ne-peut.share/1", "cell",
         "| 0.0179 [0.0135, 0.0223] | 1.3e−14 | 19,553 |"),
        ("diff/rules.jan-qui-ne-peut.share/1/p_adjusted", "p", "| 1.3e−14 | 19,553 |"),
        ("diff/rules.jan-qui-ne-peut.share/1/games_needed", "int", "| 1.3e−14 | 19,553 |"),
        # the worths, side by side
        ("arms/1/value_points", "cell", "a partie à écrire 59.008 [55.773, 62.243] jetons"),
        ("diff/value_points/1/why", "str", "(\"units differ: stakes against jetons\")"),
    ])
    assert [a["unit"] for a in result["arms"]] == ["stakes", "jetons"]
    assert _get(result, "diff/value_points/1/tested") is False
    for family in ("throws", "plays", "holes", "lead changes"):     # "one each"
        assert result["families"][family]["tests"] == 1
    # "every difference clear of 0 after Holm", each "one or two points of the share"
    for rule in ("battre-le-coin", "conserve-grand-jan", "fill-grand-jan", "jan-qui-ne-peut"):
        d = _get(result, f"diff/rules.{rule}.share/1")
        assert d["p_adjusted"] < 0.05 and 0.01 <= abs(d["difference"]) < 0.03, d
    # the interval of the first player's difference holds 0 and is twelve points wide
    lo, hi = _get(result, "diff/first_player_win_rate/1/ci")
    assert lo < 0 < hi and round(100 * (hi - lo)) == 12


@pytest.mark.slow
def test_triktrak_under_three_kinds_of_player(run: Callable[[str], dict[str, Any]]) -> None:
    _printed(PLAYERS, THREE)
    result = run(PLAYERS)
    assert [a["players"]["white"] for a in result["arms"]] == ["random", "greedy", "learned"]
    rows = {
        "first_player_win_rate": ("cell", ["0.5 [0.4563, 0.5437]", "0.54 [0.4962, 0.5832]",
                                           "0.52 [0.4762, 0.5635]"]),
        "length_throws": ("cell2", ["124.73 [121.73, 127.73]", "245.12 [238.72, 251.51]",
                                    "141.22 [136.99, 145.45]"]),
        "branching_factor": ("cell", ["7.8512 [7.7683, 7.9342]", "15.1866 [15.0611, 15.3122]",
                                      "9.9831 [9.878, 10.0882]"]),
        "forced_rate": ("cell", ["0.023 [0.0217, 0.0242]", "0.0587 [0.0566, 0.0607]",
                                 "0.034 [0.0308, 0.0371]"]),
        "lead_changes": ("cell", ["3.63 [3.354, 3.906]", "2.842 [2.6094, 3.0746]",
                                  "2.396 [2.2074, 2.5846]"]),
        "rules/true-hit-grand-jan": ("share", ["0.7342 [0.7283, 0.7401]",
                                               "0.3723 [0.365, 0.3795]",
                                               "0.3655 [0.359, 0.3719]"]),
        "rules/true-hit-petit-jan": ("share", ["0.2206 [0.2153, 0.226]", "0.0512 [0.048, 0.0544]",
                                               "0.2416 [0.2345, 0.2488]"]),
        "rules/battre-le-coin": ("share", ["0.0155 [0.0138, 0.0172]", "0.1277 [0.1225, 0.1329]",
                                           "0.0321 [0.0295, 0.0347]"]),
        "rules/false-hit-petit-jan": ("share", ["0.0145 [0.0129, 0.0161]",
                                                "0.0622 [0.0588, 0.0656]",
                                                "0.17 [0.1649, 0.175]"]),
    }
    table = [(f"arms/{i}/{path}", how, " | ".join(cells))
             for path, (how, cells) in rows.items() for i in range(3)]
    _check(result, THREE, table + [
        ("tests", "int", "The report has 115 tests, 41 of them"),
        ("families/proportion/tests", "int", "41 of them in the family of proportions"),
        ("families/throws/tests", "int", "and 3 in that of throws"),
        ("omnibus/first_player_win_rate/p_value", "p", "(Cochran's Q across the three, p = 0.43, "
                                                       "Holm 1 in the family of 41 proportions"),
        ("omnibus/first_player_win_rate/p_adjusted", "p", "p = 0.43, Holm 1 in the family"),
        ("diff/first_player_win_rate/2", "cell", "learned − random: 0.02 [−0.0417, 0.0817], "
                                                 "McNemar p = 0.57"),
        ("diff/first_player_win_rate/2/p_value", "p", "McNemar p = 0.57"),
        ("arms/1/first_player_win_rate/p_value", "p", "greedy's 0.54 has p = 0.081, Holm 0.89"),
        ("arms/1/first_player_win_rate/p_adjusted", "p", "greedy's 0.54 has p = 0.081, Holm 0.89"),
        ("arms/0/first_player_win_rate/p_adjusted", "p", "the other two Holm 1"),
        ("arms/2/first_player_win_rate/p_adjusted", "p", "the other two Holm 1"),
        ("diff/length_throws/2", "cell2", "learned players' 16.49 [11.5, 21.49] throws longer"),
        ("diff/length_throws/2/p_value", "p", "(p = 2e−10, which Holm's adjustment within the 3 "
                                              "tests of throws leaves unchanged)"),
        ("diff/length_throws/2/p_adjusted", "p", "(p = 2e−10, which Holm's adjustment"),
        ("arms/1/rules/true-hit-grand-jan/share", "pct", "greedy and learned players 37 %"),
        ("arms/2/rules/true-hit-grand-jan/share", "pct", "greedy and learned players 37 %"),
        ("diff/rules.true-hit-grand-jan.share/2", "cell", "(learned − random: −0.3687 [−0.3778, "
                                                          "−0.3597], Holm 2.1e−285)"),
        ("diff/rules.true-hit-grand-jan.share/2/p_adjusted", "p", "−0.3597], Holm 2.1e−285)"),
        ("arms/1/rules/battre-le-coin/share", "num", "beats the corner (0.1277 of his points)"),
        ("arms/1/rules/true-hit-petit-jan/share", "num", "hardly hits in the petit jan (0.0512)"),
        ("diff/rules.true-hit-petit-jan.share/2", "cell", "(0.021 [0.0124, 0.0296] more of the "
                                                          "points, Holm 3.6e−05)"),
        ("diff/rules.true-hit-petit-jan.share/2/p_adjusted", "p", "points, Holm 3.6e−05)"),
        ("arms/2/rules/false-hit-petit-jan/share", "num", "makes many false hits there (0.17)"),
    ])
    # the omnibus test of the first player is in the family of proportions
    assert _get(result, "omnibus/first_player_win_rate/family") == "proportion"
    # "nearly three quarters" in random play, "half as large" under the others
    random_share = _get(result, "arms/0/rules/true-hit-grand-jan/share")
    assert 0.7 < random_share < 0.75
    for i in (1, 2):
        assert 0.45 < _get(result, f"arms/{i}/rules/true-hit-grand-jan/share") / random_share < 0.55
    # greedy players' parties last twice as long as random ones
    assert round(_get(result, "arms/1/length_throws/mean")
                 / _get(result, "arms/0/length_throws/mean")) == 2


@pytest.mark.slow
def test_greedy_players_play_the_same_parties_in_both_triktrak_studies(
        run: Callable[[str], dict[str, Any]]) -> None:
    """"The greedy column is the triktrak column of the study above, figure for figure"."""
    alone, among = run(ECRIRE)["arms"][0], run(PLAYERS)["arms"][1]
    for path, how, text in TRIKTRAK_GREEDY:
        assert _render({"a": alone}, f"a/{path}", how) == text
        assert _render({"a": among}, f"a/{path}", how) == text
    for key in ("first_player_win_rate", "length_throws", "branching_factor", "forced_rate",
                "lead_changes", "rules", "length", "ladder"):
        # the same games give the same figures; a p-value's Holm adjustment depends on the
        # other tests of its report
        same = {k: v for k, v in alone[key].items() if k != "p_adjusted"}
        assert same == {k: v for k, v in among[key].items() if k != "p_adjusted"}, key


def _range(values: Sequence[int]) -> tuple[str, str]:
    return f"{min(values):,}", f"{max(values):,}"


@pytest.mark.slow
def test_how_many_games_each_question_needs(run: Callable[[str], dict[str, Any]]) -> None:
    runs = {c: run(c) for c in COMMANDS}
    arms = [a for r in runs.values() for a in r["arms"]]
    text = _section(HOW_MANY)
    shown: list[tuple[str, str]] = []     # (what the runs give, the text that prints it)

    # the first player's rate: over every arm of the studies
    low, high = _range([a["first_player_win_rate"]["games_needed"] for a in arms])
    edge = max(a["first_player_win_rate"]["games_needed"] for a in arms)
    assert runs[PLAYERS]["arms"][1]["first_player_win_rate"]["games_needed"] == min(
        a["first_player_win_rate"]["games_needed"] for a in arms)
    assert runs[PLAYERS]["arms"][0]["first_player_win_rate"]["games_needed"] == edge
    shown += [(low, "| 9,539 (triktrak, greedy players) to 9,600 (triktrak, random) |"),
              (high, "to 9,600 (triktrak, random) |"),
              (f"{round(edge / 3**2, -1):,.0f}", "an edge of 3 points: ≈ 1,070 decided games")]

    # a difference of first players: the unpaired ones and the triktrak's paired ones
    firsts = [_get(runs[c], f"diff/first_player_win_rate/{i}/games_needed")
              for c, i in ((JACOBY_UNPAIRED, 1), (SORTIE_UNPAIRED, 1), (ECRIRE, 1),
                           (PLAYERS, 1), (PLAYERS, 2))]
    low, high = _range(firsts)
    assert _get(runs[PLAYERS], "diff/first_player_win_rate/1/games_needed") == min(firsts)
    assert _get(runs[SORTIE_UNPAIRED], "diff/first_player_win_rate/1/games_needed") == max(firsts)
    shown += [(low, "| 18,723 (triktrak, random against greedy players, paired) to 19,173 "
                    "(triktrak, the sortie's two options, unpaired) |"),
              (high, "to 19,173 (triktrak, the sortie's two options, unpaired) |"),
              (f"{round(max(firsts) / 3**2, -1):,.0f}",
               "a difference of 3 points: ≈ 2,130 each"),
              (f"{_get(runs[JACOBY_LEARNED], 'diff/first_player_win_rate/1/games_needed'):,}",
               "the first player's difference needs 9,249")]

    # the length: over every arm of the studies
    lengths = [a["length_throws"]["games_needed"] for a in arms]
    low, high = _range(lengths)
    assert runs[ECRIRE]["arms"][1]["length_throws"]["games_needed"] == min(lengths)
    assert runs[JACOBY_LEARNED]["arms"][0]["length_throws"]["games_needed"] == max(lengths)
    shown += [(low, "| 1,581 (à écrire, greedy) to 11,133 (backgammon, learned players) |"),
              (high, "to 11,133 (backgammon, learned players) |"),
              (str(round(min(lengths) / 5**2)), "±5 %: 63 to 445"),
              (str(round(max(lengths) / 5**2)), "±5 %: 63 to 445")]

    # à écrire against triktrak
    longer = _get(runs[ECRIRE], "diff/length_throws/1")
    shown += [(f"{longer['games_needed']:,}", "| 14,932 |"),
              (f"{round(100 * longer['difference'] / longer['value_a'])} %",
               "a difference of 170 % of A (416.88 throws)"),
              (_num(longer["difference"], 2), "a difference of 170 % of A (416.88 throws)")]
    # fewer than ten games: "a handful"
    assert longer["games_needed"] * (0.01 * longer["value_a"] / longer["difference"]) ** 2 < 10

    # the rules' shares
    grand = _get(runs[ECRIRE], "diff/rules.true-hit-grand-jan.share/1")
    cannot = _get(runs[ECRIRE], "diff/rules.jan-qui-ne-peut.share/1")
    shown += [(f"{grand['games_needed']:,}", "| 2,608 (`true-hit-grand-jan`) to 19,553 "
                                             "(`jan-qui-ne-peut`) |"),
              (f"{cannot['games_needed']:,}", "to 19,553 (`jan-qui-ne-peut`) |"),
              (f"{round(100 * grand['value_a'])} %", "the grand jan's share of 37 %"),
              (str(round(grand["games_needed"] * (0.01 * grand["value_a"] / 0.02) ** 2)),
               "a 2-point difference in the grand jan's share of 37 %: ≈ 90 each")]

    # the Jacoby rule, paired
    rand = _get(runs[JACOBY_RANDOM], "diff/value_points/1")
    learned = _get(runs[JACOBY_LEARNED], "diff/value_points/1")

    def to_see(d: dict[str, Any]) -> float:
        # games_needed·(ε/d)², ε = 1 % of the first arm's worth
        return float(d["games_needed"] * (0.01 * d["value_a"] / d["difference"]) ** 2)

    shown += [(f"{rand['games_needed']:,}", "| 6,865 (random players); 21,147 (learned) |"),
              (f"{learned['games_needed']:,}", "6,865 (random players); 21,147 (learned)"),
              (_num(rand["difference"]), "−0.886 points of 1.886: ≈ 3 games"),
              (_num(rand["value_a"]), "−0.886 points of 1.886: ≈ 3 games"),
              (str(round(to_see(rand))), "−0.886 points of 1.886: ≈ 3 games"),
              (_num(learned["difference"]), "0.3467 of 2.42: ≈ 100"),
              (_num(learned["value_a"]), "0.3467 of 2.42: ≈ 100"),
              (f"{round(to_see(learned), -1):.0f}", "0.3467 of 2.42: ≈ 100")]

    wrong = [f"the runs give {value}, the guide is said to print {printed!r}"
             for value, printed in shown if not _appears(value, printed)]
    wrong += [f"{printed!r} is not in the guide's {HOW_MANY!r}"
              for _value, printed in shown if printed not in text]
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_every_command_of_the_worked_study_is_checked() -> None:
    """Each `tablier` command printed in "A worked study" is one these tests run, and each of
    them is printed there; each plays enough games to count as slow in
    tests/test_doc_examples.py, so that the default suite does not run it."""
    from test_doc_examples import Example

    text = _study_text()
    printed = [line for block in re.findall(r"```sh\n(.*?)```", text, re.S)
               for line in block.splitlines() if line.startswith("tablier ")]
    assert sorted(printed) == sorted(COMMANDS)
    for command in COMMANDS:
        assert Example(PAGE, 0, command).slow, command
