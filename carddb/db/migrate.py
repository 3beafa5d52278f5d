"""Alembic, driven from Python: the schema is owned by the migrations in ``migrations/``.

Importing this module imports Alembic (and Mako): :mod:`carddb.db.schema` decides without it
whether a database needs a migration at all. Every migration runs in
:func:`~carddb.db.schema.schema_transaction`: one transaction holding the schema lock, so an
interrupted migration leaves the database as it was, and concurrent ones run one after the other.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from carddb.db.schema import schema_transaction
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
    """Alembic's own answer (:func:`carddb.db.schema.head_revision` reads the files without it)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision``. At the newest revision, derived data that the revisions
    marked stale (the search documents of cards imported before) is then rebuilt by today's code,
    in the same transaction: migrations never run the application's code themselves."""
    with schema_transaction(engine) as connection:
        command.upgrade(alembic_config(connection), revision)
        if revision == "head" or revision == head_revision():
            index.refresh(connection)


def downgrade(engine: Engine, revision: str) -> None:
    with schema_transaction(engine) as connection:
        command.downgrade(alembic_config(connection), revision)


def ensure_head(engine: Engine) -> None:
    """Upgrade the database to the newest revision unless it is there already, deciding again
    once the schema lock is held: a process that waited for another's migration finds it done."""
    with schema_transaction(engine) as connection:
        if MigrationContext.configure(connection).get_current_revision() == head_revision():
            return
        command.upgrade(alembic_config(connection), "head")
