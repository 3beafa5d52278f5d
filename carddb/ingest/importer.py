"""Importing paths: one transaction per input file, a progress bar on terminals, a summary at the end.

A failure inside a file rolls that file back whole, so the database holds exactly what it held
before that file; files before it stay imported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from carddb.db.models import Base
from carddb.errors import SourceError
from carddb.ingest.loader import Loader
from carddb.ingest.mtgjson import MTGJSONReader, read_mtgjson
from carddb.ingest.pipeline import ParallelReader
from carddb.ingest.sources import expand_inputs
from carddb.search import index

ProgressFactory = Callable[[Path], "Progress"]


class Progress:
    """What the importer reports progress to; the default reports nothing."""

    def advance(self, raw_bytes: int) -> None:
        """``raw_bytes`` more of the file on disk were read."""

    def close(self) -> None:
        """The file is done."""


@dataclass(frozen=True, slots=True)
class FileSummary:
    path: Path
    sets: tuple[str, ...]
    skipped_sets: tuple[str, ...]
    cards: int
    printings: int
    localizations: int
    rulings: int
    seconds: float
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import did, file by file; the totals count entries read from the sources."""

    files: tuple[FileSummary, ...] = field(default_factory=tuple)

    @property
    def sets(self) -> int:
        return sum(len(f.sets) for f in self.files)

    @property
    def cards(self) -> int:
        return sum(f.cards for f in self.files)

    @property
    def printings(self) -> int:
        return sum(f.printings for f in self.files)

    @property
    def localizations(self) -> int:
        return sum(f.localizations for f in self.files)

    @property
    def rulings(self) -> int:
        return sum(f.rulings for f in self.files)

    @property
    def seconds(self) -> float:
        return sum(f.seconds for f in self.files)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(w for f in self.files for w in f.warnings)

    @property
    def skipped_sets(self) -> tuple[str, ...]:
        return tuple(s for f in self.files for s in f.skipped_sets)

    def line(self) -> str:
        """One line for people: what was read, and how long it took."""
        return (
            f"{len(self.files)} file(s), {self.sets} set(s) in {self.seconds:.2f} s: read {self.printings} "
            f"printings, {self.localizations} localized entries, {self.rulings} ruling rows; "
            f"wrote {self.cards} card records"
        )


# Files at least this big are parsed in a second process while this one writes.
PARALLEL_MIN_BYTES = 8 * 1024 * 1024


def import_paths(
    engine: Engine,
    paths: Iterable[Path],
    progress: ProgressFactory | None = None,
    parallel: bool | None = None,
) -> ImportSummary:
    """Import every file under ``paths`` in order, each in its own transaction.

    ``parallel``: parse in a second process (None: for files of ``PARALLEL_MIN_BYTES`` or more).
    """
    files = [file for path in paths for file in expand_inputs(Path(path))]
    summaries: list[FileSummary] = []
    try:
        for file in files:
            summaries.append(import_file(engine, file, progress(file) if progress else Progress(), parallel))
    finally:
        if summaries:
            refresh_statistics(engine)
    return ImportSummary(tuple(summaries))


# The search index's GIN indexes (migration 0002): a bulk import leaves its entries in each index's
# pending list, which every search then reads through linearly (5 ms instead of 0.1 for a bigram)
# until autovacuum merges them; merge them now.
_MERGE_GIN_PENDING = (
    "SELECT gin_clean_pending_list(c.oid::regclass) FROM pg_class c JOIN pg_am a ON a.oid = c.relam "
    "WHERE c.relkind = 'i' AND a.amname = 'gin' AND starts_with(c.relname, 'fts_') "
    "AND c.relnamespace = current_schema()::regnamespace"
)


def refresh_statistics(engine: Engine) -> None:
    """Let the query planner see what a bulk import changed (PostgreSQL plans lookups badly until
    autovacuum gets round to it; SQLite's ``PRAGMA optimize`` analyses only what needs it)."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            quote = engine.dialect.identifier_preparer.quote
            connection.exec_driver_sql("ANALYZE " + ", ".join(quote(name) for name in Base.metadata.tables))
            connection.exec_driver_sql(_MERGE_GIN_PENDING)
        else:
            connection.exec_driver_sql("PRAGMA optimize")


def import_file(
    engine: Engine, path: Path, progress: Progress | None = None, parallel: bool | None = None
) -> FileSummary:
    """Import one MTGJSON file in one transaction."""
    progress = progress or Progress()
    started = time.perf_counter()
    if parallel is None:
        parallel = path.is_file() and path.stat().st_size >= PARALLEL_MIN_BYTES
    reader: MTGJSONReader | ParallelReader = (
        ParallelReader(path, on_progress=progress.advance)
        if parallel
        else read_mtgjson(path, on_progress=progress.advance)
    )
    sets: list[str] = []
    skipped: list[str] = []
    cards = printings = localizations = rulings = 0
    try:
        with engine.begin() as connection:
            loader = Loader(connection)
            for batch in reader:
                result = loader.write(batch)
                if not result.written:
                    skipped.append(batch.set.code)
                    continue
                sets.append(batch.set.code)
                cards += result.cards
                printings += result.printings
                localizations += batch.localized_entries
                rulings += batch.ruling_entries
            loader.prune()
            index.refresh(connection, loader.touched)
    except DBAPIError as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        raise SourceError(path, f"database error, file rolled back: {reason.splitlines()[0]}") from exc
    except SQLAlchemyError as exc:
        reason = str(exc)
        raise SourceError(path, f"database error, file rolled back: {reason.splitlines()[0]}") from exc
    finally:
        progress.close()
    warnings = list(reader.warnings)
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
    )
