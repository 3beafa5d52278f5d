"""Scryfall-shaped objects (carddb.scryfall_json) made from the sample's real printings, read by
carddb.serve.facts: the fields and shapes documented at https://scryfall.com/docs/api."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from sqlalchemy import select

import carddb
from carddb.db.models import Card
from carddb.scryfall_json import (
    CardFacts,
    ErrorFacts,
    FaceFacts,
    PrintingFacts,
    RulingFacts,
    SetFacts,
    card_object,
    catalog_object,
    derived_id,
    error_object,
    language_of_code,
    list_object,
    ruling_object,
    scryfall_code,
    set_object,
)
from carddb.serve import facts

UNDERDARK_RIFT_SCRYFALL_ID = "da7b5c5b-fba1-4993-9779-bef96bcb0064"
UNDERDARK_RIFT_ORACLE_ID = "199c7604-6b4b-4cec-b6c2-b6b2918b11c8"


def _card(db: carddb.Database, set_code: str, number: str, language: str) -> dict[str, object]:
    with db.session() as session:
        printing_id = facts.printing_by_number(session, set_code, number)
        assert printing_id is not None
        (found,) = facts.card_facts(session, [facts.PrintingKey(printing_id, language)])
    obj = card_object(found, base="http://127.0.0.1:8000")
    json.dumps(obj)  # JSON-ready
    return obj


def test_an_english_printing_is_its_scryfall_card_object(sample_db: carddb.Database) -> None:
    rift = _card(sample_db, "afc", "62", "en")
    assert rift["object"] == "card"
    assert rift["id"] == UNDERDARK_RIFT_SCRYFALL_ID
    assert rift["oracle_id"] == UNDERDARK_RIFT_ORACLE_ID
    assert rift["name"] == "Underdark Rift"
    assert rift["lang"] == "en"
    assert (rift["set"], rift["set_name"], rift["collector_number"]) == (
        "afc",
        "Forgotten Realms Commander",
        "62",
    )
    assert (rift["rarity"], rift["released_at"], rift["layout"]) == ("uncommon", "2021-07-23", "normal")
    assert (rift["mana_cost"], rift["cmc"], rift["type_line"]) == ("", 0.0, "Land")
    assert str(rift["oracle_text"]).startswith("{T}: Add {C}.\n{5}, {T}, Exile Underdark Rift: Roll a d10.")
    assert (rift["colors"], rift["color_identity"], rift["keywords"]) == ([], [], [])
    assert rift["multiverse_ids"] == [531963]
    assert not any(key.startswith("printed_") for key in rift)


def test_a_printing_in_another_language_carries_its_printed_text(sample_db: carddb.Database) -> None:
    rift = _card(sample_db, "afc", "62", "de")
    assert rift["lang"] == "de"
    assert rift["name"] == "Underdark Rift"  # the English oracle name, as on Scryfall
    assert rift["printed_name"] == "Unterreich-Spalte"
    assert rift["printed_type_line"] == "Land"
    assert str(rift["printed_text"]).startswith("{T}: Erzeuge {C}.")
    assert rift["type_line"] == "Land"
    assert rift["multiverse_ids"] == [532017]


def test_a_localized_printing_has_a_stable_id_of_its_own(sample_db: carddb.Database) -> None:
    rift = _card(sample_db, "afc", "62", "de")
    assert rift["id"] == derived_id("AFC", "62", "de") != UNDERDARK_RIFT_SCRYFALL_ID
    with sample_db.session() as session:
        assert facts.derived_ids(session)[str(rift["id"])].language == "de"


def test_the_scryfall_language_code_is_given(sample_db: carddb.Database) -> None:
    assert _card(sample_db, "afr", "66", "zh-Hans")["lang"] == "zhs"
    assert (scryfall_code("pt-BR"), language_of_code("pt"), language_of_code("zht")) == (
        "pt",
        "pt-BR",
        "zh-Hant",
    )


def test_an_adventure_card_has_card_faces_and_shared_colours(sample_db: carddb.Database) -> None:
    giant = _card(sample_db, "eld", "26", "ja")
    assert giant["name"] == "Realm-Cloaked Giant // Cast Off"
    assert giant["mana_cost"] == "{5}{W}{W} // {3}{W}{W}"
    assert giant["type_line"] == "Creature — Giant // Sorcery — Adventure"
    assert giant["colors"] == ["W"]
    assert giant["printed_name"] == "王国まといの巨人 // 脱ぎ捨て"
    front, back = giant["card_faces"]  # type: ignore[misc]
    assert front["object"] == back["object"] == "card_face"
    assert (front["name"], front["power"], front["toughness"]) == ("Realm-Cloaked Giant", "7", "7")
    assert back["printed_type_line"] == "ソーサリー ― 出来事"
    assert "colors" not in front
    assert "oracle_text" not in giant


def test_colours_come_in_wubrg_order(sample_db: carddb.Database) -> None:
    farideh = _card(sample_db, "afr", "221", "en")
    assert farideh["colors"] == farideh["color_identity"] == ["U", "R"]


def test_a_two_sided_card_gives_each_face_its_colours() -> None:
    delver = CardFacts(
        oracle_id="2dc7ffcf-1d2e-45c0-b67a-1d5b2b3a9a0e",
        name="Delver of Secrets // Insectile Aberration",
        layout="transform",
        cmc=1.0,
        color_identity="U",
        keywords=("Transform", "Flying"),
        faces=(
            FaceFacts(
                "Delver of Secrets",
                "{U}",
                "Creature — Human Wizard",
                "At the beginning of your upkeep, look at the top card of your library. You may reveal "
                "that card. If an instant or sorcery card is revealed this way, transform Delver of Secrets.",
                "U",
                power="1",
                toughness="1",
            ),
            FaceFacts("Insectile Aberration", None, "Creature — Human Insect", "Flying", "U", "3", "2"),
        ),
        printing=PrintingFacts("ISD", "Innistrad", "51", "common", dt.date(2011, 9, 30)),
    )
    obj = card_object(delver)
    assert "mana_cost" not in obj and "colors" not in obj
    assert [face["colors"] for face in obj["card_faces"]] == [["U"], ["U"]]
    assert [face["mana_cost"] for face in obj["card_faces"]] == ["{U}", ""]
    assert "uri" not in obj  # no base URL: no URI invented


def test_printing_facts_not_stored_yet_are_left_out_until_given() -> None:
    printing = PrintingFacts("AFC", "Forgotten Realms Commander", "62", "uncommon", dt.date(2021, 7, 23))
    rift = CardFacts(
        UNDERDARK_RIFT_ORACLE_ID, "Underdark Rift", "normal", 0.0, "", (),
        (FaceFacts("Underdark Rift", None, "Land", "{T}: Add {C}.", ""),), printing,
    )  # fmt: skip
    assert "legalities" not in card_object(rift) and "artist" not in card_object(rift)
    legal = PrintingFacts(
        "AFC", "Forgotten Realms Commander", "62", "uncommon", dt.date(2021, 7, 23),
        legalities={"commander": "legal", "standard": "not_legal"}, artist="Chris Ostrowski",
    )  # fmt: skip
    obj = card_object(dataclasses.replace(rift, printing=legal))
    assert obj["legalities"] == {"commander": "legal", "standard": "not_legal"}
    assert obj["artist"] == "Chris Ostrowski"


def test_a_list_has_more_only_with_a_next_page() -> None:
    last = list_object([{"object": "card"}], total_cards=176)
    assert last == {"object": "list", "total_cards": 176, "has_more": False, "data": [{"object": "card"}]}
    first = list_object([], total_cards=176, next_page="http://127.0.0.1:8000/cards/search?q=c%3Ar&page=2")
    assert first["has_more"] is True
    assert first["next_page"] == "http://127.0.0.1:8000/cards/search?q=c%3Ar&page=2"


def test_rulings_are_ruling_objects(sample_db: carddb.Database) -> None:
    with sample_db.session() as session:
        card_id = session.scalar(select(Card.id).where(Card.name == "Underdark Rift"))
        assert card_id is not None
        found = facts.rulings(session, card_id)
    assert len(found) == 11
    first = ruling_object(found[0])
    assert first["object"] == "ruling"
    assert (first["oracle_id"], first["source"], first["published_at"]) == (
        UNDERDARK_RIFT_ORACLE_ID,
        "wotc",
        "2021-07-23",
    )
    assert str(first["comment"]).endswith("put the permanent on the bottom of its owner's library.")
    undated = ruling_object(RulingFacts(UNDERDARK_RIFT_ORACLE_ID, "scryfall", None, "x"))
    assert undated["published_at"] is None


def test_sets_are_set_objects(sample_db: carddb.Database) -> None:
    with sample_db.session() as session:
        (afc,) = facts.set_facts(session, "afc")
        codes = [s.code for s in facts.set_facts(session)]
    assert codes == ["AFC", "AFR", "ELD"]
    obj = set_object(afc, base="http://127.0.0.1:8000")
    assert obj["object"] == "set"
    assert (obj["code"], obj["name"], obj["released_at"], obj["set_type"], obj["card_count"]) == (
        "afc",
        "Forgotten Realms Commander",
        "2021-07-23",
        "commander",
        12,
    )
    assert obj["uri"] == "http://127.0.0.1:8000/sets/afc"
    assert set_object(SetFacts("X", "X", None, None, 0))["released_at"] is None


def test_catalog_and_error_objects() -> None:
    assert catalog_object(["Underdark Rift"]) == {
        "object": "catalog",
        "total_values": 1,
        "data": ["Underdark Rift"],
    }
    error = error_object(
        ErrorFacts(404, "not_found", "No card found with the given ID or set code and collector number.")
    )
    assert error == {
        "object": "error",
        "code": "not_found",
        "status": 404,
        "details": "No card found with the given ID or set code and collector number.",
    }
    ambiguous = error_object(ErrorFacts(404, "not_found", "Too many cards match.", type="ambiguous"))
    assert ambiguous["type"] == "ambiguous"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_sample_printing_makes_a_json_card_object(sample_db: carddb.Database, language: str) -> None:
    with sample_db.session() as session:
        card_ids = list(session.scalars(select(Card.id)))
        chosen = facts.chosen_printings(session, card_ids, language)
        objects = [card_object(f) for f in facts.card_facts(session, list(chosen.values()))]
    assert len(objects) == 23
    assert all(json.loads(json.dumps(obj)) == obj for obj in objects)
