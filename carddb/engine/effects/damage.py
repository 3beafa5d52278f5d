"""Damage: dealing it, fighting, and preventing it."""

from __future__ import annotations

import dataclasses

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form, written
from carddb.engine.core.state import GameObject, Shield
from carddb.engine.effects.common import (
    stat_amount,
    target_objects,
    template_text,
)
from carddb.engine.query.abilities import keywords_of
from carddb.engine.query.nouns import (
    THAT_MANY,
    did,
    matches,
    objects,
    refers_to_named_players,
    resolve,
    speaking_of,
    value,
)
from carddb.engine.query.replacing import chosen_source, next_time_prevention
from carddb.engine.rules import combat
from carddb.oracle.model import Action, Noun, Pronoun
from carddb.oracle.phrases import form_names


def _keys(refs: list[Ref]) -> list[int | str]:
    return [ref if isinstance(ref, str) else ref.id for ref in refs]


def prevent_next_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Prevent the next 3 damage that would be dealt to any target this turn." (615.7)"""
    amount = value(ctx, action.arg("amount"))
    for key in _keys(resolve(ctx, action.arg("to"))):
        ctx.game.shields.append(Shield(to=key, amount=amount))


def prevent_all_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Prevent all combat damage that would be dealt this turn." and the forms that name what is
    dealt damage or what deals it (the clause's "this turn": shields end at cleanup)."""
    text = template_text(action)
    combat_only = "combat damage" in text
    to = _keys(resolve(ctx, action.arg("to"))) if action.arg("to") is not None else [None]
    by_refs = action.arg("by") if action.arg("by") is not None else action.arg("what")
    by = [k for k in _keys(resolve(ctx, by_refs)) if isinstance(k, int)] if by_refs is not None else [None]
    both = action.arg("what") is not None  # "dealt to and dealt by ~": two shields
    for key in to if not both else [None]:
        for source in by:
            ctx.game.shields.append(Shield(to=key, by=source, combat_only=combat_only))
    if both:
        for key in _keys(resolve(ctx, action.arg("what"))):
            ctx.game.shields.append(Shield(to=key, combat_only=combat_only))





DEALT = "dealt damage"
"""What the resolving ability dealt damage to (``Context.done``): "a creature dealt damage this way"."""


def _deal(ctx: Context, source: GameObject, ref: Ref, amount: int) -> None:
    """``source`` deals damage as the ability says (:func:`carddb.engine.rules.combat.deal_damage`),
    and the ability remembers what it dealt damage to. A spell with trample (Super-Duper Death Ray's
    rulings: "This spell can deal excess damage to its target's controller") deals a creature only
    lethal damage, counting damage already marked on it (deathtouch: 1, as 702.19b counts it), and
    the rest to that creature's controller, at once."""
    parts = [(ref, amount)]
    if _trampling_spell(source) and isinstance(ref, GameObject) and ref.toughness is not None:
        lethal = min(amount, combat.lethal_damage(source, ref))
        parts = [(ref, lethal), (ref.controller, amount - lethal)]
    for recipient_ref, part in parts:
        if part <= 0:
            continue
        dealt, recipient = combat.deal_damage(ctx.game, source, recipient_ref, part, decider=ctx.decider)
        if dealt > 0 and isinstance(recipient, GameObject):
            did(ctx, DEALT, recipient)


def _trampling_spell(source: GameObject) -> bool:
    """An instant or sorcery spell with trample (702.19a speaks of creatures only: a spell's trample
    is its own reminder text's rule)."""
    return source.zone == "stack" and not source.card.is_permanent and "trample" in keywords_of(source)


def _dealt_damage_this_way(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "a creature dealt damage this way": one the resolving ability dealt damage to."""
    return isinstance(ref, GameObject) and ref in ctx.done.get(DEALT, [])


def next_time(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "The next time a red source of your choice would deal damage to you this turn, prevent
    that damage." (615.7): a shield on the damage that source deals to that recipient, used up the
    first time it prevents (:func:`carddb.engine.query.replacing.next_time_prevention`)."""
    condition = next_time_prevention(action)
    if condition is None:
        raise EngineError("not a 'next time' prevention the engine reads")
    what = condition.arg("what")
    chosen = chosen_source(what) is not None
    sources = _chosen_sources(ctx, what) if chosen else list(objects(resolve(ctx, what)))
    for key in _keys(resolve(ctx, condition.arg("to"))):
        for source in sources:
            shield = Shield(to=key, by=source.id, once=True, by_timestamp=source.timestamp)
            ctx.game.shields.append(shield)


def _chosen_sources(ctx: Context, what: object) -> list[GameObject]:
    """ "a red source of your choice": the controller chooses one of the sources that fit, a
    permanent or a spell on the stack (609.7a), as the effect is created."""
    assert isinstance(what, Noun)
    choice = chosen_source(what)
    described = dataclasses.replace(what, qualifiers=tuple(q for q in what.qualifiers if q is not choice))
    stack = [ctx.game.objects[item.source] for item in ctx.game.stack if item.is_spell]
    fits = [obj for obj in [*ctx.game.permanents(), *stack] if matches(ctx, obj, described)]
    if not fits:
        ctx.game.log.append(f"{ctx.controller} has no {what.description} to choose")
        return []
    names = list(dict.fromkeys(obj.name for obj in fits))
    name = ctx.decider.choose(f"{ctx.controller} chooses a {what.description}", names)
    return [next(obj for obj in fits if obj.name == name)]


def _next_time_check(action: Action, catalog: Catalog) -> str | None:
    return None if next_time_prevention(action) is not None else "pred 'next_time'"


def deal_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    amount = value(ctx, action.arg("amount"))
    for ref in resolve(ctx, action.arg("to")):
        source = next(objects(subject), ctx.source)
        _deal(ctx, source, ref, amount)  # deathtouch and lifelink apply




def deal_damage_divided(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ deals 3 damage divided as you choose among one, two, or three targets": each target still
    legal is dealt the part it was given as the ability was put on the stack (601.2d); an illegal
    one's part is dealt to nothing (608.2b)."""
    source = next(objects(subject), ctx.source)
    for ref in ctx.slots.get(id(action), []):
        amount = ctx.divided.get(ref if isinstance(ref, str) else ref.id, 0)
        if amount:
            _deal(ctx, source, ref, amount)


def deal_that_much_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "… deals that much damage to …": the amount of the event that triggered the ability."""
    if THAT_MANY not in ctx.bindings:
        raise EngineError("'that much' names no amount here")
    source = next(objects(subject), ctx.source)
    for ref in resolve(ctx, action.arg("to")):
        _deal(ctx, source, ref, ctx.bindings[THAT_MANY])


def deal_damage_to_both(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ deals 1 damage to each tapped creature and each player": the same damage to what each
    phrase names, at once (the state-based actions see all of it together)."""
    amount = value(ctx, action.arg("amount"))
    source = next(objects(subject), ctx.source)
    phrases = action.arg("to")
    each = phrases if isinstance(phrases, tuple) else (phrases,)
    targets = [ref for phrase in each for ref in resolve(ctx, phrase)]
    for ref in targets:
        _deal(ctx, source, ref, amount)


def deal_damage_equal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ deals damage to target creature equal to its power"; when the number speaks of the
    player dealt damage ("to each player equal to the number of lands they control", "to each
    opponent equal to the number of Islands that player controls"), it is counted for each one."""
    source = next(objects(subject), ctx.source)
    to = action.arg("to")
    if refers_to_named_players(action.arg("what")) and not (isinstance(to, Pronoun) and to.word == "you"):
        for ref in resolve(ctx, to):
            if isinstance(ref, str):
                with speaking_of(ctx, ref):
                    amount = stat_amount(ctx, subject, action)
            else:
                amount = stat_amount(ctx, subject, action)
            _deal(ctx, source, ref, amount)
        return
    amount = stat_amount(ctx, subject, action)
    for ref in resolve(ctx, action.arg("to")):
        _deal(ctx, source, ref, amount)




def fight(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ fights target creature", "Target creature you control fights target creature you don't
    control", "… fight each other" (701.12): each deals damage equal to its power to the other, at
    the same time; if one of them has left the battlefield, is no longer a creature, or was an
    illegal target (its slot is empty), neither deals damage. A creature fighting itself deals
    itself twice its power (701.12c). The damage is not combat damage."""
    if is_form(action, "each_other"):  # the subject names both
        fighters = list(objects(subject))
    else:
        fighters = [*list(objects(subject))[:1], *target_objects(ctx, action)[:1]]
    if len(fighters) != 2 or any(obj.zone != "battlefield" or not obj.is_a("Creature") for obj in fighters):
        ctx.game.log.append("no fight: a creature is missing")
        return
    first, second = fighters
    powers = (max(0, first.power or 0), max(0, second.power or 0))
    _deal(ctx, first, second, powers[0])
    _deal(ctx, second, first, powers[1])


def _divided_check(action: Action, catalog: Catalog) -> str | None:
    """ "deals 3 damage divided as you choose among one, two, or three targets" (any target, one
    source); not "among any number of target creatures" (its slot is the noun's)."""
    if action.arg("what") is not None or not written(action).startswith("deals"):
        return f"pred {action.verb!r} form {written(action)!r}"
    return None


SECTION = Section(
    "effects.damage",
    verbs={
        "prevent_next_damage": prevent_next_damage,
        "prevent_all_damage": prevent_all_damage,
        "deal_damage": deal_damage,
        "damage_to": deal_damage,  # "… and 2 damage to that creature's controller": "deals" left out
        "deal_that_much_damage": deal_that_much_damage,
        "deal_damage_divided": deal_damage_divided,
        "deal_damage_to_both": deal_damage_to_both,
        "deal_damage_equal": deal_damage_equal,
        "fight": fight,
        "next_time": next_time,
    },
    checks={"next_time": _next_time_check, "deal_damage_divided": _divided_check},
    qualifiers={"dealt_damage_this_way": _dealt_damage_this_way},
    forms={
        # a shield on any damage dealt to something: not one on combat damage only, or on a source's damage
        "prevent_next_damage": frozenset({"to", "this_turn_to"}),
        # the shields know combat damage, not noncombat damage only
        "prevent_all_damage": frozenset(form_names("prevent_all_damage"))
        - {"noncombat_to", "noncombat_to_this_turn"},
    },
)
