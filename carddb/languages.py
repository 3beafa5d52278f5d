"""The language model: one canonical :class:`Language` per language, whatever a source calls it.

MTGJSON names languages with words (``"Portuguese (Brazil)"``), Scryfall with codes (``"pt"``,
``"zhs"``), people with tags, native names or locale identifiers (``de_AT.UTF-8``, ``zh-TW``).
:func:`resolve` maps all of these to the same object; locale data and native names come from Babel.

Babel is imported by the functions that read its data, not with this module: a tag stored in the
database (:func:`by_tag`) needs none of it, and a command that shows no language name or date
(``carddb search`` in English) does not load it.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from carddb.errors import UnknownLanguageError
from carddb.text import normalize

__all__ = [
    "KNOWN",
    "Language",
    "by_tag",
    "default_language",
    "from_source_name",
    "negotiate",
    "resolve",
]


@dataclass(frozen=True, slots=True)
class Language:
    """A language cards are printed in; ``tag`` is the canonical identifier stored in the database."""

    tag: str
    english_name: str
    babel_locale: str | None
    mtgjson_name: str | None
    scryfall_code: str | None

    @property
    def native_name(self) -> str:
        """The language's name in itself ("Deutsch", "日本語"), or the English name without Babel data."""
        if self.babel_locale is None:
            return self.english_name
        return _native_name(self.babel_locale) or self.english_name

    @property
    def is_synthetic(self) -> bool:
        """Whether this is a placeholder for a language name the table does not know (tag ``x-…``)."""
        return self.tag.startswith("x-")

    def format_date(self, d: datetime.date, format: str = "long") -> str:
        """``d`` formatted by Babel in this language (English when Babel has no locale for it)."""
        from babel.dates import format_date  # deferred: see the module's docstring

        return str(format_date(d, format=format, locale=self.babel_locale or "en"))

    def parse_date(self, text: str) -> datetime.date:
        """``text`` read as this language's locale writes a short date (``23/07/2021`` in Spanish,
        ``23.07.2021`` in German), with Babel; :class:`ValueError` naming the expected pattern when
        it is not written that way or is no real date.

        Babel alone reads leniently (``2021-07-23`` in any locale, and it swaps day and month when
        the month is out of range), which would turn a page's American date into a wrong one
        silently: the text must have the shape of the locale's short pattern, and Babel's day and
        month must be the ones written in their places.
        """
        locale = self.babel_locale
        if locale is None:
            raise ValueError(f"no locale data to read dates in {self.english_name}")
        shape, pattern = _short_date_shape(locale)
        match = shape.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not a date as {self.english_name} writes it ({pattern})")
        from babel.dates import parse_date  # deferred: see the module's docstring

        try:
            parsed = parse_date(text.strip(), locale=locale, format="short")
        except (ValueError, IndexError) as exc:
            raise ValueError(f"{text!r} is not a real date ({pattern}): {exc}") from None
        if (parsed.day, parsed.month) != (int(match["d"]), int(match["M"])):
            raise ValueError(f"{text!r} is not a real date ({pattern}: day {match['d']}, month {match['M']})")
        return parsed

    def __str__(self) -> str:
        return self.tag


ENGLISH = Language("en", "English", "en", "English", "en")
KNOWN: tuple[Language, ...] = (
    ENGLISH,
    Language("de", "German", "de", "German", "de"),
    Language("es", "Spanish", "es", "Spanish", "es"),
    Language("fr", "French", "fr", "French", "fr"),
    Language("it", "Italian", "it", "Italian", "it"),
    Language("ja", "Japanese", "ja", "Japanese", "ja"),
    Language("ko", "Korean", "ko", "Korean", "ko"),
    Language("pt-BR", "Portuguese (Brazil)", "pt_BR", "Portuguese (Brazil)", "pt"),
    Language("ru", "Russian", "ru", "Russian", "ru"),
    Language("zh-Hans", "Simplified Chinese", "zh_Hans", "Chinese Simplified", "zhs"),
    Language("zh-Hant", "Traditional Chinese", "zh_Hant", "Chinese Traditional", "zht"),
    Language("ph", "Phyrexian", None, "Phyrexian", "ph"),
    Language("he", "Hebrew", "he", "Hebrew", "he"),
    Language("la", "Latin", "la", "Latin", "la"),
    Language("grc", "Ancient Greek", None, "Ancient Greek", "grc"),
    Language("ar", "Arabic", "ar", "Arabic", "ar"),
    Language("sa", "Sanskrit", "sa", "Sanskrit", "sa"),
    Language("qya", "Quenya", None, "Quenya", "qya"),
)
_BY_TAG = {language.tag: language for language in KNOWN}
_BY_FOLDED_TAG = {language.tag.lower(): language for language in KNOWN}
_CHOICES = tuple(_BY_TAG)

