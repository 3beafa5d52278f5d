"""Looking a card up by its name in any language, and showing it in another."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import carddb
from carddb.errors import CardNotFoundError, UnknownLanguageError

FIXTURES = Path(__file__).parent / "fixtures"


def test_german_name_shown_in_japanese(sample_db: carddb.Database) -> None:
    card = sample_db.card("Unterreich-Spalte", lang="ja")
    assert card.english_name == "Underdark Rift"
    assert card.name == "アンダーダークの裂け目"
    assert card.faces[0].type_line == "土地"
    assert card.faces[0].text is not None and card.faces[0].text.startswith("{T}：{C}を加える。")
    assert card.language == "ja"
    assert not card.fallback


def test_without_lang_the_card_is_shown_in_the_language_of_the_name(sample_db: carddb.Database) -> None:
    card = sample_db.card("Sima de la Infraoscuridad")
    assert card.language == "es"
    assert card.faces[0].text is not None and "Tira 1d10" in card.faces[0].text


def test_languages_are_given_the_way_people_type_them(sample_db: carddb.Database) -> None:
    for spelling in ("de", "de_AT", "German", "Deutsch"):
        assert sample_db.card("Underdark Rift", lang=spelling).name == "Unterreich-Spalte"
    assert sample_db.card("Underdark Rift", lang="zh-TW").name == "幽暗地域裂縫"
    assert sample_db.card("Underdark Rift", lang="pt").name == "Fenda do Subterrâneo"


def test_matching_ignores_case_and_typographic_quotes(sample_db: carddb.Database) -> None:
    assert sample_db.card("DIVINER’S PORTENT").english_name == "Diviner's Portent"


def test_matching_ignores_full_width_forms(sample_db: carddb.Database) -> None:
    assert sample_db.card("Ｕｎｄｅｒｄａｒｋ　Ｒｉｆｔ").english_name == "Underdark Rift"


def test_matching_ignores_latin_accents(db: carddb.Database) -> None:
    db.import_path(FIXTURES / "limdul.json")
    assert db.card("Lim-Dul the Necromancer").english_name == "Lim-Dûl the Necromancer"
    assert db.card("lim-dûl THE necromancer").name == "Lim-Dûl the Necromancer"


def test_accents_matter_nowhere_else_in_latin_names(sample_db: carddb.Database) -> None:
    assert sample_db.card("Fenda do Subterraneo").english_name == "Underdark Rift"
    assert sample_db.card("Presage du devin").english_name == "Diviner's Portent"


def test_japanese_reading_hints_are_ignored(sample_db: carddb.Database) -> None:
    """AFC prints Cast Off's Japanese name with readings: 脱（ぬ）ぎ捨（す）て."""
    assert sample_db.card("脱ぎ捨て").english_name == "Realm-Cloaked Giant // Cast Off"
    assert sample_db.card("脱（ぬ）ぎ捨（す）て").english_name == "Realm-Cloaked Giant // Cast Off"


def test_japanese_voicing_marks_are_not_folded(sample_db: carddb.Database) -> None:
    """カラスの群れ (Murder of Crows) is not ガラス (glass)."""
    assert sample_db.card("カラスの群れ").english_name == "Murder of Crows"
    with pytest.raises(CardNotFoundError):
        sample_db.card("ガラスの群れ")


def test_cyrillic_short_i_is_not_folded(sample_db: carddb.Database) -> None:
    """Буйный Рост (Rampant Growth) is not found as Буиный Рост."""
    assert sample_db.card("Буйный Рост").english_name == "Rampant Growth"
    with pytest.raises(CardNotFoundError):
        sample_db.card("Буиный Рост")


def test_a_name_shared_by_several_languages_finds_its_card(sample_db: carddb.Database) -> None:
    """Xorn is Xorn in English, German, Spanish, French, Italian and Portuguese."""
    card = sample_db.card("Xorn")
    assert card.english_name == "Xorn"
    assert card.language == "en"
    assert sample_db.card("Xorn", lang="ja").name != "Xorn"


