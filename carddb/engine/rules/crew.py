"""Crew (702.122a): "Crew N" means "Tap any number of other untapped creatures you control with
total power N or greater: This permanent becomes an artifact creature until end of turn." The
grammar parses that text; the engine runs it like any other activated ability: the cost
(:mod:`carddb.engine.rules.costs`, "with total power N or greater") asks the player for the
creatures to tap one at a time until their total power reaches N — summoning sickness does not
matter, since the cost is not {T} (302.6) — and the effect is a layer-4 type change that ends at
cleanup (:mod:`carddb.engine.rules.layers`)."""

from __future__ import annotations

from functools import cache

from carddb.engine.core.cards import parse_ability, refused_ability, sole_keyword
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.query.executable import missing
from carddb.oracle.model import Ability, Keyword, Kind


@cache
def _crew_ability(parameter: str) -> Ability:
    text = (
        f"Tap any number of other untapped creatures you control with total power {parameter} or greater: "
        "This Vehicle becomes an artifact creature until end of turn."
    )
    ability = parse_ability(text, "Artifact — Vehicle") if parameter.isdigit() else None
    if ability is None or ability.kind is not Kind.ACTIVATED:
        reason = "the grammar does not read this crew cost"
        return refused_ability(Kind.ACTIVATED, f"Crew {parameter}", reason)
    return ability


def crew_keyword(ability: Ability) -> Keyword | None:
    """The Crew keyword of a keyword line of its own ("Crew 3")."""
    keyword = sole_keyword(ability)
    return keyword if keyword is not None and keyword.name == "Crew" and not keyword.long_cost else None


def as_activated(ability: Ability) -> Ability:
    """A Crew keyword as the activated ability it stands for; any other ability as it is."""
    keyword = crew_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    return _crew_ability(keyword.parameter.strip())


def _crew_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    if keyword.name != "Crew" or keyword.long_cost or not parameter.isdigit():
        return [f"keyword {keyword.name.lower()} {parameter}".rstrip()]
    return [f"keyword {keyword.name.lower()}"] if missing(_crew_ability(parameter), catalog) else []


SECTION = Section("rules.crew", keyword_checks={"crew": _crew_problems})
