"""Card pages and rulings pages (the five seed documents), read by their shape.

The pages are the seeds copied into ``tests/fixtures/pages/``; the cards they are about are real
MTGJSON records cut from the corpus beside them (see ``tests/fixtures/README.md``). Every database
test runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
import lzma
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

import carddb
from carddb import languages
from carddb.db.models import Card, Localization, Note, Ruling, SearchDocument
from carddb.errors import CarddbError, SourceError
from carddb.ingest.language_guess import guess_language
from carddb.ingest.page_text import (
    CardNotIdentifiedError,
    PageDateError,
    PageShapeError,
    read_paragraphs,
    sections_page,
    translations_page,
)
from carddb.notes import UnknownTopicError, card_notes, format_keyword, keyword_view
from carddb.text import normalize
from carddb.topics import find_topic, topics_in

PAGES = Path(__file__).parent / "fixtures" / "pages"
RULINGS_000 = PAGES / "000_6ee225acdaa31ad9.txt"  # madness, dredge, dice
RULINGS_001 = PAGES / "001_fa72051f05da2c58.txt"  # Royal Role, Golgothian Sylex, cloak, ward, madness
TEN_LANGUAGES = PAGES / "002_20a400b8ebec3d2c.txt"  # Underdark Rift
RULINGS_003 = PAGES / "003_95f9b2d39eb9072a.txt"  # mill, dredge, Planechase
SPANISH = PAGES / "004_fc11ba189bb05f33.txt"  # Diviner's Portent's rulings in Spanish
ALL_PAGES = (RULINGS_000, RULINGS_001, TEN_LANGUAGES, RULINGS_003, SPANISH)
BLOCK_LANGUAGES = ["de", "es", "fr", "it", "ja", "pt-BR", "ru", "zh-Hans", "zh-Hant", "en"]


def read_fixture(code: str) -> dict[str, Any]:
    with lzma.open(PAGES / f"{code}.json.xz", "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def without(code: str, name: str, key: str, tmp_path: Path) -> Path:
    """The fixture set ``code`` with ``key`` (``foreignData``, ``rulings``) of ``name`` emptied: a
    database that lacks that card's translations or rulings."""
    data = read_fixture(code)
    for record in data["data"]["cards"]:
        if record["name"] == name:
            record[key] = []
    path = tmp_path / f"{code}-without-{key}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def edited(page: Path, tmp_path: Path, change: Callable[[str], str]) -> Path:
    """A copy of a seed page with one edit (for the error cases)."""
    path = tmp_path / page.name
    path.write_text(change(page.read_text(encoding="utf-8")), encoding="utf-8")
    return path


@pytest.fixture
def cards_db(db: carddb.Database) -> carddb.Database:
    """The cards the pages talk about: Underdark Rift and Diviner's Portent (AFC), Pixie Guide and
    Barbarian Class (AFR), Sage of Lat-Nam (DOM), Golgothian Sylex (ATQ)."""
    db.import_path(PAGES / "AFC.json.xz", PAGES / "AFR.json.xz", PAGES / "DOM.json.xz", PAGES / "ATQ.json")
    return db


def card_id(db: carddb.Database, name: str) -> int:
    with db.session() as session:
        return session.scalars(select(Card.id).where(Card.name == name)).one()


def rulings_of(db: carddb.Database, name: str, language: str) -> list[Ruling]:
    with db.session() as session:
        return list(
            session.scalars(
                select(Ruling)
                .join(Card, Card.id == Ruling.card_id)
                .where(Card.name == name, Ruling.language == language)
                .order_by(Ruling.position)
            )
        )


def row_counts(db: carddb.Database) -> dict[str, int]:
    with db.session() as session:
        notes = session.scalar(select(func.count()).select_from(Note)) or 0
    return {**db.counts(), "notes": notes}


