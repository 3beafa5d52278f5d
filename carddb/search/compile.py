"""Compile a query AST (:mod:`carddb.search.ast`) to one SQLAlchemy select of card ids.

One compile function per node type (:data:`NODE_COMPILERS`) and one per keyword
(:data:`carddb.search.keywords.TERM_COMPILERS`); each returns a boolean condition on ``cards``, mostly
``cards.id IN (select card_id from faces / printings / localizations / rulings where …)``, so
``-`` (NOT), AND and OR combine them freely and a card is found once whatever number of its
printings or faces match. Every user value is a bound parameter. What the compilers share is in
:mod:`carddb.search.conditions`; how each keyword matches, in :mod:`carddb.search.keywords`; running
a compiled query on a session, in :mod:`carddb.search.run`.

Name words match names in every language. Text keywords (``o:``, ``t:``, ``rul:``) search the
English documents, and also those of the languages the query names with ``lang:`` (``lang:any``:
every language) and of the language the results are shown in. ``t:`` also takes localized type
words derived from the imported translations (``t:Kreatur``: a creature), and ``c:``/``id:``
localized colour words (``c:rot``), in any language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from math import prod
from typing import Any, cast

from sqlalchemy import Select, and_, false, not_, or_, select, true

from carddb.characteristics import type_bit
from carddb.db.models import Card
from carddb.search.ast import And, Choices, Field, Name, Not, Number, Or, Query, Regex, Span, Term, Text
from carddb.search.conditions import (
    ANY_LANGUAGE,
    Condition,
    Context,
    error,
    printings_where,
    text_of,
    value_text,
)
from carddb.search.documents import cjk_runs
from carddb.search.fulltext import Lookup, matching_any_cards, required_literal
from carddb.search.keywords import (
    IS_VALUES,
    TERM_COMPILERS,
    is_printing_term,
    language_tag,
    name_condition,
    parse_colors,
    printing_condition,
    text_search,
)
from carddb.search.results import SearchValueError
from carddb.text import normalize


# -- printing terms: matched on one printing --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OnePrinting:
    """Printing terms (``s:atq -is:reprint``) that one printing must meet together, as in
    Scryfall, where every term is matched on one printing: ``item`` is made of printing terms
    (:func:`carddb.search.keywords.is_printing_term`) under ``-``, AND and OR only."""

    item: Query
    span: Span


def is_printing_node(node: Query) -> bool:
    """Whether ``node`` is made of printing terms only."""
    if isinstance(node, Term):
        return is_printing_term(node)
    if isinstance(node, Not):
        return is_printing_node(node.item)
    if isinstance(node, And | Or):
        return all(is_printing_node(item) for item in node.items)
    return False


def group_printings(node: Query) -> Query:
    """``node`` with its printing terms grouped: each maximal part made of printing terms, and
    all the printing items of an AND together, become one :class:`OnePrinting`."""
    if is_printing_node(node):
        return OnePrinting(node, node.span)  # type: ignore[return-value]
    if isinstance(node, Not):
        return Not(group_printings(node.item), node.span)
    if isinstance(node, Or):
        return Or(tuple(group_printings(item) for item in node.items), node.span)
    if isinstance(node, And):
        printed = [item for item in node.items if is_printing_node(item)]
        others = [group_printings(item) for item in node.items if not is_printing_node(item)]
        if not printed:
            return And(tuple(others), node.span)
        together = printed[0] if len(printed) == 1 else And(tuple(printed), printed[0].span)
        grouped: Query = OnePrinting(together, together.span)  # type: ignore[assignment]
        return And((grouped, *others), node.span) if others else grouped
    return node


def _meaning(node: Query) -> object:
    """What ``node`` means, without where it was written (its spans): equal for repeated terms."""
    if isinstance(node, Name):
        return ("name", node.text, node.exact)
    if isinstance(node, Term):
        return ("term", node.keyword, node.operator, node.value)
    if isinstance(node, Not):
        return ("not", _meaning(node.item))
    assert isinstance(node, And | Or)
    return (type(node).__name__, tuple(_meaning(item) for item in node.items))


def deduplicated(node: Query) -> Query:
    """``node`` with the repeated items of each AND and OR left out (``o:a o:a`` is ``o:a``): each
    would be one more condition of the statement, for nothing."""
    if isinstance(node, Not):
        return Not(deduplicated(node.item), node.span)
    if not isinstance(node, And | Or):
        return node
    items: dict[object, Query] = {}
    for item in node.items:
        item = deduplicated(item)
        items.setdefault(_meaning(item), item)
    if len(items) == 1:
        return next(iter(items.values()))
    return type(node)(tuple(items.values()), node.span)


def _printing_condition(node: Query, context: Context) -> Condition:
    """The condition on one printing row (with its set) that a node of printing terms stands for."""
    if isinstance(node, Term):
        return printing_condition(node, context)
    if isinstance(node, Not):
        return not_(_printing_condition(node.item, context))
    if isinstance(node, And):
        return and_(true(), *(_printing_condition(item, context) for item in node.items))
    assert isinstance(node, Or)
    return or_(false(), *(_printing_condition(item, context) for item in node.items))


def _compile_one_printing(node: Query, context: Context) -> Condition:
    assert isinstance(node, OnePrinting)
    return printings_where(_printing_condition(node.item, context), context)


# -- node compilers -------------------------------------------------------------------------------
def compile_node(node: Query, context: Context) -> Condition:
    """The condition on ``cards`` that ``node`` stands for."""
    compiler = NODE_COMPILERS.get(type(node))
    if compiler is None:
        raise TypeError(f"not a query node: {node!r}")
    return compiler(node, context)


def _compile_name(node: Query, context: Context) -> Condition:
    assert isinstance(node, Name)
    return name_condition(node.text, node.exact, context)


def _compile_not(node: Query, context: Context) -> Condition:
    assert isinstance(node, Not)
    # what is excluded never drives: a list to subtract (or, under a driver, a probe)
    inner = context if context.correlated else replace(context, lookup="list")
    return not_(compile_node(node.item, inner))


# How well a term narrows the cards down, to pick the one that drives an AND: exact names, then
# name words, rules text and rulings (longer values are rarer), then sets. Types, colours, numbers,
# rarities and languages hold for thousands of cards each and never drive.
_DRIVING_KEYWORDS = {"name": 30, "oracle": 20, "ruling": 20, "set": 25}
_DRIVING_MIN_LENGTH = 4


def _weight(text: str) -> int:
    """How much a value says: its folded length, a Chinese, Japanese or Korean character counting
    as three (two of them make a word: 稲妻)."""
    folded = normalize(text)
    return len(folded) + 2 * sum(len(run) for run in cjk_runs(folded))


def driving_rank(node: Query) -> int:
    """How selective ``node`` is likely to be (0: not selective enough to drive a query)."""
    if isinstance(node, Name):
        length = _weight(node.text)
        return 100 if node.exact else (30 + length if length >= _DRIVING_MIN_LENGTH else 0)
    if isinstance(node, OnePrinting):
        return driving_rank(node.item)
    if isinstance(node, Or):
        return min((driving_rank(item) for item in node.items), default=0)
    if isinstance(node, And):
        return max((driving_rank(item) for item in node.items), default=0)
    if isinstance(node, Term) and node.operator in (":", "=") and isinstance(node.value, Text):
        base = _DRIVING_KEYWORDS.get(node.keyword, 0)
        if node.keyword == "set":
            return base
        length = _weight(node.value.text)
        return base + length if base and length >= _DRIVING_MIN_LENGTH else 0
    return 0


# When no term ranks, what each is likely to cost decides (:func:`estimate`): the term that holds
# for the fewest cards finds the candidates, and each other term either lists its cards once or
# tests each candidate, whichever is cheaper. Figures measured on the whole 2022 card pool.
@dataclass(frozen=True, slots=True)
class Estimate:
    """How a query node is likely to behave."""

    share: float
    """The share of the cards it holds for (0 to 1)."""
    listing: float
    """What listing its cards once costs, as a share of what testing every card one by one costs
    (0: nothing to list, a test of the card's own row; above 1: dearer than testing every card)."""


_TYPE_SHARES = {"creature": 0.55, "land": 0.04, "legendary": 0.08, "planeswalker": 0.01}
_COMMON_TYPES = frozenset({"artifact", "enchantment", "instant", "sorcery"})
_RARE_LAYOUTS = frozenset({"split", "flip", "transform", "mdfc", "dfc", "meld", "adventure", "saga"})
_FACE_INDEX = 0.1  # a range or scan of a covering index of faces (colours, power, toughness)
_FACE_SCAN = 0.25  # every face read
_PRINTINGS = 1.2  # every printing read (with its set)
_TEXT_LIST = 0.2  # a full-text index (three characters or more)
_TEXT_SCAN = 3.0  # every document read (one or two characters)
_REGEX_SCAN = 2.0  # a regular expression tried on every face
_LANGUAGE = 0.5  # the translations of a language: most of the card pool


def _text_estimate(value: object) -> Estimate:
    """A name word, rules text or rulings: the full-text indexes (three characters or more, or two
    Chinese, Japanese or Korean ones), else every document read."""
    if isinstance(value, Regex):
        return Estimate(0.05, _TEXT_LIST if required_literal(value.pattern) else _REGEX_SCAN)
    folded = normalize(value_text(value))
    indexed = len(folded) >= 3 or (len(folded) == 2 and cjk_runs(folded) == [folded])
    return Estimate(0.05, _TEXT_LIST if indexed else _TEXT_SCAN)


def _type_estimate(term: Term, context: Context) -> Estimate:
    if not isinstance(term.value, Text):
        return Estimate(0.1, _FACE_SCAN)
    value = normalize(term.value.text)
    share, listing = 0.0, 0.0
    for word in {value, *context.type_words.get(value, ())}:
        if type_bit(word) is None:
            share, listing = share + 0.02, listing + _TEXT_LIST
        else:
            share += _TYPE_SHARES.get(word, 0.12 if word in _COMMON_TYPES else 0.01)
    if context.text_languages:
        share, listing = share + 0.02, listing + _LANGUAGE
    return Estimate(min(share, 1.0), listing)


def _color_estimate(term: Term, context: Context) -> Estimate:
    if term.operator in ("<", "<=", "!=") or term.keyword == "identity":
        return Estimate(0.5, _FACE_INDEX)
    try:
        letters = None if isinstance(term.value, Number) else parse_colors(term)
    except SearchValueError:  # c=2, or a value the compiler will refuse
        letters = None
    share = 0.1 if not letters else 0.2 ** len(letters)
    return Estimate(share, _FACE_INDEX)  # the covering index of cards' colours


def _stat_estimate(term: Term, context: Context) -> Estimate:
    if isinstance(term.value, Field):  # pow>tou: every face compared
        return Estimate(0.1, _FACE_SCAN)
    return Estimate(0.1 if term.operator in (":", "=") else 0.15, _FACE_INDEX)


def _is_estimate(term: Term, context: Context) -> Estimate:
    value = term.value.text.strip().lower() if isinstance(term.value, Text) else ""
    if value in _RARE_LAYOUTS:
        share, listing = 0.01, 0.0
    elif value == "vanilla":
        share, listing = 0.02, _FACE_SCAN
    elif value == "reprint":
        share, listing = 0.5, 1.5
    else:  # spell, permanent
        share, listing = 0.6, _FACE_SCAN
    negated = (term.keyword == "not") != (term.operator == "!=")
    return Estimate(1 - share if negated else share, listing)


_TERM_ESTIMATES: dict[str, Callable[[Term, Context], Estimate]] = {
    "name": lambda term, context: _text_estimate(term.value),
    "oracle": lambda term, context: _text_estimate(term.value),
    "ruling": lambda term, context: _text_estimate(term.value),
    "type": _type_estimate,
    "color": _color_estimate,
    "identity": _color_estimate,
    "mana": lambda term, context: Estimate(0.05, _FACE_SCAN),
    "mv": lambda term, context: Estimate(0.2 if term.operator in (":", "=") else 0.5, 0.0),
    "power": _stat_estimate,
    "toughness": _stat_estimate,
    "loyalty": _stat_estimate,
    "rarity": lambda term, context: Estimate(0.4, _PRINTINGS),
    "set": lambda term, context: Estimate(0.02, 0.02),
    "cn": lambda term, context: Estimate(0.3, _PRINTINGS),
    "keyword": lambda term, context: Estimate(0.05, _FACE_SCAN),
    "is": _is_estimate,
    "not": _is_estimate,
    "year": lambda term, context: Estimate(0.2, _PRINTINGS),
    "date": lambda term, context: Estimate(0.3, _PRINTINGS),
    "lang": lambda term, context: Estimate(0.9, _LANGUAGE),
    "in": lambda term, context: Estimate(0.8, 2 * _PRINTINGS),
    "has": lambda term, context: Estimate(0.5, 0.0),  # always a test of each card
    "fulloracle": lambda term, context: Estimate(0.05, _TEXT_SCAN),
    "artist": lambda term, context: Estimate(0.02, _PRINTINGS),
    "flavor": lambda term, context: Estimate(0.02, 2 * _PRINTINGS),
    "border": lambda term, context: Estimate(0.3, _PRINTINGS),
    "frame": lambda term, context: Estimate(0.3, _PRINTINGS),
    "game": lambda term, context: Estimate(0.5, _PRINTINGS),
    "legal": lambda term, context: Estimate(0.5, 0.3),
    "banned": lambda term, context: Estimate(0.01, 0.01),
    "restricted": lambda term, context: Estimate(0.01, 0.01),
}


def estimate(node: Query, context: Context) -> Estimate:
    """What ``node`` is likely to hold for and cost (see :class:`Estimate`)."""
    if isinstance(node, Name):
        return Estimate(0.001, 0.0) if node.exact else _text_estimate(Text(node.text))
    if isinstance(node, OnePrinting):
        return estimate(node.item, context)
    if isinstance(node, Not):
        inner = estimate(node.item, context)
        return Estimate(1 - inner.share, inner.listing)
    if isinstance(node, And | Or) or (isinstance(node, Term) and isinstance(node.value, Choices)):
        if isinstance(node, Term):
            assert isinstance(node.value, Choices)
            items: tuple[Query, ...] = tuple(replace(node, value=choice) for choice in node.value.values)
            both = node.operator == "!="
        else:
            items, both = node.items, isinstance(node, And)
        parts = [estimate(item, context) for item in items]
        share = prod(part.share for part in parts) if both else min(sum(part.share for part in parts), 1.0)
        return Estimate(share, sum(part.listing for part in parts))
    assert isinstance(node, Term)
    found = _TERM_ESTIMATES.get(node.keyword)
    return found(node, context) if found is not None else Estimate(1.0, _FACE_SCAN)


def _lookups(items: tuple[Query, ...], context: Context) -> list[Lookup]:
    """How each item of an AND is written: the most selective one (by :func:`driving_rank`, else
    by :func:`estimate`) finds the candidate cards; every other one tests each candidate
    (``"probe"``) or, when listing its cards once costs less than that, is a list."""
    ranks = [driving_rank(item) for item in items]
    best = max(ranks, default=0)
    if best > 0:
        driver = ranks.index(best)
        return ["drive" if index == driver else "probe" for index in range(len(items))]
    estimates = [estimate(item, context) for item in items]
    candidates = min(part.share for part in estimates)
    driver = next(index for index, part in enumerate(estimates) if part.share == candidates)
    return [
        "drive" if index == driver else "probe" if part.listing > candidates else "list"
        for index, part in enumerate(estimates)
    ]


def _compile_and(node: Query, context: Context) -> Condition:
    """All items; the most selective one finds the candidate cards, and each other one tests each
    candidate (``lookup="probe"``) or lists the cards it matches, whichever :func:`_lookups` finds
    cheaper. Under a probe, everything probes."""
    assert isinstance(node, And)
    if context.correlated:
        return and_(true(), *(compile_node(item, context) for item in node.items))
    lookups = _lookups(node.items, context)
    return and_(
        true(),
        *(
            compile_node(item, replace(context, lookup=context.lookup if lookup == "drive" else lookup))
            for item, lookup in zip(node.items, lookups, strict=True)
        ),
    )


def _compile_or(node: Query, context: Context) -> Condition:
    """Any item. Words and phrases searched in the same document field (``o:counter or
    o:destroy``, ``dragon or angel``) are one full-text query (:func:`matching_any_cards`), not a
    list per word."""
    assert isinstance(node, Or)
    if context.correlated:
        return or_(false(), *(compile_node(item, context) for item in node.items))
    conditions: list[Condition] = []
    texts: dict[tuple[str, frozenset[str] | None], list[str]] = {}
    for item in node.items:
        search = text_search(item, context)
        if search is None:
            conditions.append(compile_node(item, context))
        else:
            texts.setdefault((search.field, search.languages), []).append(search.folded)
    for (field, languages), values in texts.items():
        unique = list(dict.fromkeys(values))
        conditions.append(
            matching_any_cards(field, unique, languages, context.dialect, lookup=context.lookup)
        )
    return or_(false(), *conditions)


def _compile_term(node: Query, context: Context) -> Condition:
    assert isinstance(node, Term)
    if isinstance(node.value, Choices):
        parts = [compile_node(replace(node, value=choice), context) for choice in node.value.values]
        if node.operator == "!=":  # "r!=rare,mythic": none of them
            return and_(true(), *parts)
        return or_(false(), *parts)
    compiler = TERM_COMPILERS.get(node.keyword)
    if compiler is None:
        raise error(
            f"unknown keyword {node.keyword!r}", node.keyword, node.span, tuple(sorted(TERM_COMPILERS))
        )
    return compiler(node, context)


NODE_COMPILERS: dict[type, Callable[[Query, Context], Condition]] = {
    Name: _compile_name,
    Not: _compile_not,
    And: _compile_and,
    Or: _compile_or,
    Term: _compile_term,
    OnePrinting: _compile_one_printing,
}


# -- the whole query ------------------------------------------------------------------------------
def _terms(node: Query, *, negated: bool = True) -> Iterator[Term]:
    """The query's terms (``negated=False``: not those under a ``-``)."""
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Not):
        if negated:
            yield from _terms(node.item)
    elif isinstance(node, And | Or):
        for item in node.items:
            yield from _terms(item, negated=negated)


