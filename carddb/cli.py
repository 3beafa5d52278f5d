"""The ``carddb`` command line. Every carddb error is printed as one clear message (no traceback)
and ends the command with a non-zero status.

The commands live in :mod:`carddb.commands`, a module per command or group; this module only
names them (:data:`COMMANDS`, with the short help ``carddb --help`` lists) and imports a command's
module when that command runs (click's lazy group), so ``carddb --version`` loads click and
nothing else, and ``carddb card`` loads what looking a card up needs.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any

import click

import carddb
from carddb.commands.context import Context
from carddb.errors import CarddbError


@dataclass(frozen=True)
class LazyCommand:
    """A command known by name: the module defining it, its name there, and its short help (the
    first sentence of its help, as ``carddb --help`` lists it; a test keeps the two equal)."""

    module: str
    attribute: str
    short_help: str

    def stand_in(self) -> click.Command:
        """A command that only has the short help, for listing this one without importing it."""
        return click.Command(None, help=self.short_help)

    def load(self) -> click.Command:
        command = getattr(importlib.import_module(self.module), self.attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.module}.{self.attribute} is not a click command")
        return command


COMMANDS: dict[str, LazyCommand] = {
    "card": LazyCommand(
        "carddb.commands.card", "card_command", "Show a card, found by its name in any language."
    ),
    "coverage": LazyCommand(
        "carddb.commands.coverage",
        "coverage_cli",
        "How much of a file of faces (JSONL, MTGJSON or Scryfall) the oracle grammar parses.",
    ),
    "db": LazyCommand("carddb.commands.db", "db_group", "Schema migrations (Alembic)."),
    "import": LazyCommand(
        "carddb.commands.importing",
        "import_command",
        "Import files or folders of them (plain, .xz, .gz, .bz2), each file's kind read from its content: "
        "MTGJSON (AllPrintings, set files), Scryfall (bulk cards or rulings, API list pages), "
        "the Comprehensive Rules, card pages and rulings pages.",
    ),
    "keyword": LazyCommand(
        "carddb.commands.keyword",
        "keyword_command",
        "Show what the imported rulings and keyword pages say about a keyword or topic (madness, dice).",
    ),
    "languages": LazyCommand(
        "carddb.commands.languages",
        "languages_command",
        "List the languages in the database with their counts.",
    ),
    "parse": LazyCommand(
        "carddb.commands.parse",
        "parse_command",
        "Parse oracle TEXT (or a card's text with --card) into typed abilities.",
    ),
    "rule": LazyCommand(
        "carddb.commands.rule",
        "rule_command",
        "Show a rule of the Comprehensive Rules: by number (702.35, 702.35a), by a glossary term "
        "(madness), or several by a range or list (601.2f-h; 603.6 and 603.10), with subrules, "
        "examples and the rules it mentions.",
    ),
    "scenario": LazyCommand(
        "carddb.commands.scenario",
        "scenario_group",
        "Rules-engine scenarios (TOML files; see docs/scenarios.md).",
    ),
    "search": LazyCommand(
        "carddb.commands.search",
        "search_command",
        "Find cards with a Scryfall-style QUERY: t:creature c:r mv<=3 o:haste (see docs/query-syntax.md).",
    ),
    "serve": LazyCommand(
        "carddb.commands.serve",
        "serve_command",
        "Serve the database read-only over HTTP: the Scryfall card API and web pages.",
    ),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when they run (click's documented lazy-loading
    pattern); ``--help`` lists them from :data:`COMMANDS` without importing any."""

    def __init__(self, *args: Any, lazy: dict[str, LazyCommand], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(self.lazy[cmd_name].load(), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click lists commands, with a stand-in holding the table's short help for each
        command not imported, so that listing them imports none."""
        listed = [
            (name, self.commands[name] if name in self.commands else self.lazy[name].stand_in())
            for name in self.list_commands(ctx)
        ]
        shown = [(name, command) for name, command in listed if not command.hidden]
        if shown:
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    "url",
    envvar="CARDDB_URL",
    metavar="URL",
    help="Database URL (default: $CARDDB_URL, else an SQLite file in your data directory).",
)
@click.version_option(carddb.__version__, prog_name="carddb")
@click.pass_context
def cli(ctx: click.Context, url: str | None) -> None:
    """carddb: a multilingual Magic: The Gathering card database."""
    ctx.obj = Context(url)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``carddb`` console script."""
    try:
        status = cli.main(args=argv, prog_name="carddb", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # click turns Ctrl-C into Abort; the import in progress rolled its file back.
        interrupt = exc if isinstance(exc, KeyboardInterrupt) else exc.__context__
        if isinstance(interrupt, KeyboardInterrupt):
            click.echo("interrupted: the file being imported was rolled back", err=True)
            _notes(interrupt)
        else:
            click.echo("aborted", err=True)
        return 130
    except CarddbError as exc:
        click.echo(f"carddb: {exc}", err=True)
        caret = getattr(exc, "caret", None)  # a query error shows where: the query and a ^ under it
        if isinstance(caret, str) and caret:
            click.echo(caret, err=True)
        _notes(exc)
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("CARDDB_DEBUG"):
            raise
        click.echo(
            f"carddb: internal error: {type(exc).__name__}: {exc} (CARDDB_DEBUG=1 shows where)", err=True
        )
        return 70
    return status if isinstance(status, int) else 0


def _notes(error: BaseException) -> None:
    """What was added to an error on its way (an import says which files were imported before)."""
    for note in getattr(error, "__notes__", ()):
        click.echo(f"carddb: {note}", err=True)


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["COMMANDS", "cli", "main"]
