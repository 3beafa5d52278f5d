"""Targets as a grammatical role (rules 115, 601.2c–d): each ability lists its targets in the
order the text names them, with how many may be chosen and what they may be, and the node that
names a target refers to its slot. Real cards."""

from __future__ import annotations

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, Noun, Pronoun, SelfRef, TargetKind, TargetSlot, walk
from carddb.oracle.show import face_to_dict


def _targets(text: str, name: str, type_line: str) -> list[TargetSlot]:
    face = parse_oracle(text, name, type_line)
    return [slot for ability in face.abilities for slot in ability.targets]


def _slotted(text: str, name: str, type_line: str) -> list[object]:
    """The nodes that name a target, in text order."""
    face = parse_oracle(text, name, type_line)
    nodes = [node for ability in face.abilities for step in ability.effects for node in walk(step)]
    return sorted(
        (n for n in nodes if isinstance(n, Noun | Pronoun | Action) and n.slot is not None),
        key=lambda n: n.slot or 0,
    )


def test_targets_are_numbered_in_the_order_the_text_names_them() -> None:
    text = "Target creature you control fights target creature you don't control."
    first, second = _targets(text, "Prey Upon", "Sorcery")
    assert (first.slot, first.description) == (1, "creature you control")
    assert (second.slot, second.description) == (2, "creature you don't control")


def test_the_nouns_that_name_targets_refer_to_their_slots() -> None:
    text = "Target creature you control fights target creature you don't control."
    mine, theirs = _slotted(text, "Prey Upon", "Sorcery")
    assert isinstance(mine, Noun) and mine.slot == 1 and mine.qualifiers[0].verb == "you_control"
    assert isinstance(theirs, Noun) and theirs.slot == 2


def test_a_description_keeps_its_qualifiers() -> None:
    (target,) = _targets(
        "Target permanent you control gains hexproof and indestructible until end of turn. You gain 2 life.",
        "Tamiyo's Safekeeping",
        "Instant",
    )
    assert target == TargetSlot(1, "permanent you control", kind=TargetKind.OBJECT)


def test_up_to_two_is_zero_to_two() -> None:
    text = (
        "If it's not your turn, you may exile a green card from your hand rather than pay this spell's "
        "mana cost.\nDestroy up to two target artifacts and/or enchantments."
    )
    (target,) = _targets(text, "Force of Vigor", "Instant")
    assert (target.description, target.min, target.max) == ("artifacts and/or enchantments", 0, 2)


def test_a_number_of_targets_is_exactly_that_many() -> None:
    (target,) = _targets("Destroy six target creatures.", "Hex", "Sorcery")
    assert (target.min, target.max) == (6, 6)
    (pair,) = _targets("Exchange control of two target creatures.", "Switcheroo", "Sorcery")
    assert (pair.min, pair.max) == (2, 2)


def test_x_target_creatures_is_the_x_chosen_on_casting() -> None:
    text = (
        "As an additional cost to cast this spell, discard X creature cards.\n"
        "Return X target creatures to their owners' hands."
    )
    (target,) = _targets(text, "Aether Tide", "Sorcery")
    assert target.variable and (target.min, target.max) == (0, None)


def test_damage_divided_among_one_two_or_three_targets_is_one_divided_slot() -> None:
    text = "Arc Lightning deals 3 damage divided as you choose among one, two, or three targets."
    (target,) = _targets(text, "Arc Lightning", "Sorcery")
    assert target == TargetSlot(1, "any target", 1, 3, TargetKind.ANY, divided=True)
    (damage,) = _slotted(text, "Arc Lightning", "Sorcery")
    assert isinstance(damage, Action) and damage.verb == "deal_damage_divided"


def test_counters_distributed_among_any_number_of_target_creatures() -> None:
    """601.2d: each target chosen gets at least one counter, so at least one target."""
    text = "Distribute four +1/+1 counters among any number of target creatures."
    (target,) = _targets(text, "Blessings of Nature", "Sorcery")
    assert (target.description, target.min, target.max, target.divided) == ("creatures", 1, None, True)


def test_counters_distributed_among_one_or_two_target_creatures() -> None:
    text = (
        "When Armament Corps enters the battlefield, distribute two +1/+1 counters among one or two "
        "target creatures you control."
    )
    (target,) = _targets(text, "Armament Corps", "Creature — Human Soldier")
    assert (target.description, target.min, target.max) == ("creatures you control", 1, 2)


def test_a_target_inside_a_possessive_is_a_player_target() -> None:
    text = "{T}, Sacrifice Tormod's Crypt: Exile target player's graveyard."
    (target,) = _targets(text, "Tormod's Crypt", "Artifact")
    assert (target.description, target.kind) == ("player", TargetKind.PLAYER)
    (zone,) = _slotted(text, "Tormod's Crypt", "Artifact")
    assert isinstance(zone, Action) and zone.verb == "zone" and zone.slot == 1


