"""Face-down permanents (708), cloak (701.56) and manifest (701.40): "To cloak a card, turn it face
down. It becomes a 2/2 face-down creature card with ward {2}, no name, no subtypes, and no mana
cost. Put that card onto the battlefield face down." A manifested card is the same without ward.

A face-down object keeps its own card aside (``GameObject.face_down_card``) and has the face-down
characteristics as its card (``GameObject.card``), so everything that reads characteristics —
power, toughness, types, colours (none), abilities (ward {2} for a cloaked one), the name (none) —
reads the face-down ones, and nothing else needs to know. Turning it face up (701.56b, 701.40b:
any time its controller has priority, for its mana cost, if it is a creature card) gives it its
own characteristics back; so does leaving the battlefield (708.9: the card is revealed and is
face up wherever it goes)."""

from __future__ import annotations

from functools import cache

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Event, Game, GameObject
from carddb.engine.query.executable import check_object
from carddb.engine.query.nouns import objects, resolve
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action


@cache
def manifested() -> CardDef:
    """The characteristics of a face-down manifested card (708.2a, 701.40a)."""
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
    obj.face_down = False
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


def face_up_cost(obj: GameObject) -> tuple[str, ...]:
    """What turning ``obj`` face up costs: its mana cost, if it is a creature card (701.56b,
    701.40b); a face-down card that is not a creature card cannot be turned face up this way."""
    real = obj.face_down_card
    if not obj.face_down or real is None:
        raise IllegalActionError(f"{obj.name or 'that permanent'} is not face down")
    if "Creature" not in real.types:
        raise IllegalActionError(f"{real.name} is not a creature card: no mana cost turns it face up")
    return real.mana_symbols


SECTION = Section("rules.face_down", verbs={"cloak": cloak, "manifest": manifest})
