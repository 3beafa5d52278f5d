"""An entry of the phrase tables is named after what its forms mean: the engine dispatches on the
entry's name, so an event and its opposite ("deals damage" / "is dealt damage", "gain life" /
"lose life", "blocks" / "becomes blocked"), a stat and another ("power" / "mana value") or a
count and another ("fewer than" / "exactly") are different entries."""

from __future__ import annotations

import pytest

from carddb.oracle import parse_oracle
from carddb.oracle.model import Action, walk


def _verbs(text: str, type_line: str = "Creature — Beast") -> set[str]:
    face = parse_oracle(text, None, type_line)
    assert face.complete, text
    found: set[str] = set()
    for ability in face.abilities:
        roots = [ability.trigger, *ability.effects, *ability.restrictions]
        found |= {
            node.verb for root in roots if root is not None for node in walk(root) if isinstance(node, Action)
        }
    return found


@pytest.mark.parametrize(
    ("text", "verb", "not_verb"),
    [
        (
            "Whenever ~ is dealt damage, it deals that much damage to any target.",
            "is_dealt_damage",
            "deals_damage",
        ),
        ("Whenever ~ deals damage to a player, draw a card.", "deals_damage", "is_dealt_damage"),
        (
            "Whenever ~ becomes blocked, it gets +1/+1 until end of turn.",
            "becomes_blocked_trigger",
            "attacks_trigger",
        ),
        ("Whenever ~ blocks, it gets +1/+1 until end of turn.", "blocks_trigger", "attacks_trigger"),
        (
            "Whenever ~ blocks or becomes blocked, it gets +1/+1 until end of turn.",
            "blocks_or_becomes_blocked",
            "attacks_trigger",
        ),
        ("Whenever an opponent loses life, you gain 1 life.", "loses_life_trigger", "gains_life_trigger"),
        ("Whenever ~ becomes untapped, you gain 1 life.", "becomes_untapped", "becomes_tapped"),
        ("Whenever you cycle or discard a card, you gain 1 life.", "cycles_or_discards", "cycle"),
    ],
)
def test_a_trigger_event_is_the_entry_its_words_name(text: str, verb: str, not_verb: str) -> None:
    verbs = _verbs(text)
    assert verb in verbs and not_verb not in verbs


@pytest.mark.parametrize(
    ("text", "verb", "not_verb"),
    [
        ("Destroy target creature with mana value 3 or less.", "with_mana_value", "with_power"),
        ("Destroy target creature with converted mana cost 3 or less.", "with_mana_value", "with_power"),
        ("Destroy target creature with toughness 2 or less.", "with_toughness", "with_power"),
        ("Destroy target creature with power 2 or less.", "with_power", "with_mana_value"),
        (
            "Draw a card. If you have fewer than three cards in hand, draw a card.",
            "has_fewer_than",
            "has_exactly",
        ),
        (
            "Draw a card. If you have exactly seven cards in hand, draw a card.",
            "has_exactly",
            "has_fewer_than",
        ),
    ],
)
def test_a_quality_or_count_is_the_entry_its_words_name(text: str, verb: str, not_verb: str) -> None:
    verbs = _verbs(text, "Sorcery")
    assert verb in verbs and not_verb not in verbs


def test_a_cost_increase_is_not_a_reduction() -> None:
    verbs = _verbs("Noncreature spells cost {1} more to cast.", "Artifact")
    assert "costs_more" in verbs and "costs_less" not in verbs


def test_a_requirement_to_block_is_not_one_to_attack() -> None:
    verbs = _verbs("~ blocks each combat if able.")
    assert "blocks_each_combat" in verbs and "attacks_each_combat" not in verbs
