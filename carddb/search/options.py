"""Display terms: ``order:``, ``direction:``, ``unique:`` and ``include:`` say how to show the
results, not which cards match. As in Scryfall they may stand anywhere in the query
(``t:dragon order:cmc direction:desc``); :func:`split_options` takes them out before the rest is
compiled. Under ``-`` they mean nothing, and the compiler refuses them there
(:mod:`carddb.search.keywords`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carddb.search.ast import And, Or, Query, Span, Term
from carddb.search.conditions import check_operator, error, text_of
from carddb.search.results import ORDERS

__all__ = [
    "DIRECTIONS",
    "DISPLAY_KEYWORDS",
    "ORDERS",
    "ORDER_ALIASES",
    "UNIQUES",
    "UNSUPPORTED_ORDERS",
    "DisplayOptions",
    "order_name",
    "split_options",
]

ORDER_ALIASES = {"cmc": "mv", "manavalue": "mv", "colour": "color", "date": "released"}
UNSUPPORTED_ORDERS = {
    "usd": "prices",
    "eur": "prices",
    "tix": "prices",
    "edhrec": "EDHREC ranks",
    "penny": "Penny Dreadful ranks",
    "review": "review dates",
    "spoiled": "spoiler dates",
}
"""Scryfall orders over data carddb does not have, with what is missing."""
DIRECTIONS = ("auto", "asc", "desc")
UNIQUES = ("cards", "prints", "art")
DISPLAY_KEYWORDS = frozenset({"order", "direction", "unique", "include"})


@dataclass(frozen=True, slots=True)
class DisplayOptions:
    """What the query's display terms asked for (None: not given)."""

    order: str | None = None
    direction: str | None = None
    unique: str | None = None
    include_extras: bool = False


def order_name(value: str, span: Span | None = None) -> str:
    """The canonical order for ``value`` (``cmc`` → ``mv``); a typed error for any other."""
    folded = value.strip().lower()
    folded = ORDER_ALIASES.get(folded, folded)
    if folded in ORDERS and folded not in ORDER_ALIASES:
        return folded
    if folded in UNSUPPORTED_ORDERS:
        raise error(
            f"order {value!r} needs {UNSUPPORTED_ORDERS[folded]}, which carddb does not have",
            value,
            span,
            ORDERS,
        )
    raise error(f"unknown order {value!r}", value, span, ORDERS)


def _choice(term: Term, choices: tuple[str, ...], what: str) -> str:
    check_operator(term, (":", "="))
    value = text_of(term).strip().lower()
    if value not in choices:
        raise error(f"unknown {what} {text_of(term)!r}", text_of(term), term.span, choices)
    return value


def _display_terms(query: Query) -> list[Term]:
    """The display terms of ``query`` that are not under a ``-``, in order."""
    if isinstance(query, Term):
        return [query] if query.keyword in DISPLAY_KEYWORDS else []
    if isinstance(query, And | Or):
        return [term for item in query.items for term in _display_terms(item)]
    return []


def _without_display(query: Query) -> Query | None:
    """``query`` without the display terms :func:`_display_terms` finds (None: nothing left)."""
    if isinstance(query, Term) and query.keyword in DISPLAY_KEYWORDS:
        return None
    if isinstance(query, And | Or):
        items = [kept for item in query.items if (kept := _without_display(item)) is not None]
        if not items:
            return None
        if len(items) == 1:
            return items[0]
        return type(query)(tuple(items), query.span)
    return query


def split_options(query: Query) -> tuple[Query | None, DisplayOptions]:
    """``query`` without its display terms (None when nothing else is left), and what they ask
    for. They may stand anywhere but under ``-`` (where the compiler refuses them); a display term
    given twice keeps the last one, as Scryfall does."""
    options = DisplayOptions()
    terms = _display_terms(query)
    for item in terms:
        if item.keyword == "order":
            check_operator(item, (":", "="))
            options = replace(options, order=order_name(text_of(item), item.span))
        elif item.keyword == "direction":
            options = replace(options, direction=_choice(item, DIRECTIONS, "direction"))
        elif item.keyword == "unique":
            options = replace(options, unique=_choice(item, UNIQUES, "unique: value"))
        else:
            _choice(item, ("extras",), "include: value")
            options = replace(options, include_extras=True)
    return (_without_display(query) if terms else query), options