# -- languages of blocks ---------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["de", "es", "fr", "it", "ja", "pt-BR", "ru", "zh-Hans", "zh-Hant"])
def test_printed_texts_are_placed_in_their_language(language: str) -> None:
    """Diviner's Portent's and Underdark Rift's printed translations, by script and words alone."""
    mtgjson_name = languages.by_tag(language).mtgjson_name
    for record in read_fixture("AFC")["data"]["cards"]:
        if record["number"] in ("15", "62"):
            (foreign,) = [f for f in record["foreignData"] if f["language"] == mtgjson_name]
            assert guess_language(f"{foreign['name']}\n{foreign['text']}").tag == language


def test_english_rules_text_is_english() -> None:
    (rift,) = [r for r in read_fixture("AFC")["data"]["cards"] if r["name"] == "Underdark Rift"]
    assert guess_language(f"{rift['name']}\n{rift['text']}").tag == "en"


def test_chinese_scripts_are_told_apart_by_simplified_and_traditional_characters() -> None:
    assert guess_language("幽暗地域裂缝").tag == "zh-Hans"  # 缝: GB 2312 only
    assert guess_language("幽暗地域裂縫").tag == "zh-Hant"  # 縫: Big5 only


def test_text_too_short_to_place_is_refused_with_a_reason() -> None:
    guess = guess_language("Unterreich-Spalte\n{T}: Erzeuge {C}.")
    assert guess.tag is None
    assert "too few" in guess.reason


# -- dates ------------------------------------------------------------------------------------------
def test_a_spanish_page_date_is_read_in_the_spanish_locale() -> None:
    assert languages.by_tag("es").parse_date("23/07/2021") == dt.date(2021, 7, 23)


@pytest.mark.parametrize("text", ["07/23/2021", "2021-07-23", "23.07.2021", "32/07/2021"])
def test_a_date_not_written_the_spanish_way_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="d/M/yy"):
        languages.by_tag("es").parse_date(text)


# -- shapes -----------------------------------------------------------------------------------------
def test_ten_language_page_is_blocks_then_set_names_then_rulings() -> None:
    page = translations_page(read_paragraphs(TEN_LANGUAGES), frozenset({"forgotten realms commander"}))
    assert page is not None
    assert [block.guess.tag for block in page.blocks] == BLOCK_LANGUAGES
    assert [paragraph.prose for paragraph in page.sets] == ["The List", "Forgotten Realms Commander"]
    assert len(page.rulings) == 11


def test_spanish_page_is_sections_with_one_of_dated_rulings() -> None:
    page = sections_page(read_paragraphs(SPANISH))
    assert page is not None
    assert [heading.prose for heading in page.headings] == ["Descripción", "Información adicional"]
    assert page.description.lines[0] == "Tira un d20 y suma la cantidad de cartas en tu mano."
    assert len(page.dated.lines) == 10


def test_a_rulings_page_is_neither_card_shape() -> None:
    paragraphs = read_paragraphs(RULINGS_003)
    assert sections_page(paragraphs) is None
    assert translations_page(paragraphs, frozenset()) is None


# -- the ten-language page --------------------------------------------------------------------------
def test_ten_language_page_finds_every_translation_already_stored(cards_db: carddb.Database) -> None:
    before = row_counts(cards_db)
    summary = cards_db.import_path(TEN_LANGUAGES)
    assert row_counts(cards_db) == before
    assert summary.files[0].kind == "page"
    assert summary.localizations == 10
    lines = "\n".join(summary.report)
    assert "“Unterreich-Spalte”: de, by its stored name; already stored" in lines
    assert "“幽暗地域裂縫”: zh-Hant, by its stored name; already stored" in lines
    assert "11 rulings in en: 0 new, 11 already stored" in lines


def test_set_names_are_reported_with_their_stored_code(cards_db: carddb.Database) -> None:
    report = cards_db.import_path(TEN_LANGUAGES).report
    assert "  line 53 “Forgotten Realms Commander”: set AFC, the card is printed there" in report
    assert "  line 51 “The List”: a set name, not in the database" in report


