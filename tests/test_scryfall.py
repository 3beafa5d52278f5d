"""Scryfall import: card files (API list pages, bulk arrays) and the rulings file join the rows an
MTGJSON import fills, by oracle id and by (set, collector number), whichever comes first.

Fixtures (``tests/fixtures/scryfall/``, see ``tests/fixtures/README.md``): the real GK2 list page of
the shared corpus (175 printings of 32 cards in six languages); ``GK2.json``, the MTGJSON record of
one of its printings (Gruul Signet GK2 103) made from it; ``constructed-cards.json``, Scryfall objects
made from real MTGJSON records (multi-face layouts, an adventure in German and Japanese, Gruul
Signet in Simplified Chinese and Portuguese, a token); ``rulings.json``, real rulings of four cards.
"""

from __future__ import annotations

import datetime as dt
import json
import lzma
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, fresh_database_url
from sqlalchemy import func, select

import carddb
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.errors import MalformedJSONError
from carddb.ingest.scryfall import NotScryfallError, bulk_file_date, cost_value
from carddb.resources import sample_dir

SCRYFALL = FIXTURES / "scryfall"
PAGE = SCRYFALL / "cards-page-multilang-2019.json.xz"
GK2 = SCRYFALL / "GK2.json"
CONSTRUCTED = SCRYFALL / "constructed-cards.json"
RULINGS = SCRYFALL / "rulings.json"
SEARCH = FIXTURES / "search"
FOREST_ORACLE_ID = "b34bb2dc-c1af-4d77-b0b3-a0fb342a5fc6"


