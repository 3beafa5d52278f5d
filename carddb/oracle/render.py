"""Printing abilities back as canonical oracle text (the normalized form, ``~`` for the card).

The corpus gate is ``render(parse(text)) == normalize(text)``: a face counts as parsed only when
its abilities print back exactly as the text they came from. Phrases print with the very template
of the phrase table they were parsed by (:func:`carddb.oracle.phrases.template`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Sequence as Seq

from carddb.oracle.keywords import render_keyword_line
from carddb.oracle.model import (
    NUMBER_WORDS,
    ROMAN_NUMERALS,
    Ability,
    Action,
    Clause,
    Conditional,
    CostItem,
    Count,
    Energy,
    Kind,
    ManaCost,
    Noun,
    Nouns,
    Number,
    Pronoun,
    RollDie,
    SameSubject,
    SelfRef,
    Sequence,
    Step,
    TapCost,
    Unimplemented,
    UntapCost,
    Var,
    X,
)
from carddb.oracle.phrases import Slot, template


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def quantity(value: object) -> str:
    """A number as digits (damage, life, scry): ``3``, ``X``."""
    if isinstance(value, Number):
        return str(value.value)
    if isinstance(value, X | Var):
        return "X"
    if isinstance(value, Count):
        return f"the number of {value.what}"
    raise ValueError(f"not a quantity: {value!r}")


def in_words(value: object) -> str:
    """A number as the text wrote it in words: ``a``, ``two``, ``X``."""
    if isinstance(value, Number):
        if value.word is not None:
            return value.word
        return NUMBER_WORDS[value.value] if value.value < len(NUMBER_WORDS) else str(value.value)
    return quantity(value)


def noun_phrase(value: object) -> str:
    if isinstance(value, SelfRef):
        return join_words(("~", *(action(qualifier) for qualifier in value.qualifiers)))
    if isinstance(value, Pronoun):
        return value.word
    if isinstance(value, Noun):
        words = [*value.determiners, value.description]
        written = value.qualifiers[:-1] if value.zone_shared else value.qualifiers  # written later
        words.extend(action(qualifier) for qualifier in written)
        return " ".join(words)
    if isinstance(value, SameSubject):
        return ""
    if isinstance(value, Nouns):
        text = noun_phrase(value.items[0])
        for join, item in zip(value.joins, value.items[1:], strict=True):
            text += join + noun_phrase(item)
        return join_words((text, *(action(qualifier) for qualifier in value.qualifiers)))
    if isinstance(value, Action):
        return action(value)
    raise ValueError(f"not a noun phrase: {value!r}")


def _slot(slot: Slot, value: object) -> str:
    kind = slot.type
    if kind in ("np", "lone_np"):
        return noun_phrase(value)
    if kind == "n":
        return quantity(value)
    if kind == "nw":
        return in_words(value)
    if kind == "both":
        assert isinstance(value, tuple)
        return " and ".join(noun_phrase(item) for item in value)
    if kind == "die":
        return f"d{value}"
    if kind == "mana":
        assert isinstance(value, ManaCost)
        return "".join(value.symbols)
    if kind == "energy":
        assert isinstance(value, Energy)
        return "{E}" * value.count
    if kind == "pred" and isinstance(value, Clause | Sequence):  # "… rather than pay ~'s mana cost"
        return step(value)
    if kind == "and_life":
        return f"and {quantity(value)} life"
    if kind == "and_quoted":
        return "and " + _slot(Slot(slot.role, "quoted"), value)
    if kind == "quoted":
        if isinstance(value, Ability):
            return f'"{render_ability(value)}"'
        return f'"{value}"'
    if isinstance(value, Action):
        return action(value)
    return str(value)


def action(value: Action) -> str:
    """A phrase printed with the form of its table entry it was written in."""
    frame = _FRAME.get(value.verb)
    if frame is not None:
        return frame(value)
    form = template(value.verb, value.form)
    args = dict(value.args)
    return join_words(_slot(part, args[part.role]) if isinstance(part, Slot) else part for part in form.parts)


def join_words(pieces: Iterable[str]) -> str:
    """Words with single spaces, none before a comma or a possessive ``'s``."""
    text = ""
    for piece in pieces:
        text += piece if not text or piece == "," or piece.startswith("'") else " " + piece
    return text


def _counters(value: Action) -> str:
    amount = value.arg("amount")
    determiner = value.arg("determiner")
    if determiner is not None:
        return f"{determiner} {value.arg('kind')}"
    if amount is None:
        return f"a number of {value.arg('kind')}"
    return f"{in_words(amount)} {value.arg('kind')}"


