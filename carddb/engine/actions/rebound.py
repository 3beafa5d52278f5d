"""Rebound's upkeep trigger resolved (702.88a; :mod:`carddb.engine.rules.rebound` has the rest):
the player who cast the spell may cast it from exile without paying its mana cost — an
alternative cost, timing rules ignored, its targets chosen then; if they don't (or it can't be
cast: no legal target, a cost not paid) it stays in exile, and nothing brings it back."""

from __future__ import annotations

from carddb.engine.actions.madness import spell_targets
from carddb.engine.actions.play import cast
from carddb.engine.core.catalog import Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError, TargetError
from carddb.engine.core.state import Game, StackItem
from carddb.engine.rules.rebound import REBOUND


def resolve_rebound(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "exile" or obj.rebound is None:
        return  # it left exile: a new object (400.7)
    player = item.controller
    obj.rebound = None  # its one chance
    question = f"{player}: cast {obj.name} from exile without paying its mana cost (rebound)?"
    if decider.choose(question, ["yes", "no"]) != "yes":
        game.log.append(f"{obj.name} remains exiled")
        return
    try:
        cast(game, decider, player, obj, spell_targets(game, decider, player, obj), alternative=())
    except (CostError, TargetError) as error:
        game.log.append(f"{player} cannot cast {obj.name}: {error}; it remains exiled")


SECTION = Section("actions.rebound", rule_abilities={REBOUND: resolve_rebound})
"""Casting a rebounded card."""
