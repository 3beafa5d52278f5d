"""Which faces of a card the engine can bring into a game (the layouts of MTGJSON and Scryfall):
a face it can never reach is never counted as executed, whatever its text."""

from __future__ import annotations

NOT_GAME_OBJECTS = frozenset({"vanguard", "scheme", "token", "double_faced_token", "emblem", "art_series"})
"""Layouts whose cards the engine never puts into a game: Vanguard and Archenemy's schemes have
their own command-zone rules (902, 904), which the engine does not implement."""

OTHER_FACES_PLAYED: frozenset[str] = frozenset()
"""Layouts whose faces after the first the engine can cast or put onto the battlefield. A split
card's right half, an Adventure, a modal double-faced card's back face (709, 715, 712) need a
choice of face when the card is cast; a transforming card's back face needs transforming (701.28),
a flip card's flipping (710), a meld card's melding (701.42)."""


def unreachable(layout: str, side: int) -> str | None:
    """Why the engine cannot reach face number ``side`` (0: the first) of a card of ``layout``;
    None when it can."""
    if layout in NOT_GAME_OBJECTS:
        return f"a {layout} card"
    if side > 0 and layout not in OTHER_FACES_PLAYED:
        return f"the other face of a {layout} card"
    return None
