"""Printing abilities back as canonical oracle text (the normalized form, ``~`` for the card).

The corpus gate is ``render(parse(text)) == normalize(text)``: a face counts as parsed only when
its abilities print back exactly as the text they came from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from carddb.oracle.grammar import NUMBER_WORDS
from carddb.oracle.keywords import render_keyword_line
from carddb.oracle.model import (
    Ability,
    Action,
    CostItem,
    Count,
    DiscardCost,
    ExileSelfCost,
    Kind,
    ManaCost,
    Number,
    ObjectPhrase,
    PayLifeCost,
    PlayerRef,
    RollDie,
    SacrificeCost,
    SacrificeSelfCost,
    SelfRef,
    Step,
    TapCost,
    Timing,
    Unimplemented,
    UntapCost,
    Var,
    X,
)

RESTRICTIONS = {
    Timing.SORCERY: "Activate only as a sorcery.",
    Timing.ONCE_EACH_TURN: "Activate only once each turn.",
}


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def lowercase(text: str) -> str:
    return text[:1].lower() + text[1:]


def quantity(value: object) -> str:
    """A number as digits (damage, life, scry): ``3``, ``X``."""
    if isinstance(value, Number):
        return str(value.value)
    if isinstance(value, X | Var):
        return "X"
    if isinstance(value, Count):
        return f"the number of {value.what}"
    raise ValueError(f"not a quantity: {value!r}")


def cards(value: object) -> str:
    """A number of cards in words: ``a card``, ``two cards``, ``X cards``."""
    if isinstance(value, Number):
        if value.value == 1:
            return "a card"
        word = NUMBER_WORDS[value.value] if value.value < len(NUMBER_WORDS) else str(value.value)
        return f"{word} cards"
    return f"{quantity(value)} cards"


def counted(value: object, noun: str) -> str:
    """``a +1/+1 counter``, ``two +1/+1 counters``, ``a number of luck counters``."""
    if isinstance(value, Var):
        return f"a number of {noun}s"
    if isinstance(value, Number):
        if value.value == 1:
            return f"a {noun}"
        word = NUMBER_WORDS[value.value] if value.value < len(NUMBER_WORDS) else str(value.value)
        return f"{word} {noun}s"
    return f"{quantity(value)} {noun}s"


def obj(value: object) -> str:
    if isinstance(value, SelfRef):
        return "~"
    if isinstance(value, PlayerRef):
        return value.who
    if isinstance(value, ObjectPhrase):
        if value.kind == "target":
            return "any target" if value.description == "any" else f"target {value.description}"
        if value.kind == "it":
            return "it"
        if value.kind == "yours":
            return f"{value.description} you control"
        return f"{value.kind} {value.description}"
    raise ValueError(f"not an object: {value!r}")


def _player_verb(player: object, verb: str, third_person: str) -> str:
    who = obj(player)
    return f"{who} {verb if who == 'you' else third_person}"


def _draw_like(verb: str, third: str) -> Callable[[Action], str]:
    def render(action: Action) -> str:
        amount = cards(action.arg("amount"))
        if action.arg("explicit"):
            return f"{_player_verb(action.arg('player'), verb, third)} {amount}"
        return f"{verb} {amount}"

    return render


def _life(verb: str, third: str) -> Callable[[Action], str]:
    def render(action: Action) -> str:
        return f"{_player_verb(action.arg('player'), verb, third)} {quantity(action.arg('amount'))} life"

    return render


def _object_verb(verb: str, suffix: str = "") -> Callable[[Action], str]:
    def render(action: Action) -> str:
        return f"{verb} {obj(action.arg('object'))}{suffix}"

    return render


def _static(phrase: str) -> Callable[[Action], str]:
    def render(action: Action) -> str:
        return f"{obj(action.arg('object'))} {phrase}"

    return render


def _add_mana(action: Action) -> str:
    if action.arg("any_color"):
        return "add one mana of any color"
    choice = action.arg("choice")
    if isinstance(choice, tuple):
        if len(choice) == 2:
            return f"add {choice[0]} or {choice[1]}"
        return "add " + ", ".join(choice[:-1]) + f", or {choice[-1]}"
    symbols = action.arg("mana")
    assert isinstance(symbols, tuple)
    return "add " + "".join(symbols)


def _anthem(action: Action) -> str:
    text = f"{obj(action.arg('object'))} {action.arg('gets')} {action.arg('pt')}"
    keywords = action.arg("keywords")
    return f"{text} and has {keywords}" if keywords else text


VERBS: dict[str, Callable[[Action], str]] = {
    "draw": _draw_like("draw", "draws"),
    "mill": _draw_like("mill", "mills"),
    "discard": _draw_like("discard", "discards"),
    "scry": lambda a: f"scry {quantity(a.arg('amount'))}",
    "surveil": lambda a: f"surveil {quantity(a.arg('amount'))}",
    "gain_life": _life("gain", "gains"),
    "lose_life": _life("lose", "loses"),
    "damage": lambda a: (
        f"{obj(a.arg('source'))} deals {quantity(a.arg('amount'))} damage to {obj(a.arg('to'))}"
    ),
    "regenerate": _object_verb("regenerate"),
    "gain_keywords": lambda a: (
        f"{obj(a.arg('object'))} {a.arg('gains')} {a.arg('keywords')} until end of turn"
    ),
    "destroy": _object_verb("destroy"),
    "exile": _object_verb("exile"),
    "return_to_hand": _object_verb("return", " to its owner's hand"),
    "counter": _object_verb("counter"),
    "tap": _object_verb("tap"),
    "untap": _object_verb("untap"),
    "cloak": lambda a: "cloak the top card of your library",
    "pump": lambda a: f"{obj(a.arg('object'))} {a.arg('gets')} {a.arg('pt')} until end of turn",
    "put_counters": lambda a: (
        f"put {counted(a.arg('amount'), str(a.arg('kind')) + ' counter')} on {obj(a.arg('object'))}"
        + (" equal to the result" if isinstance(a.arg("amount"), Var) else "")
    ),
    "add_mana": _add_mana,
    "put_into_library": lambda a: (
        f"put {obj(a.arg('object'))} into its owner's library just beneath the top X cards of that library, "
        "where X is the result"
    ),
    "enters_tapped": _static("enters the battlefield tapped"),
    "cant_block": _static("can't block"),
    "cant_be_blocked": _static("can't be blocked"),
    "cant_be_countered": _static("can't be countered"),
    "attacks_each_combat": _static("attacks each combat if able"),
    "anthem": _anthem,
    "win_the_game": lambda a: (
        f"then if there are {quantity(_arg(a.arg('if'), 'amount'))} or more "
        f"{_arg(a.arg('if'), 'kind')} counters on ~, you win the game"
    ),
    "replace_roll": lambda a: (
        "if you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll"
    ),
    "grant_keywords": lambda a: f"{obj(a.arg('object'))} {a.arg('have')} {a.arg('keywords')}",
}
"""One renderer per verb: the closed vocabulary of actions the grammar produces."""


def _arg(action: object, name: str) -> object:
    assert isinstance(action, Action)
    return action.arg(name)


def render_roll(roll: RollDie) -> str:
    dice = "a" if roll.count == 1 else NUMBER_WORDS[roll.count]
    text = f"roll {dice} d{roll.sides}"
    if isinstance(roll.modifier, Count):
        text += f" and add the number of {roll.modifier.what}"
    if roll.ignore_lower:
        text += " and ignore the lower roll"
    return text


def render_step(step: Step) -> str:
    if isinstance(step, RollDie):
        return render_roll(step)
    if isinstance(step, Unimplemented):
        return step.text
    return VERBS[step.verb](step)


def render_steps(steps: Sequence[Step], restrictions: Sequence[Timing] = ()) -> str:
    """Steps as sentences: each ends with a period; a step marked ``then`` joins the previous
    sentence with ", then"."""
    text = ""
    for step in steps:
        if isinstance(step, Unimplemented):
            text += (" " if text else "") + step.text
        elif isinstance(step, Action) and step.arg("then") and text.endswith("."):
            text = text[:-1] + ", then " + lowercase(render_step(step)) + "."
        else:
            text += (" " if text else "") + capitalize(render_step(step)) + "."
    for restriction in restrictions:
        text += (" " if text else "") + RESTRICTIONS[restriction]
    return text


def render_cost(item: CostItem) -> str:
    if isinstance(item, ManaCost):
        return "".join(item.symbols)
    if isinstance(item, TapCost):
        return "{T}"
    if isinstance(item, UntapCost):
        return "{Q}"
    if isinstance(item, ExileSelfCost):
        return "Exile ~"
    if isinstance(item, SacrificeSelfCost):
        return "Sacrifice ~"
    if isinstance(item, SacrificeCost):
        return f"Sacrifice {item.what}"
    if isinstance(item, DiscardCost):
        return f"Discard {item.what}"
    if isinstance(item, PayLifeCost):
        return f"Pay {quantity(item.amount)} life"
    raise ValueError(f"unknown cost {item!r}")


def render_table(steps: Sequence[Step]) -> list[str]:
    lines: list[str] = []
    for step in steps:
        if isinstance(step, RollDie):
            for row in step.table:
                if row.open_ended:
                    label = f"{row.low}+"
                elif row.high is None or row.high == row.low:
                    label = str(row.low)
                else:
                    label = f"{row.low}—{row.high}"
                lines.append(f"{label} | {render_steps(row.effects)}")
    return lines


def render_ability(ability: Ability) -> str:
    if ability.kind is Kind.UNKNOWN or (ability.unparsed and not ability.effects and not ability.keywords):
        return " ".join(node.text for node in ability.unparsed)
    prefix = f"{ability.ability_word} — " if ability.ability_word else ""
    if ability.kind is Kind.KEYWORD:
        return prefix + render_keyword_line(ability.keywords)
    body = render_steps(ability.effects, ability.restrictions)
    if ability.choose is not None:
        lines = [f"{ability.choose} —"] + [f"• {render_steps(mode.effects)}" for mode in ability.modes]
        body = "\n".join(lines)
    if ability.kind in (Kind.ACTIVATED, Kind.MANA):
        head = ", ".join(render_cost(item) for item in ability.cost)
        text = f"{head}: {body}"
    elif ability.kind is Kind.LOYALTY:
        text = f"{ability.loyalty}: {body}"
    elif ability.kind is Kind.TRIGGERED:
        text = f"{ability.trigger_word} {ability.trigger}, {lowercase(body)}"
    else:
        text = body
    return "\n".join([prefix + text, *render_table(ability.effects)])


def render(abilities: Sequence[Ability]) -> str:
    """The canonical oracle text of a face's abilities, one line per ability (plus its modes and
    die-result rows)."""
    return "\n".join(render_ability(ability) for ability in abilities)
