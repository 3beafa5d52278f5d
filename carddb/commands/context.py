"""What every command receives: the database URL given to ``carddb``, and the database opened once
for the command."""

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
        """The database: created if needed, upgraded to the newest schema unless ``upgrade`` is False."""
        if self._db is None:
            self._db = carddb.open(self.url, upgrade=upgrade)
        return self._db


pass_context = click.make_pass_decorator(Context)
