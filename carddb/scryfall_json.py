"""Scryfall's JSON objects (https://scryfall.com/docs/api) made from what carddb holds.

Pure functions: each takes frozen values (the facts of a printing in one language, a ruling, a set,
an error) and returns a JSON-ready ``dict`` shaped like the Scryfall object of the same kind, so a
tool written for Scryfall reads carddb's output unchanged. ``carddb serve`` answers with them, and
the command line's ``--json`` prints them. Reading the facts from a database is
:mod:`carddb.serve.facts`'s job; nothing here touches one.

What carddb cannot know is left out rather than invented: no image, price or purchase URIs; a URI
field is only written when a ``base`` URL (the server's own) is given, and then points at that
server. The printing facts (legalities, artist, finishes, frame, border, promo and digital flags)
are optional fields of :class:`PrintingFacts`: ``None`` (the source did not say) leaves the key out.

**Ids.** A card object's ``id`` is the printing's Scryfall id, which MTGJSON and Scryfall's English
objects give. Scryfall gives each language of a printing an id of its own, which MTGJSON does not
carry: a printing in another language (or one without a Scryfall id) gets a stable UUID derived
from its set, collector number and language (:func:`derived_id`), which ``/cards/:id`` resolves as
well. Sets get a UUID derived from their code the same way.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from carddb import languages
from carddb.errors import UnknownLanguageError

__all__ = [
    "COLOR_ORDER",
    "DOUBLE_FACED_LAYOUTS",
    "PAGE_SIZE",
    "CardFacts",
    "ErrorFacts",
    "FaceFacts",
    "PrintingFacts",
    "RulingFacts",
    "SetFacts",
    "card_object",
    "catalog_object",
    "derived_id",
    "error_object",
    "language_of_code",
    "list_object",
    "ruling_object",
    "scryfall_code",
    "set_id",
    "set_object",
]

PAGE_SIZE = 175
"""Cards per page of a Scryfall search."""

COLOR_ORDER = "WUBRG"
"""Scryfall lists colours in WUBRG order."""

DOUBLE_FACED_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "meld", "double_faced_token", "reversible_card", "art_series"}
)
"""Layouts whose faces are printed on two sides of the card: Scryfall gives each face its own
colours and mana cost and the card none at the top level. Other multi-face layouts (split, flip,
adventure, …) share one side: the card object carries the colours and the joined costs."""

_NAMESPACE = uuid.UUID("8b3c0e7e-53d1-5a53-9f5e-2c2b2d6d1a61")
"""The namespace of carddb's derived UUIDs (a fixed random UUID: never change it, ids would change)."""


def derived_id(set_code: str, collector_number: str, language: str) -> str:
    """A stable UUID for a printing in a language that has no Scryfall id in carddb."""
    return str(uuid.uuid5(_NAMESPACE, f"card/{set_code.lower()}/{collector_number}/{language}"))


def set_id(set_code: str) -> str:
    """A stable UUID standing for a set's Scryfall id (which MTGJSON does not carry)."""
    return str(uuid.uuid5(_NAMESPACE, f"set/{set_code.lower()}"))


def scryfall_code(tag: str) -> str:
    """Scryfall's language code for a carddb language tag (``zh-Hans`` → ``zhs``, ``pt-BR`` → ``pt``);
    the tag itself for a language Scryfall has no code for."""
    try:
        return languages.by_tag(tag).scryfall_code or tag
    except UnknownLanguageError:
        return tag


def language_of_code(code: str) -> str:
    """The carddb tag of a Scryfall language code (``zhs`` → ``zh-Hans``); raises
    :class:`~carddb.errors.UnknownLanguageError` for a code no language has."""
    folded = code.strip().lower()
    for language in languages.KNOWN:
        if language.scryfall_code == folded:
            return language.tag
    return languages.resolve(code).tag


def _colors(letters: Iterable[str]) -> list[str]:
    found = set("".join(letters).upper())
    return [c for c in COLOR_ORDER if c in found]


@dataclass(frozen=True, slots=True)
class FaceFacts:
    """One face: its English oracle characteristics and, for a printing in another language, its
    printed name, type line and text (``None`` where the data has no translation)."""

    name: str
    mana_cost: str | None
    type_line: str | None
    oracle_text: str | None
    colors: str
    """The face's colour letters, as stored (``"UR"``)."""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    flavor_text: str | None = None
    printed_name: str | None = None
    printed_type_line: str | None = None
    printed_text: str | None = None


