"""Alembic, driven from Python: the schema is owned by the migrations in ``migrations/``."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from carddb.resources import migrations_dir
from carddb.search import index


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for carddb's migrations, bound to ``connection`` when given."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision``. At the newest revision, derived data that the revisions
    marked stale (the search documents of cards imported before) is then rebuilt by today's code,
    in the same transaction: migrations never run the application's code themselves."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), revision)
        if revision == "head" or revision == head_revision():
            index.refresh(connection)


def downgrade(engine: Engine, revision: str) -> None:
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), revision)


def ensure_head(engine: Engine) -> None:
    """Upgrade the database to the newest revision unless it is there already."""
    if current_revision(engine) != head_revision():
        upgrade(engine)
