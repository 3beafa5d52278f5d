"""Paying costs (601.2g-h, 602.2b, 118): mana, {T} and {Q}, loyalty, and the cost phrases (sacrifice,
discard, exile, pay life)."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import (
    CostError,
    IllegalActionError,
)
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import summoning_sick
from carddb.engine.query.nouns import amount_of, matches, value
from carddb.engine.rules import mana
from carddb.engine.rules.life import lose_life
from carddb.engine.rules.timing import sorcery_speed
from carddb.engine.rules.zones import put
from carddb.oracle.model import (
    Ability,
    Action,
    ManaCost,
    Noun,
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
) -> None:
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
            source.tapped = True
        elif isinstance(item, UntapCost):
            if not source.tapped:
                raise CostError(f"{source.name} is not tapped")
            source.tapped = False
        elif isinstance(item, Action):
            _pay_action(game, decider, player, source, item)



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


def _pay_action(game: Game, decider: Decider, player: str, source: GameObject, action: Action) -> None:
    """A cost written as a phrase: exile or sacrifice this permanent; sacrifice, discard or exile
    cards by a description (chosen through the decider); pay life."""
    what = action.arg("what")
    if isinstance(what, Noun) and what.determiners == ("this",):
        what = SelfRef()  # "Discard this card" (cycling)
    if action.verb == "discard" and isinstance(what, SelfRef):
        if source.zone != "hand":
            raise CostError(f"{source.name} is not in a hand")
        put(game, source, "graveyard", cause="cost", decider=decider)
    elif action.verb in ("exile", "sacrifice") and isinstance(what, SelfRef):
        if source.zone != "battlefield":
            raise CostError(f"{source.name} is not on the battlefield")
        put(game, source, "exile" if action.verb == "exile" else "graveyard", cause="cost", decider=decider)
    elif action.verb == "pay_life":
        needed = value(Context(game, decider, player, source), action.arg("amount"))
        if game.players[player].life < needed:
            raise CostError(f"{player} has only {game.players[player].life} life, not {needed}")
        lose_life(game, player, needed)  # paying life is losing it (119.4)
    elif action.verb in ("sacrifice", "discard", "exile") and isinstance(what, Noun):
        ctx = Context(game, decider, player, source)
        zone = {"sacrifice": "battlefield", "discard": "hand", "exile": _cost_zone(what)}[action.verb]
        candidates = [
            obj
            for obj in (game.permanents(player) if zone == "battlefield" else game.in_zone(zone, player))
            if _cost_matches(ctx, obj, what)
        ]
        count = amount_of(ctx, what)
        if len(candidates) < count:
            raise CostError(f"{player} has no {what.description} to {action.verb}")
        for _ in range(count):
            name = decider.choose(f"{action.verb} which {what.description}?", [o.name for o in candidates])
            chosen = next(o for o in candidates if o.name == name)
            candidates.remove(chosen)
            to = "graveyard" if action.verb != "exile" else "exile"
            put(game, chosen, to, cause="cost", decider=decider)
    else:
        raise CostError(f"cannot pay the cost {action.verb!r}")


def _cost_zone(noun: Noun) -> str:
    for qualifier in noun.qualifiers:
        if qualifier.verb == "in_zone":
            zone = qualifier.arg("zone")
            if isinstance(zone, Action):
                return str(zone.arg("zone"))
    return "battlefield"


def _cost_matches(ctx: Context, obj: GameObject, noun: Noun) -> bool:
    """Cards in a hand or a graveyard match by their description alone ("a card", "a creature card")."""
    plain = Noun((), noun.description)
    return matches(ctx, obj, plain if obj.zone != "battlefield" else noun)


COSTS = frozenset({"discard", "exile", "sacrifice", "pay_life"})
"""The verbs of the cost phrases :func:`pay_costs` pays."""
SECTION = Section("rules.costs", costs=COSTS)
