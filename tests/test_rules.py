"""The Comprehensive Rules: parsing the published file, storing one edition, finding the rule
numbers a text mentions, and showing a rule by number or glossary term.

The fixture is a real excerpt of the published file (``tests/fixtures/rules/``, see the README
there): BOM, CRLF, the whole table of contents, a few sections, ten glossary entries, the credits.
"""

from __future__ import annotations

import datetime as dt
import json
import lzma
import pickle
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import carddb
from carddb.cli import main
from carddb.db.models import GlossaryEntry, Rule, RulesEdition
from carddb.ingest.base import ImportRun
from carddb.rules.errors import (
    NoRulesImportedError,
    NotRulesError,
    RuleNotFoundError,
    RulesFormatError,
    TruncatedRulesError,
)
from carddb.rules.importer import import_rules
from carddb.rules.lookup import format_rule
from carddb.rules.mentions import mentions, resolve
from carddb.rules.parse import RulesDocument, canonical_number, read_rules

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
RULES = FIXTURES / "MagicCompRules-20250207-excerpt.txt.xz"
NEWER = FIXTURES / "MagicCompRules-20250303-newer-synthetic.txt.xz"
# The full published file, for the tests that need it; they are skipped without it.
REAL = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "rules" / "MagicCompRules-20250207.txt.xz"
needs_real = pytest.mark.skipif(not REAL.exists(), reason=f"needs the full rules file at {REAL}")


# -- helpers ------------------------------------------------------------------------------------


def excerpt_lines() -> list[str]:
    """The excerpt's lines, without their line ends."""
    lines = lzma.decompress(RULES.read_bytes()).decode("utf-8-sig").split("\r\n")
    return lines[:-1] if lines[-1] == "" else lines


def write_rules(tmp_path: Path, lines: list[str], name: str = "MagicCompRules-damaged.txt") -> Path:
    """``lines`` as a rules file in the published form: BOM and CRLF."""
    path = tmp_path / name
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


def line_number(lines: list[str], start: str) -> int:
    """The 1-based number of the first line starting with ``start`` after the contents."""
    first_rule = lines.index("1. Game Concepts", lines.index("Credits") + 1)
    return next(i for i, line in enumerate(lines) if i >= first_rule and line.startswith(start)) + 1


def stored(db: carddb.Database) -> tuple[list[Any], list[Any], list[Any]]:
    """Everything the rules tables hold, to compare before and after."""
    with db.session() as session:
        rules = session.execute(
            select(Rule.number, Rule.parent, Rule.text, Rule.examples, Rule.position).order_by(Rule.position)
        )
        glossary = session.execute(
            select(GlossaryEntry.term, GlossaryEntry.term_norm, GlossaryEntry.text).order_by(
                GlossaryEntry.position
            )
        )
        edition = session.execute(
            select(RulesEdition.id, RulesEdition.effective, RulesEdition.source, RulesEdition.rules)
        )
        return list(rules), list(glossary), list(edition)


def refused(db: carddb.Database, path: Path, error: type[RulesFormatError]) -> RulesFormatError:
    """Import ``path`` over the stored excerpt: it must fail with ``error`` naming the file and a
    line, and leave the stored edition exactly as it was."""
    before = stored(db)
    with pytest.raises(error) as caught:
        db.import_path(path)
    assert caught.value.path == path
    assert caught.value.position is not None and caught.value.position.startswith("line ")
    assert str(path) in str(caught.value)
    assert stored(db) == before
    return caught.value


@pytest.fixture(scope="module")
def excerpt() -> RulesDocument:
    return read_rules(RULES)


@pytest.fixture
def rules_db(db: carddb.Database) -> carddb.Database:
    """A database holding the excerpt."""
    db.import_path(RULES)
    return db


# -- parsing ------------------------------------------------------------------------------------


def test_the_edition_date_is_read_from_the_head(excerpt: RulesDocument) -> None:
    assert excerpt.effective.isoformat() == "2025-02-07"
    assert excerpt.title == "Magic: The Gathering Comprehensive Rules"