def test_missing_translations_are_placed_by_their_words_and_stored(
    db: carddb.Database, tmp_path: Path
) -> None:
    db.import_path(without("AFC", "Underdark Rift", "foreignData", tmp_path))
    db.import_path(TEN_LANGUAGES)
    with db.session() as session:
        stored = {
            loc.language: (loc.name, loc.origin)
            for loc in session.scalars(
                select(Localization).where(Localization.origin == "page").order_by(Localization.language)
            )
        }
    assert sorted(stored) == sorted(BLOCK_LANGUAGES[:-1])
    assert stored["de"] == ("Unterreich-Spalte", "page")
    assert stored["zh-Hans"] == ("幽暗地域裂缝", "page")


def test_a_page_translation_finds_the_card(db: carddb.Database, tmp_path: Path) -> None:
    db.import_path(without("AFC", "Underdark Rift", "foreignData", tmp_path))
    db.import_path(TEN_LANGUAGES)
    assert db.card("Разлом Подземья").english_name == "Underdark Rift"


def test_page_translations_survive_a_new_import_of_the_set(db: carddb.Database, tmp_path: Path) -> None:
    stripped = without("AFC", "Underdark Rift", "foreignData", tmp_path)
    db.import_path(stripped)
    db.import_path(TEN_LANGUAGES)
    before = row_counts(db)
    db.import_path(stripped)  # the loader prunes translations no printing carries, but not these
    assert row_counts(db) == before


def test_a_block_that_cannot_be_placed_is_reported_and_not_stored(
    db: carddb.Database, tmp_path: Path
) -> None:
    db.import_path(without("AFC", "Underdark Rift", "foreignData", tmp_path))
    # only the German block's first line, "{T}: Erzeuge {C}.", is left: too few words to place
    page = edited(
        TEN_LANGUAGES, tmp_path, lambda text: "\n".join(text.split("\n")[:3] + text.split("\n")[4:])
    )
    summary = db.import_path(page)
    assert any(
        "line 1 “Unterreich-Spalte” not stored: its language cannot be told" in w for w in summary.warnings
    )
    with db.session() as session:
        languages_stored = set(
            session.scalars(select(Localization.language).where(Localization.origin == "page"))
        )
    assert "de" not in languages_stored
    assert "es" in languages_stored


def test_two_blocks_guessed_into_one_language_are_both_refused(db: carddb.Database, tmp_path: Path) -> None:
    """Diviner's Portent's two printed Japanese texts (AFC 15 and 284) on one page, with no stored
    Japanese name to tell them apart: which one is the page's Japanese is not guessed."""
    db.import_path(without("AFC", "Diviner's Portent", "foreignData", tmp_path))
    records = [r for r in read_fixture("AFC")["data"]["cards"] if r["name"] == "Diviner's Portent"]
    japanese = [f for r in records for f in r["foreignData"] if f["language"] == "Japanese"]
    blocks = [(f["name"], f["text"]) for f in japanese] + [(records[0]["name"], records[0]["text"])]
    page = tmp_path / "portent.txt"
    page.write_text("\n\n".join(f"{name}\n\n{text}" for name, text in blocks) + "\n", encoding="utf-8")
    summary = db.import_path(page)
    assert [w.split(" not stored: ")[1] for w in summary.warnings] == [
        "guessed ja, like the blocks at lines 1, 7: which one is ja?"
    ] * 2
    with db.session() as session:
        assert session.scalar(select(func.count()).where(Localization.origin == "page")) == 0


def test_missing_rulings_are_stored_as_undated_page_rulings(db: carddb.Database, tmp_path: Path) -> None:
    db.import_path(without("AFC", "Underdark Rift", "rulings", tmp_path))
    db.import_path(TEN_LANGUAGES)
    rulings = rulings_of(db, "Underdark Rift", "en")
    assert len(rulings) == 11
    assert {(r.source, r.published) for r in rulings} == {("page", None)}
    assert rulings[4].text.startswith("If that permanent's owner has fewer than X cards")


