"""carddb.text: what name matching folds and what it keeps, on real card names."""

# The card names below are full of characters that look like ASCII ones; that is the point.

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from carddb.text import normalize, strip_reading_hints


def test_ascii_name_is_lowercased() -> None:
    assert normalize("Underdark Rift") == "underdark rift"


def test_whitespace_runs_collapse_and_ends_are_stripped() -> None:
    assert normalize("  Underdark \t\n Rift  ") == "underdark rift"


def test_full_width_latin_and_ideographic_space_become_ascii() -> None:
    assert normalize("Ｕｎｄｅｒｄａｒｋ　Ｒｉｆｔ") == "underdark rift"


def test_full_width_digits_become_ascii() -> None:
    assert normalize("消失３") == "消失3"


def test_typographic_apostrophe_equals_ascii_apostrophe() -> None:
    assert normalize("Diviner’s Portent") == normalize("Diviner's Portent")


def test_other_apostrophe_lookalikes_become_ascii_apostrophe() -> None:
    for apostrophe in ("‘", "ʼ", "`", "´", "＇"):
        assert normalize(f"Garruk{apostrophe}s Uprising") == "garruk's uprising"


def test_typographic_double_quotes_become_ascii() -> None:
    assert normalize("“results table” „x“ «y»") == '"results table" "x" "y"'


def test_dashes_become_hyphen_minus() -> None:
    assert normalize("1—14 | Draw X cards.") == "1-14 | draw x cards."
    for dash in ("‐", "‑", "‒", "–", "—", "―"):
        assert normalize(f"Sage of Lat{dash}Nam") == "sage of lat-nam"


def test_latin_accents_fold() -> None:
    assert normalize("Lim-Dûl the Necromancer") == "lim-dul the necromancer"


def test_accented_name_matches_what_a_user_types() -> None:
    assert normalize("Jötun Grunt") == normalize("Jotun Grunt")
    assert normalize("Séance") == "seance"


def test_latin_accents_fold_inside_localized_names() -> None:
    assert normalize("Fenda do Subterrâneo") == "fenda do subterraneo"
    assert normalize("Faille de l’Outreterre") == "faille de l'outreterre"


def test_decomposed_accents_fold_like_precomposed_ones() -> None:
    assert normalize("Lim-Du\u0302l") == normalize("Lim-Dûl")


def test_latin_letters_without_decomposition_use_the_table() -> None:
    assert normalize("Æther Vial") == "aether vial"
    assert normalize("Œ Ø ß đ ł ı Þ") == "oe o ss d l i th"


def test_japanese_voicing_marks_are_kept() -> None:
    assert normalize("ガ") != normalize("カ")
    assert normalize("ガラクの蜂起") == "ガラクの蜂起"


def test_japanese_semi_voiced_marks_are_kept() -> None:
    assert normalize("パ") != normalize("ハ")
    assert normalize("プロパガンダ") == "プロパガンダ"


def test_half_width_katakana_becomes_full_width_with_its_voicing() -> None:
    assert normalize("ｶﾞ") == "ガ"
    assert normalize("ﾌﾟﾛﾊﾟｶﾞﾝﾀﾞ") == "プロパガンダ"


def test_cyrillic_short_i_is_not_folded() -> None:
    assert normalize("й") != normalize("и")
    assert normalize("Сефрис Тайного Пути") == "сефрис тайного пути"


def test_cyrillic_yo_reads_as_ye() -> None:
    # Russian cards print "полет" (flying) where the dictionary writes "полёт": a reader types either.
    assert normalize("полёт") == normalize("полет") == "полет"
    assert normalize("Кёлль, Хозяин Кузни") == "келль, хозяин кузни"


def test_minus_sign_reads_as_hyphen() -> None:
    # Loyalty costs print U+2212 MINUS SIGN; people type "-".
    assert normalize("\u22123: Destroy") == "-3: destroy"


def test_cyrillic_is_only_casefolded() -> None:
    assert normalize("Разлом Подземья") == "разлом подземья"


def test_german_name_casefolds() -> None:
    assert normalize("Unterreich-Spalte") == "unterreich-spalte"


def test_japanese_name_without_hints_is_unchanged() -> None:
    assert normalize("アンダーダークの裂け目") == "アンダーダークの裂け目"


def test_reading_hints_are_removed() -> None:
    assert normalize("脱（ぬ）ぎ捨（す）て") == "脱ぎ捨て"
    assert normalize("肥（ひ）沃（よく）な") == "肥沃な"


def test_name_with_hints_matches_name_without() -> None:
    assert normalize("Realm-Cloaked Giant // 脱（ぬ）ぎ捨（す）て") == normalize(
        "Realm-Cloaked Giant // 脱ぎ捨て"
    )


def test_reading_hints_in_half_width_parentheses_are_removed() -> None:
    assert strip_reading_hints("脱(ぬ)ぎ捨(す)て") == "脱ぎ捨て"


def test_reading_hint_cut_off_at_the_end_is_removed() -> None:
    assert strip_reading_hints("リリアナの軍旗手（しゅ") == "リリアナの軍旗手"


def test_katakana_in_parentheses_after_kanji_is_kept() -> None:
    # Affinity's reminder, not a reading hint.
    assert strip_reading_hints("親和（アーティファクト）") == "親和（アーティファクト）"


def test_parenthesised_alternate_name_is_kept() -> None:
    assert strip_reading_hints("哀歌コウモリ (暗黒破壊獣、バトラ)") == "哀歌コウモリ (暗黒破壊獣、バトラ)"


def test_strip_reading_hints_keeps_full_width_parentheses_and_case() -> None:
    assert (
        strip_reading_hints("Realm-Cloaked Giant // 脱（ぬ）ぎ捨（す）て")
        == "Realm-Cloaked Giant // 脱ぎ捨て"
    )


def test_empty_text_stays_empty() -> None:
    assert normalize("") == ""
    assert normalize(" \u3000 ") == ""


@given(st.text(alphabet=st.characters(exclude_categories=())))
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_normalize_has_no_surrounding_or_repeated_whitespace(text: str) -> None:
    result = normalize(text)
    assert result == result.strip()
    assert "  " not in result