# -- helpers ------------------------------------------------------------------------------------------
def page_document() -> dict[str, Any]:
    with lzma.open(PAGE, "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def write_json(path: Path, data: object, indent: int | None = None) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=indent), encoding="utf-8")
    return path


def page_object(document: dict[str, Any], name: str, lang: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in document["data"] if c["name"] == name and c["lang"] == lang)
    return found


@contextmanager
def another_database(db_url: str, tmp_path: Path) -> Iterator[carddb.Database]:
    """A second fresh database on the same backend as ``db_url``."""
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    folder = tmp_path / "other"
    folder.mkdir()
    with fresh_database_url(backend, folder) as url:
        database = carddb.open(url)
        try:
            yield database
        finally:
            database.close()


def translations(db: carddb.Database, set_code: str, number: str) -> list[tuple[str, str, str]]:
    """(language, face, name) of every translation linked to one printing, sorted."""
    with db.session() as session:
        rows = session.execute(
            select(Localization.language, Face.side, Localization.name)
            .join(PrintingLocalization, PrintingLocalization.localization_id == Localization.id)
            .join(Printing, Printing.id == PrintingLocalization.printing_id)
            .join(Face, Face.id == Localization.face_id)
            .where(Printing.set_code == set_code, Printing.collector_number == number)
        ).all()
    return sorted((language, side, name) for language, side, name in rows)


def state(db: carddb.Database) -> tuple[dict[str, int], list[tuple[str, str]], list[tuple[str, str, str]]]:
    """What a failed import must leave unchanged: row counts, printings, translations."""
    with db.session() as session:
        printings = sorted(
            (s, n) for s, n in session.execute(select(Printing.set_code, Printing.collector_number))
        )
        names = sorted(
            (language, name, digest)
            for language, name, digest in session.execute(
                select(Localization.language, Localization.name, Localization.digest)
            )
        )
    return db.counts(), printings, names


def faces_of(db: carddb.Database, name: str) -> tuple[Any, ...]:
    """A card's stored oracle characteristics, face by face."""
    with db.session() as session:
        card = session.scalars(select(Card).where(Card.name == name)).one()
        return (
            card.layout,
            card.mana_value,
            card.type_bits,
            [
                (
                    *(f.side, f.position, f.name, f.type_line, f.mana_cost, f.mana_value, f.colors),
                    *(f.color_identity, f.oracle_text, f.power, f.toughness, f.loyalty, f.keywords),
                )
                for f in card.faces
            ],
        )


def cards_named(db: carddb.Database, name: str) -> int:
    with db.session() as session:
        return int(session.scalar(select(func.count()).select_from(Card).where(Card.name == name)) or 0)


# -- the real page ------------------------------------------------------------------------------------
def test_the_italian_printing_of_simic_signet_is_shown_by_its_italian_name(db: carddb.Database) -> None:
    db.import_path(PAGE)

    card = db.card("Sigillo Simic")

    assert card.english_name == "Simic Signet"
    assert card.language == "it"
    assert card.faces[0].type_line == "Artefatto"
    assert card.faces[0].text == "{1}, {T}: Aggiungi {G}{U}."
    assert card.faces[0].flavor is not None and card.faces[0].flavor.startswith("Per l'Alleanza Simic")
    assert [(p.set_code, p.collector_number, p.languages) for p in card.printings] == [
        ("GK2", "130", ("it", "ja"))
    ]


def test_lang_it_finds_the_italian_printings(db: carddb.Database) -> None:
    db.import_path(PAGE)

    result = db.search("lang:it", lang="it", limit=100)

    assert result.total == 29
    assert "Sigillo Simic" in [hit.name for hit in result.cards]


def test_each_language_of_a_printing_is_a_translation_of_the_one_printing(db: carddb.Database) -> None:
    """The page has 175 objects: 31 English printings, and GK2 130 in Italian and Japanese only."""
    summary = db.import_path(PAGE)

    assert summary.files[0].kind == "scryfall"
    assert summary.printings == 32
    assert summary.localizations == 144
    assert db.counts() == {"cards": 32, "printings": 32, "localizations": 175, "rulings": 0}
    assert translations(db, "GK2", "103") == [
        ("de", "a", "Gruul-Petschaft"),
        ("en", "a", "Gruul Signet"),
        ("es", "a", "Sello gruul"),
        ("fr", "a", "Cachet de Gruul"),
        ("it", "a", "Sigillo Gruul"),
        ("ja", "a", "グルールの印鑑"),
    ]


def test_the_page_creates_its_set(db: carddb.Database) -> None:
    db.import_path(PAGE)

    with db.session() as session:
        card_set = session.get_one(CardSet, "GK2")
        assert (card_set.name, card_set.release_date.isoformat() if card_set.release_date else None) == (
            "RNA Guild Kit",
            "2019-02-15",
        )
        assert card_set.data_date is None  # only a whole-set source dates a set


def test_the_english_printing_keeps_its_scryfall_and_multiverse_ids(db: carddb.Database) -> None:
    db.import_path(PAGE)

    with db.session() as session:
        signet = session.scalars(
            select(Printing).where(Printing.set_code == "GK2", Printing.collector_number == "103")
        ).one()
    assert signet.scryfall_id == "e4e1f117-69a5-45df-9ac8-2544f54f0efc"
    assert signet.multiverse_id == 460315
    assert signet.identifiers["a"]["scryfallOracleId"] == "d36e0c9f-c025-4dfe-9644-9cad2461ce38"


def test_importing_the_page_twice_leaves_the_same_rows(db: carddb.Database) -> None:
    db.import_path(PAGE)
    first = state(db)

    db.import_path(PAGE)

    assert state(db) == first


# -- joining MTGJSON data --------------------------------------------------------------------------------
def test_the_page_forest_joins_the_sample_forest(db: carddb.Database) -> None:
    """Forest has the same oracle id in the MTGJSON sample (AFR 278) and on the page (GK2 106)."""
    db.import_path(sample_dir() / "AFR.json.xz")

    db.import_path(PAGE)

    assert cards_named(db, "Forest") == 1
    sets = {(p.set_code, p.collector_number) for p in db.card("Forest").printings}
    assert {("AFR", "278"), ("GK2", "106")} <= sets


@pytest.mark.parametrize("order", ["mtgjson first", "scryfall first"])
def test_both_orders_store_the_same_rows(
    db: carddb.Database, db_url: str, tmp_path: Path, order: str
) -> None:
    """GK2.json is the MTGJSON record of Gruul Signet GK2 103, made from the page's objects of it."""
    db.import_path(GK2)
    db.import_path(PAGE)
    with another_database(db_url, tmp_path) as other:
        for path in (GK2, PAGE) if order == "mtgjson first" else (PAGE, GK2):
            other.import_path(path)  # one call each: a call imports MTGJSON files first

        assert state(other) == state(db)
        assert translations(other, "GK2", "103") == translations(db, "GK2", "103")


def test_a_translation_mtgjson_already_gave_is_not_added_twice(db: carddb.Database) -> None:
    db.import_path(GK2)
    before = translations(db, "GK2", "103")

    summary = db.import_path(PAGE)

    assert translations(db, "GK2", "103") == before
    assert [language for language, _side, _name in before] == ["de", "en", "es", "fr", "it", "ja"]
    assert summary.files[0].kind == "scryfall"


def test_a_translation_with_another_name_is_added_beside_mtgjsons(
    db: carddb.Database, tmp_path: Path
) -> None:
    """The MTGJSON record's Italian name is changed here (not real data) to differ from Scryfall's."""
    document = json.loads(GK2.read_text(encoding="utf-8"))
    italian = next(f for f in document["data"]["cards"][0]["foreignData"] if f["language"] == "Italian")
    italian["name"] = "Sigillo dei Gruul"
    db.import_path(write_json(tmp_path / "GK2.json", document))

    db.import_path(PAGE)

    italian_names = [name for language, _side, name in translations(db, "GK2", "103") if language == "it"]
    assert sorted(italian_names) == ["Sigillo Gruul", "Sigillo dei Gruul"]


def test_mtgjson_keeps_printings_only_scryfall_has(db: carddb.Database) -> None:
    """A set file is written whole, but a printing without an MTGJSON uuid is not its to remove."""
    db.import_path(PAGE)

    db.import_path(GK2)

    assert db.counts()["printings"] == 32


def test_an_unknown_oracle_id_joins_the_card_of_the_same_name_with_a_warning(
    db: carddb.Database, tmp_path: Path
) -> None:
    """The page's Forest gets an oracle id the sample does not know (changed here, not real)."""
    db.import_path(sample_dir() / "AFR.json.xz")
    document = page_document()
    forest = page_object(document, "Forest", "en")
    forest["oracle_id"] = "00000000-0000-4000-8000-000000000001"

    summary = db.import_path(write_json(tmp_path / "page.json", document))

    assert cards_named(db, "Forest") == 1
    assert db.card("Forest").oracle_id == FOREST_ORACLE_ID
    assert ("GK2", "106") in {(p.set_code, p.collector_number) for p in db.card("Forest").printings}
    assert any("'Forest'" in w and "joined the stored card of that name" in w for w in summary.warnings)


def test_an_undated_page_never_replaces_a_card_mtgjson_dated(db: carddb.Database, tmp_path: Path) -> None:
    """The page's Forest text is changed here (not real data) to see which text is kept."""
    db.import_path(sample_dir() / "AFR.json.xz")
    document = page_document()
    page_object(document, "Forest", "en")["oracle_text"] = "({T}: Add {G}{G}.)"

    db.import_path(write_json(tmp_path / "page.json", document))

    assert db.card("Forest").faces[0].text == "({T}: Add {G}.)"


def test_a_newer_dated_bulk_file_replaces_an_older_card(db: carddb.Database, tmp_path: Path) -> None:
    """The same changed Forest in a file named as Scryfall names its bulk files, dated after the
    sample's MTGJSON date (2022-04-25)."""
    db.import_path(sample_dir() / "AFR.json.xz")
    document = page_document()
    page_object(document, "Forest", "en")["oracle_text"] = "({T}: Add {G}{G}.)"
    bulk = write_json(tmp_path / "default-cards-20240812090458.json", document["data"])

    summary = db.import_path(bulk)

    assert db.card("Forest").faces[0].text == "({T}: Add {G}{G}.)"
    assert "dated 2024-08-12" in summary.report[0]


def test_bulk_file_names_give_their_date() -> None:
    assert bulk_file_date(Path("all-cards-20240812090458.json.gz")) == dt.date(2024, 8, 12)
    assert bulk_file_date(Path("cards-page-multilang-2019.json.xz")) is None


def test_an_mtgjson_card_without_oracle_id_joins_the_scryfall_card_of_its_name(
    db: carddb.Database, tmp_path: Path
) -> None:
    """GK2.json without ``scryfallOracleId`` (removed here): MTGJSON keys the card by its name."""
    db.import_path(PAGE)
    document = json.loads(GK2.read_text(encoding="utf-8"))
    del document["data"]["cards"][0]["identifiers"]["scryfallOracleId"]

    db.import_path(write_json(tmp_path / "GK2.json", document))

    assert cards_named(db, "Gruul Signet") == 1
    assert db.card("Gruul Signet").oracle_id == "d36e0c9f-c025-4dfe-9644-9cad2461ce38"


def test_a_localized_printing_without_a_printed_name_is_stored_without_it(
    db: carddb.Database, tmp_path: Path
) -> None:
    """The Japanese Simic Signet's printed_name is removed here (not real data)."""
    document = page_document()
    del page_object(document, "Simic Signet", "ja")["printed_name"]

    summary = db.import_path(write_json(tmp_path / "page.json", document))

    assert translations(db, "GK2", "130") == [("it", "a", "Sigillo Simic")]
    assert any("1 localized face(s) have no printed_name" in w for w in summary.warnings)


# -- multi-face cards, languages, tokens -------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "mtgjson"),
    [
        ("Delver of Secrets // Insectile Aberration", SEARCH / "MID.json.xz"),
        ("Cut // Ribbons", SEARCH / "AKH.json.xz"),
        ("Realm-Cloaked Giant // Cast Off", sample_dir() / "ELD.json.xz"),
    ],
    ids=["transform", "aftermath", "adventure"],
)
def test_a_multi_face_card_gets_the_faces_mtgjson_gives(
    db: carddb.Database, db_url: str, tmp_path: Path, name: str, mtgjson: Path
) -> None:
    """Sides, per-face mana values and colours, per-face keywords: derived from Scryfall's
    card-level fields as MTGJSON gives them."""
    db.import_path(CONSTRUCTED)
    with another_database(db_url, tmp_path) as other:
        other.import_path(mtgjson)

        assert faces_of(db, name) == faces_of(other, name)