def test_a_target_creatures_power_targets_the_creature() -> None:
    text = "Switch target creature's power and toughness until end of turn."
    (target,) = _targets(text, "About Face", "Instant")
    assert (target.description, target.kind) == ("creature", TargetKind.OBJECT)


def test_target_spells_controller_targets_the_spell() -> None:
    text = (
        "Choose a card name, then target spell's controller reveals their hand. If a card with the "
        "chosen name is revealed this way, counter that spell."
    )
    (target,) = _targets(text, "Denied!", "Instant")
    assert (target.description, target.kind) == ("spell", TargetKind.OBJECT)
    (controller,) = _slotted(text, "Denied!", "Instant")
    assert isinstance(controller, Noun) and controller.description == "spell's controller"


def test_any_target_and_a_player_in_a_qualifier() -> None:
    text = (
        "[+1]: Target permanent doesn't untap during its controller's next untap step.\n"
        "[−2]: Ajani Vengeant deals 3 damage to any target and you gain 3 life.\n"
        "[−7]: Destroy all lands target player controls."
    )
    face = parse_oracle(text, "Ajani Vengeant", "Legendary Planeswalker — Ajani")
    assert [[(t.description, t.kind) for t in a.targets] for a in face.abilities] == [
        [("permanent", TargetKind.OBJECT)],
        [("any target", TargetKind.ANY)],
        [("player", TargetKind.PLAYER)],
    ]


def test_targets_are_in_the_json_of_carddb_parse() -> None:
    face = parse_oracle("Destroy six target creatures.", "Hex", "Sorcery")
    (ability,) = face_to_dict(face)["abilities"]
    assert ability["targets"] == [
        {
            "node": "TargetSlot",
            "slot": 1,
            "description": "creatures",
            "min": 6,
            "max": 6,
            "kind": "object",
            "variable": False,
            "divided": False,
            "reflexive": False,
        }
    ]


def test_a_reflexive_triggers_target_is_chosen_with_that_trigger() -> None:
    """603.12: "When you do, …" is a triggered ability of its own; its target is chosen as it is
    put on the stack, after the sacrifice."""
    text = (
        'Equipped creature gets +1/+0 and has "Whenever this creature attacks, you may sacrifice Spare '
        'Dagger. When you do, this creature deals 1 damage to any target."\nEquip {1}'
    )
    face = parse_oracle(text, "Spare Dagger", "Artifact — Equipment")
    granted = face.abilities[0].effects[0].predicates[1].arg("ability")
    (target,) = granted.targets
    assert (target.description, target.reflexive) == ("any target", True)
    assert face.complete


def test_support_targets_up_to_n_other_creatures_on_a_permanent() -> None:
    # 701.35a: the words of "support N" do not say "target"; its meaning does
    text = "When Relief Captain enters the battlefield, support 3."
    (slot,) = _targets(text, "Relief Captain", "Creature — Kor Knight Ally")
    assert (slot.description, slot.min, slot.max, slot.kind) == ("other creatures", 0, 3, TargetKind.OBJECT)
    (support,) = _slotted(text, "Relief Captain", "Creature — Kor Knight Ally")
    assert isinstance(support, Action) and support.verb == "support" and support.slot == 1


def test_support_on_an_instant_or_sorcery_targets_up_to_n_creatures() -> None:
    (slot,) = _targets("Support 2.", "Shoulder to Shoulder", "Sorcery")
    assert (slot.description, slot.min, slot.max) == ("creatures", 0, 2)
    (x,) = _targets("Support X.", "The Crowd Goes Wild", "Sorcery")
    assert (x.min, x.max, x.variable) == (0, None, True)


def test_it_in_a_later_targets_description_names_the_target_before_it() -> None:
    text = (
        "Exchange control of target artifact or creature and another target permanent that shares one "
        "of those types with it."
    )
    first, second = _slotted(text, "Legerdemain", "Sorcery")
    assert isinstance(first, Noun) and isinstance(second, Noun) and second.slot == 2
    (it,) = [n for n in walk(second.qualifiers) if isinstance(n, Pronoun)]
    assert it.word == "it" and it.antecedents == (first,)


def test_its_controller_after_the_one_target_is_that_targets_controller() -> None:
    text = "Counter target noncreature spell unless its controller pays {2}."
    face = parse_oracle(text, "Spell Pierce", "Instant")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    (target,) = [n for n in nodes if isinstance(n, Noun) and n.slot == 1]
    (controller,) = [n for n in nodes if isinstance(n, Pronoun) and n.word == "its controller"]
    assert controller.antecedents == (target,)


