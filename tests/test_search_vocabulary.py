"""Localized type words learned from real translated type lines, and the colour word table.

The type lines come from the search fixture: four real MTGJSON sets (``tests/fixtures/search``),
every translated face of a few dozen cards, in ten languages.
"""

from __future__ import annotations

import functools
import json
import lzma
import re
from pathlib import Path
from typing import Any

import pytest

from carddb.languages import from_source_name
from carddb.resources import data_dir
from carddb.search import vocabulary
from carddb.search.vocabulary import (
    COLOR_LETTERS,
    color_letter,
    color_words,
    derive_type_words,
    load_color_words,
)
from carddb.text import normalize

FIXTURES = Path(__file__).parent / "fixtures" / "search"
COLOR_NAMES = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
UNSPACED = {"ja", "ko", "zh-Hans", "zh-Hant"}  # colour words there carry particles or run into nouns


@functools.cache
def _cards() -> tuple[dict[str, Any], ...]:
    cards: list[dict[str, Any]] = []
    for path in sorted(FIXTURES.glob("*.json.xz")):
        with lzma.open(path) as file:
            cards.extend(json.load(file)["data"]["cards"])
    return tuple(cards)


def _tag(mtgjson_language: str) -> str:
    return from_source_name(mtgjson_language)[0].tag


@functools.cache
def _rows() -> tuple[tuple[str, str, str], ...]:
    """(language tag, localized type line, English type line) for every translated face."""
    return tuple(
        (_tag(foreign["language"]), foreign["type"], card["type"])
        for card in _cards()
        for foreign in card.get("foreignData", ())
        if foreign.get("type")
    )


@functools.cache
def _words() -> dict[tuple[str, str], tuple[str, ...]]:
    return derive_type_words(_rows())


def _translate(language: str, typed: str) -> tuple[str, ...] | None:
    """What a reader's word means, folded as the search folds it."""
    return _words().get((language, normalize(typed)))


# -- type words ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "typed"),
    [
        ("de", "Kreatur"),
        ("fr", "Créature"),
        ("es", "Criatura"),
        ("it", "Creatura"),
        ("pt-BR", "Criatura"),
        ("ru", "Существо"),
        ("ko", "생물"),
        ("ja", "クリーチャー"),
        ("zh-Hans", "生物"),
        ("zh-Hant", "生物"),
    ],
)
def test_the_word_for_creature_is_learned_in_every_language(language: str, typed: str) -> None:
    assert _translate(language, typed) == ("creature",)


@pytest.mark.parametrize(
    ("language", "typed", "english"),
    [
        ("de", "Spontanzauber", "instant"),
        ("de", "Hexerei", "sorcery"),
        ("fr", "Éphémère", "instant"),
        ("fr", "Rituel", "sorcery"),
        ("ko", "순간마법", "instant"),
        ("zh-Hant", "巫術", "sorcery"),
        ("ja", "ソーサリー", "sorcery"),
    ],
)
def test_spell_types_are_learned(language: str, typed: str, english: str) -> None:
    assert _translate(language, typed) == (english,)


def test_every_inflection_of_legendary_keeps_its_word() -> None:
    # "Legendärer" stands beside "Planeswalker" in every line it is in, and "Legendäres" is in one
    # line: Dice alone would give them "planeswalker" and "artifact".
    assert {typed: _translate("de", typed) for typed in ("Legendäre", "Legendärer", "Legendäres")} == {
        "Legendäre": ("legendary",),
        "Legendärer": ("legendary",),
        "Legendäres": ("legendary",),
    }


def test_a_japanese_prefix_is_cut_from_its_type() -> None:
    # The fixture prints 伝説のクリーチャー and 伝説のアーティファクト, never 伝説の alone.
    assert _translate("ja", "伝説の") == ("legendary",)
    assert _translate("ja", "伝説") == ("legendary",)
    assert _translate("ja", "アーティファクト") == ("artifact",)
    assert _translate("ja", "伝説のアーティファクト") is None


def test_a_chinese_prefix_is_cut_from_its_type() -> None:
    assert _translate("zh-Hans", "传奇") == ("legendary",)
    assert _translate("zh-Hans", "神器") == ("artifact",)
    assert _translate("zh-Hans", "传奇生物") is None