def test_rules_link_to_their_parent_up_to_the_chapter(excerpt: RulesDocument) -> None:
    parents = {rule.number: rule.parent for rule in excerpt.rules}
    chain = ["702.35a"]
    while parents[chain[-1]] is not None:
        chain.append(parents[chain[-1]])  # type: ignore[arg-type]
    assert chain == ["702.35a", "702.35", "702.", "7."]


def test_the_table_of_contents_is_not_taken_for_rules(excerpt: RulesDocument) -> None:
    numbers = [rule.number for rule in excerpt.rules]
    assert numbers[:3] == ["1.", "100.", "100.1"]
    assert "3." not in numbers  # listed in the contents, not in the excerpt's rules
    assert len(numbers) == len(set(numbers))


def test_examples_belong_to_the_rule_before_them(excerpt: RulesDocument) -> None:
    rules = {rule.number: rule for rule in excerpt.rules}
    assert [example[:40] for example in rules["702.19b"].examples] == [
        "Example: A 2/2 creature that can block a",
        "Example: A 6/6 green creature with tramp",
    ]
    assert rules["702.19a"].examples == ()


def test_an_indented_paragraph_continues_its_rule(excerpt: RulesDocument) -> None:
    rules = {rule.number: rule for rule in excerpt.rules}
    first, second = rules["205.4c"].text.split("\n")
    assert first.startswith("Any land with the supertype “basic” is a basic land.")
    assert second.startswith("Cards printed in sets prior to the Eighth Edition core set")
    assert rules["509.1b"].text.count("\n") == 1 and len(rules["509.1b"].examples) == 1


def test_the_published_irregular_numbers_are_read(excerpt: RulesDocument) -> None:
    rules = {rule.number: rule for rule in excerpt.rules}
    assert rules["606.5"].text.startswith("If the total cost")  # "606.5 If": no period
    assert rules["119.1d"].text.startswith("In a two-player Brawl game")  # "119.1d.": one too many
    assert rules["901.4"].text.startswith("All plane and phenomenon cards")  # "901.4.All": no space
    assert not excerpt.warnings


def test_glossary_entries_keep_their_definition_lines(excerpt: RulesDocument) -> None:
    entries = {entry.term: entry.text for entry in excerpt.glossary}
    assert entries["Ability"].split("\n") == [
        "1. Text on an object that explains what that object does or can do.",
        "2. An activated or triggered ability on the stack. This kind of ability is an object.",
        "See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”",
    ]
    assert entries["Madness"] == (
        "A keyword ability that lets a player cast a card they discard. See rule 702.35, “Madness.”"
    )


@pytest.mark.parametrize(
    ("written", "number"),
    [
        ("702.35.", "702.35"),
        ("702.35A", "702.35a"),
        ("702", "702."),
        ("7", "7."),
        ("70", None),
        ("7023.1", None),
    ],
)
def test_rule_numbers_have_one_stored_form(written: str, number: str | None) -> None:
    assert canonical_number(written) == number


@needs_real
def test_the_whole_published_file_parses() -> None:
    document = read_rules(REAL)
    assert (len(document.rules), len(document.glossary)) == (3175, 703)
    assert document.rules[-1].number == "905.6"
    assert document.glossary[-1].term == "Zone-Change Triggers"


# -- mentions -----------------------------------------------------------------------------------

# Sentences from the rulings of a madness card (tests' seed pages) and from the rules themselves.
SEEN_IN_RULINGS = [
    (
        "After resolving a madness triggered ability (see rule 702.35), if the exiled card wasn’t cast",
        [("702.35", ("702.35",))],
    ),
    (
        "Casting a spell using its madness ability follows the rules for paying alternative costs in "
        "rules 601.2b and 601.2f–h.",
        [("601.2b", ("601.2b",)), ("601.2f–h", ("601.2f", "601.2g", "601.2h"))],
    ),
    (
        "effects referencing the discarded card can find that card. See rule 400.7k.",
        [("400.7k", ("400.7k",))],
    ),
    ("See rules 603.6 and 603.10.", [("603.6", ("603.6",)), ("603.10", ("603.10",))]),
]


