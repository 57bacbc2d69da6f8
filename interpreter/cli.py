"""The `tablier` command (docs/cli.md).

Exit codes: 0 success, 1 invalid input (with a diagnostic on stderr), 2 bad command line.
Imports are deferred to the subcommand that needs them, so that `tablier variants` starts fast.
"""
from __future__ import annotations

import argparse
from contextlib import contextmanager, nullcontext
import json
from functools import partial
import os
import re
import sys
from pathlib import Path
import tomllib
from typing import Any, Callable, Iterator, Sequence

from interpreter.bounded import MAX_GAMES, SEED_RANGE, json_lines, read_bytes
from interpreter.errors import CommandLineError, TablierError, render_all
from interpreter.players.kinds import (BASIC, HUMAN, KINDS_TEXT, PlayerKindError, make_player,
                                       parse as parse_kind)


def _player_kind(text: str) -> str:
    """An argparse type: a player kind (players/kinds.py), checked before anything runs."""
    try:
        parse_kind(text)
    except PlayerKindError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _play_kind(text: str) -> str:
    """An argparse type: a player of `tablier play`, a bot or "human"."""
    return text if text == HUMAN else _player_kind(text)


def _integer(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer written in ASCII digits from `lo` to `hi` (argparse exits with
    code 2 and its message otherwise). `int()` alone would take '٣', '1_000' and ' 5 '."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}")
        if len(text.lstrip("+-")) > 40:
            raise argparse.ArgumentTypeError(f"must be from {lo:,} to {hi:,}")
        value = int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo:,} to {hi:,}, not {value:,}")
        return value
    parse.__name__ = "integer"
    return parse