@dataclass(frozen=True, slots=True)
class PrintingFacts:
    """One printing: a card in a set under a collector number. The optional facts are ``None``
    until the database stores them (their keys are then left out of the card object)."""

    set_code: str
    set_name: str
    collector_number: str
    rarity: str | None
    released_at: dt.date | None
    scryfall_id: str | None = None
    """The English printing's Scryfall id."""
    set_type: str | None = None
    legalities: Mapping[str, str] | None = None
    """Format → ``legal``, ``not_legal``, ``restricted`` or ``banned`` (Scryfall's words)."""
    artist: str | None = None
    finishes: tuple[str, ...] | None = None
    promo: bool | None = None
    digital: bool | None = None
    reprint: bool | None = None
    border_color: str | None = None
    frame: str | None = None
    games: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What a Scryfall card object shows: a card (its oracle identity), one printing of it and the
    language the printing is in (a carddb tag)."""

    oracle_id: str
    name: str
    layout: str
    cmc: float | None
    color_identity: str
    keywords: tuple[str, ...]
    faces: tuple[FaceFacts, ...]
    printing: PrintingFacts
    language: str = "en"
    multiverse_ids: tuple[int, ...] = ()

    @property
    def id(self) -> str:
        """The Scryfall id of this printing in this language, or carddb's derived one."""
        if self.language == "en" and self.printing.scryfall_id:
            return self.printing.scryfall_id
        return derived_id(self.printing.set_code, self.printing.collector_number, self.language)


@dataclass(frozen=True, slots=True)
class RulingFacts:
    oracle_id: str
    source: str
    published: dt.date | None
    comment: str


@dataclass(frozen=True, slots=True)
class SetFacts:
    code: str
    name: str
    released_at: dt.date | None
    set_type: str | None
    card_count: int
    parent_set_code: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorFacts:
    """A Scryfall error: ``code`` is Scryfall's word (``not_found``, ``bad_request``…), ``status``
    the HTTP status, ``details`` the human explanation; ``warnings`` and ``type`` (``ambiguous``)
    as Scryfall adds them."""

    status: int
    code: str
    details: str
    type: str | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)


def _url(base: str, path: str, query: Mapping[str, str] | None = None) -> str:
    url = base.rstrip("/") + path
    return url + ("?" + urlencode(query) if query else "")


def _face_object(face: FaceFacts, *, with_colors: bool, localized: bool) -> dict[str, Any]:
    obj: dict[str, Any] = {"object": "card_face", "name": face.name, "mana_cost": face.mana_cost or ""}
    if face.type_line is not None:
        obj["type_line"] = face.type_line
    obj["oracle_text"] = face.oracle_text or ""
    if with_colors:
        obj["colors"] = _colors(face.colors)
    for key in ("power", "toughness", "loyalty", "defense"):
        value = getattr(face, key)
        if value is not None:
            obj[key] = value
    if face.flavor_text is not None:
        obj["flavor_text"] = face.flavor_text
    if localized:
        _add_printed(obj, face.printed_name, face.printed_type_line, face.printed_text)
    return obj


def _add_printed(obj: dict[str, Any], name: str | None, type_line: str | None, text: str | None) -> None:
    for key, value in (("printed_name", name), ("printed_type_line", type_line), ("printed_text", text)):
        if value is not None:
            obj[key] = value


def _joined(values: Sequence[str | None]) -> str | None:
    if all(v is None for v in values):
        return None
    return " // ".join(v or "" for v in values)


