"""What imported rulings and keyword pages say about a keyword, a game topic or a card.

The pages importer (:mod:`carddb.ingest.pages`) stores each paragraph once per topic and card it
is about (:class:`carddb.db.models.Note`). Reading turns those rows back into paragraphs: a
paragraph about madness and Golgothian Sylex is one :class:`NoteView` naming both, whichever of
them it was found through, with every page it was read from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from carddb.db.models import Card, GlossaryEntry, Note
from carddb.errors import CarddbError
from carddb.text import normalize

__all__ = [
    "KeywordView",
    "NoteView",
    "UnknownTopicError",
    "card_notes",
    "format_keyword",
    "format_note",
    "keyword_view",
]

SUGGESTIONS = 5


class UnknownTopicError(CarddbError, LookupError):
    """A name that is no keyword or game topic carddb knows; carries the closest ones."""

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        message = f"no keyword or topic named {name!r}"
        if self.suggestions:
            message += "; did you mean: " + "; ".join(self.suggestions)
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), (self.name, self.suggestions))


@dataclass(frozen=True, slots=True)
class NoteView:
    """One paragraph of a page, with everything it is about.

    ``topics`` are topic keys (``"madness"``, ``"dice"``), ``cards`` English card names;
    ``sources`` the pages it was first stored from (a paragraph repeated on a later page adds
    nothing, so that page is not listed).
    """

    text: str
    language: str
    sources: tuple[str, ...]
    topics: tuple[str, ...]
    cards: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()
        }


@dataclass(frozen=True, slots=True)
class KeywordView:
    """A keyword or game topic: what it is, the glossary's definition when the Comprehensive Rules
    are imported, and the notes about it, in the order they were imported."""

    key: str
    name: str
    kind: str
    rule: str | None
    aliases: tuple[str, ...]
    glossary: str | None
    notes: tuple[NoteView, ...]

    def to_dict(self) -> dict[str, Any]:
        data = {key: value for key, value in asdict(self).items() if key != "notes"}
        data["aliases"] = list(self.aliases)
        data["notes"] = [note.to_dict() for note in self.notes]
        return data


def keyword_view(session: Session, name: str) -> KeywordView:
    """The keyword or topic ``name`` names (folded with :func:`carddb.text.normalize`: ``"MADNESS"``,
    ``"Totem armor"``, ``"scrying"``) and its notes; :class:`UnknownTopicError` with the closest
    names when it names none. A known keyword no page spoke of has no notes (not an error)."""
    # deferred: the keyword table is built when imported, and showing a card's notes needs none of it
    from carddb.topics import find_topic

    topic = find_topic(name)
    if topic is None:
        # A topic stored by an importer newer than this table is still shown.
        key = normalize(name)
        if not key or session.scalar(select(Note.id).where(Note.topic == key).limit(1)) is None:
            raise UnknownTopicError(name, _suggest(session, key))
        return KeywordView(key, name.strip(), "topic", None, (), None, _topic_notes(session, key))
    return KeywordView(
        key=topic.key,
        name=topic.name,
        kind=str(topic.kind),
        rule=topic.rule,
        aliases=topic.aliases,
        glossary=_glossary(session, (topic.name, topic.key, *topic.aliases)),
        notes=_topic_notes(session, topic.key),
    )


def _topic_notes(session: Session, key: str) -> tuple[NoteView, ...]:
    texts = select(Note.text).where(Note.topic == key).scalar_subquery()
    return _notes(session, Note.text.in_(texts))


def card_notes(session: Session, card_id: int) -> tuple[NoteView, ...]:
    """The paragraphs of rulings pages about the card ``card_id``, in the order they were imported."""
    texts = select(Note.text).where(Note.card_id == card_id).scalar_subquery()
    return _notes(session, Note.text.in_(texts))


def _notes(session: Session, condition: Any) -> tuple[NoteView, ...]:
    """Rows matching ``condition`` gathered into paragraphs (same language and text)."""
    rows = session.execute(
        select(Note.language, Note.text, Note.source, Note.topic, Card.name)
        .outerjoin(Card, Card.id == Note.card_id)
        .where(condition)
        .order_by(Note.id)
    )
    gathered: dict[tuple[str, str], tuple[list[str], list[str], list[str]]] = {}
    for language, text, source, topic, card in rows:
        sources, topics, cards = gathered.setdefault((language, text), ([], [], []))
        for values, value in ((sources, source), (topics, topic), (cards, card)):
            if value is not None and value not in values:
                values.append(value)
    return tuple(
        NoteView(text, language, tuple(sources), tuple(topics), tuple(cards))
        for (language, text), (sources, topics, cards) in gathered.items()
    )


def _glossary(session: Session, names: Sequence[str]) -> str | None:
    folded = [normalize(name) for name in names]
    rows = dict(
        session.execute(
            select(GlossaryEntry.term_norm, GlossaryEntry.text).where(GlossaryEntry.term_norm.in_(folded))
        ).all()
    )
    return next((rows[name] for name in folded if name in rows), None)


def _suggest(session: Session, folded: str) -> list[str]:
    from rapidfuzz import fuzz, process  # deferred, like the keyword table: only a miss needs them

    from carddb.topics import TOPICS

    names: dict[str, str] = {}
    for topic in TOPICS:
        for name in (topic.name, *topic.aliases):
            names.setdefault(normalize(name), name)
    for stored in session.scalars(select(Note.topic).where(Note.topic.is_not(None)).distinct()):
        if stored:
            names.setdefault(normalize(stored), stored)
    if not folded:
        return []
    best = process.extract(folded, list(names), scorer=fuzz.WRatio, limit=SUGGESTIONS, score_cutoff=70)
    return [names[choice] for choice, _score, _index in best]


def format_note(note: NoteView, about: str | None = None) -> str:
    """One note as two indented lines: the paragraph, then where it is from and what else it is
    about (``about``: the topic key or card name being shown, left out of that list)."""
    others = [name for name in (*note.topics, *note.cards) if name != about]
    where = "; ".join(note.sources)
    if others:
        where += "; also about: " + ", ".join(others)
    return f"  • {note.text}\n    [{where}]"


def format_keyword(view: KeywordView) -> str:
    """A keyword or topic as text: what it is, its glossary entry, then its notes."""
    heading = f"{view.name} — {view.kind}"
    if view.rule:
        heading += f", rule {view.rule}"
    lines = [heading]
    if view.aliases:
        lines.append(f"Also called: {', '.join(view.aliases)}")
    if view.glossary:
        lines.append(f"Glossary: {view.glossary}")
    lines.append("")
    if not view.notes:
        lines.append("No rulings or keyword pages imported say anything about it.")
    else:
        count = len(view.notes)
        lines.append(f"{count} note{'' if count == 1 else 's'} from rulings and keyword pages:")
        lines.extend(format_note(note, view.key) for note in view.notes)
    return "\n".join(lines)
