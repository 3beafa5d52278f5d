"""MTGJSON v5: AllPrintings or a single set file, streamed one set at a time.

``{"meta": {"date", "version"}, "data": {...}}`` where ``data`` is either one set (a set file) or a
map of set code to set (AllPrintings). ``ijson.kvitems(f, "data")`` walks ``data`` one entry at a
time with the C parser, so memory is bounded by the largest set, never by the file.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import ijson

from carddb import languages
from carddb.errors import MalformedJSONError, NotMTGJSONError, SourceError
from carddb.ingest.records import (
    CardRecord,
    FaceRecord,
    LocalizedFace,
    PrintingRecord,
    RulingRecord,
    SetBatch,
    SetRecord,
    iso_date,
)
from carddb.ingest.sources import json_syntax_error, open_tracked

log = logging.getLogger(__name__)

_COLOR_ORDER = "WUBRG"
_SET_FIELDS = frozenset({"code", "name", "cards"})
_SET_KEYS = ("code", "name", "releaseDate", "type", "cards")
# What records are made of; the rest (prices, legalities, frames...) is dropped as soon as parsed.
_CARD_KEYS = frozenset(
    {
        "name", "faceName", "side", "number", "layout", "uuid", "identifiers", "rarity",
        "manaCost", "manaValue", "faceManaValue", "colors", "colorIdentity", "type", "text",
        "power", "toughness", "loyalty", "defense", "keywords", "originalText", "originalType",
        "flavorText", "foreignData", "rulings",
    }
)  # fmt: skip


class MTGJSONReader:
    """Reads one MTGJSON file as a stream of :class:`SetBatch`.

    ``warnings`` collects what was kept or skipped with a note (unknown languages, cards with no
    oracle id), once per distinct problem.
    """

    def __init__(self, path: Path, on_progress: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.on_progress = on_progress
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self.data_date: dt.date | None = None
        self.version: str | None = None
        self._cards_with_rulings: set[str] = set()

    def warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(f"{self.path.name}: {message}")
            log.warning("%s: %s", self.path, message)

    def __iter__(self) -> Iterator[SetBatch]:
        self.read_meta()
        for where, raw in self.raw_sets():
            yield self.batch(where, raw)

    # -- meta -------------------------------------------------------------------------------
    def read_meta(self) -> None:
        """Read ``meta`` (MTGJSON writes it first) and check the top level is an object."""
        with open_tracked(self.path) as reader:
            events = ijson.parse(reader, use_float=True)
            try:
                prefix, event, _ = next(events)
                if event != "start_map":
                    raise NotMTGJSONError(self.path, "top level is not an object with 'meta' and 'data'")
                meta: dict[str, Any] = {}
                for prefix, event, value in events:
                    if prefix.startswith("meta.") and event in ("string", "number"):
                        meta[prefix[5:]] = value
                    elif (prefix == "" and event == "map_key" and value not in ("meta",)) or (
                        prefix == "" and event == "end_map"
                    ):
                        break
            except ijson.JSONError as exc:
                raise json_syntax_error(self.path, reader, exc) from None
            except StopIteration:
                raise MalformedJSONError(self.path, "file is empty", "byte 0") from None
        self.version = str(meta["version"]) if "version" in meta else None
        self.data_date = iso_date(meta.get("date"))

    # -- data -------------------------------------------------------------------------------
    def raw_sets(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The sets under ``data`` as parsed JSON, each cut down to the keys records are made of
        (boosters and sealed products are dropped at once), with where each was found."""
        single: dict[str, Any] = {}
        sets = 0
        with open_tracked(self.path, self.on_progress) as reader:
            try:
                for key, value in ijson.kvitems(reader, "data", use_float=True):
                    if isinstance(value, dict) and "cards" in value:
                        sets += 1
                        yield f"data.{key}", _trim_set(value)
                    elif key in _SET_KEYS:
                        single[key] = value
            except ijson.JSONError as exc:
                raise json_syntax_error(self.path, reader, exc) from None
        if single:
            missing = _SET_FIELDS - single.keys()
            if missing:
                raise NotMTGJSONError(
                    self.path, f"'data' is neither a set nor a map of sets (no {', '.join(sorted(missing))})"
                )
            yield "data", _trim_set(single)
        elif not sets:
            raise NotMTGJSONError(self.path, "no set under 'data': not an MTGJSON set or AllPrintings file")

    def batch(self, where: str, raw: Mapping[str, Any]) -> SetBatch:
        """Records of one set, from its parsed JSON."""
        code = raw.get("code")
        cards = raw.get("cards")
        if not isinstance(code, str) or not code or not isinstance(cards, list):
            raise NotMTGJSONError(self.path, f"{where} has no set 'code' or 'cards' list")
        card_set = SetRecord(
            code=code.upper(),
            name=str(raw.get("name") or code),
            release_date=iso_date(raw.get("releaseDate")),
            set_type=_opt_str(raw.get("type")),
        )
        groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
        for index, card in enumerate(cards):
            if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not card["name"]:
                raise NotMTGJSONError(self.path, f"{where}.cards[{index}] is not an MTGJSON card")
            number = str(card.get("number") or card.get("uuid") or index)
            groups.setdefault((number, _oracle_id(card)), []).append(card)
        printings = []
        localized = rulings = 0
        for (number, oracle_id), records in groups.items():
            printing = self._printing(card_set.code, number, oracle_id, records)
            localized += sum(len(_sequence(r.get("foreignData"))) for r in records)
            rulings += sum(len(_sequence(r.get("rulings"))) for r in records)
            printings.append(printing)
        return SetBatch(
            set=card_set,
            printings=tuple(printings),
            data_date=self.data_date,
            localized_entries=localized,
            ruling_entries=rulings,
        )

    def _printing(
        self, set_code: str, number: str, oracle_id: str, records: list[Mapping[str, Any]]
    ) -> PrintingRecord:
        records = sorted(records, key=lambda r: str(r.get("side") or "a"))
        first = records[0]
        if oracle_id.startswith("name:"):
            self.warn(f"oracle:{first['name']}", f"{first['name']} has no scryfallOracleId; keyed by name")
        faces = tuple(_face(r) for r in records)
        card = CardRecord(
            oracle_id=oracle_id,
            name=str(first["name"]),
            layout=str(first.get("layout") or "normal"),
            faces=faces,
        )
        identifiers: dict[str, dict[str, str]] = {}
        localizations: list[LocalizedFace] = []
        for record, face in zip(records, faces, strict=True):
            ids = {str(k): str(v) for k, v in _mapping(record.get("identifiers")).items()}
            if record.get("uuid"):
                ids["mtgjsonId"] = str(record["uuid"])
            identifiers[face.side] = ids
            localizations.append(_english(record, face))
            for entry in _sequence(record.get("foreignData")):
                if not isinstance(entry, dict):
                    self.warn(
                        "foreign-shape", f"skipped foreignData entries that are not objects ({first['name']})"
                    )
                    continue
                localized = self._foreign(entry, face.side)
                if localized is not None:
                    localizations.append(localized)
        first_ids = identifiers[faces[0].side]
        return PrintingRecord(
            set_code=set_code,
            collector_number=number,
            card=card,
            rarity=_opt_str(first.get("rarity")),
            scryfall_id=first_ids.get("scryfallId"),
            multiverse_id=_int(first_ids.get("multiverseId")),
            mtgjson_uuid=_opt_str(first.get("uuid")),
            identifiers=identifiers,
            localizations=tuple(localizations),
            rulings=self._rulings(oracle_id, first),
        )

    def _rulings(self, oracle_id: str, record: Mapping[str, Any]) -> tuple[RulingRecord, ...]:
        """A card's rulings, with its first printing in the file only: MTGJSON repeats the same
        card-level rulings on every printing, and the loader writes a card once per file."""
        if oracle_id in self._cards_with_rulings:
            return ()
        self._cards_with_rulings.add(oracle_id)
        return tuple(
            RulingRecord(published=iso_date(r.get("date")), text=str(r["text"]))
            for r in _sequence(record.get("rulings"))
            if isinstance(r, dict) and r.get("text")
        )

    def _foreign(self, entry: Mapping[str, Any], side: str) -> LocalizedFace | None:
        name = entry.get("faceName") or entry.get("name")
        language_name = entry.get("language")
        if isinstance(language_name, str):
            language_name = language_name.strip()
        if not name or not isinstance(name, str) or not language_name or not isinstance(language_name, str):
            self.warn("foreign-incomplete", "skipped localized entries without a name or language")
            return None
        language, known = _source_language(language_name)
        if not known:
            self.warn(
                f"lang:{language_name}",
                f"unknown language {language_name!r} kept under tag {language.tag!r}",
            )
        return LocalizedFace(
            side=side,
            language=language.tag,
            name=str(name),
            type_line=_opt_str(entry.get("type")),
            text=_opt_str(entry.get("text")),
            flavor=_opt_str(entry.get("flavorText")),
            multiverse_id=_int(entry.get("multiverseId")),
        )


