"""Characteristics stored for search: numbers where the card prints numbers, type flags that agree
with the text search of type lines."""

from __future__ import annotations

from carddb.characteristics import TYPE_FLAGS, card_mana_value, stat_value, type_bit, type_bits


def test_a_numeric_power_is_a_number() -> None:
    assert stat_value("4") == 4.0
    assert stat_value("-1") == -1.0  # Spinal Parasite's power
    assert stat_value("2.5") == 2.5  # an Un-card's half point


def test_a_power_with_a_star_is_not_a_number() -> None:
    assert stat_value("*") is None  # Tarmogoyf
    assert stat_value("1+*") is None
    assert stat_value(None) is None


def test_a_split_card_adds_up_its_halves() -> None:
    assert card_mana_value("split", [2.0, 5.0]) == 7.0  # Cut // Ribbons
    assert card_mana_value("aftermath", [2.0, None]) == 2.0


def test_a_double_faced_card_counts_its_front_face() -> None:
    assert card_mana_value("transform", [2.0, 0.0]) == 2.0  # Brutal Cathar // Moonrage Brute
    assert card_mana_value("normal", []) is None


def test_type_flags_are_the_types_in_any_face() -> None:
    bits = type_bits(["Legendary Enchantment Creature — God", "Legendary Artifact"])  # Cosima-like
    for word in ("legendary", "enchantment", "creature", "artifact"):
        assert bits & (type_bit(word) or 0)
    assert not bits & (type_bit("land") or 0)


def test_a_type_flag_is_a_substring_like_the_text_search() -> None:
    # "land" is found in "Island" as t:land finds it there: the bit and the text search agree
    assert type_bits(["Basic Snow Land — Island"]) & (type_bit("land") or 0)
    assert type_bit("dragon") is None
    assert len(TYPE_FLAGS) < 63
