"""Engine handlers beyond the basics, each on real cards' texts: static abilities (continuous
effects), triggered abilities (events), optional actions, conditions, qualifiers, searching,
tokens, regeneration and indestructible, hexproof and flash."""

from __future__ import annotations

import pytest

from carddb.engine.actions import play, turn
from carddb.engine.catalog import CATALOG, missing
from carddb.engine.core.cards import CardDef
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import TargetError
from carddb.engine.core.state import Game, GameObject, Player, Step
from carddb.engine.rules.execution import execute
from carddb.engine.rules.triggers import settle
from carddb.oracle.model import Kind

BEARS = CardDef("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2", toughness="2")
FOREST = CardDef("Forest", "Basic Land — Forest")
ISLAND = CardDef("Island", "Basic Land — Island")
SHOCK = CardDef("Shock", "Instant", "Shock deals 2 damage to any target.", mana_cost="{R}")


def two_players() -> Game:
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)


def lands(game: Game, card: CardDef, count: int, player: str = "Alice") -> None:
    for _ in range(count):
        game.create(card, player, "battlefield")


def names(objects: list[GameObject]) -> list[str]:
    return [obj.name for obj in objects]


def run(game: Game, source: GameObject, decider: ScriptedDecider, index: int = 0) -> None:
    """Execute one ability of ``source`` directly, as its controller."""
    ability = source.card.abilities[index]
    assert not missing(ability), missing(ability)
    ctx = Context(game, decider, source.controller, source)
    for step in ability.effects:
        execute(ctx, step)


# -- static abilities ----------------------------------------------------------------------------
def test_an_anthem_raises_power_and_toughness_while_it_is_on_the_battlefield() -> None:
    anthem = CardDef("Glorious Anthem", "Enchantment", "Creatures you control get +1/+1.", "{1}{W}{W}")
    game = two_players()
    mine = game.create(BEARS, "Alice", "battlefield")
    theirs = game.create(BEARS, "Bob", "battlefield")
    enchantment = game.create(anthem, "Alice", "battlefield")
    assert not missing(anthem.abilities[0])
    settle(game, ScriptedDecider())
    assert (mine.power, mine.toughness, theirs.power) == (3, 3, 2)
    game.move(enchantment, "graveyard")
    settle(game, ScriptedDecider())
    assert (mine.power, mine.toughness) == (2, 2)


def test_a_lord_gives_other_creatures_of_its_type_a_bonus() -> None:
    lord = CardDef(
        "Merfolk Sovereign",
        "Creature — Merfolk",
        "Other Merfolk you control get +1/+1.",
        "{1}{U}{U}",
        "2",
        "2",
    )
    merfolk = CardDef("Merfolk of the Pearl Trident", "Creature — Merfolk", "", "{U}", "1", "1")
    game = two_players()
    source = game.create(lord, "Alice", "battlefield")
    mine = game.create(merfolk, "Alice", "battlefield")
    theirs = game.create(merfolk, "Bob", "battlefield")
    settle(game, ScriptedDecider())
    assert (mine.power, theirs.power, source.power) == (2, 1, 2)


def test_as_long_as_applies_only_while_the_condition_holds() -> None:
    card = CardDef(
        "Test Hexer", "Creature — Human", "Test Hexer has hexproof as long as you control a Forest.",
        power="1", toughness="1",
    )  # fmt: skip
    game = two_players()
    creature = game.create(card, "Alice", "battlefield")
    assert not missing(card.abilities[0])
    shock = game.create(SHOCK, "Bob", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 2, "Bob")
    settle(game, ScriptedDecider())
    game.active = "Bob"
    play.cast(game, ScriptedDecider(), "Bob", shock, [[creature]])  # no Forest: a legal target
    game.stack.clear()
    game.move(shock, "hand")
    forest = game.create(FOREST, "Alice", "battlefield")
    settle(game, ScriptedDecider())
    with pytest.raises(TargetError):
        play.cast(game, ScriptedDecider(), "Bob", shock, [[creature]])
    assert forest.zone == "battlefield"


