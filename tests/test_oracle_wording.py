"""Every era's Oracle wording: the 2024–2026 templates ("When this creature enters, …") and the older
ones ("converted mana cost", "Activate this ability only …") parse into the same abilities as the
2022 text, and print back in the wording they came in (``ParsedFace.rendered_as_written``).

The 2022 texts are those of the corpus (MTGJSON 2022-04-25); the others are the same cards' Oracle
text of that era (Scryfall, 2019 and 2025)."""

from __future__ import annotations

import pytest

from carddb.oracle import parse_oracle
from carddb.oracle.model import ParsedFace
from carddb.oracle.normalize import normalize_oracle
from carddb.oracle.show import face_to_dict

SAME_CARD = [
    # (name, type line, 2022 text, the other era's text)
    (
        "Raid Bombardment",
        "Enchantment",
        "Whenever a creature you control with power 2 or less attacks, Raid Bombardment deals 1 damage to"
        " the player or planeswalker that creature is attacking.",
        "Whenever a creature you control with power 2 or less attacks, this enchantment deals 1 damage to"
        " the player or planeswalker that creature is attacking.",
    ),
    (
        "Goblin Furrier",
        "Creature — Goblin Warrior",
        "Prevent all damage that Goblin Furrier would deal to snow creatures.",
        "Prevent all damage that this creature would deal to snow creatures.",
    ),
    (
        "Barbed Wire",
        "Artifact",
        "At the beginning of each player's upkeep, Barbed Wire deals 1 damage to that player.\n"
        "{2}: Prevent the next 1 damage that would be dealt by Barbed Wire this turn.",
        "At the beginning of each player's upkeep, this artifact deals 1 damage to that player.\n"
        "{2}: Prevent the next 1 damage that would be dealt by this artifact this turn.",
    ),
    (
        "Martyr's Bond",
        "Enchantment",
        "Whenever Martyr's Bond or another nonland permanent you control is put into a graveyard from the"
        " battlefield, each opponent sacrifices a permanent that shares a card type with it.",
        "Whenever this enchantment or another nonland permanent you control is put into a graveyard from the"
        " battlefield, each opponent sacrifices a permanent that shares a card type with it.",
    ),
    (
        "Black Vise",
        "Artifact",
        "As Black Vise enters the battlefield, choose an opponent.\n"
        "At the beginning of the chosen player's upkeep, Black Vise deals X damage to that player, where X is"
        " the number of cards in their hand minus 4.",
        "As this artifact enters, choose an opponent.\n"
        "At the beginning of the chosen player's upkeep, this artifact deals X damage to that player, where X"
        " is the number of cards in their hand minus 4.",
    ),
    (
        "Steel Squirrel",
        "Artifact Creature — Squirrel",
        "Whenever you roll a 5 or higher on a die, Steel Squirrel gets +X/+X until end of turn, where X is"
        " the result.\n{6}: Roll a six-sided die.",
        "Whenever you roll a 5 or higher on a die, this creature gets +X/+X until end of turn, where X is the"
        " result.\n{6}: Roll a d6.",
    ),
    (
        "Elvish Visionary",
        "Creature — Elf Shaman",
        "When Elvish Visionary enters the battlefield, draw a card.",
        "When this creature enters, draw a card.",
    ),
    (
        "Dismal Backwater",
        "Land",
        "Dismal Backwater enters the battlefield tapped.\nWhen Dismal Backwater enters the battlefield,"
        " you gain 1 life.\n{T}: Add {U} or {B}.",
        "This land enters tapped.\nWhen this land enters, you gain 1 life.\n{T}: Add {U} or {B}.",
    ),
    (
        "Whisper Agent",
        "Creature — Human Rogue",
        "Flash\nWhen Whisper Agent enters the battlefield, surveil 1.",
        "Flash\nWhen this creature enters, surveil 1.",
    ),
    (
        "Impassioned Orator",
        "Creature — Human Cleric",
        "Whenever another creature enters the battlefield under your control, you gain 1 life.",
        "Whenever another creature you control enters, you gain 1 life.",
    ),
    (
        "Ajani's Pridemate",
        "Creature — Cat Soldier",
        "Whenever you gain life, put a +1/+1 counter on Ajani's Pridemate.",
        "Whenever you gain life, put a +1/+1 counter on this creature.",
    ),
    (
        "Torpor Orb",
        "Artifact",
        "Creatures entering the battlefield don't cause abilities to trigger.",
        "Creatures entering don't cause abilities to trigger.",
    ),
    (
        "Doomed Traveler",
        "Creature — Human Soldier",
        "When Doomed Traveler dies, create a 1/1 white Spirit creature token with flying.",
        "When this creature dies, create a 1/1 white Spirit creature token with flying.",
    ),
    (
        "Evolving Wilds",
        "Land",
        "{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it onto the"
        " battlefield tapped, then shuffle.",
        "{T}, Sacrifice this land: Search your library for a basic land card, put it onto the"
        " battlefield tapped, then shuffle.",
    ),
    (
        "Evolving Wilds",
        "Land",
        "{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it onto the"
        " battlefield tapped, then shuffle.",
        "{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it onto the"
        " battlefield tapped, then shuffle your library.",
    ),
    (
        "Rootwalla",
        "Creature — Lizard",
        "{1}{G}: Rootwalla gets +2/+2 until end of turn. Activate only once each turn.",
        "{1}{G}: Rootwalla gets +2/+2 until end of turn. Activate this ability only once each turn.",
    ),
    (
        "Abrupt Decay",
        "Instant",
        "This spell can't be countered.\nDestroy target nonland permanent with mana value 3 or less.",
        "This spell can't be countered.\nDestroy target nonland permanent with converted mana cost 3 or"
        " less.",
    ),
    (
        "Thought Scour",
        "Instant",
        "Target player mills two cards.\nDraw a card.",
        "Target player puts the top two cards of their library into their graveyard.\nDraw a card.",
    ),
    (
        "Stitcher's Supplier",
        "Creature — Zombie",
        "When Stitcher's Supplier enters the battlefield or dies, mill three cards.",
        "When Stitcher's Supplier enters the battlefield or dies, put the top three cards of your library"
        " into your graveyard.",
    ),
    (
        "Hedron Crab",
        "Creature — Crab",
        "Landfall — Whenever a land enters the battlefield under your control, target player mills three"
        " cards.",
        "Landfall — Whenever a land you control enters, target player mills three cards.",
    ),
    (
        "Suture Priest",
        "Creature — Phyrexian Cleric",
        "Whenever another creature enters the battlefield under your control, you may gain 1 life.\n"
        "Whenever a creature enters the battlefield under an opponent's control, you may have that player"
        " lose 1 life.",
        "Whenever another creature you control enters, you may gain 1 life.\n"
        "Whenever a creature an opponent controls enters, you may have that player lose 1 life.",
    ),
    (
        "Sailor of Means",
        "Creature — Human Pirate",
        "When Sailor of Means enters the battlefield, create a Treasure token.",
        'When Sailor of Means enters the battlefield, create a colorless Treasure artifact token with "{T},'
        ' Sacrifice this artifact: Add one mana of any color."',
    ),
    (
        "Path to Exile",
        "Instant",
        "Exile target creature. Its controller may search their library for a basic land card, put that"
        " card onto the battlefield tapped, then shuffle.",
        "Exile target creature. Its controller may search their library for a basic land card, put that"
        " card onto the battlefield tapped, then shuffle their library.",
    ),
    (
        "Daxos, Blessed by the Sun",
        "Legendary Enchantment Creature — Demigod",
        "Whenever another creature you control enters the battlefield or dies, you gain 1 life.",
        "Whenever another creature you control enters or dies, you gain 1 life.",
    ),
    (
        "Sludge Strider",
        "Artifact Creature — Insect",
        "Whenever another artifact enters the battlefield under your control or another artifact you"
        " control leaves the battlefield, you may pay {1}. If you do, target player loses 1 life and you"
        " gain 1 life.",
        "Whenever another artifact you control enters or another artifact you control leaves the"
        " battlefield, you may pay {1}. If you do, target player loses 1 life and you gain 1 life.",
    ),
    (
        "Ashiok's Forerunner",
        "Creature — Human Wizard",
        "When Ashiok's Forerunner enters the battlefield, you may search your library and/or graveyard for a"
        " card named Ashiok, Sculptor of Fears, reveal it, and put it into your hand. If you search your"
        " library this way, shuffle.",
        "When this creature enters, you may search your library and/or graveyard for a card named Ashiok,"
        " Sculptor of Fears, reveal it, and put it into your hand. If you search your library this way,"
        " shuffle it.",
    ),
    (
        "Farsight Adept",
        "Creature — Kor Wizard",
        "When Farsight Adept enters the battlefield, you and target opponent each draw a card.",
        "When this creature enters, you and target opponent each draw a card.",
    ),
    (
        "Vampiric Tutor",
        "Instant",
        "Search your library for a card, then shuffle and put that card on top. You lose 2 life.",
        "Search your library for a card, then shuffle your library and put that card on top of it. You lose 2"
        " life.",
    ),
    # instructions.toml (gact): the 2024 self-references and "enters" in the new instruction templates
    (
        "Reckless Amplimancer",
        "Creature — Elf Druid",
        "{4}{G}: Double Reckless Amplimancer's power and toughness until end of turn.",
        "{4}{G}: Double this creature's power and toughness until end of turn.",
    ),
    (
        "Quest for the Gravelord",
        "Enchantment",
        "Whenever a creature dies, you may put a quest counter on Quest for the Gravelord.\nRemove three"
        " quest counters from Quest for the Gravelord and sacrifice it: Create a 5/5 black Zombie Giant"
        " creature token.",
        "Whenever a creature dies, you may put a quest counter on this enchantment.\nRemove three quest"
        " counters from this enchantment and sacrifice it: Create a 5/5 black Zombie Giant creature token.",
    ),
    (
        "Specimen Collector",
        "Creature — Vedalken Wizard",
        "When Specimen Collector enters the battlefield, create a 1/1 green Squirrel creature token and a 0/3"
        " blue Crab creature token.",
        "When this creature enters, create a 1/1 green Squirrel creature token and a 0/3 blue Crab creature"
        " token.",
    ),
    (
        "Living Hive",
        "Creature — Elemental Insect",
        "Trample\nWhenever Living Hive deals combat damage to a player, create that many 1/1 green Insect"
        " creature tokens.",
        "Trample\nWhenever this creature deals combat damage to a player, create that many 1/1 green Insect"
        " creature tokens.",
    ),
    (
        "Tree of Redemption",
        "Creature — Plant",
        "Defender\n{T}: Exchange your life total with Tree of Redemption's toughness.",
        "Defender\n{T}: Exchange your life total with this creature's toughness.",
    ),
    # keyword lines and static abilities of the keyword and statics templates
    (
        "Security Detail",
        "Enchantment",
        "{W}{W}: Create a 1/1 white Soldier creature token. Activate only if you control no creatures and"
        " only once each turn.",
        "{W}{W}: Create a 1/1 white Soldier creature token. Activate this ability only if you control no"
        " creatures and only once each turn.",
    ),
    (
        "Trade Caravan",
        "Creature — Human Nomad",
        "Remove two currency counters from Trade Caravan: Untap target basic land. Activate only during an"
        " opponent's upkeep.",
        "Remove two currency counters from this creature: Untap target basic land. Activate this ability"
        " only during an opponent's upkeep.",
    ),
    (
        "Tatterkite",
        "Artifact Creature — Scarecrow",
        "Flying\nTatterkite can't block.\nTatterkite can't have counters put on it.",
        "Flying\nThis creature can't block.\nThis creature can't have counters put on it.",
    ),
    (
        "Storm Entity",
        "Creature — Elemental",
        "Haste\nStorm Entity enters the battlefield with a +1/+1 counter on it for each other spell cast"
        " this turn.",
        "Haste\nThis creature enters with a +1/+1 counter on it for each other spell cast this turn.",
    ),
    (
        "Awakened Amalgam",
        "Artifact Creature — Shapeshifter",
        "Awakened Amalgam's power and toughness are each equal to the number of differently named lands"
        " you control.",
        "This creature's power and toughness are each equal to the number of differently named lands you"
        " control.",
    ),
    (
        "Xantcha, Sleeper Agent",
        "Legendary Creature — Phyrexian Minion",
        "Xantcha, Sleeper Agent enters the battlefield under the control of an opponent of your choice.",
        "Xantcha, Sleeper Agent enters under the control of an opponent of your choice.",
    ),
]


