"""Scope: what each part of a sentence covers. "You may" through ", then …", a delayed "at …" and a
duration bound to the clause they end, alternative and additional costs as cost objects, the payer
of "unless … pays", and qualifiers attached where the meaning requires. Real cards."""

from __future__ import annotations

from carddb.oracle import parse_oracle
from carddb.oracle.model import (
    Action,
    Casting,
    Clause,
    Conditional,
    Energy,
    Kind,
    ManaCost,
    Noun,
    Pronoun,
    SameSubject,
    Sequence,
)


def test_you_may_covers_the_search_through_then_shuffle() -> None:
    text = (
        "When Alpine Guide enters the battlefield, you may search your library for a Mountain card, put "
        "that card onto the battlefield tapped, then shuffle."
    )
    face = parse_oracle(text, "Alpine Guide", "Snow Creature — Human Scout")
    (optional,) = face.abilities[0].effects
    assert isinstance(optional, Conditional) and optional.word == "may"
    assert optional.condition == Pronoun("you")
    assert isinstance(optional.body, Sequence)
    assert [p.verb for s in optional.body.steps for p in s.predicates] == ["search_library", "shuffle"]
    assert face.complete


def test_you_may_stops_before_a_step_with_a_subject_of_its_own() -> None:
    text = "You may tap or untap target permanent, then you may tap or untap another target permanent."
    face = parse_oracle(text, "Toils of Night and Day", "Instant — Arcane")
    (both,) = face.abilities[0].effects
    assert isinstance(both, Sequence) and len(both.steps) == 2
    first, second = both.steps  # two options, the second not inside the first
    assert isinstance(first, Clause) and [p.verb for p in first.predicates] == ["may"]
    assert isinstance(second, Clause) and second.subject == Pronoun("you")
    assert [p.verb for p in second.predicates] == ["may"]
    assert face.complete


def test_the_players_who_did_not_act_on_their_option_are_not_part_of_it() -> None:
    text = (
        "At the beginning of your end step, draw a card. Each player may put a land card from their hand "
        "onto the battlefield, then each opponent who didn't draws a card."
    )
    face = parse_oracle(text, "Kynaios and Tiro of Meletis", "Legendary Creature — Human Soldier")
    _draw, option = face.abilities[0].effects
    assert isinstance(option, Sequence)
    optional, others = option.steps
    assert isinstance(optional, Clause) and [p.verb for p in optional.predicates] == ["may"]
    assert isinstance(others, Clause) and isinstance(others.subject, Noun)
    assert [q.verb for q in others.subject.qualifiers] == ["who_did_not"]
    assert face.complete


def test_a_delayed_return_binds_to_its_own_clause_not_to_the_life_gain() -> None:
    text = (
        "You gain 5 life.\nWhen a spell or ability an opponent controls causes you to discard Mangara's "
        "Blessing, you gain 2 life, and you return Mangara's Blessing from your graveyard to your hand "
        "at the beginning of the next end step."
    )
    face = parse_oracle(text, "Mangara's Blessing", "Instant")
    (both,) = face.abilities[1].effects
    assert isinstance(both, Sequence)
    now, later = both.steps
    assert isinstance(now, Clause) and now.predicates[0].verb == "gain_life"
    assert isinstance(later, Conditional) and later.word == "at"
    assert isinstance(later.body, Clause) and later.body.predicates[0].verb == "return_from"
    assert face.complete


def test_a_duration_after_a_clause_with_its_own_subject_lasts_for_that_clause() -> None:
    text = (
        "Flying\nAt the beginning of your upkeep, you may gain control of target permanent until end of "
        "turn. If you do, untap it and it gains haste until end of turn."
    )
    face = parse_oracle(text, "Dominus of Fealty", "Creature — Spirit Avatar")
    if_you_do = face.abilities[1].effects[1]
    assert isinstance(if_you_do, Conditional)
    clause = if_you_do.body
    assert isinstance(clause, Clause) and clause.duration is None  # untapping lasts for no time
    untap, gains = clause.predicates
    assert isinstance(untap, Action) and untap.verb == "untap"
    assert isinstance(gains, Clause) and gains.duration == "until end of turn"
    assert face.complete


def test_an_alternative_cost_of_two_actions_is_one_cost_object() -> None:
    text = (
        "You may pay {W} and tap four untapped creatures you control with flying rather than pay this "
        "spell's mana cost.\nFlying, lifelink"
    )
    face = parse_oracle(text, "Sephara, Sky's Blade", "Legendary Creature — Angel")
    alternative = face.abilities[0]
    assert (alternative.kind, alternative.casting) == (Kind.CASTING, Casting.ALTERNATIVE_COST)
    assert [item.verb for item in alternative.cost if isinstance(item, Action)] == ["pay_mana", "tap"]
    assert face.rendered == face.normalized


