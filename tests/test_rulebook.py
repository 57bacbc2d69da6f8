"""`tablier rules`: the rulebook generated from a variant's files.

The rulebook must say everything the file says — every rule with its id, name, points and
snippets, every switch with the words of its value, every option with its choices and their
words, every ladder key — for every built-in variant, and follow `--set`. It is generic over the
keys: every key of the schema and of the ladder models appears without the code naming it.
"""
from __future__ import annotations

import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.rulebook.book import DEFAULT_SECTIONS, SECTIONS, render_rulebook
from interpreter.rulebook.words import effect, toml_value
from interpreter.variant.loader import builtin_ids, load_document
from interpreter.variant.schema import Dice, Movement, choice_key

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"


def test_rules_triktrak_lists_every_rule_of_the_trictrac_file(capsys) -> None:
    """Acceptance: every rule id, name and value of variants/trictrac.toml, read here straight
    from the TOML, is in the rulebook of the Dutch Triktrak."""
    assert main(["rules", "triktrak"]) == 0
    text = capsys.readouterr().out
    rules = tomllib.loads((VARIANTS / "trictrac.toml").read_text(encoding="utf-8"))["rules"]
    assert len(rules) >= 20
    for rule_id, rule in rules.items():
        assert f"`{rule_id}`: {rule['name']}" in text, rule_id
        for key in ("when", "ways", "value"):
            if key in rule:
                assert rule[key].strip("\n") in text, (rule_id, key)
        for key in ("simple", "doublet", "to", "on"):
            if key in rule:
                assert f"{key} = {toml_value(rule[key])}" in text or \
                    f"`on = {toml_value(rule[key])}`" in text, (rule_id, key)
        if "source" in rule:
            assert " ".join(rule["source"].split()) in text


@pytest.mark.parametrize("variant", builtin_ids())
def test_every_key_of_every_variant_is_in_its_rulebook(variant: str) -> None:
    doc = load_document(variant)
    text = render_rulebook(variant)
    m = doc.model
    assert (m.variant.name or "") in text
    for source in m.variant.sources:
        assert source in text
    # a rotation (tavli) has no board, dice nor movement of its own: its games' rulebooks do
    rotation = getattr(m.ladder, "kind", None) == "rotation"
    for table in () if rotation else ("dice", "movement"):
        for key in type(getattr(m, table)).model_fields:
            assert f"`{key}" in text, (table, key)
    if rotation:
        for game in m.ladder.games:
            assert f"`{game}`" in text
    if m.ladder is not None:
        for key, value in m.ladder.model_dump().items():
            if key != "kind":
                assert f"| `{key}` | `{toml_value(value)}`" in text, key
    for rule_id, rule in m.rules.items():
        assert f"`{rule_id}`: {rule.name}" in text
    for name, value in m.options.items():
        assert f"`{name} = {toml_value(value)}`" in text


@pytest.mark.parametrize("variant", builtin_ids())
def test_every_option_of_the_shipped_files_is_described(variant: str) -> None:
    """Each option says what it decides, and each of its values what it means."""
    m = load_document(variant).model
    for name, value in m.options.items():
        described = m.option_descriptions.get(name)
        assert described is not None and described.about.strip(), name
        choices = m.option_choices.get(name) or ([True, False] if isinstance(value, bool) else [])
        for choice in choices:
            assert described.choices.get(choice_key(choice), "").strip(), (name, choice)


def test_a_switch_is_stated_by_the_words_of_its_value() -> None:
    one = render_rulebook("backgammon", ["movement.block=1", "dice.doublets=\"twice\""])
    assert "A single opposing checker closes a point" in one
    assert "A doublet is played twice" in one
    two = render_rulebook("backgammon")
    assert "A point holding 2 or more opposing checkers is closed" in two
    assert "A doublet is played four times" in two


