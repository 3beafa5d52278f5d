"""Protection (702.16): "protection from red", from creatures, artifacts, enchantments, everything.
What has protection from a quality can't be Damaged, Enchanted or equipped, Blocked or Targeted by
anything with that quality (DEBT); the rest of the engine asks :func:`protected_from` and
:func:`targetable`."""

from __future__ import annotations

import re

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.state import GameObject
from carddb.engine.query.abilities import keyword_list, keywords_of
from carddb.engine.query.characteristics import colors_of
from carddb.engine.query.nouns import COLOR_WORDS
from carddb.oracle.model import Keyword, Kind

PROTECTION_QUALITIES = {
    "white", "blue", "black", "red", "green", "creatures", "artifacts", "enchantments", "everything",
    "multicolored", "monocolored", "instants", "sorceries", "lands", "all colors",
}  # fmt: skip
"""What "protection from …" the engine applies (702.16), besides creature types ("from Dragons")."""
_TYPED = {
    "creatures": "Creature", "artifacts": "Artifact", "enchantments": "Enchantment", "instants": "Instant",
    "sorceries": "Sorcery", "lands": "Land",
}  # fmt: skip


def _creature_type(quality: str) -> str | None:
    """ "Dragons" → "Dragon" (protection from a creature type, 702.16a); None: not one."""
    word = quality[:-3] + "f" if quality.endswith("ves") else quality.removesuffix("s")  # "Elves" → "Elf"
    return word if quality[:1].isupper() and quality.endswith("s") and word.isalpha() else None


def _known(quality: str) -> bool:
    return quality in PROTECTION_QUALITIES or _creature_type(quality) is not None


def _qualities(text: str) -> list[str]:
    """ "white and from blue" → ["white", "blue"]."""
    return [q.strip() for q in re.split(r",? and from |, from ", text) if q.strip()]


def protections(obj: GameObject) -> list[str]:
    """The qualities ``obj`` has protection from: printed keywords and granted ones."""
    found: list[str] = []
    for _, ability in obj.now.abilities:
        if ability.kind is Kind.KEYWORD:
            for keyword in ability.keywords:
                if keyword.name == "Protection" and keyword.parameter:
                    found.extend(_qualities(keyword.parameter))
    for text in obj.now.granted_keywords:
        for granted in keyword_list(text):
            if granted.startswith("protection from "):
                found.extend(_qualities(granted.removeprefix("protection from ")))
    return found


def protected_from(obj: GameObject, source: GameObject | None) -> bool:
    """Whether ``obj`` has protection from ``source``: damage from it is prevented, and it can't be
    blocked by it, targeted by it, or enchanted or equipped by it (the engine's DEBT)."""
    if source is None or source is obj:
        return False
    colors = colors_of(source)
    for quality in protections(obj):
        if (
            quality == "everything"
            or COLOR_WORDS.get(quality) in colors
            or (quality in _TYPED and source.is_a(_TYPED[quality]))
            or (quality == "all colors" and bool(colors))
            or ((kind := _creature_type(quality)) is not None and source.is_a(kind))
            or (quality == "multicolored" and len(colors) >= 2)
            or (quality == "monocolored" and len(colors) == 1)
        ):
            return True
    return False


def known_protection(text: str) -> bool:
    return (
        text.startswith("protection from ")
        and all(_known(q) for q in _qualities(text.removeprefix("protection from ")))
    )


def _protection_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    qualities = _qualities(keyword.parameter or "")
    return [] if qualities and all(_known(q) for q in qualities) else ["keyword protection"]




def targetable(ctx: Context, ref: Ref) -> bool:
    """Shroud: no spell or ability targets it; hexproof: none an opponent controls; protection:
    nothing with that quality."""
    if isinstance(ref, str):
        return True
    if protected_from(ref, ctx.source):
        return False
    keywords = keywords_of(ref)
    if "shroud" in keywords:
        return False
    return not ("hexproof" in keywords and ref.controller != ctx.controller)


SECTION = Section(
    "rules.protection",
    keywords=frozenset({"hexproof", "shroud"}),
    keyword_checks={"protection": _protection_problems},
    granted_keywords=(known_protection,),
)
"""Protection, and hexproof and shroud (:func:`targetable`)."""
