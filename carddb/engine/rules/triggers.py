"""Triggered abilities: events (objects moving between zones, spells cast, steps beginning, damage
dealt) are matched against the trigger conditions of the abilities that can see them, and the
abilities that trigger are put on the stack with their targets chosen through the decider.

:func:`settle` runs after every game action: static abilities are brought up to date, entering
permanents get their "enters the battlefield tapped / with counters", abilities trigger,
state-based actions are checked (which may cause more events) until nothing changes, and the
waiting triggered abilities go on the stack (rule 603.3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Matcher, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider, ScriptedDecider
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.forms import is_form, named, written
from carddb.engine.core.state import Event, Game, GameObject, StackItem, Step
from carddb.engine.query.abilities import ability_at, active_abilities, granter_of
from carddb.engine.query.executable import (
    LEAVING_ZONE_OWNERS,
    check_object,
    functions_from_graveyard,
    missing,
)
from carddb.engine.query.nouns import (
    AMOUNT_EVENTS,
    DONE,
    THAT_MANY,
    candidates_for,
    defending_players,
    matches,
    resolve,
    zone_name,
)
from carddb.engine.query.planar import is_planar, planar_controller, planar_objects
from carddb.engine.rules.attachments import enter_attached
from carddb.engine.rules.choices import choose_as_entering
from carddb.engine.rules.conditions import evaluate
from carddb.engine.rules.continuous import on_enter
from carddb.engine.rules.layers import refresh
from carddb.engine.rules.sba import state_based_actions
from carddb.engine.rules.targets import (
    DIVIDED_ANY,
    TargetPhrase,
    divide,
    legal_target,
    mode_counts,
    mode_phrase_slots,
    record_target,
    step_nouns,
    target_events,
    target_phrase_slots,
    target_text,
)
from carddb.engine.rules.ward import ward_triggers
from carddb.engine.rules.zones import return_exiled
from carddb.oracle.model import Ability, Action, Kind, Noun, Pronoun, SelfRef, TargetSlot, walk
from carddb.oracle.phrases import find


def is_named(ctx: Context, phrase: object, ref: Ref | None) -> bool:
    """Whether ``ref`` is what a trigger's noun phrase names."""
    if ref is None:
        return False
    if isinstance(phrase, SelfRef):
        return ref is ctx.itself
    if isinstance(phrase, Pronoun):  # "you", "defending player", "one of your opponents"
        if phrase.word == "defending player":
            return ref in defending_players(ctx)
        if phrase.word == "your opponents":
            return ref in ctx.game.opponents(ctx.controller)
        return phrase.word == "you" and ref == ctx.controller
    if isinstance(phrase, Noun):
        return matches(ctx, ref, phrase)
    return False


_ZONES_OF_SOMEONE = {"a player's", "an opponent's", "each player's", "each opponent's"}


def about_event(ctx: Context, event: Event, trigger: object) -> None:
    """A triggered ability speaks of its event: "it" is the event's object; "that player", "that
    creature" name what the event was about, the player its trigger condition names first."""
    if event.obj is not None:
        ctx.it = [event.obj]
        if event.kind == "move" and event.to_zone:
            ctx.moved_to = {event.obj.id: event.to_zone}
    dealt = isinstance(trigger, Action) and trigger.verb == "is_dealt_damage"
    if dealt and isinstance(event.other, GameObject):  # "Whenever enchanted creature is dealt damage,
        ctx.it = [event.other]  # it deals that much damage to its controller": what was dealt it
    refs: list[Ref] = [ref for ref in (event.other, event.obj) if ref is not None]
    if event.kind in AMOUNT_EVENTS:  # "… deals combat damage to a player, draw that many cards"
        ctx.bindings[THAT_MANY] = event.amount
    player = _event_player(ctx, event, trigger)
    ctx.event_refs = [player, *refs] if player is not None else refs


PLAYER_EVENTS = ("step", "cast", "copy", "move", "roll", "gain_life", "lose_life", "draw", "discard", "cycle")
"""Events whose ``player`` is who "that player" means: whose step, who cast or copied, who moved…"""


