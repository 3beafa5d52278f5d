"""Who controls what a noun describes, on real cards' texts: "target player controls", "that player
controls", "they control", "its controller controls", "defending player controls". Each names
particular players, or the ability is refused: never every player (the scenarios
``tests/scenarios/*`` show the executed cards; these tests show the refusals and the resolution of
the player references themselves)."""

from __future__ import annotations

import pytest

from carddb.engine.catalog import CATALOG, missing
from carddb.engine.core.cards import CardDef
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.state import Combat, Game, Player, Step
from carddb.engine.query.nouns import NAMED_FORMS, TARGET_FORMS, controlling_players, defending_players
from carddb.oracle.model import Action
from carddb.oracle.phrases import find, form_index

BEARS = CardDef("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2", toughness="2")


def problems(type_line: str, text: str) -> list[list[str]]:
    return [missing(ability) for ability in CardDef("Card", type_line, text).abilities]


def three_players(step: Step = Step.MAIN1) -> Game:
    names = ("Alice", "Bob", "Carol")
    return Game({name: Player(name) for name in names}, "Alice", step, catalog=CATALOG)


def test_the_grammar_has_no_controller_qualifier_the_engine_does_not_resolve() -> None:
    forms = 0
    while find("player_controls", forms) is not None:
        forms += 1
    game = three_players()
    source = game.create(BEARS, "Alice", "battlefield")
    ctx = Context(game, ScriptedDecider(), "Alice", source, it=[source], mentions=[["Bob"]])
    for form in range(forms):
        qualifier = Action("player_controls", (), form)
        ctx.slots[id(qualifier)] = ["Carol"]
        allowed = controlling_players(ctx, qualifier)
        written = find("player_controls", form)
        if qualifier.form_name == "each_player":  # "each player controls": every player, rightly
            assert allowed is None
        else:
            assert allowed is not None and allowed != list(game.players), written
    assert forms == 10


@pytest.mark.parametrize("name", sorted(TARGET_FORMS | NAMED_FORMS | {"its_controller"}))
def test_a_reference_with_nothing_to_name_is_an_error_not_everyone(name: str) -> None:
    game = three_players()
    ctx = Context(game, ScriptedDecider(), "Alice", game.create(BEARS, "Alice", "battlefield"))
    with pytest.raises(EngineError):
        controlling_players(ctx, Action("player_controls", (), form_index("player_controls", name)))


def test_that_player_needs_a_player_named_before_it() -> None:
    assert problems("Sorcery", "That player discards a card.") == [["'that player' names no player"]]
    assert problems("Sorcery", "Target player draws a card. That player discards a card.") == [[]]
    assert problems("Sorcery", "Destroy all lands they control.") == [["'that player' names no player"]]
    assert problems("Sorcery", "Each player sacrifices a land they control.") == [[]]


def test_a_linked_leaves_ability_does_not_know_the_player_the_enters_ability_chose() -> None:
    """Soul Scourge: "that player" is the target of another ability (607.2); the event of its
    own trigger is about the Scourge, whose controller the text would call "you"."""
    text = (
        "Flying\nWhen Soul Scourge enters the battlefield, target player loses 3 life.\n"
        "When Soul Scourge leaves the battlefield, that player gains 3 life."
    )
    card = CardDef("Soul Scourge", "Creature — Nightmare Horror", text, "{4}{B}", "3", "2")
    assert [missing(a) for a in card.abilities] == [[], [], ["'that player' names no player"]]


def test_references_that_need_a_resolving_ability_are_refused_in_static_abilities_and_triggers() -> None:
    assert (
        "'target player controls' in a static ability"
        in problems("Enchantment", "Creatures target player controls get +1/+1.")[0]
    )
    assert (
        "'that player controls' in a trigger condition"
        in problems("Enchantment", "Whenever a creature that player controls dies, you draw a card.")[0]
    )


def test_a_pronoun_the_engine_does_not_resolve_is_reported() -> None:
    assert "pronoun 'the rest'" in problems("Sorcery", "Put the rest on the bottom of your library.")[0]


def test_defending_player_is_the_player_the_creature_attacks() -> None:
    game = three_players(Step.DECLARE_ATTACKERS)
    to_bob = game.create(BEARS, "Alice", "battlefield")
    to_carol = game.create(BEARS, "Alice", "battlefield")
    home = game.create(BEARS, "Alice", "battlefield")
    game.combat = Combat(attackers={to_bob.id: "Bob", to_carol.id: "Carol"})
    assert defending_players(Context(game, ScriptedDecider(), "Alice", to_carol)) == ["Carol"]
    # an ability of a creature not attacking, with two players attacked: which one is not known
    with pytest.raises(EngineError, match="defending player"):
        defending_players(Context(game, ScriptedDecider(), "Alice", home))
    game.combat = Combat(attackers={to_bob.id: "Bob"})
    assert defending_players(Context(game, ScriptedDecider(), "Alice", home)) == ["Bob"]
    game.combat = None
    game.step = Step.MAIN2
    assert defending_players(Context(game, ScriptedDecider(), "Alice", home)) == []


def test_in_a_two_player_game_the_nonactive_player_defends_during_combat() -> None:
    game = Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.COMBAT, catalog=CATALOG)
    source = game.create(BEARS, "Alice", "battlefield")
    assert defending_players(Context(game, ScriptedDecider(), "Alice", source)) == ["Bob"]


def test_a_number_counted_per_player_by_an_earlier_step_is_refused_not_taken_as_everyones() -> None:
    # Flux: each player draws as many cards as they discarded; the engine counts the cards the
    # step before moved (Settle the Wreckage's "that many", one player's), not each player's own.
    flux = CardDef(
        "Flux",
        "Sorcery",
        "Each player discards any number of cards, then draws that many cards.\nDraw a card.",
        "{2}{U}",
    )
    ability = flux.parsed.abilities[0]
    assert "'that many'" in missing(ability)


def test_a_refused_action_gives_back_a_players_counters() -> None:
    # a snapshot (taken before every action) keeps its own copy of each player's counters (122.1)
    game = three_players()
    game.players["Bob"].counters["experience"] = 1
    snapshot = game.snapshot()
    game.players["Bob"].counters["experience"] = 3
    game.restore(snapshot)
    assert game.players["Bob"].counters == {"experience": 1}
