"""Destroying a permanent (701.7): indestructible (702.12) and regeneration shields (701.15), the rules
that change it wherever it happens (an effect, lethal damage, deathtouch)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import CANT_BE_REGENERATED, REGENERATION, keywords_of


def destroy(game: Game, obj: GameObject, *, regenerate: bool = True) -> bool:
    """Destroy a permanent (rule 701.7): indestructible ones are not; a regeneration shield is
    used up instead (the permanent is tapped and its damage removed), unless this destruction or
    the permanent "can't be regenerated" (``regenerate`` False, or until end of turn). True if it
    left."""
    if obj.zone != "battlefield" or "indestructible" in keywords_of(obj):
        return False
    regenerate = regenerate and CANT_BE_REGENERATED not in obj.restrictions_until_end_of_turn
    if regenerate and REGENERATION in obj.keywords_until_end_of_turn:
        obj.keywords_until_end_of_turn.remove(REGENERATION)
        obj.tapped = True
        obj.damage = 0
        game.log.append(f"{obj.name} regenerates")
        return False
    game.move(obj, "graveyard")
    return True



SECTION = Section("rules.destruction", keywords=frozenset({"indestructible"}))
