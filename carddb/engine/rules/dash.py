"""Dash (702.109a): "You may cast this spell by paying [cost] rather than paying its mana cost",
"If this spell's dash cost was paid, return the permanent this spell becomes to its owner's hand at
the beginning of the next end step" and "As long as this permanent's dash cost was paid, it has
haste."

The dash cost is an alternative cost (``actions.play.cast(dash=True)``, from the hand, timing
unchanged); the spell and the permanent it becomes were dashed (``GameObject.dashed``, the turn it
was cast; a new object is not, 400.7) and it has haste (a layer-6 effect on it, gone with it). At
the beginning of the next end step its rule trigger returns it to its owner's hand, if it is still
that permanent. The engine pays dash costs that are mana."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.layers import Layer, LayerEffect, Op
from carddb.engine.core.state import Event, Game, GameObject, StackItem, Step
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")
DASH = "dash"


def dash_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's dash cost (None: no dash the engine pays)."""
    return keyword_mana_cost(card, DASH, _MANA)


def dashed(game: Game, obj: GameObject) -> None:
    """``obj`` is cast for its dash cost: it has haste as long as it is this object."""
    obj.dashed = game.turn
    obj.effects.append(LayerEffect(Layer.ABILITY, game.timestamp(), Op.GAIN_KEYWORDS, ("haste",)))


def end_step_triggers(game: Game, event: Event) -> list[StackItem]:
    """At the beginning of the next end step, each dashed permanent returns to its owner's hand."""
    if event.kind != "step" or event.to_zone != Step.END:
        return []
    return [StackItem(obj.id, obj.controller, None, [], rule=DASH) for obj in game.permanents() if obj.dashed]


def return_dashed(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "battlefield" or not obj.dashed:
        return  # it left: a new object, which the ability no longer finds (400.7)
    game.log.append(f"{obj.name} returns to its owner's hand (dash)")
    put(game, obj, "hand", cause="effect", decider=decider)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword dash {parameter}"]


SECTION = Section(
    "rules.dash",
    keyword_checks={DASH: _keyword_problems},
    rule_abilities={DASH: return_dashed},
    rule_triggers=(end_step_triggers,),
)
"""Dash with a mana cost: haste, and the return at the next end step."""
