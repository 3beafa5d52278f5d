"""Turning a face-down permanent face up (116.2b, 701.56b, 701.40b): a special action its controller
takes any time they have priority, paying the card's mana cost if it is a creature card. It does
not use the stack."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Game, GameObject, atomic
from carddb.engine.rules import face_down, mana
from carddb.engine.rules.triggers import settle


def turn_face_up(game: Game, decider: Decider, player: str, obj: GameObject) -> None:
    with atomic(game):
        if obj.zone != "battlefield" or obj.controller != player:
            raise IllegalActionError(f"{player} controls no such face-down permanent")
        mana.pay(game, player, face_down.face_up_cost(obj))
        name = obj.face_down_card.name if obj.face_down_card is not None else obj.name
        face_down.turn_face_up(game, obj)
        game.log.append(f"{player} turns {name} face up")
        settle(game, decider)
