"""Checking the values a source gives before they become records: types, sizes and characters.

One place decides what a field may hold, so every source refuses or warns the same way:

* a value far longer than any real card's (:data:`LIMITS`: a name of 500 characters, a rules text
  of 20,000) is refused: :class:`ValueTooLongError` names the file, the card and the field, and the
  file is not imported (a 50 MB name is not data, and storing it would make every lookup slow);
* a value of the wrong type (a number where text belongs, a mana value written ``"3"``, a date
  that is not a date) is taken when its meaning is plain (``"3"`` is 3) and otherwise left out,
  with a warning naming the card and the field;
* characters no text holds (NUL and the other C0 controls but tab and newline, lone UTF-16
  surrogates, which only a broken ``\\ud800`` escape makes) are removed or replaced by U+FFFD, with
  a warning.

Warnings go through a ``warn(key, message)`` callback; :class:`Warnings` is the usual one: it says
each kind of problem once, naming the first card it was seen on, and counts the others.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carddb.errors import SourceError

__all__ = [
    "ESCAPES",
    "LIMITS",
    "MAX_INT32",
    "Rule",
    "ValueTooLongError",
    "Warn",
    "Warnings",
    "Where",
    "checked_date",
    "checked_int",
    "checked_number",
    "checked_record",
    "checked_text",
    "checked_words",
]

Warn = Callable[[str, str], None]
"""``warn(key, message)``: report a problem once per distinct ``key``."""

LIMITS: Mapping[str, int] = {
    "name": 500,
    "type": 500,
    "text": 20_000,
    "flavor": 20_000,
    "ruling": 20_000,
    "short": 200,
}
"""The longest value of each kind of field, in characters: 25 times the longest in the whole card
pool (names 141, rules text 769, a ruling 1,505), so no real card comes near them."""

MAX_INT32 = 2**31 - 1
"""Multiverse ids are stored as 32-bit integers."""

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
ESCAPES = re.compile(r"\\u(?:00[01]|007[fF]|[dD][89a-fA-F])")
"""In raw JSON text: the escapes that make control characters or surrogates. JSON allows neither
unescaped, so a JSON value whose text has none of these holds neither (see :func:`checked_record`)."""

TEXT, NUMBER, INT, DATE, WORDS, IDS, RECORDS = "text", "number", "int", "date", "words", "ids", "records"
Rule = tuple[str, str]
"""How a field is checked: (``TEXT``, a kind of :data:`LIMITS`), (``NUMBER``, ""), (``INT``, ""),
(``DATE``, ""), (``WORDS``, "") a list of short texts, (``IDS``, "") an object of short texts or
numbers, (``RECORDS``, "") a list of objects (checked one by one by the caller)."""


class Warnings:
    """Warnings of one file: the first message of each key, and how many more times it came up."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._first: dict[str, str] = {}
        self._more: dict[str, int] = {}

    def __call__(self, key: str, message: str) -> None:
        if key in self._first:
            self._more[key] = self._more.get(key, 0) + 1
        else:
            self._first[key] = message

    def lines(self) -> list[str]:
        """One line per kind of problem: ``AFR.json: <message> (and 3 more like it)``."""
        return [
            f"{self.path.name}: {message}"
            + (f" (and {self._more[key]:,} more like it)" if key in self._more else "")
            for key, message in self._first.items()
        ]


class ValueTooLongError(SourceError):
    """A field longer than any real card's: the file is refused."""


@dataclass(frozen=True, slots=True)
class Where:
    """Which record of which file a value belongs to, for messages: ``AFR.json: set AFR, card
    'Underdark Rift'``."""

    path: Path
    record: str

    def field(self, name: str) -> str:
        return f"{self.record}, field {name!r}"


def checked_record(
    record: dict[str, Any], rules: Mapping[str, Rule], where: Where, warn: Warn, escaped: bool = True
) -> dict[str, Any]:
    """``record`` with every field of ``rules`` checked: the record itself when all are fine (the
    usual case: one pass, no copy), else a copy with each field cleaned or left out, with warnings
    (by :func:`checked_text` and the other functions here). Fields without a rule are kept as they
    are. ``escaped=False`` says the record's JSON text has none of the :data:`ESCAPES`, so its
    texts need no search for control characters or surrogates."""
    for key, value in record.items():
        rule = rules.get(key)
        if rule is None or value is None or _plainly_fine(value, rule, escaped):
            continue
        return _cleaned(record, rules, where, warn)
    return record


def _plainly_fine(value: object, rule: Rule, escaped: bool) -> bool:
    kind, size = rule
    kind_of = type(value)
    if kind == TEXT:
        return kind_of is str and len(value) <= LIMITS[size] and not escaped  # type: ignore[arg-type]
    if kind == NUMBER:
        return (kind_of is float or kind_of is int) and 0 <= value <= 1e7  # type: ignore[operator]
    if kind == INT:
        return kind_of is int and 0 <= value <= MAX_INT32  # type: ignore[operator]
    if kind == DATE:
        return kind_of is str and len(value) <= 32  # type: ignore[arg-type]
    if kind == WORDS:
        return kind_of is list and all(
            type(word) is str and len(word) <= LIMITS["short"] and not escaped
            for word in value  # type: ignore[attr-defined]
        )
    if kind == IDS:
        return kind_of is dict and all(
            (type(v) is str and len(v) <= LIMITS["short"] and not escaped) or type(v) is int
            for v in value.values()  # type: ignore[attr-defined]
        )
    return kind_of is list


