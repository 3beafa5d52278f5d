"""Importing paths: each file's kind read from its content, each kind's files handed to its
importer, then the search index rebuilt once for everything the files touched.

Card data comes first (MTGJSON, then Scryfall), then what refers to cards (the Comprehensive
Rules, which rulings mention; pages, which name cards), each kind in the order given, so a folder
of pages and set files imports whatever its names' order. Every file is one transaction: a failure
inside a file rolls that file back whole, so the database holds what it held before that file,
files before it stay imported, and the error says which those are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from sqlalchemy import Engine

from carddb.db.engine import end_bulk_writes, start_bulk_writes
from carddb.ingest.base import FileSummary, Importer, ImportRun, ImportSummary, Progress, each_file, names
from carddb.ingest.detect import Format, detect_format
from carddb.ingest.mtgjson_import import import_mtgjson
from carddb.ingest.pages import import_page
from carddb.ingest.scryfall_import import import_scryfall
from carddb.ingest.sources import expand_inputs
from carddb.ingest.worker import WorkerSource
from carddb.rules.importer import import_rules
from carddb.search import index

__all__ = ["IMPORTERS", "WORKER_MIN_CARDS", "import_paths"]

IMPORTERS: Mapping[Format, Importer] = {
    "mtgjson": import_mtgjson,
    "scryfall": each_file(import_scryfall),
    "rules": each_file(import_rules),
    "page": each_file(import_page),
}
"""Each kind of source file, in the order kinds are imported, and its importer."""

WORKER_MIN_CARDS = 3000
"""Pending cards from which the search documents are built in the worker process (when the
database is a file or a server): below it, starting the worker costs more than it saves."""


def import_paths(
    engine: Engine,
    url: str,
    paths: Iterable[Path],
    progress: Progress | None = None,
    parallel: bool | None = None,
    card: str | None = None,
    force: bool = False,
) -> ImportSummary:
    """Import every file under ``paths``, each in its own transaction, then rebuild the search
    index of the cards they touched (and of any an interrupted import left pending).

    ``parallel``: read MTGJSON in the worker process (None: for big inputs). ``card``: the card a
    card page is about, for pages that do not name it. ``force``: import sets again even when
    the database holds them from the very same source text.
    """
    files = [file for path in paths for file in expand_inputs(Path(path))]
    kinds = {file: detect_format(file) for file in files}
    order = list(IMPORTERS)
    files.sort(key=lambda file: order.index(kinds[file]))
    run = ImportRun(engine, url, files, progress or Progress(), parallel, card, force)
    run.progress.start(files)
    summaries: list[FileSummary] = []
    refreshed = index.RefreshResult()
    try:
        for kind, importer in IMPORTERS.items():
            for summary in importer(run, [file for file in files if kinds[file] == kind]):
                summaries.append(summary)
                run.after_file(summary)
    except BaseException as error:
        run.stop_worker(kill=True)
        error.add_note(_what_is_in(files, summaries))
        if not isinstance(error, KeyboardInterrupt | SystemExit):
            _refresh_after_failure(run, error)
        raise
    else:
        refreshed = refresh_index(run)
    finally:
        run.stop_worker()
        end_bulk_writes(engine)
        run.progress.close()
    return ImportSummary(tuple(summaries), refreshed)


def refresh_index(run: ImportRun) -> index.RefreshResult:
    """Rebuild the search documents of the pending cards and the type words, in one transaction;
    then refresh the planner's statistics."""
    with run.engine.begin() as connection:
        start_bulk_writes(connection)
        pending = len(index.pending_cards(connection))
        if not pending:
            return index.RefreshResult()
        run.progress.phase("search index", pending)
        in_memory = run.engine.url.database in (None, "", ":memory:") and run.engine.dialect.name == "sqlite"
        source: index.IndexSource | None = None
        if not in_memory and (run.has_worker or pending >= WORKER_MIN_CARDS):
            source = WorkerSource(run.worker(), run.url)
        result = index.refresh(connection, source, progress=run.progress.step)
    index.refresh_statistics(run.engine)
    return result


def _refresh_after_failure(run: ImportRun, error: BaseException) -> None:
    """After a failed file, index what the files before it wrote; say so if that fails too."""
    try:
        refresh_index(run)
    except Exception as second:  # the first error is the one to report
        error.add_note(f"the search index was not rebuilt ({second}); the next import rebuilds it")


def _what_is_in(files: list[Path], summaries: list[FileSummary]) -> str:
    done = [summary.path for summary in summaries]
    rest = len(files) - len(done) - 1
    if not done:
        head = "no file of this import was imported"
    else:
        head = f"{len(done)} of {len(files)} file(s) were imported before this one ({names(done)})"
    tail = f"; the {rest} after it were not" if rest > 0 else ""
    return head + tail
