"""What every command receives: the database given to ``carddb`` (a URL or an SQLite file's path),
the database opened once for the command, for writing or only for reading, and the terminal its
text goes to; and :class:`TextCommand`, the command whose words may start with ``-``."""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

import click

import carddb

if TYPE_CHECKING:
    from carddb.commands.output import Terminal
    from carddb.database import Database


def database_url(value: str | None) -> str | None:
    """A database URL from what ``--db``/``CARDDB_URL`` holds: a URL (``scheme://…``, ``sqlite:…``)
    as it is, anything else as the path of an SQLite file (``~`` expanded, made absolute)."""
    if value is None or value == "":
        return None
    if "://" in value or value.startswith("sqlite:"):
        return value
    return f"sqlite:///{Path(os.path.expanduser(value)).absolute()}"


class Context:
    def __init__(self, url: str | None, terminal: Terminal | None = None) -> None:
        self.url = database_url(url)
        self._terminal = terminal
        self._db: Database | None = None

    @property
    def terminal(self) -> Terminal:
        """Where the command's text goes (width, colour), looked at when first needed."""
        if self._terminal is None:
            from carddb.commands.output import Terminal  # deferred: `carddb --version` loads no wcwidth

            self._terminal = Terminal.detect()
        return self._terminal

    def db(self, *, upgrade: bool = True) -> Database:
        """The database, for a command that writes: created if needed, upgraded to the newest
        schema unless ``upgrade`` is False."""
        if self._db is None:
            self._db = carddb.open(self.url, upgrade=upgrade)
        return self._db

    def reader(self, *, check_schema: bool = True, cards: bool = True) -> Database:
        """The database, for a command that only reads: opened read-only, never created or
        migrated (a missing file, or a schema older than this carddb's unless ``check_schema`` is
        False, is an error saying what to run). A command that reads ``cards`` warns on stderr
        when the database holds none: every lookup would then fail without saying why."""
        if self._db is None:
            self._db = carddb.open(self.url, upgrade=check_schema, read_only=True)
            if cards and check_schema:
                warn_if_empty(self._db)
        return self._db


def warn_if_empty(db: Database) -> None:
    """One line on stderr when ``db`` holds no card."""
    from sqlalchemy import select  # deferred, as every database module: `carddb --version` loads none

    from carddb.database import safe_url
    from carddb.db.models import Card

    with db.session() as session:
        if session.scalar(select(Card.id).limit(1)) is not None:
            return
    click.echo(
        f"warning: the database {safe_url(db.url)} holds no cards "
        "(carddb import --sample imports a small real sample; carddb download mtgjson, every card)",
        err=True,
    )


pass_context = click.make_pass_decorator(Context)


class TextCommand(click.Command):
    """A command whose arguments are free text (a query, a card name) that may start with ``-``:
    ``carddb search -t:land c:g`` is the query ``-t:land c:g``, not an option ``-t``. Every word
    that is not one of the command's own options (or the value of one) is text, wherever it
    stands; after ``--`` everything is text."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self.separate(ctx, args))

    def separate(self, ctx: click.Context, args: Sequence[str]) -> list[str]:
        """``args`` as the command's options first, then ``--`` and the words of the text."""
        takes_value: dict[str, bool] = {}
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                for name in (*param.opts, *param.secondary_opts):
                    takes_value[name] = not (param.is_flag or param.count)
        options: list[str] = []
        words: list[str] = []
        tokens = iter(args)
        for token in tokens:
            if token == "--":
                words.extend(tokens)
                break
            name = token.split("=", 1)[0]
            if token.startswith("-") and name in takes_value:
                options.append(token)
                if takes_value[name] and "=" not in token:
                    options.extend(islice(tokens, 1))
            else:
                words.append(token)
        return [*options, "--", *words] if words else options


def joined(words: Sequence[str]) -> str:
    """The text of a command's words (``carddb card Lightning Bolt``: ``Lightning Bolt``)."""
    return " ".join(words)


__all__ = ["Context", "TextCommand", "database_url", "joined", "pass_context", "warn_if_empty"]
