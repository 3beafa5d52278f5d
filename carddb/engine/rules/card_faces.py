"""Cards of several faces: which face a player casts or plays (709.3 a split card's half, 712.12 a
modal double-faced card's face, 715.3 an Adventurer card as its Adventure), and an Adventure that
resolves going into exile, from where the card may be cast as its creature (715.4); a transforming
double-faced permanent turning to its other face (701.28). The object
shows the chosen face (``card``) and keeps the card (``whole_card``) until it leaves the stack or
the battlefield (:meth:`carddb.engine.core.state.Game.move`)."""

from __future__ import annotations

from carddb.engine.core.cards import SPLIT_LAYOUTS, CardDef
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.executable import check_object
from carddb.engine.query.faces import TRANSFORMED_FACES, uncastable


def chosen_face(obj: GameObject, name: str | None) -> CardDef | None:
    """The face of ``obj``'s card named ``name`` to cast or play (None: the card as it is, its
    first face). A split card needs a half named (709.3); a face the engine cannot bring into a
    game (a transforming card's back face, 712.11) and a name of no face are refused."""
    card = obj.whole_card or obj.card
    if not card.faces:
        if name is not None and name.casefold() != card.name.casefold():
            raise IllegalActionError(f"{obj.name} has no face named {name!r}")
        return None
    names = " or ".join(repr(face.name) for face in card.faces)
    if name is None:
        if card.layout in SPLIT_LAYOUTS:
            raise IllegalActionError(f"{card.name}: choose the half to cast ({names}), 709.3")
        return None
    index = next((i for i, face in enumerate(card.faces) if face.name.casefold() == name.casefold()), None)
    if index is None:
        raise IllegalActionError(f"{card.name} has no face named {name!r} (its faces: {names})")
    cannot = uncastable(card.layout, index)
    if cannot is not None:
        raise IllegalActionError(f"{card.faces[index].name} is {cannot}: it is not cast or played")
    if index == 0 and card.layout not in SPLIT_LAYOUTS:
        return None  # the first face is what the card is
    return card.faces[index]


def show_face(obj: GameObject, face: CardDef) -> None:
    """``obj`` has the characteristics of ``face`` of its card (709.3, 712.12, 715.3)."""
    if obj.whole_card is None:
        obj.whole_card = obj.card
    obj.card = face


def is_adventure(obj: GameObject) -> bool:
    """A spell cast as the Adventure of an Adventurer card (715.3)."""
    card = obj.whole_card
    return card is not None and card.layout == "adventure" and obj.card is not card.faces[0]


def may_cast_from_adventure(obj: GameObject, player: str, face: CardDef | None) -> bool:
    """715.4: a card exiled on an adventure may be cast by its owner as its creature (its first
    face), not as its Adventure again (refused)."""
    if not (obj.zone == "exile" and obj.on_adventure and obj.owner == player):
        return False
    if face is not None:
        raise IllegalActionError(f"{obj.name} is on an adventure: it is cast as its creature only (715.4)")
    return True


def transform(game: Game, obj: GameObject) -> bool:
    """701.28a: a transforming double-faced permanent turns to its other face; it stays the same
    object, with its counters, damage and attachments. Another permanent (701.28c), or one whose
    other face is an instant or sorcery (701.28d), does not transform: False. The face it turns to
    is checked as any object coming into the game is (its abilities never ignored). Not modelled:
    701.28f (an ability of the permanent transforms it only if it has not transformed since the
    ability was put on the stack)."""
    card = obj.whole_card or obj.card
    if (
        card.layout not in TRANSFORMED_FACES
        or len(card.faces) < 2
        or obj.zone != "battlefield"
        or obj.face_down
    ):
        return False
    other = card.faces[1] if obj.whole_card is None else card
    if {"Instant", "Sorcery"} & set(other.types):
        return False
    before = obj.name
    if obj.whole_card is None:
        show_face(obj, other)
    else:
        obj.card, obj.whole_card = obj.whole_card, None
    check_object(obj, game.catalog)
    game.log.append(f"{before} transforms into {obj.name}")
    return True
