"""Run a compiled query (:mod:`carddb.search.compile`) on a session: one page of hits, sorted,
with the total, shown in the language asked for, read by one statement as plain rows."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from threading import Lock
from typing import Any

from sqlalchemy import BindParameter, Connection, Integer, Select, and_, bindparam, case, func, select, true
from sqlalchemy.exc import DataError, DBAPIError, OperationalError
from sqlalchemy.orm import Session, aliased

from carddb import languages
from carddb.characteristics import type_bit
from carddb.db.models import Card, CardSet, Face, Localization, Printing, TypeWord
from carddb.db.translations import shown_translation
from carddb.search.ast import And, Choices, Not, Or, Query, Term, Text
from carddb.search.compile import compile_condition, deduplicated, printing_filter, type_values
from carddb.search.conditions import Condition
from carddb.search.keywords import RARITIES
from carddb.search.options import DIRECTIONS, UNIQUES, order_name, split_options
from carddb.search.parse import term_count
from carddb.search.results import (
    SearchDatabaseError,
    SearchHit,
    SearchResult,
    SearchTimeoutError,
    SearchValueError,
)

_TYPE_WORDS = (
    select(TypeWord.word, TypeWord.english)
    .where(TypeWord.word.in_(bindparam("words", expanding=True)))
    .distinct()
)
"""Built once: only the words change from one query to the next."""


_ENGLISH_WORDS = (
    select(TypeWord.english).where(TypeWord.english.in_(bindparam("words", expanding=True))).distinct()
)


def load_type_words(connection: Connection, words: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The English type words each of ``words`` translates, from the derived ``type_words`` table.

    English first: a word that is itself an English type word (``knight``, ``serpent``, ``saga``)
    means that type in every language, even where another language's cards print it for
    something else (a Spanish card printed "Knight" for a Human Knight, French "serpent" is a
    Snake): only words that are not English type words are read as translations (``Ritter``)."""
    found: dict[str, list[str]] = {}
    if words:
        english = {word for word in words if type_bit(word) is not None}
        english.update(connection.execute(_ENGLISH_WORDS, {"words": sorted(words)}).scalars())
        for word, translated in connection.execute(_TYPE_WORDS, {"words": sorted(words - english)}):
            found.setdefault(word, []).append(translated)
    return {word: tuple(sorted(englishes)) for word, englishes in found.items()}


# -- running ----------------------------------------------------------------------------------------
_RARITY_RANK = case(*((Printing.rarity == rarity, rank) for rank, rarity in enumerate(RARITIES)), else_=None)
_COLOR_RANK = case(
    (func.length(Card.colors) == 0, 6),
    (func.length(Card.colors) >= 2, 5),
    *((Card.colors == letter, rank) for rank, letter in enumerate("WUBR")),
    else_=4,
)
"""Scryfall's colour order: white, blue, black, red, green, then multicoloured, then colourless."""
_DESCENDING_FIRST = frozenset({"released", "power", "toughness"})
"""Orders whose natural direction is highest first (Scryfall: newest first, power high → low)."""


def _front(column: Any) -> Any:
    return select(column).where(Face.card_id == Card.id, Face.position == 0).limit(1).scalar_subquery()


def _order_key(order: str) -> Any:
    """The card's sort key for ``order`` (``name`` is handled by :func:`_order_by`)."""
    if order == "mv":
        return Card.mana_value
    if order == "set":
        return select(func.min(Printing.set_code)).where(Printing.card_id == Card.id).scalar_subquery()
    if order == "released":
        return (
            select(func.max(CardSet.release_date))
            .join(Printing, Printing.set_code == CardSet.code)
            .where(Printing.card_id == Card.id)
            .scalar_subquery()
        )
    if order == "rarity":  # the card's highest rarity
        return select(func.max(_RARITY_RANK)).where(Printing.card_id == Card.id).scalar_subquery()
    if order == "color":
        return _COLOR_RANK
    if order == "power":
        return _front(Face.power_value)
    if order == "toughness":
        return _front(Face.toughness_value)
    assert order == "artist"
    return select(func.min(Printing.artist)).where(Printing.card_id == Card.id).scalar_subquery()


