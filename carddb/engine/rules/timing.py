"""Timing and activation restrictions (307.1, 602.5): "Activate only as a sorcery.", "only during your
turn", "only during your upkeep", "only once each turn"."""

from __future__ import annotations

from collections.abc import Callable

from carddb.engine.core.catalog import Section
from carddb.engine.core.errors import (
    IllegalActionError,
)
from carddb.engine.core.state import Game, GameObject, Step


def sorcery_speed(game: Game, player: str, item: GameObject) -> None:
    if game.active != player or not game.step.is_main or game.stack:
        raise IllegalActionError(f"{item.name}: only as a sorcery (your main phase, with an empty stack)")


def _once_each_turn(game: Game, player: str, item: GameObject, index: int) -> None:
    """ "Activate only once each turn.": this object's ability ``index`` (0-based) has not been
    activated this turn, whoever controlled it then (602.5b)."""
    if game.once_each_turn.get((item.id, index)) == game.turn:
        raise IllegalActionError(f"{item.name}: ability {index + 1} was already activated this turn")


RESTRICTIONS: dict[str, Callable[[Game, str, GameObject, int], None]] = {
    "sorcery_speed": lambda game, player, item, index: sorcery_speed(game, player, item),
    "during_your_turn": lambda game, player, item, index: _require(
        game.active == player, f"{item.name}: only during your turn"
    ),
    "during_upkeep": lambda game, player, item, index: _require(
        game.active == player and game.step is Step.UPKEEP, f"{item.name}: only during your upkeep"
    ),
    "once_each_turn": _once_each_turn,
}
"""Checks for the restriction phrases (``restrictions.toml``), by verb: the game, the acting
player, the object and the index of its ability."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalActionError(message)


SECTION = Section("rules.timing", restrictions=RESTRICTIONS)
