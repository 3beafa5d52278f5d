"""Showing a rule of the stored Comprehensive Rules, found by its number or by a glossary term,
as a frozen :class:`RuleView` (what ``carddb rule QUERY`` and ``Database.rule`` return).

A query is a number when it starts with a digit, written any way people write one (``702.35``,
``702.35.``, ``702.35a``, ``702``, ``rule 702.35``). Anything else is a term, folded by
:func:`carddb.text.normalize` (case, accents, typographic quotes): first a glossary term,
``Bury (Obsolete)`` also answering ``bury`` and ``Kicker, Kicked`` also ``kicked``; then the title
of a chapter, section or keyword rule (``Keyword Abilities``, ``Exhaust``). A glossary entry leads
to the first stored rule it mentions ("See rule 702.35") or, when it only points to another term
("Y: See X."), to that term's rule; a glossary entry that names no rule is shown on its own.

A view shows one level below what was asked: a rule with its subrules, a section with its rules,
a chapter with its sections, so that ``carddb rule 702`` lists keyword abilities rather than
printing a third of the document.
"""

from __future__ import annotations

import datetime as dt
import re
import textwrap
from dataclasses import asdict, dataclass
from typing import Any, Literal

from rapidfuzz import fuzz, process
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from carddb import languages
from carddb.db.models import GlossaryEntry, Rule, RulesEdition
from carddb.rules.errors import NoRulesImportedError, RuleNotFoundError
from carddb.rules.mentions import MentionedRule, mentions, rule_texts
from carddb.rules.numbers import canonical_number, level_of, parent_of
from carddb.text import normalize

__all__ = [
    "GlossaryView",
    "NoRulesImportedError",
    "RuleEntry",
    "RuleNotFoundError",
    "RuleView",
    "format_rule",
    "rule_view",
]

SUGGESTIONS = 5
_PREFIX = re.compile(r"^(?:(?:comprehensive\s+)?rules?|cr|section)\s*(?=\d)", re.IGNORECASE)
_SEE_TERM = re.compile(r"\bSee\s+(?:also\s+)?(?P<term>[^.]+)")
_OBSOLETE = " (obsolete)"
_REDIRECTS = 4  # "Y: See X.", then X's rule; a few hops at most, never in a circle
_TITLE_LENGTH = 80
_MENTION_WIDTH = 110


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """A rule as stored: its number (``702.35a``), text and examples."""

    number: str
    text: str
    examples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GlossaryView:
    term: str
    text: str


