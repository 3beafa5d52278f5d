"""Keyword abilities that stand for a triggered ability their rule spells out (702.108 prowess,
702.45 bushido, 702.25 flanking, 702.46 soulshift): the ability is that text, parsed by the
oracle grammar: :func:`stands_for` gives that ability wherever the engine reads an object's
abilities (``query.abilities``) and asks what it cannot execute (``query.executable``), so the
keyword executes exactly when everything in its text does. A line with
several keywords ("Flying, prowess") is not expanded; its keywords stay rules the engine applies
elsewhere or are refused."""

from __future__ import annotations

from carddb.engine.core.cards import parse_ability
from carddb.oracle.model import Ability, Keyword, Kind

KEYWORD_TEXTS = {
    "prowess": "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.",
    "bushido": "Whenever this creature blocks or becomes blocked, it gets +{n}/+{n} until end of turn.",
    "flanking": (
        "Whenever a creature without flanking blocks this creature, the blocking creature gets -1/-1 "
        "until end of turn."
    ),
    "soulshift": (
        "When this creature dies, you may return target Spirit card with mana value {n} or less from your "
        "graveyard to your hand."
    ),
}
"""The text each keyword stands for (702.108a, 702.45a, 702.25a, 702.46a); ``{n}`` is its number."""


def _text(keyword: Keyword) -> str | None:
    template = KEYWORD_TEXTS.get(keyword.name.lower())
    if template is None:
        return None
    if "{n}" in template:
        if not (keyword.parameter or "").isdigit():
            return None
        return template.replace("{n}", keyword.parameter or "")
    return None if keyword.parameter else template


def stands_for(ability: Ability) -> Ability:
    """The triggered ability a one-keyword line stands for, or the ability itself."""
    if ability.kind is not Kind.KEYWORD or len(ability.keywords) != 1:
        return ability
    text = _text(ability.keywords[0])
    expanded = parse_ability(text, "Creature") if text is not None else None
    return expanded if expanded is not None else ability