def test_dated_rulings_imported_later_replace_the_undated_page_copies(
    db: carddb.Database, tmp_path: Path
) -> None:
    db.import_path(without("AFC", "Underdark Rift", "rulings", tmp_path))
    db.import_path(TEN_LANGUAGES)
    db.import_path(PAGES / "AFC.json.xz")  # the same rulings, dated, from MTGJSON
    rulings = rulings_of(db, "Underdark Rift", "en")
    assert len(rulings) == 11
    assert {(r.source, r.published) for r in rulings} == {("wotc", dt.date(2021, 7, 23))}


# -- the Spanish card page ---------------------------------------------------------------------------
def test_spanish_page_card_is_found_by_its_spanish_rules_text(cards_db: carddb.Database) -> None:
    summary = cards_db.import_path(SPANISH)
    assert summary.report[0].startswith(
        "004_fc11ba189bb05f33.txt: a card page in Spanish about Diviner's Portent: its rules text is 98% like"
    )


def test_spanish_rulings_are_stored_as_wizards_rulings_in_spanish(cards_db: carddb.Database) -> None:
    cards_db.import_path(SPANISH)
    rulings = rulings_of(cards_db, "Diviner's Portent", "es")
    assert len(rulings) == 10
    assert {(r.source, r.published) for r in rulings} == {("wotc", dt.date(2021, 7, 23))}
    assert rulings[0].text.startswith("Los dados se identifican por el número de caras")


def test_spanish_rulings_are_linked_to_the_english_rulings_they_translate(cards_db: carddb.Database) -> None:
    cards_db.import_path(SPANISH)
    english = rulings_of(cards_db, "Diviner's Portent", "en")
    spanish = rulings_of(cards_db, "Diviner's Portent", "es")
    assert [r.original_digest for r in spanish] == [r.digest for r in english]
    assert english[6].text.startswith("Some abilities, like that of Pixie Guide and Barbarian Class")
    assert spanish[6].text.startswith("Algunas habilidades, como la de Pixie Guide y Barbarian Class")


def test_card_shown_in_spanish_shows_the_spanish_rulings(cards_db: carddb.Database) -> None:
    cards_db.import_path(SPANISH)
    view = cards_db.card("Diviner's Portent", lang="es")
    assert view.rulings_language == "es"
    assert len(view.rulings) == 10
    assert view.rulings[9].text.startswith("Los eventos de torneo tienen reglas más específicas")


def test_spanish_rulings_are_searchable(cards_db: carddb.Database) -> None:
    cards_db.import_path(SPANISH)
    with cards_db.session() as session:
        document = session.scalars(
            select(SearchDocument.rulings).where(
                SearchDocument.card_id == card_id(cards_db, "Diviner's Portent"),
                SearchDocument.language == "es",
            )
        ).one()
    assert normalize("Los dados se identifican por el número de caras") in document


def test_spanish_rulings_survive_a_new_import_of_the_english_ones(cards_db: carddb.Database) -> None:
    cards_db.import_path(SPANISH)
    cards_db.import_path(PAGES / "AFC.json.xz")  # replaces the English rulings, same digests
    english = rulings_of(cards_db, "Diviner's Portent", "en")
    spanish = rulings_of(cards_db, "Diviner's Portent", "es")
    assert [r.original_digest for r in spanish] == [r.digest for r in english]


def test_card_given_with_card_option_is_used(cards_db: carddb.Database) -> None:
    summary = cards_db.import_path(SPANISH, card="Presagio del adivino")
    assert "given with --card; its rules text is 98% like the stored es text" in summary.report[0]
    assert len(rulings_of(cards_db, "Diviner's Portent", "es")) == 10


