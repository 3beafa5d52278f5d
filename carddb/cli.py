"""The ``carddb`` command line. Every carddb error is printed as one clear message (no traceback)
and ends the command with a non-zero status.

The commands live in :mod:`carddb.commands`, a module per command or group; this module only
names them (:data:`COMMANDS`, with the short help ``carddb --help`` lists) and imports a command's
module when that command runs (click's lazy group), so ``carddb --version`` loads click and
nothing else, and ``carddb card`` loads what looking a card up needs.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, TextIO

import click

import carddb
from carddb.commands.context import Context
from carddb.errors import CarddbError, DatabaseUnavailableError


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
    "download": LazyCommand(
        "carddb.commands.download",
        "download_command",
        "Download the official files of a source (MTGJSON AllPrintings, Scryfall bulk data, the "
        "Comprehensive Rules), check them, and import them.",
    ),
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
    help="Database URL, or the path of an SQLite file (default: $CARDDB_URL, else an SQLite file "
    "in your data directory).",
)
@click.version_option(carddb.__version__, prog_name="carddb")
@click.pass_context
def cli(ctx: click.Context, url: str | None) -> None:
    """carddb: a multilingual Magic: The Gathering card database."""
    ctx.obj = Context(url)


class ArgumentEncodingError(CarddbError):
    """A command-line argument holding bytes that are not UTF-8 (``carddb search $'\\xff'``)."""

    exit_code = 2

    def __init__(self, position: int, raw: bytes) -> None:
        self.position = position
        self.raw = raw
        super().__init__(f"argument {position} is not UTF-8 text: {raw!r}")


#: The options of ``carddb`` itself, accepted anywhere on the line (``carddb search QUERY --db x``).
GLOBAL_OPTIONS = ("--db",)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``carddb`` console script."""
    _replace_unencodable(sys.stdout)
    _replace_unencodable(sys.stderr)
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
    try:
        _check_encoding(args)
        status = cli.main(args=hoist_global_options(args), prog_name="carddb", standalone_mode=False)
        sys.stdout.flush()
    except BrokenPipeError:  # `carddb search t:land | head -3`: the reader has gone (as click ends it)
        _silence_stdout()
        return 1
    except click.ClickException as exc:
        if as_json:
            _echo_json_error("bad_request", 400, exc.format_message())
        else:
            exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # Ctrl-C: click turns it into Abort while prompting; an import rolled its file back.
        interrupt = exc if isinstance(exc, KeyboardInterrupt) else exc.__context__
        click.echo("carddb: interrupted" if isinstance(interrupt, KeyboardInterrupt) else "aborted", err=True)
        if isinstance(interrupt, KeyboardInterrupt):
            _notes(interrupt)
        return 130
    except CarddbError as exc:
        if as_json:
            code, status = error_code(exc)
            _echo_json_error(code, status, str(exc), getattr(exc, "__notes__", ()))
            return exc.exit_code
        click.echo(f"carddb: {exc}", err=True)
        caret = getattr(exc, "caret", None)  # a query error shows where: the query and a ^ under it
        if isinstance(caret, str) and caret:
            click.echo(caret, err=True)
        _notes(exc)
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("CARDDB_DEBUG"):
            raise
        message = f"internal error: {type(exc).__name__}: {exc}"
        if as_json:
            _echo_json_error("internal_error", 500, message)
        else:
            click.echo(f"carddb: {message} (CARDDB_DEBUG=1 shows where)", err=True)
        return 70
    return status if isinstance(status, int) else 0


def hoist_global_options(args: Sequence[str]) -> list[str]:
    """``args`` with carddb's own options (``--db URL``) moved before the command when they were
    given after it, so that they are accepted anywhere (up to a ``--``)."""
    hoisted: list[str] = []
    rest: list[str] = []
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            rest.append(token)
            rest.extend(tokens)
            break
        name = token.split("=", 1)[0]
        if name in GLOBAL_OPTIONS:
            hoisted.append(token)
            if "=" not in token:
                hoisted.extend(islice(tokens, 1))
        else:
            rest.append(token)
    return [*hoisted, *rest]


def error_code(error: CarddbError) -> tuple[str, int]:
    """The Scryfall-style ``code`` and HTTP ``status`` of an error object for ``error``."""
    if isinstance(error, LookupError):
        return "not_found", 404
    if isinstance(error, DatabaseUnavailableError):
        return "database_unavailable", 503
    return "bad_request", 400


def _echo_json_error(code: str, status: int, details: str, notes: Sequence[str] = ()) -> None:
    """A Scryfall error object on stdout, where a program reading ``--json`` looks."""
    from carddb.commands.output import json_text  # deferred: only an error needs them
    from carddb.scryfall_json import ErrorFacts, error_object

    error = error_object(ErrorFacts(status=status, code=code, details=details, warnings=tuple(notes)))
    click.echo(json_text(error))


def _check_encoding(args: Sequence[str]) -> None:
    """Refuse an argument holding bytes that are not UTF-8 (Python keeps them as lone surrogates)."""
    for position, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise ArgumentEncodingError(position, os.fsencode(arg)) from None


def _replace_unencodable(stream: TextIO) -> None:
    """Print what the stream's encoding cannot hold as replacement characters
    (``PYTHONIOENCODING=latin-1 carddb card 稲妻`` prints ``??``), never an error."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that Python's own final flush is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def _notes(error: BaseException) -> None:
    """What was added to an error on its way (an import says which files were imported before)."""
    for note in getattr(error, "__notes__", ()):
        click.echo(f"carddb: {note}", err=True)


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["COMMANDS", "ArgumentEncodingError", "cli", "hoist_global_options", "main"]