def test_every_value_of_every_switch_has_its_own_sentence() -> None:
    """The schema gives each choice of a switch its own words, so the rulebook says what the
    value does, not only what the key is."""
    import typing

    for model in (Dice, Movement):
        for key, info in model.model_fields.items():
            args = [a for a in typing.get_args(info.annotation)] or []
            values = list(args) if typing.get_origin(info.annotation) is typing.Literal else []
            sentences = {effect(info, v) for v in values}
            assert len(sentences) == len(values), key
            assert info.description not in sentences or not values, key


def test_the_family_usual_value_is_named_where_a_variant_differs() -> None:
    text = render_rulebook("triktrak", sections=["dice"])
    assert "`opening_roll = \"winner_throws_two\"`" in text
    assert "It differs from the family's own file, `trictrac`, which has `\"one_die_each\"`: to " \
        "begin, each player throws one die" in text
    assert "family's own file" not in render_rulebook("trictrac-ecrire", sections=["dice"])
    twelve = render_rulebook("tric-trac-12", sections=["movement"])
    assert "`backgammon`, which has `true`: when only one" in twelve            # higher_number
    assert "`backgammon`, which does not set it: there are no corners" in twelve  # own_corner


def test_set_values_are_the_ones_described() -> None:
    text = render_rulebook("backgammon", ["ladder.match_length=5", "rules.gammon.enabled=false"])
    assert "| `match_length` | `5` (default `0`) (set by `--set`; the file says `0`)" in text
    assert "**switched off** (`enabled = false`)" in text
    assert "`--set ladder.match_length=5`" in text
    options = render_rulebook("triktrak", ["sum_rest_closed_by=\"one_or_more\""],
                              sections=["options"])
    assert "### `sum_rest_closed_by = \"one_or_more\"`" in options
    assert "- `\"one_or_more\"` (current)" in options
    assert "- `\"two_or_more\"` (the file's value)" in options


def test_the_rules_come_in_the_order_the_engine_consults_them() -> None:
    text = render_rulebook("trictrac-ecrire", sections=["rules"])
    groups = ["### Scored on the roll", "### What may not be played",
              "### Obligations among the legal plays"]
    positions = [text.index(g) for g in groups]
    assert positions == sorted(positions)
    fill, conserve, sortie = (text.index(f"`must-{r}`") for r in
                              ("fill", "conserve", "complete-sortie"))
    assert fill < conserve < sortie
    assert "order: 2 of 3 in its group (`order = 2`)" in text


def test_the_regions_and_definitions_the_rules_use_with_who_reads_them() -> None:
    text = render_rulebook("backgammon", sections=["definitions"])
    assert "| `home` | `1..6` | `backgammon` |" in text
    assert "Declared but read by no rule: `outer`, `their_home`." in text
    tt = render_rulebook("triktrak", sections=["definitions"])
    # `true_ways` is read through `ways` of the true hits, and reads `rest_open` in turn
    row = next(line for line in tt.splitlines() if line.startswith("| `rest_open(r)`"))
    assert "`true-hit-petit-jan`" in row and "`false-hit-grand-jan`" in row


def test_the_board_in_words_and_as_a_diagram() -> None:
    text = render_rulebook("hypergammon", sections=["board"])
    assert "Each player has 3 checkers. Each starts with 1 on pip 24, 1 on pip 23 and 1 on pip 22" \
        in text
    assert " X1  X1  X1" in text and " O1  O1  O1" in text


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.seen: set[str] = set()
        self.attrs: list[tuple[str, str | None]] = []
        self.bad = False

    def handle_starttag(self, tag, attrs) -> None:
        self.seen.add(tag)
        self.attrs += attrs
        if tag != "meta":
            self.stack.append(tag)

    def handle_endtag(self, tag) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.bad = True


def test_html_is_one_self_contained_page_with_the_same_content(capsys) -> None:
    assert main(["rules", "trictrac-combine", "--format", "html"]) == 0
    page = capsys.readouterr().out
    tags = _Tags()
    tags.feed(page)
    assert not tags.bad and not tags.stack
    assert "script" not in tags.seen and "link" not in tags.seen
    assert not any(name in ("src", "href") for name, _ in tags.attrs)
    assert "<style>" in page
    md = render_rulebook("trictrac-combine")
    for rule_id in load_document("trictrac-combine").model.rules:
        assert f'id="rule-{rule_id}"' in page and f"`{rule_id}`" in md