def text_languages(query: Query, lang: str | None = None) -> frozenset[str]:
    """The languages besides English that the query's text keywords search: those it names with
    ``lang:`` (not ``-lang:``, which excludes a language) and the language results are shown in."""
    found: set[str] = set()
    for term in _terms(query, negated=False):
        if term.keyword == "lang" and term.operator != "!=":
            values = term.value.values if isinstance(term.value, Choices) else (term.value,)
            for value in values:
                one = replace(term, value=value)
                found.add(ANY_LANGUAGE if text_of(one).strip().lower() == ANY_LANGUAGE else language_tag(one))
    if lang is not None and lang != "en":
        found.add(lang)
    found.discard("en")
    return frozenset(found)


def type_values(query: Query) -> frozenset[str]:
    """The folded values of the query's ``t:`` terms (to look up as localized type words)."""
    found: set[str] = set()
    for term in _terms(query):
        if term.keyword == "type":
            values = term.value.values if isinstance(term.value, Choices) else (term.value,)
            found.update(normalize(value.text) for value in values if isinstance(value, Text))
    return frozenset(found)


def compile_condition(
    query: Query,
    dialect: str = "sqlite",
    lang: str | None = None,
    type_words: Mapping[str, tuple[str, ...]] | None = None,
) -> Condition:
    """The condition on ``cards`` that ``query`` stands for (``lang``: the results' language tag;
    ``type_words``: localized type words, see :func:`carddb.search.run.load_type_words`)."""
    context = Context(dialect, text_languages(query, lang), type_words or {})
    return compile_node(group_printings(deduplicated(query)), context)


