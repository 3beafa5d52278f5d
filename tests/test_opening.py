"""Opening a database: the first schema creation is one transaction under the schema lock (killed
or out of space, it leaves nothing behind; five processes at once all succeed).
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import fresh_database_url
from sqlalchemy import inspect, text

import carddb
from carddb.db import migrate, schema
from carddb.db.engine import make_engine
from carddb.errors import SchemaRevisionError

TABLES = {"cards", "faces", "sets", "printings", "localizations", "rulings", "search_documents"}


def child(code: str) -> subprocess.Popen[str]:
    """A Python process running ``code`` (stdout piped, line-buffered)."""
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )


def assert_complete(url: str) -> None:
    """The database opens, is at the head revision and holds every table."""
    with carddb.open(url) as db:
        assert db.counts() == {"cards": 0, "printings": 0, "localizations": 0, "rulings": 0}
        with db.engine.connect() as connection:
            assert schema.stored_revision(connection) == schema.head_revision()
        assert set(inspect(db.engine).get_table_names()) >= TABLES


# -- an interrupted first creation ---------------------------------------------------------------
def test_a_first_creation_killed_in_the_middle_of_the_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    creating = child(
        f"""
        import time
        from sqlalchemy import Engine, event
        import carddb

        @event.listens_for(Engine, "before_cursor_execute")
        def stall(conn, cursor, statement, *args):
            if statement.lstrip().upper().startswith("CREATE TABLE PRINTINGS"):
                print("migrating", flush=True)  # cards, sets and faces are created by now
                time.sleep(600)

        carddb.open({url!r})
        """
    )
    try:
        assert creating.stdout is not None
        assert creating.stdout.readline().strip() == "migrating"
        with sqlite3.connect(tmp_path / "new.sqlite", timeout=0) as peek:  # nothing committed yet
            assert peek.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == []
    finally:
        creating.send_signal(signal.SIGKILL)
        creating.communicate(timeout=60)

    assert_complete(url)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.4, 0.7])
def test_a_first_creation_killed_at_any_moment_can_be_opened_afterwards(tmp_path: Path, delay: float) -> None:
    path = tmp_path / "new.sqlite"
    url = f"sqlite:///{path}"
    creating = child(f"import carddb; carddb.open({url!r})")
    deadline = time.monotonic() + 60
    while not path.exists() and creating.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(delay)
    creating.send_signal(signal.SIGKILL)
    creating.communicate(timeout=60)

    assert_complete(url)


def test_a_migration_that_runs_out_of_space_is_one_line_and_leaves_the_file_usable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'full.sqlite'}"
    # max_page_count makes SQLite report a full disk ("database or disk is full") once the file
    # would grow past 20 pages, which the migrations do
    full = child(
        f"""
        import sys
        from sqlalchemy import event
        from sqlalchemy.pool import Pool
        from carddb.cli import main

        @event.listens_for(Pool, "connect")
        def small_disk(dbapi_connection, record):
            dbapi_connection.execute("PRAGMA max_page_count = 20")

        sys.exit(main(["--db", {url!r}, "import", "--quiet", "--sample"]))
        """
    )
    out, err = full.communicate(timeout=120)

    assert full.returncode == 1, (out, err)
    assert err.splitlines() == [f"carddb: cannot open database {url}: database or disk is full"]
    assert_complete(url)


# -- concurrent first opens -----------------------------------------------------------------------
def open_at_once(url: str, folder: Path, processes: int = 5) -> list[tuple[int, str, str]]:
    """Start ``processes`` processes that each open ``url`` as soon as all are ready."""
    go = folder / "go"
    code = f"""
        import os, time
        import carddb, carddb.database, sqlalchemy.orm  # everything loaded before the start
        print("ready", flush=True)
        while not os.path.exists({str(go)!r}):
            time.sleep(0.001)
        with carddb.open({url!r}) as db:
            print(db.counts()["cards"], flush=True)
        """
    children = [child(code) for _ in range(processes)]
    try:
        for process in children:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        go.touch()
        results = []
        for process in children:
            out, err = process.communicate(timeout=120)
            results.append((process.returncode, out, err))
        return results
    finally:
        go.unlink(missing_ok=True)
        for process in children:
            if process.poll() is None:
                process.kill()


def test_five_processes_creating_the_same_new_sqlite_file_all_succeed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"

    results = open_at_once(url, tmp_path)

    assert [(code, out.strip()) for code, out, _ in results] == [(0, "0")] * 5, [err for *_, err in results]
    assert_complete(url)


def test_five_processes_creating_the_same_new_postgresql_schema_all_succeed(tmp_path: Path) -> None:
    with fresh_database_url("postgresql", tmp_path) as url:
        results = open_at_once(url, tmp_path)

        assert [(code, out.strip()) for code, out, _ in results] == [(0, "0")] * 5, [e for *_, e in results]
        assert_complete(url)


# -- the cheap revision check ---------------------------------------------------------------------
def test_the_stored_revision_is_none_without_the_version_table(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            assert schema.stored_revision(connection) is None
            assert connection.execute(text("SELECT 1")).scalar() == 1  # still usable after it
        migrate.upgrade(engine)
        with engine.connect() as connection:
            assert schema.stored_revision(connection) == schema.head_revision()
    finally:
        engine.dispose()


def test_an_older_schema_is_upgraded_on_opening_for_writing(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0002")
    engine.dispose()

    with carddb.open(db_url) as db:
        assert migrate.current_revision(db.engine) == schema.head_revision()


def test_a_schema_newer_than_this_carddb_is_refused_in_one_line(db_url: str) -> None:
    carddb.open(db_url).close()
    engine = make_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    engine.dispose()

    with pytest.raises(SchemaRevisionError) as caught:
        carddb.open(db_url)

    assert "schema revision f00d is unknown to this carddb" in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1
