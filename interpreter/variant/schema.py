"""The variant file format as pydantic models: every table, every key, every choice.

The models are strict (`extra="forbid"`, no type coercion: `block = "2"` is an error, not 2) and
describe one *merged* document, after `extends` and `--set` have been applied (see
`interpreter.variant.loader`). Checks that involve several keys (a rule's kind and its fields,
the starting position and `board.checkers`, options and their choices, what a playable variant
must have) are in `interpreter.variant.checks`, so that every problem is reported together.

Rule-language snippets (`when`, `ways`, `value`, `minimize`, `maximize`, `[regions]`, `[define]`)
are plain strings here; `interpreter.dsl` checks them.

Every key has a `description`: the words of the key. A switch of `[dice]` and `[movement]` also
says, in `says(...)`, what each of its values does, so that the rulebook (`interpreter.rulebook`)
can state the effect of the value a variant gives it, and `applies_if` says when the switch has
any effect at all.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from interpreter.kernel.rules import MoveRules
from interpreter.variant.choice import choice_key  # noqa: F401 - where it was first defined

_DEFAULT = MoveRules()


def says(applies_if: dict[str, Any] | None = None, /, **sentences: str) -> dict[str, Any]:
    """The words of each value of a switch, for `Field(json_schema_extra=...)`.

    A sentence is keyed by the value as TOML writes it (`all_home`, `true`, `1`), `none` for an
    absent value, `any` for every other value; `{value}` in it is replaced by the value.
    `applies_if` names the switches this one depends on: {key: [values]} or {key: "set"} (any
    value but none); when they do not hold, the switch has no effect."""
    extra: dict[str, Any] = {"says": sentences}
    if applies_if:
        extra["applies_if"] = applies_if
    return extra

#: a point of the board, numbered from the player concerned (24: start of the route, 1: end)
Pip = Annotated[int, Field(ge=1, le=24)]


class Strict(BaseModel):
    """Base of every table of the format: unknown keys are errors and types are never coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


class VariantInfo(Strict):
    """`[variant]`: what the variant is and where its rules come from."""

    id: str | None = Field(None, description="the variant id (lowercase, words joined by '-'), as "
                           "used on the command line and in saved games")
    name: str | None = Field(None, description="the variant's name, for people")
    aliases: list[str] = Field(default_factory=list, description="other names of the game")
    family: str | None = Field(None, description="the family it belongs to, e.g. \"backgammon\" "
                               "or \"trictrac\"")
    sources: list[str] = Field(default_factory=list, description="where the rules come from")
    summary: str | None = Field(None, description="a paragraph describing the game")
    abstract: bool = Field(False, description="true for a base file that other files extend and "
                           "that cannot be played by itself; never inherited through `extends`")
    mat_variation: str | None = Field(
        None, description="the `Variation` header gnubg writes in a .mat file for this game "
        "(\"NackGammon\", \"HyperGammon ({checkers})\", `{checkers}` standing for the checkers a "
        "side); none for backgammon itself")


class SideStart(Strict):
    """`[board.black]`: the second side's own start where it differs from the first's."""

    start: dict[str, int] | None = Field(
        None, description="where the second player's (black's) checkers start, in his own pips "
        "(pip → number of checkers); absent: the same layout as `board.start`")
    state: dict[str, int] | None = Field(
        None, description="the second player's initial values of the named state "
        "(`[turn.state]`) where they differ from the first's (Cab e quinal: each side's start "
        "point)")

    def start_pips(self) -> dict[int, int] | None:
        return None if self.start is None else {int(p): n for p, n in self.start.items()}


class Board(Strict):
    """`[board]`: the checkers and where they start."""

    checkers: int | None = Field(None, ge=1, le=60, description="checkers per player")
    points: Literal[12, 18, 24, 36] | None = Field(
        None, description="how many points each side's route has: 24 (the whole board), 18 "
        "(three quarters, Seys dos e as), 12 (one half, Medio emperador) or 36 (a board of "
        "three rows of twelve, XII scripta, with `movement.route = \"scripta\"`); pip `points` "
        "is the first point of the route, and a checker enters from the bar with a number d on "
        "pip points + 1 − d", json_schema_extra=says(
            none="Each side's route runs over the 24 points of the board.",
            **{"24": "Each side's route runs over the 24 points of the board.",
               "36": "The board has 36 points in three rows of twelve, and each side's route "
               "runs over all of them: it starts on his pip 36, and a number d enters a checker "
               "from the bar on pip 37 − d.",
               "any": "Each side's route has {value} points: it starts on his pip {value}, and "
               "a number d enters a checker from the bar on pip {value} + 1 − d."}))
    unplaced: Literal["error", "off", "unentered"] = Field(
        "error", description="in a position given as JSON (`tablier moves`, `score`), the men "
        "of a side that it places neither on the points nor on the bar: an error unless they "
        "are the unentered ones of a game whose men start off the board (error), borne off "
        "(off), or still to enter (unentered, with `unentered`); with off or unentered each "
        "line of `tablier moves` also says what follows the play (`next`, `game_over`)",
        json_schema_extra=says(
            error="A position given as JSON places every man of both sides (the unentered ones "
            "of a game whose men start off the board excepted).",
            off="A position given as JSON may leave men out: those it places neither on the "
            "points nor on the bar are borne off; each line of `tablier moves` says what "
            "follows the play (`next`, `game_over`).",
            unentered="A position given as JSON may leave men out: those it places neither on "
            "the points, the bar nor among those borne off are still to enter; each line of "
            "`tablier moves` says what follows the play (`next`, `game_over`)."))
    black: SideStart | None = Field(
        None, description="the second player's (black's) own start and initial state, where "
        "they differ from `start` (Seys dos e as, Laquet: a different layout per side)")
    start: dict[str, int] | None = Field(
        None, description="where each player's checkers start: pip (\"1\"..\"24\", or "
        "..\"36\" on a board of 36 points, from the player's own point of view) → number of "
        "checkers; with `unentered`, must add up to `checkers`")
    unentered: int | None = Field(
        None, ge=0, le=60, description="checkers each player starts with off the board, "
        "waiting to enter as from the bar (acey-deucey: all of them)", json_schema_extra=says(
            none="Every checker starts on the board.",
            **{"0": "Every checker starts on the board.",
               "any": "{value} checkers of each side start off the board; a number d enters one "
               "on the pip `movement.entry_pip` gives (pip 25 − d, as from the bar, unless it is "
               "set), and a player bears off only once all his checkers are in."}))
    all_off: Literal["end", "releve", "restack"] = Field(
        "end", description="what happens when all of a side's men are borne off: the end rules "
        "decide (`end`, backgammon), the men of both sides are set up again and the same player "
        "throws again (`releve`, trictrac), or that side's men go back to their start at once and "
        "a number left over enters one (`restack`, the 12-point Tric-Trac)",
        json_schema_extra=says(
            end="When a side's men are all borne off, the end rules decide.",
            releve="When a side's men are all borne off, the men of both sides are set up "
            "again (a relevé) and the same player throws again.",
            restack="When a side's men are all borne off, they go back to their start at once "
            "(a restack, which is not a move) and a number of that throw left over enters one."))

    stacked: list[Pip] | None = Field(
        None, max_length=24, description="the pips (each player's own numbers) where his "
        "checkers start stacked in pairs, one on the other (Doblet): while a player has a pair "
        "stacked, a number d unstacks his pair on pip `points` + 1 − d and moves nothing (see "
        "`movement.unstack`); each pip must start with two or more of his checkers",
        json_schema_extra=says(
            none="No checkers start stacked.",
            any="Each player's checkers on his pips {value} start stacked in pairs. While a "
            "player has a pair stacked, each number d of his throw unstacks his pair on the "
            "d-th point of his route and moves nothing; a number whose pair is already "
            "unstacked cannot be played. Once all are unstacked his checkers move."))

    def start_pips(self) -> dict[int, int]:
        """The starting position with integer pips (empty when there is none)."""
        return {int(pip): count for pip, count in (self.start or {}).items()}


