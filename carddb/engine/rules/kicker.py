"""Kicker (702.33): "You may pay an additional [cost] as you cast this spell." A kicked spell — and
the permanent it becomes (702.33d) — "was kicked": ``GameObject.kicked``, read by the condition
"if ~ was kicked" (``effects.conditions``). The engine pays kicker costs that are mana; multikicker
and a kicker with two costs ("Kicker {1}{G} and/or {3}") are refused by the catalog."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def kicker_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's kicker cost (None: no kicker the engine pays)."""
    return keyword_mana_cost(card, "kicker", _MANA)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    if keyword.name.lower() != "kicker":
        return [f"keyword {keyword.name.lower()}"]  # multikicker
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword kicker {parameter}"]


SECTION = Section("rules.kicker", keyword_checks={"kicker": _keyword_problems})
