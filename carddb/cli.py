"""The ``carddb`` command line. Every carddb error is printed as one clear message (no traceback)
and ends the command with a non-zero status."""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import click
from tqdm import tqdm

import carddb
from carddb import languages
from carddb.database import Database, open_database, safe_url
from carddb.db import migrate
from carddb.db.engine import default_url
from carddb.errors import CarddbError, MigrationError
from carddb.ingest.base import Progress
from carddb.notes import format_note
from carddb.resources import sample_dir
from carddb.search.results import ORDERS, SearchResult
from carddb.views import CardView

F = TypeVar("F", bound=Callable[..., Any])


class TqdmProgress(Progress):
    """One progress bar over the whole import: the bytes of every file on disk ("file 12/579"),
    with the printings, translations and rulings written so far; then one over the cards of each
    step after the files (the search index)."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._files = 0
        self._counts = [0, 0, 0]

    def start(self, files: Sequence[Path]) -> None:
        self._files = len(files)
        total = sum(path.stat().st_size for path in files if path.is_file())
        self._bar = tqdm(total=total, unit="B", unit_scale=True, leave=False, file=sys.stderr, desc="import")

    def file(self, index: int, path: Path) -> None:
        if self._bar is not None:
            self._bar.set_description(f"file {index + 1}/{self._files} {path.name}")

    def advance(self, raw_bytes: int) -> None:
        if self._bar is not None:
            self._bar.update(raw_bytes)

    def wrote(self, printings: int = 0, localizations: int = 0, rulings: int = 0) -> None:
        for position, amount in enumerate((printings, localizations, rulings)):
            self._counts[position] += amount
        if self._bar is not None:
            printed, localized, ruled = self._counts
            self._bar.set_postfix_str(
                f"{printed:,} printings, {localized:,} translations, {ruled:,} rulings", refresh=False
            )

    def phase(self, name: str, total: int) -> None:
        if self._bar is not None:
            self._bar.close()
        self._bar = tqdm(total=total, unit=" cards", leave=False, file=sys.stderr, desc=name)

    def step(self, amount: int) -> None:
        if self._bar is not None:
            self._bar.update(amount)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class Context:
    def __init__(self, url: str | None) -> None:
        self.url = url
        self._db: Database | None = None

    def db(self, *, upgrade: bool = True) -> Database:
        if self._db is None:
            self._db = open_database(self.url, upgrade=upgrade)
        return self._db


pass_context = click.make_pass_decorator(Context)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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


@cli.command("import")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--sample", is_flag=True, help="Import the small real sample shipped with carddb.")
@click.option(
    "--card", "card", metavar="NAME", help="The card a card page is about, if the page does not name it."
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("-v", "--verbose", is_flag=True, help="Also print what went where (a page's paragraphs, say).")
@pass_context
def import_command(
    obj: Context, paths: tuple[Path, ...], sample: bool, card: str | None, quiet: bool, verbose: bool
) -> None:
    """Import files or folders of them (plain, .xz, .gz, .bz2), each file's kind read from its
    content: MTGJSON (AllPrintings, set files), Scryfall (bulk cards or rulings, API list pages),
    the Comprehensive Rules, card pages and rulings pages."""
    targets = list(paths) + ([sample_dir()] if sample else [])
    if not targets:
        raise click.UsageError("give one or more PATHs, or --sample")
    db = obj.db()
    show_bar = not quiet and sys.stderr.isatty()
    summary = db.import_path(*targets, progress=TqdmProgress() if show_bar else None, card=card)
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    if verbose:
        for line in summary.report:
            click.echo(line)
    click.echo(f"imported {summary.line()}")
    totals = db.counts()
    click.echo(
        f"database {safe_url(db.url)} now holds {totals['cards']} cards, {totals['printings']} printings, "
        f"{totals['localizations']} localizations, {totals['rulings']} rulings"
    )


@cli.command("card")
@click.argument("name")
@click.option("--lang", "lang", metavar="L", help="Show the card in this language (e.g. de, ja, Deutsch).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def card_command(obj: Context, name: str, lang: str | None, as_json: bool) -> None:
    """Show a card, found by its name in any language."""
    view = obj.db().card(name, lang=lang)
    if as_json:
        click.echo(json.dumps(view.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_card(view))


def format_card(view: CardView) -> str:
    """A card as text: name, cost, type, text per face; printings; rulings with local dates."""
    language = languages.by_tag(view.language)
    lines: list[str] = []
    for index, face in enumerate(view.faces):
        if index:
            lines.append("//")
        lines.append(f"{face.name}  {face.mana_cost or ''}".rstrip())
        lines.append(face.type_line)
        if face.text:
            lines.extend(face.text.splitlines())
        stats = "/".join(s for s in (face.power, face.toughness) if s is not None)
        for label, value in (("", stats), ("Loyalty: ", face.loyalty), ("Defense: ", face.defense)):
            if value:
                lines.append(f"{label}{value}")
        if face.flavor:
            lines.append(f"  {face.flavor}")
    header = f"[{language.native_name} ({language.tag})"
    if view.language != "en":
        header += f"; English name: {view.english_name}"
    lines.append(header + "]")
    if view.fallback:
        lines.append(f"(no {language.english_name} text for part of this card: shown in English)")
    lines.append("")
    lines.append("Printings:")
    for p in view.printings:
        released = p.release_date.isoformat() if p.release_date else "?"
        lines.append(
            f"  {p.set_code:<6} #{p.collector_number:<5} {p.rarity or '':<9} {released}  {p.set_name}"
            f"  [{' '.join(p.languages)}]"
        )
    if view.rulings:
        lines.append("")
        heading = "Rulings:"
        if view.rulings_language != view.language:
            heading = f"Rulings (in {languages.by_tag(view.rulings_language).english_name}):"
        lines.append(heading)
        for ruling in view.rulings:
            date = ruling.date_in(view.language)
            lines.append(f"  {date}: {ruling.text}" if date else f"  {ruling.text}")
    if view.notes:
        lines.append("")
        lines.append("Notes from rulings and keyword pages:")
        lines.extend(format_note(note, view.english_name) for note in view.notes)
    if view.rules:
        lines.append("")
        lines.append("Rules mentioned:")
        lines.extend(f"  {rule}" for rule in view.rules)
    return "\n".join(lines)


@cli.command("search")
@click.argument("query")
@click.option("--lang", "lang", metavar="L", help="Show the cards in this language (and search its text).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="Cards per page.")
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True, help="Which page.")
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="name",
    show_default=True,
    help="Sort by name, mana value, set or release (newest first).",
)
@pass_context
def search_command(
    obj: Context, query: str, lang: str | None, as_json: bool, limit: int, page: int, order: str
) -> None:
    """Find cards with a Scryfall-style QUERY: t:creature c:r mv<=3 o:haste (see docs/query-syntax.md)."""
    result = obj.db().search(query, lang=lang, limit=limit, page=page, order=order)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_search(result))


def format_search(result: SearchResult) -> str:
    """A table of the cards found (name in the result's language, cost, type line) and the total."""
    lines = []
    if result.cards:
        name_width = min(max(_width(hit.name) for hit in result.cards), 48)
        cost_width = min(max(len(hit.mana_cost or "") for hit in result.cards), 24)
        for hit in result.cards:
            name = hit.name + " " * max(0, name_width - _width(hit.name))
            lines.append(f"{name}  {(hit.mana_cost or ''):<{cost_width}}  {hit.type_line}".rstrip())
    first = (result.page - 1) * result.limit + 1
    shown = (
        f" (showing {first}-{first + len(result.cards) - 1})"
        if result.cards and (len(result.cards) < result.total)
        else ""
    )
    if not result.cards and result.total:
        shown = f" (page {result.page} is past the end)"
    lines.append(f"{result.total} card{'' if result.total == 1 else 's'}{shown}")
    return "\n".join(lines)


def _width(text: str) -> int:
    """Terminal columns of ``text`` (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


@cli.command("rule")
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def rule_command(obj: Context, query: str, as_json: bool) -> None:
    """Show a rule of the Comprehensive Rules: by number (702.35, 702.35a), by a glossary term
    (madness), or several by a range or list (601.2f-h; 603.6 and 603.10), with subrules, examples
    and the rules it mentions."""
    from carddb.rules.lookup import format_rule

    views = obj.db().rules(query)
    if as_json:
        data: Any = views[0].to_dict() if len(views) == 1 else [view.to_dict() for view in views]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo("\n\n".join(format_rule(view) for view in views))


@cli.command("keyword")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def keyword_command(obj: Context, name: str, as_json: bool) -> None:
    """Show what the imported rulings and keyword pages say about a keyword or topic (madness, dice)."""
    from carddb.notes import format_keyword

    view = obj.db().keyword(name)
    click.echo(json.dumps(view.to_dict(), ensure_ascii=False, indent=2) if as_json else format_keyword(view))


@cli.command("languages")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def languages_command(obj: Context, as_json: bool) -> None:
    """List the languages in the database with their counts."""
    counts = obj.db().languages()
    if as_json:
        click.echo(json.dumps([asdict(c) for c in counts], ensure_ascii=False, indent=2))
        return
    click.echo(
        f"{'tag':<9}{'language':<22}{'native':<20}{'localizations':>14}{'printings':>11}{'rulings':>9}"
    )
    for c in counts:
        click.echo(
            f"{c.tag:<9}{c.english_name:<22}{c.native_name:<20}{c.localizations:>14}{c.printings:>11}{c.rulings:>9}"
        )


@cli.command("parse")
@click.argument("text", required=False)
@click.option("--name", metavar="NAME", help="The card's name, so its references to itself are recognized.")
@click.option(
    "--type", "type_line", metavar="TYPE", help="The type line (instants and sorceries hold spells)."
)
@click.option(
    "--card", "card_name", metavar="NAME", help="Parse the oracle text of a card from the database."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def parse_command(
    obj: Context,
    text: str | None,
    name: str | None,
    type_line: str | None,
    card_name: str | None,
    as_json: bool,
) -> None:
    """Parse oracle TEXT (or a card's text with --card) into typed abilities."""
    from carddb.oracle import parse_oracle
    from carddb.oracle.show import face_to_dict, format_face

    if card_name is not None:
        view = obj.db().card(card_name, lang="en")
        faces = [(face.english_name, face.text or "", face.type_line) for face in view.faces]
    elif text is not None:
        faces = [(name or "", text.replace("\\n", "\n"), type_line or "")]
    else:
        raise click.UsageError("give TEXT or --card NAME")
    parsed = [
        parse_oracle(face_text, face_name or None, face_type or None)
        for face_name, face_text, face_type in faces
    ]
    if as_json:
        click.echo(
            json.dumps(
                [face_to_dict(p) for p in parsed] if len(parsed) > 1 else face_to_dict(parsed[0]),
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        click.echo("\n\n".join(format_face(p) for p in parsed))


@cli.command("coverage")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--min-rate", type=float, metavar="R", help="Exit 1 when the parsed rate is below R (0..1).")
@click.option("--top", type=int, default=20, show_default=True, help="How many unimplemented shapes to list.")
@click.option("--engine", is_flag=True, help="Also count the faces the rules engine executes entirely.")
@click.pass_context
def coverage_cli(
    ctx: click.Context, path: Path, as_json: bool, min_rate: float | None, top: int, engine: bool
) -> None:
    """How much of a file of faces (JSONL, MTGJSON or Scryfall) the oracle grammar parses."""
    from carddb.oracle.coverage import coverage_command

    ctx.exit(coverage_command(path, as_json=as_json, min_rate=min_rate, top=top, engine=engine))


@cli.group("scenario")
def scenario_group() -> None:
    """Rules-engine scenarios (TOML files; see docs/scenarios.md)."""


@scenario_group.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--db", "db_url", metavar="URL", help="Database with the cards (default: carddb's own).")
@click.pass_obj
def scenario_run(obj: Context, paths: tuple[Path, ...], db_url: str | None) -> None:
    """Run scenario files: one line each, pass or fail with what differs. Exit 0 when all pass,
    1 when any fails, 2 when a file is invalid."""
    from carddb.engine.cards import CardPool
    from carddb.engine.scenario import ScenarioError, run_file

    pool = CardPool(open_database(db_url) if db_url else obj.db())
    failed = invalid = 0
    for path in paths:
        try:
            result = run_file(path, pool)
        except ScenarioError as error:
            invalid += 1
            click.echo(f"INVALID {error}")
            continue
        click.echo(f"{'PASS' if result.passed else 'FAIL'} {path}  {result.title}")
        for difference in result.differences:
            click.echo(f"    {difference}")
        failed += not result.passed
    raise SystemExit(2 if invalid else 1 if failed else 0)


@cli.group("db")
def db_group() -> None:
    """Schema migrations (Alembic)."""


@db_group.command("upgrade")
@click.argument("revision", default="head")
@pass_context
def db_upgrade(obj: Context, revision: str) -> None:
    """Upgrade the schema (default: to the newest revision)."""
    db = obj.db(upgrade=False)
    _alembic(lambda: migrate.upgrade(db.engine, revision))
    click.echo(f"{safe_url(db.url)} at revision {migrate.current_revision(db.engine) or 'base'}")


@db_group.command("downgrade")
@click.argument("revision")
@pass_context
def db_downgrade(obj: Context, revision: str) -> None:
    """Downgrade the schema to REVISION ('base' removes every table)."""
    db = obj.db(upgrade=False)
    _alembic(lambda: migrate.downgrade(db.engine, revision))
    click.echo(f"{safe_url(db.url)} at revision {migrate.current_revision(db.engine) or 'base'}")


@db_group.command("current")
@pass_context
def db_current(obj: Context) -> None:
    """Show the schema revision of the database and the newest one carddb knows."""
    db = obj.db(upgrade=False)
    current = migrate.current_revision(db.engine) or "base"
    head = migrate.head_revision() or "base"
    state = "up to date" if current == head else f"newest is {head}"
    click.echo(f"{safe_url(db.url)}: revision {current} ({state})")


def _alembic(action: Callable[[], None]) -> None:
    from alembic.util import CommandError

    try:
        action()
    except CommandError as exc:
        raise MigrationError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``carddb`` console script."""
    try:
        status = cli.main(args=argv, prog_name="carddb", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # click turns Ctrl-C into Abort; the import in progress rolled its file back.
        if isinstance(exc, KeyboardInterrupt) or isinstance(exc.__context__, KeyboardInterrupt):
            click.echo("interrupted: the file being imported was rolled back", err=True)
        else:
            click.echo("aborted", err=True)
        return 130
    except CarddbError as exc:
        click.echo(f"carddb: {exc}", err=True)
        caret = getattr(exc, "caret", None)  # a query error shows where: the query and a ^ under it
        if isinstance(caret, str) and caret:
            click.echo(caret, err=True)
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("CARDDB_DEBUG"):
            raise
        click.echo(
            f"carddb: internal error: {type(exc).__name__}: {exc} (CARDDB_DEBUG=1 shows where)", err=True
        )
        return 70
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["cli", "default_url", "main"]
