"""Shared fixtures: every database test runs on SQLite and, when ``CARDDB_TEST_PG_URL`` is set,
on PostgreSQL too (each test in a schema of its own)."""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, text

import carddb
from carddb.oracle.grammar import BuiltFromText, ToModel, build_from_text
from carddb.resources import sample_dir

PG_URL_ENV = "CARDDB_TEST_PG_URL"
FIXTURES = Path(__file__).parent / "fixtures"
BACKENDS = ["sqlite", "postgresql"]


def _pg_admin_url() -> str:
    url = os.environ.get(PG_URL_ENV)
    if not url:
        pytest.skip(f"PostgreSQL tests need {PG_URL_ENV} (e.g. postgresql://postgres@127.0.0.1:5432/test)")
    url = url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql://") else url
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return _worker_database(url, worker) if worker else url


@functools.cache
def _worker_database(url: str, worker: str) -> str:
    """The URL of a database of the test worker's own (``test_gw0`` beside ``test``), created once:
    tests run in parallel (pytest-xdist) must not share a database, because the search index's
    ``pg_trgm`` extension is one per database and lives in the schema of the test that first
    created it, so dropping that schema would drop it under another worker's test."""
    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if exists.first() is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@contextmanager
def fresh_database_url(backend: str, directory: Path) -> Iterator[str]:
    """A URL to a fresh, empty database: an SQLite file in ``directory``, or a PostgreSQL schema of
    its own, dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{directory / 'carddb.sqlite'}"
        return
    admin_url = _pg_admin_url()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in admin_url else "?"
    try:
        yield f"{admin_url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL to a fresh, empty database."""
    with fresh_database_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def db(db_url: str) -> Iterator[carddb.Database]:
    """An empty database at head."""
    database = carddb.open(db_url)
    yield database
    database.close()


@pytest.fixture
def sample_db(db: carddb.Database) -> carddb.Database:
    """A database holding the shipped sample."""
    db.import_path(sample_dir())
    return db


@pytest.fixture
def sample_files() -> list[Path]:
    return sorted(sample_dir().glob("*.json.xz"))


@pytest.fixture(scope="session")
def oracle_built_from_text() -> BuiltFromText:
    """The oracle parser built from the grammar text, not loaded from tables (half a minute: once
    per session, shared by the tests of its conflicts and of its tables)."""
    return build_from_text(ToModel())


@pytest.fixture(autouse=True)
def no_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output is wrapped when ``COLUMNS`` is set (as on a terminal): tests see none unless they set
    it, whatever the shell that runs them (or pytest-xdist, whose workers set it) exports."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
