"""Characteristics computed, never stored (rule 613): an object's colours come from its mana cost
(each coloured half of a hybrid symbol, a Phyrexian symbol's colour, 202.2 and 105.2), from a
colour indicator or the colours a token's text gives it (111.4, 204), and from
characteristic-defining abilities ("Devoid", 702.114; "~ is all colors.", 604.3); a face-down
permanent has none (708.2).

Layer 5 effects that change colours are not supported: an ability that would apply one is
refused by the catalog, so nothing here pretends to know a colour that an effect changed."""

from __future__ import annotations

import re

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Section
from carddb.engine.core.state import GameObject
from carddb.oracle.model import Kind

COLORS = ("W", "U", "B", "R", "G")
"""The five colours in the usual order (WUBRG)."""
_ALL_COLORS = re.compile(r"^(?:~|this \w+) is all colors\.$", re.IGNORECASE)


def card_colors(card: CardDef) -> tuple[str, ...]:
    """A card's own colours, in WUBRG order."""
    keywords = {k.name.lower() for a in card.abilities if a.kind is Kind.KEYWORD for k in a.keywords}
    if "devoid" in keywords:
        return ()
    if any(_ALL_COLORS.match(line.replace(card.name, "~").strip()) for line in card.text.splitlines()):
        return COLORS
    if card.colors is not None:
        return tuple(c for c in COLORS if c in card.colors)
    found = {
        letter
        for symbol in card.mana_symbols
        for letter in symbol.strip("{}").split("/")
        if letter in COLORS
    }
    return tuple(c for c in COLORS if c in found)


def colors_of(obj: GameObject) -> frozenset[str]:
    """The colours an object has now."""
    if obj.face_down:
        return frozenset()
    return frozenset(card_colors(obj.card))


SECTION = Section("query.characteristics", keywords=frozenset({"devoid"}))
"""Devoid is a characteristic-defining ability: :func:`card_colors` applies it."""
