"""Prevention effects (615) as replacement effects on damage: the prevention shields that resolving
abilities create ("Prevent the next 3 damage …", "Prevent all combat damage … this turn",
``Game.shields``) and protection (702.16e: damage from a source it has protection from is
prevented). :func:`prevention` gives :func:`carddb.engine.rules.replacement.replace` those that
apply to a proposed damage event."""

from __future__ import annotations

from functools import partial

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject, Shield
from carddb.engine.query.nouns import matches, resolve
from carddb.engine.rules.continuous import static_clauses
from carddb.engine.rules.protection import protected_from
from carddb.oracle.model import Action, Noun, SelfRef
from carddb.oracle.phrases import find


def prevention(game: Game, event: Proposed) -> list[Replacement]:
    if event.kind != "damage" or event.amount <= 0 or event.source is None:
        return []
    source, target = event.source, event.target
    found: list[Replacement] = []
    if isinstance(target, GameObject) and protected_from(target, source):
        found.append(Replacement(f"protection of {target.name}", ("protection", target.id), _prevent_all))
    key = target.id if isinstance(target, GameObject) else target
    for shield in game.shields:
        if shield.combat_only and not event.combat:
            continue
        if (shield.to is not None and shield.to != key) or (shield.by is not None and shield.by != source.id):
            continue
        if shield.by_timestamp is not None and shield.by_timestamp != source.timestamp:
            continue  # a new object (400.7), not the source chosen
        found.append(Replacement("a prevention shield", ("shield", id(shield)), partial(_use, game, shield)))
    return found


def static_prevention(game: Game, event: Proposed) -> list[Replacement]:
    """Static abilities that prevent damage ("Prevent all damage that would be dealt to ~ by
    artifact sources.", "Prevent all combat damage that would be dealt to creatures.")."""
    if event.kind != "damage" or event.amount <= 0 or event.source is None or event.target is None:
        return []
    found: list[Replacement] = []
    for source, ctx, clause in static_clauses(game):
        for predicate in clause.predicates:
            if not isinstance(predicate, Action) or predicate.verb != "prevent_all_damage":
                continue
            if "combat damage" in _text(predicate) and not event.combat:
                continue
            if _applies(ctx, predicate, event.target, event.source):
                key = ("static prevention", source.id, id(predicate))
                found.append(Replacement(f"{source.name}'s prevention", key, _prevent_all))
    return found


def _text(action: Action) -> str:
    written = find(action.verb, action.form)
    return written.text if written is not None else ""


def _applies(ctx: Context, predicate: Action, target: GameObject | str, source: GameObject) -> bool:
    both = predicate.arg("what")
    if both is not None:  # "dealt to and dealt by ~"
        return _names(ctx, both, target) or _names(ctx, both, source)
    to, by = predicate.arg("to"), predicate.arg("by")
    return (to is None or _names(ctx, to, target)) and (by is None or _names(ctx, by, source))


def _names(ctx: Context, phrase: object, ref: GameObject | str) -> bool:
    if isinstance(phrase, SelfRef):
        return ref is ctx.itself
    if isinstance(phrase, Noun) and not phrase.targeted:
        return matches(ctx, ref, phrase)
    return any(found is ref for found in resolve(ctx, phrase))


def _prevent_all(event: Proposed) -> Proposed:
    event.amount = 0
    event.kind = "replaced"
    return event


def _use(game: Game, shield: Shield, event: Proposed) -> Proposed:
    """The shield prevents all of the damage, or as much of it as it has left; one that prevents
    the next time only is gone once it has."""
    if shield.once:
        game.shields.remove(shield)
    if shield.amount is None:
        return _prevent_all(event)
    prevented = min(shield.amount, event.amount)
    event.amount -= prevented
    shield.amount -= prevented
    if shield.amount == 0:
        game.shields.remove(shield)
    return event


SECTION = Section(
    "rules.prevention",
    replacement_effects=(prevention, static_prevention),
    static_verbs=frozenset({"prevent_all_damage"}),
)
