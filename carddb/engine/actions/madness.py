"""Madness's triggered ability (702.35a): "When this card is exiled this way, its owner may cast it
by paying [cost] rather than paying its mana cost. If that player doesn't, they put this card into
their graveyard."

As it resolves, the owner answers whether they cast the card; if so they choose its targets (the
decider's answers, in the middle of the resolution) and pay its madness cost, an alternative cost
(601.2b, 601.2f–h), with the timing rules of its type ignored (a sorcery on an opponent's turn).
The spell goes on the stack like any other: it can be countered, and it resolves onto the
battlefield or into the graveyard. A card they do not cast — or cannot: no legal target, the cost
not paid — goes to the graveyard, and madness gives no second chance."""

from __future__ import annotations

from carddb.engine.actions.play import cast, spell_ability
from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError, TargetError
from carddb.engine.core.state import Game, GameObject, StackItem
from carddb.engine.query.nouns import candidates_for
from carddb.engine.rules.madness import madness_cost
from carddb.engine.rules.targets import legal_target, record_target, target_nouns, target_text
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action, Noun


def resolve_madness(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "exile":
        return  # it left exile: a new object, which the ability no longer finds (400.7)
    cost = madness_cost(obj.card)
    assert cost is not None
    owner = obj.owner
    question = f"{owner}: cast {obj.name} for its madness cost {''.join(cost)}?"
    if decider.choose(question, ["yes", "no"]) == "yes":
        try:
            cast(game, decider, owner, obj, spell_targets(game, decider, owner, obj), alternative=cost)
            return
        except (CostError, TargetError) as error:  # the cast is refused: the game is as it was
            game.log.append(f"{owner} cannot cast {obj.name} for its madness cost: {error}")
            obj = game.objects[item.source]
    game.log.append(f"{owner} puts {obj.name} into their graveyard (madness)")
    put(game, obj, "graveyard", cause="effect", decider=decider)


def spell_targets(game: Game, decider: Decider, player: str, obj: GameObject) -> list[list[Ref]]:
    """The spell's targets, chosen by its caster as a resolving ability casts it (madness, suspend;
    one for each target phrase); none legal: the spell cannot be cast."""
    ability = spell_ability(obj)
    if ability is None:
        return []
    ctx = Context(game, decider, player, obj)
    chosen: list[list[Ref]] = []
    for noun in target_nouns(ability):
        refs: list[Ref] = [*game.players]
        if not isinstance(noun, Action):
            refs += candidates_for(ctx, noun) if isinstance(noun, Noun) else game.permanents()
        legal = [ref for ref in refs if legal_target(game, ctx, noun, ref)]
        text = target_text(noun)
        if not legal:
            raise TargetError(f"{obj.name} has no legal {text}")
        names = list(dict.fromkeys(ref if isinstance(ref, str) else ref.name for ref in legal))
        name = decider.choose(f"{obj.name}: {text}", names)
        chosen.append([next(ref for ref in legal if (ref if isinstance(ref, str) else ref.name) == name)])
        record_target(ctx, noun, chosen[-1])
    return chosen


SECTION = Section("actions.madness", rule_abilities={"madness": resolve_madness})
