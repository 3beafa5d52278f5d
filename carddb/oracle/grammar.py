"""Loading the oracle grammar and turning its trees into the ability model."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, v_args

from carddb.oracle.model import (
    Action,
    Count,
    DiscardCost,
    ExileSelfCost,
    ManaCost,
    Number,
    ObjectPhrase,
    PayLifeCost,
    PlayerRef,
    Quantity,
    RollDie,
    SacrificeCost,
    SacrificeSelfCost,
    SelfRef,
    TapCost,
    Timing,
    UntapCost,
    Var,
    X,
)
from carddb.resources import grammars_dir

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@cache
def parser() -> Lark:
    """The LALR parser for costs, effects and trigger conditions (tables cached on disk)."""
    return Lark.open(
        str(grammars_dir() / "oracle" / "oracle.lark"),
        parser="lalr",
        strict=True,
        cache=True,
        start=["costs", "effects", "condition"],
    )


@v_args(inline=True)
class ToModel(Transformer[Token, Any]):
    """Tree → model values. Sentences become lists of steps; ``then`` marks a step joined to the
    previous one by ", then"."""

    # -- costs
    def costs(self, *items: Any) -> tuple[Any, ...]:
        return items

    def mana_cost(self, *symbols: Token) -> ManaCost:
        return ManaCost(tuple(str(s) for s in symbols))

    def tap_cost(self) -> TapCost:
        return TapCost()

    def untap_cost(self) -> UntapCost:
        return UntapCost()

    def exile_self_cost(self, _self: Token) -> ExileSelfCost:
        return ExileSelfCost()

    def sacrifice_self_cost(self, _self: Token) -> SacrificeSelfCost:
        return SacrificeSelfCost()

    def sacrifice_cost(self, what: str) -> SacrificeCost:
        return SacrificeCost(what)

    def discard_cost(self, what: str) -> DiscardCost:
        return DiscardCost(what)

    def pay_life_cost(self, amount: Quantity) -> PayLifeCost:
        return PayLifeCost(amount)

    def object(self, article: str, description: str) -> str:
        return f"{article} {description}"

    def article(self, token: Token) -> str:
        return str(token).lower()

    # -- quantities
    def number(self, token: Token) -> Number:
        return Number(int(token))

    def number_word(self, token: Token) -> Number:
        return Number(NUMBER_WORDS.index(str(token).lower()))

    def x(self) -> X:
        return X()

    def one(self) -> Number:
        return Number(1)

    def two(self) -> Number:
        return Number(2)

    def one_card(self) -> Number:
        return Number(1)

    def cards(self, amount: Quantity) -> Quantity:
        return amount

    def count_word(self, amount: Quantity) -> Quantity:
        return amount

    def cards_in_hand(self) -> str:
        return "cards in your hand"

    def description(self, token: Token) -> str:
        return str(token)

    def description_plural(self, token: Token) -> str:
        return str(token)

    def keyword_list(self, token: Token) -> str:
        return str(token)

    # -- players and objects
    def you(self) -> PlayerRef:
        return PlayerRef("you")

    def target_player(self) -> PlayerRef:
        return PlayerRef("target player")

    def target_opponent(self) -> PlayerRef:
        return PlayerRef("target opponent")

    def each_player(self) -> PlayerRef:
        return PlayerRef("each player")

    def each_opponent(self) -> PlayerRef:
        return PlayerRef("each opponent")

    def that_player(self) -> PlayerRef:
        return PlayerRef("that player")

    def self_ref(self, _self: Token) -> SelfRef:
        return SelfRef()

    def target_ref(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("target", description)

    def it_ref(self) -> ObjectPhrase:
        return ObjectPhrase("it")

    def that_ref(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("that", description)

    def enchanted_ref(self, noun: Token) -> ObjectPhrase:
        return ObjectPhrase("enchanted", str(noun))

    def equipped_ref(self, noun: Token) -> ObjectPhrase:
        return ObjectPhrase("equipped", str(noun))

    def all_ref(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("all", description)

    def each_ref(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("each", description)

    def yours_ref(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("yours", description)

    def target_player_or_planeswalker(self) -> ObjectPhrase:
        return ObjectPhrase("target", "player or planeswalker")

    def any_target(self) -> ObjectPhrase:
        return ObjectPhrase("target", "any")

    def target_recipient(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("target", description)

    def each_recipient(self, description: str) -> ObjectPhrase:
        return ObjectPhrase("each", description)

    def recipient(self, value: Any) -> Any:
        return value

    # -- sentences
    def effects(self, *sentences: list[Any]) -> list[Any]:
        return [step for sentence in sentences for step in sentence]

    def sentence(self, value: Any) -> list[Any]:
        return value if isinstance(value, list) else [value]

    def then(self, first: Any, second: Any) -> list[Any]:
        return [first, _then(second)]

    def sorcery_timing(self) -> Timing:
        return Timing.SORCERY

    def once_each_turn(self) -> Timing:
        return Timing.ONCE_EACH_TURN

    # -- actions
    def draw_you(self, amount: Quantity) -> Action:
        return Action("draw", (("player", PlayerRef("you")), ("amount", amount), ("explicit", False)))

    def draw_player(self, player: PlayerRef, amount: Quantity) -> Action:
        return Action("draw", (("player", player), ("amount", amount), ("explicit", True)))

    def scry(self, amount: Quantity) -> Action:
        return Action("scry", (("amount", amount),))

    def surveil(self, amount: Quantity) -> Action:
        return Action("surveil", (("amount", amount),))

    def mill_player(self, player: PlayerRef, amount: Quantity) -> Action:
        return Action("mill", (("player", player), ("amount", amount), ("explicit", True)))

    def mill_you(self, amount: Quantity) -> Action:
        return Action("mill", (("player", PlayerRef("you")), ("amount", amount), ("explicit", False)))

    def discard_player(self, player: PlayerRef, amount: Quantity) -> Action:
        return Action("discard", (("player", player), ("amount", amount), ("explicit", True)))

    def discard_you(self, amount: Quantity) -> Action:
        return Action("discard", (("player", PlayerRef("you")), ("amount", amount), ("explicit", False)))

    def gain_life(self, player: PlayerRef, amount: Quantity) -> Action:
        return Action("gain_life", (("player", player), ("amount", amount)))

    def lose_life(self, player: PlayerRef, amount: Quantity) -> Action:
        return Action("lose_life", (("player", player), ("amount", amount)))

    def damage(self, _self: Token, amount: Quantity, recipient: Any) -> Action:
        return Action("damage", (("source", SelfRef()), ("amount", amount), ("to", recipient)))

    def damage_by_it(self, amount: Quantity, recipient: Any) -> Action:
        return Action("damage", (("source", ObjectPhrase("it")), ("amount", amount), ("to", recipient)))

    def regenerate(self, what: Any) -> Action:
        return Action("regenerate", (("object", what),))

    def destroy(self, what: Any) -> Action:
        return Action("destroy", (("object", what),))

    def exile(self, what: Any) -> Action:
        return Action("exile", (("object", what),))

    def return_to_hand(self, what: Any) -> Action:
        return Action("return_to_hand", (("object", what),))

    def counter(self, what: Any) -> Action:
        return Action("counter", (("object", what),))

    def tap(self, what: Any) -> Action:
        return Action("tap", (("object", what),))

    def untap(self, what: Any) -> Action:
        return Action("untap", (("object", what),))

    def cloak(self) -> Action:
        return Action("cloak", (("what", "top card of your library"),))

    def pump_until_eot(self, what: Any, gets: Token, pt: Token) -> Action:
        return Action(
            "pump", (("object", what), ("gets", str(gets)), ("pt", str(pt)), ("duration", "end of turn"))
        )

    def gains_until_eot(self, what: Any, gains: Token, keywords: str) -> Action:
        return Action(
            "gain_keywords",
            (("object", what), ("gains", str(gains)), ("keywords", keywords), ("duration", "end of turn")),
        )

    def put_counter(self, amount: Quantity, kind: Token, what: Any) -> Action:
        return Action("put_counters", (("amount", amount), ("kind", str(kind)), ("object", what)))

    put_counters = put_counter

    def put_counters_result(self, kind: Token, what: Any) -> Action:
        return Action("put_counters", (("amount", Var("result")), ("kind", str(kind)), ("object", what)))

    def then_win_with_counters(self, number: Token, kind: Token, _self: Token) -> list[Any]:
        condition = Action(
            "counters_at_least", (("object", SelfRef()), ("kind", str(kind)), ("amount", Number(int(number))))
        )
        return [Action("win_the_game", (("player", PlayerRef("you")), ("if", condition)))]

    def extra_die_ignore_lowest(self) -> Action:
        return Action("replace_roll", (("extra_dice", Number(1)), ("ignore_lowest", True)))

    def add_mana(self, mana: ManaCost) -> Action:
        return Action("add_mana", (("mana", mana.symbols),))

    def add_mana_choice(self, choice: Token) -> Action:
        return Action("add_mana", (("choice", tuple(re.findall(r"\{[^{}\s]+\}", str(choice)))),))

    def add_any_color(self) -> Action:
        return Action("add_mana", (("any_color", 1),))

    def roll(self, count: Number, die: Token) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value)

    def roll_plus(self, count: Number, die: Token, what: str) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value, modifier=Count(what))

    def roll_ignore_lower(self, count: Number, die: Token) -> RollDie:
        return RollDie(sides=int(str(die)[1:]), count=count.value, ignore_lower=True)

    def beneath_top(self, what: Any, amount: Quantity) -> Action:
        position = Var("result") if isinstance(amount, X) else amount
        return Action(
            "put_into_library", (("object", what), ("beneath_top", position), ("where_x", "result"))
        )

    # -- statics
    def enters_tapped(self, _self: Token) -> Action:
        return Action("enters_tapped", (("object", SelfRef()),))

    def cant_block(self, _self: Token) -> Action:
        return Action("cant_block", (("object", SelfRef()),))

    def cant_be_blocked(self, _self: Token) -> Action:
        return Action("cant_be_blocked", (("object", SelfRef()),))

    def cant_be_countered(self, _self: Token) -> Action:
        return Action("cant_be_countered", (("object", SelfRef()),))

    def attacks_each_combat(self, _self: Token) -> Action:
        return Action("attacks_each_combat", (("object", SelfRef()),))

    def anthem(self, what: Any, gets: Token, pt: Token) -> Action:
        return Action("anthem", (("object", what), ("gets", str(gets)), ("pt", str(pt))))

    def anthem_with_keywords(self, what: Any, gets: Token, pt: Token, keywords: str) -> Action:
        return Action(
            "anthem", (("object", what), ("gets", str(gets)), ("pt", str(pt)), ("keywords", keywords))
        )

    def grant_keywords(self, what: Any, have: Token, keywords: str) -> Action:
        return Action("grant_keywords", (("object", what), ("have", str(have)), ("keywords", keywords)))

    # -- trigger conditions
    def self_enters(self, _self: Token) -> str:
        return "~ enters the battlefield"

    def self_dies(self, _self: Token) -> str:
        return "~ dies"

    def you_roll_dice(self) -> str:
        return "you roll one or more dice"

    def you_roll_die(self) -> str:
        return "you roll a die"

    def you_cast_spell(self) -> str:
        return "you cast a spell"

    def your_upkeep(self) -> str:
        return "the beginning of your upkeep"

    def your_end_step(self) -> str:
        return "the beginning of your end step"

    def each_upkeep(self) -> str:
        return "the beginning of each upkeep"

    def each_end_step(self) -> str:
        return "the beginning of each end step"


def _then(step: Any) -> Any:
    if isinstance(step, Action):
        return Action(step.verb, (*step.args, ("then", True)))
    return step
