"""Substring matching over the search documents, through the full-text indexes.

A text condition (a name word, ``o:``, ``t:``, ``rul:``) means: the folded value is a substring of
the document's folded field (:mod:`carddb.search.documents`). How that is answered:

* **SQLite.** Each field has an FTS5 table with the trigram tokenizer (``search_name``,
  ``search_type_line``, ``search_text``, ``search_rulings``), where a phrase query of three
  characters or more *is* a substring query. Two-character values that are Chinese, Japanese or
  Korean are words of the ``search_bigrams`` table, which holds every two-character run of those
  scripts: again exact. Both answer from their row ids alone (a document id carries its card and
  language, see :func:`~carddb.search.documents.document_id`), so no document is read. Anything
  else (one character, two Latin characters, ``~``) is a ``LIKE`` over the documents.
* **PostgreSQL.** ``LIKE '%…%'`` on the document column, served by its ``pg_trgm`` GIN index; a
  two-character CJK value first narrows the documents through the GIN index on its bigram column.

Either way the answer is the same substring test, and the same on both databases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, Literal

from sqlalchemy import (
    ARRAY,
    Boolean,
    Select,
    TableClause,
    Text,
    and_,
    any_,
    bindparam,
    column,
    exists,
    false,
    func,
    literal_column,
    or_,
    select,
    table,
)
from sqlalchemy.sql.elements import ColumnClause, ColumnElement

from carddb.db.models import Card, SearchDocument
from carddb.search.documents import FIELDS, SLOT_BITS, SLOTS, cjk_runs
from carddb.text import normalize

__all__ = [
    "Lookup",
    "cards_among",
    "matching_any_cards",
    "matching_cards",
    "matching_ids",
    "narrowing_ids",
    "required_literal",
    "required_prefix",
    "trigrams",
]

Condition = ColumnElement[bool]

_TRIGRAM = 3
_BIGRAMS = "search_bigrams"


def _fts_string(text: str) -> str:
    """``text`` as one FTS5 string (a phrase): in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def _is_cjk_pair(folded: str) -> bool:
    return len(folded) == 2 and cjk_runs(folded) == [folded]


@cache
def _fts_table(name: str) -> TableClause:
    return table(name, column("rowid"), column(name))


_CARD_OF_ROW: ColumnClause[Any] = literal_column(f"rowid >> {SLOT_BITS}")
"""The card of a full-text row: its row id is the document id (card id and language slot)."""


@cache
def _rows_in(slots: tuple[int, ...]) -> Condition:
    """The full-text rows of documents in the language ``slots`` (structure, not a user value)."""
    if not slots:
        return false()
    listed = ", ".join(str(slot) for slot in slots)
    return literal_column(f"rowid & {(1 << SLOT_BITS) - 1} IN ({listed})", Boolean)


def _fts_ids(name: str, query: str, languages: frozenset[str] | None) -> Select[Any]:
    """Ids of the cards with a document in ``languages`` (None: any) that FTS5 table ``name``
    matches, read from the row ids alone."""
    fts = _fts_table(name)
    ids: Select[Any] = select(_CARD_OF_ROW).select_from(fts)
    ids = ids.where(fts.c[name].op("MATCH")(bindparam(None, query, type_=Text)))
    if languages is not None:
        ids = ids.where(_rows_in(tuple(_slots(languages))))
    return ids


def _document_ids(condition: Condition, languages: frozenset[str] | None) -> Select[Any]:
    """Ids of the cards with a document in ``languages`` (None: any) that meets ``condition``.

    The languages are tested on the document ids' slots, which no index serves: PostgreSQL would
    otherwise read 45,000 entries of the ``(card_id, language)`` index for ``language IN ('de',
    'en')`` to intersect with the trigram index's few thousand, instead of checking the documents
    the trigram index finds (20 ms of the 70 of ``lang:de o:fliegend``)."""
    documents = select(SearchDocument.card_id).where(condition)
    if languages is not None:
        documents = documents.where(_slot_of(SearchDocument.id).in_(_slots(languages)))
    return documents


