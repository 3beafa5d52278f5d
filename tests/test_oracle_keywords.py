"""carddb.oracle.keywords: keyword lines of real oracle text, parsed and printed back exactly.

Lines are as the normalizer hands them over: reminder text removed, the card's own name as ``~``,
``Ward — Pay 3 life.`` unspaced to ``Ward—Pay 3 life.``. The card each line comes from is named
in the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carddb.oracle import parse_oracle
from carddb.oracle.keywords import (
    KEYWORDS,
    KeywordSpec,
    Qualifier,
    Shape,
    keyword_names,
    lookup,
    parse_keyword_line,
    render_keyword_line,
)
from carddb.oracle.model import Ability, Action, Keyword, Kind, ManaCost, walk


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


# -- every keyword ability of the Comprehensive Rules ----------------------------------------------
CR_HEADINGS = Path(__file__).parent / "fixtures" / "rules" / "cr-702-keyword-headings.txt"
"""The headings of rule 702 (Comprehensive Rules 2025-02-07), copied from the published rules."""

K = Keyword
CR_KEYWORDS: dict[int, list[tuple[str, tuple[Keyword, ...] | None]]] = {
    # rule 702.N: lines with that keyword and what they parse into (None: a label in front of an
    # ability, parsed as that ability: "Boast — {1}{R}: …")
    2: [("Deathtouch", (K("Deathtouch"),))],
    3: [("Defender", (K("Defender"),))],
    4: [("Double strike", (K("Double strike"),))],
    5: [("Enchant creature you control", (K("Enchant", "creature you control"),))],
    6: [("Equip {2}", (K("Equip", "{2}"),)), ("Equip planeswalker {1}", (K("Equip planeswalker", "{1}"),))],
    7: [("First strike", (K("First strike"),))],
    8: [("Flash", (K("Flash"),))],
    9: [("Flying", (K("Flying"),))],
    10: [("Haste", (K("Haste"),))],
    11: [("Hexproof", (K("Hexproof"),)), ("Hexproof from white", (K("Hexproof", "white"),))],
    12: [("Indestructible", (K("Indestructible"),))],
    13: [("Intimidate", (K("Intimidate"),))],
    14: [("Islandwalk", (K("Islandwalk"),)), ("Nonbasic landwalk", (K("Nonbasic landwalk"),))],
    15: [("Lifelink", (K("Lifelink"),))],
    16: [("Protection from red and from white", (K("Protection", "red and from white"),))],
    17: [("Reach", (K("Reach"),))],
    18: [("Shroud", (K("Shroud"),))],
    19: [("Trample", (K("Trample"),)), ("Trample over planeswalkers", (K("Trample over planeswalkers"),))],
    20: [("Vigilance", (K("Vigilance"),))],
    21: [
        ("Ward {2}", (K("Ward", "{2}"),)),
        ("Ward—Pay 3 life.", (K("Ward", "Pay 3 life.", long_cost=True),)),
    ],
    22: [("Banding", (K("Banding"),)), ("Bands with other legends", (K("Bands with other", "legends"),))],
    23: [("Rampage 2", (K("Rampage", "2"),))],
    24: [("Cumulative upkeep {1}", (K("Cumulative upkeep", "{1}"),))],
    25: [("Flanking", (K("Flanking"),))],
    26: [("Phasing", (K("Phasing"),))],
    27: [("Buyback {3}", (K("Buyback", "{3}"),))],
    28: [("Shadow", (K("Shadow"),))],
    29: [
        ("Cycling {2}", (K("Cycling", "{2}"),)),
        ("Basic landcycling {1}{B}", (K("Basic landcycling", "{1}{B}"),)),
        ("Swampcycling {2}", (K("Swampcycling", "{2}"),)),
    ],
    30: [("Echo {2}{R}", (K("Echo", "{2}{R}"),))],
    31: [("Horsemanship", (K("Horsemanship"),))],
    32: [("Fading 3", (K("Fading", "3"),))],
    33: [
        ("Kicker {2}{B}", (K("Kicker", "{2}{B}"),)),
        ("Kicker {1}{B} and/or {G}", (K("Kicker", "{1}{B} and/or {G}"),)),
        ("Multikicker {1}{G}", (K("Multikicker", "{1}{G}"),)),
    ],
    34: [("Flashback {2}{R}", (K("Flashback", "{2}{R}"),))],
    35: [("Madness {1}{R}", (K("Madness", "{1}{R}"),))],
    36: [("Fear", (K("Fear"),))],
    37: [("Morph {3}{U}", (K("Morph", "{3}{U}"),)), ("Megamorph {5}{G}", (K("Megamorph", "{5}{G}"),))],
    38: [("Amplify 1", (K("Amplify", "1"),))],
    39: [("Provoke", (K("Provoke"),))],
    40: [("Storm", (K("Storm"),))],
    41: [("Affinity for artifacts", (K("Affinity", "artifacts"),))],
    42: [("Entwine {2}", (K("Entwine", "{2}"),))],
    43: [
        ("Modular 2", (K("Modular", "2"),)),
        ("Modular—Sunburst", (K("Modular", "Sunburst", long_cost=True),)),
    ],
    44: [("Sunburst", (K("Sunburst"),))],
    45: [("Bushido 2", (K("Bushido", "2"),))],
    46: [("Soulshift 4", (K("Soulshift", "4"),))],
    47: [("Splice onto Arcane {1}{R}", (K("Splice onto Arcane", "{1}{R}"),))],
    48: [("Goblin offering", (K("Goblin offering"),))],
    49: [
        ("Ninjutsu {1}{U}", (K("Ninjutsu", "{1}{U}"),)),
        ("Commander ninjutsu {2}{U}{B}", (K("Commander ninjutsu", "{2}{U}{B}"),)),
    ],
    50: [("Epic", (K("Epic"),))],
    51: [("Convoke", (K("Convoke"),))],
    52: [("Dredge 3", (K("Dredge", "3"),))],
    53: [("Transmute {1}{B}{B}", (K("Transmute", "{1}{B}{B}"),))],
    54: [("Bloodthirst 2", (K("Bloodthirst", "2"),))],
    55: [("Haunt", (K("Haunt"),))],
    56: [("Replicate {1}{U}", (K("Replicate", "{1}{U}"),))],
    57: [("Forecast — {1}{W}, Reveal ~ from your hand: Target creature gets +1/+1 until end of turn.", None)],
    58: [("Graft 2", (K("Graft", "2"),))],
    59: [("Recover {1}{B}", (K("Recover", "{1}{B}"),))],
    60: [("Ripple 4", (K("Ripple", "4"),))],
    61: [("Split second", (K("Split second"),))],
    62: [("Suspend 4—{1}{U}", (K("Suspend", "4—{1}{U}"),))],
    63: [("Vanishing 3", (K("Vanishing", "3"),)), ("Vanishing", (K("Vanishing"),))],
    64: [("Absorb 1", (K("Absorb", "1"),))],
    65: [("Aura swap {2}{U}", (K("Aura swap", "{2}{U}"),))],
    66: [("Delve", (K("Delve"),))],
    67: [("Fortify {3}", (K("Fortify", "{3}"),))],
    68: [("Frenzy 1", (K("Frenzy", "1"),))],
    69: [("Gravestorm", (K("Gravestorm"),))],
    70: [("Poisonous 1", (K("Poisonous", "1"),))],
    71: [("Transfigure {1}{B}{B}", (K("Transfigure", "{1}{B}{B}"),))],
    72: [("Champion a Goblin", (K("Champion", "a Goblin"),))],
    73: [("Changeling", (K("Changeling"),))],
    74: [("Evoke {R}{R}", (K("Evoke", "{R}{R}"),))],
    75: [("Hideaway 4", (K("Hideaway", "4"),)), ("Hideaway", (K("Hideaway"),))],
    76: [("Prowl {U}", (K("Prowl", "{U}"),))],
    77: [("Reinforce 1—{1}{W}", (K("Reinforce", "1—{1}{W}"),))],
    78: [("Conspire", (K("Conspire"),))],
    79: [("Persist", (K("Persist"),))],
    80: [("Wither", (K("Wither"),))],
    81: [("Retrace", (K("Retrace"),))],
    82: [("Devour 1", (K("Devour", "1"),)), ("Devour artifact 1", (K("Devour artifact", "1"),))],
    83: [("Exalted", (K("Exalted"),))],
    84: [("Unearth {B}", (K("Unearth", "{B}"),))],
    85: [("Cascade", (K("Cascade"),))],
    86: [("Annihilator 2", (K("Annihilator", "2"),))],
    87: [("Level up {1}{W}", (K("Level up", "{1}{W}"),))],
    88: [("Rebound", (K("Rebound"),))],
    89: [("Umbra armor", (K("Umbra armor"),)), ("Totem armor", (K("Totem armor"),))],
    90: [("Infect", (K("Infect"),))],
    91: [("Battle cry", (K("Battle cry"),))],
    92: [("Living weapon", (K("Living weapon"),))],
    93: [("Undying", (K("Undying"),))],
    94: [("Miracle {R}", (K("Miracle", "{R}"),))],
    95: [("Soulbond", (K("Soulbond"),))],
    96: [("Overload {4}{R}{R}", (K("Overload", "{4}{R}{R}"),))],
    97: [("Scavenge {4}{G}{G}", (K("Scavenge", "{4}{G}{G}"),))],
    98: [("Unleash", (K("Unleash"),))],
    99: [("Cipher", (K("Cipher"),))],
    100: [("Evolve", (K("Evolve"),))],
    101: [("Extort", (K("Extort"),))],
    102: [("Fuse", (K("Fuse"),))],
    103: [("Bestow {3}{W}", (K("Bestow", "{3}{W}"),))],
    104: [("Tribute 2", (K("Tribute", "2"),))],
    105: [("Dethrone", (K("Dethrone"),))],
    106: [("Hidden agenda", (K("Hidden agenda"),)), ("Double agenda", (K("Double agenda"),))],
    107: [("Outlast {1}{W}", (K("Outlast", "{1}{W}"),))],
    108: [("Prowess", (K("Prowess"),))],
    109: [("Dash {2}{B}", (K("Dash", "{2}{B}"),))],
    110: [("Exploit", (K("Exploit"),))],
    111: [("Menace", (K("Menace"),))],
    112: [("Renown 1", (K("Renown", "1"),))],
    113: [("Awaken 3—{4}{U}{U}", (K("Awaken", "3—{4}{U}{U}"),))],
    114: [("Devoid", (K("Devoid"),))],
    115: [("Ingest", (K("Ingest"),))],
    116: [("Myriad", (K("Myriad"),))],
    117: [("Surge {1}{R}", (K("Surge", "{1}{R}"),))],
    118: [("Skulk", (K("Skulk"),))],
    119: [
        ("Emerge {5}{U}{U}", (K("Emerge", "{5}{U}{U}"),)),
        ("Emerge from artifact {3}{U}", (K("Emerge from artifact", "{3}{U}"),)),
    ],
    120: [("Escalate {1}", (K("Escalate", "{1}"),))],
    121: [("Melee", (K("Melee"),))],
    122: [("Crew 3", (K("Crew", "3"),))],
    123: [("Fabricate 2", (K("Fabricate", "2"),))],
    124: [
        ("Partner", (K("Partner"),)),
        ("Partner with Brallin, Skyshark Rider", (K("Partner with", "Brallin, Skyshark Rider"),)),
        ("Friends forever", (K("Friends forever"),)),
        ("Choose a Background", (K("Choose a Background"),)),
        ("Doctor's companion", (K("Doctor's companion"),)),
    ],
    125: [("Undaunted", (K("Undaunted"),))],
    126: [("Improvise", (K("Improvise"),))],
    127: [("Aftermath", (K("Aftermath"),))],
    128: [("Embalm {3}{W}", (K("Embalm", "{3}{W}"),))],
    129: [("Eternalize {4}{B}{B}", (K("Eternalize", "{4}{B}{B}"),))],
    130: [("Afflict 2", (K("Afflict", "2"),))],
    131: [("Ascend", (K("Ascend"),))],
    132: [("Assist", (K("Assist"),))],
    133: [("Jump-start", (K("Jump-start"),))],
    134: [("Mentor", (K("Mentor"),))],
    135: [("Afterlife 1", (K("Afterlife", "1"),))],
    136: [("Riot", (K("Riot"),))],
    137: [("Spectacle {R}", (K("Spectacle", "{R}"),))],
    138: [
        (
            "Escape—{2}{B}{B}, Exile four other cards from your graveyard.",
            (K("Escape", "{2}{B}{B}, Exile four other cards from your graveyard.", long_cost=True),),
        )
    ],
    139: [
        (
            "Companion—Each nonland card in your starting deck has an even mana value.",
            (
                K(
                    "Companion",
                    "Each nonland card in your starting deck has an even mana value.",
                    long_cost=True,
                ),
            ),
        )
    ],
    140: [("Mutate {2}{G}", (K("Mutate", "{2}{G}"),))],
    141: [("Encore {5}{B}{B}", (K("Encore", "{5}{B}{B}"),))],
    142: [("Boast — {1}{R}: ~ deals 1 damage to any target.", None)],
    143: [("Foretell {1}{U}", (K("Foretell", "{1}{U}"),))],
    144: [("Demonstrate", (K("Demonstrate"),))],
    145: [("Daybound", (K("Daybound"),)), ("Nightbound", (K("Nightbound"),))],
    146: [("Disturb {1}{W}", (K("Disturb", "{1}{W}"),))],
    147: [("Decayed", (K("Decayed"),))],
    148: [("Cleave {1}{W}{W}", (K("Cleave", "{1}{W}{W}"),))],
    149: [("Training", (K("Training"),))],
    150: [("Compleated", (K("Compleated"),))],
    151: [("Reconfigure {2}", (K("Reconfigure", "{2}"),))],
    152: [("Blitz {2}{B}{B}", (K("Blitz", "{2}{B}{B}"),))],
    153: [("Casualty 1", (K("Casualty", "1"),))],
    154: [("Enlist", (K("Enlist"),))],
    155: [("Read ahead", (K("Read ahead"),))],
    156: [("Ravenous", (K("Ravenous"),))],
    157: [("Squad {2}", (K("Squad", "{2}"),))],
    158: [("Space sculptor", (K("Space sculptor"),))],
    159: [("Visit — Draw a card.", None)],
    160: [("Prototype {1}{R}—2/1", (K("Prototype", "{1}{R}—2/1"),))],
    161: [("Living metal", (K("Living metal"),))],
    162: [("More Than Meets the Eye {2}{U}{R}{W}", (K("More Than Meets the Eye", "{2}{U}{R}{W}"),))],
    163: [("For Mirrodin!", (K("For Mirrodin!"),))],
    164: [("Toxic 1", (K("Toxic", "1"),))],
    165: [("Backup 1", (K("Backup", "1"),))],
    166: [("Bargain", (K("Bargain"),))],
    167: [("Craft with artifact {4}{W}", (K("Craft with artifact", "{4}{W}"),))],
    168: [("Disguise {2}{G}", (K("Disguise", "{2}{G}"),))],
    169: [("Solved — {T}: Draw a card.", None)],
    170: [("Plot {2}{R}", (K("Plot", "{2}{R}"),))],
    171: [("Saddle 2", (K("Saddle", "2"),))],
    172: [("Spree", (K("Spree"),))],
    173: [("Freerunning {1}{B}", (K("Freerunning", "{1}{B}"),))],
    174: [("Gift a Food", (K("Gift", "a Food"),))],
    175: [("Offspring {2}", (K("Offspring", "{2}"),))],
    176: [("Impending 4—{2}{B}{B}", (K("Impending", "4—{2}{B}{B}"),))],
    177: [("Exhaust — {2}{G}: Put two +1/+1 counters on ~.", None)],
    178: [("Max speed — {T}: Draw a card.", None)],
    179: [("Start your engines!", (K("Start your engines!"),))],
}


def _headings() -> dict[int, str]:
    lines = CR_HEADINGS.read_text(encoding="utf-8").splitlines()
    found = (re.match(r"^702\.(\d+)\. (.+)$", line) for line in lines)
    return {int(m.group(1)): m.group(2) for m in found if m}


def test_every_keyword_heading_of_rule_702_has_lines_here() -> None:
    headings = _headings()
    assert len(headings) == 178 and set(headings) == set(range(2, 180))
    assert set(CR_KEYWORDS) == set(headings)


_CR_CASES = [(section, line, keywords) for section, cases in CR_KEYWORDS.items() for line, keywords in cases]


@pytest.mark.parametrize(
    "section, line, keywords", _CR_CASES, ids=[f"702.{c[0]} {c[1][:30]}" for c in _CR_CASES]
)
def test_each_keyword_of_the_comprehensive_rules_parses_with_its_parameter(
    section: int, line: str, keywords: tuple[Keyword, ...] | None
) -> None:
    first = keywords[0].name if keywords else line.split(" —")[0]
    spec = lookup(first)
    assert spec is not None and re.match(rf"702\.{section}[a-z]?$", spec.rule)
    if keywords is None:  # a label: the ability it stands before parses
        assert spec.shape is Shape.LABEL
        assert parse_oracle(line, "Grim Lavamancer", "Creature — Human Wizard").complete
    else:
        assert parsed(line) == keywords


# -- every parameter shape rule 702 writes ----------------------------------------------------------
CR_FORMS = Path(__file__).parent / "fixtures" / "rules" / "cr-702-keyword-forms.txt"
"""Every "Keyword [parameter]" form the Comprehensive Rules write in rule 702 ("Equip [cost]",
"Suspend N—[cost]", "Splice onto [quality] [cost]", "Companion—[Condition]"), with its rule."""

_PLACEHOLDER = re.compile(r"\[[^\]]+\]|\bN\b")
_QUALITY_SAMPLE = {
    # a quality each keyword takes on a real card: Abduction, Steelclaw Lance, Knight of Grace,
    # Mother of Runes, Cathedral of Serra, Frogmite, Glacial Ray, Nova Chaser, Caprichrome,
    # Wretched Confluence (emerge from artifact: Herigast), Shabraz, the Skyshark, Jadelight Spelunker,
    # Blossoming Bogbeast (gift a Food)
    "Enchant": "creature",
    "Equip": "Knight",
    "Hexproof": "black",
    "Protection": "white",
    "Bands with other": "legends",
    "Affinity": "artifacts",
    "Splice": "Arcane",
    "Champion": "Elemental",
    "Devour": "artifact",
    "Emerge": "artifact",
    "Partner with": "Brallin, Skyshark Rider",
    "Craft": "artifact",
    "Gift": "Food",
}
_SAMPLE = {
    "[cost]": "{2}{R}",
    "[cost 1]": "{1}{B}",
    "[cost 2]": "{G}",
    "N": "3",
    "[quality A]": "white",
    "[quality B]": "blue",
    "[a player]": "the chosen player",
    "[Condition]": "Each nonland card in your starting deck has a different name.",
}


def _cr_forms() -> list[tuple[str, str]]:
    lines = CR_FORMS.read_text(encoding="utf-8").splitlines()
    return [(line.split(" ", 1)[0], line.split(" ", 1)[1]) for line in lines if line.startswith("702.")]


def _spec_of(form: str) -> KeywordSpec:
    """The table entry of a form's keyword: the longest name the form starts with."""
    words = form.split(" ")
    for count in range(len(words), 0, -1):
        spec = lookup(" ".join(words[:count]).split("—")[0])
        if spec is not None:
            return spec
    raise AssertionError(f"no keyword in the table for {form!r}")


