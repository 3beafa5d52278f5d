"""Fuzzy card names, the way Scryfall's ``/cards/named?fuzzy=`` resolves them: punctuation,
spaces, case and accents do not count (``faille de l outreterre``, ``Unterreich Spalte``), a
prefix (``goldspan``) or a small typo (``Goldspan Dragn``) finds the card when one card is clearly
the best, in every language; otherwise the closest names are suggestions.

Every name is compared by its *key*: its folded form (:func:`carddb.text.normalize`, stored in
the ``name_norm`` columns) with everything but letters and digits removed. The keys of every
name (cards, faces, translations) are read once per database state and kept in memory
(:func:`name_index`), so a lookup after the first costs a few milliseconds.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb import languages
from carddb.db.lists import among
from carddb.db.lookup import build_view
from carddb.db.models import Card, Face, Localization
from carddb.errors import AmbiguousCardError, CardNotFoundError
from carddb.search.fulltext import matching_ids
from carddb.text import normalize
from carddb.views import CardView

__all__ = [
    "FuzzyMatch",
    "NameIndex",
    "card_by_fuzzy_name",
    "fuzzy_key",
    "fuzzy_match",
    "name_index",
    "suggestions",
]

_NOT_KEY = re.compile(r"[\W_]+")
_WORD = re.compile(r"[^\W_]+")
MIN_PREFIX = 3
"""The shortest key a prefix match is tried for."""
SUGGESTIONS = 5


def fuzzy_key(name: str) -> str:
    """What a name is compared by: folded, letters and digits only (``"Faille de l'Outreterre"``
    → ``"failledeloutreterre"``)."""
    return _NOT_KEY.sub("", normalize(name))


def _key_of_folded(folded: str) -> str:
    return _NOT_KEY.sub("", folded)


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Every name's key, the cards each key names, and a name to show for each (card, key)."""

    keys: tuple[str, ...]
    """Sorted (a prefix is a range)."""
    cards: dict[str, frozenset[int]]
    shown: dict[tuple[int, str], tuple[str, str]]
    """(card id, key) → the name with that key and its language."""
    english: dict[int, str]
    by_length: dict[int, tuple[str, ...]]
    """The keys of each length (a typo or a suggestion is looked for among similar lengths)."""

    def near_length(self, shortest: int, longest: int) -> list[str]:
        found: list[str] = []
        for length in range(max(1, shortest), longest + 1):
            found.extend(self.by_length.get(length, ()))
        return found


@dataclass(frozen=True, slots=True)
class FuzzyMatch:
    """What a fuzzy lookup found: ``card_id`` when one card is clearly best (``how``: ``exact``,
    ``prefix`` or ``typo``), else the ``candidates`` (names) it could not choose between."""

    card_id: int | None
    how: str
    candidates: tuple[str, ...] = ()
    language: str = "en"
    """The language of the name that matched."""


_CACHE: OrderedDict[tuple[object, ...], NameIndex] = OrderedDict()
_CACHE_LOCK = Lock()
_CACHED = 4


def _state(session: Session) -> tuple[object, ...]:
    """A cheap fingerprint of the names stored: it changes when an import adds or removes any."""
    bind = session.get_bind()
    cards = session.execute(select(func.count(Card.id), func.max(Card.id))).one()
    translations = session.execute(select(func.max(Localization.id))).one()
    return (str(bind.engine.url), *cards, *translations)


def name_index(session: Session) -> NameIndex:
    """The keys of every card name, face name and translation (cached per database state)."""
    state = _state(session)
    with _CACHE_LOCK:
        cached = _CACHE.get(state)
        if cached is not None:
            _CACHE.move_to_end(state)
            return cached
    index = _build(session, None)
    with _CACHE_LOCK:
        _CACHE[state] = index
        while len(_CACHE) > _CACHED:
            _CACHE.popitem(last=False)
    return index


_CANDIDATE_WORDS = 3
_MAX_CANDIDATES = 2000