def test_that_creatures_controller_after_the_one_target_is_that_targets_controller() -> None:
    text = (
        "Put a -1/-1 counter on target creature. Blur of Blades deals 2 damage to that creature's controller."
    )
    face = parse_oracle(text, "Blur of Blades", "Instant")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    (target,) = [n for n in nodes if isinstance(n, Noun) and n.slot == 1]
    (controller,) = [n for n in nodes if isinstance(n, Noun) and n.description == "creature's controller"]
    assert controller.antecedents == (target,)


def test_its_controller_in_a_for_each_body_is_not_the_targets() -> None:
    text = (
        "When Soul of Emancipation enters the battlefield, destroy up to three other target nonland "
        "permanents. For each of those permanents, its controller creates a 3/3 white Angel creature "
        "token with flying."
    )
    face = parse_oracle(text, "Soul of Emancipation", "Creature — Avatar")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    (controller,) = [n for n in nodes if isinstance(n, Pronoun) and n.word == "its controller"]
    assert controller.antecedents == ()


def test_a_keyword_that_stands_for_a_targeting_ability_has_its_target() -> None:
    # 702.6a "Equip [cost]": "[Cost]: Attach this permanent to target creature you control."
    (equip,) = _targets("Equipped creature gets +2/+0.\nEquip {1}", "Bonesplitter", "Artifact — Equipment")
    assert (equip.slot, equip.description, equip.min, equip.max) == (1, "creature you control", 1, 1)
    (knight,) = _targets("Equip Knight {1}", "Puresteel Paladin", "Artifact — Equipment")
    assert knight.description == "Knight you control"
    # 702.5a: the enchant ability says what the Aura spell can target
    (aura,) = _targets("Enchant player", "Curse of Opulence", "Enchantment — Aura Curse")
    assert (aura.description, aura.kind) == ("player", TargetKind.PLAYER)
    (spirit,) = _targets("Soulshift 2", "Thief of Hope", "Creature — Spirit")
    assert spirit.description == "Spirit card with mana value 2 or less from your graveyard"
    # 702.124i: "When this permanent enters, target player may search their library for …"
    (partner,) = _targets("Partner with Toothy, Imaginary Friend", "Pir, Imaginative Rascal", "Creature")
    assert (partner.description, partner.kind) == ("player", TargetKind.PLAYER)


def test_a_keyword_lines_own_sentences_are_numbered_after_its_target() -> None:
    face = parse_oracle("Equip {2}. Activate only once each turn.", "Sword", "Artifact — Equipment")
    (ability,) = face.abilities
    assert [s.slot for s in ability.targets] == [1]


def test_up_to_that_many_targets_is_as_many_as_named_before() -> None:
    text = (
        "Whenever Cephalid Constable deals combat damage to a player, return up to that many target "
        "permanents that player controls to their owner's hand."
    )
    (slot,) = _targets(text, "Cephalid Constable", "Creature — Cephalid Wizard")
    assert slot.description == "permanents that player controls"
    assert (slot.min, slot.max, slot.variable) == (0, None, True)


def test_how_a_target_is_cast_is_not_part_of_its_description() -> None:
    text = "You may cast target instant card from your graveyard without paying its mana cost."
    (slot,) = _targets(text, "Test", "Sorcery")
    assert slot.description == "instant card from your graveyard"


def test_that_creature_or_that_player_after_the_one_target_is_that_target() -> None:
    text = (
        "When Zealous Conscripts enters the battlefield, gain control of target permanent until end of "
        "turn. Untap that permanent. It gains haste until end of turn."
    )
    face = parse_oracle(text, "Zealous Conscripts", "Creature — Giant Warrior")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    target, that = [n for n in nodes if isinstance(n, Noun)]
    assert target.slot == 1 and that.determiners == ("that",) and that.antecedents == (target,)
    text = (
        "When Hellhole Rats enters the battlefield, target player discards a card. Hellhole Rats deals "
        "damage to that player equal to that card's mana value."
    )
    face = parse_oracle(text, "Hellhole Rats", "Creature — Rat")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    player, that_player = [n for n in nodes if isinstance(n, Noun) and n.description == "player"]
    assert that_player.antecedents == (player,)


def test_that_card_is_the_target_exiled_before_it() -> None:
    text = (
        "Whenever a player cycles a card, you may exile target creature. If you do, return that card to "
        "the battlefield under its owner's control at the beginning of the next end step."
    )
    face = parse_oracle(text, "Astral Slide", "Enchantment")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    (target,) = [n for n in nodes if isinstance(n, Noun) and n.slot == 1]
    (card,) = [n for n in nodes if isinstance(n, Noun) and n.description == "card"]
    assert card.antecedents == (target,)  # 400.7: the creature exiled is a card


