"""Replacement abilities on gaining life (614.1a): "If you would gain life, you gain that much life
plus 1 instead." (Heron of Hope, Angel of Vitality) and "If you would gain life, you gain twice
that much life instead." (Boon Reflection, Rhox Faithmender), each a permanent's effect on its
controller's life gain while it is on the battlefield. Several are applied in the order the player
gaining life chooses (616.1: doubling before or after adding gives different totals);
``query.replacing.gains_more_instead`` recognises the lines."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.nouns import value
from carddb.engine.query.replacing import gains_more_instead
from carddb.engine.rules.continuous import NO_DECISIONS


def more_life(game: Game, event: Proposed) -> list[Replacement]:
    if event.kind != "gain_life" or event.amount <= 0:
        return []
    found: list[Replacement] = []
    for source in game.permanents(event.player):
        for index, ability in active_abilities(source):
            recognized = gains_more_instead(ability)
            if recognized is None:
                continue
            how, phrase = recognized
            ctx = Context(game, NO_DECISIONS, source.controller, source)
            plus = value(ctx, phrase.arg("amount")) if how == "plus" else 0
            more = "twice that much life" if how == "twice" else f"that much life plus {plus}"
            apply = _twice if how == "twice" else partial(_plus, plus)
            name = f"{source.name}: {more}"
            found.append(Replacement(name, ("more life", source.id, index), apply, commutes=how == "plus"))
    return found


def _plus(amount: int, event: Proposed) -> Proposed:
    event.amount += amount
    return event


def _twice(event: Proposed) -> Proposed:
    event.amount *= 2
    return event


SECTION = Section("rules.life_gain", replacement_effects=(more_life,))
