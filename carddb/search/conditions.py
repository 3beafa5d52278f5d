"""What every search compiler shares: the :class:`Context` a condition is compiled in, the
checks and readers of a term's value (errors carry the term's span), the text and number matches,
and the conditions on ``cards`` made from rows of faces, printings and localizations.

Each condition on ``cards`` is mostly ``cards.id IN (select card_id from …)``
(:func:`cards_with`), or, when another term drives the query, a probe of each candidate card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Float, Select, and_, case, cast, exists, false, func, select
from sqlalchemy.sql.elements import ColumnElement

from carddb.db.models import Card, CardSet, Face, Localization, Printing
from carddb.search.ast import Choices, Field, Number, Regex, Span, Term, Text
from carddb.search.fulltext import Lookup, cards_among, narrowing_ids, required_literal, required_prefix
from carddb.search.regex import UnsupportedPatternError, check_pattern
from carddb.search.results import SearchValueError

Condition = ColumnElement[bool]

ANY_LANGUAGE = "any"

COMPARE: dict[str, Callable[[Any, Any], Condition]] = {
    ":": lambda a, b: a == b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
}
_NUMBER_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"


@dataclass(frozen=True, slots=True)
class Context:
    """What compiling needs besides the node: the dialect, and the languages text keywords search
    besides English (empty: English only; containing ``"any"``: every language)."""

    dialect: str
    text_languages: frozenset[str] = frozenset()
    type_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Localized type words (folded) → the English type words they translate."""
    lookup: Lookup = "drive"
    """How conditions on cards are written: see :data:`carddb.search.fulltext.Lookup`."""

    @property
    def correlated(self) -> bool:
        """Another term of the enclosing AND drives the query: test candidate cards one by one."""
        return self.lookup == "probe"

    @property
    def any_language(self) -> bool:
        return ANY_LANGUAGE in self.text_languages

    @property
    def document_languages(self) -> frozenset[str] | None:
        """The languages of the documents text keywords search (None: every language)."""
        return None if self.any_language else self.text_languages | {"en"}


# -- helpers ------------------------------------------------------------------------------------
def error(message: str, value: str, span: Span | None, choices: tuple[str, ...] = ()) -> SearchValueError:
    return SearchValueError(message, value, span, choices)


def value_text(value: object) -> str:
    if isinstance(value, Text):
        return value.text
    if isinstance(value, Regex):
        return f"/{value.pattern}/"
    if isinstance(value, Number):
        return f"{value.value:g}"
    if isinstance(value, Field):
        return value.name
    if isinstance(value, Choices):
        return ",".join(v.text for v in value.values)
    return str(value)


def text_of(term: Term) -> str:
    if isinstance(term.value, Text):
        return term.value.text
    if isinstance(term.value, Number):
        return f"{term.value.value:g}"
    raise error(
        f"{term.keyword}: expects a word, not {value_text(term.value)!r}", value_text(term.value), term.span
    )


def check_operator(term: Term, allowed: tuple[str, ...]) -> None:
    if term.operator not in allowed:
        raise error(
            f"{term.keyword} does not take the operator {term.operator!r}", term.operator, term.span, allowed
        )


def contains(column: Any, value: str) -> Condition:
    """Case-insensitive substring match, ``LIKE`` with the value escaped and bound."""
    result: Condition = func.lower(column).contains(value.lower(), autoescape=True)
    return result


def regex_match(column: Any, term: Term, pattern: str, context: Context) -> Condition:
    """Case-insensitive regular expression match (SQLite: Python's re, PostgreSQL: ``~*``). On
    SQLite, where each test calls Python, an anchored pattern (``^a.*n$``) is tried only on the
    texts that start with what it starts with (:func:`required_prefix`), a ``LIKE`` SQLite answers
    itself."""
    try:
        re.compile("(?i)" + pattern)
        check_pattern(pattern)
    except re.error as exc:
        raise error(f"invalid regular expression /{pattern}/: {exc}", pattern, term.span) from None
    except UnsupportedPatternError as exc:
        raise error(f"unsupported regular expression /{pattern}/: {exc.reason}", pattern, term.span) from None
    result: Condition
    if context.dialect == "sqlite":
        result = column.regexp_match("(?i)" + pattern)
        prefix = required_prefix(pattern)
        if prefix is not None:  # one bound pattern: an index with NOCASE could serve it as a range
            escaped = prefix.replace("/", "//").replace("%", "/%").replace("_", "/_")
            result = and_(column.like(escaped + "%", escape="/"), result)
    else:
        result = column.regexp_match(pattern, flags="i")
    return result


