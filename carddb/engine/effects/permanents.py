"""Permanents: tapping, counters, P/T changes, keywords and abilities gained, control, restrictions,
destroying, exiling, returning, sacrificing, countering."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Handler, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form, named
from carddb.engine.core.state import ControlEffect, GameObject
from carddb.engine.effects.common import (
    target_objects,
    zone_of,
)
from carddb.engine.query.abilities import CANT_BE_REGENERATED, REGENERATION
from carddb.engine.query.nouns import (
    ANY_NUMBER,
    THAT_MANY,
    amount_of,
    choose_any_number,
    choose_up_to,
    counter_kind,
    did,
    matches,
    objects,
    players,
    resolve,
    up_to,
    value,
)
from carddb.engine.rules.card_faces import transform
from carddb.engine.rules.casting import uncounterable
from carddb.engine.rules.destruction import destroy
from carddb.engine.rules.sagas import LORE, lore_added
from carddb.engine.rules.suspend import lose_haste
from carddb.engine.rules.zones import exile_until, put
from carddb.oracle.model import Action, Noun, Pronoun, SelfRef


def cant_this_turn(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target creature can't block this turn.", "~ assigns no combat damage this turn.": until
    end of turn (the clause's duration; the forms with an object, "can't block creatures with
    flying", are not executable)."""
    for obj in objects(subject):
        obj.restrictions_until_end_of_turn.append(action.verb)


