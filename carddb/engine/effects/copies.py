"""Copying a spell (707.10): "Copy target instant or sorcery spell. You may choose new targets for
the copy." (Twincast), "Whenever you cast an instant or sorcery spell, you may copy that spell."

The copy is put on the stack above what copies it, controlled and owned by the player who copies
it (707.10): a new object with the spell's copiable values and the choices made for it as it was
cast — its modes, X, targets, its kicker and buyback costs paid (707.10). It was not cast (no "cast"
event); its targets become targets (601.2c triggers, ward). A copy is a token, so off the stack it
ceases to exist (707.10a, 704.5d), and the copy of a permanent spell resolves into a token
permanent (707.10f). "You may choose new targets for the copy" (707.10c): for each target the
controller keeps it (even an illegal one) or names a new legal one. Copying "it" or "this spell"
(a spell's own "When you cast this spell" is not watched) is refused by the catalog.

Storm (702.40a) is a rule trigger of the spell as it is cast: as it resolves, the spell (if still
on the stack) is copied once for each other spell cast before it this turn, and for each copy its
controller answers whether they choose new targets."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.state import Event, Game, GameObject, StackItem
from carddb.engine.effects.common import target_objects
from carddb.engine.query.abilities import keywords_of
from carddb.engine.query.executable import joined_spell
from carddb.engine.query.nouns import candidates_for, did
from carddb.engine.rules.attachments import aura_spell
from carddb.engine.rules.targets import legal_target, target_events, target_nouns, target_text
from carddb.engine.rules.triggers import is_named
from carddb.engine.rules.ward import ward_triggers
from carddb.oracle.model import Action, Noun

COPIED = "copied"
"""What the resolving ability copied (``Context.done``): the copies "the copy" names."""
KEEP = "keep"
"""The answer that keeps a copy's target as it was (707.10c)."""


def copy_spell(ctx: Context, subject: list[Ref], action: Action) -> None:
    for original in target_objects(ctx, action):
        copy = copy_of(ctx.game, ctx.controller, original)
        if copy is not None:
            did(ctx, COPIED, copy)


def copy_of(game: Game, controller: str, original: GameObject) -> GameObject | None:
    """Put a copy of the spell ``original`` on the stack for ``controller`` (None: it is no longer
    a spell on the stack, and nothing is copied)."""
    item = next((i for i in game.stack if i.is_spell and i.source == original.id), None)
    if item is None:
        game.log.append(f"{original.name} is no longer a spell on the stack: nothing is copied")
        return None
    copy = game.create(original.card, controller, "stack", token=True)
    copy.kicked, copy.bought_back = original.kicked, original.bought_back
    targets = [list(chosen) for chosen in item.targets]
    copied = StackItem(copy.id, controller, None, targets, item.x, list(item.modes))
    game.stack.append(copied)
    game.pending.extend(ward_triggers(game, copied))
    game.events.extend(target_events(copied))
    game.events.append(Event("copy", copy, "", "stack", controller))  # "whenever you cast or copy"
    game.log.append(f"{controller} copies {original.name}")
    return copy


def choose_new_targets(ctx: Context, subject: list[Ref], action: Action) -> None:
    """707.10c: each target of the copy kept, or changed to a new legal one."""
    copies = ctx.done.get(COPIED, [])
    if not copies:
        raise EngineError("'choose new targets for the copy' with no copy made before it")
    for copy in copies:
        new_targets(ctx.game, ctx.decider, copy)


def new_targets(game: Game, decider: Decider, copy: GameObject) -> None:
    """The controller of the copy keeps each of its targets or names a new legal one (707.10c)."""
    item = next((i for i in game.stack if i.is_spell and i.source == copy.id), None)
    ability = aura_spell(copy.card) if copy.card.is_permanent else joined_spell(copy.card.abilities)
    if item is None or ability is None:
        return
    copy_ctx = Context(game, decider, item.controller, copy)
    for slot, noun in enumerate(target_nouns(ability, item.modes)):
        refs: list[Ref] = [*game.players]
        if not isinstance(noun, Action):
            refs += candidates_for(copy_ctx, noun) if isinstance(noun, Noun) else game.permanents()
        legal = [r for r in refs if legal_target(game, copy_ctx, noun, r) and not _is(r, copy)]
        names = list(dict.fromkeys(r if isinstance(r, str) else r.name for r in legal))
        question = f"{item.controller}: the copy of {copy.name}'s {target_text(noun)}"
        answer = decider.choose(question, [KEEP, *names])
        if answer != KEEP and slot < len(item.targets):
            new = next(r for r in legal if (r if isinstance(r, str) else r.name) == answer)
            item.targets[slot] = [new]
            game.events.extend(target_events(StackItem(copy.id, item.controller, None, [[new]])))


def casts_or_copies(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you cast or copy an instant or sorcery spell" (magecraft): a spell cast, or a copy
    of one put on the stack (707.10)."""
    return (
        event.kind in ("cast", "copy")
        and is_named(ctx, trigger.arg("who"), event.player)
        and is_named(ctx, trigger.arg("what"), event.obj)
    )


def storm_triggers(game: Game, event: Event) -> list[StackItem]:
    """Storm (702.40a): "When you cast this spell, copy it for each other spell that was cast before
    it this turn." The count is the spells cast this turn by every player, less the spell itself."""
    spell = event.obj
    if event.kind != "cast" or spell is None or "storm" not in keywords_of(spell):
        return []
    before = sum(player.spells_cast_this_turn for player in game.players.values()) - 1
    return [StackItem(spell.id, event.player, None, [], before, rule="storm")]


def resolve_storm(game: Game, decider: Decider, item: StackItem) -> None:
    """The copies, each of whose targets its controller may change (702.40a, 707.10c)."""
    spell = game.objects.get(item.source)
    for _ in range(item.x or 0):
        copy = copy_of(game, item.controller, spell) if spell is not None else None
        if copy is None:
            return
        question = f"{item.controller}: choose new targets for the copy of {copy.name}?"
        if decider.choose(question, ["yes", "no"]) == "yes":
            new_targets(game, decider, copy)


def _is(ref: Ref, obj: GameObject) -> bool:
    return not isinstance(ref, str) and ref.id == obj.id  # a spell can't target itself (115.5)


def _copy_check(action: Action, catalog: Catalog) -> str | None:
    what = action.arg("what")
    named = isinstance(what, Noun) and what.determiners in (("target",), ("that",))
    if named and isinstance(what, Noun) and "spell" in what.description:
        return None
    return "a copy of this spell or of 'it'"


SECTION = Section(
    "effects.copies",
    verbs={"copy_spell": copy_spell, "choose_new_targets": choose_new_targets},
    checks={"copy_spell": _copy_check},
    keywords=frozenset({"storm"}),
    rule_abilities={"storm": resolve_storm},
    rule_triggers=(storm_triggers,),
    triggers={"casts_or_copies": (casts_or_copies, None)},
)
"""Copies of spells on the stack, new targets for them, storm, and "whenever you cast or copy"."""
