"""Cycling (702.29): "Cycling {2}" is the activated ability "{2}, Discard this card: Draw a card.",
activated from its owner's hand. The grammar parses that text; the engine runs it like any other
activated ability, from the hand."""

from __future__ import annotations

from functools import cache

from carddb.engine.attachments import _parse_one, _refused
from carddb.engine.effects import KEYWORD_CHECKS, missing
from carddb.oracle.model import Ability, Keyword, Kind


@cache
def _cycling_ability(cost: str) -> Ability:
    ability = _parse_one(f"{cost}, Discard this card: Draw a card.", "Instant")
    if ability is None or ability.kind is not Kind.ACTIVATED:
        return _refused(Kind.ACTIVATED, f"Cycling {cost}", "the grammar does not read this cycling cost")
    return ability


def cycling_keyword(ability: Ability) -> Keyword | None:
    """The Cycling keyword of a keyword line of its own (not landcycling and the like)."""
    if ability.kind is Kind.KEYWORD and len(ability.keywords) == 1:
        keyword = ability.keywords[0]
        if keyword.name == "Cycling" and keyword.parameter and not keyword.long_cost:
            return keyword
    return None


def as_activated(ability: Ability) -> Ability:
    """A Cycling keyword as the activated ability it stands for; any other ability as it is."""
    keyword = cycling_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    return _cycling_ability(keyword.parameter)


def _cycling_problems(keyword: Keyword) -> list[str]:
    if keyword.name != "Cycling" or not keyword.parameter or keyword.long_cost:
        return [f"keyword {keyword.name.lower()}"]
    return ["keyword cycling"] if missing(_cycling_ability(keyword.parameter)) else []


KEYWORD_CHECKS["cycling"] = _cycling_problems
