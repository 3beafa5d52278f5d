"""Scryfall files: bulk card files (``default-cards``, ``all-cards``, ``oracle-cards``…), API list
pages (``{"object": "list", "data": [...]}``) and the ``rulings`` bulk file, streamed into the same
rows an MTGJSON import fills.

**Same keys as MTGJSON.** A card is keyed by its ``oracle_id`` (MTGJSON's
``identifiers.scryfallOracleId``) and a printing by its set code upper-cased and its collector
number, so a Scryfall import and an MTGJSON import of the same printings meet in the same rows,
whichever comes first. An oracle id the database does not know joins the one stored card with the
same English name, with a warning (a card MTGJSON keyed by name, or an oracle id Scryfall changed).

**A printing per language.** Scryfall gives each language of a printing as its own card object
with the same set and collector number (its ``name``, ``oracle_text`` and ``type_line`` are the
English oracle ones; ``printed_name``, ``printed_type_line`` and ``printed_text`` the localized
ones). Here each becomes a translation of the card's faces linked to that one printing: the English
object gives the English text (oracle text and the printing's flavor text; Scryfall has no printed
English text) and the printing's Scryfall and multiverse ids; a localized object gives its
language's translation and the multiverse id of the link. A printing that already carries a
translation in that language with the same name (MTGJSON's ``foreignData``, or an earlier import)
gets no second one.

**Part of a set, never the whole.** A page or a run of a bulk file holds part of a set, so the
import only adds (:meth:`carddb.ingest.part_loader.PartLoader.write_printings`): no printing or
translation is removed, a stored set or printing is only filled in, and ``sets.data_date`` (which
says a whole set of that date is stored) is left to whole-set sources.

**Dates.** Scryfall data carries no date inside, but a bulk file is published under a name that
holds its time (``default-cards-20240812090458.json``): that date, when the name has it, is the
data's date. A card stored from data at least as new as that date is kept; an older or undated
stored card is replaced. A file without such a name (an API page, a renamed file) is undated and
only adds what is missing: an undated card replaces only an undated one, so a page saved years ago
never undoes a dated MTGJSON or Scryfall bulk import (see
:func:`carddb.ingest.part_loader.dated_not_older`).

**What is not a card.** Tokens, double-faced tokens, emblems and art-series cards
(:data:`SKIPPED_LAYOUTS`) are counted and left out: MTGJSON lists them apart from a set's cards (the
importer reads ``cards`` only), so they are not cards here either, and their oracle ids would
otherwise be cards that no MTGJSON import ever joins. Every other layout (planes, schemes,
vanguards, …) is a card, as in MTGJSON.

**Rulings.** The rulings file gives ``oracle_id``, ``source`` (``wotc`` or ``scryfall``),
``published_at`` and ``comment``; each card's stored rulings of a source are replaced by the file's
(:meth:`carddb.ingest.part_loader.PartLoader.write_card_rulings`), and rulings for cards the
database does not hold are counted and reported.

**Errors.** Broken JSON is a :class:`~carddb.errors.MalformedJSONError` with the line and column;
well-formed JSON that is not what a Scryfall file holds (an object that is not a card where cards
are expected, a card without an oracle id, an unknown language code) is a :class:`NotScryfallError`
naming the object's index (``data[17]``, ``[17]``). Either rolls the whole file back.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from carddb import languages
from carddb.errors import SourceError, UnknownLanguageError
from carddb.ingest.json_stream import JSONStream
from carddb.ingest.records import (
    CardRecord,
    CardRulings,
    FaceRecord,
    LocalizedFace,
    PrintingFacts,
    PrintingRecord,
    PrintingsBatch,
    RulingRecord,
    SetRecord,
    flag_of,
    iso_date,
    legalities_of,
    short_of,
    words_of,
)
from carddb.ingest.sources import open_tracked

__all__ = [
    "SKIPPED_LAYOUTS",
    "NotScryfallError",
    "ScryfallReader",
    "bulk_file_date",
    "read_scryfall",
]

SKIPPED_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series"})
"""Layouts MTGJSON does not list among a set's cards: counted and left out."""

OBJECT_LIMIT = 4 << 20
"""The longest card or ruling object accepted, in characters (real ones are under 20,000)."""
CARDS_PER_BATCH = 1000
"""Card objects written per loader batch: memory stays flat, statements stay big."""
RULINGS_PER_BATCH = 5000