def _expected_shape(form: str) -> Shape:
    """What rule 702's placeholder says the parameter is: ``[cost]``, ``N``, ``N—[cost]``, a quality,
    a text after an em dash, or a label in front of another ability (``Boast — [Cost]: [Effect]``)."""
    if " — [" in form:
        return Shape.LABEL
    if "—[" in form and not form.endswith("N—[cost]"):
        return Shape.LONG
    last = _PLACEHOLDER.findall(form)[-1]
    if form.endswith("N—[cost]"):
        return Shape.NUMBER_COST
    if last.startswith("[cost"):
        return Shape.COST
    return Shape.NUMBER if last == "N" else Shape.QUALITY


def _instance(form: str, spec: KeywordSpec) -> str:
    """The form with a real parameter in each placeholder; a quality the rule writes before the cost
    it leaves out ("Equip [quality]", 702.6c) gets that cost."""

    def sample(match: re.Match[str]) -> str:
        text = match.group(0)
        return _SAMPLE.get(text) or _QUALITY_SAMPLE[spec.name]

    line = _PLACEHOLDER.sub(sample, form)
    if (
        spec.qualifier is not Qualifier.NO
        and spec.shape is Shape.COST
        and not _PLACEHOLDER.findall(form)[-1].startswith("[cost")
    ):
        line += " {1}"
    return line


