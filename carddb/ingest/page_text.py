"""Reading a page's text: paragraphs, the three page shapes, and what a rulings paragraph is about.

Nothing here touches the database (the stored card names come in as rows), so each shape can be
tested on its own text; :mod:`carddb.ingest.pages` decides what goes where and writes it. The
shapes and the reasons for them are described there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from carddb.errors import SourceError
from carddb.ingest.base import Progress
from carddb.ingest.language_guess import LanguageGuess, guess_language
from carddb.ingest.sources import open_tracked
from carddb.text import normalize
from carddb.topics import Topic, find_topic, topics_in

__all__ = [
    "Attachment",
    "Block",
    "CardName",
    "CardNames",
    "CardNotIdentifiedError",
    "DatedLine",
    "PageDateError",
    "PageLanguageError",
    "PageShapeError",
    "Paragraph",
    "SectionsPage",
    "TranslationsPage",
    "attach",
    "dated_lines",
    "read_paragraphs",
    "sections_page",
    "translations_page",
]


# -- errors ---------------------------------------------------------------------------------------
class PageShapeError(SourceError):
    """A text file that is none of the page shapes carddb reads."""


class PageDateError(SourceError):
    """A ruling's date not written the way the page's language writes dates."""


class PageLanguageError(SourceError):
    """A page whose language cannot be told from its words nor from the stored translations."""


class CardNotIdentifiedError(SourceError):
    """A card page whose card cannot be found; names the closest cards and suggests ``--card``."""

    _fields = ("path", "reason", "suggestions")

    def __init__(self, path: Path | str, reason: str, suggestions: Sequence[str] = ()) -> None:
        self.suggestions = tuple(suggestions)
        message = reason
        if self.suggestions:
            message += "; closest: " + "; ".join(self.suggestions)
        message += "; name the card with --card NAME"
        super().__init__(path, message)
        self.reason = reason


# -- paragraphs -----------------------------------------------------------------------------------
_SENTENCE_END = tuple('.。!！?？:：;；”"')
_HEADING_MAX_CHARS = 60
_HEADING_MAX_WORDS = 8


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Lines between blank lines; ``line`` is the 1-based number of the first."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def prose(self) -> str:
        """The lines joined as running text."""
        return " ".join(self.lines)

    @property
    def is_heading(self) -> bool:
        """One short line that does not end a sentence: a name, a title, a section heading."""
        if len(self.lines) != 1:
            return False
        line = self.lines[0]
        return (
            len(line) <= _HEADING_MAX_CHARS
            and len(line.split()) <= _HEADING_MAX_WORDS
            and not line.endswith(_SENTENCE_END)
        )

    def quote(self, width: int = 48) -> str:
        """The start of the paragraph, for a report line."""
        text = self.prose
        return f"“{text}”" if len(text) <= width else f"“{text[: width - 1].rstrip()}…”"


def read_paragraphs(path: Path, progress: Progress | None = None) -> tuple[Paragraph, ...]:
    """The paragraphs of a UTF-8 text file (plain or compressed), each line stripped of spaces."""
    with open_tracked(path, on_progress=progress.advance if progress else None) as reader:
        data = reader.read()
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        bad_line = data[: exc.start].count(b"\n") + 1
        raise SourceError(path, "not UTF-8 text", position=f"line {bad_line}") from None
    paragraphs: list[Paragraph] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped:
            if not current:
                start = number
            current.append(stripped)
        elif current:
            paragraphs.append(Paragraph(start, tuple(current)))
            current = []
    if current:
        paragraphs.append(Paragraph(start, tuple(current)))
    return tuple(paragraphs)


# -- shape 1: a card page with sections and dated rulings ----------------------------------------
_DATED = re.compile(r"(?P<date>\d{1,4}(?:[./-]\d{1,4}){2}\.?)\s+(?P<text>\S.*)")


@dataclass(frozen=True, slots=True)
class DatedLine:
    line: int
    date: str
    text: str


@dataclass(frozen=True, slots=True)
class SectionsPage:
    """Headings with bodies; ``description`` is the first body that is not dated lines."""

    headings: tuple[Paragraph, ...]
    description: Paragraph
    dated: Paragraph
    others: tuple[Paragraph, ...]


def sections_page(paragraphs: Sequence[Paragraph]) -> SectionsPage | None:
    """The page as alternating headings and bodies with one body of dated lines, or None."""
    if len(paragraphs) < 4 or len(paragraphs) % 2:
        return None
    headings = paragraphs[0::2]
    bodies = paragraphs[1::2]
    if not all(heading.is_heading for heading in headings):
        return None
    dated = [body for body in bodies if _DATED.fullmatch(body.lines[0])]
    described = [body for body in bodies if not _DATED.fullmatch(body.lines[0])]
    if len(dated) != 1 or not described:
        return None
    return SectionsPage(tuple(headings), described[0], dated[0], tuple(described[1:]))


def dated_lines(path: Path, body: Paragraph) -> tuple[DatedLine, ...]:
    """Each line of ``body`` as a date and a ruling; every line must begin with a date."""
    result = []
    for offset, line in enumerate(body.lines):
        match = _DATED.fullmatch(line)
        if match is None:
            raise PageDateError(
                path,
                f"a ruling must begin with its date: {line[:40]!r}",
                position=f"line {body.line + offset}",
            )
        result.append(DatedLine(body.line + offset, match["date"], match["text"]))
    return tuple(result)


# -- shape 2: a card in several languages --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Block:
    """A card's name and rules text in one language, as a page gives them."""

    name: str
    text: str
    line: int
    guess: LanguageGuess


