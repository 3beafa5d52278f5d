"""``carddb import``: files or folders of them into the database, with a progress bar on terminals."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from carddb.commands.context import Context, pass_context
from carddb.database import Database, safe_url
from carddb.ingest.base import ImportSummary, Progress
from carddb.resources import sample_dir


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


@click.command("import")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--sample", is_flag=True, help="Import the small real sample shipped with carddb.")
@click.option(
    "--card", "card", metavar="NAME", help="The card a card page is about, if the page does not name it."
)
@click.option(
    "--force",
    is_flag=True,
    help="Write sets again even when the database holds them from the very same file.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("-v", "--verbose", is_flag=True, help="Also print what went where (a page's paragraphs, say).")
@pass_context
def import_command(
    obj: Context,
    paths: tuple[Path, ...],
    sample: bool,
    card: str | None,
    force: bool,
    quiet: bool,
    verbose: bool,
) -> None:
    """Import files or folders of them (plain, .xz, .gz, .bz2), each file's kind read from its
    content: MTGJSON (AllPrintings, set files), Scryfall (bulk cards or rulings, API list pages),
    the Comprehensive Rules, card pages and rulings pages."""
    targets = list(paths) + ([sample_dir()] if sample else [])
    if not targets:
        raise click.UsageError("give one or more PATHs, or --sample")
    db = obj.db()
    show_bar = not quiet and sys.stderr.isatty()
    try:
        summary = db.import_path(
            *targets, progress=TqdmProgress() if show_bar else None, card=card, force=force
        )
    except KeyboardInterrupt as interrupt:
        interrupt.add_note("the file being imported was rolled back; the files before it are in")
        raise
    report(db, summary, verbose=verbose)


def report(db: Database, summary: ImportSummary, *, verbose: bool = False) -> None:
    """What an import did: its warnings (stderr), what went where (``verbose``), the summary line
    and what the database holds now."""
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
