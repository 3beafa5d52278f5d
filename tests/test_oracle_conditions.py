"""Conditions and replacements: what "If …, …", "As long as …, …", "… unless …", "For each …, …" and
"… instead" cover, with a typed condition, the payer of "unless" named and "instead" holding the
instruction that happens instead. Real cards; the current Oracle wording reads the same."""

from __future__ import annotations

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, Clause, Conditional, Kind, Noun, Pronoun, Sequence


def _instead(step: object) -> object:
    """What a sentence's "instead" says happens instead."""
    assert isinstance(step, Clause) and step.subject is None
    (instead,) = step.predicates
    assert isinstance(instead, Action) and instead.verb == "instead"
    return instead.arg("action")


def test_a_delayed_return_after_if_you_do_happens_only_if_you_do() -> None:
    text = (
        "Whenever a player cycles a card, you may exile target creature. If you do, return that card to "
        "the battlefield under its owner's control at the beginning of the next end step."
    )
    face = parse_oracle(text, "Astral Slide", "Enchantment")
    if_you_do = face.abilities[0].effects[1]
    assert isinstance(if_you_do, Conditional) and if_you_do.word == "if"
    assert isinstance(if_you_do.condition, Action) and if_you_do.condition.verb == "did"
    delayed = if_you_do.body
    assert isinstance(delayed, Conditional) and delayed.word == "at" and delayed.after
    assert face.complete


def test_for_each_object_the_unless_names_that_player_as_payer() -> None:
    text = "For each Spirit, return it to its owner's hand unless that player pays {3}."
    face = parse_oracle(text, "Cut the Tethers", "Sorcery")
    (each,) = face.abilities[0].effects
    assert isinstance(each, Conditional) and each.word == "for each"
    assert each.condition == Noun((), "Spirit")
    unless = each.body
    assert isinstance(unless, Conditional) and unless.word == "unless"
    assert unless.payer == Noun(("that",), "player")
    assert face.complete


def test_a_clause_with_its_duration_is_what_happens_instead() -> None:
    text = (
        "Kicker {5}\nTarget creature gets +2/+2 until end of turn. If this spell was kicked, that creature "
        "gets +5/+5 until end of turn instead."
    )
    face = parse_oracle(text, "Explosive Growth", "Instant")
    kicked = face.abilities[1].effects[1]
    assert isinstance(kicked, Conditional) and kicked.word == "if"
    assert isinstance(kicked.condition, Action) and kicked.condition.verb == "is_state"
    replacement = _instead(kicked.body)
    assert isinstance(replacement, Clause)
    assert replacement.subject == Noun(("that",), "creature")
    assert replacement.duration == "until end of turn"
    assert face.rendered == face.normalized


def test_everything_after_a_leading_instead_replaces_the_instruction() -> None:
    text = (
        "Target player discards two cards.\nMorbid — If a creature died this turn, instead that player "
        "reveals their hand, you choose two cards from it, then that player discards those cards."
    )
    face = parse_oracle(text, "Gruesome Discovery", "Sorcery")
    (morbid,) = face.abilities[1].effects
    assert isinstance(morbid, Conditional) and morbid.word == "if"
    replacement = _instead(morbid.body)
    assert isinstance(replacement, Sequence) and len(replacement.steps) == 2
    first = replacement.steps[0]
    assert isinstance(first, Clause) and first.subject == Noun(("that",), "player")
    assert face.complete


def test_a_leading_duration_covers_the_whole_replacement() -> None:
    text = (
        "[−2]: Until end of turn, if one or more tokens would be created under your control, twice that "
        "many of those tokens are created instead."
    )
    face = parse_oracle(text, "Kaya, Geist Hunter", "Legendary Planeswalker — Kaya")
    (timed,) = face.abilities[0].effects
    assert isinstance(timed, Conditional) and timed.word == "until end of turn" and timed.condition is None
    replacement = timed.body
    assert isinstance(replacement, Conditional) and replacement.word == "if"
    assert isinstance(replacement.condition, Action) and replacement.condition.verb == "would_be_created"
    assert face.complete