def _slots(languages: frozenset[str]) -> list[int]:
    """The document id slots of ``languages`` (those without a slot have no documents)."""
    return sorted(SLOTS.index(language) for language in languages if language in SLOTS)


def _slot_of(document_id: Any) -> Any:
    return document_id.op("&")((1 << SLOT_BITS) - 1)


@lru_cache(maxsize=64)
def _documents_of_card(languages: frozenset[str] | None) -> Condition:
    """The documents of the candidate card (of the enclosing query) in ``languages`` (None: any),
    by their ids (:func:`~carddb.search.documents.document_id`): a probe reads them by primary key.
    (Built once per set of languages: statements share it.)"""
    first = Card.id * (1 << SLOT_BITS)
    if languages is None:
        return SearchDocument.id.between(first, first + (1 << SLOT_BITS) - 1)
    slots = _slots(languages)
    if len(slots) == 1:
        return SearchDocument.id == first + slots[0]
    return SearchDocument.id.in_([first + slot for slot in slots]) if slots else false()


def _postgresql_bigram(field: str, folded: str) -> Condition:
    words = func.string_to_array(getattr(SearchDocument, f"{field}_bigrams"), literal_column("' '"))
    contained: Condition = words.op("@>")(bindparam(None, [folded], type_=ARRAY(Text)))
    return contained


Lookup = Literal["drive", "list", "probe"]
"""How a condition on cards is written (:class:`carddb.search.conditions.Context` decides):

* ``"drive"``: its list of cards is where the query starts (the one selective term of an AND, or a
  query of one term);
* ``"list"``: one list among several, intersected (an AND where no term is selective);
* ``"probe"``: another term drives; test each candidate card by its id (a correlated EXISTS).
"""


def cards_among(ids: Select[Any], dialect: str, lookup: Lookup = "list") -> Condition:
    """``cards.id IN (ids)``; when the list drives the query, written so that it is made first and
    the cards looked up by id.

    PostgreSQL would otherwise turn the list into a semi-join and, misjudging how many documents a
    trigram search finds, walk every card in name order probing its documents (50 ms instead of 5
    for a name word over the whole card pool); ``id = ANY(ARRAY(…))`` is computed once, up front.
    Only for the driving list: several such arrays would be searched one element at a time.
    """
    if dialect == "postgresql" and lookup == "drive":
        listed: Condition = Card.id == any_(func.array(ids.scalar_subquery()))
        return listed
    return Card.id.in_(ids)


SCANNED_FIELDS = ("full_text",)
"""Document fields without a full-text index (``fo:``'s rules text with reminder text): a
substring test reads the documents."""


def _check(field: str) -> None:
    if field not in FIELDS and field not in SCANNED_FIELDS:
        raise ValueError(f"not a document field: {field!r}")


def matching_ids(field: str, folded: str, languages: frozenset[str] | None, dialect: str) -> Select[Any]:
    """A select of the ids of the cards with a document, in one of ``languages`` (None: any), whose
    ``field`` contains ``folded`` (a value already folded with :func:`carddb.text.normalize`)."""
    _check(field)
    searched = getattr(SearchDocument, field)
    if field in SCANNED_FIELDS:
        return _document_ids(searched.contains(folded, autoescape=True), languages)
    if dialect == "sqlite":
        if len(folded) >= _TRIGRAM:
            return _fts_ids(f"search_{field}", _fts_string(folded), languages)
        if _is_cjk_pair(folded):
            return _fts_ids(_BIGRAMS, f"{field}_bigrams : {_fts_string(folded)}", languages)
        return _document_ids(searched.contains(folded, autoescape=True), languages)
    condition: Condition = searched.contains(folded, autoescape=True)
    if _is_cjk_pair(folded):
        condition = and_(_postgresql_bigram(field, folded), condition)
    return _document_ids(condition, languages)


_NARROWING_TRIGRAMS = 3
_WORD = re.compile(r"\w+")


