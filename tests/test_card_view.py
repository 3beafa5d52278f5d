"""`carddb card` brings together what every source says about a card: notes from rulings pages,
and the rules its rulings and notes mention, looked up in the stored Comprehensive Rules."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import carddb
from carddb.cli import cli
from carddb.db.lookup import mentioned_rules

FIXTURES = Path(__file__).parent / "fixtures"
PAGES = FIXTURES / "pages"
RULES = FIXTURES / "rules" / "MagicCompRules-20250207-excerpt.txt.xz"
# Real paragraphs of the seed rulings page 000 (madness).
MADNESS_RULING = (
    "After resolving a madness triggered ability (see rule 702.35), if the exiled card wasn’t cast "
    "and was moved to a public zone, effects referencing the discarded card can find that object."
)
ALTERNATIVE_COSTS = (
    "Casting a spell using its madness ability follows the rules for paying alternative costs in "
    "rules 601.2b and 601.2f–h."
)


def test_a_card_shows_the_notes_of_the_pages_about_it(db: carddb.Database) -> None:
    db.import_path(PAGES / "ATQ.json", PAGES / "001_fa72051f05da2c58.txt")

    notes = db.card("Golgothian Sylex").notes

    assert len(notes) == 1
    assert notes[0].text.startswith("One card (Golgothian Sylex) refers to permanents with a name")
    assert notes[0].sources == ("001_fa72051f05da2c58.txt",)


def test_rules_mentioned_are_resolved_once_in_order_of_mention(db: carddb.Database) -> None:
    db.import_path(RULES)
    with db.session() as session:
        rules = mentioned_rules(session, [MADNESS_RULING, ALTERNATIVE_COSTS, MADNESS_RULING])

    assert [rule.number for rule in rules] == ["702.35", "601.2b", "601.2f", "601.2g", "601.2h"]
    assert rules[0].text == "Madness"
    assert all(rule.found for rule in rules)


def test_a_rule_the_stored_edition_lacks_is_said_not_guessed(db: carddb.Database) -> None:
    with db.session() as session:  # no rules imported at all
        (rule,) = mentioned_rules(session, [MADNESS_RULING])
    assert rule.number == "702.35" and not rule.found
    assert str(rule) == "702.35: not in the stored edition"


def test_the_card_command_prints_the_notes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cards.sqlite'}"
    runner = CliRunner()
    imported = runner.invoke(
        cli, ["--db", url, "import", str(PAGES / "ATQ.json"), str(PAGES / "001_fa72051f05da2c58.txt")]
    )
    assert imported.exit_code == 0, imported.output

    shown = runner.invoke(cli, ["--db", url, "card", "Golgothian Sylex"])

    assert shown.exit_code == 0, shown.output
    assert "Notes from rulings and keyword pages:" in shown.output
    assert "• One card (Golgothian Sylex) refers to permanents" in shown.output
