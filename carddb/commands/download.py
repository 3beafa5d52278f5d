"""``carddb download mtgjson|scryfall|rules``: the official files, fetched, checked, then imported."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from carddb.commands.context import Context, pass_context
from carddb.commands.importing import TqdmProgress, report
from carddb.download import sources
from carddb.download.fetch import Remote, client, fetch
from carddb.resources import cache_dir


class DownloadBar:
    """A tqdm bar per file on stderr (bytes, speed, time left); resumed files start part-way."""

    def __init__(self) -> None:
        self._bar: Any = None

    def begin(self, name: str, total: int | None, done: int) -> None:
        self._bar = tqdm(
            total=total, initial=done, unit="B", unit_scale=True, leave=False, file=sys.stderr, desc=name
        )

    def advance(self, amount: int) -> None:
        if self._bar is not None:
            self._bar.update(amount)

    def end(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


@click.command("download")
@click.argument("source", type=click.Choice(sources.SOURCES))
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the files go (default: the downloads folder of carddb's cache).",
)
@click.option("--no-import", "no_import", is_flag=True, help="Only download (and check) the files.")
@click.option(
    "--base-url",
    metavar="URL",
    help="Fetch from this address instead of the official one (also $CARDDB_MTGJSON_URL, "
    "$CARDDB_SCRYFALL_URL, $CARDDB_RULES_URL).",
)
@click.option(
    "--bulk",
    metavar="TYPES",
    default=",".join(sources.SCRYFALL_DEFAULT_BULK),
    show_default=True,
    help="scryfall: the bulk files to fetch, by their type in the bulk-data index "
    "(all_cards: every language).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@pass_context
def download_command(
    obj: Context,
    source: str,
    folder: Path | None,
    no_import: bool,
    base_url: str | None,
    bulk: str,
    quiet: bool,
) -> None:
    """Download the official files of a source (MTGJSON AllPrintings, Scryfall bulk data, the
    Comprehensive Rules), check them, and import them."""
    folder = folder if folder is not None else cache_dir() / "downloads"
    base = sources.base_url(source, base_url)
    progress = DownloadBar() if not quiet and sys.stderr.isatty() else None
    with client() as http:
        remotes: list[Remote]
        if source == "mtgjson":
            remotes = sources.mtgjson(http, base)
        elif source == "scryfall":
            remotes = sources.scryfall(http, base, [kind.strip() for kind in bulk.split(",") if kind.strip()])
        else:
            remotes = sources.rules(http, base)
        paths = [fetch(http, remote, folder, progress) for remote in remotes]
    for path in paths:
        click.echo(f"downloaded {path} ({path.stat().st_size:,} bytes, checked)")
    if no_import:
        return
    db = obj.db()
    report(db, db.import_path(*paths, progress=TqdmProgress() if progress is not None else None))