@lru_cache(maxsize=128)
def _order_by(order: str, lang: str, direction: str = "auto") -> tuple[tuple[Any, bool], ...]:
    """The sort keys of ``order``, each with whether it sorts descending (built once per order,
    language and direction: statements share them). Cards without a value (no mana value, a
    ``*`` power) come last either way, on both databases."""
    name_key: Any = Card.name_norm
    if lang != "en":
        localized = (
            select(func.min(Localization.name_norm))
            .join(Face, Face.id == Localization.face_id)
            .where(Face.card_id == Card.id, Face.position == 0, Localization.language == lang)
            .scalar_subquery()
        )
        name_key = func.coalesce(localized, Card.name_norm)
    descending = direction == "desc" if direction != "auto" else order in _DESCENDING_FIRST
    if order == "name":
        return ((name_key, descending), (Card.id, False))
    key = _order_key(order)
    return ((key.is_(None), False), (key, descending), (name_key, False), (Card.id, False))


_HIT_CARD = (Card.oracle_id, Card.name, Card.layout, Card.mana_value)
_HIT_FACE = (Face.name, Face.type_line, Face.mana_cost)
"""What a hit shows of its card and of each face. A row of the page is a face: its card's id,
these, the total, and in another language the shown translation's id, name and type line."""
_SHOWN_TRANSLATION = aliased(Localization, name="shown")
_TOTAL = 1 + len(_HIT_CARD) + len(_HIT_FACE)
_SHOWN = _TOTAL + 1


_PRINT_COLUMNS = 5
"""A page of printings (``unique:prints``) ends each row with the printing's id, set code,
collector number, rarity and release date."""


def _page(
    condition: Condition,
    order: str,
    lang: str,
    direction: str,
    printed: Condition | None = None,
) -> Select[Any]:
    """One statement for a page of hits, face by face, and the total: the matching cards with
    their sort keys are found once (a materialized CTE), then counted, and sorted for the page; only
    the page's cards are read with their faces (and, in another language, the translation each face
    is shown in). Finding them apart from the ORDER BY and LIMIT keeps PostgreSQL from walking every
    card in name order to avoid a sort (it cannot stop early anyway: the total needs every match),
    and costs SQLite less than a window count. The page's size and offset are bound at execution
    (``page_limit``, ``page_offset``)."""
    keys = _order_by(order, lang, direction)
    sort_keys = [key.label(f"sort{index}") for index, (key, _) in enumerate(keys)]
    if printed is None:
        found = select(Card.id.label("id"), *sort_keys).where(condition)
    else:  # unique:prints: a row per printing that meets the query's printing terms
        prints = (
            select(
                Printing.id.label("printing_id"),
                Printing.card_id.label("card_id"),
                Printing.set_code.label("set_code"),
                Printing.collector_number.label("collector_number"),
                Printing.rarity.label("rarity"),
                CardSet.release_date.label("released"),
            )
            .join(CardSet, CardSet.code == Printing.set_code)
            .where(printed)
            .subquery("prints")
        )
        found = (
            select(Card.id.label("id"), *sort_keys, *(c for c in prints.c if c.key != "card_id"))
            .select_from(Card)
            .join(prints, prints.c.card_id == Card.id)
            .where(condition)
        )
    matched = found.cte("matched").prefix_with("MATERIALIZED")

    def sorted_by(source: Any) -> list[Any]:
        order = [
            source.c[f"sort{index}"].desc() if descending else source.c[f"sort{index}"]
            for index, (_, descending) in enumerate(keys)
        ]
        if printed is not None:  # a card's printings newest first
            order[-1:-1] = [source.c.released.desc(), source.c.set_code, source.c.collector_number]
        return order

    page = (
        select(matched)
        .order_by(*sorted_by(matched))
        .limit(bindparam("page_limit", type_=Integer))
        .offset(bindparam("page_offset", type_=Integer))
        .subquery("page")
    )
    total = select(func.count()).select_from(matched).scalar_subquery()
    statement = (
        select(page.c.id, *_HIT_CARD, *_HIT_FACE, total.label("total"))
        .select_from(page)
        .join(Card, Card.id == page.c.id)
        .outerjoin(Face, Face.card_id == page.c.id)
    )
    if lang != "en":
        shown = _SHOWN_TRANSLATION
        statement = statement.add_columns(shown.id, shown.name, shown.type_line).outerjoin(
            shown, shown.id == shown_translation(Face.id, lang)
        )
    if printed is not None:
        statement = statement.add_columns(
            page.c.printing_id, page.c.set_code, page.c.collector_number, page.c.rarity, page.c.released
        )
        return statement.order_by(*sorted_by(page), page.c.printing_id, Face.position)
    return statement.order_by(*sorted_by(page), Face.position)


