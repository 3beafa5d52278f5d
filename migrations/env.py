"""Alembic environment for carddb.

carddb runs migrations itself (``carddb db upgrade``, or on opening a database), passing a live
connection in ``config.attributes["connection"]``. For writing a new revision by hand:
``alembic -c migrations/alembic.ini -x url=sqlite:///dev.sqlite revision --autogenerate -m "..."``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from carddb.db.engine import default_url, make_engine
from carddb.db.models import Base

config = context.config
target_metadata = Base.metadata


# Full-text search structures that the models cannot describe, created by raw DDL in migration 0002:
# SQLite FTS5 tables (and their shadow tables), PostgreSQL GIN expression indexes (``fts_…``).
_FULLTEXT_PREFIXES = (
    *(f"search_{field}" for field in ("name", "type_line", "text", "rulings", "bigrams")),
    "fts_",
)


def _include_object(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    """Leave the full-text structures out of autogenerate and ``alembic check``."""
    return not (reflected and compare_to is None and (name or "").startswith(_FULLTEXT_PREFIXES))


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_object=_include_object,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or default_url()
    engine = make_engine(url)
    with engine.begin() as connection:
        _run(connection)
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("carddb migrations run online only: use `carddb db upgrade`")
run_migrations_online()