def _real(lo: float, hi: float, unit: str = "") -> Any:
    """An argparse type: a number from `lo` to `hi` (in `unit`)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo:g} to {hi:g}{unit}, "
                                             f"not {text[:40]}")
        return value
    parse.__name__ = "number"
    return parse


#: seconds of a request's work; a fraction (a learning rate, a trace decay)
_seconds = _real(0.05, 3600, " seconds")
_fraction = _real(0.0, 1.0)


MAX_TURNS = _integer(1, 10_000_000)
GAMES = _integer(1, MAX_GAMES)
JOBS = _integer(1, 256)
RUNS = _integer(1, 1000)
#: replicates of a design (`simulate`, `compare --replicates R`: compare/design.py)
REPLICATES = _integer(1, 100)
SEED = _integer(*SEED_RANGE)
#: a game's number in a run (`play --game K`): from 0 to the most games a run plays, less one
GAME_INDEX = _integer(0, MAX_GAMES - 1)
PORT = _integer(0, 65535)


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", help="a built-in variant id or the path of a variant file")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override an option of the variant file by its dotted key (repeatable)")


def _add_runs(p: argparse.ArgumentParser) -> None:
    """The players and where the games run (simulate, compare). Any kind of player the bots
    module makes is accepted (checked before the games start)."""
    p.add_argument("--white", default="random", type=_player_kind, metavar="KIND",
                   help=f"the white player: {KINDS_TEXT} (docs/bots.md; default random)")
    p.add_argument("--black", default="random", type=_player_kind, metavar="KIND",
                   help="the black player (default random)")
    p.add_argument("--jobs", type=JOBS, default=None,
                   help="worker processes (default: the number of cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run the games on this Dask distributed scheduler (tcp://host:8786)")
    _add_foreign(p)


def _add_foreign(p: argparse.ArgumentParser) -> None:
    p.add_argument("--foreign-weights", action="store_true",
                   help="play `learned:FILE` even where its network was trained for another "
                        "game (another board, dice, movement or turn; docs/bots.md)")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tablier", description="Play, check and compare the "
                                 "tables games (backgammon, trictrac and relatives) from their "
                                 "rule files.")
    from interpreter import __version__
    # the version every output of simulate and compare records (compare/provenance.py)
    ap.add_argument("--version", action="version", version=f"tablier {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("variants", help="list the built-in variants")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("validate", help="check variant files and report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH")

    p = sub.add_parser("rules", help="the rulebook of a variant, generated from its file")
    _add_variant(p)
    p.add_argument("--format", dest="fmt", choices=("markdown", "html"), default="markdown")
    p.add_argument("--section", dest="sections", action="append", default=[], metavar="NAME",
                   help="print only this section (repeatable): about, sources, board, dice, "
                        "movement, rules, rule-table, definitions, options, ladder")
    p.add_argument("--level", type=int, default=2,
                   help="the heading level of each section (default 2)")

    p = sub.add_parser("diff", help="the differences between two variants")
    p.add_argument("a", metavar="A", help="a built-in variant id or the path of a variant file")
    p.add_argument("b", metavar="B", help="the other variant")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a key in both variants; `a:KEY=VALUE` or `b:KEY=VALUE` in one "
                        "(repeatable)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--format", dest="fmt", choices=("markdown", "html"), default="markdown")
    p.add_argument("--level", type=int, default=2,
                   help="the heading level of each section (default 2)")

    p = sub.add_parser("explain", help="a rule of a variant: its snippets, the definitions "
                       "they use, and the Python compiled from them")
    _add_variant(p)
    p.add_argument("rule", metavar="RULE", help="the rule's id (its key under [rules])")

    p = sub.add_parser("moves", help="legal plays of positions read as JSON lines on stdin")
    _add_variant(p)

    p = sub.add_parser("score", help="what a roll scores, for positions read as JSON lines")
    _add_variant(p)

    p = sub.add_parser("play", help="play a game, between bots or against a person at the "
                       "terminal; save it, resume it")
    p.add_argument("variant", nargs="?", default=None,
                   help="a built-in variant id or the path of a variant file (not with --resume)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override an option of the variant file by its dotted key (repeatable)")
    p.add_argument("--white", default=None, type=_play_kind, metavar="KIND",
                   help=f"who plays white: a bot ({KINDS_TEXT}: docs/bots.md) or {HUMAN} (a "
                        f"person at the terminal)")
    p.add_argument("--black", default=None, type=_play_kind, metavar="KIND")
    p.add_argument("--seed", type=SEED, default=None,
                   help="the seed of the dice (default 1 between bots; drawn at random and "
                        "printed when a person plays)")
    p.add_argument("--game", type=GAME_INDEX, default=None, metavar="K",
                   help="play game K (from 0) of `simulate --seed SEED`: its dice and the bots' "
                        "choices, move for move (default 0)")
    p.add_argument("--notation", default=None, metavar="NAME",
                   help="how the points are named in the log, on the board and in move entry: "
                        "pips (default), and for the trictrac family guiton, malfilatre, "
                        "magriel, lepeintre")
    p.add_argument("--max-turns", type=MAX_TURNS, default=None,
                   help="stop after N turns of this run (N >= 1; for saving)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the game to FILE when it stops, finished or not")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="continue a saved game (variant, options, seed and players from FILE; "
                        "--white/--black may replace a player kind)")
    p.add_argument("--log", choices=("full", "marks"), default="full",
                   help="`marks`: for the written games, the marks and settlement only")
    p.add_argument("--json", action="store_true", help="print the final summary as JSON")
    p.add_argument("--mat", metavar="FILE", default=None,
                   help="also write the match (backgammon family, `cube` ladder) as a "
                        "Jellyfish .mat file, as gnubg writes them")
    _add_foreign(p)

    p = sub.add_parser("simulate", help="play many bot games and summarise them")
    _add_variant(p)
    p.add_argument("--games", type=GAMES, default=1000)
    p.add_argument("--seed", type=SEED, default=1)
    _add_runs(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--games-out", metavar="FILE.jsonl", default=None,
                   help="write one JSON line per game (its seed, first player, winner, value, "
                        "length, points, rule firings by side and the ladder's figures)")
    p.add_argument("--replicates", type=REPLICATES, default=1, metavar="R",
                   help="play the run R times, replicate r with the seed SEED+r; report each "
                        "replicate, the pooled figures and the test of their homogeneity")
    p.add_argument("--metrics", action="store_true",
                   help="also measure each game's playout metrics: decisiveness, drama, "
                        "stability of the lead, board coverage (docs/compare.md)")

    p = sub.add_parser("compare", help="variants side by side: figures with 95 %% intervals, "
                       "differences with tests, games needed")
    p.add_argument("variants", nargs="+", metavar="VARIANT",
                   help="built-in variant ids or variant files, one arm each (one with --vary)")
    p.add_argument("--set", dest="overrides", action="append", default=[],
                   metavar="[V:]KEY=VALUE",
                   help="override a key in every arm; `V:KEY=VALUE` in the arm(s) of variant "
                        "V, `N:KEY=VALUE` in the N-th arm (repeatable)")
    p.add_argument("--vary", default=None, metavar="KEY=A,B,...",
                   help="one arm per value of KEY, of a single variant; players=KIND,..., "
                        "white=KIND,... or black=KIND,... make the players the arms")
    p.add_argument("--train-minutes", type=_real(0.01, 600.0), default=None, metavar="M",
                   help="before the games, train for M minutes of CPU a network for every "
                        "arm whose learned players have none for its rules (over --jobs; "
                        "kept in the user's cache)")
    p.add_argument("--games", type=GAMES, default=1000, help="games of each arm")
    p.add_argument("--seed", type=SEED, default=1,
                   help="arm i (from 0) plays the games of `simulate --seed SEED+i`")
    p.add_argument("--paired", action="store_true",
                   help="every arm plays the games of `simulate --seed SEED` (the same seed and "
                        "dice for game i of each arm); the differences are paired")
    _add_runs(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--html", metavar="FILE", default=None, help="write the HTML report")
    p.add_argument("--figures", metavar="DIR", default=None,
                   help="write every plot of the report as NAME.svg and NAME.pdf into DIR "
                        "(made if missing)")
    p.add_argument("--csv", metavar="FILE", default=None,
                   help="write the figures as CSV: arm, figure, value, lo, hi, n, ...")
    p.add_argument("--games-out", metavar="PREFIX", default=None,
                   help="write each arm's games as JSON lines to PREFIX-N-LABEL.jsonl")
    p.add_argument("--replicates", type=REPLICATES, default=1, metavar="R",
                   help="play the whole design R times, replicate r with the seed SEED+r (what "
                        "`--seed SEED+r` plays); every figure pooled, each replicate's value "
                        "and the test of their homogeneity")
    p.add_argument("--against", default=None, metavar="ARM",
                   help="compare every other arm with this one (its label, or its number from "
                        "1; default the first)")
    p.add_argument("--pairs", default=None, choices=["all"],
                   help="`all`: compare every pair of arms")
    p.add_argument("--metrics", action="store_true",
                   help="also measure each game's playout metrics: decisiveness, drama, "
                        "stability of the lead, board coverage (docs/compare.md)")

    p = sub.add_parser("train", help="train a value network by self-play, TD(lambda)")
    _add_variant(p)
    span = p.add_mutually_exclusive_group()
    span.add_argument("--games", type=GAMES, default=None,
                      help="plays to train on in all (a resumed run counts those done)")
    span.add_argument("--minutes", type=_real(0.01, 10_000.0), default=None,
                      help="train for this much CPU time (default, without --games: 10)")
    p.add_argument("--out", default=None, metavar="FILE.npz",
                   help="the weights file (default: the user's cache, keyed by the rules' "
                        "fingerprint, where `learned` finds it)")
    p.add_argument("--from", dest="start", default="auto", metavar="auto|none|FILE.npz",
                   help="start from the nearest network there is (auto: the one trained "
                        "before for these rules, the variant's own, its `extends` chain's, "
                        "else a shipped one of the same board and dice), none, or a weights "
                        "file")
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument("--hidden", type=_integer(1, 1000), default=40, help="hidden units")
    p.add_argument("--lambda", dest="lam", type=_fraction, default=0.7,
                   help="the decay of eligibility traces, from 0 to 1 (default 0.7)")
    p.add_argument("--alpha", type=_fraction, default=0.1,
                   help="the step size, from 0 to 1 (default 0.1)")
    p.add_argument("--resume", action="store_true",
                   help="go on training the weights in --out (the same seed; a larger --hidden "
                   "grows the network without changing what it says)")
    p.add_argument("--checkpoint-every", type=GAMES, default=1000, metavar="N",
                   help="write --out every N plays (default 1000)")
    p.add_argument("--snapshots", metavar="DIR", default=None,
                   help="also keep a copy of the weights at each checkpoint in DIR")

    p = sub.add_parser("sheet", help="the score sheet of a game played on a real board")
    p.add_argument("record", help="a record file (TOML): variant, players, events")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("draw", help="draw a position: the terminal board, SVG or PNG")
    p.add_argument("position", nargs="?", default=None, metavar="POSITION.json",
                   help="a position JSON file (default: stdin)")
    p.add_argument("--variant", default=None,
                   help="the variant (default: the position's \"variant\", else backgammon)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override an option of the variant file by its dotted key (repeatable)")
    p.add_argument("--svg", metavar="FILE", default=None, help="write the board as SVG ('-': "
                   "stdout)")
    p.add_argument("--png", metavar="FILE", default=None,
                   help="write the board as PNG (headless Chromium through Playwright)")
    p.add_argument("--side", choices=("mover", "opponent"), default="mover",
                   help="draw the board from the side of the player on roll or of his opponent")
    p.add_argument("--mirror", action="store_true", help="draw the board left for right")
    p.add_argument("--notation", default=None, metavar="NAME",
                   help="how the points are named: pips (default), and for the trictrac "
                        "family guiton, malfilatre, magriel, lepeintre")

    p = sub.add_parser("serve", help="the web board and the live score keeper")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=PORT, default=8000)
    p.add_argument("--max-games", "--games", dest="games", type=_integer(1, 10_000),
                   default=100, metavar="N",
                   help="the most games kept at once (default 100; the oldest finished game "
                        "goes first)")
    p.add_argument("--variants", metavar="DIR", default=None,
                   help="a folder whose .toml files the pages may play, by their file names "
                        "(requests name no path)")
    p.add_argument("--request-seconds", type=_seconds, default=10.0, metavar="S",
                   help="the most work a request may do, in seconds (default 10): then 503")
    _add_foreign(p)

    p = sub.add_parser("id", help="backgammon identifiers: gnubg Position ID, Match ID, "
                       "GNUbg ID, XGID")
    ids = p.add_subparsers(dest="id_command", required=True, metavar="ACTION")
    ids.add_parser("encode", help="the identifiers of {\"position\", \"match\"} JSON lines "
                   "read on stdin")
    q = ids.add_parser("decode", help="the position and match state of identifiers")
    q.add_argument("ids", nargs="+", metavar="ID",
                   help="a Position ID, Match ID, GNUbg ID (posid:matchid) or XGID")
    q.add_argument("--variant", default=None,
                   help="the variant, for its number of checkers (hypergammon: 3)")

    p = sub.add_parser("import", help="replay a Jellyfish .mat match file through the rules")
    p.add_argument("file", metavar="FILE.mat")
    p.add_argument("--json", action="store_true")
    p.add_argument("--variant", default=None,
                   help="the variant to replay with (default: from the file's Variation: "
                        "backgammon, nackgammon or hypergammon)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override an option of the variant file (e.g. ladder.crawford=false)")

    p = sub.add_parser("analyse", help="review a saved game (.toml, any variant) or a .mat "
                       "match: each decision's error and each throw's luck, judged by the "
                       "strongest player the variant has (or --by KIND; gnubg for .mat)")
    p.add_argument("file", metavar="GAME.toml|MATCH.mat")
    p.add_argument("--player", default=None, metavar="NAME",
                   help="the player reviewed, by his name in the file (white or black in a "
                        "save); default both")
    p.add_argument("--by", default=None, metavar="KIND",
                   help="the reviewing player: search:N[:learned], learned, rollout:N, or "
                        "gnubg[:PLIES] for a .mat match (default the strongest the variant "
                        "has)")
    p.add_argument("--ply", type=_integer(0, 3), default=None,
                   help="gnubg's search depth, 0 to 3 (default 0); implies --by gnubg")
    p.add_argument("--notation", default=None, metavar="NAME",
                   help="how plays are written (default the save's, else pips)")
    p.add_argument("--max-seconds", type=_integer(1, 3600), default=10, metavar="S",
                   help="review for at most S seconds (default 10); then the report covers "
                        "what was reviewed so far, says so, and the command exits 1")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("bench", help="measure the speed of the kernel and the interpreter")
    p.add_argument("variants", nargs="*", metavar="VARIANT", help="default: every built-in variant")
    p.add_argument("--games", type=GAMES, default=300, help="random games per measurement")
    p.add_argument("--runs", type=RUNS, default=3, help="measurements per figure (median kept)")
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument("--json", action="store_true")
    return ap


@contextmanager
def _foreign_weights(allowed: bool) -> Iterator[None]:
    """`--foreign-weights`: networks trained for another game are played, in this process and
    in the worker processes it starts (an environment switch they inherit), for the command."""
    if not allowed:
        yield
        return
    # (imported only here: `moves` and the other short commands never load the players)
    from interpreter.players.rules_seen import FOREIGN_ENV

    before = os.environ.get(FOREIGN_ENV)
    os.environ[FOREIGN_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(FOREIGN_ENV, None)
        else:
            os.environ[FOREIGN_ENV] = before


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # the command line as given (a weights file records the one that trained it)
    args.argv = ["tablier", *(sys.argv[1:] if argv is None else argv)]
    handler: Callable[[argparse.Namespace], int] = globals()["_cmd_" + args.command]
    try:
        with _foreign_weights(bool(getattr(args, "foreign_weights", False))):
            return handler(args)
    except CommandLineError as exc:
        print(f"tablier {args.command}: {exc}", file=sys.stderr)
        return 2
    except TablierError as exc:
        print(f"tablier {args.command}: {exc}" if "\n" not in str(exc) else str(exc),
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _out(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


# -- variants, validate -----------------------------------------------------------------------

def _cmd_variants(args: argparse.Namespace) -> int:
    from interpreter.resources import variants_dir

    rows = []
    for path in sorted(variants_dir().glob("*.toml")):
        meta = _listed_meta(path)
        if meta.get("abstract"):
            continue
        rows.append({"id": meta.get("id") or path.stem, "name": meta.get("name") or path.stem,
                     "family": meta.get("family") or "", "sources": meta.get("sources") or [],
                     "summary": " ".join(str(meta.get("summary") or "").split())})
    as_json = json.dumps([{k: r[k] for k in ("id", "name", "family", "sources")}
                          for r in rows]) + "\n"
    width = max((len(r["id"]) for r in rows), default=0)
    lines = []
    for r in rows:
        family = f" ({r['family']})" if r["family"] else ""
        lines.append(f"{r['id']:<{width}}  {r['name']}{family}\n")
        if r["summary"]:
            lines.append(f"{'':<{width}}  {r['summary']}\n")
    plain = "".join(lines)
    sys.stdout.write(as_json if args.json else plain)
    from interpreter.listing import store_listing

    store_listing(plain, as_json)      # the next `tablier variants` prints it from there
    return 0


def _listed_meta(path: Path) -> dict[str, Any]:
    """The `[variant]` table of a built-in file as the variant has it: what the file writes
    over what it `extends` (Tapa's family is Plakoto's), `abstract` its own. The file's own
    table alone where it cannot be loaded."""
    from interpreter.variant.loader import load_document

    try:
        doc = load_document(path, check_rules=False)
    except TablierError:
        with path.open("rb") as fh:
            meta = tomllib.load(fh).get("variant", {})
        return meta if isinstance(meta, dict) else {}
    return doc.model.variant.model_dump()


def _cmd_validate(args: argparse.Namespace) -> int:
    from interpreter.variant.build import validate_paths

    diagnostics = validate_paths([Path(p) for p in args.paths])
    # each file's problems in the order of its lines (the schema's and the rule language's
    # are found apart), the files in the order they were found
    files: dict[str, int] = {}
    for d in diagnostics:
        files.setdefault(d.path, len(files))
    diagnostics.sort(key=lambda d: (files[d.path], d.line, d.col))
    if diagnostics:
        print(render_all(diagnostics), file=sys.stderr)
    if diagnostics:
        print(f"{len(diagnostics)} problem{'s' if len(diagnostics) != 1 else ''} found",
              file=sys.stderr)
        return 1
    print(f"{len(args.paths)} file{'s' if len(args.paths) != 1 else ''} valid")
    return 0


# -- rulebook and diff -------------------------------------------------------------------------

def _cmd_rules(args: argparse.Namespace) -> int:
    from interpreter.rulebook.book import render_rulebook

    sys.stdout.write(render_rulebook(args.variant, args.overrides, fmt=args.fmt,
                                     sections=args.sections, level=args.level))
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from interpreter.rulebook.diff import render_diff

    text = render_diff(args.a, args.b, args.overrides, fmt="json" if args.json else args.fmt,
                       level=args.level)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    from interpreter.dsl.explain import explain_rule
    from interpreter.variant.build import load_variant

    variant = load_variant(args.variant, args.overrides)
    print(explain_rule(variant.model, variant.rules, args.rule))
    return 0


# -- positions on stdin -----------------------------------------------------------------------

def _each_position(handle: Callable[[dict], dict]) -> int:
    """Read JSON lines on stdin within the bounds of `interpreter.bounded.json_lines`, write one
    JSON line per input; exit 1 if any line was bad."""
    status = 0
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    for _number, obj in json_lines(stream):
        if isinstance(obj, TablierError):
            _out({"error": str(obj)})
            status = 1
            continue
        try:
            _out(handle(obj))
        except TablierError as exc:
            _out({"error": str(exc)})
            status = 1
    return status


def _cmd_moves(args: argparse.Namespace) -> int:
    from interpreter.analysis import legal_results
    from interpreter.variant.stored import position_variant

    variant = position_variant(args.variant, args.overrides)
    return _each_position(lambda obj: legal_results(variant, obj))


def _cmd_score(args: argparse.Namespace) -> int:
    from interpreter.analysis import roll_score
    from interpreter.variant.stored import position_variant

    variant = position_variant(args.variant, args.overrides)
    return _each_position(lambda obj: roll_score(variant, obj))


# -- games ------------------------------------------------------------------------------------

def _cmd_play(args: argparse.Namespace) -> int:
    from interpreter.engine.game import Game
    from interpreter.engine.record import record_of
    from interpreter.players.base import capabilities_of
    from interpreter.runner import game_seed
    from interpreter.variant.build import load_variant

    if args.max_turns is not None and args.max_turns < 1:
        raise TablierError("--max-turns must be at least 1")
    session = None
    if args.resume is not None:
        from interpreter.io import save

        if args.variant is not None or args.overrides or args.seed is not None or \
                args.game is not None:
            raise TablierError("--resume takes the variant, the options, the seed and the game "
                               "from the save: give none of them")
        try:
            data, record = save.read_save(args.resume)
            # the save's players as the person would name them: no weights file, no dear bot
            save.check_saved_players(record, (args.white, args.black))
            variant = load_variant(save.variant_ref(record, args.resume), list(record.options))
        except TablierError as exc:
            raise TablierError(f"cannot resume {args.resume!r}: {exc}") from None
        kinds = (args.white or record.players[0], args.black or record.players[1])
        seed = record.seed
        index = record.index
        overrides = list(record.options)
        # the notation the game was played in, unless another is asked for
        notation = _notation(variant, args.notation or save.notation_of(data))
        players, session = _players(variant, kinds, seed, notation, args, overrides, index)
        try:
            run = save.checked_replay(data, record, variant, players, args.max_turns or 20000)
        except TablierError as exc:
            raise TablierError(f"cannot resume {args.resume!r}: {exc}") from None
        game = run.game
        if session is not None:
            session.resumed(game)
            session.saved = (args.resume, len(game.log))
            session.say(f"resuming {args.resume}: {variant.name}, seed {seed}, white "
                        f"{kinds[0]}, black {kinds[1]}, after {game.turns} throws")
        play = partial(run.resume, players)
    else:
        if args.variant is None:
            raise TablierError("name a variant to play, or --resume a saved game")
        variant = load_variant(args.variant, args.overrides)
        if variant.abstract:
            raise TablierError(f"{variant.id!r} is an abstract base; play a variant that "
                               f"extends it")
        kinds = (args.white or "random", args.black or "random")
        human = HUMAN in kinds
        if args.seed is not None:
            seed = args.seed
        elif human:
            import random

            seed = random.SystemRandom().randrange(1, 2**31)
        else:
            seed = 1
        overrides = list(args.overrides)
        notation = _notation(variant, args.notation)
        # game K of `simulate --seed SEED` (runner.game_seed): its dice and its bots' seeds
        index = args.game or 0
        players, session = _players(variant, kinds, seed, notation, args, overrides, index)
        gs = game_seed(seed, index)
        game = Game(variant, gs, max_turns=args.max_turns or 20000, keep_record=True,
                    doubles=capabilities_of(players), resigns=human)
        # a person's hints play the answers out on copies of the game (engine/branch.py)
        game.branching = human
        if session is not None:
            which = f"--seed {seed}" + (f" --game {index}" if index else "")
            session.say(f"{variant.name}: white {kinds[0]}, black {kinds[1]}, seed {seed}"
                        + (f", game {index}" if index else "")
                        + f" ({which} plays the same dice again)")
        play = partial(game.run, players)
    if session is not None:
        from interpreter.players.human import EndOfInput, Quit

        try:
            result = play()
        except EndOfInput as eof:
            game = eof.decision.game
            if args.save is not None:
                from interpreter.io import save

                save.write_save(args.save, record_of(game, seed, kinds, overrides, index),
                                save.state_of(game, eof.decision), notation=notation.name)
            session.say(session.goodbye(game, args.save, isinstance(eof, Quit)))
            return 0
        session.finish(game)
    else:
        result = play()
    if args.mat is not None:
        from interpreter.scoring.registry import ladder_class

        if not ladder_class(variant.ladder).cube_match:
            raise TablierError(f"--mat writes backgammon matches: {variant.id!r} has a "
                               f"{getattr(variant.ladder, 'kind', 'game')!r} ladder, not 'cube'")
        if variant.ladder.match_length > 64:
            raise TablierError(f"--mat: a .mat file holds matches of at most 64 points, not "
                               f"{variant.ladder.match_length}")
    if args.save is not None:
        from interpreter.io import save

        record = record_of(game, seed, kinds, overrides, index)
        save.write_save(args.save, record, save.state_of(game), notation=notation.name)
    summary = result.summary(variant.id)
    summary.update({"seed": seed, "white": kinds[0], "black": kinds[1]})
    if index:
        # which game of `simulate --seed SEED` this was (game 0 is not said)
        summary["game"] = index
    if args.mat is not None:
        _write_mat(variant, result, seed, kinds, args.mat)
    if args.json:
        _out(summary)
        return 0
    from interpreter.render import render_game
    # the final board seen by the person at the board (white when both are, or neither)
    side = 1 if kinds[1] == HUMAN and kinds[0] != HUMAN else 0
    text = render_game(variant, result, summary, marks_only=args.log == "marks",
                       notation=notation, with_log=session is None, side=side)
    if session is not None:
        session.say(text)           # a person reads it: wrapped to the terminal's width
    else:
        print(text)
    return 0


def _players(variant: Any, kinds: tuple[str, str], seed: Any, notation: Any,
             args: argparse.Namespace, overrides: list[str], index: int = 0
             ) -> tuple[tuple, Any]:
    """The two players of `tablier play` (game `index` of the seed's run: the bots of
    `simulate`'s game `index`), and the session of the persons at the board (None when both are
    bots)."""
    from interpreter.runner import game_seed

    gs = game_seed(seed, index)
    session = None
    if HUMAN in kinds:
        from interpreter.engine.record import record_of
        from interpreter.io import save
        from interpreter.players.human import Session

        def save_game(game: Any, decision: Any, path: str) -> None:
            save.write_save(path, record_of(game, seed, kinds, overrides, index),
                            save.state_of(game, decision), notation=notation.name)

        session = Session(variant, notation, inp=sys.stdin, out=sys.stdout, save=save_game)
    out = []
    for side, kind in enumerate(kinds):
        if kind == HUMAN:
            from interpreter.players.human import HumanPlayer

            assert session is not None      # made above when a person plays
            out.append(HumanPlayer(side, session))
        else:
            out.append(make_player(kind, f"{gs}:{('white', 'black')[side]}", variant))
            _say_notes(kind, variant)
    return (out[0], out[1]), session


def _say_notes(kind: str, variant: Any) -> None:
    """What a player with a network says of the game in play, once, on stderr
    (players/rules_seen.py)."""
    from interpreter.players.kinds import notes_for
    from interpreter.players.rules_seen import say_once

    if variant is not None:
        say_once(notes_for(kind, variant))


def _notation(variant: Any, name: str | None) -> Any:
    from interpreter.notation import cli_notation

    return cli_notation(variant, name)


def _write_mat(variant: Any, result: Any, seed: Any, kinds: tuple[str, str], path: str) -> None:
    from interpreter.io.mat import write_mat
    from interpreter.io.played import match_record

    info = {"Event": f"tablier play {variant.id}, seed {seed}, white {kinds[0]}, "
                     f"black {kinds[1]}",
            "Transcriber": "tablier"}
    text = write_mat(match_record(variant, result, info=info))
    from interpreter.outputs import write_output
    write_output(path, text)


def _check_players(args: argparse.Namespace, variants: Sequence[Any] = (),
                   kinds: Sequence[str] = ()) -> None:
    """A player that cannot be made (an unknown kind, weights that do not load or were trained
    on another variant, gnubg missing) is refused before any game is played: made once for
    each variant it will play."""
    for kind in kinds or (args.white, args.black):
        for variant in variants or (None,):
            make_player(kind, "0/0:check", variant)
            _say_notes(kind, variant)


def _jobs(args: argparse.Namespace) -> int:
    from interpreter.runner import default_jobs

    return default_jobs() if args.jobs is None else args.jobs


def _cmd_simulate(args: argparse.Namespace) -> int:
    from interpreter.progress import progress
    from interpreter.sim import simulate, summary_text
    from interpreter.variant.build import load_variant

    variant = load_variant(args.variant, args.overrides)
    if variant.abstract:
        raise TablierError(f"{variant.id!r} is an abstract base; simulate a variant that "
                           f"extends it")
    _check_players(args, [variant])

    from interpreter.outputs import open_output
    with (open_output(args.games_out) if args.games_out is not None else nullcontext()) as out:
        with progress(args.games * args.replicates, f"simulate {variant.id}") as bar:
            summary = simulate(variant, args.variant, args.overrides, args.games, args.seed,
                               args.white or "random", args.black or "random", _jobs(args),
                               out, dask=args.dask, progress=bar,
                               replicates=args.replicates, metrics=args.metrics)
    if args.json:
        _out(summary)
    else:
        print(summary_text(summary))
    return 130 if summary.get("interrupted") else 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from interpreter.compare.arms import parse_arms
    from interpreter.compare.core import compare
    from interpreter.compare.report import render_csv, render_text
    from interpreter.progress import progress

    try:
        import scipy  # noqa: F401
    except ImportError:
        raise TablierError("compare computes its intervals and tests with scipy: pip install "
                           "'tablier[stats]'") from None
    specs = parse_arms(args.variants, args.overrides, args.vary)
    kinds = {k for s in specs for k in s.players(args.white, args.black).values()}
    for kind in kinds:
        try:
            parse_kind(kind)
        except PlayerKindError as exc:
            raise TablierError(f"--vary {args.vary}: {exc}") from None
    if args.train_minutes is not None:
        from interpreter.compare.training import to_train, train_arms
        from interpreter.variant.build import load_variant

        arm_variants = [load_variant(s.ref, list(s.overrides)) for s in specs]
        todo = to_train(specs, arm_variants, [s.players(args.white, args.black) for s in specs])
        train_arms(todo, args.train_minutes, _jobs(args) or 1,
                   lambda text: print(f"tablier compare: {text}", file=sys.stderr, flush=True))
    if all(kind in BASIC for kind in kinds):
        _check_players(args)
    else:
        from interpreter.variant.build import load_variant
        _check_players(args, [load_variant(s.ref, list(s.overrides)) for s in specs],
                       sorted(kinds))
    figures: list = []
    if args.html is not None or args.figures is not None:
        from interpreter.compare.html import check_available
        check_available()
    from interpreter.compare.figures import folder_fault, write_figures
    from interpreter.outputs import output_fault, write_output
    for path in (args.csv, args.html):
        # a report that cannot be written is refused before the games, not after them
        fault = output_fault(path) if path is not None else None
        if fault is not None:
            raise TablierError(fault)
    fault = folder_fault(args.figures) if args.figures is not None else None
    if fault is not None:
        raise TablierError(fault)
    with progress(args.games * len(specs) * args.replicates,
                  "compare " + " | ".join(s.label for s in specs)) as bar:
        result = compare(specs, args.games, args.seed, args.white or "random",
                         args.black or "random", _jobs(args), args.dask, args.games_out, bar,
                         keep_figures=figures, paired=args.paired,
                         replicates=args.replicates, against=args.against, pairs=args.pairs,
                         metrics=args.metrics)
    for path, render in ((args.csv, lambda: render_csv(result, figures)),
                         (args.html, lambda: _html(specs, result, figures))):
        if path is not None:
            write_output(path, render())
    if args.figures is not None:
        write_figures(args.figures, result, figures)
    if args.json:
        _out(result)
    else:
        print(render_text(result, figures))
    return 130 if result.get("interrupted") else 0


def _html(specs: Any, result: Any, figures: Any) -> str:
    from interpreter.compare.html import render_html

    return render_html(specs, result, figures)


def _ladder_for(variant: str, options: dict) -> Any:
    """The ladder of a record's variant (interpreter/io/sheet.py `record_ladder`)."""
    from interpreter.io.sheet import record_ladder

    return record_ladder(variant, options)


