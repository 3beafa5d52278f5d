"""Replacement abilities of a permanent or card that put it elsewhere instead (614.1a): "If ~
would be put into a graveyard from anywhere, exile it instead." (every move of it to a graveyard,
from any zone), "If ~ would die, exile it instead." and "If ~ would die, put ~ on top of its
owner's library instead." — effects of the object on itself, which its controller orders with the
others (616.1: they are no self-replacement effects, 614.15) — and "If a creature an opponent
controls would die, exile it instead." and "If a card or token would be put into a graveyard from
anywhere, exile it instead." (a permanent's effect on what it describes, while it is on the
battlefield). ``query.executable.exiled_instead`` recognises the lines."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.executable import exiled_instead
from carddb.engine.query.nouns import matches
from carddb.engine.rules.continuous import NO_DECISIONS
from carddb.oracle.model import Ability, Noun, SelfRef


def exile_instead_of_graveyard(game: Game, event: Proposed) -> list[Replacement]:
    obj = event.obj
    if event.kind != "move" or obj is None or event.to_zone != "graveyard":
        return []
    dies = obj.zone == "battlefield"
    found: list[Replacement] = []
    abilities = [a for _, a in obj.now.abilities] if dies else list(obj.card.abilities)
    own = [where for ability in abilities if (where := _instead(ability, dies, None)) is not None]
    if own:
        zone, position = own[0][1]
        name = f"{obj.name}: {'exile it' if zone == 'exile' else 'into its library'} instead"
        own_key: object = ("exile instead", obj.id)  # no self-replacement effect (614.15)
        found.append(Replacement(name, own_key, partial(_put, zone, position), commutes=False))
    for source in game.permanents():  # "If a card or token would be put into a graveyard from anywhere"
        for index, ability in active_abilities(source):
            recognized = _instead(ability, dies, source)
            what = recognized[0] if recognized is not None else None
            ctx = Context(game, NO_DECISIONS, source.controller, source)
            if isinstance(what, Noun) and matches(ctx, obj, what):
                name, key = f"{source.name}: exile {obj.name} instead", ("exile instead", source.id, index)
                found.append(Replacement(name, key, partial(_put, "exile", None), commutes=False))
    return found


def _instead(
    ability: Ability, dies: bool, source: GameObject | None
) -> tuple[SelfRef | Noun, tuple[str, int | None]] | None:
    """What of its own (``source`` None: the moving object itself, ~) or of what it describes the
    ability puts elsewhere, and where, for a move that is a death (``dies``) or another one."""
    found = exiled_instead(ability)
    if found is None or (found[0] == "dies" and not dies):
        return None
    what, where = found[1], found[2]
    if source is None:
        return (what, where) if isinstance(what, SelfRef) else None
    return (what, where) if isinstance(what, Noun) else None


def _put(zone: str, position: int | None, event: Proposed) -> Proposed:
    event.to_zone, event.position = zone, position
    return event


SECTION = Section("rules.instead", replacement_effects=(exile_instead_of_graveyard,))