class Dice(Strict):
    """`[dice]`: doublets and the opening throw."""

    doublets: Literal["four", "twice", "twice_and_throw_again", "four_and_throw_again",
                      "once"] = Field(
        "four", description="how a doublet is played: four times (backgammon), twice (trictrac), "
        "twice with another throw after it (12-point Tric-Trac), four times with another "
        "throw after it, or once, as one move of its number (Tourne-case)",
        json_schema_extra=says(
            {"count": [2]},
            four="A doublet is played four times: four moves of its number.",
            twice="A doublet is played twice, as two moves of its number, not four.",
            once="A doublet is played once: one move of its number.",
            twice_and_throw_again="A doublet gives two moves of its number, and the same player "
            "throws again after it.",
            four_and_throw_again="A doublet is played four times, and the same player throws "
            "again after it."))
    count: Literal[2, 3] = Field(
        2, description="how many dice a throw has: two, or three (Tabula, Emperador: each die "
        "is one single move, a doublet or triplet included, the three in any order, as many "
        "as can be played)",
        json_schema_extra=says(
            **{"2": "A throw is two dice.",
               "3": "A throw is three dice: each die is one single move (a doublet or triplet "
               "too: each die once), played in any order; as many numbers as possible must be "
               "played, with no preference between plays using as many. To begin, each player "
               "throws one die, and the higher throws the three dice for his first play."}))
    fixed_die: str | None = Field(
        None, description="with `count = 3`: a count of `[turn.state]` whose value, once it "
        "is 1..6, is the third die of every throw of both players, two dice being thrown "
        "(Cab e quinal's fixed-die ruleset, the value chosen before the game by "
        "`[turn.choose]`); at 0 the three dice are thrown", json_schema_extra=says(
            none="Every die of a throw is thrown.",
            any="Once the state `{value}` holds a number 1..6 (chosen before the game), it is "
            "the third die of every throw of both players and two dice are thrown; at 0 the "
            "three dice are thrown."))
    numbers: Literal["both", "lower"] = Field(
        "both", description="which numbers of a throw are played: both (all of a doublet, as "
        "`doublets` says), or only the lower, once, a doublet included (Tourne-case)",
        json_schema_extra=says(
            {"count": [2]},
            both="Both numbers of a throw are played (a doublet as `doublets` says).",
            lower="Only the lower number of the two dice is played, once (a doublet: its number "
            "once); it must be played if any checker can play it, else it is lost."))
    opening_roll: Literal["one_die_each", "nearer_high_die", "winner_throws_two"] = Field(
        "one_die_each", description="who starts: each throws one die and the higher plays both "
        "numbers (one_die_each); one player throws both dice and whoever is nearer the higher die "
        "plays that roll (nearer_high_die); the higher single die wins and then throws two fresh "
        "dice (winner_throws_two)",
        json_schema_extra=says(
            {"count": [2]},
            one_die_each="To begin, each player throws one die; the higher plays the two numbers "
            "thrown, and equal numbers are thrown again, so the game never opens with a doublet.",
            nearer_high_die="To begin, one player throws both dice, and whoever is nearer the "
            "higher die plays that throw.",
            winner_throws_two="To begin, each player throws one die; the higher wins and throws "
            "two fresh dice for his first move, which may be a doublet."))
    extra_throw: Literal["compulsory", "optional"] = Field(
        "compulsory", description="with `doublets = \"twice_and_throw_again\"`: the throw after "
        "a doublet is always taken (`compulsory`) or taken at the player's choice (`optional`)",
        json_schema_extra=says(
            {"doublets": ["twice_and_throw_again"]},
            compulsory="The throw after a doublet is always taken.",
            optional="The throw after a doublet is taken at the player's choice."))
    bonus_throw: list[Annotated[int, Field(ge=1, le=6)]] = Field(
        default_factory=list, description="a throw (two numbers, in either order) that grants "
        "the `bonus` stages once it is played in full, e.g. [1, 2] in acey-deucey; empty: none",
        json_schema_extra=says(
            none="No throw grants a bonus.",
            any="A throw of {value}, once played in full, grants the stages of `bonus`."))
    bonus: list[Literal["chosen_doublet", "complement_doublet", "throw_again"]] = Field(
        default_factory=list, description="what follows a fully played `bonus_throw`, in order, "
        "each only when the previous one was played in full: a doublet the player names, played "
        "as a doublet (chosen_doublet); the doublet on the opposite faces (complement_doublet); "
        "another throw (throw_again)",
        json_schema_extra=says(
            {"bonus_throw": "set"},
            none="Nothing follows a throw.",
            any="After the bonus throw, in order, each only when the previous step was played "
            "in full: {value} (a doublet the player names, its complement on the opposite faces, "
            "another throw)."))


