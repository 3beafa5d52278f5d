"""MTGJSON v5: AllPrintings or a single set file, streamed one set at a time.

``{"meta": {"date", "version"}, "data": {...}}`` where ``data`` is either one set (a set file) or a
map of set code to set (AllPrintings). :class:`~carddb.ingest.json_stream.JSONStream` walks the
file: ``data`` one member at a time, a set's ``cards`` one card at a time (each card parsed by the
C decoder, at most :data:`CARD_LIMIT` characters), what carddb does not keep (boosters, sealed
products, tokens) skipped unparsed. Memory is bounded by the records of the largest set, never by
the file. Every value carddb keeps is checked by :mod:`carddb.ingest.values`.

Each set also gets a digest of its JSON text (:attr:`RawSet.digest`), so that the loader can
skip a set that is exactly what was imported before.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from carddb import languages
from carddb.errors import NotMTGJSONError, SourceError
from carddb.ingest.json_stream import JSONStream
from carddb.ingest.records import (
    CardRecord,
    FaceRecord,
    LocalizedFace,
    PrintingFacts,
    PrintingRecord,
    RulingRecord,
    SetBatch,
    SetRecord,
    flag_of,
    legalities_of,
    short_of,
    words_of,
)
from carddb.ingest.sources import open_tracked
from carddb.ingest.values import (
    DATE,
    ESCAPES,
    IDS,
    INT,
    MAX_INT32,
    NUMBER,
    RECORDS,
    TEXT,
    WORDS,
    Rule,
    Warnings,
    Where,
    checked_date,
    checked_record,
    checked_text,
)

FORMAT_VERSION = "2"
"""Part of every set digest: changing how sets become rows (a new field read, a value checked
differently) changes it, so sets imported by an older carddb are imported again."""
CARD_LIMIT = 4 << 20
"""The longest card object accepted, in characters (real ones are under 100,000)."""
FIELD_LIMIT = 1 << 16
"""The longest set field that is kept (code, name, date, type) or meta, in characters."""

_COLOR_ORDER = "WUBRG"
_SET_FIELDS = frozenset({"code", "name", "cards"})
_SET_KEYS = frozenset({"code", "name", "releaseDate", "type"})
# What records are made of, and how each field is checked (carddb.ingest.values); the rest
# (legalities, frames...) is dropped as soon as parsed.
_CARD_RULES: dict[str, Rule] = {
    "name": (TEXT, "name"), "faceName": (TEXT, "name"), "side": (TEXT, "short"),
    "number": (TEXT, "short"), "layout": (TEXT, "short"), "uuid": (TEXT, "short"),
    "identifiers": (IDS, ""), "rarity": (TEXT, "short"), "manaCost": (TEXT, "short"),
    "manaValue": (NUMBER, ""), "faceManaValue": (NUMBER, ""), "colors": (WORDS, ""),
    "colorIdentity": (WORDS, ""), "type": (TEXT, "type"), "text": (TEXT, "text"),
    "power": (TEXT, "short"), "toughness": (TEXT, "short"), "loyalty": (TEXT, "short"),
    "defense": (TEXT, "short"), "keywords": (WORDS, ""), "originalText": (TEXT, "text"),
    "originalType": (TEXT, "type"), "flavorText": (TEXT, "flavor"), "foreignData": (RECORDS, ""),
    "rulings": (RECORDS, ""), "artist": (TEXT, "name"), "finishes": (WORDS, ""),
    "availability": (WORDS, ""), "borderColor": (TEXT, "short"), "frameVersion": (TEXT, "short"),
    "frameEffects": (WORDS, ""), "legalities": (IDS, ""),
}  # fmt: skip
_CARD_FLAGS = frozenset({"isPromo", "isOnlineOnly", "isReprint"})
"""Booleans kept as they are (:func:`~carddb.ingest.records.flag_of` keeps only true booleans)."""
_CARD_KEYS = frozenset(_CARD_RULES) | _CARD_FLAGS
_FOREIGN_RULES: dict[str, Rule] = {
    "name": (TEXT, "name"), "faceName": (TEXT, "name"), "language": (TEXT, "short"),
    "type": (TEXT, "type"), "text": (TEXT, "text"), "flavorText": (TEXT, "flavor"),
    "multiverseId": (INT, ""),
}  # fmt: skip
_RULING_RULES: dict[str, Rule] = {"date": (DATE, ""), "text": (TEXT, "ruling")}
_SET_RULES: dict[str, Rule] = {"name": (TEXT, "name"), "releaseDate": (DATE, ""), "type": (TEXT, "short")}


@dataclass(frozen=True, slots=True)
class RawSet:
    """One set as parsed: its kept fields, its cards cut down to :data:`_CARD_KEYS`, where it was
    found (``data`` or ``data.AFR``) and a digest of its JSON text (with :data:`FORMAT_VERSION`
    and the file's ``meta``)."""

    where: str
    fields: Mapping[str, Any]
    cards: tuple[dict[str, Any], ...]
    digest: str
    # The indices of the cards whose JSON text has escapes making control characters or
    # surrogates: only their texts are searched for those (carddb.ingest.values.ESCAPES).
    escaped: frozenset[int] = frozenset()


class MTGJSONReader:
    """Reads one MTGJSON file: :meth:`raw_sets` walks its sets, :meth:`batch` makes a set's records.

    ``warnings`` collects what was kept or skipped with a note (unknown languages, cards with no
    oracle id, values of the wrong type), once per kind of problem (:class:`Warnings`).
    """

    def __init__(self, path: Path, on_progress: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.on_progress = on_progress
        self._warnings = Warnings(path)
        self.data_date: dt.date | None = None
        self.version: str | None = None
        self._meta_text = ""
        self._cards_with_rulings: set[str] = set()

    @property
    def warnings(self) -> list[str]:
        return self._warnings.lines()

    def warn(self, key: str, message: str) -> None:
        """Note a problem (once per kind: see :class:`Warnings`); the import's summary carries the
        warnings, so nothing is logged as well (which printed each one twice)."""
        self._warnings(key, message)

    # -- the stream ---------------------------------------------------------------------------
    def raw_sets(self) -> Iterator[RawSet]:
        """The sets under ``data``, each cut down to what records are made of (boosters, sealed
        products and tokens are skipped unparsed), in file order."""
        if not self.path.is_file():
            raise SourceError(self.path, "not a file")
        with open_tracked(self.path, self.on_progress) as reader:
            stream = JSONStream(self.path, reader)
            if stream.peek() != "{":
                raise NotMTGJSONError(self.path, "top level is not an object with 'meta' and 'data'")
            found_data = False
            for key in stream.members():
                if key == "meta" and stream.peek() == "{":
                    self._read_meta(stream)
                elif key == "data":
                    found_data = True
                    yield from self._data(stream)
                else:
                    stream.skip()
            stream.finish()
        if not found_data:
            raise NotMTGJSONError(self.path, "no 'data': not an MTGJSON set or AllPrintings file")

    def _read_meta(self, stream: JSONStream) -> None:
        meta = stream.value(FIELD_LIMIT)
        where = Where(self.path, "meta")
        self.version = checked_text(meta.get("version"), "version", "short", where, self.warn)
        self.data_date = checked_date(meta.get("date"), "date", where, self.warn)
        self._meta_text = f"{self.version}|{self.data_date}"

    def _data(self, stream: JSONStream) -> Iterator[RawSet]:
        if stream.peek() != "{":
            raise NotMTGJSONError(
                self.path, "'data' is not an object (a set, or a map of sets)", stream.where()
            )
        single: dict[str, Any] = {}
        cards: tuple[dict[str, Any], ...] | None = None
        escaped: frozenset[int] = frozenset()
        digest = self._digest_start()
        stream.record(digest)
        sets = 0
        for key in stream.members():
            first = stream.peek()
            if key == "cards" and first == "[":
                cards, escaped = self._cards(stream, "data")
            elif key in _SET_KEYS:
                single[key] = stream.value(FIELD_LIMIT)
            elif first == "{" and not cards and not single and _looks_like_code(key):
                sets += 1
                stream.stop_recording()
                yield self._set(stream, f"data.{key}")
            else:
                stream.skip()
        stream.stop_recording()
        if cards is not None or single:
            if cards is None or "code" not in single or "name" not in single:
                missing = sorted(_SET_FIELDS - single.keys() - ({"cards"} if cards is not None else set()))
                raise NotMTGJSONError(
                    self.path, f"'data' is neither a set nor a map of sets (no {', '.join(missing)})"
                )
            yield RawSet("data", single, cards, digest.hexdigest(), escaped)
        elif not sets:
            raise NotMTGJSONError(self.path, "no set under 'data': not an MTGJSON set or AllPrintings file")

    def _set(self, stream: JSONStream, where: str) -> RawSet:
        fields: dict[str, Any] = {}
        cards: tuple[dict[str, Any], ...] | None = None
        escaped: frozenset[int] = frozenset()
        digest = self._digest_start()
        stream.record(digest)
        for key in stream.members():
            if key == "cards" and stream.peek() == "[":
                cards, escaped = self._cards(stream, where)
            elif key in _SET_KEYS:
                fields[key] = stream.value(FIELD_LIMIT)
            else:
                stream.skip()
        stream.stop_recording()
        if cards is None or not isinstance(fields.get("code"), str) or not fields["code"]:
            raise NotMTGJSONError(self.path, f"{where} has no set 'code' or 'cards' list")
        return RawSet(where, fields, cards, digest.hexdigest(), escaped)

    def _digest_start(self) -> Any:
        digest = hashlib.sha1(FORMAT_VERSION.encode())
        digest.update(self._meta_text.encode())
        return digest

    def _cards(self, stream: JSONStream, where: str) -> tuple[tuple[dict[str, Any], ...], frozenset[int]]:
        cards: list[dict[str, Any]] = []
        escaped: set[int] = set()
        for index in stream.elements():
            if stream.peek() != "{":
                raise NotMTGJSONError(
                    self.path, f"{where}.cards[{index}] is not an MTGJSON card", stream.where()
                )
            card = stream.value(CARD_LIMIT, ESCAPES)
            if stream.flagged:
                escaped.add(index)
            cards.append({k: v for k, v in card.items() if k in _CARD_KEYS})
        return tuple(cards), frozenset(escaped)

    # -- records -------------------------------------------------------------------------------
    def batch(self, raw: RawSet) -> SetBatch:
        """Records of one set, from its parsed JSON; values checked (:mod:`carddb.ingest.values`)."""
        code = raw.fields.get("code")
        if not isinstance(code, str) or not code.strip() or len(code) > 16:
            raise NotMTGJSONError(
                self.path, f"{raw.where} has no set 'code' (or one longer than 16 characters)"
            )
        code = code.strip().upper()
        where = Where(self.path, f"set {code}")
        fields = checked_record(dict(raw.fields), _SET_RULES, where, self.warn)
        card_set = SetRecord(
            code=code,
            name=fields.get("name") or code,
            release_date=checked_date(fields.get("releaseDate"), "releaseDate", where, self.warn),
            set_type=fields.get("type"),
        )
        groups: dict[str, tuple[str, list[dict[str, Any]], list[bool]]] = {}
        for index, card in enumerate(raw.cards):
            name = card.get("name")
            if not isinstance(name, str) or not name.strip():
                raise NotMTGJSONError(
                    self.path, f"{raw.where}.cards[{index}] is not an MTGJSON card (no name)"
                )
            card_where = Where(self.path, f"set {code}, card {name[:80]!r}")
            escaped = index in raw.escaped
            card = checked_record(card, _CARD_RULES, card_where, self.warn, escaped)
            if card.get("name") is None:
                raise NotMTGJSONError(self.path, f"{raw.where}.cards[{index}] has no usable name")
            number = card.get("number") or card.get("uuid") or str(index)
            oracle_id = self._oracle_id(card)
            group = groups.get(number)
            if group is None:
                groups[number] = (oracle_id, [card], [escaped])
            elif group[0] == oracle_id:
                group[1].append(card)
                group[2].append(escaped)
            else:
                first_name = group[1][0]["name"]
                self.warn(
                    "duplicate-number",
                    f"set {code}: {name!r} has the collector number {number!r} of {first_name!r}; "
                    f"kept {first_name!r}, left {name!r} out",
                )
        printings = []
        localized = rulings = 0
        for number, (oracle_id, records, escapes) in groups.items():
            printings.append(self._printing(code, number, oracle_id, records, any(escapes)))
            localized += sum(len(r.get("foreignData") or ()) for r in records)
            rulings += sum(len(r.get("rulings") or ()) for r in records)
        return SetBatch(
            set=card_set,
            printings=tuple(printings),
            data_date=self.data_date,
            localized_entries=localized,
            ruling_entries=rulings,
            digest=raw.digest,
        )

    def _oracle_id(self, card: Mapping[str, Any]) -> str:
        oracle = (card.get("identifiers") or {}).get("scryfallOracleId")
        if oracle:
            return str(oracle)
        self.warn("no-oracle-id", f"{card['name']} has no scryfallOracleId; keyed by name")
        return f"name:{card['name']}"

    def _printing(
        self, set_code: str, number: str, oracle_id: str, records: list[dict[str, Any]], escaped: bool
    ) -> PrintingRecord:
        records = sorted(records, key=lambda r: str(r.get("side") or "a"))
        first = records[0]
        where = Where(self.path, f"set {set_code}, card {str(first['name'])[:80]!r}")
        faces = tuple(_face(r) for r in records)
        rulings = self._rulings(oracle_id, first, where, escaped)
        card = CardRecord.of(
            oracle_id,
            first["name"],
            first.get("layout") or "normal",
            faces,
            rulings,
            legalities_of(first.get("legalities")),
        )
        identifiers: dict[str, dict[str, str]] = {}
        localizations: list[LocalizedFace] = []
        for record, face in zip(records, faces, strict=True):
            ids = {str(k): str(v) for k, v in (record.get("identifiers") or {}).items()}
            if record.get("uuid"):
                ids["mtgjsonId"] = record["uuid"]
            multiverse_id = _multiverse(ids.get("multiverseId"))
            if multiverse_id is None and "multiverseId" in ids:
                self.warn(
                    "multiverse",
                    f"{where.field('identifiers.multiverseId')}: expected a whole number from 0 to "
                    f"{MAX_INT32:,}, found {ids.pop('multiverseId')[:40]!r}; left out",
                )
            identifiers[face.side] = ids
            localizations.append(_english(record, face, multiverse_id))
            for entry in record.get("foreignData") or ():
                if not isinstance(entry, dict):
                    self.warn(
                        "foreign-shape", f"skipped foreignData entries that are not objects ({first['name']})"
                    )
                    continue
                localized = self._foreign(
                    checked_record(entry, _FOREIGN_RULES, where, self.warn, escaped), face.side
                )
                if localized is not None:
                    localizations.append(localized)
        first_ids = identifiers[faces[0].side]
        return PrintingRecord(
            set_code=set_code,
            collector_number=number,
            card=card,
            rarity=first.get("rarity"),
            scryfall_id=first_ids.get("scryfallId"),
            multiverse_id=_multiverse(first_ids.get("multiverseId")),  # checked above
            mtgjson_uuid=first.get("uuid"),
            identifiers=identifiers,
            localizations=tuple(localizations),
            rulings=rulings,
            facts=_facts(first),
        )

    def _rulings(
        self, oracle_id: str, record: Mapping[str, Any], where: Where, escaped: bool
    ) -> tuple[RulingRecord, ...]:
        """A card's rulings, with its first printing in the file only: MTGJSON repeats the same
        card-level rulings on every printing, and the loader writes a card once per file."""
        if oracle_id in self._cards_with_rulings:
            return ()
        self._cards_with_rulings.add(oracle_id)
        rulings = []
        for entry in record.get("rulings") or ():
            if not isinstance(entry, dict):
                self.warn("ruling-shape", f"{where.field('rulings')}: entries that are not objects left out")
                continue
            entry = checked_record(entry, _RULING_RULES, where, self.warn, escaped)
            if entry.get("text"):
                published = checked_date(entry.get("date"), "rulings.date", where, self.warn)
                rulings.append(RulingRecord.of(published=published, text=entry["text"]))
        return tuple(rulings)

    def _foreign(self, entry: Mapping[str, Any], side: str) -> LocalizedFace | None:
        name = entry.get("faceName") or entry.get("name")
        language_name = entry.get("language")
        if language_name:
            language_name = language_name.strip()
        if not name or not language_name:
            self.warn("foreign-incomplete", "skipped localized entries without a name or language")
            return None
        language, known = _source_language(language_name)
        if not known:
            self.warn(
                f"lang:{language_name}",
                f"unknown language {language_name!r} kept under tag {language.tag!r}",
            )
        return LocalizedFace.of(
            side,
            language.tag,
            name,
            entry.get("type"),
            entry.get("text"),
            entry.get("flavorText"),
            entry.get("multiverseId"),
        )


def _face(record: Mapping[str, Any]) -> FaceRecord:
    mana_value = record.get("faceManaValue", record.get("manaValue"))
    return FaceRecord(
        side=record.get("side") or "a",
        name=record.get("faceName") or record["name"],
        type_line=record.get("type") or "",
        mana_cost=record.get("manaCost"),
        mana_value=float(mana_value) if mana_value is not None else None,
        colors=_colors(record.get("colors")),
        color_identity=_colors(record.get("colorIdentity")),
        oracle_text=record.get("text"),
        power=record.get("power"),
        toughness=record.get("toughness"),
        loyalty=record.get("loyalty"),
        defense=record.get("defense"),
        keywords=tuple(record.get("keywords") or ()),
    ).folded()


def _facts(record: Mapping[str, Any]) -> PrintingFacts:
    """What the printing is: artist, finishes, games, border, frame, promo, online only, reprint."""
    games = words_of(record.get("availability"))
    online = flag_of(record.get("isOnlineOnly"))
    return PrintingFacts(
        artist=record.get("artist"),
        finishes=words_of(record.get("finishes")),
        games=games,
        border=short_of(record.get("borderColor")),
        frame=short_of(record.get("frameVersion")),
        frame_effects=words_of(record.get("frameEffects"), 200),
        promo=bool(record.get("isPromo")),
        digital=online if online is not None else (None if games is None else "paper" not in games.split()),
        reprint=bool(record.get("isReprint")),
    )


def _english(record: Mapping[str, Any], face: FaceRecord, multiverse_id: int | None) -> LocalizedFace:
    """The English text as printed on this printing (``originalText``), else the oracle text."""
    return LocalizedFace.of(
        face.side,
        "en",
        face.name,
        record.get("originalType") or face.type_line,
        record.get("originalText") or face.oracle_text,
        record.get("flavorText"),
        multiverse_id,
    )


def _multiverse(value: str | None) -> int | None:
    """A multiverse id from the identifiers (text): a whole number that fits the column, or None."""
    if value is None or not value.isdigit() or len(value) > 10:
        return None
    number = int(value)
    return number if number <= MAX_INT32 else None


@lru_cache(maxsize=256)
def _source_language(name: str) -> tuple[languages.Language, bool]:
    return languages.from_source_name(name)


def _looks_like_code(key: str) -> bool:
    """A key of AllPrintings' ``data`` (``AFR``, ``10E``, ``PAL99``), not a set's own field
    (``booster``, ``sealedProduct``: MTGJSON's field names start in lowercase)."""
    return 0 < len(key) <= 16 and not key[0].islower()


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _sequence(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _colors(value: list[str] | None) -> str:
    present = set(value or ())
    return "".join(c for c in _COLOR_ORDER if c in present)
