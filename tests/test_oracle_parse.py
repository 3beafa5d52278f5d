"""The oracle grammar: real rules text into typed abilities, printed back exactly, and nothing
dropped silently."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carddb.oracle import parse_oracle
from carddb.oracle.model import (
    Action,
    Clause,
    Conditional,
    Kind,
    ManaCost,
    Noun,
    Number,
    Pronoun,
    RollDie,
    SelfRef,
    Sequence,
    TapCost,
    X,
    walk,
)
from carddb.oracle.normalize import normalize_oracle
from carddb.oracle.show import face_to_dict

GOLDEN = Path(__file__).parent / "golden" / "oracle"
INPUTS = tomllib.loads((GOLDEN / "inputs.toml").read_text(encoding="utf-8"))["face"]

RIFT = (
    "{T}: Add {C}.\n{5}, {T}, Exile Underdark Rift: Roll a d10. "
    "Put target artifact, creature, or planeswalker into its owner's library "
    "just beneath the top X cards of that library, where X is the result. "
    "Activate only as a sorcery."
)


@pytest.mark.parametrize("face", INPUTS, ids=[face["file"] for face in INPUTS])
def test_parses_match_their_golden_files(face: dict[str, str]) -> None:
    expected = json.loads((GOLDEN / f"{face['file']}.json").read_text(encoding="utf-8"))
    assert face_to_dict(parse_oracle(face["text"], face["name"], face["type"])) == expected


def test_underdark_rift_has_a_mana_ability_and_a_sorcery_speed_die_roll() -> None:
    mana, rift = parse_oracle(RIFT, "Underdark Rift", "Land").abilities
    assert mana.kind is Kind.MANA
    assert mana.cost == (TapCost(),)
    assert mana.effects == (Clause(None, (Action("add_mana", (("mana", ManaCost(("{C}",))),)),)),)
    assert rift.kind is Kind.ACTIVATED
    assert rift.cost == (ManaCost(("{5}",)), TapCost(), Action("exile", (("what", SelfRef()),)))
    assert [slot.description for slot in rift.targets] == ["artifact, creature, or planeswalker"]
    roll, where = rift.effects
    assert roll == RollDie(sides=10)
    assert isinstance(where, Conditional)
    assert (where.word, where.condition) == ("where X is", Action("the_result"))
    put = where.body
    assert isinstance(put, Clause)
    (action,) = put.predicates
    assert action.verb == "put_into_library"
    target = Noun(("target",), "artifact, creature, or planeswalker", slot=1)
    assert target.alternatives == ("artifact", "creature", "planeswalker")
    assert action.arg("what") == target
    assert action.arg("to") == Action("zone", (("owner", "its owner's"), ("zone", "library")))
    assert action.arg("position") == X()
    assert [r.verb for r in rift.restrictions] == ["sorcery_speed"]


def test_diviners_portent_adds_cards_in_hand_and_reads_a_table() -> None:
    text = (
        "Roll a d20 and add the number of cards in your hand.\n"
        "1—14 | Draw X cards.\n15+ | Scry X, then draw X cards."
    )
    face = parse_oracle(text, "Diviner's Portent", "Instant")
    (spell,) = face.abilities
    (roll,) = spell.effects
    assert isinstance(roll, RollDie)
    assert roll.sides == 20 and roll.modifier is not None
    low, high = roll.table
    assert (low.low, low.high, high.low, high.open_ended) == (1, 14, 15, True)
    (draw,) = low.effects
    assert draw == Clause(None, (Action("draw", (("what", Noun(("X",), "cards")),)),))
    assert isinstance(high.effects[0], Sequence)
    assert face.complete


def test_x_in_a_table_row_is_the_spells_x() -> None:
    """Diviner's Portent is an X spell: its table draws X cards, X paid when it was cast."""
    face = parse_oracle("Roll a d20.\n1—20 | You gain X life.", "Sampler", "Instant")
    (row,) = face.abilities[0].effects[0].table
    assert row.effects[0].predicates[0].arg("amount") == X()


def test_two_d20_keep_the_higher() -> None:
    face = parse_oracle("Roll two d20 and ignore the lower roll.", "Berserker's Frenzy", "Instant")
    assert face.abilities[0].effects[0] == RollDie(sides=20, count=2, ignore_lower=True)