class Movement(Strict):
    """`[movement]`: the movement switches of the kernel (`interpreter.kernel.rules.MoveRules`)."""

    route: Literal["opposite", "same", "shared", "scripta"] = Field(
        _DEFAULT.route, description="where the opponent's checkers run: the other way round "
        "(opposite: his pip q is the mover's 25 - q), the same way (same: his pip q is the "
        "mover's q + 12 for q <= 12, q - 12 for q >= 13; his start is the mover's pip 12), "
        "along the mover's own route (shared: his pip q is the mover's q), or on the 36 points "
        "of XII scripta (scripta, with `board.points = 36`: the middle row, pips 25..36, "
        "shared the same way; the outer rows crossed, his pip q <= 24 the mover's 25 - q)",
        json_schema_extra=says(
            opposite="The players run opposite ways round: the opponent's pip q is the mover's "
            "pip 25 − q, his start the mover's pip 1, his home board the mover's pips 19..24.",
            same="Both players run the same way round from diagonally opposite corners: the "
            "opponent's pip q is the mover's pip q + 12 (q ≤ 12) or q − 12, his start the "
            "mover's pip 12, his home board the mover's pips 13..18.",
            shared="Both players enter at the same end and run one shared route: the opponent's "
            "pip q is the mover's pip q, and both bear off from pips 1..6.",
            scripta="Both players enter on the middle row of three and run along it the same "
            "way (the opponent's pip q is the mover's pip q for q ≥ 25), then along the outer "
            "rows in opposite directions: the mover's far row, pips 24..13, is the opponent's "
            "home row, and the opponent's pip q ≤ 24 is the mover's pip 25 − q."))
    block: int = Field(_DEFAULT.block, ge=1, le=15, description="how many opposing checkers on a "
                       "point stop a checker from landing there", json_schema_extra=says(
                           **{"1": "A single opposing checker closes a point: no checker may land "
                              "or rest on it.",
                              "any": "A point holding {value} or more opposing checkers is "
                              "closed: no checker may land or rest on it; fewer make a blot."}))
    hit: Literal["bar", "start", "none", "pin", "unentered", "place", "removed"] = Field(
        _DEFAULT.hit, description="what landing on fewer than `block` opposing checkers does to "
        "them: send them to the bar, back to their start, back off the board among the "
        "unentered, pin a lone one under the lander (pin), put them at once on a pip of "
        "`place` (place), or nothing", json_schema_extra=says(
            bar="A checker landing on a blot hits it: the blot goes to the bar.",
            start="A checker landing on a blot hits it: the blot goes back to its owner's start, "
            "to come into play again.",
            none="Nothing is ever hit for real: checkers leave the board only by bearing off.",
            pin="A checker landing on a lone opposing checker pins it: the pinned checker stays "
            "under it and cannot move until every checker on it has left; a point is closed by "
            "two free opposing checkers, or by any sitting on a pinned checker of the mover's.",
            unentered="A checker landing on a blot hits it: the blot goes back off the board, "
            "among its side's checkers waiting to enter.",
            place="A checker landing on a blot hits it: the blot is put at once, without a "
            "die, on the first pip of `place` (its owner's numbers, in that order) that holds "
            "no checker of the hitter once the hitting move is made.",
            removed="A checker landing on a blot hits it: the blot leaves the game for good, "
            "counted with its side's checkers borne off."))
    place: list[Pip] | str | None = Field(
        None, description="with `hit = \"place\"`: the pips, in the hit checker's owner's own "
        "numbers and in the order they are tried, where a hit checker is put (the first that "
        "holds no checker of the hitter, the hitting one included); or the name of a "
        "`[turn.state]` value holding that one pip for each side (a start point that differs "
        "by side)", json_schema_extra=says(
            {"hit": ["place"]},
            any="A hit checker is put on the first of its owner's pips {value} that holds no "
            "checker of the hitter once the hitting move is made."))
    place_full: Literal["bar"] = Field(
        _DEFAULT.place_full, description="with `hit = \"place\"`: where a hit checker goes "
        "when the hitter holds every pip of `place`: the bar (it enters with a number)",
        json_schema_extra=says(
            {"hit": ["place"]},
            bar="When the hitter holds every pip of `place`, the hit checker goes to the bar "
            "and enters from there with a number."))
    held_start: Literal["refused", "bar"] = Field(
        _DEFAULT.held_start, description="with `hit = \"start\"`: when the hitter's side holds "
        "the hit checker's start (or lands on it), the hit is not possible (refused), or the hit "
        "checker goes to the bar and enters from there (bar)", json_schema_extra=says(
            {"hit": ["start"]},
            refused="A blot cannot be hit while the hitter's side holds its start, where it "
            "would go.",
            bar="A blot hit while the hitter's side holds its start goes to the bar instead, "
            "and must enter from there, a number d on its owner's pip 25 − d, before its owner "
            "moves any other checker."))
    enter: Literal["bar", "start", "none"] = Field(
        _DEFAULT.enter, description="where checkers wait to come into play: the bar, the start "
        "pip `start_pip`, or nowhere", json_schema_extra=says(
            bar="Checkers on the bar come back into play in the opponent's home board: a number d "
            "enters a checker on pip 25 − d.",
            start="Checkers waiting on the start come into play by moving from it, like the "
            "checkers of the starting position.",
            none="No checker ever waits to come into play."))
    start_pip: int = Field(_DEFAULT.start_pip, ge=1, le=24, description="the pip checkers enter "
                           "from when `enter` is \"start\"", json_schema_extra=says(
                               {"enter": ["start"]},
                               any="The start, where checkers wait to come into play, is pip "
                               "{value}."))
    enter_first: bool = Field(_DEFAULT.enter_first, description="checkers waiting to enter must "
                              "all come in before any other checker moves", json_schema_extra=says(
                                  {"enter": ["bar", "start"]},
                                  true="Checkers waiting to come into play must all come in "
                                  "before any other checker moves.",
                                  false="Checkers waiting to come into play need not come in "
                                  "before the others move."))
    unentered_first: bool = Field(
        _DEFAULT.unentered_first, description="all unentered checkers must come in before any "
        "checker on the board moves", json_schema_extra=says(
            true="Checkers waiting off the board must all come in before any checker on the "
            "board moves.",
            false="Checkers on the board may move while others still wait off the board."))
    limit: int = Field(
        _DEFAULT.limit, ge=0, le=15, description="the most checkers of one side a point may "
        "hold, on the pips of `limit_pips` (0: no limit): no checker may land or rest on a "
        "point already holding that many of his side", json_schema_extra=says(
            **{"0": "A point may hold any number of one side's checkers.",
               "any": "A point (of `limit_pips`) may hold at most {value} checkers of one side: "
               "no checker may land or rest on it once it holds that many of his."}))
    limit_pips: list[Pip] = Field(
        list(_DEFAULT.limit_pips), max_length=24, description="the pips (the mover's numbers) "
        "where `limit` applies; empty: every pip", json_schema_extra=says(
            {"limit": "set"},
            none="The limit applies on every point.",
            any="The limit applies on pips {value} only."))
    unstack: Literal["per_throw", "per_move"] = Field(
        _DEFAULT.unstack, description="with `board.stacked`: when the stage of unstacking is "
        "judged: when the throw begins (per_throw: a throw begun with a pair stacked is played "
        "wholly by unstacking) or before each single move (per_move: the numbers left once the "
        "last pair is unstacked move the checkers)", json_schema_extra=says(
            per_throw="A throw begun while the player has a pair stacked is played wholly by "
            "unstacking, even once its first numbers have unstacked the last pair.",
            per_move="The stage is judged before each number: those left once the last pair "
            "is unstacked move the checkers."))
    entering_stage: bool = Field(
        _DEFAULT.entering_stage, description="while any checker of the mover is off the board "
        "(on the bar or never entered), entering one is his only single move, in either order "
        "(an entering stage: Buffa de baldrac)", json_schema_extra=says(
            true="While any of his checkers is off the board, on the bar or never entered, a "
            "player's only moves are entries; the others move on once all are in.",
            false="No entering stage: checkers off the board enter as `enter_first` and "
            "`unentered_first` say."))
    unentered_move_on: bool = Field(
        _DEFAULT.unentered_move_on, description="a checker entered from off the board may go on "
        "with another number of the same throw", json_schema_extra=says(
            true="A checker entered from off the board may move on with another number of the "
            "same throw.",
            false="A checker entered from off the board waits for a later throw to move on."))
    entry_pip: int = Field(
        _DEFAULT.entry_pip, ge=7, le=37, description="checkers waiting off the board "
        "(`board.unentered`) enter with a number d on pip `entry_pip` − d: 25 as from the bar, "
        "in the opponent's home board; 13 on the mover's own side (Tourne-case's lane, whose "
        "point k is pip 13 − k); at most `board.points` + 1 (37 on the 36 points of XII "
        "scripta)", json_schema_extra=says(
            **{"25": "Checkers waiting off the board enter as from the bar: a number d on pip "
               "25 − d.",
               "any": "Checkers waiting off the board enter with a number d on pip {value} − d."}))
    pinned_bear_off: Literal["forbidden", "allowed"] = Field(
        _DEFAULT.pinned_bear_off, description="with `hit = \"pin\"`: whether the mover may bear "
        "off while one of his checkers is pinned (allowed: a pinned checker in the home board "
        "counts as home)", json_schema_extra=says(
            {"hit": ["pin"]},
            forbidden="No checker is borne off while one of the mover's checkers is pinned.",
            allowed="A pinned checker in the home board counts as home: the others may be borne "
            "off around it."))
    bear_off: Literal["all_home", "anywhere", "none", "in_place"] = Field(
        _DEFAULT.bear_off, description="bear off only while every checker is on pips "
        "1..`home_top` (all_home), from anywhere, never (none: pip `off_pip` + 1 is the "
        "goal, and a number that would take a checker past it cannot be played by that "
        "checker), or in place (in_place: no checker moves along the route; a number d bears "
        "off one checker from pip `points` + 1 − d, the d-th point of the route, as the English "
        "Dubblets bears off its men from the points where they were stacked)",
        json_schema_extra=says(
            in_place="No checker moves along the route: each number d bears off one of the "
            "player's checkers from the d-th point of his route (pip 25 − d on a board of 24 "
            "points), if he has one there.",
            all_home="A checker may be borne off only while all the player's checkers are in his "
            "home board.",
            anywhere="A checker may be borne off from anywhere, wherever the others stand.",
            none="No checker is ever borne off: the last pip is the goal, and a number that "
            "would take a checker past it cannot be played by that checker."))
    home_top: int = Field(_DEFAULT.home_top, ge=1, le=24, description="the highest pip of the "
                          "home board", json_schema_extra=says(
                              any="The home board is pips 1 to {value}."))
    off_pip: int = Field(_DEFAULT.off_pip, ge=0, le=12, description="a move reaching this pip or "
                         "below bears the checker off (0: past pip 1; 1 when Home counts as off); "
                         "at most 12, half the board",
                         json_schema_extra=says(
                             **{"0": "A checker is borne off by a move that goes past pip 1.",
                                "any": "A move that reaches pip {value} or goes beyond it bears "
                                "the checker off: pip {value} counts as off."}))
    exact_exit: Literal["optional", "compulsory"] = Field(
        _DEFAULT.exact_exit, description="whether a number that bears a checker off exactly must "
        "do so", json_schema_extra=says(
            optional="A number that would bear a checker off exactly may be played elsewhere "
            "instead.",
            compulsory="A number that can bear a checker off exactly must do so."))
    over_exit: Literal["farthest", "any", "none"] = Field(
        _DEFAULT.over_exit, description="which checker a number higher than needed may bear off: "
        "the farthest only, any, or none (only an exact number bears off)",
        json_schema_extra=says(
            farthest="A number higher than any checker needs bears off the farthest checker, and "
            "only when no checker stands farther back.",
            any="A number bears off any checker it reaches or passes.",
            none="Only an exact number bears a checker off: a higher number never does."))
    excedant_filter: Literal["none", "fewest", "zero_if_possible"] = Field(
        _DEFAULT.excedant_filter, description="among plays bearing off, prefer those with the "
        "fewest bear-offs by a higher number (fewest), reject them only when a play without "
        "any exists (zero_if_possible), or nothing (none)", json_schema_extra=says(
            none="Plays that bear off with numbers higher than needed are not filtered.",
            fewest="Among the plays that bear off, only those with the fewest bear-offs by a "
            "number higher than needed are allowed: a number that can be played inside must be.",
            zero_if_possible="Plays that bear off with a number higher than needed are refused "
            "only when some play needs none."))
    retour_conserve_exit: Literal["farthest_checker", "farthest_surplus_point"] = Field(
        _DEFAULT.retour_conserve_exit, description="while the home board is full, a number "
        "higher than needed bears off the farthest checker only (farthest_checker), or may also "
        "bear off a checker from the farthest point holding more than two, keeping the board "
        "full (farthest_surplus_point)", json_schema_extra=says(
            farthest_checker="While the home board is full, a number higher than needed still "
            "bears off the farthest checker only.",
            farthest_surplus_point="While the home board is full, a number higher than needed "
            "may also bear off a checker from the farthest point holding more than two, which "
            "keeps the board full."))
    max_dice: bool = Field(_DEFAULT.max_dice, description="both numbers (all of a doublet) must "
                           "be played when possible", json_schema_extra=says(
                               true="Every number of the throw (every move of a doublet) must "
                               "be played when possible, or as many as can be.",
                               false="A player may play fewer numbers than he could."))
    higher_number: bool = Field(_DEFAULT.higher_number, description="when only one number can "
                                "be played, the higher must be if possible", json_schema_extra=says(
                                    true="When only one of the numbers can be played, the higher "
                                    "must be played if it can.",
                                    false="When only one of the numbers can be played, either "
                                    "may be."))
    own_corner: int | None = Field(_DEFAULT.own_corner, ge=1, le=24, description="the mover's "
                                   "corner pip (taken and left by two); absent: no corners",
                                   json_schema_extra=says(
                                       any="Each player's own corner is pip {value}: it is taken "
                                       "by two checkers in one throw, never holds a single "
                                       "checker at the end of a play, and its last two checkers "
                                       "leave together.",
                                       none="There are no corners."))
    opp_corner: int | None = Field(_DEFAULT.opp_corner, ge=1, le=24, description="the "
                                   "opponent's corner pip, never a landing", json_schema_extra=says(
                                       any="The opponent's corner is the mover's pip {value}: "
                                       "no move ends there, even when it is empty.",
                                       none="No pip is the opponent's corner."))
    opp_corner_rest: bool = Field(_DEFAULT.opp_corner_rest, description="whether a checker may "
                                  "rest on the empty opponent's corner in the middle of a move "
                                  "made with both numbers", json_schema_extra=says(
                                      {"opp_corner": "set"},
                                      true="A checker moving with both numbers may rest on the "
                                      "opponent's corner on its way while the corner is empty.",
                                      false="No move passes through the opponent's corner, not "
                                      "even as the rest of a move made with both numbers."))
    coin_swap: Literal["allow", "forbid"] = Field(
        _DEFAULT.coin_swap, description="whether one of the last two checkers may leave the own "
        "corner while another arrives in the same play", json_schema_extra=says(
            {"own_corner": "set"},
            allow="One of the last two checkers on the own corner may leave while another arrives "
            "in the same play: only the count at the end of the play matters.",
            forbid="Neither of the last two checkers on the own corner may leave without the "
            "other, even while another checker arrives."))
    puissance_needs: Literal["off", "both_coins_empty", "own_coin_empty"] = Field(
        _DEFAULT.puissance_needs, description="taking the own corner par puissance: off, or "
        "allowed only when both corners / the own corner are empty", json_schema_extra=says(
            {"own_corner": "set"},
            off="The own corner cannot be taken par puissance.",
            both_coins_empty="While both corners are empty, two checkers that could reach the "
            "opponent's corner may take the own corner instead, each one pip short (par "
            "puissance); not when two checkers can take it directly.",
            own_coin_empty="While the own corner is empty, two checkers that could reach the "
            "opponent's corner may take the own corner instead, each one pip short (par "
            "puissance), even while the opponent holds his; not when two checkers can take it "
            "directly."))
    no_landing: list[Pip] = Field(list(_DEFAULT.no_landing), max_length=24,
                                  description="pips that are never a landing but may be a rest "
                                  "while empty", json_schema_extra=says(
                                      none="No other pip is closed to landing.",
                                      any="Pips {value} are never a landing, but a checker may "
                                      "rest there on its way while they are empty."))


    hit_across: bool = Field(
        _DEFAULT.hit_across, description="a checker landing on a pip p free of opposing "
        "checkers (entering, moving, or resting between two numbers) hits the opposing checkers "
        "on the pip directly across the board, 25 − p, sending them where `hit` says "
        "(Tourne-case)", json_schema_extra=says(
            true="A checker landing on a point hits the opposing checkers directly across the "
            "board from it (on the mover's pip 25 − p), sending them where `hit` says.",
            false="Only checkers landed on are hit."))
    across_safe: list[Pip] = Field(
        list(_DEFAULT.across_safe), max_length=24, description="with `hit_across`: the pips "
        "where a landing hits nothing across the board (so the opposing checkers across them, "
        "on 25 − p, are safe)", json_schema_extra=says(
            {"hit_across": [True]},
            none="Every landing may hit across the board.",
            any="A landing on pips {value} hits nothing across the board; the opposing checkers "
            "across them are safe."))