def candidate_index(session: Session, name: str) -> NameIndex | None:
    """The keys of the names of the cards whose names contain one of the longest words of
    ``name`` (three letters or more), found through the full-text index of names: a small index
    to resolve most names from, without reading every name. None when ``name`` has no such word
    or no card has it."""
    words = sorted({w for w in _WORD.findall(normalize(name)) if len(w) >= MIN_PREFIX}, key=len, reverse=True)
    dialect = session.get_bind().dialect.name
    card_ids: set[int] = set()
    for word in words[:_CANDIDATE_WORDS]:
        card_ids.update(
            session.execute(matching_ids("name", word, None, dialect).limit(_MAX_CANDIDATES)).scalars()
        )
        if len(card_ids) >= _MAX_CANDIDATES:
            break
    return _build(session, sorted(card_ids)) if card_ids else None


def _build(session: Session, card_ids: list[int] | None) -> NameIndex:
    """A :class:`NameIndex` of the names of ``card_ids`` (None: of every card)."""
    english: dict[int, str] = {}
    card_of_face: dict[int, int] = {}
    cards: dict[str, set[int]] = {}
    shown: dict[tuple[int, str], tuple[str, str]] = {}

    def add(card_id: int, name: str, norm: str, language: str) -> None:
        key = _key_of_folded(norm)
        if not key:
            return
        cards.setdefault(key, set()).add(card_id)
        before = shown.get((card_id, key))
        if before is None or (language == "en" and before[1] != "en"):
            shown[(card_id, key)] = (name, language)

    card_rows = select(Card.id, Card.name, Card.name_norm)
    face_rows = select(Face.id, Face.card_id, Face.name, Face.name_norm)
    if card_ids is not None:
        card_rows = card_rows.where(among(Card.id, card_ids))
        face_rows = face_rows.where(among(Face.card_id, card_ids))
    for card_id, name, norm in session.execute(card_rows):
        english[card_id] = name
        add(card_id, name, norm, "en")
    for face_id, card_id, name, norm in session.execute(face_rows):
        card_of_face[face_id] = card_id
        add(card_id, name, norm, "en")
    translations = select(
        Localization.face_id, Localization.name, Localization.name_norm, Localization.language
    )
    if card_ids is not None:
        translations = translations.where(among(Localization.face_id, list(card_of_face)))
    # the translations without a join (a third of the time), each distinct name once
    seen: set[tuple[int, str, str]] = set()
    for face_id, name, norm, language in session.execute(translations):
        owner = card_of_face.get(face_id)
        if owner is not None and (owner, norm, language) not in seen:
            seen.add((owner, norm, language))
            add(owner, name, norm, language)
    by_length: dict[int, list[str]] = {}
    for key in cards:
        by_length.setdefault(len(key), []).append(key)
    return NameIndex(
        tuple(sorted(cards)),
        {k: frozenset(v) for k, v in cards.items()},
        shown,
        english,
        {length: tuple(keys) for length, keys in by_length.items()},
    )


def _names(index: NameIndex, found: dict[int, str], limit: int = 10) -> tuple[str, ...]:
    """The names that matched, one per card (each can be typed back to find its card)."""
    shown = []
    for card_id, key in list(found.items())[:limit]:
        english = index.english.get(card_id, "")
        shown.append(index.shown.get((card_id, key), (english, "en"))[0])
    return tuple(dict.fromkeys(shown))


def _with_prefix(keys: tuple[str, ...], prefix: str) -> list[str]:
    """The sorted ``keys`` that start with ``prefix``."""
    start = bisect_left(keys, prefix)
    end = bisect_left(keys, prefix + "\U0010ffff", start)
    return list(keys[start:end])


def _preferred(index: NameIndex, card_id: int, candidate: str, best: str) -> bool:
    """Whether ``candidate`` is a better key than ``best`` to show a card found by both: an
    English name first, then the shorter."""

    def rank(key: str) -> tuple[bool, int]:
        return (index.shown.get((card_id, key), ("", "en"))[1] != "en", len(key))

    return rank(candidate) < rank(best)


def _found(index: NameIndex, card_id: int, key: str, how: str) -> FuzzyMatch:
    return FuzzyMatch(card_id, how, language=index.shown.get((card_id, key), ("", "en"))[1])


