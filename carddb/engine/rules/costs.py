"""Paying costs (601.2g-h, 602.2b, 118): mana, {T} and {Q}, loyalty, and the cost phrases (sacrifice,
discard, exile, pay life)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import (
    CostError,
    IllegalActionError,
)
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import summoning_sick, zone_of_itself
from carddb.engine.query.executable import additional_cost
from carddb.engine.query.nouns import amount_of, counter_kind, matches, value, zone_name
from carddb.engine.rules import mana
from carddb.engine.rules.life import lose_life
from carddb.engine.rules.timing import sorcery_speed
from carddb.engine.rules.zones import put
from carddb.oracle.model import (
    Ability,
    Action,
    ManaCost,
    Noun,
    Nouns,
    SelfRef,
    TapCost,
    UntapCost,
)


# -- costs --------------------------------------------------------------------------------------
def pay_costs(
    game: Game,
    decider: Decider,
    player: str,
    source: GameObject,
    cost: Sequence[object],
    *,
    x: int | None,
    pay_with: Sequence[GameObject] | None,
    granter: GameObject | None = None,
) -> None:
    """``granter``: the object whose text gave ``source`` this (quoted) ability, which ``~`` in
    its cost names ("Sacrifice ~" of an Equipment's), when it is another object."""
    taps_itself = any(isinstance(item, TapCost) for item in cost)
    if taps_itself and source.tapped:
        raise CostError(f"{source.name} is already tapped")
    if taps_itself and summoning_sick(game, source):
        raise CostError(f"{source.name} has summoning sickness: it cannot use {{T}} abilities yet")
    if taps_itself and pay_with is not None and any(obj is source for obj in pay_with):
        raise CostError(f"{source.name} taps itself as part of the cost: it cannot also pay mana")
    for item in cost:
        if isinstance(item, ManaCost):
            exclude = {source.id} if taps_itself else set()
            mana.pay(game, player, item.symbols, x=x, exclude=exclude, named=pay_with)
    for item in cost:
        if isinstance(item, TapCost):
            game.tap(source)
        elif isinstance(item, UntapCost):
            if not source.tapped:
                raise CostError(f"{source.name} is not tapped")
            game.tap(source, False)
        elif isinstance(item, Action):
            _pay_action(game, decider, player, source, item, granter)


def pay_loyalty(game: Game, player: str, obj: GameObject, ability: Ability, x: int | None) -> None:
    """A loyalty ability (606): as a sorcery, once each turn per permanent; its cost puts or
    removes loyalty counters ("+1", "−2", "−X", "[+1]")."""
    sorcery_speed(game, player, obj)
    if obj.loyalty_turn == game.turn:
        raise IllegalActionError(f"{obj.name}: a loyalty ability was already activated this turn")
    cost = (ability.loyalty or "0").strip("[]")
    if cost.lstrip("+-") == "X":
        if x is None:
            raise CostError("the loyalty cost has X: choose a value for X")
        change = -x if cost.startswith("-") else x
    else:
        change = int(cost)
    current = obj.counters.get("loyalty", 0)
    if current + change < 0:
        raise CostError(f"{obj.name} has {current} loyalty, not {-change}")
    obj.counters["loyalty"] = current + change
    obj.loyalty_turn = game.turn


def pay_action(game: Game, decider: Decider, player: str, source: GameObject, action: Action) -> None:
    """``player`` pays the cost phrase ``action`` of ``source``'s ability in full, or raises
    :class:`CostError` with nothing changed (118.3): also a payment an effect offers ("… unless you
    sacrifice a Mountain", 118.12)."""
    _pay_action(game, decider, player, source, action)


def _pay_action(
    game: Game,
    decider: Decider,
    player: str,
    source: GameObject,
    action: Action,
    granter: GameObject | None = None,
) -> None:
    """A cost written as a phrase (118, 601.2h): each verb of :data:`COST_PAYERS` pays its own; a
    cost that cannot be paid in full raises :class:`CostError` (and the action changes nothing)."""
    payer = COST_PAYERS.get(action.verb)
    if payer is None:
        raise CostError(f"cannot pay the cost {action.verb!r}")
    what = action.arg("what")
    if isinstance(what, Noun) and what.determiners == ("this",):
        # "Discard this card" (cycling), "Sacrifice this permanent" of an ability another object
        # gave it (Basal Sliver's): the object that has the ability, not the giver ~ names
        what, granter = SelfRef(), None
    payer(Context(game, decider, player, source, granter=granter), action, what)


def _self_or_chosen(
    ctx: Context, action: Action, what: object, zone: str, to: str, *, cause: str = "cost"
) -> None:
    """Discard, exile or sacrifice this object, or as many objects of a description as the cost
    says, chosen by the player among theirs (never the spell being cast itself)."""
    game, itself = ctx.game, ctx.itself
    if isinstance(what, SelfRef):
        if itself.zone != zone or (zone == "battlefield" and itself.controller != ctx.controller):
            raise CostError(f"{itself.name} is not in {'a hand' if zone == 'hand' else 'the ' + zone}")
        put(game, itself, to, cause=cause, decider=ctx.decider)
        return
    if isinstance(what, Nouns) and not what.qualifiers:
        # "Sacrifice a green creature, a white creature, and a blue creature": one object for each
        # (a different one each time), all of them then moved
        picked: list[GameObject] = []
        for item in what.items:
            if not isinstance(item, Noun):
                raise CostError(f"cannot pay the cost {action.verb!r}")
            picked.extend(_choose(ctx, action, item, zone, taken=picked))
        for chosen in picked:
            put(game, chosen, to, cause=cause, decider=ctx.decider)
        return
    if not isinstance(what, Noun):
        raise CostError(f"cannot pay the cost {action.verb!r}")
    for chosen in _choose(ctx, action, what, zone):
        put(game, chosen, to, cause=cause, decider=ctx.decider)


def _choose(
    ctx: Context, action: Action, what: Noun, zone: str, taken: list[GameObject] | None = None
) -> list[GameObject]:
    """The objects a cost names ("two untapped Wizards you control", "a card from your hand"),
    chosen by the player (never one already ``taken`` for another part of the cost); fewer than it
    needs: the cost cannot be paid."""
    game, player = ctx.game, ctx.controller
    pool = game.permanents(player) if zone == "battlefield" else game.in_zone(zone, player)
    pool = [obj for obj in pool if not any(obj is other for other in taken or [])]
    candidates = [obj for obj in pool if obj is not ctx.source or zone == "battlefield"]
    candidates = [obj for obj in candidates if _cost_matches(ctx, obj, what)]
    count = amount_of(ctx, what)
    if len(candidates) < count:
        raise CostError(f"{player} has no {what.description} to {action.verb.replace('_', ' ')}")
    if any(q.verb == "at_random" for q in what.qualifiers):  # "discard a card at random"
        return ctx.decider.shuffle(list(candidates))[:count]
    chosen: list[GameObject] = []
    for _ in range(count):
        verb = action.verb.replace("_from", "").replace("_", " ")
        name = ctx.decider.choose(f"{verb} which {what.description}?", [o.name for o in candidates])
        picked = next(o for o in candidates if o.name == name)
        candidates.remove(picked)
        chosen.append(picked)
    return chosen


def _discard(ctx: Context, action: Action, what: object) -> None:
    _self_or_chosen(ctx, action, what, "hand", "graveyard", cause="discard")


def _sacrifice(ctx: Context, action: Action, what: object) -> None:
    _self_or_chosen(ctx, action, what, "battlefield", "graveyard", cause="sacrifice")


def _exile(ctx: Context, action: Action, what: object) -> None:
    if isinstance(what, SelfRef):  # "Exile ~ from your graveyard:" (113.6m), else from the battlefield
        zone = zone_of_itself(what) or "battlefield"
    else:
        zone = "battlefield" if not isinstance(what, Noun) else _cost_zone(what)
    _self_or_chosen(ctx, action, what, zone, "exile")


def _pay_life(ctx: Context, action: Action, what: object) -> None:
    needed = value(ctx, action.arg("amount"))
    life = ctx.game.players[ctx.controller].life
    if life < needed:
        raise CostError(f"{ctx.controller} has only {life} life, not {needed}")
    lose_life(ctx.game, ctx.controller, needed)  # paying life is losing it (119.4)


def _remove_counters(ctx: Context, action: Action, what: object) -> None:
    """ "Remove a +1/+1 counter from ~", "Remove two charge counters from ~"."""
    spec = action.arg("counters")
    if not isinstance(spec, Action) or not (isinstance(what, SelfRef) or _names_source(ctx, what)):
        raise CostError("only counters on this permanent can be removed as a cost")
    kind = counter_kind(spec.arg("kind"))
    count = value(ctx, spec.arg("amount"))
    on = ctx.itself if isinstance(what, SelfRef) else ctx.source  # "from ~" of an Equipment's quoted ability
    have = on.counters.get(kind, 0)
    if have < count:
        raise CostError(f"{on.name} has {have} {kind} counter(s), not {count}")
    on.counters[kind] = have - count
    if not on.counters[kind]:
        del on.counters[kind]


def _names_source(ctx: Context, what: object) -> bool:
    return isinstance(what, Noun) and not what.determiners and what.description == ctx.source.name


def _tap(ctx: Context, action: Action, what: object) -> None:
    """ "Tap an untapped creature you control", "Tap two untapped Wizards you control" (it may be
    the source itself; summoning sickness matters only for {T}, 302.6)."""
    if not isinstance(what, Noun):
        raise CostError("cannot pay the cost 'tap'")
    total = next((q for q in what.qualifiers if q.verb == TOTAL_POWER), None)
    if total is not None:
        _tap_total_power(ctx, what, total)
        return
    for chosen in _choose(ctx, action, what, "battlefield"):
        if chosen.tapped:
            raise CostError(f"{chosen.name} is already tapped")
        ctx.game.tap(chosen)


TOTAL_POWER = "with_total_power"
"""The qualifier of "Tap any number of untapped creatures you control with total power N or greater"
(crew, 702.122a), read by the tap cost alone (:func:`carddb.engine.query.executable.missing`)."""


def _tap_total_power(ctx: Context, what: Noun, total: Action) -> None:
    """ "Tap any number of other untapped creatures you control with total power N or greater": the
    player names the creatures one at a time until their total power is N or more; when all the
    ones that fit have less, the cost cannot be paid."""
    game, player = ctx.game, ctx.controller
    needed = value(ctx, total.arg("amount"))
    plain = replace(what, determiners=(), qualifiers=tuple(q for q in what.qualifiers if q is not total))
    left = [o for o in game.permanents(player) if not o.tapped and _cost_matches(ctx, o, plain)]
    if sum(max(o.power or 0, 0) for o in left) < needed:
        raise CostError(f"{player} has no untapped creatures with total power {needed} to tap")
    chosen: list[GameObject] = []
    power = 0
    while power < needed:
        name = ctx.decider.choose(
            f"tap which creature (total power {power} of {needed})?", [o.name for o in left]
        )
        picked = next(o for o in left if o.name == name)
        left.remove(picked)
        chosen.append(picked)
        power += max(picked.power or 0, 0)
    for obj in chosen:
        game.tap(obj)


def _return(ctx: Context, action: Action, what: object) -> None:
    """ "Return a land you control to its owner's hand"."""
    if not isinstance(what, Noun):
        raise CostError("cannot pay the cost 'return'")
    for chosen in _choose(ctx, action, what, "battlefield"):
        put(ctx.game, chosen, "hand", cause="cost", decider=ctx.decider)


def _mill(ctx: Context, action: Action, what: object) -> None:
    """ "Mill two cards" as a cost: impossible with fewer cards in the library (701.13b)."""
    count = amount_of(ctx, what) if isinstance(what, Noun) else 1
    library = ctx.game.players[ctx.controller].zones["library"]
    if len(library) < count:
        raise CostError(f"{ctx.controller} has {len(library)} card(s) in their library, not {count} to mill")
    for object_id in library[:count]:
        put(ctx.game, ctx.game.objects[object_id], "graveyard", cause="mill", decider=ctx.decider)


def _reveal(ctx: Context, action: Action, what: object) -> None:
    """ "Reveal a blue card from your hand", "Reveal ~ from your hand" (forecast): the card stays
    where it is."""
    if isinstance(what, SelfRef) and zone_of_itself(what) == "hand":
        if ctx.source.zone != "hand":
            raise CostError(f"{ctx.source.name} is not in {ctx.controller}'s hand")
        ctx.game.log.append(f"{ctx.controller} reveals {ctx.source.name}")
        return
    if not isinstance(what, Noun):
        raise CostError("cannot pay the cost 'reveal'")
    shown = _choose(ctx, action, what, _cost_zone(what) if _cost_zone(what) != "battlefield" else "hand")
    ctx.game.log.append(f"{ctx.controller} reveals {', '.join(o.name for o in shown)}")


def _pay_symbols(ctx: Context, action: Action, what: object) -> None:
    """ "Pay {2}"."""
    mana.pay(ctx.game, ctx.controller, mana.mana_symbols(action))


def _pay_energy(ctx: Context, action: Action, what: object) -> None:
    """ "Pay {E}{E}" (energy counters, 107.14)."""
    mana.pay_energy(ctx.game, ctx.controller, mana.energy_of(action))


COST_PAYERS: dict[str, Callable[[Context, Action, object], None]] = {
    "pay_mana": _pay_symbols,
    "pay_energy": _pay_energy,
    "discard": _discard,
    "sacrifice": _sacrifice,
    "exile": _exile,
    "pay_life": _pay_life,
    "remove_counters": _remove_counters,
    "tap": _tap,
    "return_from": _return,
    "mill": _mill,
    "reveal": _reveal,
}
"""The cost phrases that can be paid, by verb (118.3: a cost is paid in full or not at all)."""


def _cost_zone(noun: Noun) -> str:
    for qualifier in noun.qualifiers:
        if qualifier.verb == "in_zone":
            zone = qualifier.arg("zone")
            if isinstance(zone, Action):
                return zone_name(zone)
    return "battlefield"


def _cost_matches(ctx: Context, obj: GameObject, noun: Noun) -> bool:
    """Cards in a hand or a graveyard match by their description alone ("a card", "a creature card")."""
    plain = Noun((), noun.description)
    return matches(ctx, obj, plain if obj.zone != "battlefield" else noun)


def additional_costs(card: CardDef) -> list[Action]:
    """ "As an additional cost to cast this spell, sacrifice a creature." (601.2b, 601.2h): the cost
    phrases a spell adds to its mana cost."""
    return [cost for ability in card.abilities if (cost := additional_cost(ability)) is not None]


def pay_additional_costs(
    game: Game, decider: Decider, player: str, spell: GameObject, alternative: Sequence[Action] = ()
) -> None:
    """The spell's additional costs and the cost phrases of an alternative cost (601.2h)."""
    for cost in (*alternative, *additional_costs(spell.card)):
        _pay_action(game, decider, player, spell, cost)


COSTS = frozenset(COST_PAYERS)
"""The verbs of the cost phrases :func:`pay_costs` pays."""
SECTION = Section("rules.costs", costs=COSTS, static_verbs=frozenset({"additional_cost"}))
"""Additional costs are read when the spell is cast (:func:`pay_additional_costs`)."""