_FORMS = _cr_forms()


def test_every_keyword_with_a_parameter_has_its_form_in_rule_702() -> None:
    # rule 702 writes these three in prose only: "[type]cycling", "foretell cost", prototype's
    # "mana cost, power and toughness"
    unwritten = {"Typecycling", "Foretell", "Prototype"}
    named = {_spec_of(form).name for _rule, form in _FORMS}

    assert {spec.name for spec in KEYWORDS if spec.shape is not Shape.NONE} - named == unwritten


@pytest.mark.parametrize("rule, form", _FORMS, ids=[f"{rule} {form}" for rule, form in _FORMS])
def test_each_parameter_form_of_rule_702_is_the_shape_of_its_keyword(rule: str, form: str) -> None:
    spec = _spec_of(form)
    expected = _expected_shape(form)

    assert spec.rule.split(".")[1].rstrip("abcdefghijklmnopqrstuvwxyz") == rule.split(".")[1].rstrip(
        "abcdefghijklmnopqrstuvwxyz"
    )
    if expected is Shape.QUALITY and spec.qualifier is not Qualifier.NO:  # "Equip [quality]": a qualifier
        assert spec.shape in (Shape.COST, Shape.NUMBER)
    elif expected is Shape.LONG:
        assert spec.long_form is not None
    else:
        assert spec.shape is expected


