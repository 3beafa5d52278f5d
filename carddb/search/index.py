"""Keeping the search index in step with the cards, once per import.

Each file an import reads records, in its own transaction, the cards it touched
(:func:`mark_pending`, into ``search_pending``). After the import's last file, :func:`refresh`
rebuilds the search documents of every pending card (:mod:`carddb.search.documents`) and the
localized type words derived from every stored type line (:mod:`carddb.search.vocabulary`), and
empties ``search_pending``, all in one transaction. So the work after an import is proportional to
what it touched, done once however many files it read, and an import interrupted between its
files and the rebuild leaves the cards pending: the next import (or schema upgrade) rebuilds them.

The full-text indexes over the documents follow by themselves: triggers on SQLite (FTS5), GIN
indexes on PostgreSQL.

The reading half of the work (documents built from the stored cards, type words derived from
the stored lines) is given by a :class:`IndexSource`: :class:`LocalSource` does it on the writer's
own connection; the importer can hand it to a second process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, Table, delete, exists, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from carddb.db.bulk import BulkWriter, chunks
from carddb.db.lists import among
from carddb.db.models import Base, Face, Localization, SearchDocument, SearchPending, TypeWord
from carddb.search.documents import (
    COLUMNS,
    FULLTEXT_TABLES,
    INSERT_TRIGGER,
    DocumentChanges,
    document_changes,
)
from carddb.search.vocabulary import derive_type_words

__all__ = [
    "CARDS_PER_STEP",
    "IndexSource",
    "LocalSource",
    "RefreshResult",
    "has_pending",
    "mark_pending",
    "pending_cards",
    "refresh",
    "refresh_statistics",
    "type_word_rows",
    "write_document_changes",
]

CARDS_PER_STEP = 500
"""Cards whose documents are built and written at a time."""
BULK_MIN_CARDS = 2000
"""Pending cards from which SQLite's full-text indexes are filled in bulk (see :func:`refresh`)."""
BULK_AUTOMERGE = 16
"""FTS5's ``automerge`` while filling in bulk: merge segments less often."""
DEFAULT_AUTOMERGE = 4
"""FTS5's own default ``automerge``, set again after a bulk fill."""

type_words_t: Table = TypeWord.__table__  # type: ignore[assignment]
documents_t: Table = SearchDocument.__table__  # type: ignore[assignment]
pending_t: Table = SearchPending.__table__  # type: ignore[assignment]

TypeWordRow = tuple[str, str, str]
"""(localized word, language, English word)."""


class IndexSource(Protocol):
    """What rebuilding the index reads: document changes for cards, and the type words."""

    def document_changes(
        self, card_ids: Sequence[Sequence[int]], compare: bool = True
    ) -> Iterator[DocumentChanges]:
        """The changes for each group of ``card_ids``, in order (``compare``: see
        :func:`~carddb.search.documents.document_changes`)."""
        ...

    def type_words(self) -> list[TypeWordRow]: ...


class LocalSource:
    """Reads on the given connection (the writer's, or any other)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def document_changes(
        self, card_ids: Sequence[Sequence[int]], compare: bool = True
    ) -> Iterator[DocumentChanges]:
        for group in card_ids:
            yield document_changes(self.connection, group, compare)

    def type_words(self) -> list[TypeWordRow]:
        return type_word_rows(self.connection)


@dataclass(frozen=True, slots=True)
class RefreshResult:
    """What a refresh did: cards whose documents were rebuilt, documents written, type words."""

    cards: int = 0
    documents: int = 0
    type_words: int = 0
    seconds: float = 0.0


def write_document_changes(
    connection: Connection, changes: DocumentChanges, writer: BulkWriter | None = None
) -> int:
    """Apply ``changes`` (:func:`~carddb.search.documents.document_changes`) in the caller's
    transaction; return the number of documents written."""
    if changes.replace:
        for chunk in chunks(list(changes.cards)):
            connection.execute(delete(documents_t).where(among(documents_t.c.card_id, chunk)))
    for chunk in chunks(list(changes.stale)):
        connection.execute(delete(documents_t).where(among(documents_t.c.id, chunk)))
    (writer or BulkWriter(connection)).insert_new(documents_t, COLUMNS, changes.fresh, None)
    return len(changes.fresh)


def mark_pending(connection: Connection, card_ids: Iterable[int]) -> None:
    """Record, in the caller's transaction, that the documents of ``card_ids`` must be rebuilt."""
    ids = sorted(set(card_ids))
    if not ids:
        return
    dialect: Any = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(pending_t).on_conflict_do_nothing(index_elements=["card_id"])
    connection.execute(statement, [{"card_id": card_id} for card_id in ids])


