"""Auras and Equipment (:mod:`carddb.engine.rules.attachments`): what executes, casting an Aura, Equip,
"enchanted creature" in effects and static abilities, the state-based actions of attachments, and
the scenario keys ``attached`` and ``attached_to``."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.engine.actions import play
from carddb.engine.catalog import CATALOG, face_missing, missing
from carddb.engine.core.cards import CardDef, CardPool
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import IllegalActionError, TargetError
from carddb.engine.core.state import Game, Player, StackItem, Step
from carddb.engine.query.abilities import keywords_of
from carddb.engine.rules.attachments import as_activated, aura_spell, enchant_noun
from carddb.engine.rules.targets import target_nouns
from carddb.engine.rules.triggers import settle
from carddb.engine.scenario.runner import ScenarioError, run_file
from carddb.oracle.model import Kind

HOLY = CardDef(
    "Holy Strength", "Enchantment — Aura", "Enchant creature\nEnchanted creature gets +1/+2.", "{W}"
)
APPETITE = CardDef(
    "Demonic Appetite",
    "Enchantment — Aura",
    "Enchant creature you control\nEnchanted creature gets +3/+3.",
    "{B}",
)
BONE = CardDef("Bonesplitter", "Artifact — Equipment", "Equipped creature gets +2/+0.\nEquip {1}", "{1}")
BEARS = CardDef("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2", toughness="2")
GIANT = CardDef("Hill Giant", "Creature — Giant", mana_cost="{3}{R}", power="3", toughness="3")
PLAINS = CardDef("Plains", "Basic Land — Plains")
SWAMP = CardDef("Swamp", "Basic Land — Swamp")


def two_players() -> Game:
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)


def face(text: str, type_line: str = "Enchantment — Aura") -> list[str]:
    return face_missing(CardDef("X", type_line, text).parsed)


# -- what executes ------------------------------------------------------------------------------
def test_auras_and_equipment_with_known_parts_execute() -> None:
    assert face_missing(HOLY.parsed) == []
    assert face_missing(BONE.parsed) == []
    assert face("Enchant land you control\nEnchanted land has indestructible.") == []
    assert face("Equipped creature gets +1/+1.\nEquip Knight {1}\nEquip {3}", "Artifact — Equipment") == []
    assert face("Equipped creature gets +4/+2.\nEquip—Sacrifice a creature.", "Artifact — Equipment") == []


def test_what_the_engine_cannot_do_is_refused() -> None:
    assert face("Enchant player\nAt the beginning of your upkeep, you gain 1 life.") == [
        "keyword enchant player"
    ]
    problems = face("Enchant creature\nDestroy target enchanted permanent.", "Sorcery")
    assert "description 'enchanted permanent'" in problems
    assert face("Equipped creatures you control get +1/+1.", "Enchantment") == [
        "description 'equipped creatures'"
    ]


def test_an_aura_spell_targets_what_enchant_allows() -> None:
    spell = aura_spell(APPETITE)
    assert spell is not None and spell.kind is Kind.SPELL and not missing(spell)
    (noun,) = target_nouns(spell)
    assert noun.description == "creature" and noun.targeted
    assert [q.verb for q in noun.qualifiers] == ["you_control"]
    assert enchant_noun(APPETITE, CATALOG) is not None and not enchant_noun(APPETITE, CATALOG).targeted  # type: ignore[union-attr]
    assert aura_spell(BEARS) is None


def test_equip_is_an_activated_ability_at_sorcery_speed() -> None:
    keyword = BONE.abilities[1]
    assert keyword.kind is Kind.KEYWORD
    ability = as_activated(keyword)
    assert ability.kind is Kind.ACTIVATED
    assert [r.verb for r in ability.restrictions] == ["sorcery_speed"]
    assert as_activated(BONE.abilities[0]) is BONE.abilities[0]


# -- playing ----------------------------------------------------------------------------------------
def test_casting_an_aura_attaches_it_and_its_static_ability_applies() -> None:
    game = two_players()
    aura = game.create(HOLY, "Alice", "hand")
    bears = game.create(BEARS, "Alice", "battlefield")
    game.create(PLAINS, "Alice", "battlefield")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", aura, [[bears]])
    play.resolve_all(game, decider)
    assert aura.zone == "battlefield" and aura.attached_to == bears.id
    assert (bears.power, bears.toughness) == (3, 4)


def test_an_aura_spell_needs_its_target() -> None:
    game = two_players()
    aura = game.create(HOLY, "Alice", "hand")
    game.create(PLAINS, "Alice", "battlefield")
    before = game.fingerprint()
    with pytest.raises(TargetError, match="needs 1 target"):
        play.cast(game, ScriptedDecider(), "Alice", aura)
    assert game.fingerprint() == before


def test_a_refused_equip_leaves_the_game_unchanged() -> None:
    game = two_players()
    bone = game.create(BONE, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    giant = game.create(GIANT, "Alice", "battlefield")
    game.create(PLAINS, "Alice", "battlefield")
    bone.attached_to = bears.id
    game.stack.append(StackItem(giant.id, "Alice", 0, []))  # anything on the stack
    before = game.fingerprint()
    with pytest.raises(IllegalActionError, match="only as a sorcery"):
        play.activate(game, ScriptedDecider(), "Alice", bone, 2, [[giant]])
    assert game.fingerprint() == before and bone.attached_to == bears.id


def test_an_aura_whose_creature_changes_control_may_become_illegal() -> None:
    """Enchant creature you control: when Bob gains control of the creature, Alice's Aura is
    attached to an illegal object and goes to the graveyard (rule 704.5m)."""
    game = two_players()
    aura = game.create(APPETITE, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    aura.attached_to = bears.id
    settle(game, None)
    assert aura.zone == "battlefield" and bears.power == 5
    bears.controller = "Bob"
    settle(game, None)
    assert aura.zone == "graveyard" and bears.power == 2


def test_equipment_on_something_not_a_creature_becomes_unattached() -> None:
    game = two_players()
    bone = game.create(BONE, "Alice", "battlefield")
    land = game.create(PLAINS, "Alice", "battlefield")
    bone.attached_to = land.id
    settle(game, None)
    assert bone.zone == "battlefield" and bone.attached_to is None


def test_an_equipment_leaving_the_battlefield_is_no_longer_attached() -> None:
    game = two_players()
    bone = game.create(BONE, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    bone.attached_to = bears.id
    settle(game, None)
    assert bears.power == 4
    game.move(bone, "hand")
    settle(game, None)
    assert bone.attached_to is None and bears.power == 2


def test_enchanted_creature_in_an_activated_ability() -> None:
    firebreathing = CardDef(
        "Firebreathing",
        "Enchantment — Aura",
        "Enchant creature\n{R}: Enchanted creature gets +1/+0 until end of turn.",
    )
    assert face_missing(firebreathing.parsed) == []
    game = two_players()
    aura = game.create(firebreathing, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    giant = game.create(GIANT, "Alice", "battlefield")
    game.create(CardDef("Mountain", "Basic Land — Mountain"), "Alice", "battlefield")
    aura.attached_to = bears.id
    decider = ScriptedDecider()
    play.activate(game, decider, "Alice", aura, 2)
    play.resolve_all(game, decider)
    assert (bears.power, giant.power) == (3, 3)


def test_it_after_an_as_long_as_condition_is_the_enchanted_creature() -> None:
    skill = CardDef(
        "Equestrian Skill",
        "Enchantment — Aura",
        "Enchant creature\nEnchanted creature gets +3/+3.\n"
        "As long as enchanted creature is a Human, it has trample.",
    )
    human = CardDef("Village Ironsmith", "Creature — Human Warrior", power="1", toughness="1")
    assert face_missing(skill.parsed) == []
    game = two_players()
    aura = game.create(skill, "Alice", "battlefield")
    smith = game.create(human, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    aura.attached_to = smith.id
    settle(game, None)
    assert smith.power == 4 and "trample" in keywords_of(smith)
    aura.attached_to = bears.id
    settle(game, None)
    assert bears.power == 5 and "trample" not in keywords_of(bears) | keywords_of(smith)


# -- scenarios --------------------------------------------------------------------------------------
SCENARIO = """
title = "attached"
[cards."Holy Strength"]
type = "Enchantment — Aura"
text = "Enchant creature\\nEnchanted creature gets +1/+2."
[cards."Grizzly Bears"]
type = "Creature — Bear"
power = 2
toughness = 2
[players.Alice]
battlefield = ["Holy Strength", "Grizzly Bears"]
attached = {ATTACHED}
[players.Bob]
[expect.permanents."Holy Strength"]
attached_to = "Grizzly Bears"
"""


def run(tmp_path: Path, attached: str) -> list[str]:
    path = tmp_path / "attached.toml"
    path.write_text(SCENARIO.replace("{ATTACHED}", attached), encoding="utf-8")
    return run_file(path, CardPool()).differences


def test_a_scenario_sets_up_attachments(tmp_path: Path) -> None:
    assert run(tmp_path, '{ "Holy Strength" = "Grizzly Bears" }') == []
    assert run(tmp_path, '{ "Holy Strength" = "Alice:Grizzly Bears" }') == []


def test_a_scenario_with_a_bad_attachment_is_invalid(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="unknown card 'Holy Strenght'"):
        run(tmp_path, '{ "Holy Strenght" = "Grizzly Bears" }')
    with pytest.raises(ScenarioError, match="must be a table"):
        run(tmp_path, '"Grizzly Bears"')
    with pytest.raises(ScenarioError, match="no free 'Holy Strength'"):
        run(tmp_path, '{ "Holy Strength" = ["Grizzly Bears", "Grizzly Bears"] }')
    with pytest.raises(ScenarioError, match="cannot be attached to 'Holy Strength'"):
        run(tmp_path, '{ "Holy Strength" = "Holy Strength" }')
    with pytest.raises(ScenarioError, match="no 'Bob:Grizzly Bears' on the battlefield"):
        run(tmp_path, '{ "Holy Strength" = "Bob:Grizzly Bears" }')


def test_x_counts_the_counters_on_the_aura_that_grants_the_ability() -> None:
    """ "… where X is the number of charge counters on ~" in the ability an Aura grants: ~ is the Aura."""
    text = (
        'Enchant creature\nEnchanted creature has "{T}: This creature deals X damage to any target, '
        'where X is the number of charge counters on Sparking Harness."'
    )
    harness = CardDef("Sparking Harness", "Enchantment — Aura", text, "{R}")
    game = two_players()
    bears = game.create(BEARS, "Alice", "battlefield")
    aura = game.create(harness, "Alice", "battlefield")
    aura.attached_to = bears.id
    aura.counters["charge"] = 2
    bears.since_turn = -1  # no summoning sickness
    settle(game, ScriptedDecider())
    play.activate(game, ScriptedDecider(), "Alice", bears, 1, [["Bob"]])
    play.resolve_all(game, ScriptedDecider())
    assert game.players["Bob"].life == 18


def test_a_static_ability_given_to_another_object_naming_the_giver_is_refused() -> None:
    """~ in a quoted static or replacement ability names the Aura, which the readers of static
    abilities (they know only the creature that has it) cannot tell: refused, not applied to the
    creature. An activated or triggered one remembers the Aura, and one given to ~ itself is ~'s."""
    given = 'Enchant creature\nEnchanted creature has "Prevent all damage that would be dealt to ~."'
    assert face(given) == ["~ in a static ability it gives another object"]
    assert face('Enchant creature\nEnchanted creature has "{T}: Put a charge counter on ~."') == []
    assert face('~ has "Prevent all damage that would be dealt to ~."', "Creature — Cat") == []
