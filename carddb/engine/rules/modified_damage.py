"""Replacement abilities that change damage (614.1a): "If a source would deal damage to a
permanent or player, it deals double that damage to that permanent or player instead." (Furnace of
Rath), "If another red source you control would deal damage to a permanent or player, it deals
that much damage plus 1 … instead." (Torbran), "… minus 1 …", "… triple …": a permanent's effect,
while it is on the battlefield, on the damage a source it describes would deal to what it
describes. With prevention or other such effects the affected player orders them (616.1: doubling
before or after preventing 3 gives different damage); ``query.replacing.modified_damage``
recognises the lines."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.nouns import matches, value
from carddb.engine.query.replacing import modified_damage
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
            amount = value(ctx, phrase.arg("amount")) if how in ("plus", "minus") else 0
            name = f"{permanent.name}: {how} {amount or ''}".rstrip()
            key = ("modified damage", permanent.id, index)
            found.append(Replacement(name, key, partial(_modify, how, amount), commutes=False))
    return found


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
    else:
        event.amount = max(0, event.amount - amount)
    return event


SECTION = Section("rules.modified_damage", replacement_effects=(modifications,))
