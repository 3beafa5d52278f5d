"""Echo (702.30a): "Echo [cost]" means "At the beginning of your upkeep, if this permanent came
under your control since the beginning of your last upkeep, sacrifice it unless you pay [cost]."

The trigger is a rule ability (``StackItem.rule == "echo"``, :func:`upkeep_triggers`): at the
beginning of a player's upkeep, each permanent with echo they control that came under their
control since their last upkeep began (``GameObject.since_turn``: the turn it entered or its
control changed; a permanent set up on the battlefield has been there since before the game)
triggers. As it resolves the condition is checked again (603.4) and the controller answers
whether they pay: a cost paid in full keeps the permanent, otherwise (declined, or the mana is not
there) they sacrifice it. The engine pays echo costs that are mana; "Echo—Discard a card." is
refused by the catalog."""

from __future__ import annotations

import re
from collections.abc import Callable

from carddb.engine.core.cards import CardDef, keyword_mana_cost
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError
from carddb.engine.core.state import Event, Game, GameObject, StackItem, Step
from carddb.engine.rules import mana
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword

MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\}|\{[WUBRG]/[WUBRGP2]\})+$")
"""A cost of mana symbols the engine pays ("{2}{R}", "{W/U}")."""


def echo_cost(card: CardDef) -> tuple[str, ...] | None:
    """The mana symbols of the card's echo cost (None: no echo the engine pays)."""
    return keyword_mana_cost(card, "echo", MANA)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = (keyword.parameter or "").strip()
    return [] if not keyword.long_cost and MANA.match(parameter) else [f"keyword echo {parameter}"]


def last_upkeep_turn(game: Game, player: str) -> int:
    """The turn of ``player``'s last upkeep before this turn's (their previous turn, one round of
    turns ago; the first turn of the game when they have had none: "since the game began")."""
    return max(1, game.turn - len(game.players))


def came_under_control(game: Game, obj: GameObject, player: str) -> bool:
    """ "If this permanent came under your control since the beginning of your last upkeep"."""
    return obj.controller == player and obj.since_turn >= last_upkeep_turn(game, player)


def upkeep_permanents(game: Game, event: Event, has: Callable[[GameObject], bool]) -> list[GameObject]:
    """The permanents the active player controls for which ``has`` holds, as their upkeep begins."""
    if event.kind != "step" or event.to_zone != Step.UPKEEP:
        return []
    return [obj for obj in game.permanents(event.player) if has(obj)]


def upkeep_triggers(game: Game, event: Event) -> list[StackItem]:
    """Echo triggers at the beginning of its controller's upkeep (an intervening "if", 603.4)."""
    return [
        StackItem(obj.id, obj.controller, None, [], rule="echo")
        for obj in upkeep_permanents(game, event, lambda o: echo_cost(o.card) is not None)
        if came_under_control(game, obj, event.player)
    ]


def pay_or_sacrifice(
    game: Game, decider: Decider, item: StackItem, obj: GameObject, what: str, pay: Callable[[], None]
) -> None:
    """ "Sacrifice it unless you pay [cost]": the controller answers whether they pay ``what``;
    paid in full (``pay`` raises :class:`CostError` and changes nothing when it cannot be), the
    permanent stays; otherwise its controller sacrifices it (only if they still control it)."""
    player = item.controller
    if decider.choose(f"{player}: pay {what} for {obj.name}? (else sacrifice it)", ["yes", "no"]) == "yes":
        try:
            pay()
            game.log.append(f"{player} pays {what} for {obj.name}")
            return
        except CostError as error:
            game.log.append(f"{player} cannot pay {what} for {obj.name}: {error}")
    if obj.zone == "battlefield" and obj.controller == player:
        game.log.append(f"{player} sacrifices {obj.name}")
        put(game, obj, "graveyard", cause="sacrifice", decider=decider)


def resolve_echo(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "battlefield" or not came_under_control(game, obj, item.controller):
        return  # 603.4: the condition is checked again as it resolves
    cost = echo_cost(obj.card)
    assert cost is not None
    pay_or_sacrifice(
        game, decider, item, obj, f"echo {''.join(cost)}", lambda: mana.pay(game, item.controller, cost)
    )


SECTION = Section(
    "rules.echo",
    keyword_checks={"echo": _keyword_problems},
    rule_abilities={"echo": resolve_echo},
    rule_triggers=(upkeep_triggers,),
)