def test_an_optional_additional_cost_and_its_when_you_do_are_one_casting_line() -> None:
    text = (
        "As an additional cost to cast this spell, you may sacrifice one or more creatures. When you do, "
        "copy this spell for each creature sacrificed this way.\nYou draw a card and you lose 1 life."
    )
    face = parse_oracle(text, "Plumb the Forbidden", "Instant")
    casting, spell = face.abilities
    assert (casting.kind, casting.casting) == (Kind.CASTING, Casting.ADDITIONAL_COST)
    (optional,) = casting.cost
    assert isinstance(optional, Action) and optional.verb == "optional_cost"
    when = casting.effects[-1]  # paying the cost triggers it, as the spell is cast
    assert isinstance(when, Conditional) and when.trigger == "reflexive"
    assert spell.kind is Kind.SPELL and len(spell.effects) == 1
    assert face.complete


def test_an_additional_cost_of_two_actions_is_a_casting_line_of_both() -> None:
    text = (
        "As an additional cost to cast this spell, sacrifice all permanents you control and discard your "
        "hand.\nTarget player loses 5 life."
    )
    face = parse_oracle(text, "Kaervek's Spite", "Instant")
    casting = face.abilities[0]
    assert (casting.kind, casting.casting) == (Kind.CASTING, Casting.ADDITIONAL_COST)
    assert [c.verb for c in casting.cost if isinstance(c, Action)] == ["sacrifice", "discard_hand"]
    assert face.rendered == face.normalized


def test_unless_names_who_may_pay() -> None:
    face = parse_oracle("Counter target spell unless its controller pays {3}.", "Mana Leak", "Instant")
    (unless,) = face.abilities[0].effects
    assert isinstance(unless, Conditional) and unless.word == "unless"
    assert unless.payer == Pronoun("its controller")


def test_who_controls_them_describes_the_creatures_not_the_chosen_type() -> None:
    text = (
        "Deathtouch\nAs Plague Engineer enters the battlefield, choose a creature type.\n"
        "Creatures of the chosen type your opponents control get -1/-1."
    )
    face = parse_oracle(text, "Plague Engineer", "Creature — Phyrexian Carrier")
    (clause,) = face.abilities[2].effects
    assert isinstance(clause, Clause) and isinstance(clause.subject, Noun)
    of_type, controlled = clause.subject.qualifiers
    assert of_type.verb == "of_the_chosen_type" and not of_type.args
    assert controlled.verb == "player_controls" and controlled.form_name == "your_opponents"
    assert face.complete


def test_with_flying_describes_only_the_creature_of_a_list_of_types() -> None:
    face = parse_oracle(
        "Destroy target artifact, enchantment, or creature with flying.", "Broken Wings", "Instant"
    )
    noun = face.abilities[0].effects[0].predicates[0].arg("what")
    assert isinstance(noun, Noun) and noun.narrowed == "creature"


def test_with_hexproof_describes_the_whole_creature_of_two_colours() -> None:
    text = (
        "{T}: Add {G} or {U}.\n{G}{U}: Simic Keyrune becomes a 2/3 green and blue Crab artifact creature "
        "with hexproof until end of turn. (It can't be the target of spells or abilities your opponents "
        "control.)"
    )
    face = parse_oracle(text, "Simic Keyrune", "Artifact")
    (becomes,) = face.abilities[1].effects
    assert isinstance(becomes, Clause) and isinstance(becomes.predicates[0], Action)
    creature = becomes.predicates[0].arg("what")
    assert isinstance(creature, Noun) and creature.narrowed is None  # as in the create phrase's token
    assert [q.verb for q in creature.qualifiers] == ["with_keywords"]
    text = "Destroy target blue or black creature with flying."
    (destroy,) = parse_oracle(text, "Wallop", "Sorcery").abilities
    (clause,) = destroy.effects
    assert isinstance(clause, Clause) and isinstance(clause.predicates[0], Action)
    target = clause.predicates[0].arg("what")
    assert isinstance(target, Noun) and target.narrowed is None


def test_with_flying_describes_every_creature_alternative() -> None:
    face = parse_oracle("Destroy target creature with flying.", "Plummet", "Instant")
    noun = face.abilities[0].effects[0].predicates[0].arg("what")
    assert isinstance(noun, Noun) and noun.narrowed is None


