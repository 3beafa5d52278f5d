"""What every source importer shares: the run it is part of, progress, summaries, the file transaction.

Each source's importer (:mod:`carddb.ingest.mtgjson_import`, :mod:`carddb.ingest.scryfall_import`,
:mod:`carddb.ingest.pages`, :mod:`carddb.rules.importer`) takes an :class:`ImportRun` and the
files of its kind and yields a :class:`FileSummary` per file, each file written in one
:func:`file_transaction`. :mod:`carddb.ingest.importer` dispatches the files to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from carddb.db.engine import start_bulk_writes
from carddb.errors import SourceError
from carddb.ingest.worker import Worker
from carddb.search.index import RefreshResult, refresh_statistics

__all__ = [
    "FileSummary",
    "ImportRun",
    "ImportSummary",
    "Importer",
    "Progress",
    "each_file",
    "file_transaction",
    "names",
]


ANALYZE_MIN_ROWS = 20_000
"""Rows read from the files of an import before its first ANALYZE (PostgreSQL, see
:meth:`ImportRun.after_file`)."""


class Progress:
    """What an import reports its progress to; the default reports nothing.

    The calls come in this order: :meth:`start` with every file; per file :meth:`file`, then
    :meth:`advance` as its bytes are read and :meth:`wrote` as its rows are written; after the
    files, :meth:`phase` for each step of the index with :meth:`step` as it goes; :meth:`close`.
    """

    def start(self, files: Sequence[Path]) -> None:
        """The import will read ``files``, in this order."""

    def file(self, index: int, path: Path) -> None:
        """File number ``index`` (from 0) begins."""

    def advance(self, raw_bytes: int) -> None:
        """``raw_bytes`` more of the current file on disk were read."""

    def wrote(self, printings: int = 0, localizations: int = 0, rulings: int = 0) -> None:
        """This many more printings, translations and rulings were read and written."""

    def phase(self, name: str, total: int) -> None:
        """A step after the files begins (``"search index"``), of ``total`` units (cards)."""

    def step(self, amount: int) -> None:
        """``amount`` more units of the current phase are done."""

    def close(self) -> None:
        """The import is over."""


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What importing one file did. ``kind`` is its format (:data:`carddb.ingest.detect.Format`);
    ``report`` holds lines for people about where things went (a page's paragraphs, say);
    ``unchanged_sets`` are sets skipped because the database holds them from the very same text."""

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
    unchanged_sets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import did, file by file (the totals count entries read from the sources), and the
    rebuild of the search index after the files (``index``)."""

    files: tuple[FileSummary, ...] = field(default_factory=tuple)
    index: RefreshResult = field(default_factory=RefreshResult)

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
        return sum(f.seconds for f in self.files) + self.index.seconds

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(w for f in self.files for w in f.warnings)

    @property
    def skipped_sets(self) -> tuple[str, ...]:
        return tuple(s for f in self.files for s in f.skipped_sets)

    @property
    def unchanged_sets(self) -> tuple[str, ...]:
        return tuple(s for f in self.files for s in f.unchanged_sets)

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
        if self.unchanged_sets:
            parts.append(f"{len(self.unchanged_sets)} set(s) unchanged since they were imported")
        if self.rules:
            parts.append(f"{self.rules} rules and glossary entries")
        if self.notes:
            parts.append(f"{self.notes} page paragraphs")
        if self.index.cards:
            parts.append(f"search index of {self.index.cards} card(s) rebuilt")
        return f"{len(self.files)} file(s) in {self.seconds:.2f} s: " + ("; ".join(parts) or "nothing new")


@dataclass
class ImportRun:
    """One ``import`` call: where it writes, what it reports to, its options, and the worker
    process that reads sources and builds search documents beside the writer, started when first
    needed (:meth:`worker`) and stopped with the run."""

    engine: Engine
    url: str
    files: Sequence[Path] = ()
    progress: Progress = field(default_factory=Progress)
    parallel: bool | None = None
    card: str | None = None
    force: bool = False
    _worker: Worker | None = None
    _numbers: dict[Path, int] = field(default_factory=dict)
    _written: int = 0
    _analyzed: int = 0

    def after_file(self, summary: FileSummary) -> None:
        """A file is in. On PostgreSQL, analyse the tables whenever they have grown by as many rows
        again as they had when last analysed: the planner, left with the statistics of a nearly
        empty database, turns the lookups of each later file into scans, and a long import
        grows quadratic. Doubling keeps it to a few ANALYZEs per import."""
        if self.engine.dialect.name != "postgresql":
            return
        self._written += summary.printings + summary.localizations + summary.rulings
        if self._written >= max(ANALYZE_MIN_ROWS, self._analyzed):
            refresh_statistics(self.engine, merge=False)
            self._analyzed += self._written
            self._written = 0

    def number(self, path: Path) -> int:
        """Where ``path`` is among the run's files (from 0), for progress."""
        if not self._numbers:
            self._numbers = {file: number for number, file in enumerate(self.files)}
        return self._numbers.get(path, 0)

    def worker(self) -> Worker:
        if self._worker is None or not self._worker.alive:
            self._worker = Worker()
        return self._worker

    @property
    def has_worker(self) -> bool:
        return self._worker is not None and self._worker.alive

    def stop_worker(self, kill: bool = False) -> None:
        """Stop the worker (``kill``: at once, in the middle of a request)."""
        if self._worker is not None:
            self._worker.close(kill=kill)
            self._worker = None


Importer = Callable[[ImportRun, Sequence[Path]], Iterator[FileSummary]]
"""A source's importer: the files of its kind, in order, each in its own transaction."""


def each_file(one: Callable[[ImportRun, Path], FileSummary]) -> Importer:
    """An :data:`Importer` from a function importing one file."""

    def importer(run: ImportRun, files: Sequence[Path]) -> Iterator[FileSummary]:
        for path in files:
            yield one(run, path)

    return importer


@contextmanager
def file_transaction(engine: Engine, path: Path) -> Iterator[Connection]:
    """One input file's transaction: committed when the block ends, rolled back whole on any
    error, so the database holds what it held before the file; an error from the database
    becomes a :class:`SourceError` naming the file."""
    try:
        with engine.begin() as connection:
            start_bulk_writes(connection)
            yield connection
    except DBAPIError as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        raise SourceError(path, f"database error, file rolled back: {reason.splitlines()[0]}") from exc
    except SQLAlchemyError as exc:
        raise SourceError(path, f"database error, file rolled back: {str(exc).splitlines()[0]}") from exc


def names(paths: Iterable[Path]) -> str:
    """File names for a message: ``AFR.json, AFC.json`` (at most five, then how many more)."""
    shown = [path.name for path in paths]
    if len(shown) > 5:
        return ", ".join(shown[:5]) + f" and {len(shown) - 5} more"
    return ", ".join(shown)
