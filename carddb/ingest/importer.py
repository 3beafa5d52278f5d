"""Importing paths: one transaction per input file, a progress bar on terminals, a summary at the end.

Each file's kind is read from its content (:mod:`carddb.ingest.detect`): MTGJSON here, Scryfall
(:mod:`carddb.ingest.scryfall`), the Comprehensive Rules (:mod:`carddb.rules.importer`) and card or
rulings pages (:mod:`carddb.ingest.pages`) in their own modules, all returning a :class:`FileSummary`.

A failure inside a file rolls that file back whole, so the database holds exactly what it held
before that file; files before it stay imported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from carddb.db.models import Base
from carddb.errors import SourceError
from carddb.ingest.detect import Format, detect_format
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
    """What importing one file did. ``kind`` is its format (:data:`carddb.ingest.detect.Format`);
    ``report`` holds lines for people about where things went (a page's paragraphs, say)."""

    path: Path
    sets: tuple[str, ...]
    skipped_sets: tuple[str, ...]
    cards: int
    printings: int
    localizations: int
    rulings: int
    seconds: float
    warnings: tuple[str, ...] = ()
    kind: str = "mtgjson"
    rules: int = 0
    notes: int = 0
    report: tuple[str, ...] = ()


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

    @property
    def rules(self) -> int:
        return sum(f.rules for f in self.files)

    @property
    def notes(self) -> int:
        return sum(f.notes for f in self.files)

    @property
    def report(self) -> tuple[str, ...]:
        return tuple(line for f in self.files for line in f.report)

    def line(self) -> str:
        """One line for people: what was read, and how long it took."""
        parts = []
        if self.sets or self.printings:
            parts.append(
                f"{self.sets} set(s) with {self.printings} printings, {self.localizations} localized entries "
                f"and {self.rulings} ruling rows read, {self.cards} card records written"
            )
        elif self.localizations or self.rulings:
            parts.append(f"{self.localizations} translations, {self.rulings} rulings")
        if self.rules:
            parts.append(f"{self.rules} rules and glossary entries")
        if self.notes:
            parts.append(f"{self.notes} page paragraphs")
        return f"{len(self.files)} file(s) in {self.seconds:.2f} s: " + ("; ".join(parts) or "nothing new")


_KIND_ORDER: tuple[Format, ...] = ("mtgjson", "scryfall", "rules", "page")
"""The order kinds are imported in when several files are given."""

# Files at least this big are parsed in a second process while this one writes.
PARALLEL_MIN_BYTES = 8 * 1024 * 1024


def import_paths(
    engine: Engine,
    paths: Iterable[Path],
    progress: ProgressFactory | None = None,
    parallel: bool | None = None,
    card: str | None = None,
) -> ImportSummary:
    """Import every file under ``paths`` in order, each in its own transaction.

    ``parallel``: parse MTGJSON in a second process (None: for files of ``PARALLEL_MIN_BYTES`` or
    more). ``card``: the card a card page is about, for pages that do not name it.
    """
    files = [file for path in paths for file in expand_inputs(Path(path))]
    # Card data first, then what refers to cards (pages name cards; rulings mention rules), each
    # kind in the order given: a folder of pages and set files imports whatever its names' order.
    kinds = {file: detect_format(file) for file in files}
    files.sort(key=lambda file: _KIND_ORDER.index(kinds[file]))
    summaries: list[FileSummary] = []
    try:
        for file in files:
            summaries.append(
                import_any(
                    engine, file, progress(file) if progress else Progress(), parallel, card, kinds[file]
                )
            )
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


@contextmanager
def file_transaction(engine: Engine, path: Path) -> Iterator[Connection]:
    """One input file's transaction: committed when the block ends, rolled back whole on any
    error, so the database holds what it held before the file; an error from the database
    becomes a :class:`SourceError` naming the file."""
    try:
        with engine.begin() as connection:
            yield connection
    except DBAPIError as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        raise SourceError(path, f"database error, file rolled back: {reason.splitlines()[0]}") from exc
    except SQLAlchemyError as exc:
        raise SourceError(path, f"database error, file rolled back: {str(exc).splitlines()[0]}") from exc


def import_any(
    engine: Engine,
    path: Path,
    progress: Progress | None = None,
    parallel: bool | None = None,
    card: str | None = None,
    kind: Format | None = None,
) -> FileSummary:
    """Import one file of any supported kind (``kind``: already detected), in one transaction."""
    kind = kind or detect_format(path)
    progress = progress or Progress()
    if kind == "mtgjson":
        return import_file(engine, path, progress, parallel)
    if kind == "scryfall":
        from carddb.ingest.scryfall import import_scryfall

        return import_scryfall(engine, path, progress)
    if kind == "rules":
        from carddb.rules.importer import import_rules

        return import_rules(engine, path, progress)
    from carddb.ingest.pages import import_page

    return import_page(engine, path, progress, card=card)


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
        with file_transaction(engine, path) as connection:
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
