"""Replacement effects of an object on itself written as "If ~ would be put into a graveyard from
anywhere, exile it instead." (614.1a, 614.15: applied first): every move of it to a graveyard, from
any zone, goes to exile instead (``query.executable.exiled_instead`` recognises the line)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game
from carddb.engine.query.executable import exiled_instead


def exile_instead_of_graveyard(game: Game, event: Proposed) -> list[Replacement]:
    obj = event.obj
    if event.kind != "move" or obj is None or event.to_zone != "graveyard":
        return []
    abilities = [a for _, a in obj.now.abilities] if obj.zone == "battlefield" else list(obj.card.abilities)
    if not any(exiled_instead(ability) for ability in abilities):
        return []
    return [Replacement(f"{obj.name}: exile it instead", ("exile instead", obj.id), _exile, True)]


def _exile(event: Proposed) -> Proposed:
    event.to_zone, event.position = "exile", None
    return event


SECTION = Section("rules.instead", replacement_effects=(exile_instead_of_graveyard,))
