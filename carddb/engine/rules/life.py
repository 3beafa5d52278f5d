"""Gaining and losing life (119): the one place a life total changes, so that replacement effects
on gaining or losing life apply (:func:`carddb.engine.rules.replacement.replace`). Damage to a
player and paying life are losing life (119.3, 119.4)."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.proposed import Proposed
from carddb.engine.core.state import Event, Game
from carddb.engine.rules.replacement import replace


def gain_life(game: Game, player: str, amount: int, decider: Decider | None = None) -> int:
    """``player`` gains ``amount`` life (nothing for 0 or less, 119.10); returns what was gained.
    ``decider``: the player orders the replacement effects that apply (616.1)."""
    if amount <= 0:
        return 0
    proposed = replace(game, Proposed("gain_life", player, amount=amount), decider)
    if proposed.kind == "replaced":
        return 0
    game.players[player].life += proposed.amount
    game.players[player].life_gained_this_turn += proposed.amount
    game.events.append(Event("gain_life", None, player=player, amount=proposed.amount))
    return proposed.amount


def lose_life(game: Game, player: str, amount: int, decider: Decider | None = None) -> int:
    """``player`` loses ``amount`` life; returns what was lost."""
    if amount <= 0:
        return 0
    proposed = replace(game, Proposed("lose_life", player, amount=amount), decider)
    if proposed.kind == "replaced":
        return 0
    game.players[player].life -= proposed.amount
    game.players[player].life_lost_this_turn += proposed.amount
    game.events.append(Event("lose_life", None, player=player, amount=proposed.amount))
    return proposed.amount