def test_you_may_covers_both_predicates_joined_by_and() -> None:
    text = "Whenever Gustcloak Runner becomes blocked, you may untap it and remove it from combat."
    face = parse_oracle(text, "Gustcloak Runner", "Creature — Human Soldier")
    (optional,) = face.abilities[0].effects
    assert isinstance(optional, Conditional) and optional.word == "may"
    assert optional.condition == Pronoun("you")
    assert isinstance(optional.body, Clause) and optional.body.subject is None
    assert [p.verb for p in optional.body.predicates if isinstance(p, Action)] == [
        "untap",
        "remove_from_combat",
    ]
    assert face.rendered == face.normalized


def test_you_may_have_it_do_both_predicates() -> None:
    text = (
        "Whenever you cast an artifact spell, you may have target creature get +2/+0 and gain deathtouch "
        "until end of turn."
    )
    face = parse_oracle(text, "Painsmith", "Creature — Human Artificer")
    ((had,),) = [step.predicates for step in face.abilities[0].effects if isinstance(step, Clause)]
    assert isinstance(had, Action) and had.verb == "may_have"
    done = had.arg("action")
    assert isinstance(done, Clause) and [p.verb for p in done.predicates if isinstance(p, Action)] == [
        "gets",
        "gains",
    ]
    assert done.duration == "until end of turn"


def test_a_duration_after_parallel_clauses_ends_them_all() -> None:
    text = (
        "Whenever Agrus Kos, Wojek Veteran attacks, attacking red creatures get +2/+0 and attacking white "
        "creatures get +0/+2 until end of turn."
    )
    face = parse_oracle(text, "Agrus Kos, Wojek Veteran", "Legendary Creature — Human Soldier")
    (both,) = face.abilities[0].effects
    assert isinstance(both, Clause) and both.duration == "until end of turn"
    assert isinstance(both.predicates[1], Clause) and both.predicates[1].duration is None


def test_when_you_do_is_a_reflexive_trigger_with_its_own_duration() -> None:
    text = "You may exert Khenra Scrapper as it attacks. When you do, it gets +2/+0 until end of turn."
    face = parse_oracle(text, "Khenra Scrapper", "Creature — Jackal Warrior")
    _, when = face.abilities[0].effects
    assert isinstance(when, Conditional) and (when.word, when.trigger) == ("when", "reflexive")
    assert isinstance(when.body, Clause) and when.body.duration == "until end of turn"


def test_when_that_creature_dies_this_turn_is_a_delayed_trigger() -> None:
    text = (
        "Put a -1/-1 counter on target creature. When that creature dies this turn, its controller gets a "
        "poison counter."
    )
    face = parse_oracle(text, "Virulent Wound", "Instant")
    _, when = face.abilities[0].effects
    assert isinstance(when, Conditional) and (when.word, when.trigger) == ("when", "delayed")


def test_unless_a_player_sacrifices_is_a_payment_naming_payer_and_cost() -> None:
    text = (
        "When Demanding Dragon enters the battlefield, it deals 5 damage to target opponent unless that "
        "player sacrifices a creature."
    )
    face = parse_oracle(text, "Demanding Dragon", "Creature — Dragon")
    (unless,) = face.abilities[0].effects
    assert isinstance(unless, Conditional) and unless.word == "unless"
    assert isinstance(unless.payer, Noun) and unless.payer.description == "player"
    assert isinstance(unless.cost, Action) and unless.cost.verb == "sacrifice"
    assert face.rendered == face.normalized


def test_you_may_x_and_y_covers_the_steps_through_then() -> None:
    face = parse_oracle(
        "You may sacrifice a creature and discard a card, then draw a card.", "Card", "Sorcery"
    )
    (optional,) = face.abilities[0].effects
    assert isinstance(optional, Conditional) and optional.word == "may"
    assert isinstance(optional.body, Sequence) and len(optional.body.steps) == 2
    assert face.rendered == face.normalized


def test_a_duration_after_three_parallel_clauses_ends_them_all() -> None:
    text = (
        "Target creature gets -3/-0, up to one other target creature gets -2/-0, and up to one other target "
        "creature gets -1/-0 until end of turn."
    )
    face = parse_oracle(text, "Card", "Instant")
    (all_three,) = face.abilities[0].effects
    assert isinstance(all_three, Clause) and all_three.duration == "until end of turn"
    assert all(isinstance(p, Clause) and p.duration is None for p in all_three.predicates[1:])


