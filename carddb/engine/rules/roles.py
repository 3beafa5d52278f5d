"""Role tokens (303.7): Aura tokens with the subtype Role, created attached to a creature (the
predefined ones are in :data:`carddb.engine.effects.tokens.TOKENS`: Royal Role, "Enchanted creature
gets +1/+1 and has ward {1}."; Monster Role, "+1/+1 and has trample").

704.5y: "If a permanent has more than one Role controlled by the same player attached to it, each
of those Roles except the one with the most recent timestamp is put into its owner's graveyard."
An Aura gets a new timestamp each time it becomes attached (613.7e); a Role is attached once, as
it is created, so the order of the battlefield is the order of their timestamps."""

from __future__ import annotations

from carddb.engine.core.state import Game
from carddb.engine.rules.zones import put


def check(game: Game) -> bool:
    """704.5y, the Roles on each permanent by their controller; True if any went to a graveyard."""
    newest: dict[tuple[int, str], int] = {}
    roles = [o for o in game.permanents() if o.is_a("Role") and o.attached_to is not None]
    for obj in roles:  # battlefield order: the later one is the newer
        assert obj.attached_to is not None
        newest[(obj.attached_to, obj.controller)] = obj.id
    acted = False
    for obj in roles:
        assert obj.attached_to is not None
        if newest[(obj.attached_to, obj.controller)] != obj.id:
            game.log.append(f"{obj.name} goes to the graveyard: a newer Role of its controller's (704.5y)")
            put(game, obj, "graveyard", cause="sba")
            acted = True
    return acted
