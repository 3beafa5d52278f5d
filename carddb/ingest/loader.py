"""The one writer: turns :class:`~carddb.ingest.records.SetBatch` values into rows, in bulk.

Every statement is an ``executemany`` of an ``INSERT … ON CONFLICT`` keyed on a natural key, so
importing the same data twice leaves the same rows, and a newer file updates what changed:

* a set, card or printing is only overwritten by data at least as new as what is stored
  (``data_date``, MTGJSON's ``meta.date``), so importing an old file never undoes a newer one;
* a card seen again later in the same file (a reprint) is written once;
* each distinct translation is stored once (keyed by a content digest) and linked to printings;
* a set is written whole: printings that vanished from a newer version of the set are removed,
  and translations no printing carries any more are pruned at the end of the file.

The caller owns the transaction (one per input file, see :mod:`carddb.ingest.importer`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Table, delete, exists, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Compiled

from carddb.characteristics import card_mana_value, stat_value, type_bits
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.ingest.records import (
    CardRecord,
    PrintingRecord,
    RulingRecord,
    SetBatch,
    normalize_name,
)

T = TypeVar("T")
_LOCALIZATION_COLUMNS = ("face_id", "language", "name", "name_norm", "type_line", "text", "flavor", "digest")
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

    def _write_cards(self, cards: Iterable[CardRecord], data_date: dt.date | None) -> dict[int, CardRecord]:
        """Upsert cards not yet seen in this transaction; return those written, by id."""
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
        to_write = [o for o in oracle_ids if o not in stored or not _older(data_date, stored[o])]
        self._upsert(
            cards_t,
            [
                {
                    "oracle_id": o,
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
        for chunk in _chunks(oracle_ids):
            for card_id, oracle_id in self.conn.execute(
                select(cards_t.c.id, cards_t.c.oracle_id).where(cards_t.c.oracle_id.in_(chunk))
            ):
                self._card_ids[oracle_id] = card_id
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

    def _write_rulings(self, written: dict[int, CardRecord], printings: Sequence[PrintingRecord]) -> int:
        """Replace the rulings of each card written, per (language, source) the batch carries."""
        if not written:
            return 0
        by_card: dict[int, Sequence[RulingRecord]] = {}
        for printing in printings:
            card_id = self._card_ids[printing.card.oracle_id]
            if card_id in written and card_id not in by_card:
                by_card[card_id] = printing.rulings
        rows: list[tuple[Any, ...]] = []
        replaced: set[tuple[str, str]] = set()
        for card_id, rulings in by_card.items():
            seen: set[str] = set()
            for ruling in rulings:
                digest = ruling.digest
                if digest in seen:
                    continue
                seen.add(digest)
                replaced.add((ruling.language, ruling.source))
                rows.append(
                    (
                        card_id,
                        ruling.language,
                        ruling.source,
                        self._date(ruling.published),
                        ruling.text,
                        len(seen) - 1,
                        digest,
                    )
                )
        for language, source in replaced or {("en", "wotc")}:
            for chunk in _chunks(list(by_card)):
                self.conn.execute(
                    delete(rulings_t).where(
                        rulings_t.c.card_id.in_(chunk),
                        rulings_t.c.language == language,
                        rulings_t.c.source == source,
                    )
                )
        self._insert_new(rulings_t, _RULING_COLUMNS, rows, ["card_id", "digest"])
        return len(rows)

    def _write_printings(
        self, set_code: str, printings: Sequence[PrintingRecord], data_date: dt.date | None
    ) -> dict[str, int]:
        """Upsert the set's printings, drop those the set no longer has; return ids by number."""
        rows = [
            {
                "set_code": set_code,
                "collector_number": p.collector_number,
                "card_id": self._card_ids[p.card.oracle_id],
                "rarity": p.rarity,
                "scryfall_id": p.scryfall_id,
                "multiverse_id": p.multiverse_id,
                "mtgjson_uuid": p.mtgjson_uuid,
                "identifiers": {side: dict(ids) for side, ids in p.identifiers.items()},
                "data_date": data_date,
            }
            for p in printings
        ]
        self._upsert(printings_t, rows, ["set_code", "collector_number"])
        numbers = {p.collector_number for p in printings}
        ids: dict[str, int] = {}
        stale: list[int] = []
        for printing_id, number, card_id in self.conn.execute(
            select(printings_t.c.id, printings_t.c.collector_number, printings_t.c.card_id).where(
                printings_t.c.set_code == set_code
            )
        ):
            if number in numbers:
                ids[number] = printing_id
            else:
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
                    new_rows[key] = (
                        face_id,
                        loc.language,
                        loc.name,
                        loc.name_norm,
                        loc.type_line,
                        loc.text,
                        loc.flavor,
                        loc.digest,
                    )
                links.setdefault((printing_id, key), loc.multiverse_id)
        self._insert_new(
            localizations_t, _LOCALIZATION_COLUMNS, list(new_rows.values()), ["face_id", "digest"]
        )
        face_ids = sorted({face_id for face_id, _digest in new_rows})
        for face_chunk in _chunks(face_ids):
            for loc_id, face_id, digest in self.conn.execute(
                select(localizations_t.c.id, localizations_t.c.face_id, localizations_t.c.digest).where(
                    localizations_t.c.face_id.in_(face_chunk)
                )
            ).all():
                known[(face_id, digest)] = loc_id
        for id_chunk in _chunks(sorted(set(printing_ids.values()))):
            self.conn.execute(delete(links_t).where(links_t.c.printing_id.in_(id_chunk)))
        link_rows = [
            (printing_id, known[key], multiverse_id) for (printing_id, key), multiverse_id in links.items()
        ]
        self._insert_new(links_t, _LINK_COLUMNS, link_rows, None)
        return sum(1 for row in new_rows.values() if row[1] != "en")

    def prune(self) -> None:
        """Remove translations that no printing carries any more (after links were replaced)."""
        carried = exists().where(links_t.c.localization_id == localizations_t.c.id)
        self.conn.execute(delete(localizations_t).where(~carried))


def _older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """True when incoming data is known to be older than what is stored."""
    return incoming is not None and stored is not None and incoming < stored
