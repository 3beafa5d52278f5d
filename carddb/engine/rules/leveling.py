"""Level up (702.87) and leveler cards (711): "Level up {1}{B}" is the activated ability "{1}{B}:
Put a level counter on this creature. Activate only as a sorcery."; a level symbol ("LEVEL 2-3",
its P/T box and the abilities after it) is a static ability of the card, "as long as it has at least
2 and no more than 3 level counters on it, it has base power and toughness 2/2 and has [those
abilities]" (711.2b), which :func:`carddb.engine.core.layers.characteristics` applies (the abilities
in layer 6, the base power and toughness in layer 7b). The grammar parses the level up text; the
engine runs it like any other activated ability."""

from __future__ import annotations

from functools import cache

from carddb.engine.core.cards import parse_ability, refused_ability, sole_keyword
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.query.executable import missing
from carddb.oracle.model import Ability, Keyword, Kind


@cache
def _level_up_ability(cost: str) -> Ability:
    text = f"{cost}: Put a level counter on this creature. Activate only as a sorcery."
    ability = parse_ability(text, "Creature")
    if ability is None or ability.kind is not Kind.ACTIVATED:
        return refused_ability(Kind.ACTIVATED, f"Level up {cost}", "the grammar does not read this cost")
    return ability


def level_up_keyword(ability: Ability) -> Keyword | None:
    """The Level up keyword of a keyword line of its own ("Level up {1}{B}")."""
    keyword = sole_keyword(ability)
    known = keyword is not None and keyword.name == "Level up" and not keyword.long_cost
    return keyword if known else None


def as_activated(ability: Ability) -> Ability:
    """A Level up keyword as the activated ability it stands for; any other ability as it is."""
    keyword = level_up_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    return _level_up_ability(keyword.parameter)


def _level_up_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    if keyword.name != "Level up" or not keyword.parameter or keyword.long_cost:
        return [f"keyword {keyword.name.lower()}"]
    refused = missing(_level_up_ability(keyword.parameter), catalog)
    return [f"keyword {keyword.name.lower()}"] if refused else []


SECTION = Section("rules.leveling", keyword_checks={"level": _level_up_problems})
