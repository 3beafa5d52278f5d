"""Static abilities: continuous effects kept current on the objects they affect.

:func:`refresh` recomputes, from every static ability of every permanent, the power/toughness
changes and keywords they give (``GameObject.static_pt``, ``static_keywords``): the engine calls it
after every step of an ability and after every action, so characteristics read at any time include
them. :func:`on_enter` applies the static abilities that change how a permanent enters the
battlefield (tapped, with counters)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import TypeVar

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.executable import missing
from carddb.engine.query.nouns import candidates_for, counter_kind, matches, objects, resolve, value
from carddb.engine.rules.conditions import evaluate
from carddb.engine.rules.replacement import replace
from carddb.oracle.model import Ability, Action, Clause, Conditional, Kind, Noun, SelfRef

LAYERED = frozenset({"gets", "has", "gets_for_each", "is_indestructible", "has_ability"})
ENTERING = frozenset({"enters_tapped", "enters_with_counters"})
ENTERING_KINDS = frozenset({Kind.STATIC, Kind.REPLACEMENT})
"""How a permanent enters is a replacement ability (614.1c–d), applied as its clauses say."""


T = TypeVar("T")


class NoDecisions:
    """The decider of continuous effects and combat rules: they make no choices."""

    def roll(self, sides: int, why: str) -> int:
        raise EngineError(f"a static ability cannot roll a die ({why})")

    def choose(self, question: str, options: Sequence[str]) -> str:
        raise EngineError(f"a static ability cannot choose ({question})")

    def shuffle(self, items: list[T]) -> list[T]:
        raise EngineError("a static ability cannot shuffle")


NO_DECISIONS = NoDecisions()


def static_clauses(
    game: Game, kinds: frozenset[Kind] = frozenset({Kind.STATIC})
) -> Iterator[tuple[GameObject, Context, Clause]]:
    """Each clause of each executable static ability on the battlefield (of the ``kinds`` given:
    the replacement abilities that say how a permanent enters too), with its source and a context
    for resolving it."""
    for source in game.permanents():
        for _, ability in active_abilities(source):
            if ability.kind not in kinds or not _applies(game, ability):
                continue
            ctx = Context(game, NO_DECISIONS, source.controller, source)
            for clause in _clauses(ctx, ability):
                yield source, ctx, clause


def _applies(game: Game, ability: Ability) -> bool:
    return not missing(ability, game.catalog)


def _clauses(ctx: Context, ability: Ability) -> list[Clause]:
    """The ability's clauses that apply now (an "as long as" condition holds)."""
    found: list[Clause] = []
    for step in ability.effects:
        if isinstance(step, Conditional):
            condition = step.condition
            if not isinstance(condition, Action) or condition.verb not in ctx.game.catalog.conditions:
                continue
            what = condition.arg("what")  # "as long as enchanted creature is a Human, it has…"
            if isinstance(what, Noun) and not what.targeted:
                ctx.it = [obj for obj in ctx.game.permanents() if matches(ctx, obj, what)]
            if not evaluate(ctx, condition) or not isinstance(step.body, Clause):
                continue
            step = step.body
        if isinstance(step, Clause):
            found.append(step)
    return found