def doesnt_untap(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "It doesn't untap during its controller's next untap step.": the next untap step of
    whoever controls it then (502.3) skips it."""
    for obj in objects(subject):
        if obj.zone == "battlefield":
            obj.skip_untaps += 1


def gain_control(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Gain control of objects: a control-changing effect with a timestamp (layer 2, 613.1b); with
    "until end of turn" (the clause's duration) it ends at cleanup and the control it overrode
    shows again. The latest effect wins (613.7)."""
    for player in players(ctx, subject):
        for obj in target_objects(ctx, action):
            if obj.zone != "battlefield":
                continue
            before = obj.controller
            effect = ControlEffect(ctx.game.timestamp(), player, ctx.duration is not None)
            obj.control_effects.append(effect)
            if obj.controller != before:
                obj.since_turn = ctx.game.turn  # a creature whose control changed is summoning sick
                lose_haste(obj)  # suspend's haste lasts until its controller loses control


def _move_all(zone: str) -> Handler:
    def handler(ctx: Context, subject: list[Ref], action: Action) -> None:
        for obj in target_objects(ctx, action):
            if obj.zone == "stack":  # "exile target spell": it leaves the stack
                _off_the_stack(ctx, obj)
            put(ctx.game, obj, zone, decider=ctx.decider)
            if zone == "exile" and obj.zone == "exile":
                did(ctx, "exiled", obj)

    return handler


def exile_until_handler(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Exile target creature an opponent controls until ~ leaves the battlefield." (610.3)"""
    sources = list(objects(resolve(ctx, action.arg("source"))))
    for obj in target_objects(ctx, action):
        for source in sources[:1]:
            exile_until(ctx.game, obj, source, ctx.decider)
            if obj.zone == "exile":
                did(ctx, "exiled", obj)


def destroy_handler(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in target_objects(ctx, action):
        if destroy(ctx.game, obj, regenerate=not ctx.no_regeneration, decider=ctx.decider):
            did(ctx, "destroyed", obj)


def cant_be_regenerated(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "It can't be regenerated this turn.": its regeneration shields are not applied until
    cleanup (701.15c). Without a duration ("Destroy target creature. It can't be regenerated.") the
    sentence modifies the destruction before it, which :func:`carddb.engine.rules.execution.execute_steps`
    ran without regeneration (608.2c): nothing is left to do."""
    if ctx.duration is None:
        return
    for obj in objects(subject):
        if obj.zone == "battlefield":
            obj.restrictions_until_end_of_turn.append(CANT_BE_REGENERATED)


def regenerate(ctx: Context, subject: list[Ref], action: Action) -> None:
    """The next time it would be destroyed this turn, it is tapped and its damage removed instead."""
    for obj in target_objects(ctx, action):
        if obj.zone == "battlefield":
            obj.keywords_until_end_of_turn.append(REGENERATION)


def return_to(ctx: Context, subject: list[Ref], action: Action) -> None:
    zone = zone_of(action, "to") or ("battlefield" if action.verb == "return_from" else None)
    if zone is None:
        raise EngineError(f"cannot tell where {action.verb} puts the card")
    for obj in target_objects(ctx, action):
        if obj.zone == "stack":  # "return target spell to its owner's hand": it leaves the stack
            _off_the_stack(ctx, obj)
        put(ctx.game, obj, zone, decider=ctx.decider)
        if zone == "battlefield":  # "return … to the battlefield tapped" / "under your control"
            returned = action.verb == "return_from"
            obj.tapped = returned and is_form(action, "to_battlefield_tapped")
            yours = returned and is_form(action, "under_your_control")
            obj.controller = ctx.controller if yours else obj.owner


def counter(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in target_objects(ctx, action):
        if uncounterable(obj.card):  # "This spell can't be countered." (it stays on the stack)
            ctx.game.log.append(f"{obj.name} can't be countered")
            continue
        _off_the_stack(ctx, obj)
        put(ctx.game, obj, "graveyard", cause="countered", decider=ctx.decider)


def _off_the_stack(ctx: Context, obj: GameObject) -> None:
    """A spell leaving the stack by an effect (countered, returned): its stack item goes too."""
    ctx.game.stack = [item for item in ctx.game.stack if item.source != obj.id or not item.is_spell]
    obj.zone = "stack"


def proliferate(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Proliferate (701.27): choose any number of permanents and players with counters; each gets
    another counter of each kind it already has (the controller answers for each, in order)."""
    for obj in ctx.game.permanents():
        if obj.counters and ctx.decider.choose(f"proliferate {obj.name}?", ["yes", "no"]) == "yes":
            for kind in list(obj.counters):
                obj.counters[kind] += 1
                if kind == LORE:
                    lore_added(ctx.game, obj, obj.counters[kind] - 1)
    for player in ctx.game.players.values():
        # a chosen player gets another counter of each kind they have: poison, energy, experience
        kinds = [kind for kind, count in player.counters.items() if count]
        if not (player.poison or player.energy or kinds):
            continue
        named = {"poison": player.poison, "energy": player.energy}
        shown = ", ".join([*(kind for kind, count in named.items() if count), *kinds])
        if ctx.decider.choose(f"proliferate {player.name}'s {shown}?", ["yes", "no"]) == "yes":
            player.poison += 1 if player.poison else 0
            player.energy += 1 if player.energy else 0
            for kind in kinds:
                player.counters[kind] += 1


def transform_handler(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Transform ~" (701.28): each named permanent turns to its other face, if it can."""
    for obj in target_objects(ctx, action):
        transform(ctx.game, obj)


def tap(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in target_objects(ctx, action):
        ctx.game.tap(obj, action.verb == "tap")


def counters(ctx: Context, subject: list[Ref], action: Action) -> None:
    spec = action.arg("counters")
    assert isinstance(spec, Action)
    kind = counter_kind(spec.arg("kind"))
    count = value(ctx, spec.arg("amount")) if spec.arg("amount") is not None else _that_many(ctx, spec)
    sign = 1 if action.verb == "put_counters" else -1
    for obj in target_objects(ctx, action):
        before = obj.counters.get(kind, 0)
        obj.counters[kind] = max(0, before + sign * count)
        if obj.counters[kind] == 0:
            del obj.counters[kind]
        if kind == LORE:
            lore_added(ctx.game, obj, before)  # a Saga's chapters (714.2b)


def _that_many(ctx: Context, spec: Action) -> int:
    """ "Put that many +1/+1 counters on ~": the die roll's result ("Roll a d20. … that many"), else
    the triggering event's amount ("Whenever a source … deals damage to you, … that many", "Whenever
    you gain life, …"); "twice that many" doubles it."""
    many = ctx.bindings.get("result", ctx.bindings.get(THAT_MANY))
    if many is None:
        raise EngineError("'that many' counters count nothing here")
    return many * (2 if spec.arg("determiner") == "twice that many" else 1)


def tap_or_untap(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Tap or untap target permanent.": the ability's controller chooses, for each object."""
    for obj in target_objects(ctx, action):
        if obj.zone == "battlefield":
            answer = ctx.decider.choose(f"{ctx.controller}: tap or untap {obj.name}?", ["tap", "untap"])
            ctx.game.tap(obj, answer == "tap")


def sacrifice(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    for player in players(ctx, subject):
        if isinstance(what, SelfRef | Pronoun):
            for obj in objects(resolve(ctx, what)):
                if obj.zone == "battlefield" and obj.controller == player:
                    put(ctx.game, obj, "graveyard", cause="sacrifice", decider=ctx.decider)
                    did(ctx, "sacrificed", obj)
            continue
        assert isinstance(what, Noun)
        choices = [obj for obj in ctx.game.permanents(player) if matches(ctx, obj, what)]
        if ANY_NUMBER in what.determiners:  # "Sacrifice any number of lands": chosen one by one
            for obj in choose_any_number(ctx, player, what.description, choices):
                put(ctx.game, obj, "graveyard", cause="sacrifice", decider=ctx.decider)
                did(ctx, "sacrificed", obj)
            continue
        most = up_to(ctx, what)
        if most is not None:  # "Sacrifice up to two creatures": as many as the player wants, no more
            for obj in choose_up_to(ctx, player, what.description, choices, most):
                put(ctx.game, obj, "graveyard", cause="sacrifice", decider=ctx.decider)
                did(ctx, "sacrificed", obj)
            continue
        if what.amount is None or {"all", "each"} & set(what.determiners):  # "sacrifice all creatures
            for obj in choices:  # you control": every one, nothing to choose
                put(ctx.game, obj, "graveyard", cause="sacrifice", decider=ctx.decider)
                did(ctx, "sacrificed", obj)
            continue
        for _ in range(min(amount_of(ctx, what), len(choices))):
            name = ctx.decider.choose(f"{player} sacrifices which?", [obj.name for obj in choices])
            chosen = next(obj for obj in choices if obj.name == name)
            choices.remove(chosen)
            put(ctx.game, chosen, "graveyard", cause="sacrifice", decider=ctx.decider)
            did(ctx, "sacrificed", chosen)


def sacrificed_by_controller(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Each nontoken permanent … is sacrificed by its controller.": what "Its controller
    sacrifices it" says for each of them (701.17a: only a permanent its controller controls)."""
    for obj in list(objects(subject)):
        if obj.zone == "battlefield":
            put(ctx.game, obj, "graveyard", cause="sacrifice", decider=ctx.decider)
            did(ctx, "sacrificed", obj)


KEYWORD_COUNTERS = frozenset({
    "flying", "first strike", "double strike", "deathtouch", "haste", "hexproof", "indestructible",
    "lifelink", "menace", "reach", "trample", "vigilance", "shadow",
})  # fmt: skip
"""Counters that give the permanent the keyword they name (122.1b): "Put a first strike counter on
it." The engine does not grant them, so such a phrase is refused rather than half done."""


def _counters_check(action: Action, catalog: Catalog) -> str | None:
    spec = action.arg("counters")
    kind = counter_kind(spec.arg("kind")) if isinstance(spec, Action) else None
    return f"{kind} counters (122.1b)" if kind in KEYWORD_COUNTERS else None


SECTION = Section(
    "effects.permanents",
    verbs={
        "cant_block": cant_this_turn,
        "cant_attack": cant_this_turn,
        "cant_be_blocked": cant_this_turn,
        "assigns_no_combat_damage": cant_this_turn,  # "… assigns no combat damage this turn"
        "doesnt_untap": doesnt_untap,
        "doesnt_untap_their_controller": doesnt_untap,
        "gain_control": gain_control,
        "destroy": destroy_handler,
        "cant_be_regenerated": cant_be_regenerated,
        "regenerate": regenerate,
        "exile": _move_all("exile"),
        "exile_until": exile_until_handler,
        "return_to_hand": _move_all("hand"),
        "return_from": return_to,
        "put_into_zone": return_to,
        "counter": counter,
        "tap": tap,
        "transform": transform_handler,
        "proliferate": proliferate,
        "untap": tap,
        "put_counters": counters,
        "remove_counters": counters,
        "tap_or_untap": tap_or_untap,
        "sacrifice": sacrifice,
        "sacrificed_by_controller": sacrificed_by_controller,
    },
    forms={
        "transform": named("transform", "object"),
        "doesnt_untap": named(
            "doesnt_untap", "untap_step", "untap_steps", "next_untap_step", "next_untap_step_plural"
        ),
        "doesnt_untap_their_controller": named(
            "doesnt_untap_their_controller",
            "its_controllers_next",
            "their_controllers_next",
            "their_controllers_next_steps",
        ),
    },
    checks={"put_counters": _counters_check, "remove_counters": _counters_check},
    static_verbs=frozenset({"doesnt_untap"}),
)