@dataclass(frozen=True, slots=True)
class _Shaped:
    """A page statement built for a condition, and the condition's bound parameters (in the order
    SQLAlchemy's cache key lists them)."""

    statement: Select[Any]
    binds: tuple[BindParameter[Any], ...]


_SHAPES: OrderedDict[tuple[Any, ...], _Shaped] = OrderedDict()
_SHAPES_LOCK = Lock()
_MAX_SHAPES = 128
"""About 130 KiB each with its compiled SQL: at most some 16 MiB."""


def _statement(
    condition: Condition, order: str, lang: str, direction: str, printed: Condition | None = None
) -> tuple[Select[Any], dict[str, Any]]:
    """The page statement for ``condition``, and the values to run it with.

    Queries of the same shape (``o:haste`` and ``o:flash``, ``mv<=3`` and ``mv<=4``) compile to
    conditions with the same SQLAlchemy cache key and differ only in their bound values: the page
    statement is built once per shape, order and language, and later conditions of that shape bind
    their values to its parameters, position by position, the correspondence SQLAlchemy's own
    compiled cache relies on. So the statement is neither built nor keyed again, and its compiled
    SQL is reused."""
    whole = condition if printed is None else and_(condition, printed)
    key = whole._generate_cache_key()
    if key is None:  # not cacheable: build it for this query alone
        return _page(condition, order, lang, direction, printed), {}
    shape = (key.key, order, lang, direction, printed is not None)
    with _SHAPES_LOCK:
        shaped = _SHAPES.get(shape)
        if shaped is not None:
            _SHAPES.move_to_end(shape)
    if shaped is None:
        shaped = _Shaped(_page(condition, order, lang, direction, printed), tuple(key.bindparams))
        with _SHAPES_LOCK:
            _SHAPES[shape] = shaped
            while len(_SHAPES) > _MAX_SHAPES:
                _SHAPES.popitem(last=False)
    values = {old.key: new.effective_value for old, new in zip(shaped.binds, key.bindparams, strict=True)}
    return shaped.statement, values


def _hits(rows: Sequence[Any], lang: str, prints: bool = False) -> list[SearchHit]:
    """The page's rows (a row per face, a card's faces in order; with ``prints``, per printing)
    as hits."""
    hits = []
    key = (lambda row: (row[0], row[-_PRINT_COLUMNS])) if prints else itemgetter(0)
    for _, grouped in groupby(rows, key=key):
        faces = list(grouped)
        _, oracle_id, name, layout, mana_value = faces[0][:5]
        if faces[0][5] is None:  # a card without faces
            faces = []
        names, types, localized = [], [], False
        for face in faces:
            face_name, type_line = face[5], face[6]
            if lang != "en" and face[_SHOWN] is not None:
                localized = True
                face_name, type_line = face[_SHOWN + 1], face[_SHOWN + 2] or type_line
            names.append(face_name)
            types.append(type_line)
        costs = [face[7] for face in faces if face[7]]
        hits.append(
            SearchHit(
                oracle_id=oracle_id,
                name=" // ".join(names) if localized else name,
                english_name=name,
                language=lang if localized else "en",
                layout=layout,
                mana_cost=" // ".join(costs) if costs else None,
                mana_value=mana_value,
                type_line=" // ".join(types),
                **(_printing_of(faces[0]) if prints and faces else {}),
            )
        )
    return hits


