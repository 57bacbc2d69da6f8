"""From a validated variant document to the runtime `Variant`: movement switches, compiled rule
hooks, the starting board and the ladder parameters. Built once per load; nothing here runs in
the game loop.

Options that set constants (`[option_sets]`) are applied first: the model the Variant holds is
the effective one, with each option's choice written into `[dice]`, `[movement]`, `[ladder]`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from interpreter.dsl import RuleSet, SnippetError, compile_document
from interpreter.dsl.limits import COST_BUDGET
from interpreter.errors import Diagnostic, VariantError, TablierError
from interpreter.kernel.board import Board, Geometry, flip
from interpreter.kernel.movegen import MoveGenerator
from interpreter.kernel.rules import MoveRules
from interpreter.kernel.throws import StageRule, ThrowRules
from interpreter.variant.choice import choice_key

_DOUBLET_MOVES = {"four": 4, "twice": 2, "twice_and_throw_again": 2, "four_and_throw_again": 4,
                  "once": 1}
_RETHROW = ("twice_and_throw_again", "four_and_throw_again")
_MOVEMENT_FIELDS = tuple(f for f in MoveRules.__dataclass_fields__
                         if f not in ("checkers", "doublet_moves", "pool", "state", "numbers",
                                       "dice", "stacked"))


@dataclass(frozen=True)
class ChoiceRule:
    """A `[turn.choose.NAME]` of the file: before the first throw of each game the winner of
    the opening throw picks one of `labels`; choice i sets his value of the state NAME to
    `values[i]` and his opponent's to `theirs[i]` (board slots `mine` and `other`)."""

    name: str
    title: str
    description: str
    labels: tuple[str, ...]
    values: tuple[int, ...]
    theirs: tuple[int, ...]
    mine: int
    other: int
    #: the choice is a run of `span` points from the value: a position writes the state as
    #: the mover's [first, last] (0: as the pair of values)
    span: int = 0

    @property
    def same(self) -> bool:
        """Both sides hold the value chosen (no `theirs`, no `span`): a position writes it once
        (`"fixed_die": 4`)."""
        return not self.span and self.theirs == self.values


