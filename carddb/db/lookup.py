"""Read helpers taking a Session: find a card by its name in any language and build its view."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import distinct, func, literal, select, union_all
from sqlalchemy.orm import Session

from carddb import languages
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.db.translations import translations_to_show
from carddb.errors import AmbiguousCardError, CardNotFoundError
from carddb.notes import card_notes
from carddb.rules.mentions import MentionedRule, mentions, rule_texts
from carddb.text import normalize
from carddb.views import CardView, FaceView, LanguageCount, PrintingView, RulingView


def find_card_ids(session: Session, normalized: str) -> dict[int, set[str]]:
    """Card ids whose name, face name or any translation normalizes to ``normalized``, with the
    languages the name matched in."""
    matches = union_all(
        select(Card.id.label("card_id"), literal("en", Localization.language.type).label("language")).where(
            Card.name_norm == normalized
        ),
        select(Face.card_id, literal("en", Localization.language.type)).where(Face.name_norm == normalized),
        select(Face.card_id, Localization.language)
        .join(Face, Face.id == Localization.face_id)
        .where(Localization.name_norm == normalized),
    ).subquery()
    found: dict[int, set[str]] = defaultdict(set)
    for card_id, language in session.execute(select(matches.c.card_id, matches.c.language).distinct()):
        found[card_id].add(language)
    return dict(found)


def card_by_name(session: Session, name: str, lang: str | None = None) -> CardView:
    """Look a card up by its exact name (folded) in any language and show it in ``lang`` (default:
    the language the name was found in, English first). A name no card has raises
    :class:`CardNotFoundError` without suggestions: :mod:`carddb.db.fuzzy` (imported only then,
    with RapidFuzz) resolves or suggests (:func:`carddb.db.fuzzy.card_by_fuzzy_name`)."""
    normalized = normalize(name)
    requested = languages.resolve(lang).tag if lang else None
    found = find_card_ids(session, normalized) if normalized else {}
    if not found:
        raise CardNotFoundError(name, [])
    card_id = _choose(session, name, found, requested)
    matched = sorted(found[card_id], key=lambda tag: (tag != "en", tag))
    shown = requested or matched[0]
    return build_view(
        session, card_id, shown, matched_name=name, matched_language=matched[0], normalized=normalized
    )


def _choose(session: Session, name: str, found: dict[int, set[str]], requested: str | None) -> int:
    if len(found) == 1:
        return next(iter(found))
    for preferred in (requested, "en"):
        if preferred:
            ids = [card_id for card_id, langs in found.items() if preferred in langs]
            if len(ids) == 1:
                return ids[0]
    names = session.scalars(select(Card.name).where(Card.id.in_(found)).order_by(Card.name))
    raise AmbiguousCardError(name, list(names))


def build_view(
    session: Session,
    card_id: int,
    language: str,
    *,
    matched_name: str = "",
    matched_language: str = "en",
    normalized: str = "",
) -> CardView:
    card = session.get_one(Card, card_id)
    faces = list(card.faces)
    by_language = translations_to_show(session, [f.id for f in faces], {language, "en"}, normalized)
    chosen = by_language.get(language, {})
    english = by_language.get("en", {})
    fallback = False
    face_views = []
    for face in faces:
        loc = chosen.get(face.id)
        flavor_source = loc if loc is not None else english.get(face.id)
        if language == "en" or loc is None:
            fallback = fallback or language != "en"
            name, type_line, text, shown = face.name, face.type_line, face.oracle_text, "en"
        else:
            name = loc.name
            type_line = loc.type_line or face.type_line
            text = loc.text if loc.text is not None else face.oracle_text
            fallback = (
                fallback or loc.type_line is None or (loc.text is None and face.oracle_text is not None)
            )
            shown = language
        face_views.append(
            FaceView(
                name=name,
                english_name=face.name,
                type_line=type_line,
                text=text,
                mana_cost=face.mana_cost,
                mana_value=face.mana_value,
                power=face.power,
                toughness=face.toughness,
                loyalty=face.loyalty,
                defense=face.defense,
                flavor=flavor_source.flavor if flavor_source is not None else None,
                language=shown,
                colors=face.colors,
            )
        )
    rulings = _rulings(session, card_id, language)
    rulings_language = rulings[0].language if rulings else language
    notes = card_notes(session, card_id)
    shown_name = " // ".join(f.name for f in face_views) if len(face_views) > 1 else face_views[0].name
    if len(face_views) > 1 and all(f.language == "en" for f in face_views):
        shown_name = card.name
    return CardView(
        oracle_id=card.oracle_id,
        name=shown_name,
        english_name=card.name,
        layout=card.layout,
        language=language,
        fallback=fallback,
        matched_name=matched_name,
        matched_language=matched_language,
        faces=tuple(face_views),
        printings=_printings(session, card_id),
        rulings=rulings,
        rulings_language=rulings_language,
        notes=notes,
        rules=mentioned_rules(session, [r.text for r in rulings] + [n.text for n in notes]),
    )


def mentioned_rules(session: Session, texts: list[str]) -> tuple[MentionedRule, ...]:
    """Each rule the texts mention (``see rule 702.35``, ``rules 601.2f–h``), once, in order of
    first mention, looked up in the stored Comprehensive Rules."""
    numbers = list(dict.fromkeys(number for text in texts for m in mentions(text) for number in m.numbers))
    stored = rule_texts(session, numbers)
    return tuple(MentionedRule(number, stored.get(number)) for number in numbers)


def _printings(session: Session, card_id: int) -> tuple[PrintingView, ...]:
    langs: dict[int, set[str]] = defaultdict(set)
    for printing_id, language in session.execute(
        select(PrintingLocalization.printing_id, Localization.language)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .join(Printing, Printing.id == PrintingLocalization.printing_id)
        .where(Printing.card_id == card_id)
        .distinct()
    ):
        langs[printing_id].add(language)
    rows = session.execute(
        select(Printing, CardSet)
        .join(CardSet, CardSet.code == Printing.set_code)
        .where(Printing.card_id == card_id)
        .order_by(CardSet.release_date, Printing.set_code, Printing.collector_number)
    ).all()
    return tuple(
        PrintingView(
            set_code=printing.set_code,
            set_name=card_set.name,
            release_date=card_set.release_date,
            collector_number=printing.collector_number,
            rarity=printing.rarity,
            languages=tuple(sorted(langs[printing.id], key=_language_order)),
        )
        for printing, card_set in rows
    )


def _rulings(session: Session, card_id: int, language: str) -> tuple[RulingView, ...]:
    """The card's rulings in ``language`` where there are any, else the English ones."""
    rows = session.scalars(
        select(Ruling)
        .where(Ruling.card_id == card_id, Ruling.language.in_({language, "en"}))
        .order_by(Ruling.published, Ruling.source, Ruling.position)
    ).all()
    wanted = [r for r in rows if r.language == language] or [r for r in rows if r.language == "en"]
    return tuple(RulingView(r.published, r.text, r.language, r.source) for r in wanted)


def _language_order(tag: str) -> tuple[int, str]:
    order = [lang.tag for lang in languages.KNOWN]
    return (order.index(tag), tag) if tag in order else (len(order), tag)


def language_counts(session: Session) -> list[LanguageCount]:
    """The languages present in the database, with how many translations, printings and rulings
    each has, in the language model's order."""
    locs = dict(
        session.execute(select(Localization.language, func.count()).group_by(Localization.language)).all()
    )
    prints = dict(
        session.execute(
            select(Localization.language, func.count(distinct(PrintingLocalization.printing_id)))
            .join(PrintingLocalization, PrintingLocalization.localization_id == Localization.id)
            .group_by(Localization.language)
        ).all()
    )
    rules = dict(session.execute(select(Ruling.language, func.count()).group_by(Ruling.language)).all())
    result = []
    for tag in sorted(set(locs) | set(rules), key=_language_order):
        language = languages.by_tag(tag)
        result.append(
            LanguageCount(
                tag=tag,
                english_name=language.english_name,
                native_name=language.native_name,
                localizations=int(locs.get(tag, 0)),
                printings=int(prints.get(tag, 0)),
                rulings=int(rules.get(tag, 0)),
            )
        )
    return result
