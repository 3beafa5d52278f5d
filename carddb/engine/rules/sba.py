"""State-based actions (704)."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.state import CEASED, Game
from carddb.engine.rules import attachments, legend, planeswalk, roles, sagas
from carddb.engine.rules.destruction import destroy
from carddb.engine.rules.zones import put


def state_based_actions(game: Game, decider: Decider | None = None) -> None:
    """``decider``: who orders the replacement effects on what the actions move (616.1)."""
    # Auras and Equipment first: an Aura whose creature dies in this check still sees it die (its
    # "when enchanted creature dies" triggers) and goes to the graveyard in the next round
    attachments.check(game)
    roles.check(game)  # 704.5y: one Role per controller on a permanent
    sagas.check(game)  # 714.4: a Saga past its final chapter
    planeswalk.phenomenon_check(game)  # 704.6f: away from a phenomenon whose trigger has left the stack
    sources = {item.source for item in (*game.stack, *game.pending)}
    for obj in [o for o in game.objects.values() if o.token and o.zone not in ("battlefield", "stack")]:
        if obj.zone != CEASED:  # a token off the battlefield ceases to exist (704.5d)
            game.zone_list(obj.zone, obj.owner).remove(obj.id)
            obj.zone = CEASED
        if obj.id not in sources:  # an ability of it on the stack still reads it (113.7a)
            del game.objects[obj.id]
    for obj in list(game.permanents()):
        if obj.is_a("Planeswalker") and obj.counters.get("loyalty", 0) <= 0 and "loyalty" in obj.counters:
            put(game, obj, "graveyard", cause="sba", decider=decider)  # 704.5i
    legend.check(game, decider)  # 704.5j, 704.5k: the legend rule and the world rule
    for player in game.players.values():
        if (player.life <= 0 or player.drew_from_empty or player.poison >= 10) and not player.lost:
            player.lost = True  # rules 704.5a, 704.5b and 704.5c
            game.log.append(f"{player.name} loses the game")
        player.drew_from_empty = False
    for obj in game.permanents():  # +1/+1 and -1/-1 counters annihilate (704.5q)
        both = min(obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0))
        for kind in ("+1/+1", "-1/-1") if both else ():
            obj.counters[kind] -= both
            if not obj.counters[kind]:
                del obj.counters[kind]
    for obj in list(game.permanents()):
        toughness = obj.toughness
        if obj.is_a("Creature") and toughness is not None and toughness <= 0:
            put(game, obj, "graveyard", cause="sba", decider=decider)  # 704.5f
        elif obj.is_a("Creature") and toughness is not None and obj.damage >= toughness:
            destroy(game, obj, decider=decider)  # lethal damage: indestructible and regeneration apply
        elif obj.is_a("Creature") and obj.deathtouched:
            destroy(game, obj, decider=decider)  # damage from a source with deathtouch (rule 704.5h)
        obj.deathtouched = False