RuleKind = Literal["score", "forbid", "prefer", "end", "value"]

#: the keys a rule of each kind may have besides the common ones (name, kind, description,
#: source, enabled, order); `interpreter.variant.checks` reports the others
RULE_KIND_FIELDS: dict[str, frozenset[str]] = {
    "score": frozenset({"when", "ways", "value", "to", "simple", "doublet", "on"}),
    "forbid": frozenset({"when", "on", "waive"}),
    "prefer": frozenset({"when", "minimize", "maximize"}),
    "end": frozenset({"when", "winner", "on"}),
    "value": frozenset({"when", "value"}),
}
RULE_COMMON_FIELDS = frozenset({"name", "kind", "description", "source", "enabled", "order"})

#: the rule keys whose value is rule-language text
SNIPPET_FIELDS = ("when", "ways", "value", "minimize", "maximize")


class Rule(Strict):
    """`[rules.<id>]`: one rule of the game: a scoring item, a legality filter, a preference
    among plays, an end of the game or a game value. Its id is the table key."""

    name: str = Field(description="the rule's name, for people (e.g. \"Petit jan de récompense\")")
    kind: RuleKind = Field(description="score: points for a roll; forbid: plays it matches are "
                           "illegal; prefer: keep the plays that satisfy or optimise it; end: "
                           "the game ends; value: what a finished game is worth")
    description: str | None = Field(None, description="the rule in words")
    source: str | None = Field(None, description="where the rule is stated")
    enabled: bool = Field(True, description="false switches the rule off (a house rule)")
    when: str | None = Field(None, description="rule-language condition under which the rule "
                             "applies")
    ways: str | None = Field(None, description="rule-language expression counting the ways the "
                             "rule is made (score rules counted per way)")
    value: str | None = Field(None, description="rule-language expression: the points of a "
                              "score rule, or the value of a game for a value rule")
    minimize: str | None = Field(None, description="rule-language expression that a prefer rule "
                                 "makes as small as possible")
    maximize: str | None = Field(None, description="rule-language expression that a prefer rule "
                                 "makes as large as possible")
    to: Literal["mover", "opponent"] | None = Field(None, description="who gains the points of a "
                                                    "score rule (default mover)")
    simple: int | None = Field(None, ge=0, description="points for a simple (non-doublet) roll, "
                               "per way")
    doublet: int | None = Field(None, ge=0, description="points for a doublet, per way")
    on: Literal["roll", "play", "move", "throw"] | None = Field(
        None, description="when the rule applies: a score rule on the roll, before moving "
        "(roll, the default), or on the play chosen (play); a forbid rule on the position a play "
        "ends on (play, the default) or on each single move as it is made (move); an end rule on "
        "the position a play ends on (play, the default), also after each single move, ending "
        "the game in the middle of the throw (move), or on the throw before it is played, "
        "reading its dice and `unplayed` (throw: a loss by a throw that cannot be played; where "
        "it holds, nothing is played)")
    waive: Literal["never", "unavoidable", "fewer_numbers"] | None = Field(
        None, description="a forbid rule that a roll may waive: when no way of playing it, "
        "not moving included, satisfies the rule (unavoidable), or when obeying the rule plays "
        "fewer numbers than breaking it (fewer_numbers); default never")
    order: int | None = Field(None, description="where the rule comes among rules of its kind "
                              "(lower first; default: the order of the file)")
    winner: Literal["mover", "opponent", "none"] | None = Field(
        None, description="who wins when an end rule holds (default mover; none: a tie, the game "
        "ends with no winner and no points)")


