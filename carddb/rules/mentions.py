"""Rule numbers mentioned in text: rulings and the rules themselves refer to rules in a handful
of written forms, all found in the published rules and in Gatherer rulings:

* after ``rule``/``rules``/``subrule``/``section`` (any case): ``see rule 702.35``, ``rule 704``
  (a section, stored ``704.``), ``section 8`` (a chapter, ``8.``), ``See rule 903, “Commander,”``;
* lists: ``rules 601.2b and 601.2f–h``, ``rules 613.2, 707.2, and 707.3``;
* ranges with an en dash, em dash or hyphen: of subrules (``601.2f–h`` is 601.2f, 601.2g, 601.2h;
  letters skip ``l`` and ``o``, as subrules do), of rules (``119.7–8``, ``712.9–10``), or written
  out (``903.6–903.11``);
* bare numbers of the full form section-dot-rule (``see 601.3d``, ``See 702.153, “Casualty.”``,
  ``steps 601.2a–h``), which nothing else in card text looks like. Bare sections and chapters
  (``704``, ``8``) are not taken: alone they are just numbers.

:func:`mentions` needs no database; :func:`resolve` looks every number up in the stored edition
in one query, so a ruling's links can say "not in the stored edition" for a rule that was
renumbered or removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from string import ascii_lowercase

from sqlalchemy import select
from sqlalchemy.orm import Session

from carddb.db.models import Rule
from carddb.rules.numbers import canonical_number

__all__ = ["Mention", "MentionedRule", "ResolvedMention", "expand", "mentions", "resolve", "rule_texts"]

_DASH = "[\u2013\u2014\u2012-]"
_SEPARATOR = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)"
_FULL = r"\d{3}\.\d+[a-z]?"
# A range's end: a full number, a rule number in the same section, or a subrule letter.
_END = rf"(?:{_FULL}|\d+|[a-z])"
# What may not follow a reference: more of a word or number ("702.35-style", "1000", "704.5x").
_NOT_AFTER = rf"(?![\w]|\.\d|{_DASH}\w)"


def _item(first: str) -> str:
    """One reference: a number, perhaps the start of a range."""
    return rf"(?:{first})(?:\s?{_DASH}\s?{_END})?{_NOT_AFTER}"


_AFTER_WORD = rf"{_FULL}|\d{{3}}|\d"  # after "rule": also sections (704) and chapters (8)
_LISTED = rf"{_FULL}|\d{{3}}"  # later in the list
_PREFIXED = re.compile(
    r"\b(?i:rules?|subrules?|sections?)[ \t\u00a0]+"
    rf"(?P<list>{_item(_AFTER_WORD)}(?:{_SEPARATOR}{_item(_LISTED)})*)"
)
_BARE = re.compile(rf"(?<![\w.\u2013\u2014\u2012-])(?P<list>{_item(_FULL)}(?:{_SEPARATOR}{_item(_FULL)})*)")
# The items of a list found by either pattern.
_ONE_ITEM = re.compile(rf"(?<![\w.])(?P<start>{_AFTER_WORD})(?:\s?{_DASH}\s?(?P<end>{_END}))?{_NOT_AFTER}")
_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrules skip l and o
_MAX_EXPANSION = 60


@dataclass(frozen=True, slots=True)
class Mention:
    """One reference in a text: ``text[start:end]`` is what it says (``601.2f–h``), ``numbers``
    the stored rule numbers it stands for (``601.2f``, ``601.2g``, ``601.2h``)."""

    start: int
    end: int
    text: str
    numbers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MentionedRule:
    """A mentioned rule looked up in the stored edition; ``text`` is None when it is not there."""

    number: str
    text: str | None

    @property
    def found(self) -> bool:
        return self.text is not None

    def __str__(self) -> str:
        return (
            f"{self.number} {self.text}"
            if self.text is not None
            else f"{self.number}: not in the stored edition"
        )


@dataclass(frozen=True, slots=True)
class ResolvedMention:
    """A mention with each rule it stands for, as stored."""

    mention: Mention
    rules: tuple[MentionedRule, ...]


def expand(start: str, end: str | None) -> tuple[str, ...]:
    """The stored numbers a written reference stands for: ``("601.2f", "h")`` → 601.2f, 601.2g,
    601.2h; ``("119.7", "8")`` → 119.7, 119.8; ``("903.6", "903.11")`` → 903.6 … 903.11. A range
    that does not make sense (reversed, across sections, mixing rules and subrules) gives its two
    ends only, and a very long one too, rather than guess."""
    first = canonical_number(start)
    if first is None:
        return ()
    if end is None:
        return (first,)
    if end.isalpha():
        last = first.rstrip(ascii_lowercase) + end if first[-1].isalpha() else None
    elif first.endswith("."):  # sections: "rules 704–705"
        last = canonical_number(end)
    elif end.isdigit():
        last = canonical_number(f"{first.split('.')[0]}.{end}") if not first[-1].isalpha() else None
    else:
        last = canonical_number(end)
    if last is None:
        return (first,)
    series = _series(first, last)
    return series if series is not None else (first, last)


def _series(first: str, last: str) -> tuple[str, ...] | None:
    """Every number from ``first`` to ``last`` when both are rules of one section or subrules of
    one rule."""
    if first.endswith(".") or last.endswith("."):
        return None
    if first[-1].isalpha() and last[-1].isalpha():
        base = first[:-1]
        if (
            last[:-1] != base
            or len(first) != len(last)
            or first[-1] not in _LETTERS
            or last[-1] not in _LETTERS
        ):
            return None
        low, high = _LETTERS.index(first[-1]), _LETTERS.index(last[-1])
        return tuple(base + letter for letter in _LETTERS[low : high + 1]) if low < high else None
    if first[-1].isalpha() or last[-1].isalpha():
        return None
    section, low_text = first.split(".")
    other, high_text = last.split(".")
    low, high = int(low_text), int(high_text)
    if section != other or not low < high or high - low >= _MAX_EXPANSION:
        return None
    return tuple(f"{section}.{n}" for n in range(low, high + 1))


def mentions(text: str) -> list[Mention]:
    """Every rule reference in ``text``, in order, one per number or range written."""
    found: dict[int, Mention] = {}
    for pattern in (_PREFIXED, _BARE):
        for listed in pattern.finditer(text):
            offset = listed.start("list")
            for item in _ONE_ITEM.finditer(listed["list"]):
                start = offset + item.start()
                if start in found:
                    continue
                numbers = expand(item["start"], item["end"])
                if numbers:
                    found[start] = Mention(start, offset + item.end(), item.group(0), numbers)
    return [found[start] for start in sorted(found)]


def rule_texts(session: Session, numbers: Iterable[str]) -> dict[str, str]:
    """The stored text of each of ``numbers`` that the stored edition has, in one query."""
    wanted = sorted(set(numbers))
    if not wanted:
        return {}
    rows = session.execute(select(Rule.number, Rule.text).where(Rule.number.in_(wanted)))
    return {number: text for number, text in rows}


def resolve(session: Session, text: str) -> list[ResolvedMention]:
    """Every rule reference in ``text`` with the rules it stands for, as stored (a rule the stored
    edition does not have comes with ``text=None``)."""
    found = mentions(text)
    texts = rule_texts(session, (number for mention in found for number in mention.numbers))
    return [
        ResolvedMention(mention, tuple(MentionedRule(n, texts.get(n)) for n in mention.numbers))
        for mention in found
    ]