def test_a_duration_after_two_lasting_changes_of_two_subjects_ends_both() -> None:
    text = "Target creature gets +2/+2 and creatures you control gain trample until end of turn."
    face = parse_oracle(text, "Card", "Instant")
    (both,) = face.abilities[0].effects
    assert isinstance(both, Clause) and both.duration == "until end of turn"
    untap = parse_oracle("Untap target creature and it gains haste until end of turn.", "Card", "Instant")
    (one,) = untap.abilities[0].effects  # a one-shot instruction first: the duration is the last clause's
    assert isinstance(one, Clause) and one.duration is None
    assert isinstance(one.predicates[1], Clause) and one.predicates[1].duration == "until end of turn"


def _zone_of(noun: object) -> object:
    assert isinstance(noun, Noun)
    return noun.qualifiers[0].arg("zone") if noun.qualifiers else None


def test_a_zone_after_play_and_cast_phrases_is_where_the_lands_come_from_too() -> None:
    face = parse_oracle("During your turn, you may play lands and cast spells from your graveyard.", "Urn")
    assert face.complete
    steps = _walk(face.abilities[0].effects)
    (optional,) = [n for n in steps if isinstance(n, Conditional) and n.word == "may"]
    assert isinstance(optional, Conditional) and isinstance(optional.body, Clause)  # one option, both
    play, cast = optional.body.predicates
    assert isinstance(play, Action) and isinstance(cast, Action)
    lands, spells = play.arg("what"), cast.arg("what")
    assert isinstance(lands, Noun) and lands.zone_shared
    assert _zone_of(lands) == _zone_of(spells) is not None
    assert face.rendered == face.normalized  # the zone is written once


def test_a_zone_after_a_spell_with_a_qualifier_of_its_own_is_where_the_land_comes_from_too() -> None:
    text = (
        "During each of your turns, you may play a land and cast a permanent spell of each permanent type "
        "from your graveyard. (If a card has multiple permanent types, choose one as you play it.)"
    )
    face = parse_oracle(text, "Muldrotha, the Gravetide", "Legendary Creature — Elemental Avatar")
    assert face.complete
    steps = _walk(face.abilities[0].effects)
    (optional,) = [n for n in steps if isinstance(n, Conditional) and n.word == "may"]
    assert isinstance(optional.body, Clause)
    play, cast = optional.body.predicates
    assert isinstance(play, Action) and isinstance(cast, Action)
    land, spell = play.arg("what"), cast.arg("what")
    assert isinstance(land, Noun) and land.zone_shared and isinstance(spell, Noun)
    assert _zone_of(land) == spell.qualifiers[-1].arg("zone") is not None
    assert [q.verb for q in land.qualifiers] == ["in_zone"]  # not the spell's "of each permanent type"
    assert face.rendered == face.normalized


def test_a_zone_after_cant_play_or_cast_is_where_the_lands_come_from_too() -> None:
    face = parse_oracle("Each opponent can't play lands or cast spells from their hand.", "Gag")
    assert face.complete
    (clause,) = face.abilities[0].effects
    assert isinstance(clause, Clause) and isinstance(clause.predicates[0], Action)
    restriction = clause.predicates[0]
    assert _zone_of(restriction.arg("what")) == _zone_of(restriction.arg("spells")) is not None


def _walk(steps: object) -> list[object]:
    found: list[object] = []
    pending = list(steps) if isinstance(steps, list | tuple) else [steps]
    while pending:
        node = pending.pop(0)
        found.append(node)
        if isinstance(node, Conditional):
            pending.append(node.body)
    return found


def test_a_step_after_then_goes_on_with_the_subject_its_verb_agrees_with() -> None:
    text = (
        "When Whirlpool Warrior enters the battlefield, shuffle the cards from your hand into your library, "
        "then draw that many cards.\n{R}, Sacrifice Whirlpool Warrior: Each player shuffles the cards from "
        "their hand into their library, then draws that many cards."
    )
    face = parse_oracle(text, "Whirlpool Warrior", "Creature — Merfolk Warrior")
    yours, each = (ability.effects[0] for ability in face.abilities)
    assert isinstance(yours, Sequence) and [s.subject for s in yours.steps if isinstance(s, Clause)] == [
        None,
        None,
    ]
    assert isinstance(each, Sequence)
    first, then = each.steps
    assert (
        isinstance(first, Clause)
        and isinstance(first.subject, Noun)
        and first.subject.description == "player"
    )
    assert isinstance(then, Clause) and then.subject == SameSubject()  # "draws": each player's, not yours
    assert face.complete