def refresh(game: Game) -> None:
    """Recompute every continuous effect of every static ability on the battlefield."""
    pt: dict[int, list[tuple[int, int]]] = {}
    keywords: dict[int, list[str]] = {}
    granted: dict[int, list[Ability]] = {}
    for _source, ctx, clause in static_clauses(game):
        if clause.subject is None:
            continue
        affected = list(objects(resolve(ctx, clause.subject)))
        for predicate in clause.predicates:
            if not isinstance(predicate, Action) or predicate.verb not in LAYERED:
                continue
            for obj in affected:
                if obj.zone != "battlefield":
                    continue
                if predicate.verb == "gets":
                    pt.setdefault(obj.id, []).append(_pt(str(predicate.arg("pt"))))
                elif predicate.verb == "gets_for_each":
                    count = _for_each(ctx, predicate)
                    power, toughness = _pt(str(predicate.arg("pt")))
                    pt.setdefault(obj.id, []).append((power * count, toughness * count))
                elif predicate.verb == "has":
                    keywords.setdefault(obj.id, []).append(str(predicate.arg("keywords")))
                elif predicate.verb == "is_indestructible":
                    keywords.setdefault(obj.id, []).append("indestructible")
                elif predicate.verb == "has_ability" and isinstance(predicate.arg("ability"), Ability):
                    ability = predicate.arg("ability")
                    assert isinstance(ability, Ability)
                    granted.setdefault(obj.id, []).append(ability)
    for obj in game.objects.values():
        new_pt, new_keywords = pt.get(obj.id, []), keywords.get(obj.id, [])
        if obj.static_pt != new_pt:
            obj.static_pt = new_pt
        if obj.static_keywords != new_keywords:
            obj.static_keywords = new_keywords
        new_granted = granted.get(obj.id, [])
        if obj.granted != new_granted:
            obj.granted = new_granted


def _for_each(ctx: Context, predicate: Action) -> int:
    what = predicate.arg("what")
    if is_form(predicate, "gets", "get"):
        assert isinstance(what, Noun | SelfRef)
        if isinstance(what, Noun):
            return sum(1 for obj in candidates_for(ctx, what) if matches(ctx, obj, what))
        return len(resolve(ctx, what))
    spec = predicate.arg("counter")
    kind = counter_kind(spec)
    return sum(obj.counters.get(kind, 0) for obj in objects(resolve(ctx, what)))


def _pt(text: str) -> tuple[int, int]:
    power, toughness = text.split("/")
    return int(power), int(toughness)


def on_enter(game: Game, entering: GameObject, decider: Decider | None = None) -> None:
    """``entering`` has just entered the battlefield: the replacement effects on how it enters
    (its own "~ enters the battlefield tapped", another's "Creatures your opponents control enter
    the battlefield tapped", "… enters with N +1/+1 counters") apply before anything else sees it."""
    proposed = replace(game, Proposed("enter", entering.controller, obj=entering), decider)
    entering.tapped = entering.tapped or proposed.tapped
    for kind, count in proposed.counters.items():
        entering.counters[kind] = entering.counters.get(kind, 0) + count


def entering(game: Game, event: Proposed) -> list[Replacement]:
    """The static abilities that say how a permanent enters: each is a replacement effect of the
    event (614.1c, 614.12), the entering permanent's own first (614.15)."""
    obj = event.obj
    if event.kind != "enter" or obj is None:
        return []
    found: list[Replacement] = []
    for source, ctx, clause in static_clauses(game, ENTERING_KINDS):
        subject = clause.subject
        if isinstance(subject, SelfRef):
            if source is not obj:
                continue
        elif not (isinstance(subject, Noun) and matches(ctx, obj, subject)):
            continue
        for index, predicate in enumerate(clause.predicates):
            if not isinstance(predicate, Action) or predicate.verb not in ENTERING:
                continue
            key = ("enters", source.id, id(clause), index)
            how = _enters_tapped if predicate.verb == "enters_tapped" else _enters_with
            apply = partial(how, ctx, predicate)
            found.append(Replacement(f"{source.name}: {obj.name} enters", key, apply, source is obj))
    return found


def _enters_tapped(ctx: Context, predicate: Action, event: Proposed) -> Proposed:
    event.tapped = True
    return event


def _enters_with(ctx: Context, predicate: Action, event: Proposed) -> Proposed:
    spec = predicate.arg("counters")
    assert isinstance(spec, Action)
    kind = counter_kind(spec.arg("kind"))
    event.counters[kind] = event.counters.get(kind, 0) + value(ctx, spec.arg("amount"))
    return event


SECTION = Section("rules.continuous", static_verbs=LAYERED | ENTERING, replacement_effects=(entering,))
