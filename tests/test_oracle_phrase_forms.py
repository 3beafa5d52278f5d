"""Named phrase forms: an entry of the phrase tables may name its written forms, so that code refers
to a form by its name ("top", "beneath_top"), never by its position in the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, walk
from carddb.oracle.phrases import (
    PhraseTableError,
    Slot,
    form_index,
    form_name,
    form_names,
    grammar_rules,
    load_tables,
    templates,
)


def _table(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_named_forms_keep_their_order_as_positions(tmp_path: Path) -> None:
    loaded = load_tables(
        _table(
            tmp_path,
            "[pred]\n"
            'put_into_library.top = "put {what:np} on top of {to:zone}"\n'
            'put_into_library.bottom = "put {what:np} on the bottom of {to:zone}"\n'
            'draw = ["draw {what:np}", "draws {what:np}"]\n',
        )
    )
    assert [(t.verb, t.form, t.name) for t in loaded] == [
        ("put_into_library", 0, "top"),
        ("put_into_library", 1, "bottom"),
        ("draw", 0, None),
        ("draw", 1, None),
    ]
    assert loaded[1].rule == "pred__put_into_library__1"


def test_an_inline_table_and_a_sub_table_name_forms_too(tmp_path: Path) -> None:
    loaded = load_tables(
        _table(
            tmp_path,
            '[pred]\ntap = { one = "tap {what:np}", other = "taps {what:np}" }\n'
            '[pred.untap]\none = "untap {what:np}"\n',
        )
    )
    assert [(t.verb, t.name) for t in loaded] == [("tap", "one"), ("tap", "other"), ("untap", "one")]


def test_a_form_name_given_twice_names_the_file_line_and_entry(tmp_path: Path) -> None:
    text = (
        '[pred]\ndraw = "draw {what:np}"\n'
        'put.top = "put {what:np} on top of {to:zone}"\nput.top = "put {what:np}"\n'
    )
    with pytest.raises(PhraseTableError, match=r"t.toml:4: \[pred\] put: .*a form name given twice"):
        load_tables(_table(tmp_path, text))


def test_a_form_name_given_twice_in_a_sub_table_names_its_entry(tmp_path: Path) -> None:
    text = '[pred.put]\ntop = "put {what:np} on top of {to:zone}"\ntop = "put {what:np}"\n'
    with pytest.raises(PhraseTableError, match=r"t.toml:3: \[pred\] put: .*a form name given twice"):
        load_tables(_table(tmp_path, text))


def test_a_form_name_is_a_lowercase_word(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"t.toml \[pred\] draw: form name 'Top'"):
        load_tables(_table(tmp_path, '[pred]\ndraw.Top = "draw {what:np}"\n'))


def test_forms_are_strings(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"t.toml \[pred\] draw: the forms are a string"):
        load_tables(_table(tmp_path, "[pred]\ndraw.top = 3\n"))


def _actions(text: str, verb: str) -> list[Action]:
    face = parse_oracle(text)
    nodes = [node for step in face.abilities[0].effects for node in walk(step)]
    return [node for node in nodes if isinstance(node, Action) and node.verb == verb]


def test_a_parsed_action_names_its_form() -> None:
    (action,) = _actions("Put target creature on top of its owner's library.", "put_into_library")
    assert (action.form, action.form_name) == (form_index("put_into_library", "top"), "top")


def test_an_unnamed_form_has_no_name() -> None:
    (action,) = _actions("Draw two cards.", "draw")
    assert action.form_name is None


def test_a_name_the_tables_do_not_have_is_refused_loudly() -> None:
    with pytest.raises(
        PhraseTableError, match=r"no form 'sideways' of 'put_into_library' \(named forms: top,"
    ):
        form_index("put_into_library", "sideways")


ENGINE_FORMS = {
    "put_into_library": {"top", "bottom", "beneath_top", "puts_top"},
    "return_from": {"to_battlefield_tapped", "under_your_control"},
    "player_controls": {"target_player", "target_opponent", "that_player", "they", "each_player"},
    "beginning": {"your_upkeep", "next_end_step", "your_next_upkeep", "end_of_combat"},
    "is_state": {"tapped", "your_turn", "not_your_turn", "life_or_more", "life_or_less"},
    "attacks_trigger": {"attacks", "attack", "attacks_unblocked"},
    "blocks_trigger": {"blocks", "blocks_whom"},
    "becomes_blocked_trigger": {"becomes_blocked", "becomes_blocked_by"},
    "enters": {"enters", "under_your_control", "under_opponents_control"},
    "enters_or": {"dies"},
    "add_mana": {"symbols", "one_of_two", "any_color"},
}
"""A few of the forms the rules engine tells apart, by the names it uses."""


@pytest.mark.parametrize("verb", sorted(ENGINE_FORMS))
def test_the_forms_the_engine_tells_apart_are_named(verb: str) -> None:
    names = form_names(verb)
    assert ENGINE_FORMS[verb] <= set(names)
    assert len(names) == sum(1 for t in templates() if t.verb == verb)  # every form of the entry
    assert all(form_name(verb, index) == name for name, index in names.items())


def test_words_in_brackets_are_one_token_of_the_grammar(tmp_path: Path) -> None:
    (gets,) = load_tables(_table(tmp_path, '[pred]\ngets_each = "[each get] {pt}"\n'))

    assert gets.parts == ("each get", Slot("pt", "pt"))
    assert 'pred__gets_each__0: "each get" pt' in grammar_rules(templates())


def test_brackets_hold_words_only(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"t.toml \[pred\] gets_each: '\[each {pt}\]'"):
        load_tables(_table(tmp_path, '[pred]\ngets_each = "[each {pt}]"\n'))
