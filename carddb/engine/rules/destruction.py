"""Destroying a permanent (701.7): indestructible (702.12) and regeneration shields (701.15), the rules
that change it wherever it happens (an effect, lethal damage, deathtouch)."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import CANT_BE_REGENERATED, REGENERATION, keywords_of
from carddb.engine.rules.replacement import replace
from carddb.engine.rules.zones import put


def destroy(game: Game, obj: GameObject, *, regenerate: bool = True, decider: Decider | None = None) -> bool:
    """Destroy a permanent (rule 701.7): indestructible ones are not; a regeneration shield is
    used up instead (the permanent is tapped and its damage removed), unless this destruction or
    the permanent "can't be regenerated" (``regenerate`` False, or until end of turn). True if it
    left."""
    if obj.zone != "battlefield" or "indestructible" in keywords_of(obj):
        return False  # it can't be destroyed: nothing to replace (702.12b)
    proposed = replace(game, Proposed("destroy", obj.controller, obj=obj, regenerate=regenerate), decider)
    if proposed.kind == "replaced":
        return False
    put(game, obj, "graveyard", cause="destroy", decider=decider)
    return obj.zone != "battlefield"


def regeneration(game: Game, event: Proposed) -> list[Replacement]:
    """A regeneration shield (701.15): "the next time it would be destroyed this turn, instead tap
    it, remove all damage from it, and remove it from combat" — unless this destruction or the
    permanent "can't be regenerated"."""
    obj = event.obj
    if event.kind != "destroy" or obj is None or not event.regenerate:
        return []
    if CANT_BE_REGENERATED in obj.restrictions_until_end_of_turn:
        return []
    if REGENERATION not in obj.keywords_until_end_of_turn:
        return []
    name = f"{obj.name}'s regeneration shield"
    return [Replacement(name, ("regenerate", obj.id), partial(_regenerate, game))]


def _regenerate(game: Game, event: Proposed) -> Proposed:
    obj = event.obj
    assert obj is not None
    obj.keywords_until_end_of_turn.remove(REGENERATION)
    game.tap(obj)
    obj.damage = 0
    if game.combat is not None:
        game.combat.remove(obj.id)
    game.log.append(f"{obj.name} regenerates")
    event.kind = "replaced"
    return event



SECTION = Section(
    "rules.destruction", keywords=frozenset({"indestructible"}), replacement_effects=(regeneration,)
)
