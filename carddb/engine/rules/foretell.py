"""Foretell (702.143a): "Any time a player has priority during their turn, that player may pay {2}
and exile a card with foretell from their hand face down. […] They may cast that card after the
current turn has ended by paying any foretell cost it has rather than paying that spell's mana
cost." Foretelling is a special action (``actions.foretell``, 702.143b); the card remembers the turn
it was foretold (``GameObject.foretold``) as long as it stays in exile; casting it from exile for
its foretell cost is an alternative cost (601.2b, 601.2f–h: additional costs and cost changes
apply), with the spell's own timing, from the next turn on. The engine pays foretell costs that are
mana ({X} included)."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Game, GameObject
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGCX]+\}|\{[WUBRG]/[WUBRGP2]\})+$")
FORETELL_ACTION_COST = ("{2}",)
"""What foretelling a card costs (702.143a)."""


def foretell_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's foretell cost (None: no foretell the engine pays)."""
    return keyword_mana_cost(card, "foretell", _MANA)


def foretold_cost(game: Game, obj: GameObject) -> tuple[str, ...] | None:
    """The foretell cost ``obj`` is cast for: a card foretold in an earlier turn, in exile (None:
    not a foretold card); refused during the turn it was foretold (702.143a)."""
    if obj.zone != "exile" or not obj.foretold:
        return None
    if obj.foretold >= game.turn:
        raise IllegalActionError(f"{obj.name} was foretold this turn: it is cast after the turn ends")
    cost = foretell_cost(obj.card)
    if cost is None:
        raise IllegalActionError(f"{obj.name} has no foretell cost the engine pays")
    return cost


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword foretell {parameter}"]


SECTION = Section("rules.foretell", keyword_checks={"foretell": _keyword_problems})
"""Foretell with a mana foretell cost."""