@pytest.mark.parametrize(
    ("language", "typed", "english"),
    [
        ("de", "Mensch", "human"),
        ("de", "Schlammwesen", "ooze"),
        ("fr", "humain", "human"),
        ("ja", "人間", "human"),
        ("zh-Hans", "人类", "human"),
        ("ko", "주술사", "shaman"),
        ("ru", "Человек", "human"),
    ],
)
def test_subtypes_are_learned(language: str, typed: str, english: str) -> None:
    assert _translate(language, typed) == (english,)


def test_a_function_word_between_subtypes_is_not_a_type() -> None:
    # French joins subtypes with "et": "Créature : humain et shamane".
    assert any(" et " in local for language, local, _ in _rows() if language == "fr")
    assert _translate("fr", "et") is None


def test_a_compound_keeps_every_english_word() -> None:
    # German writes "Artefaktkreatur" as one word; French joins with a hyphen. Real AFR/NEO lines.
    rows = [
        *_rows(),
        ("de", "Artefaktkreatur — Golem", "Artifact Creature — Golem"),
        ("de", "Artefaktkreatur — Mensch, Krieger", "Artifact Creature — Human Warrior"),
        ("fr", "Créature-artefact : golem et guerrier", "Artifact Creature — Golem Warrior"),
    ]
    words = derive_type_words(rows)
    assert words["de", "artefaktkreatur"] == ("artifact", "creature")
    assert words["fr", "creature-artefact"] == ("artifact", "creature")


def test_two_new_words_seen_once_side_by_side_are_left_out() -> None:
    # A real NEO line: neither 恐竜 nor ビースト is in the fixture's Japanese lines, and one line
    # cannot tell which is "Dinosaur" and which is "Beast".
    rows = [*_rows(), ("ja", "クリーチャー — 恐竜・ビースト", "Creature — Dinosaur Beast")]
    words = derive_type_words(rows)
    assert ("ja", "恐竜") not in words
    assert ("ja", "ビースト") not in words
    assert words["ja", "クリーチャー"] == ("creature",)


def test_a_reprint_is_not_more_evidence() -> None:
    assert derive_type_words(_rows() * 3) == _words()


def test_a_line_that_is_not_a_translation_is_left_out() -> None:
    # Real MTGJSON data: the Phyrexian "translation" of a type line is a cipher without a separator.
    rows = [*_rows(), ("ph", "|MewkfuDs fyrs,psewtr.", "Legendary Creature — Phyrexian Praetor")]
    words = derive_type_words(rows)
    assert not [key for key in words if key[0] == "ph"]


def test_words_are_folded_and_english_is_lowercase() -> None:
    assert all(word == normalize(word) for _, word in _words())
    assert all(english == english.lower() for translated in _words().values() for english in translated)


def test_the_work_is_per_distinct_side_not_per_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # Speed without a clock: 250,000 rows cost what their distinct lines cost, because each
    # distinct side is read (normalized) once, however many rows repeat it.
    calls = 0

    def counting(text: str) -> str:
        nonlocal calls
        calls += 1
        return normalize(text)

    monkeypatch.setattr(vocabulary, "normalize", counting)
    rows = _rows() * (250_000 // len(_rows()) + 1)
    derive_type_words(rows)
    sides = {side for _, local, english in set(_rows()) for side in (*_sides(local), *_sides(english))}
    assert len(rows) >= 250_000
    assert calls <= len(sides)


def _sides(line: str) -> list[str]:
    return [side.strip() for side in re.split(r"[—～:―]", line, maxsplit=1)]


# -- colour words ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "letter"),
    [
        *(("rot", "R"), ("Rote", "R"), ("roter", "R"), ("roten", "R"), ("rotes", "R")),
        *(("weiß", "W"), ("weiss", "W"), ("Grünen", "G"), ("schwarz", "B"), ("blaue", "U")),
        *(("rouge", "R"), ("rouges", "R"), ("blanc", "W"), ("blanche", "W"), ("verte", "G"), ("noire", "B")),
        *(("rojo", "R"), ("roja", "R"), ("rosso", "R"), ("rossa", "R"), ("blu", "U")),
        *(("vermelho", "R"), ("vermelha", "R"), ("azuis", "U"), ("preta", "B")),
        *(("красный", "R"), ("красная", "R"), ("красное", "R"), ("красного", "R"), ("синий", "U")),
        *(("черный", "B"), ("чёрный", "B")),
        *(("赤", "R"), ("白", "W"), ("青", "U"), ("黒", "B"), ("緑", "G")),
        *(("红", "R"), ("紅", "R"), ("蓝", "U"), ("藍", "U"), ("黑", "B"), ("绿", "G"), ("綠", "G")),
        *(
            ("적색", "R"),
            ("백색", "W"),
            ("청색", "U"),
            ("흑색", "B"),
            ("녹색", "G"),
            ("빨간", "R"),
            ("하얀", "W"),
        ),
        *(("RED", "R"), ("white", "W")),
    ],
)
def test_a_colour_word_names_its_letter(word: str, letter: str) -> None:
    assert color_letter(word) == letter


