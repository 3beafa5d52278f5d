"""Replacement abilities that change damage (614.1a): "If a source would deal damage to a
permanent or player, it deals double that damage to that permanent or player instead." (Furnace of
Rath), "If another red source you control would deal damage to a permanent or player, it deals
that much damage plus 1 … instead." (Torbran), "… minus 1 …", "… triple …": a permanent's effect,
while it is on the battlefield, on the damage a source it describes would deal to what it
describes; and the prevention abilities "If a red source would deal damage to you, prevent 2 of
that damage." (Sphere of Law, Urza's Armor), on each source's damage. With prevention or other such
effects the affected player orders them (616.1: doubling before or after preventing 3 gives
different damage); ``query.replacing.modified_damage`` recognises the lines."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.nouns import matches, value
from carddb.engine.query.replacing import counters_instead_of_damage, modified_damage, redirected_damage
from carddb.engine.rules.continuous import NO_DECISIONS
from carddb.oracle.model import Noun, Pronoun, SelfRef


def modifications(game: Game, event: Proposed) -> list[Replacement]:
    if event.kind != "damage" or event.amount <= 0 or event.source is None or event.target is None:
        return []
    found: list[Replacement] = []
    for permanent in game.permanents():
        for index, ability in active_abilities(permanent):
            recognized = modified_damage(ability)
            if recognized is None:
                continue
            condition, how, phrase = recognized
            ctx = Context(game, NO_DECISIONS, permanent.controller, permanent)
            what, to = condition.arg("what"), condition.arg("to")
            if not (isinstance(what, Noun) and matches(ctx, event.source, what)):
                continue
            if not _recipient(ctx, to, event.target):
                continue
            amount = value(ctx, phrase.arg("amount")) if how in ("plus", "minus", "prevent") else 0
            name = f"{permanent.name}: {how} {amount or ''}".rstrip()
            key = ("modified damage", permanent.id, index)
            apply = partial(_modify, how, amount)
            found.append(Replacement(name, key, apply, commutes=how == "prevent"))
    return found


def redirections(game: Game, event: Proposed) -> list[Replacement]:
    """ "All damage that would be dealt to you is dealt to ~ / enchanted creature instead."
    (614.9): the damage is dealt to that permanent, if it is on the battlefield, instead."""
    if event.kind != "damage" or event.amount <= 0 or not isinstance(event.target, str):
        return []
    found: list[Replacement] = []
    for permanent in game.permanents(event.target):
        for index, ability in active_abilities(permanent):
            recognized = redirected_damage(ability)
            if recognized is None:
                continue
            redirect = recognized[1]
            new = permanent if isinstance(redirect, SelfRef) else game.objects.get(permanent.attached_to or 0)
            if new is None or new.zone != "battlefield":
                continue
            key = ("redirected damage", permanent.id, index)
            name = f"{permanent.name}: the damage is dealt to {new.name}"
            found.append(Replacement(name, key, partial(_redirect, new), commutes=False))
    return found


def counters_instead(game: Game, event: Proposed) -> list[Replacement]:
    """ "If damage would be dealt to ~, put that many +1/+1 counters on it instead." (Phytohydra):
    no damage is dealt (no lifelink, no "is dealt damage" trigger); the counters are put on it."""
    obj = event.target
    if event.kind != "damage" or event.amount <= 0 or not isinstance(obj, GameObject):
        return []
    found: list[Replacement] = []
    for index, ability in active_abilities(obj):
        counters = counters_instead_of_damage(ability)
        if counters is not None:
            kind = "+1/+1" if counters.arg("kind") == "+1/+1 counters" else "-1/-1"
            name = f"{obj.name}: {kind} counters instead"
            key = ("counters instead of damage", obj.id, index)
            found.append(Replacement(name, key, partial(_put_counters, obj, kind), commutes=False))
    return found


def _put_counters(obj: GameObject, kind: str, event: Proposed) -> Proposed:
    obj.counters[kind] = obj.counters.get(kind, 0) + event.amount
    event.amount, event.kind = 0, "replaced"
    return event


def _redirect(new: GameObject, event: Proposed) -> Proposed:
    event.target, event.player = new, new.controller
    return event


def _recipient(ctx: Context, to: object, target: GameObject | str) -> bool:
    if isinstance(to, Pronoun):  # "to you"
        return target == ctx.controller
    if isinstance(to, SelfRef):
        return target is ctx.source
    return isinstance(to, Noun) and matches(ctx, target, to)


def _modify(how: str, amount: int, event: Proposed) -> Proposed:
    if how == "double":
        event.amount *= 2
    elif how == "triple":
        event.amount *= 3
    elif how == "plus":
        event.amount += amount
    else:  # "minus 1", "prevent 2 of that damage"
        event.amount = max(0, event.amount - amount)
    return event


SECTION = Section(
    "rules.modified_damage", replacement_effects=(modifications, redirections, counters_instead)
)