@pytest.mark.parametrize(("text", "expected"), SEEN_IN_RULINGS)
def test_mentions_in_ruling_sentences(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert [(m.text, m.numbers) for m in mentions(text)] == expected


def test_a_mention_span_points_into_the_text() -> None:
    text = "Trample over planeswalkers: see rules 702.19c–e."
    (found,) = mentions(text)
    assert text[found.start : found.end] == found.text == "702.19c–e"
    assert found.numbers == ("702.19c", "702.19d", "702.19e")


def test_a_subrule_range_skips_l_and_o() -> None:
    (found,) = mentions("as described in rules 111.10j–r.")
    assert found.numbers == ("111.10j", "111.10k", "111.10m", "111.10n", "111.10p", "111.10q", "111.10r")


def test_ranges_of_rules_are_expanded_however_written() -> None:
    found = mentions("See rules 701.28a–f, 712.9–10, and 903.6–903.8; also rules 601.2g-h.")
    assert [m.numbers for m in found] == [
        ("701.28a", "701.28b", "701.28c", "701.28d", "701.28e", "701.28f"),
        ("712.9", "712.10"),
        ("903.6", "903.7", "903.8"),
        ("601.2g", "601.2h"),
    ]


def test_sections_and_chapters_are_mentioned_by_their_stored_number() -> None:
    found = mentions(
        "See rule 903, “Commander,” and section 8, “Multiplayer Rules.” See rule 704. Compare rules 704–705."
    )
    assert [m.numbers for m in found] == [("903.",), ("8.",), ("704.",), ("704.", "705.")]


def test_bare_full_numbers_are_mentions_and_plain_numbers_are_not() -> None:
    found = mentions("See 702.153, “Casualty.” It deals 3 damage; 20 life; rule 10; 1000.5 points")
    assert [m.numbers for m in found] == [("702.153",)]


@needs_real
def test_every_mention_in_the_published_rules_names_a_rule_of_that_edition() -> None:
    document = read_rules(REAL)
    numbers = {rule.number for rule in document.rules}
    texts = [text for rule in document.rules for text in (rule.text, *rule.examples)]
    texts += [entry.text for entry in document.glossary]
    missing = {n for text in texts for m in mentions(text) for n in m.numbers if n not in numbers}
    assert missing == {"110.10"}  # the glossary's Map says "see rule 110.10", a rule that does not exist


# -- importing ----------------------------------------------------------------------------------


def test_import_stores_rules_glossary_and_the_edition(db: carddb.Database) -> None:
    summary = db.import_path(RULES)
    (file,) = summary.files
    assert (file.kind, file.rules) == ("rules", 128 + 10)
    rules, glossary, edition = stored(db)
    assert (len(rules), len(glossary)) == (128, 10)
    assert [tuple(row) for row in edition] == [(1, dt.date(2025, 2, 7), RULES.name, 128)]


def test_rules_are_stored_in_document_order(rules_db: carddb.Database, excerpt: RulesDocument) -> None:
    rules, glossary, _ = stored(rules_db)
    assert [row.number for row in rules] == [rule.number for rule in excerpt.rules]
    assert [row.position for row in rules] == list(range(len(rules)))
    assert [row.term for row in glossary] == [entry.term for entry in excerpt.glossary]


def test_importing_the_same_file_twice_leaves_the_same_rows(rules_db: carddb.Database) -> None:
    before = stored(rules_db)
    rules_db.import_path(RULES)
    assert stored(rules_db) == before


def test_a_newer_edition_replaces_the_older_entirely(rules_db: carddb.Database) -> None:
    summary = rules_db.import_path(NEWER)
    rules, glossary, edition = stored(rules_db)
    assert "702.35c" not in {row.number for row in rules}
    assert "Card Pool" not in {row.term for row in glossary}
    assert (len(rules), len(glossary)) == (127, 9)
    assert [row.effective.isoformat() for row in edition] == ["2025-03-03"]
    assert "replaced the edition effective 2025-02-07" in summary.report[0]


def test_an_older_edition_is_skipped_with_a_warning(db: carddb.Database) -> None:
    db.import_path(NEWER)
    before = stored(db)
    summary = db.import_path(RULES)
    assert stored(db) == before
    assert summary.rules == 0
    (warning,) = summary.warnings
    assert "kept the stored Comprehensive Rules (effective 2025-03-03)" in warning
    assert "(effective 2025-02-07) is older" in warning


# -- bad input ----------------------------------------------------------------------------------


def test_a_file_cut_inside_the_rules_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    lines = excerpt_lines()
    cut = lines[: line_number(lines, "702.35b")]  # ends with rule 702.35b: no glossary, no credits
    error = refused(rules_db, write_rules(tmp_path, cut), TruncatedRulesError)
    assert error.position == f"line {len(cut)}"
    assert "ends inside the numbered rules" in error.reason and "702.35b" in error.reason


def test_rules_followed_by_the_credits_without_a_glossary_are_cut(
    rules_db: carddb.Database, tmp_path: Path
) -> None:
    lines = excerpt_lines()
    start = lines.index("Glossary", lines.index("Credits") + 1)
    end = lines.index("Credits", start)
    error = refused(rules_db, write_rules(tmp_path, lines[:start] + lines[end:]), TruncatedRulesError)
    assert "no glossary" in error.reason


def test_a_file_cut_inside_the_glossary_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    lines = excerpt_lines()
    cut = lines[: lines.index("Madness") + 2]
    error = refused(rules_db, write_rules(tmp_path, cut), TruncatedRulesError)
    assert "ends inside the glossary" in error.reason and "'Madness'" in error.reason


def test_a_cut_compressed_file_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    path = tmp_path / "MagicCompRules-20250207.txt.xz"
    path.write_bytes(RULES.read_bytes()[:8000])
    before = stored(rules_db)
    # Called directly: through `carddb import`, format detection meets the cut first.
    with pytest.raises(TruncatedRulesError, match="truncated or corrupt compressed data") as caught:
        import_rules(ImportRun(rules_db.engine, rules_db.url), path)
    assert caught.value.path == path and (caught.value.position or "").startswith("line ")
    assert stored(rules_db) == before


def test_a_file_without_an_edition_date_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    lines = [line for line in excerpt_lines() if not line.startswith("These rules are effective")]
    error = refused(rules_db, write_rules(tmp_path, lines), RulesFormatError)
    assert "no edition date" in error.reason
    assert error.position == f"line {lines.index('Contents') + 1}"


def test_an_unreadable_edition_date_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    lines = [line.replace("February 7, 2025", "Febtober 7, 2025") for line in excerpt_lines()]
    error = refused(rules_db, write_rules(tmp_path, lines), RulesFormatError)
    assert "unreadable edition date 'Febtober 7, 2025'" in error.reason
    assert error.position == "line 3"


def test_a_malformed_rule_number_is_refused_naming_its_line(
    rules_db: carddb.Database, tmp_path: Path
) -> None:
    lines = excerpt_lines()
    at = line_number(lines, "702.35a ")
    lines[at - 1] = lines[at - 1].replace("702.35a ", "702,35a ", 1)
    error = refused(rules_db, write_rules(tmp_path, lines), RulesFormatError)
    assert error.position == f"line {at}"
    assert "malformed rule number in '702,35a Madness is a keyword" in error.reason


def test_a_rule_out_of_place_is_refused(rules_db: carddb.Database, tmp_path: Path) -> None:
    lines = excerpt_lines()
    at = line_number(lines, "702.19g ")
    lines[at - 1] = lines[at - 1].replace("702.19g ", "702.91g ", 1)
    error = refused(rules_db, write_rules(tmp_path, lines), RulesFormatError)
    assert error.position == f"line {at}"
    assert "rule 702.91g is out of place: it belongs under 702.91" in error.reason


def test_a_file_that_is_not_the_rules_is_refused_by_the_importer(
    rules_db: carddb.Database, tmp_path: Path
) -> None:
    page = tmp_path / "madness.txt"
    page.write_text("Madness\n\nIf you discard this card, discard it into exile.\n", encoding="utf-8")
    before = stored(rules_db)
    with pytest.raises(NotRulesError) as caught:
        import_rules(ImportRun(rules_db.engine, rules_db.url), page)
    assert caught.value.path == page and caught.value.position == "line 1"
    assert "not the Comprehensive Rules" in str(caught.value)
    assert stored(rules_db) == before


def test_rules_errors_survive_pickling() -> None:
    errors = [
        TruncatedRulesError("r.txt", "cut", "line 9"),
        RuleNotFoundError("702.35z", ["702.35"]),
        NoRulesImportedError("madness"),
    ]
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)