_COLOR_ORDER = "WUBRG"
_SIDES = "abcdefgh"
_SYMBOL = re.compile(r"\{([^}]*)\}")
# Scryfall's bulk files are published as <type>-<YYYYMMDDhhmmss>.json (rulings-20240812090458.json).
_BULK_NAME = re.compile(r"-(\d{4})(\d{2})(\d{2})\d{6}\.json(?:\.(?:xz|gz|bz2))?$", re.IGNORECASE)
_BY_CODE = {lang.scryfall_code: lang for lang in languages.KNOWN if lang.scryfall_code}
_CODES = ", ".join(sorted(_BY_CODE))
_SOURCE_WIDTH = 32  # the width of rulings.source

Kind = Literal["card", "ruling"]


class NotScryfallError(SourceError):
    """Well-formed JSON that is not what a Scryfall file holds where it holds it: an object that is
    not a card (or a ruling, in a rulings file), a card without an oracle id, set or collector
    number, an unknown language code. The position is the object's index (``data[17]``)."""


def bulk_file_date(path: Path) -> dt.date | None:
    """The date in a Scryfall bulk file's published name (``all-cards-20240812090458.json``)."""
    match = _BULK_NAME.search(path.name)
    if match is None:
        return None
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


class ScryfallReader:
    """Reads one Scryfall file as a stream of :class:`PrintingsBatch` (card files) or tuples of
    :class:`CardRulings` (the rulings file); the first object decides which the file is.

    Counters (``objects``, ``localized``, ``skipped``, ``ruling_entries``) and ``warnings`` say
    what was read, for the import summary.
    """

    def __init__(self, path: Path, on_progress: Callable[[int], None] | None = None) -> None:
        self.path = path
        self.on_progress = on_progress
        self.data_date = bulk_file_date(path)
        self.kind: Kind | None = None
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self.objects = 0
        self.localized = 0
        self.languages: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.ruling_entries = 0
        self.unnamed_translations = 0
        # One card record per oracle id: a bulk file repeats the card for every printing and language.
        self._cards: dict[str, CardRecord] = {}

    def warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(f"{self.path.name}: {message}")  # the summary carries it

    # -- the stream --------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[PrintingsBatch | tuple[CardRulings, ...]]:
        printings: list[PrintingRecord] = []
        sets: dict[str, SetRecord] = {}
        rulings: list[CardRulings] = []
        for where, obj in self.raw_objects():
            self.objects += 1
            if self._kind(where, obj) == "ruling":
                entry = self._ruling(where, obj)
                if rulings and rulings[-1].oracle_id == entry.oracle_id:
                    entry = CardRulings(entry.oracle_id, rulings.pop().rulings + entry.rulings)
                rulings.append(entry)
                if len(rulings) >= RULINGS_PER_BATCH:
                    yield tuple(rulings)
                    rulings = []
                continue
            found = self._printing(where, obj)
            if found is None:
                continue
            printing, card_set = found
            printings.append(printing)
            before = sets.get(card_set.code)
            if before is None or _earlier(card_set.release_date, before.release_date):
                sets[card_set.code] = card_set
            if len(printings) >= CARDS_PER_BATCH:
                yield PrintingsBatch(tuple(sets.values()), tuple(printings), self.data_date)
                printings, sets = [], {}
        if printings:
            yield PrintingsBatch(tuple(sets.values()), tuple(printings), self.data_date)
        if rulings:
            yield tuple(rulings)

    def raw_objects(self) -> Iterator[tuple[str, Any]]:
        """Each element of the bulk array (``[17]``) or of the list page's ``data`` (``data[17]``),
        parsed (each at most :data:`OBJECT_LIMIT` characters), with where it was found."""
        with open_tracked(self.path, self.on_progress) as reader:
            stream = JSONStream(self.path, reader)
            first = stream.peek()
            if first == "[":
                yield from self._elements(stream, "")
            elif first == "{":
                found = False
                for key in stream.members():
                    if key == "data":
                        if stream.peek() != "[":
                            raise NotScryfallError(
                                self.path, "the list page's 'data' is not a list of cards", stream.where()
                            )
                        found = True
                        yield from self._elements(stream, "data")
                    else:
                        stream.skip()
                if not found:
                    raise NotScryfallError(self.path, "a Scryfall list page without 'data'")
            else:
                raise NotScryfallError(self.path, "not a Scryfall bulk array or list page", stream.where())
            stream.finish()

    def _elements(self, stream: JSONStream, where: str) -> Iterator[tuple[str, Any]]:
        for position in stream.elements():
            yield f"{where}[{position}]", stream.value(OBJECT_LIMIT)

    def _kind(self, where: str, obj: Any) -> Kind:
        """``card`` or ``ruling``; the first object decides what the file holds, the others must agree."""
        if not isinstance(obj, dict):
            raise NotScryfallError(
                self.path, f"expected a Scryfall card or ruling object, found {_shape(obj)}", where
            )
        declared = obj.get("object", "card")
        if declared not in ("card", "ruling"):
            raise NotScryfallError(
                self.path, f'not a Scryfall card or ruling object ("object": {json_text(declared)})', where
            )
        kind: Kind = "card" if declared == "card" else "ruling"
        if self.kind is None:
            self.kind = kind
        elif kind != self.kind:
            raise NotScryfallError(
                self.path,
                f"a {kind} object in a file of {self.kind}s (its first object was a {self.kind})",
                where,
            )
        return kind

    # -- cards -------------------------------------------------------------------------------------
    def _printing(self, where: str, obj: Mapping[str, Any]) -> tuple[PrintingRecord, SetRecord] | None:
        name = obj.get("name")
        if not isinstance(name, str) or not name:
            raise NotScryfallError(self.path, "card object has no name", where)
        layout = str(obj.get("layout") or "normal")
        if layout in SKIPPED_LAYOUTS:
            self.skipped[layout] += 1
            return None
        raw_faces = [face for face in _sequence(obj.get("card_faces")) if isinstance(face, dict)]
        oracle_id = _opt_str(obj.get("oracle_id")) or next(
            (str(f["oracle_id"]) for f in raw_faces if f.get("oracle_id")), None
        )
        if oracle_id is None:
            raise NotScryfallError(
                self.path, f"card {name!r}{_id_note(obj)} has no oracle_id (nor have its card_faces)", where
            )
        set_code = _opt_str(obj.get("set"))
        number = _opt_str(obj.get("collector_number"))
        if set_code is None or number is None:
            raise NotScryfallError(
                self.path, f"card {name!r}{_id_note(obj)} has no set or collector_number", where
            )
        language = self._language(where, name, obj.get("lang", "en"))
        card = self._cards.get(oracle_id)
        if card is None:
            card = CardRecord(
                oracle_id=oracle_id,
                name=name,
                layout=layout,
                faces=_faces(obj, raw_faces),
                legalities=legalities_of(obj.get("legalities")),
            )
            self._cards[oracle_id] = card
        multiverse_ids = [int(m) for m in _sequence(obj.get("multiverse_ids")) if isinstance(m, int | float)]
        localizations = self._localizations(obj, raw_faces, card, language, multiverse_ids)
        self.languages[language] += 1
        english = language == "en"
        scryfall_id = _opt_str(obj.get("id"))
        identifiers: dict[str, dict[str, str]] = {}
        if english:
            for position, face in enumerate(card.faces):
                ids = {"scryfallId": scryfall_id, "scryfallOracleId": oracle_id}
                multiverse = _nth(multiverse_ids, position)
                ids["multiverseId"] = str(multiverse) if multiverse is not None else None
                identifiers[face.side] = {k: v for k, v in ids.items() if v is not None}
        printing = PrintingRecord(
            set_code=set_code.upper(),
            collector_number=number,
            card=card,
            rarity=_opt_str(obj.get("rarity")),
            scryfall_id=scryfall_id if english else None,
            multiverse_id=_nth(multiverse_ids, 0) if english else None,
            identifiers=identifiers,
            localizations=localizations,
            facts=_facts(obj, raw_faces),
        )
        card_set = SetRecord(
            code=set_code.upper(),
            name=_opt_str(obj.get("set_name")) or set_code.upper(),
            release_date=iso_date(obj.get("released_at")),
            set_type=_opt_str(obj.get("set_type")),
        )
        return printing, card_set

    def _language(self, where: str, name: str, value: object) -> str:
        """The canonical tag of a Scryfall ``lang`` code (``zhs`` → ``zh-Hans``, ``pt`` → ``pt-BR``)."""
        code = value.strip().lower() if isinstance(value, str) else ""
        language = _BY_CODE.get(code)
        if language is None and code:
            try:
                language = languages.resolve(code)
            except UnknownLanguageError:
                language = None
        if language is None:
            raise NotScryfallError(
                self.path,
                f"card {name!r} has an unknown language code {json_text(value)}; "
                f"Scryfall's codes are {_CODES}",
                where,
            )
        return language.tag

    def _localizations(
        self,
        obj: Mapping[str, Any],
        raw_faces: Sequence[Mapping[str, Any]],
        card: CardRecord,
        language: str,
        multiverse_ids: Sequence[int],
    ) -> tuple[LocalizedFace, ...]:
        """The printing's text in its language, one entry per face of the card."""
        sources: Sequence[Mapping[str, Any]] = raw_faces if len(raw_faces) == len(card.faces) > 1 else [obj]
        found: list[LocalizedFace] = []
        for position, (face, source) in enumerate(zip(card.faces, sources, strict=False)):
            flavor = _opt_str(source.get("flavor_text")) or (
                _opt_str(obj.get("flavor_text")) if position == 0 else None
            )
            multiverse = _nth(multiverse_ids, position)
            if language == "en":
                found.append(
                    LocalizedFace.of(
                        side=face.side,
                        language="en",
                        name=face.name,
                        type_line=face.type_line or None,
                        text=face.oracle_text,
                        flavor=flavor,
                        multiverse_id=multiverse,
                    )
                )
                continue
            printed = _opt_str(source.get("printed_name")) or _part(
                obj.get("printed_name"), position, sources
            )
            if printed is None:
                self.unnamed_translations += 1
                continue
            found.append(
                LocalizedFace.of(
                    side=face.side,
                    language=language,
                    name=printed,
                    type_line=_opt_str(source.get("printed_type_line")),
                    text=_opt_str(source.get("printed_text")),
                    flavor=flavor,
                    multiverse_id=multiverse,
                )
            )
        if language != "en":
            self.localized += 1
        return tuple(found)

    # -- rulings -----------------------------------------------------------------------------------
    def _ruling(self, where: str, obj: Mapping[str, Any]) -> CardRulings:
        oracle_id = _opt_str(obj.get("oracle_id"))
        if oracle_id is None:
            raise NotScryfallError(self.path, "ruling has no oracle_id", where)
        comment = obj.get("comment")
        if not isinstance(comment, str) or not comment.strip():
            raise NotScryfallError(self.path, f"ruling for oracle id {oracle_id} has no comment", where)
        source = obj.get("source", "wotc")
        if not isinstance(source, str) or not source or len(source) > _SOURCE_WIDTH:
            raise NotScryfallError(
                self.path,
                f"ruling for oracle id {oracle_id} has an invalid source {json_text(source)}",
                where,
            )
        published = iso_date(obj.get("published_at"))
        if published is None and obj.get("published_at"):
            self.warn("ruling-date", f"rulings with an unreadable published_at were stored undated ({where})")
        self.ruling_entries += 1
        return CardRulings(oracle_id, (RulingRecord.of(published=published, text=comment, source=source),))


