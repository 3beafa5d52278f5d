"""Typed, read-only results of queries: what the Python API returns and the CLI prints."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

from carddb import languages
from carddb.notes import NoteView
from carddb.rules.mentions import MentionedRule


@dataclass(frozen=True, slots=True)
class FaceView:
    """One face as shown in one language; oracle characteristics (cost, P/T) are language-free."""

    name: str
    english_name: str
    type_line: str
    text: str | None
    mana_cost: str | None
    mana_value: float | None
    power: str | None
    toughness: str | None
    loyalty: str | None
    defense: str | None
    flavor: str | None
    language: str
    """The language this face's name, type line and text are shown in."""
    colors: str = ""
    """Its colours, as letters in WUBRG order (from its mana cost, or its colour indicator: the
    back face of a double-faced card, 204)."""


@dataclass(frozen=True, slots=True)
class PrintingView:
    set_code: str
    set_name: str
    release_date: dt.date | None
    collector_number: str
    rarity: str | None
    languages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RulingView:
    published: dt.date | None
    text: str
    language: str
    source: str

    def date_in(self, language: str) -> str:
        """The date written the way ``language``'s locale writes dates."""
        if self.published is None:
            return ""
        return languages.by_tag(language).format_date(self.published)


@dataclass(frozen=True, slots=True)
class CardView:
    """A card looked up by name, shown in ``language`` where the data has it.

    ``fallback`` is True when some shown text had to come from English because the data has no
    translation of it in ``language``.
    """

    oracle_id: str
    name: str
    english_name: str
    layout: str
    language: str
    fallback: bool
    matched_name: str
    matched_language: str
    faces: tuple[FaceView, ...]
    printings: tuple[PrintingView, ...]
    rulings: tuple[RulingView, ...]
    rulings_language: str
    notes: tuple[NoteView, ...] = ()
    """Paragraphs of imported rulings and keyword pages about this card."""
    rules: tuple[MentionedRule, ...] = ()
    """The rules its rulings and notes mention, looked up in the stored Comprehensive Rules."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; ruling dates come as ISO dates and as the locale writes them."""
        data = asdict(self)
        for printing in data["printings"]:
            date = printing["release_date"]
            printing["release_date"] = date.isoformat() if date else None
        for ruling, view in zip(data["rulings"], self.rulings, strict=True):
            ruling["published"] = view.published.isoformat() if view.published else None
            ruling["date_text"] = view.date_in(self.language)
        return data


@dataclass(frozen=True, slots=True)
class LanguageCount:
    """A language present in the database, with how much text it has."""

    tag: str
    english_name: str
    native_name: str
    localizations: int
    printings: int
    rulings: int
