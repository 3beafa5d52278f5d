"""Replacement abilities on creating tokens (614.1a): "If an effect would create one or more
tokens under your control, it creates twice that many of those tokens instead." (Parallel Lives,
Anointed Procession, Adrix and Nev): a permanent's effect on every token creation under its
controller's control (``effects.tokens`` proposes each as a "create" event); several double it
again, in any order. ``query.replacing.doubles_tokens`` recognises the lines."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.replacing import doubles_tokens


def twice_the_tokens(game: Game, event: Proposed) -> list[Replacement]:
    if event.kind != "create" or event.amount <= 0:
        return []
    return [
        Replacement(f"{source.name}: twice that many tokens", ("twice the tokens", source.id, index), _twice)
        for source in game.permanents(event.player)
        for index, ability in active_abilities(source)
        if doubles_tokens(ability)
    ]


def _twice(event: Proposed) -> Proposed:
    event.amount *= 2
    return event


SECTION = Section("rules.doubling", replacement_effects=(twice_the_tokens,))
