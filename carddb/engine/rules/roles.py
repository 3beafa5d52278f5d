"""Role tokens (303.7): Aura tokens with the subtype Role, created attached to a creature (the
predefined ones are in :data:`carddb.engine.effects.tokens.TOKENS`: Royal Role, "Enchanted creature
gets +1/+1 and has ward {1}."; Monster Role, "+1/+1 and has trample").

704.5y: if a permanent has more than one Role token attached to it that were created by the same
player (a token's owner is the player who created it, 111.2), each of them but the one with the
newest timestamp is put into its owner's graveyard. An Aura token's timestamp is when it came onto
the battlefield attached (613.7e): the order of the battlefield."""

from __future__ import annotations

from carddb.engine.core.state import Game
from carddb.engine.rules.zones import put


def check(game: Game) -> bool:
    """704.5y; True if any Role was put into a graveyard."""
    newest: dict[tuple[int, str], int] = {}
    roles = [o for o in game.permanents() if o.token and o.is_a("Role") and o.attached_to is not None]
    for obj in roles:  # battlefield order: the later one is the newer
        assert obj.attached_to is not None
        newest[(obj.attached_to, obj.owner)] = obj.id
    acted = False
    for obj in roles:
        assert obj.attached_to is not None
        if newest[(obj.attached_to, obj.owner)] != obj.id:
            game.log.append(f"{obj.name} goes to the graveyard: a newer Role of its owner's (704.5y)")
            put(game, obj, "graveyard", cause="sba")
            acted = True
    return acted
