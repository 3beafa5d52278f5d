"""The facts Scryfall objects show (:mod:`carddb.scryfall_json`), read from a session, in bulk:
a page of 175 search hits costs a few statements, not a few per card.

A Scryfall card object is one printing in one language. :func:`chosen_printings` picks, for each
card of a search page, the printing to show (the newest one printed in the language asked for,
else the newest one); :func:`card_facts` reads the facts of many (printing, language) pairs at
once.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb.db.lists import among
from carddb.db.models import (
    Card,
    CardSet,
    Face,
    Legality,
    Localization,
    Printing,
    PrintingLocalization,
    Ruling,
)
from carddb.scryfall_json import CardFacts, FaceFacts, PrintingFacts, RulingFacts, SetFacts, derived_id
from carddb.search.keywords import FORMATS
from carddb.search.results import SearchHit

__all__ = [
    "PrintingKey",
    "card_facts",
    "chosen_printings",
    "derived_ids",
    "facts_of_keys",
    "keys_of_hits",
    "printing_by_number",
    "printing_languages",
    "printings_by_numbers",
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


def keys_of_hits(session: Session, hits: Sequence[SearchHit], language: str) -> list[PrintingKey | None]:
    """The printing each search hit shows, in the order of ``hits`` (None: not found): the hit's
    own printing when the search gave one per printing (``unique:prints``), in ``language`` where
    it is printed in it, else English; else the card's :func:`chosen_printings`."""
    if hits and all(hit.set_code is not None and hit.collector_number is not None for hit in hits):
        numbers = {(hit.set_code or "", hit.collector_number or "") for hit in hits}
        ids = printings_by_numbers(session, numbers)
        printed = printing_languages(session, ids.values()) if language != "en" else {}
        keys: list[PrintingKey | None] = []
        for hit in hits:
            printing_id = ids.get(((hit.set_code or "").upper(), hit.collector_number or ""))
            if printing_id is None:
                keys.append(None)
                continue
            shown = language if language in printed.get(printing_id, set()) else "en"
            keys.append(PrintingKey(printing_id, shown))
        return keys
    by_oracle = card_ids_by_oracle(session, [hit.oracle_id for hit in hits])
    chosen = chosen_printings(session, list(by_oracle.values()), language)
    return [chosen.get(by_oracle.get(hit.oracle_id, -1)) for hit in hits]


def printings_by_numbers(session: Session, numbers: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The row ids of the printings with these (set code, collector number)."""
    wanted = {(code.upper(), number) for code, number in numbers}
    if not wanted:
        return {}
    rows = session.execute(
        select(Printing.set_code, Printing.collector_number, Printing.id).where(
            among(Printing.set_code, sorted({code for code, _ in wanted}))
        )
    )
    return {(code, number): printing_id for code, number, printing_id in rows if (code, number) in wanted}


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
    Printing.artist,
    Printing.finishes,
    Printing.games,
    Printing.border,
    Printing.frame,
    Printing.promo,
    Printing.digital,
    Printing.reprint,
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


def card_facts(session: Session, keys: Sequence[PrintingKey | None]) -> list[CardFacts]:
    """The facts of each (printing, language), in the order of ``keys``; a key that is None or
    whose printing does not exist is left out."""
    return [found for found in facts_of_keys(session, keys) if found is not None]


def facts_of_keys(session: Session, keys: Sequence[PrintingKey | None]) -> list[CardFacts | None]:
    """The facts of each (printing, language), one per key (None for a key that is None or
    whose printing does not exist). A face without a translation in the language has no printed text.
    (Three statements for any number of keys, read as plain rows.)"""
    printing_ids = sorted({key.printing_id for key in keys if key is not None})
    if not printing_ids:
        return [None] * len(keys)
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
            among(Localization.language, sorted({key.language for key in keys if key is not None})),
        )
        .order_by(Localization.id)
    ):
        linked[(link.printing_id, link.language)].setdefault(link.face_id, link)
    legal: dict[int, dict[str, str]] = defaultdict(dict)
    for card_id, format_, status in connection.execute(
        select(Legality.card_id, Legality.format, Legality.status).where(among(Legality.card_id, card_ids))
    ):
        legal[card_id][format_] = status
    result: list[CardFacts | None] = []
    for key in keys:
        printing = printings.get(key.printing_id) if key is not None else None
        if key is None or printing is None or not faces[printing.card_id]:
            result.append(None)
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
                    legalities=_legalities(legal.get(printing.card_id, {})),
                    artist=printing.artist,
                    finishes=_words(printing.finishes),
                    promo=printing.promo,
                    digital=printing.digital,
                    reprint=printing.reprint,
                    border_color=printing.border,
                    frame=printing.frame,
                    games=_words(printing.games),
                ),
                language=key.language,
                multiverse_ids=tuple(multiverse_ids),
            )
        )
    return result


def _words(value: str | None) -> tuple[str, ...] | None:
    """A stored list of words (``"nonfoil foil"``) as a tuple; None when the source did not say."""
    return None if value is None else tuple(value.split())


def _legalities(stored: dict[str, str]) -> dict[str, str]:
    """Every format Scryfall lists, ``not_legal`` where the card has no status in it (the database
    stores only ``legal``, ``banned`` and ``restricted``)."""
    return {**{name: "not_legal" for name in FORMATS}, **stored}


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


def card_names(session: Session, card_ids: Sequence[int]) -> list[str]:
    """The English names of the cards, in name order."""
    return list(session.scalars(select(Card.name).where(among(Card.id, list(card_ids))).order_by(Card.name)))
