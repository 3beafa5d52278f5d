"""Cumulative upkeep (702.24a): "Cumulative upkeep [cost]" means "At the beginning of your upkeep,
if this permanent is on the battlefield, put an age counter on this permanent. Then you may pay
[cost] for each age counter on it. If you don't, sacrifice it."

Each instance triggers separately (702.24b) as a rule ability (``StackItem.rule ==
"cumulative upkeep"``); as it resolves, an age counter is put on the permanent and its controller
answers whether they pay the cost once for each age counter on it then (all of it or none: a
payment that cannot be made in full changes nothing, and the permanent is sacrificed). The engine
pays costs of mana ("Cumulative upkeep {1}", repeated for each counter) and of life
("Cumulative upkeep—Pay 2 life."); any other cost, and a choice of costs ("{G} or {W}"), is refused
by the catalog."""

from __future__ import annotations

import re

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError
from carddb.engine.core.state import Event, Game, GameObject, StackItem
from carddb.engine.rules import mana
from carddb.engine.rules.echo import MANA, pay_or_sacrifice, upkeep_permanents
from carddb.engine.rules.life import lose_life
from carddb.oracle.model import Keyword, Kind

NAME = "cumulative upkeep"
AGE = "age"
_LIFE = re.compile(r"^Pay (\d+) life\.$")
_SYMBOL = re.compile(r"\{[^}]+\}")


def _cost(keyword: Keyword) -> tuple[tuple[str, ...], int] | None:
    """The cost once: its mana symbols, or the life it pays (None: a cost the engine does not pay)."""
    parameter = (keyword.parameter or "").strip()
    if not keyword.long_cost and MANA.match(parameter):
        return tuple(_SYMBOL.findall(parameter)), 0
    life = _LIFE.match(parameter) if keyword.long_cost else None
    return ((), int(life.group(1))) if life is not None else None


def costs(obj: GameObject) -> list[tuple[tuple[str, ...], int]]:
    """One cost for each cumulative upkeep the permanent has now (each triggers separately,
    702.24b): its card's, and one an effect gives it (Mana Chains: "Enchanted creature has
    'Cumulative upkeep {1}.'", layer 6)."""
    found = []
    for _, ability in obj.now.abilities:
        if ability.kind is Kind.KEYWORD:
            for keyword in ability.keywords:
                cost = _cost(keyword) if keyword.name.lower() == NAME else None
                if cost is not None:
                    found.append(cost)
    return found


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    if keyword.name.lower() != NAME or _cost(keyword) is None:
        return [f"keyword {keyword.name.lower()} {(keyword.parameter or '').strip()}".rstrip()]
    return []


def upkeep_triggers(game: Game, event: Event) -> list[StackItem]:
    return [
        StackItem(obj.id, obj.controller, index, [], rule=NAME)
        for obj in upkeep_permanents(game, event, lambda o: bool(costs(o)))
        for index in range(len(costs(obj)))
    ]


def resolve_cumulative_upkeep(game: Game, decider: Decider, item: StackItem) -> None:
    obj = game.objects.get(item.source)
    if obj is None or obj.zone != "battlefield":
        return  # "if this permanent is on the battlefield" (603.4)
    found = costs(obj)
    symbols, life = found[min(item.ability or 0, len(found) - 1)]
    obj.counters[AGE] = obj.counters.get(AGE, 0) + 1
    count = obj.counters[AGE]
    player = item.controller
    total = tuple(symbols) * count
    what = "".join(total) if symbols else f"{life * count} life"

    def pay() -> None:
        if symbols:
            mana.pay(game, player, total)
            return
        if game.players[player].life < life * count:  # 119.4: only with at least that much life
            raise CostError(f"{player} has only {game.players[player].life} life")
        lose_life(game, player, life * count)

    pay_or_sacrifice(game, decider, item, obj, f"cumulative upkeep {what}", pay)


SECTION = Section(
    "rules.cumulative_upkeep",
    keyword_checks={"cumulative": _keyword_problems},
    rule_abilities={NAME: resolve_cumulative_upkeep},
    rule_triggers=(upkeep_triggers,),
)
