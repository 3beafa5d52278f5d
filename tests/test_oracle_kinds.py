"""Ability kinds as the Comprehensive Rules define them: mana abilities (605.1a, riders included),
Saga chapters (714.2), class levels (716) and level-up brackets (711), activation limits the rules
give Boast and Forecast, where an ability whose cost moves its card works (113.6m), and the lines
that apply while a spell is cast rather than when it resolves (601.2b–f). Real cards."""

from __future__ import annotations

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, Casting, Clause, Kind, Limit, Pronoun


def test_a_mana_ability_with_a_rider_is_still_a_mana_ability() -> None:
    """605.1a: it could add mana and has no target; dealing damage too does not change that."""
    face = parse_oracle("{T}: Add {C}{C}. Ancient Tomb deals 2 damage to you.", "Ancient Tomb", "Land")
    (tomb,) = face.abilities
    assert tomb.kind is Kind.MANA and face.complete


def test_a_painland_has_two_mana_abilities() -> None:
    text = "{T}: Add {C}.\n{T}: Add {W} or {U}. Adarkar Wastes deals 1 damage to you."
    face = parse_oracle(text, "Adarkar Wastes", "Land")
    assert [a.kind for a in face.abilities] == [Kind.MANA, Kind.MANA]


def test_mana_of_a_commanders_colors_is_a_mana_ability() -> None:
    text = "{T}: Add one mana of any color in your commander's color identity."
    (signet,) = parse_oracle(text, "Arcane Signet", "Artifact").abilities
    assert signet.kind is Kind.MANA


def test_an_ability_with_a_target_is_not_a_mana_ability() -> None:
    """605.1a: a mana ability has no target, even when it adds mana (Pyrite Spellbomb-like text)."""
    text = "{T}: Add {R}. ~ deals 1 damage to target creature."
    (ability,) = parse_oracle(text, "Sampler", "Artifact").abilities
    assert ability.kind is Kind.ACTIVATED


def test_saga_chapters_are_chapter_abilities_with_their_numbers() -> None:
    text = (
        "(As this Saga enters and after your draw step, add a lore counter. Sacrifice after III.)\n"
        "I — Each opponent sacrifices a creature or planeswalker.\nII — Each opponent discards a card.\n"
        "III — Put target creature or planeswalker card from a graveyard onto the battlefield under your "
        "control."
    )
    face = parse_oracle(text, "The Eldest Reborn", "Enchantment — Saga")
    assert [(a.kind, a.chapters) for a in face.abilities] == [
        (Kind.CHAPTER, (1,)),
        (Kind.CHAPTER, (2,)),
        (Kind.CHAPTER, (3,)),
    ]
    assert face.abilities[2].targets[0].description == "creature or planeswalker card from a graveyard"
    assert face.complete


def test_two_chapters_share_one_ability() -> None:
    face = parse_oracle("I, II — Draw a card.\nIII — Discard a card.", "Sampler", "Enchantment — Saga")
    assert [a.chapters for a in face.abilities] == [(1, 2), (3,)]
    assert face.rendered == face.normalized


def test_a_class_levels_abilities_belong_to_their_level() -> None:
    text = (
        "(Gain the next level as a sorcery to add its ability.)\nYou have no maximum hand size.\n"
        "{2}{U}: Level 2\nWhen this Class becomes level 2, draw two cards.\n{4}{U}: Level 3\n"
        "Whenever you draw a card, put a +1/+1 counter on target creature you control."
    )
    face = parse_oracle(text, "Wizard Class", "Enchantment — Class")
    assert [(a.kind, a.level) for a in face.abilities] == [
        (Kind.STATIC, None),
        (Kind.LEVEL, "2"),
        (Kind.TRIGGERED, "2"),
        (Kind.LEVEL, "3"),
        (Kind.TRIGGERED, "3"),
    ]


def test_a_level_up_brackets_keywords_belong_to_it() -> None:
    text = "Level up {W}\nLEVEL 2-6\n3/3\nFirst strike\nLEVEL 7+\n4/4\nDouble strike"
    face = parse_oracle(text, "Student of Warfare", "Creature — Human Knight")
    assert [(a.kind, a.level) for a in face.abilities][-2:] == [(Kind.LEVEL, "7+"), (Kind.KEYWORD, "7+")]


def test_boast_is_limited_as_its_keyword_says() -> None:
    """702.142a: only if the creature attacked this turn, and only once each turn (the text says
    so only in its reminder)."""
    text = (
        "First strike\nBoast abilities you activate cost {1} less to activate for each Dragon you control.\n"
        "Boast — {4}{R}: Create a 5/5 red Dragon creature token with flying. (Activate only if this "
        "creature attacked this turn and only once each turn.)"
    )
    boast = parse_oracle(text, "Dragonkin Berserker", "Creature — Human Berserker").abilities[2]
    assert (boast.kind, boast.ability_word) == (Kind.ACTIVATED, "Boast")
    assert boast.limits == (Limit.ATTACKED_THIS_TURN, Limit.ONCE_EACH_TURN)


