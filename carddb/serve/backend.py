"""The database a server reads, and how a request reaches it.

* **Read-only, opened when first needed.** The database is opened with ``read_only=True``
  (an SQLite file through a ``mode=ro`` URI, PostgreSQL sessions ``READ ONLY``): nothing a request
  does can write. A database that is missing, holds no schema yet or an older one answers 503 with
  the reason; the next request tries to open it again, so the server starts serving as soon as
  ``carddb import`` has made it.
* **Being imported.** While an import runs (or after one was interrupted) the cards it touched
  wait in ``search_pending`` for their search documents: a search would miss them, so every
  request answers 503 until the import's last step has indexed them (checked at most once a
  second).
* **In a thread, with a deadline.** Database calls block: :meth:`Backend.run` runs them in a
  worker thread (at most ``threads`` at once, each with a connection of the pool), with a deadline
  the database enforces itself: SQLite's progress handler interrupts a statement past it, and
  PostgreSQL sessions get a ``statement_timeout``. A request past its deadline answers 503.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, OperationalError

from carddb.database import Database, open_database, safe_url
from carddb.errors import DatabaseUnavailableError
from carddb.search import index
from carddb.serve.errors import ApiError, unavailable

__all__ = ["Backend"]

T = TypeVar("T")

_SQLITE_STEPS = 10_000
"""SQLite virtual-machine steps between two checks of the deadline (a few hundred µs)."""


class Backend:
    """The server's database: opened read-only on first use, reopened after a failure."""

    def __init__(
        self,
        url: str | None,
        *,
        timeout: float = 10.0,
        threads: int = 8,
        pending_check_interval: float = 1.0,
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.limiter = CapacityLimiter(threads)
        self.pending_check_interval = pending_check_interval
        self._database: Database | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        self._pending_checked = 0.0
        self._pending = False
        self._memos: dict[tuple[int, str], Any] = {}

    # -- opening ------------------------------------------------------------------------------------
    def database(self) -> Database:
        """The open database (opening it now if needed); :class:`ApiError` 503 when it cannot be."""
        with self._lock:
            if self._database is None:
                try:
                    database = open_database(self.url, read_only=True)
                except DatabaseUnavailableError as exc:
                    raise unavailable(f"the card database is not available: {exc.reason}") from None
                self._attach_deadline(database)
                self._database = database
                self._pending_checked = 0.0
            database = self._database
        self._check_pending(database)
        return database

    def memo(self, database: Database, name: str, compute: Callable[[Database], T]) -> T:
        """``compute(database)``, computed once per opened database (a derived table kept in memory)."""
        key = (id(database), name)
        with self._lock:
            if key in self._memos:
                found: T = self._memos[key]
                return found
        value = compute(database)
        with self._lock:
            if self._database is database:
                self._memos = {k: v for k, v in self._memos.items() if k[0] == id(database)}
                self._memos[key] = value
        return value

    def close(self) -> None:
        with self._lock:
            if self._database is not None:
                self._database.close()
                self._database = None

    def _forget(self) -> None:
        """Drop the open database after an error that says it changed under us (a schema gone,
        a file replaced): the next request opens it again."""
        with self._lock:
            if self._database is not None:
                self._database.close()
                self._database = None

    def _check_pending(self, database: Database) -> None:
        now = time.monotonic()
        if now - self._pending_checked >= self.pending_check_interval:
            with database.engine.connect() as connection:
                self._pending = index.has_pending(connection)
            self._pending_checked = now
        if self._pending:
            raise unavailable(
                "the card database is being imported: its newest cards are not indexed for search yet; "
                "try again when the import has finished (after an interrupted one, run carddb import again)"
            )

    def _attach_deadline(self, database: Database) -> None:
        engine = database.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "checkout", self._sqlite_checkout)
        elif engine.dialect.name == "postgresql":
            milliseconds = max(1, int(self.timeout * 1000))
            event.listen(engine, "connect", _postgresql_timeout(milliseconds))
            engine.dispose()  # connections opened before the listener get no timeout: close them

    def _sqlite_checkout(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        local = self._local

        def past_deadline() -> int:
            deadline: float | None = getattr(local, "deadline", None)
            return 1 if deadline is not None and time.monotonic() > deadline else 0

        dbapi_connection.set_progress_handler(past_deadline, _SQLITE_STEPS)

    # -- running ------------------------------------------------------------------------------------
    async def run(self, call: Callable[[Database], T]) -> T:
        """``call(database)`` in a worker thread, within the request's deadline; database errors
        become error answers (503 for an unavailable or busy database or a deadline passed)."""
        return await anyio.to_thread.run_sync(self._run_sync, call, limiter=self.limiter)

    def _run_sync(self, call: Callable[[Database], T]) -> T:
        database = self.database()
        self._local.deadline = time.monotonic() + self.timeout
        try:
            return call(database)
        except OperationalError as exc:
            raise self._operational(exc) from None
        except DBAPIError as exc:
            if _timed_out(exc):
                raise _deadline(self.timeout) from None
            raise
        finally:
            self._local.deadline = None

    def _operational(self, exc: OperationalError) -> ApiError:
        reason = _first_line(exc)
        if _timed_out(exc):
            return _deadline(self.timeout)
        if "no such table" in reason or "does not exist" in reason or "no such column" in reason:
            self._forget()
            return unavailable(f"the card database changed while it was read ({reason}); try again")
        if "locked" in reason or "busy" in reason:
            return unavailable(f"the card database is busy ({reason}); try again")
        url = safe_url(self.url) if self.url else "the card database"
        return unavailable(f"{url} could not be read: {reason}")


def _first_line(exc: DBAPIError) -> str:
    text = str(exc.orig) if exc.orig is not None else str(exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _timed_out(exc: DBAPIError) -> bool:
    reason = _first_line(exc).lower()
    return reason == "interrupted" or "statement timeout" in reason or "canceling statement" in reason


def _deadline(timeout: float) -> ApiError:
    return unavailable(f"the request took longer than {timeout:g} s and was stopped", retry_after=1)


def _postgresql_timeout(milliseconds: int) -> Callable[[Any, Any], None]:
    def connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET SESSION statement_timeout = {milliseconds}")
        dbapi_connection.commit()

    return connect
