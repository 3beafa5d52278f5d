"""Search documents: per card and language, the folded text that search matches, kept in step with
the cards by the importer (:mod:`carddb.search.index` rebuilds those of the cards an import
touched, once, after its last file).

Why a table of its own rather than matching the source columns:

* everything is folded once, at import, with :func:`carddb.text.normalize` (case, width, accents
  on Latin letters, typographic quotes and dashes, Japanese reading hints), so a query folds its
  value the same way and compares plainly, in every language and every text field;
* one row per card and language, whatever the number of faces, printings and variant
  translations, so the full-text indexes (FTS5 on SQLite, ``pg_trgm`` on PostgreSQL, created by the
  migrations) stay small and a match is a card;
* Chinese, Japanese and Korean have no spaces and a two-character word (稲妻) is shorter than a
  trigram, so their text is also stored as two-character runs (:func:`bigrams`), indexed as words;
* a document's id is ``card_id * 32 + slot``, ``slot`` its language's place in :data:`SLOTS`, so
  a full-text index answers "which cards, in which languages" from its own row ids, without
  reading a single document (:func:`document_id`);
* a document carries a digest of its content, so that rebuilding the documents of a card whose
  text did not change writes nothing (every write re-tokenizes the document for five full-text
  indexes).

Reading and writing are apart: :func:`document_changes` reads the cards and the stored digests
and says what to write (it may run in another process, on its own connection);
:func:`carddb.search.index.write_document_changes` writes it in the caller's transaction.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, case, select

from carddb.characteristics import without_reminder
from carddb.db.lists import among
from carddb.db.models import Card, Face, Localization, Ruling, SearchDocument
from carddb.text import normalize

__all__ = [
    "FIELDS",
    "FULLTEXT_TABLES",
    "INSERT_TRIGGER",
    "SLOTS",
    "SLOT_BITS",
    "DocumentChanges",
    "bigrams",
    "build_documents",
    "cjk_runs",
    "document_changes",
    "document_id",
]

FIELDS = ("name", "type_line", "text", "rulings")
"""The text fields of a document; each has a ``<field>_bigrams`` column beside it."""

FULLTEXT_TABLES: dict[str, tuple[str, ...]] = {
    **{f"search_{field}": (field,) for field in FIELDS},
    "search_bigrams": tuple(f"{field}_bigrams" for field in FIELDS),
}
"""SQLite: the FTS5 tables over the documents (migration 0002) and the columns each indexes."""
INSERT_TRIGGER = "fts_search_documents_insert"
"""SQLite: the trigger that adds a new document to the FTS5 tables (migration 0002)."""

ENGLISH = "en"

SLOTS = (
    "en",
    "de",
    "es",
    "fr",
    "it",
    "ja",
    "ko",
    "pt-BR",
    "ru",
    "zh-Hans",
    "zh-Hant",
    "ph",
    "he",
    "la",
    "grc",
    "ar",
    "sa",
    "qya",
)
"""Language tags in their document id slot. Stored ids depend on it: append, never reorder."""
SLOT_BITS = 5
"""A document id keeps its language slot in its low bits: up to 32 languages."""
_SLOT = {tag: slot for slot, tag in enumerate(SLOTS)}


def document_id(card_id: int, language: str) -> int | None:
    """The id of a card's document in ``language``; None for a language without a slot."""
    slot = _SLOT.get(language)
    return None if slot is None else (card_id << SLOT_BITS) | slot


# Han (with 々 〆 ヶ), hiragana, katakana (not the ・ separator) and Hangul: the scripts written
# without spaces between words, or (Korean) whose words are often two syllables long.
_CJK = (
    "\u3005\u3006\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3131-\u318e\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7a3\uf900-\ufaff\U00020000-\U0003134f"
)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_PAIR = re.compile(f"(?=([{_CJK}]{{2}}))")  # every two CJK characters in a row, overlapping
_CHUNK = 500

documents_t: Table = SearchDocument.__table__  # type: ignore[assignment]


def cjk_runs(text: str) -> list[str]:
    """The runs of Chinese, Japanese or Korean characters in ``text``: ``"稲妻を2枚"`` → 稲妻を, 枚."""
    return _CJK_RUN.findall(text)


def bigrams(text: str) -> list[str]:
    """The distinct two-character runs inside the CJK runs of ``text``, in order of appearance."""
    return list(dict.fromkeys(_PAIR.findall(text)))


def _chunks(items: Sequence[int]) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _join(parts: Iterable[str]) -> str:
    """The distinct non-empty parts (folded already), joined with newlines."""
    folded = dict.fromkeys(parts)
    folded.pop("", None)
    return "\n".join(folded)


def _unless_folded(folded: Any, raw: Any) -> Any:
    """The raw text, read only where no folded copy is stored (see :func:`_folded`)."""
    return case((folded.is_(None), raw), else_=None).label(raw.key)


def _folded(stored: str | None, raw: str | None) -> str:
    """A text as folded at import (``stored``), else folded now (rows stored before carddb kept
    folded copies)."""
    if stored is not None:
        return stored
    return normalize(raw) if raw else ""


def _self_text(text: str, names: Iterable[str]) -> str:
    """``text`` with each of ``names`` (folded) replaced by ``~``, longest first."""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = text.replace(name, "~")
    return text


