"""Engine and session factory. Nothing connects at import time: :func:`make_engine` is called by
:func:`carddb.open`.

SQLite (the embedded default) runs in WAL mode with foreign keys on, so readers in other threads
are not blocked by an import; PostgreSQL URLs without a driver use psycopg 3.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from carddb.errors import DatabaseUnavailableError

URL_ENV = "CARDDB_URL"


def default_url() -> str:
    """``$CARDDB_URL`` when set, else an SQLite file in the user's data directory."""
    configured = os.environ.get(URL_ENV)
    if configured:
        return configured
    return f"sqlite:///{Path(user_data_dir('carddb')) / 'carddb.sqlite'}"


def parse_url(url: str) -> URL:
    """Parse a database URL; ``postgresql://`` means psycopg 3, the driver carddb installs."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseUnavailableError(url, f"not a database URL ({exc})") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str) -> Engine:
    """Create an engine for ``url``; for a file-backed SQLite URL, create the file's folder."""
    parsed = parse_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            folder = Path(database).expanduser().parent
            if url == default_url() and not folder.exists():
                folder.mkdir(parents=True, exist_ok=True)
            if not folder.is_dir():
                raise DatabaseUnavailableError(url, f"folder {folder} does not exist")
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError) as exc:
        hint = " (install carddb[postgres])" if parsed.get_backend_name() == "postgresql" else ""
        raise DatabaseUnavailableError(url, f"no driver for {parsed.drivername}{hint}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _unicode_lower(text: str | None) -> str | None:
    return None if text is None else text.lower()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # SQLite's own lower() folds ASCII letters only: "Éphémère" must match "éphémère" too
    dbapi_connection.create_function("lower", 1, _unicode_lower, deterministic=True)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


BULK_CACHE_KIB = 65536
"""SQLite's page cache while an import writes (64 MiB, against the default 2 MiB): an import
inserts into a dozen indexes at once, and a cache that holds their upper levels saves a third
of the writing time on the whole card pool."""


def start_bulk_writes(connection: Connection) -> None:
    """Tune ``connection`` (SQLite) for an import's transactions: a bigger page cache, and no
    checkpoint at every commit (an import commits once per file; :func:`end_bulk_writes`
    checkpoints once at the end). Durability is unchanged: each commit is in the write-ahead log."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
        connection.exec_driver_sql("PRAGMA wal_autocheckpoint = 0")


def end_bulk_writes(engine: Engine) -> None:
    """After an import: checkpoint the write-ahead log into the database file and give the
    connection SQLite's usual settings back."""
    if engine.dialect.name != "sqlite":
        return
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA cache_size = -2000")
            connection.exec_driver_sql("PRAGMA wal_autocheckpoint = 1000")
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    except DBAPIError:
        pass  # a reader holds the log (or the disk is full): the next checkpoint will do it


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
