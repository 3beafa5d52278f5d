"""Madness (702.35): "Madness [cost]" means "If a player would discard this card, that player
discards it, but exiles it instead of putting it into their graveyard" and "When this card is
exiled this way, its owner may cast it by paying [cost] rather than paying its mana cost. If that
player doesn't, they put this card into their graveyard."

The first ability is a replacement of the card on itself (:func:`discard_into_exile`): whatever
makes the player discard it — a spell or ability resolving, a cost, the cleanup step — the card is
exiled at once, still discarded (abilities that trigger on a discard trigger, a discard cost is
paid). The second is a triggered ability (``StackItem.rule == "madness"``): it waits in
``Game.pending`` and goes on the stack the next time a player would receive priority, so after the
spell or ability that made the player discard has finished resolving, or above the spell whose
cost it was (:mod:`carddb.engine.actions.madness` resolves it)."""

from __future__ import annotations

import re
from functools import partial

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, StackItem
from carddb.oracle.model import Keyword, Kind

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")


def madness_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's madness cost (``{0}`` for "Madness {0}"); None: no madness
    the engine pays."""
    for ability in card.abilities:
        if ability.kind is not Kind.KEYWORD:
            continue
        for keyword in ability.keywords:
            parameter = (keyword.parameter or "").strip()
            if keyword.name.lower() == "madness" and _MANA.match(parameter):
                return tuple(re.findall(r"\{[^}]+\}", parameter))
    return None


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword madness {parameter}"]


def discard_into_exile(game: Game, event: Proposed) -> list[Replacement]:
    """A card with madness that would be discarded (from its owner's hand, 701.8a) is exiled instead
    of being put into the graveyard."""
    obj = event.obj
    if (
        event.kind != "move"
        or event.cause != "discard"
        or obj is None
        or obj.zone != "hand"
        or event.to_zone != "graveyard"
        or madness_cost(obj.card) is None
    ):
        return []
    return [Replacement(f"{obj.name}'s madness", ("madness", obj.id), partial(_exile, game), True)]


def _exile(game: Game, event: Proposed) -> Proposed:
    """Exiled instead; "when this card is exiled this way" triggers (its owner controls it)."""
    assert event.obj is not None
    event.to_zone, event.position = "exile", None
    game.pending.append(StackItem(event.obj.id, event.obj.owner, None, [], rule="madness"))
    return event


SECTION = Section(
    "rules.madness",
    keyword_checks={"madness": _keyword_problems},
    replacement_effects=(discard_into_exile,),
)