class Stage(Strict):
    """`[turn.stages.<id>]`: a stage rule. After a throw, or a stage, of which `when` holds is
    played in full, the same player plays a stage of the doublet `next` (judged as a throw of
    its own; a number above 6 or below 1, or no `next`: none, the throw is over); the stage is
    no throw of his (`rolls` does not change). The numbers such a throw or stage leaves
    unplayed are lost, or, where `to_opponent` holds, played by the opponent before his own
    throw, with the stages after them (what he cannot play is lost). The id is the table
    key."""

    name: str = Field(description="the stage rule's name, for people (e.g. \"The doubles "
                      "progression\")")
    description: str | None = Field(None, description="the rule in words")
    source: str | None = Field(None, description="where the rule is stated")
    enabled: bool = Field(True, description="false switches the rule off (a house rule)")
    when: str = Field(description="rule-language condition, asked of the throw or stage just "
                      "played (its dice, `rolls`, `unplayed`, the position before it): whether "
                      "this rule governs it")
    next: str | None = Field(None, description="rule-language number: the doublet of the stage "
                             "that follows one played in full (outside 1..6, or no `next`: "
                             "none)")
    to_opponent: str | None = Field(
        None, description="rule-language condition: the numbers a governed throw or stage "
        "leaves unplayed go to the opponent, who plays them (a doublet's rest as that many "
        "moves of its number, two different numbers as a throw of their own) and the stages "
        "after them before his own throw (default: they are lost)")
    again: str | None = Field(
        None, description="rule-language condition: once no stage follows a governed throw "
        "or stage played in full, the same player throws again (default: never)")
    optional: bool = Field(
        False, description="with `to_opponent`: the opponent MAY play the numbers passed to "
        "him, any of them in any order, or none (Laquet); false: he must play as many as he can")
    again_partial: bool = Field(
        False, description="with `again`: it is asked of a governed throw played only in part "
        "too (its condition may read `unplayed`); false: only of one played in full")
    instead_of_throw: bool = Field(
        False, description="with `to_opponent`: the numbers passed are the opponent's whole "
        "turn: he plays them as a throw of his own (as many as he can, the throw's obligations "
        "applied), does not throw, and what he cannot play is lost (Laquet's `lq_passed = "
        "\"instead_of_throw\"`); false: he throws after them")
    moves: Literal["any", "bear_off"] = Field(
        "any", description="with `to_opponent`: what the numbers passed to the opponent may "
        "do: move his checkers as a throw's numbers do (any), or only unstack one of his "
        "stacked pairs (`board.stacked`) or bear a checker off by the exact number (bear_off, "
        "Doblet: never move along the route)")


