"""Ward (702.21): "Whenever this permanent becomes the target of a spell or ability an opponent
controls, counter it unless that player pays [cost]." The cost is mana ("Ward {2}") or life
("Ward—Pay 3 life."); ward printed on the card and ward given by a static ability ("Enchanted
creature … has ward {1}", a Royal Role) both count, each instance triggering once.

:func:`ward_triggers` runs when a spell or ability is put on the stack with its targets: each
warded permanent among them, controlled by an opponent of that spell's or ability's controller,
triggers; the triggered ability goes on the stack above it (:func:`resolve_ward` resolves it: the
controller of the spell or ability may pay; if they do not, it is countered)."""

from __future__ import annotations

import re

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError
from carddb.engine.core.state import Game, GameObject, StackItem, Ward
from carddb.engine.query.abilities import keyword_list
from carddb.engine.rules import mana
from carddb.engine.rules.life import lose_life
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword, Kind

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\})+$")
_LIFE = re.compile(r"^pay (\d+) life\.?$", re.IGNORECASE)


def ward_cost(parameter: str) -> str | None:
    """The cost of "Ward {2}" ("{2}") or "Ward—Pay 3 life." ("3 life"); None: one the engine does
    not pay (discard a card, sacrifice…)."""
    parameter = parameter.strip().lstrip("—").strip()
    if _MANA.match(parameter):
        return parameter
    life = _LIFE.match(parameter)
    return f"{life.group(1)} life" if life else None


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    return [] if ward_cost(keyword.parameter or "") is not None else [f"keyword ward {keyword.parameter}"]


def known_granted(text: str) -> bool:
    """ "ward {1}" in running text ("… and has ward {1}")."""
    return text.startswith("ward ") and ward_cost(text.removeprefix("ward ")) is not None


def ward_costs(obj: GameObject) -> list[str]:
    """The cost of each ward ability the permanent has now: printed, then given by static abilities
    or until end of turn."""
    costs = [
        cost
        for _, ability in obj.now.abilities
        if ability.kind is Kind.KEYWORD
        for keyword in ability.keywords
        if keyword.name.lower() == "ward" and (cost := ward_cost(keyword.parameter or "")) is not None
    ]
    for text in obj.now.granted_keywords:
        for part in keyword_list(text):
            if known_granted(part):
                cost = ward_cost(part.removeprefix("ward "))
                if cost is not None:
                    costs.append(cost)
    return costs


def ward_triggers(game: Game, item: StackItem) -> list[StackItem]:
    """The ward abilities that trigger because ``item`` (just put on the stack) targets their
    permanents, each controlled by an opponent of ``item``'s controller."""
    found: list[StackItem] = []
    seen: set[int] = set()
    for refs in item.targets:
        for ref in refs:
            if not isinstance(ref, GameObject) or ref.zone != "battlefield" or ref.id in seen:
                continue
            seen.add(ref.id)
            if ref.controller == item.controller:
                continue
            for cost in ward_costs(ref):
                ward = Ward(item.source, item.ability, item.controller, cost)
                found.append(StackItem(ref.id, ref.controller, None, [], ward=ward))
    return found


def resolve_ward(game: Game, decider: Decider, item: StackItem) -> None:
    """Counter the spell or ability unless its controller pays the ward cost."""
    ward = item.ward
    assert ward is not None
    named = (ward.source, ward.ability, ward.controller)
    countered = next(
        (other for other in reversed(game.stack) if (other.source, other.ability, other.controller) == named),
        None,
    )
    if countered is None:
        return  # it has left the stack already
    payer = ward.controller
    if decider.choose(f"{payer}: pay {ward.cost} for ward?", ["yes", "no"]) == "yes":
        try:
            _pay(game, payer, ward.cost)
            game.log.append(f"{payer} pays {ward.cost} for ward")
            return
        except CostError as error:
            game.log.append(f"{payer} cannot pay for ward: {error}")
    game.stack.remove(countered)
    source = game.objects.get(countered.source)
    game.log.append(f"ward counters {source.name if source is not None else 'an ability'}")
    if countered.is_spell and source is not None:
        put(game, source, "graveyard", cause="countered", decider=decider)


def _pay(game: Game, player: str, cost: str) -> None:
    if cost.endswith(" life"):
        amount = int(cost.split()[0])
        if game.players[player].life < amount:
            raise CostError(f"{player} has only {game.players[player].life} life")
        lose_life(game, player, amount)
        return
    mana.pay(game, player, tuple(re.findall(r"\{[^}]+\}", cost)))


SECTION = Section(
    "rules.ward",
    keyword_checks={"ward": _keyword_problems},
    granted_keywords=(known_granted,),
)
