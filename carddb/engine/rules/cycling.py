"""Cycling (702.29): "Cycling {2}" is the activated ability "{2}, Discard this card: Draw a card.",
activated from its owner's hand. The grammar parses that text; the engine runs it like any other
activated ability, from the hand."""

from __future__ import annotations

from functools import cache

from carddb.engine.core.cards import parse_ability, refused_ability, sole_keyword
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.query.executable import missing
from carddb.oracle.model import Ability, Keyword, Kind


@cache
def _cycling_ability(cost: str) -> Ability:
    ability = parse_ability(f"{cost}, Discard this card: Draw a card.", "Instant")
    if ability is None or ability.kind is not Kind.ACTIVATED:
        return refused_ability(
            Kind.ACTIVATED, f"Cycling {cost}", "the grammar does not read this cycling cost"
        )
    return ability


def cycling_keyword(ability: Ability) -> Keyword | None:
    """The Cycling keyword of a keyword line of its own (not landcycling and the like)."""
    keyword = sole_keyword(ability)
    return keyword if keyword is not None and keyword.name == "Cycling" and not keyword.long_cost else None


def as_activated(ability: Ability) -> Ability:
    """A Cycling keyword as the activated ability it stands for; any other ability as it is."""
    keyword = cycling_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    return _cycling_ability(keyword.parameter)


def _cycling_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    if keyword.name != "Cycling" or not keyword.parameter or keyword.long_cost:
        return [f"keyword {keyword.name.lower()}"]
    return ["keyword cycling"] if missing(_cycling_ability(keyword.parameter), catalog) else []


SECTION = Section("rules.cycling", keyword_checks={"cycling": _cycling_problems})
