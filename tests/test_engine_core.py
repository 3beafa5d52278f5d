"""The rules engine's core: decisions, mana payment, refusing actions without changing the game,
and random play that never loses a card."""

from __future__ import annotations

import pytest

from carddb.engine.actions import play, turn
from carddb.engine.catalog import CATALOG, card_face_missing, face_missing
from carddb.engine.core.cards import CardDef, whole_card
from carddb.engine.core.decisions import RandomDecider, ScriptedDecider
from carddb.engine.core.errors import (
    CostError,
    IllegalActionError,
    NotExecutableError,
    UnscriptedDecisionError,
)
from carddb.engine.core.state import Event, Game, Player, StackItem, Step, atomic
from carddb.engine.query.executable import functions_from_graveyard
from carddb.engine.scenario.random_play import new_game, random_play
from carddb.oracle.faces import Face

RIFT = CardDef(
    "Underdark Rift",
    "Land",
    "{T}: Add {C}.\n{5}, {T}, Exile Underdark Rift: Roll a d10. Put target artifact, creature, or "
    "planeswalker into its owner's library just beneath the top X cards of that library, where X is "
    "the result. Activate only as a sorcery.",
)
WASTES = CardDef("Wastes", "Basic Land", "{T}: Add {C}.")
FOREST = CardDef("Forest", "Basic Land — Forest")
BEARS = CardDef("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2", toughness="2")
PORTENT = CardDef(
    "Diviner's Portent",
    "Instant",
    "Roll a d20 and add the number of cards in your hand.\n"
    "1—14 | Draw X cards.\n15+ | Scry X, then draw X cards.",
    mana_cost="{X}{U}{U}{U}",
)


def two_players() -> Game:
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)


def test_a_scripted_decider_answers_in_order_and_refuses_what_it_was_not_told() -> None:
    decider = ScriptedDecider(rolls=[3], choices=["top"])
    assert decider.roll(10, "Underdark Rift") == 3
    assert decider.choose("scry", ["top", "bottom"]) == "top"
    with pytest.raises(UnscriptedDecisionError, match="roll a d20"):
        decider.roll(20, "Diviner's Portent")


def test_a_scripted_roll_must_be_a_result_of_the_die() -> None:
    with pytest.raises(Exception, match="not a result of a d10"):
        ScriptedDecider(rolls=[11]).roll(10, "Underdark Rift")


def test_the_same_seed_rolls_the_same_dice() -> None:
    first, second = RandomDecider(7), RandomDecider(7)
    assert [first.roll(20, "") for _ in range(10)] == [second.roll(20, "") for _ in range(10)]


def test_basic_land_types_give_their_mana_ability() -> None:
    (ability,) = FOREST.abilities
    assert FOREST.parsed.rendered == "{T}: Add {G}."
    assert ability.kind.value == "mana"


