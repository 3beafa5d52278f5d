"""The Scryfall importer: bulk card files, API list pages and the rulings file, each in one transaction.

The reader is :mod:`carddb.ingest.scryfall`; the writer :class:`carddb.ingest.part_loader.PartLoader`,
which only adds. A Scryfall file changes what the cards of whole sets hold (their translations,
their rulings), so the source digests of the stored sets are cleared: importing a set file again
afterwards writes it again instead of skipping it as unchanged.
"""

from __future__ import annotations

import time
from pathlib import Path

from carddb.ingest.base import FileSummary, ImportRun, file_transaction
from carddb.ingest.part_loader import PartLoader
from carddb.ingest.records import PrintingsBatch
from carddb.ingest.scryfall import ScryfallReader, read_scryfall
from carddb.search import index

__all__ = ["import_scryfall"]


def import_scryfall(run: ImportRun, path: Path) -> FileSummary:
    """Import one Scryfall card or rulings file in one transaction (see the module docstring)."""
    started = time.perf_counter()
    run.progress.file(run.number(path), path)
    reader = read_scryfall(path, run.progress.advance)
    cards = localizations = rulings_written = unknown_rulings = 0
    printing_ids: set[int] = set()
    sets: set[str] = set()
    conflicts: list[str] = []
    with file_transaction(run.engine, path) as connection:
        loader = PartLoader(connection)
        for batch in reader:
            if isinstance(batch, PrintingsBatch):
                result = loader.write_printings(batch)
                cards += result.cards
                printing_ids.update(result.printing_ids)
                localizations += result.localizations
                conflicts.extend(result.conflicts)
                sets.update(s.code for s in batch.sets)
                run.progress.wrote(len(result.printing_ids), result.localizations)
            else:
                ruled = loader.write_card_rulings(batch)
                rulings_written += ruled.written
                unknown_rulings += ruled.unknown
                run.progress.wrote(rulings=ruled.written)
        if loader.touched:
            loader.forget_set_digests()
        index.mark_pending(connection, loader.touched)
    warnings = list(reader.warnings)
    warnings += [
        f"{path.name}: {join.name!r} has oracle id {join.key} here but {join.stored_oracle_id} in the "
        "database; joined the stored card of that name"
        for join in loader.name_joins
    ]
    warnings += [f"{path.name}: {conflict}" for conflict in conflicts]
    if reader.unnamed_translations:
        warnings.append(
            f"{path.name}: {reader.unnamed_translations} localized face(s) have no printed_name; "
            "their printings were stored without that translation"
        )
    if unknown_rulings:
        warnings.append(
            f"{path.name}: {unknown_rulings} ruling(s) are for oracle ids the database does not hold; "
            "not stored (import those cards first)"
        )
    if reader.kind is None:
        warnings.append(f"{path.name}: the file holds no Scryfall cards or rulings")
    return FileSummary(
        path=path,
        sets=tuple(sorted(sets)),
        skipped_sets=(),
        cards=cards,
        printings=len(printing_ids),
        localizations=reader.localized,
        rulings=reader.ruling_entries,
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        kind="scryfall",
        report=tuple(_report(path, reader, len(printing_ids), sets, localizations, rulings_written)),
    )


def _report(
    path: Path, reader: ScryfallReader, printings: int, sets: set[str], linked: int, rulings: int
) -> list[str]:
    """Lines for people: what the file held and where it went."""
    if reader.kind == "ruling":
        return [
            f"{path.name}: Scryfall rulings file: {reader.ruling_entries} ruling(s) read, {rulings} stored"
        ]
    dated = (
        f"dated {reader.data_date.isoformat()} by its bulk file name"
        if reader.data_date
        else "undated (cards already stored from dated data were kept)"
    )
    langs = ", ".join(f"{tag} {count}" for tag, count in reader.languages.most_common())
    lines = [
        f"{path.name}: Scryfall cards, {dated}: {reader.objects} object(s), {printings} printing(s) in "
        f"{len(sets)} set(s) ({langs or 'none'}); {linked} translation(s) linked"
    ]
    if reader.skipped:
        kinds = ", ".join(f"{count} {layout}" for layout, count in sorted(reader.skipped.items()))
        lines.append(f"{path.name}: not cards, left out: {kinds}")
    return lines
