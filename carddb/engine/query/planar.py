"""Planechase (901): which objects are planar (plane and phenomenon cards, 311, 312), which of them
are face up, each player's planar deck, and the planar controller.

All plane and phenomenon cards stay in the command zone throughout the game (901.4): a player's
planar deck is the face-down planar cards of their command zone, in order (its top first), and
the face-up one is the plane (or phenomenon) the players are on. The planar controller is the
active player (901.6): they control the face-up plane and its abilities, and "you" in them is
that player.

Its own module because the triggers (a face-up plane's abilities trigger from the command zone),
the actions and the scenario runner all ask, and none of that needs executing anything."""

from __future__ import annotations

from carddb.engine.core.state import Game, GameObject

PLANAR_TYPES = ("Plane", "Phenomenon")


def is_planar(obj: GameObject) -> bool:
    return any(kind in obj.card.types for kind in PLANAR_TYPES)


def planar_objects(game: Game) -> list[GameObject]:
    """The face-up plane or phenomenon cards (their abilities function, 901.4)."""
    return [
        obj
        for player in game.players
        for obj in game.in_zone("command", player)
        if is_planar(obj) and not obj.face_down
    ]


def planar_deck(game: Game, player: str) -> list[GameObject]:
    """``player``'s planar deck, top first: the face-down planar cards of their command zone."""
    return [obj for obj in game.in_zone("command", player) if is_planar(obj) and obj.face_down]


def is_planechase(game: Game) -> bool:
    """A Planechase game: some player has planar cards."""
    return any(is_planar(obj) for player in game.players for obj in game.in_zone("command", player))


def planar_controller(game: Game) -> str:
    """The player who controls the face-up planar cards: the active player (901.6)."""
    return game.active
