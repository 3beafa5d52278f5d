"""Evoke (702.74a): "You may cast this spell by paying [cost] rather than paying its mana cost" and
"When this permanent enters the battlefield, if its evoke cost was paid, its controller sacrifices
it."

The evoke cost is an alternative cost (``actions.play.cast(evoke=True)``, 601.2b, 601.2f–h; timing
unchanged); the spell, and the permanent it becomes, was evoked (``GameObject.evoked``, 702.74b).
As it enters, the sacrifice is a rule trigger with an intervening "if" (603.4: checked again as it
resolves); its other enters abilities trigger at the same time and go on the stack above it, so
they resolve first. The engine pays evoke costs that are mana ("Evoke—Exile a white card from your
hand." is refused)."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.state import Event, Game, StackItem
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def evoke_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's evoke cost (None: no evoke the engine pays)."""
    return keyword_mana_cost(card, "evoke", _MANA)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword evoke {parameter}"]


def evoked_enters(game: Game, event: Event) -> list[StackItem]:
    """An evoked permanent entering the battlefield triggers its sacrifice."""
    obj = event.obj
    entered = event.kind == "move" and event.to_zone == "battlefield" and event.from_zone != "battlefield"
    if not entered or obj is None or not obj.evoked:
        return []
    return [StackItem(obj.id, obj.controller, None, [], rule="evoke")]


def sacrifice_evoked(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "battlefield" or not obj.evoked:
        return  # 603.4: it left (a new object) or was not evoked
    game.log.append(f"{obj.controller} sacrifices {obj.name} (evoke)")
    put(game, obj, "graveyard", cause="sacrifice", decider=decider)


SECTION = Section(
    "rules.evoke",
    keyword_checks={"evoke": _keyword_problems},
    rule_abilities={"evoke": sacrifice_evoked},
    rule_triggers=(evoked_enters,),
)
"""Evoke with a mana cost, and its sacrifice as the permanent enters."""
