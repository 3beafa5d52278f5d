"""Typed SQLAlchemy 2 models. The schema itself is owned by the Alembic migrations in ``migrations/``;
a test checks that these models and the migrations never drift apart.

Layout, and why:

* ``cards`` holds one row per oracle identity (Scryfall's oracle id) and ``faces`` one row per face
  of it, with the English oracle characteristics.
* ``sets`` and ``printings``: a printing is one card in one set under one collector number.
* ``localizations`` holds face text as printed in one language (English included: the printed
  English text and flavor). Each distinct translation is stored once (``digest`` is a hash of its
  content) and ``printing_localizations`` links it to every printing that carries it, so variants
  between printings are kept without copying the common case. The languages a printing exists in
  are the languages of its linked localizations.
* ``rulings`` are stored once per card, not once per printing.
* ``*.name_norm`` columns hold :func:`carddb.text.normalize` of the name, filled at import, indexed.
* ``cards.mana_value`` is the card's mana value as search and sorting use it (the front face's, or
  the sum of a split card's halves), so ``mv<=3`` is a column test rather than a grouped subquery;
  ``faces.*_value`` are power, toughness and loyalty as numbers, so ``pow>=4`` compares numbers;
  ``cards.type_bits`` flags the card types and supertypes (see :mod:`carddb.characteristics`).
  Covering indexes on the face colours and stats let ``c:g`` or ``pow>=4`` read an index, not the table.
* ``search_documents`` holds, per card and language, the folded text that search matches (see
  :mod:`carddb.search.documents`); the full-text indexes over it are created by the migrations and
  are not part of these models (FTS5 tables on SQLite, trigram and bigram GIN indexes on PostgreSQL).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class CardSet(Base):
    __tablename__ = "sets"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    release_date: Mapped[dt.date | None] = mapped_column(Date)
    set_type: Mapped[str | None] = mapped_column(String(32))
    # The date of the source data (MTGJSON meta.date): an older file never overwrites newer data.
    data_date: Mapped[dt.date | None] = mapped_column(Date)
    # A digest of the source text the set was written from: the same text again is skipped.
    # Cleared when another source (Scryfall, a page) changes what the set's cards hold.
    source_digest: Mapped[str | None] = mapped_column(String(40))

    printings: Mapped[list[Printing]] = relationship(back_populates="card_set")


class Card(Base):
    __tablename__ = "cards"
    __table_args__ = (
        # c:/id: list their cards from these (narrow) rather than scanning the (wide) table
        Index("ix_cards_colors_id", "colors", "id"),
        Index("ix_cards_color_identity_id", "color_identity", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    oracle_id: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(Text)
    name_norm: Mapped[str] = mapped_column(Text, index=True)
    layout: Mapped[str] = mapped_column(String(32))
    mana_value: Mapped[float | None] = mapped_column(Float, index=True)
    type_bits: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The colours and colour identity of all the faces (carddb.characteristics.card_colors).
    colors: Mapped[str] = mapped_column(String(8), default="", server_default="")
    color_identity: Mapped[str] = mapped_column(String(8), default="", server_default="")
    data_date: Mapped[dt.date | None] = mapped_column(Date)
    # A digest of the faces and rulings the card was written from (None: a source without one).
    source_digest: Mapped[str | None] = mapped_column(String(40))

    faces: Mapped[list[Face]] = relationship(
        back_populates="card", order_by="Face.position", cascade="all, delete-orphan"
    )
    printings: Mapped[list[Printing]] = relationship(back_populates="card")
    legalities: Mapped[list[Legality]] = relationship(
        back_populates="card", order_by="Legality.format", cascade="all, delete-orphan"
    )
    rulings: Mapped[list[Ruling]] = relationship(
        back_populates="card", order_by="Ruling.position", cascade="all, delete-orphan"
    )


class Face(Base):
    __tablename__ = "faces"
    __table_args__ = (
        UniqueConstraint("card_id", "side"),
        Index("ix_faces_colors_card_id", "colors", "card_id"),
        Index("ix_faces_color_identity_card_id", "color_identity", "card_id"),
        Index("ix_faces_power_value_card_id", "power_value", "card_id"),
        Index("ix_faces_toughness_value_card_id", "toughness_value", "card_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(4))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(Text)
    name_norm: Mapped[str] = mapped_column(Text, index=True)
    mana_cost: Mapped[str | None] = mapped_column(Text)
    mana_value: Mapped[float | None] = mapped_column(Float)
    colors: Mapped[str] = mapped_column(String(8))
    color_identity: Mapped[str] = mapped_column(String(8))
    type_line: Mapped[str] = mapped_column(Text)
    oracle_text: Mapped[str | None] = mapped_column(Text)
    power: Mapped[str | None] = mapped_column(String(16))
    toughness: Mapped[str | None] = mapped_column(String(16))
    loyalty: Mapped[str | None] = mapped_column(String(16))
    defense: Mapped[str | None] = mapped_column(String(16))
    # power, toughness and loyalty as numbers where they are numbers ("*", "1+*": NULL), for search
    power_value: Mapped[float | None] = mapped_column(Float)
    toughness_value: Mapped[float | None] = mapped_column(Float)
    loyalty_value: Mapped[float | None] = mapped_column(Float)
    keywords: Mapped[list[str]] = mapped_column(JSON)
    # The type line and rules text folded for search (carddb.text.normalize), made at import:
    # the search documents are built from them (None: not folded yet, the builder folds).
    type_norm: Mapped[str | None] = mapped_column(Text)
    text_norm: Mapped[str | None] = mapped_column(Text)

    card: Mapped[Card] = relationship(back_populates="faces")
    localizations: Mapped[list[Localization]] = relationship(back_populates="face")


class Printing(Base):
    __tablename__ = "printings"
    __table_args__ = (UniqueConstraint("set_code", "collector_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    set_code: Mapped[str] = mapped_column(ForeignKey("sets.code", ondelete="CASCADE"))
    collector_number: Mapped[str] = mapped_column(String(32))
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    rarity: Mapped[str | None] = mapped_column(String(16))
    scryfall_id: Mapped[str | None] = mapped_column(String(64), index=True)
    multiverse_id: Mapped[int | None] = mapped_column(Integer, index=True)
    mtgjson_uuid: Mapped[str | None] = mapped_column(String(64))
    # Every identifier the source gives, per face side: {"a": {"scryfallId": ..., "multiverseId": ...}}
    identifiers: Mapped[dict[str, Any]] = mapped_column(JSON)
    data_date: Mapped[dt.date | None] = mapped_column(Date)
    # Facts of this printing, as the source gives them (None: not given, or stored before carddb
    # kept them). Lists are space-separated words: finishes "nonfoil foil etched", games
    # "paper mtgo arena", frame effects "showcase extendedart".
    artist: Mapped[str | None] = mapped_column(Text)
    finishes: Mapped[str | None] = mapped_column(String(64))
    games: Mapped[str | None] = mapped_column(String(64))
    border: Mapped[str | None] = mapped_column(String(16))
    frame: Mapped[str | None] = mapped_column(String(16))
    frame_effects: Mapped[str | None] = mapped_column(Text)
    promo: Mapped[bool | None] = mapped_column(Boolean)
    digital: Mapped[bool | None] = mapped_column(Boolean)
    # Printed before in another set (MTGJSON isReprint, Scryfall reprint).
    reprint: Mapped[bool | None] = mapped_column(Boolean)

    card_set: Mapped[CardSet] = relationship(back_populates="printings")
    card: Mapped[Card] = relationship(back_populates="printings")


class Localization(Base):
    __tablename__ = "localizations"
    __table_args__ = (
        Index("ix_localizations_face_id_language", "face_id", "language"),
        # lang:de lists the cards with a German translation: a range of this index
        Index("ix_localizations_language_face_id", "language", "face_id"),
        UniqueConstraint("face_id", "digest"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    face_id: Mapped[int] = mapped_column(ForeignKey("faces.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(Text)
    name_norm: Mapped[str] = mapped_column(Text, index=True)
    type_line: Mapped[str | None] = mapped_column(Text)
    text: Mapped[str | None] = mapped_column(Text)
    flavor: Mapped[str | None] = mapped_column(Text)
    # Hash of (language, name, type line, text, flavor): one row per distinct translation of a face.
    digest: Mapped[str] = mapped_column(String(40))
    # Where it came from: "printing" (a set file) or "scryfall" (a Scryfall file), carried by
    # printings, pruned when none carries it any more; a set file relinking its printings keeps
    # the Scryfall ones in languages it does not give. "page": read from a card page, which names
    # no printing (kept).
    origin: Mapped[str] = mapped_column(String(16), default="printing", server_default="printing")
    # The type line and text folded for search, made at import (as on faces).
    type_norm: Mapped[str | None] = mapped_column(Text)
    text_norm: Mapped[str | None] = mapped_column(Text)

    face: Mapped[Face] = relationship(back_populates="localizations")


class PrintingLocalization(Base):
    __tablename__ = "printing_localizations"
    # The primary key is the table (SQLite: no separate rowid b-tree to keep up on import).
    __table_args__ = {"sqlite_with_rowid": False}  # noqa: RUF012 - SQLAlchemy's declarative form

    printing_id: Mapped[int] = mapped_column(ForeignKey("printings.id", ondelete="CASCADE"), primary_key=True)
    localization_id: Mapped[int] = mapped_column(
        ForeignKey("localizations.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    multiverse_id: Mapped[int | None] = mapped_column(Integer)


class Legality(Base):
    """A card's status in one format (MTGJSON ``legalities``, Scryfall ``legalities``): ``legal``,
    ``banned`` or ``restricted``; a format the card is not legal in has no row. MTGJSON gives some
    per printing (Old School: the old printings only), so a card's rows are those of all its
    printings of one build; the status is part of the key, so they add up without a choice."""

    __tablename__ = "legalities"
    __table_args__ = (Index("ix_legalities_format_status_card_id", "format", "status", "card_id"),)

    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), primary_key=True)
    format: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), primary_key=True)

    card: Mapped[Card] = relationship(back_populates="legalities")


class Ruling(Base):
    __tablename__ = "rulings"
    __table_args__ = (UniqueConstraint("card_id", "digest"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(String(32))
    published: Mapped[dt.date | None] = mapped_column(Date)
    text: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)
    # Hash of (language, source, date, text): a ruling repeated on every printing is stored once.
    digest: Mapped[str] = mapped_column(String(40))
    # For a translated ruling: the digest of the ruling of the same card it translates (same date,
    # same place in the list), so a re-import of the original, which keeps its digest, keeps the link.
    original_digest: Mapped[str | None] = mapped_column(String(40))
    # The text folded for search, made at import (as on faces).
    text_norm: Mapped[str | None] = mapped_column(Text)

    card: Mapped[Card] = relationship(back_populates="rulings")


class SearchDocument(Base):
    """One card's searchable text in one language, folded with :func:`carddb.text.normalize`.

    ``language`` ``"en"`` holds the oracle text; other languages hold every distinct translation of
    the card's faces. Faces and rulings are joined with newlines. ``self_text`` is ``text`` with the
    card's own names replaced by ``~`` (for ``o:"~ deals"``); the ``*_bigrams`` columns hold the
    distinct two-character runs of the Chinese, Japanese and Korean text in the column they are named
    after, space-separated, so a two-character word is found through an index.
    """

    __tablename__ = "search_documents"
    __table_args__ = (UniqueConstraint("card_id", "language"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    language: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(Text)
    type_line: Mapped[str] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)
    self_text: Mapped[str] = mapped_column(Text)
    # The rules text with its reminder text (``fo:``); ``text`` has none (``o:``, as Scryfall).
    full_text: Mapped[str] = mapped_column(Text, default="", server_default="")
    rulings: Mapped[str] = mapped_column(Text)
    name_bigrams: Mapped[str] = mapped_column(Text)
    type_line_bigrams: Mapped[str] = mapped_column(Text)
    text_bigrams: Mapped[str] = mapped_column(Text)
    rulings_bigrams: Mapped[str] = mapped_column(Text)
    # A digest of the columns above: a document is rewritten only when it changes (None: unknown).
    digest: Mapped[str | None] = mapped_column(String(40))


class SearchPending(Base):
    """A card whose search documents must be rebuilt: recorded by each file's transaction, cleared
    when the import rebuilds them after its last file (see :mod:`carddb.search.index`)."""

    __tablename__ = "search_pending"

    card_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)


class TypeWord(Base):
    """A localized type word and the English type word it translates (``Kreatur`` → ``creature``),
    derived from the imported type lines by :mod:`carddb.search.vocabulary`."""

    __tablename__ = "type_words"

    # The key starts with the word: a query looks a word up in every language at once.
    word: Mapped[str] = mapped_column(Text, primary_key=True)
    language: Mapped[str] = mapped_column(String(32), primary_key=True)
    english: Mapped[str] = mapped_column(Text, primary_key=True)


class Rule(Base):
    """A numbered rule of the Comprehensive Rules (``702.35``, ``702.35a``; sections ``7.`` and
    ``702.`` are rules too), with its examples. One edition is stored at a time."""

    __tablename__ = "rules"

    number: Mapped[str] = mapped_column(String(16), primary_key=True)
    parent: Mapped[str | None] = mapped_column(String(16), index=True)
    text: Mapped[str] = mapped_column(Text)
    examples: Mapped[list[str]] = mapped_column(JSON)
    position: Mapped[int] = mapped_column(Integer)


class GlossaryEntry(Base):
    """A glossary entry of the Comprehensive Rules (``Madness`` → its definition and rule)."""

    __tablename__ = "glossary"

    term: Mapped[str] = mapped_column(Text, primary_key=True)
    term_norm: Mapped[str] = mapped_column(Text, index=True)
    text: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)


class RulesEdition(Base):
    """The edition of the Comprehensive Rules stored (one row): importing a newer one replaces it."""

    __tablename__ = "rules_editions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    effective: Mapped[dt.date] = mapped_column(Date)
    source: Mapped[str] = mapped_column(Text)
    rules: Mapped[int] = mapped_column(Integer)
    glossary: Mapped[int] = mapped_column(Integer)


class Note(Base):
    """A paragraph of a rulings or keyword page attached to what it is about: a keyword or game
    topic (``madness``, ``dice``, ``planechase``), a card, or both."""

    __tablename__ = "notes"
    __table_args__ = (UniqueConstraint("digest"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str | None] = mapped_column(String(64), index=True)
    card_id: Mapped[int | None] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    language: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)
    # Hash of (topic, card's oracle id, language, text): the same paragraph attached to the same
    # thing is stored once, whichever page and however many times it was imported.
    digest: Mapped[str] = mapped_column(String(40))
