"""The mechanics of the seed rulings at the level of the Python API (their scenarios are in
``tests/scenarios/seeds/``): what the catalog now executes, face-down characteristics, and the
honest refusals that remain."""

from __future__ import annotations

import pytest

from carddb.engine.catalog import CATALOG, missing
from carddb.engine.core.cards import CardDef
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.state import Game, Player, Step
from carddb.engine.query.characteristics import colors_of
from carddb.engine.query.executable import card_missing
from carddb.engine.query.planar import planar_deck, planar_objects
from carddb.engine.rules import face_down, planechase
from carddb.engine.rules.execution import roll_dice

TEMPER = CardDef(
    "Fiery Temper", "Instant", "Fiery Temper deals 3 damage to any target.\nMadness {R}", "{1}{R}{R}"
)
BEARS = CardDef("Grizzly Bears", "Creature — Bear", "", "{1}{G}", "2", "2")


def game() -> Game:
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)


def test_madness_and_dredge_with_a_mana_cost_and_a_number_are_executed() -> None:
    thug = CardDef("Golgari Thug", "Creature — Human Warrior", "Dredge 4", "{1}{B}", "1", "1")

    assert card_missing(TEMPER, CATALOG) == []
    assert card_missing(thug, CATALOG) == []


def test_madness_with_an_x_cost_is_refused() -> None:
    judgment = CardDef("Avacyn's Judgment", "Sorcery", "Madness {X}{R}", "{1}{R}")

    assert card_missing(judgment, CATALOG) == ["keyword madness {X}{R}"]


def test_a_cloaked_card_is_a_nameless_colourless_2_2_creature_with_ward_2_until_turned_face_up() -> None:
    g = game()
    bears = g.create(BEARS, "Alice", "battlefield")
    face_down.turn_face_down(bears, face_down.cloaked())

    assert (bears.name, bears.power, bears.toughness, bears.card.subtypes) == ("", 2, 2, ())
    assert bears.is_a("Creature") and not colors_of(bears) and bears.card.mana_cost == ""
    face_down.turn_face_up(g, bears)
    assert (bears.name, bears.face_down, bears.card.subtypes) == ("Grizzly Bears", False, ("Bear",))


def test_only_the_roll_of_chaos_is_watched_among_keyword_action_triggers() -> None:
    chaos = "Whenever you roll {CHAOS}, target player mills ten cards."
    lake = CardDef("Lethe Lake", "Plane — Arkhos", chaos)
    text = "Whenever a creature you control explores, put a +1/+1 counter on ~ and you gain 3 life."
    walker = CardDef("Wildgrowth Walker", "Creature — Elemental", text, "{1}{G}", "1", "3")

    assert [p for a in lake.abilities for p in missing(a)] == []
    assert "trigger 'keyword_action'" in [p for a in walker.abilities for p in missing(a)]


def test_a_planes_static_ability_the_engine_does_not_apply_refuses_the_game() -> None:
    g = game()
    text = "All creatures get +2/+2.\nWhenever you roll {CHAOS}, you may add {W}{U}{B}{R}{G}."
    krosa = CardDef("Krosa", "Plane — Dominaria", text)
    g.create(krosa, "Alice", "command").face_down = True

    with pytest.raises(NotExecutableError, match="Krosa: cannot execute static ability of a plane"):
        planechase.start(g)


def test_two_dice_rolled_together_give_the_total_of_their_results() -> None:
    g = game()
    source = g.create(BEARS, "Alice", "battlefield")
    ctx = Context(g, ScriptedDecider(rolls=[3, 4]), "Alice", source)

    assert roll_dice(ctx, 6, 2) == 7


def test_the_starting_plane_skips_phenomena_to_the_bottom_of_the_planar_deck() -> None:
    g = game()
    epiphany = CardDef("Mutual Epiphany", "Phenomenon")
    summer = CardDef("Fields of Summer", "Plane — Moag", "Whenever you roll {CHAOS}, you may gain 10 life.")
    for card in (epiphany, summer):
        g.create(card, "Alice", "command").face_down = True

    planechase.start(g)

    assert [o.name for o in planar_objects(g)] == ["Fields of Summer"]
    assert [o.name for o in planar_deck(g, "Alice")] == ["Mutual Epiphany"]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("Ward {X}, where X is the number of experience counters you have.", False),
        ("Ward—Discard a card.", False),
        ("Ward—Sacrifice ~.", True),  # "~" in a cost another player pays: not read
        ("Ward {X}", True),  # an X nothing gives the value of
    ],
)
def test_ward_costs_the_engine_pays_or_refuses(text: str, refused: bool) -> None:
    card = CardDef(name="Warded", type_line="Creature — Bear", text=text, power="2", toughness="2")
    problems = card_missing(card, CATALOG)
    assert any("ward" in problem for problem in problems) == refused, problems
