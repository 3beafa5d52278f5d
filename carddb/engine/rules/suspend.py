"""Suspend (702.62a): "Suspend N—[cost]" means "If you could begin to cast this card by putting it
onto the stack from your hand, you may pay [cost] and exile it with N time counters on it. This
action doesn't use the stack," and "At the beginning of your upkeep, if this card is suspended,
remove a time counter from it," and "When the last time counter is removed from this card, if it's
exiled, you may play it without paying its mana cost if able. If you don't, it remains exiled. If
you cast a creature spell this way, it gains haste until you lose control of the spell or the
permanent it becomes."

The first ability is a special action (:func:`carddb.engine.actions.suspend.suspend`); the two
triggered abilities are rule abilities: ``"suspend"`` (:func:`upkeep_triggers`, at the beginning
of the owner's upkeep, for each suspended card of their exile: 702.62b, in exile with suspend and a
time counter) and ``"suspend cast"``, put on the stack when that ability removes the last counter
and resolved in ``actions`` because it casts. The haste is a layer-6 effect on the spell that ends
when its controller changes (:func:`lose_haste`). The engine pays suspend costs that are mana with
a number of time counters ("Suspend X—{X}{U}{U}" is refused)."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.layers import Layer, LayerEffect, Op
from carddb.engine.core.state import Event, Game, GameObject, StackItem, Step
from carddb.oracle.model import Keyword, Kind

TIME = "time"
HASTE = "haste"
_PARAMETER = re.compile(r"^(\d+)—((?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+)$")
_SYMBOL = re.compile(r"\{[^}]+\}")


def suspend_of(card: CardDef) -> tuple[int, tuple[str, ...]] | None:
    """The card's suspend: its number of time counters and the mana symbols of its cost (None: no
    suspend the engine applies)."""
    for ability in card.abilities:
        if ability.kind is not Kind.KEYWORD:
            continue
        for keyword in ability.keywords:
            found = _PARAMETER.match((keyword.parameter or "").strip())
            if keyword.name.lower() == "suspend" and found is not None and not keyword.long_cost:
                return int(found.group(1)), tuple(_SYMBOL.findall(found.group(2)))
    return None


def no_mana_cost(card: CardDef) -> bool:
    """A card with suspend and no mana cost (Lotus Bloom, Ancestral Vision): its mana cost is
    unpayable (118.6), so it is cast only without paying it. (The engine's card definitions leave
    the mana cost empty when it is not given, so only these cards are known to have none.)"""
    return not card.mana_cost and suspend_of(card) is not None


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    if keyword.name.lower() != "suspend" or keyword.long_cost or not _PARAMETER.match(parameter):
        return [f"keyword suspend {parameter}".rstrip()]
    return []


def is_suspended(obj: GameObject) -> bool:
    """702.62b: in exile, with suspend and a time counter on it."""
    return obj.zone == "exile" and obj.counters.get(TIME, 0) > 0 and suspend_of(obj.card) is not None


def upkeep_triggers(game: Game, event: Event) -> list[StackItem]:
    """ "At the beginning of your upkeep, if this card is suspended, remove a time counter from it"
    (the owner's upkeep: a card in exile is its owner's)."""
    if event.kind != "step" or event.to_zone != Step.UPKEEP:
        return []
    return [
        StackItem(obj.id, obj.owner, None, [], rule="suspend")
        for obj in game.in_zone("exile", event.player)
        if is_suspended(obj)
    ]


def remove_time_counter(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or not is_suspended(obj):
        return  # 603.4: no longer suspended
    obj.counters[TIME] -= 1
    game.log.append(f"a time counter is removed from {obj.name} ({obj.counters[TIME]} left)")
    if not obj.counters[TIME]:
        del obj.counters[TIME]
        game.pending.append(StackItem(obj.id, obj.owner, None, [], rule="suspend cast"))


def gain_haste(game: Game, obj: GameObject) -> None:
    """A creature spell cast with suspend gains haste (layer 6) until its controller loses control."""
    obj.effects.append(LayerEffect(Layer.ABILITY, game.timestamp(), Op.GAIN_KEYWORDS, (HASTE,), source=None))
    obj.suspend_haste = obj.effects[-1]


def lose_haste(obj: GameObject) -> None:
    """Its controller changed: the haste suspend gave it ends."""
    if obj.suspend_haste is not None:
        obj.effects = [effect for effect in obj.effects if effect is not obj.suspend_haste]
        obj.suspend_haste = None


SECTION = Section(
    "rules.suspend",
    keyword_checks={"suspend": _keyword_problems},
    rule_abilities={"suspend": remove_time_counter},
    rule_triggers=(upkeep_triggers,),
)
