"""Bulk writes: the one place rows go into the database in bulk, inside the caller's transaction
(the importers' and the search index's).

Two statements cover every importer's writes:

* :meth:`BulkWriter.upsert`: an ``executemany`` of ``INSERT … ON CONFLICT DO UPDATE`` on a natural
  key (rows as dicts), for the tables whose rows a newer source replaces (sets, cards, faces,
  printings);
* :meth:`BulkWriter.insert_new`: the hot path (translations, links, rulings, search documents),
  rows as tuples in a fixed column order, skipping those whose key exists (``ON CONFLICT DO
  NOTHING``) or plainly inserted. It bypasses SQLAlchemy's per-row parameter processing: on SQLite
  the DBAPI's ``executemany`` of the statement compiled once; on PostgreSQL ``COPY`` (into a
  temporary staging table, then ``INSERT … SELECT … ON CONFLICT DO NOTHING``, when duplicates must
  be skipped). Values must already be in the driver's form (:meth:`BulkWriter.date`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from sqlalchemy import JSON, Connection, Date, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Compiled

__all__ = ["CHUNK", "BulkWriter", "chunks"]

T = TypeVar("T")
CHUNK = 5000
"""Rows (or ids, for :func:`among`) per statement: big statements, bounded memory."""


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class BulkWriter:
    """Bulk statements through one connection, inside the caller's transaction."""

    def __init__(self, connection: Connection) -> None:
        self.conn = connection
        self.postgresql = connection.dialect.name == "postgresql"
        self.dialect: Any = postgresql if self.postgresql else sqlite
        self._staged: set[str] = set()
        self._compiled: dict[tuple[str, tuple[str, ...], tuple[str, ...] | None], Compiled] = {}

    def upsert(self, table: Table, rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> None:
        """Insert ``rows``, replacing every other column of a row whose ``keys`` exist. Every row
        has the same columns. On SQLite, the statement is compiled once and the rows go to the
        DBAPI as tuples, their dates and JSON values converted here (SQLAlchemy would process each
        row's parameters one by one); on PostgreSQL, SQLAlchemy's executemany."""
        if not rows:
            return
        stmt = self.dialect.insert(table)
        update = {
            c.name: stmt.excluded[c.name] for c in table.columns if c.name not in keys and not c.primary_key
        }
        upsert = stmt.on_conflict_do_update(index_elements=list(keys), set_=update)
        if self.postgresql:
            self.conn.execute(upsert, list(rows))
            return
        columns = tuple(rows[0])
        compiled = self._compiled_once((f"upsert:{table.name}", columns, tuple(keys)), upsert, columns)
        convert = [_driver_value(table.c[name].type) for name in columns]
        self.conn.exec_driver_sql(
            compiled.string,
            [tuple(f(row[name]) for f, name in zip(convert, columns, strict=True)) for row in rows],
        )

    def insert_new(
        self,
        table: Table,
        columns: tuple[str, ...],
        rows: Sequence[tuple[Any, ...]],
        keys: Sequence[str] | None,
    ) -> None:
        """Insert ``rows`` (tuples in ``columns`` order), skipping those whose ``keys`` exist already
        (``None``: a plain insert)."""
        if not rows:
            return
        if self.postgresql:
            self._copy_new(table, columns, rows, keys)
            return
        stmt = self.dialect.insert(table)
        if keys:
            stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
        compiled = self._compiled_once((table.name, columns, tuple(keys) if keys else None), stmt, columns)
        self.conn.exec_driver_sql(compiled.string, list(rows))

    def _compiled_once(
        self,
        key: tuple[str, tuple[str, ...], tuple[str, ...] | None],
        statement: Any,
        columns: tuple[str, ...],
    ) -> Compiled:
        """``statement`` compiled for ``columns`` (positional parameters in that order), once per key."""
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = statement.compile(dialect=self.conn.dialect, column_keys=list(columns))
            if not compiled.positional or tuple(compiled.positiontup or ())[: len(columns)] != columns:
                raise RuntimeError(f"unexpected parameter order for {key[0]}: {compiled.positiontup}")
            self._compiled[key] = compiled
        return compiled

    def _copy_new(
        self,
        table: Table,
        columns: tuple[str, ...],
        rows: Sequence[tuple[Any, ...]],
        keys: Sequence[str] | None,
    ) -> None:
        """PostgreSQL: ``COPY`` the rows in, through a temporary staging table when ``keys`` are given."""
        quote = self.conn.dialect.identifier_preparer.quote
        target = self.conn.dialect.identifier_preparer.format_table(table)
        column_list = ", ".join(quote(c) for c in columns)
        cursor = self.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            if keys is None:
                destination = target
            else:
                destination = quote(f"carddb_stage_{table.name}")
                if destination not in self._staged:
                    # Once per session (temporary tables cost catalog writes), emptied at each commit.
                    cursor.execute(
                        f"CREATE TEMPORARY TABLE IF NOT EXISTS {destination} ON COMMIT DELETE ROWS AS "
                        f"SELECT {column_list} FROM {target} WITH NO DATA"
                    )
                    self._staged.add(destination)
            with cursor.copy(f"COPY {destination} ({column_list}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            if keys is not None:
                conflict = ", ".join(quote(k) for k in keys)
                cursor.execute(
                    f"INSERT INTO {target} ({column_list}) SELECT {column_list} FROM {destination} "
                    f"ON CONFLICT ({conflict}) DO NOTHING"
                )
                cursor.execute(f"TRUNCATE {destination}")
        finally:
            cursor.close()

    def date(self, value: dt.date | None) -> Any:
        """A date as the driver takes it: SQLAlchemy stores SQLite dates as ISO text."""
        if value is None or self.postgresql:
            return value
        return value.isoformat()


def _same(value: Any) -> Any:
    return value


def _iso_date(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _json_text(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _driver_value(column_type: Any) -> Any:
    """How a value of ``column_type`` goes to the SQLite driver: what SQLAlchemy's own bind
    processing does for the types bulk writes use (dates as ISO text, JSON as text)."""
    if isinstance(column_type, Date):
        return _iso_date
    if isinstance(column_type, JSON):
        return _json_text
    return _same
