"""Display terms: ``order:``, ``direction:``, ``unique:`` and ``include:`` say how to show the
results, not which cards match. As in Scryfall they may stand anywhere at the top level of the
query (``t:dragon order:cmc direction:desc``); :func:`split_options` takes them out before the rest
is compiled. Under ``-``, ``or`` or parentheses they mean nothing, and the compiler refuses them
there (:func:`carddb.search.keywords`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carddb.search.ast import And, Query, Span, Term
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


def split_options(query: Query) -> tuple[Query | None, DisplayOptions]:
    """``query`` without its top-level display terms (None when nothing else is left), and what
    they ask for. A display term given twice keeps the last one, as Scryfall does."""
    items = query.items if isinstance(query, And) else (query,)
    kept: list[Query] = []
    options = DisplayOptions()
    for item in items:
        if not isinstance(item, Term) or item.keyword not in DISPLAY_KEYWORDS:
            kept.append(item)
            continue
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
    if not kept:
        return None, options
    if len(kept) == len(items):
        return query, options
    if len(kept) == 1:
        return kept[0], options
    assert isinstance(query, And)
    return And(tuple(kept), query.span), options
