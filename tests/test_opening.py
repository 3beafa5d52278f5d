"""Opening a database: the first schema creation is one transaction under the schema lock (killed
or out of space, it leaves nothing behind; five processes at once all succeed), and commands that
only read open the database read-only and never create or migrate it.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import fresh_database_url
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError, OperationalError

import carddb
from carddb.cli import main
from carddb.db import migrate, schema
from carddb.db.engine import make_engine
from carddb.errors import DatabaseMissingError, ReadOnlyDatabaseError, SchemaRevisionError
from carddb.resources import sample_dir

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


# -- read-only opening ----------------------------------------------------------------------------
@pytest.fixture
def sample_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "cards" / "sample.sqlite"
    path.parent.mkdir()
    with carddb.open(f"sqlite:///{path}") as db:
        db.import_path(sample_dir())
    yield path
    path.parent.chmod(0o755)


def test_a_read_only_sqlite_opening_refuses_writes_and_changes_nothing(sample_file: Path) -> None:
    before = sample_file.read_bytes()

    with carddb.open(f"sqlite:///{sample_file}", read_only=True) as db:
        assert db.card("Underdark Rift").english_name == "Underdark Rift"
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA query_only").scalar() == 1
            with pytest.raises(OperationalError, match=r"readonly|read-only|query_only"):
                connection.execute(text("DELETE FROM cards"))
        with pytest.raises(ReadOnlyDatabaseError):
            db.import_path(sample_dir())

    assert sample_file.read_bytes() == before


def unprivileged(folder: Path) -> list[str]:
    """A command prefix under which file permissions bind: none for a normal user; for root (whom
    chmod does not stop), ``setpriv`` dropping the capabilities that bypass them. Skips the test
    when neither holds: the mode=ro tests above still run."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    prefix = [setpriv or "setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
    probe = folder / "probe"
    try:
        denied = (
            subprocess.run([*prefix, "touch", str(probe)], capture_output=True, timeout=30).returncode != 0
        )
    except OSError:
        denied = False
    if setpriv is None or not denied or probe.exists():
        pytest.skip(
            "as root, chmod does not stop writes (and setpriv cannot drop the capabilities that bypass it)"
        )
    return prefix


def test_a_read_only_file_in_a_read_only_folder_can_be_queried(sample_file: Path) -> None:
    url = f"sqlite:///{sample_file}"
    sample_file.chmod(0o444)
    sample_file.parent.chmod(0o555)
    prefix = unprivileged(sample_file.parent)

    def carddb_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*prefix, sys.executable, "-m", "carddb.cli", "--db", url, *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )

    card = carddb_cli("card", "Unterreich-Spalte", "--lang", "ja")
    assert card.returncode == 0, card.stderr
    assert card.stdout.splitlines()[0] == "アンダーダークの裂け目"
    for args in (("search", "t:land"), ("languages",), ("parse", "--card", "Underdark Rift")):
        run = carddb_cli(*args)
        assert (run.returncode, run.stderr) == (0, ""), args
    current = carddb_cli("db", "current")
    assert current.stdout.rstrip().endswith("(up to date)"), current.stderr
    imported = carddb_cli("import", "--quiet", "--sample")  # a writer says it cannot, in one line
    assert imported.returncode == 1
    assert imported.stderr.splitlines() == [
        f"carddb: cannot open database {url}: attempt to write a readonly database"
    ]
    assert sorted(path.name for path in sample_file.parent.iterdir()) == [sample_file.name]


def test_a_wal_file_in_a_folder_that_cannot_be_written_is_read_as_immutable(
    sample_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite needs a WAL database's -shm file even to read it; where that file cannot be created
    # (a read-only folder) and no -wal file shows a writer, the file is opened immutable. As root
    # every folder is writable, so the folder's answer is what is faked here.
    from carddb.db import engine as engine_module

    folder = str(sample_file.parent)
    monkeypatch.setattr(engine_module.os, "access", lambda path, mode: str(path) != folder)
    url = f"sqlite:///{sample_file}"

    with carddb.open(url, read_only=True) as db:
        assert db.engine.url.query["immutable"] == "1"
        assert db.card("Underdark Rift").english_name == "Underdark Rift"
    wal = sample_file.with_name(sample_file.name + "-wal")
    wal.touch()
    try:
        with carddb.open(url, read_only=True) as db:
            assert "immutable" not in db.engine.url.query
            assert db.engine.url.query["mode"] == "ro"
    finally:
        wal.unlink(missing_ok=True)


def test_a_read_command_on_a_missing_file_says_so_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typo.sqlite"
    url = f"sqlite:///{path}"

    for args in (["card", "Underdark Rift"], ["search", "t:land"], ["rule", "702.35"], ["languages"]):
        assert main(["--db", url, *args]) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"carddb: cannot open database {url}: no database at {path} (run carddb import first)"
        ]
    with pytest.raises(DatabaseMissingError):
        carddb.open(url, read_only=True)
    assert not path.exists()


def test_db_current_on_a_missing_file_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "none.sqlite"

    assert main(["--db", f"sqlite:///{path}", "db", "current"]) == 0

    assert capsys.readouterr().out.rstrip().endswith(f"revision base (newest is {schema.head_revision()})")
    assert not path.exists()


def test_the_console_script_reports_a_missing_database_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "typo.sqlite"
    run = subprocess.run(
        [sys.executable, "-m", "carddb.cli", "--db", f"sqlite:///{path}", "card", "Underdark Rift"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )

    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"carddb: cannot open database sqlite:///{path}: no database at {path} (run carddb import first)"
    ]


def test_a_read_command_does_not_upgrade_an_older_schema_and_says_what_to_run(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0002")
    engine.dispose()

    assert main(["--db", db_url, "card", "Underdark Rift"]) == 1

    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert f"its schema is at revision 0002, this carddb reads {schema.head_revision()}" in err[0]
    assert "run carddb db upgrade" in err[0]
    engine = make_engine(db_url)
    assert migrate.current_revision(engine) == "0002"
    engine.dispose()
    assert main(["--db", db_url, "db", "upgrade"]) == 0
    capsys.readouterr()
    assert main(["--db", db_url, "languages"]) == 0


def test_a_read_command_on_a_database_without_a_schema_says_to_import(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = make_engine(db_url)
    engine.connect().close()  # an empty database (on SQLite: a file of no tables)
    engine.dispose()

    assert main(["--db", db_url, "search", "t:land"]) == 1

    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].endswith("it holds no carddb schema yet (run carddb import first)")


def test_a_read_only_postgresql_session_refuses_writes(tmp_path: Path) -> None:
    with fresh_database_url("postgresql", tmp_path) as url:
        carddb.open(url).close()
        with (
            carddb.open(url, read_only=True) as db,
            db.engine.connect() as connection,
            pytest.raises(DBAPIError, match="read-only transaction"),
        ):
            connection.execute(text("DELETE FROM cards"))