def test_forecast_is_activated_from_the_hand_during_upkeep() -> None:
    text = (
        "Shadow (This creature can block or be blocked by only creatures with shadow.)\n"
        "Forecast — {1}{W}, Reveal Spirit en-Dal from your hand: Target creature gains shadow until end "
        "of turn. (Activate only during your upkeep and only once each turn.)"
    )
    face = parse_oracle(text, "Spirit en-Dal", "Creature — Spirit")
    forecast = face.abilities[1]
    assert forecast.limits == (Limit.YOUR_UPKEEP, Limit.ONCE_EACH_TURN)
    assert forecast.zone == "hand"
    assert face.complete


def test_an_ability_that_discards_its_card_works_from_the_hand() -> None:
    text = (
        "{T}: Add {G}.\nChannel — {1}{G}, Discard Boseiju, Who Endures: Destroy target artifact, "
        "enchantment, or nonbasic land an opponent controls."
    )
    _mana, channel = parse_oracle(text, "Boseiju, Who Endures", "Legendary Land").abilities
    assert (channel.ability_word, channel.zone) == ("Channel", "hand")


def test_an_additional_cost_is_a_cost_of_casting_not_a_step_of_resolving() -> None:
    text = (
        "As an additional cost to cast this spell, sacrifice a creature.\n"
        "Fling deals damage equal to the sacrificed creature's power to any target."
    )
    cost, spell = parse_oracle(text, "Fling", "Instant").abilities
    assert (cost.kind, cost.casting) == (Kind.CASTING, Casting.ADDITIONAL_COST)
    (sacrifice,) = cost.cost
    assert isinstance(sacrifice, Action) and sacrifice.verb == "sacrifice"
    assert spell.kind is Kind.SPELL


def test_cant_be_countered_is_a_property_of_casting() -> None:
    text = "This spell can't be countered.\nDestroy target nonland permanent with mana value 3 or less."
    uncounterable, spell = parse_oracle(text, "Abrupt Decay", "Instant").abilities
    assert (uncounterable.kind, uncounterable.casting) == (Kind.CASTING, Casting.UNCOUNTERABLE)
    assert spell.kind is Kind.SPELL


def test_an_alternative_cost_under_a_condition_is_one_cost_object() -> None:
    text = (
        "If it's not your turn, you may exile a green card from your hand rather than pay this spell's "
        "mana cost.\nDestroy up to two target artifacts and/or enchantments."
    )
    alternative, _spell = parse_oracle(text, "Force of Vigor", "Instant").abilities
    assert (alternative.kind, alternative.casting) == (Kind.CASTING, Casting.ALTERNATIVE_COST)
    (exile,) = alternative.cost
    assert isinstance(exile, Action) and exile.verb == "exile"


def test_the_exiled_card_links_an_ability_to_the_one_that_exiled_it() -> None:
    """607.2a: "the exiled card" names the card the first ability exiled."""
    text = (
        "Flash\nWhen Ashiok's Erasure enters the battlefield, exile target spell.\n"
        "Your opponents can't cast spells with the same name as the exiled card.\n"
        "When Ashiok's Erasure leaves the battlefield, return the exiled card to its owner's hand."
    )
    face = parse_oracle(text, "Ashiok's Erasure", "Enchantment")
    assert [a.linked for a in face.abilities] == [(), (2, 3), (1,), (1,)]


def test_the_chosen_type_links_an_ability_to_the_one_that_chose_it() -> None:
    text = (
        "Deathtouch\nAs Plague Engineer enters the battlefield, choose a creature type.\n"
        "Creatures of the chosen type your opponents control get -1/-1."
    )
    face = parse_oracle(text, "Plague Engineer", "Creature — Phyrexian Carrier")
    assert [a.linked for a in face.abilities] == [(), (2,), (1,)]


def test_entering_tapped_is_a_replacement_ability_in_either_wording() -> None:
    """614.1d: "~ enters the battlefield tapped" changes how the land enters; it is not a
    continuous effect (static) and not a step; its enters trigger stays a triggered ability."""
    for text in (
        "Dismal Backwater enters the battlefield tapped.\nWhen Dismal Backwater enters the battlefield, "
        "you gain 1 life.\n{T}: Add {U} or {B}.",
        "This land enters tapped.\nWhen this land enters, you gain 1 life.\n{T}: Add {U} or {B}.",
    ):
        face = parse_oracle(text, "Dismal Backwater", "Land")
        assert [a.kind for a in face.abilities] == [Kind.REPLACEMENT, Kind.TRIGGERED, Kind.MANA]
        assert face.complete