def printing_filter(
    query: Query,
    dialect: str = "sqlite",
    lang: str | None = None,
    type_words: Mapping[str, tuple[str, ...]] | None = None,
) -> Condition | None:
    """For ``unique:prints``: the condition on one printing row (with its set) that the query's
    top-level printing terms stand for (``s:atq -is:reprint``), None when it has none (every
    printing of each card found is listed)."""
    context = Context(dialect, text_languages(query, lang), type_words or {})
    grouped = group_printings(deduplicated(query))
    items = grouped.items if isinstance(grouped, And) else (grouped,)
    found = [cast(OnePrinting, item).item for item in items if isinstance(item, OnePrinting)]
    if not found:
        return None
    return and_(true(), *(_printing_condition(item, context) for item in found))


def compile_query(query: Query, dialect: str = "sqlite", lang: str | None = None) -> Select[Any]:
    """A select of the ids of the cards ``query`` finds."""
    return select(Card.id).where(compile_condition(query, dialect, lang))


__all__ = [
    "IS_VALUES",
    "NODE_COMPILERS",
    "TERM_COMPILERS",
    "Context",
    "Estimate",
    "OnePrinting",
    "compile_condition",
    "compile_node",
    "compile_query",
    "deduplicated",
    "driving_rank",
    "estimate",
    "group_printings",
    "is_printing_node",
    "printing_filter",
    "text_languages",
    "type_values",
]
