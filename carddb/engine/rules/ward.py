"""Ward (702.21): "Whenever this permanent becomes the target of a spell or ability an opponent
controls, counter it unless that player pays [cost]." The cost is mana ("Ward {2}"), mana with an
X said after it ("Ward {X}, where X is the number of experience counters you have."), life
("Ward—Pay 3 life.") or one cost phrase the cost rules pay ("Ward—Discard a card."); ward printed
on the card and ward given by a static ability ("Enchanted creature … has ward {1}", a Royal Role)
both count, each instance triggering once.

:func:`ward_triggers` runs when a spell or ability is put on the stack with its targets: each
warded permanent among them, controlled by an opponent of that spell's or ability's controller,
triggers; the triggered ability goes on the stack above it (:func:`resolve_ward` resolves it: the
controller of the spell or ability may pay; if they do not, or cannot, it is countered). An X is
determined as the ward ability resolves, not as it triggers (the seed ruling of 702.21), with
"you" its controller, the warded permanent's."""

from __future__ import annotations

import re

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import CostError
from carddb.engine.core.state import Game, GameObject, StackItem, Ward
from carddb.engine.query.abilities import keyword_list
from carddb.engine.query.executable import WHERE_X_VALUES
from carddb.engine.query.nouns import value
from carddb.engine.rules import mana
from carddb.engine.rules.costs import COST_PAYERS, pay_action
from carddb.engine.rules.life import lose_life
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action, Count, Keyword, Kind, Number, Pronoun, SelfRef, walk

_MANA = re.compile(r"^(?:\{[0-9WUBRGC]+\})+$")
_MANA_X = re.compile(r"^(?:\{[0-9WUBRGCX]+\})+$")
_LIFE = re.compile(r"^pay (\d+) life\.?$", re.IGNORECASE)


def ward_cost(parameter: str) -> str | None:
    """The cost of "Ward {2}" ("{2}") or "Ward—Pay 3 life." ("3 life"); None: one that is not
    mana or life (see :func:`ward_of`)."""
    parameter = parameter.strip().lstrip("—").strip()
    if _MANA.match(parameter):
        return parameter
    life = _LIFE.match(parameter)
    return f"{life.group(1)} life" if life else None


def ward_of(keyword: Keyword) -> tuple[str, Action | None, object] | None:
    """A printed ward keyword's cost: its text, the cost phrase to pay (None: mana or life) and
    the value of its X (None: no X); None when the engine cannot pay it."""
    parameter = (keyword.parameter or "").strip()
    if keyword.where_x is not None:
        readable = _x_readable(keyword.where_x)
        return (parameter, None, keyword.where_x) if readable and _MANA_X.match(parameter) else None
    if "X" in parameter:
        return None  # an X nothing says the value of
    cost = ward_cost(parameter)
    if cost is not None:
        return cost, None, None
    if not keyword.long_cost or len(keyword.cost) != 1:
        return None
    phrase = keyword.cost[0]
    if not isinstance(phrase, Action) or phrase.verb not in COST_PAYERS:
        return None
    if any(isinstance(node, SelfRef | Pronoun) for node in walk(phrase)):
        return None  # "~" or "it" in a cost another player pays: not read
    return parameter, phrase, None


def _x_readable(x: object) -> bool:
    """ "where X is the number of experience counters you have": a value read at any time."""
    if isinstance(x, Number):
        return True
    if isinstance(x, Count):
        return x.what == "cards in your hand"
    return isinstance(x, Action) and x.verb in WHERE_X_VALUES - {"the_result", "total_of_results"}


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    return [] if ward_of(keyword) is not None else [f"keyword ward {keyword.parameter}"]


def known_granted(text: str) -> bool:
    """ "ward {1}" in running text ("… and has ward {1}")."""
    return text.startswith("ward ") and ward_cost(text.removeprefix("ward ")) is not None


def ward_costs(obj: GameObject) -> list[tuple[str, Action | None, object]]:
    """The cost of each ward ability the permanent has now (:func:`ward_of`): printed, then given
    by static abilities or until end of turn."""
    costs = [
        cost
        for _, ability in obj.now.abilities
        if ability.kind is Kind.KEYWORD
        for keyword in ability.keywords
        if keyword.name.lower() == "ward" and (cost := ward_of(keyword)) is not None
    ]
    for text in obj.now.granted_keywords:
        for part in keyword_list(text):
            if known_granted(part):
                granted = ward_cost(part.removeprefix("ward "))
                if granted is not None:
                    costs.append((granted, None, None))
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
            for cost, phrase, x in ward_costs(ref):
                ward = Ward(item.source, item.ability, item.controller, cost, phrase, x)
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
    x: int | None = None
    warded = game.objects[item.source]
    if ward.x is not None:  # determined now, as the ward ability resolves
        x = value(Context(game, decider, item.controller, warded), ward.x)
        game.log.append(f"{warded.name}'s ward: X is {x}")
    shown = ward.cost if x is None else f"{ward.cost} (X = {x})"
    if ward.phrase is not None:  # "Discard a card." → "discard a card"
        shown = shown[:1].lower() + shown[1:].rstrip(".")
    if decider.choose(f"{payer}: pay {shown} for ward?", ["yes", "no"]) == "yes":
        try:
            if ward.phrase is not None:
                pay_action(game, decider, payer, warded, ward.phrase)
            else:
                _pay(game, payer, ward.cost, x)
            game.log.append(f"{payer} pays {shown} for ward")
            return
        except CostError as error:
            game.log.append(f"{payer} cannot pay for ward: {error}")
    game.stack.remove(countered)
    source = game.objects.get(countered.source)
    game.log.append(f"ward counters {source.name if source is not None else 'an ability'}")
    if countered.is_spell and source is not None:
        put(game, source, "graveyard", cause="countered", decider=decider)


def _pay(game: Game, player: str, cost: str, x: int | None) -> None:
    if cost.endswith(" life"):
        amount = int(cost.split()[0])
        if game.players[player].life < amount:
            raise CostError(f"{player} has only {game.players[player].life} life")
        lose_life(game, player, amount)
        return
    mana.pay(game, player, tuple(re.findall(r"\{[^}]+\}", cost)), x=x)


SECTION = Section(
    "rules.ward",
    keyword_checks={"ward": _keyword_problems},
    granted_keywords=(known_granted,),
)
