"""The writer of part of a set (Scryfall): adds printings, translations and rulings, never removes.

:class:`PartLoader` is a :class:`~carddb.ingest.loader.Loader` (the same statements, card writing,
name joins and id caches, in the same transaction) that writes the two batches a Scryfall file
gives:

* :meth:`PartLoader.write_printings` takes a :class:`PrintingsBatch`, part of a set (a Scryfall
  page or a run of a bulk file): it only adds. Sets and printings are created when missing and
  otherwise only filled in; a translation is linked unless the printing already carries one in
  that language with the same name (MTGJSON's, say); cards are replaced only by dated data at
  least as new as what is stored, since a Scryfall file has no date of its own (see
  :mod:`carddb.ingest.scryfall`).

:meth:`PartLoader.write_card_rulings` replaces, per card and source, the rulings a rulings file
gives.

A subclass rather than more of :class:`~carddb.ingest.loader.Loader`: only these batches keep
state across a file (the sets already made sure of, each card's next ruling position, the cards
whose rulings were already replaced), and a whole-set import needs none of it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, case, delete, func, select

from carddb.db.bulk import chunks
from carddb.db.lists import among
from carddb.ingest.loader import (
    ID_CACHE_LIMIT,
    LINK_COLUMNS,
    LOCALIZATION_COLUMNS,
    RULING_COLUMNS,
    Loader,
    cards_t,
    links_t,
    localization_row,
    localizations_t,
    printings_t,
    rulings_t,
    sets_t,
)
from carddb.ingest.records import (
    CardRecord,
    CardRulings,
    PrintingFacts,
    PrintingRecord,
    PrintingsBatch,
    RulingRecord,
    SetRecord,
)


@dataclass(frozen=True, slots=True)
class PrintingsResult:
    """What writing a :class:`PrintingsBatch` did. ``printing_ids`` are the rows the batch's
    printings are (new or not); ``localizations`` the translations (not English) newly linked;
    ``conflicts`` the printings skipped because the database files them under another card."""

    cards: int
    printing_ids: frozenset[int]
    localizations: int
    conflicts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulingsResult:
    """What writing rulings did: rows written, and entries whose card the database does not hold."""

    written: int
    unknown: int


def dated_not_older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """Scryfall: undated data replaces only undated data; dated data, anything not newer than it.
    So an undated Scryfall page never undoes a dated MTGJSON or Scryfall bulk file."""
    if stored is None:
        return True
    return incoming is not None and incoming >= stored


class PartLoader(Loader):
    """Writes part-of-set batches and rulings files through one connection inside the caller's
    transaction."""

    def __init__(self, connection: Connection) -> None:
        super().__init__(connection)
        # Sets a PrintingsBatch already made sure of, and per card the next ruling position and
        # the (card, source) pairs whose stored rulings this transaction already replaced.
        self._sets_seen: set[str] = set()
        self._ruling_positions: dict[int, int] = {}
        self._rulings_replaced: set[tuple[int, str]] = set()

    # -- part of a set (Scryfall) ---------------------------------------------------------------
    def write_printings(self, batch: PrintingsBatch) -> PrintingsResult:
        """Add printings that are part of a set (see the module docstring): nothing the batch does
        not hold is removed, and what is stored is filled in, not replaced, except cards, which
        dated data at least as new replaces (:func:`dated_not_older`)."""
        self._ensure_sets(batch.sets)
        written = self._write_cards(
            [p.card for p in batch.printings], batch.data_date, dated_not_older, lambda _key: True
        )
        merged = _merge_printings(batch.printings)
        stored = self._fill_printings(merged, batch.data_date)
        kept: dict[int, PrintingRecord] = {}
        conflicts: list[str] = []
        for key, printing in merged.items():
            printing_id, card_id = stored[key]
            if card_id != self._card_ids[printing.card.oracle_id]:
                conflicts.append(self._conflict(key, card_id, printing.card))
                continue
            kept[printing_id] = printing
        added = self._add_localizations(kept)
        self.touched.update(self._card_ids[p.card.oracle_id] for p in kept.values())
        return PrintingsResult(
            cards=len(written),
            printing_ids=frozenset(kept),
            localizations=added,
            conflicts=tuple(conflicts),
        )

    def _ensure_sets(self, sets: Sequence[SetRecord]) -> None:
        """Create the sets the database lacks; fill in a stored set's missing release date and
        type. A set's name and ``data_date`` stay: they are the whole-set source's."""
        fresh = {s.code: s for s in sets if s.code not in self._sets_seen}
        if not fresh:
            return
        rows = [
            {
                "code": s.code,
                "name": s.name,
                "release_date": s.release_date,
                "set_type": s.set_type,
                "data_date": None,
            }
            for s in fresh.values()
        ]
        stmt = self.writer.dialect.insert(sets_t)
        self.conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["code"],
                set_={
                    "release_date": func.coalesce(sets_t.c.release_date, stmt.excluded.release_date),
                    "set_type": func.coalesce(sets_t.c.set_type, stmt.excluded.set_type),
                },
            ),
            rows,
        )
        self._sets_seen.update(fresh)

    def _fill_printings(
        self, printings: dict[tuple[str, str], PrintingRecord], data_date: dt.date | None
    ) -> dict[tuple[str, str], tuple[int, int]]:
        """Create the printings the database lacks and fill in the empty columns of stored ones
        (a printing first seen in Italian gets its English Scryfall id later); return each
        printing's id and the card it is stored under."""
        rows = [
            self._printing_row(set_code, number, p, data_date) for (set_code, number), p in printings.items()
        ]
        if rows:
            stmt = self.writer.dialect.insert(printings_t)
            self.conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["set_code", "collector_number"],
                    set_={
                        "rarity": func.coalesce(printings_t.c.rarity, stmt.excluded.rarity),
                        "scryfall_id": func.coalesce(printings_t.c.scryfall_id, stmt.excluded.scryfall_id),
                        "multiverse_id": func.coalesce(
                            printings_t.c.multiverse_id, stmt.excluded.multiverse_id
                        ),
                        "identifiers": case(
                            (printings_t.c.scryfall_id.is_(None), stmt.excluded.identifiers),
                            else_=printings_t.c.identifiers,
                        ),
                        **{
                            fact: func.coalesce(printings_t.c[fact], stmt.excluded[fact])
                            for fact in PrintingFacts._fields
                        },
                    },
                ),
                rows,
            )
        numbers_by_set: dict[str, list[str]] = {}
        for set_code, number in printings:
            numbers_by_set.setdefault(set_code, []).append(number)
        found: dict[tuple[str, str], tuple[int, int]] = {}
        for set_code, numbers in numbers_by_set.items():
            for chunk in chunks(numbers):
                for printing_id, number, card_id in self.conn.execute(
                    select(printings_t.c.id, printings_t.c.collector_number, printings_t.c.card_id).where(
                        printings_t.c.set_code == set_code, among(printings_t.c.collector_number, chunk)
                    )
                ):
                    found[(set_code, number)] = (printing_id, card_id)
        return found

    def _conflict(self, key: tuple[str, str], stored_card_id: int, card: CardRecord) -> str:
        stored_name = self.conn.execute(select(cards_t.c.name).where(cards_t.c.id == stored_card_id)).scalar()
        return (
            f"printing {key[0]} {key[1]} is stored as {stored_name!r}, not {card.name!r} "
            f"(oracle id {card.oracle_id}); its translations were not added"
        )

    def _add_localizations(self, printings: dict[int, PrintingRecord]) -> int:
        """Link each printing to the translations it carries, unless it already carries one in that
        language with the same name (from MTGJSON, or an earlier import); return how many
        translations that are not English were linked."""
        known = self._localization_ids
        if len(known) > ID_CACHE_LIMIT:
            known.clear()  # bounded memory, whatever the input size
        carried: set[tuple[int, int, str, str]] = set()
        for chunk in chunks(sorted(printings)):
            for row in self.conn.execute(
                select(
                    links_t.c.printing_id,
                    localizations_t.c.face_id,
                    localizations_t.c.language,
                    localizations_t.c.name_norm,
                )
                .join(localizations_t, localizations_t.c.id == links_t.c.localization_id)
                .where(among(links_t.c.printing_id, chunk))
            ):
                carried.add((row[0], row[1], row[2], row[3]))
        new_rows: dict[tuple[int, str], tuple[Any, ...]] = {}
        links: dict[tuple[int, tuple[int, str]], int | None] = {}
        added = 0
        for printing_id, printing in printings.items():
            card_id = self._card_ids[printing.card.oracle_id]
            for loc in printing.localizations:
                face_id = self._face_ids.get((card_id, loc.side))
                if face_id is None:
                    continue
                same = (printing_id, face_id, loc.language, loc.name_norm)
                if same in carried:
                    continue
                carried.add(same)
                key = (face_id, loc.digest)
                if key not in known and key not in new_rows:
                    new_rows[key] = localization_row(face_id, loc, "scryfall")
                links.setdefault((printing_id, key), loc.multiverse_id)
                added += loc.language != "en"
        self._insert_new(
            localizations_t, LOCALIZATION_COLUMNS, list(new_rows.values()), ["face_id", "digest"]
        )
        self._remember_localizations(sorted({face_id for face_id, _digest in new_rows}))
        link_rows = [
            (printing_id, known[key], multiverse_id) for (printing_id, key), multiverse_id in links.items()
        ]
        self._insert_new(links_t, LINK_COLUMNS, link_rows, ["printing_id", "localization_id"])
        return added

    # -- rulings apart from cards (Scryfall) -----------------------------------------------------
    def write_card_rulings(self, entries: Sequence[CardRulings]) -> RulingsResult:
        """Store rulings given per oracle id. The first time this transaction meets a card and a
        source, the card's stored rulings of that source (and language) are replaced; a stored
        ruling with the same date and text under another source (MTGJSON calls every ruling
        "wotc") is removed, so each ruling is kept once, with the source the file gives. Entries
        for cards the database does not hold are counted, not stored."""
        by_key: dict[str, list[RulingRecord]] = {}
        for entry in entries:
            by_key.setdefault(entry.oracle_id, []).extend(entry.rulings)
        ids = {key: self._card_ids[key] for key in by_key if key in self._card_ids}
        for chunk in chunks([key for key in by_key if key not in ids]):
            for card_id, oracle_id in self.conn.execute(
                select(cards_t.c.id, cards_t.c.oracle_id).where(among(cards_t.c.oracle_id, chunk))
            ):
                ids[oracle_id] = card_id
        unknown = sum(len(rulings) for key, rulings in by_key.items() if key not in ids)
        incoming = [(ids[key], ruling) for key, rulings in by_key.items() if key in ids for ruling in rulings]
        if not incoming:
            return RulingsResult(written=0, unknown=unknown)
        first: dict[tuple[str, str], set[int]] = {}
        for card_id, ruling in incoming:
            pair = (card_id, ruling.source)
            if pair not in self._rulings_replaced:
                first.setdefault((ruling.language, ruling.source), set()).add(card_id)
        for (language, source), replaced in first.items():
            self._rulings_replaced.update((card_id, source) for card_id in replaced)
            for replaced_chunk in chunks(sorted(replaced)):
                self.conn.execute(
                    delete(rulings_t).where(
                        among(rulings_t.c.card_id, replaced_chunk),
                        rulings_t.c.language == language,
                        rulings_t.c.source == source,
                    )
                )
        wanted = {(card_id, r.language, r.published, r.text): r.source for card_id, r in incoming}
        card_ids = sorted({card_id for card_id, _ruling in incoming})
        copies: list[int] = []
        for id_chunk in chunks(card_ids):
            for row in self.conn.execute(
                select(
                    rulings_t.c.id,
                    rulings_t.c.card_id,
                    rulings_t.c.language,
                    rulings_t.c.published,
                    rulings_t.c.text,
                    rulings_t.c.source,
                ).where(among(rulings_t.c.card_id, id_chunk))
            ):
                wanted_source = wanted.get((row[1], row[2], row[3], row[4]))
                if wanted_source is not None and wanted_source != row[5]:
                    copies.append(row[0])
        for copy_chunk in chunks(copies):
            self.conn.execute(delete(rulings_t).where(among(rulings_t.c.id, copy_chunk)))
        rows: list[tuple[Any, ...]] = []
        for card_id, ruling in incoming:
            position = self._ruling_positions.get(card_id, 0)
            self._ruling_positions[card_id] = position + 1
            rows.append(self._ruling_row(card_id, ruling, position))
        self._supersede_page_rulings(rows)
        self._insert_new(rulings_t, RULING_COLUMNS, rows, ["card_id", "digest"])
        self.touched.update(card_ids)
        return RulingsResult(written=len(rows), unknown=unknown)


def _merge_printings(printings: Iterable[PrintingRecord]) -> dict[tuple[str, str], PrintingRecord]:
    """One record per (set, collector number): Scryfall gives a printing once per language. The
    identifiers come from the record that has a Scryfall id (the English one), the translations
    from all of them."""
    merged: dict[tuple[str, str], PrintingRecord] = {}
    for printing in printings:
        key = (printing.set_code, printing.collector_number)
        before = merged.get(key)
        if before is None:
            merged[key] = printing
            continue
        ids_from = before if before.scryfall_id is not None or printing.scryfall_id is None else printing
        merged[key] = before._replace(
            rarity=before.rarity or printing.rarity,
            scryfall_id=ids_from.scryfall_id,
            multiverse_id=ids_from.multiverse_id,
            identifiers=ids_from.identifiers,
            localizations=before.localizations + printing.localizations,
            facts=ids_from.facts,
        )
    return merged