def test_mill_is_a_player_action() -> None:
    (ability,) = parse_oracle("Target player mills three cards.", None, "Sorcery").abilities
    (clause,) = ability.effects
    assert clause.subject == Noun(("target",), "player", slot=1)
    assert clause.predicates == (Action("mill", (("what", Noun(("three",), "cards")),), form=1),)
    assert clause.predicates[0].arg("what").amount == Number(3)


def test_cloak_is_a_keyword_action() -> None:
    (ability,) = parse_oracle("Cloak the top card of your library.", None, "Sorcery").abilities
    assert ability.effects[0].predicates[0].verb == "cloak"


def test_and_each_joins_two_noun_phrases_that_receive_the_damage() -> None:
    text = "Famine deals 3 damage to each creature and each player."
    (ability,) = parse_oracle(text, "Famine", "Sorcery").abilities
    (action,) = ability.effects[0].predicates
    assert action.verb == "deal_damage_to_both"
    assert action.arg("to") == (Noun(("each",), "creature"), Noun(("each",), "player"))


def test_and_each_before_a_predicate_starts_a_clause_of_its_own() -> None:
    text = "You draw two cards and each opponent discards two cards."
    face = parse_oracle(text, "Bad Deal", "Sorcery")
    (clause,) = face.abilities[0].effects
    assert face.complete
    assert clause.predicates[1] == Clause(
        Noun(("each",), "opponent"), (Action("discard", (("what", Noun(("two",), "cards")),), form=1),)
    )


def test_predicates_share_their_subject_and_duration() -> None:
    text = "Target creature gets +2/+0 and gains menace until end of turn."
    (ability,) = parse_oracle(text, None, "Instant").abilities
    (clause,) = ability.effects
    assert [p.verb for p in clause.predicates] == ["gets", "gains"]
    assert (clause.joins, clause.duration) == ((" and ",), "until end of turn")
    assert clause.subject == Noun(("target",), "creature", slot=1)


def test_nouns_keep_their_qualifiers() -> None:
    text = "Return target creature card with mana value 3 or less from your graveyard to the battlefield."
    face = parse_oracle(text, None, "Sorcery")
    assert face.complete
    noun = face.abilities[0].effects[0].predicates[0].arg("what")
    assert [q.verb for q in noun.qualifiers] == ["with_mana_value", "in_zone"]
    assert (
        face.abilities[0].targets[0].description
        == "creature card with mana value 3 or less from your graveyard"
    )


def test_quoted_abilities_are_parsed_as_abilities() -> None:
    face = parse_oracle('Enchanted land has "{T}: Add {C}."', None, "Enchantment — Aura")
    assert face.complete
    granted = face.abilities[0].effects[0].predicates[0].arg("ability")
    assert granted.kind is Kind.MANA


def test_it_is_a_pronoun() -> None:
    face = parse_oracle("Destroy target creature. It can't be regenerated.", None, "Instant")
    assert face.abilities[0].effects[1].subject == Pronoun("it")


def test_keyword_lines_come_from_the_keyword_table() -> None:
    face = parse_oracle("Flying, ward {2}\nMadness {1}{R}", "Sampler", "Creature")
    assert [(k.name, k.parameter) for a in face.abilities for k in a.keywords] == [
        ("Flying", None),
        ("Ward", "{2}"),
        ("Madness", "{1}{R}"),
    ]
    assert face.complete


def test_the_spaced_ward_cost_normalizes_to_the_unspaced_one() -> None:
    face = parse_oracle("Ward — Pay 2 life.", "Sampler", "Creature")
    assert face.normalized == "Ward—Pay 2 life."
    assert face.abilities[0].keywords[0].long_cost
    assert face.complete


def test_triggered_abilities_keep_their_condition() -> None:
    (ability,) = parse_oracle(
        "Whenever you roll one or more dice, Brazen Dwarf deals 1 damage to each opponent.",
        "Brazen Dwarf",
        "Creature",
    ).abilities
    assert (ability.kind, ability.trigger_word) == (Kind.TRIGGERED, "Whenever")
    assert ability.trigger == Action("roll_dice", (("who", Pronoun("you")),))


def test_replacing_a_roll_is_a_replacement_ability() -> None:
    text = (
        "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll."
    )
    (ability,) = parse_oracle(text, "Barbarian Class", "Enchantment — Class").abilities
    assert ability.kind is Kind.REPLACEMENT