def _cmd_train(args: argparse.Namespace) -> int:
    try:
        from interpreter.players import td
    except ImportError:
        raise TablierError("training needs numpy: pip install numpy") from None
    from interpreter.variant.build import load_variant

    variant = load_variant(args.variant, args.overrides)
    if variant.abstract:
        raise TablierError(f"{variant.id!r} is an abstract base; train a variant that extends "
                           f"it")
    games_of = tuple(getattr(variant, "games", ()) or ())
    if games_of:
        names = ", ".join(dict.fromkeys(g.id for g in games_of))
        raise TablierError(f"{variant.id!r} is a rotation of {names}: train each of its games; "
                           f"`learned` plays each game with that game's weights")
    extra = td.training_overrides(variant)
    given = variant
    if extra:
        variant = load_variant(args.variant, [*args.overrides, *extra])

    from interpreter.players.learned import nearest_network, weights_cache
    from interpreter.variant.fingerprint import rules_fingerprint

    out = args.out
    if out is None:
        folder = weights_cache()
        if folder is None:
            raise TablierError("no private cache folder to keep the network in: give "
                               "--out FILE.npz")
        out = str(folder / f"{rules_fingerprint(given)}.npz")
    minutes = args.minutes if args.games is None and args.minutes is not None else \
        (10.0 if args.games is None else None)
    start: Path | None = None
    if args.resume:
        if args.start not in ("auto", "none"):
            raise CommandLineError("--resume goes on from --out; --from has no meaning with it")
    elif args.start == "auto":
        found = nearest_network(given)
        if found is not None:
            start = found[0]
            print(f"tablier train: starting from {found[1]} ({start})", file=sys.stderr)
        else:
            print("tablier train: no network of this board and dice to start from; starting "
                  "from small random weights", file=sys.stderr)
    elif args.start != "none":
        start = Path(args.start)
        if not start.is_file():
            raise CommandLineError(f"--from: no weights file {args.start!r}")

    def progress(done: int, cpu: float) -> None:
        print(f"{done} plays, {cpu:.0f} s of CPU", file=sys.stderr, flush=True)

    def said(what: str) -> None:
        print(f"tablier train: {what}", file=sys.stderr)

    net = td.train(variant, args.variant, args.games, out, seed=args.seed,
                   hidden=args.hidden, lam=args.lam, alpha=args.alpha, resume=args.resume,
                   checkpoint_every=args.checkpoint_every, snapshots=args.snapshots,
                   overrides=tuple(args.overrides), progress=progress, rules_of=given,
                   command=args.argv, minutes=minutes, start=start, said=said)
    m = net.meta
    print(f"{out}: {m['games']} plays of {variant.id}, {net.inputs} inputs, "
          f"{net.hidden} hidden units, {net.outputs} outputs, {m['cpu_seconds']} s of CPU")
    if args.out is None:
        print("`learned` plays it wherever the rules are these (the file and its --set "
              "options)")
    return 0


