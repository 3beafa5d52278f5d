"""carddb.languages: every way a source or a person names a language resolves to one Language."""

from __future__ import annotations

import contextlib
import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carddb import languages
from carddb.errors import UnknownLanguageError
from carddb.languages import KNOWN, Language, by_tag, default_language, from_source_name, negotiate, resolve

RELEASE = datetime.date(2021, 7, 23)  # Adventures in the Forgotten Realms
CANONICAL_TAGS = ("en", "de", "es", "fr", "it", "ja", "ko", "pt-BR", "ru", "zh-Hans", "zh-Hant")


def test_known_starts_with_the_printed_languages_in_order() -> None:
    assert tuple(language.tag for language in KNOWN[: len(CANONICAL_TAGS)]) == CANONICAL_TAGS


def test_known_includes_the_extra_languages_of_mtgjson_and_scryfall() -> None:
    assert {language.tag for language in KNOWN} >= {"ph", "he", "la", "grc", "ar", "sa", "qya"}


def test_phyrexian_has_codes_but_no_babel_locale() -> None:
    phyrexian = by_tag("ph")
    assert (phyrexian.scryfall_code, phyrexian.mtgjson_name, phyrexian.babel_locale) == (
        "ph",
        "Phyrexian",
        None,
    )


def test_language_str_is_its_tag() -> None:
    assert str(resolve("Chinese Simplified")) == "zh-Hans"


def test_language_is_frozen() -> None:
    with pytest.raises(AttributeError):
        resolve("de").tag = "fr"  # type: ignore[misc]


@pytest.mark.parametrize("tag", CANONICAL_TAGS)
def test_canonical_tag_resolves_to_itself(tag: str) -> None:
    assert resolve(tag).tag == tag


def test_resolve_ignores_case_and_surrounding_spaces() -> None:
    assert resolve("  ZH-hans ") is resolve("zh-Hans")


def test_underscore_tag_resolves() -> None:
    assert resolve("zh_hans").tag == "zh-Hans"


@pytest.mark.parametrize(
    ("code", "tag"),
    [("pt", "pt-BR"), ("zhs", "zh-Hans"), ("zht", "zh-Hant"), ("ja", "ja"), ("ko", "ko"), ("ph", "ph")],
)
def test_scryfall_code_resolves(code: str, tag: str) -> None:
    assert resolve(code).tag == tag


@pytest.mark.parametrize(
    ("name", "tag"),
    [("Portuguese (Brazil)", "pt-BR"), ("Chinese Traditional", "zh-Hant"), ("Phyrexian", "ph")],
)
def test_mtgjson_name_resolves(name: str, tag: str) -> None:
    assert resolve(name).tag == tag


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        ("German", "de"),
        ("Japanese", "ja"),
        ("Portuguese", "pt-BR"),
        ("Chinese", "zh-Hans"),
        ("Sanskrit", "sa"),
    ],
)
def test_english_name_resolves(name: str, tag: str) -> None:
    assert resolve(name).tag == tag


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        ("Deutsch", "de"),
        ("日本語", "ja"),
        ("Español", "es"),
        ("français", "fr"),
        ("русский", "ru"),
        ("한국어", "ko"),
        ("português (Brasil)", "pt-BR"),
    ],
)
def test_native_name_resolves(name: str, tag: str) -> None:
    assert resolve(name).tag == tag


def test_native_name_resolves_without_its_accent() -> None:
    assert resolve("Espanol") is resolve("Español")


@pytest.mark.parametrize(
    ("locale", "tag"),
    [("de_AT", "de"), ("de-CH", "de"), ("fr_CA", "fr"), ("en_US", "en"), ("ja_JP", "ja")],
)
def test_regional_locale_resolves_to_its_language(locale: str, tag: str) -> None:
    assert resolve(locale).tag == tag


@pytest.mark.parametrize("locale", ["zh-TW", "zh_HK", "zh_MO", "zh-Hant-HK"])
def test_traditional_chinese_locales_resolve_to_zh_hant(locale: str) -> None:
    assert resolve(locale).tag == "zh-Hant"


@pytest.mark.parametrize("locale", ["zh-CN", "zh_SG", "zh"])
def test_simplified_chinese_locales_resolve_to_zh_hans(locale: str) -> None:
    assert resolve(locale).tag == "zh-Hans"


def test_european_portuguese_resolves_to_the_only_portuguese() -> None:
    assert resolve("pt_PT").tag == "pt-BR"


def test_posix_locale_with_encoding_resolves() -> None:
    assert resolve("de_AT.UTF-8").tag == "de"


def test_posix_c_locale_names_no_language() -> None:
    with pytest.raises(UnknownLanguageError):
        resolve("C")


def test_same_language_resolves_to_the_same_object() -> None:
    assert resolve("pt") is resolve("Portuguese (Brazil)") is resolve("pt_PT") is by_tag("pt-BR")


def test_unknown_language_error_lists_the_canonical_tags() -> None:
    with pytest.raises(UnknownLanguageError) as error:
        resolve("Klingon")
    assert error.value.value == "Klingon"
    assert error.value.choices[: len(CANONICAL_TAGS)] == CANONICAL_TAGS


@pytest.mark.parametrize("value", ["", "   "])
def test_empty_input_does_not_resolve(value: str) -> None:
    with pytest.raises(UnknownLanguageError):
        resolve(value)


