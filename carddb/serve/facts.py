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

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.scryfall_json import CardFacts, FaceFacts, PrintingFacts, RulingFacts, SetFacts, derived_id

__all__ = [
    "PrintingKey",
    "card_facts",
    "chosen_printings",
    "derived_ids",
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


def card_facts(session: Session, keys: Sequence[PrintingKey]) -> list[CardFacts]:
    """The facts of each (printing, language), in the order of ``keys``; a key whose printing does
    not exist is left out. A face without a translation in the language has no printed text."""
    printing_ids = list({key.printing_id for key in keys})
    if not printing_ids:
        return []
    printings = {
        printing.id: (printing, card_set)
        for printing, card_set in session.execute(
            select(Printing, CardSet)
            .join(CardSet, CardSet.code == Printing.set_code)
            .where(Printing.id.in_(printing_ids))
        )
    }
    card_ids = list({printing.card_id for printing, _ in printings.values()})
    cards = {card.id: card for card in session.scalars(select(Card).where(Card.id.in_(card_ids)))}
    faces: dict[int, list[Face]] = defaultdict(list)
    for face in session.scalars(select(Face).where(Face.card_id.in_(card_ids)).order_by(Face.position)):
        faces[face.card_id].append(face)
    # the translations each printing carries, per language and face, with the link's multiverse id
    linked: dict[tuple[int, str], dict[int, tuple[Localization, int | None]]] = defaultdict(dict)
    wanted_languages = list({key.language for key in keys})
    for linked_printing, linked_multiverse, linked_loc in session.execute(
        select(PrintingLocalization.printing_id, PrintingLocalization.multiverse_id, Localization)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .where(
            PrintingLocalization.printing_id.in_(printing_ids),
            Localization.language.in_(wanted_languages),
        )
        .order_by(Localization.id)
    ):
        linked[(linked_printing, linked_loc.language)].setdefault(
            linked_loc.face_id, (linked_loc, linked_multiverse)
        )
    result = []
    for key in keys:
        if key.printing_id not in printings:
            continue
        printing, card_set = printings[key.printing_id]
        card = cards[printing.card_id]
        translations = linked.get((key.printing_id, key.language), {})
        face_facts = []
        multiverse_ids = []
        for face in faces[card.id]:
            loc: Localization | None = None
            multiverse_id: int | None = None
            if face.id in translations:
                loc, multiverse_id = translations[face.id]
            if multiverse_id is not None and multiverse_id not in multiverse_ids:
                multiverse_ids.append(multiverse_id)
            localized = key.language != "en" and loc is not None
            face_facts.append(
                FaceFacts(
                    name=face.name,
                    mana_cost=face.mana_cost,
                    type_line=face.type_line,
                    oracle_text=face.oracle_text,
                    colors=face.colors,
                    power=face.power,
                    toughness=face.toughness,
                    loyalty=face.loyalty,
                    defense=face.defense,
                    flavor_text=loc.flavor if loc is not None else None,
                    printed_name=loc.name if localized and loc is not None else None,
                    printed_type_line=loc.type_line if localized and loc is not None else None,
                    printed_text=loc.text if localized and loc is not None else None,
                )
            )
        if not multiverse_ids and key.language == "en" and printing.multiverse_id is not None:
            multiverse_ids.append(printing.multiverse_id)
        result.append(
            CardFacts(
                oracle_id=card.oracle_id,
                name=card.name,
                layout=card.layout,
                cmc=card.mana_value,
                color_identity="".join(face.color_identity for face in faces[card.id]),
                keywords=tuple(dict.fromkeys(k for face in faces[card.id] for k in face.keywords or ())),
                faces=tuple(face_facts),
                printing=PrintingFacts(
                    set_code=printing.set_code,
                    set_name=card_set.name,
                    collector_number=printing.collector_number,
                    rarity=printing.rarity,
                    released_at=card_set.release_date,
                    scryfall_id=printing.scryfall_id,
                    set_type=card_set.set_type,
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