def _cards(amount: object) -> str:
    if isinstance(amount, Number) and amount.value == 1 and amount.word is None:
        return "card"
    return f"{in_words(amount)} cards"


def _listed(value: Action) -> str:
    """A token_list, placements or counters_list: the items with the joins written between them."""
    items = value.arg("items")
    joins = value.arg("joins")
    assert isinstance(items, tuple) and isinstance(joins, tuple)
    text = _item(items[0])
    for join, item in zip(joins, items[1:], strict=True):
        text += str(join) + _item(item)
    return text


def _item(value: object) -> str:
    item = _action(value)
    if item.verb == "token_item":
        return f"{in_words(item.arg('amount'))} {item.arg('pt')} {noun_phrase(item.arg('what'))}"
    if item.verb == "placement":
        return f"{_counters(_action(item.arg('counters')))} on {noun_phrase(item.arg('what'))}"
    return action(item)


_FRAME: dict[str, Callable[[Action], str]] = {
    "counters": _counters,
    "zone": lambda a: f"{a.arg('owner')} {a.arg('zone')}",
    "each": lambda a: f"each {step(a.arg('action'))}",
    "zones": lambda a: f"{a.arg('owner')} {a.arg('zones')}",
    "card_names": lambda a: f" {a.arg('join')} ".join(_names(a)),
    "top_cards": lambda a: f"the top {_cards(a.arg('amount'))} of {action(_action(a.arg('zone')))}",
    "bottom_cards": lambda a: f"the bottom {_cards(a.arg('amount'))} of {action(_action(a.arg('zone')))}",
    "either": lambda a: f"{step(a.arg('first'))} or {step(a.arg('second'))}",
    "for_as_long_as": lambda a: f"for as long as {step(a.arg('condition'))}",
    "protection_choice": lambda a: "protection from " + " or from ".join(_strings(a.arg("qualities"))),
    "number_of": lambda a: f"the number of {noun_phrase(a.arg('what'))}",
    "stat_of": lambda a: join_words((str(a.arg("owner")), str(a.arg("stat")))),
    "the_result": lambda a: "the result",
    "counters_on": lambda a: f"{a.arg('kind')} on {noun_phrase(a.arg('what'))}",
    "times": lambda a: f"time {step(a.arg('condition'))}",
    "at_random": lambda a: "at random",
    "during_this_turn": lambda a: f"{step(a.arg('condition'))} this turn",
    "x_means": lambda a: f"X is {step(a.arg('value'))}",
    "part_of": lambda a: f"{_part(a)} {noun_phrase(a.arg('of'))}",
    "token_list": _listed,
    "cost_and": lambda a: f"{action(_action(a.arg('first')))} and {action(_action(a.arg('second')))}",
    "placements": _listed,
    "counters_list": _listed,
}
"""Frame-grammar values that print without a phrase-table template (slot spacing in _slot)."""


def _strings(value: object) -> tuple[str, ...]:
    assert isinstance(value, tuple)
    return tuple(str(item) for item in value)


def _names(value: Action) -> tuple[str, ...]:
    names = value.arg("names")
    assert isinstance(names, tuple)
    return tuple(str(name) for name in names)


def _part(value: Action) -> str:
    """How many of a group: "two of" (them), "any number of"."""
    determiner = value.arg("determiner")
    return str(determiner) if determiner is not None else f"{in_words(value.arg('amount'))} of"


def _action(value: object) -> Action:
    assert isinstance(value, Action)
    return value


def _duration(value: object) -> str:
    return action(value) if isinstance(value, Action) else str(value)


def render_roll(roll: RollDie) -> str:
    dice = "a" if roll.count == 1 else NUMBER_WORDS[roll.count]
    text = f"roll {dice} d{roll.sides}"
    if isinstance(roll.modifier, Count):
        text += f" and add the number of {roll.modifier.what}"
    if roll.ignore_lower:
        text += " and ignore the lower roll"
    return text


def step(value: object) -> str:
    """A step (or a condition) as running text, not capitalized, without its period."""
    if isinstance(value, Clause):
        text = "" if value.subject is None else noun_phrase(value.subject)
        for index, predicate in enumerate(value.predicates):
            words = step(predicate)
            text = join_words((text, words)) if index == 0 else text + value.joins[index - 1] + words
            if value.duration is not None and value.duration_after == index + 1:
                text += " " + _duration(value.duration)
        if value.duration is not None and value.duration_after is None and not value.duration_in_phrase:
            text += " " + _duration(value.duration)
        if value.for_each is not None:
            text += " for each " + noun_phrase(value.for_each)  # a counter phrase prints itself
        return text
    if isinstance(value, Sequence):
        text = step(value.steps[0])
        for join, item in zip(value.joins, value.steps[1:], strict=True):
            text += join + step(item)
        return text
    if isinstance(value, Conditional):
        return _conditional(value)
    if isinstance(value, RollDie):
        return render_roll(value)
    if isinstance(value, Unimplemented):
        return value.text
    if isinstance(value, Action):
        return action(value)
    raise ValueError(f"not a step: {value!r}")


