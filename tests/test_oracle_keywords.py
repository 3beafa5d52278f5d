"""carddb.oracle.keywords: keyword lines of real oracle text, parsed and printed back exactly.

Lines are as the normalizer hands them over: reminder text removed, the card's own name as ``~``,
``Ward — Pay 3 life.`` unspaced to ``Ward—Pay 3 life.``. The card each line comes from is named
in the test.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from carddb.oracle.keywords import (
    KEYWORDS,
    Shape,
    keyword_names,
    lookup,
    parse_keyword_line,
    render_keyword_line,
)
from carddb.oracle.model import Keyword


def parsed(line: str) -> tuple[Keyword, ...] | None:
    """parse_keyword_line, checking that whatever it accepts prints back as the same line."""
    keywords = parse_keyword_line(line)
    if keywords is not None:
        assert render_keyword_line(keywords) == line
    return keywords


# -- keywords without a parameter ---------------------------------------------------------------
def test_a_single_keyword() -> None:
    # Angel of the God-Pharaoh
    assert parsed("Flying") == (Keyword("Flying"),)


def test_a_list_capitalizes_only_its_first_keyword() -> None:
    # Gisela, the Broken Blade
    assert parsed("Flying, first strike, lifelink") == (
        Keyword("Flying"),
        Keyword("First strike"),
        Keyword("Lifelink"),
    )


def test_the_same_keyword_may_appear_twice() -> None:
    # Maelstrom Wanderer
    assert parsed("Cascade, cascade") == (Keyword("Cascade"), Keyword("Cascade"))


def test_landwalk_is_named_by_its_land_type() -> None:
    # Benthic Behemoth
    assert parsed("Islandwalk") == (Keyword("Islandwalk"),)


def test_landwalk_may_name_a_supertype() -> None:
    # Dryad Sophisticate
    assert parsed("Nonbasic landwalk") == (Keyword("Nonbasic landwalk"),)


def test_offering_keeps_its_creature_type_capitalized() -> None:
    # Patron of the Akki
    assert parsed("Goblin offering") == (Keyword("Goblin offering"),)


# -- a mana cost --------------------------------------------------------------------------------
def test_madness_takes_a_mana_cost() -> None:
    # Abandon Reason
    assert parsed("Madness {1}{R}") == (Keyword("Madness", "{1}{R}"),)


def test_ward_takes_a_mana_cost() -> None:
    # Adrix and Nev, Twincasters
    assert parsed("Ward {2}") == (Keyword("Ward", "{2}"),)


def test_a_keyword_with_a_cost_may_follow_others() -> None:
    # Colossal Skyturtle
    assert parsed("Flying, ward {2}") == (Keyword("Flying"), Keyword("Ward", "{2}"))


def test_equip_takes_a_mana_cost() -> None:
    # +2 Mace
    assert parsed("Equip {3}") == (Keyword("Equip", "{3}"),)


def test_equip_may_name_what_it_equips_before_its_cost() -> None:
    # Steelclaw Lance
    assert parsed("Equip Knight {1}") == (Keyword("Equip Knight", "{1}"),)


def test_cycling_takes_a_mana_cost() -> None:
    # Angel of the God-Pharaoh
    assert parsed("Cycling {2}") == (Keyword("Cycling", "{2}"),)


def test_typecycling_is_named_by_its_type() -> None:
    # Twisted Abomination
    assert parsed("Swampcycling {2}") == (Keyword("Swampcycling", "{2}"),)


def test_typecycling_may_name_a_supertype_and_a_type() -> None:
    # Absorb Vis
    assert parsed("Basic landcycling {1}{B}") == (Keyword("Basic landcycling", "{1}{B}"),)


def test_kicker_takes_a_mana_cost() -> None:
    # Citanul Woodreaders
    assert parsed("Kicker {2}{G}") == (Keyword("Kicker", "{2}{G}"),)


def test_kicker_may_offer_two_costs() -> None:
    # Thunderscape Battlemage
    assert parsed("Kicker {1}{B} and/or {G}") == (Keyword("Kicker", "{1}{B} and/or {G}"),)


def test_cumulative_upkeep_may_offer_a_choice_of_costs() -> None:
    # Arctic Nishoba
    assert parsed("Cumulative upkeep {G} or {W}") == (Keyword("Cumulative upkeep", "{G} or {W}"),)


def test_splice_names_what_it_splices_onto_before_its_cost() -> None:
    # Desperate Ritual
    assert parsed("Splice onto Arcane {1}{R}") == (Keyword("Splice onto Arcane", "{1}{R}"),)


# -- a long cost after an em dash ---------------------------------------------------------------
def test_ward_may_take_a_long_cost() -> None:
    # Brutal Cathar
    assert parsed("Ward—Pay 3 life.") == (Keyword("Ward", "Pay 3 life.", long_cost=True),)


def test_flashback_may_take_a_long_cost() -> None:
    # Battle Screech
    assert parsed("Flashback—Tap three untapped white creatures you control.") == (
        Keyword("Flashback", "Tap three untapped white creatures you control.", long_cost=True),
    )


def test_a_long_cost_may_mix_mana_and_other_costs() -> None:
    # Woe Strider
    assert parsed("Escape—{3}{B}{B}, Exile four other cards from your graveyard.") == (
        Keyword("Escape", "{3}{B}{B}, Exile four other cards from your graveyard.", long_cost=True),
    )


def test_splice_may_take_a_long_cost() -> None:
    # Torrent of Stone
    assert parsed("Splice onto Arcane—Sacrifice two Mountains.") == (
        Keyword("Splice onto Arcane", "Sacrifice two Mountains.", long_cost=True),
    )


def test_companion_is_written_with_its_condition_after_an_em_dash() -> None:
    # Lutri, the Spellchaser
    line = "Companion—Each nonland card in your starting deck has a different name."
    assert parsed(line) == (
        Keyword("Companion", "Each nonland card in your starting deck has a different name.", long_cost=True),
    )


def test_modular_may_count_sunburst_instead_of_a_number() -> None:
    # Arcbound Wanderer
    assert parsed("Modular—Sunburst") == (Keyword("Modular", "Sunburst", long_cost=True),)


# -- a number -----------------------------------------------------------------------------------
def test_dredge_takes_a_number() -> None:
    # Golgari Grave-Troll
    assert parsed("Dredge 6") == (Keyword("Dredge", "6"),)


def test_crew_takes_a_number() -> None:
    # Ballista Charger
    assert parsed("Crew 3") == (Keyword("Crew", "3"),)


def test_toxic_takes_a_number() -> None:
    # Phyrexia: All Will Be One
    assert parsed("Toxic 1") == (Keyword("Toxic", "1"),)


def test_hideaway_was_printed_without_a_number() -> None:
    # Howltooth Hollow
    assert parsed("Hideaway") == (Keyword("Hideaway"),)


def test_devour_may_name_what_it_devours_before_its_number() -> None:
    # Caprichrome
    assert parsed("Devour artifact 1") == (Keyword("Devour artifact", "1"),)


def test_suspend_takes_a_number_and_a_cost() -> None:
    # Errant Ephemeron
    assert parsed("Suspend 4—{1}{U}") == (Keyword("Suspend", "4—{1}{U}"),)


def test_reinforce_may_take_x() -> None:
    # Swell of Courage
    assert parsed("Reinforce X—{X}{W}{W}") == (Keyword("Reinforce", "X—{X}{W}{W}"),)


# -- a quality ----------------------------------------------------------------------------------
def test_enchant_takes_what_it_enchants() -> None:
    # Abduction
    assert parsed("Enchant creature") == (Keyword("Enchant", "creature"),)


def test_enchant_may_list_several_kinds_of_permanent() -> None:
    # Tamiyo's Compleation
    assert parsed("Enchant artifact, creature, or planeswalker") == (
        Keyword("Enchant", "artifact, creature, or planeswalker"),
    )


def test_protection_names_its_quality_without_from() -> None:
    # Beasts of Bogardan
    assert parsed("Protection from red") == (Keyword("Protection", "red"),)


def test_protection_from_two_qualities_is_one_keyword() -> None:
    # Animar, Soul of Elements
    assert parsed("Protection from white and from black") == (Keyword("Protection", "white and from black"),)


def test_protection_from_a_list_of_qualities_is_one_keyword() -> None:
    # Elite Inquisitor
    assert parsed("Protection from Vampires, from Werewolves, and from Zombies") == (
        Keyword("Protection", "Vampires, from Werewolves, and from Zombies"),
    )


def test_hexproof_may_name_a_quality() -> None:
    # General Ferrous Rokiric
    assert parsed("Hexproof from monocolored") == (Keyword("Hexproof", "monocolored"),)


def test_affinity_names_what_it_counts_without_for() -> None:
    # Assert Authority
    assert parsed("Affinity for artifacts") == (Keyword("Affinity", "artifacts"),)


def test_champion_keeps_its_article() -> None:
    # Nova Chaser
    assert parsed("Champion an Elemental") == (Keyword("Champion", "an Elemental"),)


def test_partner_with_takes_a_card_name_that_may_contain_a_comma() -> None:
    # Shabraz, the Skyshark
    assert parsed("Partner with Brallin, Skyshark Rider") == (
        Keyword("Partner with", "Brallin, Skyshark Rider"),
    )


# -- not keyword lines --------------------------------------------------------------------------
def test_a_spell_instruction_is_not_a_keyword_line() -> None:
    # Abeyance
    assert parse_keyword_line("Draw a card.") is None


def test_a_sentence_starting_with_a_keyword_is_not_a_keyword_line() -> None:
    assert parse_keyword_line("Flying creatures you control get +1/+1.") is None


def test_a_keyword_followed_by_a_sentence_is_not_a_keyword_line() -> None:
    # Thieving Skydiver
    assert parse_keyword_line("Kicker {X}. X can't be 0.") is None


def test_a_boast_ability_is_not_a_keyword_line() -> None:
    # Dragonkin Berserker
    assert parse_keyword_line("Boast—{4}{R}: Create a 5/5 red Dragon creature token with flying.") is None


def test_a_keyword_line_starts_with_a_capital_letter() -> None:
    assert parse_keyword_line("flying") is None


def test_keywords_after_the_first_are_lowercase() -> None:
    assert parse_keyword_line("Flying, Vigilance") is None


def test_a_long_cost_ends_with_its_period() -> None:
    assert parse_keyword_line("Ward—Pay 3 life") is None


def test_a_keyword_that_needs_a_parameter_is_not_a_keyword_line_without_it() -> None:
    assert parse_keyword_line("Dredge") is None


def test_semicolons_separate_keywords_only_when_asked() -> None:
    # Mesa Pegasus
    assert parse_keyword_line("Flying; banding") is None
    assert parse_keyword_line("Flying; banding", separator="; ") == (Keyword("Flying"), Keyword("Banding"))


def test_semicolon_lines_print_back_with_semicolons() -> None:
    keywords = (Keyword("Flying"), Keyword("First strike"), Keyword("Banding"))
    assert render_keyword_line(keywords, separator="; ") == "Flying; first strike; banding"


# -- the table ----------------------------------------------------------------------------------
def test_every_keyword_ability_of_rule_702_is_in_the_table() -> None:
    sections = {int(re.sub(r"\D", "", spec.rule.split(".")[1])) for spec in KEYWORDS}
    assert sections == set(range(2, 180))


def test_keyword_names_are_the_canonical_names() -> None:
    assert {"Flying", "Double strike", "Umbra armor", "Landwalk", "For Mirrodin!"} <= keyword_names()


def test_lookup_ignores_case() -> None:
    spec = lookup("DOUBLE STRIKE")
    assert spec is not None
    assert (spec.name, spec.rule) == ("Double strike", "702.4")


def test_lookup_finds_a_family_member() -> None:
    spec = lookup("Islandwalk")
    assert spec is not None
    assert spec.name == "Landwalk"


def test_lookup_finds_a_qualified_name() -> None:
    spec = lookup("Equip Knight")
    assert spec is not None
    assert (spec.name, spec.shape) == ("Equip", Shape.COST)


def test_a_keyword_action_is_not_a_keyword_ability() -> None:
    assert lookup("Scry") is None


def test_an_ability_word_is_not_a_keyword_ability() -> None:
    assert lookup("Landfall") is None


def test_boast_is_a_label_not_a_keyword_line() -> None:
    spec = lookup("Boast")
    assert spec is not None
    assert spec.shape is Shape.LABEL


# -- the round trip -----------------------------------------------------------------------------
_PIECES = (
    "Flying",
    "flying",
    "First strike",
    "vigilance",
    ", ",
    "; ",
    " ",
    "—",
    ".",
    "Ward",
    "ward",
    "{2}",
    "{1}{R}",
    " or ",
    "Pay 3 life.",
    "Protection from",
    "red",
    " and from ",
    "Enchant",
    "creature",
    "Equip",
    "Knight",
    "Suspend",
    "4",
    "X",
    "Partner with",
    "Islandwalk",
    "Goblin offering",
    "Draw a card.",
)


@given(st.one_of(st.text(), st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)))
def test_whatever_is_accepted_prints_back_exactly(line: str) -> None:
    keywords = parse_keyword_line(line)
    assert keywords is None or render_keyword_line(keywords) == line


# -- pathological lines ---------------------------------------------------------------------------
def test_a_line_of_ten_thousand_keywords_parses_without_recursion() -> None:
    line = "Flying, " + "flying, " * 9998 + "flying"

    keywords = parse_keyword_line(line)

    assert keywords is not None and len(keywords) == 10_000 and set(keywords) == {Keyword("Flying")}


def test_a_thousand_capitalized_keywords_are_no_keyword_line() -> None:
    # Only the first keyword of a line is capitalized; found by fuzzing (it was a RecursionError).
    assert parse_keyword_line("Flying, " * 1000) is None
    assert parse_keyword_line("Flying, " * 999 + "Flying") is None
