"""Planeswalking (701.24) and the phenomenon's state-based action (704.6f), apart from the rest of
Planechase (:mod:`carddb.engine.rules.planechase`) because the state-based actions need them and
must not depend on the triggers.

701.24b: "To planeswalk is to put each face-up plane card and phenomenon card on the bottom of its
owner's planar deck face down, then move the top card of your planar deck off that planar deck and
turn it face up." The card turned face up is the one the player planeswalks to (701.24d): for a
phenomenon, its "When you encounter ~" triggers. 704.6f: a face-up phenomenon that is not the source
of a triggered ability that has triggered and not yet left the stack makes the planar controller
planeswalk (away from it)."""

from __future__ import annotations

from carddb.engine.core.state import Event, Game, GameObject
from carddb.engine.query.planar import planar_controller, planar_deck, planar_objects


def to_bottom(game: Game, obj: GameObject) -> None:
    """A planar card goes face down to the bottom of its owner's planar deck, staying in the
    command zone (901.4)."""
    obj.face_down = True
    command = game.players[obj.owner].zones["command"]
    command.remove(obj.id)
    command.append(obj.id)


def planeswalk(game: Game) -> None:
    """The planar controller planeswalks (701.24b): "When you planeswalk to ~" and "When you
    encounter ~" see the card turned face up."""
    for obj in planar_objects(game):
        to_bottom(game, obj)
    controller = planar_controller(game)
    deck = planar_deck(game, controller)
    if deck:
        deck[0].face_down = False
        game.log.append(f"{controller} planeswalks to {deck[0].name}")
        game.events.append(Event("planeswalk", deck[0], player=controller))


def phenomenon_check(game: Game) -> bool:
    """704.6f; True if the planar controller planeswalked away from a phenomenon."""
    waiting = {item.source for item in (*game.stack, *game.pending) if item.rule != "planeswalk"}
    for obj in planar_objects(game):
        if "Phenomenon" in obj.card.types and obj.id not in waiting:
            game.log.append(f"{planar_controller(game)} planeswalks away from {obj.name} (704.6f)")
            planeswalk(game)
            return True
    return False
