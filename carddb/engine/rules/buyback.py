"""Buyback (702.27a): "You may pay an additional [cost] as you cast this spell" and "If the buyback
cost was paid, put this spell into its owner's hand instead of into that player's graveyard as it
resolves." The engine pays buyback costs that are mana (``actions.play.cast(buyback=True)``, an
additional cost: cost changes apply to the total, 601.2f); a spell cast so is
``GameObject.bought_back`` and goes to its owner's hand as it resolves — not when it is countered
or every target is illegal (608.2b: it does not resolve). A buyback cost that is not mana
("Buyback—Sacrifice a land.") is refused by the catalog."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def buyback_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's buyback cost (None: no buyback the engine pays)."""
    return keyword_mana_cost(card, "buyback", _MANA)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword buyback {parameter}"]


SECTION = Section("rules.buyback", keyword_checks={"buyback": _keyword_problems})
"""Buyback with a mana cost."""
