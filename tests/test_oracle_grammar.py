"""The oracle grammar as built from its frame, word lists and phrase tables: how it resolves its
ambiguities, and the errors a malformed phrase table gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.oracle.grammar import BuiltFromText
from carddb.oracle.phrases import PhraseTableError, Slot, grammar_rules, load_tables, templates

CONTINUATIONS = {
    "and",
    "or",
    ",",
    ", and",
    "instead",
    "rather",
    "if",
    "activated",
    "mana",
    "next",
    "for each",
    "or more",
    "or fewer",
    "other",
    ", except",
    "this turn",
}
"""Words that go on with a longer phrase of the tables ("… instead", "… rather than pay …", "cast …
as though it had flash if …", "its activated abilities", "their mana abilities", "its controller's
next untap step", "the other into your graveyard" before "the other target creature", "becomes a
copy of …, except it has this ability", "dies this turn"): shifting them keeps the longest phrase.
A new word here needs a look at the phrase that causes it."""
INNER_SENTENCE = ("body :", "chain :", "subject_chain :")
"""The body of a delayed triggered ability ("Whenever a creature dies this turn, draw a card, then
discard a card") goes on as long as it can: ", then", "unless", "if", ", where X is" belong to it; so
does what a leading "instead" says happens ("instead that player reveals their hand, …, then that
player discards those cards")."""
NOUN_LIST = ("(?:,? and\\/or|,? and|,)", "(?<=\\byou )or")
"""The start of the AND_NP and OR_NP terminals ("target creature and target land", "you or a
creature you control"): a list of noun phrases
attaches to the nearest noun phrase, as a qualifier does ("with the same name as that creature and
…")."""


def test_every_shift_reduce_conflict_attaches_to_the_nearest_phrase(
    oracle_built_from_text: BuiltFromText,
) -> None:
    """A qualifier attaches to the nearest noun ("destroy target creature *you control*") and a list
    goes on as long as it can; any other conflict is a grammar bug."""
    unexpected = [
        conflict
        for conflict in oracle_built_from_text.conflicts
        if not conflict.rule.startswith(("noun :", "np :"))
        and conflict.word not in CONTINUATIONS
        and not conflict.word.startswith(NOUN_LIST)
        and not conflict.rule.startswith(INNER_SENTENCE)
    ]
    assert unexpected == []


def test_phrase_forms_become_rules_with_typed_slots() -> None:
    (draw, draws) = [t for t in templates() if t.verb == "draw"]
    assert draw.parts == ("draw", Slot("what", "np"))
    assert draws.rule == "pred__draw__1"
    assert 'pred__draw__1: "draws" np' in grammar_rules(templates())


def _table(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_an_unknown_slot_type_names_the_file_and_entry(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"t.toml \[pred\] draw: unknown slot type 'cards'"):
        load_tables(_table(tmp_path, '[pred]\ndraw = "draw {what:cards}"\n'))


def test_an_unknown_family_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"unknown family \[verbs\]"):
        load_tables(_table(tmp_path, '[verbs]\ndraw = "draw {what:np}"\n'))


def test_an_entry_defined_twice_names_both_files(tmp_path: Path) -> None:
    _table(tmp_path, '[pred]\ndraw = "draw {what:np}"\n', "a.toml")
    _table(tmp_path, '[pred]\ndraw = "draws {what:np}"\n', "b.toml")
    with pytest.raises(PhraseTableError, match=r"b.toml \[pred\] draw: 'draw' is already defined in a.toml"):
        load_tables(tmp_path)


def test_two_entries_with_the_same_words_are_refused(tmp_path: Path) -> None:
    text = '[pred]\ndraw = "draw {what:np}"\npull = "draw {card:np}"\n'
    with pytest.raises(PhraseTableError, match="is the same phrase as"):
        load_tables(_table(tmp_path, text))


def test_forms_are_written_with_canonical_spacing(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match="canonical spacing"):
        load_tables(_table(tmp_path, '[pred]\ndraw = "draw  {what:np}"\n'))


def test_a_broken_table_file_names_itself(tmp_path: Path) -> None:
    with pytest.raises(PhraseTableError, match=r"t.toml"):
        load_tables(_table(tmp_path, "[pred\n"))