def test_a_japanese_adventure_printing_translates_both_faces(db: carddb.Database) -> None:
    db.import_path(CONSTRUCTED)

    card = db.card("王国まといの巨人")

    assert card.language == "ja"
    assert [f.name for f in card.faces] == ["王国まといの巨人", "脱ぎ捨て"]
    assert card.faces[1].type_line == "ソーサリー ― 出来事"


def test_a_multi_face_printing_mtgjson_translated_gets_no_second_translation(db: carddb.Database) -> None:
    db.import_path(sample_dir() / "ELD.json.xz")
    before = translations(db, "ELD", "26")

    db.import_path(CONSTRUCTED)

    assert translations(db, "ELD", "26") == before
    assert cards_named(db, "Realm-Cloaked Giant // Cast Off") == 1


def test_a_multi_face_name_given_only_on_the_card_is_split_between_its_faces(
    db: carddb.Database, tmp_path: Path
) -> None:
    """The Japanese giant's face names are moved to a card-level ``printed_name`` here."""
    cards = json.loads(CONSTRUCTED.read_text(encoding="utf-8"))
    giant = next(c for c in cards if c["lang"] == "ja")
    giant["printed_name"] = " // ".join(face.pop("printed_name") for face in giant["card_faces"])

    db.import_path(write_json(tmp_path / "cards.json", cards))

    assert [f.name for f in db.card("脱ぎ捨て").faces] == ["王国まといの巨人", "脱ぎ捨て"]