@dataclass(frozen=True, slots=True)
class RuleView:
    """A rule with the level below it, how it was found, and the rules it mentions.

    ``number`` is None only for a glossary term that names no rule (``Card Pool``): then the view
    is its ``glossary`` entry alone. ``glossary`` holds the entry the query matched and any entry
    it pointed to ("Y: See X." gives Y then X). ``mentions`` are the rules that the rule, its
    subrules, their examples and the glossary text refer to, in order of first mention, each with
    its stored text (None: not in the stored edition), without the rules shown already.
    """

    query: str
    found_by: Literal["number", "glossary", "title"]
    number: str | None
    text: str
    examples: tuple[str, ...]
    ancestors: tuple[RuleEntry, ...]
    subrules: tuple[RuleEntry, ...]
    glossary: tuple[GlossaryView, ...]
    mentions: tuple[MentionedRule, ...]
    effective: dt.date

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary: the date in ISO form, each mention with ``found``."""
        data = asdict(self)
        data["effective"] = self.effective.isoformat()
        data["mentions"] = [{"number": m.number, "text": m.text, "found": m.found} for m in self.mentions]
        return data


def rule_view(session: Session, query: str) -> RuleView:
    """The rule ``query`` names: a number or a term (see the module docstring).

    Raises :class:`NoRulesImportedError` when no edition is stored, and :class:`RuleNotFoundError`
    with the closest numbers or terms when nothing matches.
    """
    edition = session.scalars(select(RulesEdition)).first()
    if edition is None:
        raise NoRulesImportedError(query)
    cleaned = _PREFIX.sub("", query.strip())
    if cleaned[:1].isdigit():
        number = canonical_number(cleaned)
        rule = session.get(Rule, number) if number else None
        if rule is None:
            raise RuleNotFoundError(query, _number_suggestions(session, number) if number else ())
        return _build(session, query, "number", rule, (), edition.effective)
    normalized = normalize(cleaned)
    entry = _glossary_entry(session, normalized) if normalized else None
    if entry is not None:
        chain, rule = _follow(session, entry)
        return _build(session, query, "glossary", rule, chain, edition.effective)
    titled = _titled_rule(session, normalized) if normalized else None
    if titled is not None:
        return _build(session, query, "title", titled, (), edition.effective)
    raise RuleNotFoundError(query, _term_suggestions(session, normalized) if normalized else ())


def rule_views(session: Session, query: str) -> tuple[RuleView, ...]:
    """The rules ``query`` names: one (as :func:`rule_view`), or several when it is a list or a
    range written the way rules and rulings write them (``601.2f–h``, ``603.6 and 603.10``)."""
    cleaned = _PREFIX.sub("", query.strip())
    if cleaned[:1].isdigit():
        found = mentions(f"rules {cleaned}")
        numbers = [number for mention in found for number in mention.numbers]
        if len(numbers) > 1:
            return tuple(rule_view(session, number) for number in dict.fromkeys(numbers))
    return (rule_view(session, query),)


# -- finding ------------------------------------------------------------------------------------


def _aliases(term: str) -> set[str]:
    """The folded names a glossary term answers to: the whole term, without ``(Obsolete)``, and
    each of its comma-separated forms without quotes."""
    whole = normalize(term)
    bare = whole.removesuffix(_OBSOLETE)
    return {whole, bare} | {part.strip(' "') for part in bare.split(",") if part.strip(' "')}


def _glossary_entry(session: Session, normalized: str) -> GlossaryEntry | None:
    exact = session.scalars(
        select(GlossaryEntry).where(GlossaryEntry.term_norm == normalized).order_by(GlossaryEntry.position)
    ).first()
    if exact is not None:
        return exact
    for entry in session.scalars(select(GlossaryEntry).order_by(GlossaryEntry.position)):
        if normalized in _aliases(entry.term):
            return entry
    return None


def _follow(session: Session, entry: GlossaryEntry) -> tuple[tuple[GlossaryEntry, ...], Rule | None]:
    """The glossary entries from ``entry`` to the first one that names a stored rule, and that
    rule (None when the trail ends without one)."""
    chain = [entry]
    while len(chain) <= _REDIRECTS:
        numbers = [number for mention in mentions(entry.text) for number in mention.numbers]
        stored = rule_texts(session, numbers)
        for number in numbers:
            if number in stored:
                return tuple(chain), session.get(Rule, number)
        target = None
        for see in _SEE_TERM.finditer(entry.text):
            target = _glossary_entry(session, normalize(see["term"].strip(' “”"')))
            if target is not None and target not in chain:
                break
            target = None
        if target is None:
            break
        chain.append(target)
        entry = target
    return tuple(chain), None


def _is_title(rule: Rule) -> bool:
    """Chapters, sections and the keyword rules (``702.35. Madness``) have a title for text."""
    return level_of(rule.number) <= 3 and not rule.text.rstrip('”"').endswith((".", ":", ")"))


def _titles(session: Session) -> list[Rule]:
    short = select(Rule).where(func.length(Rule.text) <= _TITLE_LENGTH).order_by(Rule.position)
    return [rule for rule in session.scalars(short) if _is_title(rule)]


def _titled_rule(session: Session, normalized: str) -> Rule | None:
    return next((rule for rule in _titles(session) if normalize(rule.text) == normalized), None)


def _number_suggestions(session: Session, number: str) -> list[str]:
    """For a number the edition lacks: its nearest stored ancestor and that one's closest
    children (``702.35z`` → 702.35, 702.35a, …)."""
    ancestor = parent_of(number)
    while ancestor is not None and session.get(Rule, ancestor) is None:
        ancestor = parent_of(ancestor)
    if ancestor is None:
        return []
    children = list(
        session.scalars(select(Rule.number).where(Rule.parent == ancestor).order_by(Rule.position))
    )
    close = process.extract(number, children, scorer=fuzz.ratio, limit=SUGGESTIONS - 1, score_cutoff=60)
    return [ancestor, *(choice for choice, _score, _index in close)]


def _term_suggestions(session: Session, normalized: str) -> list[str]:
    """The glossary terms and rule titles closest to ``normalized``."""
    names: dict[str, str] = {}
    for term in session.scalars(select(GlossaryEntry.term).order_by(GlossaryEntry.position)):
        names.setdefault(normalize(term), term)
    for rule in _titles(session):
        names.setdefault(normalize(rule.text), f"{rule.text} ({rule.number})")
    best = process.extract(normalized, list(names), scorer=fuzz.WRatio, limit=SUGGESTIONS, score_cutoff=70)
    return [names[choice] for choice, _score, _index in best]


# -- building -----------------------------------------------------------------------------------


def _entry(rule: Rule) -> RuleEntry:
    return RuleEntry(rule.number, rule.text, tuple(rule.examples or ()))


def _build(
    session: Session,
    query: str,
    found_by: Literal["number", "glossary", "title"],
    rule: Rule | None,
    chain: tuple[GlossaryEntry, ...],
    effective: dt.date,
) -> RuleView:
    glossary = tuple(GlossaryView(entry.term, entry.text) for entry in chain)
    ancestors: list[RuleEntry] = []
    subrules: tuple[RuleEntry, ...] = ()
    if rule is not None:
        parent = rule.parent
        while parent is not None:
            above = session.get(Rule, parent)
            if above is None:
                break
            ancestors.insert(0, _entry(above))
            parent = above.parent
        children = select(Rule).where(Rule.parent == rule.number).order_by(Rule.position)
        subrules = tuple(_entry(child) for child in session.scalars(children))
    shown = [_entry(rule)] if rule is not None else []
    shown += subrules
    texts = [text for entry in shown for text in (entry.text, *entry.examples)]
    texts += [entry.text for entry in glossary]
    numbers = dict.fromkeys(number for text in texts for m in mentions(text) for number in m.numbers)
    for entry in shown:
        numbers.pop(entry.number, None)
    stored = rule_texts(session, numbers)
    return RuleView(
        query=query,
        found_by=found_by,
        number=rule.number if rule is not None else None,
        text=rule.text if rule is not None else "",
        examples=tuple(rule.examples or ()) if rule is not None else (),
        ancestors=tuple(ancestors),
        subrules=subrules,
        glossary=glossary,
        mentions=tuple(MentionedRule(number, stored.get(number)) for number in numbers),
        effective=effective,
    )


# -- text ---------------------------------------------------------------------------------------


def _paragraphs(head: str, text: str, indent: str) -> list[str]:
    """``head`` and ``text`` on one line, the text's later paragraphs indented under it."""
    first, *rest = text.split("\n")
    return [f"{indent}{head}{first}".rstrip()] + [f"{indent}  {line}" for line in rest]


