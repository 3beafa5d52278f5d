"""Run a compiled query (:mod:`carddb.search.compile`) on a session: one page of hits, sorted,
with the total, shown in the language asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session

from carddb import languages
from carddb.db.models import Card, CardSet, Face, Localization, Printing, TypeWord
from carddb.db.translations import translations_to_show
from carddb.search.ast import Query
from carddb.search.compile import compile_condition, type_values
from carddb.search.conditions import Condition
from carddb.search.results import ORDERS, SearchHit, SearchResult, SearchValueError


def load_type_words(session: Session, words: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The English type words each of ``words`` translates, from the derived ``type_words`` table."""
    found: dict[str, list[str]] = {}
    if words:
        rows = session.execute(
            select(TypeWord.word, TypeWord.english).where(TypeWord.word.in_(sorted(words))).distinct()
        )
        for word, english in rows:
            found.setdefault(word, []).append(english)
    return {word: tuple(sorted(englishes)) for word, englishes in found.items()}


# -- running ----------------------------------------------------------------------------------------
def _order_by(order: str, lang: str) -> list[tuple[Any, bool]]:
    """The sort keys of ``order``, each with whether it sorts descending."""
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
        return [(name_key, False), (Card.id, False)]
    if order == "mv":
        return [(Card.mana_value, False), (name_key, False), (Card.id, False)]
    if order == "set":
        first_set = select(func.min(Printing.set_code)).where(Printing.card_id == Card.id).scalar_subquery()
        return [(first_set, False), (name_key, False), (Card.id, False)]
    newest = (
        select(func.max(CardSet.release_date))
        .join(Printing, Printing.set_code == CardSet.code)
        .where(Printing.card_id == Card.id)
        .scalar_subquery()
    )
    return [(newest, True), (name_key, False), (Card.id, False)]


_HIT_COLUMNS = (Card.id, Card.oracle_id, Card.name, Card.layout, Card.mana_value)
"""What a hit shows of the card itself, read with the page of ids (plain rows, not ORM entities)."""


def _page(condition: Condition, order: str, lang: str, limit: int, offset: int) -> Select[Any]:
    """One statement for a page of hits and the total: the matching cards with their sort keys are
    found once (a materialized CTE), then counted and sorted. Finding them apart from the ORDER BY
    and LIMIT keeps PostgreSQL from walking every card in name order to avoid a sort (it cannot stop
    early anyway: the total needs every match), and costs SQLite less than a window count."""
    keys = _order_by(order, lang)
    matched = (
        select(*_HIT_COLUMNS, *(key.label(f"sort{index}") for index, (key, _) in enumerate(keys)))
        .where(condition)
        .cte("matched")
        .prefix_with("MATERIALIZED")
    )
    total = select(func.count()).select_from(matched).scalar_subquery().label("total")
    sort = [
        matched.c[f"sort{index}"].desc() if descending else matched.c[f"sort{index}"]
        for index, (_, descending) in enumerate(keys)
    ]
    hit_columns = [matched.c[column.key] for column in _HIT_COLUMNS]
    return select(*hit_columns, total).order_by(*sort).limit(limit).offset(offset)


def _hits(session: Session, rows: Sequence[Any], lang: str) -> list[SearchHit]:
    if not rows:
        return []
    card_ids = [row.id for row in rows]
    cards = {row.id: row for row in rows}
    faces: dict[int, list[Any]] = {}
    for face in session.execute(
        select(Face.id, Face.card_id, Face.name, Face.type_line, Face.mana_cost)
        .where(Face.card_id.in_(card_ids))
        .order_by(Face.card_id, Face.position)
    ):
        faces.setdefault(face.card_id, []).append(face)
    shown = (
        translations_to_show(session, [f.id for fs in faces.values() for f in fs], {lang}, "").get(lang, {})
        if lang != "en"
        else {}
    )
    hits = []
    for card_id in card_ids:
        card, card_faces = cards[card_id], faces.get(card_id, [])
        names, types, localized = [], [], False
        for face in card_faces:
            loc = shown.get(face.id)
            localized = localized or loc is not None
            names.append(loc.name if loc is not None else face.name)
            types.append(loc.type_line or face.type_line if loc is not None else face.type_line)
        costs = [f.mana_cost for f in card_faces if f.mana_cost]
        hits.append(
            SearchHit(
                oracle_id=card.oracle_id,
                name=" // ".join(names) if localized else card.name,
                english_name=card.name,
                language=lang if localized else "en",
                layout=card.layout,
                mana_cost=" // ".join(costs) if costs else None,
                mana_value=card.mana_value,
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
    dialect = session.get_bind().dialect.name
    try:
        condition = compile_condition(query, dialect, tag, load_type_words(session, type_values(query)))
    except SearchValueError as exc:
        raise exc.with_query(text) from None
    try:
        rows = session.execute(_page(condition, order, tag, limit, (page - 1) * limit)).all()
        if rows:
            total = int(rows[0].total)
        elif page == 1:
            total = 0
        else:  # past the last page: count on its own
            total = int(session.scalar(select(func.count()).select_from(Card).where(condition)) or 0)
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
        cards=tuple(_hits(session, rows, tag)),
    )


__all__ = ["load_type_words", "search"]