# Names people use that neither the table nor Babel's display names give.
_ALIASES = {
    "Portuguese": "pt-BR",
    "Brazilian Portuguese": "pt-BR",
    "Chinese": "zh-Hans",
    "简体中文": "zh-Hans",
    "繁體中文": "zh-Hant",
    "繁体中文": "zh-Hant",
}
# Babel language codes (after its alias table: iw -> he) of the languages other than Chinese.
_BY_LANGUAGE_CODE = {lang.tag.split("-")[0]: lang for lang in KNOWN if not lang.tag.startswith("zh")}
_CHINESE_BY_SCRIPT = {"Hans": _BY_TAG["zh-Hans"], "Hant": _BY_TAG["zh-Hant"]}
# Babel parses the POSIX locale names "C" and "POSIX" as en_US_POSIX; they name no language.
_NOT_LANGUAGES = frozenset({"c", "posix"})
_TAG_LENGTH = 32  # the width of the language columns in the database
_SYNTHETIC_TAG = re.compile(r"x-[a-z0-9]+(?:-[a-z0-9]+)*")
_QUALITY = re.compile(r"\s*;\s*q\s*=\s*([0-9.]+)\s*$", re.IGNORECASE)


@functools.cache
def _short_date_shape(babel_locale: str) -> tuple[re.Pattern[str], str]:
    """A regular expression for dates written in the locale's short pattern (``d/M/yy`` -> day,
    month and a two- or four-digit year, ``/`` between), and the pattern itself."""
    from babel.dates import get_date_format  # deferred: see the module's docstring

    pattern = str(get_date_format("short", locale=babel_locale).pattern)
    parts = []
    for token in re.findall(r"d+|M+|y+|'[^']*'|.", pattern):
        if token[0] == "d":
            parts.append(r"(?P<d>\d{1,2})")
        elif token[0] == "M":
            parts.append(r"(?P<M>\d{1,2})")
        elif token[0] == "y":
            parts.append(r"(?P<y>\d{4}|\d{2})")
        else:
            parts.append(re.escape(token.strip("'")))
    return re.compile("".join(parts)), pattern


@functools.cache
def _native_name(babel_locale: str) -> str | None:
    """Babel's display name of ``babel_locale`` in its own language."""
    from babel import Locale  # deferred: see the module's docstring

    name = Locale.parse(babel_locale).get_display_name()
    return str(name) if name else None


def _key(value: str) -> str:
    """The lookup key of a name, code or tag: case, width, accents and ``_``/``-`` folded."""
    return normalize(value).replace("_", "-")


@functools.cache
def _index() -> dict[str, Language]:
    """Every tag, code and name of the known languages, by :func:`_key`."""
    from babel import Locale  # deferred: see the module's docstring

    english = Locale("en")
    index: dict[str, Language] = {}
    for language in KNOWN:
        names = [language.tag, language.english_name, language.mtgjson_name, language.scryfall_code]
        if language.babel_locale is not None:
            own = Locale.parse(language.babel_locale)
            # The bare language name ("中文", "português") goes to the first entry: zh-Hans, pt-BR.
            names += [
                language.babel_locale,
                own.get_display_name(),
                own.get_display_name(english),
                own.get_language_name(),
            ]
        for name in names:
            if name:
                index.setdefault(_key(name), language)
    for alias, tag in _ALIASES.items():
        index[_key(alias)] = _BY_TAG[tag]
    return index


@functools.lru_cache(maxsize=1024)
def _from_locale_identifier(value: str) -> Language | None:
    """The known language of a locale identifier such as ``de_AT.UTF-8`` or ``zh-TW``, via Babel."""
    from babel.core import get_global, parse_locale  # deferred: see the module's docstring

    try:
        language, territory, script, *_ = parse_locale(value.replace("-", "_"))
    except ValueError:
        return None
    if language in _NOT_LANGUAGES:
        return None
    alias = get_global("language_aliases").get(language)
    if alias is not None:
        try:
            language, alias_territory, alias_script, *_ = parse_locale(alias)
        except ValueError:
            return None
        territory, script = territory or alias_territory, script or alias_script
    if language != "zh":
        return _BY_LANGUAGE_CODE.get(language)
    if script is None:
        likely = get_global("likely_subtags")
        likely_locale = likely.get(f"zh_{territory}") if territory else None
        script = parse_locale(likely_locale or likely["zh"])[2]
    return _CHINESE_BY_SCRIPT.get(script or "")