def _parse(name: str, type_line: str, text: str) -> ParsedFace:
    return parse_oracle(text, name, type_line)


@pytest.mark.parametrize(
    "name, type_line, of_2022, other", SAME_CARD, ids=[c[0] + "/" + c[3][:24] for c in SAME_CARD]
)
def test_another_eras_wording_parses_into_the_abilities_of_the_2022_text(
    name: str, type_line: str, of_2022: str, other: str
) -> None:
    reference = _parse(name, type_line, of_2022)
    parsed = _parse(name, type_line, other)

    assert reference.complete and parsed.complete
    assert parsed.abilities == reference.abilities


@pytest.mark.parametrize(
    "name, type_line, of_2022, other", SAME_CARD, ids=[c[0] + "/" + c[3][:24] for c in SAME_CARD]
)
def test_a_parse_prints_back_in_the_wording_it_came_in(
    name: str, type_line: str, of_2022: str, other: str
) -> None:
    parsed = _parse(name, type_line, other)

    assert parsed.rendered_as_written == parsed.as_written == other.replace(name, "~")


def test_the_self_reference_keeps_its_words_and_the_name_becomes_the_self_token() -> None:
    normalized = normalize_oracle(
        "This land enters tapped.\nWhen Dismal Backwater enters, you gain 1 life.", "Dismal Backwater"
    )

    assert normalized.text == (
        "~ enters the battlefield tapped.\nWhen ~ enters the battlefield, you gain 1 life."
    )
    assert normalized.written == "This land enters tapped.\nWhen ~ enters, you gain 1 life."


