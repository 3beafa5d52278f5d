"""Keyword abilities that stand for a triggered ability their rule spells out (prowess, bushido,
flanking, soulshift, afflict, annihilator, afterlife, battle cry, frenzy, exploit, ingest, living
weapon, exalted): the ability is that text, parsed by the oracle grammar. :func:`stands_for` gives it
wherever the engine reads an object's abilities (``query.abilities``) and asks what it cannot
execute (``query.executable``), so the keyword executes exactly when everything in its text does.
A line with several keywords ("Flying, prowess") is not expanded: its keywords stay rules the
engine applies elsewhere, or are refused."""

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
    "afflict": "Whenever this creature becomes blocked, defending player loses {n} life.",
    "annihilator": "Whenever this creature attacks, defending player sacrifices {n} permanents.",
    "afterlife": (
        "When this creature dies, create {n} 1/1 white and black Spirit creature tokens with flying."
    ),
    "battle cry": (
        "Whenever this creature attacks, each other attacking creature gets +1/+0 until end of turn."
    ),
    "frenzy": "Whenever this creature attacks and isn't blocked, it gets +{n}/+0 until end of turn.",
    "exploit": "When this creature enters the battlefield, you may sacrifice a creature.",
    "ingest": (
        "Whenever this creature deals combat damage to a player, that player exiles the top card of their "
        "library."
    ),
    "exalted": "Whenever a creature you control attacks alone, that creature gets +1/+1 until end of turn.",
    "living weapon": (
        "When this Equipment enters the battlefield, create a 0/0 black Phyrexian Germ creature token, then "
        "attach this Equipment to it."
    ),
}
"""The text each keyword stands for (702.108a prowess, 702.45a bushido, 702.25a flanking, 702.46a
soulshift, 702.130a afflict, 702.86a annihilator, 702.135a afterlife, 702.91a battle cry, 702.68a
frenzy, 702.110a exploit, 702.115a ingest, 702.92a living weapon, 702.83a exalted); ``{n}`` is its number."""


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
