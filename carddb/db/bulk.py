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

from sqlalchemy import JSON, Connection, Date, Table, bindparam
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Compiled, Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.sql.type_api import TypeDecorator
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import Boolean, String, Text

__all__ = ["CHUNK", "BulkWriter", "among", "chunks"]

T = TypeVar("T")
CHUNK = 5000
"""Rows (or ids, for :func:`among`) per statement: big statements, bounded memory."""


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class _ValueList(TypeDecorator[Any]):
    """A list bound as one parameter: JSON text on SQLite (read back with ``json_each``), an array
    on PostgreSQL."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return list(value) if dialect.name == "postgresql" else json.dumps(list(value))

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(postgresql.ARRAY(Text))
        return dialect.type_descriptor(Text())


class Among(ColumnElement[bool]):
    """``column IN (values)`` with the values as one bound list (see :func:`among`)."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True  # a predicate: WHERE renders it as it is, not as "… = 1"

    def __init__(self, column: ColumnElement[Any], values: BindParameter[Any]) -> None:
        self.column = column
        self.values = values

    # SQLAlchemy's declaration of the children, for statement caching (a list, as its own are).
    _traverse_internals = [  # noqa: RUF012
        ("column", InternalTraversal.dp_clauseelement),
        ("values", InternalTraversal.dp_clauseelement),
    ]


@compiles(Among, "sqlite")
def _among_sqlite(element: Among, compiler: SQLCompiler, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    return f"{column} IN (SELECT value FROM json_each({compiler.process(element.values, **kw)}))"


@compiles(Among, "postgresql")
def _among_postgresql(element: Among, compiler: SQLCompiler, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    return f"{column} = ANY(CAST({compiler.process(element.values, **kw)} AS {_array_of(element.column)}))"


def _array_of(column: ColumnElement[Any]) -> str:
    return "TEXT[]" if isinstance(column.type, String | Text) else "BIGINT[]"


def among(column: ColumnElement[Any] | QueryableAttribute[Any], values: Sequence[Any]) -> ColumnElement[bool]:
    """``column IN (values)`` for a list of any length, bound as one parameter: the statement is
    compiled once whatever the list (``IN`` with a parameter per value is rendered again for every
    list, which costs an import of the whole pool several seconds), and there is no limit on the
    number of values to chunk for."""
    element = column.__clause_element__() if isinstance(column, QueryableAttribute) else column
    return Among(element, bindparam(None, list(values), type_=_ValueList()))


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
        cache_key = (f"upsert:{table.name}", columns, tuple(keys))
        compiled = self._compiled.get(cache_key)
        if compiled is None:
            compiled = upsert.compile(dialect=self.conn.dialect, column_keys=list(columns))
            if not compiled.positional or tuple(compiled.positiontup or ())[: len(columns)] != columns:
                raise RuntimeError(f"unexpected parameter order for {table.name}: {compiled.positiontup}")
            self._compiled[cache_key] = compiled
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
        cache_key = (table.name, columns, tuple(keys) if keys else None)
        compiled = self._compiled.get(cache_key)
        if compiled is None:
            stmt = self.dialect.insert(table)
            if keys:
                stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
            compiled = stmt.compile(dialect=self.conn.dialect, column_keys=list(columns))
            if not compiled.positional or tuple(compiled.positiontup or ()) != columns:
                raise RuntimeError(f"unexpected parameter order for {table.name}: {compiled.positiontup}")
            self._compiled[cache_key] = compiled
        self.conn.exec_driver_sql(compiled.string, list(rows))

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
                    cursor.execute(
                        f"CREATE TEMPORARY TABLE IF NOT EXISTS {destination} ON COMMIT DROP AS "
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
