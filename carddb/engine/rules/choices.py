"""Choices made as a permanent enters and the abilities that read them (607.2d, 614.12): "As ~
enters the battlefield, choose a creature type." — its controller chooses as it enters, before
anything sees it (:func:`choose_as_entering`, called where the entering replacements apply), and
the permanent remembers the choice (``GameObject.chosen``, forgotten when it leaves: a new object,
400.7). "Creatures of the chosen type", "a creature card of the chosen type", "spells of the
chosen type" read its source's choice (the ``of_the_chosen_type`` qualifier; an "of …" the tables
read as ``ability_of`` is refused by the catalog). A permanent with such an ability that never entered (one
a scenario sets up on the battlefield) has chosen nothing, and nothing is of the chosen type."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.choices import CHOICES, CREATURE_TYPE, entering_choice
from carddb.oracle.model import Action


def choose_as_entering(game: Game, obj: GameObject, decider: Decider) -> None:
    """``obj`` has just entered the battlefield: its controller makes each "As ~ enters, choose …"
    choice of its abilities."""
    for ability in obj.card.abilities:
        what = entering_choice(ability)
        if what is None:
            continue
        answer = decider.choose(f"{obj.controller}: choose a {what} for {obj.name}", list(CHOICES[what]))
        obj.chosen = (*obj.chosen, (what, answer))
        game.log.append(f"{obj.controller} chooses {answer} for {obj.name}")


def chosen(obj: GameObject, what: str) -> str | None:
    """What ``obj`` chose as it entered (the last choice of that kind), if anything."""
    return next((answer for kind, answer in reversed(obj.chosen) if kind == what), None)


def _of_the_chosen_type(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "Creatures of the chosen type": the creature type the ability's source chose."""
    kind = chosen(ctx.source, CREATURE_TYPE)
    if not isinstance(ref, GameObject) or kind is None:
        return False
    return kind in ref.subtypes or ref.now.every_creature_type


SECTION = Section(
    "rules.choices",
    qualifiers={"of_the_chosen_type": _of_the_chosen_type},
)
