"""Becoming the target of a spell or ability (601.2c, 602.2b, 603.3d): "Whenever ~ becomes the target
of a spell or ability, …", "When enchanted creature becomes the target of a spell, …", "Whenever
you become the target of a spell, …", "… of a spell or ability an opponent controls, …".

Each object and player a spell or ability targets becomes its target once as it is put on the
stack (``rules.targets.target_events``: one "target" event each, ``Event.by`` the spell or ability, its
``player`` that spell's or ability's controller — "that player", "that spell's controller"); the
abilities it triggers wait until the spell has been cast (601.2c). What the trigger names is read
as usual (``what``); who targets it (``by``) is a spell of a description ("a spell", "an Aura
spell", "an instant or sorcery spell", "a spell an opponent controls") or "a spell or ability"
with at most who controls it: the spell's own characteristics, an ability's controller only.
"… for the first time each turn" is refused."""

from __future__ import annotations

from dataclasses import replace

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context
from carddb.engine.core.forms import written
from carddb.engine.core.state import Event, GameObject, StackItem
from carddb.engine.query.nouns import matches
from carddb.engine.rules.triggers import is_named
from carddb.oracle.model import Action, Noun

SPELL_OR_ABILITY = "spell or ability"
CONTROLLED_BY = frozenset({"you control", "an opponent controls", "your opponents control"})
"""The qualifiers of "a spell or ability" the engine reads for an ability: who controls it."""


def _by(ctx: Context, by: Noun, item: StackItem) -> bool:
    """Whether the spell or ability ``item`` is what ``by`` describes, seen under its controller."""
    source = ctx.game.objects.get(item.source)
    if source is None:
        return False
    if not item.is_spell:  # an ability: "a spell or ability [an opponent controls]"
        if by.description != SPELL_OR_ABILITY:
            return False
        by = replace(by, determiners=(), description="object")
    elif by.description == SPELL_OR_ABILITY:
        by = replace(by, description="spell")
    now = source.controller
    source.controller = item.controller
    try:
        return matches(ctx, source, by)
    finally:
        source.controller = now


def _becomes_target(ctx: Context, trigger: Action, event: Event) -> bool:
    if event.kind != "target" or event.by is None:
        return False
    targeted = event.obj if event.obj is not None else event.other
    by = trigger.arg("by")
    if not isinstance(targeted, GameObject | str) or not isinstance(by, Noun):
        return False
    return is_named(ctx, trigger.arg("what"), targeted) and _by(ctx, by, event.by)


def _check(trigger: Action, catalog: Catalog) -> str | None:
    by = trigger.arg("by")
    if "first time" in written(trigger) or not isinstance(by, Noun):
        return f"trigger 'becomes_target' {written(trigger)!r}"
    if by.description == SPELL_OR_ABILITY:
        if any(written(q) not in CONTROLLED_BY for q in by.qualifiers):
            return "a spell or ability with a qualifier"
        return None
    return None if by.description.endswith("spell") else f"becomes the target of {by.description!r}"


SECTION = Section(
    "rules.targeted", triggers={"becomes_target": (_becomes_target, None)}, checks={"becomes_target": _check}
)
"""The trigger on becoming the target of a spell or ability."""
