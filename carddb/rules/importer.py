"""Storing the Comprehensive Rules: one edition at a time, replaced whole.

The rules are a document, not records to merge: a rule renumbered or removed in a newer edition
must not linger, so an import deletes the stored edition's rules and glossary and writes the new
ones, in one transaction (a failure or a kill leaves the old edition exactly as it was).

Editions are ordered by their effective date, read from the file:

* a newer edition replaces the stored one;
* the same edition is written again, so importing a file twice leaves the same rows (and a
  hand-corrected copy of the same edition can replace a damaged one);
* an older edition is skipped with a warning, and nothing is changed. Skipping rather than failing
  follows what the MTGJSON importer does with an older set file: ``carddb import folder/`` holding
  several editions keeps the newest, whatever the order of the files, and the other files of the
  import are not refused because of it.

The whole file is parsed before the transaction begins, so a file that turns out to be cut or
malformed never touches the database.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from sqlalchemy import Connection, delete, insert, select

from carddb.db.models import GlossaryEntry, Rule, RulesEdition
from carddb.ingest.base import FileSummary, ImportRun, file_transaction
from carddb.rules.parse import RulesDocument, read_rules
from carddb.text import normalize

__all__ = ["import_rules", "write_rules"]

EDITION_ID = 1
"""The one row of ``rules_editions``."""


def import_rules(run: ImportRun, path: Path) -> FileSummary:
    """Import a Comprehensive Rules text file (see the module docstring for which edition wins).

    Raises :class:`~carddb.rules.errors.RulesFormatError` (naming the file and line) for a file
    that is cut, malformed, has no edition date or is not the rules; nothing is written then.
    """
    started = time.perf_counter()
    run.progress.file(run.number(path), path)
    document = read_rules(path, on_progress=run.progress.advance)
    warnings = list(document.warnings)
    with file_transaction(run.engine, path) as connection:
        written, replaced = write_rules(connection, document)
    edition = document.effective.isoformat()
    if written:
        report = f"{path.name}: Comprehensive Rules effective {edition}: {len(document.rules)} rules, "
        report += f"{len(document.glossary)} glossary entries"
        if replaced is not None and replaced != document.effective:
            report += f" (replaced the edition effective {replaced.isoformat()})"
    else:
        assert replaced is not None
        report = f"{path.name}: skipped, older than the stored Comprehensive Rules"
        warnings.append(
            f"{path.name}: kept the stored Comprehensive Rules (effective {replaced.isoformat()}); "
            f"this file's edition (effective {edition}) is older"
        )
    return FileSummary(
        path=path,
        sets=(),
        skipped_sets=(),
        cards=0,
        printings=0,
        localizations=0,
        rulings=0,
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        kind="rules",
        rules=len(document.rules) + len(document.glossary) if written else 0,
        report=(report,),
    )


def write_rules(connection: Connection, document: RulesDocument) -> tuple[bool, dt.date | None]:
    """Replace the stored edition with ``document`` unless the stored one is newer, in the caller's
    transaction. Returns whether it was written and the effective date of the edition stored
    before (None if there was none)."""
    if connection.dialect.name == "postgresql":
        # Two imports at once: the second waits, then sees the first one's edition.
        connection.exec_driver_sql("LOCK TABLE rules_editions IN EXCLUSIVE MODE")
    stored = connection.execute(select(RulesEdition.effective)).scalars().first()
    if stored is not None and stored > document.effective:
        return False, stored
    connection.execute(delete(Rule))
    connection.execute(delete(GlossaryEntry))
    connection.execute(delete(RulesEdition))
    connection.execute(
        insert(Rule),
        [
            {
                "number": rule.number,
                "parent": rule.parent,
                "text": rule.text,
                "examples": list(rule.examples),
                "position": position,
            }
            for position, rule in enumerate(document.rules)
        ],
    )
    connection.execute(
        insert(GlossaryEntry),
        [
            {"term": entry.term, "term_norm": normalize(entry.term), "text": entry.text, "position": position}
            for position, entry in enumerate(document.glossary)
        ],
    )
    connection.execute(
        insert(RulesEdition),
        [
            {
                "id": EDITION_ID,
                "effective": document.effective,
                "source": document.path.name,
                "rules": len(document.rules),
                "glossary": len(document.glossary),
            }
        ],
    )
    return True, stored
