"""The one writer: turns records (:mod:`carddb.ingest.records`) into rows, in bulk.

Every statement is an ``executemany`` of an ``INSERT … ON CONFLICT`` keyed on a natural key, so
importing the same data twice leaves the same rows, and a newer file updates what changed:

* a set, card or printing is only overwritten by data at least as new as what is stored
  (``data_date``, MTGJSON's ``meta.date``), so importing an old file never undoes a newer one;
* a card seen again later in the same file (a reprint) is written once;
* each distinct translation is stored once (keyed by a content digest) and linked to printings;
* a card keyed by its name (MTGJSON without ``scryfallOracleId``) joins a stored card of that
  English name instead of becoming a second card of the same name.

Two kinds of batch, because sources give two kinds of wholeness:

* :meth:`Loader.write` takes a :class:`SetBatch`, a whole set (MTGJSON): printings that vanished
  from a newer version of the set are removed (only printings MTGJSON made: those with an MTGJSON
  uuid; a printing only Scryfall knows stays), its printings' translation links are replaced, and
  translations no printing carries any more are pruned at the end of the file;
* :meth:`Loader.write_printings` takes a :class:`PrintingsBatch`, part of a set (a Scryfall page or
  a run of a bulk file): it only adds. Sets and printings are created when missing and otherwise
  only filled in; a translation is linked unless the printing already carries one in that language
  with the same name (MTGJSON's, say); cards are replaced only by dated data at least as new as
  what is stored, since a Scryfall file has no date of its own (see :mod:`carddb.ingest.scryfall`).

:meth:`Loader.write_card_rulings` replaces, per card and source, the rulings a rulings file gives.

The caller owns the transaction (one per input file, see :mod:`carddb.ingest.importer`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import Connection, Table, case, delete, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Compiled

from carddb.characteristics import card_mana_value, stat_value, type_bits
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.ingest.records import (
    CardRecord,
    CardRulings,
    LocalizedFace,
    PrintingRecord,
    PrintingsBatch,
    RulingRecord,
    SetBatch,
    SetRecord,
    normalize_name,
)
from carddb.text import normalize

T = TypeVar("T")
_LOCALIZATION_COLUMNS = (
    *("face_id", "language", "name", "name_norm", "type_line", "text", "flavor", "digest", "origin"),
)
_LINK_COLUMNS = ("printing_id", "localization_id", "multiverse_id")
_RULING_COLUMNS = ("card_id", "language", "source", "published", "text", "position", "digest")
_CHUNK = 500
_ID_CACHE_LIMIT = 400_000

sets_t: Table = CardSet.__table__  # type: ignore[assignment]
cards_t: Table = Card.__table__  # type: ignore[assignment]
faces_t: Table = Face.__table__  # type: ignore[assignment]
printings_t: Table = Printing.__table__  # type: ignore[assignment]
localizations_t: Table = Localization.__table__  # type: ignore[assignment]
links_t: Table = PrintingLocalization.__table__  # type: ignore[assignment]
rulings_t: Table = Ruling.__table__  # type: ignore[assignment]


def _chunks(items: Sequence[T], size: int = _CHUNK) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What writing one set did."""

    set_code: str
    written: bool
    cards: int = 0
    printings: int = 0
    localizations: int = 0
    rulings: int = 0


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


@dataclass(frozen=True, slots=True)
class NameJoin:
    """A card key the database did not know, joined to the stored card of the same English name."""

    key: str
    name: str
    stored_oracle_id: str


# When data dated ``incoming`` may replace a stored card dated ``stored``.
Replaces = Callable[[dt.date | None, dt.date | None], bool]


def not_older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """MTGJSON: anything but data known to be older (an undated file replaces everything)."""
    return not _older(incoming, stored)


def dated_not_older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """Scryfall: undated data replaces only undated data; dated data, anything not newer than it.
    So an undated Scryfall page never undoes a dated MTGJSON or Scryfall bulk file."""
    if stored is None:
        return True
    return incoming is not None and incoming >= stored


def keyed_by_name(key: str) -> bool:
    """MTGJSON keys a card without ``scryfallOracleId`` as ``name:<name>``."""
    return key.startswith("name:")