def test_text_from_a_file_cannot_inject_markup(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text(f'extends = "{VARIANTS / "backgammon.toml"}"\n'
                     '[variant]\nid = "house"\nname = "<script>alert(1)</script>"\n'
                     '[rules.gammon]\ndescription = "a <b>bold</b> **claim** & more"\n',
                     encoding="utf-8")
    page = render_rulebook(house, fmt="html")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>" not in page and "&amp; more" in page


def test_sections_and_levels() -> None:
    assert DEFAULT_SECTIONS == tuple(s for s in SECTIONS if s != "rule-table")
    text = render_rulebook("backgammon", sections=["ladder"], level=4)
    assert text.startswith("#### The ladder\n")
    assert "## Sources" not in text


def test_bad_input_exits_1_and_a_bad_command_line_2(capsys) -> None:
    assert main(["rules", "no-such-variant"]) == 1
    assert main(["rules", "backgammon", "--section", "nope"]) == 1
    assert main(["rules", "backgammon", "--set", "movement.blok=1"]) == 1
    err = capsys.readouterr().err
    assert "did you mean `movement.block`" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        main(["rules", "backgammon", "--format", "pdf"])
    assert exc.value.code == 2


def test_an_abstract_base_has_a_rulebook_too() -> None:
    text = render_rulebook("trictrac")
    assert "**abstract**: a base for other files" in text
    assert "`variants/trictrac.toml`" in text and "built on" not in text


def test_the_board_of_a_short_route_and_of_a_start_per_side() -> None:
    """Seys dos e as: eighteen points, a layout of its own for black; Laquet: two layouts on
    one route, one of them on the other's last point (drawn, not refused)."""
    seys = render_rulebook("seys-dos-e-as", sections=["board"])
    assert ("White starts with 8 on pip 18, 4 on pip 14 and 3 on pip 13; black with 5 on pip "
            "17, 5 on pip 16 and 5 on pip 15") in seys
    assert "pip 18 is the first point of his route" in seys
    assert " 18  17  16  15  14  13  12  11  10\n X8  O5  O5  O5  X4  X3   .   .   ." in seys
    assert "`black =" not in seys          # stated in words, not as a switch
    laquet = render_rulebook("laquet", sections=["board"])
    assert "X14  O3  O3  O3  O3  O2" in laquet and " X1   .   ." in laquet
    medio = render_rulebook("medio-emperador", sections=["board"])
    assert " 12  11  10   9   8   7\nX15" in medio
    assert "the opponent's pip q is the mover's pip 13 − q" in medio


def test_the_turn_states_choices_per_side_values_and_optional_stages() -> None:
    doze = render_rulebook("doze-canes", sections=["turn"])
    assert "`goal` (a count from 0 to 1000), at first `1` (black's: `19`" in doze
    assert "| `1-6` | 1 (pips 1..6) | 19 (pips 19..24) |" in doze
    assert "`span = 6`" in doze
    laquet = render_rulebook("laquet", sections=["turn"])
    assert "optional = true" in laquet and "its results include the unchanged position" in laquet


def test_end_rules_say_when_they_are_judged() -> None:
    table = render_rulebook("fallas", sections=["rule-table"])
    assert "Judged after each single move (`on = \"move\"`): a player who hits" in table
    assert "Judged on the throw, before it is played (`on = \"throw\"`): a player whose " \
        "throw" in table
    full = render_rulebook("fallas", sections=["rules"])
    assert "winner: the opponent of the player who made the play" in full
    assert "judged: on the throw, before it is played" in full
    assert "winner: nobody: a draw" in render_rulebook("medio-emperador", sections=["rules"])
    # a count of 0 sets nothing: `limit_pips` is without effect without a limit
    assert "`limit_pips = []` (used only when `limit` is set)" in render_rulebook(
        "backgammon", sections=["movement"])
