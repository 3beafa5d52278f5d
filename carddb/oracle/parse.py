"""Parsing a face's oracle text: normalize, find each line's shape, parse its parts with the
grammar, and keep whatever is not understood as :class:`~carddb.oracle.model.Unimplemented`.

Line shapes, tried in order: die-result rows (``1—14 | …``) and modes (``• …``) attach to the line
before them; keyword lines (the keyword table); loyalty (``+1: …``); ability words
(``Grant an Advantage — …``); triggered (``When/Whenever/At …, …``); activated (``cost: effect``);
modal headers (``Choose one —``); then sentences (spell or static abilities).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import fields, replace
from functools import cache
from typing import Any

from lark.exceptions import UnexpectedInput

from carddb import scanner
from carddb.oracle.grammar import parser, parsing_at, set_quoted_parser, vocabulary
from carddb.oracle.keywords import parse_keyword_line
from carddb.oracle.model import (
    ENTERING,
    ROMAN_NUMERALS,
    Ability,
    Action,
    Casting,
    Clause,
    Conditional,
    CostItem,
    Keyword,
    Kind,
    Limit,
    Mode,
    Noun,
    ParsedFace,
    Pronoun,
    RollDie,
    SelfRef,
    Span,
    Step,
    TableRow,
    Unimplemented,
    walk,
)
from carddb.oracle.model import Sequence as Steps
from carddb.oracle.normalize import normalize_oracle
from carddb.oracle.phrases import find, templates
from carddb.oracle.render import render
from carddb.oracle.targets import KEYWORD_ACTION_TARGETS, keyword_targets, number_targets, trigger_player

_TABLE_ROW = re.compile(r"^(\d+)(?:—(\d+)|(\+))? \| (.+)$")
_LOYALTY = re.compile(r"^(\[[+-]?(?:\d+|X)\]|[+-]?(?:\d+|X)): (.+)$")
_TRIGGER = re.compile(r"^(When|Whenever|At) (.+)$")
_ABILITY_WORD = re.compile(r"^([A-Z][^—:•|]{1,40}?) — (.+)$")
_CHOOSE = re.compile(
    r"^((?:[Cc]hoose|An opponent chooses) (?:one|two|three|four|five|one or both|one or more|any number"
    r"|up to (?:one|two|three|four)"
    r"|one or two|one that hasn't been chosen|one that hasn't been chosen this turn"
    r"|one\. You may choose the same mode more than once"
    r"|one or more\. Each mode must target a different player)) —$"
)
_CHOOSE_PERIOD = re.compile(
    r"^([Cc]hoose (?:one|two|three|four|five|one or both|one or more|any number|up to (?:one|two|three|four)"
    r"|one or two|one at random)\.)(?: (.+))?$"
)
"""A modal header written as a sentence ("Choose three. You may choose the same mode more than
once.", "Choose one. Activate only once each turn."): the header with its period, then the
sentences that go with it (how many modes, activation limits) as the ability's own."""
_SENTENCE_END = re.compile(r'(?:(?<=[.!?])|(?<=[.!?]"))\s+(?=[A-Z~"{])')
_QUOTE_ENDS_SENTENCE = re.compile(r'\."(?=\s+[A-Z~"{]|$)')
_CLASS_LEVEL = re.compile(r"^((?:\{[^{}]+\})+): Level (\d+)$")
_LEVEL_BRACKET = re.compile(r"^LEVEL (\d+(?:-\d+|\+))$")
_PT_LINE = re.compile(r"^(\d+|\*)/(\d+|\*)$")
_FIRST_WORD = re.compile(r"(^|[.!?] )([A-Z][a-z'-]*)")
_NUMERAL = "|".join(ROMAN_NUMERALS)
_CHAPTER = re.compile(rf"^((?:{_NUMERAL})(?:, (?:{_NUMERAL}))*) — (.+)$")
IMPLIED_LIMITS = {
    "Boast": (Limit.ATTACKED_THIS_TURN, Limit.ONCE_EACH_TURN),
    "Forecast": (Limit.YOUR_UPKEEP, Limit.ONCE_EACH_TURN),
}
"""Activation limits the rules give an ability word's keyword (702.142a, 702.57a)."""
IMPLIED_ZONES = {"Forecast": "hand"}
"""Where a keyword's ability is activated when its cost does not say (702.57a: from your hand)."""


def _lower_first_words(text: str, first: re.Pattern[str] = _FIRST_WORD) -> str:
    """A sentence's first word loses its capital when the grammar knows it in lowercase ("Draw",
    "Target", "Creatures"), not when it is a subtype or a name ("Goblins", "Urza"); the renderer
    capitalizes sentences again."""
    words = vocabulary()

    def lower(match: re.Match[str]) -> str:
        word = match.group(2)
        # "X target creatures gain flying", "X is the number of …": X, the number, keeps its capital
        counted = word == "X" and match.string.startswith((" target", " is "), match.end())
        known = word.lower() in words and not counted
        return match.group(1) + (word.lower() if known else word)

    parts = text.split('"')
    parts[0::2] = [first.sub(lower, part) for part in parts[0::2]]
    return '"'.join(parts)


_COST_ITEM = re.compile(r"(^|, )([A-Z][a-z'-]*)")


LINE_CACHE = 8192
"""Lines whose ability is kept, and sentences (or costs) whose parse is kept, the most recently
used of each: oracle text repeats its lines and sentences ("Flying", "{T}: Add {G}.", "Draw a
card."), and parsing one is a pure function of its text."""
_lines: OrderedDict[tuple[str, bool], Ability] = OrderedDict()
_sentences: OrderedDict[tuple[str, str], Any] = OrderedDict()


def _parse(text: str, start: str, offset: int = 0) -> Any:
    """Parse with the grammar, whose words are lowercase: a sentence's (or a cost's) capital is
    dropped first. ``offset``: where ``text`` starts in the face's normalized text."""
    key = (text, start)
    found = _sentences.get(key)
    if found is not None:
        _sentences.move_to_end(key)
        return list(found) if start == "effects" else found
    quoted = '"' in text
    text = _lower_first_words(text, _COST_ITEM if start == "costs" else _FIRST_WORD)
    if start == "effects":
        # a sentence that ends with a quoted ability ends with the quote's period
        text = _QUOTE_ENDS_SENTENCE.sub('.".', text)
    with parsing_at(offset):
        parsed = scanner.parse(parser(), text, start)  # model values (ToModel), not a tree
    if not quoted:  # only a quoted ability's spans depend on where the text starts
        _sentences[key] = tuple(parsed) if start == "effects" else parsed
        if len(_sentences) > LINE_CACHE:
            _sentences.popitem(last=False)
    return parsed


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
            items.extend(_parse(sentence, "effects", offset + start))
        except UnexpectedInput:
            items.append(Unimplemented(sentence, Span(offset + start, offset + start + len(sentence))))
    steps = [item for item in items if not _is_restriction(item)]
    restrictions = [item for item in items if _is_restriction(item)]
    if " from it" in text:
        steps = list(_ZoneAntecedents().visit(tuple(steps)))
    return steps, restrictions


class _ZoneAntecedents:
    """ "Target opponent reveals their hand. You choose a nonland card from it.": "from it" names
    the zone named last before it (the hand revealed); the qualifier carries that zone (``it``),
    its words stay "from it". Bound again once targets are numbered (the zone's ``slot``). Nodes
    are rebuilt only where something changed."""

    def __init__(self) -> None:
        self.last: Action | None = None

    def visit(self, node: Any) -> Any:
        if isinstance(node, tuple):
            items = tuple(self.visit(item) for item in node)
            return node if all(a is b for a, b in zip(items, node, strict=True)) else items
        if isinstance(node, Action):
            if node.verb == "zone":
                self.last = node
                return node
            if node.verb == "in_zone" and node.form_name == "from_it" and self.last is not None:
                if node.arg("it") is self.last:
                    return node
                return replace(node, args=(*((k, v) for k, v in node.args if k != "it"), ("it", self.last)))
            values = self.visit(tuple(value for _, value in node.args))
            if all(a is b for a, (_, b) in zip(values, node.args, strict=True)):
                return node
            keys = tuple(key for key, _ in node.args)
            return replace(node, args=tuple(zip(keys, values, strict=True)))
        if isinstance(node, Clause):
            subject = self.visit(node.subject)
            predicates = self.visit(node.predicates)
            if subject is node.subject and predicates is node.predicates:
                return node
            return replace(node, subject=subject, predicates=predicates)
        if isinstance(node, Noun | SelfRef):
            qualifiers = self.visit(node.qualifiers)
            return node if qualifiers is node.qualifiers else replace(node, qualifiers=qualifiers)
        if isinstance(node, Steps):
            steps = self.visit(node.steps)
            return node if steps is node.steps else replace(node, steps=steps)
        if isinstance(node, Conditional):
            first, second = ("body", "condition") if node.after else ("condition", "body")
            one = self.visit(getattr(node, first))
            two = self.visit(getattr(node, second))
            if one is getattr(node, first) and two is getattr(node, second):
                return node
            return replace(node, **{first: one, second: two})
        return node


def _is_restriction(item: object) -> bool:
    form = find(item.verb, item.form) if isinstance(item, Action) else None
    return form is not None and form.family == "restriction"


def _is_replacement(steps: list[Step], spell: bool = False) -> bool:
    """A permanent's line is a replacement ability (614.1) when it says what would happen instead,
    how a permanent enters ("~ enters the battlefield tapped", "… with N counters on it", "… as a
    copy of …", 614.1c–d) or what is chosen as it enters ("As ~ enters the battlefield, choose a
    color", 614.12) or what happens instead (614.1a: "All damage that would be dealt to you is dealt
    to ~ instead"). A spell's lines are its spell ability (112.3a): "It enters the battlefield
    tapped" is a step of its resolution, and "If that creature would die this turn, exile it
    instead." a replacement effect its resolution creates (614.1, 611.2), no replacement ability."""
    if spell:
        return False
    for step in steps:
        if isinstance(step, Conditional) and step.word == "as" and _enters(step.condition):
            return True
        for node in walk(step):
            if isinstance(node, Action) and (node.verb in ENTERING or _replaces(node)):
                return True
            form = find(node.verb, node.form) if isinstance(node, Action) else None
            # "If you would roll …, instead …": a condition about what would happen (a
            # prevention effect's "damage that would be dealt" is no replacement ability)
            if not spell and form is not None and form.family == "cond" and " would " in f" {form.text} ":
                return True  # a spell's "If … would …, … instead" is an effect of its resolution
    return False


_CHARACTERISTIC_VERBS = frozenset({"is_color", "is_every_creature_type"})
"""The phrases that say what colour or creature types the card itself is ("~ is colorless.", "~ is
every creature type.")."""


def _defines_characteristics(steps: Sequence[Step]) -> bool:
    """A line of characteristic-defining abilities (604.3: "~ is colorless.", "~ is all colors.",
    "~ is every creature type."): static abilities that work in every zone (604.3a), on an instant
    or sorcery too, not steps of its spell ability."""
    return bool(steps) and all(
        isinstance(step, Clause)
        and isinstance(step.subject, SelfRef)
        and not step.subject.qualifiers
        and step.duration is None
        and bool(step.predicates)
        and all(_defines_characteristic(p) for p in step.predicates)
        for step in steps
    )


def _defines_characteristic(predicate: object) -> bool:
    if not isinstance(predicate, Action):
        return False
    what = predicate.arg("what")
    all_colors = isinstance(what, Noun) and what.determiners == ("all",) and what.description == "colors"
    return predicate.verb in _CHARACTERISTIC_VERBS or (predicate.verb == "is_type" and all_colors)


_CHANGES = frozenset({"gets", "has", "gains", "has_base_pt", "is_type", "has_ability"})
"""What a static ability's continuous effect changes ("gets +1/+1", "has flying", 611.3, 613)."""


def _replaces(node: Action) -> bool:
    """ "… instead" replacing an event (614.1a); not "It gets +3/+1 instead as long as …", a
    continuous effect of a static ability that applies in place of the one before it (613)."""
    if node.verb != "instead":
        return False
    action = node.arg("action")
    return not (isinstance(action, Action) and action.verb in _CHANGES)


def _enters(condition: object) -> bool:
    """The condition of "As ~ enters the battlefield, …" (its "or is turned face up" too)."""
    if not isinstance(condition, Action):
        return False
    face_up = condition.verb == "enters_or" and condition.form_name == "turned_face_up"
    return condition.verb == "enters" or face_up


def _line_ability(line: str, start: int, spell: bool, *, ability_word: bool = True) -> Ability:
    """One line of text (not a table row or mode) as an ability (``ability_word``: it may start
    with one)."""
    span = Span(start, start + len(line))

    def unknown(kind: Kind = Kind.UNKNOWN) -> Ability:
        return Ability(kind, span, unparsed=(Unimplemented(line, span),))

    keyword_line = _keyword_line(line, start, span)
    if keyword_line is not None:
        return keyword_line
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
    modal = _modal_sentences(line, start)
    if modal is not None:
        return Ability(Kind.SPELL if spell else Kind.STATIC, span, **modal)
    match = _LOYALTY.match(line)
    if match:
        return Ability(
            Kind.LOYALTY, span, loyalty=match.group(1), **_body(match.group(2), start + match.start(2))
        )
    match = _TRIGGER.match(line)
    if match and spell:  # an instant's "Whenever a creature dies this turn, …": a delayed trigger it creates
        delayed = _delayed_trigger(line, start, span)
        if delayed is not None:
            return delayed
    if match:
        return _triggered(line, match.group(1), match.group(2), start, span) or unknown(Kind.TRIGGERED)
    match = _CHAPTER.match(line)
    if match:
        chapters = tuple(ROMAN_NUMERALS.index(numeral) + 1 for numeral in match.group(1).split(", "))
        return Ability(Kind.CHAPTER, span, chapters=chapters, **_body(match.group(2), start + match.start(2)))
    match = _ABILITY_WORD.match(line) if ability_word else None
    if match and ":" not in match.group(1):
        word = match.group(1)
        # one ability word: a second one is no ability word (and no recursion, however many follow)
        inner = _line_ability(match.group(2), start + match.start(2), spell, ability_word=False)
        if inner.unparsed and not inner.effects and not inner.keywords:  # not understood: the whole line
            return unknown(inner.kind)
        if inner.kind is Kind.ACTIVATED and word in IMPLIED_LIMITS:
            inner = replace(inner, limits=IMPLIED_LIMITS[word], zone=inner.zone or IMPLIED_ZONES.get(word))
        return replace(inner, span=span, ability_word=word)
    colon = _cost_colon(line)
    if colon is not None:
        head, body = line[:colon], line[colon + 2 :]
        try:
            cost: tuple[CostItem, ...] = tuple(_parse(head, "costs", start))
        except UnexpectedInput:
            return unknown(Kind.ACTIVATED)
        parts = _body(body, start + len(head) + 2)
        kind = Kind.MANA if _mana_ability(parts.get("effects", ())) else Kind.ACTIVATED
        return Ability(kind, span, cost=cost, zone=_activated_from(cost), **parts)
    steps, restrictions = parse_effects(line, start)
    kind = Kind.SPELL if spell and not _defines_characteristics(steps) else Kind.STATIC
    if _is_replacement(steps, spell):
        kind = Kind.REPLACEMENT
    if all(isinstance(s, Unimplemented) for s in steps) and not restrictions:
        return unknown(kind)
    casting = _casting(steps, restrictions)
    if casting is not None:
        return Ability(
            Kind.CASTING,
            span,
            effects=tuple(steps),
            restrictions=tuple(restrictions),
            casting=casting[0],
            cost=casting[1],
        )
    return Ability(kind, span, effects=tuple(steps), restrictions=tuple(restrictions))


_KEYWORD_SEPARATORS = (", ", "; ")
"""What separates a keyword line's keywords: ", ", or "; " on a few old cards ("Flying; banding")."""
_PERIOD = re.compile(r"\.(?= |$)")


def _keywords(text: str) -> tuple[tuple[Keyword, ...], str] | None:
    """The keywords of a line made of keywords only, and their separator."""
    for separator in _KEYWORD_SEPARATORS:
        if separator == ", " or separator in text:
            keywords = parse_keyword_line(text, separator=separator)
            if keywords is not None:
                return keywords, separator
    return None


def _with_cost(keyword: Keyword, start: int) -> Keyword:
    """A keyword whose cost is written after an em dash ("Flashback—{1}{U}, Exile X blue cards from
    your graveyard.", "Ward—Pay 3 life.") with that cost read by the cost grammar, when it can."""
    if not keyword.long_cost or not keyword.parameter:
        return keyword
    try:
        cost = tuple(_parse(keyword.parameter.removesuffix("."), "costs", start))
    except UnexpectedInput:
        return keyword
    return replace(keyword, cost=cost) if cost else keyword


_WHERE_X = re.compile(r"(?P<head>.*\{X\}), where X is (?P<value>[^.]+)\.")


def _keyword_where_x(text: str, start: int) -> tuple[tuple[Keyword, ...], str] | None:
    """A keyword line whose last keyword's parameter has an X said after it ("Ward {X}, where X
    is the number of experience counters you have."): the value phrase is the one the sentence
    grammar reads after "where X is" (its sentence "X is …")."""
    match = _WHERE_X.fullmatch(text)
    if match is None:
        return None
    found = _keywords(match.group("head"))
    if found is None or found[0][-1].long_cost or "{X}" not in (found[0][-1].parameter or ""):
        return None
    offset = start + match.start("value") - len("X is ")
    try:
        steps = _parse(f"X is {match.group('value')}.", "effects", offset)
    except UnexpectedInput:
        return None
    if len(steps) != 1 or not isinstance(steps[0], Action) or steps[0].verb != "x_means":
        return None
    keywords, separator = found
    last = replace(keywords[-1], where_x=steps[0].arg("value"))
    return (*keywords[:-1], last), separator


def _keyword_line(line: str, start: int, span: Span) -> Ability | None:
    """A line of keyword abilities (None: any other line): ``Flying, vigilance``; ``Flying;
    banding``; quoted in running text, in lowercase or with a period (``have "bands with other
    legendary creatures."``, ``gains "Cumulative upkeep {2}."``); or a sentence of keywords and the
    sentences about its keyword's ability after it, as its restrictions and effects (``Equip {0}.
    Activate only once each turn.``, ``Suspend X—{X}{3}{U}. X can't be 0.``)."""
    lowercase = line[:1].islower()
    text = line[:1].upper() + line[1:] if lowercase else line
    found = _keywords(text)
    fields: dict[str, Any] = {"keyword_lowercase": lowercase}
    if found is None and (where := _keyword_where_x(text, start)) is not None:
        found = where
        fields["keyword_period"] = True
    if found is None:
        for period in _PERIOD.finditer(text):
            found = _keywords(text[: period.start()])
            if found is None or found[0][-1].long_cost:  # "Ward—Pay 3 life.": the period is the cost's
                continue
            rest = period.end() + 1
            steps, restrictions = parse_effects(line[rest:], start + rest) if rest < len(line) else ([], [])
            fields.update(keyword_period=True, effects=tuple(steps), restrictions=tuple(restrictions))
            break
        else:
            return None
    keywords, separator = found
    keywords = tuple(_with_cost(keyword, start) for keyword in keywords)
    targets = keyword_targets(keywords)  # "Equip {2}": the ability it stands for targets
    return Ability(
        Kind.KEYWORD, span, keywords=keywords, keyword_separator=separator, targets=targets, **fields
    )


def _cached_line(line: str, start: int, spell: bool) -> Ability:
    """:func:`_line_ability` of a line of a face, from the cache when the line was parsed before.
    A line's ability depends on where the line starts only through its spans: its own, its
    Unimplemented sentences' (always steps of the ability itself, or its ``unparsed``) and its
    quoted abilities'. A line with neither of the last two is kept, and given the span of each
    place it is met again."""
    key = (line, spell)
    found = _lines.get(key)
    span = Span(start, start + len(line))
    if found is not None:
        _lines.move_to_end(key)
        return found if found.span == span else replace(found, span=span)
    ability = _line_ability(line, start, spell)
    unparsed = ability.unparsed or any(isinstance(step, Unimplemented) for step in ability.effects)
    if '"' not in line and not unparsed:
        _lines[key] = ability
        if len(_lines) > LINE_CACHE:
            _lines.popitem(last=False)
    return ability


def _body(text: str, offset: int) -> dict[str, Any]:
    """The effect part of an ability: sentences, or the header of a modal ability ("choose one —",
    its modes follow on the next lines)."""
    match = _CHOOSE.match(text)
    if match:
        return {"choose": match.group(1)}
    modal = _modal_sentences(text, offset)
    if modal is not None:
        return modal
    steps, restrictions = parse_effects(text, offset)
    return {"effects": tuple(steps), "restrictions": tuple(restrictions)}


_THIS_TURN = "during_this_turn"
"""The event of a delayed trigger limited to this turn ("When you cast your next instant or sorcery
spell this turn, …")."""


def _delayed_trigger(line: str, start: int, span: Span) -> Ability | None:
    """A spell's line that creates a delayed triggered ability (603.7: "Whenever a creature blocks this
    turn, it gets +0/+1 until end of turn."), when the grammar reads all of it as one; None
    otherwise (a triggered ability that works from another zone: "When you cycle ~, …")."""
    steps, restrictions = parse_effects(line, start)
    first = steps[0] if steps else None
    if not isinstance(first, Conditional) or first.word not in ("when", "whenever"):
        return None
    if first.word == "when" and not (
        isinstance(first.condition, Action) and first.condition.verb == _THIS_TURN
    ):
        return None  # "When a spell … causes you to discard ~, …": the card's own trigger, from its zone
    if any(isinstance(step, Unimplemented) for step in steps):
        return None
    return Ability(Kind.SPELL, span, effects=tuple(steps), restrictions=tuple(restrictions))


def _modal_sentences(text: str, offset: int) -> dict[str, Any] | None:
    """A modal header that is a sentence, and the sentences after it (None: no such header)."""
    match = _CHOOSE_PERIOD.match(text)
    if match is None:
        return None
    if match.group(2) is None:
        return {"choose": match.group(1)}
    steps, restrictions = parse_effects(match.group(2), offset + match.start(2))
    return {"choose": match.group(1), "effects": tuple(steps), "restrictions": tuple(restrictions)}


def _triggered(line: str, word: str, rest: str, start: int, span: Span) -> Ability | None:
    """Find the trigger condition: the shortest prefix up to a comma that the grammar accepts as a
    condition (:func:`carddb.scanner.parse_prefix`: one pass over the text, the tables asked at
    each comma whether the condition could end there), so that a line with many commas costs time
    linear in its length."""
    text = _lower_first_words(rest, _FIRST_WORD)
    offset = start + len(word) + 1
    with parsing_at(offset):
        try:
            found = scanner.parse_prefix(parser(), text, "condition", _at_comma)
            if found is None:
                return None
            condition, comma = found
            parts = _body(rest[comma + 2 :], offset + comma + 2)
        except UnexpectedInput:
            return None
    return Ability(Kind.TRIGGERED, span, trigger=condition, trigger_word=word, **_intervening(parts))


def _intervening(parts: dict[str, Any]) -> dict[str, Any]:
    """ "When/Whenever/At [event], if [condition], [effect]": the "if" right after the trigger
    condition is the trigger's own (603.4), not a step of its effect. Not when an "Otherwise, …"
    sentence reads it (an "if" whose other branch happens is an ordinary condition)."""
    effects = parts.get("effects", ())
    if not effects:
        return parts
    first = effects[0]
    if not isinstance(first, Conditional) or first.word != "if" or first.after:
        return parts
    following = effects[1] if len(effects) > 1 else None
    if isinstance(following, Conditional) and following.word == "otherwise":
        return parts
    return {**parts, "effects": (first.body, *effects[1:]), "intervening_if": first.condition}


def _at_comma(token: str) -> bool:
    return token.startswith(",")


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
    mode = Mode(effects=tuple(steps))
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
    level: str | None = None
    for line in normalized.lines:
        attached = None
        if abilities:
            attached = _attach_row(abilities[-1], line, start) or _attach_mode(abilities[-1], line, start)
        if attached is not None:
            abilities[-1] = attached
        else:
            ability = _cached_line(line, start, spell)
            if ability.kind is Kind.LEVEL:
                level = ability.level or level
                if ability.pt is not None:  # a level-up bracket's power and toughness
                    ability = replace(ability, level=level)
            elif level is not None:  # the abilities a class level or a level-up bracket gives
                ability = replace(ability, level=level)
            abilities.append(ability)
        start += len(line) + 1
    if THOSE_TOKENS in normalized.text:
        made: list[Action] = []  # a spell's lines are one ability's steps (608.2c)
        abilities = [
            _those_tokens(ability, made if ability.kind is Kind.SPELL else []) for ability in abilities
        ]
    rendered = render(abilities)
    return ParsedFace(
        source=text or "",
        normalized=normalized.text,
        abilities=_linked(
            _players_named(_targeted(abilities, normalized.text), normalized.text), normalized.text
        ),
        reminders=normalized.reminders,
        rendered=rendered,
        as_written=normalized.written,
        rendered_as_written=normalized.restore(rendered),
    )


THOSE_TOKENS = "of those tokens"
CREATE_THOSE = "create_those_tokens"


def _those_tokens(ability: Ability, made: list[Action]) -> Ability:
    """ "Create a 1/1 white Soldier creature token. If this spell was kicked, create five of those
    tokens instead.": "those tokens" of ``create_those_tokens`` are the tokens the last "create"
    before it in the ability describes (its ``what``: ``Noun(("those",), "tokens")`` with that
    create phrase as its antecedent), a die table's rows read in order; ``made``: the create
    phrases of the lines of the same spell before it."""
    effects = tuple(_link_tokens(step, made) for step in ability.effects)
    modes = tuple(
        replace(mode, effects=tuple(_link_tokens(s, made) for s in mode.effects)) for mode in ability.modes
    )
    return replace(ability, effects=effects, modes=modes)


def _link_tokens(node: Any, made: list[Action]) -> Any:
    """``node`` with each ``create_those_tokens`` linked to the create phrase before it (``made``:
    those met so far, in text order); a quoted ability keeps its own."""
    if isinstance(node, tuple):
        return tuple(_link_tokens(item, made) for item in node)
    if isinstance(node, Action):
        if node.verb == CREATE_THOSE:
            if not made or node.arg("what") is not None:
                return node
            return replace(
                node, args=(*node.args, ("what", Noun(("those",), "tokens", antecedents=(made[-1],))))
            )
        linked = replace(node, args=tuple((role, _link_tokens(value, made)) for role, value in node.args))
        if node.verb.startswith("create") and isinstance(node.arg("what"), Noun):
            made.append(linked)
        return linked
    if isinstance(node, Clause | Steps | Conditional | RollDie | TableRow):
        changes = {f.name: _link_tokens(getattr(node, f.name), made) for f in fields(node)}
        return replace(node, **changes)
    return node


_LINKS = (
    (re.compile(r"\bthe chosen\b"), lambda verb: verb in ("choose", "choose_card_name")),
    (
        re.compile(r"\bexiled with (?:~|it\b|them\b)|\bthe exiled cards?\b"),
        lambda verb: verb.startswith("exile"),
    ),
)
"""607.2a–d: words that name what another ability of the face chose or exiled, and which phrases
choose or exile (every "exile …" phrase: exile, exile_zone, exile_face_down…)."""


def _linked(abilities: tuple[Ability, ...], text: str) -> tuple[Ability, ...]:
    """Abilities linked by rule 607: one that speaks of "the chosen …" or "the exiled card" and the
    others that choose or exile (both are told of each other)."""
    links: dict[int, set[int]] = {}
    owns = [text[ability.span.start : ability.span.end] for ability in abilities]
    if not any(words.search(own) for own in owns for words, _doing in _LINKS):
        return abilities  # no ability speaks of what another chose or exiled
    verbs = [
        {
            n.verb
            for step in (*a.effects, *(s for m in a.modes for s in m.effects))
            for n in walk(step)
            if isinstance(n, Action)
        }
        for a in abilities
    ]
    for index, own in enumerate(owns):
        for words, doing in _LINKS:
            if not words.search(own):
                continue
            for other, done in enumerate(verbs):
                if other != index and any(doing(verb) for verb in done):
                    links.setdefault(index, set()).add(other)
                    links.setdefault(other, set()).add(index)
    if not links:
        return abilities
    return tuple(
        replace(a, linked=tuple(sorted(links[i]))) if i in links else a for i, a in enumerate(abilities)
    )


_TARGET = re.compile(
    "|".join(("target", *(rf"\b{verb}\b" for verb in KEYWORD_ACTION_TARGETS))), re.IGNORECASE
)
"""Every phrase that names a target says it ("Target creature", "any target", "targets"), or is a
keyword action that targets ("Support 2")."""


def _players_named(abilities: tuple[Ability, ...], text: str) -> tuple[Ability, ...]:
    """ "Whenever an opponent …, that player …": the player the trigger names (:func:`trigger_player`)."""
    if "that player" not in text:
        return abilities
    return tuple(trigger_player(ability) for ability in abilities)


def _targeted(abilities: list[Ability], text: str) -> tuple[Ability, ...]:
    """The abilities with their targets numbered; an ability's lines (its modes and die-result
    rows too) run to where the next ability starts."""
    ends = [ability.span.start for ability in abilities[1:]] + [len(text)] if abilities else []
    return tuple(
        _with_targets(ability) if _TARGET.search(text, ability.span.start, end) else ability
        for ability, end in zip(abilities, ends, strict=True)
    )


def _with_targets(ability: Ability) -> Ability:
    """The ability's targets numbered in text order: its own steps' (die-result rows included),
    then each mode's after them (:func:`carddb.oracle.targets.number_targets`). Every phrase that
    names a target says "target": the callers walk only abilities whose text does."""
    spell = ability.kind is Kind.SPELL  # an instant's or sorcery's spell ability
    own = keyword_targets(ability.keywords)  # "Equip {0}. Activate only once each turn.": the keyword's first
    named = (ability.cost, ability.trigger)  # what "that creature" may name instead of a target
    effects, found = number_targets(ability.effects, first=len(own) + 1, spell=spell, named=named)
    targets = (*own, *found)
    effects = _ZoneAntecedents().visit(effects)  # "from it": the zone as numbered
    modes = []
    for mode in ability.modes:
        steps, found = number_targets(mode.effects, first=len(targets) + 1, spell=spell, named=named)
        modes.append(Mode(_ZoneAntecedents().visit(steps), found))
    if not targets and not any(mode.targets for mode in modes):
        return ability
    return replace(ability, effects=effects, targets=targets, modes=tuple(modes))


def _cost_colon(line: str) -> int | None:
    """Where the ": " after an activated ability's cost is (never inside quoted text)."""
    position = 0
    for index, part in enumerate(line.split('"')):
        if index % 2 == 0 and ": " in part:
            return position + part.index(": ")
        position += len(part) + 1
    return None


@cache
def _mana_verbs() -> frozenset[str]:
    """The phrases that add mana: every phrase table entry written "add …" / "adds …"."""
    return frozenset(
        t.verb for t in templates() if t.family == "pred" and t.parts[:1] in (("add",), ("adds",))
    )


def _mana_ability(steps: Sequence[Step]) -> bool:
    """605.1a: an activated ability that could add mana as it resolves, with no target (and not a
    loyalty ability); what else it does ("~ deals 1 damage to you") does not matter."""
    nodes = [node for step in steps for node in walk(step)]
    verbs = _mana_verbs()
    return any(isinstance(n, Action) and n.verb in verbs for n in nodes) and not any(
        (isinstance(n, Noun) and n.targeted) or (isinstance(n, Pronoun) and n.word.endswith(" target"))
        for n in nodes
    )


def _activated_from(cost: Sequence[CostItem]) -> str | None:
    """113.6m: an ability whose cost moves the card out of a zone works only there ("Discard ~",
    "Exile ~ from your graveyard")."""
    for item in cost:
        if not isinstance(item, Action) or not isinstance(what := item.arg("what"), SelfRef):
            continue
        if item.verb == "discard":
            return "hand"
        for qualifier in what.qualifiers:
            zone = qualifier.arg("zone")
            if qualifier.verb == "in_zone" and isinstance(zone, Action) and zone.verb == "zone":
                return str(zone.arg("zone"))
    return None


_CASTING = {
    "additional_cost": Casting.ADDITIONAL_COST,
    "rather_than_mana_cost": Casting.ALTERNATIVE_COST,
    "costs_less": Casting.COST_CHANGE,
    "costs_more": Casting.COST_CHANGE,
    "costs_for_each": Casting.COST_CHANGE,
    "cant_be_countered": Casting.UNCOUNTERABLE,
}
"""The phrases that say how the card itself is cast (601.2b–f), not what it does."""
_CASTING_RESTRICTIONS = {"cast_only": Casting.TIMING, "spend_only_produced_by": Casting.MANA_SPENT}
"""The restrictions on casting the card itself: when (307.1), and with which mana (601.2h)."""


def _casting(
    steps: Sequence[Step], restrictions: Sequence[Action]
) -> tuple[Casting, tuple[CostItem, ...]] | None:
    """What a line of cast-time sentences says (every sentence one: "As an additional cost to cast
    this spell, sacrifice a creature.", "This spell can't be countered.", "Cast this spell only
    during combat."), and the costs it adds or offers; None for any other line."""
    found: list[Casting] = []
    costs: list[CostItem] = []
    for step in steps:
        if found and found[-1] is Casting.ADDITIONAL_COST and _reflexive(step):
            continue  # "…, you may sacrifice creatures. When you do, copy ~ …": paying it triggers
        about = _casting_phrase(step)
        if about is None:
            return None
        free = _without_paying(about)
        found.append(Casting.ALTERNATIVE_COST if free is not None else _CASTING[about.verb])
        if free is not None:  # "you may cast ~ without paying its mana cost": the cost is none (118.9)
            costs.append(free)
        elif about.verb == "additional_cost":
            costs.extend((*_additional_costs(about), *_more_costs(step)))
        elif about.verb == "rather_than_mana_cost":
            costs.extend(_cost_actions(about.arg("action")))
    for restriction in restrictions:
        if restriction.verb not in _CASTING_RESTRICTIONS:
            return None
        found.append(_CASTING_RESTRICTIONS[restriction.verb])
    return (found[0], tuple(costs)) if found else None


def _reflexive(step: Step) -> bool:
    """A reflexive triggered ability (603.12, "When you do, …") after an additional cost: it
    triggers when the cost is paid, as the spell is cast, not as the spell resolves."""
    return isinstance(step, Conditional) and step.trigger == "reflexive"


def _additional_costs(about: Action) -> list[CostItem]:
    """The cost an additional-cost line adds (601.2b): the cost itself; "you may …" an
    ``optional_cost``; "… or …" a ``cost_choice`` of the two (never both, as if each were due)."""
    cost, alternative = about.arg("cost"), about.arg("alternative")
    if not isinstance(cost, Action):
        return []
    if about.form_name == "optional":
        return [Action("optional_cost", (("cost", cost),))]
    if isinstance(alternative, Action):
        return [Action("cost_choice", (("options", (cost, alternative)),))]
    return [cost]


def _casting_phrase(step: Step) -> Action | None:
    """The cast-time phrase a sentence is, under its conditions ("If it's not your turn, you may
    … rather than pay ~'s mana cost"), said of the card itself or of no subject."""
    while isinstance(step, Conditional) and step.word in ("if", "as long as"):
        step = step.body
    if not isinstance(step, Clause) or (len(step.predicates) != 1 and not _more_costs(step)):
        return None
    if step.subject is not None and not isinstance(step.subject, SelfRef | Pronoun):
        return None
    predicate = step.predicates[0]
    if isinstance(predicate, Action) and predicate.verb == "may":
        predicate = predicate.arg("action")  # type: ignore[assignment]
    if not isinstance(predicate, Action):
        return None
    return predicate if predicate.verb in _CASTING or _without_paying(predicate) is not None else None


def _more_costs(step: Step) -> tuple[Action, ...]:
    """The costs joined by "and" after the first of an additional cost: "As an additional cost to
    cast this spell, discard a card *and sacrifice a creature*" (each of them due, 601.2b)."""
    if not isinstance(step, Clause) or len(step.predicates) < 2 or step.duration is not None:
        return ()
    first, *rest = step.predicates
    if not (isinstance(first, Action) and first.verb == "additional_cost" and first.form_name == "cost"):
        return ()
    if any(join != " and " for join in step.joins) or not all(isinstance(p, Action) for p in rest):
        return ()
    return tuple(p for p in rest if isinstance(p, Action))


def _without_paying(predicate: Action) -> Action | None:
    """The "without paying its mana cost" of "[you may] cast ~ without paying its mana cost" (an
    alternative cost of the card itself, 118.9, under the condition the line gives), else None."""
    what = predicate.arg("what")
    if predicate.verb != "cast_card" or not isinstance(what, SelfRef):
        return None
    return next((q for q in what.qualifiers if q.verb == "without_paying"), None)


def _cost_actions(value: object) -> list[CostItem]:
    if isinstance(value, Action):
        return [value]
    if isinstance(value, Clause):  # "pay {W} and tap four untapped creatures you control"
        return [p for p in value.predicates if isinstance(p, Action)]
    return []


def _quoted(text: str, offset: int) -> Ability:
    """A quoted ability granted by another ("It has \"{T}: Add {C}.\""), parsed as a line that
    starts at ``offset`` of the face's text."""
    ability = _line_ability(text, offset, spell=False)
    return _with_targets(ability) if _TARGET.search(text) else ability


set_quoted_parser(_quoted)
