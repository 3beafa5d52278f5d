"""Static abilities: which of them apply now (:func:`static_clauses`, :func:`applying_clauses`:
"as long as" conditions), and those that change how a permanent enters the battlefield (tapped,
with counters) as replacement effects (:func:`entering`, :func:`on_enter`). The effects of static
abilities on characteristics are :mod:`carddb.engine.rules.layers`'."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import TypeVar

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.executable import missing
from carddb.engine.query.nouns import candidates_for, counter_kind, kind_among, matches, resolve, value
from carddb.engine.query.replacing import would_condition
from carddb.engine.rules import sagas
from carddb.engine.rules.conditions import evaluate
from carddb.engine.rules.replacement import replace
from carddb.oracle.model import Ability, Action, Clause, Conditional, Kind, Noun, Pronoun, SelfRef

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
            if ability.kind not in kinds or missing(ability, game.catalog):
                continue
            ctx = Context(game, NO_DECISIONS, source.controller, source)
            for _, clause in applying_clauses(ctx, ability):
                yield source, ctx, clause


def is_applied_static(game: Game, ability: Ability) -> bool:
    """A static ability the engine applies: every part of it is in the catalog."""
    return ability.kind is Kind.STATIC and not missing(ability, game.catalog)


def applying_clauses(ctx: Context, ability: Ability) -> list[tuple[int, Clause]]:
    """The ability's clauses that apply now (an "as long as" condition holds), numbered by sentence."""
    found: list[tuple[int, Clause]] = []
    for number, step in enumerate(ability.effects):
        if isinstance(step, Conditional) and step.word == "where X is":  # counted whenever it applies
            ctx.bindings["X"] = value(ctx, step.condition)
            step = step.body
        if isinstance(step, Conditional):
            condition = step.condition
            if not isinstance(condition, Action) or condition.verb not in ctx.game.catalog.conditions:
                continue
            if would_condition(condition):  # "If ~ would die, …": an event a replacement watches for
                continue
            what = condition.arg("what")  # "as long as enchanted creature is a Human, it has…"
            if isinstance(what, Noun) and not what.targeted and kind_among(what) is None:
                ctx.it = [obj for obj in ctx.game.permanents() if matches(ctx, obj, what)]
            elif isinstance(what, SelfRef):  # "If ~ was kicked, it enters …": "it" is ~
                ctx.it = [ctx.source]
            holds = evaluate(ctx, condition)
            if holds == (step.word == "unless") or not isinstance(step.body, Clause):
                continue  # "as long as"/"if": while it holds; "unless": while it does not
            step = step.body
        if isinstance(step, Clause):
            found.append((number, step))
    return found


def on_enter(game: Game, entering: GameObject, decider: Decider | None = None) -> None:
    """``entering`` has just entered the battlefield: the replacement effects on how it enters
    (its own "~ enters the battlefield tapped", another's "Creatures your opponents control enter
    the battlefield tapped", "… enters with N +1/+1 counters") apply before anything else sees it."""
    proposed = replace(game, Proposed("enter", entering.controller, obj=entering), decider)
    entering.tapped = entering.tapped or proposed.tapped
    for kind, count in proposed.counters.items():
        entering.counters[kind] = entering.counters.get(kind, 0) + count
    sagas.entered(game, entering)  # 714.3a: with a lore counter


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
        elif isinstance(subject, Pronoun):
            if not any(ref is obj for ref in resolve(ctx, subject)):
                continue
        elif not (isinstance(subject, Noun) and matches(ctx, obj, subject)):
            continue
        for index, predicate in enumerate(clause.predicates):
            if not isinstance(predicate, Action) or predicate.verb not in ENTERING:
                continue
            key = ("enters", source.id, id(clause), index)
            how = _enters_tapped if predicate.verb == "enters_tapped" else _enters_with
            apply = partial(how, ctx, predicate, clause.for_each)
            found.append(Replacement(f"{source.name}: {obj.name} enters", key, apply, source is obj))
    return found


def _enters_tapped(ctx: Context, predicate: Action, each: object, event: Proposed) -> Proposed:
    event.tapped = True
    return event


def _enters_with(ctx: Context, predicate: Action, each: object, event: Proposed) -> Proposed:
    """ "… enters the battlefield with N counters on it [for each …]" (counted as it enters)."""
    spec = predicate.arg("counters")
    obj = event.obj
    if obj is ctx.source and obj is not None and "X" not in ctx.bindings:  # 107.3m: its own "with X
        ctx.bindings["X"] = obj.cast_x or 0  # counters" is the spell's X (0 when not cast with one)
    if isinstance(spec, Action):
        kind, amount = counter_kind(spec.arg("kind")), value(ctx, spec.arg("amount"))
    else:  # "… enters the battlefield with an additional +1/+1 counter on it": one counter
        kind, amount = counter_kind(predicate.arg("counter")), 1
    times = 1
    if isinstance(each, Noun):  # "for each other creature you control"
        times = sum(1 for obj in candidates_for(ctx, each) if matches(ctx, obj, each))
    event.counters[kind] = event.counters.get(kind, 0) + amount * times
    return event


SECTION = Section("rules.continuous", static_verbs=ENTERING, replacement_effects=(entering,))