# -- lookup -------------------------------------------------------------------------------------


def test_a_rule_number_shows_the_rule_with_its_subrules_and_examples(rules_db: carddb.Database) -> None:
    view = rules_db.rule("702.19")
    assert (view.number, view.text, view.found_by) == ("702.19", "Trample", "number")
    assert [sub.number for sub in view.subrules] == [f"702.19{letter}" for letter in "abcdefg"]
    assert len(view.subrules[1].examples) == 2
    assert [a.number for a in view.ancestors] == ["7.", "702."]


def test_a_subrule_number_shows_that_subrule(rules_db: carddb.Database) -> None:
    view = rules_db.rule("702.35a")
    assert view.number == "702.35a" and view.text.startswith("Madness is a keyword that represents two")
    assert view.subrules == ()
    assert [a.number for a in view.ancestors] == ["7.", "702.", "702.35"]


@pytest.mark.parametrize("query", ["702.35.", "rule 702.35", " 702.35 "])
def test_a_number_is_found_however_written(rules_db: carddb.Database, query: str) -> None:
    assert rules_db.rule(query).number == "702.35"


def test_a_section_shows_its_rules(rules_db: carddb.Database) -> None:
    view = rules_db.rule("702")
    assert (view.number, view.text) == ("702.", "Keyword Abilities")
    assert [(sub.number, sub.text) for sub in view.subrules] == [("702.19", "Trample"), ("702.35", "Madness")]