def test_it_after_the_one_target_is_that_target_while_nothing_else_was_named() -> None:
    face = parse_oracle("Untap target creature. It gets +2/+4 until end of turn.", "Inspirit", "Instant")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    (target,) = [n for n in nodes if isinstance(n, Noun)]
    (it,) = [n for n in nodes if isinstance(n, Pronoun)]
    assert it.antecedents == (target,)
    text = (
        "Gain control of target Equipment, then create a 0/0 black Phyrexian Germ creature token and attach "
        "that Equipment to it."
    )
    face = parse_oracle(text, "Grip of Phyresis", "Instant — Kindred Phyrexian Germ")
    (germ,) = [n for step in face.abilities[0].effects for n in walk(step) if isinstance(n, Pronoun)]
    assert germ.word == "it" and germ.antecedents == ()  # the token created since


def test_it_after_the_card_itself_is_named_again_is_not_linked() -> None:
    text = (
        "Illuminate deals X damage to target creature. If this spell was kicked with its {2}{R} kicker, "
        "it deals X damage to that creature's controller."
    )
    face = parse_oracle(text, "Illuminate", "Sorcery")
    (it,) = [
        n for s in face.abilities[0].effects for n in walk(s) if isinstance(n, Pronoun) and n.word == "it"
    ]
    assert it.antecedents == ()  # the spell, named since the target


def test_a_target_in_the_body_of_for_each_is_chosen_once_for_each() -> None:
    text = (
        "For each opponent, gain control of up to one target creature that player controls until end of turn."
    )
    (slot,) = _targets(text, "Mass Mutiny", "Sorcery")
    assert (slot.description, slot.min, slot.max, slot.each) == (
        "creature that player controls",
        0,
        1,
        "opponent",
    )


def test_it_before_a_second_target_is_the_first_target() -> None:
    text = (
        "Target creature you control gets +1/+0 until end of turn. It deals damage equal to its power to "
        "target creature an opponent controls."
    )
    face = parse_oracle(text, "Ambuscade", "Instant")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    first = next(n for n in nodes if isinstance(n, Noun) and n.slot == 1)
    (it,) = [n for n in nodes if isinstance(n, Pronoun) and n.word == "it"]
    assert it.antecedents == (first,)


def test_it_in_the_first_targets_description_after_self_is_self() -> None:
    text = "{R}: Flowstone Salamander deals 1 damage to target creature blocking it."
    face = parse_oracle(text, "Flowstone Salamander", "Creature — Salamander")
    (it,) = [n for s in face.abilities[0].effects for n in walk(s) if isinstance(n, Pronoun)]
    assert it.antecedents == (SelfRef(),)


def test_those_creatures_after_several_targets_are_those_targets() -> None:
    text = (
        "Tap up to two target creatures. Those creatures don't untap during their controller's next "
        "untap step."
    )
    face = parse_oracle(text, "Decision Paralysis", "Instant")
    nodes = [n for step in face.abilities[0].effects for n in walk(step)]
    target, those = [n for n in nodes if isinstance(n, Noun)]
    assert target.slot == 1 and those.antecedents == (target,)


def test_them_after_tokens_created_for_each_target_is_not_the_targets() -> None:
    text = (
        "Choose up to two target creatures you don't control. For each of those creatures, create a "
        "token that's a copy of that creature. Those tokens gain haste. Exile them at the beginning of "
        "the next end step."
    )
    face = parse_oracle(text, "Hate Mirage", "Sorcery")
    (them,) = [
        n for s in face.abilities[0].effects for n in walk(s) if isinstance(n, Pronoun) and n.word == "them"
    ]
    assert them.antecedents == ()


def test_that_player_after_a_trigger_naming_one_player_is_that_player() -> None:
    text = "Whenever an opponent draws a card, Fate Unraveler deals 1 damage to that player."
    face = parse_oracle(text, "Fate Unraveler", "Enchantment Creature — Hag")
    ability = face.abilities[0]
    (opponent,) = [n for n in walk(ability.trigger) if isinstance(n, Noun) and n.description == "opponent"]
    (player,) = [
        n for step in ability.effects for n in walk(step) if isinstance(n, Noun) and n.description == "player"
    ]
    assert player.antecedents == (opponent,)


def test_that_player_is_not_linked_to_a_trigger_naming_two_players() -> None:
    text = "Whenever a player attacks another player, that player draws a card."
    face = parse_oracle(text, "Nobody", "Enchantment")
    players = [n for step in face.abilities[0].effects for n in walk(step) if isinstance(n, Noun)]
    assert all(not n.antecedents for n in players)
