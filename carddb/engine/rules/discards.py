""" "The discarded card" (701.8, 400.7k): an ability that has its player discard — as a cost
("{1}{B}, Discard a creature card: …") or as a step of its effect ("draw a card, then discard a
card") — may speak of the card discarded. The ability remembers it (``StackItem.discarded``, then
``Context.discarded``) and finds it wherever it went: a madness card is in exile while the spell
that made its owner discard it goes on resolving, and in the graveyard once its madness trigger
has put it there (400.7k); what the ability reads of it is the card's own mana value, power or
toughness (its last known information, 608.2h, if it has since been cast)."""

from __future__ import annotations

from carddb.engine.core.context import Context
from carddb.engine.core.errors import EngineError
from carddb.engine.core.state import Event, GameObject
from carddb.engine.query.nouns import DISCARDED, SELF_POSSESSIVE
from carddb.engine.rules.mana import mana_value
from carddb.oracle.model import Action


def discarded_since(events: list[Event], mark: int) -> tuple[int, ...]:
    """The objects discarded by the events after position ``mark`` (a cost just paid)."""
    return tuple(e.obj.id for e in events[mark:] if e.kind == "discard" and e.obj is not None)


def discarded_card(ctx: Context) -> GameObject | None:
    """The card this ability discarded last (None: it discarded none)."""
    found = [ctx.game.objects[i] for i in ctx.discarded if i in ctx.game.objects]
    return found[-1] if found else None


def stat_of(ctx: Context, action: Action) -> int:
    """ "the discarded card's mana value" (power, toughness): 0 when nothing was discarded; "~'s
    power" (toughness, mana value): the source's now, on the battlefield (608.2h)."""
    stat = str(action.arg("stat"))
    if action.arg("owner") == SELF_POSSESSIVE:
        source = ctx.source
        if source.zone != "battlefield":  # its last known information is not kept
            raise EngineError(f"cannot read ~'s {stat}: {source.name} is not on the battlefield")
        now = source.power if stat == "power" else source.toughness if stat == "toughness" else None
        if stat == "mana value":
            return mana_value(source)
        if now is None:
            raise EngineError(f"cannot read ~'s {stat}")
        return max(now, 0)  # 107.1b: a negative result is 0
    if action.arg("owner") != DISCARDED:
        raise EngineError(f"cannot read {action.arg('owner')} {action.arg('stat')}")
    card = discarded_card(ctx)
    if card is None:
        return 0
    if stat == "mana value":
        return mana_value(card)
    printed = card.card.power if stat == "power" else card.card.toughness if stat == "toughness" else None
    if printed is None or not printed.isdigit():
        raise EngineError(f"cannot read the discarded card's {stat}")
    return int(printed)