def _faces(obj: Mapping[str, Any], raw_faces: Sequence[Mapping[str, Any]]) -> tuple[FaceRecord, ...]:
    """The card's faces with their English oracle characteristics, in MTGJSON's terms: sides
    ``a``, ``b``…; a face's mana value is its own cost's (MTGJSON's ``faceManaValue``; 0 for a back
    face without a cost); a face without colours of its own (split, adventure) takes those of its
    cost, else the card's; the card's keywords go to the faces whose text names them."""
    card_colors = _colors(obj.get("colors"))
    identity = _colors(obj.get("color_identity"))
    keywords = tuple(str(k) for k in _sequence(obj.get("keywords")))
    if len(raw_faces) < 2:
        cmc = obj.get("cmc")
        return (
            FaceRecord(
                side="a",
                name=str(obj["name"]),
                type_line=str(obj.get("type_line") or ""),
                mana_cost=_opt_str(obj.get("mana_cost")),
                mana_value=float(cmc) if isinstance(cmc, int | float) else None,
                colors=card_colors,
                color_identity=identity,
                oracle_text=_opt_str(obj.get("oracle_text")),
                power=_opt_str(obj.get("power")),
                toughness=_opt_str(obj.get("toughness")),
                loyalty=_opt_str(obj.get("loyalty")),
                defense=_opt_str(obj.get("defense")),
                keywords=keywords,
            ).folded(),
        )
    faces = []
    for side, raw in zip(_SIDES, raw_faces, strict=False):
        cost = _opt_str(raw.get("mana_cost"))
        cmc = raw.get("cmc")
        text = _opt_str(raw.get("oracle_text"))
        own_colors = raw.get("colors")
        colors = _colors(own_colors) if isinstance(own_colors, list) else (_cost_colors(cost) or card_colors)
        faces.append(
            FaceRecord(
                side=side,
                name=str(raw.get("name") or obj["name"]),
                type_line=str(raw.get("type_line") or ""),
                mana_cost=cost,
                mana_value=float(cmc) if isinstance(cmc, int | float) else cost_value(cost),
                colors=colors,
                color_identity=identity,
                oracle_text=text,
                power=_opt_str(raw.get("power")),
                toughness=_opt_str(raw.get("toughness")),
                loyalty=_opt_str(raw.get("loyalty")),
                defense=_opt_str(raw.get("defense")),
                keywords=tuple(k for k in keywords if text and k.lower() in text.lower()),
            ).folded()
        )
    return tuple(faces)