def test_ability_words_are_kept_apart_from_the_ability() -> None:
    text = (
        "Grant an Advantage — If you would roll one or more dice, "
        "instead roll that many dice plus one and ignore the lowest roll."
    )
    (ability,) = parse_oracle(text, "Pixie Guide", "Creature — Faerie").abilities
    assert ability.ability_word == "Grant an Advantage"


def test_modal_spells_have_one_mode_per_bullet() -> None:
    text = "Choose one —\n• Destroy target artifact.\n• Destroy target enchantment."
    (ability,) = parse_oracle(text, "Naturalize-ish", "Instant").abilities
    assert ability.choose == "Choose one"
    assert [mode.targets[0].description for mode in ability.modes] == ["artifact", "enchantment"]


def test_what_the_grammar_does_not_understand_is_unimplemented_never_dropped() -> None:
    text = "Flying\nWhen ~ enters the battlefield, each player juggles their hand into their library."
    face = parse_oracle(text, "Someone", "Creature")
    assert not face.complete
    assert [node.text for node in face.unimplemented] == [
        "each player juggles their hand into their library."
    ]
    assert face.rendered == face.normalized


def test_normalizing_replaces_the_name_the_short_name_and_this_creature() -> None:
    text = "Whenever Farideh, Devil's Chosen attacks, Farideh gains flying. This creature can't block."
    assert (
        normalize_oracle(text, "Farideh, Devil's Chosen").text
        == "Whenever ~ attacks, ~ gains flying. ~ can't block."
    )


@pytest.mark.parametrize(
    "text, name, canonical",
    [
        (  # the Equipment's name in the ability it grants: ~, the Equipment ("this creature" stays)
            'Equipped creature has "{T}, Sacrifice Gleaming Hatchet: Gleaming Hatchet deals 1 damage to '
            'this creature."',
            "Gleaming Hatchet",
            'Equipped creature has "{T}, Sacrifice ~: ~ deals 1 damage to this creature."',
        ),
        (  # a name after "named" is a name; a quote that is only the name is a word to say
            'It has "Sacrifice this creature: Return a card named Ashen Wyrm from your graveyard."',
            "Ashen Wyrm",
            'It has "Sacrifice this creature: Return a card named Ashen Wyrm from your graveyard."',
        ),
        ('Say "Pocket Drum": Draw a card.', "Pocket Drum", 'Say "Pocket Drum": Draw a card.'),
        (  # a short name that is a planeswalker type or begins another proper noun
            'Create a token with "Put a loyalty counter on each Vessa you control and on Vessa\'s Hound."',
            "Vessa, the Tidecaller",
            'Create a token with "Put a loyalty counter on each Vessa you control and on Vessa\'s Hound."',
        ),
        (
            '~ has "Whenever Vessa attacks, scry 1."',
            "Vessa, the Tidecaller",
            '~ has "Whenever ~ attacks, scry 1."',
        ),
    ],
)
def test_normalizing_replaces_the_name_inside_a_quoted_ability(text: str, name: str, canonical: str) -> None:
    assert normalize_oracle(text, name).text == canonical


def test_normalizing_sets_reminder_text_aside() -> None:
    normalized = normalize_oracle(
        "Flying (This creature can't be blocked except by creatures with flying.)", "Bird"
    )
    assert normalized.text == "Flying"
    assert normalized.reminders == ("(This creature can't be blocked except by creatures with flying.)",)


def test_normalizing_unifies_full_width_digits_quotes_and_table_dashes() -> None:
    assert normalize_oracle("消失３ ’a’\n1-14 | Draw X cards.").text == "消失3 'a'\n1—14 | Draw X cards."


@pytest.mark.parametrize(
    "text",
    [
        "",
        "(",
        "Draw a card.)",
        "{",
        "{Z}{",
        'Draw "a card.',
        "{T}: {T}: {T}:",
        "• • •",
        "1—14 |",
        "When , ,",
        "—",
    ],
)
def test_broken_text_gives_unimplemented_nodes_not_exceptions(text: str) -> None:
    face = parse_oracle(text, "Broken", "Instant")
    assert face.rendered == face.normalized


def test_a_hundred_kilobytes_of_text_parses() -> None:
    text = ("Draw a card. " * 4000 + "\n") * 2
    face = parse_oracle(text, "Long", "Sorcery")
    assert face.complete


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_and_every_unimplemented_node_points_at_its_text(text: str) -> None:
    face = parse_oracle(text, "Anything", None)
    for node in face.unimplemented:
        assert face.normalized[node.span.start : node.span.end] == node.text


