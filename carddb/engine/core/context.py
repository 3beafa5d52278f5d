"""What executing one ability knows (:class:`Context`), and what its steps speak of (:data:`Ref`).

Its own module because every part that executes or checks an ability needs it (noun phrases,
steps, handlers, triggers, static abilities) and it needs none of them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from carddb.engine.core.decisions import Decider
from carddb.engine.core.layers import LayerEffect
from carddb.engine.core.state import Game, GameObject

Ref = GameObject | str
"""An object, or a player by name."""


@dataclass
class Context:
    """What executing one ability knows: the game, who controls the ability, its source, its
    chosen targets (by the noun that named them), values bound so far (X, the die result) and the
    objects "it" and "them" refer to."""

    game: Game
    decider: Decider
    controller: str
    source: GameObject
    slots: dict[int, list[Ref]] = field(default_factory=dict)
    bindings: dict[str, int] = field(default_factory=dict)
    it: list[Ref] = field(default_factory=list)
    mentions: list[list[Ref]] = field(default_factory=list)
    """What the noun phrases resolved so far named, in order: "that creature", "those creatures"
    name the most recent of them that such a phrase describes."""
    event_refs: list[Ref] = field(default_factory=list)
    """What the event that triggered the ability was about ("that player", "that creature")."""
    moved_to: dict[int, str] = field(default_factory=dict)
    """For an ability triggered by an object moving (it died, entered, left): that object's id and
    the zone the move put it in. Once it has left that zone it is a new object the ability cannot
    find (400.7): "exile it" does nothing (``effects.common.target_objects``)."""
    known_since: int | None = None
    """The timestamp the ability began resolving at: an object that has left the battlefield since
    (or the one its trigger was about) is read as it last existed there (608.2h)."""
    duration: object = None
    """The duration of the clause being executed ("until end of turn"), for its handlers."""
    no_regeneration: bool = False
    """The step being executed is followed by "It can't be regenerated." (608.2c: later text
    modifies earlier text): what it destroys is destroyed even with a regeneration shield."""
    looked: list[GameObject] = field(default_factory=list)
    looked_zone: str = ""
    """The cards the ability looked at or revealed from a zone ("Look at the top four cards of
    your library"): "from among them", "the rest" (those still there) read them."""
    done: dict[str, list[GameObject]] = field(default_factory=dict)
    """What the ability has destroyed, exiled, sacrificed, discarded and revealed so far, by the
    word ("creatures destroyed this way", "cards revealed this way")."""
    last_effects: list[tuple[GameObject, list[LayerEffect]]] = field(default_factory=list)
    """The continuous effects the last characteristic-changing phrase made, by object ("It's
    still a land." changes them)."""
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    divided: dict[int | str, int] = field(default_factory=dict)
    """601.2d: the damage divided among the targets as the ability was put on the stack, by target."""
    discarded: list[int] = field(default_factory=list)
    """The cards this ability discarded, for its cost or by a step so far ("the discarded card")."""
    actor: str | None = None
    """The player who does a step that names no one ("Each player may search their library …, then
    shuffle": each player in turn does their own optional part); None: the ability's controller."""
    granter: GameObject | None = None
    """For a quoted ability another object's text gave the source (an Equipment's "Equipped
    creature has \"Sacrifice ~: ~ deals 2 damage …\""): that object, which ``~`` in it names;
    "this creature" still names the source (None: the source's own ability, or one it gave itself)."""

    @property
    def itself(self) -> GameObject:
        """What ``~`` names: the object whose text holds the ability (:attr:`granter`, else the source)."""
        return self.granter if self.granter is not None else self.source
