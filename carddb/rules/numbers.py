"""Rule numbers in their one stored form, shared by the parser, the mention finder and the lookup:
chapters ``7.``, sections ``702.``, rules ``702.35`` (the published file writes ``702.35.``),
subrules ``702.35a``. Kept apart from :mod:`carddb.rules.parse` so that reading rules (a card's
mentions, ``carddb rule``) does not load the file reader.
"""

from __future__ import annotations

import re

__all__ = ["canonical_number", "level_of", "parent_of"]

# One number in any of its written forms: "7", "7.", "702", "702.", "702.35", "702.35.", "702.35a".
_NUMBER = re.compile(r"(?P<top>\d+)(?:\.(?:(?P<rule>\d+)(?P<sub>[a-z]+)?\.?)?)?")


def canonical_number(text: str) -> str | None:
    """The stored form of a rule number written any way (``"702.35."`` → ``"702.35"``, ``"702"``
    → ``"702."``, ``"7"`` → ``"7."``, ``"702.35A"`` → ``"702.35a"``), or None when it cannot be
    one: a chapter is one digit (1–9), a section three digits starting with its chapter's."""
    match = _NUMBER.fullmatch(text.strip().lower())
    if match is None:
        return None
    top, rule, sub = match["top"], match["rule"], match["sub"]
    if len(top) == 1 and rule is None:
        return f"{top}." if top != "0" else None
    if len(top) != 3 or top[0] == "0":
        return None
    if rule is None:
        return f"{top}."
    if rule != "0" and rule.startswith("0"):
        return None
    return f"{top}.{rule}{sub or ''}"


def level_of(number: str) -> int:
    """1 for a chapter (``7.``), 2 for a section (``702.``), 3 for a rule, 4 for a subrule."""
    if number.endswith("."):
        return 1 if len(number) == 2 else 2
    return 4 if number[-1].isalpha() else 3


def parent_of(number: str) -> str | None:
    """The number one level up: ``702.35a`` → ``702.35`` → ``702.`` → ``7.`` → None."""
    if number.endswith("."):
        return None if len(number) == 2 else f"{number[0]}."
    if number[-1].isalpha():
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
    return number.split(".")[0] + "."