@pytest.mark.parametrize(("name", "tag"), [("古鲁印记", "zh-Hans"), ("Sinete Gruul", "pt-BR")])
def test_scryfall_language_codes_become_canonical_tags(db: carddb.Database, name: str, tag: str) -> None:
    db.import_path(CONSTRUCTED)

    assert db.card(name).language == tag


def test_tokens_are_left_out_and_counted(db: carddb.Database) -> None:
    summary = db.import_path(CONSTRUCTED)

    assert cards_named(db, "Human") == 0
    assert any("not cards, left out: 1 token" in line for line in summary.report)


def test_search_documents_follow_a_scryfall_import(db: carddb.Database) -> None:
    db.import_path(CONSTRUCTED)

    assert db.search('o:"look at the top card of your library"').names == [
        "Delver of Secrets // Insectile Aberration"
    ]


# -- rulings -------------------------------------------------------------------------------------------
@pytest.fixture
def ruled_db(db: carddb.Database) -> carddb.Database:
    """Delver of Secrets (MID), Goldspan Dragon and Village Rites (KHM) with MTGJSON's rulings."""
    db.import_path(SEARCH / "MID.json.xz", SEARCH / "KHM.json.xz")
    return db


def rulings_of(db: carddb.Database, name: str) -> list[tuple[str, str, str]]:
    with db.session() as session:
        rows = session.execute(
            select(Ruling.published, Ruling.source, Ruling.text)
            .join(Card, Card.id == Ruling.card_id)
            .where(Card.name == name)
        ).all()
    return sorted((str(published), source, text) for published, source, text in rows)


