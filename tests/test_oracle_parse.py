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
    ExileSelfCost,
    Kind,
    ManaCost,
    Number,
    ObjectPhrase,
    RollDie,
    TapCost,
    Timing,
    Var,
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
    assert mana.effects == (Action("add_mana", (("mana", ("{C}",)),)),)
    assert rift.kind is Kind.ACTIVATED
    assert rift.cost == (ManaCost(("{5}",)), TapCost(), ExileSelfCost())
    assert [slot.description for slot in rift.targets] == ["artifact, creature, or planeswalker"]
    roll, put = rift.effects
    assert roll == RollDie(sides=10)
    assert isinstance(put, Action) and put.verb == "put_into_library"
    assert put.arg("object") == ObjectPhrase("target", "artifact, creature, or planeswalker")
    assert put.arg("beneath_top") == Var("result")
    assert rift.restrictions == (Timing.SORCERY,)


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
    assert low.effects[0] == Action(
        "draw",
        (
            ("player", spell.effects[0].table[0].effects[0].arg("player")),
            ("amount", Var("result")),
            ("explicit", False),
        ),
    )
    assert face.complete


def test_two_d20_keep_the_higher() -> None:
    face = parse_oracle("Roll two d20 and ignore the lower roll.", "Berserker's Frenzy", "Instant")
    assert face.abilities[0].effects[0] == RollDie(sides=20, count=2, ignore_lower=True)


def test_mill_is_a_player_action() -> None:
    (ability,) = parse_oracle("Target player mills three cards.", None, "Sorcery").abilities
    assert ability.effects[0] == Action(
        "mill", (("player", ability.effects[0].arg("player")), ("amount", Number(3)), ("explicit", True))
    )


def test_cloak_is_a_keyword_action() -> None:
    (ability,) = parse_oracle("Cloak the top card of your library.", None, "Sorcery").abilities
    assert isinstance(ability.effects[0], Action) and ability.effects[0].verb == "cloak"


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
    assert (ability.kind, ability.trigger_word, ability.trigger) == (
        Kind.TRIGGERED,
        "Whenever",
        "you roll one or more dice",
    )


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
    text = "Flying\nWhen ~ enters the battlefield, each player shuffles their hand into their library."
    face = parse_oracle(text, "Someone", "Creature")
    assert not face.complete
    assert [node.text for node in face.unimplemented] == [
        "each player shuffles their hand into their library."
    ]
    assert face.rendered == face.normalized


def test_normalizing_replaces_the_name_the_short_name_and_this_creature() -> None:
    text = "Whenever Farideh, Devil's Chosen attacks, Farideh gains flying. This creature can't block."
    assert (
        normalize_oracle(text, "Farideh, Devil's Chosen").text
        == "Whenever ~ attacks, ~ gains flying. ~ can't block."
    )


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