def _cleaned(record: dict[str, Any], rules: Mapping[str, Rule], where: Where, warn: Warn) -> dict[str, Any]:
    cleaned: dict[str, Any] = {}
    for key, value in record.items():
        rule = rules.get(key)
        if rule is None or value is None:
            cleaned[key] = value
            continue
        kind, size = rule
        if kind == TEXT:
            cleaned[key] = checked_text(value, key, size, where, warn)
        elif kind == NUMBER:
            cleaned[key] = checked_number(value, key, where, warn)
        elif kind == INT:
            cleaned[key] = checked_int(value, key, where, warn)
        elif kind == DATE:
            cleaned[key] = value if isinstance(value, str) else None
            checked_date(value, key, where, warn)
        elif kind == WORDS:
            cleaned[key] = list(checked_words(value, key, where, warn))
        elif kind == IDS:
            cleaned[key] = _checked_ids(value, key, where, warn)
        elif isinstance(value, list):
            cleaned[key] = value
        else:
            warn(f"list:{key}", f"{where.field(key)}: expected a list, found {_json_type(value)}; left out")
            cleaned[key] = None
    return cleaned


def _checked_ids(value: object, field: str, where: Where, warn: Warn) -> dict[str, str]:
    if not isinstance(value, dict):
        warn(f"ids:{field}", f"{where.field(field)}: expected an object, found {_json_type(value)}; left out")
        return {}
    ids: dict[str, str] = {}
    for key, entry in value.items():
        if isinstance(entry, int) and not isinstance(entry, bool):
            entry = str(entry)
        text = checked_text(entry, f"{field}.{key}", "short", where, warn)
        if text is not None:
            ids[str(key)[: LIMITS["short"]]] = text
    return ids


def checked_text(value: object, field: str, kind: str, where: Where, warn: Warn) -> str | None:
    """``value`` as text for ``field`` (``kind`` one of :data:`LIMITS`), or None when absent.

    A number or a boolean where text belongs is a warning and is left out; so is anything else
    that is not a string. Text longer than the kind's limit raises :class:`ValueTooLongError`.
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        warn(
            f"type:{field}",
            f"{where.field(field)}: expected text, found {_json_type(value)}; left out",
        )
        return None
    limit = LIMITS[kind]
    if len(value) > limit:
        raise ValueTooLongError(
            where.path, f"{where.field(field)} is {len(value):,} characters long (at most {limit:,})"
        )
    if _CONTROL.search(value):
        warn(f"control:{field}", f"{where.field(field)}: control characters removed")
        value = _CONTROL.sub("", value)
    if _SURROGATE.search(value):
        warn(
            f"surrogate:{field}",
            f"{where.field(field)}: broken UTF-16 escapes (lone surrogates) replaced by U+FFFD",
        )
        value = _SURROGATE.sub("\ufffd", value)
    return value or None


def checked_number(
    value: object, field: str, where: Where, warn: Warn, *, low: float = 0.0, high: float = 1e7
) -> float | None:
    """``value`` as a finite number between ``low`` and ``high``: a numeric string is taken with a
    warning, anything else is left out with one."""
    if value is None:
        return None
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    if number is None or not math.isfinite(number) or not low <= number <= high:
        warn(
            f"number:{field}",
            f"{where.field(field)}: expected a number from {low:g} to {high:g}, "
            f"found {_shown(value)}; left out",
        )
        return None
    if isinstance(value, str):
        warn(
            f"numstr:{field}",
            f"{where.field(field)}: the number {value!r} is written as text; read as {number:g}",
        )
    return number


def checked_int(value: object, field: str, where: Where, warn: Warn, *, high: int = MAX_INT32) -> int | None:
    """``value`` as a non-negative integer no larger than ``high`` (a multiverse id), from a number
    or a string of digits; anything else is left out with a warning."""
    if value is None or value == "":
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.isdigit() and len(value) <= 12:
        number = int(value)
    if number is None or not 0 <= number <= high:
        warn(
            f"int:{field}",
            f"{where.field(field)}: expected a whole number from 0 to {high:,}, "
            f"found {_shown(value)}; left out",
        )
        return None
    return number


def checked_date(value: object, field: str, where: Where, warn: Warn) -> dt.date | None:
    """A date written ``YYYY-MM-DD`` (a longer timestamp is cut to its date); anything else is left
    out with a warning."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value[:10])
        except ValueError:
            pass
    warn(
        f"date:{field}",
        f"{where.field(field)}: expected a date (YYYY-MM-DD), found {_shown(value)}; left out",
    )
    return None


def checked_words(value: object, field: str, where: Where, warn: Warn) -> tuple[str, ...]:
    """A list of short strings (colours, keywords); other entries are left out with a warning."""
    if value is None:
        return ()
    if not isinstance(value, list):
        warn(f"list:{field}", f"{where.field(field)}: expected a list, found {_json_type(value)}")
        return ()
    words: list[str] = []
    for entry in value:
        checked = checked_text(entry, field, "short", where, warn) if isinstance(entry, str) else None
        if checked is None:
            if not isinstance(entry, str):
                warn(
                    f"list:{field}",
                    f"{where.field(field)}: entries that are not text left out ({_shown(entry)})",
                )
            continue
        words.append(checked)
    return tuple(words)


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value!r}" if abs(value) < 1e15 else "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "…")
    return _json_type(value)
