"""Keeping the search index in step with the cards: the one entry point the importer calls.

:func:`refresh` rebuilds, inside the caller's transaction, the search documents of the cards an
import touched (:mod:`carddb.search.documents`) and the localized type words derived from every
imported type line (:mod:`carddb.search.vocabulary`). The full-text indexes over the documents
follow by themselves: triggers on SQLite (FTS5), GIN indexes on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Table, delete, insert, select

from carddb.db.models import Face, Localization, TypeWord
from carddb.search.documents import refresh_documents
from carddb.search.vocabulary import derive_type_words

__all__ = ["refresh", "refresh_type_words"]

type_words_t: Table = TypeWord.__table__  # type: ignore[assignment]


def refresh_type_words(connection: Connection) -> int:
    """Derive the localized type words again from all stored type lines; return how many."""
    rows = connection.execute(
        select(Localization.language, Localization.type_line, Face.type_line)
        .join(Face, Face.id == Localization.face_id)
        .where(Localization.language != "en", Localization.type_line.is_not(None))
    )
    words = derive_type_words((language, local, english) for language, local, english in rows if local)
    connection.execute(delete(type_words_t))
    values = [
        {"word": word, "language": language, "english": english}
        for (language, word), englishes in sorted(words.items())
        for english in englishes
    ]
    if values:
        connection.execute(insert(type_words_t), values)
    return len(values)


def refresh(connection: Connection, card_ids: Iterable[int] | None = None) -> None:
    """Rebuild the search documents of ``card_ids`` (None: every card) and the type words."""
    refresh_documents(connection, card_ids)
    refresh_type_words(connection)
