"""Reading the Comprehensive Rules text file as Wizards publishes it (UTF-8 with a BOM, CRLF).

The file is, in order: a title line; ``These rules are effective as of February 7, 2025.`` (the
edition); an Introduction; ``Contents`` (a table of contents that repeats every chapter and
section title, then ``Glossary`` and ``Credits``); the numbered rules; ``Glossary`` (a term line,
then its definition lines, entries separated by blank lines); ``Credits``.

Rule numbers are stored in one canonical form, so that the parser, the mention finder and the
lookup agree on them: chapters ``7.``, sections ``702.``, rules ``702.35`` (the file writes
``702.35.``), subrules ``702.35a``. A number's parent is read from the number itself
(:func:`parent_of`); the parser checks that it is the chapter, section or rule being read, which
catches a misnumbered or misplaced line instead of storing a tree that is silently wrong.

The published file has a few irregularities that are accepted on purpose: a rule without its
period (``606.5 If the total…``), a subrule with one (``119.1d. In a two-player…``), a rule without
the space after its number (``901.4.All plane…``), and indented paragraphs that continue the rule
(or example) above them.

What counts as *cut*: the published file always ends with the Glossary and the Credits, so a file
that ends before its Credits, or reaches them with no glossary entry, was cut short
(:class:`~carddb.rules.errors.TruncatedRulesError`).
"""

from __future__ import annotations

import datetime as dt
import lzma
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from carddb.errors import MalformedJSONError
from carddb.ingest.sources import open_tracked
from carddb.rules.errors import NotRulesError, RulesFormatError, TruncatedRulesError
from carddb.rules.numbers import canonical_number, level_of, parent_of

__all__ = [
    "ParsedGlossaryEntry",
    "ParsedRule",
    "RulesDocument",
    "canonical_number",
    "level_of",
    "parent_of",
    "parse_rules",
    "read_rules",
]

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_TITLE = re.compile(r"Comprehensive Rules", re.IGNORECASE)
_EFFECTIVE = re.compile(r"^\s*These rules are effective as of\s+(?P<date>.*?)\.?\s*$", re.IGNORECASE)
_DATE = re.compile(r"(?P<month>[A-Za-z]+)\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})")
# A line that starts with a digit must be a rule: the number (with or without its closing period)
# and its text; after the period the space may be missing ("901.4.All plane and phenomenon…").
_RULE_LINE = re.compile(r"(?P<number>\d+\.(?:\d+[a-z]*\.?)?)(?:[ \t]+|(?<=\.)(?=[A-Z“]))(?P<text>\S.*?)\s*")
_EXAMPLE = "Example:"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class ParsedRule:
    """A numbered line of the rules with the examples (and continued paragraphs) below it."""

    number: str
    parent: str | None
    text: str
    examples: tuple[str, ...]
    line: int


@dataclass(frozen=True, slots=True)
class ParsedGlossaryEntry:
    term: str
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class RulesDocument:
    """One edition of the Comprehensive Rules, rules and glossary in document order."""

    path: Path
    title: str
    effective: dt.date
    rules: tuple[ParsedRule, ...]
    glossary: tuple[ParsedGlossaryEntry, ...]
    warnings: tuple[str, ...] = ()


class _Part(Enum):
    HEAD = "the title and introduction"
    CONTENTS = "the contents"
    RULES = "the numbered rules"
    GLOSSARY = "the glossary"
    CREDITS = "the credits"


@dataclass
class _Building:
    """A rule or glossary entry being read: later lines may still add paragraphs to it."""

    key: str
    line: int
    text: list[str]
    examples: list[list[str]] = field(default_factory=list)

    def add_paragraph(self, paragraph: str) -> None:
        (self.examples[-1] if self.examples else self.text).append(paragraph)


