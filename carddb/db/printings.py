"""Which card names were first printed in a set: the set whose release date is the earliest among a
card's printings (Golgothian Sylex's "a name originally printed in the Antiquities expansion"). The
rules engine is given the answer (``Game.first_printed``); it never opens the database."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb.db.models import Card, CardSet, Printing


def first_printed(session: Session, set_names: Iterable[str]) -> dict[str, frozenset[str]]:
    """Set name → the names of the cards whose earliest printing is in that set (a card printed in
    two sets on its first day counts for both). A set the database does not hold is left out, so
    that the engine refuses to answer for it rather than read it as "no names"."""
    wanted = set(set_names)
    known = set(session.scalars(select(CardSet.name).where(CardSet.name.in_(wanted))))
    first = (
        select(Printing.card_id, func.min(CardSet.release_date).label("first"))
        .join(CardSet, CardSet.code == Printing.set_code)
        .group_by(Printing.card_id)
        .subquery()
    )
    rows = session.execute(
        select(CardSet.name, Card.name)
        .join(Printing, Printing.set_code == CardSet.code)
        .join(Card, Card.id == Printing.card_id)
        .join(first, first.c.card_id == Card.id)
        .where(CardSet.name.in_(known), CardSet.release_date == first.c.first)
        .distinct()
    ).all()
    names: dict[str, set[str]] = {name: set() for name in known}
    for set_name, card_name in rows:
        names[set_name].add(card_name)
    return {set_name: frozenset(cards) for set_name, cards in names.items()}
