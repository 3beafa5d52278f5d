"""Combat (carddb.engine.rules.combat): the combat steps, declaring attackers and blockers, combat
damage with the combat keywords, attack and block triggers, and that refused declarations leave
the game unchanged. The scenario files ``tests/scenarios/combat_*.toml`` show each rule on real
cards; these tests cover what scenarios do not reach easily."""

from __future__ import annotations

import pytest

from carddb.engine.actions import combat as fighting
from carddb.engine.actions import play, turn
from carddb.engine.catalog import CATALOG, missing
from carddb.engine.core.cards import CardDef
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import CostError, IllegalActionError
from carddb.engine.core.state import Game, Player, Step
from carddb.engine.rules import combat
from carddb.engine.rules.sba import state_based_actions

BEARS = CardDef("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2", toughness="2")
ANGEL = CardDef("Serra Angel", "Creature — Angel", "Flying, vigilance", "{3}{W}{W}", "4", "4")
RATS = CardDef("Typhoid Rats", "Creature — Rat", "Deathtouch", "{B}", "1", "1")
WURM = CardDef("Craw Wurm", "Creature — Wurm", mana_cost="{4}{G}{G}", power="6", toughness="4")


def two_players() -> Game:
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)


@pytest.mark.parametrize(
    "keyword",
    ["Flying", "Reach", "Haste", "Vigilance", "Defender", "Menace", "First strike", "Double strike",
     "Trample", "Deathtouch", "Lifelink"],
)  # fmt: skip
def test_the_combat_keywords_are_executable(keyword: str) -> None:
    card = CardDef("Test", "Creature — Test", keyword, "{1}", "1", "1")
    assert missing(card.abilities[0]) == []


@pytest.mark.parametrize(
    "text",
    [
        "Whenever Test attacks, you gain 1 life.",
        "Whenever a creature you control attacks, you gain 1 life.",
        "Whenever one or more creatures you control attack, you gain 1 life.",
        "Whenever Test blocks, you gain 1 life.",
        "Whenever Test becomes blocked, you gain 1 life.",
        "Whenever Test attacks or blocks, you gain 1 life.",
        "Whenever Test becomes blocked by a creature, you gain 1 life.",
        "Whenever Test deals combat damage to a player, draw a card.",
        "Test can't block.",
        "Test can't be blocked.",
        "Test can't attack or block.",
    ],
)
def test_attack_block_triggers_and_restrictions_are_executable(text: str) -> None:
    card = CardDef("Test", "Creature — Test", text, "{1}", "1", "1")
    assert missing(card.abilities[0]) == []


def test_keywords_without_combat_rules_stay_unexecutable() -> None:
    card = CardDef("Test", "Creature — Test", "Banding", "{1}", "1", "1")
    assert missing(card.abilities[0])


def test_an_illegal_attack_changes_nothing_not_even_the_step() -> None:
    game = two_players()
    bears = game.create(BEARS, "Alice", "battlefield")
    bears.since_turn = 1  # came under Alice's control this turn
    before = game.fingerprint()
    with pytest.raises(IllegalActionError, match="summoning sickness"):
        fighting.attack(game, ScriptedDecider(), "Alice", [bears])
    assert game.fingerprint() == before and game.step is Step.MAIN1


def test_only_the_active_player_attacks() -> None:
    game = two_players()
    bears = game.create(BEARS, "Bob", "battlefield")
    with pytest.raises(IllegalActionError, match="active player"):
        fighting.attack(game, ScriptedDecider(), "Bob", [bears])


def test_a_summoning_sick_creature_cannot_pay_a_tap_cost() -> None:
    elves = CardDef("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}.", "{G}", "1", "1")
    game = two_players()
    elf = game.create(elves, "Alice", "battlefield")
    elf.since_turn = game.turn
    with pytest.raises(CostError, match="summoning sickness"):
        play.activate(game, ScriptedDecider(), "Alice", elf, 1)
    elf.since_turn = 0
    play.activate(game, ScriptedDecider(), "Alice", elf, 1)
    assert game.players["Alice"].mana_pool == ["G"]


def test_a_creature_that_leaves_the_battlefield_leaves_combat() -> None:
    game = two_players()
    bears = game.create(BEARS, "Alice", "battlefield")
    fighting.attack(game, ScriptedDecider(), "Alice", [bears])
    assert game.combat is not None and bears.id in game.combat.attackers
    game.move(bears, "hand")
    assert bears.id not in game.combat.attackers
    turn.advance(game, ScriptedDecider(), Step.MAIN2)
    assert game.players["Bob"].life == 20 and game.combat is None


def test_a_blocked_attacker_whose_blocker_left_deals_no_damage() -> None:
    game = two_players()
    wurm = game.create(WURM, "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    decider = ScriptedDecider()
    fighting.attack(game, decider, "Alice", [wurm])
    fighting.block(game, decider, "Bob", [(bears, wurm)])
    game.move(bears, "hand")  # bounced after blocks: the Wurm stays blocked (rule 506.4)
    turn.advance(game, decider, Step.MAIN2)
    assert game.players["Bob"].life == 20 and wurm.damage == 0


def test_deathtouch_applies_to_noncombat_damage_too() -> None:
    game = two_players()
    rats = game.create(RATS, "Alice", "battlefield")
    wurm = game.create(WURM, "Bob", "battlefield")
    combat.deal_damage(game, rats, wurm, 1)
    state_based_actions(game)
    assert wurm.zone == "graveyard" and not wurm.deathtouched


def test_advancing_to_a_skipped_step_is_refused() -> None:
    game = two_players()
    with pytest.raises(IllegalActionError, match="never reaches"):
        turn.advance(game, ScriptedDecider(), Step.COMBAT_DAMAGE)
    assert game.step is Step.MAIN1 and game.turn == 1


def test_blocking_needs_declared_attackers() -> None:
    game = two_players()
    bears = game.create(BEARS, "Bob", "battlefield")
    angel = game.create(ANGEL, "Alice", "battlefield")
    with pytest.raises(IllegalActionError, match="declare attackers"):
        fighting.block(game, ScriptedDecider(), "Bob", [(bears, angel)])


def test_attack_triggers_see_the_attacker_as_that_creature() -> None:
    paladin = CardDef(
        "Test Captain", "Creature — Human Knight", "Whenever a creature you control attacks, that creature "
        "gets +1/+0 until end of turn.", "{2}{W}", "2", "2",
    )  # fmt: skip
    game = two_players()
    captain = game.create(paladin, "Alice", "battlefield")
    bears = game.create(BEARS, "Alice", "battlefield")
    decider = ScriptedDecider()
    fighting.attack(game, decider, "Alice", [bears])
    play.resolve_all(game, decider)
    assert (bears.power, captain.power) == (3, 2)
