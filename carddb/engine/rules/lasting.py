"""Replacement effects that resolving spells and abilities create (614.1, 614.1a): "If that
creature would die this turn, exile it instead." (Lava Coil), "If a creature dealt damage this way
would die this turn, exile it instead." (Anger of the Gods), "If a creature would die this turn,
exile it instead." (Flaying Tendrils). The sentence is a step: as it resolves it creates a
:class:`~carddb.engine.core.state.Lasting` effect (``Game.lasting``), which the replacement system
consults on every move (:func:`lasting_replacements`) and which ends at cleanup (514.2).

What the effect applies to is fixed as it is created when the sentence names particular objects
("that creature", "the creature an opponent controls", "a creature dealt damage this way": each
as the object it is then, 400.7, so a creature that left and came back is a new object it does not
apply to); a noun phrase with no such reference ("a creature") describes what it applies to
whenever an event would happen."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.errors import EngineError
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject, Lasting
from carddb.engine.query.nouns import candidates_for, matches, objects, resolve
from carddb.engine.query.replacing import DIES_THIS_TURN
from carddb.engine.rules.continuous import NO_DECISIONS
from carddb.oracle.model import Action, Noun, Pronoun

NAMING_DETERMINERS = frozenset({"that", "those", "the"})
"""Determiners of a noun phrase that names objects spoken of before ("that creature")."""


def names_particular_objects(what: object) -> bool:
    """ "that creature", "it", "a creature dealt damage this way": particular objects, fixed as
    the effect is created (else a description read whenever an event would happen)."""
    if isinstance(what, Pronoun):
        return True
    if not isinstance(what, Noun):
        return False
    return bool(NAMING_DETERMINERS & set(what.determiners)) or any(
        isinstance(q, Action) and q.verb.endswith("this_way") for q in what.qualifiers
    )


def dies_instead(ctx: Context, what: object) -> None:
    """ "If [what] would die this turn, exile it instead.": create the effect."""
    game = ctx.game
    fixed: tuple[tuple[int, int], ...] | None = None
    if names_particular_objects(what):
        if isinstance(what, Noun) and not NAMING_DETERMINERS & set(what.determiners):
            named = [obj for obj in candidates_for(ctx, what) if matches(ctx, obj, what)]
        else:
            named = list(objects(resolve(ctx, what)))
        fixed = tuple((obj.id, obj.timestamp) for obj in named if obj.zone == "battlefield")
    described = None if fixed is not None else what
    effect = Lasting(game.timestamp(), "dies", ctx.controller, ctx.source.id, fixed, described)
    game.lasting.append(effect)
    game.log.append(f"{ctx.source.name}: if it would die this turn, it is exiled instead")


def applies_to(game: Game, effect: Lasting, obj: GameObject) -> bool:
    if effect.objects is not None:
        return (obj.id, obj.timestamp) in effect.objects
    source = game.objects.get(effect.source)
    if source is None or not isinstance(effect.what, Noun):
        return False
    return matches(Context(game, NO_DECISIONS, effect.controller, source), obj, effect.what)


def lasting_replacements(game: Game, event: Proposed) -> list[Replacement]:
    """The created effects that apply to a proposed move: a permanent that would die (put into a
    graveyard from the battlefield, 700.4) goes to exile instead."""
    obj = event.obj
    if event.kind != "move" or obj is None or obj.zone != "battlefield" or event.to_zone != "graveyard":
        return []
    found: list[Replacement] = []
    for effect in game.lasting:
        if effect.event == "dies" and applies_to(game, effect, obj):
            source = game.objects.get(effect.source)
            name = f"{source.name if source else 'an effect'}: exile {obj.name} instead"
            found.append(Replacement(name, ("lasting", effect.timestamp), _exile, commutes=False))
    return found


def _exile(event: Proposed) -> Proposed:
    event.to_zone, event.position = "exile", None
    return event


def _created_only(ctx: Context, condition: Action) -> bool:
    raise EngineError("'… would die this turn' is read as a replacement effect (rules.lasting)")


SECTION = Section(
    "rules.lasting",
    conditions={DIES_THIS_TURN: _created_only},
    replacement_effects=(lasting_replacements,),
)
