"""``carddb db upgrade | downgrade | current``: the schema's Alembic migrations."""

from __future__ import annotations

from collections.abc import Callable

import click

from carddb.commands.context import Context, pass_context
from carddb.database import safe_url
from carddb.db import schema
from carddb.errors import DatabaseMissingError, MigrationError


@click.group("db")
def db_group() -> None:
    """Schema migrations (Alembic)."""


@db_group.command("upgrade")
@click.argument("revision", default="head")
@pass_context
def db_upgrade(obj: Context, revision: str) -> None:
    """Upgrade the schema (default: to the newest revision)."""
    from carddb.db import migrate  # deferred: `db current` needs no Alembic

    db = obj.db(upgrade=False)
    _alembic(lambda: migrate.upgrade(db.engine, revision))
    click.echo(f"{safe_url(db.url)} at revision {migrate.current_revision(db.engine) or 'base'}")


@db_group.command("downgrade")
@click.argument("revision")
@pass_context
def db_downgrade(obj: Context, revision: str) -> None:
    """Downgrade the schema to REVISION ('base' removes every table)."""
    from carddb.db import migrate  # deferred: `db current` needs no Alembic

    db = obj.db(upgrade=False)
    _alembic(lambda: migrate.downgrade(db.engine, revision))
    click.echo(f"{safe_url(db.url)} at revision {migrate.current_revision(db.engine) or 'base'}")


@db_group.command("current")
@pass_context
def db_current(obj: Context) -> None:
    """Show the schema revision of the database and the newest one carddb knows."""
    try:
        db = obj.reader(check_schema=False)
    except DatabaseMissingError as missing:  # no file yet: nothing to read, and nothing is created
        url, current = safe_url(missing.url), "base"
    else:
        with db.engine.connect() as connection:
            url, current = safe_url(db.url), schema.stored_revision(connection) or "base"
    head = schema.head_revision()
    state = "up to date" if current == head else f"newest is {head}"
    click.echo(f"{url}: revision {current} ({state})")


def _alembic(action: Callable[[], None]) -> None:
    from alembic.util import CommandError

    try:
        action()
    except CommandError as exc:
        raise MigrationError(str(exc)) from None
