"""The abilities a game object has now: its card's and those other abilities give it
(:func:`abilities_of`, :func:`active_abilities`), its keyword abilities (:func:`keywords_of`:
printed, granted until end of turn, given by static abilities), and summoning sickness.

Its own module because the actions, the triggers, the static abilities, combat, protection and the
handlers all ask what an object has, and none of that needs executing anything."""

from __future__ import annotations

import re

from carddb.engine.core.errors import EngineError
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.keyword_abilities import stands_for
from carddb.oracle.model import Ability, Kind


def keyword_list(text: str) -> list[str]:
    """``"flying and first strike"`` → ``["flying", "first strike"]``."""

    return [part.strip().lower() for part in re.split(r",? and |, ", text) if part.strip()]


def keywords_of(obj: GameObject) -> set[str]:
    """The keyword abilities an object has now: printed, granted until end of turn, and by statics."""
    found = {k.name.lower() for a in obj.card.abilities if a.kind is Kind.KEYWORD for k in a.keywords}
    for text in (*obj.keywords_until_end_of_turn, *obj.static_keywords):
        if text != "regeneration shield":
            found.update(keyword_list(text))
    return found


REGENERATION = "regeneration shield"
"""A regeneration shield, kept with the until-end-of-turn keywords (it lasts until cleanup and
leaves with the permanent)."""


CANT_BE_REGENERATED = "cant_be_regenerated"
"""Kept with the until-end-of-turn restrictions: "It can't be regenerated this turn." (701.15c:
its regeneration shields are not applied)."""


def abilities_of(obj: GameObject) -> list[Ability]:
    """Every ability an object has by index: its card's, then those other abilities give it."""
    return [*(stands_for(a) for a in obj.card.abilities), *obj.granted, *obj.granted_until_end_of_turn]


def ability_at(obj: GameObject, index: int) -> Ability:
    """The ability at ``index`` (0-based) of :func:`abilities_of`."""
    abilities = abilities_of(obj)
    if not 0 <= index < len(abilities):
        raise EngineError(f"{obj.name} has no ability {index + 1}")
    return abilities[index]


def active_abilities(obj: GameObject) -> list[tuple[int, Ability]]:
    """The abilities an object has now, with their indexes: a Class has those of its first level
    only (gaining levels is not implemented, so the abilities after a level line are not yet its);
    abilities granted by others follow the card's own."""
    found: list[tuple[int, Ability]] = []
    for index, ability in enumerate(obj.card.abilities):
        if ability.kind is Kind.LEVEL and "Class" in obj.card.subtypes:
            break
        found.append((index, stands_for(ability)))  # "Bushido 2": the triggered ability it stands for
    start = len(obj.card.abilities)
    found.extend((start + i, a) for i, a in enumerate([*obj.granted, *obj.granted_until_end_of_turn]))
    return found


def summoning_sick(game: Game, obj: GameObject) -> bool:
    """A creature that its controller has not controlled continuously since their most recent turn
    began cannot attack or use {T} abilities, unless it has haste (rule 302.6)."""
    return obj.is_a("Creature") and obj.since_turn >= game.turn and "haste" not in keywords_of(obj)
