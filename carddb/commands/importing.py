"""``carddb import``: files or folders of them into the database, with a progress bar on terminals."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from carddb.commands.context import Context, pass_context
from carddb.database import safe_url
from carddb.ingest.importer import Progress
from carddb.resources import sample_dir


class TqdmProgress(Progress):
    """A progress bar over the bytes of one file on disk."""

    def __init__(self, path: Path) -> None:
        self._bar = tqdm(
            total=path.stat().st_size, unit="B", unit_scale=True, desc=path.name, leave=False, file=sys.stderr
        )

    def advance(self, raw_bytes: int) -> None:
        self._bar.update(raw_bytes)

    def close(self) -> None:
        self._bar.close()


@click.command("import")
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
    summary = db.import_path(*targets, progress=TqdmProgress if show_bar else None, card=card)
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
