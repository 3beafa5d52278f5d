"""Run a compiled query (:mod:`carddb.search.compile`) on a session: one page of hits, sorted,
with the total, shown in the language asked for, read by one statement as plain rows."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from threading import Lock
from typing import Any

from sqlalchemy import BindParameter, Connection, Integer, Select, bindparam, func, select
from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session, aliased

from carddb import languages
from carddb.characteristics import type_bit
from carddb.db.models import Card, CardSet, Face, Localization, Printing, TypeWord
from carddb.db.translations import shown_translation
from carddb.search.ast import Query
from carddb.search.compile import compile_condition, type_values
from carddb.search.conditions import Condition
from carddb.search.results import ORDERS, SearchHit, SearchResult, SearchValueError

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
@lru_cache(maxsize=128)
def _order_by(order: str, lang: str) -> tuple[tuple[Any, bool], ...]:
    """The sort keys of ``order``, each with whether it sorts descending (built once per order and
    language: statements share them)."""
    name_key: Any = Card.name_norm
    if lang != "en":
        localized = (
            select(func.min(Localization.name_norm))
            .join(Face, Face.id == Localization.face_id)
            .where(Face.card_id == Card.id, Face.position == 0, Localization.language == lang)
            .scalar_subquery()
        )
        name_key = func.coalesce(localized, Card.name_norm)
    if order == "name":
        return ((name_key, False), (Card.id, False))
    if order == "mv":
        return ((Card.mana_value, False), (name_key, False), (Card.id, False))
    if order == "set":
        first_set = select(func.min(Printing.set_code)).where(Printing.card_id == Card.id).scalar_subquery()
        return ((first_set, False), (name_key, False), (Card.id, False))
    newest = (
        select(func.max(CardSet.release_date))
        .join(Printing, Printing.set_code == CardSet.code)
        .where(Printing.card_id == Card.id)
        .scalar_subquery()
    )
    return ((newest, True), (name_key, False), (Card.id, False))


_HIT_CARD = (Card.oracle_id, Card.name, Card.layout, Card.mana_value)
_HIT_FACE = (Face.name, Face.type_line, Face.mana_cost)
"""What a hit shows of its card and of each face. A row of the page is a face: its card's id,
these, the total, and in another language the shown translation's id, name and type line."""
_SHOWN_TRANSLATION = aliased(Localization, name="shown")
_TOTAL = 1 + len(_HIT_CARD) + len(_HIT_FACE)
_SHOWN = _TOTAL + 1


def _page(condition: Condition, order: str, lang: str) -> Select[Any]:
    """One statement for a page of hits, face by face, and the total: the matching cards with
    their sort keys are found once (a materialized CTE), then counted, and sorted for the page; only
    the page's cards are read with their faces (and, in another language, the translation each face
    is shown in). Finding them apart from the ORDER BY and LIMIT keeps PostgreSQL from walking every
    card in name order to avoid a sort (it cannot stop early anyway: the total needs every match),
    and costs SQLite less than a window count. The page's size and offset are bound at execution
    (``page_limit``, ``page_offset``)."""
    keys = _order_by(order, lang)
    matched = (
        select(Card.id.label("id"), *(key.label(f"sort{index}") for index, (key, _) in enumerate(keys)))
        .where(condition)
        .cte("matched")
        .prefix_with("MATERIALIZED")
    )

    def sorted_by(source: Any) -> list[Any]:
        return [
            source.c[f"sort{index}"].desc() if descending else source.c[f"sort{index}"]
            for index, (_, descending) in enumerate(keys)
        ]

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


def _statement(condition: Condition, order: str, lang: str) -> tuple[Select[Any], dict[str, Any]]:
    """The page statement for ``condition``, and the values to run it with.

    Queries of the same shape (``o:haste`` and ``o:flash``, ``mv<=3`` and ``mv<=4``) compile to
    conditions with the same SQLAlchemy cache key and differ only in their bound values: the page
    statement is built once per shape, order and language, and later conditions of that shape bind
    their values to its parameters, position by position, the correspondence SQLAlchemy's own
    compiled cache relies on. So the statement is neither built nor keyed again, and its compiled
    SQL is reused."""
    key = condition._generate_cache_key()
    if key is None:  # not cacheable: build it for this query alone
        return _page(condition, order, lang), {}
    shape = (key.key, order, lang)
    with _SHAPES_LOCK:
        shaped = _SHAPES.get(shape)
        if shaped is not None:
            _SHAPES.move_to_end(shape)
    if shaped is None:
        shaped = _Shaped(_page(condition, order, lang), tuple(key.bindparams))
        with _SHAPES_LOCK:
            _SHAPES[shape] = shaped
            while len(_SHAPES) > _MAX_SHAPES:
                _SHAPES.popitem(last=False)
    values = {old.key: new.effective_value for old, new in zip(shaped.binds, key.bindparams, strict=True)}
    return shaped.statement, values


def _hits(rows: Sequence[Any], lang: str) -> list[SearchHit]:
    """The page's rows (a row per face, a card's faces in order) as hits."""
    hits = []
    for _, grouped in groupby(rows, key=itemgetter(0)):
        faces = list(grouped)
        _, oracle_id, name, layout, mana_value = faces[0][:5]
        if faces[0][5] is None:  # a card without faces
            faces = []
        names, types, localized = [], [], False
        for face in faces:
            face_name, type_line = face[5], face[6]
            if len(face) > _SHOWN and face[_SHOWN] is not None:
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
            )
        )
    return hits


def search(
    session: Session,
    query: Query,
    text: str = "",
    lang: str | None = None,
    limit: int = 50,
    page: int = 1,
    order: str = "name",
) -> SearchResult:
    """Run ``query``: one page of the cards it finds, shown in ``lang`` (default English)."""
    if order not in ORDERS:
        raise SearchValueError(f"unknown order {order!r}", order, None, ORDERS)
    if limit < 1:
        raise SearchValueError(f"limit must be at least 1, not {limit}", str(limit))
    if page < 1:
        raise SearchValueError(f"page must be at least 1, not {page}", str(page))
    tag = languages.resolve(lang).tag if lang else "en"
    connection = session.connection()  # plain rows: no ORM entities are loaded
    try:
        condition = compile_condition(
            query, connection.dialect.name, tag, load_type_words(connection, type_values(query))
        )
    except SearchValueError as exc:
        raise exc.with_query(text) from None
    try:
        statement, values = _statement(condition, order, tag)
        values.update(page_limit=limit, page_offset=(page - 1) * limit)
        rows = connection.execute(statement, values).all()
        if rows:
            total = int(rows[0][_TOTAL])
        elif page == 1:
            total = 0
        else:  # past the last page: count on its own
            total = int(connection.scalar(select(func.count()).select_from(Card).where(condition)) or 0)
    except DataError as exc:  # PostgreSQL rejects a pattern Python's re accepts
        session.rollback()
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise SearchValueError(f"the database rejects the query: {reason}", text, None, (), text) from None
    return SearchResult(
        query=text,
        language=tag,
        total=total,
        page=page,
        limit=limit,
        order=order,
        cards=tuple(_hits(rows, tag)),
    )


__all__ = ["load_type_words", "search"]