def test_a_colour_word_is_only_known_in_its_own_language() -> None:
    assert color_letter("rot", "de") == "R"
    assert color_letter("rot", "fr") is None
    assert color_letter("rouge", "fr") == "R"


@pytest.mark.parametrize("word", ["purple", "rotkehlchen", "", "红色生物", "weise"])
def test_an_unknown_word_names_no_colour(word: str) -> None:
    assert color_letter(word) is None


def test_the_colour_words_of_a_language_are_folded() -> None:
    german = color_words("de")
    assert german["weiss"] == "W"
    assert german["grunen"] == "G"
    assert color_words("x-klingon") == {}


def test_the_shipped_table_names_all_five_colours_in_every_language() -> None:
    tables = load_color_words(data_dir() / "color_words.toml")
    assert {"de", "es", "fr", "it", "ja", "ko", "pt-BR", "ru", "zh-Hans", "zh-Hant"} <= set(tables)
    for language, words in tables.items():
        assert set(words.values()) == set(COLOR_LETTERS), language


def _colour_mentions() -> list[tuple[str, str, str]]:
    """(language, colour letter, localized rules text) for each real card text naming a colour."""
    found = []
    for card in _cards():
        for name in set(re.findall(r"\b(white|blue|black|red|green)\b", card.get("text") or "")):
            for foreign in card.get("foreignData", ()):
                found.append((_tag(foreign["language"]), COLOR_NAMES[name], foreign.get("text") or ""))
    return found


def test_the_cards_own_colour_words_are_in_the_table() -> None:
    # Oketra, Temmet, Kaya (white), Hapatra (green), Never // Return (black) in ten languages.
    mentions = _colour_mentions()
    assert {language for language, _, _ in mentions} >= {"de", "fr", "ja", "ko", "ru", "zh-Hans"}
    missing = []
    for language, letter, text in mentions:
        folded = normalize(text)
        words = [word for word, named in color_words(language).items() if named == letter]
        if language in UNSPACED:
            found = any(word in folded for word in words)
        else:
            found = bool(set(words) & set(re.findall(r"[^\W\d_]+", folded)))
        if not found:
            missing.append((language, letter, text))
    assert missing == []


@pytest.mark.parametrize(
    ("table", "complaint"),
    [
        ('[xx]\nR = ["rot"]\n', r"\[xx\]: unknown language tag 'xx'"),
        ('[de]\nP = ["lila"]\n', r"\[de\]: unknown colour letter 'P'"),
        ('[de]\nWU = ["weiss"]\n', r"\[de\]: unknown colour letter 'WU'"),
        ('[de]\nR = ["rot"]\nG = ["Rot"]\n', r"\[de\] G: 'Rot' is already listed for R"),
        ('[de]\nR = ["rot"]\n[fr]\nW = ["rot"]\n', r"\[fr\] W: 'rot' names R in \[de\]"),
        ('[de]\nR = "rot"\n', r"\[de\] R: expected a list of words"),
        ('[de]\nR = ["", "rot"]\n', r"\[de\] R: '' is not a word"),
        ("[de\n", r"not valid TOML"),
    ],
)
def test_a_bad_colour_table_is_refused_naming_file_and_entry(
    tmp_path: Path, table: str, complaint: str
) -> None:
    path = tmp_path / "colours.toml"
    path.write_text(table, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*" + complaint):
        load_color_words(path)


def test_the_same_word_in_two_languages_for_one_colour_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "colours.toml"
    path.write_text('[es]\nG = ["verde"]\n[it]\nG = ["verde"]\n', encoding="utf-8")
    assert load_color_words(path) == {"es": {"verde": "G"}, "it": {"verde": "G"}}
