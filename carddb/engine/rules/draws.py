"""Drawing a card (121): the one place a card is drawn, for the draw step and for effects. A player
who would draw from an empty library draws nothing and loses the next time state-based actions
are checked (121.3, 704.5b)."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.proposed import Proposed
from carddb.engine.core.state import Event, Game
from carddb.engine.rules.replacement import replace


def draw(game: Game, player: str, count: int = 1, decider: Decider | None = None) -> int:
    """``player`` draws ``count`` cards one at a time, each draw proposed on its own (a dredge card
    may replace one of them, 702.52); returns how many were drawn."""
    drawn = 0
    for _ in range(count):
        proposed = replace(game, Proposed("draw", player, amount=1), decider)  # dredge may replace it
        if proposed.kind == "replaced":
            continue
        library = game.players[player].zones["library"]  # as it is now (a replacement may shuffle it)
        if not library:
            game.players[player].drew_from_empty = True
            game.log.append(f"{player} draws from an empty library")
            continue
        card = game.objects[library[0]]
        game.move(card, "hand")
        count = game.players[player].draws_this_turn = game.players[player].draws_this_turn + 1
        game.events.append(Event("draw", card, "library", "hand", player, amount=count))
        drawn += 1
    return drawn
