"""The schema is owned by Alembic: an empty database goes to head, matches the models, and back."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from carddb.db import migrate
from carddb.db.engine import make_engine


def test_empty_database_upgrades_to_head_matches_models_and_downgrades_to_base(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert migrate.current_revision(engine) is None
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        assert {"cards", "faces", "sets", "printings", "localizations", "rulings"} <= set(
            inspect(engine).get_table_names()
        )
        with engine.begin() as connection:
            command.check(migrate.alembic_config(connection))  # raises on any drift
        migrate.downgrade(engine, "base")
        assert migrate.current_revision(engine) is None
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()


def test_opening_a_database_upgrades_it_to_head(db_url: str) -> None:
    import carddb

    with carddb.open(db_url) as db:
        assert migrate.current_revision(db.engine) == migrate.head_revision()
