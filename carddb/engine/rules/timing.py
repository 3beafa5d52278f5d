"""Timing and activation restrictions (307.1, 602.5): "Activate only as a sorcery.", "only during your
turn", "only during your upkeep", "only once each turn"."""

from __future__ import annotations

from carddb.engine.core.catalog import Restriction, Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import (
    IllegalActionError,
)
from carddb.engine.core.state import COMBAT_STEPS, Game, GameObject, Step
from carddb.engine.rules.conditions import evaluate
from carddb.oracle.model import Action, Kind, Limit
from carddb.oracle.phrases import find


def sorcery_speed(game: Game, player: str, item: GameObject) -> None:
    if game.active != player or not game.step.is_main or game.stack:
        raise IllegalActionError(f"{item.name}: only as a sorcery (your main phase, with an empty stack)")


def split_second(game: Game, what: str) -> None:
    """Split second (702.61a): while a spell with it is on the stack, players can't cast spells or
    activate abilities that aren't mana abilities (``what`` says which is attempted)."""
    for item in game.stack:
        spell = game.objects[item.source]
        lines = [a for a in spell.card.abilities if a.kind is Kind.KEYWORD]
        if item.is_spell and any(k.name.lower() == "split second" for a in lines for k in a.keywords):
            raise IllegalActionError(f"{spell.name} has split second: no {what} while it is on the stack")


def _once_each_turn(game: Game, player: str, item: GameObject, index: int) -> None:
    """ "Activate only once each turn.": this object's ability ``index`` (0-based) has not been
    activated this turn, whoever controlled it then (602.5b)."""
    if game.once_each_turn.get((item.id, index)) == game.turn:
        raise IllegalActionError(f"{item.name}: ability {index + 1} was already activated this turn")


def _during_your_turn(game: Game, player: str, item: GameObject) -> None:
    _require(game.active == player, f"{item.name}: only during your turn")


BEFORE_ATTACKERS = frozenset({Step.UNTAP, Step.UPKEEP, Step.DRAW, Step.MAIN1, Step.COMBAT})
"""The steps of a turn before attackers are declared (508.1: the declare attackers step's first act)."""


def _during_your_turn_before_attackers(game: Game, player: str, item: GameObject) -> None:
    """ "Activate only during your turn, before attackers are declared." (Portal Three Kingdoms):
    in the active player's turn, up to the beginning of combat step."""
    _during_your_turn(game, player, item)
    _require(game.step in BEFORE_ATTACKERS, f"{item.name}: only before attackers are declared")


def _during_upkeep(game: Game, player: str, item: GameObject) -> None:
    _require(game.active == player and game.step is Step.UPKEEP, f"{item.name}: only during your upkeep")


def _during_combat(game: Game, player: str, item: GameObject) -> None:
    _require(game.step in COMBAT_STEPS, f"{item.name}: only during combat")


def _written(action: Action) -> str:
    found = find(action.verb, action.form)
    return found.text if found is not None else ""


def once_each_turn(restriction: Action) -> bool:
    """Whether a restriction limits the ability to once each turn (its use is recorded)."""
    return restriction.verb == "once_each_turn" or (
        restriction.verb == "activate_only_if" and "once each turn" in _written(restriction)
    )


def _only_if(game: Game, player: str, item: GameObject, index: int, restriction: Action) -> None:
    """ "Activate only if you control three or more artifacts." (and "… as a sorcery and only if …",
    "… once each turn and only if …", "… during combat / your upkeep / your turn and only if …")."""
    written = _written(restriction)
    if "as a sorcery" in written:
        sorcery_speed(game, player, item)
    if "once each turn" in written:
        _once_each_turn(game, player, item, index)
    if "during combat" in written:
        _during_combat(game, player, item)
    if "during your upkeep" in written:
        _during_upkeep(game, player, item)
    if "during your turn" in written:
        _during_your_turn(game, player, item)
    ctx = Context(game, ScriptedDecider(), player, item)
    _require(evaluate(ctx, restriction.arg("cond")), f"{item.name}: {written.split('{')[0].strip()} …")


def check_limits(game: Game, player: str, item: GameObject, index: int, limits: tuple[Limit, ...]) -> None:
    """The limits the rules give an ability's keyword, not its text (Boast 702.142a, Forecast
    702.57a: ``Ability.limits``): refused when one does not allow activating it now."""
    for limit in limits:
        if limit is Limit.ONCE_EACH_TURN:
            _once_each_turn(game, player, item, index)
        elif limit is Limit.YOUR_UPKEEP:
            _during_upkeep(game, player, item)
        elif limit is Limit.ATTACKED_THIS_TURN:
            _require(item.attacked_turn == game.turn, f"{item.name}: only if it attacked this turn")


RESTRICTIONS: dict[str, Restriction] = {
    "sorcery_speed": lambda game, player, item, index, r: sorcery_speed(game, player, item),
    "during_your_turn": lambda game, player, item, index, r: _during_your_turn(game, player, item),
    "during_your_turn_before_attackers": lambda game, player, item, index, r: (
        _during_your_turn_before_attackers(game, player, item)
    ),
    "during_upkeep": lambda game, player, item, index, r: _during_upkeep(game, player, item),
    "once_each_turn": lambda game, player, item, index, r: _once_each_turn(game, player, item, index),
    "activate_only_if": _only_if,
}
"""Checks for the restriction phrases (``restrictions.toml``), by verb: the game, the acting
player, the object, the index of its ability and the restriction phrase."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalActionError(message)


SECTION = Section("rules.timing", restrictions=RESTRICTIONS, keywords=frozenset({"split second"}))
"""Activation restrictions, and split second (:func:`split_second`)."""