def has_pending(connection: Connection) -> bool:
    return bool(connection.scalar(select(exists().where(pending_t.c.card_id.is_not(None)))))


def pending_cards(connection: Connection) -> list[int]:
    return list(connection.scalars(select(pending_t.c.card_id).order_by(pending_t.c.card_id)))


def type_word_rows(connection: Connection) -> list[TypeWordRow]:
    """The localized type words derived from every stored translated type line."""
    rows = connection.execute(
        select(Localization.language, Localization.type_line, Face.type_line)
        .join(Face, Face.id == Localization.face_id)
        .where(Localization.language != "en", Localization.type_line.is_not(None))
    )
    words = derive_type_words((language, local, english) for language, local, english in rows if local)
    return [
        (word, language, english)
        for (language, word), englishes in sorted(words.items())
        for english in englishes
    ]


def refresh(
    connection: Connection,
    source: IndexSource | None = None,
    progress: Callable[[int], None] | None = None,
) -> RefreshResult:
    """Rebuild, in the caller's transaction, the documents of the pending cards and the type words,
    and clear the pending cards. ``source`` reads (default: this connection); ``progress`` is told
    how many more cards are done."""
    started = time.perf_counter()
    ids = pending_cards(connection)
    if not ids:
        return RefreshResult()
    source = source or LocalSource(connection)
    writer = BulkWriter(connection)
    groups = [ids[start : start + CARDS_PER_STEP] for start in range(0, len(ids), CARDS_PER_STEP)]
    written = 0
    bulk = len(ids) >= BULK_MIN_CARDS
    postgresql = connection.dialect.name == "postgresql"
    bulk_class = _BulkGin if postgresql else _BulkFulltext
    # A bulk rebuild on PostgreSQL holds the documents table locked (its indexes are dropped): the
    # documents are written again whole, without reading the stored ones (see _BulkGin).
    compare = not (bulk and postgresql)
    with bulk_class(connection) if bulk else nullcontext() as fulltext:
        for number, changes in enumerate(source.document_changes(groups, compare)):
            written += write_document_changes(connection, changes, writer)
            if fulltext is not None:
                fulltext.add([row[0] for row in changes.fresh])
            if progress is not None:
                progress(len(groups[number]))
    words = source.type_words()
    connection.execute(delete(type_words_t))
    if words:
        connection.execute(
            insert(type_words_t), [{"word": w, "language": lang, "english": e} for w, lang, e in words]
        )
    connection.execute(delete(pending_t))
    return RefreshResult(len(ids), written, len(words), time.perf_counter() - started)