def test_rulings_are_stored_for_their_cards_in_english_with_their_source(db: carddb.Database) -> None:
    db.import_path(CONSTRUCTED)

    summary = db.import_path(RULINGS)

    card = db.card("Delver of Secrets")
    assert [
        (r.published.isoformat() if r.published else None, r.language, r.source) for r in card.rulings
    ] == [
        ("2011-09-22", "en", "wotc"),
        ("2016-07-13", "en", "wotc"),
    ]
    assert summary.rulings == 8


def test_the_rulings_file_over_mtgjsons_rulings_keeps_each_once(ruled_db: carddb.Database) -> None:
    before = ruled_db.counts()

    ruled_db.import_path(RULINGS)

    assert ruled_db.counts() == before
    assert len(rulings_of(ruled_db, "Goldspan Dragon")) == 3


def test_rulings_for_cards_not_stored_are_counted_with_a_warning(ruled_db: carddb.Database) -> None:
    """Teferi, Time Raveler (WAR) is in the rulings file and not in the database."""
    summary = ruled_db.import_path(RULINGS)

    assert any("2 ruling(s) are for oracle ids the database does not hold" in w for w in summary.warnings)
    assert cards_named(ruled_db, "Teferi, Time Raveler") == 0


def test_importing_the_rulings_twice_leaves_the_same_rows(ruled_db: carddb.Database) -> None:
    ruled_db.import_path(RULINGS)
    first = ruled_db.counts(), rulings_of(ruled_db, "Goldspan Dragon")

    ruled_db.import_path(RULINGS)

    assert (ruled_db.counts(), rulings_of(ruled_db, "Goldspan Dragon")) == first


def test_a_scryfall_ruling_keeps_its_source_through_mtgjson_imports(
    ruled_db: carddb.Database, tmp_path: Path
) -> None:
    """One real Goldspan Dragon ruling is marked "scryfall" here (the fixture's are all "wotc"):
    it replaces MTGJSON's "wotc" copy, and a later MTGJSON import does not copy it back."""
    rulings = json.loads(RULINGS.read_text(encoding="utf-8"))
    marked = next(r for r in rulings if r["comment"].startswith("If a spell targets Goldspan Dragon"))
    marked["source"] = "scryfall"
    ruled_db.import_path(write_json(tmp_path / "rulings.json", rulings))
    expected = rulings_of(ruled_db, "Goldspan Dragon")

    ruled_db.import_path(SEARCH / "KHM.json.xz")

    assert rulings_of(ruled_db, "Goldspan Dragon") == expected
    assert [source for _date, source, text in expected if text == marked["comment"]] == ["scryfall"]
    assert len(expected) == 3


def test_a_ruling_is_searchable_once_imported(db: carddb.Database) -> None:
    db.import_path(CONSTRUCTED)
    assert db.search('ruling:"the card stays on top of your library"').total == 0

    db.import_path(RULINGS)

    assert db.search('ruling:"the card stays on top of your library"').names == [
        "Delver of Secrets // Insectile Aberration"
    ]


def test_rulings_into_an_empty_database_store_nothing_and_say_so(db: carddb.Database) -> None:
    summary = db.import_path(RULINGS)

    assert db.counts()["rulings"] == 0
    assert any("8 ruling(s) are for oracle ids" in w for w in summary.warnings)


# -- bad input ---------------------------------------------------------------------------------------
@pytest.fixture
def stored(db: carddb.Database) -> carddb.Database:
    """A database holding the page: what every failed import must leave as it was."""
    db.import_path(PAGE)
    return db


def pretty_page(tmp_path: Path, document: dict[str, Any] | None = None) -> tuple[Path, list[str]]:
    lines = json.dumps(document or page_document(), ensure_ascii=False, indent=1).splitlines()
    path = tmp_path / "page.json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, lines