def narrowing_ids(field: str, folded: str, languages: frozenset[str] | None, dialect: str) -> Select[Any]:
    """A select of the ids of the cards that may have a document, in one of ``languages`` (None:
    any), whose ``field`` contains ``folded``: every such card and maybe more, for a test that is
    exact by itself (a regular expression) and only needs the candidates cut down.

    On SQLite that is a few of its trigrams, found anywhere in the document (:func:`trigrams`): a
    phrase query checks the position of every trigram of the text, and a long text of common words
    ("damage to any target") costs five times what three of its trigrams cost. Elsewhere (and for
    text too short for that), the documents that contain it (:func:`matching_ids`)."""
    _check(field)
    chosen = trigrams(folded)
    if dialect != "sqlite" or not chosen or field in SCANNED_FIELDS:
        return matching_ids(field, folded, languages, dialect)
    return _fts_ids(f"search_{field}", " AND ".join(_fts_string(trigram) for trigram in chosen), languages)


def trigrams(folded: str, most: int = _NARROWING_TRIGRAMS) -> list[str]:
    """Up to ``most`` distinct trigrams of ``folded``, which every text containing it contains:
    taken inside its words (rarer than across a space), the first three letters of each word, the
    longest words first, then their next three, and so on. Empty when no word has three letters."""
    words = sorted(dict.fromkeys(_WORD.findall(folded)), key=len, reverse=True)
    found: dict[str, None] = {}
    for start in range(0, len(words[0]) if words else 0, _TRIGRAM):
        for word in words:
            piece = word[start : start + _TRIGRAM]
            if len(piece) == _TRIGRAM:
                found[piece] = None
    return list(found)[:most]


def matching_cards(
    field: str,
    folded: str,
    languages: frozenset[str] | None,
    dialect: str,
    *,
    self_name: bool = False,
    lookup: Lookup = "drive",
) -> Condition:
    """Cards with a document, in one of ``languages`` (None: any), whose ``field`` contains
    ``folded`` (a value already folded with :func:`carddb.text.normalize`).

    ``self_name``: ``~`` in the value stands for the card's own name (``text`` only).
    ``lookup``: see :data:`Lookup`; ``"probe"`` tests each candidate card's documents directly
    instead of asking the index for every match.
    """
    _check(field)
    searched = getattr(SearchDocument, field)
    if self_name and "~" in folded:
        searched = SearchDocument.self_text
    if lookup == "probe":
        return exists(
            select(SearchDocument.id).where(
                _documents_of_card(languages), searched.contains(folded, autoescape=True)
            )
        )
    if self_name and "~" in folded:
        matched = searched.contains(folded, autoescape=True)
        # Every ~-free piece of the value is in ``text`` too: the longest one narrows the documents
        # to read, through the index on ``text`` (``self_text`` has none: it would double the
        # trigram index's size and its build time for a rare kind of query).
        piece = max(folded.split("~"), key=len)
        if dialect == "sqlite" and len(piece) >= _TRIGRAM:
            fts = table("search_text", column("rowid"), column("search_text"))
            ids = select(fts.c.rowid).where(
                fts.c.search_text.op("MATCH")(bindparam(None, _fts_string(piece), type_=Text))
            )
            matched = and_(SearchDocument.id.in_(ids), matched)
        elif len(piece) >= _TRIGRAM:
            matched = and_(SearchDocument.text.contains(piece, autoescape=True), matched)
        return cards_among(_document_ids(matched, languages), dialect, lookup)
    return cards_among(matching_ids(field, folded, languages, dialect), dialect, lookup)


