"""Which faces of a card the engine can bring into a game (the layouts of MTGJSON and Scryfall):
a face it can never reach is never counted as executed, whatever its text."""

from __future__ import annotations

NOT_GAME_OBJECTS = frozenset({"vanguard", "scheme", "token", "double_faced_token", "emblem", "art_series"})
"""Layouts whose cards the engine never puts into a game: Vanguard and Archenemy's schemes have
their own command-zone rules (902, 904), which the engine does not implement."""

OTHER_FACES_PLAYED = frozenset({"split", "adventure", "modal_dfc"})
"""Layouts whose faces after the first the engine casts or plays, chosen as the card is cast
(:mod:`carddb.engine.rules.card_faces`): a split card's right half (709.3), an Adventure (715.3),
a modal double-faced card's back face (712.12). Not the others: a transforming card's back face
needs transforming (701.28), a flip card's flipping (710), a meld card's melding (701.42), an
aftermath half casting from a graveyard (702.127)."""


def unreachable(layout: str, side: int) -> str | None:
    """Why the engine cannot reach face number ``side`` (0: the first) of a card of ``layout``;
    None when it can."""
    if layout in NOT_GAME_OBJECTS:
        return f"a {layout} card"
    if side > 0 and layout not in OTHER_FACES_PLAYED:
        return f"the other face of a {layout} card"
    return None
