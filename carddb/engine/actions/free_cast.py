"""Casting a spell as an effect resolves (608.2g, 601.2, 118.9): "You may cast a spell with mana value
4 or less from your hand without paying its mana cost." (Baral's Expertise), "… you may cast an
instant or sorcery spell from your hand without paying its mana cost." (Wildfire Eternal).

The player chooses one of the cards in their hand that the phrase describes (a land is not a
spell) or none, then its targets (``actions.madness.spell_targets``), and casts it in the middle of
the resolution without paying its mana cost — an alternative cost (118.9: additional costs are
still paid), timing rules ignored. The spell goes on the stack above the resolving one. A card that
cannot be cast (no legal target, an additional cost not paid) is not cast. Casting from elsewhere
(a graveyard, among revealed cards, a target card) or paying the mana cost is refused by the
catalog."""

from __future__ import annotations

from dataclasses import replace

from carddb.engine.actions.madness import spell_targets
from carddb.engine.actions.play import cast
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import CostError, EngineError, TargetError
from carddb.engine.query.nouns import matches, players, zone_name
from carddb.oracle.model import Action, Noun

WITHOUT_PAYING = "without_paying"
NONE = "none"
"""The answer that casts nothing."""


def _hand_noun(action: Action) -> Noun | None:
    """The noun of "cast [a spell …] from your hand without paying its mana cost" (None: another)."""
    what = action.arg("what")
    if not isinstance(what, Noun) or what.slot is not None or not what.determiners:
        return None
    verbs = [q.verb for q in what.qualifiers]
    if verbs.count(WITHOUT_PAYING) != 1 or verbs.count("in_zone") != 1:
        return None
    zone = next(q for q in what.qualifiers if q.verb == "in_zone").arg("zone")
    if not (isinstance(zone, Action) and zone_name(zone) == "hand" and zone.arg("owner") == "your"):
        return None
    kept = tuple(q for q in what.qualifiers if q.verb not in (WITHOUT_PAYING, "in_zone"))
    return replace(what, qualifiers=kept)


def cast_card(ctx: Context, subject: list[Ref], action: Action) -> None:
    noun = _hand_noun(action)
    if noun is None:
        raise EngineError("only a spell cast from your hand without paying its mana cost is cast")
    game = ctx.game
    for player in players(ctx, subject):
        if player != ctx.controller:
            raise EngineError("only the ability's controller casts from their hand")
        hand = [game.objects[i] for i in game.players[player].zones["hand"]]
        fits = [obj for obj in hand if "Land" not in obj.card.types and matches(ctx, obj, noun)]
        if not fits:
            game.log.append(f"{player} has no {noun.description} to cast")
            continue
        name = ctx.decider.choose(
            f"{player}: cast which {noun.description} without paying its mana cost?",
            [*dict.fromkeys(obj.name for obj in fits), NONE],
        )
        if name == NONE:
            continue
        card = next(obj for obj in fits if obj.name == name)
        try:
            targets = spell_targets(game, ctx.decider, player, card)
            cast(game, ctx.decider, player, card, targets, alternative=())
        except (CostError, TargetError) as error:  # it cannot be cast: it stays in the hand
            game.log.append(f"{player} cannot cast {card.name}: {error}")


def _read_by_the_cast(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    raise EngineError("'without paying its mana cost' is read by the cast, not matched")


def _cast_check(action: Action, catalog: Catalog) -> str | None:
    return None if _hand_noun(action) is not None else "a cast other than from your hand without paying"


SECTION = Section(
    "actions.free_cast",
    verbs={"cast_card": cast_card},
    qualifiers={WITHOUT_PAYING: _read_by_the_cast},
    checks={"cast_card": _cast_check},
)
"""Casting a spell from one's hand without paying its mana cost, as an effect."""
