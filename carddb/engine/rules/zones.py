"""Putting an object into a zone (400.7) as an event replacement effects may change (614.1a:
"if a card would be put into a graveyard from anywhere, exile it instead"; madness's "discard it
into exile"): every move an effect, a cost or a rule makes goes through :func:`put`."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.proposed import Proposed
from carddb.engine.core.state import CEASED, Event, Game, GameObject
from carddb.engine.rules.replacement import replace


def exile_until(game: Game, obj: GameObject, source: GameObject, decider: Decider | None = None) -> None:
    """ "Exile [obj] until [source] leaves the battlefield" (610.3): nothing happens if the source
    has already left (610.3c); else ``obj`` is exiled and comes back when the source leaves."""
    if source.zone != "battlefield":
        return
    back = "battlefield" if obj.zone == "battlefield" else obj.zone
    if put(game, obj, "exile", decider=decider) == "exile":
        obj.exiled_until = (source.id, back)


def return_exiled(game: Game, left: GameObject, decider: Decider | None = None) -> None:
    """``left`` left the battlefield: what it exiled "until ~ leaves the battlefield" returns (to
    the battlefield under its owner's control, or to the zone it came from, 610.3c)."""
    for obj in list(game.objects.values()):
        if obj.exiled_until is not None and obj.exiled_until[0] == left.id and obj.zone == "exile":
            back = obj.exiled_until[1]
            obj.exiled_until = None
            put(game, obj, back, decider=decider)
            if back == "battlefield":
                obj.controller = obj.owner


def put(
    game: Game,
    obj: GameObject,
    zone: str,
    position: int | None = None,
    *,
    cause: str = "effect",
    decider: Decider | None = None,
) -> str:
    """Move ``obj`` to ``zone`` (its owner's), after the replacement effects; returns the zone it
    went to ("" if the move was replaced by something else entirely). A token that ceased to
    exist goes nowhere (704.5d)."""
    if obj.zone == CEASED or obj.id not in game.objects:
        return ""
    proposed = replace(
        game,
        Proposed("move", obj.controller, obj=obj, to_zone=zone, position=position, cause=cause),
        decider,
    )
    if proposed.kind == "replaced":
        return ""
    owner, controller = obj.owner, obj.controller
    leaves = obj.zone in ("battlefield", "stack") and proposed.to_zone != "battlefield"
    if leaves and obj.face_down_card is not None:  # a face-down permanent or spell is revealed (708.9)
        obj.card, obj.face_down_card, obj.face_down = obj.face_down_card, None, False
        obj.cast_face_down = False
    game.move(obj, proposed.to_zone, proposed.position)
    if cause == "discard":  # "whenever a player discards a card" (701.8), wherever it went
        game.events.append(Event("discard", obj, "hand", proposed.to_zone, owner))
    if cause == "sacrifice":  # "whenever you sacrifice a creature" (701.17), wherever it went
        game.events.append(Event("sacrifice", obj, "battlefield", proposed.to_zone, controller))
    return proposed.to_zone
