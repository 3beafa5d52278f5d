"""The one walk over an ability's parse tree in the order its text names things: what is missing
(``query.executable``: "that player" needs a player named before it) and target finding
(``rules.targets``: targets in text order) both read :func:`children`."""

from __future__ import annotations

from carddb.oracle.model import Action, Clause, Conditional, Noun, RollDie, SelfRef, Sequence, TableRow


def children(node: object) -> tuple[object, ...]:
    """The nodes below ``node`` in the order the text names them (a condition written after its
    body, "… unless they pay {1}", "where X is …", after it)."""
    if isinstance(node, tuple | list):
        return tuple(node)
    if isinstance(node, Clause):
        return (node.subject, *node.predicates, node.for_each)
    if isinstance(node, SelfRef | Noun):
        return node.qualifiers
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
