"""The facts Scryfall objects show (:mod:`carddb.scryfall_json`), read from a session, in bulk:
a page of 175 search hits costs a few statements, not a few per card.

A Scryfall card object is one printing in one language. :func:`chosen_printings` picks, for each
card of a search page, the printing to show (the newest one printed in the language asked for,
else the newest one); :func:`card_facts` reads the facts of many (printing, language) pairs at
once.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from sqlalchemy import func, select, union_all
from sqlalchemy.orm import Session

from carddb.db.lists import among
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.scryfall_json import CardFacts, FaceFacts, PrintingFacts, RulingFacts, SetFacts, derived_id

__all__ = [
    "NameIndex",
    "PrintingKey",
    "card_facts",
    "chosen_printings",
    "derived_ids",
    "name_index",
    "printing_by_number",
    "printing_languages",
    "rulings",
    "set_facts",
]


@dataclass(frozen=True, slots=True)
class PrintingKey:
    """A printing (its row id) in a language (a carddb tag)."""

    printing_id: int
    language: str


def printing_languages(session: Session, printing_ids: Iterable[int]) -> dict[int, set[str]]:
    """The languages each printing is printed in (the languages of its linked translations)."""
    ids = list(set(printing_ids))
    found: dict[int, set[str]] = defaultdict(set)
    if not ids:
        return {}
    rows = session.execute(
        select(PrintingLocalization.printing_id, Localization.language)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .where(PrintingLocalization.printing_id.in_(ids))
        .distinct()
    )
    for printing_id, language in rows:
        found[printing_id].add(language)
    return dict(found)


def chosen_printings(
    session: Session, card_ids: Sequence[int], language: str = "en", set_code: str | None = None
) -> dict[int, PrintingKey]:
    """For each card, the printing a card object shows: the newest printed in ``language`` (in
    ``set_code`` only, when given), else the newest printing in English. A card with no printing
    (in that set) is left out."""
    if not card_ids:
        return {}
    statement = (
        select(Printing.card_id, Printing.id)
        .join(CardSet, CardSet.code == Printing.set_code)
        .where(Printing.card_id.in_(list(set(card_ids))))
        .order_by(CardSet.release_date.desc().nulls_last(), Printing.set_code, Printing.id)
    )
    if set_code is not None:
        statement = statement.where(Printing.set_code == set_code.upper())
    rows = session.execute(statement).all()
    langs = printing_languages(session, [printing_id for _, printing_id in rows]) if language != "en" else {}
    chosen: dict[int, PrintingKey] = {}
    for card_id, printing_id in rows:
        if language != "en" and language in langs.get(printing_id, set()):
            current = chosen.get(card_id)
            if current is None or current.language != language:
                chosen[card_id] = PrintingKey(printing_id, language)
        elif card_id not in chosen:
            chosen[card_id] = PrintingKey(printing_id, "en")
    return chosen


def printing_by_number(session: Session, set_code: str, collector_number: str) -> int | None:
    """The row id of the printing with that set code (any case) and collector number."""
    return session.scalar(
        select(Printing.id).where(
            Printing.set_code == set_code.upper(), Printing.collector_number == collector_number
        )
    )


_PRINTING_COLUMNS = (
    Printing.id,
    Printing.card_id,
    Printing.set_code,
    Printing.collector_number,
    Printing.rarity,
    Printing.scryfall_id,
    Printing.multiverse_id,
    CardSet.name,
    CardSet.release_date,
    CardSet.set_type,
)
_FACE_COLUMNS = (
    Face.card_id,
    Face.id,
    Face.name,
    Face.mana_cost,
    Face.type_line,
    Face.oracle_text,
    Face.colors,
    Face.color_identity,
    Face.power,
    Face.toughness,
    Face.loyalty,
    Face.defense,
    Face.keywords,
    Card.oracle_id,
    Card.name,
    Card.layout,
    Card.mana_value,
)
_LINK_COLUMNS = (
    PrintingLocalization.printing_id,
    PrintingLocalization.multiverse_id,
    Localization.face_id,
    Localization.language,
    Localization.name,
    Localization.type_line,
    Localization.text,
    Localization.flavor,
)


def card_facts(session: Session, keys: Sequence[PrintingKey]) -> list[CardFacts]:
    """The facts of each (printing, language), in the order of ``keys``; a key whose printing does
    not exist is left out. A face without a translation in the language has no printed text.
    (Three statements for any number of keys, read as plain rows.)"""
    printing_ids = sorted({key.printing_id for key in keys})
    if not printing_ids:
        return []
    connection = session.connection()  # plain rows: no ORM loading
    printings = {
        row.id: row
        for row in connection.execute(
            select(*_PRINTING_COLUMNS)
            .join(CardSet, CardSet.code == Printing.set_code)
            .where(among(Printing.id, printing_ids))
        )
    }
    card_ids = sorted({row.card_id for row in printings.values()})
    faces: dict[int, list[Any]] = defaultdict(list)
    for face_row in connection.execute(
        select(*_FACE_COLUMNS)
        .join(Card, Card.id == Face.card_id)
        .where(among(Face.card_id, card_ids))
        .order_by(Face.card_id, Face.position)
    ):
        faces[face_row[0]].append(face_row)
    # the translations each printing carries, per language and face, with the link's multiverse id
    linked: dict[tuple[int, str], dict[int, Any]] = defaultdict(dict)
    for link in connection.execute(
        select(*_LINK_COLUMNS)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .where(
            among(PrintingLocalization.printing_id, printing_ids),
            among(Localization.language, sorted({key.language for key in keys})),
        )
        .order_by(Localization.id)
    ):
        linked[(link.printing_id, link.language)].setdefault(link.face_id, link)
    result = []
    for key in keys:
        printing = printings.get(key.printing_id)
        if printing is None or not faces[printing.card_id]:
            continue
        card_faces = faces[printing.card_id]
        translations = linked.get((key.printing_id, key.language), {})
        face_facts = []
        multiverse_ids: list[int] = []
        for face in card_faces:
            loc = translations.get(face.id)
            if loc is not None and loc.multiverse_id is not None and loc.multiverse_id not in multiverse_ids:
                multiverse_ids.append(loc.multiverse_id)
            localized = loc if key.language != "en" else None
            face_facts.append(
                FaceFacts(
                    name=face[2],
                    mana_cost=face.mana_cost,
                    type_line=face[4],
                    oracle_text=face.oracle_text,
                    colors=face.colors,
                    power=face.power,
                    toughness=face.toughness,
                    loyalty=face.loyalty,
                    defense=face.defense,
                    flavor_text=loc.flavor if loc is not None else None,
                    printed_name=localized[4] if localized is not None else None,
                    printed_type_line=localized[5] if localized is not None else None,
                    printed_text=localized.text if localized is not None else None,
                )
            )
        if not multiverse_ids and key.language == "en" and printing.multiverse_id is not None:
            multiverse_ids.append(printing.multiverse_id)
        first = card_faces[0]
        result.append(
            CardFacts(
                oracle_id=first.oracle_id,
                name=first[14],
                layout=first.layout,
                cmc=first.mana_value,
                color_identity="".join(face.color_identity for face in card_faces),
                keywords=tuple(dict.fromkeys(k for face in card_faces for k in face.keywords or ())),
                faces=tuple(face_facts),
                printing=PrintingFacts(
                    set_code=printing.set_code,
                    set_name=printing[7],
                    collector_number=printing.collector_number,
                    rarity=printing.rarity,
                    released_at=printing.release_date,
                    scryfall_id=printing.scryfall_id,
                    set_type=printing.set_type,
                ),
                language=key.language,
                multiverse_ids=tuple(multiverse_ids),
            )
        )
    return result


def derived_ids(session: Session) -> dict[str, PrintingKey]:
    """Every derived id (:func:`carddb.scryfall_json.derived_id`) of a printing in a language the
    database holds, with the printing it stands for: ``/cards/:id`` looks ids up in this map."""
    rows = session.execute(
        select(Printing.id, Printing.set_code, Printing.collector_number, Localization.language)
        .join(PrintingLocalization, PrintingLocalization.printing_id == Printing.id)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .distinct()
    )
    return {
        derived_id(set_code, number, language): PrintingKey(printing_id, language)
        for printing_id, set_code, number, language in rows
    }


def rulings(session: Session, card_id: int, language: str = "en") -> list[RulingFacts]:
    """The card's rulings in ``language``, oldest first (as Scryfall lists them)."""
    oracle_id = session.scalar(select(Card.oracle_id).where(Card.id == card_id))
    if oracle_id is None:
        return []
    rows = session.scalars(
        select(Ruling)
        .where(Ruling.card_id == card_id, Ruling.language == language)
        .order_by(Ruling.published, Ruling.source, Ruling.position)
    )
    return [RulingFacts(oracle_id, r.source, r.published, r.text) for r in rows]


