"""Shared fixtures: every database test runs on SQLite and, when ``CARDDB_TEST_PG_URL`` is set,
on PostgreSQL too (each test in a schema of its own)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

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
    return (
        url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql://") else url
    )


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