def test_a_third_person_verb_after_then_keeps_a_subject_a_plain_one_does_not() -> None:
    text = (
        "{T}: Add {U}. Cephalid Coliseum deals 1 damage to you.\nThreshold — {U}, {T}, Sacrifice Cephalid "
        "Coliseum: Target player draws three cards, then discards three cards. Activate only if seven or "
        "more cards are in your graveyard."
    )
    face = parse_oracle(text, "Cephalid Coliseum", "Land")
    (both,) = face.abilities[-1].effects
    assert isinstance(both, Sequence) and isinstance(both.steps[1], Clause)
    assert both.steps[1].subject == SameSubject()  # the target player discards
    text = "Whenever you cast a noncreature spell, Burning Prophet gets +1/+0 until end of turn, then scry 1."
    face = parse_oracle(text, "Burning Prophet", "Creature — Human Wizard")
    (both,) = face.abilities[0].effects
    assert isinstance(both, Sequence) and isinstance(both.steps[1], Clause)
    assert both.steps[1].subject is None  # "scry": the controller's instruction, not ~'s


def test_if_able_is_part_of_the_requirement_not_a_condition() -> None:
    text = (
        "Haste\nGoblin Fire Fiend must be blocked if able.\n{R}: Goblin Fire Fiend gets +1/+0 until end of "
        "turn."
    )
    face = parse_oracle(text, "Goblin Fire Fiend", "Creature — Goblin Berserker")
    (requirement,) = face.abilities[1].effects
    assert isinstance(requirement, Clause) and [p.verb for p in requirement.predicates] == ["must_be_blocked"]
    text = (
        "Trample\nAt the beginning of your upkeep, if you don't control a creature named Keeper of Kookus, "
        "Kookus deals 3 damage to you and attacks this turn if able.\n{R}: Kookus gets +1/+0 until end of "
        "turn."
    )
    face = parse_oracle(text, "Kookus", "Creature — Djinn")
    (both,) = face.abilities[1].effects  # the damage is not under "if able"
    assert isinstance(both, Clause) and [p.verb for p in both.predicates] == ["deal_damage", "attacks"]
    assert both.duration == "this turn" and both.duration_in_phrase
    assert face.rendered == face.normalized


def test_a_requirement_this_combat_keeps_its_duration() -> None:
    text = (
        "Whenever Avalanche Tusker attacks, target creature defending player controls blocks it this combat "
        "if able."
    )
    face = parse_oracle(text, "Avalanche Tusker", "Creature — Elephant Warrior")
    (requirement,) = face.abilities[0].effects
    assert isinstance(requirement, Clause) and requirement.duration == "this combat"
    assert [p.verb for p in requirement.predicates] == ["block"]
    assert face.complete


def test_energy_is_paid_and_gotten_as_energy_not_mana() -> None:
    text = (
        "Trample\nWhenever Aetherwind Basker enters the battlefield or attacks, you get {E} (an energy "
        "counter) for each creature you control.\nPay {E}: Aetherwind Basker gets +1/+1 until end of turn."
    )
    face = parse_oracle(text, "Aetherwind Basker", "Creature — Lizard")
    (get,) = face.abilities[1].effects
    assert isinstance(get, Clause) and isinstance(get.predicates[0], Action)
    assert get.predicates[0].verb == "get_energy" and get.predicates[0].arg("energy") == Energy(1)
    (pay,) = face.abilities[2].cost
    assert isinstance(pay, Action) and (pay.verb, pay.arg("energy")) == ("pay_energy", Energy(1))
    text = "At the beginning of your end step, sacrifice Lathnu Hellion unless you pay {E}{E}."
    (unless,) = parse_oracle(text, "Lathnu Hellion", "Creature — Hellion").abilities[0].effects
    assert isinstance(unless, Conditional) and isinstance(unless.condition, Action)
    assert unless.condition.arg("energy") == Energy(2)
    assert not isinstance(unless.condition.arg("mana"), ManaCost)
    assert face.rendered == face.normalized


def test_all_colors_is_a_colour_not_a_type() -> None:
    text = "Transguild Courier is all colors."
    face = parse_oracle(text, "Transguild Courier", "Artifact Creature — Golem")
    (statement,) = face.abilities[0].effects
    assert isinstance(statement, Clause) and isinstance(statement.predicates[0], Action)
    assert (statement.predicates[0].verb, statement.predicates[0].arg("color")) == ("is_color", "all colors")
    text = "{1}: Scrapbasket becomes all colors until end of turn."
    (becomes,) = parse_oracle(text, "Scrapbasket", "Artifact Creature — Scarecrow").abilities[0].effects
    assert isinstance(becomes, Clause) and isinstance(becomes.predicates[0], Action)
    assert becomes.predicates[0].arg("color") == "all colors" and becomes.predicates[0].arg("what") is None
    assert face.rendered == face.normalized