def set_facts(session: Session, code: str | None = None) -> list[SetFacts]:
    """Every set (or the one with ``code``, any case), newest first, with its printings counted."""
    counts = select(Printing.set_code, func.count().label("n")).group_by(Printing.set_code).subquery("counts")
    statement = (
        select(CardSet.code, CardSet.name, CardSet.release_date, CardSet.set_type, counts.c.n)
        .outerjoin(counts, counts.c.set_code == CardSet.code)
        .order_by(CardSet.release_date.desc().nulls_last(), CardSet.code)
    )
    if code is not None:
        statement = statement.where(CardSet.code == code.upper())
    result = []
    for set_code, name, released, set_type, count in session.execute(statement):
        released_at: dt.date | None = released
        result.append(SetFacts(set_code, name, released_at, set_type, int(count or 0)))
    return result


def card_ids_by_oracle(session: Session, oracle_ids: Sequence[str]) -> dict[str, int]:
    """The row id of each card, by its oracle id."""
    if not oracle_ids:
        return {}
    rows = session.execute(select(Card.oracle_id, Card.id).where(Card.oracle_id.in_(list(set(oracle_ids)))))
    return {oracle_id: card_id for oracle_id, card_id in rows}


def _like_prefix(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def autocomplete(session: Session, normalized: str, limit: int = 20) -> list[str]:
    """Up to ``limit`` English card names for what a user has typed (``normalized`` with
    :func:`carddb.text.normalize`): names starting with it first, then names with a word starting
    with it, each in name order."""
    if not normalized:
        return []
    starting = session.scalars(
        select(Card.name)
        .where(Card.name_norm.like(_like_prefix(normalized), escape="\\"))
        .order_by(Card.name_norm)
        .limit(limit)
    ).all()
    names = list(starting)
    if len(names) < limit:
        inner = session.scalars(
            select(Card.name)
            .where(Card.name_norm.like("% " + _like_prefix(normalized), escape="\\"))
            .order_by(Card.name_norm)
            .limit(limit)
        ).all()
        names.extend(name for name in inner if name not in names)
    return names[:limit]


def printing_by_scryfall_id(session: Session, scryfall_id: str) -> int | None:
    """The printing with that (English) Scryfall id."""
    return session.scalar(select(Printing.id).where(Printing.scryfall_id == scryfall_id).limit(1))


def printing_by_multiverse_id(session: Session, multiverse_id: int) -> PrintingKey | None:
    """The printing, in its language, with that multiverse id (Gatherer gives each language of a
    printing its own)."""
    found = session.execute(
        select(PrintingLocalization.printing_id, Localization.language)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .where(PrintingLocalization.multiverse_id == multiverse_id)
        .order_by(Localization.language != "en", Localization.language)
        .limit(1)
    ).first()
    if found is not None:
        return PrintingKey(found[0], found[1])
    printing_id = session.scalar(select(Printing.id).where(Printing.multiverse_id == multiverse_id).limit(1))
    return PrintingKey(printing_id, "en") if printing_id is not None else None


def card_id_of_printing(session: Session, printing_id: int) -> int | None:
    return session.scalar(select(Printing.card_id).where(Printing.id == printing_id))


def printing_ids_of_card(session: Session, card_id: int) -> list[int]:
    """The card's printings, oldest set first."""
    return list(
        session.scalars(
            select(Printing.id)
            .join(CardSet, CardSet.code == Printing.set_code)
            .where(Printing.card_id == card_id)
            .order_by(CardSet.release_date, Printing.set_code, Printing.id)
        )
    )


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Every name a card is known by (its name, its faces', every translation's), folded for a
    fuzzy lookup: :func:`carddb.text.normalize`, then without spaces or punctuation. Sorted by key,
    so the names starting with a text are a range."""

    keys: tuple[str, ...]
    card_ids: tuple[int, ...]
    names: tuple[str, ...]

    @staticmethod
    def key(normalized: str) -> str:
        return _NOT_LETTERS.sub("", normalized)

    def starting_with(self, key: str) -> set[int]:
        """The cards with a name starting with ``key``."""
        start = bisect_left(self.keys, key)
        found = set()
        for index in range(start, len(self.keys)):
            if not self.keys[index].startswith(key):
                break
            found.add(self.card_ids[index])
        return found

    def containing(self, key: str) -> set[int]:
        """The cards with a name holding ``key``."""
        return {self.card_ids[index] for index, known in enumerate(self.keys) if key in known}

    def closest(self, key: str, limit: int = 10) -> list[tuple[int, str, int]]:
        """The cards whose names are closest to ``key`` by edit distance (at most a third of its
        length, and 2 for short names), closest first: (card id, the closest name, distance), one
        entry per card."""
        most = max(2, len(key) // 3)
        best: dict[int, tuple[int, str]] = {}
        for _, distance, index in process.extract(
            key, self.keys, scorer=Levenshtein.distance, limit=limit * 3, score_cutoff=most
        ):
            card_id = self.card_ids[index]
            if card_id not in best or distance < best[card_id][0]:
                best[card_id] = (int(distance), self.names[index])
        ranked = sorted(best.items(), key=lambda item: item[1][0])[:limit]
        return [(card_id, name, distance) for card_id, (distance, name) in ranked]


_NOT_LETTERS = re.compile(r"[\W_]+")


def name_index(session: Session) -> NameIndex:
    names = union_all(
        select(Card.id.label("card_id"), Card.name.label("name"), Card.name_norm.label("norm")),
        select(Face.card_id, Face.name, Face.name_norm),
        select(Face.card_id, Localization.name, Localization.name_norm).join(
            Face, Face.id == Localization.face_id
        ),
    ).subquery()
    entries = sorted(
        {
            (NameIndex.key(norm), card_id, name)
            for card_id, name, norm in session.execute(
                select(names.c.card_id, names.c.name, names.c.norm).distinct()
            )
            if norm
        }
    )
    return NameIndex(
        tuple(key for key, _, _ in entries),
        tuple(card_id for _, card_id, _ in entries),
        tuple(name for _, _, name in entries),
    )


def card_names(session: Session, card_ids: Sequence[int]) -> list[str]:
    """The English names of the cards, in name order."""
    return list(session.scalars(select(Card.name).where(among(Card.id, list(card_ids))).order_by(Card.name)))