@pytest.mark.parametrize(
    "rule, form",
    [(rule, form) for rule, form in _FORMS if _expected_shape(form) is not Shape.LABEL],
    ids=[f"{rule} {form}" for rule, form in _FORMS if _expected_shape(form) is not Shape.LABEL],
)
def test_each_parameter_form_of_rule_702_parses_with_a_real_parameter(rule: str, form: str) -> None:
    spec = _spec_of(form)
    line = _instance(form, spec)

    keywords = parsed(line)

    assert keywords is not None, line
    assert lookup(keywords[0].name) == spec and keywords[0].parameter, line


# -- keyword lines in a face's text ------------------------------------------------------------------
def _keyword_ability(text: str, name: str, type_line: str) -> Ability:
    face = parse_oracle(text, name, type_line)
    assert face.complete, face.unimplemented
    return next(ability for ability in face.abilities if ability.kind is Kind.KEYWORD)


def test_an_old_keyword_line_separates_its_keywords_with_semicolons() -> None:
    ability = _keyword_ability(
        "Flying; first strike; banding", "Kjeldoran Skyknight", "Creature — Human Knight"
    )

    assert ability.keywords == (Keyword("Flying"), Keyword("First strike"), Keyword("Banding"))
    assert ability.keyword_separator == "; "