class Choice(Strict):
    """`[turn.choose.<name>]`: a choice made once, before the first throw of each game, that
    sets the named state `<name>` (declared in `[turn.state]`) of both sides for the whole
    game (Doze canes' goal quarter, Cab e quinal's fixed third die)."""

    name: str = Field(description="the choice's name, for people (e.g. \"The goal quarter\")")
    description: str | None = Field(None, description="the choice in words")
    source: str | None = Field(None, description="where the rule is stated")
    by: Literal["first"] = Field(
        "first", description="who chooses: the player who won the opening throw, before his "
        "first throw (first)")
    values: list[Annotated[int, Field(ge=0, le=1000)]] = Field(
        min_length=1, max_length=24, description="the values he may choose, his own value of "
        "the state for each")
    theirs: list[Annotated[int, Field(ge=0, le=1000)]] | None = Field(
        None, description="the other player's value of the state for each choice, in the same "
        "order (seen from his side); absent: the same values")
    labels: list[str] | None = Field(
        None, description="the word a player answers for each choice, in the same order "
        "(absent: the values as numbers)")
    span: int | None = Field(
        None, ge=1, le=24, description="the choice is a run of this many points from the "
        "value chosen: a position (JSON) writes the state as the mover's [first, last] pips "
        "instead of [mover's value, opponent's] (Doze canes' goal quarter: 6)")
    only_if: dict[str, str | int | bool] | None = Field(
        None, description="asked only where each option named has the value given (a house "
        "option that brings the choice: Cab e quinal's `{ cq_third_die = \"fixed\" }`); "
        "absent: in every game")


