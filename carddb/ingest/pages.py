"""Card pages and rulings pages: plain text copied from the web, read by its shape.

``carddb import FILE`` sends here every text file that is not the Comprehensive Rules
(:mod:`carddb.ingest.detect`). A page is split into paragraphs (runs of lines between blank
lines); a *heading* is a paragraph of one short line that does not end a sentence. Three shapes
are read, tried in this order; anything else is refused with :class:`PageShapeError`:

1. **A card page with sections** (``Descripción`` / rules text / ``Información adicional`` /
   ``23/07/2021 ruling``…): headings and bodies alternate, and one body is made of lines that
   each begin with a date. The page does not name its card: it is found by matching the rules
   text against the stored translations in the page's language (exactly after
   :func:`carddb.text.normalize`, else with RapidFuzz above :data:`MATCH_THRESHOLD`), or given
   with ``carddb import --card NAME``. Dates are read in the page's locale with Babel
   (:meth:`carddb.languages.Language.parse_date`). The rulings are stored in the page's language
   with source ``"wotc"``: they are Wizards of the Coast's rulings of that date, translated (the
   same ten rulings Wizards published in English on 2021-07-23), so they rank with the English
   ones and not with commentary; each is linked to the English ruling it translates
   (``original_digest``) when the card has as many English rulings of that date as the page, in
   the same order, with the same numbers and addresses in each pair.
2. **A card in several languages**: blocks of (name, rules text) one after another, then the
   names of sets the card is in, then rulings. Each block's language is the language of a stored
   translation of the card with that name (narrowed by the text when several languages share the
   name), else the language its script and words show (:mod:`carddb.ingest.language_guess`); a
   block that cannot be placed, or that would be a second text in a language already given, is
   reported and not stored. The card is the one the block names point to. New translations are
   stored with ``origin="page"`` (no printing carries them, so the loader's prune keeps them);
   new rulings (compared folded, dates ignored) with source ``"page"`` and no date.
3. **A rulings page** (headings naming keywords, paragraphs of rulings and explanations): each
   paragraph is attached to what its own words are about (:mod:`carddb.topics`; cards named in it
   that the database holds), not to the heading above it, and stored as :class:`Note` rows, one
   per topic and card it is about (both when it names both). Names in an enumeration (a sentence
   listing many names) are not what the paragraph is about and are left out. A note's digest is
   a hash of (topic, card, language, folded text), so the same paragraph on two pages, or a page
   imported twice, is stored once.

Each file is one transaction; nothing stored is changed except a translated ruling's missing
link. ``FileSummary.localizations``/``rulings``/``notes`` count what the page gave (blocks placed,
rulings read, paragraphs attached), like the other importers count entries read; ``report``
says, line by line, where each part went and what was new.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process
from sqlalchemy import Connection, Table, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from carddb import languages
from carddb.db import fuzzy, lookup
from carddb.db.models import Card, CardSet, Face, Localization, Note, Printing, Ruling
from carddb.errors import UnknownLanguageError
from carddb.ingest.base import FileSummary, ImportRun, file_transaction
from carddb.ingest.language_guess import LanguageGuess, guess_language
from carddb.ingest.loader import Loader
from carddb.ingest.page_text import (
    Attachment,
    Block,
    CardName,
    CardNames,
    CardNotIdentifiedError,
    DatedLine,
    PageDateError,
    PageLanguageError,
    PageShapeError,
    Paragraph,
    SectionsPage,
    TranslationsPage,
    attach,
    dated_lines,
    read_paragraphs,
    sections_page,
    translations_page,
)
from carddb.ingest.records import LocalizedFace, RulingRecord, content_digest, normalize_name
from carddb.search import index
from carddb.text import normalize
from carddb.topics import Topic, find_topic

__all__ = [
    "MATCH_THRESHOLD",
    "CardNotIdentifiedError",
    "PageDateError",
    "PageLanguageError",
    "PageShapeError",
    "Paragraph",
    "import_page",
    "read_paragraphs",
]

MATCH_THRESHOLD = 90.0
"""RapidFuzz ``ratio`` (0–100) a page's rules text needs to count as a stored translation: the
Spanish seed page writes ``Tira un d20`` and ``1-14`` where the printed card has ``Tira 1d20`` and
``1—14`` (98); the next best of the 4,376 Spanish texts of the corpus, another d20 table, scores 65."""
MATCH_MARGIN = 5.0
"""How far the best card must lead the next one for a fuzzy match to name it."""
SUGGESTION_CUTOFF = 55.0

localizations_t: Table = Localization.__table__  # type: ignore[assignment]
rulings_t: Table = Ruling.__table__  # type: ignore[assignment]
notes_t: Table = Note.__table__  # type: ignore[assignment]


# -- the import -----------------------------------------------------------------------------------
def import_page(run: ImportRun, path: Path) -> FileSummary:
    """Import one card page or rulings page in one transaction (see the module docstring).

    ``card``: the card the page is about (``carddb import --card NAME``), for a page that does not
    name it (``run.card``). Raises :class:`PageShapeError`, :class:`CardNotIdentifiedError`,
    :class:`PageDateError` or :class:`PageLanguageError`, and :class:`SourceError` when the
    database refuses a write; the file is then rolled back whole.
    """
    started = time.perf_counter()
    run.progress.file(run.number(path), path)
    paragraphs = read_paragraphs(path, run.progress)
    with file_transaction(run.engine, path) as connection, Session(bind=connection) as session:
        page = _PageImport(connection, session, path)
        page.run(paragraphs, run.card)
    run.progress.wrote(localizations=page.localizations, rulings=page.rulings)
    return FileSummary(
        path=path,
        sets=(),
        skipped_sets=(),
        cards=0,
        printings=0,
        localizations=page.localizations,
        rulings=page.rulings,
        seconds=time.perf_counter() - started,
        warnings=tuple(page.warnings),
        kind="page",
        notes=page.notes,
        report=tuple(page.report),
    )


@dataclass(frozen=True, slots=True)
class _Placed:
    """Where a block goes: its face and language (None: not stored) and how that was decided."""

    block: Block
    face_id: int | None
    language: str | None
    how: str
    stored_name: bool = False


@dataclass
class _PageImport:
    """One page being imported: the transaction's connection and a session reading through it."""

    connection: Connection
    session: Session
    path: Path
    report: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    localizations: int = 0
    rulings: int = 0
    notes: int = 0
    touched: set[int] = field(default_factory=set)

    # -- dispatch ---------------------------------------------------------------------------------
    def run(self, paragraphs: Sequence[Paragraph], card: str | None) -> None:
        if not paragraphs:
            raise PageShapeError(self.path, "the page holds no text")
        sections = sections_page(paragraphs)
        if sections is not None:
            self.card_page(sections, card)
        else:
            set_names = frozenset(normalize(name) for name in self.session.scalars(select(CardSet.name)))
            translations = translations_page(paragraphs, set_names)
            if translations is not None:
                self.translations(translations, card)
            else:
                self.rulings_page(paragraphs)
        if self.touched:
            index.mark_pending(self.connection, self.touched)
            Loader(self.connection).forget_set_digests()

    def warn(self, message: str) -> None:
        self.warnings.append(f"{self.path.name}: {message}")

    def _insert_new(self, table: Table, rows: list[dict[str, Any]], keys: Sequence[str]) -> None:
        if rows:
            dialect = postgresql if self.connection.dialect.name == "postgresql" else sqlite
            statement = dialect.insert(table).on_conflict_do_nothing(index_elements=list(keys))
            self.connection.execute(statement, rows)

    # -- which card -------------------------------------------------------------------------------
    def card_named(self, name: str) -> int:
        """The card ``--card NAME`` names (any language, English preferred)."""
        folded = normalize(name)
        found = lookup.find_card_ids(self.session, folded) if folded else {}
        if not found:
            raise CardNotIdentifiedError(
                self.path, f"no card named {name!r} (--card)", fuzzy.suggestions(self.session, folded)
            )
        english = [card_id for card_id, langs in found.items() if "en" in langs]
        if len(found) > 1 and len(english) != 1:
            raise CardNotIdentifiedError(self.path, f"{name!r} names several cards", self._names(found))
        return english[0] if len(found) > 1 else next(iter(found))

    def _names(self, card_ids: Iterable[int]) -> list[str]:
        return list(
            self.session.scalars(select(Card.name).where(Card.id.in_(list(card_ids))).order_by(Card.name))
        )

    def card_by_texts(self, text: str, languages_: Sequence[str] | None) -> tuple[int, str, str]:
        """The card whose stored translation (in ``languages_``, None: any but English) is this
        rules text: exactly after folding, else by RapidFuzz; (card id, language, how)."""
        target = normalize(text)
        query = (
            select(Localization.id, Face.card_id, Localization.language, Localization.name, Localization.text)
            .join(Face, Face.id == Localization.face_id)
            .where(Localization.text.is_not(None))
        )
        query = query.where(
            Localization.language.in_(list(languages_)) if languages_ else Localization.language != "en"
        )
        rows = {
            loc_id: (card_id, language, name, text)
            for loc_id, card_id, language, name, text in self.session.execute(query)
        }
        choices = {loc_id: normalize(row[3] or "") for loc_id, row in rows.items()}
        exact = {rows[loc_id][0]: loc_id for loc_id, folded in choices.items() if folded == target}
        if len(exact) == 1:
            card_id, loc_id = next(iter(exact.items()))
            return card_id, rows[loc_id][1], f"its rules text is the stored translation “{rows[loc_id][2]}”"
        if len(exact) > 1:
            raise CardNotIdentifiedError(
                self.path, "the page's rules text is the translation of several cards", self._names(exact)
            )
        best: dict[int, tuple[float, int]] = {}
        for _choice, score, loc_id in process.extract(
            target, choices, scorer=fuzz.ratio, limit=20, score_cutoff=SUGGESTION_CUTOFF
        ):
            card_id = rows[loc_id][0]
            if card_id not in best or score > best[card_id][0]:
                best[card_id] = (score, loc_id)
        ranked = sorted(best.items(), key=lambda item: -item[1][0])
        if ranked and ranked[0][1][0] >= MATCH_THRESHOLD:
            card_id, (score, loc_id) = ranked[0]
            if len(ranked) == 1 or ranked[1][1][0] <= score - MATCH_MARGIN:
                how = f"its rules text is {score:.0f}% like the stored translation “{rows[loc_id][2]}”"
                return card_id, rows[loc_id][1], how
        where = f"in {', '.join(languages_)}" if languages_ else "in any language"
        suggestions = [
            f"{name} ({best[card_id][0]:.0f}%)" for card_id, name in self._named(c for c, _ in ranked[:3])
        ]
        raise CardNotIdentifiedError(
            self.path,
            f"the page does not name its card and its rules text matches no stored translation {where} "
            f"(needs {MATCH_THRESHOLD:.0f}% and a lead of {MATCH_MARGIN:.0f})",
            suggestions,
        )

    def _named(self, card_ids: Iterable[int]) -> list[tuple[int, str]]:
        ids = list(card_ids)
        names = dict(self.session.execute(select(Card.id, Card.name).where(Card.id.in_(ids))).all())
        return [(card_id, names[card_id]) for card_id in ids]

    # -- shape 1 ----------------------------------------------------------------------------------
    def card_page(self, page: SectionsPage, card: str | None) -> None:
        lines = dated_lines(self.path, page.dated)
        guess = guess_language("\n".join([page.description.text, *(line.text for line in lines)]))
        text = page.description.text
        card_id: int | None = None
        language = guess.tag
        how = ""
        named = (self.card_named(card), "given with --card") if card else self._heading_card(page.headings)
        if named is not None:
            card_id = named[0]
            language, how = self._check_language(card_id, text, guess, named[1])
        elif language is None:
            card_id, language, how = self.card_by_texts(text, None)
        published = [self._date(line, language) for line in lines]
        if card_id is None:
            card_id, _language, how = self.card_by_texts(text, [language])
        name = self.session.get_one(Card, card_id).name
        shown = languages.by_tag(language).english_name
        self.report.append(f"{self.path.name}: a card page in {shown} about {name}: {how}")
        self.report.append(
            f"  line {page.description.line}: the rules text (under {page.headings[0].quote()}) is not "
            "stored as a translation: the page gives no name for it"
        )
        for other in page.others:
            self.report.append(f"  line {other.line}: {other.quote()} not read (a section of unknown use)")
        self._dated_rulings(card_id, language, lines, published)

    def _heading_card(self, headings: Sequence[Paragraph]) -> tuple[int, str] | None:
        for heading in headings:
            found = lookup.find_card_ids(self.session, normalize(heading.prose))
            if len(found) == 1:
                return next(iter(found)), f"its heading {heading.quote()} (line {heading.line}) names it"
        return None

    def _check_language(self, card_id: int, text: str, guess: LanguageGuess, how: str) -> tuple[str, str]:
        """The page's language once its card is known: the language of the card's stored
        translation the text matches, else the one its words show (with a warning)."""
        target = normalize(text)
        rows = self.session.execute(
            select(Localization.language, Localization.text)
            .join(Face, Face.id == Localization.face_id)
            .where(Face.card_id == card_id, Localization.text.is_not(None), Localization.language != "en")
        )
        scored = sorted(((fuzz.ratio(target, normalize(t or "")), lang) for lang, t in rows), reverse=True)
        if scored and scored[0][0] >= MATCH_THRESHOLD:
            score, language = scored[0]
            if guess.tag and guess.tag != language:
                self.warn(
                    f"the page's words read as {guess.tag}, its text matches the stored {language} text"
                )
            return language, f"{how}; its rules text is {score:.0f}% like the stored {language} text"
        if guess.tag is None:
            raise PageLanguageError(
                self.path,
                f"cannot tell the page's language ({guess.reason}) and its text matches none of the "
                "card's stored translations",
            )
        best = f" (best: {scored[0][1]}, {scored[0][0]:.0f}%)" if scored else ""
        self.warn(
            f"the page's rules text matches none of the card's stored translations{best}; read as {guess.tag}"
        )
        return guess.tag, f"{how}; the page's words read as {guess.tag} ({guess.reason})"

    def _date(self, line: DatedLine, language: str) -> dt.date:
        try:
            return languages.by_tag(language).parse_date(line.date)
        except (ValueError, UnknownLanguageError) as exc:
            raise PageDateError(self.path, str(exc), position=f"line {line.line}") from None

    def _dated_rulings(
        self, card_id: int, language: str, lines: Sequence[DatedLine], published: Sequence[dt.date]
    ) -> None:
        links = self._links(card_id, lines, published)
        stored = {
            (ruling.published, normalize(ruling.text)): ruling
            for ruling in self.session.scalars(
                select(Ruling).where(Ruling.card_id == card_id, Ruling.language == language)
            )
        }
        rows: list[dict[str, Any]] = []
        added: set[tuple[dt.date, str]] = set()
        linked_later = 0
        for position, (line, date) in enumerate(zip(lines, published, strict=True)):
            original = links.get(position)
            key = (date, normalize(line.text))
            known = stored.get(key)
            if key in added:
                continue
            if known is not None:
                if original is not None and known.original_digest is None:
                    self.connection.execute(
                        update(rulings_t).where(rulings_t.c.id == known.id).values(original_digest=original)
                    )
                    linked_later += 1
                continue
            record = RulingRecord.of(date, line.text, language, "wotc")
            rows.append(
                {
                    "card_id": card_id,
                    "language": language,
                    "source": record.source,
                    "published": date,
                    "text": line.text,
                    "position": position,
                    "digest": record.digest,
                    "original_digest": original,
                    "text_norm": record.text_norm,
                }
            )
            added.add(key)
        self._insert_new(rulings_t, rows, ["card_id", "digest"])
        self.rulings += len(lines)
        if rows or linked_later:
            self.touched.add(card_id)
        dates = ", ".join(
            sorted({f"{line.date} = {date.isoformat()}" for line, date in zip(lines, published, strict=True)})
        )
        linked = f"{len(links)} linked to the English rulings they translate"
        if linked_later:
            linked += f" ({linked_later} of them already stored without their link)"
        self.report.append(
            f"  line {lines[0].line}: {len(lines)} rulings in {language} dated {dates} (source wotc, "
            f"translated): {len(rows)} new, {len(lines) - len(rows)} already stored; {linked}"
        )

    def _links(
        self, card_id: int, lines: Sequence[DatedLine], published: Sequence[dt.date]
    ) -> dict[int, str]:
        """Page position -> digest of the English ruling it translates, where that can be
        established: the card has as many English rulings of that date as the page, and each pair
        in order carries the same numbers, dice and addresses."""
        english: dict[dt.date, list[Ruling]] = defaultdict(list)
        seen: set[tuple[dt.date, str]] = set()
        for ruling in self.session.scalars(
            select(Ruling)
            .where(Ruling.card_id == card_id, Ruling.language == "en", Ruling.published.is_not(None))
            .order_by(Ruling.published, Ruling.source != "wotc", Ruling.position)
        ):
            assert ruling.published is not None
            key = (ruling.published, normalize(ruling.text))
            if key not in seen:
                seen.add(key)
                english[ruling.published].append(ruling)
        by_date: dict[dt.date, list[int]] = defaultdict(list)
        for position, date in enumerate(published):
            by_date[date].append(position)
        links: dict[int, str] = {}
        for date, positions in by_date.items():
            originals = english.get(date, [])
            if len(originals) != len(positions):
                self.report.append(
                    f"  rulings of {date.isoformat()} not linked: the page has {len(positions)}, "
                    f"the card has {len(originals)} English rulings of that date"
                )
                continue
            pairs = list(zip(positions, originals, strict=True))
            mismatched = [p for p, original in pairs if _anchors(lines[p].text) != _anchors(original.text)]
            if mismatched:
                self.report.append(
                    f"  rulings of {date.isoformat()} not linked: line {lines[mismatched[0]].line} and the "
                    "English ruling in its place differ in numbers or addresses (not the same order)"
                )
                continue
            links.update((p, original.digest) for p, original in pairs)
        return links

    # -- shape 2 ----------------------------------------------------------------------------------
    def translations(self, page: TranslationsPage, card: str | None) -> None:
        card_id, how = (
            (self.card_named(card), "given with --card") if card else self._card_of_blocks(page.blocks)
        )
        card_row = self.session.get_one(Card, card_id)
        faces = list(card_row.faces)
        stored = list(
            self.session.scalars(select(Localization).where(Localization.face_id.in_([f.id for f in faces])))
        )
        placed = self._resolve_conflicts([self._place(block, faces, stored) for block in page.blocks])
        kept = [p for p in placed if p.language is not None and p.face_id is not None]
        self.report.append(
            f"{self.path.name}: a card in several languages: {card_row.name} ({how}); "
            f"{len(page.blocks)} blocks, {len({p.language for p in kept})} languages placed"
        )
        rows: list[dict[str, Any]] = []
        for item in placed:
            block = item.block
            where = f"  line {block.line} “{block.name}”"
            if item.language is None or item.face_id is None:
                self.report.append(f"{where}: not stored: {item.how}")
                self.warn(f"line {block.line} “{block.name}” not stored: {item.how}")
                continue
            face = next(f for f in faces if f.id == item.face_id)
            known = {
                (loc.name_norm, normalize(loc.text or ""))
                for loc in stored
                if loc.face_id == face.id and loc.language == item.language
            }
            if item.language == "en":
                known.add((face.name_norm, normalize(face.oracle_text or "")))
            if (normalize(block.name), normalize(block.text)) in known:
                self.report.append(f"{where}: {item.language}, {item.how}; already stored")
                continue
            record = LocalizedFace.of(face.side, item.language, block.name, None, block.text, None)
            rows.append(
                {
                    "face_id": face.id,
                    "language": item.language,
                    "name": block.name,
                    "name_norm": normalize_name(block.name),
                    "type_line": None,
                    "text": block.text,
                    "flavor": None,
                    "digest": record.digest,
                    "origin": "page",
                    "type_norm": None,
                    "text_norm": record.text_norm,
                }
            )
            self.report.append(f"{where}: {item.language}, {item.how}; new translation stored")
        self._insert_new(localizations_t, rows, ["face_id", "digest"])
        self.localizations += len(kept)
        if rows:
            self.touched.add(card_id)
        self._sets(card_id, page.sets)
        self._undated_rulings(card_id, page.rulings)

    def _card_of_blocks(self, blocks: Sequence[Block]) -> tuple[int, str]:
        """The card most block names point to (a name may be any language's)."""
        votes: dict[int, list[Block]] = defaultdict(list)
        for block in blocks:
            for card_id in lookup.find_card_ids(self.session, normalize(block.name)):
                votes[card_id].append(block)
        if not votes:
            english = [b for b in blocks if b.guess.tag == "en"]
            folded = normalize((english or list(blocks))[0].name)
            raise CardNotIdentifiedError(
                self.path,
                "no block name (" + ", ".join(f"“{b.name}”" for b in blocks[:3]) + ", …) names a stored card",
                fuzzy.suggestions(self.session, folded),
            )
        ranked = sorted(votes.items(), key=lambda item: -len(item[1]))
        if len(ranked) > 1 and len(ranked[1][1]) == len(ranked[0][1]):
            raise CardNotIdentifiedError(
                self.path, "the block names point to several cards equally", self._names(votes)
            )
        card_id, named = ranked[0]
        return card_id, f"{len(named)} of {len(blocks)} block names are stored names of it"

    def _place(self, block: Block, faces: Sequence[Face], stored: Sequence[Localization]) -> _Placed:
        """A block's face and language: by the stored names of the card, else by its words."""
        folded = normalize(block.name)
        matches: dict[str, set[int]] = defaultdict(set)
        for face in faces:
            if face.name_norm == folded:
                matches["en"].add(face.id)
        for loc in stored:
            if loc.name_norm == folded:
                matches[loc.language].add(loc.face_id)
        if matches:
            candidates = set(matches)
            if len(candidates) > 1:
                text = normalize(block.text)
                same_text = {
                    loc.language
                    for loc in stored
                    if loc.name_norm == folded and normalize(loc.text or "") == text
                }
                if len(same_text) == 1:
                    language = same_text.pop()
                    return _Placed(
                        block, _one(matches[language]), language, "by its stored name and text", True
                    )
                if block.guess.tag in candidates:
                    language = block.guess.tag
                    how = f"by its stored name and its words ({block.guess.reason})"
                    return _Placed(block, _one(matches[language]), language, how, True)
                shown = ", ".join(sorted(candidates))
                return _Placed(
                    block,
                    None,
                    None,
                    f"its name is stored in several languages ({shown}); the text tells none",
                )
            language = candidates.pop()
            return _Placed(block, _one(matches[language]), language, "by its stored name", True)
        if block.guess.tag is None:
            return _Placed(block, None, None, f"its language cannot be told ({block.guess.reason})")
        if len(faces) != 1:
            return _Placed(
                block, None, block.guess.tag, "the card has several faces and the name is none of theirs"
            )
        return _Placed(block, faces[0].id, block.guess.tag, f"by its words ({block.guess.reason})")

    def _resolve_conflicts(self, placed: list[_Placed]) -> list[_Placed]:
        """One text per language and face: a block placed by a stored name keeps its language;
        blocks only guessed into a language already given, or into the same one, are not stored."""
        by_key: dict[tuple[int, str], list[_Placed]] = defaultdict(list)
        for item in placed:
            if item.language is not None and item.face_id is not None:
                by_key[(item.face_id, item.language)].append(item)
        dropped: dict[int, str] = {}  # block line -> why
        for (_face, language), items in by_key.items():
            if len(items) < 2:
                continue
            anchors = [item.block.line for item in items if item.stored_name]
            lines = ", ".join(str(item.block.line) for item in items)
            for item in items:
                if not item.stored_name:
                    dropped[item.block.line] = (
                        f"guessed {language}, but line {anchors[0]} is the stored {language} text"
                        if anchors
                        else f"guessed {language}, like the blocks at lines {lines}: which one is {language}?"
                    )
        return [
            replace(item, face_id=None, how=dropped[item.block.line]) if item.block.line in dropped else item
            for item in placed
        ]

    def _sets(self, card_id: int, sets: Sequence[Paragraph]) -> None:
        if not sets:
            return
        codes = {
            normalize(name): code for code, name in self.session.execute(select(CardSet.code, CardSet.name))
        }
        printed = set(self.session.scalars(select(Printing.set_code).where(Printing.card_id == card_id)))
        for paragraph in sets:
            code = codes.get(normalize(paragraph.prose))
            if code is None:
                note = "a set name, not in the database"
            elif code in printed:
                note = f"set {code}, the card is printed there"
            else:
                note = f"set {code}, but the database has no printing of the card there"
                self.warn(f"line {paragraph.line} names set {code}, where the card has no stored printing")
            self.report.append(f"  line {paragraph.line} {paragraph.quote()}: {note}")

    def _undated_rulings(self, card_id: int, rulings: Sequence[Paragraph]) -> None:
        if not rulings:
            return
        guess = guess_language("\n".join(p.prose for p in rulings))
        if guess.tag is None:
            self.report.append(f"  line {rulings[0].line}: {len(rulings)} rulings not stored: {guess.reason}")
            self.warn(f"{len(rulings)} rulings not stored: their language cannot be told ({guess.reason})")
            return
        language = guess.tag
        known = set(
            normalize(text)
            for text in self.session.scalars(
                select(Ruling.text).where(Ruling.card_id == card_id, Ruling.language == language)
            )
        )
        rows: list[dict[str, Any]] = []
        for position, paragraph in enumerate(rulings):
            folded = normalize(paragraph.prose)
            if folded in known:
                continue
            known.add(folded)
            record = RulingRecord.of(None, paragraph.prose, language, "page")
            rows.append(
                {
                    "card_id": card_id,
                    "language": language,
                    "source": record.source,
                    "published": None,
                    "text": paragraph.prose,
                    "position": position,
                    "digest": record.digest,
                    "original_digest": None,
                    "text_norm": record.text_norm,
                }
            )
            self.report.append(
                f"  line {paragraph.line} {paragraph.quote()}: new {language} ruling (source page)"
            )
        self._insert_new(rulings_t, rows, ["card_id", "digest"])
        self.rulings += len(rulings)
        if rows:
            self.touched.add(card_id)
        self.report.append(
            f"  line {rulings[0].line}: {len(rulings)} rulings in {language}: {len(rows)} new, "
            f"{len(rulings) - len(rows)} already stored (compared folded, dates ignored)"
        )

    # -- shape 3 ----------------------------------------------------------------------------------
    def rulings_page(self, paragraphs: Sequence[Paragraph]) -> None:
        names = CardNames(self._card_names())
        headings = [p for p in paragraphs if p.is_heading]
        prose = [p for p in paragraphs if not p.is_heading]
        named_headings = [h for h in headings if find_topic(h.prose) or names.find(h.prose)]
        if not named_headings or not prose:
            raise PageShapeError(
                self.path,
                "not a page carddb reads: expected a card in several languages (name, blank line, rules "
                "text, per language), a card page with sections and dated rulings, or a rulings page "
                "(headings naming keywords, paragraphs)",
            )
        guess = guess_language("\n".join(p.prose for p in prose))
        if guess.tag != "en":
            raise PageShapeError(
                self.path, f"a rulings page is read in English only; this one is not ({guess.reason})"
            )
        self.report.append(
            f"{self.path.name}: a rulings page: {len(prose)} paragraphs, {len(headings)} headings"
        )
        rows: list[dict[str, Any]] = []
        nowhere: list[int] = []
        for position, paragraph in enumerate(paragraphs):
            if paragraph.is_heading:
                self.report.append(self._heading_line(paragraph, names))
                continue
            attachment = attach(paragraph, names)
            targets = _targets(attachment)
            line = f"  line {paragraph.line} {paragraph.quote()}"
            listed = ""
            if attachment.listed:
                listed = f" (not attached: {', '.join(attachment.listed)}, named in an enumeration)"
            if not targets:
                nowhere.append(paragraph.line)
                self.report.append(f"{line} → nowhere: it names no keyword, topic or stored card{listed}")
                continue
            self.notes += 1
            for topic, card in targets:
                digest = content_digest(
                    topic.key if topic else None,
                    card.oracle_id if card else None,
                    "en",
                    normalize(paragraph.prose),
                )
                rows.append(
                    {
                        "topic": topic.key if topic else None,
                        "card_id": card.card_id if card else None,
                        "language": "en",
                        "text": paragraph.prose,
                        "source": self.path.name,
                        "position": position,
                        "digest": digest,
                    }
                )
            shown = ", ".join([t.key for t in attachment.topics] + [c.name for c in attachment.cards])
            self.report.append(f"{line} → {shown}{listed}")
        existing = set(
            self.session.scalars(select(Note.digest).where(Note.digest.in_([row["digest"] for row in rows])))
        )
        new = [row for row in rows if row["digest"] not in existing]
        self._insert_new(notes_t, new, ["digest"])
        self.report.append(
            f"  {self.notes} paragraphs attached: {len(new)} new notes, "
            f"{len(rows) - len(new)} already stored; {len(nowhere)} attached to nothing"
        )
        if nowhere:
            self.warn(
                f"{len(nowhere)} paragraph(s) attached to nothing (lines {', '.join(map(str, nowhere))})"
            )

    def _card_names(self) -> list[tuple[int, str, str]]:
        """Every stored card's English name, and its faces' where they differ (Cast Off)."""
        cards = self.session.execute(select(Card.id, Card.oracle_id, Card.name)).all()
        faces = self.session.execute(
            select(Card.id, Card.oracle_id, Face.name)
            .join(Face, Face.card_id == Card.id)
            .where(Face.name != Card.name)
        )
        return [*cards, *faces]

    def _heading_line(self, heading: Paragraph, names: CardNames) -> str:
        topic = find_topic(heading.prose)
        if topic is not None:
            return f"  line {heading.line} heading {heading.quote()}: {topic.key} ({topic.kind})"
        cards = names.find(heading.prose)
        if cards:
            return f"  line {heading.line} heading {heading.quote()}: the card {cards[0].card.name}"
        return f"  line {heading.line} heading {heading.quote()}: names no keyword, topic or card; skipped"


def _targets(attachment: Attachment) -> list[tuple[Topic | None, CardName | None]]:
    """The notes one paragraph becomes: one per topic and card, pairs when it names both."""
    topics: list[Topic | None] = list(attachment.topics) or [None]
    cards: list[CardName | None] = list(attachment.cards) or [None]
    return [(topic, card) for topic in topics for card in cards if topic or card]


_ANCHOR = re.compile(r"https?://\S+|\d+")


def _anchors(text: str) -> frozenset[str]:
    """What a translation keeps as written: numbers (d20, 1—14) and web addresses."""
    return frozenset(anchor.rstrip(".,;:)") for anchor in _ANCHOR.findall(text))


def _one(ids: set[int]) -> int | None:
    return next(iter(ids)) if len(ids) == 1 else None