def test_a_keyword_line_as_a_sentence_keeps_the_activation_limit_of_its_ability() -> None:
    # Leather Armor
    ability = _keyword_ability(
        "Equip {0}. Activate only once each turn.", "Leather Armor", "Artifact — Equipment"
    )

    assert ability.keywords == (Keyword("Equip", "{0}"),)
    assert [restriction.verb for restriction in ability.restrictions] == ["once_each_turn"]
    assert ability.keyword_period and not ability.effects


def test_a_keyword_with_x_keeps_the_restriction_on_x() -> None:
    # Aeon Chronicler
    ability = _keyword_ability("Suspend X—{X}{3}{U}. X can't be 0.", "Aeon Chronicler", "Creature — Avatar")

    assert ability.keywords == (Keyword("Suspend", "X—{X}{3}{U}"),)
    assert [restriction.verb for restriction in ability.restrictions] == ["x_cant_be"]


def test_a_keyword_line_as_a_sentence_may_say_what_its_ability_costs() -> None:
    # Plate Armor
    text = "Equip {3}. This ability costs {1} less to activate for each other Equipment you control."
    ability = _keyword_ability(text, "Plate Armor", "Artifact — Equipment")

    assert ability.keywords == (Keyword("Equip", "{3}"),)
    assert len(ability.effects) == 1 and not ability.restrictions


