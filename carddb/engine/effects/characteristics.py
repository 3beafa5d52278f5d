"""Resolving spells and abilities that change characteristics (613): "gets +2/+2", "gains
flying", "gains "{T}: …"", "loses all abilities", "has base power and toughness 1/1", "becomes a
0/1 Frog", "becomes blue", "switch its power and toughness", each until end of turn or for as long
as the object stays (:func:`carddb.engine.rules.layers.apply_resolved`), and "It's still a land."
after a "becomes" (205.1b)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.state import GameObject
from carddb.engine.effects.common import possessor
from carddb.engine.query.nouns import objects
from carddb.engine.rules.layers import apply_resolved, still
from carddb.oracle.model import Action


def changes(ctx: Context, subject: list[Ref], action: Action) -> None:
    """The phrase's changes on the objects of its clause's subject (or "its"/"~'s" for switch)."""
    affected: list[GameObject] = list(objects(subject))
    if action.verb == "switch_pt":
        owner = possessor(ctx, subject, str(action.arg("whose")), action)
        affected = [owner] if owner is not None else []
    made = apply_resolved(ctx, affected, action)
    ctx.last_effects = [(obj, made) for obj in affected]


def still_lands(ctx: Context, subject: list[Ref], action: Action) -> None:
    """"It's still a land.": the types the sentence before set are added to its old ones."""
    for obj, made in ctx.last_effects:
        still(obj, made)


SECTION = Section(
    "effects.characteristics",
    verbs={
        "gets": changes,
        "gets_each": changes,
        "gains": changes,
        "has_ability": changes,
        "loses": changes,
        "has_base_pt": changes,
        "is_a_creature": changes,
        "becomes": changes,
        "switch_pt": changes,
        "still_lands": still_lands,
    },
)