@dataclass
class Variant:
    """A loaded variant, ready to play."""

    id: str
    name: str
    model: Any
    path: Path
    move_rules: MoveRules
    rules: RuleSet
    start: Board
    doublet_rethrow: bool
    opening: str
    ladder: Any
    #: the throw after a doublet (`[dice] extra_throw`): "compulsory" or "optional"
    extra_throw: str = "compulsory"
    #: what happens when a side's men are all off (`[board] all_off`): "end", "releve", "restack"
    all_off: str = "end"
    #: the gnubg `.mat` Variation of this game (`[variant] mat_variation`), None for backgammon
    mat_variation: str | None = None
    #: the board seen by the other player: the geometry's, following the route
    flip: Callable[[Board], Board] = flip
    #: the starting layout of one side: pip (his own view) → men
    layout: dict[int, int] = field(default_factory=dict)
    #: the sha256 of each file of the `extends` chain, the variant's own first: (name, hex)
    files: tuple[tuple[str, str], ...] = ()
    #: the board slot of the mover's value of the state `[turn] fixed_die` names: once 1..6,
    #: the third die of every throw (0: none, the three dice are thrown)
    fixed_slot: int = 0

    def fixed_third(self, b: Board) -> int:
        """The fixed third die of a throw from `b` (`[turn] fixed_die`), 0 where it is thrown."""
        v = b[self.fixed_slot] if self.fixed_slot and len(b) > self.fixed_slot else 0
        return v if 1 <= v <= 6 else 0
    #: the path and sha256 of each of those files, as read: what a stored form of the variant
    #: is checked against (interpreter/variant/stored.py)
    sources: tuple[tuple[str, str], ...] = ()
    #: what follows a throw: another throw after a doublet, roll events (kernel.throws)
    throws: ThrowRules = ThrowRules()
    #: the variants of a rotation's games (`[ladder] kind = "rotation"`), in order; () else
    games: tuple["Variant", ...] = ()
    #: the choices made before the first throw of each game (`[turn.choose]`), in order
    choices: tuple[ChoiceRule, ...] = ()

    @property
    def dice_count(self) -> int:
        """How many dice a throw has (`[dice] count`): 2, or 3."""
        return self.move_rules.dice

    def start_of(self, side: int) -> Board:
        """The starting board seen by `side` (0 white, 1 black), who is on roll."""
        return self.start if side == 0 else self.flip(self.start)

    def new_ladder(self, game: Any) -> Any:
        """The ladder that plays this variant's `[ladder]` in `game` (scoring/registry.py): the
        variant carries its ladder, and the engine imports none."""
        from interpreter.scoring.registry import ladder_for

        return ladder_for(self, game)

    def ladder_kind(self) -> Any:
        """The class of this variant's ladder (scoring/registry.py), asked what it requires of
        the file; imported on use as `new_ladder` does, so that a variant read from its stored
        form needs no ladder module."""
        from interpreter.scoring.registry import ladder_class

        return ladder_class(self.ladder)

    def restacked(self, b: Board) -> Board:
        """`b` (seen by the mover) with the mover's men all back in their starting layout: the
        restack of a side whose men are all off (`[board] all_off = "restack"`)."""
        L = list(b)
        L[0] = 0
        for pip, n in self.layout.items():
            L[pip] += n
        return tuple(L)

    @property
    def checkers(self) -> int:
        return self.move_rules.checkers

    @property
    def geometry(self) -> Geometry:
        """The board's slots and the route (kernel.board.Geometry)."""
        return self.move_rules.geometry

    @property
    def abstract(self) -> bool:
        return bool(getattr(self.model.variant, "abstract", False))

    @cached_property
    def generator(self) -> MoveGenerator:
        forbid = [fn for _id, fn in self.rules.forbid]
        moves = [fn for _id, fn in getattr(self.rules, "forbid_move", ())]
        ends = [fn for _id, _w, fn in getattr(self.rules, "end_move", ())]
        return MoveGenerator(self.move_rules, forbid, moves, ends)

    @property
    def has_roll_hooks(self) -> bool:
        """Whether a roll needs more than the distinct end positions (scores or preferences)."""
        r = self.rules
        return bool(r.score_roll or r.score_play or r.prefer)

    def option(self, key: str, default: Any = None) -> Any:
        return (getattr(self.model, "options", None) or {}).get(key, default)


def move_rules_of(model: Any) -> MoveRules:
    movement = getattr(model, "movement", None)
    values: dict[str, Any] = {}
    if movement is not None:
        for name in _MOVEMENT_FIELDS:
            value = getattr(movement, name, None)
            if value is not None:
                values[name] = tuple(value) if name in ("no_landing", "across_safe",
                                                         "limit_pips") else value
        place = values.get("place")
        if isinstance(place, str):
            values["place"] = ()
            values["place_state"] = place
        elif place is not None:
            values["place"] = tuple(place)
    dice = getattr(model, "dice", None)
    doublets = getattr(dice, "doublets", None) or "four"
    values["numbers"] = getattr(dice, "numbers", None) or "both"
    values["dice"] = int(getattr(dice, "count", None) or 2)
    pool = bool(getattr(model.board, "unentered", None))
    values["points"] = int(getattr(model.board, "points", None) or 24)
    black = getattr(model.board, "black", None)
    other = (getattr(black, "state", None) or {}) if black is not None else {}
    state = state_of(model)
    stacked = getattr(model.board, "stacked", None)
    if stacked:
        values["stacked"] = tuple(stacked)
    if other:
        values["state_other"] = tuple(int(other.get(name, v)) for name, v, _f in state)
    return MoveRules(checkers=model.board.checkers, doublet_moves=_DOUBLET_MOVES[doublets],
                     pool=pool, state=state, **values)


def state_of(model: Any) -> tuple[tuple[str, int, bool], ...]:
    """The named state of `[turn.state]`: (name, initial value, whether true/false) each."""
    declared = getattr(getattr(model, "turn", None), "state", None) or {}
    return tuple((name, int(v), isinstance(v, bool)) for name, v in declared.items())