def test_a_quoted_keyword_line_keeps_its_period() -> None:
    # Mana Chains
    face = parse_oracle(
        'Enchanted creature has "Cumulative upkeep {1}."', "Mana Chains", "Enchantment — Aura"
    )

    quoted = [node for node in walk(face.abilities[0].effects[0]) if isinstance(node, Ability)]
    assert face.complete
    assert [(q.keywords, q.keyword_period) for q in quoted] == [
        ((Keyword("Cumulative upkeep", "{1}"),), True)
    ]


def test_a_keyword_quoted_in_running_text_may_be_lowercase() -> None:
    # Cathedral of Serra
    text = 'White legendary creatures you control have "bands with other legendary creatures."'
    face = parse_oracle(text, "Cathedral of Serra", "Land")

    quoted = [node for node in walk(face.abilities[0].effects[0]) if isinstance(node, Ability)]
    assert face.complete and face.rendered == text
    assert [(q.keywords, q.keyword_lowercase) for q in quoted] == [
        ((Keyword("Bands with other", "legendary creatures"),), True)
    ]


def test_a_keyword_then_an_unknown_sentence_keeps_the_keyword() -> None:
    face = parse_oracle("Flashback {2}{R}. Frobnicate the whizzbang.", "Fiery Temper", "Instant")

    assert not face.complete
    assert face.abilities[0].keywords == (Keyword("Flashback", "{2}{R}"),)