def fuzzy_match(session: Session, name: str) -> FuzzyMatch:
    """Resolve ``name`` fuzzily: the same key; else a prefix of names of one card only; else the
    one card at the smallest edit distance (at most a fifth of the key's length). First among the
    cards that have one of its words (:func:`candidate_index`), then among all names."""
    key = fuzzy_key(name)
    if not key:
        return FuzzyMatch(None, "none")
    small = candidate_index(session, name)
    if small is not None:
        found = _match(small, key)
        if found.how != "none":
            return found
    return _match(name_index(session), key)


def _match(index: NameIndex, key: str) -> FuzzyMatch:
    exact = index.cards.get(key)
    if exact:
        if len(exact) == 1:
            return _found(index, next(iter(exact)), key, "exact")
        return FuzzyMatch(None, "exact", _names(index, {card_id: key for card_id in sorted(exact)}))
    if len(key) >= MIN_PREFIX:
        prefixed: dict[int, str] = {}
        for candidate in _with_prefix(index.keys, key):
            for card_id in index.cards[candidate]:
                best = prefixed.get(card_id)
                if best is None or _preferred(index, card_id, candidate, best):
                    prefixed[card_id] = candidate
        if len(prefixed) == 1:
            card_id, matched = next(iter(prefixed.items()))
            return _found(index, card_id, matched, "prefix")
        if prefixed:
            ordered = dict(sorted(prefixed.items(), key=lambda item: (len(item[1]), item[1])))
            return FuzzyMatch(None, "prefix", _names(index, ordered))
    most = max(1, len(key) // 5)
    candidates = index.near_length(len(key) - most, len(key) + most)
    near = process.extract(key, candidates, scorer=Levenshtein.distance, score_cutoff=most, limit=20)
    if near:
        best_distance = near[0][1]
        closest: dict[int, str] = {}
        for candidate, distance, _ in near:
            if distance == best_distance:
                for card_id in index.cards[candidate]:
                    best = closest.get(card_id)
                    if best is None or _preferred(index, card_id, candidate, best):
                        closest[card_id] = candidate
        if len(closest) == 1:
            card_id, matched = next(iter(closest.items()))
            return _found(index, card_id, matched, "typo")
        return FuzzyMatch(None, "typo", _names(index, closest))
    return FuzzyMatch(None, "none")


def suggestions(session: Session, name: str, limit: int = SUGGESTIONS) -> list[str]:
    """The names closest to ``name`` in any language, best first, one per card (compared by key,
    whole names against whole names: ``Terre`` is not suggested for ``Terrain``-like noise)."""
    key = fuzzy_key(name)
    if not key:
        return []
    small = candidate_index(session, name)
    if small is not None:
        found = _suggested(small, key, limit)
        if found:
            return found
    return _suggested(name_index(session), key, limit)


def _suggested(index: NameIndex, key: str, limit: int) -> list[str]:
    found: dict[int, str] = {}
    # a ratio of 75 needs lengths within 0.6 and 1.67 times each other
    candidates = index.near_length(int(len(key) * 0.6), int(len(key) / 0.6) + 1)
    for candidate, _score, _ in process.extract(
        key, candidates, scorer=fuzz.ratio, score_cutoff=75, limit=limit * 4
    ):
        for card_id in sorted(index.cards[candidate]):
            found.setdefault(card_id, candidate)
        if len(found) >= limit:
            break
    return list(_names(index, found, limit))[:limit]


def card_by_fuzzy_name(
    session: Session, name: str, lang: str | None = None, *, resolve: bool = True
) -> CardView:
    """For a name no card has exactly (:func:`carddb.db.lookup.card_by_name` found none): the one
    card the fuzzy rules clearly pick (``resolve``), shown in ``lang`` or the language the name
    matched in; else :class:`AmbiguousCardError` with the candidates, or
    :class:`CardNotFoundError` with the closest names."""
    requested = languages.resolve(lang).tag if lang else None
    if resolve:
        match = fuzzy_match(session, name)
        if match.card_id is not None:
            return build_view(
                session,
                match.card_id,
                requested or match.language,
                matched_name=name,
                matched_language=match.language,
                normalized=normalize(name),
            )
        if match.candidates:
            raise AmbiguousCardError(name, list(match.candidates))
    raise CardNotFoundError(name, suggestions(session, name))