def apply_option_sets(model: Any) -> Any:
    """The model with each option's `[option_sets]` entry for its current value written into
    `[dice]`, `[movement]`, `[ladder]` and `[board]` (its layout and route: `start`, `points`,
    `black`; in the order the file lists the options; a later one
    wins on a key both set). The values were checked when the file was loaded."""
    sets = getattr(model, "option_sets", None)
    if not sets:
        return model
    updates: dict[str, dict[str, Any]] = {"dice": {}, "movement": {}, "ladder": {},
                                          "board": {}}
    options = getattr(model, "options", None) or {}
    for name, per_choice in sets.items():
        entry = per_choice.get(choice_key(options.get(name)))
        for table, values in (entry or {}).items():
            updates[table].update(values)
    change: dict[str, Any] = {}
    for table in ("dice", "movement", "ladder", "board"):
        current = getattr(model, table, None)
        if updates[table] and current is not None:
            merged = {**current.model_dump(), **updates[table]}
            change[table] = type(current).model_validate(merged)
    return model.model_copy(update=change) if change else model


def build_variant(doc: Any) -> Variant:
    """Compile a loaded document (interpreter.variant.loader.VariantDoc) into a Variant, and
    check what only the compiled rules and the kernel can tell (`check_built`).

    Every command builds its variant here and `tablier validate` does too, so that a file that
    validates loads and plays in every command. Raises `VariantError` with every diagnostic."""
    from interpreter.variant.loader import check_snippets, snippet_diagnostic

    model = apply_option_sets(doc.model)
    try:
        rules = compile_document(model)
    except SnippetError as err:
        found = check_snippets(doc) or [snippet_diagnostic(doc, err)]
        raise VariantError(found) from None
    layout = model.board.start_pips()   # an abstract base may have none
    move_rules = move_rules_of(model)
    geometry = move_rules.geometry
    try:
        black = getattr(model.board, "black", None)
        start = geometry.start_board(
            layout, getattr(model.board, "unentered", None) or 0,
            black.start_pips() if black is not None else None)
        if move_rules.stacked:
            start = geometry.stacked_start(start, move_rules.stacked)
    except ValueError as err:
        raise VariantError([_at(doc, ("board", "start"), "unplayable",
                                f"the starting position cannot be set up: {err}")]) from None
    dice = getattr(model, "dice", None)
    doublets = getattr(dice, "doublets", "four")
    bonus_throw = tuple(sorted(getattr(dice, "bonus_throw", None) or ()))
    throws = ThrowRules(doublet_rethrow=doublets in _RETHROW,
                        bonus_throw=bonus_throw if len(bonus_throw) == 2 else None,
                        bonus=tuple(getattr(dice, "bonus", None) or ()),
                        stages=tuple(StageRule(*hooks, optional=_stage_flag(model, hooks[0],
                                                                            "optional"),
                                               again_partial=_stage_flag(model, hooks[0],
                                                                         "again_partial"),
                                               instead_of_throw=_stage_flag(
                                                   model, hooks[0], "instead_of_throw"),
                                               moves=_stage_moves(model, hooks[0]))
                                     for hooks in rules.stages))
    variant = Variant(
        id=model.variant.id, name=model.variant.name, model=model, path=doc.path,
        move_rules=move_rules, rules=rules, start=start,
        doublet_rethrow=doublets in _RETHROW,
        opening=getattr(dice, "opening_roll", None) or "one_die_each",
        ladder=model.ladder,
        extra_throw=getattr(dice, "extra_throw", None) or "compulsory",
        all_off=getattr(model.board, "all_off", None) or "end",
        mat_variation=getattr(model.variant, "mat_variation", None),
        flip=geometry.flip, layout=layout, throws=throws)
    variant.choices = _choices(model, geometry)
    fixed = getattr(dice, "fixed_die", None)
    if fixed and fixed in {n for n, _v, _f in geometry.state}:
        variant.fixed_slot = geometry.state_slot(fixed)
    variant.sources = _sources(doc)
    variant.files = tuple((Path(path).name, digest) for path, digest in variant.sources)
    if _plays_games(model.ladder):
        variant.games = _rotation_games(doc, model.ladder.games, rules.cost)
        variant.files = _unique(variant.files + tuple(f for g in variant.games for f in g.files))
    problems = check_built(doc, variant)
    if problems:
        raise VariantError(problems)
    return variant


