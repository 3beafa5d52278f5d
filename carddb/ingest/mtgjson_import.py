"""The MTGJSON importer: set files and AllPrintings, each file in one transaction.

The sets are read (:mod:`carddb.ingest.mtgjson`) in the import's worker process
(:mod:`carddb.ingest.worker`) while this process writes them (:mod:`carddb.ingest.loader`): one
stream for all the MTGJSON files of the import, so the worker reads the next file while this one
writes the last. Small inputs are read here, sparing the worker's start-up.

Each file's transaction writes its sets, prunes the translations its relinking left unused, and
records the cards it touched for the search index (:func:`carddb.search.index.mark_pending`):
work proportional to the file, never to the database. A set stored from the very same source text
(:attr:`carddb.ingest.records.SetBatch.digest`) is not written again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from sqlalchemy import Engine, Table, select

from carddb.db.models import CardSet
from carddb.errors import SourceError
from carddb.ingest.base import FileSummary, ImportRun, file_transaction
from carddb.ingest.loader import Loader
from carddb.ingest.worker import FileRead, SetItem, UnchangedSet, read_sets
from carddb.search import index

__all__ = ["PARALLEL_MIN_BYTES", "import_mtgjson", "stored_digests"]

PARALLEL_MIN_BYTES = 8 * 1024 * 1024
"""Inputs at least this big (on disk, all the MTGJSON files of an import together) are read in the
worker process; smaller ones here."""

sets_t: Table = CardSet.__table__  # type: ignore[assignment]

Items = Iterator[tuple[SetItem | FileRead, int]]


def stored_digests(engine: Engine) -> dict[str, str]:
    """The source digest of every stored set that has one, by code."""
    with engine.connect() as connection:
        return {
            code: digest
            for code, digest in connection.execute(
                select(sets_t.c.code, sets_t.c.source_digest).where(sets_t.c.source_digest.is_not(None))
            )
        }


def import_mtgjson(run: ImportRun, files: Sequence[Path]) -> Iterator[FileSummary]:
    """Import MTGJSON files in order, each in its own transaction."""
    if not files:
        return
    for path in files:
        if not path.is_file():
            raise SourceError(path, "not a file")
    stored = {} if run.force else stored_digests(run.engine)
    parallel = run.parallel
    if parallel is None:
        parallel = run.has_worker or sum(path.stat().st_size for path in files) >= PARALLEL_MIN_BYTES
    items: Items = run.worker().read_mtgjson(files, stored) if parallel else _read_here(run, files, stored)
    for path in files:
        yield _import_file(run, path, items)
    for _item in items:  # the end of the reading: the worker is free for the next request
        raise SourceError(files[-1], "the reader went on past the last file")


def _read_here(run: ImportRun, files: Sequence[Path], stored: dict[str, str]) -> Items:
    for path in files:
        for item in read_sets(path, stored, run.progress.advance):
            yield item, 0


def _import_file(run: ImportRun, path: Path, items: Items) -> FileSummary:
    started = time.perf_counter()
    run.progress.file(run.number(path), path)
    sets: list[str] = []
    skipped: list[str] = []
    unchanged: list[str] = []
    warnings: list[str] = []
    cards = printings = localizations = rulings = 0
    with file_transaction(run.engine, path) as connection:
        loader = Loader(connection, force=run.force)
        for item, amount in items:
            run.progress.advance(amount)
            if isinstance(item, FileRead):
                warnings.extend(item.warnings)
                break
            if isinstance(item, UnchangedSet):
                unchanged.append(item.code)
                continue
            result = loader.write(item)
            if result.unchanged:
                unchanged.append(item.set.code)
            elif not result.written:
                skipped.append(item.set.code)
            else:
                sets.append(item.set.code)
                cards += result.cards
                printings += result.printings
                localizations += item.localized_entries
                rulings += item.ruling_entries
                run.progress.wrote(result.printings, item.localized_entries, item.ruling_entries)
        else:
            raise SourceError(path, "the reader stopped before the end of the file")
        loader.prune()
        index.mark_pending(connection, loader.touched)
    if skipped:
        warnings.append(f"{path.name}: kept newer stored data for set(s) {', '.join(skipped)}")
    return FileSummary(
        path=path,
        sets=tuple(sets),
        skipped_sets=tuple(skipped),
        cards=cards,
        printings=printings,
        localizations=localizations,
        rulings=rulings,
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        unchanged_sets=tuple(unchanged),
    )