def test_card_option_naming_a_card_of_other_text_warns(cards_db: carddb.Database) -> None:
    summary = cards_db.import_path(SPANISH, card="Underdark Rift")
    assert any("matches none of the card's stored translations" in w for w in summary.warnings)
    assert any(
        "not linked: the page has 10, the card has 11 English rulings" in line for line in summary.report
    )


def test_page_whose_card_is_not_stored_asks_for_card_option(db: carddb.Database) -> None:
    db.import_path(PAGES / "AFR.json.xz")
    with pytest.raises(CardNotIdentifiedError, match="name the card with --card NAME") as raised:
        db.import_path(SPANISH)
    assert raised.value.path == SPANISH
    assert db.counts()["rulings"] == len(rulings_of(db, "Barbarian Class", "en"))


def test_unknown_card_option_suggests_close_names(cards_db: carddb.Database) -> None:
    with pytest.raises(CardNotIdentifiedError) as raised:
        cards_db.import_path(SPANISH, card="Diviners Portant")
    assert "Diviner's Portent" in raised.value.suggestions


def test_date_in_an_unexpected_format_names_the_file_and_line(
    cards_db: carddb.Database, tmp_path: Path
) -> None:
    page = edited(
        SPANISH,
        tmp_path,
        lambda text: text.replace("23/07/2021 Algunos efectos te", "07/23/2021 Algunos efectos te"),
    )
    with pytest.raises(PageDateError) as raised:
        cards_db.import_path(page)
    assert raised.value.position == "line 16"
    assert str(raised.value).startswith(f"{page} at line 16: '07/23/2021' is not a real date (d/M/yy")
    assert rulings_of(cards_db, "Diviner's Portent", "es") == []


# -- rulings pages ----------------------------------------------------------------------------------
def test_paragraph_is_attached_by_its_content_not_the_heading_above(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_000)  # under "Dredge": "Results can be numbers … six-sided die."
    with cards_db.session() as session:
        topics = set(
            session.scalars(select(Note.topic).where(Note.text.startswith("Results can be numbers")))
        )
    assert topics == {"dice"}


def test_paragraph_about_two_topics_is_a_note_of_each(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_000)
    with cards_db.session() as session:
        topics = set(
            session.scalars(select(Note.topic).where(Note.text.startswith("If an ability triggers")))
        )
    assert topics == {"dice", "planechase"}


def test_paragraph_naming_a_stored_card_is_a_note_of_that_card(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_001)
    with cards_db.session() as session:
        notes = card_notes(session, card_id(cards_db, "Golgothian Sylex"))
    assert len(notes) == 1
    assert notes[0].text.startswith("One card (Golgothian Sylex) refers to permanents")
    assert notes[0].sources == (RULINGS_001.name,)


def test_names_in_an_enumeration_are_not_attached(cards_db: carddb.Database) -> None:
    summary = cards_db.import_path(RULINGS_001)  # Sage of Lat-Nam is one of the Antiquities names listed
    with cards_db.session() as session:
        assert card_notes(session, card_id(cards_db, "Sage of Lat-Nam")) == ()
    assert any("(not attached: Sage of Lat-Nam, named in an enumeration)" in line for line in summary.report)


def test_capitalized_keyword_inside_a_name_is_not_the_keyword() -> None:
    assert [t.key for t in topics_in("Those names are Artifact Ward, Circle of Protection: Artifacts.")] == []
    assert [t.key for t in topics_in("Ward is a triggered ability.")] == ["ward"]


def test_a_rule_reference_names_its_keyword() -> None:
    assert [t.key for t in topics_in("the exiled card can be found (see rule 702.35)")] == ["madness"]


def test_paragraphs_attached_to_nothing_are_reported(cards_db: carddb.Database) -> None:
    summary = cards_db.import_path(RULINGS_003)
    nowhere = [line for line in summary.report if "→ nowhere" in line]
    assert len(nowhere) == 6
    assert nowhere[0].startswith("  line 15 “If a trigger event includes an object moving")
    assert summary.warnings == (
        f"{RULINGS_003.name}: 6 paragraph(s) attached to nothing (lines 15, 19, 21, 23, 25, 27)",
    )