def _choices(model: Any, geometry: Geometry) -> tuple[ChoiceRule, ...]:
    """The file's `[turn.choose]` tables (checked by the loader: each names a state)."""
    out = []
    options = getattr(model, "options", None) or {}
    for name, ch in (getattr(getattr(model, "turn", None), "choose", None) or {}).items():
        if name not in {n for n, _v, _f in geometry.state}:
            continue
        if any(options.get(k) != v for k, v in (getattr(ch, "only_if", None) or {}).items()):
            continue            # asked only under a house option this variant does not take
        values = tuple(ch.values)
        theirs = tuple(ch.theirs) if ch.theirs is not None else values
        labels = tuple(ch.labels) if ch.labels is not None else tuple(str(v) for v in values)
        out.append(ChoiceRule(name, ch.name, ch.description or "", labels, values, theirs,
                              geometry.state_slot(name), geometry.state_slot(name, mine=False),
                              ch.span or 0))
    return tuple(out)


def _stage_flag(model: Any, stage_id: str, key: str) -> bool:
    """A true/false key of the stage rule `stage_id` (`optional`, `again_partial`,
    `instead_of_throw`)."""
    stages = getattr(getattr(model, "turn", None), "stages", None) or {}
    return bool(getattr(stages.get(stage_id), key, False))


def _stage_moves(model: Any, stage_id: str) -> str:
    """What the numbers the stage rule `stage_id` passes on may do (`moves`)."""
    stages = getattr(getattr(model, "turn", None), "stages", None) or {}
    return str(getattr(stages.get(stage_id), "moves", "any") or "any")


#: the rotation files being loaded (a rotation that names itself is refused, not followed)
_LOADING: set[str] = set()


def _plays_games(ladder: Any) -> bool:
    """Whether a `[ladder]` table plays the games of other files: its model says so (the
    rotation's), so that building a variant needs no ladder module."""
    return bool(getattr(ladder, "plays_games", False))


def _rotation_games(doc: Any, refs: Sequence[str], own_cost: int = 0) -> tuple[Variant, ...]:
    """The variants a rotation plays in turn: built-in ids, or `.toml` paths relative to the
    file (as `extends`). Each must be one game scored by its value rules (`[ladder] kind =
    "game"`); what cannot be loaded is a diagnostic at `ladder.games`."""
    from interpreter.scoring.protocol import Ladder
    from interpreter.variant.loader import _looks_like_path, load_document

    #: each file loaded once, however often the rotation names it
    loaded: dict[str, Variant] = {}
    here = str(Path(doc.path).resolve()) if doc.path is not None else ""
    problems: list[Diagnostic] = []
    out: list[Variant] = []
    _LOADING.add(here)
    try:
        for i, ref in enumerate(refs):
            where = ("ladder", "games")
            if _looks_like_path(ref):
                if not ref.endswith(".toml"):
                    problems.append(_at(doc, where, "unplayable", f"game {i + 1} of the rotation "
                                        f"is a built-in variant id or a `.toml` file, not {ref!r}"))
                    continue
                target: str | Path = Path(doc.path).parent / ref
                if str(Path(target).resolve()) in _LOADING:
                    problems.append(_at(doc, where, "unplayable", f"game {i + 1} of the rotation, "
                                        f"{ref!r}, is the rotation itself"))
                    continue
            else:
                target = ref
            key = str(Path(target).resolve()) if _looks_like_path(ref) else ref
            game = loaded.get(key)
            if game is None:
                try:
                    game_doc = load_document(target, check_rules="on-error")
                    if _plays_games(game_doc.model.ladder):
                        # refused before its own games are opened: no rotation of rotations
                        problems.append(_at(doc, where, "unplayable", f"game {i + 1} of the "
                                            f"rotation, {ref!r}, is a rotation itself: a "
                                            f"rotation plays games, not rotations"))
                        continue
                    game = build_variant(game_doc)
                except TablierError as err:
                    problems.append(_at(doc, where, "unplayable", f"game {i + 1} of the rotation, "
                                        f"{ref!r}, cannot be loaded: {_lower(str(err))[:400]}"))
                    continue
                loaded[key] = game
            if game.ladder is not None and game.ladder_kind() is not Ladder:
                # not the one game of the default ladder
                kind = getattr(game.ladder, "kind", None)
                problems.append(_at(doc, where, "unplayable", f"game {i + 1} of the rotation, "
                                    f"{ref!r}, is scored by a `{kind}` ladder: a rotation plays "
                                    f"games scored by their value rules (`kind = \"game\"`)"))
                continue
            out.append(game)
    finally:
        _LOADING.discard(here)
    if not problems:
        over = _rotation_over_budget(doc, out, own_cost)
        if over is not None:
            problems.append(over)
    if problems:
        raise VariantError(problems)
    return tuple(out)


