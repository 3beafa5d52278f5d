"""Foretell's special action (702.143a–b; :mod:`carddb.engine.rules.foretell` has the rest): any
time they have priority during their turn, a player pays {2} and exiles a card with foretell from
their hand face down, without using the stack (116.2h, so even while a spell with split second is on
the stack)."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Game, GameObject, atomic
from carddb.engine.rules import mana
from carddb.engine.rules.foretell import FORETELL_ACTION_COST, foretell_cost
from carddb.engine.rules.triggers import settle
from carddb.engine.rules.zones import put


def foretell(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    *,
    pay_with: Sequence[GameObject] | None = None,
) -> None:
    """Pay {2} and exile a card with foretell from ``player``'s hand, during their turn."""
    with atomic(game):
        if foretell_cost(obj.card) is None:
            raise IllegalActionError(f"{obj.name} has no foretell cost the engine pays")
        if obj.zone != "hand" or obj.owner != player:
            raise IllegalActionError(f"{obj.name} is not in {player}'s hand")
        if game.active != player:
            raise IllegalActionError(f"{player} foretells only during their own turn (702.143a)")
        mana.pay(game, player, FORETELL_ACTION_COST, named=pay_with)
        if put(game, obj, "exile", cause="foretell", decider=decider) != "exile":
            raise IllegalActionError(f"{obj.name} could not be exiled")
        obj.foretold = game.turn
        game.log.append(f"{player} foretells a card")
        settle(game, decider)