def test_gets_for_each_counts_what_it_names() -> None:
    card = CardDef(
        "Kird Test", "Creature — Ape", "Kird Test gets +1/+1 for each Forest you control.", "{G}", "0", "0"
    )
    game = two_players()
    ape = game.create(card, "Alice", "battlefield")
    lands(game, FOREST, 3)
    lands(game, FOREST, 2, "Bob")
    settle(game, ScriptedDecider())
    assert (ape.power, ape.toughness) == (3, 3)


def test_a_tapland_enters_tapped_and_a_creature_with_counters() -> None:
    tapland = CardDef(
        "Dismal Backwater", "Land", "Dismal Backwater enters the battlefield tapped.\n{T}: Add {U} or {B}."
    )
    walker = CardDef(
        "Walking Ballista Test", "Artifact Creature — Construct",
        "Walking Ballista Test enters the battlefield with two +1/+1 counters on it.", "{2}", "0", "0",
    )  # fmt: skip
    game = two_players()
    land = game.create(tapland, "Alice", "hand")
    play.play_land(game, "Alice", land)
    assert land.tapped
    construct = game.create(walker, "Alice", "hand")
    lands(game, ISLAND, 2)
    play.cast(game, ScriptedDecider(), "Alice", construct)
    play.resolve_all(game, ScriptedDecider())
    assert construct.counters == {"+1/+1": 2} and construct.power == 2


# -- triggered abilities -------------------------------------------------------------------------
def test_an_enters_trigger_goes_on_the_stack_and_resolves() -> None:
    elf = CardDef(
        "Elvish Visionary", "Creature — Elf Shaman",
        "When Elvish Visionary enters the battlefield, draw a card.",
        "{1}{G}", "1", "1",
    )  # fmt: skip
    game = two_players()
    game.create(FOREST, "Alice", "library")
    card = game.create(elf, "Alice", "hand")
    lands(game, FOREST, 2)
    play.cast(game, ScriptedDecider(), "Alice", card)
    play.pass_priority(game, ScriptedDecider())  # the Elf resolves: its ability triggers
    assert [game.objects[item.source].name for item in game.stack] == ["Elvish Visionary"]
    play.pass_priority(game, ScriptedDecider())
    assert names(game.in_zone("hand", "Alice")) == ["Forest"]


def test_an_enters_trigger_chooses_its_target_through_the_decider() -> None:
    man = CardDef(
        "Flametongue Test", "Creature — Kavu",
        "When Flametongue Test enters the battlefield, it deals 4 damage to target creature.",
        "{3}{R}", "4", "2",
    )  # fmt: skip
    game = two_players()
    game.create(BEARS, "Bob", "battlefield")
    card = game.create(man, "Alice", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 4)
    play.cast(game, ScriptedDecider(), "Alice", card)
    play.pass_priority(game, ScriptedDecider(choices=["Grizzly Bears"]))
    play.resolve_all(game, ScriptedDecider())
    assert names(game.in_zone("graveyard", "Bob")) == ["Grizzly Bears"]