def test_the_current_wording_of_a_kicked_replacement_reads_the_same() -> None:
    of_2022 = (
        "Kicker {2}\nUntap target creature. It gets +2/+2 until end of turn. If Gift of Growth was kicked, "
        "that creature gets +4/+4 until end of turn instead."
    )
    current = (
        "Kicker {2}\nUntap target creature. It gets +2/+2 until end of turn. If this spell was kicked, "
        "that creature gets +4/+4 until end of turn instead."
    )
    reference = parse_oracle(of_2022, "Gift of Growth", "Instant")
    parsed = parse_oracle(current, "Gift of Growth", "Instant")
    assert reference.complete and parsed.complete
    assert parsed.abilities == reference.abilities


def test_what_would_deal_damage_is_the_condition_and_double_damage_happens_instead() -> None:
    text = (
        "If a red instant or sorcery spell you control would deal damage, it deals double that damage "
        "instead."
    )
    face = parse_oracle(text, "Fire Servant", "Creature — Elemental")
    (ability,) = face.abilities
    assert ability.kind is Kind.REPLACEMENT
    (replacement,) = ability.effects
    assert isinstance(replacement, Conditional)
    condition = replacement.condition
    assert isinstance(condition, Action) and condition.verb == "would_deal_or_be_dealt"
    source = condition.arg("what")
    assert isinstance(source, Noun) and source.description == "red instant or sorcery spell"
    assert face.complete


def test_a_land_tapped_for_mana_produces_another_type_instead_and_unless_names_you() -> None:
    text = (
        "At the beginning of your upkeep, sacrifice Contamination unless you sacrifice a creature.\n"
        "If a land is tapped for mana, it produces {B} instead of any other type and amount."
    )
    face = parse_oracle(text, "Contamination", "Enchantment")
    (unless,) = face.abilities[0].effects
    assert isinstance(unless, Conditional) and unless.payer == Pronoun("you")
    (replacement,) = face.abilities[1].effects
    assert isinstance(replacement, Conditional) and isinstance(replacement.body, Clause)
    (instead,) = replacement.body.predicates
    assert isinstance(instead, Action) and instead.verb == "instead"
    produced = instead.arg("action")
    assert isinstance(produced, Action) and produced.verb == "produces_mana"
    assert face.complete


def test_the_current_wording_of_a_renowned_condition_reads_the_same() -> None:
    of_2022 = (
        "Whenever Consul's Lieutenant attacks, if it's renowned, other attacking creatures you control get "
        "+1/+1 until end of turn."
    )
    current = (
        "Whenever this creature attacks, if it's renowned, other attacking creatures you control get +1/+1 "
        "until end of turn."
    )
    reference = parse_oracle(of_2022, "Consul's Lieutenant", "Creature — Human Soldier")
    parsed = parse_oracle(current, "Consul's Lieutenant", "Creature — Human Soldier")
    assert reference.complete and parsed.complete
    assert parsed.abilities == reference.abilities
    condition = parsed.abilities[0].intervening_if  # the trigger's own "if" (603.4)
    assert isinstance(condition, Action) and condition.verb == "designation"


def test_a_past_event_condition_is_not_a_delayed_trigger() -> None:
    """ "Whenever you cast a spell this turn" is a delayed trigger, "if you discarded a card this turn" a
    condition about the past."""
    text = "Whenever you cast a creature spell this turn, draw a card."
    face = parse_oracle(text, "Glimpse of Nature", "Sorcery")
    (delayed,) = face.abilities[0].effects
    assert isinstance(delayed, Conditional) and delayed.word == "whenever"
    assert isinstance(delayed.condition, Action) and delayed.condition.verb == "during_this_turn"
    text = (
        "At the beginning of each upkeep, if you lost life last turn, create a 1/1 white Soldier creature "
        "token."
    )
    face = parse_oracle(text, "First Response", "Enchantment")
    past = face.abilities[0].intervening_if  # the trigger's own "if" (603.4)
    assert isinstance(past, Action) and past.verb == "happened_this_turn"
    assert face.complete

