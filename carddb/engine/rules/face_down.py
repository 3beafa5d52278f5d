"""Face-down permanents (708), cloak (701.56) and manifest (701.34): "To cloak a card, turn it face
down. It becomes a 2/2 face-down creature card with ward {2}, no name, no subtypes, and no mana
cost. Put that card onto the battlefield face down." A manifested card is the same without ward.

A face-down object keeps its own card aside (``GameObject.face_down_card``) and has the face-down
characteristics as its card (``GameObject.card``), so everything that reads characteristics —
power, toughness, types, colours (none), abilities (ward {2} for a cloaked one), the name (none) —
reads the face-down ones, and nothing else needs to know. Turning it face up (701.56b, 701.34b:
any time its controller has priority, for its mana cost, if it is a creature card) gives it its
own characteristics back; so does leaving the battlefield (708.9: the card is revealed and is
face up wherever it goes)."""

from __future__ import annotations

import re
from functools import cache

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Event, Game, GameObject
from carddb.engine.query.executable import check_object
from carddb.engine.query.nouns import objects, resolve
from carddb.engine.rules.triggers import is_named
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action, Keyword, Kind


@cache
def manifested() -> CardDef:
    """The characteristics of a face-down manifested card (708.2a, 701.34a)."""
    return CardDef(name="", type_line="Creature", power="2", toughness="2")


@cache
def cloaked() -> CardDef:
    """The characteristics of a cloaked card (701.56a); made when first needed (its text is parsed)."""
    return CardDef(name="", type_line="Creature", text="Ward {2}", power="2", toughness="2")


def turn_face_down(obj: GameObject, characteristics: CardDef) -> None:
    if obj.face_down_card is None:
        obj.face_down_card = obj.card
    obj.card = characteristics
    obj.face_down = True


def turn_face_up(game: Game, obj: GameObject) -> None:
    """It has its own characteristics again (708.8); an ability it has that the engine does not
    execute refuses the action that turned it up."""
    if obj.face_down_card is None:
        return
    obj.card, obj.face_down_card = obj.face_down_card, None
    obj.face_down = obj.cast_face_down = False
    check_object(obj, game.catalog)
    game.events.append(Event("turned_face_up", obj, player=obj.controller))


def put_face_down(ctx: Context, obj: GameObject, characteristics: CardDef) -> bool:
    """Put ``obj`` onto the battlefield face down under the controller's control; False if it went
    elsewhere (a replacement effect), face up then."""
    turn_face_down(obj, characteristics)
    owner = obj.owner
    where = put(ctx.game, obj, "battlefield", cause="effect", decider=ctx.decider)
    if where != "battlefield":
        turn_face_up(ctx.game, obj)
        return False
    obj.controller = ctx.controller if ctx.controller in ctx.game.players else owner
    return True


def _face_down(ctx: Context, action: Action, characteristics: CardDef) -> None:
    """ "Cloak the top card of your library", "manifest the top two cards of your library": "it"
    and "them" name the face-down permanents afterwards."""
    done: list[Ref] = []
    for obj in list(objects(resolve(ctx, action.arg("what")))):
        if obj.zone in ("battlefield", "stack"):
            continue
        if put_face_down(ctx, obj, characteristics):
            done.append(obj)
    ctx.it = done
    ctx.mentions.append(list(done))


def cloak(ctx: Context, subject: list[Ref], action: Action) -> None:
    _face_down(ctx, action, cloaked())


def manifest(ctx: Context, subject: list[Ref], action: Action) -> None:
    _face_down(ctx, action, manifested())


_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")
MORPH_CAST = ("{3}",)
"""The cost of casting a card face down with morph (702.37c), an alternative cost."""


def morph_cost(card: CardDef) -> tuple[tuple[str, ...], bool] | None:
    """The mana symbols of the card's morph or megamorph cost and whether it is megamorph (None: no
    morph the engine pays: "Morph—Reveal a white card" is refused)."""
    for ability in card.abilities:
        if ability.kind is not Kind.KEYWORD:
            continue
        for keyword in ability.keywords:
            name, parameter = keyword.name.lower(), (keyword.parameter or "").strip()
            if name in ("morph", "megamorph") and _MANA.match(parameter):
                return tuple(re.findall(r"\{[^}]+\}", parameter)), name == "megamorph"
    return None


def _morph_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if _MANA.match(parameter) else [f"keyword {keyword.name.lower()} {parameter}"]


def face_up_costs(obj: GameObject) -> dict[str, tuple[str, ...]]:
    """The ways ``obj`` may be turned face up and what each costs: its morph cost (702.37e) if the
    card has morph, its mana cost if it is a creature card that was manifested or cloaked (701.34b,
    701.56b). None of them: it cannot be turned face up by its controller."""
    real = obj.face_down_card
    if not obj.face_down or real is None:
        raise IllegalActionError(f"{obj.name or 'that permanent'} is not face down")
    ways: dict[str, tuple[str, ...]] = {}
    morph = morph_cost(real)
    if morph is not None:
        ways["morph"] = morph[0]
    if "Creature" in real.types and real.mana_cost and not obj.cast_face_down:
        ways["mana cost"] = real.mana_symbols  # a card without a mana cost can't (701.34b, 701.56b)
    if not ways:
        raise IllegalActionError(f"{real.name} is not a creature card: no mana cost turns it face up")
    return ways


def megamorphed(obj: GameObject, way: str) -> bool:
    """Turned face up for its megamorph cost: it gets a +1/+1 counter (702.37b)."""
    real = obj.face_down_card
    morph = morph_cost(real) if real is not None else None
    return way == "morph" and morph is not None and morph[1]


def _turned_face_up(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "When ~ is turned face up" (708.8: it is the same permanent; nothing enters)."""
    return event.kind == "turned_face_up" and is_named(ctx, trigger.arg("what"), event.obj)


SECTION = Section(
    "rules.face_down",
    verbs={"cloak": cloak, "manifest": manifest},
    keyword_checks={"morph": _morph_problems, "megamorph": _morph_problems},
    triggers={"turned_face_up": (_turned_face_up, None)},
)
