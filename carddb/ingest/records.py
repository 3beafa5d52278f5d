"""Plain records that every source format yields and the one loader writes.

Sources (MTGJSON, Scryfall, card pages) turn their files into these immutable values;
:mod:`carddb.ingest.loader` (with its subclass in :mod:`carddb.ingest.part_loader`) is the only
code that turns them into rows.

Why named tuples rather than frozen dataclasses: an import of the whole card pool makes about
450,000 of them in the worker process (:mod:`carddb.ingest.worker`) and sends them to the writer.
A tuple pickles and unpickles in C; a frozen slotted dataclass is rebuilt field by field in
Python, which cost the writer six times as long (0.9 s against 0.15 s per 100,000 translations,
measured on this project's machine), time the writer, the busier process, does not have. Derived
fields (a translation's digest and searchable name) are computed once, where the record is made
(:meth:`LocalizedFace.of`), so the writer never recomputes them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from carddb.text import normalize

_SEP = "\x1f"


def content_digest(*parts: str | None) -> str:
    """A stable key for a record's content (SHA-1 of its fields)."""
    return hashlib.sha1(_SEP.join([p or "" for p in parts]).encode()).hexdigest()


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """:func:`carddb.text.normalize`, cached: reprints repeat the same names."""
    return normalize(name)


@lru_cache(maxsize=65536)
def _fold_type(type_line: str) -> str:
    return normalize(type_line)


def fold_type(type_line: str | None) -> str | None:
    """A type line folded for search (cached: type lines repeat across cards), or None."""
    return _fold_type(type_line) if type_line else None


def fold(text: str | None) -> str | None:
    """A text folded for search (:func:`carddb.text.normalize`), or None. Folded where records are
    made, once per distinct text, and stored beside it: the search documents are made of the
    folded texts, and rebuilding them must not fold everything again."""
    return normalize(text) if text else None


class SetRecord(NamedTuple):
    code: str
    name: str
    release_date: dt.date | None = None
    set_type: str | None = None


class FaceRecord(NamedTuple):
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
    # The type line and rules text folded for search (see :func:`fold`; :meth:`folded` sets them).
    type_norm: str | None = None
    text_norm: str | None = None

    def folded(self) -> FaceRecord:
        """This face with its folded type line and rules text."""
        return self._replace(type_norm=fold_type(self.type_line), text_norm=fold(self.oracle_text))


class CardRecord(NamedTuple):
    """One oracle identity. ``digest`` (made by :meth:`of`; empty when a source gives none) covers
    the faces and the rulings the source gives with it: a stored card of the same digest and
    date is not written again."""

    oracle_id: str
    name: str
    layout: str
    faces: tuple[FaceRecord, ...]
    digest: str = ""
    legalities: tuple[tuple[str, str], ...] | None = None
    """(format, status) pairs, status ``legal``, ``banned`` or ``restricted``, of this printing
    (None: the source gives none)."""

    @classmethod
    def of(
        cls,
        oracle_id: str,
        name: str,
        layout: str,
        faces: tuple[FaceRecord, ...],
        rulings: tuple[RulingRecord, ...],
        legalities: tuple[tuple[str, str], ...] | None = None,
    ) -> CardRecord:
        # legalities are left out: MTGJSON gives some per printing (Old School), and a card must
        # not be written again for each set that differs
        content = repr((name, layout, tuple(tuple(face) for face in faces), tuple(tuple(r) for r in rulings)))
        digest = hashlib.sha1(content.encode("utf-8", "surrogatepass")).hexdigest()
        return cls(oracle_id, name, layout, faces, digest, legalities)


class LocalizedFace(NamedTuple):
    """A face's text as printed in one language (a canonical language tag).

    ``digest`` identifies the content (one stored row per distinct translation of a face);
    ``name_norm``, ``type_norm`` and ``text_norm`` are the name, type line and text folded for
    search: made with :meth:`of`, which computes them where the record is made, so a reader
    running in another process does that work, not the writer.
    """

    side: str
    language: str
    name: str
    type_line: str | None
    text: str | None
    flavor: str | None
    multiverse_id: int | None
    digest: str
    name_norm: str
    type_norm: str | None
    text_norm: str | None

    @classmethod
    def of(
        cls,
        side: str,
        language: str,
        name: str,
        type_line: str | None = None,
        text: str | None = None,
        flavor: str | None = None,
        multiverse_id: int | None = None,
    ) -> LocalizedFace:
        return cls(
            side,
            language,
            name,
            type_line,
            text,
            flavor,
            multiverse_id,
            content_digest(language, name, type_line, text, flavor),
            normalize_name(name),
            fold_type(type_line),
            fold(text),
        )