def _cmd_sheet(args: argparse.Namespace) -> int:
    from interpreter.io.sheet import render_sheet

    print(render_sheet(Path(args.record), _ladder_for, args.json))
    return 0


# -- pictures and the web board ---------------------------------------------------------------

def _cmd_draw(args: argparse.Namespace) -> int:
    from interpreter.draw import run

    return run(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from interpreter.web.app import create_app
    except ImportError as exc:
        raise TablierError(f"serve needs the web extra ({exc.name} is missing): "
                           f"pip install 'tablier[web]'") from None
    if args.port == 0:
        raise TablierError("--port 0: give the port (1 to 65535), which every request's "
                           "Host header must name")
    def announce(text: str) -> None:
        # the links of each new game of two people, for the person who runs the server
        print(f"tablier serve: {text}", end="", flush=True)

    app = create_app(limit=args.games, host=args.host, port=args.port, variants=args.variants,
                     request_seconds=args.request_seconds, announce=announce)
    print(f"tablier serve: http://{args.host}:{args.port}/ (Ctrl-C stops); the links of each "
          f"game for two people are printed here", file=sys.stderr)
    if args.host in ("0.0.0.0", "::"):
        print(f"tablier serve: --host {args.host} listens on every address but answers only "
              f"to this machine's own names (127.0.0.1, localhost): to play across the "
              f"network give this machine's address, --host 192.168.1.5 say", file=sys.stderr)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            app.stop()          # the event streams end, and no request waits for them
            super().handle_exit(sig, frame)

    # a stop (SIGTERM, Ctrl-C) waits at most 2 s for the requests at work, whose threads are
    # stopped (interpreter/web/doors.py) and never hold the process back
    server = Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                   timeout_graceful_shutdown=2))
    try:
        server.run()
    except KeyboardInterrupt:       # pragma: no cover - a second Ctrl-C
        pass
    if not server.started:
        raise SystemExit(3)         # uvicorn said why (the port in use...)
    return 0