@lru_cache(maxsize=256)
def _source_language(name: str) -> tuple[languages.Language, bool]:
    return languages.from_source_name(name)


def _oracle_id(card: Mapping[str, Any]) -> str:
    oracle = _mapping(card.get("identifiers")).get("scryfallOracleId")
    return str(oracle) if oracle else f"name:{card['name']}"


def _trim_set(raw: Mapping[str, Any]) -> dict[str, Any]:
    trimmed = {k: raw[k] for k in _SET_KEYS if k in raw}
    cards = trimmed.get("cards")
    if isinstance(cards, list):
        trimmed["cards"] = [
            {k: v for k, v in card.items() if k in _CARD_KEYS} if isinstance(card, dict) else card
            for card in cards
        ]
    return trimmed


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _sequence(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _face(record: Mapping[str, Any]) -> FaceRecord:
    mana_value = record.get("faceManaValue", record.get("manaValue"))
    return FaceRecord(
        side=str(record.get("side") or "a"),
        name=str(record.get("faceName") or record["name"]),
        type_line=str(record.get("type") or ""),
        mana_cost=_opt_str(record.get("manaCost")),
        mana_value=float(mana_value) if isinstance(mana_value, int | float) else None,
        colors=_colors(record.get("colors")),
        color_identity=_colors(record.get("colorIdentity")),
        oracle_text=_opt_str(record.get("text")),
        power=_opt_str(record.get("power")),
        toughness=_opt_str(record.get("toughness")),
        loyalty=_opt_str(record.get("loyalty")),
        defense=_opt_str(record.get("defense")),
        keywords=tuple(str(k) for k in _sequence(record.get("keywords"))),
    )


def _english(record: Mapping[str, Any], face: FaceRecord) -> LocalizedFace:
    """The English text as printed on this printing (``originalText``), else the oracle text."""
    return LocalizedFace(
        side=face.side,
        language="en",
        name=face.name,
        type_line=_opt_str(record.get("originalType")) or face.type_line,
        text=_opt_str(record.get("originalText")) or face.oracle_text,
        flavor=_opt_str(record.get("flavorText")),
        multiverse_id=_int(_mapping(record.get("identifiers")).get("multiverseId")),
    )


def _colors(value: object) -> str:
    if not isinstance(value, list):
        return ""
    present = {str(c) for c in value}
    return "".join(c for c in _COLOR_ORDER if c in present)


def _opt_str(value: object) -> str | None:
    if value is None or value == "":
        return None
    return str(value)


def _int(value: object) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(str(value))
    except ValueError:
        return None


def read_mtgjson(path: Path, on_progress: Callable[[int], None] | None = None) -> MTGJSONReader:
    """Open an MTGJSON file for streaming: iterate the result for its sets."""
    if not path.is_file():
        raise SourceError(path, "not a file")
    return MTGJSONReader(path, on_progress)