def test_the_rift_does_not_pay_for_itself_with_its_own_mana() -> None:
    game = two_players()
    rift = game.create(RIFT, "Alice", "battlefield")
    for _ in range(4):
        game.create(WASTES, "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    before = game.fingerprint()
    with pytest.raises(CostError, match="4 mana available"):
        play.activate(game, ScriptedDecider(), "Alice", rift, 2, [[bears]])
    assert game.fingerprint() == before


def test_a_refused_action_leaves_the_game_exactly_as_it_was() -> None:
    game = two_players()
    rift = game.create(RIFT, "Alice", "battlefield")
    for _ in range(5):
        game.create(WASTES, "Alice", "battlefield")
    forest = game.create(FOREST, "Bob", "battlefield")
    before = game.fingerprint()
    with pytest.raises(IllegalActionError, match="not a legal target"):
        play.activate(game, ScriptedDecider(), "Alice", rift, 2, [[forest]])
    assert game.fingerprint() == before


def test_a_refused_action_leaves_waiting_triggers_naming_the_restored_objects() -> None:
    # Flamekin Harbinger's enter trigger waited while a refused action was undone; it then moved
    # the Harbinger it still held from before, an object the game no longer had (random play)
    game = two_players()
    bears = game.create(BEARS, "Alice", "battlefield")
    game.pending.append(StackItem(bears.id, "Alice", 1, [[bears]], event=Event("move", bears)))
    game.events.append(Event("move", bears, "hand", "battlefield", "Alice"))
    with pytest.raises(IllegalActionError), atomic(game):
        game.move(bears, "graveyard")
        raise IllegalActionError("undone")
    restored = game.objects[bears.id]
    assert restored.zone == "battlefield"
    waiting = game.pending[0]
    assert waiting.event is not None and waiting.event.obj is restored
    assert waiting.targets[0][0] is restored
    assert game.events[-1].obj is restored


def test_sorcery_speed_needs_the_active_players_main_phase() -> None:
    game = two_players()
    game.active = "Bob"
    rift = game.create(RIFT, "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    with pytest.raises(IllegalActionError, match="only as a sorcery"):
        play.activate(game, ScriptedDecider(), "Alice", rift, 2, [[bears]])


def test_an_ability_with_unimplemented_text_is_refused_before_anything_happens() -> None:
    odd = CardDef("Oddity", "Artifact", "{T}: Juggle three cards.")
    game = two_players()
    oddity = game.create(odd, "Alice", "battlefield")
    with pytest.raises(NotExecutableError, match="unimplemented text"):
        play.activate(game, ScriptedDecider(), "Alice", oddity, 1)
    assert not oddity.tapped


def test_mana_is_paid_from_the_named_sources() -> None:
    game = two_players()
    forests = [game.create(FOREST, "Alice", "battlefield") for _ in range(3)]
    bears = game.create(BEARS, "Alice", "hand")
    play.cast(game, ScriptedDecider(), "Alice", bears, pay_with=forests[1:])
    assert [f.tapped for f in forests] == [False, True, True]


def test_x_spells_pay_x_and_read_the_table_with_the_modified_result() -> None:
    game = two_players()
    islands = [
        game.create(CardDef("Island", "Basic Land — Island"), "Alice", "battlefield") for _ in range(5)
    ]
    portent = game.create(PORTENT, "Alice", "hand")
    game.create(BEARS, "Alice", "hand")
    for _ in range(5):
        game.create(BEARS, "Alice", "library")
    decider = ScriptedDecider(rolls=[13])
    play.cast(game, decider, "Alice", portent, x=2)
    assert all(island.tapped for island in islands)
    play.resolve_all(game, decider)
    # 13 + 1 card in hand = 14: the row "Draw X cards", with X = 2 paid on casting
    assert len(game.in_zone("hand", "Alice")) == 1 + 2
    assert [o.name for o in game.in_zone("graveyard", "Alice")] == ["Diviner's Portent"]


def test_random_play_never_loses_a_card() -> None:
    game = new_game([RIFT, WASTES, FOREST, BEARS, PORTENT] * 6)
    report = random_play(game, 400, seed=3)
    assert report.accepted > 0 and report.refused > 0
    total = sum(len(ids) for p in game.players.values() for ids in p.zones.values())
    assert total + len(game.battlefield) + len([i for i in game.stack if i.is_spell]) == len(game.objects)


def test_a_cost_can_sacrifice_a_permanent_chosen_by_description() -> None:
    altar = CardDef("Ashnod's Altar", "Artifact", "Sacrifice a creature: Add {C}{C}.")
    game = two_players()
    source = game.create(altar, "Alice", "battlefield")
    game.create(BEARS, "Alice", "battlefield")
    play.activate(game, ScriptedDecider(choices=["Grizzly Bears"]), "Alice", source, 1)
    assert [o.name for o in game.in_zone("graveyard", "Alice")] == ["Grizzly Bears"]
    assert game.players["Alice"].mana_pool == ["C", "C"]


def test_a_cost_that_cannot_be_paid_is_refused() -> None:
    altar = CardDef("Ashnod's Altar", "Artifact", "Sacrifice a creature: Add {C}{C}.")
    game = two_players()
    source = game.create(altar, "Alice", "battlefield")
    with pytest.raises(CostError, match="no creature to sacrifice"):
        play.activate(game, ScriptedDecider(), "Alice", source, 1)


MODAL = CardDef(
    "Sample Charm",
    "Instant",
    "Choose one —\n• Destroy target artifact.\n• You gain 3 life.",
    mana_cost="{G}",
)


def test_a_modal_spell_runs_the_chosen_mode_only() -> None:
    game = two_players()
    game.create(FOREST, "Alice", "battlefield")
    charm = game.create(MODAL, "Alice", "hand")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", charm, modes=[2])
    play.resolve_all(game, decider)
    assert game.players["Alice"].life == 23


def test_choose_one_takes_exactly_one_mode() -> None:
    game = two_players()
    game.create(FOREST, "Alice", "battlefield")
    charm = game.create(MODAL, "Alice", "hand")
    with pytest.raises(IllegalActionError, match="Choose one: choose 1–1 different modes"):
        play.cast(game, ScriptedDecider(), "Alice", charm, modes=[1, 2])


def test_paying_life_as_a_cost_is_executable_and_paid() -> None:
    sanctum = CardDef("Sample Sanctum", "Artifact", "Pay 2 life: You gain 1 life.")
    game = two_players()
    source = game.create(sanctum, "Alice", "battlefield")
    play.activate(game, ScriptedDecider(), "Alice", source, 1)
    play.resolve_all(game, ScriptedDecider())
    assert game.players["Alice"].life == 19


def test_damage_equal_to_its_power_reads_the_creature_dealing_it() -> None:
    fling = CardDef(
        "Sample Brute",
        "Creature — Giant",
        "{T}: Sample Brute deals damage equal to its power to any target.",
        power="3",
        toughness="3",
    )
    game = two_players()
    brute = game.create(fling, "Alice", "battlefield")
    brute.since_turn = 0  # under Alice's control since before this turn
    play.activate(game, ScriptedDecider(), "Alice", brute, 1, [["Bob"]])
    play.resolve_all(game, ScriptedDecider())
    assert game.players["Bob"].life == 17


def test_life_equal_to_a_target_creatures_power_reads_the_possessives_target() -> None:
    text = "Target player gains life equal to target creature's power."
    card = CardDef("Sample Blessing", "Instant", text, mana_cost="{G}")
    assert face_missing(card.parsed) == []
    game = two_players()
    game.create(FOREST, "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    blessing = game.create(card, "Alice", "hand")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", blessing, [["Alice"], [bears]])  # two slots: the player, the creature
    play.resolve_all(game, decider)
    assert game.players["Alice"].life == 22


def test_a_delayed_ability_waits_for_the_next_end_step() -> None:
    maker = CardDef(
        "Sample Flamecaller",
        "Artifact",
        "{T}: Create a 3/1 red Elemental creature token with haste. "
        "Exile it at the beginning of the next end step.",
    )
    game = two_players()
    source = game.create(maker, "Alice", "battlefield")
    decider = ScriptedDecider()
    play.activate(game, decider, "Alice", source, 1)
    play.resolve_all(game, decider)
    assert [o.name for o in game.permanents("Alice")] == ["Sample Flamecaller", "Elemental Token"]
    turn.advance(game, decider, Step.END)
    assert len(game.stack) == 1  # the delayed ability triggered
    play.resolve_all(game, decider)
    assert [o.name for o in game.permanents("Alice")] == ["Sample Flamecaller"]


def test_control_gained_until_end_of_turn_returns_at_cleanup() -> None:
    threaten = CardDef(
        "Sample Threaten",
        "Sorcery",
        "Gain control of target creature until end of turn. Untap that creature. "
        "It gains haste until end of turn.",
        mana_cost="{R}",
    )
    game = two_players()
    game.create(CardDef("Mountain", "Basic Land — Mountain"), "Alice", "battlefield")
    bears = game.create(BEARS, "Bob", "battlefield")
    bears.tapped = True
    spell = game.create(threaten, "Alice", "hand")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", spell, [[bears]])
    play.resolve_all(game, decider)
    assert (bears.controller, bears.tapped) == ("Alice", False)
    turn.advance(game, decider, Step.CLEANUP)
    assert bears.controller == "Bob"


def test_a_permanent_that_doesnt_untap_stays_tapped() -> None:
    colossus = CardDef(
        "Sample Colossus",
        "Artifact Creature — Golem",
        "~ doesn't untap during your untap step.",
        power="9",
        toughness="9",
    )
    game = two_players()
    golem = game.create(colossus, "Alice", "battlefield")
    golem.tapped = True
    turn.advance(game, ScriptedDecider(), Step.UNTAP)  # Bob's turn
    turn.advance(game, ScriptedDecider(), Step.UNTAP)  # Alice's again
    assert golem.tapped


JACE = CardDef(
    "Sample Jace",
    "Legendary Planeswalker — Jace",
    "+1: Scry 1.\n−2: Draw two cards.",
    mana_cost="{2}{U}",
    loyalty="3",
)


def test_a_loyalty_ability_pays_with_loyalty_counters_once_each_turn() -> None:
    game = two_players()
    jace = game.create(JACE, "Alice", "battlefield")
    for _ in range(3):
        game.create(BEARS, "Alice", "library")
    assert jace.counters == {"loyalty": 3}
    decider = ScriptedDecider()
    play.activate(game, decider, "Alice", jace, 2)
    play.resolve_all(game, decider)
    assert jace.counters == {"loyalty": 1}
    assert len(game.in_zone("hand", "Alice")) == 2
    with pytest.raises(IllegalActionError, match="already activated this turn"):
        play.activate(game, decider, "Alice", jace, 1, [])


def test_a_planeswalker_with_no_loyalty_goes_to_the_graveyard() -> None:
    game = two_players()
    jace = game.create(JACE, "Alice", "battlefield")
    jace.counters["loyalty"] = 2
    for _ in range(3):
        game.create(BEARS, "Alice", "library")
    decider = ScriptedDecider()
    play.activate(game, decider, "Alice", jace, 2)
    assert jace.zone == "graveyard"


def test_for_each_repeats_the_clause() -> None:
    rally = CardDef(
        "Sample Rally",
        "Instant",
        "Target creature gets +1/+1 until end of turn for each creature you control.",
        mana_cost="{W}",
    )
    game = two_players()
    game.create(CardDef("Plains", "Basic Land — Plains"), "Alice", "battlefield")
    bears = [game.create(BEARS, "Alice", "battlefield") for _ in range(3)]
    spell = game.create(rally, "Alice", "hand")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", spell, [[bears[0]]])
    play.resolve_all(game, decider)
    assert (bears[0].power, bears[0].toughness, bears[1].power) == (5, 5, 2)


SHOCK = CardDef("Shock", "Instant", "Shock deals 2 damage to any target.", mana_cost="{R}")


def test_a_prevention_shield_prevents_the_next_damage_this_turn() -> None:
    shield = CardDef(
        "Sample Healing Salve",
        "Instant",
        "Prevent the next 3 damage that would be dealt to any target this turn.",
        mana_cost="{W}",
    )
    game = two_players()
    game.create(CardDef("Plains", "Basic Land — Plains"), "Alice", "battlefield")
    game.create(CardDef("Mountain", "Basic Land — Mountain"), "Bob", "battlefield")
    salve = game.create(shield, "Alice", "hand")
    shock = game.create(SHOCK, "Bob", "hand")
    decider = ScriptedDecider()
    play.cast(game, decider, "Alice", salve, [["Alice"]])
    play.resolve_all(game, decider)
    play.cast(game, decider, "Bob", shock, [["Alice"]])
    play.resolve_all(game, decider)
    assert game.players["Alice"].life == 20
    assert game.shields[0].amount == 1  # one damage of the shield is left this turn


def test_a_granted_ability_can_be_activated() -> None:
    spirit = CardDef(
        "Sample Spirit Link",
        "Enchantment — Aura",
        'Enchant land\nEnchanted land has "{T}: Add {C}{C}."',
        mana_cost="{G}",
    )
    game = two_players()
    forest = game.create(FOREST, "Alice", "battlefield")
    aura = game.create(spirit, "Alice", "battlefield")
    aura.attached_to = forest.id
    turn.advance(game, ScriptedDecider(), Step.MAIN2)  # any action lets the continuous effects apply
    assert len(forest.now.abilities) == 2  # its own mana ability and the granted one (layer 6)
    play.activate(game, ScriptedDecider(), "Alice", forest, 2)  # its own Forest ability is the first
    assert game.players["Alice"].mana_pool == ["C", "C"]


def test_cycling_is_activated_from_the_hand() -> None:
    cycler = CardDef(
        "Sample Cycler", "Creature — Elemental", "Cycling {2}", mana_cost="{5}", power="5", toughness="5"
    )
    game = two_players()
    for _ in range(2):
        game.create(WASTES, "Alice", "battlefield")
    card = game.create(cycler, "Alice", "hand")
    game.create(BEARS, "Alice", "library")
    decider = ScriptedDecider()
    play.activate(game, decider, "Alice", card, 1)
    play.resolve_all(game, decider)
    assert [o.name for o in game.in_zone("graveyard", "Alice")] == ["Sample Cycler"]
    assert [o.name for o in game.in_zone("hand", "Alice")] == ["Grizzly Bears"]


KNIGHT = CardDef(
    "Sample White Knight",
    "Creature — Human Knight",
    "First strike, protection from black",
    mana_cost="{W}{W}",
    power="2",
    toughness="2",
)


def test_protection_from_a_colour_stops_its_targeting_and_damage() -> None:
    bolt = CardDef("Sample Black Bolt", "Instant", "Sample Black Bolt deals 3 damage to any target.", "{B}")
    game = two_players()
    knight = game.create(KNIGHT, "Bob", "battlefield")
    game.create(CardDef("Swamp", "Basic Land — Swamp"), "Alice", "battlefield")
    spell = game.create(bolt, "Alice", "hand")
    with pytest.raises(IllegalActionError, match="not a legal target"):
        play.cast(game, ScriptedDecider(), "Alice", spell, [[knight]])
    assert face_missing(KNIGHT.parsed) == []


def test_a_flip_card_s_other_face_is_not_counted_executable() -> None:
    """Tok-Tok's first line would execute, but the engine never flips Akki Lavarunner (710): the face
    cannot come into a game, so it is not counted."""
    text = "Protection from red"
    flipped = Face(
        "Akki Lavarunner // Tok-Tok, Volcano Born",
        text,
        "Tok-Tok, Volcano Born",
        "Legendary Creature — Goblin Shaman",
        "flip",
    )
    parsed = CardDef("Tok-Tok, Volcano Born", "Legendary Creature — Goblin Shaman", text).parsed

    assert face_missing(parsed) == []
    assert card_face_missing(flipped, parsed) == ["the other face of a flip card"]


def test_a_transforming_card_s_back_face_is_counted_on_its_own_text() -> None:
    back = Face(
        "Delver of Secrets // Insectile Aberration",
        "Flying",
        "Insectile Aberration",
        "Creature — Human Insect",
        "transform",
    )

    assert (
        card_face_missing(back, CardDef("Insectile Aberration", "Creature — Human Insect", "Flying").parsed)
        == []
    )


DELVER = whole_card(
    "Delver of Secrets",
    "transform",
    (
        CardDef("Delver of Secrets", "Creature — Human Wizard", "", "{U}", "1", "1"),
        CardDef("Insectile Aberration", "Creature — Human Insect", "Flying", "", "3", "2", ("U",)),
    ),
)
KAZANDU = whole_card(
    "Kazandu Mammoth",
    "modal_dfc",
    (
        CardDef("Kazandu Mammoth", "Creature — Elephant", "", "{1}{G}{G}", "3", "3"),
        CardDef("Kazandu Valley", "Land", "Kazandu Valley enters the battlefield tapped.\n{T}: Add {G}."),
    ),
)


def test_a_transforming_card_s_back_face_is_not_cast() -> None:
    """712.11: a transforming card's back face is reached by transforming, never cast."""
    game = two_players()
    delver = game.create(DELVER, "Alice", "hand")

    with pytest.raises(IllegalActionError, match="a permanent transforms into it"):
        play.cast(game, ScriptedDecider(), "Alice", delver, face="Insectile Aberration")
    assert delver.card is DELVER and delver.zone == "hand"


def test_a_modal_double_faced_land_is_its_front_face_again_once_it_leaves_the_battlefield() -> None:
    """712.8a: in every zone but the stack and the battlefield, it has its front face's
    characteristics; Kazandu Valley goes to the graveyard as Kazandu Mammoth."""
    game = two_players()
    card = game.create(KAZANDU, "Alice", "hand")
    play.play_land(game, "Alice", card, face="Kazandu Valley")
    assert (card.name, card.tapped) == ("Kazandu Valley", True)

    game.move(card, "graveyard")

    assert card.name == "Kazandu Mammoth" and card.whole_card is None


def test_a_vanguard_card_is_not_a_game_object() -> None:
    vanguard = Face(
        "Akroma, Angel of Wrath Avatar", "Creatures you control have flying.", None, "Vanguard", "vanguard"
    )
    parsed = CardDef("Akroma Avatar", "Vanguard", "Creatures you control have flying.").parsed

    assert card_face_missing(vanguard, parsed) == ["a vanguard card"]


def test_a_trigger_that_returns_the_card_from_its_graveyard_works_from_the_graveyard() -> None:
    """113.6m: its effect moves the card out of the graveyard, so it triggers there (and only there)."""
    detective = CardDef(
        "Dogged Detective",
        "Creature — Human Rogue",
        "Whenever an opponent draws their second card each turn, you may return Dogged Detective from your"
        " graveyard to your hand.",
    )
    assert face_missing(detective.parsed) == []
    assert functions_from_graveyard(detective.abilities[0])


def test_a_shield_against_combat_damage_only_is_refused() -> None:
    """The engine's shields prevent any damage: "the next 1 combat damage" is not one of them."""
    griffin = CardDef(
        "Decorated Griffin",
        "Creature — Griffin",
        "{1}{W}: Prevent the next 1 combat damage that would be dealt to you this turn.",
    )
    assert face_missing(griffin.parsed) == ["pred 'prevent_next_damage' form combat_to"]


@pytest.mark.parametrize(
    "cost",
    [
        "sacrifice a creature or pay {3}{B}",  # Eaten Alive: one of two, the caster's choice
        "you may reveal a Goblin card from your hand",  # Goldmeadow Stalwart: optional
    ],
)
def test_an_additional_cost_the_caster_chooses_is_refused_not_paid_as_due(cost: str) -> None:
    text = f"As an additional cost to cast this spell, {cost}.\nExile target creature."
    card = CardDef("Sample Offering", "Sorcery", text, mana_cost="{B}")
    assert "casting ability" in face_missing(card.parsed)


def test_a_vanguard_face_is_not_executable_whatever_its_abilities() -> None:
    """113.6p, 902: a vanguard's abilities work from the command zone, which the engine does not play;
    the same text on a permanent executes."""
    gix = CardDef("Gix", "Vanguard", "{3}: Return target creature card from your graveyard to your hand.")
    assert face_missing(gix.parsed) == []  # the text alone
    assert face_missing(gix.parsed, "Vanguard") == ["vanguard card (abilities in the command zone, 113.6p)"]
    assert face_missing(gix.parsed, "Artifact") == []