def _conditional(value: Conditional) -> str:
    body = step(value.body)
    if value.word == "may":  # "you may search …, then shuffle"
        return f"{noun_phrase(value.condition)} may {body}"
    if value.condition is None:
        separator = " " if value.word == "then" else ", "
        return f"{value.word}{separator}{body}"
    if value.word == "for each":
        return f"for each {noun_phrase(value.condition)}, {body}"
    if value.after:
        comma = "," if value.word in ("where X is", "except") else ""
        return f"{body}{comma} {value.word} {step(value.condition)}"
    return f"{value.word} {step(value.condition)}, {body}"


def render_steps(steps: Seq[Step], restrictions: Seq[Action] = (), *, first: bool = True) -> str:
    """Steps as sentences, each ending with a period and capitalized (the first one only if
    ``first``: the body of a triggered ability goes on after its condition); unimplemented text as
    it was."""
    sentences = [
        item.text if isinstance(item, Unimplemented) else _sentence(step(item), first or index > 0)
        for index, item in enumerate((*steps, *restrictions))
    ]
    return " ".join(sentences)


def _sentence(text: str, capital: bool) -> str:
    """A sentence with its period, unless it ends with a quoted ability's own (``has "… {C}."``)."""
    return (capitalize(text) if capital else text) + ("" if text.endswith('."') else ".")


def render_cost(item: CostItem) -> str:
    if isinstance(item, ManaCost):
        return "".join(item.symbols)
    if isinstance(item, TapCost):
        return "{T}"
    if isinstance(item, UntapCost):
        return "{Q}"
    return capitalize(action(item))


def render_table(steps: Seq[Step]) -> list[str]:
    lines: list[str] = []
    for item in steps:
        if isinstance(item, RollDie):
            for row in item.table:
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
        return prefix + _keyword_line(ability)
    if ability.kind is Kind.LEVEL:
        if ability.pt is not None:
            return ability.pt
        if ability.cost:
            return f"{render_cost(ability.cost[0])}: Level {ability.level}"
        return f"LEVEL {ability.level}"
    trigger = ability.kind is Kind.TRIGGERED
    effects = ability.effects
    if ability.intervening_if is not None and effects:  # 603.4: "When …, if …, …"
        effects = (Conditional("if", ability.intervening_if, effects[0]), *effects[1:])
    body = render_steps(effects, ability.restrictions, first=not trigger)
    if ability.choose is not None:
        header = ability.choose if ability.choose.endswith(".") else f"{ability.choose} —"
        if ability.effects or ability.restrictions:  # "Choose three. You may choose the same mode …"
            header += " " + render_steps(ability.effects, ability.restrictions)
        lines = [header] + [f"• {render_steps(mode.effects)}" for mode in ability.modes]
        body = "\n".join(lines)
    if ability.kind in (Kind.ACTIVATED, Kind.MANA):
        head = ", ".join(render_cost(item) for item in ability.cost)
        text = f"{head}: {body}"
    elif ability.kind is Kind.LOYALTY:
        text = f"{ability.loyalty}: {body}"
    elif ability.kind is Kind.CHAPTER:
        text = ", ".join(ROMAN_NUMERALS[chapter - 1] for chapter in ability.chapters) + f" — {body}"
    elif ability.kind is Kind.TRIGGERED:
        text = f"{ability.trigger_word} {step(ability.trigger)}, {body}"
    else:
        text = body
    return "\n".join([prefix + text, *render_table(ability.effects)])


def _keyword_line(ability: Ability) -> str:
    """A keyword line, in its separator and case, with its period and the sentences after it."""
    text = render_keyword_line(ability.keywords, separator=ability.keyword_separator)
    if ability.keywords and ability.keywords[-1].where_x is not None:  # "Ward {X}, where X is …"
        text += f", where X is {step(ability.keywords[-1].where_x)}"
    if ability.keyword_lowercase:
        text = text[:1].lower() + text[1:]
    if ability.keyword_period:
        text += "."
    if ability.effects or ability.restrictions:
        text += " " + render_steps(ability.effects, ability.restrictions)
    return text


def render(abilities: Seq[Ability]) -> str:
    """The canonical oracle text of a face's abilities, one line per ability (plus its modes and
    die-result rows)."""
    return "\n".join(render_ability(ability) for ability in abilities)