def _document(
    card_id: int, language: str, names: list[str], types: list[str], texts: list[str], rulings: list[str]
) -> dict[str, Any]:
    """One document from its parts, all folded already."""
    row: dict[str, Any] = {
        "id": document_id(card_id, language),
        "card_id": card_id,
        "language": language,
        "name": _join(names),
        "type_line": _join(types),
        "text": _join(without_reminder(text) for text in texts),
        "full_text": _join(texts),
        "rulings": _join(rulings),
    }
    row["self_text"] = _self_text(row["text"], names)
    for field in FIELDS:
        row[f"{field}_bigrams"] = " ".join(bigrams(row[field]))
    row["digest"] = hashlib.sha1(
        "\x1f".join(row[name] for name in _CONTENT).encode("utf-8", "surrogatepass")
    ).hexdigest()
    return row


def build_documents(connection: Connection, card_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The search documents of ``card_ids``, as rows of ``search_documents`` (without ids)."""
    if not card_ids:
        return []
    names: dict[int, str] = dict(
        connection.execute(select(Card.id, Card.name_norm).where(among(Card.id, card_ids))).all()
    )
    faces = connection.execute(
        select(
            Face.id,
            Face.card_id,
            Face.name_norm,
            Face.type_line,
            Face.oracle_text,
            Face.type_norm,
            Face.text_norm,
        )
        .where(among(Face.card_id, card_ids))
        .order_by(Face.card_id, Face.position)
    ).all()
    card_of_face = {face.id: face.card_id for face in faces}
    # (card, language) → names, type lines, texts, rulings; English from the oracle faces.
    parts: dict[tuple[int, str], tuple[list[str], list[str], list[str], list[str]]] = defaultdict(
        lambda: ([], [], [], [])
    )
    for card_id in card_ids:
        if card_id in names:
            parts[(card_id, ENGLISH)][0].append(names[card_id])
    for face in faces:
        english = parts[(face.card_id, ENGLISH)]
        english[0].append(face.name_norm)
        english[1].append(_folded(face.type_norm, face.type_line))
        english[2].append(_folded(face.text_norm, face.oracle_text))
    if card_of_face:
        localized = connection.execute(
            select(
                Localization.face_id,
                Localization.language,
                Localization.name_norm,
                _unless_folded(Localization.type_norm, Localization.type_line),
                _unless_folded(Localization.text_norm, Localization.text),
                Localization.type_norm,
                Localization.text_norm,
            )
            .where(among(Localization.face_id, list(card_of_face)), Localization.language != ENGLISH)
            .order_by(Localization.face_id, Localization.id)
        ).all()
        for loc in localized:
            entry = parts[(card_of_face[loc.face_id], loc.language)]
            entry[0].append(loc.name_norm)
            entry[1].append(_folded(loc.type_norm, loc.type_line))
            entry[2].append(_folded(loc.text_norm, loc.text))
    for ruling in connection.execute(
        select(
            Ruling.card_id, Ruling.language, _unless_folded(Ruling.text_norm, Ruling.text), Ruling.text_norm
        )
        .where(among(Ruling.card_id, card_ids))
        .order_by(Ruling.card_id, Ruling.language, Ruling.position)
    ):
        parts[(ruling.card_id, ruling.language)][3].append(_folded(ruling.text_norm, ruling.text))
    return [
        _document(card_id, language, *fields)
        for (card_id, language), fields in sorted(parts.items())
        if card_id in names and language in _SLOT
    ]


COLUMNS = tuple(documents_t.columns.keys())
"""The columns of a document row, in the order :class:`DocumentChanges` rows hold them."""
_CONTENT = tuple(name for name in COLUMNS if name not in ("id", "card_id", "digest"))
"""What a document's digest covers (its id, hence its card, is the key)."""


@dataclass(frozen=True, slots=True)
class DocumentChanges:
    """What rebuilding some cards' documents changes: the ids of stored documents to remove (gone,
    or changed) and the rows to insert (new, or changed), in :data:`COLUMNS` order; or, with
    ``replace``, every document of ``cards`` is to be removed and ``fresh`` holds them all."""

    stale: tuple[int, ...]
    fresh: tuple[tuple[Any, ...], ...]
    replace: bool = False
    cards: tuple[int, ...] = ()


def document_changes(
    connection: Connection, card_ids: Sequence[int], compare: bool = True
) -> DocumentChanges:
    """The changes that bring the documents of ``card_ids`` up to date with the stored cards,
    compared by digest (``compare=False``: all of them, replacing the stored ones, without reading
    those: for a rebuild that writes the full-text indexes again anyway, where the writer may hold
    the documents table locked). Only reads: it may run on another connection than the writer's."""
    rows = {row["id"]: row for row in build_documents(connection, card_ids)}
    if not compare:
        return DocumentChanges(
            (),
            tuple(tuple(row[name] for name in COLUMNS) for row in rows.values()),
            replace=True,
            cards=tuple(card_ids),
        )
    stored: dict[int, str | None] = {}
    for chunk in _chunks(card_ids):
        stored.update(
            connection.execute(
                select(documents_t.c.id, documents_t.c.digest).where(among(documents_t.c.card_id, chunk))
            ).all()
        )
    stale = tuple(
        doc_id for doc_id, digest in stored.items() if doc_id not in rows or rows[doc_id]["digest"] != digest
    )
    fresh = tuple(
        tuple(row[name] for name in COLUMNS)
        for doc_id, row in rows.items()
        if doc_id not in stored or stored[doc_id] != row["digest"] or stored[doc_id] is None
    )
    return DocumentChanges(stale, fresh)
