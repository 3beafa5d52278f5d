"""The writer: turns records (:mod:`carddb.ingest.records`) into rows, in bulk.

Every statement is an ``executemany`` of an ``INSERT … ON CONFLICT`` keyed on a natural key, so
importing the same data twice leaves the same rows, and a newer file updates what changed:

* a set, card or printing is only overwritten by data at least as new as what is stored
  (``data_date``, MTGJSON's ``meta.date``), so importing an old file never undoes a newer one;
* a card seen again later in the same file (a reprint) is written once;
* each distinct translation is stored once (keyed by a content digest) and linked to printings;
* a card keyed by its name (MTGJSON without ``scryfallOracleId``) joins a stored card of that
  English name instead of becoming a second card of the same name.

Two kinds of batch, because sources give two kinds of wholeness. :class:`Loader` holds what both
share (the statements, cards and their name joins, row builders, the transaction's id caches,
:attr:`Loader.touched`) and writes the whole set:

* :meth:`Loader.write` takes a :class:`SetBatch`, a whole set (MTGJSON): printings that vanished
  from a newer version of the set are removed (only printings MTGJSON made: those with an MTGJSON
  uuid; a printing only Scryfall knows stays), its printings' translation links are replaced, and
  translations no printing carries any more are pruned at the end of the file
  (:meth:`Loader.prune`).

Part of a set (Scryfall), which only adds, is written by the subclass
:class:`carddb.ingest.part_loader.PartLoader`.

The caller owns the transaction (one per input file, see :mod:`carddb.ingest.importer`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, delete, exists, select

from carddb.characteristics import card_colors, card_mana_value, stat_value, type_bits
from carddb.db.bulk import BulkWriter, chunks
from carddb.db.lists import among
from carddb.db.models import (
    Card,
    CardSet,
    Face,
    Legality,
    Localization,
    Printing,
    PrintingLocalization,
    Ruling,
)
from carddb.ingest.records import (
    CardRecord,
    LocalizedFace,
    PrintingRecord,
    RulingRecord,
    SetBatch,
    normalize_name,
)
from carddb.text import normalize

LOCALIZATION_COLUMNS = (
    *("face_id", "language", "name", "name_norm", "type_line", "text", "flavor", "digest", "origin"),
    *("type_norm", "text_norm"),
)
LINK_COLUMNS = ("printing_id", "localization_id", "multiverse_id")
RULING_COLUMNS = ("card_id", "language", "source", "published", "text", "position", "digest", "text_norm")
ID_CACHE_LIMIT = 400_000

sets_t: Table = CardSet.__table__  # type: ignore[assignment]
cards_t: Table = Card.__table__  # type: ignore[assignment]
faces_t: Table = Face.__table__  # type: ignore[assignment]
printings_t: Table = Printing.__table__  # type: ignore[assignment]
localizations_t: Table = Localization.__table__  # type: ignore[assignment]
links_t: Table = PrintingLocalization.__table__  # type: ignore[assignment]
rulings_t: Table = Ruling.__table__  # type: ignore[assignment]
legalities_t: Table = Legality.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What writing one set did."""

    set_code: str
    written: bool
    # Not written because the stored set came from the very same source text (its digest).
    unchanged: bool = False
    cards: int = 0
    printings: int = 0
    localizations: int = 0
    rulings: int = 0


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


def keyed_by_name(key: str) -> bool:
    """MTGJSON keys a card without ``scryfallOracleId`` as ``name:<name>``."""
    return key.startswith("name:")