def _printing_of(row: Any) -> dict[str, Any]:
    _, set_code, number, rarity, released = row[-_PRINT_COLUMNS:]
    return {
        "set_code": set_code,
        "collector_number": number,
        "rarity": rarity,
        "released_at": released.isoformat() if released is not None else None,
    }


MAX_PAGE = 10**9
"""The highest page number (and page size) accepted."""
EXTRA_LAYOUTS = ("planar", "scheme", "vanguard")
"""Layouts Scryfall calls extras (planes and phenomena, schemes, Vanguard cards): left out
unless the query says ``include:extras`` or asks for them by type or layout."""
_EXTRA_WORDS = frozenset({"plane", "phenomenon", "scheme", "vanguard", "planar"})


def _asks_for_extras(query: Query | None) -> bool:
    """Whether the query names an extra by type (``t:plane``) or layout."""
    if query is None:
        return False
    if isinstance(query, Term):
        values = query.value.values if isinstance(query.value, Choices) else (query.value,)
        return query.keyword in ("type", "is") and any(
            isinstance(v, Text) and v.text.strip().lower() in _EXTRA_WORDS for v in values
        )
    if isinstance(query, Not):
        return _asks_for_extras(query.item)
    if isinstance(query, And | Or):
        return any(_asks_for_extras(item) for item in query.items)
    return False