class _Parser:
    """A line-by-line state machine over the parts of the file (:class:`_Part`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.part = _Part.HEAD
        self.title = ""
        self.effective: dt.date | None = None
        self.head_lines: list[str] = []
        self.contents_first = ""
        self.rules: list[ParsedRule] = []
        self.glossary: list[ParsedGlossaryEntry] = []
        self.warnings: list[str] = []
        self.current: _Building | None = None
        self.seen: dict[str, int] = {}  # number -> line, for duplicates
        self.open: dict[int, str] = {}  # level -> the number being read at that level
        self.terms: dict[str, int] = {}
        self.lineno = 0

    def error(self, message: str, line: int | None = None) -> RulesFormatError:
        return RulesFormatError(self.path, message, f"line {line or self.lineno}")

    # -- the parts ---------------------------------------------------------------------------

    def feed(self, lineno: int, raw: str) -> None:
        self.lineno = lineno
        line = raw.rstrip()
        stripped = line.strip()
        if self.part is _Part.HEAD:
            self.head(line, stripped)
        elif self.part is _Part.CONTENTS:
            self.contents(line, stripped)
        elif self.part is _Part.RULES:
            self.rule_line(line, stripped)
        elif self.part is _Part.GLOSSARY:
            self.glossary_line(line, stripped)
        # The credits (and the date and trademarks repeated after them) are not stored.

    def head(self, line: str, stripped: str) -> None:
        if not stripped:
            return
        self.head_lines.append(stripped)
        if not self.title:
            # Where carddb.ingest.detect looks for it: one of the first three lines.
            if _TITLE.search(stripped):
                self.title = stripped
            elif len(self.head_lines) >= 3:
                raise self.not_rules()
            return
        effective = _EFFECTIVE.match(stripped)
        if effective:
            self.effective = self.parse_date(effective["date"])
        elif stripped == "Contents":
            self.require_edition()
            self.part = _Part.CONTENTS
        elif _RULE_LINE.fullmatch(stripped) and stripped.startswith("1. "):
            # No table of contents (a hand-made excerpt): the rules begin here.
            self.require_edition()
            self.part = _Part.RULES
            self.rule_line(line, stripped)

    def not_rules(self) -> NotRulesError:
        return NotRulesError(
            self.path,
            "not the Comprehensive Rules: the file does not open with their title "
            "(“Magic: The Gathering Comprehensive Rules”)",
            "line 1",
        )

    def require_edition(self) -> None:
        if self.effective is None:
            raise self.error(
                "no edition date: expected “These rules are effective as of <Month> <day>, <year>.” "
                "before the contents"
            )

    def parse_date(self, text: str) -> dt.date:
        match = _DATE.fullmatch(text.strip())
        name = match["month"].lower() if match else ""
        month = _MONTHS.index(name) + 1 if name in _MONTHS else 0
        if match is None or not month:
            raise self.error(f"unreadable edition date {text!r} (expected e.g. “February 7, 2025”)")
        try:
            return dt.date(int(match["year"]), month, int(match["day"]))
        except ValueError as exc:
            raise self.error(f"impossible edition date {text!r} ({exc})") from None

    def contents(self, line: str, stripped: str) -> None:
        """The table of contents repeats the chapter and section titles: nothing here is a rule.
        It ends with its ``Credits`` entry; a hand-cut copy may go straight on to the rules, which
        then begin by repeating its first entry."""
        if not stripped:
            return
        if stripped == "Credits":
            self.part = _Part.RULES
        elif not self.contents_first:
            self.contents_first = stripped
        elif stripped == self.contents_first:
            self.part = _Part.RULES
            self.rule_line(line, stripped)

    def rule_line(self, line: str, stripped: str) -> None:
        if not stripped:
            return
        if stripped == "Glossary":
            self.finish()
            self.part = _Part.GLOSSARY
            return
        if stripped == "Credits":
            self.finish()
            self.part = _Part.CREDITS
            return
        indented = line[0] in " \t"
        if not indented and stripped[0].isdigit():
            self.start_rule(stripped)
            return
        if self.current is None:
            raise self.error(f"text before the first rule: {stripped[:60]!r}")
        if stripped.startswith(_EXAMPLE):
            self.current.examples.append([stripped])
            return
        if not indented:
            # The published file indents a paragraph that continues a rule; an unindented one is
            # kept the same way, but said, in case it is a rule whose number went missing.
            self.warnings.append(
                f"{self.path.name}: line {self.lineno}: text without a rule number, kept as a "
                f"paragraph of rule {self.current.key}"
            )
        self.current.add_paragraph(stripped)

    def start_rule(self, stripped: str) -> None:
        match = _RULE_LINE.fullmatch(stripped)
        number = canonical_number(match["number"]) if match else None
        if match is None or number is None:
            raise self.error(
                f"malformed rule number in {stripped[:60]!r} (expected a number such as 7., 702., "
                "702.35. or 702.35a, then the rule's text)"
            )
        if number in self.seen:
            raise self.error(f"rule {number} appears twice (first at line {self.seen[number]})")
        level = level_of(number)
        parent = parent_of(number)
        if parent is not None and self.open.get(level - 1) != parent:
            reading = self.open.get(level - 1)
            where = f"the rules being read are under {reading}" if reading else "it was never opened"
            raise self.error(f"rule {number} is out of place: it belongs under {parent}, but {where}")
        self.finish()
        self.seen[number] = self.lineno
        self.open[level] = number
        for deeper in [key for key in self.open if key > level]:
            del self.open[deeper]
        self.current = _Building(number, self.lineno, [match["text"]])

    def glossary_line(self, line: str, stripped: str) -> None:
        if not stripped:
            self.finish()
            return
        if self.current is None:
            if stripped == "Credits":
                self.part = _Part.CREDITS
                return
            if stripped in self.terms:
                raise self.error(
                    f"glossary term {stripped!r} appears twice (first at line {self.terms[stripped]})"
                )
            self.terms[stripped] = self.lineno
            self.current = _Building(stripped, self.lineno, [])
            return
        self.current.add_paragraph(stripped)

    def finish(self) -> None:
        """Store the rule or glossary entry being read."""
        building, self.current = self.current, None
        if building is None:
            return
        if self.part is _Part.GLOSSARY:
            if not building.text:
                raise self.error(f"glossary term {building.key!r} has no definition", building.line)
            self.glossary.append(ParsedGlossaryEntry(building.key, "\n".join(building.text), building.line))
            return
        self.rules.append(
            ParsedRule(
                number=building.key,
                parent=parent_of(building.key),
                text="\n".join(building.text),
                examples=tuple("\n".join(example) for example in building.examples),
                line=building.line,
            )
        )

    def end(self) -> RulesDocument:
        """The whole file was read: check it was all there."""
        self.finish()
        if not self.title:
            raise self.not_rules()
        if self.part is not _Part.CREDITS:
            last = f"; the last rule read is {self.rules[-1].number}" if self.rules else ""
            if self.part is _Part.GLOSSARY and self.glossary:
                last = f"; the last glossary term read is {self.glossary[-1].term!r}"
            raise TruncatedRulesError(
                self.path,
                f"the file ends inside {self.part.value}, before the Credits: it was cut short{last}",
                f"line {self.lineno}",
            )
        if not self.rules:
            raise TruncatedRulesError(self.path, "the file holds no numbered rules", f"line {self.lineno}")
        if not self.glossary:
            raise TruncatedRulesError(
                self.path,
                "the file has no glossary before its Credits: it was cut short",
                f"line {self.lineno}",
            )
        assert self.effective is not None  # required before the contents or the rules begin
        return RulesDocument(
            path=self.path,
            title=self.title,
            effective=self.effective,
            rules=tuple(self.rules),
            glossary=tuple(self.glossary),
            warnings=tuple(self.warnings),
        )


def parse_rules(lines: Iterable[str], path: Path) -> RulesDocument:
    """Parse the lines of a rules file (without their line ends); errors name ``path`` and the
    line (counting from 1)."""
    parser = _Parser(path)
    for lineno, line in enumerate(lines, start=1):
        parser.feed(lineno, line)
    return parser.end()


_CHUNK = 256 * 1024


def read_rules(path: Path, on_progress: Callable[[int], None] | None = None) -> RulesDocument:
    """Read and parse a rules file (plain, ``.xz``, ``.gz`` or ``.bz2``). The whole file is read
    first (about 1 MB): nothing is written before it is known to be complete."""
    chunks: list[bytes] = []
    try:
        with open_tracked(path, on_progress) as reader:
            while chunk := reader.read(_CHUNK):
                chunks.append(chunk)
    except MalformedJSONError as exc:  # the decompressor's error, which names no JSON really
        raise TruncatedRulesError(path, exc.reason, exc.position) from None
    except (EOFError, lzma.LZMAError, zlib.error) as exc:
        raise TruncatedRulesError(path, f"truncated or corrupt compressed data ({exc})") from None
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise NotRulesError(
            path, f"not UTF-8 text (byte 0x{data[exc.start]:02x}), as the published rules are", f"line {line}"
        ) from None
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # the file's last line end
    return parse_rules(lines, path)
