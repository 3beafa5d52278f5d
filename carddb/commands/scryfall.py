"""What ``--json`` prints: Scryfall's objects (:mod:`carddb.scryfall_json`), so that a tool written
for Scryfall's API reads carddb's output unchanged. A card is one printing in one language, as a
Scryfall card object is: the newest printing in the language asked for, else the newest in English
(:func:`carddb.serve.facts.chosen_printings`, the very choice ``carddb serve`` makes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click
from sqlalchemy import select

from carddb.db.models import Card
from carddb.scryfall_json import RulingFacts, card_object, list_object, ruling_object
from carddb.serve.facts import card_facts, chosen_printings

if TYPE_CHECKING:
    from carddb.database import Database
    from carddb.search.results import SearchResult
    from carddb.views import CardView


def card_objects(db: Database, oracle_ids: Sequence[str], language: str) -> list[dict[str, Any]]:
    """The Scryfall card objects of the cards ``oracle_ids``, in that order, each in ``language``
    where a printing of it is printed in that language."""
    with db.session() as session:
        rows = session.execute(select(Card.oracle_id, Card.id).where(Card.oracle_id.in_(list(oracle_ids))))
        card_ids = {oracle_id: card_id for oracle_id, card_id in rows}
        chosen = chosen_printings(session, list(card_ids.values()), language)
        keys = [chosen[card_ids[o]] for o in oracle_ids if o in card_ids and card_ids[o] in chosen]
        return [card_object(facts) for facts in card_facts(session, keys)]


def card_json(db: Database, view: CardView) -> dict[str, Any]:
    """``carddb card --json``: the card object of the card in the view's language, with carddb's
    one addition, ``rulings``: a list object of its rulings (Scryfall's ruling objects; in the
    view's language where imported, else English)."""
    objects = card_objects(db, [view.oracle_id], view.language)
    if not objects:  # a card without any printing: nothing Scryfall would show
        raise click.ClickException(f"{view.english_name} has no printing to show")
    obj = objects[0]
    obj["rulings"] = list_object(
        [
            ruling_object(RulingFacts(view.oracle_id, ruling.source, ruling.published, ruling.text))
            for ruling in view.rulings
        ]
    )
    return obj


def search_json(db: Database, result: SearchResult) -> dict[str, Any]:
    """``carddb search --json``: a list object of the page's card objects, with ``total_cards``
    and ``has_more`` (``carddb search --page N+1`` gives the next page)."""
    data = card_objects(db, [hit.oracle_id for hit in result.cards], result.language)
    shown = (result.page - 1) * result.limit + len(result.cards)
    obj = list_object(data, total_cards=result.total)
    obj["has_more"] = shown < result.total
    return obj


__all__ = ["card_json", "card_objects", "search_json"]