@pytest.mark.parametrize("query", ["madness", "MADNESS", "Mádness", " madness "])
def test_a_glossary_term_finds_its_rule_in_any_case_or_accent(rules_db: carddb.Database, query: str) -> None:
    view = rules_db.rule(query)
    assert (view.number, view.found_by) == ("702.35", "glossary")
    assert [sub.number for sub in view.subrules] == ["702.35a", "702.35b", "702.35c"]
    assert [(g.term, g.text[:30]) for g in view.glossary] == [("Madness", "A keyword ability that lets a ")]


def test_a_glossary_term_pointing_to_another_is_followed(rules_db: carddb.Database) -> None:
    view = rules_db.rule("y")
    assert [g.term for g in view.glossary] == ["Y", "X"]
    assert view.number == "107.3"


def test_a_term_with_two_names_answers_to_each(rules_db: carddb.Database) -> None:
    view = rules_db.rule("kicked")
    assert [g.term for g in view.glossary] == ["Kicker, Kicked"]
    assert view.number is None  # rule 702.33 is not in the excerpt
    assert [(m.number, m.found) for m in view.mentions] == [("702.33", False)]


def test_an_obsolete_term_answers_to_its_plain_name(rules_db: carddb.Database) -> None:
    view = rules_db.rule("bury")
    assert [g.term for g in view.glossary] == ["Bury (Obsolete)"] and view.number is None


def test_the_view_lists_the_rules_it_mentions_resolved(rules_db: carddb.Database) -> None:
    view = rules_db.rule("702.35")
    assert [m.number for m in view.mentions] == ["601.2b", "601.2f", "601.2g", "601.2h", "400.7k"]
    assert all(m.found for m in view.mentions)
    assert view.mentions[-1].text is not None and view.mentions[-1].text.startswith(
        "After resolving a madness triggered ability (see rule 702.35)"
    )


def test_a_mention_the_edition_lacks_is_said(rules_db: carddb.Database) -> None:
    view = rules_db.rule("casualty")  # "See 702.153, “Casualty.”": not in the excerpt
    assert view.number is None
    assert [(m.number, m.text) for m in view.mentions] == [("702.153", None)]
    assert "702.153  (not in the stored edition)" in format_rule(view)


