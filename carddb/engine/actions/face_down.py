"""Turning a face-down permanent face up (116.2b, 701.56b, 701.34b, 702.37e): a special action its
controller takes any time they have priority, paying its morph cost, or the card's mana cost if it
is a creature card that was manifested or cloaked (the player chooses when both apply). It does
not use the stack; "When ~ is turned face up" triggers."""

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
        ways = face_down.face_up_costs(obj)
        way = next(iter(ways))
        if len(ways) > 1:
            costs = " or ".join(f"its {w} {''.join(c)}" for w, c in ways.items())
            way = decider.choose(f"{player}: turn it face up for {costs}?", list(ways))
        mana.pay(game, player, ways[way])
        name = obj.face_down_card.name if obj.face_down_card is not None else obj.name
        megamorph = face_down.megamorphed(obj, way)
        face_down.turn_face_up(game, obj)
        if megamorph:  # 702.37b
            obj.counters["+1/+1"] = obj.counters.get("+1/+1", 0) + 1
        game.log.append(f"{player} turns {name} face up ({way})")
        settle(game, decider)