class RulingRecord(NamedTuple):
    """A ruling; ``digest`` (a stable key for its content) and ``text_norm`` (the text folded for
    search) are computed by :meth:`of`."""

    published: dt.date | None
    text: str
    language: str
    source: str
    digest: str
    text_norm: str

    @classmethod
    def of(
        cls, published: dt.date | None, text: str, language: str = "en", source: str = "wotc"
    ) -> RulingRecord:
        date = published.isoformat() if published else None
        digest = content_digest(language, source, date, text)
        return cls(published, text, language, source, digest, normalize(text))


LEGALITY_STATUSES = ("legal", "banned", "restricted")
"""The statuses stored (a format a card is not legal in has no row)."""


def legalities_of(value: object) -> tuple[tuple[str, str], ...] | None:
    """MTGJSON's or Scryfall's ``legalities`` object as sorted (format, status) pairs: formats in
    lowercase, statuses ``legal``/``banned``/``restricted`` (``Legal``, ``not_legal``… folded or
    left out); None when the source gives no such object."""
    if not isinstance(value, Mapping):
        return None
    pairs = []
    for name, status in value.items():
        if isinstance(name, str) and isinstance(status, str) and 0 < len(name) <= 32:
            folded = status.strip().lower().replace(" ", "_")
            if folded in LEGALITY_STATUSES:
                pairs.append((name.strip().lower(), folded))
    return tuple(sorted(pairs))


class PrintingFacts(NamedTuple):
    """What a printing itself is (None: the source does not say). Lists are space-separated
    words in the source's spelling: ``finishes`` ``"nonfoil foil"``, ``games`` ``"paper mtgo"``."""

    artist: str | None = None
    finishes: str | None = None
    games: str | None = None
    border: str | None = None
    frame: str | None = None
    frame_effects: str | None = None
    promo: bool | None = None
    digital: bool | None = None
    reprint: bool | None = None


def words_of(value: object, limit: int = 64) -> str | None:
    """A source's list of short words (``["nonfoil", "foil"]``) as one space-separated string
    (lowercase, at most ``limit`` characters), None when it is not such a list."""
    if not isinstance(value, list | tuple):
        return None
    words = [w.strip().lower() for w in value if isinstance(w, str) and w.strip() and " " not in w.strip()]
    joined = " ".join(dict.fromkeys(words))
    return joined[:limit] if len(joined) > limit else joined


def flag_of(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def short_of(value: object, limit: int = 16) -> str | None:
    return value.strip().lower()[:limit] if isinstance(value, str) and value.strip() else None


class PrintingRecord(NamedTuple):
    set_code: str
    collector_number: str
    card: CardRecord
    rarity: str | None = None
    scryfall_id: str | None = None
    multiverse_id: int | None = None
    mtgjson_uuid: str | None = None
    identifiers: Mapping[str, Mapping[str, str]] = {}
    localizations: tuple[LocalizedFace, ...] = ()
    rulings: tuple[RulingRecord, ...] = ()
    facts: PrintingFacts = PrintingFacts()


class SetBatch(NamedTuple):
    """One whole set as a source gives it: the unit the loader writes (and prunes) at once."""

    set: SetRecord
    printings: tuple[PrintingRecord, ...]
    data_date: dt.date | None = None
    # Localized entries read from the source (before de-duplication), for the import summary.
    localized_entries: int = 0
    ruling_entries: int = 0
    # A digest of the set's source text (see carddb.ingest.mtgjson.RawSet): a set stored with the
    # same digest is what this batch would write again.
    digest: str | None = None


class PrintingsBatch(NamedTuple):
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


class CardRulings(NamedTuple):
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