def test_heading_naming_nothing_is_reported_as_skipped(cards_db: carddb.Database) -> None:
    report = cards_db.import_path(RULINGS_003).report
    assert "  line 1 heading “Search”: names no keyword, topic or card; skipped" in report
    assert "  line 5 heading “Mill”: mill (keyword action)" in report


def test_same_paragraph_on_two_pages_is_stored_once(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_000, RULINGS_003)  # both hold the dredge rules, about dredge and mill
    with cards_db.session() as session:
        topics = list(
            session.scalars(select(Note.topic).where(Note.text.startswith("Dredge is a static ability")))
        )
    assert sorted(topics) == ["dredge", "mill"]


# -- reading notes ----------------------------------------------------------------------------------
def test_keyword_view_gathers_notes_from_every_page(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_000, RULINGS_001)
    with cards_db.session() as session:
        view = keyword_view(session, "MADNESS")
    assert (view.name, view.kind, view.rule) == ("Madness", "keyword ability", "702.35")
    assert {source for note in view.notes for source in note.sources} == {RULINGS_000.name, RULINGS_001.name}
    assert len(view.notes) == 12


def test_keyword_view_text_and_json(cards_db: carddb.Database) -> None:
    cards_db.import_path(RULINGS_001)
    with cards_db.session() as session:
        view = keyword_view(session, "cloak")
    text = format_keyword(view)
    assert text.startswith("Cloak — keyword action, rule 701.56\n")
    assert "also about: ward" in text
    assert json.loads(json.dumps(view.to_dict()))["notes"][0]["topics"] == ["cloak", "ward"]


def test_a_known_keyword_no_page_mentions_has_no_notes(cards_db: carddb.Database) -> None:
    with cards_db.session() as session:
        assert keyword_view(session, "Totem armor").notes == ()


def test_unknown_keyword_suggests_the_closest(cards_db: carddb.Database) -> None:
    with cards_db.session() as session, pytest.raises(UnknownTopicError) as raised:
        keyword_view(session, "madnes")
    assert isinstance(raised.value, CarddbError)
    assert raised.value.suggestions[0] == "Madness"
    assert pickle.loads(pickle.dumps(raised.value)).suggestions == raised.value.suggestions


def test_topics_are_found_by_the_names_people_type() -> None:
    assert [find_topic(name).key for name in ("Totem armor", "Islandwalk", "scrying", "die")] == [  # type: ignore[union-attr]
        "umbra armor",
        "landwalk",
        "scry",
        "dice",
    ]


# -- every page -------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda page: page.name[:3])
def test_importing_a_page_twice_adds_nothing(cards_db: carddb.Database, page: Path) -> None:
    cards_db.import_path(page)
    once = row_counts(cards_db)
    cards_db.import_path(page)
    assert row_counts(cards_db) == once


def test_page_of_unknown_shape_is_refused_naming_the_file(cards_db: carddb.Database, tmp_path: Path) -> None:
    page = tmp_path / "notes.txt"
    page.write_text("Shopping\n\nEggs, milk and bread for the weekend, and tea.\n", encoding="utf-8")
    with pytest.raises(PageShapeError, match="not a page carddb reads") as raised:
        cards_db.import_path(page)
    assert str(raised.value).startswith(str(page))
    assert isinstance(raised.value, SourceError)


def test_a_folder_of_pages_and_set_files_imports_the_cards_first(db: carddb.Database) -> None:
    # The pages' names (000_…, 002_…) sort before the set files' (AFC.json.xz): the cards they
    # are about are imported first all the same.
    summary = db.import_path(PAGES)

    assert [f.kind for f in summary.files] == ["mtgjson"] * 4 + ["page"] * 5
    assert any("Underdark Rift" in line for line in summary.report)
