"""Which translation of each face to show: shared by a card's view (:mod:`carddb.db.lookup`) and
search results (:mod:`carddb.search.run`), which so need not load the rest of the card lookup."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb.db.models import CardSet, Face, Localization, Printing, PrintingLocalization

__all__ = ["translations_to_show"]


def translations_to_show(
    session: Session, face_ids: list[int], languages_wanted: set[str], normalized: str
) -> dict[str, dict[int, Localization]]:
    """Per language and face, the translation to show: the variant whose name was typed, else one
    whose name is translated at all (some sources leave a face's name in English), newest printing
    first."""
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