def _rotation_over_budget(doc: Any, games: Sequence[Variant], own: int) -> Diagnostic | None:
    """`error[cost]` at `ladder.games` when the rotation's own rules and those of its games,
    summed, cost more than the one budget of a file (interpreter/dsl/limits.py)."""
    total = own + sum(g.rules.cost for g in {id(g): g for g in games}.values())
    if total <= COST_BUDGET:
        return None
    dearest = max(games, key=lambda g: g.rules.cost)
    return _at(doc, ("ladder", "games"), "cost", f"the rotation's games may take {total:,} "
               f"steps in one throw together, over the budget of {COST_BUDGET:,}; the dearest "
               f"is {dearest.id!r}, {dearest.rules.cost:,} steps")


def _unique(pairs: tuple) -> tuple:
    return tuple(dict.fromkeys(pairs))


def check_built(doc: Any, variant: Variant) -> list[Diagnostic]:
    """What the compiled variant shows about the file: the kernel accepts its switches (its
    generators are made here, once, as play would make them), and no `end` rule holds on the
    starting position, from either side (a game over before its first throw)."""
    out: list[Diagnostic] = []
    try:
        variant.generator
    except ValueError as err:
        out.append(_at(doc, ("movement",), "unplayable", f"the movement switches cannot be "
                                                         f"played: {_lower(str(err))}"))
        return out
    marked = variant.ladder_kind().marked_before_play
    if marked is not None:
        for rule in variant.rules.score_play:
            out.append(_at(doc, ("rules", rule.id, "on"), "unplayable",
                           f"rule `{rule.id}` is scored on the play chosen (`on = \"play\"`), "
                           f"but {marked} marks every throw before it is "
                           f"played: the rule cannot be used with the "
                           f"`{variant.ladder.kind}` ladder (an option may have switched it on)"))
    seen = (variant.start, variant.flip(variant.start))
    for rule_id, _winner, fn in variant.rules.end:
        try:
            holds = any(fn(b) for b in seen)
        except Exception as err:  # noqa: BLE001 - a rule of an untrusted file; report, never crash
            out.append(_at(doc, ("rules", rule_id, "when"), "unplayable",
                           f"rule `{rule_id}` cannot be evaluated on the starting position: "
                           f"{type(err).__name__}"))
            continue
        if holds:
            out.append(_at(doc, ("rules", rule_id, "when"), "unplayable",
                           f"end rule `{rule_id}` already holds on the starting position: every "
                           f"game would be over before its first throw"))
    return out


def _at(doc: Any, key_path: tuple, code: str, message: str) -> Diagnostic:
    origin = doc.origin_of(key_path)
    return origin.diagnostic(key_path, "value", code, message)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _sources(doc: Any) -> tuple[tuple[str, str], ...]:
    """(path, sha256) of the variant's file and of every file it extends, its own first."""
    from interpreter.variant.loader import given_text

    out = []
    for path in getattr(doc, "chain", None) or [doc.path]:
        try:
            text = given_text(path)
            data = Path(path).read_bytes() if text is None else text.encode("utf-8")
        except (OSError, TypeError):
            continue
        out.append((str(path), hashlib.sha256(data).hexdigest()))
    return tuple(out)


def load_variant(ref: str | Path, overrides: Sequence[str] = ()) -> Variant:
    """Load a built-in id or a path, apply `--set` overrides, validate and compile it: what every
    command plays. The checks are those of `tablier validate` (`interpreter.variant.loader.
    validate_paths`), and the rules are compiled once."""
    from interpreter.variant.loader import load_document

    variant = build_variant(load_document(ref, overrides, check_rules="on-error"))
    # what it was loaded from, for a process that compiles its code in the background
    # (interpreter/native/prepare.py)
    variant.__dict__["loaded_from"] = (str(ref), tuple(overrides))
    return variant