# -- backgammon identifiers and match files ---------------------------------------------------

def _cmd_id(args: argparse.Namespace) -> int:
    from interpreter.io.gnubg import CHECKERS, decode_any, encode_all

    if args.id_command == "encode":
        def encode(obj: dict) -> dict:
            if not isinstance(obj, dict) or "position" not in obj:
                raise TablierError('expected {"position": {...}, "match": {...}}')
            unknown = sorted(set(obj) - {"position", "match", "variant"})
            if unknown:
                raise TablierError(f"unknown key {unknown[0]!r} (expected position, match)")
            return encode_all(obj["position"], obj.get("match"))
        return _each_position(encode)
    checkers = CHECKERS
    if args.variant is not None:
        from interpreter.variant.build import load_variant
        checkers = load_variant(args.variant).checkers
    status = 0
    for text in args.ids:
        try:
            _out(decode_any(text, checkers))
        except TablierError as exc:
            _out({"error": str(exc), "id": text})
            print(f"tablier id decode: {exc}", file=sys.stderr)
            status = 1
    return status


def _cmd_import(args: argparse.Namespace) -> int:
    from interpreter.io.mat import read_mat
    from interpreter.io.replay import replay, variant_ref
    from interpreter.variant.build import load_variant

    raw = read_bytes(args.file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        record = read_mat(text, strict=True)
    except TablierError as exc:
        raise TablierError(f"{args.file}: {exc}") from None
    ref, overrides = (args.variant, []) if args.variant else variant_ref(record)
    variant = load_variant(ref, overrides + list(args.overrides))
    try:
        result = replay(record, variant)
    except TablierError as exc:
        raise TablierError(f"{args.file}: {exc}") from None
    if args.json:
        _out(result.to_json())
    else:
        print(result.text())
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from interpreter.analyse import analyse_file, gnubg_plies, report
    from interpreter.review import check_reviewer, review

    by = args.by
    plies = gnubg_plies(by, args.ply)
    if plies is not None:
        # GNU Backgammon grades a .mat match's checker plays (interpreter/analyse.py)
        if not str(args.file).lower().endswith(".mat"):
            raise CommandLineError("--by gnubg grades .mat match files (`tablier play --mat "
                                   "FILE` writes one); a saved game is reviewed by the "
                                   "project's players (leave out --by)")
        if args.player is None:
            raise CommandLineError("--by gnubg grades one player: name him with --player")
        analysis = analyse_file(args.file, args.player, plies, float(args.max_seconds))
        print(report(analysis, args.json))
        if analysis.partial is not None:
            print(f"tablier analyse: {args.file}: {analysis.partial.text()}", file=sys.stderr)
            return 1
        return 0
    try:
        check_reviewer(by)
    except TablierError as exc:
        raise CommandLineError(str(exc)) from None
    from interpreter.notation import NotationError

    try:
        r = review(args.file, args.player, by, float(args.max_seconds), notation=args.notation)
    except NotationError as exc:
        raise CommandLineError(f"--notation: {exc}") from None
    if args.json:
        _out(r.to_json())
    else:
        print(r.text())
    if r.partial is not None:
        print(f"tablier analyse: {args.file}: {r.partial.text()}", file=sys.stderr)
        return 1
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from interpreter.bench import BenchInterrupted, _playable_builtins, run_bench
    from interpreter.progress import progress

    ids = args.variants or _playable_builtins()
    status = 0
    try:
        # each variant: its runs of games, then its legal-play timings
        with progress(len(ids) * (args.runs + 1), "bench") as bar:
            report = run_bench(ids, games=args.games, runs=args.runs, seed=args.seed,
                               progress=bar)
    except BenchInterrupted as stop:
        report, status = stop.report, 130
        print(f"tablier bench: interrupted; the figures of the {len(report)} variant"
              f"{'s' if len(report) != 1 else ''} measured so far", file=sys.stderr)
    if args.json:
        _out(report)
    else:
        for vid, figures in report.items():
            print(vid)
            for key, value in figures.items():
                print(f"  {key:>26}: {value}")
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