def _event_player(ctx: Context, event: Event, trigger: object) -> str | None:
    """The player a trigger condition names, whom "that player" means: the player dealt damage
    ("deals damage to a player"), or the controller of the source ("a source an opponent controls
    deals damage to you"); whose step it is ("each player's upkeep"); who cast the spell; the owner
    of what went to or left their zone ("a player's graveyard"), else who controlled it. Not the
    ability's own controller as the mover or caster of the source itself (the text says "you").
    Who controls the spell or ability that made something a target ("target")."""
    args = trigger.args if isinstance(trigger, Action) else ()
    if event.kind == "damage":
        to = trigger.arg("to") if isinstance(trigger, Action) else None
        if isinstance(to, Pronoun) and to.word == "you":  # "a source an opponent controls … to you"
            return event.player or None
        return event.other if isinstance(event.other, str) else None
    if event.kind in ("cast", "copy", "move") and event.obj is ctx.source:
        return None
    if event.kind == "move" and event.obj is not None:
        zones = [n for _, value in args for n in walk(value) if isinstance(n, Action) and n.verb == "zone"]
        if any(zone.arg("owner") in _ZONES_OF_SOMEONE for zone in zones):
            return event.obj.owner
    if event.kind == "target":  # the controller of the spell or ability that targets
        return event.player or None
    if event.kind in PLAYER_EVENTS:
        return event.player or None
    return None


def _entered(event: Event) -> bool:
    return event.kind == "move" and event.to_zone == "battlefield" and event.from_zone != "battlefield"


def _died(event: Event) -> bool:
    return (
        event.kind == "move"
        and event.from_zone == "battlefield"
        and event.to_zone == "graveyard"
        and event.obj is not None
        and event.obj.is_a("Creature")
    )


def _with_controller(event: Event, check: Callable[[], bool]) -> bool:
    """Run ``check`` seeing the event's object under the controller it had before moving."""
    obj = event.obj
    if obj is None:
        return False
    now = obj.controller
    obj.controller = event.player or now
    try:
        return check()
    finally:
        obj.controller = now