def card_object(card: CardFacts, base: str | None = None) -> dict[str, Any]:
    """A Scryfall card object (``object: "card"``) for one printing in one language.

    A single-faced card carries its characteristics at the top level; a card of several faces
    carries ``card_faces`` (each an ``object: "card_face"``) and its joined name and type line,
    with its colours and joined mana cost at the top level unless its faces are on two sides
    (:data:`DOUBLE_FACED_LAYOUTS`). ``printed_name``, ``printed_type_line`` and ``printed_text``
    are given for a printing in another language than English, where the data has them.
    """
    printing = card.printing
    localized = card.language != "en"
    obj: dict[str, Any] = {
        "object": "card",
        "id": card.id,
        "oracle_id": card.oracle_id,
        "multiverse_ids": list(card.multiverse_ids),
        "name": card.name,
        "lang": scryfall_code(card.language),
        "released_at": printing.released_at.isoformat() if printing.released_at else None,
        "layout": card.layout,
    }
    if base is not None:
        obj["uri"] = _url(base, f"/cards/{card.id}")
    faces = card.faces
    if len(faces) == 1:
        # the one face's characteristics at the top level, cmc after the mana cost
        fields = _face_object(faces[0], with_colors=True, localized=localized)
        del fields["object"], fields["name"]
        obj["mana_cost"] = fields.pop("mana_cost")
        obj["cmc"] = float(card.cmc or 0.0)
        obj.update(fields)
    else:
        two_sided = card.layout in DOUBLE_FACED_LAYOUTS
        if not two_sided:
            obj["mana_cost"] = " // ".join(f.mana_cost or "" for f in faces)
        obj["cmc"] = float(card.cmc or 0.0)
        type_line = _joined([f.type_line for f in faces])
        if type_line is not None:
            obj["type_line"] = type_line
        if not two_sided:
            obj["colors"] = _colors(f.colors for f in faces)
        if localized:
            names = [f.printed_name for f in faces]
            if all(names):
                obj["printed_name"] = " // ".join(n or "" for n in names)
        obj["card_faces"] = [_face_object(f, with_colors=two_sided, localized=localized) for f in faces]
    obj["color_identity"] = _colors(card.color_identity)
    obj["keywords"] = list(card.keywords)
    if printing.legalities is not None:
        obj["legalities"] = dict(printing.legalities)
    for key in ("games", "finishes"):
        value = getattr(printing, key)
        if value is not None:
            obj[key] = list(value)
    for key in ("promo", "reprint", "digital"):
        value = getattr(printing, key)
        if value is not None:
            obj[key] = value
    obj["set_id"] = set_id(printing.set_code)
    obj["set"] = printing.set_code.lower()
    obj["set_name"] = printing.set_name
    if printing.set_type is not None:
        obj["set_type"] = printing.set_type
    if base is not None:
        code = printing.set_code.lower()
        obj["set_uri"] = _url(base, f"/sets/{code}")
        obj["set_search_uri"] = _url(base, "/cards/search", {"order": "set", "q": f"e:{code}"})
        obj["rulings_uri"] = _url(base, f"/cards/{card.id}/rulings")
    obj["collector_number"] = printing.collector_number
    if printing.rarity is not None:
        obj["rarity"] = printing.rarity
    for key in ("artist", "border_color", "frame"):
        value = getattr(printing, key)
        if value is not None:
            obj[key] = value
    return obj


def list_object(
    data: Sequence[Mapping[str, Any]],
    *,
    total_cards: int | None = None,
    next_page: str | None = None,
    warnings: Sequence[str] = (),
) -> dict[str, Any]:
    """A Scryfall list object: ``has_more`` and ``next_page`` when there is a next page,
    ``total_cards`` for a list of cards found by a search."""
    obj: dict[str, Any] = {"object": "list"}
    if total_cards is not None:
        obj["total_cards"] = total_cards
    obj["has_more"] = next_page is not None
    if next_page is not None:
        obj["next_page"] = next_page
    obj["data"] = [dict(item) for item in data]
    if warnings:
        obj["warnings"] = list(warnings)
    return obj


def catalog_object(values: Sequence[str], uri: str | None = None) -> dict[str, Any]:
    """A Scryfall catalog object (autocomplete answers, lists of names or words)."""
    obj: dict[str, Any] = {"object": "catalog"}
    if uri is not None:
        obj["uri"] = uri
    obj["total_values"] = len(values)
    obj["data"] = list(values)
    return obj


def ruling_object(ruling: RulingFacts) -> dict[str, Any]:
    """A Scryfall ruling object: its ``source`` (``wotc`` or ``scryfall``), the date it was
    published (ISO), and its text as ``comment``."""
    return {
        "object": "ruling",
        "oracle_id": ruling.oracle_id,
        "source": ruling.source,
        "published_at": ruling.published.isoformat() if ruling.published else None,
        "comment": ruling.comment,
    }


def set_object(card_set: SetFacts, base: str | None = None) -> dict[str, Any]:
    """A Scryfall set object: lower-case ``code``, ``card_count`` the printings carddb holds."""
    code = card_set.code.lower()
    obj: dict[str, Any] = {
        "object": "set",
        "id": set_id(card_set.code),
        "code": code,
        "name": card_set.name,
        "released_at": card_set.released_at.isoformat() if card_set.released_at else None,
    }
    if card_set.set_type is not None:
        obj["set_type"] = card_set.set_type
    obj["card_count"] = card_set.card_count
    if card_set.parent_set_code is not None:
        obj["parent_set_code"] = card_set.parent_set_code.lower()
    if base is not None:
        obj["uri"] = _url(base, f"/sets/{quote(code)}")
        obj["search_uri"] = _url(base, "/cards/search", {"order": "set", "q": f"e:{code}"})
    return obj


def error_object(error: ErrorFacts) -> dict[str, Any]:
    """A Scryfall error object (``object: "error"``, ``code``, ``status``, ``details``)."""
    obj: dict[str, Any] = {
        "object": "error",
        "code": error.code,
        "status": error.status,
        "details": error.details,
    }
    if error.type is not None:
        obj["type"] = error.type
    if error.warnings:
        obj["warnings"] = list(error.warnings)
    return obj
