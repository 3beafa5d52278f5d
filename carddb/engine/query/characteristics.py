"""Characteristics computed, never stored (rule 613): an object's colours come from its mana cost
(each coloured half of a hybrid symbol, a Phyrexian symbol's colour, 202.2 and 105.2), from a
colour indicator or the colours a token's text gives it (111.4, 204), and from
characteristic-defining abilities ("Devoid", 702.114; "~ is all colors.", 604.3); a face-down
permanent has none (708.2); then layer 5 effects ("becomes blue") change them
(:mod:`carddb.engine.core.layers` computes every layer)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.layers import COLORS, card_colors
from carddb.engine.core.state import GameObject

__all__ = ["COLORS", "SECTION", "card_colors", "colors_of"]


def colors_of(obj: GameObject) -> frozenset[str]:
    """The colours an object has now (layer 5)."""
    return obj.now.colors


SECTION = Section("query.characteristics", keywords=frozenset({"devoid", "changeling"}))
"""Devoid and changeling are characteristic-defining abilities: :func:`card_colors` applies
devoid, :func:`carddb.engine.core.layers.characteristics` changeling (every creature type)."""