def matching_any_cards(
    field: str,
    values: Sequence[str],
    languages: frozenset[str] | None,
    dialect: str,
    *,
    lookup: Lookup = "drive",
) -> Condition:
    """Cards with a document, in one of ``languages`` (None: any), whose ``field`` contains any of
    ``values`` (folded, without ``~``): on SQLite one full-text query for them all (FTS5 ``"a" OR
    "b"``) when each is three characters or more, on PostgreSQL one scan of the documents the
    trigram index finds for any of them; else (and for a probe) each value on its own."""
    _check(field)
    one_by_one = or_(*(matching_cards(field, value, languages, dialect, lookup=lookup) for value in values))
    if lookup == "probe" or len(values) < 2 or field in SCANNED_FIELDS:
        return one_by_one
    if dialect == "sqlite":
        if any(len(value) < _TRIGRAM for value in values):
            return one_by_one
        query = " OR ".join(_fts_string(value) for value in values)
        return cards_among(_fts_ids(f"search_{field}", query, languages), dialect, lookup)
    if any(_is_cjk_pair(value) for value in values):
        return one_by_one
    searched = getattr(SearchDocument, field)
    found = or_(*(searched.contains(value, autoescape=True) for value in values))
    return cards_among(_document_ids(found, languages), dialect, lookup)


def required_literal(pattern: str) -> str | None:
    """The longest run of plain characters that every match of the regular expression ``pattern``
    contains, folded, when it is three characters or more (None otherwise): ``deals \\d+ damage to
    any target`` → ``damage to any target``. Conservative: nothing inside groups or classes, nothing
    when the pattern has an alternation, and a character under ``?``, ``*`` or ``{`` is optional."""
    if "|" in pattern:
        return None
    runs: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            runs.append("".join(current))
            current.clear()

    depth = 0
    index = 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        if char == "\\":
            escaped = pattern[index : index + 1]
            index += 1
            if not escaped or escaped.isalnum() or depth:
                flush()  # \d, \w, \b, a back-reference: not a literal
                continue
            char = escaped
        elif char == "[":
            flush()
            index = _class_end(pattern, index)
            continue
        elif char in "()":
            flush()
            depth += 1 if char == "(" else -1
            continue
        elif char == "{":
            flush()  # a repetition count: skip it
            closing = pattern.find("}", index)
            index = len(pattern) if closing < 0 else closing + 1
            continue
        elif char in ".^$*+?}" or depth:
            flush()
            continue
        following = pattern[index : index + 1]
        if following and following in "?*{":
            flush()  # the character may be absent
        elif following == "+":
            current.append(char)
            flush()
        else:
            current.append(char)
    flush()
    folded = [normalize(run) for run in runs]
    best = max(folded, key=len, default="")
    return best if len(best) >= _TRIGRAM else None


_PREFIX_SPECIAL = frozenset(".^$*+?{}[]()|\\")
# ASCII characters a case-insensitive Python pattern matches only in their two ASCII cases (not
# i, k, s: "(?i)k" also matches the Kelvin sign, "(?i)s" the long s, "(?i)i" the dotted capital I),
# and which SQLite's LIKE compares the same way.
_PREFIX_SAFE = frozenset(chr(code) for code in range(32, 127)) - set("iksIKS")


def required_prefix(pattern: str) -> str | None:
    """The plain characters every match of the regular expression ``pattern``, matched case
    insensitively, starts the matched text with, when it is anchored (``^``): ``^a.*n$`` → ``a``;
    None when there are none. Only ASCII characters that match nothing but their two cases, so
    that ``LIKE 'a%'`` (case-insensitive for ASCII) holds for every text the pattern matches."""
    if not pattern.startswith("^") or "|" in pattern:
        return None
    prefix: list[str] = []
    index = 1
    while index < len(pattern):
        char = pattern[index]
        index += 1
        if char == "\\":
            char = pattern[index : index + 1]
            index += 1
            if not char or char.isalnum():
                break  # \d, \w, \b, a back-reference: not a literal
        elif char in _PREFIX_SPECIAL:
            break
        following = pattern[index : index + 1]
        if char not in _PREFIX_SAFE or (following and following in "?*{"):
            break  # the character may be absent, or matches more than its two cases
        prefix.append(char)
        if following == "+":
            break
    return "".join(prefix) or None


def _class_end(pattern: str, index: int) -> int:
    """The index just after the ``]`` closing a character class that opened before ``index``."""
    if pattern[index : index + 1] == "^":
        index += 1
    if pattern[index : index + 1] == "]":
        index += 1
    while index < len(pattern) and pattern[index] != "]":
        index += 2 if pattern[index] == "\\" else 1
    return index + 1