def _unknown(value: str) -> UnknownLanguageError:
    return UnknownLanguageError(value, _CHOICES)


def resolve(value: str) -> Language:
    """The known language ``value`` names: a tag, Scryfall code, MTGJSON, English or native name, or locale.

    Raises :class:`UnknownLanguageError` for anything else, including empty input.
    """
    stripped = value.strip()
    if not stripped:
        raise _unknown(value)
    language = _index().get(_key(stripped)) or _from_locale_identifier(stripped)
    if language is None:
        if stripped.lower().startswith("x-"):  # a tag the data carries for a language not in the table
            return by_tag(stripped.lower())
        raise _unknown(value)
    return language


def _synthetic_tag(name: str) -> str:
    """``x-`` and the lowercase ASCII letters and digits of ``name``, hyphen-joined, at most 32 characters."""
    ascii_name = unicodedata.normalize("NFKD", normalize(name)).encode("ascii", "ignore").decode()
    tag = "x-" + "-".join(re.findall(r"[a-z0-9]+", ascii_name))
    digest = hashlib.sha1(name.encode()).hexdigest()[:8]
    if tag == "x-":  # no Latin letter or digit at all: the tag still has to be stable
        return tag + "u" + digest
    if len(tag) > _TAG_LENGTH:
        return tag[: _TAG_LENGTH - len(digest) - 1].rstrip("-") + "-" + digest
    return tag


def _synthetic(tag: str, name: str) -> Language:
    return Language(tag, name, None, None, None)


@functools.cache
def from_source_name(name: str) -> tuple[Language, bool]:
    """The language an imported record names, and whether it is a known one.

    An unknown name gives ``(synthetic language tagged "x-<slug>", False)`` instead of an error
    ("Klingon Variant" -> "x-klingon-variant"); only an empty or blank ``name`` raises
    :class:`UnknownLanguageError`.
    """
    try:
        return resolve(name), True
    except UnknownLanguageError:
        stripped = name.strip()
        if not stripped:
            raise
    return _synthetic(_synthetic_tag(stripped), stripped), False


def by_tag(tag: str) -> Language:
    """The language a tag stored in the database stands for; ``x-…`` tags give a synthetic language.

    A synthetic language's English name is rebuilt from its tag ("x-klingon-variant" -> "Klingon
    Variant"), so ``by_tag("x-klingon-variant") == from_source_name("Klingon Variant")[0]``.
    """
    known = _BY_TAG.get(tag)
    if known is not None:
        return known
    folded = tag.strip().replace("_", "-").lower()
    known = _BY_FOLDED_TAG.get(folded)
    if known is not None:
        return known
    if _SYNTHETIC_TAG.fullmatch(folded) is None:
        raise _unknown(tag)
    return _synthetic(folded, folded[2:].replace("-", " ").title())


def _parse_preferences(preferred: Sequence[str]) -> list[str]:
    """Preferences split at ``,`` or ``:`` (``LANGUAGE=de_AT:de``), ordered by ``q=`` weight, stably."""
    weighted: list[tuple[float, str]] = []
    for entry in preferred:
        for part in re.split(r"[,:]", entry):
            value, quality = part, 1.0
            match = _QUALITY.search(part)
            if match is not None:
                value = part[: match.start()]
                try:
                    quality = float(match.group(1))
                except ValueError:
                    quality = 0.0
            if value.strip() and quality > 0:
                weighted.append((quality, value.strip()))
    weighted.sort(key=lambda item: -item[0])
    return [value for _, value in weighted]


def negotiate(preferred: Sequence[str], available: Sequence[str]) -> Language | None:
    """The first of ``preferred`` (tags, locales such as ``de_AT.UTF-8``, ``fr;q=0.8``) in ``available``.

    A regional or script preference matches the language holding it (``de-CH`` -> ``de``,
    ``zh-TW`` -> ``zh-Hant``); ``*`` takes the first available. None when nothing matches.
    """
    offered: dict[str, Language] = {}
    for tag in available:
        try:
            language = resolve(tag)
        except UnknownLanguageError:
            try:
                language = by_tag(tag)
            except UnknownLanguageError:
                continue
        offered.setdefault(language.tag, language)
    for value in _parse_preferences(preferred):
        if value == "*" and offered:
            return next(iter(offered.values()))
        try:
            language = resolve(value)
        except UnknownLanguageError:
            try:
                language = by_tag(value)
            except UnknownLanguageError:
                continue
        if language.tag in offered:
            return offered[language.tag]
    return None


def default_language() -> Language:
    """The language used when nothing else is asked for: English."""
    return ENGLISH
