"""Engine and session factory. Nothing connects at import time: :func:`make_engine` is called by
:func:`carddb.open`.

SQLite (the embedded default) runs in WAL mode with foreign keys on, so readers in other threads
are not blocked by an import; PostgreSQL URLs without a driver use psycopg 3.

**Transactions on SQLite.** Python's ``sqlite3`` driver, in its legacy transaction control (the
default up to Python 3.15), emits ``BEGIN`` only before INSERT, UPDATE and DELETE: DDL and SELECT
run in autocommit. A migration creating the schema would then commit table by table, and a kill
in the middle would leave a file that no later migration can complete. carddb takes over as
SQLAlchemy documents ("Enabling Non-Legacy SQLite Transactional Modes"): the driver's own BEGIN is
off (``isolation_level = None``) and every SQLAlchemy transaction emits ``BEGIN`` itself, so a
transaction holds everything done in it, DDL included. A transaction that will write takes the
write lock up front (``BEGIN IMMEDIATE``, :func:`writer`): it waits for another writer to finish
instead of failing when its snapshot turns out to be stale.

**Read-only.** ``make_engine(url, read_only=True)`` opens an SQLite file through a ``mode=ro`` URI
(no WAL switch, nothing created, a missing file is :class:`DatabaseMissingError`) and makes
PostgreSQL sessions read-only.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from carddb.characteristics import without_reminder
from carddb.errors import DatabaseMissingError, DatabaseUnavailableError
from carddb.search.regex import sqlite_regexp

URL_ENV = "CARDDB_URL"

_WRITE_LOCK = "carddb_write_lock"
"""Execution option of :func:`writer`: this connection's transactions begin with the write lock."""


def default_url() -> str:
    """``$CARDDB_URL`` when set, else an SQLite file in the user's data directory."""
    configured = os.environ.get(URL_ENV)
    if configured:
        return configured
    # platformdirs only here: a command given --db does not pay its 25 ms import
    from platformdirs import user_data_dir

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


def sqlite_file(parsed: URL) -> Path | None:
    """The file an SQLite URL opens (made absolute as the driver does), or None: in memory, or a
    ``file:`` URI left as its writer gave it."""
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(os.path.abspath(database))


def make_engine(url: str, *, read_only: bool = False) -> Engine:
    """Create an engine for ``url``. For a file-backed SQLite URL: create the file's folder when it
    is the default one, or, with ``read_only``, require the file to exist and open it read-only."""
    parsed = parse_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(parsed)
        if path is not None and read_only:
            if not path.exists():
                raise DatabaseMissingError(url, path)
            parsed = _read_only_url(parsed, path)
        elif path is not None:
            folder = path.parent
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
        event.listen(engine, "connect", _sqlite_read_only_connect if read_only else _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    elif read_only and engine.dialect.name == "postgresql":
        event.listen(engine, "connect", _postgresql_read_only)
    return engine


def writer(engine: Engine) -> Engine:
    """``engine`` for transactions that write: on SQLite they take the write lock as they begin
    (``BEGIN IMMEDIATE``), so that two writers queue instead of one failing; elsewhere the same."""
    return engine.execution_options(**{_WRITE_LOCK: True})


def _read_only_url(parsed: URL, path: Path) -> URL:
    """``file:PATH?mode=ro`` for the driver. A database in WAL mode needs its ``-shm`` file even to
    be read: in a folder this process cannot write, where that file cannot be created and no
    ``-wal`` file exists (so no writer is active: it would have created one), the file is opened
    ``immutable`` (https://sqlite.org/wal.html#readonly)."""
    query = {**parsed.query, "mode": "ro", "uri": "true"}
    wal = path.with_name(path.name + "-wal")
    if not os.access(path.parent, os.W_OK) and not wal.exists():
        query["immutable"] = "1"
    return parsed.set(database=f"file:{quote(str(path))}", query=query)


def _unicode_lower(text: str | None) -> str | None:
    return None if text is None else text.lower()


def _without_reminder(text: str | None) -> str | None:
    return None if text is None else without_reminder(text)


def _sqlite_functions(dbapi_connection: Any) -> None:
    # carddb emits BEGIN itself (_sqlite_begin): the driver's legacy transaction control is off
    dbapi_connection.isolation_level = None
    # SQLite's own lower() folds ASCII letters only: "Éphémère" must match "éphémère" too
    dbapi_connection.create_function("lower", 1, _unicode_lower, deterministic=True)
    # REGEXP in linear time (RE2), in place of the Python re function SQLAlchemy registers
    dbapi_connection.create_function("regexp", 2, sqlite_regexp, deterministic=True)
    # rules text without reminder text, for o:/…/ (carddb.search.conditions.rules_text)
    dbapi_connection.create_function("carddb_without_reminder", 1, _without_reminder, deterministic=True)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    _sqlite_functions(dbapi_connection)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    _write_ahead_log(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


WAL_WAIT_SECONDS = 30.0
"""How long a connection waits for another to finish turning a new file's journal into a
write-ahead log (as long as ``busy_timeout``)."""


def _write_ahead_log(cursor: Any) -> None:
    """``PRAGMA journal_mode=WAL``. Changing the journal mode of a new file needs it alone, and
    SQLite reports "database is locked" at once, without its busy handler, when another connection
    is doing the same (five processes creating one new file): wait and try again, as the busy
    timeout would. Once the file is in WAL mode the pragma changes nothing and always succeeds."""
    deadline = time.monotonic() + WAL_WAIT_SECONDS
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)


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
    # On the driver's connection, outside any transaction: a checkpoint cannot run inside one.
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        for pragma in ("cache_size = -2000", "wal_autocheckpoint = 1000", "wal_checkpoint(TRUNCATE)"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()
    except Exception:
        pass  # checkpoint will do it; nothing the import wrote depends on this one
    finally:
        raw.close()


def _sqlite_read_only_connect(dbapi_connection: Any, _record: Any) -> None:
    _sqlite_functions(dbapi_connection)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(_WRITE_LOCK, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _postgresql_read_only(dbapi_connection: Any, _record: Any) -> None:
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    dbapi_connection.commit()


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
