"""What a parse means, beyond printing back: an intervening "if" belongs to the trigger, a duration
written in the middle still covers the whole permission, a choice of protections is a choice, an
anaphoric noun names its antecedents, and a card name is a name."""

from __future__ import annotations

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, Clause, Kind, Noun, Pronoun, SelfRef, walk
from carddb.oracle.render import render


def test_an_if_right_after_the_trigger_condition_is_the_triggers_own() -> None:
    text = "When ~ enters the battlefield, if an opponent lost life this turn, draw a card."
    face = parse_oracle(text, None, "Creature — Vampire")
    (ability,) = face.abilities
    assert isinstance(ability.intervening_if, Action) and ability.intervening_if.verb == "life_this_turn"
    assert isinstance(ability.effects[0], Clause)  # the effect itself, not a conditional step
    assert render(face.abilities) == text


def test_an_if_that_an_otherwise_reads_stays_a_step() -> None:
    text = (
        "At the beginning of your upkeep, if you control an Island, draw a card. Otherwise, you lose 1 life."
    )
    face = parse_oracle(text, None, "Enchantment")
    assert face.abilities[0].intervening_if is None


def test_the_duration_of_a_cast_permission_covers_its_mana_permission() -> None:
    text = (
        "You may cast that card for as long as it remains exiled, and you may spend mana as though it "
        "were mana of any color to cast that spell."
    )
    face = parse_oracle(text, None, "Sorcery")
    (step,) = face.abilities[0].effects
    assert isinstance(step, Clause) and len(step.predicates) == 2
    assert isinstance(step.duration, Action) and step.duration.verb == "for_as_long_as"
    assert step.duration_after == 1
    assert face.rendered == face.normalized


def test_protection_from_one_or_another_is_a_choice_of_qualities() -> None:
    text = (
        "Target permanent you control gains protection from artifacts or from the color of your choice "
        "until end of turn."
    )
    face = parse_oracle(text, None, "Instant")
    gains = face.abilities[0].effects[0].predicates[0]  # type: ignore[union-attr]
    choice = gains.arg("keywords")
    assert isinstance(choice, Action) and choice.verb == "protection_choice"
    assert choice.arg("qualities") == ("artifacts", "the color of your choice")
    assert face.rendered == face.normalized


def test_both_creatures_of_a_soulbond_pair_are_the_creature_and_its_partner() -> None:
    text = "As long as ~ is paired with another creature, both creatures have double strike."
    face = parse_oracle(text, None, "Creature — Human Knight")
    subject = face.abilities[0].effects[0].body.subject  # type: ignore[union-attr]
    assert isinstance(subject, Pronoun) and subject.word == "both creatures"
    assert subject.antecedents == (SelfRef(), Pronoun("the creature it's paired with"))


def test_from_it_names_the_hand_revealed_before() -> None:
    text = "Target opponent reveals their hand. You choose a nonland card from it."
    face = parse_oracle(text, None, "Sorcery")
    qualifiers = [n for n in walk(face.abilities[0].effects) if isinstance(n, Action) and n.verb == "in_zone"]
    (from_it,) = qualifiers
    zone = from_it.arg("it")
    assert isinstance(zone, Action) and (zone.arg("owner"), zone.arg("zone")) == ("their", "hand")


def test_the_zones_a_search_lists_belong_to_the_first_zones_player() -> None:
    text = "Search target player's graveyard, hand, and library for all cards with that name and exile them."
    face = parse_oracle(text, None, "Sorcery")
    nodes = walk(face.abilities[0].effects)
    zones = next(n for n in nodes if isinstance(n, Action) and n.verb == "zones")
    assert (zones.arg("owner"), zones.arg("each"), zones.slot) == (
        "target player's",
        ("graveyard", "hand", "library"),
        1,
    )
    assert len(face.abilities[0].targets) == 1


def test_a_card_name_after_a_noun_is_a_name_not_a_subtype() -> None:
    face = parse_oracle("Destroy all permanents named Wirefly.", None, "Sorcery")
    what = face.abilities[0].effects[0].predicates[0].arg("what")  # type: ignore[union-attr]
    assert isinstance(what, Noun) and what.description == "permanents"
    assert [q.verb for q in what.qualifiers] == ["named"]


def test_a_sorcerys_if_would_instead_is_a_step_of_the_spell_not_a_replacement_ability() -> None:
    text = (
        "~ deals X damage to any target. If a creature dealt damage this way would die this turn, "
        "exile it instead."
    )
    face = parse_oracle(text, "Demonfire", "Sorcery")
    assert face.abilities[0].kind is Kind.SPELL


def test_protection_from_the_color_of_your_choice_is_a_choice() -> None:
    text = (
        "Sacrifice ~: Target creature you control gains protection from the color of your choice "
        "until end of turn."
    )
    (ability,) = parse_oracle(text, None, "Creature — Human Cleric").abilities
    (clause,) = ability.effects
    assert isinstance(clause, Clause)
    keywords = clause.predicates[0].arg("keywords")  # type: ignore[union-attr]
    assert isinstance(keywords, Action) and keywords.verb == "protection_choice"
    assert keywords.arg("qualities") == ("the color of your choice",)


def test_a_trigger_on_entering_or_attacking_names_both_events() -> None:
    text = "Whenever ~ enters the battlefield or attacks, draw a card."
    (ability,) = parse_oracle(text, None, "Creature — Avatar").abilities
    assert isinstance(ability.trigger, Action)
    assert (ability.trigger.verb, ability.trigger.form_name) == ("enters_or", "attacks")


def test_without_flying_is_a_negation_by_name() -> None:
    (ability,) = parse_oracle("Creatures without flying can't block this turn.", None, "Sorcery").abilities
    (clause,) = ability.effects
    assert isinstance(clause, Clause) and isinstance(clause.subject, Noun)
    assert [q.verb for q in clause.subject.qualifiers] == ["without_keywords"]


def test_they_control_names_the_player_not_an_opponent() -> None:
    face = parse_oracle("Each player returns a creature they control to its owner's hand.", None, "Instant")
    nodes = walk(face.abilities[0].effects[0])
    qualifier = next(n for n in nodes if isinstance(n, Action) and n.verb.endswith("controls"))
    assert (qualifier.verb, qualifier.form_name) == ("player_controls", "they")


def test_if_that_player_doesnt_is_its_own_condition() -> None:
    text = "Target opponent may have ~ deal 4 damage to them. If that player doesn't, you draw three cards."
    face = parse_oracle(text, "Risk Factor", "Instant")
    conditions = [n.condition for n in walk(face.abilities[0].effects[1]) if hasattr(n, "condition")]
    assert [c.verb for c in conditions] == ["player_did_not"]  # type: ignore[union-attr]


def test_this_turn_inside_a_phrase_is_the_clauses_duration() -> None:
    text = "Prevent all damage that would be dealt this turn by a source of your choice."
    (ability,) = parse_oracle(text, None, "Instant").abilities
    (clause,) = ability.effects
    assert isinstance(clause, Clause) and clause.duration == "this turn" and clause.duration_in_phrase
    assert render(parse_oracle(text, None, "Instant").abilities) == text  # printed once, where it is written
