"""Script-aware text normalisation for matching card names and searching card text.

:func:`normalize` folds what a person cannot be expected to type (case, width, typographic
punctuation, accents on Latin letters, Japanese reading hints) and keeps every distinction that
changes a word in its own script: Japanese voicing marks (ガ/カ), Cyrillic й/и. Russian ё is read
as е: writing ё is optional in Russian, and the cards themselves mostly print е ("полет" for
"полёт", flying), so a reader types either.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

__all__ = ["normalize", "strip_reading_hints"]

_KANJI = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f\u3005\u3006\u30f6"  # 々 〆 ヶ
_HIRAGANA = "\u3041-\u3096\u309d\u309e"
_OPEN = "(\uff08"  # ( and full-width （
_CLOSE = ")\uff09"

# A reading hint is a parenthesised run of hiragana right after a kanji: 肥（ひ）沃（よく）な.
# Katakana in that position is real text, e.g. the reminder 親和（アーティファクト）, so it stays.
# The corpus also has a hint cut off at the end of a name (リリアナの軍旗手（しゅ), dropped as well.
_READING_HINTS = re.compile(rf"(?<=[{_KANJI}])(?:[{_OPEN}][{_HIRAGANA}]+(?:[{_CLOSE}]|\s*$))+")

_QUOTES_AND_DASHES = {
    **dict.fromkeys(map(ord, "\u2019\u2018\u02bc`\u00b4\uff07"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u00ab\u00bb"), '"'),
    **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-"),
}

# Latin letters without a decomposition, read as plain letters (lowercase: applied after casefold).
_LATIN_SPECIAL = {"æ": "ae", "œ": "oe", "ø": "o", "ß": "ss", "đ": "d", "ł": "l", "\u0131": "i", "þ": "th"}
# Other letters read as another (lowercase, after casefold): Russian ё as е.
_READ_AS = {"ё": "е"}

# Blocks holding Latin letters (Latin-1 without × and ÷, Extended-A/B, IPA, Extended Additional, C, D, E).
_LATIN_RANGES = (
    (0x00C0, 0x00D6),
    (0x00D8, 0x00F6),
    (0x00F8, 0x02AF),
    (0x1E00, 0x1EFF),
    (0x2C60, 0x2C7F),
    (0xA720, 0xA7FF),
    (0xAB30, 0xAB6F),
)
_LATIN_CLASS = "a-zA-Z" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _LATIN_RANGES)


def _combining_class() -> str:
    """A regex class body for every combining mark (nonzero canonical combining class)."""
    codes = [code for code in range(0x30000) if unicodedata.combining(chr(code))]
    body: list[str] = []
    start = codes[0]
    for prev, code in zip(codes, [*codes[1:], -1], strict=True):
        if code != prev + 1:
            body.append(f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
            start = code
    return "".join(body)


def _latin_fold_table() -> dict[int, str]:
    """Map every precomposed Latin letter with diacritics to its base letters."""
    special = {ord(char): plain for char, plain in _LATIN_SPECIAL.items()}
    table: dict[int, str] = {}
    for lo, hi in _LATIN_RANGES:
        for code in range(lo, hi + 1):
            char = chr(code)
            if "LATIN" not in unicodedata.name(char, ""):
                continue
            marks = unicodedata.normalize("NFD", char)
            base = "".join(c for c in marks if not unicodedata.combining(c)).translate(special)
            if base and base != char:
                table[code] = base
    table.update(special)
    table.update({ord(char): plain for char, plain in _READ_AS.items()})
    return table


def _class_of(codes: Iterable[int]) -> str:
    """A regex character class body for ``codes``, as ranges."""
    ordered = sorted(set(codes))
    body: list[str] = []
    start = previous = ordered[0]
    for code in [*ordered[1:], -1]:
        if code != previous + 1:
            body.append(re.escape(chr(start)) + ("" if start == previous else "-" + re.escape(chr(previous))))
            start = code
        previous = code
    return "".join(body)


# str.translate looks every character up in its table, which for text outside ASCII costs more
# than the rest of normalize; a regex finds the few characters a table changes at C speed.
_QUOTES_RX = re.compile(f"[{_class_of(_QUOTES_AND_DASHES)}]")
_QUOTES_TEXT = {chr(code): value for code, value in _QUOTES_AND_DASHES.items()}


def _quotes(match: re.Match[str]) -> str:
    return _QUOTES_TEXT[match.group()]


@dataclass(frozen=True)
class _Folding:
    """What folding text beyond ASCII uses, built from Unicode data on first use (scanning every
    code point takes a while, and ASCII names, the common case, need none of it)."""

    # The Latin letters with diacritics, quotes and dashes, and ё: found by a regex, replaced
    # from the table.
    after_nfkc: re.Pattern[str]
    after_nfkc_text: dict[str, str]
    # Whether to look for combining marks at all: after NFKC a mark is rare, and a search with
    # the class of every combining mark is slow (its ranges beyond U+FFFF are tried one by one
    # for every character). So a text is searched only if it has a character in a quick class:
    # the marks of the Basic Multilingual Plane (looked up in a table) or any character beyond it.
    maybe_mark: re.Pattern[str]
    # Combining marks left on a Latin letter after the table (stacked marks, or no precomposed form).
    marks_on_latin: re.Pattern[str]

    def replace(self, match: re.Match[str]) -> str:
        return self.after_nfkc_text[match.group()]


@cache
def _folding() -> _Folding:
    table = {**_QUOTES_AND_DASHES, **_latin_fold_table()}
    bmp_marks = "".join(re.escape(chr(code)) for code in range(0x10000) if unicodedata.combining(chr(code)))
    return _Folding(
        after_nfkc=re.compile(f"[{_class_of(table)}]"),
        after_nfkc_text={chr(code): value for code, value in table.items()},
        maybe_mark=re.compile(f"[{bmp_marks}\U00010000-\U0010ffff]"),
        marks_on_latin=re.compile(rf"(?<=[{_LATIN_CLASS}])[{_combining_class()}]+"),
    )


def strip_reading_hints(text: str) -> str:
    """Remove Japanese reading hints: ``脱（ぬ）ぎ捨（す）て`` -> ``脱ぎ捨て``."""
    if "(" not in text and "\uff08" not in text:
        return text
    return _READING_HINTS.sub("", text)


def normalize(text: str) -> str:
    """Fold ``text`` to the form used to compare names: ``"Lim-Dûl"`` -> ``"lim-dul"``."""
    if text.isascii():
        return " ".join(text.lower().replace("`", "'").split())
    # Before NFKC too: NFKC turns ´ into a space and a combining accent.
    text = _QUOTES_RX.sub(_quotes, text)
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    folding = _folding()
    text = folding.after_nfkc.sub(folding.replace, text)
    if folding.maybe_mark.search(text):
        text = folding.marks_on_latin.sub("", text)
    return strip_reading_hints(" ".join(text.split()))