def test_augment_is_the_keyword_of_unstables_host_creatures() -> None:
    # Half-Squirrel, Half-
    spec = lookup("Augment")

    assert spec is not None and spec.rule == "Unstable" and spec.shape is Shape.COST
    assert parsed("Augment {G}") == (Keyword("Augment", "{G}"),)


def test_a_cost_after_an_em_dash_is_read_as_cost_items() -> None:
    text = "Escape—{2}{U}, Exile five other cards from your graveyard."
    (keyword,) = parse_oracle(text, "Glimpse of Freedom", "Instant").abilities[0].keywords
    mana, exile = keyword.cost
    assert isinstance(mana, ManaCost) and mana.symbols == ("{2}", "{U}")
    assert isinstance(exile, Action) and exile.verb == "exile"
    assert keyword.parameter == "{2}{U}, Exile five other cards from your graveyard."


def test_ward_x_with_what_x_is_after_it() -> None:
    # Minthara, Merciless Soul (newer than the 2022 pool): the X is read after "where X is"
    face = parse_oracle("Ward {X}, where X is the number of experience counters you have.", "Minthara")
    (ability,) = face.abilities
    (keyword,) = ability.keywords
    assert (keyword.name, keyword.parameter) == ("Ward", "{X}")
    assert isinstance(keyword.where_x, Action) and keyword.where_x.verb == "number_of_player_counters"
    assert face.complete


def test_a_where_x_needs_an_x_in_the_keywords_cost() -> None:
    face = parse_oracle("Ward {2}, where X is the number of experience counters you have.", "Minthara")
    assert not any(keyword.where_x is not None for ability in face.abilities for keyword in ability.keywords)
