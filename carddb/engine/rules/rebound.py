"""Rebound (702.88a): "If you cast this spell from your hand, exile it as it resolves. At the
beginning of your next upkeep, you may cast this card from exile without paying its mana cost."

A spell with rebound cast from a hand (``GameObject.cast_from_hand``) goes to exile as it resolves
instead of its owner's graveyard (not when it does not resolve, 608.2b), remembering who cast it
and the turn (``GameObject.rebound``, reset as it leaves exile: a new object, 400.7). At the
beginning of that player's next upkeep its rule trigger goes on the stack; as it resolves
(``actions.rebound``) they answer whether they cast it without paying its mana cost (timing
ignored, targets chosen then); if they don't, or can't, it stays in exile."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.state import Event, Game, GameObject, StackItem, Step
from carddb.engine.query.abilities import keywords_of
from carddb.oracle.model import Keyword

REBOUND = "rebound"


def rebounds(obj: GameObject) -> bool:
    """Whether the resolving spell ``obj`` is exiled by its rebound (cast from a hand)."""
    return obj.cast_from_hand and REBOUND in keywords_of(obj)


def upkeep_triggers(game: Game, event: Event) -> list[StackItem]:
    """Rebound's delayed trigger, at the beginning of its caster's next upkeep."""
    if event.kind != "step" or event.to_zone != Step.UPKEEP:
        return []
    return [
        StackItem(obj.id, event.player, None, [], rule=REBOUND)
        for obj in game.objects.values()
        if obj.zone == "exile" and obj.rebound is not None
        and obj.rebound[0] == event.player and obj.rebound[1] < game.turn
    ]  # fmt: skip


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    return [] if not keyword.parameter else [f"keyword rebound {keyword.parameter}"]


SECTION = Section(
    "rules.rebound", keyword_checks={REBOUND: _keyword_problems}, rule_triggers=(upkeep_triggers,)
)
"""Rebound's exile and its upkeep trigger (resolved by ``actions.rebound``)."""
