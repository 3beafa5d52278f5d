"""The one walk over an ability's parse tree in the order its text names things: what is missing
(``query.executable``: "that player" needs a player named before it) and target finding
(``rules.targets``: targets in text order) both read :func:`children`."""

from __future__ import annotations

from carddb.engine.query.replacing import would_condition
from carddb.oracle.model import (
    Action,
    Clause,
    Conditional,
    Noun,
    Nouns,
    RollDie,
    SelfRef,
    Sequence,
    TableRow,
    walk,
)


def children(node: object) -> tuple[object, ...]:
    """The nodes below ``node`` in the order the text names them (a condition written after its
    body, "… unless they pay {1}", "where X is …", after it)."""
    if isinstance(node, tuple | list):
        return tuple(node)
    if isinstance(node, Clause):
        return (node.subject, *node.predicates, node.for_each)
    if isinstance(node, SelfRef | Noun):
        return node.qualifiers
    if isinstance(node, Nouns):  # "target creature and target land": each in turn
        return (*node.items, *node.qualifiers)
    if isinstance(node, Sequence):
        return node.steps
    if isinstance(node, Conditional):
        late = node.after or node.word == "where X is"
        return (node.body, node.condition) if late else (node.condition, node.body)
    if isinstance(node, RollDie):
        return node.table
    if isinstance(node, TableRow):
        return node.effects
    if isinstance(node, Action):
        return tuple(value for _, value in node.args)
    return ()


def instead_of(step: object, following: object) -> Action | None:
    """The action of "If [condition], [it does this] instead." (or "… instead if [condition]")
    after a step of one clause with one predicate: what that step does instead when the condition
    holds (608.2c). None when ``following`` is not such a sentence, or names a target of its own
    (which would have to be chosen as the spell is cast, whether or not the condition holds)."""
    if not (
        isinstance(step, Clause)
        and len(step.predicates) == 1
        and isinstance(step.predicates[0], Action)
        and isinstance(following, Conditional)
        and following.word == "if"
        and isinstance(following.body, Clause)
        and len(following.body.predicates) == 1
    ):
        return None
    if would_condition(following.condition):  # "If that creature would die this turn, exile it
        return None  # instead.": a replacement effect (614.1a), not another way to do the step
    sentence = following.body.predicates[0]
    if not (isinstance(sentence, Action) and sentence.verb == "instead" and sentence.form in (0, 3)):
        return None
    action = sentence.arg("action")
    if not isinstance(action, Action):
        return None
    if any(isinstance(node, Noun) and node.targeted for node in walk(action)):
        return None
    return action
