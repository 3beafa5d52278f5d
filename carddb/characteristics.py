"""Card characteristics derived from the source data and stored beside it, so that search compares
plain columns: the one place that decides how they are computed (the importer writes them, the
migrations backfill them, the search compiler reads them).

* a card's mana value: the front face's, or the sum of a split card's halves;
* power, toughness and loyalty as numbers where they are numbers (``"*"``: none);
* type flags: which of :data:`TYPE_FLAGS` appear in any face's English type line, as bits, so
  ``t:creature`` is a bit test on the card row instead of a text search over every document;
* a card's colours and colour identity: those of all its faces (Scryfall's card colours: Heaven //
  Earth is red and green), so ``c:rg`` is a test of the card row;
* rules text without its reminder text (what ``o:`` searches; ``fo:`` searches the full text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "DFC_LAYOUTS",
    "SPLIT_LAYOUTS",
    "TYPE_FLAGS",
    "card_colors",
    "card_mana_value",
    "stat_value",
    "type_bit",
    "type_bits",
    "without_reminder",
]

SPLIT_LAYOUTS = ("split", "aftermath")
"""Layouts whose mana value is the sum of their halves' (every other card: its front face's)."""
DFC_LAYOUTS = ("transform", "modal_dfc", "meld", "reversible_card")
"""Layouts with two faces on two sides of the card."""

TYPE_FLAGS = (
    *("artifact", "battle", "creature", "enchantment", "instant", "land", "planeswalker", "sorcery"),
    *("kindred", "tribal", "legendary", "basic", "snow", "world"),
)
"""Card types and supertypes kept as bits. Append only: stored bits depend on the order."""

COLOR_ORDER = "WUBRG"
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def card_mana_value(layout: str, face_values: Iterable[float | None]) -> float | None:
    """The card's mana value from its faces' mana values, in face order."""
    values = list(face_values)
    counted = values if layout in SPLIT_LAYOUTS else values[:1]
    known = [value for value in counted if value is not None]
    return sum(known) if known else None


def stat_value(text: str | None) -> float | None:
    """Power, toughness or loyalty as a number when it is one (``"4"``, ``"-1"``, ``"2.5"``); None
    for ``"*"``, ``"1+*"``, ``"X"`` or nothing."""
    if text is None or not _NUMBER.fullmatch(text.strip()):
        return None
    return float(text)


def type_bit(word: str) -> int | None:
    """The bit of a (lowercase) type word, None when it is not one of :data:`TYPE_FLAGS`."""
    return 1 << TYPE_FLAGS.index(word) if word in TYPE_FLAGS else None


def type_bits(type_lines: Iterable[str | None]) -> int:
    """The bits of the flags found in any of ``type_lines``, found the way ``t:`` finds them: as
    substrings of the lowercased line (so the bit and the text search always agree)."""
    lowered = " // ".join(line.lower() for line in type_lines if line)
    return sum(1 << index for index, word in enumerate(TYPE_FLAGS) if word in lowered)


def card_colors(face_colors: Iterable[str | None]) -> str:
    """The colours of all of a card's faces, as letters in WUBRG order (``"RG"``)."""
    present = set("".join(colors or "" for colors in face_colors).upper())
    return "".join(letter for letter in COLOR_ORDER if letter in present)


# Reminder text stands in parentheses (full-width ones in Chinese and Japanese); a reminder may
# hold a parenthesis of its own only in the Un-sets, which the pattern leaves alone.
_REMINDER = re.compile(r"[ \t]*(?:\([^()\n]*\)|（[^（）\n]*）)")
_EMPTY_LINES = re.compile(r"\n[ \t]*(?=\n|$)")


def without_reminder(text: str) -> str:
    """``text`` without its reminder text: ``"Flying (This creature can't be blocked …)"`` →
    ``"Flying"``; a line that was only a reminder is dropped."""
    if "(" not in text and "（" not in text:
        return text
    stripped = _REMINDER.sub("", text)
    return _EMPTY_LINES.sub("", stripped).strip()
