"""Plain records that every source format yields and the one loader writes.

Sources (MTGJSON today; Scryfall and card pages later) turn their files into these frozen values;
:mod:`carddb.ingest.loader` (with its subclass in :mod:`carddb.ingest.part_loader`) is the only
code that turns them into rows.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from carddb.text import normalize

_SEP = "\x1f"


def content_digest(*parts: str | None) -> str:
    """A stable key for a record's content (SHA-1 of its fields)."""
    return hashlib.sha1(_SEP.join([p or "" for p in parts]).encode()).hexdigest()


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """:func:`carddb.text.normalize`, cached: reprints repeat the same names."""
    return normalize(name)


@dataclass(frozen=True, slots=True)
class SetRecord:
    code: str
    name: str
    release_date: dt.date | None = None
    set_type: str | None = None


@dataclass(frozen=True, slots=True)
class FaceRecord:
    """One face of a card with its English oracle characteristics."""

    side: str
    name: str
    type_line: str
    mana_cost: str | None = None
    mana_value: float | None = None
    colors: str = ""
    color_identity: str = ""
    oracle_text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One oracle identity."""

    oracle_id: str
    name: str
    layout: str
    faces: tuple[FaceRecord, ...]


@dataclass(frozen=True, slots=True)
class LocalizedFace:
    """A face's text as printed in one language (a canonical language tag).

    ``digest`` identifies the content (one stored row per distinct translation of a face) and
    ``name_norm`` is the searchable name; both are computed here, where the record is made, so a
    parser running in another process does that work, not the writer.
    """

    side: str
    language: str
    name: str
    type_line: str | None = None
    text: str | None = None
    flavor: str | None = None
    multiverse_id: int | None = None
    digest: str = field(init=False, compare=False)
    name_norm: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "digest", content_digest(self.language, self.name, self.type_line, self.text, self.flavor)
        )
        object.__setattr__(self, "name_norm", normalize_name(self.name))


@dataclass(frozen=True, slots=True)
class RulingRecord:
    published: dt.date | None
    text: str
    language: str = "en"
    source: str = "wotc"

    @property
    def digest(self) -> str:
        """A stable key for this ruling's content."""
        published = self.published.isoformat() if self.published else None
        return content_digest(self.language, self.source, published, self.text)


@dataclass(frozen=True, slots=True)
class PrintingRecord:
    set_code: str
    collector_number: str
    card: CardRecord
    rarity: str | None = None
    scryfall_id: str | None = None
    multiverse_id: int | None = None
    mtgjson_uuid: str | None = None
    identifiers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    localizations: tuple[LocalizedFace, ...] = ()
    rulings: tuple[RulingRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class SetBatch:
    """One whole set as a source gives it: the unit the loader writes (and prunes) at once."""

    set: SetRecord
    printings: tuple[PrintingRecord, ...]
    data_date: dt.date | None = None
    # Localized entries read from the source (before de-duplication), for the import summary.
    localized_entries: int = 0
    ruling_entries: int = 0


@dataclass(frozen=True, slots=True)
class PrintingsBatch:
    """Printings from a source that gives part of a set at a time (a Scryfall page or a run of a
    bulk file), in any order and languages: the loader adds them and never removes what the batch
    does not hold, unlike a :class:`SetBatch`.

    ``sets`` describes every set the printings name, so a set unknown to the database can be
    created. A printing may appear several times (once per language Scryfall gives it in): the
    loader merges them on (set, collector number).
    """

    sets: tuple[SetRecord, ...]
    printings: tuple[PrintingRecord, ...]
    data_date: dt.date | None = None


@dataclass(frozen=True, slots=True)
class CardRulings:
    """Rulings of one card named by its oracle id, from a source that gives rulings apart from
    cards (Scryfall's rulings file): the loader replaces the card's stored rulings of each source."""

    oracle_id: str
    rulings: tuple[RulingRecord, ...]


def iso_date(value: object) -> dt.date | None:
    """The date a source writes as ``YYYY-MM-DD`` (a longer timestamp is cut to its date); None
    for anything else."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None