def test_a_truncated_file_is_malformed_json_at_its_line(stored: carddb.Database, tmp_path: Path) -> None:
    path, lines = pretty_page(tmp_path)
    kept = lines[: len(lines) // 2]
    path.write_text("\n".join(kept), encoding="utf-8")
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert "truncated JSON" in str(caught.value)
    assert f"line {len(kept)}," in str(caught.value)
    assert state(stored) == before


def test_a_syntax_error_names_its_line_and_column(stored: carddb.Database, tmp_path: Path) -> None:
    path, lines = pretty_page(tmp_path)
    broken = next(i for i, line in enumerate(lines) if '"printed_name": "Sigillo Simic"' in line)
    lines[broken] = lines[broken].replace('"printed_name":', '"printed_name"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert f"line {broken + 1}, column" in str(caught.value)
    assert state(stored) == before


def test_a_card_without_oracle_id_names_the_file_and_object(stored: carddb.Database, tmp_path: Path) -> None:
    document = page_document()
    position = next(i for i, c in enumerate(document["data"]) if c["name"] == "Simic Signet")
    del document["data"][position]["oracle_id"]
    path, _lines = pretty_page(tmp_path, document)
    before = state(stored)

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert caught.value.position == f"data[{position}]"
    assert "'Simic Signet'" in str(caught.value) and "no oracle_id" in str(caught.value)
    assert state(stored) == before


def test_a_ruling_among_cards_is_refused(stored: carddb.Database, tmp_path: Path) -> None:
    document = page_document()
    document["data"].insert(3, json.loads(RULINGS.read_text(encoding="utf-8"))[0])
    path = write_json(tmp_path / "page.json", document)
    before = state(stored)

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.position == "data[3]"
    assert "a ruling object in a file of cards" in str(caught.value)
    assert state(stored) == before


def test_a_card_among_rulings_is_refused(stored: carddb.Database, tmp_path: Path) -> None:
    rulings = json.loads(RULINGS.read_text(encoding="utf-8"))
    rulings.append(page_document()["data"][0])
    path = write_json(tmp_path / "rulings.json", rulings)
    before = state(stored)

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.position == f"[{len(rulings) - 1}]"
    assert "a card object in a file of rulings" in str(caught.value)
    assert state(stored) == before


def test_an_object_that_is_neither_card_nor_ruling_is_refused(
    stored: carddb.Database, tmp_path: Path
) -> None:
    document = page_document()
    document["data"][0] = {"object": "set", "code": "gk2", "name": "RNA Guild Kit"}
    path = write_json(tmp_path / "page.json", document)

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.position == "data[0]"
    assert '"object": "set"' in str(caught.value)


def test_an_array_of_something_else_is_refused(stored: carddb.Database, tmp_path: Path) -> None:
    path = write_json(tmp_path / "numbers.json", [1, 2, 3])

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.position == "[0]"


def test_an_unknown_language_code_is_refused(stored: carddb.Database, tmp_path: Path) -> None:
    document = page_document()
    position = next(i for i, c in enumerate(document["data"]) if c["lang"] == "it")
    document["data"][position]["lang"] = "xx"
    path = write_json(tmp_path / "page.json", document)
    before = state(stored)

    with pytest.raises(NotScryfallError) as caught:
        stored.import_path(path)

    assert caught.value.position == f"data[{position}]"
    assert 'unknown language code "xx"' in str(caught.value)
    assert "zhs" in str(caught.value)
    assert state(stored) == before


def test_a_failure_late_in_a_file_keeps_nothing_of_it(db: carddb.Database, tmp_path: Path) -> None:
    """The last object is bad: the printings before it, in earlier batches, are rolled back too."""
    document = page_document()
    del document["data"][-1]["oracle_id"]
    path = write_json(tmp_path / "page.json", document)

    with pytest.raises(NotScryfallError):
        db.import_path(path)

    assert db.counts() == {"cards": 0, "printings": 0, "localizations": 0, "rulings": 0}


# -- pieces ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cost", "value"),
    [("{X}{B}{B}", 2.0), ("{2/W}{2/W}", 4.0), ("{W/P}{G}", 2.0), ("{HW}", 0.5), ("", 0.0), ("{10}{C}", 11.0)],
)
def test_a_cost_gives_its_mana_value(cost: str, value: float) -> None:
    assert cost_value(cost) == value


def test_a_translation_only_scryfall_has_survives_a_later_mtgjson_import(
    db: carddb.Database, tmp_path: Path
) -> None:
    """The MTGJSON record's Japanese entry is left out here (not real data): Scryfall alone has it."""
    db.import_path(PAGE)
    document = json.loads(GK2.read_text(encoding="utf-8"))
    cards = document["data"]["cards"]
    cards[0]["foreignData"] = [f for f in cards[0]["foreignData"] if f["language"] != "Japanese"]
    db.import_path(write_json(tmp_path / "GK2.json", document))

    languages = [language for language, _side, _name in translations(db, "GK2", "103")]
    assert languages == ["de", "en", "es", "fr", "it", "ja"]