def _enters_or(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "When ~ enters the battlefield or dies": either event."""
    if is_form(trigger, "dies") and _died(event):
        return _with_controller(event, lambda: is_named(ctx, trigger.arg("what"), event.obj))
    return _entered(event) and is_named(ctx, trigger.arg("what"), event.obj)


def _enters(ctx: Context, trigger: Action, event: Event) -> bool:
    if not _entered(event) or not is_named(ctx, trigger.arg("what"), event.obj):
        return False
    assert event.obj is not None
    if is_form(trigger, "under_your_control"):
        return event.obj.controller == ctx.controller
    if is_form(trigger, "under_opponents_control"):
        return event.obj.controller != ctx.controller
    return True


def _dies(ctx: Context, trigger: Action, event: Event) -> bool:
    return _died(event) and _with_controller(event, lambda: is_named(ctx, trigger.arg("what"), event.obj))


def _leaves(ctx: Context, trigger: Action, event: Event) -> bool:
    if event.kind != "move" or event.from_zone != "battlefield" or event.to_zone == "battlefield":
        return False
    if is_form(trigger, "to_graveyard") and event.to_zone != "graveyard":
        return False
    if is_form(trigger, "to_zone"):
        zone = trigger.arg("to")
        if not isinstance(zone, Action) or zone_name(zone) != event.to_zone:
            return False
        if not _owned_zone(ctx, zone, event):
            return False
    return _with_controller(event, lambda: is_named(ctx, trigger.arg("what"), event.obj))


def _owned_zone(ctx: Context, zone: Action, event: Event) -> bool:
    """Whether the zone the object went to is the one the trigger names by its owner: a card goes
    to its owner's graveyard, hand or library (400.3), so "put into your graveyard from the
    battlefield" is a card the ability's controller owns, "an opponent's graveyard" one an opponent
    owns; "a graveyard", "a player's graveyard" and "its owner's" are anyone's."""
    owner = zone.arg("owner")
    assert event.obj is not None
    if owner == "your":
        return event.obj.owner == ctx.controller
    if owner in ("an opponent's", "each opponent's"):
        return event.obj.owner in ctx.game.opponents(ctx.controller)
    return owner in LEAVING_ZONE_OWNERS  # anyone's ("a graveyard", "a player's", "its owner's")


def _either(check: Matcher) -> Matcher:
    def either(ctx: Context, trigger: Action, event: Event) -> bool:
        other = Action(trigger.verb, (("what", trigger.arg("other")),), trigger.form)
        return check(ctx, trigger, event) or check(ctx, other, event)

    return either


def _either_enters(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ or another Ally enters the battlefield [under your control]": either one enters
    (its own form numbers: "under your control" is checked for both)."""
    if not _entered(event) or event.obj is None:
        return False
    if not (is_named(ctx, trigger.arg("what"), event.obj) or is_named(ctx, trigger.arg("other"), event.obj)):
        return False
    return not is_form(trigger, "under_your_control") or event.obj.controller == ctx.controller


def _casts(ctx: Context, trigger: Action, event: Event) -> bool:
    return (
        event.kind == "cast"
        and is_named(ctx, trigger.arg("who"), event.player)
        and is_named(ctx, trigger.arg("what"), event.obj)
    )


def _rolls(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you roll one or more dice" / "a die" (forms 0 and 1)."""
    return event.kind == "roll" and is_named(ctx, trigger.arg("who"), event.player)


def _life_changes(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you gain life" (``gains_life_trigger``), "Whenever an opponent loses life"
    (``loses_life_trigger``)."""
    kind = "gain_life" if trigger.verb == "gains_life_trigger" else "lose_life"
    return event.kind == kind and is_named(ctx, trigger.arg("who"), event.player)


def _draws(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you draw a card", "Whenever an opponent draws a card", "Whenever you draw your
    second card each turn" (the event counts the draws of the turn)."""
    if event.kind != "draw" or not is_named(ctx, trigger.arg("who"), event.player):
        return False
    return event.amount == 2 if "second card" in _written(trigger) else True


def _written(trigger: Action) -> str:
    found = find(trigger.verb, trigger.form)
    return found.text if found is not None else ""


def _becomes_tapped(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ becomes tapped" / "becomes untapped" (``becomes_untapped``; entering tapped is
    not becoming tapped)."""
    kind = "untapped" if trigger.verb == "becomes_untapped" else "tapped"
    return event.kind == kind and is_named(ctx, trigger.arg("what"), event.obj)


def _discards(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever a player discards a card", "Whenever an opponent discards a creature card"."""
    return (
        event.kind == "discard"
        and is_named(ctx, trigger.arg("who"), event.player)
        and is_named(ctx, trigger.arg("what"), event.obj)
    )


def _sacrifices(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you sacrifice a permanent", "Whenever a player sacrifices a creature": the player
    who controlled it as it was sacrificed."""
    return (
        event.kind == "sacrifice"
        and is_named(ctx, trigger.arg("who"), event.player)
        and is_named(ctx, trigger.arg("what"), event.obj)
    )


def _cycles(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "When you cycle ~", "Whenever you cycle another card"."""
    if not is_named(ctx, trigger.arg("who"), event.player) or event.kind != "cycle":
        return False
    return (event.obj is ctx.source) == ("another" not in _written(trigger))


def _cycles_or_discards(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you cycle or discard a card": a discard (cycling discards, 702.29a)."""
    return event.kind == "discard" and is_named(ctx, trigger.arg("who"), event.player)


def deals_damage(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ deals damage to a player": the source and what it is dealt to."""
    if event.kind != "damage":
        return False
    return is_named(ctx, trigger.arg("what"), event.obj) and is_named(ctx, trigger.arg("to"), event.other)


def _is_dealt_damage(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ is dealt damage": what the damage is dealt to (``is_dealt_damage``)."""
    return event.kind == "damage" and is_named(ctx, trigger.arg("what"), event.other)


_YOURS, _ANYONES, _OPPONENTS = "yours", "any", "opponents"
BEGINNINGS: dict[str, tuple[tuple[Step, ...], str]] = {
    "your_upkeep": ((Step.UPKEEP,), _YOURS),
    "each_upkeep": ((Step.UPKEEP,), _ANYONES),
    "each_players_upkeep": ((Step.UPKEEP,), _ANYONES),
    "each_opponents_upkeep": ((Step.UPKEEP,), _OPPONENTS),
    "your_end_step": ((Step.END,), _YOURS),
    "each_end_step": ((Step.END,), _ANYONES),
    "the_end_step": ((Step.END,), _ANYONES),
    "your_precombat_main": ((Step.MAIN1,), _YOURS),
    "combat_on_your_turn": ((Step.COMBAT,), _YOURS),
    "each_combat": ((Step.COMBAT,), _ANYONES),
    "your_draw_step": ((Step.DRAW,), _YOURS),
    "each_players_draw_step": ((Step.DRAW,), _ANYONES),
    "your_second_main": ((Step.MAIN2,), _YOURS),
    "each_of_your_main_phases": ((Step.MAIN1, Step.MAIN2), _YOURS),
    "each_opponents_end_step": ((Step.END,), _OPPONENTS),
    "each_players_end_step": ((Step.END,), _ANYONES),
}
"""``beginning`` forms: the steps they name and whose turn it must be."""


def _beginning(ctx: Context, trigger: Action, event: Event) -> bool:
    if event.kind != "step":
        return False
    steps, whose = BEGINNINGS[trigger.form_name or ""]
    if event.to_zone not in steps:
        return False
    if whose == _YOURS:
        return event.player == ctx.controller
    if whose == _OPPONENTS:
        return event.player != ctx.controller
    return True


STEP_OF_WHOM = {
    "the beginning of the upkeep of enchanted creature's controller": (Step.UPKEEP, "attached"),
    "the beginning of the upkeep of enchanted artifact's controller": (Step.UPKEEP, "attached"),
    "the beginning of the upkeep of enchanted land's controller": (Step.UPKEEP, "attached"),
    "the beginning of the upkeep of enchanted enchantment's controller": (Step.UPKEEP, "attached"),
    "the beginning of the upkeep of enchanted permanent's controller": (Step.UPKEEP, "attached"),
    "the beginning of the end step of enchanted creature's controller": (Step.END, "attached"),
    "the beginning of combat on each opponent's turn": (Step.COMBAT, "opponent"),
    "the beginning of your opponents' end step": (Step.END, "opponent"),
    "the beginning of each player's precombat main phase": (Step.MAIN1, "each"),
    "the beginning of your postcombat main phase": (Step.MAIN2, "you"),
}
"""The ``beginning_of_step`` forms the engine watches: the step, and whose turn it must be (the
controller of what the source is attached to, an opponent, anyone, you)."""


def _beginning_of(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "At the beginning of the upkeep of enchanted creature's controller", "… of each player's
    precombat main phase", "… of combat on each opponent's turn"."""
    step, whose = STEP_OF_WHOM[written(trigger)]
    if event.kind != "step" or event.to_zone != step:
        return False
    if whose == "attached":
        host = ctx.game.objects.get(ctx.source.attached_to) if ctx.source.attached_to is not None else None
        return host is not None and host.zone == "battlefield" and host.controller == event.player
    if whose == "opponent":
        return event.player != ctx.controller
    return whose == "each" or event.player == ctx.controller


def _beginning_of_check(trigger: Action, catalog: Catalog) -> str | None:
    text = written(trigger)
    return None if text in STEP_OF_WHOM else f"trigger {text!r}"


SECTION = Section(
    "rules.triggers",
    checks={"beginning_of_step": _beginning_of_check},
    triggers={
        "enters": (
            _enters,
            named("enters", "enters", "enter", "under_your_control", "under_opponents_control"),
        ),
        "enters_or": (_enters_or, named("enters_or", "dies")),
        "dies": (_dies, named("dies", "dies", "die")),
        "leaves": (_leaves, named("leaves", "leaves", "to_graveyard", "to_zone")),
        "either_enters": (_either_enters, named("either_enters", "enters", "under_your_control")),
        "either_dies": (_either(_dies), named("either_dies", "dies")),
        "casts": (_casts, named("casts", "cast", "casts")),
        "beginning": (_beginning, named("beginning", *BEGINNINGS)),
        "roll_dice": (_rolls, named("roll_dice", "one_or_more", "a_die")),
        "gains_life_trigger": (_life_changes, None),
        "loses_life_trigger": (_life_changes, None),
        "draws_trigger": (_draws, None),
        "becomes_tapped": (_becomes_tapped, None),
        "becomes_untapped": (_becomes_tapped, None),
        "discards_trigger": (_discards, None),
        "sacrifices_trigger": (_sacrifices, None),
        "cycle": (_cycles, None),
        "cycles_or_discards": (
            _cycles_or_discards,
            named("cycles_or_discards", "cycle_or_discard", "cycles_or_discards"),
        ),
        "is_dealt_damage": (_is_dealt_damage, named("is_dealt_damage", "damage")),
        "beginning_of_step": (_beginning_of, None),
    },
)
"""The trigger events this module matches ("deals damage" is combat's: it knows combat damage)."""


def _watchers(game: Game, event: Event) -> list[GameObject]:
    """The objects whose triggered abilities see ``event``: the permanents, a spell just cast (its
    own cast triggers) and an object that has just left the battlefield (leaves-the-battlefield
    abilities look back in time)."""
    found = game.permanents() + planar_objects(game)  # a face-up plane's abilities work (901.4)
    obj = event.obj
    if event.kind == "cast" and obj is not None and obj.id in game.objects and obj not in found:
        found.append(obj)  # the spell just cast: its "When you cast this spell" abilities
    watching = {watcher.id for watcher in found}
    for player in game.players.values():  # cards whose abilities work from a graveyard (113.6m)
        found.extend(
            card
            for card in game.in_zone("graveyard", player.name)
            if works_in_graveyard(card.card) and card.id not in watching
        )
    if (
        event.kind == "move"
        and obj is not None
        and event.from_zone == "battlefield"
        and obj.id in game.objects
        and obj not in found
    ):
        found.append(obj)
    return found


_MOMENTS: dict[tuple[str, str | None], Step] = {
    ("beginning", "next_end_step"): Step.END,
    ("beginning", "next_turns_upkeep"): Step.UPKEEP,
    ("beginning", "your_next_upkeep"): Step.UPKEEP,
    ("beginning", "end_of_combat"): Step.END_OF_COMBAT,
    ("end_of_combat", "end_of_combat"): Step.END_OF_COMBAT,
}
"""The step each delayed moment waits for (:data:`carddb.engine.query.executable.DELAYED`)."""


def _delayed(game: Game, event: Event) -> None:
    """Delayed triggered abilities whose moment has come trigger, once."""
    if event.kind != "step":
        return
    for waiting in list(game.delayed):
        moment = waiting.condition
        assert isinstance(moment, Action)
        if _MOMENTS.get((moment.verb, moment.form_name)) != event.to_zone:
            continue
        upkeep = moment.verb == "beginning" and is_form(moment, "your_next_upkeep")  # a form of "beginning"
        if upkeep and event.player != waiting.controller:
            continue  # "your next upkeep"
        game.delayed.remove(waiting)
        game.pending.append(StackItem(waiting.source.id, waiting.controller, None, [], delayed=waiting))


def collect(game: Game, decider: Decider, event: Event) -> None:
    """Abilities that ``event`` triggers wait in ``game.pending``."""
    _delayed(game, event)
    for rule_trigger in game.catalog.rule_triggers:  # keywords' rules: echo, cumulative upkeep…
        game.pending.extend(rule_trigger(game, event))
    for source in _watchers(game, event):
        cast_itself = event.kind == "cast" and source is event.obj  # "When you cast this spell"
        leaving = source is event.obj and event.kind == "move" and event.from_zone == "battlefield"
        controller = event.player if leaving else source.controller
        if is_planar(source):
            controller = planar_controller(game)  # "you" of a plane: the planar controller (901.6)
        for index, ability in active_abilities(source):
            trigger = ability.trigger
            if ability.kind is not Kind.TRIGGERED or not isinstance(trigger, Action):
                continue
            known = game.catalog.triggers.get(trigger.verb)
            if known is None:
                continue
            if cast_itself and not isinstance(trigger.arg("what"), SelfRef):
                continue  # a spell's other abilities do not function on the stack (113.6)
            if not leaving and (source.zone == "graveyard") != functions_from_graveyard(ability):
                continue  # 113.6m: it works in a graveyard only, the others never there
            matcher = known[0]
            granter = granter_of(game, source, index)  # "~" of a quoted ability an Aura gives
            ctx = Context(game, decider, controller or source.controller, source, granter=granter)
            if not matcher(ctx, trigger, event):
                continue
            problems = missing(ability, game.catalog)
            if problems:  # never skipped in silence: the action that caused the event is refused
                raise NotExecutableError(source.name, problems)
            about_event(ctx, event, trigger)
            if not intervening_holds(ctx, ability):
                game.log.append(f"{source.name}'s ability does not trigger: its 'if' does not hold (603.4)")
                continue
            x = _spell_x(game, source) if cast_itself else None  # the X the spell was cast with
            if event.obj is source and _entered(event) and "{X}" in source.card.mana_cost:
                x = source.cast_x or 0  # 107.3m: its own enters trigger's X is its spell's (else 0)
            granter_id = granter.id if granter is not None else None
            item = StackItem(
                source.id, ctx.controller, index, [], x=x, event=event, own=ability, granter=granter_id
            )
            game.pending.append(item)


@cache
def works_in_graveyard(card: CardDef) -> bool:
    """Whether a triggered ability of ``card`` works while it is in a graveyard (113.6m)."""
    return any(functions_from_graveyard(ability) for ability in card.abilities)


def _spell_x(game: Game, spell: GameObject) -> int | None:
    """The value of X chosen for ``spell`` on the stack (601.2b), None when it has none."""
    return next((item.x for item in game.stack if item.is_spell and item.source == spell.id), None)


def intervening_holds(ctx: Context, ability: Ability, *, resolving: bool = False) -> bool:
    """Whether the intervening "if" of a triggered ability holds (603.4: "When …, if …, …"), read
    with what the event was about (:func:`about_event`): checked when the event happens (it does
    not trigger otherwise) and again as the ability resolves (it does nothing otherwise). True for
    an ability without one. As it resolves (``resolving``), the players the condition named stay
    named: "if that player has no cards in hand, they lose 2 life" — "they" is that player."""
    if ability.intervening_if is None:
        return True
    it, mentions = list(ctx.it), list(ctx.mentions)
    try:
        return evaluate(ctx, ability.intervening_if)
    finally:
        said = [ref for group in ctx.mentions[len(mentions) :] for ref in group if isinstance(ref, str)]
        ctx.it, ctx.mentions = it, mentions
        if resolving and not it:  # nothing named before: what the condition names
            ctx.it = list(dict.fromkeys(said)) or _attached_named(ctx, ability.intervening_if)


def _attached_named(ctx: Context, condition: object) -> list[Ref]:
    """ "If enchanted creature is untapped, tap it": the permanent an "enchanted …" / "equipped …"
    subject of the condition names, which "it" then means."""
    what = condition.arg("what") if isinstance(condition, Action) else None
    if not (isinstance(what, Noun) and what.description.startswith(("enchanted ", "equipped "))):
        return []
    mentions = list(ctx.mentions)
    found: list[Ref] = [ref for ref in resolve(ctx, what) if not isinstance(ref, str)]
    ctx.mentions = mentions
    return found


def settle(game: Game, decider: Decider | None) -> None:
    """After an action: continuous effects, entering replacements, triggers and state-based actions
    until nothing more happens; then the triggered abilities go on the stack, targets chosen
    (without a decider, any decision is an :class:`~carddb.engine.core.errors.UnscriptedDecisionError`)."""
    if decider is None:
        decider = ScriptedDecider()
    for _ in range(1000):
        refresh(game)
        events, game.events = game.events, []
        for event in events:
            if event.kind == "move" and not event.from_zone and event.obj is not None:
                check_object(event.obj, game.catalog)  # a new object: honest, or the action is refused
        for event in events:
            if _entered(event) and event.obj is not None and event.obj.zone == "battlefield":
                on_enter(game, event.obj, decider)
                choose_as_entering(game, event.obj, decider)  # "As ~ enters, choose a creature type"
                enter_attached(game, decider, event.obj)  # an Aura not cast: what it enchants
        refresh(game)
        for event in events:
            collect(game, decider, event)
            if event.kind == "move" and event.from_zone == "battlefield" and event.obj is not None:
                return_exiled(game, event.obj, decider)  # 610.3c: not a trigger, at once
        state_based_actions(game, decider)
        if not game.events:
            break
    if game.step is Step.UNTAP:  # 502.4: no one gets priority; they wait for the upkeep (503.1a)
        return
    pending, game.pending = game.pending, []
    for item in pending:
        if item.ward is not None:
            game.stack.append(item)
            game.log.append(f"{game.objects[item.source].name}'s ward triggers")
            continue
        if item.delayed is not None:
            if _choose_delayed_targets(game, decider, item):
                game.stack.append(item)
                game.log.append(f"{item.delayed.source.name}'s {item.rule or 'delayed'} ability triggers")
                game.stack.extend(ward_triggers(game, item))
                game.events.extend(target_events(item))
            continue
        if item.rule:  # a keyword's triggered ability (madness): no targets
            game.stack.append(item)
            game.log.append(f"{game.objects[item.source].name}'s {item.rule} ability triggers")
            continue
        source = game.objects.get(item.source)
        gone = source is not None and source.zone != "battlefield" and item.own is not None  # 603.10a
        if source is None or (item.ability not in {i for i, _ in active_abilities(source)} and not gone):
            continue
        if _choose_targets(game, decider, item):
            game.stack.append(item)
            game.log.append(f"{game.objects[item.source].name}'s ability triggers")
            game.stack.extend(ward_triggers(game, item))  # its targets' ward abilities (702.21)
            game.events.extend(target_events(item))  # 603.3d: its targets become targets
    if game.events:  # what becoming a target triggers goes on the stack above it
        settle(game, decider)


def _choose_delayed_targets(game: Game, decider: Decider, item: StackItem) -> bool:
    """The targets of a triggered ability an effect created (reflexive, 603.12; delayed, 603.7),
    chosen as it goes on the stack; with a target and no legal choice for it, it is removed."""
    waiting = item.delayed
    if waiting is None or item.targets:
        return True
    source = game.objects.get(waiting.source.id, waiting.source)
    ctx = Context(game, decider, waiting.controller, source, granter=waiting.granter)
    ctx.it = list(waiting.it)
    chosen = _chosen_targets(ctx, [(noun, None) for noun in step_nouns(waiting.body)])
    if chosen is None:
        return False
    item.targets = chosen
    return True


def _choose_targets(game: Game, decider: Decider, item: StackItem) -> bool:
    """Choose the targets of a triggered ability as it goes on the stack: an ability with a target
    and no legal choice for it is removed from the stack (rule 603.3d)."""
    if item.targets:
        return True
    source = game.objects[item.source]
    ability = item.own or ability_at(source, item.ability or 0)
    granter = game.objects.get(item.granter) if item.granter is not None else None
    ctx = Context(game, decider, item.controller, source, granter=granter)
    if item.event is not None:  # "target creature that player controls": the player dealt damage
        about_event(ctx, item.event, ability.trigger)
    modes: list[int] = []
    if ability.modes:  # 603.3c: the modes are chosen as it goes on the stack
        modes = _choose_modes(game, decider, ctx, ability)
        if not modes:
            game.log.append(f"{source.name}: no mode chosen for its triggered ability")
            return False
    chosen = _chosen_targets(ctx, target_phrase_slots(ability, modes))
    if chosen is None:
        return False
    item.targets = chosen
    item.modes = modes
    item.divided = divide(ctx, ability, chosen, modes)  # one target each: it gets all of it (601.2d)
    return True


def _chosen_targets(
    ctx: Context, nouns: Sequence[tuple[TargetPhrase, TargetSlot | None]]
) -> list[list[Ref]] | None:
    """The targets of each phrase, chosen through the decider among the legal ones (each recorded
    for the phrases after it), as many as its slot takes (601.2c: "two target permanents" two,
    "up to one target creature" none or one — ``"done"`` stops once enough are chosen; a phrase
    without a slot, a reflexive or delayed trigger's, one), never one object twice for one phrase
    (601.2c); None when a phrase cannot have as many as it needs (603.3d: the ability is removed)."""
    game, source = ctx.game, ctx.source
    chosen: list[list[Ref]] = []
    for noun, slot in nouns:
        least, most = (1, 1) if slot is None else (slot.min, slot.max)
        text = target_text(noun).removeprefix("target ")
        picked: list[Ref] = []
        candidates = _legal_targets(game, ctx, noun)
        while most is None or len(picked) < most:
            legal = [ref for ref in candidates if not any(ref is p for p in picked)]
            if not legal:
                break
            names = list(dict.fromkeys(ref if isinstance(ref, str) else ref.name for ref in legal))
            if len(picked) >= least:
                names.append(DONE)
            name = ctx.decider.choose(f"{source.name}: target {text}", names)
            if name == DONE:
                break
            picked.append(next(ref for ref in legal if (ref if isinstance(ref, str) else ref.name) == name))
        if len(picked) < least:
            game.log.append(f"{source.name}: not enough legal targets for its triggered ability")
            return None
        chosen.append(picked)
        record_target(ctx, noun, picked)
    return chosen


def _legal_targets(game: Game, ctx: Context, noun: TargetPhrase) -> list[Ref]:
    refs: list[Ref] = [*game.players]
    if isinstance(noun, Action) and noun.verb in DIVIDED_ANY:  # "… divided … among any number of targets"
        refs += game.permanents()
    elif not isinstance(noun, Action):  # "target player controls": a player
        refs += candidates_for(ctx, noun) if isinstance(noun, Noun) else game.permanents()
    return [ref for ref in refs if legal_target(game, ctx, noun, ref)]


def _choose_modes(game: Game, decider: Decider, ctx: Context, ability: Ability) -> list[int]:
    """The modes of a modal triggered ability, chosen by its controller as it is put on the stack
    (603.3c): one at a time ("1", "2", …; "done" once enough are chosen), among the modes whose
    targets can be chosen. Fewer than the header asks for: none (the ability is removed)."""
    low, high = mode_counts(ability)
    def can_choose(mode: int) -> bool:  # 603.3c: each target phrase can get the fewest it takes
        pairs = mode_phrase_slots(ability, mode)
        return all(len(_legal_targets(game, ctx, noun)) >= slot.min for noun, slot in pairs)

    possible = [mode for mode in range(1, len(ability.modes) + 1) if can_choose(mode)]
    chosen: list[int] = []
    while len(chosen) < high:
        options = [str(mode) for mode in possible if mode not in chosen]
        if not options:
            break
        if len(chosen) >= low:
            options = [DONE, *options]
        answer = decider.choose(f"{ctx.source.name}: choose a mode ({ability.choose})", options)
        if answer == DONE:
            break
        chosen.append(int(answer))
    return sorted(chosen) if len(chosen) >= low else []
