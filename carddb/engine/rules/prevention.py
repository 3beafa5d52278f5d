"""Prevention effects (615) as replacement effects on damage: the prevention shields that resolving
abilities create ("Prevent the next 3 damage …", "Prevent all combat damage … this turn",
``Game.shields``) and protection (702.16e: damage from a source it has protection from is
prevented). :func:`prevention` gives :func:`carddb.engine.rules.replacement.replace` those that
apply to a proposed damage event."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject, Shield
from carddb.engine.rules.protection import protected_from


def prevention(game: Game, event: Proposed) -> list[Replacement]:
    if event.kind != "damage" or event.amount <= 0 or event.source is None:
        return []
    source, target = event.source, event.target
    found: list[Replacement] = []
    if isinstance(target, GameObject) and protected_from(target, source):
        found.append(Replacement(f"protection of {target.name}", ("protection", target.id), _prevent_all))
    key = target.id if isinstance(target, GameObject) else target
    for shield in game.shields:
        if shield.combat_only and not event.combat:
            continue
        if (shield.to is not None and shield.to != key) or (shield.by is not None and shield.by != source.id):
            continue
        found.append(Replacement("a prevention shield", ("shield", id(shield)), partial(_use, game, shield)))
    return found


def _prevent_all(event: Proposed) -> Proposed:
    event.amount = 0
    event.kind = "replaced"
    return event


def _use(game: Game, shield: Shield, event: Proposed) -> Proposed:
    """The shield prevents all of the damage, or as much of it as it has left."""
    if shield.amount is None:
        return _prevent_all(event)
    prevented = min(shield.amount, event.amount)
    event.amount -= prevented
    shield.amount -= prevented
    if shield.amount == 0:
        game.shields.remove(shield)
    return event


SECTION = Section("rules.prevention", replacement_effects=(prevention,))
