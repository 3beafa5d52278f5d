"""Suspend's special action and its casting trigger (702.62a; :mod:`carddb.engine.rules.suspend`
has the rest).

:func:`suspend`: a player who could begin to cast a card with suspend from their hand (its
timing: as a sorcery unless it is an instant or has flash; split second) pays its suspend cost and
exiles it with N time counters, without using the stack (116.2f). When the last time counter is
removed, the owner answers whether they cast it without paying its mana cost (an alternative cost,
601.2b, 601.2f–h: additional costs and cost increases still apply; timing ignored; targets chosen
then); they may not (or cannot: no legal target, a cost not paid), and it stays in exile. A
creature spell cast this way gains haste."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.actions.madness import spell_targets
from carddb.engine.actions.play import cast
from carddb.engine.core.catalog import Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError, IllegalActionError, TargetError
from carddb.engine.core.state import Game, GameObject, StackItem, atomic
from carddb.engine.query.abilities import keywords_of
from carddb.engine.rules import mana
from carddb.engine.rules.suspend import TIME, gain_haste, suspend_of
from carddb.engine.rules.timing import sorcery_speed, split_second
from carddb.engine.rules.triggers import settle
from carddb.engine.rules.zones import put


def suspend(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    *,
    pay_with: Sequence[GameObject] | None = None,
) -> None:
    """Pay the suspend cost of a card in ``player``'s hand and exile it with its time counters."""
    with atomic(game):
        found = suspend_of(obj.card)
        if found is None:
            raise IllegalActionError(f"{obj.name} has no suspend")
        if obj.zone != "hand" or obj.owner != player:
            raise IllegalActionError(f"{obj.name} is not in {player}'s hand")
        split_second(game, "spell cast")
        if "Instant" not in obj.card.types and "flash" not in keywords_of(obj):
            sorcery_speed(game, player, obj)
        counters, cost = found
        mana.pay(game, player, cost, named=pay_with)
        if put(game, obj, "exile", cause="suspend", decider=decider) != "exile":
            raise IllegalActionError(f"{obj.name} could not be exiled")
        obj.counters[TIME] = counters
        game.log.append(f"{player} suspends {obj.name} with {counters} time counters")
        settle(game, decider)


def resolve_cast(game: Game, decider: Decider, item: StackItem) -> None:
    """ "When the last time counter is removed from this card, if it's exiled, you may play it
    without paying its mana cost if able. If you don't, it remains exiled." """
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "exile":
        return
    owner = obj.owner
    question = f"{owner}: cast {obj.name} without paying its mana cost (suspend)?"
    if decider.choose(question, ["yes", "no"]) != "yes":
        game.log.append(f"{obj.name} remains exiled")
        return
    try:
        creature = obj.card.is_permanent and "Creature" in obj.card.types
        cast(game, decider, owner, obj, spell_targets(game, decider, owner, obj), alternative=())
        if creature:
            gain_haste(game, game.objects[item.source])
    except (CostError, TargetError) as error:  # it cannot be cast: it remains exiled
        game.log.append(f"{owner} cannot cast {obj.name}: {error}; it remains exiled")


SECTION = Section("actions.suspend", rule_abilities={"suspend cast": resolve_cast})