class Loader:
    """Writes set batches through one connection inside the caller's transaction."""

    def __init__(self, connection: Connection) -> None:
        self.conn = connection
        self._dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        # Cards already written in this transaction: a reprint later in the file reuses them.
        self._card_ids: dict[str, int] = {}
        self._face_ids: dict[tuple[int, str], int] = {}
        # Translation ids by (face id, content digest), so reprints skip the insert and the lookup.
        self._localization_ids: dict[tuple[int, str], int] = {}
        self._staged: set[str] = set()
        self._compiled: dict[tuple[str, tuple[str, ...], tuple[str, ...] | None], Compiled] = {}
        # Cards whose printings, translations or rulings this transaction changed: their search
        # documents are rebuilt before it commits (carddb.search.index).
        self.touched: set[int] = set()
        # Card keys joined to a stored card by name, for the caller's warnings.
        self.name_joins: list[NameJoin] = []
        # Sets a PrintingsBatch already made sure of, and per card the next ruling position and
        # the (card, source) pairs whose stored rulings this transaction already replaced.
        self._sets_seen: set[str] = set()
        self._ruling_positions: dict[int, int] = {}
        self._rulings_replaced: set[tuple[int, str]] = set()

    # -- statements ---------------------------------------------------------------------------
    def _upsert(self, table: Table, rows: list[dict[str, Any]], keys: Sequence[str]) -> None:
        if not rows:
            return
        stmt = self._dialect.insert(table)
        update = {
            c.name: stmt.excluded[c.name] for c in table.columns if c.name not in keys and not c.primary_key
        }
        self.conn.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=update), rows)

    def _insert_new(
        self, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], keys: Sequence[str] | None
    ) -> None:
        """Insert ``rows`` (tuples in ``columns`` order), skipping those whose ``keys`` exist already
        (``None``: a plain insert).

        This is the import's hot path (translations, links, rulings), so it bypasses SQLAlchemy's
        per-row parameter processing: on SQLite, the DBAPI's ``executemany`` of the statement
        compiled once; on PostgreSQL, ``COPY`` (into a staging table when duplicates must be
        skipped). Values must already be in the driver's form (see :meth:`_date`).
        """
        if not rows:
            return
        if self._dialect is postgresql:
            self._copy_new(table, columns, rows, keys)
            return
        cache_key = (table.name, columns, tuple(keys) if keys else None)
        compiled = self._compiled.get(cache_key)
        if compiled is None:
            stmt = self._dialect.insert(table)
            if keys:
                stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
            compiled = stmt.compile(dialect=self.conn.dialect, column_keys=list(columns))
            if not compiled.positional or tuple(compiled.positiontup or ()) != columns:
                raise RuntimeError(f"unexpected parameter order for {table.name}: {compiled.positiontup}")
            self._compiled[cache_key] = compiled
        self.conn.exec_driver_sql(compiled.string, rows)

    def _copy_new(
        self, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], keys: Sequence[str] | None
    ) -> None:
        """PostgreSQL: ``COPY`` the rows in, through a temporary staging table when ``keys`` are given."""
        quote = self.conn.dialect.identifier_preparer.quote
        target = self.conn.dialect.identifier_preparer.format_table(table)
        column_list = ", ".join(quote(c) for c in columns)
        cursor = self.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            if keys is None:
                destination = target
            else:
                destination = quote(f"carddb_stage_{table.name}")
                if destination not in self._staged:
                    cursor.execute(
                        f"CREATE TEMPORARY TABLE {destination} ON COMMIT DROP AS "
                        f"SELECT {column_list} FROM {target} WITH NO DATA"
                    )
                    self._staged.add(destination)
            with cursor.copy(f"COPY {destination} ({column_list}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            if keys is not None:
                conflict = ", ".join(quote(k) for k in keys)
                cursor.execute(
                    f"INSERT INTO {target} ({column_list}) SELECT {column_list} FROM {destination} "
                    f"ON CONFLICT ({conflict}) DO NOTHING"
                )
                cursor.execute(f"TRUNCATE {destination}")
        finally:
            cursor.close()

    def _printing_row(
        self, set_code: str, number: str, printing: PrintingRecord, data_date: dt.date | None
    ) -> dict[str, Any]:
        """The ``printings`` row of ``printing`` as set ``set_code`` number ``number``."""
        return {
            "set_code": set_code,
            "collector_number": number,
            "card_id": self._card_ids[printing.card.oracle_id],
            "rarity": printing.rarity,
            "scryfall_id": printing.scryfall_id,
            "multiverse_id": printing.multiverse_id,
            "mtgjson_uuid": printing.mtgjson_uuid,
            "identifiers": {side: dict(ids) for side, ids in printing.identifiers.items()},
            "data_date": data_date,
        }

    def _supersede_page_rulings(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Remove the undated rulings a card page gave (source ``page``) that ``rows`` (in
        :data:`_RULING_COLUMNS` order) now bring from a dated source: same card, same language,
        the same text once folded."""
        incoming = {(row[0], row[1], normalize(row[4])) for row in rows}
        card_ids = sorted({row[0] for row in rows})
        stale: list[int] = []
        for chunk in _chunks(card_ids):
            for ruling_id, card_id, language, text in self.conn.execute(
                select(rulings_t.c.id, rulings_t.c.card_id, rulings_t.c.language, rulings_t.c.text).where(
                    rulings_t.c.card_id.in_(chunk), rulings_t.c.source == "page"
                )
            ):
                if (card_id, language, normalize(text)) in incoming:
                    stale.append(ruling_id)
        for chunk in _chunks(stale):
            self.conn.execute(delete(rulings_t).where(rulings_t.c.id.in_(chunk)))

    def _ruling_row(self, card_id: int, ruling: RulingRecord, position: int) -> tuple[Any, ...]:
        """A ``rulings`` row in :data:`_RULING_COLUMNS` order."""
        published = self._date(ruling.published)
        return (card_id, ruling.language, ruling.source, published, ruling.text, position, ruling.digest)

    def _date(self, value: dt.date | None) -> Any:
        """A date as the driver takes it: SQLAlchemy stores SQLite dates as ISO text."""
        if value is None or self._dialect is postgresql:
            return value
        return value.isoformat()

    # -- one set ----------------------------------------------------------------------------
    def write(self, batch: SetBatch) -> BatchResult:
        code = batch.set.code
        stored_date = self.conn.execute(select(sets_t.c.data_date).where(sets_t.c.code == code)).scalar()
        if _older(batch.data_date, stored_date):
            return BatchResult(set_code=code, written=False)
        self._upsert(
            sets_t,
            [
                {
                    "code": code,
                    "name": batch.set.name,
                    "release_date": batch.set.release_date,
                    "set_type": batch.set.set_type,
                    "data_date": batch.data_date,
                }
            ],
            ["code"],
        )
        cards_written = self._write_cards([p.card for p in batch.printings], batch.data_date)
        rulings = self._write_rulings(cards_written, batch.printings)
        printing_ids = self._write_printings(code, batch.printings, batch.data_date)
        localizations = self._write_localizations(batch.printings, printing_ids)
        self.touched.update(self._card_ids[p.card.oracle_id] for p in batch.printings)
        return BatchResult(
            set_code=code,
            written=True,
            cards=len(cards_written),
            printings=len(printing_ids),
            localizations=localizations,
            rulings=rulings,
        )

    def _write_cards(
        self,
        cards: Iterable[CardRecord],
        data_date: dt.date | None,
        replaces: Replaces = not_older,
        join_by_name: Callable[[str], bool] = keyed_by_name,
    ) -> dict[int, CardRecord]:
        """Upsert cards not yet seen in this transaction; return those written, by id.

        A stored card is replaced when ``replaces(data_date, its date)``. A key the database does
        not know that ``join_by_name`` allows joins the one stored card of the same English name
        (recorded in :attr:`name_joins`), rather than making a second card of that name.
        """
        fresh: dict[str, CardRecord] = {}
        for card in cards:
            if card.oracle_id not in self._card_ids:
                fresh.setdefault(card.oracle_id, card)
        if not fresh:
            return {}
        oracle_ids = list(fresh)
        stored: dict[str, dt.date | None] = {}
        for chunk in _chunks(oracle_ids):
            for oracle_id, date in self.conn.execute(
                select(cards_t.c.oracle_id, cards_t.c.data_date).where(cards_t.c.oracle_id.in_(chunk))
            ):
                stored[oracle_id] = date
        # The stored oracle id each incoming key is written under: itself, or a card joined by name.
        keys = {o: o for o in oracle_ids}
        for key, (stored_key, date) in self._join_by_name(
            [o for o in oracle_ids if o not in stored and join_by_name(o)], fresh
        ).items():
            keys[key] = stored_key
            stored[key] = date
        to_write = [o for o in oracle_ids if o not in stored or replaces(data_date, stored[o])]
        self._upsert(
            cards_t,
            [
                {
                    "oracle_id": keys[o],
                    "name": fresh[o].name,
                    "name_norm": normalize_name(fresh[o].name),
                    "layout": fresh[o].layout,
                    "mana_value": card_mana_value(fresh[o].layout, (f.mana_value for f in fresh[o].faces)),
                    "type_bits": type_bits(f.type_line for f in fresh[o].faces),
                    "data_date": data_date,
                }
                for o in to_write
            ],
            ["oracle_id"],
        )
        incoming_by_stored: dict[str, list[str]] = {}
        for key, stored_key in keys.items():
            incoming_by_stored.setdefault(stored_key, []).append(key)
        for chunk in _chunks(list(incoming_by_stored)):
            for card_id, oracle_id in self.conn.execute(
                select(cards_t.c.id, cards_t.c.oracle_id).where(cards_t.c.oracle_id.in_(chunk))
            ):
                for key in incoming_by_stored[oracle_id]:
                    self._card_ids[key] = card_id
        written = {self._card_ids[o]: fresh[o] for o in to_write}
        self._upsert(
            faces_t,
            [
                {
                    "card_id": card_id,
                    "side": face.side,
                    "position": position,
                    "name": face.name,
                    "name_norm": normalize_name(face.name),
                    "mana_cost": face.mana_cost,
                    "mana_value": face.mana_value,
                    "colors": face.colors,
                    "color_identity": face.color_identity,
                    "type_line": face.type_line,
                    "oracle_text": face.oracle_text,
                    "power": face.power,
                    "toughness": face.toughness,
                    "loyalty": face.loyalty,
                    "defense": face.defense,
                    "power_value": stat_value(face.power),
                    "toughness_value": stat_value(face.toughness),
                    "loyalty_value": stat_value(face.loyalty),
                    "keywords": list(face.keywords),
                }
                for card_id, card in written.items()
                for position, face in enumerate(card.faces)
            ],
            ["card_id", "side"],
        )
        card_ids = [self._card_ids[o] for o in oracle_ids]
        for id_chunk in _chunks(card_ids):
            for face_id, card_id, side in self.conn.execute(
                select(faces_t.c.id, faces_t.c.card_id, faces_t.c.side).where(faces_t.c.card_id.in_(id_chunk))
            ):
                self._face_ids[(card_id, side)] = face_id
        return written

    def _join_by_name(
        self, keys: Sequence[str], cards: dict[str, CardRecord]
    ) -> dict[str, tuple[str, dt.date | None]]:
        """For each of ``keys`` (not stored), the oracle id and date of the one stored card with the
        same English name, where there is exactly one and it is not itself in this batch."""
        if not keys:
            return {}
        by_norm: dict[str, list[str]] = {}
        for key in keys:
            by_norm.setdefault(normalize_name(cards[key].name), []).append(key)
        found: dict[str, list[tuple[str, dt.date | None, str]]] = {}
        for chunk in _chunks(list(by_norm)):
            for oracle_id, date, name, norm in self.conn.execute(
                select(cards_t.c.oracle_id, cards_t.c.data_date, cards_t.c.name, cards_t.c.name_norm).where(
                    cards_t.c.name_norm.in_(chunk)
                )
            ):
                found.setdefault(norm, []).append((oracle_id, date, name))
        joined: dict[str, tuple[str, dt.date | None]] = {}
        for norm, candidates in found.items():
            if len(candidates) != 1 or len(by_norm[norm]) != 1 or candidates[0][0] in cards:
                continue
            key = by_norm[norm][0]
            oracle_id, date, name = candidates[0]
            joined[key] = (oracle_id, date)
            self.name_joins.append(NameJoin(key, name, oracle_id))
        return joined

    def _write_rulings(self, written: dict[int, CardRecord], printings: Sequence[PrintingRecord]) -> int:
        """Replace the rulings of each card written, per (language, source) the batch carries."""
        if not written:
            return 0
        by_card: dict[int, Sequence[RulingRecord]] = {}
        for printing in printings:
            card_id = self._card_ids[printing.card.oracle_id]
            if card_id in written and card_id not in by_card:
                by_card[card_id] = printing.rulings
        replaced = {(r.language, r.source) for rulings in by_card.values() for r in rulings}
        for language, source in replaced or {("en", "wotc")}:
            for chunk in _chunks(list(by_card)):
                self.conn.execute(
                    delete(rulings_t).where(
                        rulings_t.c.card_id.in_(chunk),
                        rulings_t.c.language == language,
                        rulings_t.c.source == source,
                    )
                )
        # What is left is other sources': MTGJSON gives no source and calls every ruling "wotc",
        # while Scryfall's rulings file says which are Scryfall's own; keep that, not a copy.
        elsewhere = self._stored_rulings(list(by_card))
        rows: list[tuple[Any, ...]] = []
        for card_id, rulings in by_card.items():
            seen: set[str] = set()
            for ruling in rulings:
                digest = ruling.digest
                if digest in seen or (card_id, ruling.language, ruling.published, ruling.text) in elsewhere:
                    continue
                seen.add(digest)
                rows.append(self._ruling_row(card_id, ruling, len(seen) - 1))
        self._supersede_page_rulings(rows)
        self._insert_new(rulings_t, _RULING_COLUMNS, rows, ["card_id", "digest"])
        return len(rows)

    def _stored_rulings(self, card_ids: Sequence[int]) -> set[tuple[int, str, dt.date | None, str]]:
        """(card, language, date, text) of the stored rulings of ``card_ids``."""
        found: set[tuple[int, str, dt.date | None, str]] = set()
        for chunk in _chunks(card_ids):
            for card_id, language, published, text in self.conn.execute(
                select(
                    rulings_t.c.card_id, rulings_t.c.language, rulings_t.c.published, rulings_t.c.text
                ).where(rulings_t.c.card_id.in_(chunk))
            ):
                found.add((card_id, language, published, text))
        return found

    def _write_printings(
        self, set_code: str, printings: Sequence[PrintingRecord], data_date: dt.date | None
    ) -> dict[str, int]:
        """Upsert the set's printings, drop those the set no longer has; return ids by number.

        Only printings an MTGJSON file made (with an MTGJSON uuid) can vanish from a newer set
        file; a printing only Scryfall has (no uuid) is not this set file's to remove."""
        rows = [self._printing_row(set_code, p.collector_number, p, data_date) for p in printings]
        self._upsert(printings_t, rows, ["set_code", "collector_number"])
        numbers = {p.collector_number for p in printings}
        ids: dict[str, int] = {}
        stale: list[int] = []
        for printing_id, number, card_id, uuid in self.conn.execute(
            select(
                printings_t.c.id,
                printings_t.c.collector_number,
                printings_t.c.card_id,
                printings_t.c.mtgjson_uuid,
            ).where(printings_t.c.set_code == set_code)
        ):
            if number in numbers:
                ids[number] = printing_id
            elif uuid is not None:
                stale.append(printing_id)
                self.touched.add(card_id)
        for chunk in _chunks(stale):
            self.conn.execute(delete(links_t).where(links_t.c.printing_id.in_(chunk)))
            self.conn.execute(delete(printings_t).where(printings_t.c.id.in_(chunk)))
        return ids

    def _write_localizations(self, printings: Sequence[PrintingRecord], printing_ids: dict[str, int]) -> int:
        """Store each distinct translation once and link every printing to the ones it carries."""
        known = self._localization_ids
        if len(known) > _ID_CACHE_LIMIT:
            known.clear()  # bounded memory, whatever the input size
        new_rows: dict[tuple[int, str], tuple[Any, ...]] = {}
        links: dict[tuple[int, tuple[int, str]], int | None] = {}
        for printing in printings:
            printing_id = printing_ids[printing.collector_number]
            card_id = self._card_ids[printing.card.oracle_id]
            for loc in printing.localizations:
                face_id = self._face_ids.get((card_id, loc.side))
                if face_id is None:
                    continue
                key = (face_id, loc.digest)
                if key not in known and key not in new_rows:
                    new_rows[key] = _localization_row(face_id, loc)
                links.setdefault((printing_id, key), loc.multiverse_id)
        self._insert_new(
            localizations_t, _LOCALIZATION_COLUMNS, list(new_rows.values()), ["face_id", "digest"]
        )
        self._remember_localizations(sorted({face_id for face_id, _digest in new_rows}))
        given: dict[int, set[str]] = {}
        for printing in printings:
            given.setdefault(printing_ids[printing.collector_number], set()).update(
                loc.language for loc in printing.localizations
            )
        kept = self._replace_links(sorted(given), given)
        link_rows = [
            (printing_id, known[key], multiverse_id) for (printing_id, key), multiverse_id in links.items()
        ]
        self._insert_new(links_t, _LINK_COLUMNS, link_rows + kept, None)
        return sum(1 for row in new_rows.values() if row[1] != "en")

    def _replace_links(
        self, printing_ids: Sequence[int], given: dict[int, set[str]]
    ) -> list[tuple[Any, ...]]:
        """Remove the translation links of ``printing_ids`` before a set file links them again,
        and return those to link back: translations only a Scryfall file gave, in a language the
        set file does not give for that printing (``given``), so no source undoes another."""
        kept: list[tuple[Any, ...]] = []
        for chunk in _chunks(printing_ids):
            for printing_id, localization_id, multiverse_id, language in self.conn.execute(
                select(
                    links_t.c.printing_id,
                    links_t.c.localization_id,
                    links_t.c.multiverse_id,
                    localizations_t.c.language,
                )
                .join(localizations_t, localizations_t.c.id == links_t.c.localization_id)
                .where(links_t.c.printing_id.in_(chunk), localizations_t.c.origin == "scryfall")
            ):
                if language not in given.get(printing_id, set()):
                    kept.append((printing_id, localization_id, multiverse_id))
            self.conn.execute(delete(links_t).where(links_t.c.printing_id.in_(chunk)))
        return kept

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
        stmt = self._dialect.insert(sets_t)
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
            stmt = self._dialect.insert(printings_t)
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
                    },
                ),
                rows,
            )
        numbers_by_set: dict[str, list[str]] = {}
        for set_code, number in printings:
            numbers_by_set.setdefault(set_code, []).append(number)
        found: dict[tuple[str, str], tuple[int, int]] = {}
        for set_code, numbers in numbers_by_set.items():
            for chunk in _chunks(numbers):
                for printing_id, number, card_id in self.conn.execute(
                    select(printings_t.c.id, printings_t.c.collector_number, printings_t.c.card_id).where(
                        printings_t.c.set_code == set_code, printings_t.c.collector_number.in_(chunk)
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
        if len(known) > _ID_CACHE_LIMIT:
            known.clear()  # bounded memory, whatever the input size
        carried: set[tuple[int, int, str, str]] = set()
        for chunk in _chunks(sorted(printings)):
            for row in self.conn.execute(
                select(
                    links_t.c.printing_id,
                    localizations_t.c.face_id,
                    localizations_t.c.language,
                    localizations_t.c.name_norm,
                )
                .join(localizations_t, localizations_t.c.id == links_t.c.localization_id)
                .where(links_t.c.printing_id.in_(chunk))
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
                    new_rows[key] = _localization_row(face_id, loc, "scryfall")
                links.setdefault((printing_id, key), loc.multiverse_id)
                added += loc.language != "en"
        self._insert_new(
            localizations_t, _LOCALIZATION_COLUMNS, list(new_rows.values()), ["face_id", "digest"]
        )
        self._remember_localizations(sorted({face_id for face_id, _digest in new_rows}))
        link_rows = [
            (printing_id, known[key], multiverse_id) for (printing_id, key), multiverse_id in links.items()
        ]
        self._insert_new(links_t, _LINK_COLUMNS, link_rows, ["printing_id", "localization_id"])
        return added

    def _remember_localizations(self, face_ids: Sequence[int]) -> None:
        """Cache the ids of every stored translation of ``face_ids``."""
        for face_chunk in _chunks(face_ids):
            for loc_id, face_id, digest in self.conn.execute(
                select(localizations_t.c.id, localizations_t.c.face_id, localizations_t.c.digest).where(
                    localizations_t.c.face_id.in_(face_chunk)
                )
            ).all():
                self._localization_ids[(face_id, digest)] = loc_id

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
        for chunk in _chunks([key for key in by_key if key not in ids]):
            for card_id, oracle_id in self.conn.execute(
                select(cards_t.c.id, cards_t.c.oracle_id).where(cards_t.c.oracle_id.in_(chunk))
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
            for replaced_chunk in _chunks(sorted(replaced)):
                self.conn.execute(
                    delete(rulings_t).where(
                        rulings_t.c.card_id.in_(replaced_chunk),
                        rulings_t.c.language == language,
                        rulings_t.c.source == source,
                    )
                )
        wanted = {(card_id, r.language, r.published, r.text): r.source for card_id, r in incoming}
        card_ids = sorted({card_id for card_id, _ruling in incoming})
        copies: list[int] = []
        for id_chunk in _chunks(card_ids):
            for row in self.conn.execute(
                select(
                    rulings_t.c.id,
                    rulings_t.c.card_id,
                    rulings_t.c.language,
                    rulings_t.c.published,
                    rulings_t.c.text,
                    rulings_t.c.source,
                ).where(rulings_t.c.card_id.in_(id_chunk))
            ):
                wanted_source = wanted.get((row[1], row[2], row[3], row[4]))
                if wanted_source is not None and wanted_source != row[5]:
                    copies.append(row[0])
        for copy_chunk in _chunks(copies):
            self.conn.execute(delete(rulings_t).where(rulings_t.c.id.in_(copy_chunk)))
        rows: list[tuple[Any, ...]] = []
        for card_id, ruling in incoming:
            position = self._ruling_positions.get(card_id, 0)
            self._ruling_positions[card_id] = position + 1
            rows.append(self._ruling_row(card_id, ruling, position))
        self._supersede_page_rulings(rows)
        self._insert_new(rulings_t, _RULING_COLUMNS, rows, ["card_id", "digest"])
        self.touched.update(card_ids)
        return RulingsResult(written=len(rows), unknown=unknown)

    def prune(self) -> None:
        """Remove translations that no printing carries any more (after links were replaced);
        translations read from card pages name no printing and stay."""
        carried = exists().where(links_t.c.localization_id == localizations_t.c.id)
        self.conn.execute(delete(localizations_t).where(~carried, localizations_t.c.origin != "page"))


def _older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """True when incoming data is known to be older than what is stored."""
    return incoming is not None and stored is not None and incoming < stored


def _localization_row(face_id: int, loc: LocalizedFace, origin: str = "printing") -> tuple[Any, ...]:
    """A translation carried by printings, as a row in :data:`_LOCALIZATION_COLUMNS` order
    (``origin``: ``"printing"`` from a whole set file, ``"scryfall"`` from a Scryfall file)."""
    return (
        *(face_id, loc.language, loc.name, loc.name_norm, loc.type_line, loc.text, loc.flavor, loc.digest),
        origin,
    )


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
        merged[key] = replace(
            before,
            rarity=before.rarity or printing.rarity,
            scryfall_id=ids_from.scryfall_id,
            multiverse_id=ids_from.multiverse_id,
            identifiers=ids_from.identifiers,
            localizations=before.localizations + printing.localizations,
        )
    return merged