def cost_value(cost: str | None) -> float:
    """The mana value of a mana cost: numbers count as themselves, ``X``/``Y``/``Z`` as 0, a
    half-mana symbol as ½, ``{2/W}`` as 2, any other symbol (coloured, hybrid, Phyrexian,
    colourless, snow) as 1."""
    total = 0.0
    for symbol in _SYMBOL.findall(cost or ""):
        symbol = symbol.upper()
        first = symbol.split("/")[0]
        if first.isdigit():
            total += int(first)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif symbol.startswith("H") or symbol == "½":
            total += 0.5
        elif symbol != "∞":
            total += 1
    return total


def _cost_colors(cost: str | None) -> str:
    present = {ch for symbol in _SYMBOL.findall(cost or "") for ch in symbol.upper() if ch in _COLOR_ORDER}
    return "".join(c for c in _COLOR_ORDER if c in present)


def _colors(value: object) -> str:
    present = {str(c) for c in _sequence(value)}
    return "".join(c for c in _COLOR_ORDER if c in present)


def _sequence(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _opt_str(value: object) -> str | None:
    if value is None or value == "":
        return None
    return str(value)


def _part(name: object, position: int, faces: Sequence[object]) -> str | None:
    """Face ``position``'s part of a card-level ``A // B`` name, when a multi-face object names its
    faces only there."""
    if not isinstance(name, str) or len(faces) < 2:
        return None
    parts = [part.strip() for part in name.split("//")]
    return (parts[position] or None) if len(parts) == len(faces) else None


def _nth(values: Sequence[int], position: int) -> int | None:
    """The ``position``-th multiverse id (one per face on a double-faced card), else the first."""
    if position < len(values):
        return values[position]
    return values[0] if values else None


def _earlier(a: dt.date | None, b: dt.date | None) -> bool:
    return a is not None and (b is None or a < b)


def _shape(value: object) -> str:
    return "a list" if isinstance(value, list) else f"the {type(value).__name__} {json_text(value)}"


def json_text(value: object) -> str:
    """A value as it would read in JSON, shortened."""
    text = '"' + value + '"' if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _id_note(obj: Mapping[str, Any]) -> str:
    scryfall_id = obj.get("id")
    return f" (Scryfall id {scryfall_id})" if isinstance(scryfall_id, str) else ""


def read_scryfall(path: Path, on_progress: Callable[[int], None] | None = None) -> ScryfallReader:
    """Open a Scryfall file for streaming: iterate the result for its batches."""
    if not path.is_file():
        raise SourceError(path, "not a file")
    return ScryfallReader(path, on_progress)


def _facts(obj: Mapping[str, Any], raw_faces: list[dict[str, Any]]) -> PrintingFacts:
    """What a Scryfall printing is: artist, finishes, games, border, frame, promo, digital, reprint."""
    artist = obj.get("artist")
    if not isinstance(artist, str):
        artist = next((f["artist"] for f in raw_faces if isinstance(f.get("artist"), str)), None)
    finishes = words_of(obj.get("finishes"))
    if finishes is None and ("foil" in obj or "nonfoil" in obj):  # before Scryfall's finishes (2021)
        finishes = " ".join(name for name in ("nonfoil", "foil") if obj.get(name) is True)
    return PrintingFacts(
        artist=artist[:500] if artist else None,
        finishes=finishes,
        games=words_of(obj.get("games")),
        border=short_of(obj.get("border_color")),
        frame=short_of(obj.get("frame")),
        frame_effects=words_of(obj.get("frame_effects"), 200),
        promo=flag_of(obj.get("promo")),
        digital=flag_of(obj.get("digital")),
        reprint=flag_of(obj.get("reprint")),
    )
