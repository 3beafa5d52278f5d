"""Which translation of each face to show: shared by a card's view (:mod:`carddb.db.lookup`) and
search results (:mod:`carddb.search.run`), which so need not load the rest of the card lookup."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import ScalarSelect, func, select
from sqlalchemy.orm import Session, aliased

from carddb.db.models import CardSet, Face, Localization, Printing, PrintingLocalization

__all__ = ["shown_translation", "translations_to_show"]


def translations_to_show(
    session: Session, face_ids: list[int], languages_wanted: set[str], normalized: str
) -> dict[str, dict[int, Localization]]:
    """Per language and face, the translation to show: the variant whose name was typed, else one
    whose name is translated at all (some sources leave a face's name in English), newest printing
    first, the first imported among equals. (:func:`shown_translation` is the same choice, when no
    name was typed, as one SQL expression.)"""
    newest = func.max(CardSet.release_date)
    # Outer joins: a translation read from a card page is carried by no printing (released: None,
    # so a printed translation of the same face is preferred).
    rows = session.execute(
        select(Localization, newest, Face.name)
        .join(Face, Face.id == Localization.face_id)
        .outerjoin(PrintingLocalization, PrintingLocalization.localization_id == Localization.id)
        .outerjoin(Printing, Printing.id == PrintingLocalization.printing_id)
        .outerjoin(CardSet, CardSet.code == Printing.set_code)
        .where(Localization.face_id.in_(face_ids), Localization.language.in_(languages_wanted))
        .group_by(Localization.id, Face.name)
        .order_by(Localization.id)
    ).all()
    chosen: dict[tuple[str, int], tuple[tuple[bool, bool, str], Localization]] = {}
    for loc, released, english_name in rows:
        translated = loc.language == "en" or loc.name != english_name
        rank = (loc.name_norm == normalized, translated, released.isoformat() if released else "")
        key = (loc.language, loc.face_id)
        if key not in chosen or rank > chosen[key][0]:
            chosen[key] = (rank, loc)
    result: dict[str, dict[int, Localization]] = {}
    for (language, face_id), (_rank, loc) in chosen.items():
        result.setdefault(language, {})[face_id] = loc
    return result


_ENGLISH_FACE = aliased(Face, name="english_face")


@lru_cache(maxsize=64)
def shown_translation(face_id: Any, language: str) -> ScalarSelect[int]:
    """The id of the translation of the face ``face_id`` (a column of the enclosing query) shown in
    ``language`` when no name was typed, NULL when there is none: the choice of
    :func:`translations_to_show` as a correlated subquery, so a page of search hits gets its names in the
    statement that finds it. (Built once per column and language: statements share it.)"""
    english = _ENGLISH_FACE
    translated = Localization.name != (
        select(english.name).where(english.id == Localization.face_id).scalar_subquery()
    )
    newest = (
        select(func.max(CardSet.release_date))
        .select_from(PrintingLocalization)
        .join(Printing, Printing.id == PrintingLocalization.printing_id)
        .join(CardSet, CardSet.code == Printing.set_code)
        .where(PrintingLocalization.localization_id == Localization.id)
        .scalar_subquery()
    )
    return (
        select(Localization.id)
        .where(Localization.face_id == face_id, Localization.language == language)
        .order_by(translated.desc(), newest.desc().nulls_last(), Localization.id)
        .limit(1)
        .scalar_subquery()
    )
