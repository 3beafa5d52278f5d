"""Replacement and prevention effects in one place (614–616): every proposed event goes through
:func:`carddb.engine.rules.replacement.replace`; an effect of the object itself applies first, the
affected player orders the others when the order matters, each applies once, and a loop is a typed
error."""

from __future__ import annotations

from dataclasses import replace as copy

import pytest

from carddb.engine.catalog import CATALOG
from carddb.engine.core.cards import CardDef
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, Player, Shield, Step
from carddb.engine.rules.combat import deal_damage
from carddb.engine.rules.destruction import destroy
from carddb.engine.rules.replacement import ReplacementLoopError, replace

BEARS = CardDef("Grizzly Bears", "Creature — Bear", "", "{1}{G}", "2", "2")


def game_with(*providers: object) -> Game:
    catalog = copy(CATALOG, replacement_effects=tuple(providers))  # type: ignore[arg-type]
    return Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=catalog)


def adds(name: str, amount: int, *, own: bool = False, commutes: bool = True) -> object:
    def provider(game: Game, event: Proposed) -> list[Replacement]:
        def apply(e: Proposed) -> Proposed:
            e.amount = e.amount * 10 + amount
            return e

        return [Replacement(name, name, apply, own, commutes)] if event.kind == "draw" else []

    return provider


def test_each_replacement_applies_once() -> None:
    game = game_with(adds("one", 1), adds("two", 2))

    assert replace(game, Proposed("draw", "Alice", amount=0)).amount == 12


def test_a_self_replacement_applies_first() -> None:
    game = game_with(adds("other", 1), adds("own", 2, own=True))

    assert replace(game, Proposed("draw", "Alice", amount=0)).amount == 21


def test_the_affected_player_orders_effects_whose_order_matters() -> None:
    game = game_with(adds("first", 1, commutes=False), adds("second", 2, commutes=False))
    decider = ScriptedDecider(choices=["second"])

    assert replace(game, Proposed("draw", "Alice", amount=0), decider).amount == 21
    assert decider.unused == ([], [])


def test_an_effect_that_keeps_coming_back_is_a_loop_error() -> None:
    counter = iter(range(10**6))

    def endless(game: Game, event: Proposed) -> list[Replacement]:
        return [Replacement("endless", next(counter), lambda e: e)]

    with pytest.raises(ReplacementLoopError, match="keep applying"):
        replace(game_with(endless), Proposed("draw", "Alice"))


def test_prevention_shields_and_protection_are_replacements_of_damage() -> None:
    game = Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)
    source = game.create(BEARS, "Alice", "battlefield")
    game.shields.append(Shield(to="Bob", amount=1))

    deal_damage(game, source, "Bob", 3)

    assert game.players["Bob"].life == 18 and not game.shields


def test_a_regeneration_shield_replaces_destruction() -> None:
    game = Game({"Alice": Player("Alice")}, "Alice", Step.MAIN1, catalog=CATALOG)
    bears = game.create(BEARS, "Alice", "battlefield")
    bears.keywords_until_end_of_turn.append("regeneration shield")
    bears.damage = 2

    assert destroy(game, bears) is False
    assert bears.zone == "battlefield" and bears.tapped and bears.damage == 0
    assert destroy(game, bears) is True


def optional(name: str) -> object:
    def provider(game: Game, event: Proposed) -> list[Replacement]:
        def apply(e: Proposed) -> Proposed:
            e.kind = "replaced"
            return e

        return [Replacement(name, name, apply, optional=f"{name} instead?")] if event.kind == "draw" else []

    return provider


def test_an_optional_replacement_applies_only_when_the_player_says_yes() -> None:
    game = game_with(optional("dredge"))

    assert replace(game, Proposed("draw", "Alice"), ScriptedDecider(choices=["yes"])).kind == "replaced"
    assert replace(game, Proposed("draw", "Alice"), ScriptedDecider(choices=["no"])).kind == "draw"


def test_an_optional_replacement_is_not_applied_when_nobody_can_be_asked() -> None:
    game = game_with(optional("dredge"))

    assert replace(game, Proposed("draw", "Alice")).kind == "draw"
