"""Executing parsed abilities: one handler per phrase verb, and the noun phrases resolved to the
objects and players they name. :func:`missing` tells, before anything happens, which parts of an
ability have no handler: an ability is executed entirely or refused."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from carddb.engine.decisions import Decider
from carddb.engine.errors import EngineError
from carddb.engine.state import Game, GameObject
from carddb.oracle.model import (
    Ability,
    Action,
    Clause,
    Conditional,
    Count,
    Kind,
    ManaCost,
    Noun,
    Number,
    ParsedFace,
    Pronoun,
    RollDie,
    SelfRef,
    Sequence,
    Unimplemented,
    Var,
    X,
    walk,
)
from carddb.oracle.phrases import find

Ref = GameObject | str
"""An object, or a player by name."""

COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_WORDS = {
    "artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
    "planeswalker": "Planeswalker", "instant": "Instant", "sorcery": "Sorcery", "battle": "Battle",
}  # fmt: skip
_ANY_OBJECT = {"permanent", "card", "spell", "token", "source", "object"}
_PLAYERS = {"player", "opponent"}
_STATES = {"tapped", "untapped", "other", "nontoken", "attacking", "blocking"}


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
    rng: random.Random = field(default_factory=lambda: random.Random(0))


Handler = Callable[[Context, list[Ref], Action], None]
Condition = Callable[[Context, Action], bool]
HANDLERS: dict[str, Handler] = {}
CONDITIONS: dict[str, Condition] = {}
QUALIFIERS: dict[str, Callable[[Context, Ref, Action], bool]] = {}
SUPPORTED_CONDITIONALS = {"if", "unless", "where X is", "then"}
SUPPORTED_DURATIONS: frozenset[object] = frozenset({None, "until end of turn"})


def handles(*verbs: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        for verb in verbs:
            HANDLERS[verb] = function
        return function

    return register


# -- what can be executed ------------------------------------------------------------------------
EXECUTABLE_KINDS = {Kind.SPELL, Kind.ACTIVATED, Kind.MANA, Kind.TRIGGERED}
TRIGGERS = {"roll_dice"}
"""Trigger events the engine watches for."""
REPLACEMENTS = {"roll_extra_die"}
"""Replacement effects the engine applies."""


def face_missing(face: ParsedFace) -> list[str]:
    """What keeps a whole face from executing: every ability must (empty: it does)."""
    problems: list[str] = []
    for ability in face.abilities:
        for problem in missing(ability):
            if problem not in problems:
                problems.append(problem)
    return problems


def missing(ability: Ability) -> list[str]:
    """The parts of ``ability`` the engine cannot execute (empty: it executes entirely)."""
    problems: list[str] = []
    if ability.kind is Kind.KEYWORD:
        return [f"keyword {k.name.lower()}" for k in ability.keywords]
    if ability.kind is Kind.REPLACEMENT:
        verbs = {n.verb for step in ability.effects for n in walk(step) if isinstance(n, Action)}
        if not verbs & REPLACEMENTS:
            problems.append("replacement effect")
    elif ability.kind not in EXECUTABLE_KINDS:
        problems.append(f"{ability.kind.value} ability")
    if ability.modes or ability.choose:
        problems.append("modes")
    if ability.kind is Kind.TRIGGERED:
        trigger = ability.trigger
        if not (isinstance(trigger, Action) and trigger.verb in TRIGGERS):
            verb = trigger.verb if isinstance(trigger, Action) else "?"
            problems.append(f"trigger {verb!r}")
    roots: list[object] = [*ability.unparsed, *ability.effects, *ability.cost, *ability.restrictions]
    roots.extend(mode.effects for mode in ability.modes)
    for root in roots:
        for node in walk(root):
            problem = _problem(node)
            if problem and problem not in problems:
                problems.append(problem)
    return problems


def _problem(node: object) -> str | None:
    if isinstance(node, Unimplemented):
        return f"unimplemented text {node.text!r}"
    if isinstance(node, Action):
        form = find(node.verb, node.form)
        if form is None:
            return None
        tables: dict[str, dict[str, Any]] = {"pred": HANDLERS, "cond": CONDITIONS, "qualifier": QUALIFIERS}
        known = tables.get(form.family)
        if form.family == "restriction":
            from carddb.engine.game import RESTRICTIONS

            known_restriction = node.verb in RESTRICTIONS
            return None if known_restriction else f"restriction {node.verb!r}"
        if known is not None and node.verb not in known:
            return f"{form.family} {node.verb!r}"
    if isinstance(node, Conditional) and node.word not in SUPPORTED_CONDITIONALS:
        return f"{node.word!r} clause"
    if isinstance(node, Clause) and (node.duration not in SUPPORTED_DURATIONS or node.for_each is not None):
        return f"duration {node.duration!r}"
    if isinstance(node, Noun) and not _known_description(node.description):
        return f"description {node.description!r}"
    return None


def _known_description(description: str) -> bool:
    for alternative in Noun((), description).alternatives:
        for word in alternative.split():
            lowered = word.lower().rstrip("s") if word.lower() not in ("sorceries",) else "sorcery"
            if (
                lowered in _TYPE_WORDS
                or lowered in _ANY_OBJECT
                or lowered in _PLAYERS
                or lowered in COLOR_WORDS
                or lowered in _STATES
                or lowered.startswith("non")
                or word[:1].isupper()
            ):
                continue
            return False
    return True


# -- executing ----------------------------------------------------------------------------------
def execute(ctx: Context, step: object) -> None:
    """Execute one step (a sentence) of an ability."""
    if isinstance(step, Clause):
        _clause(ctx, step)
    elif isinstance(step, Sequence):
        for item in step.steps:
            execute(ctx, item)
    elif isinstance(step, Conditional):
        _conditional(ctx, step)
    elif isinstance(step, RollDie):
        _roll(ctx, step)
    elif isinstance(step, Action):
        raise EngineError(f"{step.verb!r} is not a step")
    else:
        raise EngineError(f"cannot execute {step!r}")


def _clause(ctx: Context, clause: Clause) -> None:
    subject: list[Ref] = [ctx.controller] if clause.subject is None else resolve(ctx, clause.subject)
    for predicate in clause.predicates:
        if isinstance(predicate, Clause):
            _clause(ctx, predicate)
            continue
        handler = HANDLERS.get(predicate.verb)
        if handler is None:
            raise EngineError(f"no handler for {predicate.verb!r}")
        handler(ctx, subject, predicate)


def _conditional(ctx: Context, node: Conditional) -> None:
    if node.word == "where X is":
        ctx.bindings["X"] = value(ctx, node.condition)
        execute(ctx, node.body)
    elif node.word == "then":
        execute(ctx, node.body)
    elif node.word in ("if", "unless"):
        holds = evaluate(ctx, node.condition)
        if holds == (node.word == "if"):
            execute(ctx, node.body)
    else:
        raise EngineError(f"cannot execute a {node.word!r} clause")


def evaluate(ctx: Context, condition: object) -> bool:
    if not isinstance(condition, Action) or condition.verb not in CONDITIONS:
        raise EngineError(f"cannot evaluate the condition {condition!r}")
    return CONDITIONS[condition.verb](ctx, condition)


def value(ctx: Context, quantity: object) -> int:
    """A number: digits, X (bound by the spell's X, a roll or a where-clause), a count."""
    if isinstance(quantity, Number):
        return quantity.value
    if isinstance(quantity, X):
        if "X" in ctx.bindings:
            return ctx.bindings["X"]
        if "result" in ctx.bindings:
            return ctx.bindings["result"]
        raise EngineError("X has no value here")
    if isinstance(quantity, Var):
        return ctx.bindings[quantity.name]
    if isinstance(quantity, Count) and quantity.what == "cards in your hand":
        return len(ctx.game.players[ctx.controller].zones["hand"])
    if isinstance(quantity, Action) and quantity.verb == "the_result":
        return ctx.bindings["result"]
    if isinstance(quantity, Action) and quantity.verb == "number_of":
        return len(resolve(ctx, quantity.arg("what")))
    raise EngineError(f"cannot count {quantity!r}")


def amount_of(ctx: Context, noun: object) -> int:
    """How many a noun phrase asks for: "a card" 1, "two cards" 2, "X cards" X."""
    if isinstance(noun, Noun):
        amount = noun.amount
        if amount is not None:
            return value(ctx, amount)
    return 1


# -- dice ---------------------------------------------------------------------------------------
def roll_dice(ctx: Context, sides: int, count: int, *, keep_lower: bool = False) -> int:
    """Roll ``count`` dN for the controller: extra dice from replacement effects (Pixie Guide,
    Barbarian Class) are rolled and the lowest ignored, as if never rolled. Returns the natural
    result that counts (the highest when several are kept as one)."""
    extra = sum(
        1
        for obj in ctx.game.permanents(ctx.controller)
        for ability in obj.card.abilities
        if any(isinstance(n, Action) and n.verb == "roll_extra_die" for e in ability.effects for n in walk(e))
    )
    rolls = [ctx.decider.roll(sides, f"d{sides} for {ctx.source.name}") for _ in range(count + extra)]
    kept = sorted(rolls, reverse=True)[:count]
    ctx.game.log.append(f"{ctx.controller} rolls {rolls} (keeps {kept})")
    from carddb.engine.game import after_roll

    after_roll(ctx.game, ctx.controller, len(kept))
    return max(kept) if not keep_lower else min(kept)


def _roll(ctx: Context, roll: RollDie) -> None:
    natural = roll_dice(ctx, roll.sides, roll.count)
    result = natural + (value(ctx, roll.modifier) if roll.modifier is not None else 0)
    ctx.bindings["natural"] = natural
    ctx.bindings[roll.bind] = result
    for row in roll.table:
        high = row.high if row.high is not None else (10**9 if row.open_ended else row.low)
        if row.open_ended:
            high = 10**9
        if row.low <= result <= high:
            outer = ctx.bindings.get("X")
            ctx.bindings["X"] = result  # in a results table, X is the result
            for step in row.effects:
                execute(ctx, step)
            if outer is None:
                del ctx.bindings["X"]
            else:
                ctx.bindings["X"] = outer
            break


# -- noun phrases -------------------------------------------------------------------------------
def resolve(ctx: Context, phrase: object) -> list[Ref]:
    """The objects or players a noun phrase names, as the ability resolves."""
    if isinstance(phrase, SelfRef):
        found: list[Ref] = [ctx.source]
    elif isinstance(phrase, Pronoun):
        found = _pronoun(ctx, phrase.word)
    elif isinstance(phrase, Noun) and id(phrase) in ctx.slots:
        found = list(ctx.slots[id(phrase)])
    elif isinstance(phrase, Noun):
        found = _described(ctx, phrase)
    else:
        raise EngineError(f"cannot resolve {phrase!r}")
    if not (isinstance(phrase, Pronoun) and phrase.word == "you"):
        ctx.it = found
    return found


def _pronoun(ctx: Context, word: str) -> list[Ref]:
    if word == "you":
        return [ctx.controller]
    if word in ("it", "them", "they", "itself", "each of them"):
        return list(ctx.it)
    if word in ("its controller", "its owner"):
        objects = [ref for ref in ctx.it if isinstance(ref, GameObject)]
        return [obj.controller if word == "its controller" else obj.owner for obj in objects[:1]]
    raise EngineError(f"cannot resolve the pronoun {word!r}")


def _described(ctx: Context, noun: Noun) -> list[Ref]:
    words = {w.lower().rstrip("s") for w in noun.description.split()}
    if words & _PLAYERS:
        players = list(ctx.game.players)
        if "opponent" in words:
            players = ctx.game.opponents(ctx.controller)
        return [p for p in players if all(_qualifies(ctx, p, q) for q in noun.qualifiers)]
    return [obj for obj in ctx.game.permanents() if matches(ctx, obj, noun)]


def matches(ctx: Context, ref: Ref, noun: Noun) -> bool:
    """Whether ``ref`` is what ``noun`` describes (its types, colours, states and qualifiers)."""
    if isinstance(ref, str):
        words = {w.lower().rstrip("s") for w in noun.description.split()}
        if "opponent" in words:
            return ref != ctx.controller
        return bool(words & _PLAYERS)
    if not any(_is(ctx, ref, alternative) for alternative in noun.alternatives):
        return False
    return all(_qualifies(ctx, ref, qualifier) for qualifier in noun.qualifiers)


def _is(ctx: Context, obj: GameObject, alternative: str) -> bool:
    for word in alternative.split():
        lowered = word.lower()
        singular = "sorcery" if lowered == "sorceries" else lowered.rstrip("s")
        if singular in _TYPE_WORDS:
            if _TYPE_WORDS[singular] not in obj.card.types:
                return False
        elif singular.startswith("non") and singular[3:].lstrip("-") in _TYPE_WORDS:
            if _TYPE_WORDS[singular[3:].lstrip("-")] in obj.card.types:
                return False
        elif (
            (singular == "tapped" and not obj.tapped)
            or (singular == "untapped" and obj.tapped)
            or (singular == "other" and obj is ctx.source)
            or (singular == "token" and not obj.token)
        ):
            return False
        elif singular in COLOR_WORDS:
            if "{" + COLOR_WORDS[singular] not in obj.card.mana_cost:
                return False
        elif (
            word[:1].isupper() and word.rstrip("s") not in obj.card.subtypes and word not in obj.card.subtypes
        ):
            return False
    return True


def _qualifies(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    check = QUALIFIERS.get(qualifier.verb)
    if check is None:
        raise EngineError(f"cannot check the qualifier {qualifier.verb!r}")
    return check(ctx, ref, qualifier)


def _controller(ref: Ref) -> str:
    return ref.controller if isinstance(ref, GameObject) else ref


QUALIFIERS["you_control"] = lambda ctx, ref, q: (_controller(ref) == ctx.controller) == (q.form in (0, 2, 3))
QUALIFIERS["opponent_controls"] = lambda ctx, ref, q: (
    _controller(ref) != ctx.controller if q.form in (0, 1) else True
)


def objects(refs: list[Ref]) -> Iterator[GameObject]:
    return (ref for ref in refs if isinstance(ref, GameObject))


def players(ctx: Context, refs: list[Ref]) -> Iterator[str]:
    for ref in refs:
        yield ref if isinstance(ref, str) else ref.controller


def mana_symbols(action: Action) -> list[str]:
    return [symbol for _, v in action.args if isinstance(v, ManaCost) for symbol in v.symbols]