class StateUpdate(Strict):
    """`[turn.update.<name>]`: how the mover's value of the named state `<name>` (declared in
    `[turn.state]`) changes after each of his plays: `value` is its new value, read like a
    forbid rule on the play chosen (`before`, `after`, `path`, the dice, `rolls`, and the
    state's values before the play under their plain names)."""

    name: str = Field(description="the update's name, for people (e.g. \"The courier has "
                      "arrived\")")
    description: str | None = Field(None, description="the update in words")
    source: str | None = Field(None, description="where the rule is stated")
    value: str = Field(description="rule-language value (a condition for a true/false state, "
                       "a number for a count): the mover's new value after his play")


#: a state name: a word of the rule language
_STATE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,40}")


class Turn(Strict):
    """`[turn]`: how a turn unfolds beyond one throw and its play (the doublets and the throw
    after a doublet are `[dice]`'s)."""

    stages: dict[str, Stage] = Field(default_factory=dict, description="the stage rules, by id, "
                                     "in order: the first whose `when` holds governs a throw")
    state: dict[str, bool | Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=dict, description="named state kept across turns, one value for each "
        "player: name → initial value (true/false, or a count from 0 to 1000), read by the "
        "rules under its name (the mover's value) and set by `[turn.update]`; it starts afresh "
        "with each game")
    choose: dict[str, Choice] = Field(
        default_factory=dict, description="choices made before the first throw of each game, "
        "each setting the named state of the same name for both sides")
    update: dict[str, StateUpdate] = Field(default_factory=dict, description="how each named "
                                           "state changes after a play, by its name")

    @field_validator("state")
    @classmethod
    def _state_names(cls, v: dict[str, Any]) -> dict[str, Any]:
        for name in v:
            if not _STATE_NAME.fullmatch(name):
                raise ValueError(f"a state name is a word of lowercase letters, digits and "
                                 f"'_', not {name!r}")
        return v


class NotationTable(Strict):
    """`[notation]`: how the players of the game name its points, for `--notation` (the log, the
    board, move entry; interpreter/notation.py)."""

    systems: list[Literal["guiton", "malfilatre", "magriel", "lepeintre"]] = Field(
        default_factory=list, description="the notations of the game besides `pips` (always "
        "there): `guiton`, `malfilatre`, `magriel`, `lepeintre`, each numbering the trictrac "
        "board as its treatise does")
    names: dict[str, str] = Field(
        default_factory=dict, description="the names of the mover's points: pip (\"1\"..\"24\", "
        "from the player's own point of view) → name (`talon`, `coin de repos`); the opponent's "
        "point 25 − pip is named \"the opponent's\" the same")

    @field_validator("names")
    @classmethod
    def _pips(cls, names: dict[str, str]) -> dict[str, str]:
        for key, name in names.items():
            if not (key.isdigit() and 1 <= int(key) <= 24):
                raise ValueError(f"a point of `notation.names` is a pip \"1\" to \"24\", not "
                                 f"{key!r}")
            if not name.strip() or len(name) > 40 or not name.isprintable():
                # a name reaches the terminal: no control characters (escape sequences)
                raise ValueError(f"the name of pip {key} must be 1 to 40 printable "
                                 f"characters")
        return names


#: the weights of the search player's default judgement a `[bot]` table may set
#: (interpreter/players/heuristic.py `HeuristicJudge`, docs/bots.md)
BOT_WEIGHTS = {
    "blot": "× what a blot's hit would cost (the pips it would lose, plus `hit`) × the chance "
            "of the hit",
    "hit": "what a hit costs beyond the pips it loses, in pips",
    "home": "a made point of the home board, in pips of the race",
    "point": "any made point",
    "prime": "× (length − 1)² of the longest prime of three points or more",
    "anchor": "a made point in the opponent's home board (negative: men kept back)",
    "back": "each man still in the opponent's home board, counted against",
    "bar": "× the throws a man on the bar is expected to wait to enter",
    "tempo": "being on roll, in pips",
    "scale": "with contact, how many pips (per √ of the pips to travel) move the chance of "
             "winning by a factor e in odds",
    "race_scale": "the same in a race",
    "threat": "× the blots of the player who throws next, which he may cover first",
    "later": "the weight of the points the other player can expect from his next throw "
             "(the trictrac family)",
    "pin": "what being pinned costs a man (`hit = \"pin\"`), in pips, × the chance of the pin",
    "pinned": "each man of the player's pinned under the opponent's, in pips",
    "stuck": "× each man's landings of a single number (1 to 6 pips ahead on his route) that "
             "the opponent closes",
    "position": "where men are hit and the ladder counts points, the weight of the "
                "position's chance of winning the game (as 2·P − 1) beside them",
    "points_scale": "the continuous match: how many points of lead (per √ of the points both "
                    "sides still need) move a game's chance of being won by a factor e in odds",
}


#: at most this many `[bot] features` in a file; their names are plain lowercase words
MAX_BOT_FEATURES = 16
_FEATURE_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")