def test_this_creature_inside_a_quoted_ability_stays_the_object_it_is_granted_to() -> None:
    normalized = normalize_oracle(
        'Enchanted creature has "When this creature dies, draw a card."', "Grim Omen"
    )

    assert normalized.text == 'Enchanted creature has "When this creature dies, draw a card."'


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("Chicken Egg enters or leaves the battlefield.", "~ enters or leaves the battlefield."),
        (
            "Creatures entering don't cause abilities to trigger.",
            "Creatures entering the battlefield don't cause abilities to trigger.",
        ),
        ("Whenever you enter a room, scry 1.", "Whenever you enter a room, scry 1."),
        ("Roll a six-sided die.", "Roll a d6."),
        ("Roll two twenty-sided dice.", "Roll two d20."),
        ("Activate this ability only any time you could cast a sorcery.", "Activate only as a sorcery."),
        ("If you search your library this way, shuffle it.", "If you search your library this way, shuffle."),
        ("Then shuffle it into your library.", "Then shuffle it into your library."),
        ("~ can block an additional creature.", "~ can block an additional creature each combat."),
        ("~ is put into a graveyard from play.", "~ is put into a graveyard from the battlefield."),
        ("{T}: Add {G} to your mana pool.", "{T}: Add {G}."),
    ],
)
def test_older_and_current_templates_read_as_the_2022_wording(written: str, canonical: str) -> None:
    normalized = normalize_oracle(written, "Chicken Egg")

    assert normalized.text == canonical
    assert normalized.written == written.replace("Chicken Egg", "~")


def test_a_parse_printed_back_differently_still_gets_its_wording_back() -> None:
    normalized = normalize_oracle(
        "When this creature enters, draw a card. ~ enters tapped.", "Elvish Visionary"
    )

    restored = normalized.restore(
        "When ~ enters the battlefield, draw two cards. ~ enters the battlefield tapped."
    )

    assert restored == "When this creature enters, draw two cards. ~ enters tapped."


def test_carddb_parse_json_shows_the_wording_a_current_text_came_in() -> None:
    face = parse_oracle("When this creature enters, you gain 3 life.", "Inspiring Cleric", "Creature")

    shown = face_to_dict(face)

    assert shown["rendered"] == "When ~ enters the battlefield, you gain 3 life."
    assert shown["rendered_as_written"] == "When this creature enters, you gain 3 life."


def test_carddb_parse_json_of_2022_wording_has_no_second_wording() -> None:
    face = parse_oracle("When Inspiring Cleric enters the battlefield, you gain 4 life.", "Inspiring Cleric")

    assert "rendered_as_written" not in face_to_dict(face)