@dataclass(frozen=True)
class VariantTexts:
    """A variant file with every file its load reads (the files it `extends`, a rotation's
    games), as text: what a process without the files builds the variant from
    (`load_variant_texts`; a Dask worker, interpreter/runner.py). `root` is the file's absolute
    path, `display` the path as the person wrote it (for messages), `texts` (absolute path,
    sha256 of the UTF-8 text, text) of each file read."""

    root: str
    display: str
    texts: tuple[tuple[str, str, str], ...]

    @property
    def digests(self) -> tuple[str, ...]:
        return tuple(digest for _path, digest, _text in self.texts)


def is_builtin_ref(ref: str | Path) -> bool:
    """Whether `ref` names a built-in variant by its id (not a file)."""
    from interpreter.resources import builtin_variant_path
    from interpreter.variant.loader import _looks_like_path

    return isinstance(ref, str) and not _looks_like_path(ref) and \
        builtin_variant_path(ref) is not None


def variant_texts(ref: str | Path, overrides: Sequence[str] = (),
                  built: Variant | None = None) -> VariantTexts | None:
    """The texts a variant file's load reads, for `load_variant_texts` elsewhere; None for a
    built-in id (every installed package has its files). With `built` (the variant already
    loaded from `ref`), the files read now must be those it was built from: a file changed in
    between is an error, not another variant played."""
    from interpreter.variant.loader import recording_texts, text_key

    if is_builtin_ref(ref):
        return None
    root = text_key(Path(ref).resolve())
    with recording_texts() as seen:
        again = load_variant(root, overrides)
    if built is not None and again.files != built.files:
        raise TablierError(f"the variant file {shown_ref(ref)} changed while it was being read "
                           f"(its sha256 is not that of the file loaded a moment before)")
    texts = tuple((path, hashlib.sha256(text.encode("utf-8")).hexdigest(), text)
                  for path, text in sorted(seen.items()))
    return VariantTexts(root, str(ref), texts)


def load_variant_texts(sent: VariantTexts, overrides: Sequence[str] = ()) -> Variant:
    """`load_variant` of a file given as text (`variant_texts`): each text is first checked
    against its sha256, then the variant is compiled from the texts alone (no file is read but
    a built-in variant's); its messages name the file as the person wrote it."""
    from interpreter.variant.loader import given_texts, text_key

    import os

    texts: dict[str, tuple[str, str]] = {}
    here, shown_here = os.path.dirname(sent.root), os.path.dirname(sent.display)
    for path, digest, text in sent.texts:
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
            raise TablierError(f"{shown_ref(sent.display)}: the text received for "
                               f"{shown_ref(path)} does not match its sha256 {digest[:12]}…")
        # each file named as the person would: from the folder of the file they named
        display = sent.display if text_key(path) == sent.root else \
            os.path.normpath(os.path.join(shown_here, os.path.relpath(path, here)))
        texts[text_key(path)] = (text, display)
    with given_texts(texts):
        variant = load_variant(sent.root, overrides)
    # made from texts no other process could read again: never compiled in the background
    variant.__dict__.pop("loaded_from", None)
    return variant


def shown_ref(ref: str | Path) -> str:
    from interpreter.bounded import shown_name

    return repr(shown_name(str(ref), 200))


def validate_paths(paths: Iterable[str | Path]) -> list[Diagnostic]:
    """Every problem of every file (and of the files they extend), in file order; [] when all
    are valid. A playable file is built as every command builds it
    (`build_variant`): what this accepts, they load."""
    from interpreter.variant.loader import check_snippets, load_document

    out: list[Diagnostic] = []
    seen: set[Diagnostic] = set()
    for path in paths:
        try:
            doc = load_document(path, check_rules="on-error")
            if doc.is_abstract:
                found = check_snippets(doc)
                if found:
                    raise VariantError(found)
            else:
                build_variant(doc)
        except VariantError as error:
            for diagnostic in error.diagnostics:
                if diagnostic not in seen:
                    seen.add(diagnostic)
                    out.append(diagnostic)
    return out