def test_a_translation_that_changed_between_printings_finds_its_card(sample_db: carddb.Database) -> None:
    """Return to Nature's French name in ELD is "Regain de la la nature", in AFC "Regain de la nature"."""
    for name in ("Regain de la nature", "Regain de la la nature"):
        card = sample_db.card(name, lang="fr")
        assert card.english_name == "Return to Nature"
        assert card.name == name  # the variant typed is the one shown


def test_face_names_find_multi_face_cards(sample_db: carddb.Database) -> None:
    """Each face shows its newest real translation: AFC left the giant's Japanese name in English,
    so that face comes from ELD; the adventure's comes from AFC, reading hints included."""
    card = sample_db.card("Cast Off", lang="ja")
    assert card.english_name == "Realm-Cloaked Giant // Cast Off"
    assert [face.name for face in card.faces] == ["王国まといの巨人", "脱（ぬ）ぎ捨（す）て"]


def test_missing_translations_fall_back_to_english_and_say_so(db: carddb.Database) -> None:
    db.import_path(FIXTURES / "limdul.json")
    card = db.card("Lim-Dûl the Necromancer", lang="ko")
    assert card.fallback
    assert card.name == "Lim-Dûl the Necromancer"
    assert card.faces[0].language == "en"


def test_rulings_come_with_dates_in_the_locale_of_the_language(sample_db: carddb.Database) -> None:
    card = sample_db.card("Diviner's Portent", lang="de")
    assert len(card.rulings) == 10
    assert card.rulings_language == "en"
    assert card.rulings[0].published == dt.date(2021, 7, 23)
    assert card.rulings[0].date_in("de") == "23. Juli 2021"
    assert card.rulings[0].date_in("ja") == "2021年7月23日"
    assert card.to_dict()["rulings"][0]["date_text"] == "23. Juli 2021"


def test_the_sets_a_card_was_printed_in_are_listed_with_languages(sample_db: carddb.Database) -> None:
    card = sample_db.card("Diviner's Portent")
    assert [(p.set_code, p.collector_number) for p in card.printings] == [("AFC", "15"), ("AFC", "284")]
    assert "ja" in card.printings[0].languages
    assert card.printings[1].languages == ("en", "de", "es", "fr", "it", "ja")


def test_an_unknown_name_suggests_the_closest_names_in_any_language(sample_db: carddb.Database) -> None:
    with pytest.raises(CardNotFoundError) as caught:
        sample_db.card("Unterreich Spalt")
    assert caught.value.suggestions[0] == "Unterreich-Spalte"
    with pytest.raises(CardNotFoundError) as caught:
        sample_db.card("Divner's Portnt")
    assert "Diviner's Portent" in caught.value.suggestions


def test_an_unknown_language_lists_the_choices(sample_db: carddb.Database) -> None:
    with pytest.raises(UnknownLanguageError) as caught:
        sample_db.card("Underdark Rift", lang="Elvish")
    assert "de" in caught.value.choices and "zh-Hant" in caught.value.choices


def test_lookups_from_several_threads_share_one_database(sample_db: carddb.Database) -> None:
    names = ["Unterreich-Spalte", "Omen des Sehers", "カラスの群れ", "Буйный Рост", "Xorn"] * 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(lambda name: sample_db.card(name).english_name, names))
    assert found[:5] == ["Underdark Rift", "Diviner's Portent", "Murder of Crows", "Rampant Growth", "Xorn"]
    assert found == found[:5] * 8


def test_languages_present_are_listed_with_native_names_and_counts(sample_db: carddb.Database) -> None:
    by_tag = {entry.tag: entry for entry in sample_db.languages()}
    assert by_tag["de"].native_name == "Deutsch"
    assert by_tag["ja"].native_name == "日本語"
    assert by_tag["en"].rulings == 99
    assert by_tag["ko"].localizations > 0
    assert list(by_tag)[:3] == ["en", "de", "es"]