def _checked_paging(limit: int, page: int) -> None:
    for what, value in (("limit", limit), ("page", page)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise SearchValueError(f"{what} must be a whole number, not {value!r}", str(value)[:40])
        if value < 1:
            raise SearchValueError(f"{what} must be at least 1, not {value}", str(value))
        if value > MAX_PAGE:
            raise SearchValueError(f"{what} must be at most {MAX_PAGE:,}, not {value}", str(value)[:40])


def search(
    session: Session,
    query: Query,
    text: str = "",
    lang: str | None = None,
    limit: int = 50,
    page: int = 1,
    order: str | None = None,
    direction: str | None = None,
    unique: str | None = None,
) -> SearchResult:
    """Run ``query``: one page of the cards it finds, shown in ``lang`` (default English).

    ``order``, ``direction`` and ``unique`` are the defaults of the query's own ``order:``,
    ``direction:`` and ``unique:`` terms (which win, as what the user typed): ``name``, ``auto``
    and ``cards``."""
    _checked_paging(limit, page)
    try:
        matched, options = split_options(query)
        order = order_name(options.order or order or "name")
        direction = options.direction or (direction or "auto").lower()
        if direction not in DIRECTIONS:
            raise SearchValueError(f"unknown direction {direction!r}", direction, None, DIRECTIONS)
        unique = options.unique or (unique or "cards").lower()
        if unique not in UNIQUES:
            raise SearchValueError(f"unknown unique: value {unique!r}", unique, None, UNIQUES)
        if unique == "art":
            raise SearchValueError(
                "unique:art is not supported: carddb shows one result per card (unique:cards) or "
                "per printing (unique:prints)",
                unique,
                None,
                ("cards", "prints"),
            )
    except SearchValueError as exc:
        raise exc.with_query(text) from None
    tag = languages.resolve(lang).tag if lang else "en"
    connection = session.connection()  # plain rows: no ORM entities are loaded
    printed: Condition | None = None
    try:
        condition: Condition = true()
        if matched is not None:
            type_words = load_type_words(connection, type_values(matched))
            condition = compile_condition(matched, connection.dialect.name, tag, type_words)
            if unique == "prints":
                printed = printing_filter(matched, connection.dialect.name, tag, type_words)
        if unique == "prints" and printed is None:
            printed = true()
    except SearchValueError as exc:
        raise exc.with_query(text) from None
    if not options.include_extras and not _asks_for_extras(matched):
        condition = and_(Card.layout.not_in(EXTRA_LAYOUTS), condition)
    try:
        with _statement_time(connection, term_count(deduplicated(matched)) if matched is not None else 0):
            statement, values = _statement(condition, order, tag, direction, printed)
            values.update(page_limit=limit, page_offset=(page - 1) * limit)
            rows = connection.execute(statement, values).all()
            if rows:
                total = int(rows[0][_TOTAL])
            elif page == 1:
                total = 0
            else:  # past the last page: count on its own
                total = _count(connection, condition, printed)
    except DataError as exc:  # PostgreSQL rejects a pattern Python's re accepts
        session.rollback()
        raise SearchValueError(
            f"the database rejects the query: {_reason(exc)}", text[:200], None, (), text
        ) from None
    except OperationalError as exc:
        session.rollback()
        if _is_timeout(exc):
            raise SearchTimeoutError(text, STATEMENT_SECONDS) from None
        raise SearchDatabaseError(text[:200], _reason(exc)) from None
    except DBAPIError as exc:  # never the statement (a big query's is hundreds of kilobytes)
        session.rollback()
        raise SearchDatabaseError(text[:200], _reason(exc)) from None
    return SearchResult(
        query=text,
        language=tag,
        total=total,
        page=page,
        limit=limit,
        order=order,
        cards=tuple(_hits(rows, tag, prints=printed is not None)),
        direction=direction,
        unique=unique,
    )


def _count(connection: Connection, condition: Condition, printed: Condition | None) -> int:
    """The cards (or, with ``printed``, the printings meeting it) that match, counted alone."""
    if printed is None:
        return int(connection.scalar(select(func.count()).select_from(Card).where(condition)) or 0)
    prints = (
        select(Printing.card_id).join(CardSet, CardSet.code == Printing.set_code).where(printed).subquery()
    )
    counted = (
        select(func.count()).select_from(Card).join(prints, prints.c.card_id == Card.id).where(condition)
    )
    return int(connection.scalar(counted) or 0)


STATEMENT_SECONDS = 20
"""PostgreSQL: the longest a search's statements may run (its regular expressions are
backtracking ones; SQLite's run in linear time, :mod:`carddb.search.regex`)."""


_MANY_TERMS = 8
"""PostgreSQL's ``join_collapse_limit``: past this many terms, the planner's search for a join
order over their semi-joins grows steeply (60 terms: 4.5 s of planning on 14 cards)."""


@contextmanager
def _statement_time(connection: Connection, terms: int) -> Iterator[None]:
    """PostgreSQL: the search's statements time out after :data:`STATEMENT_SECONDS`, and a query
    of many terms is planned in the order it is written (``join_collapse_limit = 1``: 0.35 s
    instead of 4.5 for 60 terms), for this transaction only."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SET LOCAL statement_timeout = '{STATEMENT_SECONDS}s'")
        if terms > _MANY_TERMS:
            connection.exec_driver_sql("SET LOCAL join_collapse_limit = 1")
    yield


def _reason(exc: DBAPIError) -> str:
    """The database's own reason, one line, never the statement (which can be huge)."""
    reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__
    return reason[:300]


def _is_timeout(exc: OperationalError) -> bool:
    return "statement timeout" in str(exc.orig) or "canceling statement" in str(exc.orig)


__all__ = ["EXTRA_LAYOUTS", "MAX_PAGE", "STATEMENT_SECONDS", "load_type_words", "search"]