_CRUMB_WIDTH = 48


def format_rule(view: RuleView) -> str:
    """A rule as text for the CLI: the glossary entry it was found through, where the rule sits
    (chapter › section), the rule and its examples, its subrules indented, the rules it mentions
    (their text shortened to a line) and the edition."""
    lines: list[str] = []
    for entry in view.glossary:
        lines += _paragraphs(f"{entry.term} (glossary): ", entry.text, "")
    if view.number is not None:
        if lines:
            lines.append("")
        if view.ancestors:
            # where the rule sits: titles, or a parent rule's opening words
            lines.append(
                " › ".join(
                    textwrap.shorten(f"{a.number} {a.text}", _CRUMB_WIDTH, placeholder=" …")
                    for a in view.ancestors
                )
            )
        lines += _paragraphs(f"{view.number} ", view.text, "")
        for example in view.examples:
            lines += _paragraphs("", example, "  ")
        for sub in view.subrules:
            lines += _paragraphs(f"{sub.number} ", sub.text, "  ")
            for example in sub.examples:
                lines += _paragraphs("", example, "    ")
    if view.mentions:
        lines.append("")
        lines.append("Rules mentioned:")
        width = max(len(m.number) for m in view.mentions)
        for mention in view.mentions:
            text = (
                textwrap.shorten(mention.text, _MENTION_WIDTH, placeholder=" …")
                if mention.text is not None
                else "(not in the stored edition)"
            )
            lines.append(f"  {mention.number:<{width}}  {text}")
    lines.append("")
    lines.append(f"Comprehensive Rules effective {languages.ENGLISH.format_date(view.effective)}")
    return "\n".join(lines)