class BotTable(Strict):
    """`[bot]`: how the search player judges positions of this game (docs/bots.md): weights of
    its default judgement's features, by name, and features of the file's own in the rule
    language."""

    weights: dict[str, float] = Field(
        default_factory=dict, description="weights of the search player's features, by name: "
        "the default ones, " + ", ".join(f"`{k}` ({v})" for k, v in BOT_WEIGHTS.items())
        + ", and the file's own `features` (in pips; 1 when not given)")
    features: dict[str, str] = Field(
        default_factory=dict, description="the file's own features, by name: a rule-language "
        "expression giving an integer or a truth, read like an `end` or `value` rule on the "
        "board seen by each side; the judgement adds its weight × (the player's value − the "
        "opponent's)")

    @field_validator("features")
    @classmethod
    def _names(cls, features: dict[str, str]) -> dict[str, str]:
        if len(features) > MAX_BOT_FEATURES:
            raise ValueError(f"`bot.features` may have at most {MAX_BOT_FEATURES} features, "
                             f"not {len(features)}")
        for key in features:
            if not _FEATURE_NAME.match(key):
                raise ValueError(f"`bot.features` name {key!r} must be a lowercase word of "
                                 f"letters, digits and _ (at most 32)")
            if key in BOT_WEIGHTS:
                raise ValueError(f"`bot.features.{key}` is a default feature's name; its "
                                 f"weight is `bot.weights.{key}`")
        return features

    @model_validator(mode="after")
    def _known(self) -> "BotTable":
        for key, value in self.weights.items():
            if key not in BOT_WEIGHTS and key not in self.features:
                raise ValueError(f"`bot.weights` has no feature {key!r}; the features are "
                                 f"{', '.join([*BOT_WEIGHTS, *self.features])}")
            if not -1000.0 <= value <= 1000.0:
                raise ValueError(f"`bot.weights.{key}` must be from -1000 to 1000, not {value}")
        return self


OptionValue = str | int | bool


class OptionDescription(Strict):
    """`[option_descriptions.<option>]`: a house-rule option in words, for the rulebook."""

    about: str = Field(description="what the option decides, in a sentence or two")
    choices: dict[str, str] = Field(
        default_factory=dict, description="what each value means: the value as TOML writes it "
        "(a string's text, an integer's digits, true or false) → words")


class VariantModel(Strict):
    """A whole variant file (or the merge of an `extends` chain)."""

    extends: str | None = Field(None, description="the file this one extends: a built-in variant "
                                "id or a path relative to this file")
    remove_rules: list[str] = Field(default_factory=list, description="ids of rules of the "
                                    "extended file that this file removes")
    remove_options: list[str] = Field(default_factory=list, description="names of options "
                                      "of the extended file that this file removes, with their "
                                      "choices, descriptions and option sets")
    variant: VariantInfo = Field(default_factory=VariantInfo, description="provenance")
    board: Board = Field(default_factory=Board, description="checkers and starting position")
    regions: dict[str, str] = Field(default_factory=dict, description="named sets of pips, as "
                                    "rule-language ranges (\"1..6\", \"7..12, 13\")")
    define: dict[str, str] = Field(default_factory=dict, description="reusable rule-language "
                                   "definitions: `name` or `name(p, q)` → expression")
    options: dict[str, Any] = Field(default_factory=dict, description="house-rule options the "
                                    "file declares, with their default values (string, integer "
                                    "or true/false)")
    option_choices: dict[str, list[Any]] = Field(default_factory=dict, description="allowed "
                                                 "values of an option; required for a string "
                                                 "option")
    option_descriptions: dict[str, OptionDescription] = Field(
        default_factory=dict, description="each option in words: what it decides (`about`) and "
        "what each of its values means (`choices`)")
    option_sets: dict[str, dict[str, dict[str, dict[str, Any]]]] = Field(
        default_factory=dict, description="what each choice of an option sets among the "
        "constants: option → choice → table (`dice`, `movement`, `ladder`, and `board`'s "
        "`start`, `points` and `black`) → key → value")
    dice: Dice = Field(default_factory=Dice, description="doublets and opening throw")
    movement: Movement = Field(default_factory=Movement, description="movement switches")
    rules: dict[str, Rule] = Field(default_factory=dict, description="the rules, by id")
    turn: Turn = Field(default_factory=Turn, description="how a turn unfolds: stage rules")
    bot: BotTable = Field(default_factory=BotTable, description="how the search player "
                          "judges positions of the game (weights of its features)")
    notation: NotationTable = Field(default_factory=NotationTable, description="the game's "
                                    "notations and the names of its points")
    ladder: BaseModel | None = Field(None, description="the scoring ladder: a table with `kind` "
                                     "(see interpreter/scoring/registry.py) and that kind's keys")

    @property
    def is_abstract(self) -> bool:
        return self.variant.abstract

    def move_rules(self) -> MoveRules:
        """The kernel's movement switches for this variant."""
        m = self.movement
        return MoveRules(
            checkers=self.board.checkers or _DEFAULT.checkers, dice=self.dice.count,
            doublet_moves=4 if self.dice.doublets in ("four", "four_and_throw_again")
            else 1 if self.dice.doublets == "once" else 2, numbers=self.dice.numbers,
            route=m.route, pool=bool(self.board.unentered), unentered_first=m.unentered_first,
            unentered_move_on=m.unentered_move_on, pinned_bear_off=m.pinned_bear_off,
            block=m.block, hit=m.hit, held_start=m.held_start, enter=m.enter, start_pip=m.start_pip,
            enter_first=m.enter_first, bear_off=m.bear_off, home_top=m.home_top,
            off_pip=m.off_pip, exact_exit=m.exact_exit, over_exit=m.over_exit,
            excedant_filter=m.excedant_filter, retour_conserve_exit=m.retour_conserve_exit,
            max_dice=m.max_dice,
            higher_number=m.higher_number, own_corner=m.own_corner, opp_corner=m.opp_corner,
            opp_corner_rest=m.opp_corner_rest, coin_swap=m.coin_swap,
            puissance_needs=m.puissance_needs, no_landing=tuple(m.no_landing),
            entry_pip=m.entry_pip, hit_across=m.hit_across, across_safe=tuple(m.across_safe),
        )


def model_fields(model: type[BaseModel]) -> list[str]:
    """The keys a table described by `model` accepts."""
    return list(model.model_fields)
