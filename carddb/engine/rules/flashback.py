"""Flashback (702.34): "You may cast this card from your graveyard by paying [cost] rather than
paying its mana cost. If the flashback cost was paid, exile this card instead of putting it
anywhere else any time it would leave the stack." The cost is an alternative cost (601.2b, 601.2f:
it replaces the mana cost; X cannot be chosen), and the exile is a replacement effect of the card
on itself (:func:`exile_instead`, applied by :func:`carddb.engine.rules.replacement.replace`)."""

from __future__ import annotations

import re
from functools import partial

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game
from carddb.oracle.model import Keyword

_MANA = re.compile(r"^(?:\{[0-9WUBRGCX]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def flashback_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's Flashback cost (None: no flashback the engine pays)."""
    return keyword_mana_cost(card, "flashback", _MANA)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword flashback {parameter}"]


def exile_instead(game: Game, event: Proposed) -> list[Replacement]:
    obj = event.obj
    if event.kind != "move" or obj is None or not obj.flashback or obj.zone != "stack":
        return []
    return [Replacement(f"{obj.name}'s flashback", ("flashback", obj.id), partial(_exile, game), True)]


def _exile(game: Game, event: Proposed) -> Proposed:
    assert event.obj is not None
    event.obj.flashback = False
    event.to_zone, event.position = "exile", None
    return event


SECTION = Section(
    "rules.flashback", keyword_checks={"flashback": _keyword_problems}, replacement_effects=(exile_instead,)
)