_REMINDER_SQL = r"[ \t]*\([^()\n]*\)"


def rules_text(column: Any, context: Context) -> Any:
    """A rules text column without its reminder text (what ``o:`` searches, as Scryfall): SQLite
    calls :func:`carddb.characteristics.without_reminder` (registered by :mod:`carddb.db.engine`),
    PostgreSQL removes the parenthesized runs itself."""
    if context.dialect == "sqlite":
        return func.carddb_without_reminder(column)
    return func.regexp_replace(column, _REMINDER_SQL, "", "g")


_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
MAX_NUMBER = 1e9
"""The largest number a keyword compares with (a year, a mana value, a collector number)."""


def number_of(term: Term) -> float:
    """The term's value as a finite number (``inf``, ``NaN``, ``1e999`` are not numbers here)."""
    if isinstance(term.value, Number):
        return term.value.value
    text = text_of(term).strip()
    if not _NUMBER_TEXT.fullmatch(text) or not abs(float(text)) <= MAX_NUMBER:
        raise error(f"{term.keyword}: expects a number, not {text!r}", text, term.span)
    return float(text)


def searched_languages(context: Context) -> frozenset[str] | None:
    """The languages besides English that text keywords search (None: every language)."""
    return None if context.any_language else context.text_languages


def narrowed(
    condition: Condition,
    card_id: Any,
    field: str,
    pattern: str,
    languages: frozenset[str] | None,
    context: Context,
) -> Condition:
    """``condition`` (a regular expression test), tried only on the cards whose search documents
    may contain the text every match of ``pattern`` contains (:func:`required_literal`), found by
    the full-text index (:func:`narrowing_ids`); unchanged when there is no such text or each
    candidate card is probed anyway."""
    literal = required_literal(pattern)
    if literal is None or context.correlated:
        return condition
    return and_(card_id.in_(narrowing_ids(field, literal, languages, context.dialect)), condition)


def numeric(column: Any) -> Any:
    """A text column (power, collector number) as a number where it is one, else NULL."""
    return case((column.regexp_match(_NUMBER_PATTERN), cast(column, Float)), else_=None)


def cards_with(rows: Select[Any], card_id: Any, context: Context) -> Condition:
    """Cards with a row in ``rows`` (``card_id``: its card id column): ``cards.id IN (rows)``, a
    list made once; or, when another term drives the query (``context.correlated``), a probe of
    each candidate card by its id."""
    if context.correlated:
        return exists(rows.where(card_id == Card.id))
    return cards_among(rows.with_only_columns(card_id), context.dialect, context.lookup)


# The joins conditions on cards are made of, built once: each use adds its own WHERE.
FACES = select(Face.id)
PRINTINGS = select(Printing.id).join(CardSet, CardSet.code == Printing.set_code)
"""Printings with their sets."""
TRANSLATIONS = select(Localization.id).join(Face, Localization.face_id == Face.id)
"""Translations with their faces (whose ``card_id`` is the card's)."""


def faces_where(condition: Condition, context: Context) -> Condition:
    return cards_with(FACES.where(condition), Face.card_id, context)


def printings_where(condition: Condition, context: Context) -> Condition:
    return cards_with(PRINTINGS.where(condition), Printing.card_id, context)


def localized_where(condition: Condition, context: Context) -> Condition:
    """Cards with a translation, in a language the query searches, that meets ``condition``."""
    if not context.text_languages:
        return false()
    query = TRANSLATIONS.where(condition)
    if not context.any_language:
        query = query.where(Localization.language.in_(sorted(context.text_languages)))
    return cards_with(query, Face.card_id, context)


__all__ = [
    "ANY_LANGUAGE",
    "COMPARE",
    "FACES",
    "PRINTINGS",
    "TRANSLATIONS",
    "Condition",
    "Context",
    "cards_with",
    "check_operator",
    "contains",
    "error",
    "faces_where",
    "localized_where",
    "narrowed",
    "number_of",
    "numeric",
    "printings_where",
    "regex_match",
    "rules_text",
    "searched_languages",
    "text_of",
    "value_text",
]
