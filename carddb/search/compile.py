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
from dataclasses import replace
from typing import Any

from sqlalchemy import Select, and_, false, not_, or_, select, true

from carddb.db.models import Card
from carddb.search.ast import And, Choices, Name, Not, Or, Query, Term, Text
from carddb.search.conditions import ANY_LANGUAGE, Condition, Context, error, text_of
from carddb.search.documents import cjk_runs
from carddb.search.keywords import IS_VALUES, TERM_COMPILERS, language_tag, name_condition
from carddb.text import normalize


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


def _compile_and(node: Query, context: Context) -> Condition:
    """All items; the most selective one (if any is selective) finds the candidate cards, and the
    others test each candidate (``lookup="probe"``) instead of listing every card they match."""
    assert isinstance(node, And)
    ranks = [driving_rank(item) for item in node.items]
    best = max(ranks, default=0)
    if context.correlated:
        return and_(true(), *(compile_node(item, context) for item in node.items))
    if best == 0:  # nothing selective: intersect the lists
        listed = replace(context, lookup="list")
        return and_(true(), *(compile_node(item, listed) for item in node.items))
    driver = ranks.index(best)
    probe = replace(context, lookup="probe")
    return and_(
        true(),
        *(compile_node(item, context if index == driver else probe) for index, item in enumerate(node.items)),
    )


def _compile_or(node: Query, context: Context) -> Condition:
    assert isinstance(node, Or)
    return or_(false(), *(compile_node(item, context) for item in node.items))


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
    return compile_node(query, Context(dialect, text_languages(query, lang), type_words or {}))


def compile_query(query: Query, dialect: str = "sqlite", lang: str | None = None) -> Select[Any]:
    """A select of the ids of the cards ``query`` finds."""
    return select(Card.id).where(compile_condition(query, dialect, lang))


__all__ = [
    "IS_VALUES",
    "NODE_COMPILERS",
    "TERM_COMPILERS",
    "Context",
    "compile_condition",
    "compile_node",
    "compile_query",
    "driving_rank",
    "text_languages",
    "type_values",
]