@dataclass(frozen=True, slots=True)
class TranslationsPage:
    blocks: tuple[Block, ...]
    sets: tuple[Paragraph, ...]
    rulings: tuple[Paragraph, ...]


def translations_page(paragraphs: Sequence[Paragraph], set_names: frozenset[str]) -> TranslationsPage | None:
    """Blocks of (heading, body) from the top, then headings (set names), then rulings; None unless
    there are two blocks or more in at least two languages.

    A heading that is a stored set's name ends the blocks (``Forgotten Realms Commander`` after
    ``The List`` is a set, not the rules text of a card named "The List").
    """
    blocks: list[Block] = []
    index = 0
    while (
        index + 1 < len(paragraphs)
        and paragraphs[index].is_heading
        and not {normalize(paragraphs[i].prose) for i in (index, index + 1)} & set_names
    ):
        name, body = paragraphs[index], paragraphs[index + 1]
        guess = guess_language(f"{name.prose}\n{body.text}")
        blocks.append(Block(name.prose, body.text, name.line, guess))
        index += 2
    sets_start = index
    while index < len(paragraphs) and paragraphs[index].is_heading:
        index += 1
    languages_seen = {block.guess.tag for block in blocks if block.guess.tag}
    if len(blocks) < 2 or len(languages_seen) < 2:
        return None
    return TranslationsPage(tuple(blocks), tuple(paragraphs[sets_start:index]), tuple(paragraphs[index:]))


# -- shape 3: a rulings page ---------------------------------------------------------------------
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")
_ENUMERATION_ITEMS = 5


def _enumerations(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences that list names (five comma-separated items or more, nearly all
    capitalized): a list of names says what a rule covers, not what the paragraph is about."""
    spans = []
    start = 0
    for sentence in _SENTENCE.split(text):
        begin = text.index(sentence, start)
        start = begin + len(sentence)
        items = [re.sub(r"^(?:and|or)\s+", "", item.strip()) for item in sentence.split(", ")]
        if len(items) >= _ENUMERATION_ITEMS:
            capitalized = sum(1 for item in items if item[:1].isupper())
            if capitalized >= 0.8 * len(items):
                spans.append((begin, start))
    return spans


_NAME_WORD = re.compile(r"\S+")
_LEADING = "(\"“‘'["
_TRAILING = ".,;:!?)\"”’'…]"
_MAX_NAME_WORDS = 12


@dataclass(frozen=True, slots=True)
class CardName:
    card_id: int
    oracle_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Mention:
    card: CardName
    start: int
    end: int


class CardNames:
    """The English names of the stored cards (and their faces), found in running text.

    A name is looked for where a capitalized word starts, longest first, so ``Pair o' Dice Lost``
    is one card and not the dice topic. Names that are also a topic (the card "Dredge") are left
    out: in a rulings page such a word is the keyword.
    """

    def __init__(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """``rows``: (card id, oracle id, name) of every card, and of every face named otherwise."""
        self._names: dict[str, CardName] = {}
        for card_id, oracle_id, name in rows:
            folded = normalize(name)
            if len(folded) < 3 or find_topic(name) is not None:
                continue
            self._names.setdefault(folded, CardName(card_id, oracle_id, name))
        self._max_words = min(max((len(name.split()) for name in self._names), default=0), _MAX_NAME_WORDS)

    def find(self, text: str) -> list[Mention]:
        """The stored names in ``text``, left to right (a possessive ``'s`` is not part of a name)."""
        words = list(_NAME_WORD.finditer(text))
        found: list[Mention] = []
        index = 0
        while index < len(words):
            first = words[index]
            lead = len(first.group()) - len(first.group().lstrip(_LEADING))
            if not first.group()[lead:][:1].isupper():
                index += 1
                continue
            start = first.start() + lead
            for last in range(min(index + self._max_words, len(words)) - 1, index - 1, -1):
                span = text[start : words[last].end()]
                span = re.sub(r"['’]s$", "", span.rstrip(_TRAILING)).rstrip(_TRAILING)
                card = self._names.get(normalize(span)) if span else None
                if card is not None:
                    found.append(Mention(card, start, start + len(span)))
                    index = last
                    break
            index += 1
        return found


@dataclass(frozen=True, slots=True)
class Attachment:
    """What one paragraph of a rulings page is about."""

    paragraph: Paragraph
    topics: tuple[Topic, ...]
    cards: tuple[CardName, ...]
    listed: tuple[str, ...] = ()
    """Stored card names that appear only in an enumeration (not attached)."""


def attach(paragraph: Paragraph, names: CardNames) -> Attachment:
    """The topics and cards ``paragraph`` is about, by its own words."""
    text = paragraph.prose
    lists = _enumerations(text)

    def listed(mention: Mention) -> bool:
        return any(begin <= mention.start < end for begin, end in lists)

    mentions = names.find(text)
    cards: dict[int, CardName] = {}
    in_lists: dict[int, str] = {}
    masked = list(text)
    for mention in mentions:
        if listed(mention):
            in_lists.setdefault(mention.card.card_id, mention.card.name)
        else:
            cards.setdefault(mention.card.card_id, mention.card)
        masked[mention.start : mention.end] = " " * (mention.end - mention.start)
    for begin, end in lists:
        masked[begin:end] = " " * (end - begin)
    only_listed = tuple(name for card_id, name in in_lists.items() if card_id not in cards)
    return Attachment(paragraph, topics_in("".join(masked)), tuple(cards.values()), only_listed)
