"""Parsing a face's oracle text: normalize, find each line's shape, parse its parts with the
grammar, and keep whatever is not understood as :class:`~carddb.oracle.model.Unimplemented`.

Line shapes, tried in order: die-result rows (``1—14 | …``) and modes (``• …``) attach to the line
before them; keyword lines (the keyword table); loyalty (``+1: …``); ability words
(``Grant an Advantage — …``); triggered (``When/Whenever/At …, …``); activated (``cost: effect``);
modal headers (``Choose one —``); then sentences (spell or static abilities).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from lark.exceptions import UnexpectedInput

from carddb.oracle.grammar import parser, set_quoted_parser, vocabulary
from carddb.oracle.keywords import parse_keyword_line
from carddb.oracle.model import (
    Ability,
    Action,
    CostItem,
    Kind,
    Mode,
    Noun,
    ParsedFace,
    Pronoun,
    RollDie,
    Span,
    Step,
    TableRow,
    TargetSlot,
    Unimplemented,
    walk,
)
from carddb.oracle.normalize import normalize_oracle
from carddb.oracle.phrases import find
from carddb.oracle.render import render

_TABLE_ROW = re.compile(r"^(\d+)(?:—(\d+)|(\+))? \| (.+)$")
_LOYALTY = re.compile(r"^(\[[+-]?(?:\d+|X)\]|[+-]?(?:\d+|X)): (.+)$")
_TRIGGER = re.compile(r"^(When|Whenever|At) (.+)$")
_ABILITY_WORD = re.compile(r"^([A-Z][^—:•|]{1,40}?) — (.+)$")
_CHOOSE = re.compile(
    r"^([Cc]hoose (?:one|two|three|four|five|one or both|one or more|any number|up to (?:one|two|three|four)"
    r"|one or two|one that hasn't been chosen|one that hasn't been chosen this turn"
    r"|one\. You may choose the same mode more than once"
    r"|one or more\. Each mode must target a different player)) —$"
)
_SENTENCE_END = re.compile(r'(?:(?<=[.!?])|(?<=[.!?]"))\s+(?=[A-Z~"{])')
_QUOTE_ENDS_SENTENCE = re.compile(r'\."(?=\s+[A-Z~"{]|$)')
_CLASS_LEVEL = re.compile(r"^((?:\{[^{}]+\})+): Level (\d+)$")
_LEVEL_BRACKET = re.compile(r"^LEVEL (\d+(?:-\d+|\+))$")
_PT_LINE = re.compile(r"^(\d+|\*)/(\d+|\*)$")
_FIRST_WORD = re.compile(r"(^|[.!?] )([A-Z][a-z'-]*)")


def _lower_first_words(text: str, first: re.Pattern[str] = _FIRST_WORD) -> str:
    """A sentence's first word loses its capital when the grammar knows it in lowercase ("Draw",
    "Target", "Creatures"), not when it is a subtype or a name ("Goblins", "Urza"); the renderer
    capitalizes sentences again."""
    words = vocabulary()

    def lower(match: re.Match[str]) -> str:
        word = match.group(2)
        return match.group(1) + (word.lower() if word.lower() in words else word)

    parts = text.split('"')
    parts[0::2] = [first.sub(lower, part) for part in parts[0::2]]
    return '"'.join(parts)


_COST_ITEM = re.compile(r"(^|, )([A-Z][a-z'-]*)")


def _parse(text: str, start: str) -> Any:
    """Parse with the grammar, whose words are lowercase: a sentence's (or a cost's) capital is
    dropped first."""
    text = _lower_first_words(text, _COST_ITEM if start == "costs" else _FIRST_WORD)
    if start == "effects":
        # a sentence that ends with a quoted ability ends with the quote's period
        text = _QUOTE_ENDS_SENTENCE.sub('.".', text)
    return parser().parse(text, start=start)


def sentences(text: str) -> list[tuple[int, str]]:
    """The sentences of ``text`` with their offsets; a period inside quoted text ends no sentence."""
    found: list[tuple[int, str]] = []
    start = 0
    quotes = 0
    counted = 0
    for match in _SENTENCE_END.finditer(text):
        quotes += text.count('"', counted, match.start())
        counted = match.start()
        if quotes % 2 == 0:
            found.append((start, text[start : match.start()]))
            start = match.end()
    found.append((start, text[start:]))
    return found


def parse_effects(text: str, offset: int) -> tuple[list[Step], list[Action]]:
    """Sentences into steps (one per sentence) and restrictions; a sentence the grammar rejects
    is Unimplemented."""
    items: list[Any] = []
    for start, sentence in sentences(text):
        try:
            items.extend(_parse(sentence, "effects"))
        except UnexpectedInput:
            items.append(Unimplemented(sentence, Span(offset + start, offset + start + len(sentence))))
    steps = [item for item in items if not _is_restriction(item)]
    restrictions = [item for item in items if _is_restriction(item)]
    return steps, restrictions


def _is_restriction(item: object) -> bool:
    form = find(item.verb, item.form) if isinstance(item, Action) else None
    return form is not None and form.family == "restriction"


def _targets(steps: list[Step]) -> tuple[TargetSlot, ...]:
    slots: list[TargetSlot] = []
    for step in steps:
        for node in walk(step):
            if isinstance(node, Noun) and node.targeted:
                slots.append(TargetSlot(len(slots) + 1, node.description))
            elif isinstance(node, Pronoun) and node.word == "any target":
                slots.append(TargetSlot(len(slots) + 1, "any target"))
    return tuple(reversed(slots))


def _is_replacement(steps: list[Step]) -> bool:
    for step in steps:
        for node in walk(step):
            form = find(node.verb, node.form) if isinstance(node, Action) else None
            # "If you would roll …, instead …": a condition about what would happen (a
            # prevention effect's "damage that would be dealt" is no replacement ability)
            if form is not None and form.family == "cond" and " would " in f" {form.text} ":
                return True
    return False


def _line_ability(line: str, start: int, spell: bool) -> Ability:
    """One line of text (not a table row or mode) as an ability."""
    span = Span(start, start + len(line))

    def unknown(kind: Kind = Kind.UNKNOWN) -> Ability:
        return Ability(kind, span, unparsed=(Unimplemented(line, span),))

    keywords = parse_keyword_line(line)
    if keywords is not None:
        return Ability(Kind.KEYWORD, span, keywords=keywords)
    match = _CLASS_LEVEL.match(line)
    if match:
        return Ability(Kind.LEVEL, span, cost=tuple(_parse(match.group(1), "costs")), level=match.group(2))
    match = _LEVEL_BRACKET.match(line)
    if match:
        return Ability(Kind.LEVEL, span, level=match.group(1))
    if _PT_LINE.match(line):
        return Ability(Kind.LEVEL, span, pt=line)
    match = _CHOOSE.match(line)
    if match:
        return Ability(Kind.SPELL if spell else Kind.STATIC, span, choose=match.group(1))
    match = _LOYALTY.match(line)
    if match:
        return Ability(
            Kind.LOYALTY, span, loyalty=match.group(1), **_body(match.group(2), start + match.start(2))
        )
    match = _TRIGGER.match(line)
    if match:
        return _triggered(line, match.group(1), match.group(2), start, span) or unknown(Kind.TRIGGERED)
    match = _ABILITY_WORD.match(line)
    if match and ":" not in match.group(1):
        inner = _line_ability(match.group(2), start + match.start(2), spell)
        return replace(inner, span=span, ability_word=match.group(1))
    colon = _cost_colon(line)
    if colon is not None:
        head, body = line[:colon], line[colon + 2 :]
        try:
            cost: tuple[CostItem, ...] = tuple(_parse(head, "costs"))
        except UnexpectedInput:
            return unknown(Kind.ACTIVATED)
        parts = _body(body, start + len(head) + 2)
        steps = parts.get("effects", ())
        mana = bool(steps) and all(_adds_mana(s) for s in steps)
        return Ability(Kind.MANA if mana else Kind.ACTIVATED, span, cost=cost, **parts)
    steps, restrictions = parse_effects(line, start)
    kind = Kind.SPELL if spell else Kind.STATIC
    if _is_replacement(steps):
        kind = Kind.REPLACEMENT
    if all(isinstance(s, Unimplemented) for s in steps) and not restrictions:
        return unknown(kind)
    return Ability(
        kind,
        span,
        effects=tuple(steps),
        restrictions=tuple(restrictions),
        targets=_targets(steps),
    )


def _body(text: str, offset: int) -> dict[str, Any]:
    """The effect part of an ability: sentences, or the header of a modal ability ("choose one —",
    its modes follow on the next lines)."""
    match = _CHOOSE.match(text)
    if match:
        return {"choose": match.group(1)}
    steps, restrictions = parse_effects(text, offset)
    return {"effects": tuple(steps), "restrictions": tuple(restrictions), "targets": _targets(steps)}


def _triggered(line: str, word: str, rest: str, start: int, span: Span) -> Ability | None:
    """Find the trigger condition: the longest prefix up to a comma that the grammar accepts."""
    commas = [i for i, char in enumerate(rest) if char == ","]
    for comma in commas:
        try:
            condition = _parse(rest[:comma], "condition")
        except UnexpectedInput:
            continue
        body = rest[comma + 2 :]
        offset = start + len(word) + 1 + comma + 2
        return Ability(Kind.TRIGGERED, span, trigger=condition, trigger_word=word, **_body(body, offset))
    return None


def _attach_row(ability: Ability, line: str, start: int) -> Ability | None:
    """A die-result row joins the roll that ends the ability before it."""
    match = _TABLE_ROW.match(line)
    if not match or not ability.effects or not isinstance(ability.effects[-1], RollDie):
        return None
    steps, _restrictions = parse_effects(match.group(4), start + match.start(4))
    low = int(match.group(1))
    row = TableRow(
        low=low,
        high=int(match.group(2)) if match.group(2) else (None if match.group(3) else low),
        effects=tuple(steps),
        open_ended=bool(match.group(3)),
    )
    roll = ability.effects[-1]
    assert isinstance(roll, RollDie)
    return replace(ability, effects=(*ability.effects[:-1], replace(roll, table=(*roll.table, row))))


def _attach_mode(ability: Ability, line: str, start: int) -> Ability | None:
    if ability.choose is None or not line.startswith("• "):
        return None
    steps, _restrictions = parse_effects(line[2:], start + 2)
    mode = Mode(effects=tuple(steps), targets=_targets(steps))
    return replace(ability, modes=(*ability.modes, mode))


def parse_oracle(text: str | None, name: str | None = None, type_line: str | None = None) -> ParsedFace:
    """Parse a face's oracle text into abilities.

    ``name`` is the card (or face) name, so that the text's references to itself are recognized;
    ``type_line`` tells spells (instants, sorceries) from permanents, whose sentences are static
    abilities. Never raises for any text: what is not understood is Unimplemented.
    """
    normalized = normalize_oracle(text or "", name)
    spell = type_line is None or "Instant" in type_line or "Sorcery" in type_line
    abilities: list[Ability] = []
    start = 0
    for line in normalized.lines:
        attached = None
        if abilities:
            attached = _attach_row(abilities[-1], line, start) or _attach_mode(abilities[-1], line, start)
        if attached is not None:
            abilities[-1] = attached
        else:
            abilities.append(_line_ability(line, start, spell))
        start += len(line) + 1
    rendered = render(abilities)
    return ParsedFace(
        source=text or "",
        normalized=normalized.text,
        abilities=tuple(abilities),
        reminders=normalized.reminders,
        rendered=rendered,
        as_written=normalized.written,
        rendered_as_written=normalized.restore(rendered),
    )


def _cost_colon(line: str) -> int | None:
    """Where the ": " after an activated ability's cost is (never inside quoted text)."""
    position = 0
    for index, part in enumerate(line.split('"')):
        if index % 2 == 0 and ": " in part:
            return position + part.index(": ")
        position += len(part) + 1
    return None


def _adds_mana(step: Step) -> bool:
    """A mana ability's effect: add mana (with no target)."""
    nodes = walk(step)
    return any(isinstance(n, Action) and n.verb == "add_mana" for n in nodes) and not any(
        isinstance(n, Noun) and n.targeted for n in nodes
    )


def _quoted(text: str) -> Ability:
    """A quoted ability granted by another ("It has \"{T}: Add {C}.\""), parsed as a line."""
    return _line_ability(text, 0, spell=False)


set_quoted_parser(_quoted)