def test_entering_with_counters_or_as_a_copy_is_a_replacement_ability() -> None:
    """614.1c: "enters with …" and "enter … as a copy of …"."""
    text = "This creature enters with X +1/+1 counters on it."
    ballista = parse_oracle(text, "Walking Ballista", "Artifact Creature — Construct")
    clone = parse_oracle(
        "You may have Clone enter the battlefield as a copy of any creature on the battlefield.",
        "Clone",
        "Creature — Shapeshifter",
    )
    assert [a.kind for a in (*ballista.abilities, *clone.abilities)] == [Kind.REPLACEMENT, Kind.REPLACEMENT]
    assert ballista.complete and clone.complete


def test_a_choice_as_it_enters_is_a_replacement_ability() -> None:
    """614.12: "As ~ enters the battlefield, choose a creature type." (linked to the ability that
    reads the choice, 607)."""
    text = (
        "As Metallic Mimic enters the battlefield, choose a creature type.\n"
        "Metallic Mimic is the chosen type in addition to its other types."
    )
    choice, _type = parse_oracle(text, "Metallic Mimic", "Artifact Creature — Shapeshifter").abilities
    assert choice.kind is Kind.REPLACEMENT and choice.linked == (1,)


def test_a_spell_that_puts_a_creature_onto_the_battlefield_stays_a_spell() -> None:
    text = "Return target creature card from your graveyard to the battlefield tapped."
    (spell,) = parse_oracle(text, "Sampler", "Sorcery").abilities
    assert spell.kind is Kind.SPELL


def test_a_spell_that_creates_a_replacement_effect_stays_a_spell() -> None:
    """112.3a, 614.1: an instant's or sorcery's lines are its spell ability; "If that creature
    would die this turn, exile it instead." is an effect its resolution creates, and a permanent's
    "If ~ would die, exile it instead." a replacement ability."""
    text = (
        "Lava Coil deals 4 damage to target creature. "
        "If that creature would die this turn, exile it instead."
    )
    (spell,) = parse_oracle(text, "Lava Coil", "Sorcery").abilities
    own = "If Gloomshrieker would die, exile it instead."
    (ability,) = parse_oracle(own, "Gloomshrieker", "Creature").abilities
    assert (spell.kind, ability.kind) == (Kind.SPELL, Kind.REPLACEMENT)


def test_a_spells_colorless_line_is_a_characteristic_defining_ability() -> None:
    text = "Ghostfire is colorless.\nGhostfire deals 3 damage to any target."
    face = parse_oracle(text, "Ghostfire", "Instant")
    assert [a.kind for a in face.abilities] == [Kind.STATIC, Kind.SPELL]  # 604.3: it works in every zone


def test_a_licids_end_this_effect_is_a_standing_option_not_a_may_step() -> None:
    text = (
        "{G}, {T}: Nurturing Licid loses this ability and becomes an Aura enchantment with enchant "
        "creature. Attach it to target creature. You may pay {G} to end this effect."
    )
    (ability,) = parse_oracle(text, "Nurturing Licid", "Creature — Licid").abilities
    last = ability.effects[-1]
    assert isinstance(last, Clause) and last.subject == Pronoun("you")
    (option,) = last.predicates
    assert isinstance(option, Action) and option.verb == "may_pay_to_end_effect"  # 116.2e, never "may"


def test_casting_itself_without_paying_under_a_condition_is_an_alternative_cost() -> None:
    text = (
        "If an opponent controls an Island and you control a Forest, you may cast ~ without paying its "
        "mana cost."
    )
    (ability,) = parse_oracle(text, None, "Creature — Dryad").abilities
    assert (ability.kind, ability.casting) == (Kind.CASTING, Casting.ALTERNATIVE_COST)
    assert [c.verb for c in ability.cost] == ["without_paying"]  # type: ignore[union-attr]


def test_an_additional_cost_of_one_of_two_is_a_choice_of_costs() -> None:
    text = "As an additional cost to cast ~, sacrifice a creature or pay {3}{B}.\nExile target creature."
    casting = parse_oracle(text, None, "Sorcery").abilities[0]
    (choice,) = casting.cost
    assert isinstance(choice, Action) and choice.verb == "cost_choice"
    assert [c.verb for c in choice.arg("options")] == ["sacrifice", "pay_mana"]  # type: ignore[union-attr]


def test_an_additional_cost_you_may_pay_is_optional() -> None:
    text = "As an additional cost to cast ~, you may sacrifice any number of Spirits.\nDraw a card."
    (optional,) = parse_oracle(text, None, "Sorcery — Arcane").abilities[0].cost
    assert isinstance(optional, Action) and optional.verb == "optional_cost"
