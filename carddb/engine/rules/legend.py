"""The legend rule and the world rule, two state-based actions.

704.5j: "If two or more legendary permanents with the same name are controlled by the same player,
that player chooses one of them, and the rest are put into their owners' graveyards."
704.5k: "If two or more permanents have the supertype world, all except the one that has had the
world supertype for the shortest amount of time are put into their owners' graveyards. In the
event of a tie for the shortest amount of time, all are put into their owners' graveyards." (The
engine reads how long from the permanent's timestamp: no effect of the pool gives the world
supertype.)"""

from __future__ import annotations

from collections import defaultdict

from carddb.engine.core.decisions import Decider
from carddb.engine.core.state import Game, GameObject
from carddb.engine.rules.zones import put


def keep_which(game: Game, player: str, same: list[GameObject], decider: Decider | None) -> GameObject:
    """The one of ``same`` (legendary permanents of one name, in the order they came onto the
    battlefield) ``player`` keeps: asked as ``"Name #1"``, ``"Name #2"``…; without a decider, the
    newest."""
    if decider is None:
        return same[-1]
    options = [f"{obj.name} #{number}" for number, obj in enumerate(same, 1)]
    answer = decider.choose(f"{player} keeps which {same[0].name}? (the legend rule, 704.5j)", options)
    return same[options.index(answer)]


def check(game: Game, decider: Decider | None = None) -> bool:
    """704.5j and 704.5k; True if a permanent went to a graveyard."""
    groups: dict[tuple[str, str], list[GameObject]] = defaultdict(list)
    for obj in game.permanents():  # battlefield order: the order they came onto it
        if "Legendary" in obj.supertypes and obj.name:
            groups[(obj.controller, obj.name)].append(obj)
    gone: list[GameObject] = []
    for (player, _), same in groups.items():
        if len(same) > 1:
            kept = keep_which(game, player, same, decider)
            gone += [obj for obj in same if obj is not kept]
    worlds = [obj for obj in game.permanents() if "World" in obj.supertypes]
    if len(worlds) > 1:
        newest = max(obj.timestamp for obj in worlds)
        kept_worlds = [obj for obj in worlds if obj.timestamp == newest]
        gone += [obj for obj in worlds if len(kept_worlds) > 1 or obj is not kept_worlds[0]]
    for obj in {obj.id: obj for obj in gone}.values():  # all at once (704.3), each once
        game.log.append(f"{obj.name} is put into its owner's graveyard ({_rule(obj)})")
        put(game, obj, "graveyard", cause="sba", decider=decider)
    return bool(gone)


def _rule(obj: GameObject) -> str:
    return "the world rule, 704.5k" if "World" in obj.supertypes else "the legend rule, 704.5j"