class _BulkFulltext:
    """SQLite: documents added to the FTS5 tables in bulk rather than row by row through the insert
    trigger, which costs about twice as long for a whole card pool: after each group of documents
    is written, one ``INSERT … SELECT`` per table adds the group in id order, with segments merged
    less often (``automerge``). The trigger is dropped meanwhile and created again from its own
    stored SQL; all in the caller's transaction. Deletions still go through their trigger."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.trigger: str | None = None

    def __enter__(self) -> _BulkFulltext:
        run = self.connection.exec_driver_sql
        self.trigger = run(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (INSERT_TRIGGER,)
        ).scalar()
        if self.trigger is None:
            raise RuntimeError(f"the full-text trigger {INSERT_TRIGGER} is missing: run carddb db upgrade")
        run(f"DROP TRIGGER {INSERT_TRIGGER}")
        run("CREATE TEMPORARY TABLE IF NOT EXISTS carddb_fresh_documents (id INTEGER PRIMARY KEY)")
        for table in FULLTEXT_TABLES:
            run(f"INSERT INTO {table} ({table}, rank) VALUES ('automerge', {BULK_AUTOMERGE})")
        return self

    def add(self, document_ids: Sequence[int]) -> None:
        """Add the documents just written (ids) to every FTS5 table."""
        if not document_ids:
            return
        run = self.connection.exec_driver_sql
        run("DELETE FROM carddb_fresh_documents")
        run(
            "INSERT INTO carddb_fresh_documents (id) VALUES (?)",
            [(doc_id,) for doc_id in sorted(document_ids)],
        )
        for table, columns in FULLTEXT_TABLES.items():
            run(
                f"INSERT INTO {table} (rowid, {', '.join(columns)}) "
                f"SELECT d.id, {', '.join('d.' + c for c in columns)} "
                "FROM carddb_fresh_documents f JOIN search_documents d ON d.id = f.id ORDER BY f.id"
            )

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            return  # the transaction is rolled back, the trigger with it
        run = self.connection.exec_driver_sql
        for table in FULLTEXT_TABLES:
            run(f"INSERT INTO {table} ({table}, rank) VALUES ('automerge', {DEFAULT_AUTOMERGE})")
        run("DELETE FROM carddb_fresh_documents")
        assert self.trigger is not None
        run(self.trigger)


class _BulkGin:
    """PostgreSQL: the GIN indexes over the documents (migration 0002) dropped for a big rebuild and
    created again from their own stored definitions at its end, all in the caller's transaction:
    building a trigram GIN index over the whole pool at once is several times cheaper than
    keeping it up to date row by row. Readers in other transactions keep seeing the old index."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.definitions: list[str] = []

    def __enter__(self) -> _BulkGin:
        run = self.connection.exec_driver_sql
        self.definitions = list(
            run(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                "AND tablename = 'search_documents' AND starts_with(indexname, 'fts_')"
            ).scalars()
        )
        for name in run(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
            "AND tablename = 'search_documents' AND starts_with(indexname, 'fts_')"
        ).scalars():
            run(f'DROP INDEX "{name}"')
        return self

    def add(self, document_ids: Sequence[int]) -> None:
        """Nothing to do per group: the indexes are built at the end."""

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            return  # the transaction is rolled back, the indexes with it
        run = self.connection.exec_driver_sql
        run("SET LOCAL maintenance_work_mem = '256MB'")
        for definition in self.definitions:
            run(definition)


# The search index's GIN indexes (migration 0002): a bulk import leaves its entries in each index's
# pending list, which every search then reads through linearly (5 ms instead of 0.1 for a bigram)
# until autovacuum merges them; merge them now.
_MERGE_GIN_PENDING = (
    "SELECT gin_clean_pending_list(c.oid::regclass) FROM pg_class c JOIN pg_am a ON a.oid = c.relam "
    "WHERE c.relkind = 'i' AND a.amname = 'gin' AND starts_with(c.relname, 'fts_') "
    "AND c.relnamespace = current_schema()::regnamespace"
)


def refresh_statistics(engine: Engine, merge: bool = True) -> None:
    """Let the query planner see what a bulk import changed (PostgreSQL plans lookups badly until
    autovacuum gets round to it; SQLite's ``PRAGMA optimize`` analyses only what needs it).
    ``merge``: also merge PostgreSQL's GIN pending lists (after the search index is rebuilt)."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            quote = engine.dialect.identifier_preparer.quote
            connection.exec_driver_sql("ANALYZE " + ", ".join(quote(name) for name in Base.metadata.tables))
            if merge:
                connection.exec_driver_sql(_MERGE_GIN_PENDING)
        else:
            connection.exec_driver_sql("PRAGMA optimize")