def test_unimplemented_spans_point_at_their_text_in_real_cards() -> None:
    for face in INPUTS:
        parsed = parse_oracle(face["text"], face["name"], face["type"])
        for node in parsed.unimplemented:
            assert parsed.normalized[node.span.start : node.span.end] == node.text


def test_unparsed_text_inside_a_quoted_ability_makes_the_face_incomplete() -> None:
    """An honest count: every sentence, inside quotes too, must parse."""
    face = parse_oracle('Enchanted creature has "{T}: Frobnicate the whizzbang."', "Sampler", "Enchantment")
    assert not face.complete
    (node,) = face.unimplemented
    assert face.normalized[node.span.start : node.span.end] == node.text == "Frobnicate the whizzbang."


def test_a_thousand_ability_word_prefixes_do_not_recurse() -> None:
    """Fuzzing found it: one ability word is read, a second one is not an ability word (4.9 KB)."""
    face = parse_oracle("Ab — " * 1000 + "Draw a card.", "Fuzz", "Sorcery")
    assert not face.complete
    assert face.rendered == face.normalized


def test_a_trigger_with_many_commas_is_read_in_one_pass() -> None:
    """ "When a creature you control dies and, …" 3,000 times (100 KB): no condition ends at any of
    its commas; benchmarks/oracle_bad_input_bench.py shows the time stays linear in the length."""
    face = parse_oracle(
        "When " + "a creature you control dies and, " * 3000 + "draw a card.", "Fuzz", "Creature"
    )
    (ability,) = face.abilities
    assert ability.kind is Kind.TRIGGERED and not face.complete


def test_a_trigger_condition_may_hold_a_list_with_commas() -> None:
    text = (
        "Whenever you cast an instant, sorcery, or Wizard spell, Umara Mystic gets +2/+0 until end of turn."
    )
    face = parse_oracle(f"Flying\n{text}", "Umara Mystic", "Creature — Merfolk Wizard")
    assert face.complete
    assert face.abilities[1].trigger is not None


def test_a_thousand_keywords_on_one_line_do_not_recurse() -> None:
    """Fuzzing found a RecursionError at ~1,000 keywords; a real keyword line writes the words
    after the first in lowercase, so "Flying, Flying, …" is no keyword line: it is left
    Unimplemented, whole, instead of raising."""
    text = ", ".join(["Flying"] * 1000)
    face = parse_oracle(text, "Fuzz", "Creature")
    assert not face.complete
    assert [u.text for u in face.abilities[0].unparsed] == [text]


_FRAGMENTS = st.sampled_from(
    [
        "Ab — ", "When ", "Whenever ", "At ", "a creature you control dies", " and", ", ", ", then ",
        "draw a card", "target creature", "up to two ", "any number of ", "'s ", "\"", "{T}", ": ",
        "Add {G}", ". ", "\n", "• ", "1—14 | ", "Choose one —", "I — ", "LEVEL 2-6", "Flying",
        "you may ", " unless its controller pays {3}", " at the beginning of the next end step",
        "(reminder) ", "~", "—", "{", "}", "X", "divided as you choose among one or two targets",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_FRAGMENTS, max_size=80).map("".join))
def test_pathological_text_gives_unimplemented_nodes_never_an_exception(text: str) -> None:
    """Pieces of oracle text in any order: the parse never raises, keeps every unparsed piece as an
    Unimplemented node pointing at its text, and prints back what it understood."""
    face = parse_oracle(text, "Fuzz", None)
    for node in face.unimplemented:
        assert face.normalized[node.span.start : node.span.end] == node.text
    if face.complete:
        assert face.rendered == face.normalized


def test_those_tokens_are_the_ones_an_earlier_create_of_the_spell_describes() -> None:
    face = parse_oracle(
        "Create a 2/2 black Zombie creature token.\n"
        "If you control a Zombie, create three of those tokens instead.",
        "Grave Chorus",
        "Sorcery",
    )
    assert face.complete
    created = next(n for n in walk(face.abilities[0].effects) if isinstance(n, Action))
    more = next(
        n
        for n in walk(face.abilities[1].effects)
        if isinstance(n, Action) and n.verb == "create_those_tokens"
    )
    those = more.arg("what")
    assert isinstance(those, Noun) and those.antecedents == (created,)
    assert created.verb == "create_creature_token" and more.arg("amount") == Number(3, "three")
