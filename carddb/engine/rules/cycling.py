"""Cycling (702.29): "Cycling {2}" is the activated ability "{2}, Discard this card: Draw a card.",
activated from its owner's hand; typecycling (702.29e: "Plainscycling {2}", "Basic landcycling
{1}{G}", "Wizardcycling {3}") is "{2}, Discard this card: Search your library for a Plains card,
reveal it, put it into your hand, then shuffle." The grammar parses those texts; the engine runs
them like any other activated ability, from the hand."""

from __future__ import annotations

from functools import cache

from carddb.engine.core.cards import parse_ability, refused_ability, sole_keyword
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.query.executable import missing
from carddb.oracle.model import Ability, Keyword, Kind

TYPECYCLING = {
    "Basic landcycling": "basic land", "Landcycling": "land", "Artifact landcycling": "artifact land",
    "Plainscycling": "Plains", "Islandcycling": "Island", "Swampcycling": "Swamp",
    "Mountaincycling": "Mountain", "Forestcycling": "Forest", "Wizardcycling": "Wizard",
    "Slivercycling": "Sliver",
}  # fmt: skip
"""Typecycling keywords (702.29e) and the card they search for."""


@cache
def _cycling_ability(name: str, cost: str) -> Ability:
    found = TYPECYCLING.get(name)
    effect = (
        "Draw a card."
        if found is None
        else f"Search your library for a {found} card, reveal it, put it into your hand, then shuffle."
    )
    ability = parse_ability(f"{cost}, Discard this card: {effect}", "Instant")
    if ability is None or ability.kind is not Kind.ACTIVATED:
        return refused_ability(Kind.ACTIVATED, f"{name} {cost}", "the grammar does not read this cost")
    return ability


def cycling_keyword(ability: Ability) -> Keyword | None:
    """The Cycling (or typecycling) keyword of a keyword line of its own."""
    keyword = sole_keyword(ability)
    known = keyword is not None and (keyword.name == "Cycling" or keyword.name in TYPECYCLING)
    return keyword if keyword is not None and known and not keyword.long_cost else None


def as_activated(ability: Ability) -> Ability:
    """A Cycling keyword as the activated ability it stands for; any other ability as it is."""
    keyword = cycling_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    return _cycling_ability(keyword.name, keyword.parameter)


def _cycling_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    known = keyword.name == "Cycling" or keyword.name in TYPECYCLING
    if not known or not keyword.parameter or keyword.long_cost:
        return [f"keyword {keyword.name.lower()}"]
    if missing(_cycling_ability(keyword.name, keyword.parameter), catalog):
        return [f"keyword {keyword.name.lower()}"]
    return []


SECTION = Section(
    "rules.cycling",
    keyword_checks={
        name.split()[0].lower(): _cycling_problems for name in ("Cycling", *TYPECYCLING)
    },
)
