"""Dredge (702.52): "Dredge N" means "As long as you have at least N cards in your library, if you
would draw a card, you may instead mill N cards and return this card from your graveyard to your
hand." A static ability of a card in a graveyard, applied as an optional replacement of each draw
(:func:`dredge_instead`, through :func:`carddb.engine.rules.replacement.replace`): its owner is
asked for every draw, in the draw step and from effects alike, and never with fewer than N cards
in the library (702.52b: they can't mill any of them this way)."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword, Kind


def dredge_count(card: CardDef) -> int | None:
    """N of the card's "Dredge N" (None: it has no dredge the engine applies)."""
    for ability in card.abilities:
        if ability.kind is not Kind.KEYWORD:
            continue
        for keyword in ability.keywords:
            parameter = (keyword.parameter or "").strip()
            if keyword.name.lower() == "dredge" and parameter.isdigit():
                return int(parameter)
    return None


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if parameter.isdigit() else [f"keyword dredge {parameter}"]


def dredge_instead(game: Game, event: Proposed) -> list[Replacement]:
    """The dredge cards of the drawing player's graveyard that may replace this draw: each one
    whose N their library can pay."""
    if event.kind != "draw":
        return []
    library = game.players[event.player].zones["library"]
    found = []
    for obj in game.in_zone("graveyard", event.player):
        count = dredge_count(obj.card)
        if count is None or len(library) < count:
            continue
        found.append(
            Replacement(
                f"{obj.name}'s dredge {count}",
                ("dredge", obj.id),
                partial(_dredge, game, obj, count),
                commutes=False,
                optional=f"{event.player}: dredge {obj.name} (mill {count}) instead of drawing?",
            )
        )
    return found


def _dredge(game: Game, card: GameObject, count: int, event: Proposed) -> Proposed:
    """Mill N, then return the card to its owner's hand: the draw does not happen."""
    library = game.players[event.player].zones["library"]
    for object_id in library[:count]:
        put(game, game.objects[object_id], "graveyard", cause="mill")
    if card.zone == "graveyard":
        put(game, card, "hand", cause="effect")
    game.log.append(f"{event.player} dredges {card.name} (mills {count})")
    event.kind = "replaced"
    return event


SECTION = Section(
    "rules.dredge", keyword_checks={"dredge": _keyword_problems}, replacement_effects=(dredge_instead,)
)