def test_a_dies_trigger_sees_the_creature_that_died() -> None:
    blood = CardDef(
        "Blood Artist Test", "Creature — Vampire",
        "Whenever Blood Artist Test or another creature dies, target player loses 1 life and "
        "you gain 1 life.",
        "{1}{B}", "0", "1",
    )  # fmt: skip
    game = two_players()
    game.create(blood, "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    shock = game.create(SHOCK, "Alice", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 1)
    play.cast(game, ScriptedDecider(), "Alice", shock, [[bears]])
    play.pass_priority(game, ScriptedDecider(choices=["Bob"]))
    play.resolve_all(game, ScriptedDecider())
    assert (game.players["Bob"].life, game.players["Alice"].life) == (19, 21)


def test_a_cast_trigger_sees_the_spell() -> None:
    prodigy = CardDef(
        "Prowess Test", "Creature — Human Monk",
        "Whenever you cast an instant or sorcery spell, Prowess Test deals 1 damage to each opponent.",
        "{1}{R}", "1", "1",
    )  # fmt: skip
    game = two_players()
    game.create(prodigy, "Alice", "battlefield")
    shock = game.create(SHOCK, "Alice", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 1)
    play.cast(game, ScriptedDecider(), "Alice", shock, [["Bob"]])
    assert len(game.stack) == 2  # the trigger is above the spell
    play.resolve_all(game, ScriptedDecider())
    assert game.players["Bob"].life == 17


def test_an_upkeep_trigger_stops_advancing_at_the_upkeep() -> None:
    card = CardDef(
        "Phyrexian Arena Test", "Enchantment",
        "At the beginning of your upkeep, you draw a card and you lose 1 life.", "{1}{B}{B}",
    )  # fmt: skip
    game = two_players()
    game.step = Step.UNTAP
    game.create(card, "Alice", "battlefield")
    game.create(FOREST, "Alice", "library")
    game.create(FOREST, "Alice", "library")
    turn.advance(game, ScriptedDecider(), Step.MAIN1)
    assert game.step is Step.UPKEEP and len(game.stack) == 1
    play.pass_priority(game, ScriptedDecider())
    assert game.players["Alice"].life == 19 and len(game.in_zone("hand", "Alice")) == 1


def test_a_damage_trigger() -> None:
    card = CardDef(
        "Spitemare Test", "Creature — Elemental Horse",
        "Whenever Spitemare Test is dealt damage, it deals 1 damage to any target.", "{2}{R}", "3", "3",
    )  # fmt: skip
    game = two_players()
    horse = game.create(card, "Bob", "battlefield")
    shock = game.create(SHOCK, "Alice", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 1)
    play.cast(game, ScriptedDecider(), "Alice", shock, [[horse]])
    play.pass_priority(game, ScriptedDecider(choices=["Alice"]))
    play.resolve_all(game, ScriptedDecider())
    assert game.players["Alice"].life == 19


# -- may, if you do, unless pays -------------------------------------------------------------------
MAY = CardDef("Merfolk Looter Test", "Sorcery", "You may draw a card. If you do, discard a card.", "{U}")


@pytest.mark.parametrize(("answer", "hand"), [("yes", ["Island"]), ("no", ["Forest"])])
def test_you_may_then_if_you_do(answer: str, hand: list[str]) -> None:
    game = two_players()
    game.create(ISLAND, "Alice", "library")
    game.create(FOREST, "Alice", "hand")
    source = game.create(MAY, "Alice", "stack")
    choices = [answer, "Forest"] if answer == "yes" else [answer]
    run(game, source, ScriptedDecider(choices=choices))
    assert names(game.in_zone("hand", "Alice")) == hand


def test_counter_unless_its_controller_pays() -> None:
    leak = CardDef("Mana Leak", "Instant", "Counter target spell unless its controller pays {3}.", "{1}{U}")
    game = two_players()
    bears = game.create(BEARS, "Bob", "hand")
    lands(game, FOREST, 5, "Bob")
    game.active = "Bob"
    play.cast(game, ScriptedDecider(), "Bob", bears)
    leak_card = game.create(leak, "Alice", "hand")
    lands(game, ISLAND, 2)
    play.cast(game, ScriptedDecider(), "Alice", leak_card, [[bears]])
    play.pass_priority(game, ScriptedDecider(choices=["yes"]))  # Bob pays {3} with his three lands
    assert bears.zone == "stack"
    play.resolve_all(game, ScriptedDecider())
    assert bears.zone == "battlefield"


def test_counter_unless_pays_and_cannot() -> None:
    leak = CardDef("Mana Leak", "Instant", "Counter target spell unless its controller pays {3}.", "{1}{U}")
    game = two_players()
    bears = game.create(BEARS, "Bob", "hand")
    lands(game, FOREST, 2, "Bob")
    game.active = "Bob"
    play.cast(game, ScriptedDecider(), "Bob", bears)
    leak_card = game.create(leak, "Alice", "hand")
    lands(game, ISLAND, 2)
    play.cast(game, ScriptedDecider(), "Alice", leak_card, [[bears]])
    play.pass_priority(game, ScriptedDecider(choices=["yes"]))
    assert bears.zone == "graveyard"


# -- conditions and qualifiers ---------------------------------------------------------------------
def test_a_condition_on_what_you_control() -> None:
    card = CardDef("Test Growth", "Sorcery", "If you control a Forest, draw two cards.", "{G}")
    game = two_players()
    for _ in range(2):
        game.create(ISLAND, "Alice", "library")
    source = game.create(card, "Alice", "stack")
    run(game, source, ScriptedDecider())
    assert game.in_zone("hand", "Alice") == []
    lands(game, FOREST, 1)
    run(game, source, ScriptedDecider())
    assert len(game.in_zone("hand", "Alice")) == 2


def test_a_target_card_in_a_graveyard() -> None:
    card = CardDef(
        "Raise Dead", "Sorcery", "Return target creature card from your graveyard to your hand.", "{B}"
    )
    game = two_players()
    dead = game.create(BEARS, "Alice", "graveyard")
    theirs = game.create(BEARS, "Bob", "graveyard")
    spell = game.create(card, "Alice", "hand")
    game.create(CardDef("Swamp", "Basic Land — Swamp"), "Alice", "battlefield")
    with pytest.raises(TargetError):
        play.cast(game, ScriptedDecider(), "Alice", spell, [[theirs]])
    dead, theirs, spell = (game.objects[o.id] for o in (dead, theirs, spell))  # the game was restored
    play.cast(game, ScriptedDecider(), "Alice", spell, [[dead]])
    play.resolve_all(game, ScriptedDecider())
    assert dead.zone == "hand" and theirs.zone == "graveyard"


def test_with_flying_and_with_power_qualifiers() -> None:
    card = CardDef(
        "Test Sweep", "Sorcery",
        "Destroy all creatures with flying. Destroy all creatures with power 4 or greater.", "{2}{G}",
    )  # fmt: skip
    bird = CardDef("Birds", "Creature — Bird", "Flying", "{G}", "0", "1")
    giant = CardDef("Giant", "Creature — Giant", "", "{4}", "4", "4")
    game = two_players()
    objects = [game.create(c, "Bob", "battlefield") for c in (bird, giant, BEARS)]
    run(game, game.create(card, "Alice", "stack"), ScriptedDecider())
    assert [o.zone for o in objects] == ["graveyard", "graveyard", "battlefield"]


# -- libraries, reveal, tokens -------------------------------------------------------------------
def test_search_for_a_basic_land_put_it_onto_the_battlefield_tapped_then_shuffle() -> None:
    card = CardDef(
        "Rampant Growth", "Sorcery",
        "Search your library for a basic land card, put it onto the battlefield tapped, then shuffle.",
        "{1}{G}",
    )  # fmt: skip
    game = two_players()
    game.create(BEARS, "Alice", "library")
    game.create(FOREST, "Alice", "library")
    run(game, game.create(card, "Alice", "stack"), ScriptedDecider(choices=["Forest"]))
    [land] = game.permanents("Alice")
    assert land.name == "Forest" and land.tapped
    assert names(game.in_zone("library", "Alice")) == ["Grizzly Bears"]


def test_a_search_may_find_nothing() -> None:
    card = CardDef(
        "Rampant Growth", "Sorcery",
        "Search your library for a basic land card, put it onto the battlefield tapped, then shuffle.",
        "{1}{G}",
    )  # fmt: skip
    game = two_players()
    game.create(FOREST, "Alice", "library")
    run(game, game.create(card, "Alice", "stack"), ScriptedDecider(choices=["nothing"]))
    assert game.permanents() == []


def test_reveal_the_top_card_and_if_it_is_a_land_put_it_into_your_hand() -> None:
    card = CardDef(
        "Test Reveal", "Sorcery",
        "Reveal the top card of your library. If it's a land card, put it into your hand.", "{G}",
    )  # fmt: skip
    game = two_players()
    game.create(FOREST, "Alice", "library")
    game.create(BEARS, "Alice", "library")
    source = game.create(card, "Alice", "stack")
    run(game, source, ScriptedDecider())
    assert names(game.in_zone("hand", "Alice")) == ["Forest"]
    run(game, source, ScriptedDecider())  # Grizzly Bears is no land: it stays
    assert names(game.in_zone("hand", "Alice")) == ["Forest"]
    assert "reveals Grizzly Bears" in game.log[-1]


def test_a_treasure_token_can_be_sacrificed_for_mana() -> None:
    card = CardDef("Test Treasure", "Sorcery", "Create a Treasure token.", "{R}")
    game = two_players()
    run(game, game.create(card, "Alice", "stack"), ScriptedDecider())
    [treasure] = game.permanents("Alice")
    assert treasure.token and treasure.is_a("Artifact")
    assert treasure.card.abilities[0].kind is Kind.MANA
    play.activate(game, ScriptedDecider(choices=["R"]), "Alice", treasure, 1)
    assert game.players["Alice"].mana_pool == ["R"] and treasure.id not in game.objects


# -- destroying, regenerating, indestructible ------------------------------------------------------
def test_regeneration_replaces_destruction_once() -> None:
    troll = CardDef("Test Troll", "Creature — Troll", "{G}: Regenerate Test Troll.", "{2}{G}", "2", "2")
    wrath = CardDef("Wrath", "Sorcery", "Destroy all creatures.", "{2}{W}{W}")
    game = two_players()
    creature = game.create(troll, "Alice", "battlefield")
    lands(game, FOREST, 1)
    play.activate(game, ScriptedDecider(), "Alice", creature, 1)
    play.resolve_all(game, ScriptedDecider())
    source = game.create(wrath, "Bob", "stack")
    run(game, source, ScriptedDecider())
    assert creature.zone == "battlefield" and creature.tapped
    run(game, source, ScriptedDecider())
    assert creature.zone == "graveyard"


def test_indestructible_survives_destroy_and_lethal_damage() -> None:
    card = CardDef("Darksteel Myr", "Artifact Creature — Myr", "Indestructible", "{3}", "0", "1")
    game = two_players()
    myr = game.create(card, "Bob", "battlefield")
    assert not missing(card.abilities[0])
    shock = game.create(SHOCK, "Alice", "hand")
    lands(game, CardDef("Mountain", "Basic Land — Mountain"), 1)
    play.cast(game, ScriptedDecider(), "Alice", shock, [[myr]])
    play.resolve_all(game, ScriptedDecider())
    assert myr.zone == "battlefield" and myr.damage == 2


def test_flash_lets_a_creature_be_cast_at_instant_speed() -> None:
    card = CardDef("Test Flash", "Creature — Faerie", "Flash", "{G}", "1", "1")
    game = two_players()
    game.step = Step.UPKEEP
    creature = game.create(card, "Alice", "hand")
    lands(game, FOREST, 1)
    play.cast(game, ScriptedDecider(), "Alice", creature)
    play.resolve_all(game, ScriptedDecider())
    assert creature.zone == "battlefield"


def test_keywords_without_rules_are_not_counted_as_executable() -> None:
    card = CardDef("Test Bander", "Creature — Human Knight", "Banding", "{1}{W}", "2", "1")
    assert missing(card.abilities[0]) == ["keyword banding"]
    grant = CardDef("Test Riders", "Enchantment", "Creatures you control have flanking.", "{1}{W}")
    assert "keyword flanking" in missing(grant.abilities[0])  # granted, it is not expanded


def test_a_keyword_that_stands_for_a_triggered_ability_executes_as_that_ability() -> None:
    card = CardDef("Test Flanker", "Creature — Human Knight", "Flanking", "{1}{W}", "2", "1")
    assert missing(card.abilities[0]) == []
    assert missing(CardDef("Test Samurai", "Creature — Samurai", "Bushido X").abilities[0])
