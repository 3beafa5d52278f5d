"""Events as they are about to happen (614.1): what replacement and prevention effects see and
change before anything happens (:mod:`carddb.engine.rules.replacement` applies them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from carddb.engine.core.state import Game, GameObject

PROPOSED_KINDS = frozenset({
    "damage", "destroy", "roll", "enter", "draw", "gain_life", "lose_life", "move", "create",
})  # fmt: skip
"""The events that go through the replacement effects before they happen."""


@dataclass
class Proposed:
    """An event about to happen. ``kind`` is one of :data:`PROPOSED_KINDS`, or ``"replaced"`` once
    an effect has replaced it with something else entirely (a regeneration, all damage prevented)."""

    kind: str
    player: str = ""
    """The affected player: the one dealt damage or the controller of the object, who rolls, draws,
    gains or loses life; the one who orders several replacement effects (616.1)."""
    obj: GameObject | None = None
    """The object the event is about (destroyed, entering, dealt damage)."""
    source: GameObject | None = None
    """The source of damage."""
    target: GameObject | str | None = None
    """What is dealt damage."""
    amount: int = 0
    """Damage, dice to roll, life, cards to draw, tokens to create."""
    combat: bool = False
    sides: int = 0
    """The die's faces (a roll)."""
    extra: int = 0
    """Dice rolled and then ignored (the lowest), from "roll … plus one and ignore the lowest"."""
    regenerate: bool = True
    """A destruction a regeneration shield may replace (not "can't be regenerated")."""
    tapped: bool = False
    """A permanent enters tapped."""
    counters: dict[str, int] = field(default_factory=dict)
    """Counters a permanent enters with."""
    to_zone: str = ""
    """Where an object is put (a move): "graveyard", "exile", "hand", "library", "battlefield"."""
    position: int | None = None
    """Where in a library, from the top (None: the bottom)."""
    cause: str = ""
    """Why it moves: "discard", "mill", "destroy", "sacrifice", "dies", "effect", "cost", "resolve"."""


@dataclass(frozen=True)
class Replacement:
    """One replacement or prevention effect that applies to a proposed event."""

    name: str
    """What it is, for the log and for the player who orders several ("Pixie Guide")."""
    key: object
    """Its identity: each effect applies to one event once (616.1f)."""
    apply: Callable[[Proposed], Proposed]
    self_replacement: bool = False
    """An effect of the object the event is about, on itself: applied first (614.15)."""
    commutes: bool = True
    """Applying it before or after the others gives the same result (counters and extra dice add up,
    prevention reduces): the player is not asked to order it."""
    optional: str = ""
    """A question for an effect the affected player may apply ("you may instead", dredge): they
    answer it yes or no when it would apply; declined, it does not apply to this event."""


Provider = Callable[[Game, Proposed], list[Replacement]]
"""The replacement effects of one kind of rule that apply to a proposed event now."""

