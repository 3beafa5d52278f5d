"""Sagas (714): lore counters and chapter abilities.

- 714.3a: as a Saga enters the battlefield, its controller puts a lore counter on it;
- 714.3b: as their precombat main phase begins, the active player puts a lore counter on each Saga
  they control (a turn-based action, no stack);
- 714.2b: a chapter ability triggers when lore counters put on its Saga bring their number from
  fewer than the chapter number to at least it (several at once: each of them);
- 714.4: a Saga whose lore counters are at least its final chapter number, and that is the
  source of no chapter ability waiting or on the stack, is sacrificed (a state-based action)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.state import Event, Game, GameObject, StackItem
from carddb.engine.query.abilities import active_abilities
from carddb.engine.rules.zones import put
from carddb.oracle.model import Kind

LORE = "lore"


def is_saga(obj: GameObject) -> bool:
    return "Saga" in obj.card.subtypes


def add_lore(game: Game, obj: GameObject, count: int = 1) -> None:
    """Put ``count`` lore counters on ``obj`` (its chapter abilities see the change)."""
    before = obj.counters.get(LORE, 0)
    obj.counters[LORE] = before + count
    lore_added(game, obj, before)


def lore_added(game: Game, obj: GameObject, before: int) -> None:
    """Lore counters were put on ``obj``, which had ``before``: its chapters may trigger."""
    after = obj.counters.get(LORE, 0)
    if after > before:
        game.events.append(Event("lore", obj, amount=after, before=before, player=obj.controller))


def entered(game: Game, obj: GameObject) -> None:
    """714.3a: a Saga enters with a lore counter (put on it as it enters: chapter I triggers)."""
    if is_saga(obj):
        add_lore(game, obj)


def precombat_main(game: Game) -> None:
    """714.3b: the active player puts a lore counter on each Saga they control."""
    for obj in game.permanents(game.active):
        if is_saga(obj):
            add_lore(game, obj)


def _chapters(game: Game, event: Event) -> list[StackItem]:
    """714.2b: the chapter abilities whose number the lore counters have just reached."""
    obj = event.obj
    if event.kind != "lore" or obj is None or obj.zone != "battlefield":
        return []
    return [
        StackItem(obj.id, obj.controller, index, [], event=event)
        for index, ability in active_abilities(obj)
        if ability.kind is Kind.CHAPTER and any(event.before < n <= event.amount for n in ability.chapters)
    ]


def final_chapter(obj: GameObject) -> int:
    """714.2d: the greatest chapter number among its chapter abilities (0: none)."""
    return max((n for _, a in active_abilities(obj) if a.kind is Kind.CHAPTER for n in a.chapters), default=0)


def check(game: Game) -> bool:
    """714.4: each Saga at or past its final chapter, with no chapter ability of it waiting or on
    the stack, is sacrificed; True if any was."""
    waiting = {
        item.source
        for item in (*game.stack, *game.pending)
        if item.event is not None and item.event.kind == "lore"
    }
    acted = False
    for obj in [o for o in game.permanents() if is_saga(o)]:
        final = final_chapter(obj)
        if obj.counters.get(LORE, 0) >= final and obj.id not in waiting:
            game.log.append(f"{obj.name} is sacrificed: its final chapter has been reached (714.4)")
            put(game, obj, "graveyard", cause="sacrifice")
            acted = True
    return acted


SECTION = Section("rules.sagas", rule_triggers=(_chapters,), ability_kinds=frozenset({Kind.CHAPTER.value}))
"""Chapter abilities (714.2) are executed: they trigger by the rule of lore counters."""
