"""What every command receives: the database URL given to ``carddb``, and the database opened once
for the command, for writing or only for reading."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

import carddb

if TYPE_CHECKING:
    from carddb.database import Database


class Context:
    def __init__(self, url: str | None) -> None:
        self.url = url
        self._db: Database | None = None

    def db(self, *, upgrade: bool = True) -> Database:
        """The database, for a command that writes: created if needed, upgraded to the newest
        schema unless ``upgrade`` is False."""
        if self._db is None:
            self._db = carddb.open(self.url, upgrade=upgrade)
        return self._db

    def reader(self, *, check_schema: bool = True) -> Database:
        """The database, for a command that only reads: opened read-only, never created or
        migrated (a missing file, or a schema older than this carddb's unless ``check_schema`` is
        False, is an error saying what to run)."""
        if self._db is None:
            self._db = carddb.open(self.url, upgrade=check_schema, read_only=True)
        return self._db


pass_context = click.make_pass_decorator(Context)