def test_synthetic_tag_resolves_to_the_language_the_data_carries() -> None:
    """`carddb languages` lists a kept unknown language by its tag; that tag can be asked for."""
    assert resolve("x-klingon") == from_source_name("Klingon")[0]


def test_native_name_of_german() -> None:
    assert resolve("de").native_name == "Deutsch"


def test_native_name_of_japanese() -> None:
    assert resolve("ja").native_name == "日本語"


def test_native_names_of_portuguese_and_chinese_name_the_variant() -> None:
    assert resolve("pt-BR").native_name == "português (Brasil)"
    assert resolve("zh-Hans").native_name == "中文 (简体)"


def test_native_name_falls_back_to_english_name_without_babel() -> None:
    assert resolve("Phyrexian").native_name == "Phyrexian"


def test_german_date() -> None:
    assert resolve("de").format_date(RELEASE) == "23. Juli 2021"


def test_spanish_date() -> None:
    assert resolve("es").format_date(RELEASE) == "23 de julio de 2021"


def test_japanese_date() -> None:
    assert resolve("ja").format_date(RELEASE) == "2021年7月23日"


def test_english_date() -> None:
    assert resolve("en").format_date(RELEASE) == "July 23, 2021"


def test_short_date_format() -> None:
    assert resolve("de").format_date(RELEASE, format="short") == "23.07.21"


def test_date_without_babel_locale_is_english() -> None:
    assert resolve("ph").format_date(RELEASE) == "July 23, 2021"


def test_source_name_known() -> None:
    assert from_source_name("Portuguese (Brazil)") == (resolve("pt-BR"), True)


def test_source_name_phyrexian_is_known() -> None:
    assert from_source_name("Phyrexian") == (by_tag("ph"), True)


def test_source_name_unknown_gives_synthetic_language() -> None:
    language, known = from_source_name("Klingon Variant")
    assert not known
    assert language == Language("x-klingon-variant", "Klingon Variant", None, None, None)


def test_source_name_unknown_is_stable() -> None:
    assert from_source_name("Klingon") == from_source_name("Klingon")


def test_source_name_slug_is_lowercase_ascii() -> None:
    assert from_source_name("Ancient Élvish (Sindarin)")[0].tag == "x-ancient-elvish-sindarin"


def test_source_name_without_latin_letters_still_gets_a_tag() -> None:
    language, known = from_source_name("克林贡语")
    assert not known
    assert language.tag.startswith("x-")
    assert language.english_name == "克林贡语"


def test_source_name_tag_fits_the_database_column() -> None:
    language, _ = from_source_name("A Language Name Far Longer Than Any Real One")
    assert len(language.tag) <= 32
    assert language.tag.startswith("x-a-language-name")


def test_by_tag_returns_known_language() -> None:
    assert by_tag("zh-Hant") is resolve("Chinese Traditional")


def test_by_tag_rebuilds_synthetic_language() -> None:
    assert by_tag("x-klingon-variant") == from_source_name("Klingon Variant")[0]


@pytest.mark.parametrize("tag", ["Klingon", "xx", "x-", "x-Bad Tag"])
def test_by_tag_rejects_unknown_tags(tag: str) -> None:
    with pytest.raises(UnknownLanguageError):
        by_tag(tag)


def test_negotiate_regional_preference_picks_its_language() -> None:
    assert negotiate(["de_AT.UTF-8"], ["en", "de"]) is resolve("de")


def test_negotiate_follows_preference_order() -> None:
    assert negotiate(["fr", "de", "en"], ["en", "de"]) is resolve("de")


def test_negotiate_accept_language_weights() -> None:
    assert negotiate(["en;q=0.5, zh-TW"], ["en", "zh-Hant"]) is resolve("zh-Hant")


def test_negotiate_script_is_not_swapped() -> None:
    assert negotiate(["zh-TW"], ["en", "zh-Hans"]) is None


def test_negotiate_nothing_matches() -> None:
    assert negotiate(["ja", "ko"], ["en", "de"]) is None


def test_default_language_is_english() -> None:
    assert default_language() is resolve("English")


def test_module_exports_the_public_api() -> None:
    assert set(languages.__all__) == {
        "KNOWN",
        "Language",
        "by_tag",
        "default_language",
        "from_source_name",
        "negotiate",
        "resolve",
    }


@given(st.text())
def test_resolve_returns_a_language_or_raises_unknown_language_error(value: str) -> None:
    with contextlib.suppress(UnknownLanguageError):
        assert isinstance(resolve(value), Language)


@given(st.text().filter(lambda value: value.strip() != ""))
def test_from_source_name_never_raises_for_non_blank_names(value: str) -> None:
    language, known = from_source_name(value)
    assert known == (language.tag in {known_language.tag for known_language in KNOWN})
    assert from_source_name(value) == (language, known)


LOCALE_LIKE = r"[a-zA-Z]{1,8}([-_][a-zA-Z0-9]{0,8}){0,3}(\.[A-Za-z0-9-]{0,8})?(@[a-z]{0,5})?"


@given(st.from_regex(LOCALE_LIKE, fullmatch=True))
def test_resolve_locale_like_strings_return_a_language_or_raise(value: str) -> None:
    with contextlib.suppress(UnknownLanguageError):
        assert isinstance(resolve(value), Language)
