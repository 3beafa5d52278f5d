"""Buyback (702.27a): "You may pay an additional [cost] as you cast this spell" and "If the buyback
cost was paid, put this spell into its owner's hand instead of into that player's graveyard as it
resolves." The engine pays buyback costs that are mana (``actions.play.cast(buyback=True)``, an
additional cost: cost changes apply to the total, 601.2f) and buyback costs written as cost phrases
("Buyback—Sacrifice a land.", "Buyback—Pay 4 life.", read as the cost of an ability, paid in full
with the spell's other costs, 601.2h); a spell cast so is ``GameObject.bought_back`` and goes to its
owner's hand as it resolves — not when it is countered or every target is illegal (608.2b: it does
not resolve). A cost phrase nobody pays is refused by the catalog."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef, keyword_mana_cost, parse_ability
from carddb.engine.core.catalog import Catalog, Section
from carddb.oracle.model import Action, Keyword, Kind

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def buyback_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's buyback cost (None: no buyback the engine pays)."""
    return keyword_mana_cost(card, "buyback", _MANA)


def buyback_phrases(card: CardDef) -> tuple[Action, ...] | None:
    """The cost phrases of the card's buyback cost written in words ("Buyback—Sacrifice a land.")
    (None: no such buyback)."""
    for ability in card.abilities:
        for keyword in ability.keywords if ability.kind is Kind.KEYWORD else ():
            if keyword.name.lower() == "buyback" and keyword.parameter:
                phrases = _phrases(keyword.parameter)
                if phrases is not None:
                    return phrases
    return None


def _phrases(parameter: str) -> tuple[Action, ...] | None:
    """ "Sacrifice a land." read as the cost of an ability ("Sacrifice a land: Draw a card.")."""
    text = parameter.strip().rstrip(".")
    if not text or _MANA.match(text):
        return None
    ability = parse_ability(f"{text}: Draw a card.", "Artifact")
    if ability is None or ability.kind is not Kind.ACTIVATED:
        return None
    costs = tuple(item for item in ability.cost if isinstance(item, Action))
    return costs if costs and len(costs) == len(ability.cost) else None


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    if _MANA.match(parameter):
        return []
    phrases = _phrases(parameter)
    if phrases is None or any(phrase.verb not in catalog.costs for phrase in phrases):
        return [f"keyword buyback {parameter}"]
    return []


SECTION = Section("rules.buyback", keyword_checks={"buyback": _keyword_problems})
"""Buyback with a mana cost."""
