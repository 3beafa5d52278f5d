"""Rolling the planar die (901.9): a special action of the active player, any time they have
priority in a main phase of their turn with an empty stack. The first roll of a turn costs {0},
each later one {1} more than the one before it."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Game, atomic
from carddb.engine.query.planar import is_planechase
from carddb.engine.rules import mana
from carddb.engine.rules.planechase import roll_planar_die
from carddb.engine.rules.triggers import settle


def roll(game: Game, decider: Decider, player: str) -> str:
    """``player`` rolls the planar die; returns the face rolled."""
    with atomic(game):
        if not is_planechase(game):
            raise IllegalActionError("there is no planar die: this is not a Planechase game")
        if player != game.active or not game.step.is_main or game.stack:
            raise IllegalActionError(
                "the planar die is rolled by the active player in a main phase, with an empty stack (901.9)"
            )
        rolls = game.players[player].planar_rolls
        mana.pay(game, player, (f"{{{rolls}}}",))  # {0}, then one more each time this turn
        game.players[player].planar_rolls = rolls + 1
        face = roll_planar_die(game, decider, player)
        settle(game, decider)
        return face