class Loader:
    """Writes whole-set batches through one connection inside the caller's transaction
    (:class:`~carddb.ingest.part_loader.PartLoader` writes part of a set)."""

    def __init__(self, connection: Connection, force: bool = False) -> None:
        """``force``: write sets again even when stored from the very same source text."""
        self.conn = connection
        self.writer = BulkWriter(connection)
        self.force = force
        # Cards already written in this transaction: a reprint later in the file reuses them.
        self._card_ids: dict[str, int] = {}
        self._face_ids: dict[tuple[int, str], int] = {}
        # Translation ids by (face id, content digest), so reprints skip the insert and the lookup.
        self._localization_ids: dict[tuple[int, str], int] = {}
        # Translations whose links this transaction removed: the only ones prune() may find unused.
        self._unlinked: set[int] = set()
        # Cards whose printings, translations or rulings this transaction changed: their search
        # documents are rebuilt before it commits (carddb.search.index).
        self.touched: set[int] = set()
        # Cards whose legalities this transaction replaced (stored from another build).
        self._legalities_reset: set[int] = set()
        # Card keys joined to a stored card by name, for the caller's warnings.
        self.name_joins: list[NameJoin] = []

    # -- statements ---------------------------------------------------------------------------
    def _upsert(self, table: Table, rows: list[dict[str, Any]], keys: Sequence[str]) -> None:
        self.writer.upsert(table, rows, keys)

    def _insert_new(
        self, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], keys: Sequence[str] | None
    ) -> None:
        self.writer.insert_new(table, columns, rows, keys)

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
            **printing.facts._asdict(),
        }

    def _supersede_page_rulings(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Remove the undated rulings a card page gave (source ``page``) that ``rows`` (in
        :data:`RULING_COLUMNS` order) now bring from a dated source: same card, same language,
        the same text once folded."""
        card_ids = sorted({row[0] for row in rows})
        stored: list[tuple[int, int, str, str]] = []
        for chunk in chunks(card_ids):
            for ruling_id, card_id, language, text in self.conn.execute(
                select(rulings_t.c.id, rulings_t.c.card_id, rulings_t.c.language, rulings_t.c.text).where(
                    among(rulings_t.c.card_id, chunk), rulings_t.c.source == "page"
                )
            ):
                stored.append((ruling_id, card_id, language, text))
        if not stored:  # the usual case: no card page gave these cards rulings
            return
        incoming = {(row[0], row[1], normalize(row[4])) for row in rows}
        stale = [
            ruling_id
            for ruling_id, card_id, language, text in stored
            if (card_id, language, normalize(text)) in incoming
        ]
        for chunk in chunks(stale):
            self.conn.execute(delete(rulings_t).where(among(rulings_t.c.id, chunk)))

    def _ruling_row(self, card_id: int, ruling: RulingRecord, position: int) -> tuple[Any, ...]:
        """A ``rulings`` row in :data:`RULING_COLUMNS` order."""
        published = self._date(ruling.published)
        return (
            *(card_id, ruling.language, ruling.source, published, ruling.text, position, ruling.digest),
            ruling.text_norm,
        )

    def _date(self, value: dt.date | None) -> Any:
        return self.writer.date(value)

    # -- cards and translation ids, for either kind of batch -----------------------------------
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
        cards = list(cards)
        fresh: dict[str, CardRecord] = {}
        for card in cards:
            if card.oracle_id not in self._card_ids:
                fresh.setdefault(card.oracle_id, card)
        if not fresh:
            self._write_legalities(cards, set())
            return {}
        oracle_ids = list(fresh)
        stored: dict[str, dt.date | None] = {}
        unchanged: set[str] = set()
        for chunk in chunks(oracle_ids):
            for oracle_id, date, digest in self.conn.execute(
                select(cards_t.c.oracle_id, cards_t.c.data_date, cards_t.c.source_digest).where(
                    among(cards_t.c.oracle_id, chunk)
                )
            ):
                stored[oracle_id] = date
                if digest and digest == fresh[oracle_id].digest and date == data_date:
                    unchanged.add(oracle_id)
        # The stored oracle id each incoming key is written under: itself, or a card joined by name.
        keys = {o: o for o in oracle_ids}
        for key, (stored_key, date) in self._join_by_name(
            [o for o in oracle_ids if o not in stored and join_by_name(o)], fresh
        ).items():
            keys[key] = stored_key
            stored[key] = date
        # A card stored from the same content and date (a reprint in another set file of the same
        # build) is not written again: neither its faces nor its rulings would change.
        to_write = [
            o
            for o in oracle_ids
            if o not in stored or (o not in unchanged and replaces(data_date, stored[o]))
        ]
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
                    "colors": card_colors(f.colors for f in fresh[o].faces),
                    "color_identity": card_colors(f.color_identity for f in fresh[o].faces),
                    "data_date": data_date,
                    "source_digest": fresh[o].digest or None,
                }
                for o in to_write
            ],
            ["oracle_id"],
        )
        incoming_by_stored: dict[str, list[str]] = {}
        for key, stored_key in keys.items():
            incoming_by_stored.setdefault(stored_key, []).append(key)
        for chunk in chunks(list(incoming_by_stored)):
            for card_id, oracle_id in self.conn.execute(
                select(cards_t.c.id, cards_t.c.oracle_id).where(among(cards_t.c.oracle_id, chunk))
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
                    "type_norm": face.type_norm,
                    "text_norm": face.text_norm,
                }
                for card_id, card in written.items()
                for position, face in enumerate(card.faces)
            ],
            ["card_id", "side"],
        )
        # legalities a newer build gives replace those of an older one; the same build's add up
        self._write_legalities(
            cards, {self._card_ids[o] for o in to_write if o in stored and stored[o] != data_date}
        )
        card_ids = [self._card_ids[o] for o in oracle_ids]
        for id_chunk in chunks(card_ids):
            for face_id, card_id, side in self.conn.execute(
                select(faces_t.c.id, faces_t.c.card_id, faces_t.c.side).where(
                    among(faces_t.c.card_id, id_chunk)
                )
            ):
                self._face_ids[(card_id, side)] = face_id
        return written

    def _write_legalities(self, cards: Sequence[CardRecord], outdated: set[int]) -> None:
        """Add the legalities of ``cards`` (of every printing: MTGJSON gives some per printing, as
        Old School for the old printings only, so a card's are those of all its printings),
        after removing those of the ``outdated`` cards (stored from another build)."""
        reset = sorted(outdated - self._legalities_reset)
        self._legalities_reset.update(reset)
        for chunk in chunks(reset):
            self.conn.execute(delete(legalities_t).where(among(legalities_t.c.card_id, chunk)))
        rows = {
            (self._card_ids[card.oracle_id], format_, status)
            for card in cards
            if card.legalities
            for format_, status in card.legalities
        }
        if rows:
            columns = ("card_id", "format", "status")
            self._insert_new(legalities_t, columns, sorted(rows), columns)

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
        for chunk in chunks(list(by_norm)):
            for oracle_id, date, name, norm in self.conn.execute(
                select(cards_t.c.oracle_id, cards_t.c.data_date, cards_t.c.name, cards_t.c.name_norm).where(
                    among(cards_t.c.name_norm, chunk)
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

    def _remember_localizations(self, face_ids: Sequence[int]) -> None:
        """Cache the ids of every stored translation of ``face_ids``."""
        for face_chunk in chunks(face_ids):
            for loc_id, face_id, digest in self.conn.execute(
                select(localizations_t.c.id, localizations_t.c.face_id, localizations_t.c.digest).where(
                    among(localizations_t.c.face_id, face_chunk)
                )
            ).all():
                self._localization_ids[(face_id, digest)] = loc_id

    # -- one set ----------------------------------------------------------------------------
    def write(self, batch: SetBatch) -> BatchResult:
        code = batch.set.code
        stored = self.conn.execute(
            select(sets_t.c.data_date, sets_t.c.source_digest).where(sets_t.c.code == code)
        ).first()
        if stored is not None and _older(batch.data_date, stored.data_date):
            return BatchResult(set_code=code, written=False)
        if stored is not None and not self.force and batch.digest and stored.source_digest == batch.digest:
            return BatchResult(set_code=code, written=False, unchanged=True)
        self._upsert(
            sets_t,
            [
                {
                    "code": code,
                    "name": batch.set.name,
                    "release_date": batch.set.release_date,
                    "set_type": batch.set.set_type,
                    "data_date": batch.data_date,
                    "source_digest": batch.digest,
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
            for chunk in chunks(list(by_card)):
                self.conn.execute(
                    delete(rulings_t).where(
                        among(rulings_t.c.card_id, chunk),
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
        self._insert_new(rulings_t, RULING_COLUMNS, rows, ["card_id", "digest"])
        return len(rows)

    def _stored_rulings(self, card_ids: Sequence[int]) -> set[tuple[int, str, dt.date | None, str]]:
        """(card, language, date, text) of the stored rulings of ``card_ids``."""
        found: set[tuple[int, str, dt.date | None, str]] = set()
        for chunk in chunks(card_ids):
            for card_id, language, published, text in self.conn.execute(
                select(
                    rulings_t.c.card_id, rulings_t.c.language, rulings_t.c.published, rulings_t.c.text
                ).where(among(rulings_t.c.card_id, chunk))
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
        for chunk in chunks(stale):
            self._unlinked.update(
                self.conn.scalars(
                    select(links_t.c.localization_id).where(among(links_t.c.printing_id, chunk))
                )
            )
            self.conn.execute(delete(links_t).where(among(links_t.c.printing_id, chunk)))
            self.conn.execute(delete(printings_t).where(among(printings_t.c.id, chunk)))
        return ids

    def _write_localizations(self, printings: Sequence[PrintingRecord], printing_ids: dict[str, int]) -> int:
        """Store each distinct translation once and link every printing to the ones it carries."""
        known = self._localization_ids
        if len(known) > ID_CACHE_LIMIT:
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
                    new_rows[key] = localization_row(face_id, loc)
                links.setdefault((printing_id, key), loc.multiverse_id)
        self._insert_new(
            localizations_t, LOCALIZATION_COLUMNS, list(new_rows.values()), ["face_id", "digest"]
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
        self._insert_new(links_t, LINK_COLUMNS, link_rows + kept, None)
        return sum(1 for row in new_rows.values() if row[1] != "en")

    def _replace_links(
        self, printing_ids: Sequence[int], given: dict[int, set[str]]
    ) -> list[tuple[Any, ...]]:
        """Remove the translation links of ``printing_ids`` before a set file links them again,
        and return those to link back: translations only a Scryfall file gave, in a language the
        set file does not give for that printing (``given``), so no source undoes another."""
        kept: list[tuple[Any, ...]] = []
        for chunk in chunks(printing_ids):
            for printing_id, localization_id, multiverse_id, language, origin in self.conn.execute(
                select(
                    links_t.c.printing_id,
                    links_t.c.localization_id,
                    links_t.c.multiverse_id,
                    localizations_t.c.language,
                    localizations_t.c.origin,
                )
                .join(localizations_t, localizations_t.c.id == links_t.c.localization_id)
                .where(among(links_t.c.printing_id, chunk))
            ):
                self._unlinked.add(localization_id)
                if origin == "scryfall" and language not in given.get(printing_id, set()):
                    kept.append((printing_id, localization_id, multiverse_id))
            self.conn.execute(delete(links_t).where(among(links_t.c.printing_id, chunk)))
        return kept

    def forget_set_digests(self) -> None:
        """Clear the source digest of every stored set: another source changed what cards hold, so
        a set file imported again must be written again, not skipped as unchanged."""
        self.conn.execute(
            sets_t.update().where(sets_t.c.source_digest.is_not(None)).values(source_digest=None)
        )

    def prune(self) -> None:
        """Remove translations that no printing carries any more, among those whose links this
        transaction removed (the work is that of the file, never of the whole database);
        translations read from card pages name no printing and stay."""
        carried = exists().where(links_t.c.localization_id == localizations_t.c.id)
        candidates = sorted(self._unlinked)
        self._unlinked.clear()
        for chunk in chunks(candidates):
            self.conn.execute(
                delete(localizations_t).where(
                    among(localizations_t.c.id, chunk), ~carried, localizations_t.c.origin != "page"
                )
            )
        self._localization_ids.clear()  # ids of pruned rows must not be reused from the cache


def _older(incoming: dt.date | None, stored: dt.date | None) -> bool:
    """True when incoming data is known to be older than what is stored."""
    return incoming is not None and stored is not None and incoming < stored


def localization_row(face_id: int, loc: LocalizedFace, origin: str = "printing") -> tuple[Any, ...]:
    """A translation carried by printings, as a row in :data:`LOCALIZATION_COLUMNS` order
    (``origin``: ``"printing"`` from a whole set file, ``"scryfall"`` from a Scryfall file)."""
    return (
        *(face_id, loc.language, loc.name, loc.name_norm, loc.type_line, loc.text, loc.flavor, loc.digest),
        *(origin, loc.type_norm, loc.text_norm),
    )
