"""Which faces of a card the engine can bring into a game (the layouts of MTGJSON and Scryfall):
a face it can never reach is never counted as executed, whatever its text."""

from __future__ import annotations

NOT_GAME_OBJECTS = frozenset({"vanguard", "scheme", "token", "double_faced_token", "emblem", "art_series"})
"""Layouts whose cards the engine never puts into a game: Vanguard and Archenemy's schemes have
their own command-zone rules (902, 904), which the engine does not implement."""

CAST_FACES = frozenset({"split", "adventure", "modal_dfc"})
"""Layouts whose faces after the first are cast or played, chosen as the card is cast
(:mod:`carddb.engine.rules.card_faces`): a split card's right half (709.3), an Adventure (715.3),
a modal double-faced card's back face (712.12)."""

TRANSFORMED_FACES = frozenset({"transform"})
"""Layouts whose back face a permanent turns to by transforming (701.28), never cast (712.11).
Not the others: a flip card's flipping (710), a meld card's melding (701.42) and an aftermath
half's casting from a graveyard (702.127) are not implemented."""


def unreachable(layout: str, side: int) -> str | None:
    """Why the engine cannot reach face number ``side`` (0: the first) of a card of ``layout``;
    None when it can."""
    if layout in NOT_GAME_OBJECTS:
        return f"a {layout} card"
    if side > 0 and layout not in CAST_FACES | TRANSFORMED_FACES:
        return f"the other face of a {layout} card"
    return None


def uncastable(layout: str, side: int) -> str | None:
    """Why face number ``side`` of a card of ``layout`` is not cast or played (None: it may be)."""
    cannot = unreachable(layout, side)
    if cannot is None and side > 0 and layout in TRANSFORMED_FACES:
        return f"the back face of a {layout} card (a permanent transforms into it, 712.11)"
    return cannot
