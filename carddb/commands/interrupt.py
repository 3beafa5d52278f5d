"""Ctrl-C that stops a long statement at once, for the commands that only read.

Python handles a signal between two bytecodes of its main thread, so a Ctrl-C that comes while
SQLite runs one long statement (a search of the whole pool) waits for the statement to end. Here
the command runs in a worker thread while the main thread only waits, and so gets the
``KeyboardInterrupt`` at once; it then interrupts every database connection the command opened
(``sqlite3.Connection.interrupt()``, psycopg's ``cancel()``, both made to be called from another
thread), the worker's statement fails, and the command ends with the interruption (exit 130).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine

T = TypeVar("T")

#: How long the worker is given to unwind (close its session) after an interruption, in seconds.
UNWIND_SECONDS = 5.0

_lock = threading.Lock()
_connections: list[Any] = []
_watching = False


def watch_connections() -> None:
    """Remember every DB-API connection any engine opens from now on (once per process)."""
    global _watching
    with _lock:
        if _watching:
            return
        _watching = True
    event.listen(Engine, "connect", _remember)


def _remember(dbapi_connection: Any, _record: Any) -> None:
    with _lock:
        _connections.append(dbapi_connection)


def interrupt_statements() -> int:
    """Stop the statement each remembered connection runs; returns how many were asked to."""
    with _lock:
        connections = list(_connections)
    asked = 0
    for connection in connections:
        stop = getattr(connection, "interrupt", None) or getattr(connection, "cancel", None)
        if stop is None:
            continue
        try:
            stop()
        except Exception:  # closed meanwhile: nothing runs on it
            continue
        asked += 1
    return asked


def run_interruptibly(function: Callable[[], T]) -> T:
    """``function()`` in a worker thread; a Ctrl-C in the main thread interrupts its statements
    and is raised here, after the worker has unwound (or :data:`UNWIND_SECONDS`)."""
    outcome: dict[str, Any] = {}
    done = threading.Event()  # waited on rather than joined: an interrupted join() can go wrong

    def work() -> None:
        try:
            outcome["value"] = function()
        except BaseException as error:  # handed to the main thread, which reports it
            outcome["error"] = error
        finally:
            done.set()

    worker = threading.Thread(target=work, name="carddb-command", daemon=True)
    worker.start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        interrupt_statements()
        done.wait(UNWIND_SECONDS)
        raise
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


__all__ = ["interrupt_statements", "run_interruptibly", "watch_connections"]