def test_an_unknown_number_raises_with_nearby_numbers(rules_db: carddb.Database) -> None:
    with pytest.raises(RuleNotFoundError) as caught:
        rules_db.rule("702.35z")
    assert caught.value.suggestions == ("702.35", "702.35a", "702.35b", "702.35c")


def test_an_unknown_term_raises_with_the_closest_terms(rules_db: carddb.Database) -> None:
    with pytest.raises(RuleNotFoundError) as caught:
        rules_db.rule("madnes")
    assert caught.value.suggestions[0] == "Madness"
    assert "did you mean: Madness" in str(caught.value)


def test_without_rules_the_lookup_says_to_import_them(db: carddb.Database) -> None:
    with pytest.raises(NoRulesImportedError, match="import the Comprehensive Rules first: carddb import"):
        db.rule("madness")


def test_format_rule_shows_glossary_rule_subrules_examples_and_mentions(rules_db: carddb.Database) -> None:
    text = format_rule(rules_db.rule("trample"))
    lines = text.splitlines()
    assert lines[0].startswith("Trample (glossary): A keyword ability that modifies how a creature assigns")
    assert "7. Additional Rules › 702. Keyword Abilities" in lines
    assert "702.19 Trample" in lines
    assert any(line.startswith("  702.19b The controller of an attacking creature") for line in lines)
    assert any(line.startswith("    Example: A 2/2 creature that can block") for line in lines)
    assert "Rules mentioned:" in lines
    assert lines[-1] == "Comprehensive Rules effective February 7, 2025"


def test_to_dict_is_json_ready(rules_db: carddb.Database) -> None:
    data = json.loads(json.dumps(rules_db.rule("madness").to_dict()))
    assert data["number"] == "702.35" and data["effective"] == "2025-02-07"
    assert data["subrules"][0]["number"] == "702.35a"
    assert data["mentions"][0] == {
        "number": "601.2b",
        "text": data["mentions"][0]["text"],
        "found": True,
    }


def test_resolve_gives_each_mentioned_rule_its_stored_text(rules_db: carddb.Database) -> None:
    text = "follows the rules for paying alternative costs in rules 601.2b and 601.2f–h. See rule 702.33a."
    with rules_db.session() as session:
        resolved = resolve(session, text)
    assert [[r.number for r in item.rules] for item in resolved] == [
        ["601.2b"],
        ["601.2f", "601.2g", "601.2h"],
        ["702.33a"],
    ]
    assert resolved[1].rules[2].text is not None and resolved[1].rules[2].text.startswith("The player pays")
    assert str(resolved[2].rules[0]) == "702.33a: not in the stored edition"


def test_the_rule_command_prints_the_rule(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "import", "-q", str(RULES)]) == 0
    capsys.readouterr()
    assert main(["--db", db_url, "rule", "Madness"]) == 0
    assert "702.35b Casting a spell using its madness ability" in capsys.readouterr().out


def test_a_range_names_each_rule_in_it(rules_db: carddb.Database) -> None:
    views = rules_db.rules("601.2f-h")
    assert [view.number for view in views] == ["601.2f", "601.2g", "601.2h"]


def test_a_list_names_each_rule_once(rules_db: carddb.Database) -> None:
    views = rules_db.rules("rules 603.6 and 603.10, 603.6")
    assert [view.number for view in views] == ["603.6", "603.10"]


def test_one_number_or_term_is_one_rule(rules_db: carddb.Database) -> None:
    assert [view.number for view in rules_db.rules("madness")] == ["702.35"]
    assert [view.number for view in rules_db.rules("702.35a")] == ["702.35a"]


def test_the_rule_command_prints_each_rule_of_a_range(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db_url, "import", "-q", str(RULES)]) == 0
    capsys.readouterr()
    assert main(["--db", db_url, "rule", "601.2f–h"]) == 0
    out = capsys.readouterr().out
    assert "601.2f The player determines the total cost" in out
    assert "601.2h The player pays the total cost" in out
