"""Which schema revision a database holds and which one this carddb reads, without Alembic.

Opening a database compares the revision stored in ``alembic_version`` (one plain query) with the
newest revision of the migrations shipped with carddb, read from the ``revision`` and
``down_revision`` lines of ``migrations/versions/*.py`` (the files Alembic's template writes; a
test checks that the answer is Alembic's own head). Only when the two differ is Alembic imported
(:mod:`carddb.db.migrate`), and the migration runs in :func:`schema_transaction`, which holds the
database's schema lock, so that processes opening a new database at the same time wait for the
first one and then find the schema there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from carddb.db.engine import writer
from carddb.errors import MigrationError, SchemaRevisionError
from carddb.resources import migrations_dir

VERSION_TABLE = "alembic_version"

SCHEMA_LOCK_KEY = 0x636172646462_0001
"""The PostgreSQL advisory lock held while the schema changes (the bytes of "carddb", then 1)."""

_ASSIGNMENT = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Revisions:
    """The migrations carddb ships: the newest revision and every revision there is."""

    head: str
    known: frozenset[str]


@cache
def revisions() -> Revisions:
    """Read from the migration files' ``revision`` / ``down_revision`` assignments."""
    parents: dict[str, tuple[str, ...]] = {}
    folder = migrations_dir() / "versions"
    for path in sorted(folder.glob("*.py")):
        found = dict(_ASSIGNMENT.findall(path.read_text(encoding="utf-8")))
        try:
            revision = ast.literal_eval(found["revision"])
            down = ast.literal_eval(found.get("down_revision", "None"))
        except (KeyError, ValueError, SyntaxError):
            raise MigrationError(f"{path}: no literal 'revision' and 'down_revision' assignments") from None
        parents[revision] = () if down is None else (down,) if isinstance(down, str) else tuple(down)
    heads = set(parents) - {parent for ps in parents.values() for parent in ps}
    if len(heads) != 1:
        raise MigrationError(f"{folder} holds {len(heads)} head revisions, not one: {sorted(heads)}")
    return Revisions(heads.pop(), frozenset(parents))


def head_revision() -> str:
    """The newest schema revision this carddb knows."""
    return revisions().head


def stored_revision(connection: Connection) -> str | None:
    """The revision the database holds: ``None`` for none (no version table, or an empty one).

    One query on a connection of its own (its transaction is rolled back when the table is
    absent, which PostgreSQL requires after a failed statement)."""
    try:
        rows = connection.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}").all()
    except DBAPIError as exc:
        if not _missing_table(exc):
            raise
        connection.rollback()
        return None
    found = sorted(str(row[0]) for row in rows)
    return ",".join(found) if found else None


def _missing_table(exc: DBAPIError) -> bool:
    """Whether the statement failed because its table does not exist (SQLite, PostgreSQL)."""
    if getattr(exc.orig, "sqlstate", None) == "42P01":  # PostgreSQL undefined_table
        return True
    return str(exc.orig).startswith("no such table")


def needs_upgrade(url: str, stored: str | None) -> bool:
    """Whether a database at ``stored`` must be migrated to the head; raises
    :class:`SchemaRevisionError` for a revision this carddb does not know (a newer carddb's)."""
    known = revisions()
    if stored == known.head:
        return False
    if stored is not None and stored not in known.known:
        raise SchemaRevisionError(url, stored, known.head, known=False)
    return True


def require_head(url: str, stored: str | None) -> None:
    """For a database opened read-only, which is never migrated: its schema must be the head."""
    if needs_upgrade(url, stored):
        raise SchemaRevisionError(url, stored, head_revision(), known=True)


@contextmanager
def schema_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that holds the database's schema lock from its first statement: SQLite's
    write lock (``BEGIN IMMEDIATE``), or on PostgreSQL a transaction-scoped advisory lock. Another
    process changing the schema at the same time waits for this one to commit or roll back; what
    is done inside is committed whole or not at all."""
    with writer(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
        yield connection
