"""Replacement and prevention effects (614–616), in one place: every event that such an effect may
change is proposed here first (:func:`replace`) — damage, destruction, die rolls, a permanent
entering, drawing, gaining and losing life — and the effects the catalog knows
(``Catalog.replacement_effects``: prevention shields and protection, regeneration, extra dice,
"enters tapped" and "enters with counters") are applied to it: an effect of the object itself
first (614.15), then the others, the affected player choosing the order when it matters (616.1),
each effect once (616.1f). What comes out is the event that happens.

Replacement abilities the catalog does not know (madness, dredge, "If … would die, exile it
instead") are never skipped: the object that has one is refused when it comes into the game
(:func:`carddb.engine.query.executable.check_object`)."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game

MAX_REPLACEMENTS = 100
"""More effects than this applied to one event is a loop the game cannot get out of."""


class ReplacementLoopError(EngineError):
    """Replacement effects kept applying to one event (each should apply once): the game cannot
    proceed."""


def replace(game: Game, event: Proposed, decider: Decider | None = None) -> Proposed:
    """``event`` as it happens after the replacement and prevention effects that apply to it."""
    applied: set[object] = set()
    for _ in range(MAX_REPLACEMENTS):
        if event.kind == "replaced":
            return event
        found = [
            effect
            for provider in game.catalog.replacement_effects
            for effect in provider(game, event)
            if effect.key not in applied
        ]
        if not found:
            return event
        chosen = _first(event, [e for e in found if e.self_replacement] or found, decider)
        applied.add(chosen.key)
        if chosen.optional and not _accepted(chosen, decider):
            continue  # "you may … instead": declined, it does not apply to this event (616.1)
        event = chosen.apply(event)
    raise ReplacementLoopError(f"replacement effects keep applying to a {event.kind} event")


def _accepted(effect: Replacement, decider: Decider | None) -> bool:
    """The affected player's answer to an optional effect; without a decider (a rule applied in
    passing) nobody is asked and it does not apply."""
    return decider is not None and decider.choose(effect.optional, ["yes", "no"]) == "yes"


def _first(event: Proposed, candidates: list[Replacement], decider: Decider | None) -> Replacement:
    """The effect applied next: the affected player chooses among several, unless their order
    cannot change the result; without a decider (a rule applied in passing), the oldest first."""
    if len(candidates) == 1 or all(c.commutes for c in candidates) or decider is None:
        return candidates[0]
    names = [c.name for c in candidates]
    name = decider.choose(f"{event.player}: which replacement effect applies first ({event.kind})?", names)
    return candidates[names.index(name)]
