"""Helpers the verb handlers share: the objects an action names, its zone, the amount of a stat it reads."""

from __future__ import annotations

from carddb.engine.core.context import Context, Ref
from carddb.engine.core.state import GameObject
from carddb.engine.query.nouns import (
    DISCARDED,
    objects,
    resolve,
    zone_name,
)
from carddb.engine.rules import mana
from carddb.engine.rules.discards import discarded_card
from carddb.oracle.model import Action
from carddb.oracle.phrases import find


def target_objects(ctx: Context, action: Action, role: str = "what") -> list[GameObject]:
    """The objects an action acts on; not the object whose move triggered the ability once it has
    left the zone that move put it in ("When ~ dies, you may exile it": exiled from the graveyard
    meanwhile, it is a new object, 400.7)."""
    found = list(objects(resolve(ctx, action.arg(role))))
    return [obj for obj in found if ctx.moved_to.get(obj.id, obj.zone) == obj.zone]


def zone_of(action: Action, role: str) -> str | None:
    zone = action.arg(role)
    if isinstance(zone, Action) and zone.verb == "zone":
        return {"hand": "hand", "graveyard": "graveyard", "library": "library"}.get(zone_name(zone))
    return None




def template_text(action: Action) -> str:
    form = find(action.verb, action.form)
    return form.text if form is not None else ""


STAT_WORDS = ("power", "toughness", "mana value")


def stat_amount(ctx: Context, subject: list[Ref], action: Action) -> int:
    """The number a "… equal to {whose} power/toughness/mana value" or "… equal to the number of
    {what}" phrase means."""
    what = action.arg("what")
    if what is not None:
        return len(resolve(ctx, what))
    text = template_text(action)
    stat = next(word for word in STAT_WORDS if f" {word}" in text)
    owner = possessor(ctx, subject, str(action.arg("whose")), action)
    if owner is None:
        return 0
    if stat == "mana value":
        return mana.need(owner.card.mana_symbols, 0).total
    number = last_known(ctx, owner, stat)
    return max(0, number or 0)


def last_known(ctx: Context, obj: GameObject, stat: str) -> int | None:
    """Its power or toughness now, or, for an object that left the battlefield while the ability
    resolved or whose leaving triggered it, as it last existed there (608.2h: "When ~ dies, target
    player loses life equal to its power", "Exile target creature. Its controller gains life equal
    to its power")."""
    known = obj.last_known if obj.zone != "battlefield" else None
    if known is not None:
        when, power, toughness = known
        since = ctx.known_since
        if (since is not None and when >= since) or any(ref is obj for ref in ctx.event_refs):
            return power if stat == "power" else toughness
    return obj.power if stat == "power" else obj.toughness


def possessor(
    ctx: Context, subject: list[Ref], whose: str, action: Action | None = None
) -> GameObject | None:
    """Whose power, toughness or mana value a phrase reads: ~'s, its, the enchanted or equipped
    creature's, the target the possessive names ("target creature's", its slot's choice), or the
    card the ability discarded (400.7k, :mod:`carddb.engine.rules.discards`)."""
    if whose.startswith("target ") and action is not None:
        return next(objects(ctx.slots.get(id(action), [])), None)
    if whose == "~'s":
        return ctx.itself
    if whose == DISCARDED:
        return discarded_card(ctx)
    if whose == "its":
        return next(objects(subject), None) or next(objects(ctx.it), None) or ctx.source
    attached = ctx.source.attached_to
    return ctx.game.objects.get(attached) if attached is not None else None




def parse_pt(text: str) -> tuple[int, int]:
    power, toughness = text.split("/")
    return int(power), int(toughness)
