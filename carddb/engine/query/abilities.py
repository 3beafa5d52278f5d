"""The abilities a game object has now: its card's and those other abilities give it
(:func:`abilities_of`, :func:`active_abilities`), its keyword abilities (:func:`keywords_of`:
printed, granted until end of turn, given by static abilities), and summoning sickness.

Its own module because the actions, the triggers, the static abilities, combat, protection and the
handlers all ask what an object has, and none of that needs executing anything."""

from __future__ import annotations

from carddb.engine.core.errors import EngineError
from carddb.engine.core.layers import split_keywords
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.keyword_abilities import stands_for
from carddb.engine.query.tree import children
from carddb.oracle.model import Ability, Action, Kind, SelfRef


def zone_of_itself(node: object) -> str | None:
    """The zone the card itself is named in ("~ from your graveyard": "graveyard", "~ from your
    hand": "hand"); None when ``node`` is not the card so named."""
    if not isinstance(node, SelfRef):
        return None
    for qualifier in node.qualifiers:
        if isinstance(qualifier, Action) and qualifier.verb == "in_zone":
            for _, zone in qualifier.args:
                if isinstance(zone, Action) and zone.verb == "zone" and isinstance(zone.arg("zone"), str):
                    return str(zone.arg("zone"))
    return None


def names_itself_in_graveyard(node: object) -> bool:
    """The card itself named in a graveyard ("~ from your graveyard")."""
    return zone_of_itself(node) == "graveyard"


def itself_in_graveyard(part: object) -> bool:
    """Whether ``part`` names the card itself in a graveyard ("Return ~ from your graveyard to your
    hand", 113.6m), not merely its name: "all cards named ~ from their graveyard" (Myr Servitor) is
    other cards that share its name (201.5), and says nothing of where the card itself is."""
    stack = [part]
    while stack:
        node = stack.pop()
        if names_itself_in_graveyard(node):
            return True
        if isinstance(node, Action):
            stack.extend(value for key, value in node.args if key != "cardname")
        else:
            stack.extend(children(node))
    return False


def activation_zone(ability: Ability) -> str:
    """Where an activated ability is activated (113.6m): the zone its cost moves the card out of
    ("Exile ~ from your graveyard:", "Discard ~:", the parser's ``Ability.zone``) or its effect does
    ("{2}{G}: Return ~ from your graveyard to your hand."); else the battlefield."""
    if ability.zone is not None:
        return ability.zone
    if any(itself_in_graveyard(step) for step in ability.effects):
        return "graveyard"
    return "battlefield"


def keyword_list(text: str) -> list[str]:
    """``"flying and first strike"`` → ``["flying", "first strike"]``."""
    return split_keywords(text)


def keywords_of(obj: GameObject) -> set[str]:
    """The keyword abilities an object has now (layer 6): its printed ones it has not lost, and
    those effects give it."""
    now = obj.now
    found = {k.name.lower() for _, a in now.abilities if a.kind is Kind.KEYWORD for k in a.keywords}
    for text in now.granted_keywords:
        found.update(keyword_list(text))
    return found


REGENERATION = "regeneration shield"
"""A regeneration shield, kept with the until-end-of-turn keywords (it lasts until cleanup and
leaves with the permanent)."""


CANT_BE_REGENERATED = "cant_be_regenerated"
"""Kept with the until-end-of-turn restrictions: "It can't be regenerated this turn." (701.15c:
its regeneration shields are not applied)."""


def abilities_of(obj: GameObject) -> list[tuple[int, Ability]]:
    """Every ability an object has now (layer 6) with its index: its card's it has not lost, then
    those other abilities give it."""
    return [(index, stands_for(ability)) for index, ability in obj.now.abilities]


def granter_of(game: Game, obj: GameObject, index: int) -> GameObject | None:
    """The object whose text gave ``obj`` its ability at ``index`` (a quoted ability: ``~`` in it
    names that object), when it is another object (None: the object's own, or one it gave itself)."""
    granter = next((found for at, found in obj.now.granters if at == index), None)
    if granter is None or granter == obj.id:
        return None
    return game.objects.get(granter)


def ability_at(obj: GameObject, index: int) -> Ability:
    """The ability at ``index`` (0-based): one the object has now, else, for an ability that
    already left it (on the stack, independent of its source, 113.7a), its card's."""
    for found, ability in obj.now.abilities:
        if found == index:
            return stands_for(ability)
    if 0 <= index < len(obj.card.abilities):
        return stands_for(obj.card.abilities[index])
    raise EngineError(f"{obj.name} has no ability {index + 1}")


def active_abilities(obj: GameObject) -> list[tuple[int, Ability]]:
    """The abilities an object has now, with their indexes: a Class has those of its first level
    only (gaining levels is not implemented, so the abilities after a level line are not yet its);
    abilities granted by others follow the card's own."""
    found: list[tuple[int, Ability]] = []
    printed = len(obj.card.abilities)
    levels = "Class" in obj.card.subtypes
    cut = next((i for i, a in enumerate(obj.card.abilities) if levels and a.kind is Kind.LEVEL), printed)
    for index, ability in obj.now.abilities:
        if cut <= index < printed:
            continue
        found.append((index, stands_for(ability)))  # "Bushido 2": the triggered ability it stands for
    return found


def summoning_sick(game: Game, obj: GameObject) -> bool:
    """A creature that its controller has not controlled continuously since their most recent turn
    began cannot attack or use {T} abilities, unless it has haste (rule 302.6)."""
    return obj.is_a("Creature") and obj.since_turn >= game.turn and "haste" not in keywords_of(obj)
